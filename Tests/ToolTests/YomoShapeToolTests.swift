import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Rules that keep their shape: each reminder's own zone, re-homing,
/// elapsed "in N minutes", ends, advance warnings, `edit` saying what it
/// does, and `watch` waking on time and on journal changes.
final class YomoShapeToolTests: ToolTestCase {
    let now = "2026-11-22T10:07:00-05:00"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["YOMO_DATA_DIR"] = dataDir
        e["YOMO_NOW"] = now
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    @discardableResult
    func yomo(_ args: String..., stdin: String? = nil, env: [String: String] = [:]) -> RunResult {
        run("yomo", args, stdin: stdin, env: env)
    }

    func testEachReminderKeepsItsZoneAndCronWithoutTZFiresOnTime() {
        let id = yomo("add", "call mom", "--time", "18:00").records[0]["id"] as! String
        let tokyo = yomo("add", "ring Kenji", "--time", "09:00", "--date", "2026-11-23", "--tz", "Asia/Tokyo").records[0]
        XCTAssertEqual(tokyo["trigger_at"] as? String, "2026-11-23T09:00:00+09:00")
        XCTAssertEqual(tokyo["tz"] as? String, "Asia/Tokyo")
        // cron's environment often has no TZ: the reminder still fires at 18:00 New York time.
        let early = sh("env -u TZ '\(executable("yomo"))' due --now 2026-11-22T17:59:00-05:00")
        XCTAssertEqual(early.out, "", early.err)
        let due = sh("env -u TZ '\(executable("yomo"))' due --now 2026-11-22T18:00:00-05:00")
        XCTAssertTrue(due.out.contains("\"id\":\"\(id)\""), due.out + due.err)
        XCTAssertTrue(due.out.contains("\"occurrence\":\"2026-11-22T18:00:00-05:00\""), due.out)
        // Re-homing keeps the wall-clock time.
        let moved = yomo("rehome", "Europe/London", id)
        XCTAssertEqual(moved.code, 0, moved.err)
        XCTAssertEqual(moved.records.first?["tz"] as? String, "Europe/London")
        let next = yomo("next", id, "-n", "1")
        XCTAssertEqual(next.records.first?["at"] as? String, "2026-11-22T18:00:00Z", "18:00 where it now lives")
        let daily = yomo("add", "stretch every day at 7am").records[0]["id"] as! String
        XCTAssertEqual(yomo("rehome", "Europe/London", daily).records.first?["trigger_at"] as? String, "2026-11-23T07:00:00Z")
        XCTAssertEqual(yomo("rehome", "Nowhere/Land").code, 64)
        XCTAssertEqual(yomo("add", "x", "--tz", "Nowhere/Land").code, 64)
    }

