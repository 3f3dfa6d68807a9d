import XCTest
@testable import NudgeKit

/// What a member can write in their own journal, folded by everyone else:
/// each forged or oversized event is ignored, the honest state stands.
final class HabitPeerTests: XCTestCase {
    let t0: Int64 = 1_795_334_400_000  // 2026-11-22T08:00:00Z

    /// Events as (actor, scope, event), folded with increasing stamps.
    func fold(_ events: [(String, String, JSONObject)]) -> HabitmatchState {
        var s = HabitmatchState(full: true)
        for (i, (who, scope, e)) in events.enumerated() {
            var t = e
            t["actor"] = .string(who)
            t["scope"] = .string(scope)
            s.apply(t, stamp: Stamp(ms: t0 + Int64(i) * 60_000, actor: who))
        }
        return s
    }

    func joined(_ u: String, habits: Int = 1) -> (String, String, JSONObject) {
        let hs: [JSON] = Habitmatch.catalog.prefix(habits).map { .object(["id": .string($0.id), "name": .string($0.name)]) }
        return (u, "journal", ["type": "joined", "name": .string(u.uppercased()), "timezone": "UTC", "habits": .array(hs)])
    }
    func like(_ a: String, _ b: String) -> (String, String, JSONObject) { (a, "journal", ["type": "swiped", "target": .string(b), "right": true]) }
    func match(_ a: String, _ b: String) -> [(String, String, JSONObject)] { [like(a, b), like(b, a)] }
    func meeting(_ by: String, _ with: String, id: String = "m1", minutes: Int = 30, scope: String? = nil) -> (String, String, JSONObject) {
        (by, scope ?? Habitmatch.pairFolder(by, with),
         ["type": "meeting", "id": .string(id), "with": .string(with), "start": "2026-11-24T18:00:00", "timezone": "UTC", "minutes": JSON(minutes)])
    }

    func testAMeetingNeedsAMatchAndCannotBeHijacked() {
        let base = [joined("ana"), joined("bo"), joined("eve")] + match("ana", "bo") + match("ana", "eve")
        var s = fold(base + [meeting("eve", "bo", id: "x")])
        XCTAssertNil(s.meetings["x"], "no meeting without a match")
        s = fold(base + [meeting("ana", "bo"),
                         // eve reuses the id: new organizer, 600 minutes, a phishing link.
                         ("eve", Habitmatch.pairFolder("eve", "ana"), ["type": "meeting", "id": "m1", "with": "ana", "start": "2026-11-25T09:00:00",
                                                                      "timezone": "UTC", "minutes": 600, "description": "https://evil.example"]),
                         ("eve", Habitmatch.pairFolder("eve", "ana"), ["type": "meeting_move", "id": "m1", "start": "2026-11-30T09:00:00"]),
                         ("eve", Habitmatch.pairFolder("eve", "ana"), ["type": "meeting_cancel", "id": "m1"])])
        XCTAssertEqual(s.meetings["m1"]?.organizer, "ana")
        XCTAssertEqual(s.meetings["m1"]?.attendee, "bo")
        XCTAssertEqual(s.meetings["m1"]?.minutes, 30)
        XCTAssertEqual(s.meetings["m1"]?.start.description, "2026-11-24T18:00:00")
        // The attendee may move and cancel it, in their pair's folder.
        s = fold(base + [meeting("ana", "bo"), ("bo", Habitmatch.pairFolder("ana", "bo"), ["type": "meeting_move", "id": "m1", "start": "2026-11-26T08:00:00"])])
        XCTAssertEqual(s.meetings["m1"]?.start.description, "2026-11-26T08:00:00")
        s = fold(base + [meeting("ana", "bo"), ("bo", Habitmatch.pairFolder("ana", "bo"), ["type": "meeting_cancel", "id": "m1"])])
        XCTAssertNil(s.meetings["m1"])
        XCTAssertNil(fold(base + [meeting("ana", "bo", minutes: 600)]).meetings["m1"], "30 minutes at most")
    }

