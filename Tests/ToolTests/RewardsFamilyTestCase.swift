import XCTest
import TestSupport
import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

/// A family folder on one host, used by real logins: two parents, two
/// children and a stranger, made with useradd and run through setpriv (CI
/// runs as root), removed afterwards; the helpers the family folder's tests
/// share (run as a login, as root, a shell line as a login, a game).
class RewardsFamilyTestCase: RealLoginsCase {
    override class var loginNames: [String] { ["mum", "dad", "alex", "sam", "eve"] }
    override class var groupPrefix: String { "nrw" }
    override class var tool: String { "rewards" }
    var family = ""
    let now = "2026-11-22T10:00:00-05:00"

    override func setUp() {
        super.setUp()
        guard logins != nil else { return }
        // The family folder: made by root for mum (as /var/lib/rewards would be).
        family = tmp + "/family"
        XCTAssertEqual(root(["/usr/bin/install", "-d", "-o", users["mum"]!, "-m", "0700", family]).code, 0)
        let made = rwAs("mum", "init")
        XCTAssertEqual(made.code, 0, made.err)
    }

    /// rewards as one of the logins, with its own home and data folder.
    @discardableResult
    func rwAs(_ u: String, _ args: String..., env: [String: String] = [:], at: String? = nil) -> RunResult {
        rwAs(u, args, env: env, at: at)
    }

    @discardableResult
    func rwAs(_ u: String, _ args: [String], env: [String: String] = [:], at: String? = nil) -> RunResult {
        var e = ["HOME": tmp + "/home-\(u)", "REWARDS_DATA_DIR": tmp + "/data-\(u)", "REWARDS_FAMILY": family,
                 "REWARDS_NOW": at ?? now, "USER": users[u]!, "XDG_CONFIG_HOME": tmp + "/home-\(u)/.config"]
        for (k, v) in env { e[k] = v }
        return runAs(logins!, u, [bin + "/rewards"] + args, env: e)
    }

    /// rewards as one of the logins (or root, "root"), started and left
    /// running: for runs at once.
    func rwLaunch(_ u: String, _ args: String...) -> Launched {
        let p = Process()
        var e: [String: String]
        if u == "root" {
            e = ["REWARDS_DATA_DIR": tmp + "/data-root", "REWARDS_FAMILY": family, "REWARDS_NOW": now, "XDG_CONFIG_HOME": tmp + "/root-config"]
            p.executableURL = URL(fileURLWithPath: bin + "/rewards")
            p.arguments = args
        } else {
            e = ["HOME": tmp + "/home-\(u)", "REWARDS_DATA_DIR": tmp + "/data-\(u)", "REWARDS_FAMILY": family,
                 "REWARDS_NOW": now, "USER": users[u]!, "XDG_CONFIG_HOME": tmp + "/home-\(u)/.config"]
            let argv = logins!.asLogin(u)
            p.executableURL = URL(fileURLWithPath: argv[0])
            p.arguments = Array(argv.dropFirst()) + [bin + "/rewards"] + args
        }
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in e { environment[k] = v }
        p.environment = environment
        return start(p)
    }

    /// Several rewards runs started together from one shell (each `(login,
    /// args)`, "root" for root), all at once in the background; returns
    /// each run's exit status, in order.
    func rwTogether(_ runs: [(String, [String])]) -> [Int32] {
        func q(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        var script = ""
        for (i, (u, args)) in runs.enumerated() {
            var env = ["REWARDS_FAMILY=" + family, "REWARDS_NOW=" + now, "PATH=/usr/bin:/bin"]
            var argv: [String]
            if u == "root" {
                env += ["REWARDS_DATA_DIR=" + tmp + "/data-root", "XDG_CONFIG_HOME=" + tmp + "/root-config"]
                argv = []
            } else {
                env += ["HOME=" + tmp + "/home-\(u)", "REWARDS_DATA_DIR=" + tmp + "/data-\(u)", "USER=" + users[u]!,
                        "XDG_CONFIG_HOME=" + tmp + "/home-\(u)/.config"]
                argv = logins!.asLogin(u)
            }
            argv += [bin + "/rewards"] + args
            script += "(env -i \(env.map(q).joined(separator: " ")) \(argv.map(q).joined(separator: " ")) >/dev/null 2>>\(tmp)/together.err; echo $? > \(tmp)/together-\(i)) &\n"
        }
        script += "wait\n"
        let r = root(["/bin/sh", "-c", script])
        XCTAssertEqual(r.code, 0, r.err)
        return runs.indices.map { i in
            Int32(String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: tmp + "/together-\(i)"))) ?? Data(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
    }

    /// rewards as root (its cron), with root's own data folder.
    @discardableResult
    func asRoot(_ args: String..., env: [String: String] = [:]) -> RunResult {
        var e = ["REWARDS_DATA_DIR": tmp + "/data-root", "REWARDS_FAMILY": family, "REWARDS_NOW": now, "XDG_CONFIG_HOME": tmp + "/root-config"]
        for (k, v) in env { e[k] = v }
        return run(bin + "/rewards", args, env: e, absolute: true)
    }

    @discardableResult
    func shell(_ u: String, _ line: String) -> RunResult {
        runAs(logins!, u, ["/bin/sh", "-c", line],
            env: ["HOME": tmp + "/home-\(u)"])
    }

    func name(_ u: String) -> String { users[u]! }

    func setUpFamily() {
        XCTAssertEqual(rwAs("mum", "child", "add", "Alex", "--user", name("alex")).code, 0)
        XCTAssertEqual(rwAs("mum", "child", "add", "Sam", "--user", name("sam")).code, 0)
        XCTAssertEqual(rwAs("mum", "app", "set", "Minecraft", "--reward").code, 0)
        XCTAssertEqual(rwAs("mum", "adjust", "Alex", "+100", "--reason", "start").code, 0)
        XCTAssertEqual(rwAs("mum", "adjust", "Sam", "+40", "--reason", "start").code, 0)
    }

    /// A shell script running as a login, in the background.
    func launch(as u: String, _ script: String) throws -> Process {
        let p = Process()
        let argv = logins!.asLogin(u)
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst()) + ["/bin/sh", "-c", script]
        try p.run()
        return p
    }