    func testInMinutesIsElapsedTimeInTheRepeatedHour() {
        // 01:10 EST, the second 01:10 of the fall-back night.
        let r = yomo("add", "check the oven in 20 minutes", env: ["YOMO_NOW": "2026-11-01T01:10:00-05:00"])
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.records[0]["trigger_at"] as? String, "2026-11-01T01:30:00-05:00")
        XCTAssertEqual(yomo("due", "--now", "2026-11-01T01:29:00-05:00").out, "", "not an hour early")
        XCTAssertEqual(yomo("due", "--now", "2026-11-01T01:30:00-05:00").records.count, 1)
    }

    func testEndsYearlyAndAdvanceWarnings() {
        let y = yomo("add", "renew domain every year on march 3 at 9am").records[0]
        XCTAssertEqual((y["recurrence"] as? [String: Any])?["unit"] as? String, "year")
        let u = yomo("add", "physio every monday at 8am", "--until", "2026-12-07").records[0]["id"] as! String
        XCTAssertEqual(yomo("next", u, "-n", "5").records.count, 3)
        let c = yomo("add", "pills every day at 8pm", "--times", "2").records[0]["id"] as! String
        XCTAssertEqual(yomo("next", c, "-n", "5").records.count, 2)
        XCTAssertEqual(yomo("add", "x", "--times", "0").code, 64)
        XCTAssertEqual(yomo("add", "x", "--until", "2026-12-07").err, "yomo: --until and --times need a repeating rule\n")
        let w = yomo("add", "meeting", "--time", "11:00", "--warn", "10m").records[0]
        XCTAssertEqual(w["warn_minutes"] as? Int, 10)
        XCTAssertEqual(yomo("due", "--now", "2026-11-22T10:49:00-05:00").out, "")
        let ahead = yomo("due", "--now", "2026-11-22T10:50:00-05:00").records
        XCTAssertEqual(ahead.count, 1)
        XCTAssertEqual(ahead.first?["warning"] as? Bool, true)
        XCTAssertEqual(ahead.first?["body"] as? String, "Coming up at 11:00 (2026-11-22)")
        XCTAssertEqual(yomo("due", "--now", "2026-11-22T10:55:00-05:00").out, "", "warned once")
        let on = yomo("due", "--now", "2026-11-22T11:00:00-05:00").records
        XCTAssertEqual(on.map { $0["warning"] as? Bool }, [nil], "then the occurrence itself")
        XCTAssertEqual(yomo("add", "x", "--warn", "soon").err, "yomo: --warn takes durations from 1m to 7d like 10m, 1h or 1d,15m (at most five), or 0 for none, not 'soon'\n")
    }

    func testEditSaysWhatItDoes() {
        let id = yomo("add", "dentist", "--date", "2026-11-25", "--time", "09:00").records[0]["id"] as! String
        let past = yomo("edit", id, "--date", "2026-11-21")
        XCTAssertEqual(past.code, 0)
        XCTAssertEqual(past.err, "yomo: 2026-11-21T09:00:00-05:00 has passed: the reminder is due now\n")
        let guess = yomo("edit", id, "--date", "2026-11-26", "--time", "10:00")
        XCTAssertEqual(guess.err, "")
        yomo("done", id)
        let reopen = yomo("edit", id, "--time", "11:00")
        XCTAssertEqual(reopen.err, "yomo: reminder \(id) was completed; the edit makes it active again\n")
        XCTAssertEqual(reopen.records[0]["status"] as? String, "active")
    }

    /// `watch` wakes at the due second, and prints `dismiss` when another
    /// device completes what it announced.
    func testWatchWakesOnTimeAndDismissesWhatAnotherDeviceCompleted() throws {
        let id = yomo("add", "tea", "--time", "10:08").records[0]["id"] as! String
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable("yomo"))
        p.arguments = ["watch", "--now", "2026-11-22T10:07:58-05:00"]
        var env = baseEnvironment
        env["YOMO_ACTOR"] = "laptop"
        p.environment = env
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        defer { p.terminate(); p.waitUntilExit() }
        var got = Data()
        func waitFor(_ s: String, seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if String(decoding: got, as: UTF8.self).contains(s) { return true }
                got.append(pipe.fileHandleForReading.availableData)
            }
            return String(decoding: got, as: UTF8.self).contains(s)
        }
        let started = Date()
        XCTAssertTrue(waitFor("\"type\":\"notification\"", seconds: 15))
        XCTAssertLessThan(Date().timeIntervalSince(started), 8, "woke at the due second, not on a 30 s poll")
        // The phone completes it: the laptop's watch closes its notification.
        let done = yomo("done", id, "--now", "2026-11-22T10:08:30-05:00", env: ["YOMO_ACTOR": "phone"])
        XCTAssertEqual(done.code, 0, done.err)
        XCTAssertTrue(waitFor("\"type\":\"dismiss\"", seconds: 8), String(decoding: got, as: UTF8.self))
        let text = String(decoding: got, as: UTF8.self)
        XCTAssertTrue(text.contains("\"id\":\"\(id)\""), text)
        XCTAssertTrue(text.contains("\"reason\":\"completed\""), text)
        XCTAssertTrue(text.contains("\"by\":\"phone\""), text)
    }
}

/// Devices sharing a sync folder: the list, forgetting one, purging
/// everything everywhere.
final class YomoDevicesToolTests: ToolTestCase {
    let now = "2026-11-22T10:07:00-05:00"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["YOMO_NOW"] = now
        e["YOMO_SYNC_DIR"] = tmp + "/sync"
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    @discardableResult
    func yomoAt(_ device: String, _ args: String...) -> RunResult {
        run("yomo", args, env: ["YOMO_DATA_DIR": tmp + "/\(device)", "YOMO_ACTOR": device])
    }

