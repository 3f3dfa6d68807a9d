// What `due` announces on a device, and when it next needs to look. Pure:
// the folded state (or one reminder), now, the zone and the device in;
// announcements, wake times and the events that record them out.
//
// Announcing is per device: each device announces each occurrence (and each
// snooze) at most once, and never one that was dismissed anywhere (completed
// or snoozed). "Missed" counts the occurrences of a scheduled rule that came
// and went with no device announcing them and nobody snoozing or completing
// them.
//
// The snapshot's summary keeps the earliest wake times over the devices that
// announce, so that a `due` with nothing to do can say so from the summary
// and the events written since, without reading every reminder.

extension Yomo {
    /// The occurrences before `occurrence`, from the pending one, that nobody
    /// saw: not announced on any device, not snoozed.
    static func missed(_ r: Reminder, before occurrence: Instant, zone: Zone) -> Int {
        guard r.scheduled, r.triggerAt < occurrence else { return 0 }
        func counts(_ o: Instant) -> Bool { r.handled.map { o > $0 } ?? true }
        var n = counts(r.triggerAt) ? 1 : 0
        r.recurrence.walk(after: r.triggerAt, through: Instant(ms: occurrence.ms - 1), anchor: r.anchor, zone: zone) { if counts($0) { n += 1 } }
        return n
    }

    /// The latest occurrence `device` need not announce: what it announced,
    /// and what was snoozed anywhere.
    static func floor(_ r: Reminder, device: String) -> Instant? {
        switch (r.announcedBy[device], r.snoozeOf) {
        case (nil, nil): return nil
        case (let a?, nil): return a
        case (nil, let s?): return s
        case (let a?, let s?): return max(a, s)
        }
    }

    /// The earliest moment `due` on `device` could announce the reminder;
    /// nil: not by itself (only a change can make it due).
    public static func nextAttention(_ r: Reminder, device: String, zone fallback: Zone) -> Instant? {
        guard !r.completed else { return nil }
        let occ = upcoming(r, device: device, zone: fallback)
        var best = occ
        if let u = r.snoozedUntil, r.snoozeAnnouncedBy[device] != u, best.map({ u < $0 }) ?? true { best = u }
        if let o = occ, let w = alertsPending(r, of: o, device: device).first, best.map({ w < $0 }) ?? true { best = w }
        if let n = nextNag(r), best.map({ n < $0 }) ?? true { best = n }
        return best
    }

    /// The moments of the advance alerts of occurrence `o` that `device`
    /// has not given, earliest first.
    /// (One whose moment had passed when the reminder was made or changed is not given.)
    static func alertsPending(_ r: Reminder, of o: Instant, device: String) -> [Instant] {
        r.alerts.map { Instant(ms: o.ms - Int64($0) * 60_000) }.filter { a in r.warnedBy[device].map { a > $0 } ?? true }.filter { $0 > r.revision }
    }

    /// What nags count from: the pending occurrence, or the end of its
    /// snooze; nil when there is nothing to nag (no nag, done, dismissed).
    static func nagBase(_ r: Reminder) -> Instant? {
        guard r.nagMinutes > 0, !r.completed else { return nil }
        let base = r.snoozedUntil ?? r.triggerAt
        if let d = r.dismissedOf, d >= base { return nil }
        return base
    }

    /// The next nag: a whole number of intervals after the base, after the
    /// last nag any device gave.
    static func nextNag(_ r: Reminder) -> Instant? {
        guard let b = nagBase(r) else { return nil }
        let step = Int64(r.nagMinutes) * 60_000
        let last = max(r.naggedAt ?? b, b)
        return Instant(ms: b.ms + ((last.ms - b.ms) / step + 1) * step)
    }

    /// The latest nag that has come by `now` and was not given; the ones
    /// before it are passed over.
    static func nagDue(_ r: Reminder, now: Instant) -> Instant? {
        guard let n = nextNag(r), n <= now, let b = nagBase(r) else { return nil }
        let step = Int64(r.nagMinutes) * 60_000
        return Instant(ms: b.ms + (now.ms - b.ms) / step * step)
    }

    /// The next occurrence `device` has not announced and nobody dismissed.
    static func upcoming(_ r: Reminder, device: String, zone fallback: Zone) -> Instant? {
        guard let f = floor(r, device: device), f >= r.triggerAt else { return r.triggerAt }
        return r.scheduled ? r.recurrence.next(after: f, anchor: r.anchor, zone: r.zone(fallback)) : nil
    }

    /// The summary's wake time: the earliest attention over `devices`.
    public static func wake(_ r: Reminder, devices: Set<String>, zone: Zone) -> Instant? {
        var best: Instant? = nil
        for d in devices {
            if let w = nextAttention(r, device: d, zone: zone), best.map({ w < $0 }) ?? true { best = w }
        }
        return best
    }

