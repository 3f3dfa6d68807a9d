import XCTest
import TestSupport
import NudgeKit

/// The documentation's examples, run: every fenced shell block of README.md
/// and every example in the EXAMPLES section of each man page, in order, as
/// a reader would paste them, against a fresh home directory with a pinned
/// clock and the built tools first on PATH. An example fails when it exits
/// non-zero or writes to stderr anything it does not itself show.
///
/// What a reader's machine has and a test machine lacks is replaced by local
/// commands (see `fakes`): notifiers, SMS senders and openers consume their
/// input and succeed; `curl` answers the two local services the examples
/// ask (ActivityWatch's export, Twilio's list of messages) and accepts
/// everything else. Files the examples name (`unlocks.ndjson`,
/// `sessions.ndjson`, ...) are in the working directory (see `fixtures`).
///
/// Markers in the source say what else an example needs, on the lines just
/// before it: an HTML comment in Markdown, a roff comment in a man page.
///
///     <!-- example: skip (needs a lock screen) -->     .\" example: skip (needs a phone)
///     example: file ~/bin/playa-notify      the block is that file (made executable if it starts with #!)
///     example: env SMS_1_NUMBER=+14155550132 SMS_1_TEXT=YES
///     example: setup habitmatch --user cy like ana     run first (the other side of a conversation)
///     example: then tenclub sms deliver                run after (a configuration file in use)
///     example: path /srv/habitmatch                    a folder the example names, made in the test's directory
///
/// A skipped example is printed with its name and reason, never dropped
/// silently. Lines that start with a crontab schedule run as their command
/// part. A block whose lines start with `$ ` is a transcript: each command
/// runs, and the lines under it, when there are any, are its exact output.
struct Example {
    enum Kind: Equatable { case shell, transcript }
    var source: String
    var line: Int
    var kind: Kind
    var text: String
    var skip: String? = nil
    var file: String? = nil
    var env: [(String, String)] = []
    var setup: [String] = []
    var then: [String] = []
    var paths: [String] = []

