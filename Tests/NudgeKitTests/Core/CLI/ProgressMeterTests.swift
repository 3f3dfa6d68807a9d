import XCTest
@testable import NudgeKit

/// The progress meter's decisions (where, when) and its text, without a
/// terminal: ProgressToolTests runs the tools under a real pseudo-terminal.
final class ProgressMeterTests: XCTestCase {
    func testWhereItIsDrawn() {
        // A person at a terminal sees it; a pipe, cron (stderr is mail) and -q do not.
        XCTAssertEqual(ProgressDisplay.decide(stderrIsTerminal: true, quiet: false, forced: nil), .terminal)
        XCTAssertEqual(ProgressDisplay.decide(stderrIsTerminal: false, quiet: false, forced: nil), .off)
        XCTAssertEqual(ProgressDisplay.decide(stderrIsTerminal: true, quiet: true, forced: nil), .off)
        // --progress forces it, also with -q; into a pipe one line a redraw.
        XCTAssertEqual(ProgressDisplay.decide(stderrIsTerminal: false, quiet: false, forced: true), .lines)
        XCTAssertEqual(ProgressDisplay.decide(stderrIsTerminal: true, quiet: true, forced: true), .terminal)
        XCTAssertEqual(ProgressDisplay.decide(stderrIsTerminal: false, quiet: true, forced: true), .lines)
        // --no-progress silences it anywhere.
        XCTAssertEqual(ProgressDisplay.decide(stderrIsTerminal: true, quiet: false, forced: false), .off)
    }

    func testWhenItIsDrawn() {
        let half = ProgressMeter.delayNanos, tenth = ProgressMeter.redrawNanos
        func draw(_ d: ProgressDisplay, elapsed: UInt64, since: UInt64? = nil, total: Int? = nil, unit: ProgressMeter.Unit = .bytes) -> Bool {
            ProgressMeter.shouldDraw(display: d, elapsed: elapsed, sinceDrawn: since, total: total, unit: unit)
        }
        // Short work shows nothing; long work shows it after half a second.
        XCTAssertFalse(draw(.terminal, elapsed: half - 1))
        XCTAssertTrue(draw(.terminal, elapsed: half))
        // Work known to be large shows it at once, by bytes and by items.
        XCTAssertFalse(draw(.terminal, elapsed: 0, total: ProgressMeter.largeBytes - 1))
        XCTAssertTrue(draw(.terminal, elapsed: 0, total: ProgressMeter.largeBytes))
        XCTAssertFalse(draw(.terminal, elapsed: 0, total: ProgressMeter.largeItems - 1, unit: .items("files")))
        XCTAssertTrue(draw(.terminal, elapsed: 0, total: ProgressMeter.largeItems, unit: .items("files")))
        // At most ten times a second once drawn.
        XCTAssertFalse(draw(.terminal, elapsed: 5 * half, since: tenth - 1))
        XCTAssertTrue(draw(.terminal, elapsed: 5 * half, since: tenth))
        // Forced into a pipe: at once, then at most ten a second too.
        XCTAssertTrue(draw(.lines, elapsed: 0))
        XCTAssertFalse(draw(.lines, elapsed: 0, since: 1))
        // Off is off, however long or large.
        XCTAssertFalse(draw(.off, elapsed: 100 * half, total: Int.max))
    }

    func testItsText() {
        let p = "tenclub: reading x.ndjson: "
        XCTAssertEqual(ProgressMeter.line(prefix: p, done: 4_718_592, total: 10 << 20, unit: .bytes, width: 80),
                       "tenclub: reading x.ndjson:  45% (4.5 of 10.0 MiB)")
        XCTAssertEqual(ProgressMeter.line(prefix: p, done: 0, total: 300, unit: .bytes, width: 80),
                       "tenclub: reading x.ndjson:   0% (0 of 300 bytes)")
        XCTAssertEqual(ProgressMeter.line(prefix: p, done: 3 << 10, total: 6 << 10, unit: .bytes, width: 80),
                       "tenclub: reading x.ndjson:  50% (3.0 of 6.0 KiB)")
        XCTAssertEqual(ProgressMeter.line(prefix: p, done: 1_572_864, total: nil, unit: .bytes, width: 80),
                       "tenclub: reading x.ndjson: 1.5 MiB")
        XCTAssertEqual(ProgressMeter.line(prefix: "yomo: writing v: ", done: 4_500, total: 10_000, unit: .items("files"), width: 80),
                       "yomo: writing v:  45% (4,500 of 10,000 files)")
        XCTAssertEqual(ProgressMeter.line(prefix: "playa: reading d: ", done: 1_234_567, total: nil, unit: .items("files"), width: 80),
                       "playa: reading d: 1,234,567 files")
        // Done past the total (a file that grew) stays at 100%; an empty total is done.
        XCTAssertEqual(ProgressMeter.line(prefix: "", done: 20, total: 10, unit: .items("files"), width: 80), "100% (20 of 10 files)")
        XCTAssertEqual(ProgressMeter.line(prefix: "", done: 0, total: 0, unit: .items("files"), width: 80), "100% (0 of 0 files)")
        // Never as wide as the terminal: a line that wraps cannot be redrawn in place.
        let long = ProgressMeter.line(prefix: "yomo: writing /" + String(repeating: "d", count: 100) + ": ", done: 1, total: 2,
                                 unit: .items("files"), width: 40)
        XCTAssertEqual(long.count, 39)
    }

