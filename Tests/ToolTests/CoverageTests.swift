import XCTest
import NudgeKit

/// Every command a user can run is run by at least one black-box test (git's
/// t0012-help.sh runs every command in its table). The commands come from the
/// registry; the invocations from this folder's sources: `run("TOOL", [...])`,
/// the per-tool helpers (`tenclub(...)`, `hm(USER, ...)`, `rw(...)`), the
/// shell lines given to `sh(...)`, and processes started by hand
/// (`executable("TOOL")`, then `arguments = [...]`). An invocation counts when its literal
/// words name the command; `--help` and `help` do not run anything.
final class CoverageTests: XCTestCase {
    /// Helper name → (tool, leading arguments that are not the tool's).
    static let helpers: [String: (tool: String?, skip: Int)] = [
        "run": (nil, 0), "tenclub": ("tenclub", 0), "yomo": ("yomo", 0), "yomoAt": ("yomo", 1), "playa": ("playa", 0),
        "rewards": ("rewards", 0), "habitmatch": ("habitmatch", 0), "hm": ("habitmatch", 1), "rw": ("rewards", 0),
        "rwAs": ("rewards", 1), "asRoot": ("rewards", 0),
    ]

    /// An argument as written: a plain string literal, or anything else.
    enum Arg: Equatable { case word(String), other }

    /// The calls of `name(` in Swift source, each with its positional
    /// arguments (array literals flattened), up to the first labelled one.
    static func calls(_ source: String) -> [(name: String, args: [Arg])] {
        let s = Array(source.unicodeScalars)
        var out: [(String, [Arg])] = []
        func isIdent(_ c: Unicode.Scalar) -> Bool { c == "_" || CharacterSet.alphanumerics.contains(c) }
        /// Skips a string literal starting at i; returns its text when plain.
        func string(_ i: inout Int) -> String? {
            if i + 2 < s.count && s[i + 1] == "\"" && s[i + 2] == "\"" {
                i += 3
                while i + 2 < s.count && !(s[i] == "\"" && s[i + 1] == "\"" && s[i + 2] == "\"") { i += 1 }
                i += 3
                return nil
            }
            i += 1
            var text = ""
            var plain = true
            while i < s.count && s[i] != "\"" {
                if s[i] == "\\" {
                    if s[i + 1] == "(" {
                        plain = false
                        i += 2
                        var depth = 1
                        while i < s.count && depth > 0 {
                            if s[i] == "(" { depth += 1 } else if s[i] == ")" { depth -= 1 } else if s[i] == "\"" { _ = string(&i); continue }
                            i += 1
                        }
                        continue
                    }
                    text.unicodeScalars.append(s[i + 1])
                    i += 2
                    continue
                }
                text.unicodeScalars.append(s[i])
                i += 1
            }
            i += 1
            return plain ? text : nil
        }
        var i = 0
        while i < s.count {
            if s[i] == "\"" { _ = string(&i); continue }
            if s[i] == "/" && i + 1 < s.count && s[i + 1] == "/" {
                while i < s.count && s[i] != "\n" { i += 1 }
                continue
            }
            guard isIdent(s[i]), i == 0 || !isIdent(s[i - 1]) && s[i - 1] != "." else { i += 1; continue }
            var j = i
            while j < s.count && isIdent(s[j]) { j += 1 }
            let name = String(String.UnicodeScalarView(s[i..<j]))
            let declared = i >= 5 && String(String.UnicodeScalarView(s[(i - 5)..<i])) == "func "
            guard j < s.count, s[j] == "(", helpers[name] != nil || name == "sh", !declared else { i = j; continue }
            // The arguments.
            var args: [Arg] = []
            var k = j + 1
            var depth = 0
            var element = true  // at the start of an argument or an array element
            var labelled = false
            while k < s.count {
                let c = s[k]
                if c == "\"" {
                    let text = string(&k)
                    if !labelled { args.append(element ? text.map(Arg.word) ?? .other : .other) }
                    element = false
                    continue
                }
                if c == "(" || c == "{" { depth += 1 }
                if c == ")" || c == "}" {
                    if depth == 0 { break }
                    depth -= 1
                }
                if depth == 0 {
                    if c == "," || c == "[" { element = true } else if c == "]" { element = false } else if c == ":" { labelled = true }
                    else if !c.properties.isWhitespace && element && !labelled {
                        // `env: [...]`: a label ends the positional arguments.
                        var e = k
                        while e < s.count && isIdent(s[e]) { e += 1 }
                        while e < s.count && s[e] == " " { e += 1 }
                        if e > k && e < s.count && s[e] == ":" { labelled = true } else { args.append(.other) }
                        element = false
                    }
                }
                k += 1
            }
            out.append((name, args))
            i = k
        }
        return out
    }

    /// The command an argument list runs: global options (and their values)
    /// skipped, words matched against the commands, deepest match wins.
    static func path(_ spec: ToolSpec, _ args: [Arg]) -> [String]? {
        var path: [String] = []
        var list = spec.commands
        var options = spec.globalOptions
        var i = 0
        while i < args.count {
            guard case .word(let w) = args[i] else { break }
            if w == "--help" || w == "-h" || w == "--version" { return nil }
            if w.hasPrefix("-") && w.count > 1 {
                let o = w.hasPrefix("--") ? options.first { "--" + $0.long == w } : options.first { $0.short.map { "-\($0)" } == w }
                i += (o?.takesValue == true && !w.contains("=")) ? 2 : 1
                continue
            }
            guard let c = list.first(where: { $0.name == w }) else { break }
            path.append(w)
            list = c.subcommands
            options = c.options + spec.globalOptions
            i += 1
        }
        guard !path.isEmpty, spec.command(path)?.run != nil else { return nil }
        return path
    }

