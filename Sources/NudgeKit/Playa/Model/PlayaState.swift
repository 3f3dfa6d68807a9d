// playa's state as a fold over its journal. Recipients and events are saved
// as whole objects; notifications and rollover are small events of ids:
//   {"type":"recipient_saved","recipient":{…}}   {"type":"event_saved","event":{…},"batch"?}
//   {"type":"generated","recipient_id","date","batch"?}   {"type":"day_confirmed","date"}
//   {"type":"slot_missed","id","recipient_id"}   a slot already past when this device's draw was made
//   {"type":"notify_claimed","id","recipient_id","claim","until","retry"?}
//   {"type":"notified","id","recipient_id","claim","outcome","status"?,"retry_at"?}
//   {"type":"notify_device","device","moved"?}   which device's `due` notifies
//   {"type":"missed_through","date"}             every pending event up to that day is missed
//   {"type":"contacted","contact":{…}}           in touch (Model/PlayaContacts.swift): a cadence's reminder it satisfies is cancelled
//   {"type":"erase","recipient_id"} / {"type":"erase","all":true}
// An erase is a tombstone holding ids only: the store skips every event it
// names on every copy and removes them from the writer's journal (`erases`).
// Journals from before erasure may still hold {"type":"recipient_removed","id"}
// and {"type":"reset"}, which fold as before.
//
// Claims: a run records `notify_claimed` (under the lock) before it hands an
// event's notification to the user's command, and `notified` after. The fold
// is in stamp order, so the first claim holds the event; another claim counts
// only as a retry of a failed or unknown notification. A notification that
// was delivered is never claimed again. (The rule is Core/Delivery.swift's
// `Handover`, shared with tenclub's texts and rewards' grants.)
//
// The day's draw is the same on every device (Rules/Draw.swift's `draw`: a
// pure function of the recipient, its seed and the day), so two devices that
// both draw a day draw the same events with the same ids and the same batch
// id: a draw line for an event that is already there changes nothing (the
// event as notified, sent or edited stays). Draws can still differ when the
// devices drew from different pools or schedules (changed on one while the
// other was offline, or `generate --seed`): then the first `generated`
// marker in stamp order wins the day, and the other draw's events go while
// nobody has touched them. One that was notified (or claimed), sent,
// cancelled or edited stays: a later claim or save brings it back, so a
// notified event never disappears. A cadence's draws unite instead
// (`drawsUnite`): a device that knows of a later contact counts other days due.
//
// Which device notifies: the first `notify_device` in stamp order, until
// one with "moved" (`due --take-over`) replaces it. Each device's own draw
// of a day is known by the stamp's actor (`drawnBy`): `due` notifies only
// slots that were still ahead when its device first held the day's draw.
//
// Recipients, pending events and the last days' others are hot; older sent,
// cancelled and missed events are cold (export, history and single-event
// commands), so a long history does not slow down `due` or `queue`.

public struct PlayaState: JournalModel {
    public static let schemaVersion = 1
    public private(set) var recipients: [String: Playa.Recipient] = [:]
    public private(set) var events: [String: Playa.Event] = [:]
    public private(set) var generated: Set<String> = []  // "recipient|date"
    public private(set) var confirmed: Set<Day> = []
    /// The batch that won each drawn day ("recipient|date" → batch), and the
    /// batches each drawn event came from.
    var winners: [String: String] = [:]
    var batchOf: [String: Set<String>] = [:]
    /// The ids in `batchOf` by "recipient|date", so that a day's winning
    /// draw looks at that day's events only (derived, never saved).
    var batchedByKey: [String: Set<String>] = [:]
    /// Events of a draw that lost its day, kept aside: a claim or a save
    /// brings one back.
    var superseded: [String: Playa.Event] = [:]
    /// The devices (journal actors) that recorded a draw of each day.
    public private(set) var drawnBy: [String: Set<String>] = [:]
    /// The device whose `due` notifies (`DeviceRole`: the first to run it,
    /// or where it was moved, and since when).
    public private(set) var notifier = DeviceRole()
    /// Recipients erased here (their ids only): an event naming one that
    /// arrives later, from a device that drew their day before the erasure
    /// reached it, is not folded.
    public private(set) var erasedRecipients: Set<String> = []
    public var notifyDevice: String? { notifier.device }
    /// Each recipient's latest contact (hot), and every contact (the full
    /// log: complete in a full read).
    public private(set) var lastContact: [String: Playa.Contact] = [:]
    public private(set) var contacts: [String: Playa.Contact] = [:]
    let full: Bool

