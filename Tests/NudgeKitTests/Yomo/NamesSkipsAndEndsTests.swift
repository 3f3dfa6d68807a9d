import XCTest
@testable import NudgeKit

/// What the second adversary of #38 found read wrong without a word, now
/// read or refused: a day or rule word inside a name ("TGI Fridays", "the
/// Daily Mail"), a rule's skipped day or last day said after it ("not on
/// dec 23", "last session dec 17"), a day of the month with no "the"
/// ("Friday 11th"), "day before christmas" without "the", and a time in
/// another zone. Saturday 2026-11-28 10:00 in New York.
final class NamesSkipsAndEndsTests: XCTestCase {
    let h = ReadOrRefuseTests(name: "helpers", testClosure: { _ in })

    func testADayOrRuleWordInANameIsTheName() {
        let tgi = h.parse("dinner at TGI Fridays tomorrow 7pm")
        XCTAssertEqual(tgi.title, "dinner at TGI Fridays")
        XCTAssertEqual(tgi.date?.description, "2026-11-29")
        XCTAssertEqual(tgi.time?.description, "19:00")
        XCTAssertEqual(tgi.recurrence, .once)
        XCTAssertEqual(tgi.warnings, [])
        let mail = h.parse("buy the Daily Mail tomorrow")
        XCTAssertEqual(mail.title, "buy the Daily Mail")
        XCTAssertEqual(mail.recurrence, .once)
        XCTAssertEqual(h.parse("file the Monthly Return by friday").recurrence, .once)
        // First in the sentence, or in a sentence all in capitals, it is still the rule.
        XCTAssertEqual(h.parse("Daily standup at 9am").recurrence.kind, .daily)
        XCTAssertEqual(h.parse("Pay Rent Fridays").recurrence.days, [5])
        XCTAssertEqual(h.parse("team lunch Fridays at noon").recurrence.days, [5])
    }

    /// A weekly rule's days and a date on another weekday, with no
    /// "starting" to make the date the first: refused, whichever was meant.
    func testAWeeklyRuleAndADateThatDisagreeAreRefused() {
        for phrase in ["Happy Mondays gig tomorrow 8pm", "every friday tomorrow", "yoga tuesdays dec 3"] {
            let p = h.parse(phrase)
            XCTAssertNotNil(p.conflict, phrase)
            XCTAssertTrue(p.conflict?.contains("starting") == true, "\(phrase): \(p.conflict ?? "")")
        }
        // "starting", "from": the date is the rule's first.
        XCTAssertNil(h.parse("gym Mondays and Thursdays from dec 1").conflict)
        XCTAssertNil(h.parse("every friday at 5pm starting next week").conflict)
        XCTAssertNil(h.parse("every friday starting tomorrow").conflict)
        // A date on one of the rule's days is its first.
        XCTAssertNil(h.parse("yoga tuesdays dec 1").conflict)
    }

    func testADaySkippedAfterARuleIsCancelledAndTheRuleGoesOn() throws {
        for phrase in ["choir every Wed 7pm, not on Dec 23", "choir every wed 7pm (no choir on 23 Dec)", "choir every wed 7pm skip dec 23",
                       "choir every wed 7pm except dec 23", "choir every wed 7pm but not on the 23rd of december"] {
            XCTAssertEqual(h.parse(phrase).title, "choir", phrase)
            XCTAssertEqual(h.parse(phrase).skips.map(\.description), ["2026-12-23"], phrase)
            XCTAssertEqual(try h.occurrences(phrase, 5),
                           ["2026-12-02 19:00", "2026-12-09 19:00", "2026-12-16 19:00", "2026-12-30 19:00", "2027-01-06 19:00"], phrase)
        }
        // Several times on the skipped day: all of them.
        let meds = try h.occurrences("meds every day at 8am and 8pm skip dec 1", 8)
        XCTAssertFalse(meds.contains { $0.hasPrefix("2026-12-01") }, "\(meds)")
        XCTAssertEqual(meds.count, 8)
        // A named day: "except christmas".
        XCTAssertEqual(h.parse("gym every day except christmas").skips.map(\.description), ["2026-12-25"])
        // A day the rule does not fall on is refused, not dropped.
        let p = h.parse("choir every Wed 7pm, not on Dec 22")
        XCTAssertThrowsError(try Yomo.form(parsed: p, options: ReminderFormOptions(), now: h.now, zone: h.ny)) { e in
            XCTAssertTrue((e as? ToolError)?.message.contains("no occurrence on Tue 2026-12-22") == true, "\(e)")
        }
        // Without a rule, the words are a date: "no school dec 23" is that day.
        XCTAssertEqual(h.parse("no school dec 23").date?.description, "2026-12-23")
        XCTAssertEqual(h.parse("no school dec 23").skips, [])
    }

