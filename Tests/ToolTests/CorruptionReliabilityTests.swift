import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reliability suite, part two: damaged stores. A torn tail, flipped
/// bytes in a committed journal line and in the snapshot, a snapshot whose
/// offsets do not match the journal: every tool answers the journals' truth,
/// says so on stderr, and keeps the damaged bytes as evidence.
final class CorruptionReliabilityTests: ReliabilityCase {

    /// The marks (or the count) a subject's list shows now.
    func state(_ s: Subject, expectErr: String? = "", file: StaticString = #filePath, line: UInt = #line) -> [String] {
        shown(s, list(s, expectErr: expectErr, file: file, line: line))
    }

    /// Byte offsets of the lines of a file: (start, end including the newline).
    func lineRanges(_ b: [UInt8]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = 0
        for (i, c) in b.enumerated() where c == 0x0A {
            out.append(start..<(i + 1))
            start = i + 1
        }
        if start < b.count { out.append(start..<b.count) }
        return out
    }

    /// Where `needle` first occurs in `hay`, at or after `from`.
    func find(_ needle: String, in hay: [UInt8], from: Int = 0) -> Int? {
        let n = Array(needle.utf8)
        guard hay.count >= n.count else { return nil }
        var i = from
        while i <= hay.count - n.count {
            if hay[i] == n[0] && Array(hay[i..<(i + n.count)]) == n { return i }
            i += 1
        }
        return nil
    }

    // MARK: Torn tails

    /// Half a line appended to the journal (a write cut short): readers
    /// ignore it, the next writer sets it aside in .corrupt (saying so once),
    /// and nothing committed is lost.
    func tornTail(_ s: Subject) {
        setUp(s)
        var marks = writes(s, 0..<3)
        freshSnapshot(s)
        marks += writes(s, 3..<5)
        let path = journalPath(s)
        let journal = bytes(path)
        let lines = lineRanges(journal)
        // The first half of the last event line, with no newline.
        let event = lines[lines.count - 2]
        let half = Array(journal[event.lowerBound..<(event.lowerBound + event.count / 2)])
        appendBytes(path, half)
        XCTAssertEqual(state(s, expectErr: nil), expected(s, marks), "\(s.tool): a torn tail changes nothing")
        XCTAssertEqual(run(s.tool, s.mainRead).code, 0)
        let w = run(s.tool, s.write(mark(5)))
        XCTAssertEqual(w.code, 0, w.err)
        marks.append(mark(5))
        XCTAssertTrue(w.err.contains("set aside") && w.err.contains(".corrupt"), "\(s.tool): the torn tail is reported: \(w.err)")
        XCTAssertEqual(w.err.split(separator: "\n").count, 1, w.err)
        let corrupt = String(path.dropLast(".ndjson".count)) + ".corrupt"
        XCTAssertEqual(bytes(corrupt), half + [0x0A], "\(s.tool): the torn bytes are kept")
        XCTAssertEqual(Array(bytes(path).prefix(journal.count)), journal, "\(s.tool): the committed part is untouched")
        XCTAssertEqual(state(s), expected(s, marks), "\(s.tool): said once; nothing lost")
        XCTAssertEqual(run(s.tool, s.write(mark(6))).err, "")
    }

    func testTornTailTenclub() { tornTail(.tenclub) }
    func testTornTailYomo() { tornTail(.yomo) }
    func testTornTailRewards() { tornTail(.rewards) }
    func testTornTailPlaya() { tornTail(.playa) }
    func testTornTailHabitmatch() { tornTail(.habitmatch) }

    // MARK: Flipped bytes in a committed journal line

