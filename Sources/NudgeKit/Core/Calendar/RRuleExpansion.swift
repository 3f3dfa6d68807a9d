// The occurrences of one RRULE from a start, in the start's local wall time,
// as RFC 5545 §3.3.10 and python-dateutil compute them: period by period
// (a year, a month, a week from WKST, a day, an hour...), the BYxxx parts
// expanding or limiting the period's days and times as the RFC's table
// says, BYSETPOS picking within the period, then COUNT and UNTIL. The start
// counts only if the rule produces it (as dateutil). Local times become
// instants through the zone (`Zone.resolve`: a time in a spring-forward gap
// moves forward by the gap's length, a repeated one is the first).
//
// Invariants: lazy (an iterator, one period at a time); bounded by work,
// not only by the calendar: a rule that never matches ends after
// `emptyPeriodLimit` periods in a row without an occurrence (54 years of
// days; for a month or a year, 400 years of them, as FEB 30 needs), and at
// the year 9999; one whose BYSETPOS asks for more candidates than a period
// can hold (a DAILY rule's second) is empty from the start; the interval
// is taken as at most `RRule.maxInterval`, so no step can overflow. A rule
// without COUNT can start near any instant without walking from its start
// (`starting(near:)`).

public struct RRuleExpansion: IteratorProtocol, Sendable {
    public let rule: RRule
    public let start: LocalDateTime
    public let zone: Zone

    // The parts as dateutil keeps them: weekdays Monday = 0.
    let byWeekday: [Bool]          // 7, plain weekdays
    let byNWeekday: [(Int, Int)]   // (weekday, n) for YEARLY and MONTHLY
    let byMonthDay: Set<Int>, byNMonthDay: Set<Int>
    let byMonth: Set<Int>, byYearDay: Set<Int>
    let byHour: Set<Int>?, byMinute: Set<Int>?, bySecond: Set<Int>?
    let hasWeekday: Bool
    let timeset: [TimeOfDay]
    let wkst: Int
    /// The rule's interval, within 1...RRule.maxInterval.
    let interval: Int
    /// Nothing can come (dateutil refuses the rule): an hourly rule whose BYHOUR its interval never reaches.
    let empty: Bool

    // Where the iteration is.
    var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Int
    var info: YearInfo
    var curTimes: [TimeOfDay]
    var buffer: [LocalDateTime] = []
    var bufferAt = 0
    var remaining: Int?
    var finished = false
    var lastProductiveYear: Int
    /// Periods walked since the last that had an occurrence.
    var emptyPeriods = 0
    /// Periods in a row without an occurrence after which a rule is taken
    /// never to match again.
    public static let emptyPeriodLimit = 20_000

