// Words a person puts around a date that loosen or point at it without
// changing it: "sometime next week", "the week of dec 7", "every 4 weeks,
// next one 12/9". Read with the date, so they leave the title; what they
// make of the date is said. "8am my time" is the reminder's own zone.

extension ReminderParser.ParseState {
    /// "sometime next week", "anytime tomorrow", "some time in march": the
    /// date that follows is read as usual; the loose word goes with it.
    mutating func readSometime() -> Bool {
        // "in the next week", "within the next month", "sometime in the next week": the next one, read as "next week" is.
        let m = ["sometime", "anytime"].contains(word(i)) ? 1 : 0
        if ["in", "within", "over", "during"].contains(word(i + m)), word(i + m + 1) == "the", word(i + m + 2) == "next",
           ["week", "month", "year"].contains(word(i + m + 3)) {
            return consume(m + 2)
        }
        let n = word(i) == "some" && word(i + 1) == "time" ? 2 : ["sometime", "anytime"].contains(word(i)) ? 1 : 0
        guard n > 0 else { return false }
        let next = word(i + n)
        // Not "sometime in the next week": "in the" is not read with it.
        guard ["next", "this", "on", "during", "before", "by", "around"].contains(next) || Self.dayWord(next)
                || (next == "in" && (ReminderLexicon.month(word(i + n + 1)) != nil || ReminderLexicon.number(word(i + n + 1)) != nil))
                || (ReminderLexicon.month(next) != nil && next.count >= 3) else { return false }
        return consume(n)
    }

    /// "the 14th", "13th": the next such day of the month, and how many tokens said it.
    func ordinalDay(at k: Int) -> (Day, Int)? {
        let n = word(k) == "the" ? 1 : 0
        guard let o = ReminderLexicon.ordinal(word(k + n)), o >= 1, n == 1 || word(k).first?.isNumber == true,
              let d = nextDayOfMonth(o) else { return nil }
        return (d, n + 1)
    }

