// The shapes the leftover check knows a time, a zone or an address by:
// zones' abbreviations, mistyped clocks, near-misses of day and month
// names, house numbers that may be hours, and the nouns after a number or
// a year that make it no clock. Pure functions of a word or of the tokens.

extension ReminderParser.ParseState {
    /// Who comes ("the plumber coming friday"): "coming" after them is a verb.
    static let comers: Set<String> = [
        "visitor", "visitors", "nurse", "plumber", "electrician", "engineer", "builder", "builders", "guest", "guests", "mum", "mom", "dad",
        "kids", "family", "someone", "somebody", "delivery", "parcel", "package", "he", "she", "they", "we", "i", "it", "inspector",
        "technician", "tech", "cleaner", "gardener", "midwife", "painter", "painters", "decorator", "courier", "in-laws", "nan", "gran",
        "grandma", "grandpa", "friends", "relatives", "tenant", "landlord", "surveyor", "valuer", "assessor", "vet", "doctor", "dr",
    ]

    /// Kinds of business a day may name ("for wednesday cafe"): the day is
    /// read, and the reading said.
    static let businessWords: Set<String> = [
        "cafe", "café", "bakery", "diner", "pub", "salon", "deli", "bistro", "restaurant", "brewery", "bookshop", "books", "tiles",
        "plumbing", "roofing", "cleaners", "motors", "garage", "foods", "kitchen", "club",
    ]

    /// Words that make "sun", "sat" or "wed" at the start of a phrase a thing, not a day.
    static let dayCompounds: Set<String> = [
        "cream", "screen", "sunscreen", "hat", "hats", "lotion", "block", "glasses", "bed", "beds", "roof", "dial", "flower", "flowers",
        "lounger", "loungers", "lamp", "room", "shade", "shades", "tan", "damage", "dried", "nav", "navs", "phone", "dish", "exam", "exams",
        "test", "tests", "prep", "score", "scores", "practice", "tutor", "tutoring", "word", "words", "vocab", "reading", "math", "maths",
        "registration", "down", "up", "through", "with", "on", "in", "at", "by", "the", "a", "my", "newspaper", "paper", "times", "ring", "rings",
        "dress", "dresses", "vows", "invitations", "invites",
    ]
    /// The compounds of one short day name ("sat exam" is the SAT's, "wed exam" Wednesday's).
    static func compound(_ day: String, _ next: String) -> Bool {
        guard dayCompounds.contains(next) else { return false }
        let sat: Set<String> = ["exam", "exams", "test", "tests", "prep", "score", "scores", "practice", "tutor", "tutoring", "word", "words",
                                "vocab", "reading", "math", "maths", "registration", "nav", "navs", "phone", "dish", "down"]
        let wed: Set<String> = ["dress", "dresses", "vows", "invitations", "invites", "ring", "rings", "in", "at", "on", "by", "the", "a", "my"]
        switch day {
        case "wed": return wed.contains(next)
        case "sat": return !wed.subtracting(["in", "at", "on", "by", "the", "a", "my"]).contains(next)
        default: return !sat.contains(next) && !wed.subtracting(["in", "at", "on", "by", "the", "a", "my"]).contains(next)
        }
    }

    /// Whether `next` starts a condition after a short day name, which makes
    /// it the day: "inspect hive sat if warm", "mow lawn wed when dry",
    /// "hike sun when sunny" ("the sun when it sets" is the sun).
    static func conditionAfterDay(_ day: String, _ next: String, after prev: String) -> Bool {
        ["if", "unless", "iff"].contains(next)
            || ((day != "sun" || !beforeTheSun.contains(prev)) && ["when", "weather", "provided", "providing", "assuming", "depending", "maybe"].contains(next))
    }

    /// Words after which "sun" is the sun, not Sunday: "sit in the sun",
    /// "go to beach if sun", "soak up some sun".
    static let beforeTheSun: Set<String> = ["the", "if", "some", "no", "more", "of", "full", "hot", "much", "little", "enough", "bright", "afternoon", "morning", "midday"]

