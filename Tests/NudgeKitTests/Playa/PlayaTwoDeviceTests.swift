import XCTest
@testable import NudgeKit

/// playa on two devices — a laptop that notifies and a phone — sharing a
/// sync folder that a simulated engine keeps in step: journals copied whole,
/// late (the link down for hours), and half-written (a copy cut at any byte,
/// finished by a later one). Both run cron's lines every minute (`generate`
/// at midnight, sometimes missed; `due` every minute, refused on the phone),
/// the laptop sleeps at night and wakes at any hour, its notifier is quick,
/// fails, hangs for minutes or is killed, and the user adds messages.
///
/// Properties: every slot is handed to a notifier at most once across both
/// devices, and exactly once when the notifying device held the day's draw
/// before its time (a killed notifier's `unknown` counts: it may have shown);
/// a slot already past when the draw reached the notifier is missed, never
/// notified; none is handed over later than a run after its time (or after
/// the laptop woke); the two devices draw the same events with the same ids;
/// and once the folders meet both show the same events, every one that was
/// handed over among them.
///
/// (A peer journal that a sync engine rewrites from empty, so that it is
/// shorter than what was folded, is the store's to handle; the engine here
/// only ever grows a copy.)
final class PlayaTwoDeviceTests: XCTestCase {
    let zone = try! Zone.named("America/New_York")
    let fm = FileManager.default
    var root = ""
    let names = ["laptop", "phone"]
    let timeout = 600

    override func setUp() {
        root = NSTemporaryDirectory() + "playa-two-\(UUID().uuidString)"
        try? fm.createDirectory(atPath: root, withIntermediateDirectories: true)
        StoreWarnings.reset()
    }

    override func tearDown() { try? fm.removeItem(atPath: root) }

    func quietly<T>(_ body: () throws -> T) rethrows -> T {
        let saved = dup(2)
        let fd = open("/dev/null", O_WRONLY)
        dup2(fd, 2)
        close(fd)
        defer { dup2(saved, 2); close(saved) }
        return try body()
    }

    struct Totals {
        var slots = 0, notified = 0, missedAtDraw = 0, failedThenNotified = 0, killed = 0, hung = 0
        var refusals = 0, halfCopies = 0, lateCopies = 0, adopted = 0, maxDelay: Int64 = 0, sameDraws = 0
        var quiet = 0  // runs the snapshot's summary answered
    }

    func testEverySlotIsNotifiedOnceAcrossTwoDevices() throws {
        var totals = Totals()
        for seed in 1...3 { try quietly { try run(seed: UInt64(seed), totals: &totals) } }
        print("two devices: \(totals)")
        // The generator must reach every case, or the properties prove little.
        XCTAssertGreaterThan(totals.notified, 60)
        XCTAssertGreaterThan(totals.missedAtDraw, 3, "slots past when the draw reached the laptop")
        XCTAssertGreaterThan(totals.failedThenNotified, 3)
        XCTAssertGreaterThan(totals.killed, 1)
        XCTAssertGreaterThan(totals.hung, 1)
        XCTAssertGreaterThan(totals.refusals, 1000, "the phone's due refuses")
        XCTAssertGreaterThan(totals.halfCopies, 20)
        XCTAssertGreaterThan(totals.adopted, 1, "the laptop took the phone's draw as its own")
        XCTAssertGreaterThan(totals.sameDraws, 10, "days drawn on both devices")
        XCTAssertGreaterThan(totals.quiet, 1000, "runs answered from the summary")
    }

