import XCTest
@testable import NudgeKit

/// `habitmatch calendar --year`: the heat map golden at 80 and 40 columns,
/// in block characters and ASCII; Loop's strength; and over random years,
/// every day in its place.
final class HabitmatchYearTests: XCTestCase {
    static let today = Day(year: 2026, month: 11, day: 28)
    /// New Year's first fortnight, March every other day, all of September,
    /// and the last week.
    static let done: Set<Day> = {
        var s = Set<Day>()
        for i in 0..<14 { s.insert(Day(year: 2026, month: 1, day: 1).adding(days: i)) }
        for i in stride(from: 0, to: 31, by: 2) { s.insert(Day(year: 2026, month: 3, day: 1).adding(days: i)) }
        for i in 0..<30 { s.insert(Day(year: 2026, month: 9, day: 1).adding(days: i)) }
        for i in 20...27 { s.insert(Day(year: 2026, month: 11, day: i)) }
        return s
    }()

    func map(width: Int, unicode: Bool, color: Bool = false) -> String {
        Habitmatch.yearMap(title: "Exercise — Ann", year: 2026, done: Self.done, today: Self.today, width: width, unicode: unicode, color: color)
    }

    func testEightyColumns() {
        XCTAssertEqual(map(width: 80, unicode: true), """
            Exercise — Ann, 2026
               Jan Feb Mar  Apr May  Jun Jul Aug  Sep Oct Nov  Dec
            Mo  ░▒·······░·▒·······················▒▓▓█·······░
            Tu  ▒▓······░·▒·▒·····················░▒▓▓█·······▒
            We  ▒▓·······▒·▒······················░▒▓▓█·······▒
            Th ░▒·······░·▒·······················░▒▓▓········▒
            Fr ░▒········▒·▒······················░▒▓▓·······░▒
            Sa ░▒·······░·▒·······················░▒▓█·······░·
            Su ░▒······░·▒·▒······················▒▓▓█·······░
            · not done  ░▒▓█ done, by strength; strength 36%, streak 8, best 30

            """)
    }

    func testFortyColumnsShowTheLatestWeeks() {
        XCTAssertEqual(map(width: 40, unicode: true), """
            Exercise — Ann, 2026 (from 23 Mar)
                Apr May  Jun Jul Aug  Sep Oct Nov
            Mo ▒·······················▒▓▓█·······░
            Tu ·▒·····················░▒▓▓█·······▒
            We ▒······················░▒▓▓█·······▒
            Th ·······················░▒▓▓········▒
            Fr ▒······················░▒▓▓·······░▒
            Sa ·······················░▒▓█·······░·
            Su ▒······················▒▓▓█·······░
            strength 36%, streak 8, best 30

            """)
    }

    func testASCII() {
        XCTAssertEqual(map(width: 80, unicode: false), """
            Exercise — Ann, 2026
               Jan Feb Mar  Apr May  Jun Jul Aug  Sep Oct Nov  Dec
            Mo  -+.......-.+.......................+**#.......-
            Tu  +*......-.+.+.....................-+**#.......+
            We  +*.......+.+......................-+**#.......+
            Th -+.......-.+.......................-+**........+
            Fr -+........+.+......................-+**.......-+
            Sa -+.......-.+.......................-+*#.......-.
            Su -+......-.+.+......................+**#.......-
            . not done  -+*# done, by strength; strength 36%, streak 8, best 30

            """)
        XCTAssertEqual(map(width: 40, unicode: false), """
            Exercise — Ann, 2026 (from 23 Mar)
                Apr May  Jun Jul Aug  Sep Oct Nov
            Mo +.......................+**#.......-
            Tu .+.....................-+**#.......+
            We +......................-+**#.......+
            Th .......................-+**........+
            Fr +......................-+**.......-+
            Sa .......................-+*#.......-.
            Su +......................+**#.......-
            strength 36%, streak 8, best 30

            """)
    }

