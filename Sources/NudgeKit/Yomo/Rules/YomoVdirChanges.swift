// What a change in the vdir means for yomo's journal: a file another
// client changed or removed becomes the events a user's own command would
// record (edited, completed, snoozed, occurrence, deleted), each carrying
// "by": "vdir:NAME" so the reminder shows where the change came from. Pure:
// the reminder, the file as read and what yomo last knew of it in; events,
// a conflict and whether the file must be written again out.
//
// Invariants: a change made on both sides since the last sync is a
// conflict, reported (a line and a record naming what the other side had),
// never lost in silence; the newer change stands (the file's LAST-MODIFIED,
// else its modification time, against the reminder's last change). A
// completion from the other side always counts, whatever else lost: done
// once is done everywhere. A file yomo never saw for a reminder it has is
// the same rule without a report (a first sync).

extension YomoVdir {
    /// What yomo remembers of one file: its name, the stat that tells a new
    /// version by rename (size, modification time in ns, inode), a hash of
    /// its bytes, the reminder it holds and that reminder's fingerprint when
    /// the two last agreed ("" not known), and the last SEQUENCE.
    public struct Seen: Equatable, Sendable {
        public var file: String
        public var uid: String
        public var id: String
        public var size: Int
        public var mtime: Int64
        public var inode: UInt64
        public var hash: String
        public var fingerprint: String
        public var sequence: Int
        /// The file's X-YOMO-VERSION then ("" none): the version of yomo's
        /// that `fingerprint` stands for.
        public var version: String
        /// A completed occurrence a client keeps as a task of its own (the
        /// series went on in a copy with a new UID): yomo leaves it alone.
        public var retired = false
        /// The occurrence the file starts and is due at, in ms, when not the
        /// series' first (`YomoVdir.due`): a pending occurrence moved on is
        /// written out, though the version stays.
        public var due: Int64? = nil

        public init(file: String, uid: String, id: String, size: Int, mtime: Int64, inode: UInt64, hash: String, fingerprint: String, sequence: Int,
                    version: String = "", due: Instant? = nil) {
            (self.file, self.uid, self.id, self.size, self.mtime, self.inode) = (file, uid, id, size, mtime, inode)
            (self.hash, self.fingerprint, self.sequence, self.version, self.due) = (hash, fingerprint, sequence, version, due?.ms)
        }

        public var record: JSONObject {
            var o: JSONObject = ["f": .string(file), "u": .string(uid), "id": .string(id), "s": JSON(size), "m": .int(mtime),
                                 "i": .int(Int64(bitPattern: inode)), "h": .string(hash), "c": .string(fingerprint), "q": JSON(sequence),
                                 "v": .string(version)]
            if retired { o["r"] = true }
            if let d = due { o["d"] = .int(d) }
            return o
        }

        public init?(_ o: JSONObject) {
            guard let f = o["f"]?.string, let u = o["u"]?.string, let id = o["id"]?.string, let s = o["s"]?.int, let m = o["m"]?.int,
                  let i = o["i"]?.int, let h = o["h"]?.string, let c = o["c"]?.string else { return nil }
            self.init(file: f, uid: u, id: id, size: Int(s), mtime: m, inode: UInt64(bitPattern: i), hash: h, fingerprint: c,
                      sequence: Int(o["q"]?.int ?? 0), version: o["v"]?.string ?? "")
            retired = o["r"]?.bool == true
            due = o["d"]?.int
        }
    }

    /// What one changed or removed file does to its reminder.
    public struct Inbound {
        public var events: [JSONObject] = []
        /// A change on both sides: the line for stderr and the record for stdout.
        public var conflict: (message: String, record: JSONObject)? = nil
        /// The file no longer says what the reminder is: yomo writes it again.
        public var rewrite = false
        /// Why a notification shown for it no longer stands: completed, snoozed, deleted.
        public var dismiss: String? = nil
    }

