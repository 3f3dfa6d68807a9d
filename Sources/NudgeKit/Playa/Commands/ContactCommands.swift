// playa's contact log: `contacted` records that you were in touch, and what
// the dashboard and `recipient show` say of it (last contact, how long ago,
// when the person is due). The rules are Model/PlayaContacts.swift's.

extension Playa {
    /// How far ahead of now a contact's --at may be (a clock a little ahead).
    static let contactLeadMillis: Int64 = 5 * 60_000

    /// Records `c` with `r`: the reminders it makes not due are cancelled
    /// (in the fold), and a day already drawn that it makes due (a
    /// backdated contact) has its reminder drawn now, as a schedule change
    /// would. Returns the contact, a later one already logged, and the
    /// reminders cancelled.
    static func record(_ tx: inout Transaction<PlayaState>, _ c: Contact, _ r: Recipient, _ ctx: Context) -> (Contact, Contact?, [Event]) {
        let before = tx.state.events.values.filter { $0.recipientID == r.id && $0.status == .pending }
        tx.record(saved(c))
        let last = tx.state.lastContact[r.id]
        if last?.id == c.id, let cad = r.schedule.cadence, !r.paused {
            let days = plannedDays(tx.state, r.id, today: ctx.today).filter { d in
                cad.isDue(d, last: c.date) && !tx.state.events.values.contains { $0.recipientID == r.id && $0.date == d && $0.status != .cancelled }
            }
            var rng = SystemRandomNumberGenerator()
            replan(&tx, r, days: days, now: ctx.now, today: ctx.today, zone: ctx.zone, reason: "replaced after a contact", rng: &rng)
        }
        let gone = before.compactMap { tx.state.events[$0.id] }.filter { $0.status == .cancelled }.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
        return (c, last.flatMap { $0.id != c.id && $0.at > c.at ? $0 : nil }, gone)
    }

    static func contacted(_ ctx: Context) throws(ToolError) -> ExitCode {
        if let mail = ctx.option("mail") { return try mailContacts(ctx, mail) }
        guard !ctx.operands.isEmpty else { throw .usage("contacted needs NAME (or --mail MAILBOX)") }
        let at = try ctx.option("at").map { (s) throws(ToolError) in try ctx.time(s, option: "--at", lead: contactLeadMillis) } ?? ctx.now
        // The day counts where you are: one before 2000 there is as implausible as before 2000 in UTC.
        if ctx.zone.day(of: at).year < 2000 || ctx.zone.day(of: at).year > maxYear {
            throw .usage("--at \(ctx.zone.format(at)) is before 2000-01-01 here: not a plausible time")
        }
        let via = ctx.option("via")
        if let v = via, !contactWays.contains(v) { throw .usage("--via must be one of \(contactWays.joined(separator: ", ")), not '\(v)'") }
        let note = ctx.option("note")
        if let n = note, let e = validateContactNote(n) { throw .usage(e) }
        let (r, c, later, cancelled, s) = try store(ctx).write(at: ctx.now, zone: ctx.zone) {
            (tx) throws(ToolError) -> (Recipient, Contact, Contact?, [Event], PlayaState) in
            let r = try tx.state.recipient(ctx.operands[0])
            let (c, later, gone) = record(&tx, Contact(id: IDs.make(), recipientID: r.id, at: at, date: ctx.zone.day(of: at), via: via, note: note), r, ctx)
            return (r, c, later, gone, tx.state)
        }
        emitContact(ctx, r, c, later: later, cancelled: cancelled, s)
        return .ok
    }

    /// A recorded contact as `contacted` prints it.
    static func emitContact(_ ctx: Context, _ r: Recipient, _ c: Contact, later: Contact?, cancelled: [Event], _ s: PlayaState) {
        var o = c.json
        o["recipient"] = .string(r.name)
        o["at"] = .string(ctx.zone.format(c.at))
        let due = r.schedule.cadence.map { $0.firstDue(last: s.lastContact[r.id]?.date) }
        o["next_due"] = JSON(due?.description)
        o["cancelled"] = JSON(cancelled.map(\.id))
        var text = "In touch with \(r.name.terminalSafe) on \(c.date)" + (c.via.map { " (\($0))" } ?? "")
        if let l = later { text += "; the last contact is later, on \(l.date)" }
        if let d = due { text += "; next due \(d)" }
        if !cancelled.isEmpty {
            text += "; cancelled the reminder" + (cancelled.count == 1 ? "" : "s") + " of " + Set(cancelled.map(\.date.description)).sorted().joined(separator: ", ")
        }
        ctx.out.emit(o, text: text)
    }

