// What rewards keeps per child and day. Hot, for every reader: the day's
// totals (`DayTotals`) and the last sessions the dashboard shows
// (`SessionLine`). Cold, for writers and reports only: the time counted,
// every session seen and the per-app totals (`UsageDay`, of `AppDay`s). The
// spans in usage_day events and snapshot lines are written one way
// (`SpanCodec`).
//
// Invariants: a `UsageDay`'s `learned`, `rewarded` and `rated` spans are
// sorted and merged, its `sessions` sorted by start; an event and a snapshot
// line hold the same cold fields, read by one `merge` and written by one
// `write`. Usage events add to a day here (`applyUsageDay`, and
// `applyUsage` for schema 1's one event per session); the rest of the fold
// is in RewardsEvents.swift.

extension RewardsState {
    public struct DayTotals: Equatable, Sendable {
        public var learningSeconds: Int64 = 0
        public var rewardSeconds: Int64 = 0
        public var points = 0
        public var carry: Int64 = 0
        public var grantedMinutes = 0
        public var adjusted = 0
        /// Learning units (seconds × points per hour) before the cap; nil
        /// for days recorded before it was kept.
        public var units: Int64? = nil
    }
    public struct SessionLine: Equatable, Sendable {
        public var app: String; public var start: Int64; public var end: Int64; public var reason: String; public var points: Int
        var json: JSON { .array([.string(app), .int(start), .int(end), .string(reason), JSON(points)]) }
        init(app: String, start: Int64, end: Int64, reason: String, points: Int) {
            self.app = app; self.start = start; self.end = end; self.reason = reason; self.points = points
        }
        init?(_ x: JSON) {
            guard let a = x.array, a.count == 5, let app = a[0].string, let s = a[1].int, let e = a[2].int, let r = a[3].string, let p = a[4].int else { return nil }
            self.init(app: app, start: s, end: e, reason: r, points: Int(p))
        }
    }
    /// Each child's day totals, in order of day: restored from the snapshot
    /// as its lines come (one per child and day of history, appended, not
    /// hashed), a day looked up by bisection; what a fold changes is
    /// changed in place.
    public struct DayTable: Equatable, Sendable {
        public struct Entry: Equatable, Sendable { public var day: Day; public var totals: DayTotals }
        private var lists: [String: [Entry]] = [:]
        /// The child whose lines are being restored, and its days so far
        /// (not yet in `lists`: lines come child by child, and are not
        /// hashed one by one).
        private var pendingChild: String? = nil
        private var pending: [Entry] = []
        /// A full read's days from the snapshot's cold part (the days before
        /// its hot window), kept apart until the restore is over
        /// (`mergeOlder`): they come after the hot days, and before them in
        /// order of day.
        private var older: [String: [Entry]] = [:]
        /// In a read without the cold part: the days before this one are not
        /// here (`RewardsState.OldDays`). A change to one of them is not
        /// made; `missedCold` says so, and the reader reads in full.
        public internal(set) var coldBefore: Day? = nil
        public internal(set) var missedCold = false

        public init() {}

        private func list(_ child: String) -> [Entry]? { child == pendingChild ? pending : lists[child] }

        private mutating func settle() {
            guard let c = pendingChild else { return }
            lists[c] = pending
            pendingChild = nil
            pending = []
        }

        private var all: [String: [Entry]] {
            var a = lists.filter { !$0.value.isEmpty }
            if let c = pendingChild, !pending.isEmpty { a[c] = pending }
            return a
        }

        public static func == (a: DayTable, b: DayTable) -> Bool { a.all == b.all }

        /// The children with days.
        public var children: [String] { Array(all.keys) }

        /// A child's days, in order.
        public func entries(_ child: String) -> [Entry] { list(child) ?? [] }

        /// A child's days as a dictionary (nil: none).
        public subscript(child: String) -> [Day: DayTotals]? {
            guard let l = list(child), !l.isEmpty else { return nil }
            return Dictionary(l.map { ($0.day, $0.totals) }, uniquingKeysWith: { $1 })
        }

