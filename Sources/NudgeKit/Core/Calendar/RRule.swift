// An iCalendar recurrence rule (RFC 5545 §3.3.10) as a value: read from its
// text, written back in a canonical order. What the rule produces is in
// RRuleExpansion.swift; a set of rules and dates in RecurrenceSet.swift.
//
// Invariants: names and values are read case-insensitively; every error is
// one line naming the part and what is accepted; `text` reads back to the
// same rule. Weekdays are numbered as `Day.weekday` (0 = Sunday).

public struct RRule: Equatable, Hashable, Sendable {
    /// Ordered as python-dateutil orders them: a smaller value is a longer period.
    public enum Freq: Int, Comparable, Sendable, CaseIterable {
        case yearly, monthly, weekly, daily, hourly, minutely, secondly
        public static func < (a: Freq, b: Freq) -> Bool { a.rawValue < b.rawValue }
        public var name: String { ["YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY", "MINUTELY", "SECONDLY"][rawValue] }
    }

    /// UNTIL: an instant (a UTC value), a local date-time (a floating
    /// value, read in the start's zone), or a date (the whole day, inclusive).
    public enum Until: Equatable, Hashable, Sendable {
        case instant(Instant)
        case local(LocalDateTime)
        case date(Day)
    }

    /// A BYDAY entry: a weekday (0 = Sunday), with its place in the month
    /// or year (1, 2, -1 for the last...) or none.
    public struct WeekdayNum: Equatable, Hashable, Sendable {
        public var weekday: Int
        public var n: Int?
        public init(_ weekday: Int, _ n: Int? = nil) { self.weekday = weekday; self.n = n }
    }

    public var freq: Freq
    public var interval = 1
    public var count: Int?
    public var until: Until?
    public var bySecond: [Int] = []
    public var byMinute: [Int] = []
    public var byHour: [Int] = []
    public var byDay: [WeekdayNum] = []
    public var byMonthDay: [Int] = []
    public var byYearDay: [Int] = []
    public var byWeekNo: [Int] = []
    public var byMonth: [Int] = []
    public var bySetPos: [Int] = []
    /// The first day of the week (0 = Sunday); Monday unless WKST says.
    public var wkst = 1

    public init(freq: Freq) { self.freq = freq }

    public static let dayCodes = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    /// The largest INTERVAL read (RFC 5545 sets none): a million periods is
    /// past the year 9999 for every frequency but SECONDLY, where it is 11
    /// days, and keeps every step of the expansion far from overflow.
    public static let maxInterval = 1_000_000
    /// The largest COUNT read: a counted rule is walked from its start to
    /// find where it is (the calendars' own limits are 999 or less), and a
    /// billion minutes took a minute a lookup.
    public static let maxCount = 10_000

    public struct ParseError: Error, Equatable, Sendable {
        public var message: String
        init(_ m: String) { message = m }
    }

