import XCTest
@testable import NudgeKit

/// Dates that matter: the day an occasion falls on each year (Feb 29 on
/// Feb 28 in a common year), its reminder days ahead across a year's end,
/// the forms a date is written in, and the day's draw holding its reminder.
final class PlayaDatesTests: XCTestCase {
    let zone = try! Zone.named("America/New_York")
    func day(_ s: String) -> Day { Day.parse(s)! }

    func testLeapDaysAndParsing() {
        let leap = Playa.Occasion(label: "birthday", month: 2, day: 29, year: 2000)
        XCTAssertEqual(leap.on(year: 2027), day("2027-02-28"))
        XCTAssertEqual(leap.on(year: 2028), day("2028-02-29"))
        XCTAssertEqual(leap.next(onOrAfter: day("2027-03-01")), day("2028-02-29"))
        for (s, m, d, y) in [("1990-03-14", 3, 14, 1990 as Int?), ("03-14", 3, 14, nil), ("--03-14", 3, 14, nil), ("--0314", 3, 14, nil),
                             ("19900314", 3, 14, 1990), ("02-29", 2, 29, nil), ("2000-02-29", 2, 29, 2000)] {
            let p = Playa.Occasion.parseDate(s)
            XCTAssertEqual(p?.month, m, s)
            XCTAssertEqual(p?.day, d, s)
            XCTAssertEqual(p?.year, y, s)
        }
        for s in ["", "1990-02-30", "2001-02-29", "13-01", "00-10", "3/14", "03-14-1990", "1799-01-01", "99999-01-01", "０３-１４", "--03-14-"] {
            XCTAssertNil(Playa.Occasion.parseDate(s), s)
        }
    }

    /// Over random dates, reminders and days: a reminder day is exactly
    /// `before` days ahead of an occurrence, one a year, and the JSON form
    /// reads back the same.
    func testRemindersProperties() {
        var rng = SeededRandom(seed: 43)
        for _ in 0..<2000 {
            let m = Int.random(in: 1...12, using: &rng)
            let d = Int.random(in: 1...Day.daysInMonth(year: 2000, month: m), using: &rng)
            let o = Playa.Occasion(label: "x", month: m, day: d, year: Bool.random(using: &rng) ? 1980 + Int.random(in: 0...40, using: &rng) : nil,
                                   before: Int.random(in: 0...Playa.Occasion.maxBefore, using: &rng))
            if let y = o.year, d > Day.daysInMonth(year: y, month: m) { continue }
            let start = day("2026-01-01").adding(days: Int.random(in: 0...3000, using: &rng))
            var hits: [Day] = []
            var t = start
            for _ in 0..<400 {
                if let occ = o.occurrence(remindedOn: t) {
                    XCTAssertEqual(occ.adding(days: -o.before), t)
                    XCTAssertEqual(occ.month, m)
                    XCTAssertTrue(occ.day == d || (m == 2 && d == 29 && occ.day == 28))
                    hits.append(t)
                }
                t = t.adding(days: 1)
            }
            XCTAssertTrue((1...2).contains(hits.count), "\(o) from \(start): \(hits)")
            if hits.count == 2 { XCTAssertGreaterThanOrEqual(hits[1] - hits[0], 365) }
            XCTAssertEqual(Playa.Occasion.from(o.json), o)
        }
    }

    func testTheDaysDrawHoldsTheReminderAndAScheduleChangeLeavesIt() {
        var r = Playa.Recipient(id: "r1", name: "Ana", platform: .sms, phone: PhoneNumber(e164: "+14155550132"), username: nil, paused: false,
                                schedule: .random(2), messages: [], drawSeed: 5)
        r.dates = [Playa.Occasion(label: "birthday", month: 1, day: 2, before: 3, messages: ["Happy birthday, Ana!"])]
        XCTAssertEqual(Playa.draw(r, date: day("2026-12-31"), zone: zone).map(\.message), [])
        let evs = Playa.draw(r, date: day("2026-12-30"), zone: zone)
        XCTAssertEqual(evs.map(\.message), ["Happy birthday, Ana!"], "three days before Jan 2, across the year's end")
        XCTAssertEqual(evs.first?.time, TimeOfDay(hour: 9, minute: 0))
        XCTAssertEqual(evs.map(\.id), Playa.draw(r, date: day("2026-12-30"), zone: zone).map(\.id), "the same on every device")
        r.paused = true
        XCTAssertEqual(Playa.draw(r, date: day("2026-12-30"), zone: zone).count, 0)
        r.paused = false
        // Through the journal: a schedule change on the day leaves the reminder.
        var tx = Transaction<PlayaState>(state: PlayaState(full: true))
        tx.record(Playa.saved(r))
        _ = Playa.recordDraw(&tx, r, date: day("2026-12-30"), now: Instant(ms: 0), zone: zone, seed: nil)
        r.messages = [Playa.Message(id: "m1", text: "hi")]
        r.schedule = .fixed([TimeOfDay(hour: 12, minute: 0)])
        tx.record(Playa.saved(r))
        var g = SeededRandom(seed: 1)
        Playa.replan(&tx, r, days: [day("2026-12-30")], now: Instant(ms: 0), today: day("2026-12-30"), zone: zone, reason: "test", rng: &g)
        let pending = tx.state.events.values.filter { $0.status == .pending }.map(\.message).sorted()
        XCTAssertEqual(pending, ["Happy birthday, Ana!", "hi"])
    }

    func testARecipientsDatesAreChecked() throws {
        let base = #"{"id":"r1","name":"Ana","platform":"sms","phone":"+14155550132","schedule":{"mode":"random","per_day":1},"dates":"#
        for bad in [#"[{"label":"birthday","month":2,"day":30}]"#, #"[{"label":"","month":1,"day":1}]"#, #"[{"label":"x","month":13,"day":1}]"#,
                    #"[{"label":"x","month":1,"day":1,"before":61}]"#, #"[{"label":"x","month":2,"day":29,"year":2001}]"#,
                    #"[{"label":"x","month":1,"day":1,"messages":[""]}]"#, #"["birthday"]"#] {
            let o = try XCTUnwrap(JSON.parse(base + bad + "}").object)
            guard case .failure(let e) = Playa.Recipient.from(o) else { XCTFail("\(bad) accepted"); continue }
            XCTAssertTrue(e.message.contains("dates[0] must be"), e.message)
        }
        let twice = try XCTUnwrap(JSON.parse(base + #"[{"label":"Birthday","month":1,"day":1},{"label":"birthday","month":2,"day":1}]}"#).object)
        guard case .failure = Playa.Recipient.from(twice) else { return XCTFail("a label twice") }
        let good = try XCTUnwrap(JSON.parse(base + #"[{"label":"name day","month":6,"day":24,"before":2,"messages":["Boldog névnapot!"]}]}"#).object)
        guard case .success(let r) = Playa.Recipient.from(good) else { return XCTFail("a good date refused") }
        XCTAssertEqual(r.dates.first?.messages, ["Boldog névnapot!"])
    }
}
