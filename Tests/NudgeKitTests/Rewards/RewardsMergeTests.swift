import XCTest
@testable import NudgeKit

/// Two parents on three devices (mum's laptop and desk, dad's phone) share
/// a sync folder. They change the family at random while a simulated sync
/// engine copies journals at random moments; after a full exchange every
/// device shows the same family, no balance is ever below zero on any
/// device, every redemption is there once (paid or void), and each balance
/// is what the adjustments and paid redemptions add up to. Redemptions are
/// made on several devices at once, and the granting device hands them to
/// a grant command that lists each hand-over: a grant handed over is never
/// void on any device, and in the end the paid grants are the hand-overs.
final class RewardsMergeTests: XCTestCase {
    var root = ""
    let fm = FileManager.default
    let t0: Int64 = 1_795_334_400_000  // 2026-11-22T08:00:00Z

    override func setUp() {
        root = NSTemporaryDirectory() + "rwmerge-\(UUID().uuidString)"
        try? fm.createDirectory(atPath: root, withIntermediateDirectories: true)
        StoreWarnings.reset()
    }

    override func tearDown() { try? fm.removeItem(atPath: root) }

    func device(_ base: String, _ name: String, every: Int) -> Store<RewardsState> {
        var o = StoreOptions(tool: "rewards", actor: name, user: name, lockTimeoutMillis: 500, snapshotEvery: every)
        o.journalFolder = base + "/\(name)/sync"
        o.nowMillis = 4_000_000_000_000
        return Store(dir: base + "/\(name)/data", options: o)
    }

    func record(_ s: Store<RewardsState>, by who: String, at ms: Int64, _ events: [JSONObject]) throws {
        try s.write(at: Instant(ms: ms)) { (tx: inout Transaction<RewardsState>) throws(ToolError) in
            for var e in events {
                e["by"] = .string(who)
                tx.record(e)
            }
        }
    }

    func testThreeDevicesOfTwoParentsAgreeAndNoBalanceGoesNegative() throws {
        for seed in 1...6 { try converge(seed: UInt64(seed)) }
    }

