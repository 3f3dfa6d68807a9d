// tenclub's everyday commands: status, unlock, ingest, widget, history and
// check. Each opens the store, calls the rules and prints.

extension Tenclub {
    static func status(_ ctx: Context) throws(ToolError) -> ExitCode {
        let day = try ctx.option("date").map { (s) throws(ToolError) in try ctx.day(s, option: "--date") } ?? ctx.today
        let state = try store(ctx).read(lazy: true, focus: { $0.focus = day })
        let s = Status(date: day, unlocks: state.unlocks(on: day))
        guard day != ctx.today else {
            ctx.out.emit(s.record, text: statusText(s, style: ctx.out.style))
            return .ok
        }
        // Another day's message speaks of that day, not of today.
        let m = day > ctx.today ? "That day has not come yet."
            : s.unlocks == 0 ? "No unlocks that day."
            : s.busted ? "Busted that day: \(s.unlocks) unlocks."
            : "\(s.unlocks) of \(limit) unlocks that day: within the limit."
        var record = s.record
        record["message"] = .string(m)
        ctx.out.emit(record, text: statusText(s, style: ctx.out.style).replacingAll(s.message, m))
        return .ok
    }

    static func check(_ ctx: Context) throws(ToolError) -> ExitCode {
        let state = try store(ctx).read(lazy: true, focus: { $0.focus = ctx.today })
        let s = Status(date: ctx.today, unlocks: state.unlocks(on: ctx.today))
        let text = s.busted
            ? "BUSTED: \(s.unlocks) unlocks today. \(s.message)"
            : "Within the limit: \(s.unlocks) of \(limit) unlocks today, \(s.remaining) left."
        ctx.out.emit(s.record, text: text)
        return s.busted ? .no : .ok
    }

    static func unlock(_ ctx: Context) throws(ToolError) -> ExitCode {
        if ctx.flag("undo") { return try undoUnlock(ctx) }
        var at = ctx.now
        if let raw = ctx.option("at") {
            at = try ctx.time(raw, option: "--at", lead: skewMs)
        }
        let (r, text) = try recordUnlock(ctx, at: at, now: ctx.now)
        ctx.out.emit(r, text: text)
        return .ok
    }

    /// Counts one unlock at `at` (it is `now`, or given), unless one less
    /// than a second away was counted (by unlock, ingest or watch), and
    /// queues the day's alert when it passes ten: the `unlock` record and
    /// its text.
    static func recordUnlock(_ ctx: Context, at: Instant, now: Instant) throws(ToolError) -> (JSONObject, String) {
        let day = ctx.zone.day(of: at)
        let id = IDs.make()
        let atText = ctx.clock.format(at)
        let nowText = ctx.clock.format(now)
        let today = ctx.zone.day(of: now)
        // A full read: the dedupe index decides whether this instant is new.
        let (count, alerted, near) = try store(ctx).write(full: true, at: now, zone: ctx.zone) { (tx) throws(ToolError) -> (Int, Bool, Int64?) in
            if let n = tx.state.seenNear(at.ms, on: day, window: debounceMs) { return (tx.state.unlocks(on: day), false, n) }
            tx.record(["type": "unlock", "id": .string(id), "at": .string(atText), "day": .string(day.description)])
            let a = alert(tx.state, day: day, today: today, at: nowText)
            if let a = a { tx.record(a) }
            return (tx.state.unlocks(on: day), a != nil, nil)
        }
        let s = Status(date: day, unlocks: count)
        var r: JSONObject = ["type": "unlock", "id": .string(id), "at": .string(atText)]
        for f in s.record.fields where f.key != "type" { r[f.key] = f.value }
        r["counted"] = .bool(near == nil)
        r["alert_queued"] = .bool(alerted)
        if let n = near {
            r["id"] = nil
            return (r, "Already counted: an unlock at \(ctx.zone.format(Instant(ms: n))) is less than a second away. \(count) today (\(s.card.name)).")
        }
        return (r, "Unlock recorded: \(count) today (\(s.card.name)). \(s.message)")
    }

