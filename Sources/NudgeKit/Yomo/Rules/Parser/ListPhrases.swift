// Phrases that list several days for one rule, which yomo's own rules cannot
// hold but an RFC 5545 rule can (the reminder keeps it as RRULE text, see
// RecurrenceRFC.swift): "on the 5th and 20th each month" (FREQ=MONTHLY;
// BYMONTHDAY=5,20) and "the second tuesday of feb, may, aug and nov"
// (FREQ=YEARLY;BYMONTH=2,5,8,11;BYDAY=2TU). And "last friday" alone, which
// is the one gone by as often as the month's last: a warning, never a guess.

extension ReminderParser.ParseState {
    static let anyStart = LocalDateTime(day: Day(year: 2000, month: 1, day: 1), time: TimeOfDay(hour: 0, minute: 0))

    /// "(on) the 5th and 20th (of) each month", "the 1st, 15th monthly".
    mutating func readMonthDayList() -> Bool {
        var k = i
        if word(k) == "on" { k += 1 }
        if word(k) == "the" { k += 1 }
        var days: [Int] = []
        var j = k
        while let o = ReminderLexicon.ordinal(word(j)), o >= 1, ReminderLexicon.weekday(word(j + 1)) == nil {
            days.append(o)
            j += 1
            if word(j) == "and" || word(j) == "&" { j += 1 } else if !tokens[j - 1].commaAfter { break }
            if word(j) == "the" { j += 1 }
        }
        guard days.count >= 2 else { return false }
        while j > k && ReminderLexicon.ordinal(word(j - 1)) == nil { j -= 1 }  // "and" with no day after it
        var m = j
        if word(m) == "of" { m += 1 }
        let monthly = (["each", "every"].contains(word(m)) && word(m + 1) == "month") ? 2 : word(m) == "monthly" ? 1 : 0
        // "monthly on the 1st and 15th": the rule word came first.
        let ruleBefore = monthly == 0 && rule.repeats && rule.kind == .custom && rule.unit == .month && rule.interval == 1 && ruleFromWord
        if monthly == 0 && !ruleBefore {
            warnings.append("could not place '\(phrase(i, j - i))': several days of the month are a rule; say 'each month' after them")
            return consume(j - i)
        }
        var r = RRule(freq: .monthly)
        r.byMonthDay = days.sorted()
        noteShortMonths(days)
        if ruleBefore { rule = .once; ruleSaid = nil }  // "monthly" said in full
        setRule(Recurrence.rfc(RecurrenceSet(start: Self.anyStart, rrules: [r])), i, m + monthly - i)
        i = m + monthly
        return true
    }

    /// "every 1st and 15th (of the month)": monthly on those days, after "every" at `j`.
    mutating func readEveryMonthDays(at j0: Int) -> Bool {
        var j = j0
        if word(j) == "the" { j += 1 }
        var days: [Int] = []
        while let o = ReminderLexicon.ordinal(word(j)), o >= 1, ReminderLexicon.weekday(word(j + 1)) == nil, ReminderLexicon.unitWords[word(j + 1)] == nil {
            days.append(o)
            j += 1
            if word(j) == "and" || word(j) == "&" { j += 1 } else if !tokens[j - 1].commaAfter { break }
            if word(j) == "the" { j += 1 }
        }
        while j > j0 && ReminderLexicon.ordinal(word(j - 1)) == nil { j -= 1 }
        guard days.count >= 2 else { return false }
        let of = ofMonth(at: j)
        var r = RRule(freq: .monthly)
        r.byMonthDay = Array(Set(days)).sorted()
        noteShortMonths(days)
        setRule(Self.rfcRule(r), i, j + of - i)
        i = j + of
        return true
    }

