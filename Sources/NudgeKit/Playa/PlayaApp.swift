// playa's commands: the declaration and thin handlers over the pure core.

extension Playa {
    static let yes = OptionSpec("yes", short: "y", help: "Do it without asking")
    static let dateOption = OptionSpec("date", value: "DAY", help: "The day (default today)")
    static let commandOption = OptionSpec("command", value: "CMD", help: "The command to run", completion: .files)

    public static let spec = ToolSpec(
        name: "playa",
        summary: "Keep in touch: message pools and schedules per person, a daily queue, and deep links that open WhatsApp, SMS or Instagram pre-filled.",
        commands: [
            CommandSpec("queue", summary: "Show the day's pending messages in time order", options: [dateOption], run: queueCommand),
            CommandSpec("recipient", summary: "Show the dashboard: everyone with their strategy and next message",
                        subcommands: [
                            CommandSpec("add", summary: "Add a recipient", usage: "NAME",
                                        options: [OptionSpec("platform", value: "PLATFORM", help: "whatsapp, sms or instagram", choices: ["whatsapp", "sms", "instagram"]),
                                                  OptionSpec("phone", value: "E164", help: "Phone number with country code, like +14155550132"),
                                                  OptionSpec("username", value: "NAME", help: "Instagram username")],
                                        operands: .words, min: 1, max: 1, run: recipientAdd),
                            CommandSpec("list", summary: "The dashboard (as 'playa recipient')", run: dashboard),
                            CommandSpec("show", summary: "One recipient in full", usage: "NAME", operands: .words, min: 1, max: 1, run: recipientShow),
                            CommandSpec("edit", summary: "Change a recipient's name, platform or address", usage: "NAME",
                                        options: [OptionSpec("name", value: "NAME", help: "A new name"),
                                                  OptionSpec("platform", value: "PLATFORM", help: "whatsapp, sms or instagram", choices: ["whatsapp", "sms", "instagram"]),
                                                  OptionSpec("phone", value: "E164", help: "A new phone number"),
                                                  OptionSpec("username", value: "NAME", help: "A new Instagram username")],
                                        operands: .words, min: 1, max: 1, run: recipientEdit),
                            CommandSpec("pause", summary: "Stop generating messages for someone", usage: "NAME", operands: .words, min: 1, max: 1,
                                        run: { (c) throws(ToolError) in try setPaused(c, true) }),
                            CommandSpec("resume", summary: "Start again", usage: "NAME", operands: .words, min: 1, max: 1,
                                        run: { (c) throws(ToolError) in try setPaused(c, false) }),
                            CommandSpec("rm", summary: "Delete a recipient (asks on a terminal; --yes otherwise)", usage: "NAME",
                                        options: [yes], operands: .words, min: 1, max: 1, run: recipientRemove),
                        ], run: dashboard),
            CommandSpec("schedule", summary: "Set when someone gets messages: N random times or fixed times", usage: "NAME",
                        options: [OptionSpec("random", value: "N", help: "1 to 10 a day at random times 09:00-21:00"),
                                  OptionSpec("fixed", value: "TIMES", help: "Fixed times, like 09:30,18:00")],
                        operands: .words, min: 1, max: 1, run: scheduleCommand),
            CommandSpec("message", summary: "Manage someone's message pool",
                        subcommands: [
                            CommandSpec("add", summary: "Add a message (at most 500 characters)", usage: "NAME TEXT...", operands: .words, min: 2, max: nil,
                                        run: messageAdd),
                            CommandSpec("list", summary: "List someone's messages", usage: "NAME", operands: .words, min: 1, max: 1, run: messageList),
                            CommandSpec("edit", summary: "Change a message", usage: "NAME ID TEXT...", operands: .words, min: 3, max: nil, run: messageEdit),
                            CommandSpec("rm", summary: "Remove a message", usage: "NAME ID", operands: .words, min: 2, max: 2, run: messageRemove),
                        ], runnable: false),
            CommandSpec("clone", summary: "Copy the schedule and/or messages from one recipient to another", usage: "FROM TO",
                        options: [OptionSpec("schedule", help: "Copy the schedule"), OptionSpec("messages", help: "Copy the message pool")],
                        operands: .words, min: 2, max: 2, run: clone),
            CommandSpec("generate", summary: "Make the day's events (for cron at 00:00; safe to re-run)",
                        options: [dateOption, OptionSpec("seed", value: "N", help: "Make the random draw reproducible")],
                        group: .plumbing, records: ["event"], run: generate),
            CommandSpec("event", summary: "Change a queued event",
                        subcommands: [CommandSpec("edit", summary: "Change an event's message", usage: "ID TEXT...", operands: .words, min: 2, max: nil,
                                                  run: eventEdit)],
                        runnable: false),
            CommandSpec("cancel", summary: "Cancel a pending event", usage: "ID", operands: .words, min: 1, max: 1, run: cancel),
            CommandSpec("confirm", summary: "Lock the day's schedule (asks on a terminal; --yes otherwise)", options: [dateOption, yes], run: confirm),
            CommandSpec("due", summary: "Print a notification for each event whose time has come (for cron)", options: [commandOption],
                        group: .plumbing, records: ["notification"], run: due),
            CommandSpec("notify", summary: "Send one event's notification by hand, to test", usage: "ID",
                        options: [OptionSpec("test", help: "Required: this is a test, nothing is marked"), commandOption],
                        operands: .words, min: 1, max: 1, group: .admin, run: notifyTest),
            CommandSpec("link", summary: "Print an event's deep link", usage: "ID",
                        options: [OptionSpec("web", help: "https://wa.me/… instead of whatsapp://")], operands: .words, min: 1, max: 1, run: linkCommand),
            CommandSpec("open", summary: "Open an event's deep link and mark it sent", usage: "ID",
                        options: [commandOption, OptionSpec("web", help: "https://wa.me/… instead of whatsapp://")],
                        operands: .words, min: 1, max: 1, run: open),
            CommandSpec("export", summary: "Write everything as one JSON document", group: .admin, run: exportCommand),
            CommandSpec("import", summary: "Read a JSON document: all of it, or nothing if any part is bad", usage: "FILE",
                        operands: .files, min: 1, max: 1, group: .admin, run: importCommand),
            CommandSpec("reset", summary: "Delete everything (needs --yes)", options: [yes], group: .admin, run: reset),
        ],
        defaultCommand: ["queue"],
        footer: "Data: $XDG_DATA_HOME/playa (~/.local/share/playa). Nothing on stderr names a number or a message."
    )

