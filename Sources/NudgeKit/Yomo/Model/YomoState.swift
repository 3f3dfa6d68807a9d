// yomo's reminders as a fold over the journal.
//
// Events (each with "id" and "at"); the batch's stamp names the device
// (its journal's actor), which is how announcements stay per device:
//   created / edited  {"title","notes","anchor":"YYYY-MM-DDTHH:MM:SS","recurrence":{…},"trigger_at","zone"}
//   snoozed           {"until","occurrence"}   the occurrence that had come due, put off until `until`
//   announced         {"trigger_at","occurrence","snooze":bool,"wake"}  this device notified an
//                     occurrence (or a snooze of one); wake: when it may speak again
//   completed         {"next":"…"|null}              null: a one-time reminder is done
//   rezoned           {"zone","trigger_at"}           the reminder moves to another time zone
//   deleted
//   forget            {"device"}                      `devices forget`: off the list, history kept
//   erase             {"all":true}                    `purge`: everything stamped before it, everywhere
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
    /// Announce this many minutes before each occurrence too (0: not).
    public var warnMinutes: Int = 0
    /// Per device: the latest occurrence it warned of ahead.
    public var warnedBy: [String: Instant] = [:]
    /// When it was last made, edited or moved: a notification shown for an
    /// earlier revision no longer stands.
    public var revision: Instant

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

    /// When it next wants attention: the snooze if any, else the trigger.
    public var effectiveTrigger: Instant { snoozedUntil ?? triggerAt }
    public var status: String { completed ? "completed" : "active" }

    /// Its own zone, or `fallback` (the reader's) when it has none or the
    /// zone cannot be loaded here.
    public func zone(_ fallback: Zone) -> Zone {
        guard let n = zoneName, n != fallback.name else { return fallback }
        return ZoneCache.named(n) ?? fallback
    }

    /// The seed's reminder document, snake_case.
    public func record(zone fallback: Zone) -> JSONObject {
        let zone = self.zone(fallback)
        var o: JSONObject = ["type": "reminder", "id": .string(id), "title": .string(title), "notes": .string(notes),
                             "trigger_at": .string(zone.format(triggerAt)), "recurrence": recurrence.json, "status": .string(status),
                             "snoozed_until": JSON(snoozedUntil.map(zone.format)), "created_at": .string(zone.format(createdAt)),
                             "updated_at": .string(zone.format(updatedAt)), "completed_at": JSON(completedAt.map(zone.format)),
                             "tz": .string(zone.name)]
        if warnMinutes > 0 { o["warn_minutes"] = JSON(warnMinutes) }
        return o
    }
}

/// Zones by name, loaded once per process.
enum ZoneCache {
    static let cache = Locked([String: Zone?]())
    static func named(_ n: String) -> Zone? {
        if let z = cache.withLock({ $0[n] }) { return z }
        let z = try? Zone.named(n)
        cache.withLock { $0[n] = .some(z) }
        return z
    }
}

public struct YomoState: JournalModel {
    /// 2: announcements per device, snoozes of an occurrence, zones. A
    /// snapshot of schema 1 is not read: the state is folded again from the
    /// journals, whose events of schema 1 read as they are.
    public static let schemaVersion = 2
    public private(set) var reminders: [String: Reminder] = [:]
    /// Devices taken off the list by `devices forget`, with when.
    public private(set) var forgotten: [String: Stamp] = [:]
    /// Every device's latest batch folded: a forgotten device that writes
    /// again is back.
    public private(set) var lastSeen: [String: Stamp] = [:]
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

    public mutating func apply(_ e: JSONObject) { apply(e, stamp: Stamp(ms: 0, actor: "")) }

    public static func erases(_ tombstone: JSONObject, _ event: JSONObject) -> Bool {
        if tombstone["all"]?.bool == true { return true }
        if let id = tombstone["id"]?.string { return event["id"]?.string == id }
        return false
    }

