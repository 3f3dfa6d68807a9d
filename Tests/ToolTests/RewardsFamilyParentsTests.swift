import XCTest
import TestSupport
import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

/// Parents coming and going in a family folder, with real logins
/// (Tests/ToolTests/RewardsFamilyTestCase.swift): one let in reads the whole
/// history at once, whoever took the join, and a waiting join is seen.
final class RewardsFamilyParentsTests: RewardsFamilyTestCase {
    func testAParentLetInAfterAnotherWasRemovedReadsTheirHistoryAtOnce() throws {
        setUpFamily()
        try addDad()
        XCTAssertEqual(rwAs("dad", "app", "set", "Duolingo", "--learning").code, 0)
        XCTAssertEqual(rwAs("dad", "adjust", "Sam", "+60", "--reason", "from dad").code, 0)
        XCTAssertEqual(rwAs("mum", "parent", "rm", name("dad")).code, 0)
        // Eve is let in by root's cron; mum has not run since.
        let code = try XCTUnwrap(rwAs("mum", "parent", "invite").records.first?["code"] as? String)
        XCTAssertEqual(rwAs("eve", "parent", "join", code).code, 0)
        XCTAssertEqual(asRoot("enforce", "-q").code, 0)
        let list = rwAs("eve", "child", "list")
        XCTAssertEqual(list.code, 0, list.err)
        XCTAssertEqual(list.records.map { $0["balance"] as? Int }, [100, 100], "dad's +60 for Sam counts for her too")
        XCTAssertTrue(rwAs("eve", "app", "list").out.contains("Duolingo"))
        XCTAssertTrue(rwAs("eve", "log", "--by", name("dad")).out.contains("from dad"))
        XCTAssertEqual(rwAs("eve", "parent", "list").records.compactMap { $0["login"] as? String }, [name("mum"), name("eve")])
    }

    func testAJoinWaitingInTheSpoolIsSeenAndTakenByTheOwnersLook() throws {
        setUpFamily()
        let code = try XCTUnwrap(rwAs("mum", "parent", "invite").records.first?["code"] as? String)
        XCTAssertEqual(rwAs("dad", "parent", "join", code).code, 0)
        let dash = rwAs("mum", "dashboard")
        XCTAssertEqual(dash.code, 0, dash.err)
        XCTAssertTrue(dash.err.contains("1 request wait"), dash.err)
        let list = rwAs("mum", "parent", "list")
        XCTAssertEqual(list.records.compactMap { $0["login"] as? String }, [name("mum"), name("dad")], list.err)
        XCTAssertEqual(rwAs("dad", "child", "list").code, 0, "dad acts at once")
        // Never told to make a family of his own.
        XCTAssertFalse(rwAs("dad", "dashboard").err.contains("init"))
    }

    func testTheOwnerIsNeverToldToTakeRootsJournalAndAGameWithoutAProcessIsNamed() throws {
        setUpFamily()
        XCTAssertEqual(asRoot("notify", "-q").code, 0)
        // Root's journal as an older version left it: readable by root only.
        XCTAssertEqual(chmod(journal("root"), 0o600), 0)
        let list = rwAs("mum", "child", "list")
        XCTAssertEqual(list.code, 0, list.err)
        XCTAssertFalse(list.err.contains("chown"), list.err)
        // Root's next run makes it readable again.
        XCTAssertEqual(asRoot("enforce", "-q").code, 0)
        XCTAssertEqual(rwAs("mum", "child", "list").err, "")
        let set = rwAs("mum", "app", "set", "Roblox", "--reward")
        XCTAssertEqual(set.code, 0)
        XCTAssertTrue(set.err.contains("Roblox has no process name: 'rewards enforce' cannot end it"), set.err)
        XCTAssertEqual(rwAs("mum", "app", "set", "Roblox", "--reward", "--process", "roblox*").err, "")
    }
}
