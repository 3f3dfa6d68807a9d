// rewards' points engine: validated learning time in, points out. Pure:
// sessions, away-from-keyboard spans, the apps' categories and the settings
// in; awards, reasons and flags out. Every rule has a reason code a parent
// can read.

public enum RewardsEngine {
    public enum Category: String, Sendable, CaseIterable { case learning, reward, ignore }

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

    /// A span of time, [start, end) in seconds since the epoch.
    public struct Span: Equatable, Hashable, Sendable, Comparable {
        public var start: Int64
        public var end: Int64
        public init(_ start: Int64, _ end: Int64) {
            self.start = start
            self.end = end
        }
        public var seconds: Int64 { max(0, end - start) }
        public static func < (a: Span, b: Span) -> Bool { (a.start, a.end) < (b.start, b.end) }
    }

    /// Sorted, non-overlapping spans: the union of the input.
    public static func union(_ spans: [Span]) -> [Span] {
        var out: [Span] = []
        for s in spans.filter({ $0.seconds > 0 }).sorted() {
            if let last = out.last, s.start <= last.end {
                out[out.count - 1].end = max(last.end, s.end)
            } else {
                out.append(s)
            }
        }
        return out
    }

    /// `a` minus sorted, merged spans (binary search: cheap for long days).
    public static func subtractSorted(_ a: Span, _ b: [Span]) -> [Span] {
        var lo = 0, hi = b.count
        while lo < hi { let mid = (lo + hi) / 2; if b[mid].end <= a.start { lo = mid + 1 } else { hi = mid } }
        var out: [Span] = []
        var cur = a.start
        var i = lo
        while i < b.count && b[i].start < a.end {
            if b[i].start > cur { out.append(Span(cur, b[i].start)) }
            cur = max(cur, b[i].end)
            i += 1
        }
        if cur < a.end { out.append(Span(cur, a.end)) }
        return out
    }

    /// The parts of `a` inside sorted, merged spans `b` (binary search).
    public static func intersectSorted(_ a: Span, _ b: [Span]) -> [Span] {
        var lo = 0, hi = b.count
        while lo < hi { let mid = (lo + hi) / 2; if b[mid].end <= a.start { lo = mid + 1 } else { hi = mid } }
        var out: [Span] = []
        var i = lo
        while i < b.count && b[i].start < a.end {
            let x = Span(max(a.start, b[i].start), min(a.end, b[i].end))
            if x.seconds > 0 { out.append(x) }
            i += 1
        }
        return out
    }

    /// Inserts a span into sorted, merged spans, keeping them so. Appending
    /// at the end (sessions arrive in order) moves nothing.
    public static func insertMerged(_ spans: inout [Span], _ x: Span) {
        guard x.seconds > 0 else { return }
        if let last = spans.last, last.end < x.start { spans.append(x); return }
        if spans.isEmpty { spans.append(x); return }
        var lo = 0, hi = spans.count
        while lo < hi { let mid = (lo + hi) / 2; if spans[mid].end < x.start { lo = mid + 1 } else { hi = mid } }
        var merged = x
        var j = lo
        while j < spans.count && spans[j].start <= merged.end {
            merged = Span(min(merged.start, spans[j].start), max(merged.end, spans[j].end))
            j += 1
        }
        if j == lo + 1 { spans[lo] = merged; return }
        if j == lo { spans.insert(merged, at: lo); return }
        spans[lo] = merged
        spans.removeSubrange((lo + 1)..<j)
    }

    /// Takes a span out of sorted, merged spans, keeping them so.
    public static func removeMerged(_ spans: inout [Span], _ x: Span) {
        guard x.seconds > 0 else { return }
        var lo = 0, hi = spans.count
        while lo < hi { let mid = (lo + hi) / 2; if spans[mid].end <= x.start { lo = mid + 1 } else { hi = mid } }
        var j = lo
        var keep: [Span] = []
        while j < spans.count && spans[j].start < x.end {
            if spans[j].start < x.start { keep.append(Span(spans[j].start, x.start)) }
            if spans[j].end > x.end { keep.append(Span(x.end, spans[j].end)) }
            j += 1
        }
        if j > lo || !keep.isEmpty { spans.replaceSubrange(lo..<j, with: keep) }
    }

