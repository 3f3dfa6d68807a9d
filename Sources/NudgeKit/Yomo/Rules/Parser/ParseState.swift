// The parse state: the sentence's tokens, the reader's place in them, and
// the reminder's form as it fills up (date, time of day, rule, the rule's
// hours, ends and exclusions), with what the user must be told (assumptions,
// warnings, a conflict). Every phrase reader is a method on it.
//
// Invariants:
// - A phrase reader looks at the unread token at `i`. Either it recognises
//   its phrase there, marks the phrase's tokens used, moves `i` past them and
//   returns true; or it changes nothing and returns false, and the next
//   reader is tried. Three readers step over a word they leave in the title
//   and return true: "every" and "except" before words they do not know, and
//   "by" before a bare hour.
// - A used token never goes back into the title.
// - A second date, time or rule that differs from the first is a conflict:
//   the first conflict found is the one reported, and the later value is
//   kept.
// - The readers only collect. Settling a bare hour's am/pm, the rule's hours,
//   exclusions and ends happens once, after the last token, when the result
//   is built: a later word can still change them ("at 7 in the evening").

extension ReminderParser {
    struct ParseState {
        typealias Token = ReminderLexicon.Token

        let tokens: [Token]
        /// Tokens read into the form; the others make the title.
        var used: [Bool]
        /// The first word not taken by a lead-in or a reading ("1830 collect kids": the four digits).
        var firstWord: Int { used.firstIndex(of: false) ?? 0 }
        /// Tokens inside quotes of two words or more ("Friday Night Lights"):
        /// a name, never read as when.
        let quoted: [Bool]
        /// The token being read.
        var i = 0
        let now: Instant
        /// The day of `now` where the user is: relative dates count from it.
        let today: Day

        var date: Day? = nil
        /// The words that gave `date`, for a conflict's message.
        var dateSaid: String? = nil
        /// The time of day as written, and the words that gave it.
        var timeWritten: (time: WrittenTime, said: String)? = nil
        var rule = Recurrence.once
        /// The words that gave the first rule, for a conflict's message.
        var ruleSaid: String? = nil
        /// "from 9 to 5" after an hourly rule: the hours it runs, not settled yet.
        var ruleHours: (from: WrittenTime, to: WrittenTime)? = nil
        /// morning, afternoon, evening or night: it settles a bare hour, or is
        /// the time itself when there is none.
        var partOfDay: String? = nil
        /// "in 20 minutes": the instant.
        var relative: Instant? = nil
        /// The rule's last day, its number of times, and the weekdays it
        /// skips: applied to the rule when the result is built.
        var until: Day? = nil
        /// "until 6pm" after an intraday rule: its last time, and the words.
        var untilTime: (WrittenTime, String)? = nil
        var count: Int? = nil
        /// "for 3 weeks": counted once the time is known.
        var forDuration: (Int, Recurrence.Unit, String)? = nil
        /// "the last thursday of november": its place, should a yearly rule come with it.
        var ordinalInMonth: (ordinal: Int, weekday: Int, month: Int)? = nil
        var exceptDays: [Int] = []
        /// Whether "starting", "from" or the like said the rule's first day.
        var startingSaid = false
        /// Days the rule skips ("not on dec 23"): cancelled once the time is known.
        var skips: [Day] = []

        var assumptions: [String]
        /// Which of them says a rule with no day said counts from today.
        var countedFromToday: String? = nil
        var warnings: [String] = []
        var conflict: String? = nil
        /// Words that carry a time but were not read: `add` refuses them.
        var unread: [String] = []
        /// The reminder's zone, which decides the UK's or the US's named days.
        let zoneName: String
        /// A named day said alone ("christmas shopping"): (date, token, length, note).
        var pendingNamedDay: (Day, Int, Int, String)? = nil
        /// More times after the first ("at 7am and 9pm"): a daily or weekly rule's.
        var moreTimes: [(WrittenTime, String)] = []
        /// "twice a day" with its hours assumed (the count, and the note): times said later in the sentence are its hours.
        var timesADay: (Int, String)? = nil
        /// Whether the rule so far is one word ("weekly"), which a later phrase may say in full.
        var ruleFromWord = false
        /// The day of the month a "the 31st" gave `date`, for a monthly rule.
        var dayOfMonthSaid: Int? = nil
        /// "in december": the words and the month, for its first day.
        var monthSaid: (said: String, month: Int)? = nil

