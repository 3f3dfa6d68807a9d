import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A family folder on one host, used by real logins: two parents, two
/// children and a stranger (Tests/ToolTests/RewardsFamilyTestCase.swift).
/// Children try what a child would.
final class RewardsFamilyFolderTests: RewardsFamilyTestCase {
    func testAChildSeesTheirOwnAndAsksButCannotActAsAParent() {
        setUpFamily()
        // Alex sees their own dashboard, from the status the parent's run wrote.
        let dash = rwAs("alex", "dashboard")
        XCTAssertEqual(dash.code, 0, dash.err)
        XCTAssertEqual(dash.records.first?["child"] as? String, "Alex")
        XCTAssertEqual(dash.records.first?["balance"] as? Int, 100)
        XCTAssertEqual(rwAs("alex", "dashboard", "Sam").code, 77, "not a sibling's")
        // Nothing a parent does.
        for args in [["adjust", "Alex", "+500", "--reason", "x"], ["app", "set", "Minecraft", "--learning"], ["settings", "set", "conversion_rate", "1"],
                     ["flag", "approve", "abc"], ["notify"], ["log"], ["child", "list"], ["rollover"], ["enforce"], ["parent", "invite"],
                     ["requests"], ["report"]] {
            let r = runAs(logins!, "alex", [bin + "/rewards"] + args,
                        env: ["HOME": tmp + "/home-alex", "REWARDS_DATA_DIR": tmp + "/data-alex", "REWARDS_FAMILY": family, "REWARDS_NOW": now])
            XCTAssertEqual(r.code, 77, "\(args): \(r.err)")
            XCTAssertTrue(r.err.contains("only a parent may do that (you are \(name("alex")))"), "\(args): \(r.err)")
        }
        // Not by naming a parent in the environment.
        let env = rwAs("alex", "adjust", "Alex", "+500", "--reason", "x", env: ["REWARDS_USER": name("mum")])
        XCTAssertEqual(env.code, 77)
        XCTAssertTrue(env.err.contains("REWARDS_USER cannot make you \(name("mum"))"), env.err)
        // The kernel says no to reading anything else.
        XCTAssertNotEqual(shell("alex", "cat \(family)/status/\(name("sam")).json").code, 0, "a sibling's status")
        XCTAssertNotEqual(shell("alex", "ls \(family)/journal").code, 0)
        XCTAssertNotEqual(shell("alex", "cat \(family)/journal/\(name("mum")).ndjson").code, 0)
        XCTAssertNotEqual(shell("alex", "ls \(family)/requests").code, 0, "nobody lists the requests")
        XCTAssertEqual(shell("alex", "cat \(family)/status/\(name("alex")).json").code, 0, "their own")
        XCTAssertNotEqual(shell("eve", "cat \(family)/status/\(name("alex")).json").code, 0)
        // Balances unchanged by all that.
        XCTAssertEqual(rwAs("mum", "child", "list").records.map { $0["balance"] as? Int }, [100, 40])
    }

