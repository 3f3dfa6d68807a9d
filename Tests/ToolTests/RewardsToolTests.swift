import XCTest

final class RewardsToolTests: ToolTestCase {
    let now = "2026-11-21T20:00:00-05:00"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["REWARDS_DATA_DIR"] = dataDir
        e["REWARDS_NOW"] = now
        e["REWARDS_USER"] = "mum"
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    var fixture: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/NudgeKitTests/Rewards/Fixtures/activitywatch-export.json"
    }

    @discardableResult
    func rw(_ args: String..., as user: String = "mum", stdin: String? = nil) -> RunResult {
        run("rewards", args, stdin: stdin, env: ["REWARDS_USER": user])
    }

    func setUpFamily() {
        XCTAssertEqual(rw("init").code, 0)
        rw("child", "add", "Alex", "--user", "alex")
        rw("app", "set", "Duolingo", "--learning")
        rw("app", "set", "Khan Academy", "--learning", "--points-per-hour", "90")
        rw("app", "set", "Minecraft", "--reward")
    }

    /// A child's notification never says minutes are theirs beside "0 min
    /// left": one line says what is left of the time redeemed and what more
    /// may be redeemed.
    func testAlmostUpAndMoreToRedeemAreOneMessage() {
        setUpFamily()
        rw("ingest", stdin: #"{"child":"Alex","app":"Duolingo","start":"2026-11-21T08:00:00-05:00","duration_s":6000}"# + "\n")
        XCTAssertEqual(rw("redeem", "Alex", "3", "--app", "Minecraft", as: "alex").code, 0)
        rw("ingest", stdin: #"{"child":"Alex","app":"Minecraft","start":"2026-11-21T19:50:00-05:00","duration_s":180}"# + "\n")
        let n = rw("notify", as: "alex").records.first { $0["role"] as? String == "child" }
        let body = n?["body"] as? String ?? ""
        XCTAssertTrue(body.contains("The reward time you redeemed is almost up (0 min left); 7 more minutes are yours to redeem"), body)
        XCTAssertFalse(body.split(separator: "\n").contains { $0.hasPrefix("7 reward minutes are yours") }, body)
    }

    /// report's text layout lines up: each column starts at one place.
    func testReportTextColumnsLineUp() {
        setUpFamily()
        rw("child", "add", "Maximilian")
        rw("ingest", stdin: #"{"child":"Alex","app":"Duolingo","start":"2026-11-21T16:00:00-05:00","duration_s":1500}"# + "\n"
                          + #"{"child":"Maximilian","app":"Khan Academy","start":"2026-11-21T16:00:00-05:00","duration_s":6000}"# + "\n")
        let lines = rw("report", "--by", "app", "--format", "text").lines
        XCTAssertGreaterThanOrEqual(lines.count, 2, "\(lines)")
        for marker in ["min learning", "min reward", "points"] {
            let at = Set(lines.compactMap { l in l.range(of: marker).map { l.distance(from: l.startIndex, to: $0.lowerBound) } })
            XCTAssertEqual(at.count, 1, "'\(marker)' is not in one column:\n\(lines.joined(separator: "\n"))")
        }
    }

    /// By day the text report is a picture in the width asked for, in ASCII
    /// under the C locale, coloured only when asked.
    func testReportByDayIsAPictureInTheWidthAndCharactersOfTheTerminal() {
        setUpFamily()
        rw("ingest", stdin: #"{"child":"Alex","app":"Duolingo","start":"2026-11-20T16:00:00-05:00","duration_s":4500}"# + "\n"
                          + #"{"child":"Alex","app":"Minecraft","start":"2026-11-21T18:00:00-05:00","duration_s":1200}"# + "\n")
        let r = run("rewards", ["report", "--from", "2026-11-15", "--format", "text"], env: ["COLUMNS": "40", "LANG": "C"])
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.out, """
            Alex, 15 Nov 2026 to 21 Nov 2026
            | goal 60 min learning, cap 120 reward
                       learning    reward      pts
                       . 5 empty days to 19 Nov
            Fri 20 Nov ######  75  .    |   0   75
            Sat 21 Nov .   |    0  #    |  20    0
            total              75          20   75

            """)
        let painted = run("rewards", ["report", "--from", "2026-11-15", "--format", "text", "--color", "always"], env: ["COLUMNS": "40"])
        XCTAssertTrue(painted.out.contains("\u{1B}[32m"), painted.out)
        XCTAssertTrue(painted.out.contains("█"), "block characters under a UTF-8 locale")
        let plain = run("rewards", ["report", "--from", "2026-11-15", "--format", "text"], env: ["COLUMNS": "40", "NO_COLOR": "1"])
        XCTAssertFalse(plain.out.contains("\u{1B}"))
    }

    /// ActivityWatch reports the window's app: Minecraft is `java`, a game in
    /// a browser is the browser with a title. The app's process and title
    /// patterns say which app each window is, and it is charged as that app.
    func testActivityWatchWindowsAreTheAppsTheirProcessesAndTitlesName() {
        setUpFamily()
        rw("app", "set", "Minecraft", "--reward", "--process", "java")
        XCTAssertEqual(rw("app", "set", "Krunker", "--reward", "--title", "*krunker.io*").code, 0)
        XCTAssertEqual(rw("app", "set", "Scratch", "--learning", "--process", "java", "--title", "Scratch*").code, 0)
        XCTAssertEqual(rw("app", "list").records.first { $0["name"] as? String == "Scratch" }?["titles"] as? [String], ["Scratch*"])
        let export = write("aw.json", """
            {"buckets":{"aw-watcher-window_kids-pc":{"type":"currentwindow","events":[
             {"timestamp":"2026-11-21T15:00:00-05:00","duration":2400,"data":{"app":"java","title":"Minecraft 1.20.1"}},
             {"timestamp":"2026-11-21T16:00:00-05:00","duration":1800,"data":{"app":"java","title":"Scratch Desktop"}},
             {"timestamp":"2026-11-21T17:00:00-05:00","duration":1200,"data":{"app":"Firefox","title":"Krunker.io - Mozilla Firefox"}}
            ]}}}
            """)
        let r = rw("ingest", "--activitywatch", export, "--child", "Alex", "--sessions")
        XCTAssertEqual(r.code, 0, r.err)
        let sessions = r.records.filter { $0["type"] as? String == "session" }
        XCTAssertEqual(sessions.map { $0["app"] as? String }, ["Minecraft", "Scratch", "Krunker"])
        XCTAssertEqual(sessions.map { $0["reason"] as? String }, ["counted", "counted", "counted"])
        let day = r.records.first { $0["type"] as? String == "day" }
        XCTAssertEqual(day?["reward_s"] as? Int, 3600, "java's 40 minutes are Minecraft's, the browser's 20 Krunker's")
        XCTAssertEqual(day?["learning_s"] as? Int, 1800)

        for (bad, why) in [("*", "--title '*' would match every window; name the app's own"),
                           ("a*b*c*d*e*f", "--title is a window-title pattern like 'Minecraft*' or '*krunker.io*' (1 to 128 characters, at most 4 '*'), not 'a*b*c*d*e*f'")] {
            let e = rw("app", "set", "X", "--reward", "--title", bad)
            XCTAssertEqual(e.code, 64)
            XCTAssertEqual(e.err, "rewards: \(why)\n")
        }
    }

    func testActivityWatchPipelineAndIdempotentIngest() {
        setUpFamily()
        let first = rw("ingest", "--activitywatch", fixture, "--child", "Alex", "--sessions")
        XCTAssertEqual(first.code, 0, first.err)
        let sessions = first.records.filter { $0["type"] as? String == "session" }
        XCTAssertEqual(sessions.map { $0["reason"] as? String }, ["counted", "counted", "too_short", "counted", "counted"])
        XCTAssertEqual(sessions.reduce(0) { $0 + ($1["points"] as? Int ?? 0) }, 55)
        XCTAssertTrue(sessions.allSatisfy { $0["child"] as? String == "Alex" })
        let day = first.records.first { $0["type"] as? String == "day" }
        XCTAssertEqual(day?["added"] as? Int, 5)
        XCTAssertEqual(day?["points"] as? Int, 55)
        XCTAssertEqual(day?["reasons"] as? [String: Int], ["counted": 4, "too_short": 1])
        let again = rw("ingest", "--activitywatch", fixture, "--child", "Alex")
        XCTAssertEqual(again.records.filter { $0["type"] as? String == "session" }.count, 0, "per session only with --sessions")
        let dayAgain = again.records.first { $0["type"] as? String == "day" }
        XCTAssertEqual(dayAgain?["added"] as? Int, 0)
        XCTAssertEqual(dayAgain?["duplicates"] as? Int, 5, "re-ingesting never awards twice")
        XCTAssertEqual(dayAgain?["points"] as? Int, 0)
        XCTAssertTrue(rw("ingest", "--activitywatch", fixture, "--child", "Alex", "--format", "text").out
            .contains("0 new sessions, 5 already ingested"))
        let d = rw("dashboard", "Alex").records[0]
        XCTAssertEqual(d["balance"] as? Int, 55)
        XCTAssertEqual(d["learning_minutes_today"] as? Int, 45)
        XCTAssertEqual(d["reward_minutes_today"] as? Int, 19)
        XCTAssertEqual((d["last_sessions"] as? [Any])?.count, 5)
        XCTAssertEqual((d["points_last_7_days"] as? [Any])?.count, 7)
        XCTAssertTrue(rw("dashboard", "--format", "text").out.contains("Goal   ███████████████░░░░░ 45/60 min"))
    }

    /// A name is the same name however a line writes it (plain, escaped,
    /// after the app was first seen in another case); a blank one, a
    /// missing one and one of the wrong type are named, and the lines
    /// around them still count.
    func testNamesAreReadTheSameHoweverALineWritesThem() {
        setUpFamily()
        let input = #"""
        {"child":"Alex","app":"Duolingo","start":"2026-11-21T16:00:00-05:00","duration_s":600}
        {"child":"Al\u0065x","app":"duolingo","start":"2026-11-21T16:10:00-05:00","duration_s":600}
        {"child":"Alex","app":"Duo\u006cingo","start":"2026-11-21T16:20:00-05:00","end":"2026-11-21T16:30:00-05:00"}
        {"child":"Alex","app":"   ","start":"2026-11-21T17:00:00-05:00","duration_s":60}
        {"child":"Alex","app":"\t","start":"2026-11-21T17:00:00-05:00","duration_s":60}
        {"child":"Alex","app":7,"start":"2026-11-21T17:00:00-05:00","duration_s":60}
        {"child":"Alex","start":"2026-11-21T17:00:00-05:00","duration_s":60}
        {"child":" alex","app":"Duolingo","start":"2026-11-21T17:00:00-05:00","duration_s":60}
        {"child":"Zoë","app":"Duolingo","start":"2026-11-21T17:00:00-05:00","duration_s":60}
        {"child":"Alex","app":"Duolingo","start":"2026-11-21 17:30","duration_s":600}
        {"child":"Alex","app":"Duolingo","start":"2026-11-21T17:4","duration_s":60}

        """#
        let r = rw("ingest", "--sessions", stdin: input)
        XCTAssertEqual(r.code, 65)
        XCTAssertEqual(r.err, """
            rewards: stdin:4: "app" must not be empty
            rewards: stdin:5: "app" must not be empty
            rewards: stdin:6: "app" must be a string, not a number
            rewards: stdin:7: missing "app"; need {"child","app","start","end"} (or "duration_s" for "end"), times in RFC 3339 or epoch seconds
            rewards: stdin:9: no child named 'Zoë'; 'rewards child list' shows them
            rewards: stdin:11: "start" must be an RFC 3339 time like 2026-11-22T08:15:00-05:00 or epoch seconds (a number), not '2026-11-21T17:4'

            """)
        let s = r.records.filter { $0["type"] as? String == "session" }
        XCTAssertEqual(s.map { $0["app"] as? String }, ["Duolingo", "Duolingo", "Duolingo", "Duolingo", "Duolingo"], "one app, named as first written")
        XCTAssertEqual(s.map { $0["reason"] as? String }, ["counted", "counted", "counted", "too_short", "counted"], "' alex' is Alex, as 'child add' names match")
        XCTAssertEqual(s.last?["start"] as? String, "2026-11-21T17:30:00-05:00", "a local time is read in the zone")
        XCTAssertEqual(r.records.filter { $0["type"] as? String == "day" }.count, 1, "one child, one day")
    }

    func testSessionsFromNDJSONWithBadLinesAndHeldOnes() {
        setUpFamily()
        let input = """
        {"child":"Alex","app":"Duolingo","start":"2026-11-21T16:00:00-05:00","end":"2026-11-21T16:30:00-05:00"}
        {"child":"Alex","app":"Duolingo","start":"2026-11-21T16:15:00-05:00","duration_s":1800}
        {"child":"Nobody","app":"Duolingo","start":"2026-11-21T16:00:00-05:00","duration_s":60}
        {"child":"Alex","app":"Duolingo","start":"2026-11-21T10:00:00-05:00","duration_s":36000}

        """
        let r = rw("ingest", "--sessions", stdin: input)
        XCTAssertEqual(r.code, 65)
        XCTAssertEqual(r.err, "rewards: stdin:3: no child named 'Nobody'; 'rewards child list' shows them\n")
        let s = r.records.filter { $0["type"] as? String == "session" }
        XCTAssertEqual(s.map { $0["reason"] as? String }, ["too_long", "counted", "counted"])
        XCTAssertEqual(s.map { $0["points"] as? Int }, [0, 30, 15], "the overlap counts once")
        XCTAssertEqual(s.map { $0["start"] as? String }, ["2026-11-21T10:00:00-05:00", "2026-11-21T16:00:00-05:00", "2026-11-21T16:15:00-05:00"])
        let held = r.records.filter { $0["type"] as? String == "flag" }
        XCTAssertEqual(held.count, 1, "a held session is printed with its flag id")
        XCTAssertEqual(s[0]["flag"] as? String, held.first?["id"] as? String)
        let day = r.records.filter { $0["type"] as? String == "day" }
        XCTAssertEqual(day.count, 1)
        XCTAssertEqual(day[0]["sessions"] as? Int, 3)
        XCTAssertEqual(day[0]["added"] as? Int, 2)
        XCTAssertEqual(day[0]["held"] as? Int, 1)
        XCTAssertEqual(day[0]["points_today"] as? Int, 45)
        XCTAssertEqual(rw("ingest", stdin: input).records.filter { $0["type"] as? String == "flag" }.count, 0, "a held session is held once")
        let bad = rw("ingest", stdin: "{\"child\":\"Alex\",\"app\":\"Duolingo\",\"start\":\"2026-11-21T16:00:00-05:00\",\"end\":\"soon\"}\nnot json\n")
        XCTAssertEqual(bad.code, 65)
        XCTAssertTrue(bad.err.hasPrefix("rewards: stdin:1: \"end\" must be an RFC 3339 time like 2026-11-22T08:15:00-05:00 or epoch seconds (a number), not 'soon'\nrewards: stdin:2: "), bad.err)
        let flags = rw("flags").records
        XCTAssertEqual(flags.count, 1)
        XCTAssertEqual(flags[0]["reason"] as? String, "too_long")
        let ok = rw("flag", "approve", String((flags[0]["id"] as! String).prefix(6)))
        XCTAssertEqual(ok.records[0]["decision"] as? String, "approved")
        XCTAssertEqual(rw("flag", "approve", flags[0]["id"] as! String).code, 65, "decided once")
        XCTAssertEqual(rw("flags").out, "")
        XCTAssertEqual(rw("ingest", "--strict", stdin: "{\"child\":\"Alex\"}\n").code, 65)
    }

    func testRolesChildrenViewTheirOwnAndRedeemParentsDoTheRest() {
        setUpFamily()
        rw("adjust", "Alex", "+100", "--reason", "start-up bonus")
        rw("child", "add", "Sam", "--user", "sam")
        for args in [["app", "set", "Roblox", "--reward"], ["settings", "set", "conversion_rate", "1"], ["adjust", "Alex", "+50", "--reason", "me"],
                     ["child", "add", "Eve"], ["flags"], ["report"]] {
            let r = run("rewards", args, env: ["REWARDS_USER": "alex"])
            XCTAssertEqual(r.code, 77, "\(args)")
            XCTAssertTrue(r.err.hasPrefix("rewards: only a parent may do that"), r.err)
        }
        XCTAssertEqual(rw("dashboard", as: "alex").records.map { $0["child"] as? String }, ["Alex"], "a child sees only their own")
        XCTAssertEqual(rw("dashboard", "Sam", as: "alex").code, 77)
        XCTAssertEqual(rw("redeem", "Alex", "5", as: "alex").records[0]["points"] as? Int, 50)
        XCTAssertEqual(rw("redeem", "Sam", "1", as: "alex").code, 77)
        XCTAssertEqual(rw("dashboard", as: "stranger").code, 77)
        // Every change says who made it.
        let journal = try! String(contentsOfFile: dataDir + "/journal/" + (try! FileManager.default.contentsOfDirectory(atPath: dataDir + "/journal"))[0], encoding: .utf8)
        XCTAssertTrue(journal.contains("\"type\":\"grant\"") && journal.contains("\"by\":\"alex\""))
        XCTAssertTrue(journal.contains("\"type\":\"adjust\"") && journal.contains("\"by\":\"mum\""))
    }

    func testRedeemLimitsAndTheGrantCommand() {
        setUpFamily()
        rw("settings", "set", "daily_reward_limit_minutes", "30")
        rw("adjust", "Alex", "+1000", "--reason", "test")
        let over = rw("redeem", "Alex", "40")
        XCTAssertEqual(over.code, 65)
        XCTAssertEqual(over.err, "rewards: the daily limit is 30 reward minutes and 0 are granted today; 30 minutes would be possible now\n")
        let g = rw("redeem", "Alex", "20", "--app", "Minecraft", "--command", "cat > '\(tmp)/grant.json'")
        XCTAssertEqual(g.records[0]["applied"] as? Bool, true)
        XCTAssertTrue(try String(contentsOfFile: tmp + "/grant.json", encoding: .utf8).contains("\"minutes\":20"))
        XCTAssertEqual(rw("redeem", "Alex", "5", "--command", "exit 1").code, 75)
        XCTAssertEqual(rw("redeem", "Alex", "10").code, 65, "25 of 30 granted")
        let a = rw("allowance", "Alex").records[0]
        XCTAssertEqual(a["granted_minutes"] as? Int, 25)
        XCTAssertEqual(rw("redeem", "Alex", "5", "--app", "Duolingo").code, 65, "not a reward app")
        XCTAssertEqual(rw("adjust", "Alex", "-99999", "--reason", "x").code, 65, "the balance never goes negative")
        XCTAssertEqual(rw("adjust", "Alex", "50").code, 64, "a reason is required")
    }

    /// The grant command has a timeout, as the other tools' commands do
    /// (--timeout, grant_timeout): a hung one is ended, the grant stands and
    /// the next enforce hands it over again, once; a command's own exit 124
    /// is a plain failure; a bad timeout is named.
    func testAHungGrantCommandIsEndedAndTriedAgain() throws {
        setUpFamily()
        rw("adjust", "Alex", "+100", "--reason", "test")
        let log = tmp + "/granted.log"
        let hung = rw("redeem", "Alex", "5", "--command", "echo started >> '\(log)'; sleep 30", "--timeout", "1")
        XCTAssertEqual(hung.code, 75)
        XCTAssertEqual(hung.err, "rewards: the grant command ran past its timeout of 1 s and was ended; the grant stands, and 'rewards enforce' tries it again\n")
        XCTAssertEqual(hung.records.first?["applied"] as? Bool, false)
        let enforce = rw("enforce", "--command", "echo again >> '\(log)'")
        XCTAssertEqual(enforce.code, 0, enforce.err)
        XCTAssertEqual(enforce.records.filter { $0["type"] as? String == "grant" }.map { $0["applied"] as? Bool }, [true])
        XCTAssertEqual(rw("enforce", "--command", "echo thrice >> '\(log)'").records.filter { $0["type"] as? String == "grant" }.count, 0)
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8), "started\nagain\n", "applied once, then never again")
        XCTAssertEqual(rw("redeem", "Alex", "1", "--command", "exit 124").err,
                       "rewards: the grant command exited 124; the grant stands, and 'rewards enforce' tries it again\n")
        XCTAssertEqual(rw("redeem", "Alex", "1", "--timeout", "86401").err,
                       "rewards: --timeout must be a whole number of seconds from 1 to 86400, not '86401'\n")
        try FileManager.default.createDirectory(atPath: tmp + "/config/rewards", withIntermediateDirectories: true)
        _ = write("config/rewards/config", "grant_command = true\ngrant_timeout = 0\n")
        let bad = rw("redeem", "Alex", "1")
        XCTAssertEqual(bad.code, 78)
        XCTAssertEqual(bad.err, "rewards: \(tmp)/config/rewards/config: grant_timeout must be a whole number of seconds from 1 to 86400, not '0'\n")
        _ = write("config/rewards/config", "grant_command = true\ngrant_timeout = 5\n")
        XCTAssertEqual(rw("redeem", "Alex", "1").records.first?["applied"] as? Bool, true)
    }

    func testSettingsAppsAndReport() throws {
        setUpFamily()
        XCTAssertEqual(rw("settings", "set", "conversion_rate", "0").err,
                       "rewards: conversion_rate must be a whole number from 1 to 1000 (points per reward minute), not '0'\n")
        let set = rw("settings", "set", "conversion_rate", "15")
        XCTAssertEqual(set.records[0]["previous"] as? Int, 10)
        XCTAssertEqual(rw("settings", "set", "min_session_minutes", "0", "--child", "Alex").code, 0)
        let shown = rw("settings", "--child", "Alex").records
        XCTAssertEqual(shown.first { $0["key"] as? String == "min_session_minutes" }?["overridden"] as? Bool, true)
        let moved = rw("app", "set", "minecraft", "--learning")
        XCTAssertEqual(moved.records[0]["previous_category"] as? String, "reward")
        XCTAssertEqual(rw("app", "list", "--category", "learning").records.count, 3)
        XCTAssertEqual(rw("app", "list", "--search", "khan").records.map { $0["name"] as? String }, ["Khan Academy"])
        let imported = rw("app", "import", stdin: "{\"app\":\"Scratch\",\"category\":\"learning\",\"points_per_hour\":120}\n{\"app\":\"YouTube\",\"category\":\"reward\"}\n")
        XCTAssertEqual(imported.records.count, 2)
        rw("ingest", "--activitywatch", fixture, "--child", "Alex")
        let csv = rw("report", "--by", "category", "--format", "csv").out
        XCTAssertTrue(csv.hasPrefix("child,category,learning_minutes,reward_minutes,points,other_minutes\r\n"), csv)
        let days = rw("report", "--from", "2026-11-20", "--to", "2026-11-21").records
        XCTAssertEqual(days.map { $0["day"] as? String }, ["2026-11-20", "2026-11-21"])
    }

    /// Every file under `dir`, read as text.
    func everything(under dir: String) throws -> String {
        var all = ""
        let fm = FileManager.default
        for f in fm.enumerator(atPath: dir)?.compactMap({ $0 as? String }) ?? [] {
            var isDir: ObjCBool = false
            if fm.fileExists(atPath: dir + "/" + f, isDirectory: &isDir), !isDir.boolValue {
                all += String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir + "/" + f)), as: UTF8.self)
            }
        }
        return all
    }

    /// A child with usage, held sessions, grants they redeemed, badges and
    /// notifications (sent by the parent and by the child) is purged: after
    /// it nothing in the data directory names them (id, name, login).
    func testPurgeLeavesNothingOfTheChild() throws {
        setUpFamily()
        rw("child", "add", "Sam", "--user", "sam")
        rw("ingest", "--activitywatch", fixture, "--child", "Alex")
        rw("ingest", stdin: #"{"child":"Alex","app":"Duolingo","start":"2026-11-21T00:10:00-05:00","duration_s":36000}"# + "\n")
        rw("ingest", stdin: #"{"child":"Sam","app":"Duolingo","start":"2026-11-21T18:00:00-05:00","duration_s":1800}"# + "\n")
        rw("adjust", "Alex", "+10", "--reason", "Alex helped")
        rw("redeem", "Alex", "1", "--command", "true", as: "alex")
        rw("settings", "set", "daily_goal_minutes", "30", "--child", "Alex")
        rw("notify")
        rw("notify", as: "alex")
        rw("rollover", as: "alex")
        let export = rw("child", "export", "Alex")
        XCTAssertGreaterThan(export.records.count, 1)
        let id = export.records[0]["id"] as! String
        // Not on a terminal and without --yes: refused, nothing erased.
        let refused = rw("child", "rm", "Alex", "--purge")
        XCTAssertEqual(refused.code, 64)
        XCTAssertEqual(refused.err, "rewards: 'rewards child rm --purge' cannot be undone: run it with --yes (on a terminal it asks)\n")
        XCTAssertEqual(rw("child", "list").records.count, 2, "a refused purge changes nothing")
        let p = rw("child", "rm", "Alex", "--purge", "--yes")
        XCTAssertEqual(p.code, 0, p.err)
        XCTAssertEqual(p.records[0]["purged"] as? Bool, true)
        let all = try everything(under: dataDir)
        XCTAssertFalse(all.contains(id), "the child's id is gone")
        XCTAssertFalse(all.contains("Alex"), "the child's name is gone")
        XCTAssertFalse(all.contains("alex"), "the child's login is gone")
        XCTAssertTrue(all.contains("\"type\":\"erase\""), "a tombstone of digests stays")
        XCTAssertEqual(rw("child", "list").records.map { $0["name"] as? String }, ["Sam"])
        XCTAssertEqual(rw("dashboard").records.map { $0["child"] as? String }, ["Sam"])
        XCTAssertEqual(rw("dashboard", "Sam").records[0]["balance"] as? Int, 30, "Sam keeps what is theirs")
        XCTAssertEqual(rw("flags").out, "", "Alex's held session went too")
        XCTAssertEqual(rw("child", "rm", "Alex", "--purge", "--yes").code, 65, "nobody left to purge")
    }

    /// Removed first, purged later: a removed child can still be named.
    func testAChildRemovedBeforeCanBePurged() throws {
        setUpFamily()
        rw("ingest", "--activitywatch", fixture, "--child", "Alex")
        let id = rw("child", "list").records[0]["id"] as! String
        XCTAssertEqual(rw("child", "rm", "Alex").code, 0)
        XCTAssertEqual(rw("child", "list").out, "")
        XCTAssertTrue(try everything(under: dataDir).contains(id), "history kept")
        let p = rw("child", "rm", "alex", "--purge", "-y")
        XCTAssertEqual(p.code, 0, p.err)
        XCTAssertEqual(p.records[0]["id"] as? String, id)
        let all = try everything(under: dataDir)
        XCTAssertFalse(all.contains(id) || all.contains("Alex") || all.contains("alex"))
        XCTAssertEqual(rw("child", "rm", "Alex").code, 65, "without --purge a removed child is not named")
    }

    /// Two devices share a sync folder: the parent purges on one; the other
    /// drops the child too, and its own journal loses every trace the next
    /// time it runs.
    func testPurgeSyncsAcrossDevices() throws {
        let sync = tmp + "/Sync"
        @discardableResult func on(_ device: String, _ args: String..., stdin: String? = nil) -> RunResult {
            run("rewards", args, stdin: stdin, env: ["REWARDS_DATA_DIR": tmp + "/\(device)", "REWARDS_SYNC_DIR": sync, "REWARDS_ACTOR": device])
        }
        XCTAssertEqual(on("laptop", "init").code, 0)
        on("laptop", "child", "add", "Alex", "--user", "alex")
        on("laptop", "child", "add", "Sam")
        on("laptop", "app", "set", "Duolingo", "--learning")
        let r = on("desktop", "ingest", "--activitywatch", fixture, "--child", "Alex")
        XCTAssertEqual(r.code, 0, r.err)
        on("desktop", "ingest", stdin: #"{"child":"Sam","app":"Duolingo","start":"2026-11-21T18:00:00-05:00","duration_s":1800}"# + "\n")
        let id = on("laptop", "child", "list").records.first { $0["name"] as? String == "Alex" }?["id"] as! String
        XCTAssertTrue(try String(contentsOfFile: sync + "/desktop.ndjson", encoding: .utf8).contains(id), "the other device's journal names the child")
        XCTAssertEqual(on("laptop", "child", "rm", "Alex", "--purge", "--yes").code, 0)
        XCTAssertEqual(on("desktop", "child", "list").records.map { $0["name"] as? String }, ["Sam"], "the other device drops the child")
        XCTAssertEqual(on("desktop", "dashboard", "Sam").records.first?["balance"] as? Int, 30)
        for dir in [sync, tmp + "/laptop", tmp + "/desktop"] {
            let all = try everything(under: dir)
            XCTAssertFalse(all.contains(id) || all.contains("Alex") || all.contains("alex"), dir)
        }
    }

    func testNotifyBatchesOncePerPersonAndHonoursPreferences() {
        setUpFamily()
        rw("child", "add", "Sam", "--user", "sam")
        rw("ingest", "--activitywatch", fixture, "--child", "Alex")
        rw("settings", "set", "notify", "0", "--child", "Sam")
        let n = rw("notify")
        XCTAssertEqual(n.records.map { $0["role"] as? String }, ["child", "parent"], "one per person")
        XCTAssertEqual(n.records[0]["to"] as? String, "alex")
        XCTAssertTrue((n.records[0]["body"] as? String ?? "").contains("You earned 55 points today."))
        XCTAssertTrue((n.records[1]["body"] as? String ?? "").contains("Alex earned a badge: First points."))
        XCTAssertEqual(rw("notify").out, "", "never repeated")
        rw("adjust", "Sam", "+500", "--reason", "x")
        XCTAssertEqual(rw("notify").records.filter { $0["to"] as? String == "sam" }.count, 0, "Sam's notifications are off")
    }

    /// A co-parent gets the family update too (badges, limits, sessions to
    /// review), each under an id of their own, and neither twice.
    func testBothParentsGetTheFamilyUpdate() {
        setUpFamily()
        let code = rw("parent", "invite").records.first?["code"] as? String ?? ""
        XCTAssertEqual(rw("parent", "join", code, as: "dad").code, 0)
        rw("notify")  // what the co-parent's joining said
        rw("ingest", "--activitywatch", fixture, "--child", "Alex")
        let n = rw("notify").records.filter { $0["role"] as? String == "parent" && $0["title"] as? String == "rewards: family update" }
        XCTAssertEqual(n.map { $0["to"] as? String }, ["dad", "mum"])
        XCTAssertTrue(n.allSatisfy { ($0["body"] as? String ?? "").contains("Alex earned a badge: First points.") })
        XCTAssertEqual(Set(n.compactMap { $0["id"] as? String }).count, 2, "an id each")
        XCTAssertEqual(rw("notify").records.filter { $0["title"] as? String == "rewards: family update" }.count, 0, "never repeated")
    }

    func testAppRemoveForgetsOneAppForParentsOnly() {
        setUpFamily()
        let r = rw("app", "rm", "minecraft")
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.out, #"{"type":"app","name":"Minecraft","removed":true}"# + "\n", "found without regard to case, printed as set")
        XCTAssertEqual(rw("app", "list").records.map { $0["name"] as? String }, ["Duolingo", "Khan Academy"])
        let again = rw("app", "rm", "Minecraft")
        XCTAssertEqual(again.code, 65)
        XCTAssertEqual(again.err, "rewards: no app 'Minecraft'; 'rewards app list' shows them\n")
        let child = rw("app", "rm", "Duolingo", as: "alex")
        XCTAssertEqual(child.code, 77)
        XCTAssertEqual(child.err, "rewards: only a parent may do that (you are alex)\n")
        XCTAssertEqual(rw("app", "rm", "Khan Academy", "--format", "text").out, "Forgot Khan Academy\n")
    }

    /// A rejected session earns nothing, is not held again when the same
    /// usage comes in again, and cannot be decided twice.
    func testFlagRejectDropsAHeldSession() {
        setUpFamily()
        let long = "{\"child\":\"Alex\",\"app\":\"Duolingo\",\"start\":\"2026-11-21T08:00:00-05:00\",\"duration_s\":36000}\n"
        let held = rw("ingest", stdin: long).records.filter { $0["type"] as? String == "flag" }
        XCTAssertEqual(held.count, 1)
        let id = held[0]["id"] as! String
        let r = rw("flag", "reject", String(id.prefix(6)))
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.out, #"{"type":"flag","id":"\#(id)","decision":"rejected"}"# + "\n")
        XCTAssertEqual(rw("flags").out, "", "nothing left to review")
        let twice = rw("flag", "reject", id)
        XCTAssertEqual(twice.code, 65)
        XCTAssertEqual(twice.err, "rewards: session \(id) was already rejected\n")
        XCTAssertEqual(rw("flag", "approve", id).code, 65, "a rejection is final")
        XCTAssertEqual(rw("dashboard", "Alex").records[0]["balance"] as? Int, 0, "no points")
        XCTAssertEqual(rw("ingest", stdin: long).records.filter { $0["type"] as? String == "flag" }.count, 0, "not held again")
        XCTAssertEqual(rw("flag", "reject", "ffffff").code, 65)
        XCTAssertEqual(rw("flag", "reject", id, as: "alex").code, 77)
    }

    func testBadgesListsEveryBadgeWithWhatIsEarned() {
        setUpFamily()
        let none = rw("badges", "Alex")
        XCTAssertEqual(none.code, 0, none.err)
        XCTAssertEqual(none.records.map { $0["badge"] as? String },
                       ["first-points", "points-100", "points-500", "points-1000", "goal-met", "streak-3", "streak-7", "streak-30"])
        XCTAssertTrue(none.records.allSatisfy { $0["earned"] as? Bool == false && $0["child"] as? String == "Alex" })
        rw("ingest", "--activitywatch", fixture, "--child", "Alex")
        let earned = rw("badges", "Alex", as: "alex").records.filter { $0["earned"] as? Bool == true }
        XCTAssertEqual(earned.map { $0["name"] as? String }, ["First points"], "a child sees their own")
        XCTAssertTrue(rw("badges", "Alex", "--format", "text").out.hasPrefix("🏅 First points\n   100 points\n"))
        XCTAssertEqual(rw("badges", "Alex", as: "stranger").err, "rewards: only a parent or the child may see that (you are stranger)\n")
        let nobody = rw("badges", "Nobody")
        XCTAssertEqual(nobody.code, 65)
        XCTAssertEqual(nobody.err, "rewards: no child named 'Nobody'; children: Alex\n")
    }

    /// Rollover awards what was earned, once, and prints each child's day;
    /// run again it awards nothing more.
    func testRolloverAwardsOnceAndIsSafeToRepeat() {
        XCTAssertEqual(rw("rollover").err, "rewards: no family yet: a parent runs 'rewards init' first\n")
        setUpFamily()
        rw("ingest", "--activitywatch", fixture, "--child", "Alex")
        rw("settings", "set", "daily_goal_minutes", "30")
        let first = rw("rollover")
        XCTAssertEqual(first.code, 0, first.err)
        XCTAssertEqual(first.lines, [#"{"type":"badge","child":"Alex","badge":"goal-met"}"#,
                                     #"{"type":"day","child":"Alex","date":"2026-11-21","streak_days":1,"balance":55}"#])
        let again = rw("rollover")
        XCTAssertEqual(again.lines, [#"{"type":"day","child":"Alex","date":"2026-11-21","streak_days":1,"balance":55}"#])
        XCTAssertEqual(rw("badges", "Alex").records.filter { $0["earned"] as? Bool == true }.map { $0["badge"] as? String },
                       ["first-points", "goal-met"])
        XCTAssertEqual(rw("rollover", "-q").out, "")
    }

    /// An ActivityWatch export with one 5-hour Duolingo window of which 4.5
    /// hours were away: held for review, and approved as 30 points, not 300.
    func testApprovingAHeldSessionLeavesOutTheAwayTime() {
        setUpFamily()
        let aw = write("long.json", """
        {"buckets":{"aw-watcher-window_x":{"type":"currentwindow","events":[
          {"timestamp":"2026-11-21T13:00:00Z","duration":18000,"data":{"app":"Duolingo"}}]},
         "aw-watcher-afk_x":{"type":"afkstatus","events":[
          {"timestamp":"2026-11-21T13:00:00Z","duration":16200,"data":{"status":"afk"}},
          {"timestamp":"2026-11-21T17:30:00Z","duration":1800,"data":{"status":"not-afk"}}]}}}
        """)
        let r = rw("ingest", "--activitywatch", aw, "--child", "Alex")
        XCTAssertEqual(r.code, 0, r.err)
        let flags = r.records.filter { $0["type"] as? String == "flag" }
        XCTAssertEqual(flags.map { $0["reason"] as? String }, ["too_long"])
        let ok = rw("flag", "approve", flags[0]["id"] as! String)
        XCTAssertEqual(ok.code, 0, ok.err)
        XCTAssertEqual(ok.records[0]["points"] as? Int, 30)
        XCTAssertEqual(rw("dashboard", "Alex").records[0]["balance"] as? Int, 30)
    }

    /// Duolingo while Minecraft is open earns nothing: ingested together,
    /// or the learning first and the reward time (still open then) later,
    /// when the points it had earned are taken back.
    func testLearningDuringAnOpenRewardSessionEarnsNothing() {
        setUpFamily()
        let learning = #"{"child":"Alex","app":"Duolingo","start":"2026-11-21T16:15:00-05:00","end":"2026-11-21T16:45:00-05:00"}"# + "\n"
        let reward = #"{"child":"Alex","app":"Minecraft","start":"2026-11-21T16:00:00-05:00","end":"2026-11-21T17:00:00-05:00"}"# + "\n"
        let both = rw("ingest", "--sessions", stdin: learning + reward)
        XCTAssertEqual(both.code, 0, both.err)
        XCTAssertEqual(both.records.filter { $0["type"] as? String == "session" }.map { $0["reason"] as? String }, ["counted", "during_reward"])
        XCTAssertEqual(rw("dashboard", "Alex").records[0]["balance"] as? Int, 0)
        rw("child", "add", "Sam")
        let first = rw("ingest", stdin: learning.replacingOccurrences(of: "Alex", with: "Sam"))
        XCTAssertEqual(first.records.first?["points"] as? Int, 30, "alone it earns")
        let later = rw("ingest", "--sessions", stdin: reward.replacingOccurrences(of: "Alex", with: "Sam"))
        let s = later.records.first { $0["type"] as? String == "session" }
        XCTAssertEqual(s?["points"] as? Int, -30)
        XCTAssertEqual(s?["reward_s"] as? Int, 3600)
        let sam = rw("dashboard", "Sam").records[0]
        XCTAssertEqual(sam["balance"] as? Int, 0)
        XCTAssertEqual(sam["learning_minutes_today"] as? Int, 0)
        XCTAssertEqual(sam["reward_minutes_today"] as? Int, 60)
        XCTAssertEqual(rw("ingest", stdin: learning.replacingOccurrences(of: "Alex", with: "Sam") + reward.replacingOccurrences(of: "Alex", with: "Sam")).records.first?["points"] as? Int, 0, "nothing twice")
    }

    /// Five hours of Minecraft is held for review, and still counts as used:
    /// until a parent rejects it.
    func testHeldRewardTimeCountsAsUsedInTheAllowance() {
        setUpFamily()
        rw("adjust", "Alex", "+1000", "--reason", "x")
        rw("redeem", "Alex", "60")
        let long = #"{"child":"Alex","app":"Minecraft","start":"2026-11-21T12:00:00-05:00","end":"2026-11-21T17:00:00-05:00"}"# + "\n"
        let r = rw("ingest", stdin: long)
        let flags = r.records.filter { $0["type"] as? String == "flag" }
        XCTAssertEqual(flags.map { $0["reason"] as? String }, ["too_long"])
        let a = rw("allowance", "Alex", as: "alex").records[0]
        XCTAssertEqual(a["used_minutes"] as? Int, 300)
        XCTAssertEqual(a["left_minutes"] as? Int, 0)
        XCTAssertEqual(rw("dashboard", "Alex").records[0]["reward_minutes_today"] as? Int, 300)
        XCTAssertEqual(rw("flag", "approve", flags[0]["id"] as! String).code, 0)
        XCTAssertEqual(rw("allowance", "Alex").records[0]["used_minutes"] as? Int, 300, "approved: counted once")
        let other = #"{"child":"Alex","app":"Minecraft","start":"2026-11-21T05:00:00-05:00","end":"2026-11-21T10:00:00-05:00"}"# + "\n"
        let id = rw("ingest", stdin: other).records.first { $0["type"] as? String == "flag" }?["id"] as! String
        XCTAssertEqual(rw("allowance", "Alex").records[0]["used_minutes"] as? Int, 600)
        rw("flag", "reject", id)
        XCTAssertEqual(rw("allowance", "Alex").records[0]["used_minutes"] as? Int, 300, "rejected: dropped")
    }

    /// A month of usage ingested at once: each day has its own cap, and only
    /// sessions from the last max_session_age_days (7) earn; the older ones
    /// are recorded as too_old. A session that would end more than a day
    /// from now is bad input.
    func testOldUsageIsRecordedButEarnsNothing() {
        setUpFamily()
        var month = ""
        for d in (23...31).map({ "2026-10-\($0)" }) + (1...21).map({ String(format: "2026-11-%02d", $0) }) {
            month += #"{"child":"Alex","app":"Duolingo","start":"\#(d)T10:00:00-05:00","duration_s":7200}"# + "\n"
        }
        let r = rw("ingest", "--sessions", stdin: month)
        XCTAssertEqual(r.code, 0, r.err)
        let s = r.records.filter { $0["type"] as? String == "session" }
        XCTAssertEqual(s.filter { $0["reason"] as? String == "too_old" }.count, 23, "before 2026-11-14T20:00")
        XCTAssertEqual(s.filter { $0["reason"] as? String == "counted" }.map { $0["date"] as? String },
                       (15...21).map { "2026-11-\($0)" })
        XCTAssertEqual(rw("dashboard", "Alex").records[0]["balance"] as? Int, 7 * 120)
        XCTAssertEqual(rw("ingest", stdin: month).records.filter { $0["type"] as? String == "day" }.map { $0["added"] as? Int }, Array(repeating: 0, count: 30),
                       "recorded: not counted again")
        XCTAssertEqual(rw("settings", "set", "max_session_age_days", "0").err,
                       "rewards: max_session_age_days must be a whole number from 1 to 3650 (sessions that started more than this many days ago earn nothing), not '0'\n")
        let ahead = rw("ingest", stdin: #"{"child":"Alex","app":"Duolingo","start":"2026-11-21T19:00:00-05:00","duration_s":99999999}"# + "\n")
        XCTAssertEqual(ahead.code, 65)
        XCTAssertEqual(ahead.err, "rewards: stdin:1: \"end\" (\"start\" + \"duration_s\") 2030-01-22T04:46:39-05:00 is more than a day after now (now is 2026-11-21T20:00:00-05:00)\n")
    }

    /// One login per person: not another child's, not a parent's; and a
    /// name or a login that would not show as itself is refused.
    func testChildLoginsAreUniqueAndNamesPrintable() {
        setUpFamily()
        let twice = rw("child", "add", "Sam", "--user", "alex")
        XCTAssertEqual(twice.code, 65)
        XCTAssertEqual(twice.err, "rewards: 'alex' is already Alex's login\n")
        let parent = rw("child", "add", "Sam", "--user", "mum")
        XCTAssertEqual(parent.code, 65)
        XCTAssertEqual(parent.err, "rewards: 'mum' is a parent's login; a child needs a login of their own\n")
        for bad in ["Sam\nRoot", "Sam\u{1B}[2J", "Sam\u{202E}maS", "Sam\u{85}"] {
            let r = rw("child", "add", bad)
            XCTAssertEqual(r.code, 64, bad)
            XCTAssertTrue(r.err.hasPrefix("rewards: a child's name must not contain control characters, line breaks or bidi controls, not 'Sam\\u"), r.err)
            XCTAssertEqual(r.err.filter { $0 == "\n" }.count, 1, "one line")
        }
        for bad in ["sam\n", "s am", "-sam", "", "sam\u{7}"] {
            let r = rw("child", "add", "Sam", "--user", bad)
            XCTAssertEqual(r.code, 64, bad)
            XCTAssertTrue(r.err.hasPrefix("rewards: --user must be the child's login, like alex (up to 64 characters, no spaces or control characters), not '"), r.err)
        }
        XCTAssertEqual(rw("child", "list").records.map { $0["name"] as? String }, ["Alex"], "nothing added")
        XCTAssertEqual(rw("child", "add", "Zoë Ng", "--user", "zoe.ng").code, 0)
    }

    /// Muting the parents mutes nobody else; a later notification the same
    /// day has an id of its own, so a delivery script that drops repeats by
    /// id does not drop it.
    func testNotificationIdsAreUniqueAndMutingParentsLeavesChildren() {
        setUpFamily()
        rw("settings", "set", "notify", "0")
        rw("ingest", stdin: #"{"child":"Alex","app":"Duolingo","start":"2026-11-21T08:00:00-05:00","duration_s":1800}"# + "\n")
        let first = rw("notify")
        XCTAssertEqual(first.records.map { $0["role"] as? String }, ["child"], "the parents are muted, Alex is not")
        XCTAssertEqual(rw("settings", "--child", "Alex").records.first { $0["key"] as? String == "notify" }?["value"] as? Int, 1)
        rw("ingest", stdin: #"{"child":"Alex","app":"Duolingo","start":"2026-11-21T09:00:00-05:00","duration_s":1800}"# + "\n")
        let second = rw("notify")
        XCTAssertEqual(second.records.count, 1)
        XCTAssertTrue((second.records[0]["body"] as? String ?? "").contains("You earned 60 points today."))
        let ids = (first.records + second.records).compactMap { $0["id"] as? String }
        XCTAssertEqual(Set(ids).count, 2, "\(ids)")
        rw("settings", "set", "notify", "1")
        rw("settings", "set", "notify", "0", "--child", "Alex")
        rw("ingest", stdin: #"{"child":"Alex","app":"Duolingo","start":"2026-11-21T10:00:00-05:00","duration_s":1800}"# + "\n")
        XCTAssertEqual(rw("notify").records.map { $0["role"] as? String }, ["parent"])
    }

    /// Rollover ran; then three past days of usage arrive: the 3-day streak
    /// is awarded all the same (by that ingest, or the next rollover), once.
    func testLateUsageStillEarnsStreakBadges() {
        setUpFamily()
        XCTAssertEqual(rw("rollover").records.filter { $0["type"] as? String == "badge" }.count, 0)
        let late = (16...18).map { #"{"child":"Alex","app":"Duolingo","start":"2026-11-\#($0)T16:00:00-05:00","duration_s":3600}"# }
        let ingested = rw("ingest", stdin: late.joined(separator: "\n") + "\n")
        XCTAssertEqual(ingested.code, 0)
        let r = rw("rollover")
        let badges = (ingested.records + r.records).filter { $0["type"] as? String == "badge" }.compactMap { $0["badge"] as? String }
        XCTAssertEqual(badges.filter { $0.hasPrefix("streak-") }, ["streak-3"])
        XCTAssertEqual(r.records.first { $0["type"] as? String == "day" }?["streak_days"] as? Int, 0, "the streak now is over")
        XCTAssertEqual(rw("rollover").records.filter { $0["type"] as? String == "badge" }.count, 0, "once")
        XCTAssertTrue(rw("badges", "Alex").records.contains { $0["badge"] as? String == "streak-3" && $0["earned"] as? Bool == true })
    }

    /// An app named like a formula, from usage data, reaches the CSV report
    /// as text.
    func testCSVReportNeutralisesFormulas() {
        setUpFamily()
        let app = #"=HYPERLINK(\"http://evil.example\",\"x\")"#
        rw("ingest", stdin: #"{"child":"Alex","app":"\#(app)","start":"2026-11-21T16:00:00-05:00","duration_s":600}"# + "\n")
        let csv = rw("report", "--by", "app", "--format", "csv").out
        XCTAssertTrue(csv.contains("\r\nAlex,\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\",0,0,0,10\r\n"), csv)
        XCTAssertFalse(csv.contains(",=HYPERLINK"))
    }

    /// A rate out of range or on an app that earns nothing is an error naming
    /// the line and what is accepted, as in ingest (--strict: nothing
    /// applied); setting a learning app again keeps its rate.
    func testAppImportRefusesBadRatesAndAppSetKeepsTheRate() {
        setUpFamily()
        let lines = """
        {"app":"Scratch","category":"learning","points_per_hour":120}
        {"app":"YouTube","category":"reward","points_per_hour":500}
        {"app":"Chess","category":"learning","points_per_hour":20000}

        """
        let strict = rw("app", "import", "--strict", stdin: lines)
        XCTAssertEqual(strict.code, 65)
        XCTAssertEqual(strict.err, "rewards: stdin:2: \"points_per_hour\" goes with \"category\":\"learning\" only, not 'reward' (--strict: nothing applied)\n")
        XCTAssertEqual(strict.out, "")
        XCTAssertEqual(rw("app", "list", "--search", "scratch").out, "", "nothing applied")
        let r = rw("app", "import", stdin: lines)
        XCTAssertEqual(r.code, 65)
        XCTAssertEqual(r.err.split(separator: "\n").map(String.init), [
            "rewards: stdin:2: \"points_per_hour\" goes with \"category\":\"learning\" only, not 'reward'",
            "rewards: stdin:3: \"points_per_hour\" must be a whole number from 1 to 10000",
        ])
        XCTAssertEqual(r.records.map { $0["name"] as? String }, ["Scratch"])
        XCTAssertEqual(rw("app", "list", "--search", "youtube").out, "", "a bad line changes nothing")

        func rate(_ app: String) -> Int? { rw("app", "list", "--search", app).records.first?["points_per_hour"] as? Int }
        XCTAssertEqual(rate("Khan"), 90)
        XCTAssertEqual(rw("app", "set", "Khan Academy", "--learning").records[0]["points_per_hour"] as? Int, 90)
        XCTAssertEqual(rate("Khan"), 90, "kept")
        XCTAssertEqual(rw("app", "import", stdin: #"{"app":"khan academy","category":"learning"}"# + "\n").code, 0)
        XCTAssertEqual(rate("Khan"), 90, "kept by import too")
        rw("app", "set", "Khan Academy", "--learning", "--points-per-hour", "120")
        XCTAssertEqual(rate("Khan"), 120)
        rw("app", "set", "Khan Academy", "--reward")
        rw("app", "set", "Khan Academy", "--learning")
        XCTAssertEqual(rate("Khan"), 60, "a reward app had no rate to keep: the default")
    }

    /// Three minutes of Duolingo, a 5-second alt-tab, three more: one run,
    /// six minutes, six points; in one ingest or two. merge_gap_seconds 0
    /// makes them two sessions too short to earn.
    func testAnAltTabDoesNotSplitASessionIntoTwoShortOnes() {
        setUpFamily()
        let a = #"{"child":"Alex","app":"Duolingo","start":"2026-11-21T16:00:00-05:00","end":"2026-11-21T16:03:00-05:00"}"# + "\n"
        let b = #"{"child":"Alex","app":"Duolingo","start":"2026-11-21T16:03:05-05:00","end":"2026-11-21T16:06:05-05:00"}"# + "\n"
        let both = rw("ingest", "--sessions", stdin: a + b)
        XCTAssertEqual(both.records.filter { $0["type"] as? String == "session" }.map { $0["reason"] as? String }, ["counted", "counted"])
        XCTAssertEqual(rw("dashboard", "Alex").records[0]["balance"] as? Int, 6)
        rw("child", "add", "Sam")
        let first = rw("ingest", "--sessions", stdin: a.replacingOccurrences(of: "Alex", with: "Sam"))
        XCTAssertEqual(first.records.first?["reason"] as? String, "too_short", "alone, for now")
        let second = rw("ingest", stdin: b.replacingOccurrences(of: "Alex", with: "Sam"))
        XCTAssertEqual(second.records.first?["points"] as? Int, 6, "the first half counts with the second")
        rw("child", "add", "Kim")
        rw("settings", "set", "merge_gap_seconds", "0", "--child", "Kim")
        let off = rw("ingest", "--sessions", stdin: (a + b).replacingOccurrences(of: "Alex", with: "Kim"))
        XCTAssertEqual(off.records.filter { $0["type"] as? String == "session" }.map { $0["reason"] as? String }, ["too_short", "too_short"])
    }

    var webFixture: String { fixture.replacingOccurrences(of: "activitywatch-export.json", with: "activitywatch-web-export.json") }

    /// Khan Academy in a browser earns like the app (its sites and the hosts
    /// under them, at its own rate); YouTube, which no rule claims, stays
    /// uncategorised and shows in the report by app, for a parent to
    /// categorise; and once categorised, the same export counts it.
    func testWebLearningFromActivityWatch() {
        setUpFamily()
        let set = rw("app", "set", "Khan Academy", "--learning", "--site", "KhanAcademy.org")
        XCTAssertEqual(set.code, 0, set.err)
        XCTAssertEqual(set.records[0]["sites"] as? [String], ["khanacademy.org"])
        XCTAssertEqual(set.records[0]["points_per_hour"] as? Int, 90, "the rate is kept")
        XCTAssertEqual(rw("app", "set", "Khan2", "--learning", "--site", "khanacademy.org").code, 65, "one site, one app")
        XCTAssertEqual(rw("app", "set", "Khan2", "--learning", "--site", "https://khanacademy.org/").err,
                       "rewards: --site must be a domain like khanacademy.org (it matches that host and the hosts under it), not 'https://khanacademy.org/'\n")
        let r = rw("ingest", "--activitywatch", webFixture, "--child", "Alex", "--sessions")
        XCTAssertEqual(r.code, 0, r.err)
        let s = r.records.filter { $0["type"] as? String == "session" }
        XCTAssertEqual(s.map { "\($0["app"] as! String) \($0["reason"] as! String) \($0["points"] as! Int)" }, [
            "Khan Academy counted 45", "youtube.com uncategorized 0", "Khan Academy afk 0", "Minecraft counted 0", "Firefox uncategorized 0",
            "Khan Academy counted 15",
        ])
        let rows = rw("report", "--by", "app").records
        func row(_ app: String) -> [String: Any]? { rows.first { $0["app"] as? String == app } }
        XCTAssertEqual(row("Khan Academy")?["learning_minutes"] as? Int, 40)
        XCTAssertEqual(row("Khan Academy")?["points"] as? Int, 60)
        XCTAssertEqual(row("youtube.com")?["other_minutes"] as? Int, 20, "uncategorised time shows")
        XCTAssertEqual(row("Firefox")?["other_minutes"] as? Int, 10, "the browser's own time")
        XCTAssertEqual(row("Minecraft")?["reward_minutes"] as? Int, 20)
        let csv = rw("report", "--by", "app", "--format", "csv").out
        XCTAssertTrue(csv.hasPrefix("child,app,learning_minutes,reward_minutes,points,other_minutes\r\n"), csv)
        XCTAssertTrue(csv.contains("\r\nAlex,youtube.com,0,0,0,20\r\n"), csv)
        XCTAssertEqual(rw("report", "--by", "category").records.first { $0["category"] as? String == "uncategorized" }?["other_minutes"] as? Int, 30)
        // The parent categorises YouTube: the same export again counts its time as reward time.
        XCTAssertEqual(rw("app", "set", "YouTube", "--reward", "--site", "youtube.com").code, 0)
        let again = rw("ingest", "--activitywatch", webFixture, "--child", "Alex")
        XCTAssertEqual(again.records.first?["reward_s"] as? Int, 1200)
        XCTAssertEqual(rw("app", "list", "--search", "you").records.first?["sites"] as? [String], ["youtube.com"])
        let imported = rw("app", "import", stdin: #"{"app":"Scratch","category":"learning","sites":["scratch.mit.edu"]}"# + "\n" +
                                                  #"{"app":"Bad","category":"learning","sites":"x.org"}"# + "\n")
        XCTAssertEqual(imported.code, 65)
        XCTAssertEqual(imported.err, "rewards: stdin:2: \"sites\" must be an array of domains, not a string\n")
        XCTAssertEqual(rw("app", "list", "--search", "scratch").records.first?["sites"] as? [String], ["scratch.mit.edu"])
    }

    /// A session ingested after the snapshot: the dashboard folds it on the
    /// snapshot's hot part, reading the days it touches by the snapshot's
    /// index (not the whole history). A byte changed in the cold line of a
    /// day it reads is never believed: the snapshot is refused and the
    /// balance is the journals'. One changed in a day nothing reads is
    /// refused by the next run that reads the whole.
    func testADashboardReadsTheDaysItFoldsByTheIndexAndBelievesNoChangedLine() throws {
        setUpFamily()
        func session(_ day: String, _ hhmm: String) -> String {
            #"{"child":"Alex","app":"Duolingo","start":"2026-11-\#(day)T\#(hhmm):00-05:00","duration_s":1800}"# + "\n"
        }
        XCTAssertEqual(rw("ingest", stdin: session("16", "08") + session("20", "08")).code, 0)
        let snap = dataDir + "/snapshot.ndjson"
        try FileManager.default.removeItem(atPath: snap)
        XCTAssertEqual(rw("dashboard", "Alex").code, 0)  // a reader writes the snapshot it lacks: both days in it
        let base = bytes(snap)
        XCTAssertTrue(String(decoding: base, as: UTF8.self).contains(#"{"k":"cold_indexed","#), "the hot part indexes the cold lines")
        let tail = rw("ingest", stdin: session("20", "10"))
        XCTAssertEqual(tail.code, 0, tail.err)
        XCTAssertEqual(bytes(snap), base, "the new session is past the snapshot")
        let ok = rw("dashboard", "Alex")
        XCTAssertEqual(ok.code, 0, ok.err)
        XCTAssertEqual(ok.err, "")
        XCTAssertEqual(ok.records.first?["balance"] as? Int, 90)
        // A digit changed inside a day's cold line (its counted spans).
        func changed(_ day: String) throws -> [UInt8] {
            let text = String(decoding: base, as: UTF8.self)
            let line = try XCTUnwrap(text.range(of: #"","day":"2026-11-\#(day)","learned":["#))
            var b = base
            let at = text.utf8.distance(from: text.utf8.startIndex, to: line.upperBound.samePosition(in: text.utf8)!)
            b[at] = b[at] == 0x31 ? 0x32 : 0x31
            return b
        }
        setBytes(snap, try changed("20"))
        let refused = rw("dashboard", "Alex")
        XCTAssertEqual(refused.code, 0, refused.err)
        XCTAssertTrue(refused.err.contains("was refused"), refused.err)
        XCTAssertEqual(refused.records.first?["balance"] as? Int, 90, "the journals' balance")
        XCTAssertTrue(FileManager.default.fileExists(atPath: snap + ".bad-1"))
        // A day in the snapshot that the new session does not touch.
        setBytes(snap, try changed("16"))
        let unread = rw("dashboard", "Alex")
        XCTAssertEqual(unread.code, 0, unread.err)
        XCTAssertEqual(unread.err, "", "the changed line is not read")
        XCTAssertEqual(unread.records.first?["balance"] as? Int, 90)
        let next = rw("ingest", stdin: session("21", "08"))
        XCTAssertEqual(next.code, 0, next.err)
        XCTAssertTrue(next.err.contains("was refused"), "a run that reads the whole refuses it: \(next.err)")
        XCTAssertEqual(next.records.first?["points"] as? Int, 30)
        XCTAssertEqual(rw("dashboard", "Alex").records.first?["balance"] as? Int, 120)
    }
}

/// A store written by rewards 1.0 (one parent, commit lines without stamps
/// or checksums) keeps working: the same balances, and new changes on top.
final class RewardsMigrationTests: ToolTestCase {
    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["REWARDS_DATA_DIR"] = dataDir
        e["REWARDS_NOW"] = "2026-11-22T20:00:00-05:00"
        e["REWARDS_USER"] = "mum"
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    func testAVersionOneStoreKeepsWorking() throws {
        try FileManager.default.createDirectory(atPath: dataDir + "/journal", withIntermediateDirectories: true)
        let lines = [
            #"{"type":"family_created","owner":"mum","by":"mum","at":"2026-11-20T08:00:00-05:00"}"#,
            #"{"type":"child_added","id":"c1","name":"Alex","login":"alex","by":"mum","at":"2026-11-20T08:00:00-05:00"}"#,
            #"{"type":"app_set","name":"Minecraft","category":"reward","points_per_hour":null,"by":"mum","at":"2026-11-20T08:00:00-05:00"}"#,
            #"{"type":"commit","n":3,"at":"2026-11-20T08:00:00-05:00","by":"mum","schema":2}"#,
            #"{"type":"adjust","child":"c1","points":120,"reason":"start","day":"2026-11-20","by":"mum","at":"2026-11-20T09:00:00-05:00"}"#,
            #"{"type":"commit","n":1,"at":"2026-11-20T09:00:00-05:00","by":"mum","schema":2}"#,
            #"{"type":"grant","id":"g1","child":"c1","minutes":3,"points":30,"app":null,"day":"2026-11-21","by":"alex","at":"2026-11-21T16:00:00-05:00"}"#,
            #"{"type":"grant_applied","id":"g1","by":"alex","at":"2026-11-21T16:00:00-05:00"}"#,
            #"{"type":"commit","n":2,"at":"2026-11-21T16:00:00-05:00","by":"alex","schema":2}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: dataDir + "/journal/oldhost.ndjson", atomically: true, encoding: .utf8)
        _ = chmod(dataDir, 0o700)
        let list = run("rewards", ["child", "list"])
        XCTAssertEqual(list.code, 0, list.err)
        XCTAssertEqual(list.records.first?["balance"] as? Int, 90, "120 less the 30 Alex redeemed")
        XCTAssertEqual(list.err, "", "nothing refused, nothing to warn about")
        XCTAssertEqual(run("rewards", ["redeem", "Alex", "2"], env: ["REWARDS_USER": "alex"]).code, 0)
        XCTAssertEqual(run("rewards", ["adjust", "Alex", "+10", "--reason", "more"]).code, 0)
        XCTAssertEqual(run("rewards", ["child", "list"]).records.first?["balance"] as? Int, 80)
        let log = run("rewards", ["log"]).records.map { $0["text"] as? String ?? "" }
        XCTAssertEqual(log.first, "mum added 10 bonus points to Alex (more)")
        XCTAssertTrue(log.contains("Alex redeemed 3 reward minutes (30 points)"), "\(log)")
        XCTAssertEqual(run("rewards", ["parent", "list"]).records.map { $0["login"] as? String }, ["mum"])
    }
}
