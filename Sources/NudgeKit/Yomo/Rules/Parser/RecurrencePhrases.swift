// Rules in a sentence: "every …" and "each …" ("every 2 hours between 9
// and 5", "every other tuesday", "every mon, wed and fri", "every 3rd
// wednesday", "every year on dec 24"), the single words that name a rule
// ("daily", "biweekly", "quarterly"), "once a week", "on weekdays",
// "mornings", and a weekday's place in the month ("first monday of the
// month", "monthly on the last friday").
//
// Invariants: a reader here sets the rule through `setRule`, so a second,
// different rule in the same sentence is a conflict; only words that refine
// the rule already read (its days, its weekday in the month, "biweekly"
// after "every friday") change it in place. yomo repeats in whole hours,
// days, weeks, months or years: minutes that are not whole hours are a
// warning, never a rounded rule.

extension ReminderParser.ParseState {
    /// A price's last word: "$15", "£3", "50 cents", "2 quid".
    static func price(_ w: String) -> Bool {
        "$£€".contains(w.first ?? " ") || ["cents", "cent", "bucks", "dollars", "pounds", "euros", "quid", "p"].contains(w)
    }

    /// "every …", "each …": a rule, with what follows naming its unit, its
    /// days or its weekday in the month.
    mutating func readEvery() -> Bool {
        guard word(i) == "every" || word(i) == "each" else { return false }
        // "tickets $15 each friday", "50 cents each": apiece, after a price.
        if word(i) == "each", i > 0, Self.price(word(i - 1)) { return false }
        var j = i + 1
        if word(j) == "single" { j += 1 }
        var n = 1
        var counted = false  // "every other …", "every 3 …"
        // "every quarter hour", "every quarter of an hour", "every half hour", "every half an hour"
        if word(j) == "quarter" || word(j) == "half" {
            let m = word(j) == "quarter" ? 15 : 30
            var u = j + 1
            if word(u) == "of" && ["an", "a"].contains(word(u + 1)) { u += 2 } else if word(j) == "half" && ["an", "a"].contains(word(u)) { u += 1 }
            if word(u) == "hour" || word(u) == "hr" { return everyMinutes(m, unitAt: u) }
        }
        // "every fortnight", "every quarter": two weeks, three months.
        if word(j) == "fortnight" || (word(j) == "quarter" && !["hour", "hr", "of"].contains(word(j + 1))) {
            setRule(Recurrence(kind: .custom, interval: word(j) == "fortnight" ? 2 : 3, unit: word(j) == "fortnight" ? .week : .month), i, j + 1 - i)
            i = j + 1
            return true
        }
        if word(j) == "other" {
            n = 2
            j += 1
            counted = true
        } else if let k = ReminderLexicon.number(word(j)), k >= 1, word(j + 1) != "", ReminderLexicon.weekday(word(j)) == nil {
            n = k
            j += 1
            counted = true
        } else if let o = ReminderLexicon.ordinal(word(j)), o >= 2, ReminderLexicon.unitWords[word(j + 1)] != nil {
            // "every second day", "every 3rd week"
            n = o
            j += 1
            counted = true
        }
        // "every 1st and 15th": a monthly rule on those days.
        if !counted, readEveryMonthDays(at: j) { return true }
        // "every July 22nd", "each 25th of december", "every 12/25": once a year on that date.
        if !counted, let (d, len) = datePhrase(at: j), (j..<(j + len)).contains(where: { ReminderLexicon.month(word($0)) != nil || word($0).contains("/") }) {
            setRule(Recurrence(kind: .custom, interval: 1, unit: .year), i, j - i)
            setDate(d, j, len)
            i = j + len
            return true
        }
        // "every workday", "every business day", "each working day": Monday to Friday, said.
        let workday = word(j) == "workday" ? 1 : ["business", "working", "work"].contains(word(j)) && word(j + 1) == "day" ? 2 : 0
        if !counted, workday > 0 {
            setRule(Recurrence(kind: .weekly, days: [1, 2, 3, 4, 5]), i, j + workday - i)
            assumptions.append("'\(phrase(i, j + workday - i))' read as Monday to Friday (holidays are not known)")
            i = j + workday
            return true
        }
        // "every weeknight": Monday to Friday, at night (said: some mean Sunday to Thursday).
        if !counted, ["weeknight", "weeknights"].contains(word(j)), !ReminderLexicon.partsOfDay.contains(word(j + 1)) {
            setRule(Recurrence(kind: .weekly, days: [1, 2, 3, 4, 5]), i, j + 1 - i)
            if partOfDay == nil { partOfDay = "night" }
            assumptions.append("'\(phrase(i, j + 1 - i))' read as Monday to Friday")
            i = j + 1
            return true
        }
        // "every 15th of the month", "every fifteenth day of the month": monthly on that day.
        if !counted, let o = ReminderLexicon.ordinal(word(j)), o >= 1, ReminderLexicon.weekday(word(j + 1)) == nil {
            let day = word(j + 1) == "day" ? 1 : 0
            let of = ofMonth(at: j + 1 + day)
            // "every 31st", "every 1st": a day of the month ("every 2nd", "every 3rd" could be every other or third anything).
            let next = word(j + 1)
            let bare = of == 0 && day == 0 && (o == 1 || o >= 4) && Int(word(j).prefix(1)) != nil && ReminderLexicon.unitWords[next] == nil
                && !ReminderLexicon.minuteWords.contains(next) && next != "of" && next != "and"
            if of > 0 || bare, let d = nextDayOfMonth(o) {
                setDate(d, j, 1)
                dayOfMonthSaid = o
                setRule(Recurrence(kind: .custom, interval: 1, unit: .month), i, j + 1 + day + of - i)
                i = j + 1 + day + of
                return true
            }
        }
        if readEveryMinutes(n, at: j) || readEveryUnit(n, counted: counted, at: j)
            || (!counted && readEveryNamedDay(at: j)) || (!counted && readOrdinalWeekdayList(at: j))
            || (!counted && readEveryOrdinalWeekday(at: j)) || (!counted && readEveryNamedHoliday(at: j))
            || readEveryDayList(n, counted: counted, at: j) {
            return true
        }
        i += 1  // "every" something we do not know: left in the title, it is a warning
        return true
    }

