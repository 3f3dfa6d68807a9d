// playa's queue commands: generate, queue, event edit, cancel, confirm, due,
// notify, link and open. Handlers only; the rules are in Rules/.

extension Playa {
    static func eventRecord(_ e: Event, _ s: PlayaState, ctx: Context) -> JSONObject {
        eventRecord(e, recipient: s.recipients[e.recipientID], now: ctx.now, zone: ctx.zone)
    }

    /// An event as commands print it: its times in the local zone, its
    /// notification as it stands at `now`, its recipient's name and platform,
    /// and whether it is soon (within 30 minutes) or overdue. (Written as
    /// bytes where a day of them is printed: `writeEventRecord`.)
    static func eventRecord(_ e: Event, recipient: Recipient?, now: Instant, zone: Zone) -> JSONObject {
        var o = e.json
        o["at"] = .string(zone.format(e.at))
        if let u = e.handover.claimUntil { o["claim_until"] = .string(zone.format(u)) }
        o["notification"] = .string(word(e.delivery(at: now)))
        if e.handover.state == .sending, e.delivery(at: now) == .unknown {
            o["error"] = .string(Handover.diedMessage("the notify command"))
        }
        if let r = e.handover.retryAt, e.delivery(at: now) == .failed { o["retry_at"] = .string(zone.format(r)) }
        if let r = recipient {
            o["recipient"] = .string(r.name)
            o["platform"] = .string(r.platform.rawValue)
        }
        o["soon"] = .bool(e.status == .pending && e.at.ms <= now.ms + 30 * 60_000)
        o["overdue"] = .bool(e.status == .pending && e.at < now)
        return o
    }

    /// Prints event `e` as `eventRecord` has it (written as bytes), or its
    /// text line.
    static func emitEvent(_ e: Event, _ s: PlayaState, ctx: Context, text: @autoclosure () -> String) {
        ctx.out.emit(writing: { writeEventRecord(e, recipient: s.recipients[e.recipientID], now: ctx.now, zone: ctx.zone, into: &$0) },
                     text: text())
    }

    static func eventLine(_ e: Event, _ s: PlayaState, ctx: Context) -> String {
        let name = s.recipients[e.recipientID]?.name ?? "?"
        let soon = e.status == .pending && e.at.ms <= ctx.now.ms + 30 * 60_000 ? (e.at < ctx.now ? " !" : " *") : "  "
        let status = e.status == .pending ? "" : " [\(e.status.rawValue)]"
        return "\(e.time)\(soon) \(e.id.prefix(6).terminalSafe)  \(name.terminalSafe) (\(s.recipients[e.recipientID]?.platform.rawValue ?? "?"))\(status)"
            + notificationNote(e, now: ctx.now, zone: ctx.zone) + "  \(e.message.terminalSafe)"
    }

    /// The notification's state in the text layout: nothing while it is
    /// scheduled, else `{notified}`, `{notifying}` (in flight), `{failed,
    /// next try 14:05}` or `{unknown: may have shown}`.
    static func notificationNote(_ e: Event, now: Instant, zone: Zone) -> String {
        switch e.delivery(at: now) {
        case .pending: return ""
        case .delivered: return " {notified}"
        case .sending: return " {notifying}"
        case .failed: return " {failed" + (e.handover.retryAt.map { ", next try \(zone.format($0).dropFirst(11).prefix(5))" } ?? "") + "}"
        case .unknown: return " {unknown: may have shown}"
        }
    }