    /// Reads `FREQ=WEEKLY;BYDAY=MO,WE` (an `RRULE:` prefix is allowed).
    public static func parse(_ text: String) throws(ParseError) -> RRule {
        var body = Substring(text.trimmingSpaces)
        if body.count >= 6, body.prefix(6).uppercased() == "RRULE:" { body = body.dropFirst(6) }
        var parts: [(String, String)] = []
        for p in body.split(separator: ";", omittingEmptySubsequences: true) {
            let kv = p.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard kv.count == 2, !kv[0].isEmpty else { throw ParseError("RRULE part '\(p)' is not NAME=VALUE") }
            let name = String(kv[0]).trimmingSpaces.uppercased()
            if parts.contains(where: { $0.0 == name }) { throw ParseError("RRULE names \(name) twice") }
            parts.append((name, String(kv[1]).trimmingSpaces.uppercased()))
        }
        guard let f = parts.first(where: { $0.0 == "FREQ" })?.1 else {
            throw ParseError("RRULE needs FREQ (SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY)")
        }
        guard let freq = Freq.allCases.first(where: { $0.name == f }) else {
            throw ParseError("RRULE FREQ=\(f) is not SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY")
        }
        var r = RRule(freq: freq)
        func ints(_ name: String, _ v: String, _ range: ClosedRange<Int>, signed: Bool) throws(ParseError) -> [Int] {
            var out: [Int] = []
            for x in v.split(separator: ",", omittingEmptySubsequences: false) {
                var s = Substring(x)
                if s.hasPrefix("+") { s = s.dropFirst() }
                // The magnitude, not abs(): abs(Int.min) traps.
                guard let n = Int(s), signed ? (n != 0 && n.magnitude >= UInt(range.lowerBound) && n.magnitude <= UInt(range.upperBound))
                                                : range.contains(n) else {
                    let what = signed ? "\(range.lowerBound) to \(range.upperBound) or -\(range.upperBound) to -\(range.lowerBound)"
                                      : "\(range.lowerBound) to \(range.upperBound)"
                    throw ParseError("RRULE \(name)=\(v): each value must be \(what)")
                }
                if !out.contains(n) { out.append(n) }
            }
            return out
        }
        for (name, v) in parts {
            switch name {
            case "FREQ": break
            case "INTERVAL":
                guard let n = Int(v), (1...RRule.maxInterval).contains(n) else {
                    throw ParseError("RRULE INTERVAL=\(v) must be a whole number from 1 to \(RRule.maxInterval)")
                }
                r.interval = n
            case "COUNT":
                guard let n = Int(v), (0...RRule.maxCount).contains(n) else {
                    throw ParseError("RRULE COUNT=\(v) must be a whole number from 0 to \(RRule.maxCount)")
                }
                r.count = n
            case "UNTIL":
                guard let u = ICSValue.dateOrDateTime(v) else {
                    throw ParseError("RRULE UNTIL=\(v) must be a date (20261231) or date-time (20261231T235959Z)")
                }
                switch u {
                case .date(let d): r.until = .date(d)
                case .local(let l): r.until = .local(l)
                case .utc(let i): r.until = .instant(i)
                }
            case "BYSECOND": r.bySecond = try ints(name, v, 0...59, signed: false)
            case "BYMINUTE": r.byMinute = try ints(name, v, 0...59, signed: false)
            case "BYHOUR": r.byHour = try ints(name, v, 0...23, signed: false)
            case "BYDAY":
                for d in v.split(separator: ",", omittingEmptySubsequences: false) {
                    let code = String(d.suffix(2))
                    guard d.count >= 2, let wd = dayCodes.firstIndex(of: code) else {
                        throw ParseError("RRULE BYDAY=\(v): each value must be a weekday (SU, MO, TU, WE, TH, FR, SA), maybe after a number (1MO, -1FR)")
                    }
                    var ord = d.dropLast(2)
                    if ord.hasPrefix("+") { ord = ord.dropFirst() }
                    if ord.isEmpty { r.byDay.append(WeekdayNum(wd)); continue }
                    guard let n = Int(ord), n != 0, n.magnitude <= 53 else {
                        throw ParseError("RRULE BYDAY=\(v): a weekday's number must be 1 to 53 or -1 to -53")
                    }
                    r.byDay.append(WeekdayNum(wd, n))
                }
            case "BYMONTHDAY": r.byMonthDay = try ints(name, v, 1...31, signed: true)
            case "BYYEARDAY": r.byYearDay = try ints(name, v, 1...366, signed: true)
            case "BYWEEKNO": r.byWeekNo = try ints(name, v, 1...53, signed: true)
            case "BYMONTH": r.byMonth = try ints(name, v, 1...12, signed: false)
            case "BYSETPOS": r.bySetPos = try ints(name, v, 1...366, signed: true)
            case "WKST":
                guard let wd = dayCodes.firstIndex(of: v) else { throw ParseError("RRULE WKST=\(v) must be a weekday: SU, MO, TU, WE, TH, FR or SA") }
                r.wkst = wd
            default:
                if name.hasPrefix("X-") { continue }
                throw ParseError("RRULE part \(name) is not an RFC 5545 rule part (FREQ, INTERVAL, COUNT, UNTIL, BYSECOND, BYMINUTE, BYHOUR, BYDAY, BYMONTHDAY, BYYEARDAY, BYWEEKNO, BYMONTH, BYSETPOS, WKST)")
            }
        }
        if r.count != nil && r.until != nil { throw ParseError("RRULE has both COUNT and UNTIL; RFC 5545 allows one") }
        return r
    }

    /// The rule in canonical order (FREQ first, INTERVAL only when not 1).
    public var text: String {
        var p = ["FREQ=\(freq.name)"]
        if interval != 1 { p.append("INTERVAL=\(interval)") }
        if let c = count { p.append("COUNT=\(c)") }
        if let u = until {
            switch u {
            case .instant(let i): p.append("UNTIL=\(ICS.utc(i))")
            case .local(let l): p.append("UNTIL=\(ICS.local(l))")
            case .date(let d): p.append("UNTIL=\(ICS.date(d))")
            }
        }
        func list(_ n: String, _ v: [Int]) { if !v.isEmpty { p.append("\(n)=" + v.map(String.init).joined(separator: ",")) } }
        list("BYSECOND", bySecond)
        list("BYMINUTE", byMinute)
        list("BYHOUR", byHour)
        if !byDay.isEmpty { p.append("BYDAY=" + byDay.map { ($0.n.map(String.init) ?? "") + RRule.dayCodes[$0.weekday] }.joined(separator: ",")) }
        list("BYMONTHDAY", byMonthDay)
        list("BYYEARDAY", byYearDay)
        list("BYWEEKNO", byWeekNo)
        list("BYMONTH", byMonth)
        list("BYSETPOS", bySetPos)
        if wkst != 1 { p.append("WKST=\(RRule.dayCodes[wkst])") }
        return p.joined(separator: ";")
    }
}
