import XCTest
@testable import NudgeKit

/// `due`'s summary path on several devices that each write from their own
/// view: a device sees another's events only once its journal has synced
/// (a prefix of it, in the order it was written), so two devices act in the
/// same minute without knowing of each other. Whenever the summary path says
/// "nothing due", the full computation over what that device has must agree.
final class YomoDueDevicesTests: XCTestCase {
    let zone = try! Zone.named("America/New_York")
    let devices = ["laptop", "phone", "desk"]

    struct Written { var stamp: Stamp; var event: JSONObject }

    func fold(_ events: [Written]) -> YomoState {
        var s = YomoState(full: true)
        for w in events.sorted(by: { $0.stamp < $1.stamp }) { s.apply(w.event, stamp: w.stamp) }
        return s
    }

    func testSummaryNeverHidesADueReminderAcrossDevicesThatHaveNotSeenEachOther() {
        var quiet = 0, checked = 0, fromCheckpoint = 0
        for seed in 0..<30 {
            var rng = SeededRandom(seed: UInt64(400 + seed))
            // journals[d]: what device d wrote, in order; synced[d][x]: how much of x's journal d has.
            var journals: [[Written]] = devices.map { _ in [] }
            var synced: [[Int]] = devices.map { _ in devices.map { _ in 0 } }
            var snapshot: [(summary: JSONObject?, synced: [Int], frontier: Stamp?)] = devices.map { _ in (nil, devices.map { _ in 0 }, nil) }
            // The snapshot before, kept as the checkpoint: a late batch answers from it.
            var checkpoint = snapshot
            var lastStamp: [Int64] = devices.map { _ in 0 }
            var t = RFC3339.parse("2026-03-07T08:00:00-05:00")!.instant
            var ids: [String] = []

            func seen(_ d: Int, upTo counts: [Int]? = nil) -> [Written] {
                let c = counts ?? synced[d]
                return devices.indices.flatMap { x in journals[x].prefix(c[x]) }
            }
            func view(_ d: Int) -> YomoState { fold(seen(d)) }
            func write(_ d: Int, _ events: [JSONObject]) {
                guard !events.isEmpty else { return }
                // A device's clock never runs behind what it has seen.
                let seenMax = seen(d).map(\.stamp.ms).max() ?? 0
                let ms = max(t.ms, lastStamp[d] + 1, seenMax + 1)
                lastStamp[d] = ms
                for e in events { journals[d].append(Written(stamp: Stamp(ms: ms, actor: devices[d]), event: e)) }
                synced[d][d] = journals[d].count
            }

            for step in 0..<260 {
                // Often several devices act in the same minute.
                if Int.random(in: 0..<3, using: &rng) == 0 { t = Instant(ms: t.ms + Int64.random(in: 1...20, using: &rng) * 60_000) }
                let d = Int.random(in: 0..<devices.count, using: &rng)
                let mine = view(d)
                let live = ids.compactMap { mine.reminders[$0] }.filter { !$0.completed }
                switch Int.random(in: 0..<16, using: &rng) {
                case 0 where live.count < 3:
                    let rule = Int.random(in: 0..<4, using: &rng) == 0 ? Recurrence.once : RecurrenceTests.randomRule(&rng)
                    let anchor = LocalDateTime(wallSeconds: zone.local(t).wallSeconds + Int64.random(in: -3600...3600, using: &rng) / 60 * 60)
                    let id = "s\(seed)-\(step)"
                    ids.append(id)
                    let trig = Yomo.firstTrigger(anchor: anchor, recurrence: rule, now: t, zone: zone) ?? t
                    var e: JSONObject = ["type": "created", "id": .string(id), "title": "x", "anchor": .string(anchor.description),
                                         "zone": .string(zone.name), "recurrence": rule.json, "trigger_at": .string(zone.format(trig)),
                                         "at": .string(zone.format(t))]
                    if Bool.random(using: &rng) { e["warn_minutes"] = JSON(Int.random(in: 1...45, using: &rng)) }
                    write(d, [e])
                case 1, 2, 3:
                    if let r = live.randomElement(using: &rng),
                       let e = Yomo.snoozeEvent(r, until: t.adding(minutes: Int64.random(in: 1...20, using: &rng)), zone: zone, at: t) {
                        write(d, [e])
                        // Another device, not synced yet, announces in the same minute.
                        let y = (d + Int.random(in: 1..<devices.count, using: &rng)) % devices.count
                        write(y, Yomo.due(view(y), now: t, zone: zone, device: devices[y]).map { Yomo.event(for: $0, zone: zone, at: t, device: devices[y]) })
                    }
                case 4:
                    if let r = live.randomElement(using: &rng) {
                        write(d, [Yomo.completedEvent(r, next: Yomo.nextAfterDone(r, now: t, zone: zone), zone: zone, at: zone.format(t))])
                    }
                case 5:
                    if let r = live.randomElement(using: &rng) {
                        if Bool.random(using: &rng) {
                            write(d, [["type": "deleted", "id": .string(r.id), "at": .string(zone.format(t))]])
                        } else {
                            let other = try! Zone.named(Bool.random(using: &rng) ? "Europe/Berlin" : "America/New_York")
                            write(d, [Yomo.rezoneEvent(r, to: other, fallback: zone, now: t)])
                        }
                    }
                case 6, 7, 8:
                    // Sync: d receives more of another device's journal (a prefix, as written).
                    let x = Int.random(in: 0..<devices.count, using: &rng)
                    if x != d {
                        synced[d][x] = Int.random(in: 0..<4, using: &rng) > 0 ? journals[x].count : Int.random(in: synced[d][x]...journals[x].count, using: &rng)
                    }
                case 9:
                    checkpoint[d] = snapshot[d]
                    snapshot[d] = (mine.hotSnapshot().first, synced[d], seen(d).map(\.stamp).max())
                default:
                    // `due` on d: the summary path first, as `announce` runs it.
                    func past(_ base: (summary: JSONObject?, synced: [Int], frontier: Stamp?)) -> [Written]? {
                        let tail = devices.indices.flatMap { x in journals[x][base.synced[x]..<synced[d][x]] }.sorted { $0.stamp < $1.stamp }
                        guard let f = base.frontier, !tail.contains(where: { $0.stamp < f }) else { return nil }
                        return tail
                    }
                    var snap = snapshot[d]
                    var tail = past(snap)
                    if tail == nil, let t = past(checkpoint[d]) { snap = checkpoint[d]; tail = t; fromCheckpoint += 1 }
                    let late = tail == nil
                    let found = Yomo.due(mine, now: t, zone: zone, device: devices[d])
                    if !late {
                        checked += 1
                        let mayBe = Yomo.mayBeDue(summary: snap.summary, tail: tail!.map(\.event), writers: tail!.map(\.stamp.actor),
                                                  now: t, device: devices[d])
                        if !mayBe {
                            quiet += 1
                            XCTAssertTrue(found.isEmpty, "seed \(seed) step \(step) on \(devices[d]): the summary hid \(found.map(\.reminder.id))")
                        }
                    }
                    write(d, found.map { Yomo.event(for: $0, zone: zone, at: t, device: devices[d]) })
                }
            }
        }
        XCTAssertGreaterThan(quiet, 300, "the fast path should answer often (\(quiet) of \(checked))")
        XCTAssertGreaterThan(fromCheckpoint, 50, "late batches should answer from the checkpoint often")
    }

