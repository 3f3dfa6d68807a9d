// playa's commands for recipients, their schedules and message pools, the
// dashboard and clone. Handlers and the small checks of what was typed.

extension Playa {
    /// Asks on a terminal; elsewhere requires --yes (the family's rule).
    static func confirmOrRefuse(_ ctx: Context, question: String, command: String) throws(ToolError) {
        try ctx.confirm(question, command: command)
    }

    static func phone(_ raw: String) throws(ToolError) -> PhoneNumber {
        do throws(ToolError) { return try PhoneNumber.parseE164(raw, what: "--phone") } catch { throw ToolError(.usage, error.message) }
    }

    /// The address a platform needs, from what was typed (and, for an edit,
    /// what the recipient had): a phone for WhatsApp, SMS and Signal, a
    /// username for Instagram, either for Telegram, an e-mail address for
    /// e-mail. What the platform does not use is dropped; what it cannot use
    /// is refused, naming the option it takes.
    static func address(_ ctx: Context, platform: Platform, had: Recipient? = nil) throws(ToolError) -> (PhoneNumber?, String?, String?) {
        let newPhone = try ctx.option("phone").map { (p) throws(ToolError) in try phone(p) }
        let newUser = ctx.option("username").map(normalizeUsername)
        let newEmail = ctx.option("email").map { $0.trimmingSpaces }
        let name = platform.display
        func refuse(_ option: String, _ takes: String) throws(ToolError) { throw .usage("\(name) takes \(takes), not \(option)") }
        switch platform.address {
        case .phone:
            if newUser != nil { try refuse("--username", "--phone") }
            if newEmail != nil { try refuse("--email", "--phone") }
            guard let p = newPhone ?? had?.phone else { throw .usage("\(name) needs --phone with a country code, like +14155550132") }
            return (p, nil, nil)
        case .username:
            if newPhone != nil { try refuse("--phone", "--username") }
            if newEmail != nil { try refuse("--email", "--username") }
            guard let u = newUser ?? (had?.platform == .instagram ? had?.username : nil) else { throw .usage("Instagram needs --username NAME") }
            if let e = validateUsername(u) { throw .usage(e) }
            return (nil, u, nil)
        case .phoneOrUsername:
            if newEmail != nil { try refuse("--email", "--phone or --username") }
            if newPhone != nil && newUser != nil { throw .usage("Telegram takes --phone or --username, not both") }
            if let u = newUser {
                if let e = validateTelegramUsername(u) { throw .usage(e) }
                return (nil, u, nil)
            }
            if let p = newPhone ?? had?.phone { return (p, nil, nil) }
            if let u = had?.username, validateTelegramUsername(u) == nil { return (nil, u, nil) }
            throw .usage("Telegram needs --phone with a country code, or --username NAME")
        case .email:
            if newPhone != nil { try refuse("--phone", "--email") }
            if newUser != nil { try refuse("--username", "--email") }
            guard let e = newEmail ?? had?.email else { throw .usage("e-mail needs --email ADDRESS, like ana@example.org") }
            if let problem = validateEmail(e) { throw .usage(problem) }
            return (nil, nil, e)
        }
    }

    static func dashboardRecord(_ r: Recipient, _ s: PlayaState, now: Instant, zone: Zone) -> JSONObject {
        let next = s.events.values.filter { $0.recipientID == r.id && $0.status == .pending && $0.at >= now }.min { $0.at < $1.at }
        var o = r.json
        o["messages"] = nil
        o["strategy"] = .string(r.schedule.summary)
        o["templates"] = JSON(r.messages.count)
        o["next_message"] = JSON(next.map { zone.format($0.at) })
        return o.merging(contactFields(r, s, today: zone.day(of: now), zone: zone))
    }

