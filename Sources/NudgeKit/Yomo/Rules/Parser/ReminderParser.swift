// yomo's built-in natural-language parser: deterministic and offline. It
// fills the reminder form (title, date, time, recurrence) from a sentence.
// This file holds the result, the driver that runs the phrase readers over
// the tokens, and the last step that turns the parse state into the result.
//
// It is never silently wrong:
// - where English is ambiguous it picks one reading and says so in
//   `assumptions` ("at 3" and "at 3:15" alike: a clock time without am/pm
//   is 07:00-11:59 for 7-11, 12:00-12:59 for 12, and afternoon for 1-6,
//   unless "morning", "evening", "night" or a leading zero settles it);
// - a recurrence word it cannot place ("every blue moon", "twice a week")
//   is a `warning`, never a one-off;
// - two rules in one sentence ("every Tuesday at 3pm and Thursday at 5pm")
//   set `conflict`, with a hint: one reminder holds one rule.
// "in N minutes/hours" is elapsed time: `exact` holds the instant, so it is
// right in a repeated fall-back hour too.
//
// The readers are tried in a fixed order at each unread token, and the first
// that recognises its phrase wins: the order is part of the grammar (a rule's
// words are claimed before a date's, "tomorrow morning" before "tomorrow").

public struct ParsedReminder: Equatable, Sendable {
    public var title: String
    public var date: Day?
    public var time: TimeOfDay?
    public var recurrence: Recurrence
    public var assumptions: [String]
    /// Recurrence words it could not place: `add` refuses unless told.
    public var warnings: [String] = []
    /// Two rules in one sentence: why, and what to do instead.
    public var conflict: String? = nil
    /// A relative time ("in 20 minutes"): the exact instant.
    public var exact: Instant? = nil
    /// Words that carry a time or date but were not read (also among
    /// `warnings`): `add` refuses them unless --date or --time say when.
    public var unread: [String] = []
    /// "#groceries": the list it belongs to, as Todoist's quick add says it.
    public var list: String? = nil
    /// Days the rule skips ("not on dec 23"): their occurrences are cancelled.
    public var skips: [Day] = []
    /// The assumption saying a rule with no day said counts from today
    /// (one of `assumptions`): `Yomo.form` drops it where a day was given
    /// or where the first falls is said otherwise.
    public var countedFromToday: String? = nil

    public init(title: String, date: Day?, time: TimeOfDay?, recurrence: Recurrence, assumptions: [String],
                warnings: [String] = [], conflict: String? = nil, exact: Instant? = nil) {
        self.title = title
        self.date = date
        self.time = time
        self.recurrence = recurrence
        self.assumptions = assumptions
        self.warnings = warnings
        self.conflict = conflict
        self.exact = exact
    }

    /// The form as JSON, in the fields the model command is asked for (title,
    /// date, time, recurrence_type, recurrence_rule), plus `assumptions`,
    /// `warnings` and `conflict`.
    public var record: JSONObject {
        var o: JSONObject = ["title": .string(title), "date": JSON(date?.description), "time": JSON(time?.description),
                             "recurrence_type": .string(recurrence.kind.rawValue), "recurrence_rule": recurrence.ruleJSON,
                             "assumptions": JSON(assumptions)]
        if !warnings.isEmpty { o["warnings"] = JSON(warnings) }
        if let l = list { o["list"] = .string(l) }
        if !skips.isEmpty { o["skip"] = JSON(skips.map(\.description)) }
        if let c = conflict { o["conflict"] = .string(c) }
        return o
    }
}

public enum ReminderParser {
    /// Words before a reminder that only say it is one.
    static let leadIns: [[String]] = [["don't", "forget", "to"], ["dont", "forget", "to"], ["do", "not", "forget", "to"], ["remember", "to"],
                                      ["please", "remind", "me", "to"], ["pls", "remind", "me", "to"], ["plz", "remind", "me", "to"],
                                      ["please", "remind", "me"], ["pls", "remind", "me"], ["don't", "forget"], ["dont", "forget"],
                                      ["kindly", "remind", "me", "to"], ["kindly", "remind", "me"], ["pls", "remember", "to"], ["please", "remember", "to"]]

