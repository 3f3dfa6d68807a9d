import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What a match's end takes away at once, a member repairing stamps left
/// ahead of the clock, and a member's own flood of NAME~N files.
final class HabitmatchRepairTests: HabitmatchHostPoolCase {
    /// When a match ends the owner's run closes the pair's folder: the
    /// kernel refuses both of them, their own files included.
    func testAPairFolderClosesToBothWhenTheMatchEnds() {
        for u in ["ana", "bo"] { join(u) }
        match("ana", "bo")
        XCTAssertEqual(hm("ana", "chat", name("bo"), "see you at 7").code, 0)
        let pair = pairDir("ana", "bo")
        XCTAssertEqual(shell("bo", "cat \(pair)/\(name("ana")).ndjson").code, 0, "open while they are a match")
        XCTAssertEqual(hm("ana", "unmatch", name("bo")).code, 0)
        ownerRun()
        XCTAssertNotEqual(shell("bo", "cat \(pair)/\(name("ana")).ndjson").code, 0, "closed to the other")
        XCTAssertNotEqual(shell("bo", "ls \(pair)").code, 0)
        XCTAssertNotEqual(shell("ana", "cat \(pair)/\(name("ana")).ndjson").code, 0, "and to the writer")
        XCTAssertNotEqual(shell("bo", "touch \(pair)/\(name("bo")).ndjson").code, 0, "nobody writes there again")
        // Their commands carry on, without a word about the closed folder.
        for u in ["ana", "bo"] {
            let d = hm(u, "dashboard")
            XCTAssertEqual(d.code, 0, d.err)
            XCTAssertEqual(d.err, "")
        }
    }

    /// A change stamped a day ahead (an old --now write) hides the member's
    /// later changes from the others until `pool restamp`.
    func testAMemberRestampsChangesLeftAheadOfTheClock() throws {
        for u in ["ana", "bo"] { join(u) }
        let real = ["HABITMATCH_NOW": ""]
        let ahead = Int64(Date().timeIntervalSince1970 * 1000) + 86_400_000
        XCTAssertEqual(shell("bo", """
            printf '%s\\n' '{"type":"profile","bio":"from the future"}' '{"type":"commit","n":1,"schema":3,"hlc":[\(ahead),0]}' >> \(pool)/journal/\(name("bo")).ndjson
            """).code, 0)
        XCTAssertEqual(hm("bo", "profile", "set", "--bio", "now", env: real).code, 0)
        XCTAssertEqual(hm("ana", "profile", name("bo"), env: real).records.first?["bio"] as? String, "", "both wait for their time")
        let r = hm("bo", "pool", "restamp", env: real)
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.records.first?["batches"] as? Int, 2)
        XCTAssertEqual(hm("ana", "profile", name("bo"), env: real).records.first?["bio"] as? String, "now")
        XCTAssertEqual(hm("bo", "pool", "restamp", env: real).records.first?["batches"] as? Int, 0)
        XCTAssertEqual(hm("bo", "profile", "set", "--bio", "later still", env: real).code, 0)
        XCTAssertEqual(hm("ana", "profile", name("bo"), env: real).records.first?["bio"] as? String, "later still")
    }

    /// Files named NAME~N count only when NAME.ndjson is somebody else's;
    /// a member's own thousands of them are passed over by name.
    func testAMembersTildeFilesArePassedOverByName() {
        for u in ["ana", "eve"] { join(u) }
        let e = name("eve")
        XCTAssertEqual(shell("eve", """
            cd \(pool)/journal
            printf '%s\\n' '{"type":"profile","bio":"from a tilde file"}' '{"type":"commit","n":1,"schema":3,"hlc":[1795359660000,0]}' > \(e)~2.ndjson
            i=3; while [ $i -lt 3000 ]; do cp \(e)~2.ndjson \(e)~$i.ndjson; i=$((i+1)); done
            """).code, 0)
        let seen = hm("ana", "profile", e)
        XCTAssertEqual(seen.code, 0, seen.err)
        XCTAssertEqual(seen.records.first?["bio"] as? String, "")
        XCTAssertEqual(hm("eve", "profile").records.first?["bio"] as? String, "", "nor in her own copy")
    }
}
