// Dates in a sentence: named days ("today", "tonight", "tomorrow", "the day
// after tomorrow"), weekdays ("on monday", "next friday"; "on mondays" and
// "mon and wed" are weekly rules), written dates ("dec 24", "24th of
// december", "2026-12-24", "12/05"), days of the month ("the 5th", "the
// last day of the month"), and "this weekend", "next month", "end of the
// month".
//
// Invariants: a date is today or later, counted from `today` (a weekday
// today means a week on); a date that could be read two ways ("12/05" as
// month/day, "next week" as its Monday) is said in `assumptions`; a date the
// calendar does not have ("feb 30") is not a date, and its words stay in the
// title.

extension ReminderParser.ParseState {
    /// "today", "tonight" (today, at night), "tomorrow", "day after tomorrow".
    mutating func readNamedDay() -> Bool {
        switch word(i) {
        case "today":
            setDate(today, i, 1)
            i += 1
        case "tonight":
            setDate(today, i, 1)
            partOfDay = "night"
            i += 1
        case "tomorrow":
            setDate(today.adding(days: 1), i, 1)
            i += 1
        case "day" where word(i + 1) == "after" && word(i + 2) == "tomorrow":
            setDate(today.adding(days: 2), i, 3)
            i += 3
        case "the" where word(i + 1) == "day" && word(i + 2) == "after" && word(i + 3) == "tomorrow":
            setDate(today.adding(days: 2), i, 4)
            i += 4
        default:
            return false
        }
        return true
    }

    /// The "starting" of "every 3 days starting monday": the day read next
    /// is where the rule starts.
    mutating func readStarting() -> Bool {
        guard ["starting", "beginning", "commencing", "from"].contains(word(i)), rule.repeats || word(i) != "from" else { return false }
        var k = i + 1
        if word(i) != "from" && (word(k) == "on" || word(k) == "from") { k += 1 }
        // "starting next week", "starting next month": the rule starts then (read next).
        if word(i) != "from" && word(k) == "next" && ["week", "month"].contains(word(k + 1)) {
            startingSaid = true
            return consume(k - i)
        }
        // "starting march": the 1st of the next March (said).
        if word(i) != "from", let m = ReminderLexicon.month(word(k)), word(k).count >= 3, Self.dayOfMonth(word(k + 1)) == nil,
           rule.repeats || tokens.dropFirst(k).contains(where: { $0.word == "every" || ReminderLexicon.ruleWords[$0.word] != nil }),
           let d = nextDate(month: m, day: 1) {
            startingSaid = true
            assumptions.append("'\(phrase(i, k + 1 - i))' read as from \(d)")
            setDate(d, i, k + 1 - i)
            i = k + 1
            return true
        }
        guard rule.repeats || tokens.dropFirst(k).contains(where: { $0.word == "every" || ReminderLexicon.ruleWords[$0.word] != nil }) else { return false }
        guard ReminderLexicon.weekday(word(k)) != nil || ["today", "tomorrow"].contains(word(k)) || datePhrase(at: k) != nil
                || (word(k) == "next" && ReminderLexicon.weekday(word(k + 1)) != nil) else { return false }
        startingSaid = true
        return consume(k - i)
    }