    /// Time zones' abbreviations as people write them after a time ("3pm PST").
    static let zoneWords: Set<String> = ["PST", "PDT", "PT", "MST", "MDT", "MT", "CST", "CDT", "CT", "EST", "EDT", "ET", "AKST", "AKDT", "HST",
                                         "UTC", "GMT", "BST", "IST", "CET", "CEST", "EET", "EEST", "WET", "WEST", "JST", "KST", "AEST",
                                         "AEDT", "ACST", "AWST", "NZST", "NZDT", "SGT", "HKT", "Z", "Zulu"]

    /// Zones' abbreviations that end in neither ST nor DT ("8am NZT", "9am WAT").
    static let otherZoneWords: Set<String> = ["NZT", "WAT", "EAT", "CAT", "PKT", "BRT", "ART", "ICT", "WIB", "PHT", "MYT", "GST", "AET", "AKT", "SGT", "HKT"]

    /// A zone's abbreviation typed in lower case after a time ("3pm cet",
    /// "9am est"): the abbreviation, but not those that are also words of
    /// a title ("3pm west gate", "wet", "z").
    static func lowerCaseZoneWord(_ raw: String) -> String? {
        let w = unbracketed(raw)
        guard w.count >= 3, w == w.lowercased(), !["west", "wet", "art", "cat", "eat"].contains(w), zoneWords.contains(w.uppercased()) else { return nil }
        return w.uppercased()
    }

    /// After a time, a zone not read: "pt", "ct", "mt", "et" in lower case,
    /// the abbreviations that end in neither ST nor DT ("nzt", "WAT"), an
    /// offset ("gmt+1", "UTC-5").
    static func otherZoneWord(_ raw: String) -> Bool {
        let w = unbracketed(raw)
        if ["pt", "ct", "mt", "et"].contains(w) { return true }
        if otherZoneWords.contains(w.uppercased()) && !["art", "cat", "eat", "ict", "gst"].contains(w) { return true }
        let l = w.lowercased()
        for p in ["gmt", "utc", "utc+", "gmt+"] where l.hasPrefix(p) && l.count > p.count {
            let rest = l.dropFirst(3)
            if let c = rest.first, c == "+" || c == "-" || c == "\u{2212}", rest.dropFirst().allSatisfy({ $0.isNumber || $0 == ":" }), rest.count >= 2 { return true }
        }
        return false
    }

    /// A clock's shape with letters glued on that say nothing read:
    /// "3:30pn", "9.45an", "7:00pmm" (not "3:30pm", "9:45a", "17:00h").
    static func clockWithTail(_ w: String) -> Bool {
        let digits = w.prefix(while: { $0.isNumber })
        guard (1...2).contains(digits.count) else { return false }
        var rest = w.dropFirst(digits.count)
        // "7pmm", "3pn", "1oam", "9an": an am or pm mistyped right after the hour.
        if ["pmm", "amm", "pn", "an", "oam", "opm", "pmn", "apm", "mp", "ma", "ppm", "aam"].contains(String(rest)) { return true }
        // "5;30pm", "3;15": a semicolon for the colon.
        if rest.first == ";", rest.dropFirst().prefix(2).count == 2, rest.dropFirst().prefix(2).allSatisfy({ $0.isNumber }) { return true }
        guard let sep = rest.first, sep == ":" || sep == "." else { return false }
        rest = rest.dropFirst()
        let minutes = rest.prefix(while: { $0.isNumber })
        guard minutes.count == 2 else { return false }
        let tail = rest.dropFirst(2)
        return !tail.isEmpty && tail.allSatisfy { $0.isLetter } && !["am", "pm", "a", "p", "h", "hrs", "hr", "hours", "ish"].contains(String(tail))
    }

    /// "5 May Street", "18 April Lane", "at 12 June Ave": a number and a
    /// name before a street's word, at `k` (the number).
    func address(at k: Int) -> Bool {
        guard let n = Int(word(k)), n >= 1 else { return false }
        let streets: Set<String> = ["street", "st", "road", "rd", "avenue", "ave", "lane", "ln", "drive", "dr", "close", "way", "court",
                                    "ct", "place", "pl", "crescent", "boulevard", "blvd", "terrace", "square", "sq", "gardens", "grove"]
        // "44 Oak Ave"; "44 oak ave" and "15 oak st" too, where the number is no 12-hour clock's ("at 7 oak st" is refused).
        return streets.contains(word(k + 1)) || (tokens.indices.contains(k + 1) && streets.contains(word(k + 2))
            && (tokens[k + 1].raw.first?.isUppercase == true || (n > 12 && Self.titleWord(word(k + 1)) && !Self.unitLike(word(k + 1)))))
    }

