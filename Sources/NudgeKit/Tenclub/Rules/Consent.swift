// The accountability buddy: consent by text, an outbox of SMS
// records, and the rules that decide what may be sent to whom. Pure: every
// function takes the state and returns the events to record.
//
// Invariants (the property tests check them over random interleavings):
// - Nothing but the invitation and answers to HELP goes to a number that has
//   not said YES (or START); nothing at all after STOP.
// - STOP, removing the buddy and changing it drop what is queued for that
//   number; an alert is queued on its day only, goes out on its day or the
//   day after (then naming its day), and is dropped after that.
// - Each text is handed to the sending command at most once: "sending" is
//   recorded first, and an unfinished send is `unknown`, never repeated by
//   itself (the lifecycle is Core/Delivery.swift's).

extension Tenclub {
    /// The invitation, word for word as the product gives it (straight quotes, so it stays a
    /// plain GSM-7 text message).
    public static let invitationText = "Hi there, your friend has requested that you help them manage their screentime by acting as their Tenclub accountability buddy. You will receive a text each time they fail to stay within the limit of ten unlocks per day. To accept this request, respond with \"YES\", otherwise ignore and you will not be texted. You can text \"STOP\" at any time to no longer receive messages."

    /// The alert as the product gives it, with its typo ("yourhkh friend") fixed.
    public static let alertText = "This is the Tenclub accountabilitybot - your friend has exceeded their limit for today - don't be too hard on them! (Text STOP to unsubscribe)"

    /// The alert handed over after its day (the gateway was down that
    /// evening): the same words, naming the day instead of "today".
    public static func lateAlertText(_ day: Day) -> String {
        "This is the Tenclub accountabilitybot - your friend exceeded their limit on \(day.spelledOut) - don't be too hard on them! (Text STOP to unsubscribe)"
    }

    /// How long after its day an alert may still go out: to the end of the next day.
    public static let lateAlertDays = 1

    /// Whether an alert of `day` may no longer go out on `today`.
    static func alertExpired(_ day: Day, today: Day) -> Bool { today - day > lateAlertDays }

    /// Why an expired alert was dropped.
    public static let alertExpiredReason = "expired: an alert goes out on its day or the day after, not later"

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

    /// A queued text's state as tenclub words it (`delivery` in the outbox,
    /// `state` in the snapshot): waiting is `queued`, again after a failure;
    /// `sending` until its claim expires; `unknown` when its run died or the
    /// command ran past its timeout, so it may have gone out (not handed over
    /// again by itself). A sent text leaves the outbox.
    public static func word(_ s: DeliveryState) -> String {
        switch s {
        case .pending, .failed: return "queued"
        case .sending: return "sending"
        case .delivered: return "sent"
        case .unknown: return "unknown"
        }
    }

    /// How a hand-over ended, as `sms deliver` and the log word it.
    public static func word(_ o: DeliveryOutcome) -> String { o == .delivered ? "sent" : o.rawValue }

    public struct OutMessage: Equatable, Sendable {
        public var id: String
        public var to: PhoneNumber
        public var body: String
        /// `invite`, `welcome`, `help` or `alert`.
        public var kind: String
        public var day: Day?
        public var queuedAt: String
        /// Sends that failed or ended unknown.
        public var attempts: Int
        /// Its way to the sending command.
        public var handover = Handover()
        /// Queued before its number texted STOP (it was being sent then):
        /// it never goes out, whatever comes after.
        public var beforeStop = false

        public init(id: String, to: PhoneNumber, body: String, kind: String, day: Day?, queuedAt: String, attempts: Int) {
            self.id = id
            self.to = to
            self.body = body
            self.kind = kind
            self.day = day
            self.queuedAt = queuedAt
            self.attempts = attempts
        }

        public var record: JSONObject {
            var r = SMSRecord(tool: "tenclub", id: id, to: to, body: body).record
            r["kind"] = .string(kind)
            if let d = day { r["date"] = .string(d.description) }
            r["queued_at"] = .string(queuedAt)
            r["attempts"] = JSON(attempts)
            return r
        }
    }

