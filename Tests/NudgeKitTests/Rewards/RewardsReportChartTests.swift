import XCTest
@testable import NudgeKit

/// `rewards report --format text` by day as a picture: golden at 80 and 40
/// columns, in block characters and in ASCII; and the invariants over
/// random fortnights (no line too wide or ending in a space, a day with
/// minutes never drawn as none).
final class RewardsReportChartTests: XCTestCase {
    /// A fortnight: a day over the cap, one of a single minute, a run of
    /// four empty days (folded) and one of two (shown).
    static let fortnight: [Rewards.ChartDay] = {
        let start = Day(year: 2026, month: 11, day: 9)
        let rows: [(Int, Int, Int)] = [(0, 0, 0), (0, 0, 0), (35, 0, 35), (60, 20, 60), (95, 140, 142), (1, 0, 1), (0, 0, 0),
                                       (0, 0, 0), (0, 0, 0), (0, 0, 0), (48, 45, 48), (0, 0, 0), (0, 0, 0), (75, 60, 80)]
        return rows.enumerated().map { i, r in Rewards.ChartDay(day: start.adding(days: i), learning: r.0, reward: r.1, points: r.2) }
    }()

    func chart(width: Int, unicode: Bool, color: Bool = false) -> String {
        Rewards.reportChart(child: "Alex", days: Self.fortnight, goal: 60, cap: 120, width: width, unicode: unicode, color: color)
    }

    func testEightyColumns() {
        XCTAssertEqual(chart(width: 80, unicode: true), """
            Alex, 9 Nov 2026 to 22 Nov 2026
            │ learning goal 60 min, reward cap 120 min a day
                       learning                        reward                          pts
            Mon  9 Nov ·               │            0  ·                     │      0    0
            Tue 10 Nov ·               │            0  ·                     │      0    0
            Wed 11 Nov █████████▌      │           35  ·                     │      0   35
            Thu 12 Nov ████████████████▍           60  ███▋                  │     20   60
            Fri 13 Nov ██████████████████████████  95  ██████████████████████████ 140  142
            Sat 14 Nov ▎               │            1  ·                     │      0    1
                       · 4 days with nothing, 15 Nov to 18 Nov
            Thu 19 Nov █████████████▏  │           48  ████████▎             │     45   48
            Fri 20 Nov ·               │            0  ·                     │      0    0
            Sat 21 Nov ·               │            0  ·                     │      0    0
            Sun 22 Nov ████████████████████▌       75  ███████████▏          │     60   80
            total                                 314                             265  366

            """)
    }

    func testFortyColumns() {
        XCTAssertEqual(chart(width: 40, unicode: true), """
            Alex, 9 Nov 2026 to 22 Nov 2026
            │ goal 60 min learning, cap 120 reward
                       learning    reward      pts
            Mon  9 Nov ·  │     0  ·    │   0    0
            Tue 10 Nov ·  │     0  ·    │   0    0
            Wed 11 Nov ██▏│    35  ·    │   0   35
            Thu 12 Nov ███▊    60  ▊    │  20   60
            Fri 13 Nov ██████  95  ██████ 140  142
            Sat 14 Nov ▏  │     1  ·    │   0    1
                       · 4 empty days to 18 Nov
            Thu 19 Nov ███│    48  █▉   │  45   48
            Fri 20 Nov ·  │     0  ·    │   0    0
            Sat 21 Nov ·  │     0  ·    │   0    0
            Sun 22 Nov ████▋   75  ██▌  │  60   80
            total             314         265  366

            """)
    }

    func testASCII() {
        XCTAssertEqual(chart(width: 80, unicode: false), """
            Alex, 9 Nov 2026 to 22 Nov 2026
            | learning goal 60 min, reward cap 120 min a day
                       learning                        reward                          pts
            Mon  9 Nov .               |            0  .                     |      0    0
            Tue 10 Nov .               |            0  .                     |      0    0
            Wed 11 Nov ##########      |           35  .                     |      0   35
            Thu 12 Nov #################           60  ####                  |     20   60
            Fri 13 Nov ##########################  95  ########################## 140  142
            Sat 14 Nov #               |            1  .                     |      0    1
                       . 4 days with nothing, 15 Nov to 18 Nov
            Thu 19 Nov #############   |           48  ########              |     45   48
            Fri 20 Nov .               |            0  .                     |      0    0
            Sat 21 Nov .               |            0  .                     |      0    0
            Sun 22 Nov #####################       75  ###########           |     60   80
            total                                 314                             265  366

            """)
        XCTAssertEqual(chart(width: 40, unicode: false), """
            Alex, 9 Nov 2026 to 22 Nov 2026
            | goal 60 min learning, cap 120 reward
                       learning    reward      pts
            Mon  9 Nov .  |     0  .    |   0    0
            Tue 10 Nov .  |     0  .    |   0    0
            Wed 11 Nov ## |    35  .    |   0   35
            Thu 12 Nov ####    60  #    |  20   60
            Fri 13 Nov ######  95  ###### 140  142
            Sat 14 Nov #  |     1  .    |   0    1
                       . 4 empty days to 18 Nov
            Thu 19 Nov ###|    48  ##   |  45   48
            Fri 20 Nov .  |     0  .    |   0    0
            Sat 21 Nov .  |     0  .    |   0    0
            Sun 22 Nov #####   75  ###  |  60   80
            total             314         265  366

            """)
    }

