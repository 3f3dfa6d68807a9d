import XCTest
import TestSupport
@testable import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

/// `TOOL signers`: the list of who may write into a signed folder, edited
/// with commands rather than by hand, with real OpenSSH. Two (or three)
/// devices, each with its own copy of the sync folder, copied by hand as a
/// sync engine would, so a device can be offline when it is retired.
final class SignersCommandToolTests: ToolTestCase {
    func keygen(_ name: String) throws -> String {
        try FileManager.default.createDirectory(atPath: tmp + "/keys", withIntermediateDirectories: true)
        let r = runProgram(command("ssh-keygen"), ["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", tmp + "/keys/" + name])
        XCTAssertEqual(r.status, 0, r.err)
        return try String(contentsOfFile: tmp + "/keys/\(name).pub", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A run of `tool` on `device` (its own data directory and sync folder), signing with `key`.
    @discardableResult
    func on(_ tool: String, _ device: String, key: String?, at now: String, _ args: String...) -> RunResult {
        on(tool, device, key: key, at: now, args: args)
    }

    @discardableResult
    func on(_ tool: String, _ device: String, key: String?, at now: String, args: [String]) -> RunResult {
        let T = tool.uppercased()
        var env = ["\(T)_DATA_DIR": tmp + "/\(tool)-\(device)", "\(T)_SYNC_DIR": tmp + "/\(tool)-Sync-\(device)", "\(T)_ACTOR": device,
                   "\(T)_NOW": "2026-11-30T\(now):00-05:00", "XDG_CONFIG_HOME": tmp + "/config-\(device)"]
        if let k = key { env["\(T)_SIGNING_KEY"] = tmp + "/keys/" + k }
        return run(tool, args, env: env)
    }

    /// Copies every file of one device's folder that differs into another's (a temporary name, then a rename).
    func copy(_ tool: String, from: String, to: String, only: ((String) -> Bool)? = nil) {
        let fm = FileManager.default
        let src = tmp + "/\(tool)-Sync-\(from)", dst = tmp + "/\(tool)-Sync-\(to)"
        try? fm.createDirectory(atPath: dst, withIntermediateDirectories: true)
        for name in (try? fm.contentsOfDirectory(atPath: src)) ?? [] where !name.hasPrefix(".") && (only?(name) ?? true) {
            guard let bytes = fm.contents(atPath: src + "/" + name), fm.contents(atPath: dst + "/" + name) != bytes else { continue }
            XCTAssertTrue(fm.createFile(atPath: dst + "/.tmp." + name, contents: bytes))
            XCTAssertEqual(rename(dst + "/.tmp." + name, dst + "/" + name), 0)
        }
    }

    func titles(_ device: String, tool: String = "yomo", key: String?, at now: String) -> [String] {
        on(tool, device, key: key, at: now, "list").records.compactMap { $0["title"] as? String }.sorted()
    }

    func fingerprint(_ key: String) -> String {
        let r = runProgram(command("ssh-keygen"), ["-l", "-E", "sha256", "-f", tmp + "/keys/\(key).pub"])
        return r.out.split(separator: " ").dropFirst().first.map(String.init) ?? "?"
    }

    /// The whole life of a device's key, by commands: added by the first
    /// device (which makes the list), writing, retired while offline (what
    /// it wrote before still counts; what it wrote after counts on no copy,
    /// its own included), and given a new key that counts.
    func testAddWriteRetireAndRotateADevicesKey() throws {
        try require(.sshKeygen)
        _ = try keygen("a")
        _ = try keygen("b")
        _ = try keygen("b2")
        let added = on("yomo", "a", key: "a", at: "09:00", "signers", "add", "b", tmp + "/keys/b.pub")
        XCTAssertEqual(added.code, 0, added.err)
        XCTAssertTrue(added.err.contains("the folder is signed, with your key as a"), added.err)
        XCTAssertEqual(added.records.first?["name"] as? String, "b")
        XCTAssertEqual(added.records.first?["fingerprint"] as? String, fingerprint("b"))
        let listed = on("yomo", "a", key: "a", at: "09:00", "signers")
        XCTAssertEqual(listed.records.map { $0["name"] as? String }, ["a", "b"])
        XCTAssertEqual(listed.records.map { $0["fingerprint"] as? String }, [fingerprint("a"), fingerprint("b")])
        XCTAssertEqual(listed.records.map { $0["may_change_list"] as? Bool }, [true, true])
        let list = try String(contentsOfFile: tmp + "/yomo-Sync-a/allowed_signers", encoding: .utf8)
        XCTAssertTrue(list.hasPrefix("# nudge-signers version 2\na namespaces=\"nudge-yomo,nudge-yomo-signers\" ssh-ed25519 "), list)
        // OpenSSH itself agrees the change is a's, for yomo's list.
        let check = runProgram(command("ssh-keygen"), ["-Y", "verify", "-f", tmp + "/yomo-Sync-a/allowed_signers", "-I", "a", "-n", "nudge-yomo-signers",
                                                       "-s", tmp + "/yomo-Sync-a/allowed_signers.sig"], stdin: Array(list.utf8))
        XCTAssertEqual(check.status, 0, check.err)

        copy("yomo", from: "a", to: "b")
        XCTAssertEqual(on("yomo", "b", key: "b", at: "09:30", "add", "--literal", "tea", "--date", "2026-12-02", "--time", "10:00").code, 0)
        copy("yomo", from: "b", to: "a")
        XCTAssertEqual(titles("a", key: "a", at: "09:40"), ["tea"])

        // Retired at 10:00 while b is offline: b's copy does not know, and writes at 11:00.
        let retired = on("yomo", "a", key: "a", at: "10:00", "signers", "retire", "b")
        XCTAssertEqual(retired.code, 0, retired.err)
        XCTAssertEqual(retired.records.first?["valid_before"] as? String, "2026-11-30T15:00:00Z")
        XCTAssertEqual(on("yomo", "b", key: "b", at: "11:00", "add", "--literal", "late", "--date", "2026-12-02", "--time", "11:00").code, 0)
        copy("yomo", from: "b", to: "a", only: { $0.hasSuffix(".ndjson") })
        let seen = on("yomo", "a", key: "a", at: "11:10", "list")
        XCTAssertEqual(seen.records.compactMap { $0["title"] as? String }, ["tea"], seen.err)
        XCTAssertTrue(seen.err.contains("count for nothing"), seen.err)
        // Once b's copy has the change, it refuses to write, and its own late change counts for nothing there too.
        copy("yomo", from: "a", to: "b", only: { !$0.hasSuffix(".ndjson") })
        let refused = on("yomo", "b", key: "b", at: "11:20", "add", "--literal", "again", "--date", "2026-12-02", "--time", "12:00")
        XCTAssertEqual(refused.code, 77, refused.err)
        XCTAssertEqual(titles("b", key: "b", at: "11:20"), ["tea"])

        // A new key for b: what it signs counts on both.
        XCTAssertEqual(on("yomo", "a", key: "a", at: "11:30", "signers", "add", "b", tmp + "/keys/b2.pub").code, 0)
        copy("yomo", from: "a", to: "b", only: { !$0.hasSuffix(".ndjson") })
        let rotated = on("yomo", "b", key: "b2", at: "11:40", "add", "--literal", "new key", "--date", "2026-12-02", "--time", "13:00")
        XCTAssertEqual(rotated.code, 0, rotated.err)
        copy("yomo", from: "b", to: "a", only: { $0.hasSuffix(".ndjson") })
        XCTAssertEqual(titles("a", key: "a", at: "11:50"), ["new key", "tea"])
        XCTAssertEqual(titles("b", key: "b2", at: "11:50"), ["new key", "tea"])
        let text = on("yomo", "a", key: "a", at: "11:50", "--format", "text", "signers").out
        XCTAssertTrue(text.contains("b  \(fingerprint("b"))  retired 2026-11-30T15:00:00Z"), text)
    }

    /// A writer-only signer cannot change the list; a list signed for
    /// yomo's folder, put into playa's by someone who can write there, is
    /// not taken although the same person signed it.
    func testOnlyThoseWhoMayChangeTheListDoAndAListDoesNotCrossTools() throws {
        try require(.sshKeygen)
        _ = try keygen("a")
        _ = try keygen("c")
        _ = try keygen("d")
        let w = on("yomo", "a", key: "a", at: "09:00", "signers", "add", "--writer-only", "c", tmp + "/keys/c.pub")
        XCTAssertEqual(w.code, 0, w.err)
        XCTAssertEqual(w.records.first?["namespaces"] as? [String], ["nudge-yomo"])
        XCTAssertEqual(w.records.first?["may_change_list"] as? Bool, false)
        copy("yomo", from: "a", to: "c")
        let before = try Data(contentsOf: URL(fileURLWithPath: tmp + "/yomo-Sync-c/allowed_signers"))
        let no = on("yomo", "c", key: "c", at: "09:10", "signers", "add", "d", tmp + "/keys/d.pub")
        XCTAssertEqual(no.code, 77, no.err)
        XCTAssertTrue(no.err.contains("does not let c") && no.err.contains("nothing was changed"), no.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: tmp + "/yomo-Sync-c/allowed_signers")), before)
        XCTAssertEqual(on("yomo", "c", key: "c", at: "09:20", "add", "--literal", "tea", "--date", "2026-12-02", "--time", "10:00").code, 0)
        // (Newer than playa's list below, so that only its signature can refuse it.)
        XCTAssertEqual(on("yomo", "a", key: "a", at: "09:25", "signers", "add", "--writer-only", "d", tmp + "/keys/d.pub").code, 0)

        // playa: a's list names a and d. yomo's list (a and c), signed by a, put in its place.
        XCTAssertEqual(on("playa", "a", key: "a", at: "09:30", "signers", "add", "d", tmp + "/keys/d.pub").code, 0)
        for f in ["allowed_signers", "allowed_signers.sig"] {
            let p = tmp + "/playa-Sync-a/" + f
            unlink(p)
            XCTAssertNoThrow(try FileManager.default.copyItem(atPath: tmp + "/yomo-Sync-a/" + f, toPath: p))
        }
        let replay = on("playa", "a", key: "a", at: "09:40", "signers")
        XCTAssertEqual(replay.code, 0, replay.err)
        XCTAssertEqual(replay.records.map { $0["name"] as? String }, ["a", "d"])
        XCTAssertTrue(replay.err.contains("is not a signature of it by one of the signers accepted before"), replay.err)
        // And playa will not edit over it: what to do is said.
        let over = on("playa", "a", key: "a", at: "09:50", "signers", "retire", "d")
        XCTAssertEqual(over.code, 75, over.err)
        XCTAssertTrue(over.err.contains("cp \(tmp)/playa-a/allowed_signers.accepted"), over.err)
    }

