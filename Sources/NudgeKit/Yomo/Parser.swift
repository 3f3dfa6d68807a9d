// yomo's built-in natural-language parser: deterministic and offline. It
// fills the reminder form (title, date, time, recurrence) from a sentence.
// What it cannot place stays in the title; where English is ambiguous
// ("at 9") it picks a reading and says so in `assumptions`.

public struct ParsedReminder: Equatable, Sendable {
    public var title: String
    public var date: Day?
    public var time: TimeOfDay?
    public var recurrence: Recurrence
    public var assumptions: [String]
    /// What the parser could not place: `add` refuses the sentence unless
    /// --literal or options settle it; never a silent one-off.
    public var problems: [String] = []
    /// "in 20 minutes": the exact instant (elapsed time, even in a repeated
    /// fall-back hour, where the local time alone is ambiguous).
    public var exact: Instant? = nil

    public init(title: String, date: Day?, time: TimeOfDay?, recurrence: Recurrence, assumptions: [String], problems: [String] = []) {
        self.title = title
        self.date = date
        self.time = time
        self.recurrence = recurrence
        self.assumptions = assumptions
        self.problems = problems
    }

    /// The seed's JSON schema, plus `assumptions` and `problems`.
    public var record: JSONObject {
        ["title": .string(title), "date": JSON(date?.description), "time": JSON(time?.description),
         "recurrence_type": .string(recurrence.kind.rawValue), "recurrence_rule": recurrence.ruleJSON,
         "assumptions": JSON(assumptions), "problems": JSON(problems)]
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
                              "twenty": 20, "thirty": 30, "forty": 40, "forty-five": 45, "fifty": 50, "sixty": 60]
    static let ordinalWords = ["first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1]
    /// Common misspellings, read as meant.
    static let typos = ["tommorow": "tomorrow", "tomorow": "tomorrow", "tommorrow": "tomorrow", "tmrw": "tomorrow", "tmr": "tomorrow",
                        "tomoro": "tomorrow", "2morrow": "tomorrow", "tonite": "tonight", "wensday": "wednesday", "wednsday": "wednesday",
                        "thrusday": "thursday", "thurday": "thursday", "saterday": "saturday", "fri": "fri", "evry": "every", "everyday": "daily",
                        "fortnightly": "biweekly", "bi-weekly": "biweekly", "mins": "minutes", "hrs": "hours"]
    /// Words that make a rule; one left in the title means the parser could not place it.
    static let ruleWords: Set<String> = ["every", "each", "daily", "weekly", "monthly", "hourly", "biweekly", "yearly", "annually",
                                         "weekdays", "weekends", "except", "minutely"]
    static let months = ["january", "february", "march", "april", "may", "june", "july", "august",
                         "september", "october", "november", "december"]

    static func tokenize(_ text: String) -> [Token] {
        var out: [Token] = []
        for piece in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            var raw = String(piece)
            var comma = false
            var word = raw.lowercased()
            while let last = word.last, ",.;!?".contains(last) {
                if last == "," { comma = true }
                word.removeLast()
            }
            if word.isEmpty {
                if !out.isEmpty { out[out.count - 1].commaAfter = out[out.count - 1].commaAfter || comma }
                continue
            }
            if raw.hasSuffix(",") && !raw.dropLast().isEmpty { raw = String(raw.dropLast()) }
            if let fixed = typos[word] { word = fixed }
            out.append(Token(raw: raw, word: word, commaAfter: comma))
        }
        return out
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
        if w.count >= 3, let i = months.firstIndex(where: { $0.hasPrefix(w) }), w != "mar" || true { return i + 1 }
        return nil
    }

