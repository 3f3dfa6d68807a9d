// yomo's registry: the `Yomo` namespace, every command as declared with the
// handler bound where it is declared (`run:`), the store opener and the
// configuration keys. Nothing here decides anything: the handlers are in
// Commands/, the rules they call in Rules/, the journal's fold in Model/.
//
// The order of `spec.commands` is the order of `--help` and of the
// completion scripts: the everyday commands, export and import, the devices,
// then the plumbing that cron runs (`due`, `watch`).

/// yomo: its spec, and the handlers and rules that hang off it.
public enum Yomo {
    static let recurrenceOptions: [OptionSpec] = [
        OptionSpec("date", value: "DAY", help: "The day: YYYY-MM-DD, today or tomorrow (default today)"),
        OptionSpec("time", value: "HH:MM", help: "The time, 24-hour (default the next full hour)"),
        OptionSpec("notes", value: "TEXT", help: "Notes shown with the reminder"),
        OptionSpec("repeat", value: "KIND", help: "none, daily, weekly or custom", choices: ["none", "daily", "weekly", "custom"]),
        OptionSpec("days", value: "DAYS", help: "Weekdays, like mon,wed,fri (weekly, or to limit hours)"),
        OptionSpec("every", value: "N", help: "Every N units (custom)"),
        OptionSpec("unit", value: "UNIT", help: "hour, day, week, month or year (custom)", choices: ["hour", "day", "week", "month", "year"]),
        OptionSpec("between", value: "HH:MM-HH:MM", help: "Hours only: a daily range, its end included (22:00-06:00 overnight)"),
        OptionSpec("on", value: "ORD-DAY", help: "Months or years only: 2nd-tue, last-fri"),
        OptionSpec("after-completion", help: "Repeat N units after each completion"),
        OptionSpec("until", value: "DAY", help: "The last day it may fall on, YYYY-MM-DD"),
        OptionSpec("times", value: "N", help: "How many occurrences in all"),
        OptionSpec("warn", value: "DURATIONS", help: "Also announce this long before each occurrence: 10m, 1h, or 1d,15m for two alerts"),
        OptionSpec("nag", value: "DURATION", help: "Announce again every 5m, 1h… until done, snoozed or dismissed (0: once)"),
        OptionSpec("list", value: "NAME", help: "The list it belongs to (groceries, work); \"\" for none").completing("list"),
        OptionSpec("tz", value: "ZONE", help: "The reminder's time zone (default TZ): America/New_York").aliased("timezone").completing("zone"),
    ]

    static let llmOption = OptionSpec("llm-command", value: "CMD", help: "Ask this model command first (text on stdin, JSON out)", completion: .files)

    /// Reminder ids complete from the store.
    public static let spec = declared.completing(
        ["edit": ["reminder"], "done": ["reminder"], "dismiss": ["reminder"], "snooze": ["reminder", ""], "rm": ["reminder"], "next": ["reminder"], "show": ["reminder"]],
        values: completionValues)

    static func completionValues(_ ctx: Context, _ kind: String) throws(ToolError) -> [String] {
        if kind == "list" {
            return Array(Set(try store(ctx).read().reminders.values.compactMap(\.list))).sorted()
        }
        guard kind == "reminder" else { return [] }
        // Each id with its title beside it (zsh and fish show it).
        return try store(ctx).read().reminders.values.filter { !$0.completed }.sorted { $0.id < $1.id }.map { "\($0.id)\t\($0.title)" }
    }

