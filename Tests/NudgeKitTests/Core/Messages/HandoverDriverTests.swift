import XCTest
@testable import NudgeKit

/// The one hand-over driver (Core/Messages/HandoverDriver.swift) with real
/// commands: a record not claimed is never handed over; the command gets the
/// record on its standard input; the claim is made at the clock's time and
/// lives for the timeout and its margin; the end is timed by the clock
/// again; and what the run says follows one rule (a retry is no news under
/// -q, a failure the tool calls news is, a record that may have gone out
/// always is).
final class HandoverDriverTests: XCTestCase {
    let words = Tally.Words(failed: { "failed \($0.failed) exit \($0.lastStatus)" }, news: { "news \($0.news)" },
                            unknown: { "unknown \($0.unknown): \($0.whyUnknown ?? "")" })

    func testEachRecordIsClaimedRunAndFinished() throws {
        let dir = NSTemporaryDirectory() + "handover-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var run = HandoverRun(command: "cat >> '\(dir)/got'; test \"$N\" != 2", what: "the test command", timeoutSeconds: 5)
        var ticks: Int64 = 1_795_000_000_000
        var finished: [(Int, String, HandoverRun.Ended)] = []
        for n in 0..<4 {
            let r = try run.handOver(clock: { ticks += 1000; return Instant(ms: ticks) }, claim: { (id, at, until) throws(ToolError) -> HandoverRun.Claimed<Int>? in
                XCTAssertEqual(until.ms - at.ms, Int64(5 + Handover.claimMarginSeconds) * 1000, "the claim lives for the timeout and its margin")
                XCTAssertFalse(id.isEmpty)
                return n == 3 ? nil : HandoverRun.Claimed(n, record: ["n": .int(Int64(n))], env: ["N": "\(n)"], failuresBefore: n == 2 ? 6 : 0)
            }, finish: { (v, claim, ended) throws(ToolError) -> Instant? in
                finished.append((v, claim, ended))
                return ended.outcome == .failed ? Instant(ms: ended.at.ms + 60_000) : nil
            })
            XCTAssertEqual(r?.value, n == 3 ? nil : n)
        }
        XCTAssertEqual(finished.map(\.0), [0, 1, 2], "a record not claimed is not handed over")
        XCTAssertEqual(finished.map(\.2.outcome), [.delivered, .delivered, .failed])
        XCTAssertEqual(finished[2].2.why, "the test command exited 1")
        XCTAssertGreaterThan(finished[1].2.at.ms, finished[0].2.at.ms, "each end is read from the clock")
        XCTAssertEqual(try String(contentsOfFile: dir + "/got", encoding: .utf8), "{\"n\":0}\n{\"n\":1}\n{\"n\":2}\n")
        XCTAssertEqual(run.tally.delivered, 2)
        XCTAssertEqual(run.tally.failed, 1)
        XCTAssertEqual(run.tally.news, 1, "the 7th failure in a row is news (about an hour of tries)")
        XCTAssertEqual(run.tally.lastStatus, 1)
        XCTAssertEqual(run.tally.nextTry, Instant(ms: finished[2].2.at.ms + 60_000))
        XCTAssertEqual(run.tally.exitCode, .tempFail)
        XCTAssertEqual(run.tally.messages(quiet: false, words: words), ["failed 1 exit 1"])
        XCTAssertEqual(run.tally.messages(quiet: true, words: words), ["news 1"])
    }

    func testWhatARunSays() {
        var t = Tally()
        XCTAssertEqual(t.messages(quiet: false, words: words), [], "nothing to say")
        XCTAssertEqual(t.exitCode, .ok)
        t.count(HandoverRun.Ended(outcome: .failed, end: .exited(7), why: "x", at: Instant(ms: 0), next: nil), news: false)
        XCTAssertEqual(t.messages(quiet: true, words: words), [], "a retry that is scheduled is no news from cron")
        XCTAssertEqual(t.messages(quiet: false, words: words), ["failed 1 exit 7"])
        t.count(HandoverRun.Ended(outcome: .unknown, end: .timedOut, why: "ran past", at: Instant(ms: 0), next: nil), news: false)
        XCTAssertEqual(t.messages(quiet: true, words: words), ["unknown 1: ran past"], "what may have gone out is always said")
        XCTAssertEqual(Tally.count(1, "text", "texts"), "1 text")
        XCTAssertEqual(Tally.count(2, "text", "texts"), "2 texts")
    }

    /// A tool's own rule for news: rewards gives a grant up after ten tries,
    /// and the tenth failure is the news.
    func testAToolsOwnRuleForNews() throws {
        var run = HandoverRun(command: "exit 3", what: "the grant command", timeoutSeconds: 5, isNews: { $0 >= 10 })
        for before in [0, 8, 9] {
            _ = try run.handOver(clock: { Instant(ms: 0) }, claim: { (_, _, _) throws(ToolError) -> HandoverRun.Claimed<Int>? in
                HandoverRun.Claimed(before, record: [:], env: [:], failuresBefore: before)
            }, finish: { (_, _, _) throws(ToolError) -> Instant? in nil })
        }
        XCTAssertEqual(run.tally.failed, 3)
        XCTAssertEqual(run.tally.news, 1)
    }
}
