import XCTest
@testable import NudgeKit

/// RFC 5322 dates and address lists as mail programs send them, and an
/// mbox's messages found by their `From ` lines (a `>From ` in a body is not one).
final class MailHeadersTests: XCTestCase {
    func testDates() {
        let cases: [(String, String?)] = [
            ("Tue, 24 Nov 2026 18:05:00 -0500", "2026-11-24T23:05:00Z"),
            ("24 Nov 2026 18:05 -0500", "2026-11-24T23:05:00Z"),
            ("Tue, 24 Nov 2026 18:05:00 +0000 (UTC)", "2026-11-24T18:05:00Z"),
            ("Tue,  3 Feb 2026 09:00:00 GMT", "2026-02-03T09:00:00Z"),
            ("Tue, 24 Nov 2026 18:05:00 EST", "2026-11-24T23:05:00Z"),
            ("Mon, 1 Jan 01 00:00:00 +0130", "2000-12-31T22:30:00Z"),
            ("Sat, 29 Feb 2025 10:00:00 +0000", nil),
            ("Tue, 24 Nov 2026 25:05:00 -0500", nil),
            ("Tue, 24 Nov 2026 18:05:00 -0575", nil),
            ("yesterday", nil), ("", nil),
            ("Tue, 24 Foo 2026 18:05:00 -0500", nil),
        ]
        for (s, want) in cases { XCTAssertEqual(MailHeaders.date(s)?.description, want, s) }
    }

    func testAddresses() {
        XCTAssertEqual(MailHeaders.addresses("\"Lima, Ana\" <Ana.Lima@Example.org>, bo@y.org (Bo, <not@this.org>)"), ["ana.lima@example.org", "bo@y.org"])
        XCTAssertEqual(MailHeaders.addresses("team: a@x.org, B <b@x.org>;, c@x.org"), ["a@x.org", "b@x.org", "c@x.org"])
        XCTAssertEqual(MailHeaders.addresses("undisclosed-recipients:;"), [])
        XCTAssertEqual(MailHeaders.addresses("\"a@b.c\" <real@x.org>"), ["real@x.org"])
    }

    func testMboxMessagesAndBodies() throws {
        let dir = NSTemporaryDirectory() + "mail-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mbox = """
            From MAILER-DAEMON Sun Nov 29 10:24:59 2026
            From: Me <me@example.net>
            To: Ana <ana@example.org>
            Date: Tue, 10 Nov 2026 09:00:00 -0500

            Hi
            >From the body, not a message
            From the body too: not after an empty line, not a message

            From MAILER-DAEMON Sun Nov 29 10:25:00 2026
            From: Bo <bo@example.org>
            Cc: me@example.net,
             Ana <ana@example.org>
            Date: Wed, 11 Nov 2026 10:00:00 +0000

            body

            """
        _ = FileManager.default.createFile(atPath: dir + "/box", contents: Data(mbox.utf8))
        var got: [MailHeaders.Message] = []
        XCTAssertEqual(try MailHeaders.scan(dir + "/box") { got.append($0) }, 2)
        XCTAssertEqual(got.map(\.from), [["me@example.net"], ["bo@example.org"]])
        XCTAssertEqual(got.map(\.to), [["ana@example.org"], ["me@example.net", "ana@example.org"]])
        XCTAssertEqual(got.map { $0.date?.description }, ["2026-11-10T14:00:00Z", "2026-11-11T10:00:00Z"])
        _ = FileManager.default.createFile(atPath: dir + "/not", contents: Data("hello\n".utf8))
        XCTAssertThrowsError(try MailHeaders.scan(dir + "/not") { _ in })
        _ = FileManager.default.createFile(atPath: dir + "/empty", contents: Data())
        XCTAssertEqual(try MailHeaders.scan(dir + "/empty") { _ in }, 0, "an empty folder, as mutt leaves it")
        // A header block past 256 KB is read that far and said; a long line
        // (header or body) costs its length once.
        let long = "From x Mon Nov 23 09:00:00 2026\nX-Long: " + String(repeating: "a", count: 3_000_000) + "\nTo: cy@example.net\nDate: Mon, 23 Nov 2026 09:00:00 -0500\n\n"
            + String(repeating: "b", count: 5_000_000) + "\n"
        _ = FileManager.default.createFile(atPath: dir + "/long", contents: Data(long.utf8))
        got = []
        XCTAssertEqual(try MailHeaders.scan(dir + "/long") { got.append($0) }, 1)
        XCTAssertEqual(got.first?.to, ["cy@example.net"])
        XCTAssertEqual(got.first?.truncated, true)
    }

    /// Random header blocks and mboxes: never a crash.
    func testMangledHeadersNeverCrash() {
        var g = SeededRandom(seed: 5322)
        let pieces = ["From ", "From: ", "To: ", "Date: ", "\"", "(", ")", "<", ">", ",", ";", ":", "@", "\n", "\r\n", " ", "\\", "Tue, 24 Nov 2026 ", "18:05:00", "-0500", "9999", "é"]
        for _ in 0..<500 {
            let s = (0..<Int.random(in: 0...30, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
            _ = MailHeaders.message(Array(s.utf8))
            _ = MailHeaders.date(s)
            _ = MailHeaders.addresses(s)
        }
    }
}