    static let declared = ToolSpec(
        name: "yomo",
        summary: "Reminders: natural-language entry, powerful recurrence, snooze and due notifications.",
        commands: [
            CommandSpec("list", summary: "Show active reminders, nearest first",
                        options: [OptionSpec("all", short: "a", help: "Include completed reminders"),
                                  OptionSpec("today", help: "Due by the end of today, overdue ones too"),
                                  OptionSpec("overdue", help: "Due and not done"),
                                  OptionSpec("upcoming", help: "Due in the next seven days"),
                                  OptionSpec("done-today", help: "Done today (a reminder or one of its occurrences)"),
                                  OptionSpec("list", value: "NAME", help: "Only the reminders of this list").completing("list")], run: list).listed(),
            CommandSpec("show", summary: "Show one reminder whole: its rule, next occurrences and last changes", usage: "ID",
                        options: [OptionSpec("limit", short: "n", value: "N", help: "How many next occurrences (default 5)")],
                        operands: .words, min: 1, max: 1, records: ["reminder_detail"], run: show),
            CommandSpec("add", summary: "Add a reminder from a sentence and options", usage: "TEXT...",
                        options: recurrenceOptions + [OptionSpec("literal", help: "Take TEXT as the title, parse nothing"), llmOption,
                                                      OptionSpec("yes", short: "y", help: "Keep a reading with a guess in it without asking (on a terminal it asks)")],
                        operands: .words, min: 1, max: nil,
                        details: "The text is parsed (\"water plants every tuesday at 3pm\"); options override what was parsed. On a terminal, a reading with a guess in it (\"at 4\": 16:00) is shown and asked about.", run: add),
            CommandSpec("parse", summary: "Print what the parser understood, without saving", usage: "TEXT...",
                        options: [llmOption], operands: .words, min: 1, max: nil, run: parseCommand),
            CommandSpec("edit", summary: "Change a reminder, or one occurrence of it", usage: "ID",
                        options: [OptionSpec("title", value: "TEXT", help: "A new title")] + recurrenceOptions
                            + [OptionSpec("occurrence", value: "WHEN", help: "Change only this occurrence (its day or time): with --date, --time or --cancel"),
                               OptionSpec("cancel", help: "With --occurrence: that occurrence does not happen")],
                        operands: .words, min: 1, max: 1,
                        details: "With --occurrence, one occurrence moves (--date, --time) or is cancelled (--cancel); the rule keeps the others.",
                        run: edit),
            CommandSpec("done", summary: "Complete a reminder (a recurring one moves to its next time)", usage: "ID",
                        operands: .words, min: 1, max: 1, run: done),
            CommandSpec("snooze", summary: "Snooze a reminder for 1 to 60 minutes (default 15)", usage: "ID [MINUTES]",
                        operands: .words, min: 1, max: 2, run: snooze),
            CommandSpec("dismiss", summary: "Stop a nagging reminder repeating; it stays to be done", usage: "ID",
                        operands: .words, min: 1, max: 1, run: dismiss),
            CommandSpec("rm", summary: "Delete a reminder (asks on a terminal; -y does not)", usage: "ID", options: [yesOption], operands: .words, min: 1, max: 1, run: remove),
            CommandSpec("rehome", summary: "Move reminders to another time zone, keeping their wall-clock times", usage: "ZONE [ID...]",
                        operands: .words, min: 1, max: nil,
                        details: "Without IDs, every active reminder moves. A 09:00 reminder stays at 09:00 in ZONE.",
                        group: .admin, run: rehome),
            CommandSpec("next", summary: "Show a reminder's next occurrences", usage: "ID",
                        options: [OptionSpec("limit", short: "n", value: "N", help: "How many (default 5)").aliased("count")],
                        operands: .words, min: 1, max: 1, run: nextCommand),
            CommandSpec("export", summary: "Print every reminder as yomo NDJSON, iCalendar or Taskwarrior JSON",
                        options: [OptionSpec("format", value: "FORMAT", help: "json (NDJSON, the default), ics (iCalendar) or taskwarrior (task import)",
                                             choices: ["json", "ics", "taskwarrior"])],
                        details: "The iCalendar form has a VTODO per reminder with DTSTART;TZID, RRULE and VALARM; what RRULE cannot say travels in X-YOMO-RECURRENCE, with a warning.",
                        records: ["reminder"], run: exportCommand),
            CommandSpec("import", summary: "Add reminders from yomo NDJSON, Taskwarrior's export or iCalendar: all, or nothing", usage: "FILE|-",
                        options: [OptionSpec("from", value: "FORMAT", help: "yomo, taskwarrior or ical (default: told by the content)",
                                             choices: ["yomo", "taskwarrior", "ical"]),
                                  OptionSpec("tz", value: "ZONE", help: "The zone for times without one (default TZ)").aliased("timezone").completing("zone")]
                            + ToolSpec.progressOptions,
                        operands: .files, min: 1, max: 1,
                        details: "Every problem is named (FILE:LINE, or the component); one problem and nothing is imported.",
                        records: ["reminder"], run: importCommand),
            CommandSpec("devices", summary: "List the devices that share these reminders, with when each was last seen",
                        subcommands: [
                            CommandSpec("forget", summary: "Take a device off the list (its history stays)", usage: "NAME",
                                        operands: .words, min: 1, max: 1,
                                        details: "The device's changes stay part of every reminder; it is listed again if it writes again.",
                                        run: devicesForget),
                        ],
                        details: "A device silent for \(YomoDevices.silentDays) days is marked silent.",
                        group: .admin, records: ["device"], run: devicesList).listed(),
            Signers.command { (c) throws(ToolError) in try SignedPlace(c, try store(c)) },
            CommandSpec("purge", summary: "Erase every reminder and its history, on every device (asks on a terminal; --yes otherwise)",
                        options: [yesOption],
                        details: "Writes an erasure that every device honours when it syncs: each one drops the erased changes from its own journal and snapshot.",
                        group: .admin, run: purge),
            CommandSpec("vdir", summary: "Keep a vdir (a folder of .ics tasks, for vdirsyncer and todoman) in step with the reminders",
                        subcommands: [
                            CommandSpec("sync", summary: "Read what other clients changed in the vdir, then write what yomo changed", usage: "[PATH]",
                                        options: ToolSpec.progressOptions, operands: .files, min: 0, max: 1,
                                        details: "PATH defaults to 'vdir' in the configuration. Run it from cron before and after 'vdirsyncer sync'.",
                                        records: ["vdir", "conflict", "dismiss"], run: vdirSync),
                        ],
                        runnable: false,
                        details: "With 'vdir = PATH' in the configuration every command that changes a reminder writes its file there, and due and watch read the files other clients changed.",
                        group: .plumbing),
            CommandSpec("due", summary: "Print a notification for each reminder whose time has come (for cron)",
                        group: .plumbing, records: ["notification"], run: dueCommand),
            CommandSpec("watch", summary: "Stay running and print notifications as reminders come due",
                        group: .plumbing, records: ["notification"], run: watch),
        ],
        defaultCommand: ["list"],
        footer: "IDs may be shortened to any unique prefix. Data: $XDG_DATA_HOME/yomo (~/.local/share/yomo)."
    )

