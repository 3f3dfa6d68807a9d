import XCTest
@testable import NudgeKit

/// playa's ten correctness properties, with a seeded generator.
final class PlayaTests: XCTestCase {
    let zone = try! Zone.named("America/New_York")
    let day = Day(year: 2026, month: 11, day: 23)

    func randomText(_ rng: inout SeededRandom, max: Int = 60) -> String {
        let alphabet = Array("abc XYZ 019 &=?#+%/:;,.'\"\\\n\té ñ ♣ 🃏 日本 ~-_")
        let n = Int.random(in: 1...max, using: &rng)
        var s = String((0..<n).map { _ in alphabet.randomElement(using: &rng)! })
        if s.trimmingSpaces.isEmpty { s = "x" + s }
        return s
    }

    func randomRecipient(_ rng: inout SeededRandom, messages: Int? = nil) -> Playa.Recipient {
        let platform = Playa.Platform.allCases.randomElement(using: &rng)!
        let units: [Playa.Cadence.Unit] = [.day, .week, .month]
        let sched: Playa.Schedule = Int.random(in: 0..<5, using: &rng) == 0
            ? .every(Playa.Cadence(count: Int.random(in: 1...3, using: &rng), unit: units.randomElement(using: &rng)!,
                                   since: day.adding(days: -Int.random(in: 0...40, using: &rng))))
            : Bool.random(using: &rng)
            ? .random(Int.random(in: 1...10, using: &rng))
            : .fixed(Set((0..<Int.random(in: 1...6, using: &rng)).map { _ in TimeOfDay(hour: Int.random(in: 0...23, using: &rng), minute: Int.random(in: 0...59, using: &rng)) }).sorted())
        let count = messages ?? Int.random(in: 0...12, using: &rng)
        // Telegram by username half the time; e-mail by address.
        let byName = platform == .instagram || (platform == .telegram && Bool.random(using: &rng))
        let phone = byName || platform == .email ? nil : PhoneNumber(e164: ["+4420794", "+4474001", "+3361234", "+4915123456", "+8131234", "+6141234", "+551191234", "+683", "+1415555"]
            .randomElement(using: &rng)! + String(Int.random(in: 1000...9999, using: &rng)))
        return Playa.Recipient(id: IDs.make(using: &rng), name: "R\(Int.random(in: 0...999, using: &rng))", platform: platform, phone: phone,
                               username: byName ? "user_\(Int.random(in: 1000...9999, using: &rng))" : nil,
                               paused: false, schedule: sched,
                               messages: (0..<count).map { _ in Playa.Message(id: IDs.make(using: &rng), text: randomText(&rng)) },
                               email: platform == .email ? ["ana", "b.o+x", "c_d-e"].randomElement(using: &rng)! + "@example.org" : nil)
    }

    /// 1, 2, 3: N events a day in random mode, all within 09:00–21:00, each
    /// message drawn from the pool; fixed mode gives exactly the fixed times.
    func testGenerationInvariants() {
        var rng = SeededRandom(seed: 1)
        for _ in 0..<500 {
            let r = randomRecipient(&rng, messages: Int.random(in: 1...10, using: &rng))
            var g = SeededRandom(seed: rng.next())
            let evs = Playa.plan(r, date: day, zone: zone, notBefore: nil, rng: &g)
            switch r.schedule {
            case .random(let n):
                XCTAssertEqual(evs.count, n)
                XCTAssertEqual(Set(evs.map(\.time)).count, n, "times are distinct")
                for (a, b) in zip(evs, evs.dropFirst()) {
                    XCTAssertGreaterThanOrEqual(b.time.secondsOfDay - a.time.secondsOfDay, Playa.minimumSpacingMinutes * 60, "spaced")
                }
                for e in evs { XCTAssertTrue(e.time >= Playa.windowStart && e.time <= Playa.windowEnd, "\(e.time)") }
            case .fixed(let ts):
                XCTAssertEqual(evs.map(\.time), ts)
            case .every(let c):
                // Never contacted: one reminder on the days a cadence after it was set, none on others.
                XCTAssertEqual(evs.count, c.isDue(day, last: nil) ? 1 : 0, "\(c) on \(day)")
                for e in evs { XCTAssertTrue(e.time >= Playa.windowStart && e.time <= Playa.windowEnd, "\(e.time)") }
            }
            for e in evs {
                XCTAssertTrue(r.messages.contains { $0.id == e.messageID && $0.text == e.message })
                XCTAssertEqual(e.status, .pending)
                XCTAssertEqual(zone.day(of: e.at), day)
            }
        }
    }

