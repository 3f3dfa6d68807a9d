// yomo's events, and what each does to one reminder. The fold
// (YomoState.apply) hands each event the reminder it names; a function here
// returns the reminder after it, or nil when the event changes nothing
// (unknown id, a stale occurrence, a missing field).
//
// Events (each with "id" and "at"); the batch's stamp names the device
// (its journal's actor), which is how announcements stay per device:
//   created / edited  {"title","notes","anchor":"YYYY-MM-DDTHH:MM:SS","recurrence":{…},"trigger_at","zone",
//                     "warn_minutes"?,"alerts"?,"nag_minutes"?,"source"?,"sequence"?}   edited may add
//                     "reopen":true (a completed one is active again); alerts: the advance alerts' leads in
//                     minutes (warn_minutes, the largest, alone before there could be several); source: where
//                     an import found it ("ical:UID"), sequence its version
//   occurrence        {"occurrence":"YYYY-MM-DDTHH:MM:SS","to":"…"|null,"trigger_at"}  one occurrence (its wall
//                     time in the reminder's zone) moved, or cancelled (null); the rule is otherwise unchanged
//   snoozed           {"until","occurrence","wake"}  the occurrence that had come due, put off until `until`
//   announced         {"trigger_at","occurrence","snooze":bool,"warning"?,"alert_at"?,"nag"?,"device","wake"}
//                     this device notified an occurrence (or a snooze of one, or warned ahead: alert_at the
//                     alert's moment, or nagged again: occurrence the nag's moment); wake: when it may
//                     speak again
//   dismissed         {"occurrence"}                  no more nags of that occurrence (or snooze end)
//   completed         {"next":"…"|null}              null: a one-time reminder is done
//   rezoned           {"zone","trigger_at"}           the reminder moves to another time zone
//   deleted
//   forget            {"device"}                      `devices forget`: off the list, history kept
//   erase             {"all":true}                    `purge`: everything stamped before it, everywhere
// Any change may carry "by": who made it when it is not this device's
// user ("vdir:NAME", another client of the vdir); it becomes the reminder's lastBy.
//
// A change of what a reminder promises (made, edited, moved to another zone)
// starts it afresh for every device: announcements, warnings and snoozes are
// cleared, and `revision` moves, so a notification shown before no longer
// stands.

extension YomoState {
    /// "created" and "edited": the reminder as the form says; an edit of a
    /// reminder not here changes nothing.
    static func foldMade(_ old: Reminder?, _ e: JSONObject, id: String, edit: Bool, at: Instant, by: String) -> Reminder? {
        guard let title = e["title"]?.string, let anchor = YomoState.anchor(e["anchor"]),
              let trigger = YomoState.instant(e["trigger_at"]) else { return nil }
        let rec = Recurrence.stored(e["recurrence"]?.object) ?? .once
        if edit && old == nil { return nil }
        var r = old ?? Reminder(id: id, title: title, anchor: anchor, recurrence: rec, triggerAt: trigger, createdAt: at)
        // The same reminder made again (an import of a backup, a vdir's copy)
        // on the same schedule: what was announced of it stays announced.
        let warn = Reminder.alerts(e)
        let nag = Reminder.nag(e)
        // So does an edit of its title or notes alone: a snooze and what was announced stand.
        let again = (!edit || e["reopen"]?.bool != true) && old.map { o in
            !o.completed && o.anchor == anchor && o.recurrence == rec && o.triggerAt == trigger && o.alerts == warn && o.nagMinutes == nag
                && (e["zone"]?.string).map { $0 == o.zoneName } ?? true
        } ?? false
        // An edit that kept the time (a new title, notes, list, alerts or nagging): on every device the pending
        // occurrence, a snooze, a completion and what was announced stand as that device has them, whichever
        // of them folded first.
        let keptTime = edit && e["keeps_time"]?.bool == true && old.map { o in
            o.anchor == anchor && o.recurrence == rec && (e["zone"]?.string).map { $0 == o.zoneName } ?? true
        } ?? false
        if keptTime, var o = old {
            o.alerts = warn
            o.nagMinutes = nag
            o.title = title
            o.notes = e["notes"]?.string ?? ""
            o.list = e["list"]?.string.flatMap { $0.isEmpty ? nil : String($0.prefix(64)) }
            // A client's copy taken as its file (the series goes on under the copy's UID).
            if let src = e["source"]?.string { o.source = src; o.sequence = Int(e["sequence"]?.int ?? 0) }
            o.updatedAt = at
            o.lastBy = by
            return o
        }
        r.title = title
        r.notes = e["notes"]?.string ?? ""
        r.anchor = anchor
        r.recurrence = rec
        if let z = e["zone"]?.string { r.zoneName = z }
        r.triggerAt = trigger
        if edit && e["reopen"]?.bool == true { r.completed = false; r.completedAt = nil }
        r.alerts = warn
        r.nagMinutes = nag
        r.list = e["list"]?.string.flatMap { $0.isEmpty ? nil : String($0.prefix(64)) }
        if let src = e["source"]?.string { r.source = src; r.sequence = Int(e["sequence"]?.int ?? 0) }
        if again {
            r.updatedAt = at
            r.lastBy = by
        } else {
            r.changed(at: at, by: by)
        }
        return r
    }

