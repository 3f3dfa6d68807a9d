import XCTest
@testable import NudgeKit

/// An ActivityWatch export read in place (`ActivityWatch.read(bytes:)`)
/// gives what the parsed document gives (`read(_:)`): the same sessions,
/// away time and visits, or the same error, over random exports (field
/// order, repeated names, escapes, a byte order mark, fields of the wrong
/// type, bad times) and bytes changed at random.
final class ActivityWatchInPlaceTests: XCTestCase {
    let now = RFC3339.parse("2026-11-21T20:00:00-05:00")!.instant

    /// The general way, as ingest read exports before.
    func general(_ bytes: [UInt8]) -> Result<ActivityWatch.Usage, ToolError> {
        let doc: JSON
        do throws(JSONParseError) { doc = try JSON.parseDocument(bytes) } catch { return .failure(.data(error.message)) }
        return ActivityWatch.read(doc, now: now)
    }

    /// The same result both ways; and the in-place reader itself (not its
    /// fallback to the parser) reads every export the parser reads, and
    /// none it refuses.
    func assertSame(_ bytes: [UInt8], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let parsed = general(bytes)
        switch (ActivityWatch.read(bytes: bytes, now: now), parsed) {
        case (.success(let a), .success(let b)): XCTAssertEqual(a, b, what, file: file, line: line)
        case (.failure(let a), .failure(let b)): XCTAssertEqual(a.message, b.message, what, file: file, line: line)
        case (let a, let b): XCTFail("\(what): in place \(a), parsed \(b)", file: file, line: line)
        }
        let skip = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let inPlace = bytes.withUnsafeBytes { raw in try? ActivityWatch.scan(UnsafeRawBufferPointer(rebasing: raw[skip...]), now: now) }
        switch (inPlace, parsed) {
        case (.some(let seen), .success(let b)): XCTAssertEqual(seen.usage(gap: 5), b, what, file: file, line: line)
        case (.none, .failure): break
        case (let a, let b): XCTFail("\(what): read in place \(String(describing: a)), parsed \(b)", file: file, line: line)
        }
    }

