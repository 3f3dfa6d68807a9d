// `dashboard`, `done`, `undo` and `calendar`: the days a habit was done, as
// this week's row, a mark, or a month. Handlers only: streaks and the month
// grid are in Rules/HabitmatchStreaks.
//
// Invariants: days are the member's days, in their zone; no day after the
// member's today is marked; done days go to the member's private file, and
// only the member and their buddies see another's calendar. A mark that is
// already so records nothing.

extension Habitmatch {
    static func dashboard(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try view(ctx)
        guard let m = s.members[me(ctx)] else {
            if !ctx.out.isJSON { ctx.out.raw("Welcome to habitmatch. Join with up to three habits:\n  habitmatch join --name NAME --habit exercise --habit read\n  (habitmatch catalog lists them)\n") }
            return .ok
        }
        let t = today(m, ctx)
        let monday = t.adding(days: -((t.weekday + 6) % 7))
        var text = "\(m.name.terminalSafe) — week of \(monday)\n            Mo Tu We Th Fr Sa Su  streak, strength\n"
        for h in m.habits {
            let days = s.doneDays(m.user, h.id)
            let p = s.progress(m.user, h, today: t)
            let week = (0..<7).map { monday.adding(days: $0) }
            var o: JSONObject = ["type": "habit", "id": .string(h.id), "name": .string(h.name),
                                 "week": .array(week.map { d in
                                     var o: JSONObject = ["date": .string(d.description), "done": .bool(days.contains(d) && met(h, p, d)), "future": .bool(d > t)]
                                     if d <= t { o["mark"] = .int(Int64(p.mark(d).rawValue)) }
                                     return .object(o)
                                 })]
            for (k, v) in progressFields(h, p, today: t).fields { o[k] = v }
            ctx.out.emit(o, text: nil)
            let marks = week.map { d in d > t ? " " : glyph(p, d) }.joined(separator: "  ")
            text += h.id.terminalSafe.padding(12) + marks + "   \(p.current) (best \(p.longest)) \(Int((p.strength(t) * 100).rounded()))%\n"
        }
        let buddies = s.buddies(of: m.user).sorted()
        for b in buddies { ctx.out.emit(["type": "buddy", "user": .string(b), "name": .string(s.members[b]?.name ?? b)], text: nil) }
        // People by name, with the member name commands take.
        func named(_ u: String) -> String { s.members[u].map { $0.name == u ? u : "\($0.name) (\(u))" } ?? u }
        text += "Buddies: " + (buddies.isEmpty ? "none yet (habitmatch candidates)" : buddies.map(named).joined(separator: ", ").terminalSafe) + "\n"
        if let mt = myMeetings(s, m.user, now: ctx.now).first, let n = mt.next(after: ctx.now) {
            let other = mt.organizer == m.user ? mt.attendee : mt.organizer
            ctx.out.emit(["type": "next_meeting", "id": .string(mt.id), "with": .string(other), "at": .string(ctx.zone.format(n))], text: nil)
            // In the member's own zone, named: not the process's TZ.
            let z = memberZone(m, ctx)
            text += "Next meeting: \(z.local(n).day) \(z.local(n).time) \(m.timezone.terminalSafe) with \((s.members[other]?.name ?? other).terminalSafe)\n"
        }
        // Who liked this member is never shown: a like is known only to the
        // one who gave it, until it is mutual.
        let matches = s.matches(of: m.user).subtracting(buddies).sorted()
        for x in matches { ctx.out.emit(["type": "match", "user": .string(x), "name": .string(s.members[x]?.name ?? x)], text: nil) }
        if !matches.isEmpty { text += "Matches: \(matches.map(named).joined(separator: ", ").terminalSafe) (habitmatch chat USER, buddy accept USER)\n" }
        if !ctx.out.isJSON { ctx.out.raw(text) }
        return .ok
    }

