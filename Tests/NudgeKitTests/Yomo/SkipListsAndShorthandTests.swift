import XCTest
@testable import NudgeKit

/// What the third adversary of #38 found read wrong without a word (911
/// phrases, 122 silently wrong), now read or refused: a skipped or last day
/// said with an ordinal or in a list ("skip the 24th", "not 23rd or 30th",
/// "last one 16th", "dec 15 is the last one"), a skip with no rule, the
/// hours as rotas write them ("1930hrs"), texting shorthands ("tmw", "wed
/// nite", "thurs eve"), a part of a dated day ("the evening of the 5th"),
/// and rule words or plural parts of the day beside one day. Saturday
/// 2026-11-28 10:00 in New York.
final class SkipListsAndShorthandTests: XCTestCase {
    let h = ReadOrRefuseTests(name: "helpers", testClosure: { _ in })

    func testSkippedDaysAsOrdinalsAndLists() throws {
        let cases: [(String, [String])] = [
            ("band practice every thursday 6pm skip the 24th", ["2026-12-24"]),
            ("piano every thurs 4pm excl. 24th", ["2026-12-24"]),
            ("piano every thurs 4pm, 24th cancelled", ["2026-12-24"]),
            ("piano every thurs 4pm (24th off)", ["2026-12-24"]),
            ("piano every thurs 4pm *not 24th*", ["2026-12-24"]),
            ("choir every wed 7pm, no rehearsal wed 23rd", ["2026-12-23"]),
            ("football every sunday 10am, none on the 27th", ["2026-12-27"]),
            // A later day of a list is on or after the one before it: December's 30th, not November's.
            ("karate every wed 6pm - off 23rd & 30th", ["2026-12-23", "2026-12-30"]),
            ("scouts every tue 7pm excluding dec 22 and dec 29", ["2026-12-22", "2026-12-29"]),
            ("piano thursdays 4pm except xmas eve and new years eve", ["2026-12-24", "2026-12-31"]),
            ("piano every thurs 4pm (hols: none 24th/31st)", ["2026-12-24", "2026-12-31"]),
        ]
        for (phrase, days) in cases {
            let p = h.parse(phrase)
            XCTAssertEqual(p.skips.map(\.description), days, phrase)
            XCTAssertNil(p.date, phrase)
            XCTAssertEqual(p.warnings, [], phrase)
        }
        let occ = try h.occurrences("karate every wed 6pm - off 23rd & 30th", 4)
        XCTAssertEqual(occ, ["2026-12-02 18:00", "2026-12-09 18:00", "2026-12-16 18:00", "2027-01-06 18:00"])
        // A skip of no rule is refused, not read as that day; a word that only may skip is the title's.
        XCTAssertEqual(h.parse("hockey tues 7pm, not the 22nd").warnings.count, 1)
        for phrase in ["call my ex dec 3", "day off dec 23", "pay without fail dec 3"] {
            XCTAssertEqual(h.parse(phrase).warnings, [], phrase)
            XCTAssertNotNil(h.parse(phrase).date, phrase)
        }
        // "the first sunday of the month" is a place in a month, not the 1st.
        XCTAssertEqual(h.parse("every sunday except the first sunday of the month").skips, [])
    }

    func testALastDaySaidWithAnOrdinalEndsTheRule() {
        for phrase in ["tutoring every tuesday at 5, last session is the 15th", "tutoring every tuesday at 5 ending the 15th",
                       "tutoring every tuesday at 5 stopping after the 15th", "tutoring every tuesday at 5, finishes 15th",
                       "tutoring every tuesday at 5 - dec 15 is the last one", "tutoring every tuesday at 5 not after the 15th",
                       "tutoring every tuesday at 5 no more after dec 15", "tutoring every tuesday at 5 end date 15 dec",
                       "tutoring every tuesday at 5 until tue 15th", "tutoring every tuesday at 5 up to and including 15 dec"] {
            let p = h.parse(phrase)
            XCTAssertEqual(p.recurrence.until?.description, "2026-12-15", phrase)
            XCTAssertEqual(p.title, "tutoring", phrase)
            XCTAssertNil(p.date, phrase)
        }
        // Counts yomo does not read are refused, not left to repeat for ever.
        for phrase in ["homework club every mon 3:30, 4 more sessions", "homework club every mon 3:30 for 3 more weeks",
                       "homework club every mon 3:30, 3 sessions left", "homework club every mon 3:30 till the new year"] {
            XCTAssertFalse(h.parse(phrase).unread.isEmpty, phrase)
        }
    }

