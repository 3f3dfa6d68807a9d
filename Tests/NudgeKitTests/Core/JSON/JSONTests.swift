import XCTest
@testable import NudgeKit

final class JSONTests: XCTestCase {
    func testParsesAndSerialisesCompactly() throws {
        let v = try JSON.parse(#" { "a" : 1, "b": [true, false, null, -2.5, "x\"y\n"], "c": {"d": 1e3} } "#)
        XCTAssertEqual(v.serialized, #"{"a":1,"b":[true,false,null,-2.5,"x\"y\n"],"c":{"d":1000}}"#)
    }

    func testKeepsFieldOrderAndUnicode() throws {
        let v = try JSON.parse(#"{"z":"é ♣ 🃏","a":"\u00e9\ud83c\udccf"}"#)
        XCTAssertEqual(v.object?.keys, ["z", "a"])
        XCTAssertEqual(v.object?["a"]?.string, "é🃏")
        XCTAssertEqual(v.serialized, #"{"z":"é ♣ 🃏","a":"é🃏"}"#)
    }

    func testControlsAndBidiMarksAreWrittenEscapedAndReadBackExactly() throws {
        let raw = "a\u{1B}]0;x\u{07}b\u{7F}\u{85}\u{9B}\u{202E}\u{2066}\u{200F}\u{061C}\u{2028}c é ♣ — 🃏"
        let line = JSON.string(raw).serialized
        XCTAssertEqual(line, #""a\u001b]0;x\u0007b\u007f\u0085\u009b\u202e\u2066\u200f\u061c\u2028c é ♣ — 🃏""#)
        XCTAssertEqual(try JSON.parse(line), .string(raw), "the data stays exact")
        XCTAssertEqual(JSON.string("é ♣ — © 🃏").serialized, "\"é ♣ — © 🃏\"", "other non-ASCII as is")
    }

    func testRejectsBadInputWithReasons() {
        let cases: [(String, String)] = [
            ("{", "unexpected end"), ("{\"a\":}", "unexpected character"), ("[1,]", "unexpected character"),
            ("01", "leading zeros"), ("\"\\x\"", "unknown escape"), ("{\"a\":1} x", "after the JSON"),
            ("\"\\ud800\"", "surrogate"), ("tru", "unexpected"), ("{'a':1}", "field name"),
        ]
        for (text, reason) in cases {
            XCTAssertThrowsError(try JSON.parse(text), text) { e in
                XCTAssertTrue((e as! JSONParseError).message.contains(reason), "\(text): \(e)")
            }
        }
    }

    func testObjectLinesSayWhatTheyGot() {
        for (text, got) in [("[1]", "an array"), ("3", "a number"), ("\"s\"", "a string"), ("null", "null")] {
            XCTAssertThrowsError(try withUTF8Bytes(text) { (b) throws(JSONParseError) in try JSON.parseObject(b) }) { e in
                XCTAssertEqual((e as! JSONParseError).message, "expected a JSON object, got \(got)")
            }
        }
    }

    func testScanObjectPicksFieldsAndValidatesTheRest() throws {
        let line = #"{"x":{"deep":[1,2,{"q":"\"}"}]},"at":"2026-01-01T00:00:00Z","s":"a\\b"}"#
        let f = try withUTF8Bytes(line) { (b) throws(JSONParseError) in try JSON.scanObject(b, fields: [Array("at".utf8), Array("zz".utf8)]) }
        XCTAssertEqual(f[0]?.string, "2026-01-01T00:00:00Z")
        XCTAssertNil(f[1] ?? nil)
        XCTAssertThrowsError(try withUTF8Bytes(#"{"x":[1,}"#) { (b) throws(JSONParseError) in try JSON.scanObject(b, fields: []) })
        XCTAssertThrowsError(try withUTF8Bytes(#"{"x":"\q"}"#) { (b) throws(JSONParseError) in try JSON.scanObject(b, fields: []) })
    }

    /// A field named twice: the first counts, in both scans, whatever its
    /// kind (a plain text, an escaped string, a number).
    func testScanKeepsTheFirstOfAFieldNamedTwice() {
        let wanted = [Array("child".utf8)]
        func both(_ line: String) -> (JSON?, JSON?) {
            Array(line.utf8).withUnsafeBytes { b -> (JSON?, JSON?) in
                var built = [JSON?](repeating: nil, count: 1)
                var found = [ScannedField](repeating: .absent, count: 1)
                do throws(JSONParseError) {
                    try JSON.scanObject(b, fields: wanted, into: &built)
                    try JSON.scanObject(b, fields: wanted, into: &found)
                } catch {
                    return (nil, nil)
                }
                return (built[0] ?? nil, found[0].json(in: b))
            }
        }
        for (line, first) in [(#"{"child":"A","child":"B"}"#, JSON.string("A")), (#"{"child":"\u0041","child":"B"}"#, .string("A")),
                              (#"{"child":"A","x":1,"child":7}"#, .string("A")), (#"{"child":7,"child":"B"}"#, .int(7))] {
            let (built, found) = both(line)
            XCTAssertEqual(built, first, line)
            XCTAssertEqual(found, first, line)
        }
    }

    /// Property: any generated value serialises and parses back to itself.
    func testRoundTripProperty() throws {
        var rng = SeededRandom(seed: 42)
        func gen(_ depth: Int) -> JSON {
            switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &rng) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &rng))
            case 2: return .int(Int64.random(in: -1_000_000_000_000...1_000_000_000_000, using: &rng))
            case 3: return .double(Double(Int.random(in: -100000...100000, using: &rng)) / 8 + 0.125)
            case 4:
                let alphabet = Array("ab \"\\\n\t\u{1}é♣🃏/\u{85}\u{202E}\u{7F}")
                return .string(String((0..<Int.random(in: 0...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }))
            case 5: return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in gen(depth + 1) })
            default:
                var o = JSONObject()
                for k in 0..<Int.random(in: 0...4, using: &rng) { o["k\(k)"] = gen(depth + 1) }
                return .object(o)
            }
        }
        for _ in 0..<2000 {
            let v = gen(0)
            XCTAssertEqual(try JSON.parse(v.serialized), v, v.serialized)
        }
    }

    /// Strings are checked eight bytes at a time: a control character, a
    /// backslash or a non-ASCII byte at any offset of a long string is
    /// found as it is byte by byte. Raw bytes between quotes parse iff they
    /// hold no control character and are valid UTF-8, to the same text;
    /// escaped strings of any length round-trip.
    func testLongStringsAreCheckedAtEveryOffset() throws {
        var rng = SeededRandom(seed: 8)
        let plain = Array("abcXYZ019 ~".utf8)
        for _ in 0..<4000 {
            let n = Int.random(in: 0...40, using: &rng)
            var bytes = (0..<n).map { _ in plain.randomElement(using: &rng)! }
            for _ in 0..<Int.random(in: 0...2, using: &rng) where n > 0 {
                let odd: [UInt8] = [0x01, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, 0xE2, 0xFF, 0x20, 0x5B, 0x5D]
                bytes[Int.random(in: 0..<n, using: &rng)] = odd.randomElement(using: &rng)!
            }
            let text = [0x22] + bytes + [0x22]
            let valid = !bytes.contains { $0 < 0x20 } && String(validating: bytes, as: UTF8.self) != nil
            let parsed = try? JSON.parse(text)
            XCTAssertEqual(parsed != nil, valid, "\(bytes)")
            if valid { XCTAssertEqual(parsed?.string, String(validating: bytes, as: UTF8.self), "\(bytes)") }
        }
        let alphabet = Array("abcdefgh \"\\\n\u{1}é♣🃏\u{7F}")
        for _ in 0..<4000 {
            let v = JSON.string(String((0..<Int.random(in: 0...40, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }))
            XCTAssertEqual(try JSON.parse(v.serialized), v, v.serialized)
        }
    }

    /// Strings are written eight bytes at a time while they are plain: a
    /// character to escape at any offset of a long string is escaped as the
    /// writer does it scalar by scalar (quote, backslash, \n \r \t, and
    /// `Text.needsEscape` as \uXXXX), and the rest is copied as it is.
    func testStringsAreWrittenAsScalarByScalarAtEveryOffset() throws {
        func reference(_ s: String) -> String {
            var out = "\""
            for u in s.unicodeScalars {
                switch u.value {
                case 0x22: out += "\\\""
                case 0x5C: out += "\\\\"
                case 0x0A: out += "\\n"
                case 0x0D: out += "\\r"
                case 0x09: out += "\\t"
                case let v where Text.needsEscape(v):
                    let h = String(v, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                default: out.unicodeScalars.append(u)
                }
            }
            return out + "\""
        }
        var rng = SeededRandom(seed: 9)
        let plain = Array("abcXYZ019 ~{}:,[]/'")
        let odd: [Character] = ["\"", "\\", "\n", "\r", "\t", "\u{1}", "\u{1F}", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}", "\u{A0}", "é", "\u{061C}",
                                "\u{0600}", "\u{200E}", "\u{2028}", "\u{202E}", "\u{2069}", "\u{2070}", "♣", "🃏", "日"]
        for _ in 0..<6000 {
            var chars = (0..<Int.random(in: 0...48, using: &rng)).map { _ in plain.randomElement(using: &rng)! }
            for _ in 0..<Int.random(in: 0...2, using: &rng) where !chars.isEmpty {
                chars[Int.random(in: 0..<chars.count, using: &rng)] = odd.randomElement(using: &rng)!
            }
            let s = String(chars)
            var out: [UInt8] = []
            JSON.appendString(s, into: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), reference(s), s.debugDescription)
            XCTAssertEqual(try JSON.parse(out), .string(s))
        }
    }
}
