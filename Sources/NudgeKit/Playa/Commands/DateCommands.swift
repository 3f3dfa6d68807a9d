// playa's dates that matter: `date add`, `date list` and `date rm`. The
// rules are Model/PlayaDates.swift's.

extension Playa {
    /// A date as commands print it: as given, its next occurrence from
    /// `today`, the days until it, the years it will be (with a year), and
    /// when its reminder comes.
    static func dateRecord(_ o: Occasion, _ r: Recipient, today: Day) -> JSONObject {
        let next = o.next(onOrAfter: today)
        var rec: JSONObject = ["type": "date", "recipient": .string(r.name), "recipient_id": .string(r.id), "label": .string(o.label),
                               "date": .string(o.dateText), "next": .string(next.description), "days_until": JSON(next - today),
                               "before": JSON(o.before), "remind_on": .string(next.adding(days: -o.before).description),
                               "messages": JSON(o.messages)]
        rec["years"] = JSON(o.year.map { next.year - $0 })
        return rec
    }

    static func dateLine(_ rec: JSONObject) -> String {
        let days = rec["days_until"]?.int ?? 0
        let when = days == 0 ? "today" : days == 1 ? "tomorrow" : "in \(days) days"
        let years = rec["years"]?.int.map { " (\($0))" } ?? ""
        return "\(rec["next"]?.string ?? "")  \((rec["recipient"]?.string ?? "").terminalSafe)'s \((rec["label"]?.string ?? "").terminalSafe)\(years), \(when)"
            + ((rec["before"]?.int ?? 0) > 0 ? "; reminder \(rec["remind_on"]?.string ?? "")" : "")
    }

    /// After a date changed or went: its reminders already drawn for days
    /// from today on that it no longer has are cancelled (those whose
    /// notification went out stay).
    static func dropStaleReminders(_ tx: inout Transaction<PlayaState>, was: Recipient, now: Recipient, label: String, today: Day, at: Instant,
                                   zone: Zone, why: String) {
        for d in plannedDays(tx.state, was.id, today: today) {
            let keep = Set(occasionEvents(now, date: d, zone: zone).map(\.id))
            var only = was
            only.dates = was.dates.filter { $0.label.lowercased() == label.lowercased() }
            for ev in occasionEvents(only, date: d, zone: zone) where !keep.contains(ev.id) {
                guard var cur = tx.state.events[ev.id], untouched(cur, at: at) else { continue }
                cur.status = .cancelled
                cur.error = why
                tx.record(saved(cur))
            }
        }
    }

    /// `o`'s reminder due later today is drawn now: alone when the day was
    /// drawn already, with the rest of the day from now (as resume draws
    /// it) when it was not, as for someone just added or imported after
    /// the day's `generate`.
    @discardableResult
    static func drawDateToday(_ tx: inout Transaction<PlayaState>, _ r: Recipient, _ o: Occasion, now: Instant, today: Day, zone: Zone) -> Event? {
        var only = r
        only.dates = [o]
        guard !r.paused, let ev = occasionEvents(only, date: today, zone: zone).first, ev.at > now, tx.state.events[ev.id] == nil else { return nil }
        if !tx.state.generated.contains(PlayaState.generatedKey(r.id, today)) {
            var rng = SystemRandomNumberGenerator()
            replan(&tx, r, days: [today], now: now, today: today, zone: zone, reason: "replaced when a date was added", rng: &rng)
            return tx.state.events[ev.id]
        }
        tx.record(saved(ev))
        return ev
    }

