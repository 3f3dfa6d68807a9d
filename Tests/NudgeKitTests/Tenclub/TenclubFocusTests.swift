import XCTest
@testable import NudgeKit

/// A status bar's read restores one day's count from the snapshot and skips
/// the other days' lines: its answer for that day is the whole state's, and
/// the snapshot it may leave behind is the whole state's too.
final class TenclubFocusTests: XCTestCase {
    var root = ""

    override func setUp() {
        root = NSTemporaryDirectory() + "tenclub-focus-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    func testAFocusedReadAnswersItsDayAsTheWholeStateDoes() throws {
        let zone = try Zone.named("America/New_York")
        let first = Day(year: 2026, month: 9, day: 1)
        var skipped = 0
        for seed in 0..<4 {
            var rng = SeededRandom(seed: UInt64(seed))
            let store = Store<TenclubState>(dir: root + "/s\(seed)",
                                            options: StoreOptions(tool: "tenclub", actor: "bench", user: "tester", lockTimeoutMillis: 500,
                                                                  snapshotEvery: Int.random(in: 1...6, using: &rng)))
            var expected: [Day: Int] = [:]
            var last = zone.resolve(LocalDateTime(day: first, time: TimeOfDay(hour: 7, minute: 0)))
            for _ in 0..<150 {
                last = Instant(ms: last.ms + Int64.random(in: 60_000...(20 * 3_600_000), using: &rng))
                let day = zone.day(of: last)
                try store.write(at: last, zone: zone) { (tx: inout Transaction<TenclubState>) throws(ToolError) in
                    tx.record(["type": "unlock", "id": .string(IDs.make(using: &rng)), "at": .string(zone.format(last)),
                               "day": .string(day.description)])
                }
                expected[day, default: 0] += 1
                // Now and then a status bar reads a day, with the snapshot and the tail as they stand.
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    let d = Bool.random(using: &rng) ? day : first.adding(days: Int.random(in: -2...60, using: &rng))
                    let focused = try store.read(lazy: true, focus: { $0.focus = d })
                    XCTAssertEqual(focused.unlocks(on: d), expected[d] ?? 0, "seed \(seed): \(d)")
                    // With nothing past the snapshot, only that day was restored.
                    let l = try store.load(full: false, lazy: true, focus: { $0.focus = d })
                    XCTAssertEqual(l.state.unlocks(on: d), expected[d] ?? 0, "seed \(seed): \(d)")
                    if l.tailEvents == 0 {
                        XCTAssertLessThanOrEqual(l.state.days.count, 1, "seed \(seed): the other days' lines were skipped")
                        skipped += 1
                    }
                }
            }
            // The snapshot on disk holds every day: a read without a focus sees them all.
            let whole = try store.read(lazy: true)
            XCTAssertEqual(whole.days, expected, "seed \(seed)")
            XCTAssertEqual(try store.read(full: true).days, expected, "seed \(seed)")
        }
        XCTAssertGreaterThan(skipped, 10)
    }
}