    /// `contacted --mail MAILBOX [NAME]`: the last mail from or to each
    /// recipient's addresses (their `email` and the address book's
    /// `emails`), recorded as a contact by e-mail when it is later than the
    /// last contact logged. Its id comes from the recipient and the time,
    /// so the same mailbox read on two devices logs it once.
    static func mailContacts(_ ctx: Context, _ path: String) throws(ToolError) -> ExitCode {
        for o in ["at", "via", "note"] where ctx.option(o) != nil { throw .usage("--mail takes the time from each message: not --\(o)") }
        let s0 = try store(ctx).read()
        let only = try ctx.operands.first.map { (n) throws(ToolError) in try s0.recipient(n) }
        var tally = MailTally(s0.recipients.values.filter { only == nil || $0.id == only?.id }, now: ctx.now, zone: ctx.zone)
        if tally.who.isEmpty {
            throw ToolError(.dataError, (only.map { "\($0.name) has no e-mail address" } ?? "no recipient has an e-mail address") + "; 'playa recipient import' brings them from your address book")
        }
        _ = try MailHeaders.scan(path) { tally.add($0) }
        // Said once a run; -q (as from cron) keeps a mailbox's old oddities from mailing every run.
        let shown = path.terminalSafe
        if tally.undated > 0 && !ctx.out.quiet {
            ctx.warn("\(shown): \(tally.undated) message\(tally.undated == 1 ? "" : "s") without a plausible Date (missing, unreadable, more than 5 minutes ahead or before 2000) left out")
        }
        if tally.cut > 0 && !ctx.out.quiet {
            ctx.warn("\(shown): \(tally.cut) message\(tally.cut == 1 ? "'s" : "s'") headers longer than 256 KB read only that far; an address after that is not seen")
        }
        let done = try store(ctx).write(at: ctx.now, zone: ctx.zone) {
            (tx) throws(ToolError) -> [(Recipient, Contact, [Event])] in
            var done: [(Recipient, Contact, [Event])] = []
            let state = tx.state
            for m in tally.contacts(last: { state.lastContact[$0]?.at }) {
                guard let r = tx.state.recipients[m.recipientID] else { continue }
                let (c, _, gone) = record(&tx, Contact(id: m.id, recipientID: r.id, at: m.at, date: ctx.zone.day(of: m.at), via: "email", note: nil), r, ctx)
                done.append((r, c, gone))
            }
            return done
        }
        let s = try store(ctx).read()
        for (r, c, gone) in done { emitContact(ctx, r, c, later: nil, cancelled: gone, s) }
        if !ctx.out.isJSON {
            ctx.out.raw("Read \(tally.read) message\(tally.read == 1 ? "" : "s"); \(done.count) contact\(done.count == 1 ? "" : "s") recorded\(!done.isEmpty ? "" : tally.latest.isEmpty ? " (no mail from or to their addresses)" : " (none later than the log)")\n")
        }
        return .ok
    }

    /// What the dashboard says of contact with `r` on `today`: the last
    /// contact (local time), days since, the cadence's due day and how many
    /// days overdue (0 when not yet due).
    static func contactFields(_ r: Recipient, _ s: PlayaState, today: Day, zone: Zone) -> JSONObject {
        let last = s.lastContact[r.id]
        var o: JSONObject = ["last_contact": JSON(last.map { zone.format($0.at) }), "last_contact_via": JSON(last?.via),
                             "days_since_contact": JSON(last.map { max(0, today - $0.date) })]
        let due = r.schedule.cadence.map { $0.firstDue(last: last?.date) }
        o["due"] = JSON(due?.description)
        o["overdue_days"] = JSON(due.map { max(0, today - $0) })
        return o
    }

    /// The dashboard's note on contact: "in touch 2026-11-20 (9 days ago)",
    /// "due 2026-12-04" or "overdue 3 days".
    static func contactNote(_ f: JSONObject, today: Day) -> String {
        var parts: [String] = []
        if let d = f["days_since_contact"]?.int, let at = f["last_contact"]?.string {
            parts.append("in touch \(at.prefix(10)) (\(d == 0 ? "today" : d == 1 ? "yesterday" : "\(d) days ago"))")
        }
        if let due = f["due"]?.string, let late = f["overdue_days"]?.int {
            parts.append(late > 0 ? "overdue \(late) day\(late == 1 ? "" : "s") (due \(due))" : due == today.description ? "due today" : "due \(due)")
        }
        return parts.map { " · " + $0 }.joined()
    }

    /// The dashboard's order: people with a cadence first, most overdue (the
    /// earliest due day) first, then everyone else by name.
    static func dashboardOrder(_ rs: [Recipient], _ s: PlayaState) -> [Recipient] {
        func due(_ r: Recipient) -> Day? { r.schedule.cadence?.firstDue(last: s.lastContact[r.id]?.date) }
        return rs.map { ($0, due($0), $0.name.lowercased()) }.sorted { a, b in
            switch (a.1, b.1) {
            case (let x?, let y?) where x != y: return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return (a.2, a.0.id) < (b.2, b.0.id)
            }
        }.map(\.0)
    }

    /// The contact log of `r`, latest first, as `recipient show` lists it.
    static func contactLog(_ r: Recipient, _ s: PlayaState) -> [Contact] {
        s.contacts.values.filter { $0.recipientID == r.id }.sorted { $0.isLater(than: $1) }
    }

    static func contactLine(_ c: Contact, zone: Zone) -> String {
        "    \(zone.format(c.at).prefix(16).replacingT)" + (c.via.map { "  \($0)" } ?? "") + (c.note.map { "  \($0.terminalSafe)" } ?? "")
    }
}

private extension Substring {
    /// `2026-11-20T18:05` as `2026-11-20 18:05`.
    var replacingT: String { String(map { $0 == "T" ? " " : $0 }) }
}
