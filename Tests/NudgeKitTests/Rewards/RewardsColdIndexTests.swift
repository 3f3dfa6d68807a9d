import XCTest
@testable import NudgeKit

/// A read without the snapshot's cold part folds usage facts by reading the
/// days they touch through the hot part's index (RewardsColdIndex.swift):
/// the same state as a full read, and a line that fails its checksum is
/// never believed. The hot lines read in place (a day's totals) read as the
/// general parser reads them.
final class RewardsColdIndexTests: XCTestCase {
    typealias E = RewardsEngine
    let base: Int64 = 1_795_000_000 - 1_795_000_000 % 86_400  // a UTC midnight
    let now = Instant(seconds: 1_795_000_000 + 30 * 86_400)
    var byline: Rewards.Byline { Rewards.Byline(by: "mum", at: .string(Zone.utc.format(now))) }

    func family() -> RewardsState {
        var s = RewardsState(full: true)
        let events: [JSONObject] = [
            ["type": "family_created", "owner": "mum"], ["type": "child_added", "id": "c1", "name": "Alex"], ["type": "child_added", "id": "c2", "name": "Bo"],
            ["type": "child_added", "id": "c3", "name": "Cy"],
            ["type": "app_set", "name": "Duolingo", "category": "learning"], ["type": "app_set", "name": "Minecraft", "category": "reward"],
            ["type": "app_set", "name": "Firefox", "category": "ignore"], ["type": "setting_set", "key": "min_session_minutes", "value": 5],
            ["type": "setting_set", "key": "max_session_age_days", "value": 3650], ["type": "setting_set", "key": "max_session_minutes", "value": 60],
        ]
        for var e in events { e["by"] = "mum"; s.apply(e) }
        return s
    }

    /// One ingest run through the real pipeline, on `state`; its events.
    func ingest(_ state: inout RewardsState, _ sessions: [(String, String, E.Span)], at ms: Int64, zone: Zone = .utc) -> [JSONObject] {
        var intake = Rewards.Intake()
        for (c, a, span) in sessions {
            guard let ci = intake.child(c, in: state) else { continue }
            intake.raws.append(Rewards.Raw(child: ci, app: intake.app(a), start: span.start, end: span.end))
        }
        var tx = Transaction(state: state, stamp: Stamp(ms: ms, actor: "laptop"))
        _ = Rewards.evaluate(intake, tx: &tx, zone: zone, source: "ndjson", byline: byline, each: false)
        state = tx.state
        return tx.events
    }

    func randomSessions(_ rng: inout SeededRandom, days: ClosedRange<Int64>) -> [(String, String, E.Span)] {
        (0..<Int.random(in: 1...30, using: &rng)).map { _ in
            let a = base + 86_400 * Int64.random(in: days, using: &rng) + Int64.random(in: 0...86_000, using: &rng)
            return (["c1", "c2"].randomElement(using: &rng)!, ["Duolingo", "duolingo", "Minecraft", "Firefox", "Other"].randomElement(using: &rng)!,
                    E.Span(a, a + Int64.random(in: 1...5400, using: &rng)))
        }
    }

    /// The snapshot as the store writes it: hot lines (with the index) and
    /// the cold lines, then {"type":"end"}.
    func snapshot(_ s: RewardsState) -> (hot: [[UInt8]], cold: [UInt8]) {
        var cold = [UInt8]()
        s.writeColdSnapshot(into: &cold)
        let hot = cold.withUnsafeBytes { s.hotSnapshot(cold: $0) }.map { l -> [UInt8] in
            var b = [UInt8]()
            l.write(into: &b)
            return b
        }
        return (hot, cold + Array("{\"type\":\"end\"}\n".utf8))
    }

    /// A state restored as a read restores it: each hot line offered in
    /// place first; in full, every cold line kept raw; else the cold lines
    /// handed over unread.
    func restored(_ snap: (hot: [[UInt8]], cold: [UInt8]), full: Bool) throws -> RewardsState {
        var r = RewardsState(full: full)
        for h in snap.hot where !r.restoreHotRaw(Bytes(h)) { try r.restoreHot(try XCTUnwrap(JSON.parse(h).object)) }
        let cold = FileBytes(copying: snap.cold)
        if full {
            var from = 0
            for (i, b) in snap.cold.enumerated() where b == 0x0A {
                let line = Array(snap.cold[from..<i])
                if line != Array("{\"type\":\"end\"}".utf8) { XCTAssertTrue(r.restoreColdRaw(Bytes(cold, from..<i))) }
                from = i + 1
            }
        } else {
            r.restoreColdSource(cold.all)
        }
        r.finishRestore()
        return r
    }

