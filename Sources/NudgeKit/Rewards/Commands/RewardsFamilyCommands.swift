// rewards' family commands: init (the family, and with --family its
// folder) and child add|list|rm|export. Handlers only: the names they accept
// are checked in Rules/RewardsValidation.swift, the erasure `child rm
// --purge` records is Rules/RewardsErasure.swift.
//
// Invariants: each handler prints only after its change is written; a
// child's name and login are each one child's.

extension Rewards {
    static func initFamily(_ ctx: Context) throws(ToolError) -> ExitCode {
        let owner = me(ctx)
        if let path = try familyPath(ctx), !Sys.fileExists(Sys.join(path, "family.conf")) {
            _ = try familyInit(ctx, path)
            ctx.memoReset(familyFolderKey)
        } else if ctx.option("group") != nil {
            throw .usage("--group is for a new family folder: rewards --family DIR init --group GROUP")
        } else if let h = try familyFolder(ctx), UInt32(geteuid()) != h.owner {
            // The folder's owner made the family; nobody else makes one there.
            let o = Users.name(of: h.owner) ?? "uid \(h.owner)"
            throw ToolError(.noPermission, "only \(o), who owns the family folder \(h.path), makes the family there; ask \(o) for an invite ('rewards parent invite')")
        } else if try familyFolder(ctx) == nil, let f = try ctx.storeOptions().journalFolder, (try? store(ctx).read().owner) == nil {
            // A family across laptops: signed from the start when the parent has a key.
            try ctx.startSignedFolder(f, principal: owner)
        }
        try write(ctx) { (tx) throws(ToolError) in
            if let o = tx.state.owner { throw ToolError(.dataError, "the family exists already (parent: \(o))") }
            tx.record(by(ctx, ["type": "family_created", "owner": .string(owner)]))
        }
        let h = try familyFolder(ctx)
        ctx.out.emit(["type": "family", "owner": .string(owner), "folder": JSON(h?.path)],
                     text: "Family created; \(owner.terminalSafe) is the parent." + (h.map { " Children ask through \($0.path); add each with their login: rewards --family \($0.path) child add NAME --user LOGIN" } ?? " Next: rewards child add NAME"))
        return .ok
    }

    static func childAdd(_ ctx: Context) throws(ToolError) -> ExitCode {
        let name = try checkChildName(ctx.operands[0])
        let login = try ctx.option("user").map { (l) throws(ToolError) in try checkLogin(l) }
        let c = try write(ctx) { (tx) throws(ToolError) -> RewardsState.Child in
            try requireParent(tx.state, ctx)
            if tx.state.child(named: name) != nil { throw ToolError(.dataError, "there is already a child named '\(name)'") }
            if let l = login {
                switch tx.state.role(of: l) {
                case .parent: throw ToolError(.dataError, "'\(l)' is a parent's login; a child needs a login of their own")
                case .child(let other): throw ToolError(.dataError, "'\(l)' is already \(tx.state.children[other]?.name ?? "another child")'s login")
                case .stranger: break
                }
            }
            let id = IDs.make()
            tx.record(by(ctx, ["type": "child_added", "id": .string(id), "name": .string(name), "login": JSON(login)]))
            return tx.state.children[id]!
        }
        ctx.out.emit(["type": "child", "id": .string(c.id), "name": .string(c.name), "login": JSON(c.login)], text: "Added \(c.name.terminalSafe)")
        return .ok
    }

    static func childList(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try current(store(ctx), today: ctx.today)
        try requireParent(s, ctx)
        for c in s.children.values.sorted(by: { $0.name < $1.name }) {
            ctx.out.emit(["type": "child", "id": .string(c.id), "name": .string(c.name), "login": JSON(c.login), "balance": JSON(s.balance[c.id] ?? 0)],
                         text: "\(c.name.terminalSafe)\(c.login.map { " (\($0.terminalSafe))" } ?? "")  \(s.balance[c.id] ?? 0) points")
        }
        return .ok
    }

