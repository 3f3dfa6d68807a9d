// A reminder as one line of yomo's terminal layout: short id, weekday, day
// and time, a mark for a repeating rule, the title and the rule, and its
// state. `list`, `add`, `edit`, `done`, `rehome` and `import` print it.
// Pure. The id and title are escaped (`terminalSafe`); the time is shown in
// the reminder's own zone, named when it is not the reader's.

extension Yomo {
    static func line(_ r: Reminder, zone reader: Zone) -> String {
        let zone = r.zone(reader)
        let l = zone.local(r.effectiveTrigger)
        var when = "\(Weekdays.display(l.day.weekday)) \(l.day) \(l.time)"
        if zone.name != reader.name { when += " \(zone.name)" }
        let mark = r.recurrence.repeats ? "↻" : " "
        var s = "\(r.id.prefix(6).terminalSafe)  \(when)  \(mark)  \(r.title.terminalSafe)"
        if r.recurrence.repeats { s += "  (\(r.recurrence.summary))" }
        if let list = r.list { s += "  #\(list.terminalSafe)" }
        if r.snoozedUntil != nil { s += "  [snoozed]" }
        if r.completed { s += "  [done]" }
        return s
    }
}

extension Yomo {
    /// A view's reminders, in its order, in the reader's day (`zone`):
    /// "all" (active), "today" (due by the end of today, overdue too),
    /// "overdue" (due, not done), "upcoming" (after now, within seven days),
    /// "done-today" (it or one of its occurrences done today, by when);
    /// `list` keeps one list's (any case).
    public static func view(_ view: String, of s: YomoState, list: String?, now: Instant, zone: Zone) -> [Reminder] {
        let today = zone.day(of: now)
        func midnight(_ days: Int) -> Instant { zone.resolve(LocalDateTime(day: today.adding(days: days), time: TimeOfDay(hour: 0, minute: 0))) }
        var rs: [Reminder]
        switch view {
        case "today": rs = s.active.filter { $0.effectiveTrigger < midnight(1) }
        case "overdue": rs = s.active.filter { $0.effectiveTrigger <= now }
        case "upcoming": rs = s.active.filter { $0.effectiveTrigger > now && $0.effectiveTrigger < midnight(8) }
        case "done-today":
            func done(_ r: Reminder) -> Instant? { r.completed ? r.completedAt : r.lastDoneAt }
            rs = s.reminders.values.filter { done($0).map { zone.day(of: $0) == today } ?? false }
                .sorted { (done($0)!, $0.id) < (done($1)!, $1.id) }
        default: rs = s.active
        }
        if let l = list?.lowercased() { rs = rs.filter { $0.list?.lowercased() == l } }
        return rs
    }
}