    func testAPairFolderSpeaksOnlyForItsPair() {
        let base = [joined("ana"), joined("bo"), joined("cy")] + match("ana", "bo") + match("ana", "cy")
        // Ana writes to cy from the ana+bo folder: not about bo, ignored.
        let s = fold(base + [("ana", "pairs/ana+bo", ["type": "chat", "to": "cy", "text": "hi"]),
                             ("cy", "pairs/ana+bo", ["type": "chat", "to": "ana", "text": "not mine"]),
                             ("ana", "pairs/ana+bo", ["type": "chat", "text": "hello bo"])])
        XCTAssertTrue(s.chat("ana", "cy").isEmpty)
        XCTAssertEqual(s.chat("ana", "bo").map(\.text), ["hello bo"])
    }

    func testHabitsNamesZonesAndSizesAreBounded() {
        var e = joined("eve", habits: 16).2
        e["timezone"] = "../../../../etc/passwd"
        XCTAssertNil(fold([("eve", "journal", e)]).members["eve"], "a path is not a zone")
        e["timezone"] = "UTC"
        let s = fold([("eve", "journal", e)] + (0..<5).map { i in ("eve", "journal", ["type": "habit_added", "id": .string("other:x\(i)"), "name": "X"]) })
        XCTAssertEqual(s.members["eve"]?.habits.count, 3, "three habits at most")
        let long = fold([joined("eve"), ("eve", "journal", ["type": "profile", "name": .string(String(repeating: "n", count: 500)), "bio": .string(String(repeating: "b", count: 5000))])])
        XCTAssertEqual(long.members["eve"]?.name, "EVE")
        XCTAssertEqual(long.members["eve"]?.bio, "")
        let chat = fold([joined("a"), joined("b")] + match("a", "b") + [("a", "pairs/a+b", ["type": "chat", "text": .string(String(repeating: "x", count: 5000))])])
        XCTAssertTrue(chat.chat("a", "b").isEmpty, "1000 characters at most")
    }

    func testActivityComesFromStampsNotFromWhatAPeerWrites() {
        var e = joined("eve").2
        e["at"] = "2099-01-01T00:00:00Z"
        let s = fold([("eve", "journal", e), ("eve", "self", ["type": "reminded", "key": "k", "at": "2099-01-01T00:00:00Z"])])
        XCTAssertEqual(s.members["eve"]?.lastActive.ms, t0, "2099 is not believed; reminders are not activity")
    }

    func testTheBuddyCapCountsAcceptsInFlightOnBothSides() {
        // Each member's cap is their own configuration's (1 to 20): the fold
        // allows what the largest allows, never more.
        let n = Habitmatch.maxBuddiesLimit + 2
        let names = (1...n).map { "b\($0)" }
        var events = [joined("ana")]
        for u in names { events += [joined(u)] + match("ana", u) + [(u, "journal", ["type": "buddy_accept", "user": "ana"])] }
        for u in names { events.append(("ana", "journal", ["type": "buddy_accept", "user": .string(u)])) }
        XCTAssertEqual(fold(events).buddies(of: "ana").count, Habitmatch.maxBuddiesLimit)
        // Accepts sent before any answer count as well.
        var early = [joined("ana")]
        for u in names { early += [joined(u)] + match("ana", u) + [("ana", "journal", ["type": "buddy_accept", "user": .string(u)])] }
        for u in names { early.append((u, "journal", ["type": "buddy_accept", "user": "ana"])) }
        XCTAssertEqual(fold(early).buddies(of: "ana").count, Habitmatch.maxBuddiesLimit)
        // Four buddies, as a member whose max_buddies is 4 makes them: the bond forms.
        var four = [joined("ana")]
        for u in names.prefix(4) { four += [joined(u)] + match("ana", u) + [(u, "journal", ["type": "buddy_accept", "user": "ana"]), ("ana", "journal", ["type": "buddy_accept", "user": .string(u)])] }
        XCTAssertEqual(fold(four).buddies(of: "ana").count, 4)
    }

