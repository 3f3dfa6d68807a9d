// Spans and loose times: a meeting's span as calendars paste it ("2-4pm",
// "2:00 PM – 3:00 PM", "from 2 to 3pm"), read as its start; "around 3pm";
// a part of the day that settles or contradicts a time ("this morning at
// 8pm" is a conflict, "dinner at 7" is 19:00); "every morning and evening".
// Each reading that chooses is said in `assumptions`.

extension ReminderParser.ParseState {
    /// "2-4pm", "9:00-10:30": a span glued in one word, outside an hourly
    /// rule (whose hours it would be): the reminder is at its start, said so.
    mutating func readGluedSpan() -> Bool {
        guard !(rule.unit == .hour && rule.repeats), word(i).contains("-") || word(i).contains("\u{2013}") else { return false }
        // "7a-3p": am/pm in a letter, as shift rotas write it.
        func full(_ p: Substring) -> String {
            p.count >= 2 && (p.hasSuffix("a") || p.hasSuffix("p")) && p.dropLast().allSatisfy({ $0.isNumber || $0 == ":" }) ? p + "m" : String(p)
        }
        let parts = word(i).split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "\u{2013}" })
            .map { Token(raw: full($0), word: full($0), commaAfter: false) }
        // "1900-0700": two 24-hour clocks in four digits.
        if parts.count == 2, let a = Self.fourDigits(parts, 0), Self.fourDigits(parts, 1) != nil {
            setTime(a, i, 1)
            assumptions.append("'\(tokens[i].raw)' read as its start")
            i += 1
            return true
        }
        // A sure end ("2-4pm"), or minutes on either side ("9:00-10:00", "10-11:30", "5:30-7").
        guard parts.count == 2, let (a, na) = Self.writtenTime(parts, 0), let (b, nb) = Self.writtenTime(parts, 1), na == 1, nb == 1,
              (b.sure && parts[1].word.hasSuffix("m")) || parts[0].word.contains(":") || parts[1].word.contains(":") else { return false }
        setTime(Self.spanStart(a, end: b), i, 1)
        assumptions.append("'\(tokens[i].raw)' read as its start")
        i += 1
        return true
    }

    /// "from 2 to 3pm", "from 9:30 to 10:30" with no hourly rule in the
    /// sentence: a meeting's span, and the reminder is at its start, said.
    mutating func readFromSpan() -> Bool {
        guard word(i) == "from", let (a, b, len) = hourRange(at: i), b.sure || tokens[i + len - 1].word.contains(":"),
              !tokens.contains(where: { ["hour", "hours", "hourly", "hr", "hrs", "minutes", "mins", "min"].contains($0.word) }) else { return false }
        setTime(Self.spanStart(a, end: b), i, len)
        assumptions.append("'\(phrase(i, len))' read as its start")
        i += len
        return true
    }

    /// "around 3pm", "about 10:30", "~9am": that time, said. Only a time
    /// that is sure of itself ("about 5 people" is no time).
    mutating func readAboutTime() -> Bool {
        guard ["around", "about", "approx", "approximately", "circa", "roughly", "~"].contains(word(i)) else { return false }
        let k = word(i + 1) == "at" ? i + 2 : i + 1
        // Not "about 20 min": a length, not a clock.
        guard let (t, n) = writtenTime(at: k), !ReminderLexicon.minuteWords.contains(word(k + n)), ReminderLexicon.unitWords[word(k + n)] == nil else { return false }
        // "mon around 11": a bare hour ending the sentence (or before a day) is the hour, its half of the day
        // chosen and said as for "at 11".
        let bare = i > 0 && used[i - 1] && (k + n == tokens.count || Self.dayWord(word(k + n))) && !tokens[k].word.contains(".")
        let written = t.sure || tokens[k].word.contains(":") || tokens[k].word.hasSuffix("m")
        guard written || bare else { return false }
        setTime(t, i, k + n - i)
        if written {
            assumptions.append("'\(phrase(i, k + n - i))' read as \(TimeOfDay(hour: t.hour, minute: t.minute))")
        }
        i = k + n
        return true
    }

    /// "2 - 4pm", "9 - 11am", "1900 to 0700", "from 1300 to 2100", "2:30
    /// to 4": a span in words of their own (a sure end, minutes, or two
    /// 24-hour clocks in four digits), outside an hourly rule: the reminder
    /// is at its start, said so. Two bare hours ("5 to 9") are not read here.
    mutating func readBareSpan() -> Bool {
        guard !(rule.unit == .hour && rule.repeats), timeWritten == nil else { return false }
        let k = word(i) == "from" ? i + 1 : i
        func clock(_ j: Int) -> (WrittenTime, Int, Bool)? {
            if let (t, n) = writtenTime(at: j) { return (t, n, false) }
            if let (t, n) = fourDigits(at: j) { return (t, n, true) }
            return nil
        }
        guard let (a, na, fa) = clock(k), ["-", "\u{2013}", "\u{2014}", "to", "till", "til", "until", "thru"].contains(word(k + na)),
              let (b, nb, fb) = clock(k + na + 1) else { return false }
        let minutes = tokens[k].word.contains(":") || tokens[k + na + 1].word.contains(":")
        guard (fa && fb) || (!fa && !fb && (minutes || (b.sure && ["am", "pm", "a.m", "p.m"].contains(where: { tokens[k + na + 1].word.hasSuffix($0) || word(k + na + 2) == $0 })))) else { return false }
        let len = k + na + 1 + nb - i
        setTime(Self.spanStart(a, end: b), i, len)
        assumptions.append("'\(phrase(i, len))' read as its start")
        i += len
        return true
    }

    /// "2 - 3pm" starts at 14:00: a bare start takes the end's half of the day
    /// when that makes the span a few hours long.
    static func spanStart(_ a: WrittenTime, end b: WrittenTime) -> WrittenTime {
        guard !a.sure, b.sure else { return a }  // two bare times: the start is settled as any bare hour is
        var s = a
        if b.hour >= 12 && a.hour < 12 && a.hour + 12 <= b.hour { s.hour += 12 }
        s.sure = true
        return s
    }

    /// "2:00 PM – 3:00 PM", "9am - 10am", "2pm to 3pm" right after a time (a
    /// meeting's span, as a calendar pastes it): the reminder is at its
    /// start, said so. Not in an hourly rule, where a range is its hours.
    mutating func readSpanEnd() {
        guard !(rule.unit == .hour && rule.repeats), let (start, said) = timeWritten, moreTimes.isEmpty,
              ["-", "\u{2013}", "\u{2014}", "to"].contains(word(i)), let (end, n) = writtenTime(at: i + 1),
              end.sure || (word(i) != "to" && tokens[i + 1].word.contains(":")) else { return }
        timeWritten = (Self.spanStart(start, end: end), said)
        assumptions.append("'\(said) \(phrase(i, 1 + n))' read as its start")
        take(i, 1 + n)
        i += 1 + n
    }

    /// Whether a time of day lies in a part of the day, generously
    /// ("tonight at 5:30" is; "this morning at 8pm" is not).
    static func fits(_ t: TimeOfDay, _ part: String) -> Bool {
        switch part {
        case "morning": return t.hour < 12
        case "afternoon": return (12..<19).contains(t.hour)
        case "evening": return t.hour >= 15 || t.hour == 0
        case "night": return t.hour >= 17 || t.hour < 6
        default: return true
        }
    }

    /// A word of the title that says which half of the day a bare hour is in.
    /// The part named outright ("morning rehearsal 9") decides; else the
    /// things done ("band practice 7:30", "brunch gig 11"), unless they
    /// disagree ("band breakfast 8": neither).
    func contextPartOfDay() -> (String, String)? {
        let unread = tokens.indices.filter { !used[$0] }.map { tokens[$0].word }
        // "morning prayer every day at 6", "morning meds 8": the title's part of the day.
        if let w = unread.first(where: { ["morning", "evening", "night", "nightly"].contains($0) }) { return (w == "morning" ? "morning" : "evening", w) }
        let evening: Set<String> = ["dinner", "supper", "drinks", "party", "pub", "bar", "movie", "cinema", "concert", "gig", "theatre", "theater",
                                    "band", "rehearsal", "trivia", "karaoke", "poker", "choir"]
        let morning: Set<String> = ["breakfast", "brekkie", "brunch", "wake"]
        let late = unread.first(where: evening.contains), early = unread.first(where: morning.contains)
        switch (early, late) {
        case (let e?, nil): return ("morning", e)
        case (nil, let l?): return ("evening", l)
        default: return nil
        }
    }

    /// "every morning and evening": the second part of the day is a second
    /// time of the same rule (at the usual hours, said).
    mutating func readAndPartOfDay() -> Bool {
        guard word(i) == "and", i > 0, used[i - 1], rule.repeats, let first = Self.usualHours[word(i - 1)],
              let second = Self.usualHours[word(i + 1)], first != second else { return false }
        if timeWritten == nil {
            timeWritten = (WrittenTime(hour: first, minute: 0, sure: true, text: word(i - 1)), word(i - 1))
            partOfDay = nil
        }
        moreTimes.append((WrittenTime(hour: second, minute: 0, sure: true, text: word(i + 1)), word(i + 1)))
        assumptions.append("'\(word(i - 1)) and \(word(i + 1))' read as \(TimeOfDay(hour: first, minute: 0)) and \(TimeOfDay(hour: second, minute: 0))")
        return consume(2)
    }
}
