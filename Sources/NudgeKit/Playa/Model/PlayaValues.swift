// playa's values: recipients with their platform, schedule and message
// pool, and the day's events with their status and notification hand-over.
// Each reads from and writes to JSON; what comes from a file is checked
// (`from(_:trusted:)`), never trusted.

extension Playa {
    public enum Platform: String, Sendable, CaseIterable {
        case whatsapp, sms, instagram, telegram, signal, email

        /// What reaches someone there: a phone number, a username, or an e-mail address.
        public enum Address { case phone, username, phoneOrUsername, email }
        public var address: Address {
            switch self {
            case .whatsapp, .sms, .signal: return .phone
            case .instagram: return .username
            case .telegram: return .phoneOrUsername
            case .email: return .email
            }
        }
        /// Whether its link can carry the message (Instagram's and Signal's cannot: it goes to the clipboard).
        public var carriesText: Bool { self != .instagram && self != .signal }
        public static let names = "whatsapp, sms, instagram, telegram, signal or email"
        /// Its name in messages: "WhatsApp", "SMS", "e-mail".
        public var display: String {
            [Platform.whatsapp: "WhatsApp", .sms: "SMS", .instagram: "Instagram", .telegram: "Telegram", .signal: "Signal", .email: "e-mail"][self]!
        }
    }

    public enum Schedule: Equatable, Sendable {
        case random(Int)  // N a day, 1...10
        case fixed([TimeOfDay])
        /// One reminder when due: a cadence after the last contact (Model/PlayaContacts.swift).
        case every(Cadence)

        public var cadence: Cadence? {
            if case .every(let c) = self { return c }
            return nil
        }

        public var json: JSON {
            switch self {
            case .every(let c): return c.json
            case .random(let n): return .object(["mode": "random", "per_day": JSON(n)])
            case .fixed(let ts): return .object(["mode": "fixed", "times": JSON(ts.map(\.description))])
            }
        }

        public static func from(_ j: JSON?) -> Schedule? {
            guard let o = j?.object else { return nil }
            switch o["mode"]?.string {
            case "random":
                guard let n = o["per_day"]?.int, (1...10).contains(n) else { return nil }
                return .random(Int(n))
            case "fixed":
                guard let arr = o["times"]?.array, !arr.isEmpty else { return nil }
                var ts: [TimeOfDay] = []
                for t in arr { guard let s = t.string, let tt = TimeOfDay.parse(s) else { return nil }; ts.append(tt) }
                return .fixed(ts)
            case "every":
                return Cadence.from(o).map { .every($0) }
            default: return nil
            }
        }

        public var summary: String {
            switch self {
            case .random(let n): return "random \(n)/day"
            case .fixed(let ts): return "fixed " + ts.map(\.description).joined(separator: ",")
            case .every(let c): return c.summary
            }
        }
    }

    public struct Message: Equatable, Sendable {
        public var id: String
        public var text: String
    }

    public struct Recipient: Equatable, Sendable {
        public var id: String
        public var name: String
        public var platform: Platform
        public var phone: PhoneNumber?
        public var username: String?
        /// The e-mail address of an `email` recipient.
        public var email: String? = nil
        public var paused: Bool
        public var schedule: Schedule
        /// The message pool, decoded when read (see `MessagePool`).
        var pool: MessagePool
        public var messages: [Message] {
            get { pool.messages }
            set { pool = .decoded(newValue) }
        }
        /// How many messages the pool holds, without decoding it.
        public var messageCount: Int { pool.count }
        /// What the day's draw is made from, with the day and the schedule
        /// and pool (`draw`): made once when the recipient is added and kept
        /// in the journal with it, so every device draws the same events.
        /// Recipients from before it draw from their id.
        public var drawSeed: UInt64? = nil
        /// Birthdays, anniversaries and other days (Model/PlayaDates.swift).
        public var dates: [Occasion] = []
        /// The UID of the vCard it was imported from (`recipient import`):
        /// importing the card again updates this recipient.
        public var card: String? = nil
        /// Every e-mail address the address book has for them (any
        /// platform), preferred first: what `contacted --mail` matches.
        public var emails: [String] = []
        /// Whether a day's draw can hold anything: messages, or dates.
        public var draws: Bool { messageCount > 0 || !dates.isEmpty }

