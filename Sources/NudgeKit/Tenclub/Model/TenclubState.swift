// tenclub's state as a fold over its journal.
//
// Events:
//   {"type":"unlock","id":"…","at":"…","day":"YYYY-MM-DD"}       one unlock (tenclub unlock)
//   {"type":"ingest","day":"YYYY-MM-DD","ms":[…,…]}              new unlocks of one day from ingest,
//                                                                 epoch milliseconds (before: "at": RFC 3339 texts)
//   {"type":"unlock_undone","at":"…","day":"…"}                  tenclub unlock --undo
//   {"type":"buddy_set","number":"+1…","name":…}  {"type":"buddy_removed"}
//   {"type":"consent","number":"+1…","state":"accepted|stopped","keyword":"YES"}
//   {"type":"sms_queued","id","to","body","kind","day"?}
//   {"type":"sms_sending","id","claim","until","body"?}          recorded before the command runs (body: a late alert's words)
//   {"type":"sms_sent"|"sms_failed"|"sms_unknown"|"sms_dropped","id","status"?,"reason"?,"claim"?}
//                                                                 claim: the run's (older events name none)
//   {"type":"inbound","key":"…"}                                  an inbound text already handled
//   {"type":"day_closed","day":"…","unlocks":N}                   rollover
//   {"type":"sms_device","device":"…","moved"?:true}             the device that sends texts (`DeviceRole`):
//                                                                 the first to run sms deliver, or moved there
//
// The day is decided when the event is written, by the TZ in force then, so
// history does not move when the machine travels.
//
// Every counted instant, from `unlock` and `ingest` alike, is in the dedupe
// index (`seen`, sorted per day), so an unlock is counted once whichever way
// it arrives, and instants closer than the debounce window are one unlock.
// Schema 2 (unlock instants in the index) rebuilds older snapshots.
//
// A text is at most once: `sms_sending` is on disk before the sending
// command starts; one that never got its outcome (the run was killed) is
// `unknown` once its claim expires, and is not handed over again unless the
// person asks (`sms deliver --retry-unknown`). The next `deliver` records
// that try's end (`sms_unknown` without a status, naming the dead claim),
// once, so `sms log` has it. Claims and outcomes fold by
// the one rule of Core/Delivery.swift (`Handover`).

public struct TenclubState: JournalModel {
    public static let schemaVersion = 2

    /// Unlocks per local day.
    public private(set) var days: [Day: Int] = [:]
    /// Instants (ms) counted, per day, sorted: the dedupe index. Cold: only
    /// loaded for writers that count unlocks.
    public private(set) var seen: [Day: [Int64]] = [:]
    public let full: Bool

    // The buddy and the outbox (hot), handled inbound texts (cold).
    public private(set) var buddy: Tenclub.Buddy?
    /// Numbers that texted STOP (E.164): nothing is ever sent to them.
    public private(set) var suppressed: Set<String> = []
    /// Queued messages, oldest first.
    public private(set) var outbox: [Tenclub.OutMessage] = []
    public private(set) var alertedDays: Set<Day> = []
    public private(set) var closedThrough: Day?
    /// The device whose `sms deliver` sends (`DeviceRole`).
    public private(set) var sender = DeviceRole()
    public private(set) var inboundSeen: Set<String> = []
    /// What happened to each text handed over or dropped, oldest first. Cold.
    public private(set) var log: [Tenclub.LogEntry] = []

    public init(full: Bool) { self.full = full }

    /// A status bar's read: only this day's count is restored from the
    /// snapshot (the other days' lines are skipped unparsed), so its cost
    /// does not grow with history. Such a state answers `unlocks(on:)` for
    /// that day only, and is never written as a snapshot.
    public var focus: Day? = nil {
        didSet { focusBytes = focus.map { Array($0.description.utf8) } ?? [] }
    }
    var focusBytes: [UInt8] = []

    public func unlocks(on d: Day) -> Int { days[d] ?? 0 }
    /// The first tracked day. A day before 2000 (written before times were
    /// checked) is not one: rollover never walks from the year 1.
    public var firstDay: Day? { days.keys.filter { $0.year >= 2000 }.min() }

