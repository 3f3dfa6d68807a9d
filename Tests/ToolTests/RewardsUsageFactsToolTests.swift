import XCTest

/// Usage journalled as facts, through the executable: one family, two
/// laptops sharing a sync folder, the same ActivityWatch-style line
/// ingested on both (each parent's cron does it); and a store written by
/// rewards 1.1 (usage as per-day summaries) that keeps its history and
/// counts nothing twice.
final class RewardsUsageFactsToolTests: ToolTestCase {
    let now = "2026-11-21T20:00:00-05:00"
    let line = #"{"child":"alex","app":"Duolingo","start":"2026-11-21T16:00:00-05:00","end":"2026-11-21T16:30:00-05:00"}"# + "\n"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["REWARDS_DATA_DIR"] = dataDir
        e["REWARDS_NOW"] = now
        e["REWARDS_USER"] = "mum"
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    func testTheSameSessionOnTwoLaptopsCountsOnce() throws {
        let sync = tmp + "/Sync"
        @discardableResult func on(_ device: String, _ args: String..., stdin: String? = nil) -> RunResult {
            run("rewards", args, stdin: stdin, env: ["REWARDS_DATA_DIR": tmp + "/\(device)", "REWARDS_SYNC_DIR": sync, "REWARDS_ACTOR": device])
        }
        XCTAssertEqual(on("laptopA", "init").code, 0)
        on("laptopA", "child", "add", "Alex", "--user", "alex")
        on("laptopA", "app", "set", "Duolingo", "--learning")
        let a = on("laptopA", "ingest", stdin: line)
        XCTAssertEqual(a.code, 0, a.err)
        XCTAssertEqual(a.records.first?["added"] as? Int, 1)
        XCTAssertEqual(a.records.first?["points"] as? Int, 30)
        // Laptop B's cron, after the sync engine brought A's journal over.
        let b = on("laptopB", "ingest", stdin: line)
        XCTAssertEqual(b.code, 0, b.err)
        XCTAssertEqual(b.records.first?["duplicates"] as? Int, 1, "B has A's session already")
        XCTAssertEqual(b.records.first?["points"] as? Int, 0)
        // Both ingest it again before they meet: each journals nothing new.
        XCTAssertEqual(on("laptopA", "ingest", stdin: line).records.first?["added"] as? Int, 0)
        for device in ["laptopA", "laptopB"] {
            let d = on(device, "dashboard", "alex")
            XCTAssertEqual(d.code, 0, d.err)
            XCTAssertEqual(d.records.first?["balance"] as? Int, 30, "\(device): balance 30, not 60")
            XCTAssertEqual((d.records.first?["last_sessions"] as? [[String: Any]])?.count, 1, "\(device): the session listed once")
        }
    }

    /// Two laptops that had not synced yet each journal the session: after
    /// the sync the session counts once on both.
    func testTheSameSessionJournalledOnBothBeforeTheyMeetCountsOnce() throws {
        @discardableResult func on(_ device: String, _ args: String..., stdin: String? = nil) -> RunResult {
            run("rewards", args, stdin: stdin, env: ["REWARDS_DATA_DIR": tmp + "/\(device)", "REWARDS_SYNC_DIR": tmp + "/\(device)-sync",
                                                     "REWARDS_ACTOR": device])
        }
        XCTAssertEqual(on("laptopA", "init").code, 0)
        on("laptopA", "child", "add", "Alex", "--user", "alex")
        on("laptopA", "app", "set", "Duolingo", "--learning")
        let fm = FileManager.default
        try fm.createDirectory(atPath: tmp + "/laptopB-sync", withIntermediateDirectories: true)
        try fm.copyItem(atPath: tmp + "/laptopA-sync/laptopA.ndjson", toPath: tmp + "/laptopB-sync/laptopA.ndjson")
        XCTAssertEqual(on("laptopA", "ingest", stdin: line).records.first?["added"] as? Int, 1)
        XCTAssertEqual(on("laptopB", "ingest", stdin: line).records.first?["added"] as? Int, 1)
        // The sync engine copies both ways.
        try fm.removeItem(atPath: tmp + "/laptopB-sync/laptopA.ndjson")
        try fm.copyItem(atPath: tmp + "/laptopA-sync/laptopA.ndjson", toPath: tmp + "/laptopB-sync/laptopA.ndjson")
        try fm.copyItem(atPath: tmp + "/laptopB-sync/laptopB.ndjson", toPath: tmp + "/laptopA-sync/laptopB.ndjson")
        for device in ["laptopA", "laptopB"] {
            let d = on(device, "dashboard", "alex")
            XCTAssertEqual(d.records.first?["balance"] as? Int, 30, "\(device): \(d.err)")
            XCTAssertEqual((d.records.first?["last_sessions"] as? [[String: Any]])?.count, 1, "\(device)")
        }
        XCTAssertEqual(on("laptopA", "report", "--by", "app").records.first { $0["app"] as? String == "Duolingo" }?["learning_minutes"] as? Int, 30, "the half hour once")
        // A change that starts from the snapshot's hot part with B's facts past it counts them first.
        let redeem = on("laptopB", "redeem", "alex", "3")
        XCTAssertEqual(redeem.code, 0, redeem.err)
        XCTAssertEqual(on("laptopB", "dashboard", "alex").records.first?["balance"] as? Int, 0)
    }

