// Events where there are many of them: a day's draw journalled by
// `generate`, a day's queue read from the snapshot's lines and printed by
// `queue` and `generate`. Each event is read from its line's bytes (or its
// object's fields by position) and written as bytes, without building or
// searching a JSON object on the way in or out.
//
// Invariants: each fast form gives exactly what the general one gives —
// `scan` and `fromFields` the event `Event.from(_:trusted: true)` reads,
// `write(into:)` the bytes of `json`, `savedLine` those of the draw's
// `event_saved` object, `writeEventRecord` those of `eventRecord` — and the
// readers take only the layout `Event.json` writes (fields in that order,
// compact); any other layout is nil, and the caller takes the general path.
// Strings are decoded by the JSON parser itself, so escapes and UTF-8 are
// checked as ever.

/// Appends a literal's bytes.
private func put(_ s: StaticString, _ out: inout [UInt8]) {
    out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
}

private func putOptional(_ s: String?, _ out: inout [UInt8]) {
    if let s { JSON.appendString(s, into: &out) } else { put("null", &out) }
}

extension Playa.Event {
    static let fieldNames = ["type", "id", "recipient_id", "date", "time", "at", "message_id", "message", "status", "notification", "error"]
    static let optionalFieldNames = ["claim", "claim_until", "failures", "retry_at"]

    /// `from(o, trusted: true)` for an object whose fields are `json`'s, in
    /// its order, read by position; nil for any other layout.
    static func fromFields(_ o: JSONObject) -> Playa.Event? {
        let k = o.keys
        let v = o.values
        guard k.count >= fieldNames.count, k.count <= fieldNames.count + optionalFieldNames.count else { return nil }
        for i in fieldNames.indices where k[i] != fieldNames[i] { return nil }
        // The optional fields, each at most once and in their order.
        var optional: [JSON?] = [nil, nil, nil, nil]
        var j = 0
        for i in fieldNames.count..<k.count {
            while j < optionalFieldNames.count && optionalFieldNames[j] != k[i] { j += 1 }
            guard j < optionalFieldNames.count else { return nil }
            optional[j] = v[i]
            j += 1
        }
        guard let id = v[1].string, let rid = v[2].string, let date = v[3].string.flatMap(Day.parse),
              let time = v[4].string.flatMap(TimeOfDay.parse), let at = v[5].string.flatMap({ RFC3339.parse($0)?.instant }),
              let message = v[7].string, let status = v[8].string.flatMap(Playa.Status.init(rawValue:)) else { return nil }
        var ev = Playa.Event(id: id, recipientID: rid, date: date, time: time, at: at, messageID: v[6].string, message: message,
                             status: status, notification: v[9].string.flatMap(Playa.notificationState) ?? .pending, error: v[10].string,
                             claim: optional[0]?.string, claimUntil: optional[1]?.string.flatMap { RFC3339.parse($0)?.instant })
        ev.handover.failures = Int(optional[2]?.int ?? 0)
        ev.handover.retryAt = optional[3]?.string.flatMap { RFC3339.parse($0)?.instant }
        return ev
    }

    /// `json`'s bytes, written straight into `out`.
    func write(into out: inout [UInt8]) {
        put("{\"type\":\"event\",\"id\":", &out); JSON.appendString(id, into: &out)
        put(",\"recipient_id\":", &out); JSON.appendString(recipientID, into: &out)
        put(",\"date\":\"", &out); date.append(into: &out)
        put("\",\"time\":\"", &out); time.append(into: &out)
        put("\"", &out)
        put(",\"at\":\"", &out); RFC3339.append(at, offsetSeconds: 0, into: &out)
        put("\"", &out)
        put(",\"message_id\":", &out); putOptional(messageID, &out)
        put(",\"message\":", &out); JSON.appendString(message, into: &out)
        put(",\"status\":", &out); JSON.appendString(status.rawValue, into: &out)
        put(",\"notification\":", &out); JSON.appendString(Playa.word(notification), into: &out)
        put(",\"error\":", &out); putOptional(error, &out)
        if let c = handover.claim { put(",\"claim\":", &out); JSON.appendString(c, into: &out) }
        if let u = handover.claimUntil { put(",\"claim_until\":", &out); JSON.appendString(u.description, into: &out) }
        if handover.failures > 0 { put(",\"failures\":", &out); JSON.appendInt(Int64(handover.failures), into: &out) }
        if let r = handover.retryAt { put(",\"retry_at\":", &out); JSON.appendString(r.description, into: &out) }
        put("}", &out)
    }