    func converge(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let base = root + "/s\(seed)"
        let names = ["laptop", "desk", "phone"]
        let person = ["laptop": "mum", "desk": "mum", "phone": "dad"]
        var devices: [Store<RewardsState>] = []
        for n in names { devices.append(device(base, n, every: Int.random(in: 1...6, using: &rng))) }
        func copy(_ from: Int, _ to: Int) {
            let src = base + "/\(names[from])/sync/\(names[from]).ndjson"
            guard let bytes = fm.contents(atPath: src) else { return }
            try? fm.createDirectory(atPath: base + "/\(names[to])/sync", withIntermediateDirectories: true)
            let tmp = base + "/\(names[to])/sync/.syncthing.\(names[from]).ndjson.tmp"
            _ = fm.createFile(atPath: tmp, contents: bytes)
            _ = rename(tmp, base + "/\(names[to])/sync/\(names[from]).ndjson")
        }
        func exchange() { for i in 0..<3 { for j in 0..<3 where i != j { copy(i, j) } } }
        // Mum makes the family and invites dad; dad joins on his phone.
        let day = "2026-11-22"
        try record(devices[0], by: "mum", at: t0, [
            ["type": "family_created", "owner": "mum"], ["type": "child_added", "id": "c1", "name": "Alex"],
            ["type": "child_added", "id": "c2", "name": "Sam"],
            ["type": "adjust", "child": "c1", "points": 200, "reason": "start", "day": .string(day)],
            ["type": "adjust", "child": "c2", "points": 100, "reason": "start", "day": .string(day)],
            ["type": "invite", "hash": .string(RewardsState.codeHash("ABCD-EFGH-JKMN")), "expires": .int(t0 + 72 * 3_600_000)],
        ])
        exchange()
        try record(devices[2], by: "dad", at: t0 + 60_000, [["type": "parent_join", "code": "ABCDEFGHJKMN"]])
        exchange()
        XCTAssertEqual(try devices[0].read().parents, ["mum", "dad"], "seed \(seed)")
        var grants: [String] = []
        var handed: [String] = []
        var clock = t0 + 120_000
        let today = Day(year: 2026, month: 11, day: 22)
        // The grant command, as the library runs it: only the granting
        // device (the laptop made the family) claims, and each hand-over
        // is appended to `handed`.
        func handOver(_ d: Int, at ms: Int64) throws {
            let s = try devices[d].read()
            XCTAssertEqual(s.granter, "laptop", "seed \(seed)")
            guard Rewards.handsOver(s, device: names[d], shared: true) else { return }
            for g in Rewards.grantsToHandOver(s, today: today, at: Instant(ms: ms)) {
                let claim = "claim-\(g.id)-\(ms)"
                var held = false
                try devices[d].write(at: Instant(ms: ms)) { (tx: inout Transaction<RewardsState>) throws(ToolError) in
                    guard tx.state.grants[g.id]?.mayHandOver(at: Instant(ms: ms)) == true else { return }
                    var e = Rewards.claimEvent(g.id, claim: claim, at: Instant(ms: ms), timeout: 60)
                    e["by"] = .string(person[names[d]]!)
                    tx.record(e)
                    held = tx.state.grants[g.id]?.handover.claim == claim && tx.state.grants[g.id]?.void == nil
                }
                guard held else { continue }
                handed.append(g.id)
                try record(devices[d], by: person[names[d]]!, at: ms + 1, [["type": "grant_applied", "id": .string(g.id)]])
            }
        }
        for step in 0..<80 {
            clock += Int64.random(in: 0...90_000, using: &rng)
            let d = Int.random(in: 0..<3, using: &rng)
            let who = person[names[d]]!
            let child = ["c1", "c2"][Int.random(in: 0...1, using: &rng)]
            let skew = Int64([0, -200_000, 150_000][d])
            switch Int.random(in: 0..<13, using: &rng) {
            case 10:
                // Simultaneous redeems: each device, unsynced, redeems for the same child at once.
                for dd in 0..<3 {
                    let s = try devices[dd].read()
                    let minutes = Int.random(in: 1...6, using: &rng)
                    let points = minutes * s.settings(for: child).conversionRate
                    guard points <= (s.balance[child] ?? 0) else { continue }
                    let id = "g\(seed)-\(step)-\(dd)"
                    try record(devices[dd], by: person[names[dd]]!, at: clock + Int64([0, -200_000, 150_000][dd]),
                               [["type": "grant", "id": .string(id), "child": .string(child), "minutes": JSON(minutes), "points": JSON(points), "day": .string(day)]])
                    grants.append(id)
                }
            case 11...12:
                // Any device's run: only the granting one hands over.
                try handOver(d, at: clock + skew)
            case 0...2:
                // A redemption as the CLI makes it: checked against this device's balance.
                let s = try devices[d].read()
                let minutes = Int.random(in: 1...6, using: &rng)
                let points = minutes * s.settings(for: child).conversionRate
                guard points <= (s.balance[child] ?? 0) else { continue }
                let id = "g\(seed)-\(step)"
                try record(devices[d], by: who, at: clock + skew, [["type": "grant", "id": .string(id), "child": .string(child),
                                                                      "minutes": JSON(minutes), "points": JSON(points), "day": .string(day)]])
                grants.append(id)
            case 3...4:
                let s = try devices[d].read()
                var p = Int.random(in: -40...40, using: &rng)
                if p == 0 { p = 5 }
                guard (s.balance[child] ?? 0) + p >= 0 else { continue }
                try record(devices[d], by: who, at: clock + skew, [["type": "adjust", "child": .string(child), "points": JSON(p), "reason": "r", "day": .string(day)]])
            case 5:
                let key = ["daily_goal_minutes", "daily_reward_limit_minutes"][Int.random(in: 0...1, using: &rng)]
                try record(devices[d], by: who, at: clock + skew, [["type": "setting_set", "key": .string(key), "value": JSON(Int.random(in: 30...120, using: &rng))]])
            case 6:
                try record(devices[d], by: who, at: clock + skew, [["type": "app_set", "name": "Minecraft",
                                                                      "category": .string(["reward", "ignore"][Int.random(in: 0...1, using: &rng)])]])
            default:
                let from = Int.random(in: 0..<3, using: &rng)
                copy(from, (from + Int.random(in: 1...2, using: &rng)) % 3)
            }
            for dev in devices {
                let s = try dev.read()
                for (c, b) in s.balance { XCTAssertGreaterThanOrEqual(b, 0, "seed \(seed) step \(step): \(c) below zero on a device") }
                // A copy that has the claim never shows the grant void (one
                // that has the redemption but not yet the claim may).
                for id in handed where s.grants[id]?.handedOver == true {
                    XCTAssertNil(s.grants[id]?.void, "seed \(seed) step \(step): \(id) was handed over, and is void on \(dev.options.actor)")
                }
            }
        }
        exchange()
        // The granting device hands over what is left, and every copy hears of it.
        try handOver(0, at: clock + 1_000)
        exchange()
        XCTAssertEqual(handed.count, Set(handed).count, "seed \(seed): each grant handed over once")
        var states: [RewardsState] = []
        for dev in devices {
            let l = try dev.load(full: false, forceRebuild: true)
            states.append(l.state)
            XCTAssertEqual(try dev.read().hotSnapshot().map(\.serialized), l.state.hotSnapshot().map(\.serialized), "seed \(seed): the snapshot path agrees with a rebuild")
        }
        let shown = states.map { $0.hotSnapshot().map(\.serialized) }
        XCTAssertEqual(shown[0], shown[1], "seed \(seed)")
        XCTAssertEqual(shown[1], shown[2], "seed \(seed)")
        let s = states[0]
        XCTAssertEqual(Set(s.grants.keys), Set(grants), "seed \(seed): every redemption once, paid or void")
        for st in states {
            XCTAssertEqual(Set(st.grants.values.filter { $0.void == nil }.map(\.id)), Set(handed), "seed \(seed): hand-overs = paid grants")
            XCTAssertTrue(st.grants.values.allSatisfy { $0.void == nil || !$0.handedOver }, "seed \(seed): no void grant was handed over")
        }
        for c in ["c1", "c2"] {
            let adjusted = s.days[c]?.values.reduce(0) { $0 + $1.adjusted } ?? 0
            let paid = s.grants.values.filter { $0.child == c && $0.void == nil }.reduce(0) { $0 + $1.points - $1.short }
            XCTAssertEqual(s.balance[c], adjusted - paid, "seed \(seed): \(c)'s balance adds up")
            XCTAssertGreaterThanOrEqual(s.balance[c] ?? 0, 0)
        }
        XCTAssertEqual(s.refused.count, 0, "seed \(seed): \(s.refused)")
    }

