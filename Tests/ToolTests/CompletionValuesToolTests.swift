import XCTest
import TestSupport
import NudgeKit

/// Completion of real values in the three shells, through the committed
/// scripts and the built tools on PATH: reminder ids, children's names (as
/// an operand and as --child's value), settings keys, recipients, habits,
/// and `help CMD <TAB>` offering that command's subcommands.
final class CompletionValuesToolTests: ToolTestCase {
    let now = "2026-11-22T10:00:00-05:00"

    /// A home with reminders, a family and a recipient; the ids of the two
    /// reminders.
    func seed() -> [String] {
        let yomo = ["YOMO_NOW": now]
        let ids = ["call mom tomorrow at 9", "water plants every tuesday at 3pm"].compactMap {
            run("yomo", ["add", $0, "--format", "json"], env: yomo).records.first?["id"] as? String
        }
        run("yomo", ["done", ids[0]], env: yomo)
        run("yomo", ["add", "pay rent on the 1st at 9", "-q"], env: yomo)
        let all = run("yomo", ["list", "--format", "json"], env: yomo).records.compactMap { $0["id"] as? String }
        for c in [["init"], ["child", "add", "Alex"], ["child", "add", "Sam"]] { run("rewards", c, env: ["REWARDS_USER": "mum"]) }
        run("playa", ["recipient", "add", "Ana", "--platform", "sms", "--phone", "+14155550132"])
        return all
    }

    var shellEnv: [String: String] {
        ["PATH": ToolTestCase.productsDirectory.path + ":/usr/local/bin:/usr/bin:/bin", "HOME": tmp, "LANG": "C.UTF-8",
         "REWARDS_USER": "mum", "TZ": "America/New_York"]
    }

    func script(_ file: String) -> String { ToolTestCase.packageRoot + "/completions/" + file }

    /// The questions, and the answers each shell must give (sorted).
    func questions(ids: [String]) -> [(words: [String], expected: [String])] {
        [(["yomo", "done"], ids.sorted()),
         (["rewards", "redeem"], ["Alex", "Sam"]),
         (["rewards", "report", "--child"], ["Alex", "Sam"]),
         (["rewards", "settings", "set"], ["conversion_rate", "daily_goal_minutes", "daily_reward_limit_minutes", "max_points_per_day",
                                           "max_session_age_days", "max_session_minutes", "merge_gap_seconds", "min_session_minutes",
                                           "notify", "points_per_hour", "weekly_reward_limit_minutes"]),
         (["playa", "recipient", "rm"], ["Ana"]),
         (["yomo", "add", "x", "--tz"], Zone.installedNames()),
         (["tenclub", "help", "buddy"], ["rm", "set"]),
         (["tenclub", "help", "sms"], ["deliver", "log", "outbox", "receive"])]
    }

    func blocks(_ out: String) -> [[String]] {
        var b: [[String]] = []
        for l in out.split(separator: "\n") {
            if l == "@@" { b.append([]) } else if !b.isEmpty { b[b.count - 1].append(String(l)) }
        }
        return b
    }

    func check(_ shell: String, _ r: ProgramResult, _ qs: [(words: [String], expected: [String])], keep: (String) -> Bool) {
        XCTAssertEqual(r.status, 0, "\(shell): \(r.err)")
        let got = blocks(r.out)
        XCTAssertEqual(got.count, qs.count, "\(shell): \(r.out) \(r.err)")
        for (q, g) in zip(qs, got) {
            XCTAssertEqual(Set(g.filter(keep)), Set(q.expected), "\(shell): \(q.words.joined(separator: " ")) <TAB>")
        }
    }

    /// Zone names for --tz from the system's tzdata, only reward apps for
    /// `redeem --app`, and file names for file operands.
    func testZonesRewardAppsAndFilesComplete() throws {
        XCTAssertTrue(Zone.installedNames().contains("Europe/Paris"), "tzdata lists zones")
        let zones = run("yomo", ["__complete", "add", "x", "--tz", "Europe/Pa"]).out.split(separator: "\n").map(String.init)
        XCTAssertTrue(zones.contains("Europe/Paris"), "\(zones)")
        XCTAssertTrue(zones.allSatisfy { $0.hasPrefix("Europe/Pa") }, "\(zones)")
        XCTAssertEqual(run("habitmatch", ["__complete", "join", "--tz", "America/New_"]).out, "America/New_York\n")
        let rw = ["REWARDS_USER": "mum"]
        for c in [["init"], ["child", "add", "Alex"], ["app", "set", "Minecraft", "--reward"], ["app", "set", "Roblox", "--reward"],
                  ["app", "set", "Duolingo", "--learning"]] { XCTAssertEqual(run("rewards", c, env: rw).code, 0) }
        XCTAssertEqual(run("rewards", ["__complete", "redeem", "Alex", "2", "--app", ""], env: rw).out, "Minecraft\nRoblox\n")
        for (tool, command) in [("yomo", "import"), ("yomo", "vdir sync"), ("habitmatch", "pool init")] {
            XCTAssertEqual(toolSpecs.first { $0.name == tool }?.command(command.split(separator: " ").map(String.init))?.operandKind, .files,
                           "\(tool) \(command) completes file names")
        }
    }

