import XCTest
import TestSupport
@testable import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

/// The checkpoint: a late peer batch folds from an older snapshot kept
/// beside the current one, and the result is the full fold's, exactly.
final class StoreCheckpointTests: XCTestCase {
    var root = ""
    let fm = FileManager.default
    let t0: Int64 = 1_795_334_400_000  // 2026-11-22T08:00:00Z
    let day: Int64 = 24 * 3_600_000

    override func setUp() {
        root = NSTemporaryDirectory() + "checkpoint-\(UUID().uuidString)"
        try? fm.createDirectory(atPath: root, withIntermediateDirectories: true)
        StoreWarnings.reset()
    }

    override func tearDown() { try? fm.removeItem(atPath: root) }

    func device(_ actor: String, base: String, every: Int = 1) -> Store<Registers> {
        var o = StoreOptions(tool: "test", actor: actor, user: "tester", lockTimeoutMillis: 500, snapshotEvery: every)
        o.journalFolder = base + "/\(actor)/sync"
        o.nowMillis = 4_000_000_000_000
        return Store(dir: base + "/\(actor)/data", options: o)
    }

    func write(_ s: Store<Registers>, _ e: JSONObject, at ms: Int64) throws {
        try s.write(at: Instant(ms: ms)) { (tx: inout Transaction<Registers>) throws(ToolError) in tx.record(e) }
    }

    /// Copies `from`'s own journal into `to`'s sync folder, as a sync engine
    /// does (a temporary file, then a rename).
    func deliver(_ from: Store<Registers>, to: Store<Registers>) {
        let src = from.journalDir + "/\(from.options.actor).ndjson"
        guard let bytes = fm.contents(atPath: src) else { return }
        try? fm.createDirectory(atPath: to.journalDir, withIntermediateDirectories: true)
        let tmp = to.journalDir + "/.tmp.\(from.options.actor)"
        _ = fm.createFile(atPath: tmp, contents: bytes)
        _ = rename(tmp, to.journalDir + "/\(from.options.actor).ndjson")
    }

    func assertSameFold(_ a: Store<Registers>.Loaded, _ b: Store<Registers>.Loaded, _ why: String) {
        XCTAssertEqual(a.state, b.state, why)
        XCTAssertEqual(a.marks, b.marks, why)
        XCTAssertEqual(a.frontier, b.frontier, why)
        var x: [UInt8] = [], y: [UInt8] = []
        for l in a.state.hotSnapshot() { l.write(into: &x) }
        for l in b.state.hotSnapshot() { l.write(into: &y) }
        XCTAssertEqual(x, y, why)
    }

    /// Three devices write over weeks of stamp time (clocks a few minutes
    /// apart) and see each other's journals late, at random; now and then
    /// one erases. Whenever a device's checkpoint is usable, the fold from it
    /// equals the fold of everything; and every read equals a full rebuild.
    func testTheFoldFromTheCheckpointIsTheFullFold() throws {
        var used = 0
        for seed in 1...10 {
            var rng = SeededRandom(seed: UInt64(seed))
            let base = root + "/p\(seed)"
            let names = ["laptop", "desk", "phone"]
            let devices = names.map { device($0, base: base, every: Int.random(in: 1...3, using: &rng)) }
            var clock = t0
            for step in 0..<80 {
                clock += Int64.random(in: 0...(day * 3 / 2), using: &rng)
                let d = Int.random(in: 0..<3, using: &rng)
                let skew = Int64([-300_000, 0, 200_000][d])
                let k = "k\(Int.random(in: 0..<5, using: &rng))"
                switch Int.random(in: 0..<12, using: &rng) {
                case 0...3: try write(devices[d], ["type": "set", "key": .string(k), "value": .string("\(names[d])-\(step)")], at: clock + skew)
                case 4...5: try write(devices[d], ["type": "add", "id": .string("\(names[d])-\(step)"), "n": 3], at: clock + skew)
                case 6 where Int.random(in: 0..<4, using: &rng) == 0:
                    try write(devices[d], ["type": "erase", "key": .string(k)], at: clock + skew)
                default:
                    let to = (d + Int.random(in: 1...2, using: &rng)) % 3
                    deliver(devices[d], to: devices[to])
                    let s = devices[to]
                    let entries = try s.journalEntries()
                    let rebuilt = try s.load(full: true, forceRebuild: true)
                    if let c = try s.loadFromCheckpoint(entries, folded: [:], full: true, lazy: false) {
                        used += 1
                        assertSameFold(c, rebuilt, "seed \(seed) step \(step): from the checkpoint")
                    }
                    // (Unless a journal is shorter than a snapshot folded, which
                    // keeps what it folded: an erasure's rewrite arriving.)
                    let l = try s.load(full: true)
                    let sizes = Dictionary(uniqueKeysWithValues: entries.map { ($0.name, $0.size) })
                    if l.marks.allSatisfy({ $0.value.end <= sizes[$0.key] ?? 0 }) {
                        assertSameFold(l, rebuilt, "seed \(seed) step \(step): load")
                    }
                    _ = try s.read(full: true)  // upkeep: snapshots replaced, checkpoints kept
                }
            }
        }
        XCTAssertGreaterThan(used, 20, "the checkpoint path was taken")
    }

