// A rule's skipped days and last day, said in words after it: "not on dec
// 23", "skip the 24th", "(no choir on 22 Dec)", "24th cancelled", "except
// xmas eve and new years eve"; "last session dec 17", "finishes the 15th",
// "through the 19th", "dec 15 is the last one".
//
// Invariants: only after a rule. Without one, "no school dec 23" and
// "project finishes dec 16" are dates, and "not the 22nd" (a day skipped of
// no rule) is refused. Every day of a list is skipped, or the phrase is not
// read. A skipped day is checked against the rule when the time is known
// (`Yomo.skipping`): one the rule does not fall on is refused.

extension ReminderParser.ParseState {
    /// Words that skip the day after them ("not", "skip", "excl.").
    static let skipWords: Set<String> = ["not", "skip", "skipping", "except", "excluding", "exc", "excl", "ex", "w/o", "without", "minus",
                                         "cancelled", "canceled", "off"]
    /// Words after a day that skip it ("24th cancelled", "(24th off)").
    static let skippedWords: Set<String> = ["cancelled", "canceled", "off", "skipped"]

    /// A day at `k` for a skip or an end: a date ("dec 23", "23/12"), a
    /// named day ("xmas eve"), or a day of the month ("the 23rd", "23rd",
    /// "wed 23rd": a weekday before it that agrees), and its length.
    mutating func skipDay(at k0: Int, listAfter: Day? = nil) -> (Day, Int, String?)? {
        var k = k0
        if word(k) == "on" { k += 1 }
        if let (d, len) = datePhrase(at: k) { return (d, k - k0 + len, nil) }
        if let (d, len, name) = namedDay(at: k) { return (d, k - k0 + len, name) }
        let wd = ReminderLexicon.weekday(word(k))
        if wd != nil && !word(k).hasSuffix("s") { k += 1 }
        if word(k) == "the" { k += 1 }
        // "the first sunday of the month", "the 2nd week": a place in a month, not a day of it.
        guard let o = ReminderLexicon.ordinal(word(k)), (1...31).contains(o), ReminderLexicon.weekday(word(k + 1)) == nil,
              !Self.unitLike(word(k + 1)), !(word(k + 1) == "of" && ReminderLexicon.month(word(k + 2)) == nil),
              var d = nextDayOfMonth(o) else { return nil }
        // In a list, a later day of the month is on or after the day before it ("23rd or 30th" of December).
        if let after = listAfter, d < after {
            var y = after.year, m = after.month
            while true {
                let c = Day(year: y, month: m, day: o)
                if c.isValid && c >= after { d = c; break }
                (y, m) = m == 12 ? (y + 1, 1) : (y, m + 1)
                if y > after.year + 1 { return nil }
            }
        }
        guard wd == nil || wd == d.weekday else { return nil }
        // "the 24th of december": its month.
        if word(k + 1) == "of", let m = ReminderLexicon.month(word(k + 2)), let full = nextDate(month: m, day: o) { return (full, k + 3 - k0, nil) }
        if let m = ReminderLexicon.month(word(k + 1)), word(k + 1).count >= 3, let full = nextDate(month: m, day: o) { return (full, k + 2 - k0, nil) }
        return (d, k + 1 - k0, nil)
    }

    /// Days from `k`: one, or several joined by "and", "or", "&", "," or "/"
    /// ("24th or 31st", "dec 22 and dec 29", "24th/31st"); their length.
    mutating func skipDays(at k: Int) -> ([Day], Int, [String])? {
        // "24th/31st": one token of two days.
        let parts = tokens.indices.contains(k) ? tokens[k].raw.split(separator: "/").map { String($0).lowercased() } : []
        if parts.count >= 2, !parts.contains(where: { $0.allSatisfy(\.isNumber) }),
           case let days = parts.compactMap({ ReminderLexicon.ordinal($0.filter { $0.isLetter || $0.isNumber }).flatMap(nextDayOfMonth) }),
           days.count == parts.count, days == days.sorted() {
            return (days, 1, [])
        }
        guard let (d, len, name) = skipDay(at: k) else { return nil }
        var days = [d], notes = name.map { [$0] } ?? [], n = len
        while ["and", "or", "&", "/", "nor"].contains(word(k + n)) || tokens[k + n - 1].commaAfter,
              let (d2, l2, name2) = skipDay(at: k + n + (tokens[k + n - 1].commaAfter && !["and", "or", "&", "/", "nor"].contains(word(k + n)) ? 0 : 1),
                                            listAfter: days.last) {
            let gap = tokens[k + n - 1].commaAfter && !["and", "or", "&", "/", "nor"].contains(word(k + n)) ? 0 : 1
            days.append(d2)
            if let name2 { notes.append(name2) }
            n += gap + l2
        }
        return (days, n, notes)
    }

