import XCTest
import TestSupport
import NudgeKit

/// The suite on a fresh machine: what it needs beyond the Swift toolchain is
/// one table (TestSupport's `Requirement`), README.md names the same list,
/// a test skips only through that table, and under CI a missing need fails.
final class RequirementsTests: ToolTestCase {
    /// The packages README.md says the full suite needs: "The full suite
    /// also needs `a`, `b` … (Debian packages)".
    static func documentedPackages() throws -> [String] {
        let readme = try String(contentsOfFile: ToolTestCase.packageRoot + "/README.md", encoding: .utf8)
        guard let start = readme.range(of: "The full suite also needs"),
              let end = readme.range(of: "(Debian packages)", range: start.upperBound..<readme.endIndex) else { return [] }
        let sentence = readme[start.upperBound..<end.lowerBound]
        // Package names are in backquotes.
        return sentence.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// With nothing but the toolchain, every need is missing, so what a fresh
    /// machine skips is exactly the documented list: no more (a test cannot
    /// skip another way, see below) and no less.
    func testWithOnlyTheToolchainWhatSkipsIsTheDocumentedList() throws {
        let swift = Machine.current.find("swift") ?? Machine.current.find("swiftc")
        let toolchain = swift.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().deletingLastPathComponent().path }
        let bare = Machine(search: toolchain.map { [$0] } ?? [], isRoot: false)
        let missing = bare.missing()
        XCTAssertEqual(missing, Requirement.allCases, "the toolchain's folder \(toolchain ?? "(not found)") has some of them")
        XCTAssertEqual(try Self.documentedPackages().sorted(), missing.filter { $0 != .root }.flatMap(\.packageList).sorted(),
                       "README.md's 'The full suite also needs' sentence and TestSupport's table differ")
        let readme = try String(contentsOfFile: ToolTestCase.packageRoot + "/README.md", encoding: .utf8)
        XCTAssertTrue(readme.contains("as root"), "README.md says the real-login tests need root")
        // And .ci/run installs every one of them.
        let ci = try String(contentsOfFile: ToolTestCase.packageRoot + "/.ci/run", encoding: .utf8)
        for p in Requirement.packages { XCTAssertTrue(ci.contains(p), ".ci/run does not install \(p)") }
    }

    /// A missing need skips with one line naming it and its package; under
    /// CI it is an error, so the test fails.
    func testAMissingNeedSkipsHereAndFailsUnderCI() {
        let none: (Requirement) -> Bool = { _ in false }
        let skip = Requirements.verdict([.icalendar], met: none, ci: false)
        XCTAssertTrue(skip is XCTSkip)
        XCTAssertEqual(Requirements.message([.icalendar], ci: false),
                       "needs python3 module icalendar, not found here (python3-icalendar; .ci/run installs it)")
        let fail = Requirements.verdict([.icalendar], met: none, ci: true)
        XCTAssertNotNil(fail)
        XCTAssertFalse(fail is XCTSkip, "under CI a missing need fails the test")
        XCTAssertTrue("\(fail!)".contains("python3-icalendar"), "\(fail!)")
        XCTAssertNil(Requirements.verdict([.icalendar], met: { _ in true }, ci: true))
        XCTAssertFalse(Requirements.message([.mandoc, .zsh], ci: false).contains("\n"))
    }

    /// No test skips except through `require`, and none writes to a child
    /// through a pipe (a child that exits early would kill the runner with
    /// SIGPIPE): TestSupport's `runProgram` and the harness feed files.
    func testNoTestSkipsOrFeedsAPipeBehindTheTablesBack() throws {
        let root = ToolTestCase.packageRoot + "/Tests"
        let files = FileManager.default.enumerator(atPath: root)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("TestSupport/") }
        XCTAssertGreaterThan(files.count, 20)
        let skip = "XCT" + "Skip(", feed = "fileHandleFor" + "Writing"
        for f in files {
            let text = try String(contentsOfFile: root + "/" + f, encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if line.contains(skip) { XCTFail("Tests/\(f):\(n + 1) skips without the table: use try require(...)") }
                if line.contains(feed) { XCTFail("Tests/\(f):\(n + 1) writes to a child through a pipe: use runProgram(stdin:)") }
            }
        }
    }

    /// A child that exits without reading a large input is a status, not a
    /// dead test process.
    func testAChildThatClosesItsInputEarlyCannotKillTheRunner() {
        let r = runProgram("/bin/sh", ["-c", "exit 3"], stdin: Array(repeating: 0x61, count: 1 << 20))
        XCTAssertEqual(r.status, 3)
        let head = runProgram("/bin/sh", ["-c", "head -c 1"], stdin: Array(repeating: 0x61, count: 1 << 20))
        XCTAssertEqual(head.out, "a")
        let slow = runProgram("/bin/sleep", ["5"], timeout: 0.2)
        XCTAssertTrue(slow.timedOut)
        XCTAssertEqual(slow.status, 128 + SIGKILL, slow.summary)
    }
}
