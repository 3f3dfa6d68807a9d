// Notification rules: one notification per person per run, built from
// what has not been said yet (the "notified" keys). Each notification's id
// names the person, the day and what it says (a digest of its keys, each
// said once), so no two notifications share an id and a delivery script
// may drop repeats by id. The parents' `notify` setting is theirs alone; a
// child's notifications follow the child's own (`settings(for:)`). With two
// parents, each is told the other's changes and the conflicts merged
// (`coParentNotifications`).

extension Rewards {
    /// One notification per person per run, from what has not been said yet.
    public static func notifications(_ s: RewardsState, today: Day, prefix: String, zone: Zone,
                                     now: Instant) -> [(keys: [String], record: JSONObject)] {
        var out: [(keys: [String], record: JSONObject)] = []
        for c in s.children.values.sorted(by: { $0.name < $1.name }) {
            var lines: [String] = []
            var keys: [String] = []
            let t = s.totals(c.id, today)
            let k1 = "points|\(c.id)|\(today)|\(t.points)"
            if t.points > 0 && !s.notified.contains(k1) { lines.append("You earned \(t.points) points today."); keys.append(k1) }
            let set = s.settings(for: c.id).on(today)
            let affordable = min((s.balance[c.id] ?? 0) / set.conversionRate, max(0, set.dailyRewardLimitMinutes - t.grantedMinutes))
            let k2 = "available|\(c.id)|\(today)"
            let redeem = "\(prefix) redeem \(c.name) \(affordable)"
            let used = Int(rewardUsedSeconds(s, c.id, day: today, zone: zone, now: now) / 60)
            let k3 = "almost|\(c.id)|\(today)"
            let almost = t.grantedMinutes > 0 && t.grantedMinutes - used <= 5 && !s.notified.contains(k3)
            // One message says both: what is left of the time redeemed, and
            // what more may be redeemed (never "yours" beside "0 min left").
            if almost {
                let left = max(0, t.grantedMinutes - used)
                lines.append("The reward time you redeemed is almost up (\(left) min left)"
                             + (affordable > 0 ? "; \(affordable) more minutes are yours to redeem: \(redeem)" : "."))
                keys.append(k3)
                if affordable > 0 { keys.append(k2) }
            } else if affordable > 0 && !s.notified.contains(k2) {
                lines.append("\(affordable) reward minutes are yours to redeem: \(redeem)")
                keys.append(k2)
            }
            if !lines.isEmpty && set.notify == 1 {
                out.append((keys, NotificationRecord(tool: "rewards", id: "child-\(c.id)-\(today)-\(digest(keys))", title: "Hi \(c.name)!", body: lines.joined(separator: "\n"),
                                                     extra: ["to": .string(c.login ?? c.name), "role": "child"]).record))
            }
        }
        var lines: [String] = []
        var keys: [String] = []
        for c in s.children.values.sorted(by: { $0.name < $1.name }) {
            let t = s.totals(c.id, today)
            let set = s.settings(for: c.id).on(today)
            let k = "limit|\(c.id)|\(today)"
            if t.grantedMinutes >= set.dailyRewardLimitMinutes && set.dailyRewardLimitMinutes > 0 && !s.notified.contains(k) {
                lines.append("\(c.name) reached today's reward limit (\(set.dailyRewardLimitMinutes) min)."); keys.append(k)
            }
            for b in (s.badges[c.id] ?? []).sorted() where !s.notified.contains("badge|\(c.id)|\(b)") {
                lines.append("\(c.name) earned a badge: \(badgeNames.first { $0.id == b }?.name ?? b)."); keys.append("badge|\(c.id)|\(b)")
            }
        }
        let pending = s.flags.values.filter { $0.status == "pending" }
        let kf = "flags|" + pending.map(\.id).sorted().joined(separator: ",")
        if !pending.isEmpty && !s.notified.contains(kf) { lines.append("\(pending.count) session\(pending.count == 1 ? "" : "s") to review: \(prefix) flags"); keys.append(kf) }
        // Each parent gets the family update (a co-parent too); the keys are
        // said once for the family.
        if !lines.isEmpty, s.settings.notify == 1 {
            for (n, p) in s.parents.sorted().enumerated() {
                out.append((n == 0 ? keys : [], NotificationRecord(tool: "rewards", id: "parent-\(p)-\(today)-\(digest(keys))", title: "rewards: family update",
                                                                  body: lines.joined(separator: "\n"), extra: ["to": .string(p), "role": "parent"]).record))
            }
        }
        return out
    }

    /// For each parent: the other parent's changes and the conflicts merged
    /// since they were last told, batched into one notification.
    public static func coParentNotifications(_ s: RewardsState, today: Day) -> [(keys: [String], record: JSONObject)] {
        guard s.parents.count > 1 || !s.conflicts.isEmpty else { return [] }
        var out: [(keys: [String], record: JSONObject)] = []
        for p in s.parents.sorted() {
            var lines: [String] = []
            var keys: [String] = []
            for c in s.conflicts where !s.notified.contains("conflict|\(p)|\(c.id)") && !s.superseded.contains(c.id) {
                lines.append("Merged: " + c.text)
                keys.append("conflict|\(p)|\(c.id)")
            }
            let theirs = s.changes.filter { $0.by != p && s.parents.contains($0.by) && !s.notified.contains("change|\(p)|\($0.id)") }
            for c in theirs.suffix(10) { lines.append(c.text) }
            if theirs.count > 10 { lines.append("… and \(theirs.count - 10) more: rewards log") }
            keys += theirs.map { "change|\(p)|\($0.id)" }
            guard !lines.isEmpty, s.settings.notify == 1 else { continue }
            out.append((keys, NotificationRecord(tool: "rewards", id: "coparent-\(p)-\(today)-\(digest(keys))", title: "rewards: changes by the other parent",
                                                 body: lines.joined(separator: "\n"), extra: ["to": .string(p), "role": "parent"]).record))
        }
        return out
    }

    /// Twelve hex digits naming what a notification says.
    static func digest(_ keys: [String]) -> String {
        String(Checksum.hex(Checksum.hash(Array(keys.sorted().joined(separator: "\n").utf8))).prefix(12))
    }
}
