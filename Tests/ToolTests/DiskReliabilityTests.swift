import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reliability suite, part four: odd data directories (a file, a folder
/// open to everyone) and a full file system (a 256 KB tmpfs, when root).
final class DiskReliabilityTests: ReliabilityCase {

    // MARK: A file where the data directory should be

    /// Reads exit 74, writers 73 (or 74), naming the path; the file is untouched.
    func dataDirectoryIsAFile(_ s: Subject) {
        let file = write("not-a-folder", "precious\n")
        for args in [s.list, s.mainRead] {
            let r = runLimited(s.tool, ["--data-dir", file] + args)
            XCTAssertEqual(r.code, 74, "\(s.tool) \(args): \(r.err)")
            XCTAssertEqual(r.out, "")
            XCTAssertTrue(r.err.contains(file), r.err)
            XCTAssertEqual(r.errLines.count, 1, r.err)
            assertDiagnostics(r.err, tool: s.tool)
        }
        for args in s.setup.isEmpty ? [s.write(mark(0))] : [s.setup[0]] {
            let r = runLimited(s.tool, ["--data-dir", file] + args)
            XCTAssertTrue(r.code == 73 || r.code == 74, "\(s.tool) \(args): \(r.code) \(r.err)")
            XCTAssertTrue(r.err.contains(file), r.err)
            assertDiagnostics(r.err, tool: s.tool)
        }
        XCTAssertEqual(String(decoding: bytes(file), as: UTF8.self), "precious\n")
    }

    func testDataDirectoryIsAFileTenclub() { dataDirectoryIsAFile(.tenclub) }
    func testDataDirectoryIsAFileYomo() { dataDirectoryIsAFile(.yomo) }
    func testDataDirectoryIsAFileRewards() { dataDirectoryIsAFile(.rewards) }
    func testDataDirectoryIsAFilePlaya() { dataDirectoryIsAFile(.playa) }
    func testDataDirectoryIsAFileHabitmatch() { dataDirectoryIsAFile(.habitmatch) }

    // MARK: A data directory anyone may write

    /// chmod 777: the command works, and one line on stderr names the fix.
    func worldWritable(_ s: Subject) {
        setUp(s)
        writes(s, 0..<2)
        chmodPath(dataDir, 0o777)
        for args in [s.write(mark(2)), s.list, s.mainRead] {
            let r = runLimited(s.tool, args)
            XCTAssertEqual(r.code, 0, "\(s.tool) \(args): \(r.err)")
            if args != s.mainRead { XCTAssertFalse(r.out.isEmpty, "\(s.tool) \(args) answers") }
            XCTAssertEqual(r.errLines.count, 1, "\(s.tool) \(args): warned once: \(r.err)")
            XCTAssertTrue(r.err.contains("chmod 700 \(dataDir)") || r.err.contains("chmod 700 '\(dataDir)'"),
                          "\(s.tool) \(args): the fix is named: \(r.err)")
        }
        XCTAssertEqual(count(s, expectErr: nil), 3)
        chmodPath(dataDir, 0o700)
        XCTAssertEqual(list(s).err, "")
    }

    func testWorldWritableTenclub() { worldWritable(.tenclub) }
    func testWorldWritableYomo() { worldWritable(.yomo) }
    func testWorldWritableRewards() { worldWritable(.rewards) }
    func testWorldWritablePlaya() { worldWritable(.playa) }
    func testWorldWritableHabitmatch() { worldWritable(.habitmatch) }

    // MARK: A full file system

    var mounted: String?

    override func tearDown() {
        if let m = mounted {
            unmount(m)
            mounted = nil
        }
        super.tearDown()
    }

    /// The data directory on a 256 KB tmpfs, filled up:
    /// 1. A write whose journal append fits but whose snapshot cannot be
    ///    written (ENOSPC) succeeds with a warning (found in review: a failure after
    ///    the change is durable is not an error), and counts once.
    /// 2. Writes go on until one fails: exit 74 or 73 with a message naming
    ///    the path and the cause; readers still answer the earlier truth.
    /// 3. Once space is freed, the next write works and nothing is lost.
    func fullDisk(_ s: Subject) throws {
        try require(.root)  // to mount a small tmpfs
        let m = mountTmpfs(dataDir, size: "256k")
        XCTAssertEqual(m.code, 0, "mount -t tmpfs: \(m.err)")
        guard m.code == 0 else { return }
        mounted = dataDir
        setUp(s)
        var acked = writes(s, 0..<3)
        // Leave room in the journal's last page for one more write (tmpfs
        // gives files whole pages), then fill the rest.
        var i = 3
        while bytes(journalPath(s)).count % 4096 > 2048 || bytes(journalPath(s)).count % 4096 == 0, i < 40 {
            acked += writes(s, i..<(i + 1))
            i += 1
        }
        freshSnapshot(s)
        let filler = fill(dataDir)
        // 1. The snapshot edited in place: the writer refuses it and cannot write a new one.
        var snap = bytes(snapshotPath(s))
        let body = snap.firstIndex(of: 0x0A)! + 1
        let digit = snap[body...].firstIndex { $0 >= 0x30 && $0 <= 0x39 }!
        snap[digit] = snap[digit] == 0x39 ? 0x30 : snap[digit] + 1
        setBytes(snapshotPath(s), snap)
        let w = runLimited(s.tool, s.write(mark(i)))
        XCTAssertEqual(w.code, 0, "\(s.tool): the change is on disk; the snapshot is not the command's business: \(w.err)")
        XCTAssertFalse(w.out.isEmpty)
        XCTAssertTrue(w.err.contains("No space left on device"), "\(s.tool): \(w.err)")
        assertDiagnostics(w.err, tool: s.tool)
        if w.code == 0 { acked.append(mark(i)) }
        i += 1
        let r = runLimited(s.tool, s.list)
        XCTAssertEqual(r.code, 0, "\(s.tool): a reader never fails because the snapshot cannot be written: \(r.err)")
        XCTAssertEqual(shown(s, r.result), expected(s, acked))
        // 2. Write until the disk refuses.
        var failed: Outcome?
        for _ in 0..<40 {
            let o = runLimited(s.tool, s.write(mark(i)))
            if o.code != 0 { failed = o; break }
            acked.append(mark(i))
            i += 1
        }
        guard let f = failed else { return XCTFail("\(s.tool): 40 writes fit on a full disk") }
        XCTAssertTrue(f.code == 74 || f.code == 73, "\(s.tool): \(f.code) \(f.err)")
        XCTAssertNil(f.signal)
        XCTAssertEqual(f.out, "", "\(s.tool): nothing acknowledged")
        XCTAssertTrue(f.err.contains("No space left on device") && f.err.contains(dataDir), "\(s.tool): a clear message: \(f.err)")
        assertDiagnostics(f.err, tool: s.tool)
        for args in [s.list, s.mainRead] {
            let again = runLimited(s.tool, args)
            XCTAssertEqual(again.code, 0, "\(s.tool) \(args) on a full disk: \(again.err)")
            assertDiagnostics(again.err, tool: s.tool)
            if args == s.list {
                XCTAssertEqual(shown(s, again.result), expected(s, acked),
                               "\(s.tool): the earlier truth")
            }
        }
        // 3. Space again.
        unlink(filler)
        let next = runLimited(s.tool, s.write(mark(i)))
        XCTAssertEqual(next.code, 0, "\(s.tool): \(next.err)")
        acked.append(mark(i))
        let final = runLimited(s.tool, s.list)
        XCTAssertEqual(final.code, 0)
        XCTAssertEqual(final.err, "", "\(s.tool): nothing left to report")
        XCTAssertEqual(shown(s, final.result), expected(s, acked))
    }

    func testFullDiskTenclub() throws { try fullDisk(.tenclub) }
    func testFullDiskYomo() throws { try fullDisk(.yomo) }
    func testFullDiskRewards() throws { try fullDisk(.rewards) }
    func testFullDiskPlaya() throws { try fullDisk(.playa) }
    func testFullDiskHabitmatch() throws { try fullDisk(.habitmatch) }
}
