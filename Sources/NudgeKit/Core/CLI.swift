// Commands, options and operands declared once, as data. Parsing, help text,
// usage errors with suggestions, and the bash/zsh/fish completion scripts all
// come from that one declaration.

public struct OptionSpec: Sendable, Equatable {
    public enum Completion: Sendable, Equatable { case none, files, directories, choices([String]) }

    public var long: String
    public var short: Character?
    /// The value's placeholder (`DIR`); nil for a flag.
    public var value: String?
    public var help: String
    /// When set, the value must be one of these (and completion offers them).
    public var choices: [String]
    public var completion: Completion
    public var repeatable: Bool

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

    public init(name: String, version: String = familyVersion, summary: String, commands: [CommandSpec],
                defaultCommand: [String]?, globals: [OptionSpec] = [], syncs: Bool = true, footer: String = "") {
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

    static func standardGlobals(_ tool: String) -> [OptionSpec] {
        let p = tool.uppercased()
        return [
            OptionSpec("data-dir", value: "DIR", help: "Keep data in DIR (env \(p)_DATA_DIR)", completion: .directories),
            OptionSpec("now", value: "TIME", help: "Pin the clock to TIME (env \(p)_NOW)"),
            OptionSpec("format", value: "FORMAT", help: "Force json or text output (env \(p)_FORMAT)", choices: ["json", "text"]),
            OptionSpec("quiet", short: "q", help: "Print nothing but errors (env \(p)_QUIET)"),
            OptionSpec("help", short: "h", help: "Show help and exit"),
            OptionSpec("version", help: "Show the version and exit"),
        ]
    }

    public func command(_ path: [String]) -> CommandSpec? {
        var list = commands
        var found: CommandSpec? = nil
        for w in path {
            guard let c = list.first(where: { $0.name == w }) else { return nil }
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
    public var wantsHelp = false
    public var wantsVersion = false

    public init() {}

    public func flag(_ long: String) -> Bool { values[long] != nil }
    public func value(_ long: String) -> String? { values[long]?.last }
    public func all(_ long: String) -> [String] { values[long] ?? [] }
    public mutating func set(_ long: String, _ v: String) { values[long, default: []].append(v) }
    public var commandName: String { command.joined(separator: " ") }
}

public enum Suggest {
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev = Array(0...b.count)
        var cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&prev, &cur)
        }
        return prev[b.count]
    }

    /// The nearest candidate, if it is near enough to be what was meant.
    public static func nearest(_ word: String, in candidates: [String]) -> String? {
        var best: (String, Int)? = nil
        for c in candidates {
            let d = c.hasPrefix(word) && !word.isEmpty ? 0 : distance(word, c)
            if best == nil || d < best!.1 { best = (c, d) }
        }
        guard let b = best, b.1 <= max(2, word.count / 3) else { return nil }
        return b.0
    }
}

extension ToolSpec {
    func usageError(_ m: String, hint: String? = nil) -> ToolError {
        ToolError(.usage, m + (hint.map { " (did you mean '\($0)'?)" } ?? "") + "; see '\(name) --help'")
    }