    /// "(on) the 2nd tuesday of feb, may, aug and nov": that weekday's place
    /// in each of those months, every year. One month alone is a date.
    mutating func readOrdinalWeekdayInMonths() -> Bool {
        var k = i
        if word(k) == "on" { k += 1 }
        if word(k) == "the" { k += 1 }
        guard let (o, wd, len) = ordinalWeekday(at: k), ["of", "in"].contains(word(k + len)) else { return false }
        var j = k + len + 1
        var months: [Int] = []
        while let mo = ReminderLexicon.month(word(j)) {
            months.append(mo)
            j += 1
            if word(j) == "and" || word(j) == "&" { j += 1 } else if !tokens[j - 1].commaAfter { break }
        }
        while j > k && ReminderLexicon.month(word(j - 1)) == nil { j -= 1 }
        // "the first monday of each quarter": of January, April, July and October (said so).
        if months.isEmpty, ["each", "every", "the"].contains(word(k + len + 1)), word(k + len + 2) == "quarter" {
            months = [1, 4, 7, 10]
            j = k + len + 3
            assumptions.append("'\(phrase(k + len, 3))' read as of January, April, July and October")
        }
        guard !months.isEmpty else { return false }
        if months.count == 1 {
            // "the first monday in january": that day, once.
            let m = months[0]
            for y in today.year...(today.year + 1) {
                if let d = Recurrence.nthWeekday(year: y, month: m, ordinal: o, weekday: wd), d >= today {
                    ordinalInMonth = (o, wd, m)
                    setDate(d, i, j - i)
                    i = j
                    return true
                }
            }
            return false
        }
        var r = RRule(freq: .yearly)
        r.byMonth = Array(Set(months)).sorted()
        r.byDay = [RRule.WeekdayNum(wd, o)]
        setRule(Recurrence.rfc(RecurrenceSet(start: Self.anyStart, rrules: [r])), i, j - i)
        i = j
        return true
    }

    /// Several days of the month, one of them past the 28th: months without
    /// it skip it (one day alone falls on a shorter month's last), said.
    mutating func noteShortMonths(_ days: [Int]) {
        for d in Set(days).sorted() where d > 28 {
            assumptions.append("the \(d)\(d == 29 ? "th" : d == 30 ? "th" : "st") is skipped in months without it")
        }
    }

    /// "every year on the last thursday of november": a yearly rule on that
    /// place in the month, not on the date it falls on this year.
    mutating func settleYearlyOrdinal() {
        guard let (o, wd, m) = ordinalInMonth, rule.repeats, rule.kind == .custom, rule.unit == .year, rule.interval == 1,
              rule.set == nil else { return }
        var r = RRule(freq: .yearly)
        r.byMonth = [m]
        r.byDay = [RRule.WeekdayNum(wd, o)]
        let (u, c) = (rule.until, rule.count)
        rule = Recurrence.rfc(RecurrenceSet(start: Self.anyStart, rrules: [r]))
        (rule.until, rule.count) = (u, c)
        date = nil
    }

    /// "last friday", "on the last friday" with no month after it: a
    /// warning (the Friday gone by, or the month's last?), never a guess.
    mutating func readLoneLastWeekday() -> Bool {
        var k = i
        if word(k) == "on" { k += 1 }
        if word(k) == "the" { k += 1 }
        guard word(k) == "last", ReminderLexicon.weekday(word(k + 1)) != nil, ofMonth(at: k + 2) == 0 else { return false }
        warnings.append("could not place '\(phrase(i, k + 2 - i))': the one gone by, or the month's last? say 'on friday' or 'every month on the last friday'")
        return consume(k + 2 - i)
    }
}

// Rules of several times in a period, also RFC 5545 rules: "every 2nd and
// 4th tuesday" (BYDAY=2TU,4TU), "twice daily" (BYHOUR=9,21, said so), "the
// last day of every month" (BYMONTHDAY=-1), "the last weekday of the month"
// (BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1), "every 15 minutes" (FREQ=MINUTELY).
extension ReminderParser.ParseState {
    static func rfcRule(_ r: RRule) -> Recurrence { Recurrence.rfc(RecurrenceSet(start: anyStart, rrules: [r])) }

    /// "(every|on the) 2nd and 4th tuesday (of the month)", from `k` (after
    /// "every", or at `i`): a monthly rule on each of those weekdays.
    mutating func readOrdinalWeekdayList(at k0: Int) -> Bool {
        var k = k0
        if k == i && word(k) == "on" { k += 1 }
        if word(k) == "the" { k += 1 }
        var ords: [Int] = []
        var j = k
        while let o = ReminderLexicon.ordinal(word(j)), o <= 5, o != 0 {
            ords.append(o)
            j += 1
            if word(j) == "and" || word(j) == "&" || word(j) == "or" { j += 1 } else if !tokens[j - 1].commaAfter { break }
            if word(j) == "the" { j += 1 }
        }
        guard ords.count >= 2, let wd = ReminderLexicon.weekday(word(j)) else { return false }
        j += 1
        j += ofMonth(at: j)
        var r = RRule(freq: .monthly)
        r.byDay = Array(Set(ords)).sorted { ($0 < 0 ? 6 : $0) < ($1 < 0 ? 6 : $1) }.map { RRule.WeekdayNum(wd, $0) }
        setRule(Self.rfcRule(r), i, j - i)
        i = j
        return true
    }

