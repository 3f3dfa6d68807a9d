import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// playa's delivery, erasure, import and queue lifecycles, run as a person
/// and cron would run them.
final class PlayaLifecycleToolTests: ToolTestCase {
    let now = "2026-11-23T00:00:30-05:00"
    let phone = "+14155550132"
    let secret = "Coffee & cake at mine? 🎂"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["PLAYA_DATA_DIR"] = dataDir
        e["PLAYA_NOW"] = now
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    @discardableResult
    func playa(_ args: String..., stdin: String? = nil, env: [String: String] = [:]) -> RunResult {
        run("playa", args, stdin: stdin, env: env)
    }

    func add(_ name: String, phone p: String, times: String, messages: [String]) {
        XCTAssertEqual(playa("recipient", "add", name, "--platform", "whatsapp", "--phone", p).code, 0)
        for m in messages { playa("message", "add", name, m) }
        playa("schedule", name, "--fixed", times)
    }

    /// Every file in the data directory, as text.
    func dataFiles() -> [(String, String)] {
        let e = FileManager.default.enumerator(atPath: dataDir)
        var out: [(String, String)] = []
        while let f = e?.nextObject() as? String {
            var isDir: ObjCBool = false
            let p = dataDir + "/" + f
            if FileManager.default.fileExists(atPath: p, isDirectory: &isDir), !isDir.boolValue {
                out.append((f, (try? String(contentsOfFile: p, encoding: .utf8)) ?? ""))
            }
        }
        return out
    }

