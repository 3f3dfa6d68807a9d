// rewards' progress commands: dashboard, badges and report; in a family
// folder, a child's dashboard and badges come from their status file. The
// figures are Rules/RewardsProgress.swift and Rules/RewardsReport.swift;
// what is here draws them (gauges, a sparkline, CSV lines).
//
// Invariants: a child sees only their own; reward time used counts held
// reward sessions not yet decided (with the day's counted spans: read by
// the snapshot's index, or the state in full).

extension Rewards {
    static func dashboard(_ ctx: Context) throws(ToolError) -> ExitCode {
        if let h = try childSide(ctx) { return try childDashboard(ctx, h) }
        let s = try readForReward(ctx)
        if s.owner == nil, let h = try waitingToRead(ctx) { throw notReadableYet(h) }
        if let h = try familyFolder(ctx) { tellWaiting(h, s) }
        if s.owner == nil {
            // A child (or a second parent) whose family is elsewhere is told how to point at it.
            let elsewhere = "a family on this computer is a folder its parent made: point at it with --family DIR, REWARDS_FAMILY=DIR, or 'family = DIR' in \(ctx.configDir)/config"
            if !ctx.out.isJSON {
                ctx.out.raw("No family here yet. A parent starts with:\n  rewards init\n  rewards child add Alex --user alex\n  rewards app set Duolingo --learning\n  rewards app set Minecraft --reward\n"
                            + "A child or a second parent: \(elsewhere.terminalSafe).\n")
            } else if !ctx.out.quiet {
                ctx.warn("no family here yet: a parent makes one with 'rewards init'; \(elsewhere)")
            }
            return .ok
        }
        var kids = s.children.values.sorted { $0.name < $1.name }
        switch s.role(of: me(ctx)) {
        case .parent: break
        case .child(let id): kids = kids.filter { $0.id == id }
        case .stranger: throw ToolError(.noPermission, "\(me(ctx)) is not in this family")
        }
        if let n = ctx.operands.first {
            let c = try childID(s, n)
            try requireSelfOrParent(s, ctx, child: c.id)
            kids = [c]
        }
        if kids.isEmpty && !ctx.out.isJSON { ctx.out.raw("No children yet: rewards child add NAME --user LOGIN\n") }
        for c in kids {
            let rec = dashboardRecord(s, c, today: ctx.today, zone: ctx.zone, now: ctx.now)
            ctx.out.emit(rec, text: dashboardText(rec, zone: ctx.zone))
        }
        return .ok
    }

    /// `dashboard` for a child in a family folder: from their status file,
    /// with their requests.
    static func childDashboard(_ ctx: Context, _ h: FamilyFolder) throws(ToolError) -> ExitCode {
        let st = try readStatus(h)
        guard let d = st["dashboard"]?.object else { throw ToolError(.noPermission, "\(Sys.loginName()) is not a child of the family in \(h.path)") }
        if let n = ctx.operands.first, n.lowercased() != d["child"]?.string?.lowercased() {
            throw ToolError(.noPermission, "only a parent or the child may see that (you are \(Sys.loginName()))")
        }
        ctx.out.emit(d, text: dashboardText(d, zone: ctx.zone) + requestsText(st))
        return .ok
    }

    /// The state for figures of reward time used: the hot part, with
    /// today's counted spans of each child a held reward session is of (or
    /// the whole, when they cannot be read by the index).
    static func readForReward(_ ctx: Context) throws(ToolError) -> RewardsState {
        let st = try store(ctx)
        var s = try current(st, today: ctx.today)
        let held = Set(s.flags.values.filter { $0.status == "pending" && s.apps[$0.app.lowercased()]?.category == .reward }.map(\.child))
        for c in held.sorted() where !s.loadCold(c, ctx.today) { return try st.read(full: true) }
        return s
    }

    /// The dashboard for people, from its record.
    static func dashboardText(_ r: JSONObject, zone: Zone) -> String {
        func int(_ k: String) -> Int { Int(r[k]?.int ?? 0) }
        let name = Text.terminalSafe(r["child"]?.string ?? "")
        let st = int("streak_days"), learning = int("learning_minutes_today"), goal = max(1, int("daily_goal_minutes"))
        let points = (r["points_last_7_days"]?.array ?? []).map { Int($0.object?["points"]?.int ?? 0) }
        var text = "\(name)  ★ \(int("balance")) points\(st > 0 ? "  🔥 \(st)-day streak" : "")\n"
        text += "  Today: \(learning) min learning, \(int("reward_minutes_today")) min reward\n"
        text += "  Goal   \(bar(min(1, Double(learning) / Double(goal)))) \(learning)/\(goal) min\n"
        text += "  Week   \(sparkline(points))  \(points.reduce(0, +)) points in 7 days\n"
        text += "  Can redeem now: \(int("rewards_affordable_minutes")) min\n"
        for x in r["last_sessions"]?.array ?? [] {
            guard let o = x.object else { continue }
            let time = o["start"]?.string.flatMap { RFC3339.parse($0)?.instant }.map { zone.local($0).time.description } ?? ""
            text += "    \(time)  \(Text.terminalSafe(o["app"]?.string ?? ""))  \(o["minutes"]?.int ?? 0) min  +\(o["points"]?.int ?? 0)\n"
        }
        return text
    }