        public init(id: String, name: String, platform: Platform, phone: PhoneNumber?, username: String?, paused: Bool,
                    schedule: Schedule, messages: [Message], drawSeed: UInt64? = nil, email: String? = nil) {
            self.email = email
            self.id = id
            self.name = name
            self.platform = platform
            self.phone = phone
            self.username = username
            self.paused = paused
            self.schedule = schedule
            self.pool = .decoded(messages)
            self.drawSeed = drawSeed
        }

        /// The seed the day's draw uses.
        public var seed: UInt64 { drawSeed ?? StableHash.fnv1a(id) }

        /// The handle shown to people; never logged.
        public var address: String {
            if let e = email, platform == .email { return e }
            if let u = username, platform.address != .phone { return "@" + u }
            return phone?.e164 ?? ""
        }

        public var json: JSONObject {
            var o: JSONObject = ["type": "recipient", "id": .string(id), "name": .string(name), "platform": .string(platform.rawValue),
                                 "phone": JSON(phone?.e164), "username": JSON(username), "paused": .bool(paused), "schedule": schedule.json,
                                 "messages": .array(messages.map { .object(["id": .string($0.id), "text": .string($0.text)]) })]
            if let d = drawSeed { o["draw_seed"] = .string(IDs.hex(d, digits: 16)) }
            o["email"] = JSON(email)
            if !dates.isEmpty { o["dates"] = .array(dates.map(\.json)) }
            if let c = card { o["card"] = .string(c) }
            if !emails.isEmpty { o["emails"] = JSON(emails) }
            return o
        }

