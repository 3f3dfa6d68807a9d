import XCTest
@testable import NudgeKit

/// A series in a vdir as task clients keep it: yomo writes it starting and
/// due at its pending occurrence (its first in X-YOMO-ANCHOR), so a phone
/// shows the next time; a client that moves it on in place (Tasks.org,
/// Apple's Reminders: DUE and DTSTART at the next occurrence, yomo's
/// properties kept or dropped) completed what came before; todoman's copy
/// under a new UID, due at the next occurrence, is the series going on.
final class VdirSeriesTests: XCTestCase {
    let zone = try! Zone.named("America/New_York")
    let now = RFC3339.parse("2026-11-24T08:00:00-05:00")!.instant
    func at(_ s: String) -> Instant { RFC3339.parse(s)!.instant }

    /// A reminder made on `anchor` whose pending occurrence moved on `skip` occurrences.
    func series(_ rec: Recurrence, anchor: LocalDateTime, skip: Int, zone z: Zone? = nil) -> Reminder {
        let z = z ?? zone
        let first = Yomo.firstTrigger(anchor: anchor, recurrence: rec, now: Instant(ms: z.resolve(anchor).ms - 1), zone: z)!
        var r = Reminder(id: "s1", title: "standup", anchor: anchor, recurrence: rec, zoneName: z.name, triggerAt: first, createdAt: now)
        for _ in 0..<skip { r.triggerAt = rec.next(after: r.triggerAt, anchor: anchor, zone: z)! }
        return r
    }

    func file(_ r: Reminder) -> [UInt8] {
        YomoVdir.render(r, zone: r.zone(zone), now: now, sequence: 1, old: nil) { z, y in ICS.vtimezone(name: z.name, zone: z, years: (y - 1)...(y + 10)) }
    }

    /// A file read as a pass reads it: in the reminder's zone.
    func read(_ bytes: [UInt8], zone z: Zone? = nil) -> YomoVdir.FileRead {
        guard case .success(let f) = YomoVdir.read(bytes, name: "x.ics", fallback: z ?? zone) else { XCTFail("does not read"); fatalError() }
        return f
    }

