import XCTest
@testable import NudgeKit

/// `due`'s summary path on several devices that each write from their own
/// view: a device sees another's events only once its journal has synced
/// (a prefix of it, in the order it was written), so two devices act in the
/// same minute without knowing of each other. Whenever the summary path says
/// "nothing due", the full computation over what that device has must agree.
final class YomoDueDevicesTests: XCTestCase {
    /// The zone a summary is made in (the environment's `TZ`).
    let summaryZone = (try? Zone.fromEnvironment())?.name ?? "UTC"
    let zone = try! Zone.named("America/New_York")
    let devices = ["laptop", "phone", "desk"]

    struct Written { var stamp: Stamp; var event: JSONObject }

    func fold(_ events: [Written]) -> YomoState {
        var s = YomoState(full: true)
        for w in events.sorted(by: { $0.stamp < $1.stamp }) { s.apply(w.event, stamp: w.stamp) }
        return s
    }

    func testSummaryNeverHidesADueReminderAcrossDevicesThatHaveNotSeenEachOther() {
        let (quiet, checked, _) = devicesRun(seeds: seeds(45), offlinePhone: false)
        XCTAssertGreaterThan(quiet, 300, "the fast path should answer often (\(quiet) of \(checked))")
    }

    /// The same, with the phone mostly offline: it makes reminders for later
    /// (and now and then changes one) while the others go on, and its journal
    /// reaches them rarely, so they keep finding its batches older than what
    /// they folded — late copies, answered from the summary when they only
    /// make reminders nothing folded had named.
    func testSummaryNeverHidesADueReminderWhenAPhoneCatchesUpLate() {
        let (quiet, checked, late) = devicesRun(seeds: seeds(45), offlinePhone: true)
        XCTAssertGreaterThan(quiet, 200, "the fast path should answer often (\(quiet) of \(checked))")
        XCTAssertGreaterThan(late, 8, "late copies should answer from the summary often (\(late))")
    }

    /// SEEDS=N (and SEED0) runs more seeds by hand.
    func seeds(_ n: Int) -> Range<Int> {
        Int(Sys.env("SEED0").flatMap { Int($0) } ?? 0)..<Int(Sys.env("SEEDS").flatMap { Int($0) } ?? n)
    }

