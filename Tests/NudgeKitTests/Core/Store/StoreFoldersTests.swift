import XCTest
@testable import NudgeKit

/// A model that keeps who wrote each event and from which folder.
struct Provenance: JournalModel, Equatable {
    static var schemaVersion: Int { 1 }
    var seen: [String] = []
    init(full: Bool) {}
    mutating func apply(_ e: JSONObject) {}
    mutating func apply(_ e: JSONObject, stamp: Stamp) {
        seen.append("\(e["actor"]?.string ?? "-") \(e["scope"]?.string ?? "-") \(e["v"]?.string ?? "")")
    }
    func hotSnapshot() -> [JSONObject] { seen.map { ["s": .string($0)] } }
    mutating func restoreHot(_ l: JSONObject) throws(ToolError) { if let s = l["s"]?.string { seen.append(s) } }
}

/// Journals in subfolders: which folders a copy reads and writes, and the
/// folder and actor every event is tagged with, a peer's as its own.
final class StoreFoldersTests: XCTestCase {
    var root = ""
    override func setUp() { root = NSTemporaryDirectory() + "folders-\(UUID().uuidString)" }
    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    func store(_ actor: String, only: Set<String>? = nil) -> Store<Provenance> {
        var o = StoreOptions(tool: "test", actor: actor, user: "tester", lockTimeoutMillis: 500)
        o.journalFolder = root + "/pool"
        o.trust = .transport
        o.subfolders = ["a", "b/**", "c"]
        o.tagActor = true
        o.tagScope = true
        if let o2 = only { o.actorsIn = ["c": o2] }
        return Store(dir: root + "/\(actor)-\(only == nil ? "all" : "some")", options: o)
    }

    func put(_ s: Store<Provenance>, _ folder: String, _ v: String) throws {
        try s.write(at: Instant(ms: 1_795_334_400_000)) { (tx: inout Transaction<Provenance>) throws(ToolError) in
            tx.folder = folder
            tx.record(["type": "x", "v": .string(v)])
        }
    }

    func testPeersEventsCarryTheirFolderAndActorsInPassesOthersOver() throws {
        try put(store("x"), "a", "1")
        try put(store("y"), "b/one", "2")
        try put(store("y"), "c", "3")
        try put(store("x"), "c", "4")
        XCTAssertEqual(Set(try store("x").read().seen), ["x a 1", "y b/one 2", "y c 3", "x c 4"])
        // Only x's files in c: y's is never even looked at there.
        XCTAssertEqual(Set(try store("x", only: ["x"]).read().seen), ["x a 1", "y b/one 2", "x c 4"])
        // A folder one level inside "b/**" is written; deeper, or elsewhere, is not.
        XCTAssertThrowsError(try put(store("x"), "b/one/two", "5"))
        XCTAssertThrowsError(try put(store("x"), "d", "6"))
        XCTAssertTrue(Store<Provenance>.folder("b/one", isIn: "b/**"))
        XCTAssertTrue(Store<Provenance>.folder("pairs/a+b", isIn: "pairs/*"))
        XCTAssertFalse(Store<Provenance>.folder("b", isIn: "b/**"))
        XCTAssertFalse(Store<Provenance>.folder("bb/one", isIn: "b/**"))
    }

    func peer(_ actor: String, quota: Int? = nil, horizon: Int64? = nil, now: Int64 = 1_795_334_400_000) -> Store<Provenance> {
        var o = StoreOptions(tool: "test", actor: actor, user: "tester", lockTimeoutMillis: 500)
        o.journalFolder = root + "/pool"
        o.trust = .transport
        o.subfolders = ["a"]
        o.tagActor = true
        o.tagScope = true
        o.nowMillis = now
        if let q = quota { o.peerFileQuota = ["a": q] }
        o.peerHorizonMillis = horizon
        return Store(dir: root + "/\(actor)-\(quota ?? 0)-\(horizon ?? 0)", options: o)
    }

    /// What one writer can make a reader read and keep stops at the
    /// folder's quota; the writer's own copy is not limited.
    func testAPeersJournalIsReadOnlyAsFarAsItsFoldersQuota() throws {
        for i in 0..<50 { try put(peer("y"), "a", "\(i)") }
        let size = Int((try? FileManager.default.attributesOfItem(atPath: root + "/pool/a/y.ndjson")[.size] as? Int) ?? 0)
        XCTAssertEqual(try peer("x", quota: size / 2).read().seen.count, 25, "about half of it")
        XCTAssertEqual(try peer("y", quota: size / 2).read().seen.count, 50, "one's own: all")
        XCTAssertEqual(try peer("x", quota: size * 2).read().seen.count, 50)
    }

    /// A peer's batch stamped further ahead than the horizon waits for its
    /// time, and the reader's own next stamp is not pushed past it.
    func testAPeerAheadOfTheHorizonWaitsAndMovesNoClock() throws {
        let t0: Int64 = 1_795_334_400_000
        try peer("y", now: t0 + 23 * 3_600_000).write(at: Instant(ms: t0 + 23 * 3_600_000)) { (tx: inout Transaction<Provenance>) throws(ToolError) in
            tx.folder = "a"
            tx.record(["type": "x", "v": "ahead"])
        }
        XCTAssertEqual(try peer("x", horizon: 600_000, now: t0).read().seen, [])
        try peer("x", horizon: 600_000, now: t0).write(at: Instant(ms: t0)) { (tx: inout Transaction<Provenance>) throws(ToolError) in
            tx.folder = "a"
            tx.record(["type": "x", "v": "mine"])
        }
        let mine = try String(contentsOfFile: root + "/pool/a/x.ndjson", encoding: .utf8)
        XCTAssertTrue(mine.contains("\"hlc\":[\(t0),"), mine)
        // Once its time comes, it counts.
        XCTAssertEqual(Set(try peer("x", horizon: 600_000, now: t0 + 24 * 3_600_000).read().seen), ["x a mine", "y a ahead"])
    }
}
