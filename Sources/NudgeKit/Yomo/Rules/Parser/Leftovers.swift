// The last check of a parse: words left in the title that carry a time or
// a date. A reminder whose "half past 8" or "on the fifteenth" was not read
// would fire at the default time, silently wrong; so such words are
// `unread`, and `add` refuses the sentence, naming them, unless --date or
// --time say when (or --literal keeps the text as the title).
//
// What counts, among the unread words: a clock shape ("8:30", "7pm",
// "noon", "o'clock"), "half"/"quarter" before "past"/"to", "in"/"within"/
// "after" before an amount and a unit, a weekday's full name or a weekday
// after "on", "every", "next", "this", "by", "until"; a month next to a
// number or after such a word; an ordinal after "the", "on", "every" that
// ends the sentence or comes before "of", a weekday, a month or "day";
// "today", "tonight", "tomorrow", "yesterday"; "at" before a number; "next"/
// "this" before a period; a part of the day after "this", "tomorrow",
// "every", "in the". A number alone ("read chapter 5", "buy 2 dozen eggs")
// and an ordinal before a noun ("the fifth element") are title words.

extension ReminderParser.ParseState {
    static let leadWords: Set<String> = ["on", "every", "each", "next", "this", "coming", "by", "until", "till", "before", "after", "from", "since"]
    static let periodWords: Set<String> = ["week", "month", "year", "weekend", "morning", "afternoon", "evening", "night", "day",
                                           "quarter", "fortnight"]

    /// Whether the unread word at `k` carries a time or date, and how many
    /// tokens from `k` say it.
    func unreadTimeWord(at k: Int) -> Int? {
        let w = word(k), prev = k > 0 && !used[k - 1] ? word(k - 1) : "", next = word(k + 1)
        if let (_, n) = writtenTime(at: k), w.contains(":") || w.hasSuffix("m") || ["am", "pm", "a.m", "p.m", "o'clock", "oclock"].contains(next) {
            return n
        }
        if ["noon", "midnight", "midday", "o'clock", "oclock", "yesterday", "today", "tonight", "tomorrow", "fortnight"].contains(w) { return 1 }
        // Vague times: no moment to remind at.
        if ["sometime", "someday", "soon", "soonish", "later", "eventually", "asap"].contains(w) { return 1 }
        // "the day after my birthday", "on the next blue moon": counted from something yomo does not know.
        if w == "day" && prev == "the" && ["after", "before"].contains(next) { return 2 }
        if w == "next" && prev == "the" && word(k - 2) == "on" && !next.isEmpty { return 2 }
        if ["half", "quarter"].contains(w) && ["past", "to", "after", "till"].contains(next) { return 2 }
        if w == "half" && ReminderLexicon.number(next) != nil { return 2 }  // "half 8": 8:30 in Britain, 7:30 in Germany
        if ["in", "within", "after"].contains(w) {
            var j = k + 1
            if ["a", "an", "half", "couple"].contains(word(j)) || ReminderLexicon.number(word(j)) != nil || Self.decimal(word(j)) != nil {
                while j < tokens.count && j <= k + 5 {
                    if ReminderLexicon.unitWords[word(j)] != nil || ReminderLexicon.minuteWords.contains(word(j)) { return j + 1 - k }
                    j += 1
                }
            }
            return nil
        }
        if (w == "at" || w == "@" || w == "by"), let c = next.first, c.isNumber { return 2 }
        // "between 9 and 5", "from 2 to 4": hours the reminder has no place for.
        if (w == "between" || w == "from"), writtenTime(at: k + 1) != nil, ["and", "to", "till", "until", "-"].contains(word(k + 2)),
           writtenTime(at: k + 3) != nil { return 4 }
        // "2 days before", "3 weeks after": counted from something yomo does not know.
        if ReminderLexicon.number(w) != nil || w == "a", ReminderLexicon.unitWords[next] != nil || ReminderLexicon.minuteWords.contains(next),
           ["before", "after", "from", "ago", "prior"].contains(word(k + 2)) { return 3 }
        if ["next", "this", "coming"].contains(w) && (Self.periodWords.contains(next) || ReminderLexicon.weekday(next) != nil) { return 2 }
        let lead = Self.leadWords.contains(prev) || (prev == "the" && Self.leadWords.contains(word(k - 2)))
        if let _ = ReminderLexicon.weekday(w) ?? Self.dayRange(w)?.first {
            if w.count >= 6 || lead || Self.dayRange(w) != nil { return 1 }
        }
        if ReminderLexicon.month(w) != nil && w.count >= 3 {
            let numberNear = Self.dayOfMonth(next) != nil || Self.dayOfMonth(prev) != nil || (prev == "of" && Self.dayOfMonth(word(k - 2)) != nil)
            if numberNear || lead || ["in", "of"].contains(prev) { return 1 }
        }
        if let o = ReminderLexicon.ordinal(w), o != -1 {
            let before = lead || prev == "the"
            let after = next.isEmpty || ["of", "day", "and", "at"].contains(next) || ReminderLexicon.weekday(next) != nil
                || ReminderLexicon.month(next) != nil
            if before && after { return 1 }
        }
        if ReminderLexicon.partsOfDay.contains(w) || ReminderLexicon.partsOfDay.contains(String(w.dropLast())) {
            if ["this", "tomorrow", "every", "each", "on", "tonight"].contains(prev) || (prev == "the" && word(k - 2) == "in") { return 1 }
        }
        return nil
    }

    /// Collects the unread time words into `unread`, each with the unread
    /// words just before it that lead it ("on the fifteenth").
    mutating func findUnreadTimeWords() {
        var k = 0
        while k < tokens.count {
            guard !used[k], let n = unreadTimeWord(at: k) else { k += 1; continue }
            var start = k
            while start > 0 && !used[start - 1] && (Self.leadWords.contains(word(start - 1)) || ["the", "at", "in"].contains(word(start - 1)))
                    && start > k - 2 { start -= 1 }
            var end = k + n
            while end < tokens.count && !used[end] && unreadTimeWord(at: end) != nil && end < k + n + 2 { end += 1 }
            let said = (start..<min(end, tokens.count)).map { tokens[$0].raw.isEmpty ? tokens[$0].word : tokens[$0].raw }.joined(separator: " ")
            if !warnings.contains(where: { $0.contains("'\(said)'") }) && !unread.contains(where: { $0.contains("'\(said)'") }) {
                unread.append("could not read '\(said)' as a date or time")
            }
            k = max(end, k + 1)
        }
    }
}
