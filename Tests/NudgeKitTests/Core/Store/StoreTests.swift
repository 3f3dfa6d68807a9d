import XCTest
@testable import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

/// A small model: a running total (hot) and the keys seen (cold).
struct Counter: JournalModel {
    static var schemaVersion: Int { 1 }
    var total = 0
    var keys: Set<String> = []
    let full: Bool
    init(full: Bool) { self.full = full }
    mutating func apply(_ e: JSONObject) {
        guard e["type"]?.string == "add" else { return }
        total += Int(e["n"]?.int ?? 0)
        if full, let k = e["key"]?.string { keys.insert(k) }
    }
    func hotSnapshot() -> [JSONObject] { [["total": JSON(total)]] }
    func coldSnapshot() -> [JSONObject] { keys.sorted().map { ["key": .string($0)] } }
    mutating func restoreHot(_ l: JSONObject) throws(ToolError) { total = Int(l["total"]?.int ?? 0) }
    mutating func restoreCold(_ l: JSONObject) throws(ToolError) { if full, let k = l["key"]?.string { keys.insert(k) } }
}

/// Version 2 renamed the event field `n` to `amount`.
struct CounterV2: JournalModel {
    static var schemaVersion: Int { 2 }
    var total = 0
    init(full: Bool) {}
    mutating func apply(_ e: JSONObject) { if e["type"]?.string == "add" { total += Int(e["amount"]?.int ?? 0) } }
    func hotSnapshot() -> [JSONObject] { [["total": JSON(total)]] }
    mutating func restoreHot(_ l: JSONObject) throws(ToolError) { total = Int(l["total"]?.int ?? 0) }
    static func migrate(_ e: JSONObject, from schema: Int) -> JSONObject {
        var e = e
        if schema < 2, let n = e["n"] { e["n"] = nil; e["amount"] = n }
        return e
    }
}

final class StoreTests: XCTestCase {
    var dir = ""

    override func setUp() {
        dir = NSTemporaryDirectory() + "store-\(UUID().uuidString)/data"
    }

    func store<M: JournalModel>(_ m: M.Type = Counter.self, every: Int = 256) -> Store<M> {
        Store<M>(dir: dir, options: StoreOptions(tool: "test", actor: "host-a", user: "tester", lockTimeoutMillis: 200, snapshotEvery: every))
    }

    func add(_ n: Int, key: String? = nil, every: Int = 256) throws {
        try store(every: every).write(at: Instant(ms: 0)) { (tx: inout Transaction<Counter>) throws(ToolError) in
            var e: JSONObject = ["type": "add", "n": JSON(n)]
            if let k = key { e["key"] = .string(k) }
            tx.record(e)
        }
    }

    var journal: String { dir + "/journal/host-a.ndjson" }

