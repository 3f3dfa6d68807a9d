// Times in a sentence: clock times ("at 3pm", "9:30", "noon", "midnight",
// "at 7 o'clock"), the hours of an hourly rule ("from 9 to 5", "9-17"),
// parts of the day ("this evening", "tomorrow morning", "in the afternoon",
// "at night"), and times counted from now ("in 20 minutes", "in half an
// hour", "in 3 days").
//
// Invariants: a clock time stays as written (`WrittenTime`) until the whole
// sentence is read, because a later word can settle a bare hour ("at 7 in
// the evening"). Then one rule settles it: am/pm, a 24-hour value, a leading
// zero, noon or midnight are sure; otherwise the part of the day decides,
// and without one 1-6 is afternoon, 7-11 morning and 12 noon, said in
// `assumptions`. "in N minutes/hours" is elapsed time, kept as an instant so
// that it is right in a repeated fall-back hour too.

extension ReminderParser.ParseState {
    /// Nouns a number follows as a name, not a time ("chapter 5", "gate 12").
    static let numberedNouns: Set<String> = [
        "chapter", "chapters", "set", "unit", "lesson", "aisle", "gate", "extension", "ext", "season", "episode", "ep", "take", "lane",
        "room", "page", "pages", "pp", "hw", "homework", "level", "grade", "floor", "bus", "route", "platform", "table", "row", "seat",
        "step", "part", "vol", "volume", "book", "no", "number", "question", "problem", "exercise", "section", "verse", "psalm", "track",
        "disc", "game", "round", "class", "period", "block", "court", "pitch", "stage", "phase", "sprint", "module", "lab", "lecture",
        "hole", "bay", "dock", "terminal", "building", "apt", "flat", "suite", "box", "locker", "ward", "bed", "year", "week", "day",
        "invoice", "inv", "order", "ticket", "ref", "case", "po", "job", "account", "acct", "policy", "claim",
        "hive", "hymn", "bars", "measure", "measures", "ch", "chs", "chap", "sz", "size", "pg", "pgs", "rd", "rnd",
    ]
    /// Places and things a number names that a time may also follow ("pick up van 3"): only before a date
    /// ("station 7 dec 19") is their number no day.
    static let numberedPlaces: Set<String> = numberedNouns.union([
        "station", "stall", "pen", "paddock", "shed", "engine", "truck", "ladder", "tank", "plot", "lot", "bar", "cow", "heifer", "store",
        "branch", "site", "van", "rig", "crew", "squad", "precinct", "district", "medic",
    ])

    /// A time of day as the sentence wrote it, before a bare hour's am/pm is
    /// settled (not the tools' `Clock`, which tells the current time).
    struct WrittenTime {
        var hour: Int
        var minute: Int
        /// am/pm, a 24-hour value, a leading zero, noon or midnight settle it.
        var sure: Bool
        var text: String

        /// The time of day, given the part of the day said with it, and the
        /// assumption to state when nothing settled a bare hour.
        func settled(partOfDay: String?) -> (TimeOfDay, String?) {
            if sure { return (TimeOfDay(hour: hour, minute: minute), nil) }
            var h = hour
            switch partOfDay {
            case "morning": if h == 12 { h = 0 }
            case "afternoon", "evening": if h < 12 { h += 12 }
            case "night":
                if h < 12 && h >= 5 { h += 12 } else if h == 12 { h = 0 }
            default:
                if (1...6).contains(h) { h += 12 }
                let tm = TimeOfDay(hour: h, minute: minute)
                return (tm, "'\(text)' read as \(tm)")
            }
            return (TimeOfDay(hour: h, minute: minute), nil)
        }
    }

    /// The hour a part of the day stands for when no time is said.
    static let usualHours: [String: Int] = ["morning": 8, "afternoon": 14, "evening": 18, "night": 21]

