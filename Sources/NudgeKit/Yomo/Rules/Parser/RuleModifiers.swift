// What bends a rule: exclusions ("except fridays", "but not on weekends"),
// ends ("until dec 24", "till friday", "10 times", "for 3 weeks") and
// repeating from completion ("every 3 days after I finish it").
//
// Invariants: the readers only collect (`exceptDays`, `until`, `count`),
// because the rule may be said after them ("until friday, every day"); they
// are applied once the sentence is read, by `applyExceptions` and
// `applyEnds`. A modifier with no rule to apply to is a warning, never
// dropped: "until friday" alone does not make a one-off.

extension ReminderParser.ParseState {
    /// "after I finish it" and the like: the rule counts from when it was done.
    static let completionPhrases: [[String]] = [
        ["i", "finish", "it"], ["i've", "finished", "it"], ["i", "complete", "it"], ["i", "am", "done"], ["i", "do", "it"],
        ["the", "last", "one"],
        ["i", "finish"], ["i", "complete"], ["i'm", "done"], ["finishing", "it"], ["completing", "it"], ["it's", "done"],
        ["last", "done"], ["last", "time"],
        ["completion"], ["done"], ["finishing"],
    ]  // longest first: "after I finish it" is not "after I finish" with "it" left over

    /// "except friday", "excluding weekends", "but not on sundays".
    mutating func readExcept() -> Bool {
        let w = word(i)
        // "every day but saturday": "but" before days, after a rule.
        let butDays = w == "but" && rule.repeats && i > 0 && used[i - 1] && dayList(at: i + 1) != nil
        let apart = (w == "apart" || w == "other") && ["from", "than"].contains(word(i + 1)) && rule.repeats  // "apart from sundays"
        guard w == "except" || w == "excluding" || (w == "but" && word(i + 1) == "not") || butDays || apart else { return false }
        var k = i + 1
        if (w == "but" && !butDays) || apart { k += 1 }
        if word(k) == "on" { k += 1 }
        if let (days, len) = dayList(at: k) {
            exceptDays += days
            return consume(k + len - i)
        }
        if word(k) == "weekends" || word(k) == "weekend" {
            exceptDays += [6, 0]
            return consume(k + 1 - i)
        }
        if word(k) == "weekdays" {
            exceptDays += [1, 2, 3, 4, 5]
            return consume(k + 1 - i)
        }
        i += 1  // left in the title: "except" there is a warning
        return true
    }

    /// "until dec 24", "till friday", "through the end of the month": the
    /// rule's last day.
    mutating func readUntil() -> Bool {
        // "until", "till", "til", "thru", "up to", "ending", and "by"/"before" after a rule already said.
        var w = 1
        switch word(i) {
        case "until", "till", "through", "til", "'til", "thru", "ending", "ends", "stopping", "untill": w = 1
        case "up" where ["to", "until", "till", "through", "til"].contains(word(i + 1)): w = 2
        case "by" where rule.repeats, "before" where rule.repeats: w = 1
        case "to" where intraday && untilTime == nil && writtenTime(at: i + 1) != nil: w = 1  // "every hour to 5pm"
        default: return false
        }
        let k = i + w
        if let (d, len) = datePhrase(at: k) {
            until = word(i) == "before" ? d.adding(days: -1) : d
            return consume(w + len)
        }
        // "until christmas", "till thanksgiving": that day, said.
        if let (d, len, name) = namedDay(at: k) {
            until = word(i) == "before" ? d.adding(days: -1) : d
            assumptions.append(name)
            return consume(w + len)
        }
        // "every half hour until 6pm", "every 2 hours till noon": an intraday rule's last time, settled at the end.
        if intraday, untilTime == nil, word(i) != "by" && word(i) != "before", let (t, len) = writtenTime(at: k) ?? fourDigits(at: k) {
            untilTime = (t, phrase(i, w + len))
            return consume(w + len)
        }
        let next = word(k)
        if let wd = ReminderLexicon.weekday(next), !next.hasSuffix("s") || Weekdays.parse(next) != nil {
            until = nextWeekday(wd)
            return consume(w + 1)
        }
        // "through january", "until feb 2027": that month's last day.
        if let m = ReminderLexicon.month(next), next.count >= 3, ReminderLexicon.ordinal(word(k + 1)) == nil,
           Int(word(k + 1)) == nil || (word(k + 1).count == 4 && (today.year...(today.year + 100)).contains(Int(word(k + 1))!)) {
            let year = Int(word(k + 1))
            let y = year ?? (m >= today.month ? today.year : today.year + 1)
            until = Day(year: y, month: m, day: Day.daysInMonth(year: y, month: m))
            assumptions.append("'\(phrase(i, w + (year == nil ? 1 : 2)))' read as until \(until!)")
            return consume(w + (year == nil ? 1 : 2))
        }
        // "until the end of the month", "until end of year".
        let the = word(k) == "the" ? 1 : 0
        if word(k + the) == "end" && word(k + the + 1) == "of" {
            let this = ["the", "this"].contains(word(k + the + 2)) ? 1 : 0
            if ["month", "year"].contains(word(k + the + 2 + this)) {
                until = word(k + the + 2 + this) == "month" ? lastDayOfThisMonth : Day(year: today.year, month: 12, day: 31)
                return consume(w + the + 3 + this)
            }
            // "until the end of December": that month's last day (this year's, or next year's once past).
            if this == 0, let m = ReminderLexicon.month(word(k + the + 2)), word(k + the + 2).count >= 3, Int(word(k + the + 3)) == nil {
                let y = m >= today.month ? today.year : today.year + 1
                until = Day(year: y, month: m, day: Day.daysInMonth(year: y, month: m))
                return consume(w + the + 3)
            }
        }
        return false
    }

