// tenclub V3: the accountability buddy. Consent by text, an outbox of SMS
// records, and the rules that decide what may be sent to whom. Pure: every
// function takes the state and returns the events to record.

extension Tenclub {
    /// The seed's invitation, word for word (straight quotes, so it stays a
    /// plain GSM-7 text message).
    public static let invitationText = "Hi there, your friend has requested that you help them manage their screentime by acting as their Tenclub accountability buddy. You will receive a text each time they fail to stay within the limit of ten unlocks per day. To accept this request, respond with \"YES\", otherwise ignore and you will not be texted. You can text \"STOP\" at any time to no longer receive messages."

    /// The seed's alert, with its typo ("yourhkh friend") fixed.
    public static let alertText = "This is the Tenclub accountabilitybot - your friend has exceeded their limit for today - don't be too hard on them! (Text STOP to unsubscribe)"

    /// Sent once after YES (or START): the opt-in confirmation.
    public static let welcomeText = "Thanks! You are now a Tenclub accountability buddy. You will get a text when your friend goes past ten screen unlocks in a day. Text STOP at any time to stop, HELP for help."

    /// The reply to HELP from an accepted buddy.
    public static let helpText = "Tenclub accountability texts: one text on a day your friend goes past ten screen unlocks. Text STOP to stop, START to resume."

    public enum Consent: String, Sendable, Equatable, CaseIterable {
        case invited, accepted, stopped
    }

    public struct Buddy: Equatable, Sendable {
        public var number: PhoneNumber
        public var name: String?
        public var consent: Consent
        public var since: String
    }

    public enum Keyword: String, Sendable, CaseIterable {
        case yes, start, stop, help, other
    }

    /// Carrier keywords, matched case-insensitively after trimming.
    public static func keyword(_ body: String) -> Keyword {
        switch body.trimmingSpaces.uppercased() {
        case "YES", "Y": return .yes
        case "START", "UNSTOP": return .start
        case "STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT": return .stop
        case "HELP", "INFO": return .help
        default: return .other
        }
    }

    /// The consent state machine: what a keyword does in each state.
    /// nil means no change. Every keyword in every state is in the tests.
    public static func transition(_ state: Consent, _ k: Keyword) -> Consent? {
        switch (state, k) {
        case (.invited, .yes), (.invited, .start): return .accepted
        case (.stopped, .yes), (.stopped, .start): return .accepted
        case (.invited, .stop), (.accepted, .stop): return .stopped
        default: return nil
        }
    }

    public struct OutMessage: Equatable, Sendable {
        public var id: String
        public var to: PhoneNumber
        public var body: String
        /// `invite`, `welcome`, `help` or `alert`.
        public var kind: String
        public var day: Day?
        public var queuedAt: String
        public var attempts: Int

        public var record: JSONObject {
            var r = SMSRecord(tool: "tenclub", id: id, to: to, body: body).record
            r["kind"] = .string(kind)
            if let d = day { r["date"] = .string(d.description) }
            r["queued_at"] = .string(queuedAt)
            r["attempts"] = JSON(attempts)
            return r
        }
    }

    // MARK: Decisions

    static func queue(_ kind: String, to: PhoneNumber, body: String, day: Day? = nil, at: String, id: String) -> JSONObject {
        var e: JSONObject = ["type": "sms_queued", "id": .string(id), "to": .string(to.e164), "body": .string(body),
                             "kind": .string(kind), "at": .string(at)]
        if let d = day { e["day"] = .string(d.description) }
        return e
    }

    /// `buddy set`: the events, and a note for the person when nothing is sent.
    public static func setBuddy(_ s: TenclubState, number: PhoneNumber, name: String?, at: String,
                                newID: () -> String) -> (events: [JSONObject], note: String?) {
        if let b = s.buddy, b.number == number {
            var events: [JSONObject] = []
            if name != nil && name != b.name {
                events.append(["type": "buddy_set", "number": .string(number.e164), "name": JSON(name), "at": .string(at), "keep": true])
            }
            return (events, "\(number.display) is already your buddy (\(b.consent.rawValue)); no new invitation sent")
        }
        var events: [JSONObject] = [["type": "buddy_set", "number": .string(number.e164), "name": JSON(name), "at": .string(at)]]
        if s.suppressed.contains(number.e164) {
            return (events, "\(number.display) has texted STOP: nothing will be sent until they text START")
        }
        events.append(queue("invite", to: number, body: invitationText, at: at, id: newID()))
        return (events, nil)
    }

