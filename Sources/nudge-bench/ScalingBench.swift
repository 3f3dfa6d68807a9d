// Ten years of history against one: what the commands cron and status bars
// run cost must not grow with the years behind them (the snapshot holds
// what they read). Each pair of stores is seeded alike, at the same rate per
// year, one over one year and one over ten; their runs interleaved.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import NudgeKit

/// Median wall times of two commands, their runs interleaved.
func interleaved(_ a: ([String], [String: String]), _ b: ([String], [String: String]), runs: Int) -> (a: Double, b: Double) {
    sync()
    for _ in 0..<5 { _ = timeRun(a.0, env: a.1); _ = timeRun(b.0, env: b.1) }  // warm the page cache
    var ta: [Double] = [], tb: [Double] = []
    for _ in 0..<runs {
        ta.append(timeRun(a.0, env: a.1))
        tb.append(timeRun(b.0, env: b.1))
    }
    return (median(ta), median(tb))
}

@MainActor func reportScaling(_ label: String, _ r: (a: Double, b: Double), goal: Double) {
    let x = r.b / r.a
    record(label, "\(fmt(x))× one year (\(fmt(r.b)) ms; one year \(fmt(r.a)) ms)", goal: "≤ \(fmt(goal, 1))× one year", met: x <= goal)
}

private func appendFile(_ path: String, _ bytes: [UInt8]) throws {
    let fd = try Sys.openForAppend(path)
    _ = Sys.writeAll(fd: fd, bytes)
    close(fd)
}