    func testDevicesForgetAndPurge() {
        // The phone wrote in October (before the laptop: a device that has
        // folded a later stamp stamps after it, whatever its clock says).
        XCTAssertEqual(run("yomo", ["add", "call mom", "--time", "18:00", "--now", "2026-10-01T12:00:00-04:00"],
                           env: ["YOMO_DATA_DIR": tmp + "/phone", "YOMO_ACTOR": "phone"]).code, 0)
        XCTAssertEqual(yomoAt("laptop", "add", "water plants every day at 9am").code, 0)
        let list = yomoAt("laptop", "devices")
        XCTAssertEqual(list.code, 0, list.err)
        XCTAssertEqual(list.records.map { $0["name"] as? String }, ["laptop", "phone"])
        XCTAssertEqual(list.records.map { $0["silent"] as? Bool }, [false, true], "phone: 52 days silent")
        XCTAssertEqual(list.records.map { $0["this_device"] as? Bool }, [true, false])
        XCTAssertEqual(list.records[1]["last_seen"] as? String, "2026-10-01T12:00:00-04:00")
        XCTAssertTrue(yomoAt("laptop", "devices", "--format", "text").out.contains("[silent 30+ days]"))
        // Forgetting takes it off the list; its reminder stays.
        XCTAssertEqual(yomoAt("laptop", "devices", "forget", "laptop").code, 64)
        XCTAssertEqual(yomoAt("laptop", "devices", "forget", "tablet").code, 65)
        XCTAssertEqual(yomoAt("laptop", "devices", "forget", "phone").records.first?["forgotten"] as? Bool, true)
        XCTAssertEqual(yomoAt("laptop", "devices").records.map { $0["name"] as? String }, ["laptop"])
        XCTAssertEqual(yomoAt("laptop", "list").records.count, 2, "its history stays")
        yomoAt("phone", "add", "buy milk")
        XCTAssertEqual(yomoAt("laptop", "devices").records.map { $0["name"] as? String }, ["laptop", "phone"], "back once it writes again")
        // Purge: refused without --yes, then everything goes, on every device.
        let refused = yomoAt("phone", "purge")
        XCTAssertEqual(refused.code, 64)
        XCTAssertEqual(refused.err, "yomo: 'yomo purge' cannot be undone: run it with --yes (on a terminal it asks)\n")
        XCTAssertEqual(yomoAt("phone", "purge", "--yes").records.first?["reminders"] as? Int, 3)
        XCTAssertEqual(yomoAt("laptop", "list").out, "")
        XCTAssertEqual(yomoAt("phone", "list").out, "")
        let journal = (try? String(contentsOfFile: tmp + "/sync/laptop.ndjson", encoding: .utf8)) ?? ""
        XCTAssertFalse(journal.contains("water plants"), "the laptop compacted its own journal: \(journal)")
        XCTAssertEqual(yomoAt("laptop", "add", "a fresh start").code, 0)
        XCTAssertEqual(yomoAt("phone", "list").records.count, 1)
    }
}

/// `export` and `import`: yomo NDJSON and iCalendar both ways, Taskwarrior
/// in; all or nothing, every problem named.
final class YomoExchangeToolTests: ToolTestCase {
    let now = "2026-11-22T10:07:00-05:00"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["YOMO_NOW"] = now
        e["YOMO_DATA_DIR"] = dataDir
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    @discardableResult
    func yomo(_ args: String..., stdin: String? = nil, env: [String: String] = [:]) -> RunResult {
        run("yomo", args, stdin: stdin, env: env)
    }

    func comparable(_ r: RunResult) -> [String] {
        r.records.map { rec in
            let rule = (rec["recurrence"] as? [String: Any]).map { d in d.keys.sorted().map { "\($0)=\(d[$0]!)" }.joined(separator: ",") } ?? ""
            return "\(rec["title"]!)|\(rec["trigger_at"]!)|\(rec["status"]!)|\(rec["tz"]!)|\(rule)"
        }
    }

