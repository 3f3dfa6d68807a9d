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
        var elsewhere: String? = nil
        var after = RewardsState(full: false)
        // The grant, and this run's claim on it when it hands it over.
        func make(claim: (id: String, at: Instant)?) throws(ToolError) -> (RewardsState.Grant, RewardsState.Child) {
            try write(ctx, st) { (tx) throws(ToolError) -> (RewardsState.Grant, RewardsState.Child) in
                let c = try childID(tx.state, ctx.operands[0])
                try requireSelfOrParent(tx.state, ctx, child: c.id)
                if let a = ctx.option("app"), tx.state.apps[a.lowercased()]?.category != .reward {
                    throw ToolError(.dataError, "'\(a)' is not a reward app; 'rewards app list --category reward' shows them")
                }
                let set = tx.state.settings(for: c.id).on(ctx.today)
                switch RewardsEngine.redeem(minutes: minutes, balance: tx.state.balance[c.id] ?? 0,
                                            grantedToday: tx.state.totals(c.id, ctx.today).grantedMinutes,
                                            grantedThisWeek: tx.state.grantedThisWeek(c.id, ctx.today), settings: set) {
                case .failure(let e): throw e
                case .success(let r):
                    let id = IDs.make()
                    tx.record(by(ctx, ["type": "grant", "id": .string(id), "child": .string(c.id), "minutes": JSON(r.minutes), "points": JSON(r.points),
                                       "app": JSON(ctx.option("app")), "day": .string(ctx.today.description)]))
                    if let cl = claim {
                        if try handsOverHere(ctx, st, tx.state) {
                            tx.record(by(ctx, claimEvent(id, claim: cl.id, at: cl.at, timeout: timeout)))
                            // Handed over only when the fold counts the claim (it is the granting device's).
                            if tx.state.grants[id]?.handover.claim != cl.id { elsewhere = tx.state.granter ?? "another device" }
                        } else {
                            elsewhere = tx.state.granter
                        }
                    }
                    after = tx.state
                    return (tx.state.grants[id]!, c)
                }
            }
        }
        var made: (RewardsState.Grant, RewardsState.Child)? = nil
        var code = ExitCode.ok
        var applied = false
        if let cmd = command {
            var run = grantRun(cmd, timeout: timeout)
            let handed = try run.handOver(clock: { ctx.current }, claim: { (claim, t, _) throws(ToolError) -> HandoverRun.Claimed<RewardsState.Grant>? in
                let (g, c) = try make(claim: (claim, t))
                made = (g, c)
                guard elsewhere == nil else { return nil }
                return grantClaimed(g, c)
            }, finish: { (g, claim, ended) throws(ToolError) -> Instant? in try finishGrant(ctx, st, g, claim: claim, ended) })
            if let (_, ended) = handed {
                if let why = ended.why {
                    ctx.warn("\(why); the grant stands, and 'rewards enforce' tries it again")
                    code = .tempFail
                } else {
                    applied = true
                }
            }
        } else {
            made = try make(claim: nil)
        }
        guard let (g, c) = made else { return code }
        warnIfBlocked(ctx, s: after, c)
        var rec = grantRecord(g, c)
        if applied { rec["applied"] = true }
        if let device = elsewhere {
            rec["granted_by"] = .string(device)
            ctx.warn("grants are handed to the grant command on \(device.terminalSafe), the family's granting device: its next 'rewards redeem' or 'rewards enforce' hands this one over ('rewards settings set grant_device NAME' names another)")
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
        ctx.out.emit(r, text: allowanceText(r))
        return r["left_minutes"]!.int! > 0 && r["blocked"] == nil ? .ok : .no
    }

    /// The allowance line: minutes granted, used and left, and what stops reward time.
    static func allowanceText(_ a: JSONObject) -> String {
        var t = "\(Text.terminalSafe(a["child"]?.string ?? "")) today: \(a["granted_minutes"]?.int ?? 0) min granted, \(a["used_minutes"]?.int ?? 0) used, \(a["left_minutes"]?.int ?? 0) left"
        let state = a["blocked"]?.string
        // Times from a file another run wrote: escaped as any text from a file.
        let time = { (k: String) in a[k]?.string.map(Text.terminalSafe) }
        if state == "locked" { t += "; locked" + (time("locked_until").map { " until \($0)" } ?? " until a parent unlocks it") }
        else if state == "downtime" { t += "; downtime until \(time("downtime_end") ?? "?")" }
        else if let s = time("downtime_start") { t += "; downtime from \(s)" }
        return t
    }

    /// `allowance` for a child in a family folder: from their status file.
    static func childAllowance(_ ctx: Context, _ h: FamilyFolder) throws(ToolError) -> ExitCode {
        let st = try readStatus(h)
        guard let written = st["allowance"]?.object else { throw ToolError(.noPermission, "\(Sys.loginName()) is not a child of the family in \(h.path)") }
        if let n = ctx.operands.first, n.lowercased() != written["child"]?.string?.lowercased() {
            throw ToolError(.noPermission, "only a parent or the child may see that (you are \(Sys.loginName()))")
        }
        // As it stands now: the file may be from the last run, hours or days ago.
        let a = allowance(written, at: ctx.now, zone: ctx.zone)
        ctx.out.emit(a, text: allowanceText(a))
        return (a["left_minutes"]?.int ?? 0) > 0 && a["blocked"] == nil ? .ok : .no
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

    /// A run's hand-overs to the grant command: a grant the command failed
    /// `grantTries` times is given up, and that failure is news.
    static func grantRun(_ command: String, timeout: Int) -> HandoverRun {
        HandoverRun(command: command, what: "the grant command", timeoutSeconds: timeout, isNews: { $0 >= grantTries })
    }

    /// What the grant command gets for a grant this run has claimed.
    static func grantClaimed(_ g: RewardsState.Grant, _ c: RewardsState.Child) -> HandoverRun.Claimed<RewardsState.Grant> {
        var rec = grantRecord(g, c)
        rec["applied"] = true
        return HandoverRun.Claimed(g, record: rec, env: ["REWARDS_CHILD": c.name, "REWARDS_LOGIN": c.login ?? "", "REWARDS_MINUTES": "\(g.minutes)"],
                                   failuresBefore: g.failures)
    }

    /// Records how the grant command ended for a grant this run held
    /// (applied, or failed or unknown: tried again by the next run, up to
    /// `grantTries` times). A failed grant is tried again at the next run.
    static func finishGrant(_ ctx: Context, _ st: Store<RewardsState>, _ g: RewardsState.Grant, claim: String,
                            _ ended: HandoverRun.Ended) throws(ToolError) -> Instant? {
        var e: JSONObject = ["type": "grant_applied", "id": .string(g.id)]
        if let why = ended.why {
            e = ["type": "grant_failed", "id": .string(g.id), "claim": .string(claim), "error": .string(why)]
            if ended.outcome == .unknown { e["outcome"] = "unknown" }
        }
        try write(ctx, st) { (tx) throws(ToolError) in tx.record(by(ctx, e)) }
        return nil
    }
}