    /// "a week from today", "two weeks from tomorrow", "a fortnight from
    /// now", "3 days from now"; "2 hours from now" is "in 2 hours".
    mutating func readFromDay() -> Bool {
        var k = i
        // "this time tomorrow", "this time next week": this moment, a day or a week on, said.
        if word(k) == "this" && word(k + 1) == "time" && (word(k + 2) == "tomorrow" || (word(k + 2) == "next" && word(k + 3) == "week")) {
            let week = word(k + 2) == "next"
            relative = Instant(ms: now.ms + (week ? 7 : 1) * 86_400_000)
            assumptions.append("'\(phrase(k, week ? 4 : 3))' read as \(week ? "a week" : "a day") from now")
            return consume(week ? 4 : 3)
        }
        // "a week today", "a fortnight tomorrow" (Britain's): that many days on, said.
        if let n = ["a": 1, "one": 1][word(k)] ?? ReminderLexicon.number(word(k)), (1...52).contains(n),
           ["week", "fortnight", "weeks", "fortnights"].contains(word(k + 1)), ["today", "tomorrow"].contains(word(k + 2)) {
            let d = (word(k + 2) == "tomorrow" ? today.adding(days: 1) : today).adding(days: n * (word(k + 1).hasPrefix("week") ? 7 : 14))
            assumptions.append("'\(phrase(k, 3))' read as \(Weekdays.display(d.weekday)) \(d)")
            setDate(d, i, 3)
            i += 3
            return true
        }
        // "tomorrow week", "today fortnight" (Britain's): a week or two on from that day, said.
        if ["today", "tomorrow"].contains(word(k)), ["week", "fortnight"].contains(word(k + 1)), !["of", "'s"].contains(word(k + 2)) {
            let d = (word(k) == "tomorrow" ? today.adding(days: 1) : today).adding(days: word(k + 1) == "week" ? 7 : 14)
            assumptions.append("'\(phrase(k, 2))' read as \(Weekdays.display(d.weekday)) \(d)")
            setDate(d, i, 2)
            i += 2
            return true
        }
        // "an hour and a half from now".
        if ["a", "an", "one"].contains(word(k)) && word(k + 1) == "hour" && word(k + 2) == "and" && word(k + 3) == "a" && word(k + 4) == "half"
            && word(k + 5) == "from" && word(k + 6) == "now" {
            guard readAmountFromNow(1, unitAt: k + 1) else { return false }
            return consume(2)
        }
        // "half an hour from now".
        if word(k) == "half" && ["an", "a"].contains(word(k + 1)) && word(k + 2) == "hour" && word(k + 3) == "from" && word(k + 4) == "now" {
            guard readAmountFromNow(0.5, unitAt: k + 2) else { return false }
            return consume(2)
        }
        let n: Int
        if ["a", "an"].contains(word(k)) { n = 1 } else if let m = ReminderLexicon.number(word(k)), (1...1000).contains(m) { n = m } else { return false }
        k += 1
        guard word(k + 1) == "from", ["today", "now", "tomorrow"].contains(word(k + 2)) else { return false }
        if word(k + 2) == "now", ReminderLexicon.minuteWords.contains(word(k)) || ["hour", "hours", "hr", "hrs"].contains(word(k)) {
            guard readAmountFromNow(Double(n), unitAt: k) else { return false }
            return consume(2)
        }
        let base = word(k + 2) == "tomorrow" ? today.adding(days: 1) : today
        let d: Day
        switch word(k) {
        case "day", "days": d = base.adding(days: n)
        case "week", "weeks": d = base.adding(days: 7 * n)
        case "fortnight", "fortnights": d = base.adding(days: 14 * n)
        case "month", "months": d = Self.monthsLater(n, from: base)
        case "year", "years": d = Self.monthsLater(12 * n, from: base)
        default: return false
        }
        setDate(d, i, k + 3 - i)
        i = k + 3
        return true
    }

    /// The "by" of "by friday", "by tomorrow", "by dec 24": read, so that it
    /// leaves the title; the day is read next.
    mutating func readByDay() -> Bool {
        guard word(i) == "by", ReminderLexicon.weekday(word(i + 1)) != nil || ["tomorrow", "today", "tonight"].contains(word(i + 1))
                || datePhrase(at: i + 1) != nil else { return false }
        return consume(1)
    }

    /// "(on) the last day of the month": this month's last day. "the last
    /// day of every month" is no rule yomo has: a warning that says what to do.
    mutating func readLastDayOfMonth() -> Bool {
        var k = i
        if word(k) == "on" { k += 1 }
        if word(k) == "the" { k += 1 }
        if word(k) == "every" || word(k) == "each" { k += 1 }
        if word(k) == "the" { k += 1 }
        if word(k) == "last" && word(k + 1) == "day" && word(k + 2) == "of" && word(k + 3) == "month" {  // "last day of month"
            setDate(lastDayOfThisMonth, i, k + 4 - i)
            i = k + 4
            return true
        }
        guard word(k) == "last" && word(k + 1) == "day" && word(k + 2) == "of" && word(k + 4) == "month" else { return false }
        if ["every", "each"].contains(word(i)) || ["every", "each"].contains(word(k + 3)) {
            var r = RRule(freq: .monthly)
            r.byMonthDay = [-1]
            setRule(Self.rfcRule(r), i, k + 5 - i)
            i = k + 5
            return true
        }
        if ["the", "this"].contains(word(k + 3)) {
            setDate(lastDayOfThisMonth, i, k + 5 - i)
            i = k + 5
            return true
        }
        // "the last day of next month".
        if word(k + 3) == "next" {
            let first = Day(year: today.year + (today.month == 12 ? 1 : 0), month: today.month % 12 + 1, day: 1)
            let next = Day(year: first.year + (first.month == 12 ? 1 : 0), month: first.month % 12 + 1, day: 1)
            setDate(next.adding(days: -1), i, k + 5 - i)
            i = k + 5
            return true
        }
        return false
    }

