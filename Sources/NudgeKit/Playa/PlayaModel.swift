// playa's state as a fold over its journal. Every change is a whole object:
//   {"type":"recipient_saved","recipient":{…}}   {"type":"recipient_removed","id"}
//   {"type":"event_saved","event":{…}}           {"type":"generated","recipient_id","date"}
//   {"type":"day_confirmed","date"}              {"type":"reset"}
// Recipients, pending events and the last days' others are hot; older sent
// and cancelled events are cold (export, history and single-event commands).

public struct PlayaState: JournalModel {
    public static let schemaVersion = 1
    public private(set) var recipients: [String: Playa.Recipient] = [:]
    public private(set) var events: [String: Playa.Event] = [:]
    public private(set) var generated: Set<String> = []  // "recipient|date"
    public private(set) var confirmed: Set<Day> = []
    let full: Bool

    public init(full: Bool) { self.full = full }

    public static func generatedKey(_ rid: String, _ d: Day) -> String { rid + "|" + d.description }

    public mutating func apply(_ e: JSONObject) {
        switch e["type"]?.string {
        case "recipient_saved":
            if let o = e["recipient"]?.object, case .success(let r) = Playa.Recipient.from(o, trusted: true) { recipients[r.id] = r }
        case "recipient_removed":
            if let id = e["id"]?.string {
                recipients[id] = nil
                for (k, ev) in events where ev.recipientID == id && ev.status == .pending { events[k]?.status = .cancelled }
            }
        case "event_saved":
            if let o = e["event"]?.object, case .success(let ev) = Playa.Event.from(o, trusted: true) { events[ev.id] = ev }
        case "generated":
            if let r = e["recipient_id"]?.string, let d = e["date"]?.string.flatMap(Day.parse) {
                generated.insert(PlayaState.generatedKey(r, d))
            }
        case "day_confirmed":
            if let d = e["date"]?.string.flatMap(Day.parse) { confirmed.insert(d) }
        case "reset":
            self = PlayaState(full: full)
        default:
            break
        }
    }

    /// Pending events are always hot (queue and due read only the hot
    /// part); sent and cancelled ones stay hot for two days, then are history.
    static func isRecent(_ ev: Playa.Event, newest: Day?) -> Bool {
        guard let n = newest, ev.status != .pending else { return true }
        return ev.date >= n.adding(days: -2)
    }

    var newestDay: Day? { events.values.map(\.date).max() }

    public func hotSnapshot() -> [JSONObject] {
        var lines: [JSONObject] = recipients.values.sorted { $0.id < $1.id }.map { ["k": "recipient", "v": .object($0.json)] }
        let newest = newestDay
        for ev in events.values.sorted(by: { ($0.at, $0.id) < ($1.at, $1.id) }) where PlayaState.isRecent(ev, newest: newest) {
            lines.append(["k": "event", "v": .object(ev.json)])
        }
        let recentGenerated = generated.filter { key in
            guard let n = newest, let d = key.split(separator: "|").last.flatMap({ Day.parse(String($0)) }) else { return true }
            return d >= n.adding(days: -7)
        }
        lines.append(["k": "days", "generated": JSON(recentGenerated.sorted()), "confirmed": JSON(confirmed.sorted().map(\.description))])
        return lines
    }

    public func coldSnapshot() -> [JSONObject] {
        let newest = newestDay
        var lines: [JSONObject] = []
        for ev in events.values.sorted(by: { ($0.at, $0.id) < ($1.at, $1.id) }) where !PlayaState.isRecent(ev, newest: newest) {
            lines.append(["k": "event", "v": .object(ev.json)])
        }
        lines.append(["k": "generated", "v": JSON(generated.sorted())])
        return lines
    }

    public mutating func restoreHot(_ l: JSONObject) throws(ToolError) {
        switch l["k"]?.string {
        case "recipient":
            guard let o = l["v"]?.object, case .success(let r) = Playa.Recipient.from(o, trusted: true) else { throw .data("bad snapshot line") }
            recipients[r.id] = r
        case "event":
            guard let o = l["v"]?.object, case .success(let ev) = Playa.Event.from(o, trusted: true) else { throw .data("bad snapshot line") }
            events[ev.id] = ev
        case "days":
            for g in l["generated"]?.array ?? [] { if let s = g.string { generated.insert(s) } }
            for c in l["confirmed"]?.array ?? [] { if let d = c.string.flatMap(Day.parse) { confirmed.insert(d) } }
        default:
            break
        }
    }

    public mutating func restoreCold(_ l: JSONObject) throws(ToolError) {
        guard full else { return }
        switch l["k"]?.string {
        case "event":
            guard let o = l["v"]?.object, case .success(let ev) = Playa.Event.from(o, trusted: true) else { throw .data("bad snapshot line") }
            events[ev.id] = ev
        case "generated":
            for g in l["v"]?.array ?? [] { if let s = g.string { generated.insert(s) } }
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

    public var activeRecipients: [Playa.Recipient] { recipients.values.filter { !$0.paused }.sorted { $0.name.lowercased() < $1.name.lowercased() } }

    /// Events whose time has come and whose notification has not gone out.
    public func due(at now: Instant) -> [Playa.Event] {
        events.values.filter { $0.status == .pending && $0.at <= now && $0.notification != "delivered" && recipients[$0.recipientID] != nil }
            .sorted { ($0.at, $0.id) < ($1.at, $1.id) }
    }

    /// Pending events of a day, in time order.
    public func queue(_ d: Day) -> [Playa.Event] {
        events.values.filter { $0.date == d && $0.status == .pending }.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
    }
}
