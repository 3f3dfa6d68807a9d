import XCTest
@testable import NudgeKit

/// Cadences and the contact log: the due-day arithmetic as properties over
/// random cadences, bases and days, and the fold's rule that a recorded
/// contact cancels the reminders it makes not due, in either order.
final class PlayaCadenceTests: XCTestCase {
    let zone = try! Zone.named("America/New_York")
    let units: [Playa.Cadence.Unit] = [.day, .week, .month]

    func day(_ s: String) -> Day { Day.parse(s)! }

    func testMonthsKeepTheDayOrTheMonthsLast() {
        let c = Playa.Cadence(count: 1, unit: .month, since: day("2027-01-31"))
        XCTAssertEqual(c.after(day("2027-01-31"), times: 1), day("2027-02-28"))
        XCTAssertEqual(c.after(day("2027-01-31"), times: 2), day("2027-03-31"), "no drift after a short month")
        XCTAssertEqual(c.after(day("2028-01-31"), times: 1), day("2028-02-29"))
        XCTAssertEqual(c.after(day("2026-12-15"), times: 1), day("2027-01-15"))
        XCTAssertEqual(Playa.Cadence.adding(months: -1, to: day("2027-03-31")), day("2027-02-28"))
        XCTAssertEqual(c.firstDue(last: nil), day("2027-02-28"))
        XCTAssertEqual(c.nextDue(last: day("2027-01-31"), onOrAfter: day("2027-03-01")), day("2027-03-31"))
    }

    func testParse() throws {
        let today = day("2026-11-29")
        for (s, n, u) in [("2w", 2, Playa.Cadence.Unit.week), ("14d", 14, .day), ("3m", 3, .month), ("1 month", 1, .month),
                          ("2 weeks", 2, .week), ("10 Days", 10, .day), (" 6w ", 6, .week)] {
            let c = try Playa.Cadence.parse(s, since: today)
            XCTAssertEqual(c.count, n, s)
            XCTAssertEqual(c.unit, u, s)
            XCTAssertEqual(c.since, today)
        }
        for s in ["", "w", "2", "2x", "0d", "367d", "53w", "25m", "-1w", "1.5w", "99999999999999999999d", "2 fortnights", "２w"] {
            XCTAssertThrowsError(try Playa.Cadence.parse(s, since: today), s) { e in
                XCTAssertEqual((e as? ToolError)?.code, .usage, s)
                XCTAssertTrue((e as? ToolError)?.message.contains("--every") ?? false, s)
            }
        }
    }

    /// Over random cadences, bases and days: the next due day is on or after
    /// the day asked, is the base plus k ≥ 1 cadences, and no day between is
    /// due; a contact's own cadence satisfies the days before it is due again.
    func testDueDaysProperties() {
        var rng = SeededRandom(seed: 38)
        for _ in 0..<3000 {
            let u = units.randomElement(using: &rng)!
            let c = Playa.Cadence(count: Int.random(in: Playa.Cadence.limits[u]!, using: &rng) % (u == .day ? 40 : 13) + 1, unit: u,
                                  since: day("2026-01-01").adding(days: Int.random(in: 0...700, using: &rng)))
            let last: Day? = Bool.random(using: &rng) ? c.since.adding(days: Int.random(in: -30...400, using: &rng)) : nil
            let from = c.since.adding(days: Int.random(in: -60...900, using: &rng))
            let next = c.nextDue(last: last, onOrAfter: from)
            let base = last ?? c.since
            XCTAssertGreaterThanOrEqual(next, from)
            XCTAssertGreaterThan(next, base)
            XCTAssertTrue((1...2000).contains { c.after(base, times: $0) == next }, "\(c) \(String(describing: last)) \(from) → \(next)")
            XCTAssertTrue(c.isDue(next, last: last))
            var d = from
            while d < next { XCTAssertFalse(c.isDue(d, last: last), "\(c): \(d) is due before \(next)"); d = d.adding(days: 1) }
            XCTAssertEqual(c.firstDue(last: last), c.after(base, times: 1))
            // A contact on `last` satisfies every day before its first due day, not that day.
            if let l = last {
                let first = c.firstDue(last: l)
                XCTAssertFalse(c.contactSatisfies(l, reminderOn: first))
                XCTAssertTrue(c.contactSatisfies(l, reminderOn: first.adding(days: -1)))
            }
            // JSON round trip.
            XCTAssertEqual(Playa.Schedule.from(Playa.Schedule.every(c).json), .every(c))
        }
    }