    // MARK: Usage ingested anywhere

    typealias Sess = (child: String, app: String, span: RewardsEngine.Span)

    /// One ingest run as the CLI makes it: the sessions read, journalled as facts.
    func ingest(_ s: Store<RewardsState>, by who: String, at ms: Int64, _ sessions: [Sess]) throws {
        try s.write(full: true, at: Instant(ms: ms)) { (tx: inout Transaction<RewardsState>) throws(ToolError) in
            var intake = Rewards.Intake()
            for x in sessions {
                guard let ci = intake.child(x.child, in: tx.state) else { throw ToolError(.dataError, "no child \(x.child)") }
                intake.raws.append(Rewards.Raw(child: ci, app: intake.app(x.app), start: x.span.start, end: x.span.end))
            }
            _ = Rewards.evaluate(intake, tx: &tx, zone: .utc, source: "ndjson", byline: Rewards.Byline(by: .string(who), at: .string("x")), each: false)
        }
    }

    /// The family every device starts from: learning and reward apps, a
    /// minimum session with alt-tab runs, a maximum that holds long ones.
    var usageFamily: [JSONObject] {
        [["type": "family_created", "owner": "mum"], ["type": "child_added", "id": "c1", "name": "Alex"],
         ["type": "child_added", "id": "c2", "name": "Sam"], ["type": "app_set", "name": "Duolingo", "category": "learning"],
         ["type": "app_set", "name": "Khan Academy", "category": "learning"],
         ["type": "app_set", "name": "Minecraft", "category": "reward"],
         ["type": "setting_set", "key": "min_session_minutes", "value": 3], ["type": "setting_set", "key": "merge_gap_seconds", "value": 60],
         ["type": "setting_set", "key": "max_session_minutes", "value": 90], ["type": "setting_set", "key": "max_session_age_days", "value": 3650],
         ["type": "setting_set", "key": "max_points_per_day", "value": 100_000]]
    }

