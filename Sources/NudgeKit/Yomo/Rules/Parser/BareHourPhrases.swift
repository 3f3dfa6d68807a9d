// Bare hours and clocks people type without am/pm or a colon: "every
// night 9", "wed 730", "thurs 3-5", "wensday 7 fellowship hall". Each is
// read only beside a day or a rule, where a number is an hour; its half
// of the day is settled as any bare hour's and said.

extension ReminderParser.ParseState {
    /// Labels a number and a letter follow ("suite 3a", "form 1a", "pier 4p"), beyond the numbered places: no time there.
    static let labelWords: Set<String> = [
        "suite", "flat", "bldg", "ch", "quiz", "form", "pier", "hwy", "highway", "sec", "hall", "exit", "concourse", "dorm", "cabin", "field",
        "zone", "area", "berth", "bay", "wing", "tower", "block", "item", "q", "prob", "ex", "fig", "figure", "table", "vitamin",
    ]

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

    /// Whether the word after a number counts things ("mon 1000 steps", "wed 1500 words", "file 1040 form"): no time.
    static func countedAfter(_ w: String) -> Bool {
        quantityNouns.contains(w) || measureWords.contains(w) || unitLike(w) || ["form", "number", "calories", "steps", "ppl", "people", "yo"].contains(w)
            || (w.count > 3 && w.hasSuffix("s") && titleWord(w))
    }

    /// Whether the word before `i` is a day ("fri") or ends a date just read ("dec 12", "12/9").
    func dayOrDateBefore(_ i: Int) -> Bool {
        i > 0 && used[i - 1] && (Self.dayWord(word(i - 1)) || (date != nil && dateSaid.map { $0.lowercased().hasSuffix(word(i - 1)) } == true
                                                                && word(i - 1).first?.isNumber == true))
    }

    /// Whether the bare number at `i` stands right after a day or a rule's
    /// day ("wed 730", "every thurs 3-5", "tmrw 9-12") with no time yet,
    /// where a number is an hour; not a count of things after it.
    func hourAfterDay(at i: Int) -> Bool {
        guard i > 0, used[i - 1], dayOrDateBefore(i) || ["weekdays", "weekends", "weekday", "daily"].contains(word(i - 1)),
              timeWritten == nil, !(rule.unit == .hour && rule.repeats), !["o'clock", "oclock"].contains(word(i + 1)) else { return false }
        return i == tokens.count - 1 || tokens[i].commaAfter || Self.separator(tokens[i + 1].raw)
            || (hourOfRule(at: i) && !Self.countedAfter(word(i + 1)) && !["x", "grade", "yr", "yrs", "gal", "lb", "kg"].contains(word(i + 1)))
    }

    /// "wed 730", "at 915": an hour and minutes in three digits (on the
    /// five minutes) after a day or "at": that time, its half of the day
    /// settled as a bare hour's and said.
    mutating func readThreeDigitTime() -> Bool {
        let w = word(i)
        // "every day 730", "every morning 630", "meds every day 800": after a rule's day or part of the day too;
        // "sat yoga 830": last in a sentence whose day was read, after a word that numbers nothing.
        let afterRule = i > 0 && used[i - 1] && (["day", "daily", "nightly", "weekday", "weekdays"].contains(word(i - 1)) || Self.partOfDayBefore(word(i - 1)))
            && timeWritten == nil && (i == tokens.count - 1 || hourOfRule(at: i))
        let last = (i == tokens.count - 1 || tokens[i].commaAfter) && (date != nil || rule.repeats) && timeWritten == nil && i > 0
            && !used[i - 1] && !Self.numberedPlaces.contains(word(i - 1)) && !Self.labelWords.contains(word(i - 1)) && !word(i - 1).contains("$")
        guard w.count == 3, w.allSatisfy(\.isNumber), let v = Int(w), (1...9).contains(v / 100), v % 100 < 60, v % 5 == 0,
              (i > 0 && ["at", "@"].contains(word(i - 1)) && timeWritten == nil) || hourAfterDay(at: i) || afterRule || last
                || (timeWritten == nil && used.indices.contains(i + 1) && Self.dayWord(word(i + 1)) && !(i > 0 && (Self.numberedPlaces.contains(word(i - 1))
                    || Self.labelWords.contains(word(i - 1))))) else { return false }
        let t = WrittenTime(hour: v / 100, minute: v % 100, sure: false, text: w)
        let from = i > 0 && !used[i - 1] && ["at", "@"].contains(word(i - 1)) ? i - 1 : i
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
        // "sat 3-5 pm": the half of the day said after it.
        let half = ["am", "pm", "a.m", "p.m"].contains(word(i + 1)) ? word(i + 1).prefix(1) : nil
        var start = WrittenTime(hour: a, minute: 0, sure: half != nil, text: String(parts[0]))
        if half == "p", b != 12 || a == 12 { start.hour = a == 12 ? 12 : a + (a < b || b == 12 ? 12 : 0) }
        if half == "a", a == 12 { start.hour = 0 }
        setTime(start, i, half == nil ? 1 : 2)
        assumptions.append("'\(phrase(i, half == nil ? 1 : 2))' read as its start")
        i += half == nil ? 1 : 2
        return true
    }
}
