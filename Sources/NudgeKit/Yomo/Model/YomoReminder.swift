// A reminder as the fold keeps it: what it says, its rule and zone, its
// pending occurrence, and per device what was announced. A plain value: the
// fold (YomoEvents.swift) is the only thing that changes one in a state.
//
// Where state lives: the pending occurrence, snoozes and completions are
// shared by every device; "announced" is kept per device (the actor of the
// journal that says so), so each device notifies each occurrence at most
// once, and none after another device dismissed it (done or snooze).

public struct Reminder: Equatable, Sendable {
    public var id: String
    public var title: String
    public var notes: String
    /// The first occurrence's local date and time; recurrences count from it.
    public var anchor: LocalDateTime
    public var recurrence: Recurrence
    /// The zone its wall times are in (where it was made, or `--tz`); nil
    /// for reminders made before zones were stored: the reader's zone.
    public var zoneName: String?
    /// The pending occurrence: the earliest one not completed (for a
    /// scheduled rule, moved on to the latest one announced or snoozed).
    public var triggerAt: Instant
    /// Per device: the latest occurrence it announced.
    public var announcedBy: [String: Instant]
    /// Per device: the snooze (its `snoozedUntil`) it announced.
    public var snoozeAnnouncedBy: [String: Instant]
    public var snoozedUntil: Instant?
    /// The occurrence the snooze puts off.
    public var snoozeOf: Instant?
    /// The latest occurrence someone saw: announced anywhere or snoozed.
    /// Occurrences after it that were passed over count as missed.
    public var handled: Instant?
    public var completed: Bool
    public var createdAt: Instant
    public var updatedAt: Instant
    public var completedAt: Instant?
    /// The device that made the last change (done, snooze, edit).
    public var lastBy: String
    /// Also announce this many minutes before each occurrence, largest
    /// first ([1440, 15]: a day before and a quarter of an hour before).
    public var alerts: [Int] = []
    /// Per device: the latest advance alert it gave, as the moment it was
    /// for (the occurrence less the alert's lead; an occurrence itself for
    /// a device that wrote before alerts were several: all of its alerts).
    public var warnedBy: [String: Instant] = [:]
    /// Announce the pending occurrence again every this many minutes until
    /// it is done, snoozed or dismissed (0: once).
    public var nagMinutes: Int = 0
    /// The latest nag any device gave (a moment on the nag's grid), so that
    /// the devices together nag at most once an interval.
    public var naggedAt: Instant? = nil
    /// The occurrence (or snooze end) someone dismissed: no more nags of it.
    public var dismissedOf: Instant? = nil
    /// When it was last made, edited or moved: a notification shown for an
    /// earlier revision no longer stands.
    public var revision: Instant
    /// Where an imported reminder came from ("ical:UID", "taskwarrior:UUID"),
    /// so that importing it again changes nothing, and its version there
    /// (iCalendar's SEQUENCE): a higher one updates it.
    public var source: String? = nil
    public var sequence: Int = 0
    /// The list it belongs to ("groceries"), if any.
    public var list: String? = nil
    /// When an occurrence, or the reminder, was last done.
    public var lastDoneAt: Instant? = nil
    /// Its last changes, newest last (at most `historyLimit`).
    public var history: [Change] = []

    /// A change in its history: what (the event's type), when, by which
    /// device (or "vdir:NAME"), and for a done or moved occurrence which.
    public struct Change: Equatable, Sendable {
        public var type: String
        public var at: Instant
        public var by: String
        public var occurrence: Instant?
    }

    public static let historyLimit = 8

    mutating func note(_ c: Change) {
        if c.type == "completed" { lastDoneAt = c.at }
        history.append(c)
        if history.count > Reminder.historyLimit { history.removeFirst(history.count - Reminder.historyLimit) }
    }

    public init(id: String, title: String, notes: String = "", anchor: LocalDateTime, recurrence: Recurrence, zoneName: String? = nil,
                triggerAt: Instant, createdAt: Instant) {
        self.id = id
        self.title = title
        self.notes = notes
        self.anchor = anchor
        self.recurrence = recurrence
        self.zoneName = zoneName
        self.triggerAt = triggerAt
        announcedBy = [:]
        snoozeAnnouncedBy = [:]
        snoozedUntil = nil
        snoozeOf = nil
        handled = nil
        completed = false
        self.createdAt = createdAt
        updatedAt = createdAt
        completedAt = nil
        lastBy = ""
        revision = createdAt
    }

    /// The earliest advance alert's lead in minutes (0: none).
    public var warnMinutes: Int { alerts.first ?? 0 }

    /// Alert leads as an event or a record states them: "alerts" (a list
    /// of minutes) or, as written before there could be several,
    /// "warn_minutes"; each 1 minute to 7 days, largest first, at most 5.
    public static func alerts(_ o: JSONObject) -> [Int] {
        let listed = o["alerts"]?.array.map { $0.compactMap { $0.int } } ?? (o["warn_minutes"]?.int).map { [$0] } ?? []
        return Array(Set(listed.filter { (1...10080).contains($0) }.map { Int($0) })).sorted(by: >).prefix(5).map { $0 }
    }

    /// A nag interval as stated: 1 minute to 1 day, else none.
    public static func nag(_ o: JSONObject) -> Int {
        guard let n = o["nag_minutes"]?.int, (1...1440).contains(n) else { return 0 }
        return Int(n)
    }

    /// When it next wants attention: the snooze if any, else the trigger.
    public var effectiveTrigger: Instant { snoozedUntil ?? triggerAt }
    public var status: String { completed ? "completed" : "active" }

    /// Its own zone, or `fallback` (the reader's) when it has none or the
    /// zone cannot be loaded here.
    public func zone(_ fallback: Zone) -> Zone {
        guard let n = zoneName, n != fallback.name else { return fallback }
        return ZoneCache.named(n) ?? fallback
    }

    /// A rule whose occurrences follow the calendar (not one-time, not "from completion").
    public var scheduled: Bool { recurrence.repeats && !recurrence.basedOnCompletion }

    /// The reminder record `list` and the other commands print, snake_case.
    public func record(zone fallback: Zone) -> JSONObject {
        let zone = self.zone(fallback)
        var o: JSONObject = ["type": "reminder", "id": .string(id), "title": .string(title), "notes": .string(notes),
                             "trigger_at": .string(zone.format(triggerAt)), "recurrence": recurrence.json, "status": .string(status),
                             "snoozed_until": JSON(snoozedUntil.map(zone.format)), "created_at": .string(zone.format(createdAt)),
                             "updated_at": .string(zone.format(updatedAt)), "completed_at": JSON(completedAt.map(zone.format)),
                             "tz": .string(zone.name)]
        if let w = alerts.first { o["warn_minutes"] = JSON(w); o["alerts"] = .array(alerts.map { .int(Int64($0)) }) }
        if nagMinutes > 0 { o["nag_minutes"] = JSON(nagMinutes) }
        if let d = lastDoneAt, !completed { o["last_done_at"] = .string(zone.format(d)) }
        if let l = list { o["list"] = .string(l) }
        return o
    }

    /// A changed reminder is a new promise: what any device announced,
    /// warned or snoozed of it is forgotten, so every device may announce it
    /// again; the change is `by`'s at `at`.
    mutating func changed(at: Instant, by: String) {
        announcedBy = [:]
        snoozeAnnouncedBy = [:]
        warnedBy = [:]
        naggedAt = nil
        dismissedOf = nil
        snoozedUntil = nil
        snoozeOf = nil
        handled = nil
        updatedAt = at
        revision = at
        lastBy = by
    }
}