    public mutating func apply(_ e: JSONObject, stamp: Stamp) {
        if e["type"]?.string == "sms_device" { sender.apply(e, stampMs: stamp.ms) } else { apply(e) }
    }

    public mutating func apply(_ e: JSONObject) {
        guard let type = e["type"]?.string else { return }
        switch type {
        case "unlock":
            guard let day = e["day"]?.string.flatMap(Day.parse) else { return }
            days[day, default: 0] += 1
            if full, let ms = e["at"]?.string.flatMap({ RFC3339.parse($0)?.instant.ms }) { insertSeen([ms], on: day) }
        case "ingest":
            guard let day = e["day"]?.string.flatMap(Day.parse) else { return }
            let list = e["ms"]?.array ?? e["at"]?.array ?? []
            days[day, default: 0] += list.count
            if full {
                var new: [Int64] = []
                new.reserveCapacity(list.count)
                for a in list {
                    if let ms = a.int { new.append(ms) } else if let s = a.string, let p = RFC3339.parse(s) { new.append(p.instant.ms) }
                }
                insertSeen(new, on: day)
            }
        case "unlock_undone":
            guard let day = e["day"]?.string.flatMap(Day.parse) else { return }
            days[day] = max(0, (days[day] ?? 0) - 1)
            if full, let ms = e["at"]?.string.flatMap({ RFC3339.parse($0)?.instant.ms }),
               var list = seen[day], let i = Tenclub.index(of: ms, in: list) {
                list.remove(at: i)
                seen[day] = list
            }
        default:
            applyBuddyEvent(type, e)
        }
    }

    /// Adds instants to a day's sorted index (the usual case, all after
    /// the last, appends).
    mutating func insertSeen(_ new: [Int64], on day: Day) {
        guard !new.isEmpty else { return }
        let sorted = zip(new, new.dropFirst()).allSatisfy { $0 <= $1 } ? new : new.sorted()
        var list = seen.removeValue(forKey: day) ?? []
        if let last = list.last, last > sorted[0] {
            if sorted.count < 64 {
                for v in sorted { list.insert(v, at: Tenclub.lowerBound(v, in: list)) }
            } else {
                list += sorted
                list.sort()
            }
        } else {
            list += sorted
        }
        seen[day] = list
    }

