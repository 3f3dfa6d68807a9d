import XCTest
@testable import NudgeKit

/// The points engine as pure functions: tables and properties.
final class RewardsEngineTests: XCTestCase {
    typealias E = RewardsEngine
    let base: Int64 = 1_795_000_000
    var settings: E.Settings {
        var s = E.Settings()
        s.minSessionMinutes = 5
        return s
    }

    func session(_ start: Int64, _ minutes: Int64, app: String = "Duolingo") -> E.Session {
        E.Session(child: "alex", app: app, span: E.Span(base + start, base + start + minutes * 60))
    }

    func run(_ sessions: [E.Session], afk: [E.Span] = [], settings s: E.Settings? = nil, rate: Int = 60,
             category: E.Category = .learning) -> ([E.Outcome], E.DayLedger) {
        var day = E.DayLedger()
        var out: [E.Outcome] = []
        for x in sessions {
            let (o, d) = E.evaluate(x, category: category, rate: rate, afk: afk, day: day, settings: s ?? settings, now: base + 86_400)
            out.append(o)
            day = d
        }
        return (out, day)
    }

    func testReasonTable() {
        let afk = [E.Span(base + 3600, base + 3600 + 1800)]
        let cases: [(E.Session, E.Category?, String, Int)] = [
            (session(0, 30), .learning, "counted", 30),
            (session(3600, 30), .learning, "afk", 0),  // all of it away
            (session(0, 3), .learning, "too_short", 0),
            (session(0, 30), nil, "uncategorized", 0),
            (session(0, 30), .ignore, "ignored", 0),
            (session(0, 300), .learning, "too_long", 0),
            (session(2 * 86_400, 30), .learning, "future", 0),
            (session(-7 * 86_400, 30), .learning, "too_old", 0),  // started 8 days before now
            (session(-5 * 86_400, 30), .learning, "counted", 30),
            (session(-7 * 86_400, 300), .learning, "too_old", 0),  // too old to hold
        ]
        for (s, cat, reason, points) in cases {
            let (o, _) = E.evaluate(s, category: cat, rate: 60, afk: afk, day: E.DayLedger(), settings: settings, now: base + 86_400)
            XCTAssertEqual(o.reason, reason, "\(s.span) \(String(describing: cat))")
            XCTAssertEqual(o.points, points)
        }
        XCTAssertTrue(E.evaluate(session(0, 300), category: .learning, rate: 60, afk: [], day: E.DayLedger(), settings: settings, now: base + 86_400).0.held)
    }

    func testAwayTimeAndOverlapCountOnce() {
        // 60 minutes, 20 of them away: 40 minutes, 40 points at 60/hour.
        let afk = [E.Span(base + 600, base + 600 + 1200)]
        let (o, day) = run([session(0, 60)], afk: afk)
        XCTAssertEqual(o[0].learningSeconds, 2400)
        XCTAssertEqual(day.points, 40)
        // Two apps overlapping by 15 minutes: the overlap counts once.
        let (o2, d2) = run([session(0, 30), session(900, 30, app: "Khan Academy")])
        XCTAssertEqual(o2.map(\.learningSeconds), [1800, 900])
        XCTAssertEqual(d2.points, 45)
        let (o3, _) = run([session(0, 30), session(0, 30)])
        XCTAssertEqual(o3[1].reason, "overlap")
    }

    /// Nothing before 2000 earns, whatever the maximum age.
    func testYearOneIsTooOldWhateverTheSetting() {
        var s = settings
        s.maxSessionAgeDays = 3650
        let yearOne = E.Session(child: "alex", app: "Duolingo", span: E.Span(-62_135_560_800, -62_135_560_800 + 900))
        for now in [base, Clock.earliest.seconds + 100] {
            let (o, d) = E.evaluate(yearOne, category: .learning, rate: 60, afk: [], day: E.DayLedger(), settings: s, now: now)
            XCTAssertEqual(o.reason, "too_old")
            XCTAssertEqual(d.points, 0)
        }
    }

