// playa's domain: recipients with message pools and schedules, the day's
// generated events, status transitions and deep links. Pure values and
// functions; the journal model is in PlayaModel.swift.

public enum Playa {
    public static let maxRecipients = 50
    public static let maxMessages = 100
    public static let maxMessageLength = 500
    /// A message's cap in bytes of UTF-8, so that no one "character" (a
    /// grapheme cluster can hold any number of combining marks) is megabytes.
    public static let maxMessageBytes = 4000
    /// The least time between two random times of one recipient's day.
    public static let minimumSpacingMinutes = 30
    public static let windowStart = TimeOfDay(hour: 9, minute: 0)
    public static let windowEnd = TimeOfDay(hour: 21, minute: 0)

    public enum Platform: String, Sendable, CaseIterable { case whatsapp, sms, instagram }

    public enum Schedule: Equatable, Sendable {
        case random(Int)  // N a day, 1...10
        case fixed([TimeOfDay])

        public var json: JSON {
            switch self {
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
            default: return nil
            }
        }

        public var summary: String {
            switch self {
            case .random(let n): return "random \(n)/day"
            case .fixed(let ts): return "fixed " + ts.map(\.description).joined(separator: ",")
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
        public var paused: Bool
        public var schedule: Schedule
        public var messages: [Message]

        /// The handle shown to people; never logged.
        public var address: String { platform == .instagram ? "@" + (username ?? "") : (phone?.e164 ?? "") }

        public var json: JSONObject {
            ["type": "recipient", "id": .string(id), "name": .string(name), "platform": .string(platform.rawValue),
             "phone": JSON(phone?.e164), "username": JSON(username), "paused": .bool(paused), "schedule": schedule.json,
             "messages": .array(messages.map { .object(["id": .string($0.id), "text": .string($0.text)]) })]
        }

        /// Reads a recipient back, checking every rule (the error names the
        /// field and what it must be, never a number or a message's text);
        /// `trusted` data from the journal skips the costly checks.
        public static func from(_ o: JSONObject, trusted: Bool = false) -> Result<Recipient, ToolError> {
            func bad(_ m: String) -> Result<Recipient, ToolError> { .failure(.data(m)) }
            if !trusted, let e = typeProblem(o, strings: ["id", "name", "platform", "phone", "username"], bools: ["paused"],
                                             arrays: ["messages"], objects: ["schedule"]) {
                return bad("recipient: \(e)")
            }
            guard let id = o["id"]?.string, !id.isEmpty else { return bad("a recipient needs an \"id\"") }
            guard let name = o["name"]?.string else { return bad("recipient \(id): \"name\" must be a string") }
            if !trusted, let e = validateName(name) { return bad("recipient \(id): \(e)") }
            guard let p = o["platform"]?.string.flatMap(Platform.init(rawValue:)) else {
                return bad("recipient \(id): \"platform\" must be whatsapp, sms or instagram")
            }
            var phone: PhoneNumber? = nil
            var username: String? = nil
            if p == .instagram {
                guard let u = o["username"]?.string, trusted || validateUsername(u) == nil else {
                    return bad("recipient \(id): \"username\" must be an Instagram username: 1 to 30 letters, digits, '_' or '.', not starting or ending with '.', no '..'")
                }
                username = u
            } else {
                guard let s = o["phone"]?.string, let ph = trusted ? PhoneNumber(e164: s) : try? PhoneNumber.parseE164(s) else {
                    return bad("recipient \(id): \"phone\" must be in E.164 form like +14155550132")
                }
                phone = ph
            }
            guard let sched = Schedule.from(o["schedule"]) else {
                return bad("recipient \(id): \"schedule\" must be {\"mode\":\"random\",\"per_day\":1-10} or {\"mode\":\"fixed\",\"times\":[\"HH:MM\",…]}")
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
            return .success(Recipient(id: id, name: name, platform: p, phone: phone, username: username,
                                      paused: o["paused"]?.bool ?? false, schedule: sched, messages: messages))
        }
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
            return o
        }

        /// Reads an event back; untrusted (imported) events have each field
        /// checked, a date from 2000 on and a plausible time (`Clock.plausible`;
        /// events may lie ahead).
        public static func from(_ o: JSONObject, trusted: Bool = false) -> Result<Event, ToolError> {
            func bad(_ m: String) -> Result<Event, ToolError> { .failure(.data(m)) }
            if !trusted {
                let what = o["id"]?.string.map { "event \($0)" } ?? "event"
                if let e = typeProblem(o, strings: ["id", "recipient_id", "date", "time", "at", "message", "status", "message_id",
                                                    "notification", "error", "claim", "claim_until"]) {
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
                if let u = o["claim_until"]?.string, RFC3339.parse(u) == nil {
                    return bad("\(what): \"claim_until\" must be an RFC 3339 time like 2026-11-22T08:15:00-05:00")
                }
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
            return .success(Event(id: id, recipientID: rid, date: date, time: time, at: at, messageID: o["message_id"]?.string,
                                  message: msg, status: st, notification: o["notification"]?.string.flatMap(notificationState) ?? .pending,
                                  error: o["error"]?.string, claim: o["claim"]?.string, claimUntil: claimUntil))
        }
    }

    // MARK: Validation (messages never echo phone numbers or message text)

    public static func validateName(_ s: String) -> String? {
        let t = s.trimmingSpaces
        if Text.isBlank(t) { return "a name must not be empty" }
        if t.count > 80 { return "a name must be at most 80 characters" }
        return nil
    }

    /// Instagram's rules: 1 to 30 letters, digits, `_` and `.`, neither
    /// starting nor ending with `.`, and no `..`.
    public static func validateUsername(_ s: String) -> String? {
        let hint = "an Instagram username is 1 to 30 letters, digits, '_' or '.'"
        guard (1...30).contains(s.unicodeScalars.count), s.unicodeScalars.allSatisfy({
            ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "_" || $0 == "."
        }) else { return hint }
        if s.hasPrefix(".") || s.hasSuffix(".") { return hint + ", and does not start or end with '.'" }
        if s.utf8.indices.dropLast().contains(where: { i in s.utf8[i] == 0x2E && s.utf8[s.utf8.index(after: i)] == 0x2E }) {
            return hint + ", with no two '.' in a row"
        }
        return nil
    }

    /// A username as typed, with the `@` people write before it dropped.
    public static func normalizeUsername(_ s: String) -> String {
        let t = s.trimmingSpaces
        return t.hasPrefix("@") ? String(t.dropFirst()) : t
    }

    /// Something to read (not only spaces or invisible characters), at most
    /// 500 characters as a person counts them and 4,000 bytes of UTF-8.
    public static func validateMessage(_ s: String) -> String? {
        if s.trimmingSpaces.isEmpty { return "a message must not be empty" }
        if Text.isBlank(s) { return "a message must not be only spaces or invisible characters" }
        if s.utf8.count > maxMessageBytes { return "a message must be at most \(maxMessageBytes) bytes of UTF-8 (this one has \(s.utf8.count))" }
        if s.count > maxMessageLength { return "a message must be at most \(maxMessageLength) characters (this one has \(s.count))" }
        return nil
    }

    public static func parseSchedule(random: String?, fixed: String?) throws(ToolError) -> Schedule {
        switch (random, fixed) {
        case (let r?, nil):
            guard let n = Int(r), (1...10).contains(n) else { throw .usage("--random must be 1 to 10 messages a day, not '\(r)'") }
            return .random(n)
        case (nil, let f?):
            var ts: [TimeOfDay] = []
            for part in f.split(separator: ",", omittingEmptySubsequences: false) {
                guard let t = TimeOfDay.parse(String(part).trimmingSpaces) else {
                    throw .usage("--fixed takes times like 09:30,18:00 (HH:MM, 24-hour), not '\(part)'")
                }
                if !ts.contains(t) { ts.append(t) }
            }
            guard !ts.isEmpty else { throw .usage("--fixed needs at least one time, like 09:30") }
            return .fixed(ts.sorted())
        case (nil, nil): throw .usage("schedule needs --random N (1-10 a day) or --fixed HH:MM[,HH:MM…]")
        default: throw .usage("use --random or --fixed, not both")
        }
    }

    // MARK: Generation

    /// A stable 64-bit hash (FNV-1a), for seeding per recipient and day.
    public static func stableHash(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    /// The day's events for one recipient: N random minutes in 09:00–21:00,
    /// at least `minimumSpacingMinutes` apart (fewer when a late run has less
    /// of the window left), or the fixed times, each with a message drawn from
    /// the pool. Times before `notBefore` are not scheduled (a late run).
    /// Empty pool: nothing. Pure given the generator.
    public static func plan<G: RandomNumberGenerator>(_ r: Recipient, date: Day, zone: Zone, notBefore: Instant?,
                                                      rng: inout G) -> [Event] {
        guard !r.messages.isEmpty, !r.paused else { return [] }
        var times: [TimeOfDay]
        switch r.schedule {
        case .fixed(let ts):
            times = ts
        case .random(let n):
            var lo = windowStart.secondsOfDay / 60
            let hi = windowEnd.secondsOfDay / 60
            if let nb = notBefore, zone.day(of: nb) == date {
                let l = zone.local(nb)
                lo = max(lo, l.time.hour * 60 + l.time.minute + 1)
            }
            guard hi >= lo else { return [] }
            times = spacedMinutes(n, lo: lo, hi: hi, gap: minimumSpacingMinutes, rng: &rng).map { TimeOfDay(hour: $0 / 60, minute: $0 % 60) }
        }
        var out: [Event] = []
        for t in times {
            let at = zone.resolve(LocalDateTime(day: date, time: t))
            if let nb = notBefore, at <= nb { continue }
            let m = r.messages[Int.random(in: 0..<r.messages.count, using: &rng)]
            out.append(Event(id: IDs.make(using: &rng), recipientID: r.id, date: date, time: t, at: at, messageID: m.id,
                             message: m.text, status: .pending, notification: .pending, error: nil))
        }
        return out
    }

    /// `n` minutes in `lo...hi`, sorted, each at least `gap` after the one
    /// before, uniformly among all such choices: `n` draws in the range
    /// shortened by the gaps, sorted, then spread out by `i * gap`. Fewer when
    /// the range cannot hold `n`.
    public static func spacedMinutes<G: RandomNumberGenerator>(_ n: Int, lo: Int, hi: Int, gap: Int, rng: inout G) -> [Int] {
        guard hi >= lo, n > 0 else { return [] }
        let want = min(n, (hi - lo) / max(gap, 1) + 1)
        let top = hi - (want - 1) * gap
        let draws = (0..<want).map { _ in Int.random(in: lo...top, using: &rng) }.sorted()
        return draws.enumerated().map { $0.element + $0.offset * gap }
    }

    /// The only moves a status may make: pending → sent, cancelled or
    /// missed; missed → sent (sent late after all) or cancelled.
    public static func canMove(_ from: Status, to: Status) -> Bool {
        switch (from, to) {
        case (.pending, .sent), (.pending, .cancelled), (.pending, .missed), (.missed, .sent), (.missed, .cancelled): return true
        default: return false
        }
    }

    // MARK: Deep links (RFC 3986 percent-encoding, RFC 5724 sms:)

    /// Everything but RFC 3986's unreserved characters is percent-encoded,
    /// as UTF-8 with upper-case hex: spaces become %20, and `&`, `=`, `#`,
    /// `?`, `+` can never add or change a query parameter.
    public static func percentEncode(_ s: String) -> String {
        var out = [UInt8]()
        let hex = Array("0123456789ABCDEF".utf8)
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(b)
            default:
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func percentDecode(_ s: String) -> String? {
        var out = [UInt8]()
        let u = Array(s.utf8)
        var i = 0
        func val(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 65...70: return c - 55
            case 97...102: return c - 87
            default: return nil
            }
        }
        while i < u.count {
            if u[i] == UInt8(ascii: "%") {
                guard i + 2 < u.count, let a = val(u[i + 1]), let b = val(u[i + 2]) else { return nil }
                out.append(a << 4 | b)
                i += 3
            } else {
                out.append(u[i])
                i += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    public static func link(_ r: Recipient, message: String, web: Bool = false) -> String {
        switch r.platform {
        case .whatsapp:
            let digits = String(r.phone?.e164.dropFirst() ?? "")
            return web ? "https://wa.me/\(digits)?text=\(percentEncode(message))"
                       : "whatsapp://send?phone=\(digits)&text=\(percentEncode(message))"
        case .sms:
            return "sms:\(r.phone?.e164 ?? "")?body=\(percentEncode(message))"
        case .instagram:
            return web ? "https://ig.me/m/\(percentEncode(r.username ?? ""))"
                       : "instagram://user?username=\(percentEncode(r.username ?? ""))"
        }
    }

    public struct ParsedLink: Equatable, Sendable {
        public var platform: Platform
        public var address: String
        public var text: String?
    }

    /// Reads a link built by `link` back: the round-trip check.
    public static func parseLink(_ url: String) -> ParsedLink? {
        func query(_ q: Substring) -> [String: String]? {
            var out: [String: String] = [:]
            for pair in q.split(separator: "&", omittingEmptySubsequences: false) {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard kv.count == 2, out[String(kv[0])] == nil, let v = percentDecode(String(kv[1])) else { return nil }
                out[String(kv[0])] = v
            }
            return out
        }
        func split(_ rest: Substring) -> (Substring, Substring)? {
            guard let q = rest.firstIndex(of: "?") else { return nil }
            return (rest[..<q], rest[rest.index(after: q)...])
        }
        if url.hasPrefix("whatsapp://send?"), let q = query(url.dropFirst("whatsapp://send?".count)),
           q.count == 2, let p = q["phone"], let t = q["text"] {
            return ParsedLink(platform: .whatsapp, address: "+" + p, text: t)
        }
        if url.hasPrefix("https://wa.me/"), let (p, qs) = split(url.dropFirst("https://wa.me/".count)),
           let q = query(qs), q.count == 1, let t = q["text"] {
            return ParsedLink(platform: .whatsapp, address: "+" + p, text: t)
        }
        if url.hasPrefix("sms:"), let (p, qs) = split(url.dropFirst(4)), let q = query(qs), q.count == 1, let t = q["body"] {
            return ParsedLink(platform: .sms, address: String(p), text: t)
        }
        if url.hasPrefix("instagram://user?"), let q = query(url.dropFirst("instagram://user?".count)), q.count == 1, let u = q["username"] {
            return ParsedLink(platform: .instagram, address: u, text: nil)
        }
        if url.hasPrefix("https://ig.me/m/"), let u = percentDecode(String(url.dropFirst("https://ig.me/m/".count))), !u.isEmpty, !u.contains("/") {
            return ParsedLink(platform: .instagram, address: u, text: nil)
        }
        return nil
    }

    /// The notification for a due event: name, platform and time, a short
    /// preview, the link.
    public static func notification(_ e: Event, _ r: Recipient, commandPrefix: String) -> JSONObject {
        let preview = e.message.count > 80 ? String(e.message.prefix(77)) + "..." : e.message
        let n = NotificationRecord(
            tool: "playa", id: e.id, title: "Message \(r.name) on \(r.platform.rawValue) at \(e.time)", body: preview,
            url: link(r, message: e.message),
            actions: [NotificationAction(id: "open", label: "Open \(r.platform.rawValue)", command: "\(commandPrefix) open \(e.id)"),
                      NotificationAction(id: "cancel", label: "Skip", command: "\(commandPrefix) cancel \(e.id)")],
            extra: ["recipient": .string(r.name), "platform": .string(r.platform.rawValue), "date": .string(e.date.description),
                    "time": .string(e.time.description)])
        return n.record
    }
}
