import XCTest

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
        ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": tmp, "TZ": "America/New_York",
         "TENCLUB_DATA_DIR": dataDir, "LANG": "C.UTF-8"]
    }

    @discardableResult
    func run(_ tool: String, _ args: [String], stdin: String? = nil, env: [String: String] = [:]) -> RunResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable(tool))
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

    static var packageRoot: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }
}