        /// Reads a recipient back, checking every rule (the error names the
        /// field and what it must be, never a number or a message's text);
        /// `trusted` data from the journal skips the costly checks.
        public static func from(_ o: JSONObject, trusted: Bool = false) -> Result<Recipient, ToolError> {
            func bad(_ m: String) -> Result<Recipient, ToolError> { .failure(.data(m)) }
            if !trusted, let e = typeProblem(o, strings: ["id", "name", "platform", "phone", "username", "email", "draw_seed", "card"], bools: ["paused"],
                                             arrays: ["messages", "dates", "emails"], objects: ["schedule"]) {
                return bad("recipient: \(e)")
            }
            guard let id = o["id"]?.string, !id.isEmpty else { return bad("a recipient needs an \"id\"") }
            guard let name = o["name"]?.string else { return bad("recipient \(id): \"name\" must be a string") }
            if !trusted, let e = validateName(name) { return bad("recipient \(id): \(e)") }
            guard let p = o["platform"]?.string.flatMap(Platform.init(rawValue:)) else {
                return bad("recipient \(id): \"platform\" must be \(Platform.names)")
            }
            var phone: PhoneNumber? = nil
            var username: String? = nil
            var email: String? = nil
            // A peer's record is trusted with the costly phone check, never with an address's shape: it goes into links.
            func readPhone() -> String? {
                guard let s = o["phone"]?.string, trusted ? PhoneNumber.plausibleE164(s) : true,
                      let ph = trusted ? PhoneNumber(e164: s) : try? PhoneNumber.parseE164(s) else {
                    return "recipient \(id): \"phone\" must be in E.164 form like +14155550132"
                }
                phone = ph
                return nil
            }
            // Fields of another platform are refused, not dropped: an import says what it keeps.
            if !trusted {
                let given = ["phone", "username", "email"].filter { o[$0] != nil && o[$0] != .null }
                let takes: Set<String> = switch p.address {
                case .phone: ["phone"]
                case .username: ["username"]
                case .phoneOrUsername: ["phone", "username"]
                case .email: ["email"]
                }
                if let extra = given.first(where: { !takes.contains($0) }) {
                    return bad("recipient \(id): \(p.display) takes no \"\(extra)\"")
                }
                if given.count > 1 { return bad("recipient \(id): Telegram takes \"phone\" or \"username\", not both") }
            }
            switch p.address {
            case .username:
                guard let u = o["username"]?.string, validateUsername(u) == nil else {
                    return bad("recipient \(id): \"username\" must be an Instagram username: 1 to 30 letters, digits, '_' or '.', not starting or ending with '.', no '..'")
                }
                username = u
            case .phoneOrUsername:
                if let u = o["username"]?.string {
                    if let e = validateTelegramUsername(u) { return bad("recipient \(id): \"username\": \(e)") }
                    username = u
                } else if let e = readPhone() {
                    return bad(e + ", or \"username\" a Telegram username")
                }
            case .email:
                guard let e = o["email"]?.string, validateEmail(e) == nil else {
                    return bad("recipient \(id): \"email\" must be an e-mail address like ana@example.org")
                }
                email = e
            case .phone:
                if let e = readPhone() { return bad(e) }
            }
            guard let sched = Schedule.from(o["schedule"]) else {
                return bad("recipient \(id): \"schedule\" must be {\"mode\":\"random\",\"per_day\":1-10}, {\"mode\":\"fixed\",\"times\":[\"HH:MM\",…]} or {\"mode\":\"every\",\"count\":N,\"unit\":\"day\"|\"week\"|\"month\",\"since\":\"YYYY-MM-DD\"}")
            }
            var messages: [Message] = []
            var messageIDs = Set<String>()
            for (n, m) in (o["messages"]?.array ?? []).enumerated() {
                guard let mo = m.object else { return bad("recipient \(id): messages[\(n)] must be an object, not \(m.kindName)") }
                if !trusted, let e = typeProblem(mo, strings: ["id", "text"]) { return bad("recipient \(id): messages[\(n)]: \(e)") }
                guard let mid = mo["id"]?.string, let text = mo["text"]?.string else {
                    return bad("recipient \(id): each message needs \"id\" and \"text\"")
                }
                if !trusted, mid.isEmpty { return bad("recipient \(id): messages[\(n)]: \"id\" must not be empty") }
                if !trusted, let e = validateMessage(text) { return bad("recipient \(id): message \(mid): \(e)") }
                if !trusted, !messageIDs.insert(mid).inserted {
                    return bad("recipient \(id): messages[\(n)]: the id \(mid) is used twice; message ids are unique within a pool")
                }
                messages.append(Message(id: mid, text: text))
            }
            if messages.count > maxMessages { return bad("recipient \(id): at most \(maxMessages) messages") }
            var seed: UInt64? = nil
            if let s = o["draw_seed"]?.string {
                guard s.utf8.count == 16, let v = UInt64(s, radix: 16) else { return bad("recipient \(id): \"draw_seed\" must be 16 hex digits") }
                seed = v
            }
            var dates: [Occasion] = []
            for (n, d) in (o["dates"]?.array ?? []).enumerated() {
                guard let oc = Occasion.from(d), !dates.contains(where: { $0.label.lowercased() == oc.label.lowercased() }) else {
                    return bad("recipient \(id): dates[\(n)] must be {\"label\",\"month\",\"day\",\"year\"?,\"before\":0-\(Occasion.maxBefore),\"messages\":[…]} with a label used once")
                }
                dates.append(oc)
            }
            if dates.count > Occasion.maxPerRecipient { return bad("recipient \(id): at most \(Occasion.maxPerRecipient) dates") }
            var r = Recipient(id: id, name: name, platform: p, phone: phone, username: username,
                              paused: o["paused"]?.bool ?? false, schedule: sched, messages: messages, drawSeed: seed, email: email)
            r.dates = dates
            if let c = o["card"]?.string {
                if !trusted, let e = validateCardUID(c) { return bad("recipient \(id): \"card\" \(e)") }
                r.card = c
            }
            for (n, e) in (o["emails"]?.array ?? []).enumerated() {
                guard let s = e.string, trusted || validateEmail(s) == nil else {
                    return bad("recipient \(id): emails[\(n)] must be an e-mail address like ana@example.org")
                }
                r.emails.append(s)
            }
            if r.emails.count > maxCardEmails { return bad("recipient \(id): at most \(maxCardEmails) \"emails\"") }
            return .success(r)
        }
    }

