// rewards' redeeming commands: redeem, allowance, adjust.

extension Rewards {
    static func redeem(_ ctx: Context) throws(ToolError) -> ExitCode {
        let minutes = try ctx.int(ctx.operands[1], option: "MINUTES", range: 1...1440)
        if let h = try childSide(ctx) { return try childAsk(ctx, h, kind: "redeem", minutes: minutes) }
        let config = try Config.load(directory: ctx.configDir, known: configKeys)
        let command = ctx.option("command") ?? config["grant_command"]
        let st = try store(ctx)
        let claimID = IDs.make()
        let (g, c) = try write(ctx, st) { (tx) throws(ToolError) -> (RewardsState.Grant, RewardsState.Child) in
            let c = try childID(tx.state, ctx.operands[0])
            try requireSelfOrParent(tx.state, ctx, child: c.id)
            if let a = ctx.option("app"), tx.state.apps[a.lowercased()]?.category != .reward {
                throw ToolError(.dataError, "'\(a)' is not a reward app; 'rewards app list --category reward' shows them")
            }
            let set = tx.state.settings(for: c.id)
            switch RewardsEngine.redeem(minutes: minutes, balance: tx.state.balance[c.id] ?? 0,
                                        grantedToday: tx.state.totals(c.id, ctx.today).grantedMinutes,
                                        grantedThisWeek: tx.state.grantedThisWeek(c.id, ctx.today), settings: set) {
            case .failure(let e): throw e
            case .success(let r):
                let id = IDs.make()
                tx.record(by(ctx, ["type": "grant", "id": .string(id), "child": .string(c.id), "minutes": JSON(r.minutes), "points": JSON(r.points),
                                   "app": JSON(ctx.option("app")), "day": .string(ctx.today.description)]))
                if command != nil {
                    tx.record(by(ctx, ["type": "grant_claimed", "id": .string(id), "claim": .string(claimID), "until": .int(ctx.now.ms + 120_000)]))
                }
                return (tx.state.grants[id]!, c)
            }
        }
        var rec = grantRecord(g, c)
        var code = ExitCode.ok
        if let cmd = command {
            switch try handOver(ctx, st, g, c, command: cmd, claim: claimID) {
            case .applied: rec["applied"] = true
            case .failed(let why):
                ctx.warn("\(why); the grant stands, and 'rewards enforce' tries it again")
                code = .tempFail
            case .held: break
            }
        }
        ctx.out.emit(rec, text: "\(c.name.terminalSafe): \(g.minutes) reward minutes for \(g.points) points\(rec["applied"] == true ? " (applied)" : "")")
        return code
    }

    static func grantRecord(_ g: RewardsState.Grant, _ c: RewardsState.Child) -> JSONObject {
        ["type": "grant", "id": .string(g.id), "child": .string(c.name), "login": JSON(c.login), "minutes": JSON(g.minutes),
         "points": JSON(g.points), "app": JSON(g.app), "date": .string(g.day.description), "applied": .bool(g.applied)]
    }

    enum HandOver { case applied, failed(String), held }

    /// Runs the grant command for a grant this run has claimed (recorded in
    /// its batch), and records how it went. A grant another run holds is
    /// left to it.
    static func handOver(_ ctx: Context, _ st: Store<RewardsState>, _ g: RewardsState.Grant, _ c: RewardsState.Child,
                         command: String, claim: String) throws(ToolError) -> HandOver {
        var input = [UInt8]()
        var rec = grantRecord(g, c)
        rec["applied"] = true
        rec.write(into: &input)
        input.append(0x0A)
        let status = try Subprocess.shell(command, stdin: input, env: ["REWARDS_CHILD": c.name, "REWARDS_LOGIN": c.login ?? "",
                                                                       "REWARDS_MINUTES": "\(g.minutes)"], quiet: true, timeoutMillis: 60_000)
        if status == 0 {
            try write(ctx, st) { (tx) throws(ToolError) in tx.record(by(ctx, ["type": "grant_applied", "id": .string(g.id)])) }
            return .applied
        }
        let why = status == Subprocess.timedOut ? "the grant command ran past 60 s and was ended" : "the grant command exited \(status)"
        try write(ctx, st) { (tx) throws(ToolError) in
            tx.record(by(ctx, ["type": "grant_failed", "id": .string(g.id), "claim": .string(claim), "error": .string(why)]))
        }
        return .failed(why)
    }

    static func allowance(_ ctx: Context) throws(ToolError) -> ExitCode {
        if let h = try childSide(ctx) { return try childAllowance(ctx, h) }
        let s = try readForReward(ctx)
        let c = try ownChild(s, ctx)
        try requireSelfOrParent(s, ctx, child: c.id)
        let r = allowanceRecord(s, c, today: ctx.today, zone: ctx.zone, now: ctx.now)
        ctx.out.emit(r, text: "\(c.name.terminalSafe) today: \(r["granted_minutes"]!.int!) min granted, \(r["used_minutes"]!.int!) used, \(r["left_minutes"]!.int!) left")
        return r["left_minutes"]!.int! > 0 ? .ok : .no
    }

    static func adjust(_ ctx: Context) throws(ToolError) -> ExitCode {
        let raw = ctx.operands[1]
        guard let p = Int(raw), p != 0, raw.hasPrefix("+") || raw.hasPrefix("-"), abs(p) <= 100_000 else {
            throw .usage("the adjustment is +N or -N points, like +50 or -20, not '\(raw)'")
        }
        guard let reason = ctx.option("reason")?.trimmingSpaces, !reason.isEmpty else { throw .usage("adjust needs --reason TEXT") }
        let (c, bal) = try write(ctx) { (tx) throws(ToolError) -> (RewardsState.Child, Int) in
            try requireParent(tx.state, ctx)
            let c = try childID(tx.state, ctx.operands[0])
            let bal = tx.state.balance[c.id] ?? 0
            guard bal + p >= 0 else { throw ToolError(.dataError, "the balance is \(bal); at most -\(bal) can be taken away") }
            tx.record(by(ctx, ["type": "adjust", "child": .string(c.id), "points": JSON(p), "reason": .string(reason), "day": .string(ctx.today.description)]))
            return (c, bal + p)
        }
        ctx.out.emit(["type": "adjust", "child": .string(c.name), "points": JSON(p), "reason": .string(reason), "balance": JSON(bal)],
                     text: "\(c.name.terminalSafe): \(p > 0 ? "+" : "")\(p) (\(reason.terminalSafe)); balance \(bal)")
        return .ok
    }
}