    /// Random parts of one seeded stream of sessions (some overlapping,
    /// at one rate: overlapping time counts at the rate of the app counted
    /// first, the same on every copy but not whatever the split,
    /// some short, some long enough to be held, some an alt-tab apart)
    /// are ingested on random devices, again and again, with random
    /// syncs: every device ends with the balances of the stream ingested
    /// once, and the same snapshot, byte for byte.
    func testSessionsIngestedOnAnyDeviceCountOnce() throws {
        var approvals = 0
        for seed in 1...5 { approvals += try ingestConverge(seed: UInt64(seed)) }
        XCTAssertGreaterThan(approvals, 2, "held sessions were approved on some devices")
    }

    /// Returns how many held sessions were approved.
    func ingestConverge(seed: UInt64) throws -> Int {
        var rng = SeededRandom(seed: seed)
        let base = root + "/u\(seed)"
        let names = ["laptop", "desk", "phone"]
        var devices: [Store<RewardsState>] = []
        for n in names { devices.append(device(base, n, every: Int.random(in: 1...6, using: &rng))) }
        func copy(_ from: Int, _ to: Int) {
            let src = base + "/\(names[from])/sync/\(names[from]).ndjson"
            guard let bytes = fm.contents(atPath: src) else { return }
            try? fm.createDirectory(atPath: base + "/\(names[to])/sync", withIntermediateDirectories: true)
            let tmp = base + "/\(names[to])/sync/.syncthing.\(names[from]).ndjson.tmp"
            _ = fm.createFile(atPath: tmp, contents: bytes)
            _ = rename(tmp, base + "/\(names[to])/sync/\(names[from]).ndjson")
        }
        func exchange() { for i in 0..<3 { for j in 0..<3 where i != j { copy(i, j) } } }
        try record(devices[0], by: "mum", at: t0, usageFamily)
        exchange()
        // Three days before t0, in order of start.
        let start = t0 / 1000 - 3 * 86_400
        var stream: [Sess] = []
        var t = start
        for _ in 0..<70 {
            t += Int64.random(in: 0...5000, using: &rng) * (Bool.random(using: &rng) ? 1 : 0) + Int64.random(in: 20...90, using: &rng)
            let len = [Int64.random(in: 30...400, using: &rng), Int64.random(in: 600...3000, using: &rng), Int64.random(in: 5500...7000, using: &rng)][
                [0, 0, 1, 1, 1, 2].randomElement(using: &rng)!]
            stream.append((["Alex", "Sam"].randomElement(using: &rng)!, ["Duolingo", "Khan Academy", "Minecraft", "duolingo"].randomElement(using: &rng)!,
                           RewardsEngine.Span(t, t + len)))
        }
        // Once, on a device of its own.
        let once = device(base + "/ref", "ref", every: 32)
        try record(once, by: "mum", at: t0, usageFamily)
        try ingest(once, by: "mum", at: t0 + 1000, stream)
        XCTAssertFalse(try once.read(full: true).flags.isEmpty, "seed \(seed): some sessions are held")
        func approve(_ s: Store<RewardsState>, _ f: RewardsState.Flag, at ms: Int64) throws {
            try record(s, by: "mum", at: ms, [["type": "flag_decided", "id": .string(f.id), "decision": "approved", "count": true,
                                              "day": .string(f.day?.description ?? "")]])
        }
        var approved: [String: RewardsState.Flag] = [:]
        var clock = t0 + 60_000
        for _ in 0..<30 {
            clock += Int64.random(in: 0...90_000, using: &rng)
            let d = Int.random(in: 0..<3, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0, 1:
                let from = Int.random(in: 0..<3, using: &rng)
                copy(from, (from + Int.random(in: 1...2, using: &rng)) % 3)
                continue
            case 2:
                // A parent approves a held session this device shows (perhaps approved elsewhere already).
                let pending = try devices[d].read(full: true).flags.values.filter { $0.status == "pending" }.sorted { $0.id < $1.id }
                if let f = pending.randomElement(using: &rng) {
                    try approve(devices[d], f, at: clock)
                    approved[f.id] = f
                }
                continue
            default:
                break
            }
            // A slice of the stream (an export), or a few sessions at random.
            var part: [Sess]
            if Bool.random(using: &rng) {
                let a = Int.random(in: 0..<stream.count, using: &rng)
                part = Array(stream[a..<min(stream.count, a + Int.random(in: 1...30, using: &rng))])
            } else {
                part = (0..<Int.random(in: 1...8, using: &rng)).map { _ in stream.randomElement(using: &rng)! }
            }
            part.shuffle(using: &rng)
            try ingest(devices[d], by: "mum", at: clock, part)
        }
        // Whatever was left out is ingested somewhere at the end.
        try ingest(devices[Int.random(in: 0..<3, using: &rng)], by: "mum", at: clock + 1000, stream)
        exchange()
        // Once: the stream, and each session approved anywhere approved once.
        for (k, f) in approved.values.sorted(by: { $0.id < $1.id }).enumerated() { try approve(once, f, at: t0 + 2000 + Int64(k)) }
        let want = try once.read(full: true)
        XCTAssertGreaterThan(want.balance["c1"] ?? 0, 0, "seed \(seed)")
        var shown: [[String]] = []
        for dev in devices {
            let s = try dev.read(full: true)
            let rebuilt = try dev.load(full: true, forceRebuild: true).state
            var cold = [UInt8](), coldRebuilt = [UInt8]()
            s.writeColdSnapshot(into: &cold)
            rebuilt.writeColdSnapshot(into: &coldRebuilt)
            XCTAssertEqual(s.hotSnapshot().map(\.serialized), rebuilt.hotSnapshot().map(\.serialized), "seed \(seed): the snapshot path agrees with a rebuild")
            XCTAssertTrue(cold == coldRebuilt, "seed \(seed): the cold part too")
            shown.append(s.hotSnapshot().map(\.serialized) + [String(decoding: cold, as: UTF8.self)])
            for c in ["c1", "c2"] {
                XCTAssertEqual(s.balance[c], want.balance[c], "seed \(seed): \(c)'s balance is the stream's, counted once")
                for (day, t) in want.days[c] ?? [:] {
                    XCTAssertEqual(s.totals(c, day).learningSeconds, t.learningSeconds, "seed \(seed) \(c) \(day)")
                    XCTAssertEqual(s.totals(c, day).rewardSeconds, t.rewardSeconds, "seed \(seed) \(c) \(day)")
                    XCTAssertEqual(s.usageDay(c, day).sessions, want.usageDay(c, day).sessions, "seed \(seed): each session seen once")
                }
            }
            XCTAssertEqual(Set(s.flags.keys), Set(want.flags.keys), "seed \(seed): the same held sessions, the same ids")
            XCTAssertEqual(Set(s.flags.values.filter { $0.status == "approved" }.map(\.id)), Set(approved.keys), "seed \(seed)")
            XCTAssertEqual(s.refused.count, 0, "seed \(seed): \(s.refused)")
        }
        XCTAssertEqual(shown[0], shown[1], "seed \(seed): the same snapshot on every device")
        XCTAssertEqual(shown[1], shown[2], "seed \(seed)")
        return approved.count
    }

