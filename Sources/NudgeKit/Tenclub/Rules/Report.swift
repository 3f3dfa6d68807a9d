// The pickups report, as Screen Time shows it: for a day, a week (Monday to
// Sunday) or a month, the unlocks per hour of the day, each day's first
// unlock, the busiest hour, the daily average against the period before,
// the busted days and the longest run of days at ten or under. Pure: it
// takes the counts, the counted instants and the zone.
//
// Invariants: only tracked days count (from the first day counted, as
// history has it, up to today), so days not yet come or before tenclub was
// used pull no average down; the average is over finished days; a day's
// count is its count (`days`), the hours and the first unlock come from
// the instants counted (`seen`), read in the zone in force now.

extension Tenclub {
    public enum Period: String, CaseIterable, Sendable {
        case day, week, month
    }

    /// The days of the period holding `date`: that day; its week, Monday to
    /// Sunday; its month.
    /// (No period runs past 9999-12-31, the last day a date can name.)
    public static func span(_ p: Period, holding date: Day) -> ClosedRange<Day> {
        let last = Day(year: 9999, month: 12, day: 31)
        switch p {
        case .day: return date...date
        case .week:
            let monday = date.adding(days: -((date.weekday + 6) % 7))
            return monday...min(last, monday.adding(days: 6))
        case .month:
            let first = Day(year: date.year, month: date.month, day: 1)
            let next = date.month == 12 ? Day(year: date.year + 1, month: 1, day: 1) : Day(year: date.year, month: date.month + 1, day: 1)
            return first...min(last, next.adding(days: -1))
        }
    }

    /// The period of the same kind just before `r`.
    public static func previous(_ p: Period, before r: ClosedRange<Day>) -> ClosedRange<Day> {
        span(p, holding: r.lowerBound.adding(days: -1))
    }

    public struct ReportDay: Equatable, Sendable {
        public var date: Day
        public var unlocks: Int
        /// The first unlock's local time, when its instant is known.
        public var first: TimeOfDay?

        public var record: JSONObject {
            let c = Tenclub.card(for: unlocks)
            return ["type": "report_day", "date": .string(date.description), "unlocks": JSON(unlocks), "card": .string(c.code),
                    "busted": .bool(Tenclub.isBusted(unlocks)), "first_unlock": first.map { .string(Tenclub.clock($0)) } ?? .null]
        }
    }

    public struct Report: Equatable, Sendable {
        public var period: Period
        public var span: ClosedRange<Day>
        /// The tracked days of the period, oldest first.
        public var days: [ReportDay]
        /// Unlocks per hour of the day (0–23), of those whose instant is known.
        public var hours: [Int]
        public var unlocks: Int { days.reduce(0) { $0 + $1.unlocks } }
        /// Today, when the period holds it: a day not over yet.
        public var today: Day? = nil
        /// The days the average is over: the finished ones, or today when
        /// it is the only one (the change is then not given).
        var averaged: [ReportDay] {
            let finished = days.filter { $0.date != today }
            return finished.isEmpty ? days : finished
        }
        /// Unlocks a day, over the finished tracked days (today's count
        /// would pull a week down every morning).
        public var average: Double? {
            let a = averaged
            return a.isEmpty ? nil : Double(a.reduce(0) { $0 + $1.unlocks }) / Double(a.count)
        }
        public var previousAverage: Double?
        /// The hour with the most unlocks (the earliest of equals); nil without any.
        public var busiestHour: Int? {
            guard let top = hours.max(), top > 0 else { return nil }
            return hours.firstIndex(of: top)
        }
        public var bustedDays: Int { days.filter { Tenclub.isBusted($0.unlocks) }.count }
        public var tenclubDays: Int { days.count - bustedDays }
        /// The longest run of consecutive days at ten or under.
        public var longestRun: Int {
            var best = 0, run = 0
            for d in days {
                run = Tenclub.isBusted(d.unlocks) ? 0 : run + 1
                best = max(best, run)
            }
            return best
        }
        /// The change of the daily average against the period before, in
        /// whole percent; nil when either has no tracked day, the one before
        /// averaged zero, or the average is today's alone.
        public var changePercent: Int? {
            guard let a = average, let p = previousAverage, p > 0, !averaged.contains(where: { $0.date == today }) else { return nil }
            return Int(((a - p) / p * 100).rounded())
        }

        public var record: JSONObject {
            func tenth(_ v: Double?) -> JSON { v.map { .double(($0 * 10).rounded() / 10) } ?? .null }
            return ["type": "report", "period": .string(period.rawValue), "from": .string(span.lowerBound.description),
                    "to": .string(span.upperBound.description), "days": JSON(days.count), "unlocks": JSON(unlocks),
                    "daily_average": tenth(average), "previous_daily_average": tenth(previousAverage),
                    "change_percent": changePercent.map { JSON($0) } ?? .null, "busiest_hour": busiestHour.map { JSON($0) } ?? .null,
                    "busted_days": JSON(bustedDays), "tenclub_days": JSON(tenclubDays), "longest_run": JSON(longestRun),
                    "hours": .array(hours.map { JSON($0) })]
        }
    }

