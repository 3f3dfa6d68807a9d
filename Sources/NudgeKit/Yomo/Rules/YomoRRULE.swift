// yomo's rules as iCalendar RRULEs, and RRULEs as yomo's rules. Pure.
//
// Invariants: out, an RRULE says as much of the rule as it can and names
// what it cannot (repeating from completion, an overnight range on chosen
// weekdays); a day of the month past the 28th falls back to the month's last
// day in a shorter month, as yomo's rules do. In, every part yomo's rules
// cannot say is a problem naming it, never dropped; yomo's weeks start on
// Monday (WKST=MO).

extension YomoInterchange {
    static let icsDays = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    /// The RRULE for a rule, and what it cannot say (nil: nothing lost).
    static func rruleText(_ r: Recurrence, anchor: LocalDateTime, zone: Zone) -> (String?, String?) {
        let (n, unit) = r.effective
        var parts: [String] = []
        var lost: String? = nil
        let byday = r.days.map { icsDays[$0] }.joined(separator: ",")
        switch unit {
        case .hour:
            if let s = r.rangeStart, let e = r.rangeEnd {
                var hours: [Int] = []
                let end = e.secondsOfDay + (r.overnight ? 86_400 : 0)
                var sec = s.secondsOfDay
                while sec <= end { hours.append((sec / 3600) % 24); sec += n * 3600 }
                if r.overnight && !r.days.isEmpty {
                    lost = "an overnight range on chosen weekdays"
                }
                parts = ["FREQ=DAILY", "BYHOUR=\(hours.sorted().map(String.init).joined(separator: ","))", "BYMINUTE=\(s.minute)"]
                if !r.days.isEmpty { parts.append("BYDAY=\(byday)") }
            } else {
                parts = ["FREQ=HOURLY", "INTERVAL=\(n)"]
                if !r.days.isEmpty { parts.append("BYDAY=\(byday)") }
            }
        case .day:
            parts = ["FREQ=DAILY", "INTERVAL=\(n)"]
        case .week:
            parts = ["FREQ=WEEKLY", "INTERVAL=\(n)", "WKST=MO"]
            parts.append("BYDAY=\(r.days.isEmpty ? icsDays[anchor.day.weekday] : byday)")
        case .month:
            parts = ["FREQ=MONTHLY", "INTERVAL=\(n)"]
            if let o = r.monthOrdinal, let wd = r.monthWeekday {
                parts.append("BYDAY=\(o)\(icsDays[wd])")
            } else {
                parts += byMonthDay(anchor.day.day)
            }
        case .year:
            parts = ["FREQ=YEARLY", "INTERVAL=\(n)", "BYMONTH=\(anchor.day.month)"]
            if let o = r.monthOrdinal, let wd = r.monthWeekday {
                parts.append("BYDAY=\(o)\(icsDays[wd])")
            } else {
                parts += byMonthDay(anchor.day.day)
            }
        }
        if let u = r.until {
            // The end of that local day, in UTC as RFC 5545 asks with a TZID start.
            let endOfDay = zone.resolve(LocalDateTime(day: u.adding(days: 1), time: TimeOfDay(hour: 0, minute: 0)))
            parts.append("UNTIL=\(ICS.utc(Instant(ms: endOfDay.ms - 1000)))")
        }
        if let c = r.count { parts.append("COUNT=\(c)") }
        if r.basedOnCompletion { lost = "repeating from completion" }
        return (parts.joined(separator: ";"), lost)
    }

    /// A day of the month that moves back to the last day of shorter months.
    static func byMonthDay(_ d: Int) -> [String] {
        if d <= 28 { return ["BYMONTHDAY=\(d)"] }
        return ["BYMONTHDAY=\((28...d).map(String.init).joined(separator: ","))", "BYSETPOS=-1"]
    }

    // MARK: Reading an RRULE

    /// An RRULE as one of yomo's rules, or why it cannot be one.
    static func recurrence(fromRRULE text: String, anchor: LocalDateTime, zone: Zone) -> Result<Recurrence, Problem> {
        Result(catching: { () throws(Problem) in try rrule(text, anchor: anchor, zone: zone) })
    }

    static func rruleProblem(_ m: String) -> Problem { Problem(place: "", message: "RRULE \(m)") }

