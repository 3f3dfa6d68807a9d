// The shell every executable shares: parse the call, resolve global options
// (flag, then environment, then default), run the command, print, map errors
// to exit statuses. Executables only supply a ToolSpec, whose commands carry
// their handlers.
public let familyVersion = "0.1.0"

public enum OutputFormat: String, Sendable { case json, text }

/// Where records and text go. NDJSON when stdout is not a terminal.
public final class Output {
    public let format: OutputFormat
    public let quiet: Bool
    public let color: Bool
    /// At most this many records (a listing's `-n/--limit`); nil for all.
    public var limit: Int? = nil
    private var emitted = 0
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
        emit(writing: { record.write(into: &$0) }, text: text())
    }

    /// A record its caller writes (its JSON, without the newline) in json
    /// format, `text` in text format: many records of one shape are written
    /// as bytes, without an object built for each.
    public func emit(writing record: (inout [UInt8]) -> Void, text: @autoclosure () -> String?) {
        if quiet || !take() { return }
        if format == .json {
            record(&buffer)
            buffer.append(0x0A)
        } else if let t = text() {
            buffer.append(contentsOf: Array(t.utf8))
            if !t.hasSuffix("\n") { buffer.append(0x0A) }
        }
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Whether one more record fits under the limit (and counts it).
    private func take() -> Bool {
        guard let l = limit else { return true }
        if emitted >= l { return false }
        emitted += 1
        return true
    }

    /// A record with no layout of its own: in text format its JSON line,
    /// terminal-safe.
    public func record(_ record: JSONObject) { emit(record, text: Text.terminalSafe(record.serialized)) }

    /// An already serialised record (JSON output only), with its newline added.
    public func rawRecord(_ bytes: Bytes) {
        if quiet || format != .json || !take() { return }
        bytes.withUnsafeBytes { buffer.append(contentsOf: $0) }
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Already serialised records (JSON output only), each a range of
    /// `base` followed by a newline, written from where they lie (a mapped
    /// snapshot) with writev: no copy through the buffer.
    public func rawRecords(_ base: UnsafeRawPointer, _ all: [Range<Int>]) {
        if quiet || format != .json || all.isEmpty { return }
        var ranges = all
        if let l = limit {
            ranges = Array(all.prefix(max(0, l - emitted)))
            emitted += ranges.count
            if ranges.isEmpty { return }
        }
        flush()
        let newline = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
        defer { newline.deallocate() }
        newline.storeBytes(of: 0x0A, as: UInt8.self)
        var iov = [iovec](repeating: iovec(), count: 1024)
        var k = 0
        while k < ranges.count {
            let m = min(iov.count / 2, ranges.count - k)
            var want = 0
            for j in 0..<m {
                let r = ranges[k + j]
                iov[2 * j] = iovec(iov_base: UnsafeMutableRawPointer(mutating: base + r.lowerBound), iov_len: r.count)
                iov[2 * j + 1] = iovec(iov_base: newline, iov_len: 1)
                want += r.count + 1
            }
            let n = iov.withUnsafeBufferPointer { writev(fd, $0.baseAddress, Int32(2 * m)) }
            if n < 0 {
                if errno == EINTR { continue }
                writeFailed()
            }
            if n < want {
                // A short write: the rest of this group goes through the buffer.
                var skip = n
                for j in 0..<(2 * m) {
                    let len = iov[j].iov_len
                    if skip >= len { skip -= len; continue }
                    let rest = UnsafeBufferPointer(start: iov[j].iov_base!.assumingMemoryBound(to: UInt8.self) + skip, count: len - skip)
                    buffer.append(contentsOf: rest)
                    skip = 0
                }
                flush()
            }
            k += m
        }
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
        if !Sys.writeAll(fd: fd, buffer) { writeFailed() }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeFailed() -> Never {
        // A closed pipe (`| head -1`) ends the program quietly.
        if errno == EPIPE { exit(0) }
        Diagnostics.error("cannot write output: \(Sys.errnoString())")
        exit(ExitCode.ioError.rawValue)
    }
}

public enum Diagnostics {
    /// The tool's name for diagnostics, set once by `main`.
    static let toolName = Locked("nudge")
    static var tool: String { toolName.current }
    /// `TOOL: message` on stderr, always one line: whatever the message
    /// quotes (file names, values from input) is shown terminal-safe.
    public static func error(_ message: String) {
        // A progress meter drawn on the line is cleared first (it is drawn
        // again at its next redraw), so the message stands on a line of its own.
        let clear = meterShown.withLock { shown in defer { shown = nil }; return shown } ?? ""
        _ = Sys.writeAll(fd: 2, Array("\(clear)\(tool): \(Text.terminalSafe(message))\n".utf8))
    }
    /// What clears the progress meter standing on stderr's current line, if one does.
    static let meterShown = Locked<String?>(nil)
}

/// The key of a value a run computes once (`Context.memo`): it names the
/// value and fixes its type. Declare each as a `static let`.
public final class MemoKey<T>: Sendable {
    public let name: String
    public init(_ name: String) { self.name = name }
}

/// Everything a command needs from the outside world, resolved once.
public final class Context {
    public let spec: ToolSpec
    public let invocation: Invocation
    public let out: Output
    public private(set) var clock: Clock
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

    private var memos: [ObjectIdentifier: Any] = [:]
    private var setAsideSaid: Set<String> = []

    /// A value computed once per run, by something that may fail.
    public func memoThrowing<T>(_ key: MemoKey<T>, _ make: () throws(ToolError) -> T) throws(ToolError) -> T {
        if let stored = memos[ObjectIdentifier(key)], let v = stored as? T { return v }
        let v = try make()
        memos[ObjectIdentifier(key)] = v
        return v
    }

    public func memoReset<T>(_ key: MemoKey<T>) { memos[ObjectIdentifier(key)] = nil }

    /// A value computed once per run (a command's constants on hot paths).
    public func memo<T>(_ key: MemoKey<T>, _ make: () -> T) -> T {
        if let stored = memos[ObjectIdentifier(key)], let v = stored as? T { return v }
        let v = make()
        memos[ObjectIdentifier(key)] = v
        return v
    }

    public var tool: String { spec.name }
    public var now: Instant { clock.now }
    /// The time at this moment, for what a long run does late (a claim
    /// made after earlier commands ran): the pinned time, or the real time
    /// now, never before `now`.
    public var current: Instant { pinned ? now : Instant(ms: max(now.ms, Sys.nowMillis())) }
    public var zone: Zone { clock.zone }
    public var today: Day { clock.today }

    /// Uses `zone` for the rest of the run instead of TZ's: for data whose
    /// days are one zone's whoever reads it (a folder several logins share,
    /// each with a TZ of their own). Set before anything reads a day.
    public func useZone(_ zone: Zone) { clock.zone = zone }
    public func option(_ long: String) -> String? {
        checkDeclared(long)
        return invocation.value(long)
    }
    public func flag(_ long: String) -> Bool {
        checkDeclared(long)
        return invocation.flag(long)
    }

    /// An option that some commands sharing this reader declare and others
    /// do not (yomo's form: `edit --title`, `add` takes the title as
    /// words): nil where this command does not declare it.
    public func optionIfDeclared(_ long: String) -> String? {
        declared.contains(long) ? invocation.value(long) : nil
    }

    /// A flag some commands sharing this code declare and others do not:
    /// false where this command does not declare it.
    public func flagIfDeclared(_ long: String) -> Bool {
        declared.contains(long) && invocation.flag(long)
    }

    /// The options this run's command declares, its own and the global ones.
    private lazy var declared: Set<String> = Set(((spec.command(invocation.command)?.options ?? []) + spec.globalOptions).map(\.long))

    /// Reading an option the command does not declare reads nil whatever
    /// was typed (a misspelt name): in a debug build, as the tests run the
    /// tools, it is said as an internal error, so a test sees it.
    private func checkDeclared(_ long: String) {
        #if DEBUG
        if !declared.contains(long) {
            Diagnostics.error("internal error: '\(invocation.commandName)' reads --\(long), which it does not declare")
        }
        #endif
    }
    public var operands: [String] { invocation.operands }

    /// Reports a problem on stderr without ending the command.
    public func warn(_ message: String) { Diagnostics.error(message) }

    /// A note on what was assumed or inferred (not a problem): on stderr,
    /// unless -q.
    public func note(_ message: String) { if !out.quiet { Diagnostics.error(message) } }

    /// Parses a time option (`--at`) in the local zone, and refuses one that
    /// is not plausible (`Clock.plausible`: `lead` nil where the future is
    /// expected).
    public func time(_ s: String, option: String, lead: Int64? = Clock.oneDay) throws(ToolError) -> Instant {
        guard let t = Clock.parseTime(s, zone: zone) else {
            throw ToolError(.usage, "\(shown(option)) must be \(Clock.timeHint), not '\(s)'")
        }
        if let e = Clock.plausible(t, now: now, what: option, zone: zone, lead: lead) { throw ToolError(.usage, e.message) }
        return t
    }

    /// Parses a day option (`--date`): a day from 2000-01-01 on, `today` or
    /// `yesterday`.
    public func day(_ s: String, option: String) throws(ToolError) -> Day {
        if s == "today" { return today }
        if s == "yesterday" { return today.adding(days: -1) }
        guard let d = Day.parse(s) else {
            throw ToolError(.usage, "\(shown(option)) must be a day like 2026-11-22 (or today, yesterday), not '\(s)'")
        }
        if let e = Clock.plausible(day: d, what: option) { throw ToolError(.usage, e.message) }
        return d
    }

    /// Whether `--data-dir` was given: the run is kept apart from the data
    /// the configuration file points at (`sync_dir`, yomo's `vdir`), which
    /// apply only when asked for by option or variable. (`TOOL_DATA_DIR`
    /// is a standing choice of where the data lives, and keeps them.)
    public var keptApart: Bool { !(invocation.value("data-dir") ?? "").isEmpty }

    /// A configured folder of shared data that a run with `--data-dir`
    /// does not use: said once (a note: not with -q), nil returned.
    public func setAside(_ key: String, _ value: String, instead: String) -> String? {
        if setAsideSaid.insert(key).inserted {
            note("\(Sys.join(configDir, "config")): \(key) \(value) is not used with --data-dir (\(instead) to use it)")
        }
        return nil
    }

    /// The folder of journals shared with this person's other devices:
    /// --sync-dir, TOOL_SYNC_DIR, or `sync_dir` in the config file; nil for none.
    public func syncDirectory() throws(ToolError) -> String? {
        if let d = option("sync-dir"), !d.isEmpty { return d }
        if let d = Sys.env(spec.envPrefix + "_SYNC_DIR"), !d.isEmpty { return d }
        guard var d = try Config.familyValue("sync_dir", directory: configDir) else { return nil }
        if keptApart { return setAside("sync_dir", d, instead: "give --sync-dir") }
        if d.hasPrefix("~/") { d = Sys.join(Sys.homeDirectory(), String(d.dropFirst(2))) }
        guard d.hasPrefix("/") else {
            throw ToolError(.config, "\(Sys.join(configDir, "config")): sync_dir must be an absolute path (or start with ~/), not '\(d)'")
        }
        return d
    }

    /// Store options for this run: the tool, the run's clock, and the sync
    /// folder if one is set.
    public func storeOptions() throws(ToolError) -> StoreOptions {
        var o = StoreOptions(tool: spec.name, lockTimeoutMillis: lockTimeoutMillis)
        o.nowMillis = now.ms
        o.clockPinned = pinned
        if let s = try syncDirectory() {
            o.journalFolder = s
            o.signatures = try signatures(folder: s, principal: o.actor)
        }
        return o
    }

    /// A sync folder's signatures (Signing.swift): on once the folder holds
    /// an allowed_signers list, or this copy has accepted one (removing the
    /// folder's file does not turn them off). The key is TOOL_SIGNING_KEY
    /// or `signing_key` in the config file.
    /// `state`: the store's own folder, where the accepted list is kept (default: the data directory).
    public func signatures(folder: String, principal: String, rule: StoreSignatures.Rule = .actor,
                           state: String? = nil) throws(ToolError) -> StoreSignatures? {
        let list = Sys.join(folder, "allowed_signers")
        guard Sys.fileIdentity(list) != nil || Sys.fileIdentity(Sys.join(state ?? dataDir, "allowed_signers.accepted")) != nil else { return nil }
        try checkSigner(principal, folder)
        return StoreSignatures(allowedSigners: list, signingKey: try signingKey(), principal: principal, rule: rule)
    }

    /// A signer's name as ssh-keygen reads one name (StoreSignatures.isPrincipal), or a 78 saying what is.
    func checkSigner(_ principal: String, _ folder: String) throws(ToolError) {
        guard StoreSignatures.isPrincipal(principal) else {
            throw ToolError(.config, "'\(principal.terminalSafe)' cannot sign changes in \(folder): a signer's name is letters, digits and . _ - @ +, at most 128, not starting with -")
        }
    }

    /// The SSH key this user signs with: TOOL_SIGNING_KEY, or `signing_key` in the config file.
    public func signingKey() throws(ToolError) -> String? {
        var key = Sys.env(spec.envPrefix + "_SIGNING_KEY").flatMap { $0.isEmpty ? nil : $0 }
        if key == nil { key = try Config.familyValue("signing_key", directory: configDir) }
        if let k = key, k.hasPrefix("~/") { key = Sys.join(Sys.homeDirectory(), String(k.dropFirst(2))) }
        return key
    }

    /// A new shared folder (a family's sync folder, a synced pool) is signed
    /// from the start when this user has a signing key: its allowed_signers
    /// names `principal` with the key's public half, for this tool and for
    /// changing the list. Without a key, a note says the folder is not
    /// signed. Returns whether it made the list.
    @discardableResult
    public func startSignedFolder(_ folder: String, principal: String) throws(ToolError) -> Bool {
        let list = Sys.join(folder, "allowed_signers")
        if Sys.fileIdentity(list) != nil { return false }
        let page = "see SIGNED FOLDERS in \(spec.name)(1)"
        guard let key = try signingKey() else {
            note("\(folder) is not signed: anyone who can write into it can write as anyone; set signing_key in \(Sys.join(configDir, "config")) to sign it (\(page))")
            return false
        }
        let pubPath = key.hasSuffix(".pub") ? key : key + ".pub"
        let pubBytes = ((try? Sys.readPeerFile(pubPath, from: 0, cap: 16 << 10)) ?? nil)?.bytes ?? []
        let pub = pubBytes.split(separator: 0x0A).first.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let fields = pub.split(separator: " ")
        guard fields.count >= 2, fields[0].hasPrefix("ssh-") || fields[0].hasPrefix("ecdsa-") || fields[0].hasPrefix("sk-") else {
            throw ToolError(.config, "\(pubPath) is not an SSH public key (ssh-keygen -y -f \(key) > \(pubPath) makes it); nothing was made")
        }
        try checkSigner(principal, folder)
        let line = "# nudge-signers version 1\n\(principal) namespaces=\"nudge-\(spec.name),\(SignerList.listNamespace(spec.name))\" \(fields[0]) \(fields[1])\n"
        try Sys.makeDirectories(folder)
        try Sys.writeFileAtomically(list, Array(line.utf8), mode: 0o644)
        note("\(list): the folder is signed, with your key as \(principal); add each other signer with '\(spec.name) signers add NAME KEY.pub' (\(page))")
        return true
    }

    /// An option as the user typed it (`-n` for `--limit`), for messages.
    public func shown(_ option: String) -> String {
        option.hasPrefix("--") && invocation.flag(String(option.dropFirst(2))) ? invocation.spelling(String(option.dropFirst(2))) : option
    }

    public func int(_ s: String, option: String, range: ClosedRange<Int>) throws(ToolError) -> Int {
        guard let n = Int(s), range.contains(n) else {
            throw ToolError(.usage, "\(shown(option)) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(s)'")
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
    public static func context(spec: ToolSpec, invocation: Invocation, stdoutIsTerminal: Bool) throws(ToolError) -> Context {
        var inv = invocation
        let p = spec.envPrefix
        let zone = try Zone.fromEnvironment()
        var now = Instant(ms: Sys.nowMillis())
        var pinned = false
        // A value from the environment is named by its variable, one from the
        // command line by its option.
        func setting(_ option: String, _ variable: String) -> (value: String, name: String)? {
            if let v = inv.value(option) { return (v, "--" + option) }
            if let v = Sys.env(variable), !v.isEmpty { return (v, variable) }
            return nil
        }
        // A bad value on the command line is a usage error (64); one in the
        // environment is the configuration's (78), as a bad config file is.
        func bad(_ name: String) -> ExitCode { name.hasPrefix("-") ? .usage : .config }
        if let (raw, name) = setting("now", p + "_NOW") {
            guard let t = Clock.parseTime(raw, zone: zone) else {
                throw ToolError(bad(name), "\(name) must be \(Clock.timeHint), not '\(raw)'")
            }
            if let e = Clock.plausible(t, now: t, what: name, zone: zone) { throw ToolError(bad(name), e.message) }
            now = t
            pinned = true
        }
        var format: OutputFormat = stdoutIsTerminal ? .text : .json
        if let (f, name) = setting("format", p + "_FORMAT") {
            if let ff = OutputFormat(rawValue: f) {
                format = ff
            } else if let own = spec.command(inv.command)?.options.first(where: { $0.long == "format" && $0.choices.contains(f) }) {
                // A command may take formats of its own (report --format csv),
                // from the variable as well as the option.
                if !name.hasPrefix("--") { inv.set(own.long, f, as: name) }
            } else if !name.hasPrefix("--"), spec.commands.contains(where: { $0.options.contains { $0.long == "format" && $0.choices.contains(f) } }) {
                // A default from the environment (REWARDS_FORMAT=csv) applies
                // where it is valid and is left alone elsewhere: cron's other
                // lines run under the same variable.
            } else {
                let extra = spec.commands.flatMap { $0.options.filter { $0.long == "format" }.flatMap(\.choices) }
                    .filter { OutputFormat(rawValue: $0) == nil }
                let also = extra.isEmpty ? "" : " (or \(Array(Set(extra)).sorted().joined(separator: ", ")) for the commands that have \(Set(extra).count == 1 ? "it" : "them"))"
                throw ToolError(bad(name), "\(name) must be json or text\(also), not '\(f)'")
            }
        }
        let lockTimeout = try Config.lockTimeoutMillis(tool: spec.name)
        let envQuiet = Sys.env(p + "_QUIET").map { !$0.isEmpty && $0 != "0" } ?? false
        let quiet = inv.flag("quiet") || envQuiet
        // Colour only in text layouts: always, never, or (auto) on a terminal
        // unless NO_COLOR is set or TERM is dumb.
        var when = "auto"
        if let (c, name) = setting("color", p + "_COLOR") {
            guard ["auto", "always", "never"].contains(c) else {
                throw ToolError(bad(name), "\(name) must be auto, always or never, not '\(c)'")
            }
            when = c
        }
        let color = format == .text && (when == "always" || when == "auto" && stdoutIsTerminal
            && (Sys.env("NO_COLOR") ?? "").isEmpty && Sys.env("TERM") != "dumb")
        let out = Output(format: format, quiet: quiet, color: color)
        let ctx = Context(spec: spec, invocation: inv, out: out,
                          clock: Clock(now: now, zone: zone), dataDir: dataDirectory(tool: spec.name, option: inv.value("data-dir")),
                          configDir: configDirectory(tool: spec.name), pinned: pinned, lockTimeoutMillis: lockTimeout)
        if spec.command(inv.command)?.listing == true, let raw = inv.value("limit") {
            out.limit = try ctx.int(raw, option: "--limit", range: 1...1_000_000)
        }
        return ctx
    }

    public typealias Handler = @Sendable (Context) throws(ToolError) -> ExitCode

    /// The whole life of a tool process. Every executable holds all five
    /// tools, so one installed file serves under five names (`make install`
    /// links them, as busybox does): called by another tool's name, it is
    /// that tool.
    public static func main(spec own: ToolSpec) -> Never {
        signal(SIGPIPE, SIG_IGN)
        let spec = calledAs(CommandLine.arguments.first ?? "", own: own)
        Diagnostics.toolName.withLock { $0 = spec.name }
        let args = Array(CommandLine.arguments.dropFirst())
        let code = run(spec: spec, args: args)
        exit(code.rawValue)
    }

    /// The tool named by the last component of `argv0` when it is one of
    /// the family's, else `own`.
    public static func calledAs(_ argv0: String, own: ToolSpec) -> ToolSpec {
        let name = argv0.split(separator: "/").last.map(String.init) ?? ""
        // Its own name builds no other tool's table.
        if name == own.name { return own }
        return toolSpecs.first { $0.name == name } ?? own
    }

    public static func run(spec: ToolSpec, args: [String]) -> ExitCode {
        let plainOut = Output(format: .text, quiet: false, color: false)
        var ctx: Context? = nil
        defer { ctx?.out.flush() }
        if args.first == "__complete" { return complete(spec: spec, words: Array(args.dropFirst())) }
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
            try DataOwner.check(tool: spec.name, dir: c.dataDir)
            let code = try h(c)
            DataOwner.claim(tool: spec.name, dir: c.dataDir)
            return code
        } catch {
            ctx?.out.flush()
            Diagnostics.error(error.message)
            return error.code
        }
    }
}
