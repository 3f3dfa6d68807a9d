import XCTest
@testable import NudgeKit

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
            let own = path.isEmpty ? [] : tool.command(path)?.options ?? []
            let globals = tool.globalOptions.filter { g in !own.contains { $0.long == g.long } }
            for o in own + globals where !o.choices.isEmpty {
                for form in ["--" + o.long] + (o.short.map { ["-\($0)"] } ?? []) {
                    out.append(Case(words: [tool.name] + path + [form], expected: o.choices))
                }
            }
        }
        return out
    }

    static func shell(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)", "/opt/homebrew/bin/\(name)"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func script(_ file: String) -> String { CLITests.packageRoot + "/completions/" + file }

    /// Runs a shell program; returns stdout split at "@@" lines, one answer per case.
    func answers(_ exe: String, _ args: [String], program: String, count: Int) throws -> [[String]] {
        let dir = NSTemporaryDirectory() + "compl-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try program.write(toFile: dir + "/program", atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args + [dir + "/program"]
        p.currentDirectoryURL = URL(fileURLWithPath: dir)
        p.environment = ["HOME": dir, "PATH": "/usr/local/bin:/usr/bin:/bin", "XDG_CONFIG_HOME": dir, "XDG_DATA_HOME": dir, "LANG": "C.UTF-8"]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, String(decoding: errData, as: UTF8.self))
        var blocks: [[String]] = []
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
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
        guard let bash = Self.shell("bash") else { throw XCTSkip("bash is not installed") }
        for tool in familySpecs {
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
        guard let zsh = Self.shell("zsh") else { throw XCTSkip("zsh is not installed") }
        for tool in familySpecs {
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
        guard let fish = Self.shell("fish") else { throw XCTSkip("fish is not installed") }
        for tool in familySpecs {
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
        guard let sc = Self.shell("shellcheck") else { throw XCTSkip("shellcheck is not installed (.ci/run installs it)") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: sc)
        p.arguments = ["-s", "bash"] + familySpecs.map { Self.script($0.name + ".bash") }
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "")
        XCTAssertEqual(p.terminationStatus, 0)
    }
}
