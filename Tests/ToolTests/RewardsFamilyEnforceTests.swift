import XCTest
import TestSupport
import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

/// Enforcement with real logins: what a child does to hide a game.
final class RewardsFamilyEnforceTests: RewardsFamilyTestCase {
    func testEnforceEndsRenamedGamesScriptsAndWhatTheyStarted() throws {
        setUpFamily()
        // The names as the parents know them, no wildcards.
        let set = rwAs("mum", "app", "set", "Minecraft", "--reward", "--process", "mcgame-long-name-edition", "--process", "mcgame-perl",
                       "--process", "mcgame.pl", "--process", "mcgame.sh", "--process", "mcgame-launcher.sh")
        XCTAssertEqual(set.code, 0, set.err)
        func put(_ name: String, _ text: String) {
            _ = FileManager.default.createFile(atPath: bin + "/" + name, contents: Data(text.utf8))
            _ = chmod(bin + "/" + name, 0o755)
        }
        try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: bin + "/mcgame-long-name-edition")
        try FileManager.default.copyItem(atPath: "/usr/bin/perl", toPath: bin + "/mcgame-perl")
        put("mcgame.pl", "sleep 300;\n")
        put("mcgame.sh", "/bin/sleep 300\n")
        put("mcgame-launcher.sh", "/bin/sleep 300 &\nwait\n")
        let script = """
        bash -c 'exec -a notagame \(bin)/mcgame-long-name-edition 300' &
        \(bin)/mcgame-perl -e '$0 = "harmless"; sleep 300' &
        perl \(bin)/mcgame.pl &
        bash \(bin)/mcgame.sh &
        sh \(bin)/mcgame-launcher.sh &
        wait
        """
        let p = try launch(as: "alex", script)
        defer { if p.isRunning { p.terminate() } }
        let alex = logins!.uid("alex")
        func others() -> [RunningProcess] { Processes.list(uids: [alex]).filter { $0.pid != p.processIdentifier } }
        let deadline = Date().addingTimeInterval(5)
        while others().count < 7 && Date() < deadline { usleep(50_000) }
        XCTAssertEqual(others().count, 7, "five games, two of them with a child: \(others())")
        let run = asRoot("enforce", "--grace", "1")
        XCTAssertEqual(run.code, 0, run.err)
        let gone = Date().addingTimeInterval(8)
        while !others().isEmpty && Date() < gone { usleep(100_000) }
        XCTAssertEqual(others().map { "\($0.comm) \($0.binary) \($0.script)" }, [], "every game and what it started was ended")
    }

    /// Interpreters that run a game without naming it as their script:
    /// code given with -c, or the script on standard input. Their code's
    /// file names and the files they have open name the app.
    func testInterpretersWhoseScriptIsNoArgumentAreEnded() throws {
        try require(.python3)
        setUpFamily()
        XCTAssertEqual(rwAs("mum", "app", "set", "Minecraft", "--reward", "--process", "minecraft.py").code, 0)
        let game = bin + "/minecraft.py"
        try "import time\ntime.sleep(300)\n".write(toFile: game, atomically: true, encoding: .utf8)
        _ = chmod(game, 0o644)
        let script = """
        sh -c 'python3 - < \(game)' &
        python3 -c 'import runpy; runpy.run_path("\(game)")' &
        wait
        """
        let p = try launch(as: "alex", script)
        defer { if p.isRunning { p.terminate() } }
        let alex = logins!.uid("alex")
        // Whatever enforce left (it must leave nothing) ends with the test, not minutes later.
        defer { for q in Processes.list(uids: [alex]) { kill(q.pid, SIGKILL) } }
        func pythons() -> [RunningProcess] { Processes.list(uids: [alex]).filter { $0.comm.hasPrefix("python3") } }
        let deadline = Date().addingTimeInterval(5)
        while pythons().count < 2 && Date() < deadline { usleep(50_000) }
        XCTAssertEqual(pythons().count, 2, "\(Processes.list(uids: [alex]))")
        let run = asRoot("enforce", "--grace", "1")
        XCTAssertEqual(run.code, 0, run.err)
        let gone = Date().addingTimeInterval(8)
        while !pythons().isEmpty && Date() < gone { usleep(100_000) }
        XCTAssertEqual(pythons().map { "\($0.comm) \($0.also)" }, [], "both ended")
    }

    /// With enforce_command, that command gets each app to end (the
    /// `enforced` record on its standard input), run as every hand-over
    /// command is: a failure, a kill, are said as such.
    func testTheEnforceCommandGetsTheRecordAndItsEndIsSaid() throws {
        setUpFamily()
        XCTAssertEqual(rwAs("mum", "app", "set", "Minecraft", "--reward", "--process", "mcgame").code, 0)
        try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: bin + "/mcgame")
        let p = Process()
        let argv = logins!.asLogin("alex")
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst()) + [bin + "/mcgame", "300"]
        try p.run()
        defer { if p.isRunning { p.terminate() } }
        let alex = logins!.uid("alex")
        let deadline = Date().addingTimeInterval(5)
        while !Processes.list(uids: [alex]).contains(where: { $0.comm == "mcgame" }) && Date() < deadline { usleep(50_000) }
        try FileManager.default.createDirectory(atPath: tmp + "/root-config/rewards", withIntermediateDirectories: true)
        let got = tmp + "/enforced.ndjson"
        let cases: [(String, Int32, String?)] = [
            ("cat >> '\(got)'; exit 3", 75, "Alex's Minecraft: the enforce command exited 3"),
            ("cat >> '\(got)'; kill -9 $$", 75, "Alex's Minecraft: the enforce command was killed by signal 9 (SIGKILL)"),
            ("cat >> '\(got)'", 0, nil),
        ]
        for (cmd, code, said) in cases {
            try "enforce_command = \(cmd)\n".write(toFile: tmp + "/root-config/rewards/config", atomically: true, encoding: .utf8)
            let r = asRoot("enforce")
            XCTAssertEqual(r.code, code, r.err)
            if let s = said { XCTAssertTrue(r.err.contains(s), r.err) } else { XCTAssertEqual(r.err, "") }
        }
        let records = try String(contentsOfFile: got, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(records.count, 3, "each run handed the app over")
        XCTAssertTrue(records.allSatisfy { $0.contains("\"type\":\"enforced\"") && $0.contains("\"app\":\"Minecraft\"") }, "\(records)")
        XCTAssertTrue(p.isRunning, "the command decides what to do; enforce ends nothing itself")
    }

    func testRootsCronInUTCCountsTheFamilysDay() throws {
        // The family lives in New York (mum's TZ when she made it); cron runs in UTC.
        let ny = ["TZ": "America/New_York"], utc = ["TZ": "UTC"]
        XCTAssertEqual(root(["/bin/rm", "-rf", family]).code, 0)
        XCTAssertEqual(root(["/usr/bin/install", "-d", "-o", users["mum"]!, "-m", "0700", family]).code, 0)
        XCTAssertEqual(rwAs("mum", "init", env: ny).code, 0)
        for args in [["child", "add", "Alex", "--user", name("alex")], ["app", "set", "Minecraft", "--reward", "--process", "mcgame"],
                     ["adjust", "Alex", "+100", "--reason", "start"]] {
            XCTAssertEqual(rwAs("mum", args, env: ny).code, 0, args.joined(separator: " "))
        }
        // 21:00 in New York, 02:00 the next day in UTC: mum grants 5 minutes tonight.
        let evening = "2026-11-22T21:00:00-05:00"
        XCTAssertEqual(rwAs("mum", "redeem", "Alex", "5", env: ny, at: evening).code, 0)
        let game = try startGame(as: "alex")
        defer { if game.isRunning { game.terminate() } }
        let run = asRoot("enforce", "--grace", "1", env: utc.merging(["REWARDS_NOW": evening]) { $1 })
        XCTAssertEqual(run.code, 0, run.err)
        XCTAssertTrue(game.isRunning, "the time mum granted tonight counts: \(run.out)")
        XCTAssertFalse(run.out.contains("without any reward time"), run.out)
        XCTAssertTrue(String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: family + "/family.conf"))) ?? Data(), as: UTF8.self)
            .contains("zone = America/New_York"))
    }

    /// Downtime and a parent's lock end reward apps in the run that finds
    /// them, whatever the time granted; the child is warned at five
    /// minutes and at one before downtime, and sees it in the widget.
    /// Every journal in the family folder, by name.
    func journalBytes() throws -> [String: Data] {
        var out: [String: Data] = [:]
        for f in try FileManager.default.subpathsOfDirectory(atPath: family) where f.hasSuffix(".ndjson") {
            out[f] = FileManager.default.contents(atPath: family + "/" + f)
        }
        return out
    }

    func testDowntimeAndALockEndRewardAppsInTheSameMinute() throws {
        setUpFamily()
        XCTAssertEqual(rwAs("mum", "app", "set", "Minecraft", "--reward", "--process", "mcgame").code, 0)
        XCTAssertEqual(rwAs("mum", "bonus", "Alex", "60", "--reason", "birthday").code, 0)
        let env = ["REWARDS_FORMAT": "json"]
        // 10:00 on Sunday: downtime from 10:04, so a warning at five minutes (4 left), then at one.
        XCTAssertEqual(rwAs("mum", "settings", "set", "downtime_sun", "10:04-11:00").code, 0)
        let game = try startGame(as: "alex")
        defer { if game.isRunning { game.terminate() } }
        // A dry run says what a run would, and records, charges and uses up nothing.
        let journals = try journalBytes()
        let dry = asRoot("enforce", "--dry-run", env: env)
        XCTAssertEqual(dry.code, 0, dry.err)
        XCTAssertEqual(dry.records.first { $0["type"] as? String == "notification" }?["title"] as? String, "Downtime in 4 minutes")
        XCTAssertEqual(try journalBytes(), journals, "a dry run writes nothing")
        XCTAssertEqual(rwAs("alex", "widget").out, "🎮 60m · 🌙 10:04 · 100 pts\n", "nothing charged")
        let warned = asRoot("enforce", env: env)
        XCTAssertEqual(warned.code, 0, warned.err)
        let note = warned.records.first { $0["type"] as? String == "notification" }
        XCTAssertEqual(note?["title"] as? String, "Downtime in 4 minutes")
        XCTAssertEqual(note?["reason"] as? String, "downtime")
        XCTAssertTrue(game.isRunning, "time is left and downtime has not begun")
        XCTAssertEqual(asRoot("enforce", env: ["REWARDS_NOW": "2026-11-22T10:01:00-05:00"]).records.filter { $0["type"] as? String == "notification" }.count, 0,
                       "said once")
        let last = asRoot("enforce", env: ["REWARDS_NOW": "2026-11-22T10:03:10-05:00", "REWARDS_FORMAT": "json"])
        XCTAssertEqual(last.records.first { $0["type"] as? String == "notification" }?["title"] as? String, "Downtime in 1 minute")
        XCTAssertEqual(rwAs("alex", "widget", at: "2026-11-22T10:03:10-05:00").out, "🎮 57m · 🌙 10:04 · 100 pts\n")
        // In downtime: ended in this run, 57 minutes left or not.
        let end = asRoot("enforce", "--grace", "1", env: ["REWARDS_NOW": "2026-11-22T10:05:00-05:00", "REWARDS_FORMAT": "json"])
        XCTAssertEqual(end.code, 0, end.err)
        let rec = end.records.first { $0["type"] as? String == "enforced" }
        XCTAssertEqual(rec?["reason"] as? String, "downtime")
        XCTAssertEqual(rec?["action"] as? String, "ended")
        XCTAssertTrue(ended(game), "the game ended in downtime")
        XCTAssertEqual(rwAs("alex", "widget", at: "2026-11-22T10:05:00-05:00").out, "🌙 downtime till 11:00\n")
        // After downtime, a lock: ended again, said as a pause.
        let again = try startGame(as: "alex")
        defer { if again.isRunning { again.terminate() } }
        XCTAssertEqual(rwAs("mum", "lock", "Alex", "--for", "30m", at: "2026-11-22T11:10:00-05:00").code, 0)
        let locked = asRoot("enforce", "--grace", "1", env: ["REWARDS_NOW": "2026-11-22T11:11:00-05:00", "REWARDS_FORMAT": "json"])
        XCTAssertEqual(locked.records.first { $0["type"] as? String == "enforced" }?["reason"] as? String, "locked")
        XCTAssertEqual(locked.records.first { $0["type"] as? String == "notification" }?["title"] as? String, "Reward time is paused")
        XCTAssertTrue(ended(again), "the game ended under the lock")
        XCTAssertEqual(rwAs("alex", "widget", at: "2026-11-22T11:12:00-05:00").out, "🔒 locked till 11:40\n")
        XCTAssertEqual(rwAs("alex", "allowance", at: "2026-11-22T11:12:00-05:00").code, 1)
        XCTAssertEqual(rwAs("alex", "lock", "Sam").code, 77, "a child locks no one")
        let log = rwAs("mum", "log", at: "2026-11-22T11:12:00-05:00").out
        XCTAssertTrue(log.contains("Minecraft was ended for Alex: it was downtime"), log)
        XCTAssertTrue(log.contains("Minecraft was ended for Alex: a parent paused reward time"), log)
        // A second lock the same day is told again; unlocked, the day's end is warned of.
        XCTAssertEqual(rwAs("mum", "unlock", "Alex", at: "2026-11-22T11:13:00-05:00").code, 0)
        let third = try startGame(as: "alex")
        defer { if third.isRunning { third.terminate() } }
        XCTAssertEqual(rwAs("mum", "lock", "Alex", "--until", "12:00", at: "2026-11-22T11:14:00-05:00").code, 0)
        let second = asRoot("enforce", "--grace", "1", env: ["REWARDS_NOW": "2026-11-22T11:15:00-05:00", "REWARDS_FORMAT": "json"])
        XCTAssertEqual(second.records.first { $0["type"] as? String == "notification" }?["title"] as? String, "Reward time is paused")
        XCTAssertTrue(ended(third))
        let late = try startGame(as: "alex")
        defer { if late.isRunning { late.terminate() } }
        let midnight = asRoot("enforce", env: ["REWARDS_NOW": "2026-11-22T23:56:00-05:00", "REWARDS_FORMAT": "json"])
        XCTAssertEqual(midnight.records.first { $0["type"] as? String == "notification" }?["title"] as? String, "Reward time ends at midnight")
        // The status file from that run, read the next morning: a new day, nothing granted yet.
        let morning = rwAs("alex", "allowance", env: ["REWARDS_FORMAT": "text"], at: "2026-11-23T08:00:00-05:00")
        XCTAssertEqual(morning.code, 1)
        XCTAssertEqual(morning.out, "Alex today: 0 min granted, 0 used, 0 left; downtime from 2026-11-29T10:04:00-05:00\n", "next Sunday's")
    }
}
