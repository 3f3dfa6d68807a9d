// yomo's pure decisions on occurrences: the first trigger, completing,
// snoozing, what `due` announces on a device, the summary's wake times, and
// which announced notifications another device has dismissed.
//
// Snooze acts on the occurrence that has come due: the pending occurrence if
// its time has passed (announced or not, already snoozed or not), for a
// scheduled rule the latest one that has come. Snoozing a reminder whose
// pending occurrence has not come yet changes nothing and says so; a snooze
// never hides or replaces a later occurrence, and a later occurrence that
// comes while a snooze waits replaces the snooze.
//
// Announcing is per device: each device announces each occurrence (and each
// snooze) at most once, and never one that was dismissed anywhere (completed
// or snoozed). "Missed" counts the occurrences of a scheduled rule that came
// and went with no device announcing them and nobody snoozing or completing
// them.

public enum Yomo {
    /// The first trigger of a new or edited reminder: the anchor for a
    /// one-time reminder (even if past: it is due at once), else the first
    /// occurrence at or after both the anchor and now.
    public static func firstTrigger(anchor: LocalDateTime, recurrence: Recurrence, now: Instant, zone: Zone) -> Instant? {
        let a = zone.resolve(anchor)
        if !recurrence.repeats { return a }
        let from = max(a, now)
        return recurrence.next(after: Instant(ms: from.ms - 1), anchor: anchor, zone: zone)
    }

    /// Completing: a one-time reminder is done (nil); a recurring one moves to
    /// its next occurrence after both the pending one and now, or, repeating
    /// from completion, N units after now.
    public static func nextAfterDone(_ r: Reminder, now: Instant, zone fallback: Zone) -> Instant? {
        guard r.recurrence.repeats else { return nil }
        let zone = r.zone(fallback)
        if r.recurrence.basedOnCompletion { return r.recurrence.nextAfterCompletion(now, anchor: r.anchor, zone: zone) }
        return r.recurrence.next(after: max(r.triggerAt, now), anchor: r.anchor, zone: zone)
    }

    /// The occurrence that has come due at `now`: the pending one if it has
    /// come, for a scheduled rule the latest one at or before `now`. nil when
    /// the pending occurrence is still ahead.
    public static func comeDue(_ r: Reminder, now: Instant, zone fallback: Zone) -> Instant? {
        guard !r.completed, r.triggerAt <= now else { return nil }
        guard r.scheduled else { return r.triggerAt }
        let zone = r.zone(fallback)
        var latest = r.triggerAt
        var steps = 0
        while steps < 1_000_000, let n = r.recurrence.next(after: latest, anchor: r.anchor, zone: zone), n <= now {
            latest = n
            steps += 1
        }
        return latest
    }

    /// The occurrences before `occurrence`, from the pending one, that nobody
    /// saw: not announced on any device, not snoozed.
    static func missed(_ r: Reminder, before occurrence: Instant, zone: Zone) -> Int {
        guard r.scheduled else { return 0 }
        var n = 0
        var o = r.triggerAt
        var steps = 0
        while o < occurrence && steps < 1_000_000 {
            if r.handled.map({ o > $0 }) ?? true { n += 1 }
            guard let next = r.recurrence.next(after: o, anchor: r.anchor, zone: zone) else { break }
            o = next
            steps += 1
        }
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
        if let o = occ, r.warnMinutes > 0, r.warnedBy[device].map({ $0 < o }) ?? true {
            let w = Instant(ms: o.ms - Int64(r.warnMinutes) * 60_000)
            if best.map({ w < $0 }) ?? true { best = w }
        }
        return best
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
            } else if r.warnMinutes > 0, let o = upcoming(r, device: device, zone: zone), o > now,
                      o.ms - Int64(r.warnMinutes) * 60_000 <= now.ms, r.warnedBy[device].map({ $0 < o }) ?? true {
                out.append(Announcement(reminder: r, occurrence: o, trigger: o, snooze: false, missed: 0, warning: true))
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
        let after = YomoState.folding(a.reminder, e, by: device)
        e["wake"] = JSON(after.flatMap { nextAttention($0, device: device, zone: zone) }.map(zone.format))
        e["at"] = .string(zone.format(at))
        return e
    }

    /// The event for snoozing the occurrence that has come due until
    /// `until`; nil when none has (nothing to snooze yet). Its wake is the
    /// snooze, or the next scheduled occurrence if that comes first.
    public static func snoozeEvent(_ r: Reminder, until: Instant, zone fallback: Zone, at: Instant) -> JSONObject? {
        guard let occ = comeDue(r, now: at, zone: fallback) else { return nil }
        let zone = r.zone(fallback)
        var wake = until
        if r.scheduled, let n = r.recurrence.next(after: occ, anchor: r.anchor, zone: zone), n < wake { wake = n }
        return ["type": "snoozed", "id": .string(r.id), "occurrence": .string(zone.format(occ)), "until": .string(zone.format(until)),
                "wake": .string(zone.format(wake)), "at": .string(zone.format(at))]
    }