    func testRedeemingIsARequestTheFoldGrantsAndNobodyForgesASibling() {
        setUpFamily()
        let ask = rwAs("alex", "redeem", "Alex", "5")
        XCTAssertEqual(ask.code, 0, ask.err)
        XCTAssertEqual(ask.records.first?["status"] as? String, "pending")
        XCTAssertEqual(rwAs("alex", "redeem", "Sam", "1").code, 77, "only their own points")
        // Alex plants a request that says it is Sam's: it counts as Alex's (the file is Alex's).
        XCTAssertEqual(shell("alex", "umask 022; echo '{\"kind\":\"redeem\",\"minutes\":2,\"from\":\"\(name("sam"))\",\"child\":\"Sam\"}' > \(family)/requests/0123456789ab.json").code, 0)
        // A stranger asks; a stranger plants a symlink, a FIFO and a huge file.
        XCTAssertEqual(rwAs("eve", "redeem", "Alex", "3").code, 0, "anyone may ask; the fold decides")
        XCTAssertEqual(shell("eve", "ln -s \(family)/journal/\(name("mum")).ndjson \(family)/requests/aaaaaaaaaaaa.json").code, 0)
        XCTAssertEqual(shell("eve", "mkfifo \(family)/requests/bbbbbbbbbbbb.json").code, 0)
        XCTAssertEqual(shell("eve", "head -c 100000 /dev/zero > \(family)/requests/cccccccccccc.json").code, 0)
        // Root's cron takes them.
        let cron = asRoot("enforce")
        XCTAssertEqual(cron.code, 0, cron.err)
        let reqs = Dictionary(grouping: rwAs("mum", "requests", "--all").records, by: { $0["from"] as? String ?? "" })
        XCTAssertEqual(reqs[name("alex")]?.compactMap { $0["status"] as? String }.sorted(), ["granted", "granted"])
        XCTAssertEqual(reqs[name("sam")] == nil, true, "nothing counts as Sam's")
        // Her request, the huge file, and the link and the FIFO (requests that count for nothing, hers).
        XCTAssertEqual(reqs[name("eve")]?.compactMap { $0["status"] as? String }.sorted(), ["refused", "refused", "refused", "refused"])
        XCTAssertTrue(reqs[name("eve")]?.contains { ($0["reason"] as? String)?.contains("at most 4096 bytes") == true } ?? false, "\(reqs)")
        XCTAssertEqual(rwAs("mum", "child", "list").records.map { $0["balance"] as? Int }, [30, 40], "Alex paid 70 for 7 minutes, Sam nothing")
        // Alex sees the outcome; the requests taken are gone from the spool.
        let dash = rwAs("alex", "dashboard")
        XCTAssertEqual(dash.records.first?["balance"] as? Int, 30)
        XCTAssertTrue(dash.out.contains("granted") || rwAs("alex", "dashboard", "--format", "text").out.contains("granted"))
        XCTAssertEqual(rwAs("alex", "allowance").records.first?["granted_minutes"] as? Int, 7)
        XCTAssertFalse(FileManager.default.fileExists(atPath: family + "/requests/0123456789ab.json"))
        // The honest parent's commands keep working whatever the spool holds.
        XCTAssertEqual(rwAs("mum", "adjust", "Sam", "+1", "--reason", "ok").code, 0)
    }

    func testASecondParentJoinsWithTheCodeAndTheLogTellsWhoDidWhat() throws {
        setUpFamily()
        XCTAssertEqual(rwAs("dad", "parent", "invite").code, 77, "not a parent yet")
        let inv = rwAs("mum", "parent", "invite")
        XCTAssertEqual(inv.code, 0, inv.err)
        let code = try XCTUnwrap(inv.records.first?["code"] as? String)
        XCTAssertEqual(rwAs("dad", "parent", "join", code).code, 0)
        // Accepted by the family's next run (here the owner's).
        XCTAssertEqual(rwAs("mum", "requests").code, 0)
        let list = rwAs("dad", "parent", "list")
        XCTAssertEqual(list.code, 0, list.err)
        XCTAssertEqual(list.records.map { $0["role"] as? String }, ["owner", "co-parent"])
        // The code works once.
        XCTAssertEqual(rwAs("eve", "parent", "join", code).code, 0)
        XCTAssertEqual(asRoot("enforce").code, 0)
        let refused = rwAs("eve", "parent", "list")
        XCTAssertEqual(refused.code, 77)
        XCTAssertTrue(refused.err.contains("was used already (by \(name("dad")))"), refused.err)
        // Dad acts as a parent, with a note; mum reads it in the log.
        XCTAssertEqual(rwAs("dad", "adjust", "Sam", "+20", "--reason", "chores", "--note", "he tidied up").code, 0)
        let log = rwAs("mum", "log", "--by", name("dad"))
        XCTAssertEqual(log.code, 0, log.err)
        let adj = try XCTUnwrap(log.records.first { $0["action"] as? String == "adjust" })
        XCTAssertEqual(adj["text"] as? String, "\(name("dad")) added 20 bonus points to Sam (chores)")
        XCTAssertEqual(adj["before"] as? Int, 40)
        XCTAssertEqual(adj["after"] as? Int, 60)
        XCTAssertEqual(adj["note"] as? String, "he tidied up")
        // Mum is told what dad changed, once.
        let told = rwAs("mum", "notify").records.filter { $0["to"] as? String == name("mum") && ($0["body"] as? String)?.contains("bonus points to Sam") == true }
        XCTAssertEqual(told.count, 1)
        XCTAssertTrue(rwAs("mum", "notify").records.allSatisfy { !(($0["body"] as? String)?.contains("bonus points to Sam") ?? false) })
        // Only the owner removes; after that dad's changes do not count.
        XCTAssertEqual(rwAs("dad", "parent", "rm", name("mum")).code, 77)
        XCTAssertEqual(rwAs("mum", "parent", "rm", name("dad")).code, 0)
        XCTAssertNotEqual(rwAs("dad", "adjust", "Sam", "+20", "--reason", "again").code, 0)
        XCTAssertEqual(rwAs("mum", "child", "list").records.map { $0["balance"] as? Int }, [100, 60])
    }

