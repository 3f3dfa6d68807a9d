import XCTest

/// Two devices of one person sharing a sync folder, through the executables:
/// each writes only its own journal there, each keeps its own snapshot, and
/// both show the same history once the folder is in step.
final class SyncToolTests: ToolTestCase {
    var sync: String { tmp + "/Sync/tenclub" }

    func on(_ device: String, _ args: String..., now: String = "2026-11-22T20:00:00-05:00") -> RunResult {
        run("tenclub", args, env: ["TENCLUB_DATA_DIR": tmp + "/\(device)-data", "TENCLUB_SYNC_DIR": sync,
                                   "TENCLUB_ACTOR": device, "TENCLUB_NOW": now])
    }

    /// `--data-dir DIR` keeps a run apart from your data: the sync folder
    /// (and yomo's vdir, habitmatch's pool, rewards' family folder) named by
    /// the configuration file is not touched unless asked for, and a note
    /// says so; TOOL_DATA_DIR, a standing choice, keeps them.
    func testADataDirRunLeavesTheConfiguredSharedFoldersAlone() throws {
        let now = "2026-11-22T20:00:00-05:00"
        let writes: [(tool: String, args: [String])] = [
            ("tenclub", ["unlock", "--at", "2026-11-22 08:00"]),
            ("yomo", ["add", "call mum", "--date", "2026-11-23", "--time", "09:00"]),
            ("playa", ["recipient", "add", "Ana", "--platform", "sms", "--phone", "+14155550132"]),
            ("rewards", ["init"]),
        ]
        for (tool, args) in writes {
            let shared = tmp + "/Sync/\(tool)-shared"
            try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: tmp + "/.config/\(tool)", withIntermediateDirectories: true)
            var config = "sync_dir = \(shared)\n"
            if tool == "yomo" {
                try FileManager.default.createDirectory(atPath: tmp + "/vdir", withIntermediateDirectories: true)
                config += "vdir = \(tmp)/vdir\n"
            }
            try config.write(toFile: tmp + "/.config/\(tool)/config", atomically: true, encoding: .utf8)
            let apart = run(tool, ["--data-dir", tmp + "/\(tool)-try"] + args + ["--now", now], env: ["\(tool.uppercased())_DATA_DIR": ""])
            XCTAssertEqual(apart.code, 0, "\(tool): \(apart.err)")
            XCTAssertTrue(apart.err.contains("sync_dir \(shared) is not used with --data-dir (give --sync-dir to use it)"), "\(tool): \(apart.err)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: shared), [], "\(tool): nothing written to the configured sync folder")
            if tool == "yomo" {
                XCTAssertTrue(apart.err.contains("vdir \(tmp)/vdir is not used with --data-dir"), apart.err)
                XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp + "/vdir"), [], "nothing written to the configured vdir")
            }
            let read = ["tenclub": ["status"], "yomo": ["list"], "playa": ["recipient", "list"], "rewards": ["parent", "list"]][tool]!
            let quiet = run(tool, ["--data-dir", tmp + "/\(tool)-try", "-q"] + read + ["--now", now],
                            env: ["\(tool.uppercased())_DATA_DIR": ""])
            XCTAssertEqual(quiet.err, "", "\(tool): the note is not said with -q")
            // Asked for: the option shares.
            let asked = run(tool, ["--data-dir", tmp + "/\(tool)-try2", "--sync-dir", shared] + args + ["--now", now], env: ["\(tool.uppercased())_DATA_DIR": ""])
            XCTAssertEqual(asked.code, 0, "\(tool): \(asked.err)")
            XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: shared).isEmpty, "\(tool): --sync-dir shares")
            // A standing TOOL_DATA_DIR keeps the configuration's folder.
            let standing = run(tool, read + ["--now", now], env: ["\(tool.uppercased())_DATA_DIR": tmp + "/\(tool)-mine"])
            XCTAssertEqual(standing.code, 0, "\(tool): \(standing.err)")
            XCTAssertEqual(standing.err, "", "\(tool): TOOL_DATA_DIR keeps the configured folders")
            XCTAssertFalse(standing.out.isEmpty, "\(tool): what --sync-dir shared is read through the configured sync_dir")
        }
    }

    /// A day that passes ten only when two devices' copies merge (6 on the
    /// laptop, 6 on the phone, each offline) is busted: the buddy gets one
    /// text, from the device that sends (the phone, the first to run
    /// deliver) once it sees the merge, and no second one at the 13th unlock;
    /// the laptop's deliver, from the same crontab line, exits 77 silently.
    func testADayBustedOnlyByTheMergeIsAlertedOnce() throws {
        let sender = write("send.sh", "#!/bin/sh\ncat >> '\(tmp)/sent'; echo >> '\(tmp)/sent'\n")
        chmodPath(sender, 0o755)
        func dev(_ d: String, _ args: [String], at now: String) -> RunResult {
            run("tenclub", args, env: ["TENCLUB_DATA_DIR": tmp + "/\(d)-data", "TENCLUB_SYNC_DIR": tmp + "/Sync-\(d)",
                                       "TENCLUB_ACTOR": d, "TENCLUB_NOW": now])
        }
        func exchange() throws {
            for (a, b) in [("laptop", "phone"), ("phone", "laptop")] {
                let src = tmp + "/Sync-\(a)/\(a).ndjson"
                guard FileManager.default.fileExists(atPath: src) else { continue }
                try? FileManager.default.createDirectory(atPath: tmp + "/Sync-\(b)", withIntermediateDirectories: true)
                try? FileManager.default.removeItem(atPath: tmp + "/Sync-\(b)/\(a).ndjson")
                try FileManager.default.copyItem(atPath: src, toPath: tmp + "/Sync-\(b)/\(a).ndjson")
            }
        }
        XCTAssertEqual(dev("laptop", ["buddy", "set", "415-555-0132", "-q"], at: "2026-11-22T07:00:00-05:00").code, 0)
        let yes = run("tenclub", ["sms", "receive"], stdin: #"{"from":"+14155550132","body":"YES","at":"2026-11-22T07:02:00-05:00"}"# + "\n",
                      env: ["TENCLUB_DATA_DIR": tmp + "/laptop-data", "TENCLUB_SYNC_DIR": tmp + "/Sync-laptop", "TENCLUB_ACTOR": "laptop",
                            "TENCLUB_NOW": "2026-11-22T07:02:00-05:00"])
        XCTAssertEqual(yes.code, 0, yes.err)
        try exchange()
        // The phone runs deliver first: it sends, once the role has settled.
        let first = dev("phone", ["sms", "deliver", "-q", "--command", sender], at: "2026-11-22T07:03:00-05:00")
        XCTAssertEqual(first.code, 0, first.err)
        try exchange()
        for m in 10..<16 {
            XCTAssertEqual(dev("laptop", ["unlock", "-q", "--at", "2026-11-22 08:\(m)"], at: "2026-11-22T08:30:00-05:00").code, 0)
            XCTAssertEqual(dev("phone", ["unlock", "-q", "--at", "2026-11-22 09:\(m)"], at: "2026-11-22T09:30:00-05:00").code, 0)
        }
        XCTAssertEqual(dev("phone", ["status"], at: "2026-11-22T09:30:00-05:00").records.first?["unlocks"] as? Int, 6, "offline: its own six")
        try exchange()
        XCTAssertEqual(dev("phone", ["status"], at: "2026-11-22T09:31:00-05:00").records.first?["unlocks"] as? Int, 12)
        // The phone's cron sees the merge: the alert goes out, once.
        let d = dev("phone", ["sms", "deliver", "-q", "--command", sender], at: "2026-11-22T09:31:00-05:00")
        XCTAssertEqual(d.code, 0, d.err)
        try exchange()
        let other = dev("laptop", ["sms", "deliver", "-q", "--command", sender], at: "2026-11-22T09:32:00-05:00")
        XCTAssertEqual(other.code, 77, "the laptop does not send")
        XCTAssertEqual(other.out + other.err, "", "and says nothing from cron")
        XCTAssertEqual(dev("laptop", ["unlock", "-q", "--at", "2026-11-22 09:33"], at: "2026-11-22T09:33:00-05:00").code, 0)
        XCTAssertEqual(dev("laptop", ["sms", "deliver", "-q", "--command", sender], at: "2026-11-22T09:34:00-05:00").code, 77)
        try exchange()
        XCTAssertEqual(dev("phone", ["sms", "deliver", "-q", "--command", sender], at: "2026-11-22T09:35:00-05:00").code, 0)
        let sent = (try? String(contentsOfFile: tmp + "/sent", encoding: .utf8)) ?? ""
        let alerts = sent.split(separator: "\n").filter { $0.contains("\"kind\":\"alert\"") }
        XCTAssertEqual(alerts.count, 1, sent)
    }

    func testTwoDevicesShareOneHistoryAndListEachOther() throws {
        XCTAssertEqual(on("laptop", "unlock", "--at", "2026-11-22 08:00").code, 0)
        XCTAssertEqual(on("phone", "unlock", "--at", "2026-11-22 09:00").code, 0)
        XCTAssertEqual(on("phone", "unlock", "--at", "2026-11-22 10:00").code, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sync).sorted(), ["laptop.ndjson", "phone.ndjson"])
        XCTAssertEqual(on("laptop", "status").records.first?["unlocks"] as? Int, 3)
        XCTAssertEqual(on("phone", "status").records.first?["unlocks"] as? Int, 3)
        // A sync engine's conflict copy and temporary file change nothing.
        let journal = try Data(contentsOf: URL(fileURLWithPath: sync + "/phone.ndjson"))
        _ = FileManager.default.createFile(atPath: sync + "/phone.sync-conflict-20261122-101010-ABCDEFG.ndjson", contents: journal)
        _ = FileManager.default.createFile(atPath: sync + "/.syncthing.phone.ndjson.tmp", contents: journal)
        let after = on("laptop", "status")
        XCTAssertEqual(after.records.first?["unlocks"] as? Int, 3)
        XCTAssertTrue(after.err.contains("sync conflict"), after.err)
        // Devices, newest first; a device silent for 30 days is marked.
        let devs = on("laptop", "devices", now: "2026-12-30T12:00:00-05:00")
        XCTAssertEqual(devs.code, 0, devs.err)
        XCTAssertEqual(devs.records.map { $0["actor"] as? String }, ["phone", "laptop"])
        XCTAssertEqual(devs.records.map { $0["this_device"] as? Bool }, [false, true])
        XCTAssertEqual(devs.records.map { $0["quiet"] as? Bool }, [true, true])
        XCTAssertEqual(on("phone", "devices").records.first?["quiet"] as? Bool, false)
        XCTAssertTrue(run("playa", ["devices"], env: ["PLAYA_DATA_DIR": tmp + "/p"]).out.isEmpty, "no journals yet: nothing to list")
        XCTAssertTrue(run("tenclub", ["devices"], env: ["TENCLUB_DATA_DIR": tmp + "/t"]).out.isEmpty)
    }

    func testJournalsWrittenBeforeSyncingMoveIntoTheFolder() throws {
        let data = tmp + "/laptop-data"
        XCTAssertEqual(run("tenclub", ["unlock", "--at", "2026-11-22 08:00"], env: ["TENCLUB_DATA_DIR": data, "TENCLUB_ACTOR": "laptop",
                                                                                    "TENCLUB_NOW": "2026-11-22T20:00:00-05:00"]).code, 0)
        let moved = on("laptop", "status")
        XCTAssertEqual(moved.records.first?["unlocks"] as? Int, 1, moved.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: sync + "/laptop.ndjson"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: data + "/journal/laptop.ndjson"))
    }
}