    /// Devices acting at random over one seeded day each; whenever the
    /// summary path says "nothing due", the full computation over what that
    /// device has must agree. Returns how often it said so, how often it was
    /// asked, and how often with a late tail.
    func devicesRun(seeds: Range<Int>, offlinePhone: Bool) -> (quiet: Int, checked: Int, late: Int) {
        var quiet = 0, checked = 0, quietLate = 0
        for seed in seeds {
            var rng = SeededRandom(seed: UInt64((offlinePhone ? 9_000 : 400) + seed))
            // journals[d]: what device d wrote, in order; synced[d][x]: how much of x's journal d has.
            var journals: [[Written]] = devices.map { _ in [] }
            var synced: [[Int]] = devices.map { _ in devices.map { _ in 0 } }
            var snapshot: [(summary: JSONObject?, synced: [Int], frontier: Stamp?)] = devices.map { _ in (nil, devices.map { _ in 0 }, nil) }
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
                let offline = offlinePhone && d == 1
                switch offline && Int.random(in: 0..<10, using: &rng) < 8 && live.count < 12 ? 0 : Int.random(in: 0..<16, using: &rng) {
                case 0 where live.count < 3 || offline:
                    let rule = Int.random(in: 0..<4, using: &rng) == 0 ? Recurrence.once : RecurrenceTests.randomRule(&rng)
                    let ahead = offline ? Int64.random(in: 7_200...108_000, using: &rng) : Int64.random(in: -3600...3600, using: &rng)
                    let anchor = LocalDateTime(wallSeconds: zone.local(t).wallSeconds + ahead / 60 * 60)
                    let id = "s\(seed)-\(step)"
                    ids.append(id)
                    let trig = Yomo.firstTrigger(anchor: anchor, recurrence: rule, now: t, zone: zone) ?? t
                    var e: JSONObject = ["type": "created", "id": .string(id), "title": "x", "anchor": .string(anchor.description),
                                         "zone": .string(zone.name), "recurrence": rule.json, "trigger_at": .string(zone.format(trig)),
                                         "at": .string(zone.format(t))]
                    if Bool.random(using: &rng) { e["warn_minutes"] = JSON(Int.random(in: 1...45, using: &rng)) }
                    if let w = e["warn_minutes"]?.int, Bool.random(using: &rng) { e["alerts"] = .array([.int(w), .int(w / 3 + 1)]) }
                    if Int.random(in: 0..<8, using: &rng) == 0 { e["nag_minutes"] = JSON(Int.random(in: 5...60, using: &rng)) }
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
                case 10:
                    // An edit from this device's view: the whole record again, moved, its warning changed.
                    if let r = live.randomElement(using: &rng) {
                        let anchor = LocalDateTime(wallSeconds: zone.local(t).wallSeconds + Int64.random(in: -3600...7200, using: &rng) / 60 * 60)
                        let rule = Bool.random(using: &rng) ? r.recurrence : RecurrenceTests.randomRule(&rng)
                        let trig = Yomo.firstTrigger(anchor: anchor, recurrence: rule, now: t, zone: zone) ?? t
                        // Now and then made again under its id (an import of a backup, a vdir's copy).
                        let type = Int.random(in: 0..<3, using: &rng) == 0 ? "created" : "edited"
                        var e: JSONObject = ["type": .string(type), "id": .string(r.id), "title": "y", "anchor": .string(anchor.description),
                                             "zone": .string(zone.name), "recurrence": rule.json, "trigger_at": .string(zone.format(trig)),
                                             "at": .string(zone.format(t))]
                        if Bool.random(using: &rng) { e["warn_minutes"] = JSON(Int.random(in: 1...90, using: &rng)) }
                        if let w = e["warn_minutes"]?.int, Bool.random(using: &rng) { e["alerts"] = .array([.int(w), .int(w / 4 + 1)]) }
                        if Int.random(in: 0..<8, using: &rng) == 0 { e["nag_minutes"] = JSON(Int.random(in: 5...60, using: &rng)) }
                        write(d, [e])
                    }
                case 11:
                    // Dismissed: no more nags of what came due, on any device.
                    if let r = live.randomElement(using: &rng), let e = Yomo.dismissEvent(r, zone: zone, at: t, device: devices[d]) { write(d, [e]) }
                case 6, 7, 8:
                    // Sync: d receives more of another device's journal (a prefix, as written).
                    let x = Int.random(in: 0..<devices.count, using: &rng)
                    if x != d && (!offlinePhone || x != 1 || Int.random(in: 0..<6, using: &rng) == 0) {
                        synced[d][x] = Int.random(in: 0..<4, using: &rng) > 0 ? journals[x].count : Int.random(in: synced[d][x]...journals[x].count, using: &rng)
                    }
                case 9:
                    snapshot[d] = (mine.hotSnapshot().first, synced[d], seen(d).map(\.stamp).max())
                default:
                    // `due` on d: the summary path first, as `announce` runs it:
                    // the snapshot's summary and every event past its marks,
                    // late ones (older than its frontier) included.
                    let snap = snapshot[d]
                    let tail = devices.indices.flatMap { x in journals[x][snap.synced[x]..<synced[d][x]] }.sorted { $0.stamp < $1.stamp }
                    let late = snap.frontier.map { f in tail.contains { $0.stamp < f } } ?? false
                    let found = Yomo.due(mine, now: t, zone: zone, device: devices[d])
                    checked += 1
                    let isLate = tail.map { w in snap.frontier.map { w.stamp <= $0 } ?? false }
                    let mayBe = Yomo.mayBeDue(summary: snap.summary, tail: tail.map(\.event), writers: tail.map(\.stamp.actor),
                                              late: isLate, now: t, zone: summaryZone, device: devices[d])
                    if !mayBe {
                        quiet += 1
                        if late { quietLate += 1 }
                        XCTAssertTrue(found.isEmpty, "seed \(seed) step \(step) on \(devices[d])\(late ? " (a late batch)" : ""): the summary hid \(found.map(\.reminder.id))")
                    }
                    write(d, found.map { Yomo.event(for: $0, zone: zone, at: t, device: devices[d]) })
                }
            }
        }
        return (quiet, checked, quietLate)
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
        XCTAssertTrue(Yomo.mayBeDue(summary: summary, tail: tail.map(\.event), writers: tail.map(\.stamp.actor), now: t("09:31"), zone: summaryZone, device: "laptop"))
    }

    /// The desk moves a weekly reminder to Berlin and announces its
    /// occurrence there; the laptop, not synced yet, announces the New York
    /// one. The laptop's occurrence is not one of the schedule as it stands:
    /// it counts for the laptop, and nobody owes it — the desk's next
    /// attention stays the schedule's next occurrence, so the summary path's
    /// bound (another device's announcement never brings it forward) holds.
    func testAnOccurrenceAnnouncedUnderAnotherScheduleIsNotOwedElsewhere() {
        func t(_ s: String) -> Instant { RFC3339.parse(s)!.instant }
        let berlin = try! Zone.named("Europe/Berlin")
        var log: [Written] = []
        func write(_ by: String, at: String, _ e: JSONObject) { log.append(Written(stamp: Stamp(ms: t(at).ms, actor: by), event: e)) }
        let rule = Recurrence(kind: .weekly, days: [1, 6])  // Mondays and Saturdays at 15:03
        write("phone", at: "2026-03-07T06:00:00-05:00", ["type": "created", "id": "r", "title": "x", "anchor": "2026-03-07T15:03:00",
                                                         "zone": .string(zone.name), "recurrence": rule.json,
                                                         "trigger_at": "2026-03-07T15:03:00-05:00", "at": "2026-03-07T06:00:00-05:00"])
        let laptopView = fold(log)
        write("desk", at: "2026-03-07T07:00:00-05:00", Yomo.rezoneEvent(fold(log).reminders["r"]!, to: berlin, fallback: zone, now: t("2026-03-07T07:00:00-05:00")))
        XCTAssertEqual(fold(log).reminders["r"]?.triggerAt, t("2026-03-07T15:03:00+01:00"))
        for a in Yomo.due(fold(log), now: t("2026-03-07T09:10:00-05:00"), zone: zone, device: "desk") {
            write("desk", at: "2026-03-07T09:10:00-05:00", Yomo.event(for: a, zone: berlin, at: t("2026-03-07T09:10:00-05:00"), device: "desk"))
        }
        XCTAssertEqual(fold(log).reminders["r"]?.announcedBy["desk"], t("2026-03-07T15:03:00+01:00"))
        let summary = fold(log).hotSnapshot().first
        let found = Yomo.due(laptopView, now: t("2026-03-07T15:10:00-05:00"), zone: zone, device: "laptop")
        XCTAssertEqual(found.map(\.occurrence), [t("2026-03-07T15:03:00-05:00")])
        for a in found { write("laptop", at: "2026-03-07T15:10:00-05:00", Yomo.event(for: a, zone: zone, at: t("2026-03-07T15:10:00-05:00"), device: "laptop")) }
        let merged = fold(log)
        XCTAssertEqual(merged.reminders["r"]?.announcedBy["laptop"], t("2026-03-07T15:03:00-05:00"), "it counts for the laptop")
        XCTAssertEqual(merged.reminders["r"]?.triggerAt, t("2026-03-07T15:03:00+01:00"), "not the pending occurrence")
        XCTAssertEqual(Yomo.due(merged, now: t("2026-03-07T15:20:00-05:00"), zone: zone, device: "desk").count, 0, "the desk owes nothing")
        XCTAssertEqual(Yomo.nextAttention(merged.reminders["r"]!, device: "desk", zone: zone), t("2026-03-09T15:03:00+01:00"))
        let tail = Array(log.suffix(1))
        XCTAssertFalse(Yomo.mayBeDue(summary: summary, tail: tail.map(\.event), writers: tail.map(\.stamp.actor),
                                     now: t("2026-03-07T15:20:00-05:00"), zone: summaryZone, device: "desk"))
        // An occurrence of the schedule as it stands still moves it on.
        let monday = t("2026-03-09T15:03:00+01:00")
        var later = merged
        later.apply(["type": "announced", "id": "r", "trigger_at": .string(berlin.format(monday)), "occurrence": .string(berlin.format(monday)),
                     "snooze": false, "device": "laptop", "at": "2026-03-09T09:10:00-05:00"], stamp: Stamp(ms: t("2026-03-09T09:10:00-05:00").ms, actor: "laptop"))
        XCTAssertEqual(later.reminders["r"]?.triggerAt, monday)
        XCTAssertEqual(Yomo.due(later, now: t("2026-03-09T09:11:00-05:00"), zone: zone, device: "desk").map(\.occurrence), [monday])
    }

    /// The desk makes a reminder; the laptop, synced with the desk, moves it
    /// to 10:35; the phone gets the laptop's journal first, so it folds the
    /// move of a reminder it does not know (nothing changes, the name is
    /// kept as dangling). Then the desk's copy arrives, older than what the
    /// phone folded: in stamp order the making comes first and the move
    /// applies, so the reminder is due at 10:35. The summary path must not
    /// answer "nothing" from the making's own trigger (a week later); a late
    /// making of a reminder nothing named, or another device's late
    /// announcement, it answers.
    func testALateMakingOfAReminderAFoldedChangeNamedIsReadInFull() {
        func t(_ s: String) -> Instant { RFC3339.parse("2026-03-07T\(s):00-05:00")!.instant }
        var log: [Written] = []
        func write(_ by: String, at: String, _ e: JSONObject) { log.append(Written(stamp: Stamp(ms: t(at).ms, actor: by), event: e)) }
        func made(_ id: String, _ anchor: String, _ trigger: String, at: String) -> JSONObject {
            ["type": "created", "id": .string(id), "title": "x", "anchor": .string(anchor), "zone": .string(zone.name),
             "recurrence": Recurrence(kind: .weekly).json, "trigger_at": .string(trigger), "at": .string(zone.format(t(at)))]
        }
        write("desk", at: "08:50", made("r", "2026-03-14T08:24:00", "2026-03-14T08:24:00-04:00", at: "08:50"))
        var edit = made("r", "2026-03-07T10:35:00", "2026-03-07T10:35:00-05:00", at: "09:39")
        edit["type"] = "edited"
        write("laptop", at: "09:39", edit)
        write("phone", at: "09:45", made("other", "2026-03-08T09:00:00", "2026-03-08T09:00:00-05:00", at: "09:45"))
        var early = made("early", "2026-03-07T09:46:00", "2026-03-07T09:46:00-05:00", at: "09:45")
        early["recurrence"] = Recurrence.once.json
        write("phone", at: "09:45", early)
        let announced = Yomo.due(fold(Array(log[1...])), now: t("09:50"), zone: zone, device: "phone")
        XCTAssertEqual(announced.map(\.reminder.id), ["early"], "the phone announces: the summary is made for it")
        for a in announced { write("phone", at: "09:50", Yomo.event(for: a, zone: zone, at: t("09:50"), device: "phone")) }
        // The phone's snapshot: everything but the desk's journal.
        let folded = fold(log.filter { $0.stamp.actor != "desk" })
        XCTAssertNil(folded.reminders["r"])
        XCTAssertEqual(folded.dangling, ["r"])
        let summary = folded.hotSnapshot().first
        let frontier = log.filter { $0.stamp.actor != "desk" }.map(\.stamp).max()!
        XCTAssertEqual(summary?["dangling"], JSON(["r"]))
        let all = fold(log)
        XCTAssertEqual(Yomo.due(all, now: t("10:40"), zone: zone, device: "phone").map(\.reminder.id), ["r"])
        func mayBe(_ tail: [Written], _ summary: JSONObject?) -> Bool {
            Yomo.mayBeDue(summary: summary, tail: tail.map(\.event), writers: tail.map(\.stamp.actor),
                          late: tail.map { $0.stamp <= frontier }, now: t("10:40"), zone: summaryZone, device: "phone")
        }
        XCTAssertTrue(mayBe([log[0]], summary), "a late making of a reminder a folded change named")
        // Without the move, the late making is answered: nothing is due.
        let plain = fold(log.filter { $0.stamp.actor == "phone" })
        XCTAssertEqual(plain.dangling, [])
        XCTAssertFalse(mayBe([log[0]], plain.hotSnapshot().first), "a late making nothing named")
        XCTAssertTrue(Yomo.due(fold(log.filter { $0.stamp.actor != "laptop" }), now: t("10:40"), zone: zone, device: "phone").isEmpty)
        // Another device's late announcement is answered too; a late change is not.
        let another: JSONObject = ["type": "announced", "id": "other", "trigger_at": "2026-03-08T09:00:00-05:00",
                                     "occurrence": "2026-03-08T09:00:00-05:00", "snooze": false, "device": "desk", "at": "2026-03-07T09:00:00-05:00"]
        XCTAssertFalse(mayBe([Written(stamp: Stamp(ms: t("09:00").ms, actor: "desk"), event: another)], plain.hotSnapshot().first))
        XCTAssertTrue(mayBe([Written(stamp: Stamp(ms: t("09:00").ms, actor: "desk"), event: edit)], plain.hotSnapshot().first))
        // The dangling names survive the snapshot's round trip.
        var restored = YomoState(full: true)
        for line in folded.hotSnapshot() { try? restored.restoreHot(line) }
        XCTAssertEqual(restored.dangling, ["r"])
    }

    /// What an adversary found: the laptop moves a daily 09:30 reminder to
    /// 09:00; the phone, offline, restores a backup that makes it again
    /// under its id at 09:30 (an import keeps ids); the laptop announces
    /// 09:00 before the phone's journal arrives. In the fold the making
    /// comes after the move, so 09:00 is not the reminder's any more and
    /// 09:30 is owed: the laptop's announcement of an earlier occurrence does
    /// not show it saw that making. Made again on the same schedule, what
    /// was announced stays announced (no second notification).
    func testAReminderMadeAgainUnderItsIdIsNotHiddenAndNotAnnouncedTwice() {
        func t(_ s: String) -> Instant { RFC3339.parse("2026-03-07T\(s):00-05:00")!.instant }
        var log: [Written] = []
        func write(_ by: String, at: String, _ e: JSONObject) { log.append(Written(stamp: Stamp(ms: t(at).ms, actor: by), event: e)) }
        func made(_ type: String, _ time: String, at: String) -> JSONObject {
            ["type": .string(type), "id": "r", "title": "call mum", "anchor": .string("2026-03-07T\(time):00"), "zone": .string(zone.name),
             "recurrence": Recurrence(kind: .daily).json, "trigger_at": .string("2026-03-07T\(time):00-05:00"), "at": .string(zone.format(t(at)))]
        }
        write("laptop", at: "06:00", made("created", "09:30", at: "06:00"))
        var early = made("created", "06:00", at: "05:00")
        early["id"] = "early"
        early["recurrence"] = Recurrence.once.json
        write("laptop", at: "06:00", early)
        let first = Yomo.due(fold(log), now: t("06:01"), zone: zone, device: "laptop")
        XCTAssertEqual(first.map(\.reminder.id), ["early"], "the laptop announces: the summary is made for it")
        for a in first { write("laptop", at: "06:01", Yomo.event(for: a, zone: zone, at: t("06:01"), device: "laptop")) }
        write("laptop", at: "07:03", made("edited", "09:00", at: "07:03"))
        let summary = fold(log).hotSnapshot().first
        let snapshotted = log.count
        write("phone", at: "07:04", made("created", "09:30", at: "07:04"))
        let laptopView = fold(log.filter { $0.stamp.actor == "laptop" })
        for a in Yomo.due(laptopView, now: t("09:01"), zone: zone, device: "laptop") { write("laptop", at: "09:01", Yomo.event(for: a, zone: zone, at: t("09:01"), device: "laptop")) }
        XCTAssertEqual(log.last?.event["occurrence"], "2026-03-07T09:00:00-05:00")
        let all = fold(log)
        XCTAssertEqual(Yomo.due(all, now: t("09:31"), zone: zone, device: "laptop").map(\.occurrence), [t("09:30")])
        let tail = log[snapshotted...].sorted { $0.stamp < $1.stamp }
        XCTAssertTrue(Yomo.mayBeDue(summary: summary, tail: tail.map(\.event), writers: tail.map(\.stamp.actor),
                                    now: t("09:31"), zone: summaryZone, device: "laptop"), "the making again is not hidden")
        // Once the laptop announces 09:30 itself, the making is seen: nothing more is due.
        let owed = Yomo.due(all, now: t("09:31"), zone: zone, device: "laptop")
        var seen = Array(tail)
        for a in owed { seen.append(Written(stamp: Stamp(ms: t("09:31").ms, actor: "laptop"), event: Yomo.event(for: a, zone: zone, at: t("09:31"), device: "laptop"))) }
        XCTAssertFalse(Yomo.mayBeDue(summary: summary, tail: seen.map(\.event), writers: seen.map(\.stamp.actor),
                                     now: t("09:32"), zone: summaryZone, device: "laptop"), "announced here: seen")
        // Made again on the schedule it has: announced stays announced.
        var same = all
        for a in Yomo.due(same, now: t("09:31"), zone: zone, device: "laptop") { same.apply(Yomo.event(for: a, zone: zone, at: t("09:31"), device: "laptop"), stamp: Stamp(ms: t("09:31").ms, actor: "laptop")) }
        XCTAssertEqual(Yomo.due(same, now: t("09:40"), zone: zone, device: "laptop").count, 0)
        let announced = same.reminders["r"]!
        var again = made("created", "09:30", at: "09:35")
        again["anchor"] = .string(announced.anchor.description)
        again["trigger_at"] = .string(zone.format(announced.triggerAt))
        same.apply(again, stamp: Stamp(ms: t("09:35").ms, actor: "phone"))
        XCTAssertEqual(same.reminders["r"]?.announcedBy["laptop"], t("09:30"))
        XCTAssertEqual(Yomo.due(same, now: t("09:40"), zone: zone, device: "laptop").count, 0, "not announced twice")
    }

    /// A peer's event is believed only as far as its own fields go: a far
    /// wake on a making due now, or a repeated field name, hides nothing;
    /// and a summary made in another zone answers nothing.
    func testWhatAnEventStatesIsCheckedAgainstItsFields() throws {
        func t(_ s: String) -> Instant { RFC3339.parse("2026-03-07T\(s):00-05:00")!.instant }
        var s = YomoState(full: true)
        s.apply(["type": "created", "id": "early", "title": "x", "anchor": "2026-03-07T06:00:00", "zone": .string(zone.name),
                 "recurrence": Recurrence.once.json, "trigger_at": "2026-03-07T06:00:00-05:00", "at": "2026-03-07T05:00:00-05:00"],
                stamp: Stamp(ms: t("05:00").ms, actor: "laptop"))
        for a in Yomo.due(s, now: t("06:01"), zone: zone, device: "laptop") { s.apply(Yomo.event(for: a, zone: zone, at: t("06:01"), device: "laptop"), stamp: Stamp(ms: t("06:01").ms, actor: "laptop")) }
        let summary = s.hotSnapshot().first
        let standup: JSONObject = ["type": "created", "id": "standup", "title": "standup", "anchor": "2026-03-07T10:00:00", "zone": .string(zone.name),
                                   "recurrence": Recurrence.once.json, "trigger_at": "2026-03-07T10:00:00-05:00", "wake": "2027-06-01T10:00:00-04:00",
                                   "at": "2026-03-07T07:00:00-05:00"]
        func mayBe(_ e: JSONObject, zone z: String? = nil) -> Bool {
            Yomo.mayBeDue(summary: summary, tail: [e], writers: ["phone"], now: t("10:01"), zone: z ?? summaryZone, device: "laptop")
        }
        XCTAssertTrue(mayBe(standup), "a wake past the event's own trigger")
        // The same line with its trigger given twice: every reader takes the first.
        let line = Array(#"{"type":"created","id":"standup","title":"standup","anchor":"2026-03-07T10:00:00","recurrence":{"type":"none"},"trigger_at":"2026-03-07T10:00:00-05:00","at":"2026-03-07T07:00:00-05:00","trigger_at":"2027-06-01T10:00:00-04:00"}"#.utf8)
        let parsed = try line.withUnsafeBytes { (b) throws(JSONParseError) in try JSON.parseObject(b) }
        let scanned = try line.withUnsafeBytes { (b) throws(JSONParseError) in try JSON.scanObject(b, fields: Yomo.dueSummaryFields.map { Array($0.utf8) }) }
        XCTAssertEqual(parsed["trigger_at"], "2026-03-07T10:00:00-05:00")
        XCTAssertEqual(scanned[Yomo.dueSummaryFields.firstIndex(of: "trigger_at")!], parsed["trigger_at"])
        var fields = JSONObject()
        for (k, v) in zip(Yomo.dueSummaryFields, scanned) { if let v { fields[k] = v } }
        XCTAssertTrue(mayBe(fields))
        // A summary made under another TZ: reminders without a zone moved with it.
        var quiet = standup
        quiet["trigger_at"] = "2026-03-08T10:00:00-05:00"
        quiet["wake"] = nil
        XCTAssertFalse(mayBe(quiet))
        XCTAssertTrue(mayBe(quiet, zone: summaryZone == "Asia/Tokyo" ? "Europe/Berlin" : "Asia/Tokyo"))
    }

    /// Done under another schedule (the phone had not seen a move from
    /// 09:00 to 18:00): the next occurrence is the schedule's, from the one
    /// the phone meant on, not the old rule's 09:00.
    func testDoneUnderAnotherScheduleMovesOnToTheSchedulesOccurrence() {
        func t(_ s: String) -> Instant { RFC3339.parse(s)!.instant }
        var s = YomoState(full: true)
        func made(_ type: String, _ time: String) -> JSONObject {
            ["type": .string(type), "id": "r", "title": "x", "anchor": .string("2026-03-07T\(time):00"), "zone": .string(zone.name),
             "recurrence": Recurrence(kind: .daily).json, "trigger_at": .string("2026-03-07T\(time):00-05:00"), "at": "2026-03-07T06:00:00-05:00"]
        }
        s.apply(made("created", "09:00"), stamp: Stamp(ms: t("2026-03-07T06:00:00-05:00").ms, actor: "laptop"))
        s.apply(made("edited", "18:00"), stamp: Stamp(ms: t("2026-03-07T08:00:00-05:00").ms, actor: "laptop"))
        s.apply(["type": "completed", "id": "r", "next": "2026-03-08T09:00:00-05:00", "at": "2026-03-07T09:05:00-05:00"],
                stamp: Stamp(ms: t("2026-03-07T09:05:00-05:00").ms, actor: "phone"))
        XCTAssertEqual(s.reminders["r"]?.triggerAt, t("2026-03-08T18:00:00-04:00"), "18:00 on the day daylight saving time begins")
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
            XCTAssertTrue(Yomo.mayBeDue(summary: summary, tail: [e], writers: ["laptop"], now: t(warnAt), zone: summaryZone, device: "laptop"), "\(e["type"]!)")
        }
    }
}