    var fixture: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/NudgeKitTests/Rewards/Fixtures/rewards-1.1-journal.ndjson"
    }

    /// A store rewards 1.1 wrote (its ingest journalled usage_day summaries;
    /// a held session approved, then its usage_day): the same balance, and
    /// the sessions it counted, ingested again, count nothing; a new one
    /// counts.
    func testARewards11StoreCountsItsHistoryOnce() throws {
        try FileManager.default.createDirectory(atPath: dataDir + "/journal", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture, toPath: dataDir + "/journal/oldhost.ndjson")
        _ = chmod(dataDir, 0o700)
        let before = run("rewards", ["dashboard", "alex"])
        XCTAssertEqual(before.code, 0, before.err)
        XCTAssertEqual(before.err, "")
        let balance = try XCTUnwrap(before.records.first?["balance"] as? Int)
        XCTAssertEqual(balance, 95, "30 + 20 + the 45 of the session held as too long and approved")
        let old = [
            #"{"child":"alex","app":"Duolingo","start":"2026-11-20T16:00:00-05:00","end":"2026-11-20T16:30:00-05:00"}"#,
            #"{"child":"alex","app":"Duolingo","start":"2026-11-21T09:00:00-05:00","end":"2026-11-21T09:45:00-05:00"}"#,
            #"{"child":"alex","app":"Duolingo","start":"2026-11-21T10:00:00-05:00","end":"2026-11-21T10:20:00-05:00"}"#,
        ]
        let again = run("rewards", ["ingest", "--sessions"], stdin: old.joined(separator: "\n") + "\n")
        XCTAssertEqual(again.code, 0, again.err)
        XCTAssertEqual(again.records.filter { $0["type"] as? String == "session" }.map { $0["reason"] as? String }, ["duplicate", "duplicate", "duplicate"])
        XCTAssertEqual(run("rewards", ["dashboard", "alex"]).records.first?["balance"] as? Int, balance)
        let new = run("rewards", ["ingest"], stdin: #"{"child":"alex","app":"Duolingo","start":"2026-11-21T17:00:00-05:00","duration_s":600}"# + "\n")
        XCTAssertEqual(new.records.first?["points"] as? Int, 10)
        XCTAssertEqual(run("rewards", ["dashboard", "alex"]).records.first?["balance"] as? Int, balance + 10)
        // The history stays as it was; what is new is journalled as observed, once.
        let old11 = try String(contentsOfFile: dataDir + "/journal/oldhost.ndjson", encoding: .utf8)
        XCTAssertTrue(old11.hasPrefix(try String(contentsOfFile: fixture, encoding: .utf8)))
        let journal = try FileManager.default.contentsOfDirectory(atPath: dataDir + "/journal").filter { $0.hasSuffix(".ndjson") }
            .map { try String(contentsOfFile: dataDir + "/journal/" + $0, encoding: .utf8) }.joined()
        XCTAssertEqual(journal.components(separatedBy: #""type":"usage_day""#).count - 1, 3)
        let facts = journal.split(separator: "\n").filter { $0.contains(#""type":"sessions""#) }
        XCTAssertEqual(facts.count, 1, "the sessions counted before journal nothing again")
        XCTAssertTrue(facts.first?.contains(#""source":"ndjson""#) == true)
        let log = run("rewards", ["log"]).records.map { $0["text"] as? String ?? "" }
        XCTAssertEqual(log.filter { $0.hasPrefix("usage for Alex") }.count, 4, "\(log)")
    }

    /// A change begun on the hot part that meets usage it cannot fold there
    /// (no snapshot to index the days it touches: the journals folded
    /// afresh) begins again in full, having written nothing, and counts it.
    func testAChangeThatCannotFoldUsageByTheIndexBeginsAgainInFull() throws {
        XCTAssertEqual(run("rewards", ["init"]).code, 0)
        run("rewards", ["child", "add", "Alex", "--user", "alex"])
        run("rewards", ["app", "set", "Duolingo", "--learning"])
        XCTAssertEqual(run("rewards", ["ingest"], stdin: line).records.first?["points"] as? Int, 30)
        try FileManager.default.removeItem(atPath: dataDir + "/snapshot.ndjson")
        let redeem = run("rewards", ["redeem", "Alex", "2"], env: ["REWARDS_USER": "alex"])
        XCTAssertEqual(redeem.code, 0, redeem.err)
        XCTAssertEqual(redeem.err, "")
        XCTAssertEqual(run("rewards", ["dashboard", "alex"]).records.first?["balance"] as? Int, 10, "30 earned, 20 redeemed")
    }

    /// The badges one ingest awards come in the children's order by name,
    /// the same on every run (not the order of a hashed dictionary).
    func testBadgesFromOneIngestComeInTheChildrensOrder() throws {
        XCTAssertEqual(run("rewards", ["init"]).code, 0)
        let names = ["Fay", "Ben", "Eve", "Alex", "Dan", "Cleo"]
        for n in names { XCTAssertEqual(run("rewards", ["child", "add", n]).code, 0) }
        run("rewards", ["app", "set", "Duolingo", "--learning"])
        let lines = names.map { #"{"child":"\#($0.lowercased())","app":"Duolingo","start":"2026-11-21T16:00:00-05:00","end":"2026-11-21T16:30:00-05:00"}"# }
        let r = run("rewards", ["ingest"], stdin: lines.joined(separator: "\n") + "\n")
        XCTAssertEqual(r.code, 0, r.err)
        let badged = r.records.filter { $0["type"] as? String == "badge" && $0["badge"] as? String == "first-points" }.compactMap { $0["child"] as? String }
        XCTAssertEqual(badged, names.sorted())
    }

    /// A day past what one event holds (a broken or hostile export) is
    /// journalled as several events, none past the bound, and counts whole.
    func testADayPastTheBoundIsSplitAcrossEvents() throws {
        XCTAssertEqual(run("rewards", ["init"]).code, 0)
        run("rewards", ["child", "add", "Alex"])
        run("rewards", ["app", "set", "Duolingo", "--learning"])
        run("rewards", ["settings", "set", "min_session_minutes", "0"])
        let start: Int64 = 1_795_150_800  // 2026-11-21T00:00:00-05:00
        let n = 20_001
        var input = ""
        for k in 0..<Int64(n) { input += #"{"child":"Alex","app":"Duolingo","start":\#(start + k * 3),"duration_s":1}"# + "\n" }
        let r = run("rewards", ["ingest"], stdin: input)
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.records.first?["sessions"] as? Int, n)
        XCTAssertEqual(r.records.first?["added"] as? Int, n)
        let journal = try String(contentsOfFile: dataDir + "/journal/" + (try FileManager.default.contentsOfDirectory(atPath: dataDir + "/journal").first { $0.hasSuffix(".ndjson") } ?? ""), encoding: .utf8)
        let counts = journal.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
            .filter { $0["type"] as? String == "sessions" }.map { (($0["s"] as? [Any])?.count ?? 0) / 3 }
        XCTAssertEqual(counts, [20_000, 1])
        let again = run("rewards", ["ingest"], stdin: input)
        XCTAssertEqual(again.records.first?["duplicates"] as? Int, n, "all of it counted once")
    }
}