    static func mark(_ ctx: Context, _ isDone: Bool) throws(ToolError) -> ExitCode {
        let (h, d, p) = try write(ctx, folder: "private") { (tx) throws(ToolError) -> (Habit, Day, Progress) in
            let m = try member(tx.state, ctx)
            let h = try ownHabit(m, ctx.operands.first)
            let t = today(m, ctx)
            // "today" is the member's today, in their zone, as without --date.
            let d = try ctx.option("date").map { (s) throws(ToolError) -> Day in
                s == "today" ? t : s == "yesterday" ? t.adding(days: -1) : try ctx.day(s, option: "--date")
            } ?? t
            if d > t { throw .usage("--date cannot be in the future: today is \(t)") }
            // Changes are stamped by the real clock whatever --now says, and a
            // day more than one after its stamp counts for nothing (a day is
            // not marked before it comes): say so rather than record nothing.
            let real = (ZoneCache.named(m.timezone) ?? .utc).day(of: Instant(ms: Sys.nowMillis()))
            if d > real.adding(days: 1) {
                throw .usage("\(d) has not come yet by this machine's clock (today is \(real) there); a day is marked once it comes")
            }
            let has = tx.state.doneDays(m.user, h.id).contains(d)
            let amount = isDone ? try dayAmount(ctx, h, had: tx.state.amounts(m.user, h.id)[d]) : nil
            if isDone != has || (isDone && amount != tx.state.amounts(m.user, h.id)[d]) {
                var e: JSONObject = ["type": isDone ? "done" : "undone", "habit": .string(h.id), "date": .string(d.description)]
                if isDone, let a = amount { e["amount"] = .double(a) }
                tx.record(e)
            }
            return (h, d, tx.state.progress(m.user, h, today: t))
        }
        var o: JSONObject = ["type": "progress", "habit": .string(h.id), "date": .string(d.description), "done": .bool(isDone && met(h, p, d))]
        for (k, v) in progressFields(h, p, today: d).fields { o[k] = v }
        if h.target != nil { o["amount"] = .double(p.amount(d)) }
        let said = h.target != nil && isDone ? "\(number(p.amount(d)))\(h.unit.map { " " + $0.terminalSafe } ?? "")" : isDone ? "done" : "not done"
        ctx.out.emit(o, text: "\(h.name.terminalSafe) \(said) on \(d) · \(progressText(h, p, today: d))")
        return .ok
    }

    /// A measurable habit's amount for the day: --amount N (the day's), --add
    /// N (to what it holds), or the whole target; nil for a yes/no habit.
    static func dayAmount(_ ctx: Context, _ h: Habit, had: Double?) throws(ToolError) -> Double? {
        let set = ctx.option("amount"), add = ctx.option("add")
        guard let target = h.target else {
            if set != nil || add != nil {
                throw .usage("'\(h.id)' is done or not; to count an amount give it a target: habitmatch habit set \(h.id) --target N --unit UNIT")
            }
            return nil
        }
        if set != nil && add != nil { throw .usage("--amount and --add are one or the other") }
        guard let raw = set ?? add else { return target }
        guard let x = amount(raw) else { throw .usage("--\(set != nil ? "amount" : "add") must be a number from 0.001 to 1000000 like 12 or 2.5, not '\(raw)'") }
        let total = set != nil ? x : (had ?? 0) + x
        guard validAmount(total) else { throw .usage("a day holds at most 1000000; it holds \(number(had ?? 0))") }
        return total
    }

