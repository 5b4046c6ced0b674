import Foundation
import PetDomain
import Testing

@Suite("URL text pieces")
struct URLTextTests {
    @Test func components_keep_unreserved_characters_and_encode_everything_else() {
        #expect(URLText.encodeComponent("Az09-._~") == "Az09-._~")
        #expect(URLText.encodeComponent("a b/c?d&e#f") == "a%20b%2Fc%3Fd%26e%23f")
        #expect(URLText.encodeComponent("../x") == "..%2Fx")
        #expect(URLText.encodeComponent("Łatka") == "%C5%81atka")
        #expect(URLText.encodeComponent("\n") == "%0A")
    }

    @Test func coordinates_in_urls_have_four_decimals_without_trailing_zeros() {
        #expect(URLText.fourDecimals(52.229676) == "52.2297")
        #expect(URLText.fourDecimals(17) == "17")
        #expect(URLText.fourDecimals(21.01) == "21.01")
        #expect(URLText.fourDecimals(-0.00001) == "0")
        #expect(URLText.fourDecimals(-33.86881) == "-33.8688")
        #expect(URLText.fourDecimals(0.00005) == "0.0001")
        #expect(URLText.fourDecimals(-179.99995) == "-180")
        #expect(URLText.fourDecimals(1e13) == "10000000000000")
    }

    /// The digits written by hand agree with C's `%.4f` (trailing zeros and a bare point dropped,
    /// "-0" as "0") over many coordinates and halfway cases, with a fixed seed.
    @Test func four_decimals_agree_with_printf_over_random_values() {
        var generator = AnnouncementIndexTests.SplitMix(state: 7)
        for round in 0..<20_000 {
            let value: Double
            switch round % 4 {
            case 0: value = Double.random(in: -180...180, using: &generator)
            case 1: value = Double(Int.random(in: -1_800_000...1_800_000, using: &generator)) / 10_000
            case 2: value = (Double(Int.random(in: -1_800_000...1_800_000, using: &generator)) + 0.5) / 10_000
            default: value = Double.random(in: -1e9...1e9, using: &generator)
            }
            var expected = String(format: "%.4f", value)
            while expected.hasSuffix("0") { expected.removeLast() }
            if expected.hasSuffix(".") { expected.removeLast() }
            if expected == "-0" { expected = "0" }
            let scaled = abs(value) * 10_000
            // printf rounds the exact binary value half to even; ours rounds the scaled product
            // away from zero, as Format.fixed always did: they may differ only at an exact tie.
            guard scaled.rounded(.down) + 0.5 != scaled else { continue }
            #expect(URLText.fourDecimals(value) == expected, "value \(value)")
        }
    }
}
