import XCTest
import TestSupport

/// The progress meter as a person meets it: the tools run under a real
/// pseudo-terminal (util-linux's `script`), whose screen is read back; and
/// as a pipeline or cron meets it, where it never shows unless forced.
final class ProgressToolTests: ToolTestCase {
    let now = "2026-11-28T10:00:00-05:00"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["TENCLUB_NOW"] = now
        e["REWARDS_DATA_DIR"] = tmp + "/rdata"
        e["REWARDS_NOW"] = now
        e["REWARDS_USER"] = "mum"
        e["YOMO_DATA_DIR"] = tmp + "/ydata"
        e["YOMO_NOW"] = now
        e["PLAYA_DATA_DIR"] = tmp + "/pdata"
        e["PLAYA_NOW"] = now
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    /// Fifty unlocks, one line each, and optionally a bad line second.
    func unlocks(bad: Bool = false) -> String {
        var lines = (0..<50).map { #"{"at":"2026-11-2\#($0 % 7 + 1)T0\#($0 % 10):\#(10 + $0 % 50):00-05:00"}"# }
        if bad { lines.insert(#"{"at":"yesterday"}"#, at: 1) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs a shell line with a pseudo-terminal as its stdin, stdout and
    /// stderr (redirect stdout inside the line to keep it apart); returns
    /// what the terminal showed and the line's exit status.
    func onTerminal(_ line: String) throws -> (screen: String, code: Int32) {
        try require(.script)
        let cmd = write("cmd-\(UUID().uuidString).sh", line + "\n")
        let typescript = tmp + "/typescript-\(UUID().uuidString)"
        let r = sh("script -q -e -c 'bash \(cmd)' \(typescript) >/dev/null 2>&1")
        let raw = (try? String(contentsOfFile: typescript, encoding: .utf8)) ?? ""
        // script frames the session with a line before and after.
        let screen = raw.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("Script started on") && !$0.hasPrefix("Script done on") }.joined(separator: "\n")
        return (screen, r.code)
    }

    /// A producer that takes longer than the half second the meter waits
    /// for: a long run as a person at a terminal has one.
    func slowly(_ file: String) -> String { "(sleep 1.2; cat \(file))" }

    func testALongIngestOnATerminalShowsTheMeterAndClearsItAndStdoutIsTheSame() throws {
        let input = write("unlocks.ndjson", unlocks())
        let (screen, code) = try onTerminal("\(slowly(input)) | tenclub --data-dir \(tmp)/tty ingest > \(tmp)/tty.out")
        XCTAssertEqual(code, 0, screen)
        XCTAssertTrue(screen.contains("\rtenclub: reading stdin: "), "the meter is drawn in place: \(screen.debugDescription)")
        XCTAssertTrue(screen.hasSuffix("\r\u{1B}[K") || screen.hasSuffix("\r\u{1B}[K\n"), "and cleared at the end: \(screen.debugDescription)")

        // The same input through a pipe: no meter, and stdout byte for byte the same.
        let piped = sh("\(slowly(input)) | tenclub --data-dir \(tmp)/pipe ingest")
        XCTAssertEqual(piped.code, 0)
        XCTAssertEqual(piped.err, "", "never in a pipe")
        let onTTY = try String(contentsOfFile: tmp + "/tty.out", encoding: .utf8)
        XCTAssertEqual(onTTY, piped.out)
        XCTAssertEqual(onTTY.split(separator: "\n").count, 7, "a line for each of the seven days")
    }

    /// Ended by a signal (Ctrl-C, a kill) while the meter stands, the run
    /// clears its line before it ends, so no meter is left on the screen.
    func testASignalClearsTheMeterBeforeTheRunEnds() throws {
        let input = write("unlocks.ndjson", unlocks())
        // The meter is drawn once the first line arrives; the rest never comes.
        let line = "(sleep 1.2; cat \(input); sleep 3) | tenclub --data-dir \(tmp)/sig ingest > /dev/null & p=$!; "
            + "sleep 2.2; kill -TERM $p; wait"
        let (screen, _) = try onTerminal(line)
        XCTAssertTrue(screen.contains("tenclub: reading stdin: "), screen.debugDescription)
        XCTAssertTrue(screen.hasSuffix("\r\u{1B}[K") || screen.hasSuffix("\r\u{1B}[K\n"), "cleared: \(screen.debugDescription)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/sig/journal"), "nothing was written")
    }

    func testAShortIngestOnATerminalShowsNothing() throws {
        let input = write("unlocks.ndjson", unlocks())
        let (screen, code) = try onTerminal("tenclub ingest \(input) > /dev/null")
        XCTAssertEqual(code, 0)
        XCTAssertFalse(screen.contains("reading"), screen.debugDescription)
        XCTAssertEqual(screen.trimmingCharacters(in: .whitespacesAndNewlines), "")
    }

    func testQuietAndNoProgressSilenceItOnATerminal() throws {
        let input = write("unlocks.ndjson", unlocks())
        for (i, opts) in ["-q", "--no-progress", "--progress --no-progress"].enumerated() {
            let (screen, code) = try onTerminal("\(slowly(input)) | tenclub --data-dir \(tmp)/d\(i) ingest \(opts) > /dev/null")
            XCTAssertEqual(code, 0, opts)
            XCTAssertFalse(screen.contains("reading"), "\(opts): \(screen.debugDescription)")
        }
    }

    func testAWarningWhileTheMeterStandsIsALineOfItsOwn() throws {
        let input = write("unlocks.ndjson", unlocks(bad: true))
        let (screen, code) = try onTerminal("\(slowly(input)) | tenclub ingest > /dev/null")
        XCTAssertEqual(code, 65, screen)
        XCTAssertTrue(screen.contains("\r\u{1B}[Ktenclub: stdin:2: "), "the meter's line is cleared first: \(screen.debugDescription)")
    }

    func testForcedIntoAPipeItIsWholeLines() {
        let input = write("unlocks.ndjson", unlocks())
        let size = unlocks().utf8.count
        let forced = tenclub("--data-dir", tmp + "/a", "ingest", "--progress", "-q", input)
        XCTAssertEqual(forced.code, 0)
        XCTAssertGreaterThan(size, 1024)
        let kb = String(format: "%.1f", Double(size / 102) / 10)
        XCTAssertEqual(forced.err, "tenclub: reading \(input): 100% (\(kb) of \(kb) KiB)\n")
        let plain = tenclub("--data-dir", tmp + "/b", "ingest", "-q", input)
        XCTAssertEqual(plain.err, "")
        XCTAssertEqual(forced.out, plain.out)

        // rewards ingest reads its sessions the same way.
        XCTAssertEqual(run("rewards", ["init"]).code, 0)
        XCTAssertEqual(run("rewards", ["child", "add", "Alex", "--user", "alex"]).code, 0)
        XCTAssertEqual(run("rewards", ["app", "set", "Duolingo", "--learning"]).code, 0)
        let session = #"{"child":"Alex","app":"Duolingo","start":"2026-11-27T08:00:00-05:00","duration_s":600}"# + "\n"
        let r = run("rewards", ["ingest", "--progress"], stdin: session)
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.err, "rewards: reading stdin: 100% (\(session.utf8.count) of \(session.utf8.count) bytes)\n")
        XCTAssertEqual(r.records.first?["added"] as? Int, 1)
    }

    func testTheFirstVdirSyncAndAFolderOfCardsCountFiles() {
        for title in ["water the plants tomorrow 9am", "call mum friday 6pm", "pay rent on the 1st"] {
            XCTAssertEqual(run("yomo", ["add", title]).code, 0)
        }
        let vdir = tmp + "/vdir"
        let sync = run("yomo", ["vdir", "sync", vdir, "--progress"])
        XCTAssertEqual(sync.code, 0, sync.err)
        // Drawn at once when forced, at most ten times a second, and where it ended.
        XCTAssertEqual(sync.err, """
            yomo: writing \(vdir):  33% (1 of 3 files)
            yomo: writing \(vdir): 100% (3 of 3 files)
            yomo: saving \(vdir):  33% (1 of 3 files)
            yomo: saving \(vdir): 100% (3 of 3 files)

            """)
        XCTAssertEqual(sync.records.filter { $0["change"] as? String == "written" }.count, 3)
        XCTAssertEqual(run("yomo", ["vdir", "sync", vdir]).err, "", "not forced, not a terminal: nothing")

        let cards = tmp + "/cards"
        try? FileManager.default.createDirectory(atPath: cards, withIntermediateDirectories: true)
        for (i, name) in ["Ana Lima", "Bo Berg"].enumerated() {
            _ = write("cards/\(i).vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:u\(i)\r\nFN:\(name)\r\nTEL;TYPE=cell:+4477009000\(i)0\r\nEND:VCARD\r\n")
        }
        let imported = run("playa", ["recipient", "import", cards, "--progress"])
        XCTAssertEqual(imported.code, 0, imported.err)
        XCTAssertEqual(imported.err, "playa: reading \(cards):  50% (1 of 2 files)\nplaya: reading \(cards): 100% (2 of 2 files)\n")
        XCTAssertEqual(imported.records.count, 2)
    }
}
