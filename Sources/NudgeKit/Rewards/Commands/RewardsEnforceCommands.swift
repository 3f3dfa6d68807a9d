// rewards enforce: reward time that really ends. For root's cron, every
// minute: the reward apps each child is running now (their processes, by
// uid and name) are charged as usage, a child is warned at five minutes
// left, and when the day's granted time is spent the apps are ended
// (SIGTERM, then SIGKILL after a grace period) or handed to the configured
// `enforce_command`. Reward apps used with no time granted at all are
// reported to the parents. The same run takes the children's requests and
// hands grants to the grant command. What is decided is
// Rules/RewardsEnforce.swift; here it is read, recorded and done.
//
// Invariants: what a run does is recorded before it is done (the
// "enforced" events, the "notified" keys), and each grant is claimed just
// before its command runs, so a claim lives from its own time.

extension Rewards {
    /// What a run recorded, and is to do: the state after it, the actions,
    /// the notifications.
    struct EnforcePlan { var state: RewardsState; var procs: [RunningProcess]; var actions: [EnforceAction]; var notes: [JSONObject] }

    static func enforce(_ ctx: Context) throws(ToolError) -> ExitCode {
        let config = try Config.load(directory: ctx.configDir, known: configKeys)
        let (command, timeout) = try grantCommand(ctx, config)
        let interval = try ctx.option("interval").map { (x) throws(ToolError) in try ctx.int(x, option: "--interval", range: 10...3600) } ?? 60
        let grace = try ctx.option("grace").map { (x) throws(ToolError) in try ctx.int(x, option: "--grace", range: 0...300) } ?? 10
        let dry = ctx.flag("dry-run")
        let procRoot = Sys.env("REWARDS_PROC").flatMap { $0.isEmpty ? nil : $0 } ?? "/proc"
        let st = try store(ctx)
        let plan = try enforcePlan(ctx, st, procRoot: procRoot, interval: interval, dryRun: dry)
        // Recorded; now acted on.
        var code = try endApps(ctx, plan, procs: plan.procs, command: config["enforce_command"], dryRun: dry, grace: grace, procRoot: procRoot)
        for n in plan.notes { ctx.out.emit(n, text: "\(n["title"]?.string?.terminalSafe ?? "")") }
        // A dry run records nothing and hands nothing over.
        if dry { return code }
        // Where devices share a sync folder, only the granting device hands over.
        guard let cmd = command, try handsOverHere(ctx, st, plan.state) else { return code }
        if try handOverGrants(ctx, st, plan.state, command: cmd, timeout: timeout) != .ok { code = .tempFail }
        // A grant the command failed too often is not tried again, never
        // dropped silently: said by the run that gives up (even from cron,
        // -q), and on every run of its day that is not quiet; the log keeps it.
        for g in grantsGivenUp(plan.state, today: ctx.today) {
            if !ctx.out.quiet { ctx.warn(givenUpMessage(plan.state, g)) }
            code = .tempFail
        }
        return code
    }

    /// Records what runs now, charged for the last `interval` seconds as
    /// usage (overlaps count once), and what is decided about it. The state
    /// is the hot part and the days the usage touches (read by the
    /// snapshot's index; in full when they cannot be): a run every minute
    /// reads what changed, not the history, and reads it once: the
    /// children's processes are listed (under `procRoot`) from the state
    /// the change is decided on.
    static func enforcePlan(_ ctx: Context, _ st: Store<RewardsState>, procRoot: String, interval: Int,
                            dryRun dry: Bool) throws(ToolError) -> EnforcePlan {
        let now = ctx.now
        return try write(ctx, st, dryRun: dry) { (tx) throws(ToolError) -> EnforcePlan in
            try requireParent(tx.state, ctx)
            let uids = Set(tx.state.children.values.compactMap { $0.login.flatMap(Users.uid(of:)) })
            let procs = uids.isEmpty ? [] : Processes.list(root: procRoot, uids: uids)
            let running = runningRewardApps(tx.state, procs)
            var intake = Intake()
            for (cid, apps) in running {
                guard let c = tx.state.children[cid], let ci = intake.child(c.name, in: tx.state) else { continue }
                for app in apps.keys { intake.raws.append(Raw(child: ci, app: intake.app(app), start: now.seconds - Int64(interval), end: now.seconds)) }
            }
            if !intake.raws.isEmpty { _ = evaluate(intake, tx: &tx, zone: ctx.zone, source: "enforce", byline: byline(ctx), each: false) }
            let actions = enforceActions(tx.state, running: running, today: ctx.today, now: now, zone: ctx.zone)
            let records = enforceRecords(tx.state, actions, today: ctx.today, dryRun: dry)
            for e in records.events { tx.record(by(ctx, e)) }
            return EnforcePlan(state: tx.state, procs: procs, actions: actions, notes: records.notifications)
        }
    }

    /// How long `enforce_command` may run before it is ended.
    static let enforceTimeoutSeconds = 60