    /// Random histories, a snapshot of them, then a random tail of facts
    /// (new days, duplicates, held sessions and their approval, and
    /// devices in other zones, whose days are a neighbour of this one's):
    /// folded on a state read without the cold part, the hot lines are
    /// those of a full read and of the writer's own state.
    func testFoldingWithoutTheColdPartGivesTheFullFold() throws {
        var rng = SeededRandom(seed: 2411)
        let zones = [Zone.utc, try Zone.named("AAA-10"), try Zone.named("BBB10")]
        for round in 0..<60 {
            var writer = family()
            var ms = now.ms
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                ms += 1000
                _ = ingest(&writer, randomSessions(&rng, days: 0...6), at: ms)
            }
            let snap = snapshot(writer)
            var lazy = try restored(snap, full: false)
            var full = try restored(snap, full: true)
            XCTAssertEqual(lazy.hotSnapshot().map(\.serialized), writer.hotSnapshot().map(\.serialized), "round \(round): the hot lines read back")
            var tail: [(Stamp, JSONObject)] = []
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                ms += 1000
                var sessions = randomSessions(&rng, days: 0...8)
                for _ in 0..<Int.random(in: 0...3, using: &rng) {
                    if let u = writer.usageDays("c1").randomElement(using: &rng),
                       let (k, spans) = writer.usageDay("c1", u).sessions.randomElement(using: &rng), let s = spans.randomElement(using: &rng) {
                        sessions.append(("c1", k, s))  // a duplicate of a day before the snapshot
                    }
                }
                for e in ingest(&writer, sessions, at: ms, zone: zones.randomElement(using: &rng)!) { tail.append((Stamp(ms: ms, actor: "laptop"), e)) }
                if let f = writer.flags.values.filter({ $0.status == "pending" }).sorted(by: { $0.id < $1.id }).first, Bool.random(using: &rng) {
                    ms += 1000
                    let e: JSONObject = ["type": "flag_decided", "id": .string(f.id), "decision": "approved", "count": true,
                                         "day": .string((f.day ?? Day(year: 2026, month: 11, day: 18)).description), "by": "mum"]
                    writer.apply(e, stamp: Stamp(ms: ms, actor: "laptop"))
                    tail.append((Stamp(ms: ms, actor: "laptop"), e))
                }
            }
            for (stamp, e) in tail {
                let read = try XCTUnwrap(JSON.parse(e.serialized).object)  // as a later run reads it
                lazy.apply(read, stamp: stamp)
                full.apply(read, stamp: stamp)
            }
            XCTAssertFalse(lazy.needsFull, "round \(round): the index had every day the tail touched")
            XCTAssertEqual(lazy.hotSnapshot().map(\.serialized), full.hotSnapshot().map(\.serialized), "round \(round): as a full read")
            XCTAssertEqual(lazy.hotSnapshot().map(\.serialized), writer.hotSnapshot().map(\.serialized), "round \(round): as the writer")
            for c in ["c1", "c2", "c3"] {
                for d in writer.usageDays(c) where lazy.loadCold(c, d) {
                    XCTAssertEqual(lazy.usageDay(c, d), writer.usageDay(c, d), "round \(round) \(c) \(d)")
                }
            }
        }
    }

    /// A byte changed in a cold line the tail's fold reads: the line is not
    /// believed (the reader reads in full, where the store refuses the
    /// snapshot); one changed in a line nothing reads changes nothing.
    func testAChangedColdLineIsNeverBelieved() throws {
        var rng = SeededRandom(seed: 2412)
        for round in 0..<40 {
            var writer = family()
            _ = ingest(&writer, randomSessions(&rng, days: 0...6), at: now.ms)
            _ = ingest(&writer, randomSessions(&rng, days: 0...6), at: now.ms + 1)
            let snap = snapshot(writer)
            guard let day = writer.usageDays("c1").randomElement(using: &rng) else { continue }
            // Where that day's line is, and a byte inside it.
            let text = String(decoding: snap.cold, as: UTF8.self)
            let key = "{\"k\":\"usage\",\"child\":\"c1\",\"day\":\"\(day)\""
            let at = try XCTUnwrap(text.range(of: key)).lowerBound.utf16Offset(in: text)
            let nl = try XCTUnwrap(snap.cold[at...].firstIndex(of: 0x0A))
            var bad = snap
            let k = Int.random(in: at..<nl, using: &rng)
            bad.cold[k] = bad.cold[k] == 0x31 ? 0x32 : 0x31
            if bad.cold == snap.cold { continue }
            let a = day.daysSinceEpoch * 86_400
            let touching: [(String, String, E.Span)] = [("c1", "Duolingo", E.Span(Int64(a) + 40_000, Int64(a) + 40_900))]
            var w2 = writer
            let events = ingest(&w2, touching, at: now.ms + 2)
            var lazy = try restored(bad, full: false)
            for e in events { lazy.apply(try XCTUnwrap(JSON.parse(e.serialized).object), stamp: Stamp(ms: now.ms + 2, actor: "laptop")) }
            XCTAssertTrue(lazy.needsFull, "round \(round): a fold over the changed line \(day) asks for the whole")
            // A fact on a day three days away reads other lines only.
            let far = day.adding(days: -3).daysSinceEpoch * 86_400
            var w3 = writer
            let elsewhere = ingest(&w3, [("c1", "Duolingo", E.Span(Int64(far) + 40_000, Int64(far) + 40_900))], at: now.ms + 2)
            var other = try restored(bad, full: false)
            for e in elsewhere { other.apply(try XCTUnwrap(JSON.parse(e.serialized).object), stamp: Stamp(ms: now.ms + 2, actor: "laptop")) }
            XCTAssertFalse(other.needsFull, "round \(round)")
            XCTAssertEqual(other.hotSnapshot().map(\.serialized), w3.hotSnapshot().map(\.serialized), "round \(round)")
        }
    }

    /// No index (a snapshot written before it), or an index line that
    /// cannot be read: a fact asks for the whole.
    func testWithoutAUsableIndexAFactAsksForTheWhole() throws {
        var rng = SeededRandom(seed: 2413)
        var writer = family()
        _ = ingest(&writer, randomSessions(&rng, days: 0...3), at: now.ms)
        let snap = snapshot(writer)
        var w2 = writer
        let tail = ingest(&w2, [("c1", "Duolingo", E.Span(base + 86_400 + 100, base + 86_400 + 1000))], at: now.ms + 1)
        XCTAssertFalse(tail.isEmpty)
        var withoutIndex = snap
        withoutIndex.hot = snap.hot.filter { !String(decoding: $0, as: UTF8.self).hasPrefix("{\"k\":\"cold_index") }
        var cut = snap
        cut.hot = snap.hot.map { l in
            let s = String(decoding: l, as: UTF8.self)
            return s.hasPrefix("{\"k\":\"cold_index\",\"child\":\"c1\"") ? Array(s.replacingOccurrences(of: ",\"v\":[", with: ",\"v\":[1,").utf8) : l
        }
        for (name, s) in [("no index", withoutIndex), ("an index line that cannot be read", cut)] {
            var lazy = try restored(s, full: false)
            for e in tail { lazy.apply(e, stamp: Stamp(ms: now.ms + 1, actor: "laptop")) }
            XCTAssertTrue(lazy.needsFull, name)
        }
        // A full read needs no index.
        var full = try restored(withoutIndex, full: true)
        for e in tail { full.apply(e, stamp: Stamp(ms: now.ms + 1, actor: "laptop")) }
        XCTAssertFalse(full.needsFull)
        XCTAssertEqual(full.hotSnapshot().map(\.serialized), w2.hotSnapshot().map(\.serialized))
    }

    /// A day's hot line read in place gives the totals the general parser
    /// gives; a line changed anywhere either reads the same way both ways
    /// or is left to the parser.
    func testDayLinesReadInPlaceAsTheParserReadsThem() throws {
        var rng = SeededRandom(seed: 2414)
        func big() -> Int64 { [0, 1, -1, 9, 10, 999_999_999_999_999_999, -999_999_999_999_999_999, Int64.random(in: -100_000...100_000, using: &rng)].randomElement(using: &rng)! }
        for _ in 0..<3000 {
            var o: JSONObject = ["k": "day", "child": .string(["c1", "6c6db37d5e6b", "a b", "é", "x\"y", "\u{1}"].randomElement(using: &rng)!),
                                 "day": .string(["2026-11-21", "2024-02-29", "2026-02-29", "1999-12-31"].randomElement(using: &rng)!),
                                 "learning_s": .int(big()), "reward_s": .int(big()), "points": .int(big()), "carry": .int(big()),
                                 "granted": .int(big()), "adjusted": .int(big())]
            if Bool.random(using: &rng) { o["units"] = .int(big()) }
            var line = [UInt8]()
            o.write(into: &line)
            for variant in 0..<4 {
                var b = line
                if variant > 0 {
                    let k = Int.random(in: 0..<b.count, using: &rng)
                    b[k] = [0x30, 0x39, 0x2D, 0x22, 0x2C, 0x7D, 0x20, 0x5C, 0xC3, UInt8.random(in: 0...255, using: &rng)].randomElement(using: &rng)!
                }
                var fast = RewardsState(full: false)
                let kept = fast.restoreHotRaw(Bytes(b))
                var general = RewardsState(full: false)
                let parsed = (try? JSON.parse(b))?.object
                if let p = parsed { try? general.restoreHot(p) }
                if kept {
                    XCTAssertNotNil(parsed, "read in place, but not JSON: \(String(decoding: b, as: UTF8.self))")
                    XCTAssertEqual(fast.days, general.days, String(decoding: b, as: UTF8.self))
                }
                if variant == 0 && o["child"]?.string?.allSatisfy({ $0.isASCII && $0 != "\"" && $0 >= " " }) == true && Day.parse(o["day"]!.string!) != nil {
                    XCTAssertTrue(kept, "the layout hotSnapshot writes is read in place: \(String(decoding: b, as: UTF8.self))")
                }
            }
        }
    }

    /// The day table (a sorted list per child, lines restored in order
    /// appended) holds what a dictionary of days would, whatever the order
    /// of restores, changes and removals.
    func testTheDayTableIsADictionaryOfDays() {
        var rng = SeededRandom(seed: 2415)
        for round in 0..<500 {
            var table = RewardsState.DayTable()
            var model: [String: [Day: RewardsState.DayTotals]] = [:]
            for _ in 0..<Int.random(in: 0...60, using: &rng) {
                let c = ["c1", "c2", "c3"].randomElement(using: &rng)!
                let d = Day(year: 2026, month: 11, day: Int.random(in: 1...28, using: &rng))
                var t = RewardsState.DayTotals()
                t.points = Int.random(in: -5...500, using: &rng)
                switch Int.random(in: 0...9, using: &rng) {
                case 0...4: table.restore(c, d, t); model[c, default: [:]][d] = t
                case 5, 6: table.set(c, d, t); model[c, default: [:]][d] = t
                case 7, 8: table.update(c, d) { $0.adjusted += 3 }; model[c, default: [:]][d, default: RewardsState.DayTotals()].adjusted += 3
                default: table.remove(c); model[c] = nil
                }
                let probe = Day(year: 2026, month: 11, day: Int.random(in: 1...28, using: &rng))
                XCTAssertEqual(table.totals(c, probe), model[c]?[probe], "round \(round)")
            }
            for c in ["c1", "c2", "c3"] {
                XCTAssertEqual(table[c], model[c].flatMap { $0.isEmpty ? nil : $0 }, "round \(round) \(c)")
                XCTAssertEqual(table.entries(c).map(\.day), (model[c] ?? [:]).keys.sorted(), "round \(round) \(c): in order")
            }
            XCTAssertEqual(Set(table.children), Set(model.filter { !$0.value.isEmpty }.keys), "round \(round)")
        }
    }
}
