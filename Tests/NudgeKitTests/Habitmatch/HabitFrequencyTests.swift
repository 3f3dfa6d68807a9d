import XCTest
@testable import NudgeKit

/// Habits as Loop Habit Tracker keeps them: frequencies, rest days,
/// measurable habits, streaks and strength under each frequency, stats by
/// period and Loop's CSV tables.
final class HabitFrequencyTests: XCTestCase {
    func d(_ s: String) -> Day { Day.parse(s)! }
    typealias F = Habitmatch.Frequency

    func testFrequenciesAreReadAsPeopleWriteThemAndRefusedOtherwise() {
        let cases: [(String, String?, String?)] = [
            ("daily", "1/1", "every day"), ("day", "1/1", "every day"), ("3/week", "3/7", "3 times a week"),
            ("3x/week", "3/7", "3 times a week"), ("weekly", "1/7", "once a week"), ("2/month", "2/30", "twice a month"),
            ("monthly", "1/30", "once a month"), ("3/10d", "3/10", "3 times in 10 days"), ("2d", "1/2", "every 2 days"),
            ("fortnightly", "1/14", "every two weeks"), ("mon,wed,fri", "mon,wed,fri", "Mon, Wed, Fri"),
            ("Weekdays", "mon,tue,wed,thu,fri", "weekdays"), ("weekends", "sat,sun", "weekends"), ("mon-fri", "mon,tue,wed,thu,fri", "weekdays"),
            ("fri-mon", "mon,fri,sat,sun", "Mon, Fri, Sat, Sun"), ("tuesday,thursday", "tue,thu", "Tue, Thu"),
            ("8/week", nil, nil), ("0/week", nil, nil), ("1/0d", nil, nil), ("1/366d", nil, nil), ("366d", nil, nil),
            ("fortnight-ish", nil, nil), ("mon,,fri", nil, nil), ("m", nil, nil), ("", nil, nil), ("-1/7", nil, nil), ("mon-", nil, nil),
        ]
        for (raw, stored, said) in cases {
            let f = F.parse(raw)
            XCTAssertEqual(f?.stored, stored, raw)
            XCTAssertEqual(f?.described, said, raw)
            if let f { XCTAssertEqual(F.parse(f.stored), f, "\(raw): what is stored reads back") }
        }
    }

    /// Loop's example of a non-daily habit: three times a week, done on
    /// Monday, Wednesday and Friday of two weeks. Each three within seven
    /// days cover seven days from the first of them, and the older
    /// interval slides back to meet the newer: a streak through the gap.
    func testThreeTimesAWeekCoversTheWeekAsLoopDoes() {
        let f = F.parse("3/week")!
        let done: Set<Day> = [d("2026-11-02"), d("2026-11-04"), d("2026-11-06"), d("2026-11-09"), d("2026-11-11"), d("2026-11-13")]
        let p = Habitmatch.progress(done: done, every: f, today: d("2026-11-14"))
        XCTAssertEqual(p.mark(d("2026-11-02")), .yes)
        XCTAssertEqual(p.mark(d("2026-11-03")), .auto, "inside the interval of 2, 4 and 6 November")
        XCTAssertEqual(p.mark(d("2026-11-08")), .auto)
        XCTAssertEqual(p.mark(d("2026-11-14")), .auto, "the newest interval runs from the 9th for seven days")
        XCTAssertEqual(p.current, 13)
        XCTAssertEqual(p.longest, 13)
        // Twice in a week is not enough: no interval, days not done.
        let twice = Habitmatch.progress(done: [d("2026-11-02"), d("2026-11-04")], every: f, today: d("2026-11-06"))
        XCTAssertEqual(twice.mark(d("2026-11-03")), .no)
        XCTAssertEqual(twice.longest, 1)
        let spread = Habitmatch.progress(done: [d("2026-11-02"), d("2026-11-06"), d("2026-11-10")], every: f, today: d("2026-11-10"))
        XCTAssertEqual(spread.mark(d("2026-11-03")), .no, "three in nine days are not three in a week")
        // A month is the month's length from its first day done (30 or 31 days).
        let monthly = Habitmatch.progress(done: [d("2026-01-31"), d("2026-02-27")], every: F.parse("monthly")!, today: d("2026-03-10"))
        XCTAssertEqual(monthly.mark(d("2026-02-15")), .auto)
        XCTAssertEqual(monthly.mark(d("2026-03-10")), .auto, "February the 27th covers into March")
    }

