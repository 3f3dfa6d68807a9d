import XCTest
@testable import NudgeKit
import TestSupport

final class CLITests: XCTestCase {
    let spec = ToolSpec(name: "demo", summary: "A demo.", commands: [
        CommandSpec("status", summary: "Show", options: [OptionSpec("limit", short: "n", value: "N", help: "How many"),
                                                        OptionSpec("verbose", short: "v", help: "More")]),
        CommandSpec("ingest", summary: "Read", usage: "[FILE...]", operands: .files, max: nil),
        CommandSpec("buddy", summary: "Buddy", subcommands: [
            CommandSpec("set", summary: "Set", usage: "NUMBER", operands: .words, min: 1, max: 1),
            CommandSpec("remove", summary: "Remove"),
        ]),
    ], defaultCommand: ["status"])

    func parse(_ s: [String]) throws -> Invocation { try spec.parse(s) }

    func testOptionsInEveryForm() throws {
        for args in [["status", "-n", "5"], ["status", "-n5"], ["status", "--limit", "5"], ["status", "--limit=5"],
                     ["-q", "status", "-vn", "5"]] {
            let inv = try parse(args)
            XCTAssertEqual(inv.command, ["status"], "\(args)")
            XCTAssertEqual(inv.value("limit"), "5", "\(args)")
        }
        let g = try parse(["-q", "status", "-vn", "5"])
        XCTAssertTrue(g.flag("quiet"))
        XCTAssertTrue(g.flag("verbose"))
        let globalsAfter = try parse(["status", "--now", "2026-01-01", "--format=json"])
        XCTAssertEqual(globalsAfter.value("now"), "2026-01-01")
        XCTAssertEqual(globalsAfter.value("format"), "json")
    }

    func testOperandsDashAndDoubleDash() throws {
        XCTAssertEqual(try parse(["ingest", "a", "-", "b"]).operands, ["a", "-", "b"])
        XCTAssertEqual(try parse(["ingest", "--", "-weird", "--also"]).operands, ["-weird", "--also"])
        XCTAssertEqual(try parse(["ingest", "-20", "+5"]).operands, ["-20", "+5"], "negative numbers are operands")
        let sub = try parse(["buddy", "set", "415-555-0132"])
        XCTAssertEqual(sub.command, ["buddy", "set"])
        XCTAssertEqual(sub.operands, ["415-555-0132"])
        XCTAssertEqual(try parse(["buddy"]).command, ["buddy"])
    }

    func testUsageErrorsSuggestTheNearest() {
        // Each points at the help of the command it happened in.
        let cases: [([String], String, String)] = [
            (["stauts"], "unknown command 'stauts' (did you mean 'status'?)", "demo"),
            (["status", "--limt", "3"], "unknown option --limt for 'status' (did you mean '--limit'?)", "demo status"),
            (["status", "-x"], "unknown option -x", "demo status"),
            (["status", "--limit"], "option --limit needs a value (N)", "demo status"),
            (["status", "--format", "xml"], "--format must be one of json, text, not 'xml'", "demo status"),
            (["status", "extra"], "'status' takes no operands, got 'extra'", "demo status"),
            (["buddy", "sett"], "unknown subcommand of 'buddy' 'sett' (did you mean 'set'?)", "demo buddy"),
            (["buddy", "set"], "'buddy set' needs NUMBER", "demo buddy set"),
            (["buddy", "set", "1", "2"], "too many operands for 'buddy set': '2'", "demo buddy set"),
            (["status", "--verbose=yes"], "option --verbose takes no value", "demo status"),
        ]
        for (args, message, help) in cases {
            XCTAssertThrowsError(try parse(args), "\(args)") { e in
                let err = e as! ToolError
                XCTAssertEqual(err.code, .usage)
                XCTAssertTrue(err.message.hasPrefix(message), "\(args): \(err.message)")
                XCTAssertTrue(err.message.hasSuffix("see '\(help) --help'"), err.message)
            }
        }
    }

    func testHelpAndVersion() throws {
        XCTAssertTrue(try parse(["--help"]).wantsHelp)
        XCTAssertTrue(try parse(["status", "-h"]).wantsHelp)
        XCTAssertTrue(try parse(["--version"]).wantsVersion)
        XCTAssertEqual(try parse(["help", "buddy", "set"]).operands, ["buddy", "set"])
        XCTAssertTrue(try spec.helpText(for: ["buddy", "set"]).hasPrefix("usage: demo buddy set NUMBER"))
        XCTAssertTrue(spec.helpText.contains("Show (default)"))
    }

