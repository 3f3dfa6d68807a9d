import XCTest
@testable import NudgeKit

/// A chat line's time (`Habitmatch.chatTime`): its writer's clock, never
/// after its stamp, never more than the pool's clock skew before it.
final class HabitmatchChatTimeTests: XCTestCase {
    func testALineIsShownAtItsOwnTimeWithinTheSkew() {
        let stamp: Int64 = 1_795_360_000_000
        let skew = Habitmatch.clockSkewMillis
        XCTAssertEqual(Habitmatch.chatTime(nil, stamp: stamp).ms, stamp, "no time of its own: the stamp's")
        XCTAssertEqual(Habitmatch.chatTime(stamp - 9 * 60_000, stamp: stamp).ms, stamp - 9 * 60_000, "dragged by a peer: its own")
        XCTAssertEqual(Habitmatch.chatTime(stamp - 59 * 60_000, stamp: stamp).ms, stamp - skew, "backdated: no further than the skew")
        XCTAssertEqual(Habitmatch.chatTime(stamp + 86_400_000, stamp: stamp).ms, stamp, "ahead of its stamp: the stamp")
        XCTAssertEqual(Habitmatch.chatTime(Int64.min, stamp: stamp).ms, stamp - skew)
        XCTAssertEqual(Habitmatch.chatTime(Int64.max, stamp: stamp).ms, stamp)
        var rng = SeededRandom(seed: 7)
        for _ in 0..<1000 {
            let s = Int64.random(in: 946_684_800_000...4_102_444_800_000, using: &rng)
            let own = Int64.random(in: (s - 3 * skew)...(s + 3 * skew), using: &rng)
            let t = Habitmatch.chatTime(own, stamp: s).ms
            XCTAssertTrue(t <= s && t >= s - skew, "\(own) at \(s): \(t)")
            if own <= s && own >= s - skew { XCTAssertEqual(t, own) }
        }
    }
}
