// Clock times said in words: "half past 8", "quarter to 4", "twenty past
// 3", "5 minutes to 6 pm". A bare hour among them is settled as "at 8" is
// (TimePhrases.swift).

extension ReminderParser.ParseState {
    /// "half past 8", "quarter to 4", "twenty past 3", "at 10 past 9", "5
    /// minutes to 6 pm": a clock time in words. A bare hour is settled as
    /// "at 8" is; "N to H" with a plain number needs "at" or "minutes"
    /// before it ("from 5 to 6" is a range).
    mutating func readSpokenTime() -> Bool {
        var k = i
        if word(k) == "at" || word(k) == "@" || word(k) == "by" { k += 1 }
        // "at half 7", "tomorrow half six": half past, as Britain, Ireland and Australia say it (said so).
        if word(k) == "half", Int(word(k + 1)).map({ (1...12).contains($0) }) ?? (hourInWords(at: k + 1) != nil),
           let h = ReminderLexicon.number(word(k + 1)), (1...12).contains(h),
           k > i || (i > 0 && used[i - 1]) || Self.dayWord(word(k + 2)) || ["this", "next", "on"].contains(word(k + 2))
            || k + 2 >= tokens.count || tokens[k + 1].commaAfter || Self.separator(tokens[k + 2].raw)
            || (k == 0 && Self.titleWord(word(k + 2)) && !Self.measureWords.contains(word(k + 2))),  // "half 6 tea at nans"
           !["past", "to", "after", "till", "hour", "hours", "an", "a"].contains(word(k + 2)), !Self.unitLike(word(k + 2)) {
            let said = phrase(i, k + 2 - i)
            setTime(WrittenTime(hour: h, minute: 30, sure: false, text: said), i, k + 2 - i)
            i = k + 2
            return true
        }
        var minutes: Int
        switch word(k) {
        case "half": minutes = 30
        case "quarter": minutes = 15
        case "a" where word(k + 1) == "quarter": minutes = 15; k += 1
        default:
            guard let m = ReminderLexicon.number(word(k)), (1...59).contains(m) else { return false }
            minutes = m
        }
        var j = k + 1
        let numeric = Int(word(k)) != nil
        if ReminderLexicon.minuteWords.contains(word(j)) && minutes != 30 && word(k) != "quarter" { j += 1 }
        let way = word(j)
        guard ["past", "after", "to", "till", "before"].contains(way) else { return false }
        if numeric && way != "past" && k == i && j == k + 1 { return false }
        if way == "half" || (word(k) == "half" && way != "past") { return false }
        guard let (t, n) = writtenTime(at: j + 1) ?? hourInWords(at: j + 1), !tokens[j + 1].word.contains(":"), t.hour <= 12 || t.sure else { return false }
        guard t.minute == 0 else { return false }
        var hour = t.hour
        if way != "past" && way != "after" {
            minutes = 60 - minutes
            hour = (hour + 23) % 24
            if !t.sure && hour == 0 { hour = 12 }
        }
        let said = phrase(i, j + 1 + n - i)
        setTime(WrittenTime(hour: hour, minute: minutes, sure: t.sure, text: said), i, j + 1 + n - i)
        i = j + 1 + n
        return true
    }
}
