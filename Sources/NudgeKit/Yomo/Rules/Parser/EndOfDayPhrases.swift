// The end of a working day or month said as office shorthand: "eod",
// "cob", "by end of day", "at the close of business" (17:00, said), "eom"
// (the month's last day).
//
// Invariant: "end of day" before a word of the title names a thing ("end
// of day report"), and is left to be refused, never read as a time.

extension ReminderParser.ParseState {
    /// The hour "eod" stands for: the end of the working day.
    static let endOfDayHour = 17

    /// "eod", "cob", "(at|by) (the) end of (the) day", "close of business":
    /// 17:00, said; "eom": the last day of this month.
    mutating func readEndOfDay() -> Bool {
        if word(i) == "eom" {
            setDate(lastDayOfThisMonth, i, 1)
            i += 1
            return true
        }
        var k = i
        if ["at", "by", "before"].contains(word(k)) && word(k + 1) != "eod" && word(k + 1) != "cob" { k += 1 }
        if word(k) == "the" { k += 1 }
        var n = 0
        if ["eod", "cob", "eob"].contains(word(k)) && k == i { n = 1 }
        else if ["end", "close"].contains(word(k)) && word(k + 1) == "of" {
            if word(k + 2) == "business" { n = 3 }
            else if word(k) == "end" && word(k + 2) == "day" { n = 3 }
            else if word(k) == "end" && word(k + 2) == "the" && word(k + 3) == "day" { n = 4 }
        }
        guard n > 0 else { return false }
        let next = word(k + n)
        if n > 1 && Self.titleWord(next) && !Self.dayWord(next) && !["today", "tomorrow", "tmrw", "tonight"].contains(next) { return false }
        let said = phrase(k, n)
        setTime(WrittenTime(hour: Self.endOfDayHour, minute: 0, sure: true, text: said), i, k + n - i)
        assumptions.append("'\(said)' read as \(TimeOfDay(hour: Self.endOfDayHour, minute: 0)), the end of the working day; say a time for another")
        i = k + n
        return true
    }
}