    /// Chosen weekdays: the other days are rest days that neither break a
    /// streak nor start one, and leave the strength as it was.
    func testRestDaysNeitherBreakNorStartAStreak() {
        let f = F.parse("mon,wed,fri")!
        let done: Set<Day> = [d("2026-11-02"), d("2026-11-04"), d("2026-11-06"), d("2026-11-09")]
        let p = Habitmatch.progress(done: done, every: f, today: d("2026-11-10"))
        XCTAssertEqual(p.mark(d("2026-11-07")), .rest)
        XCTAssertEqual(p.current, 9, "Monday the 2nd to Tuesday the 10th, a rest day")
        XCTAssertEqual(p.strength(d("2026-11-08")), p.strength(d("2026-11-07")), "a rest day leaves the strength")
        XCTAssertEqual(p.strength(d("2026-11-07")), p.strength(d("2026-11-06")))
        let missed = Habitmatch.progress(done: done, every: f, today: d("2026-11-12"))
        XCTAssertEqual(missed.mark(d("2026-11-11")), .no, "Wednesday was a day to do it")
        XCTAssertEqual(missed.current, 0)
        XCTAssertEqual(missed.longest, 9)
    }

    /// A measurable habit: a day meets its target by the amounts of its
    /// period; a day short of it is not done, but counts toward strength.
    func testMeasurableHabitsMeetTheirTargetByPeriod() {
        let daily = Habitmatch.progress(done: [d("2026-11-01"), d("2026-11-02"), d("2026-11-03")],
                                        amounts: [d("2026-11-01"): 20, d("2026-11-02"): 12, d("2026-11-03"): 25],
                                        every: .daily, target: 20, today: d("2026-11-03"))
        XCTAssertEqual([daily.mark(d("2026-11-01")), daily.mark(d("2026-11-02")), daily.mark(d("2026-11-03"))], [.yes, .no, .yes])
        XCTAssertEqual(daily.current, 1)
        XCTAssertEqual(daily.amount(d("2026-11-02")), 12)
        let weekly = Habitmatch.progress(done: [d("2026-11-02")], amounts: [d("2026-11-02"): 15], every: F.parse("week")!, target: 15,
                                         today: d("2026-11-10"))
        XCTAssertEqual(weekly.mark(d("2026-11-02")), .yes)
        XCTAssertEqual(weekly.mark(d("2026-11-08")), .auto, "15 km on Monday meets the week's 15 until Sunday")
        XCTAssertEqual(weekly.mark(d("2026-11-09")), .no)
        // Loop's percentage: half the target weighs half a day done.
        let half = Habitmatch.progress(done: [d("2026-11-01")], amounts: [d("2026-11-01"): 10], every: .daily, target: 20, today: d("2026-11-01"))
        let whole = Habitmatch.progress(done: [d("2026-11-01")], every: .daily, today: d("2026-11-01"))
        XCTAssertEqual(half.now, whole.now / 2, accuracy: 1e-12)
    }

