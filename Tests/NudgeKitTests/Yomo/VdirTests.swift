import XCTest
@testable import NudgeKit

/// One reminder as one vdir file, and what another client's change to that
/// file means: seeded reminders read back as themselves; a completion there
/// is a completion here (a rule moves on and its file is written again); a
/// change on both sides is a conflict where the newer stands and a
/// completion always counts; a file gone is a deletion unless yomo changed
/// the reminder since; a file cut short is a problem, not an item.
final class VdirTests: XCTestCase {
    let zone = try! Zone.named("America/New_York")
    func at(_ s: String) -> Instant { RFC3339.parse(s)!.instant }
    func wall(_ d: Int, _ h: Int, _ m: Int = 0) -> LocalDateTime {
        LocalDateTime(day: Day(year: 2026, month: 11, day: d), time: TimeOfDay(hour: h, minute: m))
    }

    func reminder(_ id: String, _ title: String, _ anchor: LocalDateTime, _ rec: Recurrence = .once, zone z: String = "America/New_York") -> Reminder {
        let zz = try! Zone.named(z)
        var r = Reminder(id: id, title: title, anchor: anchor, recurrence: rec, zoneName: z,
                         triggerAt: Yomo.firstTrigger(anchor: anchor, recurrence: rec, now: at("2026-11-24T08:00:00-05:00"), zone: zz)!,
                         createdAt: at("2026-11-24T08:00:00-05:00"))
        r.lastBy = "laptop"
        return r
    }

    func file(_ r: Reminder, now: String = "2026-11-24T08:00:00-05:00", old: ICSComponent? = nil) -> [UInt8] {
        YomoVdir.render(r, zone: r.zone(zone), now: at(now), sequence: 1, old: old) { z, y in
            ICS.vtimezone(name: z.name, zone: z, years: (y - 1)...(y + 10))
        }
    }

    func read(_ bytes: [UInt8], zone z: Zone? = nil) -> YomoVdir.FileRead {
        guard case .success(let f) = YomoVdir.read(bytes, name: "x.ics", fallback: z ?? zone) else { XCTFail("does not read"); fatalError() }
        return f
    }

    /// A file as another client rewrites it: `edit` applied to its lines.
    func edited(_ bytes: [UInt8], _ edit: ([String]) -> [String]) -> [UInt8] {
        let lines = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
        return Array(edit(lines).joined(separator: "\r\n").utf8)
    }

    func testSeededRemindersReadBackAsThemselves() {
        var g = SeededRandom(seed: 5545)
        let titles = ["water, plants", "pay; rent", "a\\b", "Grüße", "meds\nwith food", "日本語", "plain"]
        let zones = ["America/New_York", "Europe/Berlin", "Asia/Kolkata", "UTC"]
        for k in 0..<300 {
            let rec: Recurrence
            switch g.next() % 5 {
            case 0: rec = Recurrence(kind: .daily)
            case 1: rec = Recurrence(kind: .weekly, unit: .week, days: [1, 4])
            case 2: rec = Recurrence(kind: .custom, interval: 3, unit: .hour, rangeStart: TimeOfDay(hour: 9, minute: 0), rangeEnd: TimeOfDay(hour: 18, minute: 0))
            case 3: rec = Recurrence(kind: .custom, interval: 2, unit: .month)
            default: rec = .once
            }
            var r = reminder("r\(k)", titles[Int(g.next() % 7)] + " \(k)", wall(25 + Int(g.next() % 5), Int(g.next() % 24), Int(g.next() % 4) * 15),
                             rec, zone: zones[Int(g.next() % 4)])
            if g.next() % 3 == 0 { r.notes = titles[Int(g.next() % 7)] }
            if g.next() % 4 == 0 { r.alerts = g.next() % 2 == 0 ? [10] : [1440, 10] }
            if g.next() % 5 == 0 { r.nagMinutes = 5 }
            if g.next() % 5 == 0 { r.completed = true; r.completedAt = at("2026-11-24T09:00:00-05:00") }
            if !r.completed && g.next() % 5 == 0 { r.snoozedUntil = at("2026-11-24T09:20:00-05:00"); r.snoozeOf = r.triggerAt }
            let f = read(file(r), zone: r.zone(zone))
            XCTAssertEqual(f.uid, "r\(k)@yomo")
            guard let item = f.item else { XCTFail("\(r.title): no item"); continue }
            XCTAssertEqual(item.title, r.title)
            XCTAssertEqual(item.notes, r.notes)
            XCTAssertEqual(item.recurrence, r.recurrence, r.title)
            XCTAssertEqual(item.zone, r.zone(zone).name)
            XCTAssertEqual(item.alerts, r.alerts)
            XCTAssertEqual(item.nagMinutes, r.nagMinutes)
            XCTAssertEqual(item.completed, r.completed)
            XCTAssertEqual(f.snooze, r.snoozedUntil)
            XCTAssertEqual(f.version, YomoVdir.fingerprint(r, zone: r.zone(zone)))
            if !rec.repeats { XCTAssertEqual(r.zone(zone).resolve(item.anchor), r.triggerAt, r.title) }
            // Nothing another client changed: no events.
            let d = YomoVdir.inbound(r, read: f, file: "x.ics", seenFingerprint: f.version, fileTime: r.updatedAt,
                                     now: at("2026-11-24T08:30:00-05:00"), zone: zone, by: "vdir:tasks")
            XCTAssertEqual(d.events.count, 0, "\(r.title): \(d.events)")
            XCTAssertNil(d.conflict)
        }
    }