    /// The event in bytes laid out as `json` writes it (`{"type":"event",
    /// "id":…}` with its fields in that order, no spaces), read as
    /// `from(_:trusted: true)` reads it; nil for any other layout.
    static func scan(_ b: UnsafeRawBufferPointer) -> Playa.Event? {
        guard let base = b.baseAddress else { return nil }
        var p = JSONByteParser(b)
        func lit(_ s: StaticString) -> Bool {
            let n = s.utf8CodeUnitCount
            guard p.end - p.i >= n, memcmp(base + p.i, s.utf8Start, n) == 0 else { return false }
            p.i += n
            return true
        }
        func string() -> String? {
            guard p.i < p.end, b[p.i] == UInt8(ascii: "\"") else { return nil }
            return try? p.string()
        }
        // The bytes between a string's quotes, for a date or a time: what
        // their parsers take is digits and a few ASCII signs, which decode
        // to themselves (anything else, escapes included, they refuse).
        func bytes() -> UnsafeRawBufferPointer? {
            guard p.i < p.end, b[p.i] == UInt8(ascii: "\""),
                  let q = memchr(base + p.i + 1, 0x22, p.end - p.i - 1) else { return nil }
            let close = base.distance(to: UnsafeRawPointer(q))
            defer { p.i = close + 1 }
            return UnsafeRawBufferPointer(rebasing: b[(p.i + 1)..<close])
        }
        // A string or null (read as nil, as `from` reads any non-string);
        // the outer nil is another kind of value.
        func stringOrNull() -> String?? {
            if lit("null") { return .some(nil) }
            return string().map { .some($0) }
        }
        guard lit("{\"type\":\"event\",\"id\":"), let id = string(),
              lit(",\"recipient_id\":"), let rid = string(),
              lit(",\"date\":"), let date = bytes().flatMap(Day.parse),
              lit(",\"time\":"), let time = bytes().flatMap(TimeOfDay.parse),
              lit(",\"at\":"), let at = bytes().flatMap({ RFC3339.parse($0)?.instant }),
              lit(",\"message_id\":"), let messageID = stringOrNull(),
              lit(",\"message\":"), let message = string(),
              lit(",\"status\":"), let status = string().flatMap(Playa.Status.init(rawValue:)),
              lit(",\"notification\":"), let notification = string(),
              lit(",\"error\":"), let error = stringOrNull() else { return nil }
        var claim: String? = nil
        var claimUntil: Instant? = nil
        var failures = 0
        var retryAt: Instant? = nil
        if lit(",\"claim\":") {
            guard let c = string() else { return nil }
            claim = c
        }
        if lit(",\"claim_until\":") {
            guard let u = string() else { return nil }
            claimUntil = RFC3339.parse(u)?.instant
        }
        if lit(",\"failures\":") {
            guard let v = try? p.value(depth: 1) else { return nil }
            failures = Int(v.int ?? 0)
        }
        if lit(",\"retry_at\":") {
            guard let r = string() else { return nil }
            retryAt = RFC3339.parse(r)?.instant
        }
        guard lit("}"), p.i == p.end else { return nil }
        var ev = Playa.Event(id: id, recipientID: rid, date: date, time: time, at: at, messageID: messageID, message: message,
                             status: status, notification: Playa.notificationState(notification) ?? .pending, error: error,
                             claim: claim, claimUntil: claimUntil)
        ev.handover.failures = failures
        ev.handover.retryAt = retryAt
        return ev
    }
}

extension PlayaState {
    static let eventLinePrefix = Array("{\"k\":\"event\",\"v\":".utf8)

    /// A hot snapshot line `{"k":"event","v":EVENT}` read by `Event.scan`;
    /// nil for a line of another kind or layout.
    static func scanEventLine(_ b: UnsafeRawBufferPointer) -> Playa.Event? {
        let n = eventLinePrefix.count
        guard b.count > n + 1, b[b.count - 1] == UInt8(ascii: "}"),
              eventLinePrefix.withUnsafeBytes({ memcmp(b.baseAddress!, $0.baseAddress!, n) }) == 0 else { return nil }
        return Playa.Event.scan(UnsafeRawBufferPointer(rebasing: b[n..<(b.count - 1)]))
    }
}

extension Playa {
    /// The bytes of a draw's line for `e`, `saved(e)` with its `batch`.
    static func savedLine(_ e: Event, batch: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(320)
        put("{\"type\":\"event_saved\",\"event\":", &out)
        e.write(into: &out)
        put(",\"batch\":", &out)
        JSON.appendString(batch, into: &out)
        put("}", &out)
        return out
    }

    /// `eventRecord(e, recipient:, now:, zone:)` as bytes, written straight
    /// into `out` (without its newline).
    static func writeEventRecord(_ e: Event, recipient r: Recipient?, now: Instant, zone: Zone, into out: inout [UInt8]) {
        func raw(_ s: StaticString) { put(s, &out) }
        func string(_ s: String) { JSON.appendString(s, into: &out) }
        func stringOrNull(_ s: String?) { putOptional(s, &out) }
        func local(_ t: Instant) {
            out.append(UInt8(ascii: "\""))
            RFC3339.append(t, offsetSeconds: zone.offset(at: t), into: &out)
            out.append(UInt8(ascii: "\""))
        }
        let delivery = e.delivery(at: now)
        raw("{\"type\":\"event\",\"id\":"); string(e.id)
        raw(",\"recipient_id\":"); string(e.recipientID)
        raw(",\"date\":\""); e.date.append(into: &out)
        raw("\",\"time\":\""); e.time.append(into: &out)
        raw("\",\"at\":"); local(e.at)
        raw(",\"message_id\":"); stringOrNull(e.messageID)
        raw(",\"message\":"); string(e.message)
        raw(",\"status\":"); string(e.status.rawValue)
        raw(",\"notification\":"); string(word(delivery))
        raw(",\"error\":")
        stringOrNull(e.handover.state == .sending && delivery == .unknown ? Handover.diedMessage("the notify command") : e.error)
        if let c = e.handover.claim { raw(",\"claim\":"); string(c) }
        if let u = e.handover.claimUntil { raw(",\"claim_until\":"); local(u) }
        if e.handover.failures > 0 { raw(",\"failures\":"); JSON.appendInt(Int64(e.handover.failures), into: &out) }
        if let t = e.handover.retryAt {
            raw(",\"retry_at\":")
            if delivery == .failed { local(t) } else { string(t.description) }
        }
        if let r {
            raw(",\"recipient\":"); string(r.name)
            raw(",\"platform\":"); string(r.platform.rawValue)
        }
        raw(",\"soon\":"); if e.status == .pending && e.at.ms <= now.ms + 30 * 60_000 { raw("true") } else { raw("false") }
        raw(",\"overdue\":"); if e.status == .pending && e.at < now { raw("true") } else { raw("false") }
        raw("}")
    }
}
