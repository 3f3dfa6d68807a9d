// tenclub's buddy and text commands: buddy, sms outbox|deliver|receive|log,
// and rollover (which closes days and queues what the buddy is owed).

extension Tenclub {
    static func buddyRecord(_ b: Buddy?) -> JSONObject {
        guard let b = b else { return ["type": "buddy", "number": nil, "name": nil, "state": "none"] }
        return ["type": "buddy", "number": .string(b.number.e164), "display": .string(b.number.display),
                "name": JSON(b.name), "state": .string(b.consent.rawValue), "since": .string(b.since)]
    }

    static func buddyText(_ b: Buddy?) -> String {
        guard let b = b else {
            return "Enter phone number of accountability buddy:\n  tenclub buddy set 415-555-0132 [--name NAME]\n"
        }
        let who = (b.name.map { "\($0.terminalSafe) " } ?? "") + b.number.display
        let state: String
        switch b.consent {
        case .invited: state = "invited: waiting for them to text YES"
        case .accepted: state = "accepted: they get a text on a day you go past ten"
        case .stopped: state = "stopped: they texted STOP; nothing is sent until they text START"
        }
        return "Accountability buddy: \(who)\n  \(state)\n  Remove with: tenclub buddy remove\n"
    }

    static func buddyShow(_ ctx: Context) throws(ToolError) -> ExitCode {
        let b = try store(ctx).read().buddy
        ctx.out.emit(buddyRecord(b), text: buddyText(b))
        return .ok
    }