    /// "this weekend", "next weekend": its Saturday (said so); on a Sunday,
    /// "this weekend" is today.
    mutating func readWeekend() -> Bool {
        let w = word(i)
        // "at the weekend" (Britain's), "on the weekend": this one, with no rule to make it every one.
        let the = (w == "at" || w == "on") && word(i + 1) == "the" && word(i + 2) == "weekend" && !rule.repeats
        let coming = (w == "this" && word(i + 1) == "coming") || the ? 1 : 0  // "this coming weekend"
        guard ((w == "this" || w == "next") && word(i + 1 + coming) == "weekend") || the else { return false }
        var ahead = (6 - today.weekday + 7) % 7
        if w == "next" { ahead += 7 }
        var d = today.adding(days: ahead)
        if (w == "this" || the) && today.weekday == 0 { d = today }
        assumptions.append("'\(phrase(i, 2 + coming))' read as \(Weekdays.display(d.weekday)) \(d)")
        setDate(d, i, 2 + coming)
        i += 2 + coming
        return true
    }

    /// "next week" (its Monday), "next month", "next year" (their first
    /// day), said so.
    mutating func readNextPeriod() -> Bool {
        guard word(i) == "next", ["week", "month", "year"].contains(word(i + 1)) else { return false }
        let d: Day
        switch word(i + 1) {
        case "week": d = today.adding(days: (1 - today.weekday + 7) % 7 == 0 ? 7 : (1 - today.weekday + 7) % 7)
        case "month":
            let idx = today.year * 12 + today.month
            d = Day(year: idx / 12, month: idx % 12 + 1, day: 1)
            // "next month on the 2nd", "next month the 15th": that day of it.
            var k = i + 2
            if word(k) == "on" { k += 1 }
            if word(k) == "the" { k += 1 }
            if k > i + 2, let n = ReminderLexicon.ordinal(word(k)), n >= 1, ReminderLexicon.weekday(word(k + 1)) == nil, word(k + 1) != "of" {
                guard n <= Day.daysInMonth(year: d.year, month: d.month) else { return false }  // "next month on the 31st" in a short one: left to be refused
                let on = Day(year: d.year, month: d.month, day: n)
                assumptions.append("'\(phrase(i, k + 1 - i))' read as \(Weekdays.display(on.weekday)) \(on)")
                setDate(on, i, k + 1 - i)
                i = k + 1
                return true
            }
        default: d = Day(year: today.year + 1, month: 1, day: 1)
        }
        assumptions.append("'next \(word(i + 1))' read as \(d)")
        setDate(d, i, 2)
        i += 2
        return true
    }

    /// "end of the month", "the end of this month": its last day; "end of
    /// the week": Friday, said.
    mutating func readEndOfMonth() -> Bool {
        let w = word(i)
        guard (w == "end" && word(i + 1) == "of") || (w == "the" && word(i + 1) == "end" && word(i + 2) == "of") else { return false }
        let k = w == "the" ? i + 2 : i + 1
        if ["every", "each"].contains(word(k + 1)) && word(k + 2) == "month" {
            var r = RRule(freq: .monthly)
            r.byMonthDay = [-1]
            setRule(Self.rfcRule(r), i, k + 3 - i)
            i = k + 3
            return true
        }
        // "end of the week", "end of this week", "end of week": the working week's end, Friday (today on a Friday), said.
        if word(k + 1) == "week" || (["the", "this"].contains(word(k + 1)) && word(k + 2) == "week") {
            let n = word(k + 1) == "week" ? k + 2 - i : k + 3 - i
            // "end of week report": a name, as "EOD report"; left to be refused.
            let after = word(i + n)
            if Self.titleWord(after) && !Self.dayWord(after) && !["tmrw", "next", "this"].contains(after) && !tokens[i + n - 1].commaAfter { return false }
            let d = today.weekday == 5 ? today : nextWeekday(5)
            assumptions.append("'\(phrase(i, n))' read as \(Weekdays.display(d.weekday)) \(d), the working week's end")
            setDate(d, i, n)
            i += n
            return true
        }
        // "end of month": this month's last day, as "end of the month".
        if word(k + 1) == "month" {
            setDate(lastDayOfThisMonth, i, k + 2 - i)
            i = k + 2
            return true
        }
        guard ["the", "this"].contains(word(k + 1)) && word(k + 2) == "month" else { return false }
        setDate(lastDayOfThisMonth, i, k + 3 - i)
        i = k + 3
        return true
    }

