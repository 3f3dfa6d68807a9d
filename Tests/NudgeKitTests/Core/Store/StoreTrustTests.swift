import XCTest
import TestSupport
@testable import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

/// A model whose answer depends on order: registers set by key (the latest
/// in fold order wins), a sum of adds with ids, and erasure of a key's sets.
struct Registers: JournalModel, Equatable {
    static var schemaVersion: Int { 1 }
    var values: [String: String] = [:]
    var stamps: [String: Stamp] = [:]
    var adds: [String: Int] = [:]
    init(full: Bool) {}
    mutating func apply(_ e: JSONObject) {}
    mutating func apply(_ e: JSONObject, stamp: Stamp) {
        switch e["type"]?.string {
        case "set":
            guard let k = e["key"]?.string, let v = e["value"]?.string else { return }
            values[k] = v
            stamps[k] = stamp
        case "add":
            guard let id = e["id"]?.string else { return }
            adds[id, default: 0] += Int(e["n"]?.int ?? 0)
        case "erase":
            if let k = e["key"]?.string { values[k] = nil; stamps[k] = nil }
        default: break
        }
    }
    static func erases(_ t: JSONObject, _ e: JSONObject) -> Bool {
        e["type"]?.string == "set" && e["key"] == t["key"]
    }
    var total: Int { adds.values.reduce(0, +) }
    func hotSnapshot() -> [JSONObject] {
        values.keys.sorted().map { ["k": .string($0), "v": .string(values[$0]!), "ms": .int(stamps[$0]!.ms),
                                    "c": .int(stamps[$0]!.counter), "a": .string(stamps[$0]!.actor)] }
            + adds.keys.sorted().map { ["id": .string($0), "n": JSON(adds[$0]!)] }
    }
    mutating func restoreHot(_ l: JSONObject) throws(ToolError) {
        if let k = l["k"]?.string, let v = l["v"]?.string, let ms = l["ms"]?.int, let c = l["c"]?.int, let a = l["a"]?.string {
            values[k] = v
            stamps[k] = Stamp(ms: ms, counter: c, actor: a)
        } else if let id = l["id"]?.string, let n = l["n"]?.int {
            adds[id] = Int(n)
        } else {
            throw ToolError(.dataError, "bad line")
        }
    }
}

final class StoreTrustTests: XCTestCase {
    var root = ""
    let fm = FileManager.default

    override func setUp() {
        root = NSTemporaryDirectory() + "trust-\(UUID().uuidString)"
        try? fm.createDirectory(atPath: root, withIntermediateDirectories: true)
        StoreWarnings.reset()
    }

    override func tearDown() { try? fm.removeItem(atPath: root) }

    /// A device: its own data directory, journals in `folder` (a sync
    /// folder) or, when nil, in the data directory.
    func device(_ actor: String, data: String? = nil, folder: String? = nil, every: Int = 256) -> Store<Registers> {
        var o = StoreOptions(tool: "test", actor: actor, user: "tester", lockTimeoutMillis: 500, snapshotEvery: every)
        o.journalFolder = folder
        o.nowMillis = 4_000_000_000_000
        return Store(dir: data ?? root + "/\(actor)-data", options: o)
    }

    func set(_ s: Store<Registers>, _ k: String, _ v: String, at ms: Int64) throws {
        try s.write(at: Instant(ms: ms)) { (tx: inout Transaction<Registers>) throws(ToolError) in
            tx.record(["type": "set", "key": .string(k), "value": .string(v)])
        }
    }

    func add(_ s: Store<Registers>, _ id: String, _ n: Int, at ms: Int64) throws {
        try s.write(at: Instant(ms: ms)) { (tx: inout Transaction<Registers>) throws(ToolError) in
            tx.record(["type": "add", "id": .string(id), "n": JSON(n)])
        }
    }

