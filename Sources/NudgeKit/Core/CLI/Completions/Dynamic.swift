// Completion of real values: the generated scripts call the hidden
// `TOOL __complete WORD...` with the words typed after the tool's name (the
// last one being completed). It answers, one per line, the values that fit
// there: a command's names after `help`, or the values of the kind an
// option or operand declares (`completing("reminder")`), read by the tool
// from its store (the snapshot: one read, no lock). Anything else, or any
// error, answers nothing: a completion never prints a diagnostic.

extension ToolSpec {
    /// The same tool, with the operands of the commands named in `table`
    /// ("recipient rm": ["recipient"]) completed from the store by `values`.
    public func completing(_ table: [String: [String]], values: @escaping ValueSource) -> ToolSpec {
        var t = self
        // Each command the table names is found by its path; the others are
        // not touched (a walk over every command, joining each one's path,
        // was a few percent of every run of a tool: the spec is built at start).
        func set(_ cs: inout [CommandSpec], _ path: ArraySlice<Substring>, _ kinds: [String]) {
            guard let name = path.first, let i = cs.firstIndex(where: { $0.name == name }) else { return }
            if path.count == 1 { cs[i].operandValues = kinds } else { set(&cs[i].subcommands, path.dropFirst(), kinds) }
        }
        for (path, kinds) in table { set(&t.commands, path.split(separator: " ", omittingEmptySubsequences: false)[...], kinds) }
        t.values = values
        return t
    }

    /// What the words ask for.
    public enum CompletionAsk: Equatable, Sendable {
        case none
        case names([String])
        case values(String, Invocation)
    }

    /// Reads the words as the parser would, leniently (nothing is required
    /// yet): the command path, global options with values (`--data-dir`),
    /// and what the last word is.
    public func completionAsk(_ words: [String]) -> CompletionAsk {
        let typed = Array(words.dropLast())
        let cur = words.last ?? ""
        var inv = Invocation()
        var current: CommandSpec? = nil
        var list = commands
        var operands = 0
        var helpPath: [String]? = nil
        var pending: OptionSpec? = nil
        var i = 0
        while i < typed.count {
            let w = typed[i]
            let inScope = (current?.options ?? []) + globalOptions
            if w.count > 1 && w.hasPrefix("-") && !w.dropFirst().allSatisfy(\.isNumber) && w != "--" {
                var o: OptionSpec? = nil
                var inline = false
                if w.hasPrefix("--") {
                    let body = w.dropFirst(2)
                    let name = String(body.prefix { $0 != "=" })
                    inline = body.contains("=")
                    o = inScope.first { $0.answers(name) }
                    if let o, inline { inv.set(o.long, String(body.drop { $0 != "=" }.dropFirst())) }
                } else if let c = w.last {
                    o = inScope.first { $0.short == c }
                }
                if let o, o.takesValue, !inline {
                    if i + 1 < typed.count {
                        inv.set(o.long, typed[i + 1])
                        i += 2
                        continue
                    }
                    pending = o
                }
                i += 1
                continue
            }
            if helpPath != nil {
                helpPath!.append(w)
            } else if current == nil || (!current!.subcommands.isEmpty && operands == 0),
                      let c = list.first(where: { $0.name == w }) ?? list.first(where: { $0.aliases.contains(w) }) {
                current = c
                inv.command.append(c.name)
                list = c.subcommands
                if inv.command == ["help"] { helpPath = [] }
            } else {
                operands += 1
            }
            i += 1
        }
        if let o = pending {
            if case .values(let kind) = o.completion { return .values(kind, inv) }
            return .none
        }
        if cur.hasPrefix("-") { return .none }
        if let path = helpPath {
            if path.isEmpty { return .names(commands.map(\.name)) }
            guard let c = command(path) else { return .none }
            return .names(c.subcommands.map(\.name))
        }
        guard let c = current, !c.operandValues.isEmpty, c.subcommands.isEmpty || operands > 0 else { return .none }
        if let max = c.maxOperands, operands >= max { return .none }
        let kind = c.operandValues[min(operands, c.operandValues.count - 1)]
        return kind.isEmpty ? .none : .values(kind, inv)
    }
}

extension Runner {
    /// `TOOL __complete WORD...`: the candidates, one per line, that start
    /// with the last word; always status 0.
    static func complete(spec: ToolSpec, words: [String]) -> ExitCode {
        let cur = words.last ?? ""
        var found: [String] = []
        switch spec.completionAsk(words) {
        case .none: break
        case .names(let names): found = names
        case .values("zone", _):
            // Zone names for every --tz, from the system's tzdata.
            found = Zone.installedNames()
        case .values(let kind, let inv):
            guard let source = spec.values,
                  let c = try? context(spec: spec, invocation: inv, stdoutIsTerminal: false),
                  (try? DataOwner.check(tool: spec.name, dir: c.dataDir)) != nil else { break }
            found = (try? source(c, kind)) ?? []
        }
        // A value may carry a description after a tab (a reminder's title
        // beside its id): zsh and fish show it, bash keeps the value.
        var seen = Set<String>()
        var out = ""
        func control(_ u: Unicode.Scalar) -> Bool { u.value < 0x20 || u.value == 0x7F || (0x80...0x9F).contains(u.value) }
        for line in found {
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            let v = String(parts[0])
            guard v.hasPrefix(cur), !v.isEmpty, !seen.contains(v), !v.unicodeScalars.contains(where: control) else { continue }
            seen.insert(v)
            var d = parts.count > 1 ? String(String.UnicodeScalarView(parts[1].unicodeScalars.map { control($0) ? " " : $0 })) : ""
            if d.count > 60 { d = String(d.prefix(59)) + "…" }
            out += v + (d.isEmpty ? "" : "\t" + d) + "\n"
        }
        _ = Sys.writeAll(fd: 1, Array(out.utf8))
        return .ok
    }
}
