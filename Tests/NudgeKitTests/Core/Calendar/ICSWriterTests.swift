import XCTest
@testable import NudgeKit

/// The one iCalendar writer both calendars (yomo's export, habitmatch's
/// meetings) go through.
final class ICSWriterTests: XCTestCase {
    func testTextIsEscapedAndNoControlOrBidiGetsThrough() {
        XCTAssertEqual(ICS.escape("a,b;c\\d\r\ne"), "a\\,b\\;c\\\\d\\ne")
        let hostile = "Pay\u{202E}evil\u{1B}[2J\u{7}END:VTODO"
        let e = ICS.escape(hostile)
        XCTAssertFalse(e.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x202A...0x202E).contains($0.value) }, e)
        XCTAssertEqual(e, "Pay\\\\u202eevil\\\\u001b[2J\\\\u0007END:VTODO")
        XCTAssertEqual(ICS.param("Ana \"A\"\n"), "\"Ana A\"")
    }

    /// Folding and escaping on bytes (and their fast paths for lines that
    /// fit and text that needs nothing) give what the scalar by scalar
    /// rules give, kept here as the oracle.
    func testFoldAndEscapeAreTheScalarRules() {
        func foldByScalars(_ line: String) -> String {
            var out = "", count = 0, first = true
            for u in line.unicodeScalars {
                let n = String(u).utf8.count
                if count + n > (first ? 75 : 74) { out += "\r\n "; count = 0; first = false }
                out.unicodeScalars.append(u)
                count += n
            }
            return out
        }
        func escapeByScalars(_ s: String) -> String {
            var out = ""
            for u in s.unicodeScalars {
                switch u {
                case "\\": out += "\\\\"
                case ";": out += "\\;"
                case ",": out += "\\,"
                case "\n": out += "\\n"
                case "\r": break
                case "\t": out += "\t"
                default: if Text.needsEscape(u.value) { out += "\\" + Text.terminalSafe(String(u)) } else { out.unicodeScalars.append(u) }
                }
            }
            return out
        }
        var rng = SeededRandom(seed: 75)
        let alphabet = Array("abc XYZ:;,\\\n\r\t\u{7F}\u{85}é€🃏\u{202E}\u{200F}ü")
        for round in 0..<3000 {
            let s = String((0..<Int.random(in: 0...(round % 3 == 0 ? 400 : 90), using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            XCTAssertEqual(ICS.fold(s), foldByScalars(s), "round \(round)")
            XCTAssertEqual(ICS.escape(s), escapeByScalars(s), "round \(round)")
        }
        // A calendar's bytes are its lines folded one by one, each ended by CRLF.
        for round in 0..<500 {
            let lines = (0..<Int.random(in: 0...6, using: &rng)).map { _ in
                String((0..<Int.random(in: 0...(round % 2 == 0 ? 300 : 80), using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            }
            XCTAssertEqual(ICS.bytes(lines), Array(lines.map { foldByScalars($0) + "\r\n" }.joined().utf8), "round \(round)")
        }
    }

    func testALocalTimeIsItsFieldsZeroPadded() {
        XCTAssertEqual(ICS.local(LocalDateTime(day: Day(year: 2026, month: 3, day: 8), time: TimeOfDay(hour: 2, minute: 5, second: 9))), "20260308T020509")
        XCTAssertEqual(ICS.local(LocalDateTime(day: Day(year: 987, month: 12, day: 31), time: TimeOfDay(hour: 23, minute: 59, second: 59))), "09871231T235959")
        XCTAssertEqual(ICS.local(LocalDateTime(day: Day(year: 10000, month: 1, day: 1), time: TimeOfDay(hour: 0, minute: 0))), "100000101T000000")
        XCTAssertEqual(ICS.utc(Instant(seconds: 0)), "19700101T000000Z")
        XCTAssertEqual(ICS.date(Day(year: 2026, month: 11, day: 22)), "20261122")
    }

    func testFoldingNeverSplitsAUTF8Sequence() {
        let line = "SUMMARY:" + String(repeating: "日本", count: 40)
        let folded = ICS.fold(line)
        for part in folded.components(separatedBy: "\r\n ") {
            XCTAssertLessThanOrEqual(part.utf8.count, 75)
        }
        XCTAssertEqual(folded.replacingAll("\r\n ", ""), line)
        XCTAssertEqual(ICS.text(["A:1", "B:2"]), "A:1\r\nB:2\r\n")
    }

    func testATitleWithABidiControlLeavesYomosExportEscaped() {
        let ny = try! Zone.named("America/New_York")
        let anchor = LocalDateTime(day: Day(year: 2026, month: 12, day: 1), time: TimeOfDay(hour: 9, minute: 0))
        let r = Reminder(id: "r1", title: "call \u{202E}mom", anchor: anchor, recurrence: Recurrence(kind: .none), zoneName: ny.name,
                         triggerAt: ny.resolve(anchor), createdAt: Instant(ms: 1_795_000_000_000))
        let (text, _) = YomoInterchange.exportICS([r], fallback: ny, now: Instant(ms: 1_795_000_000_000))
        XCTAssertFalse(text.unicodeScalars.contains { $0.value == 0x202E }, text)
        XCTAssertTrue(text.contains("SUMMARY:call \\\\u202emom"), text)
    }

    func testAZoneGetsTheCompactFormWhereItsRuleHoldsAndEveryChangeWhereItDidNot() throws {
        let ny = try Zone.named("America/New_York")
        let compact = ICS.vtimezone(name: "America/New_York", zone: ny, years: 2025...2036)
        XCTAssertTrue(compact.contains("RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU"), "\(compact)")
        XCTAssertTrue(compact.contains("RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU"), "\(compact)")
        XCTAssertTrue(compact.contains("DTSTART:19700308T020000"), "\(compact)")
        // Before 2007 the US changed on other Sundays: the rule does not hold.
        let history = ICS.vtimezone(name: "America/New_York", zone: ny, years: 2005...2008)
        XCTAssertFalse(history.contains { $0.hasPrefix("RRULE:") }, "\(history)")
        XCTAssertTrue(history.contains("DTSTART:20060402T020000"), "the 2006 change on the first Sunday of April: \(history)")
        // São Paulo stopped daylight saving in 2019.
        let sp = try Zone.named("America/Sao_Paulo")
        XCTAssertTrue(ICS.vtimezone(name: "America/Sao_Paulo", zone: sp, years: 2020...2030).contains("TZOFFSETTO:-0300"))
        XCTAssertTrue(ICS.vtimezone(name: "America/Sao_Paulo", zone: sp, years: 2017...2030).contains("BEGIN:DAYLIGHT"))
    }
}
