// `candidates`, `like`, `pass`, `swipe`, `chat`, `buddy` and `buddy accept`:
// finding a buddy. Handlers only: the ranking is in Rules/HabitmatchMatching,
// the match notification in Rules/HabitmatchReminders.
//
// Invariants: nobody swipes on themselves or on someone blocked either way;
// a left swipe never ends a match (that takes `unmatch`); only matches chat;
// the buddy cap counts buddies and accepts still waiting. A new match is
// announced once: by the swipe that made it, and marked so `remind` does
// not repeat it.

extension Habitmatch {
    static func candidatesCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let limit = try ctx.option("limit").map { (s) throws(ToolError) in try ctx.int(s, option: "--limit", range: 1...1000) } ?? 10
        let s = try view(ctx)
        let m = try member(s, ctx)
        if s.members.count <= 1 {
            if !ctx.out.isJSON { ctx.out.raw("No user for now. Come back later\n") }
            return .ok
        }
        let cs = visibleCandidates(for: m, in: s, now: ctx.now)
        if cs.isEmpty && !ctx.out.isJSON { ctx.out.raw("No user for now. Come back later\n") }
        let names = Dictionary(uniqueKeysWithValues: catalog.map { ($0.id, $0.name) })
        for c in cs.prefix(limit) {
            let r: JSONObject = ["type": "candidate", "user": .string(c.member.user), "name": .string(c.member.name),
                                 "shared_habits": JSON(c.shared), "timezone": .string(c.member.timezone),
                                 "hours_apart": .double(Double(c.zoneMinutes) / 60), "last_active": .string(ctx.clock.format(c.member.lastActive)),
                                 "bio": .string(c.member.bio), "seen_before": .bool(c.passedBefore)]
            ctx.out.emit(r, text: "\(c.member.user.terminalSafe)  \(c.member.name.terminalSafe) · shares \(c.shared.map { names[$0] ?? $0 }.joined(separator: ", ").terminalSafe) · \(c.member.timezone.terminalSafe)\(c.passedBefore ? " · seen before" : "")\(c.member.bio.isEmpty ? "" : "\n  " + c.member.bio.terminalSafe)")
        }
        return .ok
    }

    static func swipeCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        switch ctx.operands[1] {
        case "right": return try swipe(ctx, ctx.operands[0], true)
        case "left": return try swipe(ctx, ctx.operands[0], false)
        default: throw .usage("swipe takes right or left, not '\(ctx.operands[1])'")
        }
    }

    static func swipe(_ ctx: Context, _ target: String, _ right: Bool) throws(ToolError) -> ExitCode {
        let p = try pool(ctx)
        if p.kind == .host { _ = try view(ctx) }
        // A swipe goes to the member's spool in a host pool: nobody else
        // reads it but the pool's owner's run, which finds matches.
        let (o, matched) = try write(ctx, folder: swipeFolder(p)) { (tx) throws(ToolError) -> (Member, Bool) in
            let m = try member(tx.state, ctx)
            let o = try other(tx.state, target)
            guard o.user != m.user else { throw .usage("you cannot swipe on yourself") }
            if tx.state.isBlocked(m.user, o.user) { throw ToolError(.noPermission, "no member '\(target)' you can see") }
            let wasMatch = tx.state.isMatch(m.user, o.user)
            if wasMatch && !right {
                throw ToolError(.usage, "\(o.user) is a match\(tx.state.isBuddy(m.user, o.user) ? " and a buddy" : ""); to part ways say so: habitmatch unmatch \(o.user)")
            }
            tx.record(["type": "swiped", "target": .string(o.user), "right": .bool(right)])
            let isMatch = tx.state.isMatch(m.user, o.user)
            return (o, isMatch && !wasMatch)
        }
        if matched {
            try write(ctx, folder: "self") { (tx) throws(ToolError) in tx.record(["type": "reminded", "key": .string("match|\(o.user)")]) }
        }
        let r: JSONObject = ["type": "swipe", "user": .string(o.user), "direction": .string(right ? "right" : "left"), "match": .bool(matched)]
        let later = right && !matched && p.kind == .host
            ? ": nobody else sees it; if \(o.name.terminalSafe) likes you too, you will both be told (habitmatch dashboard)" : ""
        ctx.out.emit(r, text: right ? "Liked \(o.name.terminalSafe)\(later)" : "Passed on \(o.name.terminalSafe)")
        if matched { ctx.out.emit(matchNotification(o, me(ctx), commandPrefix: commandPrefix(ctx)), text: "It's a match with \(o.name.terminalSafe)! Say hello: habitmatch chat \(o.user.terminalSafe) TEXT") }
        return .ok
    }

    /// A chat message for the terminal: each of its lines escaped, the
    /// lines after the first indented under it.
    static func chatLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).terminalSafe }.joined(separator: "\n    ")
    }

    static func chat(_ ctx: Context) throws(ToolError) -> ExitCode {
        let text = ctx.operands.dropFirst().joined(separator: " ")
        let s = try view(ctx)
        let m = try member(s, ctx)
        let o = try other(s, ctx.operands[0])
        guard s.isMatch(m.user, o.user) else { throw ToolError(.noPermission, "you can chat only with a match; like \(o.user) and wait for them to like you back") }
        if !text.trimmingSpaces.isEmpty {
            guard validChat(text) else {
                throw .usage("a chat message is at most \(maxChat) characters (and \(4 * maxChat) bytes), without control characters (line breaks and tabs are fine)")
            }
            try write(ctx, folder: try pairWrite(ctx, s, m.user, o.user)) { (tx) throws(ToolError) in
                // Its own time: the stamp may run ahead of it (a peer's clock ahead).
                tx.record(["type": "chat", "to": .string(o.user), "text": .string(text), "at_ms": .int(ctx.now.ms)])
            }
            ctx.out.emit(["type": "chat", "from": .string(m.user), "to": .string(o.user), "text": .string(text), "at": at(ctx)], text: "sent")
            return .ok
        }
        // Times in the member's own zone, named, as meetings show them.
        let z = memberZone(m, ctx)
        for line in s.chat(m.user, o.user) {
            let local = z.local(line.at)
            ctx.out.emit(["type": "chat", "from": .string(line.from), "to": .string(line.from == m.user ? o.user : m.user),
                          "text": .string(line.text), "at": .string(z.format(line.at)), "timezone": .string(m.timezone)],
                         text: "\(local.day) \(local.time) \(m.timezone.terminalSafe)  \(line.from.terminalSafe): \(chatLines(line.text))")
        }
        return .ok
    }

    static func buddyList(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try view(ctx)
        let m = try member(s, ctx)
        for b in s.buddies(of: m.user).sorted() {
            guard let o = s.members[b] else { continue }
            ctx.out.emit(["type": "buddy", "user": .string(o.user), "name": .string(o.name), "email": JSON(o.email), "timezone": .string(o.timezone)],
                         text: "\(o.user.terminalSafe)  \(o.name.terminalSafe) · \(o.timezone.terminalSafe)")
        }
        return .ok
    }

    static func buddyAccept(_ ctx: Context) throws(ToolError) -> ExitCode {
        let cap = try maxBuddies(ctx)
        let s0 = try view(ctx)
        let o0 = try other(s0, ctx.operands[0])
        guard s0.isMatch(me(ctx), o0.user) else { throw ToolError(.noPermission, "\(o0.user) is not a match yet: you both have to like each other first") }
        // An accept is for the two of them only: in their pair's folder.
        let (o, now) = try write(ctx, folder: try pairWrite(ctx, s0, me(ctx), o0.user)) { (tx) throws(ToolError) -> (Member, Bool) in
            let m = try member(tx.state, ctx)
            let o = try other(tx.state, ctx.operands[0])
            guard tx.state.isMatch(m.user, o.user) else { throw ToolError(.noPermission, "\(o.user) is not a match yet: you both have to like each other first") }
            if tx.state.isBuddy(m.user, o.user) { return (o, true) }
            if tx.state.accepts[m.user]?.contains(o.user) == true { return (o, false) }
            // Buddies and accepts still waiting both count, on both sides.
            let mine = tx.state.commitments(of: m.user)
            guard mine < cap else { throw ToolError(.noPermission, "you already have \(mine) buddies or accepts waiting, the most allowed (\(cap)); a few real commitments work better than many") }
            tx.record(["type": "buddy_accept", "user": .string(o.user)])
            // Where their private file is: in a host pool, a folder only buddies are told of.
            if let f = hostPrivateFolder(ctx) { tx.record(["type": "private_at", "folder": .string(f)]) }
            return (o, tx.state.isBuddy(m.user, o.user))
        }
        ctx.out.emit(["type": "buddy", "user": .string(o.user), "name": .string(o.name), "accepted": true, "buddies": .bool(now)],
                     text: now ? "You and \(o.name.terminalSafe) are buddies." : "Accepted. You become buddies when \(o.name.terminalSafe) accepts too.")
        return .ok
    }

    /// Now, as a record's `at`.
    static func at(_ ctx: Context) -> JSON { .string(ctx.clock.format(ctx.now)) }
}
