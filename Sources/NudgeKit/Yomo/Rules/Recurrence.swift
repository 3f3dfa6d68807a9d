// yomo's recurrence rules and the occurrences they produce. Pure: a rule, an
// anchor (the first occurrence's local date and time) and a zone in, instants
// out. Wall times that fall in a DST gap or overlap resolve as RFC 5545 does:
// a gap moves forward by its length, an overlap takes the first instant.

public enum Weekdays {
    /// The names records use (`days_of_week`), indexed by Day.weekday (0 = Sunday).
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
    /// `rrule`: an imported iCalendar rule, kept as RFC 5545 says it
    /// (RecurrenceRFC.swift); the others are yomo's own.
    public enum Kind: String, Sendable, CaseIterable { case none, daily, weekly, custom, rrule }
    public enum Unit: String, Sendable, CaseIterable { case hour, day, week, month, year }

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
    /// The last day an occurrence may fall on (local), inclusive.
    public var until: Day?
    /// How many occurrences in all, counted from the anchor.
    public var count: Int?
    /// For `rrule`: the RRULEs, RDATEs, EXDATEs and EXRULEs (its start is the anchor).
    public var set: RecurrenceSet? = nil
    /// Single occurrences moved or cancelled (RECURRENCE-ID, `edit --occurrence`).
    public var overrides: [Override] = []

    public init(kind: Kind = .none, interval: Int = 1, unit: Unit = .day, days: [Int] = [],
                rangeStart: TimeOfDay? = nil, rangeEnd: TimeOfDay? = nil, monthOrdinal: Int? = nil,
                monthWeekday: Int? = nil, basedOnCompletion: Bool = false, until: Day? = nil, count: Int? = nil) {
        self.kind = kind
        self.interval = interval
        self.unit = unit
        self.days = Weekdays.sorted(days)
        self.rangeStart = rangeStart
        self.rangeEnd = rangeEnd
        self.monthOrdinal = monthOrdinal
        self.monthWeekday = monthWeekday
        self.basedOnCompletion = basedOnCompletion
        self.until = until
        self.count = count
    }

    public static let once = Recurrence()
    public var repeats: Bool { kind != .none }

    /// One occurrence, by its wall time in the reminder's zone, moved to
    /// another wall time, or cancelled (`to` nil).
    public struct Override: Equatable, Hashable, Sendable {
        public var occurrence: LocalDateTime
        public var to: LocalDateTime?
        public init(occurrence: LocalDateTime, to: LocalDateTime?) { self.occurrence = occurrence; self.to = to }
    }

    /// The rule in its general form: daily = every 1 day, weekly = every 1 week.
    public var effective: (interval: Int, unit: Unit) {
        switch kind {
        case .none, .rrule: return (1, .day)
        case .daily: return (1, .day)
        case .weekly: return (1, .week)
        case .custom: return (interval, unit)
        }
    }

    /// What is wrong with the rule, in words a user can act on; nil if valid.
    public var problem: String? {
        if kind == .none || kind == .rrule { return nil }
        if kind == .custom && !(1...1000).contains(interval) { return "--every must be a whole number from 1 to 1000" }
        let u = effective.unit
        if rangeStart != nil || rangeEnd != nil {
            guard u == .hour else { return "--between works with --unit hour only" }
            guard rangeStart != nil, rangeEnd != nil else { return "--between needs a start and an end, like 09:00-18:00" }
        }
        if monthOrdinal != nil || monthWeekday != nil {
            guard u == .month || u == .year else { return "--on works with --unit month or year only" }
            guard let o = monthOrdinal, monthWeekday != nil, (1...5).contains(o) || o == -1 else {
                return "--on must be like 2nd-tue or last-fri"
            }
        }
        if !days.isEmpty && u != .week && u != .hour && kind != .weekly {
            return "--days works with weekly rules, --unit week or --unit hour"
        }
        if let c = count, !(1...1000).contains(c) { return "--count must be a whole number from 1 to 1000" }
        return nil
    }

    /// Whether an hourly range runs past midnight (22:00-06:00).
    public var overnight: Bool {
        guard let s = rangeStart, let e = rangeEnd else { return false }
        return e < s
    }

    // MARK: Occurrences

    /// The rule's own first occurrence strictly after `t`, before overrides.
    func ruleNext(after t: Instant, anchor: LocalDateTime, zone: Zone) -> Instant? {
        if kind == .rrule {
            guard var s = set else { return nil }
            s.start = anchor
            return s.next(after: t, zone: zone)
        }
        guard let n = nextUnbounded(after: t, anchor: anchor, zone: zone) else { return nil }
        if let u = until, zone.day(of: n) > u { return nil }
        if let c = count {
            // The n-th occurrence from the anchor: count the ones before it.
            var k = 0
            var o = Instant(ms: zone.resolve(anchor).ms - 1)
            while let x = nextUnbounded(after: o, anchor: anchor, zone: zone), x < n {
                k += 1
                o = x
                if k >= c { return nil }
            }
        }
        return n
    }