    /// "on mon and wed", "on mondays", "mondays": a weekly rule, or the days
    /// of the rule already read ("every week on friday", "every hour on
    /// mondays"); "on monday", "next friday", "this friday": a day, once.
    /// Several days without a rule word are said to be read as every week.
    mutating func readWeekdayPhrase() -> Bool {
        var k = i
        if word(k) == "this" && word(k + 1) == "coming" { k += 1 }  // "this coming thursday"
        // "health visitor coming thurs": "coming" after someone who comes is its verb; the day is read next
        // ("the slip coming tuesday" is "this coming tuesday").
        if word(k) == "coming", k > 0, !used[k - 1], Self.comers.contains(word(k - 1)) { return false }
        if ["on", "next", "this", "coming", "for"].contains(word(k)) { k += 1 }
        if word(k) == "on" { k += 1 }
        // "at friday 5pm": "at" a day, as some say it.
        if k == i && word(k) == "at" && ReminderLexicon.weekday(word(k + 1)) != nil && !word(k + 1).hasSuffix("s") { k += 1 }
        guard let (days, len) = dayList(at: k) else { return false }
        // "the Sunday paper", "the monday meeting", "Friday Night Lights": a day that names a thing;
        // "book a table for Friday Club": after "for" too.
        if ((k == i || (k == i + 1 && word(i) == "for")) && namesAThing(at: k, len: len))
            || ((len == 1 || tokens[k].word.hasSuffix("s")) && properName(at: k)) || (len == 1 && (namesABusiness(at: k) || dayOrPlace(at: k))) { return false }  // "TGI Fridays sun 7pm"
        if word(i) == "for" && (days.count > 1 || tokens[k].word.hasSuffix("s")) { return false }
        let plural = (k..<(k + len)).contains { tokens[$0].word.hasSuffix("s") && Weekdays.parse(tokens[$0].word) == nil }
        if rule.repeats && rule.unit == .hour && word(i) == "on" {
            rule.days = days
            return consume(k + len - i)
        }
        if (days.count > 1 || plural) && word(i) != "next" && word(i) != "this" {
            if !rule.repeats && !plural {
                assumptions.append("'\(phrase(k, len))' read as every week")
            }
            if rule.repeats && rule.unit == .week && rule.days.isEmpty {
                rule.days = days
                take(i, k + len - i)
            } else {
                setRule(Recurrence(kind: .weekly, days: days), i, k + len - i)
            }
            i = k + len
            return true
        }
        guard days.count == 1 else { return false }
        // "return Tuesdays with Morrie on thursday": a rule's days already said, and another day: which?
        if rule.repeats && rule.effective.unit == .week && word(i) == "on" && !rule.days.isEmpty && rule.days != days && conflict == nil {
            conflict = "'\(ruleSaid ?? "")' and 'on \(tokens[k].word)' are two days: for a rule say 'every \(tokens[k].word)'; if '\(ruleSaid ?? "")' names a thing, put the name in quotes"
        }
        if rule.repeats && (rule.unit == .week || rule.unit == .day) && word(i) == "on" {
            // "every week on friday", "weekly on friday"
            if rule.kind == .daily { rule = Recurrence(kind: .weekly) }
            rule.days = days
            return consume(k + 1 - i)
        }
        let d = nextWeekday(days[0])
        // "friday pub quiz" is mostly Friday's; "for wednesday cafe" may name a client: read, and said.
        if Self.businessWords.contains(word(k + 1)) {
            assumptions.append("'\(tokens[k].word)' read as \(Weekdays.display(d.weekday)) \(d); if '\(tokens[k].word) \(word(k + 1))' names a place, put it in quotes")
        }
        if word(i) == "next" { assumptions.append("'next \(tokens[k].word)' read as \(d)") }
        // "saturday 4pm" said on a Saturday: a week on, said so ("today" is today).
        else if days[0] == today.weekday { assumptions.append("'\(tokens[k].word)' read as next week's, \(d): say 'today' for today") }
        // "doctor's appointment monday next at half eleven", "send the forms monday first": Ireland's and Scotland's
        // "Monday next" and "Monday first", the coming Monday, said: "first" ending the sentence, "next" there or before a
        // time; not across a colon or comma ("agenda monday: next steps"), nor before a word of the title ("friday next
        // door"), nor an order ("show monday first").
        let after = word(k + 2)
        if ["next", "first"].contains(word(k + 1)), word(i) != "next", !tokens[k].commaAfter,
           after.isEmpty || tokens[k + 1].commaAfter
            || (word(k + 1) == "next" && (["at", "@", "morning", "afternoon", "evening", "night"].contains(after) || writtenTime(at: k + 2) != nil)),
           !["show", "shows", "starts", "start", "ranked", "rank", "put", "list", "sort", "sorted", "comes", "come", "goes", "go", "with", "party"].contains(word(i - 1)) {
            let alt = word(k + 1) == "next" ? "; some mean the one after" : ""
            assumptions.append("'\(tokens[k].word) \(word(k + 1))' read as the coming \(Weekdays.display(days[0])), \(d)\(alt)")
            setDate(d, i, k + 2 - i)
            i = k + 2
            return true
        }
        setDate(d, i, k + 1 - i)
        i = k + 1
        return true
    }

