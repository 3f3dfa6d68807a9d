import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// One member trying to slow every other down, or to push everyone's clock:
/// a flood of valid events, thousands of junk files and folders, a batch
/// stamped a day ahead. The timings are printed as a benchmark, never
/// asserted; what is asserted is what the others read, keep and show.
final class HabitmatchAbuseTests: HabitmatchHostPoolCase {
    func timed(_ label: String, _ body: () -> RunResult) -> RunResult {
        let start = Date()
        let r = body()
        print("benchmark: \(label): \(Int(Date().timeIntervalSince(start) * 1000)) ms")
        return r
    }

    func stateBytes(_ u: String) -> Int {
        let dir = tmp + "/data-\(u)"
        let files = FileManager.default.enumerator(atPath: dir)?.allObjects as? [String] ?? []
        return files.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: dir + "/" + $1)[.size] as? Int) ?? 0) }
    }

    func testNoMemberSlowsTheOthersOrMovesTheirClock() throws {
        join("eve")
        join("bo")
        join("ana")
        _ = timed("ana candidates, a clean pool") { hm("ana", "candidates") }
        let before = hm("ana", "candidates").records.map { $0["user"] as? String }
        XCTAssertEqual(before, [name("bo"), name("eve")], "bo joined after eve: more recently active")
        let e = name("eve")
        // 20,000 valid 'reminded' events in eve's profile journal, a profile
        // change stamped 23 hours ahead, 20,000 more (over the quota); the
        // same in her self file; 20,000 junk files in journal/; 5,000
        // folders in spool/ (where members may add, not list: only the
        // owner's run looks there). pairs/ takes no folder of hers.
        let ahead = 1_795_359_600_000 + 23 * 3_600_000
        let awk = #"awk -v from=FROM 'BEGIN { for (b = from; b < from + 200; b++) { for (i = 0; i < 100; i++) printf "{\"type\":\"reminded\",\"key\":\"k%d-%d\"}\n", b, i; printf "{\"type\":\"commit\",\"n\":100,\"schema\":3,\"hlc\":[%d,%d]}\n", 1795359000000, b } }'"#
        let flood = shell("eve", """
            cd \(pool) && \(awk.replacingOccurrences(of: "FROM", with: "0")) >> journal/\(e).ndjson
            printf '%s\\n' '{"type":"profile","bio":"first!"}' '{"type":"commit","n":1,"schema":3,"hlc":[\(ahead),0]}' >> journal/\(e).ndjson
            \(awk.replacingOccurrences(of: "FROM", with: "1000")) >> journal/\(e).ndjson
            cat journal/\(e).ndjson >> self/\(e).ndjson
            i=0; while [ $i -lt 20000 ]; do : > journal/junk$i.ndjson; i=$((i+1)); done
            i=0; while [ $i -lt 5000 ]; do mkdir spool/junk$i; i=$((i+1)); done
            """)
        XCTAssertNotEqual(shell("eve", "mkdir \(pool)/pairs/\(name("ana"))+\(name("bo"))").code, 0)
        XCTAssertEqual(flood.code, 0, flood.err)
        let first = timed("ana candidates, right after the flood") { hm("ana", "candidates") }
        XCTAssertEqual(first.code, 0, first.err)
        XCTAssertEqual(first.err, "", "another member's junk is not every member's warning")
        let again = timed("ana candidates, the run after") { hm("ana", "candidates") }
        // A day ahead waits for its time: eve is not put first.
        XCTAssertEqual(again.records.map { $0["user"] as? String }, before)
        XCTAssertFalse(again.out.contains("first!"))
        let write = timed("ana done, a write") { hm("ana", "done", "exercise") }
        XCTAssertEqual(write.code, 0, write.err)
        XCTAssertEqual(hm("bo", "candidates").records.map { $0["user"] as? String }.first, name("ana"), "ana's own stamps stay on her clock")
        // Nothing of the flood is kept in ana's copy past what the quota lets one member make
        // the others read (her mirror of eve's profile, 1 MiB).
        XCTAssertLessThan(stateBytes("ana"), (1 << 20) + (256 << 10), "ana's private state")
        // The pool's owner hears of it, once per run.
        let owner = timed("the owner's run") { ownerRun() }
        XCTAssertTrue(owner.err.contains("journal/\(e).ndjson is") && owner.err.contains("the rest is ignored"), owner.err)
        // Ana's like still reaches the owner's run past eve's 5,000 folders.
        XCTAssertEqual(hm("ana", "like", name("bo")).code, 0)
        XCTAssertEqual(hm("bo", "like", name("ana")).code, 0)
        _ = timed("the owner's run past 5,000 junk folders") { ownerRun() }
        XCTAssertEqual(hm("ana", "remind").records.map { $0["title"] as? String }, ["It's a match: Bo"])
    }
}
