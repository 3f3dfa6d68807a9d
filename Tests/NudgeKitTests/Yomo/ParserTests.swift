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

    static let table: [(String, String)] = [
        // The phrases the issue names.
        ("water plants every Tuesday at 3pm", "water plants | - | 15:00 | every Tue"),
        ("call mom tomorrow at 9", "call mom | 2026-11-23 | 09:00 | once"),
        ("pay rent on the 1st", "pay rent | 2026-12-01 | - | once"),
        ("stretch in 20 minutes", "stretch | 2026-11-22 | 10:27 | once"),
        ("check the oven in 2 hours", "check the oven | 2026-11-22 | 12:07 | once"),
        ("dinner with Ana next friday 18:30", "dinner with Ana | 2026-11-27 | 18:30 | once"),
        ("take vitamins every day at 7am", "take vitamins | - | 07:00 | daily"),
        ("stand-up every weekday at 8", "stand-up | - | 08:00 | every Mon,Tue,Wed,Thu,Fri"),
        ("gym every mon, wed and fri at 6pm", "gym | - | 18:00 | every Mon,Wed,Fri"),
        ("water the cactus every 3 days", "water the cactus | - | - | every 3 days"),
        ("team sync every 2 weeks on tuesday", "team sync | - | - | every 2 weeks on Tue"),
        ("drink water every 2 hours from 9 to 6", "drink water | - | - | every 2 h 09:00-18:00"),
        ("book club on the 2nd tuesday of every month", "book club | - | - | monthly on the 2nd Tue"),
        ("pay invoices every month on the last friday", "pay invoices | - | - | monthly on the last Fri"),
        ("clean the filter every 3 days after I finish it", "clean the filter | - | - | every 3 days after done"),
        ("lunch at noon", "lunch | - | 12:00 | once"),
        ("run backups at midnight", "run backups | - | 00:00 | once"),
        ("meeting at 14:30", "meeting | - | 14:30 | once"),
        // Times.
        ("call the bank at 2:15pm", "call the bank | - | 14:15 | once"),
        ("alarm at 12am", "alarm | - | 00:00 | once"),
        ("standup at 9:30 am", "standup | - | 09:30 | once"),
        ("call dad at 6", "call dad | - | 18:00 | once"),
        ("wake up at 6:00", "wake up | - | 06:00 | once"),
        ("take 2 pills at 8am", "take 2 pills | - | 08:00 | once"),
        ("flight on friday at 6:45am", "flight | 2026-11-27 | 06:45 | once"),
        ("lunch with Jo at 12:30pm", "lunch with Jo | - | 12:30 | once"),
        ("call Sam at 11 pm", "call Sam | - | 23:00 | once"),
        ("breakfast at 7", "breakfast | - | 07:00 | once"),
        ("nap at 13:05", "nap | - | 13:05 | once"),
        ("ping server 10pm", "ping server | - | 22:00 | once"),
        // Dates.
        ("email Bob today at 5pm", "email Bob | 2026-11-22 | 17:00 | once"),
        ("movie tonight", "movie | 2026-11-22 | 20:00 | once"),
        ("movie tonight at 9", "movie | 2026-11-22 | 21:00 | once"),
        ("dentist on dec 24", "dentist | 2026-12-24 | - | once"),
        ("party on december 31st at 8pm", "party | 2026-12-31 | 20:00 | once"),
        ("anniversary 14 february", "anniversary | 2027-02-14 | - | once"),
        ("renew passport on 2027-01-15", "renew passport | 2027-01-15 | - | once"),
        ("call grandma on sunday", "call grandma | 2026-11-29 | - | once"),
        ("groceries on saturday at 10", "groceries | 2026-11-28 | 10:00 | once"),
        ("call mom tomorrow", "call mom | 2026-11-23 | - | once"),
        ("call mom at 9 tomorrow", "call mom | 2026-11-23 | 09:00 | once"),
        ("pay rent on the 22nd", "pay rent | 2026-11-22 | - | once"),
        ("meeting day after tomorrow at 11am", "meeting | 2026-11-24 | 11:00 | once"),
        ("this friday submit report", "submit report | 2026-11-27 | - | once"),
        ("pay taxes on april 15", "pay taxes | 2027-04-15 | - | once"),
        ("team lunch next wednesday at 12:30", "team lunch | 2026-11-25 | 12:30 | once"),
        ("pay the card on the 30th", "pay the card | 2026-11-30 | - | once"),
        ("book tickets on the 24th of december", "book tickets | 2026-12-24 | - | once"),
        // Relative.
        ("in an hour check the oven", "check the oven | 2026-11-22 | 11:07 | once"),
        ("in half an hour stretch", "stretch | 2026-11-22 | 10:37 | once"),
        ("vacation starts in 3 days", "vacation starts | 2026-11-25 | - | once"),
        ("renew the lease in 2 weeks", "renew the lease | 2026-12-06 | - | once"),
        ("tea in five minutes", "tea | 2026-11-22 | 10:12 | once"),
        ("remind me to call Sam tomorrow at 10am", "call Sam | 2026-11-23 | 10:00 | once"),
        // Recurrence.
        ("pick up kids every weekday at 3:30pm", "pick up kids | - | 15:30 | every Mon,Tue,Wed,Thu,Fri"),
        ("yoga every tuesday and thursday at 7am", "yoga | - | 07:00 | every Tue,Thu"),
        ("laundry every sunday", "laundry | - | - | every Sun"),
        ("date night every other friday", "date night | - | - | every 2 weeks on Fri"),
        ("report every week", "report | - | - | weekly"),
        ("newsletter monthly", "newsletter | - | - | monthly"),
        ("meds daily at 8am", "meds | - | 08:00 | daily"),
        ("stretch hourly", "stretch | - | - | hourly"),
        ("posture check every hour", "posture check | - | - | hourly"),
        ("mow the lawn every weekend at 9am", "mow the lawn | - | 09:00 | every Sat,Sun"),
        ("trash out every thursday at 7pm", "trash out | - | 19:00 | every Thu"),
        ("water plants every 2 days at 8am", "water plants | - | 08:00 | every 2 days"),
        ("sprint review every 3 weeks on friday at 4pm", "sprint review | - | 16:00 | every 3 weeks on Fri"),
        ("rent every month on the 1st", "rent | 2026-12-01 | - | monthly"),
        ("board meeting on the first monday of each month", "board meeting | - | - | monthly on the 1st Mon"),
        ("pay the card on the last friday of the month", "pay the card | - | - | monthly on the last Fri"),
        ("vitamins every day at 7am after I finish", "vitamins | - | 07:00 | daily after done"),
        ("refill meds every 30 days after completion", "refill meds | - | - | every 30 days after done"),
        ("hydrate every hour between 9 and 17", "hydrate | - | - | hourly 09:00-17:00"),
        ("water every 3 hours from 9am to 6pm", "water | - | - | every 3 h 09:00-18:00"),
        ("stretch every 2 hours", "stretch | - | - | every 2 h"),
        ("standup every weekday at 9:15", "standup | - | 09:15 | every Mon,Tue,Wed,Thu,Fri"),
        ("piano every sat at 10am", "piano | - | 10:00 | every Sat"),
        ("submit timesheet every friday at 5pm after I finish it", "submit timesheet | - | 17:00 | weekly on Fri after done"),
        ("gym every 2 days after i'm done", "gym | - | - | every 2 days after done"),
        ("Water Plants Every TUESDAY At 3PM", "Water Plants | - | 15:00 | every Tue"),
        ("read 20 pages every day", "read 20 pages | - | - | daily"),
        ("every monday at 9 plan the week", "plan the week | - | 09:00 | every Mon"),
        ("quarterly taxes every 3 months", "quarterly taxes | - | - | every 3 months"),
        // Refusals: what cannot be placed stays in the title, nothing guessed.
        ("call mom sometime", "call mom sometime | - | - | once"),
        ("lunch at 13pm", "lunch at 13pm | - | - | once"),
        ("dentist on the 32nd", "dentist on the 32nd | - | - | once"),
        ("water plants every blue moon", "water plants every blue moon | - | - | once"),
        ("meeting at 25:00", "meeting at 25:00 | - | - | once"),
        ("blink every 20 minutes", "blink every 20 minutes | - | - | once"),
        ("journal every night", "journal every night | - | - | once"),
        ("Buy milk", "Buy milk | - | - | once"),
        ("Buy milk.", "Buy milk | - | - | once"),
        ("call +1 415 555 0132 at 3pm", "call +1 415 555 0132 | - | 15:00 | once"),
        ("feb 30 party", "feb 30 party | - | - | once"),
        ("soon: fix the sink", "soon: fix the sink | - | - | once"),
    ]

    func testPhraseTable() {
        XCTAssertGreaterThanOrEqual(ParserTests.table.count, 80)
        var failures: [String] = []
        for (phrase, expected) in ParserTests.table {
            let got = render(ReminderParser.parse(phrase, now: now, zone: zone))
            if got != expected { failures.append("\(phrase)\n   want \(expected)\n   got  \(got)") }
        }
        XCTAssertTrue(failures.isEmpty, "\(failures.count) phrases:\n" + failures.joined(separator: "\n"))
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