    func testARedemptionThatLosesTheRaceIsReversedAndBothParentsAreTold() throws {
        let base = root + "/race"
        let mum = device(base, "laptop", every: 256), dad = device(base, "phone", every: 256)
        try record(mum, by: "mum", at: t0, [["type": "family_created", "owner": "mum"], ["type": "child_added", "id": "c1", "name": "Alex"],
                                            ["type": "adjust", "child": "c1", "points": 100, "reason": "start", "day": "2026-11-22"],
                                            ["type": "invite", "hash": .string(RewardsState.codeHash("ABCD-EFGH-JKMN")), "expires": .int(t0 + 3_600_000)]])
        try fm.createDirectory(atPath: base + "/phone/sync", withIntermediateDirectories: true)
        try fm.copyItem(atPath: base + "/laptop/sync/laptop.ndjson", toPath: base + "/phone/sync/laptop.ndjson")
        try record(dad, by: "dad", at: t0 + 1000, [["type": "parent_join", "code": "abcd efgh jkmn"]])
        // Both redeem 80 of the 100 before their devices meet.
        try record(mum, by: "mum", at: t0 + 60_000, [["type": "grant", "id": "gm", "child": "c1", "minutes": 8, "points": 80, "day": "2026-11-22"]])
        try record(dad, by: "dad", at: t0 + 61_000, [["type": "grant", "id": "gd", "child": "c1", "minutes": 8, "points": 80, "day": "2026-11-22"]])
        try fm.removeItem(atPath: base + "/phone/sync/laptop.ndjson")
        try fm.copyItem(atPath: base + "/laptop/sync/laptop.ndjson", toPath: base + "/phone/sync/laptop.ndjson")
        try fm.copyItem(atPath: base + "/phone/sync/phone.ndjson", toPath: base + "/laptop/sync/phone.ndjson")
        for st in [mum, dad] {
            let s = try st.read()
            XCTAssertEqual(s.balance["c1"], 20)
            XCTAssertNil(s.grants["gm"]?.void)
            XCTAssertEqual(s.grants["gd"]?.void, "the balance was 20 when it was merged, less than its 80 points")
            XCTAssertEqual(s.totals("c1", Day(year: 2026, month: 11, day: 22)).grantedMinutes, 8)
            let told = Rewards.coParentNotifications(s, today: Day(year: 2026, month: 11, day: 22))
            XCTAssertEqual(Set(told.map { $0.record["to"]?.string ?? "" }), ["mum", "dad"])
            XCTAssertTrue(told.allSatisfy { $0.record["body"]?.string?.contains("were reversed") == true })
        }
        // A negative adjustment on both sides takes only what is there.
        try record(mum, by: "mum", at: t0 + 120_000, [["type": "adjust", "child": "c1", "points": -20, "reason": "x", "day": "2026-11-22"]])
        try record(dad, by: "dad", at: t0 + 121_000, [["type": "adjust", "child": "c1", "points": -15, "reason": "y", "day": "2026-11-22"]])
        try fm.removeItem(atPath: base + "/laptop/sync/phone.ndjson")
        try fm.copyItem(atPath: base + "/phone/sync/phone.ndjson", toPath: base + "/laptop/sync/phone.ndjson")
        XCTAssertEqual(try mum.read().balance["c1"], 0)
        XCTAssertEqual(try mum.read().conflicts.count, 2)
    }

