// rewards' registry: every command declared once, with its options, its
// group and the handler that runs it (`run:`); the global options; the
// config file's keys; and the store every handler opens (`store`, `write`):
// in a family folder the folder's journals, else the data directory. The
// handlers are in Commands/ (one file per group of commands), the rules they
// call in Rules/ (values in, decisions out), the state in Model/, the family
// folder's files in Access/RewardsFamilyFolder.swift.
//
// Invariants: `Rewards` is declared here and only extended elsewhere. A
// change goes through `write`, which records the family folder's waiting
// requests in the same batch and brings the folder in step after it, and
// every event a run records carries the run's byline (`by`).

public enum Rewards {
    // Options more than one command takes, and the global ones.
    static let childOption = OptionSpec("child", value: "NAME", help: "One child").completing("child")
    static let commandOption = OptionSpec("command", value: "CMD", help: "Hand the grant to this command (e.g. timekpra)", completion: .files)
    static let timeoutOption = OptionSpec("timeout", value: "SECONDS",
                                          help: "End CMD after SECONDS (default \(defaultGrantTimeoutSeconds); grant_timeout in the config file)")
    static let familyOption = OptionSpec("family", value: "DIR", help: "The family folder shared by the logins of one host (env REWARDS_FAMILY)",
                                         completion: .directories)
    static let noteOption = OptionSpec("note", value: "TEXT", help: "A note for the activity log, on any change")

    /// Children's names, apps and settings keys complete from the store.
    public static let spec = declared.completing(
        ["dashboard": ["child"], "allowance": ["child"], "badges": ["child"], "redeem": ["child", ""], "adjust": ["child", ""],
         "child rm": ["child"], "lock": ["child"], "unlock": ["child"], "bonus": ["child", ""], "widget": ["child"], "child export": ["child"], "app set": ["app"], "app rm": ["app"], "settings set": ["setting", ""]],
        values: completionValues)

    static func completionValues(_ ctx: Context, _ kind: String) throws(ToolError) -> [String] {
        switch kind {
        case "setting": return RewardsEngine.Settings.ranges.filter { $0.kind != .lock }.map(\.key) + ["grant_device"]
        case "child": return try store(ctx).read().children.values.map(\.name).sorted()
        case "app": return try store(ctx).read().apps.values.map(\.name).sorted()
        case "reward_app": return try store(ctx).read().apps.values.filter { $0.category == .reward }.map(\.name).sorted()
        default: return []
        }
    }

