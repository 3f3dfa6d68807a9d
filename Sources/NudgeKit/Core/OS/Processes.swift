#if canImport(Glibc)
import Glibc
#endif

// The processes running on this machine, from /proc: who runs each (the
// owner of /proc/PID, its effective uid) and what it is called: its `comm`,
// the kernel's name for it, as pgrep and pkill match it. A comm of 15 bytes
// may be cut short, so for those the base name of argv[0] is read too (the
// full program name). Read without following anything a process controls
// beyond its own names; one buffer and paths relative to the /proc folder,
// as a cron job every minute over hundreds of processes should.

public struct RunningProcess: Equatable, Sendable {
    public var pid: Int32
    public var uid: UInt32
    /// The kernel's name for it (at most 15 bytes).
    public var comm: String
    /// The base name of argv[0] when `comm` may have been cut short, else "".
    public var exe: String
}

public enum Processes {
    /// The kernel keeps this many bytes of a name (TASK_COMM_LEN - 1).
    static let commLimit = 15

    /// Every process readable under `root` (default /proc), or those of `uids`.
    public static func list(root: String = "/proc", uids: Set<UInt32>? = nil) -> [RunningProcess] {
        guard let dir = opendir(root) else { return [] }
        defer { closedir(dir) }
        let dfd = dirfd(dir)
        var buf = [UInt8](repeating: 0, count: 4096)
        var out: [RunningProcess] = []
        while let ent = readdir(dir) {
            var pid: Int32 = 0
            var digits = 0
            let isPid = withUnsafeBytes(of: ent.pointee.d_name) { raw -> Bool in
                for c in raw {
                    if c == 0 { break }
                    guard c >= 0x30 && c <= 0x39, digits < 9 else { return false }
                    pid = pid * 10 + Int32(c - 0x30)
                    digits += 1
                }
                return digits > 0 && pid > 0
            }
            guard isPid else { continue }
            let name = String(pid)
            var st = stat()
            guard fstatat(dfd, name, &st, 0) == 0 else { continue }
            let uid = UInt32(st.st_uid)
            if let u = uids, !u.contains(uid) { continue }
            let c = small(dfd, name + "/comm", &buf)
            let comm = String(decoding: buf[0..<c].prefix { $0 != 0x0A }, as: UTF8.self)
            var exe = ""
            if comm.utf8.count >= commLimit {
                let n = small(dfd, name + "/cmdline", &buf)
                let argv0 = buf[0..<n].prefix { $0 != 0 }
                exe = String(decoding: argv0.split(separator: UInt8(ascii: "/")).last ?? [], as: UTF8.self)
            }
            out.append(RunningProcess(pid: pid, uid: uid, comm: comm, exe: exe))
        }
        return out.sorted { $0.pid < $1.pid }
    }

    /// Reads up to 4 KiB of a small /proc file into `buf`; the byte count (0
    /// when it cannot be read).
    static func small(_ dfd: Int32, _ path: String, _ buf: inout [UInt8]) -> Int {
        let fd = openat(dfd, path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 { return 0 }
        defer { close(fd) }
        let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return max(0, n)
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
