import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What a third member (eve) can learn in a host pool about two others'
/// likes, passes, matches, accepts, unmatches and blocks: nothing, with
/// every tool a login has (cat, grep, ls, stat), not only habitmatch.
final class HabitmatchPrivacyTests: HabitmatchHostPoolCase {
    /// Everything eve can read or list in the pool, as one text.
    func whatEveSees() -> String {
        let r = shell("eve", "cd \(pool) && ls -laR . 2>&1; find . -type f -exec cat {} + 2>/dev/null")
        return r.out
    }

    func testLikesPassesAndMatchesStayBetweenTheTwo() {
        for u in ["ana", "bo", "cy", "eve"] { join(u) }
        // A one-sided like is known only to the one who gave it.
        XCTAssertEqual(hm("ana", "like", name("bo")).code, 0)
        XCTAssertEqual(hm("cy", "pass", name("bo")).code, 0)
        ownerRun()
        let bo = hm("bo", "dashboard")
        XCTAssertFalse(bo.out.contains(name("ana")) || bo.out.contains(name("cy")), bo.out)
        XCTAssertFalse(hm("bo", "candidates").out.contains("likes_you"))
        XCTAssertEqual(hm("bo", "remind").out, "", "no notification of a one-sided like")
        XCTAssertTrue(FileManager.default.fileExists(atPath: hiddenFile("spool", "ana")))
        XCTAssertNotEqual(shell("bo", "cat \(hiddenFile("spool", "ana"))").code, 0)
        XCTAssertNotEqual(shell("bo", "ls \(pool)/spool/\(name("ana"))").code, 0)
        // Mutual: both are told (once the owner's run has seen it), nobody else.
        XCTAssertEqual(hm("bo", "like", name("ana")).code, 0)
        XCTAssertFalse(hm("bo", "chat", name("ana"), "too early?").code == 0, "not before the owner's run")
        ownerRun()
        XCTAssertEqual(hm("ana", "remind").records.map { $0["title"] as? String }, ["It's a match: Bo"])
        XCTAssertEqual(hm("bo", "chat", name("ana"), "hello").code, 0)
        XCTAssertEqual(hm("ana", "buddy", "accept", name("bo")).code, 0)
        XCTAssertEqual(hm("cy", "like", name("eve")).code, 0)
        XCTAssertEqual(hm("eve", "block", name("cy")).code, 0)
        ownerRun()
        XCTAssertEqual(hm("bo", "unmatch", name("ana")).code, 0)
        ownerRun()
        // Eve's view of the pool: the members' names and profiles, nothing
        // of who liked, passed, matched, accepted, unmatched or blocked whom.
        let seen = whatEveSees()
        for word in ["swiped", "\"right\"", "matched", "opened", "buddy_accept", "unmatch", "hello"] {
            XCTAssertFalse(seen.contains(word), "\(word) in:\n\(seen)")
        }
        // Pair folder names are random, and nothing in them (nor in anyone's
        // notices) can even be listed: no sizes either.
        let pairs = (try? FileManager.default.contentsOfDirectory(atPath: pool + "/pairs")) ?? []
        XCTAssertFalse(pairs.isEmpty)
        for f in pairs {
            XCTAssertFalse(["ana", "bo", "cy", "eve"].contains { f.contains(name($0)) }, f)
            if !f.contains(name("eve")) {
                XCTAssertNotEqual(shell("eve", "ls \(pool)/pairs/\(f)").code, 0, f)
            }
        }
        XCTAssertNotEqual(shell("eve", "ls \(pool)/notices/\(name("ana"))").code, 0)
        XCTAssertNotEqual(shell("eve", "stat \(pool)/notices/\(name("ana"))/in/root.ndjson").code, 0)
        XCTAssertNotEqual(shell("eve", "ls \(pool)/pairs").code, 0, "pairs/ cannot be listed")
        // Blocked: cy sees no trace of eve, nor eve of cy.
        XCTAssertNotEqual(hm("cy", "profile", name("eve")).code, 0)
        XCTAssertNotEqual(hm("eve", "profile", name("cy")).code, 0)
    }
}