    /// The registry: every runnable command has its handler, bound where it
    /// is declared, and no handler hangs on a command that cannot run.
    /// One installed file under five names: the name it is called by picks
    /// the tool; any other name leaves the executable's own.
    func testAnExecutableCalledByAnotherToolsNameIsThatTool() {
        XCTAssertEqual(Runner.calledAs("/usr/local/bin/yomo", own: Tenclub.spec).name, "yomo")
        XCTAssertEqual(Runner.calledAs("habitmatch", own: Tenclub.spec).name, "habitmatch")
        XCTAssertEqual(Runner.calledAs("./tenclub-dev", own: Yomo.spec).name, "yomo")
        XCTAssertEqual(Runner.calledAs("", own: Playa.spec).name, "playa")
    }

    /// Every command that erases (its summary says so) takes the family's
    /// --yes/-y: one rule for every action nothing can undo.
    func testEveryErasingCommandTakesYes() {
        var erasing: [String] = []
        for tool in toolSpecs {
            for path in tool.allPaths {
                guard let c = tool.command(path), c.summary.lowercased().contains("erase") else { continue }
                erasing.append(([tool.name] + path).joined(separator: " "))
                XCTAssertTrue(c.options.contains(yesOption), "\(tool.name) \(path.joined(separator: " ")) erases without --yes/-y")
                XCTAssertTrue(c.summary.contains("asks on a terminal; --yes otherwise"), "\(tool.name) \(path.joined(separator: " ")): \(c.summary)")
            }
        }
        XCTAssertEqual(Set(erasing), ["yomo purge", "rewards child rm", "playa recipient rm", "playa reset"])
    }