    /// A written date: "dec 24", "24 december", "2026-12-24", "12/05".
    mutating func readDate() -> Bool {
        guard let (d, len) = datePhrase(at: i) else { return false }
        setDate(d, i, len)
        i += len
        return true
    }

    /// A date at `k0` ("on" before it is part of it): "dec 24", "december
    /// 24th 2027", "24 december", "24th of december", "the 24th of december",
    /// "2026-12-24", "12/05"; and how many tokens it used. A month/day
    /// reading of a slash date is said in `assumptions`.
    mutating func datePhrase(at k0: Int) -> (Day, Int)? {
        var k = k0
        if word(k) == "on" { k += 1 }
        if word(k) == "the", let o = ReminderLexicon.ordinal(word(k + 1)), o >= 1, word(k + 2) == "of", let m = ReminderLexicon.month(word(k + 3)) {
            if let (d, n) = dated(month: m, day: o, yearAt: k + 4) { return (d, k + 4 + n - k0) }
        }
        if let d = Day.parse(word(k)) { return (d, k + 1 - k0) }
        if let (d, note) = dotDate(word(k), trailingDot: tokens.indices.contains(k) && tokens[k].raw.hasSuffix(".")) {
            assumptions.append(note)
            return (d, k + 1 - k0)
        }
        // "december the 5th".
        if let m = ReminderLexicon.month(word(k)), word(k).count >= 3, word(k + 1) == "the", let o = ReminderLexicon.ordinal(word(k + 2)), o >= 1,
           let (d, n) = dated(month: m, day: o, yearAt: k + 3) {
            return (d, k + 3 + n - k0)
        }
        if !Self.measureWords.contains(word(k + 1)), word(k) != "24/7", !fraction(at: k), let (d, note) = slashDate(word(k)) {
            assumptions.append(note)
            return (d, k + 1 - k0)
        }
        if let m = ReminderLexicon.month(word(k)), word(k).count >= 3, let dd = Self.dayOfMonth(word(k + 1)) {
            if let (d, n) = dated(month: m, day: dd, yearAt: k + 2) { return (d, k + 2 + n - k0) }
        }
        if let dd = Self.dayOfMonth(word(k)) {
            var mk = k + 1
            if word(mk) == "of" { mk += 1 }
            // "station 7 dec 19": a numbered thing, then "dec 19"; "7 dec 19" alone: the 7th or the 19th? Refused.
            // "5 may street", "12 june road": a house number and a street, not a date.
            if ReminderLexicon.month(word(mk)) != nil, Self.streetWords.contains(word(mk + 1)) { return nil }
            if let m = ReminderLexicon.month(word(mk)), word(mk).count >= 3, mk == k + 1, Self.dayOfMonth(word(mk + 1)) != nil,
               !["am", "pm", "a.m.", "p.m.", "o'clock", "h", "hrs", "oclock"].contains(word(mk + 2)) {
                if k > 0, Self.numberedPlaces.contains(word(k - 1)) { return nil }
                if conflict == nil {
                    conflict = "'\(phrase(k, 3))': \(ReminderLexicon.months[m - 1].prefix(3)) \(dd) or \(ReminderLexicon.months[m - 1].prefix(3)) \(word(mk + 1))? say '\(word(mk)) \(word(mk + 1))' or '\(dd) \(word(mk))'"
                }
            }
            if let m = ReminderLexicon.month(word(mk)), word(mk).count >= 3, let (d, n) = dated(month: m, day: dd, yearAt: mk + 1) {
                return (d, mk + 1 + n - k0)
            }
        }
        return nil
    }

