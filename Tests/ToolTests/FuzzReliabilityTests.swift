import XCTest
import NudgeKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reliability suite, part five: a seeded fuzzer feeding malformed input
/// (about 10,000 lines and documents in all) to every command that reads
/// records: random bytes, truncated JSON, wrong types, huge numbers, deep
/// nesting, control characters, invalid UTF-8, BOMs, CRLF, blank lines.
/// No crash, no hang; every bad line named as `TOOL: FILE:LINE: reason`;
/// exit 65 when any line was bad; the good lines applied; --strict applies
/// nothing.
final class FuzzReliabilityTests: ReliabilityCase {

    /// What a generated line is known to be.
    enum Kind { case good, bad, either, blank }

    struct Line {
        var bytes: [UInt8]
        var kind: Kind
        var what: String
    }

    /// A command that reads NDJSON records.
    struct Reader {
        var tool: String
        var args: [String]
        var setup: [[String]] = []
        /// The k-th good record, each distinct (fields as raw JSON values, in order).
        var good: (Int) -> [(String, String)]
        /// The field that must be valid (a bad value makes the record bad).
        var key: String
        /// Values of `key` that are surely bad for this command.
        var badValues: [String]
        /// How many records a run applied, from its output.
        var applied: (RunResult) -> Int
        var strict = true
    }

    static func object(_ fields: [(String, String)]) -> [UInt8] {
        Array(("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}").utf8)
    }

    static func replacing(_ fields: [(String, String)], _ key: String, with v: String) -> [(String, String)] {
        fields.map { $0.0 == key ? ($0.0, v) : $0 }
    }

