import XCTest
@testable import NudgeKit

/// The fold of usage facts: a session counts once by its identity (child,
/// app, start, end) whichever device journalled it and how often; what a
/// session comes to is decided by the fold with the batch's stamp as now;
/// a store's usage_day history counts once and its sessions are not
/// counted again as facts.
final class RewardsFactsTests: XCTestCase {
    typealias E = RewardsEngine
    let base: Int64 = 1_795_000_000 - 1_795_000_000 % 86_400  // a UTC midnight
    var day: Day { Zone.utc.day(of: Instant(seconds: base)) }
    var stampMs: Int64 { (base + 2 * 86_400) * 1000 }

    func family(full: Bool = true) -> RewardsState {
        var s = RewardsState(full: full)
        let events: [JSONObject] = [
            ["type": "family_created", "owner": "mum"], ["type": "child_added", "id": "c1", "name": "Alex"],
            ["type": "app_set", "name": "Duolingo", "category": "learning"], ["type": "app_set", "name": "Minecraft", "category": "reward"],
            ["type": "setting_set", "key": "min_session_minutes", "value": 0], ["type": "setting_set", "key": "max_session_age_days", "value": 3650],
        ]
        for var e in events { e["by"] = "mum"; s.apply(e) }
        return s
    }

    /// One device's `sessions` event for Alex's day.
    func facts(_ sessions: [(String, E.Span)], afk: [E.Span] = [], source: String = "ndjson", on d: Day? = nil) -> JSONObject {
        var f = Rewards.SessionFacts(child: "c1", day: d ?? day, source: source)
        for (app, span) in sessions {
            let a = f.apps.firstIndex(of: app) ?? { f.apps.append(app); return f.apps.count - 1 }()
            f.sessions.append((a, span))
        }
        f.afk = afk
        var e = f.event()
        e["by"] = "mum"
        return (try? JSON.parse(e.serialized))?.object ?? e  // as a later run reads it
    }

    func fold(_ s: inout RewardsState, _ e: JSONObject, at ms: Int64, device: String = "laptop") {
        s.apply(e, stamp: Stamp(ms: ms, actor: device))
    }

    /// The same session from two devices, and again from the first: 30
    /// points once, one session seen, one line on the dashboard.
    func testTheSameSessionFromAnyDeviceCountsOnce() {
        var s = family()
        let half = E.Span(base + 3600, base + 5400)
        fold(&s, facts([("Duolingo", half)]), at: stampMs, device: "laptop")
        fold(&s, facts([("duolingo", half)], source: "activitywatch"), at: stampMs + 1, device: "desk")
        fold(&s, facts([("Duolingo", half)]), at: stampMs + 2, device: "laptop")
        XCTAssertEqual(s.balance["c1"], 30)
        XCTAssertEqual(s.lastFold?.duplicates, 1)
        XCTAssertEqual(s.usageDay("c1", day).sessions["duolingo"], [half])
        XCTAssertEqual(s.usageDay("c1", day).apps.map(\.sessions), [1])
        XCTAssertEqual(s.recent["c1"]?.count, 1)
    }

    /// A session one device saw mostly away from the keyboard, and another
    /// device's copy of it without the away time: the copy is the same
    /// session and adds nothing (the engine alone would count the away
    /// time as new learning).
    func testACopyWithoutTheAwayTimeAddsNothing() {
        var s = family()
        let hour = E.Span(base + 3600, base + 7200)
        fold(&s, facts([("Duolingo", hour)], afk: [E.Span(base + 3600 + 600, base + 7200)]), at: stampMs, device: "laptop")
        XCTAssertEqual(s.balance["c1"], 10, "ten minutes at the keyboard")
        fold(&s, facts([("Duolingo", hour)]), at: stampMs + 1, device: "desk")
        XCTAssertEqual(s.balance["c1"], 10)
        XCTAssertEqual(s.lastFold?.lines.map(\.reason), ["duplicate"])
        XCTAssertEqual(s.totals("c1", day).learningSeconds, 600)
    }