        init(text: String, now: Instant, today: Day, zoneName: String = "") {
            let (tokens, typoNotes) = ReminderLexicon.tokenize(text)
            self.tokens = tokens
            self.used = [Bool](repeating: false, count: tokens.count)
            self.quoted = Self.quotedNames(tokens)
            self.now = now
            self.today = today
            self.zoneName = zoneName
            self.assumptions = typoNotes
        }

        /// Which tokens are inside a quoted name of two words or more.
        static func quotedNames(_ tokens: [Token]) -> [Bool] {
            var out = [Bool](repeating: false, count: tokens.count)
            // Double quotes, and single ones ("update the 'sunday funday' overlay") around at most six words,
            // opened before a letter (not "'til") and closed after one.
            let pairs: [Character: Set<Character>] = ["\"": ["\""], "\u{201C}": ["\u{201D}"], "'": ["'"], "\u{2018}": ["\u{2019}"]]
            var k = 0
            while k < tokens.count {
                let raw = tokens[k].raw
                // One word in single quotes is a name too ("the 'monday' file", "'5pm' slot"); in double ones it is the word.
                let bare = raw.reversed().drop(while: { ",.;:!?)".contains($0) })
                if raw.count > 2, raw.first == "'" || raw.first == "\u{2018}", bare.first == "'" || bare.first == "\u{2019}",
                   bare.dropFirst().first.map({ $0.isLetter || $0.isNumber }) == true {
                    out[k] = true
                    k += 1
                    continue
                }
                guard let f = raw.first, let closes = pairs[f], !(raw.count > 1 && raw.dropFirst().last.map(closes.contains) == true),
                      !["'til", "'till", "'cause", "'bout", "'em"].contains(raw.lowercased()),
                      f == "\"" || f == "\u{201C}" || raw.dropFirst().first?.isLetter == true else { k += 1; continue }
                let single = f == "'" || f == "\u{2018}"
                // The closing quote, on a later word (its trailing punctuation aside).
                guard let e = (k + 1..<(single ? min(tokens.count, k + 6) : tokens.count)).first(where: { j in
                    let back = tokens[j].raw.reversed().drop(while: { ",.;:!?)".contains($0) })
                    return back.first.map(closes.contains) == true
                        && (!single || back.dropFirst().first.map { $0.isLetter || $0.isNumber || "?!.".contains($0) } == true)  // "'is 5pm ok?'"
                }) else { if single { k += 1; continue } else { break } }
                // The whole sentence in quotes is only quoted: read as if it were not ("'call mum friday 5pm'").
                if k == 0 && e == tokens.count - 1 { break }
                // Quotes around a time alone, two words or more ending the sentence, only stress it ("dentist 'tuesday 4pm'").
                let timeWords: Set<String> = ["today", "tomorrow", "tonight", "at", "next", "this", "am", "pm", "noon", "midnight", "morning", "evening"]
                if e == tokens.count - 1, e > k, (k...e).allSatisfy({ j in let w = tokens[j].word
                    return ReminderLexicon.weekday(w) != nil || ReminderLexicon.month(w) != nil || w.first?.isNumber == true || timeWords.contains(w) }) {
                    k = e + 1
                    continue
                }
                for j in k...e { out[j] = true }
                k = e + 1
            }
            return out
        }

        /// The word at `k`, or "" before the first token and past the last.
        func word(_ k: Int) -> String { k >= 0 && k < tokens.count ? tokens[k].word : "" }

        /// The words of `n` tokens from `from`, as messages quote them.
        func phrase(_ from: Int, _ n: Int) -> String {
            (from..<min(tokens.count, from + n)).map { tokens[$0].word }.joined(separator: " ")
        }

        /// Marks `n` tokens from `from` as read into the form.
        mutating func take(_ from: Int, _ n: Int) {
            for k in from..<min(tokens.count, from + n) { used[k] = true }
        }

        /// Takes `n` tokens at `i` and moves past them: a reader's `return consume(n)`.
        mutating func consume(_ n: Int) -> Bool {
            take(i, n)
            i += n
            return true
        }

