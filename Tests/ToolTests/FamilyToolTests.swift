import XCTest
import NudgeKit

/// What every tool of the family does the same way.
final class FamilyToolTests: ToolTestCase {
    let tools = ["tenclub", "yomo", "rewards", "playa", "habitmatch"]

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

    /// Man pages: clean under mandoc -Tlint, and every command documented.
    func testManPagesLintCleanAndListEveryCommand() throws {
        guard let mandoc = ["/usr/bin/mandoc", "/usr/local/bin/mandoc", "/opt/homebrew/bin/mandoc"]
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("mandoc is not installed (.ci/run installs it)")
        }
        for tool in tools {
            let page = ToolTestCase.packageRoot + "/man/\(tool).1"
            XCTAssertTrue(FileManager.default.fileExists(atPath: page), "man/\(tool).1 is missing")
            let r = sh("'\(mandoc)' -Tlint -Wwarning '\(page)'")
            XCTAssertEqual(r.out + r.err, "", "mandoc -Tlint \(tool).1")
        }
        // Every declared command and option is documented in its tool's page.
        for spec in familySpecs {
            let page = try String(contentsOfFile: ToolTestCase.packageRoot + "/man/\(spec.name).1", encoding: .utf8)
            for path in spec.allPaths {
                for word in path where !page.contains("Cm \(word)") && !page.contains(" \(word) ") {
                    XCTFail("man/\(spec.name).1 does not document '\(word)'")
                }
                for o in spec.command(path)?.options ?? [] where !page.contains("Fl -\(o.long)") {
                    XCTFail("man/\(spec.name).1 does not document --\(o.long) of '\(path.joined(separator: " "))'")
                }
            }
            for env in ["DATA_DIR", "NOW", "FORMAT", "QUIET"] where !page.contains(spec.envPrefix + "_" + env) {
                XCTFail("man/\(spec.name).1 does not mention \(spec.envPrefix)_\(env)")
            }
        }
        let tenclubPage = try String(contentsOfFile: ToolTestCase.packageRoot + "/man/tenclub.1", encoding: .utf8)
        for word in ["status", "unlock", "ingest", "widget", "history", "check", "completion", "buddy set", "buddy remove",
                     "sms outbox", "sms deliver", "sms receive", "rollover", "TENCLUB_SMS_TO", "sms_command",
                     "TENCLUB_DATA_DIR", "TENCLUB_NOW", "TENCLUB_FORMAT", "TENCLUB_QUIET", "TENCLUB_LOCK_TIMEOUT"] {
            XCTAssertTrue(tenclubPage.contains(word), "man/tenclub.1 does not mention \(word)")
        }
    }
}
