import XCTest
@testable import NudgeKit

/// yomo on three devices that share a sync folder each, kept in step by a
/// simulated engine that copies journal files between the folders at random
/// moments (whole or cut mid-line). Reminders are added, completed, snoozed
/// and announced by `due` on any device. After one full exchange the three
/// show identical state, no device announces an occurrence twice, and none
/// announces an occurrence after a dismissal of it (done or snooze on any
/// device) has reached it.
final class YomoSyncTests: XCTestCase {
    let zone = try! Zone.named("America/New_York")
    let fm = FileManager.default
    var root = ""

    override func setUp() {
        root = NSTemporaryDirectory() + "yomo-sync-\(UUID().uuidString)"
        try? fm.createDirectory(atPath: root, withIntermediateDirectories: true)
        StoreWarnings.reset()
    }

    override func tearDown() { try? fm.removeItem(atPath: root) }

    func device(_ name: String, base: String, every: Int) -> Store<YomoState> {
        var o = StoreOptions(tool: "yomo", actor: name, user: "tester", lockTimeoutMillis: 2000, snapshotEvery: every)
        o.journalFolder = base + "/\(name)/sync"
        o.nowMillis = 4_000_000_000_000
        return Store(dir: base + "/\(name)/data", options: o)
    }

    func quietly<T>(_ body: () throws -> T) rethrows -> T {
        let saved = dup(2)
        let fd = open("/dev/null", O_WRONLY)
        dup2(fd, 2)
        close(fd)
        defer { dup2(saved, 2); close(saved) }
        return try body()
    }

    struct Dismissal {
        var writer: Int
        var length: Int   // the writer's journal size once it was committed
        var id: String
        var upTo: Instant // occurrences at or before this are dismissed
        var only: Instant?  // a snooze dismisses exactly this one
    }

    func testThreeDevicesConvergeAndAnnounceOncePerDevice() throws {
        for seed in 1...6 {
            try run(seed: UInt64(seed))
        }
    }