    /// A 5-second alt-tab splits 6 minutes of Duolingo into two halves of
    /// 3: each too short alone (the minimum is 5), one run together.
    func testAnAltTabDoesNotMakeTwoShortSessions() {
        let a = E.Span(base, base + 180), b = E.Span(base + 185, base + 365)
        let runs = E.runs([b, a], gap: Int64(settings.mergeGapSeconds))
        XCTAssertEqual(runs, [[a, b]])
        XCTAssertEqual(E.runs([a, b], gap: 5), [[a], [b]], "a gap of 5 seconds is not shorter than 5")
        var day = E.DayLedger()
        for x in [a, b] {
            let o = E.evaluate(E.Session(child: "c", app: "Duolingo", span: x), category: .learning, rate: 60, afk: [], day: &day,
                               settings: settings, now: base + 86_400, run: runs[0])
            XCTAssertEqual(o.reason, "counted")
        }
        XCTAssertEqual(day.learningSeconds, 360)
        XCTAssertEqual(day.points, 6)
        // Alone, each is too short.
        let (alone, _) = E.evaluate(E.Session(child: "c", app: "Duolingo", span: a), category: .learning, rate: 60, afk: [], day: E.DayLedger(),
                                    settings: settings, now: base + 86_400)
        XCTAssertEqual(alone.reason, "too_short")
        // Away time counts against the run as against a session.
        let (afk, _) = E.evaluate(E.Session(child: "c", app: "Duolingo", span: a), category: .learning, rate: 60, afk: [E.Span(base + 200, base + 300)],
                                  day: E.DayLedger(), settings: settings, now: base + 86_400, run: runs[0])
        XCTAssertEqual(afk.reason, "too_short", "260 seconds left")
        // The first half ingested before (too short then): the second counts both.
        var later = E.DayLedger()
        let o = E.evaluate(E.Session(child: "c", app: "Duolingo", span: b), category: .learning, rate: 60, afk: [], day: &later,
                           settings: settings, now: base + 86_400, run: runs[0], judged: [a])
        XCTAssertEqual(o.learningSeconds, 360)
        XCTAssertEqual(o.counted, [a, b])
    }

    func testDailyCapStopsAccrual() {
        var s = settings
        s.maxPointsPerDay = 50
        let (o, day) = run([session(0, 40), session(3600, 40)], settings: s)
        XCTAssertEqual(o.map(\.points), [40, 10])
        XCTAssertEqual(o[1].reason, "daily_cap")
        XCTAssertEqual(day.points, 50)
    }

    /// At the cap, the part of a point the capped session left over is void:
    /// raising the cap later that day does not bring it back.
    func testLeftoverAtTheCapStaysVoidWhenTheCapIsRaised() {
        var s = settings
        s.maxPointsPerDay = 1
        var day = E.DayLedger()
        func learn(_ start: Int64, _ minutes: Int64) -> E.Outcome {
            let (o, d) = E.evaluate(session(start, minutes), category: .learning, rate: 10, afk: [], day: day, settings: s, now: base + 86_400)
            day = d
            return o
        }
        XCTAssertEqual(learn(0, 6).points, 1)  // 10 an hour: a point every 6 minutes
        let capped = learn(3600, 11)           // a point and 5 minutes' worth, at the cap
        XCTAssertEqual(capped.points, 0)
        XCTAssertEqual(capped.reason, "daily_cap")
        s.maxPointsPerDay = 300
        XCTAssertEqual(learn(7200, 5).points, 0, "the 5 minutes left over at the cap were void")
        XCTAssertEqual(learn(10_800, 6).points, 1)
    }

