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
            let st = streaks(s.doneDays(m.user, h.id), today: t)
            ctx.out.emit(["type": "habit", "id": .string(h.id), "name": .string(h.name), "remind_at": JSON(h.remindAt?.description),
                          "done_today": .bool(s.doneDays(m.user, h.id).contains(t)), "current_streak": JSON(st.current), "longest_streak": JSON(st.longest)],
                         text: "\(h.id.terminalSafe)  \(h.name.terminalSafe)  streak \(st.current) (best \(st.longest))\(h.remindAt.map { "  remind \($0)" } ?? "")")
        }
        return .ok
    }

    static func habitAdd(_ ctx: Context) throws(ToolError) -> ExitCode {
        let h = try habit(ctx.operands[0])
        try write(ctx) { (tx) throws(ToolError) in
            let m = try member(tx.state, ctx)
            if m.habitIDs.contains(h.id) { throw ToolError(.dataError, "you already have '\(h.name)'") }
            if m.habits.count >= maxHabits {
                throw ToolError(.dataError, "at most \(maxHabits) habits at once (you have \(m.habits.map(\.id).joined(separator: ", "))): drop one with 'habitmatch habit rm'")
            }
            tx.record(["type": "habit_added", "id": .string(h.id), "name": .string(h.name)])
        }
        ctx.out.emit(["type": "habit", "id": .string(h.id), "name": .string(h.name), "added": true], text: "Added \(h.name.terminalSafe)")
        return .ok
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