    /// A byte flipped inside the last committed batch, written after the snapshot:
    /// that batch counts for nothing, every command says so (naming the
    /// journal) until the next writer sets the bytes aside, raw, in .corrupt.
    /// `breakJSON` flips a quote (the line no longer parses) instead of a
    /// letter (it parses, but the batch's checksum fails).
    func flippedByte(_ s: Subject, breakJSON: Bool) {
        setUp(s)
        var marks = writes(s, 0..<3)
        freshSnapshot(s)
        marks += writes(s, 3..<6)
        let path = journalPath(s)
        var journal = bytes(path)
        // The last batch's event line (playa saves a recipient whole, so a
        // later batch would bring an earlier message back).
        let victim = mark(5)
        let lines = lineRanges(journal)
        let target: Range<Int>
        if s.marks(RunResult(out: "", err: "", code: 0)) != nil, let at = find("\"" + victim + "\"", in: journal) {
            target = lines.first { $0.contains(at) }!
        } else {
            target = lines[lines.count - 2]
        }
        marks.removeAll { $0 == victim }
        let original = Array(journal[target])
        if breakJSON {
            let q = journal[target].firstIndex(of: UInt8(ascii: ":"))!
            journal[q] = 0x3B  // ';'
        } else {
            // A letter or digit in the middle of the line becomes another.
            var i = target.lowerBound + target.count / 2
            while !(journal[i] >= 0x61 && journal[i] <= 0x7A) && !(journal[i] >= 0x30 && journal[i] <= 0x39) { i += 1 }
            journal[i] = journal[i] == 0x61 ? 0x62 : (journal[i] >= 0x61 ? 0x61 : (journal[i] == 0x30 ? 0x31 : 0x30))
        }
        let damaged = Array(journal[target])
        XCTAssertNotEqual(damaged, original)
        setBytes(path, journal)
        for _ in 0..<2 {
            let r = run(s.tool, s.list)
            XCTAssertEqual(r.code, 0, r.err)
            XCTAssertTrue(r.err.contains(path) && r.err.contains("cannot be read"), "\(s.tool): every command says so: \(r.err)")
            assertDiagnostics(r.err, tool: s.tool)
            let got = shown(s, r)
            XCTAssertEqual(got, expected(s, marks), "\(s.tool): the damaged batch counts for nothing")
        }
        let main = run(s.tool, s.mainRead)
        XCTAssertTrue(main.err.contains("cannot be read"), "\(s.tool) \(s.mainRead): \(main.err)")
        let w = run(s.tool, s.write(mark(7)))
        marks.append(mark(7))
        XCTAssertEqual(w.code, 0, w.err)
        XCTAssertTrue(w.err.contains("set aside"), w.err)
        let corrupt = String(path.dropLast(".ndjson".count)) + ".corrupt"
        let kept = bytes(corrupt)
        XCTAssertNotNil(find(String(decoding: damaged, as: UTF8.self), in: kept), "\(s.tool): the raw bytes are kept in .corrupt")
        XCTAssertEqual(state(s), expected(s, marks), "\(s.tool): quiet once set aside")
        XCTAssertEqual(run(s.tool, s.mainRead).err, "")
        // A rebuild from the journals agrees.
        dropSnapshot(s)
        XCTAssertEqual(state(s), expected(s, marks))
    }

    func testFlippedByteInJournalTenclub() { flippedByte(.tenclub, breakJSON: false) }
    func testFlippedByteInJournalYomo() { flippedByte(.yomo, breakJSON: true) }
    func testFlippedByteInJournalRewards() { flippedByte(.rewards, breakJSON: true) }
    func testFlippedByteInJournalPlaya() { flippedByte(.playa, breakJSON: false) }
    func testFlippedByteInJournalHabitmatch() { flippedByte(.habitmatch, breakJSON: false) }

    // MARK: The snapshot

