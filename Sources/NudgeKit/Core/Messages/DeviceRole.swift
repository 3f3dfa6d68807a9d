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
    /// When the holder took it, by its own clock (the claim's
    /// `claimed_ms`, at most its stamp; else the stamp), milliseconds.
    public private(set) var since: Int64?
    /// Whether the holder moved it to itself (rather than ran first).
    public private(set) var moved: Bool
    /// The holder before the current one.
    public private(set) var previous: String?

    /// How long a device that took the role waits before it acts, where
    /// devices share a sync folder.
    public static let settleMillis: Int64 = 5 * 60_000

    public init(device: String? = nil, since: Int64? = nil, moved: Bool = false, previous: String? = nil) {
        self.device = device
        self.since = since
        self.moved = moved
        self.previous = previous
    }

    /// A recorded claim, folded in stamp order: the first stands; a move
    /// takes it over. `claimedMs` (the claimer's clock) counts only up to
    /// the stamp: a peer's clock ahead does not hold the role up for longer.
    public mutating func claimed(by d: String, moved m: Bool, stampMs: Int64, claimedMs: Int64? = nil) {
        guard device == nil || m else { return }
        if let cur = device, cur != d { previous = cur }
        device = d
        since = claimedMs.map { min(max($0, 0), stampMs) } ?? stampMs
        moved = m
    }

    /// A recorded claim (an event of the role's type), folded.
    public mutating func apply(_ e: JSONObject, stampMs: Int64) {
        guard let d = e["device"]?.string else { return }
        claimed(by: d, moved: e["moved"]?.bool == true, stampMs: stampMs, claimedMs: e["claimed_ms"]?.int)
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

    /// What `decide` says: the claim to record (nil when the journal
    /// already says so) and, when this device may not act, why and whether
    /// that needs a person even from cron (`news`: the configuration and the
    /// journal disagree), else it is the normal answer on every other device.
    public struct Verdict: Equatable, Sendable {
        public var record: JSONObject?
        public var refusal: String?
        public var news: Bool
    }

    /// Whether device `me` may hand records over at `now`, before anything
    /// is written: `configured` (the configuration key) names the device
    /// when set; otherwise the journal's holder, or `me` when nobody holds
    /// it yet.
    public func decide(device me: String, configured: String?, takeOver: Bool, words: Words,
                       configPath: String, now: Instant) -> Verdict {
        let moveHere: JSONObject? = device == me
            ? nil : ["type": .string(words.key), "device": .string(me), "moved": true, "claimed_ms": .int(now.ms)]
        if let c = configured, !c.isEmpty, !takeOver {
            guard c == me else {
                return Verdict(record: nil, refusal: "\(words.things) are sent from the device '\(c)' (\(words.key) in \(configPath)); this device is '\(me)': change \(words.key) there to send them from here", news: false)
            }
            // Named here, but another device took the role over from this
            // one since: not fought over (two devices each named in their
            // own configuration would take it in turns and never act).
            if let d = device, d != me, moved, previous == me {
                return Verdict(record: nil, refusal: "\(words.things) are sent from the device '\(d)', which took the role over from this one, though \(words.key) in \(configPath) names this device '\(me)': remove \(words.key) there (or name '\(d)'), or run '\(words.command) --take-over' here to send them from this one again", news: true)
            }
            return Verdict(record: moveHere, refusal: nil, news: false)
        }
        if takeOver { return Verdict(record: moveHere, refusal: nil, news: false) }
        guard let d = device else {
            return Verdict(record: ["type": .string(words.key), "device": .string(me), "claimed_ms": .int(now.ms)], refusal: nil, news: false)
        }
        guard d == me else {
            let how = moved ? "which took the role over" : "where '\(words.command)' ran first"
            return Verdict(record: nil, refusal: "\(words.things) are sent from the device '\(d)', \(how); this device is '\(me)': run '\(words.command) --take-over' here to send them from this one instead (it starts \(DeviceRole.settleMillis / 60_000) minutes later, once the others have seen it)", news: false)
        }
        return Verdict(record: nil, refusal: nil, news: false)
    }

    /// Until when device `me`, the holder, waits before it acts at `now`:
    /// nil when it may act. Only where devices share a sync folder (else
    /// there is nobody to wait for); a device named in the configuration
    /// waits too, for a take-over elsewhere to be seen.
    public func settling(device me: String, shared: Bool, now: Instant) -> Instant? {
        guard shared, device == me, let t = since, now.ms - t < DeviceRole.settleMillis else { return nil }
        return Instant(ms: t + DeviceRole.settleMillis)
    }

    /// The note a settling holder gives.
    public static func settlingNote(_ words: Words, from: String) -> String {
        "this device took the role of sending \(words.things); it sends them from \(from), once the other devices' copies have had time to arrive (of two that took it at once, the first sends)"
    }

    /// The refusal when `configured` names a device that has written
    /// nothing where this copy can see it (a misspelt name, a device never
    /// set up): records wait for a device that will never hand them over.
    public static func unknownDevice(_ configured: String, words: Words, configPath: String, known: [String]) -> String {
        "\(words.key) = \(configured) in \(configPath) names no device sharing this folder (devices: \(known.sorted().joined(separator: ", "))): \(words.things) wait for it"
    }

    /// The configuration error when `configured` names another device that
    /// no journal here belongs to (`known`, read only when asked) while
    /// records wait; nil otherwise.
    public static func misnamed(_ configured: String?, device me: String, waiting: Bool, words: Words, configPath: String,
                                known: () throws(ToolError) -> [String]) throws(ToolError) -> ToolError? {
        guard let c = configured, !c.isEmpty, c != me, waiting else { return nil }
        let k = try known()
        return k.contains(c) ? nil : ToolError(.config, unknownDevice(c, words: words, configPath: configPath, known: k))
    }
}