    /// "README.md:62 swayidle -w unlock 'tenclub unlock -q'"
    var name: String {
        let first = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty && !$0.hasPrefix("#") } ?? ""
        return "\(source):\(line) " + (first.count > 70 ? first.prefix(69) + "…" : first)
    }

    mutating func mark(_ marker: String) {
        let m = marker.trimmingCharacters(in: .whitespaces)
        func rest(_ key: String) -> String { String(m.dropFirst(key.count)).trimmingCharacters(in: .whitespaces) }
        if m.hasPrefix("skip") {
            var r = rest("skip")
            if r.hasPrefix("(") && r.hasSuffix(")") { r = String(r.dropFirst().dropLast()) }
            skip = r.isEmpty ? "no reason given" : r
        } else if m.hasPrefix("file ") {
            file = rest("file")
        } else if m.hasPrefix("env ") {
            for kv in rest("env").split(separator: " ") {
                let p = kv.split(separator: "=", maxSplits: 1).map(String.init)
                env.append((p[0], p.count > 1 ? p[1] : ""))
            }
        } else if m.hasPrefix("setup ") {
            setup.append(rest("setup"))
        } else if m.hasPrefix("then ") {
            then.append(rest("then"))
        } else if m.hasPrefix("path ") {
            paths.append(rest("path"))
        } else {
            skip = "unknown marker 'example: \(m)'"
        }
    }

    static func kind(of text: String) -> Kind {
        text.split(separator: "\n").contains { $0.hasPrefix("$ ") } ? .transcript : .shell
    }

    /// Fenced blocks marked sh, bash or crontab (or of any language marked
    /// as a file), with the markers above them.
    static func fromMarkdown(_ text: String, source: String) -> [Example] {
        var out: [Example] = []
        var markers: [String] = []
        var block: (lang: String, start: Int, lines: [String])? = nil
        for (i, raw) in text.components(separatedBy: "\n").enumerated() {
            let line = raw
            if var b = block {
                if line.hasPrefix("```") {
                    // Any block marked as a file (a vCard, a config) is that file.
                    if ["sh", "bash", "shell", "crontab"].contains(b.lang) || markers.contains(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("file ") }) {
                        var e = Example(source: source, line: b.start, kind: .shell, text: b.lines.joined(separator: "\n") + "\n")
                        e.kind = kind(of: e.text)
                        for m in markers { e.mark(m) }
                        out.append(e)
                    }
                    markers = []
                    block = nil
                } else {
                    b.lines.append(line)
                    block = b
                }
                continue
            }
            if line.hasPrefix("```") {
                block = (String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces), i + 1, [])
            } else if line.hasPrefix("<!-- example:"), let r = line.range(of: "<!-- example:"), let end = line.range(of: "-->") {
                markers.append(String(line[r.upperBound..<end.lowerBound]))
            } else if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                markers = []
            }
        }
        return out
    }

    /// The roff escapes a literal display uses, undone.
    static func unroff(_ s: String) -> String {
        var t = s
        for (a, b) in [("\\(aq", "'"), ("\\(dq", "\""), ("\\(ga", "`"), ("\\-", "-"), ("\\&", ""), ("\\e", "\\")] {
            t = t.replacingOccurrences(of: a, with: b)
        }
        return t
    }

    /// The displays (.Bd -literal ... .Ed) and one-liners (.Dl) of a man
    /// page's EXAMPLES section, with the `.\" example:` markers above them.
    static func fromManPage(_ text: String, source: String) -> [Example] {
        var out: [Example] = []
        var markers: [String] = []
        var inExamples = false
        var display: (start: Int, lines: [String])? = nil
        func add(_ body: String, line: Int) {
            var e = Example(source: source, line: line, kind: kind(of: body), text: body)
            for m in markers { e.mark(m) }
            markers = []
            out.append(e)
        }
        for (i, line) in text.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix(".Sh ") {
                inExamples = line == ".Sh EXAMPLES"
                continue
            }
            guard inExamples else { continue }
            if var d = display {
                if line == ".Ed" {
                    add(d.lines.joined(separator: "\n") + "\n", line: d.start)
                    display = nil
                } else {
                    d.lines.append(unroff(line))
                    display = d
                }
            } else if line.hasPrefix(".Bd -literal") {
                display = (i + 1, [])
            } else if line.hasPrefix(".Dl ") {
                add(unroff(String(line.dropFirst(4))) + "\n", line: i + 1)
            } else if line.hasPrefix(".\\\" example:") {
                markers.append(String(line.dropFirst(".\\\" example:".count)))
            }
        }
        return out
    }

    /// A crontab line's command: the line without its five schedule fields.
    static func cronCommand(_ line: String) -> String? {
        var rest = Substring(line)
        for _ in 0..<5 {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            let field = rest.prefix { $0 != " " && $0 != "\t" }
            guard !field.isEmpty, field.allSatisfy({ "0123456789*/,-".contains($0) }) else { return nil }
            rest = rest.dropFirst(field.count)
        }
        let command = rest.drop { $0 == " " || $0 == "\t" }
        return command.isEmpty || rest.first.map({ $0 != " " && $0 != "\t" }) == true ? nil : String(command)
    }

    /// The block as a shell script: crontab lines become their commands.
    static func script(_ text: String) -> String {
        text.components(separatedBy: "\n").map { cronCommand($0) ?? $0 }.joined(separator: "\n")
    }

    /// A block's crontab part, as cron reads it: `NAME=value` lines set the
    /// environment of the entries after them, each entry is one line. What
    /// crontab would read otherwise than a reader does is a problem: an
    /// entry continued on the next line (crontab takes each line alone), an
    /// unescaped `%` (cron turns it into a newline). The other lines are the
    /// block's shell part, run first in the reader's session. Nil when the
    /// block has no crontab entry.
    struct Crontab {
        var shell: String
        var entries: [(env: [(String, String)], command: String)] = []
        var problems: [String] = []
    }

    static func crontab(_ text: String) -> Crontab? {
        let lines = text.components(separatedBy: "\n")
        guard lines.contains(where: { cronCommand($0) != nil }) else { return nil }
        var c = Crontab(shell: "")
        var env: [(String, String)] = []
        var shell: [String] = []
        var afterEntry = false
        for line in lines {
            if let command = cronCommand(line) {
                let code = command.split(separator: "#", maxSplits: 1).first.map(String.init) ?? command
                if code.replacingOccurrences(of: "\\%", with: "").contains("%") {
                    c.problems.append("cron turns an unescaped % into a newline: \(line)")
                }
                let end = code.trimmingCharacters(in: .whitespaces)
                if ["|", "\\", "&&", "||"].contains(where: { end.hasSuffix($0) }) {
                    c.problems.append("a crontab entry is one line; this one goes on: \(line)")
                }
                c.entries.append((env, command))
                afterEntry = true
            } else if let eq = line.firstIndex(of: "="), !line.contains(" "),
                      line[..<eq].allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber }), line.first?.isLetter == true {
                env.append((String(line[..<eq]), String(line[line.index(after: eq)...])))
            } else if afterEntry && line.first.map({ $0 == " " || $0 == "\t" }) == true {
                c.problems.append("a crontab entry is one line; this line continues the one above: \(line)")
            } else {
                shell.append(line)
            }
        }
        c.shell = shell.joined(separator: "\n")
        return c
    }
}

