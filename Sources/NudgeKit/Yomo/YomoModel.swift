// yomo's reminders as a fold over the journal, and the pure decisions:
// building a reminder from the form, completing, snoozing, what is due.
//
// Events (each with "id" and "at"):
//   created / edited  {"title","notes","anchor":"YYYY-MM-DDTHH:MM:SS","recurrence":{…},"trigger_at"}
//   snoozed           {"until"}                      the pending occurrence, which has come, put off
//   announced         {"trigger_at","snooze":bool,"wake"}   an occurrence (or a snooze) was notified;
//                     wake: the next occurrence, when `due` may speak again
//   completed         {"next":"…"|null}              null: a one-time reminder is done
//   deleted
//   erase             {"all":true}                   yomo purge: every earlier event, on every device
//
// Snooze acts on the occurrence that has come due (announced or not): it
// is put off to `until`, announced then once, and the occurrence itself
// stays announced — so it is never announced again, and never counted as
// missed when the next one comes. A reminder that has not come due yet
// cannot be snoozed (the command says so and changes nothing).

public struct Reminder: Equatable, Sendable {
    public var id: String
    public var title: String
    public var notes: String
    /// The first occurrence's local date and time; recurrences count from it.
    public var anchor: LocalDateTime
    public var recurrence: Recurrence
    /// The pending occurrence.
    public var triggerAt: Instant
    /// Whether the pending occurrence was already notified.
    public var announced: Bool
    public var snoozedUntil: Instant?
    /// Whether the snooze was already notified.
    public var snoozeAnnounced = false
    public var completed: Bool
    public var createdAt: Instant
    public var updatedAt: Instant
    public var completedAt: Instant?
    /// The earliest moment `due` could announce it again (nil: not by itself).
    public var wake: Instant?

    /// When it next wants attention: the snooze if any, else the trigger.
    public var effectiveTrigger: Instant { snoozedUntil ?? triggerAt }
    public var status: String { completed ? "completed" : "active" }

    /// The seed's reminder document, snake_case.
    public func record(zone: Zone) -> JSONObject {
        ["type": "reminder", "id": .string(id), "title": .string(title), "notes": .string(notes),
         "trigger_at": .string(zone.format(triggerAt)), "recurrence": recurrence.json, "status": .string(status),
         "snoozed_until": JSON(snoozedUntil.map(zone.format)), "created_at": .string(zone.format(createdAt)),
         "updated_at": .string(zone.format(updatedAt)), "completed_at": JSON(completedAt.map(zone.format))]
    }
}

public struct YomoState: JournalModel {
    public static let schemaVersion = 1
    public private(set) var reminders: [String: Reminder] = [:]
    /// In a lazy read: snapshot lines not parsed yet (nil once parsed or gone).
    public private(set) var raw: [RawReminder?] = []
    /// Index of `raw` by id, built only when an event needs one.
    var rawIndex: [String: Int]? = nil
    /// The zones the raw records were rendered in.
    public private(set) var rawZones: Set<String> = []
    var lastZone: [UInt8] = []

    /// The snapshot bytes that `raw` lines point into.
    public private(set) var rawStorage: FileBytes? = nil

    /// A snapshot line kept as bytes: enough to sort and print it. Offsets
    /// into `rawStorage`, so that keeping ten thousand costs no reference counting.
    public struct RawReminder: Sendable {
        public var effective: Int64
        public var completed: Bool
        public var line: Range<Int>
        public var idRange: Range<Int>
        /// The rendered reminder record inside the line.
        public var record: Range<Int>
    }

    public func bytes(_ r: Range<Int>) -> Bytes { Bytes(rawStorage!, r) }
    public func rawID(_ r: RawReminder) -> String { String(decoding: bytes(r.idRange), as: UTF8.self) }

    mutating func rawPosition(_ id: String) -> Int? {
        if raw.isEmpty { return nil }
        if rawIndex == nil {
            var ix: [String: Int] = [:]
            for (k, r) in raw.enumerated() { if let r = r { ix[rawID(r)] = k } }
            rawIndex = ix
        }
        return rawIndex![id]
    }

