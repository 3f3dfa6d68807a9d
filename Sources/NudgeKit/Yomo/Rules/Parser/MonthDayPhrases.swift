// A day of the month said alone: "the 5th", "on the 15th", "the 1st of
// next month", "the 15th of every month", and a numeric ordinal without
// "the" where nothing else could be meant ("Friday 11th", "17th at 7").
//
// Invariant: an ordinal before a word of the title is the title's ("fix the
// 2nd floor sink", "Sam's 17th birthday"), never a date.

extension ReminderParser.ParseState {
    /// "the 5th", "on the 15th": the next such day. Then "of the month" is
    /// read with it, and "of every month" makes a monthly rule from that day.
    mutating func readDayOfMonth() -> Bool {
        var k = i
        if word(k) == "on" { k += 1 }
        // "15th of every month", "1st monthly": a numeric ordinal that a month's rule follows needs no "the".
        // "pay rent first of the month": a word's ordinal too, before "of the month".
        if word(k) != "the", let o = ReminderLexicon.ordinal(word(k)), o >= 1,
           (Int(word(k).prefix(1)) != nil && ofMonth(at: k + 1) > 0) || (word(k + 1) == "of" && ["every", "each", "next"].contains(word(k + 2)))
            || (word(k + 1) == "of" && ["the", "this"].contains(word(k + 2)) && word(k + 3) == "month") {
            k -= 1
        } else if word(k) != "the" { return false }
        // "on the 21", "by the 15", "due the 3": a day of the month without its suffix.
        let bare = (k > i || ["by", "due", "until", "till", "before"].contains(word(i - 1))) && word(k) == "the"
            ? Int(word(k + 1)).flatMap { (1...31).contains($0) && word(k + 1).count <= 2 && !Self.unitLike(word(k + 2))
                                        && !Self.measureWords.contains(word(k + 2)) ? $0 : nil } : nil
        guard let o = ReminderLexicon.ordinal(word(k + 1)) ?? bare, o >= 1, ReminderLexicon.weekday(word(k + 2)) == nil,
              let d = nextDayOfMonth(o) else { return false }
        // An ordinal before a noun is a title ("watch the fifth element", "fix the 2nd floor sink"): "on the fifth",
        // "the 5th", "the fifth of …", "the 5th at 3pm" are dates.
        // A weekday said just before it agrees or conflicts, and is no title ("tuesday the 8th parents evening").
        let dayBefore = i > 0 && used[i - 1] && ReminderLexicon.weekday(word(i - 1)) != nil
        if k == i && !tokens[k + 1].commaAfter && !dayBefore
            && !(word(k + 2).isEmpty || ["of", "at", "by", "and", "@", "until", "till", "latest", "deadline", "every", "each", "monthly"].contains(word(k + 2))
                 || writtenTime(at: k + 2) != nil || Self.clockRange(word(k + 2))) {
            return false
        }
        setDate(d, i, k + 2 - i)
        dayOfMonthSaid = o
        if d == today && !(rule.repeats && rule.unit == .month) && !(word(k + 2) == "of" && ["every", "each"].contains(word(k + 3))) {
            assumptions.append("'the \(word(k + 1))' read as today, \(d)")
        }
        i = k + 2
        if rule.repeats && rule.unit == .month { return true }
        // "1st of the month", "1st of month": the next one, said (a rule says "every month").
        if word(i) == "of" && (word(i + 1) == "the" || word(i + 1) == "this") && word(i + 2) == "month" {
            if !tokens[i...].contains(where: { ["every", "each", "monthly"].contains($0.word) }) {
                assumptions.append("'\(word(k + 1)) of \(word(i + 1)) month' read as once, \(d)")
            }
            _ = consume(3)
        }
        if word(i) == "of" && word(i + 1) == "month" {
            assumptions.append("'\(word(k + 1)) of month' read as once, \(d)")
            _ = consume(2)
        }
        // "the 1st of next month".
        if word(i) == "of" && word(i + 1) == "next" && word(i + 2) == "month" {
            let first = Day(year: today.year + (today.month == 12 ? 1 : 0), month: today.month % 12 + 1, day: 1)
            let last = Day(year: first.year + (first.month == 12 ? 1 : 0), month: first.month % 12 + 1, day: 1).adding(days: -1)
            date = Day(year: first.year, month: first.month, day: min(o, last.day))
            if o > last.day { assumptions.append("'the \(word(k + 1)) of next month' read as \(last), its last day") }
            _ = consume(3)
        }
        if word(i) == "of" && (word(i + 1) == "every" || word(i + 1) == "each") && word(i + 2) == "month" {
            setRule(Recurrence(kind: .custom, interval: 1, unit: .month), i, 3)
            i += 3
        }
        // "the 1st of every other month".
        if word(i) == "of" && word(i + 1) == "every" && word(i + 2) == "other" && word(i + 3) == "month" {
            setRule(Recurrence(kind: .custom, interval: 2, unit: .month), i, 4)
            i += 4
        }
        return true
    }