    /// "at 7 oak st": an hour or a house number, before a street not written
    /// with capitals; refused, never guessed.
    func timeOrAddress(at k: Int) -> Bool {
        guard let n = Int(word(k)), (0...12).contains(n), word(k).count <= 2, tokens.indices.contains(k + 2) else { return false }
        let streets: Set<String> = ["street", "st", "road", "rd", "avenue", "ave", "lane", "ln", "blvd", "boulevard", "crescent", "terrace"]
        return streets.contains(word(k + 2)) && Self.titleWord(word(k + 1)) && !Self.unitLike(word(k + 1))
            && !ReminderLexicon.partsOfDay.contains(word(k + 1)) && tokens[k + 1].raw.first?.isUppercase != true
    }

    /// "at 22 elm": a 24-hour clock's hour or a house number, before a
    /// lower-case word of the title with no street's word after it; refused,
    /// never guessed ("at 22 sharp", "at 19 with sam" are hours).
    func hourOrHouse(at k: Int) -> Bool {
        guard let n = Int(word(k)), (13...23).contains(n), word(k).count == 2, k > 0, ["at", "@"].contains(word(k - 1)),
              tokens.indices.contains(k + 1), tokens[k + 1].raw.first?.isLowercase == true, !address(at: k) else { return false }
        let w = word(k + 1)
        // "at 22 the avenue", "at 14 the crescent": a house on a street named with "the".
        if w == "the", ["avenue", "crescent", "close", "green", "parade", "drive", "grove", "square", "mews", "street", "lane", "walk", "row",
                        "terrace", "gardens", "hill", "rise", "broadway", "strand", "mall", "circle", "court"].contains(word(k + 2)) { return true }
        return Self.titleWord(w) && !Self.unitLike(w) && !ReminderLexicon.partsOfDay.contains(w) && !Self.dayWord(w)
            && !["sharp", "hours", "hrs", "h", "o'clock", "oclock", "tonight", "today", "tomorrow", "then", "latest", "pls", "please", "ish",
                 "past", "after", "before", "of", "til", "till", "until", "thru", "through", "hundred", "hundreds", "hrs", "mins", "min"].contains(w)
            && ReminderLexicon.ruleWords[w] == nil && !ReminderLexicon.recurrenceWords.contains(w)
    }

    /// Words that name a day ("friday", "tomorrow", "christmas").
    static func dayWord(_ w: String) -> Bool {
        ReminderLexicon.weekday(w) != nil || ["today", "tomorrow", "tonight", "christmas", "xmas", "easter", "thanksgiving", "halloween"].contains(w)
    }

