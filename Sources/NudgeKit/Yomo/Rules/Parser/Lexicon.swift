// The reminder parser's vocabulary: how a sentence becomes tokens, and the
// word tables every phrase reader shares (numbers, ordinals, weekdays,
// months, units, the single words that name a rule, the words that promise
// a repeat, common misspellings).
//
// Invariants: a token's `word` is lower case with its trailing punctuation
// gone (a comma after it is kept as `commaAfter`, which ends a list of days);
// its `raw` is what the user typed and is what goes back into the title. A
// misspelling is read as the word meant, always with a note saying so. The
// functions here look at one word, never at its neighbours: phrases are the
// readers' business.

enum ReminderLexicon {
    struct Token {
        var raw: String
        var word: String
        var commaAfter: Bool

        /// Whether the word as typed begins with a capital, an opening quote or bracket aside.
        var capitalised: Bool { raw.drop(while: { "\"\u{201C}\u{2018}'([{".contains($0) }).first?.isUppercase == true }
    }

    static let numberWords: [String: Int] = {
        var w = ["one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                 "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
                 "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
                 "sixty": 60, "ninety": 90]
        for (tens, t) in [("twenty", 20), ("thirty", 30), ("forty", 40), ("fifty", 50)] {
            for (unit, u) in [("one", 1), ("two", 2), ("three", 3), ("four", 4), ("five", 5), ("six", 6), ("seven", 7),
                              ("eight", 8), ("nine", 9)] { w["\(tens)-\(unit)"] = t + u }
        }
        return w
    }()
    /// "first" to "thirty-first" (and "twenty first" once tokenized), "last" is -1.
    static let ordinalWords: [String: Int] = {
        let units = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"]
        var w = ["last": -1, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15,
                 "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20, "thirtieth": 30]
        for (k, u) in units.enumerated() { w[u] = k + 1; w["twenty-" + u] = 21 + k }
        w["thirty-first"] = 31
        return w
    }()
    /// "twenty", "thirty"…: the first word of a number or ordinal written in two ("twenty first").
    static let tensWords: Set<String> = ["twenty", "thirty", "forty", "fifty"]
    static let months = ["january", "february", "march", "april", "may", "june", "july", "august",
                         "september", "october", "november", "december"]
    /// A weekday's name with one slip ("thurdsay", "satruday", "frday"): one
    /// letter added, dropped, changed, or two neighbours swapped, with its
    /// first letter right, and no other day's name as near. Read as that day
    /// and said. English words that near (a dictionary's, checked) are not.
    static func nearWeekday(_ w: String) -> String? {
        guard w.count >= 5, w.count <= 10, w.allSatisfy({ $0.isASCII && $0.isLetter }), weekday(w) == nil,
              !["sundae", "sundas", "sundry", "frida", "sundar", "munday", "mondal", "monda", "tuesdae"].contains(w) else { return nil }
        let near = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].filter { n in
            n.first == w.first && w != n + "s" && ReminderParser.ParseState.oneEditApart(Array(w), Array(n))
        }
        return near.count == 1 ? near[0] : nil
    }