    /// "every N minutes", with the unit at `j`: whole hours ("every 120
    /// minutes") are an hourly rule, anything else is a warning that says
    /// what to write instead.
    mutating func readEveryMinutes(_ n: Int, at j: Int) -> Bool {
        guard ReminderLexicon.minuteWords.contains(word(j)) else { return false }
        return everyMinutes(n, unitAt: j)
    }

    /// The rule of "every N minutes" whose unit is at `j`.
    mutating func everyMinutes(_ n: Int, unitAt j: Int) -> Bool {
        if n % 60 == 0 {
            var r = Recurrence(kind: .custom, interval: n / 60, unit: .hour)
            let len = j + 1 - i + hourRangeOfRule(&r, at: j + 1)
            setRule(r, i, len)
            i += len
        } else if let (a, b, len) = hourRange(at: j + 1), (1...1439).contains(n), timeWritten == nil, untilTime == nil,
                  (j + 2..<j + 1 + len).contains(where: { ["until", "till", "til", "'til"].contains(word($0)) }) {
            // "every 30 min from 2pm until 5pm": from that time until that time, on its day (said); "from 9 to 5",
            // a window every day, is not a rule yomo has in minutes (refused below).
            var r = RRule(freq: .minutely)
            r.interval = n
            setRule(Self.rfcRule(r), i, j + 1 - i)
            setTime(a, j + 1, len)
            untilTime = (b, phrase(j + 1, len))
            assumptions.append("'\(phrase(i, j + 1 + len - i))' read as on one day; a window every day is whole hours ('every hour from 9 to 5')")
            i = j + 1 + len
        } else if hourRange(at: j + 1) != nil || !(1...1439).contains(n) {
            warnings.append("'\(phrase(i, j + 1 - i))': yomo repeats every 1 to 1439 minutes, and in a range of hours only in whole hours; try 'every \(max(1, (n + 30) / 60)) hours'")
            _ = consume(j + 1 - i)
            if let (_, _, len) = hourRange(at: i) { _ = consume(len) }
        } else {
            var r = RRule(freq: .minutely)
            r.interval = n
            setRule(Self.rfcRule(r), i, j + 1 - i)
            i = j + 1
        }
        return true
    }

