import XCTest
import NudgeKit

/// What every tool does the same way.
final class EveryToolTests: ToolTestCase {
    var tools: [String] { toolSpecs.map(\.name) }

    func testHelpAndVersionForEveryTool() {
        for tool in tools {
            let help = run(tool, ["--help"])
            XCTAssertEqual(help.code, 0, tool)
            XCTAssertTrue(help.out.hasPrefix("usage: \(tool) "), help.out)
            XCTAssertEqual(help.err, "")
            XCTAssertEqual(run(tool, ["-h"]).out, help.out)
            let version = run(tool, ["--version"])
            XCTAssertEqual(version.code, 0)
            XCTAssertEqual(version.out, "\(tool) 0.1.0\n")
        }
    }

    /// TOOL_LOCK_TIMEOUT is seconds; anything else is bad configuration,
    /// named, before the command does anything.
    func testABadLockTimeoutIsBadConfiguration() {
        for tool in tools {
            let v = tool.uppercased() + "_LOCK_TIMEOUT"
            let bad = run(tool, ["--now", "2026-11-22T10:00:00-05:00"], env: [v: "abc"])
            XCTAssertEqual(bad.code, 78, tool)
            XCTAssertEqual(bad.err, "\(tool): \(v) must be a number of seconds, not 'abc'\n")
            XCTAssertEqual(bad.out, "")
            XCTAssertEqual(run(tool, ["--now", "2026-11-22T10:00:00-05:00"], env: [v: "-1"]).code, 78, tool)
            let ok = run(tool, ["--now", "2026-11-22T10:00:00-05:00"], env: [v: "0.5"])
            XCTAssertEqual(ok.code, 0, "\(tool): \(ok.err)")
        }
    }

    func testHelpForACommandAndCompletionCommand() {
        let h = run("tenclub", ["help", "ingest"])
        XCTAssertEqual(h.code, 0)
        XCTAssertTrue(h.out.hasPrefix("usage: tenclub ingest [OPTIONS] [FILE...]\n"), h.out)
        XCTAssertEqual(run("tenclub", ["ingest", "--help"]).out, h.out)
        XCTAssertEqual(run("tenclub", ["help", "nope"]).code, 64)
        let c = run("tenclub", ["completion", "bash"])
        XCTAssertEqual(c.out, try String(contentsOfFile: ToolTestCase.packageRoot + "/completions/tenclub.bash", encoding: .utf8))
        XCTAssertEqual(run("tenclub", ["completion", "tcsh"]).code, 64)
    }
}