    /// The case an adversary found: the phone snoozes a reminder while the
    /// laptop, not yet synced, announces it in the same minute; once the
    /// phone's journal arrives, the snooze stands in the fold and the laptop
    /// owes its announcement — the laptop's own, later event must not hide it.
    func testAnAnnouncementWrittenWithoutSeeingAnotherDevicesSnoozeDoesNotHideIt() {
        func t(_ s: String) -> Instant { RFC3339.parse("2026-03-07T\(s):00-05:00")!.instant }
        var log: [Written] = []
        func write(_ by: String, at: Instant, _ e: JSONObject) { log.append(Written(stamp: Stamp(ms: at.ms, actor: by), event: e)) }
        let anchor = LocalDateTime(wallSeconds: zone.local(t("09:00")).wallSeconds)
        for (id, a) in [("early", LocalDateTime(wallSeconds: zone.local(t("07:00")).wallSeconds)), ("r", anchor)] {
            write("laptop", at: t("06:00"), ["type": "created", "id": .string(id), "title": "x", "anchor": .string(a.description),
                                             "zone": .string(zone.name), "recurrence": Recurrence.once.json,
                                             "trigger_at": .string(zone.format(zone.resolve(a))), "at": .string(zone.format(t("06:00")))])
        }
        for d in ["laptop", "phone"] {  // both announce: the summary is made for both
            for a in Yomo.due(fold(log), now: t("07:00"), zone: zone, device: d) { write(d, at: t("07:00"), Yomo.event(for: a, zone: zone, at: t("07:00"), device: d)) }
        }
        let summary = fold(log).hotSnapshot().first
        let snapshotted = log.count
        // 09:00 the phone announces and snoozes until 09:30; the laptop, unsynced, announces at 09:00 too.
        var phone = fold(log)
        for a in Yomo.due(phone, now: t("09:00"), zone: zone, device: "phone") { write("phone", at: t("09:00"), Yomo.event(for: a, zone: zone, at: t("09:00"), device: "phone")) }
        phone = fold(log)
        write("phone", at: t("09:01"), Yomo.snoozeEvent(phone.reminders["r"]!, until: t("09:30"), zone: zone, at: t("09:01"))!)
        let laptopView = fold(log.enumerated().filter { $0.offset < snapshotted || $0.element.stamp.actor == "laptop" }.map(\.element))
        let found = Yomo.due(laptopView, now: t("09:02"), zone: zone, device: "laptop")
        XCTAssertEqual(found.map(\.reminder.id), ["r"])
        for a in found { write("laptop", at: t("09:02"), Yomo.event(for: a, zone: zone, at: t("09:02"), device: "laptop")) }
        // 09:31, all synced: the laptop owes the snooze's announcement.
        let owed = Yomo.due(fold(log), now: t("09:31"), zone: zone, device: "laptop")
        XCTAssertEqual(owed.map(\.snooze), [true])
        let tail = log[snapshotted...].sorted { $0.stamp < $1.stamp }
        XCTAssertTrue(Yomo.mayBeDue(summary: summary, tail: tail.map(\.event), writers: tail.map(\.stamp.actor), now: t("09:31"), device: "laptop"))
    }

