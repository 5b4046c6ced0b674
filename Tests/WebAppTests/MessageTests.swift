import Testing

@testable import WebApp

/// Catalog texts are split at their `{name}` slots once and filled by appending.
@Suite("Message slots")
struct MessageTests {
    @Test func a_text_is_split_at_its_slots() {
        #expect(Message("{count} pets within {km} km").parts == [.slot("count"), .text(" pets within "), .slot("km"), .text(" km")])
        #expect(Message("Nagroda {amount}").parts == [.text("Nagroda "), .slot("amount")])
        #expect(Message("no slots").parts == [.text("no slots")])
        #expect(Message("").parts == [.text("")])
    }

    @Test func braces_that_name_no_slot_stay_text() {
        #expect(Message("a { b } {} {x y} {ok}").parts == [.text("a { b } {} {x y} "), .slot("ok")])
        #expect(Message("{unclosed").filled([("unclosed", "x")]) == "{unclosed")
    }

    @Test func slots_are_filled_by_name_and_in_any_order() {
        let message = Message("{count} zwierzęta w promieniu {km} km")
        #expect(message.filled([("km", "15"), ("count", "3")]) == "3 zwierzęta w promieniu 15 km")
        #expect(message.filled([("count", "1"), ("km", "2"), ("count", "9")]) == "1 zwierzęta w promieniu 2 km")
    }

    @Test func a_slot_without_a_value_stays_as_written() {
        #expect(Message("{count} of {total}").filled([("count", "2")]) == "2 of {total}")
    }

    @Test func a_value_is_never_read_for_slots() {
        // A pet named "{count}": the name is put in as it is, not filled again.
        #expect(Message("Photo of {name}, {count}").filled([("name", "{count}"), ("count", "7")]) == "Photo of {count}, 7")
    }
}