    /// Captures what the store writes to stderr while `body` runs.
    func stderr(_ body: () throws -> Void) rethrows -> String {
        let path = root + "/stderr-\(UUID().uuidString)"
        let saved = dup(2)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        dup2(fd, 2)
        close(fd)
        defer { dup2(saved, 2); close(saved) }
        try body()
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    let t0: Int64 = 1_795_334_400_000  // 2026-11-22T08:00:00Z

    // MARK: Order

    func testTheLaterChangeWinsWhateverTheActorsAreCalled() throws {
        for (phone, laptop) in [("aa-phone", "zz-laptop"), ("zz-phone", "aa-laptop")] {
            let sync = root + "/sync-\(phone)"
            let p = device(phone, folder: sync)
            let l = device(laptop, folder: sync)
            try set(p, "dentist", "snoozed", at: t0 + 3_600_000)          // 09:00 on the phone
            try set(l, "dentist", "done", at: t0 + 3_900_000)             // 09:05 on the laptop
            XCTAssertEqual(try p.read().values["dentist"], "done", "\(phone)/\(laptop)")
            XCTAssertEqual(try l.read().values["dentist"], "done", "\(phone)/\(laptop)")
        }
    }

    func testAPeerBatchOlderThanTheSnapshotIsFoldedInItsPlace() throws {
        let a = device("a", every: 1)
        try set(a, "x", "1", at: t0 + 10 * 3_600_000)
        try set(a, "y", "1", at: t0 + 10 * 3_600_000 + 1)
        XCTAssertTrue(fm.fileExists(atPath: a.dir + "/snapshot.ndjson"))
        // A journal arrives from a device that wrote earlier, before it had seen a's.
        let b = device("b", data: root + "/b-data", folder: root + "/b-sync")
        try set(b, "x", "2", at: t0)
        try fm.copyItem(atPath: root + "/b-sync/b.ndjson", toPath: a.dir + "/journal/b.ndjson")
        XCTAssertEqual(try a.read().values["x"], "1", "the older change loses")
        XCTAssertEqual(try a.read().values["y"], "1")
        // Once b has seen a's journal, b's next change is after it, whatever b's clock says.
        try fm.copyItem(atPath: a.dir + "/journal/a.ndjson", toPath: root + "/b-sync/a.ndjson")
        try set(b, "x", "3", at: t0)
        try fm.removeItem(atPath: a.dir + "/journal/b.ndjson")
        try fm.copyItem(atPath: root + "/b-sync/b.ndjson", toPath: a.dir + "/journal/b.ndjson")
        XCTAssertEqual(try a.read().values["x"], "3")
        let rebuilt = try a.load(full: true, forceRebuild: true).state
        XCTAssertEqual(try a.read(full: true), rebuilt)
    }

    /// A change made in the same millisecond as a change it has just read,
    /// by an actor whose name sorts first, still comes after it: the stamp
    /// rule, `Stamp.next`, and what the fold makes of it.
    func testAWriteInTheSameMillisecondAsWhatItReadComesAfterIt() throws {
        let seen = Stamp(ms: t0, counter: 3, actor: "zz-laptop")
        let next = Stamp.next(after: seen, now: t0, actor: "aa-phone")
        XCTAssertGreaterThan(next, seen)
        XCTAssertGreaterThan(Stamp.next(after: seen, now: t0 - 5_000, actor: "aa-phone"), seen, "a clock behind what was read")
        XCTAssertEqual(Stamp.next(after: seen, now: t0 + 1, actor: "aa-phone"), Stamp(ms: t0 + 1, counter: 0, actor: "aa-phone"))
        let sync = root + "/same-ms"
        let laptop = device("zz-laptop", folder: sync), phone = device("aa-phone", folder: sync)
        try set(laptop, "dentist", "snoozed", at: t0)
        XCTAssertEqual(try phone.read().values["dentist"], "snoozed")
        try set(phone, "dentist", "done", at: t0)  // the same millisecond, having read it
        XCTAssertEqual(try phone.read().values["dentist"], "done")
        XCTAssertEqual(try laptop.read().values["dentist"], "done", "no lost update")
    }

    /// A peer's journal caught half-way through a copy (a sync engine writing
    /// in place) is shorter than what was folded of it: what was folded
    /// stays, said once, and the rest is read when the copy is whole. A
    /// journal its writer rewrote (an erasure: shorter, with a newer batch)
    /// is folded again.
    func testAPeerJournalCaughtHalfCopiedNeverUndoesWhatWasFolded() throws {
        let sync = root + "/inflight"
        let laptop = device("laptop", folder: sync, every: 1), phone = device("phone", folder: sync + "-phone")
        for k in 0..<5 { try add(phone, "p\(k)", 1, at: t0 + Int64(k) * 1000) }
        let whole = try XCTUnwrap(fm.contents(atPath: sync + "-phone/phone.ndjson"))
        try fm.createDirectory(atPath: sync, withIntermediateDirectories: true)
        XCTAssertTrue(fm.createFile(atPath: sync + "/phone.ndjson", contents: whole))
        try add(laptop, "l0", 10, at: t0 + 10_000)  // folds the phone's five, writes a snapshot
        XCTAssertEqual(try laptop.read().total, 15)
        // The engine rewrites the copy in place: first a third of it.
        _ = fm.createFile(atPath: sync + "/phone.ndjson", contents: whole.prefix(whole.count / 3))
        var seen = -1
        let said = try stderr { seen = try laptop.read().total }
        XCTAssertEqual(seen, 15, "what was folded of the phone stays")
        XCTAssertTrue(said.contains("phone.ndjson is shorter than what was folded of it"), said)
        try add(laptop, "l1", 100, at: t0 + 20_000)  // a write meanwhile keeps it too
        XCTAssertEqual(try laptop.read().total, 115)
        // The copy completes, with a new batch from the phone.
        try add(phone, "p9", 1000, at: t0 + 30_000)
        _ = fm.createFile(atPath: sync + "/phone.ndjson", contents: try XCTUnwrap(fm.contents(atPath: sync + "-phone/phone.ndjson")))
        XCTAssertEqual(try laptop.read().total, 1115)
        let rebuilt = try laptop.load(full: true, forceRebuild: true).state
        XCTAssertEqual(try laptop.read(full: true), rebuilt)
        // The phone erases a key: its journal is rewritten shorter, with the tombstone.
        try set(phone, "k", "v", at: t0 + 40_000)
        _ = fm.createFile(atPath: sync + "/phone.ndjson", contents: try XCTUnwrap(fm.contents(atPath: sync + "-phone/phone.ndjson")))
        XCTAssertEqual(try laptop.read().values["k"], "v")
        try phone.write(at: Instant(ms: t0 + 50_000)) { (tx: inout Transaction<Registers>) throws(ToolError) in
            tx.record(["type": "erase", "key": "k"])
        }
        let erased = try XCTUnwrap(fm.contents(atPath: sync + "-phone/phone.ndjson"))
        _ = fm.createFile(atPath: sync + "/phone.ndjson", contents: erased)
        XCTAssertNil(try laptop.read().values["k"], "the rewritten journal is folded again")
        XCTAssertEqual(try laptop.read().total, 1115)
    }

    func testStampsOnlyGrowEvenWhenTheClockGoesBack() throws {
        let a = device("a")
        try set(a, "x", "1", at: t0 + 1000)
        try set(a, "x", "2", at: t0)  // clock set back (or --now in the past)
        XCTAssertEqual(try a.read().values["x"], "2")
        let lines = try String(contentsOfFile: a.dir + "/journal/a.ndjson", encoding: .utf8).split(separator: "\n")
        let stamps = lines.compactMap { try? JSON.parse(String($0)).object }.filter { $0["type"] == "commit" }.map { $0["hlc"]! }
        XCTAssertEqual(stamps, [.array([.int(t0 + 1000), 0]), .array([.int(t0 + 1000), 1])])
    }

    /// Three devices write at random, a simulated sync engine copies journal
    /// files between their folders at random moments (whole, cut mid-line,
    /// out of date, with conflict copies lying around). After one full
    /// exchange all three agree byte for byte, every acknowledged add is
    /// there exactly once, and nothing erased comes back.
    func testThreeDevicesConvergeThroughARandomSyncEngine() throws {
        for seed in 1...8 {
            try converge(seed: UInt64(seed))
        }
    }

    func converge(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let base = root + "/p\(seed)"
        let names = ["laptop", "desk", "phone"]
        var devices: [Store<Registers>] = []
        for n in names {
            devices.append(device(n, data: base + "/\(n)/data", folder: base + "/\(n)/sync", every: Int.random(in: 1...6, using: &rng)))
        }
        var acknowledged: [String: Int] = [:]
        var old: [String: [UInt8]] = [:]  // stale copies an engine might deliver
        var clock = t0
        var erasedAt: [String: Stamp] = [:]
        for step in 0..<60 {
            clock += Int64.random(in: 0...120_000, using: &rng)
            let d = Int.random(in: 0..<3, using: &rng)
            let skew = Int64([-300_000, 0, 200_000][d])
            switch Int.random(in: 0..<10, using: &rng) {
            case 0...2:
                try set(devices[d], "k\(Int.random(in: 0..<4, using: &rng))", "\(names[d])-\(step)", at: clock + skew)
            case 3...4:
                let id = "\(names[d])-\(step)"
                let n = Int.random(in: 1...9, using: &rng)
                try add(devices[d], id, n, at: clock + skew)
                acknowledged[id] = n
            case 5:
                let k = "k\(Int.random(in: 0..<4, using: &rng))"
                var stamp: Stamp? = nil
                try devices[d].write(at: Instant(ms: clock + skew)) { (tx: inout Transaction<Registers>) throws(ToolError) in
                    tx.record(["type": "erase", "key": .string(k)])
                    stamp = tx.stamp
                }
                erasedAt[k] = max(erasedAt[k] ?? stamp!, stamp!)
            default:
                // The engine copies one device's journal to another, maybe badly.
                let from = Int.random(in: 0..<3, using: &rng)
                let to = (from + Int.random(in: 1...2, using: &rng)) % 3
                let src = base + "/\(names[from])/sync/\(names[from]).ndjson"
                guard var bytes = fm.contents(atPath: src).map({ [UInt8]($0) }) else { continue }
                let key = names[from]
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: if bytes.count > 1 { bytes = Array(bytes[0..<Int.random(in: 1..<bytes.count, using: &rng)]) }
                case 1: if let o = old[key], o.count <= bytes.count { bytes = o }
                case 2:
                    let conflict = base + "/\(names[to])/sync/\(names[from]).sync-conflict-20261122-000000-ABC.ndjson"
                    _ = fm.createFile(atPath: conflict, contents: Data(bytes.reversed()))
                default: break
                }
                old[key] = bytes
                try? fm.createDirectory(atPath: base + "/\(names[to])/sync", withIntermediateDirectories: true)
                let dst = base + "/\(names[to])/sync/\(names[from]).ndjson"
                // Like Syncthing: a temporary file, then a rename.
                let tmp = base + "/\(names[to])/sync/.syncthing.\(names[from]).ndjson.tmp"
                _ = fm.createFile(atPath: tmp, contents: Data(bytes))
                _ = rename(tmp, dst)
                _ = try stderr { _ = try devices[to].read() }
            }
        }
        func exchange() throws {
            for (i, n) in names.enumerated() {
                let src = base + "/\(n)/sync/\(n).ndjson"
                guard let bytes = fm.contents(atPath: src) else { continue }
                for (j, m) in names.enumerated() where j != i {
                    _ = fm.createFile(atPath: base + "/\(m)/sync/\(n).ndjson", contents: bytes)
                }
            }
        }
        _ = try stderr {
            try exchange()
            // Each device's next run compacts what the others erased.
            for d in devices { try d.write(at: Instant(ms: clock)) { (_: inout Transaction<Registers>) throws(ToolError) in } }
            try exchange()
        }
        var snapshots: [[UInt8]] = []
        var states: [Registers] = []
        for d in devices {
            let l = try d.load(full: true, forceRebuild: true)
            try d.writeSnapshot(l)
            snapshots.append([UInt8](fm.contents(atPath: d.dir + "/snapshot.ndjson")!))
            states.append(try d.read(full: true))
        }
        XCTAssertEqual(states[0], states[1], "seed \(seed)")
        XCTAssertEqual(states[1], states[2], "seed \(seed)")
        XCTAssertEqual(snapshots[0], snapshots[1], "seed \(seed): snapshots byte for byte")
        XCTAssertEqual(snapshots[1], snapshots[2], "seed \(seed)")
        XCTAssertEqual(states[0].adds, acknowledged, "seed \(seed): every acknowledged add, once")
        for (k, t) in erasedAt {
            if let s = states[0].stamps[k] { XCTAssertGreaterThan(s, t, "seed \(seed): \(k) erased at \(t) came back") }
        }
    }

