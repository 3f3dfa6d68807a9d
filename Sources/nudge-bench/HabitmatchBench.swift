// habitmatch's figures: a pool of 10,000 members as members build one
// (`nudge-bench --only habitmatch` measures these alone, for profiling with
// --keep).
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import NudgeKit

@MainActor func habitmatchBench(bin: String, tmp: String, zone: String, runs: Int) {
    // habitmatch: a pool of 10,000 members as members build one: each joins
    // and swipes 20 times, one command each (a synced pool: 21 batches in the
    // member's journal), on members who share a habit.
    let pool = Sys.join(tmp, "pool")
    try? Sys.makeDirectories(Sys.join(pool, "journal"), mode: 0o755)
    let hnow: Int64 = 1_795_359_600_000  // HABITMATCH_NOW below
    let zones = ["America/New_York", "America/Chicago", "America/Los_Angeles", "Europe/London", "Europe/Berlin",
                 "Asia/Kolkata", "Asia/Tokyo", "Australia/Sydney", "America/Sao_Paulo", "Africa/Lagos"]
    var hrng = SeededRandom(seed: 10_000)
    let hmembers = 10_000
    var byHabit: [String: [Int]] = [:]
    var memberHabits: [[String]] = []
    var joinedAt: [Int64] = []
    for k in 0..<hmembers {
        var habits: [JSON] = []
        var ids: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &hrng) {
            let c = Habitmatch.catalog.randomElement(using: &hrng)!
            if !ids.contains(c.id) { ids.append(c.id); habits.append(.object(["id": .string(c.id), "name": .string(c.name)])) }
        }
        for id in ids { byHabit[id, default: []].append(k) }
        memberHabits.append(ids)
        let at = Instant(ms: hnow - Int64.random(in: 2...60, using: &hrng) * 86_400_000)
        joinedAt.append(at.ms)
        let e: JSONObject = ["type": "joined", "name": .string("Member \(k)"), "timezone": .string(zones.randomElement(using: &hrng)!),
                             "bio": "Trying to keep it up.", "habits": .array(habits)]
        let b = Store<HabitmatchState>.encodeBatch([e], stamp: Stamp(ms: at.ms, actor: "m\(k)"), by: "m\(k)", at: at, zone: .utc).bytes
        guard let fd = try? Sys.openForAppend(Sys.join(pool, "journal/m\(k).ndjson"), mode: 0o644) else { fail("cannot seed the pool in \(pool)") }
        _ = Sys.writeAll(fd: fd, b)
        close(fd)
    }
    for k in 0..<hmembers {
        var bytes: [UInt8] = []
        var t = joinedAt[k] + 3_600_000
        for _ in 0..<20 {
            let peers = byHabit[memberHabits[k].randomElement(using: &hrng)!]!
            let other = peers.randomElement(using: &hrng)!
            if other == k { continue }
            t += Int64.random(in: 60_000...3_600_000, using: &hrng)
            let at = Instant(ms: t)
            let e: JSONObject = ["type": "swiped", "target": .string("m\(other)"), "right": .bool(Int.random(in: 0..<3, using: &hrng) == 0)]
            bytes += Store<HabitmatchState>.encodeBatch([e], stamp: Stamp(ms: t, actor: "m\(k)"), by: "m\(k)", at: at, zone: .utc).bytes
        }
        guard let fd = try? Sys.openForAppend(Sys.join(pool, "journal/m\(k).ndjson"), mode: 0o644) else { fail("cannot seed the pool in \(pool)") }
        _ = Sys.writeAll(fd: fd, bytes)
        close(fd)
    }
    let henv = ["HABITMATCH_DATA_DIR": Sys.join(tmp, "hm"), "HABITMATCH_POOL": pool, "TZ": zone, "HABITMATCH_NOW": "2026-11-22T10:00:00-05:00"]
    _ = timeRun([Sys.join(bin, "habitmatch"), "--user", "me", "join", "--name", "Me", "--habit", "read", "--habit", "exercise"], env: henv)
    _ = timeRun([Sys.join(bin, "habitmatch"), "--user", "me", "candidates"], env: henv)  // builds the private snapshot once
    let hruns = max(20, runs / 4)
    let cand = measure([Sys.join(bin, "habitmatch"), "--user", "me", "candidates"], env: henv, runs: hruns)
    let hwrite = measure([Sys.join(bin, "habitmatch"), "--user", "me", "like", "m\(byHabit["read"]!.first!)"], env: henv, runs: hruns)
    print("habitmatch with a pool of 10,000 members (join and 20 swipes each), median of \(hruns) runs:")
    record("habitmatch candidates, a pool of 10,000 members (join + 20 swipes each)", "\(fmt(cand)) ms", goal: "≤ 50 ms", met: cand <= 50)
    record("habitmatch like (a write), the same pool", "\(fmt(hwrite)) ms", goal: "≤ 100 ms", met: hwrite <= 100)
}