    /// Merges `more` (sorted by start) into `spans` (sorted by start), keeping
    /// both orders' duplicates: the list of sessions a day has seen.
    public static func mergeSorted(_ spans: inout [Span], _ more: [Span]) {
        if more.isEmpty { return }
        if spans.last.map({ $0 <= more[0] }) ?? true { spans += more; return }
        var out: [Span] = []
        out.reserveCapacity(spans.count + more.count)
        var i = 0, j = 0
        while i < spans.count && j < more.count {
            if more[j] < spans[i] { out.append(more[j]); j += 1 } else { out.append(spans[i]); i += 1 }
        }
        out += spans[i...]
        out += more[j...]
        spans = out
    }

    /// Whether sorted `spans` hold exactly `x` (binary search).
    public static func containsSorted(_ spans: [Span], _ x: Span) -> Bool {
        var lo = 0, hi = spans.count
        while lo < hi { let mid = (lo + hi) / 2; if spans[mid] < x { lo = mid + 1 } else { hi = mid } }
        return lo < spans.count && spans[lo] == x
    }

    /// `a` minus every span in `b` (both may be unsorted).
    public static func subtract(_ a: Span, _ b: [Span]) -> [Span] {
        var parts = [a]
        for cut in union(b) {
            var next: [Span] = []
            for p in parts {
                if cut.end <= p.start || cut.start >= p.end { next.append(p); continue }
                if cut.start > p.start { next.append(Span(p.start, cut.start)) }
                if cut.end < p.end { next.append(Span(cut.end, p.end)) }
            }
            parts = next
        }
        return parts.filter { $0.seconds > 0 }
    }

    public struct Session: Equatable, Sendable {
        public var child: String
        public var app: String
        public var span: Span
        public init(child: String, app: String, span: Span) {
            self.child = child
            self.app = app
            self.span = span
        }
        /// The same session ingested twice has the same key.
        public var key: String { "\(child)|\(app.lowercased())|\(span.start)|\(span.end)" }
    }

    /// What one session came to.
    public struct Outcome: Equatable, Sendable {
        public var session: Session
        public var category: Category?
        /// `counted`, or why not: `afk`, `overlap`, `during_reward`,
        /// `too_short`, `daily_cap`, `too_old`, `future`, `too_long` (held
        /// for review), `duplicate`, `uncategorized`, `ignored`.
        public var reason: String
        /// Learning seconds newly counted (after AFK and overlap removal);
        /// for a reward app, minus the learning time it takes back.
        public var learningSeconds: Int64
        /// Reward-app seconds used.
        public var rewardSeconds: Int64
        /// Points awarded now (negative: taken back by reward-app time).
        public var points: Int
        /// The time newly counted: learning time, or for a reward app the
        /// reward time not already counted.
        public var counted: [Span]
        /// Learning time counted before that this reward-app time takes back.
        public var uncounted: [Span] = []
        /// The points per hour the counted learning time earned at.
        public var rate = 0
        /// Time in an uncategorised or ignored app (away time left out).
        public var otherSeconds: Int64 = 0
        public var held: Bool { reason == "future" || reason == "too_long" }
    }

    /// The running ledger of one child's day: what was counted, and the
    /// fractional points carried (in point-seconds: seconds × points/hour).
    public struct DayLedger: Equatable, Sendable {
        /// Learning time counted so far, and reward time: sorted, merged.
        public var counted: [Span] = []
        public var rewarded: [Span] = []
        public var units: Int64 = 0
        public var points = 0
        public var learningSeconds: Int64 = 0
        public var rewardSeconds: Int64 = 0
        /// Learning time counted, per points-per-hour rate (each sorted,
        /// merged): what to take back when reward time turns up over it.
        public var rated: [Int: [Span]] = [:]
        /// The day's learning units (seconds × points per hour) before the
        /// cap; nil when not known (days counted before it was kept).
        public var total: Int64? = nil
        public init() {}

        /// The day's learning units before the cap, as well as known.
        var totalUnits: Int64 { total ?? Int64(points) * 3600 + units }
    }

    /// Points for learning time: whole points from the carried units, the
    /// remainder kept for the next session. floor(Σ seconds × rate / 3600)
    /// over any split of the time: nothing is lost to rounding.
    public static func award(_ units: Int64, carried: Int64) -> (points: Int, carry: Int64) {
        let total = carried + units
        return (Int(total / 3600), total % 3600)
    }

