// The shell every executable shares: parse the call, resolve global options
// (flag, then environment, then default), run the command, print, map errors
// to exit statuses. Executables only supply a ToolSpec, whose commands carry
// their handlers.
public let familyVersion = "0.1.0"

public enum OutputFormat: String, Sendable { case json, text }

/// The one clock: a pinned or real instant, and the local zone from `TZ`.
public struct Clock: Sendable {
    public var now: Instant
    public var zone: Zone
    public init(now: Instant, zone: Zone) {
        self.now = now
        self.zone = zone
    }
    public var today: Day { zone.day(of: now) }
    public func format(_ t: Instant) -> String { zone.format(t) }

    public static let timeHint = "a time like 2026-11-22T08:15:00-05:00 or '2026-11-22 08:15'"

    /// Parses a user-supplied time: RFC 3339 with an offset, or a local
    /// `YYYY-MM-DD[ HH:MM[:SS]]` / `YYYY-MM-DDTHH:MM[:SS]` in `zone`, or `@SECONDS`.
    public static func parseTime(_ s: String, zone: Zone) -> Instant? {
        let t = s.trimmingSpaces
        if t.hasPrefix("@"), let secs = Int64(t.dropFirst()) { return Instant(seconds: secs) }
        if let d = Day.parse(t) { return zone.resolve(LocalDateTime(day: d, time: TimeOfDay(hour: 0, minute: 0))) }
        guard let p = RFC3339.parse(t, allowLocal: true) else { return nil }
        if p.offsetSeconds != nil { return p.instant }
        let fraction = p.instant.ms - p.local.wallSeconds * 1000
        return Instant(ms: zone.resolve(p.local).ms + fraction)
    }
}

/// Where records and text go. NDJSON when stdout is not a terminal.
public final class Output {
    public let format: OutputFormat
    public let quiet: Bool
    public let color: Bool
    private var buffer: [UInt8] = []
    private let fd: Int32

    public init(format: OutputFormat, quiet: Bool, color: Bool, fd: Int32 = 1) {
        self.format = format
        self.quiet = quiet
        self.color = color
        self.fd = fd
        buffer.reserveCapacity(1 << 16)
    }

    public var isJSON: Bool { format == .json }

    /// A record: one NDJSON line in json format, `text` in text format.
    public func emit(_ record: JSONObject, text: @autoclosure () -> String?) {
        if quiet { return }
        if format == .json {
            record.write(into: &buffer)
            buffer.append(0x0A)
        } else if let t = text() {
            buffer.append(contentsOf: Array(t.utf8))
            if !t.hasSuffix("\n") { buffer.append(0x0A) }
        }
        if buffer.count >= 1 << 16 { flush() }
    }

    public func record(_ record: JSONObject) { emit(record, text: record.serialized) }

