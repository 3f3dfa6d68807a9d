// Days counted in weeks from a weekday ("tuesday after next", "monday
// week", "a fortnight on monday", "thursday next week") and the day after
// tomorrow said short ("day after"); each said, for each can be heard two ways.

extension ReminderParser.ParseState {
    /// A weekday counted in weeks, as people say it (said, for each can be
    /// heard two ways): "tuesday after next", "the friday after next",
    /// "monday week" and "a week on monday" (Britain's: the Monday after the
    /// coming one; "monday fortnight", the one after that), "a week from
    /// friday", "2 weeks from friday", "thursday
    /// next week" and "next week thursday" (that day in the week from the
    /// coming Monday).
    mutating func readWeekdayInWeeks() -> Bool {
        var k = i
        if word(k) == "the" { k += 1 }
        func day(_ j: Int) -> Int? { Weekdays.parse(word(j)) }  // one day, not "tuesdays"
        var found: (Day, Int)? = nil
        if let wd = day(k), word(k + 1) == "after", word(k + 2) == "next" {
            found = (nextWeekday(wd).adding(days: 7), k + 3)
        } else if k == i, let wd = day(k), ["week", "fortnight"].contains(word(k + 1)), !Self.titleWord(word(k + 2)) || word(k + 2).isEmpty {
            // "tuesday fortnight": two weeks on from the coming Tuesday.
            found = (nextWeekday(wd).adding(days: word(k + 1) == "week" ? 7 : 14), k + 2)
        } else if k == i, let n = ["a": 1, "an": 1][word(k)] ?? ReminderLexicon.number(word(k)), (1...52).contains(n),
                  ["week", "weeks", "fortnight", "fortnights"].contains(word(k + 1)), ["on", "from"].contains(word(k + 2)), let wd = day(k + 3) {
            // "a fortnight on monday": two weeks.
            found = (nextWeekday(wd).adding(days: 7 * n * (word(k + 1).hasPrefix("fortnight") ? 2 : 1)), k + 4)
        } else if k == i, let wd = day(k), word(k + 1) == "next", word(k + 2) == "week" {
            found = (mondayNextWeek.adding(days: (wd + 6) % 7), k + 3)
        } else if k == i, word(k) == "next", word(k + 1) == "week", let wd = day(k + 2) {
            found = (mondayNextWeek.adding(days: (wd + 6) % 7), k + 3)
        }
        guard let (d, end) = found else { return false }
        assumptions.append("'\(phrase(i, end - i))' read as \(Weekdays.display(d.weekday)) \(d)")
        setDate(d, i, end - i)
        i = end
        return true
    }

    /// "pay hostel fees day after" (India's, and others': the day after
    /// tomorrow), last in the sentence or before a time or part of the day:
    /// that day, said. Not "the day after" (after what?).
    mutating func readDayAfter() -> Bool {
        guard word(i) == "day", word(i + 1) == "after", !["the", "a", "every", "each", "one", "that"].contains(word(i - 1)) else { return false }
        let next = word(i + 2)
        guard next.isEmpty || ReminderLexicon.partsOfDay.contains(next) || writtenTime(at: i + 2) != nil || ["at", "@", "by"].contains(next) else { return false }
        let d = today.adding(days: 2)
        assumptions.append("'day after' read as the day after tomorrow, \(Weekdays.display(d.weekday)) \(d)")
        setDate(d, i, 2)
        i += 2
        return true
    }

    /// The Monday that starts next week.
    var mondayNextWeek: Day { today.adding(days: 7 - (today.weekday + 6) % 7) }

    /// The next day that is weekday `wd`: a week on when today is one.
    func nextWeekday(_ wd: Int) -> Day {
        var ahead = (wd - today.weekday + 7) % 7
        if ahead == 0 { ahead = 7 }
        return today.adding(days: ahead)
    }
}