    public init(full: Bool) {}

    static func instant(_ j: JSON?) -> Instant? { j?.string.flatMap { RFC3339.parse($0)?.instant } }
    static func anchor(_ j: JSON?) -> LocalDateTime? { j?.string.flatMap { RFC3339.parse($0, allowLocal: true)?.local } }

    public static func erases(_ tombstone: JSONObject, _ event: JSONObject) -> Bool {
        tombstone["all"]?.bool == true
    }

    public mutating func apply(_ e: JSONObject) {
        if e["type"]?.string == "erase" {
            if e["all"]?.bool == true {
                reminders = [:]
                raw = []
                rawIndex = nil
            }
            return
        }
        guard let type = e["type"]?.string, let id = e["id"]?.string else { return }
        if !raw.isEmpty, rawPosition(id) != nil { materialize(id) }
        let at = YomoState.instant(e["at"]) ?? Instant(ms: 0)
        switch type {
        case "created", "edited":
            guard let title = e["title"]?.string, let anchor = YomoState.anchor(e["anchor"]),
                  let trigger = YomoState.instant(e["trigger_at"]) else { return }
            let rec = Recurrence.from(type: e["recurrence"]?.object?["type"]?.string, rule: e["recurrence"]?.object) ?? .once
            var r = reminders[id] ?? Reminder(id: id, title: title, notes: "", anchor: anchor, recurrence: rec, triggerAt: trigger,
                                              announced: false, snoozedUntil: nil, completed: false, createdAt: at, updatedAt: at,
                                              completedAt: nil, wake: trigger)
            if type == "edited" && reminders[id] == nil { return }
            r.title = title
            r.notes = e["notes"]?.string ?? ""
            r.anchor = anchor
            r.recurrence = rec
            r.triggerAt = trigger
            r.announced = false
            r.snoozedUntil = nil
            r.snoozeAnnounced = false
            r.updatedAt = at
            r.wake = trigger
            reminders[id] = r
        case "snoozed":
            guard var r = reminders[id], let until = YomoState.instant(e["until"]) else { return }
            r.snoozedUntil = until
            r.snoozeAnnounced = false
            r.wake = YomoState.instant(e["wake"]) ?? until
            if e["v"] == nil { r.announced = false }  // written before snoozes kept the occurrence's state
            r.updatedAt = at
            reminders[id] = r
        case "announced":
            guard var r = reminders[id], let trigger = YomoState.instant(e["trigger_at"]) else { return }
            if e["snooze"]?.bool == true {
                r.snoozeAnnounced = true
            } else {
                r.snoozedUntil = nil
                r.snoozeAnnounced = false
            }
            r.triggerAt = trigger
            r.announced = true
            r.wake = YomoState.instant(e["wake"])
            reminders[id] = r
        case "completed":
            guard var r = reminders[id] else { return }
            if let next = YomoState.instant(e["next"]) {
                r.triggerAt = next
                r.announced = false
                r.snoozedUntil = nil
                r.snoozeAnnounced = false
                r.wake = next
            } else {
                r.completed = true
                r.completedAt = at
                r.wake = nil
            }
            r.updatedAt = at
            reminders[id] = r
        case "deleted":
            reminders[id] = nil
        default:
            break
        }
    }

    /// How many of the earliest wake times the summary line keeps.
    public static let summarySize = 64

    public func hotSnapshot() -> [JSONObject] {
        let soonest = reminders.values.compactMap { r in r.completed ? nil : r.wake.map { ($0, r.id) } }
            .sorted { $0 < $1 }.prefix(YomoState.summarySize)
        let summary: JSONObject = ["k": "summary", "wake": .array(soonest.map { .array([.int($0.0.ms), .string($0.1)]) })]
        // Each reminder line carries its record as `list` prints it, so a lazy
        // read can print it without parsing: {"e":…,"c":…,"id":…,"z":…,"x":{…},"r":{record}}
        let zone = (try? Zone.fromEnvironment()) ?? .utc
        return [summary] + reminders.values.sorted { $0.id < $1.id }.map { r in
            var x: JSONObject = ["anchor": .string(r.anchor.description), "announced": .bool(r.announced)]
            if r.snoozeAnnounced { x["snooze_announced"] = true }
            if let w = r.wake { x["wake"] = .string(w.description) }
            return ["e": .int(r.effectiveTrigger.ms), "c": .bool(r.completed), "id": .string(r.id), "z": .string(zone.name),
                    "x": .object(x), "r": .object(r.record(zone: zone))]
        }
    }

