// rewards' app and settings commands: app set|rm|list|import, settings [set].

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
        let (before, rate) = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (RewardsState.App?, Int?) in
            try requireParent(tx.state, ctx)
            let before = tx.state.apps[name.lowercased()]
            let rate = keptRate(pph, category: cat, before: before)
            tx.record(by(ctx, ["type": "app_set", "name": .string(name), "category": .string(cat.rawValue), "points_per_hour": JSON(rate)]))
            return (before, rate)
        }
        pph = rate
        var o: JSONObject = ["type": "app", "name": .string(name), "category": .string(cat.rawValue), "points_per_hour": JSON(pph)]
        o["previous_category"] = JSON(before?.category.rawValue)
        ctx.out.emit(o, text: "\(name.terminalSafe): \(cat.rawValue)" + (before.map { $0.category != cat ? " (was \($0.category.rawValue))" : "" } ?? ""))
        return .ok
    }

    /// The rate an app keeps when set again: the one given, else (still a
    /// learning app) its own.
    static func keptRate(_ given: Int?, category: RewardsEngine.Category, before: RewardsState.App?) -> Int? {
        guard category == .learning else { return nil }
        return given ?? (before?.category == .learning ? before?.pointsPerHour : nil)
    }

    static func appRemove(_ ctx: Context) throws(ToolError) -> ExitCode {
        let a = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> RewardsState.App in
            try requireParent(tx.state, ctx)
            guard let a = tx.state.apps[ctx.operands[0].lowercased()] else { throw ToolError(.dataError, "no app '\(ctx.operands[0])'; 'rewards app list' shows them") }
            tx.record(by(ctx, ["type": "app_removed", "name": .string(a.name)]))
            return a
        }
        ctx.out.emit(["type": "app", "name": .string(a.name), "removed": true], text: "Forgot \(a.name.terminalSafe)")
        return .ok
    }

    static func appList(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        try requireFamily(s)
        let search = ctx.option("search")?.lowercased()
        for a in s.apps.values.sorted(by: { $0.name.lowercased() < $1.name.lowercased() }) {
            if let c = ctx.option("category"), a.category.rawValue != c { continue }
            if let q = search, !a.name.lowercased().contains(q) { continue }
            let pph = a.category == .learning ? (a.pointsPerHour ?? s.settings.pointsPerHour) : nil
            ctx.out.emit(["type": "app", "name": .string(a.name), "category": .string(a.category.rawValue), "points_per_hour": JSON(pph)],
                         text: "\(a.name.terminalSafe)  \(a.category.rawValue)\(pph.map { "  \($0) points/hour" } ?? "")")
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
        var events: [JSONObject] = []
        var bad = 0
        func reject(_ place: String, _ message: String) throws(ToolError) {
            bad += 1
            if strict { throw ToolError(.dataError, "\(place): \(message) (--strict: nothing applied)") }
            ctx.warn("\(place): \(message)")
        }
        try NDJSON.forEachRecord(sources, { (src, n, o) throws(ToolError) in
            do throws(ToolError) {
                events.append(try appRecord(o))
            } catch {
                try reject("\(src):\(n)", error.message)
            }
        }, bad: { (src, n, reason) throws(ToolError) in try reject("\(src):\(n)", reason) })
        try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) in
            try requireParent(tx.state, ctx)
            for i in events.indices {
                let cat = RewardsEngine.Category(rawValue: events[i]["category"]?.string ?? "") ?? .ignore
                let given = events[i]["points_per_hour"]?.int.map(Int.init)
                let name = events[i]["name"]?.string ?? ""
                if let r = keptRate(given, category: cat, before: tx.state.apps[name.lowercased()]) { events[i]["points_per_hour"] = JSON(r) }
                tx.record(by(ctx, events[i]))
            }
        }
        for e in events { ctx.out.emit(["type": "app", "name": e["name"]!, "category": e["category"]!], text: "\(e["name"]!.string!.terminalSafe): \(e["category"]!.string!)") }
        return bad > 0 ? .dataError : .ok
    }

    /// One `app import` record: {"app" (or "name"), "category", "points_per_hour"?},
    /// each field checked and named when wrong.
    static func appRecord(_ o: JSONObject) throws(ToolError) -> JSONObject {
        let hint = "need {\"app\":NAME,\"category\":\"learning\"|\"reward\"|\"ignore\"}"
        let key = o["app"] != nil ? "app" : "name"
        let name = try o.requiredString(key, hint: hint).trimmingSpaces
        guard !name.isEmpty else { throw .data("\"\(key)\" must not be empty") }
        let raw = try o.requiredString("category", hint: hint)
        guard let cat = RewardsEngine.Category(rawValue: raw) else { throw .data("\"category\" must be learning, reward or ignore, not '\(raw)'") }
        var e: JSONObject = ["type": "app_set", "name": .string(name), "category": .string(cat.rawValue)]
        if let p = try o.optionalNumber("points_per_hour") {
            guard cat == .learning else { throw .data("\"points_per_hour\" goes with \"category\":\"learning\" only, not '\(raw)'") }
            guard p.rounded() == p, (1...10_000).contains(p) else { throw .data("\"points_per_hour\" must be a whole number from 1 to 10000") }
            e["points_per_hour"] = .int(Int64(p))
        }
        return e
    }

    static func settingsShow(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        try requireFamily(s)
        let cid = try ctx.option("child").map { (n) throws(ToolError) in try childID(s, n).id }
        let set = cid.map { s.settings(for: $0) } ?? s.settings
        for r in RewardsEngine.Settings.ranges {
            let v = set.value(r.key) ?? 0
            ctx.out.emit(["type": "setting", "key": .string(r.key), "value": JSON(v), "min": JSON(r.range.lowerBound), "max": JSON(r.range.upperBound),
                          "help": .string(r.help), "child": JSON(cid), "overridden": .bool(cid.flatMap { s.childSettings[$0]?[r.key] } != nil)],
                         text: "\(r.key.padding(28))\(v)  (\(r.help))")
        }
        return .ok
    }

    static func settingsSet(_ ctx: Context) throws(ToolError) -> ExitCode {
        let key = ctx.operands[0], raw = ctx.operands[1]
        var probe = RewardsEngine.Settings()
        try probe.set(key, raw)
        let (old, cid) = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Int, String?) in
            try requireParent(tx.state, ctx)
            let cid = try ctx.option("child").map { (n) throws(ToolError) in try childID(tx.state, n).id }
            let old = (cid.map { tx.state.settings(for: $0) } ?? tx.state.settings).value(key) ?? 0
            tx.record(by(ctx, ["type": "setting_set", "key": .string(key), "value": JSON(probe.value(key)!), "child": JSON(cid)]))
            return (old, cid)
        }
        ctx.out.emit(["type": "setting", "key": .string(key), "value": JSON(probe.value(key)!), "previous": JSON(old), "child": JSON(cid)],
                     text: "\(key): \(old) → \(probe.value(key)!)")
        return .ok
    }
}
