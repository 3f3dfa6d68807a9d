#if canImport(Glibc)
import Glibc
#endif

// The processes running on this machine, from /proc: who runs each (the
// owner of /proc/PID, its effective uid) and what it is called (its
// `comm`, and the base name of its first argument). Read without following
// anything a process controls beyond its own names.

public struct RunningProcess: Equatable, Sendable {
    public var pid: Int32
    public var uid: UInt32
    /// The kernel's name for it (at most 15 bytes).
    public var comm: String
    /// The base name of argv[0], which may be longer (or chosen by the program).
    public var exe: String
}

public enum Processes {
    /// Every process readable under `root` (default /proc), or those of `uids`.
    public static func list(root: String = "/proc", uids: Set<UInt32>? = nil) -> [RunningProcess] {
        guard let dir = opendir(root) else { return [] }
        defer { closedir(dir) }
        var out: [RunningProcess] = []
        while let ent = readdir(dir) {
            let name = withUnsafeBytes(of: ent.pointee.d_name) { raw -> String in
                let b = raw.bindMemory(to: UInt8.self)
                let n = b.firstIndex(of: 0) ?? b.count
                return String(decoding: UnsafeBufferPointer(rebasing: b[0..<n]), as: UTF8.self)
            }
            guard let pid = Int32(name), pid > 0 else { continue }
            var st = stat()
            guard stat(root + "/" + name, &st) == 0 else { continue }
            let uid = UInt32(st.st_uid)
            if let u = uids, !u.contains(uid) { continue }
            let comm = small(root + "/" + name + "/comm").map { String(decoding: $0.prefix { $0 != 0x0A }, as: UTF8.self) } ?? ""
            let argv0 = small(root + "/" + name + "/cmdline").map { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } ?? ""
            let exe = argv0.split(separator: "/").last.map(String.init) ?? ""
            out.append(RunningProcess(pid: pid, uid: uid, comm: comm, exe: exe))
        }
        return out.sorted { $0.pid < $1.pid }
    }

    /// The first 4 KiB of a small /proc file.
    static func small(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 { return nil }
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
        return n < 0 ? nil : Array(buf[0..<n])
    }

    /// Whether a shell pattern (`*`, `?`, `[…]`; case ignored) names the process.
    public static func matches(_ pattern: String, _ p: RunningProcess) -> Bool {
        let flags: Int32 = 1 << 4  // FNM_CASEFOLD
        return fnmatch(pattern, p.comm, flags) == 0 || (!p.exe.isEmpty && fnmatch(pattern, p.exe, flags) == 0)
    }

    /// Whether `pid` is still the process `p` (same owner and name): a pid
    /// that was reused is never signalled.
    public static func stillThe(_ p: RunningProcess, root: String = "/proc") -> Bool {
        var st = stat()
        guard stat(root + "/\(p.pid)", &st) == 0, UInt32(st.st_uid) == p.uid else { return false }
        let comm = small(root + "/\(p.pid)/comm").map { String(decoding: $0.prefix { $0 != 0x0A }, as: UTF8.self) } ?? ""
        return comm == p.comm
    }

    /// Ends processes: SIGTERM, then SIGKILL for those still there after
    /// `graceMillis`. Returns the pids that were signalled.
    @discardableResult
    public static func end(_ ps: [RunningProcess], graceMillis: Int, root: String = "/proc") -> [Int32] {
        var sent: [RunningProcess] = []
        for p in ps where stillThe(p, root: root) {
            if kill(p.pid, SIGTERM) == 0 { sent.append(p) }
        }
        var waited = 0
        while waited < graceMillis && sent.contains(where: { stillThe($0, root: root) && !isZombie($0.pid, root: root) }) {
            usleep(100_000)
            waited += 100
        }
        for p in sent where stillThe(p, root: root) && !isZombie(p.pid, root: root) { kill(p.pid, SIGKILL) }
        return sent.map(\.pid)
    }

    static func isZombie(_ pid: Int32, root: String) -> Bool {
        guard let s = small(root + "/\(pid)/stat"), let close = s.lastIndex(of: UInt8(ascii: ")")), close + 2 < s.count else { return false }
        return s[close + 2] == UInt8(ascii: "Z")
    }
}
