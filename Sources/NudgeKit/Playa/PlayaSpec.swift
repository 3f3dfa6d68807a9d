// playa's registry: the namespace and its limits, every command as
// declared with the handler that runs it (Commands/), the store and the
// configuration keys. The rules are in Rules/, the journal model in Model/.

/// playa: keep in touch — message pools and schedules per person, a daily
/// queue, and deep links that open the conversation with the message filled in.
public enum Playa {
    public static let maxRecipients = 50
    public static let maxMessages = 100
    public static let maxMessageLength = 500
    /// A message's cap in bytes of UTF-8, so that no one "character" (a
    /// grapheme cluster can hold any number of combining marks) is megabytes.
    public static let maxMessageBytes = 4000
    /// The least time between two random times of one recipient's day.
    public static let minimumSpacingMinutes = 30
    public static let windowStart = TimeOfDay(hour: 9, minute: 0)
    public static let windowEnd = TimeOfDay(hour: 21, minute: 0)

    static let yes = yesOption
    static let dateOption = OptionSpec("date", value: "DAY", help: "The day (default today)")
    static let commandOption = OptionSpec("command", value: "CMD", help: "The command to run", completion: .files)
    static let timeoutOption = OptionSpec("timeout", value: "SECONDS",
                                          help: "End the command after SECONDS (default \(defaultNotifyTimeoutSeconds); notify_timeout in the config file)")
    static let webOption = OptionSpec("web", help: "A web link (https://wa.me/…, https://ig.me/m/…, https://t.me/…, https://signal.me/…; e-mail's is the same mailto:) instead of the app's")

    /// Recipients' names complete from the store.
    public static let spec = declared.completing(
        ["recipient show": ["recipient"], "contacted": ["recipient"], "date add": ["recipient", ""], "date list": ["recipient"], "date rm": ["recipient", ""], "recipient edit": ["recipient"], "recipient pause": ["recipient"],
         "recipient resume": ["recipient"], "recipient rm": ["recipient"], "schedule": ["recipient"],
         "message add": ["recipient", ""], "message list": ["recipient"], "message edit": ["recipient", ""],
         "message rm": ["recipient", ""], "clone": ["recipient"],
         "link": ["event"], "open": ["event"], "cancel": ["event"], "notify": ["event"], "event edit": ["event", ""]],
        values: completionValues)

    /// Recipients by name; events by id, the pending ones.
    static func completionValues(_ ctx: Context, _ kind: String) throws(ToolError) -> [String] {
        switch kind {
        case "recipient": return try store(ctx).read().recipients.values.map(\.name).sorted()
        case "event":
            let s = try store(ctx).read()
            return s.events.values.filter { $0.status == .pending }.sorted { $0.at < $1.at }
                .map { "\($0.id)\t\($0.time) \(s.recipients[$0.recipientID]?.name ?? "")" }
        default: return []
        }
    }

