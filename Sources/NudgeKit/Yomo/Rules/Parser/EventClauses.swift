// Events a person means a time by: "when the package arrives", "after my
// shift", "once the paint is dry". With nothing else saying when, such a
// clause is refused as unread (Leftovers.swift): yomo cannot know its hour.
// After a day that was read ("call mom when i wake up tomorrow"), the day
// stands and the clause stays in the title, as the person wrote it; that
// the clause gave no hour is said, never left silent.

extension ReminderParser.ParseState {
    /// Words after "after", "when", "before", "once" that start an event.
    static let eventStarts: Set<String> = [
        "the", "my", "our", "his", "her", "their", "your", "i", "we", "you", "he", "she", "they", "it", "mom", "mum", "dad", "work", "school",
        "class", "practice", "church", "dinner", "lunch", "breakfast", "tea", "supper", "brunch", "training", "uni", "college",
        "mums", "moms", "dads", "mum's", "mom's", "dad's", "nans", "nan's", "grans", "gran's",
        "ap", "lecture", "lab", "finals", "exams", "midterms", "budget", "payday", "bath", "deadline", "cutoff", "registration", "kickoff",
    ]
    /// "before winter break", "after spring term": a school's or a firm's break, whose dates yomo does not know.
    static let breakSeasons: Set<String> = ["winter", "spring", "summer", "fall", "autumn", "christmas", "xmas", "easter", "thanksgiving", "half", "holiday"]
    static let breakWords: Set<String> = ["break", "vacation", "vacay", "hols", "holidays", "recess", "term", "semester"]
    /// Someone being or doing something: "when i'm next on days".
    static let eventBeings: Set<String> = ["i'm", "im", "we're", "you're", "they're", "it's", "he's", "she's"]
    /// Verbs of "when Jess gets home", "when the shop opens".
    static let eventVerbs: Set<String> = [
        "gets", "get", "arrives", "arrive", "comes", "come", "is", "are", "leaves", "leave", "finishes", "wakes",
        "lands", "returns", "calls", "texts", "opens", "closes", "starts", "ends", "open", "close", "wake",
        "approved", "approves", "done", "ready", "back", "paid", "signed", "goes", "rings", "answers", "replies", "responds",
        "confirms", "ships", "shipped", "arrived", "delivered", "clears", "cleared", "posts", "posted", "sends", "sent",
        "says", "say", "drop", "drops", "dropped", "hit", "hits", "falls", "fall", "rises", "rise", "freezes", "melts", "turns",
        "stops", "stop", "breaks", "finish", "finished", "expires", "expire", "changes", "needs", "shows", "happens", "tells", "asks",
        "signs", "sign", "post", "settles", "heals", "hatches", "thaws", "dries", "dry", "sets", "lifts", "reopens",
    ]
    /// Words before "if" that ask rather than wait: "check if the oven is on" is a task, not an event.
    static let asking: Set<String> = ["check", "see", "ask", "know", "decide", "find", "out", "sure", "wonder", "confirm", "whether", "even"]

    /// Whether an event's clause starts at `k` ("when they open", "after i wake up",
    /// "after service", "before winter break", "if the pager goes off").
    func eventClause(at k: Int) -> Bool {
        let w = word(k), next = word(k + 1)
        // "wake me if pager goes off", "call plumber tomorrow if it rains": waiting on something.
        if w == "if" {
            // "call me if you can", "if needed": a manner, not an event.
            // "ask Dad if we may borrow the van": asking, up to three words back.
            guard !(max(0, k - 3)..<k).contains(where: { Self.asking.contains(word($0)) }),
                  !["can", "could", "want", "have", "need", "like", "wish", "may", "might", "should", "would"].contains(word(k + 2)) else { return false }
            return Self.eventVerbs.contains(word(k + 2)) || Self.eventStarts.contains(next)
        }
        // "on day 6 of stims", "day 3 of the cleanse": a day counted from a start yomo does not know.
        if w == "day", let n = Int(next), n > 0, word(k + 2) == "of", !word(k + 3).isEmpty, ReminderLexicon.month(word(k + 3)) == nil { return true }
        guard ["after", "when", "before", "once"].contains(w) else { return false }
        if Self.eventStarts.contains(next) { return true }
        // "once principal signs off", "once grades post", "after payroll clears": a subject and its verb.
        if Self.titleWord(next) && ReminderLexicon.number(next) == nil && Self.eventVerbs.contains(word(k + 2)) { return true }
        if ["after", "before"].contains(w) && (Self.routineEvents.contains(next) || (Self.breakSeasons.contains(next) && Self.breakWords.contains(word(k + 2)))) {
            return true
        }
        if ["after", "before", "once"].contains(w) && next.hasSuffix("'s") && next.count > 2 { return true }
        // "before prices go up", "after kids are asleep": a subject and its verb.
        if ["after", "before"].contains(w) && Self.titleWord(next) && ["go", "goes", "are", "is", "get", "gets", "come", "comes"].contains(word(k + 2)) { return true }
        if w == "once" && ["all", "everyone", "everything", "both", "home", "done", "finished", "back", "there", "inside", "ready", "paid"].contains(next) { return true }
        guard w == "when" else { return false }
        return Self.eventBeings.contains(next) || (next.hasSuffix("'s") && next.count > 2)
            || tokens[k + 1 < tokens.count ? k + 1 : k].raw.first?.isUppercase == true || Self.eventVerbs.contains(word(k + 2))
    }

    /// A day read with no hour, and an event's clause left in the title:
    /// said, so the reading is not silent about the hour it does not know.
    mutating func sayEventAfterADay() {
        guard date != nil, timeWritten == nil, partOfDay == nil, relative == nil, !rule.repeats,
              let k = tokens.indices.first(where: { !used[$0] && eventClause(at: $0) }) else { return }
        var end = k
        while end + 1 < tokens.count && !used[end + 1] { end += 1 }
        let clause = (k...end).map { tokens[$0].raw }.filter { !$0.isEmpty }.joined(separator: " ")
        assumptions.append("'\(clause)' is no hour yomo can read: it stays in the title, and the reminder is for the day")
    }
}
