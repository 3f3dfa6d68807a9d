import XCTest
import TestSupport
@testable import NudgeKit

/// SHA-256 against FIPS 180-4's examples, and against coreutils' sha256sum
/// on seeded random inputs of every length around the block edges.
final class SHA256Tests: XCTestCase {
    func testTheStandardsExamples() {
        XCTAssertEqual(SHA256.hex(Array("".utf8)), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)),
                       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testAgreesWithSha256sumOnRandomInputs() throws {
        let tmp = NSTemporaryDirectory() + "sha-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        var x: UInt64 = 0x5EED_5EED_1234_5678
        func next() -> UInt64 { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return x }
        var lengths = Array(0...130) + [183, 447, 448, 511, 512, 513, 1000, 4095, 4096, 65_537]
        for _ in 0..<20 { lengths.append(Int(next() % 20_000)) }
        var inputs: [[UInt8]] = []
        for (i, n) in lengths.enumerated() {
            let bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: next()) }
            inputs.append(bytes)
            XCTAssertTrue(FileManager.default.createFile(atPath: tmp + "/\(i)", contents: Data(bytes)))
        }
        let r = runProgram("/usr/bin/sha256sum", lengths.indices.map { tmp + "/\($0)" })
        XCTAssertEqual(r.status, 0, r.err)
        let sums = r.out.split(separator: "\n").map { String($0.prefix(64)) }
        XCTAssertEqual(sums.count, inputs.count)
        for (i, bytes) in inputs.enumerated() where i < sums.count {
            XCTAssertEqual(SHA256.hex(bytes), sums[i], "\(bytes.count) bytes")
        }
    }
}
