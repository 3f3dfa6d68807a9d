import XCTest
@testable import NudgeKit

/// Reading a running aw-server, as values: what its answers are taken to
/// say, where a run reads from and how far it took, kept in the fold, the
/// snapshot and erasure.
final class ActivityWatchServerTests: XCTestCase {
    typealias Span = RewardsEngine.Span
    let now = Instant(seconds: 1_795_388_400)  // 2026-11-22T18:00:00-05:00

    func testInfoBucketsAndTheEventsQuery() throws {
        let info = try JSON.parse(#"{"hostname":"kidpc","version":"v0.13.2","testing":false,"device_id":"0877-31"}"#)
        let i = try ActivityWatch.info(info).get()
        XCTAssertEqual(i.device, "0877-31")
        XCTAssertEqual(i.hostname, "kidpc")
        for (bad, why) in [(#"{"hostname":"x"}"#, "has no"), (#"{"device_id":""}"#, "1 to 200 bytes"), (#"{"device_id":7}"#, "1 to 200 bytes"),
                           ("[]", "has no"), (#"{"device_id":"\#(String(repeating: "d", count: 201))"}"#, "1 to 200 bytes")] {
            guard case .failure(let e) = ActivityWatch.info(try JSON.parse(bad)) else { XCTFail(bad); continue }
            XCTAssertTrue(e.message.contains(why), e.message)
        }
        let buckets = try JSON.parse("""
            {"aw-watcher-window_kidpc":{"id":"aw-watcher-window_kidpc","type":"currentwindow"},
             "aw-watcher-afk_kidpc":{"type":"afkstatus"}, "aw-watcher-web-firefox_kidpc":{"type":"web.tab.current"},
             "aw-watcher-vim_kidpc":{"type":"app.editor.activity"}, "my-window-bucket":{"type":"currentwindow"},
             "aw-stopwatch":{"type":"general.stopwatch"}}
            """)
        XCTAssertEqual(try ActivityWatch.buckets(buckets).get().map(\.id),
                       ["aw-watcher-afk_kidpc", "aw-watcher-web-firefox_kidpc", "aw-watcher-window_kidpc", "my-window-bucket"])
        XCTAssertThrowsError(try ActivityWatch.buckets(JSON.parse("[]")).get())
        XCTAssertEqual(ActivityWatch.eventsPath(bucket: "aw-watcher-window_kid pc/x", since: nil),
                       "/api/0/buckets/aw-watcher-window_kid%20pc%2Fx/events?limit=-1")
        XCTAssertEqual(ActivityWatch.eventsPath(bucket: "b", since: 1_795_377_600),
                       "/api/0/buckets/b/events?limit=-1&start=2026-11-22T20%3A00%3A00Z")
        XCTAssertEqual(ActivityWatch.eventsPath(bucket: "b", since: nil, end: 1_795_377_600, limit: 1),
                       "/api/0/buckets/b/events?limit=1&end=2026-11-22T20%3A00%3A00Z")
    }

    /// The event that spans a run's start, cut there (SQLite storage) or
    /// not (memory storage), is read from where it begins.
    func testTheEventSpanningTheStartIsReadWhole() throws {
        let at: Int64 = 1_795_377_600  // 20:00Z
        func answer(_ ts: String, _ d: Double) throws -> JSON { try JSON.parse(#"[{"id":1,"timestamp":"\#(ts)","duration":\#(d),"data":{"app":"x"}}]"#) }
        XCTAssertEqual(ActivityWatch.straddling(try answer("2026-11-22T19:00:00+00:00", 3600), at: at), at - 3600, "cut at the start")
        XCTAssertEqual(ActivityWatch.straddling(try answer("2026-11-22T19:00:00.5+00:00", 7200), at: at), at - 3600, "whole")
        XCTAssertNil(ActivityWatch.straddling(try answer("2026-11-22T19:00:00+00:00", 600), at: at), "ended before")
        XCTAssertNil(ActivityWatch.straddling(try answer("2026-11-22T20:00:00+00:00", 600), at: at), "begins there: not cut")
        XCTAssertNil(ActivityWatch.straddling(try JSON.parse("[]"), at: at))
        XCTAssertNil(ActivityWatch.straddling(try JSON.parse(#"[{"timestamp":"x","duration":5}]"#), at: at))
    }

    /// An answer stands in the export as it is only when it is one JSON
    /// array: nothing can close the bucket early and add one of its own.
    func testAnAnswerIsOneArrayOrNothing() throws {
        for ok in ["[]", " [ {\"a\":1}, 2 ]\n", "[[[]]]"] { XCTAssertTrue(ActivityWatch.isArray(Array(ok.utf8)), ok) }
        for bad in ["", "{}", "[] []", "[]},\"x\":{\"type\":\"currentwindow\",\"events\":[]", "[1,", "[\"\u{1}\"]", "0"] {
            XCTAssertFalse(ActivityWatch.isArray(Array(bad.utf8)), bad)
        }
        let doc = ActivityWatch.export([("w\"}x", "currentwindow", Array(#"[{"timestamp":"2026-11-22T20:00:00Z","duration":60,"data":{"app":"x"}}]"#.utf8)),
                                        ("a", "afkstatus", Array("[]".utf8))])
        let parsed = try JSON.parseDocument(doc)
        XCTAssertEqual(parsed.object?["buckets"]?.object?.fields.map(\.key), ["w\"}x", "a"])
        let u = try ActivityWatch.read(bytes: doc, now: now).get()
        XCTAssertEqual(u.sessions.map(\.app), ["x"])
    }

    /// Where a run reads from, and how far it took: never past its own
    /// time, back to the start of the session still open, at most a day.
    func testWhereARunReadsFromAndHowFarItTook() {
        let h: Int64 = 3600
        let t = now.seconds
        XCTAssertEqual(ActivityWatch.since(nil, now: now, maxAgeDays: 7), t - 7 * 86_400, "the first run: the sessions' age limit")
        XCTAssertEqual(ActivityWatch.since(.init(until: t, from: t), now: now, maxAgeDays: 7), t - h, "an hour again")
        XCTAssertEqual(ActivityWatch.since(.init(until: t, from: t - 3 * h), now: now, maxAgeDays: 7), t - 3 * h, "the open session whole")
        XCTAssertEqual(ActivityWatch.since(.init(until: t, from: t - 30 * h), now: now, maxAgeDays: 7), t - 24 * h, "at most a day")
        var u = ActivityWatch.Usage(sessions: [("Duolingo", Span(t - 5 * h, t - 2 * h)), ("java", Span(t - 2 * h, t - 100))], afk: [Span(t - 50, t - 10)])
        XCTAssertEqual(ActivityWatch.taken(u, now: now), .init(until: t - 10, from: t - 2 * h))
        u.visits = [("khanacademy.org", Span(t - h, t + 86_000))]
        XCTAssertEqual(ActivityWatch.taken(u, now: now), .init(until: t, from: t - h), "a clock ahead moves nothing past now")
        XCTAssertNil(ActivityWatch.taken(ActivityWatch.Usage(sessions: [], afk: []), now: now))
    }

    /// A part of a session held for review, read again, is taken out; what
    /// reaches past it, another app's, or another site's, stays.
    func testPartsOfAHeldSessionAreTakenOut() {
        let t = now.seconds
        var u = ActivityWatch.Usage(sessions: [("duolingo", Span(t - 3600, t - 1800)), ("Duolingo", Span(t - 1800, t + 60)), ("java", Span(t - 3600, t - 1800))],
                                    afk: [], visits: [("www.khanacademy.org", Span(t - 600, t - 300)), ("youtube.com", Span(t - 600, t - 300))])
        ActivityWatch.dropHeldParts(&u, held: [("Duolingo", Span(t - 7200, t)), ("Khan Academy", Span(t - 900, t))],
                                    siteApp: { $0.hasSuffix("khanacademy.org") ? "Khan Academy" : $0 })
        XCTAssertEqual(u.sessions.map(\.app), ["Duolingo", "java"], "inside the held Duolingo: gone; past its end or another app: kept")
        XCTAssertEqual(u.visits.map(\.host), ["youtube.com"])
    }

    /// With a window watcher in the export, a tab counts only while its
    /// browser is in front, even when no window of it is (a tab left open
    /// behind a terminal); without one, every visit counts.
    func testABackgroundTabCountsOnlyWhereTheBrowserWasInFront() throws {
        let tab = #"{"timestamp":"2026-11-22T19:00:00Z","duration":7200,"data":{"url":"https://www.khanacademy.org/"}}"#
        let term = #"{"timestamp":"2026-11-22T19:30:00Z","duration":5400,"data":{"app":"Terminal"}}"#
        let both = #"{"buckets":{"aw-watcher-web-firefox":{"type":"web.tab.current","events":[\#(tab)]},"aw-watcher-window_x":{"type":"currentwindow","events":[\#(term)]}}}"#
        XCTAssertEqual(try ActivityWatch.read(bytes: Array(both.utf8), now: now).get().visits.count, 0)
        XCTAssertEqual(try ActivityWatch.read(JSON.parse(both), now: now).get().visits.count, 0)
        let webOnly = #"{"buckets":{"aw-watcher-web-firefox":{"type":"web.tab.current","events":[\#(tab)]}}}"#
        XCTAssertEqual(try ActivityWatch.read(bytes: Array(webOnly.utf8), now: now).get().visits.map(\.span.seconds), [7200])
    }

    /// An event at an impossible time is named and left out; the rest counts,
    /// read in place or parsed alike.
    func testEventsAtImpossibleTimesAreLeftOutAndNamed() throws {
        let doc = #"{"buckets":{"w":{"type":"currentwindow","events":[{"timestamp":"1970-01-01T00:00:05Z","duration":20,"data":{"app":"x"}},{"timestamp":"2026-11-22T20:00:00Z","duration":600,"data":{"app":"Duolingo"}},{"timestamp":"2026-11-30T00:00:00Z","duration":60,"data":{"app":"y"}}]}}}"#
        let fast = try ActivityWatch.read(bytes: Array(doc.utf8), now: now).get()
        let general = try ActivityWatch.read(JSON.parse(doc), now: now).get()
        XCTAssertEqual(fast, general)
        XCTAssertEqual(fast.sessions.map(\.app), ["Duolingo"])
        XCTAssertEqual(fast.skipped.count, 2)
        XCTAssertTrue(fast.skipped[0].hasPrefix("w event 0: "), fast.skipped[0])
        XCTAssertTrue(fast.skipped[1].hasPrefix("w event 2: "), fast.skipped[1])
        // Past the general reader's limit, what the in-place reader cannot take is refused unparsed.
        let zeros = #"{"buckets":{"w":{"type":"currentwindow","events":["# + String(repeating: "0,", count: 1000) + "0]}}}"
        guard case .failure(let e) = ActivityWatch.read(bytes: Array(zeros.utf8), now: now, generalLimit: 100) else { return XCTFail() }
        XCTAssertTrue(e.message.contains("not an export of ActivityWatch events"), e.message)
        XCTAssertThrowsError(try ActivityWatch.read(bytes: Array(zeros.utf8), now: now).get(), "parsed: the event is named")
    }

    /// The latest "taken" stands whatever the order; it survives the
    /// snapshot, and erasing the child erases it.
    func testHowFarAServerWasTakenFoldsSnapshotsAndIsErased() throws {
        var rng = SeededRandom(seed: 41)
        for round in 0..<200 {
            var s = RewardsState(full: true)
            for e: JSONObject in [["type": "family_created", "owner": "mum"], ["type": "child_added", "id": "c1", "name": "Alex"],
                                  ["type": "child_added", "id": "c2", "name": "Bo"]] {
                var e = e
                e["by"] = "mum"
                s.apply(e)
            }
            var want: [String: ActivityWatch.Taken] = [:]
            for _ in 0..<Int.random(in: 0...12, using: &rng) {
                let c = ["c1", "c2"].randomElement(using: &rng)!, d = ["dev-a", "dev-b", "dev|c"].randomElement(using: &rng)!
                let u = Int64.random(in: 1_700_000_000...1_800_000_000, using: &rng), f = u - Int64.random(in: 0...90_000, using: &rng)
                if u > want[c + "|" + d]?.until ?? .min { want[c + "|" + d] = .init(until: u, from: f) }
                s.apply(["type": "activitywatch_taken", "child": .string(c), "device": .string(d), "until": .int(u), "from": .int(f), "by": "mum"])
            }
            // A child may not move it: only a parent's counts.
            s.apply(["type": "activitywatch_taken", "child": "c1", "device": "dev-a", "until": .int(1_900_000_000), "from": 1, "by": "alex"])
            XCTAssertEqual(s.awTaken, want, "round \(round)")
            var r = RewardsState(full: true)
            for h in s.hotSnapshot() { try r.restoreHot(try XCTUnwrap(JSON.parse(h.serialized).object)) }
            XCTAssertEqual(r.awTaken, want, "round \(round): through the snapshot")
            let t = Rewards.erasure(of: s.children["c1"]!, in: s, salt: "s")
            XCTAssertTrue(RewardsState.erases(t, ["type": "activitywatch_taken", "child": "c1", "device": "dev-a", "until": 5]))
            XCTAssertFalse(RewardsState.erases(t, ["type": "activitywatch_taken", "child": "c2", "device": "dev-a", "until": 5]))
            var purge = t
            purge["by"] = "mum"
            s.apply(purge)
            XCTAssertEqual(s.awTaken, want.filter { !$0.key.hasPrefix("c1|") }, "round \(round): erased with the child")
        }
    }
}