    static func rrule(_ text: String, anchor: LocalDateTime, zone: Zone) throws(Problem) -> Recurrence {
        let parts = try rruleParts(text)
        let known: Set<String> = ["FREQ", "INTERVAL", "BYDAY", "BYMONTHDAY", "BYMONTH", "BYHOUR", "BYMINUTE", "BYSETPOS", "UNTIL", "COUNT", "WKST"]
        if let other = parts.keys.sorted().first(where: { !known.contains($0) }) {
            throw rruleProblem("\(other)=\(parts[other]!) cannot be said in yomo's rules")
        }
        if let w = parts["WKST"], w != "MO" { throw rruleProblem("WKST=\(w): yomo's weeks start on Monday") }
        let n = Int(parts["INTERVAL"] ?? "1") ?? 0
        guard (1...1000).contains(n) else { throw rruleProblem("INTERVAL must be 1 to 1000") }
        var plainDays: [Int] = []
        var ordinal: (Int, Int)? = nil
        if let bd = parts["BYDAY"] { (plainDays, ordinal) = try rruleDays(bd) }
        var r: Recurrence
        switch parts["FREQ"] ?? "" {
        case "HOURLY":
            if parts["BYHOUR"] != nil || parts["BYMONTHDAY"] != nil || ordinal != nil { throw rruleProblem("FREQ=HOURLY takes only INTERVAL and BYDAY here") }
            r = Recurrence(kind: .custom, interval: n, unit: .hour, days: plainDays)
        case "DAILY":
            if let bh = parts["BYHOUR"] {
                r = try rruleHours(bh, minute: parts["BYMINUTE"], interval: n, days: plainDays, anchor: anchor)
            } else if !plainDays.isEmpty {
                guard n == 1 else { throw rruleProblem("FREQ=DAILY with INTERVAL and BYDAY cannot be said in yomo's rules") }
                r = Recurrence(kind: .weekly, days: plainDays)
            } else {
                r = n == 1 ? Recurrence(kind: .daily) : Recurrence(kind: .custom, interval: n, unit: .day)
            }
        case "WEEKLY":
            if ordinal != nil { throw rruleProblem("FREQ=WEEKLY with an ordinal BYDAY cannot be said in yomo's rules") }
            r = n == 1 ? Recurrence(kind: .weekly, days: plainDays.isEmpty ? [anchor.day.weekday] : plainDays)
                       : Recurrence(kind: .custom, interval: n, unit: .week, days: plainDays)
        case "MONTHLY", "YEARLY":
            r = try rruleMonths(parts, interval: n, days: plainDays, ordinal: ordinal, anchor: anchor)
        default:
            throw rruleProblem("FREQ=\(parts["FREQ"] ?? "") cannot be said in yomo's rules (HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY)")
        }
        if parts["BYSETPOS"] != nil && parts["BYMONTHDAY"] == nil { throw rruleProblem("BYSETPOS cannot be said in yomo's rules") }
        if parts["BYMINUTE"] != nil && parts["BYHOUR"] == nil { throw rruleProblem("BYMINUTE without BYHOUR cannot be said in yomo's rules") }
        if parts["BYMONTH"] != nil && r.unit != .year { throw rruleProblem("BYMONTH cannot be said in yomo's rules here") }
        if let u = parts["UNTIL"] {
            guard let (l, utc, _) = icsDateTime(u) else { throw rruleProblem("UNTIL=\(u) is not a date") }
            r.until = utc ? zone.day(of: Zone.utc.resolve(l)) : l.day
        }
        if let c = parts["COUNT"] {
            guard let k = Int(c), (1...1000).contains(k) else { throw rruleProblem("COUNT must be 1 to 1000") }
            r.count = k
        }
        return r
    }

    /// The NAME=VALUE parts, names and values upper-cased.
    static func rruleParts(_ text: String) throws(Problem) -> [String: String] {
        var parts: [String: String] = [:]
        for p in text.split(separator: ";") {
            let kv = p.split(separator: "=", maxSplits: 1)
            guard kv.count == 2 else { throw rruleProblem("part '\(p)' is not NAME=VALUE") }
            parts[kv[0].uppercased()] = String(kv[1]).uppercased()
        }
        return parts
    }