    public static func parse(_ text: String, now: Instant, zone: Zone) -> ParsedReminder {
        var state = ParseState(text: text, now: now, today: zone.day(of: now), zoneName: zone.name)
        // "remind me to …"
        var remindMe = state.word(0) == "remind" && state.word(1) == "me"
        // "remnd me to", "reminde me", "rmind me": a slip of "remind" before "me" is the same lead-in, said.
        var slip: String? = nil
        let w0 = state.word(0)
        if !remindMe, state.word(1) == "me", w0.hasPrefix("re") || w0.hasPrefix("rm"), w0.contains("m"), (4...8).contains(w0.count),
           ReminderParser.ParseState.editDistance(Array(w0), Array("remind")) <= 2,
           !["remain", "remains", "remand", "remix", "remit", "remake", "remap", "remodel", "rewind", "remi", "remy", "remo", "remedy", "rename",
             "remise", "remind"].contains(w0) {
            remindMe = true
            slip = w0
        }
        if remindMe {
            _ = state.consume(state.word(2) == "to" ? 3 : 2)
            if let w = slip { state.assumptions.append("'\(w) me' read as 'remind me'") }
        }
        // "Don't forget to buy lemons", "remember to call Jo", "please remind me to …": the same lead-in.
        else if let lead = leadIns.first(where: { l in l.enumerated().allSatisfy { state.word($0.offset) == $0.element } }), state.tokens.count > lead.count,
                state.word(lead.count) != "do" || state.word(lead.count + 1) != "list" {  // "remember to do list": a to-do list
            remindMe = lead.contains("remind")
            _ = state.consume(lead.count)
        }
        // "reminder: mulch the roses", "todo: call jo": a label before a colon.
        if !remindMe, ["reminder", "reminders", "todo", "to-do", "task", "note", "remember"].contains(state.word(0)), state.tokens.first?.commaAfter == true,
           state.tokens.first?.raw.hasSuffix(":") == true, state.tokens.count > 1 {
            _ = state.consume(1)
        }
        // "In six weeks, remind me to ask Sam": the same after a lead phrase and its comma.
        if !remindMe, let c = state.tokens.firstIndex(where: \.commaAfter), c < 5, state.word(c + 1) == "remind", state.word(c + 2) == "me" {
            remindMe = true
            state.take(c + 1, state.word(c + 3) == "to" ? 3 : 2)
        }
        while state.i < state.tokens.count {
            if state.used[state.i] { state.i += 1; continue }
            if !state.readPhrase() { state.i += 1 }  // a word of the title
        }
        var p = state.result(zone: zone)
        // "remind me in 25 mins to turn the oven off": the "to" went with "remind me".
        if remindMe, p.title.lowercased().hasPrefix("to "), p.title.count > 3 { p.title = String(p.title.dropFirst(3)) }
        return p
    }
}

extension ReminderParser.ParseState {
    typealias Reader = @Sendable (inout Self) -> Bool

    /// The phrase readers, in the order they are tried.
    static let readers: [Reader] = [
        // Rules, and what bends them.
        { $0.readWorkdayOfMonth() },       // "the last weekday of every month"
        { $0.readLastDayOfMonth() },       // "the last day of every month", "the last day of the month"
        { $0.readEvery() },                // "every 2 weeks on tuesday", "each morning"
        { $0.readRuleWord() },             // "daily", "biweekly", "bimonthly"
        { $0.readOnce() },                 // "once a week"
        { $0.readTimesADay() },            // "twice daily"
        { $0.readWeekdaysOrWeekends() },   // "on weekdays"
        { $0.readAlternate() },            // "alternate days"
        { $0.readPluralPartOfDay() },      // "mornings"
        { $0.readSkipOrEnd() },            // "not on dec 23", "except christmas", "last session dec 16"
        { $0.readExcept() },               // "except fridays"
        { $0.readDateSpanEnd() },          // the "- jan 2" of "dec 23 - jan 2"
        { $0.readGluedDateSpan() },        // "12/20-12/27", "dec 1-5"
        { $0.readUntil() },                // "until dec 24"
        { $0.readRestOf() },               // "for the rest of the year"
        { $0.readCount() },                // "10 times"
        { $0.readForDuration() },          // "for 3 weeks"
        { $0.readOrdinalWeekdayList(at: $0.i) }, // "on the 1st and 3rd monday"
        { $0.readMonthDayList() },         // "on the 5th and 20th each month"
        { $0.readOrdinalWeekdayInMonths() }, // "the 2nd tuesday of feb, may, aug and nov"
        { $0.readOrdinalWeekday() },       // "the 2nd tuesday of the month"
        { $0.readLoneLastWeekday() },      // "last friday": a warning
        { $0.readAfterCompletion() },      // "after I finish it"
        // Times of day.
        { $0.readIn() },                   // "in 20 minutes", "in 3 days", "in the evening"
        { $0.readInMonth() },              // "in december"
        { $0.readPartOfMonth() },          // "early march", "the end of march"
        { $0.readEndOfDay() },             // "eod", "close of business"
        { $0.readFirstThing() },           // "first thing monday"
        { $0.readSpokenTime() },           // "half past 8", "quarter to 4"
        { $0.readBareSpan() },             // "2 - 4pm", "1900 to 0700": its start
        { $0.readAboutTime() },            // "around 3pm"
        { $0.readAtNight() },              // "at night"
        { $0.readClockTime() },            // "at 3pm"
        { $0.readBareTime() },             // "14:30", "noon"
        { $0.readGluedSpan() },            // "2-4pm"
        { $0.readThreeDigitTime() },       // "wed 730"
        { $0.readBareHourSpan() },         // "every thurs 3-5"
        { $0.readOwnZoneTime() },          // "8am my time"
        { $0.readRuleHours() },            // "from 9 to 5" after an hourly rule
        { $0.readFromSpan() },             // "from 2 to 3pm" with no hourly rule: its start
        { $0.readPartOfDayOfDate() },      // "the evening of the 5th"
        { $0.readPartOfDay() },            // "tomorrow morning", "monday evening"
        { $0.readAndPartOfDay() },         // the "and evening" of "every morning and evening"
        // Dates.
        { $0.readBetweenDays() },          // "sometime between mon and wed": its start
        { $0.readSometime() },             // "sometime next week"
        { $0.readWeekOf() },               // "the week of dec 7"
        { $0.readNextOne() },              // the "next one" of "every 4 weeks next one 12/9"
        { $0.readFromDay() },              // "a week from today", "two weeks from tomorrow"
        { $0.readWeekdayInWeeks() },       // "tuesday after next", "monday week", "thursday next week"
        { $0.readStarting() },             // the "starting" of "every 3 days starting monday"
        { $0.readDaysFromDay() },          // "the day before valentine's day", "2 days after dec 3"
        { $0.readNamedHoliday() },         // "on thanksgiving", "christmas eve"
        { $0.readDayAfter() },             // "day after" (the day after tomorrow)
        { $0.readNamedDay() },             // "today", "tonight", "tomorrow"
        { $0.readByDay() },                // the "by" of "by friday"
        { $0.readWeekend() },              // "this weekend"
        { $0.readNextPeriod() },           // "next month"
        { $0.readQuarterOrYearEdge() },    // "end of quarter", "eoy"
        { $0.readEndOfMonth() },           // "end of the month"
        { $0.readWeekdayPhrase() },        // "on mondays", "next friday"
        { $0.readDate() },                 // "dec 24", "2026-12-24", "12/05"
        { $0.readDayOfMonth() },           // "on the 15th"
        { $0.readBareOrdinalDay() },       // "friday 11th", "17th at 7"
    ]

