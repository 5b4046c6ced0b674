import Foundation

/// Catalog texts put into the templates once per language at startup: a template
/// names a text as `{{t:key}}` and holds no words of its own, so each language gets its own
/// compiled templates and a page spends nothing per request on static texts.
///
/// The substitution happens on the source, before parsing, so the result is plain Mustache (what
/// swift-mustache renders the same way: CompiledTemplatesTests compare them on localized copies).
public enum TemplateLocalization {
    /// The opener of a text tag.
    public static let opener = "{{t:"

    /// `source` with every `{{t:key}}` replaced by the key's text, HTML-escaped; throws naming the
    /// file and key for a key `text` does not know, or an unclosed tag.
    public static func localize(_ source: String, file: String, text: (String) -> String?) throws(CompiledTemplates.LoadError) -> String {
        guard source.contains(opener) else { return source }
        var output = ""
        output.reserveCapacity(source.utf8.count + 1024)
        var rest = source[...]
        while let open = rest.range(of: opener) {
            output += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                throw CompiledTemplates.LoadError(file: file, line: 0, column: 0, message: "unclosed text tag {{t:")
            }
            let key = String(rest[open.upperBound..<close.lowerBound])
            guard let value = text(key) else {
                throw CompiledTemplates.LoadError(file: file, line: 0, column: 0, message: "{{t:\(key)}} names no text of the message catalog")
            }
            var escaped: [UInt8] = []
            HTMLText.escape(value, into: &escaped)
            output += String(decoding: escaped, as: UTF8.self)
            rest = rest[close.upperBound...]
        }
        output += rest
        return output
    }

    /// The keys `source` names in text tags, in order.
    public static func keys(in source: String) -> [String] {
        var keys: [String] = []
        _ = try? localize(source, file: "") { key in
            keys.append(key)
            return ""
        }
        return keys
    }
}