    func testHoursAsRotasWriteThemAndTextingShorthands() {
        for (phrase, time) in [("shift starts 1930hrs sunday", "19:30"), ("shift starts 1930 hrs sunday", "19:30"),
                               ("shift starts 19:30hrs sunday", "19:30"), ("handover 1930h sunday", "19:30"),
                               ("pick up dry cleaning tmw 5pm", "17:00"), ("put the bins out wed nite", "21:00"),
                               ("dinner thurs eve 7", "19:00"), ("pick up kids weds aft", "14:00")] {
            let p = h.parse(phrase)
            XCTAssertEqual(p.time?.description, time, phrase)
            XCTAssertNotNil(p.date, phrase)
            XCTAssertEqual(p.warnings, [], phrase)
        }
        XCTAssertEqual(h.parse("pick up dry cleaning tmw 5pm").date?.description, "2026-11-29")
        XCTAssertEqual(h.parse("christmas eve dinner").date?.description, "2026-12-24")  // "eve" after no day is the holiday's
        // Midnight as 24:00, a start or an end with no hour, minutes with no hour: refused.
        for phrase in ["test 24:00 tomorrow", "2400 drug round", "party sat from 7", "nap til 2", "leave at 20 past", "delivery slot 10am-12 sat"] {
            XCTAssertFalse(h.parse(phrase).unread.isEmpty, phrase)
        }
        XCTAssertNil(h.parse("call the 0800 number monday").time)  // a phone number's prefix
    }

    func testDaysOfTheMonthAndPartsOfThem() {
        for (phrase, date, time) in [("the evening of the 5th drinks", "2026-12-05", "18:00"), ("morning of the 24th collect turkey", "2026-12-24", "08:00"),
                                     ("afternoon of 31st dec set up party", "2026-12-31", "14:00"), ("tuesday the 8th parents evening 6pm", "2026-12-08", "18:00"),
                                     ("nurse shift 14th 7am-7pm", "2026-12-14", "07:00"), ("pay by 20th latest", "2026-12-20", nil),
                                     ("pay rent first of the month", "2026-12-01", nil)] {
            let p = h.parse(phrase)
            XCTAssertEqual(p.date?.description, date, phrase)
            XCTAssertEqual(p.time?.description, time, phrase)
            XCTAssertEqual(p.warnings, [], phrase)
        }
        // "the week of the 14th": its Monday, said.
        XCTAssertEqual(h.parse("week of the 14th on call").date?.description, "2026-12-14")
        XCTAssertEqual(h.parse("week of the 14th on call").title, "on call")
        for phrase in ["post cards by 18th last posting day", "lab report due 3.12", "call 9am NZT thursday",
                       "call 9am GMT+1 thursday", "call 9am +0530 thursday", "bins every monday, not bank holidays"] {
            XCTAssertFalse(h.parse(phrase).unread.isEmpty, phrase)
        }
        // An MOT is no zone.
        XCTAssertEqual(h.parse("the 3rd of Feb at 10:30 MOT for the fiesta").unread, [])
    }