    /// Reads the phrase at `i` with the first reader that recognises one.
    mutating func readPhrase() -> Bool {
        if inMediaTitle(i) || quoted[i] { return false }  // "watch Tomorrow Never Dies", 'return "Friday Night Lights"'
        // "meet at 7 oak st": 7 o'clock, or number 7? Refused, naming both.
        let ta = timeOrAddress(at: i) ? i : (["at", "@", "on", "to"].contains(word(i)) && timeOrAddress(at: i + 1)) ? i + 1 : nil
        if let k = ta {
            if conflict == nil {
                conflict = "'\(phrase(k, 3))' may be a time or an address: for the time say '\(word(k))pm' or '\(word(k))am', for the address write the street with capitals"
            }
            return consume(k + 3 - i)
        }
        // "check furnace filter at 22 elm": 22:00, or number 22? Refused, naming both.
        if ["at", "@"].contains(word(i)), hourOrHouse(at: i + 1) {
            if conflict == nil {
                conflict = "'\(phrase(i, 3))' may be a time or an address: for the time say '\(word(i + 1)):00', for the address write the street with capitals"
            }
            return consume(3)
        }
        // "deliver to 5 May Street", "party at 18 April Lane": an address.
        if address(at: i) || (["at", "@", "on", "to"].contains(word(i)) && address(at: i + 1)) {
            i += address(at: i) ? 2 : 1
            return true
        }
        for read in Self.readers where read(&self) { return true }
        return false
    }

