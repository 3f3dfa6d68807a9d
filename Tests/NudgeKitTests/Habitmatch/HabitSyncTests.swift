import XCTest
@testable import NudgeKit

/// A pool kept in step across three hosts by a sync engine: members on
/// different hosts act at random while files are copied between the hosts'
/// pool folders (whole, cut mid-line, stale). After one full exchange every
/// host shows the same pool.
final class HabitSyncTests: XCTestCase {
    var root = ""
    let fm = FileManager.default
    override func setUp() { root = NSTemporaryDirectory() + "hmsync-\(UUID().uuidString)" }
    override func tearDown() { try? fm.removeItem(atPath: root) }

    func store(host: Int, member: String) -> Store<HabitmatchState> {
        var o = StoreOptions(tool: "habitmatch", actor: member, user: member, lockTimeoutMillis: 1000)
        o.journalFolder = root + "/host\(host)/pool"
        o.subfolders = ["journal", "private", "self", "pairs/*", "reports"]
        o.tagActor = true
        o.tagScope = true
        o.trust = .transport
        o.nowMillis = 4_000_000_000_000
        return Store(dir: root + "/host\(host)/state-\(member)", options: o)
    }

    func testThreeHostsAgreeAfterTheEngineCatchesUp() throws {
        var chats = 0
        for seed in 1...4 { chats += try run(seed: UInt64(seed)) }
        XCTAssertGreaterThan(chats, 0, "some chat crossed the hosts")
    }

    func run(seed: UInt64) throws -> Int {
        try? fm.removeItem(atPath: root)
        var rng = SeededRandom(seed: seed)
        let homes = ["ana": 0, "bo": 1, "cy": 2, "dee": 0]
        let names = Array(homes.keys).sorted()
        var clock: Int64 = 1_795_334_400_000
        func write(_ u: String, folder: String = "journal", _ e: JSONObject) throws {
            clock += Int64.random(in: 1...90_000, using: &rng)
            try store(host: homes[u]!, member: u).write(at: Instant(ms: clock + Int64.random(in: -60_000...60_000, using: &rng))) { (tx: inout Transaction<HabitmatchState>) throws(ToolError) in
                tx.folder = folder
                tx.record(e)
            }
        }
        for u in names {
            try write(u, ["type": "joined", "name": .string(u), "timezone": "UTC", "habits": ["exercise", "read"].map { .string($0) }.jsonArray])
        }
        for (a, b) in [("ana", "bo"), ("bo", "ana"), ("ana", "cy"), ("cy", "ana"), ("cy", "dee"), ("dee", "cy")] {
            try write(a, ["type": "swiped", "target": .string(b), "right": true])
        }
        /// The engine: copy every file of one host's pool to another's, some cut short.
        func sync(_ from: Int, _ to: Int, cut: Bool) {
            let src = root + "/host\(from)/pool"
            guard let e = fm.enumerator(atPath: src) else { return }
            for case let rel as String in e where rel.hasSuffix(".ndjson") {
                guard var data = fm.contents(atPath: src + "/" + rel) else { continue }
                if cut && data.count > 10 && Bool.random(using: &rng) { data = data.prefix(Int.random(in: 1..<data.count, using: &rng)) }
                let dst = root + "/host\(to)/pool/" + rel
                try? fm.createDirectory(atPath: (dst as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                if let old = fm.contents(atPath: dst), old.count > data.count, old.prefix(data.count) == data { continue }
                _ = fm.createFile(atPath: dst, contents: data)
            }
        }
        for _ in 0..<50 {
            let u = names.randomElement(using: &rng)!
            let v = names.filter { $0 != u }.randomElement(using: &rng)!
            switch Int.random(in: 0..<8, using: &rng) {
            case 0, 1: try write(u, ["type": "swiped", "target": .string(v), "right": .bool(Bool.random(using: &rng))])
            case 2: try write(u, folder: "pairs/" + [u, v].sorted().joined(separator: "+"), ["type": "chat", "to": .string(v), "text": .string("hi \(clock)")])
            case 3: try write(u, ["type": "buddy_accept", "user": .string(v)])
            case 4: try write(u, folder: "private", ["type": "done", "habit": "read", "date": .string("2026-11-2\(Int.random(in: 0...2, using: &rng))")])
            case 5: try write(u, folder: "pairs/" + [u, v].sorted().joined(separator: "+"),
                              ["type": "meeting", "id": .string("m\(Int.random(in: 0..<3, using: &rng))"), "with": .string(v),
                               "start": "2026-11-30T18:00:00", "timezone": "UTC", "minutes": 20])
            case 6: try write(u, ["type": "unmatch", "user": .string(v)])
            default:
                let a = Int.random(in: 0..<3, using: &rng)
                sync(a, (a + Int.random(in: 1...2, using: &rng)) % 3, cut: true)
            }
        }
        for _ in 0..<2 { for a in 0..<3 { for b in 0..<3 where a != b { sync(a, b, cut: false) } } }
        var chats = 0
        // Each member sees the same pool on every host (pair folders included).
        for member in ["ana", "bo"] {
            var views: [[JSONObject]] = []
            for h in 0..<3 { views.append(try store(host: h, member: member).read(full: true).hotSnapshot()) }
            XCTAssertEqual(views[0], views[1], "seed \(seed), \(member)")
            XCTAssertEqual(views[1], views[2], "seed \(seed), \(member)")
            chats += views[0].filter { $0["k"]?.string == "chat" }.count
        }
        return chats
    }
}

extension Array where Element == JSON {
    var jsonArray: JSON { .array(self) }
}
