// rewards' commands: the declaration and thin handlers over the engine.

public enum Rewards {
    static let childOption = OptionSpec("child", value: "NAME", help: "One child")
    static let commandOption = OptionSpec("command", value: "CMD", help: "Hand the grant to this command (e.g. timekpra)", completion: .files)

    public static let spec = ToolSpec(
        name: "rewards",
        summary: "Family screen-time rewards: learning apps earn points, points buy reward time, parents set the rules.",
        commands: [
            CommandSpec("dashboard", summary: "Each child's points, today, goal, streak and the last sessions", usage: "[CHILD]",
                        operands: .words, max: 1),
            CommandSpec("init", summary: "Create the family, with you as the parent"),
            CommandSpec("child", summary: "Children",
                        subcommands: [
                            CommandSpec("add", summary: "Add a child (a name and, if any, their login; nothing more)", usage: "NAME",
                                        options: [OptionSpec("user", value: "LOGIN", help: "The child's login, so they can see their own data")],
                                        operands: .words, min: 1, max: 1),
                            CommandSpec("list", summary: "List the children"),
                            CommandSpec("rm", summary: "Remove a child; --purge erases every trace", usage: "NAME",
                                        options: [OptionSpec("purge", help: "Erase all of the child's data, history included")],
                                        operands: .words, min: 1, max: 1),
                            CommandSpec("export", summary: "Everything held about a child, as NDJSON", usage: "NAME", operands: .words, min: 1, max: 1),
                        ], runnable: false),
            CommandSpec("app", summary: "Apps and their categories",
                        subcommands: [
                            CommandSpec("set", summary: "Categorise an app", usage: "APP",
                                        options: [OptionSpec("learning", help: "Learning: earns points"),
                                                  OptionSpec("points-per-hour", value: "N", help: "Points an hour for this learning app"),
                                                  OptionSpec("reward", help: "Reward: costs reward time"),
                                                  OptionSpec("ignore", help: "Neither")],
                                        operands: .words, min: 1, max: 1),
                            CommandSpec("rm", summary: "Forget an app", usage: "APP", operands: .words, min: 1, max: 1),
                            CommandSpec("list", summary: "List apps",
                                        options: [OptionSpec("category", value: "C", help: "learning, reward or ignore", choices: ["learning", "reward", "ignore"]),
                                                  OptionSpec("search", value: "TEXT", help: "Names containing TEXT")]),
                            CommandSpec("import", summary: "Categorise many apps from NDJSON {\"app\",\"category\",\"points_per_hour\"}",
                                        usage: "[FILE...]", operands: .files, max: nil),
                        ], runnable: false),
            CommandSpec("settings", summary: "Show the rules (family, or one child's)", options: [childOption],
                        subcommands: [CommandSpec("set", summary: "Change a rule", usage: "KEY VALUE", options: [childOption],
                                                  operands: .words, min: 2, max: 2)]),
            CommandSpec("ingest", summary: "Read app usage: sessions {\"child\",\"app\",\"start\",\"end\"} or an ActivityWatch export",
                        usage: "[FILE...]",
                        options: [OptionSpec("activitywatch", value: "EXPORT", help: "An ActivityWatch export (JSON)", completion: .files),
                                  childOption, OptionSpec("strict", help: "Apply nothing if any line is bad")],
                        operands: .files, max: nil),
            CommandSpec("flags", summary: "Sessions held for review"),
            CommandSpec("flag", summary: "Decide a held session",
                        subcommands: [CommandSpec("approve", summary: "Count it", usage: "ID", operands: .words, min: 1, max: 1),
                                      CommandSpec("reject", summary: "Drop it", usage: "ID", operands: .words, min: 1, max: 1)],
                        runnable: false),
            CommandSpec("redeem", summary: "Convert points to reward minutes", usage: "CHILD MINUTES",
                        options: [OptionSpec("app", value: "APP", help: "For this reward app"), commandOption],
                        operands: .words, min: 2, max: 2),
            CommandSpec("allowance", summary: "Reward minutes granted, used and left today", usage: "CHILD", operands: .words, min: 1, max: 1),
            CommandSpec("adjust", summary: "A bonus or a correction", usage: "CHILD +N|-N",
                        options: [OptionSpec("reason", value: "TEXT", help: "Why (required)")], operands: .words, min: 2, max: 2),
            CommandSpec("report", summary: "Learning and reward time and points, grouped",
                        options: [childOption, OptionSpec("from", value: "DAY", help: "First day (default 30 days ago)"),
                                  OptionSpec("to", value: "DAY", help: "Last day (default today)"),
                                  OptionSpec("by", value: "GROUP", help: "day, week, app or category", choices: ["day", "week", "app", "category"]),
                                  OptionSpec("format", value: "FORMAT", help: "json, csv or text", choices: ["json", "csv", "text"])]),
            CommandSpec("badges", summary: "A child's badges", usage: "CHILD", operands: .words, min: 1, max: 1),
            CommandSpec("rollover", summary: "Close days: streaks and badges (for cron at midnight; safe to re-run)"),
            CommandSpec("notify", summary: "Notifications for children and parents, one per person per run (for cron)"),
        ],
        defaultCommand: ["dashboard"],
        footer: "Who you are: $REWARDS_USER, else your login. Children may view their own data and redeem; everything else is for parents."
    )