    /// A recipient's messages, or the snapshot's bytes for them — a flat JSON
    /// array of id, text, id, text… — decoded each time they are read (bind
    /// them once): `queue` and `due` read recipients but never their pools.
    /// The bytes are a checksummed snapshot's, written by `hotSnapshot`.
    enum MessagePool: Equatable, Sendable {
        case decoded([Message])
        case raw(Bytes, count: Int)

        var count: Int {
            switch self {
            case .decoded(let m): return m.count
            case .raw(_, let n): return n
            }
        }

        var messages: [Message] {
            switch self {
            case .decoded(let m): return m
            case .raw(let b, _):
                let flat = (try? b.withUnsafeBytes { (p) throws(JSONParseError) in try JSON.parse(p) })?.array ?? []
                return MessagePool.messages(flat: flat) ?? []
            }
        }

        /// Messages `ks` (indices into the pool, in any order, repeats
        /// allowed), nil for an index out of range. A raw pool is scanned
        /// once, up to the last index wanted, and only those messages are
        /// decoded: the day's draw reads a few of a pool's messages. nil when
        /// the bytes are not a flat list as `hotSnapshot` writes it (then
        /// `messages` decides).
        func messages(at ks: [Int]) -> [Message?]? {
            switch self {
            case .decoded(let m): return ks.map { m.indices.contains($0) ? m[$0] : nil }
            case .raw(let b, let n): return b.withUnsafeBytes { MessagePool.flatPairs(ks, in: $0, count: n) }
            }
        }

        /// The pairs of strings `2k`, `2k + 1` of a compact JSON array of
        /// strings (`["id","text",…]`, no spaces, `count` pairs), each decoded
        /// by the JSON parser; nil when the bytes are not in that form.
        static func flatPairs(_ ks: [Int], in b: UnsafeRawBufferPointer, count: Int) -> [Message?]? {
            var out = [Message?](repeating: nil, count: ks.count)
            guard let last = ks.filter({ $0 >= 0 && $0 < count }).max() else { return out }
            guard b.count >= 2, b[0] == UInt8(ascii: "[") else { return nil }
            let base = b.baseAddress!
            var p = JSONByteParser(b)
            p.i = 1
            // Skips the string opening at p.i: it ends at the first quote
            // after an even run of backslashes.
            func skipString() -> Bool {
                guard p.i < p.end, b[p.i] == UInt8(ascii: "\"") else { return false }
                p.i += 1
                while p.i < p.end, let q = memchr(base + p.i, 0x22, p.end - p.i) {
                    let at = base.distance(to: UnsafeRawPointer(q))
                    var slashes = 0
                    while b[at - 1 - slashes] == UInt8(ascii: "\\") { slashes += 1 }
                    p.i = at + 1
                    if slashes % 2 == 0 { return true }
                }
                return false
            }
            func string() -> String? {
                guard p.i < p.end, b[p.i] == UInt8(ascii: "\"") else { return nil }
                return try? p.string()
            }
            func comma() -> Bool {
                guard p.i < p.end, b[p.i] == UInt8(ascii: ",") else { return false }
                p.i += 1
                return true
            }
            for k in 0...last {
                if k > 0 { guard comma() else { return nil } }
                guard ks.contains(k) else {
                    guard skipString(), comma(), skipString() else { return nil }
                    continue
                }
                guard let id = string(), comma(), let text = string() else { return nil }
                for (j, want) in ks.enumerated() where want == k { out[j] = Message(id: id, text: text) }
            }
            guard p.i < p.end, b[p.i] == (last == count - 1 ? UInt8(ascii: "]") : UInt8(ascii: ",")) else { return nil }
            return out
        }