    /// The goal's mark shows while a day is short of it, however little,
    /// and is covered once it is reached: 59 of 60 and 60 never look alike.
    func testTheMarkTellsAMissedGoalFromAMetOne() {
        for unicode in [true, false] {
            for width in [40, 80] {
                let days = [59, 60, 0].enumerated().map { i, m in
                    Rewards.ChartDay(day: Day(year: 2026, month: 11, day: 20 + i), learning: m, reward: 0, points: 0) }
                let text = Rewards.reportChart(child: "A", days: days, goal: 60, cap: 120, width: width, unicode: unicode, color: false)
                let rows = text.split(separator: "\n").filter { ["Fri", "Sat", "Sun"].contains($0.prefix(3)) }
                // The learning bar: from the label to the learning minutes.
                let learning = rows.map { String($0.dropFirst(11).prefix { !$0.isNumber }) }
                let mark: Character = unicode ? "│" : "|"
                XCTAssertEqual(learning.count, 3, text)
                XCTAssertTrue(learning[0].contains(mark), "59 of 60: the mark shows (\(width), \(unicode)):\n\(text)")
                XCTAssertFalse(learning[1].contains(mark), "60 of 60: covered:\n\(text)")
                XCTAssertTrue(learning[2].contains(mark), "nothing: the mark shows:\n\(text)")
            }
        }
        // A goal so small that its cell is the first: the mark stands in the second.
        let tiny = Rewards.reportChart(child: "A", days: [Rewards.ChartDay(day: Day(year: 2026, month: 11, day: 20), learning: 0, reward: 0, points: 0),
                                                          Rewards.ChartDay(day: Day(year: 2026, month: 11, day: 21), learning: 300, reward: 0, points: 0)],
                                       goal: 1, cap: 1, width: 40, unicode: true, color: false)
        XCTAssertTrue(tiny.contains("Fri 20 Nov ·│"), tiny)
    }

    func testColourPaintsTheBarsOnlyAndTimePastTheCapRed() {
        let c = chart(width: 80, unicode: true, color: true)
        let plain = c.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        XCTAssertEqual(plain, chart(width: 80, unicode: true), "colour adds nothing but colour")
        let friday = c.split(separator: "\n").first { $0.hasPrefix("Fri 13 Nov") }.map(String.init) ?? ""
        XCTAssertTrue(friday.contains("\u{1B}[32m"), "learning in green: \(friday.debugDescription)")
        XCTAssertTrue(friday.contains("\u{1B}[33m") && friday.contains("\u{1B}[31m"), "reward in yellow up to the cap, red past it: \(friday.debugDescription)")
        let empty = c.split(separator: "\n").first { $0.hasPrefix("Mon  9 Nov") }.map(String.init) ?? ""
        XCTAssertFalse(empty.contains("\u{1B}"), "a day with nothing has nothing painted")
        XCTAssertFalse(chart(width: 80, unicode: true).contains("\u{1B}"))
    }

    /// Over random periods, goals and caps, at any width from 40 to 160:
    /// no line wider than the width less one or ending in a space, every
    /// day shown or folded once, a day with minutes never drawn as none.
    func testRandomPeriodsKeepTheInvariants() {
        var rng = SeededRandom(seed: 0x5EED_C4A2)
        for round in 0..<300 {
            let n = 1 + Int(rng.next() % 40)
            let start = Day(year: 2026, month: 1, day: 1).adding(days: Int(rng.next() % 300))
            let days = (0..<n).map { i -> Rewards.ChartDay in
                let quiet = rng.next() % 3 == 0
                return Rewards.ChartDay(day: start.adding(days: i), learning: quiet ? 0 : Int(rng.next() % 400),
                                        reward: quiet ? 0 : Int(rng.next() % 300), points: quiet ? 0 : Int(rng.next() % 5000))
            }
            let width = 40 + Int(rng.next() % 121), unicode = rng.next() % 2 == 0
            let name = ["Alex", "Maximilian-Alexander von Hohenberg-Schwarzenstein", "J"][Int(rng.next() % 3)]
            let text = Rewards.reportChart(child: name, days: days, goal: 1 + Int(rng.next() % 300), cap: Int(rng.next() % 300),
                                           width: width, unicode: unicode, color: false)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            for l in lines {
                XCTAssertLessThanOrEqual(l.count, width - 1, "round \(round), width \(width): \(l)")
                XCTAssertFalse(l.hasSuffix(" "), "round \(round): a line ends in a space: \(l.debugDescription)")
            }
            var shown = 0
            for l in lines {
                if let d = days.first(where: { l.hasPrefix(dayLabel($0.day)) }) {
                    shown += 1
                    let bar = l.dropFirst(11)
                    if d.learning == 0 {
                        XCTAssertEqual(bar.first, unicode ? "·" : ".", "round \(round): \(l)")
                    } else {
                        XCTAssertTrue(bar.first.map { (unicode ? "█▏▎▍▌▋▊▉" : "#").contains($0) } ?? false,
                                      "round \(round): \(d.learning) min drawn as none: \(l)")
                    }
                } else if let r = l.range(of: unicode ? "· " : ". "), l.hasPrefix("           "), let k = Int(l[r.upperBound...].prefix { $0.isNumber }) {
                    shown += k
                }
            }
            XCTAssertEqual(shown, n, "round \(round): every day once:\n\(text)")
        }
    }

    func dayLabel(_ d: Day) -> String {
        let wd = String(Day.weekdayNames[d.weekday].prefix(3)), mo = String(Day.monthNames[d.month - 1].prefix(3))
        return "\(wd) \(d.day < 10 ? " " : "")\(d.day) \(mo)"
    }
}