    /// The result, once every token is read: the time of day and the rule's
    /// hours settled, exclusions and ends applied to the rule, a relative
    /// time placed, and the unread words made into the title (a recurrence
    /// word among them is a warning).
    mutating func result(zone: Zone) -> ParsedReminder {
        settlePendingNamedDay()
        var time = moreTimes.isEmpty ? settledTime() : nil
        settleNextClock(&time, zone: zone)
        settleRuleHours()
        applyExceptions()
        settleForDuration(time: time, zone: zone)
        settleUntilTime(time: &time, zone: zone)
        settleHoursOfOneDay()
        settleYearlyOrdinal()
        applyEnds()
        if !moreTimes.isEmpty {
            settleMoreTimes(&time)
            if timeWritten != nil { time = settledTime() }  // not a rule of several times: the first time, and the conflict
        }
        settleTimesADayStart(&time)
        settleRFC()
        // "tomorrow night at 2", "friday night at 12:30": after midnight is the next day's early hours.
        if partOfDay == "night", let t = time, t.hour < 5, let d = date, !rule.repeats, timeWritten?.time.text != "midnight" {
            date = d.adding(days: 1)
            assumptions.append("'\(dateSaid ?? "") night at \(t)' read as \(Weekdays.display(d.adding(days: 1).weekday)) \(d.adding(days: 1)) \(t)")
        }
        // "friday midnight", "by midnight friday": the end of that day, said so.
        if let (w, _) = timeWritten, w.text == "midnight", let d = date, !rule.repeats {
            date = d.adding(days: 1)
            assumptions.append("'midnight' with \(dateSaid ?? "a day") read as its end: \(Weekdays.display(d.adding(days: 1).weekday)) \(d.adding(days: 1)) 00:00")
        }
        // "dinner at TGI Fridays tomorrow": a weekly rule's days and a date on another day, with no "starting" to
        // make the date the rule's first, are two readings of one sentence; refused, never one of them guessed.
        if rule.unit == .week || rule.kind == .weekly, !rule.days.isEmpty, let d = date, !rule.days.contains(d.weekday), !startingSaid,
           relative == nil, conflict == nil {
            conflict = "'\(ruleSaid ?? "")' repeats on \(rule.days.map(Weekdays.display).joined(separator: ",")) but '\(dateSaid ?? "")' is a \(Weekdays.display(d.weekday)): "
                + "for the rule from that day say 'starting \(dateSaid ?? "")'; if the day names a thing, put the name in quotes"
        }
        // "working nights tomorrow", "evenings free tuesday": a daily rule from a plural part of the day and one day
        // said, with no "starting": a rule, or that one evening? Refused.
        if rule.kind == .daily, let said = ruleSaid, ["mornings", "evenings", "nights", "afternoons"].contains(said), let d = date, !startingSaid,
           conflict == nil {
            conflict = "'\(said)' repeats every day but '\(dateSaid ?? d.description)' is one day: for one say '\(dateSaid ?? "") \(said.dropLast())'; "
                + "for the rule say 'every \(said.dropLast()) from \(dateSaid ?? "")'"
        }
        // "cancel monthly gym membership tomorrow", "Monthly Review with boss friday": a rule word before a word of
        // the title, with one day said, may only name the thing; the reading is said.
        // So is a plural day that alone said the rule ("sort out weekends rota tomorrow", "plan Evenings menu on monday").
        // Not when the rule is said in full too ("fortnightly payroll on friday", "repeat daily standup").
        let pluralRule = rule.repeats && ruleSaid.map { ReminderLexicon.recurrenceWords.contains($0) && !$0.contains(" ") && $0.hasSuffix("s") } == true
        let wordRule = ruleFromWord && rule.days.isEmpty && rule.monthOrdinal == nil
            && !tokens.contains { ["every", "each", "repeat", "repeats", "repeating", "recurring"].contains($0.word) }
        if wordRule || pluralRule,
           let k = tokens.indices.first(where: { used[$0] && (ReminderLexicon.ruleWords[tokens[$0].word] != nil || (pluralRule && tokens[$0].word == ruleSaid)) }),
           k + 1 < tokens.count, !used[k + 1], Self.titleWord(tokens[k + 1].word), ReminderLexicon.partsOfDay.contains(tokens[k + 1].word) == false,
           !assumptions.contains(where: { $0.contains("\(tokens[k].word) \(tokens[k + 1].word)' read as") }) {
            assumptions.append("'\(tokens[k].word) \(tokens[k + 1].word)' read as a rule, \(rule.summary); if it only names the thing, add --literal and give --date")
        }
        // "every day in december": a rule kept to a month, which yomo does not keep; a first day alone would run on.
        if let (said, m) = monthSaid, rule.repeats, conflict == nil {
            let mon = ReminderLexicon.months[m - 1].prefix(3), last = Day.daysInMonth(year: today.year + 1, month: m)
            conflict = "'\(said)' with a rule: say its first and last day, as 'every day from \(mon) 1 until \(mon) \(last)'"
        }
        // "every morning at 7 and every evening at 7": two rules' times in one sentence; one reminder holds one.
        let everyParts = Set(tokens.indices.filter { used[$0] && ["every", "each"].contains(tokens[$0].word) && $0 + 1 < tokens.count
                                                     && ReminderLexicon.partsOfDay.contains(tokens[$0 + 1].word) }.map { tokens[$0 + 1].word })
        if everyParts.count > 1, moreTimes.isEmpty, conflict == nil {
            conflict = "two rules in one sentence ('every \(everyParts.sorted().joined(separator: "' and 'every "))'): say 'every day at 7am and 7pm', or add them one at a time"
        }
        // "every year on Feb 29": the 28th in other years, said (as a month's 31st is its last day).
        if rule.repeats, rule.effective.unit == .year, let d = date, d.month == 2, d.day == 29 {
            assumptions.append("'feb 29' falls on Feb 28 in years without it")
        }
        // A weekly rule with a date but no days takes the day of its date.
        if rule.kind == .weekly && rule.days.isEmpty, let d = date { rule.days = [d.weekday] }
        // "every other friday": the first is the nearest Friday, and the weeks count from it.
        if rule.kind == .custom && rule.unit == .week && rule.interval > 1 && !rule.days.isEmpty && date == nil && relative == nil {
            let clock = zone.local(now)
            var d = today
            while !rule.days.contains(d.weekday) || (d == today && time.map { $0 <= clock.time } == true) { d = d.adding(days: 1) }
            date = d
        }
        // "every 3 days", "every other month", "every year": no day said, so the count starts today, and a month's
        // or a year's rule keeps today's date; said, since some mean from the next one ("refill feeders every 3 days"
        // made today may first be due in 3 days). (`Yomo.form` says where the first is when today's time has passed.)
        if (rule.kind == .custom && (rule.interval > 1 || [.month, .year].contains(rule.unit))) || rule.kind == .weekly, [.day, .week, .month, .year].contains(rule.unit),
           rule.days.isEmpty, rule.monthOrdinal == nil, rule.set == nil, !rule.basedOnCompletion, date == nil, relative == nil, conflict == nil {
            let on = rule.unit == .week || rule.kind == .weekly ? ", on \(Day.weekdayNames[today.weekday])s" : rule.unit == .month ? ", on the \(today.day.ordinalText)" : rule.unit == .year ? ", on \(Day.monthNames[today.month - 1].prefix(3)) \(today.day)" : ""
            countedFromToday = "'\(ruleSaid ?? rule.summary)' counted from today\(on); for another start say 'starting' and the day"
            assumptions.append(countedFromToday!)
        }
        // "every 15 minutes": the first is 15 minutes from now.
        if rule.kind == .rrule, let r = rule.set?.rrules.first, r.freq == .minutely, date == nil && time == nil && relative == nil {
            relative = Instant(ms: now.ms + Int64(r.interval) * 60_000)
        }
        var exact: Instant? = nil
        if let r = relative {
            let l = zone.local(r)
            if (date != nil || timeWritten != nil) && conflict == nil {
                conflict = "a relative time and a date or time in one sentence: say one of them"
            }
            date = l.day
            time = TimeOfDay(hour: l.time.hour, minute: l.time.minute)
            exact = Instant(ms: r.ms / 60_000 * 60_000)
        }
        if rule.repeats {
            // Not a runner's "hill repeats", "mile repeats": a workout, a word of the title.
            for k in tokens.indices where !used[k] && ["repeat", "repeats", "repeating", "recurring"].contains(tokens[k].word)
                && !(k > 0 && ["hill", "hills", "mile", "sprint", "stair", "track", "interval", "tempo", "400m", "800m", "400", "800", "1k"].contains(tokens[k - 1].word)) {
                used[k] = true
            }
        }
        warnUnplacedRecurrenceWords()
        // "pay by 5 dec", "send it before noon": the "by" or "before" of a deadline read after it;
        // "due fri" too, but "rent due fri" keeps its "due" (the rent is due).
        // "pay rent in dec 5", "send it at eod": an "in" or "on" before the date read, an "at" before the time.
        for k in tokens.indices.dropLast() where !used[k] && ["by", "before", "due", "in", "on", "at", "from"].contains(tokens[k].word) && used[k + 1] && !rule.repeats
            && (tokens[k].word != "due" || k == 0 || used[k - 1])
            && (["by", "before", "due"].contains(tokens[k].word) || !["at", "on", "in", "by", "@", "the"].contains(tokens[k + 1].word))
            && ((tokens[k].word != "at" && date != nil && dateSaid?.hasPrefix(tokens[k + 1].word) == true)
                || (!["in", "on"].contains(tokens[k].word) && timeWritten?.said.hasPrefix(tokens[k + 1].word) == true))
            && (tokens[k].word != "from" || (timeWritten?.said.hasPrefix(tokens[k + 1].word) == true && !["to", "until", "till", "-"].contains(word(k + 2)))) {
            used[k] = true
            remindBeforeTheDay(k)
        }
        // "every 2 hours starting at 2pm", "starting 9am": the start's word, read with it.
        for k in tokens.indices.dropLast() where !used[k] && ["starting", "beginning", "commencing"].contains(tokens[k].word) && used[k + 1]
            && (tokens[k + 1].word == "at" || tokens[k + 1].word == "@" || timeWritten?.said.hasPrefix(tokens[k + 1].word) == true) {
            used[k] = true
        }
        // "tuesday then every 10 days": the "then" between a day and its rule, read with them.
        for k in tokens.indices.dropFirst().dropLast() where !used[k] && tokens[k].word == "then" && used[k - 1] && used[k + 1] && rule.repeats
            && tokens[k + 1].word == "every" {
            used[k] = true
        }
        if exact == nil { readLeadTime(time: &time, zone: zone) }
        readZoneWord(time: &time, exact: &exact, zone: zone)
        findUnreadTimeWords()
        sayEventAfterADay()
        var seenAssumption = Set<String>()
        assumptions = assumptions.filter { seenAssumption.insert($0).inserted }
        // "#groceries": the last such word names the list, and leaves the title.
        let tag = tokens.indices.last { !used[$0] && tokens[$0].word.hasPrefix("#") && tokens[$0].word.count > 1
                                        && tokens[$0].word.dropFirst().first?.isLetter == true }
        let list = tag.flatMap { try? Yomo.listName(tokens[$0].raw) }
        // "daily standup", "monthly review": a rule word before a word of the title is also the title's.
        var shown = used.map { !$0 }
        if let k = tag, list != nil { shown[k] = false }
        for k in tokens.indices.dropLast() where used[k] && !used[k + 1] && !tokens[k].raw.isEmpty && tokens[k].raw.first?.isLetter == true
            && (ReminderLexicon.ruleWords[tokens[k].word] != nil || tokens[k].word == "bimonthly") && Self.titleWord(tokens[k + 1].word) {
            shown[k] = true
        }
        // "3/1 - Ortho appt", "Staff meeting | Tue, Dec 8 | 2 PM": separators left by the words read go too.
        var words: [String] = []
        for (t, show) in zip(tokens, shown) where show && !t.raw.isEmpty {
            if Self.separator(t.raw) && (words.isEmpty || Self.separator(words[words.count - 1])) { continue }
            words.append(t.raw)
        }
        while let last = words.last, Self.separator(last) { words.removeLast() }
        // "text the tenant at 4 pls": a word to the app, once it read a time, not the reminder's ("say please" keeps it).
        if date != nil || time != nil || rule.repeats || relative != nil, words.count > 1,
           ["pls", "plz", "please", "pls!", "plz!", "please!"].contains(words[words.count - 1].lowercased()),
           !words.contains(where: { ["say", "saying", "said", "ask", "type", "write"].contains($0.lowercased()) }) {
            words.removeLast()
        }
        var title = words.joined(separator: " ")
        while let last = title.last, ",;:-.".contains(last) { title.removeLast() }
        title = title.trimmingSpaces
        var p = ParsedReminder(title: title, date: date, time: time, recurrence: rule, assumptions: assumptions,
                               warnings: warnings + unread, conflict: conflict, exact: exact)
        p.unread = unread
        p.list = list ?? nil
        p.skips = skips
        p.countedFromToday = countedFromToday
        return p
    }

