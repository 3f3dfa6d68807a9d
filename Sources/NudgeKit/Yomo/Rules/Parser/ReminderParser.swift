// yomo's built-in natural-language parser: deterministic and offline. It
// fills the reminder form (title, date, time, recurrence) from a sentence.
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
        if let c = conflict { o["conflict"] = .string(c) }
        return o
    }
}

public enum ReminderParser {
    struct Token {
        var raw: String
        var word: String
        var commaAfter: Bool
    }

    static let numberWords = ["one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                              "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15,
                              "twenty": 20, "thirty": 30, "forty": 40, "forty-five": 45, "fifty": 50, "sixty": 60,
                              "ninety": 90]
    static let ordinalWords = ["first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1]
    static let months = ["january", "february", "march", "april", "may", "june", "july", "august",
                         "september", "october", "november", "december"]
    /// Common misspellings, read as the word meant (and said so).
    static let typos: [String: String] = [
        "tommorow": "tomorrow", "tomorow": "tomorrow", "tommorrow": "tomorrow", "tomorrw": "tomorrow", "tmrw": "tomorrow",
        "tmr": "tomorrow", "2morrow": "tomorrow", "tomorroe": "tomorrow", "tonite": "tonight", "evrey": "every", "evry": "every",
        "everyday": "every day", "wensday": "wednesday", "wednsday": "wednesday", "wedensday": "wednesday", "wendsday": "wednesday",
        "thrusday": "thursday", "thursdy": "thursday", "tuesdya": "tuesday", "teusday": "tuesday", "tusday": "tuesday",
        "saterday": "saturday", "saturaday": "saturday", "fridy": "friday", "firday": "friday", "mondya": "monday",
        "sundya": "sunday", "minuts": "minutes", "mintues": "minutes", "minutues": "minutes", "hourse": "hours",
        "weekely": "weekly", "montly": "monthly", "dialy": "daily", "daliy": "daily", "mornign": "morning",
        "evenign": "evening", "febuary": "february", "feburary": "february", "wekdays": "weekdays", "weekdyas": "weekdays",
    ]
    /// Words that promise a repeat: left in the title, they mean "not understood".
    static let recurrenceWords: Set<String> = [
        "every", "each", "daily", "weekly", "monthly", "yearly", "annually", "hourly", "nightly", "biweekly", "fortnightly",
        "bimonthly", "quarterly", "weekdays", "weekends", "mondays", "tuesdays", "wednesdays", "thursdays", "fridays",
        "saturdays", "sundays", "except", "twice", "thrice", "repeat", "repeating", "recurring", "alternate", "until",
        "mornings", "evenings", "nights", "afternoons", "semiannually", "biannually",
    ]

    static func tokenize(_ text: String) -> ([Token], [String]) {
        var out: [Token] = []
        var notes: [String] = []
        for piece in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            var raw = String(piece)
            var comma = false
            var word = raw.lowercased()
            while let last = word.last, ",.;!?".contains(last) {
                if last == "," { comma = true }
                word.removeLast()
            }
            while let first = word.first, "(\"'".contains(first), word.count > 1 { word.removeFirst() }
            if word.isEmpty {
                if !out.isEmpty { out[out.count - 1].commaAfter = out[out.count - 1].commaAfter || comma }
                continue
            }
            if raw.hasSuffix(",") && !raw.dropLast().isEmpty { raw = String(raw.dropLast()) }
            if let fixed = typos[word] {
                notes.append("'\(word)' read as '\(fixed)'")
                let parts = fixed.split(separator: " ").map(String.init)
                for (k, p) in parts.enumerated() {
                    out.append(Token(raw: k == 0 ? raw : "", word: p, commaAfter: k == parts.count - 1 && comma))
                }
                continue
            }
            // "9.30pm", "9.30": a clock time with a dot.
            if let dot = word.firstIndex(of: "."), word[..<dot].allSatisfy(\.isNumber), !word[..<dot].isEmpty {
                let rest = word[word.index(after: dot)...]
                if rest.count >= 2, rest.prefix(2).allSatisfy(\.isNumber), ["", "am", "pm"].contains(String(rest.dropFirst(2))) {
                    word = String(word[..<dot]) + ":" + rest
                }
            }
            // "2h", "30min", "3d": a number glued to its unit.
            if let split = splitUnit(word) {
                out.append(Token(raw: raw, word: split.0, commaAfter: false))
                out.append(Token(raw: "", word: split.1, commaAfter: comma))
                continue
            }
            out.append(Token(raw: raw, word: word, commaAfter: comma))
        }
        return (out, notes)
    }

    static func splitUnit(_ w: String) -> (String, String)? {
        let digits = w.prefix { $0.isNumber }
        guard !digits.isEmpty, digits.count < w.count else { return nil }
        let unit = String(w.dropFirst(digits.count))
        let units = ["h": "hours", "hr": "hours", "hrs": "hours", "m": "minutes", "min": "minutes", "mins": "minutes",
                     "d": "days", "w": "weeks", "wk": "weeks", "wks": "weeks"]
        guard let u = units[unit] else { return nil }
        return (String(digits), u)
    }

    static func number(_ w: String) -> Int? {
        if let n = Int(w), n >= 0 { return n }
        return numberWords[w]
    }

    static func ordinal(_ w: String) -> Int? {
        if let o = ordinalWords[w] { return o }
        for suffix in ["st", "nd", "rd", "th"] where w.hasSuffix(suffix) {
            if let n = Int(w.dropLast(2)), (1...31).contains(n) { return n }
        }
        return nil
    }

    static func weekday(_ w: String) -> Int? {
        if let d = Weekdays.parse(w) { return d }
        if w.hasSuffix("s"), let d = Weekdays.parse(String(w.dropLast())) { return d }
        return nil
    }

