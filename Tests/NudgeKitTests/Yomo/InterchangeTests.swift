import XCTest
import TestSupport
@testable import NudgeKit

/// yomo's reminders in and out: iCalendar both ways (checked against Debian's
/// python3-icalendar and python3-dateutil), Taskwarrior's export, yomo's
/// own NDJSON; all or nothing, every problem named.
final class InterchangeTests: XCTestCase {
    let ny = try! Zone.named("America/New_York")
    let now = RFC3339.parse("2026-11-22T10:07:00-05:00")!.instant

    func reminder(_ id: String, _ anchor: LocalDateTime, _ rec: Recurrence, zone: Zone? = nil, warn: Int = 0, title: String? = nil) -> Reminder {
        let z = zone ?? ny
        var r = Reminder(id: id, title: title ?? "task \(id)", anchor: anchor, recurrence: rec, zoneName: z.name,
                         triggerAt: Yomo.firstTrigger(anchor: anchor, recurrence: rec, now: now, zone: z) ?? z.resolve(anchor), createdAt: now)
        r.alerts = warn > 0 ? [warn] : []
        return r
    }

    static func randomRule(_ rng: inout SeededRandom, anchor: LocalDateTime) -> Recurrence {
        var r = RecurrenceTests.randomRule(&rng)
        if Int.random(in: 0..<5, using: &rng) == 0 { r.until = anchor.day.adding(days: Int.random(in: 10...400, using: &rng)) }
        else if Int.random(in: 0..<5, using: &rng) == 0 { r.count = Int.random(in: 1...30, using: &rng) }
        return r
    }

    /// Whether RRULE alone can say the rule (else X-YOMO-RECURRENCE carries it).
    static func sayable(_ r: Recurrence) -> Bool { !r.basedOnCompletion && !(r.overnight && !r.days.isEmpty) }

