import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Tests that act as real logins on one host: as root (CI runs as root) a
/// group and `loginNames` are made with groupadd/useradd, `tool` is copied
/// where every login can run it (`bin`), and everything is removed
/// afterwards. Without root each test is skipped, saying why.
class RealLoginsCase: ToolTestCase {
    /// The short names of the logins to make (subclasses say).
    class var loginNames: [String] { [] }
    /// The prefix of the group's and logins' names.
    class var groupPrefix: String { "nrl" }
    /// The executable the logins run.
    class var tool: String { "" }

    var logins: RealLogins?
    var group = ""
    var users: [String: String] = [:]  // short name → login
    var bin = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        // The logins are made with useradd and run through setpriv.
        try require(.root)
    }

    override func setUp() {
        super.setUp()
        guard getuid() == 0 else { return }
        let made = RealLogins(Self.loginNames, base: tmp, groupPrefix: Self.groupPrefix)
        XCTAssertEqual(made.problems, [])
        logins = made
        group = made.group!
        users = made.logins
        bin = tmp + "/bin"
        try? FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try? FileManager.default.copyItem(atPath: executable(Self.tool), toPath: bin + "/" + Self.tool)
        _ = chmod(tmp, 0o755)
        _ = chmod(bin, 0o755)
    }

    override func tearDown() {
        if let l = logins {
            l.remove()
            XCTAssertEqual(l.problems, [])
        }
        super.tearDown()
    }

    /// A program run as root (the test's own identity), by absolute path.
    @discardableResult
    func root(_ argv: [String], env: [String: String] = [:]) -> RunResult {
        run(argv[0], Array(argv.dropFirst()), env: env, absolute: true)
    }
}
