// The configuration file: $XDG_CONFIG_HOME/TOOL/config, `key = value` lines,
// `#` comments, a trailing `\` continues a line. Unknown keys and malformed
// lines are configuration errors (78).

public struct Config: Sendable, Equatable {
    public var values: [String: String] = [:]
    public var path: String

    public subscript(key: String) -> String? { values[key] }

    /// Keys every tool accepts, whatever its own.
    public static let familyKeys = ["sync_dir", "signing_key"]

    public static func parse(_ text: String, path: String, known: [String]) throws(ToolError) -> Config {
        var c = Config(path: path)
        var pending = ""
        var pendingStart = 0
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = String(raw).trimmingSpaces
            if pending.isEmpty && (line.isEmpty || line.hasPrefix("#")) { continue }
            if pending.isEmpty { pendingStart = n }
            if line.hasSuffix("\\") {
                line.removeLast()
                pending += line + " "
                continue
            }
            line = pending + line
            pending = ""
            let lineNo = pendingStart + 1
            guard let eq = line.firstIndex(of: "=") else {
                throw ToolError(.config, "\(path):\(lineNo): expected 'key = value'")
            }
            let key = String(line[..<eq]).trimmingSpaces
            let value = String(line[line.index(after: eq)...]).trimmingSpaces
            guard known.contains(key) || familyKeys.contains(key) else {
                throw ToolError(.config, "\(path):\(lineNo): unknown setting '\(key)' (known: \((known + familyKeys).joined(separator: ", ")))")
            }
            c.values[key] = value
        }
        if !pending.isEmpty { throw ToolError(.config, "\(path):\(pendingStart + 1): the last line ends with '\\' and nothing follows") }
        return c
    }

    /// Loads the file if it exists; a missing file is an empty configuration.
    public static func load(directory: String, known: [String]) throws(ToolError) -> Config {
        let path = Sys.join(directory, "config")
        guard let bytes = try Sys.readFile(path) else { return Config(path: path) }
        return try parse(String(decoding: bytes, as: UTF8.self), path: path, known: known)
    }

    /// One family-wide key, without judging the tool's own keys (those are
    /// checked by the commands that use them).
    public static func familyValue(_ key: String, directory: String) throws(ToolError) -> String? {
        let path = Sys.join(directory, "config")
        guard let bytes = try Sys.readFile(path) else { return nil }
        var c = Config(path: path)
        for (n, raw) in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw).trimmingSpaces
            guard !line.hasPrefix("#"), let eq = line.firstIndex(of: "="), String(line[..<eq]).trimmingSpaces == key else { continue }
            let v = String(line[line.index(after: eq)...]).trimmingSpaces
            if v.isEmpty { throw ToolError(.config, "\(path):\(n + 1): \(key) needs a value") }
            c.values[key] = v
        }
        return c.values[key]
    }
}

extension Config {
    /// TOOL_LOCK_TIMEOUT: how long a writer waits for another run's lock, in
    /// seconds (fractions allowed), as milliseconds; nil when unset or empty.
    /// Anything else is bad configuration (78), named, never ignored.
    public static func lockTimeoutMillis(tool: String) throws(ToolError) -> Int? {
        let name = tool.uppercased() + "_LOCK_TIMEOUT"
        guard let raw = Sys.env(name), !raw.isEmpty else { return nil }
        guard let seconds = Double(raw.trimmingSpaces), seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
            throw ToolError(.config, "\(name) must be a number of seconds, not '\(raw)'")
        }
        return Int((seconds * 1000).rounded())
    }
}
