// yomo's recurrence rules and the occurrences they produce. Pure: a rule, an
// anchor (the first occurrence's local date and time) and a zone in, instants
// out. Wall times that fall in a DST gap or overlap resolve as RFC 5545 does:
// a gap moves forward by its length, an overlap takes the first instant.

public enum Weekdays {
    /// Seed spelling, indexed by Day.weekday (0 = Sunday).
    public static let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    public static let mondayFirst = [1, 2, 3, 4, 5, 6, 0]

    public static func parse(_ s: String) -> Int? {
        let l = s.lowercased()
        let full = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        if let i = full.firstIndex(of: l) { return i }
        if let i = names.firstIndex(of: l) { return i }
        let extra: [String: Int] = ["tues": 2, "wednes": 3, "thur": 4, "thurs": 4, "weds": 3]
        return extra[l]
    }

    /// `mon,wed,fri` into weekday numbers, Monday first.
    public static func parseList(_ s: String) -> [Int]? {
        var out = Set<Int>()
        for part in s.split(separator: ",") {
            guard let d = parse(String(part).trimmingSpaces) else { return nil }
            out.insert(d)
        }
        return out.isEmpty ? nil : sorted(out)
    }

    /// "Tue"
    public static func display(_ d: Int) -> String { names[d].prefix(1).uppercased() + names[d].dropFirst() }

    public static func sorted<S: Sequence>(_ days: S) -> [Int] where S.Element == Int {
        let set = Set(days)
        return mondayFirst.filter { set.contains($0) }
    }
}

public struct Recurrence: Equatable, Sendable {
    public enum Kind: String, Sendable, CaseIterable { case none, daily, weekly, custom }
    public enum Unit: String, Sendable, CaseIterable { case hour, day, week, month }

    public var kind: Kind
    public var interval: Int
    public var unit: Unit
    /// Weekdays (0 = Sunday), Monday first; for weekly rules, custom weeks,
    /// and optionally to limit hourly rules to some days.
    public var days: [Int]
    public var rangeStart: TimeOfDay?
    public var rangeEnd: TimeOfDay?
    /// 1…5 or -1 for "last"; with `monthWeekday`, for monthly rules.
    public var monthOrdinal: Int?
    public var monthWeekday: Int?
    public var basedOnCompletion: Bool

    public init(kind: Kind = .none, interval: Int = 1, unit: Unit = .day, days: [Int] = [],
                rangeStart: TimeOfDay? = nil, rangeEnd: TimeOfDay? = nil, monthOrdinal: Int? = nil,
                monthWeekday: Int? = nil, basedOnCompletion: Bool = false) {
        self.kind = kind
        self.interval = interval
        self.unit = unit
        self.days = Weekdays.sorted(days)
        self.rangeStart = rangeStart
        self.rangeEnd = rangeEnd
        self.monthOrdinal = monthOrdinal
        self.monthWeekday = monthWeekday
        self.basedOnCompletion = basedOnCompletion
    }

    public static let once = Recurrence()
    public var repeats: Bool { kind != .none }

    /// The rule in its general form: daily = every 1 day, weekly = every 1 week.
    public var effective: (interval: Int, unit: Unit) {
        switch kind {
        case .none: return (1, .day)
        case .daily: return (1, .day)
        case .weekly: return (1, .week)
        case .custom: return (interval, unit)
        }
    }

    /// What is wrong with the rule, in words a user can act on; nil if valid.
    public var problem: String? {
        if kind == .none { return nil }
        if kind == .custom && !(1...1000).contains(interval) { return "--every must be a whole number from 1 to 1000" }
        let u = effective.unit
        if rangeStart != nil || rangeEnd != nil {
            guard u == .hour else { return "--between works with --unit hour only" }
            guard let s = rangeStart, let e = rangeEnd else { return "--between needs a start and an end, like 09:00-18:00" }
            if e == s { return "--between needs two different times, like 09:00-18:00 (or 22:00-06:00 across midnight)" }
        }
        if monthOrdinal != nil || monthWeekday != nil {
            guard u == .month else { return "--on works with --unit month only" }
            guard let o = monthOrdinal, monthWeekday != nil, (1...5).contains(o) || o == -1 else {
                return "--on must be like 2nd-tue or last-fri"
            }
        }
        if !days.isEmpty && u != .week && u != .hour && kind != .weekly {
            return "--days works with weekly rules, --unit week or --unit hour"
        }
        return nil
    }

    // MARK: Occurrences

