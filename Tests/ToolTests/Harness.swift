import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the built executables as black boxes: a private data directory, a
/// pinned zone, stdin in, stdout/stderr/exit status out.
struct RunResult {
    var out: String
    var err: String
    var code: Int32
    var lines: [String] { out.split(separator: "\n").map(String.init) }
    var records: [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
}

class ToolTestCase: XCTestCase {
    var tmp = ""
    var dataDir = ""

    override func setUp() {
        super.setUp()
        tmp = NSTemporaryDirectory() + "tooltest-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        dataDir = tmp + "/data"
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: tmp)
        super.tearDown()
    }

    static let productsDirectory: URL = {
        var candidates = [Bundle.main.bundleURL, Bundle(for: ToolTestCase.self).bundleURL,
                          URL(fileURLWithPath: CommandLine.arguments[0])]
        for c in candidates { candidates.append(c.deletingLastPathComponent()) }
        for c in candidates {
            for dir in [c, c.deletingLastPathComponent()] where FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("tenclub").path) {
                return dir
            }
        }
        fatalError("cannot find the built executables near \(candidates)")
    }()

    func executable(_ tool: String) -> String { ToolTestCase.productsDirectory.appendingPathComponent(tool).path }

    var baseEnvironment: [String: String] {
        var e = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": tmp, "TZ": "America/New_York",
                 "TENCLUB_DATA_DIR": dataDir, "LANG": "C.UTF-8"]
        // A sanitizer run (.ci/run's AddressSanitizer step) reaches the
        // tools too: its options go with them, so a tool's own memory error
        // fails the test that ran it. NUDGE_TOOLS_ASAN_OPTIONS, when set,
        // are the tools' own (leaks are looked for in the tools, not in the
        // test runner, where XCTest and Foundation keep what they keep).
        let mine = ProcessInfo.processInfo.environment
        for k in ToolTestCase.sanitizerVariables { if let v = mine[k] { e[k] = v } }
        if let v = mine["NUDGE_TOOLS_ASAN_OPTIONS"] { e["ASAN_OPTIONS"] = v }
        return e
    }

    static let sanitizerVariables = ["ASAN_OPTIONS", "LSAN_OPTIONS", "SWIFT_BACKTRACE"]

    @discardableResult
    func run(_ tool: String, _ args: [String], stdin: String? = nil, env: [String: String] = [:], absolute: Bool = false) -> RunResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: absolute ? tool : executable(tool))
        p.arguments = args
        var environment = baseEnvironment
        for (k, v) in env { environment[k] = v }
        p.environment = environment
        let id = UUID().uuidString
        let outPath = tmp + "/out-\(id)", errPath = tmp + "/err-\(id)", inPath = tmp + "/in-\(id)"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        _ = FileManager.default.createFile(atPath: inPath, contents: Data((stdin ?? "").utf8))
        p.standardOutput = FileHandle(forWritingAtPath: outPath)
        p.standardError = FileHandle(forWritingAtPath: errPath)
        p.standardInput = FileHandle(forReadingAtPath: inPath)
        try! p.run()
        p.waitUntilExit()
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return RunResult(out: out, err: err, code: p.terminationStatus)
    }

    @discardableResult
    func tenclub(_ args: String..., stdin: String? = nil, env: [String: String] = [:]) -> RunResult {
        run("tenclub", args, stdin: stdin, env: env)
    }

    /// Runs a shell line with the executables on PATH.
    @discardableResult
    func sh(_ script: String, env: [String: String] = [:]) -> RunResult {
        var e = env
        e["PATH"] = ToolTestCase.productsDirectory.path + ":/usr/local/bin:/usr/bin:/bin"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", script]
        var environment = baseEnvironment
        for (k, v) in e { environment[k] = v }
        p.environment = environment
        let outPath = tmp + "/sh-out-\(UUID().uuidString)", errPath = tmp + "/sh-err-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        p.standardOutput = FileHandle(forWritingAtPath: outPath)
        p.standardError = FileHandle(forWritingAtPath: errPath)
        try! p.run()
        p.waitUntilExit()
        return RunResult(out: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                         err: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "", code: p.terminationStatus)
    }

    func write(_ name: String, _ text: String) -> String {
        let path = tmp + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    static var packageRoot: String { TestSupport.packageRoot() }
}

// MARK: Processes with a time limit, signals, other users, small file systems

