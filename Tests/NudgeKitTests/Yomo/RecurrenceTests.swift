import XCTest
@testable import NudgeKit

final class RecurrenceTests: XCTestCase {
    let ny = try! Zone.named("America/New_York")

    func local(_ s: String) -> LocalDateTime {
        let p = RFC3339.parse(s, allowLocal: true)!
        return p.local
    }

    func occurrences(_ r: Recurrence, anchor: String, count: Int, zone: Zone? = nil) -> [String] {
        let z = zone ?? ny
        var out: [String] = []
        var t = Instant(ms: z.resolve(local(anchor)).ms - 1)
        for _ in 0..<count {
            guard let n = r.next(after: t, anchor: local(anchor), zone: z) else { break }
            out.append(z.format(n))
            t = n
        }
        return out
    }

    func testDailyAcrossSpringForwardAndFallBack() {
        XCTAssertEqual(occurrences(Recurrence(kind: .daily), anchor: "2026-03-07T02:30", count: 3),
                       ["2026-03-07T02:30:00-05:00", "2026-03-08T03:30:00-04:00", "2026-03-09T02:30:00-04:00"])
        XCTAssertEqual(occurrences(Recurrence(kind: .daily), anchor: "2026-10-31T01:30", count: 3),
                       ["2026-10-31T01:30:00-04:00", "2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00"])
    }

    func testHourlyRangeIncludesItsEndAndRestartsEachDay() {
        let r = Recurrence(kind: .custom, interval: 3, unit: .hour, rangeStart: TimeOfDay(hour: 9, minute: 0), rangeEnd: TimeOfDay(hour: 18, minute: 0))
        XCTAssertEqual(occurrences(r, anchor: "2026-11-23T09:00", count: 6),
                       ["2026-11-23T09:00:00-05:00", "2026-11-23T12:00:00-05:00", "2026-11-23T15:00:00-05:00",
                        "2026-11-23T18:00:00-05:00", "2026-11-24T09:00:00-05:00", "2026-11-24T12:00:00-05:00"])
        // Every hour through the spring-forward night: 02:00 does not exist, and nothing fires twice.
        let night = Recurrence(kind: .custom, interval: 1, unit: .hour, rangeStart: TimeOfDay(hour: 0, minute: 0), rangeEnd: TimeOfDay(hour: 4, minute: 0))
        XCTAssertEqual(occurrences(night, anchor: "2026-03-08T00:00", count: 4),
                       ["2026-03-08T00:00:00-05:00", "2026-03-08T01:00:00-05:00", "2026-03-08T03:00:00-04:00", "2026-03-08T04:00:00-04:00"])
        // Plain "every 2 hours" counts elapsed time.
        XCTAssertEqual(occurrences(Recurrence(kind: .custom, interval: 2, unit: .hour), anchor: "2026-11-01T00:30", count: 3),
                       ["2026-11-01T00:30:00-04:00", "2026-11-01T01:30:00-05:00", "2026-11-01T03:30:00-05:00"])
    }