    // MARK: Erasure

    func testErasureSurvivesAStaleDeviceAndLeavesNoBytesBehind() throws {
        let sync = root + "/sync"
        let laptop = device("laptop", folder: sync)
        let phoneSync = root + "/phone-sync"
        let phone = device("phone", folder: phoneSync)
        try set(laptop, "secret", "555-0199 lives here", at: t0)
        // The phone has an old copy of the laptop's journal, and writes on top of it.
        try fm.createDirectory(atPath: phoneSync, withIntermediateDirectories: true)
        try fm.copyItem(atPath: sync + "/laptop.ndjson", toPath: phoneSync + "/laptop.ndjson")
        try set(phone, "secret", "555-0199 also here", at: t0 + 1000)
        try set(phone, "other", "keep me", at: t0 + 1500)
        try fm.copyItem(atPath: phoneSync + "/phone.ndjson", toPath: sync + "/phone.ndjson")
        // Erase on the laptop.
        try laptop.write(at: Instant(ms: t0 + 60_000)) { (tx: inout Transaction<Registers>) throws(ToolError) in
            tx.record(["type": "erase", "key": "secret"])
        }
        XCTAssertNil(try laptop.read().values["secret"])
        XCTAssertEqual(try laptop.read().values["other"], "keep me")
        let laptopJournal = try String(contentsOfFile: sync + "/laptop.ndjson", encoding: .utf8)
        XCTAssertFalse(laptopJournal.contains("555-0199"), laptopJournal)
        // The stale phone has not seen the erasure: it still shows its copy.
        XCTAssertEqual(try phone.read().values["secret"], "555-0199 also here")
        // The engine brings the laptop's journal (with the tombstone) over.
        try fm.removeItem(atPath: phoneSync + "/laptop.ndjson")
        try fm.copyItem(atPath: sync + "/laptop.ndjson", toPath: phoneSync + "/laptop.ndjson")
        XCTAssertNil(try phone.read().values["secret"], "a stale copy does not bring it back")
        // The phone's next change removes the bytes from its own journal and snapshot.
        try set(phone, "other", "still here", at: t0 + 120_000)
        for f in try fm.contentsOfDirectory(atPath: phone.dir) + (try fm.contentsOfDirectory(atPath: phoneSync)) {
            let path = fm.fileExists(atPath: phone.dir + "/" + f) ? phone.dir + "/" + f : phoneSync + "/" + f
            if let text = try? String(contentsOfFile: path, encoding: .utf8), !f.hasPrefix("laptop") {
                XCTAssertFalse(text.contains("555-0199"), "\(f) still holds the erased value")
            }
        }
        XCTAssertEqual(try phone.read().values["other"], "still here")
        // Set after the erasure: new data, kept.
        try set(laptop, "secret", "new", at: t0 + 200_000)
        XCTAssertEqual(try laptop.read().values["secret"], "new")
    }

