import XCTest
@testable import NudgeKit

/// What members write reaches others as text and times they can trust,
/// through the executable in a synced pool: no control characters in chat
/// or a meeting's description (typed or forged), each chat line at its own
/// time when a peer's clock ran ahead, and a member past the pool's limit
/// told so.
final class HabitmatchTextAndTimeToolTests: HabitmatchPoolCase {
    func matchAnaAndBo() {
        for u in ["ana", "bo"] { XCTAssertEqual(hm(u, "join", "--name", u.capitalized, "--habit", "read").code, 0) }
        hm("ana", "like", "bo")
        hm("bo", "like", "ana")
    }

    /// ana's journal in their pair's folder.
    func pairJournal(_ u: String) throws -> String {
        let pairs = try FileManager.default.contentsOfDirectory(atPath: pool + "/pairs")
        return pool + "/pairs/" + (try XCTUnwrap(pairs.first)) + "/\(u).ndjson"
    }

    /// A batch appended to `path` as the store writes one (a peer's forgery).
    func forge(_ path: String, _ events: [JSONObject], ms: Int64, by: String) throws {
        let (bytes, _) = Store<HabitmatchState>.encodeBatch(events, stamp: Stamp(ms: ms, actor: by), by: by, at: Instant(ms: ms), zone: .utc)
        let h = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        h.seekToEndOfFile()
        h.write(Data(bytes))
        h.closeFile()
    }

    func testControlCharactersAreRefusedInChatAndDescriptionsTypedOrForged() throws {
        matchAnaAndBo()
        let esc = hm("ana", "chat", "bo", "hi \u{1B}[31mred\u{07}")
        XCTAssertEqual(esc.code, 64)
        XCTAssertEqual(esc.err, "habitmatch: a chat message is at most 1000 characters (and 4000 bytes), without control characters (line breaks and tabs are fine)\n")
        XCTAssertEqual(hm("ana", "chat", "bo", "two\nlines\tand a tab").code, 0, "line breaks and tabs are text")
        let bidi = hm("ana", "meet", "bo", "--at", "2026-11-24 18:00", "--description", "agenda \u{202E}evil")
        XCTAssertEqual(bidi.code, 64)
        XCTAssertTrue(bidi.err.contains("--description is at most 2000 characters, without control characters"), bidi.err)
        XCTAssertEqual(hm("ana", "meet", "bo", "--at", "2026-11-24 18:00", "--description", "1. done?\n2. next?").code, 0)
        // Forged into ana's pair journal: neither counts for bo.
        try forge(try pairJournal("ana"), [["type": "chat", "to": "bo", "text": "\u{1B}]0;pwned\u{07}"],
                                           ["type": "meeting", "id": "0123456789ab", "with": "bo", "start": "2026-11-25T18:00", "timezone": "UTC",
                                            "minutes": 30, "weekly": false, "description": "\u{1B}[2J"]],
                  ms: 1_795_359_700_000, by: "ana")
        let chat = hm("bo", "chat", "ana")
        XCTAssertEqual(chat.code, 0, chat.err)
        XCTAssertEqual(chat.records.map { $0["text"] as? String }, ["two\nlines\tand a tab"])
        let meetings = hm("bo", "meetings")
        XCTAssertEqual(meetings.records.count, 1)
        XCTAssertEqual(meetings.records.first?["description"] as? String, "1. done?\n2. next?")
    }

    /// bo's clock runs 10 minutes ahead: ana's line written after it is
    /// shown at ana's time, not at bo's.
    func testEachChatLineIsShownAtItsOwnTime() {
        matchAnaAndBo()
        XCTAssertEqual(hm("bo", "chat", "ana", "ahead", env: ["HABITMATCH_NOW": "2026-11-22T10:10:00-05:00"]).code, 0)
        XCTAssertEqual(hm("ana", "chat", "bo", "on time", env: ["HABITMATCH_NOW": "2026-11-22T10:01:00-05:00"]).code, 0)
        let lines = hm("bo", "chat", "ana", "--format", "text").out
        XCTAssertEqual(lines, "2026-11-22 10:10 America/New_York  bo: ahead\n2026-11-22 10:01 America/New_York  ana: on time\n")
    }

    /// A batch forged six days ahead into a synced pool waits for its
    /// time: it neither shows nor drags the reader's own stamps after it.
    func testABatchStampedFarAheadWaitsInASyncedPool() throws {
        matchAnaAndBo()
        XCTAssertEqual(hm("ana", "chat", "bo", "hi").code, 0)
        let ahead = Int64(1_795_359_600_000) + 6 * 86_400_000  // six days past the pinned clock
        try forge(try pairJournal("ana"), [["type": "chat", "to": "bo", "text": "from the future", "at_ms": .int(ahead)]], ms: ahead, by: "ana")
        XCTAssertEqual(hm("bo", "chat", "ana", "honest reply").code, 0)
        let lines = hm("bo", "chat", "ana")
        XCTAssertEqual(lines.records.map { $0["text"] as? String }, ["hi", "honest reply"], "the forged line waits")
        XCTAssertEqual(lines.records.last?["at"] as? String, "2026-11-22T10:00:00-05:00")
        let mine = try String(contentsOfFile: try pairJournal("bo"), encoding: .utf8)
        XCTAssertFalse(mine.contains("\"hlc\":[\(ahead)"), "bo's stamp did not follow the forged one: \(mine)")
        XCTAssertTrue(hm("bo", "chat", "ana", env: ["HABITMATCH_NOW": "2026-11-28T11:00:00-05:00"]).out.contains("from the future"), "in its time it counts")
    }

    /// Past the 2 MiB every other copy keeps of one member's chat, the
    /// member is told (the others are not).
    func testAMemberPastTheLimitIsTold() throws {
        matchAnaAndBo()
        XCTAssertEqual(hm("ana", "chat", "bo", "hi").code, 0)
        let text = String(repeating: "x", count: 1000)
        try forge(try pairJournal("ana"), (0..<2200).map { _ in ["type": "chat", "to": "bo", "text": .string(text)] }, ms: 1_795_359_700_000, by: "ana")
        let mine = hm("ana", "chat", "bo")
        XCTAssertEqual(mine.code, 0, mine.err)
        XCTAssertTrue(mine.err.contains("habitmatch: you have made the others keep more than 2 MiB of chat, meetings, reports and done days: "), mine.err)
        XCTAssertFalse(hm("bo", "chat", "ana").err.contains("you have made"), "only ana is told")
        XCTAssertFalse(hm("ana", "remind").err.contains("you have made"), "cron is told once, not every run")
    }
}
