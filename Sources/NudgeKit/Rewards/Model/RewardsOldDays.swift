// The days before the snapshot's hot window. A snapshot keeps each child's
// days of the last `hotWindow` days (up to the newest day of any child) in
// its hot part, which every reader restores, and the older days in its cold
// part after the usage lines, so that what a status bar's read costs does
// not grow with the years behind it. What readers need of the old days is
// summed up in one hot line:
//
//   {"k":"old_days","before":"YYYY-MM-DD","v":{ID:[GOAL,RUN,LONGEST],…}}
//       per child, for the daily goal GOAL (seconds) in force when the
//       snapshot was written: RUN days meeting it in a row, ending the day
//       before BEFORE; LONGEST, the longest such run before BEFORE
//
// Invariants: a read without the cold part answers streaks and badges as a
// full read would, or says it cannot (`needsFull`): when a fold changes a
// day before the window (`DayTable.missedCold`), or a child's goal is not
// the one the summary was made for. A reader whose today is not well inside
// the window (`holdsRecentDays`) reads in full. A full read restores every
// day, and holds no summary.

extension RewardsState {
    /// Days kept in the snapshot's hot part, up to the newest day: five
    /// weeks hold this week and the last (the dashboard, `allowance`,
    /// `enforce`) and a session ingested late within the default age limit
    /// (a week); each day more costs every read its line.
    static let hotWindow = 35

    /// What a read without the cold part knows of the days before the hot
    /// window (nil: every day is here).
    public struct OldDays: Equatable, Sendable {
        public var before: Day
        public var children: [String: Summary] = [:]

        public struct Summary: Equatable, Sendable {
            /// The daily goal, in seconds, the rest was counted for.
            public var goal: Int64
            /// Days meeting it in a row, ending the day before `before`.
            public var run: Int
            /// The longest run of such days before `before`.
            public var longest: Int
        }

        /// As the snapshot's hot line.
        var line: JSONObject {
            var v = JSONObject()
            for (c, s) in children.sorted(by: { $0.key < $1.key }) { v[c] = .array([.int(s.goal), .int(Int64(s.run)), .int(Int64(s.longest))]) }
            return ["k": "old_days", "before": .string(before.description), "v": .object(v)]
        }

        /// A child's summary of `entries` (in order of day) before `before`.
        static func summary(_ entries: [DayTable.Entry], before: Day, goal: Int64) -> Summary {
            var best = 0, run = 0
            var prev: Day? = nil
            for e in entries where e.day < before && e.totals.learningSeconds >= goal {
                run = prev.map { e.day - $0 == 1 } ?? false ? run + 1 : 1
                best = max(best, run)
                prev = e.day
            }
            return Summary(goal: goal, run: prev.map { before - $0 == 1 } ?? false ? run : 0, longest: best)
        }
    }

    /// Whether a read without the cold part holds the days a command of
    /// `today` reads (this week and the one before); false: read in full.
    public func holdsRecentDays(_ today: Day) -> Bool {
        oldDays.map { today.adding(days: -14) >= $0.before } ?? true
    }

    /// A child's summary was made for another goal than the one in force.
    var oldDaysStale: Bool {
        guard let o = oldDays else { return false }
        return o.children.contains { Int64(settings(for: $0.key).dailyGoalMinutes) * 60 != $0.value.goal }
    }

    /// The summary line of a full state's days before `before`.
    func oldDaysLine(before: Day) -> JSONObject {
        var o = OldDays(before: before)
        for c in days.children {
            o.children[c] = OldDays.summary(days.entries(c), before: before, goal: Int64(settings(for: c).dailyGoalMinutes) * 60)
        }
        return o.line
    }

    /// The summary line, in a read without the cold part (a full read has
    /// every day, and no use for it).
    mutating func restoreOldDays(_ l: JSONObject) throws(ToolError) {
        guard let b = l["before"]?.string.flatMap(Day.parse), let v = l["v"]?.object else { throw .data("bad snapshot line") }
        guard !full else { return }
        var o = OldDays(before: b)
        for (c, x) in zip(v.keys, v.values) {
            guard let a = x.array, a.count == 3, let g = a[0].int, let r = a[1].int, let n = a[2].int,
                  (0...86_400).contains(g), (0...1_000_000).contains(n), (0...n).contains(r) else { throw .data("bad snapshot line") }
            o.children[c] = OldDays.Summary(goal: g, run: Int(r), longest: Int(n))
        }
        oldDays = o
        days.coldBefore = b
    }

    public mutating func finishRestore() {
        if full { days.mergeOlder() }
    }
}