    func recipient(_ c: Playa.Cadence) -> Playa.Recipient {
        Playa.Recipient(id: "r1", name: "Ana", platform: .sms, phone: PhoneNumber(e164: "+14155550132"), username: nil, paused: false,
                        schedule: .every(c), messages: [Playa.Message(id: "m1", text: "hi")], drawSeed: 7)
    }

    func contact(_ id: String, _ at: String) -> Playa.Contact {
        let t = RFC3339.parse(at)!.instant
        return Playa.Contact(id: id, recipientID: "r1", at: t, date: zone.day(of: t), via: "call")
    }

    /// The reminder of a due day is cancelled by a contact within a cadence
    /// before it, whether the contact or the draw is folded first; an older
    /// contact arriving late does not move the last contact back.
    func testAContactCancelsTheRemindersItSatisfiesInEitherOrder() {
        let cad = Playa.Cadence(count: 2, unit: .week, since: day("2026-11-01"))
        let r = recipient(cad)
        let d = day("2026-11-15")
        let evs = Playa.draw(r, date: d, zone: zone)
        XCTAssertEqual(evs.count, 1, "due a cadence after it was set")
        XCTAssertEqual(Playa.draw(r, date: d.adding(days: 1), zone: zone).count, 0)
        let c = contact("c1", "2026-11-14T18:00:00-05:00")
        let old = contact("c0", "2026-10-20T09:00:00-04:00")
        for order in 0..<2 {
            var s = PlayaState(full: true)
            s.apply(Playa.saved(r))
            let lines = [Playa.saved(evs[0]), Playa.saved(c)]
            for l in order == 0 ? lines : lines.reversed() { s.apply(l) }
            s.apply(Playa.saved(old))
            XCTAssertEqual(s.events[evs[0].id]?.status, .cancelled, "order \(order)")
            XCTAssertEqual(s.events[evs[0].id]?.error, "in touch on 2026-11-14")
            XCTAssertEqual(s.lastContact["r1"]?.id, "c1", "the latest contact stays the last")
            XCTAssertEqual(s.contacts.count, 2)
            XCTAssertEqual(s.due(at: evs[0].at.adding(minutes: 1), today: d), [])
        }
        // A contact more than a cadence before leaves the reminder due.
        var s = PlayaState(full: true)
        s.apply(Playa.saved(r))
        s.apply(Playa.saved(contact("c2", "2026-10-31T12:00:00-04:00")))
        s.apply(Playa.saved(evs[0]))
        XCTAssertEqual(s.events[evs[0].id]?.status, .pending)
        XCTAssertEqual(s.due(at: evs[0].at.adding(minutes: 1), today: d).map(\.id), [evs[0].id])
        // A schedule by the clock is not a cadence: a contact cancels nothing.
        var fixed = r
        fixed.schedule = .fixed([TimeOfDay(hour: 10, minute: 0)])
        var f = PlayaState(full: true)
        f.apply(Playa.saved(fixed))
        let fe = Playa.draw(fixed, date: d, zone: zone)
        f.apply(Playa.saved(fe[0]))
        f.apply(Playa.saved(c))
        XCTAssertEqual(f.events[fe[0].id]?.status, .pending)
    }

