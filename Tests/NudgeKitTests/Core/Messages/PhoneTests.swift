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

    /// A fixture of numbers as people write them, with what libphonenumber's
    /// metadata makes of them (Fixtures/phones.tsv): every country's example
    /// numbers in E.164, international and national-with-country-code form
    /// (trunk prefixes included), and North American numbers of every kind
    /// of area code.
    func testNumbersAsLibphonenumberReadsThem() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
        let rows = try String(contentsOfFile: dir + "/Fixtures/phones.tsv", encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        XCTAssertGreaterThan(rows.count, 300)
        var wrong: [String] = []
        for r in rows where r.count == 3 {
            switch r[0] {
            case "e164":
                let got = (try? PhoneNumber.parseE164(r[1]).e164) ?? "-"
                if got != r[2] { wrong.append("\(r[1]): \(got), libphonenumber \(r[2])") }
            default:
                let digits = r[1].filter(\.isNumber)
                let npa = Int(digits.suffix(10).prefix(3))!
                let kind: String
                switch PhoneNumber.nanpArea(npa) {
                case .region(let x): kind = x
                case .tollFree: kind = "toll-free"
                case .premium: kind = "premium"
                case .personal: kind = "personal"
                case .unassigned: kind = "unassigned"
                }
                if kind != r[2] { wrong.append("\(r[1]): \(kind), libphonenumber \(r[2])") }
                let us = (try? PhoneNumber.parseUS(r[1])) != nil
                if us != ["US", "PR", "VI", "GU", "AS", "MP"].contains(r[2]) { wrong.append("\(r[1]): parseUS \(us) for \(r[2])") }
            }
        }
        XCTAssertEqual(wrong, [], "\(wrong.count) of \(rows.count)")
    }

    /// tenclub's buddy is a US number: another country's, a toll-free,
    /// premium or unassigned area code is refused with a message naming it.
    func testNonUSNumbersAreRefusedByName() {
        let cases: [(String, String)] = [
            ("(876) 523-0123", "876 is an area code of Jamaica, not the US"),
            ("+1 767 555 1234", "767 is an area code of Dominica, not the US"),
            ("649-946-1234", "649 is an area code of the Turks and Caicos Islands, not the US"),
            ("416-555-0132", "416 is an area code of Canada, not the US"),
            ("642-555-0132", "642 is not an area code in use"), ("883-555-0132", "883 is not an area code in use"),
            ("900-555-0132", "900 is a premium-rate code"), ("800-555-0132", "800 is a toll-free code"),
        ]
        for (raw, why) in cases {
            XCTAssertThrowsError(try PhoneNumber.parseUS(raw, what: "buddy number"), raw) { e in
                XCTAssertEqual((e as! ToolError).message, "buddy number must be a US number like 415-555-0132 (\(why))", raw)
            }
        }
        XCTAssertEqual(try PhoneNumber.parseUS("787-555-0132").e164, "+17875550132", "Puerto Rico is the US")
        XCTAssertEqual(try PhoneNumber.parseE164("+1 876 523 0123").e164, "+18765230123", "any North American number for playa")
    }

    /// Trunk prefixes copied from a national form are dropped; short
    /// numbers of small countries are numbers; `tel:` URIs are read.
    func testTrunkPrefixesShortNumbersAndTelURIs() throws {
        for (raw, want) in [("+44 07400 123456", "+447400123456"), ("+44 (0)20 7946 0958", "+442079460958"),
                            ("+7 (8) 912 345-67-89", "+79123456789"), ("+36 (06) 30 123 4567", "+36301234567"),
                            ("+683 7290", "+6837290"), ("+690 3010", "+6903010"), ("+290 8123", "+2908123"),
                            ("tel:+1-415-555-0132", "+14155550132"), ("TEL:+44-20-7946-0958;ext=12", "+442079460958")] {
            XCTAssertEqual(try PhoneNumber.parseE164(raw).e164, want, raw)
        }
        XCTAssertEqual(try PhoneNumber.parseUS("tel:+14155550132").e164, "+14155550132")
        XCTAssertThrowsError(try PhoneNumber.parseE164("+44 740 012")) { e in
            XCTAssertTrue((e as! ToolError).message.contains("+44 numbers have 7, 9 or 10 digits after the country code"), "\(e)")
        }
    }
}