    /// Minecraft open 16:00–17:00 and Duolingo 16:15–16:45: the learning
    /// earns nothing, whichever comes first; learning counted before the
    /// reward time turned up is taken back, points and all.
    func testLearningUnderRewardTimeEarnsNothingInEitherOrder() {
        let reward = session(0, 60, app: "Minecraft"), learning = session(900, 30)
        func eval(_ x: E.Session, _ d: inout E.DayLedger) -> E.Outcome {
            E.evaluate(x, category: x.app == "Minecraft" ? .reward : .learning, rate: 60, afk: [], day: &d, settings: settings, now: base + 86_400)
        }
        var a = E.DayLedger()
        XCTAssertEqual(eval(reward, &a).rewardSeconds, 3600)
        let l = eval(learning, &a)
        XCTAssertEqual(l.reason, "during_reward")
        XCTAssertEqual(l.points, 0)
        var b = E.DayLedger()
        XCTAssertEqual(eval(learning, &b).points, 30)
        let r = eval(reward, &b)
        XCTAssertEqual(r.rewardSeconds, 3600, "reward time counts in full")
        XCTAssertEqual(r.points, -30, "the learning under it is taken back")
        XCTAssertEqual(r.learningSeconds, -1800)
        XCTAssertEqual(r.uncounted, [learning.span])
        for d in [a, b] {
            XCTAssertEqual(d.points, 0)
            XCTAssertEqual(d.learningSeconds, 0)
            XCTAssertEqual(d.counted, [])
            XCTAssertEqual(d.rewardSeconds, 3600)
        }
        // Part of a session: 16:45–17:15 learning keeps 17:00–17:15.
        var c = E.DayLedger()
        _ = eval(session(2700, 30), &c)
        XCTAssertEqual(eval(reward, &c).points, -15)
        XCTAssertEqual(c.points, 15)
        XCTAssertEqual(c.counted, [E.Span(base + 3600, base + 4500)])
    }

    /// Property: with learning apps at different rates, reward apps and a
    /// daily cap, any order of the same sessions ends the day with the same
    /// points, learning and reward time, and no learning second is counted
    /// under reward time. (Learning sessions of different apps do not
    /// overlap each other here: which rate pays for shared time depends on
    /// which came first.)
    func testRewardTimeTakesBackTheSameWhateverTheOrder() {
        var rng = SeededRandom(seed: 41)
        let rates = ["a": 60, "b": 90, "c": 200]
        for round in 0..<300 {
            var s = E.Settings()
            s.minSessionMinutes = Int.random(in: 0...2, using: &rng)
            s.maxPointsPerDay = Bool.random(using: &rng) ? 100_000 : Int.random(in: 20...300, using: &rng)
            var sessions: [E.Session] = []
            var t = base
            for _ in 0..<Int.random(in: 1...12, using: &rng) {  // learning, back to back per app
                let app = ["a", "b", "c"].randomElement(using: &rng)!
                let len = Int64.random(in: 60...5400, using: &rng)
                sessions.append(E.Session(child: "c", app: app, span: E.Span(t, t + len)))
                t += len + Int64.random(in: 0...600, using: &rng)
            }
            for _ in 0..<Int.random(in: 0...6, using: &rng) {
                let a = base + Int64.random(in: 0...(t - base), using: &rng)
                sessions.append(E.Session(child: "c", app: ["m", "n"].randomElement(using: &rng)!, span: E.Span(a, a + Int64.random(in: 60...7200, using: &rng))))
            }
            func play(_ order: [E.Session]) -> E.DayLedger {
                var d = E.DayLedger()
                for x in order {
                    let cat: E.Category = rates[x.app] == nil ? .reward : .learning
                    _ = E.evaluate(x, category: cat, rate: rates[x.app] ?? 60, afk: [], day: &d, settings: s, now: base + 86_400)
                }
                return d
            }
            let one = play(sessions)
            let other = play(sessions.shuffled(using: &rng))
            XCTAssertEqual(one.points, other.points, "round \(round)")
            XCTAssertEqual(one.learningSeconds, other.learningSeconds, "round \(round)")
            XCTAssertEqual(one.rewardSeconds, other.rewardSeconds, "round \(round)")
            XCTAssertEqual(one.counted, other.counted, "round \(round)")
            for d in [one, other] {
                XCTAssertTrue(d.counted.allSatisfy { E.intersectSorted($0, d.rewarded).isEmpty }, "round \(round): nothing counted under reward time")
                XCTAssertEqual(d.learningSeconds, d.counted.reduce(0) { $0 + $1.seconds })
                XCTAssertEqual(d.rated.values.flatMap { $0 }.reduce(0) { $0 + $1.seconds }, d.learningSeconds, "round \(round): every counted second has its rate")
                XCTAssertLessThanOrEqual(d.points, s.maxPointsPerDay)
                XCTAssertGreaterThanOrEqual(d.points, 0)
            }
        }
    }

