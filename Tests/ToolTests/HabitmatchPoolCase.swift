import XCTest

/// A synced habitmatch pool in the test's folder, its members named with
/// --user and the clock pinned: what the habitmatch tool tests share.
class HabitmatchPoolCase: ToolTestCase {
    var now: String { "2026-11-22T10:00:00-05:00" }
    var pool: String { tmp + "/pool" }

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["HABITMATCH_DATA_DIR"] = dataDir
        e["HABITMATCH_POOL"] = pool
        e["HABITMATCH_NOW"] = now
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    @discardableResult
    func hm(_ user: String, _ args: String..., env: [String: String] = [:]) -> RunResult {
        run("habitmatch", ["--user", user] + args, env: env)
    }
}