    /// Unmatch and block end every meeting between the two, and what the
    /// other writes about them afterwards finds nothing to change.
    func testUnmatchAndBlockEndEveryMeetingBetweenTheTwo() {
        let base = [joined("ana"), joined("bo"), joined("cy")] + match("ana", "bo") + match("ana", "cy")
        var weekly = meeting("ana", "bo", id: "w1")
        weekly.2["weekly"] = true
        for end in ["unmatch", "block"] {
            let s = fold(base + [weekly, meeting("bo", "ana", id: "m2"), meeting("ana", "cy", id: "c1"),
                                 ("ana", Habitmatch.pairFolder("ana", "bo"), ["type": "chat", "text": "hi"]),
                                 ("ana", Habitmatch.pairFolder("ana", "bo"), ["type": .string(end), "user": "bo"]),
                                 ("bo", Habitmatch.pairFolder("ana", "bo"), ["type": "meeting_move", "id": "w1", "start": "2026-11-25T03:00:00"]),
                                 ("bo", Habitmatch.pairFolder("ana", "bo"), ["type": "meeting_cancel", "id": "c1"])])
            XCTAssertEqual(Set(s.meetings.keys), ["c1"], end)
            XCTAssertTrue(s.chat("ana", "bo").isEmpty, end)
            XCTAssertEqual(Habitmatch.myMeetings(s, "bo", now: Instant(ms: t0)).map(\.id), [], end)
        }
        // A meeting the blocked member stamps just before the block, in a
        // folder of their own, is ended by the block all the same.
        let s = fold(base + [meeting("bo", "ana", id: "late", scope: "pairs/ana+bo~2"),
                             ("ana", Habitmatch.pairFolder("ana", "bo"), ["type": "block", "user": "bo"])])
        XCTAssertTrue(s.meetings.isEmpty)
        // Unblocking brings nothing back: a match starts over with two likes.
        let again = fold(base + [meeting("bo", "ana", id: "m3"), ("ana", "pairs/ana+bo", ["type": "block", "user": "bo"]),
                                 ("ana", "pairs/ana+bo", ["type": "unblock", "user": "bo"]), like("bo", "ana")])
        XCTAssertFalse(again.isBlocked("ana", "bo"))
        XCTAssertFalse(again.isMatch("ana", "bo"))
        XCTAssertTrue(again.meetings.isEmpty)
    }

    func testABlockedMemberDisappearsAndTheirEventsAboutYouCountForNothing() {
        let base = [joined("ana"), joined("eve")] + match("ana", "eve")
        let s = fold(base + [("ana", "pairs/ana+eve", ["type": "block", "user": "eve"]),
                             like("eve", "ana"),
                             ("eve", "pairs/ana+eve", ["type": "chat", "text": "still there?"]),
                             meeting("eve", "ana")])
        XCTAssertFalse(s.isMatch("ana", "eve"))
        XCTAssertTrue(s.chat("ana", "eve").isEmpty)
        XCTAssertTrue(s.meetings.isEmpty)
        XCTAssertTrue(s.isBlocked("eve", "ana"))
        XCTAssertTrue(s.parted.contains(HabitmatchState.pair("ana", "eve")))
    }

    func testDoneDaysAreBoundedAndOnlyForOwnHabits() {
        let s = fold([joined("ana"),
                      ("ana", "private", ["type": "done", "habit": "exercise", "date": "2026-11-22"]),
                      ("ana", "private", ["type": "done", "habit": "exercise", "date": "1999-12-31"]),
                      ("ana", "private", ["type": "done", "habit": "exercise", "date": "2027-01-01"]),
                      ("ana", "private", ["type": "done", "habit": "meditate", "date": "2026-11-22"])])
        XCTAssertEqual(s.doneDays("ana", "exercise"), [Day.parse("2026-11-22")!])
        XCTAssertTrue(s.doneDays("ana", "meditate").isEmpty)
    }

