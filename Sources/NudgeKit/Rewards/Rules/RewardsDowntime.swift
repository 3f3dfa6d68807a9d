// Downtime, limits by weekday and a parent's lock: when reward apps may not
// run at all, whatever the balance, as Family Link's bedtime, Screen Time's
// downtime and timekpr-nExT's allowed hours have it. A downtime window
// belongs to the day it starts on ("20:30-07:00" on Sunday ends Monday at
// seven); `downtime` is every day's, `downtime_mon` … `downtime_sun` one
// weekday's instead; the same for `daily_reward_limit_minutes_mon` … . All
// in the family's zone, by its wall clock (a DST day's window keeps its
// times).
//
// Invariants: a window is stored as one whole number (0: none; -1 in a
// weekday's key: as every day's) and read back the same; whether an
// instant is in downtime and when the next downtime starts are pure
// functions of the settings, the instant and the zone.

extension RewardsEngine {
    /// Minutes of the day a window runs: from `from` to `to` (to ≤ from: past midnight, into the next day).
    public struct Window: Equatable, Sendable, CustomStringConvertible {
        public var from: Int  // 0..<1440
        public var to: Int  // 0...1440

        /// "20:30-07:00" (also "8:30pm-7am", an en dash, "24:00" as the day's end), or nil.
        public static func parse(_ raw: String) -> Window? {
            let parts = raw.replacingAll("–", "-").lowercased().split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let f = minutes(parts[0]), let t = minutes(parts[1]), f < 1440, f != t else { return nil }
            return Window(from: f, to: t)
        }

        /// "07:00", "20:30", "20", "7am", "8:30pm", "24:00" as minutes of the
        /// day. An hour a person may mean either way is nil, never guessed:
        /// one digit with no am/pm ("8", "8:30": 08:00 or 20:00?) and a bare
        /// 10, 11 or 12 ("8-7" had read as 08:00 to 07:00, 23 hours).
        static func minutes(_ raw: Substring) -> Int? {
            var s = String(raw).trimmingSpaces
            if s == "24:00" || s == "24" { return 1440 }
            var add = -1
            if s.hasSuffix("am") || s.hasSuffix("pm") { add = s.hasSuffix("pm") ? 720 : 0; s = String(s.dropLast(2)).trimmingSpaces }
            let colon = s.contains(":")
            if !colon { s += ":00" }
            // The 24-hour reading Core has; then am/pm on top.
            guard let t = TimeOfDay.parse(s), t.second == 0, s.count <= 5 else { return nil }
            if add >= 0 {
                guard (1...12).contains(t.hour) else { return nil }
                return (t.hour % 12) * 60 + add + t.minute
            }
            let hourDigits = s.prefix { $0 != ":" }.count
            if (hourDigits == 1 && t.hour > 0) || (!colon && (10...12).contains(t.hour)) { return nil }
            return t.hour * 60 + t.minute
        }

        static func clock(_ m: Int) -> String { m == 1440 ? "24:00" : TimeOfDay(hour: m / 60, minute: m % 60).description }

        public var description: String { "\(Window.clock(from))-\(Window.clock(to))" }

        /// One whole number for the store: 1 + from × 1441 + to.
        public var encoded: Int { 1 + from * 1441 + to }
        public static let encodedRange = 0...(1 + 1439 * 1441 + 1440)

        public init(from: Int, to: Int) { self.from = from; self.to = to }

        public init?(encoded v: Int) {
            guard v >= 1, Window.encodedRange.contains(v) else { return nil }
            let (f, t) = ((v - 1) / 1441, (v - 1) % 1441)
            guard f < 1440, f != t else { return nil }
            self.init(from: f, to: t)
        }

        /// Whether it runs past midnight into the next day.
        public var overnight: Bool { to <= from }
    }

    /// Weekday keys' suffixes, Sunday first (as `Day.weekday` counts).
    public static let weekdayKeys = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    /// Seconds since the epoch that mean "until a parent lifts it".
    public static let lockedForever = 253_402_300_799  // 9999-12-31T23:59:59Z
}

extension RewardsEngine.Settings {
    /// The downtime window that starts on a day of this weekday (0 Sunday), if any.
    public func downtime(weekday w: Int) -> RewardsEngine.Window? {
        let v = downtimeByDay[w] >= 0 ? downtimeByDay[w] : downtime
        return RewardsEngine.Window(encoded: v)
    }

    /// These settings on day `d`: its weekday's cap of reward minutes as the daily one.
    public func on(_ d: Day) -> RewardsEngine.Settings {
        var s = self
        s.dailyRewardLimitMinutes = dailyRewardLimit(on: d)
        return s
    }

    /// The day's cap of reward minutes: its weekday's, else every day's.
    public func dailyRewardLimit(on d: Day) -> Int {
        rewardLimitByDay[d.weekday] >= 0 ? rewardLimitByDay[d.weekday] : dailyRewardLimitMinutes
    }

