// rewards' redeeming commands: redeem, allowance, adjust; and handing a
// grant to the grant command (`handOver`, for redeem and enforce). In a
// family folder a child's redeem is a request (`childAsk`) and their
// allowance comes from their status file.
//
// Invariants: a grant is claimed on disk before its command runs (only by
// the granting device where devices share a sync folder), and
// stands whatever the command does (a failure or a timeout is recorded and
// `enforce` tries the grant again); an adjustment never takes a balance
// below zero.

extension Rewards {
    static func redeem(_ ctx: Context) throws(ToolError) -> ExitCode {
        let minutes = try ctx.int(ctx.operands[1], option: "MINUTES", range: 1...1440)
        if let h = try childSide(ctx) { return try childAsk(ctx, h, kind: "redeem", minutes: minutes) }
        let (command, timeout) = try grantCommand(ctx, Config.load(directory: ctx.configDir, known: configKeys))
        let st = try store(ctx)
        let claimID = IDs.make()
        let t = ctx.current
        var elsewhere: String? = nil
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
                    if try handsOverHere(ctx, st, tx.state) {
                        tx.record(by(ctx, claimEvent(id, claim: claimID, at: t, timeout: timeout)))
                        // Handed over only when the fold counts the claim (it is the granting device's).
                        if tx.state.grants[id]?.handover.claim != claimID { elsewhere = tx.state.granter ?? "another device" }
                    } else {
                        elsewhere = tx.state.granter
                    }
                }
                return (tx.state.grants[id]!, c)
            }
        }
        var rec = grantRecord(g, c)
        var code = ExitCode.ok
        if let device = elsewhere {
            rec["granted_by"] = .string(device)
            ctx.warn("grants are handed to the grant command on \(device.terminalSafe), the family's granting device: its next 'rewards redeem' or 'rewards enforce' hands this one over ('rewards settings set grant_device NAME' names another)")
        } else if let cmd = command {
            if let why = try handOver(ctx, st, g, c, command: cmd, claim: claimID, timeout: timeout) {
                ctx.warn("\(why); the grant stands, and 'rewards enforce' tries it again")
                code = .tempFail
            } else {
                rec["applied"] = true
            }
        }
        ctx.out.emit(rec, text: "\(c.name.terminalSafe): \(g.minutes) reward minutes for \(g.points) points\(rec["applied"] == true ? " (applied)" : "")")
        return code
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

    /// `allowance` for a child in a family folder: from their status file.
    static func childAllowance(_ ctx: Context, _ h: FamilyFolder) throws(ToolError) -> ExitCode {
        let st = try readStatus(h)
        guard let a = st["allowance"]?.object else { throw ToolError(.noPermission, "\(Sys.loginName()) is not a child of the family in \(h.path)") }
        if let n = ctx.operands.first, n.lowercased() != a["child"]?.string?.lowercased() {
            throw ToolError(.noPermission, "only a parent or the child may see that (you are \(Sys.loginName()))")
        }
        ctx.out.emit(a, text: "\(Text.terminalSafe(a["child"]?.string ?? "")) today: \(a["granted_minutes"]?.int ?? 0) min granted, \(a["used_minutes"]?.int ?? 0) used, \(a["left_minutes"]?.int ?? 0) left")
        return (a["left_minutes"]?.int ?? 0) > 0 ? .ok : .no
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

    // MARK: The grant command

    /// The grant command and its timeout: --command or grant_command (nil:
    /// none), --timeout or grant_timeout.
    static func grantCommand(_ ctx: Context, _ config: Config) throws(ToolError) -> (command: String?, timeout: Int) {
        let timeout = try Handover.timeout(option: ctx.option("timeout"), config: config, key: "grant_timeout", default: defaultGrantTimeoutSeconds)
        return (ctx.option("command") ?? config["grant_command"], timeout)
    }

    /// Whether this run hands grants over (`handsOver`): the store is
    /// shared when its journals are in a sync folder.
    static func handsOverHere(_ ctx: Context, _ st: Store<RewardsState>, _ s: RewardsState) throws(ToolError) -> Bool {
        let shared = try familyFolder(ctx) == nil && st.options.journalFolder != nil
        return handsOver(s, device: st.options.actor, shared: shared)
    }

    /// Runs the grant command for a grant this run holds the claim on, and
    /// records how it went: nil when applied, else why not (failed, or ended
    /// at its timeout: tried again by the next run either way).
    static func handOver(_ ctx: Context, _ st: Store<RewardsState>, _ g: RewardsState.Grant, _ c: RewardsState.Child,
                         command: String, claim: String, timeout: Int) throws(ToolError) -> String? {
        var rec = grantRecord(g, c)
        rec["applied"] = true
        let end = try Handover.run(command, record: rec, env: ["REWARDS_CHILD": c.name, "REWARDS_LOGIN": c.login ?? "",
                                                              "REWARDS_MINUTES": "\(g.minutes)"], timeoutSeconds: timeout)
        let outcome = Handover.outcome(of: end)
        if outcome == .delivered {
            try write(ctx, st) { (tx) throws(ToolError) in tx.record(by(ctx, ["type": "grant_applied", "id": .string(g.id)])) }
            return nil
        }
        let why = end == .timedOut ? "the grant command ran past \(timeout) s and was ended" : "the grant command exited \(end.status)"
        var e: JSONObject = ["type": "grant_failed", "id": .string(g.id), "claim": .string(claim), "error": .string(why)]
        if outcome == .unknown { e["outcome"] = "unknown" }
        try write(ctx, st) { (tx) throws(ToolError) in tx.record(by(ctx, e)) }
        return why
    }
}
