// yomo's state: the reminders as a fold over every device's journal, and
// the devices it knows. The events and what each does to a reminder are in
// YomoEvents.swift; the snapshot lines, and the lazy read that keeps them
// unparsed, in YomoSnapshot.swift.
//
// Invariants: `apply` is the only way the state changes, and it folds any
// two copies holding the same events to the same state; an event that does
// not fit (unknown id, stale occurrence, missing field) changes nothing. In a
// lazy read a reminder still kept as raw snapshot bytes is parsed before an
// event touches it.

public struct YomoState: JournalModel {
    /// 2: announcements per device, snoozes of an occurrence, zones. 3: an
    /// occurrence announced under another schedule (a concurrent edit or
    /// move to another zone) no longer becomes the pending one. A snapshot
    /// of an older schema is not read: the state is folded again from the
    /// journals, whose older events read as they are.
    public static let schemaVersion = 3
    public internal(set) var reminders: [String: Reminder] = [:]
    /// Devices taken off the list by `devices forget`, with when.
    public internal(set) var forgotten: [String: Stamp] = [:]
    /// Every device's latest batch folded: a forgotten device that writes
    /// again is back.
    public internal(set) var lastSeen: [String: Stamp] = [:]
    /// Reminders named by an event folded while they were unknown here (a
    /// change that arrived before the reminder was made, or after it was
    /// deleted): what a late copy of their making would fold differently.
    /// Up to `danglingLimit`; past it, `danglingMany` stands for them all.
    public internal(set) var dangling: Set<String> = []
    public internal(set) var danglingMany = false
    public static let danglingLimit = 256
    /// In a lazy read: snapshot lines not parsed yet (nil once parsed or gone).
    public internal(set) var raw: [RawReminder?] = []
    /// Index of `raw` by id, built only when an event needs one.
    var rawIndex: [String: Int]? = nil
    /// The zones the raw records were rendered in.
    public internal(set) var rawZones: Set<String> = []
    var lastZone: [UInt8] = []

    /// The snapshot bytes that `raw` lines point into.
    public internal(set) var rawStorage: FileBytes? = nil

    public init(full: Bool) {}

    /// A time or wall time an event states, nil unless plausible (from 2000
    /// to 9999, as the CLI takes them): a peer's reminder due in the year
    /// 1012 would make every `due` walk a thousand years of occurrences.
    static func instant(_ j: JSON?) -> Instant? {
        guard let t = j?.string.flatMap({ RFC3339.parse($0)?.instant }), t >= Clock.earliest, t < Clock.latest else { return nil }
        return t
    }
    /// The same as the snapshot holds them: whatever the fold kept, read back as it is.
    static func storedInstant(_ j: JSON?) -> Instant? { j?.string.flatMap { RFC3339.parse($0)?.instant } }
    static func storedAnchor(_ j: JSON?) -> LocalDateTime? { j?.string.flatMap { RFC3339.parse($0, allowLocal: true)?.local } }
    static func anchor(_ j: JSON?) -> LocalDateTime? {
        guard let l = j?.string.flatMap({ RFC3339.parse($0, allowLocal: true)?.local }), (2000...9999).contains(l.day.year) else { return nil }
        return l
    }

    public mutating func apply(_ e: JSONObject) { apply(e, stamp: Stamp(ms: 0, actor: "")) }

    public static func erases(_ tombstone: JSONObject, _ event: JSONObject) -> Bool {
        if tombstone["all"]?.bool == true { return true }
        if let id = tombstone["id"]?.string { return event["id"]?.string == id }
        return false
    }

