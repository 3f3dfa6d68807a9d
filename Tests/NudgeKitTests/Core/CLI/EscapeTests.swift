import XCTest
@testable import NudgeKit

final class EscapeTests: XCTestCase {
    func testEveryControlClassIsEscaped() {
        let cases: [(String, String)] = [
            ("\u{1B}]0;x\u{07}", "\\u001b]0;x\\u0007"),          // ESC, BEL: an OSC title change
            ("a\rb", "a\\u000db"),                                 // CR
            ("line\nnext", "line\\u000anext"),                     // LF inside a value
            ("tab\there", "tab\\u0009here"),                       // TAB is a C0 control too
            ("\u{00}\u{08}\u{1F}", "\\u0000\\u0008\\u001f"),       // other C0
            ("del\u{7F}", "del\\u007f"),                           // DEL
            ("\u{80}\u{85}\u{9B}\u{9F}", "\\u0080\\u0085\\u009b\\u009f"),  // C1, CSI included
            ("\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}", "\\u202a\\u202b\\u202c\\u202d\\u202e"),  // embeddings, overrides
            ("\u{2066}\u{2067}\u{2068}\u{2069}", "\\u2066\\u2067\\u2068\\u2069"),  // isolates
            ("\u{200E}\u{200F}\u{061C}", "\\u200e\\u200f\\u061c"),  // marks
            ("\u{2028}\u{2029}", "\\u2028\\u2029"),                 // line and paragraph separators
            ("evil\u{202E}txt.exe", "evil\\u202etxt.exe"),
        ]
        for (raw, shown) in cases { XCTAssertEqual(Text.terminalSafe(raw), shown, shown) }
    }

    func testValidTextIsUnchanged() {
        for s in ["", "plain ASCII, with \"quotes\" and \\backslashes\\", "café é", "日本語のテキスト", "emoji 🎉👨‍👩‍👧",
                  "Ελληνικά", "עברית", "العربية", "\u{00A0}nbsp\u{00A9}", "\u{2013}dash\u{2026}", "zero\u{200B}width", "\u{FEFF}bom"] {
            XCTAssertEqual(Text.terminalSafe(s), s)
            XCTAssertEqual(s.terminalSafe, s)
        }
        // Escaped neighbours leave valid non-ASCII intact.
        XCTAssertEqual(Text.terminalSafe("日本\u{1B}[31m語"), "日本\\u001b[31m語")
    }

    /// Property: the result never holds a scalar the escaper exists to remove,
    /// and a string without one comes back the same.
    func testNoDangerousScalarSurvivesProperty() {
        var rng = SeededRandom(seed: 11)
        let pool: [UInt32] = Array(0...0xA0) + [0x061C, 0x200B, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A, 0x202E, 0x2066, 0x2069,
                                                0x00E9, 0x65E5, 0x1F389, 0xFEFF, 0x5C]
        for _ in 0..<3000 {
            var s = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...12, using: &rng) { s.append(Unicode.Scalar(pool.randomElement(using: &rng)!)!) }
            let raw = String(s)
            let safe = Text.terminalSafe(raw)
            XCTAssertFalse(safe.unicodeScalars.contains { Text.needsEscape($0.value) }, raw.debugDescription)
            if !raw.unicodeScalars.contains(where: { Text.needsEscape($0.value) }) { XCTAssertEqual(safe, raw) }
        }
    }
}
