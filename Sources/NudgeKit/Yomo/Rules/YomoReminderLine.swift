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