    public mutating func apply(_ e: JSONObject, stamp: Stamp) {
        guard let type = e["type"]?.string else { return }
        let device = stamp.actor
        if !device.isEmpty, lastSeen[device].map({ $0 < stamp }) ?? true { lastSeen[device] = stamp }
        // A change another client made (the vdir's) names it in "by"; announcements stay the device's.
        let by = type == "announced" ? device : e["by"]?.string ?? device
        if type == "erase" {
            if e["all"]?.bool == true {
                materializeAll()
                reminders = [:]
                forgotten = [:]
                lastSeen = [:]
            } else if let id = e["id"]?.string {
                materialize(id)
                reminders[id] = nil
            }
            return
        }
        if type == "forget" {
            if let d = e["device"]?.string, forgotten[d].map({ $0 < stamp }) ?? true { forgotten[d] = stamp }
            return
        }
        guard let id = e["id"]?.string else { return }
        if !raw.isEmpty, rawPosition(id) != nil { materialize(id) }
        if type != "created" && reminders[id] == nil && !danglingMany {
            dangling.insert(id)
            if dangling.count > YomoState.danglingLimit { dangling = []; danglingMany = true }
        }
        // When the event says it was written; else (absent, or implausible) its batch's stamp.
        let at = YomoState.instant(e["at"]) ?? Instant(ms: stamp.ms)
        // A change a person made, kept in the reminder's short history (`show`).
        func noted(_ r: Reminder) -> Reminder {
            var r = r
            // The occurrence it concerns: a moved or cancelled one's own, else the pending one after the change.
            let occurrence = type == "occurrence" ? YomoState.anchor(e["occurrence"]).map { r.zone(.utc).resolve($0) } : YomoState.instant(e["trigger_at"])
            r.note(Reminder.Change(type: type, at: at, by: by, occurrence: occurrence))
            return r
        }
        switch type {
        case "created", "edited":
            if let r = YomoState.foldMade(reminders[id], e, id: id, edit: type == "edited", at: at, by: by) {
                // A client's copy taken as its file is no change a person made.
                let adopted = e["keeps_time"]?.bool == true && e["source"] != nil
                reminders[id] = adopted ? r : noted(r)
            }
        case "occurrence":
            if let r = YomoState.foldOccurrence(reminders[id], e, at: at, by: by) { reminders[id] = noted(r) }
        case "rezoned":
            if let r = YomoState.foldRezoned(reminders[id], e, at: at, by: by) { reminders[id] = noted(r) }
        case "snoozed":
            if let r = YomoState.foldSnoozed(reminders[id], e, at: at, by: by) { reminders[id] = noted(r) }
        case "dismissed":
            if let r = YomoState.foldDismissed(reminders[id], e, at: at, by: by, written: Instant(ms: stamp.ms)) { reminders[id] = noted(r) }
        case "announced":
            if let r = YomoState.foldAnnounced(reminders[id], e, by: by, written: Instant(ms: stamp.ms)) { reminders[id] = r }
        case "completed":
            if let r = YomoState.foldCompleted(reminders[id], e, at: at, by: by) {
                var c = Reminder.Change(type: type, at: at, by: by, occurrence: reminders[id]?.triggerAt)
                if r.completed { c.occurrence = nil }
                var n = r
                n.note(c)
                reminders[id] = n
            }
        case "deleted":
            reminders[id] = nil
        default:
            break
        }
    }

    /// The devices that have announced anything: the ones `due` answers for.
    public var announcers: Set<String> {
        var s = Set<String>()
        for r in reminders.values { for k in r.announcedBy.keys { s.insert(k) } }
        return s.filter { !isForgotten($0) }
    }

    /// Forgotten, and silent since.
    public func isForgotten(_ device: String) -> Bool {
        guard let f = forgotten[device] else { return false }
        return lastSeen[device].map { $0 < f } ?? true
    }

    /// `r` after folding `e` as written by `device`; nil if it went.
    static func folding(_ r: Reminder, _ e: JSONObject, by device: String) -> Reminder? {
        var s = YomoState(full: true)
        s.reminders[r.id] = r
        s.apply(e, stamp: Stamp(ms: Int64.max, actor: device))
        return s.reminders[r.id]
    }

    /// A reminder by id or unique id prefix.
    public func find(_ prefix: String) throws(ToolError) -> Reminder {
        if let r = reminders[prefix] { return r }
        let matches = reminders.keys.filter { $0.hasPrefix(prefix) }.sorted()
        if prefix.isEmpty || matches.isEmpty {
            throw ToolError(.dataError, "no reminder with id '\(prefix)'; 'yomo list --all' shows them")
        }
        if matches.count > 1 {
            throw ToolError(.usage, "id '\(prefix)' matches \(matches.count) reminders (\(matches.prefix(4).joined(separator: ", "))); give more of it")
        }
        return reminders[matches[0]]!
    }

    /// Active reminders, nearest trigger first.
    public var active: [Reminder] {
        reminders.values.filter { !$0.completed }.sorted { ($0.effectiveTrigger, $0.id) < ($1.effectiveTrigger, $1.id) }
    }
}