    /// Over random histories and frequencies: a daily yes/no habit is what
    /// the daily streaks and strength always were; for every frequency a
    /// day is done only if marked (or met), auto only off a marked day, a
    /// rest day only off the chosen weekdays; strength in 0...1, up on a
    /// day done in full; the current streak no longer than the longest,
    /// and no streak crosses a day not done.
    func testStreaksAndStrengthHoldUnderEveryFrequency() {
        var g = SeededRandom(seed: 0xF4E9)
        let kinds = ["daily", "3/week", "weekly", "2/month", "3/10d", "2d", "mon,wed,fri", "weekdays", "sat"]
        for round in 0..<300 {
            let f = F.parse(kinds[Int(g.next() % UInt64(kinds.count))])!
            let today = Day(year: 2020, month: 1, day: 1).adding(days: Int(g.next() % 2500))
            let rate = g.next() % 5
            var done = Set<Day>(), amounts: [Day: Double] = [:]
            let measurable = f.times == 1 && g.next() % 3 == 0
            var day = today.adding(days: -Int(g.next() % 200))
            while day <= today {
                if g.next() % 5 < rate { done.insert(day); if measurable { amounts[day] = Double(1 + g.next() % 30) } }
                day = day.adding(days: 1)
            }
            let target: Double? = measurable ? 20 : nil
            let p = Habitmatch.progress(done: done, amounts: amounts, every: f, target: target, today: today)
            if f.isDaily && !measurable {
                let old = Habitmatch.streaks(done, today: today)
                XCTAssertEqual(p.current, old.current, "round \(round)")
                XCTAssertEqual(p.longest, old.longest, "round \(round)")
            }
            XCTAssertLessThanOrEqual(p.current, p.longest, "round \(round)")
            var run = 0, longest = 0
            for (i, m) in p.marks.enumerated() {
                let dd = p.first.adding(days: i)
                XCTAssertTrue((0...1).contains(p.strength[i]), "round \(round)")
                if m == .yes { XCTAssertTrue(done.contains(dd), "round \(round): \(dd) is done only if marked") }
                if m == .rest { XCTAssertFalse(f.weekdays?.contains(dd.weekday) ?? true, "round \(round): \(dd) rests only off its days") }
                if m == .auto && !measurable { XCTAssertFalse(done.contains(dd), "round \(round)") }
                if f.weekdays == nil && f.days == 1 && !measurable { XCTAssertEqual(m == .yes, done.contains(dd), "round \(round)") }
                if m == .yes && !measurable && f.perDay >= 1, i > 0 { XCTAssertGreaterThanOrEqual(p.strength[i], p.strength[i - 1], "round \(round)") }
                switch m {
                case .no: run = 0
                case .rest: if run > 0 { run += 1 }
                default: run += 1
                }
                longest = max(longest, run)
            }
            XCTAssertEqual(longest, p.longest, "round \(round): a streak is a run without a day not done")
        }
    }

    func testStatsByWeekAndMonthAndLoopsTables() {
        var h = Habitmatch.Habit(id: "exercise", name: "Exercise", remindAt: nil)
        h.every = F.parse("3/week")!
        let done: Set<Day> = [d("2026-11-02"), d("2026-11-04"), d("2026-11-06"), d("2026-11-10")]
        let today = d("2026-11-11")
        let p = Habitmatch.progress(done: done, every: h.every, today: today)
        let weeks = Habitmatch.periods(p, h, today: today, byMonth: false)
        XCTAssertEqual(weeks.map(\.start), [d("2026-11-02"), d("2026-11-09")])
        XCTAssertEqual(weeks[0].done, 3)
        XCTAssertEqual(weeks[0].expected, 3)
        XCTAssertEqual(weeks[0].rate, 1)
        XCTAssertEqual(weeks[1].done, 1)
        XCTAssertEqual(weeks[1].expected, 1.286, "three times a week, three days of it so far")
        XCTAssertEqual(weeks[1].rate, 0.778)
        let months = Habitmatch.periods(p, h, today: today, byMonth: true)
        XCTAssertEqual(months.count, 1)
        XCTAssertEqual(months[0].end, d("2026-11-30"))

        var read = Habitmatch.Habit(id: "read", name: "Read, slowly", remindAt: nil)
        read.target = 20
        read.unit = "pages"
        let r = Habitmatch.progress(done: [d("2026-11-10")], amounts: [d("2026-11-10"): 12.5], every: .daily, target: 20, today: today)
        let checks = Habitmatch.loopTableCSV([(h, p), (read, r)], today: today, scores: false).split(separator: "\n").map(String.init)
        XCTAssertEqual(checks[0], "Date,Exercise,\"Read, slowly\",")
        XCTAssertEqual(checks[1], "2026-11-11,0,0,", "the 4th, 6th and 10th cover the 4th to the 10th")
        XCTAssertEqual(checks[2], "2026-11-10,2,12500,")
        XCTAssertEqual(checks.last, "2026-11-02,2,-1,")
        XCTAssertEqual(checks.count, 11)
        let scores = Habitmatch.loopTableCSV([(h, p)], today: today, scores: true).split(separator: "\n").map(String.init)
        XCTAssertEqual(scores[1], "2026-11-11,\(Habitmatch.fourDecimals(p.strength(today))),")
        XCTAssertEqual(Habitmatch.fourDecimals(0.52634), "0.5263")
        XCTAssertEqual(Habitmatch.fourDecimals(0.00005), "0.0001")
        XCTAssertEqual(Habitmatch.fourDecimals(1), "1.0000")
        XCTAssertEqual(Habitmatch.loopHabitsCSV([h, read]),
                       "Position,Name,Question,Description,NumRepetitions,Interval,Color\n001,Exercise,,,3,7,\n002,\"Read, slowly\",,,1,1,\n")
    }