    /// Whose a data directory is: its `tool` file, else its snapshot's
    /// first line; nothing said, anyone's.
    func testADataDirectorySaysWhoseItIs() {
        XCTAssertNil(DataOwner.verdict(tool: "yomo", dir: "/d", marker: nil, snapshotHead: nil))
        XCTAssertNil(DataOwner.verdict(tool: "yomo", dir: "/d", marker: "yomo\n", snapshotHead: nil))
        XCTAssertNil(DataOwner.verdict(tool: "yomo", dir: "/d", marker: "", snapshotHead: nil), "a file half written says nothing")
        XCTAssertEqual(DataOwner.verdict(tool: "yomo", dir: "/d", marker: "tenclub\n", snapshotHead: nil)?.code, .config)
        let head = #"{"type":"snapshot","schema":2,"tool":"tenclub","hot_bytes":275}"# + "\n{\"day\""
        XCTAssertEqual(DataOwner.verdict(tool: "yomo", dir: "/d", marker: nil, snapshotHead: head)?.message,
                       "/d is tenclub's data directory: give yomo one of its own (--data-dir, YOMO_DATA_DIR)")
        XCTAssertNil(DataOwner.verdict(tool: "tenclub", dir: "/d", marker: nil, snapshotHead: head))
        XCTAssertNil(DataOwner.verdict(tool: "yomo", dir: "/d", marker: nil, snapshotHead: #"{"tool":"tenclub"}"#), "only a snapshot's own line")
    }

    /// One word per idea across the five tools: a short option means the
    /// same long option everywhere, a long option has one short form, and
    /// of each set of synonyms only one is shown anywhere (old spellings are
    /// hidden aliases that still work).
    func testTheFamilySpellsEachIdeaOneWay() throws {
        var longOfShort: [Character: Set<String>] = [:]
        var shortOfLong: [String: Set<Character>] = [:]
        var optionWords: Set<String> = [], commandWords: Set<String> = []
        for tool in toolSpecs {
            var options = tool.globalOptions
            for path in tool.allPaths {
                commandWords.insert(path.last!)
                options += tool.command(path)?.visibleOptions ?? []
            }
            for o in options {
                optionWords.insert(o.long)
                if let c = o.short {
                    longOfShort[c, default: []].insert(o.long)
                    shortOfLong[o.long, default: []].insert(c)
                }
            }
        }
        for (c, longs) in longOfShort where longs.count > 1 {
            XCTFail("-\(c) means \(longs.sorted().map { "--" + $0 }.joined(separator: ", ")) in different tools")
        }
        for (l, shorts) in shortOfLong where shorts.count > 1 {
            XCTFail("--\(l) is \(shorts.sorted().map { "-\($0)" }.joined(separator: ", ")) in different tools")
        }
        let optionSynonyms = [["tz", "timezone", "zone"], ["limit", "count", "max"], ["yes", "force", "assume-yes"],
                              ["format", "ics", "csv", "output"], ["quiet", "silent"], ["color", "colour"]]
        let commandSynonyms = [["rm", "remove", "delete", "del"], ["list", "ls"], ["add", "new", "create"]]
        for group in optionSynonyms {
            let used = group.filter(optionWords.contains)
            XCTAssertLessThanOrEqual(used.count, 1, "options spelled several ways: \(used.map { "--" + $0 })")
        }
        for group in commandSynonyms {
            let used = group.filter(commandWords.contains)
            XCTAssertLessThanOrEqual(used.count, 1, "commands spelled several ways: \(used)")
        }
        // The old spellings still work.
        XCTAssertEqual(try Tenclub.spec.parse(["buddy", "remove"]).command, ["buddy", "rm"])
        XCTAssertEqual(try Tenclub.spec.parse(["history", "--days", "3"]).value("limit"), "3")
        XCTAssertEqual(try Yomo.spec.parse(["next", "x", "--count=2"]).value("limit"), "2")
        XCTAssertEqual(try Habitmatch.spec.parse(["join", "--timezone", "UTC"]).value("tz"), "UTC")
        XCTAssertTrue(try Habitmatch.spec.parse(["meetings", "--ics"]).flag("ics"))
        XCTAssertFalse(try Habitmatch.spec.helpText(for: ["meetings"]).contains("--ics"), "an old spelling is not shown")
    }

    /// A usage error points at the help of the command it happened in.
    func testUsageErrorsPointAtTheCommandsHelp() {
        func message(_ spec: ToolSpec, _ args: [String]) -> String {
            do { _ = try spec.parse(args); return "" } catch { return error.message }
        }
        XCTAssertTrue(message(Tenclub.spec, ["history", "--bogus"]).hasSuffix("; see 'tenclub history --help'"))
        XCTAssertTrue(message(Tenclub.spec, ["buddy", "set", "--bogus"]).hasSuffix("; see 'tenclub buddy set --help'"))
        XCTAssertTrue(message(Tenclub.spec, ["stauts"]).hasSuffix("; see 'tenclub --help'"))
        XCTAssertTrue(message(Tenclub.spec, ["history", "-n"]).hasSuffix("; see 'tenclub history --help'"))
    }

    /// What `TOOL __complete WORD...` is asked: help topics, an option's
    /// values, an operand's values by position, and nothing elsewhere.
    func testCompletionAskReadsTheWordsLikeTheParser() {
        XCTAssertEqual(Tenclub.spec.completionAsk(["help", "buddy", ""]), .names(["set", "rm"]))
        guard case .values("reminder", let inv) = Yomo.spec.completionAsk(["--data-dir", "/d", "done", "c"]) else {
            return XCTFail("yomo done: a reminder")
        }
        XCTAssertEqual(inv.value("data-dir"), "/d")
        XCTAssertEqual(inv.command, ["done"])
        if case .values("child", _) = Rewards.spec.completionAsk(["report", "--child", ""]) {} else { XCTFail("--child: a child") }
        if case .values("setting", _) = Rewards.spec.completionAsk(["settings", "set", ""]) {} else { XCTFail("settings set: a key") }
        XCTAssertEqual(Rewards.spec.completionAsk(["settings", "set", "notify", ""]), .none, "a value is not a key")
        XCTAssertEqual(Rewards.spec.completionAsk(["settings", ""]), .none, "a subcommand's place")
        XCTAssertEqual(Yomo.spec.completionAsk(["done", "-"]), .none)
        XCTAssertEqual(Yomo.spec.completionAsk(["rm", "abc", ""]), .none, "rm takes one")
    }

    func testHandlerKeysEqualTheRunnableCommandPaths() {
        XCTAssertEqual(toolSpecs.map(\.name), ["tenclub", "yomo", "rewards", "playa", "habitmatch"])
        for tool in toolSpecs {
            let runnable = Set(tool.runnablePaths.map { $0.joined(separator: " ") })
            XCTAssertFalse(runnable.isEmpty, tool.name)
            XCTAssertEqual(Set(tool.handlers.keys).subtracting(runnable), [], "\(tool.name): handlers on commands that cannot run")
            XCTAssertEqual(runnable.subtracting(tool.handlers.keys), [], "\(tool.name): runnable commands without a handler")
            for p in ToolSpec.builtinPaths { XCTAssertNil(tool.command(p)?.run, "\(tool.name) \(p): the runner answers it") }
            if let d = tool.defaultCommand { XCTAssertNotNil(tool.command(d)?.run, "\(tool.name): the default command runs") }
        }
    }

    /// A command that parses but has no handler is a bug: exit 70, not 64.
    func testAMissingHandlerIsAnInternalError() {
        XCTAssertEqual(Runner.run(spec: spec, args: ["status"]), .software)
        XCTAssertEqual(ExitCode.software.rawValue, 70)
        XCTAssertEqual(Runner.run(spec: spec, args: ["buddy", "sett"]), .usage)
    }

    /// --help groups commands as everyday, admin, and cron/plumbing; each
    /// plumbing command names the record types of its stable interface.
    func testHelpGroupsCommandsAndPlumbingNamesItsRecords() throws {
        for tool in toolSpecs {
            let help = tool.helpText
            var last = help.startIndex
            for g in CommandGroup.allCases where tool.commands.contains(where: { $0.group == g }) {
                let r = try XCTUnwrap(help.range(of: "\n" + g.title), "\(tool.name): no \(g.title)")
                XCTAssertTrue(r.lowerBound >= last, "\(tool.name): \(g.title) out of order")
                last = r.lowerBound
                let section = help[r.upperBound...].prefix { _ in true }.split(separator: "\n\n", maxSplits: 1).first ?? ""
                for c in tool.commands where c.group == g {
                    XCTAssertTrue(section.contains("\n  \(c.name) "), "\(tool.name) --help: \(c.name) is not under \(g.title)")
                }
            }
            XCTAssertTrue(help.contains("(their NDJSON is a stable interface)"), tool.name)
            for c in tool.commands where c.group == .plumbing {
                let runs = ([c] + c.subcommands).filter { $0.run != nil }
                for r in runs { XCTAssertFalse(r.records.isEmpty, "\(tool.name) \(r.name): a plumbing command names its records") }
            }
        }
        XCTAssertTrue(try Rewards.spec.helpText(for: ["rollover"]).contains("Prints NDJSON records of type badge, day: a stable interface"))
    }

    func testSuggest() {
        XCTAssertEqual(Suggest.distance("kitten", "sitting"), 3)
        XCTAssertEqual(Suggest.nearest("hist", in: ["history", "status"]), "history")
        XCTAssertNil(Suggest.nearest("zzzzzz", in: ["history", "status"]))
    }

    static var packageRoot: String { TestSupport.packageRoot() }

    /// The committed completion scripts are exactly what the declarations
    /// generate. Regenerate with: UPDATE_COMPLETIONS=1 swift test --filter CLITests
    func testCommittedCompletionsMatchTheDeclarations() throws {
        let update = ProcessInfo.processInfo.environment["UPDATE_COMPLETIONS"] == "1"
        for tool in toolSpecs {
            for (file, shell) in tool.completionFiles {
                let path = CLITests.packageRoot + "/completions/" + file
                let generated = try tool.completionScript(shell)
                if update { try generated.write(toFile: path, atomically: true, encoding: .utf8) }
                let committed = try? String(contentsOfFile: path, encoding: .utf8)
                XCTAssertEqual(committed, generated, "\(file) drifted from the declaration; regenerate with UPDATE_COMPLETIONS=1 swift test --filter CLITests")
            }
        }
    }

    func testCompletionsParseInEachShell() throws {
        // bash first: it is always there; then the shells a fresh machine may lack.
        for (shell, flag) in [("bash", "-n"), ("zsh", "-n"), ("fish", "-n")] {
            if let need = Requirement(rawValue: shell) { try require(need) }
            let exe = shell == "bash" ? "/bin/bash" : command(shell)
            for tool in toolSpecs {
                let dir = NSTemporaryDirectory() + "compl-\(UUID().uuidString)"
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                let path = dir + "/script"
                try tool.completionScript(shell).write(toFile: path, atomically: true, encoding: .utf8)
                let r = runProgram(exe, [flag, path])
                XCTAssertEqual(r.status, 0, "\(shell) -n rejects \(tool.name)'s completion: \(r.err)")
            }
        }
    }

    /// bash completion really completes: commands, options, choices.
    func testBashCompletionCompletes() throws {
        let script = try Tenclub.spec.completionScript("bash")
        func complete(_ words: [String]) throws -> [String] {
            let dir = NSTemporaryDirectory() + "bc-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try script.write(toFile: dir + "/c.bash", atomically: true, encoding: .utf8)
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let r = runProgram("/bin/bash", ["-c", "source \(dir)/c.bash; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _tenclub; printf '%s\\n' \"${COMPREPLY[@]}\""])
            return r.out.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(try complete(["tenclub", "st"]), ["status"])
        XCTAssertEqual(try complete(["tenclub", "widget", "--style", ""]), ["waybar", "tmux", "plain"])
        XCTAssertEqual(try complete(["tenclub", "--format", "json", "history", "--d"]), ["--data-dir"], "an old spelling (--days) is not offered")
        XCTAssertEqual(try complete(["tenclub", "history", "--l"]), ["--limit"])
    }
}
