// rewards' commands: the declaration, the handler table, and what every
// handler shares (who is calling, the store, roles). The handlers live in
// one file per command group (RewardsFamily, RewardsApps, RewardsUsage,
// RewardsRedeem, RewardsProgress, RewardsCron); the rules they call take
// values, not a Context (Ingest, Progress, Report, Notifications, Erasure,
// PointsEngine).

public enum Rewards {
    static let childOption = OptionSpec("child", value: "NAME", help: "One child")
    static let commandOption = OptionSpec("command", value: "CMD", help: "Hand the grant to this command (e.g. timekpra)", completion: .files)

    public static let spec = ToolSpec(
        name: "rewards",
        summary: "Family screen-time rewards: learning apps earn points, points buy reward time, parents set the rules.",
        commands: [
            CommandSpec("dashboard", summary: "Each child's points, today, goal, streak and the last sessions", usage: "[CHILD]",
                        operands: .words, max: 1, run: dashboard),
            CommandSpec("init", summary: "Create the family, with you as the parent", group: .admin, run: initFamily),
            CommandSpec("child", summary: "Children",
                        subcommands: [
                            CommandSpec("add", summary: "Add a child (a name and, if any, their login; nothing more)", usage: "NAME",
                                        options: [OptionSpec("user", value: "LOGIN", help: "The child's login, so they can see their own data")],
                                        operands: .words, min: 1, max: 1, run: childAdd),
                            CommandSpec("list", summary: "List the children", run: childList),
                            CommandSpec("rm", summary: "Remove a child; --purge erases every trace", usage: "NAME",
                                        options: [OptionSpec("purge", help: "Erase all of the child's data, history included")],
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
                                                  OptionSpec("ignore", help: "Neither"),
                                                  OptionSpec("site", value: "DOMAIN", help: "A web site that is this app, with the hosts under it (again for more)",
                                                             repeatable: true)],
                                        operands: .words, min: 1, max: 1, run: appSet),
                            CommandSpec("rm", summary: "Forget an app", usage: "APP", operands: .words, min: 1, max: 1, run: appRemove),
                            CommandSpec("list", summary: "List apps",
                                        options: [OptionSpec("category", value: "C", help: "learning, reward or ignore", choices: ["learning", "reward", "ignore"]),
                                                  OptionSpec("search", value: "TEXT", help: "Names containing TEXT")], run: appList),
                            CommandSpec("import", summary: "Categorise many apps from NDJSON {\"app\",\"category\",\"points_per_hour\",\"sites\"}",
                                        usage: "[FILE...]", options: [OptionSpec("strict", help: "Apply nothing if any line is bad")],
                                        operands: .files, max: nil, run: appImport),
                        ], runnable: false, group: .admin),
            CommandSpec("settings", summary: "Show the rules (family, or one child's)", options: [childOption],
                        subcommands: [CommandSpec("set", summary: "Change a rule", usage: "KEY VALUE", options: [childOption],
                                                  operands: .words, min: 2, max: 2, run: settingsSet)], group: .admin, run: settingsShow),
            CommandSpec("ingest", summary: "Read app usage: sessions {\"child\",\"app\",\"start\",\"end\"} or an ActivityWatch export",
                        usage: "[FILE...]",
                        options: [OptionSpec("activitywatch", value: "EXPORT", help: "An ActivityWatch export (JSON)", completion: .files),
                                  childOption, OptionSpec("strict", help: "Apply nothing if any line is bad"),
                                  OptionSpec("sessions", help: "Also print what each session came to")],
                        operands: .files, max: nil, group: .plumbing, records: ["day", "session", "flag", "badge"], run: ingest),
            CommandSpec("flags", summary: "Sessions held for review", group: .admin, run: flagsList),
            CommandSpec("flag", summary: "Decide a held session",
                        subcommands: [CommandSpec("approve", summary: "Count it", usage: "ID", operands: .words, min: 1, max: 1,
                                                  run: { (c) throws(ToolError) in try decide(c, approve: true) }),
                                      CommandSpec("reject", summary: "Drop it", usage: "ID", operands: .words, min: 1, max: 1,
                                                  run: { (c) throws(ToolError) in try decide(c, approve: false) })],
                        runnable: false, group: .admin),
            CommandSpec("redeem", summary: "Convert points to reward minutes", usage: "CHILD MINUTES",
                        options: [OptionSpec("app", value: "APP", help: "For this reward app"), commandOption],
                        operands: .words, min: 2, max: 2, run: redeem),
            CommandSpec("allowance", summary: "Reward minutes granted, used and left today", usage: "CHILD", operands: .words, min: 1, max: 1, run: allowance),
            CommandSpec("adjust", summary: "A bonus or a correction", usage: "CHILD +N|-N",
                        options: [OptionSpec("reason", value: "TEXT", help: "Why (required)")], operands: .words, min: 2, max: 2, group: .admin, run: adjust),
            CommandSpec("report", summary: "Learning and reward time and points, grouped",
                        options: [childOption, OptionSpec("from", value: "DAY", help: "First day (default 30 days ago)"),
                                  OptionSpec("to", value: "DAY", help: "Last day (default today)"),
                                  OptionSpec("by", value: "GROUP", help: "day, week, app or category", choices: ["day", "week", "app", "category"]),
                                  OptionSpec("format", value: "FORMAT", help: "json, csv or text", choices: ["json", "csv", "text"])], run: report),
            CommandSpec("badges", summary: "A child's badges", usage: "CHILD", operands: .words, min: 1, max: 1, run: badgesCommand),
            CommandSpec("rollover", summary: "Close days: streaks and badges (for cron at midnight; safe to re-run)",
                        group: .plumbing, records: ["badge", "day"], run: rollover),
            CommandSpec("notify", summary: "Notifications for children and parents, one per person per run (for cron)",
                        group: .plumbing, records: ["notification"], run: notify),
        ],
        defaultCommand: ["dashboard"],
        footer: "Who you are: $REWARDS_USER, else your login. Children may view their own data and redeem; everything else is for parents."
    )

    /// The caller: $REWARDS_USER, else the login. (`child add --user` names
    /// the child's login, so there is no global --user here.)
    static func me(_ ctx: Context) -> String {
        Sys.env("REWARDS_USER").flatMap { $0.isEmpty ? nil : $0 } ?? Sys.userName()
    }

    static func store(_ ctx: Context) throws(ToolError) -> Store<RewardsState> {
        var o = try ctx.storeOptions()
        o.user = me(ctx)
        return Store(dir: ctx.dataDir, options: o)
    }

    /// Stamps an event with who made it and when (computed once per run).
    static func by(_ ctx: Context, _ e: JSONObject) -> JSONObject { stamp(ctx)(e) }

    static func stamp(_ ctx: Context) -> Stamp {
        ctx.memo("rewards.by") { Stamp(by: .string(me(ctx)), at: .string(ctx.clock.format(ctx.now))) }
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
}