    /// Parses arguments (without the program name). Global options are
    /// accepted before or after the command; `--` ends options.
    public func parse(_ args: [String]) throws(ToolError) -> Invocation {
        var inv = Invocation()
        var current: CommandSpec? = nil
        var endOfOptions = false
        var i = 0
        var helpTopic = false

        func optionsInScope() -> [OptionSpec] { (current?.options ?? []) + globalOptions }

        func take(_ o: OptionSpec, inline: String?, at idx: inout Int, as shown: String) throws(ToolError) {
            if o.takesValue {
                var v: String
                if let inline = inline {
                    v = inline
                } else {
                    guard idx + 1 < args.count else {
                        throw usageError("option \(shown) needs a value (\(o.value!))")
                    }
                    idx += 1
                    v = args[idx]
                }
                if !o.choices.isEmpty && !o.choices.contains(v) {
                    throw usageError("\(shown) must be one of \(o.choices.joined(separator: ", ")), not '\(v)'",
                                     hint: nil)
                }
                inv.set(o.long, v)
            } else {
                if inline != nil { throw usageError("option --\(o.long) takes no value") }
                if o.long == "help" { inv.wantsHelp = true }
                if o.long == "version" { inv.wantsVersion = true }
                inv.set(o.long, "")
            }
        }

        while i < args.count {
            let a = args[i]
            // A negative number ("-20") is an operand: no short option is a digit.
            let negativeNumber = a.count > 1 && a.hasPrefix("-") && a.dropFirst().allSatisfy(\.isNumber)
            if endOfOptions || a == "-" || !a.hasPrefix("-") || negativeNumber {
                let subs = current?.subcommands ?? commands
                let expectingCommand = !helpTopic && (current == nil || (!subs.isEmpty && inv.operands.isEmpty))
                if expectingCommand && !endOfOptions {
                    if let c = subs.first(where: { $0.name == a }) {
                        current = c
                        inv.command.append(a)
                        if inv.command == ["help"] { helpTopic = true }
                        i += 1
                        continue
                    }
                    if current == nil || current!.maxOperands == 0 {
                        if commands.isEmpty { throw usageError("'\(a)' is not a command; \(name) has no commands yet") }
                        let what = current == nil ? "command" : "subcommand of '\(inv.commandName)'"
                        throw usageError("unknown \(what) '\(a)'", hint: Suggest.nearest(a, in: subs.map(\.name)))
                    }
                }
                inv.operands.append(a)
                i += 1
                continue
            }
            if a == "--" { endOfOptions = true; i += 1; continue }
            if a.hasPrefix("--") {
                var name = String(a.dropFirst(2))
                var inline: String? = nil
                if let eq = name.firstIndex(of: "=") {
                    inline = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
                guard let o = optionsInScope().first(where: { $0.long == name }) else {
                    let where_ = current == nil ? "" : " for '\(inv.commandName)'"
                    throw usageError("unknown option --\(name)\(where_)",
                                     hint: Suggest.nearest(name, in: optionsInScope().map(\.long)).map { "--" + $0 })
                }
                try take(o, inline: inline, at: &i, as: "--" + name)
                i += 1
                continue
            }
            // A group of short options: -qv, -n5, -n 5.
            let chars = Array(a.dropFirst())
            var k = 0
            while k < chars.count {
                let c = chars[k]
                guard let o = optionsInScope().first(where: { $0.short == c }) else {
                    throw usageError("unknown option -\(c)")
                }
                if o.takesValue {
                    let rest = k + 1 < chars.count ? String(chars[(k + 1)...]) : nil
                    try take(o, inline: rest, at: &i, as: "-\(c)")
                    break
                }
                try take(o, inline: nil, at: &i, as: "-\(c)")
                k += 1
            }
            i += 1
        }
        if inv.wantsHelp || inv.wantsVersion { return inv }
        if inv.command == ["help"] { return inv }
        if let c = current {
            if !c.runnable && inv.operands.isEmpty {
                throw usageError("'\(inv.commandName)' needs a subcommand: \(c.subcommands.map(\.name).joined(separator: ", "))")
            }
            if inv.operands.count < c.minOperands {
                throw usageError("'\(inv.commandName)' needs \(c.usage.isEmpty ? "an operand" : c.usage)")
            }
            if let max = c.maxOperands, inv.operands.count > max {
                let extra = inv.operands[max]
                if max == 0 {
                    throw usageError("'\(inv.commandName)' takes no operands, got '\(extra)'")
                }
                throw usageError("too many operands for '\(inv.commandName)': '\(extra)'")
            }
        }
        return inv
    }
}

// MARK: - Help

extension ToolSpec {
    static func columns(_ rows: [(String, String)], indent: Int = 2, alignedWith all: [(String, String)]? = nil) -> String {
        let width = min(26, ((all ?? rows).map { $0.0.count }.max() ?? 0) + 2)
        var out = ""
        for (l, r) in rows {
            let pad = String(repeating: " ", count: indent)
            if l.count + 2 > width {
                out += pad + l + "\n" + pad + String(repeating: " ", count: width) + r + "\n"
            } else {
                out += pad + l + String(repeating: " ", count: width - l.count) + r + "\n"
            }
        }
        return out
    }

