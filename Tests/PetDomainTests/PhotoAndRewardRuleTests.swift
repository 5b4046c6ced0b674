import Foundation
import PetDomain
import Testing

/// docs/upstream.md §2 rows photoUrl and reward.
@Suite struct PhotoAndRewardRuleTests {
    @Test func photoUrl_images_path_is_kept_for_the_proxy() throws {
        let item = try validItem(["photoUrl": "/images/max.jpg"])
        #expect(item.photo == .upstreamPath("/images/max.jpg"))
        #expect(item.photo?.urlString == "/images/max.jpg")
    }

    @Test(arguments: [
        "https://images.dog.ceo/breeds/terrier-yorkshire/n02094433_1010.jpg",
        "http://example.com/a.png?size=large", "HTTPS://cdn.example.com/x.jpg",
    ])
    func photoUrl_absolute_http_is_kept_as_given(raw: String) throws {
        let item = try validItem(["photoUrl": raw])
        #expect(item.photo?.urlString == raw)
        if case .absolute = item.photo {} else { Issue.record("expected an absolute photo") }
    }

    @Test func photoUrl_missing_or_null_is_no_photo_without_warning() throws {
        for value: Any in [absent, NSNull(), ""] {
            let (item, warnings) = try validItemWithWarnings(["photoUrl": value])
            #expect(item.photo == nil)
            #expect(warnings.isEmpty)
        }
    }

    @Test(arguments: [
        "javascript:alert(1)", "data:image/png;base64,AAAA", "ftp://example.com/a.jpg",
        "not a url", "images/max.jpg", "/uploads/max.jpg", "/images/", "/images/../etc/passwd",
        "/images/%2e%2e/secret", "/images//evil.jpg", "//evil.example.com/x.jpg",
        "/images/a\\b.jpg", "/images/a\tb.jpg", "/images/a\u{00A0}b.jpg", "/uploads/a b.jpg", "https://", "https:///path",
        "https://exa mple.com/x.jpg", "https://example.com/\"onerror=\"x",
    ])
    func photoUrl_anything_else_is_no_photo_with_a_warning(raw: String) throws {
        let (item, warnings) = try validItemWithWarnings(["photoUrl": raw])
        #expect(item.photo == nil)
        #expect(warnings.map(\.field) == ["photoUrl"])
    }

    @Test(arguments: [
        "/images/my%20cat.png", "/images/rabat%2541.png", "/images/%C5%BCaba.png", "/images/a%2Bb%23c%3Fd.png",
        "/images/100%.png",
    ])
    func photoUrl_percent_encoded_path_is_kept_as_given(raw: String) throws {
        // A photoUrl is a URL path: `%20` is an escaped space in a real file name.
        let (item, warnings) = try validItemWithWarnings(["photoUrl": raw])
        #expect(item.photo == .upstreamPath(raw))
        #expect(warnings.isEmpty)
    }

    @Test(arguments: ["/images/my cat.png", "/images/my cat%20two.png", "/images/żaba i kot.png"])
    func photoUrl_path_with_a_plain_space_is_kept_as_given(raw: String) throws {
        // A file name with a space, given raw: the upstream serves it; our URL encodes it.
        let (item, warnings) = try validItemWithWarnings(["photoUrl": raw])
        #expect(item.photo == .upstreamPath(raw))
        #expect(warnings.isEmpty)
    }

    @Test(arguments: [
        "/images/%2E%2E/secret", "/images/a%2F%2Fb.png", "/images/a%5Cb.png", "/images/a%00b.png",
        "/images/a%0Ab.png", "/images/a%7Fb.png",
    ])
    func photoUrl_percent_encoded_path_that_decodes_unsafe_is_no_photo(raw: String) throws {
        let (item, warnings) = try validItemWithWarnings(["photoUrl": raw])
        #expect(item.photo == nil)
        #expect(warnings.map(\.field) == ["photoUrl"])
    }

    @Test func photoUrl_is_trimmed_before_it_is_checked() throws {
        #expect(try validItem(["photoUrl": " /images/x.jpg\n"]).photo == .upstreamPath("/images/x.jpg"))
    }

    @Test func photo_resolver_reports_nothing_for_nil_and_a_warning_for_garbage() {
        #expect(PhotoResolver.resolve(nil).photo == nil)
        #expect(PhotoResolver.resolve(nil).warning == nil)
        let garbage = PhotoResolver.resolve("javascript:alert(1)")
        #expect(garbage.photo == nil)
        #expect(garbage.warning?.contains("javascript") == true)
    }

