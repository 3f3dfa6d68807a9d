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
        var day = E.DayLedger()
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
        s.maxSessionAgeDays = 3650
        for round in 0..<40 {
            var sim = RewardsState(full: true)
            sim.apply(["type": "family_created", "owner": "mum", "by": "mum"])
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
                var e = batch.event(ledger)
                e["by"] = "mum"
                sim.apply(e)
                events.append(try XCTUnwrap(JSON.parse(e.serialized).object))  // as a later run reads it
            }
            let k = Int.random(in: 0...events.count, using: &rng)
            var before = RewardsState(full: true)
            before.apply(["type": "family_created", "owner": "mum", "by": "mum"])
            for e in events[..<k] { before.apply(e) }
            var cold = [UInt8]()
            before.writeColdSnapshot(into: &cold)
            var restored = RewardsState(full: true)
            for h in before.hotSnapshot() { try restored.restoreHot(try XCTUnwrap(JSON.parse(h.serialized).object)) }
            var lineStart = 0
            for (i, b) in cold.enumerated() where b == 0x0A {
                XCTAssertTrue(restored.restoreColdRaw(Bytes(Array(cold[lineStart..<i]))), "round \(round): a cold line is kept raw")
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
        st.apply(["type": "family_created", "owner": "mum", "by": "mum"])
        st.apply(["type": "usage", "by": "mum", "child": "c1", "day": "2026-11-20", "app": "Duolingo", "start": 100, "end": 700, "category": "learning",
                  "reason": "counted", "learning_s": 600, "reward_s": 0, "points": 10, "carry": 0, "counted": .array([.array([100, 700])]),
                  "key": "c1|duolingo|100|700"])
        let d = Day(year: 2026, month: 11, day: 20)
        XCTAssertEqual(st.balance["c1"], 10)
        XCTAssertTrue(st.usageDay("c1", d).hasSession(app: "duolingo", E.Span(100, 700)), "still deduplicated")
        XCTAssertEqual(st.ledger("c1", d).counted, [E.Span(100, 700)])
    }

    // MARK: The ingest pipeline itself, as properties

    /// Which child runs which reward app: by the process's uid and the
    /// app's patterns (a process's kernel name, program, executable or
    /// script); a login two children share goes to the first by id, whatever
    /// order the state holds them in.
    func testRunningRewardAppsByUidAndPattern() {
        var s = RewardsState(full: true)
        let events: [JSONObject] = [["type": "family_created", "owner": "mum"], ["type": "child_added", "id": "c2", "name": "Bo", "login": "shared"],
                                  ["type": "child_added", "id": "c1", "name": "Alex", "login": "shared"], ["type": "child_added", "id": "c3", "name": "Cy", "login": "cy"],
                                  ["type": "app_set", "name": "Minecraft", "category": "reward", "processes": JSON(["java", "mc*"])],
                                  ["type": "app_set", "name": "Roblox", "category": "reward", "processes": JSON(["roblox"])],
                                  ["type": "app_set", "name": "Duolingo", "category": "learning", "processes": JSON(["duo"])]]
        for var e in events {
            e["by"] = "mum"
            s.apply(e)
        }
        func p(_ pid: Int32, _ uid: UInt32, _ comm: String, script: String = "") -> RunningProcess {
            var r = RunningProcess(pid: pid, uid: uid, comm: comm, exe: "")
            r.script = script
            return r
        }
        let procs = [p(1, 1000, "JAVA"), p(2, 1000, "bash", script: "mcserver.sh"), p(3, 1001, "roblox"), p(4, 1002, "roblox"),
                     p(5, 1000, "duo"), p(6, 1001, "java")]
        let uids: [String: UInt32] = ["shared": 1000, "cy": 1001]
        let running = Rewards.runningRewardApps(s, procs, uid: { uids[$0] })
        XCTAssertEqual(running.mapValues { $0.mapValues { $0.map(\.pid) } },
                       ["c1": ["Minecraft": [1, 2]], "c3": ["Roblox": [3], "Minecraft": [6]]],
                       "no uid, no child (4); a learning app is not a reward app (5)")
    }

    func family() -> RewardsState {
        var s = RewardsState(full: true)
        let events: [JSONObject] = [
            ["type": "family_created", "owner": "mum"], ["type": "child_added", "id": "c1", "name": "Alex"], ["type": "child_added", "id": "c2", "name": "Bo"],
            ["type": "app_set", "name": "Duolingo", "category": "learning"], ["type": "app_set", "name": "Khan Academy", "category": "learning"],
            ["type": "app_set", "name": "Minecraft", "category": "reward"], ["type": "app_set", "name": "Firefox", "category": "ignore"],
            ["type": "setting_set", "key": "min_session_minutes", "value": 0], ["type": "setting_set", "key": "max_points_per_day", "value": 100_000],
            ["type": "setting_set", "key": "max_session_age_days", "value": 3650],
        ]
        for var e in events { e["by"] = "mum"; s.apply(e) }  // the parent's changes
        return s
    }

    let now = Instant(seconds: 1_795_000_000 + 30 * 86_400)
    let byline = Rewards.Byline(by: "mum", at: .string(Zone.utc.format(Instant(seconds: 1_795_000_000 + 30 * 86_400))))

    typealias Sess = (child: String, app: String, span: E.Span)

    /// One ingest run through the real pipeline; returns its records and events.
    func ingest(_ state: inout RewardsState, _ sessions: [Sess]) -> (out: [JSONObject], events: [JSONObject]) {
        var intake = Rewards.Intake()
        for s in sessions {
            let ci = intake.child(s.child, in: state)!
            intake.raws.append(Rewards.Raw(child: ci, app: intake.app(s.app), start: s.span.start, end: s.span.end))
        }
        var tx = Transaction(state: state, stamp: Stamp(ms: now.ms, actor: "laptop"))
        let out = Rewards.evaluate(intake, tx: &tx, zone: .utc, source: "ndjson", byline: byline, each: true)
        state = tx.state
        return (out, tx.events)
    }

    /// The state as the next run sees it: hot lines parsed, cold lines raw.
    func reloaded(_ s: RewardsState) throws -> RewardsState {
        var r = RewardsState(full: true)
        for h in s.hotSnapshot() { try r.restoreHot(try XCTUnwrap(JSON.parse(h.serialized).object)) }
        var cold = [UInt8]()
        s.writeColdSnapshot(into: &cold)
        var from = 0
        for (i, b) in cold.enumerated() where b == 0x0A {
            XCTAssertTrue(r.restoreColdRaw(Bytes(Array(cold[from..<i]))))
            from = i + 1
        }
        return r
    }

    /// Re-ingesting awards nothing and records nothing; splitting a batch
    /// across runs counts the same learning time and points as one run.
    func testIngestIsIdempotentAndSplitInvariant() throws {
        var rng = SeededRandom(seed: 14)
        let apps = ["Duolingo", "duolingo", "Khan Academy", "Minecraft", "Firefox", "Unknown"]
        for round in 0..<60 {
            var batch: [Sess] = (0..<Int.random(in: 1...60, using: &rng)).map { _ in
                let a = base + Int64.random(in: 0...(3 * 86_400), using: &rng)
                return (["Alex", "Bo", "bo"].randomElement(using: &rng)!, apps.randomElement(using: &rng)!,
                        E.Span(a, a + Int64.random(in: 0...(Bool.random(using: &rng) ? 3600 : 20_000), using: &rng)))
            }
            batch += batch.prefix(Int.random(in: 0...5, using: &rng))  // some twice in one run
            var once = family()
            let first = ingest(&once, batch)
            let days = first.out.filter { $0["type"]?.string == "day" }
            XCTAssertEqual(days.reduce(0) { $0 + Int($1["sessions"]?.int ?? 0) }, batch.count, "round \(round): every session is in a day record")
            var again = try reloaded(once)
            let second = ingest(&again, batch.shuffled(using: &rng))
            XCTAssertEqual(second.events.count, 0, "round \(round): re-ingesting records nothing")
            XCTAssertTrue(second.out.filter { $0["type"]?.string == "session" }.allSatisfy { $0["reason"]?.string == "duplicate" }, "round \(round)")
            XCTAssertEqual(again.balance, once.balance)

            var split = family()
            let shuffled = batch.shuffled(using: &rng)
            let cut = Int.random(in: 0...shuffled.count, using: &rng)
            _ = ingest(&split, Array(shuffled[..<cut]))
            split = try reloaded(split)
            _ = ingest(&split, Array(shuffled[cut...]))
            for c in ["c1", "c2"] {
                for d in once.days[c]?.keys.sorted() ?? [] {
                    XCTAssertEqual(split.totals(c, d).learningSeconds, once.totals(c, d).learningSeconds, "round \(round) \(c) \(d)")
                    XCTAssertEqual(split.totals(c, d).points, once.totals(c, d).points, "round \(round) \(c) \(d): same points whatever the split")
                    XCTAssertEqual(split.totals(c, d).rewardSeconds, once.totals(c, d).rewardSeconds, "round \(round) \(c) \(d)")
                    let u = once.usageDay(c, d)
                    XCTAssertTrue(u.learned.allSatisfy { E.intersectSorted($0, u.rewarded).isEmpty }, "round \(round): no learning under reward time")
                    XCTAssertEqual(split.usageDay(c, d).learned, u.learned, "round \(round) \(c) \(d)")
                    XCTAssertEqual(split.usageDay(c, d).sessions, once.usageDay(c, d).sessions, "round \(round): the same sessions seen")
                }
                XCTAssertEqual(split.balance[c] ?? 0, once.balance[c] ?? 0)
                XCTAssertGreaterThanOrEqual(once.balance[c] ?? 0, 0)
            }
        }
    }

    /// With a minimum session and alt-tab runs: short sessions of one app
    /// seconds apart, ingested in one run or split across two, count the
    /// same learning time and points.
    func testShortSessionsInRunsCountTheSameWhateverTheSplit() throws {
        var rng = SeededRandom(seed: 15)
        for round in 0..<60 {
            var batch: [Sess] = []
            var t = base + Int64.random(in: 0...3600, using: &rng)
            for _ in 0..<Int.random(in: 1...30, using: &rng) {
                let len = Int64.random(in: 20...400, using: &rng)
                batch.append((["Alex", "Bo"].randomElement(using: &rng)!, ["Duolingo", "Khan Academy", "Minecraft"].randomElement(using: &rng)!,
                              E.Span(t, t + len)))
                t += len + Int64.random(in: 0...(Bool.random(using: &rng) ? 30 : 200), using: &rng)
            }
            func fresh() -> RewardsState {
                var s = family()
                s.apply(["type": "setting_set", "key": "min_session_minutes", "value": 3, "by": "mum"])
                s.apply(["type": "setting_set", "key": "merge_gap_seconds", "value": 60, "by": "mum"])
                return s
            }
            var once = fresh()
            _ = ingest(&once, batch)
            var split = fresh()
            let shuffled = batch.shuffled(using: &rng)
            let cut = Int.random(in: 0...shuffled.count, using: &rng)
            _ = ingest(&split, Array(shuffled[..<cut]))
            split = try reloaded(split)
            _ = ingest(&split, Array(shuffled[cut...]))
            for c in ["c1", "c2"] {
                for d in once.days[c]?.keys.sorted() ?? [] {
                    XCTAssertEqual(split.totals(c, d).learningSeconds, once.totals(c, d).learningSeconds, "round \(round) \(c) \(d)")
                    XCTAssertEqual(split.totals(c, d).points, once.totals(c, d).points, "round \(round) \(c) \(d)")
                }
            }
        }
    }

    // MARK: Held sessions

    /// A 5-hour window with 4.5 hours away is held as too long; approving it
    /// counts the half hour ingest would have counted, not five hours. The
    /// away time travels with the flag, through the snapshot too.
    func testApprovalCountsWhatIngestWouldHaveCounted() throws {
        var s = family()
        let start = now.seconds - 20 * 3600
        var intake = Rewards.Intake()
        let ci = try XCTUnwrap(intake.child("Alex", in: s))
        intake.raws.append(Rewards.Raw(child: ci, app: intake.app("Duolingo"), start: start, end: start + 5 * 3600))
        let away = E.Span(start, start + 4 * 3600 + 1800)
        intake.afk[ci] = [E.Span(start - 600, start - 300), away]
        var tx = Transaction(state: s, stamp: Stamp(ms: now.ms, actor: "laptop"))
        let out = Rewards.evaluate(intake, tx: &tx, zone: .utc, source: "ndjson", byline: byline, each: false)
        XCTAssertEqual(out.filter { $0["type"]?.string == "flag" }.map { $0["reason"]?.string }, ["too_long"])
        s = try reloaded(tx.state)
        let f = try XCTUnwrap(s.flags.values.first)
        XCTAssertEqual(f.afk, [away], "only the away time inside the session is kept")
        var approve = Transaction(state: s, stamp: Stamp(ms: now.ms + 1, actor: "laptop"))
        approve.record(byline(["type": "flag_decided", "id": .string(f.id), "decision": "approved", "count": true]))
        XCTAssertEqual(approve.state.lastFold?.points, 30, "30 minutes at 60 points an hour")
        XCTAssertEqual(approve.state.totals("c1", Zone.utc.day(of: Instant(seconds: start))).learningSeconds, 1800)
        XCTAssertEqual(approve.state.balance["c1"], 30)
    }

    // MARK: Badges

    /// Streak badges go by the longest run of days meeting the goal, so a
    /// streak that is over (its usage ingested late) still earns them.
    func testStreakBadgesCountRunsThatAreOver() {
        var s = family()
        let today = Day(year: 2026, month: 11, day: 21)
        func learn(_ d: Day, minutes: Int64) {
            s.apply(["type": "usage_day", "child": "c1", "day": .string(d.description), "learning_s": .int(minutes * 60), "points": 1, "by": "mum"])
        }
        for n in [9, 8, 7, 5, 4] { learn(today.adding(days: -n), minutes: 60) }
        learn(today.adding(days: -6), minutes: 59)
        XCTAssertEqual(Rewards.streak(s, "c1", today: today), 0, "no streak now")
        XCTAssertEqual(Rewards.longestStreak(s, "c1", through: today), 3)
        XCTAssertTrue(Rewards.newBadges(s, "c1", today: today).contains("streak-3"))
        XCTAssertFalse(Rewards.newBadges(s, "c1", today: today).contains("streak-7"))
        XCTAssertEqual(Rewards.longestStreak(s, "c1", through: today.adding(days: -8)), 2, "not counting days after today")
        learn(today.adding(days: -6), minutes: 1)
        XCTAssertEqual(Rewards.longestStreak(s, "c1", through: today), 6)
    }

    // MARK: Erasure

    /// The purge tombstone names nobody, and erases exactly the events that
    /// name the child: theirs, those they made, and those about their flags
    /// and grants.
    func testErasureTombstoneErasesTheChildsEventsOnly() {
        var s = family()
        s.apply(["type": "child_added", "id": "c3", "name": "Cy", "login": "cy", "by": "mum"])
        s.apply(["type": "flag", "id": "f1", "child": "c1", "app": "Duolingo", "start": 100, "end": 200, "reason": "too_long", "by": "mum"])
        for c in ["c2", "c3"] { s.apply(["type": "adjust", "child": .string(c), "points": 100, "reason": "start", "day": "2026-11-21", "by": "mum"]) }
        s.apply(["type": "grant", "id": "g1", "child": "c3", "minutes": 5, "points": 50, "day": "2026-11-21", "by": "mum"])
        s.apply(["type": "grant", "id": "g2", "child": "c2", "minutes": 5, "points": 50, "day": "2026-11-21", "by": "mum"])
        let t = Rewards.erasure(of: s.children["c3"]!, in: s, salt: "s4lt")
        for v in ["c3", "cy", "Cy", "g1"] { XCTAssertFalse(t.serialized.contains("\"\(v)\""), v) }
        XCTAssertEqual(t["digests"]?.array?.count, 3, "id, login, grant")
        let erased: [JSONObject] = [
            ["type": "child_added", "id": "c3", "name": "Cy", "login": "cy"], ["type": "child_removed", "id": "c3"],
            ["type": "usage_day", "child": "c3", "day": "2026-11-21"], ["type": "grant_applied", "id": "g1", "by": "mum"],
            ["type": "notified", "key": "badge|c3|first-points"], ["type": "notified", "key": "x", "by": "cy"],
        ]
        let kept: [JSONObject] = [
            ["type": "family_created", "owner": "mum", "by": "mum"], ["type": "child_added", "id": "c1", "name": "Alex"],
            ["type": "usage_day", "child": "c2", "day": "2026-11-21"], ["type": "grant_applied", "id": "g2", "by": "mum"],
            ["type": "notified", "key": "flags|f1"], ["type": "notified", "key": "points|c1|2026-11-21|30"],
        ]
        for e in erased { XCTAssertTrue(RewardsState.erases(t, e), e.serialized) }
        for e in kept { XCTAssertFalse(RewardsState.erases(t, e), e.serialized) }
        var byMum = t
        byMum["by"] = "mum"  // a parent's purge
        s.apply(byMum)
        XCTAssertNil(s.children["c3"])
        XCTAssertNil(s.grants["g1"])
        XCTAssertNotNil(s.grants["g2"])
        XCTAssertEqual(Set(s.children.keys), ["c1", "c2"])
        // Alex's flag goes with Alex, and so does the key that lists it.
        let ta = Rewards.erasure(of: s.children["c1"]!, in: s, salt: "other")
        XCTAssertTrue(RewardsState.erases(ta, ["type": "notified", "key": "flags|f0,f1"]))
        XCTAssertTrue(RewardsState.erases(ta, ["type": "flag_decided", "id": "f1", "decision": "approved"]))
    }

    /// Two parents' redemptions that each fit the day's limit, merged: the
    /// one later in stamp order that passes it is void, its points kept.
    func testMergedRedemptionsKeepTheDailyLimit() {
        var s = RewardsState(full: false)
        let events: [JSONObject] = [
            ["type": "family_created", "owner": "mum", "by": "mum"],
            ["type": "child_added", "id": "c1", "name": "Alex", "by": "mum"],
            ["type": "adjust", "child": "c1", "points": 5000, "reason": "x", "day": "2026-11-22", "by": "mum"],
            ["type": "grant", "id": "g1", "child": "c1", "minutes": 100, "points": 1000, "day": "2026-11-22", "by": "mum"],
            ["type": "grant", "id": "g2", "child": "c1", "minutes": 100, "points": 1000, "day": "2026-11-22", "by": "mum"],
            ["type": "grant", "id": "g3", "child": "c1", "minutes": 20, "points": 200, "day": "2026-11-22", "by": "mum"],
        ]
        for (i, e) in events.enumerated() { s.apply(e, stamp: Stamp(ms: 1_795_334_400_000 + Int64(i), actor: "laptop")) }
        XCTAssertNil(s.grants["g1"]?.void)
        XCTAssertTrue(s.grants["g2"]?.void?.contains("past the daily limit of 120") ?? false, s.grants["g2"]?.void ?? "counted")
        XCTAssertNil(s.grants["g3"]?.void, "what still fits counts")
        XCTAssertEqual(s.totals("c1", Day.parse("2026-11-22")!).grantedMinutes, 120)
        XCTAssertEqual(s.balance["c1"], 5000 - 1200)
    }

    /// A spreadsheet where `;` separates cells reads a cell with one whole.
    func testCSVQuotesSemicolons() {
        XCTAssertEqual(Rewards.csv(";rm -rf"), "\";rm -rf\"")
        XCTAssertEqual(Rewards.csv("a;b"), "\"a;b\"")
        XCTAssertEqual(Rewards.csv("plain"), "plain")
    }
}