    static let configKeys = ["open_command", "notify_command"]

    static func store(_ ctx: Context) throws(ToolError) -> Store<PlayaState> { Store(dir: ctx.dataDir, options: try ctx.storeOptions()) }
    static func saved(_ r: Recipient) -> JSONObject { ["type": "recipient_saved", "recipient": .object(r.json)] }
    static func saved(_ e: Event) -> JSONObject { ["type": "event_saved", "event": .object(e.json)] }

    static func prefix(_ ctx: Context) -> String {
        ctx.option("data-dir").map { "playa --data-dir " + ToolSpec.shQuote($0) } ?? "playa"
    }

    /// Asks on a terminal; elsewhere requires --yes.
    static func confirmOrRefuse(_ ctx: Context, question: String, command: String) throws(ToolError) {
        if ctx.flag("yes") { return }
        guard Sys.isTerminal(0) && Sys.isTerminal(2) else {
            throw ToolError(.usage, "'\(command)' needs --yes when not run on a terminal")
        }
        _ = Sys.writeAll(fd: 2, Array("\(Text.terminalSafe(question)) [y/N] ".utf8))
        var buf = [UInt8](repeating: 0, count: 64)
        let n = read(0, &buf, 64)
        let answer = n > 0 ? String(decoding: buf[0..<n], as: UTF8.self).trimmingSpaces.lowercased() : ""
        guard answer == "y" || answer == "yes" else { throw ToolError(.no, "nothing changed") }
    }

    static func address(_ ctx: Context, platform: Platform) throws(ToolError) -> (PhoneNumber?, String?) {
        if platform == .instagram {
            guard let u = ctx.option("username") else { throw .usage("Instagram needs --username NAME") }
            if ctx.option("phone") != nil { throw .usage("Instagram takes --username, not --phone") }
            if let e = validateUsername(u) { throw .usage(e) }
            return (nil, u)
        }
        guard let p = ctx.option("phone") else { throw .usage("\(platform.rawValue) needs --phone with a country code, like +14155550132") }
        if ctx.option("username") != nil { throw .usage("\(platform.rawValue) takes --phone, not --username") }
        do throws(ToolError) { return (try PhoneNumber.parseE164(p, what: "--phone"), nil) } catch { throw ToolError(.usage, error.message) }
    }

