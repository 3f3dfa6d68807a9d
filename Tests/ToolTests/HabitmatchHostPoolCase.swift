import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A pool shared by real logins on one host. As root (CI runs as root) a
/// test makes a group and four logins with groupadd/useradd, runs
/// habitmatch as each through setpriv, and removes them all afterwards.
/// Without root it is skipped, saying why. The pool's owner is root.
class HabitmatchHostPoolCase: RealLoginsCase {
    override class var loginNames: [String] { ["ana", "bo", "cy", "eve"] }
    override class var groupPrefix: String { "nhm" }
    override class var tool: String { "habitmatch" }
    var pool = ""
    /// Variables every command of the pool's members and owner is run with
    /// besides its own (a test may point `TZDIR` and `TZ` elsewhere).
    var poolEnv: [String: String] = [:]

    override func setUp() {
        super.setUp()
        guard logins != nil else { return }
        pool = tmp + "/pool"
        let made = root([bin + "/habitmatch", "pool", "init", pool, "--group", group])
        XCTAssertEqual(made.code, 0, made.err)
    }

    /// habitmatch as one of the logins, with its own home and data folder.
    @discardableResult
    func hm(_ u: String, _ args: String..., env: [String: String] = [:]) -> RunResult { hm(u, args, env: env) }

    @discardableResult
    func hm(_ u: String, _ args: [String], env: [String: String] = [:]) -> RunResult {
        var e = ["HOME": tmp + "/home-\(u)", "HABITMATCH_DATA_DIR": tmp + "/data-\(u)", "HABITMATCH_POOL": pool,
                 "HABITMATCH_NOW": "2026-11-22T10:00:00-05:00", "USER": users[u]!]
        for (k, v) in poolEnv { e[k] = v }
        for (k, v) in env { e[k] = v }
        return runAs(logins!, u, [bin + "/habitmatch"] + args,
                   env: e)
    }

    /// A shell line as one of the logins (to attack by hand).
    @discardableResult
    func shell(_ u: String, _ line: String) -> RunResult {
        runAs(logins!, u, ["/bin/sh", "-c", line],
            env: ["HOME": tmp + "/home-\(u)"])
    }

    func name(_ u: String) -> String { users[u]! }

    func join(_ u: String, email: Bool = true, timezone: String = "America/New_York") {
        var args = ["join", "--name", u.capitalized, "--habit", "exercise", "--timezone", timezone]
        if email { args += ["--email", "\(u)@example.com"] }
        let r = runAs(logins!, u, [bin + "/habitmatch"] + args,
                    env: ["HOME": tmp + "/home-\(u)", "HABITMATCH_DATA_DIR": tmp + "/data-\(u)", "HABITMATCH_POOL": pool,
                          "HABITMATCH_NOW": "2026-11-22T10:00:00-05:00"].merging(poolEnv) { _, new in new })
        XCTAssertEqual(r.code, 0, "\(u) join: \(r.err)")
    }

    /// The pool's owner's run (as cron would): matches, ends and blocks told.
    @discardableResult
    func ownerRun() -> RunResult {
        let r = root([bin + "/habitmatch", "pool", "match"], env: ["HABITMATCH_POOL": pool, "HABITMATCH_DATA_DIR": tmp + "/data-root",
                                                               "HABITMATCH_NOW": "2026-11-22T10:00:00-05:00"].merging(poolEnv) { _, new in new })
        XCTAssertEqual(r.code, 0, r.err)
        return r
    }

    /// Two likes, then the owner's run: a match both are told of.
    func match(_ a: String, _ b: String) {
        XCTAssertEqual(hm(a, "like", name(b)).code, 0)
        XCTAssertEqual(hm(b, "like", name(a)).code, 0)
        ownerRun()
    }

    /// A member's own spool, self or reports file: KIND/NAME/in/LOGIN.ndjson,
    /// NAME the first of LOGIN, LOGIN~1… that is their folder.
    func hiddenFile(_ kind: String, _ u: String) -> String {
        let login = name(u)
        for n in 0..<8 {
            let dir = "\(pool)/\(kind)/\(n == 0 ? login : "\(login)~\(n)")"
            var st = stat()
            if lstat(dir, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, st.st_uid == Users.uidOf(login) {
                return "\(dir)/in/\(login).ndjson"
            }
        }
        XCTFail("no \(kind) folder of \(u)'s")
        return "\(pool)/\(kind)/\(login)/in/\(login).ndjson"
    }

    /// A member's private file: private/NAME/ID/LOGIN.ndjson (ID the random
    /// name only their buddies are told).
    func privateFile(_ u: String) -> String {
        let shell = (hiddenFile("private", u) as NSString).deletingLastPathComponent
        let dir = (shell as NSString).deletingLastPathComponent
        for id in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where FileManager.default.fileExists(atPath: "\(dir)/\(id)/\(name(u)).ndjson") {
            return "\(dir)/\(id)/\(name(u)).ndjson"
        }
        XCTFail("no private file of \(u)'s")
        return "\(dir)/none/\(name(u)).ndjson"
    }

    /// The pair folder the owner's run made for a and b (read as root from a's notices).
    func pairDir(_ a: String, _ b: String) -> String {
        let text = (try? String(contentsOfFile: "\(pool)/notices/\(name(a))/in/root.ndjson", encoding: .utf8)) ?? ""
        var found = ""
        for line in text.split(separator: "\n") {
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  o["type"] as? String == "matched", o["user"] as? String == name(b), let f = o["pair"] as? String else { continue }
            found = f
        }
        XCTAssertFalse(found.isEmpty, "no pair folder for \(a) and \(b)")
        return "\(pool)/pairs/\(found)"
    }
}
