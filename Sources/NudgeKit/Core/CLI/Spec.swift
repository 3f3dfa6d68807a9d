// Commands, options and operands declared once, as data. Parsing, help text,
// usage errors with suggestions, and the bash/zsh/fish completion scripts all
// come from that one declaration (Parse.swift, Help.swift, Completions/).
//
// Invariants: a command path names one declaration; an option's long name is
// unique within its command and the global options it does not override.

public struct OptionSpec: Sendable, Equatable {
    /// What a value completes to; `values(KIND)` asks the tool
    /// (`TOOL __complete`), which reads them from its store.
    public enum Completion: Sendable, Equatable { case none, files, directories, choices([String]), values(String) }

    public var long: String
    public var short: Character?
    /// The value's placeholder (`DIR`); nil for a flag.
    public var value: String?
    public var help: String
    /// When set, the value must be one of these (and completion offers them).
    public var choices: [String]
    public var completion: Completion
    public var repeatable: Bool
    /// Old spellings still accepted, never shown (help, completions, man).
    public var aliases: [String] = []
    /// Accepted but not shown: an old way of saying what another option says.
    public var hidden = false

    public init(_ long: String, short: Character? = nil, value: String? = nil, help: String,
                choices: [String] = [], completion: Completion = .none, repeatable: Bool = false) {
        self.long = long
        self.short = short
        self.value = value
        self.help = help
        self.choices = choices
        self.completion = choices.isEmpty ? completion : .choices(choices)
        self.repeatable = repeatable
    }

    public var takesValue: Bool { value != nil }

    /// The same option, also accepted as `--old` (hidden).
    public func aliased(_ old: String...) -> OptionSpec {
        var o = self
        o.aliases += old
        return o
    }

    /// The same option, its values completed from the store (`KIND`).
    public func completing(_ kind: String) -> OptionSpec {
        var o = self
        o.completion = .values(kind)
        return o
    }

    /// Whether `--name` names this option.
    public func answers(_ name: String) -> Bool { long == name || aliases.contains(name) }

    /// `-q, --quiet` / `--data-dir DIR`
    var synopsis: String {
        var s = short.map { "-\($0), " } ?? ""
        s += "--" + long
        if let v = value { s += " " + v }
        return s
    }
}

/// How `--help` and the man pages group a tool's commands, like git's
/// command-list.txt: what a person runs every day, what sets things up, and
/// what cron and scripts run (whose NDJSON is a stable interface).
public enum CommandGroup: String, Sendable, CaseIterable {
    case everyday, admin, plumbing

    public var title: String {
        switch self {
        case .everyday: return "Everyday commands"
        case .admin: return "Admin commands"
        case .plumbing: return "Cron and plumbing commands"
        }
    }
}

/// One command: how it is called, and the handler that runs it, bound where
/// the command is declared (nil only for a command that just groups
/// subcommands, or a built-in the runner answers itself: help, completion).
public struct CommandSpec: Sendable {
    public enum Operands: Sendable, Equatable { case none, files, words }

    public var name: String
    public var summary: String
    public var usage: String
    public var options: [OptionSpec]
    public var minOperands: Int
    public var maxOperands: Int?
    public var operandKind: Operands
    public var subcommands: [CommandSpec]
    /// Whether the command runs by itself when no subcommand is named.
    public var runnable: Bool
    public var details: String
    /// Where a top-level command is listed; subcommands go with their parent.
    public var group: CommandGroup
    /// The record types a plumbing command prints: its stable interface.
    public var records: [String]
    public var run: Runner.Handler?
    /// Old names still accepted, never shown.
    public var aliases: [String] = []
    /// What each operand completes to from the store (`TOOL __complete`),
    /// by position, the last one for the rest; "" for nothing.
    public var operandValues: [String] = []

    /// The same command, its operands completed from the store.
    public func completing(_ kinds: String...) -> CommandSpec {
        var c = self
        c.operandValues = kinds
        return c
    }

    /// Whether it prints a list whose length `-n/--limit` bounds in the
    /// runner (`Output.limit`); commands whose limit means something of
    /// their own (days, occurrences, the last N) read it themselves.
    public var listing = false

    /// The same command as a listing: `-n N`/`--limit N` prints at most N
    /// records, as on every listing of the family.
    public func listed() -> CommandSpec {
        var c = self
        c.listing = true
        if !c.options.contains(where: { $0.long == "limit" }) {
            c.options.append(OptionSpec("limit", short: "n", value: "N", help: "At most N records").aliased("count"))
        }
        return c
    }

    /// The same command, also accepted as `old` (hidden).
    public func aliased(_ old: String...) -> CommandSpec {
        var c = self
        c.aliases += old
        return c
    }

    /// The options shown in help and completions.
    public var visibleOptions: [OptionSpec] { options.filter { !$0.hidden } }

    public init(_ name: String, summary: String, usage: String = "", options: [OptionSpec] = [],
                operands: Operands = .none, min: Int = 0, max: Int? = 0,
                subcommands: [CommandSpec] = [], runnable: Bool = true, details: String = "",
                group: CommandGroup = .everyday, records: [String] = [], run: Runner.Handler? = nil) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.options = options
        self.operandKind = operands
        self.minOperands = min
        self.maxOperands = max
        self.subcommands = subcommands
        self.runnable = runnable
        self.details = details
        self.group = group
        self.records = records
        self.run = run
    }
}