    /// `month`/`day` with the year written at `k` ("march 5 2028", "5 march
    /// 2028"; a comma between is fine), or the next such day; and how many
    /// tokens the year took. A year outside 2000-2200 is refused with its words.
    mutating func dated(month m: Int, day d: Int, yearAt k: Int) -> (Day, Int)? {
        let w = word(k)
        if w.count == 4, !w.hasPrefix("0"), w.allSatisfy({ $0.isASCII && $0.isNumber }), let y = Int(w) {
            guard (2000...2200).contains(y) else {
                if conflict == nil { conflict = "'\(w)': yomo reads years 2000 to 2200" }
                take(k, 1)
                return nextDate(month: m, day: d).map { ($0, 1) }
            }
            let day = Day(year: y, month: m, day: d)
            return day.isValid ? (day, 1) : nil
        }
        return nextDate(month: m, day: d).map { ($0, 0) }
    }

    /// A day of the month as written: "24th", "24" (1-31); "last" is -1.
    static func dayOfMonth(_ w: String) -> Int? {
        ReminderLexicon.ordinal(w) ?? Int(w).flatMap { (1...31).contains($0) ? $0 : nil }
    }

    /// "03.12." (with its dot after), "15.04.2027": day first, as every
    /// country that writes dates with dots does; "2026.12.03": year first.
    func dotDate(_ w: String, trailingDot: Bool) -> (Day, String)? {
        let p = w.split(separator: ".", omittingEmptySubsequences: false)
        guard (2...3).contains(p.count), p.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
        let n = p.compactMap { Int($0) }
        if p.count == 2 {
            guard trailingDot, p[0].count <= 2, p[1].count <= 2, (1...12).contains(n[1]), let d = nextDate(month: n[1], day: n[0]) else { return nil }
            return (d, "'\(w).' read as \(d) (day.month)")
        }
        let day = p[0].count == 4 ? Day(year: n[0], month: n[1], day: n[2]) : Day(year: n[2] < 100 ? n[2] + 2000 : n[2], month: n[1], day: n[0])
        guard day.isValid, (2000...2200).contains(day.year) else { return nil }
        return (day, "'\(w)' read as \(day) (\(p[0].count == 4 ? "year.month.day" : "day.month.year"))")
    }

    /// "1/2 tablet", "take 1 1/2 pills", "3/4 of the cake": a common
    /// fraction before a word of the title, or after a whole number.
    func fraction(at k: Int) -> Bool {
        let p = word(k).split(separator: "/")
        // "03/04" is a date: a fraction has no leading zero.
        guard p.count == 2, !p[0].hasPrefix("0"), !p[1].hasPrefix("0"), let a = Int(p[0]), let b = Int(p[1]), [2, 3, 4, 8].contains(b), a < b else { return false }
        return Int(word(k - 1)) != nil || word(k + 1) == "of" || (Self.titleWord(word(k + 1)) && ReminderLexicon.partsOfDay.contains(word(k + 1)) == false
                                                               && !Self.dayWord(word(k + 1)))
    }

    /// Words after a house number and a month's name that make them an
    /// address ("5 may street"): only words that are nothing else.
    static let streetWords: Set<String> = ["street", "st", "road", "rd", "lane", "ln", "avenue", "ave", "crescent", "terrace", "gardens"]
    /// Words after a month's name alone that make it a place's ("march field", "may street").
    static let placeWords: Set<String> = streetWords.union(["field", "paddock", "hall", "farm", "park", "close", "way", "court", "drive", "place"])