    /// "twice daily", "twice a day", "3 times a day", "three times daily":
    /// every day at set hours (09:00 and 21:00; 08:00, 14:00 and 20:00; 08:00,
    /// 12:00, 16:00 and 20:00), said in `assumptions`.
    mutating func readTimesADay() -> Bool {
        var n: Int? = nil
        var k = i
        if word(k) == "twice" { n = 2; k += 1 } else if word(k) == "thrice" { n = 3; k += 1 }
        else if let m = ReminderLexicon.number(word(k)), word(k + 1) == "times" { n = m; k += 2 }
        guard let count = n, (2...4).contains(count) else { return false }
        // "twice a month, 1st and 15th", "twice monthly on the 5th and 20th": those days, each month.
        let month = word(k) == "monthly" ? 1 : ["a", "per", "each", "every"].contains(word(k)) && word(k + 1) == "month" ? 2 : 0
        if month > 0 {
            var j = k + month
            if word(j) == "on" { j += 1 }
            if word(j) == "the" { j += 1 }
            var days: [Int] = []
            while let o = ReminderLexicon.ordinal(word(j)), o >= 1, ReminderLexicon.weekday(word(j + 1)) == nil {
                days.append(o)
                j += 1
                if word(j) == "and" || word(j) == "&" { j += 1 } else if !tokens[j - 1].commaAfter { break }
                if word(j) == "the" { j += 1 }
            }
            while j > k && ReminderLexicon.ordinal(word(j - 1)) == nil { j -= 1 }
            guard days.count == count, Set(days).count == count else { return false }
            var r = RRule(freq: .monthly)
            r.byMonthDay = days.sorted()
        noteShortMonths(days)
            setRule(Recurrence.rfc(RecurrenceSet(start: Self.anyStart, rrules: [r])), i, j - i)
            i = j
            return true
        }
        // "twice a week on tue and fri", "twice weekly, mon and thu": those days, each week.
        let week = word(k) == "weekly" ? 1 : ["a", "per", "each", "every"].contains(word(k)) && word(k + 1) == "week" ? 2 : 0
        if week > 0 {
            var j = k + week
            if word(j) == "on" { j += 1 }
            guard let (days, len) = dayList(at: j), days.count == count else { return false }
            setRule(Recurrence(kind: .weekly, days: days), i, j + len - i)
            i = j + len
            return true
        }
        if word(k) == "daily" { k += 1 } else if ["a", "per", "each", "every"].contains(word(k)) && word(k + 1) == "day" { k += 2 } else { return false }
        var hours = [2: [9, 21], 3: [8, 14, 20], 4: [8, 12, 16, 20]][count]!
        var minute = 0
        var end = k
        // "twice daily at 8am and 8pm": the times said, as many as the count.
        let at = word(k) == "at" ? 1 : 0
        if let (times, len) = timeList(at: k + at), times.count == count, Set(times.map(\.minute)).count == 1, Set(times.map(\.hour)).count == count {
            hours = times.map(\.hour).sorted()
            minute = times[0].minute
            end = k + at + len
        } else {
            let note = "'\(phrase(i, k - i))' read as every day at " + hours.map { TimeOfDay(hour: $0, minute: 0).description }.joined(separator: ", ")
            assumptions.append(note)
            timesADay = (count, note)
        }
        var r = RRule(freq: .daily)
        r.byHour = hours
        r.byMinute = [minute]
        setRule(Self.rfcRule(r), i, end - i)
        i = end
        return true
    }

    /// "and 5pm", "and at 9pm", ", 1pm and 6pm" right after a time: more
    /// times of the same rule ("every day at 7am and 9pm"), settled at the end.
    mutating func readMoreTimes() {
        // "at 0900 and 2100", "0800 1400 2000": after a time in four digits, more of them, with or without "and".
        let fourDigit = i > 0 && fourDigits(at: i - 1) != nil
        while ["and", "&"].contains(word(i)) || (i > 0 && tokens[i - 1].commaAfter) || (fourDigit && fourDigits(at: i) != nil) {
            let from = ["and", "&"].contains(word(i)) ? i + 1 : i
            var k = from
            if word(k) == "at" || word(k) == "@" { k += 1 }
            // A bare number right after a time and "and" or a comma is a time too ("at 8, 2 and 8").
            guard let (t, n) = writtenTime(at: k) ?? (fourDigit ? fourDigits(at: k) : nil), !["times", "x"].contains(word(k + n)) else { return }  // ", 5 times" is a count
            moreTimes.append((t, phrase(from, k + n - from)))
            take(i, k + n - i)
            i = k + n
        }
    }

