import XCTest
@testable import NudgeKit

final class HabitmatchTests: XCTestCase {
    let now = RFC3339.parse("2026-11-22T15:00:00Z")!.instant

    func member(_ u: String, _ habits: [String], tz: String = "America/New_York", active: Int64 = 0) -> Habitmatch.Member {
        Habitmatch.Member(user: u, name: u.uppercased(), email: nil, timezone: tz, bio: "",
                          habits: habits.map { Habitmatch.Habit(id: $0, name: $0, remindAt: nil) },
                          joinedAt: Instant(ms: 0), lastActive: Instant(ms: active))
    }

    func rank(_ me: Habitmatch.Member, _ pool: [Habitmatch.Member], liked: Set<String> = [], passed: Set<String> = [],
              matched: Set<String> = [], buddies: Set<String> = []) -> [String] {
        Habitmatch.candidates(for: me, in: pool, liked: liked, passed: passed, matched: matched, buddies: buddies, now: now,
                              zoneMinutes: { Habitmatch.zoneDistance($0, $1, at: self.now) }).map(\.member.user)
    }

    func testRankingSharedHabitsThenZoneThenActivity() {
        let me = member("me", ["read", "exercise", "code"])
        let pool = [me,
                    member("far2", ["read", "exercise"], tz: "Asia/Tokyo"),
                    member("near2", ["read", "exercise"], tz: "America/Chicago"),
                    member("near1old", ["code"], tz: "America/New_York", active: 1),
                    member("near1new", ["read"], tz: "America/New_York", active: 9),
                    member("none", ["meditate"]),
                    member("all3", ["read", "exercise", "code"], tz: "Australia/Sydney")]
        XCTAssertEqual(rank(me, pool), ["all3", "near2", "far2", "near1new", "near1old"])
    }

    func testExclusionsAndLoopBack() {
        let me = member("me", ["read"])
        let pool = [me, member("a", ["read"]), member("b", ["read"]), member("c", ["read"]), member("d", ["read"]), member("e", ["read"])]
        XCTAssertEqual(rank(me, pool, liked: ["a"], passed: ["b"], matched: ["c"], buddies: ["d"]), ["e"])
        // Nobody new: the ones passed come round again, so everyone gets a chance.
        XCTAssertEqual(rank(me, pool, liked: ["a"], passed: ["b", "e"], matched: ["c"], buddies: ["d"]), ["b", "e"])
        XCTAssertEqual(rank(me, [me]), [])
    }

    func fold(_ events: [(String, JSONObject)]) -> HabitmatchState {
        var s = HabitmatchState(full: true)
        for (who, e) in events {
            var t = e
            t["actor"] = .string(who)
            s.apply(t)
        }
        return s
    }

    func joined(_ u: String) -> (String, JSONObject) {
        (u, ["type": "joined", "name": .string(u), "timezone": "UTC", "habits": .array([.object(["id": "read", "name": "Read"])])])
    }

    func like(_ a: String, _ b: String, _ right: Bool = true) -> (String, JSONObject) {
        (a, ["type": "swiped", "target": .string(b), "right": .bool(right)])
    }