    /// "Friday 11th", "parents evening 17th at 7", "rent due 1st": a day of
    /// the month written as a numeric ordinal without "the", read when a
    /// weekday comes before it or nothing of the title after it ("17th
    /// birthday", "3rd floor" are the title's); a weekday that disagrees is
    /// a conflict.
    mutating func readBareOrdinalDay() -> Bool {
        let w = word(i)
        guard let c = w.first, c.isNumber, let o = ReminderLexicon.ordinal(w), (1...31).contains(o), !tokens[i].raw.contains("-") else { return false }
        let before = word(i - 1), after = word(i + 1)
        let dayBefore = ReminderLexicon.weekday(before) != nil && !before.hasSuffix("s")
        let ends = after.isEmpty || tokens[i].commaAfter || ["at", "@", "by", "and", "from", "for", "latest", "deadline"].contains(after)
            || writtenTime(at: i + 1) != nil || Self.clockRange(after)
            || ReminderLexicon.partsOfDay.contains(after) || Self.dayWord(after)
        // "Sam's 17th", "my 3rd", "the 2nd": whose, or read by the reader of "the 5th".
        let owned = before.hasSuffix("'s") || before.hasSuffix("\u{2019}s") || ["my", "his", "her", "our", "your", "their", "its", "the", "a", "this", "next"].contains(before)
        guard (dayBefore || ends) && !owned, let d = nextDayOfMonth(o) else { return false }
        if !dayBefore { assumptions.append("'\(w)' read as \(Weekdays.display(d.weekday)) \(d)") }
        setDate(d, i, 1)
        dayOfMonthSaid = o
        i += 1
        return true
    }

    /// "7am-7pm", "07:00-19:30", "9-5pm": hours glued into one word.
    static func clockRange(_ w: String) -> Bool {
        let p = w.split(separator: "-")
        return p.count == 2 && p.allSatisfy { $0.first?.isNumber == true && $0.allSatisfy { $0.isNumber || ":apm.".contains($0) } }
            && (w.contains(":") || w.contains("am") || w.contains("pm"))
    }

    /// "the evening of the 5th", "morning of dec 24", "afternoon of 31st
    /// dec": that part of that day; "the week of the 14th", which week day
    /// is not said, is left to be refused.
    mutating func readPartOfDayOfDate() -> Bool {
        var k = i
        if word(k) == "the" { k += 1 }
        guard ReminderLexicon.partsOfDay.contains(word(k)), word(k + 1) == "of", partOfDay == nil else { return false }
        var at = k + 2
        var found = datePhrase(at: at)
        if found == nil {
            if word(at) == "the" { at += 1 }
            if let o = ReminderLexicon.ordinal(word(at)), (1...31).contains(o), let d = nextDayOfMonth(o) {
                if let m = ReminderLexicon.month(word(at + 1)), word(at + 1).count >= 3, let full = nextDate(month: m, day: o) { found = (full, at + 2 - k - 2) } else { found = (d, at + 1 - k - 2) }
            }
        }
        guard let (d, len) = found else { return false }
        partOfDay = word(k)
        setDate(d, i, k + 2 + len - i)
        i = k + 2 + len
        return true
    }
}

