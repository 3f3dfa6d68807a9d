// playa's rules for changes that reach the queue: what a schedule, pool or
// pause change does to events already drawn, what `generate` does at the
// turn of the day, and how a run claims an event's notification. Each rule
// takes the values it needs (now, today, zone, a generator) and records its
// events in the transaction; none reads a clock or a context.
//
// Invariants:
// - An event whose notification went out (or may have: sending, unknown) is
//   never cancelled or re-drawn by a schedule change: the person was told
//   about it and may be opening it.
// - A confirmed day keeps its times; a change applies from the next day.
// - A past day's pending events become `missed` and are never notified.
// - An unchanged schedule changes nothing (an `event edit` survives it).

extension Playa {
    /// Seconds a notify command may run (`--timeout`, `notify_timeout`).
    public static let defaultNotifyTimeoutSeconds = 600
    /// A claim outlives its command's timeout by this much, then expires:
    /// the run that made it has died.
    public static let claimMarginSeconds = Handover.claimMarginSeconds

    /// Whether an event's notification may be handed to a command now.
    public static func mayNotify(_ e: Event, at now: Instant, retryUnknown: Bool) -> Bool {
        e.handover.mayClaim(at: now, retryUnknown: retryUnknown)
    }

    /// A pending event no notification has reached (none handed over, or the
    /// command failed): what a schedule change may replace.
    public static func untouched(_ e: Event, at now: Instant) -> Bool {
        e.status == .pending && e.delivery(at: now).isWaiting
    }

    /// A pending event no notification has reached, by anything recorded
    /// (no claim, live or expired): what a losing draw may take away.
    public static func untouchedByAnyone(_ e: Event) -> Bool {
        e.status == .pending && e.handover.state.isWaiting
    }

    /// The days of `rid` that a change re-plans: today once it was drawn
    /// (or holds events), and every later day already drawn.
    public static func plannedDays(_ s: PlayaState, _ rid: String, today: Day) -> [Day] {
        var days = Set(s.events.values.filter { $0.recipientID == rid && $0.date >= today }.map(\.date))
        for key in s.generated where key.hasPrefix(rid + "|") {
            if let d = Day.parse(String(key.dropFirst(rid.count + 1))), d >= today { days.insert(d) }
        }
        return days.sorted()
    }

    /// Re-draws `r`'s events on `days`: untouched pending events are
    /// cancelled with `reason` and the schedule drawn again (today from `now`
    /// on); touched ones stay. Confirmed days are left as they are. Returns
    /// the days redone and the confirmed days kept.
    @discardableResult
    public static func replan<G: RandomNumberGenerator>(_ tx: inout Transaction<PlayaState>, _ r: Recipient, days: [Day], now: Instant,
                                                        today: Day, zone: Zone, reason: String, rng: inout G) -> (redone: [Day], kept: [Day]) {
        var redone: [Day] = []
        var kept: [Day] = []
        for d in days.sorted() where d >= today {
            if tx.state.confirmed.contains(d) { kept.append(d); continue }
            var stays: [TimeOfDay] = []
            // A date's reminder is not the schedule's: a schedule change leaves it.
            let dated = Set(occasionEvents(r, date: d, zone: zone).map(\.id))
            for ev in tx.state.events.values.sorted(by: { $0.id < $1.id }) where ev.recipientID == r.id && ev.date == d && ev.status == .pending {
                if dated.contains(ev.id) { continue }
                guard untouched(ev, at: now) else { stays.append(ev.time); continue }
                var c = ev
                c.status = .cancelled
                c.error = reason
                tx.record(saved(c))
            }
            // A cadence's one reminder a day: one already notified is that day's.
            let planned = r.schedule.cadence != nil && !stays.isEmpty ? []
                : plan(r, date: d, zone: zone, notBefore: d == today ? now : nil, last: tx.state.lastContact[r.id]?.date, rng: &rng)
            for ev in planned where !stays.contains(ev.time) {
                tx.record(saved(ev))
            }
            // A date's reminder that pausing cancelled (or that a pause kept from being drawn) comes back while it is ahead.
            for ev in occasionEvents(r, date: d, zone: zone) where d > today || ev.at > now {
                let cur = tx.state.events[ev.id]
                if cur == nil || (cur?.status == .cancelled && cur?.error == "the recipient is paused") { tx.record(saved(ev)) }
            }
            if !tx.state.generated.contains(PlayaState.generatedKey(r.id, d)) {
                tx.record(["type": "generated", "recipient_id": .string(r.id), "date": .string(d.description)])
            }
            redone.append(d)
        }
        return (redone, kept)
    }

