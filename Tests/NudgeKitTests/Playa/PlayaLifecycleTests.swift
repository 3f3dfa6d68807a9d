import XCTest
@testable import NudgeKit

/// Property tests of playa's lifecycles, over random interleavings drawn by
/// a seeded generator: cron's runs (generate at midnight, sometimes missed;
/// `due` every minute, overlapping, its notifier slow, failing or hung, the
/// run killed at any step) and the changes a person makes meanwhile (pause,
/// resume, schedule, pool edits, cancel, open, remove, reset).
final class PlayaLifecycleTests: XCTestCase {
    let zone = try! Zone.named("America/New_York")
    let firstDay = Day(year: 2026, month: 11, day: 23)
    let timeout = Playa.defaultNotifyTimeoutSeconds

    /// A person's changes and cron's generate, shared by both properties.
    struct World {
        var store = MemoryStore<PlayaState>()
        var rng: SeededRandom
        var now: Int64
        let zone: Zone
        var names = 0
        var today: Day { zone.day(of: Instant(ms: now)) }
        var instant: Instant { Instant(ms: now) }

        init(seed: UInt64, start: Instant, zone: Zone) {
            rng = SeededRandom(seed: seed)
            now = start.ms
            self.zone = zone
        }

        mutating func text() -> String {
            let words = ["hi", "coffee?", "how was the trip", "🎂 soon", "call me", "ça va", "lunch & a walk", "日本"]
            return (0..<Int.random(in: 1...4, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ")
        }

        mutating func schedule() -> Playa.Schedule {
            if Bool.random(using: &rng) { return .random(Int.random(in: 1...6, using: &rng)) }
            let ts = Set((0..<Int.random(in: 1...4, using: &rng)).map { _ in
                TimeOfDay(hour: Int.random(in: 7...22, using: &rng), minute: [0, 15, 30, 45].randomElement(using: &rng)!)
            })
            return .fixed(ts.sorted())
        }

        mutating func addRecipient() {
            names += 1
            let platform = Playa.Platform.allCases.randomElement(using: &rng)!
            let r = Playa.Recipient(
                id: IDs.make(using: &rng), name: "R\(names)", platform: platform,
                phone: [.instagram, .email].contains(platform) ? nil : PhoneNumber(e164: "+4420794609\(String(format2: names % 100))"),
                username: platform == .instagram ? "user_\(names)" : nil, paused: false, schedule: schedule(),
                messages: (0..<Int.random(in: 0...4, using: &rng)).map { _ in Playa.Message(id: IDs.make(using: &rng), text: text()) },
                email: platform == .email ? "r\(names)@example.org" : nil)
            store.write(at: now) { $0.record(Playa.saved(r)) }
        }

        var recipientIDs: [String] { store.state.recipients.keys.sorted() }

        mutating func randomRecipient() -> Playa.Recipient? {
            let ids = recipientIDs
            return ids.isEmpty ? nil : store.state.recipients[ids[Int.random(in: 0..<ids.count, using: &rng)]]
        }

        mutating func randomEvent(_ ok: (Playa.Event) -> Bool) -> Playa.Event? {
            let evs = store.state.events.values.filter(ok).sorted { $0.id < $1.id }
            return evs.isEmpty ? nil : evs[Int.random(in: 0..<evs.count, using: &rng)]
        }

        mutating func generate(date: Day? = nil) {
            let (d, t, tz, td) = (date ?? today, instant, zone, today)
            store.write(at: now) { tx in _ = Playa.generate(&tx, date: d, now: t, today: td, zone: tz, seed: nil) }
        }

        /// One change a person makes. `destructive` allows remove and reset.
        mutating func change(destructive: Bool) {
            let (t, td, tz) = (instant, today, zone)
            var g = SeededRandom(seed: rng.next())
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<10:
                if recipientIDs.count < 6 { addRecipient() }
            case 10..<22:
                guard var r = randomRecipient() else { return }
                let paused = !r.paused
                r.paused = paused
                store.write(at: now) { tx in
                    tx.record(Playa.saved(r))
                    if paused { Playa.pauseEvents(&tx, r, today: td, now: t) } else {
                        let days = Array(Set(Playa.plannedDays(tx.state, r.id, today: td)).union([td]))
                        Playa.replan(&tx, r, days: days, now: t, today: td, zone: tz, reason: "replaced on resume", rng: &g)
                    }
                }
            case 22..<34:
                guard var r = randomRecipient() else { return }
                let s = schedule()
                guard s != r.schedule else { return }
                r.schedule = s
                store.write(at: now) { tx in
                    tx.record(Playa.saved(r))
                    Playa.replan(&tx, r, days: Playa.plannedDays(tx.state, r.id, today: td), now: t, today: td, zone: tz,
                                 reason: "replaced by a new schedule", rng: &g)
                }
            case 34..<48:
                guard var r = randomRecipient() else { return }
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: if r.messages.count < 8 { r.messages.append(Playa.Message(id: IDs.make(using: &rng), text: text())) }
                case 1: if !r.messages.isEmpty { r.messages.remove(at: Int.random(in: 0..<r.messages.count, using: &rng)) }
                default: if !r.messages.isEmpty { r.messages[Int.random(in: 0..<r.messages.count, using: &rng)].text = text() }
                }
                store.write(at: now) { tx in
                    tx.record(Playa.saved(r))
                    Playa.syncPool(&tx, r, rng: &g)
                }
            case 48..<58:
                guard var e = randomEvent({ $0.status == .pending }) else { return }
                e.status = .cancelled
                store.write(at: now) { $0.record(Playa.saved(e)) }
            case 58..<70:
                guard var e = randomEvent({ $0.status == .pending || $0.status == .missed }) else { return }
                e.status = .sent
                store.write(at: now) { $0.record(Playa.saved(e)) }
            case 70..<78:
                guard var e = randomEvent({ $0.status == .pending }) else { return }
                e.message = text()
                e.messageID = nil
                store.write(at: now) { $0.record(Playa.saved(e)) }
            case 78..<84:
                store.write(at: now) { $0.record(["type": "day_confirmed", "date": .string(td.description)]) }
            case 84..<90:
                guard destructive, let r = randomRecipient() else { return }
                store.write(at: now) { $0.record(["type": "erase", "recipient_id": .string(r.id)]) }
            case 90..<94:
                // What versions before erasure recorded: events of the
                // recipient are left behind, and exports must not carry them.
                guard destructive, let r = randomRecipient() else { return }
                store.write(at: now) { $0.record(["type": "recipient_removed", "id": .string(r.id)]) }
            case 94..<96:
                guard destructive, Int.random(in: 0..<4, using: &rng) == 0 else { return }
                store.write(at: now) { $0.record(["type": "erase", "all": true]) }
            default:
                generate(date: td.adding(days: 1))
            }
        }
    }

