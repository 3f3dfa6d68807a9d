// Progress rules: streaks, badges, the reward time a child has used, and the
// records the dashboard, `allowance` and a child's status file show.
//
// Invariants: a badge is awarded once; streak badges go by the longest run
// of days so far, wherever it fell, so usage that arrives late still earns
// them.

extension Rewards {
    /// Consecutive days meeting the learning goal, ending today or yesterday.
    /// (In a read without the days before the hot window, a run that
    /// reaches them goes on by their summary.)
    public static func streak(_ s: RewardsState, _ child: String, today: Day) -> Int {
        let goal = Int64(s.settings(for: child).dailyGoalMinutes) * 60
        func met(_ d: Day) -> Bool { s.totals(child, d).learningSeconds >= goal }
        let old = s.oldDays
        var d = met(today) ? today : today.adding(days: -1)
        var n = 0
        while old.map({ d >= $0.before }) ?? true, met(d) { n += 1; d = d.adding(days: -1) }
        if let o = old, d < o.before { n += o.children[child]?.run ?? 0 }
        return n
    }

    /// The longest run of consecutive days meeting the learning goal, on or
    /// before `today`: streak badges count runs that are over, so usage that
    /// arrives late still earns them.
    public static func longestStreak(_ s: RewardsState, _ child: String, through today: Day) -> Int {
        let goal = Int64(s.settings(for: child).dailyGoalMinutes) * 60
        let met = s.days.entries(child).filter { $0.day <= today && $0.totals.learningSeconds >= goal }.map(\.day)
        var best = 0, run = 0
        var prev: Day? = nil
        // Without the days before the hot window: from their summary.
        if let o = s.oldDays, let sum = o.children[child] {
            best = sum.longest
            run = sum.run
            if run > 0 { prev = o.before.adding(days: -1) }
        }
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
        if s.days.entries(child).contains(where: { $0.totals.learningSeconds >= goal }) || (s.oldDays?.children[child]?.longest ?? 0) > 0 {
            due.append("goal-met")
        }
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
        let set = s.settings(for: c.id)
        var o: JSONObject = ["type": "allowance", "child": .string(c.name), "date": .string(today.description), "granted_minutes": JSON(t.grantedMinutes),
                             "used_minutes": JSON(used), "left_minutes": JSON(max(0, t.grantedMinutes - used)), "balance": JSON(s.balance[c.id] ?? 0),
                             "as_of": .string(zone.format(now)), "locked": .bool(set.lockedUntil > Int(now.seconds))]
        // When reward apps may not run: a parent's lock, the downtime now or next.
        if set.lockedUntil > Int(now.seconds) && set.lockedUntil < RewardsEngine.lockedForever {
            o["locked_until"] = .string(zone.format(Instant(seconds: Int64(set.lockedUntil))))
        }
        let downtimes = set.downtimes(from: now, zone: zone)
        if let d = downtimes.first {
            o["downtime_start"] = .string(zone.format(d.start))
            o["downtime_end"] = .string(zone.format(d.end))
        }
        if !downtimes.isEmpty {
            o["downtimes"] = .array(downtimes.map { .object(["start": .string(zone.format($0.start)), "end": .string(zone.format($0.end))]) })
        }
        if let b = set.blocked(at: now, zone: zone) { o["blocked"] = .string(b.why) }
        return o
    }

    /// One child's dashboard, as a record (also what the child's status file holds).
    static func dashboardRecord(_ s: RewardsState, _ c: RewardsState.Child, today: Day, zone: Zone, now: Instant) -> JSONObject {
        let set = s.settings(for: c.id).on(today)
        let t = s.totals(c.id, today)
        let learning = Int(t.learningSeconds / 60), reward = Int(rewardUsedSeconds(s, c.id, day: today, zone: zone, now: now) / 60)
        let week = (0..<7).map { today.adding(days: $0 - 6) }
        let points = week.map { s.totals(c.id, $0).points }
        let bal = s.balance[c.id] ?? 0
        let affordable = min(bal / set.conversionRate, max(0, set.dailyRewardLimitMinutes - t.grantedMinutes),
                             max(0, set.weeklyRewardLimitMinutes - s.grantedThisWeek(c.id, today)))
        let recent = s.recent[c.id] ?? []
        return ["type": "dashboard", "child": .string(c.name), "id": .string(c.id), "balance": JSON(bal),
                "learning_minutes_today": JSON(learning), "reward_minutes_today": JSON(reward),
                "daily_goal_minutes": JSON(set.dailyGoalMinutes), "goal_progress": .double(min(1, Double(learning) / Double(set.dailyGoalMinutes))),
                "rewards_affordable_minutes": JSON(affordable), "streak_days": JSON(streak(s, c.id, today: today)),
                "points_last_7_days": .array(zip(week, points).map { .object(["date": .string($0.0.description), "points": JSON($0.1)]) }),
                "last_sessions": .array(recent.reversed().map { .object(["app": .string($0.app), "start": .string(zone.format(Instant(seconds: $0.start))),
                                                                          "minutes": JSON(Int(($0.end - $0.start) / 60)), "reason": .string($0.reason), "points": JSON($0.points)]) }),
                "badges": JSON((s.badges[c.id] ?? []).sorted())]
    }

    /// What `login` may read: their balance, today's reward time, badges
    /// and their requests; for a would-be parent, their join request.
    static func statusRecord(_ s: RewardsState, login: String, now: Instant, today: Day, zone: Zone) -> JSONObject {
        var o: JSONObject = ["type": "status", "login": .string(login), "as_of": .string(zone.format(now))]
        if let c = s.children.values.first(where: { $0.login == login }) {
            o["child"] = .string(c.name)
            o["dashboard"] = .object(dashboardRecord(s, c, today: today, zone: zone, now: now))
            o["allowance"] = .object(allowanceRecord(s, c, today: today, zone: zone, now: now))
        }
        let mine = s.requests.values.filter { $0.from == login && $0.day >= today.adding(days: -7) }.sorted { ($0.at, $0.seq, $0.id) < ($1.at, $1.seq, $1.id) }
        o["requests"] = .array(mine.map { r in
            .object(["id": .string(r.id), "kind": .string(r.kind), "minutes": JSON(r.minutes), "status": .string(r.status), "reason": JSON(r.reason),
                     "date": .string(r.day.description)])
        })
        return o
    }
}
