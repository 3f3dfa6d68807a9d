// The last check of a parse: words left in the title that carry a time or
// a date. A reminder whose "half past 8" or "on the fifteenth" was not read
// would fire at the default time, silently wrong; so such words are
// `unread`, and `add` refuses the sentence, naming them, unless --date or
// --time say when (or --literal keeps the text as the title).
//
// What counts, among the unread words: a clock shape ("8:30", "7pm",
// "noon", "o'clock"), "half"/"quarter" before "past"/"to", "in"/"within"/
// "after" before an amount and a unit, a weekday's full name or a weekday
// after "on", "every", "next", "this", "by", "until"; a month next to a
// number or after such a word; an ordinal after "the", "on", "every" that
// ends the sentence or comes before "of", a weekday, a month or "day";
// "today", "tonight", "tomorrow", "yesterday"; "at" before a number; "next"/
// "this" before a period; a part of the day after "this", "tomorrow",
// "every", "in the". A number alone ("read chapter 5", "buy 2 dozen eggs")
// and an ordinal before a noun ("the fifth element") are title words.

extension ReminderParser.ParseState {
    /// A word without the brackets around it: "(PST)" is "PST".
    static func unbracketed(_ raw: String) -> String {
        String(raw.drop(while: { "([".contains($0) }).reversed().drop(while: { ")],".contains($0) }).reversed())
    }

    /// A unit of time, or a word that counts days ("weekdays", "business days").
    static func unitLike(_ w: String) -> Bool {
        ReminderLexicon.unitWords[w] != nil || ReminderLexicon.minuteWords.contains(w)
            || ["weekdays", "weekday", "business", "working", "nights", "fortnight", "fortnights", "decade", "decades", "seconds", "second", "secs", "sec"].contains(w)
    }

    /// Whether the day or time words at `k..<k+len` name a thing, not when
    /// to remind: after "the" and before a word that is no time ("the
    /// Sunday paper", "the monday meeting"), or capitalised among
    /// capitalised words that are none ("Friday Night Lights", "High Noon").
    /// Left unread, they are refused, never read as a date.
    func namesAThing(at k: Int, len: Int) -> Bool {
        let after = k + len
        func timeish(_ j: Int) -> Bool {
            let w = word(j)
            return w.isEmpty || ReminderLexicon.partsOfDay.contains(w) || Self.dayWord(w) || ReminderLexicon.month(w) != nil || Int(w) != nil
                || writtenTime(at: j) != nil || Self.leadWords.contains(w) || Self.periodWords.contains(w)
                || ["at", "@", "to", "and", "or", "of", "in", "noon", "midnight", "next", "this", "coming", "week"].contains(w)
        }
        func capital(_ j: Int) -> Bool { j >= 0 && j < tokens.count && tokens[j].capitalised }
        if k > 0 && ["the", "a", "an"].contains(word(k - 1)) && !used[k - 1] && !timeish(after) { return true }
        if len == 1, tokens[k].raw.lowercased() == "sun", k > 0, !used[k - 1], Self.beforeTheSun.contains(word(k - 1)) { return true }  // "sit in the sun"
        // "Maundy Thursday", "Super Bowl Sunday", "Cyber Monday", "Man Friday", "Thank God It's Friday".
        if len == 1, ReminderLexicon.weekday(word(k)) != nil, k > 0, !used[k - 1],
           ["maundy", "fat", "super", "giving", "cyber", "holy", "bloody", "manic", "ruby", "man", "girl", "it's", "its", "bowl", "spy",
            "remembrance", "whit", "holiday", "trinity", "white", "low", "pentecost", "plough", "laetare", "rogation"].contains(word(k - 1)) {
            return true
        }
        // "SAT practice", "the SUN": an acronym in capitals among lower-case words is no day.
        if len == 1, ["SAT", "SUN"].contains(tokens[k].raw), writtenTime(at: k + 1) == nil, !ReminderLexicon.partsOfDay.contains(word(k + 1)),
           !(k > 0 && Self.leadWords.contains(word(k - 1))), tokens.contains(where: { $0.raw.contains(where: { $0.isLowercase }) }) { return true }
        // "buy sun cream" yes, "sat am" no: a day with am/pm after it is a day.
        if len == 1, ["am", "pm", "a.m", "p.m"].contains(word(k + 1)) { return false }
        // "buy sun cream", "sat nav": a day's short name that is an English word, before a word of the title;
        // first in the phrase it is the day ("sat soccer snacks", "sun brunch w/ mom") but in a compound.
        if len == 1, ["sun", "sat", "wed"].contains(tokens[k].raw.lowercased()), Self.titleWord(word(k + 1)), !Self.conditionAfterDay(tokens[k].raw.lowercased(), word(k + 1), after: word(k - 1)),
           !ReminderLexicon.partsOfDay.contains(word(k + 1)), !ReminderLexicon.partsOfDay.contains(String(word(k + 1).dropLast())),
           !(k > 0 && Self.leadWords.contains(word(k - 1))),
           k > 0 || Self.compound(tokens[k].raw.lowercased(), word(k + 1)) { return true }
        guard capital(k) else { return false }
        if inMediaTitle(k) { return true }
        var j = after
        if ReminderLexicon.partsOfDay.contains(word(j)) && capital(j) { j += 1 }
        if capital(j) && !timeish(j) { return true }
        return len == 1 && ["noon", "midnight"].contains(word(k)) && k > 1 && capital(k - 1) && !used[k - 1] && !timeish(k - 1)
    }

    /// "Tuesday Tiles Ltd", "Friday Motors Inc": a day before a company's
    /// suffix, or a word and one, names the company; so does a day before a
    /// kind of business, both capitalised ("Wednesday Cafe"). After "at",
    /// "to" and the like such a day is refused (`dayOrPlace`); elsewhere it
    /// is the day, said ("friday pub quiz").
    func namesABusiness(at k: Int) -> Bool {
        guard ReminderLexicon.weekday(word(k)) != nil, !word(k).hasSuffix("s") || Weekdays.parse(word(k)) != nil else { return false }
        let suffixes: Set<String> = ["ltd", "inc", "llc", "plc", "co", "corp", "pty", "gmbh", "llp"]
        if suffixes.contains(word(k + 1)) || (Self.titleWord(word(k + 1)) && suffixes.contains(word(k + 2))) { return true }
        guard Self.businessWords.contains(word(k + 1)) else { return false }
        return k + 1 < tokens.count && tokens[k].capitalised && tokens[k + 1].capitalised && tokens.contains(where: { $0.raw.first?.isLowercase == true })
    }