    /// 10: an empty pool (or a paused recipient) gives no events.
    func testEmptyPoolGivesNoEvents() {
        var rng = SeededRandom(seed: 2)
        for _ in 0..<100 {
            var r = randomRecipient(&rng, messages: 0)
            XCTAssertTrue(Playa.plan(r, date: day, zone: zone, notBefore: nil, rng: &rng).isEmpty)
            r.messages = [Playa.Message(id: "m", text: "hi")]
            r.paused = true
            XCTAssertTrue(Playa.plan(r, date: day, zone: zone, notBefore: nil, rng: &rng).isEmpty)
        }
    }

    func testSeedMakesTheDrawReproducibleAndLateRunsStayAhead() {
        var rng = SeededRandom(seed: 3)
        let r = randomRecipient(&rng, messages: 5)
        var a = Playa.seededGenerator(seed: 42, recipient: r.id, date: day)
        var b = Playa.seededGenerator(seed: 42, recipient: r.id, date: day)
        XCTAssertEqual(Playa.plan(r, date: day, zone: zone, notBefore: nil, rng: &a), Playa.plan(r, date: day, zone: zone, notBefore: nil, rng: &b))
        var late = r
        late.schedule = .random(10)
        let now = RFC3339.parse("2026-11-23T15:30:00-05:00")!.instant
        var g = SeededRandom(seed: 9)
        let evs = Playa.plan(late, date: day, zone: zone, notBefore: now, rng: &g)
        XCTAssertEqual(evs.count, 10, "a late run still draws N, from what is left of the window")
        XCTAssertTrue(evs.allSatisfy { $0.at > now })
        XCTAssertTrue(Playa.plan(late, date: day, zone: zone, notBefore: RFC3339.parse("2026-11-23T21:30:00-05:00")!.instant, rng: &g).isEmpty)
    }

    /// 4: cloning copies the schedule exactly and the messages deeply.
    func testCloneIntegrity() {
        var rng = SeededRandom(seed: 4)
        for _ in 0..<200 {
            let a = randomRecipient(&rng), b = randomRecipient(&rng)
            let both = Playa.cloned(from: a, to: b, schedule: true, messages: true)
            XCTAssertEqual(both.schedule, a.schedule)
            XCTAssertEqual(both.messages.map(\.text), a.messages.map(\.text))
            XCTAssertEqual([both.name, both.platform.rawValue, both.address], [b.name, b.platform.rawValue, b.address])
            XCTAssertTrue(Set(both.messages.map(\.id)).isDisjoint(with: a.messages.map(\.id)), "new ids: editing one leaves the other")
            let onlySchedule = Playa.cloned(from: a, to: b, schedule: true, messages: false)
            XCTAssertEqual(onlySchedule.messages, b.messages)
            let onlyMessages = Playa.cloned(from: a, to: b, schedule: false, messages: true)
            XCTAssertEqual(onlyMessages.schedule, b.schedule)
        }
    }