    public mutating func restoreHot(_ line: JSONObject) throws(ToolError) {
        if line["k"] != nil { return }  // the summary
        guard let id = line["id"]?.string, let x = line["x"]?.object, let l = line["r"]?.object,
              let title = l["title"]?.string, let anchor = YomoState.anchor(x["anchor"]),
              let trigger = YomoState.instant(l["trigger_at"]), let created = YomoState.instant(l["created_at"]) else {
            throw ToolError(.dataError, "bad snapshot line")
        }
        let rec = Recurrence.from(type: l["recurrence"]?.object?["type"]?.string, rule: l["recurrence"]?.object) ?? .once
        let completedAt = YomoState.instant(l["completed_at"])
        reminders[id] = Reminder(id: id, title: title, notes: l["notes"]?.string ?? "", anchor: anchor, recurrence: rec,
                                 triggerAt: trigger, announced: x["announced"]?.bool ?? false,
                                 snoozedUntil: YomoState.instant(l["snoozed_until"]), completed: l["status"]?.string == "completed",
                                 createdAt: created, updatedAt: YomoState.instant(l["updated_at"]) ?? created, completedAt: completedAt,
                                 wake: YomoState.instant(x["wake"]))
        reminders[id]?.snoozeAnnounced = x["snooze_announced"]?.bool ?? false
    }

    /// Keeps a reminder line unparsed: reads its sort key, state, zone and the
    /// bounds of its record from the fixed layout written by hotSnapshot.
    public mutating func restoreHotRaw(_ line: Bytes) -> Bool {
        if rawStorage == nil { rawStorage = line.storage } else if rawStorage !== line.storage { return false }
        if line.starts(with: YomoState.summaryPrefix) { return true }  // list does not need the summary
        let parsed: (Int64, Bool, Range<Int>, Range<Int>, Int)? = line.withUnsafeBytes { b in YomoState.scanLine(b) }
        guard let (e, completed, idRange, zoneRange, recordStart) = parsed else { return false }
        let base = line.startIndex
        let zone = line[(base + zoneRange.lowerBound)..<(base + zoneRange.upperBound)]
        let same = zone.count == lastZone.count && zone.withUnsafeBytes { z in
            lastZone.withUnsafeBytes { l in memcmp(z.baseAddress!, l.baseAddress!, l.count) == 0 }
        }
        if !same {
            lastZone = Array(zone)
            rawZones.insert(String(decoding: zone, as: UTF8.self))
        }
        raw.append(RawReminder(effective: e, completed: completed, line: line.startIndex..<line.endIndex,
                               idRange: (base + idRange.lowerBound)..<(base + idRange.upperBound),
                               record: (base + recordStart)..<(line.endIndex - 1)))
        return true
    }

    static let summaryPrefix = Array("{\"k\":".utf8)
    static let recordMarker = Array(",\"r\":{\"type\":\"reminder\"".utf8)

