import XCTest
import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

/// tenclub's `sms deliver` on the real clock (no `--now` for the run under
/// test), bounded to seconds by short sending commands and timeouts: a
/// claim expires counted from its own time, not from the run's start; and a
/// run that starts just before midnight checks the day when it hands a text
/// over, not when it started.
///
/// Midnight on demand: the zone is a POSIX TZ rule whose offset (to the
/// second, `<MID>-HH:MM:SS`) puts local midnight a few seconds after the
/// test starts. The setup runs pinned (`--now` at 23:00 that day); the
/// deliver run then starts on the real clock just before midnight.
final class TenclubRealClockToolTests: ToolTestCase {
    let buddy = "+14155550132"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    var sentLog: String { tmp + "/sent.ndjson" }
    func sent() -> [[String: Any]] {
        ((try? String(contentsOfFile: sentLog, encoding: .utf8)) ?? "").split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// An accepted buddy with the help text queued, then whatever `more` queues.
    func setUpHelp(env: [String: String] = [:], more: () -> Void = {}) {
        run("tenclub", ["buddy", "set", "415-555-0132"], env: env)
        run("tenclub", ["sms", "deliver", "--command", "true"], env: env)
        run("tenclub", ["sms", "receive"], stdin: "{\"from\":\"\(buddy)\",\"body\":\"YES\"}\n", env: env)
        run("tenclub", ["sms", "deliver", "--command", "true"], env: env)
        run("tenclub", ["sms", "receive"], stdin: "{\"from\":\"\(buddy)\",\"body\":\"HELP\"}\n", env: env)
        more()
    }

    func nowSeconds() -> Double { Date().timeIntervalSince1970 }

    /// The second text of a run is claimed three seconds after the run
    /// began (the first one's command took that long): its claim runs from
    /// then, the command's timeout plus the margin, and meanwhile a run
    /// with --retry-unknown leaves it alone.
    func testAClaimExpiresCountedFromItsOwnTime() throws {
        // A zone where it is noon now, so that the last minutes' unlocks are today's.
        let now = Int64(nowSeconds())
        let offset = Int(((86_400 + 43_200 - now % 86_400) % 86_400) / 60 * 60)
        let env = ["TZ": String(format: "<NOON>-%02d:%02d", offset / 3600, offset / 60 % 60)]
        setUpHelp(env: env) {
            for i in 0..<11 { run("tenclub", ["unlock", "-q", "--at", "@\(now - 120 + Int64(i) * 10)"], env: env) }
        }
        let queued = run("tenclub", ["sms", "outbox"], env: env).records.compactMap { $0["id"] as? String }
        XCTAssertEqual(queued.count, 2, run("tenclub", ["sms", "outbox"], env: env).out)
        guard queued.count == 2 else { return }
        let start = nowSeconds()
        let timeout = 5
        let long = launch("tenclub", ["sms", "deliver", "--command", "cat >> '\(sentLog)'; sleep 3", "--timeout", String(timeout)], env: env)
        // Wait (seconds) until the second text is being sent.
        var until: Double? = nil
        for _ in 0..<150 {
            let second = run("tenclub", ["sms", "outbox"], env: env).records.first { $0["id"] as? String == queued[1] }
            if second?["delivery"] as? String == "sending", let u = second?["claim_until"] as? String, let p = RFC3339.parse(u) {
                until = Double(p.instant.ms) / 1000
                break
            }
            usleep(100_000)
        }
        let claimUntil = try XCTUnwrap(until, "the second text was never seen being sent")
        // Claimed after the first text's 3 s: its claim ends at least 3 + 5 + 60 s after the run began
        // (to the second: 67), where one counted from the run's start ends 65 s (and a moment) after it.
        XCTAssertGreaterThanOrEqual(claimUntil - start, Double(3 + timeout + Handover.claimMarginSeconds - 1),
                                    "the claim runs from the moment the text was claimed")
        let other = run("tenclub", ["sms", "deliver", "--retry-unknown", "--command", "echo other >> '\(tmp)/other'"], env: env)
        XCTAssertEqual(other.code, 0, other.err)
        XCTAssertEqual(other.out, "", "a live claim is nobody else's to retry")
        long.process.waitUntilExit()
        XCTAssertEqual(long.process.terminationStatus, 0)
        XCTAssertEqual(sent().map { $0["id"] as? String }, queued)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/other"))
        XCTAssertLessThan(nowSeconds() - start, 20)
    }

    /// A deliver run that starts at 23:59:5x hands its first text over
    /// before midnight (its command runs past it), and its second, an
    /// alert of the day that has just ended, after: that one is dropped.
    func testARunAcrossMidnightChecksTheDayAtEachHandOver() throws {
        let midnight = Int64(nowSeconds()) + 10
        let offset = Int((86_400 - midnight % 86_400) % 86_400)
        let tz = String(format: "<MID>-%02d:%02d:%02d", offset / 3600, offset / 60 % 60, offset % 60)
        let zone = try Zone.named(tz)
        let day = zone.day(of: Instant(seconds: midnight - 1))
        XCTAssertEqual(zone.local(Instant(seconds: midnight)).time, TimeOfDay(hour: 0, minute: 0))
        let pinned = ["TZ": tz, "TENCLUB_NOW": "\(day)T23:00:00"]
        setUpHelp(env: pinned) {
            for i in 0..<11 { run("tenclub", ["unlock", "-q", "--at", "\(day) 22:\(10 + i)"], env: pinned) }
        }
        let outbox = run("tenclub", ["sms", "outbox"], env: pinned).records
        XCTAssertEqual(outbox.map { $0["kind"] as? String }, ["help", "alert"])
        let left = Double(midnight) - nowSeconds()
        XCTAssertGreaterThan(left, 1, "the setup ran past the chosen midnight")
        guard left > 1 else { return }
        // The first text's command runs until a second past midnight.
        let wait = String(format: "%.1f", left + 1)
        let r = run("tenclub", ["sms", "deliver", "--timeout", "30",
                                "--command", "cat >> '\(sentLog)'; [ -e '\(tmp)/slept' ] || { touch '\(tmp)/slept'; sleep \(wait); }"],
                    env: ["TZ": tz])
        XCTAssertEqual(r.code, 0, r.err)
        // The alert is handed over after midnight: in the words that name its day.
        XCTAssertEqual(r.records.map { "\($0["kind"]!) \($0["delivery"]!)" }, ["help sent", "alert sent"])
        XCTAssertEqual(sent().map { $0["kind"] as? String }, ["help", "alert"])
        XCTAssertEqual(sent().last?["body"] as? String, Tenclub.lateAlertText(day))
        XCTAssertGreaterThan(nowSeconds(), Double(midnight))
    }
}
