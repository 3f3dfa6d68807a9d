import XCTest
import TestSupport
import NudgeKit

/// The man pages against the registry and the sources: clean under mandoc
/// at every level, every command and option documented, commands grouped
/// as --help groups them, every environment variable the code reads named
/// in ENVIRONMENT.
final class ManPageTests: ToolTestCase {
    static func page(_ tool: String) throws -> String {
        try String(contentsOfFile: ToolTestCase.packageRoot + "/man/\(tool).1", encoding: .utf8)
    }

    /// The lines of one `.Sh` section.
    static func section(_ name: String, of page: String) -> [String] {
        var out: [String] = []
        var inside = false
        for l in page.components(separatedBy: "\n") {
            if l.hasPrefix(".Sh ") {
                inside = l == ".Sh " + name
                continue
            }
            if inside { out.append(l) }
        }
        return out
    }

    /// A manual search path for the lint holding the five pages, indexed, so
    /// that mandoc checks every .Xr between them against the real pages and
    /// has no stale index to complain about.
    func manpath() throws -> String {
        let dir = tmp + "/manpath"
        try FileManager.default.createDirectory(atPath: dir + "/man1", withIntermediateDirectories: true)
        for spec in toolSpecs {
            try FileManager.default.copyItem(atPath: ToolTestCase.packageRoot + "/man/\(spec.name).1", toPath: dir + "/man1/\(spec.name).1")
        }
        let r = runProgram(command("makewhatis"), [dir])
        XCTAssertEqual(r.status, 0, "makewhatis \(r.summary): \(r.err)")
        return dir
    }

    /// What in mandoc's lint is a fact about this machine, not about a page:
    /// a manual the page refers to (cron(8), notify-send(1)) that is not
    /// installed here. A reference to one of the five pages is still checked.
    static func isAboutTheMachine(_ line: Substring) -> Bool {
        guard let r = line.range(of: "referenced manual not found: Xr ") else { return false }
        let name = line[r.upperBound...].split(separator: " ").first.map(String.init) ?? ""
        return !toolSpecs.contains { $0.name == name }
    }

    /// mandoc -Tlint -W style: every message, from style notes up, but for
    /// manuals this machine does not have.
    func testEveryPageLintsCleanAtEveryLevel() throws {
        try require(.mandoc)
        let mp = try manpath()
        for spec in toolSpecs {
            let page = ToolTestCase.packageRoot + "/man/\(spec.name).1"
            let r = runProgram(command("mandoc"), ["-Tlint", "-Wstyle", page], env: ["MANPATH": mp, "PATH": "/usr/bin:/bin"])
            let messages = (r.out + r.err).split(separator: "\n").filter { !Self.isAboutTheMachine($0) }
            XCTAssertEqual(messages, [], "mandoc -Tlint -Wstyle man/\(spec.name).1")
            // mandoc exits 1 for style notes alone; anything worse is 2 or more.
            XCTAssertTrue(messages.isEmpty ? r.status <= 1 : true, "mandoc \(r.summary)")
        }
    }

    /// The lint's filter drops only what is about the machine.
    func testOnlyMissingOtherManualsAreLeftOutOfTheLint() {
        XCTAssertTrue(Self.isAboutTheMachine("mandoc: man/tenclub.1:700:5: STYLE: referenced manual not found: Xr cron 8"))
        XCTAssertFalse(Self.isAboutTheMachine("mandoc: man/tenclub.1:700:5: STYLE: referenced manual not found: Xr yomo 1"))
        XCTAssertFalse(Self.isAboutTheMachine("mandoc: man/tenclub.1:12:2: WARNING: missing date, using today's date"))
    }

    /// Every declared command and option, long and short, is in its page.
    func testEveryCommandAndOptionIsDocumented() throws {
        for spec in toolSpecs {
            let page = try Self.page(spec.name)
            for path in spec.allPaths {
                for word in path where !page.contains("Cm \(word)") && !page.contains(" \(word) ") {
                    XCTFail("man/\(spec.name).1 does not document '\(word)'")
                }
                for o in spec.command(path)?.visibleOptions ?? [] {
                    if !page.contains("Fl -\(o.long)") { XCTFail("man/\(spec.name).1 does not document --\(o.long) of '\(path.joined(separator: " "))'") }
                    if let s = o.short, !page.contains("Fl \(s)") { XCTFail("man/\(spec.name).1 does not document -\(s) of '\(path.joined(separator: " "))'") }
                }
            }
            for o in spec.globalOptions {
                if !page.contains("Fl -\(o.long)") { XCTFail("man/\(spec.name).1 does not document --\(o.long)") }
                if let s = o.short, !page.contains("Fl \(s)") { XCTFail("man/\(spec.name).1 does not document -\(s)") }
            }
        }
    }

    /// The top-level commands an `.It Cm` line documents: `like | pass`,
    /// but not the `rm` of `habit add | rm`.
    static func topLevelCommands(_ item: String) -> [String] {
        let words = item.split(separator: " ").map(String.init)
        guard words.count > 2, words[0] == ".It", words[1] == "Cm" else { return [] }
        var names = [words[2]]
        var i = 3
        var single = true
        while i < words.count {
            if words[i] == "|" && i + 1 < words.count && single && !words[i + 1].first!.isUppercase {
                names.append(words[i + 1])
                i += 2
            } else if !words[i].first!.isUppercase && words[i] != "|" {
                single = false
                i += 1
            } else {
                break
            }
        }
        return names
    }

