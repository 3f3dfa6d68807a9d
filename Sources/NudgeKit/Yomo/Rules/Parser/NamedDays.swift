// Named days in a sentence: holidays people set reminders by ("on
// Thanksgiving", "by Christmas", "Mother's Day brunch"), fixed ones and
// those a rule gives (the 4th Thursday of November, Easter and the days
// counted from it). The table is the US's and the UK's common days; where
// the two differ (Mother's Day) the reminder's zone decides: Europe/London
// reads the UK's, any other zone the US's.
//
// Invariants: a named day is always the next one, today or later, and its
// reading is said in `assumptions` ("'thanksgiving' read as Thursday
// 2027-11-25"). With "on", "by", "until", "for", "this" or "next" before it,
// it is the date. Alone ("christmas shopping"), it is the date only when
// the sentence names no other date and no rule other than a yearly one;
// otherwise it is a word of the title.

extension ReminderParser.ParseState {
    enum NamedDayRule {
        case fixed(month: Int, day: Int)
        case nth(month: Int, ordinal: Int, weekday: Int)
        case easter(offset: Int)
        /// Days after an ordinal weekday (Black Friday: the day after the 4th Thursday of November).
        case afterNth(month: Int, ordinal: Int, weekday: Int, days: Int)
        /// The first such weekday on or after a date (Advent Sunday: the Sunday from November 27th, four before Christmas).
        case onOrAfter(month: Int, day: Int, weekday: Int)
        /// A day a lunar calendar sets, listed by year (month × 100 + day); none past the list.
        case listed([Int: Int])
    }

    /// Lunar New Year (the first day of the Chinese calendar's first month),
    /// 2024-2049, as Debian's python3-lunardate tables give it.
    static let lunarNewYear: [Int: Int] = [
        2024: 210, 2025: 129, 2026: 217, 2027: 206, 2028: 126, 2029: 213, 2030: 203, 2031: 123, 2032: 211, 2033: 131,
        2034: 219, 2035: 208, 2036: 128, 2037: 215, 2038: 204, 2039: 124, 2040: 212, 2041: 201, 2042: 122, 2043: 210,
        2044: 130, 2045: 217, 2046: 206, 2047: 126, 2048: 214, 2049: 202,
    ]

