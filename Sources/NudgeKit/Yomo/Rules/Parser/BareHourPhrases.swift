// Bare hours and clocks people type without am/pm or a colon: "every
// night 9", "wed 730", "thurs 3-5", "wensday 7 fellowship hall". Each is
// read only beside a day or a rule, where a number is an hour; its half
// of the day is settled as any bare hour's and said.

extension ReminderParser.ParseState {
    /// A part of the day a bare hour can follow: "morning 7", "mornings 7", "nightly 9", "tonight 9".
    static func partOfDayBefore(_ w: String) -> Bool {
        ReminderLexicon.partsOfDay.contains(w) || (w.hasSuffix("s") && ReminderLexicon.partsOfDay.contains(String(w.dropLast())))
            || ["nightly", "tonight"].contains(w)
    }

    /// Whether the bare hour at `i`, after a rule's part of the day (or
    /// "tonight"), is its hour: it ends the sentence or its clause, or a word of the title
    /// follows that is no count of things ("every night 9 take meds", not
    /// "every morning 2 pills" or "every night 10 pushups"); never 12, which
    /// no part of the day settles.
    func hourOfRule(at i: Int) -> Bool {
        guard word(i) != "12" else { return false }
        if i == tokens.count - 1 || tokens[i].commaAfter { return true }
        let next = word(i + 1)
        return Self.titleWord(next) && !next.hasSuffix("s") && !Self.measureWords.contains(next) && !Self.unitLike(next) && ReminderLexicon.unitWords[next] == nil
    }

    /// Whether the bare number at `i` stands right after a day or a rule's
    /// day ("wed 730", "every thurs 3-5", "tmrw 9-12") with no time yet,
    /// where a number is an hour; not a count of things after it.
    func hourAfterDay(at i: Int) -> Bool {
        guard i > 0, used[i - 1], Self.dayWord(word(i - 1)) || ["weekdays", "weekends", "weekday", "daily"].contains(word(i - 1)),
              timeWritten == nil, !(rule.unit == .hour && rule.repeats), !["o'clock", "oclock"].contains(word(i + 1)) else { return false }
        return i == tokens.count - 1 || tokens[i].commaAfter || Self.separator(tokens[i + 1].raw)
            || (hourOfRule(at: i) && !Self.quantityNouns.contains(word(i + 1)))
    }

    /// "wed 730", "at 915": an hour and minutes in three digits (on the
    /// five minutes) after a day or "at": that time, its half of the day
    /// settled as a bare hour's and said.
    mutating func readThreeDigitTime() -> Bool {
        let w = word(i)
        guard w.count == 3, w.allSatisfy(\.isNumber), let v = Int(w), (1...9).contains(v / 100), v % 100 < 60, v % 5 == 0,
              (i > 0 && ["at", "@"].contains(word(i - 1)) && timeWritten == nil) || hourAfterDay(at: i) else { return false }
        let t = WrittenTime(hour: v / 100, minute: v % 100, sure: false, text: w)
        let from = i > 0 && !used[i - 1] ? i - 1 : i
        setTime(t, from, i + 1 - from)
        i += 1
        return true
    }

    /// "every thurs 3-5", "tmrw 9-12": two bare hours glued after a day,
    /// a span of a few hours; the reminder is at its start, said, its half
    /// of the day settled as a bare hour's ("3-5" from 15:00, "9-12" from 09:00).
    mutating func readBareHourSpan() -> Bool {
        let parts = word(i).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), parts.allSatisfy({ (1...2).contains($0.count) }),
              (1...12).contains(a), (1...12).contains(b), (1...8).contains((b - a + 12) % 12), hourAfterDay(at: i) else { return false }
        setTime(WrittenTime(hour: a, minute: 0, sure: false, text: String(parts[0])), i, 1)
        assumptions.append("'\(tokens[i].raw)' read as its start")
        i += 1
        return true
    }
}
