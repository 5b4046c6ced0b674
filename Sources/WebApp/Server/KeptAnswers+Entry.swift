import Foundation
import HTTPTypes
import MicroHTTP

extension KeptAnswers {
    /// One kept answer: its representations (identity, and the gzip and br forms when it is
    /// compressible), each a `PreparedResponse`. The coding is chosen per request on the bytes of
    /// `Accept-Encoding`, after the entry is found: one lookup whatever the coding.
    final class Entry: Sendable {
        /// The request target's bytes (`Request.rawTarget`).
        let target: [UInt8]
        /// The index of the language `Accept-Language` chose (0 when answers do not vary by it).
        let language: UInt8
        let route: String
        let path: String
        let until: ContinuousClock.Instant
        let cost: Int
        /// The codings of the compressed representations (`ContentCoding.bit`s); 0 when the answer
        /// is never compressed.
        let available: UInt8
        /// The answer says `Vary: Accept` (a photo variant, `PhotoFormat`): only the WebP form is kept,
        /// and it is given only to a request whose `Accept` takes WebP.
        let variesByAccept: Bool
        /// By `ContentCoding.rawValue`: identity always, the others when their forms were made.
        private let representations: [PreparedResponse?]
        /// By `ContentCoding.rawValue`: the tag the quick form of the body in that coding has
        /// (`CompressedForms.tag`), which a first visitor may hold; nil for identity.
        private let quickTags: [String?]

        init(
            response: Response,
            forms: CompressedForms?,
            target: [UInt8],
            language: UInt8,
            route: String,
            path: String,
            until: ContinuousClock.Instant,
            threadSlots: Int
        ) {
            self.target = target
            self.language = language
            self.route = route
            self.path = path
            self.until = until
            variesByAccept = Entry.variesByAccept(response)
            let forms = BodyCompression.isCompressible(response) ? forms : nil
            available = forms?.available ?? 0
            representations = ContentCoding.allCases.map { coding in
                guard let forms else { return coding == .identity ? PreparedResponse(response, threadSlots: threadSlots) : nil }
                guard coding == .identity || forms[coding] != nil else { return nil }
                return PreparedResponse(BodyCompression.representation(response, coding: coding, forms: forms), threadSlots: threadSlots)
            }
            quickTags = ContentCoding.allCases.map { coding in
                guard let forms, !forms.quick, coding != .identity, forms[coding] != nil, let tag = response.headers[.eTag] else { return nil }
                return CompressedForms.tag(tag, coding: coding, quick: true)
            }
            cost = representations.reduce(target.count + 256) { $0 + ($1?.cost ?? 0) }
        }

        /// Whether `response` says `Vary: Accept`.
        static func variesByAccept(_ response: Response) -> Bool {
            response.headers[.vary]?.lowercased().split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "accept" } ?? false
        }

        /// The quick form's tag in `coding` (see `quickTags`).
        func quickTag(_ coding: ContentCoding) -> String? { quickTags[coding.rawValue] }

        /// The representation to send in `coding` (identity when that form is missing).
        func representation(_ coding: ContentCoding) -> PreparedResponse {
            representations[coding.rawValue] ?? representations[0]!
        }

        /// True for the entry of `other` (a target's bytes) in `language`.
        func has(target other: UnsafeRawBufferPointer, language: UInt8) -> Bool {
            self.language == language && target.count == other.count
                && target.withUnsafeBytes { mine in
                    guard let mine = mine.baseAddress, let other = other.baseAddress else { return true }  // both empty
                    return memcmp(mine, other, target.count) == 0
                }
        }
    }
}