    // MARK: Snapshot checks

    func testAnEditedSnapshotIsRefusedKeptAsEvidenceAndRebuilt() throws {
        let a = device("a", every: 1)
        for i in 1...5 { try add(a, "i\(i)", 1, at: t0 + Int64(i)) }
        let snap = a.dir + "/snapshot.ndjson"
        var text = try String(contentsOfFile: snap, encoding: .utf8)
        XCTAssertTrue(text.contains("\"id\":\"i3\",\"n\":1"))
        text = text.replacingOccurrences(of: "\"id\":\"i3\",\"n\":1", with: "\"id\":\"i3\",\"n\":515")
        try text.write(toFile: snap, atomically: false, encoding: .utf8)
        var total = 0
        let err = try stderr { total = try a.read().total }
        XCTAssertEqual(total, 5, "the edited number is not served")
        XCTAssertTrue(err.contains("snapshot.ndjson was refused: its checksum does not match"), err)
        XCTAssertTrue(fm.fileExists(atPath: snap + ".bad-1"), "the refused snapshot is kept")
        XCTAssertEqual(try String(contentsOfFile: snap + ".bad-1", encoding: .utf8), text)
        // The rebuilt one is trusted again, quietly.
        let err2 = try stderr { XCTAssertEqual(try a.read().total, 5) }
        XCTAssertEqual(err2, "")
    }