        /// Where `d` is in `l`, or where it would go.
        static func place(_ d: Day, in l: [Entry]) -> Int {
            var lo = 0, hi = l.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if l[mid].day < d { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }

        public func totals(_ child: String, _ d: Day) -> DayTotals? {
            guard let l = list(child) else { return nil }
            let i = DayTable.place(d, in: l)
            return i < l.count && l[i].day == d ? l[i].totals : nil
        }

        /// Changes a day's totals (from zero when it has none).
        mutating func update(_ child: String, _ d: Day, _ change: (inout DayTotals) -> Void) {
            if let b = coldBefore, d < b {
                missedCold = true
                return
            }
            settle()
            var l = lists.removeValue(forKey: child) ?? []
            let i = DayTable.place(d, in: l)
            if i < l.count && l[i].day == d {
                change(&l[i].totals)
            } else {
                var t = DayTotals()
                change(&t)
                l.insert(Entry(day: d, totals: t), at: i)
            }
            lists[child] = l
        }

        mutating func set(_ child: String, _ d: Day, _ t: DayTotals) { update(child, d) { $0 = t } }

        /// A snapshot's line: appended when it comes after its child's last day.
        mutating func restore(_ child: String, _ d: Day, _ t: DayTotals) {
            if child == pendingChild, pending.last.map({ $0.day < d }) ?? true {
                pending.append(Entry(day: d, totals: t))
                return
            }
            settle()
            if lists[child] == nil {
                pendingChild = child
                pending = []
                pending.reserveCapacity(512)  // a year and more, without regrowing
                pending.append(Entry(day: d, totals: t))
                return
            }
            set(child, d, t)
        }

        mutating func remove(_ child: String) {
            settle()
            lists[child] = nil
            older[child] = nil
        }

        /// A day from the snapshot's cold part, in a full read.
        mutating func restoreOlder(_ child: String, _ d: Day, _ t: DayTotals) {
            older[child, default: []].append(Entry(day: d, totals: t))
        }

        /// Puts the cold part's days in their places, once the snapshot is
        /// restored: in front of the hot ones when they all come before
        /// them (as the snapshot writes them), else one by one.
        mutating func mergeOlder() {
            guard !older.isEmpty else { return }
            settle()
            for (c, o) in older.sorted(by: { $0.key < $1.key }) {
                let rest = lists[c] ?? []
                let inOrder = zip(o, o.dropFirst()).allSatisfy { $0.day < $1.day }
                if inOrder, o.last.map({ l in rest.first.map { l.day < $0.day } ?? true }) ?? true {
                    lists[c] = o + rest
                } else {
                    for e in o { set(c, e.day, e.totals) }
                }
            }
            older = [:]
        }

        /// The first day of the snapshot's hot window: every day less than
        /// `window` days before the newest day of any child (nil when every
        /// day is in it). Those before it are written to the cold part.
        public func hotFrom(window: Int) -> Day? {
            let lists = all
            guard let newest = lists.values.compactMap({ $0.last?.day }).max() else { return nil }
            let from = newest.adding(days: -(window - 1))
            return lists.values.contains { ($0.first?.day).map { $0 < from } ?? false } ? from : nil
        }
    }

    /// One app's usage on one day (per category, should the app have moved).
    /// `otherSeconds`: time in it while it earned and cost nothing
    /// (uncategorised or ignored), so that reports show what to categorise.
    public struct AppDay: Equatable, Sendable {
        public var app: String; public var category: String?; public var sessions = 0
        public var learningSeconds: Int64 = 0; public var rewardSeconds: Int64 = 0; public var points = 0
        public var otherSeconds: Int64 = 0
        var json: JSON {
            var a: [JSON] = [.string(app), JSON(category), JSON(sessions), .int(learningSeconds), .int(rewardSeconds), JSON(points)]
            if otherSeconds != 0 { a.append(.int(otherSeconds)) }
            return .array(a)
        }
        init(app: String, category: String?) { self.app = app; self.category = category }
        init?(_ x: JSON) {
            guard let a = x.array, a.count == 6 || a.count == 7, let app = a[0].string, let n = a[2].int, let l = a[3].int, let r = a[4].int,
                  let p = a[5].int else { return nil }
            self.app = app; category = a[1].string; sessions = Int(n); learningSeconds = l; rewardSeconds = r; points = Int(p)
            if a.count == 7 { otherSeconds = a[6].int ?? 0 }
        }
        mutating func add(_ o: AppDay) {
            sessions += o.sessions; learningSeconds += o.learningSeconds; rewardSeconds += o.rewardSeconds; points += o.points
            otherSeconds += o.otherSeconds
        }
    }
    /// Cold, per child and day: what ingest needs to count nothing twice,
    /// and what reports by app need.
    public struct UsageDay: Equatable, Sendable {
        /// Learning and reward time counted: sorted, merged.
        public var learned: [RewardsEngine.Span] = []
        public var rewarded: [RewardsEngine.Span] = []
        /// Per app (lower-cased): every session ingested, sorted, each once.
        public var sessions: [String: [RewardsEngine.Span]] = [:]
        public var apps: [AppDay] = []
        /// Learning time counted, per points-per-hour rate (a part of
        /// `learned`; time counted before rates were kept is in none).
        public var rated: [Int: [RewardsEngine.Span]] = [:]
        public init() {}

