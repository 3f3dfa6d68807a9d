import XCTest
@testable import NudgeKit

/// A folder whose journals are read through a private copy
/// (`StoreOptions.mirroredFolders`, a host pool's profiles): a file is read
/// once after each change of it and folded from the copy after that; the
/// copy is believed only while the file is as it was (inode, size, times,
/// owner) and only when whole; a peer's is kept only as far as its quota.
final class StoreMirrorTests: XCTestCase {
    var root = ""
    override func setUp() { root = NSTemporaryDirectory() + "mirror-\(UUID().uuidString)" }
    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    func store(_ actor: String, mirrored: Bool = true, quota: Int? = nil) -> Store<Provenance> {
        var o = StoreOptions(tool: "test", actor: actor, user: "tester", lockTimeoutMillis: 500)
        o.journalFolder = root + "/pool"
        o.trust = .transport
        o.subfolders = ["a"]
        o.tagActor = true
        o.tagScope = true
        if mirrored { o.mirroredFolders = ["a"] }
        if let q = quota { o.peerFileQuota = ["a": q] }
        return Store(dir: root + "/\(actor)\(mirrored ? "" : "-plain")", options: o)
    }

    func put(_ s: Store<Provenance>, _ v: String, ms: Int64 = 1_795_334_400_000) throws {
        try s.write(at: Instant(ms: ms)) { (tx: inout Transaction<Provenance>) throws(ToolError) in
            tx.folder = "a"
            tx.record(["type": "x", "v": .string(v)])
        }
    }

    func copyPath(_ reader: String, _ writer: String) -> String { root + "/\(reader)/mirror/a+\(writer).ndjson" }

    func testAFileIsReadOnceAfterEachChangeAndFoldedFromTheCopy() throws {
        try put(store("x"), "one")
        XCTAssertEqual(try store("y").read().seen, ["x a one"])
        XCTAssertEqual(try store("y", mirrored: false).read().seen, ["x a one"])
        let copy = copyPath("y", "x")
        let held = try XCTUnwrap(Store<Provenance>.readMirror(copy))
        XCTAssertEqual(Array(held.body), Array(FileManager.default.contents(atPath: root + "/pool/a/x.ndjson")!))
        // The file unchanged, what is folded comes from the copy: put "ONE" in it (same length, key kept).
        var bytes = Array(FileManager.default.contents(atPath: copy)!)
        let at = try XCTUnwrap(String(decoding: bytes, as: UTF8.self).range(of: "\"one\"")).lowerBound.utf16Offset(in: String(decoding: bytes, as: UTF8.self))
        bytes.replaceSubrange((at + 1)..<(at + 4), with: Array("ONE".utf8))
        // (The checksum of its batch no longer holds, so the batch is damaged: nothing of it counts.)
        XCTAssertTrue(FileManager.default.createFile(atPath: copy, contents: Data(bytes)))
        let again = store("y")
        XCTAssertFalse(try again.read(full: true).seen.contains("x a one"), "a second read opened the file, not the copy")
        // Changed, it is read again, and the copy follows (a fresh reader, as y's first read counted the damaged batch).
        try FileManager.default.removeItem(atPath: root + "/y")
        try put(store("x"), "two", ms: 1_795_334_500_000)
        XCTAssertEqual(try store("y").read(full: true).seen, ["x a one", "x a two"])
        XCTAssertEqual(Array(try XCTUnwrap(Store<Provenance>.readMirror(copy)).body), Array(FileManager.default.contents(atPath: root + "/pool/a/x.ndjson")!))
    }

    func testACopyCutShortOrForeignIsNotBelieved() throws {
        try put(store("x"), "one")
        XCTAssertEqual(try store("y").read().seen, ["x a one"])
        let copy = copyPath("y", "x")
        let whole = FileManager.default.contents(atPath: copy)!
        XCTAssertTrue(FileManager.default.createFile(atPath: copy, contents: whole.dropLast(5)))
        XCTAssertNil(Store<Provenance>.readMirror(copy))
        XCTAssertEqual(try store("y").read(full: true).seen, ["x a one"])
        XCTAssertTrue(FileManager.default.createFile(atPath: copy, contents: Data("not a mirror\n".utf8)))
        XCTAssertEqual(try store("y").read(full: true).seen, ["x a one"])
    }

    func testAPeersCopyStopsAtItsQuotaAndTheOwnIsKeptWhole() throws {
        for i in 0..<40 { try put(store("x"), String(repeating: "v", count: 100) + "\(i)", ms: 1_795_334_400_000 + Int64(i) * 1000) }
        let size = (try FileManager.default.attributesOfItem(atPath: root + "/pool/a/x.ndjson")[.size] as? Int) ?? 0
        XCTAssertGreaterThan(size, 4096)
        _ = try store("y", quota: 2048).read()
        XCTAssertEqual(try XCTUnwrap(Store<Provenance>.readMirror(copyPath("y", "x"))).body.count, 2048)
        // x's own copy of its own journal: whole.
        _ = try store("x").read(full: true)
        XCTAssertEqual(try XCTUnwrap(Store<Provenance>.readMirror(copyPath("x", "x"))).body.count, size)
    }
}