    /// Names (lower case, apostrophes dropped) and their rule; the UK's
    /// rule where it differs.
    static let namedDays: [(names: [String], rule: NamedDayRule, uk: NamedDayRule?)] = [
        (["christmas eve", "xmas eve"], .fixed(month: 12, day: 24), nil),
        (["christmas day", "christmas", "xmas day", "xmas"], .fixed(month: 12, day: 25), nil),
        (["boxing day"], .fixed(month: 12, day: 26), nil),
        (["new years eve", "nye"], .fixed(month: 12, day: 31), nil),
        (["new years day", "new years", "new year"], .fixed(month: 1, day: 1), nil),
        (["lunar new year", "chinese new year", "lunar new years", "chinese new years"], .listed(lunarNewYear), nil),
        (["valentines day", "valentines", "st valentines day", "saint valentines day"], .fixed(month: 2, day: 14), nil),
        (["groundhog day"], .fixed(month: 2, day: 2), nil),
        (["st patricks day", "saint patricks day", "st paddys day", "paddys day"], .fixed(month: 3, day: 17), nil),
        (["april fools day", "april fools"], .fixed(month: 4, day: 1), nil),
        (["earth day"], .fixed(month: 4, day: 22), nil),
        (["juneteenth"], .fixed(month: 6, day: 19), nil),
        (["independence day", "fourth of july", "july fourth"], .fixed(month: 7, day: 4), nil),
        (["halloween", "hallowe'en"], .fixed(month: 10, day: 31), nil),
        (["bonfire night", "guy fawkes night", "guy fawkes day", "guy fawkes"], .fixed(month: 11, day: 5), nil),
        (["hogmanay"], .fixed(month: 12, day: 31), nil),
        (["epiphany"], .fixed(month: 1, day: 6), nil),
        (["candlemas"], .fixed(month: 2, day: 2), nil),
        (["international womens day", "womens day"], .fixed(month: 3, day: 8), nil),
        (["pi day"], .fixed(month: 3, day: 14), nil),
        (["may day"], .fixed(month: 5, day: 1), nil),
        (["bastille day"], .fixed(month: 7, day: 14), nil),
        (["all saints day", "all saints"], .fixed(month: 11, day: 1), nil),
        (["all souls day", "all souls", "day of the dead", "dia de los muertos"], .fixed(month: 11, day: 2), nil),
        (["melbourne cup day", "melbourne cup"], .nth(month: 11, ordinal: 1, weekday: 2), nil),
        (["veterans day", "remembrance day", "armistice day"], .fixed(month: 11, day: 11), nil),
        (["thanksgiving day", "thanksgiving"], .nth(month: 11, ordinal: 4, weekday: 4), nil),
        (["black friday"], .afterNth(month: 11, ordinal: 4, weekday: 4, days: 1), nil),
        (["cyber monday"], .afterNth(month: 11, ordinal: 4, weekday: 4, days: 4), nil),
        (["election day"], .afterNth(month: 11, ordinal: 1, weekday: 1, days: 1), nil),
        (["tax day"], .fixed(month: 4, day: 15), nil),
        (["mothers day"], .nth(month: 5, ordinal: 2, weekday: 0), .easter(offset: -21)),
        (["mothering sunday"], .easter(offset: -21), nil),
        (["fathers day"], .nth(month: 6, ordinal: 3, weekday: 0), nil),
        (["australia day"], .fixed(month: 1, day: 26), nil),
        (["anzac day"], .fixed(month: 4, day: 25), nil),
        (["canada day"], .fixed(month: 7, day: 1), nil),
        (["cinco de mayo"], .fixed(month: 5, day: 5), nil),
        (["burns night"], .fixed(month: 1, day: 25), nil),
        (["st davids day", "saint davids day"], .fixed(month: 3, day: 1), nil),
        (["st georges day", "saint georges day"], .fixed(month: 4, day: 23), nil),
        (["st andrews day", "saint andrews day"], .fixed(month: 11, day: 30), nil),
        (["st stephens day", "saint stephens day", "stephens day"], .fixed(month: 12, day: 26), nil),
        (["st brigids day", "saint brigids day", "brigids day", "imbolc"], .fixed(month: 2, day: 1), nil),
        (["the shortest day", "shortest day", "winter solstice"], .fixed(month: 12, day: 21), nil),
        (["the longest day", "longest day", "summer solstice"], .fixed(month: 6, day: 21), nil),
        (["midsummer day", "midsummers day"], .fixed(month: 6, day: 24), nil),
        (["early may bank holiday", "may day bank holiday"], .nth(month: 5, ordinal: 1, weekday: 1), nil),
        (["spring bank holiday"], .nth(month: 5, ordinal: -1, weekday: 1), nil),
        (["summer bank holiday", "august bank holiday"], .nth(month: 8, ordinal: -1, weekday: 1), nil),
        (["remembrance sunday"], .nth(month: 11, ordinal: 2, weekday: 0), nil),
        (["advent sunday", "first sunday of advent", "first sunday in advent", "1st sunday of advent", "1st sunday in advent"],
         .onOrAfter(month: 11, day: 27, weekday: 0), nil),
        (["whit monday", "whitmonday", "pentecost monday"], .easter(offset: 50), nil),
        (["whit sunday", "whitsunday", "pentecost"], .easter(offset: 49), nil),
        (["memorial day"], .nth(month: 5, ordinal: -1, weekday: 1), nil),
        (["labor day", "labour day"], .nth(month: 9, ordinal: 1, weekday: 1), nil),
        (["martin luther king day", "martin luther king jr day", "mlk day"], .nth(month: 1, ordinal: 3, weekday: 1), nil),
        (["presidents day", "washingtons birthday"], .nth(month: 2, ordinal: 3, weekday: 1), nil),
        (["columbus day", "indigenous peoples day"], .nth(month: 10, ordinal: 2, weekday: 1), nil),
        (["easter sunday", "easter day", "easter"], .easter(offset: 0), nil),
        (["good friday"], .easter(offset: -2), nil),
        (["easter monday"], .easter(offset: 1), nil),
        (["palm sunday"], .easter(offset: -7), nil),
        (["ash wednesday"], .easter(offset: -46), nil),
        (["shrove tuesday", "pancake day", "mardi gras"], .easter(offset: -47), nil),
    ]