        /// Whether this exact session was ingested before.
        public func hasSession(app key: String, _ span: RewardsEngine.Span) -> Bool {
            RewardsEngine.containsSorted(sessions[key] ?? [], span)
        }

        /// Folds in what an event (or a snapshot line) holds.
        mutating func merge(_ e: JSONObject) {
            for x in SpanCodec.decode(e["learned"]) { RewardsEngine.insertMerged(&learned, x) }
            for x in SpanCodec.decode(e["rewarded"]) { RewardsEngine.insertMerged(&rewarded, x) }
            if let o = e["learned_rates"]?.object {
                for (k, v) in zip(o.keys, o.values) {
                    guard let rate = Int(k), rate > 0 else { continue }
                    for x in SpanCodec.decode(v) { RewardsEngine.insertMerged(&rated[rate, default: []], x) }
                }
            }
            // Learning time taken back (reward-app time turned up over it).
            for x in SpanCodec.decode(e["unlearned"]) {
                RewardsEngine.removeMerged(&learned, x)
                for r in rated.keys {
                    RewardsEngine.removeMerged(&rated[r]!, x)
                    if rated[r]!.isEmpty { rated[r] = nil }
                }
            }
            if let o = e["sessions"]?.object {
                for (k, v) in zip(o.keys, o.values) {
                    let more = SpanCodec.decode(v)
                    if sessions[k] == nil { sessions[k] = more } else { RewardsEngine.mergeSorted(&sessions[k]!, more) }
                }
            }
            for x in e["apps"]?.array ?? [] { if let a = AppDay(x) { addApp(a) } }
        }

        mutating func addApp(_ a: AppDay) {
            if let i = apps.firstIndex(where: { $0.category == a.category && $0.app == a.app })
                ?? apps.firstIndex(where: { $0.category == a.category && $0.app.lowercased() == a.app.lowercased() }) {
                apps[i].add(a)
            } else {
                apps.append(a)
            }
        }

        /// The cold fields, as in usage_day events and snapshot lines.
        func write(into o: inout JSONObject) {
            o["learned"] = SpanCodec.encode(learned)
            o["rewarded"] = SpanCodec.encode(rewarded)
            let keys = sessions.keys.sorted()
            o["sessions"] = .object(JSONObject(parsedKeys: keys, values: keys.map { SpanCodec.encode(sessions[$0]!) }))
            o["apps"] = .array(apps.map(\.json))
            if !rated.isEmpty {
                let rates = rated.keys.sorted()
                o["learned_rates"] = .object(JSONObject(parsedKeys: rates.map(String.init), values: rates.map { SpanCodec.encode(rated[$0]!) }))
            }
        }
    }

    // How usage events add to a day.

    /// What one ingest added to one child's day: its totals, the points on
    /// the balance, the last five sessions, and (in a full read) the cold part.
    mutating func applyUsageDay(_ e: JSONObject, child c: String, day d: Day) {
        addTotals(e, child: c, day: d)
        addRecent(c, (e["recent"]?.array ?? []).compactMap(SessionLine.init))
        if full {
            materialize(c, d)
            usage[c, default: [:]][d, default: UsageDay()].merge(e)
        } else {
            coldLeftBehind()
        }
    }

