// rewards' settings: each key with its default, its range and what it
// means. The family has one set; a child's own keys override it for that
// child (`RewardsState.settings(for:)`).
//
// Invariants: a value outside its range is refused with the range named;
// `ranges` lists every key `value` and `set` know.

extension RewardsEngine {
    /// Settings with their documented defaults and ranges.
    public struct Settings: Equatable, Sendable {
        public var conversionRate = 10  // points per reward minute
        public var pointsPerHour = 60  // default for learning apps
        public var minSessionMinutes = 5
        public var maxSessionMinutes = 240  // longer is held for review
        public var dailyGoalMinutes = 60
        public var dailyRewardLimitMinutes = 120
        public var weeklyRewardLimitMinutes = 600
        public var maxPointsPerDay = 300
        /// Sessions that started longer ago earn nothing (`too_old`), so that
        /// old usage ingested late is not a way to collect a daily cap for
        /// each of its days.
        public var maxSessionAgeDays = 7
        /// Sessions of one app less than this many seconds apart (an
        /// alt-tab) are one for the minimum-session rule.
        public var mergeGapSeconds = 60
        /// 1: send this person notifications, 0: do not (a child's, or the parents' family-wide).
        public var notify = 1
        /// Every day's downtime window (`Window.encoded`; 0: none).
        public var downtime = 0
        /// One weekday's downtime instead (Sunday first; -1: as every day's).
        public var downtimeByDay = [Int](repeating: -1, count: 7)
        /// One weekday's cap of reward minutes instead (-1: as every day's).
        public var rewardLimitByDay = [Int](repeating: -1, count: 7)
        /// Reward apps may not run before this (seconds since the epoch; 0: not locked).
        public var lockedUntil = 0

        public init() {}

        /// How a key's value reads and is written.
        public enum Kind: Sendable { case number, window, weekdayWindow, weekdayNumber, lock }

        public static let ranges: [(key: String, range: ClosedRange<Int>, help: String, kind: Kind)] = numbers.map { ($0.key, $0.range, $0.help, Kind.number) }
            + [("downtime", RewardsEngine.Window.encodedRange, "hours no reward app may run, whatever the balance: HH:MM-HH:MM (past midnight: into the next day) or off", .window)]
            + RewardsEngine.weekdayKeys.map { ("downtime_\($0)", -1...RewardsEngine.Window.encodedRange.upperBound, "the downtime that starts on a \(dayName($0)) instead: HH:MM-HH:MM, off, or default", .weekdayWindow) }
            + RewardsEngine.weekdayKeys.map { ("daily_reward_limit_minutes_\($0)", -1...1440, "reward minutes that may be granted on a \(dayName($0)) instead: 0 to 1440, or default", .weekdayNumber) }
            + [("locked_until", 0...RewardsEngine.lockedForever, "reward apps may not run before this ('rewards lock', 'rewards unlock')", .lock)]

        static func dayName(_ k: String) -> String { Day.weekdayNames[RewardsEngine.weekdayKeys.firstIndex(of: k) ?? 0] }

        static let numbers: [(key: String, range: ClosedRange<Int>, help: String)] = [
            ("conversion_rate", 1...1000, "points per reward minute"),
            ("points_per_hour", 1...10_000, "default points per hour of a learning app"),
            ("min_session_minutes", 0...120, "sessions shorter than this earn nothing"),
            ("merge_gap_seconds", 0...3600, "sessions of one app less than this apart are one for min_session_minutes"),
            ("max_session_minutes", 1...1440, "longer sessions are held for review"),
            ("daily_goal_minutes", 1...1440, "learning minutes a day to reach the goal"),
            ("daily_reward_limit_minutes", 0...1440, "reward minutes that may be granted a day"),
            ("weekly_reward_limit_minutes", 0...10_080, "reward minutes that may be granted a week"),
            ("max_points_per_day", 1...100_000, "points that may be earned a day"),
            ("max_session_age_days", 1...3650, "sessions that started more than this many days ago earn nothing"),
            ("notify", 0...1, "1 to send notifications, 0 not (--child: that child's; else the parents')"),
        ]

        public func value(_ key: String) -> Int? {
            switch key {
            case "conversion_rate": return conversionRate
            case "points_per_hour": return pointsPerHour
            case "min_session_minutes": return minSessionMinutes
            case "max_session_minutes": return maxSessionMinutes
            case "daily_goal_minutes": return dailyGoalMinutes
            case "daily_reward_limit_minutes": return dailyRewardLimitMinutes
            case "weekly_reward_limit_minutes": return weeklyRewardLimitMinutes
            case "max_points_per_day": return maxPointsPerDay
            case "max_session_age_days": return maxSessionAgeDays
            case "merge_gap_seconds": return mergeGapSeconds
            case "notify": return notify
            case "downtime": return downtime
            case "locked_until": return lockedUntil
            default:
                if let w = weekday(key, "downtime_") { return downtimeByDay[w] }
                if let w = weekday(key, "daily_reward_limit_minutes_") { return rewardLimitByDay[w] }
                return nil
            }
        }