    static func buddySet(_ ctx: Context) throws(ToolError) -> ExitCode {
        let number = try PhoneNumber.parseUS(ctx.operands[0], what: "buddy number")
        var name = ctx.option("name")?.trimmingSpaces
        if name?.isEmpty == true { name = nil }
        if let n = name, n.count > 60 { throw ToolError(.usage, "--name must be at most 60 characters") }
        let at = ctx.clock.format(ctx.now)
        let (buddy, note, queued) = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Buddy?, String?, Bool) in
            let (events, note) = setBuddy(tx.state, number: number, name: name, at: at, newID: { IDs.make() })
            for e in events { tx.record(e) }
            return (tx.state.buddy, note, events.contains { $0["type"]?.string == "sms_queued" })
        }
        if let n = note { ctx.warn(n) }
        var r = buddyRecord(buddy)
        r["invitation_queued"] = .bool(queued)
        ctx.out.emit(r, text: buddyText(buddy) + (queued ? "  Invitation queued: run 'tenclub sms deliver' to send it.\n" : ""))
        return .ok
    }

    static func buddyRemove(_ ctx: Context) throws(ToolError) -> ExitCode {
        let at = ctx.clock.format(ctx.now)
        let removed = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Buddy? in
            guard let b = tx.state.buddy else { return nil }
            for e in removeBuddy(tx.state, at: at) { tx.record(e) }
            return b
        }
        guard let b = removed else { return .ok }  // nothing to say
        var r = buddyRecord(b)
        r["state"] = "removed"
        ctx.out.emit(r, text: "Removed \(b.number.display). Enter a new buddy with: tenclub buddy set NUMBER\n")
        return .ok
    }

    static func smsOutbox(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        for var m in s.outbox {
            // An alert waiting past its day will go out naming the day.
            if m.kind == "alert", let d = m.day, d < ctx.today { m.body = lateAlertText(d) }
            var r = m.record
            let state = m.handover.state(at: ctx.now)
            r["delivery"] = .string(word(state))
            if state == .sending, let u = m.handover.claimUntil { r["claim_until"] = .string(ctx.zone.format(u)) }
            if state == .failed, let n = m.handover.retryAt { r["retry_at"] = .string(ctx.zone.format(n)) }
            if m.handover.state == .sending, state == .unknown { r["reason"] = .string(Handover.diedMessage("the sending command")) }
            if state != .sending, let why = dropReason(s, m, today: ctx.today) { r["will_drop"] = .string(why) }
            let note = state.isWaiting ? "" : state == .sending ? "  (being sent)" : "  (unknown: may have gone out; --retry-unknown sends it again)"
            ctx.out.emit(r, text: "\(m.id)  \(m.kind)  to \(m.to.display)  \(m.attempts) tries  \(m.body.prefix(50).terminalSafe)…\(note)")
        }
        return .ok
    }

    static func smsLog(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read(full: true)
        // A try whose run died is recorded by the next deliver; until then, said here.
        let died = s.outbox.filter { $0.handover.died(at: ctx.now) }.compactMap { m in
            m.handover.claimUntil.map { Tenclub.LogEntry(id: m.id, kind: m.kind, to: m.to, body: m.body, day: m.day, queuedAt: m.queuedAt,
                                                         at: ctx.zone.format($0), outcome: "unknown", status: nil,
                                                         reason: Handover.diedMessage("the sending command"), attempt: m.attempts + 1) }
        }
        for l in s.log + died {
            let how = l.outcome + (l.status.map { l.outcome == "sent" ? "" : " (exit \($0))" } ?? "") + (l.reason.map { ": \($0)" } ?? "")
            ctx.out.emit(l.record, text: "\(l.at)  \(l.kind)  to \(l.to.display)  \(how.terminalSafe)")
        }
        return .ok
    }

    static func smsDeliver(_ ctx: Context) throws(ToolError) -> ExitCode {
        let config = try Config.load(directory: ctx.configDir, known: configKeys)
        let command = (ctx.option("command") ?? config["sms_command"]).flatMap { $0.isEmpty ? nil : $0 }
        let noCommand = ToolError(.config, "no sending command: use --command CMD or set sms_command in \(config.path)")
        let timeout = try Handover.timeout(option: ctx.option("timeout"), config: config, key: "sms_timeout", default: defaultSendTimeoutSeconds)
        let retry = ctx.flag("retry-unknown")
        let st = try store(ctx)
        // Nothing here yet, and no folder shared with another device: nothing to send.
        if !Sys.isDirectory(ctx.dataDir), try ctx.syncDirectory().map(Sys.isDirectory) != true {
            if command == nil { throw noCommand }
            return .ok
        }
        let me = try ctx.storeOptions().actor
        let configured = config["sms_device"]
        let takeOver = ctx.flag("take-over")
        var s = try st.read()
        // One device sends: the first to run deliver, or where it was moved.
        let verdict = sender(s, device: me, configured: configured, takeOver: takeOver, configPath: config.path, now: ctx.now)
        if let why = verdict.refusal {
            // Texts waiting for a device that is not there (a misspelt
            // sms_device) need a person, even from cron.
            if let e = try DeviceRole.misnamed(configured, device: me, waiting: !s.outbox.isEmpty, words: senderWords, configPath: config.path,
                                               known: { () throws(ToolError) in try st.journals().map(\.actor) }) {
                throw e
            }
            // From cron on every device (-q), another device's role is not
            // news each minute: the status says it (77), the message only
            // when asked or when it needs a person. (Such a device needs no
            // sending command.)
            if ctx.out.quiet && !verdict.news { return .noPermission }
            throw ToolError(.noPermission, why)
        }
        // A device that cannot send does not take the role.
        if verdict.record != nil, command == nil {
            if s.outbox.isEmpty, alert(s, day: ctx.today, today: ctx.today, at: "") == nil { return .ok }
            throw noCommand
        }
        // A day that passed ten only when copies merged has no alert yet:
        // whichever device sees the merge queues it (one per day, its id
        // the day's: the fold keeps the first).
        let today = ctx.today
        if verdict.record != nil || alert(s, day: today, today: today, at: "") != nil {
            let nowText = ctx.clock.format(ctx.now)
            s = try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> TenclubState in
                let v = sender(tx.state, device: me, configured: configured, takeOver: takeOver, configPath: config.path, now: ctx.now)
                if let w = v.refusal { throw ToolError(.noPermission, w) }
                if let r = v.record { tx.record(r) }
                if let a = alert(tx.state, day: today, today: today, at: nowText) { tx.record(a) }
                return tx.state
            }
        }
        if s.outbox.isEmpty { return .ok }
        // Devices that share a sync folder: a role just taken settles first.
        if let until = s.sender.settling(device: me, shared: try ctx.syncDirectory() != nil, now: ctx.now) {
            ctx.note(DeviceRole.settlingNote(senderWords, from: ctx.zone.format(until)))
            return .ok
        }
        guard let command = command else { throw noCommand }
        var run = HandoverRun(command: command, what: "the command", timeoutSeconds: timeout)
        for queued in s.outbox {
            // Decided under the store lock, "sending" recorded before the
            // command runs: a run killed from here on never sends it again.
            var dropped: (OutMessage, String)? = nil
            let sent = try run.handOver(clock: { ctx.current }, claim: { (claim, t, until) throws(ToolError) -> HandoverRun.Claimed<OutMessage>? in
                let decision = try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Delivery, OutMessage)? in
                    guard let c = Tenclub.claim(tx.state, queued.id, claim: claim, until: until, now: t, today: ctx.zone.day(of: t),
                                                retryUnknown: retry, at: ctx.clock.format(t), zone: ctx.zone) else { return nil }
                    for e in c.events { tx.record(e) }
                    return (c.delivery, c.message)
                }
                guard let (d, m) = decision else { return nil }
                switch d {
                case .skip: return nil
                case .drop(let why): dropped = (m, why); return nil
                case .send:
                    return HandoverRun.Claimed(m, record: m.record, env: ["TENCLUB_SMS_TO": m.to.e164, "TENCLUB_SMS_BODY": m.body, "TENCLUB_SMS_ID": m.id],
                                               failuresBefore: m.handover.failures)
                }
            }, finish: { (m, claim, ended) throws(ToolError) -> Instant? in
                let e = outcome(m.id, ended.end, at: ctx.clock.format(ended.at), claim: claim, failures: m.handover.failures, now: ended.at,
                                timeoutSeconds: timeout)
                try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) in tx.record(e) }
                return e["retry_at"]?.string.flatMap { RFC3339.parse($0)?.instant }
            })
            if let (m, why) = dropped {
                var r = m.record
                r["delivery"] = "dropped"
                r["reason"] = .string(why)
                ctx.out.emit(r, text: "dropped \(m.id) (\(m.kind)): \(why)")
                // An alert that failed until its day was over is given up:
                // news, even from cron. (Other drops are the buddy's answers.)
                if m.handover.failures > 0, m.kind == "alert", let day = m.day, day < ctx.zone.day(of: ctx.current) {
                    ctx.warn("gave up on \(m.kind) \(m.id) to \(m.to.display) after \(m.handover.failures) failed tr\(m.handover.failures == 1 ? "y" : "ies"): \(why)")
                }
            }
            guard let (m, ended) = sent else { continue }
            var r = m.record
            r["delivery"] = .string(word(ended.outcome))
            r["exit_status"] = .int(Int64(ended.end.status))
            r["attempts"] = JSON(m.attempts + 1)
            let text: String
            switch ended.outcome {
            case .delivered: text = "sent \(m.id) (\(m.kind)) to \(m.to.display)"
            case .unknown: text = "unknown \(m.id) (\(m.kind)): \(ended.why ?? ""); not sent again unless --retry-unknown"
            case .failed: text = "failed \(m.id) (\(m.kind)): the command exited \(ended.end.status)"
            }
            ctx.out.emit(r, text: text)
        }
        for message in run.tally.messages(quiet: ctx.out.quiet, words: tallyWords(timeout: timeout)) { ctx.warn(message) }
        return run.tally.exitCode
    }

    /// What `sms deliver` says of texts not handed over (`Tally`).
    static func tallyWords(timeout: Int) -> Tally.Words {
        Tally.Words(
            failed: { "\(Tally.count($0.failed, "message", "messages")) not delivered (the command exited \($0.lastStatus)); queued for the next run" },
            news: { "\(Tally.count($0.news, "message", "messages")) not delivered for about an hour or more (the command exited \($0.lastStatus)); still queued, tried again every hour" },
            unknown: { "\(Tally.count($0.unknown, "message", "messages")) may or may not have gone out (the command ran past its timeout of \(timeout) s, or was killed); not sent again unless 'tenclub sms deliver --retry-unknown'" })
    }

    struct Inbound {
        var source: String
        var line: Int
        var from: PhoneNumber
        var body: String
        var at: String
        var key: String
    }

    static let inboundHint = "need {\"from\":\"+14155550132\",\"body\":\"YES\",\"at\":\"2026-11-22T08:15:00-05:00\"}"

    static func parseInbound(_ o: JSONObject, ctx: Context) -> Result<(PhoneNumber, String, String, String), ToolError> {
        do throws(ToolError) {
            let fromText = try o.requiredString("from", hint: inboundHint)
            let from: PhoneNumber
            if let p = try? PhoneNumber.parseE164(fromText) {
                from = p
            } else if let p = try? PhoneNumber.parseUS(fromText) {
                from = p
            } else {
                return .failure(.data("\"from\" must be a phone number like +14155550132, not '\(fromText)'"))
            }
            let body = try o.requiredString("body", hint: inboundHint)
            var at = ctx.now
            if let a = o["at"], !a.isNull { at = try Clock.instant(a, field: "\"at\"", zone: ctx.zone, now: ctx.now).get() }
            let atText = ctx.clock.format(at)
            let key = try o.optionalString("id").map { "id:" + $0 } ?? "\(from.e164)|\(at.ms)|\(body)"
            return .success((from, body, atText, key))
        } catch {
            return .failure(error)
        }
    }

    static func smsReceive(_ ctx: Context) throws(ToolError) -> ExitCode {
        let strict = ctx.flag("strict")
        let sources = try InputSource.openAll(ctx.operands)
        defer { for s in sources { s.closeIfOwned() } }
        var messages: [Inbound] = []
        var bad = 0
        try NDJSON.forEachRecord(sources, { (src, n, o) throws(ToolError) in
            switch parseInbound(o, ctx: ctx) {
            case .success(let (from, body, at, key)):
                messages.append(Inbound(source: src, line: n, from: from, body: body, at: at, key: key))
            case .failure(let e):
                bad += 1
                if strict { throw ToolError(.dataError, "\(src):\(n): \(e.message) (--strict: nothing applied)") }
                ctx.warn("\(src):\(n): \(e.message)")
            }
        }, bad: { (src, n, reason) throws(ToolError) in
            bad += 1
            if strict { throw ToolError(.dataError, "\(src):\(n): \(reason) (--strict: nothing applied)") }
            ctx.warn("\(src):\(n): \(reason)")
        })
        if messages.isEmpty { return bad > 0 ? .dataError : .ok }
        let reports = try store(ctx).write(full: true, at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> [JSONObject] in
            var out: [JSONObject] = []
            for m in messages {
                var r: JSONObject = ["type": "inbound", "from": .string(m.from.e164), "body": .string(m.body),
                                     "at": .string(m.at), "keyword": .string(keyword(m.body).rawValue)]
                if tx.state.inboundSeen.contains(m.key) {
                    r["effect"] = "duplicate"
                    out.append(r)
                    continue
                }
                let (events, report) = receive(tx.state, from: m.from, body: m.body, at: m.at, newID: { IDs.make() })
                tx.record(["type": "inbound", "key": .string(m.key), "from": .string(m.from.e164), "at": .string(m.at)])
                for e in events { tx.record(e) }
                r["effect"] = .string(report.effect)
                if let why = report.reason { r["reason"] = .string(why) }
                r["buddy_state"] = .string(tx.state.buddy?.consent.rawValue ?? "none")
                out.append(r)
            }
            return out
        }
        for r in reports {
            let text = "\(r["from"]?.string ?? "") \"\((r["body"]?.string ?? "").terminalSafe)\": \(r["effect"]?.string ?? "")"
                + (r["reason"]?.string.map { " (\($0))" } ?? "")
            ctx.out.emit(r, text: text)
        }
        return bad > 0 ? .dataError : .ok
    }

    static func rollover(_ ctx: Context) throws(ToolError) -> ExitCode {
        let today = ctx.today
        let at = ctx.clock.format(ctx.now)
        let closed = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> [(Day, Int)] in
            for e in expiredAlerts(tx.state, today: today, at: at, now: ctx.now) { tx.record(e) }
            var out: [(Day, Int)] = []
            for d in daysToClose(tx.state, today: today) {
                let n = tx.state.unlocks(on: d)
                tx.record(["type": "day_closed", "day": .string(d.description), "unlocks": JSON(n), "at": .string(at)])
                out.append((d, n))
            }
            return out
        }
        for (d, n) in closed {
            let c = card(for: n)
            let r: JSONObject = ["type": "day_closed", "date": .string(d.description), "unlocks": JSON(n),
                                 "card": .string(c.code), "busted": .bool(isBusted(n))]
            ctx.out.emit(r, text: "\(d)  \(n) unlock\(n == 1 ? "" : "s")  \(c.code)\(isBusted(n) ? "  BUSTED!" : "")")
        }
        return .ok
    }
}
