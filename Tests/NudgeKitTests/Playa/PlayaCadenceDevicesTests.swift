import XCTest
@testable import NudgeKit

/// Cadences on three devices — a laptop that notifies, a phone and a tablet —
/// whose journals a simulated sync engine copies whole, at random times,
/// with links down for hours. Contacts are recorded on any device, some of
/// them backdated by up to three days; every device runs `generate` at
/// midnight (sometimes missed), the laptop runs `due` every ten minutes.
///
/// Properties, checked against a ledger of which contacts the laptop could
/// have seen at each moment (its own at once, a peer's from the first copy
/// of that peer's journal after it was written), not against playa's state:
/// - every reminder is handed over at most once;
/// - none is handed over while a contact the laptop had makes it not due
///   (a contact within a cadence before its day);
/// - on every day the laptop's own contacts at midnight make due, its
///   reminder is handed over exactly once, unless a contact it had by the
///   time of the run that would hand it over makes it not due;
/// - all three devices end with the same events once the folders meet.
final class PlayaCadenceDevicesTests: XCTestCase {
    let zone = try! Zone.named("Europe/Berlin")
    let fm = FileManager.default
    var root = ""
    let names = ["laptop", "phone", "tablet"]

    override func setUp() {
        root = NSTemporaryDirectory() + "playa-cadence-\(UUID().uuidString)"
        try? fm.createDirectory(atPath: root, withIntermediateDirectories: true)
        StoreWarnings.reset()
    }

    override func tearDown() { try? fm.removeItem(atPath: root) }

    struct Totals {
        var due = 0, notified = 0, cancelledByContact = 0, contacts = 0, backdated = 0, peerContacts = 0, foreign = 0
    }

    struct Logged { var device: Int; var written: Int64; var contact: Playa.Contact }

    func testEachDueReminderIsNotifiedOnceAndNeverAfterAContact() throws {
        var totals = Totals()
        for seed in 1...3 { try run(seed: UInt64(seed), totals: &totals) }
        print("cadence on three devices: \(totals)")
        XCTAssertGreaterThan(totals.due, 40)
        XCTAssertGreaterThan(totals.notified, 25)
        XCTAssertGreaterThan(totals.cancelledByContact, 5, "reminders a contact made not due")
        XCTAssertGreaterThan(totals.peerContacts, 20, "contacts recorded on the phone or the tablet")
        XCTAssertGreaterThan(totals.backdated, 10)
    }