    /// Whether the rule so far repeats within a day: every N minutes, or
    /// every N hours without a range of hours.
    var intraday: Bool {
        if rule.kind == .rrule, let f = rule.set?.rrules.first?.freq { return f == .minutely || f == .hourly }
        return rule.kind == .custom && rule.unit == .hour && rule.rangeStart == nil && ruleHours == nil
    }

    /// "every half hour until 6pm", once the sentence is read: the rule
    /// stops at that time of its first day ("until 6" is the next 6
    /// o'clock, said). Every N minutes ends with its RRULE's UNTIL; every N
    /// hours runs in the hours from its start (the time said, or the next
    /// full hour) to that time, on that day only. A time already past, or
    /// not after the start, is a warning: "from … to …" says a range.
    mutating func settleUntilTime(time: inout TimeOfDay?, zone: Zone) {
        guard let (w, said) = untilTime else { return }
        let clock = zone.local(now).time
        // "until 6pm for 3 days", "until 6pm until friday", "until 6pm on tuesdays", "on monday every half hour
        // until 6pm" with no start: more than one day's end, or a start not said. Refused, not half read.
        if until != nil || forDuration != nil || count != nil || !rule.days.isEmpty || (date != nil && date != today && time == nil) {
            warnings.append("'\(said)' ends a rule within one day from now or from a time said ('from 9am until 6pm'); with other days or ends, say the hours as 'every hour from 9am to 6pm'")
            return
        }
        let day = relative.map { zone.day(of: $0) } ?? date ?? today
        var end = TimeOfDay(hour: w.hour, minute: w.minute)
        if !w.sure && w.hour < 12 {
            let pm = TimeOfDay(hour: w.hour + 12, minute: w.minute)
            if day == today ? end <= clock : w.hour < 7 { end = pm }
            assumptions.append("'\(said)' read as until \(end)")
        }
        if rule.kind == .rrule, var set = rule.set, set.rrules.count == 1 {
            let start = time ?? (day == today ? clock : TimeOfDay(hour: 0, minute: 0))
            guard end > start else {
                warnings.append("'\(said)' is not after the rule's start today; say the hours as 'from 9am to 6pm'")
                return
            }
            set.rrules[0].until = .local(LocalDateTime(day: day, time: end))
            rule.set = set
            if date == today && timeWritten == nil { date = nil }  // "… until 6pm today": from now, as without "today"
            return
        }
        let next = TimeOfDay(hour: min(clock.hour + 1, 23), minute: 0)
        let start = time ?? (day == today ? next : TimeOfDay(hour: 9, minute: 0))
        guard end > start, day != today || clock.hour < 23 || time != nil else {
            warnings.append("'\(said)' is not after the rule's start today; say the hours as 'from 9am to 6pm'")
            return
        }
        rule.rangeStart = start
        rule.rangeEnd = end
        until = day
        if date == nil { date = day }
        if time == nil { assumptions.append("'\(ruleSaid ?? "every hour")' starts at \(start)") }
        time = nil
        timeWritten = nil
    }