    /// A desk and a laptop; the laptop's batches of three days ago reach the
    /// desk after its snapshot moved on: the checkpoint answers.
    func lateBatchScenario(at base: String? = nil) throws -> (desk: Store<Registers>, laptop: Store<Registers>) {
        let base = base ?? root + "/s"
        let desk = device("desk", base: base)
        let laptop = device("laptop", base: base)
        try write(desk, ["type": "set", "key": "a", "value": "1"], at: t0)
        try write(desk, ["type": "set", "key": "b", "value": "1"], at: t0 + 3 * day)
        try write(laptop, ["type": "set", "key": "a", "value": "late"], at: t0 + 4 * day)
        try write(desk, ["type": "set", "key": "c", "value": "1"], at: t0 + 6 * day)
        XCTAssertTrue(fm.fileExists(atPath: desk.checkpointPath), "a snapshot two days older was kept")
        deliver(laptop, to: desk)
        return (desk, laptop)
    }

    func testALateBatchFoldsFromTheCheckpoint() throws {
        let (desk, _) = try lateBatchScenario()
        let c = try desk.loadFromCheckpoint(try desk.journalEntries(), folded: [:], full: true, lazy: false)
        XCTAssertNotNil(c)
        let l = try desk.load(full: true)
        XCTAssertEqual(l.state.values, ["a": "late", "b": "1", "c": "1"])
        assertSameFold(l, try desk.load(full: true, forceRebuild: true), "late batch")
    }

