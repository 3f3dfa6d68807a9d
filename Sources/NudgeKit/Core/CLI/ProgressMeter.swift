// The one progress meter of long work (an ingest, an import, the first vdir
// sync), as git's "Receiving objects: 45% (450/1000)" or pv: on stderr, only
// where a person watches it (stderr a terminal, no -q) and only when the
// work is long; redrawn at most ten times a second and cleared at the end,
// so stdout and what stays on the screen are the same with or without it.
// `--progress` forces it (also into a pipe or a log, one line a redraw),
// `--no-progress` silences it, as in git.

/// Where a meter is drawn, decided once from the run's settings.
public enum ProgressDisplay: Equatable, Sendable {
    /// Nothing is drawn.
    case off
    /// Redrawn in place on a terminal (carriage return), cleared at the end.
    case terminal
    /// Forced where no terminal is: a line for each redraw, none cleared.
    case lines

    /// The decision: `forced` is --progress (true) or --no-progress (false);
    /// otherwise only a terminal's stderr without -q shows it (so never in
    /// a pipe and never under cron, whose stderr is mail).
    public static func decide(stderrIsTerminal: Bool, quiet: Bool, forced: Bool?) -> ProgressDisplay {
        switch forced {
        case false?: return .off
        case true?: return stderrIsTerminal ? .terminal : .lines
        case nil: return stderrIsTerminal && !quiet ? .terminal : .off
        }
    }
}

public final class ProgressMeter {
    /// What is counted: bytes (shown in KiB or MiB) or things with a name ("files").
    public enum Unit: Equatable, Sendable {
        case bytes
        case items(String)
    }

    /// Work longer than this shows the meter; work known to be large (a
    /// total of at least `largeBytes` or `largeItems`) shows it at once.
    public static let delayNanos: UInt64 = 500_000_000
    public static let redrawNanos: UInt64 = 100_000_000
    public static let largeBytes = 16 << 20
    public static let largeItems = 2_000

    public let display: ProgressDisplay
    /// Whether the terminal takes ANSI's erase-line (not TERM=dumb, where
    /// the line is blanked with spaces instead).
    let ansi: Bool
    let prefix: String
    let unit: Unit
    public private(set) var total: Int?
    public private(set) var done = 0
    /// Counts below this are not looked at again (no clock read per item).
    private var nextLook: Int
    private let step: Int
    private let started: UInt64
    private var lastDrawn: UInt64 = 0
    private var drawn = false
    private var drawnDone = 0
    private var drawnColumns = 0
    private let width: Int
    private let write: (String) -> Void

    /// A meter for `label` ("reading export.ndjson"); `write` receives what
    /// goes to stderr (tests give their own).
    public init(tool: String, label: String, total: Int?, unit: Unit, display: ProgressDisplay,
                width: Int = 80, ansi: Bool = true, write: @escaping (String) -> Void = { _ = Sys.writeAll(fd: 2, Array($0.utf8)) }) {
        self.display = display
        self.ansi = ansi
        self.prefix = "\(tool): \(Text.terminalSafe(label)): "
        self.unit = unit
        self.total = total.map { max(0, $0) }
        // A look at the clock at each count: counts come a read or a file
        // at a time, each far dearer than the clock (a vDSO call).
        self.step = 1
        self.nextLook = display == .off ? Int.max : 0
        self.started = Sys.monotonicNanos()
        self.width = max(20, width)
        self.write = write
    }

    /// A meter that never draws.
    public static var none: ProgressMeter { ProgressMeter(tool: "", label: "", total: nil, unit: .bytes, display: .off, write: { _ in }) }

    /// Counts `n` more done.
    @inline(__always) public func add(_ n: Int = 1) {
        done &+= n
        if done >= nextLook { look() }
    }

    /// Sets the count done (bytes read so far).
    @inline(__always) public func set(_ n: Int) {
        done = n
        if done >= nextLook { look() }
    }

    /// Grows or learns the total (a second input's size, a count found).
    public func setTotal(_ n: Int?) { total = n.map { max(0, $0) } }

    private func look() {
        nextLook = done &+ step
        let now = Sys.monotonicNanos()
        guard ProgressMeter.shouldDraw(display: display, elapsed: now &- started, sinceDrawn: drawn ? now &- lastDrawn : nil,
                                  total: total, unit: unit) else { return }
        lastDrawn = now
        drawn = true
        drawnDone = done
        let line = ProgressMeter.line(prefix: prefix, done: done, total: total, unit: unit, width: width)
        if display == .terminal {
            let cols = Text.columns(line)
            // Without erase-line, spaces over what the last drawing left.
            write("\r" + line + (ansi ? "\u{1B}[K" : String(repeating: " ", count: max(0, drawnColumns - cols))))
            drawnColumns = max(drawnColumns, cols)
            let clear = clearing
            Diagnostics.meterShown.withLock { $0 = clear }
            ProgressMeter.clearOnSignal(clear)
        } else {
            write(line + "\n")
        }
    }

    /// Whether to draw now: never when off; at most every tenth of a second;
    /// the first time once the work has run half a second, or at once when
    /// it was forced or is known to be large.
    public static func shouldDraw(display: ProgressDisplay, elapsed: UInt64, sinceDrawn: UInt64?,
                                  total: Int?, unit: Unit) -> Bool {
        if display == .off { return false }
        if let since = sinceDrawn { return since >= redrawNanos }
        if display == .lines || elapsed >= delayNanos { return true }
        guard let t = total else { return false }
        return unit == .bytes ? t >= largeBytes : t >= largeItems
    }