    /// A habit's frequency and target survive the journal and the snapshot.
    func testFrequencyAndAmountsSurviveTheFoldAndTheSnapshot() throws {
        var s = HabitmatchState(full: true)
        s.apply(["type": "joined", "actor": "ana", "name": "Ana", "timezone": "UTC", "habits": .array(["read"])])
        s.apply(["type": "habit_set", "actor": "ana", "id": "read", "every": "mon-fri", "target": 20, "unit": "pages"])
        s.apply(["type": "habit_set", "actor": "ana", "id": "read", "every": "9/week", "target": -3, "unit": "\u{1B}[31m"])
        s.apply(["type": "habit_set", "actor": "ana", "id": "read", "every": "week", "unit": "\u{1B}]0;x\u{7}"])
        s.apply(["type": "habit_set", "actor": "ana", "id": "read", "every": "3/week"])
        s.apply(["type": "habit_added", "actor": "ana", "id": "other:run", "name": "Run", "every": "3/7", "target": 5])
        s.apply(["type": "done", "actor": "ana", "habit": "read", "date": "2026-11-09", "amount": 1e-300])
        s.apply(["type": "done", "actor": "ana", "habit": "read", "date": "2026-11-10", "amount": 12])
        s.apply(["type": "done", "actor": "ana", "habit": "read", "date": "2026-11-11", "amount": 1e9])
        let h = try XCTUnwrap(s.members["ana"]?.habits.first)
        XCTAssertEqual(h.every.stored, "mon,tue,wed,thu,fri", "an event with anything not valid counts for nothing, not in part")
        XCTAssertEqual(s.members["ana"]?.habits.count, 1, "a target with three times a week is refused as the command refuses it")
        XCTAssertEqual(h.target, 20)
        XCTAssertEqual(h.unit, "pages")
        XCTAssertEqual(s.amounts("ana", "read"), [d("2026-11-10"): 12])
        XCTAssertEqual(s.doneDays("ana", "read"), [d("2026-11-10")])
        var back = HabitmatchState(full: true)
        for l in s.hotSnapshot() { try back.restoreHot(l) }
        XCTAssertEqual(back.members["ana"]?.habits, s.members["ana"]?.habits)
        XCTAssertEqual(back.amounts("ana", "read"), s.amounts("ana", "read"))
        s.apply(["type": "undone", "actor": "ana", "habit": "read", "date": "2026-11-10"])
        XCTAssertTrue(s.amounts("ana", "read").isEmpty)
    }
}
