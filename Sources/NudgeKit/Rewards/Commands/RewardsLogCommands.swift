// rewards log: every change with who, when, before and after, newest first,
// filtered by author, kind, child or text. The entries come from folding the
// journals again with the log model (Model/RewardsLog.swift).
//
// Invariants: only a parent reads the log; it changes nothing.

extension Rewards {
    static func log(_ ctx: Context) throws(ToolError) -> ExitCode {
        let st = try store(ctx)
        let s = try st.read()
        try requireParent(s, ctx)
        let n = try ctx.option("limit").map { (x) throws(ToolError) in try ctx.int(x, option: "--limit", range: 1...100_000) } ?? 50
        let logStore = Store<RewardsLogModel>(dir: st.dir, options: st.options)
        let folded = try logStore.load(full: true, forceRebuild: true).state
        var entries = folded.entries.filter { $0.ref.map { !folded.state.superseded.contains($0) } ?? true }
        if let by = ctx.option("by") { entries = entries.filter { $0.by.lowercased() == by.lowercased() } }
        if let t = ctx.option("type") { entries = entries.filter { $0.action == t } }
        if let c = ctx.option("child") {
            let child = try childID(s, c)
            entries = entries.filter { $0.child == child.name }
        }
        if let g = ctx.option("grep")?.lowercased() {
            entries = entries.filter { $0.text.lowercased().contains(g) || ($0.note?.lowercased().contains(g) ?? false) }
        }
        for x in entries.reversed().prefix(n) {
            var rec: JSONObject = ["type": "log", "at": .string(ctx.zone.format(Instant(ms: x.ms))), "by": .string(x.by), "action": .string(x.action),
                                   "child": JSON(x.child), "text": .string(x.text), "before": x.before, "after": x.after, "note": JSON(x.note)]
            // Written in a sync folder by a login that named someone else: nothing proves it.
            // In a signed folder, their SSH key proves it.
            if let l = x.login { rec["login"] = .string(l); rec["verified"] = false }
            if let sg = x.signer, sg == x.by { rec["verified"] = true; rec["signer"] = .string(sg) }
            let unverified = x.signer != nil ? "" : x.login.map { "  [unverified: written by login \(Text.terminalSafe($0)) as \(Text.terminalSafe(x.by))]" } ?? ""
            ctx.out.emit(rec, text: "\(ctx.zone.format(Instant(ms: x.ms)))  \(Text.terminalSafe(x.text))\(x.note.map { "  — “" + Text.terminalSafe($0) + "”" } ?? "")\(unverified)")
        }
        return .ok
    }
}
