internal import CMicroHTTPD
import Foundation
import HTTPTypes

extension HTTPServer {
    /// The first call of a request whose method is not GET or HEAD: asks the application's body
    /// policy, then answers at once (405 without a policy, the policy's refusal, 413 for a declared
    /// length over the limit) or prepares the body's reader and its deadline.
    ///
    /// Answering here, before any body byte is read, is what libmicrohttpd allows (a response can be
    /// queued only before the body or after all of it) and what keeps an oversized upload from being
    /// read at all: libmicrohttpd then sends no `100 Continue` and closes the connection after the answer.
    func startBody(connection: OpaquePointer, context: RequestContext) -> MHD_Result {
        guard let bodyPolicy = configuration.bodyPolicy else {
            var response = serverAnswer(405, "Method \(context.method) is not allowed.", connection: connection, context: context)
            response.headers[.allow] = "GET, HEAD"
            return queue(response, on: connection, method: context.method)
        }
        let head = head(of: connection, context: context)
        context.head = head
        switch bodyPolicy(head) {
        case .refuse(var response):
            response.headers[.connection] = "close"
            return queue(response, on: connection, method: context.method)
        case .accept(let limits, let decided):
            context.decided = decided
            if let length = head.contentLength, length > limits.maxBytes {
                var response = configuration.bodyRefusal(.tooLarge, head)
                response.headers[.connection] = "close"
                return queue(response, on: connection, method: context.method)
            }
            let type = head.headers[.contentType]?.lowercased() ?? ""
            let isForm = type.hasPrefix("multipart/form-data") || type.hasPrefix("application/x-www-form-urlencoded")
            context.bodyReader = BodyReader(connection: connection, limits: limits, isForm: isForm, contentType: head.headers[.contentType])
            if let watch, let entry = ConnectionWatch.entry(of: connection) { watch.bodyExpected(entry, within: limits.deadline) }
            return .YES
        }
    }

    /// What the body policy sees: method, decoded path, header fields, declared length, peer.
    func head(of connection: OpaquePointer, context: RequestContext) -> RequestHead {
        let (headers, authority) = collectHeaders(connection)
        let length = headers[.contentLength].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        return RequestHead(
            method: context.method,
            path: PercentDecoding.decode(context.rawPath),
            headers: headers,
            authority: authority,
            contentLength: length,
            clientAddress: petspot_mhd_client_address(connection).flatMap { SocketAddress.text(of: $0) }
        )
    }
}
