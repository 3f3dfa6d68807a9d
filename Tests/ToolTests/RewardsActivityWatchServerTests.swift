import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `rewards ingest --activitywatch URL` against the real aw-server (kept in
/// Tests/Vendor/activitywatch, run by Debian's python3 on loopback with its
/// default storage in a temporary HOME), fed by the real aw-client as
/// ActivityWatch's watchers feed it: heartbeats the server joins into
/// growing events. Each run reads what is new (and the hour before); what
/// it reads twice counts once; a year's export of the same server comes to
/// the same totals.
final class RewardsActivityWatchServerTests: ToolTestCase {
    let now = "2026-11-22T18:00:00-05:00"
    var server: Process?
    var port = 0

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["REWARDS_DATA_DIR"] = dataDir
        e["REWARDS_NOW"] = now
        e["REWARDS_USER"] = "mum"
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    override func tearDown() {
        if let p = server, p.isRunning {
            p.terminate()
            p.waitUntilExit()
        }
        server = nil
        super.tearDown()
    }

    var vendor: String { ToolTestCase.packageRoot + "/Tests/Vendor/activitywatch" }
    var pythonEnv: [String: String] { ["PYTHONPATH": vendor, "HOME": tmp + "/awhome", "PATH": "/usr/bin:/bin"] }

    /// aw-server on a free loopback port; the python3 that runs it.
    func startServer(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try require(.activityWatch)
        let py = try XCTUnwrap(Machine.current.python(importing: Requirement.activityWatchModules))
        try FileManager.default.createDirectory(atPath: tmp + "/awhome", withIntermediateDirectories: true)
        port = Loopback.freePort()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: py)
        p.arguments = ["-m", "aw_server", "--testing", "--port", "\(port)"]
        p.environment = pythonEnv
        _ = FileManager.default.createFile(atPath: tmp + "/aw-server.log", contents: nil)
        p.standardOutput = FileHandle(forWritingAtPath: tmp + "/aw-server.log")
        p.standardError = FileHandle(forWritingAtPath: tmp + "/aw-server.log")
        try p.run()
        server = p
        // Bounded: aw-server answers within 30 s or the test fails saying so.
        let end = Date().addingTimeInterval(30)
        while Date() < end && p.isRunning && !Loopback.listening(port) { usleep(100_000) }
        guard Loopback.listening(port) else {
            let log = (try? String(contentsOfFile: tmp + "/aw-server.log", encoding: .utf8)) ?? ""
            throw YomoVdirToolTests.NoServer(description: "aw-server did not listen on 127.0.0.1:\(port) within 30 s: \(log.suffix(2000))")
        }
        try Self.feeder.write(toFile: tmp + "/feed.py", atomically: true, encoding: .utf8)
        return py
    }

    /// What the watchers would send: aw-client's heartbeats (pulsetime 11 s
    /// for a heartbeat every 10 s, so one window's run is one growing event)
    /// and, for an event that turns up late, an insert.
    static let feeder = """
        import json, sys
        from datetime import datetime
        from aw_client import ActivityWatchClient
        from aw_core.models import Event
        port, steps = int(sys.argv[1]), json.load(open(sys.argv[2]))
        c = ActivityWatchClient("aw-watcher-window", testing=True, port=port)
        for b, t in [("aw-watcher-window_kidpc", "currentwindow"), ("aw-watcher-afk_kidpc", "afkstatus"),
                     ("aw-watcher-web-firefox_kidpc", "web.tab.current")]:
            c.create_bucket(b, event_type=t, queued=False)
        for s in steps:
            e = Event(timestamp=datetime.fromisoformat(s["t"]), duration=s.get("d", 0), data=s["data"])
            if s.get("insert"):
                c.insert_event(s["bucket"], e)
            else:
                c.heartbeat(s["bucket"], e, pulsetime=s.get("pulse", 11.0), queued=False)
        """

    /// Heartbeats every `every` seconds from `from` to `to` (times of 2026-11-22 in New York).
    func beats(_ bucket: String, _ from: String, _ to: String, _ data: [String: Any], every: Double = 10) -> [[String: Any]] {
        func t(_ hm: String) -> Date {
            let f = ISO8601DateFormatter()
            return f.date(from: "2026-11-22T\(hm):00-05:00")!
        }
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(identifier: "America/New_York")
        return stride(from: t(from).timeIntervalSince1970, through: t(to).timeIntervalSince1970, by: every).map {
            ["bucket": bucket, "t": f.string(from: Date(timeIntervalSince1970: $0)), "data": data, "pulse": every + 1]
        }
    }

    func feed(_ py: String, _ steps: [[String: Any]], file: StaticString = #filePath, line: UInt = #line) throws {
        let path = tmp + "/steps-\(UUID().uuidString).json"
        try JSONSerialization.data(withJSONObject: steps).write(to: URL(fileURLWithPath: path))
        let r = runProgram(py, [tmp + "/feed.py", "\(port)", path], env: pythonEnv, timeout: 120)
        XCTAssertEqual(r.status, 0, "aw-client: \(r.err)", file: file, line: line)
    }

    func family(_ env: [String: String] = [:]) {
        for args in [["init"], ["child", "add", "Alex", "--user", "alex"], ["app", "set", "Duolingo", "--learning"],
                     ["app", "set", "Khan Academy", "--learning", "--site", "khanacademy.org"],
                     ["app", "set", "Minecraft", "--reward", "--process", "java"]] {
            let r = run("rewards", args, env: env)
            XCTAssertEqual(r.code, 0, "\(args): \(r.err)")
        }
    }

    let window = "aw-watcher-window_kidpc", afk = "aw-watcher-afk_kidpc", web = "aw-watcher-web-firefox_kidpc"

    func testEachRunReadsWhatIsNewJavaIsMinecraftAndAnExportComesToTheSame() throws {
        let py = try startServer()
        family()
        // Before the first run: Minecraft (java) 15:00–15:20, Khan Academy
        // in Firefox 15:20–15:30, Duolingo from 15:30, still going at 15:45.
        try feed(py, beats(window, "15:00", "15:20", ["app": "java", "title": "Minecraft 1.20.4"])
                    + beats(window, "15:20", "15:30", ["app": "firefox", "title": "Khan Academy - Mozilla Firefox"])
                    + beats(web, "15:20", "15:30", ["url": "https://www.khanacademy.org/math", "title": "Khan Academy", "audible": false, "incognito": false])
                    + beats(window, "15:30", "15:45", ["app": "Duolingo", "title": "Duolingo"])
                    + beats(afk, "15:00", "15:45", ["status": "not-afk"]))
        let url = "http://127.0.0.1:\(port)"
        let first = run("rewards", ["ingest", "--activitywatch", url, "--child", "Alex", "--sessions"])
        XCTAssertEqual(first.code, 0, first.err)
        XCTAssertEqual(first.err, "")
        let day1 = try XCTUnwrap(first.records.first { $0["type"] as? String == "day" })
        XCTAssertEqual(day1["reward_s"] as? Int, 1200, "java's 20 minutes are Minecraft's: \(first.out)")
        XCTAssertEqual(day1["learning_s"] as? Int, 600 + 900, "the Khan Academy tab and Duolingo so far: \(first.out)")
        let apps = Set(first.records.compactMap { $0["type"] as? String == "session" ? $0["app"] as? String : nil })
        XCTAssertEqual(apps, ["Minecraft", "Khan Academy", "Duolingo"], first.out)

        // Duolingo goes on to 15:55 (the server makes its event longer), the
        // child is away 15:55–16:10, then plays 16:10–16:20.
        try feed(py, beats(window, "15:45", "15:55", ["app": "Duolingo", "title": "Duolingo"])
                    + beats(afk, "15:45", "15:55", ["status": "not-afk"]) + beats(afk, "15:55", "16:10", ["status": "afk"])
                    + beats(window, "16:10", "16:20", ["app": "java", "title": "Minecraft 1.20.4"])
                    + beats(afk, "16:10", "16:20", ["status": "not-afk"]))
        let second = run("rewards", ["ingest", "--activitywatch", url, "--child", "Alex"])
        XCTAssertEqual(second.code, 0, second.err)
        let day2 = try XCTUnwrap(second.records.first { $0["type"] as? String == "day" })
        XCTAssertEqual(day2["learning_s"] as? Int, 600, "only Duolingo's new ten minutes: \(second.out)")
        XCTAssertEqual(day2["reward_s"] as? Int, 600, "only the new Minecraft: \(second.out)")

        // Nothing new: nothing counts again.
        let third = run("rewards", ["ingest", "--activitywatch", url, "--child", "Alex"])
        XCTAssertEqual(third.code, 0, third.err)
        let day3 = try XCTUnwrap(third.records.first { $0["type"] as? String == "day" })
        XCTAssertEqual(day3["added"] as? Int, 0, third.out)
        XCTAssertEqual(day3["points"] as? Int, 0, third.out)
        let points = try XCTUnwrap(day3["points_today"] as? Int)
        XCTAssertEqual(points, 25 + 10, "Duolingo's 25 minutes and Khan Academy's 10, at a point a minute")

        // How far the server was read is in the journal: the end of the last event.
        let journal = try FileManager.default.subpathsOfDirectory(atPath: dataDir).filter { $0.hasSuffix(".ndjson") }
            .map { try String(contentsOfFile: dataDir + "/" + $0, encoding: .utf8) }.joined()
        let end = Int(ISO8601DateFormatter().date(from: "2026-11-22T16:20:00-05:00")!.timeIntervalSince1970)
        XCTAssertTrue(journal.contains("\"until\":\(end)"), "activitywatch_taken until 16:20: \(journal.suffix(600))")

        // The server's export (as aw-server writes /api/0/export), ingested
        // by a family that never read the server, comes to the same.
        let export = runProgram(py, ["-c", "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen('\(url)/api/0/export').read().decode())"],
                                env: pythonEnv, timeout: 60)
        XCTAssertEqual(export.status, 0, export.err)
        try export.out.write(toFile: tmp + "/aw.json", atomically: true, encoding: .utf8)
        let other = ["REWARDS_DATA_DIR": tmp + "/other"]
        family(other)
        let whole = run("rewards", ["ingest", "--activitywatch", tmp + "/aw.json", "--child", "Alex"], env: other)
        XCTAssertEqual(whole.code, 0, whole.err)
        let dayX = try XCTUnwrap(whole.records.first { $0["type"] as? String == "day" })
        XCTAssertEqual(dayX["learning_s"] as? Int, 1500 + 600)
        XCTAssertEqual(dayX["reward_s"] as? Int, 1800)
        XCTAssertEqual(dayX["points_today"] as? Int, points, "the export and the three runs agree")
        let a = run("rewards", ["dashboard", "Alex"]), b = run("rewards", ["dashboard", "Alex"], env: other)
        XCTAssertEqual(a.records.first?["balance"] as? Int, points)
        XCTAssertEqual(b.records.first?["balance"] as? Int, points)
        XCTAssertEqual(a.records.first?["reward_minutes_today"] as? Int, 30)
        XCTAssertEqual(b.records.first?["reward_minutes_today"] as? Int, 30)

        // A run reads only from an hour before what it took: an event that
        // turns up hours late (inserted at 12:00) is not read by it, as
        // rewards(1) says; the export has it.
        try feed(py, [["bucket": window, "t": "2026-11-22T12:00:00-05:00", "d": 600, "data": ["app": "Duolingo", "title": "Duolingo"], "insert": true]])
        let late = run("rewards", ["ingest", "--activitywatch", url, "--child", "Alex"])
        XCTAssertEqual(late.code, 0, late.err)
        XCTAssertEqual(late.records.first { $0["type"] as? String == "day" }?["added"] as? Int, 0, late.out)
    }

    /// A clock set ahead for a while (an event tomorrow) does not move how
    /// far the server was read past the run's own time; one days ahead is
    /// named and left out while the rest counts; one at 1970 (a computer
    /// that booted with no clock) is older than the sessions' age limit
    /// and not read at all; later events are still read.
    func testAClockAheadOrAt1970NeitherStopsNorSkipsReading() throws {
        let py = try startServer()
        family()
        try feed(py, [["bucket": window, "t": "2026-11-22T16:00:00-05:00", "d": 1800, "data": ["app": "Duolingo", "title": "Duolingo"], "insert": true],
                      ["bucket": window, "t": "2026-11-23T12:00:00-05:00", "d": 60, "data": ["app": "Notepad", "title": "x"], "insert": true],
                      ["bucket": afk, "t": "1970-01-01T00:00:05+00:00", "d": 20, "data": ["status": "not-afk"], "insert": true],
                      ["bucket": afk, "t": "2026-11-26T09:00:00+00:00", "d": 20, "data": ["status": "not-afk"], "insert": true]])
        let url = "http://127.0.0.1:\(port)"
        let first = run("rewards", ["ingest", "--activitywatch", url, "--child", "Alex"])
        XCTAssertEqual(first.code, 65, "an event was left out: \(first.err)")
        XCTAssertEqual(first.err, "rewards: \(url): aw-watcher-afk_kidpc event 0: \"timestamp\" 2026-11-26T09:00:00Z is more than a day after now (now is 2026-11-22T23:00:00Z)\n")
        XCTAssertEqual(first.records.first { $0["type"] as? String == "day" && $0["date"] as? String == "2026-11-22" }?["learning_s"] as? Int, 1800)
        let journal = try FileManager.default.subpathsOfDirectory(atPath: dataDir).filter { $0.hasSuffix(".ndjson") }
            .map { try String(contentsOfFile: dataDir + "/" + $0, encoding: .utf8) }.joined()
        XCTAssertTrue(journal.contains("\"until\":1795388400"), "read up to the run's own time, 18:00, not tomorrow: \(journal.suffix(500))")
        // Played from 18:10 to 19:10, read at 20:00.
        try feed(py, [["bucket": window, "t": "2026-11-22T18:10:00-05:00", "d": 3600, "data": ["app": "java", "title": "Minecraft"], "insert": true]])
        let later = run("rewards", ["ingest", "--activitywatch", url, "--child", "Alex"], env: ["REWARDS_NOW": "2026-11-22T20:00:00-05:00"])
        XCTAssertEqual(later.code, 65, "the event days ahead is still there: \(later.err)")
        XCTAssertEqual(later.records.first { $0["type"] as? String == "day" && $0["date"] as? String == "2026-11-22" }?["reward_s"] as? Int, 3600, later.out)
    }

    /// A session still going when a run reads it counts once it has
    /// ended, judged whole: longer than max_session_minutes, it is held for
    /// review and pays nothing, as an export of the same server holds it.
    /// And a tab left open behind another window earns nothing, as in the
    /// export.
    func testALongSessionIsJudgedWholeAndABackgroundTabEarnsNothing() throws {
        let py = try startServer()
        family()
        let url = "http://127.0.0.1:\(port)"
        // Duolingo from 11:00, read every half hour (four hours is the most a session may run unreviewed).
        var start = "11:00"
        var points = 0
        for end in ["11:30", "12:30", "13:30", "14:30", "15:30"] {
            try feed(py, beats(window, start, end, ["app": "Duolingo", "title": "Duolingo"], every: 60))
            let r = run("rewards", ["ingest", "--activitywatch", url, "--child", "Alex"], env: ["REWARDS_NOW": "2026-11-22T\(end):00-05:00"])
            XCTAssertEqual(r.code, 0, r.err)
            points += r.records.first { $0["type"] as? String == "day" }?["points"] as? Int ?? 0
            start = end
        }
        XCTAssertEqual(points, 0, "still going at each run: nothing counted yet")
        XCTAssertEqual(run("rewards", ["flags"], env: ["REWARDS_NOW": "2026-11-22T15:30:00-05:00"]).records.count, 0)
        // Ended at 15:30; the next run reads it whole.
        let ended = run("rewards", ["ingest", "--activitywatch", url, "--child", "Alex"], env: ["REWARDS_NOW": "2026-11-22T16:00:00-05:00"])
        XCTAssertEqual(ended.code, 0, ended.err)
        XCTAssertEqual(ended.records.first { $0["type"] as? String == "day" }?["points_today"] as? Int, 0, ended.out)
        let flags = run("rewards", ["flags"], env: ["REWARDS_NOW": "2026-11-22T16:00:00-05:00"])
        XCTAssertEqual(flags.records.count, 1, "the whole session, held once: \(flags.out)")
        XCTAssertEqual(flags.records.first?["reason"] as? String, "too_long")
        XCTAssertEqual(flags.records.first?["start"] as? String, "2026-11-22T11:00:00-05:00")
        XCTAssertEqual(flags.records.first?["end"] as? String, "2026-11-22T15:30:00-05:00")
        // Khan Academy in Firefox 16:00–16:30, then the terminal in front
        // until 18:00 with the tab left open; read at 16:35, 17:30 and 18:00.
        try feed(py, beats(window, "16:00", "16:30", ["app": "firefox", "title": "Khan Academy"], every: 60)
                    + beats(web, "16:00", "16:35", ["url": "https://www.khanacademy.org/", "title": "Khan Academy", "audible": false, "incognito": false], every: 60)
                    + beats(window, "16:31", "16:35", ["app": "Terminal", "title": "bash"], every: 60))
        var learned = 0
        for (now, feedTo) in [("16:35", nil), ("17:30", "17:30"), ("18:00", "18:00")] as [(String, String?)] {
            if let to = feedTo {
                let from = now == "17:30" ? "16:36" : "17:31"
                try feed(py, beats(window, from, to, ["app": "Terminal", "title": "bash"], every: 60)
                            + beats(web, from, to, ["url": "https://www.khanacademy.org/", "title": "Khan Academy", "audible": false, "incognito": false], every: 60))
            }
            let r = run("rewards", ["ingest", "--activitywatch", url, "--child", "Alex"], env: ["REWARDS_NOW": "2026-11-22T\(now):00-05:00"])
            XCTAssertEqual(r.code, 0, r.err)
            learned += r.records.first { $0["type"] as? String == "day" }?["learning_s"] as? Int ?? 0
        }
        XCTAssertEqual(learned, 30 * 60, "the half hour Firefox was in front, not the two hours behind")
    }

    /// A session from the evening before, still in the hour a run reads
    /// again, is read whole (aw-server's SQLite storage would cut it at the
    /// start asked for, and the piece after midnight would count again on
    /// the next day).
    func testASessionAcrossMidnightCountsOnceOnItsOwnDay() throws {
        let py = try startServer()
        family()
        let url = "http://127.0.0.1:\(port)"
        func beatsAt(_ from: String, _ to: String, _ app: String) -> [[String: Any]] {
            let f = ISO8601DateFormatter()
            let a = f.date(from: from)!.timeIntervalSince1970, b = f.date(from: to)!.timeIntervalSince1970
            return stride(from: a, through: b, by: 60).map {
                ["bucket": window, "t": f.string(from: Date(timeIntervalSince1970: $0)), "data": ["app": app, "title": app], "pulse": 61.0]
            }
        }
        // Duolingo 23:30–00:20, then the terminal from 00:21; read at 01:00 and at 02:00.
        try feed(py, beatsAt("2026-11-22T04:30:00Z", "2026-11-22T05:20:00Z", "Duolingo") + beatsAt("2026-11-22T05:21:00Z", "2026-11-22T06:00:00Z", "Terminal"))
        let first = run("rewards", ["ingest", "--activitywatch", url, "--child", "Alex"], env: ["REWARDS_NOW": "2026-11-22T01:00:00-05:00"])
        XCTAssertEqual(first.code, 0, first.err)
        XCTAssertEqual(first.records.first { $0["date"] as? String == "2026-11-21" }?["learning_s"] as? Int, 3000, first.out)
        try feed(py, beatsAt("2026-11-22T06:01:00Z", "2026-11-22T07:00:00Z", "Terminal"))
        let second = run("rewards", ["ingest", "--activitywatch", url, "--child", "Alex"], env: ["REWARDS_NOW": "2026-11-22T02:00:00-05:00"])
        XCTAssertEqual(second.code, 0, second.err)
        for r in second.records where r["type"] as? String == "day" {
            XCTAssertEqual(r["learning_s"] as? Int, 0, "nothing learned anew: \(second.out)")
        }
        let d = run("rewards", ["dashboard", "Alex"], env: ["REWARDS_NOW": "2026-11-22T02:00:00-05:00"])
        XCTAssertEqual(d.records.first?["learning_minutes_today"] as? Int, 0, "the twenty minutes after midnight are Saturday's session's")
        XCTAssertEqual(d.records.first?["balance"] as? Int, 50)
    }

    /// A session held for review (two events three seconds apart, 4½
    /// hours in all) is not paid piece by piece when a later run reads
    /// part of it again.
    func testAHeldSessionIsNotPaidPieceByPiece() throws {
        let py = try startServer()
        family()
        let url = "http://127.0.0.1:\(port)"
        try feed(py, [["bucket": window, "t": "2026-11-22T11:00:00-05:00", "d": 7200, "data": ["app": "Duolingo", "title": "Lesson 1"], "insert": true],
                      ["bucket": window, "t": "2026-11-22T13:00:03-05:00", "d": 9000 - 3, "data": ["app": "Duolingo", "title": "Lesson 2"], "insert": true],
                      ["bucket": window, "t": "2026-11-22T15:31:00-05:00", "d": 1740, "data": ["app": "Terminal", "title": "bash"], "insert": true]])
        let first = run("rewards", ["ingest", "--activitywatch", url, "--child", "Alex"], env: ["REWARDS_NOW": "2026-11-22T16:00:00-05:00"])
        XCTAssertEqual(first.code, 0, first.err)
        XCTAssertEqual(first.records.first { $0["type"] as? String == "day" }?["held"] as? Int, 1, first.out)
        let later = run("rewards", ["ingest", "--activitywatch", url, "--child", "Alex"], env: ["REWARDS_NOW": "2026-11-22T16:20:00-05:00"])
        XCTAssertEqual(later.code, 0, later.err)
        XCTAssertEqual(run("rewards", ["dashboard", "Alex"], env: ["REWARDS_NOW": "2026-11-22T16:20:00-05:00"]).records.first?["balance"] as? Int, 0,
                       "the second lesson is part of the held session: \(later.out)")
        XCTAssertEqual(run("rewards", ["flags"], env: ["REWARDS_NOW": "2026-11-22T16:20:00-05:00"]).records.count, 1)
    }

    /// A session of several events (a new window title each lesson) still
    /// going at one run is read from its first event by the next.
    func testASessionOfSeveralEventsStillGoingIsCountedWhole() throws {
        let py = try startServer()
        family()
        let url = "http://127.0.0.1:\(port)"
        try feed(py, [["bucket": window, "t": "2026-11-22T11:00:00-05:00", "d": 3600, "data": ["app": "Duolingo", "title": "Lesson 1"], "insert": true],
                      ["bucket": window, "t": "2026-11-22T12:00:03-05:00", "d": 7197, "data": ["app": "Duolingo", "title": "Lesson 2"], "insert": true]])
        let first = run("rewards", ["ingest", "--activitywatch", url, "--child", "Alex"], env: ["REWARDS_NOW": "2026-11-22T14:00:00-05:00"])
        XCTAssertEqual(first.code, 0, first.err)
        XCTAssertEqual(first.records.first { $0["type"] as? String == "day" }?["points"] as? Int ?? 0, 0, "still going: \(first.out)")
        try feed(py, [["bucket": window, "t": "2026-11-22T14:01:00-05:00", "d": 1740, "data": ["app": "Terminal", "title": "bash"], "insert": true]])
        let later = run("rewards", ["ingest", "--activitywatch", url, "--child", "Alex"], env: ["REWARDS_NOW": "2026-11-22T14:30:00-05:00"])
        XCTAssertEqual(later.code, 0, later.err)
        XCTAssertEqual(later.records.first { $0["type"] as? String == "day" }?["learning_s"] as? Int, 3 * 3600, "both lessons: \(later.out)")
    }

    /// A server that is not there is a temporary failure (75, for cron to
    /// try again) that changes nothing; https and a URL with a user are
    /// usage errors; something that is not aw-server is a data error.
    func testNoServerHttpsAndAServerThatIsNotActivityWatch() throws {
        family()
        let before = run("rewards", ["dashboard", "Alex"]).out
        let port = Loopback.freePort()
        let gone = run("rewards", ["ingest", "--activitywatch", "http://127.0.0.1:\(port)", "--child", "Alex"])
        XCTAssertEqual(gone.code, 75, gone.err)
        XCTAssertEqual(gone.err, "rewards: cannot connect to http://127.0.0.1:\(port): Connection refused; is aw-server running there? (ActivityWatch's is at http://localhost:5600)\n")
        XCTAssertEqual(gone.out, "")
        for (url, why) in [("https://localhost:5600", "is https"), ("http://mum@localhost:5600", "has a user name"),
                           ("http://localhost:99999", "has a port that is not 1 to 65535"), ("http://local host/", "has a space"),
                           ("http://localhost:5600/?x=1", "has a query")] {
            let r = run("rewards", ["ingest", "--activitywatch", url, "--child", "Alex"])
            XCTAssertEqual(r.code, 64, "\(url): \(r.err)")
            XCTAssertTrue(r.err.contains(why) && r.err.contains("need an http:// URL such as http://localhost:5600"), r.err)
            XCTAssertEqual(r.err.filter { $0 == "\n" }.count, 1, r.err)
        }
        XCTAssertEqual(run("rewards", ["dashboard", "Alex"]).out, before, "nothing changed")
        let files = run("rewards", ["ingest", "--activitywatch", "http://127.0.0.1:\(port)", "--child", "Alex", "more.ndjson"])
        XCTAssertEqual(files.code, 64, files.err)
        XCTAssertTrue(files.err.contains("not files too ('more.ndjson')"), files.err)
        // A server typed without its scheme is not read as a missing file without a word.
        let bare = run("rewards", ["ingest", "--activitywatch", "localhost:5600", "--child", "Alex"])
        XCTAssertEqual(bare.code, 66, bare.err)
        XCTAssertEqual(bare.err, "rewards: cannot open localhost:5600: No such file or directory; a running aw-server is given as a URL: http://localhost:5600\n")

        // A web server that is not aw-server: python3's, serving a folder.
        try require(.python3)
        let www = tmp + "/www"
        try FileManager.default.createDirectory(atPath: www + "/api/0", withIntermediateDirectories: true)
        try "{\"hostname\": \"x\"}".write(toFile: www + "/api/0/info", atomically: true, encoding: .utf8)
        let other = Loopback.freePort()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: command("python3"))
        p.arguments = ["-m", "http.server", "--bind", "127.0.0.1", "--directory", www, "\(other)"]
        p.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        p.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try p.run()
        server = p
        let end = Date().addingTimeInterval(20)
        while Date() < end && !Loopback.listening(other) { usleep(100_000) }
        let wrong = run("rewards", ["ingest", "--activitywatch", "http://127.0.0.1:\(other)", "--child", "Alex"])
        XCTAssertEqual(wrong.code, 65, wrong.err)
        XCTAssertTrue(wrong.err.contains("has no \"device_id\""), wrong.err)
        let missing = run("rewards", ["ingest", "--activitywatch", "http://127.0.0.1:\(other)/nothing", "--child", "Alex"])
        XCTAssertEqual(missing.code, 65, missing.err)
        XCTAssertTrue(missing.err.contains("answered /api/0/info with status 404"), missing.err)
        XCTAssertEqual(run("rewards", ["dashboard", "Alex"]).out, before, "nothing changed")
    }
}
