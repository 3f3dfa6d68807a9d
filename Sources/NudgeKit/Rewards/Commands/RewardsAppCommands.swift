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
        let patterns = try processPatterns(ctx, cat)
        var given: [String] = []
        for raw in ctx.invocation.all("site") {
            guard let site = checkSite(raw) else { throw .usage("--site must be \(siteHint), not '\(raw)'") }
            if !given.contains(site) { given.append(site) }
        }
        let (before, app) = try write(ctx) { (tx) throws(ToolError) -> (RewardsState.App?, RewardsState.App) in
            try requireParent(tx.state, ctx)
            let before = tx.state.apps[name.lowercased()]
            let e = appEvent(name: name, category: cat, rate: pph, sites: given.isEmpty ? nil : given, processes: patterns, before: before)
            if let m = siteConflict(e, in: tx.state) { throw ToolError(.dataError, m) }
            tx.record(by(ctx, e))
            return (before, tx.state.apps[name.lowercased()]!)
        }
        pph = app.pointsPerHour
        var o: JSONObject = ["type": "app", "name": .string(name), "category": .string(cat.rawValue), "points_per_hour": JSON(pph)]
        if !app.processes.isEmpty { o["processes"] = JSON(app.processes) }
        if !app.sites.isEmpty { o["sites"] = JSON(app.sites) }
        o["previous_category"] = JSON(before?.category.rawValue)
        ctx.out.emit(o, text: "\(name.terminalSafe): \(cat.rawValue)" + (app.sites.isEmpty ? "" : " (\(app.sites.joined(separator: ", ")))")
                     + (before.map { $0.category != cat ? " (was \($0.category.rawValue))" : "" } ?? ""))
        return .ok
    }

    /// `--process PATTERN` (repeatable, or comma-separated): shell patterns
    /// for the names of a reward app's processes.
    static func processPatterns(_ ctx: Context, _ cat: RewardsEngine.Category) throws(ToolError) -> [String]? {
        let given = ctx.invocation.all("process").flatMap { $0.split(separator: ",").map { String($0).trimmingSpaces } }
        guard !given.isEmpty else { return nil }
        guard cat == .reward else { throw .usage("--process goes with --reward: it names the processes 'rewards enforce' ends") }
        for p in given where p.isEmpty || p.utf8.count > 64 || p.unicodeScalars.contains(where: { Text.needsEscape($0.value) || $0 == "/" }) {
            throw .usage("--process is a process-name pattern like 'minecraft*' or 'java' (1 to 64 characters, no '/'), not '\(Text.terminalSafe(p))'")
        }
        for p in given where p == "*" || p.allSatisfy({ $0 == "*" || $0 == "?" }) {
            throw .usage("--process '\(p)' would match every process; name the app's own")
        }
        return given
    }

    /// An app_set event: the rate, sites and process patterns given, else
    /// those the app keeps (`keptRate`; its sites, whatever the category;
    /// its patterns while it is a reward app).
    static func appEvent(name: String, category: RewardsEngine.Category, rate: Int?, sites: [String]?,
                         processes: [String]? = nil, before: RewardsState.App?) -> JSONObject {
        var e: JSONObject = ["type": "app_set", "name": .string(name), "category": .string(category.rawValue),
                             "points_per_hour": JSON(keptRate(rate, category: category, before: before))]
        let keep = sites ?? before?.sites ?? []
        if !keep.isEmpty { e["sites"] = JSON(keep) }
        // The process patterns stay unless new ones are given (or the app is no longer a reward).
        let patterns = processes ?? (category == .reward ? before?.processes ?? [] : [])
        if !patterns.isEmpty { e["processes"] = JSON(patterns) }
        return e
    }

    /// Why an app_set event cannot be: one of its sites is another app's.
    static func siteConflict(_ e: JSONObject, in s: RewardsState) -> String? {
        let name = e["name"]?.string ?? ""
        for site in (e["sites"]?.array ?? []).compactMap(\.string) {
            if let other = s.apps.values.sorted(by: { $0.name < $1.name }).first(where: { $0.name.lowercased() != name.lowercased() && $0.sites.contains(site) }) {
                return "\(site) is already a site of '\(other.name)'; 'rewards app rm \(other.name)' or set it there"
            }
        }
        return nil
    }

    /// The rate an app keeps when set again: the one given, else (still a
    /// learning app) its own.
    static func keptRate(_ given: Int?, category: RewardsEngine.Category, before: RewardsState.App?) -> Int? {
        guard category == .learning else { return nil }
        return given ?? (before?.category == .learning ? before?.pointsPerHour : nil)
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
        let s = try store(ctx).read()
        try requireFamily(s)
        let search = ctx.option("search")?.lowercased()
        for a in s.apps.values.sorted(by: { $0.name.lowercased() < $1.name.lowercased() }) {
            if let c = ctx.option("category"), a.category.rawValue != c { continue }
            if let q = search, !a.name.lowercased().contains(q) { continue }
            let pph = a.category == .learning ? (a.pointsPerHour ?? s.settings.pointsPerHour) : nil
            var o: JSONObject = ["type": "app", "name": .string(a.name), "category": .string(a.category.rawValue), "points_per_hour": JSON(pph)]
            if !a.sites.isEmpty { o["sites"] = JSON(a.sites) }
            if !a.processes.isEmpty { o["processes"] = JSON(a.processes) }
            ctx.out.emit(o, text: "\(a.name.terminalSafe)  \(a.category.rawValue)\(pph.map { "  \($0) points/hour" } ?? "")"
                            + (a.sites.isEmpty ? "" : "  " + a.sites.joined(separator: " "))
                            + (a.processes.isEmpty ? "" : "  processes: " + a.processes.joined(separator: " ").terminalSafe))
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

    /// One `app import` record: {"app" (or "name"), "category",
    /// "points_per_hour"?, "sites"?}, each field checked and named when wrong.
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
        if let v = o["sites"], !v.isNull {
            guard let a = v.array else { throw .data("\"sites\" must be an array of domains, not \(v.kindName)") }
            var sites: [String] = []
            for x in a {
                guard let raw = x.string, let site = checkSite(raw) else { throw .data("\"sites\" must hold \(siteHint)s, not \(x.serialized)") }
                if !sites.contains(site) { sites.append(site) }
            }
            e["sites"] = JSON(sites)
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
        let (old, cid) = try write(ctx) { (tx) throws(ToolError) -> (Int, String?) in
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

// Sites: which app a web visit is (`app set APP --site DOMAIN`).
extension Rewards {
    /// The app a host belongs to: the app whose site is the host or a
    /// domain above it, the longest such site winning; nil when none is.
    public static func appForSite(_ host: String, apps: [String: RewardsState.App]) -> String? {
        var best: (site: Int, name: String)? = nil
        for a in apps.values {
            for s in a.sites where host == s || host.hasSuffix("." + s) {
                if best.map({ s.count > $0.site || (s.count == $0.site && a.name < $0.name) }) ?? true { best = (s.count, a.name) }
            }
        }
        return best?.name
    }

    /// How a site with no app is named: its host, without "www.".
    public static func siteName(_ host: String) -> String {
        host.hasPrefix("www.") && host.count > 4 ? String(host.dropFirst(4)) : host
    }

    /// A site as `--site` and `app import` take it: a domain name like
    /// khanacademy.org (lower-cased; a leading "*." or "." is dropped).
    static func checkSite(_ raw: String) -> String? {
        var s = raw.trimmingSpaces.lowercased()
        if s.hasPrefix("*.") { s.removeFirst(2) } else if s.hasPrefix(".") { s.removeFirst() }
        if s.hasSuffix(".") { s.removeLast() }
        guard !s.isEmpty, s.utf8.count <= 253 else { return nil }
        for label in s.split(separator: ".", omittingEmptySubsequences: false) {
            guard (1...63).contains(label.utf8.count), !label.hasPrefix("-"), !label.hasSuffix("-"),
                  label.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else { return nil }
        }
        return s
    }

    static let siteHint = "a domain like khanacademy.org (it matches that host and the hosts under it)"
}