    public mutating func apply(_ e: JSONObject, stamp: Stamp) {
        guard let type = e["type"]?.string else { return }
        let by = stamp.actor
        if !by.isEmpty, lastSeen[by].map({ $0 < stamp }) ?? true { lastSeen[by] = stamp }
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
        let at = YomoState.instant(e["at"]) ?? Instant(ms: 0)
        switch type {
        case "created", "edited":
            guard let title = e["title"]?.string, let anchor = YomoState.anchor(e["anchor"]),
                  let trigger = YomoState.instant(e["trigger_at"]) else { return }
            let rec = Recurrence.from(type: e["recurrence"]?.object?["type"]?.string, rule: e["recurrence"]?.object) ?? .once
            if type == "edited" && reminders[id] == nil { return }
            var r = reminders[id] ?? Reminder(id: id, title: title, anchor: anchor, recurrence: rec, triggerAt: trigger, createdAt: at)
            r.title = title
            r.notes = e["notes"]?.string ?? ""
            r.anchor = anchor
            r.recurrence = rec
            if let z = e["zone"]?.string { r.zoneName = z }
            r.triggerAt = trigger
            // A changed reminder is a new promise: every device may announce it.
            r.announcedBy = [:]
            r.snoozeAnnouncedBy = [:]
            r.snoozedUntil = nil
            r.snoozeOf = nil
            r.handled = nil
            if type == "edited" && e["reopen"]?.bool == true { r.completed = false; r.completedAt = nil }
            r.warnMinutes = e["warn_minutes"]?.int.map { Int($0) } ?? 0
            r.warnedBy = [:]
            r.updatedAt = at
            r.revision = at
            r.lastBy = by
            reminders[id] = r
        case "rezoned":
            guard var r = reminders[id], let z = e["zone"]?.string else { return }
            r.zoneName = z
            if let t = YomoState.instant(e["trigger_at"]), !r.completed { r.triggerAt = t }
            if let a = YomoState.anchor(e["anchor"]) { r.anchor = a }
            r.announcedBy = [:]
            r.snoozeAnnouncedBy = [:]
            r.warnedBy = [:]
            r.snoozedUntil = nil
            r.snoozeOf = nil
            r.handled = nil
            r.updatedAt = at
            r.revision = at
            r.lastBy = by
            reminders[id] = r
        case "snoozed":
            guard var r = reminders[id], !r.completed, let until = YomoState.instant(e["until"]) else { return }
            let occ = YomoState.instant(e["occurrence"]) ?? r.triggerAt
            // A snooze of an occurrence already completed or passed over is stale.
            guard occ >= r.triggerAt else { return }
            r.triggerAt = occ
            r.snoozedUntil = until
            r.snoozeOf = occ
            r.snoozeAnnouncedBy = [:]
            r.handled = max(r.handled ?? occ, occ)
            r.updatedAt = at
            r.lastBy = by
            reminders[id] = r
        case "announced":
            guard var r = reminders[id], !r.completed, let occ = YomoState.instant(e["occurrence"]) ?? YomoState.instant(e["trigger_at"]) else { return }
            if e["snooze"]?.bool == true {
                guard r.snoozedUntil == occ else { return }
                r.snoozeAnnouncedBy[by] = occ
            } else if e["warning"]?.bool == true {
                guard occ >= r.triggerAt else { return }
                r.warnedBy[by] = max(r.warnedBy[by] ?? occ, occ)
            } else {
                guard occ >= r.triggerAt else { return }  // completed meanwhile
                r.announcedBy[by] = max(r.announcedBy[by] ?? occ, occ)
                r.triggerAt = occ
                r.handled = max(r.handled ?? occ, occ)
                if let so = r.snoozeOf, so < occ {  // a newer occurrence replaces the snooze
                    r.snoozedUntil = nil
                    r.snoozeOf = nil
                    r.snoozeAnnouncedBy = [:]
                }
            }
            reminders[id] = r
        case "completed":
            guard var r = reminders[id], !r.completed else { return }
            if let next = YomoState.instant(e["next"]) {
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
            reminders[id] = r
        case "deleted":
            reminders[id] = nil
        default:
            break
        }
    }

    /// How many of the earliest wake times the summary line keeps.
    public static let summarySize = 64

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

    public func hotSnapshot() -> [JSONObject] {
        let zone = (try? Zone.fromEnvironment()) ?? .utc
        let actors = announcers
        let soonest = reminders.values.compactMap { r in r.completed ? nil : Yomo.wake(r, devices: actors, zone: zone).map { ($0, r.id) } }
            .sorted { $0 < $1 }.prefix(YomoState.summarySize)
        let forgot = JSONObject(parsedKeys: forgotten.keys.sorted(), values: forgotten.keys.sorted().map { k in
            .array([.int(forgotten[k]!.ms), .int(forgotten[k]!.counter), .string(forgotten[k]!.actor)])
        })
        let seen = JSONObject(parsedKeys: lastSeen.keys.sorted(), values: lastSeen.keys.sorted().map { k in
            .array([.int(lastSeen[k]!.ms), .int(lastSeen[k]!.counter), .string(lastSeen[k]!.actor)])
        })
        let summary: JSONObject = ["k": "summary", "wake": .array(soonest.map { .array([.int($0.0.ms), .string($0.1)]) }),
                                   "devices": JSON(actors.sorted()), "forgotten": .object(forgot), "seen": .object(seen)]
        // Each reminder line carries its record as `list` prints it, so a lazy
        // read can print it without parsing: {"e":…,"c":…,"id":…,"z":…,"x":{…},"r":{record}}
        func times(_ d: [String: Instant]) -> JSON {
            .object(JSONObject(parsedKeys: d.keys.sorted(), values: d.keys.sorted().map { .int(d[$0]!.ms) }))
        }
        return [summary] + reminders.values.sorted { $0.id < $1.id }.map { r in
            var x: JSONObject = ["anchor": .string(r.anchor.description)]
            if !r.announcedBy.isEmpty { x["ann"] = times(r.announcedBy) }
            if !r.snoozeAnnouncedBy.isEmpty { x["sann"] = times(r.snoozeAnnouncedBy) }
            if let s = r.snoozeOf { x["snooze_of"] = .int(s.ms) }
            if let h = r.handled { x["handled"] = .int(h.ms) }
            if let z = r.zoneName { x["zone"] = .string(z) }
            if !r.warnedBy.isEmpty { x["wann"] = times(r.warnedBy) }
            if r.revision != r.createdAt { x["rev"] = .int(r.revision.ms) }
            if !r.lastBy.isEmpty { x["by"] = .string(r.lastBy) }
            // z: the reader's zone the record was rendered in; "" when it has its own.
            return ["e": .int(r.effectiveTrigger.ms), "c": .bool(r.completed), "id": .string(r.id), "z": .string(r.zoneName == nil ? zone.name : ""),
                    "x": .object(x), "r": .object(r.record(zone: zone))]
        }
    }

    public mutating func restoreHot(_ line: JSONObject) throws(ToolError) {
        if line["k"] != nil {  // the summary
            func stamp(_ j: JSON) -> Stamp? {
                guard let a = j.array, a.count == 3, let ms = a[0].int, let c = a[1].int, let act = a[2].string else { return nil }
                return Stamp(ms: ms, counter: c, actor: act)
            }
            for f in line["forgotten"]?.object?.fields ?? [] { if let s = stamp(f.value) { forgotten[f.key] = s } }
            for f in line["seen"]?.object?.fields ?? [] { if let s = stamp(f.value) { lastSeen[f.key] = s } }
            return
        }
        guard let id = line["id"]?.string, let x = line["x"]?.object, let l = line["r"]?.object,
              let title = l["title"]?.string, let anchor = YomoState.anchor(x["anchor"]),
              let trigger = YomoState.instant(l["trigger_at"]), let created = YomoState.instant(l["created_at"]) else {
            throw ToolError(.dataError, "bad snapshot line")
        }
        func times(_ j: JSON?) -> [String: Instant] {
            var d: [String: Instant] = [:]
            for f in j?.object?.fields ?? [] { if let ms = f.value.int { d[f.key] = Instant(ms: ms) } }
            return d
        }
        let rec = Recurrence.from(type: l["recurrence"]?.object?["type"]?.string, rule: l["recurrence"]?.object) ?? .once
        var r = Reminder(id: id, title: title, notes: l["notes"]?.string ?? "", anchor: anchor, recurrence: rec,
                         zoneName: x["zone"]?.string, triggerAt: trigger, createdAt: created)
        r.announcedBy = times(x["ann"])
        r.snoozeAnnouncedBy = times(x["sann"])
        r.snoozedUntil = YomoState.instant(l["snoozed_until"])
        r.snoozeOf = x["snooze_of"]?.int.map(Instant.init(ms:))
        r.handled = x["handled"]?.int.map(Instant.init(ms:))
        r.completed = l["status"]?.string == "completed"
        r.updatedAt = YomoState.instant(l["updated_at"]) ?? created
        r.completedAt = YomoState.instant(l["completed_at"])
        r.lastBy = x["by"]?.string ?? ""
        r.warnMinutes = l["warn_minutes"]?.int.map { Int($0) } ?? 0
        r.warnedBy = times(x["wann"])
        r.revision = x["rev"]?.int.map(Instant.init(ms:)) ?? created
        reminders[id] = r
    }

    /// Keeps a reminder line unparsed: reads its sort key, state, zone and the
    /// bounds of its record from the fixed layout written by hotSnapshot.
    public mutating func restoreHotRaw(_ line: Bytes) -> Bool {
        if rawStorage == nil { rawStorage = line.storage } else if rawStorage !== line.storage { return false }
        if line.starts(with: YomoState.summaryPrefix) {
            // The summary: only its list of forgotten devices matters here.
            guard let o = try? line.withUnsafeBytes({ (b) throws(JSONParseError) in try JSON.parseObject(b) }) else { return false }
            try? restoreHot(o)
            return true
        }
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