    public init(full: Bool) { self.full = full }

    public static func generatedKey(_ rid: String, _ d: Day) -> String { rid + "|" + d.description }

    /// Room for `extra` more events (a day's draw) without growing the
    /// tables step by step; changes nothing else.
    mutating func reserve(events extra: Int) {
        events.reserveCapacity(events.count + extra)
        batchOf.reserveCapacity(batchOf.count + extra)
    }

    /// A recipient's tombstone erases every event naming them whenever it
    /// was stamped: a device that drew their day before the erasure reached
    /// it wrote their messages after the tombstone, and those go too. A
    /// reset's erases what came before it only.
    public static func erasesLaterEvents(_ t: JSONObject) -> Bool { t["all"]?.bool != true }

    /// Whether the tombstone `t` erases `e`: everything (reset), or every
    /// event naming one recipient (recipient rm).
    public static func erases(_ t: JSONObject, _ e: JSONObject) -> Bool {
        if t["all"]?.bool == true { return true }
        guard let id = t["recipient_id"]?.string else { return false }
        return recipientID(of: e) == id
    }

    /// The recipient an event is about, for the events an erasure removes.
    static func recipientID(of e: JSONObject) -> String? {
        switch e["type"]?.string {
        case "recipient_saved": return e["recipient"]?.object?["id"]?.string
        case "recipient_removed": return e["id"]?.string
        case "event_saved": return e["event"]?.object?["recipient_id"]?.string
        case "generated", "notify_claimed", "notified", "slot_missed": return e["recipient_id"]?.string
        case "contacted": return e["contact"]?.object?["recipient_id"]?.string
        default: return nil
        }
    }

    public mutating func apply(_ e: JSONObject, stamp: Stamp) {
        if e["type"]?.string == "notify_device" { notifier.apply(e, stampMs: stamp.ms) }
        if e["type"]?.string == "generated", let r = e["recipient_id"]?.string, let d = e["date"]?.string.flatMap(Day.parse) {
            drawnBy[PlayaState.generatedKey(r, d), default: []].insert(stamp.actor)
        }
        apply(e)
    }

    /// An event kept aside by a lost draw comes back when something names it.
    mutating func revive(_ id: String) {
        if events[id] == nil, let ev = superseded.removeValue(forKey: id) { events[id] = ev }
    }