    public struct Announcement: Equatable, Sendable {
        public var reminder: Reminder
        /// The occurrence (or snooze time) being announced.
        public var occurrence: Instant
        /// The occurrence it is about (for a snooze, the one snoozed).
        public var trigger: Instant
        public var snooze: Bool
        /// Occurrences that came and went with nobody seeing them.
        public var missed: Int
        /// An advance warning (`--warn`) of an occurrence still to come.
        public var warning: Bool = false
        /// For a warning, the alert's moment (the occurrence less its lead).
        public var alertAt: Instant? = nil
        /// A nag (`--nag`): the occurrence came, was announced and is not
        /// done; `occurrence` is the nag's moment, `trigger` the occurrence.
        public var nag: Bool = false
    }

    /// What `due` on `device` announces at `now`: each occurrence and each
    /// snooze at most once per device, none that was dismissed anywhere. A
    /// scheduled rule moves on to its latest occurrence that has come; the
    /// ones it passes over unseen are counted as missed, not repeated.
    public static func due(_ s: YomoState, now: Instant, zone: Zone, device: String = "") -> [Announcement] {
        var out: [Announcement] = []
        for r in s.reminders.values where !r.completed {
            guard let w = nextAttention(r, device: device, zone: zone), w <= now else { continue }
            let f = floor(r, device: device)
            if let l = comeDue(r, now: now, zone: zone), f.map({ l > $0 }) ?? true {
                out.append(Announcement(reminder: r, occurrence: l, trigger: l, snooze: false,
                                        missed: missed(r, before: l, zone: r.zone(zone))))
            } else if let u = r.snoozedUntil, u <= now, r.snoozeAnnouncedBy[device] != u {
                out.append(Announcement(reminder: r, occurrence: u, trigger: r.snoozeOf ?? r.triggerAt, snooze: true, missed: 0))
            } else if let o = upcoming(r, device: device, zone: zone), o > now,
                      let a = alertsPending(r, of: o, device: device).last(where: { $0 <= now }) {
                // Alerts that came together (a device asleep): the latest one only.
                out.append(Announcement(reminder: r, occurrence: o, trigger: o, snooze: false, missed: 0, warning: true, alertAt: a))
            } else if let n = nagDue(r, now: now) {
                out.append(Announcement(reminder: r, occurrence: n, trigger: r.snoozeOf ?? r.triggerAt, snooze: false, missed: 0, nag: true))
            }
        }
        return out.sorted { ($0.occurrence, $0.reminder.id) < ($1.occurrence, $1.reminder.id) }
    }

    /// The journal event that records an announcement on `device`, with the
    /// moment it may next announce the reminder by itself.
    public static func event(for a: Announcement, zone: Zone, at: Instant, device: String = "") -> JSONObject {
        var e: JSONObject = ["type": "announced", "id": .string(a.reminder.id), "trigger_at": .string(zone.format(a.trigger)),
                             "occurrence": .string(zone.format(a.occurrence)), "snooze": .bool(a.snooze), "device": .string(device)]
        if a.warning { e["warning"] = true }
        if let t = a.alertAt { e["alert_at"] = .string(zone.format(t)) }
        if a.nag { e["nag"] = true }
        e["at"] = .string(zone.format(at))
        let after = YomoState.folding(a.reminder, e, by: device)
        e["wake"] = JSON(after.flatMap { nextAttention($0, device: device, zone: zone) }.map(zone.format))
        return e
    }

    /// The fields of an event `mayBeDue` reads ("type" first).
    public static let dueSummaryFields = ["type", "id", "wake", "trigger_at", "warn_minutes", "until", "next", "source",
                                          "occurrence", "snooze", "warning", "nag"]

