// Which tool a data directory belongs to. Two tools pointed at one folder
// would read each other's snapshot as damaged and fold each other's
// journals, so each directory says whose it is, in a file named `tool`
// holding the tool's name, written by the first command that finds the
// directory there without one. A tool run on another's directory is a
// bad configuration (78) naming that tool, before anything is read or
// written. A directory from before the file existed is known by its
// snapshot's first line ("tool" there). The file is read without following
// a symlink or blocking, at most 64 bytes; one that cannot be read says
// nothing, and the store's own checks still apply.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

public enum DataOwner {
    /// The file's name in the data directory.
    public static let fileName = "tool"

    /// The refusal for `tool` in `dir`, given what the directory says: its
    /// `tool` file and its snapshot's first line. Nil when it may go on.
    public static func verdict(tool: String, dir: String, marker: String?, snapshotHead: String?) -> ToolError? {
        let owner = marker.map { $0.trimmingSpaces }.flatMap { $0.isEmpty ? nil : $0 } ?? snapshotHead.flatMap(snapshotTool)
        guard let owner, owner != tool else { return nil }
        return ToolError(.config, "\(Text.terminalSafe(dir)) is \(Text.terminalSafe(owner))'s data directory: give \(tool) one of its own (--data-dir, \(tool.uppercased())_DATA_DIR)")
    }

    /// The `"tool":"NAME"` of a snapshot's first line.
    static func snapshotTool(_ head: String) -> String? {
        guard let line = head.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first,
              line.hasPrefix("{\"type\":\"snapshot\""), let r = line.firstRange(of: "\"tool\":\"") else { return nil }
        let name = line[r.upperBound...].prefix { $0 != "\"" }
        return name.isEmpty ? nil : String(name)
    }

    /// Refuses `dir` when another tool's.
    public static func check(tool: String, dir: String) throws(ToolError) {
        let marker = head(Sys.join(dir, fileName), 64)
        let snapshot = marker == nil ? head(Sys.join(dir, "snapshot.ndjson"), 256) : nil
        if let e = verdict(tool: tool, dir: dir, marker: marker, snapshotHead: snapshot) { throw e }
    }

    /// Writes the `tool` file when `dir` exists without one (0600, never
    /// over anything; a failure is silent: the file is a courtesy).
    public static func claim(tool: String, dir: String) {
        guard Sys.isDirectory(dir) else { return }
        let fd = open(Sys.join(dir, fileName), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        _ = Sys.writeAll(fd: fd, Array((tool + "\n").utf8))
        close(fd)
    }

    /// Up to `cap` bytes from the start of a regular file; nil when absent
    /// or unreadable.
    static func head(_ path: String, _ cap: Int) -> String? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        var buf = [UInt8](repeating: 0, count: cap)
        let n = read(fd, &buf, cap)
        return n > 0 ? String(decoding: buf[0..<n], as: UTF8.self) : nil
    }
}