    /// "for the rest of the year/month", after or before a rule: until its last day.
    mutating func readRestOf() -> Bool {
        guard word(i) == "for" && word(i + 1) == "the" && word(i + 2) == "rest" && word(i + 3) == "of" && word(i + 4) == "the",
              ["year", "month", "week"].contains(word(i + 5)) else { return false }
        switch word(i + 5) {
        case "year": until = Day(year: today.year, month: 12, day: 31)
        case "month": until = lastDayOfThisMonth
        default: until = today.adding(days: (7 - today.weekday) % 7)
        }
        assumptions.append("'\(phrase(i, 6))' read as until \(until!)")
        return consume(6)
    }

    /// "10 times", "for 5 occurrences": how many times the rule fires. ("3
    /// times a week" is not a count: left in the title, it is a warning.)
    /// What a rule's occurrences are called when people count them ("6 payments").
    static let countNouns: Set<String> = ["payments", "instalments", "installments", "sessions", "classes", "lessons", "doses", "treatments",
                                          "appointments", "visits", "injections", "shots", "rounds", "meetings", "reminders"]

    mutating func readCount() -> Bool {
        if let n = ReminderLexicon.number(word(i)), n >= 1, word(i + 1) == "times", !(word(i + 2) == "a" || word(i + 2) == "per") {
            setCount(n, 2)
            return consume(2)
        }
        // "on the 1st of every month, 6 payments", "every 4 weeks, 6 sessions": a count of the rule's occurrences, said.
        // "physio every tuesday for 6 sessions": "for" too.
        let f = word(i) == "for" && rule.repeats ? 1 : 0
        if rule.repeats, i > 0, used[i - 1] || tokens[i - 1].commaAfter || f == 1, let n = ReminderLexicon.number(word(i + f)), (1...1000).contains(n),
           Self.countNouns.contains(word(i + f + 1)), word(i + f + 2).isEmpty || tokens[i + f + 1].commaAfter || !Self.titleWord(word(i + f + 2)) {
            setCount(n, 2 + f)
            assumptions.append("'\(phrase(i, 2 + f))' read as \(n) times")
            return consume(2 + f)
        }
        if word(i) == "for", let n = ReminderLexicon.number(word(i + 1)), n >= 1, word(i + 2) == "times" || word(i + 2) == "occurrences" {
            setCount(n, 3)
            return consume(3)
        }
        // "daily x 7 days", "every 3 days x 5": "x" and a count, or a span, after the rule.
        // "amox 0800 1400 2000 x10 days": a span after several times.
        if word(i).hasPrefix("x"), rule.repeats || !moreTimes.isEmpty, i > 0, used[i - 1], let n = Int(word(i).dropFirst()), n >= 1,
           let u = ReminderLexicon.unitWords[word(i + 1)], u != .hour, withinReach(n, word(i + 1), i, 2) {
            forDuration = (n, u, "\(tokens[i].raw) \(word(i + 1))")
            return consume(2)
        }
        if word(i) == "x", rule.repeats || !moreTimes.isEmpty, i > 0, used[i - 1], let n = ReminderLexicon.number(word(i + 1)), n >= 1 {
            if let u = ReminderLexicon.unitWords[word(i + 2)], u != .hour {
                forDuration = (n, u, "x \(n) \(word(i + 2))")
                return consume(3)
            }
            if word(i + 2).isEmpty || tokens[i + 1].commaAfter {
                setCount(n, 2)
                assumptions.append("'x \(n)' read as \(n) times")
                return consume(2)
            }
        }
        // "… 1st of every month 9am x3": "x3" right after the rule's words is its count (said so);
        // elsewhere ("batteries x3") it is a quantity of the title.
        if rule.repeats, i > 0, used[i - 1], word(i + 1).isEmpty || tokens[i].commaAfter,
           let x = word(i).first, x == "x" || x == "\u{00D7}", let n = Int(word(i).dropFirst()), n >= 1 {
            setCount(n, 1)
            assumptions.append("'\(tokens[i].raw)' read as \(n) times")
            return consume(1)
        }
        return false
    }

    /// The rule's number of times, said by `len` tokens at `i`: 1000 at most.
    mutating func setCount(_ n: Int, _ len: Int) {
        count = n
        if n > 1000 && conflict == nil { conflict = "'\(phrase(i, len))': yomo ends a rule after 1 to 1000 times" }
    }

    /// "for 3 weeks", when a rule is said before or after it: until the day
    /// before the same day 3 weeks on, counted from the date or today.
    mutating func readForDuration() -> Bool {
        // "for the next 3 weeks" is "for 3 weeks".
        let k = word(i + 1) == "the" && word(i + 2) == "next" ? i + 2 : i
        guard word(i) == "for", let n = ["a": 1, "an": 1][word(k + 1)] ?? ReminderLexicon.number(word(k + 1)), n >= 1,
              let u = ReminderLexicon.unitWords[word(k + 2)], u != .hour,
              rule.repeats || !moreTimes.isEmpty || tokens[(k + 3)...].contains(where: { $0.word == "every" || ReminderLexicon.ruleWords[$0.word] != nil })
        else { return false }
        guard withinReach(n, word(k + 2), i, k + 3 - i) else { i = k + 3; return true }
        forDuration = (n, u, "for \(n) \(word(k + 2))")
        return consume(k + 3 - i)
    }