    public struct InboundReport: Equatable, Sendable {
        public var effect: String
        public var reason: String?
    }

    /// One inbound text: the events it causes and what to report.
    public static func receive(_ s: TenclubState, from: PhoneNumber, body: String, at: String,
                               newID: () -> String) -> (events: [JSONObject], report: InboundReport) {
        let k = keyword(body)
        let isBuddy = s.buddy?.number == from
        var events: [JSONObject] = []
        // STOP is honoured from any number, buddy or not, and for good.
        if k == .stop && !s.suppressed.contains(from.e164) {
            events.append(["type": "consent", "number": .string(from.e164), "state": "stopped", "keyword": .string(body.trimmingSpaces), "at": .string(at)])
            if !isBuddy { return (events, InboundReport(effect: "stopped", reason: "not your buddy; no text will ever be sent to it")) }
        }
        guard let b = s.buddy, isBuddy else {
            if k == .stop { return (events, InboundReport(effect: "ignored", reason: "already stopped")) }
            if (k == .start || k == .yes) && s.suppressed.contains(from.e164) {
                events.append(["type": "consent", "number": .string(from.e164), "state": "accepted", "keyword": .string(body.trimmingSpaces), "at": .string(at)])
                return (events, InboundReport(effect: "unstopped", reason: "not your buddy; it may be invited again"))
            }
            return (events, InboundReport(effect: "ignored", reason: "not your buddy"))
        }
        switch k {
        case .help:
            if b.consent == .accepted {
                events.append(queue("help", to: from, body: helpText, at: at, id: newID()))
                return (events, InboundReport(effect: "help_queued", reason: nil))
            }
            return (events, InboundReport(effect: "ignored", reason: b.consent == .stopped
                ? "stopped: nothing is sent after STOP" : "not accepted yet: nothing but the invitation is sent before YES"))
        case .other:
            return (events, InboundReport(effect: "ignored", reason: "not a keyword (YES, STOP, START, HELP)"))
        default:
            guard let next = transition(b.consent, k) else {
                return (events, InboundReport(effect: "ignored", reason: "already \(b.consent.rawValue)"))
            }
            if next == .stopped { return (events, InboundReport(effect: "stopped", reason: nil)) }
            events.append(["type": "consent", "number": .string(from.e164), "state": .string(next.rawValue), "keyword": .string(body.trimmingSpaces), "at": .string(at)])
            events.append(queue("welcome", to: from, body: welcomeText, at: at, id: newID()))
            return (events, InboundReport(effect: next.rawValue, reason: nil))
        }
    }

    /// After unlocks were recorded for `day`: the alert to queue, if this is
    /// the moment today's count went past ten and the buddy has said YES.
    public static func alert(_ s: TenclubState, day: Day, before: Int, today: Day, at: String, id: String) -> JSONObject? {
        let after = s.unlocks(on: day)
        guard day == today, before <= limit, after > limit, !s.alertedDays.contains(day),
              let b = s.buddy, b.consent == .accepted, !s.suppressed.contains(b.number.e164) else { return nil }
        return queue("alert", to: b.number, body: alertText, day: day, at: at, id: id)
    }

    /// Whether a queued message may go out now; nil means yes, else why not.
    public static func dropReason(_ s: TenclubState, _ m: OutMessage) -> String? {
        if s.suppressed.contains(m.to.e164) { return "the number texted STOP" }
        guard let b = s.buddy, b.number == m.to else { return "no longer your buddy" }
        switch (m.kind, b.consent) {
        case ("invite", .invited): return nil
        case ("invite", _): return "already answered the invitation"
        case (_, .accepted): return nil
        default: return "has not said YES"
        }
    }

    /// `rollover`: the days to close, oldest first — every finished day from
    /// the first tracked one (or the day after the last closed) to yesterday.
    public static func daysToClose(_ s: TenclubState, today: Day) -> [Day] {
        guard let first = s.firstDay else { return [] }
        var d = s.closedThrough.map { $0.adding(days: 1) } ?? first
        var out: [Day] = []
        while d < today {
            out.append(d)
            d = d.adding(days: 1)
        }
        return out
    }
}
