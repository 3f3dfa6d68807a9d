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

    /// The executable's base name, as the link reads ("/path (deleted)" for
    /// a replaced one, any bytes a fake /proc holds), and the interpreter
    /// check (a name, or one with a version after it) made on bytes: as
    /// splitting the link's text on "/" and comparing characters do.
    func testExecutablesAndInterpretersAsTheTextRulesSayThem() throws {
        let root = NSTemporaryDirectory() + "proc-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        var rng = SeededRandom(seed: 57)
        let parts = ["usr", "bin", "mcgame", "python3.12", "bash", "", " (deleted)", "é", "a b", ".", "sh²"]
        var links: [Int32: String] = [:]
        for pid in Int32(1)...Int32(300) {
            let d = root + "/\(pid)"
            try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
            try Data("x\n".utf8).write(to: URL(fileURLWithPath: d + "/comm"))
            try Data("x\0/tmp/game.py\0".utf8).write(to: URL(fileURLWithPath: d + "/cmdline"))
            var link = (Bool.random(using: &rng) ? "/" : "") + (0..<Int.random(in: 1...4, using: &rng)).map { _ in parts.randomElement(using: &rng)! }.joined(separator: "/")
            if Int.random(in: 0...4, using: &rng) == 0 { link += "/" }
            if Int.random(in: 0...4, using: &rng) == 0 { link += " (deleted)" }
            if link.isEmpty { link = "x" }
            XCTAssertEqual(symlink(link, d + "/exe"), 0)
            links[pid] = link
        }
        for p in Processes.list(root: root) {
            let full = try XCTUnwrap(links[p.pid])
            let path = full.hasSuffix(" (deleted)") ? String(full.dropLast(10)) : full
            XCTAssertEqual(p.binary, String(path.split(separator: "/").last ?? ""), full)
            let base = p.binary.isEmpty ? p.comm : p.binary
            let textRule = Processes.interpreters.contains(where: { base == $0 || (base.hasPrefix($0) && base.dropFirst($0.count).allSatisfy { $0.isNumber || $0 == "." }) })
            XCTAssertEqual(p.script, textRule ? "game.py" : "", full)
        }
        for name in ["python", "python3", "python3.12", "python³", "bash٣", "sh", "shell", "bash-5", "dash.", "zsh5.9", "é", "", "Python3", "node18", "perl5.36.0"] {
            let textRule = Processes.interpreters.contains(where: { name == $0 || (name.hasPrefix($0) && name.dropFirst($0.count).allSatisfy { $0.isNumber || $0 == "." }) })
            XCTAssertEqual(Processes.isInterpreter(name), textRule, name)
        }
        // A pattern without wildcards is compared without fnmatch: the same answers.
        let letters = ["m", "M", "c", "C", "é", "É", "1", "-", "_", "[", "*", "?", "\\"]
        for _ in 0..<5_000 {
            func word() -> String { (0..<Int.random(in: 0...4, using: &rng)).map { _ in letters[Int.random(in: 0..<letters.count, using: &rng)] }.joined() }
            let (pattern, comm) = (word(), word())
            let expected = !comm.isEmpty && fnmatch(pattern, comm, 1 << 4) == 0
            XCTAssertEqual(Processes.matches(Processes.Pattern(pattern), RunningProcess(pid: 1, uid: 0, comm: comm, exe: "")), expected, "\(pattern) \(comm)")
        }
    }

    /// A matched process's tree: its descendants and, when it leads its
    /// group, the group's members, of its uid only.
    func testATreeIsWhatTheMatchedProcessStarted() {
        func p(_ pid: Int32, _ ppid: Int32, _ pgid: Int32, uid: UInt32 = 1000) -> RunningProcess {
            var r = RunningProcess(pid: pid, uid: uid, comm: "x", exe: "")
            r.ppid = ppid
            r.pgid = pgid
            return r
        }
        let all = [p(1, 0, 1, uid: 0), p(10, 1, 10), p(11, 10, 10), p(12, 11, 10), p(13, 1, 10), p(14, 1, 14), p(15, 10, 10, uid: 0), p(20, 1, 20), p(21, 20, 20)]
        XCTAssertEqual(Processes.tree([all[1]], in: all).map(\.pid), [10, 11, 12, 13], "children, grandchildren, an orphan of its group; not root's")
        XCTAssertEqual(Processes.tree([all[8]], in: all).map(\.pid), [21], "a member that does not lead: its own tree only")
        XCTAssertEqual(Processes.scriptName(ArraySlice(Array("python3\0-u\0/home/a/game.py\0--x\0".utf8))), "game.py")
        XCTAssertEqual(Processes.scriptName(ArraySlice(Array("bash\0-c\0sleep 1\0".utf8))), "")
        // An interpreter given code, not a script: the file names in the code.
        func words(_ s: String) -> [String] { Array(s.utf8).withUnsafeBufferPointer { Processes.codeWords($0) } }
        XCTAssertEqual(words("python3\0-c\0import runpy; runpy.run_path(\"/home/a/minecraft.py\")\0"), ["runpy.run_path", "minecraft.py"])
        XCTAssertEqual(words("sh\0-c\0python3 - < minecraft.py\0"), ["minecraft.py"])
        XCTAssertEqual(words("perl\0-e\0sleep 300\0"), [])
        XCTAssertEqual(words("python3\0-\0"), [], "no code: only its open files tell")
        XCTAssertEqual(words("sh\0-c\0"), [], "a -c with nothing after it")
        var p = RunningProcess(pid: 9, uid: 1, comm: "python3", exe: "")
        p.also = ["minecraft.py"]
        XCTAssertTrue(Processes.matches("minecraft.py", p))
        XCTAssertFalse(Processes.matches("java", p))
    }

    /// The byte readings a cron run over hundreds of processes uses agree
    /// with the plain text rules, on names and command lines made of the
    /// bytes that matter (NUL, "/", "-", digits, ".", interpreter names,
    /// non-ASCII), from a seeded generator.
    func testByteReadingsAgreeWithTheTextRules() {
        var rng = SeededRandom(seed: 5)
        let parts: [[UInt8]] = [[0], [0x2F], [0x2D], [0x2D, 0x63], [0x2D, 0x6D], [0x33], [0x2E], [0xC3, 0xA9], [0xFF], Array("python".utf8),
                                Array("bash".utf8), Array("sh".utf8), Array("game.py".utf8), Array("x".utf8), Array(" (deleted)".utf8)]
        func textScript(_ b: [UInt8]) -> String {
            for a in b.split(separator: 0, omittingEmptySubsequences: false).dropFirst() where !a.isEmpty {
                let s = String(decoding: a, as: UTF8.self)
                if s.hasPrefix("-") {
                    if ["-c", "-e", "-m", "-W", "-X"].contains(s) { return "" }
                    continue
                }
                return String(s.split(separator: "/").last ?? "")
            }
            return ""
        }
        for _ in 0..<5_000 {
            let b = (0..<Int.random(in: 0...8, using: &rng)).flatMap { _ in parts[Int.random(in: 0..<parts.count, using: &rng)] }
            XCTAssertEqual(Processes.scriptName(ArraySlice(b)), textScript(b), "\(b)")
            let base = b.withUnsafeBufferPointer { Processes.baseName($0) }
            XCTAssertEqual(base, String(decoding: b.split(separator: 0x2F).last ?? [], as: UTF8.self), "\(b)")
            let name = String(decoding: b.filter { $0 != 0 }, as: UTF8.self)
            let textRule = Processes.interpreters.contains(where: { name == $0 || (name.hasPrefix($0) && name.dropFirst($0.count).allSatisfy { $0.isNumber || $0 == "." }) })
            XCTAssertEqual(Processes.isInterpreter(name), textRule, name)
        }
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
