import XCTest
import TestSupport
import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

/// What members of a family folder must not manage, tried with real logins
/// (Tests/ToolTests/RewardsFamilyTestCase.swift): a co-parent taking the
/// family over, a child joining as a parent, a removed parent still acting.
final class RewardsFamilyAttackTests: RewardsFamilyTestCase {
    func testACoParentCannotRemoveTheOwnersJournalsNorReplaceTheOwner() throws {
        setUpFamily()
        try addDad()
        XCTAssertEqual(asRoot("notify", "-q").code, 0, "root's journal")
        for u in ["mum", "root"] { XCTAssertTrue(FileManager.default.fileExists(atPath: journal(u)), u) }
        // Dad may read the journals, not remove, replace or move them.
        let read = shell("dad", "cat \(journal("mum")) > /dev/null; ls -la \(family)/journal; getfacl \(family)/journal")
        XCTAssertEqual(read.code, 0, read.err + read.out)
        for line in ["rm -f \(journal("mum"))", "rm -f \(journal("root"))", "mv \(journal("mum")) \(family)/journal/x.ndjson",
                     "echo > \(family)/journal/y && mv -f \(family)/journal/y \(journal("root"))", "chmod -t \(family)/journal"] {
            XCTAssertNotEqual(shell("dad", line).code, 0, line)
        }
        for u in ["mum", "root"] { XCTAssertTrue(FileManager.default.fileExists(atPath: journal(u)), u) }
        // Nor make a family of his own.
        let initAgain = rwAs("dad", "init")
        XCTAssertEqual(initAgain.code, 77, initAgain.err)
        XCTAssertTrue(initAgain.err.contains("only \(name("mum")), who owns"), initAgain.err)
        // Nor forge one stamped before hers, in a journal of his own name.
        let forged = forgedBatch([["type": "family_created", "owner": .string(name("dad")), "by": .string(name("dad"))],
                                  ["type": "parent_removed", "login": .string(name("mum")), "by": .string(name("dad"))]],
                                 ms: 1_000_000_000_000, by: name("dad"))
        XCTAssertEqual(append("dad", forged, to: family + "/journal/\(name("dad"))~2.ndjson").code, 0)
        let list = rwAs("mum", "parent", "list")
        XCTAssertEqual(list.code, 0, list.err)
        XCTAssertEqual(list.records.first { $0["role"] as? String == "owner" }?["login"] as? String, name("mum"))
        XCTAssertEqual(rwAs("dad", "parent", "list").records.first { $0["role"] as? String == "owner" }?["login"] as? String, name("mum"))
        XCTAssertEqual(rwAs("mum", "adjust", "Sam", "+1", "--reason", "still mine").code, 0)
        XCTAssertTrue(rwAs("mum", "log", "--type", "refused").out.contains("who owns the family folder"), "the forgery is in the log")
    }

    /// A journal a co-parent makes under another's name (root's, before
    /// root's cron first writes) counts for nothing and is told once to each
    /// reader, with who can remove it, not on every run from cron (-q too);
    /// new junk is told again.
    func testAJournalMadeUnderAnothersNameIsToldOnce() throws {
        setUpFamily()
        try addDad()
        XCTAssertEqual(shell("dad", "echo '{}' > \(journal("root"))").code, 0, "made before root's first run")
        for round in 0..<3 {
            let r = asRoot("enforce", "-q")
            XCTAssertEqual(r.code, 0, r.err)
            if round == 0 {
                XCTAssertTrue(r.err.contains("root.ndjson (owned by \(name("dad")), not by root)"), r.err)
                XCTAssertTrue(r.err.contains("a file's owner (or root) can remove it"), r.err)
                XCTAssertEqual(r.err.filter { $0 == "\n" }.count, 1, r.err)
            } else {
                XCTAssertEqual(r.err, "", "round \(round): said once")
            }
        }
        XCTAssertTrue(rwAs("mum", "dashboard").err.contains("not journals it can trust"), "each reader is told once")
        XCTAssertEqual(rwAs("mum", "dashboard").err, "")
        // New junk is told again.
        XCTAssertEqual(shell("dad", "echo '{}' > \(family)/journal/\(name("eve")).ndjson").code, 0)
        let again = asRoot("enforce", "-q")
        XCTAssertTrue(again.err.contains("ignoring 2 file(s)"), again.err)
        XCTAssertEqual(asRoot("enforce", "-q").err, "")
        // Root's own changes still count, beside the squatted name.
        XCTAssertEqual(asRoot("adjust", "Sam", "+5", "--reason", "root").code, 0)
        XCTAssertEqual(rwAs("mum", "dashboard", "Sam").records.first?["balance"] as? Int, 45)
    }