    static let configKeys = ["llm_command", "llm_timeout", "theme", "vdir"]

    /// How long the model command may take (config `llm_timeout`, seconds).
    static func llmTimeoutMillis(_ config: Config) throws(ToolError) -> Int {
        guard let v = config["llm_timeout"] else { return 10_000 }
        guard let n = Double(v), n > 0, n <= 600 else {
            throw ToolError(.config, "llm_timeout must be a number of seconds from 0 to 600, not '\(v)'")
        }
        return Int(n * 1000)
    }

    /// The reminders' store in the data directory, opened with this run's
    /// options (its clock, its sync folder).
    static func store(_ ctx: Context) throws(ToolError) -> Store<YomoState> {
        try checkConfig(ctx)
        return Store(dir: ctx.dataDir, options: try ctx.storeOptions())
    }

    /// The configuration file, checked by every command that opens the
    /// store, on a terminal or piped or from cron alike: a typo is 78
    /// everywhere, not only where a theme is drawn.
    static let configChecked = MemoKey<Bool>("yomo.config")

    static func checkConfig(_ ctx: Context) throws(ToolError) {
        _ = try ctx.memoThrowing(configChecked) { () throws(ToolError) -> Bool in
            let config = try Config.load(directory: ctx.configDir, known: configKeys)
            _ = try llmTimeoutMillis(config)
            if let v = config["theme"], YomoTheme.parse(v) == nil { throw ToolError(.config, "\(YomoTheme.hint), not '\(v)'") }
            _ = try configuredVdir(ctx)
            return true
        }
    }

    /// The `theme` from the configuration file (default: "default").
    static func theme(_ ctx: Context) throws(ToolError) -> YomoTheme {
        let config = try Config.load(directory: ctx.configDir, known: configKeys)
        guard let v = config["theme"] else { return YomoTheme.named["default"]! }
        guard let t = YomoTheme.parse(v) else { throw ToolError(.config, "\(YomoTheme.hint), not '\(v)'") }
        return t
    }
}
