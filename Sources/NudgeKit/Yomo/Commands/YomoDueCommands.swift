// yomo's commands for cron and notifiers: `due` (one pass) and `watch` (a
// long run). Handlers only: which occurrences to announce, the events that
// record them, the notification records and the dismissals are rules
// (YomoDue.swift, YomoNotifications.swift).
//
// A pass commits its announcements before it prints them, so a run that
// dies in between loses a notification rather than repeating one; running
// `due` twice, or late, announces each occurrence once per device.

extension Yomo {
    /// The command prefix for notification actions: the same data directory.
    static func commandPrefix(_ ctx: Context) -> String {
        if let d = ctx.option("data-dir") { return "yomo --data-dir " + ToolSpec.shQuote(d) }
        return "yomo"
    }

    /// One pass of `due`: announce, commit, print. Returns the announcements.
    @discardableResult
    static func announce(_ ctx: Context, now: Instant) throws(ToolError) -> [Announcement] {
        try refreshVdir(ctx, now: now)
        let st = try store(ctx)
        // Most runs find nothing due: decide that from the snapshot's summary
        // and the journal tail, then from a full read, before taking the lock.
        let device = st.options.actor
        // When the summary could not say, nothing was due after all, and a
        // summary made now would differ, the snapshot is written anew, so
        // that the next run can.
        // (A peer's late batch answers the same way when all it holds late is
        // the making of reminders nothing folded had named.)
        let head = try st.readHead(lateTail: true, fields: Yomo.dueSummaryFields)
        if let h = head, !mayBeDue(summary: h.hot.first, tail: h.tail, writers: h.writers, late: h.late, now: now,
                                           zone: ctx.zone.name, device: device) { return [] }
        let state = try st.read(refresh: { s in
            // Only when a new summary would say more (not when another device's
            // pending occurrence is what it names: a new one would name it too).
            guard let h = head, Yomo.due(s, now: now, zone: ctx.zone, device: device).isEmpty else { return false }
            return s.summaryLine() != h.hot.first
        })
        if Yomo.due(state, now: now, zone: ctx.zone, device: device).isEmpty { return [] }
        let list = try st.write(at: now, zone: ctx.zone) { (tx) throws(ToolError) -> [Announcement] in
            let found = Yomo.due(tx.state, now: now, zone: ctx.zone, device: device)
            for a in found { tx.record(event(for: a, zone: a.reminder.zone(ctx.zone), at: now, device: device)) }
            return found
        }
        let prefix = commandPrefix(ctx)
        for a in list {
            let n = notification(a, zone: ctx.zone, commandPrefix: prefix)
            ctx.out.emit(n, text: "\(a.reminder.zone(ctx.zone).local(a.occurrence).time)  \(a.reminder.title.terminalSafe)  (\(a.reminder.id.prefix(6).terminalSafe))")
        }
        return list
    }

    static func dueCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        try announce(ctx, now: ctx.now)
        return .ok
    }

    /// `watch`: announces at the exact moment something comes due, wakes
    /// when a journal changes (inotify on Linux; a one-second timer
    /// elsewhere), and prints a `dismiss` record when a notification it
    /// printed no longer stands: completed, snoozed, changed or deleted, on
    /// any device.
    static func watch(_ ctx: Context) throws(ToolError) -> ExitCode {
        // The clock keeps ticking from --now when pinned.
        let start = Sys.monotonicNanos()
        func now() -> Instant { Instant(ms: ctx.now.ms + Int64((Sys.monotonicNanos() - start) / 1_000_000)) }
        let st = try store(ctx)
        let device = st.options.actor
        var shown: [String: Shown] = [:]
        var fw: FolderWatch? = nil
        while true {
            if fw == nil && Sys.isDirectory(st.journalDir) {
                let vdir = (try? configuredVdir(ctx)) ?? nil
                fw = FolderWatch(folders: [st.journalDir, st.dir] + (vdir.map { [$0] } ?? []))
            }
            let t = now()
            for a in try announce(ctx, now: t) { shown[a.reminder.id] = Shown(a) }
            let s = try st.read()
            for (id, n) in shown.sorted(by: { $0.key < $1.key }) {
                guard let why = dismissal(n, in: s) else { continue }
                let by = s.reminders[id]?.lastBy ?? ""
                let zone = s.reminders[id]?.zone(ctx.zone) ?? ctx.zone
                ctx.out.emit(dismissRecord(n, reason: why, by: by, zone: zone), text: "dismiss \(id.prefix(6)) (\(why))")
                shown[id] = nil
            }
            ctx.out.flush()
            let after = now()
            let next = s.active.compactMap { nextAttention($0, device: device, zone: ctx.zone) }.filter { $0 > t }.min()
            var wait = next.map { Int(max(0, $0.ms - after.ms)) } ?? 3_600_000
            wait = min(wait, 3_600_000)
            if let w = fw { w.wait(millis: wait) } else { Sys.sleepMillis(min(wait, 1000)) }
        }
    }
}