    /// An already serialised record (JSON output only), with its newline added.
    public func rawRecord(_ bytes: Bytes) {
        if quiet || format != .json { return }
        bytes.withUnsafeBytes { buffer.append(contentsOf: $0) }
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Raw text, whatever the format (widgets, completion scripts, help).
    public func raw(_ s: String) {
        if quiet { return }
        buffer.append(contentsOf: Array(s.utf8))
        if buffer.count >= 1 << 16 { flush() }
    }

    public func rawForced(_ s: String) {
        buffer.append(contentsOf: Array(s.utf8))
        if buffer.count >= 1 << 16 { flush() }
    }

    /// ANSI styling, only on a terminal without NO_COLOR.
    public func style(_ s: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }

    public func flush() {
        if buffer.isEmpty { return }
        if !Sys.writeAll(fd: fd, buffer) {
            // A closed pipe (`| head -1`) ends the program quietly.
            if errno == EPIPE { exit(0) }
            Diagnostics.error("cannot write output: \(Sys.errnoString())")
            exit(ExitCode.ioError.rawValue)
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

public enum Diagnostics {
    nonisolated(unsafe) static var tool = "nudge"
    /// `TOOL: message` on stderr.
    public static func error(_ message: String) {
        _ = Sys.writeAll(fd: 2, Array("\(tool): \(message)\n".utf8))
    }
}

/// Everything a command needs from the outside world, resolved once.
public final class Context {
    public let spec: ToolSpec
    public let invocation: Invocation
    public let out: Output
    public let clock: Clock
    public let dataDir: String
    public let configDir: String
    /// Whether --now (or TOOL_NOW) pinned the clock.
    public let pinned: Bool
    /// TOOL_LOCK_TIMEOUT, checked once; nil: the store's default.
    public let lockTimeoutMillis: Int?

    public init(spec: ToolSpec, invocation: Invocation, out: Output, clock: Clock, dataDir: String,
                configDir: String, pinned: Bool, lockTimeoutMillis: Int? = nil) {
        self.spec = spec
        self.invocation = invocation
        self.out = out
        self.clock = clock
        self.dataDir = dataDir
        self.configDir = configDir
        self.pinned = pinned
        self.lockTimeoutMillis = lockTimeoutMillis
    }

    private var memos: [String: Any] = [:]

    /// A value computed once per run (a command's constants on hot paths).
    public func memo<T>(_ key: String, _ make: () -> T) -> T {
        if let v = memos[key] as? T { return v }
        let v = make()
        memos[key] = v
        return v
    }

    public var tool: String { spec.name }
    public var now: Instant { clock.now }
    public var zone: Zone { clock.zone }
    public var today: Day { clock.today }
    public func option(_ long: String) -> String? { invocation.value(long) }
    public func flag(_ long: String) -> Bool { invocation.flag(long) }
    public var operands: [String] { invocation.operands }

    /// Reports a problem on stderr without ending the command.
    public func warn(_ message: String) { Diagnostics.error(message) }

    /// Parses a time option (`--at`, `--now`) in the local zone.
    public func time(_ s: String, option: String) throws(ToolError) -> Instant {
        guard let t = Clock.parseTime(s, zone: zone) else {
            throw ToolError(.usage, "\(option) must be \(Clock.timeHint), not '\(s)'")
        }
        return t
    }

    public func day(_ s: String, option: String) throws(ToolError) -> Day {
        if s == "today" { return today }
        if s == "yesterday" { return today.adding(days: -1) }
        guard let d = Day.parse(s) else {
            throw ToolError(.usage, "\(option) must be a day like 2026-11-22 (or today, yesterday), not '\(s)'")
        }
        return d
    }

    public func int(_ s: String, option: String, range: ClosedRange<Int>) throws(ToolError) -> Int {
        guard let n = Int(s), range.contains(n) else {
            throw ToolError(.usage, "\(option) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(s)'")
        }
        return n
    }
}

public enum Runner {
    /// Resolves the data folder: --data-dir, TOOL_DATA_DIR, $XDG_DATA_HOME/TOOL,
    /// ~/.local/share/TOOL.
    public static func dataDirectory(tool: String, option: String?) -> String {
        if let d = option, !d.isEmpty { return d }
        if let d = Sys.env(tool.uppercased() + "_DATA_DIR"), !d.isEmpty { return d }
        if let x = Sys.env("XDG_DATA_HOME"), x.hasPrefix("/") { return Sys.join(x, tool) }
        return Sys.join(Sys.homeDirectory(), ".local/share/" + tool)
    }

    public static func configDirectory(tool: String) -> String {
        if let x = Sys.env("XDG_CONFIG_HOME"), x.hasPrefix("/") { return Sys.join(x, tool) }
        return Sys.join(Sys.homeDirectory(), ".config/" + tool)
    }

    /// Builds the context from an invocation and the environment.
    public static func context(spec: ToolSpec, invocation inv: Invocation, stdoutIsTerminal: Bool) throws(ToolError) -> Context {
        let p = spec.envPrefix
        let zone = try Zone.fromEnvironment()
        var now = Instant(ms: Sys.nowMillis())
        var pinned = false
        if let raw = inv.value("now") ?? Sys.env(p + "_NOW").flatMap({ $0.isEmpty ? nil : $0 }) {
            guard let t = Clock.parseTime(raw, zone: zone) else {
                throw ToolError(.usage, "--now must be \(Clock.timeHint), not '\(raw)'")
            }
            now = t
            pinned = true
        }
        var format: OutputFormat = stdoutIsTerminal ? .text : .json
        if let f = inv.value("format") ?? Sys.env(p + "_FORMAT").flatMap({ $0.isEmpty ? nil : $0 }) {
            if let ff = OutputFormat(rawValue: f) {
                format = ff
            } else if spec.command(inv.command)?.options.contains(where: { $0.long == "format" && $0.choices.contains(f) }) != true {
                // A command may take formats of its own (report --format csv).
                throw ToolError(.usage, "--format must be json or text, not '\(f)'")
            }
        }
        let lockTimeout = try Config.lockTimeoutMillis(tool: spec.name)
        let envQuiet = Sys.env(p + "_QUIET").map { !$0.isEmpty && $0 != "0" } ?? false
        let quiet = inv.flag("quiet") || envQuiet
        let color = stdoutIsTerminal && format == .text && (Sys.env("NO_COLOR") ?? "").isEmpty
            && Sys.env("TERM") != "dumb"
        return Context(spec: spec, invocation: inv, out: Output(format: format, quiet: quiet, color: color),
                       clock: Clock(now: now, zone: zone), dataDir: dataDirectory(tool: spec.name, option: inv.value("data-dir")),
                       configDir: configDirectory(tool: spec.name), pinned: pinned, lockTimeoutMillis: lockTimeout)
    }

    public typealias Handler = @Sendable (Context) throws(ToolError) -> ExitCode

    /// The whole life of a tool process.
    public static func main(spec: ToolSpec) -> Never {
        signal(SIGPIPE, SIG_IGN)
        Diagnostics.tool = spec.name
        let args = Array(CommandLine.arguments.dropFirst())
        let code = run(spec: spec, args: args)
        exit(code.rawValue)
    }

    public static func run(spec: ToolSpec, args: [String]) -> ExitCode {
        let plainOut = Output(format: .text, quiet: false, color: false)
        var ctx: Context? = nil
        defer { ctx?.out.flush() }
        do throws(ToolError) {
            var inv = try spec.parse(args)
            if inv.wantsVersion {
                plainOut.raw("\(spec.name) \(spec.version)\n")
                plainOut.flush()
                return .ok
            }
            if inv.wantsHelp || inv.command == ["help"] {
                let topic = inv.command == ["help"] ? inv.operands : inv.command
                plainOut.raw(topic.isEmpty ? spec.helpText : try spec.helpText(for: topic))
                plainOut.flush()
                return .ok
            }
            if inv.command == ["completion"] {
                plainOut.raw(try spec.completionScript(inv.operands[0]))
                plainOut.flush()
                return .ok
            }
            if inv.command.isEmpty {
                guard let d = spec.defaultCommand else {
                    _ = Sys.writeAll(fd: 2, Array(spec.helpText.utf8))
                    return .usage
                }
                inv.command = d
            }
            guard let h = spec.command(inv.command)?.run else {
                // The parser lets only runnable commands through: this is a bug.
                throw ToolError(.software, "internal error: '\(inv.commandName)' has no handler")
            }
            let c = try context(spec: spec, invocation: inv, stdoutIsTerminal: Sys.isTerminal(1))
            ctx = c
            return try h(c)
        } catch {
            ctx?.out.flush()
            Diagnostics.error(error.message)
            return error.code
        }
    }
}