    /// An advance warning is something `due` says: after a completion or a
    /// move to another zone written since the summary, the summary path still
    /// sees the warning ahead of the next occurrence, not only the occurrence.
    func testTheSummaryPathSeesTheWarningAfterACompletionOrAMove() {
        func t(_ s: String) -> Instant { RFC3339.parse(s)!.instant }
        let anchor = LocalDateTime(wallSeconds: zone.local(t("2026-03-07T09:00:00-05:00")).wallSeconds)
        var s = YomoState(full: true)
        s.apply(["type": "created", "id": "r", "title": "x", "anchor": .string(anchor.description), "zone": .string(zone.name),
                 "recurrence": Recurrence(kind: .daily).json, "trigger_at": "2026-03-07T09:00:00-05:00", "warn_minutes": 30,
                 "at": "2026-03-07T06:00:00-05:00"], stamp: Stamp(ms: t("2026-03-07T06:00:00-05:00").ms, actor: "laptop"))
        for now in ["2026-03-07T08:31:00-05:00", "2026-03-07T09:01:00-05:00"] {  // the warning, then the occurrence
            for a in Yomo.due(s, now: t(now), zone: zone, device: "laptop") {
                s.apply(Yomo.event(for: a, zone: zone, at: t(now), device: "laptop"), stamp: Stamp(ms: t(now).ms, actor: "laptop"))
            }
        }
        XCTAssertEqual(s.reminders["r"]?.announcedBy["laptop"], t("2026-03-07T09:00:00-05:00"))
        let summary = s.hotSnapshot().first
        let r = s.reminders["r"]!
        let done = Yomo.completedEvent(r, next: Yomo.nextAfterDone(r, now: t("2026-03-07T09:05:00-05:00"), zone: zone),
                                       zone: zone, at: "2026-03-07T09:05:00-05:00")
        let moved = Yomo.rezoneEvent(r, to: try! Zone.named("America/Chicago"), fallback: zone, now: t("2026-03-07T09:05:00-05:00"))
        for (e, warnAt) in [(done, "2026-03-08T08:30:00-04:00"), (moved, "2026-03-07T09:30:00-05:00")] {
            var after = s
            after.apply(e, stamp: Stamp(ms: t("2026-03-07T09:05:00-05:00").ms, actor: "laptop"))
            let found = Yomo.due(after, now: t(warnAt), zone: zone, device: "laptop")
            XCTAssertEqual(found.map(\.warning), [true], "\(e["type"]!)")
            XCTAssertTrue(Yomo.mayBeDue(summary: summary, tail: [e], writers: ["laptop"], now: t(warnAt), device: "laptop"), "\(e["type"]!)")
        }
    }
}