    func testACompletionThereIsACompletionHere() {
        let r = reminder("pills", "take pills", wall(24, 9))
        let done = edited(file(r)) { $0.map { $0 == "STATUS:NEEDS-ACTION" ? "STATUS:COMPLETED\r\nCOMPLETED:20261124T141000Z" : $0 } }
        let d = YomoVdir.inbound(r, read: read(done), file: "x.ics", seenFingerprint: YomoVdir.fingerprint(r, zone: zone),
                                 fileTime: at("2026-11-24T09:10:00-05:00"), now: at("2026-11-24T09:11:00-05:00"), zone: zone, by: "vdir:tasks")
        XCTAssertEqual(d.events.map { $0["type"]?.string }, ["completed"])
        XCTAssertEqual(d.events.first?["next"], .null)
        XCTAssertEqual(d.events.first?["by"]?.string, "vdir:tasks")
        XCTAssertEqual(d.dismiss, "completed")
        XCTAssertFalse(d.rewrite)
        // The fold names the vdir as the one who changed it.
        var s = YomoState(full: true)
        s.reminders[r.id] = r
        for e in d.events { s.apply(e, stamp: Stamp(ms: 1, actor: "laptop")) }
        XCTAssertTrue(s.reminders[r.id]!.completed)
        XCTAssertEqual(s.reminders[r.id]!.lastBy, "vdir:tasks")

        // A daily one moves on to tomorrow, and its file says so again.
        let daily = reminder("standup", "standup", wall(24, 9), Recurrence(kind: .daily))
        let doneDaily = edited(file(daily)) { $0.map { $0 == "STATUS:NEEDS-ACTION" ? "STATUS:COMPLETED" : $0 } }
        let dd = YomoVdir.inbound(daily, read: read(doneDaily), file: "x.ics", seenFingerprint: YomoVdir.fingerprint(daily, zone: zone),
                                  fileTime: at("2026-11-24T09:10:00-05:00"), now: at("2026-11-24T09:11:00-05:00"), zone: zone, by: "vdir:tasks")
        XCTAssertEqual(dd.events.first?["next"]?.string, "2026-11-25T09:00:00-05:00")
        XCTAssertTrue(dd.rewrite)
    }