    /// A done mark may name at most the day after its batch's day in the
    /// zone furthest ahead (UTC+14), whatever the member's own zone: the
    /// fold reads no zone, and every member's marks are bounded alike.
    func testDoneDaysAreBoundedWithoutTheMembersZone() {
        let at: Int64 = 1_795_348_800_000  // 2026-11-22T12:00:00Z: 2026-11-23 02:00 at UTC+14
        XCTAssertEqual(Habitmatch.lastMarkDay(stampedAt: Instant(ms: at)), Day.parse("2026-11-24"))
        XCTAssertEqual(Habitmatch.lastMarkDay(stampedAt: Instant(ms: at - 7_200_001)), Day.parse("2026-11-23"))
        XCTAssertEqual(Habitmatch.lastMarkDay(stampedAt: Instant(ms: .max)), Zone.utc.day(of: Instant(ms: .max)).adding(days: 1))
        var folded: [Set<Day>] = []
        for zone in ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago"] {
            var s = HabitmatchState(full: true)
            let events: [(String, JSONObject)] = [
                ("journal", ["type": "joined", "name": "ANA", "timezone": .string(zone),
                             "habits": JSON.array([.object(["id": .string(Habitmatch.catalog[0].id), "name": .string(Habitmatch.catalog[0].name)])])]),
                ("private", ["type": "done", "habit": .string(Habitmatch.catalog[0].id), "date": "2026-11-24"]),
                ("private", ["type": "done", "habit": .string(Habitmatch.catalog[0].id), "date": "2026-11-25"]),
            ]
            for (i, (scope, e)) in events.enumerated() {
                var t = e
                t["actor"] = "ana"
                t["scope"] = .string(scope)
                s.apply(t, stamp: Stamp(ms: at + Int64(i), actor: "ana"))
            }
            folded.append(s.doneDays("ana", Habitmatch.catalog[0].id))
        }
        XCTAssertEqual(folded, Array(repeating: [Day.parse("2026-11-24")!], count: 3))
    }

    func testOwnHabitsInOtherScriptsKeepDifferentIDs() throws {
        let a = try Habitmatch.habit("other:跑步")
        let b = try Habitmatch.habit("other:读书")
        XCTAssertNotEqual(a.id, b.id)
        XCTAssertTrue(Habitmatch.validHabit(id: a.id, name: a.name), a.id)
        XCTAssertEqual(try Habitmatch.habit("other:Practise drawing").id, "other:practise-drawing")
    }

    func testICSLinesFoldByOctetsEvenInsideLongClusters() {
        let marks = "e" + String(repeating: "\u{301}", count: 80)
        for line in ICS.fold("SUMMARY:" + marks).components(separatedBy: "\r\n") where !line.isEmpty {
            XCTAssertLessThanOrEqual(line.utf8.count, 75, line)
        }
    }
}

extension HabitPeerTests {
    /// In a host pool nobody reads another's likes: a match is the pool's
    /// owner's word, in two parts (which folder, in the member's notices;
    /// the folder opened, in the folder itself), in either order; only the
    /// owner's run, which is neither of the two, opens or closes a folder.
    func testAMatchIsTheOwnersWordAndSurvivesTheSnapshot() throws {
        let base = [joined("ana"), joined("bo"), joined("cy"), ("ana", "spool", ["type": "swiped", "target": "bo", "right": true])]
        let notice: (String, String, JSONObject) = ("root", "notices/ana", ["type": "matched", "user": "bo", "pair": "f1"])
        let opened: (String, String, JSONObject) = ("root", "pairs/f1", ["type": "opened", "users": .array(["ana", "bo"])])
        for events in [base + [notice, opened], base + [opened, notice]] {
            let s = fold(events)
            XCTAssertTrue(s.isMatch("ana", "bo"))
            XCTAssertEqual(s.pairFolder("ana", "bo"), "f1")
            var r = HabitmatchState(full: true)
            for l in s.hotSnapshot() { try r.restoreHot(l) }
            XCTAssertTrue(r.isMatch("ana", "bo"))
            XCTAssertEqual(r.pairFolders(of: "bo").map(\.other), ["ana"])
        }
        // One of the two cannot open a folder for themselves, nor for others.
        XCTAssertFalse(fold(base + [notice, ("bo", "pairs/f1", ["type": "opened", "users": .array(["ana", "bo"])])]).isMatch("ana", "bo"))
        XCTAssertFalse(fold(base + [("bo", "pairs/f1", ["type": "opened", "users": .array(["ana", "cy"])])]).isMatch("ana", "cy"))
        XCTAssertFalse(fold(base + [notice, ("bo", "pairs/f1", ["type": "opened", "users": .array(["ana", "cy"])])]).isMatch("ana", "cy"))
        XCTAssertFalse(fold(base + [opened]).isMatch("ana", "bo"), "not without the notice")
        // The owner's "closed" ends everything, as an unmatch does.
        let closed = fold(base + [notice, opened, ("ana", "pairs/f1", ["type": "chat", "to": "bo", "text": "hi"]),
                                  ("root", "pairs/f1", ["type": "closed", "users": .array(["ana", "bo"])])])
        XCTAssertFalse(closed.isMatch("ana", "bo"))
        XCTAssertTrue(closed.chat("ana", "bo").isEmpty)
    }