private func sendSignal(_ pid: Int32, _ sig: Int32) -> Int32 { kill(pid, sig) }
/// write(2) of all of `b` at once; the count written, or -1.
func posixWrite(_ fd: Int32, _ b: [UInt8]) -> Int { b.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }


/// How a process ended.
struct Outcome {
    var result: RunResult
    /// The signal that ended it, if one did.
    var signal: Int32?
    /// Whether it was killed for running past its time limit.
    var timedOut: Bool
    var code: Int32 { result.code }
    var out: String { result.out }
    var err: String { result.err }
    /// stderr cut at newline bytes only (a "\r\n" stays inside its line).
    var errLines: [String] {
        Array(result.err.utf8).split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// A process started by `launch`, still running or not.
final class Launched {
    let process: Process
    let outPath: String
    let errPath: String
    init(process: Process, outPath: String, errPath: String) {
        self.process = process
        self.outPath = outPath
        self.errPath = errPath
    }
    var pid: Int32 { process.processIdentifier }
    /// What it has printed so far.
    var outSoFar: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }

    func send(_ sig: Int32 = SIGKILL) { _ = sendSignal(process.processIdentifier, sig) }

    /// Waits for the end, killing the process (SIGKILL) once `timeout` seconds have passed.
    func finish(timeout: Double = 20) -> Outcome {
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                send()
                break
            }
            usleep(2_000)
        }
        process.waitUntilExit()
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let err = (try? Data(contentsOf: URL(fileURLWithPath: errPath))).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let signaled = process.terminationReason == .uncaughtSignal
        return Outcome(result: RunResult(out: out, err: err, code: process.terminationStatus),
                       signal: signaled ? process.terminationStatus : nil, timedOut: timedOut)
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// A login made for one test, removed in tearDown (TestSupport's RealLogins).
struct TestUser {
    var name: String
    var uid: UInt32
    var gid: UInt32
    var logins: RealLogins
    var short: String
}

extension ToolTestCase {
    /// Starts `tool` (or, with `asUser`, `setpriv` running it as that user)
    /// with stdin from `stdin` (text) or `stdinBytes`, stdout and stderr to files.
    func launch(_ tool: String, _ args: [String], stdin: String? = nil, stdinBytes: [UInt8]? = nil,
                env: [String: String] = [:], asUser user: TestUser? = nil) -> Launched {
        let p = Process()
        if let u = user {
            let argv = u.logins.asLogin(u.short)
            p.executableURL = URL(fileURLWithPath: argv[0])
            p.arguments = Array(argv.dropFirst()) + [executable(tool)] + args
        } else {
            p.executableURL = URL(fileURLWithPath: executable(tool))
            p.arguments = args
        }
        var environment = baseEnvironment
        for (k, v) in env { environment[k] = v }
        p.environment = environment
        let id = UUID().uuidString
        let outPath = tmp + "/out-\(id)", errPath = tmp + "/err-\(id)", inPath = tmp + "/in-\(id)"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        _ = FileManager.default.createFile(atPath: inPath, contents: Data(stdinBytes ?? Array((stdin ?? "").utf8)))
        p.standardOutput = FileHandle(forWritingAtPath: outPath)
        p.standardError = FileHandle(forWritingAtPath: errPath)
        p.standardInput = FileHandle(forReadingAtPath: inPath)
        try! p.run()
        return Launched(process: p, outPath: outPath, errPath: errPath)
    }

    /// Starts a bash script with the executables on PATH.
    func launchShell(_ script: String, env: [String: String] = [:]) -> Launched {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", script]
        var environment = baseEnvironment
        for (k, v) in env { environment[k] = v }
        environment["PATH"] = ToolTestCase.productsDirectory.path + ":/usr/local/bin:/usr/bin:/bin"
        p.environment = environment
        return start(p)
    }

    /// Starts `p` with no input, its output and errors in files of the
    /// test's folder, left running.
    func start(_ p: Process) -> Launched {
        let id = UUID().uuidString
        let outPath = tmp + "/out-\(id)", errPath = tmp + "/err-\(id)"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        p.standardOutput = FileHandle(forWritingAtPath: outPath)
        p.standardError = FileHandle(forWritingAtPath: errPath)
        p.standardInput = FileHandle.nullDevice
        try! p.run()
        return Launched(process: p, outPath: outPath, errPath: errPath)
    }

