// habitmatch's registry: every command as declared, with the handler bound
// where it is declared (handlers live in Commands/, one file per group),
// the store opener and the configuration keys. Nothing here decides
// anything: what a pool is and who is acting are in Access/, the fold in
// Model/, the decisions in Rules/.
//
// Invariants: `Habitmatch` is declared here and nowhere else (every other
// file extends it); every runnable command has a handler; the store is
// always opened through `store(_:)`, which checks the pool and who is
// acting before anything is read.

public enum Habitmatch {
    static let measureOptions = [
        OptionSpec("every", value: "FREQ", help: "day, week, month, N/week, N/month, N/Md, Nd, weekdays, weekends, or days: mon,wed,fri"),
        OptionSpec("target", value: "N", help: "Measurable: how much a day (a period of --every), or off"),
        OptionSpec("unit", value: "UNIT", help: "The target's unit: pages, km, minutes"),
    ]
    static let habitOp = OptionSpec("habit", value: "HABIT", help: "A catalog habit, or other:TEXT (up to 3)", repeatable: true)

    /// `meetings --format ics`, as yomo's export says it; `--ics` is its
    /// old spelling, accepted and not shown.
    static let meetingsFormat = OptionSpec("format", value: "FORMAT", help: "json, text or ics (an iCalendar file)", choices: ["json", "text", "ics"])
    static var meetingsICS: OptionSpec {
        var o = OptionSpec("ics", help: "Print an iCalendar file (as --format ics)")
        o.hidden = true
        return o
    }

    /// Values complete from the store, as this member may see them: your
    /// habits (by id), the members you may swipe or look at, your matches,
    /// your buddies. Nothing the member could not list otherwise.
    public static let spec = declared.completing(
        ["done": ["habit"], "undo": ["habit"], "calendar": ["habit"], "habit rm": ["habit"], "habit remind": ["habit", ""],
         "habit set": ["habit"], "stats": ["habit"], "export": ["habit"],
         "like": ["member"], "pass": ["member"], "profile": ["member"], "block": ["member"],
         "chat": ["match"], "meet": ["match"], "unmatch": ["match"], "buddy accept": ["match"]],
        values: completionValues)

    static func completionValues(_ ctx: Context, _ kind: String) throws(ToolError) -> [String] {
        let s = try store(ctx).read()
        let m = try member(s, ctx)
        switch kind {
        case "habit": return m.habits.map(\.id)
        case "match": return s.matches(of: m.user).sorted()
        case "buddy": return s.buddies(of: m.user).sorted()
        case "member":
            let seen = Set(visibleCandidates(for: m, in: s, now: ctx.now).map(\.member.user)).union(s.matches(of: m.user))
            return seen.sorted()
        default: return []
        }
    }