    public mutating func apply(_ e: JSONObject) {
        if !erasedRecipients.isEmpty, let r = PlayaState.recipientID(of: e), erasedRecipients.contains(r) { return }
        switch e["type"]?.string {
        case "recipient_saved":
            if let o = e["recipient"]?.object, case .success(let r) = Playa.Recipient.from(o, trusted: true) { recipients[r.id] = r }
        case "recipient_removed":
            if let id = e["id"]?.string {
                recipients[id] = nil
                for (k, ev) in events where ev.recipientID == id && ev.status == .pending { events[k]?.status = .cancelled }
            }
        case "erase":
            if e["all"]?.bool == true {
                self = PlayaState(full: full)
            } else if let id = e["recipient_id"]?.string {
                erasedRecipients.insert(id)
                recipients[id] = nil
                events = events.filter { $0.value.recipientID != id }
                generated = generated.filter { !$0.hasPrefix(id + "|") }
                winners = winners.filter { !$0.key.hasPrefix(id + "|") }
                drawnBy = drawnBy.filter { !$0.key.hasPrefix(id + "|") }
                batchOf = batchOf.filter { events[$0.key] != nil }
                batchedByKey = batchedByKey.filter { !$0.key.hasPrefix(id + "|") }
                superseded = superseded.filter { $0.value.recipientID != id }
                lastContact[id] = nil
                contacts = contacts.filter { $0.value.recipientID != id }
            }
        case "notify_claimed":
            if let id = e["id"]?.string { revive(id) }
            guard let id = e["id"]?.string, var ev = events[id], let claim = e["claim"]?.string,
                  ev.handover.claimed(claim, until: e["until"]?.string.flatMap { RFC3339.parse($0)?.instant },
                                      retry: e["retry"]?.bool == true) else { return }
            events[id] = ev
        case "notified":
            if let id = e["id"]?.string { revive(id) }
            guard let id = e["id"]?.string, var ev = events[id],
                  let outcome = e["outcome"]?.string.flatMap(DeliveryOutcome.init(rawValue:)) else { return }
            // The holder's outcome ends its claim; one of a claim that lost
            // the race counts only when it delivered (it still went out).
            let before = ev.handover
            if ev.handover.ended(outcome, claim: e["claim"]?.string ?? "", retryAt: e["retry_at"]?.string.flatMap { RFC3339.parse($0)?.instant }) {
                ev.error = outcome == .delivered ? nil : e["error"]?.string
            } else if ev.handover == before {
                return
            }
            events[id] = ev
        case "missed_through":
            guard let d = e["date"]?.string.flatMap(Day.parse) else { return }
            for (k, ev) in events where ev.status == .pending && ev.date <= d { events[k]?.status = .missed }
        case "event_saved":
            guard let o = e["event"]?.object, case .success(let ev) = Playa.Event.from(o, trusted: true) else { return }
            if let b = e["batch"]?.string {
                // A draw never replaces an event: the same slot drawn again
                // (another device, the same draw) leaves it as it is.
                let key = PlayaState.generatedKey(ev.recipientID, ev.date)
                if let cur = events[ev.id] {
                    batchOf[ev.id, default: []].insert(b)
                    batchedByKey[PlayaState.generatedKey(cur.recipientID, cur.date), default: []].insert(ev.id)
                    return
                }
                if let w = winners[key], w != b, !drawsUnite(ev.recipientID) {
                    if superseded[ev.id] == nil { superseded[ev.id] = ev }
                    return
                }
                batchOf[ev.id, default: []].insert(b)
                batchedByKey[key, default: []].insert(ev.id)
            } else {
                superseded[ev.id] = nil
                if batchOf[ev.id] != nil { batchedByKey[PlayaState.generatedKey(ev.recipientID, ev.date), default: []].insert(ev.id) }
            }
            events[ev.id] = ev
            voidIfSatisfied(ev.id, ev)
        case "slot_missed":
            guard let id = e["id"]?.string, var ev = events[id], ev.status == .pending, ev.handover.state == .pending else { return }
            ev.status = .missed
            ev.error = "its time had passed when the day's draw reached the device that notifies"
            events[id] = ev
        case "notify_device":
            break  // folded with its stamp (`apply(_:stamp:)`)
        case "generated":
            guard let r = e["recipient_id"]?.string, let d = e["date"]?.string.flatMap(Day.parse) else { return }
            let key = PlayaState.generatedKey(r, d)
            generated.insert(key)
            guard winners[key] == nil else { return }
            let b = e["batch"]?.string ?? ""
            winners[key] = b
            if drawsUnite(r) { return }
            for id in batchedByKey[key] ?? [] {
                guard let bs = batchOf[id], !bs.contains(b), let ev = events[id], ev.recipientID == r, ev.date == d else { continue }
                batchOf[id] = nil
                if Playa.untouchedByAnyone(ev) {
                    events[id] = nil
                    superseded[id] = ev
                }
            }
        case "day_confirmed":
            if let d = e["date"]?.string.flatMap(Day.parse) { confirmed.insert(d) }
        case "contacted":
            guard let o = e["contact"]?.object, case .success(let c) = Playa.Contact.from(o, trusted: true), contacts[c.id] == nil,
                  lastContact[c.recipientID]?.id != c.id else { return }
            contacts[c.id] = c
            if let cur = lastContact[c.recipientID], !c.isLater(than: cur) { return }
            lastContact[c.recipientID] = c
            for (k, ev) in events where ev.recipientID == c.recipientID { voidIfSatisfied(k, ev) }
        case "reset":
            self = PlayaState(full: full)
        default:
            break
        }
    }

    /// Whether the draws of a day unite rather than one winning: a cadence's
    /// are at most one reminder a day, the same slot (the same id) on every
    /// device that counts the day due; devices that know different contacts
    /// count different days due, and a reminder one of them drew is kept,
    /// to be cancelled by a contact that makes it not due (`voidIfSatisfied`).
    /// A lost draw would drop a due reminder because a peer did not yet know
    /// of an older contact.
    func drawsUnite(_ rid: String) -> Bool { recipients[rid]?.schedule.cadence != nil }