    /// Property: over random sessions, AFK spans and rates, (1) points never
    /// exceed the daily cap, (2) counted time never exceeds the union of the
    /// active sessions, (3) re-running the same sessions adds nothing, and
    /// (4) without a cap no point is lost to rounding: total points equal
    /// floor(counted seconds × rate / 3600).
    func testEngineProperties() {
        var rng = SeededRandom(seed: 31)
        for round in 0..<500 {
            var s = E.Settings()
            s.minSessionMinutes = Int.random(in: 0...3, using: &rng)
            s.maxPointsPerDay = Bool.random(using: &rng) ? 100_000 : Int.random(in: 1...200, using: &rng)
            let rate = Int.random(in: 1...500, using: &rng)
            var sessions: [E.Session] = []
            for _ in 0..<Int.random(in: 1...40, using: &rng) {
                let start = Int64.random(in: 0...40_000, using: &rng)
                sessions.append(E.Session(child: "c", app: ["a", "b", "c"].randomElement(using: &rng)!,
                                          span: E.Span(base + start, base + start + Int64.random(in: 1...3600, using: &rng))))
            }
            let rawAFK = (0..<Int.random(in: 0...5, using: &rng)).map { _ -> E.Span in
                let a = Int64.random(in: 0...40_000, using: &rng)
                return E.Span(base + a, base + a + Int64.random(in: 1...1800, using: &rng))
            }
            let afk = E.union(rawAFK)  // as the callers pass them
            let (outcomes, day) = run(sessions, afk: afk, settings: s, rate: rate)
            XCTAssertLessThanOrEqual(day.points, s.maxPointsPerDay, "round \(round)")
            XCTAssertEqual(outcomes.reduce(0) { $0 + $1.points }, day.points)
            let activeUnion = E.union(sessions.flatMap { E.subtract($0.span, rawAFK) })
            let unionSeconds = activeUnion.reduce(0) { $0 + $1.seconds }
            XCTAssertLessThanOrEqual(day.learningSeconds, unionSeconds, "round \(round)")
            XCTAssertEqual(day.learningSeconds, day.counted.reduce(0) { $0 + $1.seconds })
            if s.maxPointsPerDay == 100_000 {
                XCTAssertEqual(Int64(day.points), day.learningSeconds * Int64(rate) / 3600, "round \(round): points lost to rounding")
            }
            // Again: nothing new.
            var again = day
            for x in sessions {
                let (o, d) = E.evaluate(x, category: .learning, rate: rate, afk: afk, day: again, settings: s, now: base + 86_400)
                XCTAssertEqual(o.points, 0)
                XCTAssertEqual(o.learningSeconds, 0)
                again = d
            }
        }
    }

    /// Many short sessions lose nothing: 600 sessions of 7 seconds at 60/hour
    /// are 4200 seconds, 70 points — though each alone is worth 0.
    func testSortedSpanOperationsAgreeWithTheGeneralOnes() {
        var rng = SeededRandom(seed: 77)
        for _ in 0..<2000 {
            let spans = (0..<Int.random(in: 0...12, using: &rng)).map { _ -> E.Span in
                let a = Int64.random(in: 0...1000, using: &rng)
                return E.Span(a, a + Int64.random(in: 1...200, using: &rng))
            }
            var merged: [E.Span] = []
            for x in spans { E.insertMerged(&merged, x) }
            XCTAssertEqual(merged, E.union(spans))
            let a0 = Int64.random(in: 0...1100, using: &rng)
            let a = E.Span(a0, a0 + Int64.random(in: 1...300, using: &rng))
            XCTAssertEqual(E.subtractSorted(a, merged), E.subtract(a, spans))
        }
    }