    /// One digit changed in the snapshot's body, twice: each time the
    /// snapshot is refused with a message, kept as snapshot.ndjson.bad-N
    /// (the first never overwritten), and the answer is the journals' truth,
    /// also in the snapshot written next.
    func editedSnapshot(_ s: Subject) {
        setUp(s)
        let marks = writes(s, 0..<4)
        freshSnapshot(s)
        let snap = snapshotPath(s)
        var evidence: [[UInt8]] = []
        for n in 1...2 {
            var b = bytes(snap)
            let body = b.firstIndex(of: 0x0A)! + 1
            let digit = b[body...].firstIndex { $0 >= 0x30 && $0 <= 0x39 }!
            b[digit] = b[digit] == 0x39 ? 0x30 : b[digit] + 1
            setBytes(snap, b)
            evidence.append(b)
            let r = run(s.tool, s.list)
            XCTAssertEqual(r.code, 0, r.err)
            XCTAssertTrue(r.err.contains(snap) && r.err.contains("refused"), "\(s.tool): \(r.err)")
            assertDiagnostics(r.err, tool: s.tool)
            let got = shown(s, r)
            XCTAssertEqual(got, expected(s, marks), "\(s.tool): the journals' truth")
            XCTAssertEqual(bytes(snap + ".bad-\(n)"), b, "\(s.tool): the refused snapshot is kept as .bad-\(n)")
            XCTAssertEqual(state(s), expected(s, marks), "\(s.tool): the new snapshot is sound")
        }
        XCTAssertEqual(bytes(snap + ".bad-1"), evidence[0], "evidence is never overwritten")
        let w = run(s.tool, s.write(mark(9)))
        XCTAssertEqual(w.code, 0, w.err)
        XCTAssertEqual(w.err, "")
        XCTAssertEqual(state(s), expected(s, marks + [mark(9)]))
    }

    func testEditedSnapshotTenclub() { editedSnapshot(.tenclub) }
    func testEditedSnapshotYomo() { editedSnapshot(.yomo) }
    func testEditedSnapshotRewards() { editedSnapshot(.rewards) }
    func testEditedSnapshotPlaya() { editedSnapshot(.playa) }
    func testEditedSnapshotHabitmatch() { editedSnapshot(.habitmatch) }

    /// Regression (found in review: "editing one number in snapshot.ndjson is
    /// served as fact; tenclub counted 514 extra unlocks"): the count edited
    /// in the snapshot is refused, and the journals' count stands.
    func testRegressionSnapshotCountEditedTenclub() {
        let s = Subject.tenclub
        writes(s, 0..<4)
        freshSnapshot(s)
        let snap = snapshotPath(s)
        let text = String(decoding: bytes(snap), as: UTF8.self)
        XCTAssertTrue(text.contains("\"unlocks\":4}"), text)
        setBytes(snap, Array(text.replacingOccurrences(of: "\"unlocks\":4}", with: "\"unlocks\":518}").utf8))
        for args in [["status"], ["check"], ["widget", "--style", "plain"]] {
            let r = run("tenclub", args)
            XCTAssertEqual(r.code, 0, r.err)
            XCTAssertFalse(r.out.contains("518"), "\(args): \(r.out)")
        }
        XCTAssertEqual(count(s, expectErr: nil), 4)
        XCTAssertEqual(count(s), 4, "the next snapshot is rebuilt from the journals")
        XCTAssertTrue(String(decoding: bytes(snap + ".bad-1"), as: UTF8.self).contains("518"), "the edited one is kept")
    }

