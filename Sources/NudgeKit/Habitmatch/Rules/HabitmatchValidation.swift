// habitmatch's domain: habits, members of a pool, matching, progress
// streaks, meetings and their iCalendar form. Pure values and functions.

public enum Habitmatch {
    public static let maxHabits = 3
    public static let defaultMaxBuddies = 3
    public static let maxMeetingMinutes = 30

    /// The built-in catalog: stable ids, names a person reads.
    public static let catalog: [(id: String, name: String)] = [
        ("exercise", "Exercise"), ("meditate", "Meditate"), ("read", "Read every day"), ("journal", "Keep a journal"),
        ("sleep-early", "Go to bed by 11"), ("wake-early", "Wake up early"), ("water", "Drink enough water"),
        ("walk", "Walk 10,000 steps"), ("language", "Learn a language"), ("instrument", "Practise an instrument"),
        ("vegetables", "Eat vegetables"), ("no-sugar", "No added sugar"), ("stretch", "Stretch"), ("code", "Code every day"),
        ("gratitude", "Write three gratitudes"), ("no-phone-bed", "No phone in bed"),
    ]

    /// A habit from the catalog (by id or name) or `other:TEXT`.
    public static func habit(_ raw: String) throws(ToolError) -> (id: String, name: String) {
        let t = raw.trimmingSpaces
        if let c = catalog.first(where: { $0.id == t.lowercased() || $0.name.lowercased() == t.lowercased() }) { return c }
        if t.lowercased().hasPrefix("other:") {
            let text = String(t.dropFirst(6)).trimmingSpaces
            guard !text.isEmpty, text.count <= 60 else { throw .usage("an own habit is other:TEXT, with 1 to 60 characters") }
            var slug = ""
            for ch in text.lowercased().unicodeScalars {
                if (ch >= "a" && ch <= "z") || (ch >= "0" && ch <= "9") { slug.unicodeScalars.append(ch) } else if !slug.hasSuffix("-") { slug += "-" }
            }
            while slug.hasSuffix("-") { slug.removeLast() }
            // Text in other scripts: a slug from a hash of the words, so
            // different habits keep different ids.
            if slug.isEmpty { slug = "u-" + String(Playa.stableHash(text.lowercased()) & 0xFFFF_FFFF, radix: 16) }
            return ("other:" + String(slug.prefix(60)), text)
        }
        let hint = Suggest.nearest(t.lowercased(), in: catalog.map(\.id)).map { " (did you mean '\($0)'?)" } ?? ""
        throw ToolError(.usage, "unknown habit '\(t)'\(hint): see 'habitmatch catalog', or use other:TEXT")
    }

    public static let maxChat = 1000
    public static let maxDescription = 2000

    /// What a peer's journal may say, checked by the fold as by the commands.
    public static func validName(_ s: String) -> String? {
        let t = s.trimmingSpaces
        return (1...60).contains(t.count) && t.utf8.count <= 240 ? t : nil
    }
    public static func validBio(_ s: String) -> String? { s.count <= 280 && s.utf8.count <= 1120 ? s : nil }
    public static func validEmail(_ s: String) -> String? {
        guard s.utf8.count <= 254, let at = s.firstIndex(of: "@"), at != s.startIndex, s.index(after: at) != s.endIndex else { return nil }
        for u in s.unicodeScalars where u.value <= 0x20 || u == "<" || u == ">" || u == "\"" || u == ":" || u == ";" || u == "," || u.value == 0x7F { return nil }
        return s
    }
    /// An IANA zone name (letters, digits, `/_+-`), never a path.
    public static func validZone(_ s: String) -> Bool {
        guard !s.isEmpty, s.utf8.count <= 64, !s.hasPrefix("/"), !s.contains(".."), !s.hasPrefix("-") else { return false }
        for u in s.unicodeScalars {
            let ok = (u >= "a" && u <= "z") || (u >= "A" && u <= "Z") || (u >= "0" && u <= "9") || u == "/" || u == "_" || u == "+" || u == "-"
            if !ok { return false }
        }
        return (try? Zone.named(s)) != nil
    }
    public static func validID(_ s: String) -> Bool {
        guard (1...40).contains(s.utf8.count) else { return false }
        return s.unicodeScalars.allSatisfy { ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "-" }
    }
    public static func validHabit(id: String, name: String) -> Bool {
        if let n = HabitmatchState.catalogNames[id] { return n == name || validName(name) != nil }
        guard id.hasPrefix("other:"), validName(name) != nil else { return false }
        let slug = id.dropFirst(6)
        return (1...60).contains(slug.utf8.count) && slug.unicodeScalars.allSatisfy { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "-" }
    }

    /// A member's report about another, for the pool's owner.
    public struct Report: Equatable, Sendable {
        public var reporter: String
        public var user: String
        public var reason: String
        public var at: Instant
    }

    public struct Habit: Equatable, Sendable {
        public var id: String
        public var name: String
        public var remindAt: TimeOfDay?
    }

    public struct Member: Equatable, Sendable {
        public var user: String
        public var name: String
        public var email: String?
        public var timezone: String
        public var bio: String
        public var habits: [Habit]
        public var joinedAt: Instant
        public var lastActive: Instant

        public var habitIDs: Set<String> { Set(habits.map(\.id)) }
    }

