import XCTest
import TestSupport
@testable import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

/// A folder shared with strangers (perUser trust): facts the host proves
/// folded before every journal, commit lines without a checksum refused,
/// no batch larger than what the others read of a journal in one run.
final class StoreStrangersTests: XCTestCase {
    var root = ""
    let fm = FileManager.default
    let t0: Int64 = 1_795_334_400_000

    override func setUp() {
        root = NSTemporaryDirectory() + "strangers-\(UUID().uuidString)"
        try? fm.createDirectory(atPath: root, withIntermediateDirectories: true)
        StoreWarnings.reset()
    }

    override func tearDown() { try? fm.removeItem(atPath: root) }

    /// As root (a journal counts only when the login it is named after owns it).
    func shared(_ data: String, readCap: Int = 16 << 20) -> Store<Registers> {
        var o = StoreOptions(tool: "test", actor: "root", user: "root", lockTimeoutMillis: 500)
        o.journalFolder = root + "/shared"
        o.sharedWithOthers = true
        o.trust = .perUser
        o.requireChecksums = true
        o.hostFacts = [["type": "set", "key": "owner", "value": "mum"]]
        o.nowMillis = t0
        o.peerReadCap = readCap
        return Store(dir: root + "/" + data, options: o)
    }

    func testHostFactsComeFirstAndBatchesNeedTheirChecksum() throws {
        try require(.root)
        let st = shared("a")
        XCTAssertEqual(try st.read().values["owner"], "mum", "before any journal")
        try st.write(at: Instant(ms: t0)) { (tx: inout Transaction<Registers>) throws(ToolError) in
            tx.record(["type": "add", "id": "x", "n": 1])
        }
        // A batch appended by hand, its commit line without a checksum.
        var bytes = Store<Registers>.encodeBatch([["type": "add", "id": "y", "n": 5]], stamp: Stamp(ms: t0 + 1, actor: "root"), by: "root",
                                                 at: Instant(ms: t0 + 1), zone: .utc).bytes
        var text = String(decoding: bytes, as: UTF8.self)
        text = text.replacingOccurrences(of: #","sum":"[0-9a-f]+""#, with: "", options: .regularExpression)
        bytes = Array(text.utf8)
        let fh = try XCTUnwrap(FileHandle(forUpdatingAtPath: root + "/shared/root.ndjson"))
        fh.seekToEndOfFile()
        fh.write(Data(bytes))
        fh.closeFile()
        let fresh = shared("b")
        let s = try fresh.load(full: false, forceRebuild: true).state
        XCTAssertEqual(s.total, 1, "the batch without a checksum counts for nothing")
        XCTAssertEqual(s.values["owner"], "mum")
        XCTAssertEqual(try st.read().values["owner"], "mum", "and through the snapshot")
    }

    func testNoBatchLargerThanWhatTheOthersReadIsWritten() throws {
        try require(.root)
        let st = shared("c", readCap: 4096)
        XCTAssertThrowsError(try st.write(at: Instant(ms: t0)) { (tx: inout Transaction<Registers>) throws(ToolError) in
            for i in 0..<200 { tx.record(["type": "add", "id": .string("id-\(i)"), "n": 1]) }
        }) { e in
            XCTAssertEqual((e as? ToolError)?.code, .dataError)
            XCTAssertTrue((e as? ToolError)?.message.contains("more than the 4096 the others read") ?? false, "\(e)")
        }
        XCTAssertEqual(try st.read().total, 0, "nothing was written")
        try st.write(at: Instant(ms: t0)) { (tx: inout Transaction<Registers>) throws(ToolError) in
            tx.record(["type": "add", "id": "small", "n": 1])
        }
        XCTAssertEqual(try st.read().total, 1)
    }
}