    /// The word as the table spells it: lower case, no apostrophe.
    static func plain(_ w: String) -> String { String(w.filter { $0 != "'" }) }

    /// A named day at `k`: its next date (today or later), how many tokens,
    /// and the assumption that says how it was read.
    func namedDay(at k: Int) -> (Day, Int, String)? {
        var best: (rule: NamedDayRule, len: Int, differs: Bool)? = nil
        for entry in Self.namedDays {
            for name in entry.names {
                let parts = name.split(separator: " ").map { Self.plain(String($0)) }
                guard parts.count > (best?.len ?? 0),
                      parts.enumerated().allSatisfy({ Self.plain(word(k + $0.offset)) == $0.element }) else { continue }
                best = ((uk ? entry.uk : nil) ?? entry.rule, parts.count, entry.uk != nil)
            }
        }
        guard let (rule, len, differs) = best else { return nil }
        for y in today.year...(today.year + 1) {
            guard let d = Self.date(of: rule, year: y), d >= today else { continue }
            let whose = differs ? (uk ? " (UK)" : " (US)") : ""
            return (d, len, "'\(phrase(k, len))' read as \(Weekdays.display(d.weekday)) \(d)\(whose)")
        }
        return nil
    }

    /// Whether a named day ends just before `k` ("christmas day 0630").
    func endsNamedDay(at k: Int) -> Bool {
        (max(0, k - 4)..<k).contains { j in namedDay(at: j).map { j + $0.1 == k } == true }
    }

    /// The rule of the named day at `k`, `len` tokens long.
    func namedRule(at k: Int, len: Int) -> NamedDayRule? {
        for entry in Self.namedDays {
            for name in entry.names where name.split(separator: " ").count == len {
                let parts = name.split(separator: " ").map { Self.plain(String($0)) }
                if parts.enumerated().allSatisfy({ Self.plain(word(k + $0.offset)) == $0.element }) { return (uk ? entry.uk : nil) ?? entry.rule }
            }
        }
        return nil
    }

    /// Whether the reminder's zone reads the UK's named days.
    var uk: Bool { ["Europe/London", "Europe/Belfast", "GB", "GB-Eire"].contains(zoneName) }

    static func date(of rule: NamedDayRule, year: Int) -> Day? {
        switch rule {
        case .fixed(let m, let d): return Day(year: year, month: m, day: d)
        case .nth(let m, let o, let wd): return Recurrence.nthWeekday(year: year, month: m, ordinal: o, weekday: wd)
        case .easter(let offset): return easter(year).adding(days: offset)
        case .afterNth(let m, let o, let wd, let days): return Recurrence.nthWeekday(year: year, month: m, ordinal: o, weekday: wd)?.adding(days: days)
        case .listed(let days): return days[year].map { Day(year: year, month: $0 / 100, day: $0 % 100) }
        case .onOrAfter(let m, let d, let wd):
            let from = Day(year: year, month: m, day: d)
            return from.adding(days: (wd - from.weekday + 7) % 7)
        }
    }

