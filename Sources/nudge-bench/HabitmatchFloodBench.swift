// habitmatch in a host pool under one member's flood: three real logins
// (groupadd/useradd, run through setpriv; root only), a member's read and
// write timed before and after the third fills journal/, the one folder
// every member may write in, with 100,000 junk names (`nudge-bench --only
// habitmatch-flood` measures this alone). The goal is #40's: under any
// flood one member can make, every other member's command costs at most
// 1.5 times what it does unflooded.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import NudgeKit

@MainActor func habitmatchFloodBench(bin: String, tmp: String, runs: Int, files: Int = 100_000) {
    let tools = ["/usr/sbin/groupadd", "/usr/sbin/useradd", "/usr/sbin/userdel", "/usr/sbin/groupdel", "/usr/bin/setpriv"]
    guard geteuid() == 0, tools.allSatisfy(Sys.fileExists) else {
        record("habitmatch in a host pool flooded by one member", "not measured: needs root, useradd and setpriv")
        return
    }
    let tag = "nbf\(getpid() % 100_000)"
    let group = tag + "g", logins = ["a", "b", "c"].map { tag + $0 }
    let top = Sys.join(tmp, "hostpool")
    func quiet(_ argv: [String]) -> Int32 { (try? Subprocess.run(argv, env: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], quiet: true)) ?? -1 }
    defer {
        for l in logins { _ = quiet(["/usr/sbin/userdel", l]) }
        _ = quiet(["/usr/sbin/groupdel", group])
        _ = quiet(["/bin/rm", "-rf", top])
    }
    try? Sys.makeDirectories(top, mode: 0o755)
    _ = chmod(tmp, 0o755)
    guard quiet(["/usr/sbin/groupadd", group]) == 0 else { fail("groupadd \(group) failed") }
    for l in logins {
        guard quiet(["/usr/sbin/useradd", "-M", "-N", "-g", group, "-s", "/usr/sbin/nologin", l]) == 0 else { fail("useradd \(l) failed") }
        try? Sys.makeDirectories(Sys.join(top, "home-" + l), mode: 0o700)
    }
    guard let gr = getgrnam(group) else { fail("no group \(group)") }
    let gid = gr.pointee.gr_gid
    let pool = Sys.join(top, "pool")
    let hm = Sys.join(bin, "habitmatch")
    guard quiet([hm, "pool", "init", pool, "--group", group]) == 0 else { fail("habitmatch pool init failed") }
    func argv(_ l: String, _ args: [String]) -> [String] {
        ["/usr/bin/setpriv", "--reuid=\(Users.uid(of: l) ?? 65534)", "--regid=\(gid)", "--clear-groups", "--", hm] + args
    }
    func env(_ l: String) -> [String: String] {
        ["HOME": Sys.join(top, "home-" + l), "HABITMATCH_DATA_DIR": Sys.join(top, "home-\(l)/data"), "HABITMATCH_POOL": pool, "USER": l,
         "TZ": "America/New_York"]
    }
    for l in logins {
        _ = chown(Sys.join(top, "home-" + l), Users.uid(of: l) ?? 65534, gid)
        _ = timeRun(argv(l, ["join", "--name", "Member " + l, "--habit", "exercise", "--habit", "read", "--timezone", "America/New_York"]), env: env(l))
    }
    let (reader, other, flooder) = (logins[0], logins[1], logins[2])
    let hruns = max(20, runs / 4)
    let journal = Sys.join(pool, "journal"), fuid = Users.uid(of: flooder) ?? 65534
    var made = 0
    /// One more name of the flooder's in journal/ (what moves the folder, so that no reader's remembered listing holds).
    func plant() {
        let name = made % 2 == 0 ? "\(flooder)~\(made + 2).ndjson" : "nobody\(made).ndjson"
        made += 1
        let fd = open(Sys.join(journal, name), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o640)
        if fd >= 0 { _ = fchown(fd, fuid, gid); close(fd) }
    }
    /// The reader's read, each run just after the flooder moved journal/.
    func readAfterAChange() -> Double {
        for _ in 0..<3 { plant(); _ = timeRun(argv(reader, ["candidates"]), env: env(reader)) }
        return median((0..<hruns).map { _ in plant(); return timeRun(argv(reader, ["candidates"]), env: env(reader)) })
    }
    let read0 = readAfterAChange()
    let write0 = measure(argv(reader, ["like", other]), env: env(reader), runs: hruns)
    // The flood: names of the flooder's own and of nobody's, owned by the flooder.
    while made < files { plant() }
    let read1 = readAfterAChange()
    let write1 = measure(argv(reader, ["like", other]), env: env(reader), runs: hruns)
    let owner = measure([hm, "pool", "match"], env: ["HABITMATCH_POOL": pool, "HABITMATCH_DATA_DIR": Sys.join(top, "owner"), "TZ": "America/New_York"],
                        runs: 5)
    print("habitmatch in a host pool of 3 logins, one of whom put \(files) junk names in journal/ (median of \(hruns) runs, setpriv included):")
    record("habitmatch candidates, a host pool flooded with \(files) junk names by one member (who adds one before each run)", "\(fmt(read1 / read0))× unflooded (\(fmt(read1)) ms; unflooded \(fmt(read0)) ms)",
           goal: "≤ 1.5× unflooded", met: read1 <= 1.5 * read0)
    record("habitmatch like (a write), the same", "\(fmt(write1 / write0))× unflooded (\(fmt(write1)) ms; unflooded \(fmt(write0)) ms)",
           goal: "≤ 1.5× unflooded", met: write1 <= 1.5 * write0)
    record("habitmatch pool match (the owner's run, which lists it all), the same", "\(fmt(owner)) ms")
}
