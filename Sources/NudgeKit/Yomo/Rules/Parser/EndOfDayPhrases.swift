// The end of a working day or month said as office shorthand: "eod",
// "cob", "by end of day", "at the close of business" (17:00, said), "eom"
// (the month's last day).
//
// Invariant: "end of day" before a word of the title names a thing ("end
// of day report"), and is left to be refused, never read as a time.

extension ReminderParser.ParseState {
    /// The hour "eod" stands for: the end of the working day.
    static let endOfDayHour = 17

    /// The hour "first thing" stands for: the start of the working day.
    static let firstThingHour = 9

    /// "first thing monday", "first thing tomorrow", "first thing in the
    /// morning": 09:00, said; before a word of the title ("first thing to
    /// pack") or with a time said, it is left in the title.
    mutating func readFirstThing() -> Bool {
        let k = ["at", "by"].contains(word(i)) ? i + 1 : i
        guard word(k) == "first", word(k + 1) == "thing", timeWritten == nil else { return false }
        var n = 2
        if word(k + 2) == "in" && word(k + 3) == "the" && word(k + 4) == "morning" { n = 5 }
        else if ["am", "a.m", "a.m."].contains(word(k + 2)) { n = 3 }
        let after = word(k + n)
        guard after.isEmpty || Self.dayWord(after) || ["tmrw", "next", "this", "on"].contains(after) || tokens[k + n - 1].commaAfter else { return false }
        let said = phrase(k, n)
        setTime(WrittenTime(hour: Self.firstThingHour, minute: 0, sure: true, text: said), i, k + n - i)
        assumptions.append("'\(said)' read as \(TimeOfDay(hour: Self.firstThingHour, minute: 0)), the start of the working day; say a time for another")
        i = k + n
        return true
    }

    /// "eod", "cob", "(at|by) (the) end of (the) day", "close of business":
    /// 17:00, said; "eom": the last day of this month.
    mutating func readEndOfDay() -> Bool {
        // "EOD report", "eod morning", "corn on the cob", "eom december": a name, or two times; left to be refused.
        let at = ["at", "by", "before"].contains(word(i)) ? i + 1 : i
        let next = word(at + 1)
        if ["eod", "cob", "eob", "eom", "e.o.d", "c.o.b"].contains(word(at)),
           (Self.titleWord(next) && !Self.dayWord(next) && !["tmrw", "next", "this"].contains(next)) || ReminderLexicon.month(next) != nil
            || ReminderLexicon.partsOfDay.contains(next) || next == "tonight" || (next == "at" && word(at + 2) == "night") {
            return false
        }
        if word(i) == "eom" {
            let d = lastDayOfThisMonth
            assumptions.append("'eom' read as \(Weekdays.display(d.weekday)) \(d), this month's last day")
            setDate(d, i, 1)
            i += 1
            return true
        }
        var k = i
        if ["at", "by", "before"].contains(word(k)) { k += 1 }
        if word(k) == "the" { k += 1 }
        var n = 0
        // Not after "the" ("corn on the cob").
        if ["eod", "cob", "eob", "e.o.d", "c.o.b"].contains(word(k)) && k <= i + 1 && word(k - 1) != "the" { n = 1 }
        else if ["end", "close"].contains(word(k)) && word(k + 1) == "of" {
            if word(k + 2) == "business" { n = 3 }
            else if word(k) == "end" && word(k + 2) == "day" { n = 3 }
            else if word(k) == "end" && word(k + 2) == "the" && word(k + 3) == "day" { n = 4 }
        }
        guard n > 0 else { return false }
        let after = word(k + n)
        if n > 1 && ((Self.titleWord(after) && !Self.dayWord(after) && !["tmrw", "next", "this"].contains(after)) || ReminderLexicon.partsOfDay.contains(after)) {
            return false
        }
        let said = phrase(k, n)
        setTime(WrittenTime(hour: Self.endOfDayHour, minute: 0, sure: true, text: said), i, k + n - i)
        assumptions.append("'\(said)' read as \(TimeOfDay(hour: Self.endOfDayHour, minute: 0)), the end of the working day; say a time for another")
        i = k + n
        return true
    }
}