    @Test(arguments: [
        ("500 PLN", Decimal(500), "PLN"), ("PLN 1,500.50", Decimal(string: "1500.5") ?? 0, "PLN"),
        ("$300", Decimal(300), "$"), ("300 zł", Decimal(300), "zł"), ("100€", Decimal(100), "€"),
        ("EUR 12,50", Decimal(string: "12.5") ?? 0, "EUR"), ("1,000,000 USD", Decimal(1_000_000), "USD"),
    ])
    func reward_text_with_leading_or_trailing_currency_is_parsed(raw: String, amount: Decimal, currency: String) throws {
        let item = try validItem(["reward": raw])
        #expect(item.reward?.amount == amount)
        #expect(item.reward?.currency == currency)
    }

    @Test func reward_plain_number_or_numeric_text_has_no_currency() throws {
        #expect(try validItem(["reward": 300]).reward == Reward(amount: 300, currency: nil))
        #expect(try validItem(["reward": 99.99]).reward?.amount == Decimal(string: "99.99"))
        #expect(try validItem(["reward": "250"]).reward == Reward(amount: 250, currency: nil))
    }

    @Test(arguments: ["0 PLN", "0,00 zł", "0.001 PLN"])
    func reward_that_reads_as_no_positive_amount_is_dropped_with_a_warning(raw: String) throws {
        let (item, warnings) = try validItemWithWarnings(["reward": raw])
        #expect(item.reward == nil && item.rewardNote == nil)
        #expect(warnings.map(\.field) == ["reward"])
    }

    /// The backend stores any reward text and the apps send up to 120 characters: text that is no
    /// amount is kept as written, trimmed, with no warning (docs/upstream.md §2 reward).
    @Test(arguments: [
        "A big hug and a box of chocolates", "-50 PLN", "free", "500 PLN or a hug", "PLN 500 EUR", "1.500,50 PLN",
        "1,5000 PLN", "$", "500 Polish zloty",
    ])
    func reward_free_text_is_kept_as_a_note(raw: String) throws {
        let (item, warnings) = try validItemWithWarnings(["reward": "  " + raw + " "])
        #expect(item.reward == nil)
        #expect(item.rewardNote == raw)
        #expect(warnings.isEmpty)
    }

    @Test func reward_zero_or_negative_number_is_dropped_with_a_warning() throws {
        for value: Any in [0, -10, true] {
            let (item, warnings) = try validItemWithWarnings(["reward": value])
            #expect(item.reward == nil)
            #expect(warnings.map(\.field) == ["reward"])
        }
    }

    @Test(arguments: [
        ("500 PLN", "500 PLN"), ("PLN 1,500.50", "1,500.50 PLN"), ("$300", "$300"),
        ("1234567.5 zł", "1,234,567.50 zł"), ("250", "250"), ("0.5 EUR", "0.50 EUR"),
    ])
    func reward_display_text_groups_thousands_and_places_the_currency(raw: String, display: String) throws {
        let reward = try #require(try validItem(["reward": raw]).reward)
        #expect(reward.displayText == display)
        #expect(Format.rewardBadge(reward) == "Reward " + display)
    }

    /// Found by fuzzing: `1e400` is a valid JSON number that reads as infinity, and
    /// `Decimal(Double.infinity)` trapped, so one such upstream item stopped the whole server.
    /// `203e31` and `1e-5` were kept and shown as a 34-digit figure and as "0", which no reward
    /// parser reads back.
    @Test(arguments: ["1e400", "-1e400", "203e31", "1e18", "1e-5", "0.004", "\"0.001 PLN\"", "\"1,000,000,000,000,000 PLN\""])
    func reward_that_is_infinite_enormous_or_below_a_cent_is_dropped_with_a_warning(rawJSON: String) throws {
        let body = String(decoding: try jsonData(itemJSON(["reward": "REWARD"])), as: UTF8.self)
            .replacingOccurrences(of: "\"REWARD\"", with: rawJSON)

        let (item, warnings) = try #require(try? AnnouncementDecoder.decodeDetails(Data(body.utf8)).get())

        #expect(item.reward == nil)
        #expect(warnings.map(\.field) == ["reward"])
    }

    @Test func reward_is_kept_to_the_cent_so_its_display_text_reads_back_the_same() throws {
        let reward = try #require(try validItem(["reward": "1.005 EUR"]).reward)
        #expect(reward.amount == Decimal(string: "1.01"))
        #expect(reward.displayText == "1.01 EUR")

        let largest = try #require(try validItem(["reward": "999,999,999,999,999.99 PLN"]).reward)
        for shown in [reward, largest] {
            #expect(try validItem(["reward": shown.displayText]).reward == shown)
        }
    }

    @Test func reward_requires_a_positive_amount_when_built_directly() {
        #expect(Reward(amount: 0, currency: "PLN") == nil)
        #expect(Reward(amount: -1, currency: nil) == nil)
        #expect(Reward(amount: 1, currency: "  ")?.currency == nil)
    }
}
