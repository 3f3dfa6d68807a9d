// `meet`, `meetings`, `meetings cancel` and `meetings move`: check-ins of
// at most 30 minutes between a match or buddies. Handlers only: what a
// meeting is, its next time and its iCalendar form are in
// Rules/HabitmatchMeetings.
//
// Invariants: a meeting is written in the pair's own folder (in a host
// pool only the two of them read it); only its two members move or cancel it; a meeting is
// never put in the past; --at is a local time, its zone from --tz.

extension Habitmatch {
    static func meet(_ ctx: Context) throws(ToolError) -> ExitCode {
        guard let raw = ctx.option("at") else { throw .usage("meet needs --at \"YYYY-MM-DD HH:MM\" (or \"tomorrow 18:00\")") }
        guard localAt(raw, zone: .utc, now: ctx.now) != nil else {
            throw .usage("--at must be a local time like \"2026-11-24 18:00\", \"today 18:00\" or \"tomorrow 18:00\" (the zone comes from --tz)")
        }
        let minutes = try ctx.option("minutes").map { (s) throws(ToolError) in
            guard let n = Int(s), (1...maxMeetingMinutes).contains(n) else { throw ToolError.usage("--minutes must be 1 to \(maxMeetingMinutes): a check-in takes no longer than 30 minutes") }
            return n
        } ?? maxMeetingMinutes
        let description = ctx.option("description") ?? defaultChecklist
        guard validDescription(description) else {
            throw .usage("--description is at most \(maxDescription) characters, without control characters (line breaks and tabs are fine)")
        }
        let s0 = try view(ctx)
        let o0 = try other(s0, ctx.operands[0])
        let (mt, names) = try write(ctx, folder: try pairWrite(ctx, s0, me(ctx), o0.user)) { (tx) throws(ToolError) -> (Meeting, [String: String]) in
            let m = try member(tx.state, ctx)
            let o = try other(tx.state, ctx.operands[0])
            guard tx.state.isMatch(m.user, o.user) else { throw ToolError(.noPermission, "you can meet a match or a buddy; \(o.user) is neither yet") }
            let tz = ctx.option("tz") ?? m.timezone
            guard validZone(tz) else { throw .usage("--tz must be an IANA time zone like America/New_York, not '\(tz)'") }
            try hostMeetingZone(ctx, tz, tx.state, m.user, o.user)
            let zone = try zoneOption(tz, "--tz")
            guard let local = localAt(raw, zone: zone, now: ctx.now) else { throw .usage("--at must be a local time like \"2026-11-24 18:00\"") }
            try existingTime(local, zone, tz)
            if zone.resolve(local) < ctx.now { throw .usage("--at \(local.day) \(local.time) (\(tz)) is in the past") }
            let id = IDs.make()
            tx.record(["type": "meeting", "id": .string(id), "with": .string(o.user), "start": .string(local.description), "timezone": .string(tz),
                       "minutes": JSON(minutes), "weekly": .bool(ctx.flag("weekly")), "description": .string(description)])
            guard let made = tx.state.meetings[id] else { throw ToolError(.software, "internal error: the meeting was not recorded") }
            return (made, [m.user: m.name, o.user: o.name])
        }
        ctx.out.emit(meetingRecord(mt, names: names, ctx: ctx), text: "Check-in with \((names[mt.attendee] ?? mt.attendee).terminalSafe) on \(mt.start.day) at \(mt.start.time) (\(mt.timezone.terminalSafe))\(mt.weekly ? ", every week" : "") [\(mt.id)]. Calendar: habitmatch meetings --ics")
        return .ok
    }

    /// A meeting's local time: "2026-11-24 18:00", or "today 18:00" /
    /// "tomorrow 18:00" in its zone (a walkthrough that works on any day).
    static func localAt(_ raw: String, zone: Zone, now: Instant) -> LocalDateTime? {
        if let p = RFC3339.parse(raw, allowLocal: true), p.offsetSeconds == nil { return p.local }
        let words = raw.trimmingSpaces.lowercased().split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 2, let t = TimeOfDay.parse(String(words[1])) else { return nil }
        let today = zone.day(of: now)
        switch words[0] {
        case "today": return LocalDateTime(day: today, time: t)
        case "tomorrow": return LocalDateTime(day: today.adding(days: 1), time: t)
        default: return nil
        }
    }

