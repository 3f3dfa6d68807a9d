import XCTest
@testable import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

final class NDJSONTests: XCTestCase {
    func tempFile(_ contents: String) -> String {
        let path = NSTemporaryDirectory() + "ndjson-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: path, contents: Data(contents.utf8))
        return path
    }

    func testLineNumbersBlankLinesAndCRLF() throws {
        let path = tempFile("{\"a\":1}\r\n\n   \n[2]\n{\"a\":3}")
        let src = try InputSource.openAll([path])
        var good: [(Int, Int64)] = []
        var bad: [(Int, String)] = []
        try NDJSON.forEachRecord(src, { (_, n, o) throws(ToolError) in good.append((n, o["a"]!.int!)) },
                                 bad: { (_, n, m) throws(ToolError) in bad.append((n, m)) })
        XCTAssertEqual(good.map(\.0), [1, 5])
        XCTAssertEqual(good.map(\.1), [1, 3])
        XCTAssertEqual(bad.map(\.0), [4])
        XCTAssertEqual(bad.first?.1, "expected a JSON object, got an array")
    }

    func testMissingFileIsExit66AndNothingOpened() {
        XCTAssertThrowsError(try InputSource.openAll(["/nonexistent/x"])) { e in
            XCTAssertEqual((e as! ToolError).code, .noInput)
        }
    }

    /// A million lines stream through in fixed-size chunks.
    func testMillionLinesStream() throws {
        let path = NSTemporaryDirectory() + "million-\(UUID().uuidString)"
        var line = Array("{\"at\":\"2026-01-01T00:00:00Z\"}\n".utf8)
        var all = [UInt8]()
        all.reserveCapacity(line.count * 1_000_000)
        for _ in 0..<1_000_000 { all += line }
        line = []
        _ = FileManager.default.createFile(atPath: path, contents: Data(all))
        all = []
        let src = try InputSource.openAll([path])
        var n = 0
        var last = 0
        var wrongLength = 0
        try NDJSON.forEachLine(src[0]) { (ln, bytes) throws(ToolError) in
            n += 1
            last = ln
            if bytes.count != 29 { wrongLength += 1 }
        }
        XCTAssertEqual(wrongLength, 0)
        XCTAssertEqual(n, 1_000_000)
        XCTAssertEqual(last, 1_000_000)
        try? FileManager.default.removeItem(atPath: path)
    }

    func testLongLineLargerThanChunk() throws {
        let big = String(repeating: "x", count: 3_000_000)
        let path = tempFile("{\"s\":\"\(big)\"}\n{\"s\":\"y\"}\n")
        var lens: [Int] = []
        try NDJSON.forEachLine(try InputSource.openAll([path])[0]) { (_, b) throws(ToolError) in lens.append(b.count) }
        XCTAssertEqual(lens, [3_000_008, 9])
    }
}

final class ByteOrderMarkTests: XCTestCase {
    func testABOMBeforeTheFirstLineIsSkipped() throws {
        let path = NSTemporaryDirectory() + "bom-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: path, contents: Data([0xEF, 0xBB, 0xBF] + Array("{\"a\":1}\n{\"a\":2}\n".utf8)))
        var got: [Int64] = []
        var bad: [String] = []
        try NDJSON.forEachRecord(try InputSource.openAll([path]), { (_, _, o) throws(ToolError) in got.append(o["a"]!.int!) },
                                 bad: { (_, _, m) throws(ToolError) in bad.append(m) })
        XCTAssertEqual(got, [1, 2])
        XCTAssertEqual(bad, [])
        // Only before the first line: one later is bad input.
        _ = FileManager.default.createFile(atPath: path, contents: Data(Array("{\"a\":1}\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("{\"a\":2}\n".utf8)))
        got = []
        try NDJSON.forEachRecord(try InputSource.openAll([path]), { (_, _, o) throws(ToolError) in got.append(o["a"]!.int!) },
                                 bad: { (_, _, m) throws(ToolError) in bad.append(m) })
        XCTAssertEqual(got, [1])
        XCTAssertEqual(bad.count, 1)
        XCTAssertEqual(try JSON.parseDocument([0xEF, 0xBB, 0xBF] + Array("{\"a\":1}".utf8)), .object(["a": 1]))
    }
}