    /// "every 2 hours (from 9 to 5)", "every day", "every 2 weeks on
    /// tuesday", "every month on the last friday", "every year on dec 24",
    /// with the unit at `j`.
    mutating func readEveryUnit(_ n: Int, counted: Bool, at j: Int) -> Bool {
        guard let unit = ReminderLexicon.unitWords[word(j)] else { return false }
        var r: Recurrence
        var end = j + 1
        switch unit {
        case .hour:
            // "tractor oil change every 250 hrs": hours of use, which yomo cannot count, more likely than clock hours.
            if n > 72 {
                if conflict == nil {
                    conflict = "'\(phrase(i, j + 1 - i))' is more than three days of clock hours: for hours of use (an engine's, a filter's) yomo cannot count them; for clock time say days, as 'every \(max(4, (n + 12) / 24)) days'"
                }
                return consume(j + 1 - i)
            }
            r = Recurrence(kind: .custom, interval: n, unit: .hour)
            end += hourRangeOfRule(&r, at: end)
        case .day:
            r = n == 1 ? Recurrence(kind: .daily) : Recurrence(kind: .custom, interval: n, unit: .day)
        case .week:
            var days: [Int] = []
            if word(end) == "on", let (ds, len) = dayList(at: end + 1) {
                days = ds
                end += 1 + len
            }
            r = (n == 1 && days.count <= 1 && !counted)
                ? Recurrence(kind: .weekly, days: days)
                : Recurrence(kind: .custom, interval: n, unit: .week, days: days)
        case .month:
            r = Recurrence(kind: .custom, interval: n, unit: .month)
            end = readMonthAnchor(&r, at: end)
        case .year:
            r = Recurrence(kind: .custom, interval: n, unit: .year)
            var k = end
            if word(k) == "on" { k += 1 }
            if let (d, len) = datePhrase(at: k) {
                setDate(d, k, len)
                end = k + len
            }
        }
        setRule(r, i, end - i)
        i = end
        return true
    }

    /// What follows "every N months" at `end`: "on the 2nd tuesday" goes
    /// into the rule; "on the 15th" is the date the rule starts from, whose
    /// day of the month it keeps. Returns where the rule's words end.
    mutating func readMonthAnchor(_ r: inout Recurrence, at end: Int) -> Int {
        var k = end
        if word(k) == "on" { k += 1 }
        if word(k) == "the" { k += 1 }
        if let (o, wd, len) = ordinalWeekday(at: k) {
            r.monthOrdinal = o
            r.monthWeekday = wd
            return k + len
        }
        if k > end || Int(word(k).prefix(1)) != nil, let o = ReminderLexicon.ordinal(word(k)), o >= 1, let d = nextDayOfMonth(o) {
            setDate(d, k, 1)
            dayOfMonthSaid = o
            return k + 1
        }
        if k > end, word(k) == "last", word(k + 1) == "day" {
            var rr = RRule(freq: .monthly)
            rr.interval = r.interval
            rr.byMonthDay = [-1]
            r = Self.rfcRule(rr)
            return k + 2
        }
        return end
    }

    /// "every christmas", "every thanksgiving": a yearly rule from the next
    /// one. A day counted from Easter moves in a way no yearly rule follows:
    /// a warning.
    mutating func readEveryNamedHoliday(at j: Int) -> Bool {
        guard let (d, len, note) = namedDay(at: j) else { return false }
        let entry = Self.namedDays.first { e in e.names.contains { n in
            n.split(separator: " ").enumerated().allSatisfy { Self.plain(word(j + $0.offset)) == Self.plain(String($0.element)) } } }
        var r = Recurrence(kind: .custom, interval: 1, unit: .year)
        switch (uk ? entry?.uk : nil) ?? entry?.rule {
        case .easter?, .afterNth?:
            warnings.append("could not place '\(phrase(i, j + len - i))' as a rule: it moves each year in a way no yearly rule follows; add each year's on its own")
            return consume(j + len - i)
        case .nth(_, let o, let wd)?:
            r.monthOrdinal = o
            r.monthWeekday = wd
        default: break
        }
        assumptions.append(note)
        setDate(d, j, len)
        setRule(r, i, j + len - i)
        i = j + len
        return true
    }