    /// The item yomo's own file for `r` reads back as.
    static func expected(_ r: Reminder, zone z: Zone, now: Instant) -> YomoInterchange.Item? {
        let bytes = render(r, zone: z, now: now, sequence: 0, old: nil) { zone, year in
            ICS.vtimezone(name: zone.name, zone: zone, years: (year - 1)...max(year - 1, min(zone.day(of: now).year + 10, 2100)))
        }
        guard case .success(let f) = read(bytes, name: "", fallback: z) else { return nil }
        return f.item
    }

    /// The occurrence of `r`'s schedule an item of a client is due at, when
    /// the item is `r`'s series (its rule gives `r`'s next occurrences from
    /// there, whether read from yomo's X-YOMO-RECURRENCE or from RRULE
    /// alone): how a client that moves a recurring task on writes it
    /// (Tasks.org and Apple's Reminders move DUE in place; todoman copies it
    /// under a new UID). Nil for anything else.
    public static func seriesDue(_ r: Reminder, item: YomoInterchange.Item, zone fallback: Zone) -> Instant? {
        guard r.scheduled, item.recurrence.repeats, !item.recurrence.basedOnCompletion else { return nil }
        let z = r.zone(fallback)
        let iz = ZoneCache.named(item.zone) ?? z
        let o = iz.resolve(item.anchor)
        guard r.recurrence.next(after: Instant(ms: o.ms - 1), anchor: r.anchor, zone: z) == o else { return nil }
        var (a, b) = (o, o)
        for _ in 0..<4 {
            let x = r.recurrence.next(after: a, anchor: r.anchor, zone: z)
            guard x == item.recurrence.next(after: b, anchor: item.anchor, zone: iz) else { return nil }
            guard let n = x else { break }
            (a, b) = (n, n)
        }
        return o
    }

    /// Whether a new file is a client's copy of `r` that goes on with the
    /// series after it completed one occurrence (todoman's `done`): the same
    /// title, not completed, due at an occurrence of `r`'s schedule.
    public static func continues(_ r: Reminder, item: YomoInterchange.Item, zone fallback: Zone) -> Bool {
        !r.completed && !item.completed && item.title == r.title && seriesDue(r, item: item, zone: fallback) != nil
    }

    /// Whether a new file is a copy of `r` a client made and completed on
    /// the way (todoman's `done` on its own copy): completed, the same
    /// title, due at an occurrence of `r`'s schedule (its rule dropped).
    public static func completedCopy(_ r: Reminder, item: YomoInterchange.Item, zone fallback: Zone) -> Bool {
        guard item.completed, item.title == r.title, r.scheduled else { return false }
        let z = r.zone(fallback)
        let o = (ZoneCache.named(item.zone) ?? z).resolve(item.anchor)
        return r.recurrence.next(after: Instant(ms: o.ms - 1), anchor: r.anchor, zone: z) == o
    }

    /// The event by which `r` takes a client's copy as its file: the
    /// reminder as it is, from now on under the copy's UID.
    public static func adoptEvent(_ r: Reminder, uid: String, sequence: Int, zone fallback: Zone, at: String, by: String) -> JSONObject {
        let z = r.zone(fallback)
        let f = ReminderForm(title: r.title, notes: r.notes, anchor: r.anchor, recurrence: r.recurrence, assumptions: [],
                             alerts: r.alerts, nagMinutes: r.nagMinutes, list: r.list)
        var e = Yomo.createdEvent(r.id, f, trigger: r.triggerAt, zone: z, type: "edited", at: at)
        e["keeps_time"] = true
        e["source"] = .string("ical:" + uid)
        e["sequence"] = JSON(sequence)
        e["by"] = .string(by)
        return e
    }

    /// Whether two items promise the same reminder (status aside).
    static func same(_ a: YomoInterchange.Item, _ b: YomoInterchange.Item) -> Bool {
        a.title == b.title && a.notes == b.notes && a.anchor == b.anchor && a.recurrence == b.recurrence && a.zone == b.zone
            && a.alerts == b.alerts && a.nagMinutes == b.nagMinutes && a.list == b.list
    }

