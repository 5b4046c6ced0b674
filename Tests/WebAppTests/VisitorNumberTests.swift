import HTTPTypes
import MicroHTTP
import Testing

@testable import WebApp

/// The numbers of `lat`, `lng` and `range` as the mobile apps write them: every plain decimal form JavaScript's
/// `Number` reads, nothing else; whole kilometres, anything above half the Earth meaning everywhere.
@Suite struct VisitorNumberTests {
    @Test(arguments: [
        ("52.2297", 52.2297), ("-33.8688", -33.8688), ("17", 17), ("1e-05", 0.00001), ("-5E-5", -0.00005),
        ("52.", 52), (".5", 0.5), ("-.5", -0.5), ("+1.5", 1.5), ("5.2E1", 52), ("2.1e+1", 21), ("1.e2", 100),
        ("0000052.5", 52.5), ("-0", 0),
    ])
    func plain_decimal_forms_are_read(text: String, value: Double) {
        #expect(VisitorLocation.decimalDegrees(text) == value)
    }

    @Test(arguments: [
        "", "nan", "NaN", "inf", "-inf", "Infinity", "0x10", "0x1p3", "52abc", "52,5", "1e", "1e+",
        "e5", ".", "-", "+", "--1", "+-1", "1.2.3", "1e5.5", " 52", "52 ", "٥٢", "5_2",
        String(repeating: "1", count: 65),
    ])
    func anything_else_is_refused(text: String) {
        #expect(VisitorLocation.decimalDegrees(text) == nil)
    }

    @Test(arguments: [
        ("1", 1), ("5", 5), ("500", 500), ("501", 501), ("20038", 20_038), ("20039", 20_038),
        ("99999", 20_038), ("99999999999999999999999", 20_038), ("007", 7), ("+10", 10),
    ])
    func whole_kilometres_are_read_and_capped_at_half_the_earth(text: String, value: Int) {
        #expect(VisitorLocation.wholeKilometres(text) == value)
    }

    @Test(arguments: ["0", "000", "00000000000000000000000", "-5", "1.5", "1.0", "1e3", "abc", "", "+", "5km", "-0"])
    func other_ranges_are_refused(text: String) {
        #expect(VisitorLocation.wholeKilometres(text) == nil)
    }

    @Test func a_located_query_keeps_the_capped_range() throws {
        let query = QueryItems([("lat", "52.2297"), ("lng", "21.0122"), ("range", "99999")])
        let location = try VisitorLocation.parse(query, defaultRangeKm: 15)
        #expect(location.rangeKm == 20_038)
        #expect(location.rangeGiven)
    }
}
