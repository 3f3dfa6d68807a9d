// rewards under a spool flood: a child's login drops N request files in the
// family folder's spool before root's cron runs `rewards enforce`, and a
// family's journal holds N requests when a parent reads `rewards log`. Each
// is measured at 7,000 and 70,000 requests and reported per request, so
// that the two sizes show whether the cost is linear (the goal: the
// per-request figure at 70,000 at most 1.5 times the one at 7,000).
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import NudgeKit

/// Times `enforce` on a flooded spool and `log` over a journal of requests.
@MainActor func rewardsFloodBench(bin: String, tmp: String, zone: String, now: String) {
    let rewards = Sys.join(bin, "rewards")
    let sizes = [7_000, 70_000]
    var enforceMs: [Double] = [], logMs: [Double] = [], logAllMs: [Double] = []
    for n in sizes {
        // enforce: a family folder of this login's, its spool flooded anew before each run.
        let top = Sys.join(tmp, "flood-\(n)")
        try? Sys.makeDirectories(top)
        _ = chmod(top, 0o700)
        let family = Sys.join(top, "family")
        let fenv = ["REWARDS_DATA_DIR": Sys.join(top, "data"), "REWARDS_FAMILY": family, "TZ": zone, "REWARDS_NOW": now]
        for args in [["init"], ["child", "add", "Alex"]] { _ = timeRun([rewards] + args, env: fenv) }
        let line = Array("{\"kind\":\"redeem\",\"minutes\":1}\n".utf8)
        var times: [Double] = []
        for trial in 0..<3 {
            for i in 0..<n {
                let fd = open(Sys.join(family, "requests/\(trial)-\(i).json"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o640)
                guard fd >= 0 else { fail("cannot write the spool in \(family): \(Sys.errnoString())") }
                _ = Sys.writeAll(fd: fd, line)
                close(fd)
            }
            sync()  // the spool just written, flushed (as before every timed figure)
            // A real run (a dry run takes nothing from the spool); the
            // family's child has no login, so nothing is ended.
            times.append(timeRun([rewards, "enforce", "-q"], env: fenv))
        }
        enforceMs.append(median(times))

        // log: a data directory whose journal holds n requests, 20 a batch (a run's turn).
        let ldir = Sys.join(top, "log")
        try? Sys.makeDirectories(Sys.join(ldir, "journal"))
        let ny = (try? Zone.named(zone)) ?? .utc
        let t0 = RFC3339.parse(now)!.instant.ms - Int64(n) * 1000
        let day = ny.day(of: Instant(ms: t0)).description
        var journal = Store<RewardsState>.encodeBatch(
            [["type": "family_created", "owner": "parent", "by": "parent"], ["type": "child_added", "id": "c1", "name": "Alex", "login": "alex", "by": "parent"],
             ["type": "adjust", "child": "c1", "points": 1000, "reason": "bench", "day": .string(day), "by": "parent"]],
            stamp: Stamp(ms: t0, actor: "bench"), by: "parent", at: Instant(ms: t0), zone: ny).bytes
        var rng = SeededRandom(seed: UInt64(n))
        for b in 0..<(n / 20) {
            let ms = t0 + Int64(b + 1) * 1000
            let events: [JSONObject] = (0..<20).map { _ in
                ["type": "request", "id": .string(IDs.make(using: &rng)), "from": "alex", "kind": "redeem", "minutes": 1, "at": .int(ms),
                 "day": .string(day), "by": "parent"]
            }
            journal += Store<RewardsState>.encodeBatch(events, stamp: Stamp(ms: ms, actor: "bench"), by: "parent", at: Instant(ms: ms), zone: ny).bytes
        }
        let jfd = (try? Sys.openForAppend(Sys.join(ldir, "journal/bench.ndjson"))) ?? -1
        guard jfd >= 0, Sys.writeAll(fd: jfd, journal) else { fail("cannot write the journal in \(ldir)") }
        close(jfd)
        let lenv = ["REWARDS_DATA_DIR": ldir, "REWARDS_USER": "parent", "REWARDS_ACTOR": "bench", "TZ": zone, "REWARDS_NOW": now]
        _ = timeRun([rewards, "dashboard"], env: lenv)  // the first read makes the snapshot
        sync()
        logMs.append(median((0..<3).map { _ in timeRun([rewards, "log"], env: lenv) }))
        logAllMs.append(median((0..<3).map { _ in timeRun([rewards, "log", "--limit", "\(n + 100)"], env: lenv) }))
    }
    print("rewards under a spool flood (requests at \(sizes.map(String.init).joined(separator: " and "))):")
    func perRequest(_ label: String, _ ms: [Double]) {
        let each = zip(ms, sizes).map { $0 / Double($1) * 1000 }
        let growth = each[1] / each[0]
        record("\(label) (\(sizes[1]) requests)", "\(fmt(ms[1], 0)) ms, \(fmt(each[1])) µs a request (\(fmt(ms[0], 0)) ms, \(fmt(each[0])) µs at \(sizes[0]))",
               goal: "linear: ≤ 1.5× the figure a request at \(sizes[0])", met: growth <= 1.5)
    }
    perRequest("rewards enforce (root's cron), the spool flooded", enforceMs)
    perRequest("rewards log (the last 50), a journal of requests", logMs)
    perRequest("rewards log of every entry, a journal of requests", logAllMs)
}