    /// Overlapping sessions of one app from two sources count their union once.
    func testOverlappingSessionsFromTwoSourcesCountTheirUnion() {
        var s = family()
        fold(&s, facts([("Duolingo", E.Span(base + 3600, base + 5400))]), at: stampMs, device: "laptop")
        fold(&s, facts([("Duolingo", E.Span(base + 4500, base + 6300))], source: "activitywatch"), at: stampMs + 1, device: "desk")
        XCTAssertEqual(s.totals("c1", day).learningSeconds, 2700)
        XCTAssertEqual(s.balance["c1"], 45)
    }

    /// "now" is the batch's stamp: a session ending after it (plus five
    /// minutes) is held, with a flag id made of the session, so two copies
    /// agree on it and a decision made on one counts on the other.
    func testHeldSessionsHaveTheSameFlagEverywhere() {
        let later = E.Span(base + 3 * 86_400, base + 3 * 86_400 + 1800)
        var a = family(), b = family()
        let laterDay = day.adding(days: 3)
        fold(&a, facts([("Duolingo", later)], on: laterDay), at: stampMs, device: "laptop")
        fold(&b, facts([("Duolingo", later)], on: laterDay), at: stampMs, device: "laptop")
        XCTAssertEqual(a.lastFold?.held, 1)
        XCTAssertEqual(Array(a.flags.keys), Array(b.flags.keys))
        let id = a.flags.keys.first!
        XCTAssertEqual(a.flags[id]?.day, laterDay)
        // The same session journalled again by another device is the held one.
        fold(&a, facts([("Duolingo", later)], on: laterDay), at: stampMs + 1, device: "desk")
        XCTAssertEqual(a.flags.count, 1)
        XCTAssertEqual(a.lastFold?.duplicates, 1)
        let approve: JSONObject = ["type": "flag_decided", "id": .string(id), "decision": "approved", "count": true, "by": "mum"]
        fold(&a, approve, at: stampMs + 2)
        fold(&b, approve, at: stampMs + 2)
        XCTAssertEqual(a.balance["c1"], 30)
        XCTAssertEqual(b.balance["c1"], 30)
        fold(&a, approve, at: stampMs + 3, device: "desk")
        XCTAssertEqual(a.balance["c1"], 30, "approved twice, counted once")
    }

    /// A session folded at a later stamp is judged against that stamp:
    /// the same session is counted when its stamp is after it.
    func testNowIsTheStamp() {
        let s1 = E.Span(base + 86_400, base + 86_400 + 1800)
        var a = family()
        fold(&a, facts([("Duolingo", s1)]), at: (base + 86_400) * 1000, device: "laptop")
        XCTAssertEqual(a.lastFold?.lines.first?.reason, "future")
        var b = family()
        fold(&b, facts([("Duolingo", s1)]), at: (base + 86_400 + 1800) * 1000, device: "laptop")
        XCTAssertEqual(b.lastFold?.lines.first?.reason, "counted")
    }

    /// A store written before facts: its usage_day events count once, and
    /// a session one of them counted, journalled again as a fact, counts
    /// nothing again.
    func testAUsageDayCountedSessionIsNotCountedAgain() throws {
        var s = family()
        let half = E.Span(base + 3600, base + 5400)
        var ledger = s.ledger("c1", day)
        var settings = E.Settings()
        settings.minSessionMinutes = 0
        settings.maxSessionAgeDays = 3650
        let o = E.evaluate(E.Session(child: "c1", app: "Duolingo", span: half), category: .learning, rate: 60, afk: [], day: &ledger,
                           settings: settings, now: base + 86_400)
        var batch = Rewards.DayBatch(child: "c1", day: day)
        batch.add(app: "Duolingo", key: "duolingo", category: .learning, o, reason: o.reason)
        var old = batch.event(ledger)
        old["by"] = "mum"
        s.apply(try XCTUnwrap(JSON.parse(old.serialized).object), stamp: Stamp(ms: stampMs - 10, actor: "oldhost"))
        XCTAssertEqual(s.balance["c1"], 30)
        fold(&s, facts([("Duolingo", half)]), at: stampMs)
        XCTAssertEqual(s.balance["c1"], 30)
        XCTAssertEqual(s.lastFold?.duplicates, 1)
    }

