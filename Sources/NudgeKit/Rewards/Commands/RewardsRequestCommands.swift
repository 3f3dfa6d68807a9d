// rewards' request commands: ask (a child asks for more time), requests
// (what waits for a parent) and request approve|deny. In a family folder a
// child's ask and redeem are files dropped in the spool (`childAsk`),
// recorded by the parents' next run: the fold grants a redemption if the
// balance allows at that point in stamp order, and leaves more time to a
// parent.
//
// Invariants: only a pending request for more time is approved or denied;
// each handler prints only after its change is written.

extension Rewards {
    static func ask(_ ctx: Context) throws(ToolError) -> ExitCode {
        let minutes = try ctx.int(ctx.operands[0], option: "MINUTES", range: 1...1440)
        if let h = try childSide(ctx) { return try childAsk(ctx, h, kind: "more_time", minutes: minutes) }
        throw ToolError(.usage, "'ask' is how a child asks the parents for more time in a family folder; a parent gives time with 'rewards adjust' or 'rewards request approve'")
    }

    static func requestsList(_ ctx: Context) throws(ToolError) -> ExitCode {
        // A parent's run records what waits in the spool first.
        let s = try write(ctx) { (tx) throws(ToolError) -> RewardsState in
            try requireParent(tx.state, ctx)
            return tx.state
        }
        let all = ctx.flag("all")
        for r in s.requests.values.sorted(by: { ($0.at, $0.seq, $0.id) < ($1.at, $1.seq, $1.id) }) where all || r.status == "pending" {
            ctx.out.emit(["type": "request", "id": .string(r.id), "from": .string(r.from), "kind": .string(r.kind), "minutes": JSON(r.minutes),
                          "app": JSON(r.app), "note": JSON(r.note), "at": .string(ctx.zone.format(Instant(ms: r.at))), "status": .string(r.status),
                          "reason": JSON(r.reason)],
                         text: "\(r.id)  \(Text.terminalSafe(r.from))  \(r.kind) \(r.minutes.map { "\($0) min" } ?? "")  \(r.status)\(r.note.map { "  “" + Text.terminalSafe($0) + "”" } ?? "")\(r.reason.map { "  (" + Text.terminalSafe($0) + ")" } ?? "")")
        }
        return .ok
    }

    static func decideRequest(_ ctx: Context, approve: Bool) throws(ToolError) -> ExitCode {
        let minutes = try ctx.option("minutes").map { (m) throws(ToolError) in try ctx.int(m, option: "--minutes", range: 1...1440) }
        let r = try write(ctx) { (tx) throws(ToolError) -> RewardsState.Request in
            try requireParent(tx.state, ctx)
            let key = ctx.operands[0]
            let m = tx.state.requests.keys.filter { $0.hasPrefix(key) }
            guard !key.isEmpty, m.count == 1, let r = tx.state.requests[m[0]] else {
                throw ToolError(.dataError, m.count > 1 ? "id '\(key)' matches \(m.count) requests; give more of it" : "no request with id '\(key)'; 'rewards requests' shows them")
            }
            guard r.kind == "more_time", r.status == "pending" else {
                throw ToolError(.dataError, "request \(r.id) is \(r.status == "pending" ? "decided when it arrives (a \(r.kind))" : r.status); only pending requests for more time are approved or denied")
            }
            var e: JSONObject = ["type": "request_decided", "id": .string(r.id), "decision": .string(approve ? "approved" : "denied"),
                                 "day": .string(ctx.today.description)]
            if let m = minutes { e["minutes"] = .int(Int64(m)) }
            tx.record(by(ctx, e))
            return tx.state.requests[r.id]!
        }
        ctx.out.emit(["type": "request", "id": .string(r.id), "from": .string(r.from), "status": .string(r.status), "minutes": JSON(r.minutes)],
                     text: approve ? "Gave \(Text.terminalSafe(r.from)) \(r.minutes ?? 0) more reward minutes" : "Said no to \(Text.terminalSafe(r.from))")
        return .ok
    }

    /// A child's redeem or ask: a request in the spool, granted (or not) by
    /// the parents' next run.
    static func childAsk(_ ctx: Context, _ h: FamilyFolder, kind: String, minutes: Int) throws(ToolError) -> ExitCode {
        if kind == "redeem", let n = ctx.operands.first, let st = try? readStatus(h), let mine = st["child"]?.string, n.lowercased() != mine.lowercased() {
            throw ToolError(.noPermission, "you may redeem only your own points (you are \(Sys.loginName()), \(mine))")
        }
        var o: JSONObject = ["kind": .string(kind), "minutes": JSON(minutes)]
        if let a = ctx.option("app") { o["app"] = .string(a) }
        if let n = ctx.option("note") {
            guard Text.isPlainName(n, max: 200) else { throw .usage("--note is 1 to 200 characters without control characters") }
            o["note"] = .string(n)
        }
        let id = try dropRequest(ctx, h, o)
        ctx.out.emit(["type": "request", "id": .string(id), "kind": .string(kind), "minutes": JSON(minutes), "status": "pending"],
                     text: "Asked for \(minutes) \(kind == "redeem" ? "reward minutes" : "more minutes"); a parent's run \(kind == "redeem" ? "grants it if your points allow" : "decides") (see 'rewards dashboard')")
        return .ok
    }
}