    public init(rule: RRule, start: LocalDateTime, zone: Zone) {
        self.rule = rule
        self.start = start
        self.zone = zone
        let f = rule.freq
        let iv = min(max(rule.interval, 1), RRule.maxInterval)
        interval = iv
        wkst = (rule.wkst + 6) % 7
        var plain = [Bool](repeating: false, count: 7)
        var nth: [(Int, Int)] = []
        var days = rule.byDay
        var monthDays = rule.byMonthDay
        var months = rule.byMonth
        if rule.byWeekNo.isEmpty && rule.byYearDay.isEmpty && monthDays.isEmpty && days.isEmpty {
            switch f {
            case .yearly:
                if months.isEmpty { months = [start.day.month] }
                monthDays = [start.day.day]
            case .monthly: monthDays = [start.day.day]
            case .weekly: days = [RRule.WeekdayNum(start.day.weekday)]
            default: break
            }
        }
        for d in days {
            let wd = (d.weekday + 6) % 7
            if let n = d.n, f <= .monthly { nth.append((wd, n)) } else { plain[wd] = true }
        }
        byWeekday = plain
        hasWeekday = plain.contains(true)
        byNWeekday = nth
        byMonthDay = Set(monthDays.filter { $0 > 0 })
        byNMonthDay = Set(monthDays.filter { $0 < 0 })
        byMonth = Set(months)
        byYearDay = Set(rule.byYearDay)
        var isEmpty = false
        func reachable(_ xs: [Int], from s: Int, base: Int) -> Set<Int> {
            let g = RRuleExpansion.gcd(iv, base)
            let set = Set(xs.filter { g == 1 || ((($0 - s) % g) + g) % g == 0 })
            if set.isEmpty { isEmpty = true }
            return set
        }
        if !rule.byHour.isEmpty {
            byHour = f == .hourly ? reachable(rule.byHour, from: start.time.hour, base: 24) : Set(rule.byHour)
        } else { byHour = f < .hourly ? [start.time.hour] : nil }
        if !rule.byMinute.isEmpty {
            byMinute = f == .minutely ? reachable(rule.byMinute, from: start.time.minute, base: 60) : Set(rule.byMinute)
        } else { byMinute = f < .minutely ? [start.time.minute] : nil }
        if !rule.bySecond.isEmpty {
            bySecond = f == .secondly ? reachable(rule.bySecond, from: start.time.second, base: 60) : Set(rule.bySecond)
        } else { bySecond = f < .secondly ? [start.time.second] : nil }
        // BYSETPOS beyond what one period can hold picks nothing, ever.
        if !rule.bySetPos.isEmpty {
            let days = f == .yearly ? 366 : f == .monthly ? 31 : f == .weekly ? 7 : 1
            let times: Int
            switch f {
            case .hourly: times = (byMinute?.count ?? 1) * (bySecond?.count ?? 1)
            case .minutely: times = bySecond?.count ?? 1
            case .secondly: times = 1
            default: times = (byHour?.count ?? 1) * (byMinute?.count ?? 1) * (bySecond?.count ?? 1)
            }
            if rule.bySetPos.allSatisfy({ $0.magnitude > UInt(days * times) }) { isEmpty = true }
        }
        empty = isEmpty
        if f < .hourly, let h = byHour, let m = byMinute, let s = bySecond {
            var ts: [TimeOfDay] = []
            for hh in h { for mm in m { for ss in s { ts.append(TimeOfDay(hour: hh, minute: mm, second: ss)) } } }
            timeset = ts.sorted()
        } else {
            timeset = []
        }
        year = start.day.year
        month = start.day.month
        day = start.day.day
        hour = start.time.hour
        minute = start.time.minute
        second = start.time.second
        weekday = (start.day.weekday + 6) % 7
        info = YearInfo(year: year)
        curTimes = []
        remaining = rule.count
        lastProductiveYear = year
        rebuildInfo()
        curTimes = initialTimes()
        if empty { finished = true }
    }

    func initialTimes() -> [TimeOfDay] {
        if rule.freq < .hourly { return timeset }
        if let h = byHour, rule.freq >= .hourly, !h.contains(hour) { return [] }
        if let m = byMinute, rule.freq >= .minutely, !m.contains(minute) { return [] }
        if let s = bySecond, rule.freq >= .secondly, !s.contains(second) { return [] }
        return times(hour, minute, second)
    }

    /// The times of one period finer than a day (dateutil's h/m/stimeset).
    func times(_ h: Int, _ m: Int, _ s: Int) -> [TimeOfDay] {
        switch rule.freq {
        case .hourly:
            var ts: [TimeOfDay] = []
            for mm in byMinute ?? [m] { for ss in bySecond ?? [s] { ts.append(TimeOfDay(hour: h, minute: mm, second: ss)) } }
            return ts.sorted()
        case .minutely:
            return (bySecond ?? [s]).sorted().map { TimeOfDay(hour: h, minute: m, second: $0) }
        default:
            return [TimeOfDay(hour: h, minute: m, second: s)]
        }
    }