    func testMutualLikesMatchWhateverTheOrder() {
        let base = [joined("a"), joined("b"), joined("c")]
        for events in [base + [like("a", "b"), like("b", "a")], base + [like("b", "a"), like("a", "b")]] {
            let s = fold(events)
            XCTAssertTrue(s.isMatch("a", "b"))
            XCTAssertTrue(s.isMatch("b", "a"))
            XCTAssertEqual(s.matches(of: "a"), ["b"])
        }
        XCTAssertFalse(fold(base + [like("a", "b")]).isMatch("a", "b"))
        XCTAssertFalse(fold(base + [like("a", "b"), like("b", "a", false)]).isMatch("a", "b"), "a pass is not a like")
        XCTAssertFalse(fold(base + [like("a", "b", false), like("b", "a"), like("a", "b")]) .passed(by: "a").contains("b"), "the latest swipe counts")
        XCTAssertTrue(fold(base + [like("a", "b"), like("b", "a"), like("a", "b", false)]).isMatch("a", "b"), "a left swipe does not end a match")
        let parted = fold(base + [like("a", "b"), like("b", "a"), ("a", ["type": "buddy_accept", "user": "b"]), ("b", ["type": "buddy_accept", "user": "a"]),
                                  ("a", ["type": "unmatch", "user": "b"]), like("a", "b"), like("b", "a")])
        XCTAssertTrue(parted.isMatch("a", "b"), "both liked again")
        XCTAssertFalse(parted.isBuddy("a", "b"), "but a new like does not restore the bond without new accepts")
        // Nobody writes as someone else: the journal decides who acted.
        let forged = fold(base + [("a", ["type": "swiped", "target": "b", "right": true, "user": "c"])])
        XCTAssertTrue(forged.liked(by: "a").contains("b"))
        XCTAssertTrue(forged.liked(by: "c").isEmpty)
        // Buddies need a match and both accepts.
        let s = fold(base + [like("a", "b"), like("b", "a"), ("a", ["type": "buddy_accept", "user": "b"])])
        XCTAssertFalse(s.isBuddy("a", "b"))
        let t = fold(base + [like("a", "b"), like("b", "a"), ("a", ["type": "buddy_accept", "user": "b"]), ("b", ["type": "buddy_accept", "user": "a"])])
        XCTAssertTrue(t.isBuddy("a", "b"))
        XCTAssertEqual(t.buddies(of: "b"), ["a"])
    }

    func testStreaksAcrossMonthEndsAndYears() {
        let d = { (s: String) in Day.parse(s)! }
        let days: Set<Day> = [d("2026-12-29"), d("2026-12-30"), d("2026-12-31"), d("2027-01-01"), d("2027-01-02"),
                              d("2027-01-05"), d("2027-01-06")]
        XCTAssertEqual(Habitmatch.streaks(days, today: d("2027-01-06")).current, 2)
        XCTAssertEqual(Habitmatch.streaks(days, today: d("2027-01-06")).longest, 5)
        XCTAssertEqual(Habitmatch.streaks(days, today: d("2027-01-07")).current, 2, "today not marked yet: the streak ends yesterday")
        XCTAssertEqual(Habitmatch.streaks(days, today: d("2027-01-08")).current, 0)
        XCTAssertEqual(Habitmatch.streaks(days, today: d("2027-01-02")).current, 5)
        let leap: Set<Day> = [d("2028-02-28"), d("2028-02-29"), d("2028-03-01")]
        XCTAssertEqual(Habitmatch.streaks(leap, today: d("2028-03-01")).current, 3)
        // The day of a mark follows the member's zone, DST days included.
        let ny = try! Zone.named("America/New_York")
        XCTAssertEqual(ny.day(of: RFC3339.parse("2026-11-02T04:59:00Z")!.instant).description, "2026-11-01")
        XCTAssertEqual(ny.day(of: RFC3339.parse("2026-03-09T03:59:00Z")!.instant).description, "2026-03-08")
    }

    func testMonthGrid() {
        let nov = Habitmatch.monthGrid(year: 2026, month: 11)  // starts on a Sunday
        XCTAssertEqual(nov.count, 6)
        XCTAssertEqual(nov[0].compactMap { $0 }.map(\.day), [1])
        XCTAssertEqual(nov[0].prefix(6).allSatisfy { $0 == nil }, true)
        XCTAssertEqual(nov.flatMap { $0 }.compactMap { $0 }.count, 30)
        let feb = Habitmatch.monthGrid(year: 2027, month: 2)  // starts on a Monday, 28 days: exactly four rows
        XCTAssertEqual(feb.count, 4)
        XCTAssertTrue(feb.allSatisfy { $0.count == 7 })
    }