    /// A `due` run: the events it read as due, and the command it is running.
    struct Run {
        var queue: [String]
        var command: (event: Playa.Event, claim: String, ends: Int64, exit: Int32)?
    }

    /// Every event's notification is handed to the notify command at most
    /// once, however runs overlap, fail, hang or die; never for a past day,
    /// a paused recipient or an event no longer pending.
    func testEveryEventIsNotifiedAtMostOnce() {
        var totals = (shown: 0, failedThenShown: 0, killed: 0, hung: 0, missed: 0)
        for seed in 0..<40 {
            var w = World(seed: UInt64(seed), start: zone.startOfDay(firstDay), zone: zone)
            for _ in 0..<4 { w.addRecipient() }
            w.generate()
            var runs: [Run] = []
            var shown: [String: Int] = [:]
            var failed = Set<String>()
            let end = zone.startOfDay(firstDay.adding(days: 4)).ms
            func finish(_ i: Int) {
                guard let c = runs[i].command else { return }
                let outcome = Handover.outcome(of: c.exit == Subprocess.timedOut ? .timedOut : .exited(c.exit))
                w.store.write(at: c.ends) { Playa.finish(&$0, c.event, claim: c.claim, outcome: outcome, status: c.exit, error: nil) }
                runs[i].command = nil
            }
            while w.now < end {
                // Time passes; a live run's command ends by its timeout, and
                // the run records how it went.
                let next = w.now + Int64.random(in: 0...180_000, using: &w.rng)
                for i in runs.indices.sorted(by: { (runs[$0].command?.ends ?? .max) < (runs[$1].command?.ends ?? .max) })
                where (runs[i].command?.ends ?? .max) <= next {
                    w.now = max(w.now, runs[i].command!.ends)
                    finish(i)
                }
                let before = w.today
                w.now = next
                if w.today != before, Int.random(in: 0..<5, using: &w.rng) > 0 {
                    let missed = w.store.state.events.values.filter { $0.status == .pending && $0.date < w.today }.count
                    w.generate()
                    totals.missed += missed
                }
                for _ in 0..<Int.random(in: 1...3, using: &w.rng) {
                    switch Int.random(in: 0..<1000, using: &w.rng) {
                    case 0..<350:
                        let (t, today) = (w.instant, w.today)
                        runs.append(Run(queue: w.store.state.due(at: t, today: today).map(\.id)))
                    case 350..<950:
                        guard !runs.isEmpty else { continue }
                        let i = Int.random(in: 0..<runs.count, using: &w.rng)
                        guard runs[i].command == nil else { continue }
                        while !runs[i].queue.isEmpty {
                            let id = runs[i].queue.removeFirst()
                            let claim = IDs.make(using: &w.rng)
                            let (t, until) = (w.instant, Instant(ms: w.now + Int64(timeout + Playa.claimMarginSeconds) * 1000))
                            let before = w.store.state.events[id]
                            guard let ev = w.store.write(at: w.now, { Playa.claim(&$0, id, claim: claim, until: until, now: t, retryUnknown: false) })
                            else { continue }
                            XCTAssertEqual(before?.status, .pending, "seed \(seed): claimed an event that is not pending")
                            XCTAssertEqual(ev.date, w.today, "seed \(seed): notified an event of another day")
                            XCTAssertEqual(w.store.state.recipients[ev.recipientID]?.paused, false, "seed \(seed): notified a paused recipient")
                            // The notifier: quick, failing, or waiting for a click until its timeout ends it.
                            let seconds = Int.random(in: 1...(timeout * 3 / 2), using: &w.rng)
                            let exit: Int32 = seconds > timeout ? Subprocess.timedOut : Int.random(in: 0..<4, using: &w.rng) == 0 ? 2 : 0
                            if exit == Subprocess.timedOut { totals.hung += 1 }
                            if exit == 2 { failed.insert(id) }
                            if exit != 2 {
                                shown[id, default: 0] += 1
                                if failed.contains(id) { totals.failedThenShown += 1 }
                            }
                            runs[i].command = (ev, claim, w.now + Int64(min(seconds, timeout)) * 1000, exit)
                            break
                        }
                        if runs[i].command == nil && runs[i].queue.isEmpty { runs.remove(at: i) }
                    case 950..<980:
                        // kill -9: the run and whatever it was about to record.
                        guard !runs.isEmpty else { continue }
                        runs.remove(at: Int.random(in: 0..<runs.count, using: &w.rng))
                        totals.killed += 1
                    default:
                        w.change(destructive: false)
                    }
                }
                let due = w.store.state.due(at: w.instant, today: w.today)
                XCTAssertTrue(due.allSatisfy { $0.delivery(at: w.instant) != .delivered && $0.delivery(at: w.instant) != .sending })
            }
            for (id, n) in shown where n > 1 { XCTFail("seed \(seed): event \(id) notified \(n) times") }
            totals.shown += shown.count
        }
        // The generator must reach every case, or the property proves little.
        XCTAssertGreaterThan(totals.shown, 400)
        XCTAssertGreaterThan(totals.failedThenShown, 20, "failed notifications are tried again")
        XCTAssertGreaterThan(totals.killed, 50)
        XCTAssertGreaterThan(totals.hung, 50)
        XCTAssertGreaterThan(totals.missed, 10)
    }

