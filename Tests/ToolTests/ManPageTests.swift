import XCTest
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

    static var mandoc: String? {
        ["/usr/bin/mandoc", "/usr/local/bin/mandoc", "/opt/homebrew/bin/mandoc"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A manual search path for the lint: the five pages, and copies of the
    /// system's pages they refer to, indexed (so mandoc checks every .Xr against real
    /// pages and has no stale index to complain about).
    func manpath() throws -> String {
        let dir = tmp + "/manpath"
        let fm = FileManager.default
        var refs: Set<String> = []
        for spec in familySpecs {
            for l in try Self.page(spec.name).components(separatedBy: "\n") where l.hasPrefix(".Xr ") {
                let w = l.split(separator: " ")
                if w.count >= 3 { refs.insert("\(w[1]).\(w[2].prefix { $0.isNumber })") }
            }
        }
        for ref in refs {
            let sec = String(ref.split(separator: ".").last!)
            try fm.createDirectory(atPath: "\(dir)/man\(sec)", withIntermediateDirectories: true)
            let name = String(ref.dropLast(sec.count + 1))
            if familySpecs.contains(where: { $0.name == name }) {
                try fm.copyItem(atPath: ToolTestCase.packageRoot + "/man/\(ref)", toPath: "\(dir)/man\(sec)/\(ref)")
                continue
            }
            for base in ["/usr/share/man", "/usr/local/share/man", "/usr/local/man", "/opt/homebrew/share/man"] {
                for ext in ["", ".gz"] where fm.fileExists(atPath: "\(base)/man\(sec)/\(ref)\(ext)") {
                    let real = URL(fileURLWithPath: "\(base)/man\(sec)/\(ref)\(ext)").resolvingSymlinksInPath().path
                    try? fm.copyItem(atPath: real, toPath: "\(dir)/man\(sec)/\(ref)\(ext)")
                }
            }
        }
        if let mw = ["/usr/sbin/makewhatis", "/usr/bin/makewhatis", "/usr/local/sbin/makewhatis"].first(where: { fm.isExecutableFile(atPath: $0) }) {
            let r = sh("'\(mw)' '\(dir)'")
            XCTAssertEqual(r.code, 0, r.err)
        }
        return dir
    }

    /// mandoc -Tlint -W style: every message, from style notes up. A manual
    /// a page refers to must be installed (.ci/run installs cron, libnotify-bin,
    /// xdg-utils and xss-lock for their pages).
    func testEveryPageLintsCleanAtEveryLevel() throws {
        guard let mandoc = Self.mandoc else { throw XCTSkip("mandoc is not installed (.ci/run installs it)") }
        let mp = try manpath()
        for spec in familySpecs {
            let page = ToolTestCase.packageRoot + "/man/\(spec.name).1"
            let r = sh("MANPATH='\(mp)' '\(mandoc)' -Tlint -Wstyle '\(page)'")
            XCTAssertEqual(r.out + r.err, "", "mandoc -Tlint -Wstyle man/\(spec.name).1")
            XCTAssertEqual(r.code, 0)
        }
    }

    /// Every declared command and option, long and short, is in its page.
    func testEveryCommandAndOptionIsDocumented() throws {
        for spec in familySpecs {
            let page = try Self.page(spec.name)
            for path in spec.allPaths {
                for word in path where !page.contains("Cm \(word)") && !page.contains(" \(word) ") {
                    XCTFail("man/\(spec.name).1 does not document '\(word)'")
                }
                for o in spec.command(path)?.options ?? [] {
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
        for spec in familySpecs {
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
        for spec in familySpecs {
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
}
