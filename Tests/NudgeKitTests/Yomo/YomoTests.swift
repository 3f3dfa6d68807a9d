import XCTest
@testable import NudgeKit

final class YomoTests: XCTestCase {
    /// The zone a summary is made in (the environment's `TZ`).
    let summaryZone = (try? Zone.fromEnvironment())?.name ?? "UTC"
    let zone = try! Zone.named("America/New_York")
    let now = RFC3339.parse("2026-11-22T10:07:00-05:00")!.instant

    func at(_ s: String) -> Instant { RFC3339.parse(s)!.instant }

    func state(_ reminders: [(String, LocalDateTime, Recurrence)], createdAt: Instant) -> YomoState {
        var s = YomoState(full: true)
        for (id, anchor, rec) in reminders {
            let trigger = Yomo.firstTrigger(anchor: anchor, recurrence: rec, now: createdAt, zone: zone)!
            s.apply(["type": "created", "id": .string(id), "title": .string(id), "anchor": .string(anchor.description),
                     "recurrence": rec.json, "trigger_at": .string(zone.format(trigger)), "at": .string(zone.format(createdAt))])
        }
        return s
    }

    func testDefaultsTodayAndTheNextFullHour() throws {
        let p = ReminderParser.parse("buy milk", now: now, zone: zone)
        let f = try Yomo.form(parsed: p, options: ReminderFormOptions(), now: now, zone: zone)
        XCTAssertEqual(f.anchor.description, "2026-11-22T11:00:00")
        // A time already past today, with no date given, goes to tomorrow — and says so.
        let past = try Yomo.form(parsed: ReminderParser.parse("call at 8am", now: now, zone: zone), options: ReminderFormOptions(), now: now, zone: zone)
        XCTAssertEqual(past.anchor.description, "2026-11-23T08:00:00")
        XCTAssertEqual(past.assumptions, ["08:00 has passed today: set for tomorrow"])
    }

    func testOptionsOverrideWhatWasParsed() throws {
        var o = ReminderFormOptions()
        o.time = "16:30"
        o.every = "2"
        let f = try Yomo.form(parsed: ReminderParser.parse("water plants every Tuesday at 3pm", now: now, zone: zone), options: o, now: now, zone: zone)
        XCTAssertEqual(f.anchor.time.description, "16:30")
        XCTAssertEqual(f.recurrence.summary, "every 2 weeks on Tue")
        var bad = ReminderFormOptions()
        bad.between = "09:00-18:00"
        XCTAssertThrowsError(try Yomo.form(parsed: ReminderParser.parse("stretch every day", now: now, zone: zone), options: bad, now: now, zone: zone)) { e in
            XCTAssertEqual((e as! ToolError).message, "--between works with --unit hour only")
        }
        var on = ReminderFormOptions()
        on.unit = "month"
        on.on = "last-fri"
        XCTAssertEqual(try Yomo.form(parsed: ReminderParser.parse("pay", now: now, zone: zone), options: on, now: now, zone: zone).recurrence.summary,
                       "monthly on the last Fri")
        var none = ReminderFormOptions()
        none.repeatKind = "none"
        XCTAssertFalse(try Yomo.form(parsed: ReminderParser.parse("gym every day", now: now, zone: zone), options: none, now: now, zone: zone).recurrence.repeats)
        XCTAssertThrowsError(try Yomo.form(parsed: ReminderParser.parse("tomorrow at 9", now: now, zone: zone), options: ReminderFormOptions(), now: now, zone: zone))
    }