    func run(seed: UInt64, totals: inout Totals) throws {
        var rng = SeededRandom(seed: seed &* 104_729)
        let base = root + "/s\(seed)"
        for n in names { try fm.createDirectory(atPath: base + "/\(n)/sync", withIntermediateDirectories: true) }
        let every = [Int.random(in: 2...12, using: &rng), Int.random(in: 2...12, using: &rng)]
        func store(_ d: Int, _ t: Int64) -> Store<PlayaState> {
            var o = StoreOptions(tool: "playa", actor: names[d], user: "tester", lockTimeoutMillis: 2000, snapshotEvery: every[d])
            o.journalFolder = base + "/\(names[d])/sync"
            o.nowMillis = t
            return Store(dir: base + "/\(names[d])/data", options: o)
        }
        func journal(_ d: Int, in folder: Int) -> String { base + "/\(names[folder])/sync/\(names[d]).ndjson" }
        func bytes(_ p: String) -> [UInt8] { (try? Sys.readFile(p)) .flatMap { $0 } ?? [] }

        /// The engine copies `src`'s journal into `dst`'s folder: whole, or
        /// cut at a byte between what is there and the end (a copy in flight).
        func copy(_ src: Int, to dst: Int, half: Bool) throws {
            let from = bytes(journal(src, in: src)), to = journal(src, in: dst)
            let have = bytes(to).count
            guard from.count > have else { return }
            if half {
                let cut = Int.random(in: have...(from.count - 1), using: &rng)
                try Data(from[0..<cut]).write(to: URL(fileURLWithPath: to))
                totals.halfCopies += 1
            } else {
                try Data(from).write(to: URL(fileURLWithPath: to + ".tmp"))
                _ = rename(to + ".tmp", to)
            }
        }
        func syncAll() throws {
            try copy(0, to: 1, half: false)
            try copy(1, to: 0, half: false)
        }

        var t = RFC3339.parse("2026-11-22T20:00:00-05:00")!.instant.ms
        // The user sets up playa on the laptop and runs due there first.
        let laptop = 0, phone = 1
        for n in 0..<3 {
            let fixed = n == 0
            let r = Playa.Recipient(
                id: "r\(seed)x\(n)", name: "R\(n)", platform: .whatsapp, phone: PhoneNumber(e164: "+4479460958\(n)"), username: nil,
                paused: false,
                schedule: fixed ? .fixed([TimeOfDay(hour: 9, minute: 30), TimeOfDay(hour: 13, minute: 0), TimeOfDay(hour: 18, minute: 45)])
                                : .random(Int.random(in: 2...5, using: &rng)),
                messages: (0..<Int.random(in: 1...3, using: &rng)).map { Playa.Message(id: "m\(n)-\($0)", text: "hello \($0)") },
                drawSeed: rng.next())
            try store(laptop, t).write(at: Instant(ms: t), zone: zone) { (tx) throws(ToolError) in tx.record(Playa.saved(r)) }
        }
        try store(laptop, t).write(at: Instant(ms: t), zone: zone) { (tx) throws(ToolError) in
            if let r = Playa.notifier(tx.state, device: "laptop", configured: nil, takeOver: false, configPath: "", now: Instant(ms: t)).record { tx.record(r) }
        }
        try syncAll()

        struct Running { var device: Int; var id: String; var claim: String; var ends: Int64; var exit: Int32 }
        var running: [Running] = []
        var handedOver: [String: [(device: Int, at: Int64, retry: Bool)]] = [:]  // event → its hand-overs that may have shown
        var firstHeld: [String: Int64] = [:]  // "recipient|day" → when the laptop first held the draw
        var draws: [[String: [String]]] = [[:], [:]]  // device → key → "id at message"
        var awake = true
        var awakeAt = Set<Int64>()  // the minutes the laptop was up
        var linkDownUntil: [Int64] = [0, 0]
        let end = t + 3 * 86_400_000

        while t < end {
            t += 60_000
            let now = Instant(ms: t)
            let local = zone.local(now)
            let today = local.day
            let minute = local.time.hour * 60 + local.time.minute
            // The laptop sleeps at night: down between 21:15 and 00:30, up
            // again between 06:00 and 11:00.
            if awake, minute >= 21 * 60 + 15 || minute < 30, Int.random(in: 0..<90, using: &rng) == 0 { awake = false }
            if !awake, minute >= 6 * 60, minute < 11 * 60, Int.random(in: 0..<120, using: &rng) == 0 || minute == 11 * 60 - 1 {
                awake = true
            }
            if awake { awakeAt.insert(t) }
            // Commands that finish now record how they went.
            for r in running.filter({ $0.ends <= t }) {
                let outcome = Handover.outcome(of: r.exit == Subprocess.timedOut ? .timedOut : .exited(r.exit))
                try store(r.device, t).write(at: Instant(ms: t), zone: zone) { (tx) throws(ToolError) in
                    guard let ev = tx.state.events[r.id] else { return }
                    Playa.finish(&tx, ev, claim: r.claim, outcome: outcome, status: r.exit, error: nil, at: Instant(ms: t))
                }
            }
            running.removeAll { $0.ends <= t }

            // The sync engine.
            for (src, dst) in [(laptop, phone), (phone, laptop)] {
                if t < linkDownUntil[src] { continue }
                if Int.random(in: 0..<600, using: &rng) == 0 {
                    linkDownUntil[src] = t + Int64.random(in: 30...360, using: &rng) * 60_000
                    totals.lateCopies += 1
                    continue
                }
                guard Int.random(in: 0..<3, using: &rng) == 0 else { continue }
                try copy(src, to: dst, half: Int.random(in: 0..<2, using: &rng) == 0)
            }

            for d in [laptop, phone] where d == phone || awake {
                let st = store(d, t)
                // cron: generate at midnight (sometimes missed).
                if minute == 0, Int.random(in: 0..<5, using: &rng) > 0 {
                    try st.write(at: now, zone: zone) { (tx) throws(ToolError) in
                        let before = Set(tx.state.drawnBy.filter { $0.value.contains(names[d]) }.keys)
                        _ = Playa.generate(&tx, date: today, now: now, today: today, zone: zone, seed: nil, device: names[d])
                        for r in tx.state.activeRecipients {
                            let key = PlayaState.generatedKey(r.id, today)
                            guard !before.contains(key), tx.state.drawnBy[key]?.contains(names[d]) == true else { continue }
                            draws[d][key] = Playa.draw(r, date: today, zone: zone).map { "\($0.id) \($0.at.ms)" }
                            if d == laptop, firstHeld[key] == nil { firstHeld[key] = t }
                        }
                    }
                }
                // The user adds a message now and then (on either device).
                if Int.random(in: 0..<2000, using: &rng) == 0 {
                    try st.write(at: now, zone: zone) { (tx) throws(ToolError) in
                        guard var r = tx.state.recipients.values.sorted(by: { $0.id < $1.id }).first, r.messages.count < 6 else { return }
                        r.messages.append(Playa.Message(id: "m\(t)", text: "added at \(t)"))
                        tx.record(Playa.saved(r))
                        var g = SeededRandom(seed: UInt64(t))
                        Playa.syncPool(&tx, r, rng: &g)
                    }
                }
                // cron: due every minute. Its fast path first: when the
                // snapshot's summary and the tail say nothing is due, the
                // whole state must say so too.
                let quiet = try st.readHead().map {
                    !Playa.mayBeDue(summary: $0.hot.first, tail: $0.tail, now: now, today: today, device: names[d])
                } ?? false
                var s = try st.read(lazy: true)  // as the command reads
                let v = Playa.notifier(s, device: names[d], configured: nil, takeOver: false, configPath: "", now: now)
                let role = v.record
                if v.refusal != nil {
                    XCTAssertEqual(d, phone, "seed \(seed): the laptop was refused")
                    XCTAssertFalse(quiet, "seed \(seed): the summary let the phone pass")
                    totals.refusals += 1
                    continue
                }
                XCTAssertEqual(d, laptop, "seed \(seed): the phone may not notify")
                XCTAssertNil(role)
                if quiet {
                    totals.quiet += 1
                    XCTAssertFalse(Playa.needsDraws(s, device: names[d], today: today), "seed \(seed) at \(t): the summary hid a draw to adopt")
                    XCTAssertEqual(s.due(at: now, today: today).map(\.id), [], "seed \(seed) at \(t): the summary hid due events")
                }
                if Playa.needsDraws(s, device: names[d], today: today) {
                    s = try st.write(at: now, zone: zone) { (tx) throws(ToolError) -> PlayaState in
                        let before = Set(tx.state.drawnBy.filter { $0.value.contains(names[d]) }.keys)
                        let hadOthers = tx.state.generated
                        let missed = Playa.adoptDraws(&tx, device: names[d], now: now, today: today, zone: zone)
                        totals.missedAtDraw += missed.count
                        for r in tx.state.activeRecipients {
                            let key = PlayaState.generatedKey(r.id, today)
                            guard !before.contains(key), tx.state.drawnBy[key]?.contains(names[d]) == true else { continue }
                            if hadOthers.contains(key) { totals.adopted += 1 }
                            draws[d][key] = Playa.draw(r, date: today, zone: zone).map { "\($0.id) \($0.at.ms)" }
                            if firstHeld[key] == nil { firstHeld[key] = t }
                        }
                        return tx.state
                    }
                }
                var busy = 0  // seconds this run has spent on its notifiers
                for e in s.due(at: now, today: today) {
                    if busy >= 60 { break }  // the next minute's run takes the rest
                    let claim = IDs.make(using: &rng)
                    let until = Handover.expiry(claimedAt: now, timeoutSeconds: timeout)
                    guard let ev = try st.write(at: now, zone: zone, { (tx) throws(ToolError) -> Playa.Event? in
                        Playa.claim(&tx, e.id, claim: claim, until: until, now: now, retryUnknown: false, today: today)
                    }) else { continue }
                    let retry = ev.handover.failures > 0
                    // The notifier: quick, failing (once), hung until its
                    // timeout, or killed with the run.
                    let roll = Int.random(in: 0..<100, using: &rng)
                    if roll < 4 {
                        totals.killed += 1
                        handedOver[ev.id, default: []].append((d, t, retry))
                        continue  // kill -9: nothing more is recorded
                    }
                    let exit: Int32 = roll < 12 && !retry ? 2 : roll < 15 ? Subprocess.timedOut : 0
                    if exit == Subprocess.timedOut { totals.hung += 1 }
                    if exit != 2 {
                        handedOver[ev.id, default: []].append((d, t, retry))
                        if retry { totals.failedThenNotified += 1 }
                    }
                    let seconds = exit == Subprocess.timedOut ? timeout : Int.random(in: 1...(roll < 20 ? 300 : 20), using: &rng)
                    busy += seconds
                    running.append(Running(device: d, id: ev.id, claim: claim, ends: t + Int64(seconds) * 1000, exit: exit))
                }
            }
        }

        // The folders meet.
        t += 60 * 60_000
        try syncAll()
        let final = try names.indices.map { try store($0, t).read(full: true) }
        XCTAssertEqual(final[0].events.values.map(\.json.serialized).sorted(), final[1].events.values.map(\.json.serialized).sorted(),
                       "seed \(seed): the two devices show the same events")
        for (key, a) in draws[laptop] {
            guard let b = draws[phone][key] else { continue }
            totals.sameDraws += 1
            XCTAssertEqual(a, b, "seed \(seed): \(key) drawn differently on the two devices")
        }
        // Every slot: handed over at most once; exactly once when the
        // laptop held the draw before its time and was up for it.
        for ev in final[0].events.values {
            let key = PlayaState.generatedKey(ev.recipientID, ev.date)
            totals.slots += 1
            let shows = handedOver[ev.id] ?? []
            XCTAssertLessThanOrEqual(shows.count, 1, "seed \(seed): event \(ev.id) at \(ev.at) handed over \(shows.count) times")
            if let held = firstHeld[key], ev.at.ms <= held {
                XCTAssertTrue(shows.isEmpty, "seed \(seed): \(ev.id) at \(ev.at) was past when the draw reached the laptop, yet notified")
                if ev.status != .sent, ev.status != .cancelled { XCTAssertEqual(ev.status, .missed, "seed \(seed): \(ev.id)") }
            }
            // Up from its time for ten minutes (a failure's retry
            // included), with the draw held before: notified exactly once,
            // within minutes.
            let slotMinute = ev.at.ms / 60_000 * 60_000
            let up = (0...10).allSatisfy { awakeAt.contains(slotMinute + Int64($0) * 60_000 + (ev.at.ms % 60_000 == 0 ? 0 : 60_000)) }
            if let held = firstHeld[key], held < ev.at.ms, up, ev.status == .pending || ev.status == .missed {
                XCTAssertEqual(shows.count, 1, "seed \(seed): \(ev.id) at \(ev.at) never notified though the laptop was up")
                if let s = shows.first, !s.retry { totals.maxDelay = max(totals.maxDelay, s.at - ev.at.ms) }
            }
            if let s = shows.first {
                totals.notified += 1
                XCTAssertEqual(s.device, laptop)
                XCTAssertGreaterThanOrEqual(s.at, ev.at.ms, "seed \(seed): \(ev.id) notified early")
            }
        }
        XCTAssertLessThanOrEqual(totals.maxDelay, 5 * 60_000, "seed \(seed): a slot notified more than five minutes after its time")
        for (id, _) in handedOver { XCTAssertNotNil(final[0].events[id], "seed \(seed): event \(id) was notified and then vanished") }
    }
}
