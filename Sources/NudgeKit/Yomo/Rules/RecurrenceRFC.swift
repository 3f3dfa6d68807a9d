// An imported iCalendar rule inside yomo (`Recurrence.Kind.rrule`): kept as
// its RFC 5545 text (RRULE, RDATE, EXDATE, EXRULE; the start is the
// reminder's anchor in its zone) and computed by the Core engine
// (Core/Calendar/RecurrenceSet.swift), so it means exactly what the RFC
// says. And the overrides every rule may carry: single occurrences moved or
// cancelled (RECURRENCE-ID, `yomo edit --occurrence`).
//
// Invariants: the record is {"type":"rrule","rrule":[…],"rdate":[…],
// "exdate":[…],"exrule":[…]} with iCalendar values (20261124, 20261124T090000
// local, 20261124T140000Z); an override names an occurrence by its wall
// time in the reminder's zone, so moving the reminder to another zone keeps
// it; an overridden occurrence is never announced at its old time.

extension Recurrence {
    /// A rule read from iCalendar.
    public static func rfc(_ set: RecurrenceSet) -> Recurrence {
        var r = Recurrence(kind: .rrule)
        r.set = set
        return r
    }

    static func valueText(_ v: ICSDateValue) -> String {
        switch v {
        case .date(let d): return ICS.date(d)
        case .local(let l): return ICS.local(l)
        case .utc(let i): return ICS.utc(i)
        }
    }

    var rfcJSON: JSONObject {
        let s = set ?? RecurrenceSet(start: LocalDateTime(day: Day(year: 2000, month: 1, day: 1), time: TimeOfDay(hour: 0, minute: 0)))
        var o: JSONObject = ["type": "rrule", "rrule": JSON(s.rrules.map(\.text))]
        if !s.rdates.isEmpty { o["rdate"] = JSON(s.rdates.map(Recurrence.valueText)) }
        if !s.exdates.isEmpty { o["exdate"] = JSON(s.exdates.map(Recurrence.valueText)) }
        if !s.exrules.isEmpty { o["exrule"] = JSON(s.exrules.map(\.text)) }
        if !overrides.isEmpty { o["overrides"] = overridesJSON }
        return o
    }

    static func fromRFC(_ o: JSONObject) -> Recurrence? {
        func texts(_ k: String) -> [String]? {
            guard let v = o[k], !v.isNull else { return [] }
            guard let a = v.array else { return nil }
            let s = a.compactMap(\.string)
            return s.count == a.count ? s : nil
        }
        guard let rr = texts("rrule"), let rd = texts("rdate"), let ex = texts("exdate"), let xr = texts("exrule") else { return nil }
        var set = RecurrenceSet(start: LocalDateTime(day: Day(year: 2000, month: 1, day: 1), time: TimeOfDay(hour: 0, minute: 0)))
        for t in rr { guard let r = try? RRule.parse(t) else { return nil }; set.rrules.append(r) }
        for t in xr { guard let r = try? RRule.parse(t) else { return nil }; set.exrules.append(r) }
        for t in rd { guard let v = ICSValue.dateOrDateTime(t) else { return nil }; set.rdates.append(v) }
        for t in ex { guard let v = ICSValue.dateOrDateTime(t) else { return nil }; set.exdates.append(v) }
        var r = Recurrence.rfc(set)
        if let ov = o["overrides"], !ov.isNull { guard let list = overrides(ov) else { return nil }; r.overrides = list }
        return r
    }

    var overridesJSON: JSON {
        .array(overrides.map { .object(["occurrence": .string($0.occurrence.description), "to": JSON($0.to?.description)]) })
    }

    static func overrides(_ j: JSON) -> [Override]? {
        guard let a = j.array else { return nil }
        var out: [Override] = []
        for x in a {
            guard let o = x.object, let occ = YomoState.anchor(o["occurrence"]) else { return nil }
            let to = YomoState.anchor(o["to"])
            if o["to"] != nil && !(o["to"]!.isNull) && to == nil { return nil }
            out.append(Override(occurrence: occ, to: to))
        }
        return out
    }