    mutating func applyBuddyEvent(_ type: String, _ e: JSONObject) {
        let at = e["at"]?.string ?? ""
        switch type {
        case "buddy_set":
            guard let n = e["number"]?.string else { return }
            let number = PhoneNumber(e164: n)
            if e["keep"]?.bool == true, var b = buddy, b.number == number {
                b.name = e["name"]?.string
                buddy = b
            } else {
                buddy = Tenclub.Buddy(number: number, name: e["name"]?.string,
                                      consent: suppressed.contains(n) ? .stopped : .invited, since: at)
            }
        case "buddy_removed":
            buddy = nil
        case "consent":
            guard let n = e["number"]?.string, let c = e["state"]?.string.flatMap(Tenclub.Consent.init(rawValue:)) else { return }
            if c == .stopped {
                suppressed.insert(n)
                for i in outbox.indices where outbox[i].to.e164 == n { outbox[i].beforeStop = true }
            } else {
                suppressed.remove(n)
            }
            if var b = buddy, b.number.e164 == n {
                b.consent = c
                b.since = at
                buddy = b
            }
        case "sms_queued":
            guard let id = e["id"]?.string, let to = e["to"]?.string, let body = e["body"]?.string else { return }
            let day = e["day"]?.string.flatMap(Day.parse)
            let kind = e["kind"]?.string ?? "text"
            // One alert a day, whichever device queued it first (in stamp
            // order): two devices that both saw the count pass ten send one.
            if kind == "alert", let d = day, alertedDays.contains(d) { return }
            outbox.append(Tenclub.OutMessage(id: id, to: PhoneNumber(e164: to), body: body, kind: kind, day: day,
                                             queuedAt: at, attempts: Int(e["attempts"]?.int ?? 0)))
            if kind == "alert", let d = day { alertedDays.insert(d) }
        case "sms_sending":
            // A claim on a text another run has counts only as a retry.
            guard let id = e["id"]?.string, let i = outbox.firstIndex(where: { $0.id == id }) else { return }
            // A late alert goes out in words naming its day.
            if outbox[i].kind == "alert", let body = e["body"]?.string { outbox[i].body = body }
            outbox[i].handover.claimed(e["claim"]?.string ?? "", until: e["until"]?.string.flatMap { RFC3339.parse($0)?.instant },
                                       retry: e["retry"]?.bool == true)
        case "sms_sent", "sms_dropped", "sms_failed", "sms_unknown":
            guard let id = e["id"]?.string, let i = outbox.firstIndex(where: { $0.id == id }) else { return }
            let m = outbox[i]
            let outcome = String(type.dropFirst(4))
            // A dead run's end (no exit status) counts once, while its claim holds the text.
            let dead = outcome == "unknown" && e["status"] == nil && e["claim"] != nil
            if dead && !(m.handover.state == .sending && m.handover.claim == e["claim"]?.string) { return }
            if full {
                log.append(Tenclub.LogEntry(id: id, kind: m.kind, to: m.to, body: m.body, day: m.day, queuedAt: m.queuedAt,
                                            at: at, outcome: outcome, status: e["status"]?.int.map(Int.init), reason: e["reason"]?.string,
                                            attempt: m.attempts + (outcome == "dropped" ? 0 : 1)))
            }
            switch outcome {
            case "failed":
                let next = e["retry_at"]?.string.flatMap { RFC3339.parse($0)?.instant }
                if outbox[i].handover.ended(.failed, claim: e["claim"]?.string, retryAt: next) { outbox[i].attempts += 1 }
            case "unknown": if outbox[i].handover.ended(.unknown, claim: e["claim"]?.string) { outbox[i].attempts += 1 }
            default: outbox.remove(at: i)
            }
        case "inbound":
            if full, let k = e["key"]?.string { inboundSeen.insert(k) }
        case "day_closed":
            if let d = e["day"]?.string.flatMap(Day.parse), closedThrough.map({ d > $0 }) ?? true { closedThrough = d }
        default:
            break
        }
    }

    public func hotSnapshot() -> [JSONObject] {
        precondition(focus == nil, "a focused state holds one day: it is never written")
        var lines: [JSONObject] = days.keys.sorted().map { ["day": .string($0.description), "unlocks": JSON(days[$0]!)] }
        if let b = buddy {
            lines.append(["k": "buddy", "number": .string(b.number.e164), "name": JSON(b.name),
                          "consent": .string(b.consent.rawValue), "since": .string(b.since)])
        }
        if !suppressed.isEmpty { lines.append(["k": "suppressed", "numbers": JSON(suppressed.sorted())]) }
        if let d = sender.device {
            lines.append(["k": "sms_device", "device": .string(d), "since": sender.since.map { .int($0) } ?? .null,
                          "moved": .bool(sender.moved), "previous": JSON(sender.previous)])
        }
        for m in outbox {
            var o: JSONObject = ["k": "outbox", "id": .string(m.id), "to": .string(m.to.e164), "body": .string(m.body),
                                 "kind": .string(m.kind), "queued_at": .string(m.queuedAt), "attempts": JSON(m.attempts)]
            if let d = m.day { o["day"] = .string(d.description) }
            if m.handover.state != .pending { o["state"] = .string(m.handover.state.rawValue) }
            if let c = m.handover.claim { o["claim"] = .string(c) }
            if let u = m.handover.claimUntil { o["until"] = .string(u.description) }
            if m.handover.failures > 0 { o["failures"] = JSON(m.handover.failures) }
            if m.beforeStop { o["before_stop"] = true }
            if let r = m.handover.retryAt { o["retry_at"] = .string(r.description) }
            lines.append(o)
        }
        if !alertedDays.isEmpty { lines.append(["k": "alerted", "days": JSON(alertedDays.sorted().map(\.description))]) }
        if let c = closedThrough { lines.append(["k": "closed_through", "day": .string(c.description)]) }
        return lines
    }