    /// The snapshot's writer-only (cold) part has its own checksum: an SMS
    /// log edited there is refused by `tenclub sms log`, which reads it, and
    /// the journals' log is shown instead.
    func testAnEditedColdPartIsRefusedTenclubSmsLog() {
        let env = ["TENCLUB_NOW": "2026-11-22T10:00:00-05:00", "XDG_CONFIG_HOME": tmp + "/config"]
        XCTAssertEqual(run("tenclub", ["buddy", "set", "415-555-0132"], env: env).code, 0)
        XCTAssertEqual(run("tenclub", ["sms", "deliver", "--command", "cat >/dev/null"], env: env).code, 0)
        let snap = dataDir + "/snapshot.ndjson"
        try? FileManager.default.removeItem(atPath: snap)
        XCTAssertEqual(run("tenclub", ["status"], env: env).code, 0)  // a reader writes a fresh snapshot
        let text = String(decoding: bytes(snap), as: UTF8.self)
        guard let cold = text.range(of: "{\"type\":\"cold\"}"), text[cold.upperBound...].contains("\"to\":\"+14155550132\"") else {
            return XCTFail("the SMS log is not in the snapshot's cold part: \(text)")
        }
        let edited = String(text[..<cold.upperBound]) + text[cold.upperBound...].replacingOccurrences(of: "+14155550132", with: "+14155550199")
        setBytes(snap, Array(edited.utf8))
        let log = run("tenclub", ["sms", "log"], env: env)
        XCTAssertEqual(log.code, 0, log.err)
        XCTAssertFalse(log.out.contains("+14155550199"), log.out)
        XCTAssertTrue(log.out.contains("+14155550132"), log.out)
        XCTAssertTrue(log.err.contains("was refused: its checksum does not match its contents"), log.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: snap + ".bad-1"), "the edited snapshot is kept as evidence")
    }

    /// yomo due decides from the snapshot's first line (a summary of wake
    /// times) when nothing is due: an edited summary must not silence a
    /// reminder; it is refused like any edit.
    func testEditedSnapshotSummaryDoesNotSilenceYomoDue() {
        for (i, day) in ["01", "02", "03"].enumerated() {
            XCTAssertEqual(run("yomo", ["add", mark(i), "--date", "2026-12-\(day)", "--time", "09:00"]).code, 0)
        }
        freshSnapshot(.yomo)
        let snap = snapshotPath(.yomo)
        var lines = String(decoding: bytes(snap), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertTrue(lines[1].contains("\"summary\""), lines[1])
        // Every wake time pushed a year on (digits 179… become 182…).
        lines[1] = lines[1].replacingOccurrences(of: "[179", with: "[182")
        setBytes(snap, Array(lines.joined(separator: "\n").utf8))
        let due = run("yomo", ["due", "--now", "2026-12-01T09:01:00-05:00"])
        XCTAssertEqual(due.code, 0, due.err)
        XCTAssertEqual(due.records.compactMap { $0["title"] as? String }, [mark(0)], "the reminder still comes due")
        XCTAssertTrue(due.err.contains("refused"), due.err)
    }

    /// The header's offset for the journal halved (history would be folded
    /// twice), or pushed past the journal's end: refused, the truth, no doubles.
    func editedOffset(_ s: Subject) {
        setUp(s)
        let marks = writes(s, 0..<4)
        for (n, edit) in [(1, { (v: Int) in v / 2 }), (2, { (v: Int) in v + 4096 })] {
            freshSnapshot(s)
            let snap = snapshotPath(s)
            let b = bytes(snap)
            let header = String(decoding: b[..<b.firstIndex(of: 0x0A)!], as: UTF8.self)
            let name = (journalPath(s) as NSString).lastPathComponent
            // Journal names in the header are relative to the journal folder
            // (habitmatch's pool holds several folders).
            let key = s.tool == "habitmatch" ? "\"pairs/ana+cy/\(name)\":[" : "\"\(name)\":["
            guard let r = header.range(of: key) else { return XCTFail("\(s.tool): no \(key) in \(header)") }
            let digits = header[r.upperBound...].prefix { $0.isNumber }
            let edited = header.replacingCharacters(in: r.upperBound..<digits.endIndex, with: String(edit(Int(digits)!)))
            setBytes(snap, Array(edited.utf8) + Array(b[b.firstIndex(of: 0x0A)!...]))
            let got = run(s.tool, s.list)
            XCTAssertEqual(got.code, 0, got.err)
            XCTAssertTrue(got.err.contains("refused"), "\(s.tool): \(got.err)")
            XCTAssertEqual(shown(s, got), expected(s, marks),
                           "\(s.tool): no history folded twice or dropped")
            XCTAssertTrue(FileManager.default.fileExists(atPath: snap + ".bad-\(n)"))
            XCTAssertEqual(state(s), expected(s, marks))
        }
    }

    func testEditedSnapshotOffsetTenclub() { editedOffset(.tenclub) }
    func testEditedSnapshotOffsetYomo() { editedOffset(.yomo) }
    func testEditedSnapshotOffsetRewards() { editedOffset(.rewards) }
    func testEditedSnapshotOffsetPlaya() { editedOffset(.playa) }
    func testEditedSnapshotOffsetHabitmatch() { editedOffset(.habitmatch) }

    /// The journal cut back to an earlier commit (shorter than the offset
    /// the snapshot folded): the snapshot is refused and kept, and the answer
    /// is what the journal holds, never the snapshot's history.
    func journalShorterThanSnapshot(_ s: Subject) {
        setUp(s)
        var marks = writes(s, 0..<4)
        freshSnapshot(s)
        let path = journalPath(s)
        let journal = bytes(path)
        let lines = lineRanges(journal)
        let commits = lines.filter { journal[$0.lowerBound..<($0.lowerBound + 16)] == ArraySlice("{\"type\":\"commit\"".utf8) }
        // Keep all but the last two batches.
        let cut = commits[commits.count - 3].upperBound
        setBytes(path, Array(journal[..<cut]))
        _ = truncate(path, off_t(cut))
        marks.removeLast(2)
        let r = run(s.tool, s.list)
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertTrue(r.err.contains("refused") && r.err.contains("shorter"), "\(s.tool): \(r.err)")
        XCTAssertEqual(shown(s, r), expected(s, marks))
        XCTAssertTrue(FileManager.default.fileExists(atPath: snapshotPath(s) + ".bad-1"), "\(s.tool): the old snapshot is kept")
        // Extended again past the old offset by new writes: still the journal's truth.
        marks += writes(s, 10..<13)
        XCTAssertEqual(state(s), expected(s, marks))
        dropSnapshot(s)
        XCTAssertEqual(state(s), expected(s, marks))
    }

    func testJournalShorterThanSnapshotTenclub() { journalShorterThanSnapshot(.tenclub) }
    func testJournalShorterThanSnapshotYomo() { journalShorterThanSnapshot(.yomo) }
    func testJournalShorterThanSnapshotRewards() { journalShorterThanSnapshot(.rewards) }
    func testJournalShorterThanSnapshotPlaya() { journalShorterThanSnapshot(.playa) }
    func testJournalShorterThanSnapshotHabitmatch() { journalShorterThanSnapshot(.habitmatch) }

    // MARK: Stale temporaries

    /// A snapshot.ndjson.tmp-PID left by a killed writer is removed by the
    /// next writer when that process is gone, and left alone while it runs.
    func staleTemporaries(_ s: Subject) {
        setUp(s)
        writes(s, 0..<2)
        let folder = snapshotFolder(s)
        // A pid that is surely gone: a child that has exited and been reaped.
        let gone = launch(s.tool, ["--version"])
        _ = gone.finish()
        let dead = folder + "/snapshot.ndjson.tmp-\(gone.pid)"
        let alive = folder + "/snapshot.ndjson.tmp-\(getpid())"
        XCTAssertTrue(FileManager.default.createFile(atPath: dead, contents: Data("half a snapshot".utf8)))
        XCTAssertTrue(FileManager.default.createFile(atPath: alive, contents: Data("being written".utf8)))
        let w = run(s.tool, s.write(mark(2)))
        XCTAssertEqual(w.code, 0, w.err)
        XCTAssertEqual(w.err, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dead), "\(s.tool): a dead writer's temporary is removed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: alive), "\(s.tool): a live writer's temporary is left alone")
        unlink(alive)
    }

    func testStaleTemporariesTenclub() { staleTemporaries(.tenclub) }
    func testStaleTemporariesYomo() { staleTemporaries(.yomo) }
    func testStaleTemporariesRewards() { staleTemporaries(.rewards) }
    func testStaleTemporariesPlaya() { staleTemporaries(.playa) }
    func testStaleTemporariesHabitmatch() { staleTemporaries(.habitmatch) }

    /// Regression (found by this suite, fixed in Core/Store/). The
    /// journal is rewritten through JOURNAL.ndjson.tmp-PID too (setting bad
    /// lines aside, erasures, purge), but only snapshot.ndjson.tmp-PID files
    /// of dead writers are cleaned up: a writer killed during a journal
    /// rewrite leaves its temporary in journal/ for ever.
    ///   tenclub unlock; echo x > DATA/journal/HOST.ndjson.tmp-999999; tenclub unlock; ls DATA/journal
    func testStaleJournalTemporariesOfDeadWritersAreRemoved() {
        let s = Subject.tenclub
        writes(s, 0..<1)
        let gone = launch(s.tool, ["--version"])
        _ = gone.finish()
        let stale = journalPath(s) + ".tmp-\(gone.pid)"
        XCTAssertTrue(FileManager.default.createFile(atPath: stale, contents: Data("a rewrite cut short".utf8)))
        XCTAssertEqual(run(s.tool, s.write(mark(1))).code, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale), "a dead writer's journal temporary is never removed")
    }
}
