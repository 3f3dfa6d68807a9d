import XCTest
import TestSupport
@testable import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

final class ACLTests: XCTestCase {
    func testTheBlobIsWhatTheKernelAndGetfaclRead() throws {
        #if os(Linux)
        let path = NSTemporaryDirectory() + "acl-\(UUID().uuidString)"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(chmod(path, 0o600), 0)
        try ACL.ensureReaders(path: path, [4242, 777])
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        XCTAssertEqual(ACL.readers(fd: fd).sorted(), [777, 4242])
        var st = stat()
        XCTAssertEqual(fstat(fd, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o640, "the group bits show the mask; the owning group itself gets nothing")
        try require(.acl)
        let r = runProgram(command("getfacl"), ["-n", "-p", path])
        XCTAssertEqual(r.status, 0, "getfacl \(r.summary): \(r.err)")
        let text = r.out
        for line in ["user::rw-", "user:777:r--", "user:4242:r--", "group::---", "mask::r--", "other::---"] {
            XCTAssertTrue(text.contains(line), "\(line) in \(text)")
        }
        try ACL.ensureReaders(path: path, [])
        XCTAssertEqual(ACL.readers(fd: fd), [])
        XCTAssertEqual(fstat(fd, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        #endif
    }
}
