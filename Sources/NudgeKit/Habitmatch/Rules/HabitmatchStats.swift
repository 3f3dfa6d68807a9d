// `habitmatch stats` and `export`: a habit by week or by month (how much of
// what its frequency asks was done, and its strength at the period's end),
// and Loop Habit Tracker's CSV tables (Habits.csv, Checkmarks.csv,
// Scores.csv as its HabitsCSVExporter writes them). Pure.
//
// Invariants: periods are whole weeks (Monday first) or calendar months
// from the one holding the habit's first day to the one holding today; a
// rate is in 0...1; the CSV tables list days newest first, from today to
// the oldest first day of the habits shown, as Loop's do.

extension Habitmatch {
    public struct Period: Sendable {
        public var start: Day
        public var end: Day
        /// Days done (marked), or a measurable habit's amount.
        public var done: Double
        /// What the frequency asks of the part of the period from the
        /// habit's first day to today.
        public var expected: Double
        public var rate: Double
        public var strength: Double
    }

    /// A habit's periods, `byMonth` or by week, oldest first.
    public static func periods(_ p: Progress, _ h: Habit, today: Day, byMonth: Bool) -> [Period] {
        guard !p.marks.isEmpty else { return [] }
        func startOf(_ d: Day) -> Day { byMonth ? Day(year: d.year, month: d.month, day: 1) : d.adding(days: -((d.weekday + 6) % 7)) }
        func next(_ d: Day) -> Day {
            byMonth ? (d.month == 12 ? Day(year: d.year + 1, month: 1, day: 1) : Day(year: d.year, month: d.month + 1, day: 1)) : d.adding(days: 7)
        }
        var out: [Period] = []
        var start = startOf(p.first)
        while start <= today {
            let end = next(start).adding(days: -1)
            let lo = max(start, p.first), hi = min(end, today)
            var done = 0.0, scheduled = 0
            var d = lo
            while d <= hi {
                // On chosen weekdays, what the chosen days hold: a rest day done is no stand-in for one missed.
                let chosen = h.every.weekdays?.contains(d.weekday) ?? true
                if chosen { done += h.target != nil ? p.amount(d) : (p.mark(d) == .yes ? 1 : 0) }
                if chosen { scheduled += 1 }
                d = d.adding(days: 1)
            }
            let span = Double(hi - lo + 1)
            let expected: Double
            if h.every.weekdays != nil { expected = Double(scheduled) * (h.target ?? 1) }
            else if let t = h.target { expected = t * span / Double(h.every.days) }
            else { expected = Double(h.every.times) * span / Double(h.every.days) }
            let rate = expected > 0 ? min(1, done / expected) : 1
            out.append(Period(start: start, end: end, done: done, expected: rounded(expected), rate: rounded(rate), strength: rounded(p.strength(hi))))
            start = next(start)
        }
        return out
    }

    /// Loop's Habits.csv: Position, Name, Question, Description,
    /// NumRepetitions, Interval, Color (we keep no question, description or
    /// colour: empty). A chosen-weekdays habit is its days in a week.
    public static func loopHabitsCSV(_ habits: [Habit]) -> String {
        var out = "Position,Name,Question,Description,NumRepetitions,Interval,Color\n"
        for (i, h) in habits.enumerated() {
            let (n, d) = h.every.weekdays.map { ($0.count, 7) } ?? (h.every.times, h.every.days)
            out += "\(threeDigits(i + 1)),\(CSV.cell(h.name)),,,\(n),\(d),\n"
        }
        return out
    }

    /// Loop's Checkmarks.csv (scores: false) or Scores.csv (true) for
    /// several habits: Date, then a column a habit, each line ending in the
    /// separator as Loop's do. A checkmark is Loop's entry value (2 done, 1
    /// done enough by the frequency, 0 not done, 3 a rest day, -1 before the
    /// habit's first day); a measurable habit's is its amount times 1000.
    /// A score has four decimals.
    public static func loopTableCSV(_ habits: [(Habit, Progress)], today: Day, scores: Bool) -> String {
        var out = "Date," + habits.map { CSV.cell($0.0.name) + "," }.joined() + "\n"
        let started = habits.filter { !$0.1.marks.isEmpty }
        guard let oldest = started.map(\.1.first).min() else { return out }
        var d = today
        while d >= oldest {
            out += d.description + ","
            for (h, p) in habits {
                if scores { out += fourDecimals(d >= p.first && !p.marks.isEmpty ? p.strength(d) : 0) + "," }
                else if p.marks.isEmpty || d < p.first { out += "-1," }
                else if h.target != nil { out += p.mark(d) == .rest ? "3," : "\(Int64((p.amount(d) * 1000).rounded()))," }
                else { out += "\(p.mark(d).rawValue)," }
            }
            out += "\n"
            d = d.adding(days: -1)
        }
        return out
    }

    static func threeDigits(_ n: Int) -> String { n < 10 ? "00\(n)" : n < 100 ? "0\(n)" : "\(n)" }
    /// %.4f without Foundation.
    static func fourDecimals(_ x: Double) -> String {
        let n = Int64((x * 10_000).rounded())
        let frac = String(n % 10_000)
        return "\(n / 10_000)." + String(repeating: "0", count: 4 - frac.count) + frac
    }
}
