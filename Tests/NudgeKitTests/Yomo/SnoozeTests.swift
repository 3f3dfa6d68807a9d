import XCTest
@testable import NudgeKit

/// Snooze acts on the occurrence that has come due; snoozing one that has not
/// changes nothing. Checked on two cases first (a snooze before the time, and
/// a snooze that reaches the next occurrence), then as a seeded property over
/// random schedules, snoozes, completions and `due` runs, against an oracle
/// that keeps each reminder's occurrences as a list.
final class SnoozeTests: XCTestCase {
    let zone = try! Zone.named("America/New_York")
    func at(_ s: String) -> Instant { RFC3339.parse(s)!.instant }

    func create(_ s: inout YomoState, _ id: String, _ anchor: LocalDateTime, _ rec: Recurrence, now: Instant) {
        let trigger = Yomo.firstTrigger(anchor: anchor, recurrence: rec, now: now, zone: zone)!
        s.apply(["type": "created", "id": .string(id), "title": .string(id), "anchor": .string(anchor.description),
                 "recurrence": rec.json, "trigger_at": .string(zone.format(trigger)), "at": .string(zone.format(now))])
    }

    func due(_ s: inout YomoState, _ t: Instant) -> [Yomo.Announcement] {
        let found = Yomo.due(s, now: t, zone: zone, device: "d")
        for a in found { s.apply(Yomo.event(for: a, zone: zone, at: t, device: "d"), stamp: Stamp(ms: t.ms, actor: "d")) }
        return found
    }

    func testSnoozingBeforeTheTimeChangesNothing() {
        var s = YomoState(full: true)
        let created = at("2026-11-17T12:00:00-05:00")
        create(&s, "dentist", LocalDateTime(day: Day(year: 2026, month: 11, day: 19), time: TimeOfDay(hour: 9, minute: 0)), .once, now: created)
        // The day before: nothing has come due, so nothing to snooze.
        XCTAssertNil(Yomo.snoozeEvent(s.reminders["dentist"]!, until: at("2026-11-18T09:15:00-05:00"), zone: zone, at: at("2026-11-18T09:00:00-05:00")))
        XCTAssertEqual(due(&s, at("2026-11-18T09:15:00-05:00")).count, 0)
        XCTAssertEqual(due(&s, at("2026-11-19T09:00:00-05:00")).map(\.occurrence), [at("2026-11-19T09:00:00-05:00")], "the real occurrence fires")

        // A daily 09:00, completed yesterday, snoozed at 08:00 today: refused, and 09:00 fires.
        var d = YomoState(full: true)
        create(&d, "pills", LocalDateTime(day: Day(year: 2026, month: 11, day: 18), time: TimeOfDay(hour: 9, minute: 0)), Recurrence(kind: .daily), now: created)
        XCTAssertEqual(due(&d, at("2026-11-18T09:00:00-05:00")).count, 1)
        let r = d.reminders["pills"]!
        d.apply(["type": "completed", "id": "pills", "next": JSON(Yomo.nextAfterDone(r, now: at("2026-11-18T09:01:00-05:00"), zone: zone).map(zone.format)),
                 "at": "2026-11-18T09:01:00-05:00"])
        XCTAssertNil(Yomo.snoozeEvent(d.reminders["pills"]!, until: at("2026-11-19T08:15:00-05:00"), zone: zone, at: at("2026-11-19T08:00:00-05:00")))
        XCTAssertEqual(due(&d, at("2026-11-19T09:00:00-05:00")).map(\.occurrence), [at("2026-11-19T09:00:00-05:00")])
    }

    func testASnoozeReachingTheNextOccurrenceIsNotAMiss() {
        var s = YomoState(full: true)
        let t0 = at("2026-11-18T08:30:00-05:00")
        create(&s, "h", LocalDateTime(day: Day(year: 2026, month: 11, day: 18), time: TimeOfDay(hour: 9, minute: 0)),
               Recurrence(kind: .custom, interval: 1, unit: .hour), now: t0)
        XCTAssertEqual(due(&s, at("2026-11-18T09:00:00-05:00")).map(\.missed), [0])
        // Snoozed at 09:05 for 60 minutes: the 10:00 occurrence comes first and replaces the snooze.
        let e = Yomo.snoozeEvent(s.reminders["h"]!, until: at("2026-11-18T10:05:00-05:00"), zone: zone, at: at("2026-11-18T09:05:00-05:00"))!
        s.apply(e, stamp: Stamp(ms: 1, actor: "d"))
        let ten = due(&s, at("2026-11-18T10:00:00-05:00"))
        XCTAssertEqual(ten.map(\.occurrence), [at("2026-11-18T10:00:00-05:00")])
        XCTAssertEqual(ten.map(\.missed), [0], "the 09:00 was seen and snoozed: not missed")
        XCTAssertEqual(due(&s, at("2026-11-18T10:05:00-05:00")).count, 0, "the replaced snooze does not fire")
        // A real miss: the machine is off from 10:01 to 12:30.
        let late = due(&s, at("2026-11-18T12:30:00-05:00"))
        XCTAssertEqual(late.map(\.occurrence), [at("2026-11-18T12:00:00-05:00")])
        XCTAssertEqual(late.map(\.missed), [1], "11:00 came and went unseen")
    }

