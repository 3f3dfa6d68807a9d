// How often a habit is meant to be done, and what follows from it, as Loop
// Habit Tracker computes it (uhabits-core: EntryList, StreakList,
// ScoreList, Score): N times in every M days (daily, N a week, N a month,
// every N days), or chosen weekdays with rest days between; a habit may be
// measurable (an amount a day, a target per period). Pure.
//
// Invariants: a frequency is 1 ≤ times ≤ days ≤ 365, or a non-empty set of
// weekdays; a day is `.yes` only if it was marked (or, measurable, its
// period met the target that day), `.auto` only inside a period the habit
// was done often enough in, `.rest` only off the chosen weekdays; a streak
// is a run of days none of which is `.no`, holding at least one day done;
// strength stays in 0...1 and, for a daily yes/no habit, is the old daily
// score; a daily yes/no habit's streaks are `streaks(_:today:)`.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Habitmatch {
    public struct Frequency: Equatable, Sendable {
        public var times: Int
        public var days: Int
        /// Chosen weekdays (0 = Sunday … 6 = Saturday); the others are rest days.
        public var weekdays: Set<Int>?

        public static let daily = Frequency(times: 1, days: 1, weekdays: nil)
        static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

        public var isDaily: Bool { weekdays == nil && days == 1 }
        /// Loop's frequency as a number: a chosen-weekdays habit is daily on its days.
        var perDay: Double { weekdays == nil ? Double(times) / Double(days) : 1 }

        /// As stored: "3/7", or "mon,wed,fri".
        public var stored: String {
            if let w = weekdays { return (1...7).map { $0 % 7 }.filter(w.contains).map { Frequency.dayNames[$0] }.joined(separator: ",") }
            return "\(times)/\(days)"
        }

        /// As said: "every day", "3 times a week", "Mon, Wed, Fri".
        public var described: String {
            if let w = weekdays {
                if w.count == 7 { return "every day" }
                if w == [1, 2, 3, 4, 5] { return "weekdays" }
                if w == [0, 6] { return "weekends" }
                return (1...7).map { $0 % 7 }.filter(w.contains).map { Frequency.dayNames[$0].prefix(1).uppercased() + Frequency.dayNames[$0].dropFirst() }.joined(separator: ", ")
            }
            let n = times == 1 ? "once" : times == 2 ? "twice" : "\(times) times"
            switch days {
            case 1: return "every day"
            case 7: return "\(n) a week"
            case 14 where times == 1: return "every two weeks"
            case 30: return "\(n) a month"
            default: return times == 1 ? "every \(days) days" : "\(n) in \(days) days"
            }
        }

        /// What a person or a file says: day, daily, week, weekly, N/week,
        /// month, monthly, N/month, fortnightly, N/Md (N times in M days), Nd
        /// (every N days), weekdays, weekends, or weekday names (mon,wed,fri;
        /// mon-fri).
        public static func parse(_ raw: String) -> Frequency? {
            let s = String(raw.lowercased().filter { $0 != " " })
            switch s {
            case "day", "daily", "everyday", "1/day", "1/1": return .daily
            case "week", "weekly": return Frequency(times: 1, days: 7, weekdays: nil)
            case "month", "monthly": return Frequency(times: 1, days: 30, weekdays: nil)
            case "fortnight", "fortnightly", "biweekly": return Frequency(times: 1, days: 14, weekdays: nil)
            case "weekdays": return Frequency(times: 1, days: 1, weekdays: [1, 2, 3, 4, 5])
            case "weekends": return Frequency(times: 1, days: 1, weekdays: [0, 6])
            default: break
            }
            if s.hasSuffix("d"), let n = Int(s.dropLast()), (1...365).contains(n) { return Frequency(times: 1, days: n, weekdays: nil) }
            if let slash = s.firstIndex(of: "/") {
                let a = String(s[..<slash].filter { $0 != "x" }), b = String(s[s.index(after: slash)...])
                guard let n = Int(a), n >= 1 else { return nil }
                let per: Int?
                switch b {
                case "day": per = 1
                case "week", "wk": per = 7
                case "month", "mo": per = 30
                default: per = b.hasSuffix("d") ? Int(b.dropLast()) : Int(b)
                }
                guard let m = per, (1...365).contains(m), n <= m else { return nil }
                return Frequency(times: n, days: m, weekdays: nil)
            }
            var chosen: Set<Int> = []
            for part in s.split(separator: ",", omittingEmptySubsequences: false) {
                let ends = part.split(separator: "-", omittingEmptySubsequences: false).map { weekday(String($0)) }
                guard !ends.isEmpty, ends.count <= 2, let a = ends.first!, let b = ends.last! else { return nil }
                var d = a
                while true { chosen.insert(d); if d == b { break }; d = (d + 1) % 7 }
            }
            return chosen.isEmpty ? nil : Frequency(times: 1, days: 1, weekdays: chosen)
        }

        static func weekday(_ w: String) -> Int? {
            guard w.count >= 2 else { return nil }
            let full = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
            return full.firstIndex { $0.hasPrefix(w) && (w.count >= 3 || ["mo", "tu", "we", "th", "fr", "sa", "su"].contains(w)) }
        }
    }

    /// A day of a habit as Loop's entries say it (its CSV values).
    public enum Mark: Int, Sendable {
        case no = 0, auto = 1, yes = 2, rest = 3
        var counts: Bool { self != .no }
    }

    /// A habit's days from its first day marked to `today`, with its
    /// streaks and strength.
    public struct Progress: Sendable {
        public var first: Day
        public var marks: [Mark]
        public var strength: [Double]
        public var amounts: [Double]
        public var current: Int
        public var longest: Int

        public func mark(_ d: Day) -> Mark { let i = d - first; return i >= 0 && i < marks.count ? marks[i] : .no }
        public func strength(_ d: Day) -> Double { let i = d - first; return i >= 0 && i < strength.count ? strength[i] : 0 }
        public func amount(_ d: Day) -> Double { let i = d - first; return i >= 0 && i < amounts.count ? amounts[i] : 0 }
        /// What the `days` days ending with `d` hold.
        public func amount(_ d: Day, days: Int) -> Double { (0..<max(1, days)).reduce(0) { $0 + amount(d.adding(days: -$1)) } }
        public var now: Double { strength.last ?? 0 }
    }

    /// `done` are the days marked; `amounts` what a measurable habit's days
    /// hold (a target per `every.days` days, or per chosen day).
    public static func progress(done: Set<Day>, amounts: [Day: Double] = [:], every f: Frequency, target: Double? = nil, today: Day) -> Progress {
        let marked = done.filter { $0 <= today }
        guard let first = marked.min() else { return Progress(first: today, marks: [], strength: [], amounts: [], current: 0, longest: 0) }
        let n = today - first + 1
        let amount = (0..<n).map { i -> Double in
            let d = first.adding(days: i)
            return marked.contains(d) ? (amounts[d].map { max(0, $0) } ?? target ?? 1) : 0
        }
        var marks = [Mark](repeating: .no, count: n)
        let window = f.weekdays == nil ? f.days : 1
        if let target, target > 0 {
            // Measurable: a day meets its period when the amounts of the
            // period ending that day reach the target.
            var sum = 0.0
            for i in 0..<n {
                sum += amount[i] - (i >= window ? amount[i - window] : 0)
                if sum + 1e-9 >= target { marks[i] = amount[i] > 0 ? .yes : .auto }
            }
        } else if f.weekdays != nil || f.days == 1 {
            for i in 0..<n where amount[i] > 0 { marks[i] = .yes }
        } else {
            for (lo, hi) in intervals(doneIndices: (0..<n).filter { amount[$0] > 0 }, f, first: first) {
                let a = max(0, lo), b = min(n - 1, hi)
                if a <= b { for i in a...b { marks[i] = .auto } }
            }
            for i in 0..<n where amount[i] > 0 { marks[i] = .yes }
        }
        if let w = f.weekdays {
            for i in 0..<n where marks[i] == .no && !w.contains(first.adding(days: i).weekday) { marks[i] = .rest }
        }
        let strength = scores(marks: marks, amount: amount, f, target: target)
        let (current, longest) = streakLengths(marks)
        return Progress(first: first, marks: marks, strength: strength, amounts: amount, current: current, longest: longest)
    }

    /// Loop's intervals: each run of `times` marks within `days` days covers
    /// `days` days from its first, and each older interval slides back
    /// toward the newer one to close gaps (EntryList.buildIntervals and
    /// snapIntervalsTogether). Day indices from `first`.
    static func intervals(doneIndices: [Int], _ f: Frequency, first: Day) -> [(Int, Int)] {
        let newestFirst = Array(doneIndices.reversed())
        var out: [(begin: Int, center: Int, end: Int)] = []
        if f.times - 1 < newestFirst.count {
            for i in (f.times - 1)..<newestFirst.count {
                let begin = newestFirst[i], center = newestFirst[i - f.times + 1]
                var size = f.days
                if size == 30 || size == 31 {
                    let d = first.adding(days: begin)
                    let len = Day.daysInMonth(year: d.year, month: d.month)
                    if d.day == len { let nx = d.adding(days: 1); size = Day.daysInMonth(year: nx.year, month: nx.month) } else { size = len }
                }
                if center - begin < size { out.append((begin, center, begin + size - 1)) }
            }
        }
        if out.count > 1 {
            for i in 1..<out.count {
                let curr = out[i], next = out[i - 1]
                let gapNextToCurrent = curr.end - next.begin
                let gapCenterToEnd = curr.end - curr.center
                if gapNextToCurrent >= 0 {
                    let shift = min(gapCenterToEnd, gapNextToCurrent + 1)
                    out[i] = (curr.begin - shift, curr.center, curr.end - shift)
                }
            }
        }
        return out.map { ($0.begin, $0.end) }
    }

    /// Loop's score after each day (ScoreList.recompute, Score.compute): a
    /// moving average of how much of its period each day met, with a
    /// multiplier of 0.5^(√frequency/13); rest days leave it as it was.
    static func scores(marks: [Mark], amount: [Double], _ f: Frequency, target: Double?) -> [Double] {
        let freq = f.perDay
        let multiplier = pow(0.5, freq.squareRoot() / 13)
        var times = Double(f.weekdays == nil ? f.times : 1), window = f.weekdays == nil ? f.days : 1
        let measurable = (target ?? 0) > 0
        if !measurable && freq < 1 { times *= 2; window *= 2 }
        var rolling = 0.0, score = 0.0
        var out: [Double] = []
        out.reserveCapacity(marks.count)
        for i in marks.indices {
            let v = measurable ? amount[i] : (marks[i] == .yes ? 1 : 0)
            rolling += v - (i >= window ? (measurable ? amount[i - window] : (marks[i - window] == .yes ? 1 : 0)) : 0)
            if marks[i] != .rest {
                let part = measurable ? min(1, rolling / target!) : min(1, rolling / times)
                score = score * multiplier + max(0, part) * (1 - multiplier)
            }
            out.append(min(1, max(0, score)))
        }
        return out
    }

    /// The current streak (ending today, or yesterday while today is not
    /// marked) and the longest: runs of counting days that hold a day done,
    /// rest days before a run's first day done left out.
    static func streakLengths(_ marks: [Mark]) -> (Int, Int) {
        var longest = 0, run = 0
        var runs: [Int] = []
        for m in marks {
            switch m {
            case .no: run = 0
            case .rest: if run > 0 { run += 1 }
            case .yes, .auto: run += 1
            }
            runs.append(run)
            longest = max(longest, run)
        }
        guard let last = marks.last else { return (0, 0) }
        let current = last == .no ? (runs.count >= 2 ? runs[runs.count - 2] : 0) : runs[runs.count - 1]
        return (current, longest)
    }
}

