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
    /// (Paths are made in one buffer, "PID/NAME", and names read into
    /// another: a minute's cron over hundreds of processes allocates
    /// little per process.)
    public static func list(root: String = "/proc", uids: Set<UInt32>? = nil) -> [RunningProcess] {
        guard let dir = opendir(root) else { return [] }
        defer { closedir(dir) }
        let dfd = dirfd(dir)
        var buf = [UInt8](repeating: 0, count: 4096)
        var link = [UInt8](repeating: 0, count: 4096)
        var path = [CChar](repeating: 0, count: 32)
        let deleted = Array(" (deleted)".utf8)
        var out: [RunningProcess] = []
        while let ent = readdir(dir) {
            var pid: Int32 = 0
            var digits = 0
            let isPid = withUnsafeBytes(of: ent.pointee.d_name) { raw -> Bool in
                for c in raw {
                    if c == 0 { break }
                    guard c >= 0x30 && c <= 0x39, digits < 9 else { return false }
                    pid = pid * 10 + Int32(c - 0x30)
                    path[digits] = CChar(bitPattern: c)
                    digits += 1
                }
                return digits > 0 && pid > 0
            }
            guard isPid else { continue }
            // The path "PID", or "PID/name" (`name`), NUL-terminated.
            func named(_ name: StaticString) {
                let n = name.utf8CodeUnitCount
                path.withUnsafeMutableBytes { p in
                    p[digits] = 0x2F
                    memcpy(p.baseAddress! + digits + 1, name.utf8Start, n)
                    p[digits + 1 + n] = 0
                }
            }
            path[digits] = 0
            var st = stat()
            guard fstatat(dfd, path, &st, 0) == 0 else { continue }
            let uid = UInt32(st.st_uid)
            if let u = uids, !u.contains(uid) { continue }
            named("comm")
            let c = small(dfd, path, &buf)
            let comm = String(decoding: buf[0..<(buf[0..<c].firstIndex(of: 0x0A) ?? c)], as: UTF8.self)
            var exe = ""
            if comm.utf8.count >= commLimit {
                named("cmdline")
                let n = small(dfd, path, &buf)
                let argv0 = buf[0..<n].prefix { $0 != 0 }
                exe = String(decoding: argv0.split(separator: UInt8(ascii: "/")).last ?? [], as: UTF8.self)
            }
            var p = RunningProcess(pid: pid, uid: uid, comm: comm, exe: exe)
            named("exe")
            let ln = link.withUnsafeMutableBytes { readlinkat(dfd, path, $0.baseAddress!.assumingMemoryBound(to: CChar.self), 4095) }
            if ln > 0 {
                // A replaced executable reads "/path (deleted)"; its base name, as split(separator: "/").last.
                var end = ln
                if ln >= deleted.count && link[(ln - deleted.count)..<ln].elementsEqual(deleted) { end -= deleted.count }
                while end > 0 && link[end - 1] == 0x2F { end -= 1 }
                let slash = link[0..<end].lastIndex(of: 0x2F).map { $0 + 1 } ?? 0
                p.binary = String(decoding: link[slash..<end], as: UTF8.self)
            }
            if isInterpreter(p.binary.isEmpty ? comm : p.binary) {
                named("cmdline")
                let n = small(dfd, path, &buf)
                p.script = scriptName(buf[0..<n])
            }
            out.append(p)
        }
        return out.sorted { $0.pid < $1.pid }
    }

    /// Whether a program's name is an interpreter's: one of `interpreters`,
    /// or one followed by a version ("python3.12", "bash5").
    static func isInterpreter(_ base: String) -> Bool {
        let b = base.utf8
        guard let first = b.first, interpreterInitials.contains(first) else { return false }
        // An ASCII name by its bytes (its digits are the only numbers in it).
        if !b.contains(where: { $0 >= 0x80 }) {
            return interpreterBytes.contains { name in
                b.count >= name.count && b.prefix(name.count).elementsEqual(name)
                    && b.dropFirst(name.count).allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }
            }
        }
        return interpreters.contains(where: { base == $0 || (base.hasPrefix($0) && base.dropFirst($0.count).allSatisfy { $0.isNumber || $0 == "." }) })
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
    /// Their first bytes: most names are let go at the first.
    static let interpreterInitials = Set(interpreters.map { $0.utf8.first! })
    static let interpreterBytes = interpreters.map { Array($0.utf8) }

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
    static func small(_ dfd: Int32, _ path: UnsafePointer<CChar>, _ buf: inout [UInt8]) -> Int {
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
        func named(_ n: String) -> Bool { !n.isEmpty && fnmatch(pattern, n, flags) == 0 }
        return named(p.comm) || named(p.exe) || named(p.binary) || named(p.script)
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