    static let declared = ToolSpec(
        name: "rewards",
        summary: "Family screen-time rewards: learning apps earn points, points buy reward time, parents set the rules.",
        commands: [
            CommandSpec("dashboard", summary: "Each child's points, today, goal, streak and the last sessions", usage: "[CHILD]",
                        operands: .words, max: 1, run: dashboard),
            CommandSpec("init", summary: "Create the family, with you as the parent (with --family: the family folder too)",
                        options: [OptionSpec("group", value: "GROUP", help: "With --family: only this group's members may ask (default: any login)")],
                        group: .admin, run: initFamily),
            CommandSpec("parent", summary: "The parents: a second parent joins with a one-time code",
                        subcommands: [
                            CommandSpec("invite", summary: "Make a one-time code for a second parent, valid 72 hours (the owner only)", run: parentInvite),
                            CommandSpec("join", summary: "Join as a parent with the code, as your own login", usage: "CODE",
                                        operands: .words, min: 1, max: 1, run: parentJoin),
                            CommandSpec("list", summary: "The parents, and any open invite", run: parentList).listed(),
                            CommandSpec("rm", summary: "Remove the second parent (the owner only)", usage: "LOGIN", operands: .words, min: 1, max: 1,
                                        run: parentRemove),
                        ], runnable: false, group: .admin),
            Signers.command(signedPlace),
            CommandSpec("ask", summary: "Ask the parents for more reward time (a child, in a family folder)", usage: "MINUTES",
                        operands: .words, min: 1, max: 1, run: ask),
            CommandSpec("requests", summary: "Children's requests waiting for a parent (--all: every recent one)",
                        options: [OptionSpec("all", help: "Decided ones too")], group: .admin, run: requestsList).listed(),
            CommandSpec("request", summary: "Decide a request for more time",
                        subcommands: [CommandSpec("approve", summary: "Give the time asked (or --minutes N)", usage: "ID",
                                                  options: [OptionSpec("minutes", value: "N", help: "Give N minutes instead")],
                                                  operands: .words, min: 1, max: 1, run: { (c) throws(ToolError) in try decideRequest(c, approve: true) }),
                                      CommandSpec("deny", summary: "Say no", usage: "ID", operands: .words, min: 1, max: 1,
                                                  run: { (c) throws(ToolError) in try decideRequest(c, approve: false) })],
                        runnable: false, group: .admin),
            CommandSpec("log", summary: "Every change: who, when, before and after, newest first",
                        options: [OptionSpec("limit", short: "n", value: "N", help: "At most N entries (default 50)").aliased("count"),
                                  OptionSpec("by", value: "LOGIN", help: "Changes by one person"),
                                  OptionSpec("type", value: "TYPE", help: "One kind: adjust, grant, app_set, setting_set, request, conflict, …"),
                                  childOption, OptionSpec("grep", value: "TEXT", help: "Entries whose text or note contains TEXT")],
                        group: .admin, run: log),
            CommandSpec("child", summary: "Children",
                        subcommands: [
                            CommandSpec("add", summary: "Add a child (a name and, if any, their login; nothing more)", usage: "NAME",
                                        options: [OptionSpec("user", value: "LOGIN", help: "The child's login, so they can see their own data")],
                                        operands: .words, min: 1, max: 1, run: childAdd),
                            CommandSpec("list", summary: "List the children", run: childList).listed(),
                            CommandSpec("rm", summary: "Remove a child; --purge erases every trace (asks on a terminal; --yes otherwise)", usage: "NAME",
                                        options: [OptionSpec("purge", help: "Erase all of the child's data, history included"), yesOption],
                                        operands: .words, min: 1, max: 1, run: childRemove),
                            CommandSpec("export", summary: "Everything held about a child, as NDJSON", usage: "NAME", operands: .words, min: 1, max: 1,
                                        run: childExport),
                        ], runnable: false, group: .admin),
            CommandSpec("app", summary: "Apps and their categories",
                        subcommands: [
                            CommandSpec("set", summary: "Categorise an app", usage: "APP",
                                        options: [OptionSpec("learning", help: "Learning: earns points"),
                                                  OptionSpec("points-per-hour", value: "N", help: "Points an hour for this learning app"),
                                                  OptionSpec("reward", help: "Reward: costs reward time"),
                                                  OptionSpec("process", value: "PATTERN", help: "A process name that is this app running (what enforce ends, what ActivityWatch reports); repeatable",
                                                             repeatable: true),
                                                  OptionSpec("title", value: "PATTERN", help: "A window title that is this app (a game in a browser, one of java's apps); repeatable",
                                                             repeatable: true),
                                                  OptionSpec("ignore", help: "Neither"),
                                                  OptionSpec("site", value: "DOMAIN", help: "A web site that is this app, with the hosts under it (again for more)",
                                                             repeatable: true)],
                                        operands: .words, min: 1, max: 1, run: appSet),
                            CommandSpec("rm", summary: "Forget an app", usage: "APP", operands: .words, min: 1, max: 1, run: appRemove),
                            CommandSpec("list", summary: "List apps",
                                        options: [OptionSpec("category", value: "C", help: "learning, reward or ignore", choices: ["learning", "reward", "ignore"]),
                                                  OptionSpec("search", value: "TEXT", help: "Names containing TEXT")], run: appList).listed(),
                            CommandSpec("import", summary: "Categorise many apps from NDJSON {\"app\",\"category\",\"points_per_hour\",\"sites\"}",
                                        usage: "[FILE...]", options: [OptionSpec("strict", help: "Apply nothing if any line is bad")],
                                        operands: .files, max: nil, run: appImport),
                        ], runnable: false, group: .admin),
            CommandSpec("settings", summary: "Show the rules (family, or one child's)", options: [childOption],
                        subcommands: [CommandSpec("set", summary: "Change a rule", usage: "KEY VALUE", options: [childOption],
                                                  operands: .words, min: 2, max: 2, run: settingsSet)], group: .admin, run: settingsShow),
            CommandSpec("ingest", summary: "Read app usage: sessions {\"child\",\"app\",\"start\",\"end\"}, an ActivityWatch export or its server",
                        usage: "[FILE...]",
                        options: [OptionSpec("activitywatch", value: "EXPORT|URL", help: "An ActivityWatch export (JSON), or a running aw-server (http://localhost:5600): what is new since the last run", completion: .files),
                                  childOption, OptionSpec("strict", help: "Apply nothing if any line is bad"),
                                  OptionSpec("sessions", help: "Also print what each session came to")] + ToolSpec.progressOptions,
                        operands: .files, max: nil, group: .plumbing, records: ["day", "session", "flag", "badge"], run: ingest),
            CommandSpec("flags", summary: "Sessions held for review", group: .admin, run: flagsList).listed(),
            CommandSpec("flag", summary: "Decide a held session",
                        subcommands: [CommandSpec("approve", summary: "Count it", usage: "ID", operands: .words, min: 1, max: 1,
                                                  run: { (c) throws(ToolError) in try decideFlag(c, approve: true) }),
                                      CommandSpec("reject", summary: "Drop it", usage: "ID", operands: .words, min: 1, max: 1,
                                                  run: { (c) throws(ToolError) in try decideFlag(c, approve: false) })],
                        runnable: false, group: .admin),
            CommandSpec("redeem", summary: "Convert points to reward minutes", usage: "CHILD MINUTES",
                        options: [OptionSpec("app", value: "APP", help: "For this reward app").completing("reward_app"), commandOption, timeoutOption],
                        operands: .words, min: 2, max: 2, run: redeem),
            CommandSpec("allowance", summary: "Reward minutes granted, used and left today; exits 1 when none is left", usage: "[CHILD]",
                        operands: .words, max: 1, run: allowance),
            CommandSpec("adjust", summary: "A bonus or a correction", usage: "CHILD +N|-N",
                        options: [OptionSpec("reason", value: "TEXT", help: "Why (required)")], operands: .words, min: 2, max: 2, group: .admin, run: adjust),
            CommandSpec("lock", summary: "End a child's reward time at once: until a time, for a while, or until unlocked", usage: "CHILD",
                        options: [OptionSpec("for", value: "DURATION", help: "For this long (30m, 2h, 1d)"),
                                  OptionSpec("until", value: "TIME", help: "Until this time (18:00, 6pm: the next one; or a date-time)")],
                        operands: .words, min: 1, max: 1, group: .admin, run: lock),
            CommandSpec("unlock", summary: "Lift a lock", usage: "CHILD", operands: .words, min: 1, max: 1, group: .admin, run: unlock),
            CommandSpec("bonus", summary: "More reward minutes today, costing no points", usage: "CHILD MINUTES",
                        options: [OptionSpec("reason", value: "TEXT", help: "Why (required)")], operands: .words, min: 2, max: 2, group: .admin, run: bonus),
            CommandSpec("widget", summary: "One line for a status bar: reward minutes left, downtime, balance", usage: "[CHILD]",
                        options: [OptionSpec("style", value: "STYLE", help: "plain, waybar or tmux", choices: ["plain", "waybar", "tmux"])],
                        operands: .words, max: 1, run: widgetCommand),
            CommandSpec("report", summary: "Learning and reward time and points, grouped",
                        options: [childOption, OptionSpec("from", value: "DAY", help: "First day (default 30 days ago)"),
                                  OptionSpec("to", value: "DAY", help: "Last day (default today)"),
                                  OptionSpec("by", value: "GROUP", help: "day, week, app or category", choices: ["day", "week", "app", "category"]),
                                  OptionSpec("format", value: "FORMAT", help: "json, csv or text", choices: ["json", "csv", "text"])], run: report),
            CommandSpec("badges", summary: "A child's badges", usage: "[CHILD]", operands: .words, max: 1, run: badgesCommand),
            CommandSpec("rollover", summary: "Close days: streaks and badges (for cron at midnight; safe to re-run)",
                        group: .plumbing, records: ["badge", "day"], run: rollover),
            CommandSpec("notify", summary: "Notifications for children and parents, one per person per run (for cron)",
                        group: .plumbing, records: ["notification"], run: notify),
            CommandSpec("enforce", summary: "Charge reward apps running now, warn at 5 minutes left, end them when time is up; take requests and apply grants (root's cron, every minute)",
                        options: [commandOption, timeoutOption,
                                  OptionSpec("interval", value: "SECONDS", help: "Time since the last run, charged to what runs now (default 60)"),
                                  OptionSpec("grace", value: "SECONDS", help: "Between SIGTERM and SIGKILL (default 10)"),
                                  OptionSpec("dry-run", help: "Say what would be ended; end nothing")],
                        group: .plumbing, records: ["grant", "notification", "enforced"], run: enforce),
        ],
        defaultCommand: ["dashboard"],
        globals: [familyOption, noteOption],
        footer: "Who you are: in a family folder (--family), your login; in a data directory of your own, $REWARDS_USER, else your login. Children see their own data, redeem and ask; everything else is for parents."
    )