    /// A clock time at tokens[i...]: (time, tokens used, an assumption if the
    /// reading was a guess, whether am/pm or a colon made it unambiguous).
    static func clock(_ t: [Token], _ i: Int) -> (TimeOfDay, Int, String?, Bool)? {
        guard i < t.count else { return nil }
        var w = t[i].word
        if w == "noon" || w == "midday" { return (TimeOfDay(hour: 12, minute: 0), 1, nil, true) }
        if w == "midnight" { return (TimeOfDay(hour: 0, minute: 0), 1, nil, true) }
        var used = 1
        var suffix: String? = nil
        for s in ["am", "pm", "a.m", "p.m"] where w.hasSuffix(s) && w.count > s.count {
            suffix = String(s.prefix(1))
            w = String(w.dropLast(s.count))
        }
        if suffix == nil && !t[i].commaAfter, i + 1 < t.count, ["am", "pm", "a.m", "p.m"].contains(t[i + 1].word) {
            suffix = String(t[i + 1].word.prefix(1))
            used = 2
        }
        var hour: Int
        var minute = 0
        // 9.30 as 9:30
        if let dot = w.firstIndex(of: "."), w[w.index(after: dot)...].count == 2, Int(w[..<dot]) != nil, Int(w[w.index(after: dot)...]) != nil {
            w = String(w[..<dot]) + ":" + String(w[w.index(after: dot)...])
        }
        let parts = w.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard let h = Int(parts[0]), parts[1].count == 2, let m = Int(parts[1]), m < 60 else { return nil }
            hour = h
            minute = m
        } else if parts.count == 1, let h = Int(w), w.count <= 2 {
            hour = h
        } else {
            return nil
        }
        if let s = suffix {
            guard (1...12).contains(hour) else { return nil }
            if s == "p" && hour < 12 { hour += 12 }
            if s == "a" && hour == 12 { hour = 0 }
            return (TimeOfDay(hour: hour, minute: minute), used, nil, true)
        }
        guard hour < 24 else { return nil }
        // 24-hour notation says itself: 09:30, 15:15, 0:30.
        if parts.count == 2 && (parts[0].count == 2 || hour == 0 || hour >= 13) {
            return (TimeOfDay(hour: hour, minute: minute), used, nil, true)
        }
        // Without am/pm, h and h:mm alike: 7-11 in the morning, 12 noon,
        // 1-6 in the afternoon; said as an assumption.
        let written = parts.count == 2 ? "\(hour):\(parts[1])" : "\(hour)"
        let h24 = (1...6).contains(hour) ? hour + 12 : hour
        let tm = TimeOfDay(hour: h24, minute: minute)
        return (tm, used, "'\(written)' read as \(tm)", false)
    }

    /// A list of weekdays: "mon, wed and fri", "monday and thursday".
    static func dayList(_ t: [Token], _ i: Int) -> ([Int], Int)? {
        var days: [Int] = []
        var j = i
        while j < t.count, let d = weekday(t[j].word) {
            days.append(d)
            j += 1
            if j < t.count && (t[j].word == "and" || t[j].word == "&") && j + 1 < t.count && weekday(t[j + 1].word) != nil {
                j += 1
            } else if !t[j - 1].commaAfter && !(j < t.count && weekday(t[j].word) != nil && Weekdays.parse(t[j].word) != nil) {
                break
            }
        }
        return days.isEmpty ? nil : (Weekdays.sorted(days), j - i)
    }

    public static func parse(_ text: String, now: Instant, zone: Zone) -> ParsedReminder {
        let t = tokenize(text)
        var used = [Bool](repeating: false, count: t.count)
        let today = zone.day(of: now)
        var date: Day? = nil
        var time: TimeOfDay? = nil
        var rec = Recurrence.once
        var assumptions: [String] = []
        var relative: Instant? = nil
        var tonight = false
        var guessedHour: (Int, Int)? = nil  // (index in assumptions, hour as written)
        var problems: [String] = []
        var partOfDay: String? = nil        // "morning", "evening", ...: a default time and a reading of bare hours
        var timeClauses = 0

        func w(_ k: Int) -> String { k < t.count ? t[k].word : "" }
        func take(_ from: Int, _ n: Int) { for k in from..<min(t.count, from + n) { used[k] = true } }

        /// "from 9 to 6", "between 9 and 18": a daily hour range.
        func range(_ k: Int) -> (TimeOfDay, TimeOfDay, Int)? {
            guard w(k) == "from" || w(k) == "between", let (a, na, _, aSure) = clock(t, k + 1) else { return nil }
            let sep = k + 1 + na
            guard w(sep) == "to" || w(sep) == "and" || w(sep) == "until" || w(sep) == "till",
                  let (b0, nb, _, bSure) = clock(t, sep + 1) else { return nil }
            var s = a, e = b0
            // Read as written when am/pm or colons say so; else a day-time range.
            if !aSure, let h = Int(w(k + 1)), h <= 12 { s = TimeOfDay(hour: h == 12 ? 12 : (h < 7 ? h + 12 : h), minute: 0) }
            if !bSure, let h = Int(w(sep + 1)), h <= 12 { e = TimeOfDay(hour: h, minute: 0) }
            if !bSure && e <= s && e.hour < 12 { e = TimeOfDay(hour: e.hour + 12, minute: e.minute) }
            if !aSure || !bSure { assumptions.append("'\(t[k + 1].word)-\(t[sep + 1].word)' read as \(s)-\(e)") }
            return (s, e, sep + 1 + nb - k)
        }

        var i = 0
        // "remind me to …"
        if w(0) == "remind" && w(1) == "me" { take(0, w(2) == "to" ? 3 : 2); i = w(2) == "to" ? 3 : 2 }
        while i < t.count {
            if used[i] { i += 1; continue }
            let word = w(i)

            // ---- recurrence: "every …"
            if word == "every" || word == "each" {
                var j = i + 1
                var n = 1
                var explicitN = false
                if w(j) == "other" { n = 2; j += 1; explicitN = true }
                else if let k = number(w(j)), k >= 1, w(j + 1) != "" , weekday(w(j)) == nil {
                    n = k; j += 1; explicitN = true
                }
                let unitWord = w(j)
                if ["morning", "mornings", "afternoon", "afternoons", "evening", "evenings", "night", "nights"].contains(unitWord) && !explicitN {
                    rec = Recurrence(kind: .daily)
                    partOfDay = unitWord.hasSuffix("s") ? String(unitWord.dropLast()) : unitWord
                    take(i, j + 1 - i); i = j + 1; continue
                }
                if ["minute", "minutes", "min", "m"].contains(unitWord) {
                    if n % 60 == 0 {
                        rec = Recurrence(kind: .custom, interval: n / 60, unit: .hour)
                        take(i, j + 1 - i)
                        if let (s, e, len) = range(j + 1) { rec.rangeStart = s; rec.rangeEnd = e; take(j + 1, len) }
                        i = j + 1
                        continue
                    }
                    problems.append("'every \(n) minutes': the finest unit is the hour (every 1 hour, every 2 hours, ...)")
                    i += 1; continue
                }
                if ["year", "years"].contains(unitWord) {
                    problems.append("'every year': yearly rules are not supported; use --repeat custom --every 12 --unit month")
                    i += 1; continue
                }
                // "every 3rd wednesday", "every last friday": monthly on an ordinal weekday
                if let o = ordinal(w(j)), o <= 5, let wd = weekday(w(j + 1)) {
                    rec = Recurrence(kind: .custom, interval: 1, unit: .month, monthOrdinal: o, monthWeekday: wd)
                    var end = j + 2
                    if w(end) == "of" && ["the", "every", "each"].contains(w(end + 1)) && w(end + 2) == "month" { end += 3 }
                    take(i, end - i); i = end; continue
                }
                if ["hour", "hours", "hr", "hrs", "h"].contains(unitWord) {
                    rec = Recurrence(kind: .custom, interval: n, unit: .hour)
                    take(i, j + 1 - i)
                    if let (s, e, len) = range(j + 1) { rec.rangeStart = s; rec.rangeEnd = e; take(j + 1, len) }
                    i = j + 1
                    continue
                }
                if ["day", "days"].contains(unitWord) {
                    rec = n == 1 ? Recurrence(kind: .daily) : Recurrence(kind: .custom, interval: n, unit: .day)
                    take(i, j + 1 - i); i = j + 1; continue
                }
                if ["weekday", "weekdays"].contains(unitWord) && !explicitN {
                    rec = Recurrence(kind: .weekly, days: [1, 2, 3, 4, 5])
                    take(i, j + 1 - i); i = j + 1; continue
                }
                if ["weekend", "weekends"].contains(unitWord) && !explicitN {
                    rec = Recurrence(kind: .weekly, days: [6, 0])
                    take(i, j + 1 - i); i = j + 1; continue
                }
                if ["week", "weeks"].contains(unitWord) {
                    var days: [Int] = []
                    var end = j + 1
                    if w(end) == "on", let (ds, len) = dayList(t, end + 1) { days = ds; end += 1 + len }
                    rec = (n == 1 && days.count <= 1 && !explicitN)
                        ? Recurrence(kind: .weekly, days: days)
                        : Recurrence(kind: .custom, interval: n, unit: .week, days: days)
                    take(i, end - i); i = end; continue
                }
                if ["month", "months"].contains(unitWord) {
                    rec = Recurrence(kind: .custom, interval: n, unit: .month)
                    var end = j + 1
                    if w(end) == "on" && w(end + 1) == "the", let o = ordinal(w(end + 2)), let wd = weekday(w(end + 3)), o <= 5 {
                        rec.monthOrdinal = o; rec.monthWeekday = wd; end += 4
                    } else if w(end) == "on" && w(end + 1) == "the", let o = ordinal(w(end + 2)), o >= 1 {
                        // "every month on the 15th": the day of month is the anchor's.
                        if let d = nextDayOfMonth(o, from: today) { date = d; end += 3 }
                    }
                    take(i, end - i); i = end; continue
                }
                if let (days, len) = dayList(t, j) {
                    rec = explicitN ? Recurrence(kind: .custom, interval: n, unit: .week, days: days)
                                    : Recurrence(kind: .weekly, days: days)
                    take(i, j + len - i); i = j + len; continue
                }
                i += 1  // "every" something we do not know: stays in the title
                continue
            }
            if ["daily", "hourly", "weekly", "monthly", "biweekly"].contains(word) {
                switch word {
                case "daily": rec = Recurrence(kind: .daily)
                case "hourly": rec = Recurrence(kind: .custom, interval: 1, unit: .hour)
                case "weekly": rec = Recurrence(kind: .weekly)
                case "biweekly": rec = Recurrence(kind: .custom, interval: 2, unit: .week)
                default: rec = Recurrence(kind: .custom, interval: 1, unit: .month)
                }
                take(i, 1); i += 1
                if word == "biweekly" || word == "weekly", w(i) == "on", let (ds, len) = dayList(t, i + 1) {
                    rec.days = ds; take(i, 1 + len); i += 1 + len
                }
                continue
            }
            if ["yearly", "annually"].contains(word) {
                problems.append("'\(word)': yearly rules are not supported; use --repeat custom --every 12 --unit month")
                i += 1; continue
            }
            // ---- "except friday", "but not fri": days left out of a weekly rule
            if (word == "except" || word == "excluding" || (word == "but" && w(i + 1) == "not")) && !rec.days.isEmpty || (word == "except" && rec.kind == .daily) {
                let k = word == "but" ? i + 2 : i + 1
                if let (ds, len) = dayList(t, k) {
                    if rec.kind == .daily { rec = Recurrence(kind: .weekly, days: [0, 1, 2, 3, 4, 5, 6]) }
                    rec.days = rec.days.filter { !ds.contains($0) }
                    take(i, k + len - i); i = k + len; continue
                }
            }
            // "mon-fri": a weekly rule on those days
            if word.contains("-"), !rec.repeats || rec.kind == .weekly {
                let ends = word.split(separator: "-").map(String.init)
                if ends.count == 2, let a = Weekdays.parse(ends[0]), let b = Weekdays.parse(ends[1]) {
                    var ds: [Int] = []
                    var d = a
                    while ds.count < 7 { ds.append(d); if d == b { break }; d = (d + 1) % 7 }
                    rec = Recurrence(kind: .weekly, days: Weekdays.sorted(ds))
                    assumptions.append("'\(word)' read as every \(Weekdays.sorted(ds).map { Weekdays.display($0) }.joined(separator: ", "))")
                    take(i, 1); i += 1; continue
                }
            }
            // "on tuesdays", "tuesdays": every Tuesday
            if !rec.repeats, word.hasSuffix("s"), Weekdays.parse(word) == nil, let d = weekday(word) {
                let k = i > 0 && w(i - 1) == "on" && !used[i - 1] ? i - 1 : i
                rec = Recurrence(kind: .weekly, days: [d])
                take(k, i + 1 - k); i += 1; continue
            }
            if (word == "on" && w(i + 1) == "weekdays") || (word == "weekdays" && i > 0) {
                rec = Recurrence(kind: .weekly, days: [1, 2, 3, 4, 5])
                take(i, word == "on" ? 2 : 1); i += word == "on" ? 2 : 1; continue
            }
            // ---- "on the 2nd tuesday of every month", "the last friday of the month"
            do {
                var k = i
                if w(k) == "on" { k += 1 }
                if w(k) == "the" { k += 1 }
                if let o = ordinal(w(k)), o <= 5, let wd = weekday(w(k + 1)), w(k + 2) == "of",
                   ["every", "each", "the", "this"].contains(w(k + 3)), w(k + 4) == "month" {
                    rec = Recurrence(kind: .custom, interval: 1, unit: .month, monthOrdinal: o, monthWeekday: wd)
                    take(i, k + 5 - i); i = k + 5; continue
                }
            }
            // ---- from completion
            if word == "after" || word == "from" {
                let phrases: [[String]] = [["i", "finish", "it"], ["i", "finish"], ["i've", "finished", "it"], ["i", "complete", "it"],
                                           ["i", "complete"], ["completion"], ["done"], ["i'm", "done"], ["i", "am", "done"],
                                           ["finishing"], ["finishing", "it"], ["completing", "it"], ["i", "do", "it"], ["it's", "done"]]
                if let p = phrases.sorted(by: { $0.count > $1.count }).first(where: { p in p.enumerated().allSatisfy { w(i + 1 + $0.offset) == $0.element } }) {
                    if rec.repeats {
                        let (n, unit) = rec.effective
                        rec = Recurrence(kind: .custom, interval: n, unit: unit, days: rec.days, basedOnCompletion: true)
                        take(i, 1 + p.count); i += 1 + p.count; continue
                    }
                }
            }
            // ---- relative: "in 20 minutes", "in an hour", "in half an hour"
            if word == "in" {
                var n: Int? = nil
                var k = i + 1
                if w(k) == "half" && (w(k + 1) == "an" || w(k + 1) == "a") && w(k + 2) == "hour" {
                    relative = Instant(ms: now.ms + 30 * 60_000); take(i, 4); i += 4; continue
                }
                var compactUnit: String? = nil
                if w(k) == "a" || w(k) == "an" { n = 1; k += 1 } else if let m = number(w(k)) { n = m; k += 1 }
                else {
                    // "2h", "30m", "90min", "1hr"
                    let c = w(k)
                    let digits = c.prefix { $0.isNumber }
                    if !digits.isEmpty, let m = Int(digits), ["h", "hr", "m", "min", "d"].contains(String(c.dropFirst(digits.count))) {
                        n = m
                        compactUnit = String(c.dropFirst(digits.count))
                    }
                }
                if let n = n {
                    var unit = w(k)
                    if let cu = compactUnit { unit = ["h": "hours", "hr": "hours", "m": "minutes", "min": "minutes", "d": "days"][cu]! }
                    var seconds: Int64? = nil
                    if ["minute", "minutes", "min", "mins"].contains(unit) { seconds = Int64(n) * 60 }
                    if ["hour", "hours", "hr", "hrs"].contains(unit) { seconds = Int64(n) * 3600 }
                    if ["day", "days"].contains(unit) { seconds = Int64(n) * 86400 }
                    if ["week", "weeks"].contains(unit) { seconds = Int64(n) * 7 * 86400 }
                    if let s = seconds {
                        if s >= 86400 {
                            date = today.adding(days: Int(s / 86400))
                        } else {
                            relative = Instant(ms: now.ms + s * 1000)
                        }
                        take(i, k + 1 - i); i = k + 1; continue
                    }
                }
            }
            // ---- a time of day
            if word == "at" || word == "@", let (tm, n, guess, _) = clock(t, i + 1) {
                timeClauses += 1
                if timeClauses > 1 {
                    problems.append("two times in one sentence ('\(t[i + 1].raw)' after \(time?.description ?? "another")): one reminder has one rule; add two reminders")
                    take(i, 1 + n); i += 1 + n; continue
                }
                time = tm
                if let g = guess {
                    guessedHour = (assumptions.count, Int(w(i + 1).prefix { $0.isNumber }) ?? tm.hour)
                    assumptions.append(g)
                }
                take(i, 1 + n); i += 1 + n
                if let (s, e, len) = range(i), rec.unit == .hour && rec.repeats { rec.rangeStart = s; rec.rangeEnd = e; take(i, len); i += len }
                continue
            }
            if let (tm, n, _, sure) = clock(t, i), sure, word.contains(":") || word.hasSuffix("m") || word == "noon" || word == "midnight" || w(i + 1) == "am" || w(i + 1) == "pm" {
                timeClauses += 1
                if timeClauses > 1 {
                    problems.append("two times in one sentence ('\(t[i].raw)' after \(time?.description ?? "another")): one reminder has one rule; add two reminders")
                    take(i, n); i += n; continue
                }
                time = tm
                take(i, n); i += n; continue
            }
            if rec.unit == .hour && rec.repeats, let (s, e, len) = range(i) {
                rec.rangeStart = s; rec.rangeEnd = e; take(i, len); i += len; continue
            }
            // ---- dates
            if word == "today" { date = today; take(i, 1); i += 1; continue }
            if word == "tonight" {
                tonight = true
                date = today
                if time == nil && !t[(i + 1)...].contains(where: { $0.word == "at" }) {
                    time = TimeOfDay(hour: 20, minute: 0)
                    assumptions.append("'tonight' read as 20:00")
                }
                take(i, 1); i += 1; continue
            }
            if word == "tomorrow" { date = today.adding(days: 1); take(i, 1); i += 1; continue }
            if word == "day" && w(i + 1) == "after" && w(i + 2) == "tomorrow" {
                date = today.adding(days: 2); take(i, 3); i += 3; continue
            }
            do {
                var k = i
                var lead = false
                if ["on", "next", "this", "coming"].contains(w(k)) { lead = true; k += 1 }
                if w(k) == "on" { k += 1 }
                // "on mon and wed": more than one day is a weekly rule
                if let (ds, len) = dayList(t, k), ds.count > 1 {
                    if rec.repeats && rec.effective.unit == .week || !rec.repeats {
                        if !rec.repeats { assumptions.append("'\(t[k..<(k + len)].map(\.word).joined(separator: " "))' read as every \(ds.map { Weekdays.display($0) }.joined(separator: ", "))") }
                        if !rec.repeats { rec = Recurrence(kind: .weekly, days: ds) } else { rec.days = ds }
                        take(i, k + len - i); i = k + len; continue
                    }
                }
                if (w(k) == "weekend") && ["this", "next", "coming", "on"].contains(w(i)) || (w(i) == "weekend" && k == i) {
                    var ahead = (6 - today.weekday + 7) % 7
                    if w(i) == "next" && ahead < 7 { ahead += ahead == 0 ? 7 : 0 }
                    date = today.adding(days: ahead)
                    assumptions.append("'\(w(i) == "weekend" ? "weekend" : w(i) + " weekend")' read as Saturday \(date!)")
                    take(i, k + 1 - i); i = k + 1; continue
                }
                if let wd = weekday(w(k)), !w(k).hasSuffix("s") || Weekdays.parse(w(k)) != nil {
                    var ahead = (wd - today.weekday + 7) % 7
                    if ahead == 0 { ahead = 7 }
                    if w(i) == "next" { assumptions.append("'next \(t[k].word)' read as \(today.adding(days: ahead))") }
                    date = today.adding(days: ahead)
                    take(i, k + 1 - i); i = k + 1; continue
                }
                _ = lead
            }
            do {
                var k = i
                if w(k) == "on" { k += 1 }
                if w(k) == "the", let o = ordinal(w(k + 1)), o >= 1, w(k + 2) == "of", let m = month(w(k + 3)), w(k + 3).count >= 3 {
                    if let d = nextDate(month: m, day: o, from: today) { date = d; take(i, k + 4 - i); i = k + 4; continue }
                }
                if w(k) == "the", let o = ordinal(w(k + 1)), o >= 1, !(weekday(w(k + 2)) != nil) {
                    if let d = nextDayOfMonth(o, from: today) {
                        date = d
                        take(i, k + 2 - i); i = k + 2
                        if w(i) == "of" && (w(i + 1) == "the" || w(i + 1) == "this") && w(i + 2) == "month" { take(i, 3); i += 3 }
                        continue
                    }
                }
                // "dec 24", "december 24th", "24 december", "24th of december", "2026-12-24"
                if let d = Day.parse(w(k)) { date = d; take(i, k + 1 - i); i = k + 1; continue }
                // US dates: 12/05, 12/5/2026 (month first)
                let slash = w(k).split(separator: "/", omittingEmptySubsequences: false)
                if (2...3).contains(slash.count), let m = Int(slash[0]), let dd = Int(slash[1]), (1...12).contains(m), (1...31).contains(dd) {
                    var d: Day? = nil
                    if slash.count == 3, var y = Int(slash[2]) {
                        if y < 100 { y += 2000 }
                        let c = Day(year: y, month: m, day: dd)
                        if c.isValid { d = c }
                    } else if slash.count == 2 {
                        d = nextDate(month: m, day: dd, from: today)
                    }
                    if let d = d {
                        date = d
                        assumptions.append("'\(w(k))' read as month/day: \(months[m - 1].prefix(1).uppercased() + months[m - 1].dropFirst()) \(dd), \(d.year)")
                        take(i, k + 1 - i); i = k + 1; continue
                    }
                }
                if let m = month(w(k)), let dd = ordinal(w(k + 1)) ?? Int(w(k + 1)).flatMap({ (1...31).contains($0) ? $0 : nil }) {
                    if let d = nextDate(month: m, day: dd, from: today) { date = d; take(i, k + 2 - i); i = k + 2; continue }
                }
                if let dd = ordinal(w(k)) ?? Int(w(k)).flatMap({ (1...31).contains($0) ? $0 : nil }) {
                    var mk = k + 1
                    if w(mk) == "of" { mk += 1 }
                    if let m = month(w(mk)), mk > k, w(mk).count >= 3, let d = nextDate(month: m, day: dd, from: today) {
                        date = d; take(i, mk + 1 - i); i = mk + 1; continue
                    }
                }
            }
            i += 1
        }

        // "tonight at 9" is in the evening whatever the bare-hour rule says.
        if tonight, let (k, h) = guessedHour, h < 12, let tm = time, tm.hour < 12 {
            time = TimeOfDay(hour: h + 12, minute: tm.minute)
            assumptions[k] = "'\(h)' read as \(TimeOfDay(hour: h + 12, minute: tm.minute))"
        }
        // The words around a bare hour say morning or evening.
        let words = Set(t.map(\.word))
        let morningWords: Set<String> = ["wake", "breakfast", "morning", "mornings", "sunrise"]
        let eveningWords: Set<String> = ["dinner", "evening", "evenings", "night", "nights", "bed", "bedtime", "tonight"]
        if let (k, h) = guessedHour, let tm = time {
            if (partOfDay == "morning" || !words.isDisjoint(with: morningWords)) && tm.hour >= 12 && h < 12 {
                time = TimeOfDay(hour: h, minute: tm.minute)
                assumptions[k] = "'\(h)' read as \(time!) (morning)"
            } else if (["evening", "night"].contains(partOfDay ?? "") || !words.isDisjoint(with: eveningWords)) && tm.hour < 12 && h < 12 {
                time = TimeOfDay(hour: h + 12, minute: tm.minute)
                assumptions[k] = "'\(h)' read as \(time!) (evening)"
            }
        }
        if let part = partOfDay, time == nil {
            let defaults = ["morning": 8, "afternoon": 14, "evening": 19, "night": 21]
            time = TimeOfDay(hour: defaults[part] ?? 9, minute: 0)
            assumptions.append("'every \(part)' read as daily at \(time!)")
        }
        if let r = relative {
            let l = zone.local(r)
            date = l.day
            time = TimeOfDay(hour: l.time.hour, minute: l.time.minute)
        }
        // A weekly rule with no days takes the day of its date.
        var title = zip(t, used).filter { !$0.1 }.map { $0.0.raw }.joined(separator: " ")
        while let last = title.last, ",;:-.".contains(last) { title.removeLast() }
        title = title.trimmingSpaces
        // A rule word left over means a rule the parser could not place.
        let left = zip(t, used).filter { !$0.1 && ruleWords.contains($0.0.word) }.map(\.0.raw)
        if !left.isEmpty && problems.isEmpty {
            problems.append("'\(left.joined(separator: " "))' could not be placed in a rule; say it with --repeat, --every, --unit, --days")
        }
        var p = ParsedReminder(title: title, date: date, time: time, recurrence: rec, assumptions: assumptions, problems: problems)
        if !rec.repeats, let r = relative { p.exact = r }
        return p
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