    /// A state read without the cold part folds no fact and says so.
    func testAHotStateLeavesFactsToAFullRead() {
        var s = family(full: false)
        fold(&s, facts([("Duolingo", E.Span(base + 3600, base + 5400))]), at: stampMs)
        XCTAssertTrue(s.needsFull)
        XCTAssertNil(s.balance["c1"])
    }

    /// Malformed facts count nothing.
    func testMalformedFactsAreIgnored() {
        var s = family()
        func raw(_ s: [Int64], day d: String? = nil) -> JSONObject {
            ["type": "sessions", "child": "c1", "day": .string(d ?? day.description), "apps": .array([.string("Duolingo")]),
             "s": .array(s.map(JSON.int)), "by": "mum"]
        }
        for bad in [raw([1, base, 600]), raw([0, base, -5]), raw([0, base]), raw([0, base, 600], day: "nope")] { fold(&s, bad, at: stampMs) }
        XCTAssertNil(s.balance["c1"])
        // Planted by a peer: values whose sums overflow (a trap before, on
        // every device reading the folder), and away spans likewise.
        let max = Int64.max, min = Int64.min
        for bad in [raw([0, base, max]), raw([0, max, 1800, 0, max, 1800]), raw([0, base, 600, 0, max, 5]), raw([0, min, 600]),
                    raw([0, base, 600, 0, min, 5])] { fold(&s, bad, at: stampMs) }
        var afk = raw([0, base, 600])
        afk["afk"] = .array([max, max, max, max].map(JSON.int))
        fold(&s, afk, at: stampMs)
        afk["afk"] = .array([base, 100, max, 5].map(JSON.int))
        fold(&s, afk, at: stampMs + 1)
        XCTAssertEqual(SpanCodec.decode(.array([1_795_298_400, 100, max, 5].map(JSON.int))), [])
        XCTAssertEqual(SpanCodec.decode(.array([min, 100].map(JSON.int))), [])
        // A session under a day far from its start: refused, not counted.
        fold(&s, raw([0, base + 600, 600], day: "2099-12-31"), at: stampMs + 2)
        fold(&s, raw([0, base + 600, 600], day: day.adding(days: -3).description), at: stampMs + 3)
        XCTAssertEqual(s.balance["c1"] ?? 0, 10, "only the two plausible copies above, counted once")
    }

    /// Two devices in zones far apart name the same session's day apart (New
    /// York's evening is Tokyo's next morning): it counts once, and once
    /// whichever day was folded first.
    func testTheSameSessionUnderNeighbouringDaysCountsOnce() {
        let half = E.Span(base + 3600, base + 5400)
        for order in [[0, 1], [1, 0], [0, -1], [-1, 0]] {
            var s = family()
            for (n, shift) in order.enumerated() {
                var e = facts([("Duolingo", half)])
                e["day"] = .string(day.adding(days: shift).description)
                fold(&s, e, at: stampMs + Int64(n), device: n == 0 ? "newyork" : "tokyo")
            }
            XCTAssertEqual(s.balance["c1"], 30, "\(order)")
            XCTAssertEqual(s.lastFold?.duplicates, 1, "\(order)")
        }
    }

    /// An event holding more sessions than an ingest writes in one counts
    /// for nothing whole, and says so; one at the bound counts.
    func testAnEventPastTheCapCountsForNothing() {
        var s = family()
        let n = Rewards.sessionsPerEvent
        let spans = (0..<Int64(n + 1)).map { ("Duolingo", E.Span(base + $0 * 2, base + $0 * 2 + 1)) }
        fold(&s, facts(spans), at: stampMs, device: "desk")
        XCTAssertEqual(s.balance["c1"] ?? 0, 0)
        XCTAssertEqual(s.usageDay("c1", day).sessions["duolingo"] ?? [], [])
        XCTAssertEqual(s.conflicts.last?.text, "a sessions event for Alex on \(day) holds \(n + 1) sessions, more than the \(n) an ingest writes in one: it counts for nothing")
        fold(&s, facts(Array(spans.prefix(n))), at: stampMs + 1, device: "desk")
        XCTAssertEqual(s.usageDay("c1", day).sessions["duolingo"]?.count, n)
    }
}
