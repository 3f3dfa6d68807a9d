// yomo's snapshot lines: a summary (the earliest wake times, the devices
// that announce, who was forgotten and last seen), then one line per
// reminder carrying its record exactly as `list` prints it. A lazy read
// keeps those lines as bytes (`raw`) and parses one only when an event or a
// command needs the reminder, so `list` on a large store parses next to
// nothing.
//
// Invariants: restoring the lines gives the state that folding the events
// they summarise gives. A reminder line starts with a fixed layout,
// {"e":…,"c":…,"id":"…","z":"…",…,"r":{…}}, that `scanLine` reads without a
// JSON parser; a line that does not fit it is parsed in full instead. "z"
// names the reader's zone the record was rendered in ("" when the reminder
// has its own), so a reader in another zone parses the records again.

extension YomoState {
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

    /// How many of the earliest wake times the summary line keeps.
    public static let summarySize = 64

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
        // In list's order (nearest first, then id), so that `list` finds them
        // sorted and its sort is one pass.
        return [summary] + reminders.values.sorted { ($0.effectiveTrigger.ms, $0.id) < ($1.effectiveTrigger.ms, $1.id) }.map { r in
            var x: JSONObject = ["anchor": .string(r.anchor.description)]
            if !r.announcedBy.isEmpty { x["ann"] = times(r.announcedBy) }
            if !r.snoozeAnnouncedBy.isEmpty { x["sann"] = times(r.snoozeAnnouncedBy) }
            if let s = r.snoozeOf { x["snooze_of"] = .int(s.ms) }
            if let h = r.handled { x["handled"] = .int(h.ms) }
            if let z = r.zoneName { x["zone"] = .string(z) }
            if !r.warnedBy.isEmpty { x["wann"] = times(r.warnedBy) }
            if r.revision != r.createdAt { x["rev"] = .int(r.revision.ms) }
            if !r.lastBy.isEmpty { x["by"] = .string(r.lastBy) }
            if let src = r.source { x["src"] = .string(src); x["seq"] = JSON(r.sequence) }
            // z: the reader's zone the record was rendered in; "" when it has its own.
            // n: the record's length in bytes, so that a lazy read finds it
            // at the line's end without searching.
            let record = r.record(zone: zone)
            var written: [UInt8] = []
            record.write(into: &written)
            return ["e": .int(r.effectiveTrigger.ms), "c": .bool(r.completed), "id": .string(r.id), "z": .string(r.zoneName == nil ? zone.name : ""),
                    "n": .int(Int64(written.count)), "x": .object(x), "r": .object(record)]
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
        r.source = x["src"]?.string
        r.sequence = Int(x["seq"]?.int ?? 0)
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

    /// {"e":123,"c":false,"id":"…","z":"…","n":LENGTH,…,"r":{"type":"reminder",…}}
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
        guard expect(",\"n\":") else { return nil }
        var length = 0
        digits = 0
        while i < n, b[i] >= 48, b[i] <= 57, digits < 10 { length = length * 10 + Int(b[i] - 48); i += 1; digits += 1 }
        // The record ends the line: …,"r":{"type":"reminder",…}}
        let start = n - 1 - length
        guard digits > 0, n > 0, b[n - 1] == UInt8(ascii: "}"), start - 5 >= i else { return nil }
        let fits: Bool = recordMarker.withUnsafeBytes { m in
            start + m.count - 5 <= n - 1 && memcmp(b.baseAddress! + start - 5, m.baseAddress!, m.count) == 0
        }
        guard fits else { return nil }
        return (e, completed, id, zone, start)
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
}