    static func dateAdd(_ ctx: Context) throws(ToolError) -> ExitCode {
        let label = ctx.operands[1].trimmingSpaces
        if let e = validateLabel(label) { throw .usage(e) }
        guard let (m, d, y) = Occasion.parseDate(ctx.operands[2]) else {
            throw .usage("a date is like 1990-03-14, or 03-14 without the year, not '\(ctx.operands[2])'")
        }
        var before = 0
        if let b = ctx.option("before") {
            guard let n = Int(b), (0...Occasion.maxBefore).contains(n) else { throw .usage("--before takes 0 to \(Occasion.maxBefore) days, not '\(b)'") }
            before = n
        }
        let message = ctx.option("message")
        if let t = message, let e = validateMessage(t) { throw .usage(e) }
        let (r, o, drawn) = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Recipient, Occasion, Event?) in
            var r = try tx.state.recipient(ctx.operands[0])
            let old = r
            var o = Occasion(label: label, month: m, day: d, year: y, before: before)
            if let i = r.dates.firstIndex(where: { $0.label.lowercased() == label.lowercased() }) {
                // The same label again: the day and the reminder change, the messages stay (and grow).
                o.messages = r.dates[i].messages
                if ctx.option("before") == nil { o.before = r.dates[i].before }
                r.dates[i] = o
            } else {
                guard r.dates.count < Occasion.maxPerRecipient else {
                    throw ToolError(.dataError, "\(r.name) already has \(Occasion.maxPerRecipient) dates, the most kept")
                }
                r.dates.append(o)
            }
            if let t = message, let i = r.dates.firstIndex(where: { $0.label.lowercased() == label.lowercased() }) {
                guard r.dates[i].messages.count < maxMessages else { throw ToolError(.dataError, "the \(label) pool already has \(maxMessages) messages") }
                r.dates[i].messages.append(t)
                o = r.dates[i]
            }
            tx.record(saved(r))
            dropStaleReminders(&tx, was: old, now: r, label: label, today: ctx.today, at: ctx.now, zone: ctx.zone, why: "the date was changed")
            // Today drawn already and its reminder due today: it is drawn now.
            return (r, o, drawDateToday(&tx, r, o, now: ctx.now, today: ctx.today, zone: ctx.zone))
        }
        var rec = dateRecord(o, r, today: ctx.today)
        rec["drawn"] = JSON(drawn?.id)
        ctx.out.emit(rec, text: "Added " + dateLine(rec) + (drawn.map { "; reminder today at \($0.time)" } ?? ""))
        return .ok
    }

    static func dateList(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        let rs = try ctx.operands.first.map { (n) throws(ToolError) in [try s.recipient(n)] } ?? Array(s.recipients.values)
        let recs = rs.flatMap { r in r.dates.map { dateRecord($0, r, today: ctx.today) } }
            .sorted { ($0["next"]?.string ?? "", $0["recipient"]?.string ?? "", $0["label"]?.string ?? "") < ($1["next"]?.string ?? "", $1["recipient"]?.string ?? "", $1["label"]?.string ?? "") }
        if recs.isEmpty && !ctx.out.isJSON { ctx.out.raw("No dates yet: playa date add NAME birthday 1990-03-14\n") }
        for rec in recs { ctx.out.emit(rec, text: dateLine(rec)) }
        return .ok
    }

    static func dateRemove(_ ctx: Context) throws(ToolError) -> ExitCode {
        let label = ctx.operands[1].trimmingSpaces
        let r = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Recipient in
            var r = try tx.state.recipient(ctx.operands[0])
            guard let i = r.dates.firstIndex(where: { $0.label.lowercased() == label.lowercased() }) else {
                throw ToolError(.dataError, "\(r.name) has no date '\(label)'; 'playa date list \(r.name)' shows them")
            }
            let old = r
            r.dates.remove(at: i)
            tx.record(saved(r))
            dropStaleReminders(&tx, was: old, now: r, label: label, today: ctx.today, at: ctx.now, zone: ctx.zone, why: "the date was removed")
            return r
        }
        ctx.out.emit(["type": "date", "recipient": .string(r.name), "label": .string(label), "removed": true],
                     text: "Removed \(r.name.terminalSafe)'s \(label.terminalSafe)")
        return .ok
    }
}