    func testYomoToICSToYomoKeepsEveryRule() {
        var rng = SeededRandom(seed: 2026)
        let zones = [ny, try! Zone.named("Europe/Berlin"), try! Zone.named("Australia/Sydney"), Zone.utc]
        var reminders: [Reminder] = []
        for k in 0..<300 {
            let anchor = LocalDateTime(day: Day(year: 2026, month: 1, day: 1).adding(days: Int.random(in: 0...700, using: &rng)),
                                       time: TimeOfDay(hour: Int.random(in: 0...23, using: &rng), minute: [0, 15, 30, 45].randomElement(using: &rng)!))
            var rule = InterchangeTests.randomRule(&rng, anchor: anchor)
            if k % 7 == 0 { rule.basedOnCompletion = true }
            if k % 11 == 0 { rule = .once }
            var r = reminder(String(format6(k)), anchor, rule, zone: zones[k % zones.count], warn: k % 3 == 0 ? 10 * (k % 5 + 1) : 0,
                             title: "title \(k), with; commas\\ and a very long text that has to be folded across lines, ünïcödé ✓ \(k)")
            r.notes = k % 2 == 0 ? "line one\nline two; three, four" : ""
            reminders.append(r)
        }
        let (text, warnings) = YomoInterchange.exportICS(reminders, fallback: ny, now: now)
        XCTAssertEqual(warnings.count, reminders.filter { !InterchangeTests.sayable($0.recurrence) && $0.recurrence.repeats }.count)
        for line in text.split(separator: "\r\n") { XCTAssertLessThanOrEqual(line.utf8.count, 75, String(line)) }
        let (items, problems, _) = YomoInterchange.fromICS(Array(text.utf8), name: "x.ics", fallbackZone: ny)
        XCTAssertEqual(problems, [])
        XCTAssertEqual(items.count, reminders.count)
        for (r, i) in zip(reminders, items) {
            XCTAssertEqual(i.id, r.id)
            XCTAssertEqual(i.title, r.title)
            XCTAssertEqual(i.notes, r.notes)
            XCTAssertEqual(i.zone, r.zone(ny).name)
            XCTAssertEqual(i.alerts, r.alerts)
            XCTAssertEqual(i.recurrence.json, r.recurrence.json, r.recurrence.summary)
            // The start is the rule's first occurrence (an anchor the rule skips is no instance).
            if !r.recurrence.basedOnCompletion {
                let z = r.zone(ny)
                let first = r.recurrence.repeats ? r.recurrence.next(after: Instant(ms: z.resolve(r.anchor).ms - 1), anchor: r.anchor, zone: z).map(z.local) : r.anchor
                XCTAssertEqual(i.anchor, first ?? r.anchor, r.recurrence.summary)
            }
        }
        // Without the X- property, RRULE alone gives back every rule it can say.
        let plain = text.replacingOccurrences(of: "\r\n ", with: "").split(separator: "\r\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("X-YOMO-RECURRENCE") }
        let unfolded = plain.joined(separator: "\r\n")
        let (items2, problems2, _) = YomoInterchange.fromICS(Array(unfolded.utf8), name: "x.ics", fallbackZone: ny)
        XCTAssertEqual(problems2, [], "\(problems2.prefix(3))")
        for (r, i) in zip(reminders, items2) where InterchangeTests.sayable(r.recurrence) {
            // Occurrences agree (the rule's spelling may differ: weekly on the anchor's day is weekly;
            // a plain hourly rule comes back in UTC, where its start is written).
            let z = r.zone(ny), iz = ZoneCache.named(i.zone)!
            var a = Instant(ms: z.resolve(r.anchor).ms - 1), b = a
            for _ in 0..<12 {
                let na = r.recurrence.next(after: a, anchor: r.anchor, zone: z)
                let nb = i.recurrence.next(after: b, anchor: i.anchor, zone: iz)
                XCTAssertEqual(na, nb, "\(r.recurrence.summary) vs \(i.recurrence.summary)")
                guard let x = na, let y = nb else { break }
                a = x
                b = y
            }
        }
    }

    func format6(_ k: Int) -> String { let s = String(k, radix: 16); return String(repeating: "0", count: 12 - s.count) + s }

    func testICSProblemsAreNamedAndNothingIsImported() {
        let ics = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            BEGIN:VTODO\r
            UID:a\r
            SUMMARY:fine\r
            DTSTART;TZID=Europe/Paris:20261201T090000\r
            RRULE:FREQ=WEEKLY;BYDAY=MO,WE\r
            END:VTODO\r
            BEGIN:VEVENT\r
            UID:b\r
            SUMMARY:weeks of the year\r
            DTSTART:20261201T090000Z\r
            RRULE:FREQ=YEARLY;BYWEEKNO=20\r
            END:VEVENT\r
            BEGIN:VTODO\r
            UID:c\r
            SUMMARY:nowhere\r
            DTSTART;TZID=Mars/Olympus:20261201T090000\r
            END:VTODO\r
            BEGIN:VTODO\r
            UID:d\r
            DTSTART:20261201T090000\r
            END:VTODO\r
            END:VCALENDAR\r

            """
        let (items, problems, _) = YomoInterchange.fromICS(Array(ics.utf8), name: "cal.ics", fallbackZone: ny)
        // Every RFC 5545 rule is kept as it is said (BYWEEKNO too); what is wrong is named.
        XCTAssertEqual(items.count, 2)
        XCTAssertEqual(items[0].recurrence.summary, "rrule FREQ=WEEKLY;BYDAY=MO,WE")
        XCTAssertEqual(items[0].zone, "Europe/Paris")
        XCTAssertEqual(items[1].recurrence.summary, "rrule FREQ=YEARLY;BYWEEKNO=20")
        XCTAssertEqual(problems.map(\.text), [
            "cal.ics:15: VTODO 2 (UID c): TZID 'Mars/Olympus' is not an IANA zone (America/New_York), a Windows zone name (Eastern Standard Time), nor defined by a VTIMEZONE in the file",
            "cal.ics:20: VTODO 3 (UID d): SUMMARY is missing or empty",
        ])
    }

    func testTaskwarriorExport() {
        let json = """
            [
            {"id":1,"description":"Pay rent","due":"20261201T140000Z","entry":"20261101T100000Z","status":"pending","uuid":"aaaa-1","project":"home","tags":["money"]},
            {"id":0,"description":"Water plants","due":"20261124T200000Z","status":"recurring","recur":"weekly","uuid":"bbbb-1","until":"20270301T000000Z"},
            {"id":2,"description":"Water plants","due":"20261124T200000Z","status":"pending","parent":"bbbb-1","uuid":"bbbb-2"},
            {"id":0,"description":"Old thing","due":"20261001T120000Z","status":"completed","uuid":"cccc-1","end":"20261002T120000Z"},
            {"id":0,"description":"Gone","due":"20261001T120000Z","status":"deleted","uuid":"dddd-1"},
            {"id":3,"description":"Someday","status":"pending","uuid":"eeee-1"},
            {"id":4,"description":"Backups","due":"20261122T230000Z","status":"recurring","recur":"2d","uuid":"ffff-1","annotations":[{"entry":"20261101T100000Z","description":"external disk"}]}
            ]
            """
        let (items, problems, skipped) = YomoInterchange.fromTaskwarrior(Array(json.utf8), name: "tasks.json", zone: ny)
        XCTAssertEqual(problems, [])
        XCTAssertEqual(skipped, 3, "the instance of a template, the deleted task, the task without a date")
        XCTAssertEqual(items.map(\.title), ["Pay rent", "Water plants", "Old thing", "Backups"])
        XCTAssertEqual(items[0].anchor.description, "2026-12-01T09:00:00")
        XCTAssertEqual(items[0].notes, "+money")
        XCTAssertEqual(items[0].list, "home", "Taskwarrior's project is the list")
        XCTAssertEqual(items[1].recurrence.summary, "every Tue until 2027-02-28")
        XCTAssertTrue(items[2].completed)
        XCTAssertEqual(items[3].recurrence.summary, "every 2 days")
        XCTAssertEqual(items[3].notes, "external disk")
        let bad = #"[{"description":"x","due":"tomorrow","uuid":"1"},{"description":"y","due":"20261201T140000Z","recur":"fortnightlyish","uuid":"2"},{"due":"20261201T140000Z","uuid":"3"}]"#
        let (_, p2, _) = YomoInterchange.fromTaskwarrior(Array(bad.utf8), name: "t.json", zone: ny)
        XCTAssertEqual(p2.map(\.text), [
            "t.json: task 1 (1): \"due\" must be a Taskwarrior date like 20261125T170000Z",
            "t.json: task 2 (2): \"recur\" 'fortnightlyish' is not a period yomo knows (daily, weekly, 2d, 3wk, monthly, quarterly, yearly...)",
            "t.json: task 3 (3): \"description\" must be a non-empty string",
        ])
        XCTAssertEqual(YomoInterchange.detect(Array(json.utf8)), .taskwarrior)
        XCTAssertEqual(YomoInterchange.detect(Array("BEGIN:VCALENDAR\r\n".utf8)), .ical)
        XCTAssertEqual(YomoInterchange.detect(Array(#"{"type":"reminder"}"#.utf8)), .yomo)
    }

    // MARK: Against Debian's python3-icalendar and python3-dateutil

    /// Runs a python3 script that has both modules, `input` on its stdin.
    func runPython(_ script: String, input: String) throws -> String {
        try require(.icalendar, .dateutil)
        let r = runProgram(Requirements.python ?? "python3", ["-c", script], stdin: Array(input.utf8))
        XCTAssertEqual(r.status, 0, "python3 \(r.summary): \(r.err)")
        return r.out
    }

    /// Every exported calendar parses with python3-icalendar, and its
    /// expansions, with python3-dateutil, are yomo's occurrences: across
    /// daylight-saving changes in three zones.
    func testExportedICSParsesAndExpandsAsDateutilSays() throws {
        var rng = SeededRandom(seed: 5545)
        let zones = [ny, try Zone.named("Europe/London"), try Zone.named("Australia/Sydney")]
        var reminders: [Reminder] = []
        for k in 0..<120 {
            // Around the DST changes of 2026 and 2027.
            let base = [Day(year: 2026, month: 3, day: 1), Day(year: 2026, month: 10, day: 20), Day(year: 2027, month: 3, day: 20), Day(year: 2026, month: 3, day: 25)][k % 4]
            let anchor = LocalDateTime(day: base.adding(days: Int.random(in: 0...20, using: &rng)),
                                       time: TimeOfDay(hour: Int.random(in: 0...23, using: &rng), minute: [0, 30].randomElement(using: &rng)!))
            var rule = InterchangeTests.randomRule(&rng, anchor: anchor)
            // dateutil counts hours on the clock, yomo elapsed hours: the export writes a plain hourly rule's start in UTC, where they agree.
            // An hour range through the gap hour fires once in yomo, twice in dateutil's reading.
            if rule.unit == .hour, let s = rule.rangeStart { rule.rangeStart = TimeOfDay(hour: max(s.hour, 4), minute: 0); rule.rangeEnd = TimeOfDay(hour: 23, minute: 0) }
            rule.basedOnCompletion = false
            if rule.overnight { rule.days = [] }
            reminders.append(reminder(format6(k), anchor, rule, zone: zones[k % zones.count]))
        }
        let (text, warnings) = YomoInterchange.exportICS(reminders, fallback: ny, now: now)
        XCTAssertEqual(warnings, [])
        let script = """
            import sys, icalendar, zoneinfo
            from dateutil.rrule import rrulestr
            cal = icalendar.Calendar.from_ical(sys.stdin.read())
            assert cal.name == 'VCALENDAR'
            tzids = {str(c['TZID']) for c in cal.walk('VTIMEZONE')}
            for c in cal.walk('VTODO'):
                start = c['DTSTART']
                tzid = start.params.get('TZID')
                assert tzid is None or tzid in tzids, tzid
                d = start.dt
                if tzid:
                    d = d.replace(tzinfo=zoneinfo.ZoneInfo(tzid))
                out = [str(c['UID'])]
                if 'RRULE' in c:
                    rule = c['RRULE'].to_ical().decode()
                    for i, o in enumerate(rrulestr(rule, dtstart=d)):
                        if i >= 12: break
                        out.append(str(int(o.timestamp())))
                else:
                    out.append(str(int(d.timestamp())))
                assert str(c['SUMMARY'])
                print(' '.join(out))
            """
        let got = try runPython(script, input: text).split(separator: "\n").map(String.init)
        XCTAssertEqual(got.count, reminders.count)
        var compared = 0
        for (r, line) in zip(reminders, got) {
            let z = r.zone(ny)
            var mine: [String] = [r.id + "@yomo"]
            var t = Instant(ms: z.resolve(r.anchor).ms - 1)
            if !r.recurrence.repeats { mine.append(String(z.resolve(r.anchor).seconds)) }
            while r.recurrence.repeats && mine.count < 13, let n = r.recurrence.next(after: t, anchor: r.anchor, zone: z) {
                mine.append(String(n.seconds))
                t = n
            }
            XCTAssertEqual(line, mine.joined(separator: " "), "\(r.recurrence.summary) from \(r.anchor) in \(z.name)")
            compared += mine.count - 1
        }
        XCTAssertGreaterThan(compared, 800)
    }
}
