// A signed sync folder beside an unsigned one (#44): the same family, the
// same changes, one folder with an allowed_signers list and each change
// signed with the writer's SSH key. A status-bar read with nothing new must
// cost what it costs unsigned; a write adds one signature and one check of
// it; a new copy verifies each change once (`nudge-bench --only signed`).
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import NudgeKit

@MainActor func signedBench(bin: String, tmp: String, zone: String, runs: Int, changes: Int = 200) {
    guard let keygen = ["/usr/bin/ssh-keygen", "/bin/ssh-keygen", "/usr/local/bin/ssh-keygen"].first(where: Sys.fileExists) else {
        record("rewards in a signed sync folder", "not measured: needs ssh-keygen (openssh-client)")
        return
    }
    let top = Sys.join(tmp, "signed")
    try? Sys.makeDirectories(Sys.join(top, "keys"))
    for who in ["mum", "dad"] {
        guard (try? Subprocess.run([keygen, "-q", "-t", "ed25519", "-N", "", "-C", who, "-f", Sys.join(top, "keys/" + who)], quiet: true)) == 0 else {
            fail("ssh-keygen could not make a key")
        }
    }
    let rewards = Sys.join(bin, "rewards")
    func env(_ folder: String, _ who: String) -> [String: String] {
        var e = ["REWARDS_DATA_DIR": Sys.join(top, "\(folder)-\(who)"), "REWARDS_SYNC_DIR": Sys.join(top, folder), "REWARDS_ACTOR": who + "laptop",
                 "REWARDS_USER": who, "TZ": zone, "REWARDS_NOW": "2026-11-22T21:00:00-05:00"]
        // (With no key, `init` leaves the unsigned folder unsigned.)
        if folder == "signed" { e["REWARDS_SIGNING_KEY"] = Sys.join(top, "keys/" + who) }
        return e
    }
    for folder in ["unsigned", "signed"] {
        try? Sys.makeDirectories(Sys.join(top, folder))
        if folder == "signed" {
            var list = ""
            for who in ["mum", "dad"] {
                let pub = (try? Sys.readFile(Sys.join(top, "keys/\(who).pub"))) ?? nil
                list += who + " " + String(decoding: pub ?? [], as: UTF8.self)
            }
            try? Sys.writeFileAtomically(Sys.join(top, "signed/allowed_signers"), Array(list.utf8), mode: 0o644)
        }
        _ = timeRun([rewards, "init"], env: env(folder, "mum"))
        _ = timeRun([rewards, "child", "add", "Alex"], env: env(folder, "mum"))
        var code = ""
        var captured: [UInt8] = []
        if let r = try? Subprocess.capture("'\(rewards)' parent invite --format json", env: env(folder, "mum")), r.0 == 0 { captured = r.1 }
        if let o = try? captured.withUnsafeBytes({ (raw) throws(JSONParseError) in try JSON.parseObject(raw) }), let c = o["code"]?.string { code = c }
        _ = timeRun([rewards, "parent", "join", code], env: env(folder, "dad"))
        for k in 0..<changes {
            let who = k % 2 == 0 ? "mum" : "dad"
            _ = timeRun([rewards, "adjust", "Alex", "+1", "--reason", "change \(k)"], env: env(folder, who))
        }
        _ = timeRun([rewards, "dashboard"], env: env(folder, "mum"))
    }
    print("rewards in a sync folder of two parents' laptops, \(changes) changes, unsigned and signed (median of \(runs) runs):")
    // Nothing new: the status bar's read.
    let widget = ["widget", "Alex", "--style", "waybar"]
    for _ in 0..<3 { _ = timeRun([rewards] + widget, env: env("signed", "mum")); _ = timeRun([rewards] + widget, env: env("unsigned", "mum")) }
    var s: [Double] = [], u: [Double] = []
    for _ in 0..<runs {
        s.append(timeRun([rewards] + widget, env: env("signed", "mum")))
        u.append(timeRun([rewards] + widget, env: env("unsigned", "mum")))
    }
    let (rs, ru) = (median(s), median(u))
    record("rewards widget, signed folder, nothing new", "\(fmt(rs / ru))× unsigned (\(fmt(rs)) ms; unsigned \(fmt(ru)) ms)",
           goal: "≤ 1.1× unsigned", met: rs <= 1.1 * ru)
    // A write: one signature and one check of it.
    let wruns = max(10, runs / 4)
    var ws: [Double] = [], wu: [Double] = []
    for k in 0..<wruns {
        ws.append(timeRun([rewards, "adjust", "Alex", "+1", "--reason", "bench \(k)"], env: env("signed", "dad")))
        wu.append(timeRun([rewards, "adjust", "Alex", "+1", "--reason", "bench \(k)"], env: env("unsigned", "dad")))
    }
    let (xs, xu) = (median(ws), median(wu))
    let sign = median((0..<wruns).map { _ in
        let start = Sys.monotonicNanos()
        _ = try? Subprocess.run([keygen, "-Y", "sign", "-q", "-f", Sys.join(top, "keys/dad"), "-n", "nudge-rewards"], stdin: Array("a message\n".utf8), quiet: true)
        return Double(Sys.monotonicNanos() - start) / 1e6
    })
    record("rewards adjust (a write), signed folder", "+\(fmt(xs - xu)) ms over unsigned (\(fmt(xs)) ms; unsigned \(fmt(xu)) ms; one ssh-keygen -Y sign \(fmt(sign)) ms)",
           goal: "≤ one signing and one check (2 × \(fmt(sign)) ms)", met: xs - xu <= 2.5 * sign)
    // A new copy (a third laptop): every change verified once, then remembered.
    let fresh = env("signed", "mum").merging(["REWARDS_DATA_DIR": Sys.join(top, "signed-new")]) { $1 }
    let first = timeRun([rewards] + widget, env: fresh)
    let second = median((0..<5).map { _ in timeRun([rewards] + widget, env: fresh) })
    record("rewards widget on a new copy of the signed folder (\(changes + wruns + 3) changes to verify)", "first run \(fmt(first)) ms, then \(fmt(second)) ms")
}
