// yomo's commands that make and change reminders: `add`, `parse`, `edit`,
// `done`, `snooze`, `dismiss`, `rm` and `rehome`. Handlers only: each reads the call,
// asks the rules (the parser, the form, the occurrence rules), records its
// events in one transaction and prints the reminders it changed. The model
// command of `--llm-command` is run here; what it is asked and how its
// answer is checked are rules (YomoLLM.swift).

extension Yomo {
    static func formOptions(_ ctx: Context) -> ReminderFormOptions {
        var o = ReminderFormOptions()
        o.title = ctx.optionIfDeclared("title")
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
        o.nag = ctx.option("nag")
        o.list = ctx.option("list")
        return o
    }

    /// The reminder an event just recorded, or why the event could not be
    /// kept (its times out of what the store reads back): never a trap.
    static func stored(_ s: YomoState, _ id: String) throws(ToolError) -> Reminder {
        guard let r = s.reminders[id] else {
            throw ToolError(.usage, "reminder \(id) cannot be kept: its time is not a plausible one (2000 to 9998)")
        }
        return r
    }

    /// The zone a new or edited reminder lives in: --tz, else its own, else TZ.
    static func reminderZone(_ ctx: Context, current: Reminder? = nil) throws(ToolError) -> Zone {
        if let tz = ctx.option("tz") {
            if isOffsetName(tz) {
                throw ToolError(.usage, "--tz: '\(tz.terminalSafe)' is read with opposite signs by POSIX and by people; name the zone (Asia/Tokyo) or Etc/GMT-11 for 11 hours ahead of UTC")
            }
            do throws(ToolError) { return try Zone.named(tz) } catch { throw ToolError(.usage, "--tz: \(error.message)") }
        }
        return current?.zone(ctx.zone) ?? ctx.zone
    }

    /// The built-in parse, or the user's model when it answers with valid JSON.
    static func understand(_ text: String, ctx: Context) throws(ToolError) -> (ParsedReminder, String) {
        let builtin = ReminderParser.parse(text, now: ctx.now, zone: ctx.zone)
        let config = try Config.load(directory: ctx.configDir, known: configKeys)
        guard let cmd = ctx.option("llm-command") ?? config["llm_command"], !cmd.isEmpty else { return (builtin, "builtin") }
        let prompt = llmPrompt(text, now: ctx.now, zone: ctx.zone)
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
        switch llmAnswer(out) {
        case .success(let p): return (p, "llm")
        case .failure(let e):
            ctx.warn("the model's answer does not fit the schema (\(e.message)); using the built-in parser")
            return (builtin, "builtin")
        }
    }

