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
