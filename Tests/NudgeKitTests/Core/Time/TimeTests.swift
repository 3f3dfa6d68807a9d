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

final class PlausibleTimeTests: XCTestCase {
    let ny = try! Zone.named("America/New_York")
    let now = RFC3339.parse("2026-11-22T21:00:00-05:00")!.instant

    func testOffsetsWithoutAColon() {
        XCTAssertEqual(RFC3339.parse("2026-11-22T13:15:00+0000")?.instant, RFC3339.parse("2026-11-22T13:15:00Z")?.instant)
        XCTAssertEqual(RFC3339.parse("2026-11-22T08:15:00-0500")?.instant, RFC3339.parse("2026-11-22T13:15:00Z")?.instant)
        XCTAssertEqual(RFC3339.parse("2026-11-22T18:45:00.250+0530")?.instant.ms, RFC3339.parse("2026-11-22T13:15:00.250Z")?.instant.ms)
        XCTAssertEqual(RFC3339.parse("2026-11-22T08:15:00-0500")?.offsetSeconds, -18000)
        for bad in ["2026-11-22T08:15:00+05", "2026-11-22T08:15:00+050", "2026-11-22T08:15:00+05:0", "2026-11-22T08:15:00+2500",
                    "2026-11-22T08:15:00+05000", "2026-11-22T08:15:00+0560"] {
            XCTAssertNil(RFC3339.parse(bad), bad)
        }
    }

    func testEpochRule() {
        XCTAssertEqual(Clock.instant(epoch: 1_795_435_200)?.ms, 1_795_435_200_000, "seconds")
        XCTAssertEqual(Clock.instant(epoch: 1_795_435_200.5)?.ms, 1_795_435_200_500, "fractional seconds")
        XCTAssertEqual(Clock.instant(epoch: 1_795_435_200_123)?.ms, 1_795_435_200_123, "milliseconds")
        XCTAssertEqual(Clock.instant(epoch: 99_999_999_999)?.ms, 99_999_999_999_000, "just below 10^11: seconds")
        XCTAssertEqual(Clock.instant(epoch: 100_000_000_000)?.ms, 100_000_000_000, "10^11: milliseconds")
        XCTAssertNil(Clock.instant(epoch: .infinity))
        XCTAssertNil(Clock.instant(epoch: 1e16))
        XCTAssertEqual(Clock.parseTime("@1795435200", zone: ny)?.ms, 1_795_435_200_000)
        XCTAssertEqual(Clock.parseTime("@1795435200000", zone: ny)?.ms, 1_795_435_200_000)
    }

    func testTheWindow() {
        XCTAssertNil(Clock.plausible(Clock.earliest, now: now, what: "x"))
        XCTAssertNil(Clock.plausible(now.adding(seconds: 86400), now: now, what: "x"))
        XCTAssertEqual(Clock.plausible(Instant(ms: Clock.earliest.ms - 1), now: now, what: "\"at\"")?.message,
                       "\"at\" 1999-12-31T23:59:59.999Z is before 2000-01-01: not a plausible time")
        let year1 = RFC3339.parse("0001-01-01T12:00:00Z")!.instant
        XCTAssertEqual(Clock.plausible(year1, now: now, what: "\"at\"")?.message,
                       "\"at\" 0001-01-01T12:00:00Z is before 2000-01-01: not a plausible time")
        XCTAssertEqual(Clock.plausible(Instant(ms: -70_000_000_000_000), now: now, what: "\"at\"")?.message,
                       "\"at\" is before 2000-01-01: not a plausible time")
        XCTAssertEqual(Clock.plausible(now.adding(seconds: 86401), now: now, what: "\"at\"", zone: ny)?.message,
                       "\"at\" 2026-11-23T21:00:01-05:00 is more than a day after now (now is 2026-11-22T21:00:00-05:00)")
        XCTAssertEqual(Clock.plausible(now.adding(seconds: 301), now: now, what: "--at", zone: ny, lead: 300_000)?.message,
                       "--at 2026-11-22T21:05:01-05:00 is in the future (now is 2026-11-22T21:00:00-05:00)")
        XCTAssertEqual(Clock.plausible(now.adding(seconds: 301), now: now, what: "--at", zone: ny, lead: 300_000)?.code, .dataError)
        XCTAssertNil(Clock.plausible(now.adding(seconds: 86400 * 400), now: now, what: "x", lead: nil), "the future where it is expected")
        XCTAssertNotNil(Clock.plausible(Clock.latest, now: now, what: "x", lead: nil))
        XCTAssertNil(Clock.plausible(day: Day(year: 2000, month: 1, day: 1), what: "--date"))
        XCTAssertEqual(Clock.plausible(day: Day(year: 1999, month: 12, day: 31), what: "--date")?.message,
                       "--date 1999-12-31 is before 2000-01-01: not a plausible day")
    }