final class ExampleTests: ToolTestCase {
    /// The clock every example runs at, and the zone.
    static let now = "2026-11-22T20:30:00-05:00"
    static var tools: [String] { toolSpecs.map(\.name) }
    static let timeoutSeconds = 20

    /// Files the examples name, in their working directory.
    static let fixtures: [String: String] = [
        // A phone's unlock log, as exported: JSON with millisecond timestamps.
        "phone-unlocks.json": #"[{"timestamp":1795264200000,"package":"com.android.systemui"},{"timestamp":1795281000000},{"timestamp":1795351500000}]"# + "\n",
        "unlocks.ndjson": """
            {"at":"2026-11-22T08:15:00-05:00","source":"swayidle"}
            {"at":"2026-11-22T12:40:00-05:00","source":"swayidle"}
            {"at":"2026-11-22T18:05:00-05:00","source":"swayidle"}

            """,
        "sessions.ndjson": """
            {"child":"Alex","app":"Duolingo","start":"2026-11-21T16:00:00-05:00","duration_s":1500}
            {"child":"Alex","app":"Khan Academy","start":"2026-11-21T16:30:00-05:00","end":"2026-11-21T17:30:00-05:00"}
            {"child":"Alex","app":"Minecraft","start":"2026-11-21T17:40:00-05:00","duration_s":1200}
            {"child":"Alex","app":"Duolingo","start":"2026-11-21T18:00:00-05:00","duration_s":120}

            """,
    ]

    static var activityWatchExport: String {
        ToolTestCase.packageRoot + "/Tests/NudgeKitTests/Rewards/Fixtures/activitywatch-export.json"
    }

    /// Local stand-ins for what needs a desktop, a phone or a network.
    static var fakes: [String: String] {
        let consume = "#!/bin/sh\n# A stand-in for the example tests: takes its input, succeeds.\n[ -t 0 ] || cat >/dev/null\nexit 0\n"
        return [
            "notify-send": consume, "kdeconnect-cli": consume, "gammu-smsd-inject": consume, "xdg-open": consume, "open": consume,
            "adb": consume, "timekpra": consume,
            "sudo": "#!/bin/sh\n# A stand-in: runs the command as this user.\nwhile [ $# -gt 0 ]; do case $1 in -u) shift 2 ;; -*) shift ;; *) break ;; esac; done\nexec env \"$@\"\n",
            "curl": """
                #!/bin/sh
                # A stand-in for curl: ActivityWatch's export and Twilio's list of
                # messages (a GET: -G) answer from fixtures; anything else is accepted.
                for a in "$@"; do
                  case $a in
                    *localhost:5600/api/0/export*) exec cat '\(activityWatchExport)' ;;
                    -G) echo '{"messages":[{"sid":"SM0001","from":"+14155550132","body":"YES"}]}'; exit 0 ;;
                  esac
                done
                [ -t 0 ] || cat >/dev/null
                exit 0

                """,
        ]
    }

    struct Run {
        var root: String
        var home: String
        var work: String
        var env: [String: String]
    }