    /// "rrule FREQ=WEEKLY;BYDAY=MO,WE (+2 dates, -1)"
    var rfcSummary: String {
        guard let s = set else { return "rrule" }
        var t = s.rrules.map(\.text).joined(separator: " + ")
        if t.isEmpty { t = "dates" }
        if t.count > 60 { t = String(t.prefix(57)) + "..." }
        var extra: [String] = []
        if !s.rdates.isEmpty { extra.append("+\(s.rdates.count) date\(s.rdates.count == 1 ? "" : "s")") }
        let minus = s.exdates.count + s.exrules.count
        if minus > 0 { extra.append("-\(minus)") }
        if !overrides.isEmpty { extra.append("\(overrides.count) changed") }
        return "rrule " + t + (extra.isEmpty ? "" : " (" + extra.joined(separator: ", ") + ")")
    }

    /// The first occurrence strictly after `t`, for a rule whose first
    /// occurrence is at `anchor` (local) in `zone`, with its overrides: a
    /// moved occurrence comes at its new time, a cancelled one not at all.
    /// nil when there is none.
    public func next(after t: Instant, anchor: LocalDateTime, zone: Zone) -> Instant? {
        if overrides.isEmpty { return ruleNext(after: t, anchor: anchor, zone: zone) }
        let replaced = Set(overrides.map { zone.resolve($0.occurrence) })
        var x = t
        var base: Instant? = nil
        var steps = 0
        while steps < 10_000, let n = ruleNext(after: x, anchor: anchor, zone: zone) {
            if !replaced.contains(n) { base = n; break }
            x = n
            steps += 1
        }
        let moved = overrides.compactMap { $0.to.map(zone.resolve) }.filter { $0 > t }.min()
        switch (base, moved) {
        case (let b?, let m?): return min(b, m)
        case (let b?, nil): return b
        case (nil, let m): return m
        }
    }

    /// Each occurrence after `t` and at or before `end`, in order, at most a
    /// million: for an RFC rule one walk of its occurrences from near `t`,
    /// not a walk from its start for each (a counted rule is walked from its
    /// start to find each next one: ten thousand seconds come due took
    /// minutes); for yomo's own rules step by step.
    public func walk(after t: Instant, through end: Instant, anchor: LocalDateTime, zone: Zone, _ body: (Instant) -> Void) {
        guard t < end else { return }
        if kind == .rrule && overrides.isEmpty, var s = set {
            s.start = anchor
            var it = s.occurrences(zone: zone, near: t)
            // Wall order and instant order part only around a gap: a few
            // hours' more, sorted.
            let last = zone.local(end).wallSeconds + 3 * 3600
            var found: [Instant] = []
            while found.count < 1_000_000, let o = it.next(), o.local.wallSeconds <= last {
                if o.at > t && o.at <= end { found.append(o.at) }
            }
            for o in found.sorted() { body(o) }
            return
        }
        var x = t
        var steps = 0
        while steps < 1_000_000, let n = next(after: x, anchor: anchor, zone: zone), n <= end {
            body(n)
            x = n
            steps += 1
        }
    }

    /// The last occurrence after `t` and at or before `now` (nil when none).
    public func latest(after t: Instant, atOrBefore now: Instant, anchor: LocalDateTime, zone: Zone) -> Instant? {
        var latest: Instant? = nil
        walk(after: t, through: now, anchor: anchor, zone: zone) { latest = $0 }
        return latest
    }

    /// The same rule with one occurrence moved (or cancelled: `to` nil),
    /// replacing an earlier change of that occurrence.
    public func overriding(_ occurrence: LocalDateTime, to: LocalDateTime?) -> Recurrence {
        var r = self
        r.overrides.removeAll { $0.occurrence == occurrence }
        r.overrides.append(Override(occurrence: occurrence, to: to))
        r.overrides.sort { $0.occurrence < $1.occurrence }
        return r
    }
}
