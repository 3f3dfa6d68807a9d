// `unmatch`, `block`, `unblock` and `report`: parting ways with a match, never seeing
// a member again, and telling the pool's owner. Handlers only: what each
// event means to both sides is decided by the fold (Model/HabitmatchState).
//
// Invariants: an unmatch, block or unblock goes to the member's spool (in a
// host pool only they and the pool's owner read it), with a copy in the
// pair's folder when they have one; a report to the member's reports file
// (only they and the pool's owner read it).

extension Habitmatch {
    static func unmatch(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try view(ctx)
        let m = try member(s, ctx)
        let o = try other(s, ctx.operands[0])
        guard s.isMatch(m.user, o.user) else { throw ToolError(.dataError, "\(o.user) is not a match of yours") }
        try ctx.confirmOnTerminal("Unmatch \(o.name)? The chat and every meeting end for both of you, and a later like does not bring them back")
        try writeEnd(ctx, s, "unmatch", m.user, o.user)
        ctx.out.emit(["type": "unmatch", "user": .string(o.user)],
                     text: "Unmatched \(Text.terminalSafe(o.name)): no chat, no meetings, and they will not come round again")
        return .ok
    }

    static func block(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try view(ctx)
        let m = try member(s, ctx)
        let o = try other(s, ctx.operands[0])
        guard o.user != m.user else { throw .usage("you cannot block yourself") }
        let already = s.blocks[m.user]?.contains(o.user) == true
        if !already { try writeEnd(ctx, s, "block", m.user, o.user) }
        ctx.out.emit(["type": "block", "user": .string(o.user), "already": .bool(already)],
                     text: already ? "\(Text.terminalSafe(o.user)) is already blocked (habitmatch unblock \(Text.terminalSafe(o.user)) to undo it)"
                                   : "Blocked \(Text.terminalSafe(o.name)): you will not see each other again, and what they write about you is ignored")
        return .ok
    }

    static func unblock(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try view(ctx)
        let m = try member(s, ctx)
        let o = try other(s, ctx.operands[0])
        guard s.blocks[m.user]?.contains(o.user) == true else {
            throw ToolError(.dataError, "you have not blocked \(Text.terminalSafe(o.user))")
        }
        try writeEnd(ctx, s, "unblock", m.user, o.user)
        ctx.out.emit(["type": "unblock", "user": .string(o.user)],
                     text: "Unblocked \(Text.terminalSafe(o.user)): you may see each other's profiles again; a match starts over with two likes")
        return .ok
    }

    static func report(_ ctx: Context) throws(ToolError) -> ExitCode {
        let reason = ctx.operands.dropFirst().joined(separator: " ").trimmingSpaces
        guard !reason.isEmpty, reason.count <= 500 else { throw .usage("report needs a reason of 1 to 500 characters: habitmatch report USER WHAT HAPPENED") }
        let s = try view(ctx)
        _ = try member(s, ctx)
        let o = try other(s, ctx.operands[0])
        try write(ctx, folder: "reports") { (tx) throws(ToolError) in
            tx.record(["type": "report", "user": .string(o.user), "reason": .string(reason)])
        }
        ctx.out.emit(["type": "report", "user": .string(o.user), "reason": .string(reason)],
                     text: "Reported \(Text.terminalSafe(o.user)) to the pool's owner")
        return .ok
    }
}