    func testOnBothSidesTheNewerStandsAndACompletionAlwaysCounts() {
        let old = reminder("rent", "pay rent", wall(30, 9))
        var mine = old
        mine.title = "pay the rent"
        mine.updatedAt = at("2026-11-24T10:00:00-05:00")
        let theirs = edited(file(old)) { lines in
            lines.map { $0 == "SUMMARY:pay rent" ? "SUMMARY:pay rent (phone)" : $0.hasPrefix("LAST-MODIFIED:") ? "LAST-MODIFIED:20261124T140000Z" : $0 }
        }
        // Theirs at 09:00, mine at 10:00: mine stands, theirs is reported.
        let d = YomoVdir.inbound(mine, read: read(theirs), file: "rent.ics", seenFingerprint: YomoVdir.base(read(theirs), seen: nil),
                                 fileTime: at("2026-11-24T09:00:00-05:00"), now: at("2026-11-24T10:05:00-05:00"), zone: zone, by: "vdir:tasks")
        XCTAssertEqual(d.events.count, 0)
        XCTAssertTrue(d.rewrite)
        XCTAssertEqual(d.conflict?.record["kept"]?.string, "yomo")
        XCTAssertEqual(d.conflict?.record["lost"]?.object?["title"]?.string, "pay rent (phone)")
        // Theirs also completed it: that counts even though mine stands.
        let done = edited(theirs) { $0.map { $0 == "STATUS:NEEDS-ACTION" ? "STATUS:COMPLETED" : $0 } }
        let d2 = YomoVdir.inbound(mine, read: read(done), file: "rent.ics", seenFingerprint: YomoVdir.base(read(done), seen: nil),
                                  fileTime: at("2026-11-24T09:00:00-05:00"), now: at("2026-11-24T10:05:00-05:00"), zone: zone, by: "vdir:tasks")
        XCTAssertEqual(d2.events.map { $0["type"]?.string }, ["completed"])
        // Theirs at 11:00: theirs stands, mine is reported.
        let later = edited(theirs) { $0.map { $0.hasPrefix("LAST-MODIFIED:") ? "LAST-MODIFIED:20261124T160000Z" : $0 } }
        let d3 = YomoVdir.inbound(mine, read: read(later), file: "rent.ics", seenFingerprint: YomoVdir.base(read(later), seen: nil),
                                  fileTime: at("2026-11-24T11:00:00-05:00"), now: at("2026-11-24T11:05:00-05:00"), zone: zone, by: "vdir:tasks")
        XCTAssertEqual(d3.events.first?["title"]?.string, "pay rent (phone)")
        XCTAssertEqual(d3.conflict?.record["kept"]?.string, "vdir")
        XCTAssertEqual(d3.conflict?.record["lost"]?.object?["title"]?.string, "pay the rent")
        // Edited from yomo's latest version: no conflict at all.
        let fromMine = edited(file(mine)) { $0.map { $0 == "SUMMARY:pay the rent" ? "SUMMARY:pay the rent today" : $0 } }
        let d4 = YomoVdir.inbound(mine, read: read(fromMine), file: "rent.ics", seenFingerprint: YomoVdir.base(read(fromMine), seen: nil),
                                  fileTime: at("2026-11-24T09:00:00-05:00"), now: at("2026-11-24T11:05:00-05:00"), zone: zone, by: "vdir:tasks")
        XCTAssertNil(d4.conflict)
        XCTAssertEqual(d4.events.first?["title"]?.string, "pay the rent today")
    }

    func testADueMovedThereMovesTheReminderAndASnoozeThereSnoozesIt() {
        let r = reminder("call", "call mom", wall(24, 9))
        let fp = YomoVdir.fingerprint(r, zone: zone)
        // A task client moves DUE only (DTSTART stays): DUE is when to remind.
        let moved = edited(file(r)) { $0.map { $0 == "DUE;TZID=America/New_York:20261124T090000" ? "DUE;TZID=America/New_York:20261124T113000" : $0 } }
        let d = YomoVdir.inbound(r, read: read(moved), file: "x.ics", seenFingerprint: fp, fileTime: at("2026-11-24T08:10:00-05:00"),
                                 now: at("2026-11-24T08:11:00-05:00"), zone: zone, by: "vdir:tasks")
        XCTAssertEqual(d.events.map { $0["type"]?.string }, ["edited"])
        XCTAssertEqual(d.events.first?["trigger_at"]?.string, "2026-11-24T11:30:00-05:00")
        // An alarm moved to a fixed time after it came due: a snooze until then.
        let snoozed = edited(file(r)) { $0.map { $0 == "TRIGGER:PT0M" ? "TRIGGER;VALUE=DATE-TIME:20261124T142000Z" : $0 } }
        let s = YomoVdir.inbound(r, read: read(snoozed), file: "x.ics", seenFingerprint: fp, fileTime: at("2026-11-24T09:05:00-05:00"),
                                 now: at("2026-11-24T09:05:00-05:00"), zone: zone, by: "vdir:tasks")
        XCTAssertEqual(s.events.map { $0["type"]?.string }, ["snoozed"])
        XCTAssertEqual(s.events.first?["until"]?.string, "2026-11-24T09:20:00-05:00")
        XCTAssertEqual(s.dismiss, "snoozed")
    }