    /// "the week of dec 7", "wk of the 14th": the Monday of that week (the
    /// day itself when that Monday has passed), said.
    mutating func readWeekOf() -> Bool {
        var k = word(i) == "the" ? i + 1 : i
        guard word(k) == "week", word(k + 1) == "of", i == 0 || !["every", "each"].contains(word(i - 1)) else { return false }
        k += 2
        guard let (day, len) = datePhrase(at: k) ?? ordinalDay(at: k) ?? namedDay(at: k).map({ ($0.0, $0.1) }) else { return false }
        let monday = day.adding(days: -((day.weekday + 6) % 7))
        let d = monday >= today ? monday : day
        guard d >= today else { return false }
        let said = phrase(i, k + len - i)
        assumptions.append("'\(said)' read as \(Weekdays.display(d.weekday)) \(d)\(d == day ? "" : ", the week's Monday")")
        setDate(d, i, k + len - i)
        i = k + len
        return true
    }

    /// "every 4 weeks next one 12/9", "monthly, first one on jan 5": the
    /// rule's first date follows; the pointing words go with it.
    mutating func readNextOne() -> Bool {
        guard rule.repeats, ["next", "first"].contains(word(i)), word(i + 1) == "one" || word(i + 1) == "one's" else { return false }
        var n = 2
        if ["is", "on"].contains(word(i + n)) { n += 1 }
        guard datePhrase(at: i + n) != nil else { return false }
        return consume(n)
    }

    /// "8am my time", "9 local time", "noon our time": the time just read
    /// is in the reminder's own zone, as every time is; the words are read.
    mutating func readOwnZoneTime() -> Bool {
        let n = word(i) == "my" && word(i + 1) == "local" ? 3 : 2
        // Not "6:40am local time in Dubai": another zone's, refused as such.
        guard ["my", "our", "local"].contains(word(i)), word(i + n - 1) == "time", i > 0, !["in", "at", "for", "of"].contains(word(i + n)) else { return false }
        if used[i - 1] && timeWritten != nil { return consume(n) }
        // "9 local time standup", "call mom 8 my time sunday": a bare hour the words make a time.
        guard !used[i - 1], timeWritten == nil, let h = Int(word(i - 1)), (1...12).contains(h), word(i - 1).count <= 2 else { return false }
        setTime(WrittenTime(hour: h, minute: 0, sure: false, text: word(i - 1)), i - 1, n + 1)
        i += n
        return true
    }

    /// Whether an unread "weekend" at `k` is the title's: "my weekend w/ the
    /// kids", or "weekend swap" beside a day read; not "weekend before christmas".
    func weekendOfTitle(at k: Int) -> Bool {
        let prev = k > 0 ? word(k - 1) : "", next = word(k + 1)
        return ["my", "our", "your", "his", "her", "their"].contains(prev)
            || ((date != nil || rule.repeats) && Self.titleWord(next) && !Self.dayWord(next) && !ReminderLexicon.partsOfDay.contains(next)
                && !["before", "after", "of", "following", "prior", "ahead", "preceding"].contains(next))
    }

    /// "send deck before friday", "buy gifts before christmas": a reminder
    /// meant to come before the day, so on the day before, said ("by friday"
    /// is the day itself). Not with a time said ("before 5pm friday" is
    /// that moment), nor when the day before has gone by.
    mutating func remindBeforeTheDay(_ k: Int) {
        guard tokens[k].word == "before", let d = date, let said = dateSaid, said.hasPrefix(tokens[k + 1].word), timeWritten == nil,
              partOfDay == nil, relative == nil, !rule.repeats, d.adding(days: -1) >= today,
              // "before end of month", "before eom": the end is the deadline itself.
              !["end", "eom", "eoq", "eoy", "eod", "last", "close"].contains(tokens[k + 1].word),
              !(tokens[k + 1].word == "the" && ["end", "last"].contains(word(k + 2))) else { return }
        let before = d.adding(days: -1)
        date = before
        assumptions = assumptions.filter { !$0.hasPrefix("'\(said)' read as") }
        assumptions.append("'before \(said)' read as \(Weekdays.display(before.weekday)) \(before), the day before; say 'by \(said)' for the day itself")
    }
}

extension ReminderParser.ParseState {
    /// "cpr cert expires 1/31, remind me 2 wks before", "flight fri 6pm
    /// (2 hours before)": a lead time ending the sentence moves a one-off's
    /// day (days, weeks) or its clock (hours, minutes, when a time was read)
    /// back by that much, said. Counted on the wall clock.
    mutating func readLeadTime(time: inout TimeOfDay?, zone: Zone) {
        guard let d = date, relative == nil, !rule.repeats, conflict == nil else { return }
        // "remind me the day before", "the night before", "the week before": a day or a week back; a part of the day at its usual hour.
        if let b = tokens.indices.last, word(b) == "before", b > 1, word(b - 2) == "the", !used[b], !used[b - 1], !used[b - 2],
           let back = ["day": 1, "night": 1, "evening": 1, "morning": 1, "afternoon": 1, "week": 7][word(b - 1)], d.adding(days: -back) >= today {
            var k = b - 2
            if k > 0, !used[k - 1], word(k - 1) == "me" || ["remind", "reminder", "alert", "ping"].contains(word(k - 1)) { k -= 1 }
            if k > 0, !used[k - 1], word(k) == "me", ["remind", "alert", "ping"].contains(word(k - 1)) { k -= 1 }
            if let h = Self.usualHours[word(b - 1)] { time = TimeOfDay(hour: h, minute: 0) }
            let said = (k...b).map { tokens[$0].raw }.filter { !$0.isEmpty }.joined(separator: " ")
            for m in k...b { used[m] = true }
            date = d.adding(days: -back)
            assumptions.append("'\(said)' read as \(Weekdays.display(d.adding(days: -back).weekday)) \(d.adding(days: -back))\(time.map { " \($0.description.prefix(5))" } ?? ""), before \(Weekdays.display(d.weekday)) \(d)")
            return
        }
        for k in tokens.indices where !used[k] {
            var j = k
            if Self.remindWords.contains(word(j)) {
                j += 1
                if ["me", "us"].contains(word(j)) { j += 1 }
            }
            let n = ReminderLexicon.number(word(j)) ?? (["a", "an", "one"].contains(word(j)) ? 1 : nil)
            // Days and weeks move the day; hours and minutes the clock, when one was read.
            let w = word(j + 1), unit = ReminderLexicon.unitWords[w]
            let days = unit == .day ? 1 : unit == .week ? 7 : 0
            let seconds = time == nil ? 0 : unit == .hour ? 3600 : ReminderLexicon.minuteWords.contains(w) ? 60 : 0
            // (The count is bounded before any arithmetic: a year of days, three days of minutes.)
            guard let n, n > 0, n <= 4320, days > 0 || seconds > 0, n * max(days, seconds / 60) <= (days > 0 ? 371 : 4320),
                  ["before", "prior", "ahead", "beforehand", "earlier"].contains(word(j + 2)) || (word(j + 2) == "early" && earlyIsLead(number: j)),
                  (j..<(j + 3)).allSatisfy({ !used[$0] }), j + 3 == tokens.count || used[j + 3] else { continue }
            var moved = LocalDateTime(day: d, time: time ?? TimeOfDay(hour: 0, minute: 0))
            if days > 0 { moved.day = d.adding(days: -n * days) } else { moved = LocalDateTime(wallSeconds: moved.wallSeconds - Int64(n * seconds)) }
            guard time == nil ? moved.day >= today : moved.wallSeconds > zone.local(now).wallSeconds else { continue }
            let said = (k..<(j + 3)).map { tokens[$0].raw }.filter { !$0.isEmpty }.joined(separator: " ")
            let at = time == nil ? "" : " \(moved.time.description.prefix(5))"
            for m in k..<(j + 3) { used[m] = true }
            date = moved.day
            if time != nil { time = TimeOfDay(hour: moved.time.hour, minute: moved.time.minute) }
            assumptions.append("'\(said)' read as \(Weekdays.display(moved.day.weekday)) \(moved.day)\(at), that long before \(Weekdays.display(d.weekday)) \(d)")
            return
        }
    }

    /// The words that ask for a reminder before a lead time ("remind me 2 hours before").
    static let remindWords: Set<String> = ["remind", "reminder", "alert", "notify", "ping"]

    /// "5 min early" is a lead time right after what was read or after
    /// "remind me" ("flight fri 6pm 2 hours early"); after anything else
    /// it is what to do ("arrive 15 min early"), and stays in the title.
    func earlyIsLead(number j: Int) -> Bool {
        j > 0 && (used[j - 1] || Self.remindWords.contains(word(j - 1)) || ["me", "us"].contains(word(j - 1)))
    }
}
