import XCTest
@testable import NudgeKit

/// The snapshot keeps the last `hotWindow` days hot and the older ones cold,
/// summed up in one hot line (RewardsOldDays.swift): a read without the
/// cold part answers streaks, badges and the dashboard as a full read does,
/// or says it must read in full; the hot part does not grow with history.
final class RewardsOldDaysTests: XCTestCase {
    typealias E = RewardsEngine
    /// Its family, ingest and snapshot helpers.
    let cold = RewardsColdIndexTests(name: "helpers", testClosure: { _ in })
    let base: Int64 = 1_795_000_000 - 1_795_000_000 % 86_400  // a UTC midnight

    /// A family with `days` days of history: on each day, each child learns
    /// (often enough for the 30-minute goal, in runs) and plays; a
    /// `steady` c1 meets the goal every day.
    func history(_ rng: inout SeededRandom, days: Int, steady: Bool = false) -> RewardsState {
        var s = family()
        let streaky = Double.random(in: 0.5...0.95, using: &rng)
        for day in 0..<days {
            var sessions: [(String, String, E.Span)] = []
            for c in ["c1", "c2", "c3"] where (steady && c == "c1") || Double.random(in: 0...1, using: &rng) < 0.9 {
                let start = base + Int64(day) * 86_400 + Int64.random(in: 28_800...60_000, using: &rng)
                let learned = (steady && c == "c1") || Double.random(in: 0...1, using: &rng) < streaky ? Int64.random(in: 1_800...3_600, using: &rng) : Int64.random(in: 300...1_700, using: &rng)
                sessions.append((c, "Duolingo", E.Span(start, start + learned)))
                if Bool.random(using: &rng) { sessions.append((c, "Minecraft", E.Span(start + 4_000, start + 4_000 + 900))) }
            }
            _ = cold.ingest(&s, sessions, at: (base + Int64(day + 1) * 86_400) * 1000)
        }
        return s
    }

    /// The family, with a daily goal of 30 minutes.
    func family() -> RewardsState {
        var s = cold.family()
        s.apply(["type": "setting_set", "key": "daily_goal_minutes", "value": 30, "by": "mum"])
        return s
    }

    func newest(_ s: RewardsState) throws -> Day { try XCTUnwrap(s.days.children.compactMap { s.days.entries($0).last?.day }.max()) }

    func testAReadWithoutTheOldDaysAnswersAsAFullRead() throws {
        var rng = SeededRandom(seed: 4711)
        var crossed = 0  // streaks that run into the old days
        for round in 0..<12 {
            let w = RewardsState.hotWindow
            let n = [w / 2, w - 1, w, w + 1, w + 50, 2 * w + 100, 400][round % 7] + Int.random(in: 0...9, using: &rng)
            let writer = history(&rng, days: n, steady: round % 2 == 1)
            let snap = cold.snapshot(writer)
            let dayLines = snap.hot.filter { $0.starts(with: Array("{\"k\":\"day\"".utf8)) }.count
            XCTAssertLessThanOrEqual(dayLines, 3 * RewardsState.hotWindow, "round \(round): the hot part holds the window only")
            let lazy = try cold.restored(snap, full: false)
            let full = try cold.restored(snap, full: true)
            XCTAssertEqual(full.days, writer.days, "round \(round): a full read has every day")
            XCTAssertNil(full.oldDays)
            XCTAssertEqual(full.hotSnapshot().map(\.serialized), writer.hotSnapshot().map(\.serialized), "round \(round)")
            XCTAssertEqual(lazy.oldDays == nil, n <= RewardsState.hotWindow, "round \(round): \(n) days")
            XCTAssertFalse(lazy.needsFull, "round \(round)")
            let last = try newest(writer)
            for today in [last, last.adding(days: 1), last.adding(days: 2), last.adding(days: 40)] {
                XCTAssertTrue(lazy.holdsRecentDays(today))
                for c in ["c1", "c2", "c3"] {
                    let what = "round \(round), \(c) on \(today)"
                    XCTAssertEqual(Rewards.streak(lazy, c, today: today), Rewards.streak(writer, c, today: today), what)
                    if let o = lazy.oldDays, Rewards.streak(writer, c, today: today) > today - o.before { crossed += 1 }
                    XCTAssertEqual(Rewards.longestStreak(lazy, c, through: today), Rewards.longestStreak(writer, c, through: today), what)
                    XCTAssertEqual(Rewards.newBadges(lazy, c, today: today), Rewards.newBadges(writer, c, today: today), what)
                    let child = try XCTUnwrap(writer.children[c])
                    let now = Instant(seconds: Zone.utc.startOfDay(today).seconds + 43_200)
                    XCTAssertEqual(Rewards.dashboardRecord(lazy, child, today: today, zone: .utc, now: now),
                                   Rewards.dashboardRecord(writer, child, today: today, zone: .utc, now: now), what)
                }
            }
            if let o = lazy.oldDays {
                // A clock set back into the old days: the reader reads in full.
                XCTAssertFalse(lazy.holdsRecentDays(o.before.adding(days: 13)))
                XCTAssertTrue(lazy.holdsRecentDays(o.before.adding(days: 14)))
            }
        }
        XCTAssertGreaterThan(crossed, 0, "some streak ran into the old days")
    }

