// rewards' commands for more than one person: parent invite|join|list|rm,
// ask, requests, request approve|deny, log; and what a child's login sees
// in a family folder (their status file), and how it asks (the spool).

extension Rewards {
    /// In a family folder, when the caller is not a parent: the folder.
    static func childSide(_ ctx: Context) throws(ToolError) -> FamilyFolder? {
        try checkIdentity(ctx)
        guard let h = try familyFolder(ctx), !isParentHere(h) else { return nil }
        return h
    }

    // MARK: A child's commands in a family folder

    static func childDashboard(_ ctx: Context, _ h: FamilyFolder) throws(ToolError) -> ExitCode {
        let st = try readStatus(h)
        guard let d = st["dashboard"]?.object else { throw ToolError(.noPermission, "\(Sys.loginName()) is not a child of the family in \(h.path)") }
        if let n = ctx.operands.first, n.lowercased() != d["child"]?.string?.lowercased() {
            throw ToolError(.noPermission, "only a parent or the child may see that (you are \(Sys.loginName()))")
        }
        ctx.out.emit(d, text: dashboardText(d, zone: ctx.zone) + requestsText(st))
        return .ok
    }

    static func requestsText(_ st: JSONObject) -> String {
        var t = ""
        for x in st["requests"]?.array ?? [] {
            guard let r = x.object else { continue }
            let what = r["kind"]?.string == "join" ? "to join as a parent" : "\(r["minutes"]?.int ?? 0) min (\(r["kind"]?.string == "redeem" ? "redeem" : "more time"))"
            t += "  Asked \(what): \(r["status"]?.string ?? "")\(r["reason"]?.string.map { " — " + Text.terminalSafe($0) } ?? "")\n"
        }
        if let a = st["as_of"]?.string { t += "  (as of \(a))\n" }
        return t
    }

    static func childAllowance(_ ctx: Context, _ h: FamilyFolder) throws(ToolError) -> ExitCode {
        let st = try readStatus(h)
        guard let a = st["allowance"]?.object else { throw ToolError(.noPermission, "\(Sys.loginName()) is not a child of the family in \(h.path)") }
        if let n = ctx.operands.first, n.lowercased() != a["child"]?.string?.lowercased() {
            throw ToolError(.noPermission, "only a parent or the child may see that (you are \(Sys.loginName()))")
        }
        ctx.out.emit(a, text: "\(Text.terminalSafe(a["child"]?.string ?? "")) today: \(a["granted_minutes"]?.int ?? 0) min granted, \(a["used_minutes"]?.int ?? 0) used, \(a["left_minutes"]?.int ?? 0) left")
        return (a["left_minutes"]?.int ?? 0) > 0 ? .ok : .no
    }