    /// "every weekday", "every weekend", "every morning" (daily, in the morning).
    mutating func readEveryNamedDay(at j: Int) -> Bool {
        let w = word(j)
        let r: Recurrence
        if w == "weekday" || w == "weekdays" {
            r = Recurrence(kind: .weekly, days: [1, 2, 3, 4, 5])
        } else if w == "weekend" || w == "weekends" {
            r = Recurrence(kind: .weekly, days: [6, 0])
        } else if ReminderLexicon.partsOfDay.contains(w) {
            partOfDay = w
            r = Recurrence(kind: .daily)
        } else {
            return false
        }
        setRule(r, i, j + 1 - i)
        i = j + 1
        return true
    }

    /// "every 3rd wednesday (of the month)", "every last friday": monthly on
    /// that weekday. "every second tuesday" is said to be read so, since it
    /// could mean every other week.
    mutating func readEveryOrdinalWeekday(at j: Int) -> Bool {
        guard let (o, wd, len) = ordinalWeekday(at: j) else { return false }
        let extra = ofMonth(at: j + len)
        if extra == 0 && o == 2 {
            assumptions.append("'every \(word(j)) \(word(j + 1))' read as the 2nd \(Weekdays.display(wd)) of each month (say 'every other \(word(j + 1))' for every two weeks)")
        }
        setRule(Recurrence(kind: .custom, interval: 1, unit: .month, monthOrdinal: o, monthWeekday: wd), i, j + len + extra - i)
        i = j + len + extra
        return true
    }

    /// "every monday", "every mon, wed and fri", "every other tuesday",
    /// "every monday and every friday" (one rule, both days).
    mutating func readEveryDayList(_ n: Int, counted: Bool, at j: Int) -> Bool {
        guard let (days, len) = dayList(at: j) else { return false }
        var r = counted ? Recurrence(kind: .custom, interval: n, unit: .week, days: days) : Recurrence(kind: .weekly, days: days)
        var end = j + len
        while (word(end) == "and" || word(end) == "&") && word(end + 1) == "every" && !counted, let (more, l2) = dayList(at: end + 2) {
            r = Recurrence(kind: .weekly, days: r.days + more)
            end += 2 + l2
        }
        setRule(r, i, end - i)
        i = end
        return true
    }

    /// Things a rule word names, not a rule: "hourly rate", "Daily Mail renewal", "the Daily Show".
    /// Words before a rule word that make it a paper's name ("Farmers Weekly",
    /// "Investor's Business Daily"): kept in the title.
    static let namesBeforeRuleWords: [String: Set<String>] = [
        "weekly": ["farmers", "farmer's", "publishers", "publishers'", "entertainment", "investors", "computer", "marketing", "economic", "business", "sporting"],
        "daily": ["investors", "investor's", "business", "racing", "jewish", "yale", "harvard", "stanford"],
        "monthly": ["atlantic", "washington", "business", "the"],
    ]

    static let namesWithRuleWords: [String: Set<String>] = [
        "hourly": ["rate", "rates", "wage", "wages", "pay", "worker", "workers", "staff"],
        "daily": ["mail", "show", "telegraph", "express", "star", "record", "beast", "wire", "planet", "bugle", "caller"],
        "weekly": ["world"],
    ]

    /// "daily", "weekly", "biweekly", "quarterly"…: a rule in one word. After
    /// a weekly rule with days ("every friday, biweekly") a two-week word
    /// keeps the days; the same rule said twice is one rule.
    mutating func readRuleWord() -> Bool {
        let w = word(i)
        if w == "bimonthly" {
            assumptions.append("'bimonthly' read as every 2 months")
            setRule(Recurrence(kind: .custom, interval: 2, unit: .month), i, 1)
            i += 1
            return true
        }
        guard var r = ReminderLexicon.ruleWords[w], !ruleWordInName(at: i), Self.namesWithRuleWords[w]?.contains(word(i + 1)) != true else { return false }
        // "send the quarterly estimate": a rule word may name the thing; the reading is said.
        if i > 0, !used[i - 1], ["the", "my", "our", "your", "his", "her", "their", "a", "an"].contains(word(i - 1)), Self.titleWord(word(i + 1)) {
            assumptions.append("'\(word(i - 1)) \(w) \(word(i + 1))' read as a rule, \(w); if it only names the thing, add --literal and give --date")
        }
        // "read farmers weekly", "the investors daily": a paper's name, not a rule.
        if i > 0, !used[i - 1], Self.namesBeforeRuleWords[w]?.contains(word(i - 1)) == true { return false }
        if w == "nightly" { partOfDay = "night" }
        if w == "biweekly" { assumptions.append("'biweekly' read as every 2 weeks") }
        if rule.repeats && rule.unit == .week && r.unit == .week && r.interval == 2 && !rule.days.isEmpty {
            r.days = rule.days
            r.kind = .custom
            rule = r
            return consume(1)
        }
        if rule.repeats && rule.effective == r.effective { return consume(1) }
        let first = !rule.repeats
        setRule(r, i, 1)
        ruleFromWord = first
        i += 1
        return true
    }

