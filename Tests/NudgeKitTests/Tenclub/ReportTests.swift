import XCTest
@testable import NudgeKit

final class ReportTests: XCTestCase {
    let ny = try! Zone.named("America/New_York")

    /// A period holds its date; a week runs Monday to Sunday, a month from
    /// its first day to its last; the period before ends the day before.
    func testPeriodsHoldTheirDateAndFollowEachOther() {
        var rng = SeededRandom(seed: 42)
        for _ in 0..<2000 {
            let d = Day(year: 2000, month: 1, day: 1).adding(days: Int.random(in: 0...15_000, using: &rng))
            for p in Tenclub.Period.allCases {
                let r = Tenclub.span(p, holding: d)
                XCTAssertTrue(r.contains(d), "\(p) \(d)")
                let before = Tenclub.previous(p, before: r)
                XCTAssertEqual(before.upperBound.adding(days: 1), r.lowerBound, "\(p) \(d)")
                switch p {
                case .day: XCTAssertEqual(r.lowerBound, r.upperBound)
                case .week:
                    XCTAssertEqual(r.lowerBound.weekday, 1, "\(d)")  // Monday
                    XCTAssertEqual(r.upperBound - r.lowerBound, 6)
                case .month:
                    XCTAssertEqual(r.lowerBound.day, 1)
                    XCTAssertEqual(r.upperBound.adding(days: 1).day, 1)
                    XCTAssertEqual(r.lowerBound.month, d.month)
                }
            }
        }
    }