    public static let handlers: [String: Runner.Handler] = [
        "dashboard": dashboard, "init": initFamily, "child add": childAdd, "child list": childList, "child rm": childRemove,
        "child export": childExport, "app set": appSet, "app rm": appRemove, "app list": appList, "app import": appImport,
        "settings": settingsShow, "settings set": settingsSet, "ingest": ingest, "flags": flagsList,
        "flag approve": { (c) throws(ToolError) in try decide(c, approve: true) }, "flag reject": { (c) throws(ToolError) in try decide(c, approve: false) },
        "redeem": redeem, "allowance": allowance, "adjust": adjust, "report": report, "badges": badgesCommand,
        "rollover": rollover, "notify": notify,
    ]

    /// The caller: $REWARDS_USER, else the login. (`child add --user` names
    /// the child's login, so there is no global --user here.)
    static func me(_ ctx: Context) -> String {
        Sys.env("REWARDS_USER").flatMap { $0.isEmpty ? nil : $0 } ?? Sys.userName()
    }

    static func store(_ ctx: Context) -> Store<RewardsState> {
        Store(dir: ctx.dataDir, options: StoreOptions(tool: "rewards", user: me(ctx)))
    }

    /// Stamps an event with who made it and when (computed once per run).
    static func by(_ ctx: Context, _ e: JSONObject) -> JSONObject {
        let stamp = ctx.memo("rewards.by") { () -> (JSON, JSON) in (.string(me(ctx)), .string(ctx.clock.format(ctx.now))) }
        var o = e
        o["by"] = stamp.0
        o["at"] = stamp.1
        return o
    }

    static func requireFamily(_ s: RewardsState) throws(ToolError) {
        if s.owner == nil { throw ToolError(.dataError, "no family yet: a parent runs 'rewards init' first") }
    }

    static func requireParent(_ s: RewardsState, _ ctx: Context) throws(ToolError) {
        try requireFamily(s)
        guard s.role(of: me(ctx)) == .parent else { throw ToolError(.noPermission, "only a parent may do that (you are \(me(ctx)))") }
    }

    /// A parent, or the child themself.
    static func requireSelfOrParent(_ s: RewardsState, _ ctx: Context, child: String) throws(ToolError) {
        try requireFamily(s)
        switch s.role(of: me(ctx)) {
        case .parent: return
        case .child(let id) where id == child: return
        default: throw ToolError(.noPermission, "only a parent or the child may see that (you are \(me(ctx)))")
        }
    }

    static func childID(_ s: RewardsState, _ name: String) throws(ToolError) -> RewardsState.Child {
        guard let c = s.child(named: name) else {
            let names = s.children.values.map(\.name).sorted()
            throw ToolError(.dataError, "no child named '\(name)'" + (names.isEmpty ? "; add one with 'rewards child add NAME'" : "; children: " + names.joined(separator: ", ")))
        }
        return c
    }

    // MARK: Family