    /// {"e":123,"c":false,"id":"…","z":"…",…,"r":{"type":"reminder",…}}
    static func scanLine(_ b: UnsafeRawBufferPointer) -> (Int64, Bool, Range<Int>, Range<Int>, Int)? {
        let n = b.count
        var i = 0
        @inline(__always) func expect(_ lit: StaticString) -> Bool {
            let len = lit.utf8CodeUnitCount
            guard i + len <= n, memcmp(b.baseAddress! + i, lit.utf8Start, len) == 0 else { return false }
            i += len
            return true
        }
        @inline(__always) func plainString() -> Range<Int>? {
            guard let q = memchr(b.baseAddress! + i, 0x22, n - i) else { return nil }
            let end = b.baseAddress!.distance(to: UnsafeRawPointer(q))
            defer { i = end + 1 }
            return i..<end
        }
        guard expect("{\"e\":") else { return nil }
        var e: Int64 = 0
        var digits = 0
        while i < n, b[i] >= 48, b[i] <= 57 { e = e * 10 + Int64(b[i] - 48); i += 1; digits += 1 }
        guard digits > 0, expect(",\"c\":") else { return nil }
        let completed: Bool
        if expect("true") { completed = true } else if expect("false") { completed = false } else { return nil }
        guard expect(",\"id\":\""), let id = plainString(), expect(",\"z\":\""), let zone = plainString() else { return nil }
        guard n > 0, b[n - 1] == UInt8(ascii: "}") else { return nil }
        let found: Int? = recordMarker.withUnsafeBytes { m in
            var k = i
            while k + m.count <= n, let p = memchr(b.baseAddress! + k, Int32(m[0]), n - k - m.count + 1) {
                let at = b.baseAddress!.distance(to: UnsafeRawPointer(p))
                if memcmp(p, m.baseAddress!, m.count) == 0 { return at }
                k = at + 1
            }
            return nil
        }
        guard let hit = found else { return nil }
        return (e, completed, id, zone, hit + 5)
    }

    /// Parses a raw line into a reminder.
    public mutating func materialize(_ id: String) {
        guard let k = rawPosition(id), let r = raw[k] else { return }
        raw[k] = nil
        rawIndex?[id] = nil
        guard let o = try? bytes(r.line).withUnsafeBytes({ (b) throws(JSONParseError) in try JSON.parse(b) }).object else { return }
        try? restoreHot(o)
    }

