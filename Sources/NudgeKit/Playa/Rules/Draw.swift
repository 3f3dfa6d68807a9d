// The day's draw: each recipient's events for a day, from their schedule
// and message pool, and which status changes are allowed.
//
// Invariants: random times fall within 09:00-21:00 and at least the minimum
// gap apart; fixed times are exactly the schedule's; a message is drawn from
// the pool as it is on the day of the draw.

extension Playa {
    /// The day's events for one recipient: N random minutes in 09:00–21:00,
    /// at least `minimumSpacingMinutes` apart (fewer when a late run has less
    /// of the window left), or the fixed times, each with a message drawn from
    /// the pool. Times before `notBefore` are not scheduled (a late run).
    /// Empty pool: nothing. Pure given the generator.
    public static func plan<G: RandomNumberGenerator>(_ r: Recipient, date: Day, zone: Zone, notBefore: Instant?,
                                                      rng: inout G) -> [Event] {
        guard !r.messages.isEmpty, !r.paused else { return [] }
        var times: [TimeOfDay]
        switch r.schedule {
        case .fixed(let ts):
            times = ts
        case .random(let n):
            var lo = windowStart.secondsOfDay / 60
            let hi = windowEnd.secondsOfDay / 60
            if let nb = notBefore, zone.day(of: nb) == date {
                let l = zone.local(nb)
                lo = max(lo, l.time.hour * 60 + l.time.minute + 1)
            }
            guard hi >= lo else { return [] }
            times = spacedMinutes(n, lo: lo, hi: hi, gap: minimumSpacingMinutes, rng: &rng).map { TimeOfDay(hour: $0 / 60, minute: $0 % 60) }
        }
        var out: [Event] = []
        for t in times {
            let at = zone.resolve(LocalDateTime(day: date, time: t))
            if let nb = notBefore, at <= nb { continue }
            let m = r.messages[Int.random(in: 0..<r.messages.count, using: &rng)]
            out.append(Event(id: IDs.make(using: &rng), recipientID: r.id, date: date, time: t, at: at, messageID: m.id,
                             message: m.text, status: .pending, notification: .pending, error: nil))
        }
        return out
    }

    /// `n` minutes in `lo...hi`, sorted, each at least `gap` after the one
    /// before, uniformly among all such choices: `n` draws in the range
    /// shortened by the gaps, sorted, then spread out by `i * gap`. Fewer when
    /// the range cannot hold `n`.
    public static func spacedMinutes<G: RandomNumberGenerator>(_ n: Int, lo: Int, hi: Int, gap: Int, rng: inout G) -> [Int] {
        guard hi >= lo, n > 0 else { return [] }
        let want = min(n, (hi - lo) / max(gap, 1) + 1)
        let top = hi - (want - 1) * gap
        let draws = (0..<want).map { _ in Int.random(in: lo...top, using: &rng) }.sorted()
        return draws.enumerated().map { $0.element + $0.offset * gap }
    }

    /// The only moves a status may make: pending → sent, cancelled or
    /// missed; missed → sent (sent late after all) or cancelled.
    public static func canMove(_ from: Status, to: Status) -> Bool {
        switch (from, to) {
        case (.pending, .sent), (.pending, .cancelled), (.pending, .missed), (.missed, .sent), (.missed, .cancelled): return true
        default: return false
        }
    }
}