    /// "once a day", "once per week", "once a year"; the "once" of "once
    /// every 3 days" and "once daily" (the "every" or rule word is read next).
    mutating func readOnce() -> Bool {
        guard word(i) == "once" else { return false }
        if word(i + 1) == "a" || word(i + 1) == "per", let u = ReminderLexicon.unitWords[word(i + 2)], u != .hour {
            let r: Recurrence = u == .day ? Recurrence(kind: .daily)
                : u == .week ? Recurrence(kind: .weekly) : Recurrence(kind: .custom, interval: 1, unit: u)
            setRule(r, i, 3)
            i += 3
            return true
        }
        // "once daily", "once weekly": the word's rule is read next.
        if word(i + 1) == "every" || ["daily", "weekly", "monthly", "yearly", "annually", "nightly"].contains(word(i + 1)) { return consume(1) }
        return false
    }

    /// "weekdays", "on weekends": a weekly rule on those days, or the days of
    /// an hourly rule already read.
    /// "alternate days", "on alternate mondays": every other one.
    mutating func readAlternate() -> Bool {
        let k = word(i) == "on" ? i + 1 : i
        guard word(k) == "alternate" else { return false }
        if let u = ReminderLexicon.unitWords[word(k + 1)], u != .hour, word(k + 1).hasSuffix("s") {
            setRule(Recurrence(kind: .custom, interval: 2, unit: u), i, k + 2 - i)
        } else if word(k + 1).hasSuffix("s"), let wd = ReminderLexicon.weekday(word(k + 1)) {
            setRule(Recurrence(kind: .custom, interval: 2, unit: .week, days: [wd]), i, k + 2 - i)
        } else {
            return false
        }
        i = k + 2
        return true
    }

    mutating func readWeekdaysOrWeekends() -> Bool {
        let on = word(i) == "on"
        let w = on ? word(i + 1) : word(i)
        // ("in 2 weekdays" is a count of days, not a rule.)
        guard w == "weekdays" || w == "weekends" || w == "weeknights", on || (ReminderLexicon.number(word(i - 1)) == nil && Int(word(i - 1)) == nil)
        else { return false }
        let days = w == "weekends" ? [6, 0] : [1, 2, 3, 4, 5]
        if w == "weeknights" {
            if ReminderLexicon.partsOfDay.contains(word(i + (on ? 2 : 1))) { return false }  // "weeknights morning": refused
            if partOfDay == nil { partOfDay = "night" }
            assumptions.append("'weeknights' read as Monday to Friday")
        }
        let len = on ? 2 : 1
        if rule.repeats && rule.unit == .hour {
            rule.days = days
            return consume(len)
        }
        setRule(Recurrence(kind: .weekly, days: days), i, len)
        i += len
        return true
    }