    /// The tracked days of `r`: from the first day counted to today.
    static func tracked(_ r: ClosedRange<Day>, first: Day?, today: Day) -> [Day] {
        guard let f = first else { return [] }
        var out: [Day] = []
        var d = max(r.lowerBound, f)
        while d <= min(r.upperBound, today) {
            out.append(d)
            d = d.adding(days: 1)
        }
        return out
    }

    /// The report of the period holding `date`.
    public static func report(_ p: Period, holding date: Day, today: Day, days: [Day: Int], seen: [Day: [Int64]], zone: Zone) -> Report {
        // From the first day with a count, as history has it.
        let first = days.keys.min()
        let r = span(p, holding: date)
        var hours = [Int](repeating: 0, count: 24)
        var rows: [ReportDay] = []
        for d in tracked(r, first: first, today: today) {
            for ms in seen[d] ?? [] { hours[zone.local(Instant(ms: ms)).time.hour] += 1 }
            rows.append(ReportDay(date: d, unlocks: days[d] ?? 0, first: firstUnlock(seen, d, zone: zone)))
        }
        let before = tracked(previous(p, before: r), first: first, today: today)
        let previousAverage = before.isEmpty ? nil : Double(before.reduce(0) { $0 + (days[$1] ?? 0) }) / Double(before.count)
        return Report(period: p, span: r, days: rows, hours: hours, today: r.contains(today) ? today : nil, previousAverage: previousAverage)
    }

    /// 07:05: to the minute.
    static func clock(_ t: TimeOfDay) -> String { TimeOfDay(hour: t.hour, minute: t.minute).description }

    /// The report for a terminal: the summary, the hours as a 24-column
    /// chart, and one line a day. Block characters, or ASCII where the
    /// terminal's character set is not UTF-8 (`unicode` false).
    public static func reportText(_ r: Report, unicode: Bool) -> String {
        let name = r.period == .day ? "\(r.span.lowerBound)" : "\(r.period == .week ? "Week" : "Month") of \(r.span.lowerBound) to \(r.span.upperBound)"
        guard let avg = r.average else { return "\(name): no unlocks tracked.\n" }
        func one(_ v: Double) -> String { r.period == .day ? "\(Int(v.rounded()))" : "\((v * 10).rounded() / 10)" }
        var t = "\(name): \(r.unlocks) unlock\(r.unlocks == 1 ? "" : "s")"
        if r.today != nil { t += " so far" }
        if r.period != .day { t += ", \(one(avg)) a day" + (r.today != nil && r.days.count > 1 ? " before today" : "") }
        if let c = r.changePercent, let p = r.previousAverage {
            let before = r.period == .day ? "the day before" : "the \(r.period.rawValue) before"
            t += c == 0 ? " (about the same as \(before))" : " (\(c > 0 ? "up" : "down") \(abs(c))% from \(one(p)) \(r.period == .day ? "" : "a day ")\(before))"
        }
        t += "\n"
        if let h = r.busiestHour { t += "Busiest hour \(h < 10 ? "0" : "")\(h):00. " }
        t += "Busted \(r.bustedDays) of \(r.days.count) day\(r.days.count == 1 ? "" : "s"); longest run at ten or under: \(r.longestRun) day\(r.longestRun == 1 ? "" : "s").\n\n"
        t += "  " + Chart.columns(r.hours, unicode: unicode) + "  top \(r.hours.max() ?? 0)\n"
        t += "  0     6     12    18   23\n\n"
        t += dayLinesHeader
        for d in r.days { t += dayLine(d.date, unlocks: d.unlocks, first: d.first) }
        return t
    }

    /// The columns of a list of days, as `report` and `history` print them.
    static let dayLinesHeader = "DATE        UNLOCKS  CARD   FIRST\n"

    /// 2026-11-22      12  JOKER  07:05  BUSTED!
    static func dayLine(_ date: Day, unlocks: Int, first: TimeOfDay?) -> String {
        let count = String(unlocks), code = card(for: unlocks).code, at = first.map(clock) ?? "-"
        var t = "\(date)  \(String(repeating: " ", count: max(0, 7 - count.count)))\(count)  \(code)\(String(repeating: " ", count: max(1, 7 - code.count)))\(at)"
        if isBusted(unlocks) { t += String(repeating: " ", count: max(2, 7 - at.count)) + "BUSTED!" }
        return t + "\n"
    }

    /// A day's first counted unlock, in `zone`.
    static func firstUnlock(_ seen: [Day: [Int64]], _ d: Day, zone: Zone) -> TimeOfDay? {
        seen[d]?.first.map { zone.local(Instant(ms: $0)).time }
    }
}
