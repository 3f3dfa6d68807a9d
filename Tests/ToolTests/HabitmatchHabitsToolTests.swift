import XCTest

/// Habits as Loop Habit Tracker keeps them, through the executable: a
/// frequency and a target set, amounts counted, streaks and strength by
/// the frequency, stats by week and month, Loop's CSV tables, what a buddy
/// and what another member see, and clear refusals that change nothing.
final class HabitmatchHabitsToolTests: HabitmatchPoolCase {
    func testFrequencyTargetStatsAndLoopsTables() throws {
        XCTAssertEqual(hm("ana", "join", "--name", "Ana", "--habit", "exercise", "--habit", "read").code, 0)
        let set = hm("ana", "habit", "set", "exercise", "--every", "3/week", "--format", "text")
        XCTAssertEqual(set.out, "Exercise: 3 times a week\n", set.err)
        XCTAssertEqual(hm("ana", "habit", "set", "read", "--target", "20", "--unit", "pages", "--format", "text").out,
                       "Read every day: every day, 20 pages a day\n")
        for d in ["2026-11-09", "2026-11-11", "2026-11-13", "2026-11-16", "2026-11-18", "2026-11-20"] {
            XCTAssertEqual(hm("ana", "done", "exercise", "--date", d).code, 0)
        }
        let part = hm("ana", "done", "read", "--amount", "12")
        XCTAssertEqual(part.code, 0, part.err)
        XCTAssertEqual(part.records.first?["amount"] as? Double, 12)
        XCTAssertEqual(part.records.first?["current_streak"] as? Int, 0, "12 of 20 pages is not done")
        XCTAssertEqual(part.records.first?["done"] as? Bool, false, "short of the target: not done")
        let whole = hm("ana", "done", "read", "--add", "8")
        XCTAssertEqual(whole.records.first?["done"] as? Bool, true)
        XCTAssertEqual(whole.records.first?["amount"] as? Double, 20)
        XCTAssertEqual(whole.records.first?["current_streak"] as? Int, 1)

        let list = hm("ana", "habit", "list")
        let ex = try XCTUnwrap(list.records.first { $0["id"] as? String == "exercise" })
        XCTAssertEqual(ex["every"] as? String, "3/7")
        XCTAssertEqual(ex["frequency"] as? String, "3 times a week")
        XCTAssertEqual(ex["current_streak"] as? Int, 14, "the 9th to today, the 22nd, as Loop counts three a week")
        let strength = try XCTUnwrap(ex["strength"] as? Double)
        XCTAssertTrue((0.1...0.5).contains(strength), "\(strength)")
        let rd = try XCTUnwrap(list.records.first { $0["id"] as? String == "read" })
        XCTAssertEqual(rd["today_amount"] as? Double, 20)
        XCTAssertEqual(rd["unit"] as? String, "pages")

        let weeks = hm("ana", "stats", "exercise").records.filter { $0["type"] as? String == "period" }
        XCTAssertEqual(weeks.map { $0["start"] as? String }, ["2026-11-09", "2026-11-16"])
        XCTAssertEqual(weeks.map { $0["rate"] as? Double }, [1, 1])
        let text = hm("ana", "stats", "--by", "month", "--format", "text")
        XCTAssertTrue(text.out.contains("Exercise · streak 14 (best 14) · strength "), text.out)
        XCTAssertTrue(text.out.contains("  Nov 2026   6/"), text.out)

        let csv = hm("ana", "export", "--format", "csv").out.split(separator: "\n").map(String.init)
        XCTAssertEqual(csv.first, "Date,Exercise,Read every day,")
        XCTAssertEqual(csv[1], "2026-11-22,1,20000,")
        XCTAssertEqual(csv.last, "2026-11-09,2,-1,")
        XCTAssertEqual(hm("ana", "export", "--format", "csv", "--table", "habits").out,
                       "Position,Name,Question,Description,NumRepetitions,Interval,Color\n001,Exercise,,,3,7,\n002,Read every day,,,1,1,\n")
        // A day undone says nothing on stderr, and is gone.
        let undo = hm("ana", "undo", "exercise", "--date", "2026-11-20")
        XCTAssertEqual(undo.code, 0)
        XCTAssertEqual(undo.err, "")
        XCTAssertEqual(hm("ana", "undo", "exercise", "--amount", "3").code, 64, "undo takes no amount")
        XCTAssertEqual(hm("ana", "done", "exercise", "--date", "2026-11-20").code, 0)
        // A week's target: what the seven days ending today hold.
        XCTAssertEqual(hm("ana", "habit", "add", "other:run", "--every", "week", "--target", "15", "--unit", "km").code, 0)
        XCTAssertEqual(hm("ana", "done", "other:run", "--amount", "7.5", "--date", "2026-11-17").code, 0)
        XCTAssertEqual(hm("ana", "done", "other:run", "--amount", "4", "--date", "2026-11-21").code, 0)
        let run = hm("ana", "habit", "list", "--format", "text").lines.last ?? ""
        XCTAssertTrue(run.hasSuffix("· once a week · 11.5/15 km in 7 days"), run)
        XCTAssertEqual(hm("ana", "habit", "rm", "other:run").code, 0)
        let days = hm("ana", "export", "exercise").records
        XCTAssertEqual(days.count, 14)
        XCTAssertEqual(days.first?["mark"] as? Int, 2)
        XCTAssertEqual(days[1]["mark"] as? Int, 1, "the 10th, inside a period done three times")

        // A buddy sees the frequency and the progress; another member only the frequency.
        XCTAssertEqual(hm("cy", "join", "--name", "Cy", "--habit", "exercise").code, 0)
        let stranger = try XCTUnwrap(hm("cy", "profile", "ana").records.first?["habits"] as? [[String: Any]])
        XCTAssertEqual(stranger.first?["frequency"] as? String, "3 times a week")
        XCTAssertNil(stranger.first?["strength"])
        XCTAssertEqual(hm("cy", "stats", "--of", "ana").code, 77)
    }

