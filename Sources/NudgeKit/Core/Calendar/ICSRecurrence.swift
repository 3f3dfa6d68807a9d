// When a calendar component (VEVENT, VTODO) happens: its start (DTSTART, or
// DUE for a task without one) in its zone, and its recurrence set (RRULE,
// RDATE, EXDATE, EXRULE). Pure: a component and the file's zones in; the
// start, zone and set, or a one-line reason, out.
//
// Invariants: a start with a TZID is in that zone, a UTC start in UTC, a
// floating one and an all-day one in the reader's zone — but in a calendar
// that names its zone (X-WR-TIMEZONE, ICSZones.swift) a floating or UTC
// start is in that zone, as the calendar that wrote it shows it (all-day
// ones stay the reader's days); an RDATE or EXDATE in another zone is kept
// as its instant; an all-day start (a DATE) takes no time parts in its
// rules (RFC 5545: BYHOUR, BYMINUTE, BYSECOND are not allowed with a DATE),
// and an UNTIL written with a time (Outlook's 20200916T230000Z) ends on
// the date it names, whatever the reader's zone.
// An RRULE with an empty value (holiday calendars write `RRULE:`) is none,
// as other readers take it. An end (DTEND, DUE) before the start is refused.

public struct ICSTiming: Equatable, Sendable {
    public var start: LocalDateTime
    public var allDay: Bool
    public var zone: Zone
    /// The start's property: DTSTART or DUE.
    public var property: String
    public var set: RecurrenceSet
    /// Whether anything recurs (RRULE or RDATE).
    public var repeats: Bool { !set.rrules.isEmpty || !set.rdates.isEmpty }
}

public enum ICSRecurrence {
    /// A date value of `p` in the start's zone: local there, or its instant.
    static func values(_ p: ICSProperty, zones: ICSZones, zone: Zone, floating: Bool) -> Result<[ICSDateValue], RRule.ParseError> {
        var other: Zone? = nil
        if let t = p.param("TZID") {
            switch zones.zone(t) {
            case .success(let z): other = z.name == zone.name ? nil : z
            case .failure(let e): return .failure(RRule.ParseError("\(p.name): \(e.message)"))
            }
        }
        let period = p.param("VALUE")?.uppercased() == "PERIOD"
        var out: [ICSDateValue] = []
        for raw in p.value.split(separator: ",") {
            let text = period ? String(raw.split(separator: "/").first ?? raw) : String(raw)
            guard var v = ICSValue.dateOrDateTime(text.trimmingSpaces) else {
                return .failure(RRule.ParseError("\(p.name) '\(raw)' is not a date (20261124) or date-time (20261124T150000)"))
            }
            if let o = other, case .local(let l) = v { v = .utc(o.resolve(l)) }
            out.append(v)
        }
        return .success(out)
    }

    /// The component's start, zone and recurrence set. `floating` is the
    /// zone for a start without TZID or Z (and for an all-day start) where
    /// the calendar names no zone of its own.
    public static func timing(_ c: ICSComponent, zones: ICSZones, floating: Zone) -> Result<ICSTiming, RRule.ParseError> {
        guard let sp = c.first("DTSTART") ?? c.first("DUE") else { return .failure(RRule.ParseError("needs DTSTART or DUE")) }
        guard let sv = ICSValue.dateOrDateTime(sp.value.trimmingSpaces) else {
            return .failure(RRule.ParseError("\(sp.name) '\(sp.value)' is not a date (20261124) or date-time (20261124T150000)"))
        }
        // An all-day item's days are the importer's; a floating time is the calendar's.
        var zone = floating
        var start: LocalDateTime
        var allDay = false
        switch sv {
        case .date(let d):
            start = LocalDateTime(day: d, time: TimeOfDay(hour: 0, minute: 0))
            allDay = true
        case .local(let l):
            start = l
            zone = zones.calendarZone ?? floating
            if let t = sp.param("TZID") {
                switch zones.zone(t) {
                case .success(let z): zone = z
                case .failure(let e): return .failure(e)
                }
            }
        case .utc(let i):
            zone = zones.calendarZone ?? .utc
            start = zone.local(i)
        }
        var set = RecurrenceSet(start: start)
        for (name, isEx) in [("RRULE", false), ("EXRULE", true)] {
            for p in c.all(name) where !p.value.trimmingSpaces.isEmpty {
                var r: RRule
                do throws(RRule.ParseError) { r = try RRule.parse(p.value) } catch {
                    return .failure(RRule.ParseError(name == "RRULE" ? error.message : "EXRULE" + error.message.dropFirst(5)))
                }
                if allDay && (!r.byHour.isEmpty || !r.byMinute.isEmpty || !r.bySecond.isEmpty || r.freq > .daily) {
                    return .failure(RRule.ParseError("\(name) \(r.text): an all-day start (a DATE) repeats by days, not by hours, minutes or seconds"))
                }
                // With a DATE start UNTIL is a DATE (RFC 5545); one written with a time ends on the day it names.
                if allDay, let u = r.until {
                    if case .instant(let i) = u { r.until = .date(Zone.utc.local(i).day) }
                    if case .local(let l) = u { r.until = .date(l.day) }
                }
                if isEx { set.exrules.append(r) } else { set.rrules.append(r) }
            }
        }
        for (name, isEx) in [("RDATE", false), ("EXDATE", true)] {
            for p in c.all(name) {
                switch values(p, zones: zones, zone: zone, floating: sp.param("TZID") == nil) {
                case .success(let vs): if isEx { set.exdates += vs } else { set.rdates += vs }
                case .failure(let e): return .failure(e)
                }
            }
        }
        // An end before the start leaves the start in doubt (readers differ:
        // some refuse, some swap the two), so it is a problem, never a guess.
        if sp.name == "DTSTART", let ep = c.first("DTEND") ?? c.first("DUE"),
           case .success(let ends) = values(ep, zones: zones, zone: zone, floating: ep.param("TZID") == nil), let end = ends.first {
            let at = zone.resolve(start)
            let endAt: Instant
            switch end {
            case .date(let d): endAt = zone.startOfDay(d)
            case .local(let l): endAt = zone.resolve(l)
            case .utc(let i): endAt = i
            }
            if endAt < at {
                return .failure(RRule.ParseError("\(ep.name) \(ep.value.trimmingSpaces.prefix(20)) is before DTSTART \(sp.value.trimmingSpaces.prefix(20)): which one is the start is not clear; correct the item where it was made"))
            }
        }
        return .success(ICSTiming(start: start, allDay: allDay, zone: zone, property: sp.name, set: set))
    }
}