    /// Evaluates one session against a child's day so far. `rate` is the
    /// app's points per hour; `afk` the away spans, sorted and merged (as
    /// `union` returns them); `now` bounds the future. `run` is the session's
    /// run (`runs`): the same app's sessions that day joined to it by gaps
    /// shorter than merge_gap_seconds, which together meet the minimum, and
    /// `judged` those of them evaluated in earlier ingests (too short alone
    /// then, their time counts now).
    public static func evaluate(_ s: Session, category: Category?, rate: Int, afk: [Span], day: DayLedger,
                                settings: Settings, now: Int64, run: [Span] = [], judged: [Span] = []) -> (Outcome, DayLedger) {
        var d = day
        let o = evaluate(s, category: category, rate: rate, afk: afk, day: &d, settings: settings, now: now, run: run, judged: judged)
        return (o, d)
    }

    /// Sessions of one app on one day as runs: a session less than `gap`
    /// seconds after the run so far ends joins it. Each run sorted by start.
    public static func runs(_ spans: [Span], gap: Int64) -> [[Span]] {
        var out: [[Span]] = []
        var end = Int64.min
        for x in spans.sorted() {
            if !out.isEmpty && x.start - end < gap {
                out[out.count - 1].append(x)
                end = max(end, x.end)
            } else {
                out.append([x])
                end = x.end
            }
        }
        return out
    }

    /// Whether a session can count at all: not held, not too old (what
    /// `evaluate` checks before anything else). Only these join runs.
    public static func eligible(_ x: Span, settings: Settings, now: Int64) -> Bool {
        x.end <= now + 300 && x.seconds <= Int64(settings.maxSessionMinutes) * 60 && x.start >= Clock.earliest.seconds
            && x.start >= now - Int64(settings.maxSessionAgeDays) * 86_400
    }

    /// The same, updating the day in place (no copy of its spans per session).
    public static func evaluate(_ s: Session, category: Category?, rate: Int, afk: [Span], day d: inout DayLedger,
                                settings: Settings, now: Int64, run: [Span] = [], judged: [Span] = []) -> Outcome {
        var o = Outcome(session: s, category: category, reason: "counted", learningSeconds: 0, rewardSeconds: 0, points: 0, counted: [])
        if s.span.end > now + 300 { o.reason = "future"; return o }
        // Each day has its own cap, so only the last days' usage earns: a
        // month ingested late is recorded, not paid for. Before 2000 nothing
        // earns whatever the setting.
        if s.span.start < Clock.earliest.seconds || s.span.start < now - Int64(settings.maxSessionAgeDays) * 86_400 {
            o.reason = "too_old"
            return o
        }
        if s.span.seconds > Int64(settings.maxSessionMinutes) * 60 { o.reason = "too_long"; return o }
        guard let cat = category, cat != .ignore else {
            o.reason = category == nil ? "uncategorized" : "ignored"
            o.otherSeconds = (afk.isEmpty ? [s.span] : subtractSorted(s.span, afk)).reduce(0) { $0 + $1.seconds }
            return o
        }
        let active = afk.isEmpty ? [s.span] : subtractSorted(s.span, afk)
        if active.isEmpty { o.reason = "afk"; return o }
        if cat == .reward {
            // Reward time is reward time, counted once however many reward
            // apps were open; learning time already counted under it earns
            // nothing after all, and is taken back.
            let fresh = active.flatMap { subtractSorted($0, d.rewarded) }
            o.rewardSeconds = fresh.reduce(0) { $0 + $1.seconds }
            for f in fresh { insertMerged(&d.rewarded, f) }
            d.rewardSeconds += o.rewardSeconds
            o.reason = o.rewardSeconds > 0 ? "counted" : "overlap"
            o.counted = fresh
            let taken = fresh.flatMap { intersectSorted($0, d.counted) }
            if !taken.isEmpty {
                o.uncounted = taken
                o.learningSeconds = -taken.reduce(0) { $0 + $1.seconds }
                o.points = takeBack(taken, from: &d, fallbackRate: rate, settings: settings)
            }
            return o
        }
        let minimum = Int64(settings.minSessionMinutes) * 60
        if active.reduce(0, { $0 + $1.seconds }) < minimum {
            // Short alone; enough with the rest of its run (an alt-tab apart)?
            let together = run.isEmpty ? [] : union(run + [s.span]).flatMap { afk.isEmpty ? [$0] : subtractSorted($0, afk) }
            if together.reduce(0, { $0 + $1.seconds }) < minimum { o.reason = "too_short"; return o }
        }
        // Earlier sessions of the run, too short when they were ingested, count now.
        let mine = judged.isEmpty ? active : union(active + judged.flatMap { afk.isEmpty ? [$0] : subtractSorted($0, afk) })
        let unseen = mine.flatMap { subtractSorted($0, d.counted) }
        if unseen.isEmpty { o.reason = "overlap"; return o }
        // Learning while a reward app is in use earns nothing.
        let fresh = d.rewarded.isEmpty ? unseen : unseen.flatMap { subtractSorted($0, d.rewarded) }
        let seconds = fresh.reduce(0) { $0 + $1.seconds }
        if seconds == 0 { o.reason = "during_reward"; return o }
        for f in fresh {
            insertMerged(&d.counted, f)
            insertMerged(&d.rated[rate, default: []], f)
        }
        d.total = d.totalUnits + seconds * Int64(rate)
        d.learningSeconds += seconds
        o.learningSeconds = seconds
        o.counted = fresh
        o.rate = rate
        let (p, carry) = award(seconds * Int64(rate), carried: d.units)
        let room = max(0, settings.maxPointsPerDay - d.points)
        o.points = min(p, room)
        d.units = o.points < p ? 0 : carry  // at the cap the remainder is void too
        d.points += o.points
        if o.points < p { o.reason = "daily_cap" }
        return o
    }