    static let declared = ToolSpec(
        name: "habitmatch",
        summary: "Habits on a calendar, and accountability buddies who share them, found by swiping.",
        commands: [
            CommandSpec("dashboard", summary: "Your habits this week, streaks, buddies, matches, the next meeting", run: dashboard),
            CommandSpec("join", summary: "Join the pool with a profile and up to three habits",
                        options: [OptionSpec("name", value: "NAME", help: "Your name as others see it"),
                                  OptionSpec("email", value: "ADDR", help: "For calendar invitations"),
                                  OptionSpec("tz", value: "ZONE", help: "IANA zone (default the system's)").aliased("timezone").completing("zone"),
                                  OptionSpec("bio", value: "TEXT", help: "A line about you"), habitOp], group: .admin, run: join),
            CommandSpec("catalog", summary: "The habits to choose from", group: .admin, run: catalogCommand),
            CommandSpec("habit", summary: "Your habits",
                        subcommands: [
                            CommandSpec("list", summary: "List your habits with streaks", run: habitList).listed(),
                            CommandSpec("add", summary: "Add a habit (at most 3)", usage: "HABIT", options: measureOptions, operands: .words, min: 1, max: 1, run: habitAdd),
                            CommandSpec("set", summary: "Set how often a habit is meant (--every) and how much (--target, --unit)", usage: "HABIT",
                                        options: measureOptions, operands: .words, min: 1, max: 1, run: habitSet),
                            CommandSpec("rm", summary: "Drop a habit", usage: "HABIT", operands: .words, min: 1, max: 1, run: habitRemove),
                            CommandSpec("remind", summary: "Be reminded at HH:MM if the habit is not done (or 'off')", usage: "HABIT HH:MM",
                                        operands: .words, min: 2, max: 2, run: habitRemind),
                        ], group: .admin, run: habitList),
            CommandSpec("profile", summary: "Show a member's profile (default yours)", usage: "[USER]",
                        operands: .words, max: 1,
                        subcommands: [CommandSpec("set", summary: "Change your profile",
                                                  options: [OptionSpec("name", value: "NAME", help: "Your name"),
                                                            OptionSpec("email", value: "ADDR", help: "Your e-mail, or '' to remove it"),
                                                            OptionSpec("tz", value: "ZONE", help: "IANA zone").aliased("timezone").completing("zone"),
                                                            OptionSpec("bio", value: "TEXT", help: "A line about you")],
                                                  run: profileSet)],
                        group: .admin, run: profile),
            CommandSpec("candidates", summary: "Members who share a habit, best first",
                        options: [OptionSpec("limit", short: "n", value: "N", help: "How many (default 10)")], run: candidatesCommand),
            CommandSpec("like", summary: "Swipe right", usage: "USER", operands: .words, min: 1, max: 1,
                        run: { (c) throws(ToolError) in try swipe(c, c.operands[0], true) }),
            CommandSpec("pass", summary: "Swipe left", usage: "USER", operands: .words, min: 1, max: 1,
                        run: { (c) throws(ToolError) in try swipe(c, c.operands[0], false) }),
            CommandSpec("swipe", summary: "Swipe right or left", usage: "USER right|left", operands: .words, min: 2, max: 2, run: swipeCommand),
            CommandSpec("chat", summary: "Read or write to a match", usage: "USER [TEXT...]", operands: .words, min: 1, max: nil, run: chat),
            CommandSpec("buddy", summary: "Your buddies",
                        subcommands: [CommandSpec("accept", summary: "Accept a match as a buddy (both must)", usage: "USER",
                                                  operands: .words, min: 1, max: 1, run: buddyAccept)], run: buddyList),
            CommandSpec("done", summary: "Mark a habit done for a day (a measurable one: how much)", usage: "[HABIT]",
                        options: [OptionSpec("date", value: "DAY", help: "The day (default today)"),
                                  OptionSpec("amount", value: "N", help: "A measurable habit: the day's amount (default its target)"),
                                  OptionSpec("add", value: "N", help: "A measurable habit: add N to the day's amount")], operands: .words, max: 1,
                        run: { (c) throws(ToolError) in try mark(c, true) }),
            CommandSpec("undo", summary: "Unmark a day", usage: "[HABIT]",
                        options: [OptionSpec("date", value: "DAY", help: "The day (default today)")], operands: .words, max: 1,
                        run: { (c) throws(ToolError) in try mark(c, false) }),
            CommandSpec("calendar", summary: "A month of progress, or a year at a glance", usage: "[HABIT]",
                        options: [OptionSpec("month", value: "YYYY-MM", help: "The month (default this one)"),
                                  OptionSpec("year", value: "YYYY", help: "A year as a heat map, weeks as columns (this: this year)"),
                                  OptionSpec("of", value: "USER", help: "A buddy's calendar").completing("buddy")],
                        operands: .words, max: 1, run: calendar),
            CommandSpec("stats", summary: "Each habit by week or month: done against its frequency, strength, streaks", usage: "[HABIT]",
                        options: [OptionSpec("by", value: "PERIOD", help: "week or month (default week)", choices: ["week", "month"]),
                                  OptionSpec("limit", short: "n", value: "N", help: "The latest N periods (default 8 weeks, 6 months)"),
                                  OptionSpec("of", value: "USER", help: "A buddy's habits").completing("buddy")],
                        operands: .words, max: 1, run: stats),
            CommandSpec("export", summary: "Every day of your habits, or Loop Habit Tracker's CSV tables", usage: "[HABIT]",
                        options: [OptionSpec("format", value: "FORMAT", help: "json, text or csv (Loop's tables; text prints them too)", choices: ["json", "text", "csv"]),
                                  OptionSpec("table", value: "TABLE", help: "checkmarks, scores or habits (default checkmarks)", choices: ["checkmarks", "scores", "habits"]),
                                  OptionSpec("of", value: "USER", help: "A buddy's habits").completing("buddy")],
                        operands: .words, max: 1, run: export),
            CommandSpec("meet", summary: "Schedule a check-in (30 minutes at most) with a match or buddy", usage: "USER",
                        options: [OptionSpec("at", value: "TIME", help: "\"YYYY-MM-DD HH:MM\", \"today HH:MM\" or \"tomorrow HH:MM\""),
                                  OptionSpec("tz", value: "ZONE", help: "The zone of --at (default yours)").aliased("timezone").completing("zone"),
                                  OptionSpec("minutes", value: "N", help: "1 to 30 (default 30)"),
                                  OptionSpec("weekly", help: "Every week"),
                                  OptionSpec("description", value: "TEXT", help: "Default: a check-in checklist")],
                        operands: .words, min: 1, max: 1, run: meet),
            CommandSpec("meetings", summary: "Upcoming meetings", options: [meetingsFormat, meetingsICS],
                        subcommands: [
                            CommandSpec("cancel", summary: "Cancel a check-in (either of the two may)", usage: "ID", operands: .words, min: 1, max: 1, run: meetingCancel),
                            CommandSpec("move", summary: "Move a check-in to another time", usage: "ID",
                                        options: [OptionSpec("at", value: "TIME", help: "\"YYYY-MM-DD HH:MM\", \"today HH:MM\" or \"tomorrow HH:MM\""),
                                                  OptionSpec("tz", value: "ZONE", help: "The zone of --at (default the meeting's)").aliased("timezone").completing("zone")],
                                        operands: .words, min: 1, max: 1, run: meetingMove),
                        ], run: meetingsCommand),
            CommandSpec("unmatch", summary: "Part ways with a match or buddy (no chat, no meetings, not offered again; asks on a terminal)", usage: "USER",
                        options: [yesOption], operands: .words, min: 1, max: 1, run: unmatch),
            CommandSpec("block", summary: "Never see a member again; what they write about you is ignored", usage: "USER",
                        operands: .words, min: 1, max: 1, run: block),
            CommandSpec("unblock", summary: "Undo a block of yours (a match starts over with two likes)", usage: "USER",
                        operands: .words, min: 1, max: 1, run: unblock),
            CommandSpec("report", summary: "Tell the pool's owner about a member", usage: "USER REASON...",
                        operands: .words, min: 2, max: nil, run: report),
            CommandSpec("pool", summary: "The pool itself",
                        subcommands: [
                            CommandSpec("init", summary: "Make a pool folder with the right owners and modes", usage: "DIR",
                                        options: [OptionSpec("group", value: "GROUP", help: "The group whose logins are the members (host pool)"),
                                                  OptionSpec("synced", help: "A pool kept in step across machines by a sync engine")],
                                        operands: .files, min: 1, max: 1, run: poolInit),
                            CommandSpec("reports", summary: "Reports members made (the pool's owner only)", run: poolReports).listed(),
                            CommandSpec("match", summary: "Tell members their new matches, ended matches and blocks (the host pool's owner, from cron)",
                                        run: poolMatch),
                            CommandSpec("restamp", summary: "Give your changes stamped ahead of this computer's clock (an old --now write) stamps of now, so others see them",
                                        run: poolRestamp),
                        ], runnable: false, group: .admin),
            Signers.command(signedPlace),
            CommandSpec("remind", summary: "Notifications: habits not done yet, meetings soon, milestones, matches (for cron)", group: .plumbing, records: ["notification"], run: remind),
        ],
        defaultCommand: ["dashboard"],
        globals: [OptionSpec("user", value: "USER", help: "Your member name in a synced pool (env HABITMATCH_USER; default your login)"),
                  OptionSpec("pool", value: "DIR", help: "The shared pool (env HABITMATCH_POOL)", completion: .directories)],
        syncs: false,
        footer: "The pool is a folder the members share; each writes only their own journal in it."
    )