    /// The reader takes the checkpoint path: bytes the checkpoint folded
    /// are not read again (shown by damaging one, which a full fold drops).
    func testTheReaderFoldsFromTheCheckpoint() throws {
        let (desk, _) = try lateBatchScenario()
        let path = desk.journalDir + "/desk.ndjson"
        var bytes = [UInt8](fm.contents(atPath: path)!)
        let r = bytes.firstRange(of: Array("\"value\":\"1\"".utf8))!
        bytes[r.upperBound - 2] = UInt8(ascii: "2")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try desk.load(full: true).state.values["a"], "late")
        XCTAssertEqual(try desk.load(full: true).marks["desk.ndjson"]?.bad, 0, "not read again: the checkpoint's")
        XCTAssertEqual(try desk.load(full: true, forceRebuild: true).marks["desk.ndjson"]?.bad, 1, "a full fold reads it")
    }

    /// Written every hour for ten days, the snapshot is replaced each time;
    /// the checkpoint is always one to two lags behind, never the year's start.
    func testTheCheckpointFollowsSteadyUse() throws {
        let desk = device("desk", base: root + "/steady")
        let lag = Store<Registers>.checkpointLag
        for h in 0..<240 {
            let now = t0 + Int64(h) * 3_600_000
            try write(desk, ["type": "set", "key": .string("k\(h % 7)"), "value": .string("\(h)")], at: now)
            guard case .some(.some(let c)) = desk.declaredFrontier(desk.checkpointPath) else {
                XCTAssertLessThan(now - t0, 2 * lag + 3_600_000, "hour \(h): no checkpoint yet")
                continue
            }
            XCTAssertGreaterThanOrEqual(now - c.ms, lag, "hour \(h)")
            XCTAssertLessThanOrEqual(now - c.ms, 2 * lag + 3_600_000, "hour \(h)")
        }
        XCTAssertTrue(fm.fileExists(atPath: desk.checkpointPath))
    }

    /// After a late batch a lazy reader keeps the snapshot on disk
    /// (rendering the whole state again is what a late batch must not cost);
    /// every read folds from the checkpoint and is right; more writes replace
    /// it in time. A full read (it folded the cold part anyway) writes it.
    func testALateBatchKeepsTheSnapshotUntilTheTailGrows() throws {
        let (desk, laptop) = try lateBatchScenario()
        let before = Sys.fileIdentity(desk.snapshotPath)
        for _ in 0..<3 {
            XCTAssertEqual(try desk.read(lazy: true).values, ["a": "late", "b": "1", "c": "1"])
            XCTAssertEqual(Sys.fileIdentity(desk.snapshotPath), before, "the snapshot is not written again")
        }
        for k in 0..<200 { try write(laptop, ["type": "add", "id": .string("n\(k)"), "n": 1], at: t0 + 7 * day + Int64(k)) }
        deliver(laptop, to: desk)
        let l = try desk.read(lazy: true)
        XCTAssertNotEqual(Sys.fileIdentity(desk.snapshotPath), before, "a long tail: a new snapshot")
        XCTAssertEqual(l, try desk.load(full: true, forceRebuild: true).state)
        XCTAssertEqual(try desk.load(full: true).frontier, Stamp(ms: t0 + 7 * day + 199, actor: "laptop"))
        let (other, _) = try lateBatchScenario(at: root + "/full")
        let was = Sys.fileIdentity(other.snapshotPath)
        XCTAssertEqual(try other.read(full: true).values, ["a": "late", "b": "1", "c": "1"])
        XCTAssertNotEqual(Sys.fileIdentity(other.snapshotPath), was, "a full read writes the snapshot once")
        XCTAssertEqual(try other.load(full: true).tailEvents, 0)
    }

    /// Something that is not a snapshot where the next checkpoint waits (a
    /// FIFO, a directory, a link) is dropped, so the checkpoint moves on.
    func testWhatBlocksTheNextCheckpointIsDropped() throws {
        for (k, plant) in ["fifo", "dir", "link"].enumerated() {
            let desk = device("desk", base: root + "/block\(k)")
            try write(desk, ["type": "set", "key": "a", "value": "0"], at: t0)
            switch plant {
            case "fifo": XCTAssertEqual(mkfifo(desk.nextCheckpointPath, 0o600), 0)
            case "dir": try fm.createDirectory(atPath: desk.nextCheckpointPath, withIntermediateDirectories: false)
            default: try fm.createSymbolicLink(atPath: desk.nextCheckpointPath, withDestinationPath: desk.snapshotPath)
            }
            for d in 1...12 { try write(desk, ["type": "set", "key": "a", "value": .string("\(d)")], at: t0 + Int64(d) * day) }
            guard case .some(.some(let c)) = desk.declaredFrontier(desk.checkpointPath) else { return XCTFail("\(plant): no checkpoint") }
            XCTAssertGreaterThan(c.ms, t0 + 5 * day, "\(plant): the checkpoint moved on")
        }
    }

    /// After a late batch the head is still the snapshot's: its first line
    /// and every event past its marks, the late batch among them, in stamp
    /// order, with the fields asked for; none without `lateTail`, and none
    /// once a batch past the marks erases.
    func testTheHeadAfterALateBatchIsTheSnapshotsAndEverythingPastIt() throws {
        let (desk, laptop) = try lateBatchScenario()
        XCTAssertNil(try desk.readHead(), "a late batch: only a reader that takes one is answered")
        let s = try XCTUnwrap(try desk.readSnapshotHead())
        let h = try XCTUnwrap(try desk.readHead(lateTail: true, fields: ["type", "key"]))
        XCTAssertEqual(h.hot, s.hot)
        // What the snapshot had not folded: the laptop's late batch.
        let past = try desk.journalEntries().flatMap { e -> [(Stamp, JSONObject)] in
            let r = try desk.readJournal(e, index: 0, from: s.marks[e.name]?.end ?? 0, tag: nil)
            return (r?.batches ?? []).flatMap { b in b.events.map { (b.stamp, $0) } }
        }.sorted { $0.0 < $1.0 }
        XCTAssertEqual(past.map(\.0.actor), ["laptop"])
        XCTAssertLessThan(past[0].0, try XCTUnwrap(s.frontier), "late: older than what the snapshot folded")
        XCTAssertEqual(h.tail, past.map { ["type": $0.1["type"]!, "key": $0.1["key"]!] }, "only the fields asked for")
        XCTAssertEqual(h.writers, past.map(\.0.actor))
        // An erasure past the marks, late too: everything is read.
        try write(laptop, ["type": "erase", "key": "b"], at: t0 + 5 * day)
        deliver(laptop, to: desk)
        XCTAssertNil(try desk.readHead(lateTail: true), "an erasure: read everything")
    }

    func testABatchOlderThanTheCheckpointFoldsEverything() throws {
        let (desk, _) = try lateBatchScenario()
        // A journal whose batch is older than anything the checkpoint folded.
        let phone = device("phone", base: root + "/s")
        try write(phone, ["type": "set", "key": "z", "value": "phone"], at: t0 - day)
        deliver(phone, to: desk)
        XCTAssertNil(try desk.loadFromCheckpoint(try desk.journalEntries(), folded: [:], full: true, lazy: false))
        let l = try desk.load(full: true)
        XCTAssertEqual(l.state.values, ["a": "late", "b": "1", "c": "1", "z": "phone"])
        assertSameFold(l, try desk.load(full: true, forceRebuild: true), "older than the checkpoint")
    }

    func testADamagedOrForgedCheckpointIsRefused() throws {
        let (desk, _) = try lateBatchScenario()
        var bytes = [UInt8](fm.contents(atPath: desk.checkpointPath)!)
        let i = bytes.lastIndex(of: UInt8(ascii: "1"))!
        bytes[i] = UInt8(ascii: "9")
        try Data(bytes).write(to: URL(fileURLWithPath: desk.checkpointPath))
        XCTAssertNil(try desk.loadFromCheckpoint(try desk.journalEntries(), folded: [:], full: true, lazy: false))
        XCTAssertEqual(try desk.read(full: true).values, ["a": "late", "b": "1", "c": "1"])
    }

    func testASymlinkOrFIFOInItsPlaceIsNotFollowed() throws {
        let (desk, _) = try lateBatchScenario()
        let real = desk.checkpointPath + ".real"
        try fm.moveItem(atPath: desk.checkpointPath, toPath: real)
        try fm.createSymbolicLink(atPath: desk.checkpointPath, withDestinationPath: real)
        XCTAssertNil(try desk.loadFromCheckpoint(try desk.journalEntries(), folded: [:], full: true, lazy: false))
        XCTAssertEqual(try desk.read(full: true).values, ["a": "late", "b": "1", "c": "1"])
        try fm.removeItem(atPath: desk.checkpointPath)
        XCTAssertEqual(mkfifo(desk.checkpointPath, 0o600), 0)
        XCTAssertNil(try desk.loadFromCheckpoint(try desk.journalEntries(), folded: [:], full: true, lazy: false))
    }

    func testAnErasureDropsTheCheckpoint() throws {
        let (desk, _) = try lateBatchScenario()
        _ = try desk.read(full: true)
        try write(desk, ["type": "erase", "key": "a"], at: t0 + 7 * day)
        _ = try desk.read(full: true)
        XCTAssertFalse(fm.fileExists(atPath: desk.checkpointPath), "it held the erased value")
        try write(desk, ["type": "set", "key": "d", "value": "1"], at: t0 + 10 * day)
        if let c = fm.contents(atPath: desk.checkpointPath) {
            XCTAssertFalse(String(decoding: c, as: UTF8.self).contains("late"), "a checkpoint from before the erasure")
        }
    }

    /// Found by the three-device Syncthing test: a peer that erased
    /// rewrites its journal; the copy that folds the rewrite again erases
    /// nothing itself, but the snapshot it replaces held the erased value,
    /// and must not be kept as the next checkpoint.
    func testAPeersErasureLeavesNoCheckpointHoldingTheErasedValue() throws {
        let base = root + "/p"
        let laptop = device("laptop", base: base), phone = device("phone", base: base)
        try write(laptop, ["type": "set", "key": "ben", "value": "secret"], at: t0)
        try write(laptop, ["type": "set", "key": "ana", "value": "1"], at: t0 + 1000)
        deliver(laptop, to: phone)
        for k in 0..<3 { try write(phone, ["type": "set", "key": .string("p\(k)"), "value": "1"], at: t0 + 2000 + Int64(k)) }
        XCTAssertEqual(try phone.read(full: true).values["ben"], "secret")
        try write(laptop, ["type": "erase", "key": "ben"], at: t0 + 3000)
        _ = try laptop.read(full: true)  // the eraser rewrites its journal
        XCTAssertFalse(String(decoding: fm.contents(atPath: laptop.journalDir + "/laptop.ndjson") ?? Data(), as: UTF8.self).contains("secret"))
        deliver(laptop, to: phone)
        XCTAssertNil(try phone.read(full: true).values["ben"])
        try write(phone, ["type": "set", "key": "p9", "value": "1"], at: t0 + 4000)
        for f in (try? fm.contentsOfDirectory(atPath: base + "/phone/data")) ?? [] {
            let text = String(decoding: fm.contents(atPath: base + "/phone/data/" + f) ?? Data(), as: UTF8.self)
            XCTAssertFalse(text.contains("secret"), "phone/data/\(f) holds the erased value")
        }
    }

    func testFailingToKeepACheckpointLosesNothing() throws {
        let base = root + "/s"
        let desk = device("desk", base: base)
        try write(desk, ["type": "set", "key": "a", "value": "1"], at: t0)
        // A directory where the checkpoint goes: it cannot be replaced.
        try fm.createDirectory(atPath: desk.checkpointPath + "/x", withIntermediateDirectories: true)
        try write(desk, ["type": "set", "key": "b", "value": "1"], at: t0 + 3 * day)
        try write(desk, ["type": "set", "key": "c", "value": "1"], at: t0 + 6 * day)
        XCTAssertEqual(try desk.read(full: true).values, ["a": "1", "b": "1", "c": "1"])
    }
}