    /// The config file's keys.
    static let configKeys = ["grant_command", "grant_timeout", "enforce_command", "family"]

    /// Seconds the grant command may run (`--timeout`, `grant_timeout`).
    public static let defaultGrantTimeoutSeconds = 60

    // MARK: The store

    static func store(_ ctx: Context) throws(ToolError) -> Store<RewardsState> {
        try checkIdentity(ctx)
        if let h = try familyFolder(ctx) {
            guard isParentHere(h) else {
                throw ToolError(.noPermission, "only a parent may do that (you are \(Sys.loginName())); see 'rewards dashboard' and 'rewards ask'")
            }
            return familyStore(ctx, h)
        }
        var o = try ctx.storeOptions()
        o.user = me(ctx)
        // Devices sharing a sync folder: the fold counts hand-over marks
        // only from the granting device (`markCounts`); one machine's own
        // store counts every one (its name may change with its host name).
        if let f = o.journalFolder {
            o.hostFacts.append(["type": "sync_folder"])
            // Parents on several laptops: each change is signed by the parent it names.
            o.signatures = try ctx.signatures(folder: f, principal: o.user, rule: .eventsBy)
        }
        return Store(dir: ctx.dataDir, options: o)
    }

    /// The sync folder parents share across laptops, for `signers`: each
    /// signs as the parent the run acts as.
    static func signedPlace(_ ctx: Context) throws(ToolError) -> SignedPlace {
        if let h = try familyFolder(ctx) {
            throw ToolError(.config, "\(h.path) is a family folder on this computer, where the kernel proves who wrote each journal: signers are for a sync folder shared across laptops")
        }
        let st = try store(ctx)
        return try SignedPlace(ctx, st, principal: st.options.user, rule: .eventsBy)
    }