    public mutating func materializeAll() {
        for k in raw.indices {
            guard let r = raw[k], let o = try? bytes(r.line).withUnsafeBytes({ (b) throws(JSONParseError) in try JSON.parse(b) }).object else { continue }
            try? restoreHot(o)
        }
        raw = []
        rawIndex = nil
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
    public static func nextAfterDone(_ r: Reminder, now: Instant, zone: Zone) -> Instant? {
        guard r.recurrence.repeats else { return nil }
        if r.recurrence.basedOnCompletion { return r.recurrence.nextAfterCompletion(now, zone: zone) }
        return r.recurrence.next(after: max(r.triggerAt, now), anchor: r.anchor, zone: zone)
    }

    public struct Announcement: Equatable, Sendable {
        public var reminder: Reminder
        /// The occurrence (or snooze time) being announced.
        public var occurrence: Instant
        /// The pending trigger after this announcement.
        public var trigger: Instant
        public var snooze: Bool
        /// Occurrences that came and went unannounced (the machine was off).
        public var missed: Int
    }

    /// What `due` announces at `now`: each reminder at most once per
    /// occurrence. A scheduled recurrence moves on to its latest occurrence
    /// that has come; the ones it skips are counted as missed, not repeated.
    public static func due(_ s: YomoState, now: Instant, zone: Zone) -> [Announcement] {
        var out: [Announcement] = []
        for r in s.reminders.values where !r.completed && (r.triggerAt <= now || r.effectiveTrigger <= now) {
            var latest = r.triggerAt
            var steps = 0
            if r.recurrence.repeats && !r.recurrence.basedOnCompletion {
                while steps < 1_000_000, let n = r.recurrence.next(after: latest, anchor: r.anchor, zone: zone), n <= now {
                    latest = n
                    steps += 1
                }
            }
            if steps > 0 {
                // A later occurrence has come: it supersedes a snooze. Missed are
                // the ones skipped, and the pending one only if nobody saw it.
                out.append(Announcement(reminder: r, occurrence: latest, trigger: latest, snooze: false,
                                        missed: steps - 1 + (r.announced || r.snoozedUntil != nil ? 0 : 1)))
            } else if let until = r.snoozedUntil {
                if until <= now && !r.snoozeAnnounced {
                    out.append(Announcement(reminder: r, occurrence: until, trigger: r.triggerAt, snooze: true, missed: 0))
                }
            } else if r.triggerAt <= now && !r.announced {
                out.append(Announcement(reminder: r, occurrence: r.triggerAt, trigger: r.triggerAt, snooze: false, missed: 0))
            }
        }
        return out.sorted { ($0.occurrence, $0.reminder.id) < ($1.occurrence, $1.reminder.id) }
    }

    /// The journal event that records an announcement, with the moment the
    /// reminder may next be due on its own.
    public static func event(for a: Announcement, zone: Zone, at: Instant) -> JSONObject {
        let r = a.reminder.recurrence
        let wake = r.repeats && !r.basedOnCompletion ? r.next(after: a.trigger, anchor: a.reminder.anchor, zone: zone) : nil
        return ["type": "announced", "id": .string(a.reminder.id), "trigger_at": .string(zone.format(a.trigger)),
                "occurrence": .string(zone.format(a.occurrence)), "snooze": .bool(a.snooze),
                "wake": JSON(wake.map(zone.format)), "at": .string(zone.format(at))]
    }

    /// The event for snoozing until `until`. Its wake is the snooze, or the
    /// next scheduled occurrence if that comes first.
    public static func snoozeEvent(_ r: Reminder, until: Instant, zone: Zone, at: Instant) -> JSONObject {
        var wake = until
        if r.recurrence.repeats && !r.recurrence.basedOnCompletion,
           let n = r.recurrence.next(after: r.triggerAt, anchor: r.anchor, zone: zone), n < wake { wake = n }
        return ["type": "snoozed", "id": .string(r.id), "until": .string(zone.format(until)), "wake": .string(zone.format(wake)),
                "at": .string(zone.format(at)), "v": 2]
    }

    /// Whether anything may be due at `now`, from the snapshot's summary (the
    /// earliest wake times) and the events written since. False means surely
    /// nothing: `due` can stop without reading every reminder.
    public static func mayBeDue(summary: JSONObject?, tail: [JSONObject], now: Instant) -> Bool {
        guard let s = summary, s["k"]?.string == "summary", let list = s["wake"]?.array else { return true }
        var touched: [String: Instant?] = [:]
        for e in tail {
            guard let id = e["id"]?.string else { continue }
            switch e["type"]?.string {
            case "created", "edited": touched[id] = .some(YomoState.instant(e["trigger_at"]))
            case "snoozed": touched[id] = .some(YomoState.instant(e["wake"]) ?? YomoState.instant(e["until"]))
            case "completed": touched[id] = .some(YomoState.instant(e["next"]))
            case "announced": touched[id] = .some(YomoState.instant(e["wake"]))
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
    /// for snoozing and completing.
    public static func notification(_ a: Announcement, zone: Zone, commandPrefix: String) -> JSONObject {
        let r = a.reminder
        let when = zone.local(a.occurrence)
        var body = a.snooze ? "Snoozed until \(when.time)" : "Due \(when.day) \(when.time)"
        if r.recurrence.repeats { body += " · \(r.recurrence.summary)" }
        if a.missed > 0 { body += " · \(a.missed) earlier missed" }
        if !r.notes.isEmpty { body += "\n" + r.notes }
        var actions: [NotificationAction] = []
        for m in [5, 15, 60] {
            actions.append(NotificationAction(id: "snooze\(m)", label: "Snooze \(m) min", command: "\(commandPrefix) snooze \(r.id) \(m)"))
        }
        actions.append(NotificationAction(id: "complete", label: "Complete", command: "\(commandPrefix) done \(r.id)"))
        let n = NotificationRecord(tool: "yomo", id: r.id, title: r.title, body: body, actions: actions,
                                   extra: ["occurrence": .string(zone.format(a.occurrence)), "snooze": .bool(a.snooze),
                                           "missed": JSON(a.missed),
                                           // Any 1-60: a notifier fills {minutes} in.
                                           "snooze_command": .string("\(commandPrefix) snooze \(r.id) {minutes}")])
        return n.record
    }
}