    /// What the owner's run says: a match once, to both, with one folder;
    /// an end when a like is gone; a block to the blocked, an unblock too.
    func testTheOwnersNoticesComeOnce() {
        let base = [joined("ana"), joined("bo"), joined("eve")] + match("ana", "bo")
        var n = 0
        let due = Habitmatch.ownerNotices(fold(base)) { n += 1; return "f\(n)" }
        XCTAssertEqual(due.map { "\($0.to) \($0.event["type"]?.string ?? "") \($0.event["user"]?.string ?? "") \($0.event["pair"]?.string ?? "")" },
                       ["ana matched bo f1", "bo matched ana f1"])
        let told = base + [("root", "notices/ana", due[0].event), ("root", "notices/bo", due[1].event)]
        XCTAssertTrue(Habitmatch.ownerNotices(fold(told)) { "x" }.isEmpty, "once")
        let ended = Habitmatch.ownerNotices(fold(told + [("bo", "spool", ["type": "unmatch", "user": "ana"])])) { "x" }
        XCTAssertEqual(ended.map { "\($0.to) \($0.event["type"]?.string ?? "")" }, ["ana ended", "bo ended"])
        let blocked = Habitmatch.ownerNotices(fold(told + [("eve", "spool", ["type": "block", "user": "ana"])])) { "x" }
        XCTAssertEqual(blocked.map { "\($0.to) \($0.event["type"]?.string ?? "") \($0.event["user"]?.string ?? "")" }, ["ana hidden eve"])
        let hidden = told + [("eve", "spool", ["type": "block", "user": "ana"]), ("root", "notices/ana", ["type": "hidden", "user": "eve"])]
        XCTAssertTrue(Habitmatch.ownerNotices(fold(hidden)) { "x" }.isEmpty)
        let shown = Habitmatch.ownerNotices(fold(hidden + [("eve", "spool", ["type": "unblock", "user": "ana"])])) { "x" }
        XCTAssertEqual(shown.map { "\($0.to) \($0.event["type"]?.string ?? "")" }, ["ana shown"])
    }

    /// Each folder holds only what its audience may send: a flood of valid
    /// events of another kind counts for nothing and is never kept.
    func testEachFolderHoldsOnlyItsOwnKindsOfEvent() {
        let base = [joined("ana"), joined("eve")] + match("ana", "eve")
        let s = fold(base + (0..<50).map { i in ("eve", "journal", ["type": "reminded", "key": .string("k\(i)")]) }
                     + [("eve", "journal", ["type": "done", "habit": "exercise", "date": "2026-11-22"]),
                        ("eve", "journal", ["type": "report", "user": "ana", "reason": "x"]),
                        ("eve", "spool", ["type": "chat", "to": "ana", "text": "from the spool"]),
                        ("eve", "private", ["type": "joined", "name": "Eve 2", "timezone": "UTC", "habits": .array([])]),
                        ("eve", "notices/ana", ["type": "chat", "to": "ana", "text": "x"])])
        XCTAssertTrue(s.reminded.isEmpty)
        XCTAssertTrue(s.doneDays("eve", "exercise").isEmpty)
        XCTAssertTrue(s.reports.isEmpty)
        XCTAssertTrue(s.chat("ana", "eve").isEmpty)
        XCTAssertEqual(s.hotSnapshot().count, fold(base).hotSnapshot().count, "nothing of it in the snapshot")
        // In their own folders they count.
        let ok = fold(base + [("eve", "self", ["type": "reminded", "key": "k"]), ("eve", "private", ["type": "done", "habit": "exercise", "date": "2026-11-22"])])
        XCTAssertEqual(ok.reminded["eve"], ["k"])
        XCTAssertEqual(ok.doneDays("eve", "exercise").count, 1)
    }
}