    static func generate(_ ctx: Context) throws(ToolError) -> ExitCode {
        let date = try ctx.option("date").map { (s) throws(ToolError) in try ctx.day(s, option: "--date") } ?? ctx.today
        var seed: UInt64? = nil
        if let s = ctx.option("seed") {
            guard let v = UInt64(s) else { throw .usage("--seed must be a whole number, not '\(s)'") }
            seed = v
        }
        let me = try ctx.storeOptions().actor
        // The draw decodes only the messages it picks: pools stay as the
        // snapshot holds them (a lazy read).
        let st = try store(ctx)
        let (g, state) = try st.write(lazy: true, at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Generated, PlayaState) in
            let g = Playa.generate(&tx, date: date, now: ctx.now, today: ctx.today, zone: ctx.zone, seed: seed, device: me)
            return (g, tx.state)
        }
        if !g.missed.isEmpty {
            // Missed events leave the part every run reads now, not at the
            // next snapshot: a write of nothing that always snapshots.
            var o = try ctx.storeOptions()
            o.snapshotEvery = 0
            try Store<PlayaState>(dir: ctx.dataDir, options: o).write(lazy: true, at: ctx.now, zone: ctx.zone) { (_: inout Transaction<PlayaState>) throws(ToolError) in }
        }
        // Said at every run on a terminal; to cron (which mails what is
        // said), once for each recipient: not every midnight until the pool
        // is filled, and again if it empties again.
        st.unsay(g.drawing.map { "empty pool \($0)" })
        for (id, n) in g.empty {
            let m = "\(n) has no messages: no events generated (add one with 'playa message add')"
            if Sys.isTerminal(2) { ctx.warn(m) } else { st.sayOnce(m, key: "empty pool \(id)") }
        }
        for e in g.missed { emitEvent(e, state, ctx: ctx, text: "\(e.date) " + eventLine(e, state, ctx: ctx)) }
        for e in g.made.sorted(by: { ($0.at, $0.id) < ($1.at, $1.id) }) { emitEvent(e, state, ctx: ctx, text: eventLine(e, state, ctx: ctx)) }
        return .ok
    }

    static func queueCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let date = try ctx.option("date").map { (s) throws(ToolError) in try ctx.day(s, option: "--date") } ?? ctx.today
        // Days more than two back are history, kept in the cold part.
        let s = try store(ctx).read(full: date < ctx.today.adding(days: -1), lazy: true)
        let q = s.queue(date)
        if q.isEmpty && !ctx.out.isJSON {
            let how = s.recipients.isEmpty ? "add someone: playa recipient add NAME --platform whatsapp --phone +E164"
                                           : "run 'playa generate' (cron does it at 00:00)"
            ctx.out.raw("Nothing queued for \(date)\(s.confirmed.contains(date) ? " (confirmed)" : ""). To fill the queue, \(how).\n")
        } else if !ctx.out.isJSON {
            ctx.out.raw("Queue for \(date)\(s.confirmed.contains(date) ? " (confirmed)" : "") — * within 30 min, ! overdue\n")
        }
        for e in q { emitEvent(e, s, ctx: ctx, text: eventLine(e, s, ctx: ctx)) }
        return .ok
    }

    /// Moves event `id` to `status`; a message sent (`open`) is also a
    /// contact with its recipient, by its platform, now.
    static func move(_ ctx: Context, _ id: String, to status: Status, error: String? = nil) throws(ToolError) -> (Event, PlayaState) {
        try store(ctx).write(full: true, at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Event, PlayaState) in
            var e = try tx.state.event(id)
            guard canMove(e.status, to: status) else {
                throw ToolError(.dataError, "event \(e.id) is \(e.status.rawValue); only pending events can become \(status.rawValue)")
            }
            e.status = status
            e.error = error
            tx.record(saved(e))
            if status == .sent, let r = tx.state.recipients[e.recipientID] {
                tx.record(saved(Contact(id: IDs.make(), recipientID: r.id, at: ctx.now, date: ctx.today, via: r.platform.rawValue, eventID: e.id)))
            }
            return (e, tx.state)
        }
    }

    static func cancel(_ ctx: Context) throws(ToolError) -> ExitCode {
        let (e, s) = try move(ctx, ctx.operands[0], to: .cancelled)
        ctx.out.emit(eventRecord(e, s, ctx: ctx), text: "Cancelled \(e.id.prefix(6).terminalSafe)")
        return .ok
    }

    static func eventEdit(_ ctx: Context) throws(ToolError) -> ExitCode {
        let text = ctx.operands.dropFirst().joined(separator: " ")
        if let err = validateMessage(text) { throw .usage(err) }
        let (e, s) = try store(ctx).write(full: true, at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Event, PlayaState) in
            var e = try tx.state.event(ctx.operands[0])
            guard e.status == .pending else { throw ToolError(.dataError, "event \(e.id) is \(e.status.rawValue); only pending events can be edited") }
            e.message = text
            e.messageID = nil
            tx.record(saved(e))
            return (e, tx.state)
        }
        ctx.out.emit(eventRecord(e, s, ctx: ctx), text: "Changed \(e.id.prefix(6).terminalSafe)")
        return .ok
    }

    static func confirm(_ ctx: Context) throws(ToolError) -> ExitCode {
        let date = try ctx.option("date").map { (s) throws(ToolError) in try ctx.day(s, option: "--date") } ?? ctx.today
        let count = try store(ctx).read().queue(date).count
        try confirmOrRefuse(ctx, question: "Lock \(date) with \(count) message\(count == 1 ? "" : "s")?", command: "playa confirm")
        let already = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Bool in
            if tx.state.confirmed.contains(date) { return true }
            tx.record(["type": "day_confirmed", "date": .string(date.description)])
            return false
        }
        ctx.out.emit(["type": "day", "date": .string(date.description), "confirmed": true, "pending": JSON(count), "already": .bool(already)],
                     text: already ? "\(date) was already confirmed" : "Confirmed \(date): \(count) message\(count == 1 ? "" : "s") locked in")
        return .ok
    }

    /// The notify command's timeout in seconds: --timeout, notify_timeout, or the default.
    static func notifyTimeout(_ ctx: Context, _ config: Config) throws(ToolError) -> Int {
        try Handover.timeout(option: ctx.option("timeout"), config: config, key: "notify_timeout", default: defaultNotifyTimeoutSeconds)
    }

    /// Hands a notification to the command (JSON on stdin, its fields in
    /// PLAYA_*); how the command ended.
    static func deliver(_ n: JSONObject, command: String, timeout: Int) throws(ToolError) -> Subprocess.Ending {
        try Handover.run(command, record: n, env: notificationEnv(n), timeoutSeconds: timeout)
    }

    /// The command given with --command, else the configuration's `key`:
    /// a blank --command is refused (it would run the link itself), a
    /// blank setting is no setting.
    static func commandSetting(_ ctx: Context, _ config: Config, key: String) throws(ToolError) -> String? {
        if let c = ctx.option("command") {
            guard !c.trimmingSpaces.isEmpty else { throw .usage("--command must not be empty: give a command, or leave it out to use \(key)") }
            return c
        }
        guard let c = config[key], !c.trimmingSpaces.isEmpty else { return nil }
        return c
    }

    /// A notification's fields in PLAYA_* for the notify command.
    static func notificationEnv(_ n: JSONObject) -> [String: String] {
        ["PLAYA_TITLE": n["title"]?.string ?? "", "PLAYA_BODY": n["body"]?.string ?? "",
         "PLAYA_URL": n["url"]?.string ?? "", "PLAYA_ID": n["id"]?.string ?? ""]
    }

    static func due(_ ctx: Context) throws(ToolError) -> ExitCode {
        let config = try Config.load(directory: ctx.configDir, known: configKeys)
        let command = try commandSetting(ctx, config, key: "notify_command")
        let timeout = try notifyTimeout(ctx, config)
        let retry = ctx.flag("retry-unknown")
        let st = try store(ctx)
        let me = try ctx.storeOptions().actor
        // Most runs find nothing due: decide that from the snapshot's summary
        // and the journal tail when this device already notifies.
        if !retry, !ctx.flag("take-over"), (config["notify_device"] ?? "").isEmpty || config["notify_device"] == me,
           let head = try st.readHead(), !mayBeDue(summary: head.hot.first, tail: head.tail, now: ctx.now, today: ctx.today, device: me) {
            return .ok
        }
        var s = try st.read(lazy: true)
        // One device notifies: the first to run due, or where it was moved.
        let configured = config["notify_device"]
        let verdict = notifier(s, device: me, configured: configured, takeOver: ctx.flag("take-over"), configPath: config.path, now: ctx.now)
        if let why = verdict.refusal {
            // Notifications waiting for a device that is not there (a
            // misspelt notify_device) need a person, even from cron.
            if let e = try DeviceRole.misnamed(configured, device: me, waiting: !s.due(at: ctx.now, today: ctx.today, retryUnknown: retry).isEmpty,
                                               words: notifierWords, configPath: config.path, known: { () throws(ToolError) in try st.journals().map(\.actor) }) {
                throw e
            }
            // From cron on every device (-q), another device's role is not
            // news each minute: the status says it (77), the message only
            // when asked or when it needs a person.
            if ctx.out.quiet && !verdict.news { return .noPermission }
            throw ToolError(.noPermission, why)
        }
        if verdict.record != nil || needsDraws(s, device: me, today: ctx.today) {
            s = try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> PlayaState in
                let v = notifier(tx.state, device: me, configured: configured, takeOver: ctx.flag("take-over"), configPath: config.path, now: ctx.now)
                if let w = v.refusal { throw ToolError(.noPermission, w) }
                if let r = v.record { tx.record(r) }
                // The day's draw as this device's own: a slot already past
                // when the draw reached it is missed, never notified late.
                _ = adoptDraws(&tx, device: me, now: ctx.now, today: ctx.today, zone: ctx.zone)
                return tx.state
            }
        }
        let due = s.due(at: ctx.now, today: ctx.today, retryUnknown: retry)
        if due.isEmpty { return .ok }
        // Devices that share a sync folder: a role just taken settles first.
        if let until = s.notifier.settling(device: me, shared: try ctx.syncDirectory() != nil, now: ctx.now) {
            ctx.note(DeviceRole.settlingNote(notifierWords, from: ctx.zone.format(until)))
            return .ok
        }
        let pre = prefix(ctx)
        guard let cmd = command else {
            // No notify command: each notification is printed, marked as
            // handed over when it is claimed.
            for e in due {
                let t = ctx.current
                let claim = IDs.make()
                let printed = try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Event, Recipient)? in
                    guard let ev = Playa.claim(&tx, e.id, claim: claim, until: Handover.expiry(claimedAt: t, timeoutSeconds: timeout), now: t,
                                               retryUnknown: retry, today: ctx.zone.day(of: t)),
                          let r = tx.state.recipients[ev.recipientID] else { return nil }
                    finish(&tx, ev, claim: claim, outcome: .delivered, status: nil, error: nil)
                    return (ev, r)
                }
                guard let (ev, r) = printed else { continue }
                let n = notification(ev, r, commandPrefix: pre)
                ctx.out.emit(n, text: "\(ev.time)  \(r.name.terminalSafe): \((n["body"]?.string ?? "").terminalSafe)\n  \((n["url"]?.string ?? "").terminalSafe)")
            }
            return .ok
        }
        var run = HandoverRun(command: cmd, what: "the notify command", timeoutSeconds: timeout)
        for e in due {
            // Claimed before anything is handed over, so two runs never
            // announce the same event; the claim expires (the run died)
            // a margin after the command's timeout. The day is the day now.
            let handed = try run.handOver(clock: { ctx.current }, claim: { (claim, t, until) throws(ToolError) -> HandoverRun.Claimed<(Event, Recipient, JSONObject)>? in
                let claimed = try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Event, Recipient)? in
                    guard let ev = Playa.claim(&tx, e.id, claim: claim, until: until, now: t, retryUnknown: retry, today: ctx.zone.day(of: t)),
                          let r = tx.state.recipients[ev.recipientID] else { return nil }
                    return (ev, r)
                }
                guard let (ev, r) = claimed else { return nil }
                let n = notification(ev, r, commandPrefix: pre)
                return HandoverRun.Claimed((ev, r, n), record: n, env: notificationEnv(n), failuresBefore: ev.handover.failures)
            }, finish: { (v, claim, ended) throws(ToolError) -> Instant? in
                try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Instant? in
                    finish(&tx, v.0, claim: claim, outcome: ended.outcome, status: ended.end.status, error: ended.why, at: ended.at)
                }
            })
            // The record went to the command: what was handed over is not
            // printed again (cron would mail every notification); one the
            // command did not take is, with how it ended.
            guard let ((ev, r, n), ended) = handed, ended.outcome != .delivered else { continue }
            var o = n
            o["notification"] = .string(ended.outcome.rawValue)
            if let nt = ended.next { o["retry_at"] = .string(ctx.zone.format(nt)) }
            ctx.out.emit(o, text: "\(ended.outcome == .failed ? "FAILED" : "UNKNOWN") \(ev.time) \(r.name.terminalSafe)"
                         + (ended.next.map { " (next try \(ctx.zone.format($0).dropFirst(11).prefix(5)))" } ?? ""))
        }
        for message in run.tally.messages(quiet: ctx.out.quiet, words: tallyWords(zone: ctx.zone)) { ctx.warn(message) }
        return run.tally.exitCode
    }

    /// What `due` says of notifications not handed over (`Tally`).
    static func tallyWords(zone: Zone) -> Tally.Words {
        Tally.Words(
            failed: { t in
                "\(Tally.count(t.failed, "notification", "notifications")) failed; tried again\(t.nextTry.map { " from \(zone.format($0))" } ?? ""), waiting longer after each failure (at most \(Handover.backoffCapMinutes) minutes)"
            },
            news: { "\(Tally.count($0.news, "notification", "notifications")) not shown for about an hour or more (the notify command keeps failing); tried again every hour while the day lasts" },
            unknown: { t in
                "\(Tally.count(t.unknown, "notification", "notifications")) may have shown (\(t.whyUnknown ?? "unknown")), so \(t.unknown == 1 ? "it is" : "they are") not repeated (--retry-unknown repeats \(t.unknown == 1 ? "it" : "them"))"
            })
    }

    static func notifyTest(_ ctx: Context) throws(ToolError) -> ExitCode {
        guard ctx.flag("test") else { throw .usage("notify sends a test notification: use 'playa notify --test ID'") }
        let s = try store(ctx).read(full: true)
        let e = try s.event(ctx.operands[0])
        guard let r = s.recipients[e.recipientID] else { throw ToolError(.dataError, "event \(e.id) has no recipient any more") }
        let n = notification(e, r, commandPrefix: prefix(ctx))
        let config = try Config.load(directory: ctx.configDir, known: configKeys)
        if let cmd = try commandSetting(ctx, config, key: "notify_command") {
            let timeout = try notifyTimeout(ctx, config)
            let end = try deliver(n, command: cmd, timeout: timeout)
            if let why = Handover.why(end, command: "the notify command", timeoutSeconds: timeout) { throw ToolError(.tempFail, why) }
        }
        ctx.out.emit(n, text: "\((n["title"]?.string ?? "").terminalSafe)\n  \((n["body"]?.string ?? "").terminalSafe)\n  \((n["url"]?.string ?? "").terminalSafe)")
        return .ok
    }

    static func linkCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read(full: true)
        let e = try s.event(ctx.operands[0])
        guard let r = s.recipients[e.recipientID] else { throw ToolError(.dataError, "event \(e.id) has no recipient any more") }
        let url = link(r, message: e.message, web: ctx.flag("web"))
        ctx.out.emit(["type": "link", "id": .string(e.id), "platform": .string(r.platform.rawValue), "url": .string(url)], text: url.terminalSafe)
        return .ok
    }

    static func defaultOpener() -> String {
        #if os(macOS)
        return "open"
        #else
        return "xdg-open"
        #endif
    }

    /// The command that puts text on the clipboard: clipboard_command, or
    /// pbcopy (macOS), wl-copy (Wayland) or xclip (X11) when present.
    static func clipboardCommand(_ config: Config) -> String? {
        if let c = config["clipboard_command"], !c.isEmpty { return c }
        #if os(macOS)
        if Sys.findExecutable("pbcopy") != nil { return "pbcopy" }
        #endif
        if Sys.env("WAYLAND_DISPLAY")?.isEmpty == false, Sys.findExecutable("wl-copy") != nil { return "wl-copy" }
        if Sys.env("DISPLAY")?.isEmpty == false, Sys.findExecutable("xclip") != nil { return "xclip -selection clipboard" }
        return nil
    }

    static func open(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read(full: true)
        let e = try s.event(ctx.operands[0])
        guard e.status == .pending || e.status == .missed else {
            throw ToolError(.dataError, "event \(e.id) is \(e.status.rawValue); only pending or missed events are opened")
        }
        guard let r = s.recipients[e.recipientID] else { throw ToolError(.dataError, "event \(e.id) has no recipient any more") }
        let url = link(r, message: e.message, web: ctx.flag("web"))
        let config = try Config.load(directory: ctx.configDir, known: configKeys)
        // Instagram's and Signal's links cannot carry the text: it goes to the clipboard, to paste.
        var copied: Bool? = nil
        if !r.platform.carriesText {
            copied = false
            if let clip = clipboardCommand(config) {
                copied = try Subprocess.shell(clip, stdin: Array(e.message.utf8), quiet: true, timeoutMillis: 5000) == 0
            }
        }
        let opener = try commandSetting(ctx, config, key: "open_command") ?? defaultOpener()
        let status = try Subprocess.shell(opener + " " + ToolSpec.shQuote(url), env: ["PLAYA_URL": url], quiet: true,
                                          timeoutMillis: defaultNotifyTimeoutSeconds * 1000)
        if status != 0 {
            let why = status == Subprocess.timedOut ? "the opener ran past its timeout and was ended" : "the opener exited \(status)"
            _ = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) in
                guard var cur = tx.state.events[e.id], cur.status == .pending else { return }
                cur.error = why
                tx.record(saved(cur))
            }
            // Not found (the shell's 127) is for good until it is installed
            // or configured: bad configuration, not "try again".
            if status == 127 {
                let fix = ctx.option("command") == nil && config["open_command"] == nil
                    ? "install xdg-utils, or set open_command in \(Sys.join(ctx.configDir, "config")) (or give --command)"
                    : "check open_command in \(Sys.join(ctx.configDir, "config")) (or --command)"
                throw ToolError(.config, "could not open event \(e.id): the opener '\(opener.terminalSafe)' was not found; \(fix); it stays \(e.status.rawValue)")
            }
            throw ToolError(.tempFail, "could not open event \(e.id): \(why); it stays \(e.status.rawValue)")
        }
        let (moved, st) = try move(ctx, e.id, to: .sent)
        var o = eventRecord(moved, st, ctx: ctx)
        o["url"] = .string(url)
        var text = "Opened \(r.platform.rawValue) for \(r.name.terminalSafe); marked sent"
        if let c = copied {
            o["copied_to_clipboard"] = .bool(c)
            let tool = clipboardCommand(config) == nil ? "no clipboard tool (wl-copy, xclip, pbcopy) was found" : "the clipboard command failed"
            text += c ? "\n\(r.platform.display) cannot pre-fill a message: it is on the clipboard, paste it in the chat"
                      : "\n\(r.platform.display) cannot pre-fill a message, and \(tool): type it yourself:\n  \(e.message.terminalSafe)"
        }
        ctx.out.emit(o, text: text)
        return .ok
    }
}