    func testCompletingOneTimeAndRecurring() {
        let daily = LocalDateTime(day: Day(year: 2026, month: 11, day: 22), time: TimeOfDay(hour: 9, minute: 0))
        var s = state([("d", daily, Recurrence(kind: .daily)),
                       ("c", daily, Recurrence(kind: .custom, interval: 3, unit: .day, basedOnCompletion: true)),
                       ("o", daily, .once)], createdAt: now)
        XCTAssertEqual(zone.format(s.reminders["d"]!.triggerAt), "2026-11-23T09:00:00-05:00", "today's 9:00 has passed")
        XCTAssertEqual(Yomo.nextAfterDone(s.reminders["d"]!, now: now, zone: zone).map(zone.format), "2026-11-24T09:00:00-05:00",
                       "completing early skips the pending occurrence")
        let doneAt = at("2026-11-25T18:45:00-05:00")
        XCTAssertEqual(Yomo.nextAfterDone(s.reminders["c"]!, now: doneAt, zone: zone).map(zone.format), "2026-11-28T09:00:00-05:00", "three days on, at the rule's time of day")
        XCTAssertNil(Yomo.nextAfterDone(s.reminders["o"]!, now: now, zone: zone))
        s.apply(["type": "completed", "id": "o", "next": nil, "at": .string(zone.format(now))])
        XCTAssertTrue(s.reminders["o"]!.completed)
        XCTAssertEqual(s.active.map(\.id), ["o", "d", "c"].filter { $0 != "o" }.sorted { s.reminders[$0]!.triggerAt < s.reminders[$1]!.triggerAt })
    }

    func testPrefixes() throws {
        let s = state([("ab12", LocalDateTime(wallSeconds: 1_800_000_000), .once), ("ab34", LocalDateTime(wallSeconds: 1_800_000_000), .once)], createdAt: now)
        XCTAssertEqual(try s.find("ab1").id, "ab12")
        XCTAssertThrowsError(try s.find("ab")) { e in XCTAssertEqual((e as! ToolError).code, .usage) }
        XCTAssertThrowsError(try s.find("zz")) { e in XCTAssertEqual((e as! ToolError).code, .dataError) }
    }

    func testNotificationCarriesTheActions() {
        let s = state([("r1", LocalDateTime(day: Day(year: 2026, month: 11, day: 22), time: TimeOfDay(hour: 11, minute: 0)), .once)], createdAt: now)
        let a = Yomo.due(s, now: at("2026-11-22T11:00:00-05:00"), zone: zone)
        XCTAssertEqual(a.count, 1)
        let n = Yomo.notification(a[0], zone: zone, commandPrefix: "yomo")
        XCTAssertEqual(n["type"], "notification")
        XCTAssertEqual(n["tool"], "yomo")
        XCTAssertEqual(n["id"], "r1")
        let commands = n["actions"]!.array!.compactMap { $0.object?["command"]?.string }
        XCTAssertEqual(commands, ["yomo snooze r1 5", "yomo snooze r1 15", "yomo snooze r1 60", "yomo done r1"])
    }

    /// `due` under any schedule of cron runs: no occurrence is announced
    /// twice, a second run at the same moment announces nothing, and runs every
    /// minute announce every occurrence exactly once.
    func testDueIsIdempotentUnderAnySchedule() {
        var rng = SeededRandom(seed: 2024)
        for round in 0..<60 {
            var reminders: [(String, LocalDateTime, Recurrence)] = []
            for k in 0..<6 {
                var rule = RecurrenceTests.randomRule(&rng)
                if rule.unit == .hour && rule.rangeStart == nil { rule.interval = max(rule.interval, 1) }
                if Int.random(in: 0..<5, using: &rng) == 0 { rule = .once }
                let anchor = LocalDateTime(day: Day(year: 2026, month: 3, day: Int.random(in: 7...9, using: &rng)),
                                           time: TimeOfDay(hour: Int.random(in: 0...23, using: &rng), minute: [0, 30].randomElement(using: &rng)!))
                reminders.append(("r\(k)", anchor, rule))
            }
            let start = at("2026-03-07T00:00:00-05:00")
            let end = at("2026-03-10T00:00:00-04:00")
            let everyMinute = round % 3 == 0
            var s = state(reminders, createdAt: start)
            var seen: [String: Int] = [:]
            var t = start
            while t < end {
                for _ in 0..<(Int.random(in: 0..<4, using: &rng) == 0 ? 2 : 1) {  // sometimes twice at once
                    for a in Yomo.due(s, now: t, zone: zone) {
                        let key = "\(a.reminder.id)@\(a.occurrence.ms)\(a.snooze ? "z" : "")"
                        seen[key, default: 0] += 1
                        XCTAssertLessThanOrEqual(a.occurrence, t)
                        s.apply(Yomo.event(for: a, zone: zone, at: t))
                    }
                }
                t = Instant(ms: t.ms + (everyMinute ? 60_000 : Int64.random(in: 60_000...(6 * 3_600_000), using: &rng)))
            }
            XCTAssertTrue(seen.values.allSatisfy { $0 == 1 }, "round \(round): announced twice \(seen.filter { $0.value > 1 })")
            if everyMinute {
                // Every occurrence in the window was announced.
                for (id, anchor, rule) in reminders {
                    var o = Yomo.firstTrigger(anchor: anchor, recurrence: rule, now: start, zone: zone)!
                    var expected = 0
                    while o < Instant(ms: end.ms - 60_000) {
                        expected += 1
                        XCTAssertEqual(seen["\(id)@\(o.ms)"], 1, "round \(round): \(id) \(zone.format(o)) \(rule.summary) not announced")
                        guard rule.repeats && !rule.basedOnCompletion, let n = rule.next(after: o, anchor: anchor, zone: zone) else { break }
                        o = n
                    }
                    _ = expected
                }
            }
        }
    }

