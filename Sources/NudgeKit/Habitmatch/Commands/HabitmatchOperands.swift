// How handlers read what the user named: the acting member, another member
// by name, one of your habits, a zone in an option, your today. Shared by
// every command file; each lookup fails with a message that says what is
// accepted, never with an empty answer.
//
// Invariants: a member named on the command line is looked up by the same
// sanitised name the journals use; the acting member is always `me(ctx)`
// (Access/HabitmatchPoolAccess.swift), never a name taken from an operand;
// "today" is the member's own day, in their zone.

extension Habitmatch {
    /// A zone a user names in an option: a bad name is a usage error that
    /// names the option (an unknown TZ stays bad configuration).
    static func zoneOption(_ name: String, _ option: String) throws(ToolError) -> Zone {
        if let z = ZoneCache.named(name) { return z }
        do throws(ToolError) { return try Zone.named(name) } catch {
            throw ToolError(.usage, "\(option) must be an IANA time zone like America/New_York, not '\(name)'")
        }
    }

    /// The acting member, who must have joined.
    static func member(_ s: HabitmatchState, _ ctx: Context) throws(ToolError) -> Member {
        guard let m = s.members[me(ctx)] else {
            throw ToolError(.dataError, "\(me(ctx)) has not joined the pool \(poolPath(ctx)) yet: habitmatch join --name NAME --habit exercise")
        }
        return m
    }

    /// A member named on the command line (a near miss is suggested).
    static func other(_ s: HabitmatchState, _ user: String) throws(ToolError) -> Member {
        let u = StoreOptions.sanitize(user)
        guard let m = s.members[u] else {
            throw ToolError(.dataError, "no member '\(user)' in this pool" + (Suggest.nearest(u, in: Array(s.members.keys)).map { " (did you mean '\($0)'?)" } ?? ""))
        }
        return m
    }

    /// A member named on the command line whom `viewer` may see: a block
    /// either way hides both profiles, as if there were no such member.
    static func visibleOther(_ s: HabitmatchState, _ viewer: String, _ user: String) throws(ToolError) -> Member {
        let m = try other(s, user)
        if m.user != viewer && s.isBlocked(viewer, m.user) { throw ToolError(.dataError, "no member '\(user)' in this pool") }
        return m
    }

    /// The member's zone (the process's when theirs is unknown here).
    static func memberZone(_ m: Member, _ ctx: Context) -> Zone { ZoneCache.named(m.timezone) ?? ctx.zone }

    /// The member's today, in their zone.
    static func today(_ m: Member, _ ctx: Context) -> Day { (ZoneCache.named(m.timezone) ?? ctx.zone).day(of: ctx.now) }

    /// Whose days a command shows: yours, or with --of a buddy's (anyone
    /// else is refused, 77): `calendar`, `stats`, `export` alike.
    static func viewed(_ s: HabitmatchState, _ ctx: Context, what: String) throws(ToolError) -> Member {
        let viewer = try member(s, ctx)
        guard let u = ctx.option("of") else { return viewer }
        let m = try other(s, u)
        guard m.user == viewer.user || s.isBuddy(viewer.user, m.user) else {
            throw ToolError(.noPermission, "only buddies may see each other's \(what); \(m.user) is not your buddy")
        }
        return m
    }

    /// One of `m`'s habits, by id, catalog name or name; with none named,
    /// their only habit.
    static func ownHabit(_ m: Member, _ raw: String?) throws(ToolError) -> Habit {
        guard let raw = raw else {
            guard m.habits.count == 1 else { throw .usage("which habit? one of: \(m.habits.map(\.id).joined(separator: ", "))") }
            return m.habits[0]
        }
        let id = (try? habit(raw).id) ?? raw
        guard let h = m.habits.first(where: { $0.id == id || $0.id == raw || $0.name.lowercased() == raw.lowercased() }) else {
            throw ToolError(.usage, "you have no habit '\(raw)'; yours: \(m.habits.map(\.id).joined(separator: ", "))")
        }
        return h
    }
}
