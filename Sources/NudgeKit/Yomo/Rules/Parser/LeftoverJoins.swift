// Words left beside what was read that still carry time, each refused and
// quoted (Leftovers.swift), never left in the title: a place's zone with no
// clock it could set ("tonight hong kong time"), a window's "between" beside
// days read otherwise, the second day of "dec 24 and 25", a lead time yomo
// could not count ("1.5 hours before", "a week in advance", "remind me a day
// early" before the event), a course of days no dose was read with ("x10d"),
// "bid" with no dose, a time or a date after it ("keflex bid": say "twice
// daily"), "prn" or "as needed" after an interval, more months beside a
// date's ("15th of jan apr jun sep"), and a day counted from a start yomo
// does not know ("on the 7th day", "on day 7 at 8pm").

extension ReminderParser.ParseState {
    /// Words that end a lead time ("2 hours before", "a week in advance");
    /// "early" too after a unit ("5 min early").
    static let leadTimeEnds: Set<String> = ["before", "beforehand", "prior", "earlier", "sooner", "advance", "ahead"]

    func unreadJoinOrLead(at k: Int) -> Int? {
        let w = word(k), prev = k > 0 && !used[k - 1] ? word(k - 1) : "", next = word(k + 1)
        // "8pm new york time" after a rule; "tonight hong kong time", "call dad 7 hong kong time": a zone with no clock it set.
        if let (_, n) = cityZone(at: k), !["the", "a", "an", "at"].contains(prev), (k..<(k + n)).allSatisfy({ !used[$0] }),
           n >= 3 || !(k > 0 && used[k - 1] && timeWritten != nil) { return n }
        // "9am rio de janeiro time": three words of a place between a time read and "time".
        if w == "time", k > 3, used[k - 4], timeWritten != nil, ((k - 3)..<k).allSatisfy({ !used[$0] && word($0).allSatisfy(\.isLetter) }) { return 1 }
        // "between the 10th and 15th every month", "between tmrw and wed", "between jan and april": a window not read as one.
        if w == "between", (k + 1..<min(tokens.count, k + 3)).contains(where: { used[$0] }) || ReminderLexicon.weekday(next) != nil || Self.dayWord(next) || next == "now"
            || (ReminderLexicon.month(next) != nil && next.count >= 3) { return 1 }
        // "pay invoice 1st to 5th every month", "1st n 15th": an ordinal joined to a day read.
        if let o = ReminderLexicon.ordinal(w), o >= 1, w.first?.isNumber == true, k + 2 < tokens.count, used[k + 2],
           ["to", "thru", "through", "till", "until", "-", "and", "&", "n"].contains(next) { return 2 }
        // "dec 24 and 25 family", "weekdays and sat gym": a second day after a day read.
        if ["and", "&", "n", "or"].contains(prev), k > 1, used[k - 2], date != nil || rule.repeats,
           (Int(w).map { (1...31).contains($0) && w.count <= 2 && date != nil } ?? false) || ReminderLexicon.weekday(w) != nil { return 1 }
        // "remind me the night before", "1.5 hours before", "a week in advance", "1 day ahead of time": a lead time not counted.
        if Self.leadTimeEnds.contains(w) || (w == "early" && (ReminderLexicon.unitWords[prev] != nil || ReminderLexicon.minuteWords.contains(prev) || prev == "half")
                && !instructionBefore(early: k)), date != nil || rule.repeats || timeWritten != nil,
           ((k + 1)..<tokens.count).allSatisfy({ used[$0] }) || (w == "ahead" && next == "of" && word(k + 2) == "time") { return w == "ahead" && next == "of" ? 3 : 1 }
        // "zpack x5d", "keflex 2x daily x10d": a course of days left.
        let tail = w.dropFirst().drop(while: \.isNumber)
        if w.hasPrefix("x"), w.count > 1, w.dropFirst().first?.isNumber == true, ["d", "day", "days"].contains(String(tail))
            || (tail.isEmpty && ["d", "day", "days"].contains(next)) { return tail.isEmpty ? 2 : 1 }
        if w == "x", let n = Int(next.prefix(while: \.isNumber)), n > 0, ["d", "day", "days"].contains(String(next.drop(while: \.isNumber))) { return 2 }
        // "keflex bid", "metformin bid 8am": a prescription's Latin with no dose said; not a bid placed ("place bid sat 5pm").
        if w == "bid", !ReminderLexicon.bidPlacers.contains(word(k - 1)),
           next.isEmpty || (k + 1 < tokens.count && used[k + 1]) { return 1 }
        // "15th of jan apr jun sep", "tax jan apr jun sep 15": more months beside the one a date was read with.
        if ReminderLexicon.month(w) != nil, w != "may", date != nil || rule.repeats {
            let joins: Set<String> = ["and", "&", "n", ",", "/", "to", "-"]
            var j = k - 1
            while j > 0, !used[j], ReminderLexicon.month(word(j)) != nil || joins.contains(word(j)) { j -= 1 }
            // (The month read ends at j: "jan", or "dec 1".)
            if j >= 0, j < k, used[j], ReminderLexicon.month(word(j)) != nil || (j > 0 && used[j - 1] && ReminderLexicon.month(word(j - 1)) != nil) {
                return 1
            }
            j = k + 1
            while j < tokens.count, !used[j], ReminderLexicon.month(word(j)) != nil || joins.contains(word(j)) { j += 1 }
            if j < tokens.count, used[j], ReminderLexicon.month(word(j)) != nil { return 1 }
            // "rent on the 1st dec jan": after a day of the month read.
            if k > 0, used[k - 1], Int(word(k - 1)) != nil || ReminderLexicon.ordinal(word(k - 1)) != nil, ReminderLexicon.month(next) != nil { return 1 }
        }
        // "clock in 10 min early": no lead time after "in 10 min".
        if w == "early", k > 0, used[k - 1], relative != nil, ReminderLexicon.unitWords[word(k - 1)] != nil || ReminderLexicon.minuteWords.contains(word(k - 1)) {
            return 1
        }
        // "candle eggs on day 7 at 8pm": a day counted from a start yomo does not know, before what was read.
        if w == "day", ReminderLexicon.number(next).map({ $0 > 0 }) == true, k > 0, word(k - 1) == "on" || k + 2 == tokens.count { return 2 }
        // "remind me 30 min early" with nothing it is before; "remind me a day early mom bday dec 12".
        if ReminderLexicon.number(w) != nil || ["a", "an"].contains(w), ReminderLexicon.unitWords[next] != nil || ReminderLexicon.minuteWords.contains(next),
           word(k + 2) == "early", earlyIsLead(number: k) { return 3 }
        // "candle eggs on the 7th day": a day counted from a start yomo does not know.
        if w == "day", k > 1, used[k - 1], ReminderLexicon.ordinal(word(k - 1)) != nil, word(k - 2) == "the" { return 1 }
        // "tylenol q4h prn": as needed, the interval is the least time between doses, not a schedule.
        if w == "prn" || w == "p.r.n" || (w == "as" && next == "needed"), rule.repeats { return w == "as" ? 2 : 1 }
        return nil
    }

