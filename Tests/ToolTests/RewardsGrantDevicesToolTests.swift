import XCTest

/// Two devices of one family (a laptop and a desktop), each with its own
/// data directory and its own copy of the sync folder, copied both ways by
/// hand as a sync engine would, redeem at once; a real grant command
/// appends each record it is handed to a file. Only the granting device
/// (the laptop, which made the family) runs it; a redemption that loses the
/// merge is shown void on both, and the file holds exactly the grants paid.
final class RewardsGrantDevicesToolTests: SyncthingToolTestCase {
    /// Real Syncthing between the two folders instead of copies by hand.
    var realSync = false
    override var folderID: String { "rewards" }
    override func folder(_ d: Int) -> String { tmp + "/Sync-\(names[d])" }

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["REWARDS_USER"] = "mum"
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    @discardableResult
    func on(_ device: String, at now: String, _ args: String...) -> RunResult {
        run("rewards", args, env: ["REWARDS_DATA_DIR": tmp + "/\(device)", "REWARDS_SYNC_DIR": tmp + "/Sync-\(device)",
                                   "REWARDS_ACTOR": device, "REWARDS_NOW": now])
    }

    /// A real grant command: appends each record it is handed to a file.
    func grantCommand() throws -> (script: String, handed: String) {
        let handed = tmp + "/handed.ndjson"
        let script = tmp + "/grant.sh"
        try "#!/bin/sh\ncat >> '\(handed)'\n".write(toFile: script, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(script, 0o755), 0)
        return (script, handed)
    }

    /// The laptop makes the family (Alex, 100 points) in its sync folder;
    /// the desktop gets a copy.
    func familyOnTheLaptop() throws {
        for d in ["laptop", "desktop"] { try FileManager.default.createDirectory(atPath: tmp + "/Sync-\(d)", withIntermediateDirectories: true) }
        XCTAssertEqual(on("laptop", at: "2026-11-21T09:00:00-05:00", "init").code, 0)
        on("laptop", at: "2026-11-21T09:00:00-05:00", "child", "add", "Alex")
        on("laptop", at: "2026-11-21T09:00:00-05:00", "adjust", "Alex", "+100", "--reason", "start")
        try sync()
    }

    /// Copies each device's journal into the other's sync folder (the sync
    /// engine: a temporary name, then a rename); with real Syncthing, waits
    /// until it has.
    func sync(file: StaticString = #filePath, line: UInt = #line) throws {
        if realSync { return synced("a sync", file: file, line: line) }
        for (from, to) in [("laptop", "desktop"), ("desktop", "laptop")] {
            let src = tmp + "/Sync-\(from)/\(from).ndjson"
            guard let bytes = FileManager.default.contents(atPath: src) else { continue }
            let tmpName = tmp + "/Sync-\(to)/.syncthing.\(from).ndjson.tmp"
            XCTAssertTrue(FileManager.default.createFile(atPath: tmpName, contents: bytes))
            XCTAssertEqual(rename(tmpName, tmp + "/Sync-\(to)/\(from).ndjson"), 0)
        }
    }

    /// The devices stop hearing from each other (by hand: nothing is copied
    /// until `sync`; with Syncthing, every device paused) and meet again.
    func offline() { if realSync { setPaused(true) } }
    func online() throws {
        if realSync { setPaused(false) }
        try sync()
    }

    func testGrantsAreHandedOverOnceByTheGrantingDeviceAndALosingRedemptionIsVoidOnBoth() throws {
        try grantsScenario()
    }

    /// The same over real Syncthing: the two redeem while paused, and the
    /// reversed grant is one line with one reason in both logs.
    func testGrantsOverSyncthingAreHandedOverOnceAndTheReversalIsOneLine() throws {
        names = ["laptop", "desktop"]
        realSync = true
        for d in 0..<2 { try FileManager.default.createDirectory(atPath: folder(d), withIntermediateDirectories: true) }
        try startSyncthing()
        try grantsScenario()
    }