    /// BYDAY: plain weekdays, or one weekday's place in the month (1 to 5,
    /// or -1 for the last), never both.
    static func rruleDays(_ bd: String) throws(Problem) -> ([Int], (Int, Int)?) {
        var plainDays: [Int] = []
        var ordinal: (Int, Int)? = nil
        for d in bd.split(separator: ",") {
            let code = String(d.suffix(2))
            guard let wd = icsDays.firstIndex(of: code) else { throw rruleProblem("BYDAY=\(bd) is not a list of weekdays") }
            let ord = d.dropLast(2)
            if ord.isEmpty { plainDays.append(wd) } else {
                guard let o = Int(ord), (1...5).contains(o) || o == -1, ordinal == nil else { throw rruleProblem("BYDAY=\(bd) cannot be said in yomo's rules") }
                ordinal = (o, wd)
            }
        }
        if ordinal != nil && !plainDays.isEmpty { throw rruleProblem("BYDAY=\(bd) mixes weekdays and ordinals") }
        return (plainDays, ordinal)
    }

    /// FREQ=DAILY;BYHOUR=…: hours evenly spaced, maybe wrapping past
    /// midnight, at one minute: an hourly rule over a range.
    static func rruleHours(_ bh: String, minute byMinute: String?, interval n: Int, days plainDays: [Int],
                           anchor: LocalDateTime) throws(Problem) -> Recurrence {
        let hours = bh.split(separator: ",").compactMap { Int($0) }.sorted()
        guard n == 1, !hours.isEmpty, hours.allSatisfy({ (0...23).contains($0) }) else { throw rruleProblem("BYHOUR=\(bh) cannot be said in yomo's rules") }
        let minute = Int(byMinute ?? "\(anchor.time.minute)") ?? -1
        guard (0...59).contains(minute) else { throw rruleProblem("BYMINUTE must be one minute") }
        // Evenly spaced hours, maybe wrapping past midnight.
        var best: (Int, Int, Int)? = nil  // start, step, count
        for startIdx in hours.indices {
            let seq = hours[startIdx...] + hours[..<startIdx]
            let step = seq.count > 1 ? (seq[seq.index(after: seq.startIndex)] - seq.first! + 24) % 24 : 1
            var ok = step > 0
            var prev = seq.first!
            for h in seq.dropFirst() { if (h - prev + 24) % 24 != step { ok = false }; prev = h }
            let span = step * (seq.count - 1)
            if ok && span < 24 { best = (seq.first!, step, seq.count); break }
        }
        guard let (s, step, count) = best else { throw rruleProblem("BYHOUR=\(bh) is not evenly spaced hours") }
        let endHour = (s + step * (count - 1)) % 24
        return Recurrence(kind: .custom, interval: step, unit: .hour, days: plainDays,
                          rangeStart: TimeOfDay(hour: s, minute: minute), rangeEnd: TimeOfDay(hour: endHour, minute: minute))
    }

    /// FREQ=MONTHLY or YEARLY: on the start's day of the month (or the
    /// month's last day, for a day past the 28th), or on a weekday's place
    /// in the month; a yearly rule in the start's month.
    static func rruleMonths(_ parts: [String: String], interval n: Int, days plainDays: [Int], ordinal: (Int, Int)?,
                            anchor: LocalDateTime) throws(Problem) -> Recurrence {
        let unit: Recurrence.Unit = parts["FREQ"] == "MONTHLY" ? .month : .year
        var r = Recurrence(kind: .custom, interval: n, unit: unit)
        if !plainDays.isEmpty { throw rruleProblem("FREQ=\(parts["FREQ"]!) with plain BYDAY cannot be said in yomo's rules") }
        if let (o, wd) = ordinal { r.monthOrdinal = o; r.monthWeekday = wd }
        if let bm = parts["BYMONTH"] {
            guard unit == .year, Int(bm) == anchor.day.month else { throw rruleProblem("BYMONTH=\(bm) must be the start's month") }
        }
        if let md = parts["BYMONTHDAY"] {
            let days = md.split(separator: ",").compactMap { Int($0) }
            let d: Int
            if days.count == 1, parts["BYSETPOS"] == nil {
                d = days[0]
            } else if parts["BYSETPOS"] == "-1", let first = days.first, first == 28, days == Array(28...(days.last ?? 28)) {
                d = days.last!  // BYMONTHDAY=28,29,30;BYSETPOS=-1: the 30th or the month's last day.
            } else {
                throw rruleProblem("BYMONTHDAY=\(md) cannot be said in yomo's rules")
            }
            guard ordinal == nil, d == anchor.day.day || (d > 28 && anchor.day.day >= 28) else {
                throw rruleProblem("BYMONTHDAY=\(d) must be the start's day of the month")
            }
        }
        if parts["BYSETPOS"] != nil && parts["BYMONTHDAY"] == nil { throw rruleProblem("BYSETPOS cannot be said in yomo's rules") }
        return r
    }
}