    /// Every export imports, into an empty store and over the store it came
    /// from, and gives the same export back; the journal folded again (with
    /// erasures) agrees with the state.
    func testEveryExportImports() throws {
        var checks = 0
        for seed in 0..<60 {
            var w = World(seed: UInt64(1000 + seed), start: zone.startOfDay(firstDay).adding(minutes: 30), zone: zone)
            for _ in 0..<3 { w.addRecipient() }
            for step in 0..<150 {
                w.now += Int64.random(in: 0...3 * 3_600_000, using: &w.rng)
                if Int.random(in: 0..<6, using: &w.rng) == 0 { w.generate() }
                if Int.random(in: 0..<4, using: &w.rng) == 0, let e = w.store.state.due(at: w.instant, today: w.today).first {
                    // A due run that is sometimes killed after its claim.
                    let (t, claim) = (w.instant, IDs.make(using: &w.rng))
                    let killed = Bool.random(using: &w.rng)
                    w.store.write(at: w.now) { tx in
                        guard let ev = Playa.claim(&tx, e.id, claim: claim, until: t.adding(minutes: 11), now: t, retryUnknown: false) else { return }
                        if !killed { Playa.finish(&tx, ev, claim: claim, outcome: .delivered, status: 0, error: nil) }
                    }
                }
                w.change(destructive: true)
                guard step % 10 == 9 else { continue }
                checks += 1
                let doc = Playa.exportDocument(w.store.state, exportedAt: "x").serialized
                let parsed = try JSON.parse(doc)
                // Into an empty store.
                var empty = MemoryStore<PlayaState>()
                switch Playa.importEvents(parsed, into: empty.state) {
                case .failure(let p): XCTFail("seed \(seed) step \(step): the export does not import: \(p.all)"); continue
                case .success(let evs): empty.write(at: w.now) { tx in for e in evs { tx.record(e) } }
                }
                XCTAssertEqual(Playa.exportDocument(empty.state, exportedAt: "x").serialized, doc, "seed \(seed) step \(step): into an empty store")
                // Over the same store.
                var same = w.store
                switch Playa.importEvents(parsed, into: same.state) {
                case .failure(let p): XCTFail("seed \(seed) step \(step): the export does not import over its store: \(p.all)")
                case .success(let evs): same.write(at: w.now) { tx in for e in evs { tx.record(e) } }
                }
                XCTAssertEqual(Playa.exportDocument(same.state, exportedAt: "x").serialized, doc, "seed \(seed) step \(step): over the same store")
                // What a copy folds from the journal, erasures applied, is the same.
                XCTAssertEqual(Playa.exportDocument(w.store.refold(), exportedAt: "x").serialized, doc, "seed \(seed) step \(step): refolded")
            }
        }
        XCTAssertGreaterThan(checks, 500)
    }

