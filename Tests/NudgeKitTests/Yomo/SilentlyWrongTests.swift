import XCTest
@testable import NudgeKit

/// The recurrences yomo once read silently wrong, one test each, named for
/// what is right now.
final class SilentlyWrongTests: XCTestCase {
    let ny = try! Zone.named("America/New_York")
    let now = RFC3339.parse("2026-11-22T10:07:00-05:00")!.instant

    func l(_ s: String) -> LocalDateTime { RFC3339.parse(s, allowLocal: true)!.local }

    /// The first `n` occurrences from the anchor, as RFC 3339 in `zone`.
    func occ(_ r: Recurrence, _ anchor: LocalDateTime, _ zone: Zone, _ n: Int, from: Instant? = nil) -> [String] {
        var out: [String] = []
        var t = from ?? Instant(ms: zone.resolve(anchor).ms - 1)
        while out.count < n, let x = r.next(after: t, anchor: anchor, zone: zone) { out.append(zone.format(x)); t = x }
        return out
    }

    func ics(_ body: String, vtimezone: String = "") -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n\(vtimezone)BEGIN:VEVENT\r\nUID:x@test\r\nSUMMARY:thing\r\n"
            + body.split(separator: "\n").map { $0 + "\r\n" }.joined() + "END:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    func imported(_ text: String) -> (YomoInterchange.Item?, [String]) {
        let (items, problems, _) = YomoInterchange.fromICS(Array(text.utf8), name: "t.ics", fallbackZone: ny)
        return (items.first, problems.map(\.message))
    }

    func importedOcc(_ body: String, _ n: Int, vtimezone: String = "") -> [String] {
        let (item, problems) = imported(ics(body, vtimezone: vtimezone))
        XCTAssertEqual(problems, [])
        guard let i = item else { return [] }
        return occ(i.recurrence, i.anchor, ZoneCache.named(i.zone)!, n)
    }

    // 1
    func testHourlyRuleOnChosenDaysFiresOnThoseDaysOnly() {
        let r = Recurrence(kind: .custom, interval: 6, unit: .hour, days: [1])
        let list = occ(r, l("2026-11-23T09:00"), ny, 12)
        XCTAssertEqual(list.prefix(4), ["2026-11-23T09:00:00-05:00", "2026-11-23T15:00:00-05:00", "2026-11-23T21:00:00-05:00",
                                        "2026-11-30T03:00:00-05:00"])
        for s in list { XCTAssertEqual(Day.parse(String(s.prefix(10)))!.weekday, 1, s) }
        // Nothing comes due on the Tuesday.
        var rem = Reminder(id: "h", title: "h", anchor: l("2026-11-23T09:00"), recurrence: r, zoneName: ny.name,
                           triggerAt: ny.resolve(l("2026-11-23T21:00")), createdAt: now)
        rem.handled = rem.triggerAt
        XCTAssertEqual(Yomo.comeDue(rem, now: RFC3339.parse("2026-11-24T12:00:00-05:00")!.instant, zone: ny).map(ny.format),
                       "2026-11-23T21:00:00-05:00")
        let p = ReminderParser.parse("stretch every 2 hours on mondays", now: now, zone: ny)
        XCTAssertEqual(p.recurrence.days, [1])
        let rfc = importedOcc("DTSTART;TZID=America/New_York:20261123T090000\nRRULE:FREQ=HOURLY;INTERVAL=6;BYDAY=MO", 8)
        for s in rfc { XCTAssertEqual(Day.parse(String(s.prefix(10)))!.weekday, 1, s) }
    }

    // 2
    func testMovedInstanceReplacesItsSlotAndCancelledOneIsGone() {
        let text = ics("""
            DTSTART;TZID=America/New_York:20261201T090000
            RRULE:FREQ=WEEKLY;COUNT=4
            END:VEVENT
            BEGIN:VEVENT
            UID:x@test
            SUMMARY:thing
            RECURRENCE-ID;TZID=America/New_York:20261208T090000
            DTSTART;TZID=America/New_York:20261209T140000
            END:VEVENT
            BEGIN:VEVENT
            UID:x@test
            SUMMARY:thing
            RECURRENCE-ID:20261215T140000Z
            DTSTART:20261215T140000Z
            STATUS:CANCELLED
            """)
        let (items, problems, _) = YomoInterchange.fromICS(Array(text.utf8), name: "t.ics", fallbackZone: ny)
        XCTAssertEqual(problems.map(\.message), [])
        XCTAssertEqual(items.count, 1, "a moved instance is not an extra reminder")
        XCTAssertEqual(occ(items[0].recurrence, items[0].anchor, ny, 10),
                       ["2026-12-01T09:00:00-05:00", "2026-12-09T14:00:00-05:00", "2026-12-22T09:00:00-05:00"])
    }

    // 3
    func testByHourUnderWeeklyAndByMonthDayUnderDailyAreHonoured() {
        XCTAssertEqual(importedOcc("DTSTART;TZID=America/New_York:20261201T090000\nRRULE:FREQ=WEEKLY;BYDAY=TU;BYHOUR=9,17;BYMINUTE=30", 3),
                       ["2026-12-01T09:30:00-05:00", "2026-12-01T17:30:00-05:00", "2026-12-08T09:30:00-05:00"])
        XCTAssertEqual(importedOcc("DTSTART;TZID=America/New_York:20261201T090000\nRRULE:FREQ=DAILY;BYMONTHDAY=1,15", 3),
                       ["2026-12-01T09:00:00-05:00", "2026-12-15T09:00:00-05:00", "2027-01-01T09:00:00-05:00"])
    }

    // 4
    func testUntilIsTheExactInstant() {
        XCTAssertEqual(importedOcc("DTSTART;TZID=America/New_York:20261201T090000\nRRULE:FREQ=DAILY;UNTIL=20261203T140000Z", 9).count, 3)
        XCTAssertEqual(importedOcc("DTSTART;TZID=America/New_York:20261201T090000\nRRULE:FREQ=DAILY;UNTIL=20261203T135959Z", 9).count, 2)
    }

    // 5
    func testMonthlyOnThe31stAndYearlyOnFebruary29SkipTheMonthsWithout() {
        XCTAssertEqual(importedOcc("DTSTART;TZID=America/New_York:20270131T090000\nRRULE:FREQ=MONTHLY", 3).map { String($0.prefix(10)) },
                       ["2027-01-31", "2027-03-31", "2027-05-31"])
        XCTAssertEqual(importedOcc("DTSTART;TZID=America/New_York:20280229T090000\nRRULE:FREQ=YEARLY", 2).map { String($0.prefix(10)) },
                       ["2028-02-29", "2032-02-29"])
    }

    // 6
    func testYearlyWithoutByMonthIsReadOverTheWholeYear() {
        XCTAssertEqual(importedOcc("DTSTART;TZID=America/New_York:20260601T090000\nRRULE:FREQ=YEARLY;BYDAY=1MO", 2).map { String($0.prefix(10)) },
                       ["2027-01-04", "2028-01-03"])
        XCTAssertEqual(importedOcc("DTSTART;TZID=America/New_York:20260601T090000\nRRULE:FREQ=YEARLY;BYMONTHDAY=2", 3).map { String($0.prefix(10)) },
                       ["2026-06-02", "2026-07-02", "2026-08-02"])
    }

    // 7
    func testTZIDThatLooksLikeAPosixStringFollowsTheFilesVTIMEZONE() {
        let tz = "BEGIN:VTIMEZONE\r\nTZID:UTC+11\r\nBEGIN:STANDARD\r\nDTSTART:16010101T000000\r\nTZOFFSETFROM:+1100\r\nTZOFFSETTO:+1100\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
        let list = importedOcc("DTSTART;TZID=UTC+11:20261201T090000\nRRULE:FREQ=DAILY;COUNT=1", 1, vtimezone: tz)
        XCTAssertEqual(list.map { RFC3339.parse($0)!.instant.description }, ["2026-11-30T22:00:00Z"])
        let (item, problems) = imported(ics("DTSTART;TZID=GMT-3:20261201T090000"))
        XCTAssertNil(item)
        XCTAssertTrue(problems.first?.contains("TZID 'GMT-3' is not an IANA zone") == true, "\(problems)")
        // Outlook's Windows names and Mozilla's paths are zones too, in any case.
        XCTAssertEqual(importedOcc("DTSTART;TZID=Eastern Standard Time:20261201T090000\nRRULE:FREQ=DAILY;COUNT=1", 1), ["2026-12-01T09:00:00-05:00"])
        XCTAssertEqual(importedOcc("DTSTART;TZID=/mozilla.org/20050126_1/America/New_York:20261201T090000\nRRULE:FREQ=DAILY;COUNT=1", 1),
                       ["2026-12-01T09:00:00-05:00"])
        XCTAssertEqual(importedOcc("DTSTART;TZID=america/new_york:20261201T090000\nRRULE:FREQ=DAILY;COUNT=1", 1), ["2026-12-01T09:00:00-05:00"])
    }

    /// Outlook names a custom zone with commas: escaped in the VTIMEZONE's
    /// TZID (a text value, RFC 5545 3.3.11), quoted in the DTSTART's parameter.
    func testOutlookCustomZoneWithCommasInItsName() {
        let tz = "BEGIN:VTIMEZONE\r\nTZID:(UTC+01:00) Amsterdam\\, Berlin\\, Bern\\, Rome\r\n"
            + "BEGIN:STANDARD\r\nDTSTART:16011028T030000\r\nRRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\n"
            + "BEGIN:DAYLIGHT\r\nDTSTART:16010325T020000\r\nRRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nEND:DAYLIGHT\r\n"
            + "END:VTIMEZONE\r\n"
        let list = importedOcc("DTSTART;TZID=\"(UTC+01:00) Amsterdam, Berlin, Bern, Rome\":20261201T090000\nRRULE:FREQ=DAILY;COUNT=1", 1, vtimezone: tz)
        XCTAssertEqual(list.map { RFC3339.parse($0)!.instant.description }, ["2026-12-01T08:00:00Z"])
        let summer = importedOcc("DTSTART;TZID=\"(UTC+01:00) Amsterdam, Berlin, Bern, Rome\":20270701T090000\nRRULE:FREQ=DAILY;COUNT=1", 1, vtimezone: tz)
        XCTAssertEqual(summer.map { RFC3339.parse($0)!.instant.description }, ["2027-07-01T07:00:00Z"])
    }

    // 8
    func testExportStartsAtTheRulesFirstOccurrence() {
        let r = Reminder(id: "tue0", title: "tuesdays", anchor: l("2026-11-23T09:00"), recurrence: Recurrence(kind: .weekly, days: [2]),
                         zoneName: ny.name, triggerAt: ny.resolve(l("2026-11-24T09:00")), createdAt: now)
        let (text, _) = YomoInterchange.exportICS([r], fallback: ny, now: now)
        XCTAssertTrue(text.contains("DTSTART;TZID=America/New_York:20261124T090000"), text)
        XCTAssertFalse(text.contains("20261123T090000"), text)
    }

    func testMonthlyByMonthDay28And5WithBySetPosIsReadNotACrash() {
        XCTAssertEqual(importedOcc("DTSTART;TZID=America/New_York:20261205T090000\nRRULE:FREQ=MONTHLY;BYMONTHDAY=28,5;BYSETPOS=-1", 2)
                        .map { String($0.prefix(10)) }, ["2026-12-28", "2027-01-28"])
    }
}