    func testALastDaySaidAfterARuleEndsIt() {
        let cases = [("pilates every thursday 6pm last session Dec 17", "2026-12-17", "pilates"),
                     ("class every tue 6pm finishes 15 Dec", "2026-12-15", "class"),
                     ("standup every weekday 9am to Dec 16", "2026-12-16", "standup"),
                     ("yoga every sunday ends on jan 31", "2027-01-31", "yoga"),
                     ("swim every monday final class on 14 dec", "2026-12-14", "swim")]
        for (phrase, until, title) in cases {
            let p = h.parse(phrase)
            XCTAssertEqual(p.recurrence.until?.description, until, phrase)
            XCTAssertEqual(p.title, title, phrase)
            XCTAssertNil(p.date, phrase)
            XCTAssertEqual(p.warnings, [], phrase)
        }
        // With no rule, it is the day: "project finishes dec 16".
        XCTAssertEqual(h.parse("project finishes dec 16").date?.description, "2026-12-16")
    }

    func testADayOfTheMonthWithoutThe() {
        let play = h.parse("school play Friday 11th 6pm")
        XCTAssertEqual(play.title, "school play")
        XCTAssertEqual(play.date?.description, "2026-12-11")
        XCTAssertEqual(play.time?.description, "18:00")
        XCTAssertNotNil(h.parse("school play Thursday 11th 6pm").conflict)  // the 11th is a Friday
        XCTAssertEqual(h.parse("pay rent 1st").date?.description, "2026-12-01")
        XCTAssertEqual(h.parse("parents evening 17th at 7").date?.description, "2026-12-17")
        // A number of the title stays there.
        XCTAssertNil(h.parse("fix 2nd floor sink").date)
        XCTAssertEqual(h.parse("Sam's 17th birthday party saturday").title, "Sam's 17th birthday party")
        // A range of days is refused, not left in the title.
        XCTAssertEqual(h.parse("conference Dec 3rd-5th").unread.count, 1)
    }

    func testDaysCountedFromANamedDayWithoutThe() {
        XCTAssertEqual(h.parse("buy cake day before christmas").date?.description, "2026-12-24")
        XCTAssertEqual(h.parse("buy cake day before christmas").title, "buy cake")
        let night = h.parse("wrap presents night before christmas")
        XCTAssertEqual(night.date?.description, "2026-12-24")
        XCTAssertEqual(night.time?.description, "21:00")
        XCTAssertEqual(h.parse("book hotel 4 days ahead of christmas").date?.description, "2026-12-21")
        XCTAssertEqual(h.parse("pack 1 day prior to dec 10").date?.description, "2026-12-09")
    }

