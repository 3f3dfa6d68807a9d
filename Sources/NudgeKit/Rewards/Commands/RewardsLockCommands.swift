// A parent's hand on today: lock (reward time ends at once, until a time or
// until lifted), unlock, and a bonus (more minutes today, with a reason),
// each in the activity log; and the widget a child's status bar shows.
//
// Invariants: a lock is a setting of the child's (`locked_until`), so it
// merges, logs and erases as settings do; a bonus is a grant that costs no
// points, handed over as every grant is; the widget only reads.

extension Rewards {
    static func lock(_ ctx: Context) throws(ToolError) -> ExitCode {
        try setLock(ctx, until: RewardsEngine.lockEnd(for: ctx.option("for"), until: ctx.option("until"), now: ctx.now, zone: ctx.zone))
    }

    static func unlock(_ ctx: Context) throws(ToolError) -> ExitCode { try setLock(ctx, until: 0) }

    static func setLock(_ ctx: Context, until: Int) throws(ToolError) -> ExitCode {
        let (c, before) = try write(ctx) { (tx) throws(ToolError) -> (RewardsState.Child, Int) in
            try requireParent(tx.state, ctx)
            let c = try childID(tx.state, ctx.operands[0])
            let before = tx.state.settings(for: c.id).lockedUntil
            if until == 0 && before <= Int(ctx.now.seconds) {
                throw ToolError(.dataError, "\(c.name.terminalSafe)'s reward time is not locked")
            }
            var e: JSONObject = ["type": "setting_set", "key": "locked_until", "value": JSON(until), "child": .string(c.id)]
            if until > 0 && until < RewardsEngine.lockedForever { e["until"] = .string(ctx.zone.format(Instant(seconds: Int64(until)))) }
            tx.record(by(ctx, e))
            return (c, before)
        }
        let when = until >= RewardsEngine.lockedForever ? "until a parent unlocks it" : "until \(ctx.zone.format(Instant(seconds: Int64(until))))"
        ctx.out.emit(["type": "lock", "child": .string(c.name), "locked": .bool(until != 0),
                      "until": until == 0 || until >= RewardsEngine.lockedForever ? .null : .string(ctx.zone.format(Instant(seconds: Int64(until)))),
                      "was_locked": .bool(before > Int(ctx.now.seconds))],
                     text: until == 0 ? "\(c.name.terminalSafe): unlocked" : "\(c.name.terminalSafe): reward time locked \(when); 'rewards enforce' ends reward apps on its next run")
        return .ok
    }

    /// `rewards bonus CHILD MINUTES --reason TEXT`: more minutes today, as a
    /// grant that costs no points (the daily limits are the parents' to pass).
    static func bonus(_ ctx: Context) throws(ToolError) -> ExitCode {
        let minutes = try ctx.int(ctx.operands[1], option: "MINUTES", range: 1...1440)
        guard let reason = ctx.option("reason")?.trimmingSpaces, !reason.isEmpty else { throw .usage("bonus needs --reason TEXT") }
        var state = RewardsState(full: false)
        let (g, c) = try write(ctx) { (tx) throws(ToolError) -> (RewardsState.Grant, RewardsState.Child) in
            try requireParent(tx.state, ctx)
            let c = try childID(tx.state, ctx.operands[0])
            let id = IDs.make()
            tx.record(by(ctx, ["type": "grant", "id": .string(id), "child": .string(c.id), "minutes": JSON(minutes), "points": 0,
                               "reason": .string(reason), "day": .string(ctx.today.description)]))
            guard let g = tx.state.grants[id], g.void == nil else {
                throw ToolError(.dataError, "the bonus did not count: \(tx.state.grants[id]?.void ?? "not a grant")")
            }
            state = tx.state
            return (g, c)
        }
        var rec = grantRecord(g, c)
        rec["reason"] = .string(reason)
        warnIfBlocked(ctx, s: state, c)
        ctx.out.emit(rec, text: "\(c.name.terminalSafe): \(minutes) bonus reward minute\(minutes == 1 ? "" : "s") today (\(reason.terminalSafe)); 'rewards enforce' hands them to the grant command")
        return .ok
    }

    /// Minutes given while the child may not use them: said, since the day's
    /// minutes end at midnight.
    static func warnIfBlocked(_ ctx: Context, s: RewardsState, _ c: RewardsState.Child) {
        guard let b = s.settings(for: c.id).blocked(at: ctx.now, zone: ctx.zone) else { return }
        let until = b.until.seconds >= Int64(RewardsEngine.lockedForever) ? "until a parent unlocks it" : "until \(ctx.zone.format(b.until))"
        ctx.warn("\(c.name.terminalSafe) is \(b.why == "locked" ? "locked" : "in downtime") \(until): today's reward minutes can be used only outside it, and end at midnight")
    }

    static func widgetCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let style = ctx.option("style") ?? "plain"
        let rec: JSONObject
        if let h = try childSide(ctx) {
            let st = try readStatus(h)
            guard let a = st["allowance"]?.object else { throw ToolError(.noPermission, "\(Sys.loginName()) is not a child of the family in \(h.path)") }
            rec = a
        } else {
            let s = try readForReward(ctx)
            let c = try ownChild(s, ctx)
            try requireSelfOrParent(s, ctx, child: c.id)
            rec = allowanceRecord(s, c, today: ctx.today, zone: ctx.zone, now: ctx.now)
        }
        ctx.out.raw(widget(Widget(rec, now: ctx.now, zone: ctx.zone), style: style, zone: ctx.zone, now: ctx.now))
        return .ok
    }
}