    /// COMMANDS has one subsection per group, as --help; each top-level
    /// command is under its group; the plumbing subsection says its NDJSON
    /// is a stable interface and names each plumbing command's records.
    func testCommandsAreGroupedAsInHelpAndPlumbingNamesItsRecords() throws {
        for spec in toolSpecs {
            let lines = Self.section("COMMANDS", of: try Self.page(spec.name))
            var group: CommandGroup? = nil
            var seen: [String: CommandGroup] = [:]
            var subsections: [CommandGroup] = []
            var plumbingText = ""
            for l in lines {
                if l.hasPrefix(".Ss ") {
                    // Other subsections (yomo's form options) follow the groups.
                    group = CommandGroup.allCases.first { ".Ss " + $0.title == l }
                    if let g = group { subsections.append(g) }
                    continue
                }
                if group == .plumbing { plumbingText += l + "\n" }
                for name in Self.topLevelCommands(l) where seen[name] == nil { seen[name] = group }
            }
            let expected = CommandGroup.allCases.filter { g in spec.commands.contains { $0.group == g } }
            XCTAssertEqual(subsections, expected, "man/\(spec.name).1: the COMMANDS subsections")
            for c in spec.commands {
                XCTAssertEqual(seen[c.name], c.group, "man/\(spec.name).1: '\(c.name)' belongs under \(c.group.title)")
            }
            XCTAssertTrue(plumbingText.contains("stable interface"), "man/\(spec.name).1: the plumbing commands' NDJSON is a stable interface")
            for c in spec.commands where c.group == .plumbing {
                for r in ([c] + c.subcommands).flatMap(\.records) where !plumbingText.contains("Li \(r)") {
                    XCTFail("man/\(spec.name).1: the plumbing subsection does not name the '\(r)' records of \(c.name)")
                }
            }
        }
    }

    /// The environment variables the code reads: `Sys.env("NAME")` where a
    /// tool's folder reads it, and `PREFIX + "_NAME"` forms in the shared
    /// code, which every tool reads.
    static func environmentRead() throws -> [String: Set<String>] {
        let root = ToolTestCase.packageRoot + "/Sources/NudgeKit"
        let folders = ["Tenclub": "tenclub", "Yomo": "yomo", "Rewards": "rewards", "Playa": "playa", "Habitmatch": "habitmatch"]
        var out: [String: Set<String>] = [:]
        let literal = try NSRegularExpression(pattern: #"(?:Sys\.)?\benv\("([A-Z][A-Z0-9_]*)"\)"#)
        let prefixed = try NSRegularExpression(pattern: #"(?:uppercased\(\)|\bp) \+ "(_[A-Z][A-Z0-9_]*)""#)
        let files = FileManager.default.enumerator(atPath: root)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        XCTAssertFalse(files.isEmpty)
        for f in files {
            let text = try String(contentsOfFile: root + "/" + f, encoding: .utf8)
            let range = NSRange(text.startIndex..., in: text)
            let folder = String(f.split(separator: "/").first!)
            let tools = folder == "Core" ? Array(folders.values) : [folders[folder]!]
            for m in literal.matches(in: text, range: range) {
                let name = String(text[Range(m.range(at: 1), in: text)!])
                for t in tools { out[t, default: []].insert(name) }
            }
            for m in prefixed.matches(in: text, range: range) {
                let suffix = String(text[Range(m.range(at: 1), in: text)!])
                for t in tools { out[t, default: []].insert(t.uppercased() + suffix) }
            }
        }
        return out
    }

    func testEveryEnvironmentVariableReadIsInENVIRONMENT() throws {
        let read = try Self.environmentRead()
        for spec in toolSpecs {
            let vars = read[spec.name] ?? []
            // The scan finds what it should: the shared ones and the prefixed ones.
            for v in ["TZ", "HOME", "USER", "XDG_DATA_HOME", "NO_COLOR", "\(spec.envPrefix)_DATA_DIR", "\(spec.envPrefix)_LOCK_TIMEOUT",
                      "\(spec.envPrefix)_ACTOR", "\(spec.envPrefix)_NOW"] {
                XCTAssertTrue(vars.contains(v), "the scan missed \(v) for \(spec.name)")
            }
            let env = Self.section("ENVIRONMENT", of: try Self.page(spec.name)).joined(separator: "\n")
            XCTAssertFalse(env.isEmpty, "man/\(spec.name).1 has no ENVIRONMENT")
            let named = Set(env.split(whereSeparator: { " ,\n".contains($0) }).map(String.init))
            for v in vars.sorted() where !named.contains(v) {
                XCTFail("man/\(spec.name).1: ENVIRONMENT does not name \(v), which \(spec.name) reads")
            }
        }
        XCTAssertTrue(read["rewards"]!.contains("REWARDS_USER"))
        XCTAssertFalse(read["tenclub"]!.contains("REWARDS_USER"))
    }

    /// Quotes render in pairs: a .Dq after another on one .Pq line nests
    /// inside it instead of following it ("every blue moon, "twice a day""").
    func testQuotationsRenderInPairs() throws {
        try require(.mandoc)
        for tool in toolSpecs.map(\.name) {
            let r = runProgram(command("mandoc"), ["-Tutf8", "-O", "width=1000", ToolTestCase.packageRoot + "/man/\(tool).1"])
            XCTAssertEqual(r.status, 0, r.err)
            for line in r.out.split(separator: "\n") {
                var depth = 0
                for ch in line {
                    if ch == "\u{201C}" { depth += 1; XCTAssertLessThanOrEqual(depth, 1, "\(tool)(1): quotes nest: \(line)") }
                    if ch == "\u{201D}" { depth -= 1 }
                }
            }
        }
    }
}