    /// Whether anything may be due on `device` at `now`, from the snapshot's
    /// summary (the earliest wake times over the devices that announce) and
    /// the events written since. False means surely nothing: `due` can stop
    /// without reading every reminder.
    public static func mayBeDue(summary: JSONObject?, tail: [JSONObject], now: Instant, device: String = "") -> Bool {
        guard let s = summary, s["k"]?.string == "summary", let list = s["wake"]?.array else { return true }
        // A device the summary was not made for (its first `due`) reads everything.
        guard let devices = s["devices"]?.array, devices.contains(.string(device)) else { return true }
        var touched: [String: Instant?] = [:]
        for e in tail {
            guard let id = e["id"]?.string else { return true }
            switch e["type"]?.string {
            case "created", "edited", "rezoned":
                let warn = (e["warn_minutes"]?.int ?? 0) * 60_000
                touched[id] = .some(YomoState.instant(e["trigger_at"]).map { Instant(ms: $0.ms - warn) })
            case "snoozed": touched[id] = .some(YomoState.instant(e["wake"]) ?? YomoState.instant(e["until"]))
            case "completed": touched[id] = .some(YomoState.instant(e["next"]))
            case "announced":
                // Another device's announcement only ever makes this one's wake later.
                if e["device"]?.string == device { touched[id] = .some(YomoState.instant(e["wake"])) }
            case "deleted": touched[id] = .some(nil)
            default: return true
            }
        }
        for v in touched.values { if let w = v, w <= now { return true } }
        for entry in list {
            guard let pair = entry.array, pair.count == 2, let ms = pair[0].int, let id = pair[1].string else { return true }
            if touched[id] != nil { continue }
            return ms <= now.ms  // the earliest untouched one bounds all the others
        }
        // Every listed reminder changed since: the bound is gone unless the list was all there was.
        return list.count >= YomoState.summarySize
    }

    /// The notification record for an announcement, with the exact commands
    /// for snoozing and completing, and a template for any 1–60 minutes.
    public static func notification(_ a: Announcement, zone fallback: Zone, commandPrefix: String) -> JSONObject {
        let r = a.reminder
        let zone = r.zone(fallback)
        let when = zone.local(a.occurrence)
        var body = a.snooze ? "Snoozed until \(when.time)" : "Due \(when.day) \(when.time)"
        if a.warning { body = "Coming up at \(when.time) (\(when.day))" }
        if r.recurrence.repeats { body += " · \(r.recurrence.summary)" }
        if a.missed > 0 { body += " · \(a.missed) earlier missed" }
        if !r.notes.isEmpty { body += "\n" + r.notes }
        var actions: [NotificationAction] = []
        for m in [5, 15, 60] where !a.warning {
            actions.append(NotificationAction(id: "snooze\(m)", label: "Snooze \(m) min", command: "\(commandPrefix) snooze \(r.id) \(m)"))
        }
        actions.append(NotificationAction(id: "complete", label: "Complete", command: "\(commandPrefix) done \(r.id)"))
        var extra: JSONObject = ["occurrence": .string(zone.format(a.occurrence)), "snooze": .bool(a.snooze), "missed": JSON(a.missed)]
        if a.warning {
            extra["warning"] = true
        } else {
            extra["snooze_command"] = .string("\(commandPrefix) snooze \(r.id) {minutes}")
            extra["snooze_minutes"] = .object(["min": 1, "max": 60, "default": 15])
        }
        let n = NotificationRecord(tool: "yomo", id: r.id, title: r.title, body: body, actions: actions, extra: extra)
        return n.record
    }

    /// A notification this device showed: the reminder, and the occurrence
    /// (or snooze time) it announced.
    public struct Shown: Hashable, Sendable {
        public var id: String
        public var occurrence: Instant
        public var snooze: Bool
        /// The reminder's revision when it was shown.
        public var revision: Instant
        public init(id: String, occurrence: Instant, snooze: Bool, revision: Instant) {
            self.id = id
            self.occurrence = occurrence
            self.snooze = snooze
            self.revision = revision
        }
        public init(_ a: Announcement) {
            self.init(id: a.reminder.id, occurrence: a.occurrence, snooze: a.snooze, revision: a.reminder.revision)
        }
    }

    /// Why a shown notification no longer stands, or nil if it does:
    /// "completed", "snoozed", "changed" or "deleted".
    public static func dismissal(_ n: Shown, in s: YomoState) -> String? {
        guard let r = s.reminders[n.id] else { return "deleted" }
        if r.completed { return "completed" }
        if r.revision != n.revision { return "changed" }
        if n.snooze {
            if r.snoozedUntil == n.occurrence { return nil }
            if r.snoozedUntil != nil { return "snoozed" }
            return "completed"
        }
        if r.triggerAt > n.occurrence { return "completed" }
        if let so = r.snoozeOf, so >= n.occurrence { return "snoozed" }
        return nil
    }

    /// The dismiss record `watch` prints so a notifier can close a notification.
    public static func dismissRecord(_ n: Shown, reason: String, by: String, zone: Zone) -> JSONObject {
        ["type": "dismiss", "tool": "yomo", "id": .string(n.id), "occurrence": .string(zone.format(n.occurrence)),
         "reason": .string(reason), "by": .string(by)]
    }
}

extension Yomo {
    /// The event that moves a reminder to `zone`, keeping its wall-clock
    /// times: the pending occurrence at the same wall time there (for a
    /// scheduled rule, the rule's occurrence from that wall time on).
    public static func rezoneEvent(_ r: Reminder, to zone: Zone, fallback: Zone, now: Instant) -> JSONObject {
        let old = r.zone(fallback)
        let wall = old.local(r.triggerAt)
        var trigger = zone.resolve(wall)
        if r.scheduled, let n = r.recurrence.next(after: Instant(ms: trigger.ms - 1), anchor: r.anchor, zone: zone) { trigger = n }
        return ["type": "rezoned", "id": .string(r.id), "zone": .string(zone.name), "trigger_at": .string(zone.format(trigger)),
                "at": .string(zone.format(now))]
    }
}