    /// Every refusal names what is accepted, with its own status, and changes nothing.
    func testRefusalsSayWhatIsAcceptedAndChangeNothing() throws {
        try require(.sshKeygen)
        _ = try keygen("a")
        _ = try keygen("b")
        // Nothing signed yet: said, and no list made by looking.
        let none = on("tenclub", "a", key: "a", at: "09:00", "signers")
        XCTAssertEqual(none.code, 0, none.err)
        XCTAssertTrue(none.out.isEmpty && none.err.contains("is not signed"), none.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/tenclub-Sync-a/allowed_signers"))
        // No key, no list: 78; the key from stdin works.
        XCTAssertEqual(on("tenclub", "a", key: nil, at: "09:00", "signers", "add", "b", tmp + "/keys/b.pub").code, 78)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/tenclub-Sync-a/allowed_signers"))
        let stdin = run("tenclub", ["signers", "add", "b", "-"], stdin: try keygen("e"),
                        env: ["TENCLUB_DATA_DIR": tmp + "/tenclub-a", "TENCLUB_SYNC_DIR": tmp + "/tenclub-Sync-a", "TENCLUB_ACTOR": "a",
                              "TENCLUB_SIGNING_KEY": tmp + "/keys/a"])
        XCTAssertEqual(stdin.code, 0, stdin.err)
        let list = try Data(contentsOf: URL(fileURLWithPath: tmp + "/tenclub-Sync-a/allowed_signers"))
        for (args, code, says) in [
            (["add", "c", "/etc/passwd"], 65, "is not an SSH public key"),
            (["add", "c", tmp + "/nothing.pub"], 66, "No such file"),
            (["add", "-x", tmp + "/keys/b.pub"], 64, "unknown option -x"),
            (["add", "c d", tmp + "/keys/b.pub"], 64, "a signer's name is letters, digits"),
            (["add", "b", tmp + "/keys/e.pub"], 65, "b already signs with that key"),
            (["add", "f", tmp + "/keys/e.pub"], 65, "that key already signs as b"),
            (["retire", "nobody"], 65, "nobody is not on the list"),
            (["retire", "b", "--key", "SHA256:AAAA"], 65, "b has no key SHA256:AAAA"),
            (["retire", "b", "--key", "what"], 64, "--key must be"),
            (["retire", "b", "--at", "soon"], 64, "--at must be"),
            (["retire", "a", "--at", "2026-12-01"], 0, "accepted the changed list, signed by a"),
        ] as [([String], Int32, String)] {
            let r = on("tenclub", "a", key: "a", at: "09:10", args: ["signers"] + args)
            XCTAssertEqual(r.code, code, "\(args): \(r.err)")
            XCTAssertTrue(r.err.contains(says), "\(args): \(r.err)")
            if code != 0 { XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: tmp + "/tenclub-Sync-a/allowed_signers")), list, "\(args)") }
        }
        // b is now the only one who may change the list after tomorrow: b cannot be retired.
        XCTAssertEqual(on("tenclub", "a", key: "a", at: "09:20", "signers").records.map { $0["retired"] as? Bool }, [false, false])
        let last = on("tenclub", "a", key: "a", at: "09:20", "signers", "retire", "b")
        XCTAssertEqual(last.code, 65, last.err)
        XCTAssertTrue(last.err.contains("would leave nobody whose key may change the list"), last.err)
        // No sync folder: 78, naming what to set.
        let local = run("tenclub", ["signers"], env: ["TENCLUB_DATA_DIR": tmp + "/solo"])
        XCTAssertEqual(local.code, 78, local.err)
        XCTAssertTrue(local.err.contains("set sync_dir"), local.err)
    }

    /// rewards signs as the parent, habitmatch as the member: the command
    /// edits the list their writes are checked against.
    func testRewardsParentsAndASyncedPoolUseTheSameCommand() throws {
        try require(.sshKeygen)
        _ = try keygen("ann")
        _ = try keygen("bob")
        let pool = tmp + "/pool"
        func hm(_ user: String, _ args: String...) -> RunResult {
            run("habitmatch", args, env: ["HABITMATCH_DATA_DIR": tmp + "/hm-\(user)", "HABITMATCH_POOL": pool, "HABITMATCH_USER": user,
                                          "HABITMATCH_SIGNING_KEY": tmp + "/keys/" + user])
        }
        XCTAssertEqual(hm("ann", "pool", "init", "--synced", pool).code, 0)
        XCTAssertEqual(hm("bob", "join", "--name", "Bob", "--habit", "exercise").code, 77)
        let add = hm("ann", "signers", "add", "bob", tmp + "/keys/bob.pub")
        XCTAssertEqual(add.code, 0, add.err)
        XCTAssertEqual(add.records.first?["namespaces"] as? [String], ["nudge-habitmatch", "nudge-habitmatch-signers"])
        XCTAssertEqual(hm("ann", "join", "--name", "Ann", "--habit", "exercise").code, 0)
        XCTAssertEqual(hm("bob", "join", "--name", "Bob", "--habit", "exercise").code, 0)
        XCTAssertEqual(hm("ann", "candidates").records.first?["name"] as? String, "Bob")

        // rewards in a family folder on one computer: no list to keep (the kernel proves who wrote).
        let fam = tmp + "/family"
        let r = run("rewards", ["--family", fam, "init"], env: ["REWARDS_DATA_DIR": tmp + "/rw"])
        XCTAssertEqual(r.code, 0, r.err)
        let host = run("rewards", ["--family", fam, "signers"], env: ["REWARDS_DATA_DIR": tmp + "/rw"])
        XCTAssertEqual(host.code, 78, host.err)
        XCTAssertTrue(host.err.contains("signers are for a sync folder"), host.err)
        // In a sync folder: the parent the run acts as.
        let env = ["REWARDS_DATA_DIR": tmp + "/rw-sync", "REWARDS_SYNC_DIR": tmp + "/rw-Sync", "REWARDS_USER": "mum",
                   "REWARDS_SIGNING_KEY": tmp + "/keys/ann"]
        XCTAssertEqual(run("rewards", ["signers", "add", "dad", tmp + "/keys/bob.pub"], env: env).code, 0)
        XCTAssertEqual(run("rewards", ["signers"], env: env).records.map { $0["name"] as? String }, ["mum", "dad"])
    }

    /// What an attacker who can write into the folder tried next (a helper,
    /// attacking the first version): an older signed list put back on a
    /// copy that never saw it, history edited at the same length before it
    /// was signed, a list with no key on a new copy, a truncated key, a
    /// signing key that never ends.
    func testWhatAnAttackerTriedAgainstTheListHolds() throws {
        try require(.sshKeygen)
        _ = try keygen("a")
        _ = try keygen("b")
        _ = try keygen("c")
        // b wrote before the folder was signed; then a signs it, adding b; b's copy accepts the list.
        try FileManager.default.createDirectory(atPath: tmp + "/yomo-Sync-b", withIntermediateDirectories: true)
        XCTAssertEqual(on("yomo", "b", key: "b", at: "08:00", "add", "--literal", "pay rent alpha", "--date", "2026-12-02", "--time", "10:00").code, 0)
        copy("yomo", from: "b", to: "a")
        XCTAssertEqual(on("yomo", "a", key: "a", at: "09:00", "signers", "add", "b", tmp + "/keys/b.pub").code, 0)
        let v1 = (try Data(contentsOf: URL(fileURLWithPath: tmp + "/yomo-Sync-a/allowed_signers")),
                  try Data(contentsOf: URL(fileURLWithPath: tmp + "/yomo-Sync-a/allowed_signers.sig")))
        XCTAssertEqual(on("yomo", "a", key: "a", at: "09:01", "signers", "add", "c", tmp + "/keys/c.pub").code, 0)
        let v2 = (try Data(contentsOf: URL(fileURLWithPath: tmp + "/yomo-Sync-a/allowed_signers")),
                  try Data(contentsOf: URL(fileURLWithPath: tmp + "/yomo-Sync-a/allowed_signers.sig")))
        XCTAssertEqual(on("yomo", "a", key: "a", at: "09:02", "signers", "retire", "c").code, 0)
        copy("yomo", from: "a", to: "b", only: { !$0.hasSuffix(".ndjson") })
        XCTAssertEqual(on("yomo", "b", key: "b", at: "09:10", "signers").records.last?["retired"] as? Bool, true)

        // The attacker edits b's history at the same length, then puts back v2 (c not retired), which b never saw.
        let journal = tmp + "/yomo-Sync-b/b.ndjson"
        let edited = try String(contentsOfFile: journal, encoding: .utf8).replacingOccurrences(of: "pay rent alpha", with: "pay rent omega")
        try edited.write(toFile: journal, atomically: true, encoding: .utf8)
        try v2.0.write(to: URL(fileURLWithPath: tmp + "/yomo-Sync-b/allowed_signers"))
        try v2.1.write(to: URL(fileURLWithPath: tmp + "/yomo-Sync-b/allowed_signers.sig"))
        let old = on("yomo", "b", key: "b", at: "09:20", "signers")
        XCTAssertTrue(old.err.contains("is not newer than the list this copy accepted"), old.err)
        XCTAssertEqual(old.records.last?["retired"] as? Bool, true, "c stays retired")
        // b's next change does not sign the edited history: it counts nowhere.
        XCTAssertEqual(on("yomo", "b", key: "b", at: "09:30", "add", "--literal", "tea", "--date", "2026-12-02", "--time", "11:00").code, 0)
        let mine = on("yomo", "b", key: "b", at: "09:31", "list")
        XCTAssertEqual(mine.records.compactMap { $0["title"] as? String }, ["tea"])
        copy("yomo", from: "b", to: "a", only: { $0.hasSuffix(".ndjson") })
        XCTAssertEqual(titles("a", key: "a", at: "09:40"), ["tea"])
        _ = v1

        // A new copy whose folder holds junk as the list trusts nothing, and takes the real one when it comes.
        try FileManager.default.createDirectory(atPath: tmp + "/yomo-Sync-n", withIntermediateDirectories: true)
        try "junk\nssh-ed25519 AAAA\n".write(toFile: tmp + "/yomo-Sync-n/allowed_signers", atomically: true, encoding: .utf8)
        let junk = on("yomo", "n", key: nil, at: "09:50", "list")
        XCTAssertTrue(junk.err.contains("has no line with a public key ssh-keygen can read, and is not trusted"), junk.err)
        copy("yomo", from: "a", to: "n")
        XCTAssertEqual(titles("n", key: nil, at: "09:51"), ["tea"])

        // Keys that are not one key; a signer who may not change the list is told so first (77).
        let b64 = try keygen("t").split(separator: " ")[1]
        _ = write("trunc.pub", "ssh-ed25519 \(b64.dropLast(8))\n")
        XCTAssertEqual(on("yomo", "a", key: "a", at: "10:00", "signers", "add", "t", tmp + "/trunc.pub").code, 65)
        _ = write("two.pub", try String(contentsOfFile: tmp + "/keys/t.pub", encoding: .utf8) + String(contentsOfFile: tmp + "/keys/c.pub", encoding: .utf8))
        let two = on("yomo", "a", key: "a", at: "10:00", "signers", "add", "t", tmp + "/two.pub")
        XCTAssertEqual(two.code, 65, two.err)
        XCTAssertTrue(two.err.contains("holds 2 keys"), two.err)
        XCTAssertEqual(on("yomo", "a", key: "a", at: "10:01", "signers", "add", "--writer-only", "w", tmp + "/keys/t.pub").code, 0)
        copy("yomo", from: "a", to: "w", only: { !$0.hasSuffix(".ndjson") })
        let w = on("yomo", "w", key: "t", at: "10:02", "signers", "retire", "a")
        XCTAssertEqual(w.code, 77, w.err)
        // Told before anything else is checked (not "nobody is not on the list").
        let first = on("yomo", "w", key: "t", at: "10:02", "signers", "retire", "nobody")
        XCTAssertEqual(first.code, 77, first.err)
        // A list-changer's name with another's key: the signature says no.
        _ = try keygen("z")
        let claim = run("yomo", ["signers", "add", "z", tmp + "/keys/z.pub"],
                        env: ["YOMO_DATA_DIR": tmp + "/yomo-w", "YOMO_SYNC_DIR": tmp + "/yomo-Sync-w", "YOMO_ACTOR": "a", "YOMO_SIGNING_KEY": tmp + "/keys/t"])
        XCTAssertEqual(claim.code, 77, claim.err)
        XCTAssertTrue(claim.err.contains("does not let a (with"), claim.err)
        // A signing key that is a device is refused at once, not read for ever.
        let dev = run("yomo", ["add", "--literal", "x"], env: ["YOMO_DATA_DIR": tmp + "/yomo-a", "YOMO_SYNC_DIR": tmp + "/yomo-Sync-a", "YOMO_ACTOR": "a",
                                                              "YOMO_SIGNING_KEY": "/dev/zero"])
        XCTAssertEqual(dev.code, 78, dev.err)
        XCTAssertTrue(dev.err.contains("is not a key file"), dev.err)
    }

    /// The same command in every tool, each in its own folder and namespace.
    func testEveryToolListsAddsAndRetires() throws {
        try require(.sshKeygen)
        _ = try keygen("a")
        _ = try keygen("b")
        func env(_ tool: String) -> [String: String] {
            let T = tool.uppercased()
            var e = ["REWARDS_USER": "a", "HABITMATCH_POOL": tmp + "/every-pool", "HABITMATCH_USER": "a"]
            for (k, v) in ["_DATA_DIR": tmp + "/every-\(tool)", "_SYNC_DIR": tmp + "/every-Sync-\(tool)", "_ACTOR": "a", "_SIGNING_KEY": tmp + "/keys/a"] { e[T + k] = v }
            return e
        }
        XCTAssertEqual(run("habitmatch", ["pool", "init", "--synced", tmp + "/every-pool"], env: env("habitmatch")).code, 0)
        var lists: [String: String] = [:]
        for (tool, results) in [
            ("tenclub", [run("tenclub", ["signers", "add", "b", tmp + "/keys/b.pub"], env: env("tenclub")),
                         run("tenclub", ["signers", "retire", "b"], env: env("tenclub")), run("tenclub", ["signers"], env: env("tenclub"))]),
            ("yomo", [run("yomo", ["signers", "add", "b", tmp + "/keys/b.pub"], env: env("yomo")),
                      run("yomo", ["signers", "retire", "b"], env: env("yomo")), run("yomo", ["signers"], env: env("yomo"))]),
            ("rewards", [run("rewards", ["signers", "add", "b", tmp + "/keys/b.pub"], env: env("rewards")),
                         run("rewards", ["signers", "retire", "b"], env: env("rewards")), run("rewards", ["signers"], env: env("rewards"))]),
            ("playa", [run("playa", ["signers", "add", "b", tmp + "/keys/b.pub"], env: env("playa")),
                       run("playa", ["signers", "retire", "b"], env: env("playa")), run("playa", ["signers"], env: env("playa"))]),
            ("habitmatch", [run("habitmatch", ["signers", "add", "b", tmp + "/keys/b.pub"], env: env("habitmatch")),
                            run("habitmatch", ["signers", "retire", "b"], env: env("habitmatch")), run("habitmatch", ["signers"], env: env("habitmatch"))]),
        ] {
            for r in results { XCTAssertEqual(r.code, 0, "\(tool): \(r.err)") }
            XCTAssertEqual(results[2].records.map { $0["name"] as? String }, ["a", "b"], tool)
            XCTAssertEqual(results[2].records.map { $0["retired"] as? Bool }, [false, true], tool)
            XCTAssertEqual(results[2].records.first?["namespaces"] as? [String], ["nudge-\(tool)", "nudge-\(tool)-signers"], tool)
            let folder = tool == "habitmatch" ? tmp + "/every-pool" : tmp + "/every-Sync-\(tool)"
            lists[tool] = try String(contentsOfFile: folder + "/allowed_signers", encoding: .utf8)
            XCTAssertTrue(lists[tool]?.hasPrefix("# nudge-signers version 3\n") == true, lists[tool] ?? "")
        }
    }

    /// What a second attack found: two copies changing the list at once,
    /// a version pushed out of reach, a namespace that is a pattern.
    func testListChangesMadeAtOnceSettleAndARetiredKeyStaysRetired() throws {
        try require(.sshKeygen)
        for k in ["a", "b", "c", "m", "d"] { _ = try keygen(k) }
        XCTAssertEqual(on("yomo", "a", key: "a", at: "09:00", "signers", "add", "b", tmp + "/keys/b.pub").code, 0)
        XCTAssertEqual(on("yomo", "a", key: "a", at: "09:01", "signers", "add", "--writer-only", "c", tmp + "/keys/c.pub").code, 0)
        copy("yomo", from: "a", to: "b")
        XCTAssertEqual(on("yomo", "b", key: "b", at: "09:02", "signers").records.count, 3)
        // At once: a adds m, b retires c; the sync engine keeps a's file.
        XCTAssertEqual(on("yomo", "a", key: "a", at: "09:10", "signers", "add", "--writer-only", "m", tmp + "/keys/m.pub").code, 0)
        XCTAssertEqual(on("yomo", "b", key: "b", at: "09:10", "signers", "retire", "c").code, 0)
        copy("yomo", from: "a", to: "b", only: { !$0.hasSuffix(".ndjson") })
        let split = on("yomo", "b", key: "b", at: "09:11", "signers")
        XCTAssertTrue(split.err.contains("has the same version (4) as the list this copy accepted, and differs from it"), split.err)
        XCTAssertEqual(split.records.first { $0["name"] as? String == "c" }?["retired"] as? Bool, true)
        // a changes again, from its list where c is not retired: b does not take back c's retirement.
        XCTAssertEqual(on("yomo", "a", key: "a", at: "09:12", "signers", "add", "--writer-only", "d", tmp + "/keys/d.pub").code, 0)
        copy("yomo", from: "a", to: "b", only: { !$0.hasSuffix(".ndjson") })
        let lift = on("yomo", "b", key: "b", at: "09:13", "signers")
        XCTAssertTrue(lift.err.contains("takes back the retirement of c's key"), lift.err)
        XCTAssertEqual(lift.records.first { $0["name"] as? String == "c" }?["retired"] as? Bool, true)
        // A change from b settles it: past a's version, with c retired, and a takes it.
        let settle = on("yomo", "b", key: "b", at: "09:14", "signers", "add", "--writer-only", "m", tmp + "/keys/m.pub")
        XCTAssertEqual(settle.code, 0, settle.err)
        XCTAssertTrue(settle.err.contains("it is replaced with the list this copy accepted and this change, as version 6"), settle.err)
        copy("yomo", from: "b", to: "a", only: { !$0.hasSuffix(".ndjson") })
        let settled = on("yomo", "a", key: "a", at: "09:15", "signers")
        XCTAssertTrue(settled.err.contains("accepted the changed list, signed by b"), settled.err)
        XCTAssertEqual(settled.records.first { $0["name"] as? String == "c" }?["retired"] as? Bool, true)
        // Nor can the retired key come back under any name.
        let again = on("yomo", "a", key: "a", at: "09:16", "signers", "add", "c2", tmp + "/keys/c.pub")
        XCTAssertEqual(again.code, 65, again.err)
        XCTAssertTrue(again.err.contains("a retired key stays retired"), again.err)

        // A version pushed out of reach, or far ahead, is not taken; nor a namespace pattern unsaid.
        let list = try String(contentsOfFile: tmp + "/yomo-Sync-a/allowed_signers", encoding: .utf8)
        func offer(_ text: String) throws -> RunResult {
            try text.write(toFile: tmp + "/yomo-Sync-a/allowed_signers", atomically: true, encoding: .utf8)
            unlink(tmp + "/yomo-Sync-a/allowed_signers.sig")
            XCTAssertEqual(runProgram(command("ssh-keygen"), ["-Y", "sign", "-q", "-f", tmp + "/keys/a", "-n", "nudge-yomo-signers", tmp + "/yomo-Sync-a/allowed_signers"]).status, 0)
            return on("yomo", "a", key: "a", at: "09:20", "signers")
        }
        let far = try offer(list.replacingOccurrences(of: "version 6", with: "version 1099511627777"))
        XCTAssertTrue(far.err.contains("whose N is not a whole number from 0 to 1099511627776"), far.err)
        let jump = try offer(list.replacingOccurrences(of: "version 6", with: "version 20000"))
        XCTAssertTrue(jump.err.contains("raises the version from 6 to 20000"), jump.err)
        let crlf = try offer(list.replacingOccurrences(of: "version 6", with: "version 7").replacingOccurrences(of: "\n", with: "\r\n"))
        XCTAssertTrue(crlf.err.contains("has Windows line endings"), crlf.err)
        let pattern = try offer(list.replacingOccurrences(of: "version 6", with: "version 7")
            .replacingOccurrences(of: "m namespaces=\"nudge-yomo\"", with: "m namespaces=\"nudge-yomo*\""))
        XCTAssertTrue(pattern.err.contains("its namespaces are patterns"), pattern.err)
        XCTAssertEqual(pattern.records.first { $0["name"] as? String == "m" }?["may_change_list"] as? Bool, true, "as ssh-keygen reads it")
    }
}
