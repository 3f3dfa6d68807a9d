import XCTest
@testable import NudgeKit

final class TenclubTests: XCTestCase {
    func testCardForEveryCountUpTo100() {
        let ranks = ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"]
        for n in 0...100 {
            let c = Tenclub.card(for: n)
            switch n {
            case 0:
                XCTAssertEqual(c.code, "BACK")
                XCTAssertEqual(Tenclub.message(for: n), "No unlocks yet today. Ten to spend.")
            case 1:
                XCTAssertEqual(c.code, "AC")
                XCTAssertEqual(c.name, "Ace of Clubs")
            case 2...10:
                XCTAssertEqual(c.code, "\(n)C")
                XCTAssertEqual(c.name, "\(ranks[n - 1]) of Clubs")
                XCTAssertFalse(Tenclub.isBusted(n))
            default:
                XCTAssertEqual(c.code, "JOKER")
                XCTAssertTrue(Tenclub.isBusted(n))
                XCTAssertEqual(Tenclub.message(for: n), "No tenclub today! Better luck tomorrow")
                XCTAssertTrue(Tenclub.drawCard(n).joined().contains("BUSTED!"))
            }
            let s = Tenclub.Status(date: Day(year: 2026, month: 1, day: 1), unlocks: n)
            XCTAssertEqual(s.remaining, max(0, 10 - n))
            XCTAssertEqual(Tenclub.drawCard(n).count, 7)
        }
        XCTAssertEqual(Tenclub.message(for: 9), "1 unlock left today.")
        XCTAssertEqual(Tenclub.message(for: 3), "7 unlocks left today.")
    }

    func testWidgetStyles() throws {
        let d = Day(year: 2026, month: 11, day: 22)
        let w = try JSON.parse(Tenclub.widget(.init(date: d, unlocks: 8), style: "waybar")).object!
        XCTAssertEqual(w["class"], "close")
        XCTAssertEqual(w["percentage"], 80)
        XCTAssertEqual(w["text"], "♣ 8/10")
        XCTAssertEqual(Tenclub.widgetClass(7), "ok")
        XCTAssertEqual(Tenclub.widgetClass(11), "busted")
        XCTAssertEqual(Tenclub.widget(.init(date: d, unlocks: 12), style: "plain"), "🃏 12/10 BUSTED!\n")
        XCTAssertEqual(Tenclub.widget(.init(date: d, unlocks: 3), style: "tmux"), "#[fg=green]♣ 3/10#[default]\n")
        let busted = try JSON.parse(Tenclub.widget(.init(date: d, unlocks: 40), style: "waybar")).object!
        XCTAssertEqual(busted["percentage"], 100)
    }

    func testHistoryAndStreak() {
        let d = { (s: String) in Day.parse(s)! }
        let days: [Day: Int] = [d("2026-11-10"): 3, d("2026-11-12"): 12, d("2026-11-13"): 10, d("2026-11-15"): 4]
        let h = Tenclub.history(days, today: d("2026-11-16"), count: 8)
        XCTAssertEqual(h.map(\.date.description).first, "2026-11-09")
        XCTAssertEqual(h.map(\.unlocks), [0, 3, 0, 12, 10, 0, 4, 0])
        // The 9th is before tracking began; the 12th busts the streak.
        XCTAssertEqual(h.map(\.streak), [0, 1, 2, 0, 1, 2, 3, 4])
        XCTAssertEqual(Tenclub.currentStreak(days, today: d("2026-11-16")), 4)
        XCTAssertEqual(Tenclub.currentStreak([:], today: d("2026-11-16")), 0)
        XCTAssertEqual(Tenclub.currentStreak([d("2026-11-16"): 11], today: d("2026-11-16")), 0)
    }

    func testIngestPlanCountsEachInstantOnce() {
        let day = Day(year: 2026, month: 11, day: 22)
        let plan = Tenclub.planIngest([day: [5000, 3000, 5000, 9000, 3000]], alreadySeen: { ms, _ in ms == 9000 })
        XCTAssertEqual(plan.added[day], [3000, 5000])
        XCTAssertEqual(plan.duplicates[day], 3)
        // Closer than the debounce window: one unlock, the first.
        let close = Tenclub.planIngest([day: [10_000, 10_999, 11_000, 12_500, 13_000]], alreadySeen: { _, _ in false })
        XCTAssertEqual(close.added[day], [10_000, 11_000, 12_500])
        XCTAssertEqual(close.duplicates[day], 2)
    }