    /// One line of the delivery log: a text handed over (sent, failed,
    /// unknown) or dropped, with when and why.
    public struct LogEntry: Equatable, Sendable {
        public var id: String
        public var kind: String
        public var to: PhoneNumber
        public var body: String
        public var day: Day?
        public var queuedAt: String
        public var at: String
        /// `sent`, `failed`, `unknown` or `dropped`.
        public var outcome: String
        public var status: Int?
        public var reason: String?
        public var attempt: Int

        public var json: JSONObject {
            ["id": .string(id), "kind": .string(kind), "to": .string(to.e164), "body": .string(body), "date": JSON(day?.description),
             "queued_at": .string(queuedAt), "at": .string(at), "outcome": .string(outcome), "exit_status": JSON(status),
             "reason": JSON(reason), "attempt": JSON(attempt)]
        }

        public init(id: String, kind: String, to: PhoneNumber, body: String, day: Day?, queuedAt: String, at: String,
                    outcome: String, status: Int?, reason: String?, attempt: Int) {
            self.id = id
            self.kind = kind
            self.to = to
            self.body = body
            self.day = day
            self.queuedAt = queuedAt
            self.at = at
            self.outcome = outcome
            self.status = status
            self.reason = reason
            self.attempt = attempt
        }

        init?(_ o: JSONObject) {
            guard let id = o["id"]?.string, let kind = o["kind"]?.string, let to = o["to"]?.string, let body = o["body"]?.string,
                  let at = o["at"]?.string, let outcome = o["outcome"]?.string else { return nil }
            self.init(id: id, kind: kind, to: PhoneNumber(e164: to), body: body, day: o["date"]?.string.flatMap(Day.parse),
                      queuedAt: o["queued_at"]?.string ?? "", at: at, outcome: outcome, status: o["exit_status"]?.int.map(Int.init),
                      reason: o["reason"]?.string, attempt: Int(o["attempt"]?.int ?? 0))
        }

        /// The record `sms log` prints.
        public var record: JSONObject {
            var o: JSONObject = ["type": "sms_log"]
            for f in json.fields { o[f.key] = f.value }
            return o
        }
    }

    // MARK: Decisions

    static func queue(_ kind: String, to: PhoneNumber, body: String, day: Day? = nil, at: String, id: String) -> JSONObject {
        var e: JSONObject = ["type": "sms_queued", "id": .string(id), "to": .string(to.e164), "body": .string(body),
                             "kind": .string(kind), "at": .string(at)]
        if let d = day { e["day"] = .string(d.description) }
        return e
    }

