// rewards' app commands: app set|rm|list|import, for the apps a child uses
// (learning, reward or ignored; a learning app's points per hour; the web
// sites and process names that are the app). What an app_set event holds and
// when sites clash is decided in Rules/RewardsAppCategories.swift; what the
// command line and import files may give, in Rules/RewardsValidation.swift.
//
// Invariants: a site is one app's; `app import` applies its good lines and
// exits 65 after naming each bad one, or with --strict applies nothing.

extension Rewards {
    static func appSet(_ ctx: Context) throws(ToolError) -> ExitCode {
        let chosen = ["learning", "reward", "ignore"].filter { ctx.flag($0) }
        guard chosen.count == 1, let cat = RewardsEngine.Category(rawValue: chosen[0]) else {
            throw .usage("app set needs one of --learning, --reward or --ignore")
        }
        var pph: Int? = nil  // as given, then as kept
        if let p = ctx.option("points-per-hour") {
            guard cat == .learning else { throw .usage("--points-per-hour goes with --learning") }
            pph = try ctx.int(p, option: "--points-per-hour", range: 1...10_000)
        }
        let name = ctx.operands[0].trimmingSpaces
        guard !name.isEmpty else { throw .usage("an app name must not be empty") }
        let patterns = try processPatterns(ctx.invocation.all("process"), cat)
        let titles = try titlePatterns(ctx.invocation.all("title"))
        var given: [String] = []
        for raw in ctx.invocation.all("site") {
            guard let site = checkSite(raw) else { throw .usage("--site must be \(siteHint), not '\(raw)'") }
            if !given.contains(site) { given.append(site) }
        }
        let (before, app) = try write(ctx) { (tx) throws(ToolError) -> (RewardsState.App?, RewardsState.App) in
            try requireParent(tx.state, ctx)
            let before = tx.state.apps[name.lowercased()]
            let e = appEvent(name: name, category: cat, rate: pph, sites: given.isEmpty ? nil : given, processes: patterns, titles: titles,
                             before: before)
            if let m = siteConflict(e, in: tx.state) { throw ToolError(.dataError, m) }
            tx.record(by(ctx, e))
            return (before, tx.state.apps[name.lowercased()]!)
        }
        pph = app.pointsPerHour
        if cat == .reward && app.processes.isEmpty && app.sites.isEmpty {
            ctx.warn("\(name.terminalSafe) has no process name: 'rewards enforce' cannot end it; add one with --process NAME (as 'ps -e' shows it)")
        }
        var o: JSONObject = ["type": "app", "name": .string(name), "category": .string(cat.rawValue), "points_per_hour": JSON(pph)]
        if !app.processes.isEmpty { o["processes"] = JSON(app.processes) }
        if !app.titles.isEmpty { o["titles"] = JSON(app.titles) }
        if !app.sites.isEmpty { o["sites"] = JSON(app.sites) }
        o["previous_category"] = JSON(before?.category.rawValue)
        ctx.out.emit(o, text: "\(name.terminalSafe): \(cat.rawValue)" + (app.sites.isEmpty ? "" : " (\(app.sites.joined(separator: ", ")))")
                     + (before.map { $0.category != cat ? " (was \($0.category.rawValue))" : "" } ?? ""))
        return .ok
    }

    static func appRemove(_ ctx: Context) throws(ToolError) -> ExitCode {
        let a = try write(ctx) { (tx) throws(ToolError) -> RewardsState.App in
            try requireParent(tx.state, ctx)
            guard let a = tx.state.apps[ctx.operands[0].lowercased()] else { throw ToolError(.dataError, "no app '\(ctx.operands[0])'; 'rewards app list' shows them") }
            tx.record(by(ctx, ["type": "app_removed", "name": .string(a.name)]))
            return a
        }
        ctx.out.emit(["type": "app", "name": .string(a.name), "removed": true], text: "Forgot \(a.name.terminalSafe)")
        return .ok
    }

    static func appList(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try current(store(ctx), today: ctx.today)
        try requireFamily(s)
        let search = ctx.option("search")?.lowercased()
        for a in s.apps.values.sorted(by: { $0.name.lowercased() < $1.name.lowercased() }) {
            if let c = ctx.option("category"), a.category.rawValue != c { continue }
            if let q = search, !a.name.lowercased().contains(q) { continue }
            let pph = a.category == .learning ? (a.pointsPerHour ?? s.settings.pointsPerHour) : nil
            var o: JSONObject = ["type": "app", "name": .string(a.name), "category": .string(a.category.rawValue), "points_per_hour": JSON(pph)]
            if !a.sites.isEmpty { o["sites"] = JSON(a.sites) }
            if !a.processes.isEmpty { o["processes"] = JSON(a.processes) }
            if !a.titles.isEmpty { o["titles"] = JSON(a.titles) }
            ctx.out.emit(o, text: "\(a.name.terminalSafe)  \(a.category.rawValue)\(pph.map { "  \($0) points/hour" } ?? "")"
                            + (a.sites.isEmpty ? "" : "  " + a.sites.joined(separator: " "))
                            + (a.processes.isEmpty ? "" : "  processes: " + a.processes.joined(separator: " ").terminalSafe)
                            + (a.titles.isEmpty ? "" : "  titles: " + a.titles.map { "'\($0)'" }.joined(separator: " ").terminalSafe))
        }
        return .ok
    }

    /// Like `ingest`: a bad line is reported with its place and changes
    /// nothing, the others apply and the status is 65; with --strict the
    /// first bad line stops the import with nothing applied.
    static func appImport(_ ctx: Context) throws(ToolError) -> ExitCode {
        let sources = try InputSource.openAll(ctx.operands)
        defer { for s in sources { s.closeIfOwned() } }
        let strict = ctx.flag("strict")
        var events: [(place: String, event: JSONObject)] = []
        var bad = 0
        func reject(_ place: String, _ message: String) throws(ToolError) {
            bad += 1
            if strict { throw ToolError(.dataError, "\(place): \(message) (--strict: nothing applied)") }
            ctx.warn("\(place): \(message)")
        }
        try NDJSON.forEachRecord(sources, { (src, n, o) throws(ToolError) in
            do throws(ToolError) {
                events.append(("\(src):\(n)", try appRecord(o)))
            } catch {
                try reject("\(src):\(n)", error.message)
            }
        }, bad: { (src, n, reason) throws(ToolError) in try reject("\(src):\(n)", reason) })
        let applied = try write(ctx) { (tx) throws(ToolError) -> [JSONObject] in
            try requireParent(tx.state, ctx)
            var applied: [JSONObject] = []
            for (place, r) in events {
                let name = r["name"]?.string ?? ""
                let e = appEvent(name: name, category: RewardsEngine.Category(rawValue: r["category"]?.string ?? "") ?? .ignore,
                                 rate: r["points_per_hour"]?.int.map(Int.init), sites: r["sites"]?.array?.compactMap(\.string),
                                 before: tx.state.apps[name.lowercased()])
                if let m = siteConflict(e, in: tx.state) { try reject(place, m); continue }
                tx.record(by(ctx, e))
                applied.append(e)
            }
            return applied
        }
        for e in applied { ctx.out.emit(["type": "app", "name": e["name"]!, "category": e["category"]!], text: "\(e["name"]!.string!.terminalSafe): \(e["category"]!.string!)") }
        return bad > 0 ? .dataError : .ok
    }
}
