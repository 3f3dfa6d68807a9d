// What `remind` tells a member at a given time, as notification records
// with the keys that make each one happen once: a new match, a habit not
// done by its reminder time, a streak milestone, a meeting about to start.
//
// Invariants: pure over the state and the time; a key already recorded as
// reminded is never offered again; a habit reminder comes only on a day the
// habit is not done (nor a rest day, nor one its period is done enough in), after its time in the member's zone; a meeting is
// announced from 15 minutes before its start until its end, so a late cron
// run still tells.

extension Habitmatch {
    /// What `remind` would say to `u` at `now`, with the keys that make each once.
    public static func reminders(_ s: HabitmatchState, user u: String, now: Instant,
                                 commandPrefix pre: String = "habitmatch") -> [(key: String, notification: JSONObject)] {
        guard let m = s.members[u] else { return [] }
        let zone = ZoneCache.named(m.timezone) ?? .utc
        let today = zone.day(of: now)
        let seen = s.reminded[u] ?? []
        var out: [(String, JSONObject)] = []
        for v in s.matches(of: u).sorted() where !seen.contains("match|\(v)") {
            if let o = s.members[v] { out.append(("match|\(v)", matchNotification(o, u, commandPrefix: pre))) }
        }
        for h in m.habits {
            let p = s.progress(u, h, today: today)
            // Not on a rest day, nor on a day its period is already done enough.
            let rest = h.every.weekdays.map { !$0.contains(today.weekday) } ?? false
            if let t = h.remindAt, !rest, p.mark(today) == .no, zone.resolve(LocalDateTime(day: today, time: t)) <= now {
                let key = "habit|\(h.id)|\(today)"
                if !seen.contains(key) {
                    out.append((key, NotificationRecord(tool: "habitmatch", id: key, title: "\(h.name): not done yet today",
                                                        body: "Keep the streak going (\(p.current) so far).",
                                                        actions: [NotificationAction(id: "done", label: "Done", command: "\(pre) done \(ToolSpec.shQuote(h.id))")]).record))
                }
            }
            for ms in milestones where p.current >= ms {
                let start = (p.mark(today) != .no ? today : today.adding(days: -1)).adding(days: -(p.current - 1))
                let key = "milestone|\(h.id)|\(ms)|\(start)"
                if !seen.contains(key) {
                    out.append((key, NotificationRecord(tool: "habitmatch", id: key, title: "\(ms) days of \(h.name)!",
                                                        body: "A \(ms)-day streak. Tell your buddies.").record))
                }
            }
        }
        for mt in myMeetings(s, u, now: now) {
            // From 15 minutes before the start until its end: a late cron run still tells.
            guard let n = mt.next(after: now), n.ms - now.ms <= 15 * 60_000, n.ms + Int64(mt.minutes) * 60_000 > now.ms else { continue }
            let key = "meeting|\(mt.id)|\(n.ms)"
            if seen.contains(key) { continue }
            let other = mt.organizer == u ? mt.attendee : mt.organizer
            // How each of you is doing this week: yours, and a buddy's (a
            // match who is not one yet sees only their own).
            let who = [u] + (s.isBuddy(u, other) ? [other] : [])
            let lines = who.flatMap { checkinLines(s, $0, now: now) }
            let body = mt.description + (lines.isEmpty ? "" : "\n\nThis week:\n" + lines.map(\.text).joined(separator: "\n"))
            out.append((key, NotificationRecord(tool: "habitmatch", id: key, title: "Check-in with \(s.members[other]?.name ?? other) at \(zone.local(n).time)",
                                                body: body, extra: ["starts": .string(zone.format(n)), "progress": .array(lines.map { .object($0.record) })]).record))
        }
        return out
    }

    /// A member's habits this week, for a check-in: done against what the
    /// frequency asks, strength and streak, in their own days.
    static func checkinLines(_ s: HabitmatchState, _ u: String, now: Instant) -> [(text: String, record: JSONObject)] {
        guard let m = s.members[u] else { return [] }
        let today = (ZoneCache.named(m.timezone) ?? .utc).day(of: now)
        return m.habits.map { h in
            let p = s.progress(u, h, today: today)
            let week = periods(p, h, today: today, byMonth: false).last
            let done = week.map { "\(number($0.done))/\(number(($0.expected * 10).rounded() / 10))" } ?? "0"
            var r: JSONObject = ["user": .string(u), "habit": .string(h.id), "week_done": .double(week?.done ?? 0),
                                 "week_expected": .double(week?.expected ?? 0)]
            for (k, v) in progressFields(h, p, today: today).fields { r[k] = v }
            return ("\(m.name): \(h.name), \(done) this week (\(h.every.described)), strength \(Int((p.strength(today) * 100).rounded()))%, streak \(p.current)", r)
        }
    }

    /// The notification of a new match with `other`, as `me` sees it.
    static func matchNotification(_ other: Member, _ me: String, commandPrefix pre: String = "habitmatch") -> JSONObject {
        NotificationRecord(tool: "habitmatch", id: "match-\(HabitmatchState.pair(me, other.user))", title: "It's a match: \(other.name)",
                           body: "You both want to keep it up. Say hello: habitmatch chat \(other.user) TEXT",
                           actions: [NotificationAction(id: "chat", label: "Chat", command: "\(pre) chat \(ToolSpec.shQuote(other.user))"),
                                     NotificationAction(id: "accept", label: "Make buddies", command: "\(pre) buddy accept \(ToolSpec.shQuote(other.user))")]).record
    }
}