    /// Drops every text queued for `number` (not one being sent: its
    /// outcome is on its way), with `reason`.
    public static func dropQueued(_ s: TenclubState, to number: String, reason: String, at: String) -> [JSONObject] {
        s.outbox.filter { $0.to.e164 == number && $0.handover.state != .sending }.map {
            ["type": "sms_dropped", "id": .string($0.id), "reason": .string(reason), "at": .string(at)]
        }
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
        var events: [JSONObject] = []
        if let old = s.buddy { events += dropQueued(s, to: old.number.e164, reason: "no longer your buddy", at: at) }
        events.append(["type": "buddy_set", "number": .string(number.e164), "name": JSON(name), "at": .string(at)])
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

    /// `buddy remove`: the events (nothing queued for them goes out).
    public static func removeBuddy(_ s: TenclubState, at: String) -> [JSONObject] {
        guard let b = s.buddy else { return [] }
        return dropQueued(s, to: b.number.e164, reason: "no longer your buddy", at: at)
            + [["type": "buddy_removed", "number": .string(b.number.e164), "at": .string(at)]]
    }

    /// One inbound text: the events it causes and what to report.
    public static func receive(_ s: TenclubState, from: PhoneNumber, body: String, at: String,
                               newID: () -> String) -> (events: [JSONObject], report: InboundReport) {
        let k = keyword(body)
        let isBuddy = s.buddy?.number == from
        var events: [JSONObject] = []
        // STOP is honoured from any number, buddy or not, and for good; what
        // was queued for it before goes nowhere.
        if k == .stop && !s.suppressed.contains(from.e164) {
            events += dropQueued(s, to: from.e164, reason: "the number texted STOP", at: at)
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
            // Carriers expect an answer to HELP from anyone invited; after
            // STOP nothing is sent at all.
            if b.consent != .stopped {
                if s.outbox.contains(where: { $0.to == from && $0.kind == "help" && $0.handover.state.isWaiting }) {
                    return (events, InboundReport(effect: "ignored", reason: "a help reply is already queued"))
                }
                events.append(queue("help", to: from, body: helpText, at: at, id: newID()))
                return (events, InboundReport(effect: "help_queued", reason: nil))
            }
            return (events, InboundReport(effect: "ignored", reason: "stopped: nothing is sent after STOP"))
        case .other:
            return (events, InboundReport(effect: "ignored", reason: "not a keyword (YES, STOP, START, HELP)"))
        default:
            guard let next = transition(b.consent, k) else {
                return (events, InboundReport(effect: "ignored", reason: "already \(b.consent.rawValue)"))
            }
            if next == .stopped { return (events, InboundReport(effect: "stopped", reason: nil)) }
            events.append(["type": "consent", "number": .string(from.e164), "state": .string(next.rawValue), "keyword": .string(body.trimmingSpaces), "at": .string(at)])
            if !s.outbox.contains(where: { $0.to == from && $0.kind == "welcome" && $0.handover.state.isWaiting }) {
                events.append(queue("welcome", to: from, body: welcomeText, at: at, id: newID()))
            }
            return (events, InboundReport(effect: next.rawValue, reason: nil))
        }
    }

    /// The alert to queue for `day`, if it is today, its count is past ten
    /// and no alert was queued for it on any device, and the buddy has said
    /// YES: asked after unlocks are recorded, and by `sms deliver`, so a day
    /// that passes ten only when two devices' copies merge (6 + 6) is
    /// alerted by whichever sees the merge. Its id is the day's
    /// (`alertID`): devices that each queued it before their copies met
    /// queued one text, and a send recorded on one is the send of all.
    public static func alert(_ s: TenclubState, day: Day, today: Day, at: String) -> JSONObject? {
        let after = s.unlocks(on: day)
        guard day == today, after > limit, !s.alertedDays.contains(day),
              let b = s.buddy, b.consent == .accepted, !s.suppressed.contains(b.number.e164) else { return nil }
        return queue("alert", to: b.number, body: alertText, day: day, at: at, id: alertID(day))
    }

    /// A day's alert's id, the same on every device.
    public static func alertID(_ day: Day) -> String { "alert-\(day)" }

    /// What tenclub's sending role is called (`DeviceRole`).
    public static let senderWords = DeviceRole.Words(key: "sms_device", things: "texts", command: "tenclub sms deliver")

    /// Which device sends texts, as `sms deliver` on device `me` decides it
    /// at `now` (`DeviceRole.decide`): `configured` (`sms_device`) when set,
    /// else the first device to run it, or where it was moved.
    public static func sender(_ s: TenclubState, device me: String, configured: String?, takeOver: Bool,
                              configPath: String, now: Instant) -> DeviceRole.Verdict {
        s.sender.decide(device: me, configured: configured, takeOver: takeOver, words: senderWords, configPath: configPath, now: now)
    }

    /// Whether a queued message may go out on `today`; nil means yes, else
    /// why not.
    public static func dropReason(_ s: TenclubState, _ m: OutMessage, today: Day) -> String? {
        if s.suppressed.contains(m.to.e164) { return "the number texted STOP" }
        if m.beforeStop { return "queued before the number texted STOP: nothing from before STOP goes out" }
        guard let b = s.buddy, b.number == m.to else { return "no longer your buddy" }
        if m.kind == "alert", let d = m.day, alertExpired(d, today: today) { return alertExpiredReason }
        switch (m.kind, b.consent) {
        case ("invite", .invited): return nil
        case ("invite", _): return "already answered the invitation"
        case ("help", .invited): return nil
        case (_, .accepted): return nil
        default: return "has not said YES"
        }
    }

    /// A sending command's timeout (`--timeout`, `sms_timeout`).
    public static let defaultSendTimeoutSeconds = 60
    /// A "sending" claim outlives its command's timeout by this much, then
    /// expires: the run that made it has died.
    public static let claimMarginSeconds = Handover.claimMarginSeconds

    /// What `deliver` does with a queued text now.
    public enum Delivery: Equatable, Sendable {
        case send
        case drop(String)
        /// Being sent by another run, or unknown (not retried unless asked).
        case skip(DeliveryState)
    }

    /// A text no live claim holds is dropped when it may not go out any
    /// more, unknown or failed ones too (an unknown alert of a day that is
    /// over leaves the outbox); otherwise sent when it may be claimed.
    public static func delivery(_ s: TenclubState, _ m: OutMessage, now: Instant, today: Day, retryUnknown: Bool) -> Delivery {
        let state = m.handover.state(at: now)
        if state != .sending && state != .delivered, let why = dropReason(s, m, today: today) { return .drop(why) }
        if !m.handover.mayClaim(at: now, retryUnknown: retryUnknown) { return .skip(state) }
        return .send
    }

    /// Claims text `id` for a run: the events to record before the command
    /// runs, with what to do. Decided under the store's lock. A text whose
    /// last run died holding it (`Handover.died`) first gets that try's end,
    /// `unknown` with the reason, at its claim's expiry in `zone`: `sms log`
    /// then has an entry for it, whatever comes next.
    public static func claim(_ s: TenclubState, _ id: String, claim: String, until: Instant, now: Instant, today: Day,
                             retryUnknown: Bool, at: String, zone: Zone = .utc) -> (events: [JSONObject], delivery: Delivery, message: OutMessage)? {
        guard let m = s.outbox.first(where: { $0.id == id }) else { return nil }
        var events: [JSONObject] = []
        if m.handover.died(at: now), let u = m.handover.claimUntil { events.append(died(m, at: zone.format(u))) }
        let d = delivery(s, m, now: now, today: today, retryUnknown: retryUnknown)
        switch d {
        case .skip: return (events, d, m)
        case .drop(let why): return (events + [["type": "sms_dropped", "id": .string(id), "reason": .string(why), "at": .string(at)]], d, m)
        case .send:
            var e: JSONObject = ["type": "sms_sending", "id": .string(id), "claim": .string(claim), "until": .string(until.description),
                                 "at": .string(at)]
            if m.handover.isRetry(at: now) { e["retry"] = true }
            // An alert handed over after its day names the day; the log
            // keeps the words that went.
            var m = m
            if m.kind == "alert", let day = m.day, day < today, m.body != lateAlertText(day) {
                m.body = lateAlertText(day)
                e["body"] = .string(m.body)
            }
            return (events + [e], d, m)
        }
    }

    /// The end of a try whose run died holding text `m`: `unknown`, with why.
    public static func died(_ m: OutMessage, at: String) -> JSONObject {
        var e: JSONObject = ["type": "sms_unknown", "id": .string(m.id), "reason": .string(Handover.diedMessage("the sending command")), "at": .string(at)]
        if let c = m.handover.claim { e["claim"] = .string(c) }
        return e
    }

    /// The event for how a handed-over text ended (`Handover.outcome(of:)`):
    /// sent; unknown (ended at its timeout: it may have gone out); failed,
    /// to be tried again. It names the run's claim, so a late outcome of a
    /// claim that lost the text to a retry does not end the retry's.
    /// A failure names when the next try may be (`nextTry`: the
    /// `failures`-th in a row, at `now`); a kill names its signal.
    public static func outcome(_ id: String, _ end: Subprocess.Ending, at: String, claim: String? = nil,
                               failures: Int = 0, now: Instant? = nil, timeoutSeconds: Int = defaultSendTimeoutSeconds) -> JSONObject {
        let o = Handover.outcome(of: end)
        var e: JSONObject = ["type": .string("sms_" + word(o)), "id": .string(id), "status": .int(Int64(end.status)),
                             "at": .string(at)]
        if let c = claim { e["claim"] = .string(c) }
        if o == .failed, let t = now { e["retry_at"] = .string(Handover.nextTry(failures: failures + 1, at: t).description) }
        if o != .delivered, let why = Handover.why(end, command: "the sending command", timeoutSeconds: timeoutSeconds) { e["reason"] = .string(why) }
        return e
    }

    /// `rollover`: alerts still queued past the day after their day are dropped.
    public static func expiredAlerts(_ s: TenclubState, today: Day, at: String, now: Instant? = nil) -> [JSONObject] {
        s.outbox.filter { m in
            m.kind == "alert" && (m.day.map { alertExpired($0, today: today) } ?? false)
                && (now.map { m.handover.state(at: $0) != .sending } ?? (m.handover.state != .sending))
        }.map {
            ["type": "sms_dropped", "id": .string($0.id), "reason": .string(alertExpiredReason), "at": .string(at)]
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