@MainActor func scalingBench(bin: String, tmp: String, zone: String, runs: Int) throws {
    let ny = try Zone.named(zone)
    let n = max(11, runs / 2)
    print("ten years of history against one (\(n) runs each, interleaved):")

    // tenclub: 95 to 179 unlocks a day, one batch each, as `unlock` writes them.
    let nowText = "2026-11-22T21:00:00-05:00"
    let lastDay = Day(year: 2026, month: 11, day: 21)
    var tenclubEnv: [[String: String]] = []
    for years in [1, 10] {
        let dir = Sys.join(tmp, "tenclub-\(years)y")
        try? Sys.makeDirectories(Sys.join(dir, "journal"))
        var rng = SeededRandom(seed: 2026)
        var journal = [UInt8]()
        for back in (0..<(365 * years)).reversed() {
            let day = lastDay.adding(days: -back)
            for k in 0..<Int.random(in: 95...179, using: &rng) {
                let at = ny.resolve(LocalDateTime(day: day, time: TimeOfDay(secondsOfDay: 7 * 3600 + k * 300)))
                let e: JSONObject = ["type": "unlock", "id": .string(IDs.make(using: &rng)), "at": .string(ny.format(at)), "day": .string(day.description)]
                journal += Store<TenclubState>.encodeBatch([e], stamp: Stamp(ms: at.ms, actor: "bench"), by: "bench", at: at, zone: ny).bytes
            }
        }
        try appendFile(Sys.join(dir, "journal/bench.ndjson"), journal)
        let env = ["TENCLUB_DATA_DIR": dir, "TZ": zone, "TENCLUB_NOW": nowText, "TENCLUB_ACTOR": "bench"]
        _ = timeRun([Sys.join(bin, "tenclub"), "unlock"], env: env)  // the snapshot
        let nowEpoch = RFC3339.parse(nowText)!.instant.ms / 1000
        for k in 0..<20 { _ = timeRun([Sys.join(bin, "tenclub"), "unlock", "--at", "@\(nowEpoch - 60 - Int64(k) * 30)"], env: env) }
        tenclubEnv.append(env)
    }
    let status = [Sys.join(bin, "tenclub"), "status"]
    reportScaling("tenclub status, ten years of unlocks", interleaved((status, tenclubEnv[0]), (status, tenclubEnv[1]), runs: n), goal: 1.1)

    // yomo: 300 recurring reminders made at the start, then 9,000 one-time
    // ones a year, each marked done two weeks after it was made.
    let yomoNow = Instant(ms: RFC3339.parse("2026-11-22T10:07:00-05:00")!.instant.ms)
    let rules: [Recurrence] = [
        Recurrence(kind: .daily), Recurrence(kind: .weekly, days: [1, 3, 5]), Recurrence(kind: .custom, interval: 3, unit: .day),
        Recurrence(kind: .custom, interval: 2, unit: .week, days: [2]), Recurrence(kind: .custom, interval: 1, unit: .month, monthOrdinal: -1, monthWeekday: 5),
        Recurrence(kind: .custom, interval: 1, unit: .day, basedOnCompletion: true),
    ]
    var yomoEnv: [[String: String]] = []
    for years in [1, 10] {
        let dir = Sys.join(tmp, "yomo-\(years)y")
        try? Sys.makeDirectories(Sys.join(dir, "journal"))
        var rng = SeededRandom(seed: 9)
        var journal = [UInt8]()
        let startMs = yomoNow.ms - Int64(years) * 365 * 86_400_000
        let count = 9_000 * years
        var pending: [(id: String, doneAt: Int64)] = []
        var counter: Int64 = 0
        func add(_ e: JSONObject, _ ms: Int64) {
            counter += 1
            journal += Store<YomoState>.encodeBatch([e], stamp: Stamp(ms: ms, counter: counter, actor: "bench"), by: "bench", at: Instant(ms: ms), zone: ny).bytes
        }
        for k in 0..<300 {
            let at = Instant(ms: startMs + Int64(k) * 1000)
            let anchor = LocalDateTime(day: ny.day(of: at).adding(days: 1), time: TimeOfDay(hour: 6 + k % 16, minute: 0))
            let rule = rules[k % rules.count]
            let trigger = Yomo.firstTrigger(anchor: anchor, recurrence: rule, now: at, zone: ny) ?? at
            add(["type": "created", "id": .string(IDs.make(using: &rng)), "title": .string("every so often \(k)"), "notes": "",
                 "anchor": .string(anchor.description), "recurrence": rule.json, "trigger_at": .string(ny.format(trigger)),
                 "zone": .string(zone), "at": .string(ny.format(at))], at.ms)
        }
        for k in 0..<count {
            let ms = startMs + 3_600_000 + Int64(k) * (Int64(years) * 365 * 86_400_000 / Int64(count))
            while let first = pending.first, first.doneAt <= ms {
                add(["type": "completed", "id": .string(first.id), "next": .null, "at": .string(ny.format(Instant(ms: first.doneAt)))], first.doneAt)
                pending.removeFirst()
            }
            let at = Instant(ms: ms)
            let anchor = LocalDateTime(day: ny.day(of: at).adding(days: Int.random(in: 1...10, using: &rng)), time: TimeOfDay(hour: 9, minute: 0))
            let id = IDs.make(using: &rng)
            let trigger = Yomo.firstTrigger(anchor: anchor, recurrence: .once, now: at, zone: ny) ?? at
            add(["type": "created", "id": .string(id), "title": .string("reminder \(k)"), "notes": "", "anchor": .string(anchor.description),
                 "recurrence": Recurrence.once.json, "trigger_at": .string(ny.format(trigger)), "zone": .string(zone), "at": .string(ny.format(at))], ms)
            pending.append((id, ms + 14 * 86_400_000))
        }
        try appendFile(Sys.join(dir, "journal/bench.ndjson"), journal)
        let env = ["YOMO_DATA_DIR": dir, "TZ": zone, "YOMO_NOW": "2026-11-22T10:07:00-05:00", "YOMO_ACTOR": "bench"]
        _ = timeRun([Sys.join(bin, "yomo"), "due"], env: env)  // the snapshot, and what came due announced
        yomoEnv.append(env)
    }
    let due = [Sys.join(bin, "yomo"), "due"]
    reportScaling("yomo due, ten years of reminders made and done", interleaved((due, yomoEnv[0]), (due, yomoEnv[1]), runs: n), goal: 1.1)

    // rewards: 100,000 sessions a year for three children, through ingest.
    var rewardsEnv: [[String: String]] = []
    let apps = ["Duolingo", "Khan Academy", "Minecraft", "Firefox"], kids = ["Alex", "Bo", "Cy"]
    let nowSeconds: Int64 = 1_795_399_200  // 2026-11-22T21:00:00-05:00
    for years in [1, 10] {
        let dir = Sys.join(tmp, "rewards-\(years)y")
        let env = ["REWARDS_DATA_DIR": dir, "TZ": zone, "REWARDS_NOW": nowText, "REWARDS_USER": "parent"]
        for args in [["init"], ["child", "add", "Alex"], ["child", "add", "Bo"], ["child", "add", "Cy"], ["app", "set", "Duolingo", "--learning"],
                     ["app", "set", "Khan Academy", "--learning"], ["app", "set", "Minecraft", "--reward"], ["app", "set", "Firefox", "--ignore"],
                     ["settings", "set", "min_session_minutes", "0"], ["settings", "set", "max_session_age_days", "3650"]] {
            _ = timeRun([Sys.join(bin, "rewards")] + args, env: env)
        }
        let count = 100_000 * years
        // Within the longest age a session may have (3,650 days).
        let span = (Int64(years) * 365 - 2) * 86_400
        let first = nowSeconds - span
        let spacing = span * 3 / Int64(count)
        var text = [UInt8]()
        text.reserveCapacity(count * 110)
        for i in 0..<count {
            let o: JSONObject = ["child": .string(kids[i % 3]), "app": .string(apps[(i / 3) % 4]),
                                 "start": .string(ny.format(Instant(seconds: first + Int64(i / 3) * spacing))), "duration_s": 30]
            o.write(into: &text)
            text.append(0x0A)
        }
        let input = Sys.join(tmp, "sessions-\(years)y.ndjson")
        try appendFile(input, text)
        _ = timeRun([Sys.join(bin, "rewards"), "ingest", input], env: env)
        rewardsEnv.append(env)
    }
    let dashboard = [Sys.join(bin, "rewards"), "dashboard"]
    reportScaling("rewards dashboard, ten years of sessions", interleaved((dashboard, rewardsEnv[0]), (dashboard, rewardsEnv[1]), runs: n), goal: 1.1)
}
