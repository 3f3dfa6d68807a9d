// A recurrence set (RFC 5545 §3.8.5): the occurrences of one or more RRULEs
// and the RDATEs, less the EXDATEs and the occurrences of EXRULEs (read as
// RFC 2445 defined them), all from one start in one zone. Merged in wall
// time order as python-dateutil's rruleset does, each wall time once.
//
// Invariants: an EXDATE that is a DATE removes every occurrence on that
// local day, a DATE-TIME the occurrence at that instant; an RDATE that is
// a DATE comes at the start's time of day. Without an RRULE the start is
// the first occurrence, as RFC 5545 says of DTSTART (with one, the rules
// say whether it is: a start no rule gives is left undefined by the RFC,
// and left out as dateutil does). Lazy and bounded like the
// expansion of each rule (RRuleExpansion.swift).

public struct RecurrenceSet: Equatable, Hashable, Sendable {
    public var start: LocalDateTime
    public var rrules: [RRule]
    public var rdates: [ICSDateValue]
    public var exrules: [RRule]
    public var exdates: [ICSDateValue]

    public init(start: LocalDateTime, rrules: [RRule] = [], rdates: [ICSDateValue] = [], exrules: [RRule] = [],
                exdates: [ICSDateValue] = []) {
        self.start = start
        self.rrules = rrules
        self.rdates = rdates
        self.exrules = exrules
        self.exdates = exdates
    }

    /// A date value as a wall time in `zone` and its instant.
    func item(_ v: ICSDateValue, zone: Zone) -> (local: LocalDateTime, at: Instant) {
        switch v {
        case .date(let d): let l = LocalDateTime(day: d, time: start.time); return (l, zone.resolve(l))
        case .local(let l): return (l, zone.resolve(l))
        case .utc(let i): return (zone.local(i), i)
        }
    }

    /// The occurrences in order, starting near `near` (or from the start).
    public func occurrences(zone: Zone, near: Instant? = nil) -> Occurrences {
        Occurrences(set: self, zone: zone, near: near)
    }

    /// The first occurrence strictly after `t`.
    public func next(after t: Instant, zone: Zone) -> Instant? {
        var it = occurrences(zone: zone, near: t)
        var best: (local: LocalDateTime, at: Instant)? = nil
        while let o = it.next() {
            if let b = best, o.local.wallSeconds > b.local.wallSeconds + 3 * 3600 { break }
            // Wall order and instant order part only around a DST gap: look a little further.
            if o.at > t && (best == nil || o.at < best!.at) { best = o }
        }
        return best?.at
    }

    /// Every occurrence, at most `limit` of them.
    public func all(zone: Zone, limit: Int = 100_000) -> [(local: LocalDateTime, at: Instant)] {
        var out: [(local: LocalDateTime, at: Instant)] = []
        var it = occurrences(zone: zone)
        while out.count < limit, let o = it.next() { out.append(o) }
        return out
    }

    public struct Occurrences: IteratorProtocol, Sendable {
        var rules: [RRuleExpansion]
        var heads: [(local: LocalDateTime, at: Instant)?]
        var rdates: [(local: LocalDateTime, at: Instant)]
        var rdateAt = 0
        var exrules: [RRuleExpansion]
        var exHeads: [(local: LocalDateTime, at: Instant)?]
        let exInstants: Set<Instant>
        let exDays: Set<Day>
        var last: LocalDateTime? = nil

        init(set: RecurrenceSet, zone: Zone, near: Instant?) {
            let nearLocal = near.map { zone.local($0) }
            func expand(_ r: RRule) -> RRuleExpansion {
                if let n = nearLocal { return RRuleExpansion.starting(rule: r, start: set.start, zone: zone, near: n) }
                return RRuleExpansion(rule: r, start: set.start, zone: zone)
            }
            rules = set.rrules.map(expand)
            heads = []
            for k in rules.indices { heads.append(rules[k].next()) }
            rdates = (set.rdates + (set.rrules.isEmpty ? [.local(set.start)] : [])).map { set.item($0, zone: zone) }.sorted { $0.local < $1.local }
            if let n = nearLocal { rdates = rdates.filter { $0.local.wallSeconds >= n.wallSeconds - 2 * 86400 } }
            exrules = set.exrules.map(expand)
            exHeads = []
            for k in exrules.indices { exHeads.append(exrules[k].next()) }
            var ins = Set<Instant>()
            var days = Set<Day>()
            for x in set.exdates {
                if case .date(let d) = x { days.insert(d) } else { ins.insert(set.item(x, zone: zone).at) }
            }
            exInstants = ins
            exDays = days
        }

        /// The next occurrence in wall-time order, each wall time once.
        public mutating func next() -> (local: LocalDateTime, at: Instant)? {
            while true {
                var pick: Int? = nil  // -1: the rdate list
                var best: LocalDateTime? = nil
                if rdateAt < rdates.count { pick = -1; best = rdates[rdateAt].local }
                for (k, h) in heads.enumerated() {
                    if let h = h, best == nil || h.local < best! { best = h.local; pick = k }
                }
                guard let p = pick else { return nil }
                let o: (local: LocalDateTime, at: Instant)
                if p == -1 {
                    o = rdates[rdateAt]
                    rdateAt += 1
                } else {
                    o = heads[p]!
                    heads[p] = rules[p].next()
                }
                if let l = last, l == o.local { continue }
                last = o.local
                if excluded(o) { continue }
                return o
            }
        }

        mutating func excluded(_ o: (local: LocalDateTime, at: Instant)) -> Bool {
            if exInstants.contains(o.at) || exDays.contains(o.local.day) { return true }
            var hit = false
            for k in exrules.indices {
                while let h = exHeads[k], h.local < o.local { exHeads[k] = exrules[k].next() }
                if let h = exHeads[k], h.local == o.local || h.at == o.at { hit = true }
            }
            return hit
        }
    }

    public static func == (a: RecurrenceSet, b: RecurrenceSet) -> Bool {
        a.start == b.start && a.rrules == b.rrules && a.rdates == b.rdates && a.exrules == b.exrules && a.exdates == b.exdates
    }
}