    /// The same rule, positioned at a period that begins at most two days
    /// before `near` (wall time), when it has no COUNT; else from its start.
    public static func starting(rule: RRule, start: LocalDateTime, zone: Zone, near: LocalDateTime) -> RRuleExpansion {
        var e = RRuleExpansion(rule: rule, start: start, zone: zone)
        guard rule.count == nil, !e.finished else { return e }
        let target = near.wallSeconds - 2 * 86400
        guard target > start.wallSeconds else { return e }
        let n = e.interval
        switch rule.freq {
        case .yearly:
            let k = (LocalDateTime(wallSeconds: target).day.year - start.day.year) / n
            guard k > 0 else { return e }
            e.year = start.day.year + k * n
        case .monthly:
            let t = LocalDateTime(wallSeconds: target).day
            let k = ((t.year * 12 + t.month) - (start.day.year * 12 + start.day.month)) / n
            guard k > 0 else { return e }
            let idx = start.day.year * 12 + start.day.month - 1 + k * n
            e.year = idx / 12
            e.month = idx % 12 + 1
        case .weekly:
            let sd = start.day
            let weekStart = sd.adding(days: -((((sd.weekday + 6) % 7) - e.wkst + 7) % 7))
            let k = (LocalDateTime(wallSeconds: target).day - weekStart) / (7 * n)
            guard k > 0 else { return e }
            e.setDay(weekStart.adding(days: k * 7 * n))
            e.weekday = e.wkst
        case .daily:
            let k = (LocalDateTime(wallSeconds: target).day - start.day) / n
            guard k > 0 else { return e }
            e.setDay(start.day.adding(days: k * n))
        case .hourly, .minutely, .secondly:
            let unit: Int64 = rule.freq == .hourly ? 3600 : rule.freq == .minutely ? 60 : 1
            let k = (target - start.wallSeconds) / (unit * Int64(n))
            guard k > 0 else { return e }
            let l = LocalDateTime(wallSeconds: start.wallSeconds + k * unit * Int64(n))
            e.setDay(l.day)
            e.hour = l.time.hour
            e.minute = l.time.minute
            e.second = l.time.second
        }
        if e.year > 9999 { e.finished = true; return e }
        e.lastProductiveYear = e.year
        e.info = YearInfo(year: e.year)
        e.rebuildInfo()
        e.curTimes = e.initialTimes()
        return e
    }

    mutating func rebuildInfo() {
        var i = info
        i.rebuild(year: year, month: month, weekNo: rule.byWeekNo, wkst: wkst, nth: byNWeekday, freq: rule.freq, byMonth: byMonth)
        info = i
    }

    mutating func setDay(_ d: Day) {
        year = d.year
        month = d.month
        day = d.day
    }

    /// The next occurrence's local wall time.
    public mutating func nextLocal() -> LocalDateTime? {
        while bufferAt >= buffer.count {
            if finished { return nil }
            buffer = []
            bufferAt = 0
            fillPeriod()
        }
        defer { bufferAt += 1 }
        return buffer[bufferAt]
    }

    /// The next occurrence: its wall time and its instant.
    public mutating func next() -> (local: LocalDateTime, at: Instant)? {
        guard let l = nextLocal() else { return nil }
        return (l, zone.resolve(l))
    }

    func beyondUntil(_ l: LocalDateTime) -> Bool {
        guard let u = rule.until else { return false }
        switch u {
        case .local(let x): return l > x
        case .date(let d): return l.day > d
        case .instant(let i): return zone.resolve(l) > i
        }
    }

    /// One period: its occurrences into `buffer`, then on to the next period.
    mutating func fillPeriod() {
        let (days, filtered) = periodDays()
        var candidates: [LocalDateTime] = []
        if !rule.bySetPos.isEmpty && !curTimes.isEmpty {
            var picked: [LocalDateTime] = []
            let nt = curTimes.count
            for pos in rule.bySetPos {
                let (dayPos, timePos) = pos < 0 ? RRuleExpansion.floorDivMod(pos, nt) : RRuleExpansion.floorDivMod(pos - 1, nt)
                let di = dayPos < 0 ? days.count + dayPos : dayPos
                guard di >= 0 && di < days.count else { continue }
                let l = LocalDateTime(day: info.date(days[di]), time: curTimes[timePos])
                if !picked.contains(l) { picked.append(l) }
            }
            candidates = picked.sorted()
        } else {
            for i in days {
                let d = info.date(i)
                for t in curTimes { candidates.append(LocalDateTime(day: d, time: t)) }
            }
        }
        for l in candidates {
            if beyondUntil(l) { finished = true; break }
            if l >= start {
                if let r = remaining {
                    if r <= 0 { finished = true; break }
                    remaining = r - 1
                }
                buffer.append(l)
                lastProductiveYear = year
                emptyPeriods = 0
            }
        }
        if let r = remaining, r <= 0 { finished = true }
        if finished { return }
        advance(filtered: filtered)
        if buffer.isEmpty { emptyPeriods += 1 }
        if year > 9999 || year > lastProductiveYear + 400 || emptyPeriods > RRuleExpansion.emptyPeriodLimit { finished = true }
    }