    func grantsScenario() throws {
        let (script, handed) = try grantCommand()
        try familyOnTheLaptop()
        let shown = on("desktop", at: "2026-11-21T09:01:00-05:00", "settings").records.first { $0["key"] as? String == "grant_device" }
        XCTAssertEqual(shown?["value"] as? String, "laptop", "the device that made the family hands grants over")

        // Both redeem 80 of the 100 before they meet; the desktop's is stamped first.
        offline()
        let d = on("desktop", at: "2026-11-21T10:00:00-05:00", "redeem", "Alex", "8", "--command", script)
        XCTAssertEqual(d.code, 0, d.err)
        XCTAssertEqual(d.records.first?["granted_by"] as? String, "laptop")
        XCTAssertEqual(d.records.first?["applied"] as? Bool, false)
        XCTAssertTrue(d.err.contains("grants are handed to the grant command on laptop"), d.err)
        XCTAssertNil(FileManager.default.contents(atPath: handed), "the desktop does not run the grant command")
        let l = on("laptop", at: "2026-11-21T10:05:00-05:00", "redeem", "Alex", "8", "--command", script)
        XCTAssertEqual(l.code, 0, l.err)
        XCTAssertEqual(l.records.first?["applied"] as? Bool, true)
        let laptopGrant = l.records.first?["id"] as? String ?? "?"
        let desktopGrant = d.records.first?["id"] as? String ?? "?"
        try online()

        // Each device's cron: the laptop has nothing left to hand over (the desktop's lost), the desktop hands over nothing.
        for dev in ["laptop", "desktop"] {
            let e = on(dev, at: "2026-11-21T10:06:00-05:00", "enforce", "--command", script)
            XCTAssertEqual(e.code, 0, "\(dev): \(e.err)")
        }
        try sync()
        for dev in ["laptop", "desktop"] {
            let ex = on(dev, at: "2026-11-21T10:07:00-05:00", "child", "export", "Alex").records.filter { $0["type"] as? String == "grant" }
            let status = Dictionary(uniqueKeysWithValues: ex.map { ($0["id"] as? String ?? "", $0["status"] as? String ?? "") })
            XCTAssertEqual(status, [laptopGrant: "applied", desktopGrant: "void"], dev)
            XCTAssertEqual(on(dev, at: "2026-11-21T10:07:00-05:00", "dashboard", "Alex").records.first?["balance"] as? Int, 20, dev)
            let log = on(dev, at: "2026-11-21T10:07:00-05:00", "log", "--type", "conflict").records.compactMap { $0["text"] as? String }
            XCTAssertTrue(log.contains { $0.contains("8 reward minutes for Alex (80 points) were reversed") }, "\(dev): \(log)")
            // The desktop never even tried: no claim of its own for the fold to refuse.
            XCTAssertFalse(log.contains { $0.contains("does not count") }, "\(dev): \(log)")
            // One reversal, one line, one reason.
            XCTAssertEqual(log.count, 1, "\(dev): \(log)")
            // And once in the whole log, for the child (it was also the grant's own line, worded otherwise).
            let all = on(dev, at: "2026-11-21T10:07:00-05:00", "log").records
            let reversed = all.filter { ($0["text"] as? String ?? "").contains("were reversed") }
            XCTAssertEqual(reversed.count, 1, "\(dev): \(all)")
        }

        // Later the desktop redeems again; the laptop's next cron run hands it over, once.
        let d2 = on("desktop", at: "2026-11-21T11:00:00-05:00", "redeem", "Alex", "2", "--command", script)
        XCTAssertEqual(d2.code, 0, d2.err)
        try sync()
        XCTAssertEqual(on("desktop", at: "2026-11-21T11:01:00-05:00", "enforce", "--command", script).out, "")
        let e = on("laptop", at: "2026-11-21T11:01:00-05:00", "enforce", "--command", script)
        XCTAssertEqual(e.code, 0, e.err)
        XCTAssertEqual(e.records.map { $0["id"] as? String }, [d2.records.first?["id"] as? String])
        XCTAssertEqual(on("laptop", at: "2026-11-21T11:02:00-05:00", "enforce", "--command", script).out, "", "never twice")
        try sync()
        let lines = (try String(contentsOfFile: handed, encoding: .utf8)).split(separator: "\n")
        let ids = lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }.compactMap { $0["id"] as? String }
        XCTAssertEqual(ids, [laptopGrant, d2.records.first?["id"] as? String ?? "?"], "each paid grant handed over once, the void one never")
        for dev in ["laptop", "desktop"] {
            let ex = on(dev, at: "2026-11-21T11:03:00-05:00", "child", "export", "Alex").records.filter { $0["type"] as? String == "grant" }
            XCTAssertEqual(Set(ex.filter { $0["status"] as? String == "applied" }.compactMap { $0["id"] as? String }), Set(ids), dev)
        }
    }

    /// A parent names another device; only that one hands over from then on.
    func testAParentNamesTheGrantingDevice() throws {
        for d in ["laptop", "desktop"] { try FileManager.default.createDirectory(atPath: tmp + "/Sync-\(d)", withIntermediateDirectories: true) }
        XCTAssertEqual(on("laptop", at: "2026-11-21T09:00:00-05:00", "init").code, 0)
        let bad = on("laptop", at: "2026-11-21T09:00:00-05:00", "settings", "set", "grant_device", "my laptop")
        XCTAssertEqual(bad.code, 64)
        XCTAssertTrue(bad.err.contains("grant_device is a device's name"), bad.err)
        let r = on("laptop", at: "2026-11-21T09:00:00-05:00", "settings", "set", "grant_device", "desktop")
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.records.first?["previous"] as? String, "laptop")
        try sync()
        let shown = on("desktop", at: "2026-11-21T09:01:00-05:00", "settings", "--format", "text")
        XCTAssertTrue(shown.out.contains("grant_device                      desktop"), shown.out)
        on("desktop", at: "2026-11-21T09:01:00-05:00", "child", "add", "Alex")
        on("desktop", at: "2026-11-21T09:01:00-05:00", "adjust", "Alex", "+100", "--reason", "start")
        let l = on("laptop", at: "2026-11-21T09:02:00-05:00", "redeem", "Alex", "1", "--command", "cat > /dev/null")
        XCTAssertEqual(l.code, 65, "the laptop has not heard of Alex yet: \(l.err)")
        try sync()
        let l2 = on("laptop", at: "2026-11-21T09:03:00-05:00", "redeem", "Alex", "1", "--command", "cat > /dev/null")
        XCTAssertEqual(l2.records.first?["granted_by"] as? String, "desktop", l2.err)
    }

    /// In a sync folder nothing proves who wrote a change: one made as
    /// someone else (REWARDS_USER) says which login wrote it, unverified.
    func testAChangeMadeAsSomeoneElseInASyncFolderIsMarkedUnverified() throws {
        for d in ["laptop", "desktop"] { try FileManager.default.createDirectory(atPath: tmp + "/Sync-\(d)", withIntermediateDirectories: true) }
        XCTAssertEqual(on("laptop", at: "2026-11-21T09:00:00-05:00", "init").code, 0)
        XCTAssertEqual(on("laptop", at: "2026-11-21T09:00:00-05:00", "child", "add", "Alex", "--user", "alex").code, 0)
        let me = String(cString: getpwuid(geteuid())!.pointee.pw_name)
        let own = run("rewards", ["child", "add", "Sam"], env: ["REWARDS_DATA_DIR": tmp + "/laptop", "REWARDS_SYNC_DIR": tmp + "/Sync-laptop",
                                                               "REWARDS_ACTOR": "laptop", "REWARDS_NOW": "2026-11-21T09:01:00-05:00", "REWARDS_USER": me])
        XCTAssertEqual(own.code, 77, "only a parent adds a child: \(own.err)")
        let log = on("laptop", at: "2026-11-21T09:02:00-05:00", "log").records
        let added = try XCTUnwrap(log.first { $0["action"] as? String == "child_added" })
        XCTAssertEqual(added["by"] as? String, "mum")
        XCTAssertEqual(added["login"] as? String, me)
        XCTAssertEqual(added["verified"] as? Bool, false)
        let text = on("laptop", at: "2026-11-21T09:02:00-05:00", "log", "--format", "text").out
        XCTAssertTrue(text.contains("mum added Alex as a child (login alex)  [unverified: written by login \(me) as mum]"), text)
        // The child's own login is the child's, not the writer's.
        XCTAssertEqual(on("laptop", at: "2026-11-21T09:02:00-05:00", "child", "list").records.first?["login"] as? String, "alex")
    }

    /// Only the granting device names another: the desktop taking the role
    /// while the laptop (which does not know yet) still hands grants over
    /// would have both run the grant command. Refused on the desktop; a
    /// naming planted in its journal counts for nothing on either copy; after
    /// a week without a word from the laptop the desktop may take it.
    func testOnlyTheGrantingDeviceNamesAnother() throws {
        for d in ["laptop", "desktop"] { try FileManager.default.createDirectory(atPath: tmp + "/Sync-\(d)", withIntermediateDirectories: true) }
        XCTAssertEqual(on("laptop", at: "2026-11-14T09:00:00-05:00", "init").code, 0)
        try sync()
        let r = on("desktop", at: "2026-11-14T09:01:00-05:00", "settings", "set", "grant_device", "desktop")
        XCTAssertEqual(r.code, 77, r.err)
        XCTAssertTrue(r.err.contains("only laptop, the granting device, can name another"), r.err)
        XCTAssertEqual(on("desktop", at: "2026-11-14T09:01:30-05:00", "child", "add", "Alex").code, 0)
        // Planted as the desktop's own batch: the fold refuses it on both.
        let forged = #"{"type":"grant_device","device":"desktop","by":"mum","at":"2026-11-14T09:02:00-05:00"}"# + "\n"
            + #"{"type":"commit","n":1,"at":"2026-11-14T09:02:00-05:00","by":"mum","schema":5,"hlc":[1794664920000,0]}"# + "\n"
        let j = tmp + "/Sync-desktop/desktop.ndjson"
        let h = try FileHandle(forUpdating: URL(fileURLWithPath: j))
        h.seekToEndOfFile()
        h.write(forged.data(using: .utf8)!)
        try h.close()
        try sync()
        for d in ["laptop", "desktop"] {
            let shown = on(d, at: "2026-11-14T09:03:00-05:00", "settings").records.first { $0["key"] as? String == "grant_device" }
            XCTAssertEqual(shown?["value"] as? String, "laptop", d)
        }
        // A week and a day later, nothing more from the laptop: the desktop takes the role.
        let later = on("desktop", at: "2026-11-22T10:00:00-05:00", "settings", "set", "grant_device", "desktop")
        XCTAssertEqual(later.code, 0, later.err)
        try sync()
        let shown = on("laptop", at: "2026-11-22T10:01:00-05:00", "settings").records.first { $0["key"] as? String == "grant_device" }
        XCTAssertEqual(shown?["value"] as? String, "desktop")
        // Names are exact: a name no device in the folder has is named with a warning.
        let typo = on("laptop", at: "2026-11-22T10:02:00-05:00", "settings", "set", "grant_device", "LAPTOP")
        XCTAssertEqual(typo.code, 77, "the desktop grants now: \(typo.err)")
        let warned = on("desktop", at: "2026-11-22T10:02:00-05:00", "settings", "set", "grant_device", "LAPTOP")
        XCTAssertEqual(warned.code, 0, warned.err)
        XCTAssertTrue(warned.err.contains("no device named 'LAPTOP' has written to the sync folder yet"), warned.err)
        XCTAssertTrue(warned.err.contains("seen: desktop, laptop"), warned.err)
    }

    /// A hand-over mark planted in a device's journal that does not hand
    /// grants over counts for nothing: the grant stays to be handed over by
    /// the granting device, and the log says why.
    func testAMarkFromADeviceThatDoesNotHandGrantsOverCountsForNothing() throws {
        let (script, handed) = try grantCommand()
        try familyOnTheLaptop()
        let d = on("desktop", at: "2026-11-21T10:00:00-05:00", "redeem", "Alex", "2", "--command", script)
        XCTAssertEqual(d.records.first?["granted_by"] as? String, "laptop", d.err)
        let id = d.records.first?["id"] as? String ?? "?"
        // Planted as the desktop's own batch: "applied", with no command run.
        let forged = #"{"type":"grant_applied","id":"\#(id)","by":"mum","at":"2026-11-21T10:01:00-05:00"}"# + "\n"
            + #"{"type":"commit","n":1,"at":"2026-11-21T10:01:00-05:00","by":"mum","schema":5,"hlc":[1795273260000,0]}"# + "\n"
        let h = try FileHandle(forUpdating: URL(fileURLWithPath: tmp + "/Sync-desktop/desktop.ndjson"))
        h.seekToEndOfFile()
        h.write(forged.data(using: .utf8)!)
        try h.close()
        try sync()
        let e = on("laptop", at: "2026-11-21T10:02:00-05:00", "enforce", "--command", script)
        XCTAssertEqual(e.code, 0, e.err)
        XCTAssertEqual(e.records.map { $0["id"] as? String }, [id], "the laptop hands it over: the desktop's mark does not count")
        XCTAssertEqual((try? String(contentsOfFile: handed, encoding: .utf8))?.split(separator: "\n").count, 1)
        try sync()
        for dev in ["laptop", "desktop"] {
            let log = on(dev, at: "2026-11-21T10:03:00-05:00", "log", "--type", "conflict").records.compactMap { $0["text"] as? String }
            XCTAssertTrue(log.contains { $0.contains("desktop's applied mark of grant \(id) does not count: only laptop, the granting device") }, "\(dev): \(log)")
            let ex = on(dev, at: "2026-11-21T10:03:00-05:00", "child", "export", "Alex").records.first { $0["type"] as? String == "grant" }
            XCTAssertEqual(ex?["status"] as? String, "applied", dev)
        }
    }

    /// One machine's own store (no sync folder) whose name changed (a new
    /// host name): its redemptions are still handed over at once, by the
    /// machine under its new name; the granting-device rule is for devices
    /// sharing a sync folder.
    func testAStoreOfOneMachineHandsGrantsOverUnderANewName() throws {
        let (script, handed) = try grantCommand()
        @discardableResult func here(_ name: String, _ args: String...) -> RunResult {
            run("rewards", args, env: ["REWARDS_DATA_DIR": tmp + "/own", "REWARDS_ACTOR": name, "REWARDS_NOW": "2026-11-21T09:00:00-05:00"])
        }
        XCTAssertEqual(here("oldhost", "init").code, 0)
        here("oldhost", "child", "add", "Alex")
        here("oldhost", "adjust", "Alex", "+100", "--reason", "start")
        let r = here("newhost", "redeem", "Alex", "2", "--command", script)
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertNil(r.records.first?["granted_by"], r.out)
        XCTAssertEqual((try? String(contentsOfFile: handed, encoding: .utf8))?.split(separator: "\n").count, 1, r.err)
        let ex = here("newhost", "child", "export", "Alex").records.first { $0["type"] as? String == "grant" }
        XCTAssertEqual(ex?["status"] as? String, "applied")
        XCTAssertFalse(here("newhost", "log", "--type", "conflict").out.contains("does not count"))
    }

    /// One held session approved on the laptop and rejected on the desktop
    /// before they meet: the first decision in stamp order stands on both
    /// copies, and the other is a conflict in the log of both.
    func testOppositeDecisionsOnAHeldSessionAreAConflictAndTheFirstStands() throws {
        for d in ["laptop", "desktop"] { try FileManager.default.createDirectory(atPath: tmp + "/Sync-\(d)", withIntermediateDirectories: true) }
        XCTAssertEqual(on("laptop", at: "2026-11-21T09:00:00-05:00", "init").code, 0)
        on("laptop", at: "2026-11-21T09:00:00-05:00", "child", "add", "Alex")
        on("laptop", at: "2026-11-21T09:00:00-05:00", "app", "set", "Duolingo", "--learning")
        let long = #"{"child":"Alex","app":"Duolingo","start":"2026-11-21T08:00:00-05:00","duration_s":36000}"# + "\n"
        let held = run("rewards", ["ingest"], stdin: long,
                       env: ["REWARDS_DATA_DIR": tmp + "/laptop", "REWARDS_SYNC_DIR": tmp + "/Sync-laptop", "REWARDS_ACTOR": "laptop",
                             "REWARDS_NOW": "2026-11-21T18:30:00-05:00"]).records.filter { $0["type"] as? String == "flag" }
        XCTAssertEqual(held.count, 1)
        let id = held.first?["id"] as? String ?? "?"
        try sync()
        let a = on("laptop", at: "2026-11-21T19:00:00-05:00", "flag", "approve", id)
        XCTAssertEqual(a.code, 0, a.err)
        let r = on("desktop", at: "2026-11-21T19:05:00-05:00", "flag", "reject", id)
        XCTAssertEqual(r.code, 0, r.err)
        try sync()
        var balances: [Int] = []
        for dev in ["laptop", "desktop"] {
            balances.append(on(dev, at: "2026-11-21T19:10:00-05:00", "dashboard", "Alex").records.first?["balance"] as? Int ?? -1)
            let log = on(dev, at: "2026-11-21T19:10:00-05:00", "log").records
            let conflicts = log.filter { $0["action"] as? String == "conflict" }.compactMap { $0["text"] as? String }
            XCTAssertEqual(conflicts, ["mum's decision that a held Duolingo session of Alex is rejected does not count: it was approved first, and the first decision stands"], dev)
            XCTAssertFalse(log.contains { ($0["text"] as? String)?.contains("rejected a held") == true }, "\(dev): the losing decision is not told as done")
        }
        XCTAssertEqual(balances[0], balances[1])
        XCTAssertGreaterThan(balances[0], 0, "the approval counted")
    }
}
