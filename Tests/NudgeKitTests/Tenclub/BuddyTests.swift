import XCTest
@testable import NudgeKit

final class BuddyTests: XCTestCase {
    let buddy = try! PhoneNumber.parseUS("415-555-0132")
    let other = try! PhoneNumber.parseUS("212-555-0199")
    let today = Day(year: 2026, month: 11, day: 22)

    func fold(_ events: [JSONObject], into s: inout TenclubState) { for e in events { s.apply(e) } }

    func state(consent: Tenclub.Consent?) -> TenclubState {
        var s = TenclubState(full: true)
        guard let c = consent else { return s }
        fold(Tenclub.setBuddy(s, number: buddy, name: nil, at: "t", newID: { "i" }).events, into: &s)
        if c == .accepted { fold(Tenclub.receive(s, from: buddy, body: "YES", at: "t", newID: { "w" }).events, into: &s) }
        if c == .stopped { fold(Tenclub.receive(s, from: buddy, body: "STOP", at: "t", newID: { "x" }).events, into: &s) }
        XCTAssertEqual(s.buddy?.consent, c)
        return s
    }

    func testKeywordsAreCaseInsensitiveAndTrimmed() {
        XCTAssertEqual(Tenclub.keyword(" yes "), .yes)
        XCTAssertEqual(Tenclub.keyword("Yes\n"), .yes)
        for w in ["STOP", "stopall", "Unsubscribe", "CANCEL", "end", "QUIT"] { XCTAssertEqual(Tenclub.keyword(w), .stop, w) }
        XCTAssertEqual(Tenclub.keyword("start"), .start)
        XCTAssertEqual(Tenclub.keyword("HELP"), .help)
        XCTAssertEqual(Tenclub.keyword("yes please"), .yes, "a keyword anywhere in a short reply (KeywordTests has the table)")
        XCTAssertEqual(Tenclub.keyword("stop it"), .stop)
        // As phones send them: end punctuation, quotes, any kind of space.
        for w in ["Yes.", "yes!", "YES\u{00A0}", "\u{00A0}yes", "\"YES\"", "“Yes”", "yes!!", "Y", "YES\u{200B}"] { XCTAssertEqual(Tenclub.keyword(w), .yes, w) }
        for w in ["Stop.", "STOP!", "stop\u{3000}", "'stop'", "Cancel."] { XCTAssertEqual(Tenclub.keyword(w), .stop, w) }
        XCTAssertEqual(Tenclub.keyword("Help?"), .help)
        XCTAssertEqual(Tenclub.keyword("."), .other)
        XCTAssertEqual(Tenclub.keyword("no."), .other)
    }

    /// The consent state machine as a table: every keyword in every state.
    func testConsentTable() {
        typealias Row = (Tenclub.Consent?, String, effect: String, after: Tenclub.Consent?, queued: String?)
        let rows: [Row] = [
            (nil, "YES", "ignored", nil, nil), (nil, "START", "ignored", nil, nil),
            (nil, "STOP", "stopped", nil, nil), (nil, "HELP", "ignored", nil, nil), (nil, "hello", "ignored", nil, nil),
            (.invited, "YES", "accepted", .accepted, "welcome"), (.invited, "START", "accepted", .accepted, "welcome"),
            (.invited, "STOP", "stopped", .stopped, nil), (.invited, "HELP", "help_queued", .invited, "help"),
            (.invited, "hello", "ignored", .invited, nil),
            (.accepted, "YES", "ignored", .accepted, nil), (.accepted, "START", "ignored", .accepted, nil),
            (.accepted, "STOP", "stopped", .stopped, nil), (.accepted, "HELP", "help_queued", .accepted, "help"),
            (.accepted, "hello", "ignored", .accepted, nil),
            (.stopped, "YES", "accepted", .accepted, "welcome"), (.stopped, "START", "accepted", .accepted, "welcome"),
            (.stopped, "STOP", "ignored", .stopped, nil), (.stopped, "HELP", "ignored", .stopped, nil),
            (.stopped, "hello", "ignored", .stopped, nil),
        ]
        for row in rows {
            var s = state(consent: row.0)
            let before = s.outbox.count
            let (events, report) = Tenclub.receive(s, from: buddy, body: row.1, at: "t", newID: { "n" })
            fold(events, into: &s)
            XCTAssertEqual(report.effect, row.effect, "\(String(describing: row.0)) + \(row.1)")
            XCTAssertEqual(s.buddy?.consent, row.after, "\(String(describing: row.0)) + \(row.1)")
            XCTAssertEqual(s.outbox.count > before ? s.outbox.last?.kind : nil, row.queued, "\(String(describing: row.0)) + \(row.1)")
        }
    }