    /// "-", "|", "–", "—", "•": a word that only separates others.
    /// "ping the vendor at 8", "bins out at half 7" said at 10:00 with no
    /// day: the next 8 o'clock is tonight's, not tomorrow morning's (said).
    /// A bare hour the title's words or a part of the day settled, a day
    /// said, or a rule keeps its reading.
    mutating func settleNextClock(_ time: inout TimeOfDay?, zone: Zone) {
        guard let t = time, let (w, _) = timeWritten, !w.sure, (7...11).contains(w.hour), t.hour == w.hour, partOfDay == nil,
              date == nil, relative == nil, !rule.repeats, contextPartOfDay() == nil else { return }
        let clock = zone.local(now).time
        let pm = TimeOfDay(hour: t.hour + 12, minute: t.minute)
        guard t <= clock && pm > clock else { return }
        assumptions.removeAll { $0.hasPrefix("'\(w.text)' read as ") }
        assumptions.append("'\(w.text)' read as \(pm), the next \(w.hour) o'clock")
        time = pm
    }

    static func separator(_ w: String) -> Bool {
        !w.isEmpty && w.allSatisfy { "-|\u{2013}\u{2014}\u{2022}\u{00B7}/:".contains($0) }
    }

    /// "2:00 PM EST" where EST is the reminder's own zone's offset then:
    /// the abbreviation says nothing new and is read. Another zone's, after
    /// the time of a one-off ("fri 5pm PST", "mon 9am Berlin time"), is read
    /// as that zone's wall clock, the day too, and the reminder set at the
    /// same instant here, said. After a rule's time it is left unread, and the
    /// sentence refused: a rule keeps one zone's clock (--tz sets it).
    mutating func readZoneWord(time: inout TimeOfDay?, exact: inout Instant?, zone: Zone) {
        guard let t = time, timeWritten != nil else { return }
        let instant = zone.resolve(LocalDateTime(day: date ?? today, time: t))
        let offset = zone.offset(at: instant)
        for k in tokens.indices.dropFirst() where !used[k] && used[k - 1] {
            let raw = Self.unbracketed(tokens[k].raw)
            // The zone said: a region's or a city's ("ET", "Pacific", "Berlin time"), or an abbreviation's fixed offset.
            var named: Zone? = nil, hours: [Double] = [], len = 1
            if let region = Self.regionZones[raw] ?? Self.regionZones[tokens[k].word] {
                named = try? Zone.named(region)
                if word(k + 1) == "time" { len = 2 }
            } else if let (city, n) = cityZone(at: k) {
                named = try? Zone.named(city)
                len = n
            } else if let h = Self.zoneOffsets[raw] ?? Self.lowerCaseZoneWord(raw).flatMap({ Self.zoneOffsets[$0] }) {
                hours = h
            } else if let z = Self.ianaZone(raw) {
                named = z  // "9:30am America/Los_Angeles"
            } else { continue }
            if let z = named, z.offset(at: instant) == offset {
                for j in k..<min(tokens.count, k + len) { used[j] = true }
                continue
            }
            if named == nil && hours.contains(Double(offset) / 3600) {
                used[k] = true
                continue
            }
            // Another zone's clock: a one-off only, with one offset.
            guard !rule.repeats, exact == nil, conflict == nil, named != nil || hours.count == 1 else { continue }
            func at(_ d: Day) -> Instant {
                let l = LocalDateTime(day: d, time: t)
                if let z = named { return z.resolve(l) }
                return Instant(seconds: l.wallSeconds - Int64(hours[0] * 3600))
            }
            var there: Instant
            if let d = date {
                there = at(d)
            } else {
                // No day said: that clock's next such time.
                let thereToday = named.map { $0.day(of: now) } ?? LocalDateTime(wallSeconds: now.seconds + Int64(hours[0] * 3600)).day
                there = at(thereToday)
                if there <= now { there = at(thereToday.adding(days: 1)) }
            }
            let here = zone.local(there)
            assumptions.append("'\(timeWritten?.said ?? "") \(phrase(k, len))' read as \(Weekdays.display(here.day.weekday)) \(here.day) \(here.time.description.prefix(5)) in \(zone.name)")
            date = here.day
            time = TimeOfDay(hour: here.time.hour, minute: here.time.minute)
            exact = there
            for j in k..<min(tokens.count, k + len) { used[j] = true }
            return
        }
    }