    static func dashboard(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        let all = dashboardOrder(Array(s.recipients.values), s)
        if all.isEmpty {
            if !ctx.out.isJSON { ctx.out.raw("Playa\nNo recipients yet. Add one:\n  playa recipient add Ana --platform whatsapp --phone +14155550132\n") }
            return .ok
        }
        if !ctx.out.isJSON { ctx.out.raw("Playa — \(all.count) recipient\(all.count == 1 ? "" : "s")\n") }
        // Columns line up: each as wide as its widest cell.
        func who(_ r: Recipient) -> String { r.name.terminalSafe + (r.paused ? " (paused)" : "") }
        let wName = all.map { who($0).count }.max() ?? 0
        let wPlatform = all.map { $0.platform.rawValue.count }.max() ?? 0
        let wStrategy = all.map { $0.schedule.summary.count }.max() ?? 0
        func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - s.count)) }
        for r in all {
            let rec = dashboardRecord(r, s, now: ctx.now, zone: ctx.zone)
            let next = rec["next_message"]?.string.map { " · next \($0.dropFirst(11).prefix(5))" } ?? ""
            ctx.out.emit(rec, text: "  \(pad(who(r), wName))  \(pad(r.platform.rawValue, wPlatform))  \(pad(r.schedule.summary, wStrategy))  \(r.messages.count) message\(r.messages.count == 1 ? "" : "s")\(next)"
                         + contactNote(rec, today: ctx.today))
        }
        return .ok
    }

    static func recipientAdd(_ ctx: Context) throws(ToolError) -> ExitCode {
        let name = ctx.operands[0].trimmingSpaces
        if let e = validateName(name) { throw .usage(e) }
        guard let ps = ctx.option("platform"), let platform = Platform(rawValue: ps) else {
            throw .usage("recipient add needs --platform \(Platform.names)")
        }
        let (phone, username, email) = try address(ctx, platform: platform)
        let r = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Recipient in
            if tx.state.recipients.values.contains(where: { $0.name.lowercased() == name.lowercased() }) {
                throw ToolError(.dataError, "there is already a recipient named '\(name)'")
            }
            if tx.state.activeRecipients.count >= maxRecipients {
                throw ToolError(.dataError, "at most \(maxRecipients) active recipients; pause or remove one first")
            }
            var g = SystemRandomNumberGenerator()
            let r = Recipient(id: IDs.make(), name: name, platform: platform, phone: phone, username: username, paused: false,
                              schedule: .random(1), messages: [], drawSeed: g.next(), email: email)
            tx.record(saved(r))
            return r
        }
        ctx.out.emit(r.json, text: "Added \(r.name.terminalSafe) (\(r.platform.rawValue)). Next: playa message add '\(r.name.terminalSafe)' TEXT, then playa schedule '\(r.name.terminalSafe)' --random N")
        return .ok
    }

    static func recipientShow(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read(full: true)
        let r = try s.recipient(ctx.operands[0])
        let rec = dashboardRecord(r, s, now: ctx.now, zone: ctx.zone)
        var text = "\(r.name.terminalSafe)\(r.paused ? " (paused)" : "")\n  platform: \(r.platform.rawValue) \(r.address.terminalSafe)\n  schedule: \(r.schedule.summary)"
            + contactNote(rec, today: ctx.today).replacingFirstDot + "\n  messages:\n"
        for m in r.messages { text += "    \(m.id.prefix(6).terminalSafe)  \(m.text.terminalSafe)\n" }
        if !r.dates.isEmpty {
            text += "  dates:\n"
            // The line without its leading date (the name may have spaces).
            for o in r.dates { text += "    " + dateLine(dateRecord(o, r, today: ctx.today)).drop { $0 != " " }.drop { $0 == " " } + " (\(o.dateText))\n" }
        }
        let log = contactLog(r, s)
        if !log.isEmpty {
            text += "  in touch:\n"
            for c in log.prefix(10) { text += contactLine(c, zone: ctx.zone) + "\n" }
            if log.count > 10 { text += "    and \(log.count - 10) earlier (--format json lists them all)\n" }
        }
        var o = rec.merging(r.json)
        o["contacts"] = .array(log.map { c in
            var j = c.json
            j["at"] = .string(ctx.zone.format(c.at))
            return .object(j)
        })
        ctx.out.emit(o, text: text)
        return .ok
    }

    static func recipientEdit(_ ctx: Context) throws(ToolError) -> ExitCode {
        // Every option is checked first: one that does not fit the platform
        // is refused, never ignored.
        let newName = ctx.option("name")?.trimmingSpaces
        if let n = newName, let e = validateName(n) { throw .usage(e) }
        _ = try ctx.option("phone").map { (p) throws(ToolError) in try phone(p) }
        if newName == nil && ctx.option("platform") == nil && ctx.option("phone") == nil && ctx.option("username") == nil && ctx.option("email") == nil {
            throw .usage("recipient edit needs --name, --platform, --phone, --username or --email")
        }
        let r = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Recipient in
            var r = try tx.state.recipient(ctx.operands[0])
            if let n = newName {
                if tx.state.recipients.values.contains(where: { $0.id != r.id && $0.name.lowercased() == n.lowercased() }) {
                    throw ToolError(.dataError, "there is already a recipient named '\(n)'")
                }
                r.name = n
            }
            if let ps = ctx.option("platform") { r.platform = Platform(rawValue: ps)! }
            (r.phone, r.username, r.email) = try address(ctx, platform: r.platform, had: r)
            tx.record(saved(r))
            return r
        }
        ctx.out.emit(r.json, text: "Changed \(r.name.terminalSafe)")
        return .ok
    }

    static func setPaused(_ ctx: Context, _ paused: Bool) throws(ToolError) -> ExitCode {
        let (r, changed) = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Recipient, Int) in
            var r = try tx.state.recipient(ctx.operands[0])
            guard r.paused != paused else { return (r, 0) }
            if !paused && tx.state.activeRecipients.count >= maxRecipients {
                throw ToolError(.dataError, "at most \(maxRecipients) active recipients; pause or remove one first")
            }
            r.paused = paused
            tx.record(saved(r))
            if paused { return (r, pauseEvents(&tx, r, today: ctx.today, now: ctx.now).count) }
            var rng = SystemRandomNumberGenerator()
            let days = Array(Set(plannedDays(tx.state, r.id, today: ctx.today)).union([ctx.today]))
            let before = tx.state.events.count
            replan(&tx, r, days: days, now: ctx.now, today: ctx.today, zone: ctx.zone, reason: "replaced on resume", rng: &rng)
            return (r, tx.state.events.count - before)
        }
        var o = r.json
        o[paused ? "cancelled" : "drawn"] = JSON(changed)
        let what = changed == 0 ? "" : paused ? "; \(changed) queued message\(changed == 1 ? "" : "s") cancelled" : "; \(changed) message\(changed == 1 ? "" : "s") drawn"
        ctx.out.emit(o, text: (paused ? "Paused \(r.name.terminalSafe)" : "Resumed \(r.name.terminalSafe)") + what)
        return .ok
    }

    static func recipientRemove(_ ctx: Context) throws(ToolError) -> ExitCode {
        let name = try store(ctx).read().recipient(ctx.operands[0]).name
        try confirmOrRefuse(ctx, question: "Delete \(name) and erase their messages and history?", command: "playa recipient rm")
        let r = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Recipient in
            let r = try tx.state.recipient(ctx.operands[0])
            // A tombstone of ids: the store drops every event naming the
            // recipient from the journal, here and on every synced copy.
            tx.record(["type": "erase", "recipient_id": .string(r.id)])
            return r
        }
        var o = r.json
        o["removed"] = true
        ctx.out.emit(o, text: "Removed \(r.name.terminalSafe) and erased their messages and history")
        return .ok
    }

    static func scheduleCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let sched = try parseSchedule(random: ctx.option("random"), fixed: ctx.option("fixed"), every: ctx.option("every"), today: ctx.today)
        let (r, redone, kept, last) = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Recipient, [Day], [Day], Contact?) in
            var r = try tx.state.recipient(ctx.operands[0])
            // A new cadence counts from when the first was set (before any contact).
            var sched = sched
            if let old = r.schedule.cadence, let new = sched.cadence { sched = .every(Cadence(count: new.count, unit: new.unit, since: old.since)) }
            guard r.schedule != sched else { return (r, [], [], tx.state.lastContact[r.id]) }  // unchanged: today's draw and its edits stay
            r.schedule = sched
            tx.record(saved(r))
            var rng = SystemRandomNumberGenerator()
            let (a, b) = replan(&tx, r, days: plannedDays(tx.state, r.id, today: ctx.today), now: ctx.now, today: ctx.today,
                                zone: ctx.zone, reason: "replaced by a new schedule", rng: &rng)
            return (r, a, b, tx.state.lastContact[r.id])
        }
        var o = r.json
        o["regenerated"] = JSON(redone.map(\.description))
        o["unchanged_confirmed"] = JSON(kept.map(\.description))
        var text = "\(r.name.terminalSafe): \(r.schedule.summary)"
        if let c = r.schedule.cadence {
            o["due"] = .string(c.firstDue(last: last?.date).description)
            text += last.map { " after the last contact (\($0.date))" } ?? " from \(c.since == ctx.today ? "today" : c.since.description)"
            text += "; due \(c.firstDue(last: last?.date))"
        }
        if !redone.isEmpty { text += "; regenerated " + redone.map(\.description).joined(separator: ", ") }
        if !kept.isEmpty { text += "; \(kept.map(\.description).joined(separator: ", ")) already confirmed: the new schedule applies from the next day" }
        ctx.out.emit(o, text: text)
        return .ok
    }

    static func messageRecord(_ r: Recipient, _ m: Message) -> JSONObject {
        ["type": "message", "id": .string(m.id), "recipient": .string(r.name), "recipient_id": .string(r.id), "text": .string(m.text)]
    }

    static func messageAdd(_ ctx: Context) throws(ToolError) -> ExitCode {
        let text = ctx.operands.dropFirst().joined(separator: " ")
        if let e = validateMessage(text) { throw .usage(e) }
        let (r, m) = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Recipient, Message) in
            var r = try tx.state.recipient(ctx.operands[0])
            guard r.messages.count < maxMessages else { throw ToolError(.dataError, "\(r.name) already has \(maxMessages) messages, the most a pool holds") }
            let m = Message(id: IDs.make(), text: text)
            r.messages.append(m)
            tx.record(saved(r))
            return (r, m)
        }
        ctx.out.emit(messageRecord(r, m), text: "Added message \(m.id.prefix(6).terminalSafe) for \(r.name.terminalSafe) (\(r.messages.count) in the pool)")
        return .ok
    }

    static func findMessage(_ r: Recipient, _ prefix: String) throws(ToolError) -> Int {
        if let exact = r.messages.firstIndex(where: { $0.id == prefix }) { return exact }
        let m = r.messages.indices.filter { r.messages[$0].id.hasPrefix(prefix) }
        guard !prefix.isEmpty, m.count == 1 else {
            throw ToolError(m.isEmpty ? .dataError : .usage,
                            m.isEmpty ? "\(r.name) has no message '\(prefix)'; 'playa message list \(r.name)' shows them" : "id '\(prefix)' matches \(m.count) messages")
        }
        return m[0]
    }

    static func messageList(_ ctx: Context) throws(ToolError) -> ExitCode {
        let r = try store(ctx).read().recipient(ctx.operands[0])
        if r.messages.isEmpty && !ctx.out.isJSON { ctx.out.raw("\(r.name.terminalSafe) has no messages yet: playa message add '\(r.name.terminalSafe)' TEXT\n") }
        for m in r.messages { ctx.out.emit(messageRecord(r, m), text: "\(m.id.prefix(6).terminalSafe)  \(m.text.terminalSafe)") }
        return .ok
    }

    /// Changes `r`'s pool and brings the queue along; returns the recipient,
    /// what `body` returns, and how many queued events changed.
    static func changePool<T>(_ ctx: Context, _ body: (inout Recipient) throws(ToolError) -> T) throws(ToolError) -> (Recipient, T, Int) {
        try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Recipient, T, Int) in
            var r = try tx.state.recipient(ctx.operands[0])
            let t = try body(&r)
            tx.record(saved(r))
            var rng = SystemRandomNumberGenerator()
            return (r, t, syncPool(&tx, r, rng: &rng).count)
        }
    }

    static func messageEdit(_ ctx: Context) throws(ToolError) -> ExitCode {
        let text = ctx.operands.dropFirst(2).joined(separator: " ")
        if let e = validateMessage(text) { throw .usage(e) }
        let (r, m, changed) = try changePool(ctx) { (r) throws(ToolError) -> Message in
            let i = try findMessage(r, ctx.operands[1])
            r.messages[i].text = text
            return r.messages[i]
        }
        var o = messageRecord(r, m)
        o["events_changed"] = JSON(changed)
        ctx.out.emit(o, text: "Changed message \(m.id.prefix(6).terminalSafe) for \(r.name.terminalSafe)" + (changed > 0 ? " (and \(changed) queued)" : ""))
        return .ok
    }

    static func messageRemove(_ ctx: Context) throws(ToolError) -> ExitCode {
        let (r, m, changed) = try changePool(ctx) { (r) throws(ToolError) -> Message in
            r.messages.remove(at: try findMessage(r, ctx.operands[1]))
        }
        var o = messageRecord(r, m)
        o["removed"] = true
        o["events_changed"] = JSON(changed)
        ctx.out.emit(o, text: "Removed message \(m.id.prefix(6).terminalSafe) from \(r.name.terminalSafe) (\(r.messages.count) left)"
                     + (changed > 0 ? "; \(changed) queued event\(changed == 1 ? "" : "s") changed" : ""))
        return .ok
    }

    /// Clone: deep copies (messages get new ids), the target keeps its name,
    /// platform and address.
    public static func cloned(from a: Recipient, to b: Recipient, schedule: Bool, messages: Bool) -> Recipient {
        var r = b
        if schedule { r.schedule = a.schedule }
        if messages { r.messages = a.messages.map { Message(id: IDs.make(), text: $0.text) } }
        return r
    }

    static func clone(_ ctx: Context) throws(ToolError) -> ExitCode {
        let copySchedule = ctx.flag("schedule"), copyMessages = ctx.flag("messages")
        guard copySchedule || copyMessages else { throw .usage("clone needs --schedule, --messages, or both") }
        let r = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Recipient in
            let a = try tx.state.recipient(ctx.operands[0])
            let b = try tx.state.recipient(ctx.operands[1])
            guard a.id != b.id else { throw .usage("clone needs two different recipients") }
            var r = cloned(from: a, to: b, schedule: copySchedule, messages: copyMessages)
            // A cadence copied counts from today for its new recipient, not from when the first was set.
            if copySchedule, let c = a.schedule.cadence, b.schedule.cadence == nil { r.schedule = .every(Cadence(count: c.count, unit: c.unit, since: ctx.today)) }
            tx.record(saved(r))
            var rng = SystemRandomNumberGenerator()
            if copyMessages { syncPool(&tx, r, rng: &rng) }
            if copySchedule && r.schedule != b.schedule {
                replan(&tx, r, days: plannedDays(tx.state, r.id, today: ctx.today), now: ctx.now, today: ctx.today, zone: ctx.zone,
                       reason: "replaced by a new schedule", rng: &rng)
            }
            return r
        }
        var o = r.json
        o["copied"] = JSON((copySchedule ? ["schedule"] : []) + (copyMessages ? ["messages"] : []))
        let what = [copySchedule ? "the schedule" : nil, copyMessages ? "\(r.messages.count) messages" : nil].compactMap { $0 }.joined(separator: " and ")
        ctx.out.emit(o, text: "Copied \(what) from \(ctx.operands[0].terminalSafe) to \(r.name.terminalSafe)")
        return .ok
    }
}

private extension String {
    /// The dashboard's " · a · b" as ", a · b" after a line's first part.
    var replacingFirstDot: String { hasPrefix(" · ") ? "\n  contact: " + dropFirst(3) : self }
}
