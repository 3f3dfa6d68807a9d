import XCTest
@testable import NudgeKit

final class SubprocessTests: XCTestCase {
    func testATimeoutEndsTheWholeProcessGroupWith124() throws {
        let pidFile = NSTemporaryDirectory() + "grandchild-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let start = Date()
        // The shell starts a grandchild that would outlive a plain kill of the
        // shell, and says its pid before the shell waits.
        let status = try Subprocess.shell("sleep 60 & echo $! > \(pidFile); sleep 30", timeoutMillis: 500)
        XCTAssertEqual(status, Subprocess.timedOut)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        let text = (try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? ""
        guard let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return XCTFail("no pid: '\(text)'") }
        // Gone (or a zombie about to be reaped by init), not left running.
        let deadline = Date().addingTimeInterval(5)
        func running() -> Bool {
            guard kill(pid, 0) == 0 else { return false }
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            return !stat.contains(") Z ")
        }
        while running() && Date() < deadline { usleep(10_000) }
        XCTAssertFalse(running(), "the grandchild \(pid) was ended with its group")
        if running() { kill(pid, SIGKILL) }
    }

    /// A command that ignores SIGTERM and finishes within the grace with
    /// exit 0 did its work: 0, not a timeout (a grant handed over would be
    /// handed over again); one that ends with another status is still 124.
    func testACommandThatFinishesAfterSigtermWithZeroSucceeded() throws {
        let marker = NSTemporaryDirectory() + "after-term-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: marker) }
        XCTAssertEqual(try Subprocess.shell("trap '' TERM; sleep 1; echo done > \(marker)", timeoutMillis: 300), 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: marker))
        XCTAssertEqual(try Subprocess.shell("trap '' TERM; sleep 1; exit 3", timeoutMillis: 300), Subprocess.timedOut)
    }

    func testWithinTheTimeStdinAndStdoutStillFlow() throws {
        let (status, out) = try Subprocess.capture("tr a-z A-Z", stdin: Array(String(repeating: "abc\n", count: 50_000).utf8), timeoutMillis: 10_000)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(out.count, 200_000)
        XCTAssertEqual(Array(out.prefix(4)), Array("ABC\n".utf8))
        XCTAssertEqual(try Subprocess.shell("exit 3", timeoutMillis: 5_000), 3)
    }

    /// A child that exits without reading its input is a status: the caller
    /// is not killed by SIGPIPE, though this test process does not ignore it.
    func testAChildThatStopsReadingIsAStatusNotADeadCaller() throws {
        let big = [UInt8](repeating: 0x61, count: 4 << 20)
        XCTAssertEqual(try Subprocess.shell("exit 0", stdin: big), 0)
        XCTAssertEqual(try Subprocess.shell("exit 5", stdin: big, timeoutMillis: 10_000), 5)
        let (status, out) = try Subprocess.capture("head -c 3", stdin: big, timeoutMillis: 10_000)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(out, Array("aaa".utf8))
        XCTAssertEqual(try Subprocess.capture("head -c 2", stdin: big).1, Array("aa".utf8))
    }

    /// The tools ignore SIGPIPE; their children get it back at its default,
    /// so `yes | head -1` in a notifier ends quietly, as in a terminal.
    func testTheChildGetsSIGPIPEAtItsDefault() throws {
        let saved = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, saved) }
        let (status, out) = try Subprocess.capture("(yes | head -n 1) 2>&1; grep '^SigIgn' /proc/self/status || true")
        XCTAssertEqual(status, 0)
        let text = String(decoding: out, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("y\n"), text)
        XCTAssertFalse(text.contains("Broken pipe"), text)
        #if os(Linux)
        if let ign = text.split(separator: "\n").first(where: { $0.hasPrefix("SigIgn") }).flatMap({ UInt64($0.split(separator: "\t").last!, radix: 16) }) {
            XCTAssertEqual(ign & (1 << (UInt64(SIGPIPE) - 1)), 0, "SIGPIPE is ignored in the child: \(text)")
        } else {
            XCTFail("no SigIgn line: \(text)")
        }
        #endif
    }
}