    /// Ends the apps whose time is up (or hands each to `enforce_command`),
    /// printing a record for each: temporary failure if the command failed.
    static func endApps(_ ctx: Context, _ plan: EnforcePlan, procs: [RunningProcess], command endCommand: String?, dryRun dry: Bool,
                        grace: Int, procRoot: String) throws(ToolError) -> ExitCode {
        var code = ExitCode.ok
        var lineage: [RunningProcess]? = nil
        for a in plan.actions {
            guard case .end(let cid, let app, let pids, let why, _) = a, let c = plan.state.children[cid] else { continue }
            // The matched processes and what they started (their tree).
            if lineage == nil && !dry && endCommand == nil { lineage = Processes.withLineage(procs, root: procRoot) }
            let all = lineage ?? procs
            let ps = Processes.tree(all.filter { pids.contains($0.pid) }, in: all)
            var rec: JSONObject = ["type": "enforced", "child": .string(c.name), "login": JSON(c.login), "app": .string(app),
                                   "pids": .array(pids.map { JSON.int(Int64($0)) }), "action": .string(dry ? "would_end" : endCommand == nil ? "ended" : "handed_over"),
                                   "reason": .string(why.rawValue)]
            if !dry {
                if let cmd = endCommand {
                    // Run as every hand-over command is (Handover.run): its
                    // timeout ends it with what it started, a kill is not an
                    // exit status.
                    let end = try Handover.run(cmd, record: rec, env: ["REWARDS_CHILD": c.name, "REWARDS_LOGIN": c.login ?? "", "REWARDS_APP": app, "REWARDS_REASON": why.rawValue,
                                                                      "REWARDS_PIDS": pids.map(String.init).joined(separator: " ")],
                                               timeoutSeconds: enforceTimeoutSeconds)
                    if let why = Handover.why(end, command: "the enforce command", timeoutSeconds: enforceTimeoutSeconds) {
                        rec["error"] = .string(why)
                        ctx.warn("\(c.name.terminalSafe)'s \(app.terminalSafe): \(why)")
                        code = .tempFail
                    }
                } else {
                    Processes.end(ps, graceMillis: grace * 1000, root: procRoot)
                }
            }
            let because = why == .time ? "reward time is up" : why == .downtime ? "it is downtime" : "a parent paused reward time"
            ctx.out.emit(rec, text: "\(c.name.terminalSafe): \(app.terminalSafe) \(dry ? "would be ended" : "ended"): \(because)")
        }
        return code
    }

    /// What is said of a grant no run tries again.
    static func givenUpMessage(_ s: RewardsState, _ g: RewardsState.Grant) -> String {
        let who = s.children[g.child]?.name ?? g.child
        return "\(who.terminalSafe)'s \(g.minutes) reward minutes: the grant command failed \(g.failures) times and no run tries again; give the time by hand, or give the points back with 'rewards adjust \(who.terminalSafe) +\(g.points)'"
    }

    /// Today's grants not yet applied, each claimed by this run just before
    /// its command runs (a claim lives from its own time, however long the
    /// grants before it took) and handed over: temporary failure if one was
    /// not applied.
    static func handOverGrants(_ ctx: Context, _ st: Store<RewardsState>, _ s: RewardsState, command cmd: String,
                               timeout: Int) throws(ToolError) -> ExitCode {
        var run = grantRun(cmd, timeout: timeout)
        for candidate in grantsToHandOver(s, today: ctx.today, at: ctx.current) {
            let handed = try run.handOver(clock: { ctx.current }, claim: { (claim, t, _) throws(ToolError) -> HandoverRun.Claimed<RewardsState.Grant>? in
                let held = try write(ctx, st) { (tx) throws(ToolError) -> (RewardsState.Grant, RewardsState.Child)? in
                    guard let g = tx.state.grants[candidate.id], g.day == ctx.today, g.mayHandOver(at: t),
                          let c = tx.state.children[g.child] else { return nil }
                    tx.record(by(ctx, claimEvent(g.id, claim: claim, at: t, timeout: timeout)))
                    guard let mine = tx.state.grants[g.id], mine.handover.claim == claim, mine.handover.state == .sending else { return nil }
                    return (mine, c)
                }
                return held.map { grantClaimed($0.0, $0.1) }
            }, finish: { (g, claim, ended) throws(ToolError) -> Instant? in try finishGrant(ctx, st, g, claim: claim, ended) })
            guard let (g, ended) = handed, let c = s.children[g.child] else { continue }
            var rec = grantRecord(g, c)
            if let why = ended.why {
                rec["error"] = .string(why)
                // A retry that is scheduled is not news under -q (cron mails
                // what is said); the failure after which no run tries is.
                if g.failures + 1 >= grantTries {
                    var last = g
                    last.failures += 1
                    ctx.warn(givenUpMessage(s, last))
                } else if !ctx.out.quiet {
                    ctx.warn("\(c.name.terminalSafe)'s \(g.minutes) minutes: \(why); tried again next run")
                }
            } else {
                rec["applied"] = true
            }
            ctx.out.emit(rec, text: "\(c.name.terminalSafe): \(g.minutes) reward minutes \(rec["applied"] == true ? "applied" : "not applied")")
        }
        return run.tally.exitCode
    }
}
