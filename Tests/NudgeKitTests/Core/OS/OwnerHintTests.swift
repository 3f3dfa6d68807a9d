import XCTest
import TestSupport
@testable import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

/// The hint a permission error carries: never a chown that would hand one
/// user a folder a group shares, nor one outside the user's own home.
final class OwnerHintTests: XCTestCase {
    var root = ""
    override func setUp() {
        root = NSTemporaryDirectory() + "hint-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    /// These folders belong to the test's uid; the "user" is someone else.
    let user: UInt32 = 4_000_000_001

    func testAGroupFolderTellsToJoinTheGroupNeverToChown() throws {
        let pool = root + "/pool"
        XCTAssertEqual(mkdir(pool, 0o2770), 0)
        chmod(pool, 0o2770)
        let hint = try XCTUnwrap(Sys.ownerHint(pool + "/journal/x.ndjson", me: user, groups: [], home: "/home/hv", login: "hv"))
        XCTAssertTrue(hint.contains("which you are not in: ask the administrator (usermod -aG"), hint)
        XCTAssertTrue(hint.hasSuffix(" hv), then log in again)"), hint)
        XCTAssertFalse(hint.contains("chown"), hint)
    }

    func testRootsLeftoversAreGivenBackOnlyInsideTheOwnHome() throws {
        try require(.root)
        let data = root + "/home/hv/.local/share/tenclub"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        chmod(data, 0o700)
        let inHome = try XCTUnwrap(Sys.ownerHint(data + "/x", me: user, groups: [], home: root + "/home/hv", login: "hv"))
        XCTAssertTrue(inHome.contains("fix: sudo chown -R hv \(data)"), inHome)
        // HOME pointing elsewhere (another user's, or root's): no chown.
        let elsewhere = try XCTUnwrap(Sys.ownerHint(data + "/x", me: user, groups: [], home: "/home/other", login: "hv"))
        XCTAssertFalse(elsewhere.contains("chown"), elsewhere)
        XCTAssertTrue(elsewhere.contains("owned by root; ask them, or use a data directory of your own"), elsewhere)
        // A file root left in a folder of the user's own, wherever it is.
        let own = root + "/mine"
        try FileManager.default.createDirectory(atPath: own + "/journal", withIntermediateDirectories: true)
        XCTAssertEqual(chown(own, uid_t(user), gid_t(0)), 0)
        let left = try XCTUnwrap(Sys.ownerHint(own + "/journal/x.ndjson", me: user, groups: [], home: "/home/other", login: "hv"))
        XCTAssertTrue(left.contains("fix: sudo chown -R hv \(own)/journal"), left)
    }
}