    /// A short account of an item or a reminder, for a conflict's record.
    static func summary(title: String, due: String, status: String) -> JSON {
        .object(["title": .string(title), "due": .string(due), "status": .string(status)])
    }

    /// The reminder's fingerprint the changed file started from: the one
    /// its X-YOMO-VERSION names (the state yomo had when it last read or
    /// wrote that version, if it is the one the index knows), else the
    /// index's.
    public static func base(_ f: FileRead, seen: Seen?) -> String? {
        guard let v = f.version, !v.isEmpty else { return seen?.fingerprint }
        if let s = seen, s.version == v { return s.fingerprint }
        return v
    }

    /// `r`'s file changed to `f` (written at `fileTime` if it carries no
    /// LAST-MODIFIED); `seenFingerprint` is the reminder's fingerprint the
    /// change started from (`base`; nil: never seen).
    public static func inbound(_ r: Reminder, read f: FileRead, file: String, seenFingerprint: String?, fileTime: Instant,
                               now: Instant, zone fallback: Zone, by: String) -> Inbound {
        let z = r.zone(fallback)
        var out = Inbound()
        let changedHere = seenFingerprint.map { !$0.isEmpty && $0 != fingerprint(r, zone: z) } ?? false
        let theirs = f.lastModified ?? fileTime
        let newer = theirs > r.updatedAt
        let apply = (changedHere || seenFingerprint == nil) ? newer : true
        var cur = r
        func record(_ e: JSONObject) {
            var e = e
            e["by"] = .string(by)
            out.events.append(e)
            if let n = YomoState.folding(cur, e, by: by) { cur = n }
        }
        let at = z.format(now)
        if let item = f.item, apply {
            let exp = expected(r, zone: z, now: now)
            // The occurrence of the series the file is due at: as yomo writes it
            // (from X-YOMO-ANCHOR), or moved on by a client that keeps RRULE alone.
            var due = f.due
            var asSeries = item
            var sameSeries = false
            if due == nil, let e = exp, let o = seriesDue(r, item: item, zone: fallback) {
                (due, sameSeries) = (o, true)
                (asSeries.anchor, asSeries.recurrence, asSeries.zone) = (e.anchor, e.recurrence, e.zone)
            }
            let moved = exp.map { !same($0, asSeries) } ?? true
            if moved || (r.completed && !item.completed) {
                var item = item
                if sameSeries { (item.anchor, item.recurrence, item.zone) = (r.anchor, r.recurrence, z.name) }  // the series keeps its start
                let iz = ZoneCache.named(item.zone) ?? z
                let trigger = Yomo.firstTrigger(anchor: item.anchor, recurrence: item.recurrence, now: now, zone: iz) ?? iz.resolve(item.anchor)
                let form = ReminderForm(title: item.title, notes: item.notes, anchor: item.anchor, recurrence: item.recurrence, assumptions: [],
                                        alerts: item.alerts, nagMinutes: item.nagMinutes, list: item.list)
                var e = Yomo.createdEvent(r.id, form, trigger: trigger, zone: iz, type: "edited", at: at)
                if r.completed && !item.completed { e["reopen"] = true }
                record(e)
                // What the reminder became (a DUE off the rule moves it to the rule's next occurrence) is written back.
                if let after = expected(cur, zone: z, now: now), !same(after, item) { out.rewrite = true }
            } else if let o = due, !item.completed, !cur.completed, o > cur.triggerAt {
                // Moved on in place to a later occurrence (Tasks.org, Apple): the ones before it are done.
                record(Yomo.completedEvent(cur, next: o, zone: z, at: at))
                out.dismiss = "completed"
            }
        } else if f.item == nil, f.cancelled, apply {
            record(["type": "deleted", "id": .string(r.id), "at": .string(at)])
            out.dismiss = "deleted"
            return out
        }
        // Done on the other side: the reminder, or one occurrence of it.
        if let item = f.item, item.completed, !cur.completed {
            // An occurrence of the series before the pending one was done already (here too, or
            // by a client that completed an older copy): not a second completion.
            let done = f.due ?? seriesDue(cur, item: item, zone: fallback)
            if done.map({ $0 >= cur.triggerAt }) ?? true {
                record(Yomo.completedEvent(cur, next: Yomo.nextAfterDone(cur, now: now, zone: fallback), zone: z, at: at))
                out.dismiss = "completed"
            }
            if !cur.completed { out.rewrite = true }  // a recurring one goes on
        }
        if cur.recurrence.repeats && !cur.recurrence.basedOnCompletion {
            for occ in f.completedOccurrences where !cur.completed && occ >= cur.triggerAt {
                if occ <= now || occ == cur.triggerAt {
                    let next = cur.recurrence.next(after: occ, anchor: cur.anchor, zone: z)
                    record(Yomo.completedEvent(cur, next: next, zone: z, at: at))
                    out.dismiss = "completed"
                } else if let e = try? Yomo.occurrenceEvent(cur, when: z.local(occ).description, date: nil, time: nil, cancel: true,
                                                              now: now, zone: fallback, at: at) {
                    record(e)
                }
            }
        }
        // Occurrences done where the writer's pending one had moved past them.
        if apply, let p = f.pending, cur.recurrence.repeats, !cur.completed, p > cur.triggerAt {
            record(Yomo.completedEvent(cur, next: p, zone: z, at: at))
            out.dismiss = "completed"
        }
        if apply, let s = f.snooze, s > now, !cur.completed, s != cur.snoozedUntil,
           let e = Yomo.snoozeEvent(cur, until: s, zone: fallback, at: now) {
            record(e)
            out.dismiss = out.dismiss ?? "snoozed"
        }
        if changedHere || (seenFingerprint == nil && !newer && f.item.map { i in expected(r, zone: z, now: now).map { !same($0, i) } ?? true } == true) {
            let kept = apply ? "vdir" : "yomo"
            if !apply { out.rewrite = true }
            if changedHere {
                let lost = apply ? summary(title: r.title, due: z.format(r.triggerAt), status: r.status)
                                 : summary(title: f.item?.title ?? "", due: f.item.map { (ZoneCache.named($0.zone) ?? z).format((ZoneCache.named($0.zone) ?? z).resolve($0.anchor)) } ?? "",
                                           status: (f.item?.completed ?? false) ? "completed" : "active")
                let rec: JSONObject = ["type": "conflict", "tool": "yomo", "id": .string(r.id), "file": .string(file), "kept": .string(kept),
                                       "yomo_updated_at": .string(z.format(r.updatedAt)), "vdir_last_modified": .string(z.format(theirs)), "lost": lost]
                let message = "vdir: '\(r.title)' (\(r.id)) was changed here and in \(file); the newer change (\(kept == "vdir" ? "the vdir's" : "yomo's")) stands"
                    + ", the other is in the conflict record"
                out.conflict = (message, rec)
            }
        }
        return out
    }

    /// `r`'s file is gone from the vdir: deleted there, unless yomo changed
    /// the reminder since (a conflict: it stays, and its file is written again).
    public static func removed(_ r: Reminder, file: String, seenFingerprint: String, now: Instant, zone fallback: Zone, by: String) -> Inbound {
        let z = r.zone(fallback)
        var out = Inbound()
        if !seenFingerprint.isEmpty && seenFingerprint != fingerprint(r, zone: z) {
            out.rewrite = true
            let rec: JSONObject = ["type": "conflict", "tool": "yomo", "id": .string(r.id), "file": .string(file), "kept": "yomo",
                                   "yomo_updated_at": .string(z.format(r.updatedAt)), "vdir_last_modified": .null,
                                   "lost": summary(title: r.title, due: "", status: "deleted")]
            out.conflict = ("vdir: '\(r.title)' (\(r.id)) was changed here and deleted in the vdir; it stays, and is written there again", rec)
            return out
        }
        out.events = [["type": "deleted", "id": .string(r.id), "at": .string(z.format(now)), "by": .string(by)]]
        out.dismiss = "deleted"
        return out
    }
}