    /// "not on dec 23", "last session dec 16" and the rest: see the file's head.
    mutating func readSkipOrEnd() -> Bool {
        // A date looked at and not taken leaves no note of its reading ("12/05" read month first).
        let notes = assumptions
        if skipOrEnd() { return true }
        assumptions = notes
        return false
    }

    private mutating func skipOrEnd() -> Bool {
        let w = word(i)
        // "24th cancelled", "(24th off)": the day first.
        if rule.repeats, let (days, len, notes) = skipDays(at: i), Self.skippedWords.contains(word(i + len)) {
            skips += days
            assumptions += notes
            return consume(len + 1)
        }
        // "dec 15 is the last one", "the 15th is the last session".
        if rule.repeats, let (d, len, name) = skipDay(at: i), word(i + len) == "is", word(i + len + 1) == "the" || word(i + len + 1) == "our",
           ["last", "final"].contains(word(i + len + 2)) {
            until = d
            if let name { assumptions.append(name) }
            return consume(len + 3 + (Self.titleWord(word(i + len + 3)) ? 1 : 0))
        }
        var k = i, skip = false
        switch w {
        case _ where Self.skipWords.contains(w):
            skip = true
            k += 1
            // "not after the 14th": its end; "off on 23/12", "cancelled on the 24th".
            if w == "not" && word(k) == "after" { skip = false; k += 1 }
        case "but" where word(i + 1) == "not", "apart" where word(i + 1) == "from", "other" where word(i + 1) == "than":
            skip = true
            k += 2
        case "no", "none":
            // "no more after dec 14": its end. "(no choir on 22 Dec)", "no rehearsal wed 23rd": up to three words, then the day.
            if word(i + 1) == "more" && word(i + 2) == "after" { k += 3; break }
            guard rule.repeats else { return false }
            skip = true
            k += 1
            var n = 0
            while n < 3, skipDay(at: k) == nil, !word(k).isEmpty, Self.titleWord(word(k)) { k += 1; n += 1 }
        case "last", "final":
            // "last session dec 16", "last one on the 16th", "last session is the 15th".
            guard Self.titleWord(word(i + 1)), ReminderLexicon.weekday(word(i + 1)) == nil, skipDay(at: i + 1) == nil else { return false }
            k += 2
            if word(k) == "is" { k += 1 }
        case "end" where word(i + 1) == "date":
            k += 2
        case "finishes", "finishing", "finish", "stops", "stop", "stopping", "ends", "ending", "end", "to", "thru", "through", "until", "till", "til":
            // "stopping after the 15th": its last day too.
            k += word(i + 1) == "after" && w != "to" ? 2 : 1
        case "up" where word(i + 1) == "to" && word(i + 2) == "and" && word(i + 3) == "including":
            k += 4
        default: return false
        }
        guard let (days, len, notes) = skip ? skipDays(at: k) : skipDay(at: k).map({ ([$0.0], $0.1, $0.2.map { [$0] } ?? []) }) else { return false }
        // A day skipped of no rule: "hockey tues 7pm, not the 22nd" is refused, not read as the 22nd.
        guard rule.repeats else {
            // Only the words that say nothing but a skip: "call my ex dec 3", "day off dec 23" are dates.
            if skip && ["not", "skip", "skipping", "except", "excluding", "exc", "excl", "but", "apart", "other"].contains(w) {
                warnings.append("'\(phrase(i, k + len - i))' skips a day of a rule, and there is none: say the rule ('every tuesday')")
                return consume(k + len - i)
            }
            return false
        }
        assumptions += notes
        if skip { skips += days } else { until = days[0] }
        return consume(k + len - i)
    }
}
