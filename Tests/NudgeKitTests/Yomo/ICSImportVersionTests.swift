import XCTest
@testable import NudgeKit

/// What calendars found in the wild write and yomo's iCalendar import reads
/// as the calendar that wrote it shows it: the calendar's own zone
/// (X-WR-TIMEZONE), an empty RRULE, an end before the start, an all-day
/// UNTIL with a time, a start with RDATEs and no RRULE, and versions of one
/// item (SEQUENCE, an override the newer series excludes). Each case is
/// one of recurring-ical-events' calendars cut to its point.
final class ICSImportVersionTests: XCTestCase {
    let berlin = try! Zone.named("Europe/Berlin")

    func calendar(_ body: [String], header: [String] = []) -> [UInt8] {
        Array((["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + header + body + ["END:VCALENDAR", ""]).joined(separator: "\r\n").utf8)
    }

    /// The starts of an item from `from`, at most `limit`, in its zone.
    func starts(_ i: YomoInterchange.Item, from: String, limit: Int = 50) -> [String] {
        let z = ZoneCache.named(i.zone) ?? berlin
        var t = Instant(ms: RFC3339.parse(from)!.instant.ms - 1)
        var out: [String] = []
        while out.count < limit, let n = i.recurrence.next(after: t, anchor: i.anchor, zone: z) {
            out.append(z.format(n))
            t = n
        }
        return out
    }

    func testACalendarsOwnZoneIsWhatItsUTCAndFloatingTimesMean() {
        // Google writes a weekly event at 16:00Z in a calendar of Europe/Berlin: 17:00 there, summer and winter.
        let ics = calendar(["BEGIN:VEVENT", "UID:w", "SUMMARY:weekly", "DTSTART:20240105T160000Z", "RRULE:FREQ=WEEKLY;COUNT=30", "END:VEVENT",
                            "BEGIN:VEVENT", "UID:f", "SUMMARY:floating", "DTSTART:20240705T080000", "END:VEVENT"],
                           header: ["X-WR-TIMEZONE:Europe/Berlin"])
        let (items, problems, warnings) = YomoInterchange.fromICS(ics, name: "g.ics", fallbackZone: try! Zone.named("America/New_York"))
        XCTAssertEqual(problems, [])
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(items.map(\.zone), ["Europe/Berlin", "Europe/Berlin"])
        XCTAssertEqual(starts(items[0], from: "2024-07-01T00:00:00+02:00", limit: 1), ["2024-07-05T17:00:00+02:00"])
        XCTAssertEqual(starts(items[1], from: "2024-07-01T00:00:00+02:00", limit: 1), ["2024-07-05T08:00:00+02:00"])
        // A name that is no zone changes nothing and is named.
        let bad = calendar(["BEGIN:VEVENT", "UID:f", "SUMMARY:floating", "DTSTART:20240705T080000", "END:VEVENT"], header: ["X-WR-TIMEZONE:Nowhere/Land"])
        let (items2, problems2, warnings2) = YomoInterchange.fromICS(bad, name: "b.ics", fallbackZone: berlin)
        XCTAssertEqual(problems2, [])
        XCTAssertEqual(items2.map(\.zone), ["Europe/Berlin"])
        XCTAssertEqual(warnings2.count, 1)
        XCTAssertTrue(warnings2.first?.contains("X-WR-TIMEZONE 'Nowhere/Land' is not a zone name") ?? false, "\(warnings2)")
    }

    func testAnEmptyRRULEIsNoneAndAnEndBeforeTheStartIsRefused() {
        let empty = calendar(["BEGIN:VEVENT", "UID:h", "SUMMARY:holiday", "DTSTART;VALUE=DATE:20241225", "RRULE:", "END:VEVENT"])
        let (items, problems, _) = YomoInterchange.fromICS(empty, name: "h.ics", fallbackZone: berlin)
        XCTAssertEqual(problems, [])
        XCTAssertEqual(items.map(\.recurrence.repeats), [false])
        let swapped = calendar(["BEGIN:VEVENT", "UID:s", "SUMMARY:swapped", "DTSTART:20231218T234500", "DTEND:20231218T233000", "END:VEVENT"])
        let (items2, problems2, _) = YomoInterchange.fromICS(swapped, name: "s.ics", fallbackZone: berlin)
        XCTAssertEqual(items2, [])
        XCTAssertEqual(problems2.count, 1)
        XCTAssertTrue(problems2.first?.message.contains("DTEND 20231218T233000 is before DTSTART 20231218T234500") ?? false, "\(problems2)")
    }

    func testAnAllDayUntilWithATimeEndsOnTheDayItNames() {
        // Outlook: UNTIL=20200916T230000Z on an all-day series; in Auckland that instant is the 17th, 11:00.
        let ics = calendar(["BEGIN:VEVENT", "UID:a", "SUMMARY:all day", "DTSTART;VALUE=DATE:20200914", "RRULE:FREQ=DAILY;UNTIL=20200916T230000Z", "END:VEVENT"])
        let (items, problems, _) = YomoInterchange.fromICS(ics, name: "a.ics", fallbackZone: try! Zone.named("Pacific/Auckland"))
        XCTAssertEqual(problems, [])
        XCTAssertEqual(starts(items[0], from: "2020-09-01T00:00:00+12:00"),
                       ["2020-09-14T09:00:00+12:00", "2020-09-15T09:00:00+12:00", "2020-09-16T09:00:00+12:00"])
    }

    func testAStartWithRDATEsAndNoRRULEIsItsFirstOccurrence() {
        let ics = calendar(["BEGIN:VEVENT", "UID:r", "SUMMARY:rdates", "DTSTART;TZID=Europe/Berlin:20240101T100000",
                            "RDATE;TZID=Europe/Berlin:20240105T100000,20240110T100000", "END:VEVENT"])
        let (items, problems, _) = YomoInterchange.fromICS(ics, name: "r.ics", fallbackZone: berlin)
        XCTAssertEqual(problems, [])
        XCTAssertEqual(starts(items[0], from: "2023-12-01T00:00:00+01:00"),
                       ["2024-01-01T10:00:00+01:00", "2024-01-05T10:00:00+01:00", "2024-01-10T10:00:00+01:00"])
    }

    func testTheHighestSequenceIsTheItemAndAnOverrideItExcludesIsGone() {
        // Two versions of one series: the newer (SEQUENCE 1) excludes 07-15 and moves nothing.
        let series = { (seq: Int, extra: [String]) in
            ["BEGIN:VEVENT", "UID:111", "SEQUENCE:\(seq)", "SUMMARY:biweekly", "DTSTART;VALUE=DATE:20240701", "RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=3"] + extra + ["END:VEVENT"]
        }
        let versions = calendar(series(0, []) + series(1, ["EXDATE;VALUE=DATE:20240715"]))
        let (items, problems, _) = YomoInterchange.fromICS(versions, name: "v.ics", fallbackZone: berlin)
        XCTAssertEqual(problems, [])
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(items.first?.sequence, 1)
        XCTAssertEqual(items.first.map { starts($0, from: "2024-06-01T00:00:00+02:00") }, ["2024-07-01T09:00:00+02:00", "2024-07-29T09:00:00+02:00"])
        // An override (older than the series) of the occurrence the series excludes is gone too.
        let moved = ["BEGIN:VEVENT", "UID:111", "SEQUENCE:0", "SUMMARY:moved", "RECURRENCE-ID;VALUE=DATE:20240715", "DTSTART;VALUE=DATE:20240717", "END:VEVENT"]
        let (items2, problems2, _) = YomoInterchange.fromICS(calendar(series(1, ["EXDATE;VALUE=DATE:20240715"]) + moved), name: "m.ics", fallbackZone: berlin)
        XCTAssertEqual(problems2, [])
        XCTAssertEqual(items2.first.map { starts($0, from: "2024-06-01T00:00:00+02:00") }, ["2024-07-01T09:00:00+02:00", "2024-07-29T09:00:00+02:00"])
        // The same override, as new as the series and of an occurrence it has, moves it.
        let (items3, _, _) = YomoInterchange.fromICS(calendar(series(1, []) + moved), name: "n.ics", fallbackZone: berlin)
        XCTAssertEqual(items3.first.map { starts($0, from: "2024-06-01T00:00:00+02:00") },
                       ["2024-07-01T09:00:00+02:00", "2024-07-17T09:00:00+02:00", "2024-07-29T09:00:00+02:00"])
    }
}