    func testRefusalsSayWhatIsAcceptedAndChangeNothing() {
        XCTAssertEqual(hm("ana", "join", "--name", "Ana", "--habit", "exercise").code, 0)
        let cases: [([String], String)] = [
            (["habit", "set", "exercise", "--every", "fortnightly-ish"], "habitmatch: --every must be day, week, month, fortnightly, N/week, N/month, N/Md (N times in M days, M up to 365), Nd (every N days), weekdays, weekends or days like mon,wed,fri; not 'fortnightly-ish'\n"),
            (["habit", "set", "exercise", "--every", "8/week"], "habitmatch: --every must be day, week, month, fortnightly, N/week, N/month, N/Md (N times in M days, M up to 365), Nd (every N days), weekdays, weekends or days like mon,wed,fri; not '8/week'\n"),
            (["habit", "set", "exercise", "--target", "1e300"], "habitmatch: --target must be a number from 0.001 to 1000000 like 20 or 2.5 (or off), not '1e300'\n"),
            (["habit", "set", "exercise", "--unit", "km"], "habitmatch: --unit needs a --target: habitmatch habit set exercise --target N --unit km\n"),
            (["habit", "set", "exercise", "--every", "3/week", "--target", "5"], "habitmatch: a measurable habit's target is per day, per week, per month, per N days or per chosen day (--every day, week, month, Nd or days like mon,wed,fri), not 3 times a week\n"),
            (["done", "exercise", "--amount", "3"], "habitmatch: 'exercise' is done or not; to count an amount give it a target: habitmatch habit set exercise --target N --unit UNIT\n"),
            (["habit", "set", "exercise"], "habitmatch: say what to set: --every (day, 3/week, 2/month, 10d, mon,wed,fri …), --target N (or off) or --unit UNIT\n"),
        ]
        for (args, err) in cases {
            let r = run("habitmatch", ["--user", "ana"] + args)
            XCTAssertEqual(r.code, 64, args.joined(separator: " "))
            XCTAssertEqual(r.err, err)
        }
        for bad in ["0x10", "1e-9", "-2", "1,5", "0.0000001", "."] {
            XCTAssertEqual(hm("ana", "habit", "set", "exercise", "--target", bad).code, 64, bad)
        }
        XCTAssertEqual(hm("ana", "habit", "set", "exercise", "--target", "5", "--unit", "km").code, 0)
        XCTAssertEqual(hm("ana", "done", "exercise", "--amount", "-2").code, 64)
        XCTAssertEqual(hm("ana", "done", "exercise", "--amount", "999999", "--add", "5").code, 64)
        XCTAssertEqual(hm("ana", "done", "exercise", "--amount", "999999").code, 0)
        let over = hm("ana", "done", "exercise", "--add", "5")
        XCTAssertEqual(over.code, 64)
        XCTAssertEqual(over.err, "habitmatch: a day holds at most 1000000; it holds 999999\n")
        XCTAssertEqual(hm("ana", "habit", "set", "exercise", "--target", "off").code, 0)
        let after = hm("ana", "habit", "list").records.first
        XCTAssertEqual(after?["every"] as? String, "1/1", "what was refused changed nothing")
        XCTAssertNil(after?["target"])
        XCTAssertEqual(after?["current_streak"] as? Int, 1, "the day done stays done")
    }
}