    func testExportAndImportRoundTrips() {
        yomo("add", "water plants every Tuesday at 3pm", "--warn", "10m")
        yomo("add", "book club on the 2nd tuesday of every month", "--time", "19:00")
        yomo("add", "drink water every 2 hours from 9 to 6")
        yomo("add", "ring Kenji every day at 9am", "--tz", "Asia/Tokyo", "--until", "2027-01-31")
        yomo("add", "clean the filter every 3 days after I finish it")
        let done = yomo("add", "old one", "--time", "11:00").records[0]["id"] as! String
        yomo("done", done)
        let before = comparable(yomo("list", "--all"))
        let json = yomo("export")
        XCTAssertEqual(json.code, 0)
        XCTAssertEqual(json.records.count, 6)
        let ics = yomo("export", "--format", "ics")
        XCTAssertEqual(ics.code, 0)
        XCTAssertTrue(ics.out.hasPrefix("BEGIN:VCALENDAR\r\n"), ics.out)
        XCTAssertTrue(ics.out.contains("DTSTART;TZID=Asia/Tokyo:"), ics.out)
        XCTAssertTrue(ics.out.contains("TRIGGER:-PT10M"))
        XCTAssertTrue(ics.err.contains("iCalendar cannot say repeating from completion; it is kept in X-YOMO-RECURRENCE"), ics.err)
        _ = write("all.ndjson", json.out)
        _ = write("all.ics", ics.out)
        for (file, dir) in [("all.ndjson", "/from-json"), ("all.ics", "/from-ics")] {
            let imp = run("yomo", ["import", tmp + "/" + file], env: ["YOMO_DATA_DIR": tmp + dir])
            XCTAssertEqual(imp.code, 0, imp.err)
            XCTAssertEqual(imp.records.count, 6)
            XCTAssertEqual(comparable(run("yomo", ["list", "--all"], env: ["YOMO_DATA_DIR": tmp + dir])), before, file)
        }
        // The same file again changes nothing: its reminders are already here.
        for (file, dir) in [("all.ndjson", "/from-json"), ("all.ics", "/from-ics")] {
            let again = run("yomo", ["import", tmp + "/" + file], env: ["YOMO_DATA_DIR": tmp + dir])
            XCTAssertEqual(again.code, 0, again.err)
            XCTAssertEqual(again.records.count, 0)
            XCTAssertTrue(again.err.contains("6 already here from an earlier import, unchanged"), again.err)
            XCTAssertEqual(comparable(run("yomo", ["list", "--all"], env: ["YOMO_DATA_DIR": tmp + dir])), before, file)
        }
    }

    func testImportIsAllOrNothingWithEachProblemNamed() {
        let bad = """
            {"type":"reminder","title":"fine","trigger_at":"2026-11-23T09:00:00-05:00","recurrence":{"type":"none"}}
            {"type":"reminder","title":"","trigger_at":"2026-11-23T09:00:00-05:00"}
            not json
            {"type":"reminder","title":"odd rule","anchor":"2026-11-23T09:00:00","recurrence":{"type":"custom","interval":2,"unit":"fortnight"}}
            """
        let r = yomo("import", "-", stdin: bad)
        XCTAssertEqual(r.code, 65)
        XCTAssertEqual(r.err, """
            yomo: stdin:2: "title" must be a non-empty string
            yomo: stdin:3: not a JSON object
            yomo: stdin:4: "recurrence" does not fit yomo's rules; nothing imported (3 problems)

            """)
        XCTAssertEqual(yomo("list").out, "", "nothing imported")
        XCTAssertEqual(yomo("import", tmp + "/missing.ics").code, 66)
    }

