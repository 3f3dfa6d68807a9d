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
    /// For an interpreter with no script named (`sh -c '…'`, `python3 -`,
    /// `python3 -c '…'`): the file names in its code and the base names of
    /// the files it has open, a few dozen at most.
    public var also: [String] = []
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
    /// another, both allocated once: a minute's cron over hundreds of
    /// processes allocates a process its record and little more.)
    public static func list(root: String = "/proc", uids: Set<UInt32>? = nil) -> [RunningProcess] {
        guard let dir = opendir(root) else { return [] }
        defer { closedir(dir) }
        let dfd = dirfd(dir)
        let buf = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 4096)
        let link = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 4096)
        let path = UnsafeMutablePointer<CChar>.allocate(capacity: 32)
        defer { buf.deallocate(); link.deallocate(); path.deallocate() }
        let wanted = uids.map(Array.init)  // a few logins: a scan beats hashing
        var out: [RunningProcess] = []
        // The path "PID/name", NUL-terminated, after the pid's `digits`.
        func named(_ name: StaticString, _ digits: Int) {
            let n = name.utf8CodeUnitCount
            path[digits] = 0x2F
            memcpy(path + digits + 1, name.utf8Start, n)
            path[digits + 1 + n] = 0
        }
        // Up to 4 KiB of a small file into `buf`: the byte count (0 when it cannot be read).
        func readSmall(_ into: UnsafeMutableBufferPointer<UInt8>) -> Int {
            let fd = openat(dfd, path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            if fd < 0 { return 0 }
            defer { close(fd) }
            return max(0, read(fd, into.baseAddress, into.count))
        }
        while let ent = readdir(dir) {
            var pid: Int32 = 0
            var digits = 0
            let isPid: Bool = {
                let name = Sys.direntName(ent)
                var k = 0
                while name[k] != 0 {
                    let c = UInt8(bitPattern: name[k])
                    guard c >= 0x30 && c <= 0x39, digits < 9 else { return false }
                    pid = pid * 10 + Int32(c - 0x30)
                    path[digits] = CChar(bitPattern: c)
                    digits += 1
                    k += 1
                }
                return digits > 0 && pid > 0
            }()
            guard isPid else { continue }
            path[digits] = 0
            var st = stat()
            guard fstatat(dfd, path, &st, 0) == 0 else { continue }
            let uid = UInt32(st.st_uid)
            if let u = wanted, !u.contains(uid) { continue }
            named("comm", digits)
            let c = readSmall(buf)
            var end = 0
            while end < c && buf[end] != 0x0A { end += 1 }
            let comm = String(decoding: UnsafeBufferPointer(rebasing: buf[0..<end]), as: UTF8.self)
            var exe = ""
            if comm.utf8.count >= commLimit {
                named("cmdline", digits)
                let n = readSmall(buf)
                var e = 0
                while e < n && buf[e] != 0 { e += 1 }
                exe = baseName(UnsafeBufferPointer(rebasing: buf[0..<e]))
            }
            var p = RunningProcess(pid: pid, uid: uid, comm: comm, exe: exe)
            named("exe", digits)
            let ln = readlinkat(dfd, path, UnsafeMutableRawPointer(link.baseAddress!).assumingMemoryBound(to: CChar.self), 4095)
            if ln > 0 {
                // A replaced executable reads "/path (deleted)"; its base name.
                var e = ln
                let deleted: StaticString = " (deleted)"
                let d = deleted.utf8CodeUnitCount
                if ln >= d && memcmp(link.baseAddress! + (ln - d), deleted.utf8Start, d) == 0 { e -= d }
                p.binary = baseName(UnsafeBufferPointer(rebasing: link[0..<e]))
            }
            let interpreter = p.binary.isEmpty ? isInterpreter(ascii: UnsafeBufferPointer(rebasing: buf[0..<end])) : isInterpreter(p.binary)
            if interpreter ?? isInterpreter(comm) {
                named("cmdline", digits)
                let n = readSmall(buf)
                p.script = scriptName(UnsafeBufferPointer(rebasing: buf[0..<n]))
                if p.script.isEmpty {
                    p.also = codeWords(UnsafeBufferPointer(rebasing: buf[0..<n]))
                    named("fd", digits)
                    p.also += openFiles(dfd, path)
                }
            }
            out.append(p)
        }
        // In pid order: /proc lists them so; another folder is sorted by
        // pid (indices, not the records, are moved).
        var ordered = true
        for i in out.indices.dropFirst() where out[i - 1].pid > out[i].pid { ordered = false; break }
        if ordered { return out }
        // Each pid with its index in one number: plain integers to sort.
        var keys = out.indices.map { Int64(out[$0].pid) << 32 | Int64($0) }
        keys.sort()
        return keys.map { out[Int($0 & 0xFFFF_FFFF)] }
    }

    /// The last part of a path, as split(separator: "/").last: trailing
    /// slashes ignored, "" for none.
    static func baseName(_ b: UnsafeBufferPointer<UInt8>) -> String {
        var end = b.count
        while end > 0 && b[end - 1] == 0x2F { end -= 1 }
        var start = end
        while start > 0 && b[start - 1] != 0x2F { start -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self)
    }

    /// Whether a program's name is an interpreter's: one of `interpreters`,
    /// or one followed by a version ("python3.12", "bash5").
    static func isInterpreter(_ base: String) -> Bool {
        // A name's bytes where it keeps them (native strings do): no copy.
        if let answer = base.utf8.withContiguousStorageIfAvailable({ isInterpreter(ascii: $0) }), let a = answer { return a }
        return interpreters.contains(where: { base == $0 || (base.hasPrefix($0) && base.dropFirst($0.count).allSatisfy { $0.isNumber || $0 == "." }) })
    }

    /// The same for a name's bytes; nil when it is not ASCII (then the text
    /// rule above decides: its digits may be other scripts').
    static func isInterpreter(ascii b: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard let first = b.first else { return false }
        // Most names are let go at the first byte.
        guard first < 0x80, interpreterInitials[Int(first)] else { return false }
        for c in b where c >= 0x80 { return nil }
        // The name less its version ("python3.12": "python"), then one of the names.
        var end = b.count
        while end > 0 && ((b[end - 1] >= 0x30 && b[end - 1] <= 0x39) || b[end - 1] == 0x2E) { end -= 1 }
        let stem = UnsafeBufferPointer(rebasing: b[0..<end])
        return interpreterBytes.contains { $0.count == end && $0.withUnsafeBufferPointer { memcmp($0.baseAddress!, stem.baseAddress!, end) == 0 } }
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
    static let interpreterInitials = (0..<128).map { c in interpreters.contains { $0.utf8.first! == c } }
    static let interpreterBytes = interpreters.map { Array($0.utf8) }

    /// The base name of the first operand after argv[0] (options skipped,
    /// and the value of -c, -m, -e: code, not a file).
    /// The file names (words with a dot or a slash, by their base names) in
    /// the code given with -c or -e: `runpy.run_path("game.py")`, `python3 - < game.py`.
    static func codeWords(_ b: UnsafeBufferPointer<UInt8>) -> [String] {
        var args: [UnsafeBufferPointer<UInt8>] = []
        var start = 0
        for i in 0...b.count where i == b.count || b[i] == 0 {
            if i > start { args.append(UnsafeBufferPointer(rebasing: b[start..<i])) }
            start = i + 1
        }
        var out: [String] = []
        for (k, a) in args.enumerated().dropFirst() where k + 1 < args.count && a.count == 2 && a[0] == 0x2D && (a[1] == 0x63 || a[1] == 0x65) {
            let code = args[k + 1]
            var s = 0
            for i in 0...code.count {
                let c = i < code.count ? code[i] : 0x20
                let part = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2E || c == 0x5F || c == 0x2D || c == 0x2F || c >= 0x80
                if part { continue }
                if i > s {
                    let w = UnsafeBufferPointer(rebasing: code[s..<i])
                    if w.contains(0x2E) || w.contains(0x2F), out.count < 32 {
                        let name = baseName(w)
                        if !name.isEmpty && name != "." && name != ".." { out.append(name) }
                    }
                }
                s = i + 1
            }
        }
        return out
    }

    /// The base names of the files a process has open (its fd folder at
    /// `path` under `dfd`): files only, 64 at most.
    static func openFiles(_ dfd: Int32, _ path: UnsafePointer<CChar>) -> [String] {
        let fdDir = openat(dfd, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fdDir >= 0, let d = fdopendir(fdDir) else {
            if fdDir >= 0 { close(fdDir) }
            return []
        }
        defer { closedir(d) }
        var out: [String] = []
        var link = [UInt8](repeating: 0, count: 1024)
        var seen = 0
        while let ent = readdir(d), seen < 256, out.count < 64 {
            seen += 1
            let n = link.withUnsafeMutableBytes { readlinkat(dirfd(d), Sys.direntName(ent), $0.baseAddress!.assumingMemoryBound(to: CChar.self), 1023) }
            guard n > 1, link[0] == 0x2F else { continue }  // "/…": a file (not pipe:, socket:, anon_inode:)
            var target = link[0..<n]
            let deleted = Array(" (deleted)".utf8)
            if target.count > deleted.count && target.suffix(deleted.count).elementsEqual(deleted) { target = target.dropLast(deleted.count) }
            if target.starts(with: Array("/dev/".utf8)) || target.starts(with: Array("/proc/".utf8)) { continue }
            let name = target.withUnsafeBufferPointer { baseName($0) }
            if !name.isEmpty && !out.contains(name) { out.append(name) }
        }
        return out
    }

    static func scriptName(_ cmdline: ArraySlice<UInt8>) -> String {
        cmdline.withUnsafeBufferPointer { scriptName($0) }
    }

    static func scriptName(_ b: UnsafeBufferPointer<UInt8>) -> String {
        var i = 0
        while i < b.count && b[i] != 0 { i += 1 }  // argv[0]
        while i < b.count {
            i += 1
            let start = i
            while i < b.count && b[i] != 0 { i += 1 }
            if i == start { continue }
            let a = UnsafeBufferPointer(rebasing: b[start..<i])
            if a[0] == 0x2D {  // "-"
                // The value of -c, -e, -m, -W, -X is code or a module, not a file.
                if a.count == 2 {
                    switch a[1] {
                    case 0x63, 0x65, 0x6D, 0x57, 0x58: return ""
                    default: break
                    }
                }
                continue
            }
            return baseName(a)
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
        matches(Pattern(pattern), p)
    }

    /// A pattern made once to be matched against many processes.
    public struct Pattern: Sendable {
        let c: [CChar]
        /// One without `*`, `?`, `[` or `\`: its bytes, which fnmatch
        /// (FNM_CASEFOLD, in the C locale these tools run in) compares
        /// ignoring ASCII case, as `matches` does then without it.
        let literal: [UInt8]?

        public init(_ text: String) {
            c = Array(text.utf8CString)
            literal = text.utf8.contains { $0 == 0x2A || $0 == 0x3F || $0 == 0x5B || $0 == 0x5C } ? nil : Array(text.utf8)
        }
    }

    public static func matches(_ pattern: Pattern, _ p: RunningProcess) -> Bool {
        matches(pattern, name: p.comm) || matches(pattern, name: p.exe) || matches(pattern, name: p.binary) || matches(pattern, name: p.script)
            || p.also.contains { matches(pattern, name: $0) }
    }

    /// Whether a name (a process's, or one ActivityWatch reports, or a
    /// window's title) matches the pattern, ignoring ASCII case.
    public static func matches(_ pattern: Pattern, name n: String) -> Bool {
        let flags: Int32 = 1 << 4  // FNM_CASEFOLD
        func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
        if n.isEmpty { return false }
        if let l = pattern.literal {
            guard n.utf8.count == l.count else { return false }
            var i = 0
            for b in n.utf8 {
                if lower(b) != lower(l[i]) { return false }
                i += 1
            }
            return true
        }
        return pattern.c.withUnsafeBufferPointer { fnmatch($0.baseAddress!, n, flags) == 0 }
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