    /// A time of day at `t[i...]`: "3pm", "3 pm", "9:30", "9 o'clock",
    /// "noon", "midnight"; and how many tokens it used.
    static func writtenTime(_ t: [Token], _ i: Int) -> (WrittenTime, Int)? {
        guard i < t.count else { return nil }
        var w = t[i].word
        if w == "noon" || w == "midday" { return (WrittenTime(hour: 12, minute: 0, sure: true, text: w), 1) }
        if w == "midnight" { return (WrittenTime(hour: 0, minute: 0, sure: true, text: w), 1) }
        var used = 1
        var suffix: String? = nil
        // "9:40a", "9:40p": a clock time with am/pm shortened (only with minutes: "5p" may be pence).
        // "at 5p", "7p sat": after "at" or beside a day, without minutes too.
        // "fri night 11p": after a part of the day too.
        // ("lock the back door 11p" alone stays refused: "donate 10p" is pence.)
        // "every day 6a and 2p", "weekdays 1p", "12/8 10a": after a rule's days, a date or an earlier such time too.
        let shortBefore = i > 1 && ["and", "&"].contains(t[i - 1].word) && t[i - 2].word.first?.isNumber == true
            && (t[i - 2].word.hasSuffix("a") || t[i - 2].word.hasSuffix("p") || t[i - 2].word.hasSuffix("m"))
        let beside = (i > 0 && (["at", "@", "tonight", "day", "daily", "everyday", "weekdays", "weekends", "nightly"].contains(t[i - 1].word)
                                || ReminderLexicon.partsOfDay.contains(t[i - 1].word) || shortBefore
                                || (t[i - 1].word.contains("/") && t[i - 1].word.allSatisfy { $0.isNumber || $0 == "/" })))
            || [i - 1, i + 1].contains { $0 >= 0 && $0 < t.count && (Weekdays.parse(t[$0].word) != nil || ["today", "tomorrow", "tonight"].contains(t[$0].word)) }
        // Not a label's "apt 6a mon", "section 3a", "seat 12a": a number and a letter.
        let labelled = i > 0 && t[i - 1].word != "day" && (numberedPlaces.contains(t[i - 1].word) || labelWords.contains(t[i - 1].word))
        let short = (w.count > 4 && w.dropLast().contains(":") || (beside && !labelled && (2...5).contains(w.count) && w.dropLast().allSatisfy(\.isNumber)))
            && (w.hasSuffix("a") || w.hasSuffix("p")) ? [String(w.suffix(1))] : []
        for s in ["am", "pm", "a.m", "p.m"] + short where w.hasSuffix(s) && w.count > s.count {
            suffix = String(s.prefix(1))
            w = String(w.dropLast(s.count))
            break
        }
        if suffix == nil && !t[i].commaAfter, i + 1 < t.count, ["am", "pm", "a.m", "p.m"].contains(t[i + 1].word) {
            suffix = String(t[i + 1].word.prefix(1))
            used = 2
        }
        if suffix == nil, i + 1 < t.count, t[i + 1].word == "o'clock" || t[i + 1].word == "oclock" { used = 2 }
        // "9am sharp", "9:30 sharp", "10 o'clock sharp": on the dot, the same time.
        func sharp(_ u: Int) -> Int { i + u < t.count && t[i + u].word == "sharp" && !t[i + u - 1].commaAfter ? u + 1 : u }
        var hour: Int
        var minute = 0
        let parts = w.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard parts[0].count <= 2, let h = Int(parts[0]), parts[1].count == 2, let m = Int(parts[1]), m < 60 else { return nil }
            hour = h
            minute = m
        } else if parts.count == 1, w.count <= 2, w.allSatisfy(\.isNumber), let h = Int(w) {
            hour = h
        } else if parts.count == 1, suffix != nil, (3...4).contains(w.count), w.allSatisfy(\.isNumber), let v = Int(w), v % 100 < 60, !w.hasPrefix("0") {
            (hour, minute) = (v / 100, v % 100)  // "730pm", "1030am": the colon left out
        } else {
            return nil
        }
        if let s = suffix {
            guard (1...12).contains(hour) else { return nil }
            if s == "p" && hour < 12 { hour += 12 }
            if s == "a" && hour == 12 { hour = 0 }
            return (WrittenTime(hour: hour, minute: minute, sure: true, text: t[i].word), sharp(used))
        }
        guard hour < 24 else { return nil }
        let sure = hour == 0 || hour > 12 || w.hasPrefix("0")
        return (WrittenTime(hour: hour, minute: minute, sure: sure, text: w), parts.count == 2 || used == 2 ? sharp(used) : used)
    }

    func writtenTime(at k: Int) -> (WrittenTime, Int)? { Self.writtenTime(tokens, k) }

    /// "three", "three pm", "eleven o'clock": an hour in words, 1 to 12.
    func hourInWords(at k: Int) -> (WrittenTime, Int)? {
        guard Int(word(k)) == nil, let h = ReminderLexicon.number(word(k)), (1...12).contains(h) else { return nil }
        // "Five Guys", "Seven Dials": a capitalised number in a name.
        if tokens[k].raw.first?.isUppercase == true, k + 1 < tokens.count, tokens[k + 1].raw.first?.isUppercase == true,
           !["am", "pm", "a.m", "p.m", "o'clock", "oclock"].contains(word(k + 1)) { return nil }
        let parts = [Token(raw: String(h), word: String(h), commaAfter: tokens[k].commaAfter)] + tokens[(k + 1)...].prefix(1)
        guard let (t, n) = Self.writtenTime(Array(parts), 0) else { return nil }
        return (WrittenTime(hour: t.hour, minute: t.minute, sure: t.sure, text: phrase(k, n)), n)
    }

    /// "from 9 to 6", "between 22:00 and 06:00" at `k`: an hour range, and its length.
    func hourRange(at k: Int) -> (WrittenTime, WrittenTime, Int)? {
        guard word(k) == "from" || word(k) == "between", let (a, na) = writtenTime(at: k + 1) else { return nil }
        let sep = k + 1 + na
        guard ["to", "and", "until", "till", "-"].contains(word(sep)), let (b, nb) = writtenTime(at: sep + 1) else { return nil }
        return (a, b, sep + 1 + nb - k)
    }

    /// An hour range at `k` after an hourly rule `r`: keeps the hours, to be
    /// settled at the end, and returns the range's length (0 without one).
    mutating func hourRangeOfRule(_ r: inout Recurrence, at k: Int) -> Int {
        guard let (a, b, len) = hourRange(at: k) else { return 0 }
        ruleHours = (a, b)
        // 00:00-00:00 until the hours are settled: a rule with hours is not the same rule as one without.
        r.rangeStart = TimeOfDay(hour: 0, minute: 0)
        r.rangeEnd = r.rangeStart
        return len
    }

    /// "in 20 minutes", "in an hour", "in half an hour", "in a couple of
    /// hours", "in 1 hour and 30 minutes", "in 1.5 hours", "in 2 and a half
    /// hours", "in an hour and a half": an instant from now; "in 3 days",
    /// "in 2 weeks", "in a month", "in a year": a day (half a day or week is
    /// hours from now); "in the morning": a part of the day. Past 100 years
    /// the phrase is refused (`withinReach`), and so is half a month or year.
    mutating func readIn() -> Bool {
        guard word(i) == "in" || word(i) == "within" else { return false }
        // "in like 2 wks", "in about 20 min", "in abt half an hour": the amount said, as said.
        let roughly = ["like", "about", "around", "roughly", "approx", "approximately", "abt", "bout", "~"].contains(word(i + 1))
            && (ReminderLexicon.number(word(i + 2)) != nil || ["a", "an", "couple", "half"].contains(word(i + 2)))
        let start = i
        guard readInAmount(from: roughly ? i + 2 : i + 1) else { return false }
        if roughly { assumptions.append("'\(phrase(start, i - start))' read as in \(phrase(start + 2, i - start - 2)), no more or less") }
        return true
    }

    /// The amount of `readIn` from `k`, after its "in" (and "about").
    mutating func readInAmount(from k0: Int) -> Bool {
        var k = k0
        if word(k) == "half" && (word(k + 1) == "an" || word(k + 1) == "a") && ["hour", "day", "week"].contains(word(k + 2)) {
            return readAmountFromNow(0.5, unitAt: k + 2)
        }
        // "in a quarter of an hour", "in three quarters of an hour".
        var q = k
        if word(q) == "a" { q += 1 }
        let quarter = word(q) == "quarter" ? 1 : ["three", "3"].contains(word(k)) && word(k + 1) == "quarters" ? 3 : 0
        if quarter == 3 { q = k + 1 }
        if quarter > 0 && word(q + 1) == "of" && ["an", "a"].contains(word(q + 2)) && word(q + 3) == "hour" {
            return readAmountFromNow(0.25 * Double(quarter), unitAt: q + 3)
        }
        if quarter == 1 && word(q + 1) == "hour" { return readAmountFromNow(0.25, unitAt: q + 1) }  // "in a quarter hour"
        // "in a fortnight", "in 2 fortnights": two weeks each.
        if ["fortnight", "fortnights"].contains(word(k + 1)), let m = word(k) == "a" ? 1 : ReminderLexicon.number(word(k)), (1...500).contains(m) {
            setDate(today.adding(days: 14 * m), i, k + 2 - i)
            i = k + 2
            return true
        }
        var n: Double? = nil
        if word(k) == "a" || word(k) == "an" { n = 1; k += 1 } else if let m = ReminderLexicon.number(word(k)) { n = Double(m); k += 1 }
        else if let x = Self.decimal(word(k)) { n = x; k += 1 }
        else if let x = ["1/2": 0.5, "1/4": 0.25, "3/4": 0.75][word(k)] { n = x; k += 1 }
        // "in a couple of days", "in a couple days".
        if word(k) == "couple" && word(k + 1) == "of" { n = 2; k += 2 } else if word(k) == "couple", ReminderLexicon.unitWords[word(k + 1)] != nil { n = 2; k += 1 }
        if n != nil, word(k) == "and" && word(k + 1) == "a" && word(k + 2) == "half" { n! += 0.5; k += 3 }
        if let n = n, readAmountFromNow(n, unitAt: k) { return true }
        if k0 == i + 1, word(i + 1) == "the", ["morning", "afternoon", "evening"].contains(word(i + 2)) {
            partOfDay = word(i + 2)
            return consume(3)
        }
        return false
    }

    /// "call 0800 123 456", "ring 0800 number", "0345 600 1234": the digits
    /// of a telephone number, not a clock.
    func phoneDigits(after k: Int) -> Bool {
        let next = word(k + 1)
        // (Not a second clock: "0800 1400 2000" is a prescription's times.)
        return (next.count >= 3 && next.allSatisfy { $0.isASCII && $0.isNumber } && Self.fourDigits(tokens, k + 1) == nil)
            || ["number", "no", "no.", "num", "line", "hotline", "helpline", "freephone", "tel", "phone"].contains(next)
    }

    /// "0930", "2115" after "at": a 24-hour clock time in four digits.
    func fourDigits(at k: Int) -> (WrittenTime, Int)? {
        Self.fourDigits(tokens, k).map { ($0, 1) }
    }

    static func fourDigits(_ t: [Token], _ k: Int) -> WrittenTime? {
        guard k >= 0 && k < t.count else { return nil }
        let w = t[k].word
        guard w.count == 4, w.allSatisfy({ $0.isASCII && $0.isNumber }), let v = Int(w), v / 100 < 24, v % 100 < 60 else { return nil }
        return WrittenTime(hour: v / 100, minute: v % 100, sure: true, text: w)
    }

    /// "1.5", "2.25": a decimal amount (up to a million).
    static func decimal(_ w: String) -> Double? {
        let parts = w.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, parts[0].count <= 6, parts[1].count <= 3,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), let x = Double(w) else { return nil }
        return x
    }

    /// The rest of "in N …" with its unit at `k`; "and a half" after the
    /// unit adds half of it ("in an hour and a half").
    mutating func readAmountFromNow(_ amount: Double, unitAt k: Int) -> Bool {
        let unit = word(k)
        let unitSeconds: [String: Double] = ["hour": 3600, "hours": 3600, "hr": 3600, "hrs": 3600, "day": 86_400, "days": 86_400,
                                             "week": 604_800, "weeks": 604_800, "month": 0, "months": 0, "year": 0, "years": 0]
        guard ReminderLexicon.minuteWords.contains(unit) || unitSeconds[unit] != nil else { return false }
        var n = amount
        var end = k + 1
        if word(end) == "and" && word(end + 1) == "a" && word(end + 2) == "half" && n == n.rounded() && ["a", "an", "1", "one"].contains(word(k - 1)) {
            n += 0.5
            end += 3
        }
        guard withinReach(n < 1e15 ? Int(n.rounded(.up)) : Int(1e15), unit, i, end - i) else { i = end; return true }
        let whole = n == n.rounded()
        let perUnit = ReminderLexicon.minuteWords.contains(unit) ? 60 : unitSeconds[unit]!
        if perUnit == 0 && !whole {
            if conflict == nil { conflict = "'\(phrase(i, end - i))': say half a month or year in weeks or days ('in 2 weeks')" }
            return consume(end - i)
        }
        if whole && perUnit >= 86_400 || perUnit == 0 {
            let m = Int(n)
            switch unit {
            case "day", "days": setDate(today.adding(days: m), i, end - i)
            case "week", "weeks": setDate(today.adding(days: 7 * m), i, end - i)
            case "month", "months": setDate(Self.monthsLater(m, from: today), i, end - i)
            default: setDate(Self.monthsLater(12 * m, from: today), i, end - i)
            }
            // "in two weeks' time".
            if word(end) == "time" { take(end, 1); end += 1 }
            i = end
            return true
        }
        var total = Int64((n * perUnit).rounded())
        let and = word(end) == "and" ? 1 : 0
        if perUnit == 3600, let m = ReminderLexicon.number(word(end + and)), ReminderLexicon.minuteWords.contains(word(end + and + 1)) {
            guard withinReach(m, "minutes", end + and, 2) else { i = end + and + 2; return true }
            total += Int64(m) * 60
            end += and + 2
        }
        relative = Instant(ms: now.ms + total * 1000)
        return consume(end - i)
    }

    /// "at night".
    mutating func readAtNight() -> Bool {
        guard word(i) == "at" && word(i + 1) == "night" else { return false }
        partOfDay = "night"
        return consume(2)
    }

    /// "at 3pm", "at 9", "@ 14:30", "by 5:00": the time of day (an hour
    /// range right after it goes to an hourly rule). "by" before a bare
    /// hour is not a time: "by" stays in the title and the next word is read
    /// on its own ("by 5 dec" is a date).
    mutating func readClockTime() -> Bool {
        let w = word(i)
        // "call at 7 30": an hour and its minutes typed apart, at the end or before a day (am/pm settled as "at 7" is).
        if w == "at" || w == "@", let h = Int(word(i + 1)), (1...12).contains(h), word(i + 1).count <= 2, word(i + 2).count == 2,
           let m = Int(word(i + 2)), m < 60, m % 5 == 0, i + 3 == tokens.count || Self.dayWord(word(i + 3)) || tokens[i + 2].commaAfter {
            setTime(WrittenTime(hour: h, minute: m, sure: false, text: "\(h):\(word(i + 2))"), i, 3)
            i += 3
            return true
        }
        // "by 0700", "by 1730": a 24-hour clock; not "by 2027", a year.
        let byClock = w == "by" ? fourDigits(at: i + 1).flatMap { word(i + 1).hasPrefix("0") || !(19...21).contains($0.0.hour) ? $0 : nil } : nil
        guard w == "at" || w == "@" || w == "by", let (t, n) = writtenTime(at: i + 1) ?? (w == "by" ? byClock : hourInWords(at: i + 1) ?? fourDigits(at: i + 1))
        else { return false }
        // "at Noon Creative", "at Midnight Oil": a place named, not a time (left to be read as the title).
        if n == 1, ["noon", "midnight"].contains(word(i + 1)), namesAThing(at: i + 1, len: 1) { return false }
        // "at 13 mins past", "at 17 years old": a count, not a clock (left to be refused).
        if n == 1, Int(word(i + 1)) != nil, ["mins", "min", "minutes", "minute", "years", "year", "yrs", "yr", "days", "weeks", "months", "yo", "percent", "%",
                                             "miles", "km", "kg", "lbs", "pounds", "dollars", "quid", "bucks", "points", "pts", "mile"].contains(word(i + 2))
            || (Self.measureWords.contains(word(i + 2)) && !["in", "m", "\""].contains(word(i + 2))) { return false }  // "at 0 degrees", "at 1200 rpm", "at 3 points"
        if w == "by" && !t.sure && !tokens[i + 1].word.contains(":") && (datePhrase(at: i + 1) != nil || word(i + 2) != "") {
            i += 1
            return true
        }
        var time = t
        var len = 1 + n
        // "at 1700 hours"; "at 20 hrs", "at 19 hundred (hours)": the 24-hour clock said so.
        if n == 1, tokens[i + 1].word.count == 4, fourDigits(at: i + 1) != nil, ["hours", "hrs", "h"].contains(word(i + 2)) { len += 1 }
        if n == 1, tokens[i + 1].word.count <= 2, Int(word(i + 1)) != nil {
            if ["hours", "hrs"].contains(word(i + 2)) { len += 1 }
            else if word(i + 2) == "hundred" { len += ["hours", "hrs"].contains(word(i + 3)) ? 2 : 1 }
        }
        // "at 12 noon", "at 12 midnight".
        if word(i + 1) == "12", n == 1, ["noon", "midnight"].contains(word(i + 2)), let (x, _) = writtenTime(at: i + 2) { time = x; len += 1 }
        // "at 7 thirty", "at 9 fifteen": the minutes in words.
        if n == 1 && t.minute == 0 && !tokens[i + 1].word.contains(":"), Int(word(i + 2)) == nil,
           let m = ReminderLexicon.number(word(i + 2)), (10...59).contains(m) {
            time.minute = m
            time.text += " " + word(i + 2)
            len += 1
        }
        // "at 10 sharp".
        if word(i + len) == "sharp" && !tokens[i + len - 1].commaAfter { len += 1 }
        setTime(time, i, len)
        i += len
        readMoreTimes()
        readSpanEnd()
        if let (a, b, len) = hourRange(at: i), rule.unit == .hour && rule.repeats {
            ruleHours = (a, b)
            _ = consume(len)
        }
        return true
    }

    /// "3pm", "14:30", "9 am", "noon", "midnight": a time of day without
    /// "at", when it can be nothing else (a bare "9" can be a count or a day).
    mutating func readBareTime() -> Bool {
        let w = word(i)
        // "12 noon", "12 midnight".
        if w == "12", ["noon", "midnight"].contains(word(i + 1)), !namesAThing(at: i + 1, len: 1), let (t, _) = writtenTime(at: i + 1) {
            setTime(t, i, 2)
            i += 2
            return true
        }
        if (w == "noon" || w == "midnight") && namesAThing(at: i, len: 1) { return false }  // "High Noon"
        // "5 in the afternoon", "friday morning 7", "9 tonight": a bare hour the part of the day settles.
        // "set 4 this afternoon", "chapter 7 tonight" keep their numbers: "this"/"tonight" only after a day
        // read or at the start; "in the afternoon" also after a word that does not number things.
        let afterDay = i == 0 || used[i - 1]
        if let h = Int(w), (1...12).contains(h), w.count <= 2,
           (word(i + 1) == "in" && word(i + 2) == "the" && ReminderLexicon.partsOfDay.contains(word(i + 3))
                && (afterDay || !Self.numberedNouns.contains(word(i - 1)))) || (word(i + 1) == "at" && word(i + 2) == "night" && afterDay)
            || (word(i + 1) == "tonight" && afterDay) || (word(i + 1) == "this" && ReminderLexicon.partsOfDay.contains(word(i + 2)) && afterDay)
            || (i > 0 && used[i - 1] && Self.partOfDayBefore(word(i - 1))
                && ((!rule.repeats && ReminderLexicon.partsOfDay.contains(word(i - 1))) || hourOfRule(at: i))) {
            // "tomorrow morning 7 o'clock": the o'clock with it.
            let n = ["o'clock", "oclock"].contains(word(i + 1)) ? 2 : 1
            setTime(WrittenTime(hour: h, minute: 0, sure: false, text: w), i, n)
            i += n
            return true
        }
        // "review slides 0730", "1530 tomorrow": a 24-hour clock in four digits, with its zero or beside a day.
        // Not "christmas 2027", "easter 2028": a year after a named day (left to be refused); not "pin 0000", "door code 0930".
        let year = w.hasPrefix("20") && i > 0 && used[i - 1] && ReminderLexicon.weekday(word(i - 1)) == nil && !["today", "tomorrow", "tonight"].contains(word(i - 1))
        if let (t, _) = fourDigits(at: i), !(i > 0 && word(i - 1).allSatisfy({ $0.isNumber || $0 == "+" || $0 == "-" })), !year, !phoneDigits(after: i),
           !(i > 0 && !used[i - 1] && !endsNamedDay(at: i) && (Self.numberedNouns.contains(word(i - 1)) || ["pin", "code", "passcode", "password", "combo", "combination"].contains(word(i - 1)))),
           !(i > 0 && word(i - 1) == "the" && Self.titleWord(word(i + 1))),  // "call the 0800 number"
           w.hasPrefix("0") || (dayOrDateBefore(i) && !Self.countedAfter(word(i + 1)))
            || (used.indices.contains(i + 1) && Self.dayWord(word(i + 1)) && !(i > 0 && ["file", "form", "irs", "schedule"].contains(word(i - 1))))
            || (endsNamedDay(at: i) && !(2000...2200).contains(Int(w) ?? 0)) {  // "new years eve 2359", not "christmas eve 2100"
            setTime(t, i, 1)
            i += 1
            readMoreTimes()
            return true
        }
        // "1830 collect kids from swimming": four digits first in the sentence, before its words, are a 24-hour
        // clock, said ("1930 …" and "2026 …" may be years: left to be refused).
        if let (t, _) = fourDigits(at: i), i == firstWord, !(19...20).contains(t.hour), Self.titleWord(word(i + 1)),
           !Self.unitLike(word(i + 1)), !Self.countedAfter(word(i + 1)), !phoneDigits(after: i) {
            setTime(t, i, 1)
            assumptions.append("'\(w)' read as \(TimeOfDay(hour: t.hour, minute: t.minute))")
            i += 1
            return true
        }
        // "tacro q12h 0900/2100": a prescription's times, each in four digits.
        let slashed = w.split(whereSeparator: { $0 == "/" || $0 == "," }).map { Token(raw: String($0), word: String($0), commaAfter: false) }
        if slashed.count >= 2, slashed.count <= 6, w.hasPrefix("0"), slashed.allSatisfy({ $0.word.count == 4 }) {
            let times = slashed.indices.compactMap { Self.fourDigits(slashed, $0) }
            if times.count == slashed.count {
                setTime(times[0], i, 1)
                moreTimes += times.dropFirst().map { ($0, $0.text) }
                i += 1
                return true
            }
        }
        // "tmrw 11", "dentist fri 9" at the end: a bare hour after a day (its am/pm said).
        // "wensday 7 fellowship hall": before a word of the title that counts nothing too.
        if let h = Int(w), (1...12).contains(h), w.count <= 2, hourAfterDay(at: i) {
            setTime(WrittenTime(hour: h, minute: 0, sure: false, text: w), i, 1)
            i += 1
            return true
        }
        // "every morning take thyroid tablet 7:30": an h:mm with a rule and no time yet.
        if w.contains(":"), rule.repeats, timeWritten == nil, rule.unit != .hour, let (t, tn) = writtenTime(at: i), tn == 1,
           !Self.numberedNouns.contains(word(i - 1)), !ReminderLexicon.versioned.contains(word(i - 1)) {
            setTime(t, i, 1)
            i += 1
            return true
        }
        let oclock = ["o'clock", "oclock"].contains(word(i + 1))
        guard let (t, n) = writtenTime(at: i),
              w.contains(":") || w.hasSuffix("m") || w == "noon" || w == "midnight" || word(i + 1) == "am" || word(i + 1) == "pm"
                || (t.sure && (w.hasSuffix("a") || w.hasSuffix("p"))) || oclock || ["a.m", "p.m"].contains(word(i + 1)) else { return false }
        // "the 8pm show": a time that names a thing, not when to remind; left to be refused.
        if i > 0 && !used[i - 1] && ["the", "a", "an"].contains(word(i - 1)) && w != "noon" && w != "midnight" { return false }
        // An h:mm without am/pm only right after a day ("fri 3:45"), read as "at 3:45" is.
        // An h:mm without am/pm only right after a day or a rule ("fri 3:45", "every tuesday 2:30"), or right
        // before a day ("12:30 tomorrow"): elsewhere it may be a verse or a score, and is left to be refused.
        if word(i + 1) == "a.m" || word(i + 1) == "p.m" { setTime(t, i, n); i += n; return true }
        let dayNext = ["today", "tomorrow", "tonight"].contains(word(i + n)) || ReminderLexicon.weekday(word(i + n)) != nil
            || (["on", "next", "this"].contains(word(i + n)) && ReminderLexicon.weekday(word(i + n + 1)) != nil)
            // "standup 9:15 weekdays", "tour 1:30 on dec 7": before a rule's word or a date (not a verse).
            || (w.contains(":") && !verse(before: i) && (["weekdays", "weekends", "daily", "every", "each", "nightly", "weekly"].contains(word(i + n))
                || (word(i + n) == "on" && (word(i + n + 1) == "the" || ReminderLexicon.month(word(i + n + 1)) != nil))))
            // "10:00 - 10:30": the start of a span, as a calendar pastes it.
            || (["-", "\u{2013}", "\u{2014}"].contains(word(i + n)) && tokens.count > i + n + 1 && tokens[i + n + 1].word.contains(":")
                && writtenTime(at: i + n + 1) != nil)
        // "call mom 8:30", "lunch w Dana 12:30", "8:30 call mom": an h:mm on the five minutes at either end
        // of the phrase is the time (its am/pm settled and said as "at 8:30" is); not a verse ("read John 3:15").
        let atAnEnd = (i == 0 || i + n == tokens.count || tokens[i + n - 1].commaAfter || Self.separator(tokens[i + n].raw))
            && w.contains(":") && minuteOnTheFive(t) && !verse(before: i)
        if !t.sure && !oclock && !atAnEnd && !(w.contains(":") && ((i > 0 && used[i - 1] && (dateSaid != nil || rule.repeats)) || dayNext)) { return false }
        setTime(t, i, n)
        i += n
        readMoreTimes()
        readSpanEnd()
        return true
    }


    func minuteOnTheFive(_ t: WrittenTime) -> Bool { t.minute % 5 == 0 }

    /// Whether an h:mm at `k` may be a chapter and verse: after a book's
    /// name or a numbered noun, with a word of reading or a book's name before it.
    func verse(before k: Int) -> Bool {
        guard k > 0 else { return false }
        let prev = word(k - 1)
        if (Self.numberedNouns.contains(prev) && !endsNamedDay(at: k)) || ReminderLexicon.versioned.contains(prev) { return true }  // not "christmas day 12:30"
        let books: Set<String> = ["genesis", "exodus", "leviticus", "numbers", "deuteronomy", "joshua", "judges", "ruth", "samuel", "kings",
                                  "chronicles", "ezra", "nehemiah", "esther", "job", "psalm", "psalms", "proverbs", "ecclesiastes", "isaiah",
                                  "jeremiah", "lamentations", "ezekiel", "daniel", "hosea", "joel", "amos", "jonah", "micah", "matthew", "mark",
                                  "luke", "john", "acts", "romans", "corinthians", "galatians", "ephesians", "philippians", "colossians",
                                  "thessalonians", "timothy", "titus", "hebrews", "james", "peter", "jude", "revelation", "rev", "gen", "matt", "cor"]
        guard books.contains(prev) else { return false }
        let reading: Set<String> = ["read", "reread", "study", "memorize", "memorise", "recite", "preach", "verse", "devotional", "bible", "scripture", "sermon"]
        return tokens[..<k].contains { reading.contains($0.word) } || !(1...12).contains(Int(word(k).split(separator: ":").first ?? "") ?? 0)
    }

    /// The times of one day's list, settled so that they go forward: "at 8
    /// and 8" is 08:00 and 20:00, "at 8, 2 and 8" 08:00, 14:00 and 20:00,
    /// "6 and 6" 06:00 and 18:00 (each bare hour said).
    static func forward(_ ts: [WrittenTime], partOfDay: String?) -> [(TimeOfDay, String?)] {
        var out: [(TimeOfDay, String?)] = []
        for (n, t) in ts.enumerated() {
            var (tm, note) = t.settled(partOfDay: partOfDay)
            // A first bare hour that a later one repeats or comes before is the morning's.
            if n == 0, !t.sure, partOfDay == nil, tm.hour >= 12, t.hour < 12, ts.dropFirst().contains(where: { !$0.sure && $0.hour <= t.hour }) {
                tm = TimeOfDay(hour: t.hour, minute: t.minute)
                note = "'\(t.text)' read as \(tm)"
            }
            if let prev = out.last?.0, !t.sure, partOfDay == nil, tm <= prev, t.hour < 12, TimeOfDay(hour: t.hour + 12, minute: t.minute) > prev {
                tm = TimeOfDay(hour: t.hour + 12, minute: t.minute)
                note = "'\(t.text)' read as \(tm), after \(prev)"
            }
            out.append((tm, note))
        }
        return out
    }

    /// "9-17", "from 9 to 5", "between 22:00 and 06:00" after an hourly rule:
    /// the hours it runs. A range without an hourly rule before it belongs to
    /// nothing and stays in the title.
    mutating func readRuleHours() -> Bool {
        guard rule.unit == .hour && rule.repeats else { return false }
        if ruleHours == nil, word(i).contains("-") {
            let parts = word(i).split(separator: "-").map { Token(raw: String($0), word: String($0), commaAfter: false) }
            if parts.count == 2, let (a, na) = Self.writtenTime(parts, 0), let (b, nb) = Self.writtenTime(parts, 1), na == 1, nb == 1 {
                ruleHours = (a, b)
                return consume(1)
            }
        }
        // "every hour 9 to 5": the range without "from".
        if ruleHours == nil, let (a, na) = writtenTime(at: i), ["to", "-", "till", "until"].contains(word(i + na)),
           let (b, nb) = writtenTime(at: i + na + 1) {
            ruleHours = (a, b)
            return consume(na + 1 + nb)
        }
        guard let (a, b, len) = hourRange(at: i) else { return false }
        ruleHours = (a, b)
        return consume(len)
    }

    /// "this evening", "tomorrow morning": a day and a part of it; "morning"
    /// right after a day already read ("monday morning", "today evening").
    mutating func readPartOfDay() -> Bool {
        let w = word(i)
        // "sat am", "tomorrow pm": the morning or the afternoon of that day.
        if ["am", "pm", "a.m", "p.m"].contains(w), i > 0, used[i - 1], Self.dayWord(word(i - 1)), timeWritten == nil, partOfDay == nil {
            partOfDay = w.hasPrefix("a") ? "morning" : "afternoon"
            return consume(1)
        }
        if w == "this" || w == "tomorrow", ReminderLexicon.partsOfDay.contains(word(i + 1)) {
            setDate(w == "tomorrow" ? today.adding(days: 1) : today, i, 1)
            partOfDay = word(i + 1)
            take(i + 1, 1)
            i += 2
            return true
        }
        let before = word(i - 1)
        // "call mom morning": a part of the day that ends the sentence, after a word of the title (said as its hour).
        // Not once a day or time is read ("dec 3 parents evening" is a school's evening).
        if ["morning", "afternoon", "evening"].contains(w), i == tokens.count - 1, i > 0, !used[i - 1], partOfDay == nil, Self.titleWord(before),
           date == nil, timeWritten == nil, relative == nil, !rule.repeats,
           !["good", "this", "of", "my", "your", "our", "eod", "cob", "eob", "eom"].contains(before) {
            partOfDay = w
            return consume(1)
        }
        // "dec 1 morning", "in december evening": the part of the day of the date just read.
        let ofDate = i > 0 && used[i - 1] && date != nil && dateSaid.map { $0.hasSuffix(before) } == true
        guard ReminderLexicon.partsOfDay.contains(w) && i > 0 && used[i - 1],
              ofDate || ["tomorrow", "this", "today", "day", "weekend", "weekday"].contains(before) || ReminderLexicon.weekday(before) != nil else { return false }
        partOfDay = w
        return consume(1)
    }

    /// The time of day once the sentence is read: the written time settled
    /// by the part of the day, else the part of the day's usual hour
    /// ("tonight" is 20:00), said in `assumptions`.
    mutating func settledTime() -> TimeOfDay? {
        if let (t, said) = timeWritten {
            // "dinner at 7", "wake up at 6": the title's words settle a bare hour, said.
            if partOfDay == nil, !t.sure, (5...11).contains(t.hour), let (p, because) = contextPartOfDay() {
                let (tm, _) = t.settled(partOfDay: p)
                assumptions.append("'\(t.text)' read as \(tm) ('\(because)')")
                return tm
            }
            let (tm, note) = t.settled(partOfDay: partOfDay)
            if let n = note { assumptions.append(n) }
            // "this morning at 8pm", "tonight at 9am", "tomorrow afternoon at 9": one of them is wrong.
            if let p = partOfDay, !Self.fits(tm, p), conflict == nil {
                let part = p == "night" && tokens.contains(where: { $0.word == "tonight" }) ? "tonight" : "the \(p)"
                conflict = "'\(said)' is not in \(part): say one of them"
            }
            return tm
        }
        guard let p = partOfDay else { return nil }
        let tonight = tokens.contains(where: { $0.word == "tonight" })
        let tm = TimeOfDay(hour: p == "night" && tonight ? 20 : Self.usualHours[p]!, minute: 0)
        assumptions.append("'\(tonight ? "tonight" : p)' read as \(tm)")
        return tm
    }


    /// The hourly rule's hours once the sentence is read. Bare hours read as
    /// a day-time range: "from 9 to 6" is 09:00-18:00, "from 8 to 7"
    /// 08:00-19:00, said in `assumptions`, and so is a range that runs
    /// overnight.
    mutating func settleRuleHours() {
        guard let (a, b) = ruleHours else { return }
        // A bare hour is 1-12: 1-6 start in the afternoon.
        let s = TimeOfDay(hour: !a.sure && a.hour < 7 ? a.hour + 12 : a.hour, minute: a.minute)
        var e = TimeOfDay(hour: b.hour, minute: b.minute)
        if !b.sure && e <= s && e.hour < 12 { e = TimeOfDay(hour: e.hour + 12, minute: e.minute) }
        if !a.sure || !b.sure { assumptions.append("'\(a.text)-\(b.text)' read as \(s)-\(e)") }
        if e < s { assumptions.append("\(s)-\(e) runs overnight") }
        rule.rangeStart = s
        rule.rangeEnd = e
    }
}