    /// A request is its file's owner's only when the file has no other
    /// name: a child who hard-links a sibling's file (left writable) into
    /// the spool does not spend the sibling's points; and a request that
    /// names a field twice is nothing (which value would count?).
    func testAHardLinkedOrAmbiguousRequestCountsForNothing() throws {
        setUpFamily()
        let bait = "/tmp/\(Self.groupPrefix)-bait-\(UUID().uuidString).json"
        defer { unlink(bait) }
        XCTAssertEqual(shell("sam", "printf '{\"kind\":\"redeem\",\"minutes\":4}\\n' > \(bait) && chmod 666 \(bait)").code, 0)
        let linked = shell("alex", "ln \(bait) \(family)/requests/00000000beef.json")
        XCTAssertEqual(linked.code, 0, "the kernel lets a login link a file it may write: \(linked.err)")
        XCTAssertEqual(shell("alex", "printf '{\"kind\":\"redeem\",\"minutes\":1,\"minutes\":10}\\n' > \(family)/requests/00000000cafe.json").code, 0)
        XCTAssertEqual(asRoot("enforce", "-q").code, 0)
        XCTAssertEqual(balances(), [100, 40], "nobody's points were spent")
        let all = rwAs("mum", "requests", "--all").records
        let byID = Dictionary(all.compactMap { r in (r["id"] as? String).map { ($0, r) } }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(byID["00000000beef"]?["from"] as? String, name("sam"), "the file is Sam's: \(all)")
        XCTAssertTrue((byID["00000000beef"]?["reason"] as? String ?? "").contains("hard link"), "\(all)")
        XCTAssertTrue((byID["00000000cafe"]?["reason"] as? String ?? "").contains("\"minutes\" is named twice"), "\(all)")
    }

    /// A request file under the name of one already taken vanished with no
    /// record: now it is a refused request its maker sees, once.
    func testARequestUnderAnEarlierIDIsRefusedWhereItsMakerSeesIt() throws {
        setUpFamily()
        let asked = rwAs("alex", "ask", "10")
        XCTAssertEqual(asked.code, 0, asked.err)
        let id = try XCTUnwrap(asked.records.first?["id"] as? String)
        XCTAssertEqual(asRoot("enforce", "-q").code, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(family)/requests/\(id).json"), "taken and removed")
        XCTAssertEqual(shell("alex", "printf '{\"kind\":\"more_time\",\"minutes\":30}\\n' > \(family)/requests/\(id).json").code, 0)
        XCTAssertEqual(asRoot("enforce", "-q").code, 0)
        XCTAssertEqual(asRoot("enforce", "-q").code, 0, "a second run records nothing more")
        let all = rwAs("mum", "requests", "--all").records.filter { ($0["reason"] as? String ?? "").contains("reused the id") }
        XCTAssertEqual(all.count, 1, "\(all)")
        XCTAssertEqual(all.first?["from"] as? String, name("alex"))
        XCTAssertEqual(all.first?["reason"] as? String,
                       "its file's name reused the id of an earlier request (\(id)), so it counts for nothing; ask again with 'rewards ask' or 'rewards redeem'")
        let seen = rwAs("alex", "dashboard", env: ["REWARDS_FORMAT": "text"])
        XCTAssertTrue(seen.out.contains("reused the id of an earlier request"), seen.out)
        XCTAssertEqual(rwAs("mum", "requests").records.count, 1, "only Alex's first request waits")
    }

    /// A FIFO (or a link, a folder) in requests/ warned on every run, -q
    /// included, and nobody was told who could remove it: now it is a
    /// request that counts for nothing, its maker's, and root's run removes it.
    func testJunkInTheSpoolIsRecordedOnceAndRemoved() throws {
        setUpFamily()
        XCTAssertEqual(shell("alex", "mkfifo \(family)/requests/00000000f1f0.json && ln -s /etc/passwd \(family)/requests/00000000a1a1.json").code, 0)
        let first = asRoot("enforce", "-q")
        XCTAssertEqual(first.code, 0, first.err)
        XCTAssertEqual(first.err, "", "nothing said under -q")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(family)/requests/00000000f1f0.json"), "removed by root's run")
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: "\(family)/requests/00000000a1a1.json"))
        XCTAssertEqual(asRoot("enforce").err, "", "and not said again")
        let all = rwAs("mum", "requests", "--all").records
        let byID = Dictionary(all.compactMap { r in (r["id"] as? String).map { ($0, r) } }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(byID["00000000f1f0"]?["reason"] as? String, "a request is a regular file; this one is a FIFO, so it counts for nothing")
        XCTAssertEqual(byID["00000000a1a1"]?["reason"] as? String, "a request is a regular file; this one is a symbolic link, so it counts for nothing")
        XCTAssertEqual(byID["00000000f1f0"]?["from"] as? String, name("alex"))
        XCTAssertEqual(balances(), [100, 40])
    }

    func testAChildsLoginCannotJoinAsAParentAndRequestsGoInTheOrderTheyWereMade() throws {
        setUpFamily()
        let code = try XCTUnwrap(rwAs("mum", "parent", "invite").records.first?["code"] as? String)
        // Alex saw the code on the fridge.
        XCTAssertEqual(rwAs("alex", "parent", "join", code).code, 0, "a request, decided by the next run")
        XCTAssertEqual(asRoot("enforce", "-q").code, 0)
        let refused = rwAs("alex", "parent", "list")
        XCTAssertEqual(refused.code, 77)
        XCTAssertTrue(refused.err.contains("a child cannot join as a parent"), refused.err)
        XCTAssertNotEqual(shell("alex", "cat \(journal("mum")) > /dev/null").code, 0)
        XCTAssertNotEqual(shell("alex", "cat \(family)/status/\(name("sam")).json").code, 0)
        XCTAssertEqual(rwAs("alex", "adjust", "Alex", "+1000", "--reason", "x").code, 77)
        XCTAssertEqual(balances(), [100, 40])
        // Dad asks first; eve asks after him and sets her file's time back.
        let dad = rwAs("dad", "parent", "join", code)
        XCTAssertEqual(dad.code, 0, dad.err)
        usleep(20_000)
        let eve = rwAs("eve", "parent", "join", code)
        let id = try XCTUnwrap(eve.records.first?["id"] as? String)
        XCTAssertEqual(shell("eve", "touch -d 2001-01-01 \(family)/requests/\(id).json").code, 0)
        XCTAssertEqual(asRoot("enforce", "-q").code, 0)
        XCTAssertEqual(rwAs("dad", "parent", "list").code, 0, "the one who asked first")
        let late = rwAs("eve", "parent", "list")
        XCTAssertEqual(late.code, 77)
        XCTAssertTrue(late.err.contains("was used already (by \(name("dad")))"), late.err)
        let order = rwAs("mum", "requests", "--all").records.filter { $0["kind"] as? String == "join" }.map { $0["from"] as? String }
        XCTAssertEqual(order, [name("alex"), name("dad"), name("eve")])
    }

    func testNothingFromARemovedParentCountsAndDecidedRequestsStayDecided() throws {
        setUpFamily()
        try addDad()
        // Alex asks for more than the points allow: refused, and seen so.
        for _ in 0..<3 { XCTAssertEqual(rwAs("alex", "redeem", "Alex", "50").code, 0) }
        XCTAssertEqual(asRoot("enforce", "-q").code, 0)
        XCTAssertEqual(rwAs("mum", "requests", "--all").records.filter { $0["from"] as? String == name("alex") }.compactMap { $0["status"] as? String },
                       ["refused", "refused", "refused"])
        // A commit line without a checksum counts for nothing, parent or not.
        let t = try lastStamp(journal("mum"))
        let noSum = forgedBatch([["type": "adjust", "child": .string(try childID("Sam")), "points": 50, "reason": "no sum", "day": "2026-11-22",
                                  "by": .string(name("dad"))]], ms: t.ms, counter: 0, by: name("dad"), sum: false)
        XCTAssertEqual(append("dad", noSum, to: journal("dad")).code, 0)
        XCTAssertEqual(balances(), [100, 40])
        XCTAssertEqual(rwAs("dad", "adjust", "Sam", "+5", "--reason", "real").code, 0)
        XCTAssertEqual(balances(), [100, 45])
        // Dad keeps a hard link to his journal, then is removed.
        XCTAssertEqual(shell("dad", "ln \(journal("dad")) \(tmp)/home-dad/keep").code, 0)
        XCTAssertEqual(rwAs("mum", "parent", "rm", name("dad")).code, 0)
        XCTAssertNotEqual(shell("dad", "cat \(journal("mum")) > /dev/null").code, 0, "he reads nothing any more")
        // Batches stamped just after his last real one and before the
        // removal (the clock is pinned: the removal's own time and counter,
        // his name sorting first), and after, through the link, with a
        // checksum and without: +5000 for Alex.
        let removal = try lastStamp(journal("mum"))
        let alex = try childID("Alex")
        for (ms, counter, sum) in [(removal.ms, removal.counter, true), (removal.ms, removal.counter, false), (removal.ms + 1, Int64(0), true)] {
            let b = forgedBatch([["type": "adjust", "child": .string(alex), "points": 5000, "reason": "late", "day": "2026-11-22",
                                  "by": .string(name("dad"))]], ms: ms, counter: counter, by: name("dad"), sum: sum)
            XCTAssertEqual(append("dad", b, to: tmp + "/home-dad/keep").code, 0)
        }
        XCTAssertEqual(asRoot("enforce", "-q").code, 0)
        XCTAssertEqual(balances(), [100, 45], "nothing of it counts")
        XCTAssertEqual(rwAs("mum", "requests", "--all").records.filter { $0["from"] as? String == name("alex") }.compactMap { $0["status"] as? String },
                       ["refused", "refused", "refused"], "decided requests stay decided")
        XCTAssertEqual(rwAs("alex", "dashboard").records.first?["balance"] as? Int, 100)
        let lg = rwAs("mum", "log")
        XCTAssertTrue(lg.out.contains("was removed as a parent"), lg.out + lg.err)
    }

    func testASpoolFloodNeitherBlindsTheParentsNorStarvesASibling() throws {
        setUpFamily()
        // Alex drops 260 requests by hand, then Sam asks once.
        let flood = "i=0; while [ $i -lt 260 ]; do printf '{\"kind\":\"redeem\",\"minutes\":1}\\n' > \(family)/requests/$(printf '%012x' $i).json; i=$((i+1)); done"
        XCTAssertEqual(shell("alex", flood).code, 0)
        usleep(20_000)
        XCTAssertEqual(rwAs("sam", "redeem", "Sam", "2").code, 0)
        let run = asRoot("enforce", "-q")
        XCTAssertEqual(run.code, 0, run.err)
        XCTAssertTrue(run.err.contains("more than 200 requests waiting"), run.err)
        // Root's batch holds this run's turn: 20 of Alex's, and Sam's.
        let rootJournal = try Data(contentsOf: URL(fileURLWithPath: journal("root")))
        XCTAssertLessThan(rootJournal.count, 64 << 10)
        XCTAssertEqual(String(decoding: rootJournal, as: UTF8.self).components(separatedBy: "\"type\":\"request\"").count - 1, 21)
        let taken = rwAs("mum", "requests", "--all").records
        XCTAssertEqual(taken.filter { $0["from"] as? String == name("sam") }.compactMap { $0["status"] as? String }, ["granted"], "Sam is not starved")
        XCTAssertEqual(taken.filter { $0["from"] as? String == name("alex") }.count, 40, "root's turn and mum's")
        // Past 200 waiting, the newest went unread; the rest wait for later runs.
        let waiting = try FileManager.default.contentsOfDirectory(atPath: family + "/requests").filter { $0.hasSuffix(".json") }
        XCTAssertEqual(waiting.count, 200 - 20)
        for _ in 0..<3 { XCTAssertEqual(asRoot("enforce", "-q").code, 0) }
        XCTAssertEqual(rwAs("mum", "requests", "--all").records.filter { $0["from"] as? String == name("alex") }.count, 120)
        // Mum and root see the same family.
        XCTAssertEqual(balances(), asRoot("child", "list").records.map { $0["balance"] as? Int })
        let logged = rwAs("mum", "log", "--limit", "1000")
        XCTAssertEqual(logged.code, 0, logged.err)
        XCTAssertEqual(logged.records.filter { $0["action"] as? String == "request" }.count, 121)
    }

    /// A co-parent holding the family's lock for good (flock on
    /// journal/.lock) holds up neither the owner nor root's cron: after a
    /// bounded wait they go on, told who holds it; his own other runs are
    /// told who holds it too, and exit 75.
    func testACoParentHoldingTheFamilyLockStopsNeitherTheOwnerNorRoot() throws {
        setUpFamily()
        try addDad()
        let p = Process()
        let argv = logins!.asLogin("dad")
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst()) + ["/usr/bin/flock", "--no-fork", family + "/journal/.lock", "/bin/sleep", "60"]
        try p.run()
        defer { p.terminate(); p.waitUntilExit() }
        // Held once a try of our own fails (flock(1) took it), not after a guess.
        let fd = open(family + "/journal/.lock", O_RDONLY)
        defer { close(fd) }
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if flock(fd, LOCK_EX | LOCK_NB) != 0 { break }
            flock(fd, LOCK_UN)
            usleep(20_000)
        }
        XCTAssertNotEqual(flock(fd, LOCK_EX | LOCK_NB), 0, "dad's flock holds the family's lock")
        let wait = ["REWARDS_LOCK_TIMEOUT": "1"]
        let mum = rwAs("mum", "adjust", "Alex", "+5", "--reason", "x", env: wait)
        XCTAssertEqual(mum.code, 0, mum.err)
        XCTAssertTrue(mum.err.contains("the family's lock has been held by \(name("dad"))'s process \(p.processIdentifier) for more than 1 s"), mum.err)
        let cron = asRoot("enforce", env: wait)
        XCTAssertEqual(cron.code, 0, cron.err)
        XCTAssertTrue(cron.err.contains("held by \(name("dad"))'s process"), cron.err)
        let dad = rwAs("dad", "adjust", "Alex", "+5", "--reason", "y", env: wait)
        XCTAssertEqual(dad.code, 75)
        XCTAssertTrue(dad.err.contains("is locked by \(name("dad"))'s process \(p.processIdentifier) (waited 1 s); try again"), dad.err)
        XCTAssertEqual(balances(), [105, 40])
    }

    func childID(_ name: String) throws -> String {
        try XCTUnwrap(rwAs("mum", "child", "list").records.first { $0["name"] as? String == name }?["id"] as? String)
    }
}