    /// The instants a window that starts on `d` runs between, by the wall
    /// clock: a time the clocks skip (02:30 on a spring-forward night) is
    /// the first moment after the gap (03:00), not an hour on.
    func span(_ w: RewardsEngine.Window, on d: Day, zone: Zone) -> (start: Instant, end: Instant) {
        func at(_ day: Day, _ m: Int) -> Instant {
            let l = LocalDateTime(day: day, time: TimeOfDay(hour: m / 60, minute: m % 60))
            var t = zone.resolve(l)
            guard zone.candidates(for: l).isEmpty else { return t }
            // In a gap: back, a minute at a time (a gap is an hour or two), while the wall clock is at or past it.
            for _ in 0..<240 where zone.local(Instant(ms: t.ms - 60_000)).wallSeconds >= l.wallSeconds { t = Instant(ms: t.ms - 60_000) }
            return t
        }
        let start = at(d, w.from)
        let endDay = w.overnight ? d.adding(days: 1) : d
        let end = w.to == 1440 ? zone.startOfDay(endDay.adding(days: 1)) : at(endDay, w.to)
        return (start, end)
    }

    /// The downtime `now` is in, or else the next one to start within a
    /// week: its start and end (a downtime that runs into the next day's
    /// is one, until the later end).
    public func downtimeAround(_ now: Instant, zone: Zone) -> (start: Instant, end: Instant)? {
        let today = zone.day(of: now)
        var found: (start: Instant, end: Instant)? = nil
        for k in -1...7 {
            let d = today.adding(days: k)
            guard let w = downtime(weekday: d.weekday) else { continue }
            let s = span(w, on: d, zone: zone)
            if var f = found {
                // Joined to the one found: one downtime.
                guard s.start <= f.end else { break }
                f.end = max(f.end, s.end)
                found = f
            } else if s.end > now {
                found = s
            }
        }
        return found
    }

    /// The downtimes from the one `now` is in (or the next) for about a
    /// week, each joined with those it runs into: what a status file
    /// carries so that a reader later knows them.
    public func downtimes(from now: Instant, zone: Zone) -> [(start: Instant, end: Instant)] {
        var out: [(start: Instant, end: Instant)] = []
        var t = now
        while out.count < 8, let d = downtimeAround(t, zone: zone) {
            out.append(d)
            guard d.end > t else { break }
            t = d.end
        }
        return out
    }

    /// Whether reward apps may not run at `now`: locked by a parent, or in downtime.
    public func blocked(at now: Instant, zone: Zone) -> (why: String, until: Instant)? {
        if Int64(lockedUntil) > now.seconds { return ("locked", Instant(seconds: Int64(lockedUntil))) }
        if let d = downtimeAround(now, zone: zone), d.start <= now { return ("downtime", d.end) }
        return nil
    }
}

extension RewardsEngine {
    /// When a lock ends, from `--for` or `--until` (neither: until lifted):
    /// a duration (1m to 7d), the next "18:00" or "6pm", or a date-time up
    /// to a year ahead. Seconds since the epoch.
    public static func lockEnd(for f: String?, until u: String?, now: Instant, zone: Zone) throws(ToolError) -> Int {
        if f != nil && u != nil { throw .usage("give --for or --until, not both") }
        if let f = f {
            guard let m = Durations.minutes(f) else {
                throw .usage("--for is a duration from 1m to 7d like 30m, 2h or 1d, not '\(f.prefix(40).terminalSafe)'")
            }
            return min(lockedForever, Int(now.seconds) + m * 60)
        }
        guard let u = u else { return lockedForever }
        let accepted = "a time like 18:00 or 6pm (the next one), or a date-time up to a year ahead like 2026-12-01T07:00:00-05:00; with neither option, until 'rewards unlock'"
        if let t = RFC3339.parse(u)?.instant {
            guard t > now else { throw .usage("--until \(u.prefix(40).terminalSafe) has passed: give \(accepted)") }
            guard t.seconds - now.seconds <= 366 * 86_400 else { throw .usage("--until \(u.prefix(40).terminalSafe) is more than a year ahead: give \(accepted)") }
            return Int(t.seconds)
        }
        guard let m = Window.minutes(Substring(u.lowercased())), m < 1440 else {
            throw .usage("--until is \(accepted); an hour before 10 needs its zero or am/pm (08:00, 8pm); not '\(u.prefix(40).terminalSafe)'")
        }
        let today = zone.day(of: now)
        var t = zone.resolve(LocalDateTime(day: today, time: TimeOfDay(hour: m / 60, minute: m % 60)))
        if t <= now { t = zone.resolve(LocalDateTime(day: today.adding(days: 1), time: TimeOfDay(hour: m / 60, minute: m % 60))) }
        return Int(t.seconds)
    }
}

extension RewardsEngine.Settings {
    /// What the log says of a setting's change.
    /// `local`: the lock's end as its writer's clock showed it.
    public static func describe(who: String, key k: String, child: String?, before: Int?, after: Int, local: String? = nil) -> String {
        if k == "locked_until" {
            let whose = child.map { "\($0)'s" } ?? "the family's"
            if after == 0 { return "\(who) lifted the lock on \(whose) reward time" }
            let shown = local.flatMap { RFC3339.parse($0)?.instant.seconds == Int64(after) ? $0 : nil } ?? display(k, after)
            return "\(who) locked \(whose) reward time " + (after >= RewardsEngine.lockedForever ? "until lifted" : "until \(shown)")
        }
        return "\(who) updated \(k)\(child.map { " for " + $0 } ?? "") from \(before.map { display(k, $0) } ?? "unset") to \(display(k, after))"
    }

    /// A child's own value taken away, in the log.
    public static func describeDefault(who: String, key k: String, child: String, before: Int, after: Int) -> String {
        "\(who) set \(k) for \(child) back to the family's (\(display(k, after)); it was \(display(k, before)))"
    }
}
