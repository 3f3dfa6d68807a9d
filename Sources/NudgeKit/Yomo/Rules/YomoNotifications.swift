// The records yomo prints for a person's notifier: the notification for an
// announcement (with the exact commands that snooze or complete it), and the
// dismiss record `watch` prints when a notification it showed no longer
// stands because the reminder was completed, snoozed, changed or deleted on
// any device. Pure: announcements and the folded state in, records out.

extension Yomo {
    /// The notification record for an announcement, with the exact commands
    /// for snoozing and completing, and a template for any 1–60 minutes.
    public static func notification(_ a: Announcement, zone fallback: Zone, commandPrefix: String) -> JSONObject {
        let r = a.reminder
        let zone = r.zone(fallback)
        let when = zone.local(a.occurrence)
        var body = a.snooze ? "Snoozed until \(when.time)" : "Due \(when.day) \(when.time)"
        if a.warning { body = "Coming up at \(when.time) (\(when.day))" }
        if a.nag {
            let due = zone.local(a.trigger)
            body = "Still not done: due \(due.day) \(due.time)"
        }
        if r.recurrence.repeats { body += " · \(r.recurrence.summary)" }
        if a.missed > 0 { body += " · \(a.missed) earlier missed" }
        if !r.notes.isEmpty { body += "\n" + r.notes }
        var actions: [NotificationAction] = []
        for m in [5, 15, 60] where !a.warning {
            actions.append(NotificationAction(id: "snooze\(m)", label: "Snooze \(m) min", command: "\(commandPrefix) snooze \(r.id) \(m)"))
        }
        actions.append(NotificationAction(id: "complete", label: "Complete", command: "\(commandPrefix) done \(r.id)"))
        var extra: JSONObject = ["occurrence": .string(zone.format(a.occurrence)), "snooze": .bool(a.snooze), "missed": JSON(a.missed)]
        if a.nag {
            extra["nag"] = true
            extra["dismiss_command"] = .string("\(commandPrefix) dismiss \(r.id)")
            actions.append(NotificationAction(id: "dismiss", label: "Stop reminding", command: "\(commandPrefix) dismiss \(r.id)"))
        }
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
    /// "completed", "snoozed", "dismissed", "changed" or "deleted".
    public static func dismissal(_ n: Shown, in s: YomoState) -> String? {
        guard let r = s.reminders[n.id] else { return "deleted" }
        if r.completed { return "completed" }
        if r.revision != n.revision { return "changed" }
        if let d = r.dismissedOf, d >= r.triggerAt, n.occurrence >= r.triggerAt, !n.snooze || d >= n.occurrence { return "dismissed" }
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