    static func childBadges(_ ctx: Context, _ h: FamilyFolder) throws(ToolError) -> ExitCode {
        let st = try readStatus(h)
        guard let d = st["dashboard"]?.object else { throw ToolError(.noPermission, "\(Sys.loginName()) is not a child of the family in \(h.path)") }
        if let n = ctx.operands.first, n.lowercased() != d["child"]?.string?.lowercased() {
            throw ToolError(.noPermission, "only a parent or the child may see that (you are \(Sys.loginName()))")
        }
        let have = Set((d["badges"]?.array ?? []).compactMap(\.string))
        for b in badgeNames {
            ctx.out.emit(["type": "badge", "child": d["child"] ?? .null, "badge": .string(b.id), "name": .string(b.name), "earned": .bool(have.contains(b.id))],
                         text: "\(have.contains(b.id) ? "🏅" : "  ") \(b.name)")
        }
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

    // MARK: ask, requests, request approve|deny

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

    // MARK: parent invite|join|list|rm

    static let codeAlphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    static func newCode() -> String {
        var g = SystemRandomNumberGenerator()
        var s = ""
        for i in 0..<12 {
            if i > 0 && i % 4 == 0 { s += "-" }
            s.append(codeAlphabet[Int(g.next() % UInt64(codeAlphabet.count))])
        }
        return s
    }

    static func parentInvite(_ ctx: Context) throws(ToolError) -> ExitCode {
        let code = newCode()
        let expires = Instant(ms: ctx.now.ms + 72 * 3_600_000)
        try write(ctx) { (tx) throws(ToolError) in
            try requireFamily(tx.state)
            guard me(ctx) == tx.state.owner else { throw ToolError(.noPermission, "only the family's owner (\(tx.state.owner ?? "")) invites a parent") }
            guard tx.state.parents.count < 2 else { throw ToolError(.dataError, "this family has two parents already, the most it may have") }
            tx.record(by(ctx, ["type": "invite", "hash": .string(RewardsState.codeHash(code)), "expires": .int(expires.ms)]))
        }
        let how = try familyFolder(ctx).map { "rewards --family \($0.path) parent join \(code)" } ?? "rewards parent join \(code)"
        ctx.out.emit(["type": "invite", "code": .string(code), "expires": .string(ctx.zone.format(expires)), "join": .string(how)],
                     text: "Give the other parent this code (it works once, until \(ctx.zone.format(expires))):\n  \(code)\nThey run, as their own login:\n  \(how)")
        return .ok
    }

    static func parentJoin(_ ctx: Context) throws(ToolError) -> ExitCode {
        let code = ctx.operands[0]
        guard RewardsState.normalizeCode(code).unicodeScalars.allSatisfy({ c in codeAlphabet.contains(Character(c)) }),
              RewardsState.normalizeCode(code).count == 12 else {
            throw .usage("an invite code is 12 letters and digits like ABCD-EFGH-JKMN, not '\(Text.terminalSafe(String(code.prefix(40))))'")
        }
        if let h = try childSide(ctx) {
            let id = try dropRequest(ctx, h, ["kind": "join", "code": .string(RewardsState.normalizeCode(code))])
            ctx.out.emit(["type": "request", "id": .string(id), "kind": "join", "status": "pending"],
                         text: "Asked to join; the family's next rewards run (a parent's, or cron's) lets you in if the code is good. 'rewards parent list' then shows the family, or why not.")
            return .ok
        }
        if let h = try familyFolder(ctx) {
            throw ToolError(.dataError, "you can read the family in \(h.path) already: \(Sys.loginName()) is a parent (or root) there")
        }
        let who = me(ctx)
        try write(ctx) { (tx) throws(ToolError) in
            try requireFamily(tx.state)
            if let why = tx.state.joinProblem(code: code, who: who, ms: ctx.now.ms, zone: ctx.zone) { throw ToolError(.dataError, why) }
            tx.record(by(ctx, ["type": "parent_join", "code": .string(RewardsState.normalizeCode(code))]))
        }
        ctx.out.emit(["type": "parent", "login": .string(who), "role": "parent"], text: "You are a parent of this family now, \(Text.terminalSafe(who))")
        return .ok
    }

    static func parentList(_ ctx: Context) throws(ToolError) -> ExitCode {
        if let h = try childSide(ctx) {
            let st = try readStatus(h)
            let join = (st["requests"]?.array ?? []).compactMap(\.object).last { $0["kind"]?.string == "join" }
            guard let j = join else { throw ToolError(.noPermission, "only a parent may see the parents (you are \(Sys.loginName()))") }
            throw ToolError(.noPermission, "you are not a parent of this family: your request to join is \(j["status"]?.string ?? "pending")\(j["reason"]?.string.map { " (" + $0 + ")" } ?? "")")
        }
        let s = try store(ctx).read()
        try requireParent(s, ctx)
        for p in s.parents.sorted(by: { ($0 != s.owner ? 1 : 0, $0) < ($1 != s.owner ? 1 : 0, $1) }) {
            let role = p == s.owner ? "owner" : "co-parent"
            ctx.out.emit(["type": "parent", "login": .string(p), "role": .string(role)], text: "\(Text.terminalSafe(p))  \(role)")
        }
        let now = ctx.now.ms
        for i in s.invites.values.sorted(by: { $0.expires < $1.expires }) where i.usedBy == nil && i.expires > now {
            ctx.out.emit(["type": "invite", "expires": .string(ctx.zone.format(Instant(ms: i.expires))), "status": "open"],
                         text: "(an invite is open until \(ctx.zone.format(Instant(ms: i.expires))))")
        }
        return .ok
    }

    static func parentRemove(_ ctx: Context) throws(ToolError) -> ExitCode {
        let login = ctx.operands[0]
        try write(ctx) { (tx) throws(ToolError) in
            try requireFamily(tx.state)
            guard me(ctx) == tx.state.owner else { throw ToolError(.noPermission, "only the family's owner (\(tx.state.owner ?? "")) removes a parent") }
            guard login != tx.state.owner else { throw ToolError(.dataError, "the owner cannot be removed") }
            guard tx.state.parents.contains(login) else {
                throw ToolError(.dataError, "\(Text.terminalSafe(login)) is not a parent here; parents: \(tx.state.parents.sorted().joined(separator: ", "))")
            }
            tx.record(by(ctx, ["type": "parent_removed", "login": .string(login)]))
        }
        ctx.out.emit(["type": "parent", "login": .string(login), "removed": true],
                     text: "\(Text.terminalSafe(login)) is no longer a parent here; what they did stays in the log, what they do from now on does not count")
        return .ok
    }
}

extension Rewards {
    /// For each parent: the other parent's changes and the conflicts merged
    /// since they were last told, batched into one notification.
    public static func coParentNotifications(_ s: RewardsState, today: Day) -> [(keys: [String], record: JSONObject)] {
        guard s.parents.count > 1 || !s.conflicts.isEmpty else { return [] }
        var out: [(keys: [String], record: JSONObject)] = []
        for p in s.parents.sorted() {
            var lines: [String] = []
            var keys: [String] = []
            for c in s.conflicts where !s.notified.contains("conflict|\(p)|\(c.id)") {
                lines.append("Merged: " + c.text)
                keys.append("conflict|\(p)|\(c.id)")
            }
            let theirs = s.changes.filter { $0.by != p && s.parents.contains($0.by) && !s.notified.contains("change|\(p)|\($0.id)") }
            for c in theirs.suffix(10) { lines.append(c.text) }
            if theirs.count > 10 { lines.append("… and \(theirs.count - 10) more: rewards log") }
            keys += theirs.map { "change|\(p)|\($0.id)" }
            guard !lines.isEmpty, s.settings.notify == 1 else { continue }
            out.append((keys, NotificationRecord(tool: "rewards", id: "coparent-\(p)-\(today)-\(digest(keys))", title: "rewards: changes by the other parent",
                                                 body: lines.joined(separator: "\n"), extra: ["to": .string(p), "role": "parent"]).record))
        }
        return out
    }
}