    public var helpText: String {
        var s = "usage: \(name) [GLOBAL OPTIONS] COMMAND [OPTIONS] [OPERANDS]\n\n\(summary)\n"
        if commands.isEmpty {
            s += "\n\(name) has no commands yet: it is being built. Only --help and --version work.\n"
        } else {
            func rows(_ cs: [CommandSpec]) -> [(String, String)] {
                cs.flatMap { c in
                    [(c.name, c.summary + (defaultCommand == [c.name] ? " (default)" : ""))]
                        + c.subcommands.map { ("\(c.name) \($0.name)", $0.summary) }
                }
            }
            for g in CommandGroup.allCases {
                let cs = commands.filter { $0.group == g }
                if cs.isEmpty { continue }
                s += "\n\(g.title)\(g == .plumbing ? " (their NDJSON is a stable interface)" : ""):\n"
                s += ToolSpec.columns(rows(cs), alignedWith: rows(commands))
            }
        }
        s += "\nGlobal options:\n" + ToolSpec.columns(globalOptions.map { ($0.synopsis, $0.help) })
        if !commands.isEmpty { s += "\nRun '\(name) help COMMAND' for a command's options.\n" }
        if !footer.isEmpty { s += "\n" + footer + "\n" }
        s += "See man \(name)(1).\n"
        return s
    }

    public func helpText(for path: [String]) throws(ToolError) -> String {
        guard let c = command(path) else {
            let last = path.last ?? ""
            throw usageError("unknown command '\(path.joined(separator: " "))'",
                             hint: Suggest.nearest(last, in: commands.map(\.name)))
        }
        let p = path.joined(separator: " ")
        var s = "usage: \(name) \(p)"
        if !c.subcommands.isEmpty && !c.runnable { s += " SUBCOMMAND" }
        if !c.options.isEmpty { s += " [OPTIONS]" }
        if !c.usage.isEmpty { s += " " + c.usage }
        s += "\n\n\(c.summary).\n"
        if !c.details.isEmpty { s += "\n" + c.details + "\n" }
        if !c.subcommands.isEmpty {
            s += "\nSubcommands:\n" + ToolSpec.columns(c.subcommands.map { ($0.name, $0.summary) })
        }
        if !c.options.isEmpty { s += "\nOptions:\n" + ToolSpec.columns(c.options.map { ($0.synopsis, $0.help) }) }
        if !c.records.isEmpty {
            s += "\nPrints NDJSON records of type \(c.records.joined(separator: ", ")): a stable interface for scripts.\n"
        }
        s += "\nGlobal options: " + globalOptions.map { "--" + $0.long }.joined(separator: ", ") + " (see '\(name) --help').\n"
        return s
    }
}

// MARK: - Completions

extension ToolSpec {
    public func completionScript(_ shell: String) throws(ToolError) -> String {
        switch shell {
        case "bash": return bashCompletion()
        case "zsh": return zshCompletion()
        case "fish": return fishCompletion()
        default: throw usageError("completion takes bash, zsh or fish, not '\(shell)'")
        }
    }

    /// Completion files as committed under completions/.
    public var completionFiles: [(file: String, shell: String)] {
        [("\(name).bash", "bash"), ("_\(name)", "zsh"), ("\(name).fish", "fish")]
    }

    var valueOptionWords: [String] {
        var all: [OptionSpec] = globalOptions
        for p in allPaths { all += command(p)?.options ?? [] }
        var words: [String] = []
        for o in all where o.takesValue {
            for w in ["--" + o.long] + (o.short.map { ["-\($0)"] } ?? []) where !words.contains(w) { words.append(w) }
        }
        return words
    }

    func optionWords(_ os: [OptionSpec]) -> [String] {
        os.flatMap { o in ["--" + o.long] + (o.short.map { ["-\($0)"] } ?? []) }
    }

    static func shQuote(_ s: String) -> String { "'" + s.replacingAll("'", "'\\''") + "'" }

