// Turning argv into an Invocation against the declaration: POSIX short
// options (grouped), GNU long options (--name=value), `--`, operands by kind,
// and usage errors that suggest the nearest command or option.

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
    /// A usage error, pointing at the help of the command it happened in
    /// (`TOOL CMD --help`), or the tool's.
    func usageError(_ m: String, hint: String? = nil, command: [String] = []) -> ToolError {
        let help = ([name] + command).joined(separator: " ") + " --help"
        return ToolError(.usage, m + (hint.map { " (did you mean '\($0)'?)" } ?? "") + "; see '\(help)'")
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
        func usageError(_ m: String, hint: String? = nil) -> ToolError {
            self.usageError(m, hint: hint, command: helpTopic ? [] : inv.command)
        }

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
                inv.set(o.long, v, as: shown)
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
                    if let c = subs.first(where: { $0.name == a }) ?? subs.first(where: { $0.aliases.contains(a) }) {
                        current = c
                        inv.command.append(c.name)
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
                guard let o = optionsInScope().first(where: { $0.long == name }) ?? optionsInScope().first(where: { $0.answers(name) }) else {
                    let where_ = current == nil ? "" : " for '\(inv.commandName)'"
                    throw usageError("unknown option --\(name)\(where_)",
                                     hint: Suggest.nearest(name, in: optionsInScope().filter { !$0.hidden }.map(\.long)).map { "--" + $0 })
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
