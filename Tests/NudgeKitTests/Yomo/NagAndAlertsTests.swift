import XCTest
@testable import NudgeKit

/// Several advance alerts per reminder (`--warn 1d,15m`), and nagging
/// (`--nag 10m`): the occurrence announced again every interval until it is
/// done, snoozed or dismissed, at most once an interval over every device
/// that shares the reminders.
final class NagAndAlertsTests: XCTestCase {
    let zone = try! Zone.named("America/New_York")
    func t(_ s: String) -> Instant { RFC3339.parse(s + ":00-05:00")!.instant }

    struct Said: Equatable, CustomStringConvertible {
        var kind: String
        var moment: Instant
        var device: String
        var at: Instant
        var description: String { "\(kind)@\(moment.ms / 60_000 % 100_000) by \(device)" }
    }

    /// A state with one reminder made by `events` (stamps a minute apart).
    func made(_ e: JSONObject) -> YomoState {
        var s = YomoState(full: true)
        s.apply(e, stamp: Stamp(ms: t("2026-03-01T08:00").ms, actor: "laptop"))
        return s
    }

    func create(_ id: String, anchor: String, rule: Recurrence = .once, alerts: [Int] = [], nag: Int = 0) -> JSONObject {
        var e: JSONObject = ["type": "created", "id": .string(id), "title": "pills", "anchor": .string(anchor), "zone": .string(zone.name),
                             "recurrence": rule.json, "trigger_at": .string(zone.format(zone.resolve(YomoState.anchor(.string(anchor))!))),
                             "at": "2026-03-01T08:00:00-05:00"]
        if let w = alerts.first { e["warn_minutes"] = JSON(w); e["alerts"] = .array(alerts.map { .int(Int64($0)) }) }
        if nag > 0 { e["nag_minutes"] = JSON(nag) }
        return e
    }

    /// `due` on `device` at `now`, its announcements recorded into `s`.
    func due(_ s: inout YomoState, _ now: Instant, on device: String, stamp: inout Int64) -> [Said] {
        let found = Yomo.due(s, now: now, zone: zone, device: device)
        for a in found {
            stamp = max(stamp + 1, now.ms)
            s.apply(Yomo.event(for: a, zone: zone, at: now, device: device), stamp: Stamp(ms: stamp, actor: device))
        }
        return found.map { a in
            Said(kind: a.nag ? "nag" : a.warning ? "alert" : a.snooze ? "snooze" : "due", moment: a.alertAt ?? a.occurrence, device: device, at: now)
        }
    }

    func testEachAlertOnceThenTheOccurrenceEveryDay() {
        var s = made(create("r", anchor: "2026-03-03T09:00:00", rule: Recurrence(kind: .daily), alerts: [1440, 15]))
        var stamp: Int64 = 0
        var said: [Said] = []
        var now = t("2026-03-01T08:00")
        while now < t("2026-03-04T10:00") {
            said += due(&s, now, on: "laptop", stamp: &stamp)
            now = now.adding(minutes: 1)
        }
        let kinds = said.map { "\($0.kind) \(zone.format($0.at).prefix(16))" }
        XCTAssertEqual(kinds, ["alert 2026-03-02T09:00", "alert 2026-03-03T08:45", "due 2026-03-03T09:00",
                               "alert 2026-03-03T09:01", "alert 2026-03-04T08:45", "due 2026-03-04T09:00", "alert 2026-03-04T09:01"])
        // The day-ahead alert of the next day falls at the occurrence: the occurrence first, the alert at the next look.
    }

    func testAlertsThatCameWhileADeviceSleptAreOneAlertTheLatest() {
        var s = made(create("r", anchor: "2026-03-03T09:00:00", alerts: [1440, 60, 15]))
        var stamp: Int64 = 0
        let said = due(&s, t("2026-03-03T08:50"), on: "laptop", stamp: &stamp)
        XCTAssertEqual(said.map(\.kind), ["alert"])
        XCTAssertEqual(said.first?.moment, t("2026-03-03T08:45"))
        XCTAssertEqual(due(&s, t("2026-03-03T08:55"), on: "laptop", stamp: &stamp), [], "the earlier alerts are passed over, not given late")
        XCTAssertEqual(due(&s, t("2026-03-03T08:51"), on: "phone", stamp: &stamp).map(\.kind), ["alert"], "each device alerts for itself")
        XCTAssertEqual(due(&s, t("2026-03-03T09:00"), on: "laptop", stamp: &stamp).map(\.kind), ["due"])
    }

