// Progress rules: streaks, badges, today's allowance, and the small
// text gauges the dashboard draws.

extension Rewards {
    /// Consecutive days meeting the learning goal, ending today or yesterday.
    public static func streak(_ s: RewardsState, _ child: String, today: Day) -> Int {
        let goal = Int64(s.settings(for: child).dailyGoalMinutes) * 60
        func met(_ d: Day) -> Bool { s.totals(child, d).learningSeconds >= goal }
        var d = met(today) ? today : today.adding(days: -1)
        var n = 0
        while met(d) { n += 1; d = d.adding(days: -1) }
        return n
    }

    /// The longest run of consecutive days meeting the learning goal, on or
    /// before `today`: streak badges count runs that are over, so usage that
    /// arrives late still earns them.
    public static func longestStreak(_ s: RewardsState, _ child: String, through today: Day) -> Int {
        let goal = Int64(s.settings(for: child).dailyGoalMinutes) * 60
        let met = (s.days[child] ?? [:]).filter { $0.key <= today && $0.value.learningSeconds >= goal }.keys.sorted()
        var best = 0, run = 0
        var prev: Day? = nil
        for d in met {
            run = prev.map { d - $0 == 1 } ?? false ? run + 1 : 1
            best = max(best, run)
            prev = d
        }
        return best
    }

    public static let badgeNames: [(id: String, name: String)] = [
        ("first-points", "First points"), ("points-100", "100 points"), ("points-500", "500 points"), ("points-1000", "1,000 points"),
        ("goal-met", "Daily goal reached"), ("streak-3", "3-day streak"), ("streak-7", "7-day streak"), ("streak-30", "30-day streak"),
    ]

    /// Badges earned and not yet awarded; each is awarded once. Streak
    /// badges go by the longest streak so far, wherever it fell.
    public static func newBadges(_ s: RewardsState, _ child: String, today: Day) -> [String] {
        let earned = s.earned[child] ?? 0
        let goal = Int64(s.settings(for: child).dailyGoalMinutes) * 60
        let st = longestStreak(s, child, through: today)
        var due: [String] = []
        if earned >= 1 { due.append("first-points") }
        for n in [100, 500, 1000] where earned >= n { due.append("points-\(n)") }
        if (s.days[child] ?? [:]).values.contains(where: { $0.learningSeconds >= goal }) { due.append("goal-met") }
        for n in [3, 7, 30] where st >= n { due.append("streak-\(n)") }
        let have = s.badges[child] ?? []
        return due.filter { !have.contains($0) }
    }

    /// Records the badges a child has newly earned; returns them as records.
    static func awardBadges(_ tx: inout Transaction<RewardsState>, _ c: RewardsState.Child, today: Day, byline: Byline) -> [JSONObject] {
        var out: [JSONObject] = []
        for b in newBadges(tx.state, c.id, today: today) {
            tx.record(byline(["type": "badge", "child": .string(c.id), "badge": .string(b), "day": .string(today.description)]))
            out.append(["type": "badge", "child": .string(c.name), "badge": .string(b)])
        }
        return out
    }

    static func sparkline(_ xs: [Int]) -> String {
        let bars = Array("▁▂▃▄▅▆▇█")
        let top = max(1, xs.max() ?? 1)
        return String(xs.map { bars[min(7, $0 * 7 / top)] })
    }

    static func bar(_ fraction: Double, width: Int = 20) -> String {
        let n = max(0, min(width, Int((fraction * Double(width)).rounded())))
        return String(repeating: "█", count: n) + String(repeating: "░", count: width - n)
    }

    /// Reward-app time used on a day: the time counted, and the time held
    /// for review and not yet decided (the child spent it all the same;
    /// approving counts it, rejecting drops it), without its away time and
    /// what is counted already (when the state holds the day's cold part),
    /// up to `now`.
    public static func rewardUsedSeconds(_ s: RewardsState, _ child: String, day: Day, zone: Zone, now: Instant) -> Int64 {
        let counted = s.totals(child, day).rewardSeconds
        let from = zone.startOfDay(day).seconds, to = min(zone.startOfDay(day.adding(days: 1)).seconds, now.seconds)
        var held: [RewardsEngine.Span] = []
        for f in s.flags.values where f.child == child && f.status == "pending" && s.apps[f.app.lowercased()]?.category == .reward {
            let clipped = RewardsEngine.Span(max(from, f.span.start), min(to, f.span.end))
            guard clipped.seconds > 0 else { continue }
            held += RewardsEngine.subtractSorted(clipped, RewardsEngine.union(f.afk))
        }
        guard !held.isEmpty else { return counted }
        let rewarded = s.usageDay(child, day).rewarded
        return counted + RewardsEngine.union(held).flatMap { RewardsEngine.subtractSorted($0, rewarded) }.reduce(0) { $0 + $1.seconds }
    }

    static func allowanceRecord(_ s: RewardsState, _ c: RewardsState.Child, today: Day, zone: Zone, now: Instant) -> JSONObject {
        let t = s.totals(c.id, today)
        let used = Int(rewardUsedSeconds(s, c.id, day: today, zone: zone, now: now) / 60)
        return ["type": "allowance", "child": .string(c.name), "date": .string(today.description), "granted_minutes": JSON(t.grantedMinutes),
                "used_minutes": JSON(used), "left_minutes": JSON(max(0, t.grantedMinutes - used)), "balance": JSON(s.balance[c.id] ?? 0)]
    }
}
