// The devices that share a reminder store: one journal each. Pure: the
// store's list of journals, the folded state (who was forgotten, when) and
// the clock in; device records out.

public enum YomoDevices {
    /// A device silent this long is marked silent.
    public static let silentDays = 30

    public struct Device: Equatable, Sendable {
        public var name: String
        /// Its newest change (the writer's clock), if it wrote any.
        public var lastSeen: Instant?
        public var silent: Bool
        public var thisDevice: Bool
        public var bytes: Int

        public func record(zone: Zone) -> JSONObject {
            ["type": "device", "name": .string(name), "last_seen": JSON(lastSeen.map(zone.format)), "silent": .bool(silent),
             "this_device": .bool(thisDevice), "bytes": JSON(bytes)]
        }
    }

    /// Every device with a journal, most recently seen first, without those
    /// forgotten since they last wrote. This device is always listed.
    public static func list(_ journals: [JournalInfo], state: YomoState, me: String, now: Instant) -> [Device] {
        var out: [Device] = []
        var byName: [String: Int] = [:]
        for j in journals {
            let seen = j.lastStamp.map { Instant(ms: $0.ms) }
            if let k = byName[j.actor] {
                // Several files of one actor (set-aside copies): the newest counts.
                if let s = seen, out[k].lastSeen.map({ s > $0 }) ?? true { out[k].lastSeen = s }
                out[k].bytes += j.bytes
                continue
            }
            if j.actor != me, let f = state.forgotten[j.actor], j.lastStamp.map({ $0 <= f }) ?? true { continue }
            byName[j.actor] = out.count
            out.append(Device(name: j.actor, lastSeen: seen, silent: false, thisDevice: j.actor == me, bytes: j.bytes))
        }
        if byName[me] == nil { out.append(Device(name: me, lastSeen: nil, silent: false, thisDevice: true, bytes: 0)) }
        let limit = now.ms - Int64(silentDays) * 86_400_000
        for k in out.indices where !out[k].thisDevice {
            out[k].silent = out[k].lastSeen.map { $0.ms < limit } ?? true
        }
        return out.sorted { ($0.lastSeen?.ms ?? Int64.min, $1.name) > ($1.lastSeen?.ms ?? Int64.min, $0.name) }
    }
}