        /// Messages from a flat list of id, text, id, text…; nil when it is not one.
        static func messages(flat: [JSON]) -> [Message]? {
            guard flat.count % 2 == 0 else { return nil }
            var out: [Message] = []
            out.reserveCapacity(flat.count / 2)
            var k = 0
            while k < flat.count {
                guard let id = flat[k].string, let text = flat[k + 1].string else { return nil }
                out.append(Message(id: id, text: text))
                k += 2
            }
            return out
        }

        static func == (a: MessagePool, b: MessagePool) -> Bool { a.messages == b.messages }
    }

    /// The first field of `o` that is present (not null) with the wrong JSON
    /// type, named with the type it must have; nil when all fit.
    static func typeProblem(_ o: JSONObject, strings: [String] = [], bools: [String] = [], arrays: [String] = [],
                            objects: [String] = []) -> String? {
        func check(_ keys: [String], _ type: String, _ fits: (JSON) -> Bool) -> String? {
            for k in keys { if let v = o[k], !v.isNull, !fits(v) { return "\"\(k)\" must be \(type), not \(v.kindName)" } }
            return nil
        }
        return check(strings, "a string", { $0.string != nil }) ?? check(bools, "a boolean", { $0.bool != nil })
            ?? check(arrays, "an array", { $0.array != nil }) ?? check(objects, "an object", { $0.object != nil })
    }

    /// `missed`: a past day's event nobody sent (set by `generate`).
    public enum Status: String, Sendable, CaseIterable { case pending, sent, cancelled, missed }

    /// Where an event's notification is, as playa words it (`notification`
    /// in events and records; the lifecycle is Core/Delivery.swift's):
    /// `scheduled` (pending); `sending`, claimed by a run until its claim
    /// expires (then `unknown`); `delivered`; `failed`, tried again by the
    /// next run; `unknown` (the run died, or the command timed out), not
    /// handed over again unless asked (`due --retry-unknown`): at most once.
    public static func word(_ s: DeliveryState) -> String { s == .pending ? "scheduled" : s.rawValue }

    /// The state a `notification` word names; nil for none of playa's words.
    public static func notificationState(_ w: String) -> DeliveryState? {
        w == "scheduled" ? .pending : w == "pending" ? nil : DeliveryState(rawValue: w)
    }

    public struct Event: Equatable, Sendable {
        public var id: String
        public var recipientID: String
        public var date: Day
        public var time: TimeOfDay
        public var at: Instant
        public var messageID: String?
        public var message: String
        public var status: Status
        public var error: String?
        /// Its notification's way to the notify command: the state as
        /// recorded (see `delivery(at:)` for its meaning now), the claim of
        /// the run notifying it and when that claim expires.
        public var handover: Handover
        public var notification: DeliveryState {
            get { handover.state }
            set { handover.state = newValue }
        }

        public init(id: String, recipientID: String, date: Day, time: TimeOfDay, at: Instant, messageID: String?, message: String,
                    status: Status, notification: DeliveryState, error: String?, claim: String? = nil, claimUntil: Instant? = nil) {
            self.id = id
            self.recipientID = recipientID
            self.date = date
            self.time = time
            self.at = at
            self.messageID = messageID
            self.message = message
            self.status = status
            self.error = error
            self.handover = Handover(state: notification, claim: claim, claimUntil: claimUntil)
        }

        /// The notification state at `now`: a claim past its expiry is `unknown`.
        public func delivery(at now: Instant) -> DeliveryState { handover.state(at: now) }

        public var json: JSONObject {
            var o: JSONObject = ["type": "event", "id": .string(id), "recipient_id": .string(recipientID), "date": .string(date.description),
                                 "time": .string(time.description), "at": .string(at.description), "message_id": JSON(messageID),
                                 "message": .string(message), "status": .string(status.rawValue), "notification": .string(word(notification)),
                                 "error": JSON(error)]
            if let c = handover.claim { o["claim"] = .string(c) }
            if let u = handover.claimUntil { o["claim_until"] = .string(u.description) }
            if handover.failures > 0 { o["failures"] = JSON(handover.failures) }
            if let r = handover.retryAt { o["retry_at"] = .string(r.description) }
            return o
        }