    /// Takes counted learning time back (reward-app time turned up over it):
    /// its units at the rate each part earned (`fallbackRate` for time
    /// counted before rates were kept), and the points the day then no
    /// longer reaches. Never adds points. Returns the change (zero or less).
    static func takeBack(_ taken: [Span], from d: inout DayLedger, fallbackRate: Int, settings: Settings) -> Int {
        var units: Int64 = 0
        var rated: Int64 = 0
        for rate in d.rated.keys.sorted() {
            var spans = d.rated[rate]!
            var cut: Int64 = 0
            for t in taken {
                for x in intersectSorted(t, spans) { cut += x.seconds; removeMerged(&spans, x) }
            }
            if cut == 0 { continue }
            units += cut * Int64(rate)
            rated += cut
            d.rated[rate] = spans.isEmpty ? nil : spans
        }
        let seconds = taken.reduce(0) { $0 + $1.seconds }
        units += (seconds - rated) * Int64(fallbackRate)
        for t in taken { removeMerged(&d.counted, t) }
        d.learningSeconds -= seconds
        let after = max(0, d.totalUnits - units)
        let points = min(d.points, settings.maxPointsPerDay, Int(after / 3600))
        d.units = Int64(points) == after / 3600 ? after % 3600 : 0
        d.total = after
        let change = points - d.points
        d.points = points
        return change
    }

    // MARK: Redeeming

    public struct Redemption: Equatable, Sendable {
        public var minutes: Int
        public var points: Int
    }

    /// Converts points to reward minutes, or says why not and what is possible.
    public static func redeem(minutes: Int, balance: Int, grantedToday: Int, grantedThisWeek: Int,
                              settings: Settings) -> Result<Redemption, ToolError> {
        guard minutes >= 1 else { return .failure(.usage("minutes must be at least 1")) }
        let cost = minutes * settings.conversionRate
        let dayLeft = max(0, settings.dailyRewardLimitMinutes - grantedToday)
        let weekLeft = max(0, settings.weeklyRewardLimitMinutes - grantedThisWeek)
        let affordable = balance / settings.conversionRate
        let possible = min(affordable, dayLeft, weekLeft)
        let hint = possible > 0 ? "; \(possible) minute\(possible == 1 ? "" : "s") would be possible now" : "; nothing can be redeemed now"
        if cost > balance {
            return .failure(ToolError(.dataError, "\(minutes) minutes cost \(cost) points and the balance is \(balance)\(hint)"))
        }
        if minutes > dayLeft {
            return .failure(ToolError(.dataError, "the daily limit is \(settings.dailyRewardLimitMinutes) reward minutes and \(grantedToday) are granted today\(hint)"))
        }
        if minutes > weekLeft {
            return .failure(ToolError(.dataError, "the weekly limit is \(settings.weeklyRewardLimitMinutes) reward minutes and \(grantedThisWeek) are granted this week\(hint)"))
        }
        return .success(Redemption(minutes: minutes, points: cost))
    }
}