    /// Whether the word at `k` starts a capitalised name: it and the next
    /// word begin with a capital, the next is no time word, and the
    /// sentence has lower-case words (so capitals are not its style).
    func properName(at k: Int) -> Bool {
        // "call Dr Friday at 5pm": a title before it makes it a surname.
        if k > 0, tokens[k].capitalised, ["Dr", "Dr.", "Mr", "Mr.", "Mrs", "Mrs.", "Ms", "Ms.", "Prof", "Prof.", "Miss"].contains(tokens[k - 1].raw) { return true }
        // "dinner at TGI Fridays sun 7pm", "Happy Mondays gig on friday": a capitalised plural day after a capitalised
        // word that is not the sentence's first, with another day said, is a name's ("call Mum Thursdays at 1pm",
        // with no other day, is the rule).
        if k > 1, tokens[k].capitalised, tokens[k].word.hasSuffix("s"), Weekdays.parse(tokens[k].word) == nil, tokens[k - 1].capitalised,
           !used[k - 1], Self.titleWord(word(k - 1)), !Self.linkWords.contains(word(k - 1)), !["every", "each", "on", "and"].contains(word(k - 1)),
           tokens.contains(where: { $0.raw.first?.isLowercase == true }),
           ["at", "@", "from", "to"].contains(word(k - 2))  // a place: "book table at TGI Fridays for 7pm"
            || tokens.indices.contains(where: { j in j != k && (Weekdays.parse(word(j)) != nil || ["today", "tomorrow", "tonight"].contains(word(j))
                                                                || (ReminderLexicon.month(word(j)) != nil && word(j).count >= 3)) }) { return true }
        // Only after "the", "for" or "to" ("the Friday Harbor Inn", "for Friday Club", "to Friday Harbor Marine"), with nothing after the day that
        // ends or links a phrase ("Friday: Dentist", "lunch Friday With Sarah", "meeting Tuesday I think").
        guard k > 0, ["the", "for", "to"].contains(word(k - 1)), !tokens[k].commaAfter, k + 1 < tokens.count, tokens[k].capitalised, tokens[k + 1].capitalised,
              !used[k + 1], !ReminderLexicon.partsOfDay.contains(word(k + 1)), !Self.linkWords.contains(word(k + 1)),
              namesAThing(at: k, len: 1) else { return false }
        return tokens.contains { $0.raw.first?.isLowercase == true }
    }

    /// Whether the rule word at `k` starts a capitalised name ("buy the
    /// Daily Mail", "file the Monthly Return"): it and the next word begin
    /// with a capital, the next is a word of the title, it is not the
    /// sentence's first, and the sentence has lower-case words.
    func ruleWordInName(at k: Int) -> Bool {
        guard k > 0, k + 1 < tokens.count, ReminderLexicon.ruleWords[word(k)] != nil || ReminderLexicon.recurrenceWords.contains(word(k)),
              tokens[k].capitalised, tokens[k + 1].capitalised, !used[k + 1], Self.titleWord(word(k + 1)),
              !ReminderLexicon.partsOfDay.contains(word(k + 1)), ReminderLexicon.ruleWords[word(k + 1)] == nil else { return false }
        return tokens.contains { $0.raw.first?.isLowercase ?? false }
    }

    /// Words that link or end a phrase: after a day, they make it no name's.
    static let linkWords: Set<String> = ["with", "w", "w/", "and", "i", "at", "to", "for", "in", "on", "by", "about", "re", "or", "the", "a", "my", "we"]

    /// Whether the word at `k` is inside a capitalised name after a verb
    /// that takes one ("read Tuesdays with Morrie", "watch 28 Days Later",
    /// "listen to Sunday Morning by Maroon 5"), and not a day word ending it
    /// ("watch Arsenal Friday" is Friday).
    func inMediaTitle(_ k: Int) -> Bool {
        // A capitalised word; or a number that is no time, right beside one ("28 Days Later", "John 3:16" is not).
        func letter(_ j: Int) -> Bool { j >= 0 && j < tokens.count && !used[j] && tokens[j].capitalised }
        func member(_ j: Int) -> Bool {
            letter(j) || (j >= 0 && j < tokens.count && !used[j] && tokens[j].raw.first?.isNumber == true && writtenTime(at: j) == nil
                          && !tokens[j].raw.contains("/") && !tokens[j].raw.contains(".") && (letter(j - 1) || letter(j + 1)) && !dayOrdinal(j))
        }
        // "school play Friday 11th": a day's ordinal beside a weekday or month is a date, not a title's number.
        func dayOrdinal(_ j: Int) -> Bool {
            ReminderLexicon.ordinal(word(j)).map { (1...31).contains($0) } == true
                && [j - 1, j + 1].contains { ReminderLexicon.weekday(word($0)) != nil || ReminderLexicon.month(word($0)) != nil }
        }
        let connectors: Set<String> = ["with", "of", "in", "the", "a", "an", "and", "on", "at", "to", "for"]
        guard member(k), k < tokens.count, tokens[k].raw.count > 1 || letter(k) else { return false }
        var s = k, e = k
        while member(s - 1) || (s >= 2 && connectors.contains(word(s - 1)) && !used[s - 1] && letter(s - 2)) { s -= member(s - 1) ? 1 : 2 }
        while member(e + 1) || (connectors.contains(word(e + 1)) && !used[e + 1] && letter(e + 2)) { e += member(e + 1) ? 1 : 2 }
        // "see Tom Christmas Eve": a named day ending the name is the day.
        if let j = (s...e).first(where: { j in namedDay(at: j).map { j + $0.1 - 1 == e } ?? false }), j > s {
            if k >= j { return false }
            e = j - 1
        }
        let verb = word(s - 1) == "to" ? word(s - 2) : word(s - 1)
        guard e > s, s > 0, ["read", "reread", "watch", "rewatch", "listen", "stream", "binge", "play", "see", "finish", "start", "add"].contains(verb) else { return false }
        // "watch The Day After Tomorrow": a name that starts with an article is one whole.
        if ["the", "a", "an"].contains(word(s)) { return true }
        let dayish = Self.dayWord(word(k)) || ReminderLexicon.month(word(k)) != nil || ReminderLexicon.partsOfDay.contains(word(k))
        // "watch Monday Night Football": a show named for when it is on may mean that day; left to be refused.
        let slot = (ReminderLexicon.weekday(word(k)) != nil && ReminderLexicon.partsOfDay.contains(word(k + 1)))
            || (ReminderLexicon.partsOfDay.contains(word(k)) && ReminderLexicon.weekday(word(k - 1)) != nil)
        let series = ["season", "series", "episode", "ep", "s1", "s2", "s3", "s4", "s5"].contains(word(e + 1))
        if slot && !series && ["watch", "see", "stream"].contains(verb) { return false }
        return k < e || !dayish
    }

    /// Day and time words of Spanish, French, German, Italian and Portuguese,
    /// which yomo does not read.
    static let foreignTimeWords: Set<String> = [
        "mañana", "manana", "hoy", "lunes", "martes", "miércoles", "miercoles", "jueves", "viernes", "sábado", "sabado", "domingo",
        "demain", "aujourd'hui", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
        "morgen", "heute", "montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag", "uhr",
        "domani", "oggi", "lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "amanhã", "hoje", "明天", "今天", "后天",
    ]

    static let leadWords: Set<String> = ["on", "every", "each", "next", "this", "coming", "by", "until", "till", "before", "after", "from", "since"]
    static let periodWords: Set<String> = ["week", "month", "year", "weekend", "morning", "afternoon", "evening", "night", "day",
                                           "quarter", "fortnight"]