    public func coldSnapshot() -> [JSONObject] {
        var lines: [JSONObject] = seen.keys.sorted().map { d in ["seen": .string(d.description), "ms": .array(seen[d]!.map { .int($0) })] }
        if !inboundSeen.isEmpty { lines.append(["inbound": JSON(inboundSeen.sorted())]) }
        for l in log { lines.append(["sms_log": .object(l.json)]) }
        return lines
    }

    public mutating func restoreHot(_ line: JSONObject) throws(ToolError) {
        if let k = line["k"]?.string {
            switch k {
            case "buddy":
                guard let n = line["number"]?.string, let c = line["consent"]?.string.flatMap(Tenclub.Consent.init(rawValue:)) else {
                    throw ToolError(.dataError, "bad snapshot line")
                }
                buddy = Tenclub.Buddy(number: PhoneNumber(e164: n), name: line["name"]?.string, consent: c,
                                      since: line["since"]?.string ?? "")
            case "suppressed":
                suppressed = Set((line["numbers"]?.array ?? []).compactMap(\.string))
            case "outbox":
                guard let id = line["id"]?.string, let to = line["to"]?.string, let body = line["body"]?.string else {
                    throw ToolError(.dataError, "bad snapshot line")
                }
                var m = Tenclub.OutMessage(id: id, to: PhoneNumber(e164: to), body: body, kind: line["kind"]?.string ?? "text",
                                           day: line["day"]?.string.flatMap(Day.parse), queuedAt: line["queued_at"]?.string ?? "",
                                           attempts: Int(line["attempts"]?.int ?? 0))
                m.handover.state = line["state"]?.string.flatMap(DeliveryState.init(rawValue:)) ?? .pending
                m.handover.claim = line["claim"]?.string
                m.handover.claimUntil = line["until"]?.string.flatMap { RFC3339.parse($0)?.instant }
                m.handover.failures = Int(line["failures"]?.int ?? 0)
                m.beforeStop = line["before_stop"]?.bool ?? false
                m.handover.retryAt = line["retry_at"]?.string.flatMap { RFC3339.parse($0)?.instant }
                outbox.append(m)
            case "alerted":
                alertedDays = Set((line["days"]?.array ?? []).compactMap { $0.string.flatMap(Day.parse) })
            case "closed_through":
                closedThrough = line["day"]?.string.flatMap(Day.parse)
            case "sms_device":
                sender = DeviceRole(device: line["device"]?.string, since: line["since"]?.int, moved: line["moved"]?.bool ?? false,
                                    previous: line["previous"]?.string)
            default:
                break  // a newer kind of line: ignored by this version
            }
            return
        }
        guard let d = line["day"]?.string.flatMap(Day.parse), let n = line["unlocks"]?.int else {
            throw ToolError(.dataError, "bad snapshot line")
        }
        days[d] = Int(n)
    }

    public mutating func restoreCold(_ line: JSONObject) throws(ToolError) {
        guard full else { return }
        if let keys = line["inbound"]?.array {
            for k in keys { if let s = k.string { inboundSeen.insert(s) } }
            return
        }
        if let o = line["sms_log"]?.object {
            guard let l = Tenclub.LogEntry(o) else { throw ToolError(.dataError, "bad snapshot line") }
            log.append(l)
            return
        }
        guard let d = line["seen"]?.string.flatMap(Day.parse), let ms = line["ms"]?.array else {
            throw ToolError(.dataError, "bad snapshot line")
        }
        var list: [Int64] = []
        list.reserveCapacity(ms.count)
        for m in ms { if let v = m.int { list.append(v) } }
        if !zip(list, list.dropFirst()).allSatisfy({ $0 <= $1 }) { list.sort() }
        seen[d] = list
    }

