// The day's draw: each recipient's events for a day, from their schedule
// and message pool, and which status changes are allowed.
//
// Invariants: random times fall within 09:00-21:00 and at least the minimum
// gap apart; fixed times are exactly the schedule's; a message is drawn from
// the pool as it is on the day of the draw; no two events of one draw fall
// on the same instant (on the spring-forward day 02:30 is 03:30, so a 02:30
// and a 03:30 are one event).
//
// The day's draw (`draw`) is a pure function of the recipient (id, schedule,
// pool, draw seed), the day, the zone and, for a cadence, the day of the
// last contact: not of when or where it is made. A cadence draws one random
// time on a day it is due (`Cadence.isDue`), nothing on other days.
// Two devices that draw the same day independently draw the same events with
// the same ids, so a merge of their journals has nothing to choose.

extension Playa {
    /// The day's events for one recipient: N random minutes in 09:00–21:00,
    /// at least `minimumSpacingMinutes` apart (fewer when a late run has less
    /// of the window left), or the fixed times, each with a message drawn from
    /// the pool. Times before `notBefore` are not scheduled (a late run).
    /// Empty pool: nothing. A cadence: one random time on a day it is due
    /// after `last`, the last contact's day. Pure given the generator.
    public static func plan<G: RandomNumberGenerator>(_ r: Recipient, date: Day, zone: Zone, notBefore: Instant?, last: Day? = nil,
                                                      rng: inout G) -> [Event] {
        let pool = r.messages
        guard !pool.isEmpty, !r.paused else { return [] }
        var times: [TimeOfDay]
        var n = 1
        switch r.schedule {
        case .fixed(let ts):
            times = ts
        case .every(let c):
            guard c.isDue(date, last: last) else { return [] }
            fallthrough
        case .random:
            if case .random(let k) = r.schedule { n = k }
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
        var instants = Set<Int64>()
        for (t, at) in slots(times, date: date, zone: zone) where instants.insert(at.ms).inserted {
            if let nb = notBefore, at <= nb { continue }
            let m = pool[Int.random(in: 0..<pool.count, using: &rng)]
            out.append(Event(id: IDs.make(using: &rng), recipientID: r.id, date: date, time: t, at: at, messageID: m.id,
                             message: m.text, status: .pending, notification: .pending, error: nil))
        }
        return out
    }

    /// Each time of the day with its instant, in time order. A time the
    /// spring-forward day skips (02:30) is the instant after the gap, and is
    /// named by the clock's time then (03:30).
    static func slots(_ times: [TimeOfDay], date: Day, zone: Zone) -> [(TimeOfDay, Instant)] {
        times.sorted().map { t in
            let at = zone.resolve(LocalDateTime(day: date, time: t))
            let shown = zone.local(at)
            return (shown.day == date && shown.time.hour == t.hour && shown.time.minute == t.minute) ? (t, at)
                : (TimeOfDay(hour: shown.time.hour, minute: shown.time.minute), at)
        }
    }

    /// The day's draw for `r`: every slot of the day (N random minutes in
    /// 09:00–21:00 at least `minimumSpacingMinutes` apart, or the fixed
    /// times), each with a message from the pool and an id made from the
    /// recipient, the day, the slot and the draw seed. A pure function of the
    /// recipient's id, schedule, pool and `seed` (default its draw seed),
    /// the day and the zone: every device that draws the day draws these
    /// same events. Slots already past when a draw is made are for the
    /// caller to mark missed; they are drawn all the same, so that draws
    /// made at different times agree. Empty pool or paused: nothing. A
    /// cadence draws one slot on a day it is due after `last`, the day of
    /// the recipient's last contact (`PlayaState.lastContact`), else none.
    public static func draw(_ r: Recipient, date: Day, zone: Zone, seed: UInt64? = nil, last: Day? = nil) -> [Event] {
        scheduleDraw(r, date: date, zone: zone, seed: seed, last: last) + occasionEvents(r, date: date, zone: zone, seed: seed)
    }

    /// The schedule's part of the day's draw (`draw` adds the dates').
    static func scheduleDraw(_ r: Recipient, date: Day, zone: Zone, seed: UInt64?, last: Day?) -> [Event] {
        let count = r.messageCount
        guard count > 0, !r.paused else { return [] }
        let s = seed ?? r.seed
        var rng = SeededRandom(seed: s ^ StableHash.fnv1a(r.id + "|" + date.description))
        let times: [TimeOfDay]
        var n = 1
        switch r.schedule {
        case .fixed(let ts):
            times = ts
        case .every(let c):
            guard c.isDue(date, last: last) else { return [] }  // the day's draw
            fallthrough
        case .random:
            if case .random(let k) = r.schedule { n = k }
            times = spacedMinutes(n, lo: windowStart.secondsOfDay / 60, hi: windowEnd.secondsOfDay / 60, gap: minimumSpacingMinutes,
                                  rng: &rng).map { TimeOfDay(hour: $0 / 60, minute: $0 % 60) }
        }
        var picked: [(TimeOfDay, Instant, Int)] = []
        var instants = Set<Int64>()
        for (t, at) in slots(times, date: date, zone: zone) where instants.insert(at.ms).inserted {
            picked.append((t, at, uniform(0...(count - 1), &rng)))
        }
        // Only the messages drawn are decoded, in one pass over a pool the
        // snapshot holds (`MessagePool.messages(at:)`); a pool in another
        // form is decoded whole, as it always was.
        let ks = picked.map(\.2)
        let messages: [Message?] = r.pool.messages(at: ks) ?? {
            let all = r.messages
            return ks.map { all.indices.contains($0) ? all[$0] : nil }
        }()
        // The id's key is "RECIPIENT|DAY|HH:MM|SEED".
        let head = r.id + "|" + date.description + "|"
        let tail = "|" + IDs.hex(s, digits: 16)
        var out: [Event] = []
        out.reserveCapacity(picked.count)
        for ((t, at, _), m) in zip(picked, messages) {
            guard let m else { continue }
            out.append(Event(id: IDs.stable(head + t.description + tail), recipientID: r.id, date: date, time: t, at: at, messageID: m.id,
                             message: m.text, status: .pending, notification: .pending, error: nil))
        }
        return out
    }

    /// A draw's name: the same for the same events (ids, times, messages),
    /// so identical draws made on two devices are one batch.
    public static func batchID(_ evs: [Event]) -> String {
        // "ID MS MESSAGE_ID" of each event by id, joined with ",".
        var key = [UInt8]()
        for (n, e) in evs.sorted(by: { $0.id < $1.id }).enumerated() {
            if n > 0 { key.append(UInt8(ascii: ",")) }
            key += e.id.utf8
            key.append(UInt8(ascii: " "))
            JSON.appendInt(e.at.ms, into: &key)
            key.append(UInt8(ascii: " "))
            key += (e.messageID ?? "").utf8
        }
        return IDs.stable(bytes: key)
    }

    /// A number in `r`, uniformly enough (the modulo's bias is below 2^-50
    /// for the ranges drawn here), the same on every platform and version.
    static func uniform<G: RandomNumberGenerator>(_ r: ClosedRange<Int>, _ rng: inout G) -> Int {
        r.lowerBound + Int(rng.next() % UInt64(r.upperBound - r.lowerBound + 1))
    }

    /// `n` minutes in `lo...hi`, sorted, each at least `gap` after the one
    /// before, uniformly among all such choices: `n` draws in the range
    /// shortened by the gaps, sorted, then spread out by `i * gap`. Fewer when
    /// the range cannot hold `n`.
    public static func spacedMinutes<G: RandomNumberGenerator>(_ n: Int, lo: Int, hi: Int, gap: Int, rng: inout G) -> [Int] {
        guard hi >= lo, n > 0 else { return [] }
        let want = min(n, (hi - lo) / max(gap, 1) + 1)
        let top = hi - (want - 1) * gap
        let draws = (0..<want).map { _ in uniform(lo...top, &rng) }.sorted()
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