    /// Several times with a daily or weekly rule: one RFC rule at those
    /// hours (their minutes must agree); without such a rule, a conflict.
    mutating func settleMoreTimes(_ time: inout TimeOfDay?) {
        guard !moreTimes.isEmpty, let (first, firstSaid) = timeWritten else { return }
        let all = [(first, firstSaid)] + moreTimes
        let settled = Self.forward(all.map(\.0), partOfDay: partOfDay).map { (tm, note) -> TimeOfDay in
            if let n = note { assumptions.append(n) }
            return tm
        }
        let weekly = rule.repeats && (rule.kind == .weekly || (rule.kind == .custom && rule.unit == .week))
        // "at 8am, 2pm and 8pm for 7 days": several times and a span of days are a daily rule.
        // "q12h 0900/2100", "every 8 hours at 6, 2 and 10": the times an hourly rule keeps, each day.
        let hours = Set(settled.map(\.hour)).sorted()
        let everyHours = rule.repeats && rule.kind == .custom && rule.unit == .hour && rule.rangeStart == nil && ruleHours == nil
            && rule.days.isEmpty && !rule.basedOnCompletion && hours.count * rule.interval == 24
            && zip(hours, hours.dropFirst()).allSatisfy { $1 - $0 == rule.interval }
        // "twice a day to drink water, at 11 and 5": the times said are the hours assumed.
        if let (n, note) = timesADay, n == all.count, Set(hours).count == n {
            assumptions.removeAll { $0 == note }
            let (u, c) = (rule.until, rule.count)
            rule = Recurrence(kind: .daily)
            (rule.until, rule.count) = (u, c)
        }
        if everyHours || (!rule.repeats && forDuration != nil && until != nil) {
            rule = Recurrence(kind: .daily)
            rule.until = until
        }
        let daily = rule.repeats && (rule.kind == .daily || (rule.kind == .custom && rule.unit == .day))
        guard daily || weekly, rule.rangeStart == nil, !rule.basedOnCompletion else {
            if conflict == nil {
                conflict = "two times in one sentence ('\(firstSaid)' and '\(moreTimes[0].1)'): one reminder holds one rule; add them one at a time"
            }
            return
        }
        guard Set(settled.map(\.minute)).count == 1 else {
            if conflict == nil { conflict = "several times in one rule share their minutes ('\(all.map(\.1).joined(separator: "', '"))'): add them one at a time" }
            return
        }
        var r = RRule(freq: weekly ? .weekly : .daily)
        r.interval = rule.interval
        r.byHour = Array(Set(settled.map(\.hour))).sorted()
        r.byMinute = [settled[0].minute]
        if weekly { r.byDay = (rule.days.isEmpty ? [date?.weekday ?? today.weekday] : rule.days).map { RRule.WeekdayNum($0) } }
        let (u, c) = (rule.until, rule.count)
        rule = Self.rfcRule(r)
        (rule.until, rule.count) = (u, c)
        time = nil
        timeWritten = nil
    }

    /// "8am and 8pm", "9, 1 and 5": clock times in a list, settled as
    /// "at 9" is (said in `assumptions`), and how many tokens.
    mutating func timeList(at k0: Int) -> ([TimeOfDay], Int)? {
        var written: [WrittenTime] = []
        var k = k0
        while let (t, n) = writtenTime(at: k) {
            written.append(t)
            k += n
            if word(k) == "and" || word(k) == "&" { k += 1 } else if !tokens[k - 1].commaAfter { break }
        }
        guard written.count >= 2 else { return nil }
        if ["and", "&"].contains(word(k - 1)) { k -= 1 }
        let out = Self.forward(written, partOfDay: nil).map { (tm, note) -> TimeOfDay in
            if let note = note { assumptions.append(note) }
            return tm
        }
        return (out, k - k0)
    }