    func testCodesThatAreWrongSayWhy() throws {
        setUpFamily()
        XCTAssertEqual(rwAs("dad", "parent", "join", "nope").code, 64)
        XCTAssertEqual(rwAs("dad", "parent", "join", "ABCD-EFGH-JKMN").code, 0)
        XCTAssertEqual(asRoot("enforce").code, 0)
        XCTAssertTrue(rwAs("dad", "parent", "list").err.contains("no invite has the code ABCDEFGHJKMN"))
        // Expired: invited three days and a minute before the join is taken.
        let inv = rwAs("mum", "parent", "invite", at: "2026-11-19T09:59:00-05:00")
        let code = try XCTUnwrap(inv.records.first?["code"] as? String)
        XCTAssertEqual(rwAs("eve", "parent", "join", code).code, 0)
        XCTAssertEqual(rwAs("mum", "requests").code, 0)
        XCTAssertTrue(rwAs("eve", "parent", "list").err.contains("expired"), "an old code")
    }

    func testRewardTimeEndsTheGameAndNothingElse() throws {
        setUpFamily()
        XCTAssertEqual(rwAs("mum", "app", "set", "Minecraft", "--reward", "--process", "mcgame").code, 0)
        let mine = try startGame(as: nil)  // root's own: never touched
        defer { mine.terminate() }
        // No time granted: the game is ended at once and the parents are told.
        let game = try startGame(as: "alex")
        defer { if game.isRunning { game.terminate() } }
        let first = asRoot("enforce", "--grace", "1")
        XCTAssertEqual(first.code, 0, first.err)
        XCTAssertTrue(ended(game), "the game was ended")
        XCTAssertEqual(first.records.first { $0["type"] as? String == "enforced" }?["action"] as? String, "ended")
        let told = first.records.filter { $0["type"] as? String == "notification" && $0["role"] as? String == "parent" }
        XCTAssertEqual(told.map { $0["to"] as? String }, [name("mum")])
        XCTAssertTrue(mine.isRunning, "a process of another login with the same name is left alone")
        // Three minutes granted (the minute played without any counts as used):
        // warned with one left, ended when it is spent.
        XCTAssertEqual(rwAs("alex", "redeem", "Alex", "3").code, 0)
        XCTAssertEqual(asRoot("enforce", env: ["REWARDS_NOW": "2026-11-22T10:00:00-05:00"]).code, 0)
        let again = try startGame(as: "alex")
        defer { if again.isRunning { again.terminate() } }
        let warn = asRoot("enforce", "--grace", "1", env: ["REWARDS_NOW": "2026-11-22T10:01:00-05:00"])
        XCTAssertEqual(warn.code, 0, warn.err)
        XCTAssertEqual(warn.records.first { $0["type"] as? String == "notification" }?["title"] as? String, "1 minute of reward time left")
        XCTAssertTrue(again.isRunning)
        let over = asRoot("enforce", "--grace", "1", env: ["REWARDS_NOW": "2026-11-22T10:02:00-05:00"])
        XCTAssertEqual(over.code, 0, over.err)
        XCTAssertTrue(ended(again), "ended when the three minutes were used")
        let allowance = rwAs("alex", "allowance")
        XCTAssertEqual(allowance.code, 1, "none left: \(allowance.out)")
        XCTAssertEqual(allowance.records.first?["used_minutes"] as? Int, 3)
        XCTAssertTrue(mine.isRunning)
        XCTAssertTrue(rwAs("mum", "log", "--type", "enforced").out.contains("Minecraft"))
    }