    static func meetingsCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try view(ctx)
        let m = try member(s, ctx)
        let list = myMeetings(s, m.user, now: ctx.now)
        let names = s.members.mapValues(\.name)
        if ctx.flag("ics") || ctx.option("format") == "ics" {
            var emails: [String: String] = [:]
            for x in list { for u in [x.organizer, x.attendee] { if let e = s.members[u]?.email { emails[u] = e } } }
            // Cancelled ones of the last 30 days and to come, so a calendar drops them.
            let gone = s.cancelled.values.filter { ($0.organizer == m.user || $0.attendee == m.user) && $0.startInstant().ms > ctx.now.ms - 30 * 86_400_000 }
                .sorted { $0.id < $1.id }
            ctx.out.rawForced(Habitmatch.meetingsCalendar(list, cancelled: gone, emails: emails, names: names, now: ctx.now))
            return .ok
        }
        if list.isEmpty && !ctx.out.isJSON { ctx.out.raw("No meetings. Schedule one: habitmatch meet USER --at \"YYYY-MM-DD HH:MM\"\n") }
        for x in list {
            let other = x.organizer == m.user ? x.attendee : x.organizer
            let n = x.next(after: ctx.now)!
            let z = memberZone(m, ctx)
            ctx.out.emit(meetingRecord(x, names: names, ctx: ctx),
                         text: "\(x.id)  \(z.local(n).day) \(z.local(n).time) \(m.timezone.terminalSafe)  \((names[other] ?? other).terminalSafe)  \(x.minutes) min\(x.weekly ? " weekly" : "")")
        }
        return .ok
    }

    static func meetingCancel(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s0 = try view(ctx)
        let u = try member(s0, ctx).user
        let m0 = try myMeeting(s0, u, ctx.operands[0])
        let other = m0.organizer == u ? m0.attendee : m0.organizer
        try write(ctx, folder: try pairWrite(ctx, s0, u, other)) { (tx) throws(ToolError) in
            tx.record(["type": "meeting_cancel", "id": .string(m0.id)])
        }
        ctx.out.emit(["type": "meeting", "id": .string(m0.id), "cancelled": true], text: "Cancelled the check-in \(m0.id) with \(other.terminalSafe)")
        return .ok
    }

    static func meetingMove(_ ctx: Context) throws(ToolError) -> ExitCode {
        guard let raw = ctx.option("at"), localAt(raw, zone: .utc, now: ctx.now) != nil else {
            throw .usage("meetings move needs --at \"YYYY-MM-DD HH:MM\" or \"tomorrow 18:00\" (a local time; the zone comes from --tz)")
        }
        let s0 = try view(ctx)
        let u = try member(s0, ctx).user
        let m0 = try myMeeting(s0, u, ctx.operands[0])
        let other = m0.organizer == u ? m0.attendee : m0.organizer
        let tz = ctx.option("tz") ?? m0.timezone
        guard validZone(tz) else { throw .usage("--tz must be an IANA time zone like America/New_York, not '\(tz)'") }
        if tz != m0.timezone { try hostMeetingZone(ctx, tz, s0, u, other) }
        let zone = try zoneOption(tz, "--tz")
        guard let local = localAt(raw, zone: zone, now: ctx.now) else { throw .usage("--at must be a local time like \"2026-11-24 18:00\"") }
        try existingTime(local, zone, tz)
        if zone.resolve(local) < ctx.now { throw .usage("--at \(local.day) \(local.time) (\(tz)) is in the past") }
        let (mt, names) = try write(ctx, folder: try pairWrite(ctx, s0, u, other)) { (tx) throws(ToolError) -> (Meeting, [String: String]) in
            tx.record(["type": "meeting_move", "id": .string(m0.id), "start": .string(local.description), "timezone": .string(tz)])
            return (tx.state.meetings[m0.id] ?? m0, tx.state.members.mapValues(\.name))
        }
        ctx.out.emit(meetingRecord(mt, names: names, ctx: ctx), text: "Moved the check-in with \((names[other] ?? other).terminalSafe) to \(mt.start.day) at \(mt.start.time) (\(mt.timezone.terminalSafe))")
        return .ok
    }

    /// Refuses, in a host pool, a meeting's zone no member has (see
    /// `hostMeetingZoneRefusal`); a synced pool takes any zone.
    static func hostMeetingZone(_ ctx: Context, _ tz: String, _ s: HabitmatchState, _ me: String, _ other: String) throws(ToolError) {
        guard try pool(ctx).kind == .host, let why = hostMeetingZoneRefusal(tz, members: s.members, me: me, other: other) else { return }
        throw ToolError(.usage, why)
    }

    /// Refuses a wall time the zone's clocks skip (a spring-forward gap):
    /// it would silently become another hour.
    static func existingTime(_ l: LocalDateTime, _ zone: Zone, _ name: String) throws(ToolError) {
        if zone.candidates(for: l).isEmpty {
            throw ToolError(.usage, "--at \(l.day) \(l.time) does not exist in \(name) (the clocks skip that hour that day): pick another time")
        }
    }

    /// A meeting of yours by id (or a unique prefix).
    static func myMeeting(_ s: HabitmatchState, _ u: String, _ raw: String) throws(ToolError) -> Meeting {
        let mine = s.meetings.values.filter { ($0.organizer == u || $0.attendee == u) && s.isMatch($0.organizer, $0.attendee) }
        let hits = mine.filter { $0.id == raw || $0.id.hasPrefix(raw) }
        guard hits.count == 1, let m = hits.first else {
            throw ToolError(.dataError, hits.isEmpty ? "no meeting '\(raw)' of yours (habitmatch meetings lists them)" : "'\(raw)' matches \(hits.count) meetings; give more of the id")
        }
        return m
    }

    /// A meeting as a record, with its next occurrence in the local zone.
    static func meetingRecord(_ m: Meeting, names: [String: String], ctx: Context) -> JSONObject {
        let next = m.next(after: ctx.now)
        return ["type": "meeting", "id": .string(m.id), "organizer": .string(m.organizer), "with": .string(m.attendee),
                "start": .string(m.start.description), "timezone": .string(m.timezone), "minutes": JSON(m.minutes), "weekly": .bool(m.weekly),
                "next": JSON(next.map(ctx.zone.format)), "description": .string(m.description)]
    }
}
