import XCTest
@testable import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

final class ProcessesTests: XCTestCase {
    /// A /proc of files: pids only, by owner; the full program name read
    /// only where the kernel's name may have been cut at 15 bytes.
    func testAProcOfFiles() throws {
        let root = NSTemporaryDirectory() + "proc-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        func make(_ entry: String, comm: String, cmdline: String) throws {
            let d = root + "/" + entry
            try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
            try Data((comm + "\n").utf8).write(to: URL(fileURLWithPath: d + "/comm"))
            try Data(cmdline.utf8).write(to: URL(fileURLWithPath: d + "/cmdline"))
        }
        try make("12", comm: "java", cmdline: "/usr/lib/jvm/bin/java\0-jar\0mc.jar\0")
        try make("345", comm: "MinecraftLaunch", cmdline: "/opt/mc/MinecraftLauncher\0--x\0")
        try make("7", comm: "renamed", cmdline: "/usr/bin/other\0")
        try make("self", comm: "x", cmdline: "x\0")
        try make("12a", comm: "x", cmdline: "x\0")
        let all = Processes.list(root: root)
        XCTAssertEqual(all.map(\.pid), [7, 12, 345], "numeric entries only, in pid order")
        XCTAssertEqual(all.map(\.comm), ["renamed", "java", "MinecraftLaunch"])
        XCTAssertEqual(all.map(\.exe), ["", "", "MinecraftLauncher"], "argv[0] only behind a cut name")
        XCTAssertTrue(Processes.matches("minecraftlauncher", all[2]), "the full name of a cut one, case ignored")
        XCTAssertTrue(Processes.matches("jav?", all[1]))
        XCTAssertFalse(Processes.matches("other", all[0]), "the kernel's name, as pgrep matches it")
        XCTAssertEqual(Processes.list(root: root, uids: [getuid() &+ 1]).count, 0, "others' uids left out")
        XCTAssertEqual(Processes.list(root: root + "/missing").count, 0)
    }

    /// The real /proc: this process is there, under its own uid.
    func testThisProcessIsListed() {
        #if os(Linux)
        let me = Processes.list(uids: [geteuid()]).first { $0.pid == getpid() }
        XCTAssertNotNil(me)
        XCTAssertFalse(me?.comm.isEmpty ?? true)
        #endif
    }
}