        func weekday(_ key: String, _ prefix: String) -> Int? {
            key.hasPrefix(prefix) ? RewardsEngine.weekdayKeys.firstIndex(of: String(key.dropFirst(prefix.count))) : nil
        }

        /// A key's value as a person reads it ("20:30-07:00", "off", "default", a time).
        public func display(_ key: String) -> String {
            Settings.display(key, value(key) ?? 0)
        }

        public static func display(_ key: String, _ v: Int) -> String {
            switch ranges.first(where: { $0.key == key })?.kind ?? .number {
            case .number: return String(v)
            case .weekdayNumber: return v < 0 ? "default" : String(v)
            case .window, .weekdayWindow: return v < 0 ? "default" : RewardsEngine.Window(encoded: v)?.description ?? "off"
            case .lock:
                return v == 0 ? "unlocked" : v >= RewardsEngine.lockedForever ? "until lifted" : RFC3339.format(Instant(seconds: Int64(v)), offsetSeconds: 0)
            }
        }

        /// Sets a stored value (a peer's event, the snapshot): false if the key or value is not one the CLI has.
        @discardableResult
        public mutating func put(_ key: String, _ v: Int) -> Bool {
            guard let r = Settings.ranges.first(where: { $0.key == key }), r.range.contains(v) else { return false }
            if r.kind == .window || r.kind == .weekdayWindow, v > 0, RewardsEngine.Window(encoded: v) == nil { return false }
            switch key {
            case "conversion_rate": conversionRate = v
            case "points_per_hour": pointsPerHour = v
            case "min_session_minutes": minSessionMinutes = v
            case "max_session_minutes": maxSessionMinutes = v
            case "daily_goal_minutes": dailyGoalMinutes = v
            case "daily_reward_limit_minutes": dailyRewardLimitMinutes = v
            case "weekly_reward_limit_minutes": weeklyRewardLimitMinutes = v
            case "notify": notify = v
            case "max_session_age_days": maxSessionAgeDays = v
            case "merge_gap_seconds": mergeGapSeconds = v
            case "max_points_per_day": maxPointsPerDay = v
            case "downtime": downtime = v
            case "locked_until": lockedUntil = v
            default:
                if let w = weekday(key, "downtime_") { downtimeByDay[w] = v } else if let w = weekday(key, "daily_reward_limit_minutes_") { rewardLimitByDay[w] = v } else { return false }
            }
            return true
        }

        /// Parses what a person typed for `key`, checked: the stored value,
        /// or an error that says what is accepted.
        public static func parse(_ key: String, _ raw: String) throws(ToolError) -> Int {
            guard let r = Settings.ranges.first(where: { $0.key == key }) else {
                let keys = Settings.ranges.filter { $0.kind != .lock }.map(\.key)
                throw ToolError(.usage, "unknown setting '\(key)'" + (Suggest.nearest(key, in: keys).map { " (did you mean '\($0)'?)" } ?? "")
                                + "; settings: " + keys.joined(separator: ", "))
            }
            let word = raw.trimmingSpaces.lowercased()
            switch r.kind {
            case .lock:
                throw ToolError(.usage, "locked_until is set by 'rewards lock CHILD' and 'rewards unlock CHILD'")
            case .window, .weekdayWindow:
                if word == "off" || word == "none" { return 0 }
                if r.kind == .weekdayWindow && word == "default" { return -1 }
                guard let w = RewardsEngine.Window.parse(word) else {
                    throw ToolError(.usage, "\(key) is a span of the day like 20:30-07:00 or 8:30pm-7am (past midnight runs into the next day; an hour before 10 needs its zero or am/pm), or off\(r.kind == .weekdayWindow ? ", or default (as downtime)" : ""), not '\(raw.terminalSafe)'")
                }
                return w.encoded
            case .weekdayNumber:
                if word == "default" { return -1 }
                guard let v = Int(word), (0...1440).contains(v) else {
                    throw ToolError(.usage, "\(key) is \(r.help.prefix { $0 != ":" }): a whole number from 0 to 1440, or default, not '\(raw.terminalSafe)'")
                }
                return v
            case .number:
                guard let v = Int(raw), r.range.contains(v) else {
                    throw ToolError(.usage, "\(key) must be a whole number from \(r.range.lowerBound) to \(r.range.upperBound) (\(r.help)), not '\(raw.terminalSafe)'")
                }
                return v
            }
        }

        /// Sets a value as a person typed it, after checking it; the error says what is accepted.
        public mutating func set(_ key: String, _ raw: String) throws(ToolError) {
            put(key, try Settings.parse(key, raw))
        }
    }
}
