import XCTest
@testable import NudgeKit

final class TimeTests: XCTestCase {
    let ny = try! Zone.named("America/New_York")

    func t(_ s: String) -> Instant { RFC3339.parse(s)!.instant }
    func local(_ d: String, _ h: Int, _ m: Int) -> LocalDateTime {
        LocalDateTime(day: Day.parse(d)!, time: TimeOfDay(hour: h, minute: m))
    }

    func testCivilDaysRoundTripProperty() {
        var rng = SeededRandom(seed: 7)
        for _ in 0..<20000 {
            let n = Int.random(in: -800_000...2_900_000, using: &rng)
            let d = Day(daysSinceEpoch: n)
            XCTAssertEqual(d.daysSinceEpoch, n)
            XCTAssertTrue(d.isValid || d.year < 1 || d.year > 9999)
            XCTAssertEqual(d.adding(days: 1).daysSinceEpoch, n + 1)
        }
        XCTAssertEqual(Day(daysSinceEpoch: 0).description, "1970-01-01")
        XCTAssertEqual(Day.parse("2024-02-29")?.weekday, 4)
        XCTAssertNil(Day.parse("2026-02-29"))
        XCTAssertNil(Day.parse("2026-1-01"))
    }

    func testRFC3339ParseAndFormat() {
        XCTAssertEqual(t("1970-01-01T00:00:00Z").ms, 0)
        XCTAssertEqual(t("2026-11-22T08:15:00-05:00").ms, t("2026-11-22T13:15:00Z").ms)
        XCTAssertEqual(t("2026-11-22T08:15:00.5+01:00").ms % 1000, 500)
        XCTAssertEqual(t("2026-11-22 08:15:00.123456Z").ms % 1000, 123)
        XCTAssertNil(RFC3339.parse("2026-11-22T08:15:00"))
        XCTAssertNotNil(RFC3339.parse("2026-11-22T08:15", allowLocal: true))
        XCTAssertNil(RFC3339.parse("2026-11-22T25:15:00Z"))
        XCTAssertNil(RFC3339.parse("2026-11-22T08:15:00+5"))
        XCTAssertEqual(RFC3339.format(t("2026-11-22T13:15:00Z"), offsetSeconds: -18000), "2026-11-22T08:15:00-05:00")
        XCTAssertEqual(RFC3339.format(Instant(ms: -1), offsetSeconds: 0), "1969-12-31T23:59:59.999Z")
        var rng = SeededRandom(seed: 3)
        for _ in 0..<5000 {
            let i = Instant(ms: Int64.random(in: 0...4_102_444_800_000, using: &rng))
            let off = Int.random(in: -50...56, using: &rng) * 900
            XCTAssertEqual(RFC3339.parse(RFC3339.format(i, offsetSeconds: off))?.instant, i)
        }
    }

    func testNewYorkDSTDays() {
        // 2026: spring forward March 8, fall back November 1.
        XCTAssertEqual(ny.lengthOfDay(Day.parse("2026-03-08")!), 23 * 3600)
        XCTAssertEqual(ny.lengthOfDay(Day.parse("2026-11-01")!), 25 * 3600)
        XCTAssertEqual(ny.lengthOfDay(Day.parse("2026-07-01")!), 24 * 3600)
        XCTAssertEqual(ny.offset(at: t("2026-07-01T12:00:00Z")), -4 * 3600)
        XCTAssertEqual(ny.offset(at: t("2026-12-01T12:00:00Z")), -5 * 3600)
        // Far future comes from the POSIX rule in the file's footer.
        XCTAssertEqual(ny.offset(at: t("2090-07-01T12:00:00Z")), -4 * 3600)
    }

    func testLocalDayBoundariesAcrossDST() {
        let cases: [(String, String)] = [
            ("2026-03-08T04:59:59Z", "2026-03-07"), ("2026-03-08T05:00:00Z", "2026-03-08"),
            ("2026-03-09T03:59:59Z", "2026-03-08"), ("2026-03-09T04:00:00Z", "2026-03-09"),
            ("2026-11-01T03:59:59Z", "2026-10-31"), ("2026-11-01T04:00:00Z", "2026-11-01"),
            ("2026-11-02T04:59:59Z", "2026-11-01"), ("2026-11-02T05:00:00Z", "2026-11-02"),
        ]
        for (instant, day) in cases { XCTAssertEqual(ny.day(of: t(instant)).description, day, instant) }
    }

    func testGapAndOverlapResolveAsRFC5545() {
        // 02:30 does not exist on 2026-03-08: it becomes 03:30 EDT.
        XCTAssertTrue(ny.candidates(for: local("2026-03-08", 2, 30)).isEmpty)
        XCTAssertEqual(ny.format(ny.resolve(local("2026-03-08", 2, 30))), "2026-03-08T03:30:00-04:00")
        // 01:30 exists twice on 2026-11-01: the first one (EDT) is used.
        XCTAssertEqual(ny.candidates(for: local("2026-11-01", 1, 30)).count, 2)
        XCTAssertEqual(ny.format(ny.resolve(local("2026-11-01", 1, 30))), "2026-11-01T01:30:00-04:00")
        XCTAssertEqual(ny.startOfDay(Day.parse("2026-11-01")!), t("2026-11-01T04:00:00Z"))
    }

    func testPosixRuleMatchesTZifProperty() throws {
        let rule = try Zone.named("EST5EDT,M3.2.0,M11.1.0")
        var rng = SeededRandom(seed: 11)
        for _ in 0..<5000 {
            let i = Instant(seconds: Int64.random(in: 1_230_768_000...4_102_444_800, using: &rng))  // 2009-2100
            XCTAssertEqual(rule.offset(at: i), ny.offset(at: i), "\(i)")
        }
    }

    func testSouthernHemisphereAndOddOffsets() throws {
        let syd = try Zone.named("Australia/Sydney")
        XCTAssertEqual(syd.offset(at: t("2026-01-15T00:00:00Z")), 11 * 3600)
        XCTAssertEqual(syd.offset(at: t("2026-07-15T00:00:00Z")), 10 * 3600)
        XCTAssertEqual(syd.lengthOfDay(Day.parse("2026-04-05")!), 25 * 3600)
        let kath = try Zone.named("Asia/Kathmandu")
        XCTAssertEqual(kath.offset(at: t("2026-01-15T00:00:00Z")), 5 * 3600 + 45 * 60)
        XCTAssertEqual(try Zone.named("UTC").offset(at: t("2026-01-15T00:00:00Z")), 0)
        XCTAssertThrowsError(try Zone.named("Mars/Olympus_Mons")) { e in
            XCTAssertEqual((e as! ToolError).code, .config)
        }
    }

    func testClockParsesUserTimes() {
        XCTAssertEqual(Clock.parseTime("2026-11-22 08:15", zone: ny), t("2026-11-22T13:15:00Z"))
        XCTAssertEqual(Clock.parseTime("2026-11-22", zone: ny), t("2026-11-22T05:00:00Z"))
        XCTAssertEqual(Clock.parseTime("2026-11-22T08:15:00Z", zone: ny), t("2026-11-22T08:15:00Z"))
        XCTAssertEqual(Clock.parseTime("@0", zone: ny), Instant(ms: 0))
        XCTAssertNil(Clock.parseTime("yesterday-ish", zone: ny))
        XCTAssertEqual(TimeOfDay.parse("09:05")?.description, "09:05")
        XCTAssertNil(TimeOfDay.parse("24:00"))
        XCTAssertNil(TimeOfDay.parse("9:5"))
    }
}