    /// The state; read again in full when the part read left usage facts
    /// unfolded (they need the days' cold part), or does not hold the days
    /// around `today` (a clock set back past the snapshot's hot window).
    static func current(_ st: Store<RewardsState>, today: Day, full: Bool = false) throws(ToolError) -> RewardsState {
        let s = try st.read(full: full)
        return (s.needsFull || !s.holdsRecentDays(today)) && !full ? try st.read(full: true) : s
    }

    /// Runs a change: in a family folder, the requests waiting in the spool
    /// are recorded first, in the same batch, and the folder is brought in
    /// step after. A change that began without the cold part and met usage
    /// facts it could not fold gives its batch up (`Transaction.abandon`)
    /// and begins again in full.
    static func write<R>(_ ctx: Context, full: Bool = false, _ given: Store<RewardsState>? = nil, dryRun: Bool = false,
                         _ body: (inout Transaction<RewardsState>) throws(ToolError) -> R) throws(ToolError) -> R {
        switch try change(ctx, full: full, given, dryRun: dryRun, body) {
        case .done(let r):
            return r
        case .againInFull:
            guard case .done(let r) = try change(ctx, full: true, given, dryRun: dryRun, body) else {
                throw ToolError(.software, "internal error: a change read in full asked to begin again")
            }
            return r
        }
    }

