import XCTest
@testable import NudgeKit
import TestSupport

/// The committed completion scripts, asked by each real shell for the values
/// of every option with choices, at every command of every tool: a
/// command's own option wins over a global one of the same name
/// (`rewards report --format` offers csv). One shell process per tool and
/// shell answers all of that tool's questions.
final class CompletionShellTests: XCTestCase {
    /// A question: the words typed so far, and the values expected next.
    struct Case {
        var words: [String]
        var expected: [String]
        var label: String { words.joined(separator: " ") + " <TAB>" }
    }

    /// Every option with choices in scope at every command (and before any
    /// command), in its long and short form.
    static func cases(_ tool: ToolSpec) -> [Case] {
        var out: [Case] = []
        for path in [[]] + tool.allPaths {
            let own = path.isEmpty ? [] : tool.command(path)?.visibleOptions ?? []
            let globals = tool.globalOptions.filter { g in !own.contains { $0.long == g.long } }
            for o in own + globals where !o.choices.isEmpty {
                for form in ["--" + o.long] + (o.short.map { ["-\($0)"] } ?? []) {
                    out.append(Case(words: [tool.name] + path + [form], expected: o.choices))
                }
            }
        }
        return out
    }


    static func script(_ file: String) -> String { CLITests.packageRoot + "/completions/" + file }

    /// Runs a shell program; returns stdout split at "@@" lines, one answer per case.
    func answers(_ exe: String, _ args: [String], program: String, count: Int) throws -> [[String]] {
        let dir = NSTemporaryDirectory() + "compl-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try program.write(toFile: dir + "/program", atomically: true, encoding: .utf8)
        let r = runProgram(exe, args + [dir + "/program"],
                           env: ["HOME": dir, "PATH": "/usr/local/bin:/usr/bin:/bin", "XDG_CONFIG_HOME": dir, "XDG_DATA_HOME": dir, "LANG": "C.UTF-8"],
                           cwd: dir)
        XCTAssertEqual(r.status, 0, "\(exe) \(r.summary): \(r.err)")
        var blocks: [[String]] = []
        for line in r.out.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "@@" { blocks.append([]) } else if !line.isEmpty, !blocks.isEmpty { blocks[blocks.count - 1].append(String(line)) }
        }
        XCTAssertEqual(blocks.count, count, "\(exe) answered \(blocks.count) of \(count) questions")
        return blocks
    }

    func check(_ shell: String, _ tool: ToolSpec, _ cases: [Case], _ got: [[String]]) {
        for (c, g) in zip(cases, got) {
            XCTAssertEqual(g.sorted(), c.expected.sorted(), "\(shell): \(c.label)")
        }
    }

    func sh(_ words: [String]) -> String { words.map { ToolSpec.shQuote($0) }.joined(separator: " ") }

    func testBashCompletesEveryOptionsOwnChoices() throws {
        let bash = "/bin/bash"
        for tool in toolSpecs {
            let cases = Self.cases(tool)
            XCTAssertFalse(cases.isEmpty)
            var program = "source \(ToolSpec.shQuote(Self.script(tool.name + ".bash")))\n"
            for c in cases {
                program += "COMP_WORDS=(\(sh(c.words)) ''); COMP_CWORD=\(c.words.count); COMPREPLY=(); _\(tool.name)\n"
                program += "echo @@; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
            }
            check("bash", tool, cases, try answers(bash, ["--norc", "--noprofile"], program: program, count: cases.count))
        }
    }

    /// zsh runs the real completion function; compadd and the helpers it
    /// calls are replaced by functions that print the candidates.
    func testZshCompletesEveryOptionsOwnChoices() throws {
        try require(.zsh)
        let zsh = command("zsh")
        for tool in toolSpecs {
            let cases = Self.cases(tool)
            var program = """
                typeset -ga got
                compadd() { while [[ $1 == -* && $1 != -- ]]; do shift; done; [[ $1 == -- ]] && shift; got+=("$@") }
                _describe() { local -a c; c=("${(@P)${@[-1]}}"); got+=("${(@)c%%:*}") }
                _files() { got+=("(files)") }
                _message() { got+=("(message)") }
                source \(ToolSpec.shQuote(Self.script("_" + tool.name))) >/dev/null

                """
            for c in cases {
                program += "got=(); words=(\(sh(c.words)) ''); CURRENT=\(c.words.count + 1); _\(tool.name)\n"
                program += "print -r -- @@; (( ${#got} )) && print -rl -- \"${got[@]}\"\n"
            }
            check("zsh", tool, cases, try answers(zsh, ["-f"], program: program, count: cases.count))
        }
    }

    func testFishCompletesEveryOptionsOwnChoices() throws {
        try require(.fish)
        let fish = command("fish")
        for tool in toolSpecs {
            let cases = Self.cases(tool)
            var program = "source \(ToolSpec.shQuote(Self.script(tool.name + ".fish")))\n"
            for c in cases {
                program += "echo @@; complete -C \(ToolSpec.shQuote(sh(c.words) + " ")) | string replace -r '\\t.*' ''\n"
            }
            check("fish", tool, cases, try answers(fish, ["--no-config"], program: program, count: cases.count))
        }
    }

    /// The bug this guards against, spelled out in the three shells.
    func testReportFormatOffersCSVInEveryShell() throws {
        let c = Self.cases(Rewards.spec).filter { $0.words == ["rewards", "report", "--format"] }
        XCTAssertEqual(c.map(\.expected), [["json", "csv", "text"]])
        XCTAssertTrue(Self.cases(Rewards.spec).contains { $0.words == ["rewards", "dashboard", "--format"] && $0.expected == ["json", "text"] })
    }

    /// The bash scripts are clean under shellcheck (no shadowed patterns, no
    /// word-split arrays).
    func testBashScriptsPassShellcheck() throws {
        try require(.shellcheck)
        let r = runProgram(command("shellcheck"), ["-s", "bash"] + toolSpecs.map { Self.script($0.name + ".bash") })
        XCTAssertEqual(r.out, "")
        XCTAssertEqual(r.status, 0, r.summary)
    }
}
