import XCTest
@testable import NudgeKit

/// A remembered listing (folderStamps): believed only while no folder it
/// looked in has changed, and every writer's append changes its folder, so
/// the next read sees every peer's append; and a writer's own batches
/// stamped ahead of the clock restamped.
final class StoreListingTests: XCTestCase {
    var root = ""
    override func setUp() { root = NSTemporaryDirectory() + "listing-\(UUID().uuidString)" }
    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    func store(_ actor: String, stamps: Bool = true, horizon: Int64? = nil) -> Store<Provenance> {
        var o = StoreOptions(tool: "test", actor: actor, user: "tester", lockTimeoutMillis: 500)
        o.journalFolder = root + "/pool"
        o.trust = .transport
        o.subfolders = ["a", "b/**"]
        o.tagActor = true
        o.tagScope = true
        o.folderStamps = stamps
        o.peerHorizonMillis = horizon
        o.nowMillis = Sys.nowMillis()
        return Store(dir: root + "/\(actor)", options: o)
    }

    func put(_ s: Store<Provenance>, _ folder: String, _ v: String, at ms: Int64 = Sys.nowMillis()) throws {
        try s.write(at: Instant(ms: ms)) { (tx: inout Transaction<Provenance>) throws(ToolError) in
            tx.folder = folder
            tx.record(["type": "x", "v": .string(v)])
        }
    }

    /// Past the clock tick a recorded change time must be older by.
    func settle() { usleep(UInt32(Store<Provenance>.folderStampMarginNanos / 1000) + 20_000) }

    func testEveryPeersAppendIsSeenByTheNextReadThoughTheListingIsRemembered() throws {
        for i in 0..<40 { try put(store("p\(i)"), "a", "\(i)") }
        try put(store("x"), "a", "mine")
        settle()
        XCTAssertEqual(try store("x").read().seen.count, 41)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/x/listing"), "a clean listing is remembered")
        settle()
        XCTAssertEqual(try store("x").read().seen.count, 41, "from the remembered listing")
        // A peer appends to a journal that already exists: its folder is
        // marked changed, so the remembered listing is not believed.
        try put(store("p7"), "a", "later")
        XCTAssertTrue(try store("x").read().seen.contains("p7 a later"))
        settle()
        _ = try store("x").read()
        settle()
        try put(store("p8"), "b/new", "in a new folder")
        XCTAssertTrue(try store("x").read().seen.contains("p8 b/new in a new folder"))
        settle()
        _ = try store("x").read()
        settle()
        try put(store("p9"), "b/new", "again")
        XCTAssertTrue(try store("x").read().seen.contains("p9 b/new again"), "a folder inside is watched too")
    }

    /// Something that appends without the tool (no folder change) is not
    /// seen until the folder changes or the listing is too old: why only
    /// the tool and sync engines that rename what they write may use it.
    func testAnAppendThatLeavesTheFolderAloneIsWhatItCannotSee() throws {
        try put(store("p"), "a", "1")
        try put(store("x"), "a", "mine")
        settle()
        _ = try store("x").read()
        settle()
        _ = try store("x").read()
        // p's writer without folder stamps: x keeps its remembered listing.
        try put(store("p", stamps: false), "a", "2")
        XCTAssertFalse(try store("x").read().seen.contains("p a 2"))
        XCTAssertTrue(try store("x", stamps: false).read().seen.contains("p a 2"), "a full listing sees it")
    }

    func testAWritersOwnBatchesStampedAheadAreRestampedAndThenSeen() throws {
        let now = Sys.nowMillis()
        try put(store("y"), "a", "before", at: now - 60_000)
        try put(store("y"), "a", "ahead", at: now + 86_400_000)
        try put(store("y"), "a", "after", at: now)  // stamped after "ahead", a day out
        try put(store("y"), "b/one", "elsewhere", at: now)
        let before = try store("x", horizon: 600_000).read().seen
        XCTAssertEqual(before, ["y a before"], "the rest waits for its time")
        XCTAssertEqual(try store("y").restampAhead(of: now + 600_000, now: now), 3)
        let after = try store("x", horizon: 600_000).read().seen
        XCTAssertEqual(after.sorted(), ["y a after", "y a ahead", "y a before", "y b/one elsewhere"])
        XCTAssertEqual(try store("y").read().seen, ["y a before", "y a ahead", "y a after", "y b/one elsewhere"], "in their old order")
        XCTAssertEqual(try store("y").restampAhead(of: now + 600_000, now: now), 0, "nothing left ahead")
        for e in try store("x").journals() { XCTAssertLessThanOrEqual(e.lastStamp?.ms ?? 0, now + 600_000) }
    }
}