    /// The first occurrence strictly after `t`, for a rule whose first
    /// occurrence is at `anchor` (local) in `zone`. nil when there is none.
    public func next(after t: Instant, anchor: LocalDateTime, zone: Zone) -> Instant? {
        if kind == .none {
            let a = zone.resolve(anchor)
            return a > t ? a : nil
        }
        let (n, unit) = effective
        let anchorDay = anchor.day
        // Never look before the day before t: occurrences there are all <= t.
        let fromDay = max(anchorDay, zone.day(of: t).adding(days: -1))
        var budget = 20_000
        switch unit {
        case .hour:
            guard let s = rangeStart, let e = rangeEnd else {
                // Every N hours of elapsed time from the anchor.
                let a = zone.resolve(anchor)
                if a > t { return a }
                let step = Int64(n) * 3_600_000
                let k = (t.ms - a.ms) / step + 1
                return Instant(ms: a.ms + k * step)
            }
            var d = fromDay
            while budget > 0 {
                if days.isEmpty || days.contains(d.weekday) {
                    var sec = s.secondsOfDay
                    // A range across midnight (22:00-06:00) runs into the next day.
                    let last = e.secondsOfDay + (e < s ? 86_400 : 0)
                    while sec <= last {
                        let l = sec >= 86_400 ? LocalDateTime(day: d.adding(days: 1), time: TimeOfDay(secondsOfDay: sec - 86_400))
                                              : LocalDateTime(day: d, time: TimeOfDay(secondsOfDay: sec))
                        if l >= anchor {
                            let i = zone.resolve(l)
                            if i > t { return i }
                        }
                        sec += n * 3600
                        budget -= 1
                    }
                }
                d = d.adding(days: 1)
                budget -= 1
            }
            return nil
        case .day:
            var k = max(0, (fromDay - anchorDay) / n)
            while budget > 0 {
                let i = zone.resolve(LocalDateTime(day: anchorDay.adding(days: k * n), time: anchor.time))
                if i > t { return i }
                k += 1
                budget -= 1
            }
            return nil
        case .week:
            let chosen = days.isEmpty ? [anchorDay.weekday] : days
            let anchorWeek = anchorDay.adding(days: -((anchorDay.weekday + 6) % 7))  // its Monday
            var k = max(0, (fromDay - anchorWeek) / (7 * n) - 1)
            while budget > 0 {
                let monday = anchorWeek.adding(days: k * 7 * n)
                for wd in chosen {
                    let d = monday.adding(days: (wd + 6) % 7)
                    if d < anchorDay { continue }
                    let i = zone.resolve(LocalDateTime(day: d, time: anchor.time))
                    if i > t { return i }
                }
                k += 1
                budget -= 1
            }
            return nil
        case .month:
            let anchorIndex = anchorDay.year * 12 + anchorDay.month - 1
            let fromIndex = fromDay.year * 12 + fromDay.month - 1
            var k = max(0, (fromIndex - anchorIndex) / n - 1)
            while budget > 0 {
                let idx = anchorIndex + k * n
                let (y, m) = (idx / 12, idx % 12 + 1)
                if let d = dayInMonth(year: y, month: m, anchor: anchorDay), d >= anchorDay {
                    let i = zone.resolve(LocalDateTime(day: d, time: anchor.time))
                    if i > t { return i }
                }
                k += 1
                budget -= 1
            }
            return nil
        }
    }

    /// The day a monthly rule falls on in a month: the ordinal weekday, or the
    /// anchor's day of month, moved back to the month's last day if the month
    /// is shorter (a reminder on the 31st comes on April 30th).
    func dayInMonth(year: Int, month: Int, anchor: Day) -> Day? {
        guard year >= 1 && year <= 9999 else { return nil }
        if let o = monthOrdinal, let wd = monthWeekday {
            return Recurrence.nthWeekday(year: year, month: month, ordinal: o, weekday: wd)
        }
        return Day(year: year, month: month, day: min(anchor.day, Day.daysInMonth(year: year, month: month)))
    }

    public static func nthWeekday(year: Int, month: Int, ordinal: Int, weekday: Int) -> Day? {
        let dim = Day.daysInMonth(year: year, month: month)
        if ordinal == -1 {
            let last = Day(year: year, month: month, day: dim)
            return last.adding(days: -((last.weekday - weekday + 7) % 7))
        }
        let first = Day(year: year, month: month, day: 1)
        let d = 1 + (weekday - first.weekday + 7) % 7 + (ordinal - 1) * 7
        return d <= dim ? Day(year: year, month: month, day: d) : nil
    }

