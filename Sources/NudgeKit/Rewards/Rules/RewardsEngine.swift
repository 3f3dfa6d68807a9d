// rewards' points engine: validated learning time in, points out. Pure:
// sessions, away-from-keyboard spans, the apps' categories and the settings
// in; awards, reasons and flags out. Every rule has a reason code a parent
// can read. Redeeming turns points into reward minutes within the limits.
// The settings are in RewardsSettings.swift, the span arithmetic in
// RewardsSpans.swift.
//
// Invariants: a day's points for learning time are floor(Σ seconds × rate
// / 3600) over any split of the time, up to the daily cap; time counts
// once however many sessions cover it, and learning under a reward app
// earns nothing; a redemption never costs more than the balance or goes
// past the daily and weekly limits.

public enum RewardsEngine {
    public enum Category: String, Sendable, CaseIterable { case learning, reward, ignore }

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
    /// `runActive`: the run's time away from the keyboard taken out
    /// (`runActiveSeconds`), where the caller has it already: the same for
    /// every session of the run, so a run of thousands is not united again
    /// per session.
    public static func evaluate(_ s: Session, category: Category?, rate: Int, afk: [Span], day d: inout DayLedger,
                                settings: Settings, now: Int64, run: [Span] = [], judged: [Span] = [], runActive: Int64? = nil) -> Outcome {
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
            o.otherSeconds = afk.isEmpty ? s.span.seconds : subtractSorted(s.span, afk).reduce(0) { $0 + $1.seconds }
            return o
        }
        // The session less the time away; nil when nothing was away (the
        // session whole: no list made for it, once a session).
        let away = afk.isEmpty ? nil : subtractSorted(s.span, afk)
        if let a = away, a.isEmpty { o.reason = "afk"; return o }
        if cat == .reward {
            // Reward time is reward time, counted once however many reward
            // apps were open; learning time already counted under it earns
            // nothing after all, and is taken back.
            let fresh = away.map { $0.flatMap { subtractSorted($0, d.rewarded) } } ?? subtractSorted(s.span, d.rewarded)
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
        if (away?.reduce(0, { $0 + $1.seconds }) ?? s.span.seconds) < minimum {
            // Short alone; enough with the rest of its run (an alt-tab apart)?
            if runActive ?? runActiveSeconds(run, s.span, afk: afk) < minimum { o.reason = "too_short"; return o }
        }
        // Earlier sessions of the run, too short when they were ingested, count now.
        let unseen: [Span]
        if judged.isEmpty && away == nil {
            unseen = subtractSorted(s.span, d.counted)
        } else {
            let active = away ?? [s.span]
            let mine = judged.isEmpty ? active : union(active + judged.flatMap { afk.isEmpty ? [$0] : subtractSorted($0, afk) })
            unseen = mine.count == 1 ? subtractSorted(mine[0], d.counted) : mine.flatMap { subtractSorted($0, d.counted) }
        }
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

    /// The seconds a session and its run (an alt-tab apart) were used,
    /// away time taken out; zero with no run.
    public static func runActiveSeconds(_ run: [Span], _ x: Span, afk: [Span]) -> Int64 {
        run.isEmpty ? 0 : union(run + [x]).flatMap { afk.isEmpty ? [$0] : subtractSorted($0, afk) }.reduce(0) { $0 + $1.seconds }
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