    /// Whether the words before "N min early" at `k` make it what to do
    /// ("arrive 15 min early", "be there 10 min early"), not a lead time.
    func instructionBefore(early k: Int) -> Bool {
        let doing: Set<String> = ["arrive", "be", "get", "there", "leave", "come", "show", "report", "start", "go", "head", "wake", "open", "clock", "sign"]
        return (max(0, k - 6)..<k).contains { !used[$0] && doing.contains(word($0)) }
    }

    /// What a refusal of the unread words at `k` adds: how to say it.
    func unreadHint(at k: Int) -> String {
        if Self.zoneWords.contains(Self.unbracketed(tokens[k].raw)) || ["eastern", "central", "mountain", "pacific"].contains(word(k))
            || cityZone(at: k) != nil || (word(k + 1) == "time" && ["her", "his", "their", "your"].contains(word(k))) {
            return ": the reminder's zone is set with --tz"
        }
        if Self.leadTimeEnds.contains(word(k)) || word(k) == "early" {
            return ": a lead time is whole days, weeks, hours or minutes ending a one-off's sentence ('remind me 2 hours before')"
        }
        if word(k) == "bid" { return ": 'bid' is twice daily beside a dose ('keflex 500mg bid'); or say 'twice daily'" }
        if ["prn", "p.r.n", "as"].contains(word(k)) { return ": as needed ('prn') has no times to remind at; for a schedule leave it out ('tylenol q4h')" }
        return ""
    }
}
