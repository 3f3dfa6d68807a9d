import XCTest
@testable import NudgeKit

/// rewards' state: usage batches, the cold per-day part, and its snapshot
/// lines kept unparsed until a command touches them.
final class RewardsStateTests: XCTestCase {
    typealias E = RewardsEngine
    let base: Int64 = 1_795_000_000 - 1_795_000_000 % 86_400  // a UTC midnight

    func testSpanCodecRoundTripsAndRejectsMalformedInput() throws {
        var rng = SeededRandom(seed: 11)
        for _ in 0..<1000 {
            var spans = (0..<Int.random(in: 0...30, using: &rng)).map { _ -> E.Span in
                let a = Int64.random(in: -5_000...2_000_000_000, using: &rng)
                return E.Span(a, a + Int64.random(in: 0...7200, using: &rng))
            }
            spans.sort()
            XCTAssertEqual(SpanCodec.decode(SpanCodec.encode(spans)), spans)
            let o: JSONObject = ["v": SpanCodec.encode(spans)]
            XCTAssertEqual(SpanCodec.decode(try JSON.parse(o.serialized).object?["v"]), spans, "through JSON text")
        }
        XCTAssertEqual(SpanCodec.encode([E.Span(100, 130), E.Span(150, 160)]), .array([100, 30, 50, 10]))
        for bad: JSON in [.array([100]), .array([100, -1]), .array([100, 30, -5, 10]), .array(["x", 1]), "100"] {
            XCTAssertEqual(SpanCodec.decode(bad), [], "\(bad)")
        }
    }

    func testMergeAndLookUpSortedSessions() {
        var rng = SeededRandom(seed: 12)
        for _ in 0..<1000 {
            func some() -> [E.Span] {
                (0..<Int.random(in: 0...15, using: &rng)).map { _ -> E.Span in
                    let a = Int64.random(in: 0...500, using: &rng)
                    return E.Span(a, a + Int64.random(in: 0...50, using: &rng))
                }.sorted()
            }
            var a = some()
            let b = some()
            let expected = (a + b).sorted()
            E.mergeSorted(&a, b)
            XCTAssertEqual(a, expected)
            let probe = E.Span(Int64.random(in: 0...500, using: &rng), 0)
            let x = Bool.random(using: &rng) && !a.isEmpty ? a.randomElement(using: &rng)! : E.Span(probe.start, probe.start + Int64.random(in: 0...50, using: &rng))
            XCTAssertEqual(E.containsSorted(a, x), a.contains(x))
        }
    }

    func testRewardTimeOverlappingCountsOnce() {
        var day = E.Day()
        let s = E.Settings()
        func reward(_ a: Int64, _ b: Int64) -> E.Outcome {
            E.evaluate(E.Session(child: "c", app: "Minecraft", span: E.Span(base + a, base + b)), category: .reward, rate: 60, afk: [],
                       day: &day, settings: s, now: base + 86_400)
        }
        XCTAssertEqual(reward(0, 600).rewardSeconds, 600)
        XCTAssertEqual(reward(300, 900).rewardSeconds, 300, "the overlap counts once")
        XCTAssertEqual(reward(100, 200).reason, "overlap")
        XCTAssertEqual(day.rewardSeconds, 900)
        XCTAssertEqual(day.rewarded, [E.Span(base, base + 900)])
    }

