// A span of days said of one stay or trip: "dec 23 - jan 2", "12/20-12/27",
// "dec 1-5", "from dec 1 to dec 5". The reminder is at the span's start,
// and the assumption says so; the end leaves the title. A rule's "until" is
// read elsewhere (RuleModifiers.swift), and a span that goes backwards or
// runs past three months is no stay, left to be refused.

extension ReminderParser.ParseState {
    /// The end of a span after the date just read: "- jan 2", "to 12/10",
    /// "thru dec 26", "- 26" (a day of the same month).
    mutating func readDateSpanEnd() -> Bool {
        guard let start = date, !rule.repeats, i > 0, used[i - 1], relative == nil,
              ["-", "\u{2013}", "\u{2014}", "to", "thru", "through", "till", "til", "until"].contains(word(i)) else { return false }
        var probe = self
        var end: (Day, Int)? = nil
        if let dd = Int(word(i + 1)), word(i + 1).count <= 2, dd > start.day, dd <= Day.daysInMonth(year: start.year, month: start.month),
           word(i) != "to" || !Self.titleWord(word(i + 2)) {
            end = (Day(year: start.year, month: start.month, day: dd), 1)
        } else if word(i + 1).contains("/"), let (d, _) = slashDate(word(i + 1)) {
            end = (d, 1)
        } else {
            end = probe.datePhrase(at: i + 1)
        }
        guard let (last, n) = end, last > start, last.daysSinceEpoch - start.daysSinceEpoch <= 92 else { return false }
        spanStarted(start, said: (dateSaid.map { $0 + " " } ?? "") + phrase(i, 1 + n), at: i - 1)
        return consume(1 + n)
    }

    /// "12/20-12/27", "12/8-10", "dec 1-5", "dec 23-jan 2": a span glued
    /// in one word (or a month and one), read as its start.
    mutating func readGluedDateSpan() -> Bool {
        var n = 1
        var start: Day? = nil, last: Day? = nil
        let parts = word(i).split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 2, parts[0].contains("/"), let (a, _) = slashDate(parts[0]) {
            start = a
            if parts[1].contains("/") { last = slashDate(parts[1])?.0 }
            else if let dd = Int(parts[1]), parts[1].count <= 2, dd <= Day.daysInMonth(year: a.year, month: a.month) { last = Day(year: a.year, month: a.month, day: dd) }
        } else if let m = ReminderLexicon.month(word(i)), word(i).count >= 3 {
            let p = word(i + 1).split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard p.count == 2, let a = Int(p[0]), (1...31).contains(a), let (d, _) = dated(month: m, day: a, yearAt: i + 99) else { return false }
            start = d
            n = 2
            if let b = Int(p[1]), p[1].count <= 2, b <= Day.daysInMonth(year: d.year, month: d.month) {
                last = Day(year: d.year, month: d.month, day: b)
            } else if let m2 = ReminderLexicon.month(p[1]), p[1].count >= 3, let b = Self.dayOfMonth(word(i + 2)),
                      let (d2, _) = dated(month: m2, day: b, yearAt: i + 99) {
                last = d2
                n = 3
            }
        }
        guard let a = start, let b = last, b > a, b.daysSinceEpoch - a.daysSinceEpoch <= 92 else { return false }
        setDate(a, i, n)
        spanStarted(a, said: phrase(i, n), at: i)
        i += n
        return true
    }

    /// Says that a span was read as its start, and reads a "from" before
    /// the words read up to `k` (the start's, or the span's first).
    mutating func spanStarted(_ start: Day, said: String, at k0: Int) {
        var k = k0
        while k > 0 && used[k - 1] && !["from", "between"].contains(word(k - 1)) { k -= 1 }
        if k > 0, !used[k - 1], ["from", "between"].contains(word(k - 1)) { used[k - 1] = true }
        assumptions.append("'\(said)' read as a span: the reminder is at its start, \(Weekdays.display(start.weekday)) \(start)")
    }
}

extension ReminderParser.ParseState {
    /// "sometime between mon and wed", "between dec 1 and dec 5",
    /// "between the 1st and the 5th": a window of days (up to three
    /// months), read as its start and said; not a weekly rule on both days.
    mutating func readBetweenDays() -> Bool {
        let s = ["sometime", "anytime"].contains(word(i)) ? 1 : 0
        // (Not a choice: "choose between mon and tues" is refused.)
        guard word(i + s) == "between", !rule.repeats, relative == nil,
              !(i > 0 && ["choose", "decide", "pick", "choosing", "deciding", "picking", "torn"].contains(word(i - 1))) else { return false }
        let k = i + s + 1
        var probe = self
        func day(at j: Int, after: Day?) -> (Day, Int)? {
            if let wd = ReminderLexicon.weekday(word(j)), Weekdays.parse(word(j)) != nil {
                guard let a = after else { return (nextWeekday(wd), 1) }
                return (a.adding(days: (wd - a.weekday + 7) % 7), 1)
            }
            if let a = after, let dd = Int(word(j)), word(j).count <= 2, dd > a.day, dd <= Day.daysInMonth(year: a.year, month: a.month) {
                return (Day(year: a.year, month: a.month, day: dd), 1)
            }
            return probe.datePhrase(at: j)
        }
        guard let (start, n1) = day(at: k, after: nil), ["and", "&", "-", "to"].contains(word(k + n1)),
              let (last, n2) = day(at: k + n1 + 1, after: start), start < last, last.daysSinceEpoch - start.daysSinceEpoch <= 92 else { return false }
        let n = k + n1 + 1 + n2 - i
        setDate(start, i, n)
        assumptions.append("'\(phrase(i, n))' read as a span: the reminder is at its start, \(Weekdays.display(start.weekday)) \(start)")
        i += n
        return true
    }
}
