// iCalendar (RFC 5545) out: reminders as VTODOs with DTSTART;TZID, RRULE
// (YomoRRULE.swift), VALARM, and the VTIMEZONEs of their zones. Pure:
// reminders in, text out.
//
// Invariants: every rule survives a round trip through yomo's own import,
// because the whole rule also travels in X-YOMO-RECURRENCE; what RRULE
// cannot say is named in the warnings, never dropped in silence. A rule
// from completion starts at its pending occurrence, since it has no fixed
// schedule. A plain hourly rule counts elapsed hours and RFC 5545 readers
// count an HOURLY rule's hours on the clock of its start's zone, an hour
// apart after a daylight-saving change: its start is written in UTC, where
// the two agree, and its zone in X-YOMO-ZONE; an hourly rule on chosen days
// cannot be said so (its days are the zone's) and is named in the warnings
// where the zone changes its clocks.

extension YomoInterchange {
    /// The calendar, and what iCalendar could not say (kept in X- properties).
    public static func exportICS(_ reminders: [Reminder], fallback: Zone, now: Instant) -> (String, [String]) {
        var out: [String] = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//nudge tools//yomo//EN", "CALSCALE:GREGORIAN"]
        var warnings: [String] = []
        var zones: [String: (Zone, Int, Int)] = [:]  // name -> zone, first year, last year
        for r in reminders {
            let z = r.zone(fallback)
            guard z.name != "UTC" else { continue }
            let y = r.anchor.day.year
            let cur = zones[z.name] ?? (z, y, y)
            zones[z.name] = (z, min(cur.1, y), max(cur.2, y, z.day(of: now).year))
        }
        for (name, (z, first, last)) in zones.sorted(by: { $0.key < $1.key }) {
            out += ICS.vtimezone(name: name, zone: z, years: (first - 1)...max(first - 1, min(last + 10, 2100)))
        }
        let stamp = ICS.utc(now)
        for r in reminders {
            let p = vtodoParts(r, zone: r.zone(fallback), stamp: stamp, warnings: &warnings)
            out += p.master + p.alarms + ["END:VTODO"] + p.overrides
        }
        out.append("END:VCALENDAR")
        return (ICS.text(out), warnings)
    }

