// The one clock every tool reads: a pinned or real instant and the local
// zone, how a person's time is parsed, and which times are believed at all
// (plausible: not before 2000, not far ahead of now where the past is
// expected).

/// The one clock: a pinned or real instant, and the local zone from `TZ`.
public struct Clock: Sendable {
    public var now: Instant
    public var zone: Zone
    public init(now: Instant, zone: Zone) {
        self.now = now
        self.zone = zone
    }
    public var today: Day { zone.day(of: now) }
    public func format(_ t: Instant) -> String { zone.format(t) }

    public static let timeHint = "a time like 2026-11-22T08:15:00-05:00 or '2026-11-22 08:15'"

    /// Parses a user-supplied time: RFC 3339 with an offset, or a local
    /// `YYYY-MM-DD[ HH:MM[:SS]]` / `YYYY-MM-DDTHH:MM[:SS]` in `zone`, or
    /// `@EPOCH` (seconds, or milliseconds from 10^11 on: `instant(epoch:)`).
    public static func parseTime(_ s: String, zone: Zone) -> Instant? {
        let t = s.trimmingSpaces
        if t.hasPrefix("@") { return Int64(t.dropFirst()).flatMap { instant(epoch: Double($0)) } }
        if let d = Day.parse(t) { return zone.resolve(LocalDateTime(day: d, time: TimeOfDay(hour: 0, minute: 0))) }
        guard let p = RFC3339.parse(t, allowLocal: true) else { return nil }
        if p.offsetSeconds != nil { return p.instant }
        let fraction = p.instant.ms - p.local.wallSeconds * 1000
        return Instant(ms: zone.resolve(p.local).ms + fraction)
    }
}

// MARK: Plausible times

extension Clock {
    /// The earliest instant any tool believes: 2000-01-01T00:00:00Z.
    public static let earliest = Instant(seconds: 946_684_800)
    /// Nothing is believed from the year 10000 on, whatever is expected.
    public static let latest = Instant(seconds: 253_402_300_800)
    /// How far ahead of now a time may be where the past is expected.
    public static let oneDay: Int64 = 86_400_000
    /// The one rule for epoch numbers: below 10^11 a number is seconds
    /// (10^11 seconds is in the year 5138), from 10^11 on it is milliseconds
    /// (10^11 milliseconds is 1973-03-03), as phone exports write them.
    public static let epochMillisecondsFrom: Double = 1e11

    /// An epoch number read by that rule; nil when it is not a finite number
    /// of reasonable size.
    public static func instant(epoch n: Double) -> Instant? {
        guard n.isFinite, abs(n) < 9e15 else { return nil }
        return abs(n) < epochMillisecondsFrom ? Instant(ms: Int64((n * 1000).rounded())) : Instant(ms: Int64(n.rounded()))
    }

    /// A time from a field's text (its UTF-8, as a line holds it) that
    /// should be RFC 3339: the same checks and messages as `instant(_:)`
    /// with the text as a JSON string, without making the string.
    public static func instant(text u: UnsafeRawBufferPointer, field: String, zone: Zone, now: Instant,
                               lead: Int64? = oneDay) -> Result<Instant, ToolError> {
        guard let p = RFC3339.parse(u, allowLocal: true) else {
            // What was written, quoted up to 60 characters (a line may hold megabytes).
            let text = String(decoding: u, as: UTF8.self)
            let shown = text.count > 60 ? text.prefix(60) + "…" : text
            return .failure(.data("\(field) must be an RFC 3339 time like 2026-11-22T08:15:00-05:00 or epoch seconds (a number), not '\(shown)'"))
        }
        let t = p.offsetSeconds != nil ? p.instant : Instant(ms: zone.resolve(p.local).ms + p.instant.ms - p.local.wallSeconds * 1000)
        if let e = plausible(t, now: now, what: field, zone: zone, lead: lead) { return .failure(e) }
        return .success(t)
    }