    static func calendar(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try view(ctx)
        let m = try viewed(s, ctx, what: "calendar")
        let h = try ownHabit(m, ctx.operands.first)
        let t = today(m, ctx)
        var year = t.year, month = t.month
        if let y = ctx.option("year") {
            if ctx.option("month") != nil { throw .usage("--year and --month are one or the other") }
            guard y == "this" || (y.utf8.count == 4 && Int(y).map { (2000...2100).contains($0) } == true) else {
                throw .usage("--year must be a year from 2000 to 2100 (or this), not '\(y)'")
            }
            return try yearCalendar(ctx, s, m, h, year: y == "this" ? t.year : Int(y)!, today: t)
        }
        if let mo = ctx.option("month") {
            guard let d = Day.parse(mo + "-01") else { throw .usage("--month must be YYYY-MM, not '\(mo)'") }
            year = d.year
            month = d.month
        }
        let days = s.doneDays(m.user, h.id)
        let p = s.progress(m.user, h, today: t)
        if ctx.out.isJSON {
            for n in 1...Day.daysInMonth(year: year, month: month) {
                let d = Day(year: year, month: month, day: n)
                ctx.out.record(dayRecord(m, h, p, d, done: days.contains(d), today: t))
            }
            return .ok
        }
        let monthName = Day.monthNames[month - 1]
        var out = "\(h.name.terminalSafe) — \(m.name.terminalSafe), \(monthName) \(year)\(h.every.isDaily ? "" : " (\(h.every.described))")\n Mo Tu We Th Fr Sa Su\n"
        for row in monthGrid(year: year, month: month) {
            // Three columns a day under its name: ■ done, · not done, today
            // in brackets, days still to come by their number.
            var line = ""
            for d in row {
                guard let d = d else { line += "   "; continue }
                let g = glyph(p, d), met = g == "■" || g == "□"
                if d == t { line += met ? ctx.out.style("[\(g)]", "1;32") : "[\(g)]" }
                else if d > t { line += d.day < 10 ? "  \(d.day)" : " \(d.day)" }
                else { line += met ? " " + ctx.out.style(g, "32") + " " : " \(g) " }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        let keys = ["■ done"] + (h.every.weekdays == nil && h.every.days > 1 ? ["□ done enough"] : []) + (h.target != nil ? ["◐ part"] : [])
            + (h.every.weekdays != nil ? ["- rest day"] : []) + ["· not done"]
        out += keys.joined(separator: "  ") + "   " + progressText(h, p, today: t) + "\n"
        ctx.out.raw(out)
        return .ok
    }

    /// `calendar --year`: a day record for each day of the year, or on a
    /// terminal the heat map in its width (COLUMNS, else the terminal's, else 80).
    static func yearCalendar(_ ctx: Context, _ s: HabitmatchState, _ m: Member, _ h: Habit, year: Int, today t: Day) throws(ToolError) -> ExitCode {
        let days = s.doneDays(m.user, h.id)
        let p = s.progress(m.user, h, today: t)
        if ctx.out.isJSON {
            var d = Day(year: year, month: 1, day: 1)
            while d.year == year {
                ctx.out.record(dayRecord(m, h, p, d, done: days.contains(d), today: t))
                d = d.adding(days: 1)
            }
            return .ok
        }
        let width = Chart.width(columns: Sys.env("COLUMNS"), terminal: Sys.terminalColumns(1))
        ctx.out.raw(yearMap(title: "\(h.name) — \(m.name)", year: year, done: days, today: t, width: width,
                            unicode: Chart.unicode(env: Sys.env), color: ctx.out.color, progress: p))
        return .ok
    }

    /// A day of a habit as `calendar` prints it in JSON: done (marked), its
    /// mark by the frequency (Loop's values), the strength after it, a
    /// measurable habit's amount.
    static func dayRecord(_ m: Member, _ h: Habit, _ p: Progress, _ d: Day, done: Bool, today t: Day) -> JSONObject {
        var r: JSONObject = ["type": "day", "user": .string(m.user), "habit": .string(h.id), "date": .string(d.description),
                             "done": .bool(done && met(h, p, d)), "future": .bool(d > t)]
        if d <= t && d >= p.first && !p.marks.isEmpty {
            r["mark"] = .int(Int64(p.mark(d).rawValue))
            r["strength"] = .double(rounded(p.strength(d)))
        }
        if h.target != nil && p.amount(d) > 0 { r["amount"] = .double(p.amount(d)) }
        return r
    }
}