    /// Hours between two zones' offsets now: smaller is easier to meet.
    public static func zoneDistance(_ a: String, _ b: String, at t: Instant) -> Int {
        let za = (try? Zone.named(a)) ?? .utc, zb = (try? Zone.named(b)) ?? .utc
        let d = abs(za.offset(at: t) - zb.offset(at: t)) / 60
        return min(d, 24 * 60 - d)
    }

    public struct Candidate: Equatable, Sendable {
        public var member: Member
        public var shared: [String]
        public var zoneMinutes: Int
        public var passedBefore: Bool
    }

    /// Other members who share a habit, best first: most shared habits, then
    /// the closest timezone, then the most recently active. Yourself and
    /// anyone you liked, matched or buddied are left out. When nobody new is
    /// left, the ones you passed come round again.
    public static func candidates(for me: Member, in pool: [Member], liked: Set<String>, passed: Set<String>,
                                  matched: Set<String>, buddies: Set<String>, now: Instant,
                                  zoneMinutes: (String, String) -> Int) -> [Candidate] {
        let mine = me.habitIDs
        var fresh: [Candidate] = []
        var again: [Candidate] = []
        for m in pool where m.user != me.user && !liked.contains(m.user) && !matched.contains(m.user) && !buddies.contains(m.user) {
            let shared = mine.intersection(m.habitIDs)
            if shared.isEmpty { continue }
            let c = Candidate(member: m, shared: shared.sorted(), zoneMinutes: zoneMinutes(me.timezone, m.timezone),
                              passedBefore: passed.contains(m.user))
            if c.passedBefore { again.append(c) } else { fresh.append(c) }
        }
        func better(_ a: Candidate, _ b: Candidate) -> Bool {
            if a.shared.count != b.shared.count { return a.shared.count > b.shared.count }
            if a.zoneMinutes != b.zoneMinutes { return a.zoneMinutes < b.zoneMinutes }
            if a.member.lastActive != b.member.lastActive { return a.member.lastActive > b.member.lastActive }
            return a.member.user < b.member.user
        }
        return fresh.isEmpty ? again.sorted(by: better) : fresh.sorted(by: better)
    }

    // MARK: Progress

    /// Current and longest streak of consecutive done days. The current one
    /// ends today, or yesterday while today is not marked yet.
    public static func streaks(_ done: Set<Day>, today: Day) -> (current: Int, longest: Int) {
        var longest = 0
        var run = 0
        var prev: Day? = nil
        for d in done.sorted() where d <= today {
            run = (prev.map { d - $0 == 1 } ?? false) ? run + 1 : 1
            longest = max(longest, run)
            prev = d
        }
        var current = 0
        var d = done.contains(today) ? today : today.adding(days: -1)
        while done.contains(d) { current += 1; d = d.adding(days: -1) }
        return (current, longest)
    }

    /// The month's days as calendar rows (weeks starting Monday); nil pads.
    public static func monthGrid(year: Int, month: Int) -> [[Day?]] {
        let first = Day(year: year, month: month, day: 1)
        var rows: [[Day?]] = []
        var row = [Day?](repeating: nil, count: (first.weekday + 6) % 7)
        for n in 1...Day.daysInMonth(year: year, month: month) {
            row.append(Day(year: year, month: month, day: n))
            if row.count == 7 { rows.append(row); row = [] }
        }
        if !row.isEmpty { rows.append(row + [Day?](repeating: nil, count: 7 - row.count)) }
        return rows
    }

    public static let milestones = [7, 30, 100]

    public static let defaultChecklist = """
        Check-in (30 minutes at most):
        1. What did you get done since we last spoke? Mark it on your calendar.
        2. Where did you slip, and what got in the way?
        3. What is the one thing you will do differently this week?
        4. When, exactly, will you do the habit on the hard days?
        5. How can I help you before we next speak?
        """

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

        public func startInstant() -> Instant { ((try? Zone.named(timezone)) ?? .utc).resolve(start) }

        /// The next occurrence that has not ended by `now`, nil when over.
        public func next(after now: Instant) -> Instant? {
            let zone = (try? Zone.named(timezone)) ?? .utc
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
}

// MARK: - iCalendar (RFC 5545)

extension Habitmatch {
    /// A calendar of meetings. `emails` maps users to addresses, for
    /// ORGANIZER and ATTENDEE; `names` to display names.
    public static func meetingsCalendar(_ meetings: [Habitmatch.Meeting], emails: [String: String], names: [String: String], now: Instant) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//nudge-tools//habitmatch 0.1.0//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH"]
        // A meeting's zone, when it is one with a VTIMEZONE (not UTC, not unknown).
        func zone(_ m: Habitmatch.Meeting) -> Zone? {
            guard let z = try? Zone.named(m.timezone), z.name != "UTC" else { return nil }
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
                      "SUMMARY:\(ICS.escape("Habit check-in: \(who[0]) and \(who[1])"))", "DESCRIPTION:\(ICS.escape(m.description))"]
            if let e = emails[m.organizer] { lines.append("ORGANIZER;CN=\(ICS.param(names[m.organizer] ?? m.organizer)):mailto:\(e)") }
            if let e = emails[m.attendee] { lines.append("ATTENDEE;CN=\(ICS.param(names[m.attendee] ?? m.attendee));RSVP=TRUE:mailto:\(e)") }
            if m.weekly { lines.append("RRULE:FREQ=WEEKLY") }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return ICS.text(lines)
    }
}