    /// A cadence's pending reminder that the recipient's last contact makes
    /// not due is cancelled, whichever of the two was folded first: it is
    /// never notified on a copy that knows the contact. One whose
    /// notification went out (or may have) stays, to be opened.
    mutating func voidIfSatisfied(_ id: String, _ ev: Playa.Event) {
        guard ev.status == .pending, ev.handover.state.isWaiting, let c = lastContact[ev.recipientID],
              let cadence = recipients[ev.recipientID]?.schedule.cadence,
              cadence.contactSatisfies(c.date, reminderOn: ev.date) else { return }
        if let r = recipients[ev.recipientID], !r.dates.isEmpty, Playa.isOccasionEvent(ev, of: r) { return }  // a birthday is not a cadence's
        var v = ev
        v.status = .cancelled
        v.error = "in touch on \(c.date)"
        events[id] = v
    }

    /// Pending events are always hot (queue and due read only the hot
    /// part); sent, cancelled and missed ones stay hot for two days, then
    /// are history.
    static func isRecent(_ ev: Playa.Event, newest: Day?) -> Bool {
        guard let n = newest, ev.status != .pending else { return true }
        return ev.date >= n.adding(days: -2)
    }

    var newestDay: Day? { events.values.map(\.date).max() }

    public func hotSnapshot() -> [JSONObject] {
        // The summary `due` answers from first. Each recipient's line says
        // its pool's size (c) and the length of the recipient without it (n),
        // so a lazy read finds the pool without parsing it; the pool is a
        // flat list of id, text, id, text… (no object per message to build).
        var lines: [JSONObject] = [Playa.dueSummary(self)]
        for r in recipients.values.sorted(by: { $0.id < $1.id }) {
            var v = r.json
            v["messages"] = nil
            var written: [UInt8] = []
            v.write(into: &written)
            lines.append(["k": "recipient", "c": JSON(r.messageCount), "n": JSON(written.count), "v": .object(v),
                          "pool": .array(r.messages.flatMap { [JSON.string($0.id), .string($0.text)] })])
        }
        let newest = newestDay
        for ev in events.values.sorted(by: { ($0.at, $0.id) < ($1.at, $1.id) }) where PlayaState.isRecent(ev, newest: newest) {
            lines.append(["k": "event", "v": .object(ev.json)])
        }
        let recentGenerated = generated.filter { key in
            guard let n = newest, let d = key.split(separator: "|").last.flatMap({ Day.parse(String($0)) }) else { return true }
            return d >= n.adding(days: -7)
        }
        var days: JSONObject = ["k": "days", "generated": JSON(recentGenerated.sorted()), "confirmed": JSON(confirmed.sorted().map(\.description))]
        let recentWinners = winners.filter { recentGenerated.contains($0.key) }
        if !recentWinners.isEmpty { days["winners"] = .object(JSONObject(recentWinners.sorted { $0.key < $1.key }.map { ($0.key, JSON.string($0.value)) })) }
        let pendingBatches = batchOf.filter { events[$0.key]?.status == .pending }
        if !pendingBatches.isEmpty {
            days["batches"] = .object(JSONObject(pendingBatches.sorted { $0.key < $1.key }.map { ($0.key, JSON($0.value.sorted())) }))
        }
        let recentDrawn = drawnBy.filter { recentGenerated.contains($0.key) }
        if !recentDrawn.isEmpty { days["drawn_by"] = .object(JSONObject(recentDrawn.sorted { $0.key < $1.key }.map { ($0.key, JSON($0.value.sorted())) })) }
        if let d = notifier.device { days["notify_device"] = .string(d) }
        if let t = notifier.since { days["notify_since"] = .int(t) }
        if notifier.moved { days["notify_moved"] = true }
        if let p = notifier.previous { days["notify_previous"] = .string(p) }
        if !erasedRecipients.isEmpty { days["erased"] = JSON(erasedRecipients.sorted()) }
        lines.append(days)
        for c in lastContact.values.sorted(by: { $0.recipientID < $1.recipientID }) { lines.append(["k": "last_contact", "v": .object(c.json)]) }
        for ev in superseded.values.sorted(by: { $0.id < $1.id }) where ev.date >= (newest ?? ev.date).adding(days: -2) {
            lines.append(["k": "superseded", "v": .object(ev.json)])
        }
        return lines
    }