public struct ToolSpec: Sendable {
    public var name: String
    public var version: String
    public var summary: String
    public var commands: [CommandSpec]
    /// The command run when none is named (nil: print help, exit 64).
    public var defaultCommand: [String]?
    public var globalOptions: [OptionSpec]
    public var footer: String
    /// The values of a kind (`reminder`, `child`) for completion, read from
    /// the store; nil for a tool with none.
    public var values: ValueSource?
    public typealias ValueSource = @Sendable (Context, String) throws(ToolError) -> [String]

    public init(name: String, version: String = familyVersion, summary: String, commands: [CommandSpec],
                defaultCommand: [String]?, globals: [OptionSpec] = [], syncs: Bool = true, footer: String = "",
                values: ValueSource? = nil) {
        self.values = values
        self.name = name
        self.version = version
        self.summary = summary
        self.commands = commands.isEmpty ? [] : commands + [ToolSpec.helpCommand, ToolSpec.completionCommand]
        self.defaultCommand = defaultCommand
        self.globalOptions = ToolSpec.standardGlobals(name)
            + (syncs ? [OptionSpec("sync-dir", value: "DIR", help: "Share journals with your other devices through DIR (env \(name.uppercased())_SYNC_DIR)", completion: .directories)] : [])
            + globals
        self.footer = footer
    }

    public var envPrefix: String { name.uppercased() }

    static let helpCommand = CommandSpec("help", summary: "Show help for a command", usage: "[COMMAND...]",
                                         operands: .words, max: nil)
    static let completionCommand = CommandSpec(
        "completion", summary: "Print the bash, zsh or fish completion script", usage: "bash|zsh|fish",
        operands: .words, min: 1, max: 1, group: .admin)
    /// Commands the runner answers itself, with no handler.
    public static let builtinPaths: [[String]] = [["help"], ["completion"]]

    /// The options of a command that can run long (an ingest, an import,
    /// a first sync): its progress meter forced or silenced, as in git.
    public static let progressOptions: [OptionSpec] = [
        OptionSpec("progress", help: "Show a progress meter even where stderr is not a terminal, or with -q"),
        OptionSpec("no-progress", help: "Never show a progress meter"),
    ]

    static func standardGlobals(_ tool: String) -> [OptionSpec] {
        let p = tool.uppercased()
        return [
            OptionSpec("data-dir", value: "DIR", help: "Keep data in DIR (env \(p)_DATA_DIR)", completion: .directories),
            OptionSpec("now", value: "TIME", help: "Pin the clock to TIME (env \(p)_NOW)"),
            OptionSpec("format", value: "FORMAT", help: "Force json or text output (env \(p)_FORMAT)", choices: ["json", "text"]),
            OptionSpec("color", value: "WHEN", help: "Colour text layouts: auto (a terminal without NO_COLOR), always, never (env \(p)_COLOR)",
                       choices: ["auto", "always", "never"]),
            OptionSpec("quiet", short: "q", help: "Print nothing but errors (env \(p)_QUIET)"),
            OptionSpec("help", short: "h", help: "Show help and exit"),
            OptionSpec("version", help: "Show the version and exit"),
        ]
    }

    public func command(_ path: [String]) -> CommandSpec? {
        var list = commands
        var found: CommandSpec? = nil
        for w in path {
            guard let c = list.first(where: { $0.name == w }) ?? list.first(where: { $0.aliases.contains(w) }) else { return nil }
            found = c
            list = c.subcommands
        }
        return found
    }

    /// The handler of every command that has one, by path ("buddy set").
    public var handlers: [String: Runner.Handler] {
        var out: [String: Runner.Handler] = [:]
        for p in allPaths { if let h = command(p)?.run { out[p.joined(separator: " ")] = h } }
        return out
    }

    /// The paths a user can run: runnable commands other than the built-ins.
    public var runnablePaths: [[String]] {
        allPaths.filter { command($0)?.runnable == true && !ToolSpec.builtinPaths.contains($0) }
    }

    /// Every command path, depth first: ["status"], ["buddy"], ["buddy", "set"].
    public var allPaths: [[String]] {
        var out: [[String]] = []
        func walk(_ cs: [CommandSpec], _ prefix: [String]) {
            for c in cs {
                out.append(prefix + [c.name])
                walk(c.subcommands, prefix + [c.name])
            }
        }
        walk(commands, [])
        return out
    }
}

/// What the user asked for.
public struct Invocation: Sendable, Equatable {
    public var command: [String] = []
    public var operands: [String] = []
    var values: [String: [String]] = [:]
    /// How each option was typed last (`-n`, `--count`), for messages.
    var spelled: [String: String] = [:]
    public var wantsHelp = false
    public var wantsVersion = false

    public init() {}

    public func flag(_ long: String) -> Bool { values[long] != nil }
    public func value(_ long: String) -> String? { values[long]?.last }
    public func all(_ long: String) -> [String] { values[long] ?? [] }
    public mutating func set(_ long: String, _ v: String, as shown: String? = nil) {
        values[long, default: []].append(v)
        if let shown { spelled[long] = shown }
    }
    /// `--long` as the user typed it (`-n`, an old spelling), or `--long`.
    public func spelling(_ long: String) -> String { spelled[long] ?? "--" + long }
    public var commandName: String { command.joined(separator: " ") }
}