    /// "for 3 weeks", once the sentence is read: until the day before the
    /// same day 3 weeks on, counted from the date, or from the first day
    /// whose time has not passed ("daily at 8am for 7 days" said at 10:00
    /// is seven mornings from tomorrow).
    mutating func settleForDuration(time: TimeOfDay?, zone: Zone) {
        guard let (n, u, said) = forDuration else { return }
        var start = date ?? today
        if date == nil, let t = time, t <= zone.local(now).time, relative == nil { start = today.adding(days: 1) }
        let end: Day
        switch u {
        case .day: end = start.adding(days: n - 1)
        case .week: end = start.adding(days: 7 * n - 1)
        case .month, .year: end = Self.monthsLater(u == .year ? 12 * n : n, from: start).adding(days: -1)
        case .hour: end = start
        }
        until = end
        assumptions.append("'\(said)' read as until \(end)")
    }

    /// "after I finish it", "from completion", "after the last one", when a
    /// rule is said before or after it: the rule repeats from completion.
    mutating func readAfterCompletion() -> Bool {
        guard word(i) == "after" || word(i) == "from",
              let p = Self.completionPhrases.first(where: { p in p.enumerated().allSatisfy { word(i + 1 + $0.offset) == $0.element } }),
              rule.repeats || tokens[(i + 1 + p.count)...].contains(where: { $0.word == "every" })
        else { return false }
        rule.basedOnCompletion = true
        return consume(1 + p.count)
    }

    /// The excluded weekdays, applied to the rule: daily and weekly rules
    /// keep the other days (a daily rule becomes weekly on them), an hourly
    /// rule runs on the other days; any other rule, or none left, is a warning.
    mutating func applyExceptions() {
        guard !exceptDays.isEmpty else { return }
        if rule.repeats && (rule.kind == .daily || rule.unit == .week || (rule.unit == .day && rule.interval == 1)) {
            let base = rule.days.isEmpty ? (rule.kind == .daily || rule.unit == .day ? [0, 1, 2, 3, 4, 5, 6] : []) : rule.days
            let left = base.filter { !exceptDays.contains($0) }
            if left.isEmpty || base.isEmpty {
                warnings.append("'except \(exceptDays.map(Weekdays.display).joined(separator: ","))' leaves no day of the rule")
            } else if rule.kind == .daily || rule.kind == .weekly {
                rule = Recurrence(kind: .weekly, days: left, basedOnCompletion: rule.basedOnCompletion)
            } else {
                rule.days = left
            }
        } else if rule.repeats && rule.unit == .hour {
            rule.days = (rule.days.isEmpty ? [0, 1, 2, 3, 4, 5, 6] : rule.days).filter { !exceptDays.contains($0) }
        } else {
            warnings.append("'except' works with daily and weekly rules; yomo could not place it here")
        }
    }

    /// The last day and the number of times, applied to the rule; without a
    /// rule, a warning.
    mutating func applyEnds() {
        if let u = until {
            // Several times for a span of days become a daily rule once the times are settled.
            if rule.repeats || (!moreTimes.isEmpty && forDuration != nil) { rule.until = u } else { warnings.append("'until \(u)' needs a repeating rule") }
        }
        if let c = count {
            if rule.repeats { rule.count = c } else { warnings.append("'\(c) times' needs a repeating rule") }
        }
    }
}

extension ReminderParser.ParseState {
    /// "every 2 hours tomorrow", "hourly on friday": an hourly rule on one
    /// day said is within that day, said; "starting tomorrow" is every day
    /// from then.
    mutating func settleHoursOfOneDay() {
        guard rule.repeats, rule.kind == .custom, rule.unit == .hour, let d = date, !startingSaid, until == nil, rule.until == nil,
              count == nil, rule.count == nil, rule.days.isEmpty, rule.rangeStart == nil, relative == nil, let said = dateSaid else { return }
        until = d
        assumptions.append("'\(ruleSaid ?? rule.summary)' with '\(said)' read as within \(Weekdays.display(d.weekday)) \(d); say 'starting \(said)' for every day from then")
    }
}