    /// Runs `tool` to its end or to `timeout` seconds, whichever comes first.
    func runLimited(_ tool: String, _ args: [String], stdin: String? = nil, stdinBytes: [UInt8]? = nil,
                    env: [String: String] = [:], asUser user: TestUser? = nil, timeout: Double = 20) -> Outcome {
        launch(tool, args, stdin: stdin, stdinBytes: stdinBytes, env: env, asUser: user).finish(timeout: timeout)
    }

    /// Runs a program (not one of ours) and returns its status and output.
    @discardableResult
    func system(_ path: String, _ args: [String]) -> RunResult {
        let r = runProgram(path, args)
        return RunResult(out: r.out, err: r.err, code: r.status)
    }

    /// Creates a login of its own for a test, to be removed with
    /// `removeUser`. Only root can; the caller requires it.
    func makeUser() throws -> TestUser {
        let l = RealLogins(["nudgetest"], base: tmp + "/logins")
        // As root this must work: a failure fails the test, it never skips it.
        guard l.problems.isEmpty else { throw HarnessError(l.problems.joined(separator: "; ")) }
        return TestUser(name: l.login("nudgetest"), uid: l.uid("nudgetest"), gid: l.gid("nudgetest"), logins: l, short: "nudgetest")
    }

    func removeUser(_ u: TestUser) {
        u.logins.remove()
        XCTAssertEqual(u.logins.problems, [])
    }

    /// `argv` run as the login `short` of `logins`, with this test's environment and `env`.
    @discardableResult
    func runAs(_ logins: RealLogins, _ short: String, _ argv: [String], env: [String: String] = [:]) -> RunResult {
        let prefix = logins.asLogin(short)
        return run(prefix[0], Array(prefix.dropFirst()) + argv, env: env, absolute: true)
    }

    /// Mounts a tmpfs of `size` (e.g. "256k") on `dir`, creating it 0700.
    func mountTmpfs(_ dir: String, size: String) -> RunResult {
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let r = system("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", dir])
        return r
    }

    func unmount(_ dir: String) {
        if system("/usr/bin/umount", [dir]).code != 0 { system("/usr/bin/umount", ["-l", dir]) }
    }

    /// Fills the file system holding `dir` with a file named `name` until
    /// it is full; returns its path.
    func fill(_ dir: String, name: String = "filler") -> String {
        let path = dir + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(fd >= 0, "cannot create \(path)")
        let block = [UInt8](repeating: 0x2E, count: 4096)
        while posixWrite(fd, block) > 0 {}
        // And the last bytes that do not make a whole block.
        let one: [UInt8] = [0x2E]
        while posixWrite(fd, one) > 0 {}
        close(fd)
        return path
    }

    // Files.

    func bytes(_ path: String) -> [UInt8] {
        (try? Data(contentsOf: URL(fileURLWithPath: path))).map { Array($0) } ?? []
    }

    func setBytes(_ path: String, _ b: [UInt8]) {
        let fd = open(path, O_WRONLY | O_TRUNC)
        precondition(fd >= 0, "cannot open \(path)")
        _ = posixWrite(fd, b)
        close(fd)
    }

    func appendBytes(_ path: String, _ b: [UInt8]) {
        let fd = open(path, O_WRONLY | O_APPEND)
        precondition(fd >= 0, "cannot open \(path)")
        _ = posixWrite(fd, b)
        close(fd)
    }

    /// The first whole line a process writes to `path` (a pid file), waiting
    /// for it up to `timeout` seconds: nil if none came.
    func waitForLine(_ path: String, timeout: Double = 10) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if let nl = text.firstIndex(of: "\n") { return String(text[..<nl]) }
            usleep(10_000)
        }
        return nil
    }

    func names(in dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    func chmodPath(_ path: String, _ mode: mode_t) { XCTAssertEqual(chmod(path, mode), 0, "chmod \(path)") }
    func chownPath(_ path: String, _ u: TestUser) { XCTAssertEqual(chown(path, u.uid, u.gid), 0, "chown \(path)") }

    /// chown -R.
    func chownTree(_ path: String, _ u: TestUser) {
        chownPath(path, u)
        if let e = FileManager.default.enumerator(atPath: path) {
            while let n = e.nextObject() as? String { _ = chown(path + "/" + n, u.uid, u.gid) }
        }
    }
}
