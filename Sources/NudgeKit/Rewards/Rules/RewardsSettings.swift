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

        public init() {}

        public static let ranges: [(key: String, range: ClosedRange<Int>, help: String)] = [
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
            default: return nil
            }
        }

        /// Sets a value after checking it; the error says what is accepted.
        public mutating func set(_ key: String, _ raw: String) throws(ToolError) {
            guard let r = Settings.ranges.first(where: { $0.key == key }) else {
                let keys = Settings.ranges.map(\.key)
                throw ToolError(.usage, "unknown setting '\(key)'" + (Suggest.nearest(key, in: keys).map { " (did you mean '\($0)'?)" } ?? "")
                                + "; settings: " + keys.joined(separator: ", "))
            }
            guard let v = Int(raw), r.range.contains(v) else {
                throw ToolError(.usage, "\(key) must be a whole number from \(r.range.lowerBound) to \(r.range.upperBound) (\(r.help)), not '\(raw)'")
            }
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
            default: maxPointsPerDay = v
            }
        }
    }
}