    /// A device that wrote before alerts were several marked the occurrence
    /// itself: all of its alerts are given.
    func testAWarningWrittenBeforeSeveralAlertsCountsForAllOfThem() {
        var s = made(create("r", anchor: "2026-03-03T09:00:00", alerts: [1440, 15]))
        s.apply(["type": "announced", "id": "r", "trigger_at": "2026-03-03T09:00:00-05:00", "occurrence": "2026-03-03T09:00:00-05:00",
                 "snooze": false, "warning": true, "device": "laptop", "at": "2026-03-02T09:00:00-05:00"],
                stamp: Stamp(ms: t("2026-03-02T09:00").ms, actor: "laptop"))
        XCTAssertEqual(Yomo.due(s, now: t("2026-03-03T08:50"), zone: zone, device: "laptop"), [])
        XCTAssertEqual(Yomo.nextAttention(s.reminders["r"]!, device: "laptop", zone: zone), t("2026-03-03T09:00"))
    }

    func testNagRepeatsEveryIntervalUntilDone() {
        var s = made(create("r", anchor: "2026-03-03T09:00:00", nag: 10))
        var stamp: Int64 = 0
        var said: [Said] = []
        var now = t("2026-03-03T08:58")
        while now < t("2026-03-03T09:47") {
            said += due(&s, now, on: "laptop", stamp: &stamp)
            now = now.adding(minutes: 1)
        }
        XCTAssertEqual(said.map { "\($0.kind) \(zone.format($0.at).dropFirst(11).prefix(5))" },
                       ["due 09:00", "nag 09:10", "nag 09:20", "nag 09:30", "nag 09:40"])
        let r = s.reminders["r"]!
        XCTAssertEqual(Yomo.nextAttention(r, device: "laptop", zone: zone), t("2026-03-03T09:50"))
        s.apply(Yomo.completedEvent(r, next: nil, zone: zone, at: "2026-03-03T09:47:00-05:00"), stamp: Stamp(ms: t("2026-03-03T09:47").ms, actor: "phone"))
        XCTAssertNil(Yomo.nextAttention(s.reminders["r"]!, device: "laptop", zone: zone))
        XCTAssertEqual(due(&s, t("2026-03-03T10:30"), on: "laptop", stamp: &stamp), [], "done: no more nags")
    }

    func testDismissStopsTheNagsEverywhereAndTheReminderStaysToDo() {
        var s = made(create("r", anchor: "2026-03-03T09:00:00", nag: 5))
        var stamp: Int64 = 0
        XCTAssertEqual(due(&s, t("2026-03-03T09:00"), on: "laptop", stamp: &stamp).map(\.kind), ["due"])
        XCTAssertEqual(due(&s, t("2026-03-03T09:06"), on: "laptop", stamp: &stamp).map(\.kind), ["nag"])
        let e = Yomo.dismissEvent(s.reminders["r"]!, zone: zone, at: t("2026-03-03T09:07"), device: "phone")!
        XCTAssertEqual(e["occurrence"], "2026-03-03T09:00:00-05:00")
        s.apply(e, stamp: Stamp(ms: t("2026-03-03T09:07").ms, actor: "phone"))
        let r = s.reminders["r"]!
        XCTAssertFalse(r.completed)
        for d in ["laptop", "phone"] { XCTAssertEqual(due(&s, t("2026-03-03T11:00"), on: d, stamp: &stamp).map(\.kind), d == "phone" ? ["due"] : []) }
        XCTAssertEqual(Yomo.dismissal(Yomo.Shown(id: "r", occurrence: t("2026-03-03T09:05"), snooze: false, revision: r.revision), in: s), "dismissed",
                       "a nag shown elsewhere is closed")
        XCTAssertNil(Yomo.dismissEvent(s.reminders["r"]!, zone: zone, at: t("2026-03-03T08:00"), device: "laptop"), "nothing has come due before 09:00")
    }