        /// The rule said by `n` tokens from `from`.
        mutating func setRule(_ r: Recurrence, _ from: Int, _ n: Int) {
            let said = phrase(from, n)
            if r.kind == .custom && !(1...1000).contains(r.interval) && conflict == nil {
                conflict = "'\(said)': yomo repeats a rule every 1 to 1000 \(r.unit.rawValue)s"
            }
            // "weekly groceries every saturday": a rule word that a later phrase says in full is one rule.
            let refines = ruleFromWord && rule.effective.unit == r.effective.unit && rule.effective.interval == r.effective.interval
            if rule.repeats && r != rule && !refines && conflict == nil {
                conflict = "two rules in one sentence ('\(ruleSaid ?? "")' and '\(said)'): one reminder holds one rule; add them one at a time"
            }
            rule = r
            ruleSaid = ruleSaid ?? said
            take(from, n)
        }

        /// The time of day said by `n` tokens from `from`.
        mutating func setTime(_ t: WrittenTime, _ from: Int, _ n: Int) {
            let said = phrase(from, n)
            if let (old, oldSaid) = timeWritten, (old.hour, old.minute) != (t.hour, t.minute) || old.sure != t.sure, conflict == nil {
                conflict = "two times in one sentence ('\(oldSaid)' and '\(said)'): one reminder holds one rule; add them one at a time"
            }
            timeWritten = (t, said)
            take(from, n)
        }

        /// The farthest a phrase may reach ("in N …", "for N …"): 100 years.
        static let reachDays = 36_525

        /// Whether `n` of `unit` (minutes, hours, days, weeks, months,
        /// years) is within `reachDays`. When it is not, the phrase of `len`
        /// tokens from `from` is read (it stays out of the title) and the
        /// sentence refused, saying so: a time that far is never meant.
        mutating func withinReach(_ n: Int, _ unit: String, _ from: Int, _ len: Int) -> Bool {
            let perDay: Double
            switch unit {
            case _ where ReminderLexicon.minuteWords.contains(unit): perDay = 1440
            case "hour", "hours", "hr", "hrs", "h": perDay = 24
            case "week", "weeks": perDay = 1.0 / 7
            case "month", "months": perDay = 12.0 / 365.25
            case "year", "years": perDay = 1.0 / 365.25
            default: perDay = 1
            }
            if Double(n) <= Double(Self.reachDays) * perDay { return true }
            if conflict == nil {
                conflict = "'\(phrase(from, len))' is more than 100 years away: yomo reads times up to 100 years ahead"
            }
            take(from, len)
            return false
        }

        /// "03/12" read the other way round from `slashDate`'s reading, if it is a date.
        func otherOrder(_ said: String) -> Day? {
            let p = said.split(separator: "/").compactMap { Int($0) }
            guard p.count == 2 || p.count == 3, said.split(separator: "/").count == p.count else { return nil }
            let monthFirst = zoneName.isEmpty || zoneName.hasPrefix("America/") || zoneName.hasPrefix("US/") || zoneName == "Pacific/Honolulu"
            let (m, d) = monthFirst ? (p[1], p[0]) : (p[0], p[1])
            guard (1...12).contains(m) else { return nil }
            if p.count == 3 {
                let day = Day(year: p[2] < 100 ? p[2] + 2000 : p[2], month: m, day: d)
                return day.isValid ? day : nil
            }
            return nextDate(month: m, day: d)
        }

        /// The date said by `n` tokens from `from`.
        mutating func setDate(_ d: Day, _ from: Int, _ n: Int) {
            let said = phrase(from, n)
            // A weekday and a date that agree ("Tues 12/8"): the date.
            func weekday(_ s: String?) -> Int? { s.flatMap { ReminderLexicon.weekday($0.hasPrefix("on ") ? String($0.dropFirst(3)) : $0) } }
            if let old = date, old != d, weekday(dateSaid) == d.weekday || weekday(said) == old.weekday {
                if weekday(said) == nil {
                    if let was = dateSaid { assumptions.removeAll { $0.hasPrefix("'\(was)'") } }  // "'sat' read as next week's": the date says which
                    date = d
                    dateSaid = said
                }
                take(from, n)
                return
            }
            // "Thu 03/12": the slash date's other order, when that is the day said.
            if date != nil, date != d, let wd = weekday(dateSaid), let alt = otherOrder(said), alt.weekday == wd {
                assumptions.removeAll { $0.hasPrefix("'\(said)'") }
                assumptions.append("'\(said)' read as \(alt), a \(Weekdays.display(wd)) as said")
                date = alt
                dateSaid = said
                take(from, n)
                return
            }
            if let old = date, old != d, conflict == nil {
                conflict = "two dates in one sentence ('\(dateSaid ?? "")' and '\(said)'): one reminder holds one rule; add them one at a time"
            }
            date = d
            dateSaid = said
            take(from, n)
        }
    }
}
