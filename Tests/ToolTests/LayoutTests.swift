import XCTest
import NudgeKit

/// The tree's shape, as README.md's "Layout" paragraph describes it: every
/// tool folder the same rooms, rooms small enough to read, rules that take
/// values, no process-wide mutable state, comments a reader can follow.
final class LayoutTests: ToolTestCase {
    var sources: String { ToolTestCase.packageRoot + "/Sources" }

    /// Swift files under a folder, relative to it.
    func swiftFiles(_ dir: String) -> [String] {
        (FileManager.default.enumerator(atPath: dir)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".swift") }.sorted()
    }

    func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    func testEveryToolFolderHasTheSameRooms() throws {
        for spec in toolSpecs {
            let name = spec.name.prefix(1).uppercased() + spec.name.dropFirst()
            let dir = sources + "/NudgeKit/" + name
            // Access/ is optional: a tool's own reach into the OS beyond the store
            // (a folder shared by several logins: its layout, owners, ACLs).
            let top = try FileManager.default.contentsOfDirectory(atPath: dir).sorted().filter { $0 != "Access" }
            XCTAssertEqual(Set(top), ["Commands", "Model", "Rules", "\(name)Spec.swift"], "\(name)/")
            // The namespace is declared in the registry's file and nowhere else.
            for f in swiftFiles(sources + "/NudgeKit") {
                let declares = text(sources + "/NudgeKit/" + f).contains("public enum \(name) {")
                XCTAssertEqual(declares, f == "\(name)/\(name)Spec.swift", "public enum \(name) is declared in \(f)")
            }
            // A rule takes values, never the command's context; handlers live in Commands/.
            for f in swiftFiles(dir) {
                let t = text(dir + "/" + f)
                if f.hasPrefix("Rules/") || f.hasPrefix("Model/") {
                    XCTAssertFalse(t.contains("Context"), "\(name)/\(f) uses Context: a rule or model takes the values it needs")
                }
                if !f.hasPrefix("Commands/") && f != "\(name)Spec.swift" {
                    XCTAssertFalse(t.contains("(_ ctx: Context) throws(ToolError) -> ExitCode"), "\(name)/\(f) holds a handler")
                }
            }
        }
    }

    func testNoSourceFileIsOver600Lines() {
        for f in swiftFiles(sources) {
            let lines = text(sources + "/" + f).split(separator: "\n", omittingEmptySubsequences: false).count
            XCTAssertLessThanOrEqual(lines, 600, "Sources/\(f) has \(lines) lines")
        }
    }

    func testFileNamesAreUniqueInTheLibrary() {
        let names = swiftFiles(sources + "/NudgeKit").map { $0.split(separator: "/").last.map(String.init) ?? $0 }
        XCTAssertEqual(Set(names).count, names.count, "SwiftPM needs one object per file name")
    }

    func testNoProcessWideMutableStatics() {
        for f in swiftFiles(sources) where text(sources + "/" + f).contains("nonisolated(unsafe)") {
            XCTFail("Sources/\(f): nonisolated(unsafe) state; use Locked (Core/OS/Locked.swift)")
        }
    }

    /// Comments, tests and pages cite what a reader can open, not a planning
    /// document, however it is capitalised. (A random seed is not one; a
    /// format's "v1" is not a version of the product.)
    func testNothingCitesWhatAReaderCannotOpen() throws {
        let pattern = try NSRegularExpression(
            pattern: #"\b(the seed('s| says| asks| describes| document)|the PRD|CONVENTIONS\.md|Epic [0-9]+|issue [0-9]+|(?-i:V[1-3])\b)"#,
            options: [.caseInsensitive])
        var files = swiftFiles(sources).map { "Sources/" + $0 }
        let tests = ToolTestCase.packageRoot + "/Tests"
        files += swiftFiles(tests).filter { !$0.hasPrefix("Fuzz/corpus") && !$0.contains(".build/") && !$0.hasSuffix("LayoutTests.swift") }.map { "Tests/" + $0 }
        files += toolSpecs.map { "man/\($0.name).1" } + ["README.md"]
        for f in files {
            let t = text(ToolTestCase.packageRoot + "/" + f)
            for (n, line) in t.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let s = String(line)
                if let m = pattern.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) {
                    XCTFail("\(f):\(n + 1) cites '\((s as NSString).substring(with: m.range))'")
                }
            }
        }
    }

    /// Every option a tool's code reads by name (`ctx.option("x")`,
    /// `ctx.flag("x")`) is declared by one of its commands or globally: a
    /// misspelt name would read nil whatever the user typed. (In a debug
    /// build, `Context` also says so when a command reads an option it does
    /// not itself declare, so the tests see it where they run it.)
    func testEveryOptionReadByNameIsDeclared() throws {
        let read = try NSRegularExpression(pattern: #"ctx\.(option|flag|optionIfDeclared)\("([a-z0-9-]+)"\)"#)
        func names(_ c: CommandSpec) -> [String] { c.options.map(\.long) + c.subcommands.flatMap(names) }
        let everyTool = Set(toolSpecs.flatMap { $0.commands.flatMap(names) + $0.globalOptions.map(\.long) })
        var checked = 0
        for f in swiftFiles(sources + "/NudgeKit") {
            let tool = toolSpecs.first { f.hasPrefix($0.name.prefix(1).uppercased() + $0.name.dropFirst() + "/") }
            let declared = tool.map { Set($0.commands.flatMap(names) + $0.globalOptions.map(\.long)) } ?? everyTool
            let t = text(sources + "/NudgeKit/" + f)
            for m in read.matches(in: t, range: NSRange(t.startIndex..., in: t)) {
                let name = (t as NSString).substring(with: m.range(at: 2))
                checked += 1
                XCTAssertTrue(declared.contains(name), "Sources/NudgeKit/\(f) reads --\(name), which no command of \(tool?.name ?? "any tool") declares")
            }
        }
        XCTAssertGreaterThan(checked, 100)
    }

    /// Each planted bug of .ci/mutants still names a file and a text found
    /// there once, so a move or an edit does not quietly retire a mutant.
    func testEveryMutantStillApplies() {
        let list = text(ToolTestCase.packageRoot + "/.ci/mutants")
        var count = 0
        for line in list.split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 5 else { XCTFail("bad line in .ci/mutants: \(line)"); continue }
            count += 1
            let source = text(ToolTestCase.packageRoot + "/" + f[1])
            let from = f[2].replacingOccurrences(of: "\\n", with: "\n")
            XCTAssertEqual(source.components(separatedBy: from).count - 1, 1, "mutant \(f[0]): '\(f[2])' in \(f[1])")
        }
        XCTAssertGreaterThanOrEqual(count, 13)
    }
}
