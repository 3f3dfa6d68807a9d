// The occurrences of one reminder, and the changes that move them: its first
// trigger, completing it, the occurrence that has come due, snoozing that
// occurrence, moving the reminder to another zone, and the occurrences
// `next` lists. Pure: a reminder (or a form), now and a zone in; instants
// and events out.
//
// Snooze acts on the occurrence that has come due: the pending occurrence if
// its time has passed (announced or not, already snoozed or not), for a
// scheduled rule the latest one that has come. Snoozing a reminder whose
// pending occurrence has not come yet changes nothing and says so; a snooze
// never hides or replaces a later occurrence, and a later occurrence that
// comes while a snooze waits replaces the snooze.
//
// A reminder's wall times are in its own zone (`Reminder.zone`); `fallback`
// is the reader's zone, for reminders that have none.

extension Yomo {
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
        return r.recurrence.latest(after: r.triggerAt, atOrBefore: now, anchor: r.anchor, zone: zone) ?? r.triggerAt
    }

    /// The event for snoozing the occurrence that has come due until
    /// `until`; nil when none has (nothing to snooze yet). Its wake is the
    /// snooze, or the next scheduled occurrence (its warning) if that comes
    /// first.
    public static func snoozeEvent(_ r: Reminder, until: Instant, zone fallback: Zone, at: Instant) -> JSONObject? {
        guard let occ = comeDue(r, now: at, zone: fallback) else { return nil }
        let zone = r.zone(fallback)
        var wake = until
        if r.scheduled, let n = r.recurrence.next(after: occ, anchor: r.anchor, zone: zone) {
            let w = Instant(ms: n.ms - Int64(r.warnMinutes) * 60_000)
            if w < wake { wake = w }
        }
        return ["type": "snoozed", "id": .string(r.id), "occurrence": .string(zone.format(occ)), "until": .string(zone.format(until)),
                "wake": .string(zone.format(wake)), "at": .string(zone.format(at))]
    }

    /// The event for dismissing what came due (the latest occurrence, or
    /// the end of its snooze): no more nags of it, on any device; it stays
    /// to be done. Nil when nothing has come due. `next`: the schedule's
    /// next occurrence; `wake`: when `device` may next speak of it.
    public static func dismissEvent(_ r: Reminder, zone fallback: Zone, at: Instant, device: String) -> JSONObject? {
        let zone = r.zone(fallback)
        let occ: Instant
        if let u = r.snoozedUntil {
            guard u <= at else { return nil }
            occ = u
        } else {
            guard let c = comeDue(r, now: at, zone: fallback) else { return nil }
            occ = c
        }
        if let d = r.dismissedOf, d >= occ { return nil }
        var e: JSONObject = ["type": "dismissed", "id": .string(r.id), "occurrence": .string(zone.format(occ)),
                             "trigger_at": .string(zone.format(r.snoozeOf ?? occ))]
        let next = r.scheduled ? r.recurrence.next(after: r.snoozeOf ?? occ, anchor: r.anchor, zone: zone) : nil
        e["next"] = JSON(next.map(zone.format))
        let after = YomoState.folding(r, e, by: device)
        e["wake"] = JSON(after.flatMap { nextAttention($0, device: device, zone: fallback) }.map(zone.format))
        e["at"] = .string(zone.format(at))
        return e
    }

    /// The event that moves a reminder to `zone`, keeping its wall-clock
    /// times: the pending occurrence at the same wall time there (for a
    /// scheduled rule, the rule's occurrence from that wall time on).
    public static func rezoneEvent(_ r: Reminder, to zone: Zone, fallback: Zone, now: Instant) -> JSONObject {
        let old = r.zone(fallback)
        let wall = old.local(r.triggerAt)
        var trigger = zone.resolve(wall)
        if r.scheduled, let n = r.recurrence.next(after: Instant(ms: trigger.ms - 1), anchor: r.anchor, zone: zone) { trigger = n }
        var e: JSONObject = ["type": "rezoned", "id": .string(r.id), "zone": .string(zone.name), "trigger_at": .string(zone.format(trigger)),
                             "at": .string(zone.format(now))]
        if r.warnMinutes > 0 { e["wake"] = .string(zone.format(Instant(ms: trigger.ms - Int64(r.warnMinutes) * 60_000))) }
        return e
    }

    /// The event for completing `r`: `next` its next occurrence (nil: done
    /// for good). With an advance warning, `wake` is that warning's time, so
    /// that `due`'s summary path sees it coming.
    public static func completedEvent(_ r: Reminder, next: Instant?, zone: Zone, at: String) -> JSONObject {
        var e: JSONObject = ["type": "completed", "id": .string(r.id), "next": JSON(next.map(zone.format)), "at": .string(at)]
        if let n = next, r.warnMinutes > 0 { e["wake"] = .string(zone.format(Instant(ms: n.ms - Int64(r.warnMinutes) * 60_000))) }
        return e
    }

    /// The next `count` occurrences from the pending one (none once
    /// completed); for a rule from completion, as if each were completed on
    /// time.
    public static func occurrences(_ r: Reminder, count: Int, zone: Zone) -> [Instant] {
        var t = r.triggerAt
        var list: [Instant] = r.completed ? [] : [t]
        while list.count < count, !r.completed, r.recurrence.repeats {
            let n: Instant? = r.recurrence.basedOnCompletion
                ? r.recurrence.nextAfterCompletion(t, anchor: r.anchor, zone: zone)
                : r.recurrence.next(after: t, anchor: r.anchor, zone: zone)
            guard let nn = n else { break }
            list.append(nn)
            t = nn
        }
        return list
    }
}