    func testManyShortSessionsLoseNoPoints() {
        var s = settings
        s.minSessionMinutes = 0
        let many = (0..<600).map { E.Session(child: "c", app: "a", span: E.Span(base + Int64($0) * 10, base + Int64($0) * 10 + 7)) }
        let (o, day) = run(many, settings: s)
        XCTAssertEqual(o[0].points, 0)
        XCTAssertEqual(day.points, 70)
        XCTAssertEqual(E.award(7 * 60, carried: 0).points, 0)
    }

    func testRedeemRefusalsSayWhatIsPossible() {
        var s = E.Settings()
        s.conversionRate = 10
        s.dailyRewardLimitMinutes = 60
        s.weeklyRewardLimitMinutes = 100
        XCTAssertEqual(try E.redeem(minutes: 20, balance: 500, grantedToday: 0, grantedThisWeek: 0, settings: s).get(), E.Redemption(minutes: 20, points: 200))
        func reason(_ r: Result<E.Redemption, ToolError>) -> String? { if case .failure(let e) = r { return e.message }; return nil }
        XCTAssertEqual(reason(E.redeem(minutes: 30, balance: 250, grantedToday: 0, grantedThisWeek: 0, settings: s)),
                       "30 minutes cost 300 points and the balance is 250; 25 minutes would be possible now")
        XCTAssertEqual(reason(E.redeem(minutes: 30, balance: 900, grantedToday: 45, grantedThisWeek: 45, settings: s)),
                       "the daily limit is 60 reward minutes and 45 are granted today; 15 minutes would be possible now")
        XCTAssertEqual(reason(E.redeem(minutes: 30, balance: 900, grantedToday: 0, grantedThisWeek: 90, settings: s)),
                       "the weekly limit is 100 reward minutes and 90 are granted this week; 10 minutes would be possible now")
        XCTAssertEqual(reason(E.redeem(minutes: 5, balance: 9, grantedToday: 0, grantedThisWeek: 0, settings: s)),
                       "5 minutes cost 50 points and the balance is 9; nothing can be redeemed now")
        // Property: a successful redemption never exceeds the balance or a limit.
        var rng = SeededRandom(seed: 12)
        for _ in 0..<2000 {
            let m = Int.random(in: 1...200, using: &rng), bal = Int.random(in: 0...3000, using: &rng)
            let today = Int.random(in: 0...80, using: &rng), week = Int.random(in: today...150, using: &rng)
            if case .success(let r) = E.redeem(minutes: m, balance: bal, grantedToday: today, grantedThisWeek: week, settings: s) {
                XCTAssertLessThanOrEqual(r.points, bal)
                XCTAssertLessThanOrEqual(today + m, s.dailyRewardLimitMinutes)
                XCTAssertLessThanOrEqual(week + m, s.weeklyRewardLimitMinutes)
            }
        }
    }

    func testSettingsValidation() {
        var s = E.Settings()
        XCTAssertNoThrow(try s.set("conversion_rate", "15"))
        XCTAssertEqual(s.conversionRate, 15)
        XCTAssertThrowsError(try s.set("conversion_rate", "0")) { e in
            XCTAssertEqual((e as! ToolError).message, "conversion_rate must be a whole number from 1 to 1000 (points per reward minute), not '0'")
        }
        XCTAssertThrowsError(try s.set("conversion_rat", "5")) { e in
            XCTAssertTrue((e as! ToolError).message.hasPrefix("unknown setting 'conversion_rat' (did you mean 'conversion_rate'?)"))
        }
    }
}