    /// 5: a deep link parses back to the same number and text; text can never
    /// add or change a query parameter.
    func testDeepLinkRoundTrip() {
        var rng = SeededRandom(seed: 5)
        for _ in 0..<2000 {
            let r = randomRecipient(&rng, messages: 1)
            let text = randomText(&rng, max: 200) + (Bool.random(using: &rng) ? "&phone=+1999&text=evil#x" : "")
            for web in [false, true] {
                let url = Playa.link(r, message: text, web: web)
                XCTAssertFalse(url.contains(" "))
                guard let p = Playa.parseLink(url) else { XCTFail("unparsable: \(url)"); continue }
                XCTAssertEqual(p.platform, r.platform)
                XCTAssertEqual(p.address, r.email ?? r.username ?? r.phone?.e164)
                // Instagram's and Signal's links carry no text (it goes to the clipboard); the others carry it whole.
                XCTAssertEqual(p.text, r.platform == .email ? Playa.mailBody(text) : r.platform.carriesText ? text : nil)
            }
        }
        XCTAssertEqual(Playa.percentEncode("a b&c=d?e#f+g%h/é"), "a%20b%26c%3Dd%3Fe%23f%2Bg%25h%2F%C3%A9")
        let sms = Playa.Recipient(id: "x", name: "x", platform: .sms, phone: PhoneNumber(e164: "+14155550132"), username: nil,
                                  paused: false, schedule: .random(1), messages: [])
        XCTAssertEqual(Playa.link(sms, message: "hi there"), "sms:+14155550132?body=hi%20there")
        // Telegram's, Signal's and mailto:'s documented forms.
        var tg = sms
        tg.platform = .telegram
        XCTAssertEqual(Playa.link(tg, message: "hi&x"), "tg://resolve?phone=14155550132&text=hi%26x")
        XCTAssertEqual(Playa.link(tg, message: "hi&x", web: true), "https://t.me/+14155550132?text=hi%26x")
        tg.phone = nil
        tg.username = "ana_b"
        XCTAssertEqual(Playa.link(tg, message: "hi"), "tg://resolve?domain=ana_b&text=hi")
        XCTAssertEqual(Playa.link(tg, message: "hi", web: true), "https://t.me/ana_b?text=hi")
        var signal = sms
        signal.platform = .signal
        XCTAssertEqual(Playa.link(signal, message: "hi"), "sgnl://signal.me/#p/+14155550132")
        XCTAssertEqual(Playa.link(signal, message: "hi", web: true), "https://signal.me/#p/+14155550132")
        let mail = Playa.Recipient(id: "y", name: "y", platform: .email, phone: nil, username: nil, paused: false, schedule: .random(1),
                                   messages: [], email: "ana+news@example.org")
        // RFC 6068: line breaks in a body are CR LF.
        XCTAssertEqual(Playa.link(mail, message: "see you?\nA\r\nB\rC"), "mailto:ana+news@example.org?body=see%20you%3F%0D%0AA%0D%0AB%0D%0AC")
        // An address that is not one never reaches a link, whoever wrote it.
        var forged = mail
        forged.email = "a@b.com?cc=evil@x.com"
        XCTAssertEqual(Playa.link(forged, message: "hi"), "mailto:?body=hi")
        var forgedPhone = tg
        forgedPhone.username = nil
        forgedPhone.phone = PhoneNumber(e164: "+1415&text=evil")
        XCTAssertEqual(Playa.link(forgedPhone, message: "hi"), "tg://resolve?phone=&text=hi")
        for bad in ["ana", "a b@x.org", "ana@x", "ana@-x.org", ".a@x.org", "a@x..org", "a%40b@x.org", "a@x.org?cc=evil@y.org",
                    "a..b@x.org", "a@1.2.3.4", "a@b.123"] {
            XCTAssertNotNil(Playa.validateEmail(bad), bad)
        }
        for bad in ["abcd", "1abcde", "abcde_", "ab cde", "abcdé"] { XCTAssertNotNil(Playa.validateTelegramUsername(bad), bad) }
        XCTAssertNil(Playa.validateTelegramUsername("ana_b"))
    }

    /// 6: recipients and events survive JSON and the store's snapshot.
    func testPersistenceRoundTrip() throws {
        var rng = SeededRandom(seed: 6)
        var state = PlayaState(full: true)
        for _ in 0..<100 {
            let r = randomRecipient(&rng)
            XCTAssertEqual(try Playa.Recipient.from(JSON.parse(r.json.serialized).object!).get(), r)
            state.apply(["type": "recipient_saved", "recipient": .object(r.json)])
            var g = SeededRandom(seed: rng.next())
            for e in Playa.plan(r, date: day, zone: zone, notBefore: nil, rng: &g) {
                XCTAssertEqual(try Playa.Event.from(JSON.parse(e.json.serialized).object!).get(), e)
                state.apply(["type": "event_saved", "event": .object(e.json)])
            }
        }
        var back = PlayaState(full: true)
        for l in state.hotSnapshot() { try back.restoreHot(JSON.parse(l.serialized).object!) }
        for l in state.coldSnapshot() { try back.restoreCold(JSON.parse(l.serialized).object!) }
        XCTAssertEqual(back.recipients, state.recipients)
        XCTAssertEqual(back.events, state.events)
    }

