import XCTest
@testable import NudgeKit

/// Reading a large document in place: a value checked without being built
/// (`skip`) is accepted exactly when the parser accepts it, with the same
/// error; a number read as a Double (`double`) is the parser's number.
final class JSONSkipTests: XCTestCase {
    func parsed(_ b: [UInt8]) -> Result<Int, JSONParseError> {
        do throws(JSONParseError) { _ = try JSON.parse(b); return .success(0) } catch { return .failure(error) }
    }

    func skipped(_ b: [UInt8]) -> Result<Int, JSONParseError> {
        b.withUnsafeBytes { raw -> Result<Int, JSONParseError> in
            var p = JSONByteParser(raw)
            do throws(JSONParseError) {
                p.skipSpace()
                try p.skip(depth: 0)
                p.skipSpace()
                if p.i < p.end { throw p.error("unexpected text after the JSON value") }
                return .success(0)
            } catch {
                return .failure(error)
            }
        }
    }

    func testSkipAcceptsWhatTheParserAcceptsWithTheSameError() {
        var rng = SeededRandom(seed: 71)
        func gen(_ depth: Int) -> JSON {
            switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &rng) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &rng))
            case 2: return .int(Int64.random(in: -1_000_000...1_000_000, using: &rng))
            case 3: return .double(Double(Int.random(in: -100000...100000, using: &rng)) / 8 + 0.125)
            case 4:
                let alphabet = Array("ab \"\\\n\u{1}é♣🃏/\u{7F}")
                return .string(String((0..<Int.random(in: 0...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }))
            case 5: return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in gen(depth + 1) })
            default:
                var o = JSONObject()
                for k in 0..<Int.random(in: 0...4, using: &rng) { o[["k\(k)", "é\(k)", "a\"\(k)"].randomElement(using: &rng)!] = gen(depth + 1) }
                return .object(o)
            }
        }
        let odd: [[UInt8]] = [[0x22], [0x5C], [0x2C], [0x3A], [0x7B], [0x7D], [0x5B], [0x5D], [0x30], [0x2D], [0x2E], [0x65], [0x01], [0xFF], [0xC3],
                              [0x5C, 0x75, 0x64, 0x38, 0x30, 0x30], [0x20], [0x6E], [0x74]]
        for round in 0..<4000 {
            let text = Array(gen(0).serialized.utf8)
            XCTAssertEqual(skipped(text), parsed(text), "round \(round)")
            for _ in 0..<4 where !text.isEmpty {
                var b = text
                let k = Int.random(in: 0..<b.count, using: &rng)
                switch Int.random(in: 0...2, using: &rng) {
                case 0: b[k] = odd.randomElement(using: &rng)![0]
                case 1: b.removeSubrange(k..<min(b.count, k + Int.random(in: 1...3, using: &rng)))
                default: b.insert(contentsOf: odd.randomElement(using: &rng)!, at: k)
                }
                XCTAssertEqual(skipped(b), parsed(b), "round \(round): \(String(decoding: b, as: UTF8.self))")
            }
        }
        for depth in [255, 256, 257, 258] {
            let b = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
            XCTAssertEqual(skipped(b), parsed(b), "depth \(depth)")
            let o = Array((String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)).utf8)
            XCTAssertEqual(skipped(o), parsed(o), "depth \(depth)")
        }
    }

    /// A line's fields found in place (a plain ASCII string as where its
    /// text lies) are the fields `scanObject` builds, and a line one
    /// refuses the other refuses with the same error.
    func testFieldsFoundInPlaceAreTheFieldsBuilt() {
        var rng = SeededRandom(seed: 73)
        let names = ["child", "app", "start", "end", "x"]
        let wanted = names.map { Array($0.utf8) }
        let alphabet = Array("ab Z09:-+T \"\\\n\u{1}\u{7F}é♣")
        let odd: [UInt8] = [0x22, 0x5C, 0x2C, 0x3A, 0x7B, 0x7D, 0x20, 0x01, 0x7F, 0xC3, 0xFF]
        for round in 0..<3000 {
            var o = JSONObject()
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                let v: JSON
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: v = .int(Int64.random(in: -99...99, using: &rng))
                case 1: v = .null
                case 2: v = .array([.string("a")])
                default: v = .string(String((0..<Int.random(in: 0...10, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }))
                }
                o[names.randomElement(using: &rng)!] = v
            }
            var text = Array(o.serialized.utf8)
            if Int.random(in: 0..<3, using: &rng) == 0 && !text.isEmpty {
                text[Int.random(in: 0..<text.count, using: &rng)] = odd.randomElement(using: &rng)!
            }
            text.withUnsafeBytes { b in
                var built = [JSON?](repeating: nil, count: wanted.count)
                var found = [ScannedField](repeating: .absent, count: wanted.count)
                let r1: Result<[JSON?], JSONParseError>, r2: Result<[JSON?], JSONParseError>
                do throws(JSONParseError) { try JSON.scanObject(b, fields: wanted, into: &built); r1 = .success(built) } catch { r1 = .failure(error) }
                do throws(JSONParseError) {
                    try JSON.scanObject(b, fields: wanted, into: &found)
                    r2 = .success(found.map { $0.json(in: b) })
                } catch { r2 = .failure(error) }
                XCTAssertEqual(r1, r2, "round \(round): \(String(decoding: text, as: UTF8.self))")
                if case .success = r2 {
                    for f in found {
                        guard case .text(let r) = f else { continue }
                        XCTAssert(b[r].allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x5C }, "round \(round): a text field must be plain ASCII")
                    }
                }
            }
        }
    }

    /// A time read from a field's bytes is the time (or the error) read
    /// from the same text as a string.
    func testATimeFromItsBytesIsTheTimeFromTheString() {
        var rng = SeededRandom(seed: 74)
        let zone = try! Zone.named("America/New_York")
        let now = Instant(ms: 1_795_399_200_000)
        let parts = ["2026-11-22T08:15:00-05:00", "2026-11-22T08:15:00Z", "2026-11-22 08:15", "2026-03-08T02:30:00", "1999-12-31T23:59:59Z",
                     "2026-11-24T08:15:00Z", "2026-02-30T08:00:00Z", "2026-11-22T08:15:00.250+0530", "soon", "", "2026-11-22T08:15:00-05"]
        for _ in 0..<400 {
            var t = Array(parts.randomElement(using: &rng)!.utf8)
            if !t.isEmpty && Int.random(in: 0..<3, using: &rng) == 0 { t[Int.random(in: 0..<t.count, using: &rng)] = UInt8.random(in: 0x20...0x7E, using: &rng) }
            let s = String(decoding: t, as: UTF8.self)
            let a = Clock.instant(.string(s), field: "\"start\"", zone: zone, now: now)
            let b = t.withUnsafeBytes { Clock.instant(text: $0, field: "\"start\"", zone: zone, now: now) }
            XCTAssertEqual(try? a.get(), try? b.get(), s)
            XCTAssertEqual(a.failureMessage, b.failureMessage, s)
        }
    }

    func testDoubleIsTheParsersNumber() {
        var rng = SeededRandom(seed: 72)
        var cases = ["0", "-0", "-0.0", "0.5", "25.0", "1e3", "1E-2", "2.5e1", "123456789012345", "1234567890123456", "12.5000000000000001",
                     "0.1", "0.30000000000000004", "999999999999999.9", "-12.75", "1.", "-", "01", "1.e5", "9007199254740993", "1e400"]
        for _ in 0..<20000 {
            let int = String(Int64.random(in: 0...Int64.max, using: &rng)).prefix(Int.random(in: 1...19, using: &rng))
            let frac = String(Int64.random(in: 0...Int64.max, using: &rng)).prefix(Int.random(in: 1...19, using: &rng))
            cases.append((Bool.random(using: &rng) ? "-" : "") + int + (Bool.random(using: &rng) ? "." + frac : "")
                         + (Int.random(in: 0...5, using: &rng) == 0 ? "e\(Int.random(in: -30...30, using: &rng))" : ""))
        }
        for c in cases {
            let b = Array((c + ",").utf8)
            let viaNumber = b.withUnsafeBytes { raw -> Result<Double, JSONParseError> in
                var p = JSONByteParser(raw)
                do throws(JSONParseError) { return .success(try p.number().double ?? .nan) } catch { return .failure(error) }
            }
            let viaDouble = b.withUnsafeBytes { raw -> (Result<Double, JSONParseError>, Int) in
                var p = JSONByteParser(raw)
                do throws(JSONParseError) { let v = try p.double(); return (.success(v), p.i) } catch { return (.failure(error), p.i) }
            }
            switch (viaNumber, viaDouble.0) {
            case (.success(let a), .success(let d)):
                XCTAssertEqual(a.bitPattern, d.bitPattern, c)
                XCTAssertEqual(viaDouble.1, b.count - 1, "\(c): read to its end")
            case (.failure(let a), .failure(let d)): XCTAssertEqual(a, d, c)
            default: XCTFail("\(c): \(viaNumber) vs \(viaDouble.0)")
            }
        }
    }
}

extension Result where Failure == ToolError {
    var failureMessage: String? { if case .failure(let e) = self { return e.message }; return nil }
}
