import XCTest
@testable import NudgeKit

/// Reading a running aw-server, as values: what its answers are taken to
/// say, the queries a pull asks, and how far a server was taken, kept in
/// the fold, the snapshot and erasure.
final class ActivityWatchServerTests: XCTestCase {
    func testInfoBucketsAndTheEventsQuery() throws {
        let info = try JSON.parse(#"{"hostname":"kidpc","version":"v0.13.2","testing":false,"device_id":"0877-31"}"#)
        let i = try ActivityWatch.info(info).get()
        XCTAssertEqual(i.device, "0877-31")
        XCTAssertEqual(i.hostname, "kidpc")
        for bad in [#"{"hostname":"x"}"#, #"{"device_id":""}"#, #"{"device_id":7}"#, "[]"] {
            guard case .failure(let e) = ActivityWatch.info(try JSON.parse(bad)) else { XCTFail(bad); continue }
            XCTAssertTrue(e.message.contains("device_id"), e.message)
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
    }

    func testTheNewestEndAmongEvents() throws {
        let export = try JSON.parse("""
            {"buckets":{"w":{"type":"currentwindow","events":[
              {"timestamp":"2026-11-22T20:00:00+00:00","duration":1200.4,"data":{"app":"java"}},
              {"timestamp":"2026-11-22T20:30:00.250000+00:00","duration":60,"data":{"app":"x"}},
              {"timestamp":"bad","duration":60}, {"timestamp":"2026-11-22T23:00:00Z","duration":-5}]},
             "a":{"type":"afkstatus","events":[{"timestamp":"2026-11-22T20:00:00Z","duration":2000,"data":{"status":"afk"}}]}}}
            """)
        XCTAssertEqual(ActivityWatch.newest(export), 1_795_377_600 + 2000, "the AFK event ends last")
        XCTAssertNil(ActivityWatch.newest(try JSON.parse(#"{"buckets":{}}"#)))
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
            var want: [String: Int64] = [:]
            for _ in 0..<Int.random(in: 0...12, using: &rng) {
                let c = ["c1", "c2"].randomElement(using: &rng)!, d = ["dev-a", "dev-b", "dev|c"].randomElement(using: &rng)!
                let u = Int64.random(in: 1_700_000_000...1_800_000_000, using: &rng)
                want[c + "|" + d] = max(want[c + "|" + d] ?? u, u)
                s.apply(["type": "activitywatch_taken", "child": .string(c), "device": .string(d), "until": .int(u), "by": "mum"])
            }
            // A child may not move it: only a parent's counts.
            s.apply(["type": "activitywatch_taken", "child": "c1", "device": "dev-a", "until": .int(1_900_000_000), "by": "alex"])
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
