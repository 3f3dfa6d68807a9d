// `stats` and `export`: how your habits went, by week or by month, and all
// of it as Loop Habit Tracker's CSV tables for a spreadsheet. Handlers
// only: the periods and the tables are in Rules/HabitmatchStats.
//
// Invariants: only the member's own habits (a buddy's through --of, as
// `calendar` allows); days are the member's, in their zone.

extension Habitmatch {
    static func stats(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try view(ctx)
        let (m, habits) = try shown(s, ctx)
        let t = today(m, ctx)
        let byMonth = try ctx.option("by").map { (b) throws(ToolError) -> Bool in
            guard b == "week" || b == "month" else { throw .usage("--by must be week or month, not '\(b)'") }
            return b == "month"
        } ?? false
        let limit = try ctx.option("limit").map { (n) throws(ToolError) in try ctx.int(n, option: "--limit", range: 1...1_000_000) } ?? (byMonth ? 6 : 8)
        var text = ""
        for h in habits {
            let p = s.progress(m.user, h, today: t)
            var o: JSONObject = ["type": "habit_stats", "user": .string(m.user), "habit": .string(h.id), "name": .string(h.name)]
            for (k, v) in progressFields(h, p, today: t).fields { o[k] = v }
            ctx.out.emit(o, text: nil)
            text += (text.isEmpty ? "" : "\n") + "\(h.name.terminalSafe)\(h.every.isDaily ? ", every day" : "") · \(progressText(h, p, today: t))\n"
            let rows = periods(p, h, today: t, byMonth: byMonth).suffix(limit)
            if rows.isEmpty { text += "  not done yet\n"; continue }
            text += byMonth ? "  month      done     rate  strength\n" : "  week of     done     rate  strength\n"
            for r in rows {
                ctx.out.emit(["type": "period", "user": .string(m.user), "habit": .string(h.id), "by": .string(byMonth ? "month" : "week"),
                              "start": .string(r.start.description), "end": .string(r.end.description), "done": .double(r.done),
                              "expected": .double(r.expected), "rate": .double(r.rate), "strength": .double(r.strength)], text: nil)
                let label = byMonth ? "\(Day.monthNames[r.start.month - 1].prefix(3)) \(r.start.year)" : r.start.description
                let done = "\(number(r.done))/\(number((r.expected * 10).rounded() / 10))"
                let rate = "\(Int((r.rate * 100).rounded()))%", strength = "\(Int((r.strength * 100).rounded()))%"
                text += "  " + label.padding(11) + done.padding(8) + String(repeating: " ", count: max(0, 5 - rate.count)) + rate
                    + String(repeating: " ", count: max(1, 10 - strength.count)) + strength + "\n"
            }
        }
        if !ctx.out.isJSON { ctx.out.raw(text) }
        return .ok
    }

    /// `export`: every day of the habits from their first to today, as
    /// JSON day records, or (--format csv, and on a terminal) as one of Loop
    /// Habit Tracker's CSV tables.
    static func export(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try view(ctx)
        let (m, habits) = try shown(s, ctx)
        let t = today(m, ctx)
        let table = ctx.option("table") ?? "checkmarks"
        guard ["checkmarks", "scores", "habits"].contains(table) else { throw .usage("--table must be checkmarks, scores or habits, not '\(table)'") }
        let pairs = habits.map { ($0, s.progress(m.user, $0, today: t)) }
        // On a terminal, and with --format csv, the table itself.
        if ctx.option("format") == "csv" || !ctx.out.isJSON {
            ctx.out.rawForced(table == "habits" ? loopHabitsCSV(habits) : loopTableCSV(pairs, today: t, scores: table == "scores"))
            return .ok
        }
        if ctx.option("table") != nil { throw .usage("--table is for --format csv (JSON has a record a day, with its mark and strength)") }
        for (h, p) in pairs where !p.marks.isEmpty {
            let done = s.doneDays(m.user, h.id)
            var d = p.first
            while d <= t {
                ctx.out.emit(dayRecord(m, h, p, d, done: done.contains(d), today: t), text: nil)
                d = d.adding(days: 1)
            }
        }
        return .ok
    }

    /// The member whose habits are shown (you, or a buddy with --of) and
    /// the habit named (default all of theirs).
    static func shown(_ s: HabitmatchState, _ ctx: Context) throws(ToolError) -> (Member, [Habit]) {
        let m = try viewed(s, ctx, what: "habits")
        if let raw = ctx.operands.first { return (m, [try ownHabit(m, raw)]) }
        return (m, m.habits)
    }
}