final class RewardsReportTests: XCTestCase {
    /// Cells a spreadsheet would run as formulas get a quote in front and are
    /// quoted (OWASP's advice); other cells are quoted only when needed.
    func testCSVCellsNeutraliseFormulas() {
        let cases: [(String, String)] = [
            ("=HYPERLINK(\"http://x\",\"y\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""),
            ("+1", "\"'+1\""), ("-2+3", "\"'-2+3\""), ("@SUM(A1)", "\"'@SUM(A1)\""),
            ("\tcmd", "\"'\tcmd\""), ("\rcmd", "\"'\rcmd\""),
            ("Duolingo", "Duolingo"), ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""), ("a\nb", "\"a\nb\""),
            ("x=1", "x=1"), ("", ""),
        ]
        for (cell, want) in cases { XCTAssertEqual(Rewards.csv(cell), want, cell) }
    }
}

final class ActivityWatchTests: XCTestCase {
    func fixture() throws -> JSON {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        let path = parts.joined(separator: "/") + "/Fixtures/activitywatch-export.json"
        return try JSON.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// The fixture, by hand: Duolingo 15:00–15:30 (two window events a
    /// 2.5-second gap apart: one session) minus AFK 15:25–15:30 = 25 min;
    /// Khan Academy 15:34–15:37 is 3 min (under the 5-minute minimum);
    /// Khan Academy 16:00–16:30 minus AFK 16:20–16:30 = 20 min. Learning:
    /// 45 minutes. Minecraft (reward): 4 + 15 = 19 minutes.
    func testFixtureGivesTheExpectedLearningMinutes() throws {
        let usage = try ActivityWatch.read(try fixture(), now: Instant(seconds: 1_800_000_000)).get()
        XCTAssertEqual(usage.sessions.map(\.app), ["Duolingo", "Minecraft", "khan academy", "Khan Academy", "Minecraft"])
        XCTAssertEqual(usage.afk.count, 2)
        let cats: [String: RewardsEngine.Category] = ["duolingo": .learning, "khan academy": .learning, "minecraft": .reward]
        var day = RewardsEngine.DayLedger()
        var s = RewardsEngine.Settings()
        s.minSessionMinutes = 5
        s.maxSessionAgeDays = 3650
        var reasons: [String] = []
        for x in usage.sessions {
            let sess = RewardsEngine.Session(child: "alex", app: x.app, span: x.span)
            let (o, d) = RewardsEngine.evaluate(sess, category: cats[x.app.lowercased()], rate: 60, afk: usage.afk, day: day,
                                                settings: s, now: 1_800_000_000)
            reasons.append(o.reason)
            day = d
        }
        XCTAssertEqual(reasons, ["counted", "counted", "too_short", "counted", "counted"])
        XCTAssertEqual(day.learningSeconds, 45 * 60)
        XCTAssertEqual(day.points, 45)
        XCTAssertEqual(day.rewardSeconds, 19 * 60)
    }

    func testNotAnExport() {
        guard case .failure(let e) = ActivityWatch.read(.array([]), now: Instant(seconds: 1_800_000_000)) else { return XCTFail() }
        XCTAssertTrue(e.message.hasPrefix("not an ActivityWatch export"))
    }
}

/// Web time: aw-watcher-web's tabs while the browser is in front are
/// visits to sites; app rules claim sites (and the hosts under them).
final class ActivityWatchWebTests: XCTestCase {
    typealias E = RewardsEngine

    func fixture() throws -> JSON {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return try JSON.parse(Array(try Data(contentsOf: URL(fileURLWithPath: parts.joined(separator: "/") + "/Fixtures/activitywatch-web-export.json"))))
    }

    func t(_ hhmm: String) -> Int64 { RFC3339.parse("2026-11-21T\(hhmm):00Z")!.instant.seconds }

