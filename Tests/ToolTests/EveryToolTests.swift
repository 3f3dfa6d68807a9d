import XCTest
import NudgeKit

/// What every tool does the same way.
final class EveryToolTests: ToolTestCase {
    var tools: [String] { toolSpecs.map(\.name) }

    func testHelpAndVersionForEveryTool() {
        for tool in tools {
            let help = run(tool, ["--help"])
            XCTAssertEqual(help.code, 0, tool)
            XCTAssertTrue(help.out.hasPrefix("usage: \(tool) "), help.out)
            XCTAssertEqual(help.err, "")
            XCTAssertEqual(run(tool, ["-h"]).out, help.out)
            let version = run(tool, ["--version"])
            XCTAssertEqual(version.code, 0)
            XCTAssertEqual(version.out, "\(tool) 0.1.0\n")
        }
    }

    /// TOOL_LOCK_TIMEOUT is seconds; anything else is bad configuration,
    /// named, before the command does anything.
    func testABadLockTimeoutIsBadConfiguration() {
        for tool in tools {
            let v = tool.uppercased() + "_LOCK_TIMEOUT"
            let bad = run(tool, ["--now", "2026-11-22T10:00:00-05:00"], env: [v: "abc"])
            XCTAssertEqual(bad.code, 78, tool)
            XCTAssertEqual(bad.err, "\(tool): \(v) must be a number of seconds, not 'abc'\n")
            XCTAssertEqual(bad.out, "")
            XCTAssertEqual(run(tool, ["--now", "2026-11-22T10:00:00-05:00"], env: [v: "-1"]).code, 78, tool)
            let ok = run(tool, ["--now", "2026-11-22T10:00:00-05:00"], env: [v: "0.5"])
            XCTAssertEqual(ok.code, 0, "\(tool): \(ok.err)")
        }
    }

