// Help text from the declaration: the tool's commands in their groups
// (everyday, admin, cron/plumbing), a command's usage and options.

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
        if !c.visibleOptions.isEmpty { s += " [OPTIONS]" }
        if !c.usage.isEmpty { s += " " + c.usage }
        s += "\n\n\(c.summary).\n"
        if !c.details.isEmpty { s += "\n" + c.details + "\n" }
        if !c.subcommands.isEmpty {
            s += "\nSubcommands:\n" + ToolSpec.columns(c.subcommands.map { ($0.name, $0.summary) })
        }
        if !c.visibleOptions.isEmpty { s += "\nOptions:\n" + ToolSpec.columns(c.visibleOptions.map { ($0.synopsis, $0.help) }) }
        if !c.records.isEmpty {
            s += "\nPrints NDJSON records of type \(c.records.joined(separator: ", ")): a stable interface for scripts.\n"
        }
        s += "\nGlobal options: " + globalOptions.map { "--" + $0.long }.joined(separator: ", ") + " (see '\(name) --help').\n"
        return s
    }
}