    /// Common misspellings, read as the word meant (and said so).
    static let typos: [String: String] = [
        "tommorow": "tomorrow", "tomorow": "tomorrow", "tommorrow": "tomorrow", "tomorrw": "tomorrow", "tmrw": "tomorrow",
        "tmr": "tomorrow", "2morrow": "tomorrow", "tomorroe": "tomorrow", "tonite": "tonight", "evrey": "every", "evry": "every",
        "everyday": "every day", "wensday": "wednesday", "wednsday": "wednesday", "wedensday": "wednesday", "wendsday": "wednesday",
        "thrusday": "thursday", "thursdy": "thursday", "tuesdya": "tuesday", "teusday": "tuesday", "tusday": "tuesday",
        "saterday": "saturday", "saturaday": "saturday", "fridy": "friday", "firday": "friday", "mondya": "monday",
        "sundya": "sunday", "minuts": "minutes", "mintues": "minutes", "minutues": "minutes", "hourse": "hours",
        "weekely": "weekly", "montly": "monthly", "quartely": "quarterly", "quaterly": "quarterly", "quarterley": "quarterly", "dialy": "daily", "daliy": "daily", "mornign": "morning", "mornin": "morning", "evenin": "evening",
        "wendesday": "wednesday", "tuesdy": "tuesday", "thursady": "thursday", "tuseday": "tuesday", "tueday": "tuesday", "thurday": "thursday",
        "wednseday": "wednesday", "satuday": "saturday", "frid": "friday", "todya": "today", "tody": "today", "toady": "today",
        "tomrrow": "tomorrow", "tonigth": "tonight", "tonihgt": "tonight", "sunady": "sunday", "fiday": "friday", "mondy": "monday",
        "septmber": "september", "setpember": "september", "novmber": "november", "decmber": "december", "ocotber": "october",
        "janaury": "january", "feburay": "february", "agust": "august", "auguts": "august",
        "evenign": "evening", "febuary": "february", "feburary": "february", "wekdays": "weekdays", "weekdyas": "weekdays",
        // Shorthands people type.
        "nxt": "next", "b4": "before", "wk": "week", "wks": "weeks", "wkday": "weekday", "wkdays": "weekdays", "wkend": "weekend", "wkends": "weekends", "yr": "year", "yrs": "years", "mth": "month", "mths": "months",
        // Australian.
        "arvo": "afternoon", "arvos": "afternoons",
        "2moro": "tomorrow", "2mrw": "tomorrow", "2moz": "tomorrow", "tomoz": "tomorrow", "tmro": "tomorrow", "tmrrw": "tomorrow",
        "2day": "today", "2nite": "tonight", "2night": "tonight",
        "tmw": "tomorrow", "tmrow": "tomorrow", "nite": "night", "nites": "nights", "weds": "wed", "aft": "afternoon",
        // Prescriptions' Latin, and half-yearly.
        "bd": "twice daily", "bid": "twice daily", "b.d": "twice daily", "tds": "three times daily", "tid": "three times daily",
        "qds": "four times daily", "qid": "four times daily", "semi-annual": "every 6 months", "semiannual": "every 6 months",
        "half-yearly": "every 6 months", "workdays": "weekdays", "evey": "every", "eveyr": "every", "ervery": "every", "everey": "every",
        "eveery": "every", "evrry": "every", "biannual": "biannually", "biennial": "every 2 years", "biennially": "every 2 years",
        "bi-weekly": "biweekly", "bi-monthly": "bimonthly", "semi-annually": "semiannually", "bi-annually": "biannually",
        "bi-yearly": "biannually", "semi-yearly": "semiannually", "mos": "months",
        "tomorrow's": "tomorrow", "today's": "today", "tonight's": "tonight",
        "monday's": "monday", "tuesday's": "tuesday", "wednesday's": "wednesday", "thursday's": "thursday", "friday's": "friday",
        "saturday's": "saturday", "sunday's": "sunday", "wednesdy": "wednesday", "sundy": "sunday", "monay": "monday",
        "tuesay": "tuesday", "tmorrow": "tomorrow", "tmorow": "tomorrow", "tomrow": "tomorrow", "janurary": "january", "decemeber": "december",
        "wek": "week", "sometim": "sometime", "erly": "early",
    ].merging(medical) { a, _ in a }
    /// Words before a "bid" that is placed, not a dose: "place bid", "final bid".
    static let bidPlacers: Set<String> = ["place", "submit", "make", "raise", "win", "lose", "my", "a", "the", "your", "our", "their", "his", "her",
                                          "final", "opening", "highest", "winning", "lowest", "counter", "top", "best", "low", "high", "no"]
    /// Prescriptions' Latin for how many times a day.
    static let prescriptions: Set<String> = ["bd", "bid", "b.d", "tds", "tid", "qds", "qid"]
    /// Whether a sentence names a dose or a medicine ("500mg", "2 tabs", "eye drops", "meds"): "bid" is then twice daily.
    static func doseSaid<S: StringProtocol>(_ pieces: [S]) -> Bool {
        let words: Set<String> = ["mg", "ml", "mcg", "tab", "tabs", "tablet", "tablets", "pill", "pills", "cap", "caps", "capsule", "capsules",
                                  "drop", "drops", "puff", "puffs", "dose", "doses", "meds", "med", "medication", "medicine", "antibiotic",
                                  "antibiotics", "abx", "inhaler", "cream", "ointment", "spray", "insulin", "po", "rx"]
        return pieces.contains { (p: S) -> Bool in
            let w = String(p.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "." })
            let unit = w.drop(while: { $0.isNumber || $0 == "." })
            // "x10d", "x7": a course of days.
            let course = w.hasPrefix("x") && w.count > 1 && w.dropFirst().allSatisfy { $0.isNumber || $0 == "d" } && w.dropFirst().first?.isNumber == true
            return words.contains(w) || course || (unit.count < w.count && ["mg", "ml", "mcg", "g", "iu", "u"].contains(String(unit)))
        }
    }
    /// A prescription's "every N hours" ("q6h", "q4hr", "q12hrs"), as
    /// nurses and pharmacies write it.
    static let medical: [String: String] = Dictionary(uniqueKeysWithValues: [1, 2, 3, 4, 6, 8, 12, 24].flatMap { n in
        ["h", "hr", "hrs"].map { ("q\(n)\($0)", "every \(n) hours") }
    })
    /// Words that promise a repeat: left in the title, they mean "not understood".
    static let recurrenceWords: Set<String> = [
        "every", "each", "daily", "weekly", "monthly", "yearly", "annually", "hourly", "nightly", "biweekly", "fortnightly",
        "bimonthly", "quarterly", "weekdays", "weekends", "mondays", "tuesdays", "wednesdays", "thursdays", "fridays",
        "saturdays", "sundays", "except", "twice", "thrice", "repeat", "repeating", "recurring", "alternate", "until",
        "mornings", "evenings", "nights", "afternoons", "semiannually", "biannually", "semimonthly", "semi-monthly", "semiweekly",
        "semi-weekly",
    ]
    /// Single words that are a whole rule ("bimonthly" is read apart: it is ambiguous).
    static let ruleWords: [String: Recurrence] = [
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
    static let unitWords: [String: Recurrence.Unit] = [
        "hour": .hour, "hours": .hour, "hr": .hour, "hrs": .hour, "h": .hour,
        "day": .day, "days": .day, "week": .week, "weeks": .week, "month": .month, "months": .month,
        "year": .year, "years": .year,
    ]
    static let minuteWords: Set<String> = ["minute", "minutes", "min", "mins"]
    static let partsOfDay: Set<String> = ["morning", "afternoon", "evening", "night"]

    /// The sentence as tokens, and a note for each misspelling read as the word meant.
    static func tokenize(_ text: String) -> ([Token], [String]) {
        var out: [Token] = []
        var notes: [String] = []
        // Punctuation that joins words ("tomorrow,5pm", "mom...tomorrow", "mom;friday") parts them; brackets and
        // quotes around a word ("(5pm)", "[tomorrow]", "\"tomorrow\"") and a colon after one ("Friday:") are not part of it.
        var spaced = ""
        var prev: Character = " "
        // Spaces that do not break ("call mum tomorrow\u{00A0}at 5pm", pasted) are spaces.
        let chars = Array(text).map { ["\u{00A0}", "\u{2007}", "\u{202F}", "\u{2009}", "\u{3000}"].contains($0) ? " " : $0 }
        for (n, c) in chars.enumerated() {
            // "dentist@3pm", "@5pm": "@" before a time stands apart.
            if c == "@" && (prev.isLetter || (n + 1 < chars.count && chars[n + 1].isNumber)) { spaced += " @ "; prev = " "; continue }
            if (c == "," || c == ";") && !prev.isNumber { spaced.append(c); spaced.append(" "); prev = " "; continue }
            spaced.append(c)
            prev = c
        }
        spaced = spaced.replacingAll("...", " ").replacingAll("\u{2026}", " ")
        var pieces = spaced.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        // "bi weekly", "semi annually", "to morrow": one word in two.
        for k in pieces.indices.dropLast().reversed() {
            let a = pieces[k].lowercased(), b = pieces[k + 1].lowercased()
            if (["bi", "semi"].contains(a) && ["weekly", "monthly", "annually", "annual", "yearly"].contains(b)) || (a == "to" && b == "morrow") {
                pieces[k] = Substring(a == "to" ? "tomorrow" : a + "-" + b)
                pieces.remove(at: k + 1)
            }
        }
        // "9 o clock": "o'clock" in two words.
        for k in pieces.indices.dropLast().reversed() where pieces[k].lowercased() == "o" && pieces[k + 1].lowercased().hasPrefix("clock") {
            pieces[k] = Substring("o'" + pieces[k + 1])
            pieces.remove(at: k + 1)
        }
        for (k, piece) in pieces.enumerated() {
            var raw = String(piece)
            var comma = false
            var word = raw.lowercased().replacingAll("\u{2019}", "'")
            // (A closing single quote too, "friday 5pm'", but not a plural's apostrophe, "the girls'".)
            while let last = word.last, ",.;!?:)]}\"*".contains(last) || (last == "'" && word.count > 2 && word.dropLast().last != "s") {
                if last == "," || last == ";" || last == ":" { comma = true }
                word.removeLast()
            }
            while let first = word.first, "([{\"~*".contains(first) || (first == "'" && !word.hasPrefix("'til") && !(word.count == 3 && word.dropFirst().allSatisfy(\.isNumber))), word.count > 1 { word.removeFirst() }
            if word.isEmpty {
                if !out.isEmpty { out[out.count - 1].commaAfter = out[out.count - 1].commaAfter || comma }
                continue
            }
            if raw.hasSuffix(",") && !raw.dropLast().isEmpty { raw = String(raw.dropLast()) }
            // Prescriptions' Latin ("bid", "tds") is no dose that falls due: "holiday shift bid due dec 1 at 1900"
            // is a bid, a word of the title; so is "bid" in a sentence that names no dose or medicine ("place bid sat 5pm").
            // ("keflex bid for 10 days": a course of days after it says a dose too.)
            // (Not a bid placed or made: "place bid for 10 days".)
            let course = k + 3 < pieces.count && !(k > 0 && bidPlacers.contains(pieces[k - 1].lowercased()))
                && pieces[k + 1].lowercased() == "for" && Int(pieces[k + 2]) != nil && pieces[k + 3].lowercased().hasPrefix("day")
            if prescriptions.contains(word), pieces.contains(where: { $0.lowercased() == "due" }) || (word == "bid" && !doseSaid(pieces) && !course) {
                out.append(Token(raw: raw, word: word, commaAfter: comma))
                continue
            }
            if let fixed = typos[word] ?? ((k > 0 && raw.first?.isUppercase == true) ? nil : nearWeekday(word)) {
                notes.append("'\(word)' read as '\(fixed)'")
                let parts = fixed.split(separator: " ").map(String.init)
                for (k, p) in parts.enumerated() {
                    out.append(Token(raw: k == 0 ? raw : "", word: p, commaAfter: k == parts.count - 1 && comma))
                }
                continue
            }
            let before = k > 0 ? pieces[k - 1].lowercased() : "", after = k + 1 < pieces.count ? pieces[k + 1].lowercased() : ""
            // "2026-12-01T15:00", "2026-12-01T15:00:00": a date and a time (with a zone after it, not read).
            if let t = word.firstIndex(of: "t"), word.distance(from: word.startIndex, to: t) == 10, let time = isoTime(word[word.index(after: t)...]) {
                out.append(Token(raw: raw, word: String(word[..<t]), commaAfter: false))
                out.append(Token(raw: "", word: time, commaAfter: comma))
                continue
            }
            // "1930hrs", "1930 hrs", "19:30hrs", "2300h": a clock time as the forces and hospitals write it.
            func clock4(_ s: Substring) -> String? {
                guard s.count == 4, s.allSatisfy({ $0.isASCII && $0.isNumber }), let v = Int(s), v / 100 < 24, v % 100 < 60 else { return nil }
                return String(s.prefix(2)) + ":" + String(s.suffix(2))
            }
            if ["hrs", "hr", "hours"].contains(word), clock4(Substring(before)) != nil { continue }
            // "1430Z", "14:30z": a time in UTC as pilots write it; the zone is read after it.
            if word.hasSuffix("z"), let t = clock4(word.dropLast()) ?? isoTime(word.dropLast()).map({ _ in String(word.dropLast()) }) {
                out.append(Token(raw: String(raw.dropLast()), word: t, commaAfter: false))
                out.append(Token(raw: "Z", word: "z", commaAfter: comma))
                continue
            }
            if let suffix = ["hrs", "hr", "h"].first(where: { word.hasSuffix($0) }),
               let t = clock4(word.dropLast(suffix.count)) ?? (suffix == "h" ? nil : isoTime(word.dropLast(suffix.count)).map { _ in String(word.dropLast(suffix.count)) }) {
                out.append(Token(raw: raw, word: t, commaAfter: comma))
                continue
            }
            if ["hrs", "hr"].contains(after), let t = clock4(Substring(word)) {
                out.append(Token(raw: raw, word: t, commaAfter: comma))
                continue
            }
            // "call mum ever Sunday": "every", said (not "did you ever").
            if word == "ever", Weekdays.parse(after.filter(\.isLetter)) != nil || ["day", "week", "month", "morning", "evening", "night", "year"].contains(after) {
                notes.append("'ever' read as 'every'")
                out.append(Token(raw: raw, word: "every", commaAfter: comma))
                continue
            }
            // "thurs eve", "tomorrow eve": the evening, said.
            if word == "eve", Weekdays.parse(before.filter(\.isLetter)) != nil || ["today", "tomorrow", "tmrw", "tmw", "tmr"].contains(before) {
                notes.append("'eve' read as 'evening'")
                out.append(Token(raw: raw, word: "evening", commaAfter: comma))
                continue
            }
            // "15h30" after "at", or past 12: a clock time, as French and others write it (else hours and minutes).
            if let parts = splitHoursMinutes(word), let h = Int(parts[0]), h <= 23, parts[2].count == 2,
               ["at", "@", "by", "from", "until", "till", "to", "-"].contains(before) || h > 12 {
                out.append(Token(raw: raw, word: parts[0] + ":" + parts[2], commaAfter: comma))
                continue
            }
            // "friday5pm", "5pmfriday", "tmrw9am": a day and a time glued.
            if let (a, b) = splitDayAndTime(word) {
                for (n, p) in [a, b].enumerated() {
                    let fixed = typos[p] ?? p
                    if fixed != p { notes.append("'\(p)' read as '\(fixed)'") }
                    out.append(Token(raw: n == 0 ? raw : "", word: fixed, commaAfter: n == 1 && comma))
                }
                continue
            }
            // "10am/10pm": two times in one word.
            if word.contains("/"), word.split(separator: "/").count == 2,
               word.split(separator: "/").allSatisfy({ ($0.hasSuffix("am") || $0.hasSuffix("pm")) && $0.first?.isNumber == true }) {
                let parts = word.split(separator: "/").map(String.init)
                out.append(Token(raw: raw, word: parts[0], commaAfter: false))
                out.append(Token(raw: "", word: "and", commaAfter: false))
                out.append(Token(raw: "", word: parts[1], commaAfter: comma))
                continue
            }
            // "tues n thurs": "and" between two days, said.
            // (So too "tuesdays n thursdays", "weekdays n sat", "1st n 15th", "tues + thurs"; "n 2 days" is "in 2 days".)
            func dayLike(_ s: String) -> Bool {
                let l = s.filter { $0.isLetter || $0.isNumber }
                return weekday(l) != nil || ["weekdays", "weekends", "weekday", "weekend"].contains(l) || (ordinal(l).map { $0 >= 1 } ?? false) && l.first?.isNumber == true
            }
            let hours = (Int(before.prefix(while: \.isNumber)).map { (0...24).contains($0) } ?? false) && (Int(after.prefix(while: \.isNumber)).map { (0...24).contains($0) } ?? false)
            if word == "n" || word == "+", dayLike(before) && dayLike(after) || (word == "n" && hours) {
                notes.append("'\(word)' read as 'and'")
                out.append(Token(raw: raw, word: "and", commaAfter: comma))
                continue
            }
            if word == "n", k + 2 < pieces.count, number(after) != nil, unitWords[pieces[k + 2].lowercased()] != nil || minuteWords.contains(pieces[k + 2].lowercased()) {
                notes.append("'n' read as 'in'")
                out.append(Token(raw: raw, word: "in", commaAfter: comma))
                continue
            }
            // "once-a-month deep clean", "twice-a-week": the rule in one word.
            if word.contains("-"), let first = word.split(separator: "-").first, ["once", "twice"].contains(first),
               word.split(separator: "-").count == 3, word.split(separator: "-")[1] == "a", unitWords[String(word.split(separator: "-")[2])] != nil {
                let parts = word.split(separator: "-").map(String.init)
                for (n, p) in parts.enumerated() { out.append(Token(raw: n == 0 ? raw : "", word: p, commaAfter: n == 2 && comma)) }
                continue
            }
            // "x10d", "x7 days" in a sentence naming a dose: a course, "for 10 days".
            if word.hasPrefix("x"), pieces.indices.contains(where: { $0 != k && (prescriptions.contains(pieces[$0].lowercased()) || medical[pieces[$0].lowercased()] != nil
                                                                                  || ["daily", "hourly", "every"].contains(pieces[$0].lowercased())) })
                || doseSaid(pieces.indices.filter { $0 != k }.map { pieces[$0] }), let n = Int(word.dropFirst().prefix(while: \.isNumber)), (1...365).contains(n) {
                let tail = word.dropFirst().drop(while: \.isNumber)
                if ["d", "day", "days"].contains(String(tail)) || (tail.isEmpty && ["d", "day", "days"].contains(after.filter(\.isLetter))) {
                    notes.append("'\(word)' read as 'for \(n) days'")
                    out.append(Token(raw: raw, word: "for", commaAfter: false))
                    out.append(Token(raw: "", word: String(n), commaAfter: tail.isEmpty && comma))
                    if !tail.isEmpty { out.append(Token(raw: "", word: "days", commaAfter: comma)) }
                    continue
                }
            }
            // "2x daily", "3x a day": that many times.
            if word.count >= 2, word.hasSuffix("x"), let n = Int(word.dropLast()), (2...9).contains(n),
               ["daily", "a", "per", "each", "every", "weekly", "monthly"].contains(after) {
                out.append(Token(raw: raw, word: String(n), commaAfter: false))
                out.append(Token(raw: "", word: "times", commaAfter: comma))
                continue
            }
            // "03.12.", "15.04.2027": a date with dots (a trailing dot keeps "03.12." from being 03:12).
            let dotDate = raw.hasSuffix(".") && !["at", "@", "by"].contains(before) && word.split(separator: ".").count == 2
            // "20:00h": a 24-hour clock with its "h"; "weeks'": the plural's apostrophe.
            if word.hasSuffix("h"), word.dropLast().contains(":"), isoTime(word.dropLast()) != nil { word.removeLast() }
            if word.hasSuffix("s'") && word.count > 3 { word.removeLast() }
            // "3pm-ish", "11ish", "noonish": about that time, read as that time (and said so).
            if let about = aboutTime(word) {
                notes.append("'\(word)' read as '\(about)'")
                word = about
            }
            // "9.30pm", "9.30": a clock time with a dot.
            // (Not before a unit: "2.75 hours" is an amount.)
            // (Not a version: "python 3.12", "node 20.11"; a time with a dot has "at" before it, am/pm, or minutes in fives.)
            let clockLike = ["at", "@", "by", "from", "until", "till", "to", "around", "-"].contains(before) || word.hasSuffix("m")
                || (word.split(separator: ".").last.flatMap { Int($0.prefix(2)) }.map { $0 % 5 == 0 } ?? false)
                    && !versioned.contains(before)
            if !dotDate, clockLike, let dot = word.firstIndex(of: "."), word[..<dot].allSatisfy(\.isNumber), !word[..<dot].isEmpty,
               !(k + 1 < pieces.count && unitWords[pieces[k + 1].lowercased()] != nil) {
                let rest = word[word.index(after: dot)...]
                if rest.count >= 2, rest.prefix(2).allSatisfy(\.isNumber), ["", "am", "pm"].contains(String(rest.dropFirst(2))) {
                    word = String(word[..<dot]) + ":" + rest
                }
            }
            // "2h30": hours and minutes glued.
            if let parts = splitHoursMinutes(word) {
                for (k, p) in parts.enumerated() { out.append(Token(raw: k == 0 ? raw : "", word: p, commaAfter: k == 3 && comma)) }
                continue
            }
            // "2h", "30min", "3d": a number glued to its unit.
            if let split = splitUnit(word) {
                out.append(Token(raw: raw, word: split.0, commaAfter: false))
                out.append(Token(raw: "", word: split.1, commaAfter: comma))
                continue
            }
            // "twenty first", "thirty one": one number or ordinal in two words.
            if let prev = out.last, tensWords.contains(prev.word), !prev.commaAfter, !prev.raw.isEmpty,
               ordinalWords[prev.word + "-" + word] != nil || numberWords[prev.word + "-" + word] != nil {
                out[out.count - 1] = Token(raw: prev.raw + " " + raw, word: prev.word + "-" + word, commaAfter: comma)
                continue
            }
            out.append(Token(raw: raw, word: word, commaAfter: comma))
        }
        return (out, notes)
    }

    /// Words before a number with a dot that make it a version, not a time.
    static let versioned: Set<String> = ["python", "node", "nodejs", "ios", "ipados", "macos", "android", "version", "v", "ver", "release",
                                         "firefox", "chrome", "java", "swift", "ruby", "go", "rust", "php", "perl", "ubuntu", "debian",
                                         "fedora", "kernel", "linux", "windows", "xcode", "app", "update", "build", "chapter", "section",
                                         "verse", "psalm", "psalms", "page", "pp", "exercise", "problem", "question", "lesson", "unit"]

    /// "15:00", "15:00:00" after an ISO date's "T", as "15:00"; nil for
    /// anything else (a zone after it too: that is not read).
    static func isoTime(_ s: Substring) -> String? {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(parts[0]), let m = Int(parts[1]), h < 24, m < 60 else { return nil }
        return parts[0] + ":" + parts[1]
    }

    /// "friday5pm" as ("friday", "5pm"), "5pmfriday" as ("5pm", "friday"),
    /// "tmrw9am": a day's name and a time with am/pm glued together.
    static func splitDayAndTime(_ w: String) -> (String, String)? {
        let letters = w.prefix { $0.isLetter }, rest = w.dropFirst(letters.count)
        func day(_ x: Substring) -> Bool {
            x.count >= 3 && (Weekdays.parse(String(x)) != nil || ["today", "tomorrow", "tonight", "tmrw", "tmr"].contains(String(x)))
        }
        func time(_ x: Substring) -> Bool {
            (x.hasSuffix("am") || x.hasSuffix("pm")) && x.count >= 3 && x.dropLast(2).allSatisfy { $0.isNumber || $0 == ":" } && x.first?.isNumber == true
        }
        if day(letters) && time(rest) { return (String(letters), String(rest)) }
        let chars = Array(w)
        guard let m = chars.indices.dropFirst().first(where: { chars[$0] == "m" && (chars[$0 - 1] == "a" || chars[$0 - 1] == "p") }) else { return nil }
        let t = w.prefix(m + 1), d = w.dropFirst(m + 1)
        if time(t) && day(d) { return (String(t), String(d)) }
        return nil
    }

    /// "3pm-ish" as "3pm", "11ish" as "11:00", "noonish" as "noon": a time
    /// of day with "ish" after it; nil for anything else ("8ish" alone is
    /// "8:00", so that it is read only beside a day, as "fri 8:00" is).
    static func aboutTime(_ w: String) -> String? {
        guard w.hasSuffix("ish"), w.count > 3 else { return nil }
        var t = String(w.dropLast(3))
        if t.hasSuffix("-") { t.removeLast() }
        if t == "noon" || t == "midnight" { return t }
        var digits = t
        for s in ["am", "pm"] where digits.hasSuffix(s) { digits = String(digits.dropLast(2)) }
        let parts = digits.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(parts[0]), h <= 23, parts.count == 1 || (Int(parts[1]) ?? 60) < 60 else { return nil }
        return digits == t && parts.count == 1 ? t + ":00" : t
    }

    /// "2h" as ("2", "hours"): a number and the unit glued to it.
    static func splitUnit(_ w: String) -> (String, String)? {
        let digits = w.prefix { $0.isNumber }
        guard !digits.isEmpty, digits.count < w.count else { return nil }
        let unit = String(w.dropFirst(digits.count))
        let units = ["h": "hours", "hr": "hours", "hrs": "hours", "m": "minutes", "min": "minutes", "mins": "minutes",
                     "d": "days", "w": "weeks", "wk": "weeks", "wks": "weeks"]
        guard let u = units[unit] else { return nil }
        return (String(digits), u)
    }

    /// "2h30", "1h45m": hours and minutes glued, as four tokens' words.
    static func splitHoursMinutes(_ w: String) -> [String]? {
        guard let h = w.firstIndex(of: "h") else { return nil }
        let hours = w[..<h], rest = w[w.index(after: h)...]
        let mins = rest.hasSuffix("m") ? rest.dropLast() : rest.hasSuffix("min") ? rest.dropLast(3) : rest
        guard !hours.isEmpty, hours.count <= 4, hours.allSatisfy({ $0.isASCII && $0.isNumber }), !mins.isEmpty, mins.count <= 2,
              mins.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return [String(hours), "hours", String(mins), "minutes"]
    }

    /// "3", "three".
    static func number(_ w: String) -> Int? {
        if let n = Int(w), n >= 0 { return n }
        return numberWords[w]
    }

    /// "2nd", "second", "15th" (up to 31); "last" is -1.
    static func ordinal(_ w: String) -> Int? {
        if let o = ordinalWords[w] { return o }
        for suffix in ["st", "nd", "rd", "th"] where w.hasSuffix(suffix) {
            if let n = Int(w.dropLast(2)), (1...31).contains(n) { return n }
        }
        return nil
    }

    /// A weekday (0 = Sunday), also in the plural: "tue", "tuesday", "tuesdays".
    static func weekday(_ w: String) -> Int? {
        if let d = Weekdays.parse(w) { return d }
        if w.hasSuffix("s"), let d = Weekdays.parse(String(w.dropLast())) { return d }
        return nil
    }

    /// A month (1 = January): its name, three letters or more of it, or "sept".
    static func month(_ w: String) -> Int? {
        if let i = months.firstIndex(of: w) { return i + 1 }
        if w.count >= 3, let i = months.firstIndex(where: { $0.hasPrefix(w) }) { return i + 1 }
        if w == "sept" { return 9 }
        return nil
    }
}

extension ReminderParser {
    /// Month names, lower case, January first (the form and habitmatch name months with them).
    static var months: [String] { ReminderLexicon.months }
    /// "2nd", "second", "last" (-1): yomo's form reads "2nd-tue" with it too.
    static func ordinal(_ w: String) -> Int? { ReminderLexicon.ordinal(w) }
}