    /// Whether `t` is a plausible time: not before 2000-01-01T00:00:00Z, and,
    /// unless `lead` is nil (a time in the future is expected, as for a
    /// reminder), not more than `lead` milliseconds after `now` (default one
    /// day). Nil when it is; otherwise a bad-data error naming `what`.
    public static func plausible(_ t: Instant, now: Instant, what: String, zone: Zone = .utc,
                                 lead: Int64? = oneDay) -> ToolError? {
        if t < earliest {
            // Year 1 and later print; anything earlier is only "before".
            let shown = t.ms >= -62_135_596_800_000 ? " \(RFC3339.format(t, offsetSeconds: 0))" : ""
            return .data("\(what)\(shown) is before 2000-01-01: not a plausible time")
        }
        if t >= latest { return .data("\(what) is after the year 9999: not a plausible time") }
        if let lead = lead, t.ms > now.ms + lead {
            let ahead = lead == oneDay ? "more than a day after now" : "in the future"
            return .data("\(what) \(zone.format(t)) is \(ahead) (now is \(zone.format(now)))")
        }
        return nil
    }

    /// Why an epoch number is no time at all (past what `instant(epoch:)`
    /// reads, of either sign): the range accepted, as epoch seconds, epoch
    /// milliseconds and times (up to `lead` after now, else the year 9999).
    static func outOfRange(_ v: JSON, field: String, zone: Zone, now: Instant, lead: Int64?) -> String {
        let upper = Instant(ms: min(lead.map { now.ms + $0 } ?? Int64.max, latest.ms - 1))
        let seconds = min(upper.ms / 1000, Int64(epochMillisecondsFrom) - 1)
        return "\(field) \(v.serialized) is out of range: accepted are epoch seconds from \(earliest.ms / 1000) to \(seconds) "
            + "or epoch milliseconds from \(earliest.ms) to \(upper.ms) (\(RFC3339.format(earliest, offsetSeconds: 0)) to \(zone.format(upper)))"
    }

    /// Whether a day is plausible: not before 2000-01-01 (days are stored
    /// for the past and the future alike). Nil when it is.
    public static func plausible(day d: Day, what: String) -> ToolError? {
        d.year < 2000 ? .data("\(what) \(d) is before 2000-01-01: not a plausible day") : nil
    }

    /// A time from a record's field: an RFC 3339 string (`Z`, `+hh:mm` or
    /// `+hhmm`; with no offset it is local time in `zone`) or an epoch number
    /// (seconds or milliseconds, `instant(epoch:)`), checked by `plausible`.
    /// `field` is the name as the message quotes it (`"at"`).
    public static func instant(_ v: JSON, field: String, zone: Zone, now: Instant,
                               lead: Int64? = oneDay) -> Result<Instant, ToolError> {
        let t: Instant
        var reading = ""
        switch v {
        case .string(let s):
            var s = s
            return s.withUTF8 { instant(text: UnsafeRawBufferPointer($0), field: field, zone: zone, now: now, lead: lead) }
        case .int, .double:
            let n = v.double!
            guard let e = instant(epoch: n) else { return .failure(.data(outOfRange(v, field: field, zone: zone, now: now, lead: lead))) }
            t = e
            if abs(n) < epochMillisecondsFrom {
                reading = " (read as epoch seconds)"
            } else if t > now, plausible(Instant(ms: Int64((n / 1000).rounded())), now: now, what: "", lead: lead) == nil {
                reading = " (read as epoch milliseconds; microseconds? divide by 1000)"
            } else {
                reading = " (read as epoch milliseconds)"
            }
        default:
            return .failure(.data("\(field) must be an RFC 3339 time or epoch seconds, not \(v.kindName)"))
        }
        if let e = plausible(t, now: now, what: field, zone: zone, lead: lead) { return .failure(.data(e.message + reading)) }
        return .success(t)
    }
}