    /// By hand: Firefox is in front 14:00–15:00 and 15:20–15:40, Minecraft
    /// 15:00–15:20. The tabs: Khan Academy 14:00–14:30, YouTube 14:30–14:50,
    /// es.khanacademy.org 14:50–15:20 (in front until 15:00 only), a new-tab
    /// page 15:20–15:30 (not a site: Firefox's own time) and Khan Academy
    /// again 15:30–15:40.
    func testTabsInFrontAreVisitsAndTheRestStaysTheBrowsers() throws {
        let u = try ActivityWatch.read(try fixture(), now: Instant(seconds: 1_800_000_000)).get()
        XCTAssertEqual(u.visits.map(\.host), ["www.khanacademy.org", "www.youtube.com", "es.khanacademy.org", "khanacademy.org"])
        XCTAssertEqual(u.visits.map(\.span), [E.Span(t("14:00"), t("14:30")), E.Span(t("14:30"), t("14:50")), E.Span(t("14:50"), t("15:00")),
                                              E.Span(t("15:30"), t("15:40"))])
        XCTAssertEqual(u.sessions.map(\.app), ["Minecraft", "Firefox"])
        XCTAssertEqual(u.sessions.map(\.span), [E.Span(t("15:00"), t("15:20")), E.Span(t("15:20"), t("15:30"))])
        XCTAssertEqual(u.afk, [E.Span(t("14:50"), t("15:00"))])
    }