    /// A daily reminder: the dismissal holds for the occurrence that came;
    /// the next day's nags again.
    func testADismissalHoldsForOneOccurrence() {
        var s = made(create("r", anchor: "2026-03-03T09:00:00", rule: Recurrence(kind: .daily), nag: 30))
        var stamp: Int64 = 0
        _ = due(&s, t("2026-03-03T09:00"), on: "laptop", stamp: &stamp)
        s.apply(Yomo.dismissEvent(s.reminders["r"]!, zone: zone, at: t("2026-03-03T09:10"), device: "laptop")!, stamp: Stamp(ms: t("2026-03-03T09:10").ms, actor: "laptop"))
        XCTAssertEqual(due(&s, t("2026-03-03T12:00"), on: "laptop", stamp: &stamp), [])
        XCTAssertEqual(due(&s, t("2026-03-04T09:00"), on: "laptop", stamp: &stamp).map(\.kind), ["due"])
        XCTAssertEqual(due(&s, t("2026-03-04T09:31"), on: "laptop", stamp: &stamp).map(\.kind), ["nag"])
    }

    func testASnoozeStopsTheNagsUntilItEndsThenTheyCountFromItsEnd() {
        var s = made(create("r", anchor: "2026-03-03T09:00:00", nag: 10))
        var stamp: Int64 = 0
        _ = due(&s, t("2026-03-03T09:00"), on: "laptop", stamp: &stamp)
        s.apply(Yomo.snoozeEvent(s.reminders["r"]!, until: t("2026-03-03T09:25"), zone: zone, at: t("2026-03-03T09:05"))!,
                stamp: Stamp(ms: t("2026-03-03T09:05").ms, actor: "phone"))
        XCTAssertEqual(due(&s, t("2026-03-03T09:20"), on: "laptop", stamp: &stamp), [], "snoozed: quiet")
        XCTAssertEqual(due(&s, t("2026-03-03T09:25"), on: "laptop", stamp: &stamp).map(\.kind), ["snooze"])
        XCTAssertEqual(due(&s, t("2026-03-03T09:34"), on: "laptop", stamp: &stamp), [])
        XCTAssertEqual(due(&s, t("2026-03-03T09:35"), on: "laptop", stamp: &stamp).map(\.kind), ["nag"])
    }

    /// Found by an adversary: a device that first looks late announces the
    /// occurrence, and that is the nag of the interval it falls in (no nag
    /// a minute later); an alert whose moment passed when the reminder was
    /// made is not given.
    func testALateAnnouncementIsItsIntervalsNagAndAPastAlertIsNotGiven() {
        var s = made(create("r", anchor: "2026-03-03T09:00:00", nag: 10))
        var stamp: Int64 = 0
        XCTAssertEqual(due(&s, t("2026-03-03T09:35"), on: "laptop", stamp: &stamp).map(\.kind), ["due"])
        XCTAssertEqual(due(&s, t("2026-03-03T09:36"), on: "laptop", stamp: &stamp), [])
        XCTAssertEqual(due(&s, t("2026-03-03T09:40"), on: "laptop", stamp: &stamp).map(\.kind), ["nag"])
        // Made at 08:00 (the state's making) for 09:00 with alerts a day and a quarter of an hour ahead.
        var w = made(create("w", anchor: "2026-03-01T21:00:00", alerts: [1440, 15]))
        XCTAssertEqual(due(&w, t("2026-03-01T08:01"), on: "laptop", stamp: &stamp), [], "the day-ahead alert's moment had passed when it was made")
        XCTAssertEqual(due(&w, t("2026-03-01T20:45"), on: "laptop", stamp: &stamp).map(\.kind), ["alert"])
    }

    /// A peer's nag or dismissal of a moment long after its batch was
    /// written (a forged event) silences nothing.
    func testAForgedFutureNagOrDismissalSilencesNothing() {
        var s = made(create("r", anchor: "2026-03-03T09:00:00", nag: 10))
        var stamp: Int64 = 0
        _ = due(&s, t("2026-03-03T09:00"), on: "laptop", stamp: &stamp)
        let written = Stamp(ms: t("2026-03-03T09:01").ms, actor: "phone")
        s.apply(["type": "announced", "id": "r", "trigger_at": "2026-03-03T09:00:00-05:00", "occurrence": "2030-01-01T09:00:00-05:00",
                 "snooze": false, "nag": true, "device": "phone", "at": "2030-01-01T09:00:00-05:00"], stamp: written)
        s.apply(["type": "dismissed", "id": "r", "occurrence": "2030-01-01T09:00:00-05:00", "at": "2026-03-03T09:01:00-05:00"], stamp: written)
        XCTAssertEqual(due(&s, t("2026-03-03T09:10"), on: "laptop", stamp: &stamp).map(\.kind), ["nag"])
    }

