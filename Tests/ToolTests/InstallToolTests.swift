import XCTest
import TestSupport
import NudgeKit

/// `make install` as a user or a packager runs it: into a staging DESTDIR
/// under a PREFIX, then each tool run with nothing but that bin folder on
/// PATH (`env -i`), each man page rendered from where it was installed, and
/// each completion loaded by bash, zsh and fish from the folder each looks
/// in. The install takes the suite's own debug build (`BUILD_DIR`, with
/// `SWIFT=false` so that nothing is built: a release build takes minutes),
/// so what is tested is the install step itself; `make` is the release
/// build with the Swift runtime linked in.
final class InstallToolTests: ToolTestCase {
    static let tools = toolSpecs.map(\.name)

    /// `make install` (or `uninstall`) into `stage`, from the built products.
    func make(_ target: String, stage: String, prefix: String = "/usr/local", _ extra: [String] = []) -> ProgramResult {
        runProgram(command("make"), ["-s", "-C", ToolTestCase.packageRoot, target, "DESTDIR=" + stage, "PREFIX=" + prefix,
                                     "BUILD_DIR=" + ToolTestCase.productsDirectory.path, "SWIFT=false"] + extra,
                   env: ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": tmp, "LANG": "C.UTF-8"], timeout: 300)
    }

    func q(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
    }

    func size(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }

    func files(under dir: String) -> [String] {
        (FileManager.default.enumerator(atPath: dir)?.compactMap { $0 as? String } ?? [])
            .filter { !Sys.isDirectory(dir + "/" + $0) }.sorted()
    }

    func testMakeInstallPutsEveryFileWhereShellsAndManLookAndUninstallTakesThemBack() throws {
        try require(.make)
        let stage = tmp + "/stage", root = stage + "/usr/local"
        let r = make("install", stage: stage)
        XCTAssertEqual(r.status, 0, "make install \(r.summary): \(r.err)")
        var expected: [String] = []
        for t in Self.tools {
            expected += ["bin/\(t)", "share/man/man1/\(t).1", "share/bash-completion/completions/\(t)",
                         "share/zsh/site-functions/_\(t)", "share/fish/vendor_completions.d/\(t).fish"]
        }
        expected.append("lib/systemd/user/tenclub-watch.service")
        XCTAssertEqual(files(under: root), expected.sorted())
        // The unit systemd starts tenclub watch with: the installed path, restarted when the bus comes back.
        let unit = try String(contentsOfFile: root + "/lib/systemd/user/tenclub-watch.service", encoding: .utf8)
        XCTAssertTrue(unit.contains("\nExecStart=/usr/local/bin/tenclub watch -q\nRestart=on-failure\n"), unit)
        XCTAssertEqual(mode(root + "/lib/systemd/user/tenclub-watch.service"), 0o644)
        XCTAssertEqual(files(under: stage), expected.map { "usr/local/" + $0 }.sorted(), "everything lands under DESTDIR/PREFIX")
        for t in Self.tools {
            let bin = root + "/bin/" + t
            XCTAssertEqual(mode(bin), 0o755, bin)
            XCTAssertEqual(mode(root + "/share/man/man1/\(t).1"), 0o644)
            // Stripped: no symbol table left.
            let built = try XCTUnwrap(size(ToolTestCase.productsDirectory.path + "/" + t))
            XCTAssertLessThan(try XCTUnwrap(size(bin)), built, "\(bin) is not stripped")
            XCTAssertEqual(try String(contentsOfFile: root + "/share/man/man1/\(t).1", encoding: .utf8),
                           try String(contentsOfFile: ToolTestCase.packageRoot + "/man/\(t).1", encoding: .utf8))
        }
        // One file under five names (each tool holds all five, and acts as
        // the one it is called by).
        let inodes = Set(Self.tools.map { (try? FileManager.default.attributesOfItem(atPath: root + "/bin/" + $0))?[.systemFileNumber] as? Int })
        XCTAssertEqual(inodes.count, 1, "the five names are not one file: \(inodes)")
        let u = make("uninstall", stage: stage)
        XCTAssertEqual(u.status, 0, "make uninstall \(u.summary): \(u.err)")
        XCTAssertEqual(files(under: stage), [], "uninstall leaves files behind")
    }

    /// Each installed tool runs with an empty environment and only the
    /// installed bin folder on PATH, as from a crontab line with a full PATH.
    func testEachInstalledToolRunsWithOnlyItsBinFolderOnPath() throws {
        try require(.make)
        let stage = tmp + "/stage", bin = stage + "/usr/local/bin"
        let r = make("install", stage: stage)
        XCTAssertEqual(r.status, 0, "make install \(r.summary): \(r.err)")
        for t in Self.tools {
            let v = runProgram("/usr/bin/env", ["-i", "PATH=" + bin, t, "--version"])
            XCTAssertEqual(v.status, 0, "env -i PATH=\(bin) \(t) --version \(v.summary): \(v.err)")
            XCTAssertEqual(v.out, "\(t) \(familyVersion)\n")
            let h = runProgram("/usr/bin/env", ["-i", "PATH=" + bin, t, "help"])
            XCTAssertEqual(h.status, 0, "\(t) help \(h.summary): \(h.err)")
            XCTAssertTrue(h.out.contains("Usage: \(t)") || h.out.contains("\(t) "), h.out)
            // And a command that opens the store.
            let data = tmp + "/data-" + t
            let d = runProgram("/usr/bin/env", ["-i", "PATH=" + bin, t, "--data-dir", data, "--now", "2026-11-22T20:30:00Z", "--format", "json"])
            XCTAssertEqual(d.status, 0, "env -i \(t) --data-dir … \(d.summary): \(d.err)")
        }
    }

    /// The installed pages render (mandoc reads them as `man -l` does), and
    /// each completion loads in its shell from the folder it was installed to.
    func testInstalledManPagesRenderAndCompletionsLoadInEachShell() throws {
        try require(.make, .mandoc, .zsh, .fish)
        let stage = tmp + "/stage", share = stage + "/usr/local/share", home = tmp + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let r = make("install", stage: stage)
        XCTAssertEqual(r.status, 0, "make install \(r.summary): \(r.err)")
        let env = ["PATH": stage + "/usr/local/bin:/usr/bin:/bin", "HOME": home, "XDG_CONFIG_HOME": home,
                   "XDG_DATA_HOME": home, "XDG_CACHE_HOME": home, "LANG": "C.UTF-8"]
        for t in Self.tools {
            let page = runProgram(command("mandoc"), ["-l", "-Tutf8", "-W", "warning", share + "/man/man1/\(t).1"])
            XCTAssertEqual(page.status, 0, "mandoc -l \(t).1 \(page.summary): \(page.err)")
            XCTAssertTrue(page.out.contains("\(t.uppercased())(1)"), "\(t).1 renders without its title")
            XCTAssertEqual(page.err, "")

            // bash: the file bash-completion would load for the command name.
            let bash = runProgram("/bin/bash", ["--norc", "--noprofile", "-c",
                """
                source \(q(share + "/bash-completion/completions/" + t)) || exit 9
                COMP_WORDS=(\(t) ''); COMP_CWORD=1; COMPREPLY=(); _\(t)
                printf '%s\\n' "${COMPREPLY[@]}"
                """], env: env)
            XCTAssertEqual(bash.status, 0, "bash: \(bash.err)")
            XCTAssertTrue(bash.out.split(separator: "\n").contains("help"), "bash completes no commands for \(t): \(bash.out)")

            // zsh: compinit finds _TOOL on fpath and binds it to the command.
            let zsh = runProgram(command("zsh"), ["-f", "-c",
                """
                fpath=(\(q(share + "/zsh/site-functions")) $fpath)
                autoload -Uz compinit && compinit -u -D || exit 9
                print -r -- "$_comps[\(t)]"
                """], env: env)
            XCTAssertEqual(zsh.status, 0, "zsh: \(zsh.err)")
            XCTAssertEqual(zsh.out, "_\(t)\n", "zsh does not bind _\(t): \(zsh.err)")

            // fish: vendor_completions.d on its completion path.
            let fish = runProgram(command("fish"), ["--no-config", "-c",
                """
                set -p fish_complete_path \(q(share + "/fish/vendor_completions.d"))
                complete -C '\(t) '
                """], env: env)
            XCTAssertEqual(fish.status, 0, "fish: \(fish.err)")
            XCTAssertTrue(fish.out.split(separator: "\n").contains { $0.hasPrefix("help") }, "fish completes no commands for \(t): \(fish.out)")
        }
    }
}
