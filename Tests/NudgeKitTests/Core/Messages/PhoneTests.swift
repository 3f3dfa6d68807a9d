import XCTest
@testable import NudgeKit

final class PhoneTests: XCTestCase {
    func testAcceptedUSForms() throws {
        let accepted = ["415-555-0132", "(415) 555-0132", "4155550132", "+1 415 555 0132", "1-415-555-0132",
                        "415.555.0132", " 415 555 0132 ", "+14155550132", "(212)555-2368", "907-225-0100"]
        for raw in accepted {
            let p = try PhoneNumber.parseUS(raw)
            XCTAssertTrue(p.e164.hasPrefix("+1"), raw)
            XCTAssertEqual(p.e164.count, 12, raw)
        }
        XCTAssertEqual(try PhoneNumber.parseUS("(415) 555-0132").e164, "+14155550132")
        XCTAssertEqual(try PhoneNumber.parseUS("4155550132").display, "415-555-0132")
    }

    func testRefusedUSFormsSayWhatIsAccepted() {
        let refused: [(String, String)] = [
            ("015-555-0132", "area codes start with 2-9"), ("115-555-0132", "area codes start with 2-9"),
            ("415-055-0132", "exchange codes start with 2-9"), ("415-155-0132", "exchange codes start with 2-9"),
            ("415-555-013", "9 digits"), ("415-555-01322", "11 digits"), ("2-415-555-0132", "11 digits"),
            ("+44 20 7946 0958", "only +1"), ("415-555-O132", "characters other than digits"),
            ("911-555-0132", "service code"), ("415-911-0132", "service code"), ("", "0 digits"),
        ]
        for (raw, why) in refused {
            XCTAssertThrowsError(try PhoneNumber.parseUS(raw, what: "buddy number"), raw) { e in
                let m = (e as! ToolError).message
                XCTAssertTrue(m.hasPrefix("buddy number must be a US number like 415-555-0132"), m)
                XCTAssertTrue(m.contains(why), "\(raw): \(m)")
                XCTAssertEqual((e as! ToolError).code, .dataError)
            }
        }
    }

    func testE164() throws {
        XCTAssertEqual(try PhoneNumber.parseE164("+44 20 7946 0958").e164, "+442079460958")
        XCTAssertEqual(try PhoneNumber.parseE164("+1 (415) 555-0132").e164, "+14155550132")
        for bad in ["442079460958", "+0123456789", "+1234", "+1234567890123456", "+1 015 555 0132", "+44-abc"] {
            XCTAssertThrowsError(try PhoneNumber.parseE164(bad), bad)
        }
    }
}
