import XCTest
@testable import NudgeKit

/// What one member can make every other copy keep is bounded by the fold;
/// and the snapshot's fast reader restores exactly what the general one does.
final class HabitQuotaTests: XCTestCase {
    let t0: Int64 = 1_795_334_400_000  // 2026-11-22T08:00:00Z

    func apply(_ s: inout HabitmatchState, _ i: Int, _ who: String, _ scope: String, _ e: JSONObject) {
        var t = e
        t["actor"] = .string(who)
        t["scope"] = .string(scope)
        s.apply(t, stamp: Stamp(ms: t0 + Int64(i) * 1000, actor: who))
    }

    func join(_ s: inout HabitmatchState, _ i: Int, _ u: String, name: String? = nil, habits: [JSON] = ["read"]) {
        apply(&s, i, u, "journal", ["type": "joined", "name": .string(name ?? u.uppercased()), "timezone": "UTC",
                                    "habits": .array(habits.map { h in h.string.map { .object(["id": .string($0), "name": .string(Habitmatch.catalog.first { $0.0 == h.string }?.1 ?? $0)]) } ?? h })])
    }

    func testAMembersFloodOfChatStopsAtTheirQuotaAndTheOthersStillTalk() {
        var s = HabitmatchState(full: true)
        join(&s, 0, "ana")
        join(&s, 1, "eve")
        apply(&s, 2, "ana", "journal", ["type": "swiped", "target": "eve", "right": true])
        apply(&s, 3, "eve", "journal", ["type": "swiped", "target": "ana", "right": true])
        let text = String(repeating: "x", count: 1000)
        for i in 0..<3000 { apply(&s, 10 + i, "eve", "pairs/ana+eve", ["type": "chat", "to": "ana", "text": .string(text)]) }
        apply(&s, 5000, "ana", "pairs/ana+eve", ["type": "chat", "to": "eve", "text": "enough"])
        let kept = s.chat("ana", "eve")
        XCTAssertEqual(kept.filter { $0.from == "eve" }.count, Habitmatch.memberQuotaBytes / 1032)
        XCTAssertEqual(s.overQuota["eve"], 3000 - Habitmatch.memberQuotaBytes / 1032)
        XCTAssertEqual(kept.last?.text, "enough", "ana is not held to eve's quota")
        XCTAssertNil(s.overQuota["ana"])
        // The snapshot keeps the count, so a copy restored from it agrees.
        var r = HabitmatchState(full: true)
        for l in s.hotSnapshot() { try? r.restoreHot(l) }
        XCTAssertEqual(r.kept, s.kept)
        XCTAssertEqual(r.overQuota, s.overQuota)
        apply(&r, 6000, "eve", "pairs/ana+eve", ["type": "chat", "to": "ana", "text": .string("more " + text)])
        XCTAssertEqual(r.chat("ana", "eve").last?.text, "enough")
    }

    func testTheFastReaderOfSnapshotLinesRestoresWhatTheGeneralOneDoes() throws {
        var s = HabitmatchState(full: true)
        join(&s, 0, "ana", name: "Ana \"the\" Reader", habits: ["read", "exercise"])
        join(&s, 1, "bo", name: "Bö ☀", habits: [.object(["id": "other:lift", "name": "Lift"])])
        join(&s, 2, "cy", habits: ["code", "read", "walk"])
        apply(&s, 3, "cy", "private", ["type": "profile", "email": "cy@example.com", "bio": "a back\\slash"])
        apply(&s, 4, "ana", "journal", ["type": "swiped", "target": "cy", "right": true])
        apply(&s, 5, "ana", "journal", ["type": "swiped", "target": "bo", "right": false])
        apply(&s, 6, "cy", "journal", ["type": "swiped", "target": "ana", "right": true])
        var general = HabitmatchState(full: true)
        var fast = HabitmatchState(full: true)
        var raw = 0
        for l in s.hotSnapshot() {
            try general.restoreHot(l)
            var bytes = [UInt8]()
            l.write(into: &bytes)
            if fast.restoreHotRaw(Bytes(bytes)) { raw += 1 } else { try fast.restoreHot(l) }
        }
        XCTAssertGreaterThanOrEqual(raw, 2, "plain member and swipes lines are read fast")
        XCTAssertEqual(fast.members, general.members)
        XCTAssertEqual(fast.swipes, general.swipes)
        XCTAssertTrue(fast.isMatch("ana", "cy"))
        XCTAssertEqual(fast.passed(by: "ana"), ["bo"])
        // A member's kept swipes change like parsed ones.
        apply(&fast, 7, "ana", "journal", ["type": "unmatch", "user": "cy"])
        apply(&general, 7, "ana", "journal", ["type": "unmatch", "user": "cy"])
        XCTAssertEqual(fast.swipes, general.swipes)
        XCTAssertFalse(fast.isMatch("ana", "cy"))
    }
}