    func testAHalvedOffsetIsRefused() throws {
        let a = device("a", every: 1)
        for i in 1...6 { try add(a, "i\(i)", 1, at: t0 + Int64(i)) }
        let snap = a.dir + "/snapshot.ndjson"
        let text = try String(contentsOfFile: snap, encoding: .utf8)
        let re = try NSRegularExpression(pattern: "\"a.ndjson\":\\[(\\d+),")
        let m = re.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))!
        let n = Int((text as NSString).substring(with: m.range(at: 1)))!
        try (text as NSString).replacingCharacters(in: m.range(at: 1), with: "\(n / 2)").write(toFile: snap, atomically: false, encoding: .utf8)
        var total = 0
        let err = try stderr { total = try a.read().total }
        XCTAssertEqual(total, 6, "nothing counted twice")
        XCTAssertTrue(err.contains("refused"), err)
    }

    func testAJournalShorterThanTheSnapshotSaysIsRefusedNotTrusted() throws {
        let a = device("a", every: 1)
        for i in 1...4 { try add(a, "i\(i)", 1, at: t0 + Int64(i)) }
        let journal = a.dir + "/journal/a.ndjson"
        let lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        // Replaced by an older copy: the first two batches only.
        try (lines[0..<4].joined(separator: "\n") + "\n").write(toFile: journal, atomically: false, encoding: .utf8)
        var total = 0
        let err = try stderr { total = try a.read().total }
        XCTAssertEqual(total, 2, "the state is what the journal holds")
        XCTAssertTrue(err.contains("shorter than"), err)
        XCTAssertTrue(fm.fileExists(atPath: a.dir + "/snapshot.ndjson.bad-1"))
    }

    func testAFlippedByteInACommittedBatchIsReportedUntilSetAside() throws {
        let a = device("a")
        try add(a, "first", 5, at: t0)
        try add(a, "second", 7, at: t0 + 1)
        let journal = a.dir + "/journal/a.ndjson"
        var text = try String(contentsOfFile: journal, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"n\":5", with: "\"n\":6")  // still valid JSON
        try text.write(toFile: journal, atomically: false, encoding: .utf8)
        // Found when the bytes are folded: here, the snapshot is gone too.
        try fm.removeItem(atPath: a.dir + "/snapshot.ndjson")
        for _ in 0..<2 {
            StoreWarnings.reset()
            var total = 0
            let err = try stderr { total = try a.read().total }
            XCTAssertEqual(total, 7, "the altered batch counts for nothing")
            XCTAssertTrue(err.contains("1 committed batch(es) or line(s) cannot be read"), err)
        }
        StoreWarnings.reset()
        let err = try stderr { try add(a, "third", 1, at: t0 + 2) }
        XCTAssertTrue(err.contains("set aside"), err)
        let corrupt = try String(contentsOfFile: a.dir + "/journal/a.corrupt", encoding: .utf8)
        XCTAssertTrue(corrupt.contains("\"n\":6"), "the raw bytes are kept: \(corrupt)")
        StoreWarnings.reset()
        let quiet = try stderr { XCTAssertEqual(try a.read().total, 8) }
        XCTAssertEqual(quiet, "")
    }

    func testAnUnparseableCommittedLineIsReportedByReadersToo() throws {
        let a = device("a")
        try add(a, "first", 5, at: t0)
        let journal = a.dir + "/journal/a.ndjson"
        var text = try String(contentsOfFile: journal, encoding: .utf8)
        text = text.replacingOccurrences(of: "{\"type\":\"add\"", with: "{\"type\"\u{1}add\"")
        try text.write(toFile: journal, atomically: false, encoding: .utf8)
        let err = try stderr { XCTAssertEqual(try a.read().total, 0) }
        XCTAssertTrue(err.contains("cannot be read"), err)
    }

    func testASnapshotFailureAfterTheCommitIsAWarningNotAFailure() throws {
        let a = device("a", every: 1)
        try add(a, "one", 1, at: t0)
        try fm.removeItem(atPath: a.dir + "/snapshot.ndjson")
        try fm.createDirectory(atPath: a.dir + "/snapshot.ndjson", withIntermediateDirectories: false)
        let err = try stderr { try add(a, "two", 2, at: t0 + 1) }
        XCTAssertTrue(err.contains("the change is saved"), err)
        XCTAssertEqual(try a.read().total, 3, "readers fold the journals")
    }

    func testStaleTemporariesOfKilledWritersAreRemoved() throws {
        let a = device("a", every: 1)
        try add(a, "one", 1, at: t0)
        let stale = a.dir + "/snapshot.ndjson.tmp-999999"
        _ = fm.createFile(atPath: stale, contents: Data("half".utf8))
        try add(a, "two", 1, at: t0 + 1)
        XCTAssertFalse(fm.fileExists(atPath: stale))
    }

    func testASnapshotFromBeforeChecksumsIsRebuiltQuietly() throws {
        let a = device("a")
        try add(a, "one", 1, at: t0)
        let legacy = "{\"type\":\"snapshot\",\"schema\":1,\"tool\":\"test\",\"hot_bytes\":10,\"journals\":{\"a.ndjson\":5}}\n{\"type\":\"cold\"}\n{\"type\":\"end\"}\n"
        try legacy.write(toFile: a.dir + "/snapshot.ndjson", atomically: false, encoding: .utf8)
        let err = try stderr { XCTAssertEqual(try a.read().total, 1) }
        XCTAssertEqual(err, "")
    }

    func testJournalsWrittenBeforeStampsStillFoldInOrder() throws {
        let a = device("a")
        try fm.createDirectory(atPath: a.dir + "/journal", withIntermediateDirectories: true)
        let old = """
        {"type":"set","key":"x","value":"first"}
        {"type":"commit","n":1,"at":"2026-11-22T09:00:00Z","by":"me","schema":1}
        {"type":"set","key":"x","value":"second"}
        {"type":"commit","n":1,"at":"2026-11-22T08:00:00Z","by":"me","schema":1}

        """
        try old.write(toFile: a.dir + "/journal/a.ndjson", atomically: false, encoding: .utf8)
        XCTAssertEqual(try a.read().values["x"], "second", "within a journal, file order")
        try set(a, "x", "third", at: t0)
        XCTAssertEqual(try a.read().values["x"], "third", "a new write is after everything seen")
    }

    // MARK: Hostile files

    func testPlantedFilesAreIgnoredWithOneWarningAndNeverHang() throws {
        let a = device("a")
        try add(a, "mine", 1, at: t0)
        let j = a.dir + "/journal"
        XCTAssertEqual(mkfifo(j + "/fifo.ndjson", 0o644), 0)
        try fm.createSymbolicLink(atPath: j + "/zero.ndjson", withDestinationPath: "/dev/zero")
        try fm.createSymbolicLink(atPath: j + "/passwd.ndjson", withDestinationPath: "/etc/passwd")
        try fm.createDirectory(atPath: j + "/dir.ndjson", withIntermediateDirectories: false)
        _ = fm.createFile(atPath: j + "/x;touch PWNED;$(id).ndjson", contents: Data())
        _ = fm.createFile(atPath: j + "/.syncthing.a.ndjson.tmp", contents: Data("junk".utf8))
        var total = 0
        let err = try stderr { total = try a.read().total }
        XCTAssertEqual(total, 1)
        XCTAssertEqual(err.split(separator: "\n").count, 1, err)
        for n in ["fifo.ndjson (a FIFO)", "zero.ndjson (a symbolic link)", "dir.ndjson (a directory)", "not a journal name"] {
            XCTAssertTrue(err.contains(n), "\(n) in \(err)")
        }
        XCTAssertFalse(err.contains("syncthing"), "engine temporaries are not worth a word")
        StoreWarnings.reset()
        _ = try stderr { try add(a, "mine2", 1, at: t0 + 1) }
        XCTAssertEqual(try a.read().total, 2)
    }

    func testASymlinkInPlaceOfTheOwnJournalIsRefusedAndItsTargetUntouched() throws {
        let a = device("a")
        let victim = root + "/id_ed25519"
        try "PRIVATE KEY".write(toFile: victim, atomically: false, encoding: .utf8)
        try fm.createDirectory(atPath: a.dir + "/journal", withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: a.dir + "/journal/a.ndjson", withDestinationPath: victim)
        _ = try stderr {
            XCTAssertThrowsError(try add(a, "x", 1, at: t0)) { e in
                XCTAssertEqual((e as! ToolError).code, .noPermission)
                XCTAssertTrue((e as! ToolError).message.contains("symbolic link"), (e as! ToolError).message)
            }
        }
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "PRIVATE KEY")
        XCTAssertFalse(fm.fileExists(atPath: a.dir + "/journal/a.corrupt"))
    }

    func testAPeerJournalIsReadAtMostACapPerRunAndCaughtUpLater() throws {
        let sync = root + "/sync"
        var big = device("big", folder: sync)
        for i in 0..<20 { try add(big, "b\(i)", 1, at: t0 + Int64(i)) }
        var o = big.options
        o.actor = "small"
        o.peerReadCap = 600
        big = Store(dir: root + "/small-data", options: o)
        try add(big, "own", 1, at: t0 + 100)
        var seen: [Int] = []
        for _ in 0..<12 { seen.append(try big.read().total) }
        XCTAssertLessThan(seen[0], 21, "the first run reads only part")
        XCTAssertEqual(seen.last, 21, "later runs catch up: \(seen)")
        XCTAssertEqual(seen, seen.sorted())
    }

    /// Among strangers (a shared folder, perUser trust) a peer stamped far
    /// ahead waits for its time; one person's devices fold it at once, so
    /// their copies agree.
    func testAPeerStampedFarAheadWaitsForItsTimeOnlyAmongStrangers() throws {
        // The shared-folder journal is named for its owner, root.
        try require(.root)
        let shared = root + "/shared"
        var o = StoreOptions(tool: "test", actor: "reader", user: "tester", lockTimeoutMillis: 500)
        o.journalFolder = shared
        o.sharedWithOthers = true
        o.trust = .transport
        var writer = o
        writer.actor = "root"
        try add(Store<Registers>(dir: root + "/w", options: writer), "future", 1, at: t0 + 3 * 86_400_000)
        o.trust = .perUser
        o.nowMillis = t0
        var total = -1
        let err = try stderr { total = try Store<Registers>(dir: root + "/r", options: o).read().total }
        XCTAssertEqual(total, 0)
        XCTAssertTrue(err.contains("more than a day ahead"), err)
        o.nowMillis = t0 + 3 * 86_400_000
        XCTAssertEqual(try Store<Registers>(dir: root + "/r2", options: o).read().total, 1)
        // One person's devices: at once.
        var mine = o
        mine.trust = .owner
        mine.sharedWithOthers = false
        mine.nowMillis = t0
        XCTAssertEqual(try Store<Registers>(dir: root + "/r3", options: mine).read().total, 1)
    }

    func testADataDirectoryThatIsAFileIsAnErrorNotEmpty() throws {
        let path = root + "/plain-file"
        _ = fm.createFile(atPath: path, contents: Data("x".utf8))
        let s = device("a", data: path)
        XCTAssertThrowsError(try s.read()) { e in
            XCTAssertEqual((e as! ToolError).code, .ioError)
            XCTAssertTrue((e as! ToolError).message.contains("not a folder"), (e as! ToolError).message)
        }
    }

    func testTheChecksumSeesAnyOneChangedByte() {
        var rng = SeededRandom(seed: 11)
        for _ in 0..<300 {
            var bytes = (0..<Int.random(in: 0...200, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let h = Checksum.hash(bytes)
            XCTAssertEqual(Checksum.hash(bytes), h, "stable")
            guard !bytes.isEmpty else { continue }
            let i = Int.random(in: 0..<bytes.count, using: &rng)
            bytes[i] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            XCTAssertNotEqual(Checksum.hash(bytes), h)
            XCTAssertNotEqual(Checksum.hash(bytes + [0]), Checksum.hash(bytes), "length counts")
        }
    }

    /// The snapshot's checksum too, at every length around its 64-byte
    /// blocks, for any change of one byte anywhere.
    func testTheWideChecksumSeesAnyOneChangedByte() {
        var rng = SeededRandom(seed: 12)
        for _ in 0..<400 {
            var bytes = (0..<Int.random(in: 0...300, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let h = Checksum.wide(bytes)
            XCTAssertEqual(Checksum.wide(bytes), h, "stable")
            XCTAssertNotEqual(Checksum.wide(bytes, seed: 1), h, "the seed counts")
            guard !bytes.isEmpty else { continue }
            let i = Int.random(in: 0..<bytes.count, using: &rng)
            bytes[i] ^= UInt8.random(in: 1...255, using: &rng)
            XCTAssertNotEqual(Checksum.wide(bytes), h, "byte \(i) of \(bytes.count)")
            XCTAssertNotEqual(Checksum.wide(bytes + [0]), Checksum.wide(bytes), "length counts")
        }
    }

    /// A snapshot written before the wide checksum ("hash":2) is still
    /// checked, with the checksum it was written with, and believed when it
    /// matches; a checksum of a kind this store never wrote is refused.
    func testASnapshotSummedTheOlderWayIsCheckedThatWay() throws {
        let a = device("a", every: 1)
        for i in 1...5 { try add(a, "i\(i)", 1, at: t0 + Int64(i)) }
        let snap = a.dir + "/snapshot.ndjson"
        let written = String(decoding: fm.contents(atPath: snap)!, as: UTF8.self)
        XCTAssertTrue(written.contains("\"hash\":2,"))
        // Sealed as before: no "hash" (an unknown key of the same length
        // keeps hot_bytes right), the three sums with Checksum.hash.
        func seal(_ text: String) -> [UInt8] {
            var bytes = Array(text.utf8)
            let nl = bytes.firstIndex(of: 0x0A)!
            let m = try! NSRegularExpression(pattern: "\"hot_bytes\":(\\d+)").firstMatch(in: text, range: NSRange(text.startIndex..., in: text))!
            let hotBytes = Int((text as NSString).substring(with: m.range(at: 1)))!
            var zeroed = Array(bytes[0..<nl])
            let ranges = Store<Registers>.sumRanges(zeroed)!
            for r in ranges { for i in r { zeroed[i] = 0x30 } }
            let seed = Checksum.hash(zeroed + [0x0A])
            let hot = Array(bytes[(nl + 1)..<hotBytes])
            let first = Array(hot[0...hot.firstIndex(of: 0x0A)!])
            let sums = [first.withUnsafeBytes { Checksum.hash($0, seed: seed) }, Checksum.hash(Array(bytes[hotBytes...])),
                        hot.withUnsafeBytes { Checksum.hash($0, seed: seed) }]
            for (r, v) in zip(ranges, sums) { bytes.replaceSubrange(r, with: Array(Checksum.hex(v).utf8)) }
            return bytes
        }
        let older = written.replacingOccurrences(of: "\"hash\":2,", with: "\"hish\":2,")
        try Data(seal(older)).write(to: URL(fileURLWithPath: snap))
        let err = try stderr { XCTAssertEqual(try a.read().total, 5) }
        XCTAssertEqual(err, "", "believed")
        XCTAssertNotNil(try a.readHead(), "its head too")
        XCTAssertFalse(fm.fileExists(atPath: snap + ".bad-1"))
        // Still checked: an edited number in it is refused.
        try Data(seal(older)).write(to: URL(fileURLWithPath: snap))
        var edited = String(decoding: fm.contents(atPath: snap)!, as: UTF8.self)
        edited = edited.replacingOccurrences(of: "\"id\":\"i3\",\"n\":1", with: "\"id\":\"i3\",\"n\":7")
        try edited.write(toFile: snap, atomically: false, encoding: .utf8)
        let err2 = try stderr { XCTAssertEqual(try a.read().total, 5) }
        XCTAssertTrue(err2.contains("its checksum does not match"), err2)
        // A kind never written: refused.
        for i in 6...7 { try add(a, "i\(i)", 1, at: t0 + Int64(i)) }
        let now = String(decoding: fm.contents(atPath: snap)!, as: UTF8.self)
        try now.replacingOccurrences(of: "\"hash\":2,", with: "\"hash\":3,").write(toFile: snap, atomically: false, encoding: .utf8)
        let err3 = try stderr { XCTAssertEqual(try a.read().total, 7) }
        XCTAssertTrue(err3.contains("its checksum is of an unknown kind"), err3)
    }

    // MARK: Merge pieces

    func testMergePiecesDoNotDependOnOrderAndIgnoreRepeats() {
        var rng = SeededRandom(seed: 7)
        for _ in 0..<200 {
            let actors = ["a", "b", "c"]
            var ops: [(Stamp, Int, String)] = []
            for i in 0..<12 {
                // Distinct stamps, as batches have (equal stamps are one batch, applied in its order).
                ops.append((Stamp(ms: Int64.random(in: 0...5, using: &rng), counter: Int64(i),
                                  actor: actors.randomElement(using: &rng)!), Int.random(in: 0..<4, using: &rng), "e\(i)"))
            }
            func run(_ list: [(Stamp, Int, String)]) -> (String?, [String], Int64, String?) {
                var reg = LWW<String>()
                var set = AddWinsSet<String>()
                var sum = SummedAdjustments()
                var claim = FirstClaim<String, String>()
                for (s, kind, id) in list {
                    switch kind {
                    case 0: reg.set(id, at: s)
                    case 1: set.add("x\(s.ms % 3)", at: s)
                    case 2: set.remove("x\(s.ms % 3)", at: s)
                    default: break
                    }
                    sum.add(Int64(s.ms), id: id)
                    claim.claim("code", by: id, at: s)
                }
                return (reg.value, set.elements.sorted(), sum.total, claim.holder(of: "code"))
            }
            let sorted = ops.sorted { $0.0 < $1.0 }
            let a = run(sorted)
            // Last writer wins: the register holds the set with the greatest stamp
            // (of equal stamps, the one applied last).
            XCTAssertEqual(a.0, sorted.last { $0.1 == 0 }?.2, "last writer wins")
            if Set(ops.filter { $0.1 == 0 }.map(\.0)).count == ops.filter({ $0.1 == 0 }).count {
                XCTAssertEqual(run(ops.shuffled(using: &rng)).0, a.0, "with distinct stamps the register is order-free")
            }
            let b = run(sorted + sorted.shuffled(using: &rng))  // applied twice, the second time in any order
            XCTAssertEqual(a.0, b.0, "repeats change nothing")
            XCTAssertEqual(a.1, b.1)
            XCTAssertEqual(a.2, b.2)
            XCTAssertEqual(a.3, b.3)
            XCTAssertEqual(run(ops.shuffled(using: &rng)).1, a.1, "add-wins set is order-free")
            XCTAssertEqual(run(ops.shuffled(using: &rng)).3, a.3, "first claim is order-free")
        }
    }
}

