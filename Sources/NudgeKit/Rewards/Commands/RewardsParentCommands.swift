// rewards' parent commands: parent invite|join|list|rm. The owner invites a
// second parent with a one-time code (the journal keeps its hash); the fold
// checks the code (`RewardsState.joinProblem`), so every copy agrees on who
// joined. In a family folder a would-be parent's join is a request in the
// spool, let in by the next parent's (or cron's) run.
//
// Invariants: at most two parents; only the owner invites or removes one;
// the owner cannot be removed.

extension Rewards {
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
        // A parent's look takes what waits in the spool (a join among it) first.
        let s = try write(ctx) { (tx) throws(ToolError) -> RewardsState in
            try requireParent(tx.state, ctx)
            return tx.state
        }
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
            // Whatever they append from now on counts for nothing, whatever
            // its stamp: the cut erases their batches after the last one
            // folded here (Model/RewardsEvents.swift).
            let seen = tx.state.lastSeen[login]
            tx.record(by(ctx, ["type": "parent_removed", "login": .string(login)]))
            tx.record(by(ctx, ["type": "erase", "cut": .string(login), "after": seen?.clockJSON ?? .null]))
        }
        ctx.out.emit(["type": "parent", "login": .string(login), "removed": true],
                     text: "\(Text.terminalSafe(login)) is no longer a parent here; what they did stays in the log, what they do from now on does not count")
        return .ok
    }
}