    /// Whether anything may be due on `device` at `now`, from the snapshot's
    /// summary (the earliest wake times over the devices that announce) and
    /// the events written since, with the device that wrote each
    /// (`writers`). False means surely nothing: `due` can stop without
    /// reading every reminder.
    ///
    /// Devices write from their own view, which may lack another's latest
    /// events: a snooze here and an announcement there in the same minute,
    /// each unaware of the other, both stand in the fold. So no event speaks
    /// for another device's: a reminder may wake at the earliest of the wake
    /// its last event from each device gives, and of its summary entry
    /// unless this device wrote about it since (it knew the snapshot then).
    /// Another device's event drops out only where this device's later one
    /// shows it was seen: the making of a reminder elsewhere, once this
    /// device announced that occurrence or a later one, or remade, moved,
    /// completed or deleted it (an import or a vdir can make an id again,
    /// so a mere mention here proves nothing); and the announcement of a
    /// snooze's end. Another device's announcement only ever makes this
    /// one's wake later (an occurrence of another schedule moves nothing:
    /// YomoEvents.swift). A wake an event states is believed only up to
    /// what its own fields say (the trigger less the warning, the snooze's
    /// end, the next occurrence): a peer cannot push its change out of sight.
    /// Two devices' changes of one reminder's schedule in the tail: maybe.
    /// The summary holds for the zone it was made in (reminders without a
    /// zone of their own follow `TZ`): in another, maybe.
    ///
    /// An event older than what the summary folded (`late`, a peer's copy
    /// arriving late) would be folded before events the summary counted, so
    /// it answers here only where none of them can have named its reminder:
    /// the making of a reminder (not an import) that no folded event named
    /// (the summary's `dangling` list). Any other late event: maybe.
    public static func mayBeDue(summary: JSONObject?, tail: [JSONObject], writers: [String], late: [Bool] = [],
                                now: Instant, zone: String, device: String = "") -> Bool {
        guard let s = summary, s["k"]?.string == "summary", let list = s["wake"]?.array else { return true }
        // A device the summary was not made for (its first `due`) reads everything.
        guard let devices = s["devices"]?.array, devices.contains(.string(device)), writers.count == tail.count else { return true }
        guard s["zone"]?.string == zone else { return true }
        if late.contains(true) {
            guard late.count == tail.count, let named = s["dangling"]?.array else { return true }
            let dangling = Set(named.compactMap(\.string))
            for ((e, l), by) in zip(zip(tail, late), writers) where l {
                if e["type"]?.string == "announced" && by != device { continue }
                guard e["type"]?.string == "created", e["source"] == nil, let id = e["id"]?.string, !dangling.contains(id) else { return true }
            }
        }
        /// `made`: the trigger of a making (nil for any other change).
        struct Point { var wake: Instant?; var made: Instant? = nil; var snoozedUntil: Instant? = nil }
        /// The wake an event states, believed up to `bound` (its own fields' word).
        func stated(_ e: JSONObject, bound: Instant?) -> Instant? {
            guard let b = bound else { return YomoState.instant(e["wake"]) }
            return YomoState.instant(e["wake"]).map { min($0, b) } ?? b
        }
        var own = Set<String>()
        var last: [String: [String: Point]] = [:]  // reminder -> writer -> its last event's wake
        // Two devices that changed one reminder's schedule unaware of each
        // other (an edit here, a move to another zone there) fold into a
        // schedule neither event's wake speaks for: maybe.
        var scheduledBy: [String: String] = [:]
        for (e, by) in zip(tail, writers) {
            guard let id = e["id"]?.string else { return true }
            if ["edited", "rezoned"].contains(e["type"]?.string ?? "") {
                if let w = scheduledBy[id], w != by { return true }
                scheduledBy[id] = by
            }
            var p = Point()
            // What this device's event shows it has seen of a making elsewhere.
            var covers: (Instant) -> Bool = { _ in true }
            switch e["type"]?.string {
            case "created", "edited", "rezoned":
                guard let trigger = YomoState.instant(e["trigger_at"]) else { return true }
                let warn = (e["warn_minutes"]?.int ?? 0) * 60_000
                p.wake = stated(e, bound: Instant(ms: trigger.ms - warn))
                if e["type"]?.string == "created" { p.made = trigger }
            case "snoozed":
                guard let u = YomoState.instant(e["until"]) else { return true }
                p.snoozedUntil = u
                p.wake = stated(e, bound: u)
                covers = { _ in false }
            case "completed", "dismissed": p.wake = stated(e, bound: YomoState.instant(e["next"]))
            case "announced":
                if by != device { continue }
                p.wake = YomoState.instant(e["wake"])
                if e["snooze"]?.bool == true, let u = YomoState.instant(e["occurrence"]), var others = last[id] {
                    for (w, q) in others where w != device && q.snoozedUntil == u { others[w] = nil }
                    last[id] = others
                }
                let occurrence = e["snooze"]?.bool == true || e["warning"]?.bool == true || e["nag"]?.bool == true
                    ? nil : YomoState.instant(e["occurrence"])
                covers = { t in occurrence.map { $0 >= t } ?? false }
            case "deleted": p.wake = nil
            default: return true
            }
            if by == device {
                own.insert(id)
                if var others = last[id] {
                    for (w, q) in others where w != device { if let t = q.made, covers(t) { others[w] = nil } }
                    last[id] = others
                }
            }
            last[id, default: [:]][by] = p
        }
        for byWriter in last.values {
            for p in byWriter.values { if let w = p.wake, w <= now { return true } }
        }
        for entry in list {
            guard let pair = entry.array, pair.count == 2, let ms = pair[0].int, let id = pair[1].string else { return true }
            if own.contains(id) { continue }
            return ms <= now.ms  // the earliest one still standing bounds all the others
        }
        // Every listed reminder changed here since: the bound is gone unless the list was all there was.
        return list.count >= YomoState.summarySize
    }
}