/// Found by an adversary: two devices past ten on the same day texted twice;
/// TENCLUB_ACTOR was honoured in a data directory open to everyone.
final class SyncAdversaryTests: ToolTestCase {
    var sync: String { tmp + "/Sync" }
    func on(_ device: String, _ args: [String], stdin: String? = nil) -> RunResult {
        run("tenclub", args, stdin: stdin, env: ["TENCLUB_DATA_DIR": tmp + "/\(device)", "TENCLUB_SYNC_DIR": sync + "-\(device)",
                                                 "TENCLUB_ACTOR": device, "TENCLUB_NOW": "2026-11-23T20:00:00-05:00"])
    }
    func exchange() throws {
        let fm = FileManager.default
        for (a, b) in [("p", "q"), ("q", "p")] {
            let src = sync + "-\(a)/\(a).ndjson"
            guard fm.fileExists(atPath: src) else { continue }
            try? fm.createDirectory(atPath: sync + "-\(b)", withIntermediateDirectories: true)
            try? fm.removeItem(atPath: sync + "-\(b)/\(a).ndjson")
            try fm.copyItem(atPath: src, toPath: sync + "-\(b)/\(a).ndjson")
        }
    }

    func testTwoDevicesBustingTheSameDayTextOnce() throws {
        XCTAssertEqual(on("p", ["buddy", "set", "415-555-0132"]).code, 0)
        XCTAssertEqual(on("p", ["sms", "receive"], stdin: #"{"from":"+14155550132","body":"YES","at":"2026-11-23T08:00:00-05:00"}"#).code, 0)
        try exchange()
        for (k, d) in ["p", "q"].enumerated() {
            for i in 0..<5 { XCTAssertEqual(on(d, ["unlock", "--at", "2026-11-23 1\(k):0\(i)"]).code, 0) }
        }
        try exchange()
        XCTAssertEqual(on("p", ["unlock", "--at", "2026-11-23 18:00"]).code, 0)
        XCTAssertEqual(on("q", ["unlock", "--at", "2026-11-23 18:30"]).code, 0)
        try exchange()
        let alerts = on("p", ["sms", "outbox"]).records.filter { $0["kind"] as? String == "alert" }
        XCTAssertEqual(alerts.count, 1, "\(alerts)")
    }

    func testTheActorVariableNeedsAPrivateDataDirectory() throws {
        let dir = tmp + "/open"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(dir, 0o777), 0)
        let r = run("tenclub", ["unlock"], env: ["TENCLUB_DATA_DIR": dir, "TENCLUB_ACTOR": "other", "TENCLUB_NOW": "2026-11-23T20:00:00-05:00"])
        XCTAssertEqual(r.code, 77, r.err)
        XCTAssertTrue(r.err.contains("TENCLUB_ACTOR names the writer only in a data directory private to you"), r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/journal/other.ndjson"))
    }
}

/// Found by an adversary: cron on two laptops drawing the same day gave the
/// user each contact's events twice once the journals met.
final class PlayaSyncTests: ToolTestCase {
    func on(_ device: String, _ args: String..., now: String = "2026-11-23T06:00:00-05:00") -> RunResult {
        run("playa", args, env: ["PLAYA_DATA_DIR": tmp + "/\(device)", "PLAYA_SYNC_DIR": tmp + "/Sync-\(device)",
                                 "PLAYA_ACTOR": device, "PLAYA_NOW": now])
    }
    func exchange() throws {
        let fm = FileManager.default
        for (a, b) in [("p", "q"), ("q", "p")] {
            let src = tmp + "/Sync-\(a)/\(a).ndjson"
            guard fm.fileExists(atPath: src) else { continue }
            try? fm.createDirectory(atPath: tmp + "/Sync-\(b)", withIntermediateDirectories: true)
            try? fm.removeItem(atPath: tmp + "/Sync-\(b)/\(a).ndjson")
            try fm.copyItem(atPath: src, toPath: tmp + "/Sync-\(b)/\(a).ndjson")
        }
    }

    /// A journal its writer rewrote to carry out an erasure is expected,
    /// not a copy in flight: a device that folded it between the erasure's
    /// append and the rewrite (a sync engine quick enough to copy both)
    /// folds the rewritten one again without a word (it warned on every
    /// run, cron mailing it, until the erasing device wrote again).
    func testARewriteCarryingAnErasureIsFoldedQuietly() throws {
        XCTAssertEqual(on("q", "recipient", "add", "Ben", "--platform", "sms", "--phone", "+14155550133").code, 0)
        XCTAssertEqual(on("q", "message", "add", "Ben", "Lunch?").code, 0)
        XCTAssertEqual(on("q", "recipient", "add", "Ana", "--platform", "sms", "--phone", "+14155550132").code, 0)
        let journal = tmp + "/Sync-q/q.ndjson"
        let before = try Data(contentsOf: URL(fileURLWithPath: journal))
        let rm = on("q", "recipient", "rm", "Ben", "--yes")
        XCTAssertEqual(rm.code, 0, rm.err)
        let after = try Data(contentsOf: URL(fileURLWithPath: journal))
        XCTAssertLessThan(after.count, before.count + 200, "the writer rewrote its journal without Ben")
        // What a quick sync engine may have copied in between: the journal
        // before, with the erasure's batch appended.
        let lines = after.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        let commits = lines.indices.filter { lines[$0].starts(with: Data(#"{"type":"commit""#.utf8)) }
        XCTAssertGreaterThanOrEqual(commits.count, 2)
        let lastBatch = lines[(commits[commits.count - 2] + 1)...].map { $0 + Data([0x0A]) }.reduce(Data(), +)
        try FileManager.default.createDirectory(atPath: tmp + "/Sync-p", withIntermediateDirectories: true)
        try (before + lastBatch).write(to: URL(fileURLWithPath: tmp + "/Sync-p/q.ndjson"))
        // p folds it, and writes (its snapshot marks how much of q's it folded).
        XCTAssertEqual(on("p", "recipient", "add", "Cy", "--platform", "sms", "--phone", "+14155550134").code, 0)
        let between = on("p", "recipient", "list")
        XCTAssertEqual(between.code, 0, between.err)
        XCTAssertEqual(between.records.compactMap { $0["name"] as? String }.sorted(), ["Ana", "Cy"], between.err)
        try after.write(to: URL(fileURLWithPath: tmp + "/Sync-p/q.ndjson"))
        for _ in 0..<2 {
            let r = on("p", "recipient", "list")
            XCTAssertEqual(r.code, 0)
            XCTAssertEqual(r.err, "", "a rewrite carrying an erasure is no news")
            XCTAssertEqual(r.records.compactMap { $0["name"] as? String }.sorted(), ["Ana", "Cy"])
        }
    }

    /// A device that drew an erased recipient's day before the erasure
    /// reached it wrote their message after the tombstone: that goes too,
    /// from its journal once it sees the tombstone, and from the erasing
    /// device's fold (a tail past everything it had folded) at once.
    func testWhatADeviceDrewBeforeAnErasureReachedItIsErasedToo() throws {
        XCTAssertEqual(on("q", "recipient", "add", "Ben", "--platform", "sms", "--phone", "+14155550133").code, 0)
        XCTAssertEqual(on("q", "message", "add", "Ben", "Lunch on Friday?").code, 0)
        XCTAssertEqual(on("q", "recipient", "add", "Ana", "--platform", "sms", "--phone", "+14155550132").code, 0)
        try exchange()
        XCTAssertEqual(on("p", "recipient", "list").records.count, 2)
        XCTAssertEqual(on("q", "recipient", "rm", "Ben", "--yes", now: "2026-11-23T08:05:00-05:00").code, 0)
        // p, not knowing, draws the day (Ben's message in its journal).
        XCTAssertEqual(on("p", "generate", "-q", now: "2026-11-23T08:06:00-05:00").code, 0)
        XCTAssertTrue(try String(contentsOfFile: tmp + "/Sync-p/p.ndjson", encoding: .utf8).contains("Lunch on Friday?"))
        try exchange()
        let q = on("q", "queue", now: "2026-11-23T08:07:00-05:00")
        XCTAssertEqual(q.code, 0, q.err)
        XCTAssertFalse(q.out.contains("Lunch"), "q does not fold what p drew for Ben: \(q.out)")
        let p = on("p", "recipient", "list", now: "2026-11-23T08:07:00-05:00")
        XCTAssertEqual(p.records.compactMap { $0["name"] as? String }, ["Ana"], p.err)
        try exchange()
        XCTAssertEqual(on("q", "recipient", "list", now: "2026-11-23T08:08:00-05:00").err, "")
        for dir in ["Sync-p", "Sync-q", "p", "q"] {
            for f in (FileManager.default.enumerator(atPath: tmp + "/" + dir)?.allObjects as? [String]) ?? [] {
                let text = (try? String(contentsOfFile: tmp + "/\(dir)/\(f)", encoding: .utf8)) ?? ""
                XCTAssertFalse(text.contains("Lunch on Friday") || text.contains("14155550133"), "\(dir)/\(f) still holds Ben")
            }
        }
    }

    func testTwoDevicesDrawingTheSameDayKeepOneDraw() throws {
        XCTAssertEqual(on("p", "recipient", "add", "Ana", "--platform", "sms", "--phone", "+14155550132").code, 0)
        XCTAssertEqual(on("p", "message", "add", "Ana", "Coffee soon?").code, 0)
        XCTAssertEqual(on("p", "schedule", "Ana", "--random", "3").code, 0)
        try exchange()
        XCTAssertEqual(on("p", "generate").records.count, 3)
        XCTAssertEqual(on("q", "generate", now: "2026-11-23T06:00:30-05:00").records.count, 3)
        try exchange()
        let p = on("p", "queue").records.compactMap { $0["id"] as? String }.sorted()
        let q = on("q", "queue").records.compactMap { $0["id"] as? String }.sorted()
        XCTAssertEqual(p.count, 3, "one draw of the day, not two")
        XCTAssertEqual(p, q, "both devices keep the same draw")
        XCTAssertEqual(on("q", "generate").out, "", "the day is drawn")
    }

    /// The day's draw is the same on every device: drawn apart, the same
    /// events with the same ids, and a message sent on one stays sent.
    func testTwoDevicesDrawTheSameEvents() throws {
        XCTAssertEqual(on("p", "recipient", "add", "Ana", "--platform", "sms", "--phone", "+14155550132").code, 0)
        XCTAssertEqual(on("p", "message", "add", "Ana", "Coffee soon?").code, 0)
        XCTAssertEqual(on("p", "message", "add", "Ana", "Walk on Sunday?").code, 0)
        XCTAssertEqual(on("p", "schedule", "Ana", "--random", "4").code, 0)
        try exchange()
        let p = on("p", "generate").records.map { "\($0["id"]!) \($0["time"]!) \($0["message"]!)" }
        let q = on("q", "generate", now: "2026-11-23T07:00:00-05:00").records.map { "\($0["id"]!) \($0["time"]!) \($0["message"]!)" }
        XCTAssertEqual(p.count, 4)
        XCTAssertEqual(p, q, "the same draw on both devices")
        let first = on("q", "queue").records.first?["id"] as! String
        XCTAssertEqual(on("q", "open", first, "--command", "true", now: "2026-11-23T09:01:00-05:00").code, 0)
        try exchange()
        let queue = on("p", "queue", now: "2026-11-23T09:02:00-05:00").records.compactMap { $0["id"] as? String }
        XCTAssertEqual(queue.count, 3, "one draw, the sent message gone from the queue: \(queue)")
        XCTAssertFalse(queue.contains(first))
        XCTAssertTrue(on("p", "export").out.contains(first))
    }

    /// Draws that differ (here q's `--seed`; in life a pool changed while
    /// a device was offline): the first draw keeps the day, and what the
    /// user did with the other draw's events stays.
    func testAMessageSentFromTheLosingDrawStaysInTheHistory() throws {
        XCTAssertEqual(on("p", "recipient", "add", "Ana", "--platform", "sms", "--phone", "+14155550132").code, 0)
        XCTAssertEqual(on("p", "message", "add", "Ana", "Coffee soon?").code, 0)
        XCTAssertEqual(on("p", "schedule", "Ana", "--fixed", "09:00,18:00").code, 0)
        try exchange()
        XCTAssertEqual(on("p", "generate").records.count, 2)
        XCTAssertEqual(on("q", "generate", "--seed", "5", now: "2026-11-23T06:00:30-05:00").records.count, 2)
        // On q the user sends its 09:00 message before the devices meet.
        let first = on("q", "queue").records.first { $0["time"] as? String == "09:00" }?["id"] as! String
        let sent = on("q", "open", first, "--command", "true", now: "2026-11-23T09:01:00-05:00")
        XCTAssertEqual(sent.code, 0, sent.err)
        try exchange()
        let queue = on("p", "queue", now: "2026-11-23T09:02:00-05:00").records
        XCTAssertEqual(queue.count, 2, "the winner's draw: \(queue)")
        XCTAssertFalse(queue.contains { $0["id"] as? String == first })
        let export = on("p", "export").out
        XCTAssertTrue(export.contains(first), "the message the user sent stays in the history")
    }

    /// Three devices that run their first `due` in the same minute, before
    /// any has seen another's copy, each take the role; none notifies until
    /// the copies have had time to arrive, and then only the first (by
    /// stamp, as every copy folds them): the 09:00 message goes out once.
    func testThreeDevicesTakingTheRoleAtOnceNotifyOnce() throws {
        let devices = ["p", "q", "r"]
        func dev(_ d: String, _ args: [String], at now: String) -> RunResult {
            run("playa", args, env: ["PLAYA_DATA_DIR": tmp + "/\(d)", "PLAYA_SYNC_DIR": tmp + "/Sync-\(d)", "PLAYA_ACTOR": d, "PLAYA_NOW": now])
        }
        func everyone() throws {
            let fm = FileManager.default
            for a in devices {
                let src = tmp + "/Sync-\(a)/\(a).ndjson"
                guard fm.fileExists(atPath: src) else { continue }
                for b in devices where b != a {
                    try? fm.createDirectory(atPath: tmp + "/Sync-\(b)", withIntermediateDirectories: true)
                    try? fm.removeItem(atPath: tmp + "/Sync-\(b)/\(a).ndjson")
                    try fm.copyItem(atPath: src, toPath: tmp + "/Sync-\(b)/\(a).ndjson")
                }
            }
        }
        let setup = "2026-11-23T08:00:00-05:00"
        XCTAssertEqual(dev("p", ["recipient", "add", "Ana", "--platform", "sms", "--phone", "+14155550132"], at: setup).code, 0)
        XCTAssertEqual(dev("p", ["message", "add", "Ana", "Coffee soon?"], at: setup).code, 0)
        XCTAssertEqual(dev("p", ["schedule", "Ana", "--fixed", "09:03"], at: setup).code, 0)
        try everyone()
        let log = tmp + "/notified"
        // Each takes the role and draws the day, not having seen the others'.
        for (i, d) in devices.enumerated() {
            let r = dev(d, ["due", "--command", "echo \(d) >> \(log)"], at: "2026-11-23T09:00:\(10 + i)-05:00")
            XCTAssertEqual(r.code, 0, "\(d): \(r.err)")
        }
        // 09:03 comes before the copies met: each still thinks it notifies.
        for (i, d) in devices.enumerated() {
            let r = dev(d, ["due", "--command", "echo \(d) >> \(log)"], at: "2026-11-23T09:03:\(10 + i)-05:00")
            XCTAssertEqual(r.code, 0, "\(d): \(r.err)")
            XCTAssertEqual(r.out, "")
            XCTAssertTrue(r.err.contains("it sends them from 2026-11-23T09:05:"), r.err)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: log), "nobody notifies while the role settles")
        try everyone()
        for (i, d) in devices.enumerated() {
            _ = dev(d, ["due", "--command", "echo \(d) >> \(log)"], at: "2026-11-23T09:05:\(20 + i)-05:00")
            try everyone()
        }
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8), "p\n", "one device notified the 09:00 message, once")
        for d in ["q", "r"] {
            XCTAssertEqual(dev(d, ["due"], at: "2026-11-23T09:06:00-05:00").code, 77, "\(d) knows it is not the notifier")
        }
    }

    /// One device notifies: the first to run `due`; `due` elsewhere refuses,
    /// naming it and how to move the role, and `--take-over` moves it.
    func testDueRunsOnOneDeviceAndSaysHowToMoveIt() throws {
        XCTAssertEqual(on("p", "recipient", "add", "Ana", "--platform", "sms", "--phone", "+14155550132").code, 0)
        XCTAssertEqual(on("p", "message", "add", "Ana", "Coffee soon?").code, 0)
        XCTAssertEqual(on("p", "schedule", "Ana", "--fixed", "09:00,18:00").code, 0)
        XCTAssertEqual(on("p", "due").code, 0, "the first device to run due notifies")
        try exchange()
        XCTAssertEqual(on("q", "generate", now: "2026-11-23T06:00:30-05:00").records.count, 2, "cron draws the day on q too")
        let refused = on("q", "due", now: "2026-11-23T09:01:00-05:00")
        XCTAssertEqual(refused.code, 77, refused.err)
        XCTAssertEqual(refused.out, "")
        XCTAssertEqual(refused.err, "playa: notifications are sent from the device 'p', where 'playa due' ran first; this device is 'q': run 'playa due --take-over' here to send them from this one instead (it starts 5 minutes later, once the others have seen it)\n")
        let p = on("p", "due", now: "2026-11-23T09:01:00-05:00")
        XCTAssertEqual(p.records.map { $0["time"] as? String }, ["09:00"], p.err)
        try exchange()
        let moved = on("q", "due", "--take-over", now: "2026-11-23T18:00:30-05:00")
        XCTAssertEqual(moved.code, 0, moved.err)
        XCTAssertEqual(moved.out, "", "the device taking over waits for the others to see it")
        XCTAssertTrue(moved.err.contains("it sends them from 2026-11-23T18:05:30-05:00"), moved.err)
        try exchange()
        XCTAssertEqual(on("p", "due", now: "2026-11-23T18:01:00-05:00").code, 77)
        let settled = on("q", "due", now: "2026-11-23T18:05:30-05:00")
        XCTAssertEqual(settled.records.map { $0["time"] as? String }, ["18:00"], "the 09:00 one went out from p: \(settled.err)")
        // notify_device in the configuration file decides where it is set.
        try FileManager.default.createDirectory(atPath: tmp + "/cfg/playa", withIntermediateDirectories: true)
        _ = write("cfg/playa/config", "notify_device = p\n")
        let cfg = run("playa", ["due"], env: ["PLAYA_DATA_DIR": tmp + "/q", "PLAYA_SYNC_DIR": tmp + "/Sync-q", "PLAYA_ACTOR": "q",
                                              "PLAYA_NOW": "2026-11-23T18:02:00-05:00", "XDG_CONFIG_HOME": tmp + "/cfg"])
        XCTAssertEqual(cfg.code, 77)
        XCTAssertTrue(cfg.err.contains("notify_device in \(tmp)/cfg/playa/config"), cfg.err)
    }
}

/// yomo's devices in a sync folder, through the executables.
final class YomoLateJournalToolTests: ToolTestCase {
    /// yomo on two devices whose journals arrive late: the phone snoozes a
    /// reminder the laptop announces in the same minutes without having seen
    /// the snooze. Once the folder is in step, the snooze stands, and the
    /// laptop's `due` announces it when it ends (its summary path must not
    /// take its own announcement as the last word). The one run whose summary
    /// could not rule anything out and found nothing writes the snapshot anew,
    /// so the runs after it answer from the summary again.
    func testYomoDueAnnouncesASnoozeItsOwnAnnouncementHadNotSeen() throws {
        let folder = tmp + "/Sync/yomo"
        func yomo(_ device: String, _ args: String..., at time: String) -> RunResult {
            run("yomo", args, env: ["YOMO_DATA_DIR": tmp + "/yomo-\(device)", "YOMO_SYNC_DIR": folder, "YOMO_ACTOR": device,
                                    "YOMO_NOW": "2026-11-23T\(time):00-05:00", "TZ": "America/New_York"])
        }
        XCTAssertEqual(yomo("laptop", "add", "early", "--date", "2026-11-23", "--time", "07:00", at: "06:00").code, 0)
        let added = yomo("laptop", "add", "stretch", "--date", "2026-11-23", "--time", "09:00", at: "06:00")
        let id = try XCTUnwrap(added.records.first?["id"] as? String, added.err)
        for d in ["laptop", "phone"] { XCTAssertEqual(yomo(d, "due", at: "07:00").records.count, 1) }
        let snapshot = tmp + "/yomo-laptop/snapshot.ndjson"
        try? FileManager.default.removeItem(atPath: snapshot)
        XCTAssertEqual(yomo("laptop", "list", at: "07:05").code, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: snapshot))
        XCTAssertEqual(yomo("phone", "due", at: "09:00").records.count, 1)
        let laptopJournal = URL(fileURLWithPath: folder + "/laptop.ndjson")
        let synced = try Data(contentsOf: laptopJournal)
        XCTAssertEqual(yomo("laptop", "due", at: "09:02").records.first?["title"] as? String, "stretch")
        // The phone snoozed at 09:01, before the laptop's announcement reached it
        // (its copy of the laptop's journal still the older one).
        let full = try Data(contentsOf: laptopJournal)
        try synced.write(to: laptopJournal)
        let snoozed = yomo("phone", "snooze", id, "29", at: "09:01")
        XCTAssertEqual(snoozed.code, 0, snoozed.err)
        try full.write(to: laptopJournal)
        XCTAssertEqual(yomo("laptop", "due", at: "09:20").records.count, 0, "the snooze runs to 09:30")
        let owed = yomo("laptop", "due", at: "09:31")
        XCTAssertEqual(owed.code, 0, owed.err)
        XCTAssertEqual(owed.records.map { $0["title"] as? String }, ["stretch"], "the snooze's end is announced on the laptop too")
        // The phone moves it to 09:40; the laptop announces it then. The
        // phone's change stays in the tail, earlier than now: the next run
        // cannot rule it out from the summary, reads everything once, finds
        // nothing, and writes the snapshot; the runs after it answer from it.
        XCTAssertEqual(yomo("phone", "edit", id, "--time", "09:40", at: "09:35").code, 0)
        XCTAssertEqual(yomo("laptop", "due", at: "09:41").records.map { $0["title"] as? String }, ["stretch"])
        let before = try Data(contentsOf: URL(fileURLWithPath: snapshot))
        XCTAssertEqual(yomo("laptop", "due", at: "09:42").records.count, 0)
        let refreshed = try Data(contentsOf: URL(fileURLWithPath: snapshot))
        XCTAssertNotEqual(before, refreshed, "the snapshot is written anew after a run that found nothing")
        XCTAssertEqual(yomo("laptop", "due", at: "09:43").records.count, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: snapshot)), refreshed, "and is left alone while nothing changes")
    }
}