    func testImportTaskwarrior() {
        let tasks = """
            [{"id":1,"description":"Pay rent","due":"20261201T140000Z","status":"pending","uuid":"a1"},
            {"id":2,"description":"Water plants","due":"20261124T200000Z","status":"recurring","recur":"weekly","uuid":"b1"},
            {"id":3,"description":"Water plants","due":"20261124T200000Z","status":"pending","parent":"b1","uuid":"b2"},
            {"id":4,"description":"Someday","status":"pending","uuid":"c1"}]
            """
        let r = yomo("import", "-", stdin: tasks)
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.records.map { $0["title"] as? String }, ["Pay rent", "Water plants"])
        XCTAssertEqual(r.records.map { $0["trigger_at"] as? String }, ["2026-12-01T09:00:00-05:00", "2026-11-24T15:00:00-05:00"])
        XCTAssertEqual(r.err, "yomo: 2 tasks left out: deleted, recurring instances, or without a due date\n")
        // The same export again changes nothing: each task is known by its UUID.
        let again = yomo("import", "-", stdin: tasks)
        XCTAssertEqual(again.code, 0, again.err)
        XCTAssertEqual(again.records.count, 0)
        XCTAssertTrue(again.err.contains("2 already here from an earlier import, unchanged"), again.err)
    }

    /// yomo's Taskwarrior export is what `task import` (2.6) accepts, with
    /// statuses Taskwarrior has; back into yomo it changes nothing.
    func testTaskImportAcceptsTheExport() throws {
        try require(.taskwarrior)
        yomo("add", "pay rent", "--date", "2026-12-01", "--time", "09:00", "--notes", "the landlord's account")
        yomo("add", "water plants every tuesday at 3pm")
        let done = yomo("add", "call mom", "--date", "2026-11-23", "--time", "09:00").records[0]["id"] as! String
        yomo("done", done)
        let out = yomo("export", "--format", "taskwarrior")
        XCTAssertEqual(out.code, 0, out.err)
        XCTAssertTrue(out.err.contains("its rule (every Tue) is not kept"), out.err)
        _ = write("tasks.json", out.out)
        _ = write("taskrc", "data.location=\(tmp)/taskdata\n")
        let env = ["TASKDATA": tmp + "/taskdata", "TASKRC": tmp + "/taskrc", "HOME": tmp, "PATH": "/usr/bin:/bin"]
        let imp = runProgram(command("task"), ["rc.confirmation=off", "rc.hooks=off", "import", tmp + "/tasks.json"], env: env)
        XCTAssertEqual(imp.status, 0, imp.err)
        XCTAssertTrue((imp.out + imp.err).contains("Imported 3 tasks"), imp.out + imp.err)
        let back = runProgram(command("task"), ["rc.confirmation=off", "rc.hooks=off", "export"], env: env)
        XCTAssertEqual(back.status, 0, back.err)
        let statuses = (try JSONSerialization.jsonObject(with: Data(back.out.utf8)) as! [[String: Any]]).map { $0["status"] as! String }.sorted()
        XCTAssertEqual(statuses, ["completed", "pending", "pending"])
        let again = yomo("import", "-", stdin: back.out)
        XCTAssertEqual(again.code, 0, again.err)
        XCTAssertEqual(again.records.count, 0, "the reminders are already here")
    }
}

/// Colour on a terminal for due, overdue and snoozed, never with NO_COLOR,
/// with a `theme` in the configuration file.
final class YomoColourToolTests: ToolTestCase {
    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["YOMO_NOW"] = "2026-11-22T10:07:00-05:00"
        e["YOMO_DATA_DIR"] = dataDir
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        e["TERM"] = "xterm"
        return e
    }

    /// `yomo list` on a pseudo-terminal (script(1)).
    func onTerminal(_ env: String = "") -> String {
        sh("\(env) script -qec '\(executable("yomo")) list' /dev/null").out
    }

    func testColourOnATerminalOnly() throws {
        run("yomo", ["add", "stand up", "--date", "today", "--time", "10:00"])       // due 7 minutes ago
        run("yomo", ["add", "pay bill", "--date", "today", "--time", "08:00"])       // overdue
        let s = run("yomo", ["add", "call back", "--date", "today", "--time", "10:05"]).records[0]["id"] as! String
        run("yomo", ["snooze", s, "30"])
        run("yomo", ["add", "later", "--time", "18:00"])
        let out = onTerminal()
        XCTAssertTrue(out.contains("\u{1B}[1;31m"), "overdue in red: \(out.debugDescription)")
        XCTAssertTrue(out.contains("\u{1B}[1;33m"), "due in yellow")
        XCTAssertTrue(out.contains("\u{1B}[36m"), "snoozed in cyan")
        XCTAssertEqual(out.components(separatedBy: "\u{1B}[0m").count - 1, 3, "the later one plain")
        XCTAssertFalse(onTerminal("NO_COLOR=1").contains("\u{1B}["), "NO_COLOR")
        XCTAssertFalse(run("yomo", ["list", "--format", "text"]).out.contains("\u{1B}["), "not a terminal")
        try FileManager.default.createDirectory(atPath: tmp + "/config/yomo", withIntermediateDirectories: true)
        _ = write("config/yomo/config", "theme = mono\n")
        XCTAssertTrue(onTerminal().contains("\u{1B}[1;4m"))
        _ = write("config/yomo/config", "theme = due=35,overdue=35,snoozed=35\n")
        XCTAssertTrue(onTerminal().contains("\u{1B}[35m"))
        _ = write("config/yomo/config", "theme = rainbow\n")
        XCTAssertTrue(onTerminal().contains("yomo: theme must be default, dark, light, mono or none, or like due=1;33,overdue=1;31,snoozed=36, not 'rainbow'"))
    }
}