    func run(seed: UInt64, totals: inout Totals) throws {
        var rng = SeededRandom(seed: seed &* 7919)
        let base = root + "/s\(seed)"
        for n in names { try fm.createDirectory(atPath: base + "/\(n)/sync", withIntermediateDirectories: true) }
        func store(_ d: Int, _ t: Int64) -> Store<PlayaState> {
            var o = StoreOptions(tool: "playa", actor: names[d], user: "tester", lockTimeoutMillis: 2000, snapshotEvery: 3 + d * 4)
            o.journalFolder = base + "/\(names[d])/sync"
            o.nowMillis = t
            return Store(dir: base + "/\(names[d])/data", options: o)
        }
        func journal(_ d: Int, in folder: Int) -> String { base + "/\(names[folder])/sync/\(names[d]).ndjson" }
        var copies: [[[Int64]]] = Array(repeating: Array(repeating: [], count: 3), count: 3)  // [src][dst] → copy times
        func copy(_ src: Int, to dst: Int, at t: Int64) throws {
            let from = (try? Sys.readFile(journal(src, in: src))).flatMap { $0 } ?? []
            guard !from.isEmpty else { return }
            try Data(from).write(to: URL(fileURLWithPath: journal(src, in: dst) + ".tmp"))
            _ = rename(journal(src, in: dst) + ".tmp", journal(src, in: dst))
            copies[src][dst].append(t)
        }

        let start = RFC3339.parse("2026-11-01T00:00:00+01:00")!.instant.ms
        var t = start - 600_000
        let firstDay = zone.day(of: Instant(ms: start))
        let laptop = 0
        var cadences: [String: Playa.Cadence] = [:]
        let units: [Playa.Cadence.Unit] = [.day, .day, .week]
        for n in 0..<3 {
            let u = units[n]
            let c = Playa.Cadence(count: u == .day ? Int.random(in: 2...4, using: &rng) : 1, unit: u,
                                  since: firstDay.adding(days: -Int.random(in: 0...5, using: &rng)))
            let r = Playa.Recipient(id: "r\(seed)c\(n)", name: "C\(n)", platform: .sms, phone: PhoneNumber(e164: "+4915123456\(n)0"), username: nil,
                                    paused: false, schedule: .every(c), messages: [Playa.Message(id: "m\(n)", text: "hi \(n)")], drawSeed: rng.next())
            cadences[r.id] = c
            try store(laptop, t).write(at: Instant(ms: t), zone: zone) { (tx) throws(ToolError) in tx.record(Playa.saved(r)) }
        }
        try store(laptop, t).write(at: Instant(ms: t), zone: zone) { (tx) throws(ToolError) in
            if let r = Playa.notifier(tx.state, device: "laptop", configured: nil, takeOver: false, configPath: "", now: Instant(ms: t)).record { tx.record(r) }
        }
        for d in 1...2 { try copy(laptop, to: d, at: t) }
        let rids = cadences.keys.sorted()

        var ledger: [Logged] = []
        /// The contacts the laptop could have had at `t`.
        func visible(at t: Int64) -> [Playa.Contact] {
            ledger.filter { l in
                l.device == laptop ? l.written <= t : copies[l.device][laptop].contains { $0 > l.written && $0 <= t }
            }.map(\.contact)
        }
        func lastDay(_ rid: String, at t: Int64) -> Day? { visible(at: t).filter { $0.recipientID == rid }.map(\.date).max() }

        var handed: [String: [Int64]] = [:]
        var midnight: [Day: Int64] = [:]  // when the laptop drew each day
        var linkDown = [Int64](repeating: 0, count: 3)
        let end = start + 28 * 86_400_000
        while t < end {
            t += 600_000
            let now = Instant(ms: t)
            let today = zone.day(of: now)
            let minute = zone.local(now).time.hour * 60 + zone.local(now).time.minute
            // The sync engine: whole copies, a link down now and then.
            for src in 0..<3 {
                if t < linkDown[src] { continue }
                if Int.random(in: 0..<150, using: &rng) == 0 { linkDown[src] = t + Int64.random(in: 6...40, using: &rng) * 600_000; continue }
                for dst in 0..<3 where dst != src && Int.random(in: 0..<4, using: &rng) == 0 { try copy(src, to: dst, at: t) }
            }
            // Contacts, on any device, some backdated.
            for d in 0..<3 where Int.random(in: 0..<350, using: &rng) == 0 {
                let rid = rids.randomElement(using: &rng)!
                let back = Int.random(in: 0..<4, using: &rng) == 0 ? Int64.random(in: 1...(3 * 144), using: &rng) * 600_000 : 0
                let at = Instant(ms: t - back)
                let c = Playa.Contact(id: IDs.make(using: &rng), recipientID: rid, at: at, date: zone.day(of: at), via: "call")
                try store(d, t).write(at: now, zone: zone) { (tx) throws(ToolError) in tx.record(Playa.saved(c)) }
                ledger.append(Logged(device: d, written: t, contact: c))
                totals.contacts += 1
                if back > 0 { totals.backdated += 1 }
                if d != laptop { totals.peerContacts += 1 }
            }
            // cron: generate at midnight, sometimes missed (the laptop's due draws then).
            if minute == 0 {
                for d in [0, 1, 2].shuffled(using: &rng) where Int.random(in: 0..<6, using: &rng) > 0 {
                    try store(d, t).write(at: now, zone: zone) { (tx) throws(ToolError) in
                        _ = Playa.generate(&tx, date: today, now: now, today: today, zone: zone, seed: nil, device: names[d])
                    }
                    if d == laptop { midnight[today] = t }
                }
            }
            // cron: the laptop's due.
            let st = store(laptop, t)
            var s = try st.read(lazy: true)
            if Playa.needsDraws(s, device: "laptop", today: today) {
                s = try st.write(at: now, zone: zone) { (tx) throws(ToolError) -> PlayaState in
                    _ = Playa.adoptDraws(&tx, device: "laptop", now: now, today: today, zone: zone)
                    return tx.state
                }
                if midnight[today] == nil { midnight[today] = t }
            }
            for e in s.due(at: now, today: today) {
                let claim = IDs.make(using: &rng)
                guard let ev = try st.write(at: now, zone: zone, { (tx) throws(ToolError) -> Playa.Event? in
                    guard let ev = Playa.claim(&tx, e.id, claim: claim, until: now.adding(minutes: 11), now: now, retryUnknown: false, today: today) else { return nil }
                    Playa.finish(&tx, ev, claim: claim, outcome: .delivered, status: 0, error: nil, at: now)
                    return ev
                }) else { continue }
                handed[ev.id, default: []].append(t)
                // Safety: no contact the laptop had makes it not due.
                let c = cadences[ev.recipientID]!
                for k in visible(at: t) where k.recipientID == ev.recipientID {
                    XCTAssertFalse(c.contactSatisfies(k.date, reminderOn: ev.date),
                                   "seed \(seed): \(ev.id) of \(ev.date) notified at \(zone.format(now)) though the laptop had a contact of \(k.date)")
                }
            }
        }

        let lastRun = t
        // The folders meet.
        t += 3_600_000
        for src in 0..<3 { for dst in 0..<3 where dst != src { try copy(src, to: dst, at: t) } }
        let final = try names.indices.map { try store($0, t).read(full: true) }
        for d in 1...2 {
            XCTAssertEqual(final[0].events.values.map(\.json.serialized).sorted(), final[d].events.values.map(\.json.serialized).sorted(),
                           "seed \(seed): the laptop and the \(names[d]) show the same events")
        }
        for (id, times) in handed {
            XCTAssertEqual(times.count, 1, "seed \(seed): \(id) handed over \(times.count) times")
            totals.notified += 1
        }
        // Liveness: each day the laptop's contacts at its draw made due.
        for rid in rids {
            let c = cadences[rid]!
            for (day, drawn) in midnight where day > firstDay {
                guard c.isDue(day, last: lastDay(rid, at: drawn)) else { continue }
                totals.due += 1
                let evs = final[0].events.values.filter { $0.recipientID == rid && $0.date == day }
                XCTAssertEqual(evs.count, 1, "seed \(seed): \(rid) due on \(day) has \(evs.count) reminders")
                guard let ev = evs.first else { continue }
                // The run that would hand it over: the first at or after its time.
                let run = (ev.at.ms + 599_999) / 600_000 * 600_000
                guard run <= lastRun else { totals.due -= 1; continue }  // after the last run
                let satisfied = visible(at: run).contains { $0.recipientID == rid && c.contactSatisfies($0.date, reminderOn: day) }
                if satisfied {
                    totals.cancelledByContact += 1
                    XCTAssertNil(handed[ev.id], "seed \(seed): \(ev.id) notified after a contact made it not due")
                    XCTAssertEqual(ev.status, .cancelled, "seed \(seed): \(ev.id)")
                } else {
                    XCTAssertEqual(handed[ev.id]?.count, 1, "seed \(seed): \(rid)'s reminder of \(day) at \(zone.format(ev.at)) never notified")
                }
            }
        }
        totals.foreign += handed.keys.filter { id in
            guard let ev = final[0].events[id], let drawn = midnight[ev.date] else { return true }
            return !cadences[ev.recipientID]!.isDue(ev.date, last: lastDay(ev.recipientID, at: drawn))
        }.count
    }
}
