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