    func testRuleWordsAndPluralPartsOfTheDayBesideOneDay() {
        // A rule word before a word of the title, with one day: read as the rule, and said.
        for phrase in ["cancel monthly gym membership tomorrow", "Monthly Review with boss friday 2pm", "change daily contacts tomorrow"] {
            let p = h.parse(phrase)
            XCTAssertTrue(p.recurrence.repeats, phrase)
            XCTAssertTrue(p.assumptions.contains { $0.contains("if it only names the thing") }, "\(phrase): \(p.assumptions)")
        }
        // A plural part of the day with one day: refused.
        for phrase in ["working nights tomorrow", "evenings free tuesday", "swap nights with jo for the 14th"] {
            XCTAssertNotNil(h.parse(phrase).conflict, phrase)
        }
        XCTAssertNil(h.parse("yoga mornings from monday").conflict)
    }

    /// Table P's silent readings at first look, read or refused.
    func testTablePsClasses() throws {
        let pay = h.parse("pay venue deposit installment on the 1st of every month, 6 payments")
        XCTAssertEqual(pay.recurrence.count, 6)
        XCTAssertEqual(pay.title, "pay venue deposit installment")
        XCTAssertEqual(try h.occurrences("pay venue deposit installment on the 1st of every month, 6 payments", 10).count, 6)
        XCTAssertEqual(h.parse("crew van pickup 1430Z mon").time?.description, "09:30")  // 14:30 UTC in New York in winter
        XCTAssertEqual(h.parse("ring Margaret a fortnight on Monday").date?.description, "2026-12-14")
        for phrase in ["ping the DJ every day til the wedding", "move the heifers at first light", "milk the cows at daybreak"] {
            XCTAssertFalse(h.parse(phrase).unread.isEmpty, phrase)
        }
        // "6 payments" without a rule, or before a word of the title, is the title's.
        XCTAssertNil(h.parse("make 6 payments tomorrow").recurrence.count)
    }

    /// The fourth adversary's classes (964 phrases, 74 silently wrong on the binary before these rules).
    func testFourthAdversarysClasses() {
        // A bare or dotted hour left in the title is refused, not set at the next full hour.
        for phrase in ["daily standup 9", "meds every day 9 and 21", "bus 7.48 weekdays", "tram 17.32", "catch the 8.02 train tomorrow",
                       "school pickup 3", "obs every 4 hours overnight", "check in on dad every 2 hours during the day",
                       "every 15 minutes for the next hour check bread", "after friday send quote", "check email work days 8am",
                       "christmas carols 6pm", "course of 5 injections weekly", "raksha bandhan", "world book day costume"] {
            XCTAssertFalse(h.parse(phrase).unread.isEmpty, phrase)
        }
        for phrase in ["vitamins every day 9", "4 on 4 off shifts starting monday", "twelfth night take decorations down"] {
            XCTAssertFalse(h.parse(phrase).unread.isEmpty, phrase)
        }
        XCTAssertNotNil(h.parse("every morning at 7 and every evening at 7 meds").conflict)
        XCTAssertEqual(h.parse("pump every 3 hours overnight too").unread, [])
        // Not a chapter, a price or a version.
        for phrase in ["read chapter 3", "buy milk 1.50", "install node 20.11 friday"] { XCTAssertEqual(h.parse(phrase).unread, [], phrase) }
        // Days named for what happens on them; a holiday named in full before a word of the title is the day.
        for (phrase, date) in [("hogmanay party 8pm", "2026-12-31"), ("guy fawkes bonfire 7pm", "2027-11-05"), ("all saints day mass", "2027-11-01"),
                               ("christmas eve carols 6pm", "2026-12-24"), ("pi day pie 3pm", "2027-03-14"), ("melbourne cup day sweep", "2027-11-02")] {
            XCTAssertEqual(h.parse(phrase).date?.description, date, phrase)
        }
        // Prescriptions' Latin and half-yearly rules.
        XCTAssertEqual(h.parse("bd eye drops").recurrence.set?.rrules.first?.byHour, [9, 21])
        XCTAssertEqual(h.parse("tds antibiotics").recurrence.set?.rrules.first?.byHour, [8, 14, 20])
        XCTAssertEqual(h.parse("semi-annual dentist checkup").recurrence.effective.interval, 6)
        // The title's part of the day settles a bare hour.
        XCTAssertEqual(h.parse("morning prayer every day at 6").time?.description, "06:00")
        XCTAssertEqual(h.parse("evening meds at 8").time?.description, "20:00")
        // Counts after "for", and spaces that do not break.
        XCTAssertEqual(h.parse("physio every tuesday for 6 sessions").recurrence.count, 6)
        XCTAssertEqual(h.parse("call mum tomorrow\u{00A0}at\u{00A0}5pm").time?.description, "17:00")
        // A plural day's rule and another day: refused; a rule word before a word of the title with a time: said.
        XCTAssertNotNil(h.parse("return Tuesdays with Morrie to library on thursday").conflict)
        XCTAssertTrue(h.parse("weekly shop at 5pm").assumptions.contains { $0.contains("if it only names the thing") })
        XCTAssertFalse(h.parse("fortnightly payroll on friday").assumptions.contains { $0.contains("if it only names the thing") })
    }