    /// Each tool's data directory says whose it is; every other tool
    /// refuses it (78, naming the owner) and leaves it as it was. A
    /// directory from before the `tool` file is known by its snapshot.
    func testADataDirectoryBelongsToOneTool() throws {
        let now = "2026-11-22T10:00:00-05:00"
        for owner in tools {
            let dir = tmp + "/data-" + owner
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let first = run(owner, ["--data-dir", dir, "--now", now])
            XCTAssertEqual(first.code, 0, "\(owner): \(first.err)")
            XCTAssertEqual(try String(contentsOfFile: dir + "/tool", encoding: .utf8), owner + "\n")
            let before = try FileManager.default.subpathsOfDirectory(atPath: dir).sorted()
            for other in tools where other != owner {
                let r = run(other, ["--data-dir", dir, "--now", now])
                XCTAssertEqual(r.code, 78, "\(other) on \(owner)'s directory")
                XCTAssertEqual(r.err, "\(other): \(dir) is \(owner)'s data directory: give \(other) one of its own (--data-dir, \(other.uppercased())_DATA_DIR)\n")
                XCTAssertEqual(r.out, "")
            }
            XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: dir).sorted(), before, "a refusing tool wrote in \(owner)'s directory")
            XCTAssertEqual(run(owner, ["--data-dir", dir, "--now", now]).code, 0)
        }
        let old = tmp + "/before-the-tool-file"
        XCTAssertEqual(run("tenclub", ["--data-dir", old, "--now", now, "unlock", "-q"]).code, 0)
        try FileManager.default.removeItem(atPath: old + "/tool")
        let r = run("yomo", ["--data-dir", old, "--now", now])
        XCTAssertEqual(r.code, 78, r.err)
        XCTAssertTrue(r.err.contains("is tenclub's data directory"), r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: old + "/snapshot.ndjson.bad-1"), "yomo set tenclub's snapshot aside")
    }

    /// One vocabulary: every command that lists things takes -n/--limit
    /// (and the old --count), every zone option --tz (and --timezone).
    func testEveryListingTakesLimitAndEveryZoneTz() {
        let lists: Set<String> = ["list", "queue", "outbox", "log", "requests", "flags", "reports", "devices", "history", "next", "candidates"]
        func walk(_ c: CommandSpec, _ path: String) {
            let name = path + " " + c.name
            if lists.contains(c.name) && c.run != nil {
                let limit = c.options.first { $0.long == "limit" }
                XCTAssertEqual(limit?.short, "n", "\(name) takes -n/--limit")
            }
            if let tz = c.options.first(where: { $0.long == "tz" }) {
                XCTAssertTrue(tz.answers("timezone"), "\(name) --tz also as --timezone")
            }
            XCTAssertFalse(c.options.contains { $0.long == "timezone" }, "\(name): --tz is the word")
            for s in c.subcommands { walk(s, name) }
        }
        for spec in toolSpecs { for c in spec.commands { walk(c, spec.name) } }
        // As a person types them.
        let now = "2026-11-22T10:00:00-05:00"
        for i in 1...4 { XCTAssertEqual(run("yomo", ["add", "task \(i)", "--date", "2026-12-0\(i)", "--time", "09:00", "-q", "--now", now]).code, 0) }
        XCTAssertEqual(run("yomo", ["list", "-n", "2", "--now", now]).records.map { $0["title"] as? String }, ["task 1", "task 2"])
        XCTAssertEqual(run("yomo", ["list", "--count=3", "--now", now]).records.count, 3)
        XCTAssertEqual(run("yomo", ["list", "--limit", "1", "--format", "text", "--now", now]).lines.count, 1)
        let zero = run("yomo", ["list", "-n", "0"])
        XCTAssertEqual(zero.code, 64)
        XCTAssertEqual(zero.err, "yomo: -n must be a whole number from 1 to 1000000, not '0'\n")
        XCTAssertEqual(run("yomo", ["add", "standup", "--date", "2026-12-01", "--time", "09:00", "--timezone", "Europe/Paris", "--now", now]).records.first?["tz"] as? String, "Europe/Paris")
        XCTAssertEqual(run("playa", ["recipient", "add", "Ana", "--platform", "sms", "--phone", "+14155550132", "-q", "--now", now]).code, 0)
        XCTAssertEqual(run("playa", ["schedule", "Ana", "--fixed", "11:00,12:00,13:00", "-q", "--now", now]).code, 0)
        XCTAssertEqual(run("playa", ["message", "add", "Ana", "hi", "-q", "--now", now]).code, 0)
        XCTAssertEqual(run("playa", ["generate", "-q", "--now", now]).code, 0)
        XCTAssertEqual(run("playa", ["queue", "--now", now]).records.count, 3)
        XCTAssertEqual(run("playa", ["queue", "-n", "2", "--now", now]).records.map { $0["time"] as? String }, ["11:00", "12:00"])
    }

    /// One rule in the store for all five: a write with --now ahead of the
    /// real clock keeps its pinned times in its events, but its stamp and
    /// commit time are the real clock's (yomo's device list said it was
    /// last seen in the future; later writes sorted behind it).
    func testNoToolStampsAheadOfTheRealClock() throws {
        let future = "2099-11-24T17:46:00-05:00"
        let writes: [(String, [String])] = [
            ("tenclub", ["unlock"]), ("yomo", ["add", "call mum", "--date", "2099-11-25", "--time", "09:00"]),
            ("playa", ["recipient", "add", "Ana", "--platform", "sms", "--phone", "+14155550132"]), ("rewards", ["init"]),
            ("habitmatch", ["--user", "ana", "join", "--name", "Ana", "--habit", "exercise"]),
        ]
        for (tool, args) in writes {
            let data = tmp + "/\(tool)-ahead"
            let before = Int64(Date().timeIntervalSince1970 * 1000)
            let r = run(tool, args + ["--now", future, "-q"], env: ["\(tool.uppercased())_DATA_DIR": data, "HABITMATCH_POOL": tmp + "/pool-ahead"])
            XCTAssertEqual(r.code, 0, "\(tool): \(r.err)")
            let after = Int64(Date().timeIntervalSince1970 * 1000)
            var commits = 0
            for root in [data, tmp + "/pool-ahead"] {
                guard let files = FileManager.default.enumerator(atPath: root) else { continue }
                for case let f as String in files where f.hasSuffix(".ndjson") && !f.contains("snapshot") {
                    let text = (try? String(contentsOfFile: root + "/" + f, encoding: .utf8)) ?? ""
                    for line in text.split(separator: "\n") where line.contains("\"type\":\"commit\"") {
                        let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                        let stamp = ((o?["hlc"] as? [Any])?.first as? NSNumber)?.int64Value ?? 0
                        XCTAssertTrue(stamp >= before - 1000 && stamp <= after, "\(tool): \(f) stamped \(stamp), the clock \(before)...\(after)")
                        XCTAssertFalse((o?["at"] as? String ?? "").hasPrefix("2099"), "\(tool): \(line)")
                        commits += 1
                    }
                }
            }
            XCTAssertGreaterThan(commits, 0, "\(tool) wrote a batch")
        }
    }

    /// Everyday deletes nothing undoes ask on a terminal (script(1) gives
    /// the tool one), as Taskwarrior and todoman do: "n" changes nothing and
    /// exits 1, "y" deletes; -y does not ask; a script (no terminal) goes
    /// ahead.
    func testEverydayDeletesAskOnATerminal() throws {
        let env = ["YOMO_DATA_DIR": tmp + "/yomo", "HABITMATCH_POOL": tmp + "/pool", "HABITMATCH_DATA_DIR": tmp + "/hm",
                   "YOMO_NOW": "2026-11-22T10:00:00-05:00", "HABITMATCH_NOW": "2026-11-22T10:00:00-05:00"]
        func onTerminal(_ answer: String, _ tool: String, _ args: String) -> RunResult {
            sh("printf '\(answer)\\n' | script -qec '\(executable(tool)) \(args)' /dev/null", env: env)
        }
        let ids = (1...3).map { i in run("yomo", ["add", "call \(i)", "--date", "2026-12-01", "--time", "09:00"], env: env).records.first?["id"] as? String ?? "" }
        let no = onTerminal("n", "yomo", "rm \(ids[0])")
        XCTAssertEqual(no.code, 1, no.out)
        XCTAssertTrue(no.out.contains("Delete 'call 1' (\(ids[0].prefix(6)))? [y/N]"), no.out)
        XCTAssertEqual(run("yomo", ["list"], env: env).records.count, 3, "a no deletes nothing")
        let yes = onTerminal("y", "yomo", "rm \(ids[0])")
        XCTAssertEqual(yes.code, 0, yes.out)
        XCTAssertEqual(run("yomo", ["list"], env: env).records.count, 2)
        XCTAssertEqual(onTerminal("n", "yomo", "rm -y \(ids[1])").code, 0, "-y does not ask")
        XCTAssertEqual(run("yomo", ["rm", ids[2]], env: env).code, 0, "a script goes ahead")
        XCTAssertEqual(run("yomo", ["list"], env: env).records.count, 0)
        for (u, n) in [("ana", "Ana"), ("cy", "Cy")] {
            XCTAssertEqual(run("habitmatch", ["--user", u, "join", "--name", n, "--habit", "exercise"], env: env).code, 0)
        }
        XCTAssertEqual(run("habitmatch", ["--user", "ana", "like", "cy"], env: env).code, 0)
        XCTAssertEqual(run("habitmatch", ["--user", "cy", "like", "ana"], env: env).code, 0)
        let keep = onTerminal("no", "habitmatch", "--user ana unmatch cy")
        XCTAssertEqual(keep.code, 1, keep.out)
        XCTAssertTrue(keep.out.contains("Unmatch Cy? "), keep.out)
        XCTAssertEqual(run("habitmatch", ["--user", "ana", "chat", "cy", "still here?"], env: env).code, 0, "still a match")
        let part = onTerminal("yes", "habitmatch", "--user ana unmatch cy")
        XCTAssertEqual(part.code, 0, part.out)
        XCTAssertNotEqual(run("habitmatch", ["--user", "ana", "chat", "cy", "hello?"], env: env).code, 0, "no longer a match")
    }

    /// The same fault, the same status in every tool: a bad value in the
    /// environment is a configuration error (78), the same value as an
    /// option a usage error (64).
    func testABadSettingIsTheSameStatusInEveryTool() {
        for tool in tools {
            let p = tool.uppercased()
            for (variable, value) in [("_FORMAT", "yaml"), ("_NOW", "soon"), ("_COLOR", "sometimes"), ("_LOCK_TIMEOUT", "abc")] {
                let r = run(tool, [], env: [p + variable: value])
                XCTAssertEqual(r.code, 78, "\(tool) with \(p + variable)=\(value): \(r.err)")
                XCTAssertTrue(r.err.hasPrefix("\(tool): \(p + variable) must be"), r.err)
            }
            for (option, value) in [("--format", "yaml"), ("--now", "soon"), ("--color", "sometimes")] {
                XCTAssertEqual(run(tool, [option, value]).code, 64, "\(tool) \(option) \(value)")
            }
        }
    }

    /// --color (or TOOL_COLOR): always colours a text layout even into a
    /// pipe (watch -c, less -R), never and NO_COLOR do not; NDJSON never.
    func testColorAutoAlwaysNever() {
        let esc = "\u{1B}["
        for tool in tools {
            let always = run(tool, ["--format", "text", "--color", "always", "--now", "2026-11-22T10:00:00-05:00"])
            XCTAssertEqual(always.code, 0, "\(tool): \(always.err)")
            let auto = run(tool, ["--format", "text", "--now", "2026-11-22T10:00:00-05:00"])
            XCTAssertFalse(auto.out.contains(esc), "\(tool): colour into a pipe without --color always")
            XCTAssertFalse(run(tool, ["--format", "text", "--color=never"]).out.contains(esc))
            XCTAssertFalse(run(tool, ["--color", "always"]).out.contains(esc), "\(tool): NDJSON coloured")
            let bad = run(tool, [], env: [tool.uppercased() + "_COLOR": "sometimes"])
            XCTAssertEqual(bad.code, 78, "a bad value in the environment is a configuration error")
            XCTAssertEqual(bad.err, "\(tool): \(tool.uppercased())_COLOR must be auto, always or never, not 'sometimes'\n")
        }
        XCTAssertTrue(tenclub("status", "--format", "text", "--color", "always").out.contains(esc), "tenclub's card has colour")
        XCTAssertTrue(tenclub("status", "--format", "text", env: ["TENCLUB_COLOR": "always", "NO_COLOR": "1"]).out.contains(esc),
                      "always wins over NO_COLOR")
    }

    /// Old spellings work and are reported as typed; a variable takes a
    /// command's own format.
    func testOldSpellingsAndValuesAsTyped() {
        let now = "2026-11-22T10:00:00-05:00"
        XCTAssertEqual(tenclub("unlock", "-q", "--at", "2026-11-15 10:00", "--now", now).code, 0)
        XCTAssertEqual(tenclub("history", "--days", "2", "--now", now).lines.count, 2)
        XCTAssertEqual(tenclub("history", "-n", "3", "--now", now).lines.count, 3)
        XCTAssertEqual(tenclub("history", "-n", "abc").err, "tenclub: -n must be a whole number from 1 to 3660, not 'abc'\n")
        XCTAssertEqual(tenclub("history", "--days", "abc").err, "tenclub: --days must be a whole number from 1 to 3660, not 'abc'\n")
        XCTAssertEqual(tenclub("buddy", "remove").code, tenclub("buddy", "rm").code)
        let rewards = ["REWARDS_DATA_DIR": tmp + "/rewards", "REWARDS_USER": "mum"]
        XCTAssertEqual(run("rewards", ["init"], env: rewards).code, 0)
        let csv = run("rewards", ["report"], env: rewards.merging(["REWARDS_FORMAT": "csv"]) { $1 })
        XCTAssertEqual(csv.code, 0, csv.err)
        XCTAssertEqual(csv.out, run("rewards", ["report", "--format", "csv"], env: rewards).out)
    }

    func testHelpForACommandAndCompletionCommand() {
        let h = run("tenclub", ["help", "ingest"])
        XCTAssertEqual(h.code, 0)
        XCTAssertTrue(h.out.hasPrefix("usage: tenclub ingest [OPTIONS] [FILE...]\n"), h.out)
        XCTAssertEqual(run("tenclub", ["ingest", "--help"]).out, h.out)
        XCTAssertEqual(run("tenclub", ["help", "nope"]).code, 64)
        let c = run("tenclub", ["completion", "bash"])
        XCTAssertEqual(c.out, try String(contentsOfFile: ToolTestCase.packageRoot + "/completions/tenclub.bash", encoding: .utf8))
        XCTAssertEqual(run("tenclub", ["completion", "tcsh"]).code, 64)
    }
}
