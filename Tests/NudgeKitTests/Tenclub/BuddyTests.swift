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
        XCTAssertEqual(Tenclub.keyword("yes please"), .other)
        XCTAssertEqual(Tenclub.keyword("stop it"), .other)
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
            let before = s.unlocks(on: d)
            s.apply(["type": "unlock", "id": "u", "day": .string(d.description)])
            let a = Tenclub.alert(s, day: d, before: before, today: t, at: "t", id: "a")
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

    /// Property: over random sequences of unlocks, inbound texts, buddy
    /// changes, day changes and re-runs of rollover and deliver, no text goes
    /// to a number whose last consent word was not YES/START (but the one
    /// invitation per buddy), none after STOP, and no day gets two alerts.
    func testNoTextWithoutConsentProperty() {
        let numbers = [buddy, other, try! PhoneNumber.parseUS("646-555-0100")]
        var sentKinds: [String: Int] = [:]
        var dropped = 0
        for seed in 0..<300 {
            var rng = SeededRandom(seed: UInt64(seed))
            var s = TenclubState(full: true)
            var day = today
            var nextID = 0
            func newID() -> String { nextID += 1; return "m\(nextID)" }
            var lastWord: [String: Tenclub.Keyword] = [:]
            var invitesAllowed: [String: Int] = [:]
            var invitesSent: [String: Int] = [:]
            var alertsQueued: [Day: Int] = [:]
            var alertsSent: [Day: Int] = [:]
            func record(_ events: [JSONObject]) {
                for e in events {
                    if e["type"]?.string == "sms_queued", e["kind"]?.string == "alert" {
                        let d = Day.parse(e["day"]!.string!)!
                        XCTAssertEqual(d, day, "alert for a day that is not today (seed \(seed))")
                        alertsQueued[d, default: 0] += 1
                    }
                    s.apply(e)
                }
            }
            for _ in 0..<120 {
                switch Int.random(in: 0..<100, using: &rng) {
                case 0..<40:
                    let late = Int.random(in: 0..<5, using: &rng) == 0
                    let d = late ? day.adding(days: -1) : day
                    let before = s.unlocks(on: d)
                    record([["type": "unlock", "id": .string(newID()), "day": .string(d.description)]])
                    if let a = Tenclub.alert(s, day: d, before: before, today: day, at: "t", id: newID()) { record([a]) }
                case 40..<62:
                    let n = numbers[Int.random(in: 0..<numbers.count, using: &rng)]
                    let body = ["YES", "yes ", "STOP", "Cancel", "START", "HELP", "ok?", "stop please"].randomElement(using: &rng)!
                    let k = Tenclub.keyword(body)
                    let (events, _) = Tenclub.receive(s, from: n, body: body, at: "t", newID: newID)
                    if k == .yes || k == .start || k == .stop {
                        // The oracle: consent words count when the code honours them.
                        if events.contains(where: { $0["type"]?.string == "consent" }) { lastWord[n.e164] = k }
                    }
                    record(events)
                case 62..<70:
                    let n = numbers[Int.random(in: 0..<numbers.count, using: &rng)]
                    if s.buddy?.number != n { invitesAllowed[n.e164, default: 0] += 1 }
                    record(Tenclub.setBuddy(s, number: n, name: nil, at: "t", newID: newID).events)
                case 70..<73:
                    if s.buddy != nil { record([["type": "buddy_removed"]]) }
                case 73..<80:
                    day = day.adding(days: 1)
                    for d in Tenclub.daysToClose(s, today: day) {
                        record([["type": "day_closed", "day": .string(d.description)]])
                    }
                    XCTAssertTrue(Tenclub.daysToClose(s, today: day).isEmpty, "rollover twice closes nothing new")
                default:
                    // deliver, with a sender that fails now and then
                    for m in s.outbox {
                        if let why = Tenclub.dropReason(s, m, today: day) {
                            dropped += 1
                            record([["type": "sms_dropped", "id": .string(m.id), "reason": .string(why)]])
                            continue
                        }
                        if Int.random(in: 0..<4, using: &rng) == 0 {
                            record([["type": "sms_failed", "id": .string(m.id)]])
                            continue
                        }
                        let to = m.to.e164
                        if m.kind == "invite" {
                            invitesSent[to, default: 0] += 1
                            XCTAssertLessThanOrEqual(invitesSent[to]!, invitesAllowed[to] ?? 0, "seed \(seed): a second invitation")
                            XCTAssertNotEqual(lastWord[to], .stop, "seed \(seed): invitation after STOP")
                        } else {
                            XCTAssertTrue(lastWord[to] == .yes || lastWord[to] == .start, "seed \(seed): \(m.kind) to \(to) without YES")
                        }
                        if m.kind == "alert" { alertsSent[m.day!, default: 0] += 1 }
                        sentKinds[m.kind, default: 0] += 1
                        record([["type": "sms_sent", "id": .string(m.id)]])
                    }
                }
            }
            XCTAssertTrue(alertsQueued.values.allSatisfy { $0 <= 1 }, "seed \(seed): two alerts queued for a day")
            XCTAssertTrue(alertsSent.values.allSatisfy { $0 <= 1 }, "seed \(seed): two alerts sent for a day")
        }
        // The generator must reach every kind of message, or the property proves little.
        for kind in ["invite", "welcome", "help", "alert"] { XCTAssertGreaterThan(sentKinds[kind] ?? 0, 5, kind) }
        XCTAssertGreaterThan(dropped, 20)
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