    func randomExport(_ rng: inout SeededRandom) -> String {
        func pick<T>(_ xs: [T]) -> T { xs.randomElement(using: &rng)! }
        func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
        func time() -> String {
            if chance(0.004) { return pick(["\"yesterday\"", "12", "null", "\"2026-11-21T15:00:00\"", "\"1999-01-01T00:00:00Z\"", "\"2027-01-01T00:00:00Z\""]) }
            let t = now.seconds - Int64.random(in: 0...(3 * 86_400), using: &rng)
            let l = Zone.utc.local(Instant(seconds: t))
            return pick(["\"\(Zone.utc.format(Instant(seconds: t)))\"", "\"\(l.day)T\(l.time.description.count == 5 ? l.time.description + ":00" : l.time.description)+0000\"",
                         "\"\(l.day)T\(l.time.description.count == 5 ? l.time.description + ":00" : l.time.description).250Z\""])
        }
        func duration() -> String {
            if chance(0.004) { return pick(["\"60\"", "-1", "1e9", "null", "true"]) }
            return pick(["\(Int.random(in: 0...4000, using: &rng))", "\(Int.random(in: 0...400, using: &rng)).\(Int.random(in: 0...999, using: &rng))",
                         "2.5e1", "0.0", "-0", "1E2", "12.5000000000000001", "\(Double.random(in: 0...3000, using: &rng))"])
        }
        func app() -> String { pick(["\"Duolingo\"", "\"Firefox\"", "\"firefox-esr\"", "\"Minecraft\"", "\"Kh\\u0061n Academy\"", "\"Émile\"", "null", "3"]) }
        func key(_ k: String) -> String { chance(0.05) ? "\"\(k.prefix(1))\\u00\(String(k.utf8.dropFirst().first!, radix: 16))\(k.dropFirst(2))\"" : "\"\(k)\"" }
        func event(_ kind: Int) -> String {
            if chance(0.004) { return pick(["[]", "null", "\"x\""]) }
            var fields: [String] = []
            if !chance(0.004) { fields.append("\(key("timestamp")):\(time())") }
            if !chance(0.004) { fields.append("\(key("duration")):\(duration())") }
            var data: [String] = []
            switch kind {
            case 0: data.append("\(key("app")):\(app())"); data.append("\"title\":\"Window \(Int.random(in: 0...9, using: &rng))\"")
            case 1: data.append("\(key("status")):\(pick(["\"afk\"", "\"not-afk\"", "\"af\\u006b\"", "1"]))")
            default: data.append("\(key("url")):\(pick(["\"https://www.khanacademy.org/x\"", "\"http://YouTube.com:80/\"", "\"about:blank\"", "7"]))")
            }
            if chance(0.1) { data.append(data[0]) }  // a name twice: the first counts
            data.shuffle(using: &rng)
            fields.append("\(key("data")):" + (chance(0.03) ? pick(["[]", "\"d\"", "null"]) : "{\(data.joined(separator: ","))}"))
            if chance(0.1) { fields.append("\"id\":\(Int.random(in: 0...99, using: &rng))") }
            if chance(0.05) { fields.append("\"timestamp\":\(time())") }  // again: the first counts
            fields.shuffle(using: &rng)
            return "{" + fields.joined(separator: pick([",", ", ", " ,\n"])) + "}"
        }
        var buckets: [String] = []
        for _ in 0..<Int.random(in: 0...4, using: &rng) {
            let kind = Int.random(in: 0...2, using: &rng)
            let ids = [["aw-watcher-window_h", "win", "aw-watcher-windowX"], ["aw-watcher-afk_h", "afk"], ["aw-watcher-web-firefox", "aw-watcher-web", "web"]]
            let types = [["\"currentwindow\"", "\"afkstatus\""], ["\"afkstatus\""], ["\"web.tab.current\""]]
            var fields = ["\"events\":" + (chance(0.03) ? pick(["{}", "\"e\"", "null"]) : "[" + (0..<Int.random(in: 0...12, using: &rng)).map { _ in event(kind) }.joined(separator: ",") + "]")]
            if !chance(0.1) { fields.append("\"type\":" + (chance(0.05) ? "7" : pick(types[kind] + ["\"other\""]))) }
            if chance(0.3) { fields.append("\"hostname\":\"h\",\"created\":\"2026-11-21T00:00:00Z\",\"data\":{\"x\":[1,2,{\"y\":null}]}") }
            if chance(0.05) { fields.append("\"events\":[]") }
            fields.shuffle(using: &rng)
            buckets.append("\(key(pick(ids[kind]))):" + (chance(0.03) ? "[]" : "{\(fields.joined(separator: ","))}"))
        }
        var top = ["\"buckets\":{\(buckets.joined(separator: ","))}"]
        if chance(0.1) { top.append("\"buckets\":{}") }
        if chance(0.2) { top.append("\"version\":1") }
        top.shuffle(using: &rng)
        let doc = chance(0.02) ? "[]" : "{" + top.joined(separator: ",") + "}"
        return (chance(0.05) ? "\u{FEFF}" : "") + (chance(0.2) ? " \n" : "") + doc + (chance(0.5) ? "\n" : "")
    }

    func testInPlaceGivesWhatTheParsedDocumentGives() {
        var rng = SeededRandom(seed: 3301)
        var read = 0
        for round in 0..<3000 {
            let text = randomExport(&rng)
            let bytes = Array(text.utf8)
            assertSame(bytes, "round \(round): \(text)")
            if case .success(let u) = ActivityWatch.read(bytes: bytes, now: now), !u.sessions.isEmpty || !u.afk.isEmpty { read += 1 }
            // Bytes changed, cut or added at random.
            for _ in 0..<3 where !bytes.isEmpty {
                var b = bytes
                let k = Int.random(in: 0..<b.count, using: &rng)
                switch Int.random(in: 0...2, using: &rng) {
                case 0: b[k] = [0x22, 0x5C, 0x2C, 0x7B, 0x7D, 0x5B, 0x5D, 0x30, 0x2D, 0x65, 0x00, 0xFF, 0xC3].randomElement(using: &rng)!
                case 1: b.removeSubrange(k..<min(b.count, k + Int.random(in: 1...4, using: &rng)))
                default: b.insert(contentsOf: [[0x20], [0x22, 0x22], [0x2C], [0x7B, 0x7D], [0x5C, 0x75]].randomElement(using: &rng)!, at: k)
                }
                assertSame(b, "round \(round), changed: \(String(decoding: b, as: UTF8.self))")
            }
        }
        XCTAssertGreaterThan(read, 1000, "most exports read to some usage")
    }

    /// Deeply nested values the exports do not use are checked as the
    /// parser checks them (its depth bound included).
    func testDepthIsBoundedAsTheParserBoundsIt() {
        for depth in [250, 251, 252, 253, 254, 255, 256, 257, 300] {
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            for doc in ["{\"buckets\":{\"aw-watcher-window_h\":{\"type\":\"currentwindow\",\"events\":[{\"timestamp\":\"2026-11-21T15:00:00Z\",\"duration\":1,\"data\":{\"app\":\"A\",\"x\":\(nested)}}]}}}",
                        "{\"x\":\(nested),\"buckets\":{}}"] {
                assertSame(Array(doc.utf8), "depth \(depth)")
            }
        }
    }
}
