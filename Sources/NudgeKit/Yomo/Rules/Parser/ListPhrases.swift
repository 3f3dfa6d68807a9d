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
        if monthly == 0 {
            warnings.append("could not place '\(phrase(i, j - i))': several days of the month are a rule; say 'each month' after them")
            return consume(j - i)
        }
        var r = RRule(freq: .monthly)
        r.byMonthDay = days.sorted()
        setRule(Recurrence.rfc(RecurrenceSet(start: Self.anyStart, rrules: [r])), i, m + monthly - i)
        i = m + monthly
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
        guard months.count >= 2 else { return false }
        var r = RRule(freq: .yearly)
        r.byMonth = Array(Set(months)).sorted()
        r.byDay = [RRule.WeekdayNum(wd, o)]
        setRule(Recurrence.rfc(RecurrenceSet(start: Self.anyStart, rrules: [r])), i, j - i)
        i = j
        return true
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
