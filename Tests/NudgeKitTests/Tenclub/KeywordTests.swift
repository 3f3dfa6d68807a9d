import XCTest
@testable import NudgeKit

/// Replies read as 47 CFR 64.1200(a)(12) reads them: a table of real reply
/// forms (Fixtures/replies.tsv) with what each one says.
final class KeywordTests: XCTestCase {
    static func fixture() throws -> [(Tenclub.Keyword, String)] {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
        let text = try String(contentsOfFile: dir + "/Fixtures/replies.tsv", encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line in
            guard !line.hasPrefix("#"), let tab = line.firstIndex(of: "\t") else { return nil }
            return (Tenclub.Keyword(rawValue: String(line[..<tab]))!, String(line[line.index(after: tab)...]))
        }
    }

    func testEveryReplyFormReadsAsItsKeyword() throws {
        let table = try Self.fixture()
        XCTAssertGreaterThanOrEqual(table.count, 100)
        XCTAssertGreaterThanOrEqual(table.filter { $0.0 == .stop }.count, 60)
        for (want, body) in table {
            XCTAssertEqual(Tenclub.keyword(body), want, "'\(body)'")
        }
        // Every word of the rule, alone and in a sentence.
        for w in ["stop", "quit", "end", "revoke", "opt out", "cancel", "unsubscribe"] {
            XCTAssertEqual(Tenclub.keyword(w), .stop, w)
            XCTAssertEqual(Tenclub.keyword("please \(w.uppercased()) now"), .stop, w)
        }
    }

    /// What the words of a reply are: folded as NFKC folds compatibility
    /// forms, lower-cased, split at everything but letters and digits.
    func testReplyWords() {
        XCTAssertEqual(Text.replyWords("ＳＴＯＰ　please!!"), ["stop", "please"])
        XCTAssertEqual(Text.replyWords("𝐘𝐄𝐒 👍🏽"), ["yes"])
        XCTAssertEqual(Text.replyWords("opt-out"), ["opt", "out"])
        XCTAssertEqual(Text.replyWords("don't s\u{0336}top"), ["dont", "stop"])
        XCTAssertEqual(Text.replyWords("ﬆop ⓈⓉⓄⓅ"), ["stop", "stop"])
        XCTAssertEqual(Text.replyWords("日本 café"), ["日本", "café"])
        XCTAssertEqual(Text.replyWords("🛑…"), [])
        XCTAssertEqual(Text.compatibilityFolded(0xFF53), "s")
        XCTAssertNil(Text.compatibilityFolded(0xE9))
    }
}
