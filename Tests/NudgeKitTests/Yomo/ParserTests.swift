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

    /// The phrase table: Fixtures/phrases.tsv, one phrase a line with the
    /// form it must take: phrase, title, date, time, rule, and how sure the
    /// parser must be: `ok` (no assumption, no warning), `assumed` (a reading
    /// stated in assumptions), `warn` (a recurrence it could not place: `add`
    /// refuses it), `conflict` (two rules in one sentence: refused with a
    /// hint). `YOMO_PARSER_DUMP=FILE` writes what the parser makes of each
    /// phrase, in the same layout, to review a change.
    static func table() -> [[String]] {
        let path = String(#filePath.dropLast("ParserTests.swift".count)) + "Fixtures/phrases.tsv"
        guard let bytes = try? Sys.readFile(path) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    func status(_ p: ParsedReminder) -> String {
        if p.conflict != nil { return "conflict" }
        if !p.warnings.isEmpty { return "warn" }
        return p.assumptions.isEmpty ? "ok" : "assumed"
    }

    func row(_ phrase: String) -> [String] {
        let p = ReminderParser.parse(phrase, now: now, zone: zone)
        return [phrase, p.title, p.date?.description ?? "-", p.time?.description ?? "-", p.recurrence.summary, status(p)]
    }

    func testPhraseTable() throws {
        let table = ParserTests.table()
        if let dump = Sys.env("YOMO_PARSER_DUMP") {
            let out = table.map { row($0[0]).joined(separator: "\t") }.joined(separator: "\n") + "\n"
            try Sys.writeFileAtomically(dump, Array(out.utf8), mode: 0o644)
        }
        XCTAssertGreaterThanOrEqual(table.count, 250)
        var wrong: [String] = []
        var silent = 0
        for cols in table {
            XCTAssertEqual(cols.count, 6, "a row needs 6 columns: \(cols)")
            guard cols.count == 6 else { continue }
            let got = row(cols[0])
            if got != cols {
                wrong.append("\(cols[0])\n   want \(cols[1...].joined(separator: " | "))\n   got  \(got[1...].joined(separator: " | "))")
                if got[5] == "ok" { silent += 1 }
            }
        }
        XCTAssertEqual(silent, 0, "phrases wrong without a warning or an assumption")
        XCTAssertTrue(wrong.isEmpty, "\(wrong.count) phrases:\n" + wrong.joined(separator: "\n"))
    }

    /// Whatever has a recurrence word the parser did not place is never a
    /// plain one-off: it warns, or the word was placed.
    func testNoRecurrenceWordIsDroppedSilently() {
        for cols in ParserTests.table() where cols.count == 6 {
            let p = ReminderParser.parse(cols[0], now: now, zone: zone)
            var words = Set(p.title.lowercased().split(separator: " ").map(String.init))
            // A rule word read as the rule may stay in the title as its adjective ("daily standup").
            if p.recurrence.repeats { words.subtract(["daily", "weekly", "monthly", "yearly", "hourly", "biweekly"]) }
            // A rule word that names a thing with the next word ("hourly rate", "Daily Mail") is the title's.
            let t = p.title.lowercased().split(separator: " ").map(String.init)
            for (k, w) in t.enumerated().dropLast() where ReminderParser.ParseState.namesWithRuleWords[w]?.contains(t[k + 1]) == true { words.remove(w) }
            if !words.isDisjoint(with: ["every", "daily", "weekly", "monthly", "yearly", "hourly", "biweekly", "except", "twice"]) {
                XCTAssertFalse(p.warnings.isEmpty, "'\(cols[0])' keeps a recurrence word in its title without a warning")
            }
        }
    }

    func testGuessesAreSaidOutLoud() {
        XCTAssertEqual(ReminderParser.parse("call mom tomorrow at 9", now: now, zone: zone).assumptions, ["'9' read as 09:00"])
        XCTAssertEqual(ReminderParser.parse("call dad at 6", now: now, zone: zone).assumptions, ["'6' read as 18:00"])
        XCTAssertEqual(ReminderParser.parse("meeting at 14:30", now: now, zone: zone).assumptions, [])
        XCTAssertEqual(ReminderParser.parse("movie tonight", now: now, zone: zone).assumptions, ["'tonight' read as 20:00"])
    }

    /// A plural part of the day after a weekday is that weekday every week,
    /// not a daily rule from the next such day ("yoga tuesday evenings at 7"
    /// was daily from Tuesday, without a word said).
    func testWeekdayThenPluralPartOfDayIsWeekly() {
        for (phrase, want) in [("yoga tuesday evenings at 7", "yoga | - | 19:00 | every Tue"),
                               ("gym monday mornings", "gym | - | 08:00 | every Mon"),
                               ("gym on monday mornings", "gym | - | 08:00 | every Mon"),
                               ("study sunday nights", "study | - | 21:00 | every Sun")] {
            let p = ReminderParser.parse(phrase, now: now, zone: zone)
            XCTAssertEqual(render(p), want, phrase)
            XCTAssertNil(p.conflict, phrase)
            XCTAssertEqual(p.warnings, [], phrase)
        }
        XCTAssertEqual(render(ReminderParser.parse("walk the dog mornings", now: now, zone: zone)), "walk the dog | - | 08:00 | daily")
    }

    func testTheParseRecordSchema() throws {
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
