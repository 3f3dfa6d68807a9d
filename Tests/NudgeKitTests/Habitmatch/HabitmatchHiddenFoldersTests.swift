import XCTest
@testable import NudgeKit

/// The pure parts of a host pool's hidden folders: which private folder a
/// member may name to a buddy, the store's "P/**/LEAF" folders, and whether
/// /proc hides other logins' command lines.
final class HabitmatchHiddenFoldersTests: XCTestCase {
    func testAMemberNamesOnlyAPrivateFolderOfTheirOwnName() {
        XCTAssertTrue(Habitmatch.validPrivateFolder("private/ana/0a1b2c", of: "ana"))
        XCTAssertTrue(Habitmatch.validPrivateFolder("private/ana~7/0a1b2c", of: "ana"))
        for bad in ["private/bo/0a1b2c", "private/ana~8/x", "private/ana~0x/x", "private/ana/../bo/x", "private/ana/a/b",
                    "spool/ana/in", "private/ana/", "private/ana", "/private/ana/x", "private/ana~/x", "private/anna/x"] {
            XCTAssertFalse(Habitmatch.validPrivateFolder(bad, of: "ana"), bad)
        }
    }

    func testStarStarLeafNamesOneFolderInEach() {
        XCTAssertTrue(Store<HabitmatchState>.starsSplit("spool/**/in")! == ("spool", "/in"))
        XCTAssertTrue(Store<HabitmatchState>.starsSplit("notices/**")! == ("notices", ""))
        XCTAssertNil(Store<HabitmatchState>.starsSplit("pairs/*"))
        XCTAssertNil(Store<HabitmatchState>.starsSplit("**/in"))
        XCTAssertTrue(Store<HabitmatchState>.folder("spool/ana/in", isIn: "spool/**/in"))
        XCTAssertTrue(Store<HabitmatchState>.folder("notices/ana", isIn: "notices/**"))
        for bad in ["spool/in", "spool/ana/b/in", "spool//in", "spool/ana/inx", "reports/ana/in", "spool/ana"] {
            XCTAssertFalse(Store<HabitmatchState>.folder(bad, isIn: "spool/**/in"), bad)
        }
    }

    func testProcHidesOthersOnlyWithHidepid() {
        let line = { (opts: String) in "22 27 0:21 / /proc rw,relatime - proc proc \(opts)\n" }
        XCTAssertFalse(Habitmatch.procHidesOthers(line("rw")))
        XCTAssertTrue(Habitmatch.procHidesOthers(line("rw,hidepid=invisible")))
        XCTAssertTrue(Habitmatch.procHidesOthers(line("rw,hidepid=2")))
        XCTAssertFalse(Habitmatch.procHidesOthers(line("rw,hidepid=0")))
        XCTAssertFalse(Habitmatch.procHidesOthers("30 27 0:21 / /proc/sys/fs/binfmt_misc rw - binfmt_misc x rw,hidepid=2\n"))
        XCTAssertFalse(Habitmatch.procHidesOthers(""))
    }
}