    /// 7: however often `due` runs, an event is notified once.
    func testNotificationIdempotence() {
        var rng = SeededRandom(seed: 7)
        var s = PlayaState(full: true)
        var all: [Playa.Event] = []
        for _ in 0..<20 {
            let r = randomRecipient(&rng, messages: 3)
            s.apply(["type": "recipient_saved", "recipient": .object(r.json)])
            for e in Playa.plan(r, date: day, zone: zone, notBefore: nil, rng: &rng) { s.apply(["type": "event_saved", "event": .object(e.json)]); all.append(e) }
        }
        var notified: [String: Int] = [:]
        var t = zone.startOfDay(day)
        while t < zone.startOfDay(day.adding(days: 1)) {
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                for var e in s.due(at: t, today: day) {
                    notified[e.id, default: 0] += 1
                    e.notification = .delivered
                    s.apply(["type": "event_saved", "event": .object(e.json)])
                }
            }
            t = t.adding(minutes: Int64.random(in: 1...90, using: &rng))
        }
        for e in s.due(at: t, today: day) { notified[e.id, default: 0] += 1 }
        XCTAssertEqual(notified.count, all.count)
        XCTAssertTrue(notified.values.allSatisfy { $0 == 1 })
    }

    /// Two devices' claims on one event, folded in stamp order: the first
    /// holds, the second (not a retry) changes nothing, and only the
    /// holder's outcome ends the claim.
    func testTheFirstClaimOfTwoDevicesHolds() {
        var rng = SeededRandom(seed: 11)
        var s = PlayaState(full: true)
        let r = randomRecipient(&rng, messages: 2)
        s.apply(["type": "recipient_saved", "recipient": .object(r.json)])
        guard let e = Playa.plan(r, date: day, zone: zone, notBefore: nil, rng: &rng).first else { return XCTFail("no event planned") }
        s.apply(["type": "event_saved", "event": .object(e.json)])
        let until = JSON.string(zone.format(zone.startOfDay(day.adding(days: 1))))
        func claim(_ c: String) -> JSONObject { ["type": "notify_claimed", "id": .string(e.id), "recipient_id": .string(r.id), "claim": .string(c), "until": until] }
        s.apply(claim("laptop-run"))
        s.apply(claim("desk-run"))
        XCTAssertEqual(s.events[e.id]?.handover.claim, "laptop-run", "the first claim holds")
        XCTAssertEqual(s.events[e.id]?.handover.state, .sending)
        s.apply(["type": "notified", "id": .string(e.id), "recipient_id": .string(r.id), "claim": "desk-run", "outcome": "failed"])
        XCTAssertEqual(s.events[e.id]?.handover.state, .sending, "the loser's failure does not end the holder's claim")
        s.apply(["type": "notified", "id": .string(e.id), "recipient_id": .string(r.id), "claim": "laptop-run", "outcome": "delivered"])
        XCTAssertEqual(s.events[e.id]?.handover.state, .delivered)
    }

    /// 8: identifiers are unique over large batches.
    func testUniqueIDs() {
        var rng = SeededRandom(seed: 8)
        var ids = Set<String>()
        var count = 0
        for _ in 0..<2000 {
            let r = randomRecipient(&rng, messages: 2)
            var g = SystemRandomNumberGenerator()
            for e in Playa.plan(r, date: day, zone: zone, notBefore: nil, rng: &g) { ids.insert(e.id); count += 1 }
        }
        XCTAssertGreaterThan(count, 5000)
        XCTAssertEqual(ids.count, count)
    }

    /// 9: status only moves forward: pending → sent, cancelled or missed;
    /// missed → sent (sent late after all) or cancelled; never back.
    func testStatusTransitions() {
        let all = Playa.Status.allCases
        for a in all {
            for b in all {
                let forward = (a == .pending && b != .pending) || (a == .missed && (b == .sent || b == .cancelled))
                XCTAssertEqual(Playa.canMove(a, to: b), forward, "\(a) → \(b)")
            }
        }
        var rng = SeededRandom(seed: 10)
        for _ in 0..<500 {
            var st = Playa.Status.pending
            var history = [st]
            for _ in 0..<6 {
                let to = all.randomElement(using: &rng)!
                if Playa.canMove(st, to: to) { st = to; history.append(st) }
            }
            XCTAssertLessThanOrEqual(history.count, 3, "at most pending → missed → sent: \(history)")
            XCTAssertFalse(history.dropFirst().contains(.pending), "never back to pending: \(history)")
        }
    }

    func testScheduleValidationEdges() {
        XCTAssertEqual(try Playa.parseSchedule(random: "1", fixed: nil), .random(1))
        XCTAssertEqual(try Playa.parseSchedule(random: "10", fixed: nil), .random(10))
        XCTAssertEqual(try Playa.parseSchedule(random: nil, fixed: "18:00,09:30,18:00"), .fixed([TimeOfDay(hour: 9, minute: 30), TimeOfDay(hour: 18, minute: 0)]))
        let bad: [(String?, String?, String)] = [
            ("0", nil, "--random must be 1 to 10 messages a day, not '0'"),
            ("11", nil, "--random must be 1 to 10 messages a day, not '11'"),
            ("three", nil, "--random must be 1 to 10 messages a day, not 'three'"),
            (nil, "", "--fixed takes times like 09:30,18:00 (HH:MM, 24-hour), not ''"),
            (nil, "25:00", "--fixed takes times like 09:30,18:00 (HH:MM, 24-hour), not '25:00'"),
            (nil, "9am", "--fixed takes times like 09:30,18:00 (HH:MM, 24-hour), not '9am'"),
            (nil, "09:00,", "--fixed takes times like 09:30,18:00 (HH:MM, 24-hour), not ''"),
            (nil, nil, "schedule needs --random N (1-10 a day), --fixed HH:MM[,HH:MM…] or --every 2w (days, weeks or months after the last contact)"),
            ("2", "09:00", "use --random or --fixed, not both"),
        ]
        for (r, f, message) in bad {
            XCTAssertThrowsError(try Playa.parseSchedule(random: r, fixed: f)) { e in XCTAssertEqual((e as! ToolError).message, message) }
        }
    }

    func testValidationNeverEchoesNumbersOrMessages() {
        XCTAssertEqual(Playa.validateMessage(String(repeating: "é", count: 500)), nil, "500 characters, 1000 bytes: fine")
        XCTAssertEqual(Playa.validateMessage(String(repeating: "🃏", count: 501)), "a message must be at most 500 characters (this one has 501)")
        XCTAssertEqual(Playa.validateMessage("   "), "a message must not be empty")
        XCTAssertNil(Playa.validateUsername("a.b_c9"))
        XCTAssertNotNil(Playa.validateUsername("no spaces"))
        XCTAssertNotNil(Playa.validateUsername(String(repeating: "a", count: 31)))
        XCTAssertThrowsError(try PhoneNumber.parseE164("+44 20 SECRET", what: "--phone")) { e in
            XCTAssertFalse((e as! ToolError).message.contains("SECRET"))
        }
    }

    func testImportValidatesEverythingFirst() throws {
        var rng = SeededRandom(seed: 11)
        let r = randomRecipient(&rng, messages: 2)
        let good = try JSON.parse(#"{"type":"playa_export","version":1,"recipients":[\#(r.json.serialized)],"events":[]}"#)
        XCTAssertEqual(try Playa.importEvents(good, into: PlayaState(full: true)).get().count, 1)
        var broken = r.json
        broken["schedule"] = .object(["mode": "random", "per_day": 11])
        let bad = try JSON.parse(#"{"type":"playa_export","version":1,"recipients":[\#(r.json.serialized),\#(broken.serialized)],"events":[]}"#)
        switch Playa.importEvents(bad, into: PlayaState(full: true)) {
        case .success: XCTFail("accepted a bad schedule")
        case .failure(let e): XCTAssertEqual(e.all.count, 1); XCTAssertTrue(e.all[0].hasPrefix("recipients[1]: recipient"), e.all[0])
        }
    }

    /// `queue` and `due` read the snapshot lazily: a recipient's line is
    /// taken with its pool unparsed. For any recipient (names, texts and
    /// message ids that look like the line's own keys, escapes, non-ASCII,
    /// empty pools), the lazily read recipient equals the one folded, its
    /// count is right before decoding, and the JSON path reads the same.
    func testLazyRecipientLinesGiveTheRecipientsAsWritten() throws {
        var rng = SeededRandom(seed: 31)
        let tricky = ["\",\"pool\":[", "}", "]", "\"n\":12", "\\", "é", "\u{202E}", "{\"k\":\"recipient\",\"c\":"]
        var s = PlayaState(full: true)
        for k in 0..<120 {
            var r = randomRecipient(&rng, messages: k % 7 == 0 ? 0 : nil)
            r.name = (0..<Int.random(in: 1...3, using: &rng)).map { _ in tricky.randomElement(using: &rng)! }.joined()
            r.messages = r.messages.map { m in Playa.Message(id: m.id, text: m.text + tricky.randomElement(using: &rng)!) }
            s.apply(Playa.saved(r))
        }
        let (storage, ranges) = snapshotLines(s.hotSnapshot())
        var lazy = PlayaState(full: false)
        var parsed = PlayaState(full: false)
        var taken = 0
        for r in ranges {
            let line = Bytes(storage, r)
            if lazy.restoreHotRaw(line) { taken += 1 } else {
                try lazy.restoreHot(try line.withUnsafeBytes { (b) throws(JSONParseError) in try JSON.parseObject(b) })
            }
            try parsed.restoreHot(try line.withUnsafeBytes { (b) throws(JSONParseError) in try JSON.parseObject(b) })
        }
        XCTAssertEqual(taken, 120, "every recipient line is taken lazily")
        for (id, r) in s.recipients {
            guard let l = lazy.recipients[id], let p = parsed.recipients[id] else { return XCTFail("recipient \(id) lost") }
            XCTAssertEqual(l.messageCount, r.messages.count, id)
            XCTAssertEqual(l.messages, r.messages, id)
            XCTAssertEqual(l, r, id)
            XCTAssertEqual(p, r, id)
        }
        XCTAssertEqual(lazy.recipients.count, s.recipients.count)
    }

    /// Two draws of one day (made from different seeds on two devices): the
    /// first `generated` in stamp order wins; the other's events go unless
    /// something touched them (a claim keeps one). The same whether the
    /// state was folded straight through or restored from a snapshot
    /// between the draws and the markers.
    func testTheFirstDrawWinsTheDayAndTouchedEventsStay() throws {
        var rng = SeededRandom(seed: 77)
        for round in 0..<40 {
            var r = randomRecipient(&rng, messages: 5)
            r.schedule = .random(Int.random(in: 2...6, using: &rng))
            let a = Playa.draw(r, date: day, zone: zone, seed: UInt64(round * 2 + 1))
            let b = Playa.draw(r, date: day, zone: zone, seed: UInt64(round * 2 + 2))
            let (ba, bb) = (Playa.batchID(a), Playa.batchID(b))
            let claimed = b[Int.random(in: 0..<b.count, using: &rng)].id
            var lines: [JSONObject] = [Playa.saved(r)]
            for (evs, batch) in [(a, ba), (b, bb)] {
                for e in evs { var l = Playa.saved(e); l["batch"] = .string(batch); lines.append(l) }
            }
            lines.append(["type": "notify_claimed", "id": .string(claimed), "recipient_id": .string(r.id), "claim": "c1",
                          "until": .string(Zone.utc.format(Instant(ms: 1_900_000_000_000)))])
            let markers: [JSONObject] = [ba, bb].map { ["type": "generated", "recipient_id": .string(r.id), "date": .string(day.description), "batch": .string($0)] }
            var straight = PlayaState(full: true)
            for l in lines + markers { straight.apply(l) }
            var folded = PlayaState(full: true)
            for l in lines { folded.apply(l) }
            var restored = PlayaState(full: true)
            for l in folded.hotSnapshot() { try restored.restoreHot(l) }
            for l in folded.coldSnapshot() { try restored.restoreCold(l) }
            for l in markers { restored.apply(l) }
            let want = Set(a.map(\.id) + [claimed])
            for (name, st) in [("straight", straight), ("restored", restored)] {
                XCTAssertEqual(Set(st.events.keys), want, "round \(round) \(name): the first draw and the claimed event")
            }
        }
    }
}