    func testRecordTimes() {
        func read(_ v: JSON) -> String {
            switch Clock.instant(v, field: "\"at\"", zone: ny, now: now) {
            case .success(let t): return ny.format(t)
            case .failure(let e): return e.message
            }
        }
        XCTAssertEqual(read("2026-11-22T08:15:00-05:00"), "2026-11-22T08:15:00-05:00")
        XCTAssertEqual(read("2026-11-22T13:15:00+0000"), "2026-11-22T08:15:00-05:00")
        XCTAssertEqual(read("2026-11-22 08:15"), "2026-11-22T08:15:00-05:00", "local time in the zone")
        XCTAssertEqual(read(.int(1_795_348_800)), "2026-11-22T07:00:00-05:00")
        XCTAssertEqual(read(.int(1_795_348_800_000)), "2026-11-22T07:00:00-05:00", "epoch milliseconds")
        XCTAssertEqual(read(.double(1_795_348_800.5)), "2026-11-22T07:00:00.500-05:00")
        XCTAssertEqual(read("0001-01-01T12:00:00Z"), "\"at\" 0001-01-01T12:00:00Z is before 2000-01-01: not a plausible time")
        XCTAssertEqual(read(.int(0)), "\"at\" 1970-01-01T00:00:00Z is before 2000-01-01: not a plausible time (read as epoch seconds)")
        XCTAssertEqual(read(.int(1_795_435_200_000_000)),
                       "\"at\" is after the year 9999: not a plausible time (read as epoch milliseconds; microseconds? divide by 1000)")
        XCTAssertEqual(read(.int(1_795_435_200_000 * 3)),
                       "\"at\" 2140-09-07T08:00:00-04:00 is more than a day after now (now is 2026-11-22T21:00:00-05:00) (read as epoch milliseconds)")
        XCTAssertEqual(read(.int(Int64(9e16))), "\"at\" 90000000000000000 is out of range: accepted are epoch seconds from 946684800 to 1795485600 or epoch milliseconds from 946684800000 to 1795485600000 (2000-01-01T00:00:00Z to 2026-11-23T21:00:00-05:00)")
        XCTAssertEqual(read(.int(Int64.min)), "\"at\" -9223372036854775808 is out of range: accepted are epoch seconds from 946684800 to 1795485600 or epoch milliseconds from 946684800000 to 1795485600000 (2000-01-01T00:00:00Z to 2026-11-23T21:00:00-05:00)")
        XCTAssertEqual(read("tomorrow"), "\"at\" must be an RFC 3339 time like 2026-11-22T08:15:00-05:00 or epoch seconds (a number), not 'tomorrow'")
        XCTAssertEqual(read(.string(String(repeating: "é", count: 100_000))),
                       "\"at\" must be an RFC 3339 time like 2026-11-22T08:15:00-05:00 or epoch seconds (a number), not '\(String(repeating: "é", count: 60))…'",
                       "a long text is quoted in part, cut between characters")
        XCTAssertEqual(read(.bool(true)), "\"at\" must be an RFC 3339 time or epoch seconds, not a boolean")
        XCTAssertEqual(read(.null), "\"at\" must be an RFC 3339 time or epoch seconds, not null")
    }

    /// Times of day are read from bytes as they were read from an array of
    /// parts: the same answer for any short text of digits and colons.
    func testTimesOfDayReadAsBefore() {
        func reference(_ s: String) -> TimeOfDay? {
            let u = Array(s.utf8)
            guard u.count == 5 || u.count == 8 || u.count == 4 else { return nil }
            var parts: [Int] = []
            var cur = -1
            var width = 0
            for c in u {
                if c == UInt8(ascii: ":") {
                    guard cur >= 0 else { return nil }
                    parts.append(cur); cur = -1; width = 0
                } else if c >= 48 && c <= 57 {
                    cur = (cur < 0 ? 0 : cur) * 10 + Int(c - 48)
                    width += 1
                    if width > 2 { return nil }
                } else { return nil }
            }
            guard cur >= 0, width == 2 else { return nil }
            parts.append(cur)
            guard parts.count >= 2, parts[0] < 24, parts[1] < 60 else { return nil }
            let sec = parts.count == 3 ? parts[2] : 0
            guard sec < 60 else { return nil }
            return TimeOfDay(hour: parts[0], minute: parts[1], second: sec)
        }
        var rng = SeededRandom(seed: 1201)
        let alphabet = Array("0123456789:::5x")
        var parsed = 0
        for _ in 0..<20000 {
            let s = String((0..<Int.random(in: 0...9, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            XCTAssertEqual(TimeOfDay.parse(s), reference(s), s)
            if reference(s) != nil { parsed += 1 }
        }
        for t in ["00:00", "23:59", "9:30", "12:34:56", "1:2:3:45", "24:00", "12:60", "12:30:60", "12:3", ""] {
            XCTAssertEqual(TimeOfDay.parse(t), reference(t), t)
        }
        XCTAssertGreaterThan(parsed, 100)
    }
}