    func testStrengthIsLoops() {
        let start = Day(year: 2026, month: 1, day: 1)
        let thirteen = Set((0..<13).map { start.adding(days: $0) })
        let s = Habitmatch.strengths(thirteen, from: start, to: start.adding(days: 26))
        // Thirteen days in a row from nothing come to a half, and thirteen
        // days without halve it again.
        XCTAssertEqual(s[start.adding(days: 12)]!, 0.5, accuracy: 0.001)
        XCTAssertEqual(s[start.adding(days: 25)]!, 0.25, accuracy: 0.001)
        XCTAssertEqual(Habitmatch.strengths([], from: start, to: start.adding(days: 5)), [:], "never done: no strength")
        // Days done before the period count towards it.
        let before = Habitmatch.strengths(thirteen, from: start.adding(days: 12), to: start.adding(days: 12))
        XCTAssertEqual(before[start.adding(days: 12)]!, 0.5, accuracy: 0.001)
    }

    func testColourPaintsDoneDaysOnly() {
        let c = map(width: 80, unicode: true, color: true)
        XCTAssertEqual(c.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression), map(width: 80, unicode: true))
        XCTAssertTrue(c.contains("\u{1B}[32m█\u{1B}[0m"))
        XCTAssertFalse(c.contains("\u{1B}[32m·"))
    }

    /// Over random years, habits and widths: each shown day in its week's
    /// column and weekday's row, a done day as a shade and a day not done
    /// as a dot, nothing after today; no line too wide or ending in a
    /// space; strength within 0...1, up on a day done and down on one not.
    func testRandomYearsPutEveryDayInItsPlace() {
        var rng = SeededRandom(seed: 0x4EA7_3A9)
        for round in 0..<120 {
            let year = 2001 + Int(rng.next() % 99)
            let jan1 = Day(year: year, month: 1, day: 1)
            let today = jan1.adding(days: Int(rng.next() % 420) - 30)
            let rate = rng.next() % 4
            var done = Set<Day>()
            var d = jan1.adding(days: -40)
            while d <= today { if rng.next() % 4 < rate { done.insert(d) }; d = d.adding(days: 1) }
            let width = 20 + Int(rng.next() % 100), unicode = rng.next() % 2 == 0
            let text = Habitmatch.yearMap(title: "Read", year: year, done: done, today: today, width: width, unicode: unicode, color: false)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            XCTAssertEqual(lines.count, 10, "round \(round)")
            for l in lines {
                XCTAssertLessThanOrEqual(l.count, width - 1, "round \(round), width \(width): \(l)")
                XCTAssertFalse(l.hasSuffix(" "), "round \(round): \(l.debugDescription)")
            }
            // Which weeks are shown: the month row's columns tell nothing
            // certain, so find them from the rule: they end at today's week.
            let start = jan1.adding(days: -((jan1.weekday + 6) % 7))
            let dec31 = Day(year: year, month: 12, day: 31)
            let weeks = (dec31 - start) / 7 + 1
            let fit = max(1, width - 4)
            let end = today < jan1 ? 0 : min(weeks - 1, (min(today, dec31) - start) / 7)
            let first = max(0, min(weeks - fit, end - fit + 1))
            let shades = unicode ? "░▒▓█" : "-+*#"
            for row in 0..<7 {
                let cells = Array(lines[2 + row].dropFirst(3))
                for (i, w) in (first..<min(weeks, first + fit)).enumerated() {
                    let day = start.adding(days: w * 7 + row)
                    let cell: Character = i < cells.count ? cells[i] : " "
                    if day < jan1 || day > dec31 || day > today {
                        XCTAssertEqual(cell, " ", "round \(round): \(day) is not in the map")
                    } else if done.contains(day) {
                        XCTAssertTrue(shades.contains(cell), "round \(round): \(day) was done, drawn \(cell)")
                    } else {
                        XCTAssertEqual(cell, unicode ? "·" : ".", "round \(round): \(day) was not done")
                    }
                }
            }
            let s = Habitmatch.strengths(done, from: jan1, to: min(today, dec31))
            var prev: Double? = nil
            var day = jan1
            while day <= min(today, dec31) {
                if let v = s[day] {
                    XCTAssertTrue((0...1).contains(v))
                    if let p = prev { XCTAssertTrue(done.contains(day) ? v >= p : v <= p, "round \(round): \(day)") }
                    prev = v
                }
                day = day.adding(days: 1)
            }
        }
    }
}