    static func month(_ w: String) -> Int? {
        if let i = months.firstIndex(of: w) { return i + 1 }
        if w.count >= 3, let i = months.firstIndex(where: { $0.hasPrefix(w) }) { return i + 1 }
        if w == "sept" { return 9 }
        return nil
    }

    static let unitWords: [String: Recurrence.Unit] = [
        "hour": .hour, "hours": .hour, "hr": .hour, "hrs": .hour, "h": .hour,
        "day": .day, "days": .day, "week": .week, "weeks": .week, "month": .month, "months": .month,
        "year": .year, "years": .year,
    ]
    static let minuteWords: Set<String> = ["minute", "minutes", "min", "mins"]

    /// A time of day as the sentence wrote it, before a bare hour's am/pm is
    /// settled (not the tools' `Clock`, which tells the current time).
    struct WrittenTime {
        var hour: Int
        var minute: Int
        /// am/pm, a 24-hour value, a leading zero, noon or midnight settle it.
        var sure: Bool
        var text: String
    }

    /// A clock time at tokens[i...]: the time and the tokens it used.
    static func clock(_ t: [Token], _ i: Int) -> (WrittenTime, Int)? {
        guard i < t.count else { return nil }
        var w = t[i].word
        if w == "noon" || w == "midday" { return (WrittenTime(hour: 12, minute: 0, sure: true, text: w), 1) }
        if w == "midnight" { return (WrittenTime(hour: 0, minute: 0, sure: true, text: w), 1) }
        var used = 1
        var suffix: String? = nil
        for s in ["am", "pm", "a.m", "p.m"] where w.hasSuffix(s) && w.count > s.count {
            suffix = String(s.prefix(1))
            w = String(w.dropLast(s.count))
            break
        }
        if suffix == nil && !t[i].commaAfter, i + 1 < t.count, ["am", "pm", "a.m", "p.m"].contains(t[i + 1].word) {
            suffix = String(t[i + 1].word.prefix(1))
            used = 2
        }
        if suffix == nil, i + 1 < t.count, t[i + 1].word == "o'clock" || t[i + 1].word == "oclock" { used = 2 }
        var hour: Int
        var minute = 0
        let parts = w.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard parts[0].count <= 2, let h = Int(parts[0]), parts[1].count == 2, let m = Int(parts[1]), m < 60 else { return nil }
            hour = h
            minute = m
        } else if parts.count == 1, w.count <= 2, w.allSatisfy(\.isNumber), let h = Int(w) {
            hour = h
        } else {
            return nil
        }
        if let s = suffix {
            guard (1...12).contains(hour) else { return nil }
            if s == "p" && hour < 12 { hour += 12 }
            if s == "a" && hour == 12 { hour = 0 }
            return (WrittenTime(hour: hour, minute: minute, sure: true, text: t[i].word), used)
        }
        guard hour < 24 else { return nil }
        let sure = hour == 0 || hour > 12 || w.hasPrefix("0")
        return (WrittenTime(hour: hour, minute: minute, sure: sure, text: w), used)
    }

    /// A list of weekdays: "mon, wed and fri", "monday and thursday".
    static func dayList(_ t: [Token], _ i: Int) -> ([Int], Int)? {
        var days: [Int] = []
        var j = i
        while j < t.count, let d = weekday(t[j].word) {
            days.append(d)
            j += 1
            if j < t.count && (t[j].word == "and" || t[j].word == "&" || t[j].word == "or") && j + 1 < t.count && weekday(t[j + 1].word) != nil {
                j += 1
            } else if !t[j - 1].commaAfter && !(j < t.count && weekday(t[j].word) != nil && Weekdays.parse(t[j].word) != nil) {
                break
            }
        }
        return days.isEmpty ? nil : (Weekdays.sorted(days), j - i)
    }

    public static func parse(_ text: String, now: Instant, zone: Zone) -> ParsedReminder {
        let (t, typoNotes) = tokenize(text)
        var used = [Bool](repeating: false, count: t.count)
        let today = zone.day(of: now)
        var date: Day? = nil
        var dateText: String? = nil
        var clockSet: (WrittenTime, String)? = nil  // the time and where it came from
        var rec = Recurrence.once
        var ruleText: String? = nil
        var assumptions: [String] = typoNotes
        var warnings: [String] = []
        var conflict: String? = nil
        var relative: Instant? = nil
        var partOfDay: String? = nil          // morning, afternoon, evening, night
        var until: Day? = nil
        var count: Int? = nil
        var exceptDays: [Int] = []

        func w(_ k: Int) -> String { k >= 0 && k < t.count ? t[k].word : "" }
        func take(_ from: Int, _ n: Int) { for k in from..<min(t.count, from + n) { used[k] = true } }
        func phrase(_ from: Int, _ n: Int) -> String { (from..<min(t.count, from + n)).map { t[$0].word }.joined(separator: " ") }
        func twoRules(_ second: String) {
            guard conflict == nil else { return }
            conflict = "two rules in one sentence ('\(ruleText ?? "")' and '\(second)'): one reminder holds one rule; add them one at a time"
        }
        func setRule(_ r: Recurrence, _ from: Int, _ n: Int) {
            let said = phrase(from, n)
            if rec.repeats && r != rec { twoRules(said) }
            rec = r
            ruleText = ruleText ?? said
            take(from, n)
        }
        func setTime(_ c: WrittenTime, _ from: Int, _ n: Int) {
            let said = phrase(from, n)
            if let (old, where0) = clockSet, (old.hour, old.minute) != (c.hour, c.minute) || old.sure != c.sure {
                if conflict == nil {
                    conflict = "two times in one sentence ('\(where0)' and '\(said)'): one reminder holds one rule; add them one at a time"
                }
            }
            clockSet = (c, said)
            take(from, n)
        }
        func setDate(_ d: Day, _ from: Int, _ n: Int) {
            let said = phrase(from, n)
            if let old = date, old != d, conflict == nil {
                conflict = "two dates in one sentence ('\(dateText ?? "")' and '\(said)'): one reminder holds one rule; add them one at a time"
            }
            date = d
            dateText = said
            take(from, n)
        }

        /// "from 9 to 6", "between 22:00 and 06:00": an hour range.
        func range(_ k: Int) -> (WrittenTime, WrittenTime, Int)? {
            guard w(k) == "from" || w(k) == "between", let (a, na) = clock(t, k + 1) else { return nil }
            let sep = k + 1 + na
            guard ["to", "and", "until", "till", "-"].contains(w(sep)), let (b, nb) = clock(t, sep + 1) else { return nil }
            return (a, b, sep + 1 + nb - k)
        }
        var rangeClocks: (WrittenTime, WrittenTime)? = nil

        /// The ordinal weekday of a month at k: "2nd tuesday", "last fri". (ordinal, weekday, tokens)
        func ordinalWeekday(_ k: Int) -> (Int, Int, Int)? {
            guard let o = ordinal(w(k)), o <= 5, let wd = weekday(w(k + 1)) else { return nil }
            return (o, wd, 2)
        }
        /// "of the month", "of every month", "of each month", "monthly"
        func ofMonth(_ k: Int) -> Int {
            if w(k) == "of" && ["the", "every", "each", "a"].contains(w(k + 1)) && w(k + 2) == "month" { return 3 }
            if w(k) == "of" && w(k + 1) == "month" { return 2 }
            if w(k) == "monthly" || (w(k) == "each" || w(k) == "every") && w(k + 1) == "month" { return w(k) == "monthly" ? 1 : 2 }
            return 0
        }
        /// A date at k: "dec 24", "24 december", "24th of december", "2026-12-24", "12/05", "the 5th".
        func dateAt(_ k0: Int) -> (Day, Int)? {
            var k = k0
            if w(k) == "on" { k += 1 }
            if w(k) == "the", let o = ordinal(w(k + 1)), o >= 1, w(k + 2) == "of", let m = month(w(k + 3)) {
                if let d = nextDate(month: m, day: o, from: today) { return (d, k + 4 - k0) }
            }
            if let d = Day.parse(w(k)) { return (d, k + 1 - k0) }
            if let (d, note) = slashDate(w(k), today: today) {
                assumptions.append(note)
                return (d, k + 1 - k0)
            }
            if let m = month(w(k)), w(k).count >= 3, let dd = ordinal(w(k + 1)) ?? Int(w(k + 1)).flatMap({ (1...31).contains($0) ? $0 : nil }) {
                if let y = Int(w(k + 2)), (2000...2200).contains(y) {
                    let d = Day(year: y, month: m, day: dd)
                    if d.isValid { return (d, k + 3 - k0) }
                }
                if let d = nextDate(month: m, day: dd, from: today) { return (d, k + 2 - k0) }
            }
            if let dd = ordinal(w(k)) ?? Int(w(k)).flatMap({ (1...31).contains($0) ? $0 : nil }) {
                var mk = k + 1
                if w(mk) == "of" { mk += 1 }
                if let m = month(w(mk)), w(mk).count >= 3, let d = nextDate(month: m, day: dd, from: today) {
                    return (d, mk + 1 - k0)
                }
            }
            return nil
        }

        var i = 0
        // "remind me to …"
        if w(0) == "remind" && w(1) == "me" { take(0, w(2) == "to" ? 3 : 2); i = w(2) == "to" ? 3 : 2 }
        while i < t.count {
            if used[i] { i += 1; continue }
            let word = w(i)

            // ---- "every …" / "each …"
            if word == "every" || word == "each" {
                var j = i + 1
                if w(j) == "single" { j += 1 }
                var n = 1
                var explicitN = false
                if w(j) == "other" { n = 2; j += 1; explicitN = true }
                else if let k = number(w(j)), k >= 1, w(j + 1) != "", weekday(w(j)) == nil {
                    n = k; j += 1; explicitN = true
                }
                let unitWord = w(j)
                if minuteWords.contains(unitWord) {
                    if n % 60 == 0 {
                        var r = Recurrence(kind: .custom, interval: n / 60, unit: .hour)
                        var len = j + 1 - i
                        if let (a, b, rl) = range(j + 1) { rangeClocks = (a, b); r.rangeStart = TimeOfDay(hour: 0, minute: 0); r.rangeEnd = r.rangeStart; len += rl }
                        setRule(r, i, len)
                        i += len
                    } else {
                        warnings.append("'\(phrase(i, j + 1 - i))': yomo repeats in whole hours, days, weeks, months or years; try 'every \(max(1, (n + 30) / 60)) hours' or --unit hour")
                        take(i, j + 1 - i)
                        i = j + 1
                        if let (_, _, rl) = range(i) { take(i, rl); i += rl }
                    }
                    continue
                }
                if let u = unitWords[unitWord] {
                    var r: Recurrence
                    var end = j + 1
                    switch u {
                    case .hour:
                        r = Recurrence(kind: .custom, interval: n, unit: .hour)
                        if let (a, b, rl) = range(end) {
                            rangeClocks = (a, b)
                            r.rangeStart = TimeOfDay(hour: 0, minute: 0); r.rangeEnd = r.rangeStart
                            end += rl
                        }
                    case .day:
                        r = n == 1 ? Recurrence(kind: .daily) : Recurrence(kind: .custom, interval: n, unit: .day)
                    case .week:
                        var days: [Int] = []
                        if w(end) == "on", let (ds, len) = dayList(t, end + 1) { days = ds; end += 1 + len }
                        r = (n == 1 && days.count <= 1 && !explicitN)
                            ? Recurrence(kind: .weekly, days: days)
                            : Recurrence(kind: .custom, interval: n, unit: .week, days: days)
                    case .month:
                        r = Recurrence(kind: .custom, interval: n, unit: .month)
                        var k = end
                        if w(k) == "on" { k += 1 }
                        if w(k) == "the" { k += 1 }
                        if let (o, wd, len) = ordinalWeekday(k) {
                            r.monthOrdinal = o; r.monthWeekday = wd; end = k + len
                        } else if k > end, let o = ordinal(w(k)), o >= 1, let d = nextDayOfMonth(o, from: today) {
                            // "every month on the 15th": the day of month is the anchor's.
                            setDate(d, k, 1)
                            end = k + 1
                        }
                    case .year:
                        r = Recurrence(kind: .custom, interval: n, unit: .year)
                        var k = end
                        if w(k) == "on" { k += 1 }
                        if let (d, len) = dateAt(k) { setDate(d, k, len); end = k + len }
                    }
                    setRule(r, i, end - i)
                    i = end
                    continue
                }
                if ["weekday", "weekdays"].contains(unitWord) && !explicitN {
                    setRule(Recurrence(kind: .weekly, days: [1, 2, 3, 4, 5]), i, j + 1 - i); i = j + 1; continue
                }
                if ["weekend", "weekends"].contains(unitWord) && !explicitN {
                    setRule(Recurrence(kind: .weekly, days: [6, 0]), i, j + 1 - i); i = j + 1; continue
                }
                if ["morning", "afternoon", "evening", "night"].contains(unitWord) && !explicitN {
                    partOfDay = unitWord
                    setRule(Recurrence(kind: .daily), i, j + 1 - i); i = j + 1; continue
                }
                // "every 3rd wednesday (of the month)", "every last friday"
                if !explicitN || w(j - 1) != "other", let (o, wd, len) = ordinalWeekday(explicitN ? j - 1 : j) {
                    let start = explicitN ? j - 1 : j
                    let extra = ofMonth(start + len)
                    if extra == 0 && o == 2 {
                        assumptions.append("'every \(w(start)) \(w(start + 1))' read as the 2nd \(Weekdays.display(wd)) of each month (say 'every other \(w(start + 1))' for every two weeks)")
                    }
                    setRule(Recurrence(kind: .custom, interval: 1, unit: .month, monthOrdinal: o, monthWeekday: wd), i, start + len + extra - i)
                    i = start + len + extra
                    continue
                }
                if let (days, len) = dayList(t, j) {
                    var r = explicitN ? Recurrence(kind: .custom, interval: n, unit: .week, days: days)
                                      : Recurrence(kind: .weekly, days: days)
                    var end = j + len
                    // "every monday and every friday": one rule, both days.
                    while (w(end) == "and" || w(end) == "&") && w(end + 1) == "every" && !explicitN, let (more, l2) = dayList(t, end + 2) {
                        r = Recurrence(kind: .weekly, days: r.days + more)
                        end += 2 + l2
                    }
                    setRule(r, i, end - i)
                    i = end
                    continue
                }
                i += 1  // "every" something we do not know: the warning below names it
                continue
            }
            // ---- single words
            let single: [String: Recurrence] = [
                "daily": Recurrence(kind: .daily), "nightly": Recurrence(kind: .daily),
                "hourly": Recurrence(kind: .custom, interval: 1, unit: .hour),
                "weekly": Recurrence(kind: .weekly),
                "biweekly": Recurrence(kind: .custom, interval: 2, unit: .week),
                "fortnightly": Recurrence(kind: .custom, interval: 2, unit: .week),
                "monthly": Recurrence(kind: .custom, interval: 1, unit: .month),
                "quarterly": Recurrence(kind: .custom, interval: 3, unit: .month),
                "yearly": Recurrence(kind: .custom, interval: 1, unit: .year),
                "annually": Recurrence(kind: .custom, interval: 1, unit: .year),
                "semiannually": Recurrence(kind: .custom, interval: 6, unit: .month),
                "biannually": Recurrence(kind: .custom, interval: 6, unit: .month),
            ]
            if var r = single[word] {
                if word == "nightly" { partOfDay = "night" }
                if word == "biweekly" { assumptions.append("'biweekly' read as every 2 weeks") }
                if rec.repeats && rec.unit == .week && r.unit == .week && r.interval == 2 && !rec.days.isEmpty {
                    r.days = rec.days  // "every friday, biweekly"
                    r.kind = .custom
                    rec = r
                    take(i, 1); i += 1; continue
                }
                if rec.repeats && rec.effective == r.effective { take(i, 1); i += 1; continue }  // said twice
                setRule(r, i, 1); i += 1; continue
            }
            if word == "bimonthly" {
                assumptions.append("'bimonthly' read as every 2 months")
                setRule(Recurrence(kind: .custom, interval: 2, unit: .month), i, 1); i += 1; continue
            }
            // "once a day/week/month/year", "once every 3 days"
            if word == "once" && (w(i + 1) == "a" || w(i + 1) == "per"), let u = unitWords[w(i + 2)], u != .hour {
                let r: Recurrence = u == .day ? Recurrence(kind: .daily) : u == .week ? Recurrence(kind: .weekly) : Recurrence(kind: .custom, interval: 1, unit: u)
                setRule(r, i, 3); i += 3; continue
            }
            if word == "once" && w(i + 1) == "every" { take(i, 1); i += 1; continue }
            // "on weekdays", "weekdays", "on weekends"
            if (word == "on" && ["weekdays", "weekends"].contains(w(i + 1))) || ["weekdays", "weekends"].contains(word) {
                let wk = word == "on" ? w(i + 1) : word
                if rec.repeats && rec.unit == .hour {
                    rec.days = wk == "weekdays" ? [1, 2, 3, 4, 5] : [6, 0]
                    take(i, word == "on" ? 2 : 1); i += word == "on" ? 2 : 1; continue
                }
                setRule(Recurrence(kind: .weekly, days: wk == "weekdays" ? [1, 2, 3, 4, 5] : [6, 0]), i, word == "on" ? 2 : 1)
                i += word == "on" ? 2 : 1
                continue
            }
            // "mornings", "evenings": every morning, whatever comes before it (a
            // weekday read as a date just before, "monday mornings", still
            // leaves a daily rule from that date).
            if ["mornings", "evenings", "nights", "afternoons"].contains(word) {
                partOfDay = String(word.dropLast())
                let from = w(i - 1) == "on" || w(i - 1) == "in" || w(i - 1) == "the" ? i - 1 : i
                setRule(Recurrence(kind: .daily), from, i + 1 - from); i += 1; continue
            }
            // ---- exclusions: "except friday", "except weekends", "but not sundays"
            if word == "except" || word == "excluding" || (word == "but" && w(i + 1) == "not") {
                var k = i + 1
                if word == "but" { k += 1 }
                if w(k) == "on" { k += 1 }
                if let (ds, len) = dayList(t, k) {
                    exceptDays += ds; take(i, k + len - i); i = k + len; continue
                }
                if ["weekends", "weekend"].contains(w(k)) { exceptDays += [6, 0]; take(i, k + 1 - i); i = k + 1; continue }
                if ["weekdays"].contains(w(k)) { exceptDays += [1, 2, 3, 4, 5]; take(i, k + 1 - i); i = k + 1; continue }
                i += 1; continue  // the warning below names "except"
            }
            // ---- ends: "until dec 24", "till friday", "10 times", "for 3 weeks"
            if word == "until" || word == "till" || word == "through" {
                if let (d, len) = dateAt(i + 1) { until = d; take(i, 1 + len); i += 1 + len; continue }
                if let wd = weekday(w(i + 1)), !w(i + 1).hasSuffix("s") || Weekdays.parse(w(i + 1)) != nil {
                    var ahead = (wd - today.weekday + 7) % 7
                    if ahead == 0 { ahead = 7 }
                    until = today.adding(days: ahead); take(i, 2); i += 2; continue
                }
                if w(i + 1) == "the" && w(i + 2) == "end" && w(i + 3) == "of" && ["the", "this"].contains(w(i + 4)) && ["month", "year"].contains(w(i + 5)) {
                    until = w(i + 5) == "month" ? Day(year: today.year, month: today.month, day: Day.daysInMonth(year: today.year, month: today.month))
                                                : Day(year: today.year, month: 12, day: 31)
                    take(i, 6); i += 6; continue
                }
            }
            if let n = number(word), n >= 1, w(i + 1) == "times", !(w(i + 2) == "a" || w(i + 2) == "per") {
                count = n; take(i, 2); i += 2; continue
            }
            if word == "for", let n = number(w(i + 1)), n >= 1, w(i + 2) == "times" || w(i + 2) == "occurrences" {
                count = n; take(i, 3); i += 3; continue
            }
            if word == "for", let n = number(w(i + 1)), n >= 1, let u = unitWords[w(i + 2)], u != .hour, rec.repeats || t[(i + 3)...].contains(where: { $0.word == "every" || single[$0.word] != nil }) {
                // "for 3 weeks": until the day before the same day 3 weeks on.
                let start = date ?? today
                let end: Day
                switch u {
                case .day: end = start.adding(days: n - 1)
                case .week: end = start.adding(days: 7 * n - 1)
                case .month, .year:
                    let idx = start.year * 12 + start.month - 1 + (u == .year ? 12 * n : n)
                    end = Day(year: idx / 12, month: idx % 12 + 1, day: min(start.day, Day.daysInMonth(year: idx / 12, month: idx % 12 + 1))).adding(days: -1)
                case .hour: end = start
                }
                until = end
                assumptions.append("'for \(n) \(w(i + 2))' read as until \(end)")
                take(i, 3); i += 3; continue
            }
            // ---- "(on) the 2nd tuesday of the month", "last friday of the month", "3rd wednesday monthly"
            do {
                var k = i
                if w(k) == "on" { k += 1 }
                if w(k) == "the" { k += 1 }
                if let (o, wd, len) = ordinalWeekday(k) {
                    let extra = ofMonth(k + len)
                    if extra > 0 {
                        setRule(Recurrence(kind: .custom, interval: 1, unit: .month, monthOrdinal: o, monthWeekday: wd), i, k + len + extra - i)
                        i = k + len + extra
                        continue
                    }
                    if w(i) == "last" && k == i {
                        // "last friday": the one before today, not a rule.
                    } else if o >= 1, let d = Recurrence.nextNthWeekday(ordinal: o, weekday: wd, from: today) {
                        assumptions.append("'\(phrase(k, len))' read as \(d), once")
                        setDate(d, i, k + len - i)
                        i = k + len
                        continue
                    }
                }
                // "every month on the 2nd tuesday" was handled with "every"; "monthly on the last friday" here.
                if rec.repeats && rec.unit == .month && rec.monthOrdinal == nil, w(i) == "on", w(i + 1) == "the", let (o, wd, len) = ordinalWeekday(i + 2) {
                    rec.monthOrdinal = o; rec.monthWeekday = wd; take(i, 2 + len); i += 2 + len; continue
                }
            }
            // ---- from completion
            if word == "after" || word == "from" {
                let phrases: [[String]] = [["i", "finish", "it"], ["i", "finish"], ["i've", "finished", "it"], ["i", "complete", "it"],
                                           ["i", "complete"], ["completion"], ["done"], ["i'm", "done"], ["i", "am", "done"],
                                           ["finishing"], ["finishing", "it"], ["completing", "it"], ["i", "do", "it"], ["it's", "done"],
                                           ["the", "last", "one"], ["last", "done"], ["last", "time"]]
                if let p = phrases.sorted(by: { $0.count > $1.count }).first(where: { p in p.enumerated().allSatisfy { w(i + 1 + $0.offset) == $0.element } }) {
                    if rec.repeats || t[(i + 1 + p.count)...].contains(where: { $0.word == "every" }) {
                        rec.basedOnCompletion = true
                        take(i, 1 + p.count); i += 1 + p.count; continue
                    }
                }
            }
            // ---- relative: "in 20 minutes", "in an hour", "in half an hour", "in 2h"
            if word == "in" {
                var n: Int? = nil
                var k = i + 1
                if w(k) == "half" && (w(k + 1) == "an" || w(k + 1) == "a") && w(k + 2) == "hour" {
                    relative = Instant(ms: now.ms + 30 * 60_000); take(i, 4); i += 4; continue
                }
                if w(k) == "a" || w(k) == "an" { n = 1; k += 1 } else if let m = number(w(k)) { n = m; k += 1 }
                if w(k) == "couple" && w(k + 1) == "of" { n = 2; k += 2 }
                if let n = n {
                    let unit = w(k)
                    var seconds: Int64? = nil
                    if minuteWords.contains(unit) { seconds = Int64(n) * 60 }
                    if ["hour", "hours", "hr", "hrs"].contains(unit) { seconds = Int64(n) * 3600 }
                    if ["day", "days"].contains(unit) {
                        setDate(today.adding(days: n), i, k + 1 - i); i = k + 1; continue
                    }
                    if ["week", "weeks"].contains(unit) {
                        setDate(today.adding(days: 7 * n), i, k + 1 - i); i = k + 1; continue
                    }
                    if ["month", "months"].contains(unit) {
                        let idx = today.year * 12 + today.month - 1 + n
                        setDate(Day(year: idx / 12, month: idx % 12 + 1, day: min(today.day, Day.daysInMonth(year: idx / 12, month: idx % 12 + 1))), i, k + 1 - i)
                        i = k + 1; continue
                    }
                    if let s = seconds {
                        // "in 1 hour and 30 minutes"
                        var total = s
                        var end = k + 1
                        if w(end) == "and", let m = number(w(end + 1)), minuteWords.contains(w(end + 2)) { total += Int64(m) * 60; end += 3 }
                        relative = Instant(ms: now.ms + total * 1000)
                        take(i, end - i); i = end; continue
                    }
                }
                // "in the morning/afternoon/evening"
                if w(i + 1) == "the", ["morning", "afternoon", "evening"].contains(w(i + 2)) {
                    partOfDay = w(i + 2); take(i, 3); i += 3; continue
                }
            }
            if (word == "at" && w(i + 1) == "night") { partOfDay = "night"; take(i, 2); i += 2; continue }
            // ---- a time of day
            if word == "at" || word == "@" || word == "by", let (c, n) = clock(t, i + 1) {
                if word == "by" && !c.sure && !t[i + 1].word.contains(":") { i += 1; continue }
                setTime(c, i, 1 + n); i += 1 + n
                if let (a, b, len) = range(i), rec.unit == .hour && rec.repeats { rangeClocks = (a, b); take(i, len); i += len }
                continue
            }
            if let (c, n) = clock(t, i), c.sure, word.contains(":") || word.hasSuffix("m") || word == "noon" || word == "midnight" || w(i + 1) == "am" || w(i + 1) == "pm" {
                setTime(c, i, n); i += n; continue
            }
            if rec.unit == .hour && rec.repeats && rangeClocks == nil, word.contains("-") {
                let parts = word.split(separator: "-").map { Token(raw: String($0), word: String($0), commaAfter: false) }
                if parts.count == 2, let (a, na) = clock(parts, 0), let (b, nb) = clock(parts, 1), na == 1, nb == 1 {
                    rangeClocks = (a, b); take(i, 1); i += 1; continue
                }
            }
            if rec.unit == .hour && rec.repeats, let (a, b, len) = range(i) {
                rangeClocks = (a, b); take(i, len); i += len; continue
            }
            // A bare range without a rule: "from 9 to 5" belongs to nothing.
            // ---- parts of the day
            if ["this", "tomorrow"].contains(word), ["morning", "afternoon", "evening", "night"].contains(w(i + 1)) {
                if word == "tomorrow" { setDate(today.adding(days: 1), i, 1) } else { setDate(today, i, 1) }
                partOfDay = w(i + 1)
                take(i + 1, 1)
                i += 2; continue
            }
            if ["morning", "afternoon", "evening", "night"].contains(word) && i > 0 && used[i - 1]
                && (["tomorrow", "this", "today"].contains(w(i - 1)) || weekday(w(i - 1)) != nil || w(i - 1) == "day" || w(i - 1) == "weekend" || w(i - 1) == "weekday") {
                partOfDay = word; take(i, 1); i += 1; continue
            }
            // ---- dates
            if word == "today" { setDate(today, i, 1); i += 1; continue }
            if word == "by" && (weekday(w(i + 1)) != nil || ["tomorrow", "today", "tonight"].contains(w(i + 1)) || dateAt(i + 1) != nil) {
                take(i, 1); i += 1; continue
            }
            do {
                // "(on) the last day of the month"
                var k = i
                if w(k) == "on" { k += 1 }
                if w(k) == "the" { k += 1 }
                if w(k) == "last" && w(k + 1) == "day" && w(k + 2) == "of" {
                    if ["the", "this"].contains(w(k + 3)) && w(k + 4) == "month" {
                        setDate(Day(year: today.year, month: today.month, day: Day.daysInMonth(year: today.year, month: today.month)), i, k + 5 - i)
                        i = k + 5; continue
                    }
                    if ["every", "each"].contains(w(k + 3)) && w(k + 4) == "month" {
                        warnings.append("'\(phrase(i, k + 5 - i))': a monthly rule falls on a day of the month or a weekday like 'last friday'; try --unit month --date with the 31st (shorter months take their last day)")
                        take(i, k + 5 - i); i = k + 5; continue
                    }
                }
            }
            if word == "tonight" {
                setDate(today, i, 1)
                partOfDay = "night"
                i += 1; continue
            }
            if word == "tomorrow" { setDate(today.adding(days: 1), i, 1); i += 1; continue }
            if word == "day" && w(i + 1) == "after" && w(i + 2) == "tomorrow" { setDate(today.adding(days: 2), i, 3); i += 3; continue }
            if (word == "this" || word == "next") && w(i + 1) == "weekend" {
                var ahead = (6 - today.weekday + 7) % 7
                if word == "next" { ahead += 7 }
                var d = today.adding(days: ahead)
                if word == "this" && today.weekday == 0 { d = today }
                assumptions.append("'\(word) weekend' read as \(Weekdays.display(d.weekday)) \(d)")
                setDate(d, i, 2); i += 2; continue
            }
            if word == "next" && (w(i + 1) == "week" || w(i + 1) == "month" || w(i + 1) == "year") {
                let d: Day
                switch w(i + 1) {
                case "week": d = today.adding(days: (1 - today.weekday + 7) % 7 == 0 ? 7 : (1 - today.weekday + 7) % 7)
                case "month":
                    let idx = today.year * 12 + today.month
                    d = Day(year: idx / 12, month: idx % 12 + 1, day: 1)
                default: d = Day(year: today.year + 1, month: 1, day: 1)
                }
                assumptions.append("'next \(w(i + 1))' read as \(d)")
                setDate(d, i, 2); i += 2; continue
            }
            if (word == "end" && w(i + 1) == "of") || (word == "the" && w(i + 1) == "end" && w(i + 2) == "of") {
                let k = word == "the" ? i + 2 : i + 1
                if ["the", "this"].contains(w(k + 1)) && w(k + 2) == "month" {
                    setDate(Day(year: today.year, month: today.month, day: Day.daysInMonth(year: today.year, month: today.month)), i, k + 3 - i)
                    i = k + 3; continue
                }
            }
            do {
                // "on mon and wed", "on mondays", "mondays": weekly; "on monday", "next friday": a day.
                var k = i
                if ["on", "next", "this", "coming"].contains(w(k)) { k += 1 }
                if w(k) == "on" { k += 1 }
                if let (days, len) = dayList(t, k) {
                    let plural = (k..<(k + len)).contains { t[$0].word.hasSuffix("s") && Weekdays.parse(t[$0].word) == nil }
                    if rec.repeats && rec.unit == .hour && w(i) == "on" {
                        rec.days = days
                        take(i, k + len - i); i = k + len; continue
                    }
                    if (days.count > 1 || plural) && w(i) != "next" && w(i) != "this" {
                        if !rec.repeats && !plural {
                            assumptions.append("'\(phrase(k, len))' read as every week")
                        }
                        if rec.repeats && rec.unit == .week && rec.days.isEmpty {
                            var r = rec
                            r.days = days
                            rec = r
                            take(i, k + len - i)
                        } else {
                            setRule(Recurrence(kind: .weekly, days: days), i, k + len - i)
                        }
                        i = k + len
                        continue
                    }
                    if days.count == 1 {
                        let wd = days[0]
                        if rec.repeats && (rec.unit == .week || rec.unit == .day) && w(i) == "on" {
                            // "every week on friday", "weekly on friday"
                            var r = rec
                            if r.kind == .daily { r = Recurrence(kind: .weekly) }
                            r.days = [wd]
                            rec = r
                            take(i, k + 1 - i); i = k + 1; continue
                        }
                        var ahead = (wd - today.weekday + 7) % 7
                        if ahead == 0 { ahead = 7 }
                        if w(i) == "next" { assumptions.append("'next \(t[k].word)' read as \(today.adding(days: ahead))") }
                        setDate(today.adding(days: ahead), i, k + 1 - i)
                        i = k + 1
                        continue
                    }
                }
            }
            if let (d, len) = dateAt(i) { setDate(d, i, len); i += len; continue }
            do {
                var k = i
                if w(k) == "on" { k += 1 }
                if w(k) == "the", let o = ordinal(w(k + 1)), o >= 1, weekday(w(k + 2)) == nil {
                    if rec.repeats && rec.unit == .month, let d = nextDayOfMonth(o, from: today) {
                        setDate(d, i, k + 2 - i); i = k + 2; continue
                    }
                    if let d = nextDayOfMonth(o, from: today) {
                        setDate(d, i, k + 2 - i)
                        i = k + 2
                        if w(i) == "of" && (w(i + 1) == "the" || w(i + 1) == "this") && w(i + 2) == "month" { take(i, 3); i += 3 }
                        if w(i) == "of" && (w(i + 1) == "every" || w(i + 1) == "each") && w(i + 2) == "month" {
                            setRule(Recurrence(kind: .custom, interval: 1, unit: .month), i, 3); i += 3
                        }
                        continue
                    }
                }
            }
            i += 1
        }

        // ---- the time of day, with one rule for a clock without am/pm.
        var time: TimeOfDay? = nil
        func settle(_ c: WrittenTime, context: String?) -> (TimeOfDay, String?) {
            if c.sure { return (TimeOfDay(hour: c.hour, minute: c.minute), nil) }
            var h = c.hour
            switch context {
            case "morning": if h == 12 { h = 0 }
            case "afternoon", "evening": if h < 12 { h += 12 }
            case "night":
                if h < 12 && h >= 5 { h += 12 } else if h == 12 { h = 0 }
            default:
                if (1...6).contains(h) { h += 12 }
                let tm = TimeOfDay(hour: h, minute: c.minute)
                return (tm, "'\(c.text)' read as \(tm)")
            }
            return (TimeOfDay(hour: h, minute: c.minute), nil)
        }
        if let (c, _) = clockSet {
            let (tm, note) = settle(c, context: partOfDay)
            time = tm
            if let n = note { assumptions.append(n) }
        } else if let p = partOfDay {
            let defaults: [String: Int] = ["morning": 8, "afternoon": 14, "evening": 18, "night": 21]
            let h = p == "night" && w(0) != "" && t.contains(where: { $0.word == "tonight" }) ? 20 : defaults[p]!
            time = TimeOfDay(hour: h, minute: 0)
            let said = t.contains(where: { $0.word == "tonight" }) ? "tonight" : p
            assumptions.append("'\(said)' read as \(time!)")
        }
        if let (a, b) = rangeClocks {
            var s = settle(a, context: nil).0
            var e = settle(b, context: nil).0
            // Bare hours read as a day-time range: "from 9 to 6" is 09:00-18:00, "from 8 to 7" 08:00-19:00.
            if !a.sure, a.hour <= 12 { s = TimeOfDay(hour: a.hour == 12 ? 12 : (a.hour < 7 ? a.hour + 12 : a.hour), minute: a.minute) }
            if !b.sure, b.hour <= 12 { e = TimeOfDay(hour: b.hour, minute: b.minute) }
            if !b.sure && e <= s && e.hour < 12 { e = TimeOfDay(hour: e.hour + 12, minute: e.minute) }
            if !a.sure || !b.sure { assumptions.append("'\(a.text)-\(b.text)' read as \(s)-\(e)") }
            if e < s { assumptions.append("\(s)-\(e) runs overnight") }
            rec.rangeStart = s
            rec.rangeEnd = e
        }
        if !exceptDays.isEmpty {
            if rec.repeats && (rec.kind == .daily || rec.unit == .week || (rec.unit == .day && rec.interval == 1)) {
                let base = rec.days.isEmpty ? (rec.kind == .daily || rec.unit == .day ? [0, 1, 2, 3, 4, 5, 6] : []) : rec.days
                let left = base.filter { !exceptDays.contains($0) }
                if left.isEmpty || base.isEmpty {
                    warnings.append("'except \(exceptDays.map(Weekdays.display).joined(separator: ","))' leaves no day of the rule")
                } else if rec.kind == .daily || rec.kind == .weekly {
                    rec = Recurrence(kind: .weekly, days: left, basedOnCompletion: rec.basedOnCompletion)
                } else {
                    rec.days = left
                }
            } else if rec.repeats && rec.unit == .hour {
                rec.days = (rec.days.isEmpty ? [0, 1, 2, 3, 4, 5, 6] : rec.days).filter { !exceptDays.contains($0) }
            } else {
                warnings.append("'except' works with daily and weekly rules; yomo could not place it here")
            }
        }
        if let u = until {
            if rec.repeats { rec.until = u } else { warnings.append("'until \(u)' needs a repeating rule") }
        }
        if let c = count {
            if rec.repeats { rec.count = c } else { warnings.append("'\(c) times' needs a repeating rule") }
        }
        // A weekly rule with a date but no days takes the day of its date.
        if rec.kind == .weekly && rec.days.isEmpty, let d = date { rec.days = [d.weekday] }

        var exact: Instant? = nil
        if let r = relative {
            let l = zone.local(r)
            if date != nil || clockSet != nil {
                if conflict == nil { conflict = "a relative time and a date or time in one sentence: say one of them" }
            }
            date = l.day
            time = TimeOfDay(hour: l.time.hour, minute: l.time.minute)
            exact = Instant(ms: r.ms / 60_000 * 60_000)
        }
        if rec.repeats {
            for k in t.indices where !used[k] && ["repeat", "repeats", "repeating", "recurring"].contains(t[k].word) { used[k] = true }
        }
        // Whatever promised a repeat but was not placed.
        var k = 0
        while k < t.count {
            if !used[k] && (recurrenceWords.contains(t[k].word) || (t[k].word == "times" && k > 0 && number(w(k - 1)) != nil)
                            || (t[k].word == "other" && w(k - 1) == "every")) {
                var end = k + 1
                while end < t.count && !used[end] && end - k < 4 { end += 1 }
                let start = k > 0 && !used[k - 1] && number(w(k - 1)) != nil ? k - 1 : k
                let said = (start..<end).map { t[$0].raw.isEmpty ? t[$0].word : t[$0].raw }.joined(separator: " ")
                if !warnings.contains(where: { $0.contains("'\(said)'") }) {
                    warnings.append("could not place '\(said)' as a rule")
                }
                k = end
                continue
            }
            k += 1
        }
        var title = zip(t, used).filter { !$0.1 && !$0.0.raw.isEmpty }.map { $0.0.raw }.joined(separator: " ")
        while let last = title.last, ",;:-.".contains(last) { title.removeLast() }
        title = title.trimmingSpaces
        return ParsedReminder(title: title, date: date, time: time, recurrence: rec, assumptions: assumptions,
                              warnings: warnings, conflict: conflict, exact: exact)
    }

    /// "12/05" (month/day, as in the US), "12/05/2026", "12/5/27".
    static func slashDate(_ w: String, today: Day) -> (Day, String)? {
        let parts = w.split(separator: "/")
        guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }),
              let m = Int(parts[0]), let d = Int(parts[1]), (1...12).contains(m), (1...31).contains(d) else { return nil }
        let name = months[m - 1].prefix(1).uppercased() + months[m - 1].dropFirst()
        if parts.count == 3, var y = Int(parts[2]) {
            if y < 100 { y += 2000 }
            let day = Day(year: y, month: m, day: d)
            guard day.isValid else { return nil }
            return (day, "'\(w)' read as \(name) \(d), \(y) (month/day)")
        }
        guard let day = nextDate(month: m, day: d, from: today) else { return nil }
        return (day, "'\(w)' read as \(name) \(d) (month/day)")
    }

    /// The next day (today or later) whose day of month is `n`.
    static func nextDayOfMonth(_ n: Int, from today: Day) -> Day? {
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

    static func nextDate(month m: Int, day d: Int, from today: Day) -> Day? {
        for y in today.year...(today.year + 8) {
            let c = Day(year: y, month: m, day: d)
            if c.isValid && c >= today { return c }
        }
        return nil
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
