import XCTest
@testable import NudgeKit

/// Snooze as a property: over random schedules, snoozes and `due` runs at
/// random moments, no occurrence is lost, none is announced twice, a snooze
/// is announced once at its time, and `missed` counts exactly the
/// occurrences nobody saw (not announced, not snoozed).
final class SnoozeTests: XCTestCase {
    let zone = try! Zone.named("America/New_York")
    func at(_ s: String) -> Instant { RFC3339.parse(s)!.instant }

    func testNoOccurrenceIsLostOrToldTwiceAndMissedIsOnlyWhatNobodySaw() {
        var rng = SeededRandom(seed: 43)
        var totals = (announced: 0, snoozes: 0, snoozeAnnounced: 0, missed: 0, refused: 0)
        for round in 0..<250 {
            var rule = RecurrenceTests.randomRule(&rng)
            if rule.basedOnCompletion { rule.basedOnCompletion = false }
            if rule.unit == .hour && rule.rangeStart == nil { rule.interval = max(rule.interval, 1) }
            if Int.random(in: 0..<5, using: &rng) == 0 { rule = .once }
            let start = at("2026-03-07T00:00:00-05:00")
            let end = at("2026-03-10T12:00:00-04:00")
            let anchor = LocalDateTime(day: Day(year: 2026, month: 3, day: Int.random(in: 7...8, using: &rng)),
                                       time: TimeOfDay(hour: Int.random(in: 0...23, using: &rng), minute: [0, 15, 30].randomElement(using: &rng)!))
            guard let first = Yomo.firstTrigger(anchor: anchor, recurrence: rule, now: start, zone: zone) else { continue }
            // The schedule, as ground truth.
            var g: [Instant] = [first]
            while rule.repeats, let n = rule.next(after: g.last!, anchor: anchor, zone: zone), n <= end, g.count < 2000 { g.append(n) }
            var s = YomoState(full: true)
            s.apply(["type": "created", "id": "r", "title": "t", "anchor": .string(anchor.description), "recurrence": rule.json,
                     "trigger_at": .string(zone.format(first)), "at": .string(zone.format(start))])
            var announced = Set<Int>()   // indexes of g announced
            var seen = Set<Int>()        // announced, counted missed, or snoozed while pending
            var p = 0                    // the pending occurrence's index
            var pendingSnooze: Instant? = nil
            var t = start
            func dueRun(_ now: Instant) {
                for a in Yomo.due(s, now: now, zone: zone) {
                    if a.snooze {
                        XCTAssertEqual(a.occurrence, pendingSnooze, "round \(round): a snooze told that was not asked")
                        XCTAssertLessThanOrEqual(a.occurrence, now)
                        pendingSnooze = nil
                        totals.snoozeAnnounced += 1
                    } else {
                        guard let q = g.firstIndex(of: a.occurrence), q >= p else {
                            XCTFail("round \(round): \(zone.format(a.occurrence)) is not a pending occurrence of \(rule.summary)"); return
                        }
                        XCTAssertFalse(announced.contains(q), "round \(round): \(zone.format(a.occurrence)) told twice")
                        let expectedMissed = (p..<q).filter { !seen.contains($0) }.count
                        XCTAssertEqual(a.missed, expectedMissed, "round \(round): missed \(a.missed), but nobody saw \(expectedMissed) (\(rule.summary))")
                        for k in p..<q { seen.insert(k) }
                        announced.insert(q)
                        seen.insert(q)
                        totals.missed += a.missed
                        totals.announced += 1
                        if q > p { pendingSnooze = nil }  // a later occurrence supersedes a snooze
                        p = q
                    }
                    s.apply(Yomo.event(for: a, zone: zone, at: now))
                }
            }
            while t < end {
                t = Instant(ms: t.ms + Int64.random(in: 60_000...(5 * 3_600_000), using: &rng))
                if t > end { t = end }
                switch Int.random(in: 0..<4, using: &rng) {
                case 0:
                    // A snooze: only for an occurrence that has come.
                    let r = s.reminders["r"]!
                    if r.triggerAt > t { totals.refused += 1; continue }
                    let m = Int64.random(in: 1...60, using: &rng)
                    let until = t.adding(minutes: m)
                    s.apply(Yomo.snoozeEvent(r, until: until, zone: zone, at: t))
                    if let q = g.firstIndex(of: r.triggerAt) { seen.insert(q) }
                    pendingSnooze = until
                    totals.snoozes += 1
                default:
                    dueRun(t)
                }
            }
            dueRun(end)
            // Everything up to the end was told, counted missed, or snoozed — once.
            for (k, o) in g.enumerated() where o <= end {
                XCTAssertTrue(seen.contains(k), "round \(round): \(zone.format(o)) of \(rule.summary) was lost")
            }
            if pendingSnooze.map({ $0 <= end }) ?? false { XCTFail("round \(round): a snooze due by the end was never told") }
        }
        // The generator reaches every case, or this proves little.
        XCTAssertGreaterThan(totals.announced, 300)
        XCTAssertGreaterThan(totals.snoozeAnnounced, 50)
        XCTAssertGreaterThan(totals.missed, 20)
        XCTAssertGreaterThan(totals.refused, 20)
    }

