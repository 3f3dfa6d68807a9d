import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// journal/ is the one folder of a host pool every member may write in, so
/// one member can fill it with junk names (thousands of NAME~N.ndjson and
/// names of nobody). Members may not list it (nor watch it): they look the
/// profiles up by name, so root's inotifywait sees no open of the folder
/// during their commands, reads and writes alike, before a flood or after. They still see every member, one who joins after the flood too,
/// even under a name somebody took first (once the owner's run has named
/// the profile written instead); the owner's run lists it all and matches.
final class HabitmatchFloodTests: HabitmatchHostPoolCase {
    /// Whether journal/ (or `folder`) itself was opened (to be listed) while `body` ran.
    /// One inotifywait watches it and a marker folder of the test's own,
    /// listed after `body`: its events come in order, so once the marker's
    /// open is in, everything `body` did is in too (no guess at how long
    /// inotifywait takes to write them).
    func listsJournal(_ folder: String? = nil, _ body: () -> Void) -> Bool {
        let w = tmp + "/watch"
        let marker = tmp + "/marker"
        let r = run("/bin/sh", ["-c", """
            rm -f \(w).events \(w).err; mkdir -p \(marker)
            bash -c 'eval "exec $(seq -f "%g>&-" 3 255 | tr "\\n" " ")"; echo $$ > \(w).pid; exec inotifywait -m -e open --format "%w|%f|%e" "$1" "$2"' watch \(folder ?? pool + "/journal") \(marker) > \(w).events 2> \(w).err < /dev/null &
            """], absolute: true)
        XCTAssertEqual(r.code, 0, r.err)
        func lines() -> [Substring] { ((try? String(contentsOfFile: w + ".events", encoding: .utf8)) ?? "").split(separator: "\n") }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !((try? String(contentsOfFile: w + ".err", encoding: .utf8)) ?? "").contains("Watches established") { usleep(20_000) }
        body()
        _ = try? FileManager.default.contentsOfDirectory(atPath: marker)
        let seen = Date().addingTimeInterval(10)
        while Date() < seen, !lines().contains(where: { $0.hasPrefix(marker) && $0.hasSuffix("|OPEN,ISDIR") }) { usleep(20_000) }
        XCTAssertTrue(lines().contains { $0.hasPrefix(marker) }, "inotifywait reported the marker's listing")
        if let pid = (try? String(contentsOfFile: w + ".pid", encoding: .utf8)).flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
            kill(pid, SIGTERM)
        }
        return lines().contains { !$0.hasPrefix(marker) && $0.hasSuffix("|OPEN,ISDIR") && $0.contains("||") }
    }

    func testAFloodOfJunkNamesInJournalIsNeverListedByTheOthers() throws {
        try require(.inotifywait)
        guard logins != nil else { return }
        for u in ["ana", "bo", "eve"] { join(u) }
        // Before the flood: members cannot list journal/ (3730), and do not try.
        XCTAssertFalse(listsJournal { XCTAssertEqual(hm("ana", "candidates").code, 0) })
        XCTAssertNotEqual(shell("ana", "ls \(pool)/journal").code, 0, "a member lists journal/")

        // eve's flood, in her own name and in nobody's, after taking cy's name before cy joins.
        let flood = shell("eve", "cd \(pool)/journal && : > \(name("cy")).ndjson && for i in $(seq 2 1500); do : > \(name("eve"))~$i.ndjson; : > nobody$i.ndjson; done")
        XCTAssertEqual(flood.code, 0, flood.err)
        join("cy")  // as cy~N.ndjson, which nobody else has seen
        XCTAssertEqual(hm("cy", "candidates").code, 0, "cy is not locked out of her own profile")

        var seen = RunResult(out: "", err: "", code: -1)
        XCTAssertFalse(listsJournal { seen = hm("ana", "candidates") }, "a read listed the crowded journal/")
        XCTAssertEqual(seen.code, 0, seen.err)
        XCTAssertEqual(Set(seen.records.compactMap { $0["user"] as? String }), Set(["bo", "eve"].map(name)), seen.out)
        // The owner's run names cy's profile for the others, who still do not list the folder.
        ownerRun()
        XCTAssertFalse(listsJournal { seen = hm("ana", "candidates") }, "a read listed the crowded journal/")
        XCTAssertEqual(Set(seen.records.compactMap { $0["user"] as? String }), Set(["bo", "cy", "eve"].map(name)), seen.out)
        XCTAssertFalse(listsJournal { XCTAssertEqual(hm("ana", "like", name("cy")).code, 0) }, "a write listed the crowded journal/")
        XCTAssertFalse(listsJournal { XCTAssertEqual(hm("cy", "like", name("ana")).code, 0) }, "the newcomer's write listed the crowded journal/")

        // The owner's run reads it all, and the like both gave is a match.
        ownerRun()
        let chat = hm("ana", "chat", name("cy"), "hello")
        XCTAssertEqual(chat.code, 0, chat.err)
        XCTAssertEqual(hm("cy", "chat", name("ana")).records.map { $0["text"] as? String }, ["hello"])

        // cy floods their pair's folder: ana's chat does not list it either.
        let pair = run("/bin/sh", ["-c", "for d in \(pool)/pairs/*/; do [ -n \"$(ls -A $d)\" ] && echo $d; done"], absolute: true).out
            .split(separator: "\n").map(String.init)
        XCTAssertEqual(pair.count, 1, pair.description)
        let f = pair.first ?? "/nonexistent"
        XCTAssertEqual(shell("cy", "cd \(f) && for i in $(seq 1 1500); do : > junk$i.ndjson; done").code, 0)
        XCTAssertEqual(shell("cy", "touch \(pool)/journal/\(name("cy"))-moved").code, 0)
        XCTAssertFalse(listsJournal(f) { XCTAssertEqual(hm("ana", "chat", name("cy")).records.map { $0["text"] as? String }, ["hello"]) },
                       "a read listed the crowded pair folder")
        // Nor does a write there (no sweep of one's temporaries in a crowded folder).
        XCTAssertFalse(listsJournal(f) { XCTAssertEqual(hm("ana", "chat", name("cy"), "again").code, 0) }, "a write listed the crowded pair folder")
    }
}