    /// The longest streak ran before the window, and the current one runs
    /// into it: both are the summary's.
    func testStreaksAcrossTheWindowsEdge() throws {
        var s = family()
        // 300 days: met on days 0–49 (50), missed day 50, met 51–299 (249).
        for day in 0..<300 where day != 50 {
            let start = base + Int64(day) * 86_400 + 36_000
            _ = cold.ingest(&s, [("c1", "Duolingo", E.Span(start, start + 2_400)), ("c2", "Duolingo", E.Span(start, start + (day < 50 ? 2_400 : 600)))], at: (base + Int64(day + 1) * 86_400) * 1000)
        }
        let lazy = try cold.restored(cold.snapshot(s), full: false)
        let o = try XCTUnwrap(lazy.oldDays)
        let before = 300 - RewardsState.hotWindow  // the days 0 to 299, the window up to day 299
        XCTAssertEqual(o.before, Day(daysSinceEpoch: Int(base / 86_400) + before))
        XCTAssertEqual(o.children["c1"], .init(goal: 1_800, run: before - 51, longest: before - 51))
        XCTAssertEqual(o.children["c2"], .init(goal: 1_800, run: 0, longest: 50))
        let today = Day(daysSinceEpoch: Int(base / 86_400) + 299)
        XCTAssertEqual(Rewards.streak(lazy, "c1", today: today), 249)
        XCTAssertEqual(Rewards.longestStreak(lazy, "c1", through: today), 249)
        XCTAssertEqual(Rewards.streak(lazy, "c2", today: today), 0)
        XCTAssertEqual(Rewards.longestStreak(lazy, "c2", through: today), 50)
        XCTAssertTrue(Rewards.newBadges(lazy, "c2", today: today).contains("streak-30"))
    }

    /// What a read without the old days cannot fold or answer makes it say
    /// so: a fact for an old day, a goal the summary was not made for.
    func testAChangeToAnOldDayOrTheGoalAsksForTheWhole() throws {
        var rng = SeededRandom(seed: 99)
        let writer = history(&rng, days: 200)
        let snap = cold.snapshot(writer)
        let o = try XCTUnwrap(try cold.restored(snap, full: false).oldDays)
        var old = try cold.restored(snap, full: false)
        var ms = (base + 201 * 86_400) * 1000
        let oldStart = Zone.utc.startOfDay(o.before.adding(days: -30)).seconds + 50_000
        var w = writer
        for e in cold.ingest(&w, [("c1", "Duolingo", E.Span(oldStart, oldStart + 1_200))], at: ms) { old.apply(e, stamp: Stamp(ms: ms, actor: "laptop")) }
        XCTAssertTrue(old.needsFull, "a fact for a day before the window")
        var recent = try cold.restored(snap, full: false)
        let newStart = Zone.utc.startOfDay(try newest(writer)).seconds + 80_000
        ms += 1000
        for e in cold.ingest(&w, [("c1", "Duolingo", E.Span(newStart, newStart + 600))], at: ms) { recent.apply(e, stamp: Stamp(ms: ms, actor: "laptop")) }
        XCTAssertFalse(recent.needsFull, "a fact for a day in the window")
        var goal = try cold.restored(snap, full: false)
        goal.apply(["type": "setting_set", "key": "daily_goal_minutes", "value": 20, "by": "mum"], stamp: Stamp(ms: ms + 1000, actor: "laptop"))
        XCTAssertTrue(goal.needsFull, "a new goal")
        var own = try cold.restored(snap, full: false)
        own.apply(["type": "setting_set", "key": "daily_goal_minutes", "value": 20, "child": "c2", "by": "mum"], stamp: Stamp(ms: ms + 1000, actor: "laptop"))
        XCTAssertTrue(own.needsFull, "a child's own new goal")
    }

    func testAMalformedSummaryIsRefused() throws {
        var s = RewardsState(full: false)
        for bad in [#"{"k":"old_days","before":"2026-13-01","v":{}}"#, #"{"k":"old_days","before":"2026-01-01","v":{"c1":[1800,5,4]}}"#,
                    #"{"k":"old_days","before":"2026-01-01","v":{"c1":[1800,-1,4]}}"#, #"{"k":"old_days","before":"2026-01-01","v":{"c1":[1800,1]}}"#,
                    #"{"k":"old_days","before":"2026-01-01"}"#, #"{"k":"old_days","before":"2026-01-01","v":{"c1":[99999999,1,1]}}"#] {
            XCTAssertThrowsError(try s.restoreHot(try XCTUnwrap(JSON.parse(Array(bad.utf8)).object)), bad)
        }
    }
}