    /// What the black-box tests run, per tool.
    static func invoked() throws -> [String: Set<String>] {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
        var out: [String: Set<String>] = [:]
        let specs = Dictionary(uniqueKeysWithValues: toolSpecs.map { ($0.name, $0) })
        for f in try FileManager.default.contentsOfDirectory(atPath: dir) where f.hasSuffix(".swift") && f != "CoverageTests.swift" {
            let source = try String(contentsOfFile: dir + "/" + f, encoding: .utf8)
            // A process started by hand: executable("TOOL"), then arguments = [...].
            let byHand = try NSRegularExpression(pattern: #"executable\("([a-z]+)"\)[^;]{0,300}?arguments = (\[[^\]\n]*\])"#)
            for m in byHand.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
                let tool = String(source[Range(m.range(at: 1), in: source)!])
                let array = String(source[Range(m.range(at: 2), in: source)!])
                if let s = specs[tool], let (_, args) = calls("run(" + array + ")").first, let p = path(s, args) {
                    out[tool, default: []].insert(p.joined(separator: " "))
                }
            }
            for (name, args) in calls(source) {
                if name == "sh" {
                    guard case .word(let script)? = args.first else { continue }
                    for (tool, words) in shellInvocations(script) {
                        if let s = specs[tool], let p = path(s, words.map(Arg.word)) { out[tool, default: []].insert(p.joined(separator: " ")) }
                    }
                    continue
                }
                let h = helpers[name]!
                var rest = Array(args.dropFirst(h.skip))
                var tool = h.tool
                if tool == nil, case .word(let t)? = rest.first {
                    tool = t
                    rest.removeFirst()
                }
                if let t = tool, let s = specs[t], let p = path(s, rest) { out[t, default: []].insert(p.joined(separator: " ")) }
            }
        }
        return out
    }

    /// `tool words...` in a shell line, up to a pipe, list or redirection.
    static func shellInvocations(_ script: String) -> [(String, [String])] {
        let tokens = script.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        var out: [(String, [String])] = []
        for (i, t) in tokens.enumerated() where toolSpecs.contains(where: { $0.name == t }) {
            var words: [String] = []
            for w in tokens[(i + 1)...] {
                if ["|", "||", "&&", ";", "&"].contains(w) || w.hasPrefix(">") || w.hasPrefix("<") { break }
                words.append(w.trimmingCharacters(in: CharacterSet(charactersIn: "'\"")))
            }
            out.append((t, words))
        }
        return out
    }

    func testTheScannerReadsInvocations() {
        let src = """
            func hm(_ user: String, _ args: String...) -> RunResult { run("habitmatch", ["--user", user] + args) }
            run("tenclub", ["--now", now, "buddy", "set", "415"], env: ["X": "buddy"])
            hm("bo", "habit", "rm", "read")
            rw("flag", "reject", id)
            yomo("edit", "\\(id)", "--title", "x")
            XCTAssertEqual(r.records[0]["badges"] as? [String], [])
            sh("playa recipient list | jq .name; tenclub --help")
            """
        let c = Self.calls(src)
        XCTAssertEqual(c.map(\.name), ["run", "run", "hm", "rw", "yomo", "sh"])
        XCTAssertEqual(c[1].args, [.word("tenclub"), .word("--now"), .other, .word("buddy"), .word("set"), .word("415")])
        XCTAssertEqual(Self.path(Tenclub.spec, Array(c[1].args.dropFirst())), ["buddy", "set"])
        XCTAssertEqual(Self.path(Habitmatch.spec, Array(c[2].args.dropFirst())), ["habit", "rm"])
        XCTAssertEqual(Self.path(Rewards.spec, c[3].args), ["flag", "reject"])
        XCTAssertEqual(Self.path(Yomo.spec, c[4].args), ["edit"])
        XCTAssertNil(Self.path(Habitmatch.spec, [.word("--user"), .other, .other]))
        XCTAssertNil(Self.path(Tenclub.spec, [.word("sms")]), "sms alone runs nothing")
        guard case .word(let script) = c[5].args[0] else { return XCTFail() }
        let sh = Self.shellInvocations(script)
        XCTAssertEqual(sh.map(\.0), ["playa", "tenclub"])
        XCTAssertEqual(Self.path(Playa.spec, sh[0].1.map(Arg.word)), ["recipient", "list"])
        XCTAssertNil(Self.path(Tenclub.spec, sh[1].1.map(Arg.word)))
    }

    /// The registry's runnable commands that no black-box test runs.
    func testEveryCommandIsRunByABlackBoxTest() throws {
        let invoked = try Self.invoked()
        var missing: [String] = []
        for spec in toolSpecs {
            for p in spec.runnablePaths where !(invoked[spec.name]?.contains(p.joined(separator: " ")) ?? false) {
                missing.append("\(spec.name) \(p.joined(separator: " "))")
            }
        }
        XCTAssertEqual(missing, [], "commands no black-box test runs")
    }
}
