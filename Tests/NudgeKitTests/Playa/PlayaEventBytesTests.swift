import XCTest
@testable import NudgeKit

/// The fast forms `queue` and `generate` use give what the general ones
/// give, over random data: events read from their snapshot lines' bytes,
/// event records written as bytes, messages drawn from a pool the snapshot
/// holds undecoded, and the ids made for a draw.
final class PlayaEventBytesTests: XCTestCase {
    let zones = ["America/New_York", "Europe/London", "Asia/Kolkata", "Australia/Lord_Howe", "UTC"].map { try! Zone.named($0) }
    /// Texts that look like the lines' own keys and values, escapes, controls, non-ASCII.
    let tricky = ["\",\"message\":\"", "}", "{\"k\":\"event\",\"v\":", "\\", "\\\"", "\"", "null", "é", "\u{202E}", "\u{1B}[0m", "\n",
                  "🃏", "\u{85}", "日本", ",\"claim\":", " ", "a", "Coffee soon?"]

    func text(_ rng: inout SeededRandom, max: Int = 6) -> String {
        (0..<Int.random(in: 1...max, using: &rng)).map { _ in tricky.randomElement(using: &rng)! }.joined()
    }

    func randomEvent(_ rng: inout SeededRandom) -> Playa.Event {
        let zone = zones.randomElement(using: &rng)!
        let day = Day(year: 2026, month: 1, day: 1).adding(days: Int.random(in: 0...400, using: &rng))
        let t = TimeOfDay(hour: Int.random(in: 0...23, using: &rng), minute: Int.random(in: 0...59, using: &rng))
        let at = zone.resolve(LocalDateTime(day: day, time: t)).adding(seconds: Int64.random(in: -1...1, using: &rng) * 30)
        let plainIDs = Bool.random(using: &rng)
        var e = Playa.Event(id: plainIDs ? IDs.make(using: &rng) : text(&rng, max: 2), recipientID: plainIDs ? IDs.make(using: &rng) : text(&rng, max: 2),
                            date: day, time: t, at: at, messageID: Bool.random(using: &rng) ? IDs.make(using: &rng) : nil,
                            message: text(&rng), status: Playa.Status.allCases.randomElement(using: &rng)!,
                            notification: DeliveryState.allCases.randomElement(using: &rng)!,
                            error: Bool.random(using: &rng) ? nil : text(&rng, max: 3),
                            claim: Bool.random(using: &rng) ? IDs.make(using: &rng) : nil,
                            claimUntil: Bool.random(using: &rng) ? at.adding(seconds: Int64.random(in: -3600...3600, using: &rng)) : nil)
        if Bool.random(using: &rng) { e.handover.failures = Int.random(in: 0...9, using: &rng) }
        if Bool.random(using: &rng) { e.handover.retryAt = at.adding(seconds: Int64.random(in: 0...7200, using: &rng)) }
        if Int.random(in: 0..<8, using: &rng) == 0 { e.at = Instant(ms: e.at.ms + Int64.random(in: 1...999, using: &rng)) }
        return e
    }

    func bytes(_ o: JSONObject) -> [UInt8] {
        var out: [UInt8] = []
        o.write(into: &out)
        return out
    }

    /// An event's snapshot line, read from its bytes, is the event the
    /// general path reads from the parsed line, and the event written; read
    /// from the object by position, the same; written as bytes, the bytes
    /// of its object (and of the draw's line for it).
    func testEventLinesReadFromTheirBytesAreTheEventsParsed() throws {
        var rng = SeededRandom(seed: 2411)
        for _ in 0..<3000 {
            let e = randomEvent(&rng)
            let line = bytes(["k": "event", "v": .object(e.json)])
            let parsed = try JSON.parseObject(bytes: line)
            guard case .success(let general) = Playa.Event.fromEachField(parsed["v"]!.object!, trusted: true) else { return XCTFail("\(e)") }
            let scanned = line.withUnsafeBytes { PlayaState.scanEventLine($0) }
            XCTAssertEqual(scanned, general, String(decoding: line, as: UTF8.self))
            XCTAssertEqual(scanned, e)
            XCTAssertEqual(Playa.Event.fromFields(e.json), e, "read by position")
            // Written as bytes: the object's bytes, and the draw's line too.
            var written: [UInt8] = []
            e.write(into: &written)
            XCTAssertEqual(written, bytes(e.json))
            var saved = Playa.saved(e)
            saved["batch"] = .string(IDs.make(using: &rng))
            XCTAssertEqual(Playa.savedLine(e, batch: saved["batch"]!.string!), bytes(saved))
        }
    }