    func testBashZshAndFishCompleteRealValues() throws {
        try require(.zsh, .fish)
        let ids = seed()
        XCTAssertEqual(ids.count, 2, "two active reminders")
        let qs = questions(ids: ids)
        let values = Set(qs.flatMap(\.expected))
        func quote(_ w: [String]) -> String { w.map { "'\($0)'" }.joined(separator: " ") }

        var bash = ""
        for t in ["yomo", "rewards", "playa", "tenclub"] { bash += "source '\(script(t + ".bash"))'\n" }
        for q in qs {
            bash += "COMP_WORDS=(\(quote(q.words)) ''); COMP_CWORD=\(q.words.count); COMPREPLY=(); _\(q.words[0])\n"
            bash += "echo @@; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
        }
        check("bash", runProgram("/bin/bash", ["--norc", "--noprofile", "-c", bash], env: shellEnv), qs) { values.contains($0) }

        var zsh = """
            typeset -ga got
            compadd() { if [[ $1 == -a ]]; then got+=("${(@P)2}"); return; fi; while [[ $1 == -* && $1 != -- ]]; do shift; done; [[ $1 == -- ]] && shift; got+=("$@") }
            _describe() { local -a c; c=("${(@P)${@[-1]}}"); got+=("${(@)c%%:*}") }
            _files() { }
            _message() { }

            """
        for t in ["yomo", "rewards", "playa", "tenclub"] { zsh += "source '\(script("_" + t))' >/dev/null\n" }
        for q in qs {
            zsh += "got=(); words=(\(quote(q.words)) ''); CURRENT=\(q.words.count + 1); PREFIX=''; _\(q.words[0])\n"
            zsh += "print -r -- @@; (( ${#got} )) && print -rl -- \"${got[@]}\"\n"
        }
        check("zsh", runProgram(command("zsh"), ["-f", "-c", zsh], env: shellEnv), qs) { values.contains($0) }

        var fish = ""
        for t in ["yomo", "rewards", "playa", "tenclub"] { fish += "source '\(script(t + ".fish"))'\n" }
        for q in qs { fish += "echo @@; complete -C '\(q.words.joined(separator: " ")) ' | string replace -r '\\t.*' ''\n" }
        fish += "true\n"
        check("fish", runProgram(command("fish"), ["--no-config", "-c", fish], env: shellEnv), qs) { values.contains($0) }
    }

    /// The tool's answer: only values that fit the word typed so far, only
    /// where the command takes them, nothing (status 0, no diagnostic) on
    /// an error.
    /// habitmatch completes habits by id, the members one may swipe or look
    /// at, one's matches and buddies: what the member could list anyway.
    func testHabitmatchCompletesHabitsMembersAndMatches() {
        @discardableResult
        func hm(_ u: String, _ a: [String]) -> RunResult {
            // The shells ask `TOOL __complete WORDS…` with the words typed, global options included.
            a.first == "__complete" ? run("habitmatch", ["__complete", "--user", u] + a.dropFirst()) : run("habitmatch", ["--user", u] + a)
        }
        hm("ana", ["join", "--name", "Ana", "--habit", "read", "--habit", "exercise"])
        hm("bo", ["join", "--name", "Bo", "--habit", "read"])
        hm("cy", ["join", "--name", "Cy", "--habit", "exercise"])
        hm("ana", ["like", "cy"])
        hm("cy", ["like", "ana"])
        XCTAssertEqual(hm("ana", ["__complete", "done", ""]).out, "read\nexercise\n", "ids, not names with spaces")
        XCTAssertEqual(hm("ana", ["__complete", "chat", ""]).out, "cy\n")
        XCTAssertEqual(hm("ana", ["__complete", "buddy", "accept", ""]).out, "cy\n")
        XCTAssertEqual(hm("bo", ["__complete", "chat", ""]).out, "", "no match, nothing to chat with")
        XCTAssertEqual(hm("ana", ["__complete", "like", ""]).out, "bo\ncy\n")
        XCTAssertEqual(hm("ana", ["__complete", "calendar", "--of", ""]).out, "", "no buddy yet")
        hm("ana", ["buddy", "accept", "cy"])
        hm("cy", ["buddy", "accept", "ana"])
        XCTAssertEqual(hm("ana", ["__complete", "calendar", "--of", ""]).out, "cy\n")
    }

    func testCompleteAnswersOnlyWhatFits() {
        _ = seed()
        XCTAssertEqual(run("rewards", ["__complete", "redeem", "A"], env: ["REWARDS_USER": "mum"]).out, "Alex\n")
        XCTAssertEqual(run("rewards", ["__complete", "redeem", "Alex", ""], env: ["REWARDS_USER": "mum"]).out, "", "minutes are not names")
        XCTAssertEqual(run("rewards", ["__complete", "redeem", "-"], env: ["REWARDS_USER": "mum"]).out, "")
        XCTAssertEqual(run("tenclub", ["__complete", "help", ""]).out.split(separator: "\n").first, "status")
        // playa's pending events, by id.
        let playaNow = ["PLAYA_NOW": "2026-11-22T06:00:00-05:00"]
        run("playa", ["message", "add", "Ana", "Coffee?"], env: playaNow)
        run("playa", ["schedule", "Ana", "--fixed", "09:30,18:00"], env: playaNow)
        run("playa", ["generate"], env: playaNow)
        let pending = run("playa", ["queue"], env: playaNow).records.compactMap { $0["id"] as? String }
        XCTAssertEqual(pending.count, 2)
        // Each id with its time and recipient after a tab (zsh and fish show it; bash cuts it).
        XCTAssertEqual(run("playa", ["__complete", "open", ""], env: playaNow).out,
                       zip(pending, ["09:30", "18:00"]).map { "\($0)\t\($1) Ana\n" }.joined())
        let titled = run("yomo", ["__complete", "done", ""]).out.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        XCTAssertEqual(titled.map { $0.count == 2 ? $0[1] : "" }.sorted(), ["pay rent", "water plants"], "titles beside the ids")
        let bad = run("yomo", ["__complete", "--data-dir", tmp + "/nowhere/file/x", "done", ""])
        XCTAssertEqual(bad.code, 0)
        XCTAssertEqual(bad.err, "")
    }
}
