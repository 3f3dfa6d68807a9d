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

    /// The seed's JSON schema, plus `assumptions`.
    public var record: JSONObject {
        ["title": .string(title), "date": JSON(date?.description), "time": JSON(time?.description),
         "recurrence_type": .string(recurrence.kind.rawValue), "recurrence_rule": recurrence.ruleJSON,
         "assumptions": JSON(assumptions)]
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
        if parts.count == 2 { return (TimeOfDay(hour: hour, minute: minute), used, nil, true) }
        // A bare hour: 7-11 in the morning, 12 noon, 1-6 in the afternoon.
        if (1...6).contains(hour) {
            return (TimeOfDay(hour: hour + 12, minute: 0), used, "'\(hour)' read as \(hour + 12):00", false)
        }
        if (7...11).contains(hour) {
            return (TimeOfDay(hour: hour, minute: 0), used, "'\(hour)' read as \(hour < 10 ? "0" : "")\(hour):00", false)
        }
        return (TimeOfDay(hour: hour, minute: 0), used, nil, false)
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
            } else if !t[j - 1].commaAfter {
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
            if e <= s && e.hour < 12 { e = TimeOfDay(hour: e.hour + 12, minute: e.minute) }
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
            if ["daily", "hourly", "weekly", "monthly"].contains(word) {
                switch word {
                case "daily": rec = Recurrence(kind: .daily)
                case "hourly": rec = Recurrence(kind: .custom, interval: 1, unit: .hour)
                case "weekly": rec = Recurrence(kind: .weekly)
                default: rec = Recurrence(kind: .custom, interval: 1, unit: .month)
                }
                take(i, 1); i += 1; continue
            }
            if (word == "on" && w(i + 1) == "weekdays") || (word == "weekdays" && i > 0) {
                rec = Recurrence(kind: .weekly, days: [1, 2, 3, 4, 5])
                take(i, word == "on" ? 2 : 1); i += word == "on" ? 2 : 1; continue
            }
            // ---- "on the 2nd tuesday of every month", "the last friday of the month"
            do {
                var k = i
                if w(k) == "on" { k += 1 }
                if w(k) == "the", let o = ordinal(w(k + 1)), o <= 5, let wd = weekday(w(k + 2)), w(k + 3) == "of",
                   ["every", "each", "the"].contains(w(k + 4)), w(k + 5) == "month" {
                    rec = Recurrence(kind: .custom, interval: 1, unit: .month, monthOrdinal: o, monthWeekday: wd)
                    take(i, k + 6 - i); i = k + 6; continue
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
                if w(k) == "a" || w(k) == "an" { n = 1; k += 1 } else if let m = number(w(k)) { n = m; k += 1 }
                if let n = n {
                    let unit = w(k)
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
                time = tm
                if let g = guess {
                    guessedHour = (assumptions.count, Int(w(i + 1)) ?? tm.hour)
                    assumptions.append(g)
                }
                take(i, 1 + n); i += 1 + n
                if let (s, e, len) = range(i), rec.unit == .hour && rec.repeats { rec.rangeStart = s; rec.rangeEnd = e; take(i, len); i += len }
                continue
            }
            if let (tm, n, _, sure) = clock(t, i), sure, word.contains(":") || word.hasSuffix("m") || word == "noon" || word == "midnight" || w(i + 1) == "am" || w(i + 1) == "pm" {
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
            time = TimeOfDay(hour: h + 12, minute: 0)
            assumptions[k] = "'\(h)' read as \(h + 12):00"
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
        return ParsedReminder(title: title, date: date, time: time, recurrence: rec, assumptions: assumptions)
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