    /// Lines in another layout (fields moved, spaces, a field of another
    /// type, one more or one less, cut short, a damaged string) are never
    /// read by the scanner, or by position, as something else: each gives
    /// nil, or the very event the general path reads.
    func testEventLinesInAnotherLayoutAreLeftToTheGeneralPath() throws {
        var rng = SeededRandom(seed: 2412)
        var declined = 0
        for _ in 0..<3000 {
            let e = randomEvent(&rng)
            var o = e.json
            var line: [UInt8]
            switch Int.random(in: 0..<7, using: &rng) {
            case 0:
                let k = o.keys.randomElement(using: &rng)!
                let v = o[k]!
                o[k] = nil
                o[k] = v
                line = bytes(["k": "event", "v": .object(o)])
            case 1:
                o[["message_id", "error", "claim", "failures", "date"].randomElement(using: &rng)!] = [JSON.int(7), .bool(true), .null, .string("x")].randomElement(using: &rng)!
                line = bytes(["k": "event", "v": .object(o)])
            case 2:
                o["extra"] = .string(text(&rng))
                line = bytes(["k": "event", "v": .object(o)])
            case 3:
                line = Array(String(decoding: bytes(["k": "event", "v": .object(o)]), as: UTF8.self).replacingOccurrences(of: ",\"", with: ", \"").utf8)
            case 4:
                line = bytes(["k": "event", "v": .object(o)])
                line.removeSubrange(Int.random(in: 0..<line.count, using: &rng)...)
            case 5:
                line = bytes(["k": "event", "v": .object(o)])
                line[Int.random(in: 0..<line.count, using: &rng)] = [0x00, 0x22, 0x5C, 0xFF, 0x7D, 0x2C].randomElement(using: &rng)!
            default:
                o[["claim", "claim_until", "failures", "retry_at", "error"].randomElement(using: &rng)!] = nil
                line = bytes(["k": "event", "v": .object(o)])
            }
            let general: Playa.Event? = (try? JSON.parseObject(bytes: line)).flatMap { l in
                l["k"]?.string == "event" ? l["v"]?.object.flatMap { try? Playa.Event.fromEachField($0, trusted: true).get() } : nil
            }
            let scanned = line.withUnsafeBytes { PlayaState.scanEventLine($0) }
            if let s = scanned { XCTAssertEqual(s, general, String(decoding: line, as: UTF8.self)) } else { declined += 1 }
            // The same object read by position: nil, or what each field looked up by name gives.
            if let l = try? JSON.parseObject(bytes: line), let v = l["v"]?.object, let f = Playa.Event.fromFields(v) {
                XCTAssertEqual(f, try? Playa.Event.fromEachField(v, trusted: true).get(), String(decoding: line, as: UTF8.self))
            }
        }
        XCTAssertGreaterThan(declined, 1000, "most of these layouts go the general way")
    }

    /// A lazily read snapshot (events read from their lines' bytes,
    /// recipients with their pools undecoded) restores the state the
    /// general path restores.
    func testALazyReadOfTheHotLinesRestoresTheSameState() throws {
        var rng = SeededRandom(seed: 2413)
        var s = PlayaState(full: true)
        let zone = zones[0]
        for k in 0..<12 {
            var r = Playa.Recipient(id: IDs.make(using: &rng), name: "R\(k)" + text(&rng, max: 2), platform: .sms, phone: PhoneNumber(e164: "+1415555\(1000 + k)"),
                                    username: nil, paused: k % 5 == 0, schedule: .random(1 + k % 10),
                                    messages: (0..<Int.random(in: 0...9, using: &rng)).map { _ in Playa.Message(id: IDs.make(using: &rng), text: text(&rng)) })
            r.drawSeed = rng.next()
            s.apply(Playa.saved(r))
            for ev in Playa.draw(r, date: Day(year: 2026, month: 11, day: 23), zone: zone) { s.apply(Playa.saved(ev)) }
        }
        for _ in 0..<150 {
            var e = randomEvent(&rng)
            e.status = .pending
            s.apply(Playa.saved(e))
        }
        let (storage, ranges) = snapshotLines(s.hotSnapshot())
        var lazy = PlayaState(full: false)
        var parsed = PlayaState(full: false)
        var taken = 0
        for r in ranges {
            let line = Bytes(storage, r)
            let o = try line.withUnsafeBytes { (b) throws(JSONParseError) in try JSON.parseObject(b) }
            if lazy.restoreHotRaw(line) { taken += 1 } else { try lazy.restoreHot(o) }
            try parsed.restoreHot(o)
        }
        XCTAssertGreaterThan(taken, 150)
        XCTAssertEqual(lazy.events, parsed.events)
        XCTAssertEqual(lazy.events, s.events)
        XCTAssertEqual(lazy.recipients, parsed.recipients)
        XCTAssertEqual(lazy.hotSnapshot().map { bytes($0) }, s.hotSnapshot().map { bytes($0) })
    }