    func testMonthEndsLeapDaysAndOrdinals() {
        let monthly = Recurrence(kind: .custom, interval: 1, unit: .month)
        XCTAssertEqual(occurrences(monthly, anchor: "2027-12-31T09:00", count: 4).map { String($0.prefix(10)) },
                       ["2027-12-31", "2028-01-31", "2028-02-29", "2028-03-31"])
        XCTAssertEqual(occurrences(monthly, anchor: "2026-01-31T09:00", count: 4).map { String($0.prefix(10)) },
                       ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"])
        let second = Recurrence(kind: .custom, interval: 1, unit: .month, monthOrdinal: 2, monthWeekday: 2)
        XCTAssertEqual(occurrences(second, anchor: "2026-11-01T19:00", count: 3).map { String($0.prefix(10)) },
                       ["2026-11-10", "2026-12-08", "2027-01-12"])
        let last = Recurrence(kind: .custom, interval: 1, unit: .month, monthOrdinal: -1, monthWeekday: 5)
        XCTAssertEqual(occurrences(last, anchor: "2026-11-01T17:00", count: 3).map { String($0.prefix(10)) },
                       ["2026-11-27", "2026-12-25", "2027-01-29"])
        let fifth = Recurrence(kind: .custom, interval: 1, unit: .month, monthOrdinal: 5, monthWeekday: 1)
        XCTAssertEqual(occurrences(fifth, anchor: "2026-11-01T08:00", count: 2).map { String($0.prefix(10)) },
                       ["2026-11-30", "2027-03-29"], "months without a 5th Monday are skipped")
        let quarterly = Recurrence(kind: .custom, interval: 3, unit: .month)
        XCTAssertEqual(occurrences(quarterly, anchor: "2026-11-30T08:00", count: 3).map { String($0.prefix(10)) },
                       ["2026-11-30", "2027-02-28", "2027-05-30"])
    }

    func testWeeklyDaysAndIntervals() {
        let weekly = Recurrence(kind: .weekly, days: [1, 3, 5])
        XCTAssertEqual(occurrences(weekly, anchor: "2026-11-22T18:00", count: 4).map { String($0.prefix(10)) },
                       ["2026-11-23", "2026-11-25", "2026-11-27", "2026-11-30"])
        let biweekly = Recurrence(kind: .custom, interval: 2, unit: .week, days: [2, 4])
        XCTAssertEqual(occurrences(biweekly, anchor: "2026-11-24T08:00", count: 4).map { String($0.prefix(10)) },
                       ["2026-11-24", "2026-11-26", "2026-12-08", "2026-12-10"])
        XCTAssertEqual(occurrences(Recurrence(kind: .custom, interval: 3, unit: .day), anchor: "2026-02-27T08:00", count: 3).map { String($0.prefix(10)) },
                       ["2026-02-27", "2026-03-02", "2026-03-05"])
    }

    func testCompletionBasedKeepsTheRestOfTheRule() {
        func anchor(_ s: String) -> LocalDateTime { local(s) }
        let done = RFC3339.parse("2026-03-06T22:15:00-05:00")!.instant  // a Friday
        // Days: N days after the completion's day, at the rule's time of day.
        let r = Recurrence(kind: .custom, interval: 3, unit: .day, basedOnCompletion: true)
        XCTAssertEqual(ny.format(r.nextAfterCompletion(done, anchor: anchor("2026-03-01T09:00"), zone: ny)), "2026-03-09T09:00:00-04:00")
        // Hours: elapsed time.
        let hours = Recurrence(kind: .custom, interval: 2, unit: .hour, basedOnCompletion: true)
        XCTAssertEqual(hours.nextAfterCompletion(done, anchor: anchor("2026-03-01T09:00"), zone: ny).ms - done.ms, 7_200_000)
        // Hours within a range: inside it elapsed time, else the next start of the range.
        let ranged = Recurrence(kind: .custom, interval: 2, unit: .hour, rangeStart: TimeOfDay(hour: 9, minute: 0),
                                rangeEnd: TimeOfDay(hour: 18, minute: 0), basedOnCompletion: true)
        XCTAssertEqual(ny.format(ranged.nextAfterCompletion(done, anchor: anchor("2026-03-01T09:00"), zone: ny)), "2026-03-07T09:00:00-05:00")
        let morning = RFC3339.parse("2026-03-06T10:30:00-05:00")!.instant
        XCTAssertEqual(ny.format(ranged.nextAfterCompletion(morning, anchor: anchor("2026-03-01T09:00"), zone: ny)), "2026-03-06T12:30:00-05:00")
        // Weeks on chosen days: N weeks on, then the first chosen day.
        let weeks = Recurrence(kind: .custom, interval: 2, unit: .week, days: [2], basedOnCompletion: true)
        XCTAssertEqual(ny.format(weeks.nextAfterCompletion(done, anchor: anchor("2026-03-03T07:30"), zone: ny)), "2026-03-24T07:30:00-04:00")
        // Months on an ordinal weekday: that weekday N months on.
        let months = Recurrence(kind: .custom, interval: 1, unit: .month, monthOrdinal: 2, monthWeekday: 2, basedOnCompletion: true)
        XCTAssertEqual(ny.format(months.nextAfterCompletion(done, anchor: anchor("2026-03-10T19:00"), zone: ny)), "2026-04-14T19:00:00-04:00")
        // Years: the rule's month and day.
        let years = Recurrence(kind: .custom, interval: 1, unit: .year, basedOnCompletion: true)
        XCTAssertEqual(ny.format(years.nextAfterCompletion(done, anchor: anchor("2024-02-29T08:00"), zone: ny)), "2028-02-29T08:00:00-05:00",
                       "a year after March 2026, then the rule's February")
    }

    func testYearlyOvernightUntilAndCount() {
        let yearly = Recurrence(kind: .custom, interval: 1, unit: .year)
        XCTAssertEqual(occurrences(yearly, anchor: "2028-02-29T09:00", count: 3).map { String($0.prefix(10)) },
                       ["2028-02-29", "2029-02-28", "2030-02-28"])
        let thanksgiving = Recurrence(kind: .custom, interval: 1, unit: .year, monthOrdinal: 4, monthWeekday: 4)
        XCTAssertEqual(occurrences(thanksgiving, anchor: "2026-11-01T12:00", count: 2).map { String($0.prefix(10)) },
                       ["2026-11-26", "2027-11-25"])
        let night = Recurrence(kind: .custom, interval: 4, unit: .hour, rangeStart: TimeOfDay(hour: 22, minute: 0), rangeEnd: TimeOfDay(hour: 6, minute: 0))
        XCTAssertNil(night.problem)
        XCTAssertEqual(occurrences(night, anchor: "2026-11-22T22:00", count: 4),
                       ["2026-11-22T22:00:00-05:00", "2026-11-23T02:00:00-05:00", "2026-11-23T06:00:00-05:00", "2026-11-23T22:00:00-05:00"])
        var until = Recurrence(kind: .daily)
        until.until = Day(year: 2026, month: 11, day: 24)
        XCTAssertEqual(occurrences(until, anchor: "2026-11-22T09:00", count: 9).count, 3)
        var count = Recurrence(kind: .weekly, days: [1, 3])
        count.count = 3
        XCTAssertEqual(occurrences(count, anchor: "2026-11-22T09:00", count: 9).map { String($0.prefix(10)) },
                       ["2026-11-23", "2026-11-25", "2026-11-30"])
        XCTAssertEqual(until.summary, "daily until 2026-11-24")
        XCTAssertEqual(Recurrence.from(type: "daily", rule: until.json.object)?.json, until.json)
        XCTAssertEqual(Recurrence.from(type: "weekly", rule: count.json.object)?.json, count.json)
    }

    func testValidation() {
        XCTAssertNil(Recurrence(kind: .daily).problem)
        XCTAssertEqual(Recurrence(kind: .custom, interval: 0, unit: .day).problem, "--every must be a whole number from 1 to 1000")
        XCTAssertEqual(Recurrence(kind: .custom, interval: 1, unit: .day, rangeStart: TimeOfDay(hour: 9, minute: 0), rangeEnd: TimeOfDay(hour: 10, minute: 0)).problem,
                       "--between works with --unit hour only")
        XCTAssertNil(Recurrence(kind: .custom, interval: 1, unit: .hour, rangeStart: TimeOfDay(hour: 19, minute: 0), rangeEnd: TimeOfDay(hour: 9, minute: 0)).problem,
                     "an overnight range")
        XCTAssertEqual(Recurrence(kind: .custom, interval: 1, unit: .week, monthOrdinal: 2, monthWeekday: 2).problem, "--on works with --unit month or year only")
    }

    // MARK: Properties

    static func randomRule(_ rng: inout SeededRandom) -> Recurrence {
        let kinds: [Recurrence.Kind] = [.daily, .weekly, .custom, .custom, .custom]
        let kind = kinds.randomElement(using: &rng)!
        let days = (0..<7).filter { _ in Bool.random(using: &rng) }
        switch kind {
        case .daily: return Recurrence(kind: .daily)
        case .weekly: return Recurrence(kind: .weekly, days: days)
        default:
            let unit = Recurrence.Unit.allCases.randomElement(using: &rng)!
            let n = Int.random(in: 1...4, using: &rng)
            switch unit {
            case .hour:
                if Bool.random(using: &rng) { return Recurrence(kind: .custom, interval: n, unit: .hour) }
                let s = Int.random(in: 0...20, using: &rng)
                let e = Bool.random(using: &rng) ? Int.random(in: s...23, using: &rng) : Int.random(in: 0...23, using: &rng)  // some overnight
                return Recurrence(kind: .custom, interval: n, unit: .hour, days: Bool.random(using: &rng) ? days : [],
                                  rangeStart: TimeOfDay(hour: s, minute: 0), rangeEnd: TimeOfDay(hour: e, minute: Int.random(in: 0...59, using: &rng)))
            case .day: return Recurrence(kind: .custom, interval: n, unit: .day)
            case .week: return Recurrence(kind: .custom, interval: n, unit: .week, days: days)
            case .year: return Recurrence(kind: .custom, interval: n, unit: .year)
            case .month:
                if Bool.random(using: &rng) { return Recurrence(kind: .custom, interval: n, unit: .month) }
                return Recurrence(kind: .custom, interval: n, unit: .month, monthOrdinal: [-1, 1, 2, 3, 4, 5].randomElement(using: &rng)!,
                                  monthWeekday: Int.random(in: 0...6, using: &rng))
            }
        }
    }

    /// Over random rules, anchors and zones: occurrences strictly increase,
    /// never fall outside the rule's days, time range or month pattern (but for
    /// a wall time moved by a DST gap), none is skipped, and the first is at or
    /// after the anchor.
    func testOccurrenceProperties() throws {
        let zones = [ny, try Zone.named("Europe/London"), try Zone.named("Australia/Sydney"), try Zone.named("Asia/Kolkata"), Zone.utc]
        var rng = SeededRandom(seed: 99)
        for round in 0..<400 {
            let zone = zones[round % zones.count]
            let rule = RecurrenceTests.randomRule(&rng)
            let day = Day(year: 2026, month: 1, day: 1).adding(days: Int.random(in: 0...800, using: &rng))
            let anchor = LocalDateTime(day: day, time: TimeOfDay(hour: Int.random(in: 0...23, using: &rng), minute: [0, 15, 30, 45].randomElement(using: &rng)!))
            let a = zone.resolve(anchor)
            var prev = Instant(ms: a.ms - 1)
            var list: [Instant] = []
            for _ in 0..<40 {
                guard let n = rule.next(after: prev, anchor: anchor, zone: zone) else { break }
                XCTAssertGreaterThan(n, prev, "round \(round): not increasing, \(rule)")
                list.append(n)
                prev = n
            }
            XCTAssertFalse(list.isEmpty, "round \(round): no occurrence for \(rule.summary)")
            guard let first = list.first else { continue }
            XCTAssertGreaterThanOrEqual(first.ms, a.ms - 3_600_000, "round \(round): before the anchor")
            let (n, unit) = rule.effective
            for o in list {
                let l = zone.local(o)
                // The wall time intended: the one shown, or one hour earlier if a gap moved it.
                let shifted = zone.candidates(for: LocalDateTime(wallSeconds: l.wallSeconds - 3600)).isEmpty
                func allowed(_ check: (LocalDateTime) -> Bool) -> Bool {
                    check(l) || (shifted && check(LocalDateTime(wallSeconds: l.wallSeconds - 3600)))
                }
                switch unit {
                case .week where !rule.days.isEmpty:
                    XCTAssertTrue(allowed { rule.days.contains($0.day.weekday) }, "round \(round): \(l) not on \(rule.days)")
                case .week:
                    XCTAssertTrue(allowed { $0.day.weekday == anchor.day.weekday }, "round \(round)")
                case .hour:
                    if let s = rule.rangeStart, let e = rule.rangeEnd {
                        if rule.overnight {
                            XCTAssertTrue(allowed { $0.time >= s && (rule.days.isEmpty || rule.days.contains($0.day.weekday))
                                                 || $0.time <= e && (rule.days.isEmpty || rule.days.contains($0.day.adding(days: -1).weekday)) },
                                          "round \(round): \(l) outside \(s)-\(e) overnight \(rule.days)")
                        } else {
                            XCTAssertTrue(allowed { $0.time >= s && $0.time <= e && (rule.days.isEmpty || rule.days.contains($0.day.weekday)) },
                                          "round \(round): \(l) outside \(s)-\(e) \(rule.days)")
                        }
                    }
                case .month:
                    if let o = rule.monthOrdinal, let wd = rule.monthWeekday {
                        XCTAssertTrue(allowed { Recurrence.nthWeekday(year: $0.day.year, month: $0.day.month, ordinal: o, weekday: wd) == $0.day },
                                      "round \(round): \(l) is not the \(o) \(wd)")
                    }
                case .day:
                    XCTAssertTrue(allowed { ($0.day - anchor.day) % n == 0 }, "round \(round): \(l) not every \(n) days")
                case .year:
                    XCTAssertTrue(allowed { $0.day.month == anchor.day.month && ($0.day.year - anchor.day.year) % n == 0 }, "round \(round): \(l) not every \(n) years")
                }
                if unit != .hour || rule.rangeStart != nil {
                    XCTAssertTrue(allowed { $0.time.hour == (unit == .hour ? $0.time.hour : anchor.time.hour) }, "round \(round)")
                }
            }
            // Nothing is skipped: from any instant between two occurrences, next gives the later one.
            for k in 1..<list.count {
                let mid = Instant(ms: Int64.random(in: list[k - 1].ms..<list[k].ms, using: &rng))
                XCTAssertEqual(rule.next(after: mid, anchor: anchor, zone: zone), list[k], "round \(round): skipped")
            }
        }
    }

    /// "From completion" depends on the completion time alone, comes after
    /// it, and keeps the rule's shape: its days, range, month pattern, time.
    func testCompletionDependsOnlyOnCompletionTime() {
        var rng = SeededRandom(seed: 5)
        for round in 0..<500 {
            var rule = RecurrenceTests.randomRule(&rng)
            rule.basedOnCompletion = true
            let anchor = LocalDateTime(day: Day(year: 2026, month: 1, day: 1).adding(days: Int.random(in: 0...300, using: &rng)),
                                       time: TimeOfDay(hour: Int.random(in: 0...23, using: &rng), minute: [0, 30].randomElement(using: &rng)!))
            let c = Instant(ms: Int64.random(in: 1_767_000_000_000...1_830_000_000_000, using: &rng))
            let a = rule.nextAfterCompletion(c, anchor: anchor, zone: ny)
            XCTAssertEqual(a, rule.nextAfterCompletion(c, anchor: anchor, zone: ny))
            XCTAssertGreaterThan(a, c, "round \(round)")
            let (n, unit) = rule.effective
            let l = ny.local(a)
            switch unit {
            case .hour:
                if rule.rangeStart == nil && rule.days.isEmpty { XCTAssertEqual(a.ms - c.ms, Int64(n) * 3_600_000) }
                XCTAssertGreaterThanOrEqual(a.ms - c.ms, Int64(n) * 3_600_000 - 3_600_000, "round \(round)")
            case .day:
                XCTAssertEqual(l.day - ny.local(c).day, n, "round \(round)")
            case .week:
                XCTAssertGreaterThanOrEqual(l.day - ny.local(c).day, 7 * n)
                XCTAssertLessThan(l.day - ny.local(c).day, 7 * n + 7)
                if !rule.days.isEmpty { XCTAssertTrue(rule.days.contains(l.day.weekday), "round \(round)") }
            case .month, .year:
                if let o = rule.monthOrdinal, let wd = rule.monthWeekday {
                    XCTAssertEqual(Recurrence.nthWeekday(year: l.day.year, month: l.day.month, ordinal: o, weekday: wd), l.day, "round \(round)")
                }
                if unit == .year { XCTAssertEqual(l.day.month, anchor.day.month) }
            }
            if unit != .hour && ny.candidates(for: LocalDateTime(day: l.day, time: anchor.time)).count > 0 {
                XCTAssertEqual(l.time, anchor.time, "round \(round): keeps the time of day")
            }
        }
    }
}
