internal import CMicroHTTPD
import Foundation
import HTTPTypes

/// The request target as it arrived, as bytes: the raw path, then `?` or `&` before each raw query
/// item, `name` or `name=value` (libmicrohttpd splits the query at `&` and the first `=`, so the
/// bytes name one target), and with `languages`, a NUL (never part of the target's C strings)
/// and the index of the language `Accept-Language` chooses.
enum TargetKey {
    /// Writes the key into `buffer`; its length, or nil when it does not fit.
    static func write(connection: OpaquePointer, url: UnsafePointer<CChar>, languages: LanguageNegotiation?,
                      into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        var writer = Writer(base: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), capacity: buffer.count)
        writer.append(url)
        withUnsafeMutablePointer(to: &writer) { pointer in
            _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, appendQueryItem, pointer)
        }
        if let languages {
            let chosen: Int
            if let header = MHD_lookup_connection_value(connection, .HEADER_KIND, HTTPField.Name.acceptLanguage.rawName) {
                chosen = languages.choose(bytes: UnsafeBufferPointer(start: UnsafeRawPointer(header).assumingMemoryBound(to: UInt8.self),
                                                                     count: strlen(header)))
            } else {
                chosen = 0
            }
            writer.append(0)
            writer.append(UInt8(chosen))
        }
        return writer.overflowed ? nil : writer.count
    }

    /// The key as an array (for `Request.targetKey`); nil when longer than `KeptAnswers.maxKeyBytes`.
    static func make(connection: OpaquePointer, url: UnsafePointer<CChar>, languages: LanguageNegotiation?) -> [UInt8]? {
        withUnsafeTemporaryAllocation(byteCount: KeptAnswers.maxKeyBytes, alignment: 8) { buffer in
            write(connection: connection, url: url, languages: languages, into: buffer)
                .map { Array(UnsafeRawBufferPointer(rebasing: buffer[..<$0])) }
        }
    }

    struct Writer {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int
        var count = 0
        var items = 0
        var overflowed = false

        mutating func append(_ text: UnsafePointer<CChar>) {
            let length = strlen(text)
            guard !overflowed, count + length <= capacity else { overflowed = true; return }
            UnsafeMutableRawPointer(base + count).copyMemory(from: text, byteCount: length)
            count += length
        }

        mutating func append(_ byte: UInt8) {
            guard !overflowed, count < capacity else { overflowed = true; return }
            base[count] = byte
            count += 1
        }
    }
}

/// `MHD_KeyValueIterator` appending one query item to a `TargetKey.Writer`.
private let appendQueryItem: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let writer = cls.assumingMemoryBound(to: TargetKey.Writer.self)
    writer.pointee.append(writer.pointee.items == 0 ? UInt8(ascii: "?") : UInt8(ascii: "&"))
    writer.pointee.items += 1
    writer.pointee.append(key)
    if let value {
        writer.pointee.append(UInt8(ascii: "="))
        writer.pointee.append(value)
    }
    return .YES
}