    /// How a change went: done, or given up to begin again in full.
    enum Change<R> {
        case done(R)
        case againInFull
    }

    /// A dry run (`dryRun`) decides as a change would and writes nothing:
    /// the spool is not taken, the batch is abandoned.
    static func change<R>(_ ctx: Context, full: Bool, _ given: Store<RewardsState>?, dryRun: Bool = false,
                          _ body: (inout Transaction<RewardsState>) throws(ToolError) -> R) throws(ToolError) -> Change<R> {
        let st: Store<RewardsState>
        if let g = given { st = g } else { st = try store(ctx) }
        let h = try familyFolder(ctx)
        // In a family folder every writer (each parent, root's cron) takes
        // the family's lock first: each change is decided seeing every
        // change before it, so a grant handed over is never voided by a
        // merge, and one run's claim on a grant is seen by the next. A
        // co-parent holding it forever holds up only the co-parents
        // (`familyLocks`).
        let family = try h.map { (f) throws(ToolError) in
            try familyLocks(f, timeoutMillis: ctx.lockTimeoutMillis ?? 10_000) { ctx.warn($0) }
        } ?? []
        defer { for l in family.reversed() { l.release() } }
        var final: RewardsState? = nil
        let verdict = try st.write(full: full, at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Change<R> in
            if !full && (tx.state.needsFull || !tx.state.holdsRecentDays(ctx.today)) {
                tx.abandon()
                return .againInFull
            }
            if let h = h, tx.state.owner != nil, !dryRun { try takeRequests(ctx, h, &tx) }
            let r = try body(&tx)
            // (A usage fact this change records may need a day the index cannot give.)
            if !full && tx.state.needsFull {
                tx.abandon()
                return .againInFull
            }
            if dryRun {
                tx.abandon()
                return .done(r)
            }
            final = tx.state
            return .done(r)
        }
        guard case .done = verdict else { return verdict }
        if let h = h, let s = final { settle(ctx, h, s, store: st) }
        warnRefused(final)
        return verdict
    }

    /// One warning per author whose changes did not count.
    static func warnRefused(_ s: RewardsState?) {
        guard let s = s else { return }
        for (who, r) in s.refused.sorted(by: { $0.key < $1.key }) {
            Store<RewardsState>.warnOnce("\(r.count) change\(r.count == 1 ? "" : "s") by \(Text.terminalSafe(who)) did not count: \(Text.terminalSafe(r.why))")
        }
    }

    /// Writes the run's byline into an event: who made it, when, and the
    /// --note (the same for every event of the run).
    static func by(_ ctx: Context, _ e: JSONObject) -> JSONObject { byline(ctx)(e) }

    static let bylineKey = MemoKey<Byline>("rewards.by")

    static func byline(_ ctx: Context) -> Byline {
        ctx.memo(bylineKey) {
            let who = me(ctx), login = Sys.loginName()
            let synced = ((try? familyFolder(ctx)) ?? nil) == nil && ((try? ctx.storeOptions())?.journalFolder != nil)
            return Byline(by: .string(who), at: .string(ctx.clock.format(ctx.now)), note: ctx.option("note"), login: synced && who != login ? login : nil)
        }
    }
}
