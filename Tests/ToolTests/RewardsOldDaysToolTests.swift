import XCTest

/// A family with most of a year behind it, through the executable: the
/// snapshot's hot part holds the last 35 days (the rest is cold, summed
/// up), and every answer is the one a fold of the journals gives — today's
/// dashboard with a streak that began before the window, a clock set back
/// into the old days, a late session for an old day, a new goal.
final class RewardsOldDaysToolTests: ToolTestCase {
    let now = "2026-11-21T20:00:00-05:00"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["REWARDS_DATA_DIR"] = dataDir
        e["REWARDS_NOW"] = now
        e["REWARDS_USER"] = "mum"
        e["TZ"] = "America/New_York"
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    /// `days` days of 40 minutes of Duolingo for Alex, ending yesterday (one
    /// day missed `gap` days ago), and 10 for Bo.
    func seed(days: Int, gap: Int) throws {
        for args in [["init"], ["child", "add", "Alex"], ["child", "add", "Bo"], ["app", "set", "Duolingo", "--learning"],
                     ["settings", "set", "daily_goal_minutes", "30"], ["settings", "set", "max_session_age_days", "3650"]] {
            let r = run("rewards", args)
            XCTAssertEqual(r.code, 0, "\(args): \(r.err)")
        }
        var lines = ""
        for back in 1...days where back != gap {
            let d = day(back: back)
            lines += #"{"child":"Alex","app":"Duolingo","start":"\#(d)T16:00:00-05:00","duration_s":2400}"# + "\n"
            lines += #"{"child":"Bo","app":"Duolingo","start":"\#(d)T17:00:00-05:00","duration_s":600}"# + "\n"
        }
        let r = run("rewards", ["ingest"], stdin: lines)
        XCTAssertEqual(r.code, 0, r.err)
    }

    func day(back: Int) -> String {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "America/New_York")!
        let f = DateFormatter()
        f.calendar = c
        f.timeZone = c.timeZone
        f.dateFormat = "yyyy-MM-dd"
        return f.string(from: c.date(byAdding: .day, value: -back, to: ISO8601DateFormatter().date(from: now)!)!)
    }

    /// The hot part's day lines, and whether it has the summary line.
    func hotPart() throws -> (days: Int, summary: Bool) {
        let text = try String(contentsOfFile: dataDir + "/snapshot.ndjson", encoding: .utf8)
        var days = 0, summary = false
        for l in text.split(separator: "\n") {
            if l.hasPrefix(#"{"type":"cold""#) { break }
            if l.hasPrefix(#"{"k":"day""#) { days += 1 }
            if l.hasPrefix(#"{"k":"old_days""#) { summary = true }
        }
        return (days, summary)
    }

    /// What a fold of the journals answers: the same command with no
    /// snapshot or checkpoint to start from (in a copy of the store).
    func refolded(_ args: [String], env: [String: String] = [:]) throws -> RunResult {
        let copy = tmp + "/refold-\(UUID().uuidString)"
        try FileManager.default.copyItem(atPath: dataDir, toPath: copy)
        for f in try FileManager.default.contentsOfDirectory(atPath: copy) where f.hasPrefix("snapshot") || f.hasPrefix("checkpoint") {
            try FileManager.default.removeItem(atPath: copy + "/" + f)
        }
        var e = env
        e["REWARDS_DATA_DIR"] = copy
        return run("rewards", args, env: e)
    }

    func testAYearsDashboardReadsTheWindowAndAnswersAsTheJournals() throws {
        try seed(days: 300, gap: 250)
        XCTAssertEqual(run("rewards", ["dashboard"]).code, 0)  // (the snapshot is written after a long ingest)
        let hot = try hotPart()
        XCTAssertTrue(hot.summary, "the days before the window are summed up")
        XCTAssertLessThanOrEqual(hot.days, 2 * 35, "the hot part holds 35 days a child, not 300")
        let d = run("rewards", ["dashboard"])
        XCTAssertEqual(d.code, 0, d.err)
        let alex = try XCTUnwrap(d.records.first { $0["child"] as? String == "Alex" })
        XCTAssertEqual(alex["streak_days"] as? Int, 249, "the streak began before the window")
        XCTAssertEqual(d.out, try refolded(["dashboard"]).out)
        // A clock set back into the old days reads them.
        let then = ["REWARDS_NOW": "2026-03-01T20:00:00-05:00"]
        let past = run("rewards", ["dashboard"], env: then)
        XCTAssertEqual(past.code, 0, past.err)
        XCTAssertEqual(past.out, try refolded(["dashboard"], env: then).out)
        XCTAssertEqual(try XCTUnwrap(past.records.first { $0["child"] as? String == "Alex" })["streak_days"] as? Int, 36, "300 days back to March 1st")
        // Every day is still exported.
        let export = run("rewards", ["child", "export", "Alex"])
        XCTAssertEqual(export.records.filter { $0["type"] as? String == "day" }.count, 299)
    }

    func testALateSessionForAnOldDayAndANewGoalCountAsAFoldDoes() throws {
        try seed(days: 200, gap: 0)
        XCTAssertEqual(run("rewards", ["dashboard"]).code, 0)
        XCTAssertTrue(try hotPart().summary)
        // Bo learns enough on an old day: a session ingested late.
        let old = day(back: 150)
        let late = run("rewards", ["ingest"], stdin: #"{"child":"Bo","app":"Duolingo","start":"\#(old)T18:00:00-05:00","duration_s":1500}"# + "\n")
        XCTAssertEqual(late.code, 0, late.err)
        let a = run("rewards", ["dashboard"])
        XCTAssertEqual(a.out, try refolded(["dashboard"]).out)
        let bo = try XCTUnwrap(a.records.first { $0["child"] as? String == "Bo" })
        XCTAssertTrue(try XCTUnwrap(bo["badges"] as? [String]).contains("goal-met"))
        // A lower goal makes every old day of Bo's count.
        XCTAssertEqual(run("rewards", ["settings", "set", "daily_goal_minutes", "10"]).code, 0)
        let b = run("rewards", ["dashboard"])
        XCTAssertEqual(b.out, try refolded(["dashboard"]).out)
        XCTAssertEqual(try XCTUnwrap(b.records.first { $0["child"] as? String == "Bo" })["streak_days"] as? Int, 200)
    }
}