    /// Random ingests as usage_day events: a state rebuilt from a snapshot
    /// (cold days kept raw) plus the later events equals the state that
    /// applied every event, day by day and byte for byte.
    func testColdDaysKeptRawEqualTheFoldedOnes() throws {
        var rng = SeededRandom(seed: 13)
        let children = ["c1", "c2"]
        let apps: [(String, E.Category?)] = [("Duolingo", .learning), ("Minecraft", .reward), ("Firefox", .ignore), ("Mystery", nil)]
        var s = E.Settings()
        s.minSessionMinutes = 0
        for round in 0..<40 {
            var sim = RewardsState(full: true)
            var events: [JSONObject] = []
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                let child = children.randomElement(using: &rng)!
                let dayStart = base + 86_400 * Int64.random(in: 0...2, using: &rng)
                let day = Zone.utc.day(of: Instant(seconds: dayStart))
                let seen = sim.usageDay(child, day)
                var ledger = sim.ledger(child, day)
                var batch = Rewards.DayBatch(child: child, day: day)
                var sessions: [(Int, E.Span)] = (0..<Int.random(in: 1...25, using: &rng)).map { _ in
                    let a = dayStart + Int64.random(in: 0...80_000, using: &rng)
                    return (Int.random(in: 0..<apps.count, using: &rng), E.Span(a, a + Int64.random(in: 1...3600, using: &rng)))
                }
                sessions.sort { ($0.1.start, $0.0, $0.1.end) < ($1.1.start, $1.0, $1.1.end) }
                var last: (Int, E.Span)? = nil
                for (ai, span) in sessions {
                    defer { last = (ai, span) }
                    let (name, cat) = apps[ai]
                    if let l = last, l.0 == ai, l.1 == span { continue }
                    if seen.hasSession(app: name.lowercased(), span) { continue }
                    let o = E.evaluate(E.Session(child: child, app: name, span: span), category: cat, rate: 60, afk: [], day: &ledger,
                                       settings: s, now: base + 10 * 86_400)
                    batch.add(app: name, key: name.lowercased(), category: cat, o, reason: o.reason)
                }
                guard batch.added > 0 else { continue }
                let e = batch.event(carry: ledger.units)
                sim.apply(e)
                events.append(try XCTUnwrap(JSON.parse(e.serialized).object))  // as a later run reads it
            }
            let k = Int.random(in: 0...events.count, using: &rng)
            var before = RewardsState(full: true)
            for e in events[..<k] { before.apply(e) }
            var cold = [UInt8]()
            before.writeColdSnapshot(into: &cold)
            var restored = RewardsState(full: true)
            for h in before.hotSnapshot() { try restored.restoreHot(try XCTUnwrap(JSON.parse(h.serialized).object)) }
            var lineStart = 0
            for (i, b) in cold.enumerated() where b == 0x0A {
                XCTAssertTrue(restored.restoreColdRaw(cold[lineStart..<i]), "round \(round): a cold line is kept raw")
                lineStart = i + 1
            }
            for e in events[k...] { restored.apply(e) }
            for c in children {
                XCTAssertEqual(restored.usageDays(c), sim.usageDays(c), "round \(round)")
                for d in sim.usageDays(c) {
                    XCTAssertEqual(restored.usageDay(c, d), sim.usageDay(c, d), "round \(round) \(c) \(d)")
                    XCTAssertEqual(restored.ledger(c, d), sim.ledger(c, d), "round \(round) \(c) \(d)")
                    let u = sim.usageDay(c, d)
                    XCTAssertEqual(u.apps.reduce(0) { $0 + $1.sessions }, u.sessions.values.reduce(0) { $0 + $1.count })
                    XCTAssertEqual(u.learned.reduce(0) { $0 + $1.seconds }, sim.totals(c, d).learningSeconds)
                }
                XCTAssertEqual(restored.balance[c], sim.balance[c])
                XCTAssertEqual(restored.recent[c], sim.recent[c])
            }
            var a = [UInt8](), b = [UInt8]()
            restored.writeColdSnapshot(into: &a)
            sim.writeColdSnapshot(into: &b)
            XCTAssertTrue(a == b, "round \(round): the snapshot's cold part is the same, raw or parsed")
        }
    }

    func testOlderSingleSessionEventsStillCount() {
        var st = RewardsState(full: true)
        st.apply(["type": "usage", "child": "c1", "day": "2026-11-20", "app": "Duolingo", "start": 100, "end": 700, "category": "learning",
                  "reason": "counted", "learning_s": 600, "reward_s": 0, "points": 10, "carry": 0, "counted": .array([.array([100, 700])]),
                  "key": "c1|duolingo|100|700"])
        let d = Day(year: 2026, month: 11, day: 20)
        XCTAssertEqual(st.balance["c1"], 10)
        XCTAssertTrue(st.usageDay("c1", d).hasSession(app: "duolingo", E.Span(100, 700)), "still deduplicated")
        XCTAssertEqual(st.ledger("c1", d).counted, [E.Span(100, 700)])
    }
}