    public func coldSnapshot() -> [JSONObject] {
        let newest = newestDay
        var lines: [JSONObject] = []
        for ev in events.values.sorted(by: { ($0.at, $0.id) < ($1.at, $1.id) }) where !PlayaState.isRecent(ev, newest: newest) {
            lines.append(["k": "event", "v": .object(ev.json)])
        }
        lines.append(["k": "generated", "v": JSON(generated.sorted())])
        for c in contacts.values.sorted(by: { ($0.at, $0.id) < ($1.at, $1.id) }) { lines.append(["k": "contact", "v": .object(c.json)]) }
        return lines
    }

    public mutating func restoreHot(_ l: JSONObject) throws(ToolError) {
        switch l["k"]?.string {
        case "recipient":
            guard let o = l["v"]?.object, case .success(var r) = Playa.Recipient.from(o, trusted: true) else { throw .data("bad snapshot line") }
            if let flat = l["pool"]?.array {
                guard let m = Playa.MessagePool.messages(flat: flat) else { throw .data("bad snapshot line") }
                r.messages = m
            }
            recipients[r.id] = r
        case "event":
            guard let o = l["v"]?.object, case .success(let ev) = Playa.Event.from(o, trusted: true) else { throw .data("bad snapshot line") }
            events[ev.id] = ev
        case "days":
            for g in l["generated"]?.array ?? [] { if let s = g.string { generated.insert(s) } }
            for c in l["confirmed"]?.array ?? [] { if let d = c.string.flatMap(Day.parse) { confirmed.insert(d) } }
            for (k, v) in l["winners"]?.object?.fields ?? [] { if let b = v.string { winners[k] = b } }
            for (k, v) in l["batches"]?.object?.fields ?? [] {
                batchOf[k] = Set((v.array ?? [v]).compactMap(\.string))
                if let ev = events[k] { batchedByKey[PlayaState.generatedKey(ev.recipientID, ev.date), default: []].insert(k) }
            }
            for (k, v) in l["drawn_by"]?.object?.fields ?? [] { drawnBy[k] = Set((v.array ?? []).compactMap(\.string)) }
            notifier = DeviceRole(device: l["notify_device"]?.string, since: l["notify_since"]?.int,
                                  moved: l["notify_moved"]?.bool ?? false, previous: l["notify_previous"]?.string)
            erasedRecipients = Set((l["erased"]?.array ?? []).compactMap(\.string))
        case "superseded":
            guard let o = l["v"]?.object, case .success(let ev) = Playa.Event.from(o, trusted: true) else { throw .data("bad snapshot line") }
            superseded[ev.id] = ev
        case "last_contact":
            guard let o = l["v"]?.object, case .success(let c) = Playa.Contact.from(o, trusted: true) else { throw .data("bad snapshot line") }
            lastContact[c.recipientID] = c
        default:
            break
        }
    }

    /// In a lazy read, a recipient's line is taken with its pool unparsed
    /// (decoded if a command reads it), an event's read from its bytes;
    /// other lines are parsed as usual.
    public mutating func restoreHotRaw(_ line: Bytes) -> Bool {
        // An event's line is read from its bytes (`Event.scan`), not parsed
        // into an object first; one in another layout is parsed as usual.
        let kind = line.withUnsafeBytes { b in
            PlayaState.eventLinePrefix.withUnsafeBytes { b.starts(with: $0) } ? 1 : PlayaState.recipientPrefix.withUnsafeBytes { b.starts(with: $0) } ? 2 : 0
        }
        if kind == 1 {
            guard let ev = line.withUnsafeBytes({ PlayaState.scanEventLine($0) }) else { return false }
            events[ev.id] = ev
            return true
        }
        guard kind == 2, let (count, v, pool) = line.withUnsafeBytes({ PlayaState.scanRecipientLine($0) }) else { return false }
        let base = line.startIndex
        guard let o = try? line[(base + v.lowerBound)..<(base + v.upperBound)].withUnsafeBytes({ (b) throws(JSONParseError) in try JSON.parseObject(b) }),
              case .success(var r) = Playa.Recipient.from(o, trusted: true) else { return false }
        r.pool = .raw(line[(base + pool.lowerBound)..<(base + pool.upperBound)], count: count)
        recipients[r.id] = r
        return true
    }

    static let recipientPrefix = Array("{\"k\":\"recipient\",\"c\":".utf8)

