// tenclub's registry: the namespace, every command as declared with the
// handler that runs it (Commands/), the store and the configuration keys.
// The rules are in Rules/, the journal model in Model/.

/// tenclub: screen unlocks per day against a limit of ten, shown as a
/// playing card; an opted-in buddy is texted on a bust.
public enum Tenclub {
    public static let spec = ToolSpec(
        name: "tenclub",
        summary: "Count screen unlocks per day against a limit of ten, shown as a playing card.",
        commands: [
            CommandSpec("status", summary: "Show a day's unlock count as a playing card",
                        options: [OptionSpec("date", value: "DAY", help: "The day to show (default today)")],
                        details: "Zero unlocks shows the card face down; 1 is the Ace of Clubs, 2-10 that card of Clubs,\n11 or more the Joker: BUSTED!", run: status),
            CommandSpec("unlock", summary: "Record one screen unlock",
                        options: [OptionSpec("at", value: "TIME", help: "When it happened (default now)"),
                                  OptionSpec("undo", help: "Remove today's last counted unlock")],
                        details: "Meant for a lock-screen hook, e.g. swayidle -w unlock 'tenclub unlock'.\nUnlocks less than a second apart count once, from unlock and ingest alike.", run: unlock),
            CommandSpec("ingest", summary: "Record unlocks from NDJSON records with an 'at' time",
                        usage: "[FILE...]",
                        options: [OptionSpec("strict", help: "Apply nothing if any line is bad")] + ToolSpec.progressOptions,
                        operands: .files, max: nil,
                        details: "Each record needs \"at\": an RFC 3339 time, or epoch seconds (milliseconds from 10^11 on),\nfrom 2000-01-01 up to now; other fields are ignored.\nThe same instant is counted once, so a whole log can be fed again safely, and an instant\nless than a second from one already counted (by unlock or ingest) is the same unlock.", group: .plumbing, records: ["day"], run: ingest),
            CommandSpec("watch", summary: "Count unlocks as the desktop announces them on D-Bus (GNOME, KDE, logind)",
                        options: [OptionSpec("logind-session", value: "ID", help: "Also follow logind's LockedHint of session ID (default $XDG_SESSION_ID; none: off)")],
                        details: "Runs until the bus goes away, then exits 75 for systemd (Restart=on-failure) to start it again.\nFollows dbus-monitor: ActiveChanged of org.gnome.ScreenSaver, org.freedesktop.ScreenSaver\n(KDE and others), Cinnamon's, MATE's and Xfce's; and gdbus: logind's LockedHint of this session.\nOne unlock is counted once however many of them announce it; unlocks less than a second apart\ncount once, as for unlock.", records: ["unlock"], run: watch),
            CommandSpec("widget", summary: "Print a status-bar module (waybar, tmux or plain)",
                        options: [OptionSpec("style", value: "STYLE", help: "waybar, tmux or plain (default plain)",
                                             choices: ["waybar", "tmux", "plain"])], run: widgetCommand),
            CommandSpec("history", summary: "Show one record per day, oldest first, with the streak",
                        options: [OptionSpec("limit", short: "n", value: "N", help: "How many days up to today (default 7)").aliased("days")], run: historyCommand),
            CommandSpec("report", summary: "Pickups over a day, week or month: per hour, first unlock, average, runs",
                        options: [OptionSpec("period", value: "PERIOD", help: "day, week (Monday to Sunday) or month (default week)",
                                             choices: ["day", "week", "month"]),
                                  OptionSpec("date", value: "DAY", help: "A day in the period (default today)")],
                        details: "Counts tracked days only: from the first day counted up to today. The daily average is over\nthe finished days, its change against the period before; the hours and each day's first\nunlock are read in the zone in force now.",
                        records: ["report", "report_day"], run: reportCommand),
            CommandSpec("check", summary: "Exit 0 while today is within ten, 1 once busted", run: check),
            CommandSpec("buddy", summary: "Show the accountability buddy and whether they said YES",
                        subcommands: [
                            CommandSpec("set", summary: "Set the buddy's US number and text them the invitation",
                                        usage: "NUMBER", options: [OptionSpec("name", value: "NAME", help: "The buddy's name")],
                                        operands: .words, min: 1, max: 1,
                                        details: "NUMBER is a standard US number: 415-555-0132, (415) 555-0132, 4155550132 or +1 415 555 0132.\nA different number replaces the buddy; the old one gets nothing more.", run: buddySet),
                            CommandSpec("rm", summary: "Remove the buddy (nothing more is sent to them)", run: buddyRemove).aliased("remove"),
                        ], group: .admin, run: buddyShow),
            CommandSpec("sms", summary: "Text messages: the outbox, delivery, and replies",
                        subcommands: [
                            CommandSpec("outbox", summary: "Print the queued messages as sms records, with their delivery state", records: ["sms"], run: smsOutbox).listed(),
                            CommandSpec("deliver", summary: "Hand each queued message to your sending command, at most once",
                                        options: [OptionSpec("command", value: "CMD", help: "The sending command (default: sms_command in the config file)", completion: .files),
                                                  OptionSpec("timeout", value: "SECONDS", help: "End CMD after SECONDS (default \(defaultSendTimeoutSeconds); sms_timeout in the config file)"),
                                                  OptionSpec("retry-unknown", help: "Send again texts whose earlier send never finished"),
                                                  OptionSpec("take-over", help: "Send from this device from now on (one device sends; the first to run deliver)")],
                                        details: "CMD runs through /bin/sh with the sms record as JSON on its stdin and TENCLUB_SMS_TO,\nTENCLUB_SMS_BODY and TENCLUB_SMS_ID in its environment. \"sending\" is recorded before CMD\nruns; a message is marked sent only when CMD exits 0, and stays queued when it exits\nanything else. A send that never finished (the run was killed, or CMD ran past its\ntimeout) is unknown: it is not sent again unless --retry-unknown. With a sync folder one\ndevice sends, the first to run deliver (or sms_device in the config file); elsewhere it\nexits 77, silently with -q.", records: ["sms"], run: smsDeliver),
                            CommandSpec("receive", summary: "Read inbound texts {\"from\",\"body\",\"at\"}: YES, STOP, START, HELP",
                                        usage: "[FILE...]", options: [OptionSpec("strict", help: "Apply nothing if any line is bad")],
                                        operands: .files, max: nil, records: ["inbound"], run: smsReceive),
                            CommandSpec("log", summary: "Print what was sent, failed or dropped, when, to whom, oldest first", records: ["sms_log"], run: smsLog).listed(),
                        ], runnable: false, group: .plumbing),
            CommandSpec("devices", summary: "The devices sharing this journal folder, with when each last wrote", group: .admin,
                        run: { (c) throws(ToolError) in try Devices.command(c, try store(c)) }).listed(),
            Signers.command { (c) throws(ToolError) in try SignedPlace(c, try store(c)) },
            CommandSpec("rollover", summary: "Close every finished day (for cron at midnight; safe to re-run)", group: .plumbing, records: ["day_closed"], run: rollover),
        ],
        defaultCommand: ["status"],
        footer: "Data: $XDG_DATA_HOME/tenclub (~/.local/share/tenclub)."
    )

    static let configKeys = ["sms_command", "sms_timeout", "sms_device"]

    static func store(_ ctx: Context) throws(ToolError) -> Store<TenclubState> {
        Store(dir: ctx.dataDir, options: try ctx.storeOptions())
    }
}