    /// The day indexes (from 1 January of `year`) of this period that every BYxxx allows.
    func periodDays() -> ([Int], Bool) {
        var lo: Int, hi: Int
        switch rule.freq {
        case .yearly: (lo, hi) = (0, info.yearLength)
        case .monthly: (lo, hi) = (info.monthStart[month - 1], info.monthStart[month])
        case .weekly:
            lo = Day(year: year, month: month, day: day).daysSinceEpoch - info.ordinal
            var i = lo
            for _ in 0..<7 {
                i += 1
                if info.weekday(i) == wkst { break }
            }
            hi = i
        default:
            lo = Day(year: year, month: month, day: day).daysSinceEpoch - info.ordinal
            hi = lo + 1
        }
        var out: [Int] = []
        var filtered = false
        for i in lo..<hi {
            if keeps(i) { out.append(i) } else { filtered = true }
        }
        return (out, filtered)
    }

    func keeps(_ i: Int) -> Bool {
        let d = info.date(i)
        if !byMonth.isEmpty && !byMonth.contains(d.month) { return false }
        if let w = info.weekNoMask, !w[i] { return false }
        if hasWeekday && !byWeekday[(d.weekday + 6) % 7] { return false }
        if let n = info.nthWeekdayMask, !(i < n.count && n[i]) { return false }
        if !byMonthDay.isEmpty || !byNMonthDay.isEmpty {
            let neg = d.day - Day.daysInMonth(year: d.year, month: d.month) - 1
            if !byMonthDay.contains(d.day) && !byNMonthDay.contains(neg) { return false }
        }
        if !byYearDay.isEmpty {
            let len = info.yearLength, next = info.nextYearLength
            if i < len {
                if !byYearDay.contains(i + 1) && !byYearDay.contains(-len + i) { return false }
            } else if !byYearDay.contains(i + 1 - len) && !byYearDay.contains(-next + i - len) {
                return false
            }
        }
        return true
    }

