#if canImport(Glibc)
import Glibc
#endif

// The processes running on this machine, from /proc: who runs each (the
// owner of /proc/PID, its effective uid) and what it is called: its `comm`,
// the kernel's name for it, as pgrep and pkill match it. A comm of 15 bytes
// may be cut short, so for those the base name of argv[0] is read too (the
// full program name). Its executable (the /proc/PID/exe link, which a
// process cannot rename: `exec -a` and PR_SET_NAME change only its names),
// and for an interpreter (python3, bash, …) the script it runs, are read
// too, as are its parent and process group, so that a matched process can
// be ended with what it started (`tree`). Read without following anything a
// process controls beyond its own names; one buffer and paths relative to
// the /proc folder, as a cron job every minute over hundreds of processes
// should.
//
// What still escapes: a process that leaves its group (setsid, setpgid)
// after its parent is gone, runs an executable and a script under names no
// pattern lists, or is started outside the login (another uid).

public struct RunningProcess: Equatable, Sendable {
    public var pid: Int32
    public var uid: UInt32
    /// The kernel's name for it (at most 15 bytes).
    public var comm: String
    /// The base name of argv[0] when `comm` may have been cut short, else "".
    public var exe: String
    /// The base name of the executable (/proc/PID/exe), "" when unreadable.
    public var binary = ""
    /// For an interpreter, the base name of the script it runs, else "".
    public var script = ""
    /// Its parent and its process group (0 until `withLineage` reads them).
    public var ppid: Int32 = 0
    public var pgid: Int32 = 0

    public init(pid: Int32, uid: UInt32, comm: String, exe: String) {
        self.pid = pid
        self.uid = uid
        self.comm = comm
        self.exe = exe
    }
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
            var p = RunningProcess(pid: pid, uid: uid, comm: comm, exe: exe)
            var link = [CChar](repeating: 0, count: 4096)
            let ln = readlinkat(dfd, name + "/exe", &link, 4095)
            if ln > 0 {
                let full = String(decoding: link[0..<ln].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                // A replaced executable reads "/path (deleted)".
                let path = full.hasSuffix(" (deleted)") ? String(full.dropLast(10)) : full
                p.binary = String(path.split(separator: "/").last ?? "")
            }
            let base = p.binary.isEmpty ? comm : p.binary
            if interpreters.contains(where: { base == $0 || (base.hasPrefix($0) && base.dropFirst($0.count).allSatisfy { $0.isNumber || $0 == "." }) }) {
                let n = small(dfd, name + "/cmdline", &buf)
                p.script = scriptName(buf[0..<n])
            }
            out.append(p)
        }
        return out.sorted { $0.pid < $1.pid }
    }

    /// The same processes with their parent and group read (/proc/PID/stat):
    /// only when something is to be ended, so a run that ends nothing pays
    /// nothing for it.
    public static func withLineage(_ ps: [RunningProcess], root: String = "/proc") -> [RunningProcess] {
        ps.map { p in
            var q = p
            guard let s = small(root + "/\(p.pid)/stat"), let close = s.lastIndex(of: UInt8(ascii: ")")) else { return q }
            let fields = s[(close + 1)...].split(separator: UInt8(ascii: " "))
            if fields.count > 3 {
                q.ppid = Int32(String(decoding: fields[1], as: UTF8.self)) ?? 0
                q.pgid = Int32(String(decoding: fields[2], as: UTF8.self)) ?? 0
            }
            return q
        }
    }

    /// Programs that run a script named on their command line.
    static let interpreters = ["python", "bash", "sh", "dash", "zsh", "ksh", "fish", "perl", "ruby", "node", "lua", "php", "tclsh", "wish"]

    /// The base name of the first operand after argv[0] (options skipped,
    /// and the value of -c, -m, -e: code, not a file).
    static func scriptName(_ cmdline: ArraySlice<UInt8>) -> String {
        let args = cmdline.split(separator: 0, omittingEmptySubsequences: false).dropFirst()
        var skipNext = false
        for a in args where !a.isEmpty {
            let s = String(decoding: a, as: UTF8.self)
            if skipNext { skipNext = false; continue }
            if s.hasPrefix("-") {
                if s == "-c" || s == "-e" || s == "-m" || s == "-W" || s == "-X" { return "" }
                continue
            }
            return String(s.split(separator: "/").last ?? "")
        }
        return ""
    }

    /// The matched processes with what they started: their descendants,
    /// and the members of each process group a matched process leads, of
    /// the same uid only (from `all`, one listing).
    public static func tree(_ matched: [RunningProcess], in all: [RunningProcess]) -> [RunningProcess] {
        var chosen = Set(matched.map(\.pid))
        let leaders = Set(matched.filter { $0.pgid == $0.pid }.map { "\($0.uid):\($0.pgid)" })
        let uids = Set(matched.map(\.uid))
        var changed = true
        while changed {
            changed = false
            for p in all where !chosen.contains(p.pid) && uids.contains(p.uid)
                && (chosen.contains(p.ppid) || leaders.contains("\(p.uid):\(p.pgid)")) {
                chosen.insert(p.pid)
                changed = true
            }
        }
        return all.filter { chosen.contains($0.pid) } + matched.filter { m in !all.contains { $0.pid == m.pid } }
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

    /// Whether a shell pattern (`*`, `?`, `[…]`; case ignored) names the
    /// process: its kernel name, its full program name, its executable, or
    /// the script an interpreter runs.
    public static func matches(_ pattern: String, _ p: RunningProcess) -> Bool {
        let flags: Int32 = 1 << 4  // FNM_CASEFOLD
        let names: [String] = [p.comm, p.exe, p.binary, p.script]
        return names.contains { (n: String) -> Bool in !n.isEmpty && fnmatch(pattern, n, flags) == 0 }
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
