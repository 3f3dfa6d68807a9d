// rewards' settings commands: settings (the family's rules, or one child's
// with --child) and settings set; and grant_device, the device that hands
// grants over where devices share a sync folder (a name, not a number). The keys, their ranges and defaults are
// `RewardsEngine.Settings` (Rules/RewardsSettings.swift).
//
// Invariants: a value is checked before anything is written; a child's
// setting overrides the family's for that child only.

extension Rewards {
    static func settingsShow(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try current(store(ctx), today: ctx.today)
        try requireFamily(s)
        let cid = try ctx.option("child").map { (n) throws(ToolError) in try childID(s, n).id }
        let set = cid.map { s.settings(for: $0) } ?? s.settings
        // A weekday's own key shows once it is set; the lock is 'rewards lock''s.
        for r in RewardsEngine.Settings.ranges where r.kind != .lock {
            let v = set.value(r.key) ?? 0
            if (r.kind == .weekdayWindow || r.kind == .weekdayNumber) && v < 0 { continue }
            var o: JSONObject = ["type": "setting", "key": .string(r.key), "value": JSON(v), "help": .string(r.help), "child": JSON(cid),
                                 "overridden": .bool(cid.flatMap { s.childSettings[$0]?[r.key] } != nil)]
            if r.kind == .number || r.kind == .weekdayNumber { o["min"] = JSON(max(0, r.range.lowerBound)); o["max"] = JSON(r.range.upperBound) } else { o["text"] = .string(set.display(r.key)) }
            ctx.out.emit(o, text: "\(r.key.padding(34))\(set.display(r.key))  (\(r.help))")
        }
        if cid == nil {
            let help = "the device that hands grants over, where devices share a sync folder"
            ctx.out.emit(["type": "setting", "key": "grant_device", "value": JSON(s.granter), "help": .string(help),
                          "overridden": .bool(s.grantDevice != nil)],
                         text: "\("grant_device".padding(34))\((s.granter ?? "any").terminalSafe)  (\(help))")
        }
        return .ok
    }

    /// `settings set grant_device NAME`: a device name, for the whole family.
    static func setGrantDevice(_ ctx: Context, _ name: String) throws(ToolError) -> ExitCode {
        guard StoreOptions.isActorName(Substring(name)) else {
            throw .usage("grant_device is a device's name (letters, digits, '-', '_' and '.', as REWARDS_ACTOR or the host name gives it), not '\(name.terminalSafe)'")
        }
        if ctx.option("child") != nil { throw .usage("grant_device is the family's, not one child's: drop --child") }
        let st = try store(ctx)
        let shared = try familyFolder(ctx) == nil && st.options.journalFolder != nil
        let old = try write(ctx, st) { (tx) throws(ToolError) -> String? in
            try requireParent(tx.state, ctx)
            let old = tx.state.granter
            if let g = old, shared,
               !mayPassGrants(granter: g, writer: st.options.actor, at: ctx.now.ms, granterSeen: tx.state.granterSeen) {
                throw ToolError(.noPermission, "only \(g.terminalSafe), the granting device, can name another (so that two devices never both hand grants over): run this there, or here once \(g.terminalSafe) has written nothing for \(granterSilenceDays) days")
            }
            tx.record(by(ctx, ["type": "grant_device", "device": .string(name)]))
            return old
        }
        // Names are exact: a device no journal in the folder names yet (a typo,
        // another case) hands nothing over until it runs, and only it can pass
        // the role on before a week without a word from it.
        if shared, name != st.options.actor, let folder = st.options.journalFolder,
           let seen = try? Sys.scanDirectory(folder, suffix: ".ndjson").map({ $0.map { String($0.name.dropLast(7)) } }),
           !seen.contains(name) {
            ctx.warn("no device named '\(name.terminalSafe)' has written to the sync folder yet (names are exact; seen: \(seen.sorted().joined(separator: ", ").terminalSafe)): grants wait for it, and only it can name another before \(granterSilenceDays) days without a word from it")
        }
        ctx.out.emit(["type": "setting", "key": "grant_device", "value": .string(name), "previous": JSON(old)],
                     text: "grant_device: \((old ?? "any").terminalSafe) → \(name)")
        return .ok
    }

    static func settingsSet(_ ctx: Context) throws(ToolError) -> ExitCode {
        let key = ctx.operands[0].lowercased(), raw = ctx.operands[1]
        if key == "grant_device" { return try setGrantDevice(ctx, raw) }
        // "default": a child's own value goes (the family's applies again);
        // the family's is the documented default (a weekday key's: as the
        // every-day key).
        let byDefault = raw.trimmingSpaces.lowercased() == "default" && key != "locked_until"
        var v = byDefault ? (RewardsEngine.Settings().value(key) ?? 0) : 0
        if !byDefault || RewardsEngine.Settings.ranges.first(where: { $0.key == key }) == nil { v = try RewardsEngine.Settings.parse(key, raw) }
        let (old, cid) = try write(ctx) { (tx) throws(ToolError) -> (Int, String?) in
            try requireParent(tx.state, ctx)
            let cid = try ctx.option("child").map { (n) throws(ToolError) in try childID(tx.state, n).id }
            let old = (cid.map { tx.state.settings(for: $0) } ?? tx.state.settings).value(key) ?? 0
            if byDefault, let c = cid {
                guard tx.state.childSettings[c]?[key] != nil else {
                    throw ToolError(.dataError, "\(ctx.option("child") ?? c) has no \(key) of their own; the family's applies")
                }
                tx.record(by(ctx, ["type": "setting_set", "key": .string(key), "child": .string(c), "default": true]))
                v = tx.state.settings(for: c).value(key) ?? v
            } else {
                tx.record(by(ctx, ["type": "setting_set", "key": .string(key), "value": JSON(v), "child": JSON(cid)]))
            }
            return (old, cid)
        }
        let show = { (x: Int) in RewardsEngine.Settings.display(key, x) }
        var rec: JSONObject = ["type": "setting", "key": .string(key), "value": JSON(v), "previous": JSON(old), "child": JSON(cid)]
        if show(v) != String(v) { rec["text"] = .string(show(v)) }
        if byDefault, cid != nil { rec["own"] = false }
        ctx.out.emit(rec, text: "\(key): \(show(old)) → \(show(v))\(byDefault && cid != nil ? " (the family's)" : "")")
        return .ok
    }
}