extension HabitmatchState {
    /// How `u`'s habit `h` goes up to `today`, by its frequency.
    public func progress(_ u: String, _ h: Habitmatch.Habit, today: Day) -> Habitmatch.Progress {
        Habitmatch.progress(done: doneDays(u, h.id), amounts: h.target == nil ? [:] : amounts(u, h.id), every: h.every, target: h.target, today: today)
    }
}

extension Habitmatch {
    /// A habit's frequency, streaks and strength (and a measurable habit's
    /// target and today's amount) as a record says them.
    static func progressFields(_ h: Habit, _ p: Progress, today: Day) -> JSONObject {
        var o: JSONObject = ["every": .string(h.every.stored), "frequency": .string(h.every.described),
                             "current_streak": JSON(p.current), "longest_streak": JSON(p.longest), "strength": .double(rounded(p.strength(today)))]
        if let t = h.target {
            o["target"] = .double(t)
            o["unit"] = JSON(h.unit)
            o["today_amount"] = .double(p.amount(today))
            if h.every.weekdays == nil && h.every.days > 1 { o["period_amount"] = .double(p.amount(today, days: h.every.days)) }
        }
        return o
    }

    /// Whether a day marked counts as done: a yes/no habit's always, a
    /// measurable one's when its period met the target that day.
    static func met(_ h: Habit, _ p: Progress, _ d: Day) -> Bool { h.target == nil || p.mark(d) == .yes }

