// Check-ins: what a meeting is, when it next happens, which are yours, and
// the iCalendar (RFC 5545) file of them.
//
// Invariants: a meeting's start is a local time in its own zone, resolved
// through that zone's rules on every occurrence (a weekly one keeps its
// local hour across daylight saving); an occurrence counts until it ends;
// the calendar carries a VTIMEZONE for every zone it names other than UTC;
// every event has a SEQUENCE (moves count) and a STATUS, and a cancelled
// one stays in the file as CANCELLED while it could still be on a calendar.

extension Habitmatch {
    /// A meeting's description when `meet` is given none.
    public static let defaultChecklist = """
        Check-in (30 minutes at most):
        1. What did you get done since we last spoke? Mark it on your calendar.
        2. Where did you slip, and what got in the way?
        3. What is the one thing you will do differently this week?
        4. When, exactly, will you do the habit on the hard days?
        5. How can I help you before we next speak?
        """

    /// Why a meeting may not be set in `zone` in a host pool, or nil when it
    /// may: there it must be a zone some member of the pool has (or UTC).
    /// Every command there loads the members' zones ahead, each once, so a
    /// meeting in one of them opens no zone file a third member could watch;
    /// a zone no member has would be opened by the pair's commands only, and
    /// show that a meeting was set. Yours and the other's are named first.
    public static func hostMeetingZoneRefusal(_ zone: String, members: [String: Member], me: String, other: String) -> String? {
        let held = Set(members.values.map(\.timezone))
        if zone == "UTC" || zone == "Etc/UTC" || held.contains(zone) { return nil }
        var named: [String] = []
        for (u, whose) in [(me, "yours"), (other, "\(other)'s")] {
            if let z = members[u]?.timezone, !named.contains(where: { $0.hasSuffix(" " + z) }) { named.append("\(whose) \(z)") }
        }
        return "--tz in a host pool must be a zone a member has (\((named + ["another member's", "or UTC"]).joined(separator: ", "))), not '\(zone)': "
            + "a zone no member has is opened by the pair's commands alone, which shows others that a meeting was set"
    }

    public struct Meeting: Equatable, Sendable {
        public var id: String
        public var organizer: String
        public var attendee: String
        /// Local start in `timezone`.
        public var start: LocalDateTime
        public var timezone: String
        public var minutes: Int
        public var weekly: Bool
        public var description: String
        public var createdAt: Instant
        /// The iCalendar SEQUENCE: one more for each move, and the cancel.
        public var sequence = 0

        public func startInstant() -> Instant { (ZoneCache.named(timezone) ?? .utc).resolve(start) }

        /// The next occurrence that has not ended by `now`, nil when over.
        public func next(after now: Instant) -> Instant? {
            let zone = ZoneCache.named(timezone) ?? .utc
            var s = zone.resolve(start)
            if s.ms + Int64(minutes) * 60_000 > now.ms { return s }
            guard weekly else { return nil }
            let weeks = max(1, Int((now.ms - s.ms) / (7 * 86_400_000)))
            var d = start.day.adding(days: 7 * max(0, weeks - 1))
            for _ in 0..<4 {
                s = zone.resolve(LocalDateTime(day: d, time: start.time))
                if s.ms + Int64(minutes) * 60_000 > now.ms { return s }
                d = d.adding(days: 7)
            }
            return nil
        }
    }

    /// The meetings `u` is in that have not ended by `now`, soonest first:
    /// only while the two are a match (a block or unmatch ends them all).
    static func myMeetings(_ s: HabitmatchState, _ u: String, now: Instant) -> [Meeting] {
        s.meetings.values.filter { ($0.organizer == u || $0.attendee == u) && s.isMatch($0.organizer, $0.attendee) && $0.next(after: now) != nil }
            .sorted { ($0.next(after: now)!, $0.id) < ($1.next(after: now)!, $1.id) }
    }

    // MARK: iCalendar (RFC 5545)

    /// A calendar of meetings. `emails` maps users to addresses, for
    /// ORGANIZER and ATTENDEE; `names` to display names.
    public static func meetingsCalendar(_ meetings: [Habitmatch.Meeting], cancelled: [Habitmatch.Meeting] = [], emails: [String: String],
                                        names: [String: String], now: Instant) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//nudge-tools//habitmatch 0.1.0//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH"]
        // A meeting's zone, when it is one with a VTIMEZONE (not UTC, not unknown).
        func zone(_ m: Habitmatch.Meeting) -> Zone? {
            guard let z = ZoneCache.named(m.timezone), z.name != "UTC" else { return nil }
            return z
        }
        var zonesDone = Set<String>()
        for m in meetings where !zonesDone.contains(m.timezone) {
            zonesDone.insert(m.timezone)
            if let z = zone(m) {
                let from = m.start.day.year
                lines += ICS.vtimezone(name: m.timezone, zone: z, years: from...max(from, z.day(of: now).year) + 10)
            }
        }
        for m in meetings {
            let startLine = zone(m) != nil ? "DTSTART;TZID=\(m.timezone):\(ICS.local(m.start))" : "DTSTART:\(ICS.utc(m.startInstant()))"
            let who = [m.organizer, m.attendee].map { names[$0] ?? $0 }
            lines += ["BEGIN:VEVENT", "UID:\(m.id)@habitmatch", "DTSTAMP:\(ICS.utc(m.createdAt))", startLine, "DURATION:PT\(m.minutes)M",
                      "SEQUENCE:\(m.sequence)", "STATUS:CONFIRMED",
                      "SUMMARY:\(ICS.escape("Habit check-in: \(who[0]) and \(who[1])"))", "DESCRIPTION:\(ICS.escape(m.description))"]
            if let e = emails[m.organizer] { lines.append("ORGANIZER;CN=\(ICS.param(names[m.organizer] ?? m.organizer)):mailto:\(e)") }
            if let e = emails[m.attendee] { lines.append("ATTENDEE;CN=\(ICS.param(names[m.attendee] ?? m.attendee));RSVP=TRUE:mailto:\(e)") }
            if m.weekly { lines.append("RRULE:FREQ=WEEKLY") }
            lines.append("END:VEVENT")
        }
        // A cancelled one says so and nothing more (no names, no text), so a
        // calendar that imported it drops it.
        for m in cancelled {
            lines += ["BEGIN:VEVENT", "UID:\(m.id)@habitmatch", "DTSTAMP:\(ICS.utc(m.createdAt))", "DTSTART:\(ICS.utc(m.startInstant()))",
                      "DURATION:PT\(m.minutes)M", "SEQUENCE:\(m.sequence)", "STATUS:CANCELLED", "SUMMARY:Cancelled check-in", "END:VEVENT"]
        }
        lines.append("END:VCALENDAR")
        return ICS.text(lines)
    }
}