    func testLLMAnswersAreValidatedAgainstTheSchema() {
        let good = try! JSON.parse(#"{"title":"Water plants","date":null,"time":"15:00","recurrence_type":"weekly","recurrence_rule":{"interval":1,"unit":"week","days_of_week":["tue"],"time_range_start":null,"time_range_end":null,"based_on_completion":false}}"#)
        XCTAssertEqual(try Yomo.validateParse(good).get().recurrence.summary, "every Tue")
        let cases: [(String, String)] = [
            (#"{"date":null}"#, "\"title\" must be a non-empty string"),
            (#"{"title":"x","date":"tomorrow"}"#, "\"date\" must be YYYY-MM-DD or null"),
            (#"{"title":"x","time":"3pm"}"#, "\"time\" must be HH:mm or null"),
            (#"{"title":"x","recurrence_type":"yearly"}"#, "\"recurrence_type\" must be none, daily, weekly or custom"),
            (#"{"title":"x","recurrence_type":"custom","recurrence_rule":{"interval":2,"unit":"fortnight"}}"#, "\"unit\" must be hour, day, week, month or year"),
            (#"{"title":"x","recurrence_type":"custom"}"#, "a custom recurrence needs a recurrence_rule"),
            (#"[1]"#, "not a JSON object"),
            (#"{"title":"x","date":"1999-12-31"}"#, "\"date\" 1999-12-31 is before 2000-01-01: not a plausible day"),
            (#"{"title":"x","recurrence_type":7}"#, "\"recurrence_type\" must be a string, not a number"),
            (#"{"title":"x","recurrence_type":"custom","recurrence_rule":"weekly"}"#, "\"recurrence_rule\" must be an object or null, not a string"),
            (#"{"title":"x","recurrence_type":"custom","recurrence_rule":{"interval":"2","unit":"day"}}"#, "\"interval\" must be a whole number, not a string"),
            (#"{"title":"x","recurrence_type":"weekly","recurrence_rule":{"days_of_week":"mon"}}"#, "\"days_of_week\" must be an array like [\"mon\",\"wed\"] or null, not a string"),
            (#"{"title":"x","recurrence_type":"custom","recurrence_rule":{"interval":2,"unit":"hour","time_range_start":9}}"#, "\"time_range_start\" must be HH:mm or null"),
            (#"{"title":"x","recurrence_type":"custom","recurrence_rule":{"interval":2,"unit":"day","based_on_completion":"yes"}}"#, "\"based_on_completion\" must be a boolean, not a string"),
        ]
        for (text, reason) in cases {
            switch Yomo.validateParse(try! JSON.parse(text)) {
            case .success: XCTFail("\(text) accepted")
            case .failure(let e): XCTAssertEqual(e.message, reason, text)
            }
        }
    }

    /// The summary fast path never hides something due: whenever it says
    /// "nothing", the full computation agrees.
    func testSummaryNeverHidesADueReminder() {
        var rng = SeededRandom(seed: 77)
        var quiet = 0
        for round in 0..<25 {
            var s = YomoState(full: true)
            var snapshotSummary: JSONObject? = nil
            var tail: [JSONObject] = []
            var writers: [String] = []
            var t = at("2026-03-07T00:00:00-05:00")
            var ids: [String] = []
            // Two devices share the store: each answers `due` for itself.
            var by = "laptop"
            func record(_ e: JSONObject) { s.apply(e, stamp: Stamp(ms: t.ms, actor: by)); tail.append(e); writers.append(by) }
            for step in 0..<300 {
                t = Instant(ms: t.ms + Int64.random(in: 60_000...7_200_000, using: &rng))
                switch Int.random(in: 0..<10, using: &rng) {
                case 0, 1:
                    let rule = Int.random(in: 0..<4, using: &rng) == 0 ? Recurrence.once : RecurrenceTests.randomRule(&rng)
                    let anchor = LocalDateTime(wallSeconds: zone.local(t).wallSeconds + Int64.random(in: -3600...86400, using: &rng) / 60 * 60)
                    let id = "r\(round)-\(step)"
                    ids.append(id)
                    let trig = Yomo.firstTrigger(anchor: anchor, recurrence: rule, now: t, zone: zone) ?? t
                    record(["type": "created", "id": .string(id), "title": "x", "anchor": .string(anchor.description), "zone": .string(zone.name),
                            "recurrence": rule.json, "trigger_at": .string(zone.format(trig)), "at": .string(zone.format(t))])
                case 2 where !ids.isEmpty:
                    let id = ids.randomElement(using: &rng)!
                    if let r = s.reminders[id], !r.completed {
                        if let e = Yomo.snoozeEvent(r, until: t.adding(minutes: Int64.random(in: 1...60, using: &rng)), zone: zone, at: t) { record(e) }
                    }
                case 3 where !ids.isEmpty:
                    let id = ids.randomElement(using: &rng)!
                    if let r = s.reminders[id], !r.completed {
                        record(["type": "completed", "id": .string(id), "next": JSON(Yomo.nextAfterDone(r, now: t, zone: zone).map(zone.format)), "at": .string(zone.format(t))])
                    }
                case 4 where !ids.isEmpty:
                    record(["type": "deleted", "id": .string(ids.randomElement(using: &rng)!), "at": .string(zone.format(t))])
                case 5:
                    snapshotSummary = s.hotSnapshot().first
                    tail = []
                    writers = []
                default:
                    by = Bool.random(using: &rng) ? "laptop" : "phone"
                    let mayBe = Yomo.mayBeDue(summary: snapshotSummary, tail: tail, writers: writers, now: t, zone: summaryZone, device: by)
                    let found = Yomo.due(s, now: t, zone: zone, device: by)
                    if !mayBe {
                        quiet += 1
                        XCTAssertTrue(found.isEmpty, "round \(round) step \(step): the summary hid \(found.map(\.reminder.id))")
                    }
                    for a in found { record(Yomo.event(for: a, zone: zone, at: t, device: by)) }
                }
            }
        }
        XCTAssertGreaterThan(quiet, 100, "the fast path should answer often")
    }
    /// `list` prints the records the snapshot keeps ready without parsing
    /// them: for any reminder (titles and notes that look like the layout's
    /// own keys, own zones, completed ones), the lazily read line gives the
    /// same sort key, state, id and record bytes as the reminder itself.
    func testLazySnapshotLinesGiveTheRecordsAsWritten() {
        var rng = SeededRandom(seed: 24)
        let pieces = ["}", ",\"r\":{\"type\":\"reminder\"", "\"n\":12", "é", "\\", "\u{202E}", " ", "x", "{\"e\":1"]
        var s = YomoState(full: true)
        let zones: [String?] = [nil, "Europe/Berlin", "Asia/Kolkata"]
        for k in 0..<200 {
            let title = (0..<Int.random(in: 1...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let anchor = LocalDateTime(day: Day(year: 2026, month: 11, day: 1).adding(days: Int.random(in: 0...90, using: &rng)),
                                       time: TimeOfDay(hour: Int.random(in: 0...23, using: &rng), minute: 0))
            let rec = [Recurrence.once, Recurrence(kind: .daily), Recurrence(kind: .weekly, days: [1, 4])][k % 3]
            var r = Reminder(id: "id\(k)", title: title, notes: k % 2 == 0 ? title : "", anchor: anchor, recurrence: rec,
                             zoneName: zones[k % 3], triggerAt: zone.resolve(anchor), createdAt: now)
            r.completed = k % 5 == 0
            s.reminders[r.id] = r
        }
        let (storage, ranges) = snapshotLines(s.hotSnapshot())
        let readerZone = (try? Zone.fromEnvironment()) ?? .utc  // what the snapshot renders in
        var lazy = YomoState(full: false)
        for r in ranges.dropFirst() { XCTAssertTrue(lazy.restoreHotRaw(Bytes(storage, r))) }
        XCTAssertEqual(lazy.raw.count, 200)
        for raw in lazy.raw {
            guard let raw = raw, let r = s.reminders[lazy.rawID(raw)] else { return XCTFail("a line without its reminder") }
            var written: [UInt8] = []
            r.record(zone: readerZone).write(into: &written)
            XCTAssertEqual(String(decoding: Array(lazy.bytes(raw.record)), as: UTF8.self), String(decoding: written, as: UTF8.self), r.id)
            XCTAssertEqual(raw.effective, r.effectiveTrigger.ms, r.id)
            XCTAssertEqual(raw.completed, r.completed, r.id)
        }
    }

    /// `list` prints the snapshot's lines as they stand only when they are in
    /// its order (nearest first, then id, with many reminders at one instant):
    /// lines out of order, or a reminder parsed from a later event, and it sorts.
    func testListPrintsTheLinesAsTheyStandOnlyInItsOrder() {
        var s = YomoState(full: true)
        for k in 0..<60 {
            let anchor = LocalDateTime(day: Day(year: 2026, month: 11, day: 1 + k % 3), time: TimeOfDay(hour: 9, minute: 0))
            var r = Reminder(id: "id\(k)", title: "t\(k)", notes: "", anchor: anchor, recurrence: .once,
                             zoneName: nil, triggerAt: zone.resolve(anchor), createdAt: now)
            r.completed = k % 7 == 0
            s.reminders[r.id] = r
        }
        let expected = s.reminders.values.filter { !$0.completed }
            .sorted { ($0.effectiveTrigger.ms, $0.id) < ($1.effectiveTrigger.ms, $1.id) }.map(\.id)
        let (storage, ranges) = snapshotLines(s.hotSnapshot())
        func lazy(_ order: [Range<Int>]) -> YomoState {
            var l = YomoState(full: false)
            for r in order { XCTAssertTrue(l.restoreHotRaw(Bytes(storage, r))) }
            return l
        }
        let inOrder = lazy(ranges)
        var idOf: [Int: String] = [:]
        for case let r? in inOrder.raw { idOf[r.record.lowerBound] = inOrder.rawID(r) }
        XCTAssertEqual(inOrder.rawActiveRecordsInOrder()?.map { idOf[$0.lowerBound]! }, expected)
        // Any two active lines swapped, at one instant or not: sorted instead.
        let active = ranges.indices.dropFirst().filter { k in inOrder.raw[k - 1].map { !$0.completed } ?? false }
        for (a, b) in zip(active, active.dropFirst()) {
            var swapped = ranges
            swapped.swapAt(a, b)
            XCTAssertNil(lazy(swapped).rawActiveRecordsInOrder(), "lines \(a) and \(b) swapped")
        }
        var touched = inOrder
        touched.materialize(expected[5])
        XCTAssertNil(touched.rawActiveRecordsInOrder(), "a parsed reminder")
    }

    func testTheLayoutWordsAreTheirText() {
        let l = YomoState.Layout.self
        let words = [(l.e, "{\"e\":"), (l.c, ",\"c\":"), (l.yes, "true"), (l.no, "false"), (l.id, ",\"id\":\""), (l.z, ",\"z\":\""),
                     (l.n, ",\"n\":"), (l.r0, ",\"r\":{\"t"), (l.r1, "ype\":\"re"), (l.r2, "minder\"")]
        for (w, text) in words { XCTAssertEqual(w, l.word(text), text) }
    }
}