    func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
    }

    /// Seeded series, their pending occurrence moved on 0 to 40 times: the
    /// file starts and is due there, reads back as the same series (anchor,
    /// rule, version), and nothing changed means no event.
    func testASeriesIsWrittenDueAtItsPendingOccurrenceAndReadsBackAsItself() {
        var g = SeededRandom(seed: 2445)
        let zones = [zone, try! Zone.named("Europe/Berlin"), try! Zone.named("Asia/Kolkata"), Zone.utc]
        var reanchored = 0
        for k in 0..<300 {
            let rec = RecurrenceTests.randomRule(&g)
            guard rec.repeats, !rec.basedOnCompletion, rec.count == nil else { continue }
            let z = zones[k % zones.count]
            let anchor = LocalDateTime(day: Day(year: 2026, month: 1 + Int(g.next() % 11), day: 1 + Int(g.next() % 28)),
                                       time: TimeOfDay(hour: Int(g.next() % 24), minute: Int(g.next() % 4) * 15))
            let r = series(rec, anchor: anchor, skip: Int(g.next() % 41), zone: z)
            let bytes = file(r)
            let f = read(bytes, zone: z)
            guard let item = f.item else { XCTFail("\(rec.summary): no item"); continue }
            let due = YomoVdir.due(r, zone: z)
            if let d = due {
                reanchored += 1
                XCTAssertEqual(f.due, d, rec.summary)
                XCTAssertTrue(lines(bytes).contains { $0.hasPrefix("X-YOMO-ANCHOR") }, rec.summary)
            } else {
                XCTAssertNil(f.due, rec.summary)
            }
            XCTAssertEqual(item.recurrence.json, r.recurrence.json, rec.summary)
            XCTAssertEqual(f.version, YomoVdir.fingerprint(r, zone: z), rec.summary)
            XCTAssertEqual(f.pending, r.triggerAt)
            let d = YomoVdir.inbound(r, read: f, file: "x.ics", seenFingerprint: f.version, fileTime: r.updatedAt, now: now, zone: zone, by: "vdir:tasks")
            XCTAssertEqual(d.events.count, 0, "\(rec.summary) skipped to \(z.format(r.triggerAt)): \(d.events)")
            // The version does not move with the pending occurrence: no conflict between devices a step apart.
            var ahead = r
            if let n = rec.next(after: r.triggerAt, anchor: r.anchor, zone: z) { ahead.triggerAt = n }
            XCTAssertEqual(YomoVdir.fingerprint(ahead, zone: z), YomoVdir.fingerprint(r, zone: z))
        }
        XCTAssertGreaterThan(reanchored, 100)
    }

    /// Tasks.org and Apple's Reminders complete an occurrence by moving the
    /// task on in place: DTSTART and DUE at the next occurrence, RRULE kept,
    /// yomo's X- properties kept (Tasks.org) or dropped (Apple). That is a
    /// completion of the pending occurrence, not an edit.
    func testMovedOnInPlaceIsACompletion() {
        let r = series(Recurrence(kind: .daily), anchor: LocalDateTime(day: Day(year: 2026, month: 11, day: 20), time: TimeOfDay(hour: 9, minute: 0)), skip: 4)
        XCTAssertEqual(r.triggerAt, at("2026-11-24T09:00:00-05:00"))
        let mine = lines(file(r))
        XCTAssertTrue(mine.contains("DTSTART;TZID=America/New_York:20261124T090000"), "\(mine)")
        XCTAssertTrue(mine.contains("DUE;TZID=America/New_York:20261124T090000"))
        XCTAssertTrue(mine.contains("X-YOMO-ANCHOR;TZID=America/New_York:20261120T090000"))
        func moved(_ keepOurs: Bool) -> [UInt8] {
            var out: [String] = []
            for l in mine {
                if !keepOurs && l.hasPrefix("X-YOMO-") { continue }
                if l.hasPrefix("DTSTART;TZID=America/New_York:20261124") || l.hasPrefix("DUE;") {
                    out.append(l.replacingOccurrences(of: "20261124T090000", with: "20261125T090000"))
                } else if l.hasPrefix("SEQUENCE:") { out.append("SEQUENCE:2") } else { out.append(l) }
            }
            return Array(out.joined(separator: "\r\n").utf8)
        }
        for keep in [true, false] {
            let f = read(moved(keep))
            let d = YomoVdir.inbound(r, read: f, file: "x.ics", seenFingerprint: YomoVdir.fingerprint(r, zone: zone),
                                     fileTime: at("2026-11-24T09:05:00-05:00"), now: at("2026-11-24T09:05:00-05:00"), zone: zone, by: "vdir:tasks")
            XCTAssertEqual(d.events.map { $0["type"]?.string }, ["completed"], keep ? "Tasks.org" : "Apple")
            XCTAssertEqual(d.events.first?["next"]?.string, "2026-11-25T09:00:00-05:00")
            XCTAssertNil(d.conflict)
        }
        // Moved to another time of day: an edit, as before.
        let other = Array(mine.map { $0.hasPrefix("DUE;") ? "DUE;TZID=America/New_York:20261124T103000" : $0 }.joined(separator: "\r\n").utf8)
        let e = YomoVdir.inbound(r, read: read(other), file: "x.ics", seenFingerprint: YomoVdir.fingerprint(r, zone: zone),
                                 fileTime: at("2026-11-24T09:05:00-05:00"), now: at("2026-11-24T09:05:00-05:00"), zone: zone, by: "vdir:tasks")
        XCTAssertEqual(e.events.map { $0["type"]?.string }, ["edited"])
        // A copy behind the pending occurrence (another device's, not yet moved on): nothing.
        var behind = r
        behind.triggerAt = at("2026-11-22T09:00:00-05:00")
        let b = YomoVdir.inbound(r, read: read(file(behind)), file: "x.ics", seenFingerprint: YomoVdir.fingerprint(r, zone: zone),
                                 fileTime: at("2026-11-24T09:05:00-05:00"), now: at("2026-11-24T09:05:00-05:00"), zone: zone, by: "vdir:tasks")
        XCTAssertEqual(b.events.count, 0, "\(b.events)")
    }

    /// todoman's copy: a new UID, the same SUMMARY and RRULE, DUE in UTC at
    /// the next occurrence, no DTSTART and none of yomo's properties.
    func testTodomansCopyContinuesTheSeries() {
        let r = series(Recurrence(kind: .weekly, unit: .week, days: [1, 3]), anchor: LocalDateTime(day: Day(year: 2026, month: 11, day: 2), time: TimeOfDay(hour: 9, minute: 30)), skip: 6)
        let copy = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:io.barrera.todoman\r\nBEGIN:VTODO\r\nCREATED;VALUE=DATE-TIME:20261102T130000Z\r\n\
            DTSTAMP;VALUE=DATE-TIME:20261102T130000Z\r\nDUE;VALUE=DATE-TIME:20261125T143000Z\r\nLAST-MODIFIED;VALUE=DATE-TIME:20261124T150000Z\r\n\
            RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,WE\r\nSEQUENCE:2\r\nSTATUS:NEEDS-ACTION\r\nSUMMARY:standup\r\nUID:3c784e59e56441b5@vm\r\nEND:VTODO\r\nEND:VCALENDAR\r\n
            """
        let item = read(Array(copy.utf8)).item!
        XCTAssertTrue(YomoVdir.continues(r, item: item, zone: zone))
        var renamed = item
        renamed.title = "standup!"
        XCTAssertFalse(YomoVdir.continues(r, item: renamed, zone: zone), "another title: another task")
        var offSchedule = item
        offSchedule.anchor.time = TimeOfDay(hour: 10, minute: 0)
        XCTAssertFalse(YomoVdir.continues(r, item: offSchedule, zone: zone), "not an occurrence of the series")
        let daily = read(Array(copy.replacingOccurrences(of: "RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,WE", with: "RRULE:FREQ=DAILY").utf8)).item!
        XCTAssertFalse(YomoVdir.continues(r, item: daily, zone: zone), "another rule")
        // Taken as the series' file: the reminder as it is, under the copy's UID from now on.
        let e = YomoVdir.adoptEvent(r, uid: "3c784e59e56441b5@vm", sequence: 2, zone: zone, at: "2026-11-24T10:00:00-05:00", by: "vdir:tasks")
        var s = YomoState(full: true)
        s.reminders[r.id] = r
        s.apply(e, stamp: Stamp(ms: now.ms, actor: "laptop"))
        let after = s.reminders[r.id]!
        XCTAssertEqual(YomoVdir.uid(after), "3c784e59e56441b5@vm")
        XCTAssertEqual(after.triggerAt, r.triggerAt)
        XCTAssertEqual(after.history, r.history, "no change a person made")
    }
}