    func testRecordsCarryTheirInstant() {
        let ny = try! Zone.named("America/New_York")
        let now = RFC3339.parse("2026-11-22T21:00:00-05:00")!.instant
        func at(_ line: String) -> Instant? {
            var l = line
            return l.withUTF8 { try? Tenclub.instant(ofRecord: UnsafeRawBufferPointer($0), zone: ny, now: now).get() }
        }
        func why(_ line: String) -> String? {
            var l = line
            return l.withUTF8 {
                if case .failure(let e) = Tenclub.instant(ofRecord: UnsafeRawBufferPointer($0), zone: ny, now: now) { return e.message }
                return nil
            }
        }
        XCTAssertEqual(at(#"{"at":"2026-11-22T08:00:00-05:00","other":[1,2]}"#), RFC3339.parse("2026-11-22T13:00:00Z")!.instant)
        XCTAssertEqual(at(#"{"at":"2026-11-22T08:00:00"}"#), RFC3339.parse("2026-11-22T13:00:00Z")!.instant)
        XCTAssertEqual(at(#"{"at":1795000000}"#), Instant(seconds: 1_795_000_000))
        XCTAssertNil(at(#"{"at":"yesterday"}"#))
        XCTAssertNil(at(#"{"when":"2026-11-22T08:00:00Z"}"#))
        XCTAssertNil(at(#"{"at":true}"#))
        XCTAssertEqual(at(#"{"at":1795000000000}"#), Instant(seconds: 1_795_000_000), "epoch milliseconds")
        XCTAssertEqual(at(#"{"at":"2026-11-22T13:00:00+0000"}"#), RFC3339.parse("2026-11-22T13:00:00Z")!.instant)
        XCTAssertEqual(why(#"{"at":"0001-01-01T12:00:00Z"}"#), "\"at\" 0001-01-01T12:00:00Z is before 2000-01-01: not a plausible time")
        XCTAssertEqual(why(#"{"at":"2026-11-22T21:06:00-05:00"}"#),
                       "\"at\" 2026-11-22T21:06:00-05:00 is in the future (now is 2026-11-22T21:00:00-05:00)")
        XCTAssertEqual(why(#"{"at":true}"#), "\"at\" must be an RFC 3339 time or epoch seconds, not a boolean")
    }
}

final class TenclubImplausibleDayTests: XCTestCase {
    /// A store that took a year-1 unlock before times were checked: rollover
    /// closes the real days only, not 739,941 of them.
    func testRolloverNeverWalksFromTheYearOne() {
        var s = TenclubState(full: true)
        s.apply(["type": "unlock", "day": "0001-01-01"])
        s.apply(["type": "unlock", "day": "2026-11-20"])
        XCTAssertEqual(s.firstDay, Day(year: 2026, month: 11, day: 20))
        XCTAssertEqual(Tenclub.daysToClose(s, today: Day(year: 2026, month: 11, day: 22)).map(\.description), ["2026-11-20", "2026-11-21"])
    }
}

final class TenclubDiedTryTests: XCTestCase {
    /// A try whose run died is ended once in the log, however many runs (or
    /// devices) record it, and only while its claim still holds the text;
    /// a later retry is the next attempt.
    func testADeadRunsTryIsLoggedOnce() {
        var s = TenclubState(full: true)
        s.apply(["type": "buddy_set", "number": "+14155550132", "at": "2026-11-22T09:00:00-05:00"])
        s.apply(["type": "sms_queued", "id": "t1", "to": "+14155550132", "body": "hi", "kind": "invite", "at": "2026-11-22T09:00:00-05:00"])
        s.apply(["type": "sms_sending", "id": "t1", "claim": "c1", "until": "2026-11-22T14:02:00Z", "at": "2026-11-22T09:00:00-05:00"])
        let now = RFC3339.parse("2026-11-22T09:05:00-05:00")!.instant
        let m = s.outbox[0]
        XCTAssertTrue(m.handover.died(at: now))
        let died = Tenclub.died(m, at: "2026-11-22T09:02:00-05:00")
        s.apply(died)
        s.apply(died)  // a second run, or a second device, that saw it too
        XCTAssertEqual(s.log.map { "\($0.outcome) \($0.attempt)" }, ["unknown 1"])
        XCTAssertEqual(s.outbox.first?.attempts, 1)
        XCTAssertFalse(s.outbox[0].handover.died(at: now))
        s.apply(["type": "sms_sending", "id": "t1", "claim": "c2", "until": "2026-11-22T14:07:00Z", "retry": true, "at": "2026-11-22T09:05:00-05:00"])
        s.apply(["type": "sms_sent", "id": "t1", "status": 0, "claim": "c2", "at": "2026-11-22T09:05:01-05:00"])
        XCTAssertEqual(s.log.map { "\($0.outcome) \($0.attempt)" }, ["unknown 1", "sent 2"])
    }
    /// `ingest` writes a day's new unlocks as epoch milliseconds; journals
    /// written before hold RFC 3339 texts. Both fold to the same counts and
    /// the same dedupe index.
    func testIngestEventsOfEitherFormFoldAlike() throws {
        let zone = try Zone.named("America/New_York")
        let times = ["2026-11-20T08:00:00-05:00", "2026-11-20T08:00:05.250-05:00", "2026-11-20T23:59:59-05:00"]
        let ms = times.map { RFC3339.parse($0)!.instant.ms }
        var old = TenclubState(full: true), new = TenclubState(full: true)
        old.apply(["type": "ingest", "day": "2026-11-20", "at": JSON(times)])
        new.apply(["type": "ingest", "day": "2026-11-20", "ms": .array(ms.map { .int($0) })])
        XCTAssertEqual(old.days, new.days)
        XCTAssertEqual(new.unlocks(on: Day(year: 2026, month: 11, day: 20)), 3)
        XCTAssertEqual(old.seen, new.seen)
        XCTAssertNotNil(new.seenNear(ms[1], on: zone.day(of: Instant(ms: ms[1])), window: 1))
    }
}