    /// After `r`'s pool changed: each pending event drawn from the pool
    /// shows its message's new text, or, when that message is gone, another
    /// one drawn from the pool (cancelled when the pool is empty). Events
    /// whose text was edited by hand keep it. Returns the events changed.
    @discardableResult
    public static func syncPool<G: RandomNumberGenerator>(_ tx: inout Transaction<PlayaState>, _ r: Recipient, rng: inout G) -> [Event] {
        var changed: [Event] = []
        for ev in tx.state.events.values.sorted(by: { $0.id < $1.id })
        where ev.recipientID == r.id && (ev.status == .pending || ev.status == .missed) {
            guard let mid = ev.messageID else { continue }
            var c = ev
            if let m = r.messages.first(where: { $0.id == mid }) {
                guard m.text != ev.message else { continue }
                c.message = m.text
            } else if r.messages.isEmpty {
                guard ev.status == .pending else { continue }
                c.status = .cancelled
                c.error = "its message was removed and the pool is empty"
            } else {
                let m = r.messages[Int.random(in: 0..<r.messages.count, using: &rng)]
                c.messageID = m.id
                c.message = m.text
            }
            tx.record(saved(c))
            changed.append(c)
        }
        return changed
    }

    /// Pausing `r`: its untouched pending events from today on are cancelled.
    @discardableResult
    public static func pauseEvents(_ tx: inout Transaction<PlayaState>, _ r: Recipient, today: Day, now: Instant) -> [Event] {
        var out: [Event] = []
        for ev in tx.state.events.values.sorted(by: { $0.id < $1.id })
        where ev.recipientID == r.id && ev.date >= today && untouched(ev, at: now) {
            var c = ev
            c.status = .cancelled
            c.error = "the recipient is paused"
            tx.record(saved(c))
            out.append(c)
        }
        return out
    }

    public static func seededGenerator(seed: UInt64, recipient: String, date: Day) -> SeededRandom {
        SeededRandom(seed: seed ^ StableHash.fnv1a(recipient + "|" + date.description))
    }

    public struct Generated: Sendable {
        public var made: [Event] = []
        public var missed: [Event] = []
        /// Active recipients with an empty pool, not yet drawn for the day.
        public var empty: [(id: String, name: String)] = []
        /// Active recipients whose pool has messages.
        public var drawing: [String] = []
    }

    /// Records `r`'s draw of `date` (`draw`, the same on every device) as
    /// this device's: the events (a draw line changes nothing where the
    /// event is already there), the day's marker, and a `slot_missed` for
    /// each slot already past at `now` that no notification has reached.
    /// Returns the events drawn still pending, and those just missed.
    public static func recordDraw(_ tx: inout Transaction<PlayaState>, _ r: Recipient, date: Day, now: Instant, zone: Zone,
                                  seed: UInt64?) -> (made: [Event], missed: [Event]) {
        let evs = draw(r, date: date, zone: zone, seed: seed, last: tx.state.lastContact[r.id]?.date)
        let batch = batchID(evs)
        for e in evs {
            var line = saved(e)
            line["batch"] = .string(batch)
            tx.record(line, line: savedLine(e, batch: batch))
        }
        tx.record(["type": "generated", "recipient_id": .string(r.id), "date": .string(date.description), "batch": .string(batch)])
        var missed: [Event] = []
        for e in evs where e.at <= now {
            guard let cur = tx.state.events[e.id], cur.status == .pending, cur.handover.state == .pending else { continue }
            tx.record(["type": "slot_missed", "id": .string(e.id), "recipient_id": .string(r.id)])
            if let m = tx.state.events[e.id] { missed.append(m) }
        }
        let made = evs.compactMap { tx.state.events[$0.id] }.filter { $0.status == .pending }
        return (made, missed)
    }

    /// `generate`: past days' pending events become missed, then each active
    /// recipient not yet drawn for `date` (on `device`, when named: a day
    /// drawn elsewhere is drawn here too, the same events) gets that day's
    /// draw (`recordDraw`: a slot already past at `now` is missed, never
    /// notified late). With `seed`, the draw is made from it instead of each
    /// recipient's seed.
    public static func generate(_ tx: inout Transaction<PlayaState>, date: Day, now: Instant, today: Day, zone: Zone,
                                seed: UInt64?, device: String? = nil) -> Generated {
        var g = Generated()
        if tx.state.overdueDays(before: today) {
            g.missed = tx.state.events.values.filter { $0.status == .pending && $0.date < today }
                .sorted { ($0.at, $0.id) < ($1.at, $1.id) }
            tx.record(["type": "missed_through", "date": .string(today.adding(days: -1).description)])
            for i in g.missed.indices { g.missed[i].status = .missed }
        }
        let active = tx.state.activeRecipients
        tx.state.reserve(events: active.reduce(0) { n, r in
            if case .fixed(let ts) = r.schedule { return n + ts.count }
            if case .random(let k) = r.schedule { return n + k }
            return n + 1
        })
        g.drawing = active.filter(\.draws).map(\.id)
        for r in active {
            let key = PlayaState.generatedKey(r.id, date)
            if device.map({ tx.state.drawnBy[key]?.contains($0) ?? false }) ?? tx.state.generated.contains(key) { continue }
            if !r.draws { g.empty.append((r.id, r.name)); continue }
            let (made, missed) = recordDraw(&tx, r, date: date, now: now, zone: zone, seed: seed)
            g.made += made
            g.missed += missed
        }
        return g
    }