    /// An event's record written as bytes is the record's object written.
    func testEventRecordsWrittenAsBytesAreTheRecords() {
        var rng = SeededRandom(seed: 2414)
        for _ in 0..<3000 {
            let e = randomEvent(&rng)
            let r: Playa.Recipient? = Bool.random(using: &rng) ? nil
                : Playa.Recipient(id: e.recipientID, name: text(&rng, max: 3), platform: Playa.Platform.allCases.randomElement(using: &rng)!,
                                  phone: nil, username: "u", paused: false, schedule: .random(1), messages: [])
            let now = e.at.adding(seconds: Int64.random(in: -7200...7200, using: &rng))
            let zone = zones.randomElement(using: &rng)!
            var fast: [UInt8] = []
            Playa.writeEventRecord(e, recipient: r, now: now, zone: zone, into: &fast)
            XCTAssertEqual(String(decoding: fast, as: UTF8.self),
                           String(decoding: bytes(Playa.eventRecord(e, recipient: r, now: now, zone: zone)), as: UTF8.self))
        }
    }

    /// Messages picked from a pool the snapshot holds (undecoded) are the
    /// pool's, for any indices; a draw from it is the draw from the decoded
    /// pool; bytes in another form are left to the decoder.
    func testMessagesPickedFromARawPoolAreThePools() throws {
        var rng = SeededRandom(seed: 2415)
        for round in 0..<400 {
            let n = round % 9 == 0 ? 1 : round % 9 == 1 ? Playa.maxMessages : Int.random(in: 1...Playa.maxMessages, using: &rng)
            var r = Playa.Recipient(id: IDs.make(using: &rng), name: "R", platform: .whatsapp, phone: PhoneNumber(e164: "+14155551000"), username: nil,
                                    paused: false, schedule: Bool.random(using: &rng) ? .random(Int.random(in: 1...10, using: &rng))
                                        : .fixed([TimeOfDay(hour: 8, minute: 30), TimeOfDay(hour: 12, minute: 0), TimeOfDay(hour: 19, minute: 45)]),
                                    messages: (0..<n).map { _ in Playa.Message(id: Bool.random(using: &rng) ? IDs.make(using: &rng) : text(&rng, max: 2), text: text(&rng)) })
            r.drawSeed = rng.next()
            var s = PlayaState(full: true)
            s.apply(Playa.saved(r))
            let (storage, ranges) = snapshotLines(s.hotSnapshot())
            var lazy = PlayaState(full: false)
            for range in ranges { _ = lazy.restoreHotRaw(Bytes(storage, range)) }
            guard let raw = lazy.recipients[r.id], case .raw = raw.pool else { return XCTFail("the pool is not kept raw") }
            let ks = (0..<Int.random(in: 0...12, using: &rng)).map { _ in Int.random(in: -2...(n + 2), using: &rng) }
            XCTAssertEqual(raw.pool.messages(at: ks), .some(ks.map { r.messages.indices.contains($0) ? r.messages[$0] : nil }), "\(ks)")
            let zone = zones.randomElement(using: &rng)!
            let day = Day(year: 2026, month: 3, day: 1).adding(days: Int.random(in: 0...300, using: &rng))
            let seed: UInt64? = Bool.random(using: &rng) ? rng.next() : nil
            XCTAssertEqual(Playa.draw(raw, date: day, zone: zone, seed: seed), Playa.draw(r, date: day, zone: zone, seed: seed))
        }
        // Not the compact form: the scanner declines, the decoder decides.
        let spaced = Array(#"["a", "b","c","d"]"#.utf8)
        XCTAssertNil(spaced.withUnsafeBytes { Playa.MessagePool.flatPairs([1], in: $0, count: 2) })
        let short = Array(#"["a","b"]"#.utf8)
        XCTAssertNil(short.withUnsafeBytes { Playa.MessagePool.flatPairs([1], in: $0, count: 2) }, "fewer messages than counted")
        let pool = Playa.MessagePool.raw(Bytes(spaced), count: 2)
        XCTAssertNil(pool.messages(at: [1]))
        XCTAssertEqual(pool.messages, [Playa.Message(id: "a", text: "b"), Playa.Message(id: "c", text: "d")])
    }

    /// Ids and batch names are the ones made by string interpolation before.
    func testDrawIDsAndBatchNamesAreAsBefore() {
        var rng = SeededRandom(seed: 2416)
        for _ in 0..<3000 {
            let v = rng.next() >> UInt64.random(in: 0...63, using: &rng)
            let digits = Int.random(in: -1...40, using: &rng)
            var expected = String(v, radix: 16)
            while expected.utf8.count < digits { expected = "0" + expected }
            XCTAssertEqual(IDs.hex(v, digits: digits), expected)
        }
        for _ in 0..<300 {
            let evs = (0..<Int.random(in: 0...12, using: &rng)).map { _ in
                var e = randomEvent(&rng)
                if Bool.random(using: &rng) { e.at = Instant(ms: -e.at.ms) }
                return e
            }
            XCTAssertEqual(Playa.batchID(evs), IDs.stable(evs.sorted { $0.id < $1.id }.map { "\($0.id) \($0.at.ms) \($0.messageID ?? "")" }.joined(separator: ",")))
        }
    }
}