    func testTheNotificationOffersAnyMinuteValue() {
        var s = YomoState(full: true)
        create(&s, "r1", LocalDateTime(day: Day(year: 2026, month: 11, day: 22), time: TimeOfDay(hour: 11, minute: 0)), .once, now: at("2026-11-22T10:00:00-05:00"))
        let n = Yomo.notification(Yomo.due(s, now: at("2026-11-22T11:00:00-05:00"), zone: zone)[0], zone: zone, commandPrefix: "yomo")
        XCTAssertEqual(n["snooze_command"], "yomo snooze r1 {minutes}")
        XCTAssertEqual(n["snooze_minutes"], .object(["min": 1, "max": 60, "default": 15]))
    }

    // MARK: The property

    /// One reminder as the oracle sees it: its occurrences as a list, the
    /// pending index, and what became of each.
    struct Oracle {
        var occ: [Instant]
        var pending = 0
        var completed = false
        var seen: Set<Int> = []          // announced or snoozed
        var announced: Set<Int> = []
        var snooze: (until: Instant, of: Int, announced: Bool)? = nil
        var activity: [Instant] = []     // any due run, snooze or done: the window test for "really missed"
        var doneCovered: Set<Int> = []
        var passedBySnooze: Set<Int> = []

        func latest(_ t: Instant) -> Int? {
            guard !completed, pending < occ.count, occ[pending] <= t else { return nil }
            var j = pending
            while j + 1 < occ.count && occ[j + 1] <= t { j += 1 }
            return j
        }
    }