    /// "(on) the last/first weekday (working day, business day) of the
    /// month / of every month": once this month, or a monthly rule.
    mutating func readWorkdayOfMonth() -> Bool {
        var k = i
        if word(k) == "every" || word(k) == "each" { k += 1 }
        if word(k) == "on" { k += 1 }
        if word(k) == "the" { k += 1 }
        guard word(k) == "last" || word(k) == "first", let o = ReminderLexicon.ordinal(word(k)) else { return false }
        var j = k + 1
        if word(j) == "weekday" { j += 1 } else if ["working", "business", "work"].contains(word(j)) && word(j + 1) == "day" { j += 2 } else { return false }
        let every = k > i && (word(i) == "every" || word(i) == "each")
        let of = ofMonth(at: j)
        guard of > 0 || every else { return false }
        // "of the month" is every month, as "the last friday of the month" is; "of this month" is this month's.
        let thisMonth = !every && word(j) == "of" && word(j + 1) == "this"
        if thisMonth {
            var d = o < 0 ? lastDayOfThisMonth : Day(year: today.year, month: today.month, day: 1)
            while d.weekday == 0 || d.weekday == 6 { d = d.adding(days: o < 0 ? -1 : 1) }
            if d >= today {
                setDate(d, i, j + of - i)
                i = j + of
                return true
            }
        }
        var r = RRule(freq: .monthly)
        r.byDay = [1, 2, 3, 4, 5].map { RRule.WeekdayNum($0) }
        r.bySetPos = [o < 0 ? -1 : 1]
        if thisMonth { assumptions.append("'\(phrase(k, j - k)) of the month' has passed this month: read as every month") }
        setRule(Self.rfcRule(r), i, j + of - i)
        i = j + of
        return true
    }

    /// Once read, a monthly rule on the 29th, 30th or 31st is the RFC rule
    /// that falls on the month's last day when it is shorter, this month
    /// too ("on the 31st of every month" from November 28th is November
    /// 30th first); and an RFC rule takes the sentence's end ("until", "10
    /// times") into its RRULE.
    mutating func settleRFC() {
        if rule.kind == .custom && rule.unit == .month && rule.monthOrdinal == nil, let d = date, d.day >= 29, dayOfMonthSaid == d.day {
            var r = RRule(freq: .monthly)
            r.interval = rule.interval
            r.byMonthDay = Array(28...d.day)
            r.bySetPos = [-1]
            assumptions.append("'\(d.day.ordinalText)' read as the month's last day in shorter months")
            let (u, c) = (rule.until, rule.count)
            rule = Self.rfcRule(r)
            (rule.until, rule.count) = (u, c)
            date = nil
        }
        guard rule.kind == .rrule, var set = rule.set, set.rrules.count == 1 else { return }
        if let u = rule.until { set.rrules[0].until = .date(u); rule.until = nil }
        if let c = rule.count { set.rrules[0].count = c; rule.count = nil }
        rule.set = set
    }
}

extension Int {
    /// "1st", "22nd", "31st".
    var ordinalText: String {
        let suffix = (11...13).contains(self % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][self % 10] ?? "th"
        return "\(self)\(suffix)"
    }
}

extension ReminderParser.ParseState {
    /// "twice daily 8am", "tid 7am": one time said with a count of times a
    /// day is the first of them, the rest spaced as the defaults are (12, 6
    /// or 4 hours), said; a first too late for them all to fit in the day is
    /// a conflict, never the default hours with the time dropped.
    mutating func settleTimesADayStart(_ time: inout TimeOfDay?) {
        guard let (n, note) = timesADay, moreTimes.isEmpty, let t = time, timeWritten != nil, rule.kind == .rrule,
              var r = rule.set?.rrules.first, r.freq == .daily, rule.set?.rrules.count == 1 else { return }
        let step = 12 / (n - 1)
        guard t.hour + step * (n - 1) < 24 else {
            if conflict == nil { conflict = "'\(timeWritten?.said ?? "")' is too late for \(n) times a day spaced \(step) hours apart: say each time ('at 8am and 8pm')" }
            return
        }
        r.byHour = (0..<n).map { t.hour + step * $0 }
        r.byMinute = [t.minute]
        let (u, c) = (rule.until, rule.count)
        rule = Self.rfcRule(r)
        (rule.until, rule.count) = (u, c)
        assumptions.removeAll { $0 == note }
        assumptions.append("'\(note.split(separator: "'")[0])' with '\(timeWritten?.said ?? "")' read as every day at "
                           + r.byHour.map { TimeOfDay(hour: $0, minute: t.minute).description }.joined(separator: ", "))
        time = nil
    }
}