    /// {"k":"recipient","c":COUNT,"n":LENGTH,"v":{…LENGTH bytes…},"pool":[…]}:
    /// the count, and where the recipient and its pool are; nil for another layout.
    static func scanRecipientLine(_ b: UnsafeRawBufferPointer) -> (Int, Range<Int>, Range<Int>)? {
        var i = recipientPrefix.count
        func number() -> Int? {
            var n = 0, digits = 0
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39, digits < 9 { n = n * 10 + Int(b[i] - 0x30); i += 1; digits += 1 }
            return digits > 0 ? n : nil
        }
        func expect(_ s: StaticString) -> Bool {
            let len = s.utf8CodeUnitCount
            guard i + len <= b.count, memcmp(b.baseAddress! + i, s.utf8Start, len) == 0 else { return false }
            i += len
            return true
        }
        guard let count = number(), expect(",\"n\":"), let length = number(), expect(",\"v\":"), i + length <= b.count else { return nil }
        let v = i..<(i + length)
        i += length
        guard expect(",\"pool\":["), b.count - 2 >= i - 1, b[b.count - 1] == UInt8(ascii: "}"), b[b.count - 2] == UInt8(ascii: "]") else { return nil }
        return (count, v, (i - 1)..<(b.count - 1))
    }

    public mutating func restoreCold(_ l: JSONObject) throws(ToolError) {
        guard full else { return }
        switch l["k"]?.string {
        case "event":
            guard let o = l["v"]?.object, case .success(let ev) = Playa.Event.from(o, trusted: true) else { throw .data("bad snapshot line") }
            events[ev.id] = ev
        case "generated":
            for g in l["v"]?.array ?? [] { if let s = g.string { generated.insert(s) } }
        case "contact":
            guard let o = l["v"]?.object, case .success(let c) = Playa.Contact.from(o, trusted: true) else { throw .data("bad snapshot line") }
            contacts[c.id] = c
        default:
            break
        }
    }

    /// A recipient by name (any case) or id.
    public func recipient(_ name: String) throws(ToolError) -> Playa.Recipient {
        let n = name.trimmingSpaces.lowercased()
        if let r = recipients.values.first(where: { $0.name.lowercased() == n }) ?? recipients[name] { return r }
        let names = recipients.values.map(\.name).sorted()
        throw ToolError(.dataError, "no recipient named '\(name)'" + (names.isEmpty ? "; add one with 'playa recipient add'" :
            (Suggest.nearest(name, in: names).map { " (did you mean '\($0)'?)" } ?? "; 'playa recipient list' shows them")))
    }

    /// An event by id or unique prefix.
    public func event(_ prefix: String) throws(ToolError) -> Playa.Event {
        if let e = events[prefix] { return e }
        let m = events.keys.filter { $0.hasPrefix(prefix) }
        guard !prefix.isEmpty, !m.isEmpty else { throw ToolError(.dataError, "no event with id '\(prefix)'; 'playa queue' shows them") }
        guard m.count == 1 else { throw ToolError(.usage, "id '\(prefix)' matches \(m.count) events; give more of it") }
        return events[m[0]]!
    }

    /// Recipients not paused, by name in any case (each name lowered once).
    public var activeRecipients: [Playa.Recipient] {
        recipients.values.filter { !$0.paused }.map { ($0.name.lowercased(), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Today's pending events whose time has come, of recipients not paused,
    /// whose notification may be handed over: not yet tried, or failed (or,
    /// with `retryUnknown`, unknown). A past day's events are missed, never due.
    public func due(at now: Instant, today: Day, retryUnknown: Bool = false) -> [Playa.Event] {
        events.values.filter { ev in
            guard ev.status == .pending, ev.at <= now, ev.date >= today,
                  let r = recipients[ev.recipientID], !r.paused else { return false }
            return Playa.mayNotify(ev, at: now, retryUnknown: retryUnknown)
        }.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
    }

    /// A day's events still to send, in time order: pending, and for a past
    /// day the missed ones.
    public func queue(_ d: Day) -> [Playa.Event] {
        events.values.filter { $0.date == d && ($0.status == .pending || $0.status == .missed) }.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
    }

    /// Pending events of days before `today`: what `generate` marks missed.
    public func overdueDays(before today: Day) -> Bool {
        events.values.contains { $0.status == .pending && $0.date < today }
    }
}
