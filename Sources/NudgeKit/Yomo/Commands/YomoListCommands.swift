// yomo's reading commands: `list` (also what `yomo` alone runs) and `next`.
// Handlers only: they read the store, never write it. `list` prints the
// active reminders nearest first (`--all` adds the completed ones); as NDJSON
// it copies the records the snapshot keeps ready for untouched reminders,
// without parsing them, which is what keeps it fast on a large store.

extension Yomo {
    static func list(_ ctx: Context) throws(ToolError) -> ExitCode {
        let views = ["today", "overdue", "upcoming", "done-today"].filter { ctx.flag($0) }
        if views.count + (ctx.flag("all") ? 1 : 0) > 1 {
            throw ToolError(.usage, "--today, --overdue, --upcoming, --done-today and --all are views of their own: give one")
        }
        if let view = views.first { return try listView(ctx, view) }
        if ctx.option("list") != nil { return try listView(ctx, "all") }
        // The common case, JSON of the active reminders, prints the stored
        // records of untouched reminders without parsing them.
        if ctx.out.isJSON && !ctx.flag("all") && !ctx.out.quiet {
            var s = try store(ctx).read(lazy: true)
            if !s.rawZones.isSubset(of: ["", ctx.zone.name]) { s.materializeAll() }
            // Usually the lines stand in list's order: printed from the snapshot as they are.
            if let storage = s.rawStorage, let ranges = s.rawActiveRecordsInOrder() {
                ctx.out.rawRecords(storage.base, ranges)
                return .ok
            }
            // Sort keys: effective trigger, then id (its first 16 bytes packed
            // into two integers, so that comparing is cheap; the whole id only
            // on a tie); raw rows by index, parsed ones by -1 - index.
            var rows: [(Int64, UInt64, UInt64, Int)] = []
            rows.reserveCapacity(s.raw.count + s.reminders.count)
            let pack = YomoState.idKey
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

    /// The views people live in, as Todoist and Reminders have them, in the
    /// reader's day: `today` (due by the end of today, overdue ones too),
    /// `overdue` (due and not done), `upcoming` (due after now, within the
    /// next seven days), `done-today` (a reminder or one of its occurrences
    /// done today).
    static func listView(_ ctx: Context, _ view: String) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        let zone = ctx.zone
        let only = try ctx.option("list").map { (l) throws(ToolError) in try listName(l) } ?? nil
        let rs = Yomo.view(view, of: s, list: only, now: ctx.now, zone: zone)
        if rs.isEmpty && !ctx.out.isJSON {
            let says = ["today": "Nothing due today.", "overdue": "Nothing overdue.", "upcoming": "Nothing in the next seven days.",
                        "done-today": "Nothing done today yet.", "all": "No reminders in that list."]
            ctx.out.raw(says[view]! + "\n")
        }
        for r in rs {
            let done = view == "done-today" ? (r.completedAt ?? r.lastDoneAt).map { "done " + zone.local($0).time.description + "  " } ?? "" : ""
            ctx.out.emit(r.record(zone: zone), text: done + line(r, zone: zone))
        }
        return .ok
    }

    /// `show ID`: one reminder whole: what it says, its rule, where it
    /// stands, its next occurrences and its last changes.
    static func show(_ ctx: Context) throws(ToolError) -> ExitCode {
        let count = try ctx.option("limit").map { (s) throws(ToolError) in try ctx.int(s, option: "--limit", range: 1...1000) } ?? 5
        let r = try store(ctx).read().find(ctx.operands[0])
        let zone = r.zone(ctx.zone)
        let next = r.completed ? [] : occurrences(r, count: count, zone: zone)
        var rec = r.record(zone: ctx.zone)
        rec["type"] = "reminder_detail"
        rec["rule"] = .string(r.recurrence.summary)
        rec["next"] = JSON(next.map(zone.format))
        rec["history"] = .array(r.history.map { c in
            var o: JSONObject = ["type": .string(c.type), "at": .string(zone.format(c.at)), "by": .string(c.by)]
            if let occ = c.occurrence { o["occurrence"] = .string(zone.format(occ)) }
            return .object(o)
        })
        if let src = r.source { rec["source"] = .string(src) }
        func when(_ i: Instant) -> String {
            let l = zone.local(i)
            return "\(Weekdays.display(l.day.weekday)) \(l.day) \(l.time)"
        }
        var text = """
            \(r.title.terminalSafe)  (\(r.id))
              status:    \(r.status)\(r.snoozedUntil.map { ", snoozed until " + when($0) } ?? "")
              rule:      \(r.recurrence.summary)\(r.zoneName.map { " in " + $0.terminalSafe } ?? "")
              next:      \(r.completed ? "-" : when(r.effectiveTrigger))
            """
        if !r.notes.isEmpty { text += "\n  notes:     " + r.notes.terminalSafe }
        if !r.alerts.isEmpty { text += "\n  alerts:    " + r.alerts.map { durationText([$0]) + " before" }.joined(separator: ", ") }
        if r.nagMinutes > 0 { text += "\n  nags:      every \(durationText([r.nagMinutes])) until done, snoozed or dismissed" }
        if let d = r.lastDoneAt ?? r.completedAt { text += "\n  last done: " + when(d) }
        if next.count > 1 { text += "\n  then:      " + next.dropFirst().map(when).joined(separator: "\n             ") }
        if !r.history.isEmpty {
            let verbs = ["created": "made", "edited": "changed", "occurrence": "one occurrence changed", "rezoned": "moved to another zone",
                         "snoozed": "snoozed", "completed": "done", "dismissed": "dismissed"]
            text += "\n  history:   " + r.history.reversed().map { c in
                "\(when(c.at))  \(verbs[c.type] ?? c.type)\(c.occurrence.map { " (" + when($0) + ")" } ?? "")  by \(c.by.terminalSafe)"
            }.joined(separator: "\n             ")
        }
        ctx.out.emit(rec, text: text)
        return .ok
    }

    static func nextCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let count = try ctx.option("limit").map { (s) throws(ToolError) in try ctx.int(s, option: "--limit", range: 1...1000) } ?? 5
        let r = try store(ctx).read().find(ctx.operands[0])
        let zone = r.zone(ctx.zone)
        for (k, i) in occurrences(r, count: count, zone: zone).enumerated() {
            let l = zone.local(i)
            let rec: JSONObject = ["type": "occurrence", "id": .string(r.id), "n": JSON(k + 1), "at": .string(zone.format(i))]
            ctx.out.emit(rec, text: "\(k + 1). \(Weekdays.display(l.day.weekday)) \(l.day) \(l.time)"
                         + (r.recurrence.basedOnCompletion && k > 0 ? " (if completed on time)" : ""))
        }
        return .ok
    }
}