    static func dashboardRecord(_ r: Recipient, _ s: PlayaState, now: Instant, zone: Zone) -> JSONObject {
        let next = s.events.values.filter { $0.recipientID == r.id && $0.status == .pending && $0.at >= now }.min { $0.at < $1.at }
        var o = r.json
        o["messages"] = nil
        o["strategy"] = .string(r.schedule.summary)
        o["templates"] = JSON(r.messages.count)
        o["next_message"] = JSON(next.map { zone.format($0.at) })
        return o
    }

    static func dashboard(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        let all = s.recipients.values.sorted { $0.name.lowercased() < $1.name.lowercased() }
        if all.isEmpty {
            if !ctx.out.isJSON { ctx.out.raw("Playa\nNo recipients yet. Add one:\n  playa recipient add Ana --platform whatsapp --phone +14155550132\n") }
            return .ok
        }
        if !ctx.out.isJSON { ctx.out.raw("Playa — \(all.count) recipient\(all.count == 1 ? "" : "s")\n") }
        for r in all {
            let rec = dashboardRecord(r, s, now: ctx.now, zone: ctx.zone)
            let next = rec["next_message"]?.string.map { " · next \($0.dropFirst(11).prefix(5))" } ?? ""
            ctx.out.emit(rec, text: "  \(r.name.terminalSafe)\(r.paused ? " (paused)" : "")  \(r.platform.rawValue)  \(r.schedule.summary)  \(r.messages.count) message\(r.messages.count == 1 ? "" : "s")\(next)")
        }
        return .ok
    }

