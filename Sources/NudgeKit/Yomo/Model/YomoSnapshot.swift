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

    /// The summary line a snapshot written now would open with.
    public func summaryLine() -> JSONObject {
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
                                   "devices": JSON(actors.sorted()), "forgotten": .object(forgot), "seen": .object(seen),
                                   "dangling": danglingMany ? "many" : JSON(dangling.sorted()), "zone": .string(zone.name)]
        return summary
    }

    public func hotSnapshot() -> [JSONObject] {
        let zone = (try? Zone.fromEnvironment()) ?? .utc
        let summary = summaryLine()
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
            if let n = r.naggedAt { x["nagged"] = .int(n.ms) }
            if let d = r.dismissedOf { x["dism"] = .int(d.ms) }
            if r.revision != r.createdAt { x["rev"] = .int(r.revision.ms) }
            if !r.lastBy.isEmpty { x["by"] = .string(r.lastBy) }
            if !r.history.isEmpty {
                x["hist"] = .array(r.history.map { c in
                    .array([.string(c.type), .int(c.at.ms), .string(c.by)] + (c.occurrence.map { [.int($0.ms)] } ?? []))
                })
            }
            if let d = r.lastDoneAt { x["done"] = .int(d.ms) }
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
            switch line["dangling"] {
            case .string("many")?: danglingMany = true; dangling = []
            case .array(let ids)?: for i in ids { if let id = i.string { dangling.insert(id) } }
            default: break
            }
            return
        }
        guard let id = line["id"]?.string, let x = line["x"]?.object, let l = line["r"]?.object,
              let title = l["title"]?.string, let anchor = YomoState.storedAnchor(x["anchor"]),
              let trigger = YomoState.storedInstant(l["trigger_at"]), let created = YomoState.storedInstant(l["created_at"]) else {
            throw ToolError(.dataError, "bad snapshot line")
        }
        func times(_ j: JSON?) -> [String: Instant] {
            var d: [String: Instant] = [:]
            for f in j?.object?.fields ?? [] { if let ms = f.value.int { d[f.key] = Instant(ms: ms) } }
            return d
        }
        let rec = Recurrence.stored(l["recurrence"]?.object) ?? .once
        var r = Reminder(id: id, title: title, notes: l["notes"]?.string ?? "", anchor: anchor, recurrence: rec,
                         zoneName: x["zone"]?.string, triggerAt: trigger, createdAt: created)
        r.announcedBy = times(x["ann"])
        r.snoozeAnnouncedBy = times(x["sann"])
        r.snoozedUntil = YomoState.storedInstant(l["snoozed_until"])
        r.snoozeOf = x["snooze_of"]?.int.map(Instant.init(ms:))
        r.handled = x["handled"]?.int.map(Instant.init(ms:))
        r.completed = l["status"]?.string == "completed"
        r.updatedAt = YomoState.storedInstant(l["updated_at"]) ?? created
        r.completedAt = YomoState.storedInstant(l["completed_at"])
        r.lastBy = x["by"]?.string ?? ""
        r.alerts = Reminder.alerts(l)
        r.nagMinutes = Reminder.nag(l)
        r.warnedBy = times(x["wann"])
        r.naggedAt = x["nagged"]?.int.map(Instant.init(ms:))
        r.dismissedOf = x["dism"]?.int.map(Instant.init(ms:))
        r.revision = x["rev"]?.int.map(Instant.init(ms:)) ?? created
        r.source = x["src"]?.string
        r.sequence = Int(x["seq"]?.int ?? 0)
        r.lastDoneAt = x["done"]?.int.map(Instant.init(ms:))
        r.list = l["list"]?.string
        for h in x["hist"]?.array?.prefix(Reminder.historyLimit) ?? [] {
            guard let a = h.array, a.count >= 3, let t = a[0].string, let ms = a[1].int, let by = a[2].string else { continue }
            r.history.append(Reminder.Change(type: t, at: Instant(ms: ms), by: by, occurrence: a.count > 3 ? a[3].int.map(Instant.init(ms:)) : nil))
        }
        reminders[id] = r
    }

    /// Keeps a reminder line unparsed: reads its sort key, state, zone and the
    /// bounds of its record from the fixed layout written by hotSnapshot.
    public mutating func restoreHotRaw(_ line: Bytes) -> Bool {
        if rawStorage == nil { rawStorage = line.storage } else if rawStorage !== line.storage { return false }
        let parsed: (Int64, Bool, Range<Int>, Range<Int>, Int)? = line.withUnsafeBytes { b in YomoState.scanLine(b) }
        guard let (e, completed, idRange, zoneRange, recordStart) = parsed else {
            // The summary: its forgotten devices, the devices last seen and the dangling names.
            guard line.withUnsafeBytes({ YomoState.starts($0, with: "{\"k\":") }),
                  let o = try? line.withUnsafeBytes({ (b) throws(JSONParseError) in try JSON.parseObject(b) }) else { return false }
            try? restoreHot(o)
            return true
        }
        let base = line.startIndex
        let zone = line[(base + zoneRange.lowerBound)..<(base + zoneRange.upperBound)]
        let same = zone.count == lastZone.count && zone.withUnsafeBytes { z in
            lastZone.withUnsafeBytes { l in memcmp(z.baseAddress!, l.baseAddress!, l.count) == 0 }
        }
        if !same {
            lastZone = Array(zone)
            rawZones.insert(String(decoding: zone, as: UTF8.self))
        }
        // Room for about as many lines as the part read holds, so that ten
        // thousand are not copied over and over as the array grows.
        if raw.isEmpty { raw.reserveCapacity(line.storage.count / max(64, line.count) * 5 / 4 + 16) }
        raw.append(RawReminder(effective: e, completed: completed, line: line.startIndex..<line.endIndex,
                               idRange: (base + idRange.lowerBound)..<(base + idRange.upperBound),
                               record: (base + recordStart)..<(line.endIndex - 1)))
        return true
    }

    @inline(__always) static func starts(_ b: UnsafeRawBufferPointer, at i: Int = 0, with lit: StaticString) -> Bool {
        let len = lit.utf8CodeUnitCount
        guard i >= 0, i + len <= b.count else { return false }
        return memcmp(b.baseAddress! + i, lit.utf8Start, len) == 0
    }

    /// The layout's fixed pieces as little-endian words of at most 8 bytes
    /// (`word` gives them from their text), each compared with one load.
    enum Layout {
        static let e: UInt64 = 0x3A22_6522_7B                 // {"e":     5 bytes
        static let c: UInt64 = 0x3A22_6322_2C                 // ,"c":     5
        static let yes: UInt64 = 0x6575_7274                  // true      4
        static let no: UInt64 = 0x65_736C_6166                // false     5
        static let id: UInt64 = 0x22_3A22_6469_222C           // ,"id":"   7
        static let z: UInt64 = 0x223A_227A_222C               // ,"z":"    6
        static let n: UInt64 = 0x3A22_6E22_2C                 // ,"n":     5
        static let r0: UInt64 = 0x7422_7B3A_2272_222C         // ,"r":{"t  8
        static let r1: UInt64 = 0x6572_223A_2265_7079         // ype":"re  8
        static let r2: UInt64 = 0x22_7265_646E_696D           // minder"   7

        static func word(_ text: String) -> UInt64 {
            var v: UInt64 = 0
            for (k, c) in text.utf8.enumerated() { v |= UInt64(c) << UInt64(8 * k) }
            return v
        }
    }

    /// The 8 bytes at `k` as a little-endian word; 0 past the end.
    @inline(__always) static func word(_ b: UnsafeRawBufferPointer, _ k: Int) -> UInt64 {
        k >= 0 && k + 8 <= b.count ? UInt64(littleEndian: b.loadUnaligned(fromByteOffset: k, as: UInt64.self)) : 0
    }

    /// The digits at `i` (at most 18: no overflow), stepping over them.
    static func digits(_ b: UnsafeRawBufferPointer, _ i: inout Int) -> Int64? {
        let n = b.count, first = i
        var v: Int64 = 0
        while i < n {
            let d = b[i] &- 48
            if d > 9 { break }
            v = v &* 10 &+ Int64(d)
            i &+= 1
        }
        return i > first && i - first <= 18 ? v : nil
    }

    /// The bytes from `i` up to the next quote, stepping over it.
    static func quoted(_ b: UnsafeRawBufferPointer, _ i: inout Int) -> Range<Int>? {
        guard i < b.count, let q = memchr(b.baseAddress! + i, 0x22, b.count - i) else { return nil }
        let end = b.baseAddress!.distance(to: UnsafeRawPointer(q))
        defer { i = end + 1 }
        return i..<end
    }

    /// {"e":123,"c":false,"id":"…","z":"…","n":LENGTH,…,"r":{"type":"reminder",…}}
    static func scanLine(_ b: UnsafeRawBufferPointer) -> (Int64, Bool, Range<Int>, Range<Int>, Int)? {
        let n = b.count
        // Each fixed piece is read as one word and masked to its length.
        let m4: UInt64 = 0xFFFF_FFFF, m5: UInt64 = 0xFF_FFFF_FFFF, m6: UInt64 = 0xFFFF_FFFF_FFFF, m7: UInt64 = 0xFF_FFFF_FFFF_FFFF
        var i = 0
        guard word(b, 0) & m5 == Layout.e else { return nil }
        i = 5
        guard let e = digits(b, &i), word(b, i) & m5 == Layout.c else { return nil }
        i += 5
        let completed: Bool
        if word(b, i) & m4 == Layout.yes {
            completed = true
            i += 4
        } else if word(b, i) & m5 == Layout.no {
            completed = false
            i += 5
        } else {
            return nil
        }
        guard word(b, i) & m7 == Layout.id else { return nil }
        i += 7
        guard let id = quoted(b, &i), word(b, i) & m6 == Layout.z else { return nil }
        i += 6
        guard let zone = quoted(b, &i), word(b, i) & m5 == Layout.n else { return nil }
        i += 5
        guard let length = digits(b, &i), length < Int64(n) else { return nil }
        // The record ends the line: …,"r":{"type":"reminder",…}}
        let start = n - 1 - Int(length)
        guard b[n - 1] == UInt8(ascii: "}"), start - 5 >= i, start + 18 <= n - 1,
              word(b, start - 5) == Layout.r0, word(b, start + 3) == Layout.r1,
              word(b, start + 11) & m7 == Layout.r2 else { return nil }
        return (e, completed, id, zone, start)
    }

    /// The bounds of the records of the active reminders kept raw, in the
    /// order their lines stand, when that is list's order (nearest first,
    /// then id: the order the snapshot writes) and no reminder was parsed;
    /// nil otherwise, and `list` sorts.
    public func rawActiveRecordsInOrder() -> [Range<Int>]? {
        guard reminders.values.allSatisfy(\.completed) else { return nil }
        var out: [Range<Int>] = []
        out.reserveCapacity(raw.count)
        var previous: RawReminder? = nil
        for case let r? in raw where !r.completed {
            if let p = previous, p.effective >= r.effective {
                guard p.effective == r.effective else { return nil }
                // The first eight bytes, read as one big-endian word, are
                // idKey's first half; when they differ they decide.
                let base = rawStorage!.base
                if p.idRange.count >= 8 && r.idRange.count >= 8 {
                    let a = UInt64(bigEndian: base.loadUnaligned(fromByteOffset: p.idRange.lowerBound, as: UInt64.self))
                    let b = UInt64(bigEndian: base.loadUnaligned(fromByteOffset: r.idRange.lowerBound, as: UInt64.self))
                    if a != b {
                        guard a < b else { return nil }
                        out.append(r.record)
                        previous = r
                        continue
                    }
                }
                guard YomoState.idOrder(bytes(p.idRange), rawID(p), bytes(r.idRange), rawID(r)) else { return nil }
            }
            out.append(r.record)
            previous = r
        }
        return out
    }

    /// An id's first 16 bytes as two integers, zero-padded: `list`'s cheap
    /// sort key before the whole id.
    public static func idKey(_ b: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        var hi: UInt64 = 0, lo: UInt64 = 0
        for i in 0..<16 {
            let byte = i < b.count ? UInt64(b[i]) : 0
            if i < 8 { hi = hi << 8 | byte } else { lo = lo << 8 | byte }
        }
        return (hi, lo)
    }

    /// Whether id a sorts strictly before id b in `list`: by `idKey`, then the whole id.
    static func idOrder(_ a: Bytes, _ aID: @autoclosure () -> String, _ b: Bytes, _ bID: @autoclosure () -> String) -> Bool {
        let ka = a.withUnsafeBytes { idKey($0) }, kb = b.withUnsafeBytes { idKey($0) }
        if ka != kb { return ka < kb }
        return aID() < bID()
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