extension ReminderParser.ParseState {
    /// "in december", "in march 2027": the month's first day, said (a
    /// reminder early in the month, not on a day guessed inside it). The
    /// month under way is refused ("in november" on the 28th: which day?),
    /// and so is a month with a rule ("every day in december" keeps the
    /// rule to that month, which a start day alone would not).
    mutating func readInMonth() -> Bool {
        guard word(i) == "in" || word(i) == "during", let m = ReminderLexicon.month(word(i + 1)), word(i + 1).count >= 3 else { return false }
        var n = 2
        var year = today.month < m ? today.year : today.year + 1
        if let y = Int(word(i + 2)), word(i + 2).count == 4, (today.year...(today.year + 100)).contains(y) { year = y; n = 3 }
        // "in dec 5", "in december on the 3rd": a day in it, read by the date's reader.
        if n == 2, Int(word(i + 2)) != nil || ReminderLexicon.ordinal(word(i + 2)) != nil || (word(i + 2) == "on" && word(i + 3) == "the") {
            return false
        }
        // "in jan account", "during march madness": a name, not the month.
        // At the start of the sentence or before a comma it is the month: "in december pay rent", "in dec, call bob".
        let after = word(i + n)
        if i > 0 && !tokens[i + n - 1].commaAfter && Self.titleWord(after) && !ReminderLexicon.partsOfDay.contains(after) && !Self.dayWord(after)
            && !["pls", "plz", "please", "starting", "from", "until", "till"].contains(after) {
            return false
        }
        let said = phrase(i, n)
        // "in december or january": which?
        if ["or", "and", "to", "-", "through", "thru"].contains(after), ReminderLexicon.month(word(i + n + 1)) != nil {
            if conflict == nil { conflict = "'\(phrase(i, n + 2))' is two months: say one day, as '\(word(i + 1)) 1'" }
            return consume(n + 2)
        }
        if (n == 2 && m == today.month) || (year == today.year && m <= today.month) {
            if conflict == nil {
                conflict = m == today.month ? "'\(said)' is the month under way: say a day in it, as '\(word(i + 1)) \(Day.daysInMonth(year: today.year, month: m))'"
                    : "'\(said)' is past: say a day to come, as '\(word(i + 1)) 1 \(today.year + 1)'"
            }
            return consume(n)
        }
        let d = Day(year: year, month: m, day: 1)
        assumptions.append("'\(said)' read as \(Weekdays.display(d.weekday)) \(d), the month's first day")
        monthSaid = (said, m)
        setDate(d, i, n)
        i += n
        return true
    }
}

extension ReminderParser.ParseState {
    /// The days of a month a part of it covers: early the 1st to the 10th,
    /// mid the 11th to the 20th, late the 21st on, the end its last 3 days.
    static func window(_ part: String, days: Int) -> ClosedRange<Int> {
        switch part {
        case "early", "beginning", "start": return 1...10
        case "mid", "middle": return 11...20
        case "late": return 21...days
        default: return (days - 2)...days
        }
    }

    /// The day a part of a month is read as: early its 1st, mid its 15th,
    /// late its 21st (a reminder before the part runs out, not on its last
    /// day), the end its last day.
    static func partDay(_ part: String, year: Int, month: Int) -> Day {
        let days = Day.daysInMonth(year: year, month: month)
        let d = ["mid", "middle"].contains(part) ? 15 : part == "late" ? 21 : part == "end" ? days : 1
        return Day(year: year, month: month, day: d)
    }