    /// With no window watcher in the export, tabs count as they are; with
    /// one, a tab counts only while its browser is in front: a tab left
    /// open behind a terminal (or a game) earns nothing.
    func testAWebOnlyExportKeepsItsVisits() throws {
        let tab = #""aw-watcher-web-chrome":{"type":"web.tab.current","events":[{"timestamp":"2026-11-21T14:00:00Z","duration":600,"data":{"url":"http://Docs.Example.org./a","title":"x"}}]}"#
        let u = try ActivityWatch.read(try JSON.parse("{\"buckets\":{\(tab)}}"), now: Instant(seconds: 1_800_000_000)).get()
        XCTAssertEqual(u.visits.map(\.host), ["docs.example.org"])
        XCTAssertEqual(u.visits.map(\.span), [E.Span(t("14:00"), t("14:10"))])
        let behind = try JSON.parse(#"{"buckets":{\#(tab),"aw-watcher-window_x":{"type":"currentwindow","events":[{"timestamp":"2026-11-21T14:00:00Z","duration":600,"data":{"app":"Terminal"}}]}}}"#)
        let b = try ActivityWatch.read(behind, now: Instant(seconds: 1_800_000_000)).get()
        XCTAssertEqual(b.visits.count, 0, "behind the terminal")
        XCTAssertEqual(b.sessions.map(\.app), ["Terminal"], "not a browser: untouched")
        // Firefox as some desktops name its window.
        let navigator = try JSON.parse(#"{"buckets":{"aw-watcher-web-firefox":{"type":"web.tab.current","events":[{"timestamp":"2026-11-21T14:00:00Z","duration":600,"data":{"url":"https://docs.example.org/"}}]},"aw-watcher-window_x":{"type":"currentwindow","events":[{"timestamp":"2026-11-21T14:05:00Z","duration":60,"data":{"app":"Navigator"}}]}}}"#)
        XCTAssertEqual(try ActivityWatch.read(navigator, now: Instant(seconds: 1_800_000_000)).get().visits.map(\.span), [E.Span(t("14:05"), t("14:06"))])
    }

    func testHostsOfURLs() {
        let cases: [(String, String?)] = [
            ("https://www.khanacademy.org/math?x=1#y", "www.khanacademy.org"), ("HTTP://User:pw@Example.COM:8080/", "example.com"),
            ("https://khanacademy.org.", "khanacademy.org"), ("https://[::1]:80/", "[::1]"), ("http://host?q", "host"),
            ("about:blank", nil), ("chrome://newtab/", nil), ("file:///home/alex/a.html", nil), ("https://", nil),
        ]
        for (url, host) in cases { XCTAssertEqual(ActivityWatch.host(ofURL: url), host, url) }
    }

    /// A site matches its host and the hosts under it, the longest site
    /// winning; "notkhanacademy.org" is not under khanacademy.org.
    func testSitesMatchTheirHostAndTheHostsUnderIt() {
        var s = RewardsState(full: true)
        s.apply(["type": "family_created", "owner": "mum", "by": "mum"])
        s.apply(["type": "app_set", "name": "Khan Academy", "category": "learning", "sites": .array(["khanacademy.org"]), "by": "mum"])
        s.apply(["type": "app_set", "name": "Google Docs", "category": "learning", "sites": .array(["docs.google.com"]), "by": "mum"])
        s.apply(["type": "app_set", "name": "Google", "category": "ignore", "sites": .array(["google.com"]), "by": "mum"])
        let cases: [(String, String?)] = [
            ("khanacademy.org", "Khan Academy"), ("www.khanacademy.org", "Khan Academy"), ("es.khanacademy.org", "Khan Academy"),
            ("notkhanacademy.org", nil), ("khanacademy.org.evil.com", nil), ("docs.google.com", "Google Docs"),
            ("a.docs.google.com", "Google Docs"), ("mail.google.com", "Google"), ("youtube.com", nil),
        ]
        for (host, app) in cases { XCTAssertEqual(Rewards.appForSite(host, apps: s.apps), app, host) }
        XCTAssertEqual(Rewards.siteName("www.youtube.com"), "youtube.com")
        for (raw, site) in [("KhanAcademy.org", "khanacademy.org"), ("*.khanacademy.org", "khanacademy.org"), ("localhost", "localhost"),
                            ("https://khanacademy.org", nil), ("khan academy.org", nil), ("-x.org", nil), ("a..b", nil), ("", nil)] as [(String, String?)] {
            XCTAssertEqual(Rewards.checkSite(raw), site, raw)
        }
    }
}

final class ActivityWatchInputTests: XCTestCase {
    let now = RFC3339.parse("2026-11-21T20:00:00-05:00")!.instant

    func reason(_ event: String) -> String? {
        let doc = try! JSON.parse(#"{"buckets":{"aw-watcher-window_host":{"type":"currentwindow","events":[\#(event)]}}}"#)
        if case .failure(let e) = ActivityWatch.read(doc, now: now) { return e.message }
        return nil
    }

    func testEventsAreCheckedFieldByField() throws {
        XCTAssertNil(reason(#"{"timestamp":"2026-11-21T15:00:00+0000","duration":60,"data":{"app":"Duolingo"}}"#), "+hhmm offsets")
        // A time outside the plausible window leaves that event out, named; the rest counts.
        for (e, r) in [(#"{"timestamp":"0001-01-01T00:00:00Z","duration":60}"#, "\"timestamp\" 0001-01-01T00:00:00Z is before 2000-01-01: not a plausible time"),
                       (#"{"timestamp":"2027-01-01T00:00:00Z","duration":60}"#, "\"timestamp\" 2027-01-01T00:00:00Z is more than a day after now (now is 2026-11-22T01:00:00Z)")] {
            XCTAssertNil(reason(e))
            let doc = try JSON.parse(#"{"buckets":{"aw-watcher-window_host":{"type":"currentwindow","events":[\#(e)]}}}"#)
            XCTAssertEqual(try ActivityWatch.read(doc, now: now).get().skipped, ["aw-watcher-window_host event 0: " + r])
        }
        let cases: [(String, String)] = [
            (#"{"timestamp":1795000000,"duration":60}"#, "\"timestamp\" must be a string, not a number"),
            (#"{"timestamp":"2026-11-21T15:00:00Z","duration":"60"}"#, "\"duration\" must be a number, not a string"),
            (#"{"timestamp":"2026-11-21T15:00:00Z","duration":-1}"#, "\"duration\" must be 0 to 999999999 seconds"),
            (#"{"duration":60}"#, "missing \"timestamp\"; need \"timestamp\" (RFC 3339) and \"duration\" (seconds)"),
            (#"7"#, "must be an object, not a number"),
        ]
        for (e, r) in cases { XCTAssertEqual(reason(e), "aw-watcher-window_host event 0: " + r, e) }
    }
}