    /// The .ics parsed back: CRLF, folding at 75 octets (never inside a
    /// character), escapes undone, every field there.
    func testICSParsesBackFieldByField() {
        let desc = "Check-in; one, two\nthree \\ four — ünïcødé ♣ " + String(repeating: "é", count: 60)
        let m = Habitmatch.Meeting(id: "m1", organizer: "ana", attendee: "cy", start: LocalDateTime(day: Day(year: 2026, month: 11, day: 24), time: TimeOfDay(hour: 18, minute: 0)),
                                   timezone: "America/New_York", minutes: 25, weekly: true, description: desc, createdAt: now)
        let text = Habitmatch.meetingsCalendar([m], emails: ["ana": "ana@example.com", "cy": "cy@example.com"], names: ["ana": "Ana, A.", "cy": "Cy"], now: now)
        XCTAssertTrue(text.hasSuffix("\r\n"))
        let physical = text.components(separatedBy: "\r\n").dropLast()
        for l in physical {
            XCTAssertLessThanOrEqual(l.utf8.count, 75, "longer than 75 octets: \(l)")
            XCTAssertFalse(l.contains("\n"), "bare LF")
            XCTAssertNotNil(String(validating: Array(l.utf8), as: UTF8.self))
        }
        // Unfold: CRLF followed by a space continues the previous line.
        var logical: [String] = []
        for l in physical { if l.hasPrefix(" ") { logical[logical.count - 1] += l.dropFirst() } else { logical.append(l) } }
        let event = Array(logical[logical.firstIndex(of: "BEGIN:VEVENT")!...logical.firstIndex(of: "END:VEVENT")!])
        func prop(_ name: String) -> String? {
            (event + logical).first { $0.hasPrefix(name + ":") || $0.hasPrefix(name + ";") }.map { String($0[$0.index(after: $0.firstIndex(of: ":")!)...]) }
        }
        func unescape(_ s: String) -> String {
            var out = ""
            var esc = false
            for c in s {
                if esc { out.append(c == "n" || c == "N" ? "\n" : c); esc = false } else if c == "\\" { esc = true } else { out.append(c) }
            }
            return out
        }
        XCTAssertEqual(logical.first, "BEGIN:VCALENDAR")
        XCTAssertEqual(logical.last, "END:VCALENDAR")
        XCTAssertEqual(prop("VERSION"), "2.0")
        XCTAssertEqual(prop("UID"), "m1@habitmatch")
        XCTAssertEqual(prop("DTSTAMP"), "20261122T150000Z")
        XCTAssertEqual(logical.first { $0.hasPrefix("DTSTART;") }, "DTSTART;TZID=America/New_York:20261124T180000")
        XCTAssertEqual(prop("DURATION"), "PT25M")
        XCTAssertEqual(prop("RRULE"), "FREQ=WEEKLY")
        XCTAssertEqual(unescape(prop("DESCRIPTION")!), desc)
        XCTAssertEqual(prop("SUMMARY").map(unescape), "Habit check-in: Ana, A. and Cy")
        XCTAssertTrue(logical.contains("ORGANIZER;CN=\"Ana, A.\":mailto:ana@example.com"))
        XCTAssertTrue(logical.contains("ATTENDEE;CN=\"Cy\";RSVP=TRUE:mailto:cy@example.com"))
        XCTAssertTrue(logical.contains("TZID:America/New_York"))
        XCTAssertTrue(logical.contains("RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU"))
        XCTAssertTrue(logical.contains("DTSTART:19700308T020000"))
        XCTAssertEqual(ICS.escape("a,b;c\\d\ne"), "a\\,b\\;c\\\\d\\ne")
        // A zone without daylight saving gets a fixed VTIMEZONE; no email, no ATTENDEE.
        var k = m
        k.timezone = "Asia/Kolkata"
        let t2 = Habitmatch.meetingsCalendar([k], emails: [:], names: [:], now: now)
        XCTAssertTrue(t2.contains("TZOFFSETTO:+0530"))
        XCTAssertFalse(t2.contains("ATTENDEE"))
    }