    /// Units of measure: "1/2 inch", "3/4 cup" are fractions, not dates.
    static let measureWords: Set<String> = ["inch", "inches", "in", "\"", "ft", "foot", "feet", "yd", "yard", "yards", "mile", "miles",
                                            "mm", "cm", "m", "km", "cup", "cups", "tsp", "tbsp", "teaspoon", "teaspoons", "tablespoon",
                                            "tablespoons", "oz", "lb", "lbs", "pound", "pounds", "kg", "g", "gram", "grams", "litre", "liter",
                                            "litres", "liters", "l", "ml", "gallon", "gallons", "pint", "pints", "dozen", "size", "scale",
                                            "tablet", "tablets", "pill", "pills", "capsule", "capsules", "dose", "doses", "mg",
                                            "mcg", "iu", "psi", "kpa", "rpm", "mph", "kph", "bpm", "degrees", "percent", "%"]

    /// "12/05" (month/day, as in the US), "12/05/2026", "12/5/27", and the
    /// assumption that says how it was read.
    func slashDate(_ w: String) -> (Day, String)? {
        let parts = w.split(separator: "/")
        guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isNumber) }),
              let a = Int(parts[0]), let b = Int(parts[1]) else { return nil }
        // "2026/12/01": year first, as ISO 8601 with slashes.
        if parts.count == 3, parts[0].count == 4, let c = Int(parts[2]) {
            let day = Day(year: a, month: b, day: c)
            return day.isValid && (2000...2200).contains(a) ? (day, "'\(w)' read as \(day) (year/month/day)") : nil
        }
        // Month first in the Americas' zones (12/05 is December 5), day first elsewhere (05/12); whichever
        // is the only one possible ("31/12", "12/31") anywhere. Said in `assumptions` either way.
        let monthFirst = zoneName.isEmpty || zoneName.hasPrefix("America/") || zoneName.hasPrefix("US/") || zoneName == "Pacific/Honolulu"
        var (m, d) = monthFirst ? (a, b) : (b, a)
        if !(1...12).contains(m) && (1...12).contains(d) { (m, d) = (d, m) }
        guard (1...12).contains(m), (1...31).contains(d) else { return nil }
        let order = (m, d) == (a, b) ? "month/day" : "day/month"
        let name = ReminderLexicon.months[m - 1].prefix(1).uppercased() + ReminderLexicon.months[m - 1].dropFirst()
        if parts.count == 3, var y = Int(parts[2]) {
            if y < 100 { y += 2000 }
            let day = Day(year: y, month: m, day: d)
            guard day.isValid else { return nil }
            return (day, "'\(w)' read as \(name) \(d), \(y) (\(order))")
        }
        guard let day = nextDate(month: m, day: d) else { return nil }
        return (day, "'\(w)' read as \(name) \(d) (\(order))")
    }

    /// A list of weekdays at `k`: "mon, wed and fri", "monday and thursday",
    /// "tuesdays"; the days in week order, and how many tokens it used. A
    /// comma or "and"/"&"/"or" goes on to the next day.
    func dayList(at k: Int) -> ([Int], Int)? {
        if let r = Self.dayRange(word(k)) { return (r, 1) }
        if let a = ReminderLexicon.weekday(word(k)), ["to", "through", "thru", "-", "\u{2013}"].contains(word(k + 1)),
           let b = ReminderLexicon.weekday(word(k + 2)), a != b {
            return (Self.days(from: a, to: b), 3)
        }
        var days: [Int] = []
        var j = k
        if let (letters, n) = dayLetters(at: k) { return (letters, n) }
        while j < tokens.count, let d = ReminderLexicon.weekday(tokens[j].word) {
            days.append(d)
            j += 1
            // "mondays wednesdays fridays": plurals side by side are a list too.
            let plurals = tokens[j - 1].word.hasSuffix("s") && j < tokens.count && tokens[j].word.hasSuffix("s")
                && ReminderLexicon.weekday(tokens[j].word) != nil
            if j < tokens.count && ["and", "&"].contains(tokens[j].word) && j + 1 < tokens.count
                && ReminderLexicon.weekday(tokens[j + 1].word) != nil {
                j += 1
            } else if !tokens[j - 1].commaAfter && !(j < tokens.count && Weekdays.parse(tokens[j].word) != nil) && !plurals {
                break
            }
        }
        return days.isEmpty ? nil : (Weekdays.sorted(days), j - k)
    }

    /// "M W F", "T Th", "Tu Th": a timetable's day letters as words, two or
    /// more in the week's order (M, T or Tu, W, Th or R, F, Sa, Su).
    func dayLetters(at k: Int) -> ([Int], Int)? {
        let letters: [String: Int] = ["m": 1, "t": 2, "tu": 2, "w": 3, "th": 4, "r": 4, "f": 5, "sa": 6, "su": 7]
        var days: [Int] = []
        var j = k
        while j < tokens.count, tokens[j].word.count <= 2, tokens[j].capitalised,
              let d = letters[tokens[j].word], d > (days.last ?? 0) {
            days.append(d)
            j += 1
        }
        return days.count >= 2 ? (days.map { $0 % 7 }, j - k) : nil
    }

    /// "mon-fri", "tue–thu", "mon/wed/fri": the days in one word.
    static func dayRange(_ w: String) -> [Int]? {
        // "MWF", "M/W/F", "MW", "TTh", "Tu/Th": class timetables' letters.
        let letters: [String: [Int]] = ["mwf": [1, 3, 5], "m/w/f": [1, 3, 5], "mw": [1, 3], "m/w": [1, 3], "tth": [2, 4], "t/th": [2, 4],
                                        "tuth": [2, 4], "tu/th": [2, 4], "mtwthf": [1, 2, 3, 4, 5], "m-f": [1, 2, 3, 4, 5]]
        if let d = letters[w] { return d }
        for sep: Character in ["-", "\u{2013}"] where w.contains(sep) {
            let p = w.split(separator: sep).map(String.init)
            if p.count == 2, let a = ReminderLexicon.weekday(p[0]), let b = ReminderLexicon.weekday(p[1]), a != b { return days(from: a, to: b) }
        }
        for sep: Character in ["/", "+"] where w.contains(sep) {
            let p = w.split(separator: sep).map(String.init)
            let ds = p.compactMap(ReminderLexicon.weekday)
            if p.count >= 2 && ds.count == p.count { return Weekdays.sorted(ds) }
        }
        return nil
    }

    /// The weekdays from `a` to `b`, both in, round the end of the week ("fri to mon").
    static func days(from a: Int, to b: Int) -> [Int] {
        var out = [a]
        var d = a
        while d != b { d = (d + 1) % 7; out.append(d) }
        return Weekdays.sorted(out)
    }

    var lastDayOfThisMonth: Day {
        Day(year: today.year, month: today.month, day: Day.daysInMonth(year: today.year, month: today.month))
    }

    /// The next day (today or later) whose day of month is `n`.
    func nextDayOfMonth(_ n: Int) -> Day? {
        guard (1...31).contains(n) else { return nil }
        var y = today.year, m = today.month
        for _ in 0..<14 {
            if n <= Day.daysInMonth(year: y, month: m) {
                let d = Day(year: y, month: m, day: n)
                if d >= today { return d }
            }
            m += 1
            if m > 12 { m = 1; y += 1 }
        }
        return nil
    }

    /// The next `month`/`day` (today or later), within eight years (a 29th
    /// of February comes back in four).
    func nextDate(month m: Int, day d: Int) -> Day? {
        for y in today.year...(today.year + 8) {
            let c = Day(year: y, month: m, day: d)
            if c.isValid && c >= today { return c }
        }
        return nil
    }

    /// The same day `n` months after `d`, or the month's last day when it is
    /// shorter ("in a month" from January 31st is February's last day).
    static func monthsLater(_ n: Int, from d: Day) -> Day {
        let idx = d.year * 12 + d.month - 1 + n
        return Day(year: idx / 12, month: idx % 12 + 1, day: min(d.day, Day.daysInMonth(year: idx / 12, month: idx % 12 + 1)))
    }
}

extension Recurrence {
    /// The next day (today or later) that is the `ordinal` `weekday` of its month.
    static func nextNthWeekday(ordinal: Int, weekday: Int, from today: Day) -> Day? {
        var y = today.year, m = today.month
        for _ in 0..<14 {
            if let d = nthWeekday(year: y, month: m, ordinal: ordinal, weekday: weekday), d >= today { return d }
            m += 1
            if m > 12 { m = 1; y += 1 }
        }
        return nil
    }
}