    /// The commands whose own options take values, with those options:
    /// completed before the global ones, so a command's option wins
    /// (`rewards report --format` offers csv).
    var commandValueOptions: [(path: String, options: [OptionSpec])] {
        allPaths.compactMap { p in
            let os = (command(p)?.options ?? []).filter(\.takesValue)
            return os.isEmpty ? nil : (p.joined(separator: " "), os)
        }
    }

    func bashCompletion() -> String {
        let fn = "_" + name.replacingAll("-", "_")
        var s = "# bash completion for \(name) -*- shell-script -*-\n"
        s += "# Generated by '\(name) completion bash' from the command declaration; do not edit.\n"
        s += "\(fn)_reply() {\n"
        s += "    local line\n"
        s += "    COMPREPLY=()\n"
        s += "    while IFS= read -r line; do COMPREPLY+=(\"$line\"); done\n"
        s += "}\n"
        s += "\(fn)() {\n"
        s += "    local cur prev cmd=\"\" i w\n"
        s += "    cur=\"${COMP_WORDS[COMP_CWORD]}\"\n"
        s += "    prev=\"\"\n    ((COMP_CWORD > 0)) && prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
        s += "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
        s += "        w=\"${COMP_WORDS[i]}\"\n"
        s += "        case \"$w\" in\n"
        if !valueOptionWords.isEmpty {
            s += "            \(valueOptionWords.joined(separator: "|"))) ((i++)) ;;\n"
        }
        s += "            -*) ;;\n"
        s += "            *)\n"
        s += "                case \"${cmd:+$cmd }$w\" in\n"
        let paths = allPaths.map { $0.joined(separator: " ") }
        if !paths.isEmpty {
            s += "                    " + paths.map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: "|") + ") cmd=\"${cmd:+$cmd }$w\" ;;\n"
        }
        s += "                esac ;;\n"
        s += "        esac\n    done\n"
        func valueCases(_ os: [OptionSpec], indent: String) -> String {
            var s = ""
            for o in os where o.takesValue {
                let pat = (["--" + o.long] + (o.short.map { ["-\($0)"] } ?? [])).joined(separator: "|")
                switch o.completion {
                case .directories: s += "\(indent)\(pat)) \(fn)_reply < <(compgen -d -- \"$cur\"); return ;;\n"
                case .files: s += "\(indent)\(pat)) \(fn)_reply < <(compgen -f -- \"$cur\"); return ;;\n"
                case .choices(let cs): s += "\(indent)\(pat)) \(fn)_reply < <(compgen -W \"\(cs.joined(separator: " "))\" -- \"$cur\"); return ;;\n"
                case .none: s += "\(indent)\(pat)) COMPREPLY=(); return ;;\n"
                }
            }
            return s
        }
        let own = commandValueOptions
        if !own.isEmpty {
            s += "    case \"$cmd\" in\n"
            for (p, os) in own {
                s += "        \(p.contains(" ") ? "\"\(p)\"" : p))\n"
                s += "            case \"$prev\" in\n"
                s += valueCases(os, indent: "                ")
                s += "            esac ;;\n"
            }
            s += "    esac\n"
        }
        s += "    case \"$prev\" in\n"
        s += valueCases(globalOptions, indent: "        ")
        s += "    esac\n"
        s += "    local words files=0\n"
        s += "    case \"$cmd\" in\n"
        let globalsW = optionWords(globalOptions).joined(separator: " ")
        s += "        \"\") words=\"\(commands.map(\.name).joined(separator: " ")) \(globalsW)\" ;;\n"
        for p in allPaths {
            guard let c = command(p) else { continue }
            var ws = c.subcommands.map(\.name) + optionWords(c.options) + optionWords(globalOptions)
            if p == ["help"] { ws = commands.map(\.name) }
            if p == ["completion"] { ws = ["bash", "zsh", "fish"] }
            let key = p.joined(separator: " ")
            s += "        \(key.contains(" ") ? "\"\(key)\"" : key)) words=\"\(ws.joined(separator: " "))\""
            if c.operandKind == .files { s += "; files=1" }
            s += " ;;\n"
        }
        s += "    esac\n"
        s += "    \(fn)_reply < <(compgen -W \"$words\" -- \"$cur\")\n"
        s += "    if ((files)) && [[ $cur != -* ]]; then\n"
        s += "        local matches=(\"${COMPREPLY[@]}\")\n"
        s += "        \(fn)_reply < <(compgen -f -- \"$cur\")\n"
        s += "        COMPREPLY=(\"${matches[@]}\" \"${COMPREPLY[@]}\")\n"
        s += "    fi\n"
        s += "}\n"
        s += "complete -F \(fn) \(name)\n"
        return s
    }

    static func zshEscape(_ s: String) -> String {
        s.replacingAll("\\", "\\\\").replacingAll("'", "'\\''").replacingAll(":", "\\:")
    }

    func zshCompletion() -> String {
        let fn = "_" + name.replacingAll("-", "_")
        var s = "#compdef \(name)\n"
        s += "# zsh completion for \(name).\n"
        s += "# Generated by '\(name) completion zsh' from the command declaration; do not edit.\n"
        s += "\(fn)() {\n"
        s += "    local -a cands\n"
        s += "    local cmd=\"\" w i files=0\n"
        s += "    for ((i = 2; i < CURRENT; i++)); do\n"
        s += "        w=${words[i]}\n"
        s += "        case $w in\n"
        if !valueOptionWords.isEmpty { s += "            (\(valueOptionWords.joined(separator: "|")))) ((i++)) ;;\n" }
        s += "            (-*) ;;\n"
        s += "            (*)\n"
        s += "                case \"${cmd:+$cmd }$w\" in\n"
        let paths = allPaths.map { $0.joined(separator: " ") }
        if !paths.isEmpty {
            s += "                    (" + paths.map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: "|") + ") cmd=\"${cmd:+$cmd }$w\" ;;\n"
        }
        s += "                esac ;;\n"
        s += "        esac\n    done\n"
        func valueCases(_ os: [OptionSpec], indent: String) -> String {
            var s = ""
            for o in os where o.takesValue {
                let pat = (["--" + o.long] + (o.short.map { ["-\($0)"] } ?? [])).joined(separator: "|")
                switch o.completion {
                case .directories: s += "\(indent)(\(pat)) _files -/; return ;;\n"
                case .files: s += "\(indent)(\(pat)) _files; return ;;\n"
                case .choices(let cs): s += "\(indent)(\(pat)) compadd -- \(cs.joined(separator: " ")); return ;;\n"
                case .none: s += "\(indent)(\(pat)) _message '\(o.value ?? "value")'; return ;;\n"
                }
            }
            return s
        }
        let own = commandValueOptions
        if !own.isEmpty {
            s += "    case $cmd in\n"
            for (p, os) in own {
                s += "        (\"\(p)\")\n"
                s += "            case ${words[CURRENT-1]} in\n"
                s += valueCases(os, indent: "                ")
                s += "            esac ;;\n"
            }
            s += "    esac\n"
        }
        s += "    case ${words[CURRENT-1]} in\n"
        s += valueCases(globalOptions, indent: "        ")
        s += "    esac\n"
        func items(_ c: [(String, String)]) -> String {
            c.map { "'\(ToolSpec.zshEscape($0.0)):\(ToolSpec.zshEscape($0.1))'" }.joined(separator: " ")
        }
        func optItems(_ os: [OptionSpec]) -> [(String, String)] {
            os.flatMap { o in [("--" + o.long, o.help)] + (o.short.map { [("-\($0)", o.help)] } ?? []) }
        }
        s += "    case $cmd in\n"
        s += "        (\"\") cands=(\(items(commands.map { ($0.name, $0.summary) } + optItems(globalOptions)))) ;;\n"
        for p in allPaths {
            guard let c = command(p) else { continue }
            var list = c.subcommands.map { ($0.name, $0.summary) } + optItems(c.options) + optItems(globalOptions)
            if p == ["help"] { list = commands.map { ($0.name, $0.summary) } }
            if p == ["completion"] { list = [("bash", "bash script"), ("zsh", "zsh script"), ("fish", "fish script")] }
            s += "        (\"\(p.joined(separator: " "))\") cands=(\(items(list)))"
            if c.operandKind == .files { s += "; files=1" }
            s += " ;;\n"
        }
        s += "    esac\n"
        s += "    _describe -t commands '\(name)' cands\n"
        s += "    ((files)) && _files\n"
        s += "    return 0\n"
        s += "}\n"
        s += "\(fn) \"$@\"\n"
        return s
    }

    func fishCompletion() -> String {
        let fn = "__" + name.replacingAll("-", "_")
        func q(_ s: String) -> String { ToolSpec.shQuote(s) }
        var s = "# fish completion for \(name).\n"
        s += "# Generated by '\(name) completion fish' from the command declaration; do not edit.\n"
        s += "function \(fn)_cmd\n"
        s += "    set -l words (commandline -opc)\n"
        s += "    set -e words[1]\n"
        s += "    set -l cmd ''\n"
        s += "    set -l skip 0\n"
        s += "    for w in $words\n"
        s += "        if test $skip = 1\n            set skip 0\n            continue\n        end\n"
        s += "        switch $w\n"
        if !valueOptionWords.isEmpty { s += "            case \(valueOptionWords.joined(separator: " "))\n                set skip 1\n" }
        s += "            case '-*'\n"
        s += "            case '*'\n"
        s += "                set -l cand (string trim -- \"$cmd $w\")\n"
        let paths = allPaths.map { $0.joined(separator: " ") }
        s += "                if contains -- $cand \(paths.map(q).joined(separator: " "))\n"
        s += "                    set cmd $cand\n"
        s += "                end\n"
        s += "        end\n"
        s += "    end\n"
        s += "    echo $cmd\n"
        s += "end\n"
        s += "function \(fn)_at\n"
        s += "    set -l c (\(fn)_cmd)\n"
        s += "    test \"$c\" = \"$argv[1]\"\n"
        s += "end\n"
        s += "complete -c \(name) -f\n"
        func optLine(_ o: OptionSpec, cond: String?) -> String {
            var l = "complete -c \(name)"
            if let c = cond { l += " -n \(q(c))" }
            l += " -l \(o.long)"
            if let sh = o.short { l += " -s \(sh)" }
            if o.takesValue {
                switch o.completion {
                case .directories: l += " -r -a '(__fish_complete_directories)'"
                case .files: l += " -r -F"
                case .choices(let cs): l += " -x -a \(q(cs.joined(separator: " ")))"
                case .none: l += " -x"
                }
            }
            return l + " -d \(q(o.help))\n"
        }
        for o in globalOptions {
            // A command that declares an option of the same name has its own line.
            let own = allPaths.filter { p in command(p)?.options.contains { $0.long == o.long } == true }
            s += optLine(o, cond: own.isEmpty ? nil : own.map { "not \(fn)_at \(q($0.joined(separator: " ")))" }.joined(separator: "; and "))
        }
        for c in commands { s += "complete -c \(name) -n \(q("\(fn)_at ''")) -a \(q(c.name)) -d \(q(c.summary))\n" }
        for p in allPaths {
            guard let c = command(p) else { continue }
            let cond = "\(fn)_at \(q(p.joined(separator: " ")))"
            for sc in c.subcommands { s += "complete -c \(name) -n \(q(cond)) -a \(q(sc.name)) -d \(q(sc.summary))\n" }
            for o in c.options { s += optLine(o, cond: cond) }
            if c.operandKind == .files { s += "complete -c \(name) -n \(q(cond)) -F\n" }
            if p == ["help"] {
                for c2 in commands { s += "complete -c \(name) -n \(q(cond)) -a \(q(c2.name))\n" }
            }
            if p == ["completion"] { s += "complete -c \(name) -n \(q(cond)) -a 'bash zsh fish'\n" }
        }
        return s
    }
}

extension String {
    /// Every occurrence of `target` replaced (no Foundation needed).
    public func replacingAll(_ target: String, _ replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let r = rest.firstRange(of: target) {
            out += rest[..<r.lowerBound]
            out += replacement
            rest = rest[r.upperBound...]
        }
        out += rest
        return out
    }
}
