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
                                  childOption, OptionSpec("strict", help: "Apply nothing if any line is bad"),
                                  OptionSpec("sessions", help: "Also print what each session came to")],
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
        for d in s.usageDays(c.id) {
            let u = s.usageDay(c.id, d)
            for a in u.apps {
                out.record(["type": "usage", "child": .string(c.id), "date": .string(d.description), "app": .string(a.app), "category": JSON(a.category),
                            "sessions": JSON(a.sessions), "learning_s": .int(a.learningSeconds), "reward_s": .int(a.rewardSeconds), "points": JSON(a.points)])
            }
            for (app, spans) in u.sessions.sorted(by: { $0.key < $1.key }) {
                out.record(["type": "sessions", "child": .string(c.id), "date": .string(d.description), "app": .string(app),
                            "spans": .array(spans.map { .array([.string(ctx.zone.format(Instant(seconds: $0.start))), .string(ctx.zone.format(Instant(seconds: $0.end)))]) })])
            }
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

    /// A session as read, before evaluation: child and app are indexes into
    /// the run's tables, so that a million of them stay small.
    struct Raw { var child: Int32; var app: Int32; var start: Int64; var end: Int64 }

    /// What a run read: sessions, away spans, and the names they use.
    struct Intake {
        var children: [RewardsState.Child] = []
        var childByName: [String: Int32] = [:]
        var apps: [String] = []  // as first written
        var appKeys: [String] = []  // lower-cased: the app's identity
        var appByName: [String: Int32] = [:]
        var appByKey: [String: Int32] = [:]
        var raws: [Raw] = []
        var afk: [Int32: [RewardsEngine.Span]] = [:]

        mutating func child(_ name: String, in s: RewardsState) -> Int32? {
            if let i = childByName[name] { return i }
            guard let c = s.child(named: name) else { return nil }
            let i = children.firstIndex(of: c).map(Int32.init) ?? {
                children.append(c)
                return Int32(children.count - 1)
            }()
            childByName[name] = i
            return i
        }

        mutating func app(_ name: String) -> Int32 {
            if let i = appByName[name] { return i }
            let key = name.lowercased()
            let i = appByKey[key] ?? {
                apps.append(name)
                appKeys.append(key)
                appByKey[key] = Int32(apps.count - 1)
                return Int32(apps.count - 1)
            }()
            appByName[name] = i
            return i
        }
    }

    /// What one run adds to one child's day: built session by session,
    /// recorded as one usage_day event.
    struct DayBatch {
        let child: String
        let day: Day
        var usage = RewardsState.UsageDay()
        var recent: [RewardsState.SessionLine] = []
        var learningSeconds: Int64 = 0
        var rewardSeconds: Int64 = 0
        var points = 0
        var added = 0

        init(child: String, day: Day) {
            self.child = child
            self.day = day
        }

        /// Sessions must come in order of start (then app, then end).
        mutating func add(app: String, key: String, category: RewardsEngine.Category?, _ o: RewardsEngine.Outcome, reason: String) {
            added += 1
            let span = o.session.span
            usage.sessions[key, default: []].append(span)
            if category == .reward {
                for f in o.counted { RewardsEngine.insertMerged(&usage.rewarded, f) }
            } else {
                for f in o.counted { RewardsEngine.insertMerged(&usage.learned, f) }
            }
            learningSeconds += o.learningSeconds
            rewardSeconds += o.rewardSeconds
            points += o.points
            var a = RewardsState.AppDay(app: app, category: category?.rawValue)
            a.sessions = 1
            a.learningSeconds = o.learningSeconds
            a.rewardSeconds = o.rewardSeconds
            a.points = o.points
            usage.addApp(a)
            recent.append(RewardsState.SessionLine(app: app, start: span.start, end: span.end, reason: reason, points: o.points))
            if recent.count > 5 { recent.removeFirst() }
        }

        func event(carry: Int64) -> JSONObject {
            var e: JSONObject = ["type": "usage_day", "child": .string(child), "day": .string(day.description),
                                 "learning_s": .int(learningSeconds), "reward_s": .int(rewardSeconds), "points": JSON(points),
                                 "carry": .int(carry), "recent": .array(recent.map(\.json))]
            usage.write(into: &e)
            return e
        }
    }

    /// Evaluates what a run read against the family's days, recording one
    /// usage_day event per child and day and one flag per held session.
    /// Returns the records to print: per day, and with `each` per session.
    static func evaluate(_ intake: Intake, tx: inout Transaction<RewardsState>, ctx: Context, each: Bool) -> [JSONObject] {
        // In order of child, start, app (by name), end: each child's days are
        // runs, and the same session twice is side by side.
        let rank = intake.appKeys.indices.sorted { intake.appKeys[$0] < intake.appKeys[$1] }
        var rankOf = [Int32](repeating: 0, count: intake.appKeys.count)
        for (r, i) in rank.enumerated() { rankOf[i] = Int32(r) }
        func before(_ a: Raw, _ b: Raw) -> Bool {
            (a.child, a.start, rankOf[Int(a.app)], a.end) < (b.child, b.start, rankOf[Int(b.app)], b.end)
        }
        var byChild = [[Raw]](repeating: [], count: intake.children.count)
        for r in intake.raws { byChild[Int(r.child)].append(r) }
        for c in byChild.indices where zip(byChild[c], byChild[c].dropFirst()).contains(where: { before($1, $0) }) {
            byChild[c].sort(by: before)
        }
        let raws = byChild.flatMap { $0 }

        let flagKeys = Set(tx.state.flags.values.map { "\($0.child)|\($0.app.lowercased())|\($0.span.start)|\($0.span.end)" })
        let apps = intake.appKeys.map { tx.state.apps[$0] }
        var dayOfHour: [Int64: Day] = [:]
        func dayOf(_ t: Int64) -> Day {
            let hour = t >= 0 ? t / 3600 : (t - 3599) / 3600
            if let d = dayOfHour[hour] { return d }
            let d = ctx.zone.day(of: Instant(seconds: t))
            // Zones whose offset is whole hours change day on the hour.
            if ctx.zone.offset(at: Instant(seconds: t)) % 3600 == 0 && ctx.zone.offset(at: Instant(seconds: hour * 3600 + 3599)) % 3600 == 0 {
                dayOfHour[hour] = d
            }
            return d
        }
        let now = ctx.now.seconds
        var out: [JSONObject] = []
        var i = 0
        while i < raws.count {
            let ci = raws[i].child
            let child = intake.children[Int(ci)]
            let day = dayOf(raws[i].start)
            var j = i + 1
            while j < raws.count && raws[j].child == ci && dayOf(raws[j].start) == day { j += 1 }
            tx.state.materialize(child.id, day)
            let seen = tx.state.usageDay(child.id, day)
            var ledger = tx.state.ledger(child.id, day)
            let set = tx.state.settings(for: child.id)
            let afk = intake.afk[ci] ?? []
            var batch = DayBatch(child: child.id, day: day)
            var reasons: [(String, Int)] = []  // few, so a list beats hashing each session's
            var dups = 0, held = 0
            for k in i..<j {
                let r = raws[k]
                let span = RewardsEngine.Span(r.start, r.end)
                let key = intake.appKeys[Int(r.app)]
                let name = intake.apps[Int(r.app)]
                var o: RewardsEngine.Outcome
                var flagID: String? = nil
                let session = RewardsEngine.Session(child: child.id, app: name, span: span)
                if (k > i && raws[k - 1].app == r.app && raws[k - 1].start == r.start && raws[k - 1].end == r.end)
                    || seen.hasSession(app: key, span) || (!flagKeys.isEmpty && flagKeys.contains(session.key)) {
                    o = RewardsEngine.Outcome(session: session, category: apps[Int(r.app)]?.category, reason: "duplicate",
                                              learningSeconds: 0, rewardSeconds: 0, points: 0, counted: [])
                    dups += 1
                } else {
                    let app = apps[Int(r.app)]
                    o = RewardsEngine.evaluate(session, category: app?.category, rate: app?.pointsPerHour ?? set.pointsPerHour,
                                               afk: afk, day: &ledger, settings: set, now: now)
                    if o.held {
                        let id = IDs.make()
                        flagID = id
                        held += 1
                        tx.record(by(ctx, ["type": "flag", "id": .string(id), "child": .string(child.id), "app": .string(name),
                                           "start": .int(r.start), "end": .int(r.end), "reason": .string(o.reason), "day": .string(day.description)]))
                        out.append(["type": "flag", "id": .string(id), "child": .string(child.name), "child_id": .string(child.id),
                                    "app": .string(name), "start": .string(ctx.zone.format(Instant(seconds: r.start))),
                                    "end": .string(ctx.zone.format(Instant(seconds: r.end))), "reason": .string(o.reason)])
                    } else {
                        batch.add(app: name, key: key, category: app?.category, o, reason: o.reason)
                    }
                }
                if let n = reasons.firstIndex(where: { $0.0 == o.reason }) { reasons[n].1 += 1 } else { reasons.append((o.reason, 1)) }
                if each {
                    var rec: JSONObject = ["type": "session", "child": .string(child.name), "child_id": .string(child.id), "app": .string(name),
                                           "date": .string(day.description), "start": .string(ctx.zone.format(Instant(seconds: r.start))),
                                           "end": .string(ctx.zone.format(Instant(seconds: r.end))), "reason": .string(o.reason),
                                           "learning_s": .int(o.learningSeconds), "reward_s": .int(o.rewardSeconds), "points": JSON(o.points)]
                    if let f = flagID { rec["held"] = true; rec["flag"] = .string(f) }
                    out.append(rec)
                }
            }
            if batch.added > 0 { tx.record(by(ctx, batch.event(carry: ledger.units))) }
            reasons.sort { $0.0 < $1.0 }
            out.append(["type": "day", "child": .string(child.name), "child_id": .string(child.id), "date": .string(day.description),
                        "sessions": JSON(j - i), "added": JSON(batch.added), "duplicates": JSON(dups), "held": JSON(held),
                        "reasons": .object(JSONObject(parsedKeys: reasons.map(\.0), values: reasons.map { JSON($0.1) })),
                        "learning_s": .int(batch.learningSeconds), "reward_s": .int(batch.rewardSeconds), "points": JSON(batch.points),
                        "points_today": JSON(tx.state.totals(child.id, day).points)])
            i = j
        }
        return out
    }

    static let sessionFields: [[UInt8]] = ["child", "app", "start", "end", "duration_s"].map { Array($0.utf8) }

    /// A time in a session record: RFC 3339 (a local time without an offset
    /// is in the zone) or Unix seconds.
    static func sessionTime(_ v: JSON?, zone: Zone) -> Instant? {
        switch v {
        case .string(let s)?:
            guard let p = RFC3339.parse(s, allowLocal: true) else { return nil }
            if p.offsetSeconds != nil { return p.instant }
            return Instant(ms: zone.resolve(p.local).ms + p.instant.ms - p.local.wallSeconds * 1000)
        case .some(let x):
            guard let d = x.double, d > 0, d < 1e11 else { return nil }
            return Instant(ms: Int64((d * 1000).rounded()))
        case nil:
            return nil
        }
    }

    static func ingest(_ ctx: Context) throws(ToolError) -> ExitCode {
        var intake = Intake()
        var bad = 0
        let pre = try store(ctx).read()
        try requireParent(pre, ctx)
        if let export = ctx.option("activitywatch") {
            guard let name = ctx.option("child") else { throw .usage("--activitywatch needs --child NAME") }
            _ = try childID(pre, name)
            guard let ci = intake.child(name, in: pre) else { throw ToolError(.dataError, "no child named '\(name)'") }
            guard let bytes = try Sys.readFile(export) else { throw ToolError(.noInput, "cannot open \(export): No such file or directory") }
            let doc: JSON
            do throws(JSONParseError) { doc = try JSON.parse(bytes) } catch { throw ToolError(.dataError, "\(export): \(error.message)") }
            switch ActivityWatch.read(doc) {
            case .failure(let e): throw ToolError(.dataError, "\(export): \(e.message)")
            case .success(let u):
                for s in u.sessions { intake.raws.append(Raw(child: ci, app: intake.app(s.app), start: s.span.start, end: s.span.end)) }
                intake.afk[ci] = u.afk
            }
        } else {
            let strict = ctx.flag("strict")
            let sources = try InputSource.openAll(ctx.operands)
            defer { for s in sources { s.closeIfOwned() } }
            let hint = "need {\"child\",\"app\",\"start\",\"end\"} (or \"duration_s\" for \"end\"), times in RFC 3339"
            let zone = ctx.zone
            for src in sources {
                try NDJSON.forEachLine(src) { (n, line) throws(ToolError) in
                    func reject(_ m: String) throws(ToolError) {
                        bad += 1
                        if strict { throw ToolError(.dataError, "\(src.name):\(n): \(m) (--strict: nothing applied)") }
                        ctx.warn("\(src.name):\(n): \(m)")
                    }
                    let f: [JSON?]
                    do throws(JSONParseError) { f = try JSON.scanObject(line, fields: sessionFields) } catch { return try reject(error.message) }
                    guard let cn = f[0]?.string, let ci = intake.child(cn, in: pre) else { return try reject("unknown or missing \"child\"; \(hint)") }
                    guard let app = f[1]?.string, !app.isEmpty else { return try reject("missing \"app\"; \(hint)") }
                    guard let s = sessionTime(f[2], zone: zone) else { return try reject("\"start\" must be an RFC 3339 time") }
                    var end: Instant? = nil
                    if let x = f[3] {
                        guard let e = sessionTime(x, zone: zone) else { return try reject("\"end\" must be an RFC 3339 time") }
                        end = e
                    } else if let d = f[4]?.double, d >= 0, d < 1e9 {
                        end = Instant(ms: s.ms + Int64(d * 1000))
                    }
                    guard let e = end, e >= s else { return try reject("\"end\" (or \"duration_s\") must not be before \"start\"") }
                    intake.raws.append(Raw(child: ci, app: intake.app(app), start: s.seconds, end: e.seconds))
                }
            }
        }
        let each = ctx.flag("sessions")
        let results = try store(ctx).write(full: true, at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> [JSONObject] in
            var out = evaluate(intake, tx: &tx, ctx: ctx, each: each)
            for (cid, c) in tx.state.children { for b in newBadges(tx.state, cid, today: ctx.today) {
                tx.record(by(ctx, ["type": "badge", "child": .string(cid), "badge": .string(b), "day": .string(ctx.today.description)]))
                out.append(["type": "badge", "child": .string(c.name), "badge": .string(b)])
            } }
            return out
        }
        for r in results { ctx.out.emit(r, text: ingestText(r)) }
        return bad > 0 ? .dataError : .ok
    }

    static func ingestText(_ r: JSONObject) -> String {
        func s(_ k: String) -> String { r[k]?.string ?? "" }
        func n(_ k: String) -> Int64 { r[k]?.int ?? 0 }
        switch s("type") {
        case "badge": return "Badge for \(s("child")): \(s("badge"))"
        case "flag": return "Held for review (\(s("reason"))): \(s("child"))  \(s("app"))  \(s("start"))  rewards flag approve \(s("id").prefix(6))"
        case "session": return "  \(s("start"))  \(s("app"))  \(s("reason"))  +\(n("points"))"
        default:
            let dups = n("duplicates") > 0 ? ", \(n("duplicates")) already ingested" : ""
            let held = n("held") > 0 ? ", \(n("held")) held for review" : ""
            return "\(s("child"))  \(s("date"))  \(n("added")) new session\(n("added") == 1 ? "" : "s")\(dups)\(held)  "
                + "\(n("learning_s") / 60) min learning, \(n("reward_s") / 60) min reward  +\(n("points")) points (\(n("points_today")) today)"
        }
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
            tx.state.materialize(f.child, day)
            var ledger = tx.state.ledger(f.child, day)
            let o = RewardsEngine.evaluate(s, category: app?.category, rate: app?.pointsPerHour ?? set.pointsPerHour, afk: [],
                                           day: &ledger, settings: set, now: max(ctx.now.seconds, f.span.end))
            var batch = DayBatch(child: f.child, day: day)
            batch.add(app: f.app, key: f.app.lowercased(), category: app?.category, o, reason: o.held ? "approved" : o.reason)
            tx.record(by(ctx, batch.event(carry: ledger.units)))
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
        if by == "app" || by == "category" { rows = usageRows(s, kids: kids, from: from, to: to, by: by) }
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

    /// Per app or category, from each day's per-app totals.
    static func usageRows(_ s: RewardsState, kids: [RewardsState.Child], from: Day, to: Day, by: String) -> [(String, String, Int, Int, Int)] {
        var rows: [(String, String, Int, Int, Int)] = []
        for c in kids {
            var acc: [String: (Int, Int, Int)] = [:]
            for d in s.usageDays(c.id) where d >= from && d <= to {
                for a in s.usageDay(c.id, d).apps {
                    let key = by == "app" ? a.app : (a.category ?? "uncategorized")
                    let g = acc[key] ?? (0, 0, 0)
                    acc[key] = (g.0 + Int(a.learningSeconds), g.1 + Int(a.rewardSeconds), g.2 + a.points)
                }
            }
            for (k, v) in acc.sorted(by: { $0.key < $1.key }) { rows.append((c.name, k, v.0, v.1, v.2)) }
        }
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