    func testOtherNumbersChangeNothingButTheirStopIsKept() {
        var s = state(consent: .accepted)
        for body in ["YES", "HELP", "START", "hi"] {
            let (events, report) = Tenclub.receive(s, from: other, body: body, at: "t", newID: { "n" })
            XCTAssertEqual(report.effect, "ignored", body)
            XCTAssertTrue(events.isEmpty, body)
        }
        let (events, _) = Tenclub.receive(s, from: other, body: "STOP", at: "t", newID: { "n" })
        fold(events, into: &s)
        XCTAssertEqual(s.buddy?.consent, .accepted)
        XCTAssertTrue(s.suppressed.contains(other.e164))
        // Setting that number as buddy later sends nothing.
        let set = Tenclub.setBuddy(s, number: other, name: nil, at: "t", newID: { "n" })
        fold(set.events, into: &s)
        XCTAssertEqual(s.buddy?.consent, .stopped)
        XCTAssertFalse(set.events.contains { $0["type"]?.string == "sms_queued" })
        XCTAssertNotNil(set.note)
    }

    func testAlertOnlyWhenTodayCrossesTenAndOnlyOnce() {
        var s = state(consent: .accepted)
        func unlock(_ d: Day, today t: Day) -> JSONObject? {
            s.apply(["type": "unlock", "id": "u", "day": .string(d.description)])
            let a = Tenclub.alert(s, day: d, today: t, at: "t")
            if let a = a { s.apply(a) }
            return a
        }
        for _ in 0..<10 { XCTAssertNil(unlock(today, today: today)) }
        XCTAssertNotNil(unlock(today, today: today))
        for _ in 0..<5 { XCTAssertNil(unlock(today, today: today)) }
        // Late unlocks for a day that is already over never alert.
        let yesterday = today.adding(days: -1)
        for _ in 0..<15 { XCTAssertNil(unlock(yesterday, today: today)) }
        XCTAssertEqual(s.outbox.filter { $0.kind == "alert" }.count, 1)
    }

    func testMessageTexts() {
        XCTAssertTrue(Tenclub.invitationText.hasPrefix("Hi there, your friend has requested that you help them manage their screentime"))
        XCTAssertTrue(Tenclub.invitationText.contains("respond with \"YES\""))
        XCTAssertTrue(Tenclub.alertText.contains("your friend has exceeded their limit for today"))
        XCTAssertFalse(Tenclub.alertText.contains("yourhkh"))
    }