    /// A child's requests, under their dashboard.
    static func requestsText(_ st: JSONObject) -> String {
        var t = ""
        for x in st["requests"]?.array ?? [] {
            guard let r = x.object else { continue }
            let what = r["kind"]?.string == "join" ? "to join as a parent" : "\(r["minutes"]?.int ?? 0) min (\(r["kind"]?.string == "redeem" ? "redeem" : "more time"))"
            t += "  Asked \(what): \(r["status"]?.string ?? "")\(r["reason"]?.string.map { " — " + Text.terminalSafe($0) } ?? "")\n"
        }
        if let a = st["as_of"]?.string { t += "  (as of \(a))\n" }
        return t
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

    static func badgesCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        if let h = try childSide(ctx) { return try childBadges(ctx, h) }
        let s = try current(store(ctx), today: ctx.today)
        let c = try ownChild(s, ctx)
        try requireSelfOrParent(s, ctx, child: c.id)
        let have = s.badges[c.id] ?? []
        for b in badgeNames {
            ctx.out.emit(["type": "badge", "child": .string(c.name), "badge": .string(b.id), "name": .string(b.name), "earned": .bool(have.contains(b.id))],
                         text: "\(have.contains(b.id) ? "🏅" : "  ") \(b.name)")
        }
        return .ok
    }

    /// `badges` for a child in a family folder: from their status file.
    static func childBadges(_ ctx: Context, _ h: FamilyFolder) throws(ToolError) -> ExitCode {
        let st = try readStatus(h)
        guard let d = st["dashboard"]?.object else { throw ToolError(.noPermission, "\(Sys.loginName()) is not a child of the family in \(h.path)") }
        if let n = ctx.operands.first, n.lowercased() != d["child"]?.string?.lowercased() {
            throw ToolError(.noPermission, "only a parent or the child may see that (you are \(Sys.loginName()))")
        }
        let have = Set((d["badges"]?.array ?? []).compactMap(\.string))
        for b in badgeNames {
            ctx.out.emit(["type": "badge", "child": d["child"] ?? .null, "badge": .string(b.id), "name": .string(b.name), "earned": .bool(have.contains(b.id))],
                         text: "\(have.contains(b.id) ? "🏅" : "  ") \(b.name)")
        }
        return .ok
    }

    static func report(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read(full: true)
        try requireParent(s, ctx)
        let to = try ctx.option("to").map { (x) throws(ToolError) in try ctx.day(x, option: "--to") } ?? ctx.today
        let from = try ctx.option("from").map { (x) throws(ToolError) in try ctx.day(x, option: "--from") } ?? to.adding(days: -29)
        if from > to { throw .usage("--from must not be after --to") }
        let kids = try ctx.option("child").map { (n) throws(ToolError) in [try childID(s, n)] } ?? s.children.values.sorted { $0.name < $1.name }
        let by = ctx.option("by") ?? "day"
        let rows = reportRows(s, kids: kids, from: from, to: to, by: by)
        let format = ctx.option("format") ?? (ctx.out.isJSON ? "json" : "text")
        // By app or category, time that earned and cost nothing too: what is
        // left to categorise (a site with no app shows as its host).
        let other = by == "app" || by == "category"
        if format == "csv" {
            ctx.out.rawForced("child,\(by),learning_minutes,reward_minutes,points\(other ? ",other_minutes" : "")\r\n")
            for r in rows { ctx.out.rawForced("\(csv(r.0)),\(csv(r.1)),\(r.2 / 60),\(r.3 / 60),\(r.4)\(other ? ",\(r.5 / 60)" : "")\r\n") }
            return .ok
        }
        // By day, the text layout is a picture: a bar a day against the
        // goal and the cap, in the terminal's width (COLUMNS, else the
        // terminal's, else 80).
        if format == "text" && by == "day" {
            let width = Chart.width(columns: Sys.env("COLUMNS"), terminal: Sys.terminalColumns(1))
            var charts: [String] = []
            for c in kids {
                var days: [ChartDay] = []
                var d = from
                while d <= to {
                    let t = s.totals(c.id, d)
                    days.append(ChartDay(day: d, learning: Int(t.learningSeconds) / 60, reward: Int(t.rewardSeconds) / 60, points: t.points))
                    d = d.adding(days: 1)
                }
                let rules = s.settings(for: c.id)
                charts.append(reportChart(child: c.name, days: days, goal: rules.dailyGoalMinutes, cap: rules.dailyRewardLimitMinutes,
                                          width: width, unicode: Chart.unicode(env: Sys.env), color: ctx.out.color))
            }
            ctx.out.raw(charts.joined(separator: "\n"))
            return .ok
        }
        // The text layout's columns line up: names padded to the widest,
        // numbers right-aligned.
        func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - s.count)) }
        func right(_ n: Int, _ w: Int) -> String { let t = String(n); return String(repeating: " ", count: max(0, w - t.count)) + t }
        let w0 = rows.map { $0.0.terminalSafe.count }.max() ?? 0, w1 = rows.map { $0.1.terminalSafe.count }.max() ?? 0
        let w2 = rows.map { String($0.2 / 60).count }.max() ?? 0, w3 = rows.map { String($0.3 / 60).count }.max() ?? 0
        let w4 = rows.map { String($0.4).count }.max() ?? 0
        for r in rows {
            var o: JSONObject = ["type": "report", "child": .string(r.0), by: .string(r.1), "learning_minutes": JSON(r.2 / 60),
                                 "reward_minutes": JSON(r.3 / 60), "points": JSON(r.4)]
            if other { o["other_minutes"] = JSON(r.5 / 60) }
            if format == "json" {
                ctx.out.rawForced(o.serialized + "\n")
            } else {
                ctx.out.raw("\(pad(r.0.terminalSafe, w0))  \(pad(r.1.terminalSafe, w1))  \(right(r.2 / 60, w2)) min learning  \(right(r.3 / 60, w3)) min reward  \(right(r.4, w4)) points"
                            + (other && r.5 >= 60 ? "  \(r.5 / 60) min uncategorised or ignored" : "") + "\n")
            }
        }
        return .ok
    }
}