    static func recipientAdd(_ ctx: Context) throws(ToolError) -> ExitCode {
        let name = ctx.operands[0].trimmingSpaces
        if let e = validateName(name) { throw .usage(e) }
        guard let ps = ctx.option("platform"), let platform = Platform(rawValue: ps) else {
            throw .usage("recipient add needs --platform whatsapp, sms or instagram")
        }
        let (phone, username) = try address(ctx, platform: platform)
        let r = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Recipient in
            if tx.state.recipients.values.contains(where: { $0.name.lowercased() == name.lowercased() }) {
                throw ToolError(.dataError, "there is already a recipient named '\(name)'")
            }
            if tx.state.activeRecipients.count >= maxRecipients {
                throw ToolError(.dataError, "at most \(maxRecipients) active recipients; pause or remove one first")
            }
            let r = Recipient(id: IDs.make(), name: name, platform: platform, phone: phone, username: username, paused: false,
                              schedule: .random(1), messages: [])
            tx.record(saved(r))
            return r
        }
        ctx.out.emit(r.json, text: "Added \(r.name.terminalSafe) (\(r.platform.rawValue)). Next: playa message add '\(r.name.terminalSafe)' TEXT, then playa schedule '\(r.name.terminalSafe)' --random N")
        return .ok
    }

    static func recipientShow(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        let r = try s.recipient(ctx.operands[0])
        var text = "\(r.name.terminalSafe)\(r.paused ? " (paused)" : "")\n  platform: \(r.platform.rawValue) \(r.address.terminalSafe)\n  schedule: \(r.schedule.summary)\n  messages:\n"
        for m in r.messages { text += "    \(m.id.prefix(6).terminalSafe)  \(m.text.terminalSafe)\n" }
        ctx.out.emit(dashboardRecord(r, s, now: ctx.now, zone: ctx.zone).merging(r.json), text: text)
        return .ok
    }

    static func recipientEdit(_ ctx: Context) throws(ToolError) -> ExitCode {
        let r = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Recipient in
            var r = try tx.state.recipient(ctx.operands[0])
            if let n = ctx.option("name")?.trimmingSpaces {
                if let e = validateName(n) { throw .usage(e) }
                if tx.state.recipients.values.contains(where: { $0.id != r.id && $0.name.lowercased() == n.lowercased() }) {
                    throw ToolError(.dataError, "there is already a recipient named '\(n)'")
                }
                r.name = n
            }
            if let ps = ctx.option("platform") { r.platform = Platform(rawValue: ps)! }
            if ctx.option("platform") != nil || ctx.option("phone") != nil || ctx.option("username") != nil {
                let wantsPhone = r.platform != .instagram
                if wantsPhone && ctx.option("phone") == nil && r.phone == nil || !wantsPhone && ctx.option("username") == nil && r.username == nil {
                    throw .usage(wantsPhone ? "\(r.platform.rawValue) needs --phone with a country code, like +14155550132" : "Instagram needs --username NAME")
                }
                if wantsPhone {
                    if let p = ctx.option("phone") {
                        do throws(ToolError) { r.phone = try PhoneNumber.parseE164(p, what: "--phone") } catch { throw ToolError(.usage, error.message) }
                    }
                    r.username = nil
                } else {
                    if let u = ctx.option("username") {
                        if let e = validateUsername(u) { throw .usage(e) }
                        r.username = u
                    }
                    r.phone = nil
                }
            }
            tx.record(saved(r))
            return r
        }
        ctx.out.emit(r.json, text: "Changed \(r.name.terminalSafe)")
        return .ok
    }

    static func setPaused(_ ctx: Context, _ paused: Bool) throws(ToolError) -> ExitCode {
        let r = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Recipient in
            var r = try tx.state.recipient(ctx.operands[0])
            if !paused && r.paused && tx.state.activeRecipients.count >= maxRecipients {
                throw ToolError(.dataError, "at most \(maxRecipients) active recipients; pause or remove one first")
            }
            r.paused = paused
            tx.record(saved(r))
            return r
        }
        ctx.out.emit(r.json, text: paused ? "Paused \(r.name.terminalSafe)" : "Resumed \(r.name.terminalSafe)")
        return .ok
    }

    static func recipientRemove(_ ctx: Context) throws(ToolError) -> ExitCode {
        let name = try store(ctx).read().recipient(ctx.operands[0]).name
        try confirmOrRefuse(ctx, question: "Delete \(name) and their pending messages?", command: "playa recipient rm")
        let r = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Recipient in
            let r = try tx.state.recipient(ctx.operands[0])
            tx.record(["type": "recipient_removed", "id": .string(r.id)])
            return r
        }
        var o = r.json
        o["removed"] = true
        ctx.out.emit(o, text: "Removed \(r.name.terminalSafe)")
        return .ok
    }

    /// Regenerates the pending events of generated, unconfirmed days from
    /// today on, after a schedule or pool change. Returns the days redone and
    /// the confirmed days left alone.
    static func regenerate(_ tx: inout Transaction<PlayaState>, _ r: Recipient, ctx: Context) -> ([Day], [Day]) {
        var redone: [Day] = []
        var kept: [Day] = []
        let days = Set(tx.state.events.values.filter { $0.recipientID == r.id && $0.date >= ctx.today }.map(\.date))
            .union(tx.state.generated.contains(PlayaState.generatedKey(r.id, ctx.today)) ? [ctx.today] : [])
        for d in days.sorted() {
            if tx.state.confirmed.contains(d) { kept.append(d); continue }
            for ev in tx.state.events.values where ev.recipientID == r.id && ev.date == d && ev.status == .pending {
                var c = ev
                c.status = .cancelled
                c.error = "replaced by a new schedule"
                tx.record(saved(c))
            }
            var rng = SystemRandomNumberGenerator()
            for ev in plan(r, date: d, zone: ctx.zone, notBefore: d == ctx.today ? ctx.now : nil, rng: &rng) { tx.record(saved(ev)) }
            redone.append(d)
        }
        return (redone, kept)
    }

    static func scheduleCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let sched = try parseSchedule(random: ctx.option("random"), fixed: ctx.option("fixed"))
        let (r, redone, kept) = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Recipient, [Day], [Day]) in
            var r = try tx.state.recipient(ctx.operands[0])
            r.schedule = sched
            tx.record(saved(r))
            let (a, b) = regenerate(&tx, r, ctx: ctx)
            return (r, a, b)
        }
        var o = r.json
        o["regenerated"] = JSON(redone.map(\.description))
        o["unchanged_confirmed"] = JSON(kept.map(\.description))
        var text = "\(r.name.terminalSafe): \(sched.summary)"
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

    static func messageEdit(_ ctx: Context) throws(ToolError) -> ExitCode {
        let text = ctx.operands.dropFirst(2).joined(separator: " ")
        if let e = validateMessage(text) { throw .usage(e) }
        let (r, m) = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Recipient, Message) in
            var r = try tx.state.recipient(ctx.operands[0])
            let i = try findMessage(r, ctx.operands[1])
            r.messages[i].text = text
            tx.record(saved(r))
            return (r, r.messages[i])
        }
        ctx.out.emit(messageRecord(r, m), text: "Changed message \(m.id.prefix(6).terminalSafe) for \(r.name.terminalSafe)")
        return .ok
    }

    static func messageRemove(_ ctx: Context) throws(ToolError) -> ExitCode {
        let (r, m) = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Recipient, Message) in
            var r = try tx.state.recipient(ctx.operands[0])
            let i = try findMessage(r, ctx.operands[1])
            let m = r.messages.remove(at: i)
            tx.record(saved(r))
            return (r, m)
        }
        var o = messageRecord(r, m)
        o["removed"] = true
        ctx.out.emit(o, text: "Removed message \(m.id.prefix(6).terminalSafe) from \(r.name.terminalSafe) (\(r.messages.count) left)")
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
            let r = cloned(from: a, to: b, schedule: copySchedule, messages: copyMessages)
            tx.record(saved(r))
            if copySchedule || copyMessages { _ = regenerate(&tx, r, ctx: ctx) }
            return r
        }
        var o = r.json
        o["copied"] = JSON((copySchedule ? ["schedule"] : []) + (copyMessages ? ["messages"] : []))
        let what = [copySchedule ? "the schedule" : nil, copyMessages ? "\(r.messages.count) messages" : nil].compactMap { $0 }.joined(separator: " and ")
        ctx.out.emit(o, text: "Copied \(what) from \(ctx.operands[0].terminalSafe) to \(r.name.terminalSafe)")
        return .ok
    }

    static func eventRecord(_ e: Event, _ s: PlayaState, ctx: Context) -> JSONObject {
        var o = e.json
        o["at"] = .string(ctx.zone.format(e.at))
        if let r = s.recipients[e.recipientID] {
            o["recipient"] = .string(r.name)
            o["platform"] = .string(r.platform.rawValue)
        }
        o["soon"] = .bool(e.status == .pending && e.at.ms <= ctx.now.ms + 30 * 60_000)
        o["overdue"] = .bool(e.status == .pending && e.at < ctx.now)
        return o
    }

    static func eventLine(_ e: Event, _ s: PlayaState, ctx: Context) -> String {
        let name = s.recipients[e.recipientID]?.name ?? "?"
        let soon = e.status == .pending && e.at.ms <= ctx.now.ms + 30 * 60_000 ? (e.at < ctx.now ? " !" : " *") : "  "
        return "\(e.time)\(soon) \(e.id.prefix(6).terminalSafe)  \(name.terminalSafe) (\(s.recipients[e.recipientID]?.platform.rawValue ?? "?"))  \(e.message.terminalSafe)"
    }

    public static func seededGenerator(seed: UInt64, recipient: String, date: Day) -> SeededRandom {
        SeededRandom(seed: seed ^ stableHash(recipient + "|" + date.description))
    }

    static func generate(_ ctx: Context) throws(ToolError) -> ExitCode {
        let date = try ctx.option("date").map { (s) throws(ToolError) in try ctx.day(s, option: "--date") } ?? ctx.today
        var seed: UInt64? = nil
        if let s = ctx.option("seed") {
            guard let v = UInt64(s) else { throw .usage("--seed must be a whole number, not '\(s)'") }
            seed = v
        }
        let (made, empty, state) = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> ([Event], [String], PlayaState) in
            var made: [Event] = []
            var empty: [String] = []
            for r in tx.state.activeRecipients where !tx.state.generated.contains(PlayaState.generatedKey(r.id, date)) {
                if r.messages.isEmpty { empty.append(r.name); continue }
                var sys = SystemRandomNumberGenerator()
                var seeded = seededGenerator(seed: seed ?? 0, recipient: r.id, date: date)
                let notBefore: Instant? = date <= ctx.today ? ctx.now : nil
                let evs = seed == nil ? plan(r, date: date, zone: ctx.zone, notBefore: notBefore, rng: &sys)
                                      : plan(r, date: date, zone: ctx.zone, notBefore: notBefore, rng: &seeded)
                for e in evs { tx.record(saved(e)) }
                tx.record(["type": "generated", "recipient_id": .string(r.id), "date": .string(date.description)])
                made += evs
            }
            return (made, empty, tx.state)
        }
        for n in empty { ctx.warn("\(n) has no messages: no events generated (add one with 'playa message add')") }
        for e in made.sorted(by: { ($0.at, $0.id) < ($1.at, $1.id) }) { ctx.out.emit(eventRecord(e, state, ctx: ctx), text: eventLine(e, state, ctx: ctx)) }
        return .ok
    }

    static func queueCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let date = try ctx.option("date").map { (s) throws(ToolError) in try ctx.day(s, option: "--date") } ?? ctx.today
        let s = try store(ctx).read()
        let q = s.queue(date)
        if q.isEmpty && !ctx.out.isJSON {
            let how = s.recipients.isEmpty ? "add someone: playa recipient add NAME --platform whatsapp --phone +E164"
                                           : "run 'playa generate' (cron does it at 00:00)"
            ctx.out.raw("Nothing queued for \(date)\(s.confirmed.contains(date) ? " (confirmed)" : ""). To fill the queue, \(how).\n")
        } else if !ctx.out.isJSON {
            ctx.out.raw("Queue for \(date)\(s.confirmed.contains(date) ? " (confirmed)" : "") — * within 30 min, ! overdue\n")
        }
        for e in q { ctx.out.emit(eventRecord(e, s, ctx: ctx), text: eventLine(e, s, ctx: ctx)) }
        return .ok
    }

    static func move(_ ctx: Context, _ id: String, to status: Status, error: String? = nil) throws(ToolError) -> (Event, PlayaState) {
        try store(ctx).write(full: true, at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Event, PlayaState) in
            var e = try tx.state.event(id)
            guard canMove(e.status, to: status) else {
                throw ToolError(.dataError, "event \(e.id) is \(e.status.rawValue); only pending events can become \(status.rawValue)")
            }
            e.status = status
            e.error = error
            tx.record(saved(e))
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

    /// Hands a notification to the command (JSON on stdin); true when it exits 0.
    static func deliver(_ n: JSONObject, command: String) throws(ToolError) -> Int32 {
        var input = [UInt8]()
        n.write(into: &input)
        input.append(0x0A)
        return try Subprocess.shell(command, stdin: input, env: ["PLAYA_TITLE": n["title"]?.string ?? "", "PLAYA_BODY": n["body"]?.string ?? "",
                                                                "PLAYA_URL": n["url"]?.string ?? "", "PLAYA_ID": n["id"]?.string ?? ""], quiet: true)
    }

    static func due(_ ctx: Context) throws(ToolError) -> ExitCode {
        let config = try Config.load(directory: ctx.configDir, known: configKeys)
        let command = ctx.option("command") ?? config["notify_command"]
        let st = try store(ctx)
        let s = try st.read()
        let due = s.due(at: ctx.now)
        if due.isEmpty { return .ok }
        let pre = prefix(ctx)
        var failed = 0
        for e in due {
            // Claim it first, so two runs never announce the same event.
            let claimed = try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Bool in
                guard var cur = tx.state.events[e.id], cur.status == .pending, cur.notification != "delivered" else { return false }
                if command == nil {
                    cur.notification = "delivered"
                    tx.record(saved(cur))
                }
                return true
            }
            guard claimed, let r = s.recipients[e.recipientID] else { continue }
            let n = notification(e, r, commandPrefix: pre)
            if let cmd = command {
                let status = try deliver(n, command: cmd)
                try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) in
                    guard var cur = tx.state.events[e.id] else { return }
                    cur.notification = status == 0 ? "delivered" : "failed"
                    cur.error = status == 0 ? nil : "the notify command exited \(status)"
                    tx.record(saved(cur))
                }
                var o = n
                o["notification"] = .string(status == 0 ? "delivered" : "failed")
                ctx.out.emit(o, text: "\(status == 0 ? "notified" : "FAILED") \(e.time) \(r.name.terminalSafe)")
                if status != 0 { failed += 1 }
            } else {
                ctx.out.emit(n, text: "\(e.time)  \(r.name.terminalSafe): \((n["body"]?.string ?? "").terminalSafe)\n  \((n["url"]?.string ?? "").terminalSafe)")
            }
        }
        if failed > 0 {
            ctx.warn("\(failed) notification\(failed == 1 ? "" : "s") failed; they will be tried again on the next run")
            return .tempFail
        }
        return .ok
    }

    static func notifyTest(_ ctx: Context) throws(ToolError) -> ExitCode {
        guard ctx.flag("test") else { throw .usage("notify sends a test notification: use 'playa notify --test ID'") }
        let s = try store(ctx).read(full: true)
        let e = try s.event(ctx.operands[0])
        guard let r = s.recipients[e.recipientID] else { throw ToolError(.dataError, "event \(e.id) has no recipient any more") }
        let n = notification(e, r, commandPrefix: prefix(ctx))
        let config = try Config.load(directory: ctx.configDir, known: configKeys)
        if let cmd = ctx.option("command") ?? config["notify_command"] {
            let status = try deliver(n, command: cmd)
            if status != 0 { throw ToolError(.tempFail, "the notify command exited \(status)") }
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

    static func open(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read(full: true)
        let e = try s.event(ctx.operands[0])
        guard e.status == .pending else { throw ToolError(.dataError, "event \(e.id) is \(e.status.rawValue); only pending events are opened") }
        guard let r = s.recipients[e.recipientID] else { throw ToolError(.dataError, "event \(e.id) has no recipient any more") }
        let url = link(r, message: e.message, web: ctx.flag("web"))
        let config = try Config.load(directory: ctx.configDir, known: configKeys)
        let opener = ctx.option("command") ?? config["open_command"] ?? defaultOpener()
        let status = try Subprocess.shell(opener + " " + ToolSpec.shQuote(url), env: ["PLAYA_URL": url], quiet: true)
        if status != 0 {
            let why = "the opener exited \(status)"
            _ = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) in
                guard var cur = tx.state.events[e.id], cur.status == .pending else { return }
                cur.error = why
                tx.record(saved(cur))
            }
            throw ToolError(.tempFail, "could not open event \(e.id): \(why); it stays pending")
        }
        let (moved, st) = try move(ctx, e.id, to: .sent)
        var o = eventRecord(moved, st, ctx: ctx)
        o["url"] = .string(url)
        ctx.out.emit(o, text: "Opened \(r.platform.rawValue) for \(r.name.terminalSafe); marked sent")
        return .ok
    }

    // MARK: Export, import, reset

    static func exportDocument(_ s: PlayaState, ctx: Context) -> JSONObject {
        ["type": "playa_export", "version": 1, "exported_at": .string(ctx.clock.format(ctx.now)),
         "recipients": .array(s.recipients.values.sorted { $0.id < $1.id }.map { .object($0.json) }),
         "events": .array(s.events.values.sorted { ($0.at, $0.id) < ($1.at, $1.id) }.map { .object($0.json) }),
         "confirmed": JSON(s.confirmed.sorted().map(\.description)),
         "generated": JSON(s.generated.sorted())]
    }

    static func exportCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read(full: true)
        ctx.out.rawForced(exportDocument(s, ctx: ctx).serialized + "\n")
        return .ok
    }

    /// Validates a whole export document against the current state; the
    /// events to record, or the first problem.
    public static func importEvents(_ doc: JSON, into s: PlayaState) -> Result<[JSONObject], ToolError> {
        guard let o = doc.object, o["type"]?.string == "playa_export" else {
            return .failure(.data("not a playa export: need {\"type\":\"playa_export\",\"recipients\":[…],\"events\":[…]}"))
        }
        for k in ["recipients", "events", "confirmed", "generated"] {
            if let v = o[k], v.array == nil { return .failure(.data("\"\(k)\" must be an array, not \(v.kindName)")) }
        }
        var out: [JSONObject] = []
        var recipients = s.recipients
        for (n, j) in (o["recipients"]?.array ?? []).enumerated() {
            guard let ro = j.object else { return .failure(.data("recipients[\(n)]: not an object")) }
            switch Recipient.from(ro) {
            case .failure(let e): return .failure(.data("recipients[\(n)]: \(e.message)"))
            case .success(let r):
                recipients[r.id] = r
                out.append(saved(r))
            }
        }
        var names = Set<String>()
        for r in recipients.values {
            guard names.insert(r.name.lowercased()).inserted else { return .failure(.data("two recipients would be named '\(r.name)'")) }
        }
        if recipients.values.filter({ !$0.paused }).count > maxRecipients { return .failure(.data("more than \(maxRecipients) active recipients")) }
        for (n, j) in (o["events"]?.array ?? []).enumerated() {
            guard let eo = j.object else { return .failure(.data("events[\(n)]: not an object")) }
            switch Event.from(eo) {
            case .failure(let e): return .failure(.data("events[\(n)]: \(e.message)"))
            case .success(let ev):
                guard recipients[ev.recipientID] != nil else { return .failure(.data("events[\(n)]: no recipient \(ev.recipientID)")) }
                if let old = s.events[ev.id], old.status != ev.status, !canMove(old.status, to: ev.status) {
                    return .failure(.data("events[\(n)]: cannot move from \(old.status.rawValue) to \(ev.status.rawValue)"))
                }
                out.append(saved(ev))
            }
        }
        for (n, d) in (o["confirmed"]?.array ?? []).enumerated() {
            guard let day = d.string.flatMap(Day.parse) else { return .failure(.data("confirmed[\(n)]: must be a day like 2026-11-22")) }
            if let e = Clock.plausible(day: day, what: "confirmed[\(n)]") { return .failure(e) }
            out.append(["type": "day_confirmed", "date": .string(day.description)])
        }
        for g in o["generated"]?.array ?? [] {
            guard let parts = g.string?.split(separator: "|"), parts.count == 2, let d = Day.parse(String(parts[1])) else {
                return .failure(.data("generated: entries are \"RECIPIENT|YYYY-MM-DD\""))
            }
            if let e = Clock.plausible(day: d, what: "generated") { return .failure(e) }
            out.append(["type": "generated", "recipient_id": .string(String(parts[0])), "date": .string(d.description)])
        }
        return .success(out)
    }

    static func importCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let path = ctx.operands[0] == "-" ? "stdin" : ctx.operands[0]
        let bytes: [UInt8]
        if ctx.operands[0] == "-" {
            bytes = try Sys.readStream(fd: 0, name: "stdin")
        } else {
            guard let b = try Sys.readFile(path) else { throw ToolError(.noInput, "cannot open \(path): No such file or directory") }
            bytes = b
        }
        let name = path == "-" ? "stdin" : path
        let doc: JSON
        // A byte order mark before the document is skipped; positions count from after it.
        let text = JSON.droppingBOM(bytes)
        do throws(JSONParseError) { doc = try JSON.parse(text) } catch {
            // FILE:LINE:COLUMN, as compilers and editors read it.
            guard let (line, column) = error.location(in: text), let reason = error.reason else {
                throw ToolError(.dataError, "\(name): \(error.message); nothing imported")
            }
            throw ToolError(.dataError, "\(name):\(line):\(column): not valid JSON: \(reason); nothing imported")
        }
        let (r, e) = try store(ctx).write(full: true, at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Int, Int) in
            switch importEvents(doc, into: tx.state) {
            case .failure(let err): throw ToolError(.dataError, "\(name): \(err.message); nothing imported")
            case .success(let evs):
                for ev in evs { tx.record(ev) }
                return (evs.filter { $0["type"]?.string == "recipient_saved" }.count, evs.filter { $0["type"]?.string == "event_saved" }.count)
            }
        }
        ctx.out.emit(["type": "import", "recipients": JSON(r), "events": JSON(e)], text: "Imported \(r) recipients and \(e) events")
        return .ok
    }

    static func reset(_ ctx: Context) throws(ToolError) -> ExitCode {
        guard ctx.flag("yes") else { throw .usage("reset deletes everything: run 'playa reset --yes' (export first to keep a copy)") }
        try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) in tx.record(["type": "reset"]) }
        ctx.out.emit(["type": "reset", "at": .string(ctx.clock.format(ctx.now))], text: "Everything is deleted.")
        return .ok
    }
}

extension JSONObject {
    /// This object's fields, then the other's that it lacks.
    public func merging(_ other: JSONObject) -> JSONObject {
        var o = self
        for f in other.fields where o[f.key] == nil { o[f.key] = f.value }
        return o
    }
}
