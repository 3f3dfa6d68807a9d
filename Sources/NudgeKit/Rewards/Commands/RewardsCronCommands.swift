// rewards' commands for cron: rollover (badges, and each child's streak and
// balance) and notify (one notification per person per run).
//
// Invariants: both are safe to run twice or late: a badge is awarded once,
// and what notify says is recorded ("notified") in the batch that prints it.

extension Rewards {
    static func rollover(_ ctx: Context) throws(ToolError) -> ExitCode {
        let out = try write(ctx) { (tx) throws(ToolError) -> [JSONObject] in
            try requireFamily(tx.state)
            var out: [JSONObject] = []
            for c in tx.state.children.values.sorted(by: { $0.name < $1.name }) {
                out += awardBadges(&tx, c, today: ctx.today, byline: byline(ctx))
                out.append(["type": "day", "child": .string(c.name), "date": .string(ctx.today.description),
                            "streak_days": JSON(streak(tx.state, c.id, today: ctx.today)), "balance": JSON(tx.state.balance[c.id] ?? 0)])
            }
            return out
        }
        for r in out { ctx.out.emit(r, text: r.serialized.terminalSafe) }
        return .ok
    }

    static func notify(_ ctx: Context) throws(ToolError) -> ExitCode {
        let out = try write(ctx) { (tx) throws(ToolError) -> [JSONObject] in
            try requireFamily(tx.state)
            let ns = notifications(tx.state, today: ctx.today, prefix: "rewards", zone: ctx.zone, now: ctx.now) + coParentNotifications(tx.state, today: ctx.today)
            for n in ns { for k in n.keys { tx.record(by(ctx, ["type": "notified", "key": .string(k)])) } }
            return ns.map(\.record)
        }
        for n in out { ctx.out.emit(n, text: "\(n["title"]!.string!.terminalSafe)\n  " + n["body"]!.string!.split(separator: "\n", omittingEmptySubsequences: false).map(\.terminalSafe).joined(separator: "\n  ")) }
        return .ok
    }
}
