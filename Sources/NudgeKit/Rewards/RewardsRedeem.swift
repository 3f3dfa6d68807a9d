// rewards' redeeming commands: redeem, allowance, adjust.

extension Rewards {
    static func redeem(_ ctx: Context) throws(ToolError) -> ExitCode {
        let minutes = try ctx.int(ctx.operands[1], option: "MINUTES", range: 1...1440)
        let config = try Config.load(directory: ctx.configDir, known: ["grant_command"])
        let command = ctx.option("command") ?? config["grant_command"]
        let st = try store(ctx)
        let (g, c) = try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (RewardsState.Grant, RewardsState.Child) in
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
                return (tx.state.grants[id]!, c)
            }
        }
        var rec: JSONObject = ["type": "grant", "id": .string(g.id), "child": .string(c.name), "login": JSON(c.login), "minutes": JSON(g.minutes),
                               "points": JSON(g.points), "app": JSON(g.app), "date": .string(g.day.description), "applied": false]
        var code = ExitCode.ok
        if let cmd = command {
            var input = [UInt8]()
            rec.write(into: &input)
            input.append(0x0A)
            let status = try Subprocess.shell(cmd, stdin: input, env: ["REWARDS_CHILD": c.name, "REWARDS_LOGIN": c.login ?? "",
                                                                       "REWARDS_MINUTES": "\(g.minutes)"], quiet: true)
            if status == 0 {
                try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) in tx.record(by(ctx, ["type": "grant_applied", "id": .string(g.id)])) }
                rec["applied"] = true
            } else {
                ctx.warn("the grant command exited \(status); the grant stands but is not applied")
                code = .tempFail
            }
        }
        ctx.out.emit(rec, text: "\(c.name.terminalSafe): \(g.minutes) reward minutes for \(g.points) points\(rec["applied"] == true ? " (applied)" : "")")
        return code
    }

    static func allowance(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read(full: true)
        let c = try childID(s, ctx.operands[0])
        try requireSelfOrParent(s, ctx, child: c.id)
        let r = allowanceRecord(s, c, today: ctx.today, zone: ctx.zone, now: ctx.now)
        ctx.out.emit(r, text: "\(c.name.terminalSafe) today: \(r["granted_minutes"]!.int!) min granted, \(r["used_minutes"]!.int!) used, \(r["left_minutes"]!.int!) left")
        return .ok
    }

    static func adjust(_ ctx: Context) throws(ToolError) -> ExitCode {
        let raw = ctx.operands[1]
        guard let p = Int(raw), p != 0, raw.hasPrefix("+") || raw.hasPrefix("-"), abs(p) <= 100_000 else {
            throw .usage("the adjustment is +N or -N points, like +50 or -20, not '\(raw)'")
        }
        guard let reason = ctx.option("reason")?.trimmingSpaces, !reason.isEmpty else { throw .usage("adjust needs --reason TEXT") }
        let (c, bal) = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (RewardsState.Child, Int) in
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