    /// A seeded mix of lines for `r`: about one in three good.
    func lines(for r: Reader, count n: Int, seed: UInt64, firstGood: inout Int) -> [Line] {
        var g = SeededRandom(seed: seed)
        var out: [Line] = []
        func goodLine() -> [(String, String)] {
            defer { firstGood += 1 }
            return r.good(firstGood)
        }
        let controls: [UInt8] = Array(0x00...0x1F).filter { $0 != 0x0A }
        let badUTF8: [[UInt8]] = [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xE2, 0x82], [0x80]]
        let huge = ["1e400", "-1e400", "123456789012345678901234567890", "1e999999", "-0.0000000000000000000001e-400", "18446744073709551616"]
        let wrong = ["true", "false", "null", "[]", "{}", "[1,2]", "{\"a\":1}"] + r.badValues
        while out.count < n {
            switch Int.random(in: 0..<20, using: &g) {
            case 0...5:
                out.append(Line(bytes: Self.object(goodLine()), kind: .good, what: "good"))
            case 6:
                // CRLF, and hostile but valid text in a field nobody reads.
                var f = goodLine()
                f.append(("note", "\"\\u001b]0;x\\u0007 \\u202e\\r\\n\\t\""))
                out.append(Line(bytes: Self.object(f) + [0x0D], kind: .good, what: "CRLF"))
            case 7:
                let b = Int.random(in: 0...3, using: &g)
                out.append(Line(bytes: [[], [0x20], [0x09, 0x20], [0x0D]][b], kind: .blank, what: "blank"))
            case 8:
                var b: [UInt8] = [UInt8(ascii: "x")]
                for _ in 0..<Int.random(in: 0...60, using: &g) {
                    var c = UInt8.random(in: 0...255, using: &g)
                    if c == 0x0A { c = 0x0B }
                    b.append(c)
                }
                out.append(Line(bytes: b, kind: .bad, what: "random bytes"))
            case 9:
                let full = Self.object(goodLine())
                out.append(Line(bytes: Array(full[..<Int.random(in: 1..<(full.count - 1), using: &g)]), kind: .bad, what: "truncated"))
            case 10:
                let f = Self.replacing(goodLine(), r.key, with: wrong.randomElement(using: &g)!)
                out.append(Line(bytes: Self.object(f), kind: .bad, what: "wrong type"))
            case 11:
                let f = Self.replacing(goodLine(), r.key, with: huge.randomElement(using: &g)!)
                out.append(Line(bytes: Self.object(f), kind: .bad, what: "huge number"))
            case 12:
                let d = Int.random(in: 300...3000, using: &g)
                let closed = Bool.random(using: &g)
                let v = String(repeating: "[", count: d) + (closed ? String(repeating: "]", count: d) : "")
                let f = Self.replacing(goodLine(), r.key, with: v)
                out.append(Line(bytes: Self.object(f), kind: .bad, what: "deep nesting"))
            case 13:
                // A raw control character inside the key's value.
                let f = goodLine()
                var b = Self.object(f)
                let at = Self.valueStart(of: r.key, in: b) + 1
                b.insert(controls.randomElement(using: &g)!, at: at + 1)
                out.append(Line(bytes: b, kind: .bad, what: "control character"))
            case 14:
                var b = Self.object(Self.replacing(goodLine(), r.key, with: "\"\""))
                let at = Self.valueStart(of: r.key, in: b) + 1
                b.insert(contentsOf: Array("ab".utf8) + badUTF8.randomElement(using: &g)! + Array("cd".utf8), at: at)
                out.append(Line(bytes: b, kind: .bad, what: "invalid UTF-8"))
            case 15:
                // A BOM before a good line: skipped or reported, either is fine;
                // before a bad one: bad.
                if Bool.random(using: &g) {
                    out.append(Line(bytes: [0xEF, 0xBB, 0xBF] + Self.object(goodLine()), kind: .either, what: "BOM"))
                } else {
                    out.append(Line(bytes: [0xEF, 0xBB, 0xBF] + Array("{\"nothing\":1}".utf8), kind: .bad, what: "BOM, no key"))
                }
            case 16:
                let v = ["[1,2]", "\"text\"", "42", "null", "true", "{}", "[{\"\(r.key)\":1}]"].randomElement(using: &g)!
                out.append(Line(bytes: Array(v.utf8), kind: .bad, what: "not an object"))
            case 17:
                let f = goodLine().filter { $0.0 != r.key }
                out.append(Line(bytes: Self.object(f), kind: .bad, what: "missing key"))
            case 18:
                let f = Self.replacing(goodLine(), r.key, with: ["\"\\ud800\"", "\"\\u0000\"", "\"\\x41\"", "\"\\", "'single'"].randomElement(using: &g)!)
                out.append(Line(bytes: Self.object(f), kind: .bad, what: "bad escape"))
            default:
                // A long line: a valid record with 20 KB in an unread field.
                var f = goodLine()
                f.append(("padding", "\"" + String(repeating: "é", count: 10_000) + "\""))
                out.append(Line(bytes: Self.object(f), kind: .good, what: "long line"))
            }
        }
        return out
    }

    /// The offset of the first byte of `key`'s value (its opening quote) in an object.
    static func valueStart(of key: String, in b: [UInt8]) -> Int {
        let needle = Array("\"\(key)\":".utf8)
        var i = 0
        while Array(b[i..<(i + needle.count)]) != needle { i += 1 }
        return i + needle.count
    }

    static func file(_ lines: [Line]) -> [UInt8] {
        var out: [UInt8] = []
        for l in lines { out += l.bytes; out.append(0x0A) }
        return out
    }

    /// Parses `TOOL: NAME:LINE: reason` lines; fails on any other line.
    func namedLines(_ o: Outcome, tool: String, source: String, file: StaticString = #filePath, line: UInt = #line) -> [Int] {
        var out: [Int] = []
        let prefix = Array("\(tool): \(source):".utf8)
        for l in Array(o.result.err.utf8).split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            let b = Array(l)
            guard b.starts(with: prefix) else {
                XCTFail("not `\(tool): \(source):LINE: reason`: \(String(decoding: b, as: UTF8.self).debugDescription)", file: file, line: line)
                continue
            }
            let rest = b[prefix.count...]
            let digits = rest.prefix { $0 >= 0x30 && $0 <= 0x39 }
            let after = rest.dropFirst(digits.count)
            guard let n = Int(String(decoding: digits, as: UTF8.self)), after.starts(with: Array(": ".utf8)), after.count > 2 else {
                XCTFail("no line number and reason: \(String(decoding: b, as: UTF8.self).debugDescription)", file: file, line: line)
                continue
            }
            out.append(n)
        }
        if !o.result.err.isEmpty { XCTAssertTrue(o.result.err.hasSuffix("\n"), file: file, line: line) }
        return out
    }

    /// Feeds `n` lines to `r` from a file, then the same from stdin, then
    /// with --strict; each into a fresh store.
    func fuzz(_ r: Reader, lines n: Int, seed: UInt64) {
        var goodIndex = 0
        let ls = lines(for: r, count: n, seed: seed, firstGood: &goodIndex)
        let bytes = Self.file(ls)
        let path = tmp + "/fuzz-\(r.tool)-\(seed).ndjson"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        var firstBad: Int? = nil
        for (run, viaStdin) in [(0, false), (1, true)] {
            let dir = tmp + "/fuzz-\(seed)-\(run)"
            let env = [r.tool.uppercased() + "_DATA_DIR": dir]
            for args in r.setup { XCTAssertEqual(runLimited(r.tool, args, env: env).code, 0) }
            let o = viaStdin ? runLimited(r.tool, r.args, stdinBytes: bytes, env: env, timeout: 60)
                             : runLimited(r.tool, r.args + [path], env: env, timeout: 60)
            let what = "\(r.tool) \(r.args.joined(separator: " ")) (seed \(seed), \(viaStdin ? "stdin" : "file"))"
            XCTAssertFalse(o.timedOut, "\(what): hung")
            XCTAssertNil(o.signal, "\(what): crashed with signal \(o.signal ?? 0): \(o.err.suffix(2000))")
            guard o.signal == nil, !o.timedOut else { return }
            let named = namedLines(o, tool: r.tool, source: viaStdin ? "stdin" : path)
            XCTAssertEqual(named.count, Set(named).count, "\(what): a line named twice")
            let namedSet = Set(named)
            var applied = 0
            for (i, l) in ls.enumerated() {
                let no = i + 1
                switch l.kind {
                case .bad: XCTAssertTrue(namedSet.contains(no), "\(what): line \(no) (\(l.what)) not named: \(String(decoding: l.bytes.prefix(120), as: UTF8.self).debugDescription)")
                case .good: XCTAssertFalse(namedSet.contains(no), "\(what): good line \(no) (\(l.what)) named")
                    applied += 1
                case .blank: XCTAssertFalse(namedSet.contains(no), "\(what): blank line \(no) named")
                case .either: if !namedSet.contains(no) { applied += 1 }
                }
            }
            XCTAssertEqual(o.code, namedSet.isEmpty ? 0 : 65, "\(what): \(o.err.prefix(300))")
            for line in o.result.lines {
                XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(line.utf8)), "\(what): stdout is NDJSON: \(line.prefix(200))")
            }
            XCTAssertEqual(r.applied(o.result), applied, "\(what): every good line applied, no bad one")
            XCTAssertGreaterThan(applied, n / 4, "\(what): the fuzzer made too few good lines")
            XCTAssertGreaterThan(namedSet.count, n / 4, "\(what): the fuzzer made too few bad lines")
            firstBad = named.min()
        }
        guard r.strict, let first = firstBad else { return }
        let dir = tmp + "/fuzz-\(seed)-strict"
        let env = [r.tool.uppercased() + "_DATA_DIR": dir]
        for args in r.setup { XCTAssertEqual(runLimited(r.tool, args, env: env).code, 0) }
        let journalBefore = names(in: dir + "/journal").map { bytesOf(dir + "/journal/" + $0) }
        let o = runLimited(r.tool, r.args + ["--strict", path], env: env, timeout: 60)
        XCTAssertNil(o.signal)
        XCTAssertEqual(o.code, 65)
        XCTAssertEqual(o.out, "", "\(r.tool) --strict: nothing applied, nothing printed")
        XCTAssertEqual(o.errLines.count, 1, o.err)
        XCTAssertEqual(namedLines(o, tool: r.tool, source: path), [first], "--strict stops at the first bad line")
        XCTAssertTrue(o.err.hasSuffix("(--strict: nothing applied)\n"), o.err)
        XCTAssertEqual(names(in: dir + "/journal").map { bytesOf(dir + "/journal/" + $0) }, journalBefore, "\(r.tool) --strict wrote nothing")
    }

    func bytesOf(_ path: String) -> [UInt8] { bytes(path) }

    // MARK: The readers

    /// Instants in the past, one minute apart, each distinct.
    static func past(_ k: Int) -> String {
        let day = 1 + (k / 600) % 28, minute = k % 600
        return String(format: "\"2026-10-%02dT%02d:%02d:00-04:00\"", day, 8 + minute / 60, minute % 60)
    }

    static func sumOf(_ field: String, type: String) -> (RunResult) -> Int {
        { r in r.records.filter { $0["type"] as? String == type }.reduce(0) { $0 + ($1[field] as? Int ?? 0) } }
    }

    func testFuzzTenclubIngest() {
        fuzz(Reader(tool: "tenclub", args: ["ingest"],
                    good: { k in k % 3 == 0 ? [("at", String(1_790_000_000 + k * 60)), ("source", "\"fuzz\"")]
                                            : [("source", "\"swayidle\""), ("at", Self.past(k)), ("n", "\(k)")] },
                    key: "at", badValues: ["\"tomorrow\"", "\"2026-13-45T99:00:00Z\"", "-5", "0", "\"\""],
                    applied: Self.sumOf("added", type: "day")),
             lines: 1500, seed: 0xF022_0001)
    }

    func testFuzzTenclubSmsReceive() {
        fuzz(Reader(tool: "tenclub", args: ["sms", "receive"],
                    good: { k in [("from", "\"+14155550132\""), ("body", "\"message \(k) \\u00e9\\u001b[31m\""), ("at", Self.past(k))] },
                    key: "from", badValues: ["\"not a number\"", "\"\"", "\"+1\"", "5"],
                    applied: { $0.records.filter { $0["type"] as? String == "inbound" }.count }),
             lines: 1200, seed: 0xF022_0002)
    }

    static let rewardsSetup: [[String]] = [["init"], ["child", "add", "Alex"], ["app", "set", "Duolingo", "--learning"]]

    func testFuzzRewardsIngest() {
        fuzz(Reader(tool: "rewards", args: ["ingest"], setup: Self.rewardsSetup,
                    good: { k in [("child", "\"Alex\""), ("app", k % 2 == 0 ? "\"Duolingo\"" : "\"App \(k % 7)\""),
                                  ("start", Self.past(k)), ("duration_s", "\(30 + k % 20)")] },
                    key: "child", badValues: ["\"Nobody\"", "\"\"", "7"],
                    applied: Self.sumOf("added", type: "day")),
             lines: 1500, seed: 0xF022_0003)
        // The time fields too.
        fuzz(Reader(tool: "rewards", args: ["ingest"], setup: Self.rewardsSetup,
                    good: { k in [("child", "\"Alex\""), ("app", "\"Duolingo\""), ("start", Self.past(k)), ("duration_s", "45")] },
                    key: "start", badValues: ["\"yesterday\"", "\"\"", "\"2026-02-30T10:00:00Z\""],
                    applied: Self.sumOf("added", type: "day")),
             lines: 800, seed: 0xF022_0004)
    }

    func testFuzzRewardsAppImport() {
        fuzz(Reader(tool: "rewards", args: ["app", "import"], setup: [["init"]],
                    good: { k in [("app", "\"App \(k)\""), ("category", ["\"learning\"", "\"reward\"", "\"ignore\""][k % 3])] },
                    key: "category", badValues: ["\"sometimes\"", "\"\"", "\"LEARNING\"", "1"],
                    applied: { $0.records.filter { $0["type"] as? String == "app" }.count }, strict: false),
             lines: 1000, seed: 0xF022_0005)
    }

    // MARK: Documents

    /// Malformed documents, each fed alone: exit 65 with one line naming
    /// the input, nothing changed; never a crash or a hang.
    func fuzzDocuments(tool: String, args: (String) -> [String], stdin: Bool, setup: [[String]], good: [UInt8],
                       mutations: [(String, [UInt8])], state: [String], seed: UInt64, count n: Int) {
        for a in setup { XCTAssertEqual(runLimited(tool, a).code, 0) }
        var before = runLimited(tool, state).out
        var g = SeededRandom(seed: seed)
        var docs = mutations
        while docs.count < n {
            var d = good
            switch Int.random(in: 0..<6, using: &g) {
            case 0: d = Array(d[..<Int.random(in: 0..<(d.count - 1), using: &g)])
            case 1: d[Int.random(in: 0..<d.count, using: &g)] = UInt8.random(in: 0...255, using: &g)
                    d[Int.random(in: 0..<d.count, using: &g)] = [0x00, 0x1B, 0x7B, 0x22, 0x5D, 0xFF].randomElement(using: &g)!
            case 2: d.insert(contentsOf: Array(String(repeating: "[", count: Int.random(in: 300...5000, using: &g)).utf8), at: 0)
            case 3: d = (0..<Int.random(in: 1...300, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) }
            case 4: d += Array("garbage".utf8)
            default: d = [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + d
            }
            docs.append(("random \(docs.count)", d))
        }
        for (i, (what, doc)) in docs.enumerated() {
            let path = tmp + "/doc-\(i).json"
            _ = FileManager.default.createFile(atPath: path, contents: Data(doc))
            let viaStdin = stdin && i % 5 == 0
            let o = viaStdin ? runLimited(tool, args("-"), stdinBytes: doc, timeout: 30) : runLimited(tool, args(path), timeout: 30)
            let name = viaStdin ? "stdin" : path
            XCTAssertFalse(o.timedOut, "\(tool) \(what): hung")
            XCTAssertNil(o.signal, "\(tool) \(what): crashed: \(o.err.suffix(1500))")
            if i < mutations.count { XCTAssertEqual(o.code, 65, "\(tool) \(what): refused: \(o.err)") }
            guard o.code != 0 else {
                // A byte flipped where it changes nothing that matters, or a BOM skipped.
                before = runLimited(tool, state).out
                continue
            }
            XCTAssertEqual(o.code, 65, "\(tool) \(what): \(o.err)")
            XCTAssertEqual(o.errLines.count, 1, "\(tool) \(what): one line: \(o.err)")
            XCTAssertTrue(o.err.hasPrefix("\(tool): \(name)"), "\(tool) \(what): names \(name): \(o.err)")
            XCTAssertEqual(o.out, "")
            XCTAssertEqual(runLimited(tool, state).out, before, "\(tool) \(what): nothing changed")
        }
    }

    func testFuzzPlayaImport() {
        let good = Array(#"{"type":"playa_export","version":1,"recipients":[{"id":"ex0mum000001","name":"Mum","platform":"whatsapp","phone":"+447700900123","paused":false,"schedule":{"mode":"fixed","times":["18:30"]},"messages":[{"id":"ex0m1","text":"Hi Mum"}]}],"events":[],"confirmed":[],"generated":[]}"#.utf8)
        func doc(_ s: String) -> [UInt8] { Array(s.utf8) }
        let mutations: [(String, [UInt8])] = [
            ("recipients a string", doc(#"{"type":"playa_export","version":1,"recipients":"oops","events":[]}"#)),
            ("events an object", doc(#"{"type":"playa_export","version":1,"recipients":[],"events":{}}"#)),
            ("confirmed a number", doc(#"{"type":"playa_export","version":1,"confirmed":5}"#)),
            ("generated null", doc(#"{"type":"playa_export","version":1,"generated":null}"#)),
            ("recipient not an object", doc(#"{"type":"playa_export","version":1,"recipients":[5]}"#)),
            ("huge per_day", doc(#"{"type":"playa_export","version":1,"recipients":[{"id":"a","name":"A","platform":"sms","phone":"+14155550132","schedule":{"mode":"random","per_day":1e400},"messages":[]}]}"#)),
            ("times wrong type", doc(#"{"type":"playa_export","version":1,"recipients":[{"id":"a","name":"A","platform":"sms","phone":"+14155550132","schedule":{"mode":"fixed","times":[1e308]},"messages":[]}]}"#)),
            ("control character", doc("{\"type\":\"playa_export\",\"version\":1,\"recipients\":[{\"id\":\"a\u{1}\",\"name\":\"A\"}]}")),
            ("invalid UTF-8", doc(#"{"type":"playa_export","version":1,"recipients":[{"id":"a","name":""#) + [0xFF, 0xFE] + doc(#"","platform":"sms"}]}"#)),
            ("empty", []),
            ("not an export", doc(#"{"type":"something"}"#)),
            ("an array", doc("[]")),
        ]
        fuzzDocuments(tool: "playa", args: { ["import", $0] }, stdin: true, setup: [], good: good, mutations: mutations,
                      state: ["export", "--now", reliabilityNow], seed: 0xF022_0006, count: 90)
    }

    func testFuzzRewardsActivityWatch() {
        let good = Array(#"{"buckets":{"aw-watcher-window_x":{"type":"currentwindow","events":[{"timestamp":"2026-11-21T15:00:00Z","duration":600.0,"data":{"app":"Duolingo","title":"Lesson"}}]},"aw-watcher-afk_x":{"type":"afkstatus","events":[{"timestamp":"2026-11-21T15:02:00Z","duration":30,"data":{"status":"afk"}}]}}}"#.utf8)
        func doc(_ s: String) -> [UInt8] { Array(s.utf8) }
        func event(_ e: String) -> [UInt8] { doc(#"{"buckets":{"aw-watcher-window_x":{"type":"currentwindow","events":["# + e + "]}}}") }
        let mutations: [(String, [UInt8])] = [
            ("duration 1e300", event(#"{"timestamp":"2026-11-21T15:00:00Z","duration":1e300,"data":{"app":"Duolingo"}}"#)),
            ("duration 9.2e18", event(#"{"timestamp":"2026-11-21T15:00:00Z","duration":9.2e18,"data":{"app":"Duolingo"}}"#)),
            ("duration 1e400", event(#"{"timestamp":"2026-11-21T15:00:00Z","duration":1e400,"data":{"app":"Duolingo"}}"#)),
            ("duration negative", event(#"{"timestamp":"2026-11-21T15:00:00Z","duration":-5,"data":{"app":"Duolingo"}}"#)),
            ("duration a string", event(#"{"timestamp":"2026-11-21T15:00:00Z","duration":"600","data":{"app":"Duolingo"}}"#)),
            ("timestamp a number", event(#"{"timestamp":1795000000,"duration":5,"data":{"app":"Duolingo"}}"#)),
            ("event not an object", event("42")),
            ("buckets a list", doc(#"{"buckets":[]}"#)),
            ("empty", []),
        ]
        fuzzDocuments(tool: "rewards", args: { ["ingest", "--child", "Alex", "--activitywatch", $0] }, stdin: false, setup: Self.rewardsSetup,
                      good: good, mutations: mutations, state: ["child", "export", "Alex"], seed: 0xF022_0007, count: 70)
    }

    /// yomo's model command (`--llm-command`) is an input too: whatever it
    /// answers, yomo adds a reminder (the model's or the built-in parse's)
    /// or refuses with a message; it never crashes, and the list, `due` and
    /// `next` of what was added never hang.
    func testFuzzYomoModelAnswers() {
        func rule(_ r: String, type: String = "custom", date: String = "\"2026-12-01\"", time: String = "\"09:00\"", title: String = "\"water plants\"") -> [UInt8] {
            Array("{\"title\":\(title),\"date\":\(date),\"time\":\(time),\"recurrence_type\":\"\(type)\",\"recurrence_rule\":\(r)}".utf8)
        }
        func r(_ interval: String, _ unit: String = "\"day\"", days: String = "null", start: String = "null", end: String = "null") -> String {
            "{\"interval\":\(interval),\"unit\":\(unit),\"days_of_week\":\(days),\"time_range_start\":\(start),\"time_range_end\":\(end),\"based_on_completion\":false}"
        }
        let good = rule(r("2"))
        var docs: [(String, [UInt8])] = [
            ("interval 0", rule(r("0"))), ("interval -1", rule(r("-1"))), ("interval 1e400", rule(r("1e400"))),
            ("interval 1e18", rule(r("1000000000000000000"))), ("interval 2^63", rule(r("9223372036854775808"))),
            ("interval 2^31 hours", rule(r("2147483648", "\"hour\""))), ("interval 1e6 months", rule(r("1000000", "\"month\""))),
            ("unit year", rule(r("1", "\"year\""))), ("days numbers", rule(r("1", "\"week\"", days: "[1,2]"))),
            ("days unknown", rule(r("1", "\"week\"", days: "[\"xyz\"]"))), ("days empty", rule(r("1", "\"week\"", days: "[]"))),
            ("hours, range backwards", rule(r("1", "\"hour\"", start: "\"21:00\"", end: "\"09:00\""))),
            ("hours, range 00:00-00:00", rule(r("1", "\"hour\"", start: "\"00:00\"", end: "\"00:00\""))),
            ("hours, range bad", rule(r("1", "\"hour\"", start: "\"25:99\"", end: "\"09:00\""))),
            ("time 24:00", rule(r("1"), time: "\"24:00\"")), ("date 0000-00-00", rule(r("1"), date: "\"0000-00-00\"")),
            ("date 9999-12-31", rule(r("1", "\"month\""), date: "\"9999-12-31\"")), ("date 0001-01-01", rule(r("1"), date: "\"0001-01-01\"")),
            ("date Feb 30", rule(r("1"), date: "\"2026-02-30\"")), ("date a number", rule(r("1"), date: "20261201")),
            ("title empty", rule(r("1"), title: "\"  \"")), ("title a number", rule(r("1"), title: "5")),
            ("title 20k", rule(r("1"), title: "\"" + String(repeating: "w", count: 20_000) + "\"")),
            ("title controls", rule(r("1"), title: "\"\\u001b]0;pwned\\u0007\\u202e\"")),
            ("daily with a rule", rule(r("3", "\"hour\""), type: "daily")), ("weekly, no days", rule("null", type: "weekly")),
            ("rule a list", rule("[]")), ("type unknown", rule(r("1"), type: "sometimes")),
            ("prose around", Array("Sure! Here it is:\n```json\n".utf8) + good + Array("\n```".utf8)),
            ("two objects", good + good), ("braces only", Array("}{".utf8)), ("nothing", []),
        ]
        var g = SeededRandom(seed: 0xF022_0008)
        while docs.count < 60 {
            var d = good
            d[Int.random(in: 0..<d.count, using: &g)] = [0x00, 0x1B, 0x7B, 0x7D, 0x22, 0x5B, 0x39, 0x2D, 0xFF].randomElement(using: &g)!
            docs.append(("flipped \(docs.count)", d))
        }
        var added: [String] = []
        for (i, (what, doc)) in docs.enumerated() {
            let path = tmp + "/model-\(i).json"
            _ = FileManager.default.createFile(atPath: path, contents: Data(doc))
            let o = runLimited("yomo", ["add", "water", "plants", "every", "day", "--llm-command", "cat \(path)"], timeout: 20)
            XCTAssertFalse(o.timedOut, "yomo add, model answer \(what): hung")
            XCTAssertNil(o.signal, "yomo add, model answer \(what): crashed: \(o.err.suffix(1500))")
            XCTAssertTrue([0, 64, 65].contains(o.code), "yomo add, model answer \(what): \(o.code) \(o.err)")
            assertDiagnostics(o.err, tool: "yomo")
            if o.code == 0, let id = o.result.records.first?["id"] as? String { added.append(id) }
        }
        XCTAssertGreaterThan(added.count, 10)
        for args in [["list"], ["due"], ["list", "--format", "text"]] {
            let o = runLimited("yomo", args, timeout: 20)
            XCTAssertFalse(o.timedOut, "yomo \(args): hung")
            XCTAssertNil(o.signal, "yomo \(args): crashed: \(o.err.suffix(1500))")
            XCTAssertEqual(o.code, 0, o.err)
        }
        for id in added {
            let o = runLimited("yomo", ["next", id, "-n", "5"], timeout: 20)
            XCTAssertFalse(o.timedOut, "yomo next \(id): hung")
            XCTAssertNil(o.signal, "yomo next \(id): crashed: \(o.err.suffix(1500))")
        }
    }

    // MARK: Regressions found by the fuzzer

    /// An ActivityWatch event lasting 1e300 seconds crashed rewards (a
    /// Double that does not fit Int64, then an overflow); now bad input.
    func testActivityWatchHugeDurationIsBadInput() {
        for args in Self.rewardsSetup { XCTAssertEqual(run("rewards", args).code, 0) }
        for d in ["1e300", "9.2e18"] {
            let path = write("aw-\(d).json", #"{"buckets":{"aw-watcher-window_x":{"type":"currentwindow","events":[{"timestamp":"2026-11-21T15:00:00Z","duration":"# + d + #","data":{"app":"Duolingo"}}]}}}"#)
            let o = runLimited("rewards", ["ingest", "--child", "Alex", "--activitywatch", path])
            XCTAssertNil(o.signal, o.err)
            XCTAssertEqual(o.code, 65)
            XCTAssertEqual(o.err, "rewards: \(path): aw-watcher-window_x event 0: \"duration\" must be 0 to 999999999 seconds\n")
        }
    }

    /// playa import took a list of the wrong type for an empty one
    /// ("Imported 0 recipients", exit 0), and named stdin "-".
    func testPlayaImportRefusesListsOfTheWrongTypeAndNamesStdin() {
        let o = runLimited("playa", ["import", "-"], stdin: #"{"type":"playa_export","version":1,"recipients":"oops","events":[]}"#)
        XCTAssertEqual(o.code, 65)
        XCTAssertEqual(o.err, "playa: stdin: \"recipients\" must be an array, not a string; nothing imported\n")
        let p = write("bad.json", #"{"type":"playa_export","version":1,"events":{}}"#)
        XCTAssertEqual(runLimited("playa", ["import", p]).err, "playa: \(p): \"events\" must be an array, not an object; nothing imported\n")
        let notJSON = runLimited("playa", ["import", "-"], stdin: "{")
        XCTAssertTrue(notJSON.err.hasPrefix("playa: stdin:1:2: not valid JSON"), notJSON.err)
    }
}