    func testSnoozeDueAndDoneNeverLoseOrRepeatAnOccurrence() {
        var rng = SeededRandom(seed: 4_3)
        let start = at("2026-03-06T00:00:00-05:00")
        let end = at("2026-03-10T00:00:00-04:00")  // across the spring-forward night
        var totalMissed = 0, totalSnoozes = 0, refused = 0
        for round in 0..<80 {
            var s = YomoState(full: true)
            var oracle: [String: Oracle] = [:]
            var rules: [String: Recurrence] = [:]
            for k in 0..<5 {
                var rule = RecurrenceTests.randomRule(&rng)
                if rule.basedOnCompletion { rule.basedOnCompletion = false }
                if Int.random(in: 0..<4, using: &rng) == 0 { rule = .once }
                let anchor = LocalDateTime(day: Day(year: 2026, month: 3, day: Int.random(in: 6...8, using: &rng)),
                                           time: TimeOfDay(hour: Int.random(in: 0...23, using: &rng), minute: [0, 15, 30].randomElement(using: &rng)!))
                let id = "r\(k)"
                create(&s, id, anchor, rule, now: start)
                rules[id] = rule
                var list: [Instant] = []
                var o = s.reminders[id]!.triggerAt
                while o <= end && list.count < 2000 {
                    list.append(o)
                    guard rule.repeats, let n = rule.next(after: o, anchor: anchor, zone: zone) else { break }
                    o = n
                }
                oracle[id] = Oracle(occ: list)
            }
            let dense = round % 4 == 0
            var announcedKeys: [String: Int] = [:]
            var t = start
            var step = 0
            while t < end {
                step += 1
                let id = "r\(Int.random(in: 0..<5, using: &rng))"
                let roll = Int.random(in: 0..<10, using: &rng)
                if roll == 0 {
                    // Snooze a random reminder for 1-60 minutes.
                    let m = Int64.random(in: 1...60, using: &rng)
                    var o = oracle[id]!
                    let e = Yomo.snoozeEvent(s.reminders[id]!, until: t.adding(minutes: m), zone: zone, at: t)
                    if let j = o.latest(t) {
                        XCTAssertNotNil(e, "round \(round): \(id) has come due at \(zone.format(t)), the snooze must act")
                        for i in o.pending..<j where !o.seen.contains(i) { o.passedBySnooze.insert(i) }
                        o.pending = j
                        o.seen.insert(j)
                        o.snooze = (t.adding(minutes: m), j, false)
                        o.activity.append(t)
                        totalSnoozes += 1
                    } else {
                        XCTAssertNil(e, "round \(round): \(id) has not come due at \(zone.format(t)): snooze must change nothing")
                        refused += 1
                    }
                    if let e = e { s.apply(e, stamp: Stamp(ms: t.ms, actor: "d")) }
                    oracle[id] = o
                } else if roll == 1 {
                    // Complete a random reminder.
                    guard let r = s.reminders[id], !r.completed else { t = advance(t, dense: dense, &rng); continue }
                    var o = oracle[id]!
                    let next = Yomo.nextAfterDone(r, now: t, zone: zone)
                    s.apply(["type": "completed", "id": .string(id), "next": JSON(next.map(zone.format)), "at": .string(zone.format(t))],
                            stamp: Stamp(ms: t.ms, actor: "d"))
                    if let n = next {
                        let k = o.occ.firstIndex(where: { $0 >= n }) ?? o.occ.count
                        if k < o.occ.count { XCTAssertEqual(o.occ[k], n, "round \(round): done moves to a real occurrence") }
                        for i in o.pending..<max(o.pending, k) where !o.seen.contains(i) { o.doneCovered.insert(i) }
                        o.pending = max(o.pending, k)
                    } else {
                        for i in o.pending..<o.occ.count where !o.seen.contains(i) { o.doneCovered.insert(i) }
                        o.completed = true
                    }
                    o.snooze = nil
                    o.activity.append(t)
                    oracle[id] = o
                } else {
                    // A due run (sometimes twice at the same moment).
                    for _ in 0..<(Int.random(in: 0..<5, using: &rng) == 0 ? 2 : 1) {
                        var expected: [(String, Instant, Bool, Int)] = []
                        for (rid, var o) in oracle.sorted(by: { $0.key < $1.key }) {
                            o.activity.append(t)
                            if let j = o.latest(t), !o.seen.contains(j) {
                                let missed = (o.pending..<j).filter { !o.seen.contains($0) }.count
                                expected.append((rid, o.occ[j], false, missed))
                                o.pending = j
                                o.seen.insert(j)
                                o.announced.insert(j)
                                if let sz = o.snooze, sz.of < j { o.snooze = nil }
                            } else if var sz = o.snooze, sz.until <= t, !sz.announced, !o.completed {
                                expected.append((rid, sz.until, true, 0))
                                sz.announced = true
                                o.snooze = sz
                            }
                            oracle[rid] = o
                        }
                        let got = due(&s, t)
                        let gotKeys = got.map { "\($0.reminder.id)@\(zone.format($0.occurrence))\($0.snooze ? "z" : "")/\($0.missed)" }.sorted()
                        let wantKeys = expected.map { "\($0.0)@\(zone.format($0.1))\($0.2 ? "z" : "")/\($0.3)" }.sorted()
                        XCTAssertEqual(gotKeys, wantKeys, "round \(round) step \(step) at \(zone.format(t))")
                        if gotKeys != wantKeys { return }
                        for a in got {
                            let key = "\(a.reminder.id)@\(a.occurrence.ms)\(a.snooze ? "z" : "")"
                            announcedKeys[key, default: 0] += 1
                            totalMissed += a.missed
                        }
                    }
                }
                // Now and then through the snapshot, as a later run would read it.
                if step % 17 == 0 {
                    var back = YomoState(full: true)
                    for line in s.hotSnapshot() { try! back.restoreHot(line) }
                    XCTAssertEqual(back.reminders, s.reminders, "round \(round): the snapshot keeps the state")
                    s = back
                }
                t = advance(t, dense: dense, &rng)
            }
            XCTAssertTrue(announcedKeys.values.allSatisfy { $0 == 1 }, "round \(round): announced twice \(announcedKeys.filter { $0.value > 1 })")
            for (id, o) in oracle {
                for i in 0..<o.occ.count where o.occ[i] < t {
                    // Every occurrence that has come is accounted for once: announced,
                    // snoozed, completed, passed over by a snooze, or still to be counted as missed.
                    let fates = [o.announced.contains(i), o.seen.contains(i) && !o.announced.contains(i),
                                 o.doneCovered.contains(i), o.passedBySnooze.contains(i)].filter { $0 }.count
                    XCTAssertLessThanOrEqual(fates, 1, "round \(round): \(id) #\(i)")
                    // "Missed" only where nothing happened between it and the next one.
                    if fates == 0 && i + 1 < o.occ.count && !o.completed {
                        let quiet = !o.activity.contains { $0 >= o.occ[i] && $0 < o.occ[i + 1] }
                        XCTAssertTrue(quiet, "round \(round): \(id) \(zone.format(o.occ[i])) \(rules[id]!.summary) unaccounted though something ran in its window")
                    }
                    if dense && fates == 0 && i + 1 < o.occ.count && o.occ[i + 1] <= t {
                        XCTFail("round \(round): with due every few minutes \(id) \(zone.format(o.occ[i])) was never announced")
                    }
                }
            }
        }
        XCTAssertGreaterThan(totalSnoozes, 50)
        XCTAssertGreaterThan(refused, 20)
        XCTAssertGreaterThan(totalMissed, 0, "some rounds leave gaps long enough to miss")
    }

    func advance(_ t: Instant, dense: Bool, _ rng: inout SeededRandom) -> Instant {
        Instant(ms: t.ms + (dense ? Int64.random(in: 1...3, using: &rng) * 60_000 : Int64.random(in: 60_000...(5 * 3_600_000), using: &rng)))
    }
}