    /// A current parent's batch stamped before a grant that was handed over
    /// (a clock set back, or a journal edited to backdate it) spends the
    /// balance first in stamp order; the grant handed over still stands and
    /// the backdated redemption is the one reversed, on every copy.
    func testABackdatedBatchNeverVoidsAGrantHandedOver() throws {
        let base = root + "/backdate"
        let mum = device(base, "laptop", every: 256), dad = device(base, "phone", every: 256)
        try record(mum, by: "mum", at: t0, [["type": "family_created", "owner": "mum"], ["type": "child_added", "id": "c1", "name": "Alex"],
                                            ["type": "adjust", "child": "c1", "points": 100, "reason": "start", "day": "2026-11-22"],
                                            ["type": "invite", "hash": .string(RewardsState.codeHash("ABCD-EFGH-JKMN")), "expires": .int(t0 + 3_600_000)]])
        try fm.createDirectory(atPath: base + "/phone/sync", withIntermediateDirectories: true)
        try fm.copyItem(atPath: base + "/laptop/sync/laptop.ndjson", toPath: base + "/phone/sync/laptop.ndjson")
        try record(dad, by: "dad", at: t0 + 1000, [["type": "parent_join", "code": "ABCDEFGHJKMN"]])
        try fm.copyItem(atPath: base + "/phone/sync/phone.ndjson", toPath: base + "/laptop/sync/phone.ndjson")
        // Mum redeems 80 of the 100 and the grant command gets it (claimed, applied).
        try record(mum, by: "mum", at: t0 + 600_000, [["type": "grant", "id": "gm", "child": "c1", "minutes": 8, "points": 80, "day": "2026-11-22"],
                                                      Rewards.claimEvent("gm", claim: "k1", at: Instant(ms: t0 + 600_000), timeout: 60)])
        try record(mum, by: "mum", at: t0 + 600_500, [["type": "grant_applied", "id": "gm"]])
        XCTAssertEqual(try mum.read().grants["gm"]?.applied, true)
        // Dad's batch, stamped five minutes before it, redeems 50.
        try record(dad, by: "dad", at: t0 + 300_000, [["type": "grant", "id": "gd", "child": "c1", "minutes": 5, "points": 50, "day": "2026-11-22"]])
        try fm.removeItem(atPath: base + "/laptop/sync/phone.ndjson")
        try fm.copyItem(atPath: base + "/phone/sync/phone.ndjson", toPath: base + "/laptop/sync/phone.ndjson")
        try fm.removeItem(atPath: base + "/phone/sync/laptop.ndjson")
        try fm.copyItem(atPath: base + "/laptop/sync/laptop.ndjson", toPath: base + "/phone/sync/laptop.ndjson")
        var shown: [[String]] = []
        for st in [mum, dad] {
            let s = try st.load(full: false, forceRebuild: true).state
            XCTAssertNil(s.grants["gm"]?.void, "the grant handed over stands")
            XCTAssertEqual(s.grants["gm"]?.applied, true)
            XCTAssertEqual(s.grants["gd"]?.void, "8 reward minutes (gm) were handed over before it was merged")
            XCTAssertEqual(s.balance["c1"], 20)
            XCTAssertEqual(s.totals("c1", Day(year: 2026, month: 11, day: 22)).grantedMinutes, 8)
            XCTAssertTrue(s.conflicts.contains { $0.text.contains("5 reward minutes for Alex (50 points) were reversed") }, "\(s.conflicts.map(\.text))")
            shown.append(try st.read().hotSnapshot().map(\.serialized))
        }
        XCTAssertEqual(shown[0], shown[1])
    }

