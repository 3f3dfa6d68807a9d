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
}