    /// For "repeat from completion": N units after the moment of completion.
    /// Depends on nothing but the completion time (and the zone for calendar units).
    public func nextAfterCompletion(_ c: Instant, zone: Zone) -> Instant {
        let (n, unit) = effective
        let l = zone.local(c)
        switch unit {
        case .hour: return Instant(ms: c.ms + Int64(n) * 3_600_000)
        case .day: return zone.resolve(LocalDateTime(day: l.day.adding(days: n), time: l.time))
        case .week: return zone.resolve(LocalDateTime(day: l.day.adding(days: 7 * n), time: l.time))
        case .month:
            let idx = l.day.year * 12 + l.day.month - 1 + n
            let (y, m) = (idx / 12, idx % 12 + 1)
            let d = Day(year: y, month: m, day: min(l.day.day, Day.daysInMonth(year: y, month: m)))
            return zone.resolve(LocalDateTime(day: d, time: l.time))
        }
    }

    // MARK: Records

    static let ordinalWords = [-1: "last", 1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th"]

    /// The seed's recurrence_rule object (snake_case): `json` without its type.
    public var ruleJSON: JSON {
        guard kind != .none, case .object(var o) = json else { return .null }
        o["type"] = nil
        return .object(o)
    }

    /// The reminder record's `recurrence` object: the type and the rule.
    public var json: JSON {
        if kind == .none { return .object(["type": "none"]) }
        let (n, unit) = effective
        var o: JSONObject = ["type": .string(kind.rawValue), "interval": JSON(n), "unit": .string(unit.rawValue),
                             "days_of_week": days.isEmpty ? .null : JSON(days.map { Weekdays.names[$0] }),
                             "time_range_start": JSON(rangeStart?.description), "time_range_end": JSON(rangeEnd?.description),
                             "based_on_completion": .bool(basedOnCompletion)]
        if let o2 = monthOrdinal, let wd = monthWeekday {
            o["month_ordinal"] = JSON(o2)
            o["month_weekday"] = .string(Weekdays.names[wd])
        }
        return .object(o)
    }

    /// Reads `json` (or a type plus the seed's recurrence_rule) back.
    public static func from(type: String?, rule: JSONObject?) -> Recurrence? {
        guard let kind = Kind(rawValue: type ?? "none") else { return nil }
        if kind == .none { return Recurrence.once }
        var r = Recurrence(kind: kind)
        if let rule = rule {
            if let i = rule["interval"]?.int { r.interval = Int(i) }
            if let u = rule["unit"]?.string {
                guard let unit = Unit(rawValue: u) else { return nil }
                r.unit = unit
            }
            if let ds = rule["days_of_week"]?.array {
                var out: [Int] = []
                for d in ds {
                    guard let s = d.string, let wd = Weekdays.parse(s) else { return nil }
                    out.append(wd)
                }
                r.days = Weekdays.sorted(out)
            }
            if let s = rule["time_range_start"]?.string { guard let t = TimeOfDay.parse(s) else { return nil }; r.rangeStart = t }
            if let s = rule["time_range_end"]?.string { guard let t = TimeOfDay.parse(s) else { return nil }; r.rangeEnd = t }
            if let o = rule["month_ordinal"]?.int { r.monthOrdinal = Int(o) }
            if let w = rule["month_weekday"]?.string { guard let wd = Weekdays.parse(w) else { return nil }; r.monthWeekday = wd }
            r.basedOnCompletion = rule["based_on_completion"]?.bool ?? false
        }
        if kind == .daily { r.interval = 1; r.unit = .day }
        if kind == .weekly { r.interval = 1; r.unit = .week }
        return r
    }

    /// A short description: "every Tue", "every 2 h 09:00-18:00", "2nd Tue monthly".
    public var summary: String {
        let (n, unit) = effective
        let dayNames = days.map(Weekdays.display).joined(separator: ",")
        var s: String
        switch (kind, unit) {
        case (.none, _): return "once"
        case (.daily, _): s = "daily"
        case (.weekly, _): s = days.isEmpty ? "weekly" : "every \(dayNames)"
        case (_, .hour): s = n == 1 ? "hourly" : "every \(n) h"
        case (_, .day): s = n == 1 ? "daily" : "every \(n) days"
        case (_, .week): s = (n == 1 ? "weekly" : "every \(n) weeks") + (days.isEmpty ? "" : " on \(dayNames)")
        case (_, .month):
            s = n == 1 ? "monthly" : "every \(n) months"
            if let o = monthOrdinal, let wd = monthWeekday {
                s += " on the \(Recurrence.ordinalWords[o] ?? "\(o)") \(Weekdays.display(wd))"
            }
        }
        if let a = rangeStart, let b = rangeEnd { s += " \(a)-\(b)" }
        if basedOnCompletion { s += " after done" }
        return s
    }
}