    /// Five overlapping cron runs with a slow notifier (it blocks, as
    /// `notify-send --wait` does until clicked): each event is handed over
    /// once, by one of them.
    func testOverlappingDueRunsDeliverEachEventOnce() throws {
        add("Ana", phone: phone, times: "09:00,09:30,10:00,10:30", messages: ["one", "two"])
        add("Bo", phone: "+442079460958", times: "09:05,09:35,10:05", messages: ["three"])
        add("Cy", phone: "+33612345678", times: "09:10,09:40,10:10", messages: ["four"])
        XCTAssertEqual(playa("generate").records.count, 10)
        let log = tmp + "/delivered.log"
        let r = sh("""
        for i in 1 2 3 4 5; do
          playa due --command 'sleep 0.4; echo "$PLAYA_ID" >> \(log)' > \(tmp)/run$i.out &
          sleep 0.1
        done
        wait
        """, env: ["PLAYA_NOW": "2026-11-23T11:00:00-05:00"])
        XCTAssertEqual(r.err, "")
        let ids = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(ids.count, 10, "every due event delivered")
        XCTAssertEqual(Set(ids).count, ids.count, "none twice: \(ids)")
        let printed = try (1...5).flatMap { try String(contentsOfFile: tmp + "/run\($0).out", encoding: .utf8).split(separator: "\n") }
        XCTAssertEqual(printed.count, 0, "what went to the command is not printed again")
        XCTAssertEqual(playa("due", "--command", "echo again >> \(log)", "--now", "2026-11-23T11:01:00-05:00").out, "")
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count, 10)
        XCTAssertTrue(playa("queue", "--now", "2026-11-23T11:02:00-05:00").records.allSatisfy { $0["notification"] as? String == "delivered" })
    }

    /// A notifier that hangs is ended at the timeout: the notification is
    /// unknown (it may have shown), not repeated unless asked.
    func testAHungNotifierIsEndedAndNotRepeated() {
        add("Ana", phone: phone, times: "09:00", messages: [secret])
        playa("generate")
        let log = tmp + "/n.log"
        let hung = playa("due", "--command", "echo started >> \(log); sleep 30", "--timeout", "1", "--now", "2026-11-23T09:01:00-05:00")
        XCTAssertEqual(hung.code, 75)
        XCTAssertEqual(hung.records.first?["notification"] as? String, "unknown")
        XCTAssertEqual(hung.err, "playa: 1 notification may have shown (the notify command ran past its timeout of 1 s and was ended), so it is not repeated (--retry-unknown repeats it)\n")
        XCTAssertEqual(playa("due", "--command", "echo again >> \(log)", "--now", "2026-11-23T09:02:00-05:00").out, "")
        let retry = playa("due", "--command", "echo retried >> \(log)", "--retry-unknown", "--now", "2026-11-23T09:03:00-05:00")
        XCTAssertEqual(retry.code, 0, retry.err)
        XCTAssertEqual(retry.out, "", "what the command took is not printed again")
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8), "started\nretried\n")
        // The timeout from the configuration file; a bad value is named.
        try? FileManager.default.createDirectory(atPath: tmp + "/config/playa", withIntermediateDirectories: true)
        _ = write("config/playa/config", "notify_timeout = soon\n")
        XCTAssertEqual(playa("due").err, "playa: \(tmp)/config/playa/config: notify_timeout must be a whole number of seconds from 1 to 86400, not 'soon'\n")
        XCTAssertEqual(playa("due", "--timeout", "0").code, 64)
    }

    /// A run killed while its notifier runs: its claim holds until it
    /// expires, then the event is unknown, never handed over again by cron.
    func testAKilledRunsClaimExpiresAndIsNotRepeated() throws {
        add("Ana", phone: phone, times: "09:00", messages: ["hi"])
        playa("generate")
        let pidFile = tmp + "/notifier.pid"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable("playa"))
        p.arguments = ["due", "--command", "echo $$ > \(pidFile); exec sleep 30"]
        var env = baseEnvironment
        env["PLAYA_NOW"] = "2026-11-23T09:00:30-05:00"
        p.environment = env
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        // The command has started (its pid is written) when the run is killed.
        let pid = waitForLine(pidFile).flatMap { Int32($0) }
        XCTAssertNotNil(pid, "the command never started")
        kill(p.processIdentifier, SIGKILL)
        // The notifier lives on (its own process group); end it too.
        if let pid { kill(pid, SIGKILL) }
        p.waitUntilExit()
        let log = tmp + "/n.log"
        XCTAssertEqual(playa("due", "--command", "echo again >> \(log)", "--now", "2026-11-23T09:01:00-05:00").out, "", "the claim holds")
        XCTAssertEqual(playa("queue", "--now", "2026-11-23T09:01:00-05:00").records.first?["notification"] as? String, "sending")
        // The claim expires a minute after the command's timeout (600 s).
        let later = "2026-11-23T09:12:00-05:00"
        XCTAssertEqual(playa("queue", "--now", later).records.first?["notification"] as? String, "unknown")
        XCTAssertEqual(playa("due", "--command", "echo again >> \(log)", "--now", later).out, "", "unknown is not repeated")
        XCTAssertFalse(FileManager.default.fileExists(atPath: log))
        XCTAssertEqual(playa("due", "--command", "echo again >> \(log)", "--retry-unknown", "--now", later).code, 0)
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8), "again\n", "--retry-unknown hands it over again")
    }

    /// `recipient rm` and `reset --yes` leave no number or message text
    /// anywhere in the data directory; the tombstones hold ids only.
    func testRemoveAndResetEraseNumbersAndTexts() throws {
        add("Ana", phone: phone, times: "09:00,12:00", messages: [secret, "How was the trip?"])
        add("Bo", phone: "+442079460958", times: "10:00", messages: ["Bo's own words"])
        playa("generate")
        playa("due", "--now", "2026-11-23T09:05:00-05:00")
        playa("event", "edit", playa("queue").records.first { $0["recipient"] as? String == "Ana" && $0["time"] as? String == "12:00" }!["id"] as! String, "edited words")
        XCTAssertTrue(dataFiles().contains { $0.1.contains("14155550132") }, "the number is in the journal before")
        let rm = playa("recipient", "rm", "Ana", "--yes")
        XCTAssertEqual(rm.code, 0, rm.err)
        for (f, text) in dataFiles() {
            for needle in ["14155550132", "Coffee", "How was the trip", "edited words", "\"Ana\""] {
                XCTAssertFalse(text.contains(needle), "\(f) still holds \(needle)")
            }
        }
        XCTAssertTrue(dataFiles().contains { $0.1.contains("Bo's own words") }, "Bo is untouched")
        XCTAssertEqual(playa("recipient").records.map { $0["name"] as? String }, ["Bo"])
        // The export after a removal imports, into an empty store and over this one.
        let export = write("after-rm.json", playa("export").out)
        XCTAssertEqual(run("playa", ["import", export], env: ["PLAYA_DATA_DIR": tmp + "/other"]).code, 0)
        XCTAssertEqual(playa("import", export).code, 0)
        XCTAssertEqual(playa("reset", "--yes").code, 0)
        for (f, text) in dataFiles() {
            for needle in ["442079460958", "Bo's own words", "\"Bo\"", "Coffee"] { XCTAssertFalse(text.contains(needle), "\(f) still holds \(needle)") }
        }
        let journal = dataFiles().filter { $0.0.hasPrefix("journal/") }.map(\.1).joined()
        for line in journal.split(separator: "\n") where line.contains("\"erase\"") {
            let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            XCTAssertTrue(Set(o.keys).isSubset(of: ["type", "recipient_id", "all"]), "a tombstone holds ids only: \(line)")
        }
        XCTAssertEqual(playa("recipient").out, "")
        XCTAssertEqual((playa("export").records.first?["recipients"] as? [Any])?.count, 0)
    }

    func importErr(_ doc: String) -> RunResult { playa("import", write("doc.json", doc)) }

    /// Broken documents are refused whole, each problem named on its line.
    func testImportRefusesBrokenDocumentsNamingEveryProblem() {
        let r = #"{"id":"r1","name":"Ana","platform":"sms","phone":"+14155550132","schedule":{"mode":"random","per_day":1},"messages":[{"id":"m1","text":"hi"}]}"#
        let f = tmp + "/doc.json"
        XCTAssertEqual(importErr(#"{"type":"playa_export","version":99,"recipients":[],"events":[]}"#).err,
                       "playa: \(f): \"version\" 99 is not one this playa reads (1); export it again with the same version of playa; nothing imported\n")
        XCTAssertEqual(importErr(#"{"type":"playa_export","recipients":[]}"#).err,
                       "playa: \(f): \"version\" is missing: an export says \"version\":1; nothing imported\n")
        let dup = r.replacingOccurrences(of: #"[{"id":"m1","text":"hi"}]"#, with: #"[{"id":"m1","text":"hi"},{"id":"m1","text":"ho"}]"#)
        XCTAssertEqual(importErr(#"{"type":"playa_export","version":1,"recipients":[\#(dup)],"events":[]}"#).err,
                       "playa: \(f): recipients[0]: recipient r1: messages[1]: the id m1 is used twice; message ids are unique within a pool; nothing imported\n")
        let many = importErr(#"{"type":"playa_export","version":1,"recipients":"oops","events":[{"id":"e1"}],"confirmed":["1999-01-01"]}"#)
        XCTAssertEqual(many.code, 65)
        XCTAssertEqual(many.err, """
            playa: \(f): "recipients" must be an array, not a string
            playa: \(f): events[0]: event e1: missing "recipient_id"
            playa: \(f): confirmed[0] 1999-01-01 is before 2000-01-01: not a plausible day; nothing imported

            """)
        let hello = r.replacingOccurrences(of: #"[{"id":"m1","text":"hi"}]"#, with: #""hello""#)
        XCTAssertEqual(importErr(#"{"type":"playa_export","version":1,"recipients":[\#(hello)]}"#).err,
                       "playa: \(f): recipients[0]: recipient: \"messages\" must be an array, not a string; nothing imported\n")
        let yes = r.replacingOccurrences(of: #""platform":"sms""#, with: #""platform":"sms","paused":"yes""#)
        XCTAssertEqual(importErr(#"{"type":"playa_export","version":1,"recipients":[\#(yes)]}"#).err,
                       "playa: \(f): recipients[0]: recipient: \"paused\" must be a boolean, not a string; nothing imported\n")
        let blank = r.replacingOccurrences(of: #""text":"hi""#, with: "\"text\":\"\u{00A0}\u{200B}\"")
        XCTAssertEqual(importErr(#"{"type":"playa_export","version":1,"recipients":[\#(blank)]}"#).err,
                       "playa: \(f): recipients[0]: recipient r1: message m1: a message must not be only spaces or invisible characters; nothing imported\n")
        XCTAssertEqual(playa("recipient").out, "", "nothing imported")
        XCTAssertEqual(importErr(#"{"type":"playa_export","version":1,"recipients":[\#(r)],"events":[]}"#).code, 0)
    }

    /// Pausing, pool changes and schedule changes reach the queue; an
    /// unchanged schedule and a notified event are left alone.
    func testEditsReachTheQueue() {
        add("Ana", phone: phone, times: "09:00,12:00,18:00", messages: ["only one"])
        playa("generate")
        // A notified event survives a schedule change.
        playa("due", "--now", "2026-11-23T09:01:00-05:00")
        let edited = playa("queue").records.first { $0["time"] as? String == "12:00" }!["id"] as! String
        playa("event", "edit", edited, "my own words")
        let same = playa("schedule", "Ana", "--fixed", "09:00,12:00,18:00")
        XCTAssertEqual(same.records[0]["regenerated"] as? [String], [], "unchanged: nothing redrawn")
        XCTAssertEqual(playa("queue").records.first { $0["id"] as? String == edited }?["message"] as? String, "my own words")
        let changed = playa("schedule", "Ana", "--fixed", "15:00", "--now", "2026-11-23T10:00:00-05:00")
        XCTAssertEqual(changed.records[0]["regenerated"] as? [String], ["2026-11-23"])
        XCTAssertEqual(playa("queue", "--now", "2026-11-23T10:00:00-05:00").records.map { "\($0["time"]!) \($0["notification"]!)" },
                       ["09:00 delivered", "15:00 scheduled"], "the notified 09:00 stays; 12:00 and 18:00 are replaced")
        // A pool change reaches queued events drawn from it.
        playa("message", "add", "Ana", "second thought")
        let m1 = playa("message", "list", "Ana").records.first { $0["text"] as? String == "only one" }!["id"] as! String
        let rm = playa("message", "rm", "Ana", m1, "--now", "2026-11-23T10:00:00-05:00")
        XCTAssertEqual(rm.records[0]["events_changed"] as? Int, 2)
        XCTAssertEqual(Set(playa("queue").records.map { $0["message"] as? String }), ["second thought"])
        // Pausing cancels what has not been notified; resuming draws the rest of the day.
        let pause = playa("recipient", "pause", "Ana", "--now", "2026-11-23T10:00:00-05:00")
        XCTAssertEqual(pause.records[0]["cancelled"] as? Int, 1)
        XCTAssertEqual(playa("queue", "--now", "2026-11-23T10:00:00-05:00").records.map { $0["time"] as? String }, ["09:00"])
        XCTAssertEqual(playa("due", "--now", "2026-11-23T15:01:00-05:00").out, "", "a paused recipient gets nothing")
        let resume = playa("recipient", "resume", "Ana", "--now", "2026-11-23T14:00:00-05:00")
        XCTAssertEqual(resume.records[0]["drawn"] as? Int, 1)
        XCTAssertEqual(playa("due", "--now", "2026-11-23T15:01:00-05:00").records.count, 1)
    }

    /// Days without action: past days' events become missed at the next
    /// generate, are shown as such, and are never notified.
    func testMissedEventsLeaveTheQueueAndAreNotNotified() {
        add("Ana", phone: phone, times: "09:00", messages: ["hi"])
        for d in 23...26 { playa("generate", "--date", "2026-11-\(d)") }
        let later = "2026-11-27T08:00:00-05:00"
        XCTAssertEqual(playa("due", "--now", later).out, "", "a past day's event is never due")
        let g = playa("generate", "--now", "2026-11-27T00:00:30-05:00")
        XCTAssertEqual(g.records.filter { $0["status"] as? String == "missed" }.map { $0["date"] as? String },
                       ["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26"])
        XCTAssertEqual(playa("queue", "--date", "2026-11-24", "--now", later).records.first?["status"] as? String, "missed")
        XCTAssertTrue(playa("queue", "--date", "2026-11-24", "--now", later, "--format", "text").out.contains("[missed]"))
        let n = playa("due", "--now", "2026-11-27T09:00:30-05:00")
        XCTAssertEqual(n.records.map { $0["date"] as? String }, ["2026-11-27"])
        XCTAssertEqual(n.records.first?["title"] as? String, "Message Ana on whatsapp at 09:00")
        // A missed event may still be sent by hand.
        let missed = g.records.first!["id"] as! String
        XCTAssertEqual(playa("open", missed, "--command", "true", "--now", later).records.first?["status"] as? String, "sent")
    }

    func testAddressesMessagesAndLinksAsPeopleTypeThem() throws {
        let uk = playa("recipient", "add", "Bo", "--platform", "sms", "--phone", "+44 (0)20 7946 0958")
        XCTAssertEqual(uk.records.first?["phone"] as? String, "+442079460958", "the trunk 0 is dropped")
        XCTAssertEqual(playa("recipient", "add", "Jo", "--platform", "instagram", "--username", "@jo.draws").records.first?["username"] as? String, "jo.draws")
        for bad in [".", "jo.", ".jo", "jo..draws", "@", "jo draws"] {
            let r = playa("recipient", "add", "X", "--platform", "instagram", "--username", bad)
            XCTAssertEqual(r.code, 64, bad)
        }
        XCTAssertEqual(playa("message", "add", "Bo", "\u{00A0}\u{200B} \u{3000}").err, "playa: a message must not be only spaces or invisible characters\n")
        let heavy = "e" + String(repeating: "\u{0301}", count: 3000)
        XCTAssertEqual(playa("message", "add", "Bo", heavy).err, "playa: a message must be at most 4000 bytes of UTF-8 (this one has 6001)\n")
        XCTAssertEqual(playa("recipient", "edit", "Bo", "--username", "bo").err, "playa: SMS takes --phone, not --username\n")
        XCTAssertEqual(playa("recipient", "edit", "Jo", "--phone", phone).err, "playa: Instagram takes --username, not --phone\n")
        XCTAssertEqual(playa("recipient", "edit", "Jo").code, 64, "nothing to change is a usage error")
        // Random times at least 30 minutes apart.
        playa("message", "add", "Bo", "hi")
        playa("schedule", "Bo", "--random", "10")
        for seed in 1...5 {
            let other = tmp + "/seed\(seed)"
            _ = run("playa", ["import", write("bo.json", playa("export").out)], env: ["PLAYA_DATA_DIR": other])
            let times = run("playa", ["generate", "--seed", "\(seed)", "--date", "2026-11-24"], env: ["PLAYA_DATA_DIR": other]).records
                .compactMap { $0["time"] as? String }.map { Int($0.prefix(2))! * 60 + Int($0.suffix(2))! }.sorted()
            XCTAssertEqual(times.count, 10)
            for (a, b) in zip(times, times.dropFirst()) { XCTAssertGreaterThanOrEqual(b - a, 30, "seed \(seed): \(times)") }
        }
        // Instagram: the web link, and open copies the message to the clipboard.
        playa("message", "add", "Jo", secret)
        playa("schedule", "Jo", "--fixed", "09:00")
        let id = playa("generate").records.first { $0["recipient"] as? String == "Jo" }!["id"] as! String
        XCTAssertEqual(playa("link", id, "--web").records.first?["url"] as? String, "https://ig.me/m/jo.draws")
        let bin = tmp + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: bin + "/wl-copy", contents: Data("#!/bin/sh\ncat > '\(tmp)/clipboard'\n".utf8),
                                           attributes: [.posixPermissions: 0o755])
        let noClip = playa("open", id, "--command", "true", "--format", "text", env: ["PATH": "/usr/bin:/bin", "WAYLAND_DISPLAY": ""])
        XCTAssertTrue(noClip.out.contains("no clipboard tool (wl-copy, xclip, pbcopy) was found: type it yourself:\n  \(secret)"), noClip.out)
        playa("generate", "--date", "2026-11-24")
        let id2 = playa("queue", "--date", "2026-11-24").records.first { $0["recipient"] as? String == "Jo" }!["id"] as! String
        let opened = playa("open", id2, "--command", "true", env: ["PATH": bin + ":/usr/bin:/bin", "WAYLAND_DISPLAY": "wayland-0"])
        XCTAssertEqual(opened.code, 0, opened.err)
        XCTAssertEqual(opened.records.first?["copied_to_clipboard"] as? Bool, true)
        XCTAssertEqual(try String(contentsOfFile: tmp + "/clipboard", encoding: .utf8), secret)
    }
}