    /// One reminder's VTODO: its properties (from BEGIN:VTODO, without the
    /// alarms and END:VTODO), its alarms, and a component per moved or
    /// cancelled occurrence; what iCalendar cannot say goes to `warnings`.
    static func vtodoParts(_ r: Reminder, zone z: Zone, stamp: String,
                           warnings: inout [String]) -> (master: [String], alarms: [String], overrides: [String]) {
        var out: [String] = []
        out.append("BEGIN:VTODO")
        out.append("UID:\(r.id)@yomo")
        out.append("DTSTAMP:\(stamp)")
        out.append("CREATED:\(ICS.utc(r.createdAt))")
        out.append("LAST-MODIFIED:\(ICS.utc(r.updatedAt))")
        out.append("SUMMARY:\(ICS.escape(r.title))")
        if !r.notes.isEmpty { out.append("DESCRIPTION:\(ICS.escape(r.notes))") }
        if let l = r.list { out.append("CATEGORIES:\(ICS.escape(l))") }
        // A rule from completion has no fixed schedule: its start is the
        // pending occurrence. Any other starts at its first occurrence, so
        // that no calendar shows an instance the rule does not have.
        var start = r.recurrence.basedOnCompletion ? z.local(r.triggerAt) : r.anchor
        if r.recurrence.repeats && !r.recurrence.basedOnCompletion && r.recurrence.kind != .rrule,
           let first = r.recurrence.ruleNext(after: Instant(ms: z.resolve(r.anchor).ms - 1), anchor: r.anchor, zone: z) {
            start = z.local(first)
        }
        let hourly = r.recurrence.repeats && !r.recurrence.basedOnCompletion && r.recurrence.kind != .rrule
            && r.recurrence.effective.1 == .hour && r.recurrence.rangeStart == nil && z.name != "UTC"
        if hourly && r.recurrence.days.isEmpty {
            // Elapsed hours are UTC's hours on the clock: what RFC 5545 readers count.
            out.append(dateLine("DTSTART", .utc(z.resolve(start)), zone: z))
            out.append("X-YOMO-ZONE:\(z.name)")
        } else {
            out.append(dateLine("DTSTART", .local(start), zone: z))
        }
        if hourly && !r.recurrence.days.isEmpty && hasDaylightSaving(z, near: start.day) {
            warnings.append("'\(r.title.terminalSafe)' (\(r.id)): an hourly rule on chosen days counts elapsed hours, other calendars hours on the clock of \(z.name): "
                            + "after a daylight-saving change they show it an hour off (yomo keeps it in X-YOMO-RECURRENCE)")
        }
        if r.recurrence.kind == .rrule, let set = r.recurrence.set {
            for rr in set.rrules { out.append("RRULE:\(exportRule(rr, zone: z))") }
            for rr in set.exrules { out.append("EXRULE:\(exportRule(rr, zone: z))") }
            for v in set.rdates { out.append(dateLine("RDATE", v, zone: z)) }
            for v in set.exdates { out.append(dateLine("EXDATE", v, zone: z)) }
        } else if r.recurrence.repeats {
            let (rrule, lost) = rruleText(r.recurrence, anchor: start, zone: z)
            if let rr = rrule { out.append("RRULE:\(rr)") }
            if let l = lost { warnings.append("'\(r.title.terminalSafe)' (\(r.id)): iCalendar cannot say \(l); it is kept in X-YOMO-RECURRENCE") }
            out.append("X-YOMO-RECURRENCE:\(ICS.escape(r.recurrence.json.serialized))")
        }
        if r.completed {
            out.append("STATUS:COMPLETED")
            if let c = r.completedAt { out.append("COMPLETED:\(ICS.utc(c))") }
        } else {
            out.append("STATUS:NEEDS-ACTION")
        }
        var alarms = ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(ICS.escape(r.title))", "TRIGGER:PT0M"]
        if r.nagMinutes > 0 {
            // A nag as iCalendar says it: the alarm repeats (a day's worth; yomo itself nags until done).
            alarms += ["REPEAT:\(max(1, min(1440 / r.nagMinutes, 96)))", "DURATION:PT\(r.nagMinutes)M"]
        }
        alarms.append("END:VALARM")
        for lead in r.alerts {
            alarms += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(ICS.escape(r.title))", "TRIGGER:-PT\(lead)M", "END:VALARM"]
        }
        let master = out
        out = []
        // Each moved or cancelled occurrence: a component of its own with RECURRENCE-ID.
        if !r.recurrence.basedOnCompletion {
            for o in r.recurrence.overrides {
                out += ["BEGIN:VTODO", "UID:\(r.id)@yomo", "DTSTAMP:\(stamp)", dateLine("RECURRENCE-ID", .local(o.occurrence), zone: z),
                        "SUMMARY:\(ICS.escape(r.title))"]
                if let to = o.to { out.append(dateLine("DTSTART", .local(to), zone: z)) } else {
                    out += [dateLine("DTSTART", .local(o.occurrence), zone: z), "STATUS:CANCELLED"]
                }
                out.append("END:VTODO")
            }
        }
        return (master, alarms, out)
    }

    /// Whether the zone's offset changes in the years around `day`.
    static func hasDaylightSaving(_ z: Zone, near day: Day) -> Bool {
        let offsets = (day.year - 1...day.year + 1).flatMap { y in
            [1, 4, 7, 10].map { m in z.offset(at: z.startOfDay(Day(year: y, month: m, day: 1))) }
        }
        return Set(offsets).count > 1
    }

    /// NAME;TZID=zone:value (UTC: the value with Z; a date: VALUE=DATE).
    static func dateLine(_ name: String, _ v: ICSDateValue, zone z: Zone) -> String {
        switch v {
        case .date(let d): return "\(name);VALUE=DATE:\(ICS.date(d))"
        case .utc(let i): return "\(name):\(ICS.utc(i))"
        case .local(let l): return z.name == "UTC" ? "\(name):\(ICS.local(l))Z" : "\(name);TZID=\(z.name):\(ICS.local(l))"
        }
    }

    /// An imported rule as it came, but UNTIL as an instant (RFC 5545: UTC
    /// with a zoned start): a floating time read in the zone, a date at the
    /// end of that day there.
    static func exportRule(_ r: RRule, zone z: Zone) -> String {
        var x = r
        switch r.until {
        case .local(let l)?: x.until = .instant(z.resolve(l))
        case .date(let d)?: x.until = .instant(Instant(ms: z.startOfDay(d.adding(days: 1)).ms - 1000))
        default: break
        }
        return x.text
    }
}