    /// "occurrence": one occurrence moved or cancelled; the pending
    /// occurrence is the one the command computed with the change.
    static func foldOccurrence(_ old: Reminder?, _ e: JSONObject, at: Instant, by: String) -> Reminder? {
        guard var r = old, let occ = YomoState.anchor(e["occurrence"]) else { return nil }
        let to = YomoState.anchor(e["to"])
        if let t = e["to"], !t.isNull, to == nil { return nil }
        r.recurrence = r.recurrence.overriding(occ, to: to)
        if let t = YomoState.instant(e["trigger_at"]), !r.completed { r.triggerAt = t }
        r.changed(at: at, by: by)
        return r
    }

    /// "rezoned": the reminder's wall times move to another zone (a pending
    /// occurrence only while it is active).
    static func foldRezoned(_ old: Reminder?, _ e: JSONObject, at: Instant, by: String) -> Reminder? {
        guard var r = old, let z = e["zone"]?.string else { return nil }
        r.zoneName = z
        if let t = YomoState.instant(e["trigger_at"]), !r.completed { r.triggerAt = t }
        if let a = YomoState.anchor(e["anchor"]) { r.anchor = a }
        r.changed(at: at, by: by)
        return r
    }

    /// "snoozed": the occurrence that had come due waits until `until`; it
    /// becomes the pending one, and counts as seen.
    static func foldSnoozed(_ old: Reminder?, _ e: JSONObject, at: Instant, by: String) -> Reminder? {
        guard var r = old, !r.completed, let until = YomoState.instant(e["until"]) else { return nil }
        let occ = YomoState.instant(e["occurrence"]) ?? r.triggerAt
        // A snooze of an occurrence already completed or passed over is stale.
        guard occ >= r.triggerAt else { return nil }
        r.triggerAt = occ
        r.snoozedUntil = until
        r.snoozeOf = occ
        r.snoozeAnnouncedBy = [:]
        r.handled = max(r.handled ?? occ, occ)
        r.updatedAt = at
        r.lastBy = by
        return r
    }

    /// "announced": what `by` notified (an occurrence, a snooze of one, or
    /// a warning ahead of one), kept per device; an occurrence of the
    /// schedule as it stands also becomes the pending one and replaces an
    /// older snooze. One announced under another schedule — by a device that
    /// had not yet seen a move to another zone or an edit made elsewhere —
    /// stands for its own device only: the others owe the schedule's
    /// occurrences, not that one. So another device's announcement never
    /// brings a device's next attention forward.
    /// A nag's moment (or an announcement's) later than its batch was
    /// written, give or take a clock's skew, is a peer's word against the
    /// clock: it silences nothing.
    static let skew: Int64 = 10 * 60_000

