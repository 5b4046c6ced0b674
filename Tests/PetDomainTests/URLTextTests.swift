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
    }
}