    /// `unlock --undo`: today's last counted unlock is taken back.
    static func undoUnlock(_ ctx: Context) throws(ToolError) -> ExitCode {
        if ctx.option("at") != nil { throw .usage("--undo takes back today's last unlock; it takes no --at") }
        let today = ctx.today
        let (undone, count) = try store(ctx).write(full: true, at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Int64, Int) in
            guard let last = tx.state.lastSeen(on: today) else {
                throw ToolError(.dataError, "no unlock counted today (\(today)) to undo")
            }
            tx.record(["type": "unlock_undone", "at": .string(ctx.zone.format(Instant(ms: last))), "day": .string(today.description)])
            return (last, tx.state.unlocks(on: today))
        }
        let s = Status(date: today, unlocks: count)
        var r: JSONObject = ["type": "unlock", "at": .string(ctx.zone.format(Instant(ms: undone))), "undone": true]
        for f in s.record.fields where f.key != "type" { r[f.key] = f.value }
        ctx.out.emit(r, text: "Took back the unlock at \(ctx.zone.format(Instant(ms: undone))): \(count) today (\(s.card.name)). \(s.message)")
        return .ok
    }

    static let atField: [[UInt8]] = [Array("at".utf8)]
    /// How far ahead of now an unlock may be stamped (clock skew between hosts).
    static let skewMs: Int64 = 300_000

    /// Reads one record's instant: an RFC 3339 time or epoch seconds (or
    /// milliseconds), from 2000-01-01 up to five minutes after `now`.
    public static func instant(ofRecord line: UnsafeRawBufferPointer, zone: Zone, now: Instant) -> Result<Instant, ToolError> {
        var fields: [JSON?] = [nil]
        return instant(ofRecord: line, zone: zone, now: now, fields: &fields)
    }

    /// The same with a slot for the "at" field kept by the caller (one
    /// array for a million lines, not one each).
    static func instant(ofRecord line: UnsafeRawBufferPointer, zone: Zone, now: Instant, fields: inout [JSON?]) -> Result<Instant, ToolError> {
        do { try JSON.scanObject(line, fields: atField, into: &fields) } catch { return .failure(.data(error.message)) }
        guard let v = fields[0] else {
            return .failure(.data("missing \"at\": need an RFC 3339 time like 2026-11-22T08:15:00-05:00"))
        }
        return Clock.instant(v, field: "\"at\"", zone: zone, now: now, lead: skewMs)
    }

    static func ingest(_ ctx: Context) throws(ToolError) -> ExitCode {
        let strict = ctx.flag("strict")
        let sources = try InputSource.openAll(ctx.operands)
        defer { for s in sources { s.closeIfOwned() } }
        var batch: [Day: [Int64]] = [:]
        var bad = 0
        let zone = ctx.zone
        let now = ctx.now
        var fields: [JSON?] = [nil]
        var days = DayLookup(zone)
        // The day being filled, kept out of the dictionary while lines stay on it.
        var current: (day: Day, ms: [Int64])? = nil
        let meter = ctx.progress(sources.count == 1 ? "reading \(sources[0].name)" : "reading", total: InputSource.totalSize(sources))
        defer { meter.finish() }
        for src in sources {
            try NDJSON.forEachLine(src, progress: meter) { (n, line) throws(ToolError) in
                let reason: String
                switch instant(ofRecord: line, zone: zone, now: now, fields: &fields) {
                case .success(let t):
                    let d = days.day(of: t)
                    if current?.day != d {
                        if let c = current { batch[c.day] = c.ms }
                        current = (d, batch.removeValue(forKey: d) ?? [])
                    }
                    current!.ms.append(t.ms)
                    return
                case .failure(let e):
                    reason = e.message
                }
                bad += 1
                if strict { throw ToolError(.dataError, "\(src.name):\(n): \(reason) (--strict: nothing applied)") }
                ctx.warn("\(src.name):\(n): \(reason)")
            }
        }
        meter.finish()
        if let c = current { batch[c.day] = c.ms }
        var plan = IngestPlan()
        var alertDays = Set<Day>()
        if !batch.isEmpty {
            let today = ctx.today
            let nowText = ctx.clock.format(ctx.now)
            (plan, alertDays) = try store(ctx).write(full: true, at: ctx.now, zone: zone) { (tx) throws(ToolError) -> (IngestPlan, Set<Day>) in
                let state = tx.state
                let p = planIngest(batch, alreadySeen: { state.seenNear($0, on: $1, window: debounceMs) != nil })
                var alerted = Set<Day>()
                for day in p.added.keys.sorted() {
                    // Epoch milliseconds: what the dedupe index keeps, written
                    // and read back without formatting or parsing a time.
                    let ms = p.added[day]!.map { JSON.int($0) }
                    tx.record(["type": "ingest", "day": .string(day.description), "ms": .array(ms)])
                    if let a = alert(tx.state, day: day, today: today, at: nowText) {
                        tx.record(a)
                        alerted.insert(day)
                    }
                }
                return (p, alerted)
            }
            // Report against the state as it now stands.
            let state = try store(ctx).read(lazy: true)
            for day in plan.days {
                let n = state.unlocks(on: day)
                let c = card(for: n)
                let added = plan.added[day]?.count ?? 0
                let dups = plan.duplicates[day] ?? 0
                let r: JSONObject = ["type": "day", "date": .string(day.description), "added": JSON(added),
                                     "duplicates": JSON(dups), "unlocks": JSON(n), "card": .string(c.code),
                                     "busted": .bool(isBusted(n)), "alert_queued": .bool(alertDays.contains(day))]
                ctx.out.emit(r, text: "\(day)  +\(added) new, \(dups) already counted  → \(n) (\(c.code))")
            }
        }
        return bad > 0 ? .dataError : .ok
    }

    static func widgetCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let state = try store(ctx).read(lazy: true, focus: { $0.focus = ctx.today })
        let s = Status(date: ctx.today, unlocks: state.unlocks(on: ctx.today))
        ctx.out.raw(widget(s, style: ctx.option("style") ?? "plain"))
        return .ok
    }

    static func historyCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let n = try ctx.option("limit").map { (s) throws(ToolError) in try ctx.int(s, option: "--limit", range: 1...3660) } ?? 7
        // In full: each day's first unlock is in the counted instants (cold).
        let state = try store(ctx).read(full: true)
        // From the first day with an unlock on: days before it are not
        // history (they would read as ten-or-under days, and pull averages down).
        let first = state.days.keys.min()
        let rows = history(state.days, today: ctx.today, count: n).filter { r in first.map { r.date >= $0 } ?? false }
        if ctx.out.isJSON {
            for r in rows {
                var rec = r.record
                rec["first_unlock"] = firstUnlock(state.seen, r.date, zone: ctx.zone).map { .string(clock($0)) } ?? .null
                ctx.out.record(rec)
            }
        } else {
            var t = dayLinesHeader
            for r in rows { t += dayLine(r.date, unlocks: r.unlocks, first: firstUnlock(state.seen, r.date, zone: ctx.zone)) }
            let streak = rows.last?.streak ?? 0
            t += "Current streak: \(streak) day\(streak == 1 ? "" : "s") at ten or under.\n"
            ctx.out.raw(t)
        }
        return .ok
    }
}

extension Tenclub {
    static func reportCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let period = Period(rawValue: ctx.option("period") ?? "week") ?? .week
        let date = try ctx.option("date").map { (s) throws(ToolError) in try ctx.day(s, option: "--date") } ?? ctx.today
        // The counted instants are the cold part: a full read.
        let state = try store(ctx).read(full: true)
        let r = report(period, holding: date, today: ctx.today, days: state.days, seen: state.seen, zone: ctx.zone)
        if ctx.out.isJSON {
            ctx.out.record(r.record)
            for d in r.days { ctx.out.record(d.record) }
        } else {
            ctx.out.raw(reportText(r, unicode: Chart.unicode(env: Sys.env)))
        }
        return .ok
    }
}