    /// A game running as a login, in the background (a copy of sleep named mcgame).
    func startGame(as u: String?) throws -> Process {
        let game = bin + "/mcgame"
        if !FileManager.default.fileExists(atPath: game) {
            try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: game)
            _ = chmod(game, 0o755)
        }
        let uid = u.map { logins!.uid($0) } ?? getuid()
        func games() -> Int { Processes.list(uids: [uid]).filter { $0.comm == "mcgame" }.count }
        let before = games()
        let p = Process()
        if let u = u {
            let argv = logins!.asLogin(u)
            p.executableURL = URL(fileURLWithPath: argv[0])
            p.arguments = Array(argv.dropFirst()) + [game, "300"]
        } else {
            p.executableURL = URL(fileURLWithPath: game)
            p.arguments = ["300"]
        }
        try p.run()
        // Running as itself (past setpriv's exec) before anyone reads /proc.
        let deadline = Date().addingTimeInterval(5)
        while games() <= before && Date() < deadline { usleep(20_000) }
        XCTAssertGreaterThan(games(), before, "the game did not start within 5 s")
        return p
    }

    func ended(_ p: Process, within seconds: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while p.isRunning && Date() < deadline { usleep(50_000) }
        return !p.isRunning
    }

    /// A journal's path in the family folder.
    func journal(_ u: String) -> String { family + "/journal/\(u == "root" ? "root" : name(u)).ndjson" }

    /// The last stamp a journal's commit lines carry ([ms, counter]).
    func lastStamp(_ path: String) throws -> (ms: Int64, counter: Int64) {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        for line in text.split(separator: "\n").reversed() {
            guard let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], o["type"] as? String == "commit",
                  let h = o["hlc"] as? [Any], h.count == 2 else { continue }
            return (Int64(h[0] as? Int ?? 0), Int64(h[1] as? Int ?? 0))
        }
        XCTFail("no commit line in \(path)")
        return (0, 0)
    }

    /// A batch as a writer with its own hands would append it: the events,
    /// then a commit line stamped `ms`/`counter`, with the store's checksum
    /// unless `sum` is false.
    func forgedBatch(_ events: [JSONObject], ms: Int64, counter: Int64 = 0, by: String, sum: Bool = true) -> String {
        var b = Store<RewardsState>.encodeBatch(events, stamp: Stamp(ms: ms, counter: counter, actor: by), by: by,
                                                at: Instant(ms: ms), zone: .utc).bytes
        if !sum {
            var text = String(decoding: b, as: UTF8.self)
            if let r = text.range(of: ",\"sum\":\"[0-9a-f]+\"", options: .regularExpression) { text.removeSubrange(r) }
            b = Array(text.utf8)
        }
        return String(decoding: b, as: UTF8.self)
    }

    /// Appends text to a file as a login (through a file only it can read).
    @discardableResult
    func append(_ u: String, _ text: String, to path: String) -> RunResult {
        let src = tmp + "/home-\(u)/forged-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: src, contents: Data(text.utf8))
        _ = chown(src, logins!.uid(u), logins!.gid(u))
        return shell(u, "cat \(src) >> \(path)")
    }

    /// Mum invites, dad joins, and the owner's run lets him in.
    func addDad() throws {
        let inv = rwAs("mum", "parent", "invite")
        let code = try XCTUnwrap(inv.records.first?["code"] as? String, inv.err)
        XCTAssertEqual(rwAs("dad", "parent", "join", code).code, 0)
        XCTAssertEqual(rwAs("mum", "requests").code, 0)
        XCTAssertEqual(rwAs("dad", "parent", "list").code, 0, "dad is a parent")
    }

    func balances() -> [Int?] { rwAs("mum", "child", "list").records.map { $0["balance"] as? Int } }
}
