import Foundation
import MicroHTTP
import Testing

/// IMF-fixdate printing and reading, and the conditional-request rule built on it.
@Suite("HTTP dates")
struct HTTPDateTests {
    @Test(arguments: [
        (Int64(0), "Thu, 01 Jan 1970 00:00:00 GMT"), (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"), (1_763_028_000, "Thu, 13 Nov 2025 10:00:00 GMT"),
        (-1, "Wed, 31 Dec 1969 23:59:59 GMT"),
    ])
    func dates_print_and_read_back(seconds: Int64, text: String) {
        #expect(HTTPDate.format(seconds) == text)
        #expect(HTTPDate.parse(text) == seconds)
    }

    /// The digits written by hand agree with Foundation's formatter over random moments of
    /// years 1600–9999 (a fixed seed).
    @Test func dates_print_as_foundation_prints_them() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var state: UInt64 = 11
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // 1600-01-01 to 9999-12-31 (Foundation's calendar is Julian before 1582; ours is Gregorian throughout).
            let seconds = -11_676_096_000 + Int64(state >> 24) % (253_402_300_800 + 11_676_096_000)
            let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            #expect(HTTPDate.format(seconds) == expected)
            #expect(HTTPDate.parse(expected) == seconds)
        }
    }

    @Test(arguments: [
        "", "yesterday", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 UTC",
        "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 36 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT",
    ])
    func other_texts_are_not_dates(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func if_none_match_decides_before_if_modified_since() {
        let date = "Sun, 06 Nov 1994 08:49:37 GMT"
        #expect(HTTPDate.notModified(ifNoneMatch: nil, ifModifiedSince: date, etag: "\"a\"", lastModified: 784_111_777))
        #expect(HTTPDate.notModified(ifNoneMatch: nil, ifModifiedSince: date, etag: nil, lastModified: 784_111_776))
        #expect(!HTTPDate.notModified(ifNoneMatch: nil, ifModifiedSince: date, etag: nil, lastModified: 784_111_778))
        #expect(!HTTPDate.notModified(ifNoneMatch: "\"b\"", ifModifiedSince: date, etag: "\"a\"", lastModified: 784_111_777))
        #expect(HTTPDate.notModified(ifNoneMatch: "\"a\"", ifModifiedSince: nil, etag: "\"a\"", lastModified: nil))
        #expect(!HTTPDate.notModified(ifNoneMatch: nil, ifModifiedSince: date, etag: "\"a\"", lastModified: nil))
    }
}
