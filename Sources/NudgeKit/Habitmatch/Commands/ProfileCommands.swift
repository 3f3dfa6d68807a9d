// `join`, `profile` and `profile set`: a member's profile and how others
// see it. Handlers only: the values are checked by Rules/HabitmatchValidation
// and Rules/HabitmatchCatalog.
//
// Invariants: the e-mail address is written only to the member's private
// file, never to the journal the whole pool reads, and is shown only to
// the member and their buddies; everything is checked before anything is
// written.

extension Habitmatch {
    static func join(_ ctx: Context) throws(ToolError) -> ExitCode {
        guard let name = ctx.option("name")?.trimmingSpaces, !name.isEmpty else { throw .usage("join needs --name NAME") }
        let raws = ctx.invocation.all("habit")
        guard !raws.isEmpty else { throw .usage("join needs at least one --habit (see 'habitmatch catalog', or other:TEXT)") }
        var habits: [Habit] = []
        for r in raws {
            let h = try habit(r)
            if !habits.contains(where: { $0.id == h.id }) { habits.append(Habit(id: h.id, name: h.name, remindAt: nil)) }
        }
        guard habits.count <= maxHabits else { throw .usage("at most \(maxHabits) habits: fewer habits, kept, beat many dropped") }
        let tz = ctx.option("tz") ?? ctx.zone.name
        _ = try zoneOption(tz, ctx.shown("--tz"))
        if let e = ctx.option("email"), validEmail(e) == nil { throw .usage("--email must be an address like ana@example.com") }
        guard validName(name) != nil else { throw .usage("--name must be 1 to 60 characters, without control characters") }
        guard validBio(ctx.option("bio") ?? "") != nil else { throw .usage("--bio must be at most 280 characters, without control characters") }
        guard validZone(tz) else { throw .usage("\(ctx.shown("--tz")) must be an IANA time zone like America/New_York, not '\(tz)'") }
        let user = me(ctx)
        var (m, s) = try write(ctx) { (tx) throws(ToolError) -> (Member, HabitmatchState) in
            if tx.state.members[user] != nil { throw ToolError(.dataError, "\(user) has already joined; use 'habitmatch profile set' and 'habit add'") }
            tx.record(["type": "joined", "name": .string(name), "timezone": .string(tz),
                       "bio": .string(ctx.option("bio") ?? ""), "habits": HabitmatchState.habitsJSON(habits)])
            return (tx.state.members[user] ?? Member(user: user, name: name, email: nil, timezone: tz, bio: "", habits: habits,
                                                     joinedAt: ctx.now, lastActive: ctx.now), tx.state)
        }
        // The e-mail goes to the file only the member and their buddies read.
        if let e = ctx.option("email") {
            (m, s) = try write(ctx, folder: "private") { (tx) throws(ToolError) -> (Member, HabitmatchState) in
                tx.record(["type": "profile", "email": .string(e)])
                return (tx.state.members[user] ?? m, tx.state)
            }
        }
        ctx.out.emit(profileRecord(m, s, today: today(m, ctx), viewer: user, zone: ctx.zone),
                     text: "Welcome, \(m.name.terminalSafe). Habits: \(m.habits.map(\.name).joined(separator: ", ").terminalSafe). Next: habitmatch candidates")
        return .ok
    }

    static func profile(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try view(ctx)
        let m = ctx.operands.isEmpty ? try member(s, ctx) : try visibleOther(s, me(ctx), ctx.operands[0])
        let r = profileRecord(m, s, today: today(m, ctx), viewer: me(ctx), zone: ctx.zone)
        ctx.out.emit(r, text: "\(m.name.terminalSafe) (\(m.user.terminalSafe)) · \(m.timezone.terminalSafe)\(m.bio.isEmpty ? "" : "\n  " + m.bio.terminalSafe)\n  habits: \(m.habits.map(\.name).joined(separator: ", ").terminalSafe)")
        return .ok
    }

    static func profileSet(_ ctx: Context) throws(ToolError) -> ExitCode {
        var e: JSONObject = ["type": "profile"]
        if let n = ctx.option("name") { guard let v = validName(n) else { throw .usage("--name must be 1 to 60 characters, without control characters") }; e["name"] = .string(v) }
        var email: JSON? = nil
        if let em = ctx.option("email") {
            if !em.isEmpty && validEmail(em) == nil { throw .usage("--email must be an address like ana@example.com, or '' to remove it") }
            email = em.isEmpty ? .null : .string(em)
        }
        if let tz = ctx.option("tz") {
            guard validZone(tz) else { throw .usage("\(ctx.shown("--tz")) must be an IANA time zone like America/New_York, not '\(tz)'") }
            e["timezone"] = .string(tz)
        }
        if let b = ctx.option("bio") { guard validBio(b) != nil else { throw .usage("--bio must be at most 280 characters, without control characters") }; e["bio"] = .string(b) }
        guard e.keys.count > 1 || email != nil else { throw .usage("profile set needs --name, --email, --tz or --bio") }
        var (m, s) = try write(ctx) { (tx) throws(ToolError) -> (Member, HabitmatchState) in
            let m = try member(tx.state, ctx)
            if e.keys.count > 1 { tx.record(e) }
            return (tx.state.members[m.user]!, tx.state)
        }
        if let em = email {
            (m, s) = try write(ctx, folder: "private") { (tx) throws(ToolError) -> (Member, HabitmatchState) in
                tx.record(["type": "profile", "email": em])
                return (tx.state.members[m.user]!, tx.state)
            }
        }
        ctx.out.emit(profileRecord(m, s, today: today(m, ctx), viewer: m.user, zone: ctx.zone), text: "Profile saved")
        return .ok
    }

    /// A member as a record; the e-mail only for themselves and their buddies.
    static func profileRecord(_ m: Member, _ s: HabitmatchState, today: Day, viewer: String, zone: Zone = .utc) -> JSONObject {
        var o: JSONObject = ["type": "member", "user": .string(m.user), "name": .string(m.name), "timezone": .string(m.timezone),
                             "bio": .string(m.bio), "joined": .string(zone.format(m.joinedAt)), "last_active": .string(zone.format(m.lastActive))]
        if viewer == m.user || s.isBuddy(viewer, m.user) { o["email"] = JSON(m.email) }
        // Streaks only where the done days are known: one's own and a buddy's
        // (anyone else's are not readable, and 0 would be false).
        let known = viewer == m.user || s.isBuddy(viewer, m.user)
        o["habits"] = .array(m.habits.map { h in
            var x: JSONObject = ["id": .string(h.id), "name": .string(h.name), "every": .string(h.every.stored), "frequency": .string(h.every.described)]
            guard known else { return .object(x) }
            x["remind_at"] = JSON(h.remindAt?.description)
            for (k, v) in progressFields(h, s.progress(m.user, h, today: today), today: today).fields { x[k] = v }
            return .object(x)
        })
        return o
    }
}