    /// What `due` on device `me` must record before it notifies on `today`:
    /// the day's draw of each active recipient that this device has not
    /// drawn itself (none yet, or one that reached it from another device),
    /// so that a slot already past when the draw reached the notifying
    /// device is missed, never notified late. Returns the slots missed.
    public static func adoptDraws(_ tx: inout Transaction<PlayaState>, device me: String, now: Instant, today: Day, zone: Zone) -> [Event] {
        var missed: [Event] = []
        for r in tx.state.activeRecipients where r.draws
        && !(tx.state.drawnBy[PlayaState.generatedKey(r.id, today)]?.contains(me) ?? false) {
            missed += recordDraw(&tx, r, date: today, now: now, zone: zone, seed: nil).missed
        }
        return missed
    }

    /// Whether `due` on device `me` has draws to record first (`adoptDraws`).
    public static func needsDraws(_ s: PlayaState, device me: String, today: Day) -> Bool {
        s.activeRecipients.contains { $0.draws && !(s.drawnBy[PlayaState.generatedKey($0.id, today)]?.contains(me) ?? false) }
    }

    /// What playa's notifying role is called (`DeviceRole`).
    public static let notifierWords = DeviceRole.Words(key: "notify_device", things: "notifications", command: "playa due")

    /// Which device notifies, as `due` on device `me` decides it at `now`:
    /// `configured` (`notify_device` in the config file) when set, else the
    /// device the journal names (`DeviceRole.decide`).
    public static func notifier(_ s: PlayaState, device me: String, configured: String?, takeOver: Bool,
                                configPath: String, now: Instant) -> DeviceRole.Verdict {
        s.notifier.decide(device: me, configured: configured, takeOver: takeOver, words: notifierWords, configPath: configPath, now: now)
    }

    /// Claims event `id`'s notification for a run, if it may still be
    /// handed over; nil when another run has it or it went out.
    public static func claim(_ tx: inout Transaction<PlayaState>, _ id: String, claim: String, until: Instant, now: Instant,
                             retryUnknown: Bool, today: Day? = nil) -> Event? {
        guard let cur = tx.state.events[id], cur.status == .pending, cur.date >= (today ?? cur.date),
              let r = tx.state.recipients[cur.recipientID], !r.paused,
              mayNotify(cur, at: now, retryUnknown: retryUnknown) else { return nil }
        var e: JSONObject = ["type": "notify_claimed", "id": .string(id), "recipient_id": .string(cur.recipientID),
                             "claim": .string(claim), "until": .string(until.description)]
        if cur.handover.isRetry(at: now) { e["retry"] = true }
        tx.record(e)
        return tx.state.events[id]
    }

    /// Records how a claimed notification ended at `at`; a failure names
    /// when the next try may be (`Handover.nextTry`). Returns that time.
    @discardableResult
    public static func finish(_ tx: inout Transaction<PlayaState>, _ ev: Event, claim: String, outcome: DeliveryOutcome, status: Int32?,
                              error: String?, at: Instant? = nil) -> Instant? {
        var e: JSONObject = ["type": "notified", "id": .string(ev.id), "recipient_id": .string(ev.recipientID),
                             "claim": .string(claim), "outcome": .string(outcome.rawValue)]
        if let s = status { e["status"] = .int(Int64(s)) }
        if let m = error { e["error"] = .string(m) }
        var next: Instant? = nil
        if outcome == .failed, let t = at {
            let n = Handover.nextTry(failures: (tx.state.events[ev.id]?.handover.failures ?? 0) + 1, at: t)
            e["retry_at"] = .string(n.description)
            next = n
        }
        tx.record(e)
        return next
    }

    static func saved(_ r: Recipient) -> JSONObject { ["type": "recipient_saved", "recipient": .object(r.json)] }
    static func saved(_ e: Event) -> JSONObject { ["type": "event_saved", "event": .object(e.json)] }
}