    /// Whether the unread word at `k` carries a time or date, and how many
    /// tokens from `k` say it.
    func unreadTimeWord(at k: Int) -> Int? {
        let w = word(k), prev = k > 0 && !used[k - 1] ? word(k - 1) : "", next = word(k + 1)
        if inMediaTitle(k) || quoted[k] { return nil }
        // "3 vs 4 pills", "at 4500 psi", "spread slurry on march field", "anzac day dawn service": no time in them.
        let comparing: Set<String> = ["vs", "vs.", "versus", "v"]
        if comparing.contains(next) || comparing.contains(word(k + 2)) || (k > 0 && comparing.contains(word(k - 1))) || (k > 1 && comparing.contains(word(k - 2))) { return nil }
        if (ReminderLexicon.number(w) != nil && Self.measureWords.contains(next) && next != "in")
            || (["at", "about", "around"].contains(w) && Int(next) != nil && Self.measureWords.contains(word(k + 2))) { return nil }
        // "bake about 20 min tomorrow": how long, beside a day or time read.
        if ["about", "around"].contains(w), Int(next) != nil, ReminderLexicon.minuteWords.contains(word(k + 2)) || ReminderLexicon.unitWords[word(k + 2)] == .hour,
           date != nil || timeWritten != nil || rule.repeats { return nil }
        if ReminderLexicon.month(w) != nil, w.count >= 3, Self.placeWords.contains(next), Self.dayOfMonth(prev) == nil || Self.streetWords.contains(next) { return nil }
        // "dinner dec 7 19", "christmas day 630": a number left last, right after a day read: an hour, a year, a count?
        if w.count <= 4, w.allSatisfy({ $0.isASCII && $0.isNumber }), k > 0, used[k - 1], date != nil, k == tokens.count - 1 || tokens[k].commaAfter,
           Self.dayOfMonth(word(k - 1)) != nil || ReminderLexicon.month(word(k - 1)) != nil || endsNamedDay(at: k) { return 1 }
        if ["dawn", "sunrise"].contains(w), ["service", "chorus", "patrol", "raid"].contains(next), timeWritten != nil { return nil }
        if let r = w.split(separator: "-", omittingEmptySubsequences: false) as [Substring]?, r.count == 2, r.allSatisfy({ Int($0) != nil }),
           k > 0, !used[k - 1], Self.numberedPlaces.contains(word(k - 1)) { return nil }  // "bars 40-56", "pages 10-12"
        if ReminderLexicon.weekday(w) != nil, prev == "the", next == "roast" || Self.dayCompounds.contains(next) && Self.titleWord(next) && next.count > 3 { return nil }
        if ["year", "month", "quarter"].contains(w), next == "end", date != nil, !["the", "at", "by"].contains(prev) { return nil }  // "year end close dec 31 5pm"
        if address(at: k) || address(at: k + 1) || (k > 0 && address(at: k - 1)) || (k > 1 && address(at: k - 2)) { return nil }
        // "7pm (PST)", "9am her time", "noon London time": a time in another zone, which the text cannot set (--tz does).
        if let n = unreadJoinOrLead(at: k) { return n }  // LeftoverJoins.swift
        if next == "time", k > 0, used[k - 1], timeWritten != nil, Self.titleWord(w) || ["her", "his"].contains(w), !["my", "our", "local"].contains(w) { return 2 }
        // "the friday before christmas", "day before thanksgiving": counted from a named day.
        if ["before", "after"].contains(w), k > 0, Self.dayWord(word(k - 1)) || ["day", "night", "week", "weekend", "morning", "evening"].contains(word(k - 1)),
           namedDay(at: k + 1) != nil { return 2 }
        // "call after tomorrow", "this past friday", "same time tomorrow", "call mom now": no day ahead, or no time read.
        if w == "after" && next == "tomorrow" && prev != "day" { return 2 }
        if w == "past" && prev == "this" && (ReminderLexicon.weekday(next) != nil || ["week", "weekend", "month"].contains(next)) { return 2 }
        if w == "same" && next == "time" { return 2 }
        // "every quarter hr til noon": an end the rule could not take, before what was read as its time.
        if ["until", "till", "til", "'til", "untill", "thru"].contains(w), k + 1 < tokens.count, used[k + 1] { return 1 }
        if w == "now" && (prev.isEmpty || prev == "right" || k == tokens.count - 1) { return 1 }
        if w == "earlier" && prev == "no" { return 1 }
        // "net 30 from today", "5 from now": a count of what, from then?
        if ReminderLexicon.number(w) != nil, next == "from", ["today", "now", "tomorrow"].contains(word(k + 2)) { return 3 }
        // "before 5", "before 9": a bare hour as a deadline.
        if w == "before", Int(next) != nil { return 2 }
        // "at morning", "on the night of saturday": a part of the day not read.
        if ReminderLexicon.partsOfDay.contains(w) && (prev == "at" || (prev == "the" && ["at", "on"].contains(word(k - 2)))) { return 1 }
        // Seasons and loose parts of a month or year.
        if ["winter", "spring", "summer", "autumn", "fall"].contains(w) && ["this", "next", "in", "by", "until", "last"].contains(prev) { return 1 }
        if (w.hasPrefix("mid-") && w.count > 4) || ["midweek", "mid-week", "midmonth", "mid-month"].contains(w) { return 1 }
        if ["early", "late"].contains(w) && ReminderLexicon.month(next) != nil && next.count >= 3 { return 2 }
        // "by end of Q3" unread; "the Q3 agenda", "print Q3 report" name a thing.
        if ["q1", "q2", "q3", "q4", "h1", "h2"].contains(w) && ["of", "in", "by", "end", "for", "next", "this"].contains(prev)
            && !(Self.titleWord(next) && !ReminderLexicon.partsOfDay.contains(next) && ReminderLexicon.weekday(next) == nil) { return 1 }
        if w == "next" && next == "weekday" { return 2 }
        if w == "business" && next == "day" && prev == "of" { return 2 }
        // Days and times in other languages: not read, so not guessed.
        if Self.foreignTimeWords.contains(w) { return 1 }
        // "dec 32": a day past any month's.
        if ReminderLexicon.month(w) != nil && w.count >= 3, let n = Int(next), (32...99).contains(n) { return 2 }
        // "3 nights a week", "for 2 nights", "2 days a week": counted, not a rule or a date.
        if ReminderLexicon.number(w) != nil, ["nights", "mornings", "evenings", "afternoons", "weekends"].contains(next) { return 2 }
        if ReminderLexicon.number(w) != nil, ["days", "day", "nights", "times"].contains(next), ["a", "per", "each"].contains(word(k + 2)),
           ["week", "month", "fortnight"].contains(word(k + 3)) { return 4 }
        // "take antibiotics for 7 days" with no rule: every day? "x 5": 5 what?
        if w == "for", !rule.repeats, let n = ReminderLexicon.number(next), n >= 1, ["days", "weeks", "nights"].contains(word(k + 2)) { return 3 }
        // "5 to 9 catch bus": five to nine, or a span from 5 to 9?
        if let a = Int(w), (1...12).contains(a), w.count <= 2, ["to", "-", "till", "til", "until"].contains(next), let b = Int(word(k + 2)), (1...12).contains(b),
           word(k + 2).count <= 2, k + 2 < tokens.count, !used[k + 2] { return 3 }
        // "pills 9 and 9": two bare hours.
        if let a = Int(w), (1...12).contains(a), next == "and", let b = Int(word(k + 2)), (1...12).contains(b), !used[k + 2] { return 3 }
        // "x morning and evening" with no rule: two times for one reminder.
        if ReminderLexicon.partsOfDay.contains(w) && next == "and" && ReminderLexicon.partsOfDay.contains(word(k + 2)) && !used[k + 2] { return 3 }
        // "the 5 o'clock shadow", "a 9 to 5 job": sayings, not times.
        if (next == "o'clock" && word(k + 2) == "shadow") || (w == "o'clock" && next == "shadow") { return nil }
        if let (_, n) = writtenTime(at: k), w.contains(":") || w.hasSuffix("m") || ["am", "pm", "a.m", "p.m", "o'clock", "oclock"].contains(next) {
            return n
        }
        if ["noon", "midnight"].contains(w) && namesAThing(at: k, len: 1) { return nil }  // "at Noon Creative"
        if w == "midday", Self.titleWord(next), let (t, _) = timeWritten, (11...14).contains(t.hour) || (t.hour <= 2 && !t.sure) { return nil }  // "midday walk … 1p"
        if ["noon", "midnight", "midday", "o'clock", "oclock", "yesterday", "today", "tonight", "tomorrow", "fortnight"].contains(w) { return 1 }
        // Vague times: no moment to remind at.
        if ["sometime", "someday", "soon", "soonish", "later", "eventually", "asap", "whenever"].contains(w) { return 1 }
        // "at some point this weekend", "over the holidays", "during half term": no moment.
        if w == "at" && next == "some" && ["point", "stage", "time"].contains(word(k + 2)) { return 3 }
        if ["over", "during", "in"].contains(w) && next == "the" && ["holidays", "hols", "break", "vacation", "vacay", "summer", "winter", "weekend", "holiday"].contains(word(k + 2))
            && !(word(k + 2) == "weekend" && w != "over") { return 3 }
        if ["over", "during"].contains(w) && (["half", "spring", "summer", "winter", "christmas", "easter", "reading"].contains(next) && ["term", "break", "week", "hols", "holidays"].contains(word(k + 2))) { return 3 }
        // "in a bit", "in a while", "in a moment": no moment.
        if w == "in" && next == "a" && ["bit", "while", "moment", "sec", "jiffy", "tick"].contains(word(k + 2)) { return 3 }
        // "after the game", "when the package arrives", "before my shift", "once the paint is dry": an event
        // (EventClauses.swift), when nothing else says when; "after shift", "before rounds": the day's events.
        // The refusal quotes the clause ("if it rains"), up to five words.
        if date == nil, timeWritten == nil, partOfDay == nil, !rule.repeats, relative == nil, pendingNamedDay == nil, eventClause(at: k) {
            // "after work", "before winter break": the event is the noun, and what follows is the title's.
            if Self.routineEvents.contains(next) { return 2 }
            if Self.breakSeasons.contains(next) && Self.breakWords.contains(word(k + 2)) { return 3 }
            // A clause ending the sentence is quoted whole; one before the title by its first two words.
            var n = 2
            while n < 5, k + n < tokens.count, !used[k + n], !tokens[k + n - 1].commaAfter { n += 1 }
            return k + n == tokens.count || tokens[k + n - 1].commaAfter ? n : 2
        }
        // "take metformin with dinner", "pills with breakfast": a meal's time, which the tool cannot know.
        if ["with", "w", "w/", "after", "before"].contains(w), ["breakfast", "brekkie", "lunch", "dinner", "supper", "tea", "meals", "food", "brunch"].contains(next),
           timeWritten == nil, moreTimes.isEmpty, partOfDay == nil, relative == nil { return 2 }
        // "at school pickup", "at school run", "end of shift", "during lunch", "close of play", "in the am", "l8r": the same.
        if w == "at", next == "school", ["pickup", "pick-up", "run", "gates", "gate", "dropoff", "drop-off"].contains(word(k + 2)), timeWritten == nil { return 3 }
        if ["end", "start"].contains(w), next == "of", ["shift", "play", "term", "rounds", "service", "practice", "class", "school"].contains(word(k + 2)), timeWritten == nil { return 3 }
        if w == "close", next == "of", word(k + 2) == "play", timeWritten == nil { return 3 }
        if w == "during", word(k + 2) != "hours", ["lunch", "dinner", "breakfast", "break", "recess", "class", "school", "work", "church", "service", "the"].contains(next), timeWritten == nil { return 2 }
        if w == "in", next == "the", ["am", "pm", "a.m", "p.m"].contains(word(k + 2)), timeWritten == nil { return 3 }
        if ["l8r", "l8er", "2nite", "laterz"].contains(w) && timeWritten == nil { return 1 }
        // "tuesday next", "the tuesday after": a day counted from what?
        if ["next", "after"].contains(w), k > 0, used[k - 1], ReminderLexicon.weekday(word(k - 1)) != nil, next.isEmpty { return 1 }
        // "renew mot september", "exams start june": a month with no day, in lower case, when no date was read.
        // (Not before a word it names, "april rent"; not after "for", "about", "of": "flights for august".)
        if date == nil, !rule.repeats, tokens[k].raw.first?.isLowercase == true, ReminderLexicon.months.contains(w), w != "may",
           next.isEmpty || tokens[k].commaAfter, Self.titleWord(prev) || ["by", "until", "due", "start", "starts"].contains(prev) {
            return 1
        }
        // "talk to jakes mum at pickup", "at drop off", "at lunch": the day's events a person means a time by.
        if w == "at", Self.atEvents.contains(next) || (next == "pick" && word(k + 2) == "up") || (next == "drop" && word(k + 2) == "off"),
           date == nil, timeWritten == nil, partOfDay == nil, !rule.repeats, relative == nil, pendingNamedDay == nil {
            return Self.atEvents.contains(next) ? 2 : 3
        }
        // "one of these days", "a few days after", "a couple of weeks", "several days": no moment.
        if w == "one" && next == "of" && ["these", "those"].contains(word(k + 2))
            && ["days", "weeks", "months", "mornings", "evenings", "nights", "afternoons", "weekends"].contains(word(k + 3)) { return 4 }
        // "some day", "any day now", "one day", "one fine day", "the other day".
        if (w == "some" || w == "any") && next == "day" { return 2 }
        if w == "one" && (next == "day" || (next == "fine" && word(k + 2) == "day")) && !(k > 0 && used[k - 1]) { return next == "day" ? 2 : 3 }
        if w == "other" && next == "day" && prev == "the" { return 2 }
        // "from now" not read ("a quarter of an hour from now"), "a week today", "a quarter of a day".
        if w == "from" && next == "now" { return 2 }
        if ["week", "fortnight"].contains(w) && ["today", "tomorrow", "tonight", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                                                "sunday"].contains(next) && prev == "a" { return 1 }
        if w == "quarter" && next == "of" { return ReminderLexicon.number(word(k + 2)) != nil ? 3 : 2 }
        // "and a half" or "and 23rd" left over after what was read.
        if w == "and" && k > 0 && used[k - 1] && ((next == "a" && word(k + 2) == "half") || ReminderLexicon.ordinal(next) != nil) {
            return next == "a" ? 3 : 2
        }
        // "or so", "a day or two", "friday-ish": no moment.
        if w == "or" && (next == "so" || ReminderLexicon.unitWords[prev] != nil || ReminderLexicon.number(next) != nil) { return next == "so" ? 2 : 1 }
        if w.hasSuffix("ish"), Self.dayWord(String(w.dropLast(w.hasSuffix("-ish") ? 4 : 3))) { return 1 }
        if ["few", "couple", "several"].contains(w), ReminderLexicon.unitWords[next] != nil || (next == "of" && ReminderLexicon.unitWords[word(k + 2)] != nil) {
            return next == "of" ? 3 : 2
        }
        // "once the weather warms up", "once I'm home": an event, not a time.
        if w == "once" && ["the", "i", "i'm", "im", "we", "we're", "you", "it", "it's", "he", "she", "they", "my", "our", "your", "his", "her", "their"].contains(next) {
            return 1
        }
        // "thursday or friday", "3 or 4pm": a choice yomo cannot make.
        if w == "or" && (Self.dayWord(prev) || Self.dayWord(next) || (k > 0 && writtenTime(at: k - 1) != nil) || writtenTime(at: k + 1) != nil) { return 1 }
        // "the day after my birthday", "on the next blue moon": counted from something yomo does not know.
        if w == "day" && prev == "the" && ["after", "before"].contains(next) { return 2 }
        if w == "next" && prev == "the" && word(k - 2) == "on" && !next.isEmpty { return 2 }
        if ["half", "quarter"].contains(w) && ["past", "to", "after", "till", "of"].contains(next) { return ReminderLexicon.number(word(k + 2)) != nil ? 3 : 2 }
        if w == "half" && ReminderLexicon.number(next) != nil { return 2 }  // "half 8": 8:30 in Britain, 7:30 in Germany
        if ["in", "within", "after"].contains(w) {
            // "in 2 hours", "in -5 minutes", "in NaN hours", "in 2 weekdays": an amount of time not read.
            // (Not across words already read: "turkey in at 7am christmas day".)
            var j = k + 1
            while j < tokens.count && j <= k + 4 && !used[j] {
                if Self.unitLike(word(j)) { return j + 1 - k }
                j += 1
            }
            // "call bob in 5": in five minutes, hours, or at five?
            if let c = next.first, c.isNumber, word(k + 2).isEmpty || !Self.titleWord(word(k + 2)) { return 2 }
            // "anytime after 5 call": a bare hour after "after", before the title's words (not "after 3 tries").
            if w == "after", let h = Int(next), (1...12).contains(h), !word(k + 2).hasSuffix("s"), !Self.measureWords.contains(word(k + 2)) { return 2 }
        }
        // A number too long to be one, an ordinal past 31 or of 0: never a title's by accident.
        if w.count > 6 && w.allSatisfy({ $0.isASCII && $0.isNumber }) && (Self.unitLike(next) || next == "times" || prev == "the" || Self.leadWords.contains(prev)) { return 1 }
        if ["st", "nd", "rd", "th"].contains(where: { w.hasSuffix($0) }), w.dropLast(2).allSatisfy({ $0.isASCII && $0.isNumber }), w.count > 2,
           ReminderLexicon.ordinal(w) == nil, prev == "the" || Self.leadWords.contains(prev) { return 1 }
        // "31/12", "25/12": a date in a form not read.
        // "20261203": a date run together.
        if w.count == 8, w.hasPrefix("20"), w.allSatisfy({ $0.isASCII && $0.isNumber }), Day.parse(String(w.prefix(4)) + "-" + String(w.dropFirst(4).prefix(2)) + "-" + String(w.suffix(2))) != nil { return 1 }
        if w.contains("/"), w != "24/7", !Self.measureWords.contains(next), !fraction(at: k), w.split(separator: "/").count >= 2, w.split(separator: "/").allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) { return 1 }
        // "8ish", "noonish", "at5pm", "@5", "17h", "5p", "2-3pm", "2nite": clock shapes not read.
        if w.hasSuffix("ish"), let c = w.first, c.isNumber || w.hasPrefix("noon") || w.hasPrefix("midnight") { return 1 }
        if (w.hasPrefix("at") || w.hasPrefix("@")), w.count > (w.hasPrefix("@") ? 1 : 2), let c = w.dropFirst(w.hasPrefix("@") ? 1 : 2).first, c.isNumber { return 1 }
        if ["around", "about", "approx", "approximately", "circa", "~"].contains(w), ReminderLexicon.number(next) != nil || writtenTime(at: k + 1) != nil { return 2 }
        // "17h" (a 24-hour clock's hour, as in French) when no "in" or "for" counts it.
        if let n = Int(w), (0...24).contains(n), next == "hours", k + 1 < tokens.count, tokens[k + 1].raw.isEmpty,
           !["in", "for", "every", "within", "after"].contains(prev) { return 2 }
        // Named days of other calendars, which move against the Gregorian one: not read, so not guessed.
        if ["hanukkah", "chanukah", "diwali", "ramadan", "eid", "passover", "purim", "kippur", "hashanah", "vesak", "holi", "navratri", "pongal",
            "onam", "lohri", "baisakhi", "vaisakhi", "songkran", "nowruz", "obon", "chuseok"].contains(w) { return 1 }
        if (w == "raksha" && next == "bandhan") || (w == "victoria" && next == "day") || (w == "world" && next == "book" && word(k + 2) == "day")
            || (w == "mid" && next == "autumn") { return w == "world" ? 3 : 2 }
        if ["lunar", "chinese"].contains(w) && next == "new" { return 3 }
        if w.first?.isNumber == true, ["h", "p", "a", "pm", "am", "nite", "tonite"].contains(where: { w.hasSuffix($0) }),
           w.dropLast(w.hasSuffix("nite") ? 4 : w.hasSuffix("m") ? 2 : 1).allSatisfy({ $0.isNumber || $0 == "-" || $0 == ":" || $0 == "." }) { return 1 }
        // "3:30pn", "8:15pmm", "9.45an": a clock's shape with letters glued on that are not read: a mistyped time.
        if Self.clockWithTail(w) { return 1 }
        // Time zones: yomo's times are the reminder's zone's (--tz), not a word's.
        if (["eastern", "central", "mountain", "pacific"].contains(w) && k > 0 && used[k - 1] && timeWritten != nil) ||
            ((Self.zoneWords.contains(Self.unbracketed(tokens[k].raw)) || Self.lowerCaseZoneWord(tokens[k].raw) != nil || Self.otherZoneWord(tokens[k].raw))
                && k > 0 && used[k - 1] && timeWritten != nil) || (w == "time" && !Self.squareWords.contains(next) && ReminderLexicon.weekday(prev) == nil && prev.first?.isLetter == true
                                                      && ((tokens[k - 1].raw.first?.isUppercase == true && k > 1 && used[k - 2])
                                                          || (timeWritten != nil && k > 2 && used[k - 3] && word(k - 2).allSatisfy(\.isLetter)))) { return 1 }  // "8pm new york time"
        // Vague or borrowed times: no moment to remind at.
        if w == "cob" && ["the", "a"].contains(prev) { return nil }  // "corn on the cob"
        // "pay rent in the december": a month said, not read.
        if ReminderLexicon.month(w) != nil, w.count >= 3, prev == "the", word(k - 2) == "in", !Self.titleWord(next) { return 1 }
        if ["eod", "eow", "eom", "cob", "e.o.d", "c.o.b", "lunchtime", "dawn", "dusk", "sunrise", "sunset", "bedtime", "noonish", "daybreak", "sunup", "sundown",
            "nightfall", "twilight"].contains(w) { return 1 }
        if ["first", "last"].contains(w) && next == "light" { return 2 }
        // "every day til the wedding", "until school breaks up": a rule's end yomo cannot place.
        if rule.repeats, ["until", "till", "til", "'til", "untill"].contains(w), !next.isEmpty { return min(3, tokens.count - k) }
        if let n = unreadPeriodEdge(at: k) { return n }
        if w == "end" && next == "of" && ["day", "week", "month", "year", "the", "this", "next"].contains(word(k + 2)) { return 3 }
        if w == "close" && next == "of" && word(k + 2) == "business" { return 3 }
        // "in 3 days and 2 hours": the rest of an amount not read.
        if w == "and" && k > 0 && used[k - 1] && ReminderLexicon.number(next) != nil && Self.unitLike(word(k + 2)) { return 3 }
        // "every 2 hours for 6 hours": a rule's end in hours, which yomo does not keep.
        if w == "for" && rule.repeats && ReminderLexicon.number(next) != nil && (ReminderLexicon.minuteWords.contains(word(k + 2))
                                                                                || ["hour", "hours", "hr", "hrs"].contains(word(k + 2))) { return 3 }
        // "on his birthday", "before our anniversary": a day yomo does not know.
        if ["birthday", "anniversary", "wedding", "graduation", "funeral"].contains(w) && k >= 2
            && (["my", "his", "her", "their", "our", "your"].contains(word(k - 1)) || word(k - 1).hasSuffix("'s")
                || (word(k - 1).hasSuffix("s") && word(k - 1).count > 2))  // "on mums birthday", without its apostrophe
            && ["on", "by", "before", "after", "until", "till"].contains(word(k - 2)) { return 1 }
        // "the bank holiday", "bank holiday monday": which one?
        if w == "bank" && (next == "holiday" || next == "holidays") { return 2 }
        // "the last day of term", "end of term", "half term": a school's dates, which yomo does not know.
        if (w == "term" || w == "semester") && k > 0 && ["of", "half", "next", "this"].contains(word(k - 1)) { return 1 }
        // "till the new year", "the week of the 14th", "the last working day": days yomo does not place.
        if w == "new" && (next == "year" || next == "years") && !used[k + 1]
            && ["till", "til", "until", "by", "before", "after", "over", "at", "around", "for", "the", "from", "past"].contains(prev) { return 2 }
        if w == "week" && next == "of" && !word(k + 2).isEmpty { return 2 }
        if ["working", "business", "school", "work"].contains(w) && next == "day" && ["last", "first"].contains(prev) { return 2 }
        // "every month on the last weekday", "every quarter end": a place in the month yomo did not read.
        if w == "last" && (next == "weekday" || next == "workday") { return 2 }
        if ["quarter", "month", "year"].contains(w) && next == "end" && !used[k + 1] { return 2 }
        if w == "end", k > 0, used[k - 1], ["quarter", "month", "year"].contains(word(k - 1)) { return 1 }
        // "6:40am local time in Dubai": which local?
        if w == "local" && next == "time" && word(k + 2) == "in" { return 4 }
        // "9:30 AM America/Los_Angeles every weekday": a zone's name after a rule's time (--tz sets it).
        if k > 0, used[k - 1], timeWritten != nil, Self.ianaZone(tokens[k].raw) != nil { return 1 }
        // "by 18th", "due 3rd": a day of the month after a word that leads a date, not read.
        if let o = ReminderLexicon.ordinal(w), (1...31).contains(o), w.first?.isNumber == true,
           ["by", "due", "on", "until", "till", "before", "from", "after"].contains(prev) { return 1 }
        // "8am NZT", "9am GMT+1", "9am UTC+8", "9am +0530": a zone yomo does not know, after a time.
        if k > 0, used[k - 1], timeWritten != nil {
            let r = Self.unbracketed(tokens[k].raw)
            let abbreviation = (3...5).contains(r.count) && r.allSatisfy({ $0.isUppercase && $0.isLetter })
                && (r.hasSuffix("ST") || r.hasSuffix("DT") || Self.otherZoneWords.contains(r))
            let offset = (r.hasPrefix("GMT") || r.hasPrefix("UTC") || r.hasPrefix("+") || r.hasPrefix("-")) && r.contains(where: \.isNumber)
                && r.drop(while: \.isLetter).dropFirst().allSatisfy { $0.isNumber || $0 == ":" } && "+-".contains(r.drop(while: \.isLetter).first ?? "x")
            if abbreviation || offset { return 1 }
        }
        // "test 24:00 tomorrow", "2400 drug round": midnight as the day's end, which yomo does not read.
        if w == "24:00" || w == "2400" || w == "24h00" { return 1 }
        // "party sat from 7", "nap til 2", "leave at 20 past": a start, an end or minutes with no hour, not read.
        if ["from", "til", "till", "until", "'til"].contains(w), let n = Int(next), (0...24).contains(n) { return 2 }
        if w == "from", writtenTime(at: k + 1) != nil, !used[k + 1] { return 2 }
        if w == "past", let n = Int(word(k - 1)), (1...59).contains(n), next.isEmpty || !Self.titleWord(next) || next == "the" { return 1 }
        // "10am-12", "9-5pm" glued and not read; "18th last day": a day of the month before its deadline word.
        if w.first?.isNumber == true, w.contains("-"), w.contains("am") || w.contains("pm") || w.contains(":") { return 1 }
        if let o = ReminderLexicon.ordinal(w), (1...31).contains(o), w.first?.isNumber == true, ["last", "latest", "deadline"].contains(next) { return 1 }
        // "course of 5 injections weekly": a count before the rule, not read.
        if w == "course" && next == "of" && ReminderLexicon.number(word(k + 2)) != nil && rule.repeats { return 4 }
        // "4 more sessions", "for 3 more weeks", "3 sessions left": a count yomo does not read ("2 more cards" is a quantity).
        if ReminderLexicon.number(w) != nil, (next == "more" && (ReminderLexicon.unitWords[word(k + 2)] != nil || ["sessions", "classes", "lessons", "times"].contains(word(k + 2)))) || (["sessions", "classes", "lessons", "times", "weeks"].contains(next) && word(k + 2) == "left") { return 3 }
        // "library books back 12.12", "lab report due 3.12": a dotted date without its year.
        if ["due", "back", "by", "on", "until", "till", "before"].contains(prev) || next.isEmpty, w.split(separator: ".").count == 2,
           w.split(separator: ".").allSatisfy({ $0.count <= 2 && $0.allSatisfy(\.isNumber) }),
           let m = Int(w.split(separator: ".")[1]), (1...12).contains(m) { return 1 }
        // "the 15th pay rent", "rent 15th", "pay the rent on 15": a day of the month not read.
        if let o = ReminderLexicon.ordinal(w), o >= 1, w.first?.isNumber == true, k == tokens.count - 1 || (prev == "the" && k == 1) { return 1 }
        if prev == "on", k == tokens.count - 1, let n = Int(w), (1...31).contains(n) { return 1 }
        // "at the end of my shift": an event's end, not a time.
        if w == "end" && next == "of" && ["my", "our", "his", "her", "their", "your"].contains(word(k + 2)) && !word(k + 3).isEmpty { return 4 }
        // ("at school", "at work": a place.)
        if ["after", "before", "at", "by"].contains(w) && ["lunch", "breakfast", "dinner", "bed", "work", "school", "sunset", "sunrise", "tea", "supper", "teatime"].contains(next),
           !(w == "at" && ["school", "work"].contains(next)) { return 2 }
        // "tuesday after next", "tuesday week", "a week on friday", "this time tomorrow".
        if w == "after" && next == "next" { return 2 }
        if w == "week" && k > 0 && ReminderLexicon.weekday(word(k - 1)) != nil && used[k - 1] { return 1 }
        if w == "week" && prev == "a" && next == "on" { return 2 }
        if w == "time" && prev == "this" { return 1 }
        // A day or a month misspelt beyond the known typos ("tuseday", "decmber", "tomorrrow"): not a guess.
        if w.count >= 5, tokens[k].raw.first?.isLetter == true, Self.nearTimeWord(w) { return 1 }
        // "12-04", "2026-12-4", "4-dec", "dec-4", "'27": dates in forms not read.
        if w.contains("-") {
            let p = w.split(separator: "-").map(String.init)
            // "3rd-5th": ordinals too.
            func numeric(_ s: String) -> Bool { s.allSatisfy(\.isNumber) || (s.first?.isNumber == true && ReminderLexicon.ordinal(s) != nil) }
            if p.count >= 2, p.allSatisfy({ !$0.isEmpty && (numeric($0) || ReminderLexicon.month($0) != nil) }),
               p.contains(where: numeric) { return 1 }
        }
        if w.count == 3, w.hasPrefix("'"), w.dropFirst().allSatisfy(\.isNumber) { return 1 }
        // "meds 2000 0800 daily", "2000 and 0800", "0800,2000": clock times in four digits side by side, not read.
        func clock4(_ s: String) -> Bool {
            s.count == 4 && s.allSatisfy({ $0.isASCII && $0.isNumber }) && (Int(s).map { ($0 / 100 < 24 && $0 % 100 < 60) || $0 == 2400 } ?? false)
        }
        let beside4 = [k - 1, k + 1, ["and", "&"].contains(prev) ? k - 2 : -1, ["and", "&"].contains(next) ? k + 2 : -1]
            .filter { $0 >= 0 && $0 < tokens.count && $0 != k }.map { word($0) }.filter(clock4)
        if clock4(w), !beside4.isEmpty, w.hasPrefix("0") || beside4.contains(where: { $0.hasPrefix("0") }) || (k > 0 && used[k - 1] && clock4(word(k - 1))) { return 1 }
        let parts4 = w.split(separator: ",").map(String.init)
        if parts4.count >= 2, parts4.allSatisfy(clock4) { return 1 }
        // "0930", "1530" at the end or beside a day: a clock time in a form not read.
        if w.count == 4, w.allSatisfy({ $0.isASCII && $0.isNumber }), let v = Int(w), v / 100 < 24, v % 100 < 60,
           !(k > 0 && !used[k - 1] && word(k - 1).allSatisfy({ $0.isNumber || $0 == "+" || $0 == "-" })), !phoneDigits(after: k),  // a phone number's digits
           !(k > 0 && !used[k - 1] && Self.numberedNouns.contains(word(k - 1)) && !w.hasPrefix("0")),  // "locker 1130", "room 1204"
           w.hasPrefix("0") || next.isEmpty || (k == firstWord && Self.titleWord(next) && !Self.unitLike(next) && !Self.quantityNouns.contains(next)
                                     && !(w.hasPrefix("20") && Self.yearNouns.contains(next))) || (k > 0 && used[k - 1]) || (k + 1 < tokens.count && used[k + 1]) { return 1 }
        // A bare hour beside a day or a part of one ("dentist fri 9", "9 fri", "every night 11"): a time, or a count?
        func dayOrPart(_ j: Int) -> Bool {
            Self.dayWord(word(j)) || ReminderLexicon.partsOfDay.contains(word(j)) || (j == k - 1 && dateSaid?.split(separator: " ").last.map(String.init) == word(j))
        }
        if let n = Int(w), (1...12).contains(n), w.count <= 2,
           (k > 0 && used[k - 1] && dayOrPart(k - 1)) || (k + 1 < tokens.count && used[k + 1] && dayOrPart(k + 1)) { return 1 }
        // "daily standup 9", "school pickup 3", "meds every day 9 and 21": a bare hour last in a sentence with no time
        // read (not "read chapter 3", "gate 12", "buy eggs x 2").
        if timeWritten == nil, k == tokens.count - 1, let n = Int(w), (1...23).contains(n), w.count <= 2, k > 0,
           !(Self.numberedNouns.contains(word(k - 1)) && !used[k - 1]), !Self.measureWords.contains(word(k - 1)), Int(word(k - 1)) == nil,
           !["x", "*", "#", "no", "no.", "pt", "part", "vs", "v", "top", "under", "over", "aged", "age", "size", "team", "group"].contains(word(k - 1)) { return 1 }
        // "christmas carols 6pm", "halloween party 7pm": today at that time, or the holiday's? A time and no day.
        if timeWritten != nil, date == nil, !rule.repeats, relative == nil, let (_, len, _) = namedDay(at: k), (k..<(k + len)).allSatisfy({ !used[$0] }) {
            return len
        }
        // "bus 7.48 weekdays", "catch the 8.02 train", "tram 17.32": a dotted time beside a day or a timetable's word.
        let dotted = w.split(separator: ".")
        if dotted.count == 2, dotted[1].count == 2, let hh = Int(dotted[0]), let mm = Int(dotted[1]), hh <= 23, mm < 60, dotted[0].count <= 2,
           k == 0 || (k > 0 && used[k - 1])  // not "install node 20.11 friday", a version
            || [word(k - 1), next].contains(where: { ["train", "tram", "bus", "coach", "ferry", "flight", "service", "departure", "sailing"].contains($0) }) {
            return 1
        }
        // "after friday send quote": after a day, from when?
        if w == "after", Self.dayWord(next), k + 1 < tokens.count, used[k + 1] { return 2 }
        // "obs every 4 hours overnight", "check every 2 hours during the day": hours of the day yomo does not place.
        if rule.repeats, (w == "overnight" && !["too", "also", "as"].contains(next)) || (w == "during" && next == "the" && ["day", "night", "daytime"].contains(word(k + 2))) {
            return w == "overnight" ? 1 : 3
        }
        if w == "for" && next == "the" && word(k + 2) == "next" && Self.unitLike(word(k + 3)) { return 4 }
        // "4 on 4 off shifts": a rota yomo has no rule for; "twelfth night" in lower case, the eve of Epiphany or the play?
        if ReminderLexicon.number(w) != nil, next == "on", ReminderLexicon.number(word(k + 2)) != nil, word(k + 3) == "off" { return 4 }
        if w == "twelfth" && next == "night" && !tokens[k].capitalised { return 2 }
        // "check email work days 8am": the days yomo does not read as a rule.
        if w == "work" && next == "days" { return 2 }
        // "in 90 check the oven", "remind me in 20": "in" a number with no unit.
        // "in like 15 call mom": the same, roughly.
        let about = w == "in" && ["like", "about", "around", "roughly", "approx", "abt", "bout", "~"].contains(next) ? 1 : 0
        if w == "in", let n = Int(word(k + 1 + about)), n > 0, k == 0 || (k == tokens.count - 2 - about) || (used[k - 1] && word(k - 1) == "me") { return 2 + about }
        // "take banana bread out 45 min": minutes or hours ending a sentence that says no other time: from now, or how long?
        if let n = Int(w), n > 0, k == tokens.count - 2, ReminderLexicon.minuteWords.contains(next) || ReminderLexicon.unitWords[next] == .hour,
           date == nil, timeWritten == nil, relative == nil, partOfDay == nil, !rule.repeats { return 2 }
        // "2 puffs morning & night", "morning and evening": parts of the day not read as a rule or a time.
        if ReminderLexicon.partsOfDay.contains(w), ["and", "&", "+", "/"].contains(next), ReminderLexicon.partsOfDay.contains(word(k + 2)) { return 3 }
        // "during work hours", "while awake": hours yomo cannot know.
        if w == "during", ["work", "working", "business", "office", "school", "waking", "opening"].contains(next), word(k + 2) == "hours" { return 3 }
        if (w == "while" && ["awake", "up"].contains(next)) || (w == "waking" && next == "hours") { return 2 }
        // "second to last friday", "penultimate": a place in the month yomo does not read.
        if w == "penultimate" || (["second", "2nd", "next"].contains(w) && (next == "last" || (next == "to" && word(k + 2) == "last"))) { return 1 }
        if w == "to" && word(k + 1) == "last" && ["second", "2nd", "next"].contains(word(k - 1)) { return 2 }
        // "on the weekend", "over the weekend", "first thing", "early", "am" after a day, "mid december".
        if (w == "weekend" || w == "weekends") && !weekendOfTitle(at: k) { return 1 }
        if w == "first" && next == "thing" { return 2 }
        if ["early", "late"].contains(w) && !(timeWritten != nil && ["leave", "finish", "arrive", "start", "off", "out", "home", "close"].contains(prev))
            && (Self.dayWord(next) || Self.dayWord(prev) || ReminderLexicon.partsOfDay.contains(next)
                                             || (["next", "this"].contains(next) && Self.periodWords.contains(word(k + 2)))) { return 1 }
        if ["am", "pm", "a.m", "p.m"].contains(w) && k > 0 && used[k - 1] { return 1 }
        if w == "mid" || w.hasPrefix("mid-") { return ReminderLexicon.month(next) != nil || ["month", "week", "year", "morning", "afternoon"].contains(next) ? 2 : nil }
        if ReminderLexicon.partsOfDay.contains(w) && k > 0 && used[k - 1] && Self.dayWord(word(k - 1)) { return 1 }
        // "on election day", "on tax day": a named day yomo does not know.
        if w == "day" && k >= 2 && word(k - 2) == "on" && !used[k - 1] { return 1 }
        if (w == "at" || w == "@" || w == "by"), let c = next.first, c.isNumber,
           !next.contains(where: { $0.isLetter && !"apmh".contains($0) }) { return 2 }  // not "at 7-Eleven"
        // "between 9 and 5", "from 2 to 4": hours the reminder has no place for.
        if (w == "between" || w == "from"), writtenTime(at: k + 1) != nil, ["and", "to", "till", "until", "-"].contains(word(k + 2)),
           writtenTime(at: k + 3) != nil { return 4 }
        // "2 days before", "3 weeks after": counted from something yomo does not know.
        if ReminderLexicon.number(w) != nil || w == "a", ReminderLexicon.unitWords[next] != nil || ReminderLexicon.minuteWords.contains(next),
           ["before", "after", "from", "ago", "prior"].contains(word(k + 2)) { return 3 }
        if ["next", "this", "coming"].contains(w) && (Self.periodWords.contains(next) || ReminderLexicon.weekday(next) != nil)
            && !(w == "coming" && k + 1 < tokens.count && used[k + 1] && ReminderLexicon.weekday(next) != nil) { return 2 }  // "health visitor coming thurs"
        let lead = Self.leadWords.contains(prev) || (prev == "the" && Self.leadWords.contains(word(k - 2)))
        // "the Friday Harbor Inn proposal", "book a table for Friday Club": a capitalised day in a name, among
        // lower-case words, is the name's.
        if ReminderLexicon.weekday(w) != nil, properName(at: k) || namesABusiness(at: k) { return nil }
        // "about sunday shift tonight 9": with another day read, the day after "about" is what the reminder is about.
        if ["about", "re", "regarding"].contains(prev), dayOrPlace(at: k), date != nil || relative != nil { return nil }
        if let _ = ReminderLexicon.weekday(w) ?? Self.dayRange(w)?.first {
            if w.count >= 6 || lead || Self.dayRange(w) != nil || (prev == "for" && next != "off") { return 1 }  // "prep lines for sat tourney", not "for sun off"
        }
        if ReminderLexicon.month(w) != nil && w.count >= 3 {
            let numberNear = Self.dayOfMonth(next) != nil || Self.dayOfMonth(prev) != nil || (prev == "of" && Self.dayOfMonth(word(k - 2)) != nil)
            if numberNear || lead || ["in", "of"].contains(prev) { return 1 }
        }
        if let o = ReminderLexicon.ordinal(w), o != -1 {
            let before = lead || prev == "the"
            let after = next.isEmpty || ["of", "day", "and", "at"].contains(next) || ReminderLexicon.weekday(next) != nil
                || ReminderLexicon.month(next) != nil
            if before && after { return 1 }
        }
        if ReminderLexicon.partsOfDay.contains(w) || ReminderLexicon.partsOfDay.contains(String(w.dropLast())) {
            if ["this", "tomorrow", "every", "each", "on", "tonight"].contains(prev) || (prev == "the" && word(k - 2) == "in") { return 1 }
        }
        return nil
    }

    /// Collects the unread time words into `unread`, each with the unread
    /// words just before it that lead it ("on the fifteenth").
    mutating func findUnreadTimeWords() {
        var k = 0
        while k < tokens.count {
            guard !used[k], let n = unreadTimeWord(at: k) else { k += 1; continue }
            var start = k
            while start > 0 && !used[start - 1] && (Self.leadWords.contains(word(start - 1)) || ["the", "at", "in"].contains(word(start - 1)))
                    && start > k - 2 { start -= 1 }
            var end = k + n
            while end < tokens.count && !used[end] && unreadTimeWord(at: end) != nil && end < k + n + 2 { end += 1 }
            // (A word split in two, "17h" as "17 hours", is quoted once, as typed.)
            let said = (start..<min(end, tokens.count)).filter { !tokens[$0].raw.isEmpty }.map { tokens[$0].raw }.joined(separator: " ")
            if !warnings.contains(where: { $0.contains("'\(said)'") }) && !unread.contains(where: { $0.contains("'\(said)'") }) {
                unread.append("could not read '\(said)' as a date or time" + unreadHint(at: k))
            }
            k = max(end, k + 1)
        }
    }
}