    /// A removed parent's purge of a child, stamped after his last batch
    /// the owner had seen and before the removal (a clock set back), is cut
    /// with the rest of what he wrote then: the child and their history stay
    /// on every copy, and no copy drops them from its own journal.
    func testAForgedPurgeByARemovedParentInsideTheCutWindowIsCut() throws {
        let base = root + "/cut"
        let mum = device(base, "laptop", every: 256), dad = device(base, "phone", every: 256)
        try record(mum, by: "mum", at: t0, [["type": "family_created", "owner": "mum"], ["type": "child_added", "id": "c1", "name": "Alex"],
                                            ["type": "adjust", "child": "c1", "points": 100, "reason": "start", "day": "2026-11-22"],
                                            ["type": "invite", "hash": .string(RewardsState.codeHash("ABCD-EFGH-JKMN")), "expires": .int(t0 + 3_600_000)]])
        func copy(_ from: String, _ to: String) throws {
            try fm.createDirectory(atPath: base + "/\(to)/sync", withIntermediateDirectories: true)
            try? fm.removeItem(atPath: base + "/\(to)/sync/\(from).ndjson")
            try fm.copyItem(atPath: base + "/\(from)/sync/\(from).ndjson", toPath: base + "/\(to)/sync/\(from).ndjson")
        }
        try copy("laptop", "phone")
        try record(dad, by: "dad", at: t0 + 1000, [["type": "parent_join", "code": "ABCDEFGHJKMN"]])
        try record(dad, by: "dad", at: t0 + 2000, [["type": "adjust", "child": "c1", "points": 5, "reason": "real", "day": "2026-11-22"]])
        try copy("phone", "laptop")
        // Mum removes him: the cut is after his last batch she folded.
        let s0 = try mum.read()
        let seen = try XCTUnwrap(s0.lastSeen["dad"])
        try record(mum, by: "mum", at: t0 + 600_000, [["type": "parent_removed", "login": "dad"],
                                                      ["type": "erase", "cut": "dad", "after": seen.clockJSON]])
        // His phone, not yet told, purges Alex "before" the removal.
        try record(dad, by: "dad", at: t0 + 300_000, [Rewards.erasure(of: s0.children["c1"]!, in: s0, salt: "s")])
        try copy("phone", "laptop")
        try copy("laptop", "phone")
        for st in [mum, dad] {
            let s = try st.read()
            XCTAssertEqual(s.children["c1"]?.name, "Alex", "\(st.options.actor): the forged purge was cut")
            // His phone folded his purge before it heard of the removal and
            // dropped his own +5 from his own journal: that file is his.
            XCTAssertEqual(s.balance["c1"], 100)
            XCTAssertEqual(try st.load(full: false, forceRebuild: true).state.hotSnapshot().map(\.serialized), s.hotSnapshot().map(\.serialized))
        }
        let own = try String(contentsOfFile: base + "/laptop/sync/laptop.ndjson", encoding: .utf8)
        XCTAssertTrue(own.contains(#""name":"Alex""#), "the laptop keeps Alex in its own journal")
    }

    func testChangesBySomeoneWhoIsNotAParentDoNotCount() throws {
        var s = RewardsState(full: false)
        s.apply(["type": "family_created", "owner": "mum", "by": "mum"])
        s.apply(["type": "child_added", "id": "c1", "name": "Alex", "login": "alex", "by": "mum"])
        s.apply(["type": "adjust", "child": "c1", "points": 500, "reason": "me", "day": "2026-11-22", "by": "alex"])
        s.apply(["type": "setting_set", "key": "conversion_rate", "value": 1, "by": "alex"])
        s.apply(["type": "invite", "hash": "x", "expires": 1, "by": "alex"])
        s.apply(["type": "family_created", "owner": "eve", "by": "eve"])
        XCTAssertEqual(s.balance["c1"], nil)
        XCTAssertEqual(s.settings.conversionRate, RewardsEngine.Settings().conversionRate)
        XCTAssertEqual(s.owner, "mum")
        XCTAssertEqual(s.refused["alex"]?.count, 3)
        // Where journals are proven, the actor counts, not what the event says.
        s.apply(["type": "adjust", "child": "c1", "points": 50, "reason": "forged", "day": "2026-11-22", "by": "mum", "actor": "alex"])
        XCTAssertEqual(s.balance["c1"], nil)
        s.apply(["type": "adjust", "child": "c1", "points": 50, "reason": "cron", "day": "2026-11-22", "actor": "root"])
        XCTAssertEqual(s.balance["c1"], 50)
        // A child redeems their own points only where names are not proven (their own data directory).
        s.apply(["type": "grant", "id": "g1", "child": "c1", "minutes": 1, "points": 10, "day": "2026-11-22", "by": "alex"])
        XCTAssertEqual(s.balance["c1"], 40)
        s.apply(["type": "grant", "id": "g2", "child": "c1", "minutes": 1, "points": 10, "day": "2026-11-22", "by": "alex", "actor": "alex"])
        XCTAssertEqual(s.balance["c1"], 40)
    }
}