    /// Property, over random interleavings drawn by a seeded generator of
    /// cron runs (`sms deliver` every minute, overlapping, its sender slow,
    /// failing or hung, the run killed at any step; `rollover` at midnight,
    /// sometimes missed), consent changes (YES, STOP, START, HELP as phones
    /// send them, from the buddy and from others; buddy set, change and
    /// remove) and unlocks: every text is handed to the sending command at
    /// most once; only to the buddy; nothing after STOP; nothing but the
    /// invitation and HELP answers without YES; no alert for a past day, and
    /// at most one alert a day.
    func testEveryTextAtMostOnceNoneWithoutYesNoneAfterStopNoneForAPastDay() {
        let numbers = [buddy, other, try! PhoneNumber.parseUS("646-555-0100")]
        let zone = try! Zone.named("America/New_York")
        let timeout = Int64(Tenclub.defaultSendTimeoutSeconds)
        var totals: [String: Int] = [:]
        struct Run {
            var queue: [String]
            var command: (id: String, ends: Int64, status: Int32)?
        }
        for seed in 0..<150 {
            var rng = SeededRandom(seed: UInt64(seed))
            var store = MemoryStore<TenclubState>()
            var now = zone.startOfDay(today).ms + 8 * 3_600_000
            var day: Day { zone.day(of: Instant(ms: now)) }
            var nextID = 0
            func newID() -> String { nextID += 1; return "m\(nextID)" }
            // The oracle: consent as the texts and the buddy changes say.
            var stopped = Set<String>()
            var buddyNumber: String? = nil
            var accepted = false
            var handed: [String: Int] = [:]
            var alertDays: [Day: Int] = [:]
            var runs: [Run] = []
            func finish(_ i: Int) {
                guard let c = runs[i].command else { return }
                store.write(at: c.ends) { $0.record(Tenclub.outcome(c.id, c.status == Subprocess.timedOut ? .timedOut : .exited(c.status), at: "t")) }
                runs[i].command = nil
            }
            for _ in 0..<400 {
                let next = now + Int64.random(in: 0...1_200_000, using: &rng)
                for i in runs.indices where (runs[i].command?.ends ?? .max) <= next { finish(i) }
                let before = day
                now = next
                if day != before, Int.random(in: 0..<4, using: &rng) > 0 {
                    let d = day
                    store.write(at: now) { tx in
                        for e in Tenclub.expiredAlerts(tx.state, today: d, at: "t") { tx.record(e) }
                        for c in Tenclub.daysToClose(tx.state, today: d) { tx.record(["type": "day_closed", "day": .string(c.description)]) }
                    }
                }
                switch Int.random(in: 0..<100, using: &rng) {
                case 0..<30:
                    // An unlock now, or (now and then) a late one for yesterday.
                    let d = Int.random(in: 0..<6, using: &rng) == 0 ? day.adding(days: -1) : day
                    let (td, id) = (day, newID())
                    store.write(at: now) { tx in
                        tx.record(["type": "unlock", "id": .string(id), "day": .string(d.description)])
                        if let a = Tenclub.alert(tx.state, day: d, today: td, at: "t") {
                            XCTAssertEqual(d, td, "seed \(seed): an alert queued for a day that is not today")
                            tx.record(a)
                        }
                    }
                case 30..<50:
                    let n = numbers[Int.random(in: 0..<numbers.count, using: &rng)]
                    let body = ["YES", "Yes.", "yes!", "YES\u{00A0}", "Y", "STOP", "Stop.", "cancel", "START", "HELP", "help?", "ok", "stop please"]
                        .randomElement(using: &rng)!
                    switch Tenclub.keyword(body) {
                    case .stop:
                        stopped.insert(n.e164)
                        if n.e164 == buddyNumber { accepted = false }
                    case .yes, .start:
                        if n.e164 == buddyNumber { accepted = true; stopped.remove(n.e164) }
                        else if stopped.contains(n.e164) { stopped.remove(n.e164) }
                    default: break
                    }
                    store.write(at: now) { tx in for e in Tenclub.receive(tx.state, from: n, body: body, at: "t", newID: newID).events { tx.record(e) } }
                case 50..<56:
                    let n = numbers[Int.random(in: 0..<numbers.count, using: &rng)]
                    if n.e164 != buddyNumber {
                        buddyNumber = n.e164
                        accepted = false
                    }
                    store.write(at: now) { tx in for e in Tenclub.setBuddy(tx.state, number: n, name: nil, at: "t", newID: newID).events { tx.record(e) } }
                case 56..<58:
                    buddyNumber = nil
                    accepted = false
                    store.write(at: now) { tx in for e in Tenclub.removeBuddy(tx.state, at: "t") { tx.record(e) } }
                case 58..<75:
                    runs.append(Run(queue: store.state.outbox.map(\.id)))
                case 75..<96:
                    // A run claims its next text and hands it over in one step.
                    guard !runs.isEmpty else { continue }
                    let i = Int.random(in: 0..<runs.count, using: &rng)
                    guard runs[i].command == nil else { continue }
                    while !runs[i].queue.isEmpty {
                        let id = runs[i].queue.removeFirst()
                        let (t, td) = (Instant(ms: now), day)
                        let until = t.adding(seconds: timeout + Int64(Tenclub.claimMarginSeconds))
                        guard let c = store.write(at: now, { tx -> (Tenclub.Delivery, Tenclub.OutMessage)? in
                            guard let c = Tenclub.claim(tx.state, id, claim: "c", until: until, now: t, today: td, retryUnknown: false, at: "t") else { return nil }
                            for e in c.events { tx.record(e) }
                            return (c.delivery, c.message)
                        }), c.0 == .send else { continue }
                        let m = c.1
                        let seconds = Int64.random(in: 1...(timeout * 3 / 2), using: &rng)
                        let status: Int32 = seconds > timeout ? Subprocess.timedOut : Int.random(in: 0..<4, using: &rng) == 0 ? 7 : 0
                        runs[i].command = (id, now + min(seconds, timeout) * 1000, status)
                        guard status != 7 else { totals["failed", default: 0] += 1; break }
                        // Handed over (a timed-out sender may well have sent it).
                        handed[id, default: 0] += 1
                        totals[m.kind, default: 0] += 1
                        let to = m.to.e164
                        XCTAssertEqual(to, buddyNumber, "seed \(seed): \(m.kind) to a number that is not the buddy")
                        XCTAssertFalse(stopped.contains(to), "seed \(seed): \(m.kind) after STOP")
                        switch m.kind {
                        case "invite": XCTAssertFalse(accepted, "seed \(seed): an invitation after YES")
                        case "help": break
                        default: XCTAssertTrue(accepted, "seed \(seed): \(m.kind) without YES")
                        }
                        if m.kind == "alert", let d = m.day {
                            // On its day in the day's words, or the day after naming it; never later.
                            XCTAssertTrue(d == day || d.adding(days: 1) == day, "seed \(seed): an alert for \(d) handed over on \(day)")
                            XCTAssertEqual(m.body, d == day ? Tenclub.alertText : Tenclub.lateAlertText(d), "seed \(seed)")
                            if d != day { totals["late", default: 0] += 1 }
                            alertDays[d, default: 0] += 1
                        }
                        break
                    }
                    if runs[i].command == nil && runs[i].queue.isEmpty { runs.remove(at: i) }
                case 96..<99:
                    guard !runs.isEmpty else { continue }
                    runs.remove(at: Int.random(in: 0..<runs.count, using: &rng))
                    totals["killed", default: 0] += 1
                default:
                    now += Int64.random(in: 0...3, using: &rng) * 86_400_000  // days without cron
                }
            }
            for (id, n) in handed where n > 1 { XCTFail("seed \(seed): text \(id) handed over \(n) times") }
            for (d, n) in alertDays where n > 1 { XCTFail("seed \(seed): \(n) alerts for \(d)") }
            totals["dropped", default: 0] += store.batches.flatMap(\.events).filter { $0["type"]?.string == "sms_dropped" }.count
            totals["unknown", default: 0] += store.batches.flatMap(\.events).filter { $0["type"]?.string == "sms_unknown" }.count
        }
        // The generator must reach every case, or the property proves little.
        for k in ["invite", "welcome", "help", "alert", "failed", "killed", "dropped", "unknown"] {
            XCTAssertGreaterThan(totals[k] ?? 0, 10, "\(k): \(totals)")
        }
        XCTAssertGreaterThan(totals["late"] ?? 0, 2, "alerts handed over the day after: \(totals)")
    }

    func testSnapshotRoundTripKeepsBuddyAndOutbox() throws {
        var s = state(consent: .accepted)
        fold([["type": "consent", "number": .string(other.e164), "state": "stopped"],
              ["type": "day_closed", "day": "2026-11-20"],
              ["type": "inbound", "key": "k1"]], into: &s)
        var back = TenclubState(full: true)
        for l in s.hotSnapshot() { try back.restoreHot(l) }
        for l in s.coldSnapshot() { try back.restoreCold(l) }
        XCTAssertEqual(back.buddy, s.buddy)
        XCTAssertEqual(back.outbox, s.outbox)
        XCTAssertEqual(back.suppressed, s.suppressed)
        XCTAssertEqual(back.closedThrough, s.closedThrough)
        XCTAssertEqual(back.inboundSeen, ["k1"])
    }
}