    func run(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed * 7919)
        let base = root + "/s\(seed)"
        let names = ["laptop", "desk", "phone"]
        let devices = names.map { device($0, base: base, every: Int.random(in: 2...8, using: &rng)) }
        for n in names { try fm.createDirectory(atPath: base + "/\(n)/sync", withIntermediateDirectories: true) }
        func journal(_ d: Int, in folder: Int) -> String { base + "/\(names[folder])/sync/\(names[d]).ndjson" }
        func size(_ path: String) -> Int { (try? fm.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }

        var clock = RFC3339.parse("2026-03-07T06:00:00-05:00")!.instant.ms
        var ids: [String] = []
        var dismissals: [Dismissal] = []
        var announced: [Set<String>] = [[], [], []]
        var purged = false
        var announcements = 0, blockedByDismissal = 0

        for step in 0..<140 {
            clock += Int64.random(in: 1...40, using: &rng) * 60_000
            let now = Instant(ms: clock)
            let d = Int.random(in: 0..<3, using: &rng)
            let st = devices[d]
            switch Int.random(in: 0..<12, using: &rng) {
            case 0, 1:
                let id = "r\(seed)-\(step)"
                let rule: Recurrence = [Recurrence.once, Recurrence(kind: .daily),
                                        Recurrence(kind: .custom, interval: Int.random(in: 1...3, using: &rng), unit: .hour)]
                    .randomElement(using: &rng)!
                let anchor = LocalDateTime(wallSeconds: zone.local(now).wallSeconds / 900 * 900 + Int64.random(in: 1...24, using: &rng) * 900)
                let trigger = Yomo.firstTrigger(anchor: anchor, recurrence: rule, now: now, zone: zone)!
                try quietly {
                    try st.write(at: now, zone: zone) { (tx: inout Transaction<YomoState>) throws(ToolError) in
                        tx.record(["type": "created", "id": .string(id), "title": .string(id), "anchor": .string(anchor.description),
                                   "recurrence": rule.json, "trigger_at": .string(zone.format(trigger)), "zone": .string(zone.name),
                                   "at": .string(zone.format(now))])
                    }
                }
                ids.append(id)
            case 2, 3:
                // Done or snooze, on this device's view.
                guard let id = ids.randomElement(using: &rng) else { continue }
                let snooze = Bool.random(using: &rng)
                var dismissal: Dismissal? = nil
                try quietly {
                    try st.write(at: now, zone: zone) { (tx: inout Transaction<YomoState>) throws(ToolError) in
                        guard let r = tx.state.reminders[id], !r.completed else { return }
                        if snooze {
                            guard let e = Yomo.snoozeEvent(r, until: now.adding(minutes: Int64.random(in: 1...60, using: &rng)), zone: zone, at: now) else { return }
                            tx.record(e)
                            let occ = YomoState.instant(e["occurrence"])!
                            dismissal = Dismissal(writer: d, length: 0, id: id, upTo: occ, only: occ)
                        } else {
                            let next = Yomo.nextAfterDone(r, now: now, zone: zone)
                            tx.record(["type": "completed", "id": .string(id), "next": JSON(next.map(zone.format)), "at": .string(zone.format(now))])
                            dismissal = Dismissal(writer: d, length: 0, id: id, upTo: next.map { Instant(ms: $0.ms - 1) } ?? Instant(ms: Int64.max), only: nil)
                        }
                    }
                }
                if var dm = dismissal {
                    dm.length = size(journal(d, in: d))
                    dismissals.append(dm)
                }
            case 4 where step > 100 && !purged && seed % 3 == 0:
                try quietly {
                    try st.write(at: now, zone: zone) { (tx: inout Transaction<YomoState>) throws(ToolError) in
                        tx.record(["type": "erase", "all": true, "at": .string(zone.format(now))])
                    }
                }
                purged = true
                dismissals = []  // after an erasure nothing before it counts
                announced = [[], [], []]
            case 5...7:
                // `due` on this device.
                let me = st.options.actor
                let found = try quietly {
                    try st.write(at: now, zone: zone) { (tx: inout Transaction<YomoState>) throws(ToolError) -> [Yomo.Announcement] in
                        let found = Yomo.due(tx.state, now: now, zone: zone, device: me)
                        for a in found { tx.record(Yomo.event(for: a, zone: zone, at: now, device: me)) }
                        return found
                    }
                }
                for a in found {
                    announcements += 1
                    let key = "\(a.reminder.id)@\(a.occurrence.ms)\(a.snooze ? "z" : "")"
                    XCTAssertTrue(announced[d].insert(key).inserted, "seed \(seed) step \(step): \(names[d]) announced \(key) twice")
                    guard !a.snooze else { continue }
                    for dm in dismissals where dm.id == a.reminder.id {
                        let covers = dm.only.map { $0 == a.occurrence } ?? (a.occurrence <= dm.upTo)
                        let reached = dm.writer == d || size(journal(dm.writer, in: d)) >= dm.length
                        if covers && reached {
                            blockedByDismissal += 1
                            XCTFail("seed \(seed) step \(step): \(names[d]) announced \(key) after \(names[dm.writer]) dismissed it")
                        }
                    }
                }
            default:
                // The engine copies one device's journal into another's folder.
                let from = Int.random(in: 0..<3, using: &rng)
                let to = (from + Int.random(in: 1...2, using: &rng)) % 3
                guard var bytes = fm.contents(atPath: journal(from, in: from)).map({ [UInt8]($0) }) else { continue }
                if Int.random(in: 0..<5, using: &rng) == 0, bytes.count > 1 {
                    bytes = Array(bytes[0..<Int.random(in: 1..<bytes.count, using: &rng)])  // a copy in progress
                }
                if size(journal(from, in: to)) > bytes.count { continue }  // engines do not go back in time
                let tmp = base + "/\(names[to])/sync/.syncthing.\(names[from]).ndjson.tmp"
                _ = fm.createFile(atPath: tmp, contents: Data(bytes))
                _ = rename(tmp, journal(from, in: to))
            }
        }
        // One full exchange, a run on each device (compaction after a purge), another exchange.
        func exchange() {
            for i in 0..<3 {
                guard let bytes = fm.contents(atPath: journal(i, in: i)) else { continue }
                for j in 0..<3 where j != i { _ = fm.createFile(atPath: journal(i, in: j), contents: bytes) }
            }
        }
        try quietly {
            exchange()
            for st in devices { try st.write(at: Instant(ms: clock), zone: zone) { (_: inout Transaction<YomoState>) throws(ToolError) in } }
            exchange()
        }
        let states = try quietly { try devices.map { try $0.read(full: true) } }
        XCTAssertEqual(states[0].reminders, states[1].reminders, "seed \(seed)")
        XCTAssertEqual(states[1].reminders, states[2].reminders, "seed \(seed)")
        // And the same as a fold from nothing (no snapshot), whatever order the batches came in.
        let rebuilt = try quietly { try devices[2].load(full: true, forceRebuild: true).state }
        XCTAssertEqual(rebuilt.reminders, states[0].reminders, "seed \(seed): the snapshot path agrees with a fresh fold")
        if purged {
            for n in names {
                let text = String(decoding: fm.contents(atPath: base + "/\(n)/sync/\(n).ndjson") ?? Data(), as: UTF8.self)
                XCTAssertFalse(text.contains("\"type\":\"created\"") && states[0].reminders.isEmpty, "seed \(seed): \(n) keeps erased reminders in its journal")
            }
        }
        XCTAssertGreaterThan(announcements, 5, "seed \(seed)")
        XCTAssertEqual(blockedByDismissal, 0)
    }
}