    static func foldAnnounced(_ old: Reminder?, _ e: JSONObject, by: String, written: Instant = Instant(ms: Int64.max)) -> Reminder? {
        guard var r = old, !r.completed, let occ = YomoState.instant(e["occurrence"]) ?? YomoState.instant(e["trigger_at"]) else { return nil }
        // An occurrence or a snooze's end announced counts as the nag of the interval it was announced in.
        func nagged() { if let t = YomoState.instant(e["at"]), t >= occ, t.ms - skew <= written.ms { r.naggedAt = max(r.naggedAt ?? t, t) } }
        if e["snooze"]?.bool == true {
            guard r.snoozedUntil == occ else { return nil }
            r.snoozeAnnouncedBy[by] = occ
            nagged()
        } else if e["warning"]?.bool == true {
            guard occ >= r.triggerAt else { return nil }
            // Before alerts were several, the occurrence stood for all of its alerts.
            let a = YomoState.instant(e["alert_at"]).map { min($0, occ) } ?? occ
            r.warnedBy[by] = max(r.warnedBy[by] ?? a, a)
        } else if e["nag"]?.bool == true {
            guard occ >= r.triggerAt, occ.ms - skew <= written.ms else { return nil }  // done meanwhile, or not yet
            r.naggedAt = max(r.naggedAt ?? occ, occ)
        } else {
            guard occ >= r.triggerAt else { return nil }  // completed meanwhile
            r.announcedBy[by] = max(r.announcedBy[by] ?? occ, occ)
            r.handled = max(r.handled ?? occ, occ)
            nagged()
            guard onSchedule(r, occ) else { return r }
            r.triggerAt = occ
            if let so = r.snoozeOf, so < occ {  // a newer occurrence replaces the snooze
                r.snoozedUntil = nil
                r.snoozeOf = nil
                r.snoozeAnnouncedBy = [:]
            }
        }
        return r
    }

    /// "dismissed": the occurrence (or snooze end) that came due is seen;
    /// it is not nagged again. It stays pending until done.
    static func foldDismissed(_ old: Reminder?, _ e: JSONObject, at: Instant, by: String, written: Instant = Instant(ms: Int64.max)) -> Reminder? {
        // What had not come when the batch was written cannot have been dismissed.
        guard var r = old, !r.completed, let occ = YomoState.instant(e["occurrence"]), occ >= r.triggerAt, occ.ms - skew <= written.ms else { return nil }
        r.dismissedOf = max(r.dismissedOf ?? occ, occ)
        r.updatedAt = at
        r.lastBy = by
        return r
    }

    /// Whether `occ` (not before the pending occurrence) is an occurrence
    /// of `r`'s schedule as it stands: the pending one, or one its rule
    /// gives in its own zone. A reminder without a zone of its own (or one
    /// not known here) is taken at its word, as before zones.
    static func onSchedule(_ r: Reminder, _ occ: Instant) -> Bool {
        if occ == r.triggerAt { return true }
        guard r.scheduled else { return false }
        guard let name = r.zoneName, let zone = ZoneCache.named(name) else { return true }
        return r.recurrence.next(after: Instant(ms: occ.ms - 1), anchor: r.anchor, zone: zone) == occ
    }

    /// "completed": a recurring reminder moves on to `next` (never back); a
    /// one-time one (`next` null) is done.
    static func foldCompleted(_ old: Reminder?, _ e: JSONObject, at: Instant, by: String) -> Reminder? {
        guard var r = old, !r.completed else { return nil }
        if var next = YomoState.instant(e["next"]) {
            // Done under another schedule (a concurrent edit or move): the
            // schedule's first occurrence from that one on.
            if r.scheduled, let name = r.zoneName, let zone = ZoneCache.named(name),
               let n = r.recurrence.next(after: Instant(ms: next.ms - 1), anchor: r.anchor, zone: zone) { next = n }
            r.triggerAt = max(r.triggerAt, next)
            r.snoozedUntil = nil
            r.snoozeOf = nil
            r.snoozeAnnouncedBy = [:]
        } else {
            r.completed = true
            r.completedAt = at
        }
        r.updatedAt = at
        r.lastBy = by
        return r
    }
}