    static func initFamily(_ ctx: Context) throws(ToolError) -> ExitCode {
        let owner = me(ctx)
        try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) in
            if let o = tx.state.owner { throw ToolError(.dataError, "the family exists already (parent: \(o))") }
            tx.record(by(ctx, ["type": "family_created", "owner": .string(owner)]))
        }
        ctx.out.emit(["type": "family", "owner": .string(owner)], text: "Family created; \(owner) is the parent. Next: rewards child add NAME")
        return .ok
    }

    static func childAdd(_ ctx: Context) throws(ToolError) -> ExitCode {
        let name = ctx.operands[0].trimmingSpaces
        guard !name.isEmpty, name.count <= 40 else { throw .usage("a child's name is 1 to 40 characters") }
        let c = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> RewardsState.Child in
            try requireParent(tx.state, ctx)
            if tx.state.child(named: name) != nil { throw ToolError(.dataError, "there is already a child named '\(name)'") }
            let id = IDs.make()
            tx.record(by(ctx, ["type": "child_added", "id": .string(id), "name": .string(name), "login": JSON(ctx.option("user"))]))
            return tx.state.children[id]!
        }
        ctx.out.emit(["type": "child", "id": .string(c.id), "name": .string(c.name), "login": JSON(c.login)], text: "Added \(c.name)")
        return .ok
    }

    static func childList(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        try requireParent(s, ctx)
        for c in s.children.values.sorted(by: { $0.name < $1.name }) {
            ctx.out.emit(["type": "child", "id": .string(c.id), "name": .string(c.name), "login": JSON(c.login), "balance": JSON(s.balance[c.id] ?? 0)],
                         text: "\(c.name)\(c.login.map { " (\($0))" } ?? "")  \(s.balance[c.id] ?? 0) points")
        }
        return .ok
    }

    static func mentions(_ e: JSONObject, _ id: String) -> Bool {
        e["child"]?.string == id || (e["type"]?.string == "child_added" && e["id"]?.string == id)
            || (e["type"]?.string == "child_removed" && e["id"]?.string == id)
    }

    static func childRemove(_ ctx: Context) throws(ToolError) -> ExitCode {
        let st = store(ctx)
        let c = try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> RewardsState.Child in
            try requireParent(tx.state, ctx)
            let c = try childID(tx.state, ctx.operands[0])
            tx.record(by(ctx, ["type": "child_removed", "id": .string(c.id)]))
            return c
        }
        var removed = 0
        if ctx.flag("purge") {
            // Flags and grants name the child; so do "notified" keys.
            removed = try st.purge(at: ctx.now) { e in mentions(e, c.id) || (e["key"]?.string?.contains(c.id) ?? false) }
        }
        ctx.out.emit(["type": "child", "id": .string(c.id), "name": .string(c.name), "removed": true, "purged": .bool(ctx.flag("purge")),
                      "events_erased": JSON(removed)],
                     text: ctx.flag("purge") ? "Removed \(c.name) and erased every trace (\(removed) events)" : "Removed \(c.name) (history kept; --purge erases it)")
        return .ok
    }

    static func childExport(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read(full: true)
        try requireParent(s, ctx)
        let c = try childID(s, ctx.operands[0])
        let out = ctx.out
        out.record(["type": "child", "id": .string(c.id), "name": .string(c.name), "login": JSON(c.login),
                    "balance": JSON(s.balance[c.id] ?? 0), "earned": JSON(s.earned[c.id] ?? 0), "badges": JSON((s.badges[c.id] ?? []).sorted())])
        for (d, t) in (s.days[c.id] ?? [:]).sorted(by: { $0.key < $1.key }) {
            out.record(["type": "day", "child": .string(c.id), "date": .string(d.description), "learning_minutes": JSON(Int(t.learningSeconds / 60)),
                        "reward_minutes": JSON(Int(t.rewardSeconds / 60)), "points": JSON(t.points), "granted_minutes": JSON(t.grantedMinutes),
                        "adjusted": JSON(t.adjusted)])
        }
        for g in s.grants.values where g.child == c.id { out.record(["type": "grant", "id": .string(g.id), "minutes": JSON(g.minutes), "points": JSON(g.points), "date": .string(g.day.description)]) }
        for f in s.flags.values where f.child == c.id { out.record(["type": "flag", "id": .string(f.id), "app": .string(f.app), "reason": .string(f.reason), "status": .string(f.status)]) }
        return .ok
    }

    // MARK: Apps and settings

    static func appSet(_ ctx: Context) throws(ToolError) -> ExitCode {
        let chosen = ["learning", "reward", "ignore"].filter { ctx.flag($0) }
        guard chosen.count == 1, let cat = RewardsEngine.Category(rawValue: chosen[0]) else {
            throw .usage("app set needs one of --learning, --reward or --ignore")
        }
        var pph: Int? = nil
        if let p = ctx.option("points-per-hour") {
            guard cat == .learning else { throw .usage("--points-per-hour goes with --learning") }
            pph = try ctx.int(p, option: "--points-per-hour", range: 1...10_000)
        }
        let name = ctx.operands[0].trimmingSpaces
        guard !name.isEmpty else { throw .usage("an app name must not be empty") }
        let before = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> RewardsState.App? in
            try requireParent(tx.state, ctx)
            let before = tx.state.apps[name.lowercased()]
            tx.record(by(ctx, ["type": "app_set", "name": .string(name), "category": .string(cat.rawValue), "points_per_hour": JSON(pph)]))
            return before
        }
        var o: JSONObject = ["type": "app", "name": .string(name), "category": .string(cat.rawValue), "points_per_hour": JSON(pph)]
        o["previous_category"] = JSON(before?.category.rawValue)
        ctx.out.emit(o, text: "\(name): \(cat.rawValue)" + (before.map { $0.category != cat ? " (was \($0.category.rawValue))" : "" } ?? ""))
        return .ok
    }

    static func appRemove(_ ctx: Context) throws(ToolError) -> ExitCode {
        let a = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> RewardsState.App in
            try requireParent(tx.state, ctx)
            guard let a = tx.state.apps[ctx.operands[0].lowercased()] else { throw ToolError(.dataError, "no app '\(ctx.operands[0])'; 'rewards app list' shows them") }
            tx.record(by(ctx, ["type": "app_removed", "name": .string(a.name)]))
            return a
        }
        ctx.out.emit(["type": "app", "name": .string(a.name), "removed": true], text: "Forgot \(a.name)")
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
                         text: "\(a.name)  \(a.category.rawValue)\(pph.map { "  \($0) points/hour" } ?? "")")
        }
        return .ok
    }

    static func appImport(_ ctx: Context) throws(ToolError) -> ExitCode {
        let sources = try InputSource.openAll(ctx.operands)
        defer { for s in sources { s.closeIfOwned() } }
        var events: [JSONObject] = []
        var bad = 0
        try NDJSON.forEachRecord(sources, { (src, n, o) throws(ToolError) in
            guard let name = (o["app"] ?? o["name"])?.string, !name.trimmingSpaces.isEmpty,
                  let cat = o["category"]?.string.flatMap(RewardsEngine.Category.init(rawValue:)) else {
                bad += 1
                ctx.warn("\(src):\(n): need {\"app\":NAME,\"category\":\"learning\"|\"reward\"|\"ignore\"}")
                return
            }
            var e: JSONObject = ["type": "app_set", "name": .string(name.trimmingSpaces), "category": .string(cat.rawValue)]
            if let p = o["points_per_hour"]?.int, cat == .learning, (1...10_000).contains(p) { e["points_per_hour"] = .int(p) }
            events.append(e)
        }, bad: { (src, n, reason) throws(ToolError) in bad += 1; ctx.warn("\(src):\(n): \(reason)") })
        try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) in
            try requireParent(tx.state, ctx)
            for e in events { tx.record(by(ctx, e)) }
        }
        for e in events { ctx.out.emit(["type": "app", "name": e["name"]!, "category": e["category"]!], text: "\(e["name"]!.string!): \(e["category"]!.string!)") }
        return bad > 0 ? .dataError : .ok
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

    // MARK: Usage in, points out

    struct Raw { var child: String; var app: String; var span: RewardsEngine.Span }

    static func evaluateAll(_ raws: [Raw], afk rawAFK: [String: [RewardsEngine.Span]], tx: inout Transaction<RewardsState>, ctx: Context) -> [JSONObject] {
        var out: [JSONObject] = []
        // Per batch: the engine's ledgers, settings and apps, looked up once.
        var ledgers: [String: RewardsEngine.Day] = [:]
        var settingsFor: [String: RewardsEngine.Settings] = [:]
        var appFor: [String: RewardsState.App?] = [:]
        var dayFor: [Int64: Day] = [:]
        let afk = rawAFK.mapValues { RewardsEngine.union($0) }
        for var r in raws.sorted(by: { ($0.span.start, $0.app) < ($1.span.start, $1.app) }) {
            let childID = r.child
            defer { if var last = out.popLast() { last["child"] = .string(tx.state.children[childID]?.name ?? childID); out.append(last) } }
            r.child = childID
            let session = RewardsEngine.Session(child: r.child, app: r.app, span: r.span)
            if tx.state.seen.contains(session.key) {
                out.append(["type": "session", "child": .string(r.child), "app": .string(r.app), "reason": "duplicate", "points": 0])
                continue
            }
            let hour = r.span.start / 3600
            let day = dayFor[hour] ?? ctx.zone.day(of: Instant(seconds: r.span.start))
            if ctx.zone.offset(at: Instant(seconds: r.span.start)) % 3600 == 0 { dayFor[hour] = day }
            let app: RewardsState.App?
            if let a = appFor[r.app] { app = a } else { app = tx.state.apps[r.app.lowercased()]; appFor[r.app] = app }
            let set = settingsFor[r.child] ?? tx.state.settings(for: r.child)
            settingsFor[r.child] = set
            let lkey = r.child + "|" + day.description
            let ledger = ledgers[lkey] ?? tx.state.ledger(r.child, day)
            let (o, d) = RewardsEngine.evaluate(session, category: app?.category, rate: app?.pointsPerHour ?? set.pointsPerHour,
                                                afk: afk[r.child] ?? [], day: ledger, settings: set, now: ctx.now.seconds)
            ledgers[lkey] = d
            if o.held {
                let id = IDs.make()
                tx.record(by(ctx, ["type": "flag", "id": .string(id), "child": .string(r.child), "app": .string(r.app), "start": .int(r.span.start),
                                   "end": .int(r.span.end), "reason": .string(o.reason), "key": .string(session.key)]))
                out.append(["type": "session", "child": .string(r.child), "app": .string(r.app), "reason": .string(o.reason), "held": true,
                            "flag": .string(id), "points": 0])
                continue
            }
            tx.record(by(ctx, ["type": "usage", "child": .string(r.child), "day": .string(day.description), "app": .string(r.app),
                               "start": .int(r.span.start), "end": .int(r.span.end), "category": JSON(app?.category.rawValue),
                               "reason": .string(o.reason), "learning_s": .int(o.learningSeconds), "reward_s": .int(o.rewardSeconds),
                               "points": JSON(o.points), "carry": .int(d.units), "key": .string(session.key),
                               "counted": .array(o.counted.map { .array([.int($0.start), .int($0.end)]) })]))
            out.append(["type": "session", "child": .string(r.child), "app": .string(r.app), "date": .string(day.description),
                        "reason": .string(o.reason), "learning_s": .int(o.learningSeconds),
                        "reward_s": .int(o.rewardSeconds), "points": JSON(o.points)])
        }
        return out
    }

    static func ingest(_ ctx: Context) throws(ToolError) -> ExitCode {
        var raws: [Raw] = []
        var afk: [String: [RewardsEngine.Span]] = [:]
        var bad = 0
        let pre = try store(ctx).read()
        try requireParent(pre, ctx)
        if let export = ctx.option("activitywatch") {
            guard let name = ctx.option("child") else { throw .usage("--activitywatch needs --child NAME") }
            let c = try childID(pre, name)
            guard let bytes = try Sys.readFile(export) else { throw ToolError(.noInput, "cannot open \(export): No such file or directory") }
            let doc: JSON
            do throws(JSONParseError) { doc = try JSON.parse(bytes) } catch { throw ToolError(.dataError, "\(export): \(error.message)") }
            switch ActivityWatch.read(doc) {
            case .failure(let e): throw ToolError(.dataError, "\(export): \(e.message)")
            case .success(let u):
                raws = u.sessions.map { Raw(child: c.id, app: $0.app, span: $0.span) }
                afk[c.id] = u.afk
            }
        } else {
            let strict = ctx.flag("strict")
            let sources = try InputSource.openAll(ctx.operands)
            defer { for s in sources { s.closeIfOwned() } }
            let hint = "need {\"child\",\"app\",\"start\",\"end\"} (or \"duration_s\" for \"end\"), times in RFC 3339"
            var childCache: [String: RewardsState.Child] = [:]
            try NDJSON.forEachRecord(sources, { (src, n, o) throws(ToolError) in
                func reject(_ m: String) throws(ToolError) {
                    bad += 1
                    if strict { throw ToolError(.dataError, "\(src):\(n): \(m) (--strict: nothing applied)") }
                    ctx.warn("\(src):\(n): \(m)")
                }
                guard let cn = o["child"]?.string, let c = childCache[cn] ?? pre.child(named: cn) else { return try reject("unknown or missing \"child\"; \(hint)") }
                childCache[cn] = c
                guard let app = o["app"]?.string, !app.isEmpty else { return try reject("missing \"app\"; \(hint)") }
                guard let s = o["start"]?.string.flatMap({ Clock.parseTime($0, zone: ctx.zone) }) else { return try reject("\"start\" must be an RFC 3339 time") }
                var end: Instant? = o["end"]?.string.flatMap { Clock.parseTime($0, zone: ctx.zone) }
                if end == nil, let d = o["duration_s"]?.double, d >= 0 { end = Instant(ms: s.ms + Int64(d * 1000)) }
                guard let e = end, e >= s else { return try reject("\"end\" (or \"duration_s\") must not be before \"start\"") }
                raws.append(Raw(child: c.id, app: app, span: RewardsEngine.Span(s.seconds, e.seconds)))
            }, bad: { (src, n, reason) throws(ToolError) in
                bad += 1
                if ctx.flag("strict") { throw ToolError(.dataError, "\(src):\(n): \(reason) (--strict: nothing applied)") }
                ctx.warn("\(src):\(n): \(reason)")
            })
        }
        let results = try store(ctx).write(full: true, at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> [JSONObject] in
            var out = evaluateAll(raws, afk: afk, tx: &tx, ctx: ctx)
            for (cid, c) in tx.state.children { for b in newBadges(tx.state, cid, today: ctx.today) {
                tx.record(by(ctx, ["type": "badge", "child": .string(cid), "badge": .string(b), "day": .string(ctx.today.description)]))
                out.append(["type": "badge", "child": .string(c.name), "badge": .string(b)])
            } }
            return out
        }
        for r in results {
            ctx.out.emit(r, text: r["type"]?.string == "badge" ? "Badge for \(r["child"]!.string!): \(r["badge"]!.string!)"
                         : "\(r["app"]?.string ?? "")  \(r["reason"]?.string ?? "")  +\(r["points"]?.int ?? 0)")
        }
        return bad > 0 ? .dataError : .ok
    }

    static func flagsList(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        try requireParent(s, ctx)
        for f in s.flags.values.filter({ $0.status == "pending" }).sorted(by: { $0.span < $1.span }) {
            ctx.out.emit(["type": "flag", "id": .string(f.id), "child": .string(s.children[f.child]?.name ?? f.child), "app": .string(f.app),
                          "start": .string(ctx.zone.format(Instant(seconds: f.span.start))), "end": .string(ctx.zone.format(Instant(seconds: f.span.end))),
                          "reason": .string(f.reason)],
                         text: "\(f.id.prefix(6))  \(s.children[f.child]?.name ?? "?")  \(f.app)  \(f.span.seconds / 60) min  \(f.reason == "future" ? "in the future" : "longer than the maximum")")
        }
        return .ok
    }

    static func decide(_ ctx: Context, approve: Bool) throws(ToolError) -> ExitCode {
        let out = try store(ctx).write(full: true, at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> [JSONObject] in
            try requireParent(tx.state, ctx)
            let matches = tx.state.flags.values.filter { $0.id.hasPrefix(ctx.operands[0]) }
            guard matches.count == 1, let f = matches.first else { throw ToolError(.dataError, "no single held session '\(ctx.operands[0])'; 'rewards flags' lists them") }
            guard f.status == "pending" else { throw ToolError(.dataError, "session \(f.id) was already \(f.status)") }
            tx.record(by(ctx, ["type": "flag_decided", "id": .string(f.id), "decision": .string(approve ? "approved" : "rejected")]))
            guard approve else { return [["type": "flag", "id": .string(f.id), "decision": "rejected"]] }
            // Approved: counted as if plausible (limits and overlap still apply).
            let day = ctx.zone.day(of: Instant(seconds: f.span.start))
            var set = tx.state.settings(for: f.child)
            try? set.set("max_session_minutes", "1440")
            let app = tx.state.apps[f.app.lowercased()]
            let s = RewardsEngine.Session(child: f.child, app: f.app, span: f.span)
            let (o, d) = RewardsEngine.evaluate(s, category: app?.category, rate: app?.pointsPerHour ?? set.pointsPerHour, afk: [],
                                                day: tx.state.ledger(f.child, day), settings: set, now: max(ctx.now.seconds, f.span.end))
            tx.record(by(ctx, ["type": "usage", "child": .string(f.child), "day": .string(day.description), "app": .string(f.app),
                               "start": .int(f.span.start), "end": .int(f.span.end), "reason": .string(o.held ? "approved" : o.reason),
                               "learning_s": .int(o.learningSeconds), "reward_s": .int(o.rewardSeconds), "points": JSON(o.points), "carry": .int(d.units),
                               "counted": .array(o.counted.map { .array([.int($0.start), .int($0.end)]) })]))
            return [["type": "flag", "id": .string(f.id), "decision": "approved", "points": JSON(o.points)]]
        }
        for r in out { ctx.out.emit(r, text: "\(r["decision"]!.string!)\(r["points"].map { ": +\($0.int ?? 0) points" } ?? "")") }
        return .ok
    }

    // MARK: Redeeming

    static func redeem(_ ctx: Context) throws(ToolError) -> ExitCode {
        let minutes = try ctx.int(ctx.operands[1], option: "MINUTES", range: 1...1440)
        let config = try Config.load(directory: ctx.configDir, known: ["grant_command"])
        let command = ctx.option("command") ?? config["grant_command"]
        let st = store(ctx)
        let (g, c) = try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (RewardsState.Grant, RewardsState.Child) in
            let c = try childID(tx.state, ctx.operands[0])
            try requireSelfOrParent(tx.state, ctx, child: c.id)
            if let a = ctx.option("app"), tx.state.apps[a.lowercased()]?.category != .reward {
                throw ToolError(.dataError, "'\(a)' is not a reward app; 'rewards app list --category reward' shows them")
            }
            let set = tx.state.settings(for: c.id)
            switch RewardsEngine.redeem(minutes: minutes, balance: tx.state.balance[c.id] ?? 0,
                                        grantedToday: tx.state.totals(c.id, ctx.today).grantedMinutes,
                                        grantedThisWeek: tx.state.grantedThisWeek(c.id, ctx.today), settings: set) {
            case .failure(let e): throw e
            case .success(let r):
                let id = IDs.make()
                tx.record(by(ctx, ["type": "grant", "id": .string(id), "child": .string(c.id), "minutes": JSON(r.minutes), "points": JSON(r.points),
                                   "app": JSON(ctx.option("app")), "day": .string(ctx.today.description)]))
                return (tx.state.grants[id]!, c)
            }
        }
        var rec: JSONObject = ["type": "grant", "id": .string(g.id), "child": .string(c.name), "login": JSON(c.login), "minutes": JSON(g.minutes),
                               "points": JSON(g.points), "app": JSON(g.app), "date": .string(g.day.description), "applied": false]
        var code = ExitCode.ok
        if let cmd = command {
            var input = [UInt8]()
            rec.write(into: &input)
            input.append(0x0A)
            let status = try Subprocess.shell(cmd, stdin: input, env: ["REWARDS_CHILD": c.name, "REWARDS_LOGIN": c.login ?? "",
                                                                       "REWARDS_MINUTES": "\(g.minutes)"], quiet: true)
            if status == 0 {
                try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) in tx.record(by(ctx, ["type": "grant_applied", "id": .string(g.id)])) }
                rec["applied"] = true
            } else {
                ctx.warn("the grant command exited \(status); the grant stands but is not applied")
                code = .tempFail
            }
        }
        ctx.out.emit(rec, text: "\(c.name): \(g.minutes) reward minutes for \(g.points) points\(rec["applied"] == true ? " (applied)" : "")")
        return code
    }

    static func allowanceRecord(_ s: RewardsState, _ c: RewardsState.Child, today: Day) -> JSONObject {
        let t = s.totals(c.id, today)
        let used = Int(t.rewardSeconds / 60)
        return ["type": "allowance", "child": .string(c.name), "date": .string(today.description), "granted_minutes": JSON(t.grantedMinutes),
                "used_minutes": JSON(used), "left_minutes": JSON(max(0, t.grantedMinutes - used)), "balance": JSON(s.balance[c.id] ?? 0)]
    }

    static func allowance(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        let c = try childID(s, ctx.operands[0])
        try requireSelfOrParent(s, ctx, child: c.id)
        let r = allowanceRecord(s, c, today: ctx.today)
        ctx.out.emit(r, text: "\(c.name) today: \(r["granted_minutes"]!.int!) min granted, \(r["used_minutes"]!.int!) used, \(r["left_minutes"]!.int!) left")
        return .ok
    }

    static func adjust(_ ctx: Context) throws(ToolError) -> ExitCode {
        let raw = ctx.operands[1]
        guard let p = Int(raw), p != 0, raw.hasPrefix("+") || raw.hasPrefix("-"), abs(p) <= 100_000 else {
            throw .usage("the adjustment is +N or -N points, like +50 or -20, not '\(raw)'")
        }
        guard let reason = ctx.option("reason")?.trimmingSpaces, !reason.isEmpty else { throw .usage("adjust needs --reason TEXT") }
        let (c, bal) = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (RewardsState.Child, Int) in
            try requireParent(tx.state, ctx)
            let c = try childID(tx.state, ctx.operands[0])
            let bal = tx.state.balance[c.id] ?? 0
            guard bal + p >= 0 else { throw ToolError(.dataError, "the balance is \(bal); at most -\(bal) can be taken away") }
            tx.record(by(ctx, ["type": "adjust", "child": .string(c.id), "points": JSON(p), "reason": .string(reason), "day": .string(ctx.today.description)]))
            return (c, bal + p)
        }
        ctx.out.emit(["type": "adjust", "child": .string(c.name), "points": JSON(p), "reason": .string(reason), "balance": JSON(bal)],
                     text: "\(c.name): \(p > 0 ? "+" : "")\(p) (\(reason)); balance \(bal)")
        return .ok
    }

    // MARK: Progress

    /// Consecutive days meeting the learning goal, ending today or yesterday.
    public static func streak(_ s: RewardsState, _ child: String, today: Day) -> Int {
        let goal = Int64(s.settings(for: child).dailyGoalMinutes) * 60
        func met(_ d: Day) -> Bool { s.totals(child, d).learningSeconds >= goal }
        var d = met(today) ? today : today.adding(days: -1)
        var n = 0
        while met(d) { n += 1; d = d.adding(days: -1) }
        return n
    }

    public static let badgeNames: [(id: String, name: String)] = [
        ("first-points", "First points"), ("points-100", "100 points"), ("points-500", "500 points"), ("points-1000", "1,000 points"),
        ("goal-met", "Daily goal reached"), ("streak-3", "3-day streak"), ("streak-7", "7-day streak"), ("streak-30", "30-day streak"),
    ]

    /// Badges earned and not yet awarded; each is awarded once.
    public static func newBadges(_ s: RewardsState, _ child: String, today: Day) -> [String] {
        let earned = s.earned[child] ?? 0
        let goal = Int64(s.settings(for: child).dailyGoalMinutes) * 60
        let st = streak(s, child, today: today)
        var due: [String] = []
        if earned >= 1 { due.append("first-points") }
        for n in [100, 500, 1000] where earned >= n { due.append("points-\(n)") }
        if (s.days[child] ?? [:]).values.contains(where: { $0.learningSeconds >= goal }) { due.append("goal-met") }
        for n in [3, 7, 30] where st >= n { due.append("streak-\(n)") }
        let have = s.badges[child] ?? []
        return due.filter { !have.contains($0) }
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

    static func dashboard(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        if s.owner == nil {
            if !ctx.out.isJSON { ctx.out.raw("No family yet. A parent starts with:\n  rewards init\n  rewards child add Alex --user alex\n  rewards app set Duolingo --learning\n  rewards app set Minecraft --reward\n") }
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
            let set = s.settings(for: c.id)
            let t = s.totals(c.id, ctx.today)
            let learning = Int(t.learningSeconds / 60), reward = Int(t.rewardSeconds / 60)
            let week = (0..<7).map { ctx.today.adding(days: $0 - 6) }
            let points = week.map { s.totals(c.id, $0).points }
            let bal = s.balance[c.id] ?? 0
            let affordable = min(bal / set.conversionRate, max(0, set.dailyRewardLimitMinutes - t.grantedMinutes),
                                 max(0, set.weeklyRewardLimitMinutes - s.grantedThisWeek(c.id, ctx.today)))
            let st = streak(s, c.id, today: ctx.today)
            let recent = s.recent[c.id] ?? []
            let rec: JSONObject = ["type": "dashboard", "child": .string(c.name), "id": .string(c.id), "balance": JSON(bal),
                                   "learning_minutes_today": JSON(learning), "reward_minutes_today": JSON(reward),
                                   "daily_goal_minutes": JSON(set.dailyGoalMinutes), "goal_progress": .double(min(1, Double(learning) / Double(set.dailyGoalMinutes))),
                                   "rewards_affordable_minutes": JSON(affordable), "streak_days": JSON(st),
                                   "points_last_7_days": .array(zip(week, points).map { .object(["date": .string($0.0.description), "points": JSON($0.1)]) }),
                                   "last_sessions": .array(recent.reversed().map { .object(["app": .string($0.app), "start": .string(ctx.zone.format(Instant(seconds: $0.start))),
                                                                                             "minutes": JSON(Int(($0.end - $0.start) / 60)), "reason": .string($0.reason), "points": JSON($0.points)]) }),
                                   "badges": JSON((s.badges[c.id] ?? []).sorted())]
            var text = "\(c.name)  ★ \(bal) points\(st > 0 ? "  🔥 \(st)-day streak" : "")\n"
            text += "  Today: \(learning) min learning, \(reward) min reward\n"
            text += "  Goal   \(bar(min(1, Double(learning) / Double(set.dailyGoalMinutes)))) \(learning)/\(set.dailyGoalMinutes) min\n"
            text += "  Week   \(sparkline(points))  \(points.reduce(0, +)) points in 7 days\n"
            text += "  Can redeem now: \(affordable) min\n"
            for r in recent.reversed() { text += "    \(ctx.zone.local(Instant(seconds: r.start)).time)  \(r.app)  \((r.end - r.start) / 60) min  +\(r.points)\n" }
            ctx.out.emit(rec, text: text)
        }
        return .ok
    }

    static func badgesCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        let c = try childID(s, ctx.operands[0])
        try requireSelfOrParent(s, ctx, child: c.id)
        let have = s.badges[c.id] ?? []
        for b in badgeNames {
            ctx.out.emit(["type": "badge", "child": .string(c.name), "badge": .string(b.id), "name": .string(b.name), "earned": .bool(have.contains(b.id))],
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
        var rows: [(String, String, Int, Int, Int)] = []  // child, group, learning s, reward s, points
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
            for (k, v) in groups.sorted(by: { $0.key < $1.key }) { rows.append((c.name, k, v.0, v.1, v.2)) }
        }
        if by == "app" || by == "category" { rows = try usageRows(ctx, kids: kids, from: from, to: to, by: by) }
        let format = ctx.option("format") ?? (ctx.out.isJSON ? "json" : "text")
        if format == "csv" {
            ctx.out.rawForced("child,\(by),learning_minutes,reward_minutes,points\r\n")
            for r in rows { ctx.out.rawForced("\(csv(r.0)),\(csv(r.1)),\(r.2 / 60),\(r.3 / 60),\(r.4)\r\n") }
            return .ok
        }
        for r in rows {
            let o: JSONObject = ["type": "report", "child": .string(r.0), by: .string(r.1), "learning_minutes": JSON(r.2 / 60),
                                 "reward_minutes": JSON(r.3 / 60), "points": JSON(r.4)]
            if format == "json" { ctx.out.rawForced(o.serialized + "\n") } else { ctx.out.raw("\(r.0)  \(r.1)  \(r.2 / 60) min learning  \(r.3 / 60) min reward  \(r.4) points\n") }
        }
        return .ok
    }

    static func csv(_ s: String) -> String {
        s.contains(",") || s.contains("\"") || s.contains("\n") ? "\"" + s.replacingAll("\"", "\"\"") + "\"" : s
    }

    /// Per app or category: read the usage events from the journal (the
    /// folded state keeps only daily totals).
    static func usageRows(_ ctx: Context, kids: [RewardsState.Child], from: Day, to: Day, by: String) throws(ToolError) -> [(String, String, Int, Int, Int)] {
        var acc: [String: [String: (Int, Int, Int)]] = [:]
        let ids = Set(kids.map(\.id))
        let journalDir = Sys.join(ctx.dataDir, "journal")
        for name in Sys.listDirectory(journalDir) where name.hasSuffix(".ndjson") {
            let src = try InputSource.openAll([Sys.join(journalDir, name)])
            defer { for x in src { x.closeIfOwned() } }
            try NDJSON.forEachRecord(src, { (_, _, e) throws(ToolError) in
                guard e["type"]?.string == "usage", let c = e["child"]?.string, ids.contains(c),
                      let d = e["day"]?.string.flatMap(Day.parse), d >= from, d <= to else { return }
                let key = by == "app" ? (e["app"]?.string ?? "?") : (e["category"]?.string ?? "uncategorized")
                let g = acc[c]?[key] ?? (0, 0, 0)
                acc[c, default: [:]][key] = (g.0 + Int(e["learning_s"]?.int ?? 0), g.1 + Int(e["reward_s"]?.int ?? 0), g.2 + Int(e["points"]?.int ?? 0))
            }, bad: { (_, _, _) throws(ToolError) in })
        }
        var rows: [(String, String, Int, Int, Int)] = []
        for c in kids { for (k, v) in (acc[c.id] ?? [:]).sorted(by: { $0.key < $1.key }) { rows.append((c.name, k, v.0, v.1, v.2)) } }
        return rows
    }

    // MARK: Cron

    static func rollover(_ ctx: Context) throws(ToolError) -> ExitCode {
        let out = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> [JSONObject] in
            try requireFamily(tx.state)
            var out: [JSONObject] = []
            for c in tx.state.children.values.sorted(by: { $0.name < $1.name }) {
                for b in newBadges(tx.state, c.id, today: ctx.today) {
                    tx.record(by(ctx, ["type": "badge", "child": .string(c.id), "badge": .string(b), "day": .string(ctx.today.description)]))
                    out.append(["type": "badge", "child": .string(c.name), "badge": .string(b)])
                }
                out.append(["type": "day", "child": .string(c.name), "date": .string(ctx.today.description),
                            "streak_days": JSON(streak(tx.state, c.id, today: ctx.today)), "balance": JSON(tx.state.balance[c.id] ?? 0)])
            }
            return out
        }
        for r in out { ctx.out.emit(r, text: r.serialized) }
        return .ok
    }

    /// One notification per person per run, from what has not been said yet.
    public static func notifications(_ s: RewardsState, today: Day, prefix: String) -> [(keys: [String], record: JSONObject)] {
        var out: [(keys: [String], record: JSONObject)] = []
        for c in s.children.values.sorted(by: { $0.name < $1.name }) {
            var lines: [String] = []
            var keys: [String] = []
            let t = s.totals(c.id, today)
            let k1 = "points|\(c.id)|\(today)|\(t.points)"
            if t.points > 0 && !s.notified.contains(k1) { lines.append("You earned \(t.points) points today."); keys.append(k1) }
            let set = s.settings(for: c.id)
            let affordable = min((s.balance[c.id] ?? 0) / set.conversionRate, max(0, set.dailyRewardLimitMinutes - t.grantedMinutes))
            let k2 = "available|\(c.id)|\(today)"
            if affordable > 0 && !s.notified.contains(k2) { lines.append("\(affordable) reward minutes are yours to redeem: \(prefix) redeem \(c.name) \(affordable)"); keys.append(k2) }
            let used = Int(t.rewardSeconds / 60)
            let k3 = "almost|\(c.id)|\(today)"
            if t.grantedMinutes > 0 && t.grantedMinutes - used <= 5 && !s.notified.contains(k3) { lines.append("Reward time is almost up (\(max(0, t.grantedMinutes - used)) min left)."); keys.append(k3) }
            if !lines.isEmpty && set.notify == 1 {
                out.append((keys, NotificationRecord(tool: "rewards", id: "child-\(c.id)-\(today)", title: "Hi \(c.name)!", body: lines.joined(separator: "\n"),
                                                     extra: ["to": .string(c.login ?? c.name), "role": "child"]).record))
            }
        }
        var lines: [String] = []
        var keys: [String] = []
        for c in s.children.values.sorted(by: { $0.name < $1.name }) {
            let t = s.totals(c.id, today)
            let set = s.settings(for: c.id)
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
        if !lines.isEmpty, let owner = s.owner, s.settings.notify == 1 {
            out.append((keys, NotificationRecord(tool: "rewards", id: "parent-\(today)-\(keys.count)", title: "rewards: family update", body: lines.joined(separator: "\n"),
                                                 extra: ["to": .string(owner), "role": "parent"]).record))
        }
        return out
    }

    static func notify(_ ctx: Context) throws(ToolError) -> ExitCode {
        let out = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> [JSONObject] in
            try requireFamily(tx.state)
            let ns = notifications(tx.state, today: ctx.today, prefix: "rewards")
            for n in ns { for k in n.keys { tx.record(by(ctx, ["type": "notified", "key": .string(k)])) } }
            return ns.map(\.record)
        }
        for n in out { ctx.out.emit(n, text: "\(n["title"]!.string!)\n  " + n["body"]!.string!.replacingAll("\n", "\n  ")) }
        return .ok
    }
}
