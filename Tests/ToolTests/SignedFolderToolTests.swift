import XCTest
import TestSupport
@testable import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

/// A family whose parents use two laptops, sharing one sync folder that
/// holds an allowed_signers list (git's format) with mum's and dad's SSH
/// keys. Attacks are made with real OpenSSH, as a member or an outsider who
/// can write into the folder would make them: every copy ignores a forged
/// batch, whatever it claims, and counts the genuine ones.
final class SignedFolderToolTests: SyncthingToolTestCase {
    override var folderID: String { "rewards" }
    override func folder(_ d: Int) -> String { tmp + "/Sync-\(names[d])" }
    /// Real Syncthing between the two folders instead of copies by hand.
    var realSync = false
    /// The version of the list writeList wrote last.
    var listVersion = 0
    /// Ellie's id, as the events name her.
    var ellie = "?"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    @discardableResult
    func mum(_ args: String...) -> RunResult { on("mumlaptop", as: "mum", key: "mum", args) }
    @discardableResult
    func dad(_ args: String...) -> RunResult { on("dadlaptop", as: "dad", key: "dad", args) }
    /// A run on `device` as `person`, signing with `key` (nil: none set).
    func on(_ device: String, as person: String, key: String?, _ args: [String]) -> RunResult {
        var env = ["REWARDS_DATA_DIR": tmp + "/\(device)", "REWARDS_SYNC_DIR": tmp + "/Sync-\(device)",
                   "REWARDS_ACTOR": device, "REWARDS_USER": person, "REWARDS_NOW": "2026-11-30T09:00:00-05:00"]
        if let k = key { env["REWARDS_SIGNING_KEY"] = tmp + "/keys/" + k }
        return run("rewards", args, env: env)
    }