    /// The meter's text: "tenclub: reading x.ndjson: 45% (4.5 of 10.0 MiB)",
    /// "yomo: writing the vdir: 45% (450 of 1,000 files)", "… 4.5 MiB" when
    /// the total is not known; cut to `width` so that it never wraps.
    public static func line(prefix: String, done: Int, total: Int?, unit: Unit, width: Int) -> String {
        var s = ""
        switch (unit, total) {
        case (.bytes, let t?):
            s += "\(percent(done, t)) (\(size(done, scale: t, unit: false)) of \(size(t, scale: t, unit: true)))"
        case (.bytes, nil):
            s += size(done, scale: done, unit: true)
        case (.items(let noun), let t?):
            s += "\(percent(done, t)) (\(grouped(done)) of \(grouped(t)) \(noun))"
        case (.items(let noun), nil):
            s += "\(grouped(done)) \(noun)"
        }
        // The count always shows: where the line is too long, the label
        // gives way (with an ellipsis), then the rest is cut.
        let limit = max(1, width - 1)
        if Text.columns(prefix + s) <= limit { return prefix + s }
        let room = limit - Text.columns(s) - 2
        if prefix.hasSuffix(": "), room >= 8 { return Text.fitted(String(prefix.dropLast(2)), columns: room) + ": " + s }
        return Text.prefix(s, columns: limit)
    }

    static func percent(_ done: Int, _ total: Int) -> String {
        let p = total <= 0 ? 100 : min(100, Int(Double(max(0, done)) * 100 / Double(total)))
        let text = String(p)
        return String(repeating: " ", count: max(0, 3 - text.count)) + text + "%"
    }

    /// A size in the unit `scale` calls for: bytes under a KiB, then
    /// tenths of a KiB or MiB: "512 bytes", "4.5 KiB", "16.6 MiB".
    static func size(_ n: Int, scale: Int, unit: Bool) -> String {
        let n = max(0, n)
        if scale < 1024 { return unit ? "\(grouped(n)) bytes" : grouped(n) }
        let (div, name) = scale < 1 << 20 ? (1024, "KiB") : (1 << 20, "MiB")
        let tenths = n / (div / 10)
        return "\(grouped(tenths / 10)).\(tenths % 10)" + (unit ? " " + name : "")
    }

    /// 1234567 → "1,234,567".
    static func grouped(_ n: Int) -> String {
        let digits = Array(String(max(0, n)))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }

    /// What clears the line the meter stands on.
    var clearing: String { ansi ? "\r\u{1B}[K" : "\r" + String(repeating: " ", count: drawnColumns) + "\r" }

    /// Clears the meter (a terminal's line) at the end of the work, or, forced
    /// into a pipe, writes the count it ended at; safe to call more than
    /// once, and when nothing was drawn.
    public func finish() {
        if drawn && display == .terminal { write(clearing); ProgressMeter.clearOnSignal(nil) }
        // Where the lines stay (a log), the last of them says where it ended.
        if drawn && display == .lines && drawnDone != done {
            write(ProgressMeter.line(prefix: prefix, done: done, total: total, unit: unit, width: width) + "\n")
        }
        if drawn { Diagnostics.meterShown.withLock { $0 = nil } }
        drawn = false
        nextLook = Int.max
    }

    deinit {
        if drawn && display == .terminal {
            write(clearing)
            ProgressMeter.clearOnSignal(nil)
            Diagnostics.meterShown.withLock { $0 = nil }
        }
    }

    /// While a meter stands on a terminal, a signal that ends the run
    /// (Ctrl-C, a kill, a hang-up) clears its line first, then ends the run
    /// as that signal would: with erase-line, or (TERM=dumb) with spaces.
    /// No state: the handler is the one that clears as this terminal needs,
    /// and the default action comes back when the meter is gone.
    static func clearOnSignal(_ text: String?) {
        let ansi: @convention(c) (Int32) -> Void = { sig in
            _ = Glibc.write(2, "\r\u{1B}[K", 4)
            signal(sig, SIG_DFL)
            raise(sig)
        }
        let dumb: @convention(c) (Int32) -> Void = { sig in
            _ = Glibc.write(2, "\r                                                                               \r", 81)
            signal(sig, SIG_DFL)
            raise(sig)
        }
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(sig, text == nil ? SIG_DFL : text!.contains("\u{1B}") ? ansi : dumb)
        }
    }
}

extension Context {
    /// The meter for a long piece of this command's work: drawn only where
    /// the run's settings allow (ProgressDisplay.decide: --progress and
    /// --no-progress where the command declares them, ToolSpec.progressOptions),
    /// in the width of the terminal. Call `finish()` before writing results.
    public func progress(_ label: String, total: Int? = nil, unit: ProgressMeter.Unit = .bytes) -> ProgressMeter {
        let forced: Bool? = flagIfDeclared("no-progress") ? false : flagIfDeclared("progress") ? true : nil
        let display = ProgressDisplay.decide(stderrIsTerminal: Sys.isTerminal(2), quiet: out.quiet, forced: forced)
        if display == .off { return .none }
        // Cut to the terminal's width (a wrapped line cannot be drawn over); whole in a log.
        let columns = Sys.terminalColumns(2)
        if display == .terminal, let c = columns, c < 20 { return .none }  // no room for a meter
        let width = display == .terminal ? columns ?? 80 : Int.max
        return ProgressMeter(tool: tool, label: label, total: total, unit: unit, display: display, width: width,
                             ansi: Sys.env("TERM") != "dumb")
    }
}
