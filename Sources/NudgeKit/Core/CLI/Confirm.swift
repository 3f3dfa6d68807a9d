// What every tool does before an action nothing can undo (erasing history,
// on this device and on every device that syncs): it runs only when the
// person means it. With --yes (-y) it runs; on a terminal (standard input
// and error both) without it, the tool asks and runs on "y" or "yes"; with
// neither, it is a usage error that names --yes, and nothing changes. The
// option is declared here so every tool spells it alike, and a test over
// the command specs checks that every erasing command carries it.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// `--yes`/`-y`, for every command that erases.
public let yesOption = OptionSpec("yes", short: "y", help: "Do it without asking (needed when not on a terminal)")

extension Context {
    /// Returns when the action may go ahead; throws 64 (no --yes, not on a
    /// terminal) or 1 (the person said no). `command` is what to type again.
    public func confirm(_ question: String, command: String) throws(ToolError) {
        if flag("yes") { return }
        guard Sys.isTerminal(0) && Sys.isTerminal(2) else {
            throw ToolError(.usage, "'\(command)' cannot be undone: run it with --yes (on a terminal it asks)")
        }
        try ask(question)
    }

    /// Before an everyday delete nothing undoes (`yomo rm`, `habitmatch
    /// unmatch`), as Taskwarrior and todoman do: on a terminal it asks
    /// (unless --yes) and a "no" changes nothing and exits 1; a script (no
    /// terminal) goes ahead.
    public func confirmOnTerminal(_ question: String) throws(ToolError) {
        if flag("yes") || !(Sys.isTerminal(0) && Sys.isTerminal(2)) { return }
        try ask(question)
    }

    /// Before keeping what was read from a person's words with a guess in
    /// it (`yomo add` "at 4": 16:00?), as Todoist's quick add shows its
    /// reading: on a terminal (unless --yes) it asks, Enter or "y" keeps it,
    /// "n" changes nothing and exits 1; a script (no terminal) goes ahead.
    /// Returns whether it asked.
    @discardableResult
    public func confirmReadingOnTerminal(_ question: String) throws(ToolError) -> Bool {
        if flag("yes") || !(Sys.isTerminal(0) && Sys.isTerminal(2)) { return false }
        _ = Sys.writeAll(fd: 2, Array("\(Text.terminalSafe(question)) [Y/n] ".utf8))
        var buf = [UInt8](repeating: 0, count: 64)
        let n = read(0, &buf, 64)
        let answer = n > 0 ? String(decoding: buf[0..<n], as: UTF8.self).trimmingSpaces.lowercased() : ""
        guard n > 0, answer.isEmpty || answer == "y" || answer == "yes" else { throw ToolError(.no, "nothing changed") }
        return true
    }

    private func ask(_ question: String) throws(ToolError) {
        _ = Sys.writeAll(fd: 2, Array("\(Text.terminalSafe(question)) [y/N] ".utf8))
        var buf = [UInt8](repeating: 0, count: 64)
        let n = read(0, &buf, 64)
        let answer = n > 0 ? String(decoding: buf[0..<n], as: UTF8.self).trimmingSpaces.lowercased() : ""
        guard answer == "y" || answer == "yes" else { throw ToolError(.no, "nothing changed") }
    }
}