    /// Devices that see each other's journals (one sync folder) run `due`
    /// at random minutes, and now and then someone completes, snoozes or
    /// dismisses: each nag interval is nagged at most once over all of
    /// them, never once the occurrence is done or dismissed, never before
    /// that device announced what it nags about, and — with `due` running
    /// somewhere every minute and nobody answering — every interval is.
    func testNagsAreOnceAnIntervalOverAllDevices() {
        let devices = ["laptop", "phone", "desk"]
        for seed in 0..<40 {
            var rng = SeededRandom(seed: UInt64(7_100 + seed))
            let nag = [1, 5, 10, 15][seed % 4]
            let rule = seed % 3 == 0 ? Recurrence.once : Recurrence(kind: .custom, interval: 2, unit: .hour)
            let quietWorld = seed % 5 == 0  // nobody answers: every interval must be nagged
            var s = made(create("r", anchor: "2026-03-03T09:00:00", rule: rule, nag: nag))
            var stamp: Int64 = 0
            var now = t("2026-03-03T08:55")
            var nags: Set<String> = []
            var announcedBy: [String: Set<Instant>] = [:]
            var done = false
            for _ in 0..<300 {
                now = now.adding(minutes: quietWorld ? 1 : Int64.random(in: 0...3, using: &rng))
                let d = devices.randomElement(using: &rng)!
                let r = s.reminders["r"]!
                let before = (r.snoozedUntil ?? r.triggerAt, r.dismissedOf)
                for said in due(&s, now, on: d, stamp: &stamp) {
                    XCTAssertFalse(done, "seed \(seed): nagged after done")
                    if said.kind == "due" || said.kind == "snooze" { announcedBy[d, default: []].insert(said.moment) }
                    guard said.kind == "nag" else { continue }
                    let base = before.0
                    XCTAssertNotEqual(before.1.map { $0 >= base }, true, "seed \(seed): nagged a dismissed occurrence")
                    XCTAssertTrue(announcedBy[d]?.contains(base) ?? false, "seed \(seed): \(d) nagged before announcing \(zone.format(base))")
                    XCTAssertEqual((said.moment.ms - base.ms) % (Int64(nag) * 60_000), 0)
                    let slot = "\(base.ms)/\(said.moment.ms)"
                    XCTAssertFalse(nags.contains(slot), "seed \(seed): interval \(slot) nagged twice")
                    nags.insert(slot)
                }
                guard !quietWorld else { continue }
                switch Int.random(in: 0..<40, using: &rng) {
                case 0:
                    let r = s.reminders["r"]!
                    guard !r.completed else { break }
                    let next = Yomo.nextAfterDone(r, now: now, zone: zone)
                    s.apply(Yomo.completedEvent(r, next: next, zone: zone, at: zone.format(now)), stamp: Stamp(ms: max(stamp + 1, now.ms), actor: d))
                    stamp += 1
                    if next == nil { done = true }
                case 1:
                    if let e = Yomo.dismissEvent(s.reminders["r"]!, zone: zone, at: now, device: d) {
                        stamp = max(stamp + 1, now.ms)
                        s.apply(e, stamp: Stamp(ms: stamp, actor: d))
                    }
                case 2:
                    if !s.reminders["r"]!.completed, let e = Yomo.snoozeEvent(s.reminders["r"]!, until: now.adding(minutes: 7), zone: zone, at: now) {
                        stamp = max(stamp + 1, now.ms)
                        s.apply(e, stamp: Stamp(ms: stamp, actor: d))
                    }
                default: break
                }
            }
            if quietWorld {
                // 300 minutes from 09:00 less the first: every interval after the first announcement.
                let r = s.reminders["r"]!
                let base = r.triggerAt
                let expected = Int((now.ms - base.ms) / (Int64(nag) * 60_000))
                let here = nags.filter { $0.hasPrefix("\(base.ms)/") }.count
                // A device's own first announcement of the occurrence may take an interval's place.
                XCTAssertLessThanOrEqual(here, expected, "seed \(seed)")
                XCTAssertGreaterThanOrEqual(here, expected - (devices.count - 1), "seed \(seed): with due every minute, every interval is nagged")
            }
        }
    }
}