    /// A zone's IANA name typed in a sentence ("America/Los_Angeles"): only
    /// the shape Area/Location, so that no path or POSIX rule a sentence
    /// holds is opened or read as a zone.
    static func ianaZone(_ raw: String) -> Zone? {
        let parts = raw.split(separator: "/", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), raw.count <= 40,
              parts.allSatisfy({ p in p.first?.isUppercase == true && p.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "_" || $0 == "-") } })
        else { return nil }
        return try? Zone.named(raw)
    }

    /// Cities and countries people name before "time" ("Berlin time"), as their zones.
    static let cityZones: [String: String] = [
        "london": "Europe/London", "uk": "Europe/London", "british": "Europe/London", "england": "Europe/London", "scotland": "Europe/London",
        "dublin": "Europe/Dublin", "irish": "Europe/Dublin", "ireland": "Europe/Dublin", "lisbon": "Europe/Lisbon", "portugal": "Europe/Lisbon",
        "berlin": "Europe/Berlin", "germany": "Europe/Berlin", "german": "Europe/Berlin", "paris": "Europe/Paris", "france": "Europe/Paris",
        "french": "Europe/Paris", "madrid": "Europe/Madrid", "spain": "Europe/Madrid", "rome": "Europe/Rome", "italy": "Europe/Rome",
        "amsterdam": "Europe/Amsterdam", "brussels": "Europe/Brussels", "vienna": "Europe/Vienna", "zurich": "Europe/Zurich",
        "stockholm": "Europe/Stockholm", "oslo": "Europe/Oslo", "copenhagen": "Europe/Copenhagen", "warsaw": "Europe/Warsaw",
        "prague": "Europe/Prague", "athens": "Europe/Athens", "helsinki": "Europe/Helsinki", "kyiv": "Europe/Kyiv", "istanbul": "Europe/Istanbul",
        "moscow": "Europe/Moscow", "dubai": "Asia/Dubai", "india": "Asia/Kolkata", "delhi": "Asia/Kolkata", "mumbai": "Asia/Kolkata",
        "bangalore": "Asia/Kolkata", "singapore": "Asia/Singapore", "manila": "Asia/Manila", "beijing": "Asia/Shanghai", "shanghai": "Asia/Shanghai",
        "china": "Asia/Shanghai", "tokyo": "Asia/Tokyo", "japan": "Asia/Tokyo", "seoul": "Asia/Seoul", "korea": "Asia/Seoul",
        "sydney": "Australia/Sydney", "melbourne": "Australia/Melbourne", "brisbane": "Australia/Brisbane", "perth": "Australia/Perth",
        "auckland": "Pacific/Auckland", "nz": "Pacific/Auckland", "toronto": "America/Toronto", "vancouver": "America/Vancouver",
        "chicago": "America/Chicago", "denver": "America/Denver", "phoenix": "America/Phoenix", "arizona": "America/Phoenix",
        "seattle": "America/Los_Angeles", "california": "America/Los_Angeles", "la": "America/Los_Angeles", "hawaii": "Pacific/Honolulu",
        "nyc": "America/New_York", "boston": "America/New_York", "mexico": "America/Mexico_City", "brazil": "America/Sao_Paulo",
        "lagos": "Africa/Lagos", "nairobi": "Africa/Nairobi", "johannesburg": "Africa/Johannesburg", "cairo": "Africa/Cairo",
    ]

    /// Places of two words ("New York time", "east coast time").
    static let twoWordCityZones: [String: String] = [
        "new york": "America/New_York", "east coast": "America/New_York", "west coast": "America/Los_Angeles",
        "los angeles": "America/Los_Angeles", "san francisco": "America/Los_Angeles", "las vegas": "America/Los_Angeles",
        "salt lake": "America/Denver", "mexico city": "America/Mexico_City", "sao paulo": "America/Sao_Paulo",
        "buenos aires": "America/Argentina/Buenos_Aires", "hong kong": "Asia/Hong_Kong", "new delhi": "Asia/Kolkata",
        "tel aviv": "Asia/Jerusalem", "abu dhabi": "Asia/Dubai", "kuala lumpur": "Asia/Kuala_Lumpur",
        "cape town": "Africa/Johannesburg", "new zealand": "Pacific/Auckland", "south africa": "Africa/Johannesburg",
    ]

    /// After "time", a square's name, not a zone's: "new york time square".
    static let squareWords: Set<String> = ["square", "sq"]

    /// A place named before "time" at `k`: its zone and the words it takes, "time" included.
    func cityZone(at k: Int) -> (String, Int)? {
        if Self.squareWords.contains(word(k + 2)) || Self.squareWords.contains(word(k + 3)) { return nil }  // "new york time square": Times Square
        if word(k + 2) == "time", let z = Self.twoWordCityZones[word(k) + " " + word(k + 1)] { return (z, 3) }
        if word(k + 2) == "city", word(k + 3) == "time", let z = Self.twoWordCityZones[word(k) + " " + word(k + 1)] { return (z, 4) }  // "salt lake city time"
        if word(k + 1) == "time", let z = Self.cityZones[word(k)] { return (z, 2) }
        return nil
    }

    /// The regions people name after a time, as the zone that keeps their clocks.
    static let regionZones: [String: String] = [
        "ET": "America/New_York", "CT": "America/Chicago", "MT": "America/Denver", "PT": "America/Los_Angeles",
        "eastern": "America/New_York", "central": "America/Chicago", "mountain": "America/Denver", "pacific": "America/Los_Angeles",
    ]

    /// Offsets from UTC, in hours, of the zone abbreviations people write
    /// after a time ("ET" is either of Eastern's; "IST" is three zones, so none).
    static let zoneOffsets: [String: [Double]] = [
        "EST": [-5], "EDT": [-4], "CST": [-6], "CDT": [-5], "MST": [-7], "MDT": [-6], "PST": [-8], "PDT": [-7], "AKST": [-9], "AKDT": [-8], "HST": [-10], "UTC": [0], "GMT": [0], "Z": [0],
        "BST": [1], "CET": [1], "CEST": [2], "EET": [2], "EEST": [3], "WET": [0], "WEST": [1], "JST": [9], "KST": [9],
        "AEST": [10], "AEDT": [11], "ACST": [9.5], "AWST": [8], "NZST": [12], "NZDT": [13], "SGT": [8], "HKT": [8],
    ]

    /// A word that can be a noun of the title: not a joining or time word.
    static func titleWord(_ w: String) -> Bool {
        guard let c = w.first, c.isLetter else { return false }
        return !["and", "or", "at", "on", "in", "by", "from", "to", "until", "for", "the", "a", "an", "every", "each", "with"].contains(w)
            && ReminderLexicon.weekday(w) == nil && ReminderLexicon.month(w) == nil
    }

    /// A word that promised a repeat but was not read ("twice a week",
    /// "every blue moon", "3 times a day") is a warning quoting it and up to
    /// three unread words after it.
    mutating func warnUnplacedRecurrenceWords() {
        var k = 0
        while k < tokens.count {
            let w = tokens[k].word
            // "repeat prescription", "a repeat blood test", "recurring meeting": a kind of thing, with no rule said.
            let adjective = ["repeat", "recurring"].contains(w) && !rule.repeats && Self.titleWord(word(k + 1)) && ReminderLexicon.weekday(word(k + 1)) == nil
                && ReminderLexicon.ruleWords[word(k + 1)] == nil && !["every", "each", "on", "at", "in", "until", "till"].contains(word(k + 1))
            let named = Self.namesWithRuleWords[w]?.contains(word(k + 1)) == true  // "hourly rate", "Daily Mail"
            // "20 bands $15 each", "2 each": apiece, a price or a count, not a rule.
                || (w == "each" && k > 0 && (Self.price(word(k - 1)) || (word(k - 1).contains(where: \.isNumber) && ReminderLexicon.unitWords[word(k + 1)] == nil
                    && ReminderLexicon.weekday(word(k + 1)) == nil && !ReminderLexicon.partsOfDay.contains(word(k + 1)))))
            guard !used[k] && !inMediaTitle(k) && !adjective && !named && !properName(at: k) && !ruleWordInName(at: k) && (ReminderLexicon.recurrenceWords.contains(w)
                               || (w == "times" && k > 0 && (ReminderLexicon.number(word(k - 1)) != nil || ["few", "several", "many", "couple", "multiple"].contains(word(k - 1))))
                               || (w == "other" && word(k - 1) == "every")) else {
                k += 1
                continue
            }
            var end = k + 1
            while end < tokens.count && !used[end] && end - k < 4 { end += 1 }
            let start = k > 0 && !used[k - 1] && ReminderLexicon.number(word(k - 1)) != nil ? k - 1 : k
            let said = (start..<end).map { tokens[$0].raw.isEmpty ? tokens[$0].word : tokens[$0].raw }.joined(separator: " ")
            if !warnings.contains(where: { $0.contains("'\(said)'") }) {
                warnings.append("could not place '\(said)' as a rule")
            }
            k = end
        }
    }
}
