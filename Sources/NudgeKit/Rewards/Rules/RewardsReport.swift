// Report rules: learning and reward time and points, grouped by day,
// week, app or category; CSV quoting.
//
// Invariants: rows come by child, then group, in order; a CSV cell that a
// spreadsheet would take for a formula is neutralised.

extension Rewards {
    /// Rows of (child, group, learning seconds, reward seconds, points,
    /// other seconds), by child then group; `by` is day, week, app or
    /// category. Other seconds (time in apps and sites that are
    /// uncategorised or ignored) are known per app: 0 by day and week.
    static func reportRows(_ s: RewardsState, kids: [RewardsState.Child], from: Day, to: Day, by: String) -> [(String, String, Int, Int, Int, Int)] {
        if by == "app" || by == "category" { return usageRows(s, kids: kids, from: from, to: to, by: by) }
        var rows: [(String, String, Int, Int, Int, Int)] = []  // child, group, learning s, reward s, points, other s
        for c in kids {
            var groups: [String: (Int, Int, Int)] = [:]
            if by == "day" || by == "week" {
                var d = from
                while d <= to {
                    let t = s.totals(c.id, d)
                    let key = by == "day" ? d.description : d.adding(days: -((d.weekday + 6) % 7)).description
                    let g = groups[key] ?? (0, 0, 0)
                    groups[key] = (g.0 + Int(t.learningSeconds), g.1 + Int(t.rewardSeconds), g.2 + t.points)
                    d = d.adding(days: 1)
                }
            }
            for (k, v) in groups.sorted(by: { $0.key < $1.key }) { rows.append((c.name, k, v.0, v.1, v.2, 0)) }
        }
        return rows
    }

    /// One CSV text cell (`CSV.cell`).
    static func csv(_ s: String) -> String { CSV.cell(s) }

    /// Per app or category, from each day's per-app totals.
    static func usageRows(_ s: RewardsState, kids: [RewardsState.Child], from: Day, to: Day, by: String) -> [(String, String, Int, Int, Int, Int)] {
        var rows: [(String, String, Int, Int, Int, Int)] = []
        for c in kids {
            var acc: [String: (Int, Int, Int, Int)] = [:]
            for d in s.usageDays(c.id) where d >= from && d <= to {
                for a in s.usageDay(c.id, d).apps {
                    let key = by == "app" ? a.app : (a.category ?? "uncategorized")
                    let g = acc[key] ?? (0, 0, 0, 0)
                    acc[key] = (g.0 + Int(a.learningSeconds), g.1 + Int(a.rewardSeconds), g.2 + a.points, g.3 + Int(a.otherSeconds))
                }
            }
            for (k, v) in acc.sorted(by: { $0.key < $1.key }) { rows.append((c.name, k, v.0, v.1, v.2, v.3)) }
        }
        return rows
    }
}
