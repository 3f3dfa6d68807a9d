import XCTest
@testable import NudgeKit

/// The built-in parser, phrase by phrase, pinned to Sunday 2026-11-22 10:07
/// in New York. Each row: phrase → "title | date | time | recurrence".
final class ParserTests: XCTestCase {
    let zone = try! Zone.named("America/New_York")
    let now = RFC3339.parse("2026-11-22T10:07:00-05:00")!.instant

    func render(_ p: ParsedReminder) -> String {
        "\(p.title) | \(p.date?.description ?? "-") | \(p.time?.description ?? "-") | \(p.recurrence.summary)"
    }


    /// The phrase table, kept as data: Fixtures/phrases.tsv, one phrase a
    /// line with what it must become and whether an assumption is said (a)
    /// or the sentence refused as not placed (p). No phrase may come out
    /// other than written: a reading that is a guess must say so.
    func testPhraseTable() throws {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        let path = parts.joined(separator: "/") + "/Fixtures/phrases.tsv"
        let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        XCTAssertGreaterThanOrEqual(rows.count, 250)
        var failures: [String] = []
        for row in rows {
            let cols = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cols.count == 3 else { failures.append("bad row: \(row)"); continue }
            let p = ReminderParser.parse(cols[0], now: now, zone: zone)
            let flags = (p.assumptions.isEmpty ? "" : "a") + (p.problems.isEmpty ? "" : "p")
            let got = render(p)
            if got != cols[1] || (flags.isEmpty ? "-" : flags) != cols[2] {
                failures.append("\(cols[0])\n   want \(cols[1])  [\(cols[2])]\n   got  \(got)  [\(flags)] \(p.assumptions) \(p.problems)")
            }
        }
        XCTAssertTrue(failures.isEmpty, "\(failures.count) phrases:\n" + failures.joined(separator: "\n"))
    }

    /// The phrases the issue found wrong, each as it must be now.
    func testThePhrasesOnceWrong() {
        func r(_ s: String) -> ParsedReminder { ReminderParser.parse(s, now: now, zone: zone) }
        XCTAssertEqual(r("pick up kids at 3:15").time?.description, "15:15")
        XCTAssertEqual(r("pick up kids at 3:15").assumptions, ["'3:15' read as 15:15"])
        XCTAssertEqual(r("timesheet last friday of the month").recurrence.summary, "monthly on the last Fri")
        XCTAssertEqual(render(r("every 4 hours from 22:00 to 06:00")), " | - | - | every 4 h 22:00-06:00")
        XCTAssertFalse(r("every Tuesday at 3pm and Thursday at 5pm").problems.isEmpty, "two rules: refused with a hint")
        XCTAssertEqual(render(r("feed cat every morning at 7")), "feed cat | - | 07:00 | daily")
        XCTAssertEqual(render(r("journal every night at 10pm")), "journal | - | 22:00 | daily")
        XCTAssertEqual(r("every 3rd wednesday").recurrence.summary, "monthly on the 3rd Wed")
        XCTAssertEqual(render(r("on mon and wed at 6")), " | - | 18:00 | every Mon,Wed")
        XCTAssertEqual(r("every weekday except friday").recurrence.summary, "every Mon,Tue,Wed,Thu")
        XCTAssertFalse(r("every 90 minutes").problems.isEmpty)
        XCTAssertEqual(r("biweekly standup").recurrence.summary, "every 2 weeks")
        XCTAssertEqual(render(r("in 2h")), " | 2026-11-22 | 12:07 | once")
        XCTAssertEqual(r("call at 9.30pm").time?.description, "21:30")
        XCTAssertEqual(r("tommorow dentist").date?.description, "2026-11-23")
        XCTAssertEqual(r("pay 12/05").date?.description, "2026-12-05")
        XCTAssertEqual(r("this weekend clean garage").date?.description, "2026-11-28")
    }

    func testGuessesAreSaidOutLoud() {
        XCTAssertEqual(ReminderParser.parse("call mom tomorrow at 9", now: now, zone: zone).assumptions, ["'9' read as 09:00"])
        XCTAssertEqual(ReminderParser.parse("call dad at 6", now: now, zone: zone).assumptions, ["'6' read as 18:00"])
        XCTAssertEqual(ReminderParser.parse("meeting at 14:30", now: now, zone: zone).assumptions, [])
        XCTAssertEqual(ReminderParser.parse("movie tonight", now: now, zone: zone).assumptions, ["'tonight' read as 20:00"])
    }

    func testSeedSchema() throws {
        let r = ReminderParser.parse("drink water every 2 hours from 9 to 6", now: now, zone: zone).record
        XCTAssertEqual(r["recurrence_type"], "custom")
        let rule = r["recurrence_rule"]!.object!
        XCTAssertEqual(rule["interval"], 2)
        XCTAssertEqual(rule["unit"], "hour")
        XCTAssertEqual(rule["time_range_start"], "09:00")
        XCTAssertEqual(rule["time_range_end"], "18:00")
        XCTAssertEqual(rule["based_on_completion"], false)
        XCTAssertEqual(rule["days_of_week"], .null)
        let w = ReminderParser.parse("gym every mon, wed and fri at 6pm", now: now, zone: zone).record
        XCTAssertEqual(w["recurrence_type"], "weekly")
        XCTAssertEqual(w["recurrence_rule"]?.object?["days_of_week"], JSON(["mon", "wed", "fri"]))
        XCTAssertEqual(ReminderParser.parse("Buy milk", now: now, zone: zone).record["recurrence_rule"], .null)
    }
}
