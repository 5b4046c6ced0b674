import FastBytes
import Testing

/// Views read what they view, in bounds; slices, comparison, search and hashing agree with arrays.
struct ByteViewTests {
    @Test func a_view_reads_the_array_it_was_made_from() {
        let bytes: [UInt8] = [1, 2, 3, 0xFF, 0x10, 0x20, 0x30, 0x40]
        bytes.withView { view in
            #expect(view.count == 8)
            #expect(Array(view) == bytes)
            #expect(view.array == bytes)
            #expect(view.byte(at: 3) == 0xFF)
            #expect(view.uint32(at: 4) == 0x4030_2010)  // little-endian at any offset
            #expect(view.uint32(at: 1) == 0x10FF_0302)
        }
    }

    @Test func a_slice_is_a_view_of_its_own_from_zero() {
        let bytes = Array("hello, world".utf8)
        bytes.withView { view in
            let world = view.view(7..<12)
            #expect(world.array == Array("world".utf8))
            #expect(world.byte(at: 0) == UInt8(ascii: "w"))
            #expect(view.view(from: 12).isEmpty)
            #expect(view.view(3..<3).isEmpty)
            #expect(world.address == view.address + 7)  // no copy
        }
    }

    @Test func equal_bytes_compare_equal_and_hash_alike() {
        let one = Array("/pets?lat=52.2&lng=21.0".utf8)
        let two = one
        let other = Array("/pets?lat=52.2&lng=21.1".utf8)
        one.withView { a in
            two.withView { b in
                other.withView { c in
                    #expect(a.elementsEqual(b))
                    #expect(!a.elementsEqual(c))
                    #expect(!a.elementsEqual(b.view(0..<5)))
                    #expect(ByteView.empty.elementsEqual(a.view(0..<0)))
                    var first = Hasher()
                    a.hash(into: &first)
                    var second = Hasher()
                    b.hash(into: &second)
                    #expect(first.finalize() == second.finalize())
                }
            }
        }
    }

    @Test func has_bytes_finds_a_needle_only_where_it_is_whole() {
        let text = Array("a-id-b-id".utf8)
        let needle = Array("id".utf8)
        text.withView { haystack in
            needle.withView { needle in
                let found = (0..<haystack.count).filter { haystack.hasBytes(needle, at: $0) }
                #expect(found == [2, 7])
                #expect(!haystack.hasBytes(needle, at: 8))  // would run past the end
                #expect(!haystack.hasBytes(needle, at: -1))
            }
        }
    }

    @Test func appending_a_view_copies_its_bytes_and_escaping_reads_them_as_a_collection() {
        var output: [UInt8] = [0]
        Array("abc".utf8).withView { output.append(bytes: $0) }
        #expect(output == [0] + Array("abc".utf8))
        "zażółć".withUTF8View { view in
            #expect(String(decoding: view, as: UTF8.self) == "zażółć")
            #expect(view.count == "zażółć".utf8.count)
        }
    }
}

/// The cursor writes into its room and says when a write did not fit; `written` then makes room again.
struct ByteCursorTests {
    @Test func written_bytes_are_the_appended_pieces_in_order() {
        let piece = Array("<li>".utf8)
        let bytes = [UInt8].written(capacity: 64) { cursor in
            cursor += piece
            cursor.append(byte: UInt8(ascii: "x"))
            piece.withView { cursor.append(bytes: $0.view(1..<3)) }
        }
        #expect(bytes == Array("<li>xli".utf8))
    }

    @Test func too_little_room_is_made_again_until_everything_fits() {
        let piece = [UInt8](repeating: 7, count: 100)
        var attempts = 0
        let bytes = [UInt8].written(capacity: 1) { cursor in
            attempts += 1
            for _ in 0..<10 { cursor += piece }
            cursor.append(byte: 9)
        }
        #expect(bytes.count == 1001)
        #expect(bytes.last == 9)
        #expect(bytes.dropLast().allSatisfy { $0 == 7 })
        #expect(attempts == 5)  // 64, 128, 256, 512, 1024 bytes of room
    }

    @Test func digits_fill_their_width_and_stop_at_the_room() {
        let date = DigitWriter.string(capacity: 20) { writer in
            writer.put(2026, digits: 4)
            writer.put("-")
            writer.put(7, digits: 2)
            writer.put("T" as StaticString)
        }
        #expect(date == "2026-07T")
        let cut = DigitWriter.string(capacity: 3) { writer in
            writer.put("abcdef")
            writer.put(12, digits: 2)
        }
        #expect(cut == "abc")
    }
}