extension Yomo {
    /// The event for `edit ID --occurrence WHEN`: that one occurrence (WHEN
    /// its local date and time, or its day) moved to `date`/`time`, or
    /// cancelled; the rest of the rule unchanged. The reminder's pending
    /// occurrence is recomputed with the change.
    public static func occurrenceEvent(_ r: Reminder, when: String, date: String?, time: String?, cancel: Bool, now: Instant,
                                       zone fallback: Zone, at: String) throws(ToolError) -> JSONObject {
        guard r.recurrence.repeats, !r.recurrence.basedOnCompletion else {
            throw ToolError(.usage, "--occurrence needs a reminder on a schedule; reminder \(r.id) has one time (edit it with --date and --time)")
        }
        let zone = r.zone(fallback)
        let wantDay: Day
        var wantTime: TimeOfDay? = nil
        if let d = Day.parse(when) { wantDay = d } else if let p = RFC3339.parse(when, allowLocal: true) {
            let l = p.offsetSeconds == nil ? p.local : zone.local(p.instant)
            wantDay = l.day
            wantTime = l.time
        } else {
            throw ToolError(.usage, "--occurrence must be an occurrence's day or time like 2026-12-08 or 2026-12-08T09:00, not '\(when)'")
        }
        // The slot as the rule has it (an occurrence moved before is named by its first time).
        var slot: LocalDateTime? = nil
        var t = Instant(ms: zone.startOfDay(wantDay).ms - 1)
        let end = zone.startOfDay(wantDay.adding(days: 1))
        while let n = r.recurrence.ruleNext(after: t, anchor: r.anchor, zone: zone), n < end {
            let l = zone.local(n)
            if wantTime == nil || l.time == wantTime { slot = l; break }
            t = n
        }
        guard let occ = slot else {
            throw ToolError(.usage, "reminder \(r.id) has no occurrence at \(when) ('yomo next \(r.id)' lists them)")
        }
        var to: LocalDateTime? = nil
        if cancel {
            if date != nil || time != nil { throw ToolError(.usage, "--cancel takes no --date or --time") }
        } else {
            guard date != nil || time != nil else { throw ToolError(.usage, "--occurrence needs --date, --time or --cancel") }
            var l = occ
            if let d = date {
                guard let dd = Day.parse(d) else { throw ToolError(.usage, "--date must be a day like 2026-11-22, not '\(d)'") }
                l.day = dd
            }
            if let tt = time {
                guard let x = TimeOfDay.parse(tt) else { throw ToolError(.usage, "--time must be HH:MM on a 24-hour clock like 15:30, not '\(tt)'") }
                l.time = x
            }
            to = l
        }
        let rec = r.recurrence.overriding(occ, to: to)
        let from = min(r.triggerAt, now)
        guard let trigger = rec.next(after: Instant(ms: from.ms - 1), anchor: r.anchor, zone: zone) else {
            throw ToolError(.usage, "that leaves reminder \(r.id) no occurrence; 'yomo rm \(r.id)' deletes it")
        }
        return ["type": "occurrence", "id": .string(r.id), "occurrence": .string(occ.description), "to": JSON(to?.description),
                "trigger_at": .string(zone.format(trigger)), "at": .string(at)]
    }
}