    /// The fifth adversary's classes (677 phrases, 29 silently wrong) and table Q's two.
    func testFifthAdversarysClasses() throws {
        // A capitalised name before a plural day: the rule, unless another day is said or the name is a place.
        for (phrase, days) in [("call Mum Thursdays at 1pm", [4]), ("meet Sarah Fridays at noon", [5]), ("call Mum Mondays and Thursdays at 1pm", [1, 4]),
                               ("invoice Acme Ltd Fridays", [5])] {
            XCTAssertEqual(h.parse(phrase).recurrence.days, days, phrase)
        }
        XCTAssertEqual(h.parse("dinner at TGI Fridays sun 7pm").recurrence, .once)
        XCTAssertEqual(h.parse("book table at TGI Fridays for 7pm").recurrence, .once)
        XCTAssertEqual(h.parse("see Tom Christmas Eve at 5pm").date?.description, "2026-12-24")
        // Misspelt "every", half-yearly and two-yearly words.
        for phrase in ["walk the dog evey day at 7am", "feed fish eveyr day", "pay rent ervery month on the 1st", "call mum ever Sunday at 5"] {
            XCTAssertTrue(h.parse(phrase).recurrence.repeats, phrase)
        }
        XCTAssertEqual(h.parse("did you ever call").recurrence, .once)
        XCTAssertEqual(h.parse("biannual boiler check").recurrence.effective.interval, 6)
        XCTAssertEqual(h.parse("biennial car inspection").recurrence.effective.interval, 2)
        // A zone's IANA name after a one-off's time is that zone's clock; after a rule's, refused.
        XCTAssertEqual(h.parse("call 9:30am America/Los_Angeles monday").time?.description, "12:30")
        // Only that shape: a path or a POSIX rule in a sentence is never opened or read as a zone.
        for raw in ["/etc/localtime", "../../etc/passwd", "EST5EDT", "America/../Europe/Paris", "/dev/zero"] {
            XCTAssertNil(ReminderParser.ParseState.ianaZone(raw), raw)
        }
        XCTAssertEqual(h.parse("call 9:30am /etc/localtime monday").time?.description, "09:30")
        for phrase in ["standup 9:30 AM America/Los_Angeles every weekday", "flight lands 6:40am local time in Dubai on Dec 10",
                       "every month on the last weekday send report", "every quarter end file accounts", "check ketones a few times a day"] {
            XCTAssertFalse(h.parse(phrase).warnings.isEmpty, phrase)
        }
        // Feb 29 each year: the 28th in other years, said.
        XCTAssertTrue(h.parse("every year on Feb 29 leap day party").assumptions.contains { $0.contains("Feb 28") })
        XCTAssertEqual(try h.occurrences("every year on Feb 29 leap day party", 2).map { String($0.prefix(10)) }, ["2028-02-29", "2029-02-28"])
        // "don't forget" leads in; "at school" is a place.
        XCTAssertEqual(h.parse("dont forget timesheets every mon").title, "timesheets")
        XCTAssertEqual(h.parse("thurs eve parents evening at school").warnings, [])
    }
}