    /// `child rm NAME`: the child goes, their history stays. With --purge
    /// (also for a child removed before) an erasure tombstone goes to the
    /// journal instead: every event naming the child is dropped, here and on
    /// every device that syncs.
    static func childRemove(_ ctx: Context) throws(ToolError) -> ExitCode {
        let purge = ctx.flag("purge")
        if purge {
            try ctx.confirm("Erase every trace of \(ctx.operands[0]), on every device?", command: "rewards child rm --purge")
        }
        let c = try write(ctx) { (tx) throws(ToolError) -> RewardsState.Child in
            try requireParent(tx.state, ctx)
            let name = ctx.operands[0]
            if purge, tx.state.child(named: name) == nil, let gone = tx.state.removedChild(named: name) {
                tx.record(by(ctx, erasure(of: gone, in: tx.state, salt: IDs.make())))
                return gone
            }
            let c = try childID(tx.state, name)
            // The tombstone alone: it erases what came before its batch, so
            // a child_removed beside it would stay.
            tx.record(by(ctx, purge ? erasure(of: c, in: tx.state, salt: IDs.make()) : ["type": "child_removed", "id": .string(c.id)]))
            return c
        }
        ctx.out.emit(["type": "child", "id": .string(c.id), "name": .string(c.name), "removed": true, "purged": .bool(purge)],
                     text: purge ? "Removed \(c.name.terminalSafe) and erased every trace" : "Removed \(c.name.terminalSafe) (history kept; --purge erases it)")
        return .ok
    }

    static func childExport(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read(full: true)
        try requireParent(s, ctx)
        let c = try childID(s, ctx.operands[0])
        let out = ctx.out
        out.record(["type": "child", "id": .string(c.id), "name": .string(c.name), "login": JSON(c.login),
                    "balance": JSON(s.balance[c.id] ?? 0), "earned": JSON(s.earned[c.id] ?? 0), "badges": JSON((s.badges[c.id] ?? []).sorted())])
        for (d, t) in s.days.entries(c.id).map({ ($0.day, $0.totals) }) {
            out.record(["type": "day", "child": .string(c.id), "date": .string(d.description), "learning_minutes": JSON(Int(t.learningSeconds / 60)),
                        "reward_minutes": JSON(Int(t.rewardSeconds / 60)), "points": JSON(t.points), "granted_minutes": JSON(t.grantedMinutes),
                        "adjusted": JSON(t.adjusted)])
        }
        for d in s.usageDays(c.id) {
            let u = s.usageDay(c.id, d)
            for a in u.apps {
                out.record(["type": "usage", "child": .string(c.id), "date": .string(d.description), "app": .string(a.app), "category": JSON(a.category),
                            "sessions": JSON(a.sessions), "learning_s": .int(a.learningSeconds), "reward_s": .int(a.rewardSeconds), "points": JSON(a.points),
                            "other_s": .int(a.otherSeconds)])
            }
            for (app, spans) in u.sessions.sorted(by: { $0.key < $1.key }) {
                out.record(["type": "sessions", "child": .string(c.id), "date": .string(d.description), "app": .string(app),
                            "spans": .array(spans.map { .array([.string(ctx.zone.format(Instant(seconds: $0.start))), .string(ctx.zone.format(Instant(seconds: $0.end)))]) })])
            }
        }
        for g in s.grants.values.sorted(by: { $0.id < $1.id }) where g.child == c.id {
            // A void grant (it lost a merge) is shown so: it gave nothing and cost nothing.
            // short_points: what a grant handed over could not take (the balance held less as merged).
            out.record(["type": "grant", "id": .string(g.id), "minutes": JSON(g.minutes), "points": JSON(g.points), "date": .string(g.day.description),
                        "status": .string(g.void != nil ? "void" : g.applied ? "applied" : g.failures >= grantTries ? "given_up" : "pending"),
                        "void": JSON(g.void), "failures": JSON(g.failures), "short_points": JSON(g.short)])
        }
        for f in s.flags.values where f.child == c.id { out.record(["type": "flag", "id": .string(f.id), "app": .string(f.app), "reason": .string(f.reason), "status": .string(f.status)]) }
        return .ok
    }
}