    /// Cut by terminal columns, the label giving way first: a wide (CJK)
    /// name never wraps the line, and the count always shows.
    func testTheCountAlwaysShowsAndWideNamesDoNotWrap() {
        let cjk = "tenclub: reading " + String(repeating: "日本語", count: 20) + ".ndjson: "
        let l = ProgressMeter.line(prefix: cjk, done: 1 << 20, total: 2 << 20, unit: .bytes, width: 40)
        XCTAssertLessThanOrEqual(Text.columns(l), 39, l)
        XCTAssertTrue(l.hasSuffix(":  50% (1.0 of 2.0 MiB)"), l)
        XCTAssertTrue(l.contains("…"), "the cut is shown")
        XCTAssertEqual(Text.columns("日本"), 4)
        XCTAssertEqual(Text.columns("e\u{301}"), 1, "a combining mark takes no column")
        XCTAssertEqual(Text.fitted("日本語", columns: 5), "日本…")
        XCTAssertEqual(Text.fitted("abc", columns: 3), "abc")
    }

    /// On a terminal without erase-line (TERM=dumb) the meter blanks with
    /// spaces what a longer drawing left.
    func testADumbTerminalIsClearedWithSpaces() {
        var drawn: [String] = []
        let m = ProgressMeter(tool: "t", label: "r", total: 2_000_000, unit: .items("files"), display: .terminal, ansi: false,
                              write: { drawn.append($0) })
        m.add(1_999_999)
        m.finish()
        XCTAssertEqual(drawn.count, 2)
        XCTAssertFalse(drawn.joined().contains("\u{1B}"), "no escape sequence")
        let width = Text.columns("t: r:  99% (1,999,999 of 2,000,000 files)")
        XCTAssertEqual(drawn[1], "\r" + String(repeating: " ", count: width) + "\r")
    }

    func testItDrawsInPlaceAndClearsWhatItDrew() {
        var drawn: [String] = []
        let m = ProgressMeter(tool: "t", label: "reading", total: ProgressMeter.largeItems, unit: .items("files"), display: .terminal,
                         write: { drawn.append($0) })
        m.add()
        XCTAssertEqual(drawn, ["\r" + "t: reading:   0% (1 of 2,000 files)" + "\u{1B}[K"])
        // Within a tenth of a second nothing is drawn again, however much is done.
        for _ in 0..<500 { m.add() }
        XCTAssertEqual(drawn.count, 1)
        m.finish()
        XCTAssertEqual(drawn.last, "\r\u{1B}[K")
        m.finish()
        XCTAssertEqual(drawn.count, 2, "a second finish clears nothing more")
        m.add()
        XCTAssertEqual(drawn.count, 2, "nothing is drawn after the end")

        // A meter that was never drawn clears nothing.
        var none: [String] = []
        let quiet = ProgressMeter(tool: "t", label: "x", total: 10, unit: .items("files"), display: .terminal, write: { none.append($0) })
        quiet.add(3)
        quiet.finish()
        XCTAssertEqual(none, [])

        // Forced into a pipe: whole lines, nothing to clear.
        var lines: [String] = []
        let piped = ProgressMeter(tool: "t", label: "x", total: 10, unit: .items("files"), display: .lines, write: { lines.append($0) })
        piped.add(3)
        piped.add(4)
        piped.finish()
        XCTAssertEqual(lines, ["t: x:  30% (3 of 10 files)\n", "t: x:  70% (7 of 10 files)\n"], "and the last says where it ended")
        piped.finish()
        XCTAssertEqual(lines.count, 2)
    }

    func testALabelFromInputIsShownTerminalSafe() {
        var drawn: [String] = []
        let m = ProgressMeter(tool: "t", label: "reading a\u{1B}]0;owned\u{07}b", total: nil, unit: .bytes, display: .lines,
                         write: { drawn.append($0) })
        m.add(1)
        XCTAssertEqual(drawn.count, 1)
        XCTAssertFalse(drawn[0].unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, drawn[0])
    }
}
