import HTTPTypes
import MicroHTTP
import Testing

@Suite("Entity tags")
struct EntityTagTests {
    @Test func tags_depend_only_on_the_bytes() {
        let body = Array("hello".utf8)
        #expect(EntityTag.strong(for: body) == EntityTag.strong(for: Array("hello".utf8)))
        #expect(EntityTag.strong(for: body) != EntityTag.strong(for: Array("hellp".utf8)))
        #expect(EntityTag.strong(for: body).count == 18)
        #expect(EntityTag.weak(for: body).hasPrefix("W/\"5-"))
    }

    @Test func if_none_match_compares_weakly_in_lists_and_accepts_a_star() {
        let strong = EntityTag.strong(for: Array("x".utf8))
        #expect(EntityTag.matches(ifNoneMatch: strong, etag: strong))
        #expect(EntityTag.matches(ifNoneMatch: "W/" + strong, etag: strong))
        #expect(EntityTag.matches(ifNoneMatch: "\"other\",  \(strong)", etag: strong))
        #expect(EntityTag.matches(ifNoneMatch: "*", etag: strong))
        #expect(!EntityTag.matches(ifNoneMatch: "\"other\"", etag: strong))
        #expect(!EntityTag.matches(ifNoneMatch: nil, etag: strong))
    }
}