        /// Reads an event back; untrusted (imported) events have each field
        /// checked, a date from 2000 on and a plausible time (`Clock.plausible`;
        /// events may lie ahead).
        public static func from(_ o: JSONObject, trusted: Bool = false) -> Result<Event, ToolError> {
            // Lines as `json` writes them are read by position (`fromFields`).
            if trusted, let ev = fromFields(o) { return .success(ev) }
            return fromEachField(o, trusted: trusted)
        }

        /// `from`, each field looked up by name.
        static func fromEachField(_ o: JSONObject, trusted: Bool) -> Result<Event, ToolError> {
            func bad(_ m: String) -> Result<Event, ToolError> { .failure(.data(m)) }
            if !trusted {
                let what = o["id"]?.string.map { "event \($0)" } ?? "event"
                if let e = typeProblem(o, strings: ["id", "recipient_id", "date", "time", "at", "message", "status", "message_id",
                                                    "notification", "error", "claim", "claim_until", "retry_at"]) {
                    return bad("\(what): \(e)")
                }
                for k in ["id", "recipient_id", "date", "time", "at", "message", "status"] where o[k] == nil || o[k]!.isNull {
                    return bad("\(what): missing \"\(k)\"")
                }
                guard let d = o["date"]?.string.flatMap(Day.parse) else { return bad("\(what): \"date\" must be YYYY-MM-DD") }
                if let e = Clock.plausible(day: d, what: "\"date\"") { return bad("\(what): \(e.message)") }
                if o["time"]?.string.flatMap(TimeOfDay.parse) == nil { return bad("\(what): \"time\" must be HH:MM") }
                guard let at = o["at"]?.string.flatMap({ RFC3339.parse($0)?.instant }) else {
                    return bad("\(what): \"at\" must be an RFC 3339 time like 2026-11-22T08:15:00-05:00")
                }
                if let e = Clock.plausible(at, now: at, what: "\"at\"", lead: nil) { return bad("\(what): \(e.message)") }
                if o["status"]?.string.flatMap(Status.init(rawValue:)) == nil { return bad("\(what): \"status\" must be pending, sent, cancelled or missed") }
                if let n = o["notification"]?.string, notificationState(n) == nil {
                    return bad("\(what): \"notification\" must be scheduled, sending, delivered, failed or unknown")
                }
                for k in ["claim_until", "retry_at"] {
                    if let u = o[k]?.string, RFC3339.parse(u) == nil {
                        return bad("\(what): \"\(k)\" must be an RFC 3339 time like 2026-11-22T08:15:00-05:00")
                    }
                }
                if let f = o["failures"], !f.isNull, (f.int ?? -1) < 0 { return bad("\(what): \"failures\" must be a whole number") }
                if o["id"]?.string == "" { return bad("\(what): \"id\" must not be empty") }
            }
            guard let id = o["id"]?.string, let rid = o["recipient_id"]?.string,
                  let date = o["date"]?.string.flatMap(Day.parse), let time = o["time"]?.string.flatMap(TimeOfDay.parse),
                  let at = o["at"]?.string.flatMap({ RFC3339.parse($0)?.instant }), let msg = o["message"]?.string,
                  let st = o["status"]?.string.flatMap(Status.init(rawValue:)) else {
                return bad("an event needs id, recipient_id, date, time, at, message and status (pending, sent, cancelled or missed)")
            }
            if !trusted, let e = validateMessage(msg) { return bad("event \(id): \(e)") }
            let claimUntil = o["claim_until"]?.string.flatMap { RFC3339.parse($0)?.instant }
            var ev = Event(id: id, recipientID: rid, date: date, time: time, at: at, messageID: o["message_id"]?.string,
                           message: msg, status: st, notification: o["notification"]?.string.flatMap(notificationState) ?? .pending,
                           error: o["error"]?.string, claim: o["claim"]?.string, claimUntil: claimUntil)
            ev.handover.failures = Int(o["failures"]?.int ?? 0)
            ev.handover.retryAt = o["retry_at"]?.string.flatMap { RFC3339.parse($0)?.instant }
            return .success(ev)
        }
    }
}