    func testAFileGoneIsADeletionUnlessChangedHere() {
        let r = reminder("a", "alpha", wall(25, 9))
        let fp = YomoVdir.fingerprint(r, zone: zone)
        let d = YomoVdir.removed(r, file: "a.ics", seenFingerprint: fp, now: at("2026-11-24T09:00:00-05:00"), zone: zone, by: "vdir:tasks")
        XCTAssertEqual(d.events.map { $0["type"]?.string }, ["deleted"])
        var changed = r
        changed.title = "alpha 2"
        let kept = YomoVdir.removed(changed, file: "a.ics", seenFingerprint: fp, now: at("2026-11-24T09:00:00-05:00"), zone: zone, by: "vdir:tasks")
        XCTAssertEqual(kept.events.count, 0)
        XCTAssertTrue(kept.rewrite)
        XCTAssertEqual(kept.conflict?.record["kept"]?.string, "yomo")
    }

    func testAFileCutShortIsAProblemNotAnItem() {
        let whole = file(reminder("a", "alpha", wall(25, 9)))
        for cut in [whole.count / 3, whole.count / 2, whole.count - 20] {
            guard case .failure(let p) = YomoVdir.read(Array(whole.prefix(cut)), name: "a.ics", fallback: zone) else {
                XCTFail("a file cut at \(cut) of \(whole.count) bytes reads as an item"); continue
            }
            XCTAssertEqual(p.place, "a.ics")
        }
        guard case .failure = YomoVdir.read([], name: "e.ics", fallback: zone) else { return XCTFail("an empty file reads") }
    }

    func testWhatYomoDoesNotWriteIsKept() {
        let r = reminder("a", "alpha", wall(25, 9))
        let theirs = edited(file(r)) { lines in
            lines.flatMap { $0 == "END:VTODO" ? ["PRIORITY:1", "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER;RELATED=END:PT5M", "END:VALARM", $0] : [$0] }
        }
        let again = String(decoding: file(r, now: "2026-11-24T09:00:00-05:00", old: read(theirs).calendar), as: UTF8.self)
        XCTAssertTrue(again.contains("PRIORITY:1") && again.contains("TRIGGER;RELATED=END:PT5M"), again)
        // CATEGORIES says the list (its first): a client's other categories stay while the list is the same.
        var listed = r
        listed.list = "home"
        let tagged = edited(file(listed)) { $0.map { $0 == "CATEGORIES:home" ? "CATEGORIES:home,urgent" : $0 } }
        let kept = String(decoding: file(listed, now: "2026-11-24T09:00:00-05:00", old: read(tagged).calendar), as: UTF8.self)
        XCTAssertTrue(kept.contains("CATEGORIES:home,urgent"), kept)
        listed.list = "work"
        let moved = String(decoding: file(listed, now: "2026-11-24T09:00:00-05:00", old: read(tagged).calendar), as: UTF8.self)
        XCTAssertTrue(moved.contains("CATEGORIES:work") && !moved.contains("urgent"), moved)
        XCTAssertEqual(again.components(separatedBy: "BEGIN:VALARM").count - 1, 2, "yomo's alarm once, theirs once")
        XCTAssertEqual(again.components(separatedBy: "UID:").count - 1, 1)
    }
}