    /// "streak 3 (best 5) · strength 42% · 3 times a week", and for a
    /// measurable habit "· 12/20 pages today".
    static func progressText(_ h: Habit, _ p: Progress, today: Day) -> String {
        var t = "streak \(p.current) (best \(p.longest)) · strength \(Int((p.strength(today) * 100).rounded()))%"
        if !h.every.isDaily { t += " · \(h.every.described)" }
        if let target = h.target {
            let daily = h.every.days == 1 || h.every.weekdays != nil
            t += " · \(number(p.amount(today, days: daily ? 1 : h.every.days)))/\(number(target))\(h.unit.map { " " + $0.terminalSafe } ?? "") \(daily ? "today" : "in \(h.every.days) days")"
        }
        return t
    }

    /// A day's mark as the calendars draw it: ■ done, □ met by its period,
    /// ◐ part of a measurable target, - a rest day, · not done.
    static func glyph(_ p: Progress, _ d: Day) -> String {
        switch p.mark(d) {
        case .yes: return "■"
        case .auto: return "□"
        case .rest: return "-"
        case .no: return p.amount(d) > 0 ? "◐" : "·"
        }
    }

    static func rounded(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }
    /// 12, 2.5: an amount as a person writes it.
    static func number(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String((x * 100).rounded() / 100)
    }
}