    /// Erasure: after `recipient rm` no kept event names the recipient, and
    /// tombstones hold ids only.
    func testErasedRecipientsLeaveOnlyIDs() {
        var w = World(seed: 77, start: zone.startOfDay(firstDay).adding(minutes: 30), zone: zone)
        for _ in 0..<3 { w.addRecipient() }
        w.generate()
        let r = w.store.state.recipients.values.sorted { $0.id < $1.id }[0]
        w.store.write(at: w.now) { $0.record(["type": "erase", "recipient_id": .string(r.id)]) }
        for (_, e) in w.store.kept {
            let line = e.serialized
            XCTAssertFalse(line.contains(r.name) && e["type"]?.string != "erase", line)
            for m in r.messages { XCTAssertFalse(line.contains(m.text), line) }
            if let p = r.phone { XCTAssertFalse(line.contains(p.e164), line) }
            if e["type"]?.string == "erase" { XCTAssertEqual(Set(e.fields.map(\.key)), ["type", "recipient_id"]) }
        }
        XCTAssertNil(w.store.refold().recipients[r.id])
        XCTAssertTrue(w.store.refold().events.values.allSatisfy { $0.recipientID != r.id })
    }
}

extension String {
    /// Two digits, zero-padded.
    init(format2 n: Int) { self = n < 10 ? "0\(n)" : "\(n)" }
}
