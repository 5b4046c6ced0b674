import HTTPTypes

/// The server's one hook for answers the application prepared before the request came: asked on
/// the libmicrohttpd thread for every GET and HEAD (without a body) before any `Request` is built,
/// so a repeated URL costs the application's lookup and the native response, not routing and
/// parsing (docs/transport.md "The prepared-response hook").
///
/// The server knows nothing about which answers are prepared, for which key, for how long or in
/// which language: that is the application's policy. It gives a `RawRequest` (the target's bytes,
/// header lookups by name, the method) and queues the `PreparedResponse` the application chose.
///
/// Contract: `answer` runs on one of libmicrohttpd's few threads for every such request, so it must
/// not block, wait or hop threads, and should not allocate; the `RawRequest` is valid only during
/// the call. Return what `RawRequest.send` returned to answer, or nil to let the handler answer.
public protocol PreparedResponses: Sendable {
    /// The answer to `request` when the application has one prepared (see the protocol).
    func answer(_ request: RawRequest) -> RawRequest.Sent?
}