    /// What a usage event (a day's, or one session's as schema 1 wrote
    /// it) adds to the day's totals and the balance; the points.
    @discardableResult
    mutating func addTotals(_ e: JSONObject, child c: String, day d: Day) -> Int {
        var t = totals(c, d)
        t.learningSeconds += e["learning_s"]?.int ?? 0
        t.rewardSeconds += e["reward_s"]?.int ?? 0
        let p = Int(e["points"]?.int ?? 0)
        t.points += p
        if let carry = e["carry"]?.int { t.carry = carry }
        if let units = e["units"]?.int { t.units = units }
        days.set(c, d, t)
        balance[c, default: 0] += p
        earned[c, default: 0] += p
        return p
    }

    /// The last five sessions by start, wherever in time these fell.
    mutating func addRecent(_ c: String, _ more: [SessionLine]) {
        guard !more.isEmpty else { return }
        let all = (recent[c] ?? []) + more
        recent[c] = Array(all.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.suffix(5).map(\.element))
    }

    /// One session, as schema 1 recorded it: the same totals, one line of
    /// the last sessions, and its part of the cold day.
    mutating func applyUsage(_ e: JSONObject, child c: String, day d: Day) {
        let p = addTotals(e, child: c, day: d)
        let app = e["app"]?.string ?? ""
        if let s = RewardsState.span(e) {
            addRecent(c, [SessionLine(app: app, start: s.start, end: s.end, reason: e["reason"]?.string ?? "", points: p)])
        }
        if full {
            materialize(c, d)
            var u = usage[c]?[d] ?? UsageDay()
            for x in e["counted"]?.array ?? [] {
                guard let a = x.array, a.count == 2, let s = a[0].int, let t2 = a[1].int else { continue }
                RewardsEngine.insertMerged(&u.learned, RewardsEngine.Span(s, t2))
            }
            if let s = RewardsState.span(e) {
                RewardsEngine.mergeSorted(&u.sessions[app.lowercased(), default: []], [s])
                if (e["reward_s"]?.int ?? 0) > 0 { RewardsEngine.insertMerged(&u.rewarded, s) }
            }
            var a = AppDay(app: app, category: e["category"]?.string)
            a.sessions = 1
            a.learningSeconds = e["learning_s"]?.int ?? 0
            a.rewardSeconds = e["reward_s"]?.int ?? 0
            a.points = p
            u.addApp(a)
            usage[c, default: [:]][d] = u
        } else {
            coldLeftBehind()
        }
    }
}

/// Spans sorted by start as one flat array of whole seconds: the first start,
/// then each span's length and the distance from its start to the next one's:
/// [s0, len0, s1 - s0, len1, …]. A day of sessions stays a short line.
public enum SpanCodec {
    /// The largest time or length in seconds a span may hold (about 35,000
    /// years): sums of such values never overflow.
    public static let bound: Int64 = 1 << 40

    public static func encode(_ spans: [RewardsEngine.Span]) -> JSON {
        var a: [JSON] = []
        a.reserveCapacity(spans.count * 2)
        var prev: Int64 = 0
        for (n, s) in spans.enumerated() {
            a.append(.int(n == 0 ? s.start : s.start - prev))
            a.append(.int(s.end - s.start))
            prev = s.start
        }
        return .array(a)
    }

    /// The spans, or none for anything malformed (odd length, negative parts).
    public static func decode(_ j: JSON?) -> [RewardsEngine.Span] {
        guard let a = j?.array, a.count % 2 == 0 else { return [] }
        var out: [RewardsEngine.Span] = []
        out.reserveCapacity(a.count / 2)
        var start: Int64 = 0
        var i = 0
        while i < a.count {
            guard let d = a[i].int, let len = a[i + 1].int, len >= 0, len <= bound, i == 0 || d >= 0, (-bound...bound).contains(d) else { return [] }
            start = i == 0 ? d : start + d
            guard (-bound...bound).contains(start) else { return [] }
            out.append(RewardsEngine.Span(start, start + len))
            i += 2
        }
        return out
    }
}
