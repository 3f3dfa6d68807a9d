// Completion scripts generated from the declaration, one generator per
// shell (Bash.swift, Zsh.swift, Fish.swift); the committed scripts under
// completions/ are their output, checked by a test.

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
        for p in allPaths { all += command(p)?.visibleOptions ?? [] }
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
            let os = (command(p)?.visibleOptions ?? []).filter(\.takesValue)
            return os.isEmpty ? nil : (p.joined(separator: " "), os)
        }
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