    // MARK: The store and the configuration

    /// This member's folded view of the pool, kept privately in their data
    /// directory (one per pool). Refuses a host pool's --user naming
    /// somebody else, and a pool this user may not look into.
    static func store(_ ctx: Context) throws(ToolError) -> Store<HabitmatchState> {
        warnIfOpen(ctx.dataDir)
        let p = try pool(ctx)
        try checkIdentity(ctx, p)
        // A pool this user may not look into is an error naming it (77),
        // not an empty pool.
        _ = try Sys.pathState(Sys.join(p.path, "journal"))
        let user = me(ctx)
        let dir = p.stateDirectory(dataDir: ctx.dataDir, user: user)
        let isOwner = p.kind == .host && p.owner == geteuid()
        var o = p.storeOptions(user: user, lockTimeoutMillis: ctx.lockTimeoutMillis, nowMillis: ctx.now.ms,
                               reads: p.kind == .host ? loadReads(dir) : .init(), isOwner: isOwner)
        o.clockPinned = ctx.pinned
        // A synced pool with an allowed_signers list: who wrote each batch is proven by their SSH key.
        if p.kind != .host { o.signatures = try ctx.signatures(folder: p.path, principal: user, state: dir) }
        return Store(dir: dir, options: o)
    }

    /// A synced pool, for `signers`: each member signs as their member name.
    static func signedPlace(_ ctx: Context) throws(ToolError) -> SignedPlace {
        let p = try pool(ctx)
        if p.kind == .host {
            throw ToolError(.config, "\(p.path) is a host pool, where the kernel proves who wrote each journal: signers are for a synced pool")
        }
        return try SignedPlace(ctx, try store(ctx), principal: me(ctx))
    }

    static let configKeys = ["max_buddies", "pool"]

    /// The buddy cap from the configuration (`max_buddies`, 1 to 20).
    static func maxBuddies(_ ctx: Context) throws(ToolError) -> Int {
        let c = try Config.load(directory: ctx.configDir, known: configKeys)
        guard let v = c["max_buddies"] else { return defaultMaxBuddies }
        guard let n = Int(v), (1...20).contains(n) else { throw ToolError(.config, "\(c.path): max_buddies must be 1 to 20") }
        return n
    }
}
