// `catalog` and `habit list|add|rm|remind`: choosing the habits to keep.
// Handlers only: what a habit may be is in Rules/HabitmatchCatalog.
//
// Invariants: at most `maxHabits` habits, no habit twice; a reminder time
// goes to the member's own folder (self), which nobody else reads.

extension Habitmatch {
    static func catalogCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        for c in catalog { ctx.out.emit(["type": "habit", "id": .string(c.id), "name": .string(c.name)], text: "\(c.id)\(String(repeating: " ", count: max(1, 14 - c.id.count)))\(c.name)") }
        if !ctx.out.isJSON { ctx.out.raw("or your own: --habit \"other:Practise drawing\"\n") }
        return .ok
    }

    static func habitList(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try view(ctx)
        let m = try member(s, ctx)
        let t = today(m, ctx)
        for h in m.habits {
            let p = s.progress(m.user, h, today: t)
            var o: JSONObject = ["type": "habit", "id": .string(h.id), "name": .string(h.name), "remind_at": JSON(h.remindAt?.description),
                                 "done_today": .bool(s.doneDays(m.user, h.id).contains(t) && met(h, p, t))]
            for (k, v) in progressFields(h, p, today: t).fields { o[k] = v }
            ctx.out.emit(o, text: "\(h.id.terminalSafe)  \(h.name.terminalSafe)  \(progressText(h, p, today: t))\(h.remindAt.map { "  remind \($0)" } ?? "")")
        }
        return .ok
    }

    static func habitAdd(_ ctx: Context) throws(ToolError) -> ExitCode {
        let named = try habit(ctx.operands[0])
        var h = Habit(id: named.id, name: named.name, remindAt: nil)
        try measure(&h, ctx)
        try write(ctx) { (tx) throws(ToolError) in
            let m = try member(tx.state, ctx)
            if m.habitIDs.contains(h.id) { throw ToolError(.dataError, "you already have '\(h.name)'") }
            if m.habits.count >= maxHabits {
                throw ToolError(.dataError, "at most \(maxHabits) habits at once (you have \(m.habits.map(\.id).joined(separator: ", "))): drop one with 'habitmatch habit rm'")
            }
            var e: JSONObject = ["type": "habit_added", "id": .string(h.id), "name": .string(h.name)]
            for (k, v) in h.measureJSON.fields { e[k] = v }
            tx.record(e)
        }
        ctx.out.emit(["type": "habit", "id": .string(h.id), "name": .string(h.name), "every": .string(h.every.stored), "added": true],
                     text: "Added \(h.name.terminalSafe)\(h.every.isDaily ? "" : ", \(h.every.described)")\(h.target.map { ", \(number($0))\(h.unit.map { " " + $0.terminalSafe } ?? "") a time" } ?? "")")
        return .ok
    }

    /// `habit set HABIT --every F --target N --unit U`: how often, and how much.
    static func habitSet(_ ctx: Context) throws(ToolError) -> ExitCode {
        guard ctx.option("every") != nil || ctx.option("target") != nil || ctx.option("unit") != nil else {
            throw .usage("say what to set: --every (day, 3/week, 2/month, 10d, mon,wed,fri …), --target N (or off) or --unit UNIT")
        }
        let h = try write(ctx) { (tx) throws(ToolError) -> Habit in
            var h = try ownHabit(try member(tx.state, ctx), ctx.operands[0])
            try measure(&h, ctx)
            var e: JSONObject = ["type": "habit_set", "id": .string(h.id), "every": .string(h.every.stored)]
            e["target"] = h.target.map { .double($0) } ?? .null
            e["unit"] = JSON(h.unit)
            tx.record(e)
            return h
        }
        var o: JSONObject = ["type": "habit", "id": .string(h.id), "name": .string(h.name), "every": .string(h.every.stored), "frequency": .string(h.every.described)]
        if let t = h.target { o["target"] = .double(t); o["unit"] = JSON(h.unit) }
        let per = h.every.days == 1 || h.every.weekdays != nil ? "a day" : "in \(h.every.days) days"
        ctx.out.emit(o, text: "\(h.name.terminalSafe): \(h.every.described)\(h.target.map { ", \(number($0))\(h.unit.map { " " + $0.terminalSafe } ?? "") \(per)" } ?? "")")
        return .ok
    }

    /// --every, --target and --unit as given, checked: a measurable habit's
    /// target is per period, so its frequency is once in it.
    static func measure(_ h: inout Habit, _ ctx: Context) throws(ToolError) {
        if let raw = ctx.option("every") {
            guard let f = Frequency.parse(raw) else {
                throw .usage("--every must be day, week, month, fortnightly, N/week, N/month, N/Md (N times in M days, M up to 365), Nd (every N days), weekdays, weekends or days like mon,wed,fri; not '\(raw)'")
            }
            h.every = f
        }
        if let raw = ctx.option("target") {
            if raw == "off" { h.target = nil; h.unit = nil } else {
                guard let x = amount(raw) else { throw .usage("--target must be a number from 0.001 to 1000000 like 20 or 2.5 (or off), not '\(raw)'") }
                h.target = x
            }
        }
        if let raw = ctx.option("unit") {
            guard validUnit(raw) else { throw .usage("--unit must be 1 to 16 characters like pages or km, not '\(raw.terminalSafe)'") }
            guard h.target != nil else { throw .usage("--unit needs a --target: habitmatch habit set \(h.id) --target N --unit \(raw.terminalSafe)") }
            h.unit = raw
        }
        if h.target != nil && !measurable(h.every) {
            throw .usage("a measurable habit's target is per day, per week, per month, per N days or per chosen day (--every day, week, month, Nd or days like mon,wed,fri), not \(h.every.described)")
        }
    }

    static func habitRemove(_ ctx: Context) throws(ToolError) -> ExitCode {
        let h = try write(ctx) { (tx) throws(ToolError) -> Habit in
            let h = try ownHabit(try member(tx.state, ctx), ctx.operands[0])
            tx.record(["type": "habit_removed", "id": .string(h.id)])
            return h
        }
        ctx.out.emit(["type": "habit", "id": .string(h.id), "name": .string(h.name), "removed": true], text: "Dropped \(h.name.terminalSafe)")
        return .ok
    }

    static func habitRemind(_ ctx: Context) throws(ToolError) -> ExitCode {
        let raw = ctx.operands[1]
        let time = raw == "off" ? nil : TimeOfDay.parse(raw)
        if raw != "off" && time == nil { throw .usage("the reminder time must be HH:MM like 20:00, or off") }
        let h = try write(ctx, folder: "self") { (tx) throws(ToolError) -> Habit in
            let h = try ownHabit(try member(tx.state, ctx), ctx.operands[0])
            tx.record(["type": "habit_remind", "id": .string(h.id), "time": JSON(time?.description)])
            return h
        }
        ctx.out.emit(["type": "habit", "id": .string(h.id), "name": .string(h.name), "remind_at": JSON(time?.description)],
                     text: time.map { "\(h.name.terminalSafe): reminder at \($0) on days it is not done" } ?? "\(h.name.terminalSafe): no reminder")
        return .ok
    }
}