    /// Easter Sunday in the Gregorian calendar (the anonymous algorithm, as
    /// in Meeus).
    static func easter(_ y: Int) -> Day {
        let a = y % 19, b = y / 100, c = y % 100, d = b / 4, e = b % 4
        let f = (b + 8) / 25, g = (b - f + 1) / 3, h = (19 * a + b - d - g + 15) % 30
        let i = c / 4, k = c % 4, l = (32 + 2 * e + 2 * i - h - k) % 7
        let m = (a + 11 * h + 22 * l) / 451
        let month = (h + l - 7 * m + 114) / 31, day = (h + l - 7 * m + 114) % 31 + 1
        return Day(year: y, month: month, day: day)
    }

    /// "on thanksgiving", "for christmas", "this halloween", "next easter":
    /// the date; a named day alone is kept aside for the end (`pendingNamedDay`).
    mutating func readNamedHoliday() -> Bool {
        let prep = ["on", "for", "this", "next", "at"].contains(word(i))
        let k = prep ? i + 1 : i
        guard var (d, len, note) = namedDay(at: k) else { return false }
        // "christmas tree farm", "the 12 days of christmas", "halloween costume": a thing, not the day.
        // "christmas eve carols 6pm", "christmas day carols": the day named in full is the day.
        let wholeDay = ["eve", "day", "night"].contains(word(k + len - 1)) && len > 1
        if (!prep || ["market", "markets", "fair"].contains(word(k + len))), !wholeDay, ["tree", "trees", "lights", "card", "cards", "jumper", "sweater", "market", "markets", "movie", "movies", "song", "songs",
                   "carol", "carols", "decorations", "costume", "costumes", "candy", "pudding", "cake", "special", "episode", "album",
                   "leftovers", "recipe", "recipes", "photos", "pics", "pictures", "playlist"].contains(word(k + len))
            || word(k - 1) == "of" {
            return false
        }
        // "new year's day 2027", "black friday 2027": that year's.
        if let y = Int(word(k + len)), word(k + len).count == 4, y >= d.year, y <= today.year + 20, let rule = namedRule(at: k, len: len),
           let other = Self.date(of: rule, year: y) {
            d = other
            note = "'\(phrase(k, len + 1))' read as \(Weekdays.display(d.weekday)) \(d)"
            len += 1
        }
        // "christmas next year", "halloween next year": that day in the year after this one.
        if word(k + len) == "next", word(k + len + 1) == "year", let rule = namedRule(at: k, len: len),
           let other = Self.date(of: rule, year: today.year + 1) {
            d = other
            note = "'\(phrase(k, len + 2))' read as \(Weekdays.display(d.weekday)) \(d)"
            len += 2
        }
        // "christmas morning", "halloween night": that day, at that part of it.
        if ReminderLexicon.partsOfDay.contains(word(k + len)), partOfDay == nil {
            partOfDay = word(k + len)
            take(k + len, 1)
            if prep || (i > 0 && used[i - 1] && ["by", "until", "till", "before"].contains(word(i - 1))) {
                assumptions.append(note)
                setDate(d, i, k + len - i)
            } else {
                pendingNamedDay = (d, i, k + len - i, note)
            }
            i = k + len + 1
            return true
        }
        if prep || (i > 0 && used[i - 1] && ["by", "until", "till", "before"].contains(word(i - 1))) {
            assumptions.append(note)
            setDate(d, i, k + len - i)
        } else if pendingNamedDay == nil {
            pendingNamedDay = (d, i, len, note)
        }
        i = k + len
        return true
    }

