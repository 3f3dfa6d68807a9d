import XCTest
@testable import NudgeKit

final class SubprocessTests: XCTestCase {
    func testATimeoutEndsTheWholeProcessGroupWith124() throws {
        let marker = NSTemporaryDirectory() + "grandchild-\(UUID().uuidString)"
        let start = Date()
        // The shell starts a grandchild that would outlive a plain kill of the shell.
        let status = try Subprocess.shell("(sleep 3; touch \(marker)) & sleep 30", timeoutMillis: 300)
        XCTAssertEqual(status, Subprocess.timedOut)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        Thread.sleep(forTimeInterval: 3.5)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "the grandchild was ended too")
    }

    func testWithinTheTimeStdinAndStdoutStillFlow() throws {
        let (status, out) = try Subprocess.capture("tr a-z A-Z", stdin: Array(String(repeating: "abc\n", count: 50_000).utf8), timeoutMillis: 10_000)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(out.count, 200_000)
        XCTAssertEqual(Array(out.prefix(4)), Array("ABC\n".utf8))
        XCTAssertEqual(try Subprocess.shell("exit 3", timeoutMillis: 5_000), 3)
    }
}
