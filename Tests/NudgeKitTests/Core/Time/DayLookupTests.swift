import XCTest
@testable import NudgeKit

/// `DayLookup` remembers the day of the last instant asked: over runs of
/// instants in time order, with jumps back and forth, through DST days
/// (New York's, Santiago's midnight change, Lord Howe's half hour, Apia's
/// skipped day, and a POSIX rule whose clocks fall back from 00:30 to the
/// day before), every answer is `zone.day(of:)`'s.
final class DayLookupTests: XCTestCase {
    func testEveryAnswerIsTheZonesOwn() throws {
        var hits = 0
        for name in ["America/New_York", "America/Santiago", "Australia/Lord_Howe", "Pacific/Apia", "Europe/Berlin", "UTC", "XST3XDT,M9.1.0,M4.1.0/0:30"] {
            let zone = try Zone.named(name)
            var rng = SeededRandom(seed: UInt64(name.utf8.count))
            var lookup = DayLookup(zone)
            var t = Instant(seconds: 1_293_840_000)  // 2011-01-01: Apia skipped 2011-12-30
            for _ in 0..<40_000 {
                switch Int.random(in: 0..<100, using: &rng) {
                case 0: t = Instant(ms: t.ms - Int64.random(in: 0...(3 * 86_400_000), using: &rng))
                case 1: t = Instant(ms: t.ms + Int64.random(in: 0...(40 * 86_400_000), using: &rng))
                default: t = Instant(ms: t.ms + Int64.random(in: 0...(2 * 3_600_000), using: &rng))
                }
                let before = lookup.day
                XCTAssertEqual(lookup.day(of: t), zone.day(of: t), "\(name) at \(t.ms)")
                if before != nil && before == lookup.day { hits += 1 }
            }
        }
        XCTAssertGreaterThan(hits, 100_000, "most lookups answer from the remembered day")
    }
}