    /// A peer that did not yet know of a contact counts other days due and
    /// draws nothing on this one; its empty draw, folded first, does not
    /// take away the reminder this device drew for its own due day.
    func testAPeersEmptyDrawDoesNotTakeAwayADueReminder() {
        let cad = Playa.Cadence(count: 3, unit: .day, since: day("2026-11-01"))
        let r = recipient(cad)
        let mine = contact("c1", "2026-11-11T12:00:00-05:00")
        let d = day("2026-11-14")
        XCTAssertFalse(cad.isDue(d, last: nil), "the peer, knowing no contact, counts 11-04, 11-07, 11-10, 11-13, 11-16")
        let evs = Playa.draw(r, date: d, zone: zone, last: mine.date)
        XCTAssertEqual(evs.count, 1)
        let peerBatch = Playa.batchID([])
        let myBatch = Playa.batchID(evs)
        var s = PlayaState(full: true)
        s.apply(Playa.saved(r))
        s.apply(Playa.saved(mine))
        s.apply(["type": "generated", "recipient_id": "r1", "date": .string(d.description), "batch": .string(peerBatch)])
        var line = Playa.saved(evs[0])
        line["batch"] = .string(myBatch)
        s.apply(line)
        s.apply(["type": "generated", "recipient_id": "r1", "date": .string(d.description), "batch": .string(myBatch)])
        XCTAssertEqual(s.events[evs[0].id]?.status, .pending)
        XCTAssertEqual(s.due(at: evs[0].at, today: d).map(\.id), [evs[0].id])
        // In the other order too.
        var t = PlayaState(full: true)
        t.apply(Playa.saved(r))
        t.apply(Playa.saved(mine))
        t.apply(line)
        t.apply(["type": "generated", "recipient_id": "r1", "date": .string(d.description), "batch": .string(myBatch)])
        t.apply(["type": "generated", "recipient_id": "r1", "date": .string(d.description), "batch": .string(peerBatch)])
        XCTAssertEqual(t.events[evs[0].id]?.status, .pending)
    }

    /// The last contact survives a snapshot (hot), the whole log a full one
    /// (cold); an erasure takes both.
    func testSnapshotsAndErasureKeepTheLog() throws {
        var s = PlayaState(full: true)
        s.apply(Playa.saved(recipient(Playa.Cadence(count: 1, unit: .month, since: day("2026-10-01")))))
        s.apply(Playa.saved(contact("a", "2026-11-02T10:00:00-05:00")))
        s.apply(Playa.saved(contact("b", "2026-11-20T10:00:00-05:00")))
        var back = PlayaState(full: true)
        for l in s.hotSnapshot() { try back.restoreHot(l) }
        XCTAssertEqual(back.lastContact, s.lastContact)
        for l in s.coldSnapshot() { try back.restoreCold(l) }
        XCTAssertEqual(back.contacts, s.contacts)
        back.apply(["type": "erase", "recipient_id": "r1"])
        XCTAssertTrue(back.lastContact.isEmpty)
        XCTAssertTrue(back.contacts.isEmpty)
        back.apply(Playa.saved(contact("c", "2026-11-21T10:00:00-05:00")))
        XCTAssertTrue(back.contacts.isEmpty, "a contact naming an erased recipient is not folded")
    }

    /// What a peer's journal may hold is checked before it counts: a
    /// contact with no time, a day far from its time, or an unknown way is
    /// not folded.
    func testForgedContactsAreNotFolded() {
        var s = PlayaState(full: true)
        s.apply(Playa.saved(recipient(Playa.Cadence(count: 1, unit: .week, since: day("2026-10-01")))))
        let good = contact("g", "2026-11-02T10:00:00-05:00").json
        var bad: [JSONObject] = []
        for (k, v) in [("at", JSON.string("yesterday")), ("date", "2030-01-01"), ("via", "pigeon"), ("at", "1969-07-20T20:17:00Z"),
                       ("id", ""), ("recipient_id", .null), ("date", .int(3))] {
            var o = good
            o[k] = v
            bad.append(o)
        }
        for o in bad { s.apply(["type": "contacted", "contact": .object(o)]) }
        XCTAssertTrue(s.contacts.isEmpty, "\(s.contacts)")
        s.apply(["type": "contacted", "contact": .object(good)])
        XCTAssertEqual(s.contacts.count, 1)
    }
}
