// Who is calling, and what a handler checks before it acts: the caller's
// login (`me`), that there is a family, that the caller is a parent or the
// child concerned, and which child an operand names. In a family folder a
// login that cannot read the journals is on the child's side (`childSide`):
// their commands read their status file and drop requests.
//
// Invariants: in a family folder the caller is the login running the
// command (the kernel's word), never $REWARDS_USER, and root acts for the
// parents (their cron).

extension Rewards {
    /// The caller. In a family folder: the login running the command (the
    /// kernel's word). In a store of one's own (one login's data directory,
    /// or their sync folder): $REWARDS_USER if set, else the login; anyone
    /// who can run commands there owns every file of it anyway.
    static func me(_ ctx: Context) -> String {
        if (try? familyFolder(ctx)) ?? nil != nil { return Sys.loginName() }
        return Sys.env("REWARDS_USER").flatMap { $0.isEmpty ? nil : $0 } ?? Sys.loginName()
    }

    static func requireFamily(_ s: RewardsState) throws(ToolError) {
        if s.owner == nil { throw ToolError(.dataError, "no family yet: a parent runs 'rewards init' first") }
    }

    static func requireParent(_ s: RewardsState, _ ctx: Context) throws(ToolError) {
        if s.owner == nil, let h = try waitingToRead(ctx) { throw notReadableYet(h) }
        try requireFamily(s)
        // In a family folder root (its cron) acts for the parents.
        if geteuid() == 0, try familyFolder(ctx) != nil { return }
        guard s.role(of: me(ctx)) == .parent else { throw ToolError(.noPermission, "only a parent may do that (you are \(me(ctx)))") }
    }

    /// A parent, or the child themself.
    static func requireSelfOrParent(_ s: RewardsState, _ ctx: Context, child: String) throws(ToolError) {
        try requireFamily(s)
        if geteuid() == 0, try familyFolder(ctx) != nil { return }
        switch s.role(of: me(ctx)) {
        case .parent: return
        case .child(let id) where id == child: return
        default: throw ToolError(.noPermission, "only a parent or the child may see that (you are \(me(ctx)))")
        }
    }

    /// The child named by the operand; without one, the caller if a child.
    static func ownChild(_ s: RewardsState, _ ctx: Context) throws(ToolError) -> RewardsState.Child {
        if let n = ctx.operands.first { return try childID(s, n) }
        if case .child(let id) = s.role(of: me(ctx)), let c = s.children[id] { return c }
        throw .usage("name the child: \(ctx.spec.name) \(ctx.invocation.command.joined(separator: " ")) CHILD")
    }

    static func childID(_ s: RewardsState, _ name: String) throws(ToolError) -> RewardsState.Child {
        guard let c = s.child(named: name) else {
            let names = s.children.values.map(\.name).sorted()
            throw ToolError(.dataError, "no child named '\(name)'" + (names.isEmpty ? "; add one with 'rewards child add NAME'" : "; children: " + names.joined(separator: ", ")))
        }
        return c
    }

    /// In a family folder where the caller may pass journal/ but sees no
    /// family yet (let in a moment ago, before the journals were theirs to
    /// read): wait, never make a second family.
    static func waitingToRead(_ ctx: Context) throws(ToolError) -> FamilyFolder? {
        guard let h = try familyFolder(ctx), geteuid() != 0, UInt32(geteuid()) != h.owner else { return nil }
        return h
    }

    static func notReadableYet(_ h: FamilyFolder) -> ToolError {
        ToolError(.tempFail, "the family's journals in \(h.path) are not readable to you yet; the owner's or cron's next run lets you read them: try again then (not 'rewards init': the family exists)")
    }

    /// A word on stderr when requests wait in the spool that no run has
    /// taken yet (a join among them): the next change takes them.
    static func tellWaiting(_ h: FamilyFolder, _ s: RewardsState) {
        guard let entries = (try? Sys.scanDirectory(h.requests, suffix: ".json")) ?? nil else { return }
        let waiting = entries.filter { e in spoolID(e.name).map { s.requests[$0] == nil } ?? false }
        guard !waiting.isEmpty else { return }
        Store<RewardsState>.warnOnce("\(waiting.count) request\(waiting.count == 1 ? "" : "s") wait in \(h.requests) (a child's, or a parent's asking to join): 'rewards requests' takes them")
    }

    /// In a family folder, when the caller is not a parent: the folder.
    static func childSide(_ ctx: Context) throws(ToolError) -> FamilyFolder? {
        try checkIdentity(ctx)
        guard let h = try familyFolder(ctx), !isParentHere(h) else { return nil }
        return h
    }
}
