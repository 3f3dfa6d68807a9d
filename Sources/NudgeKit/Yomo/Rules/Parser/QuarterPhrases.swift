// The end or start of a quarter or a year, as people who file things say
// it: "end of quarter", "end of q1", "eoq", "eoy", "end of the year",
// "start of next quarter". Quarters are the calendar year's (Jan–Mar,
// Apr–Jun, Jul–Sep, Oct–Dec), and the assumption says so: a fiscal year is
// no one's to guess. Before a word of the title ("end of year review",
// "eoy party") it names a thing, as "end of week report" does, and is left
// to be refused.

extension ReminderParser.ParseState {
    /// "(the) end of (the|this|next) quarter|qtr|year|yr", "end of q1",
    /// "start/beginning of …", "eoq", "eoy": that quarter's or year's last
    /// (or first) day, said. A start gone by is refused; "the start of the
    /// year" in November is the next one's.
    mutating func readQuarterOrYearEdge() -> Bool {
        var k = word(i) == "the" ? i + 1 : i
        var end = true, which = "the", quarter: Int? = nil
        let period: String
        if ["eoq", "eoy"].contains(word(k)) {
            period = word(k) == "eoq" ? "quarter" : "year"
            which = "this"
            k += 1
        } else {
            // "last day of the quarter", "first day of next year": its end or start too.
            let dayOf = ["last", "first"].contains(word(k)) && word(k + 1) == "day" && word(k + 2) == "of"
            guard dayOf || (["end", "start", "beginning"].contains(word(k)) && word(k + 1) == "of") else { return false }
            end = ["end", "last"].contains(word(k))
            k += dayOf ? 3 : 2
            if ["the", "this", "next"].contains(word(k)) { which = word(k); k += 1 }
            // "end of 1st quarter", "start of the fourth quarter".
            if let o = ReminderLexicon.ordinal(word(k)), (1...4).contains(o), ["quarter", "qtr"].contains(word(k + 1)), which != "next" {
                quarter = o
                k += 1
            }
            let w = word(k)
            if quarter != nil { period = "quarter" }
            else if ["quarter", "qtr"].contains(w) { period = "quarter" }
            else if ["year", "yr"].contains(w) { period = "year" }
            else if w.count == 2, w.hasPrefix("q"), let q = Int(w.dropFirst()), (1...4).contains(q), which != "next" { (period, quarter) = ("quarter", q) }
            else { return false }
            k += 1
        }
        var year = today.year
        if let y = Int(word(k)), word(k).count == 4, (today.year...(today.year + 100)).contains(y), period == "quarter" || which == "the" {
            year = y
            if quarter == nil && period == "quarter" { return false }  // "end of quarter 2027": which one?
            k += 1
        }
        let after = word(k)
        if Self.titleWord(after) && !Self.dayWord(after) && !["tmrw", "next", "this"].contains(after) && !tokens[k - 1].commaAfter { return false }
        let n = k - i, said = phrase(i, n)
        let d = Self.periodEdge(period, end: end, which: which, quarter: quarter, year: year, today: today)
        if d < today {
            let instead = quarter.map { "\(end ? "end" : "start") of q\($0) \(today.year + 1)" } ?? "\(end ? "end" : "start") of next \(period)"
            if conflict == nil { conflict = "'\(said)' is past: say one to come, as '\(instead)'" }
            return consume(n)
        }
        let what = period == "quarter" ? "the calendar quarter's \(end ? "last" : "first") day (quarters begin Jan, Apr, Jul and Oct)"
            : "the year's \(end ? "last" : "first") day"
        assumptions.append("'\(said)' read as \(Weekdays.display(d.weekday)) \(d), \(what)")
        setDate(d, i, n)
        i += n
        return true
    }

    /// The first or last day of a calendar quarter or year: this one, the
    /// next, or quarter `quarter` of `year` (the next year's when that one
    /// has ended and the next year's is within six months: "end of q1" in
    /// November; "end of q3" then is past). "the" start of one under way is
    /// the next one's.
    static func periodEdge(_ period: String, end: Bool, which: String, quarter: Int?, year: Int, today: Day) -> Day {
        func edge(_ y: Int, _ firstMonth: Int, months: Int) -> Day {
            if !end { return Day(year: y, month: firstMonth, day: 1) }
            let m = firstMonth + months - 1
            return Day(year: y, month: m, day: Day.daysInMonth(year: y, month: m))
        }
        let months = period == "quarter" ? 3 : 12
        if let q = quarter {
            let d = edge(year, 3 * (q - 1) + 1, months: 3)
            let later = edge(year + 1, 3 * (q - 1) + 1, months: 3)
            return d < today && year == today.year && !(!end && (today.month - 1) / 3 == q - 1) && later.daysSinceEpoch - today.daysSinceEpoch <= 183 ? later : d
        }
        let index = period == "quarter" ? (today.month - 1) / 3 : 0
        var first = (year: today.year, month: index * 3 + 1)
        if which == "next" || (which == "the" && !end && edge(first.year, first.month, months: months) < today) {
            first.month += months
            if first.month > 12 { (first.year, first.month) = (first.year + 1, first.month - 12) }
        }
        if year != today.year { first.year = year }
        return edge(first.year, first.month, months: months)
    }
}

extension ReminderParser.ParseState {
    /// How many words at `k` say the start or end of a quarter or a year
    /// that was not read ("end of q3 report", "start of the year goals"):
    /// leftovers to refuse, never to keep in the title unsaid.
    func unreadPeriodEdge(at k: Int) -> Int? {
        func quarter(_ w: String) -> Bool { w.count == 2 && w.hasPrefix("q") && (1...4).contains(Int(w.dropFirst()) ?? 0) }
        func period(_ w: String) -> Bool { ["quarter", "qtr", "year", "yr"].contains(w) || quarter(w) }
        // "early q1", "q4 end", "by year-end", "eofy".
        if ["early", "mid", "late"].contains(word(k)) && quarter(word(k + 1)) { return 2 }
        if quarter(word(k)) && ["end", "start"].contains(word(k + 1)) { return 2 }
        // Not "the year-end report", "year-end stocktake 31/12": before a word of the title, a kind of thing.
        let n = word(k) == "year" && word(k + 1) == "end" ? 2 : 1
        if ["eofy", "yearend", "year-end", "eoq", "eoy"].contains(word(k)) || n == 2,
           ["eoq", "eoy"].contains(word(k)) || !Self.titleWord(word(k + n)) || Self.dayWord(word(k + n)) { return n }
        guard ["end", "start", "beginning"].contains(word(k)), word(k + 1) == "of" else { return nil }
        if period(word(k + 2)) { return 3 }
        return ["the", "this", "next"].contains(word(k + 2)) && period(word(k + 3)) ? 4 : nil
    }
}