    /// Over random histories: the hours add up to the instants of the
    /// tracked days, the unlocks to their counts; no day after today or
    /// before the first unlock is in it; the runs and busted days agree.
    func testAReportAddsUpOverRandomHistories() {
        var rng = SeededRandom(seed: 7)
        for round in 0..<300 {
            var days: [Day: Int] = [:], seen: [Day: [Int64]] = [:]
            let start = Day(year: 2026, month: 9, day: 1).adding(days: Int.random(in: 0...40, using: &rng))
            for k in 0..<Int.random(in: 0...60, using: &rng) where Int.random(in: 0...4, using: &rng) > 0 {
                let d = start.adding(days: k)
                let n = Int.random(in: 0...25, using: &rng)
                let instants = (0..<n).map { _ in ny.startOfDay(d).ms + Int64.random(in: 0..<86_400_000, using: &rng) }.sorted()
                days[d] = n
                seen[d] = instants
            }
            let today = Day(year: 2026, month: 10, day: 1).adding(days: Int.random(in: 0...50, using: &rng))
            let date = today.adding(days: -Int.random(in: 0...40, using: &rng))
            let p = Tenclub.Period.allCases[round % 3]
            let r = Tenclub.report(p, holding: date, today: today, days: days, seen: seen, zone: ny)
            let first = days.keys.min()
            for d in r.days {
                XCTAssertTrue(r.span.contains(d.date))
                XCTAssertLessThanOrEqual(d.date, today)
                XCTAssertGreaterThanOrEqual(d.date, first!)
                XCTAssertEqual(d.unlocks, days[d.date] ?? 0)
            }
            XCTAssertEqual(r.hours.reduce(0, +), r.days.reduce(0) { $0 + (seen[$1.date]?.count ?? 0) })
            XCTAssertEqual(r.hours.count, 24)
            XCTAssertEqual(r.bustedDays + r.tenclubDays, r.days.count)
            XCTAssertLessThanOrEqual(r.longestRun, r.tenclubDays)
            if let h = r.busiestHour { XCTAssertEqual(r.hours[h], r.hours.max()) } else { XCTAssertEqual(r.hours.max() ?? 0, 0) }
            XCTAssertEqual(r.average == nil, r.days.isEmpty)
            let text = Tenclub.reportText(r, unicode: round % 2 == 0)
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) { XCTAssertFalse(line.hasSuffix(" "), "'\(line)'") }
            if round % 2 == 1 { XCTAssertTrue(text.unicodeScalars.allSatisfy(\.isASCII), text) }
        }
    }

    func testAWeekAgainstTheWeekBefore() {
        // The week of Monday 2026-11-16: 12 unlocks on Monday at 07:05 and on, 4 on Tuesday; the week before 2 a day.
        var days: [Day: Int] = [:], seen: [Day: [Int64]] = [:]
        func put(_ d: Day, _ n: Int, from hour: Int) {
            days[d] = n
            seen[d] = (0..<n).map { ny.resolve(LocalDateTime(day: d, time: TimeOfDay(hour: hour, minute: 5 + $0))).ms }
        }
        for k in 0..<7 { put(Day(year: 2026, month: 11, day: 9 + k), 2, from: 21) }
        put(Day(year: 2026, month: 11, day: 16), 12, from: 7)
        put(Day(year: 2026, month: 11, day: 17), 4, from: 7)
        let r = Tenclub.report(.week, holding: Day(year: 2026, month: 11, day: 17), today: Day(year: 2026, month: 11, day: 17),
                               days: days, seen: seen, zone: ny)
        XCTAssertEqual(r.days.map(\.date.description), ["2026-11-16", "2026-11-17"])  // the rest of the week has not come
        XCTAssertEqual(r.unlocks, 16)
        XCTAssertEqual(r.average, 12)  // the finished days: today's count is not over
        XCTAssertEqual(r.previousAverage, 2)
        XCTAssertEqual(r.changePercent, 500)
        XCTAssertEqual(r.busiestHour, 7)
        XCTAssertEqual(r.bustedDays, 1)
        XCTAssertEqual(r.longestRun, 1)
        XCTAssertEqual(r.days.first?.first, TimeOfDay(hour: 7, minute: 5))
        let o = r.record
        XCTAssertEqual(o["from"]?.string, "2026-11-16")
        XCTAssertEqual(o["to"]?.string, "2026-11-22")
        XCTAssertEqual(o["hours"]?.array?.count, 24)
        let text = Tenclub.reportText(r, unicode: true)
        XCTAssertTrue(text.hasPrefix("Week of 2026-11-16 to 2026-11-22: 16 unlocks so far, 12.0 a day before today (up 500% from 2.0 a day the week before)\n"), text)
        XCTAssertTrue(text.contains("2026-11-16       12  JOKER  07:05  BUSTED!\n"), text)
        XCTAssertTrue(text.contains("2026-11-17        4  4C     07:05\n"), text)
        // Today alone: its count so far, and no change against a whole day.
        let monday = Tenclub.report(.day, holding: Day(year: 2026, month: 11, day: 16), today: Day(year: 2026, month: 11, day: 16), days: days, seen: seen, zone: ny)
        XCTAssertNil(monday.changePercent)
        XCTAssertTrue(Tenclub.reportText(monday, unicode: true).hasPrefix("2026-11-16: 12 unlocks so far\n"))
        // A finished day against the one before, in whole unlocks; equal ones about the same.
        let tuesday = Tenclub.report(.day, holding: Day(year: 2026, month: 11, day: 17), today: Day(year: 2026, month: 11, day: 20), days: days, seen: seen, zone: ny)
        XCTAssertTrue(Tenclub.reportText(tuesday, unicode: true).hasPrefix("2026-11-17: 4 unlocks (down 67% from 12 the day before)\n"))
        days[Day(year: 2026, month: 11, day: 18)] = 4
        let wednesday = Tenclub.report(.day, holding: Day(year: 2026, month: 11, day: 18), today: Day(year: 2026, month: 11, day: 20), days: days, seen: seen, zone: ny)
        XCTAssertTrue(Tenclub.reportText(wednesday, unicode: true).hasPrefix("2026-11-18: 4 unlocks (about the same as the day before)\n"))
        // A day whose only unlock was taken back is tracked, as history has it.
        let undone = Tenclub.report(.day, holding: Day(year: 2026, month: 1, day: 1), today: Day(year: 2026, month: 1, day: 1),
                                    days: [Day(year: 2026, month: 1, day: 1): 0], seen: [:], zone: ny)
        XCTAssertEqual(undone.days.map(\.unlocks), [0])
        // No period runs past the last day a date can name.
        XCTAssertEqual(Tenclub.span(.week, holding: Day(year: 9999, month: 12, day: 31)).upperBound, Day(year: 9999, month: 12, day: 31))
        // Nothing tracked: said in a line.
        XCTAssertEqual(Tenclub.reportText(Tenclub.report(.day, holding: Day(year: 2026, month: 1, day: 1), today: Day(year: 2026, month: 1, day: 1),
                                                         days: [:], seen: [:], zone: ny), unicode: true), "2026-01-01: no unlocks tracked.\n")
    }
}