    func prepare() throws -> Run {
        let home = tmp + "/home", work = tmp + "/work", bin = tmp + "/bin"
        for d in [home, work, bin, home + "/bin"] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
        for (name, text) in Self.fixtures { _ = FileManager.default.createFile(atPath: work + "/" + name, contents: Data(text.utf8)) }
        for (name, text) in Self.fakes {
            _ = FileManager.default.createFile(atPath: bin + "/" + name, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])
        }
        var env = ["PATH": "\(bin):\(ToolTestCase.productsDirectory.path):\(home)/bin:/usr/local/bin:/usr/bin:/bin",
                   "HOME": home, "USER": "ana", "LOGNAME": "ana", "TZ": "America/New_York", "LANG": "C.UTF-8", "TMPDIR": tmp]
        for t in Self.tools { env[t.uppercased() + "_NOW"] = Self.now }
        return Run(root: tmp, home: home, work: work, env: env)
    }

    /// Runs a script in the run's environment; with `keep`, the variables
    /// it exports stay for the next example, as in one terminal session.
    func shell(_ script: String, _ run: inout Run, env extra: [(String, String)] = [], keep: Bool = false) -> RunResult {
        let saved = tmp + "/ex-env-\(UUID().uuidString)"
        let r = shell((keep ? "trap 'env -0 > \(saved)' EXIT\n" : "") + script, run, env: extra)
        if keep, let data = FileManager.default.contents(atPath: saved) {
            var env: [String: String] = [:]
            for kv in data.split(separator: 0) {
                let s = String(decoding: kv, as: UTF8.self)
                guard let eq = s.firstIndex(of: "=") else { continue }
                env[String(s[..<eq])] = String(s[s.index(after: eq)...])
            }
            for k in ["PWD", "OLDPWD", "SHLVL", "_"] { env[k] = run.env[k] }
            for (k, _) in extra { env[k] = run.env[k] }
            run.env = env
        }
        return r
    }

    func shell(_ script: String, _ run: Run, env extra: [(String, String)] = [], program: [String]? = nil) -> RunResult {
        let p = Process()
        let bash = program ?? ["/bin/bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", script]
        // An example that does not end (a watch loop) is stopped, with its
        // pipeline, and fails.
        if let timeout = ["/usr/bin/timeout", "/bin/timeout"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            p.executableURL = URL(fileURLWithPath: timeout)
            p.arguments = ["-k", "5", "\(Self.timeoutSeconds)"] + bash
        } else {
            p.executableURL = URL(fileURLWithPath: bash[0])
            p.arguments = Array(bash.dropFirst())
        }
        var env = run.env
        for (k, v) in extra { env[k] = v }
        p.environment = env
        p.currentDirectoryURL = URL(fileURLWithPath: run.work)
        let id = UUID().uuidString
        let outPath = tmp + "/ex-out-\(id)", errPath = tmp + "/ex-err-\(id)"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        p.standardOutput = FileHandle(forWritingAtPath: outPath)
        p.standardError = FileHandle(forWritingAtPath: errPath)
        p.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try! p.run()
        p.waitUntilExit()
        return RunResult(out: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                         err: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "", code: p.terminationStatus)
    }

    /// The folder that stands for `/usr/local/bin`, where `make install`
    /// puts the tools: the tools and the stand-ins for a desktop's commands.
    func installedBin(_ run: Run) throws -> String {
        let dir = run.root + "/cron-usr-local-bin"
        if Sys.isDirectory(dir) { return dir }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for t in Self.tools {
            try FileManager.default.createSymbolicLink(atPath: dir + "/" + t, withDestinationPath: executable(t))
        }
        for name in Self.fakes.keys {
            try FileManager.default.createSymbolicLink(atPath: dir + "/" + name, withDestinationPath: run.root + "/bin/" + name)
        }
        return dir
    }

    /// Runs a crontab entry as cron does: `/bin/sh -c` in the home folder,
    /// with cron's environment only (HOME, LOGNAME, SHELL, PATH=/usr/bin:/bin)
    /// and the variables the crontab sets; `/usr/local/bin` on its PATH is
    /// where the tools were installed. The test's pinned clock and zone
    /// (`TOOL_NOW`, `TZ`) and the example's markers are kept: they pin the
    /// run, not what the entry may rely on.
    func crond(_ command: String, _ run: Run, env extra: [(String, String)]) -> RunResult {
        var env = ["HOME": run.home, "LOGNAME": run.env["LOGNAME"] ?? "ana", "USER": run.env["USER"] ?? "ana",
                   "SHELL": "/bin/sh", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TMPDIR": run.root]
        for (k, v) in run.env where k == "TZ" || k.hasSuffix("_NOW") { env[k] = v }
        for (k, v) in extra { env[k] = v }
        let bin = (try? installedBin(run)) ?? "/usr/local/bin"
        env["PATH"] = env["PATH"]!.split(separator: ":", omittingEmptySubsequences: false)
            .map { $0 == "/usr/local/bin" ? bin : String($0) }.joined(separator: ":")
        var cron = run
        cron.env = env
        cron.work = run.home
        return shell(command, cron, env: [], program: ["/bin/sh", "-c", command])
    }

    /// Runs a document's examples in order; returns what was skipped.
    @discardableResult
    func runAll(_ examples: [Example], file: StaticString = #filePath, line: UInt = #line) throws -> [Example] {
        XCTAssertFalse(examples.isEmpty, "no examples found", file: file, line: line)
        // The documented pipelines are jq pipelines.
        if examples.contains(where: { $0.skip == nil && $0.text.contains("jq ") }) { try require(.jq) }
        var run = try prepare()
        var skipped: [Example] = []
        for var e in examples {
            if let why = e.skip {
                print("example skipped: \(e.name): \(why)")
                skipped.append(e)
                continue
            }
            for p in e.paths {
                let local = run.root + "/paths" + p
                try FileManager.default.createDirectory(atPath: Sys.parentDirectory(local), withIntermediateDirectories: true)
                e.text = e.text.replacingOccurrences(of: p, with: local)
                e.setup = e.setup.map { $0.replacingOccurrences(of: p, with: local) }
                e.then = e.then.map { $0.replacingOccurrences(of: p, with: local) }
                run.env = run.env.mapValues { $0.replacingOccurrences(of: p, with: local) }
            }
            func check(_ what: String, _ r: RunResult, shown: String) {
                let unshown = r.err.split(separator: "\n").filter { !shown.contains($0) }
                XCTAssertTrue(r.code == 0 && unshown.isEmpty,
                              "\(e.name): \(what) exited \(r.code)\n--- stderr:\n\(r.err)--- stdout:\n\(r.out.prefix(2000))", file: file, line: line)
            }
            for s in e.setup { check("setup '\(s)'", shell(s, &run), shown: "") }
            if let target = e.file {
                let path = target.hasPrefix("~/") ? run.home + target.dropFirst(1) : run.work + "/" + target
                try FileManager.default.createDirectory(atPath: Sys.parentDirectory(path), withIntermediateDirectories: true)
                let mode = e.text.hasPrefix("#!") ? 0o755 : 0o600
                XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(e.text.utf8), attributes: [.posixPermissions: mode]))
            } else if e.kind == .transcript {
                var command: String? = nil
                var expected: [String] = []
                func finish() {
                    guard let c = command else { return }
                    let r = shell(c, &run, env: e.env, keep: true)
                    check("'\(c)'", r, shown: e.text)
                    if !expected.isEmpty {
                        XCTAssertEqual(r.out, expected.map { $0 + "\n" }.joined(), "\(e.name): the output of '\(c)' is not as shown", file: file, line: line)
                    }
                }
                for l in e.text.split(separator: "\n", omittingEmptySubsequences: false) where !l.isEmpty {
                    if l.hasPrefix("$ ") {
                        finish()
                        command = String(l.dropFirst(2))
                        expected = []
                    } else {
                        expected.append(String(l))
                    }
                }
                finish()
            } else if let cron = Example.crontab(e.text) {
                for p in cron.problems { XCTFail("\(e.name): \(p)", file: file, line: line) }
                if !cron.shell.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    check("the example", shell(cron.shell, &run, env: e.env, keep: true), shown: e.text)
                }
                // Cron mails whatever an entry prints, on stdout or stderr:
                // an entry is silent when all is well.
                for entry in cron.entries {
                    let r = crond(entry.command, run, env: e.env + entry.env)
                    XCTAssertTrue(r.code == 0 && r.out.isEmpty && r.err.isEmpty,
                                  "\(e.name): the crontab entry '\(entry.command)' would mail: it exited \(r.code)\n--- stderr:\n\(r.err)--- stdout:\n\(r.out.prefix(2000))",
                                  file: file, line: line)
                }
            } else {
                check("the example", shell(Example.script(e.text), &run, env: e.env, keep: true), shown: e.text)
            }
            for s in e.then { check("then '\(s)'", shell(s, &run), shown: "") }
        }
        return skipped
    }

    func testREADMEExamplesRun() throws {
        let text = try String(contentsOfFile: ToolTestCase.packageRoot + "/README.md", encoding: .utf8)
        try runAll(Example.fromMarkdown(text, source: "README.md"))
    }

    /// A man page's examples.
    func manExamples(_ tool: String) throws -> [Example] {
        let path = ToolTestCase.packageRoot + "/man/\(tool).1"
        return Example.fromManPage(try String(contentsOfFile: path, encoding: .utf8), source: "man/\(tool).1")
    }

    /// Each page's examples read the same in the page as mandoc renders
    /// them (a quote in a .Dl line is eaten by the macro parser).
    func testManPageExamplesReadAsRendered() throws {
        try require(.mandoc)
        for tool in Self.tools {
            let path = ToolTestCase.packageRoot + "/man/\(tool).1"
            let r = runProgram(command("mandoc"), ["-Tutf8", "-O", "width=1000", path])
            XCTAssertEqual(r.status, 0, "mandoc \(r.summary): \(r.err)")
            let rendered = r.out.replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
            let lines = Set(rendered.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
            for e in try manExamples(tool) {
                for l in e.text.split(separator: "\n") where !lines.contains(l.trimmingCharacters(in: .whitespaces)) {
                    XCTFail("\(e.name): the page shows this line otherwise: \(l)")
                }
            }
        }
    }

    func testTenclubManPageExamplesRun() throws { try runAll(manExamples("tenclub")) }
    func testYomoManPageExamplesRun() throws { try runAll(manExamples("yomo")) }
    func testRewardsManPageExamplesRun() throws { try runAll(manExamples("rewards")) }
    func testPlayaManPageExamplesRun() throws { try runAll(manExamples("playa")) }
    func testHabitmatchManPageExamplesRun() throws { try runAll(manExamples("habitmatch")) }

    /// The documented nudge acts on `check`'s "busted" (status 1) only:
    /// not on a day within ten, and not on an error (a mistyped TZ), which
    /// cron mails instead. Run as cron runs it, from README.md and tenclub(1).
    func testTheDocumentedBustedNudgeActsOnStatusOneOnly() throws {
        let readme = try String(contentsOfFile: ToolTestCase.packageRoot + "/README.md", encoding: .utf8)
        let sources = Example.fromMarkdown(readme, source: "README.md") + (try manExamples("tenclub"))
        let entries = sources.compactMap { Example.crontab($0.text) }.flatMap(\.entries)
            .filter { $0.command.contains("tenclub check") }
        XCTAssertEqual(entries.count, 2, "README.md and tenclub(1) each show the busted nudge")
        for entry in entries {
            var run = try prepare()
            let notified = run.home + "/notified"
            try? FileManager.default.removeItem(atPath: notified)
            try? FileManager.default.removeItem(atPath: run.home + "/.local/share/tenclub")
            _ = FileManager.default.createFile(atPath: run.root + "/bin/notify-send", contents: Data("#!/bin/sh\necho \"$*\" >> '\(notified)'\n".utf8),
                                               attributes: [.posixPermissions: 0o755])
            var r = crond(entry.command, run, env: entry.env)
            XCTAssertEqual(r.code, 0, "\(entry.command): \(r.err)")
            XCTAssertFalse(Sys.fileExists(notified), "a day within ten notified")
            XCTAssertEqual(shell("for m in $(seq 10 20); do tenclub unlock -q --at 2026-11-22T20:$m:00-05:00; done", &run).code, 0)
            r = crond(entry.command, run, env: entry.env + [("TZ", "America/New_Yrok")])
            XCTAssertTrue(r.err.contains("TZ"), "the error goes to cron's mail: \(r.err)")
            XCTAssertFalse(Sys.fileExists(notified), "an error (a mistyped TZ) notified")
            r = crond(entry.command, run, env: entry.env)
            XCTAssertEqual(r.code, 0, r.err)
            XCTAssertEqual(try? String(contentsOfFile: notified, encoding: .utf8), "tenclub No tenclub today!\n")
        }
    }

    /// The adb opener keeps a link whole on the phone: adb joins its
    /// arguments for the phone's shell, where an unquoted & ends a command.
    /// The stand-in adb runs them as that shell would, with an `am` that
    /// prints its arguments.
    func testTheADBOpenerKeepsTheLinkWhole() throws {
        let readme = try String(contentsOfFile: ToolTestCase.packageRoot + "/README.md", encoding: .utf8)
        let man = try manExamples("playa")
        let openers = (Example.fromMarkdown(readme, source: "README.md") + man).filter { $0.file == "~/bin/adb-open" }
        XCTAssertEqual(openers.count, 2, "README.md and playa(1) each show ~/bin/adb-open")
        let bin = tmp + "/device-bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: bin + "/adb", contents: Data(#"""
            #!/bin/sh
            [ "$1" = shell ] && shift
            exec sh -c "am() { for a in \"\$@\"; do printf '%s\n' \"\$a\"; done; }; $*"
            """#.utf8), attributes: [.posixPermissions: 0o755])
        let url = "whatsapp://send?phone=14155550132&text=Coffee%20this%20week%3F"
        for e in openers {
            let opener = write("adb-open-\(e.line)", e.text)
            let r = runProgram("/bin/sh", [opener, url], env: ["PATH": bin + ":/usr/bin:/bin"])
            XCTAssertEqual(r.status, 0, "\(e.name): \(r.err)")
            XCTAssertEqual(r.out.split(separator: "\n").last.map(String.init), url, "\(e.name): the phone got \(r.out)")
        }
        // What the recipe did before: the text after & was lost.
        let before = runProgram(bin + "/adb", ["shell", "am", "start", "-a", "android.intent.action.VIEW", "-d", url], env: ["PATH": "/usr/bin:/bin"])
        XCTAssertNotEqual(before.out.split(separator: "\n").last.map(String.init), url)
    }

    /// The extraction itself: markers, roff escapes, crontab lines, transcripts.
    func testExamplesAreExtractedWithTheirMarkers() {
        let md = """
            Intro.

            <!-- example: skip (needs a phone) -->
            ```sh
            adb shell true
            ```

            ```json
            {"not": "shell"}
            ```
            <!-- example: file ~/bin/x -->
            <!-- example: env A=1 B=2 -->
            ```crontab
            */5 * * * *  tool due | x
            ```
            ```sh
            $ echo hi
            hi
            ```
            """
        let m = Example.fromMarkdown(md, source: "t.md")
        XCTAssertEqual(m.count, 3)
        XCTAssertEqual(m[0].skip, "needs a phone")
        XCTAssertEqual(m[0].name, "t.md:4 adb shell true")
        XCTAssertEqual(m[1].file, "~/bin/x")
        XCTAssertEqual(m[1].env.map { "\($0)=\($1)" }, ["A=1", "B=2"])
        XCTAssertEqual(Example.script(m[1].text), "tool due | x\n")
        XCTAssertEqual(m[2].kind, .transcript)
        let roff = """
            .Sh EXAMPLES
            .\\" example: skip (a waybar module, not a command)
            .Bd -literal -offset indent
            "exec": "x"
            .Ed
            .Pp
            .Dl jq -r '"\\e(.a)"' \\(aqx\\(aq \\-n
            .Sh SEE ALSO
            .Dl not an example
            """
        let r = Example.fromManPage(roff, source: "t.1")
        XCTAssertEqual(r.count, 2)
        XCTAssertEqual(r[0].skip, "a waybar module, not a command")
        XCTAssertEqual(r[1].text, "jq -r '\"\\(.a)\"' 'x' -n\n")
        let cron = Example.crontab("echo first\nPATH=/usr/local/bin:/usr/bin:/bin\n0 0 * * *  a -q   # note\n*/5 * * * *  b | c |\n  d\n* * * * * date +%F\n")
        XCTAssertEqual(cron?.shell, "echo first\n")
        XCTAssertEqual(cron?.entries.map(\.command), ["a -q   # note", "b | c |", "date +%F"])
        XCTAssertEqual(cron?.entries.first?.env.map { "\($0)=\($1)" }, ["PATH=/usr/local/bin:/usr/bin:/bin"])
        XCTAssertEqual(cron?.problems.count, 3, "\(cron?.problems ?? [])")
        XCTAssertNil(Example.crontab("tenclub check -q\n"))
        XCTAssertNil(Example.cronCommand("tenclub check -q"))
        XCTAssertEqual(Example.cronCommand("0 0 * * *     rewards rollover -q"), "rewards rollover -q")
    }
}