    func testAChildAsksForMoreTimeAndAParentDecides() throws {
        setUpFamily()
        XCTAssertEqual(rwAs("alex", "ask", "30", "--note", "one more level").code, 0)
        XCTAssertEqual(rwAs("alex", "ask", "20").code, 0)
        let waiting = rwAs("mum", "requests")
        XCTAssertEqual(waiting.records.map { $0["minutes"] as? Int }, [30, 20], waiting.err)
        XCTAssertEqual(waiting.records.first?["note"] as? String, "one more level")
        let first = try XCTUnwrap(waiting.records.first?["id"] as? String)
        let second = try XCTUnwrap(waiting.records.last?["id"] as? String)
        XCTAssertEqual(rwAs("alex", "request", "approve", first).code, 77, "not the child's to decide")
        let ok = rwAs("mum", "request", "approve", String(first.prefix(6)), "--minutes", "10")
        XCTAssertEqual(ok.code, 0, ok.err)
        XCTAssertEqual(rwAs("mum", "request", "deny", second).code, 0)
        XCTAssertEqual(rwAs("mum", "request", "deny", second).code, 65, "decided already")
        XCTAssertEqual(rwAs("mum", "requests").records.count, 0)
        XCTAssertEqual(rwAs("mum", "child", "list").records.first?["balance"] as? Int, 100, "given time costs no points")
        let a = rwAs("alex", "allowance")
        XCTAssertEqual(a.records.first?["granted_minutes"] as? Int, 10)
        XCTAssertTrue(rwAs("alex", "dashboard", "--format", "text").out.contains("denied"))
        // In a data directory of one's own there is nobody to ask.
        XCTAssertEqual(run("rewards", ["ask", "5"], env: ["REWARDS_DATA_DIR": tmp + "/own", "REWARDS_USER": "x"]).code, 64)
    }

    /// A purge in a family folder: the child's requests, their decisions,
    /// grants and status file go too; nothing in the folder names them.
    func testPurgeLeavesNothingOfTheChildInTheFolder() throws {
        setUpFamily()
        XCTAssertEqual(rwAs("alex", "ask", "30", "--note", "one more level").code, 0)
        XCTAssertEqual(rwAs("alex", "redeem", "Alex", "5").code, 0)
        let id = try XCTUnwrap(rwAs("mum", "requests").records.first?["id"] as? String)
        XCTAssertEqual(rwAs("mum", "request", "deny", id).code, 0)
        XCTAssertEqual(asRoot("enforce", "-q").code, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: family + "/status/\(name("alex")).json"))
        let purge = rwAs("mum", "child", "rm", "Alex", "--purge", "--yes")
        XCTAssertEqual(purge.code, 0, purge.err)
        XCTAssertEqual(asRoot("enforce", "-q").code, 0, "root's run rewrites its own journal")
        XCTAssertEqual(rwAs("mum", "requests", "--all").records.count, 0, "the child's requests went with them")
        XCTAssertFalse(FileManager.default.fileExists(atPath: family + "/status/\(name("alex")).json"), "their status file is gone")
        XCTAssertEqual(rwAs("alex", "dashboard").code, 77, "Alex is nobody here now")
        var all = ""
        let fm = FileManager.default
        for f in fm.enumerator(atPath: family)?.compactMap({ $0 as? String }) ?? [] {
            var isDir: ObjCBool = false
            if fm.fileExists(atPath: family + "/" + f, isDirectory: &isDir), !isDir.boolValue {
                all += String(decoding: try Data(contentsOf: URL(fileURLWithPath: family + "/" + f)), as: UTF8.self)
            }
        }
        for trace in ["Alex", name("alex"), id, "one more level"] { XCTAssertFalse(all.contains(trace), trace) }
        XCTAssertTrue(all.contains("Sam"), "Sam stays")
        XCTAssertEqual(rwAs("sam", "dashboard").records.first?["balance"] as? Int, 40)
    }
}