    func nextUnbounded(after t: Instant, anchor: LocalDateTime, zone: Zone) -> Instant? {
        if kind == .none || kind == .rrule {
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
                // Every N hours of elapsed time from the anchor, on the chosen days only.
                let a = zone.resolve(anchor)
                let step = Int64(n) * 3_600_000
                var k = a > t ? 0 : (t.ms - a.ms) / step + 1
                while budget > 0 {
                    let i = Instant(ms: a.ms + k * step)
                    if days.isEmpty || days.contains(zone.day(of: i).weekday) { return i }
                    // On to the chosen day's first step.
                    var d = zone.day(of: i).adding(days: 1)
                    while !days.contains(d.weekday) { d = d.adding(days: 1) }
                    let from = zone.startOfDay(d)
                    k = max(k + 1, (from.ms - a.ms + step - 1) / step)
                    budget -= 1
                }
                return nil
            }
            var d = fromDay
            let end = e.secondsOfDay + (e < s ? 86_400 : 0)  // overnight: on into the next day
            while budget > 0 {
                if days.isEmpty || days.contains(d.weekday) {
                    var sec = s.secondsOfDay
                    while sec <= end {
                        let l = LocalDateTime(wallSeconds: Int64(d.daysSinceEpoch) * 86_400 + Int64(sec))
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
        case .year:
            var k = max(0, (fromDay.year - anchorDay.year) / n - 1)
            while budget > 0 {
                let y = anchorDay.year + k * n
                guard y <= 9999 else { return nil }
                let d: Day?
                if let o = monthOrdinal, let wd = monthWeekday {
                    d = Recurrence.nthWeekday(year: y, month: anchorDay.month, ordinal: o, weekday: wd)
                } else {
                    d = Day(year: y, month: anchorDay.month, day: min(anchorDay.day, Day.daysInMonth(year: y, month: anchorDay.month)))
                }
                if let d = d, d >= anchorDay {
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

    /// For "repeat from completion": N units after the completion, keeping
    /// the rest of the rule. Hours: N hours of elapsed time, moved to the next
    /// start of the range (on an allowed day) when that falls outside it.
    /// Days, weeks, months, years: N units after the completion's day, then
    /// the first day the rule allows from there (its weekdays, its ordinal
    /// weekday or day of the month), at the rule's time of day. Always after
    /// the completion.
    public func nextAfterCompletion(_ c: Instant, anchor: LocalDateTime, zone: Zone) -> Instant {
        let (n, unit) = effective
        let l = zone.local(c)
        let time = anchor.time
        func at(_ d: Day) -> Instant { zone.resolve(LocalDateTime(day: d, time: time)) }
        var result: Instant
        switch unit {
        case .hour:
            let plain = Instant(ms: c.ms + Int64(n) * 3_600_000)
            guard let s = rangeStart, let e = rangeEnd else {
                if days.isEmpty { return plain }
                var d = zone.local(plain).day
                if days.contains(d.weekday) { return plain }
                while !days.contains(d.weekday) { d = d.adding(days: 1) }
                return zone.resolve(LocalDateTime(day: d, time: TimeOfDay(hour: 0, minute: 0)))
            }
            // The windows the range opens, day by day: inside one, keep the
            // elapsed time; else the next window's start.
            let length = Int64((e.secondsOfDay - s.secondsOfDay + 86_400) % 86_400)
            var d = zone.local(plain).day.adding(days: -1)
            for _ in 0..<10 {
                if days.isEmpty || days.contains(d.weekday) {
                    let open = LocalDateTime(day: d, time: s)
                    let close = LocalDateTime(wallSeconds: open.wallSeconds + length)
                    let p = zone.local(plain)
                    if p >= open && p <= close { return plain }
                    let start = zone.resolve(open)
                    if start > plain { return start }
                }
                d = d.adding(days: 1)
            }
            return plain
        case .day:
            result = at(l.day.adding(days: n))
        case .week:
            var d = l.day.adding(days: 7 * n)
            if !days.isEmpty { while !days.contains(d.weekday) { d = d.adding(days: 1) } }
            result = at(d)
        case .month, .year:
            let months = unit == .year ? 12 * n : n
            var idx = l.day.year * 12 + l.day.month - 1 + months
            var found: Day? = nil
            for _ in 0..<24 {
                let (y, m) = (idx / 12, idx % 12 + 1)
                if unit == .year && m != anchor.day.month {
                    // A yearly rule stays in its month.
                    idx += (anchor.day.month - m + 12) % 12
                    continue
                }
                if let o = monthOrdinal, let wd = monthWeekday {
                    found = Recurrence.nthWeekday(year: y, month: m, ordinal: o, weekday: wd)
                } else {
                    found = Day(year: y, month: m, day: min(anchor.day.day, Day.daysInMonth(year: y, month: m)))
                }
                if found != nil { break }
                idx += unit == .year ? 12 : 1
            }
            result = at(found ?? l.day.adding(days: 28 * months))
        }
        return result > c ? result : Instant(ms: c.ms + Int64(n) * 3_600_000)
    }

    // MARK: Records

    static let ordinalWords = [-1: "last", 1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th"]

    /// The `recurrence_rule` object of `yomo parse` (snake_case): `json` without its type.
    public var ruleJSON: JSON {
        guard kind != .none, case .object(var o) = json else { return .null }
        o["type"] = nil
        return .object(o)
    }

    /// The reminder record's `recurrence` object: the type and the rule.
    public var json: JSON {
        if kind == .none { return .object(["type": "none"]) }
        if kind == .rrule { return .object(rfcJSON) }
        let (n, unit) = effective
        var o: JSONObject = ["type": .string(kind.rawValue), "interval": JSON(n), "unit": .string(unit.rawValue),
                             "days_of_week": days.isEmpty ? .null : JSON(days.map { Weekdays.names[$0] }),
                             "time_range_start": JSON(rangeStart?.description), "time_range_end": JSON(rangeEnd?.description),
                             "based_on_completion": .bool(basedOnCompletion)]
        if let o2 = monthOrdinal, let wd = monthWeekday {
            o["month_ordinal"] = JSON(o2)
            o["month_weekday"] = .string(Weekdays.names[wd])
        }
        if let u = until { o["until"] = .string(u.description) }
        if let c = count { o["count"] = JSON(c) }
        if !overrides.isEmpty { o["overrides"] = overridesJSON }
        return .object(o)
    }

    /// A rule as a journal or snapshot holds it: read back, and believed
    /// only when the CLI would have taken it (`problem`); else none. A
    /// peer's interval of 0 or 10^18 never reaches the arithmetic.
    public static func stored(_ json: JSONObject?) -> Recurrence? {
        guard let r = from(type: json?["type"]?.string, rule: json), r.problem == nil else { return nil }
        return r
    }

    /// Reads `json` (or a `recurrence_type` and a `recurrence_rule`) back.
    public static func from(type: String?, rule: JSONObject?) -> Recurrence? {
        guard let kind = Kind(rawValue: type ?? "none") else { return nil }
        if kind == .none { return Recurrence.once }
        if kind == .rrule { return rule.flatMap(Recurrence.fromRFC) }
        var r = Recurrence(kind: kind)
        if let rule = rule {
            if let o = rule["overrides"], !o.isNull { guard let list = Recurrence.overrides(o) else { return nil }; r.overrides = list }
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
            if let u = rule["until"], !u.isNull { guard let d = u.string.flatMap(Day.parse) else { return nil }; r.until = d }
            if let c = rule["count"], !c.isNull { guard let n = c.int else { return nil }; r.count = Int(n) }
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
        case (.rrule, _): return rfcSummary
        case (.none, _): return "once"
        case (.daily, _): s = "daily"
        case (.weekly, _): s = days.isEmpty ? "weekly" : "every \(dayNames)"
        case (_, .hour):
            s = n == 1 ? "hourly" : "every \(n) h"
            if !days.isEmpty { s += " on \(dayNames)" }
        case (_, .day): s = n == 1 ? "daily" : "every \(n) days"
        case (_, .week): s = (n == 1 ? "weekly" : "every \(n) weeks") + (days.isEmpty ? "" : " on \(dayNames)")
        case (_, .month):
            s = n == 1 ? "monthly" : "every \(n) months"
            if let o = monthOrdinal, let wd = monthWeekday {
                s += " on the \(Recurrence.ordinalWords[o] ?? "\(o)") \(Weekdays.display(wd))"
            }
        case (_, .year):
            s = n == 1 ? "yearly" : "every \(n) years"
            if let o = monthOrdinal, let wd = monthWeekday {
                s += " on the \(Recurrence.ordinalWords[o] ?? "\(o)") \(Weekdays.display(wd))"
            }
        }
        if let a = rangeStart, let b = rangeEnd { s += " \(a)-\(b)" }
        if basedOnCompletion { s += " after done" }
        if let u = until { s += " until \(u)" }
        if let c = count { s += " \(c) times" }
        return s
    }
}
