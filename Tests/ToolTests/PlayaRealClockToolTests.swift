import XCTest
import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

/// playa's `due` on the real clock (no `--now` for the run under test),
/// bounded to seconds by a short notify command and timeout: the second
/// notification of a run is claimed after the first one's command ran, and
/// its claim expires counted from then, not from the run's start; another
/// run, even with --retry-unknown, leaves it alone meanwhile.
///
/// The zone is a POSIX TZ rule whose offset makes it noon now, so the day's
/// 09:00 and 09:30 slots (drawn at 08:00, pinned) are due whenever the test
/// runs.
final class PlayaRealClockToolTests: ToolTestCase {
    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["PLAYA_DATA_DIR"] = dataDir
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    func testAClaimExpiresCountedFromItsOwnTime() throws {
        let now = Int64(Date().timeIntervalSince1970)
        let offset = Int(((86_400 + 43_200 - now % 86_400) % 86_400) / 60 * 60)
        let tz = String(format: "<NOON>-%02d:%02d", offset / 3600, offset / 60 % 60)
        let day = try Zone.named(tz).day(of: Instant(seconds: now))
        let pinned = ["TZ": tz, "PLAYA_NOW": "\(day)T08:00:00"]
        XCTAssertEqual(run("playa", ["recipient", "add", "Ana", "--platform", "whatsapp", "--phone", "+14155550132"], env: pinned).code, 0)
        run("playa", ["message", "add", "Ana", "hello"], env: pinned)
        run("playa", ["schedule", "Ana", "--fixed", "09:00,09:30"], env: pinned)
        let ids = run("playa", ["generate"], env: pinned).records.compactMap { $0["id"] as? String }
        XCTAssertEqual(ids.count, 2)
        guard ids.count == 2 else { return }
        let env = ["TZ": tz]
        let log = tmp + "/notified"
        let start = Date().timeIntervalSince1970
        let timeout = 5
        let long = launch("playa", ["due", "--command", "echo \"$PLAYA_ID\" >> '\(log)'; sleep 3", "--timeout", String(timeout)], env: env)
        var until: Double? = nil
        for _ in 0..<150 {
            let second = run("playa", ["queue"], env: env).records.first { $0["id"] as? String == ids[1] }
            if second?["notification"] as? String == "sending", let u = second?["claim_until"] as? String, let p = RFC3339.parse(u) {
                until = Double(p.instant.ms) / 1000
                break
            }
            usleep(100_000)
        }
        let claimUntil = try XCTUnwrap(until, "the second notification was never seen being handed over")
        // Claimed after the first one's 3 s: at least 3 + 5 + 60 s after the run began (to the second: 67).
        XCTAssertGreaterThanOrEqual(claimUntil - start, Double(3 + timeout + Handover.claimMarginSeconds - 1),
                                    "the claim runs from the moment the event was claimed")
        let other = run("playa", ["due", "--retry-unknown", "--command", "echo other >> '\(tmp)/other'"], env: env)
        XCTAssertEqual(other.code, 0, other.err)
        XCTAssertEqual(other.out, "", "a live claim is nobody else's to retry")
        long.process.waitUntilExit()
        XCTAssertEqual(long.process.terminationStatus, 0, long.outSoFar)
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init), ids)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/other"))
        XCTAssertLessThan(Date().timeIntervalSince1970 - start, 20)
    }
}
