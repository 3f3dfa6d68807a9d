// yomo's commands: the declaration, and thin handlers over the pure core.

extension Yomo {
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
        OptionSpec("warn", value: "DURATION", help: "Also announce this long before each occurrence: 10m, 1h, 2d"),
        OptionSpec("tz", value: "ZONE", help: "The reminder's time zone (default TZ): America/New_York"),
    ]

    static let llmOption = OptionSpec("llm-command", value: "CMD", help: "Ask this model command first (text on stdin, JSON out)", completion: .files)

    public static let spec = ToolSpec(
        name: "yomo",
        summary: "Reminders: natural-language entry, powerful recurrence, snooze and due notifications.",
        commands: [
            CommandSpec("list", summary: "Show active reminders, nearest first",
                        options: [OptionSpec("all", short: "a", help: "Include completed reminders")], run: list),
            CommandSpec("add", summary: "Add a reminder from a sentence and options", usage: "TEXT...",
                        options: recurrenceOptions + [OptionSpec("literal", help: "Take TEXT as the title, parse nothing"), llmOption],
                        operands: .words, min: 1, max: nil,
                        details: "The text is parsed (\"water plants every tuesday at 3pm\"); options override what was parsed.", run: add),
            CommandSpec("parse", summary: "Print what the parser understood, without saving", usage: "TEXT...",
                        options: [llmOption], operands: .words, min: 1, max: nil, run: parseCommand),
            CommandSpec("edit", summary: "Change a reminder", usage: "ID",
                        options: [OptionSpec("title", value: "TEXT", help: "A new title")] + recurrenceOptions,
                        operands: .words, min: 1, max: 1, run: edit),
            CommandSpec("done", summary: "Complete a reminder (a recurring one moves to its next time)", usage: "ID",
                        operands: .words, min: 1, max: 1, run: done),
            CommandSpec("snooze", summary: "Snooze a reminder for 1 to 60 minutes (default 15)", usage: "ID [MINUTES]",
                        operands: .words, min: 1, max: 2, run: snooze),
            CommandSpec("rm", summary: "Delete a reminder", usage: "ID", operands: .words, min: 1, max: 1, run: remove),
            CommandSpec("rehome", summary: "Move reminders to another time zone, keeping their wall-clock times", usage: "ZONE [ID...]",
                        operands: .words, min: 1, max: nil,
                        details: "Without IDs, every active reminder moves. A 09:00 reminder stays at 09:00 in ZONE.",
                        group: .admin, run: rehome),
            CommandSpec("next", summary: "Show a reminder's next occurrences", usage: "ID",
                        options: [OptionSpec("count", short: "n", value: "N", help: "How many (default 5)")],
                        operands: .words, min: 1, max: 1, run: nextCommand),
        ] + exchangeCommands + deviceCommands + [
            CommandSpec("due", summary: "Print a notification for each reminder whose time has come (for cron)",
                        group: .plumbing, records: ["notification"], run: dueCommand),
            CommandSpec("watch", summary: "Stay running and print notifications as reminders come due",
                        group: .plumbing, records: ["notification"], run: watch),
        ],
        defaultCommand: ["list"],
        footer: "IDs may be shortened to any unique prefix. Data: $XDG_DATA_HOME/yomo (~/.local/share/yomo)."
    )

    static let configKeys = ["llm_command", "llm_timeout", "theme"]

    /// How long the model command may take (config `llm_timeout`, seconds).
    static func llmTimeoutMillis(_ config: Config) throws(ToolError) -> Int {
        guard let v = config["llm_timeout"] else { return 10_000 }
        guard let n = Double(v), n > 0, n <= 600 else {
            throw ToolError(.config, "llm_timeout must be a number of seconds from 0 to 600, not '\(v)'")
        }
        return Int(n * 1000)
    }

    static func store(_ ctx: Context) throws(ToolError) -> Store<YomoState> {
        Store(dir: ctx.dataDir, options: try ctx.storeOptions())
    }

    static func formOptions(_ ctx: Context) -> ReminderFormOptions {
        var o = ReminderFormOptions()
        o.title = ctx.option("title")
        o.date = ctx.option("date")
        o.time = ctx.option("time")
        o.notes = ctx.option("notes")
        o.repeatKind = ctx.option("repeat")
        o.days = ctx.option("days")
        o.every = ctx.option("every")
        o.unit = ctx.option("unit")
        o.between = ctx.option("between")
        o.on = ctx.option("on")
        o.afterCompletion = ctx.flag("after-completion")
        o.until = ctx.option("until")
        o.times = ctx.option("times")
        o.warn = ctx.option("warn")
        return o
    }

    /// The zone a new or edited reminder lives in: --tz, else its own, else TZ.
    static func reminderZone(_ ctx: Context, current: Reminder? = nil) throws(ToolError) -> Zone {
        if let tz = ctx.option("tz") {
            do throws(ToolError) { return try Zone.named(tz) } catch { throw ToolError(.usage, "--tz: \(error.message)") }
        }
        return current?.zone(ctx.zone) ?? ctx.zone
    }

    /// The built-in parse, or the user's model when it answers with valid JSON.
    static func understand(_ text: String, ctx: Context) throws(ToolError) -> (ParsedReminder, String) {
        let builtin = ReminderParser.parse(text, now: ctx.now, zone: ctx.zone)
        let config = try Config.load(directory: ctx.configDir, known: configKeys)
        guard let cmd = ctx.option("llm-command") ?? config["llm_command"], !cmd.isEmpty else { return (builtin, "builtin") }
        let prompt = "Extract reminder details from the user input. Today is \(ctx.today) (\(Weekdays.names[ctx.today.weekday])), now \(ctx.zone.local(ctx.now).time). Return JSON only: {\"title\": string, \"date\": \"YYYY-MM-DD\" or null, \"time\": \"HH:mm\" or null, \"recurrence_type\": \"none\"|\"daily\"|\"weekly\"|\"custom\", \"recurrence_rule\": {\"interval\": number, \"unit\": \"hour\"|\"day\"|\"week\"|\"month\"|\"year\", \"days_of_week\": [\"mon\",...] or null, \"time_range_start\": \"HH:mm\" or null, \"time_range_end\": \"HH:mm\" or null, \"based_on_completion\": boolean} or null}\nInput: \"\(text)\"\n"
        let (status, out) = try Subprocess.capture(cmd, stdin: Array(prompt.utf8), env: ["YOMO_TEXT": text],
                                                   timeoutMillis: try llmTimeoutMillis(config))
        if status == Subprocess.timedOut {
            ctx.warn("the model command took longer than \(try llmTimeoutMillis(config) / 1000) s and was stopped; using the built-in parser")
            return (builtin, "builtin")
        }
        guard status == 0 else {
            ctx.warn("the model command exited \(status); using the built-in parser")
            return (builtin, "builtin")
        }
        // Models like to wrap JSON in prose or code fences: take the outermost object.
        var bytes = out
        if let a = bytes.firstIndex(of: UInt8(ascii: "{")), let b = bytes.lastIndex(of: UInt8(ascii: "}")), a < b {
            bytes = Array(bytes[a...b])
        }
        switch Result(catching: { () throws(JSONParseError) in try JSON.parse(bytes) }).flatMap(validateParse) {
        case .success(let p): return (p, "llm")
        case .failure(let e):
            ctx.warn("the model's answer does not fit the schema (\(e.message)); using the built-in parser")
            return (builtin, "builtin")
        }
    }

    /// The `theme` from the configuration file (default: "default").
    static func theme(_ ctx: Context) throws(ToolError) -> YomoTheme {
        let config = try Config.load(directory: ctx.configDir, known: configKeys)
        guard let v = config["theme"] else { return YomoTheme.named["default"]! }
        guard let t = YomoTheme.parse(v) else { throw ToolError(.config, "\(YomoTheme.hint), not '\(v)'") }
        return t
    }

    static func line(_ r: Reminder, zone reader: Zone) -> String {
        let zone = r.zone(reader)
        let l = zone.local(r.effectiveTrigger)
        var when = "\(Weekdays.display(l.day.weekday)) \(l.day) \(l.time)"
        if zone.name != reader.name { when += " \(zone.name)" }
        let mark = r.recurrence.repeats ? "↻" : " "
        var s = "\(r.id.prefix(6).terminalSafe)  \(when)  \(mark)  \(r.title.terminalSafe)"
        if r.recurrence.repeats { s += "  (\(r.recurrence.summary))" }
        if r.snoozedUntil != nil { s += "  [snoozed]" }
        if r.completed { s += "  [done]" }
        return s
    }

    static func list(_ ctx: Context) throws(ToolError) -> ExitCode {
        // The common case, JSON of the active reminders, prints the stored
        // records of untouched reminders without parsing them.
        if ctx.out.isJSON && !ctx.flag("all") && !ctx.out.quiet {
            var s = try store(ctx).read(lazy: true)
            if !s.rawZones.isSubset(of: ["", ctx.zone.name]) { s.materializeAll() }
            // Sort keys: effective trigger, then id (its first 16 bytes packed
            // into two integers, so that comparing is cheap; the whole id only
            // on a tie); raw rows by index, parsed ones by -1 - index.
            var rows: [(Int64, UInt64, UInt64, Int)] = []
            rows.reserveCapacity(s.raw.count + s.reminders.count)
            func pack(_ b: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
                var hi: UInt64 = 0, lo: UInt64 = 0
                for i in 0..<16 {
                    let byte = i < b.count ? UInt64(b[i]) : 0
                    if i < 8 { hi = hi << 8 | byte } else { lo = lo << 8 | byte }
                }
                return (hi, lo)
            }
            if let storage = s.rawStorage {
                for (k, r) in s.raw.enumerated() {
                    guard let r = r, !r.completed else { continue }
                    let (hi, lo) = pack(UnsafeRawBufferPointer(start: storage.base + r.idRange.lowerBound, count: r.idRange.count))
                    rows.append((r.effective, hi, lo, k))
                }
            }
            let parsed = s.reminders.values.filter { !$0.completed }
            for (k, r) in parsed.enumerated() {
                var id = r.id
                let (hi, lo) = id.withUTF8 { pack(UnsafeRawBufferPointer($0)) }
                rows.append((r.effectiveTrigger.ms, hi, lo, -1 - k))
            }
            func id(_ row: Int) -> String { row >= 0 ? s.rawID(s.raw[row]!) : parsed[-1 - row].id }
            rows.sort { a, b in
                if (a.0, a.1, a.2) != (b.0, b.1, b.2) { return (a.0, a.1, a.2) < (b.0, b.1, b.2) }
                return id(a.3) < id(b.3)
            }
            for (_, _, _, row) in rows {
                if row >= 0 { ctx.out.rawRecord(s.bytes(s.raw[row]!.record)) } else { ctx.out.record(parsed[-1 - row].record(zone: ctx.zone)) }
            }
            return .ok
        }
        let s = try store(ctx).read()
        var rs = s.active
        if ctx.flag("all") {
            rs += s.reminders.values.filter(\.completed).sorted { ($0.completedAt ?? $0.updatedAt, $0.id) < ($1.completedAt ?? $1.updatedAt, $1.id) }
        }
        if rs.isEmpty {
            if !ctx.out.isJSON { ctx.out.raw("No reminders yet.\nAdd one: yomo add water plants every tuesday at 3pm\n") }
            return .ok
        }
        let zone = ctx.zone
        let theme = ctx.out.color ? try theme(ctx) : nil
        for r in rs {
            ctx.out.emit(r.record(zone: zone), text: {
                let l = line(r, zone: zone)
                guard let t = theme, let st = YomoTheme.state(r, now: ctx.now), let code = t.codes[st] else { return l }
                return ctx.out.style(l, code)
            }())
        }
        return .ok
    }

    static func parseCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let (p, parser) = try understand(ctx.operands.joined(separator: " "), ctx: ctx)
        for w in p.warnings { ctx.warn("warning: \(w)") }
        if let c = p.conflict { ctx.warn("warning: \(c)") }
        var r = p.record
        r["parser"] = .string(parser)
        ctx.out.emit(r, text: """
            title:      \(p.title.terminalSafe)
            date:       \(p.date?.description ?? "-")
            time:       \(p.time?.description ?? "-")
            recurrence: \(p.recurrence.summary)
            \(p.assumptions.isEmpty ? "" : "assumed:    " + p.assumptions.joined(separator: "; ").terminalSafe + "\n")
            """)
        return .ok
    }

    static func created(_ ctx: Context, _ id: String, _ f: ReminderForm, _ trigger: Instant, zone z: Zone, type: String) -> JSONObject {
        var e: JSONObject = ["type": .string(type), "id": .string(id), "title": .string(f.title), "notes": .string(f.notes),
                             "anchor": .string(f.anchor.description), "recurrence": f.recurrence.json,
                             "trigger_at": .string(z.format(trigger)), "zone": .string(z.name), "at": .string(ctx.clock.format(ctx.now))]
        if f.warnMinutes > 0 { e["warn_minutes"] = JSON(f.warnMinutes) }
        return e
    }

    static func add(_ ctx: Context) throws(ToolError) -> ExitCode {
        let text = ctx.operands.joined(separator: " ")
        let parsed: ParsedReminder
        if ctx.flag("literal") {
            parsed = ParsedReminder(title: text, date: nil, time: nil, recurrence: .once, assumptions: [])
        } else {
            parsed = try understand(text, ctx: ctx).0
        }
        let opts = formOptions(ctx)
        if let c = parsed.conflict { throw ToolError(.usage, c) }
        if let w = parsed.warnings.first {
            guard opts.touchesRecurrence else {
                throw ToolError(.usage, "\(w); say the rule with options (--repeat, --every, --unit, --days), or add --literal to keep the text as the title")
            }
            for w in parsed.warnings { ctx.warn("warning: \(w); the options set the rule") }
        }
        let zone = try reminderZone(ctx)
        let f = try form(parsed: parsed, options: opts, now: ctx.now, zone: zone)
        guard let trigger = f.exact ?? firstTrigger(anchor: f.anchor, recurrence: f.recurrence, now: ctx.now, zone: zone) else {
            throw ToolError(.usage, "that rule never comes due")
        }
        for a in f.assumptions { ctx.warn("assumed: \(a)") }
        if !f.recurrence.repeats && trigger < ctx.now { ctx.warn("\(zone.format(trigger)) has passed: the reminder is due now") }
        let id = IDs.make()
        let r = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Reminder in
            tx.record(created(ctx, id, f, trigger, zone: zone, type: "created"))
            return tx.state.reminders[id]!
        }
        ctx.out.emit(r.record(zone: ctx.zone), text: "Added " + line(r, zone: ctx.zone))
        return .ok
    }

    static func edit(_ ctx: Context) throws(ToolError) -> ExitCode {
        let opts = formOptions(ctx)
        var notes: [String] = []
        let r = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Reminder in
            let old = try tx.state.find(ctx.operands[0])
            let zone = try reminderZone(ctx, current: old)
            let f = try editForm(old, options: opts, now: ctx.now, zone: zone)
            guard let trigger = firstTrigger(anchor: f.anchor, recurrence: f.recurrence, now: ctx.now, zone: zone) else {
                throw ToolError(.usage, "that rule never comes due")
            }
            notes = f.assumptions.map { "assumed: \($0)" }
            if !f.recurrence.repeats && trigger < ctx.now { notes.append("\(zone.format(trigger)) has passed: the reminder is due now") }
            var e = created(ctx, old.id, f, trigger, zone: zone, type: "edited")
            if old.completed {
                e["reopen"] = true
                notes.append("reminder \(old.id) was completed; the edit makes it active again")
            }
            tx.record(e)
            return tx.state.reminders[old.id]!
        }
        for n in notes { ctx.warn(n) }
        ctx.out.emit(r.record(zone: ctx.zone), text: "Changed " + line(r, zone: ctx.zone))
        return .ok
    }

    /// `rehome ZONE [ID...]`: reminders move to another zone, keeping their
    /// wall-clock times (a 09:00 stays 09:00 there).
    static func rehome(_ ctx: Context) throws(ToolError) -> ExitCode {
        let zone: Zone
        do throws(ToolError) { zone = try Zone.named(ctx.operands[0]) } catch { throw ToolError(.usage, error.message) }
        let ids = Array(ctx.operands.dropFirst())
        let moved = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> [Reminder] in
            var list: [Reminder] = []
            if ids.isEmpty {
                list = tx.state.active
            } else {
                for id in ids { list.append(try tx.state.find(id)) }
            }
            var out: [Reminder] = []
            for r in list where r.zone(ctx.zone).name != zone.name || r.zoneName == nil {
                tx.record(rezoneEvent(r, to: zone, fallback: ctx.zone, now: ctx.now))
                out.append(tx.state.reminders[r.id]!)
            }
            return out
        }
        for r in moved { ctx.out.emit(r.record(zone: ctx.zone), text: "Moved to \(zone.name): " + line(r, zone: ctx.zone)) }
        return .ok
    }

    static func done(_ ctx: Context) throws(ToolError) -> ExitCode {
        let at = ctx.clock.format(ctx.now)
        let r = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Reminder in
            let r = try tx.state.find(ctx.operands[0])
            if r.completed { throw ToolError(.dataError, "reminder \(r.id) is already completed") }
            let next = nextAfterDone(r, now: ctx.now, zone: ctx.zone)
            tx.record(["type": "completed", "id": .string(r.id), "next": JSON(next.map(ctx.zone.format)), "at": .string(at)])
            return tx.state.reminders[r.id]!
        }
        ctx.out.emit(r.record(zone: ctx.zone), text: r.completed ? "Completed: \(r.title.terminalSafe)" : "Done; next: " + line(r, zone: ctx.zone))
        return .ok
    }

    static func snooze(_ ctx: Context) throws(ToolError) -> ExitCode {
        var minutes = 15
        if ctx.operands.count > 1 {
            guard let m = Int(ctx.operands[1]), (1...60).contains(m) else {
                throw ToolError(.usage, "snooze takes 1 to 60 minutes, not '\(ctx.operands[1])'")
            }
            minutes = m
        }
        let until = ctx.now.adding(minutes: Int64(minutes))
        let r = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Reminder in
            let r = try tx.state.find(ctx.operands[0])
            if r.completed { throw ToolError(.dataError, "reminder \(r.id) is completed; nothing to snooze") }
            guard let e = snoozeEvent(r, until: until, zone: ctx.zone, at: ctx.now) else {
                let z = r.zone(ctx.zone)
                throw ToolError(.dataError, "reminder \(r.id) is not due until \(z.format(r.triggerAt)); snooze acts on a reminder that has come due, nothing changed ('yomo edit' moves it)")
            }
            tx.record(e)
            return tx.state.reminders[r.id]!
        }
        ctx.out.emit(r.record(zone: ctx.zone), text: "Snoozed \(minutes) min: \(r.title.terminalSafe) at \(r.zone(ctx.zone).local(until).time)")
        return .ok
    }

    static func remove(_ ctx: Context) throws(ToolError) -> ExitCode {
        let at = ctx.clock.format(ctx.now)
        let r = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Reminder in
            let r = try tx.state.find(ctx.operands[0])
            tx.record(["type": "deleted", "id": .string(r.id), "at": .string(at)])
            return r
        }
        var rec = r.record(zone: ctx.zone)
        rec["status"] = "deleted"
        ctx.out.emit(rec, text: "Deleted: \(r.title.terminalSafe)")
        return .ok
    }

    static func nextCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let count = try ctx.option("count").map { (s) throws(ToolError) in try ctx.int(s, option: "--count", range: 1...1000) } ?? 5
        let r = try store(ctx).read().find(ctx.operands[0])
        var t = r.triggerAt
        let zone = r.zone(ctx.zone)
        var list: [Instant] = r.completed ? [] : [t]
        while list.count < count, !r.completed, r.recurrence.repeats {
            let n: Instant? = r.recurrence.basedOnCompletion
                ? r.recurrence.nextAfterCompletion(t, anchor: r.anchor, zone: zone)
                : r.recurrence.next(after: t, anchor: r.anchor, zone: zone)
            guard let nn = n else { break }
            list.append(nn)
            t = nn
        }
        for (k, i) in list.enumerated() {
            let l = zone.local(i)
            let rec: JSONObject = ["type": "occurrence", "id": .string(r.id), "n": JSON(k + 1), "at": .string(zone.format(i))]
            ctx.out.emit(rec, text: "\(k + 1). \(Weekdays.display(l.day.weekday)) \(l.day) \(l.time)"
                         + (r.recurrence.basedOnCompletion && k > 0 ? " (if completed on time)" : ""))
        }
        return .ok
    }

    /// The command prefix for notification actions: the same data directory.
    static func commandPrefix(_ ctx: Context) -> String {
        if let d = ctx.option("data-dir") { return "yomo --data-dir " + ToolSpec.shQuote(d) }
        return "yomo"
    }

    /// One pass of `due`: announce, commit, print. Returns the announcements.
    @discardableResult
    static func announce(_ ctx: Context, now: Instant) throws(ToolError) -> [Announcement] {
        let st = try store(ctx)
        // Most runs find nothing due: decide that from the snapshot's summary
        // and the journal tail, then from a full read, before taking the lock.
        let device = st.options.actor
        if let head = try st.readHead(), !mayBeDue(summary: head.hot.first, tail: head.tail, now: now, device: device) { return [] }
        if Yomo.due(try st.read(), now: now, zone: ctx.zone, device: device).isEmpty { return [] }
        let list = try st.write(at: now, zone: ctx.zone) { (tx) throws(ToolError) -> [Announcement] in
            let found = Yomo.due(tx.state, now: now, zone: ctx.zone, device: device)
            for a in found { tx.record(event(for: a, zone: a.reminder.zone(ctx.zone), at: now, device: device)) }
            return found
        }
        let prefix = commandPrefix(ctx)
        for a in list {
            let n = notification(a, zone: ctx.zone, commandPrefix: prefix)
            ctx.out.emit(n, text: "\(a.reminder.zone(ctx.zone).local(a.occurrence).time)  \(a.reminder.title.terminalSafe)  (\(a.reminder.id.prefix(6).terminalSafe))")
        }
        return list
    }

    static func dueCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        try announce(ctx, now: ctx.now)
        return .ok
    }

    /// `watch`: announces at the exact moment something comes due, wakes
    /// when a journal changes (inotify on Linux; a one-second timer
    /// elsewhere), and prints a `dismiss` record when a notification it
    /// printed no longer stands: completed, snoozed, changed or deleted, on
    /// any device.
    static func watch(_ ctx: Context) throws(ToolError) -> ExitCode {
        // The clock keeps ticking from --now when pinned.
        let start = Sys.monotonicNanos()
        func now() -> Instant { Instant(ms: ctx.now.ms + Int64((Sys.monotonicNanos() - start) / 1_000_000)) }
        let st = try store(ctx)
        let device = st.options.actor
        var shown: [String: Shown] = [:]
        var fw: FolderWatch? = nil
        while true {
            if fw == nil && Sys.isDirectory(st.journalDir) { fw = FolderWatch(folders: [st.journalDir, st.dir]) }
            let t = now()
            for a in try announce(ctx, now: t) { shown[a.reminder.id] = Shown(a) }
            let s = try st.read()
            for (id, n) in shown.sorted(by: { $0.key < $1.key }) {
                guard let why = dismissal(n, in: s) else { continue }
                let by = s.reminders[id]?.lastBy ?? ""
                let zone = s.reminders[id]?.zone(ctx.zone) ?? ctx.zone
                ctx.out.emit(dismissRecord(n, reason: why, by: by, zone: zone), text: "dismiss \(id.prefix(6)) (\(why))")
                shown[id] = nil
            }
            ctx.out.flush()
            let after = now()
            let next = s.active.compactMap { nextAttention($0, device: device, zone: ctx.zone) }.filter { $0 > t }.min()
            var wait = next.map { Int(max(0, $0.ms - after.ms)) } ?? 3_600_000
            wait = min(wait, 3_600_000)
            if let w = fw { w.wait(millis: wait) } else { Sys.sleepMillis(min(wait, 1000)) }
        }
    }
}
