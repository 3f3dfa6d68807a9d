// One device hands records over: devices that share a sync folder each see
// the same queue (playa's notifications, tenclub's texts), and a person
// wants each message once, not once per device. The role is in the journal:
// the first device to run the handing-over command claims it (the fold keeps
// the first claim in stamp order, as every copy folds it), a device may move
// it to itself (--take-over, or the tool's configuration key naming it), and
// every other device refuses to hand anything over, naming the one that does.
//
// Copies travel with a delay, so a device cannot know at once that it is the
// first: a device that has just taken the role (first, or moved) waits
// `settleMillis` before it acts, long enough for the others' copies to
// arrive. Of devices that took it in the same minute, only the first by stamp
// acts once the copies meet; an old holder sees a move before the new one
// starts. Without a sync folder there is nobody to wait for.
//
// Pure: every decision takes what the journal folded, this device's name and
// the instant it is made at.

/// The device that hands a tool's records over, as its journal tells it.
public struct DeviceRole: Equatable, Sendable {
    /// The holder: the first to claim it, or the last to move it to itself.
    public private(set) var device: String?
    /// When the holder took it (its claim's stamp, milliseconds).
    public private(set) var since: Int64?

    /// How long a device that took the role waits before it acts, where
    /// devices share a sync folder.
    public static let settleMillis: Int64 = 5 * 60_000

    public init(device: String? = nil, since: Int64? = nil) {
        self.device = device
        self.since = since
    }

    /// A recorded claim, folded in stamp order: the first stands; a move
    /// takes it over.
    public mutating func claimed(by d: String, moved: Bool, stampMs: Int64) {
        guard device == nil || moved else { return }
        device = d
        since = stampMs
    }

    /// A recorded claim (an event of `type`), folded.
    public mutating func apply(_ e: JSONObject, stampMs: Int64) {
        guard let d = e["device"]?.string else { return }
        claimed(by: d, moved: e["moved"]?.bool == true, stampMs: stampMs)
    }

    /// What a role's tool says about it: the event it records, the thing
    /// handed over and the command that does it, for messages.
    public struct Words: Sendable {
        /// The event type (`notify_device`), also the configuration key.
        public var key: String
        /// "notifications", "texts".
        public var things: String
        /// "playa due", "tenclub sms deliver".
        public var command: String

        public init(key: String, things: String, command: String) {
            self.key = key
            self.things = things
            self.command = command
        }
    }

    /// Whether device `me` may hand records over, before anything is
    /// written: `configured` (the configuration key) names the device when
    /// set; otherwise the journal's holder, or `me` when nobody holds it yet.
    /// Returns the claim to record (nil when the journal already says so)
    /// and, when `me` may not, why and how to move it.
    public func decide(device me: String, configured: String?, takeOver: Bool, words: Words,
                       configPath: String) -> (record: JSONObject?, refusal: String?) {
        let moveHere: JSONObject? = device == me ? nil : ["type": .string(words.key), "device": .string(me), "moved": true]
        if let c = configured, !c.isEmpty, !takeOver {
            guard c == me else {
                return (nil, "\(words.things) are sent from the device '\(c)' (\(words.key) in \(configPath)); this device is '\(me)': change \(words.key) there to send them from here")
            }
            return (moveHere, nil)
        }
        if takeOver { return (moveHere, nil) }
        guard let d = device else { return (["type": .string(words.key), "device": .string(me)], nil) }
        guard d == me else {
            return (nil, "\(words.things) are sent from the device '\(d)', where '\(words.command)' ran first; this device is '\(me)': run '\(words.command) --take-over' here to send them from this one instead (it starts \(DeviceRole.settleMillis / 60_000) minutes later, once the others have seen it)")
        }
        return (nil, nil)
    }

    /// Until when device `me`, the holder, waits before it acts at `now`:
    /// nil when it may act. Only where devices share a sync folder and the
    /// configuration does not name the device (then nothing is in doubt).
    public func settling(device me: String, configured: String?, shared: Bool, now: Instant) -> Instant? {
        guard shared, (configured ?? "").isEmpty, device == me, let t = since, now.ms - t < DeviceRole.settleMillis else { return nil }
        return Instant(ms: t + DeviceRole.settleMillis)
    }

    /// The note a settling holder gives.
    public static func settlingNote(_ words: Words, from: String) -> String {
        "this device took the role of sending \(words.things); it sends them from \(from), once the other devices' copies have had time to arrive (of two that took it at once, the first sends)"
    }
}