    /// The two bugs seen: a snooze the day before swallowing the occurrence,
    /// and a snooze reaching the next occurrence reporting one missed.
    func testTheSeenBugs() {
        var s = YomoState(full: true)
        s.apply(["type": "created", "id": "d", "title": "dentist", "anchor": "2026-11-19T09:00:00", "recurrence": Recurrence.once.json,
                 "trigger_at": "2026-11-19T09:00:00-05:00", "at": "2026-11-18T08:00:00-05:00"])
        // (The command refuses a snooze before the occurrence; the occurrence still comes.)
        XCTAssertEqual(Yomo.due(s, now: at("2026-11-19T09:00:00-05:00"), zone: zone).map(\.occurrence), [at("2026-11-19T09:00:00-05:00")])
        var h = YomoState(full: true)
        var rule = Recurrence.once
        rule.kind = .custom; rule.unit = .hour; rule.interval = 1
        h.apply(["type": "created", "id": "h", "title": "stretch", "anchor": "2026-11-19T09:00:00", "recurrence": rule.json,
                 "trigger_at": "2026-11-19T09:00:00-05:00", "at": "2026-11-19T08:00:00-05:00"])
        for a in Yomo.due(h, now: at("2026-11-19T09:00:00-05:00"), zone: zone) { h.apply(Yomo.event(for: a, zone: zone, at: at("2026-11-19T09:00:00-05:00"))) }
        h.apply(Yomo.snoozeEvent(h.reminders["h"]!, until: at("2026-11-19T10:05:00-05:00"), zone: zone, at: at("2026-11-19T09:05:00-05:00")))
        let next = Yomo.due(h, now: at("2026-11-19T10:00:00-05:00"), zone: zone)
        XCTAssertEqual(next.map(\.occurrence), [at("2026-11-19T10:00:00-05:00")])
        XCTAssertEqual(next.first?.missed, 0, "the 09:00 was told and snoozed: not missed")
    }
}

final class OvernightRangeTests: XCTestCase {
    func testARangeAcrossMidnightRunsIntoTheNextDay() {
        let zone = try! Zone.named("America/New_York")
        var rule = Recurrence(kind: .custom, interval: 4, unit: .hour)
        rule.rangeStart = TimeOfDay(hour: 22, minute: 0)
        rule.rangeEnd = TimeOfDay(hour: 6, minute: 0)
        XCTAssertNil(rule.problem)
        let anchor = LocalDateTime(day: Day(year: 2026, month: 11, day: 22), time: TimeOfDay(hour: 22, minute: 0))
        var t = Instant(ms: zone.resolve(anchor).ms - 1)
        var got: [String] = []
        for _ in 0..<6 {
            guard let n = rule.next(after: t, anchor: anchor, zone: zone) else { break }
            got.append(zone.format(n))
            t = n
        }
        XCTAssertEqual(got, ["2026-11-22T22:00:00-05:00", "2026-11-23T02:00:00-05:00", "2026-11-23T06:00:00-05:00",
                             "2026-11-23T22:00:00-05:00", "2026-11-24T02:00:00-05:00", "2026-11-24T06:00:00-05:00"])
    }
}