    /// "mornings", "on evenings", "in the afternoons": every day, at that
    /// part of it. After a weekday just read as a date, with no rule yet
    /// ("monday mornings", "on tuesday evenings"), every week on that day
    /// instead, and the date is dropped: "every monday morning".
    mutating func readPluralPartOfDay() -> Bool {
        let w = word(i)
        guard ["mornings", "evenings", "nights", "afternoons"].contains(w), !["these", "those"].contains(word(i - 1)),
              ReminderLexicon.number(word(i - 1)) == nil else { return false }  // "3 nights": counted
        partOfDay = String(w.dropLast())
        let before = word(i - 1)
        if !rule.repeats, i > 0, used[i - 1], let wd = ReminderLexicon.weekday(before), dateSaid == before || dateSaid == "on " + before {
            date = nil
            dateSaid = nil
            setRule(Recurrence(kind: .weekly, days: [wd]), i - 1, 2)
            i += 1
            return true
        }
        // "monday and wednesday mornings": the weekly rule just read, in the mornings.
        if rule.repeats && rule.effective.unit == .week && i > 0 && used[i - 1] { return consume(1) }
        // "weekend mornings", "weekday evenings"
        if ["weekend", "weekends", "weekday", "weekdays"].contains(before) && i > 0 && !used[i - 1] {
            setRule(Recurrence(kind: .weekly, days: before.hasPrefix("weekend") ? [6, 0] : [1, 2, 3, 4, 5]), i - 1, 2)
            i += 1
            return true
        }
        // "tomorrow mornings", "next monday mornings": one day, or every week? Not a guess.
        if !rule.repeats && date != nil && i > 0 && used[i - 1] {
            warnings.append("could not place '\(dateSaid ?? before) \(w)': one \(partOfDay!), or every week? say 'every monday morning' or 'tomorrow morning'")
            return consume(1)
        }
        var from = ["on", "in", "the"].contains(before) ? i - 1 : i
        if before == "the" && ["in", "on"].contains(word(i - 2)) && i > 1 && !used[i - 2] { from = i - 2 }
        setRule(Recurrence(kind: .daily), from, i + 1 - from)
        i += 1
        return true
    }

    /// "(on) the 2nd tuesday of the month", "last friday of every month",
    /// "3rd wednesday monthly": a monthly rule. "the 2nd tuesday" alone is
    /// that day, once; a last weekday alone is not read ("last friday" is
    /// more often the one gone by). "monthly on the last friday": the
    /// monthly rule's day.
    mutating func readOrdinalWeekday() -> Bool {
        var k = i
        if word(k) == "on" { k += 1 }
        if word(k) == "the" { k += 1 }
        // "the first sunday of advent": a named day, read as one.
        if namedDay(at: k) != nil { return false }
        if let (o, wd, len) = ordinalWeekday(at: k) {
            // "the first tuesday of next month"
            if word(k + len) == "of" && word(k + len + 1) == "next" && word(k + len + 2) == "month" {
                let idx = today.year * 12 + today.month
                guard let d = Recurrence.nthWeekday(year: idx / 12, month: idx % 12 + 1, ordinal: o, weekday: wd) else { return false }
                setDate(d, i, k + len + 3 - i)
                i = k + len + 3
                return true
            }
            let extra = ofMonth(at: k + len)
            if extra > 0 {
                setRule(Recurrence(kind: .custom, interval: 1, unit: .month, monthOrdinal: o, monthWeekday: wd), i, k + len + extra - i)
                i = k + len + extra
                return true
            }
            // "monthly review on the 2nd friday": the monthly rule's day.
            if rule.repeats && rule.unit == .month && rule.kind == .custom && rule.monthOrdinal == nil {
                rule.monthOrdinal = o
                rule.monthWeekday = wd
                return consume(k + len - i)
            }
            if o >= 1, let d = Recurrence.nextNthWeekday(ordinal: o, weekday: wd, from: today) {
                assumptions.append("'\(phrase(k, len))' read as \(d), once")
                setDate(d, i, k + len - i)
                i = k + len
                return true
            }
        }
        if rule.repeats && rule.unit == .month && rule.monthOrdinal == nil, word(i) == "on", word(i + 1) == "the",
           let (o, wd, len) = ordinalWeekday(at: i + 2) {
            rule.monthOrdinal = o
            rule.monthWeekday = wd
            return consume(2 + len)
        }
        return false
    }

    /// A weekday's place in its month at `k`: "2nd tuesday", "last fri".
    /// (ordinal, weekday, tokens)
    func ordinalWeekday(at k: Int) -> (Int, Int, Int)? {
        guard let o = ReminderLexicon.ordinal(word(k)), o <= 5, let wd = ReminderLexicon.weekday(word(k + 1)) else { return nil }
        return (o, wd, 2)
    }

    /// The length of "of the month", "of every month", "of month" or
    /// "monthly" at `k`, or 0.
    func ofMonth(at k: Int) -> Int {
        if word(k) == "of" && ["the", "every", "each", "a"].contains(word(k + 1)) && word(k + 2) == "month" { return 3 }
        if word(k) == "of" && word(k + 1) == "month" { return 2 }
        if word(k) == "monthly" { return 1 }
        if (word(k) == "each" || word(k) == "every") && word(k + 1) == "month" { return 2 }
        return 0
    }
}
