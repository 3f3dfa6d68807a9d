import XCTest
import TestSupport
import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

/// Grants in a family folder, with real logins
/// (Tests/ToolTests/RewardsFamilyTestCase.swift): the grant command gets
/// each paid grant once, however many parents and crons redeem and enforce
/// at once.
final class RewardsFamilyGrantTests: RewardsFamilyTestCase {
    /// A file every login may append to, and a grant command that records
    /// each hand-over in it (one line, the grant's id).
    func handOvers() -> (path: String, command: String) {
        let path = tmp + "/handovers"
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        _ = chmod(path, 0o666)
        return (path, "sed -n 's/.*\"id\":\"\\([0-9a-f]*\\)\".*/\\1/p' >> \(path)")
    }

    func lines(_ path: String) -> [String] {
        String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data(), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func testSimultaneousRedeemsByBothParentsHandOverOnlyPaidGrants() throws {
        setUpFamily()
        try addDad()
        let (path, cmd) = handOvers()
        // Each round Alex has 20 more points, and both parents redeem 2
        // minutes (20 points) for Alex eight times at once: one is paid.
        XCTAssertEqual(rwAs("mum", "adjust", "Alex", "-100", "--reason", "start from zero").code, 0)
        var ok = 0
        for _ in 0..<8 {
            XCTAssertEqual(rwAs("mum", "adjust", "Alex", "+20", "--reason", "a round").code, 0)
            let who = ["mum", "dad", "mum", "dad", "mum", "dad", "mum", "dad"]
            ok += rwTogether(who.map { ($0, ["redeem", "Alex", "2", "--command", cmd]) }).filter { $0 == 0 }.count
        }
        let export = rwAs("mum", "child", "export", "Alex").records.filter { $0["type"] as? String == "grant" }
        let paid = export.filter { $0["status"] as? String == "applied" }.compactMap { $0["id"] as? String }
        XCTAssertEqual(lines(path).sorted(), paid.sorted(), "hand-overs = paid grants")
        XCTAssertEqual(ok, paid.count)
        XCTAssertEqual(paid.count, 8)
        XCTAssertEqual(export.filter { $0["status"] as? String == "void" }.count, 0, "no grant handed over and voided later")
        XCTAssertEqual(balances().first, 0)
    }

    func testRootsAndAParentsEnforceAtOnceHandAGrantOverOnce() throws {
        setUpFamily()
        let (path, cmd) = handOvers()
        for trial in 0..<6 {
            XCTAssertEqual(rwAs("mum", "redeem", "Alex", "1").code, 0)
            let codes = rwTogether([("root", ["enforce", "-q", "--command", cmd]), ("mum", ["enforce", "-q", "--command", cmd])])
            XCTAssertEqual(lines(path).count, trial + 1, "\(codes)")
        }
        XCTAssertEqual(Set(lines(path)).count, 6)
    }

    func testAGrantTheCommandFailsTenTimesIsNeverDroppedSilently() throws {
        setUpFamily()
        XCTAssertEqual(rwAs("mum", "redeem", "Alex", "1").code, 0)
        // From root's cron (-q): a retry that is scheduled is no news; the
        // tenth failure, after which no run tries, is, once.
        for n in 1...9 {
            let r = asRoot("enforce", "-q", "--command", "false")
            XCTAssertEqual(r.code, 75)
            XCTAssertEqual(r.out + r.err, "", "try \(n): cron would mail this every minute")
        }
        let tenth = asRoot("enforce", "-q", "--command", "false")
        XCTAssertEqual(tenth.code, 75)
        XCTAssertTrue(tenth.err.contains("failed 10 times and no run tries again"), tenth.err)
        let quiet = asRoot("enforce", "-q", "--command", "false")
        XCTAssertEqual(quiet.code, 75, "the status still says it")
        XCTAssertEqual(quiet.err, "", "said once from cron")
        let last = asRoot("enforce", "--command", "false")
        XCTAssertEqual(last.code, 75)
        XCTAssertTrue(last.err.contains("failed 10 times and no run tries again"), last.err)
        let grant = rwAs("mum", "child", "export", "Alex").records.first { $0["type"] as? String == "grant" }
        XCTAssertEqual(grant?["status"] as? String, "given_up")
        XCTAssertTrue(rwAs("mum", "log").out.contains("no run tries it again"))
    }
}