    /// On to the next period (dateutil's "handle frequency and interval").
    mutating func advance(filtered: Bool) {
        let n = interval
        var fixDay = false
        switch rule.freq {
        case .yearly:
            year += n
            if year > 9999 { return }
            rebuildInfo()
        case .monthly:
            month += n
            if month > 12 {
                let (div, mod) = RRuleExpansion.floorDivMod(month, 12)
                month = mod
                year += div
                if month == 0 { month = 12; year -= 1 }
                if year > 9999 { return }
            }
            rebuildInfo()
        case .weekly:
            if wkst > weekday { day += -(weekday + 1 + (6 - wkst)) + n * 7 } else { day += -(weekday - wkst) + n * 7 }
            weekday = wkst
            fixDay = true
        case .daily:
            day += n
            fixDay = true
        case .hourly:
            if filtered { hour += ((23 - hour) / n) * n }
            var days = 0
            if let bh = byHour {
                guard let (d, h) = modDistance(hour, bh, base: 24) else { finished = true; return }
                (days, hour) = (d, h)
            } else {
                (days, hour) = RRuleExpansion.floorDivMod(hour + n, 24)
            }
            if days != 0 { day += days; fixDay = true }
            curTimes = times(hour, minute, second)
        case .minutely:
            if filtered { minute += ((1439 - (hour * 60 + minute)) / n) * n }
            var valid = false
            for _ in 0..<(1440 / RRuleExpansion.gcd(n, 1440)) {
                var hours = 0
                if let bm = byMinute {
                    guard let (h, m) = modDistance(minute, bm, base: 60) else { finished = true; return }
                    (hours, minute) = (h, m)
                } else {
                    (hours, minute) = RRuleExpansion.floorDivMod(minute + n, 60)
                }
                let (div, h) = RRuleExpansion.floorDivMod(hour + hours, 24)
                hour = h
                if div != 0 { day += div; fixDay = true }
                if byHour == nil || byHour!.contains(hour) { valid = true; break }
            }
            if !valid { finished = true; return }
            curTimes = times(hour, minute, second)
        case .secondly:
            if filtered { second += ((86399 - (hour * 3600 + minute * 60 + second)) / n) * n }
            var valid = false
            for _ in 0..<(86400 / RRuleExpansion.gcd(n, 86400)) {
                var minutes = 0
                if let bs = bySecond {
                    guard let (m, s) = modDistance(second, bs, base: 60) else { finished = true; return }
                    (minutes, second) = (m, s)
                } else {
                    (minutes, second) = RRuleExpansion.floorDivMod(second + n, 60)
                }
                let (d0, m) = RRuleExpansion.floorDivMod(minute + minutes, 60)
                var div = d0
                minute = m
                if div != 0 {
                    hour += div
                    (div, hour) = RRuleExpansion.floorDivMod(hour, 24)
                    if div != 0 { day += div; fixDay = true }
                }
                if (byHour == nil || byHour!.contains(hour)) && (byMinute == nil || byMinute!.contains(minute))
                    && (bySecond == nil || bySecond!.contains(second)) { valid = true; break }
            }
            if !valid { finished = true; return }
            curTimes = times(hour, minute, second)
        }
        if fixDay && day > 28 {
            var dim = Day.daysInMonth(year: year, month: month)
            if day > dim {
                while day > dim {
                    day -= dim
                    month += 1
                    if month == 13 {
                        month = 1
                        year += 1
                        if year > 9999 { return }
                    }
                    dim = Day.daysInMonth(year: year, month: month)
                }
                rebuildInfo()
            }
        }
    }

    /// dateutil's __mod_distance: steps of the interval until a value in `set`.
    func modDistance(_ value: Int, _ set: Set<Int>, base: Int) -> (Int, Int)? {
        var acc = 0
        var v = value
        for _ in 0..<base {
            let (div, mod) = RRuleExpansion.floorDivMod(v + interval, base)
            v = mod
            acc += div
            if set.contains(v) { return (acc, v) }
        }
        return nil
    }

    static func floorDivMod(_ a: Int, _ b: Int) -> (Int, Int) {
        var q = a / b
        var r = a % b
        if r != 0 && (r < 0) != (b < 0) { q -= 1; r += b }
        return (q, r)
    }

    static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? abs(a) : gcd(b, a % b) }
}

/// One year's calendar as the expansion reads it (dateutil's _iterinfo):
/// day indexes from 1 January, running 7 days into the next year, and the
/// masks of BYWEEKNO and of ordinal weekdays for the year (and month).
struct YearInfo: Sendable {
    var year: Int
    var yearLength = 365
    var nextYearLength = 365
    var ordinal = 0
    var monthStart: [Int] = []
    var weekNoMask: [Bool]? = nil
    var nthWeekdayMask: [Bool]? = nil
    var lastYear = Int.min
    var lastMonth = Int.min

    init(year: Int) { self.year = year }

    func date(_ i: Int) -> Day { Day(daysSinceEpoch: ordinal + i) }
    /// Monday = 0.
    func weekday(_ i: Int) -> Int { (((ordinal + i) % 7 + 7) % 7 + 3) % 7 }