    /// A one-off's time in another zone is that zone's clock, set at the
    /// same instant here and said; after a rule's time, or a zone no word
    /// names ("her time", "IST" of three zones), it is refused.
    func testATimeInAnotherZoneIsThatZonesClock() throws {
        let cases = [("call mom 7pm (PST) tomorrow", "2026-11-29 22:00"), ("mon 9am Berlin time call w/ Klaus", "2026-11-30 03:00"),
                     ("3pm GMT tues invoice call", "2026-12-01 10:00"), ("wed 8am tokyo time call Kenji", "2026-12-01 18:00"),
                     // No day said: that clock's next 9am (London's passed at 14:00 there).
                     ("call mom at 9am London time", "2026-11-29 04:00"), ("webinar 2pm PST friday", "2026-12-04 17:00")]
        for (phrase, when) in cases {
            XCTAssertEqual(try h.occurrences(phrase, 2), [when], phrase)
            XCTAssertEqual(h.parse(phrase).assumptions.filter { $0.contains("in America/New_York") }.count, 1, phrase)
        }
        XCTAssertEqual(h.parse("mon 9am Berlin time call w/ Klaus").title, "call w/ Klaus")
        // Summer in Berlin and winter in New York: the zone's own rules, not a fixed offset.
        XCTAssertEqual(try h.occurrences("call Klaus july 1 9am berlin time", 1), ["2027-07-01 03:00"])
        // The reminder's own zone is read and says nothing new ("EST" in New York in winter).
        XCTAssertEqual(h.parse("webinar 2pm (EST) friday").unread, [])
        XCTAssertEqual(h.parse("webinar 2pm (EST) friday").time?.description, "14:00")
        XCTAssertEqual(h.parse("webinar 2pm (EST) friday").title, "webinar")
        for (phrase, said) in [("daily standup 9am PST", "PST"), ("call mom at 9am her time", "her time")] {
            XCTAssertEqual(h.parse(phrase).unread, ["could not read '\(said)' as a date or time: the reminder's zone is set with --tz"], phrase)
        }
        XCTAssertFalse(h.parse("standup 10:30 IST tomorrow").unread.isEmpty)
        // Physical therapy, and one's own time, are no zones.
        XCTAssertEqual(h.parse("PT appointment 3pm").unread, [])
        XCTAssertEqual(h.parse("standup 9am my time").unread, [])
    }

    /// Table O's and the adversary's smaller classes: each read, or refused naming its words.
    func testSmallerClassesReadOrRefused() {
        XCTAssertEqual(h.parse("dentist tomorrow week").date?.description, "2026-12-06")
        XCTAssertEqual(h.parse("dentist tomorrow week").title, "dentist")
        XCTAssertEqual(h.parse("half 6 tea at nans").time?.description, "18:30")
        XCTAssertEqual(h.parse("half 6 tea at nans").title, "tea at nans")
        XCTAssertEqual(h.parse("tonight 8.30 watch the match w/ dad").warnings, [])  // "match" is no misspelt "march"
        let apart = h.parse("walk the dogs daily at 11 apart from sundays")
        XCTAssertEqual(apart.recurrence.days, [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(apart.title, "walk the dogs")
        XCTAssertEqual(h.parse("gym every day apart from dec 25").skips.map(\.description), ["2026-12-25"])
        XCTAssertEqual(h.parse("dinner at TGI Fridays sun 7pm").date?.description, "2026-11-29")
        XCTAssertEqual(h.parse("dinner at TGI Fridays sun 7pm").recurrence, .once)
        let club = h.parse("every 2 wks sat mornings long run w/ club")
        XCTAssertNil(club.conflict)
        XCTAssertEqual(club.date?.description, "2026-12-05")
        for (phrase, said) in [("in 90 check the oven", "in 90"), ("2 puffs morning & night", "morning & night"),
                               ("stretch every hour during work hours", "during work hours")] {
            XCTAssertEqual(h.parse(phrase).unread, ["could not read '\(said)' as a date or time"], phrase)
        }
        // A bare hour ending a rule's part of the day is in that part: "every night 11" is 23:00, "every morning 7" 07:00.
        XCTAssertEqual(h.parse("lights off every night 11").time?.description, "23:00")
        XCTAssertEqual(h.parse("gym every morning 7").time?.description, "07:00")
        XCTAssertEqual(h.parse("gym every morning 7").title, "gym")
        XCTAssertEqual(h.parse("cut the cake in 8 pieces").unread, [])
    }
}