    static let dayHead = Array("{\"day\":\"".utf8), dayMid = Array("\",\"unlocks\":".utf8)
    static let seenHead = Array("{\"seen\":\"".utf8), seenMid = Array("\",\"ms\":[".utf8)

    /// A day's count, `{"day":"YYYY-MM-DD","unlocks":N}` (one line per day of
    /// history), read without building JSON values: status, check and the
    /// widget read every one of them. Any other shape goes the general way.
    public mutating func restoreHotRaw(_ line: Bytes) -> Bool {
        line.withUnsafeBytes { (b: UnsafeRawBufferPointer) -> Bool in
            let head = TenclubState.dayHead, mid = TenclubState.dayMid
            let n = b.count
            guard n > head.count + 10 + mid.count + 1, b[n - 1] == UInt8(ascii: "}") else { return false }
            for (i, c) in head.enumerated() where b[i] != c { return false }
            // Another day than the one a focused read wants: skipped as it is.
            let want = focusBytes
            if !want.isEmpty, want.count == 10, !(0..<10).allSatisfy({ b[head.count + $0] == want[$0] }) { return true }
            guard let day = Day.parse(UnsafeRawBufferPointer(rebasing: b[head.count..<(head.count + 10)])) else { return false }
            var i = head.count + 10
            for c in mid { guard b[i] == c else { return false }; i += 1 }
            var v = 0
            var digits = 0
            while i < n - 1, b[i] >= 48, b[i] <= 57, digits < 9 { v = v * 10 + Int(b[i] - 48); i += 1; digits += 1 }
            guard digits > 0, i == n - 1 else { return false }
            days[day] = v
            return true
        }
    }

    /// The dedupe index's lines, `{"seen":"YYYY-MM-DD","ms":[…]}`, read
    /// without building JSON values: every `unlock` reads them.
    public mutating func restoreColdRaw(_ line: Bytes) -> Bool {
        guard full else { return false }
        return line.withUnsafeBytes { (b: UnsafeRawBufferPointer) -> Bool in
            let head = TenclubState.seenHead, mid = TenclubState.seenMid
            let n = b.count
            guard n >= head.count + 10 + mid.count + 2, b[n - 2] == UInt8(ascii: "]"), b[n - 1] == UInt8(ascii: "}") else { return false }
            for (i, c) in head.enumerated() where b[i] != c { return false }
            guard let day = Day.parse(UnsafeRawBufferPointer(rebasing: b[head.count..<(head.count + 10)])) else { return false }
            var i = head.count + 10
            for c in mid { guard b[i] == c else { return false }; i += 1 }
            var list: [Int64] = []
            let end = n - 2
            while i < end {
                var v: Int64 = 0
                var digits = 0
                while i < end, b[i] >= 48, b[i] <= 57, digits < 18 { v = v * 10 + Int64(b[i] - 48); i += 1; digits += 1 }
                guard digits > 0 else { return false }
                list.append(v)
                if i < end { guard b[i] == UInt8(ascii: ","), i + 1 < end else { return false }; i += 1 }
            }
            if !zip(list, list.dropFirst()).allSatisfy({ $0 <= $1 }) { list.sort() }
            seen[day] = list
            return true
        }
    }

    /// Whether an instant was already counted (needs a full load).
    public func hasSeen(_ ms: Int64, on d: Day) -> Bool { seen[d].map { Tenclub.index(of: ms, in: $0) != nil } ?? false }

    /// A counted instant less than `window` ms from `ms`, looked for on
    /// `d` and the days either side (the window may cross midnight).
    public func seenNear(_ ms: Int64, on d: Day, window: Int64) -> Int64? {
        for day in [d, d.adding(days: -1), d.adding(days: 1)] {
            guard let list = seen[day], !list.isEmpty else { continue }
            let i = Tenclub.lowerBound(ms, in: list)
            if i < list.count, list[i] - ms < window { return list[i] }
            if i > 0, ms - list[i - 1] < window { return list[i - 1] }
        }
        return nil
    }

    /// The latest counted instant of a day.
    public func lastSeen(on d: Day) -> Int64? { seen[d]?.last }
}