    /// "the day before valentine's day", "2 days before christmas", "a week
    /// after thanksgiving", "the day after dec 3": that day moved by whole
    /// days, the next such day from today, said in `assumptions`.
    mutating func readDaysFromDay() -> Bool {
        var k = word(i) == "on" ? i + 1 : i
        var n = 1
        var part: String? = nil
        var onWeekday: Int? = nil
        if ["the", "a", "one"].contains(word(k)), ["day", "week"].contains(word(k + 1)) {
            k += 1
        } else if ["day", "week"].contains(word(k)) {
            // "buy cake day before christmas": "the" left out.
        } else if word(k) == "the", ReminderLexicon.partsOfDay.contains(word(k + 1)), partOfDay == nil {
            // "the night before christmas", "the evening before dec 3": that part of the day before.
            part = word(k + 1)
            k += 1
        } else if ReminderLexicon.partsOfDay.contains(word(k)), partOfDay == nil {
            part = word(k)  // "wrap presents night before christmas"
        } else if let wd = Weekdays.parse(word(k) == "the" ? word(k + 1) : word(k)) {
            // "the sunday after new years", "the friday before christmas": the nearest such weekday on that side of the day.
            if word(k) == "the" { k += 1 }
            onWeekday = wd
        } else if let x = ReminderLexicon.number(word(k)), (1...60).contains(x), ["days", "weeks", "day", "week"].contains(word(k + 1)),
                  word(k + 1).hasSuffix("s") == (x > 1) {
            n = x
            k += 1
        } else {
            return false
        }
        // "before", "after", "ahead of", "prior to".
        let rel = ["before", "after"].contains(word(k + 1)) ? 1 : (word(k + 1) == "ahead" && word(k + 2) == "of") || (word(k + 1) == "prior" && word(k + 2) == "to") ? 2 : 0
        guard rel > 0 else { return false }
        let after = word(k + 1) == "after"
        let shift = (word(k).hasPrefix("week") ? 7 : 1) * n * (after ? 1 : -1)
        // The day moved: by whole days, or to the nearest such weekday strictly after (before) it.
        func moved(_ day: Day) -> Day {
            guard let wd = onWeekday else { return day.adding(days: shift) }
            let ahead = (wd - day.weekday + 7) % 7
            return after ? day.adding(days: ahead == 0 ? 7 : ahead) : day.adding(days: -((day.weekday - wd + 7) % 7 == 0 ? 7 : (day.weekday - wd + 7) % 7))
        }
        var at = k + 1 + rel
        var found = namedDay(at: at)
        if found == nil && word(at) == "the" { at += 1; found = namedDay(at: at) }
        var d: Day
        var len: Int
        if let (day, l, _) = found {
            (d, len) = (moved(day), l)
            // Its next one whose moved day is still ahead.
            if d < today, let rule = namedRule(at: at, len: l), let later = Self.date(of: rule, year: day.year + 1) { d = moved(later) }
            // "the monday after thanksgiving" on the Saturday after it: this year's day, passed, moved ahead.
            if let rule = namedRule(at: at, len: l), let earlier = Self.date(of: rule, year: day.year - 1), moved(earlier) >= today { d = moved(earlier) }
        } else if let (day, l) = datePhrase(at: k + 1 + rel) ?? (onWeekday != nil ? ordinalDay(at: k + 1 + rel) : nil) {
            (d, len, at) = (moved(day), l, k + 1 + rel)
        } else {
            return false
        }
        // "the friday before dec 4" on the 28th of November: gone by, said so (not read as dec 4).
        if d < today, onWeekday != nil {
            if conflict == nil { conflict = "'\(phrase(i, at + len - i))' is \(Weekdays.display(d.weekday)) \(d), gone by: say a day to come, as 'next \(Weekdays.names[d.weekday])' or a date" }
            return consume(at + len - i)
        }
        guard d >= today else { return false }
        // "christmas 2027": a year after the day is not read here; left to be refused.
        if let y = Int(word(at + len)), word(at + len).count == 4, (1900...2199).contains(y) { return false }
        if let p = part { partOfDay = p }
        assumptions.append("'\(phrase(i, at + len - i))' read as \(Weekdays.display(d.weekday)) \(d)")
        setDate(d, i, at + len - i)
        i = at + len
        return true
    }

    /// A named day said alone is the date when nothing else gave one.
    mutating func settlePendingNamedDay() {
        guard let (d, k, len, note) = pendingNamedDay, date == nil,
              !rule.repeats || (rule.unit == .year && rule.kind == .custom) else { return }
        assumptions.append(note)
        setDate(d, k, len)
        pendingNamedDay = nil
    }
}