    func keygen(_ name: String) throws -> String {
        try FileManager.default.createDirectory(atPath: tmp + "/keys", withIntermediateDirectories: true)
        let r = runProgram(command("ssh-keygen"), ["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", tmp + "/keys/" + name])
        XCTAssertEqual(r.status, 0, r.err)
        return try String(contentsOfFile: tmp + "/keys/\(name).pub", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Copies each laptop's files into the other's folder, as a sync engine
    /// does (a temporary name, then a rename); with Syncthing, waits for it.
    func sync(file: StaticString = #filePath, line: UInt = #line) {
        if realSync { return synced("a sync", file: file, line: line) }
        let fm = FileManager.default
        // Each laptop's journal from its own folder; what else is written by hand, from the first folder.
        for (from, to) in [("mumlaptop", "dadlaptop"), ("dadlaptop", "mumlaptop")] {
            for name in (try? fm.contentsOfDirectory(atPath: tmp + "/Sync-\(from)")) ?? [] where !name.hasPrefix(".") {
                guard name == from + ".ndjson" || (from == "mumlaptop" && !name.hasSuffix("laptop.ndjson")) else { continue }
                guard let bytes = fm.contents(atPath: tmp + "/Sync-\(from)/\(name)"),
                      fm.contents(atPath: tmp + "/Sync-\(to)/\(name)") != bytes else { continue }
                let t = tmp + "/Sync-\(to)/.syncthing.\(name).tmp"
                XCTAssertTrue(fm.createFile(atPath: t, contents: bytes), file: file, line: line)
                XCTAssertEqual(rename(t, tmp + "/Sync-\(to)/\(name)"), 0, file: file, line: line)
            }
        }
    }

    /// Writes the list into the first folder (the other gets it by sync).
    /// Each with a version past the last (a copy takes only a newer list).
    func writeList(_ lines: [String]) throws {
        listVersion += 1
        try ((["# nudge-signers version \(listVersion)"] + lines).joined(separator: "\n") + "\n").write(toFile: folder(0) + "/allowed_signers", atomically: true, encoding: .utf8)
    }

    /// A batch as the store writes it, signed with `key` as `signer` for `namespace`, for `journal`.
    func forgedBatch(_ events: [JSONObject], journal: String, stamp ms: Int64, signer: String, key: String,
                     namespace: String = "nudge-rewards") -> [UInt8] {
        let stamp = Stamp(ms: ms, actor: journal)
        var body = [UInt8]()
        for e in events { e.write(into: &body); body.append(0x0A) }
        // The message format, written out here as a peer would: journal, stamp, the bytes' SHA-256.
        let message = "nudge-batch 1\njournal \(journal)\nhlc \(ms) 0\nsha256 \(SHA256.hex(body))\n"
        let r = runProgram(command("ssh-keygen"), ["-Y", "sign", "-q", "-f", tmp + "/keys/" + key, "-n", namespace], stdin: Array(message.utf8))
        XCTAssertEqual(r.status, 0, r.err)
        let sig = r.out.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return Store<RewardsState>.encodeBatch(events, stamp: stamp, by: signer, at: Instant(ms: ms), zone: .utc,
                                               extra: ["signer": .string(signer), "sig": .string(sig)]).bytes
    }

    /// Appends to a laptop's journal in that laptop's folder, from where it syncs.
    func append(_ bytes: [UInt8], to journal: String) {
        let fd = open(folder(journal == "mumlaptop" ? 0 : 1) + "/\(journal).ndjson", O_WRONLY | O_APPEND)
        XCTAssertGreaterThanOrEqual(fd, 0)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    func balance(_ device: String, _ person: String) -> Int? {
        on(device, as: person, key: person, ["dashboard", "Ellie"]).records.first?["balance"] as? Int
    }

    /// Mum makes the family (Ellie, 100 points) before the folder is
    /// signed; dad joins; then the list appears and each signs their own
    /// history with their next change.
    /// `slipIn`: a batch with a good checksum and no signature appended to
    /// dad's journal after his laptop accepted the list (not part of the
    /// history his next change signs).
    func family(slipIn: Bool = false) throws -> (mum: String, dad: String) {
        names = ["mumlaptop", "dadlaptop"]
        for d in 0..<2 { try FileManager.default.createDirectory(atPath: folder(d), withIntermediateDirectories: true) }
        if realSync { try startSyncthing() }
        let mumKey = try keygen("mum"), dadKey = try keygen("dad")
        let unsigned = on("mumlaptop", as: "mum", key: nil, ["init"])
        XCTAssertEqual(unsigned.code, 0)
        XCTAssertTrue(unsigned.err.contains("is not signed: anyone who can write into it can write as anyone; set signing_key"), unsigned.err)
        ellie = mum("child", "add", "Ellie").records.first?["id"] as? String ?? "?"
        XCTAssertEqual(mum("adjust", "Ellie", "+100", "--reason", "start").code, 0)
        let code = mum("parent", "invite").records.first?["code"] as? String ?? "?"
        sync()
        XCTAssertEqual(dad("parent", "join", code).code, 0)
        sync()
        try writeList(["mum namespaces=\"nudge-rewards,nudge-rewards-signers\" \(mumKey)", "dad \(dadKey)"])
        sync()
        // Before each has signed, each sees only what is signed: here, nothing.
        let before = dad("dashboard", "Ellie")
        XCTAssertTrue(before.err.contains("trusted on first use (2 signers)"), before.err)
        XCTAssertTrue(before.err.contains("written before this folder asked for signatures count once that device makes a change"), before.err)
        if slipIn {
            let e: JSONObject = ["type": "adjust", "child": .string(ellie), "day": "2026-11-30", "points": 1000, "reason": "slipped in", "by": "dad",
                                 "at": "2026-11-30T10:00:00Z"]
            let ms: Int64 = 1_796_047_300_000
            append(Store<RewardsState>.encodeBatch([e], stamp: Stamp(ms: ms, actor: "dadlaptop"), by: "dad", at: Instant(ms: ms), zone: .utc).bytes,
                   to: "dadlaptop")
        }
        XCTAssertEqual(mum("adjust", "Ellie", "+1", "--reason", "signed").code, 0)
        sync()
        XCTAssertEqual(dad("adjust", "Ellie", "+1", "--reason", "signed too").code, 0)
        sync()
        XCTAssertEqual(balance("mumlaptop", "mum"), 102, mum("dashboard", "Ellie").err)
        XCTAssertEqual(balance("dadlaptop", "dad"), 102, dad("dashboard", "Ellie").err)
        return (mumKey, dadKey)
    }

    func testEveryCopyIgnoresAForgedBatchAndCountsTheGenuineOnes() throws {
        try require(.sshKeygen)
        _ = try family()
        _ = try keygen("eve")
        let mumJournal = [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: folder(0) + "/mumlaptop.ndjson")))
        let ms: Int64 = 1_796_050_000_000
        let gift: JSONObject = ["type": "adjust", "child": .string(ellie), "day": "2026-11-30", "points": 500, "reason": "forged", "by": "mum", "at": "2026-11-30T10:00:00Z"]

        // The tool itself refuses to write as somebody else, or without a key.
        let asMum = on("dadlaptop", as: "mum", key: "dad", ["adjust", "Ellie", "+500", "--reason", "as mum"])
        XCTAssertEqual(asMum.code, 77, asMum.err)
        XCTAssertTrue(asMum.err.contains("does not allow") && asMum.err.contains("to sign as mum"), asMum.err)
        let keyless = on("dadlaptop", as: "dad", key: nil, ["adjust", "Ellie", "+500", "--reason", "no key"])
        XCTAssertEqual(keyless.code, 78, keyless.err)
        XCTAssertTrue(keyless.err.contains("no key is set: add 'signing_key"), keyless.err)

        // Written by hand into the folder, as anyone who can write there could:
        let attacks: [(String, [UInt8], String)] = [
            ("dad's key claiming to be mum", forgedBatch([gift], journal: "dadlaptop", stamp: ms, signer: "mum", key: "dad"), "dadlaptop"),
            ("a key the list does not hold", forgedBatch([gift.with("by", "eve")], journal: "dadlaptop", stamp: ms + 1, signer: "eve", key: "eve"), "dadlaptop"),
            ("mum's key, signed for another tool", forgedBatch([gift], journal: "mumlaptop", stamp: ms + 2, signer: "mum", key: "mum", namespace: "nudge-yomo"), "mumlaptop"),
            ("dad's own key, events by mum", forgedBatch([gift], journal: "dadlaptop", stamp: ms + 3, signer: "dad", key: "dad"), "dadlaptop"),
            ("mum's genuine journal copied again at its end", mumJournal, "mumlaptop"),
            ("mum's genuine journal moved into dad's", mumJournal, "dadlaptop"),
        ]
        for (what, bytes, journal) in attacks {
            append(bytes, to: journal)
            sync()
            XCTAssertEqual(balance("mumlaptop", "mum"), 102, what)
            XCTAssertEqual(balance("dadlaptop", "dad"), 102, what)
        }
        let warned = dad("dashboard", "Ellie").err
        XCTAssertTrue(warned.contains("are not signed by a key") && warned.contains("count for nothing"), warned)

        // A genuine batch by hand (dad's key, dad's name): it counts. (The checks above can fail.)
        let genuine = forgedBatch([gift.with("by", "dad").with("points", 7)], journal: "dadlaptop", stamp: ms + 10, signer: "dad", key: "dad")
        // After the junk above, dad's journal's last stamp is ms + 3 or a copy's: stamps only grow, so it goes last with a later one.
        append(genuine, to: "dadlaptop")
        sync()
        XCTAssertEqual(balance("mumlaptop", "mum"), 109)
        XCTAssertEqual(balance("dadlaptop", "dad"), 109)
        // The log says who signed each change.
        let log = mum("log", "--limit", "3").records
        XCTAssertEqual(log.first?["signer"] as? String, "dad", "\(log)")
        XCTAssertEqual(log.first?["verified"] as? Bool, true, "\(log)")
    }

    func testTheListChangesOnlyWhenSignedByOneOfItsSignersAndARemovedKeyStillProvesItsPast() throws {
        try require(.sshKeygen)
        let (mumKey, dadKey) = try family()
        let eveKey = try keygen("eve")
        // Eve (who can write into the folder) adds herself, unsigned: nobody believes the new list.
        try writeList(["mum namespaces=\"nudge-rewards,nudge-rewards-signers\" \(mumKey)", "dad \(dadKey)", "eve \(eveKey)"])
        sync()
        let ms: Int64 = 1_796_050_000_000
        let gift: JSONObject = ["type": "adjust", "child": .string(ellie), "day": "2026-11-30", "points": 500, "reason": "eve", "by": "eve", "at": "2026-11-30T10:00:00Z"]
        let eveJournal = forgedBatch([gift], journal: "eve", stamp: ms, signer: "eve", key: "eve")
        XCTAssertTrue(FileManager.default.createFile(atPath: folder(0) + "/eve.ndjson", contents: Data(eveJournal)))
        sync()
        let r = dad("dashboard", "Ellie")
        XCTAssertEqual(r.records.first?["balance"] as? Int, 102)
        XCTAssertTrue(r.err.contains("changed, but") && r.err.contains("still verifying with the list accepted before"), r.err)

        // Signed by eve herself: still no.
        _ = runProgram(command("ssh-keygen"), ["-Y", "sign", "-q", "-f", tmp + "/keys/eve", "-n", "nudge-rewards-signers", folder(0) + "/allowed_signers"])
        sync()
        XCTAssertEqual(balance("dadlaptop", "dad"), 102)
        XCTAssertEqual(balance("mumlaptop", "mum"), 102)

        // Dad retires his key from today (valid-before) and adds a new one; mum signs the change.
        let dad2 = try keygen("dad2")
        try writeList(["mum namespaces=\"nudge-rewards,nudge-rewards-signers\" \(mumKey)", "dad valid-before=\"20261130150000Z\" \(dadKey)", "dad \(dad2)"])
        try? FileManager.default.removeItem(atPath: folder(0) + "/allowed_signers.sig")
        let s = runProgram(command("ssh-keygen"), ["-Y", "sign", "-q", "-f", tmp + "/keys/mum", "-n", "nudge-rewards-signers", folder(0) + "/allowed_signers"])
        XCTAssertEqual(s.status, 0, s.err)
        sync()
        // Dad's past, signed with the retired key before it expired, still counts on both; eve never did.
        XCTAssertEqual(balance("mumlaptop", "mum"), 102)
        XCTAssertEqual(balance("dadlaptop", "dad"), 102)
        // A batch signed with the retired key after it expired counts for nothing; one with the new key counts.
        let late: Int64 = 1_796_100_000_000  // 2026-12-01
        append(forgedBatch([gift.with("by", "dad").with("points", 50)], journal: "dadlaptop", stamp: late, signer: "dad", key: "dad"), to: "dadlaptop")
        sync()
        XCTAssertEqual(balance("mumlaptop", "mum"), 102)
        append(forgedBatch([gift.with("by", "dad").with("points", 5)], journal: "dadlaptop", stamp: late + 1, signer: "dad", key: "dad2"), to: "dadlaptop")
        sync()
        XCTAssertEqual(balance("mumlaptop", "mum"), 107)
        XCTAssertEqual(on("dadlaptop", as: "dad", key: "dad2", ["dashboard", "Ellie"]).records.first?["balance"] as? Int, 107)
    }

    /// A journal full of forged batches costs each reader a few checks a
    /// run (64 per journal), each failure remembered, never one ssh-keygen
    /// per batch per run; the genuine batch behind them counts once reached.
    func testAFloodOfForgedBatchesIsCheckedAFewARunAndNeverTwice() throws {
        try require(.sshKeygen)
        _ = try family()
        let gift: JSONObject = ["type": "adjust", "child": .string(ellie), "day": "2026-11-30", "points": 500, "reason": "forged", "by": "mum",
                                "at": "2026-11-30T10:00:00Z"]
        let ms: Int64 = 1_796_050_000_000
        var flood = [UInt8]()
        for k in 0..<150 { flood += forgedBatch([gift], journal: "dadlaptop", stamp: ms + Int64(k), signer: "mum", key: "dad") }
        flood += forgedBatch([gift.with("by", "dad").with("points", 7)], journal: "dadlaptop", stamp: ms + 1000, signer: "dad", key: "dad")
        append(flood, to: "dadlaptop")
        sync()
        var runs: [RunResult] = []
        for _ in 0..<4 { runs.append(mum("dashboard", "Ellie")) }
        XCTAssertTrue(runs[0].err.contains("wait to be verified"), runs[0].err)
        XCTAssertEqual(runs[0].records.first?["balance"] as? Int, 102)
        XCTAssertTrue(runs[1].err.contains("wait to be verified"), runs[1].err)
        XCTAssertEqual(runs[2].records.first?["balance"] as? Int, 109, runs[2].err)
        XCTAssertEqual(runs[3].records.first?["balance"] as? Int, 109)
        XCTAssertFalse(runs[3].err.contains("wait to be verified"), runs[3].err)
        // Each failure is remembered: a copy that folds everything again checks none twice.
        let verified = try String(contentsOfFile: tmp + "/mumlaptop/signatures.verified", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(verified.filter { $0.hasPrefix("!") }.count, 150)
        try? FileManager.default.removeItem(atPath: tmp + "/mumlaptop/snapshot.ndjson")
        let again = mum("dashboard", "Ellie")
        XCTAssertEqual(again.records.first?["balance"] as? Int, 109, again.err)
        XCTAssertFalse(again.err.contains("wait to be verified"), again.err)
    }

    /// What an attacker who can write into the folder tried next: a forged
    /// batch stamped in 2100 (it must not make later genuine ones look like
    /// copies), junk in a laptop's own journal (nothing of its own is set
    /// aside, and it still writes), a batch slipped into a journal after its
    /// laptop accepted the list (never signed as its history), an old list
    /// put back, and a list whose signer is a pattern.
    func testWhatAnAttackerTriedNextHolds() throws {
        try require(.sshKeygen)
        let (mumKey, dadKey) = try family()
        _ = try keygen("eve")
        let gift: JSONObject = ["type": "adjust", "child": .string(ellie), "day": "2026-11-30", "points": 500, "reason": "forged", "by": "dad",
                                "at": "2026-11-30T10:00:00Z"]
        // 2100, signed by a key nobody allows, in dad's journal; then dad's own change still counts everywhere.
        append(forgedBatch([gift], journal: "dadlaptop", stamp: 4_102_444_800_000, signer: "dad", key: "eve"), to: "dadlaptop")
        XCTAssertEqual(dad("adjust", "Ellie", "+3", "--reason", "after the forgery").code, 0)
        sync()
        XCTAssertEqual(balance("mumlaptop", "mum"), 105)
        XCTAssertEqual(balance("dadlaptop", "dad"), 105)

        // Eighty junk batches in dad's own journal (more than a run checks): dad's next change writes, nothing is set aside.
        var junk = [UInt8]()
        for k in 0..<80 { junk += forgedBatch([gift], journal: "dadlaptop", stamp: 1_796_050_000_000 + Int64(k), signer: "dad", key: "eve") }
        append(junk, to: "dadlaptop")
        let w = dad("adjust", "Ellie", "+1", "--reason", "after the junk")
        XCTAssertEqual(w.code, 0, w.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder(1) + "/dadlaptop.corrupt"), "nothing of dad's set aside")
        sync()
        _ = mum("dashboard", "Ellie")  // mum's copy checks 64 of them a run
        XCTAssertEqual(balance("mumlaptop", "mum"), 106)
        XCTAssertEqual(balance("dadlaptop", "dad"), 106)

        // The list as it was put back after a signed change: refused.
        let s1 = runProgram(command("ssh-keygen"), ["-Y", "sign", "-q", "-f", tmp + "/keys/mum", "-n", "nudge-rewards-signers", folder(0) + "/allowed_signers"])
        XCTAssertEqual(s1.status, 0, s1.err)
        let v1 = try Data(contentsOf: URL(fileURLWithPath: folder(0) + "/allowed_signers"))
        let v1sig = try Data(contentsOf: URL(fileURLWithPath: folder(0) + "/allowed_signers.sig"))
        let dad2 = try keygen("dad2")
        try writeList(["mum namespaces=\"nudge-rewards,nudge-rewards-signers\" \(mumKey)", "dad valid-before=\"20261130150000Z\" \(dadKey)", "dad \(dad2)"])
        try? FileManager.default.removeItem(atPath: folder(0) + "/allowed_signers.sig")
        XCTAssertEqual(runProgram(command("ssh-keygen"), ["-Y", "sign", "-q", "-f", tmp + "/keys/mum", "-n", "nudge-rewards-signers", folder(0) + "/allowed_signers"]).status, 0)
        sync()
        XCTAssertTrue(mum("dashboard", "Ellie").err.contains("accepted the changed list, signed by mum"))
        try v1.write(to: URL(fileURLWithPath: folder(0) + "/allowed_signers"))
        try v1sig.write(to: URL(fileURLWithPath: folder(0) + "/allowed_signers.sig"))
        let back = mum("dashboard", "Ellie")
        XCTAssertTrue(back.err.contains("is a list this copy accepted before and has replaced since"), back.err)
        append(forgedBatch([gift.with("points", 50)], journal: "dadlaptop", stamp: 1_796_100_000_000, signer: "dad", key: "dad"), to: "dadlaptop")
        sync()
        XCTAssertEqual(balance("mumlaptop", "mum"), 106, "the retired key stays retired")

        // A pattern as a signer's name is said.
        let eve = try keygen("eve2")
        try writeList(["mum namespaces=\"nudge-rewards,nudge-rewards-signers\" \(mumKey)", "dad \(dad2)", "* \(eve)", "\u{1b}[2J* \(eve)"])
        try? FileManager.default.removeItem(atPath: folder(0) + "/allowed_signers.sig")
        XCTAssertEqual(runProgram(command("ssh-keygen"), ["-Y", "sign", "-q", "-f", tmp + "/keys/mum", "-n", "nudge-rewards-signers", folder(0) + "/allowed_signers"]).status, 0)
        let pattern = mum("dashboard", "Ellie")
        XCTAssertTrue(pattern.err.contains(":4: '*' is a pattern: its key may sign as any name it matches"), pattern.err)
        // The list is anyone's text: what it says reaches the terminal escaped.
        XCTAssertTrue(pattern.err.contains(":5: '"), pattern.err)
        XCTAssertFalse(pattern.err.contains("\u{1b}"), pattern.err)
    }

    /// A batch slipped into dad's journal after his laptop accepted the
    /// list is not signed as his history with his next change.
    func testABatchSlippedInAfterTheListWasAcceptedIsNeverSignedAsHistory() throws {
        try require(.sshKeygen)
        _ = try family(slipIn: true)  // its balances (102 on both) leave the slipped +1000 out
        try FileManager.default.removeItem(atPath: tmp + "/dadlaptop/snapshot.ndjson")
        let r = dad("dashboard", "Ellie")
        XCTAssertEqual(r.records.first?["balance"] as? Int, 102)
        XCTAssertTrue(r.err.contains("without a signature, not written here, count for nothing"), r.err)
    }

    /// Junk journals planted by an outsider cost a reader a few ssh-keygen
    /// runs, not one per file: a journal that never held a good batch shares
    /// 16 failed checks a run with all such.
    func testManyJunkJournalsCostAFewChecksARun() throws {
        try require(.sshKeygen)
        _ = try family()
        _ = try keygen("eve")
        let gift: JSONObject = ["type": "adjust", "child": .string(ellie), "day": "2026-11-30", "points": 500, "reason": "junk", "by": "mum",
                                "at": "2026-11-30T10:00:00Z"]
        let one = forgedBatch([gift], journal: "junk", stamp: 1_796_050_000_000, signer: "mum", key: "eve")
        for k in 0..<60 {
            // Each file its own name in the message, as a verifier reads it (the batch fails either way).
            XCTAssertTrue(FileManager.default.createFile(atPath: folder(0) + "/junk\(k).ndjson", contents: Data(one)))
        }
        // A shim that counts ssh-keygen's runs.
        let shim = tmp + "/shim"
        try FileManager.default.createDirectory(atPath: shim, withIntermediateDirectories: true)
        try "#!/bin/sh\necho run >> '\(tmp)/keygen-runs'\nexec '\(command("ssh-keygen"))' \"$@\"\n".write(toFile: shim + "/ssh-keygen", atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(shim + "/ssh-keygen", 0o755), 0)
        var env = ["REWARDS_DATA_DIR": tmp + "/mumlaptop", "REWARDS_SYNC_DIR": folder(0), "REWARDS_ACTOR": "mumlaptop", "REWARDS_USER": "mum",
                   "REWARDS_SIGNING_KEY": tmp + "/keys/mum", "REWARDS_NOW": "2026-11-30T09:00:00-05:00"]
        env["PATH"] = shim + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let r = run("rewards", ["dashboard", "Ellie"], env: env)
        XCTAssertEqual(r.records.first?["balance"] as? Int, 102, r.err)
        let runs = (try? String(contentsOfFile: tmp + "/keygen-runs", encoding: .utf8))?.split(separator: "\n").count ?? 0
        XCTAssertLessThanOrEqual(runs, 16, "ssh-keygen ran \(runs) times for 60 junk journals")
        XCTAssertGreaterThan(runs, 0)
        XCTAssertTrue(r.err.contains("wait to be verified"), r.err)
    }

    /// A family made in a sync folder by a parent with a key is signed from
    /// the start: the list names her; dad writes once she adds his key.
    func testAFamilyMadeWithAKeyIsSignedFromTheStart() throws {
        try require(.sshKeygen)
        names = ["mumlaptop", "dadlaptop"]
        for d in 0..<2 { try FileManager.default.createDirectory(atPath: folder(d), withIntermediateDirectories: true) }
        let mumKey = try keygen("mum"), dadKey = try keygen("dad")
        let made = mum("init")
        XCTAssertEqual(made.code, 0, made.err)
        XCTAssertTrue(made.err.contains("the folder is signed, with your key as mum"), made.err)
        let list = try String(contentsOfFile: folder(0) + "/allowed_signers", encoding: .utf8)
        XCTAssertEqual(list, "# nudge-signers version 1\nmum namespaces=\"nudge-rewards,nudge-rewards-signers\" \(mumKey.split(separator: " ").prefix(2).joined(separator: " "))\n")
        ellie = mum("child", "add", "Ellie").records.first?["id"] as? String ?? "?"
        let code = mum("parent", "invite").records.first?["code"] as? String ?? "?"
        sync()
        let refused = dad("parent", "join", code)
        XCTAssertEqual(refused.code, 77, refused.err)
        try (list.replacingOccurrences(of: "version 1", with: "version 2") + "dad \(dadKey)\n").write(toFile: folder(0) + "/allowed_signers", atomically: true, encoding: .utf8)
        XCTAssertEqual(runProgram(command("ssh-keygen"), ["-Y", "sign", "-q", "-f", tmp + "/keys/mum", "-n", "nudge-rewards-signers", folder(0) + "/allowed_signers"]).status, 0)
        sync()
        let joined = dad("parent", "join", code)
        XCTAssertEqual(joined.code, 0, joined.err)
        sync()
        XCTAssertEqual(mum("parent", "list").records.count, 2)
        XCTAssertEqual(mum("log", "--limit", "1").records.first?["signer"] as? String, "dad")
    }

    /// An erasure rewrites mum's journal: what is left is signed anew, and
    /// still counts on dad's laptop; what went is gone on both.
    func testAPurgedJournalIsSignedAnewAndTheRestStillCounts() throws {
        try require(.sshKeygen)
        _ = try family()
        XCTAssertEqual(mum("child", "add", "Tom").code, 0)
        XCTAssertEqual(mum("adjust", "Tom", "+30", "--reason", "tom").code, 0)
        // One batch about both children: the purge keeps Ellie's part of it, signed anew.
        XCTAssertEqual(mum("app", "set", "duolingo", "--learning").code, 0)
        let sessions = """
            {"child":"Ellie","app":"duolingo","start":"2026-11-30T07:00:00-05:00","end":"2026-11-30T07:30:00-05:00"}
            {"child":"Tom","app":"duolingo","start":"2026-11-30T07:00:00-05:00","end":"2026-11-30T07:30:00-05:00"}
            """
        try sessions.write(toFile: tmp + "/sessions.ndjson", atomically: true, encoding: .utf8)
        let ingest = mum("ingest", tmp + "/sessions.ndjson")
        XCTAssertEqual(ingest.code, 0, ingest.err)
        sync()
        let ellieBefore = balance("dadlaptop", "dad")
        XCTAssertEqual(on("dadlaptop", as: "dad", key: "dad", ["dashboard", "Tom"]).records.first?["balance"] as? Int, 60, "30 given, 30 earned")
        XCTAssertEqual(ellieBefore, 132, "102, and 30 earned")
        let purge = mum("child", "rm", "Tom", "--purge", "--yes")
        XCTAssertEqual(purge.code, 0, purge.err)
        sync()
        let journal = try String(contentsOfFile: folder(0) + "/mumlaptop.ndjson", encoding: .utf8)
        XCTAssertFalse(journal.contains("\"tom\""), "the erased reason is gone from the journal")
        for (device, person) in [("mumlaptop", "mum"), ("dadlaptop", "dad")] {
            let r = on(device, as: person, key: person, ["dashboard", "Ellie"])
            XCTAssertEqual(r.records.first?["balance"] as? Int, ellieBefore, "\(device): \(r.err)")
            XCTAssertFalse(r.err.contains("count for nothing"), "\(device): \(r.err)")
            XCTAssertNotEqual(on(device, as: person, key: person, ["dashboard", "Tom"]).code, 0, device)
        }
    }

    /// One person's devices (yomo): each signs its own journal as itself;
    /// a batch in the phone's journal signed by the laptop's key, as the
    /// laptop or as the phone, counts for nothing.
    func testADeviceSignsOnlyItsOwnJournal() throws {
        try require(.sshKeygen)
        let laptopKey = try keygen("laptop"), phoneKey = try keygen("phone")
        let sync = tmp + "/yomo-sync"
        try FileManager.default.createDirectory(atPath: sync, withIntermediateDirectories: true)
        try "laptop \(laptopKey)\nphone \(phoneKey)\n".write(toFile: sync + "/allowed_signers", atomically: true, encoding: .utf8)
        func yomo(_ device: String, _ args: String...) -> RunResult {
            run("yomo", args, env: ["YOMO_DATA_DIR": tmp + "/yomo-\(device)", "YOMO_SYNC_DIR": sync, "YOMO_ACTOR": device,
                                    "YOMO_SIGNING_KEY": tmp + "/keys/" + device, "YOMO_NOW": "2026-11-30T09:00:00-05:00", "TZ": "America/New_York"])
        }
        XCTAssertEqual(yomo("phone", "add", "call mom tomorrow at 9am").code, 0)
        XCTAssertEqual(yomo("laptop", "add", "pay rent dec 1 at 10am").code, 0)
        XCTAssertEqual(yomo("laptop", "list").records.count, 2)
        let made = try XCTUnwrap(try String(contentsOfFile: sync + "/phone.ndjson", encoding: .utf8).split(separator: "\n").first)
        let event = try JSON.parseObject(bytes: Array(made.utf8))
        let ms: Int64 = 1_796_050_000_000
        var junk = [UInt8]()
        for signer in ["laptop", "phone"] {
            var e = event
            e["id"] = .string("forged\(signer)00000")
            e["title"] = .string("forged as \(signer)")
            junk += forgedBatch([e], journal: "phone", stamp: ms + (signer == "phone" ? 1 : 0), signer: signer, key: "laptop", namespace: "nudge-yomo")
        }
        let fd = open(sync + "/phone.ndjson", O_WRONLY | O_APPEND)
        _ = junk.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        for device in ["laptop", "phone"] {
            let r = yomo(device, "list")
            XCTAssertEqual(r.records.count, 2, "\(device): \(r.out)")
            XCTAssertTrue(r.err.contains("2 batch(es) are not signed by a key"), "\(device): \(r.err)")
        }
    }

    /// A synced habitmatch pool made by someone with a key is signed from
    /// the start; a member's journal proves its member: a rename forged
    /// into bob's journal with ann's key counts for nothing, bob's own does.
    func testASyncedPoolProvesEachMember() throws {
        try require(.sshKeygen)
        _ = try keygen("ann")
        let bobKey = try keygen("bob")
        let pool = tmp + "/pool"
        func hm(_ user: String, _ args: String...) -> RunResult {
            run("habitmatch", args, env: ["HABITMATCH_DATA_DIR": tmp + "/hm-\(user)", "HABITMATCH_POOL": pool, "HABITMATCH_USER": user,
                                          "HABITMATCH_SIGNING_KEY": tmp + "/keys/" + user])
        }
        let made = hm("ann", "pool", "init", "--synced", pool)
        XCTAssertEqual(made.code, 0, made.err)
        XCTAssertTrue(made.err.contains("the folder is signed, with your key as ann"), made.err)
        let list = try String(contentsOfFile: pool + "/allowed_signers", encoding: .utf8)
        try (list.replacingOccurrences(of: "version 1", with: "version 2") + "bob \(bobKey)\n").write(toFile: pool + "/allowed_signers", atomically: true, encoding: .utf8)
        XCTAssertEqual(runProgram(command("ssh-keygen"), ["-Y", "sign", "-q", "-f", tmp + "/keys/ann", "-n", "nudge-habitmatch-signers", pool + "/allowed_signers"]).status, 0)
        XCTAssertEqual(hm("ann", "join", "--name", "Ann", "--habit", "exercise").code, 0)
        XCTAssertEqual(hm("bob", "join", "--name", "Bob", "--habit", "exercise").code, 0)
        XCTAssertEqual(hm("ann", "candidates").records.first?["name"] as? String, "Bob")

        // Ann's key, claiming to be bob, in bob's journal.
        let ms = Int64(Date().timeIntervalSince1970 * 1000)
        let rename: JSONObject = ["type": "profile", "name": "Mallory"]
        var body = [UInt8]()
        rename.write(into: &body)
        body.append(0x0A)
        let message = "nudge-batch 1\njournal journal/bob\nhlc \(ms) 0\nsha256 \(SHA256.hex(body))\n"
        let r = runProgram(command("ssh-keygen"), ["-Y", "sign", "-q", "-f", tmp + "/keys/ann", "-n", "nudge-habitmatch"], stdin: Array(message.utf8))
        XCTAssertEqual(r.status, 0, r.err)
        let sig = r.out.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let forged = Store<HabitmatchState>.encodeBatch([rename], stamp: Stamp(ms: ms, actor: "bob"), by: "bob", at: Instant(ms: ms), zone: .utc,
                                                        extra: ["signer": "bob", "sig": .string(sig)]).bytes
        let fd = open(pool + "/journal/bob.ndjson", O_WRONLY | O_APPEND)
        _ = forged.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let seen = hm("ann", "candidates")
        XCTAssertEqual(seen.records.first?["name"] as? String, "Bob", seen.err)
        XCTAssertTrue(seen.err.contains("are not signed by a key"), seen.err)
        // Bob's own rename counts.
        XCTAssertEqual(hm("bob", "profile", "set", "--name", "Robert").code, 0)
        XCTAssertEqual(hm("ann", "candidates").records.first?["name"] as? String, "Robert")
    }

    /// The same family over real Syncthing: a forged batch travels to the
    /// other laptop and counts for nothing there.
    func testOverSyncthingAForgedBatchCountsForNothingOnTheOtherLaptop() throws {
        try require(.sshKeygen)
        realSync = true
        _ = try family()
        let gift: JSONObject = ["type": "adjust", "child": .string(ellie), "day": "2026-11-30", "points": 500, "reason": "forged", "by": "mum", "at": "2026-11-30T10:00:00Z"]
        append(forgedBatch([gift], journal: "dadlaptop", stamp: 1_796_050_000_000, signer: "mum", key: "dad"), to: "dadlaptop")
        sync()
        XCTAssertEqual(balance("mumlaptop", "mum"), 102)
        XCTAssertEqual(balance("dadlaptop", "dad"), 102)
    }
}

private extension JSONObject {
    func with(_ key: String, _ value: JSON) -> JSONObject {
        var o = self
        o[key] = value
        return o
    }
}