    /// A batch given up (`Transaction.abandon`) writes nothing, not what
    /// was recorded before nor after; the write returns the change's value.
    func testAnAbandonedBatchWritesNothing() throws {
        try add(5)
        let before = try Data(contentsOf: URL(fileURLWithPath: journal))
        let said = try store().write(at: Instant(ms: 0)) { (tx: inout Transaction<Counter>) throws(ToolError) -> String in
            tx.record(["type": "add", "n": 1])
            tx.abandon()
            tx.record(["type": "add", "n": 2])
            XCTAssertTrue(tx.abandoned)
            XCTAssertEqual(tx.events.count, 1, "nothing is recorded after")
            return "again"
        }
        XCTAssertEqual(said, "again")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: journal)), before, "nothing appended")
        XCTAssertEqual(try store().read().total, 5)
    }

    func testEmptyStoreReadsEmptyWithoutCreatingAnything() throws {
        XCTAssertEqual(try store().read().total, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir))
    }

    func testPrivateFilesWhateverTheUmask() throws {
        let old = umask(0)
        defer { umask(old) }
        try add(1)
        let fm = FileManager.default
        func mode(_ p: String) throws -> Int { (try fm.attributesOfItem(atPath: p)[.posixPermissions] as! NSNumber).intValue }
        XCTAssertEqual(try mode(dir), 0o700)
        XCTAssertEqual(try mode(dir + "/journal"), 0o700)
        XCTAssertEqual(try mode(journal), 0o600)
        XCTAssertEqual(try mode(dir + "/snapshot.ndjson"), 0o600)
        XCTAssertEqual(try mode(dir + "/lock"), 0o600)
    }

    func testTornLastLineIsSetAsideAndNothingEarlierLost() throws {
        for i in 1...3 { try add(i) }
        // A crash in the middle of the next write: half a line, no newline.
        let fh = FileHandle(forWritingAtPath: journal)!
        fh.seekToEndOfFile()
        fh.write(Data("{\"type\":\"add\",\"n\":1".utf8))
        fh.closeFile()
        XCTAssertEqual(try store().read().total, 6, "readers ignore the torn tail")
        try add(10)
        XCTAssertEqual(try store().read().total, 16)
        let corrupt = try String(contentsOfFile: dir + "/journal/host-a.corrupt", encoding: .utf8)
        XCTAssertEqual(corrupt, "{\"type\":\"add\",\"n\":1\n")
        // The journal itself is clean again: every line parses.
        for line in try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n") {
            XCTAssertNoThrow(try JSON.parse(String(line)))
        }
    }

    func testUncommittedBatchCountsForNothing() throws {
        try add(5)
        let fh = FileHandle(forWritingAtPath: journal)!
        fh.seekToEndOfFile()
        fh.write(Data("{\"type\":\"add\",\"n\":100}\n{\"type\":\"add\",\"n\":100}\n".utf8))
        fh.closeFile()
        XCTAssertEqual(try store().read().total, 5)
        try add(1)
        XCTAssertEqual(try store().read().total, 6)
    }

    func testSnapshotsAgreeWithTheFoldAndAreRebuiltWhenBad() throws {
        for i in 0..<40 { try add(1, key: "k\(i)", every: 8) }
        let snap = dir + "/snapshot.ndjson"
        XCTAssertTrue(FileManager.default.fileExists(atPath: snap))
        let hot = try store(every: 8).read(full: false)
        let full = try store(every: 8).read(full: true)
        XCTAssertEqual(hot.total, 40)
        XCTAssertTrue(hot.keys.isEmpty, "hot readers do not load the cold index")
        XCTAssertEqual(full.keys.count, 40)
        try "garbage\n".write(toFile: snap, atomically: true, encoding: .utf8)
        XCTAssertEqual(try store(every: 8).read(full: true).keys.count, 40)
        try FileManager.default.removeItem(atPath: snap)
        XCTAssertEqual(try store(every: 8).read().total, 40)
    }

    func testMigrationRunsOnOpen() throws {
        for i in 1...4 { try add(i) }
        let v2 = store(CounterV2.self)
        XCTAssertEqual(try v2.read().total, 10)
        try v2.write(at: Instant(ms: 0)) { (tx: inout Transaction<CounterV2>) throws(ToolError) in
            tx.record(["type": "add", "amount": 5])
        }
        XCTAssertEqual(try v2.read().total, 15)
        let header = try String(contentsOfFile: dir + "/snapshot.ndjson", encoding: .utf8).split(separator: "\n")[0]
        XCTAssertTrue(header.contains("\"schema\":2"), String(header))
    }

    func testLockedStoreIsExit75AndNothingWritten() throws {
        try add(1)
        let lock = try FileLock.acquire(dir + "/lock", timeoutMillis: 100, what: "test")
        XCTAssertThrowsError(try add(1)) { e in XCTAssertEqual((e as! ToolError).code, .tempFail) }
        lock.release()
        XCTAssertEqual(try store().read().total, 1)
    }

    func testJournalsOfOtherActorsAreMerged() throws {
        try add(2)
        let other = Store<Counter>(dir: dir, options: StoreOptions(tool: "test", actor: "host-b", user: "x", lockTimeoutMillis: 200))
        try other.write(at: Instant(ms: 0)) { (tx: inout Transaction<Counter>) throws(ToolError) in tx.record(["type": "add", "n": 3]) }
        XCTAssertEqual(try store().read().total, 5)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/journal/host-b.ndjson"))
    }

    func testCommitLineSaysWhoAndWhen() throws {
        try add(1)
        let lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n")
        let commit = try JSON.parse(String(lines.last!)).object!
        XCTAssertEqual(commit["type"], "commit")
        XCTAssertEqual(commit["by"], "tester")
        XCTAssertEqual(commit["at"], "1970-01-01T00:00:00Z")
        XCTAssertEqual(commit["n"], 1)
    }
}

/// The one journal rewrite (`Store.rewritten`), over random journals the
/// store wrote: keeping everything gives the same bytes back; keeping some
/// gives a journal the store reads without a word, holding exactly the
/// events kept, in their order, with each batch's stamp.
final class JournalRewriteTests: XCTestCase {
    func testARewriteKeepsWhatItKeepsAndReadsBackClean() throws {
        for seed in 0..<40 {
            var rng = SeededRandom(seed: UInt64(seed))
            let dir = NSTemporaryDirectory() + "rewrite-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let st = Store<Counter>(dir: dir, options: StoreOptions(tool: "test", actor: "host-a", user: "tester", lockTimeoutMillis: 200))
            var all: [Int] = []
            for b in 0..<Int.random(in: 1...12, using: &rng) {
                let n = Int.random(in: 1...4, using: &rng)
                let values = (0..<n).map { _ in Int.random(in: 1...99, using: &rng) }
                all += values
                try st.write(at: Instant(ms: Int64(1_795_000_000_000 + b * 1000))) { (tx: inout Transaction<Counter>) throws(ToolError) in
                    for v in values { tx.record(["type": "add", "n": JSON(v)]) }
                }
            }
            let path = dir + "/journal/host-a.ndjson"
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let same = try Store<Counter>.rewritten(bytes, actor: "host-a") { _, _ in true }
            XCTAssertEqual(same.bytes, bytes, "seed \(seed): keeping everything changes nothing")
            XCTAssertEqual(same.removed, 0)
            // Keep the even values: a batch of odd ones goes entirely.
            var stamps: [Int64] = []
            let even = try Store<Counter>.rewritten(bytes, actor: "host-a") { e, stamp in
                stamps.append(stamp.ms)
                return (e["n"]?.int ?? 1) % 2 == 0
            }
            XCTAssertEqual(stamps, stamps.sorted(), "seed \(seed): stamps in order")
            XCTAssertEqual(even.removed, all.filter { $0 % 2 != 0 }.count)
            try Data(even.bytes).write(to: URL(fileURLWithPath: path))
            try? FileManager.default.removeItem(atPath: dir + "/snapshot.ndjson")
            let fresh = Store<Counter>(dir: dir, options: StoreOptions(tool: "test", actor: "host-a", user: "tester", lockTimeoutMillis: 200))
            XCTAssertEqual(try fresh.read().total, all.filter { $0 % 2 == 0 }.reduce(0, +), "seed \(seed)")
            let text = String(decoding: even.bytes, as: UTF8.self)
            XCTAssertFalse(text.contains("\"n\":0,"), "seed \(seed): no empty batch")
        }
    }
}