    mutating func rebuild(year y: Int, month m: Int, weekNo: [Int], wkst: Int, nth: [(Int, Int)], freq: RRule.Freq, byMonth: Set<Int>) {
        if y != lastYear {
            year = y
            yearLength = Day.isLeapYear(y) ? 366 : 365
            nextYearLength = Day.isLeapYear(y + 1) ? 366 : 365
            ordinal = Day(year: y, month: 1, day: 1).daysSinceEpoch
            monthStart = [0]
            for mm in 1...12 { monthStart.append(monthStart[mm - 1] + Day.daysInMonth(year: y, month: mm)) }
            weekNoMask = weekNo.isEmpty ? nil : weekNumbers(weekNo, wkst: wkst)
        }
        if !nth.isEmpty && (m != lastMonth || y != lastYear) {
            var ranges: [(Int, Int)] = []
            if freq == .yearly {
                if !byMonth.isEmpty {
                    for mm in byMonth.sorted() { ranges.append((monthStart[mm - 1], monthStart[mm])) }
                } else {
                    ranges = [(0, yearLength)]
                }
            } else if freq == .monthly {
                ranges = [(monthStart[m - 1], monthStart[m])]
            }
            if !ranges.isEmpty {
                var mask = [Bool](repeating: false, count: yearLength)
                for (first, end) in ranges {
                    let last = end - 1
                    for (wd, n) in nth {
                        var i: Int
                        if n < 0 {
                            i = last + (n + 1) * 7
                            i -= ((weekday(i) - wd) % 7 + 7) % 7
                        } else {
                            i = first + (n - 1) * 7
                            i += ((7 - weekday(i) + wd) % 7 + 7) % 7
                        }
                        if first <= i && i <= last { mask[i] = true }
                    }
                }
                nthWeekdayMask = mask
            }
        }
        lastYear = y
        lastMonth = m
    }

    func weekNumbers(_ weekNo: [Int], wkst: Int) -> [Bool] {
        var mask = [Bool](repeating: false, count: yearLength + 7)
        let yearWeekday = weekday(0)
        var no1wkst = ((7 - yearWeekday + wkst) % 7 + 7) % 7
        let firstwkst = no1wkst
        let wyearlen: Int
        if no1wkst >= 4 {
            no1wkst = 0
            wyearlen = yearLength + ((yearWeekday - wkst) % 7 + 7) % 7
        } else {
            wyearlen = yearLength - no1wkst
        }
        let numweeks = wyearlen / 7 + (wyearlen % 7) / 4
        for n0 in weekNo {
            var n = n0
            if n < 0 { n += numweeks + 1 }
            guard n > 0 && n <= numweeks else { continue }
            var i: Int
            if n > 1 {
                i = no1wkst + (n - 1) * 7
                if no1wkst != firstwkst { i -= 7 - firstwkst }
            } else {
                i = no1wkst
            }
            for _ in 0..<7 {
                mask[i] = true
                i += 1
                if weekday(i) == wkst { break }
            }
        }
        if weekNo.contains(1) {
            // Week 1 of the next year, where it starts in this one.
            var i = no1wkst + numweeks * 7
            if no1wkst != firstwkst { i -= 7 - firstwkst }
            if i < yearLength {
                for _ in 0..<7 {
                    mask[i] = true
                    i += 1
                    if weekday(i) == wkst { break }
                }
            }
        }
        if no1wkst != 0 {
            // The last week of the year before, where it runs into this one.
            let lnumweeks: Int
            if !weekNo.contains(-1) {
                let lyearWeekday = (((Day(year: year - 1, month: 1, day: 1).daysSinceEpoch) % 7 + 7) % 7 + 3) % 7
                let lno1wkst = ((7 - lyearWeekday + wkst) % 7 + 7) % 7
                let lyearlen = Day.isLeapYear(year - 1) ? 366 : 365
                if lno1wkst >= 4 {
                    lnumweeks = 52 + ((lyearlen + ((lyearWeekday - wkst) % 7 + 7) % 7) % 7) / 4
                } else {
                    lnumweeks = 52 + (((yearLength - no1wkst) % 7 + 7) % 7) / 4
                }
            } else {
                lnumweeks = -1
            }
            if weekNo.contains(lnumweeks) { for i in 0..<no1wkst { mask[i] = true } }
        }
        return mask
    }
}