    static func parseCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let (p, parser) = try understand(ctx.operands.joined(separator: " "), ctx: ctx)
        for w in p.warnings { ctx.warn("warning: \(w)") }
        if let c = p.conflict { ctx.warn("warning: \(c)") }
        // A day skipped that the rule does not fall on: `add` refuses it, so `parse` says so too.
        if !p.skips.isEmpty, p.recurrence.repeats {
            do throws(ToolError) {
                _ = try form(parsed: p, options: ReminderFormOptions(), now: ctx.now, zone: ctx.zone)
            } catch { ctx.warn("warning: \(error.message)") }
        }
        var r = p.record
        r["parser"] = .string(parser)
        ctx.out.emit(r, text: """
            title:      \(p.title.terminalSafe)
            date:       \(p.date?.description ?? "-")
            time:       \(p.time?.description ?? "-")
            recurrence: \(p.recurrence.summary)
            \(p.skips.isEmpty ? "" : "skips:      " + p.skips.map(\.description).joined(separator: ", ") + "\n")\(p.assumptions.isEmpty ? "" : "assumed:    " + p.assumptions.joined(separator: "; ").terminalSafe + "\n")
            """)
        return .ok
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
        if let w = parsed.unread.first, opts.date == nil && opts.time == nil {
            throw ToolError(.usage, "\(w); say it another way ('at 8:30', 'on dec 15'), give --date and --time, or add --literal to keep the text as the title")
        }
        let ruleWarnings = parsed.warnings.filter { !parsed.unread.contains($0) }
        if let w = ruleWarnings.first {
            guard opts.touchesRecurrence else {
                throw ToolError(.usage, "\(w); say the rule with options (--repeat, --every, --unit, --days), or add --literal to keep the text as the title")
            }
            for w in ruleWarnings { ctx.warn("warning: \(w); the options set the rule") }
        }
        let zone = try reminderZone(ctx)
        let f = try form(parsed: parsed, options: opts, now: ctx.now, zone: zone)
        guard let trigger = f.exact ?? firstTrigger(anchor: f.anchor, recurrence: f.recurrence, now: ctx.now, zone: zone) else {
            throw ToolError(.usage, "that rule never comes due")
        }
        var asked = false
        if !f.assumptions.isEmpty {
            // On a terminal a guess is shown and asked about, as Todoist's quick add shows its reading.
            let when = zone.local(trigger)
            let rule = f.recurrence.repeats ? ", \(f.recurrence.summary)" : ""
            asked = try ctx.confirmReadingOnTerminal("'\(f.title)' \(Weekdays.display(when.day.weekday)) \(when.day) \(when.time.description.prefix(5))\(rule) "
                                             + "(assumed: \(f.assumptions.joined(separator: "; "))). Add it?")
        }
        if !asked { for a in f.assumptions { ctx.note("assumed: \(a)") } }
        if !f.recurrence.repeats && trigger < ctx.now { ctx.warn("\(zone.format(trigger)) has passed: the reminder is due now") }
        let id = IDs.make()
        let r = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Reminder in
            tx.record(createdEvent(id, f, trigger: trigger, zone: zone, type: "created", at: ctx.clock.format(ctx.now)))
            return try stored(tx.state, id)
        }
        keepVdir(ctx, ids: [r.id])
        ctx.out.emit(r.record(zone: ctx.zone), text: "Added " + line(r, zone: ctx.zone))
        return .ok
    }

    static func edit(_ ctx: Context) throws(ToolError) -> ExitCode {
        if let when = ctx.option("occurrence") { return try editOccurrence(ctx, when: when) }
        if ctx.flag("cancel") { throw ToolError(.usage, "--cancel goes with --occurrence WHEN") }
        let opts = formOptions(ctx)
        if opts.isEmpty && ctx.option("tz") == nil {
            throw ToolError(.usage, "nothing to change: give --title, --notes, --list, --date, --time, a rule (--repeat, --every, --days...) or --tz; see 'yomo edit --help'")
        }
        var notes: [String] = []
        let r = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Reminder in
            let old = try tx.state.find(ctx.operands[0])
            let zone = try reminderZone(ctx, current: old)
            let f = try editForm(old, options: opts, now: ctx.now, zone: zone)
            // A new title, notes, list, alerts or nagging leave the time alone: a due or snoozed reminder stays so.
            let keep = !opts.touchesSchedule && zone.name == old.zone(ctx.zone).name && !old.completed
            guard let trigger = keep ? old.triggerAt : firstTrigger(anchor: f.anchor, recurrence: f.recurrence, now: ctx.now, zone: zone) else {
                throw ToolError(.usage, "that rule never comes due")
            }
            if keep && f.title == old.title && f.notes == old.notes && f.list == old.list && f.alerts == old.alerts && f.nagMinutes == old.nagMinutes {
                notes.append("reminder \(old.id) already says that: nothing changed")
                return old
            }
            notes = f.assumptions.map { "assumed: \($0)" }
            if !keep && !f.recurrence.repeats && trigger < ctx.now { notes.append("\(zone.format(trigger)) has passed: the reminder is due now") }
            var e = createdEvent(old.id, f, trigger: trigger, zone: zone, type: "edited", at: ctx.clock.format(ctx.now))
            if keep { e["keeps_time"] = true }
            if old.completed {
                e["reopen"] = true
                notes.append("reminder \(old.id) was completed; the edit makes it active again")
            }
            tx.record(e)
            return try stored(tx.state, old.id)
        }
        for n in notes { if n.hasPrefix("assumed: ") { ctx.note(n) } else { ctx.warn(n) } }
        keepVdir(ctx, ids: [r.id])
        ctx.out.emit(r.record(zone: ctx.zone), text: "Changed " + line(r, zone: ctx.zone))
        return .ok
    }

    /// `edit ID --occurrence WHEN (--date D | --time T | --cancel)`: one occurrence moved or cancelled.
    static func editOccurrence(_ ctx: Context, when: String) throws(ToolError) -> ExitCode {
        let opts = formOptions(ctx)
        if opts.touchesRecurrence || opts.title != nil || opts.notes != nil || opts.until != nil || opts.times != nil || opts.warn != nil || opts.nag != nil
            || ctx.option("tz") != nil {
            throw ToolError(.usage, "--occurrence changes one occurrence: it takes only --date, --time or --cancel")
        }
        let r = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Reminder in
            let old = try tx.state.find(ctx.operands[0])
            tx.record(try occurrenceEvent(old, when: when, date: opts.date, time: opts.time, cancel: ctx.flag("cancel"), now: ctx.now,
                                          zone: ctx.zone, at: ctx.clock.format(ctx.now)))
            return try stored(tx.state, old.id)
        }
        keepVdir(ctx, ids: [r.id])
        ctx.out.emit(r.record(zone: ctx.zone), text: "Changed one occurrence: " + line(r, zone: ctx.zone))
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
                out.append(try stored(tx.state, r.id))
            }
            return out
        }
        keepVdir(ctx, ids: Set(moved.map(\.id)))
        for r in moved { ctx.out.emit(r.record(zone: ctx.zone), text: "Moved to \(zone.name): " + line(r, zone: ctx.zone)) }
        return .ok
    }

    static func done(_ ctx: Context) throws(ToolError) -> ExitCode {
        let at = ctx.clock.format(ctx.now)
        let r = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Reminder in
            let r = try tx.state.find(ctx.operands[0])
            if r.completed { throw ToolError(.dataError, "reminder \(r.id) is already completed") }
            let next = nextAfterDone(r, now: ctx.now, zone: ctx.zone)
            tx.record(completedEvent(r, next: next, zone: ctx.zone, at: at))
            return try stored(tx.state, r.id)
        }
        keepVdir(ctx, ids: [r.id])
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
            return try stored(tx.state, r.id)
        }
        keepVdir(ctx, ids: [r.id])
        ctx.out.emit(r.record(zone: ctx.zone), text: "Snoozed \(minutes) min: \(r.title.terminalSafe) at \(r.zone(ctx.zone).local(until).time)")
        return .ok
    }

    static func dismiss(_ ctx: Context) throws(ToolError) -> ExitCode {
        let st = try store(ctx)
        let r = try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Reminder in
            let r = try tx.state.find(ctx.operands[0])
            if r.completed { throw ToolError(.dataError, "reminder \(r.id) is completed; nothing to dismiss") }
            guard let e = dismissEvent(r, zone: ctx.zone, at: ctx.now, device: st.options.actor) else {
                let z = r.zone(ctx.zone)
                if let d = r.dismissedOf, d >= r.triggerAt {
                    throw ToolError(.dataError, "reminder \(r.id) is dismissed already (it stays to be done): nothing changed")
                }
                throw ToolError(.dataError, "reminder \(r.id) is not due until \(z.format(r.snoozedUntil ?? r.triggerAt)); dismiss acts on a reminder that has come due, nothing changed")
            }
            tx.record(e)
            return try stored(tx.state, r.id)
        }
        ctx.out.emit(r.record(zone: ctx.zone), text: "Dismissed: \(r.title.terminalSafe) (still to do; 'yomo done \(r.id.prefix(8))' when it is)")
        return .ok
    }

    static func remove(_ ctx: Context) throws(ToolError) -> ExitCode {
        let at = ctx.clock.format(ctx.now)
        let st = try store(ctx)
        let asked = try st.read().find(ctx.operands[0])
        try ctx.confirmOnTerminal("Delete '\(asked.title)' (\(asked.id.prefix(6)))?")
        let r = try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Reminder in
            let r = try tx.state.find(asked.id)
            tx.record(["type": "deleted", "id": .string(r.id), "at": .string(at)])
            return r
        }
        keepVdir(ctx, ids: [r.id])
        var rec = r.record(zone: ctx.zone)
        rec["status"] = "deleted"
        ctx.out.emit(rec, text: "Deleted: \(r.title.terminalSafe)")
        return .ok
    }
}