    static let declared = ToolSpec(
        name: "playa",
        summary: "Keep in touch: message pools and schedules per person, a daily queue, and deep links that open WhatsApp, SMS, Instagram, Telegram, Signal or e-mail pre-filled.",
        commands: [
            CommandSpec("queue", summary: "Show the day's pending messages in time order", options: [dateOption], run: queueCommand).listed(),
            CommandSpec("recipient", summary: "Show the dashboard: everyone with their strategy and next message",
                        subcommands: [
                            CommandSpec("add", summary: "Add a recipient", usage: "NAME",
                                        options: [OptionSpec("platform", value: "PLATFORM", help: Platform.names, choices: Platform.allCases.map(\.rawValue)),
                                                  OptionSpec("phone", value: "E164", help: "Phone number with country code, like +14155550132"),
                                                  OptionSpec("username", value: "NAME", help: "Instagram or Telegram username (a leading @ is dropped)"),
                                                  OptionSpec("email", value: "ADDRESS", help: "E-mail address, for --platform email")],
                                        operands: .words, min: 1, max: 1, run: recipientAdd),
                            CommandSpec("import", summary: "Add or update recipients from vCards: .vcf files, vdirs (khard, vdirsyncer) or stdin", usage: "[FILE|DIR...]",
                                        options: [OptionSpec("platform", value: "PLATFORM", help: "For new recipients (default whatsapp with a phone, else email)",
                                                             choices: Platform.allCases.filter { $0.address != .username }.map(\.rawValue)),
                                                  OptionSpec("country", value: "CODE", help: "Country calling code of numbers written without one, like 44"),
                                                  OptionSpec("paused", help: "Add new recipients paused (not counted among the \(maxRecipients) active)"),
                                                  OptionSpec("dry-run", help: "Say what each card would do; change nothing")] + ToolSpec.progressOptions,
                                        operands: .files, min: 0, max: nil, records: ["card"], run: recipientImport),
                            CommandSpec("list", summary: "The dashboard (as 'playa recipient'): the most overdue first", run: dashboard).listed(),
                            CommandSpec("show", summary: "One recipient in full", usage: "NAME", operands: .words, min: 1, max: 1, run: recipientShow),
                            CommandSpec("edit", summary: "Change a recipient's name, platform or address", usage: "NAME",
                                        options: [OptionSpec("name", value: "NAME", help: "A new name"),
                                                  OptionSpec("platform", value: "PLATFORM", help: Platform.names, choices: Platform.allCases.map(\.rawValue)),
                                                  OptionSpec("phone", value: "E164", help: "A new phone number"),
                                                  OptionSpec("username", value: "NAME", help: "A new Instagram or Telegram username"),
                                                  OptionSpec("email", value: "ADDRESS", help: "A new e-mail address")],
                                        operands: .words, min: 1, max: 1, run: recipientEdit),
                            CommandSpec("pause", summary: "Stop generating messages for someone (cancels what is queued from today)", usage: "NAME",
                                        operands: .words, min: 1, max: 1, run: { (c) throws(ToolError) in try setPaused(c, true) }),
                            CommandSpec("resume", summary: "Start again (draws the rest of today)", usage: "NAME", operands: .words, min: 1, max: 1,
                                        run: { (c) throws(ToolError) in try setPaused(c, false) }),
                            CommandSpec("rm", summary: "Delete a recipient and erase every trace (asks on a terminal; --yes otherwise)", usage: "NAME",
                                        options: [yes], operands: .words, min: 1, max: 1, run: recipientRemove),
                        ], run: dashboard),
            CommandSpec("contacted", summary: "Record that you were in touch with someone (a call, a coffee, a message sent elsewhere)", usage: "NAME | --mail MAILBOX [NAME]",
                        options: [OptionSpec("at", value: "TIME", help: "When (default now): \(Clock.timeHint)"),
                                  OptionSpec("via", value: "WAY", help: contactWays.joined(separator: ", "), choices: contactWays),
                                  OptionSpec("note", value: "TEXT", help: "A note (at most \(maxContactNote) characters)"),
                                  OptionSpec("mail", value: "MAILBOX", help: "Record the last mail from or to each recipient (NAME: one) in an mbox file or Maildir",
                                             completion: .files)],
                        operands: .words, min: 0, max: 1, records: ["contact"], run: contacted),
            CommandSpec("schedule", summary: "Set when someone gets messages: N random times, fixed times, or a cadence after the last contact", usage: "NAME",
                        options: [OptionSpec("random", value: "N", help: "1 to 10 a day at random times 09:00-21:00, at least \(minimumSpacingMinutes) minutes apart"),
                                  OptionSpec("fixed", value: "TIMES", help: "Fixed times, like 09:30,18:00"),
                                  OptionSpec("every", value: "CADENCE", help: "One reminder a cadence after the last contact: 14d, 2w, 3m (days, weeks, months)")],
                        operands: .words, min: 1, max: 1, run: scheduleCommand),
            CommandSpec("date", summary: "Birthdays, anniversaries and other days, each with a reminder and messages of its own",
                        subcommands: [
                            CommandSpec("add", summary: "Add a date, or change one (the same label)", usage: "NAME LABEL DATE",
                                        options: [OptionSpec("before", value: "DAYS", help: "Remind DAYS before (0 to \(Occasion.maxBefore); default on the day)"),
                                                  OptionSpec("message", value: "TEXT", help: "Add a message to the occasion's pool")],
                                        operands: .words, min: 3, max: 3, records: ["date"], run: dateAdd),
                            CommandSpec("list", summary: "Everyone's dates (or one person's), the next first", usage: "[NAME]",
                                        operands: .words, min: 0, max: 1, records: ["date"], run: dateList).listed(),
                            CommandSpec("rm", summary: "Remove a date", usage: "NAME LABEL", operands: .words, min: 2, max: 2, run: dateRemove),
                        ], runnable: false),
            CommandSpec("message", summary: "Manage someone's message pool",
                        subcommands: [
                            CommandSpec("add", summary: "Add a message (at most 500 characters)", usage: "NAME TEXT...", operands: .words, min: 2, max: nil, run: messageAdd),
                            CommandSpec("list", summary: "List someone's messages", usage: "NAME", operands: .words, min: 1, max: 1, run: messageList).listed(),
                            CommandSpec("edit", summary: "Change a message (queued events show the new text)", usage: "NAME ID TEXT...", operands: .words, min: 3, max: nil, run: messageEdit),
                            CommandSpec("rm", summary: "Remove a message (queued events get another)", usage: "NAME ID", operands: .words, min: 2, max: 2, run: messageRemove),
                        ], runnable: false),
            CommandSpec("clone", summary: "Copy the schedule and/or messages from one recipient to another", usage: "FROM TO",
                        options: [OptionSpec("schedule", help: "Copy the schedule"), OptionSpec("messages", help: "Copy the message pool")],
                        operands: .words, min: 2, max: 2, run: clone),
            CommandSpec("generate", summary: "Make the day's events and mark past days' missed (for cron at 00:00; safe to re-run)",
                        options: [dateOption, OptionSpec("seed", value: "N", help: "Make the random draw reproducible")], group: .plumbing, records: ["event"], run: generate),
            CommandSpec("event", summary: "Change a queued event",
                        subcommands: [CommandSpec("edit", summary: "Change an event's message", usage: "ID TEXT...", operands: .words, min: 2, max: nil, run: eventEdit)],
                        runnable: false),
            CommandSpec("cancel", summary: "Cancel a pending event", usage: "ID", operands: .words, min: 1, max: 1, run: cancel),
            CommandSpec("confirm", summary: "Lock the day's schedule (asks on a terminal; --yes otherwise)", options: [dateOption, yes], run: confirm),
            CommandSpec("due", summary: "Print or hand over a notification for each event whose time has come, once (for cron)",
                        options: [commandOption, timeoutOption,
                                  OptionSpec("retry-unknown", help: "Hand over again notifications whose run died or timed out"),
                                  OptionSpec("take-over", help: "Notify from this device from now on (one device notifies; the first to run due)")],
                        group: .plumbing, records: ["notification"], run: due),
            CommandSpec("notify", summary: "Send one event's notification by hand, to test", usage: "ID",
                        options: [OptionSpec("test", help: "Required: this is a test, nothing is marked"), commandOption, timeoutOption],
                        operands: .words, min: 1, max: 1, group: .admin, run: notifyTest),
            CommandSpec("link", summary: "Print an event's deep link", usage: "ID",
                        options: [webOption], operands: .words, min: 1, max: 1, run: linkCommand),
            CommandSpec("open", summary: "Open an event's deep link and mark it sent", usage: "ID",
                        options: [commandOption, webOption],
                        operands: .words, min: 1, max: 1,
                        details: "Instagram and Signal cannot pre-fill a message: the message is copied to the clipboard\n(wl-copy, xclip or pbcopy, or clipboard_command in the config file) and the output says so.",
                        run: open),
            CommandSpec("export", summary: "Write everything as one JSON document", group: .admin, run: exportCommand),
            CommandSpec("import", summary: "Read a JSON document: all of it, or nothing if any part is bad", usage: "FILE",
                        operands: .files, min: 1, max: 1, group: .admin, run: importCommand),
            CommandSpec("devices", summary: "The devices sharing this journal folder, with when each last wrote", group: .admin,
                        run: { (c) throws(ToolError) in try Devices.command(c, try store(c)) }).listed(),
            Signers.command { (c) throws(ToolError) in try SignedPlace(c, try store(c)) },
            CommandSpec("reset", summary: "Erase everything (asks on a terminal; --yes otherwise)", options: [yes], group: .admin, run: reset),
        ],
        defaultCommand: ["queue"],
        footer: "Data: $XDG_DATA_HOME/playa (~/.local/share/playa). Nothing on stderr names a number or a message."
    )

    static let configKeys = ["open_command", "notify_command", "notify_timeout", "notify_device", "clipboard_command"]

    static func store(_ ctx: Context) throws(ToolError) -> Store<PlayaState> { Store(dir: ctx.dataDir, options: try ctx.storeOptions()) }

    static func prefix(_ ctx: Context) -> String {
        ctx.option("data-dir").map { "playa --data-dir " + ToolSpec.shQuote($0) } ?? "playa"
    }
}