    /// Within one letter's change of a weekday's, a month's or a day's name
    /// ("tuseday", "decmber", "tomorrrow"), or two of a long one's ("tusdey"),
    /// and none of them.
    static func nearTimeWord(_ w: String) -> Bool {
        guard ReminderLexicon.weekday(w) == nil, ReminderLexicon.month(w) == nil, !["today", "tomorrow", "tonight"].contains(w),
              !["match", "marsh", "sundae", "sundry", "marco", "marcy", "marci", "junie", "augusta"].contains(w) else { return false }  // English words and names, not typos
        let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "tomorrow", "tonight"] + ReminderLexicon.months
        if names.contains(where: { n in abs(n.count - w.count) <= 1 && oneEditApart(Array(w), Array(n)) }) { return true }
        // "tusdey", "setpmber", "thrusdya": two changes from a long name, starting as it does.
        // (The English words of a dictionary within two changes: wamerican's words, checked.)
        guard w.count >= 6, w.count <= 12, !w.contains("'"), w.allSatisfy({ $0.isLetter }),
              !["jaguar", "jaguars", "deceiver", "nonmember", "sturdy", "toniest"].contains(w) else { return false }
        return names.contains { n in n.count >= 7 && n.first == w.first && !(w == n + "s") && abs(n.count - w.count) <= 2 && editDistance(Array(w), Array(n)) <= 2 }
    }

    /// Letters added, dropped, changed, or neighbours swapped, to make `a`
    /// into `b` (optimal string alignment; words of a dozen letters or so).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    /// Whether `a` becomes `b` by one letter added, dropped, changed, or two
    /// neighbours swapped ("tuseday", "decmber", "tomorrrow"; not "night").
    static func oneEditApart(_ a: [Character], _ b: [Character]) -> Bool {
        if a == b { return false }
        var i = 0
        while i < a.count && i < b.count && a[i] == b[i] { i += 1 }
        let ra = Array(a[i...]), rb = Array(b[i...])
        if ra.count == rb.count {
            if ra.dropFirst() == rb.dropFirst() { return true }
            return ra.count >= 2 && ra[0] == rb[1] && ra[1] == rb[0] && ra.dropFirst(2) == rb.dropFirst(2)
        }
        return ra.dropFirst() == rb[...] || ra[...] == rb.dropFirst()
    }

    /// What a number first in a sentence counts ("1000 piece puzzle"), and
    /// what a year first names ("2026 tax return"): no clock in either.
    static let quantityNouns: Set<String> = ["piece", "pieces", "pc", "word", "words", "calories", "cal", "kcal", "units", "unit", "pounds", "dollars",
                                             "euros", "deposit", "steps", "mg", "ml", "people", "guests", "copies", "pages", "sheets", "items", "points",
                                             "miles", "meters", "metres", "feet", "ft", "sq", "square", "rpm", "watts", "lumens", "gb", "mb", "cc", "rupees"]
    static let yearNouns: Set<String> = ["tax", "taxes", "budget", "goals", "goal", "review", "planning", "plan", "plans", "vision", "invoice", "invoices",
                                         "return", "returns", "accounts", "resolutions", "resolution", "calendar", "diary", "holiday", "holidays", "trip",
                                         "season", "report", "reports", "summary", "recap", "photos", "renewal", "subscription", "membership", "fees",
                                         "expenses", "receipts", "docs", "documents", "files", "archive", "w2", "p60", "1099", "school", "reunion",
                                         "census", "edition", "model", "catalogue", "catalog", "olympics", "election", "payroll", "bonus", "appraisal"]

    /// Events of a day a person may time something by ("after shift"),
    /// which name no time the tool knows.
    static let routineEvents: Set<String> = ["shift", "rounds", "handoff", "handover", "surgery", "clinic", "gym", "meeting", "mtg", "appt",
                                             "appointment", "nap", "service", "mass", "pickup", "dropoff", "recess", "rehearsal", "workout",
                                             "harvest", "planting", "sowing", "lambing", "milking", "bed", "bedtime", "school", "work", "church", "class",
                                             "trip", "flight", "vacation", "move", "wedding", "party", "game", "race", "exam", "interview"]
    /// Events of a day said after "at" ("at pickup", "at lunch"): a time a
    /// person means but the tool cannot know. Places ("at gym", "at clinic") are not among them.
    static let atEvents: Set<String> = ["pickup", "pick-up", "dropoff", "drop-off", "handover", "handoff", "recess", "rounds", "lunch", "dinner",
                                        "breakfast", "halftime", "half-time", "lunchbreak", "hometime", "home-time"]
}

extension ReminderParser.ParseState {
    /// "lunch at wednesday cafe", "take cake to friday club": a day before a
    /// kind of business after a word that goes to a place or calls one may
    /// name the place or say the day; not read, and so refused.
    func dayOrPlace(at k: Int) -> Bool {
        // "call day care about thursday pickup": the day names what the call is about, or when to call.
        if ReminderLexicon.weekday(word(k)) != nil, k > 0, ["about", "re", "regarding"].contains(word(k - 1)), Self.titleWord(word(k + 1)),
           !ReminderLexicon.partsOfDay.contains(word(k + 1)) { return true }
        return ReminderLexicon.weekday(word(k)) != nil && Self.businessWords.contains(word(k + 1)) && k > 0
            && ["at", "to", "from", "call", "ring", "phone", "email", "visit", "book", "into", "outside", "about"].contains(word(k - 1))
    }
}