    func testRemindersComeOnce() {
        var events = [joined("a"), joined("b"), like("a", "b"), like("b", "a"),
                      ("a", ["type": "habit_remind", "id": "read", "time": "20:00"])]
        for k in 0..<7 { events.append(("a", ["type": "done", "habit": "read", "date": .string(Day(year: 2026, month: 11, day: 15 + k).description)])) }
        events.append(("a", ["type": "meeting", "id": "m", "with": "b", "start": "2026-11-22T21:00:00", "timezone": "UTC", "minutes": 30]))
        var s = fold(events)
        let at = { (t: String) in RFC3339.parse(t)!.instant }
        var keys = Habitmatch.reminders(s, user: "a", now: at("2026-11-22T19:00:00Z")).map(\.key)
        XCTAssertEqual(Set(keys), ["match|b", "milestone|read|7|2026-11-15"])
        for k in keys { s.apply(["type": "reminded", "key": .string(k), "actor": "a"]) }
        XCTAssertTrue(Habitmatch.reminders(s, user: "a", now: at("2026-11-22T19:30:00Z")).isEmpty)
        keys = Habitmatch.reminders(s, user: "a", now: at("2026-11-22T20:50:00Z")).map(\.key)
        XCTAssertEqual(Set(keys), ["habit|read|2026-11-22", "meeting|m|\(at("2026-11-22T21:00:00Z").ms)"])
        for k in keys { s.apply(["type": "reminded", "key": .string(k), "actor": "a"]) }
        XCTAssertTrue(Habitmatch.reminders(s, user: "a", now: at("2026-11-22T20:55:00Z")).isEmpty)
        s.apply(["type": "done", "habit": "read", "date": "2026-11-23", "actor": "a"])
        XCTAssertTrue(Habitmatch.reminders(s, user: "a", now: at("2026-11-23T20:30:00Z")).isEmpty, "done today: no habit reminder")
    }

    func testHabitCatalogAndOwnHabits() throws {
        XCTAssertGreaterThanOrEqual(Habitmatch.catalog.count, 12)
        XCTAssertEqual(Set(Habitmatch.catalog.map(\.id)).count, Habitmatch.catalog.count)
        XCTAssertEqual(try Habitmatch.habit("Meditate").id, "meditate")
        XCTAssertEqual(try Habitmatch.habit("other:Practise drawing!").id, "other:practise-drawing")
        XCTAssertThrowsError(try Habitmatch.habit("meditat")) { e in
            XCTAssertEqual((e as! ToolError).message, "unknown habit 'meditat' (did you mean 'meditate'?): see 'habitmatch catalog', or use other:TEXT")
        }
        XCTAssertThrowsError(try Habitmatch.habit("other:"))
    }
}

/// The zones a host-pool command loads ahead (so which zone files it opens
/// follows the profiles, not what it folds): the file depends on the set of
/// zones only, and reading it back gives that set.
final class HabitmatchZonesAheadTests: XCTestCase {
    let zones = ["America/New_York", "Europe/London", "Asia/Kolkata", "Australia/Sydney", "UTC", "America/Los_Angeles", "Africa/Lagos"]

    func member(_ u: String, _ tz: String) -> Habitmatch.Member {
        Habitmatch.Member(user: u, name: u, email: nil, timezone: tz, bio: "", habits: [], joinedAt: Instant(ms: 0), lastActive: Instant(ms: 0))
    }

    func testTheFileFollowsTheSetOfZonesOnly() {
        var rng = SeededRandom(seed: 40)
        for _ in 0..<200 {
            let n = Int(rng.next() % 30) + 1
            var a: [String: Habitmatch.Member] = [:], b: [String: Habitmatch.Member] = [:]
            var used = Set<String>()
            for k in 0..<n {
                let z = zones[Int(rng.next() % UInt64(zones.count))]
                used.insert(z)
                a["u\(k)"] = member("u\(k)", z)
            }
            // The same zones held by other people, in another order, some held twice.
            for (k, z) in used.sorted().reversed().enumerated() { b["w\(k)"] = member("w\(k)", z); b["x\(k)"] = member("x\(k)", z) }
            XCTAssertEqual(Habitmatch.zonesFile(a), Habitmatch.zonesFile(b))
            XCTAssertEqual(Habitmatch.zonesToLoad(fromFile: Habitmatch.zonesFile(a)), used.sorted())
        }
    }

    func testAFileFromElsewhereIsReadWithinBounds() {
        XCTAssertEqual(Habitmatch.zonesToLoad(fromFile: "\n\nUTC\nUTC\n\nEurope/London"), ["UTC", "Europe/London"])
        XCTAssertEqual(Habitmatch.zonesToLoad(fromFile: ""), [])
        let many = (0..<5000).map { "Zone/\($0)\n" }.joined()
        XCTAssertEqual(Habitmatch.zonesToLoad(fromFile: many).count, Habitmatch.zonesAheadLimit)
    }
}