    /// "early march", "mid-march", "late march", "the end of march", "the
    /// middle of january 2027", "midmarch": a day in that part of the
    /// month, said (`partDay`). The month under way: today while today is
    /// still in the part ("late nov" on the 28th), refused once it has gone by.
    mutating func readPartOfMonth() -> Bool {
        if readPartOfPeriod() { return true }
        var k = word(i) == "in" ? i + 1 : i
        var part = word(k)
        var m: Int? = nil
        if part.hasPrefix("mid-") || part.hasPrefix("mid"), part.count >= 6, let mm = ReminderLexicon.month(String(part.dropFirst(part.hasPrefix("mid-") ? 4 : 3))) {
            (part, m) = ("mid", mm)
            k += 1
        } else if ["early", "mid", "late"].contains(part), word(k + 1).count >= 3, let mm = ReminderLexicon.month(word(k + 1)) {
            m = mm
            k += 2
        } else {
            if part == "the" { k += 1; part = word(k) }
            guard ["beginning", "start", "middle", "end"].contains(part), word(k + 1) == "of", word(k + 2).count >= 3,
                  let mm = ReminderLexicon.month(word(k + 2)) else { return false }
            m = mm
            k += 3
        }
        guard let month = m else { return false }
        var n = k - i
        var year: Int? = nil
        if let y = Int(word(i + n)), word(i + n).count == 4, (today.year...(today.year + 100)).contains(y) { year = y; n += 1 }
        let said = phrase(i, n)
        var d = Self.partDay(part, year: year ?? (month < today.month ? today.year + 1 : today.year), month: month)
        var what = ["early", "beginning", "start"].contains(part) ? "the month's first day" : ["mid", "middle"].contains(part) ? "the month's middle"
            : part == "late" ? "in its last third" : "the month's last day"
        if d < today, d.year == today.year, d.month == today.month,
           Self.window(part, days: Day.daysInMonth(year: today.year, month: today.month)).contains(today.day) {
            (d, what) = (today, "today, which is in it")
        }
        // "early november" on the 28th: gone by, and next year's is not what a person means this month.
        if d < today {
            if conflict == nil { conflict = "'\(said)' is past: say a day to come, as '\(word(i + n - 1)) \(today.year + 1)'" }
            return consume(n)
        }
        assumptions.append("'\(said)' read as \(Weekdays.display(d.weekday)) \(d), \(what)")
        monthSaid = (said, month)
        setDate(d, i, n)
        i += n
        return true
    }

    /// "mid next month", "early next week", "the start of the month", "the
    /// middle of next week", "late this month": a part of this or the next
    /// month or week. A week's start is its Monday, its middle Wednesday,
    /// late or its end Friday; a month's as `partDay`. "the month" is the
    /// next such day; "this" month or week gone by is today while today is
    /// in the part, refused after. "the end of this month (week)" is
    /// `readEndOfMonth`'s.
    mutating func readPartOfPeriod() -> Bool {
        var k = word(i) == "the" ? i + 1 : i
        var part = word(k)
        let which: String
        if ["early", "mid", "late"].contains(part), ["this", "next"].contains(word(k + 1)), ["month", "week"].contains(word(k + 2)) {
            which = word(k + 1)
            k += 1
        } else if ["beginning", "start", "middle", "end"].contains(part), word(k + 1) == "of", ["the", "this", "next"].contains(word(k + 2)),
                  ["month", "week"].contains(word(k + 3)), part != "end" || word(k + 2) == "next" {
            which = word(k + 2)
            k += 2
        } else {
            return false
        }
        if part == "beginning" || part == "start" { part = "early" }
        let period = word(k + 1)
        let n = k + 2 - i
        var d: Day
        var inPart = false
        if period == "week" {
            let monday = today.adding(days: -((today.weekday + 6) % 7)).adding(days: which == "next" ? 7 : 0)
            d = monday.adding(days: part == "early" ? 0 : ["mid", "middle"].contains(part) ? 2 : 4)
            inPart = d < today && (part == "early" ? 0...1 : ["mid", "middle"].contains(part) ? 2...3 : 4...6).contains((today.weekday + 6) % 7)
            if which == "the" && d < today && !inPart { d = d.adding(days: 7) }
        } else {
            let first = Day(year: today.year, month: today.month, day: 1)
            let next = first.adding(days: Day.daysInMonth(year: today.year, month: today.month))
            d = Self.partDay(part, year: which == "next" ? next.year : today.year, month: which == "next" ? next.month : today.month)
            inPart = d < today && Self.window(part, days: Day.daysInMonth(year: today.year, month: today.month)).contains(today.day)
            if which == "the" && d < today && !inPart { d = Self.partDay(part, year: next.year, month: next.month) }
        }
        if inPart { d = today }
        if d < today {
            if conflict == nil { conflict = "'\(phrase(i, n))' is past: say a day to come, as '\(part) next \(period)'" }
            return consume(n)
        }
        assumptions.append("'\(phrase(i, n))' read as \(Weekdays.display(d.weekday)) \(d)\(inPart ? ", today, which is in it" : "")")
        setDate(d, i, n)
        i += n
        return true
    }
}
