// Files that may have been written by somebody else: the journals of a shared
// or synced folder, and the data directory itself when a `sudo` run or a
// wrong `--data-dir` left it in an odd state.
//
// Invariants: a peer file is opened with O_NOFOLLOW | O_NONBLOCK, must be a
// regular file when opened (fstat on the descriptor, not the path), and is
// read up to a cap; a symlink, FIFO, device or directory is never read. "Does
// not exist" reads as empty; "cannot be read" is an error naming the path:
// exit 77 for a permission problem, 74 for any other I/O failure.

/// What a folder entry is, from `fstatat(..., AT_SYMLINK_NOFOLLOW)`.
public struct DirEntry: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case regular, directory, symlink, fifo, other }
    public var name: String
    public var size: Int
    public var uid: UInt32
    public var mode: UInt32
    public var kind: Kind
    /// When the kernel last saw the entry change (ctime, ns): unlike the
    /// modification time, its owner cannot set it.
    public var changed: Int64 = 0
    /// The modification time (ns), which the file's owner can set.
    public var modified: Int64 = 0
    public var inode: UInt64 = 0

    public var kindName: String {
        switch kind {
        case .regular: return "a regular file"
        case .directory: return "a directory"
        case .symlink: return "a symbolic link"
        case .fifo: return "a FIFO"
        case .other: return "a device or socket"
        }
    }
}

extension DirEntry {
    /// An entry as `lstat`/`fstatat` without following describe it.
    public init(name: String, stat st: stat) {
        let kind: Kind
        switch st.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symlink
        case S_IFIFO: kind = .fifo
        default: kind = .other
        }
        self.init(name: name, size: Int(st.st_size), uid: UInt32(st.st_uid), mode: UInt32(st.st_mode & 0o7777), kind: kind,
                  changed: Sys.ctimeNanos(st), modified: Sys.mtimeNanos(st), inode: UInt64(st.st_ino))
    }
}

/// The state of a path, without following a final symlink.
public enum PathState: Equatable, Sendable {
    case missing
    case directory(uid: UInt32, mode: UInt32)
    case other(DirEntry.Kind)
}

extension Sys {
    /// The error for a failed open/read of `path`: 77 for permission, 74 otherwise.
    public static func accessError(_ path: String, _ e: Int32 = errno, verb: String = "read") -> ToolError {
        let code: ExitCode = (e == EACCES || e == EPERM) ? .noPermission : .ioError
        var msg = "cannot \(verb) \(path): \(errnoString(e))"
        if code == .noPermission, let owner = ownerHint(path) { msg += owner }
        return ToolError(code, msg)
    }

    /// Why `path` (or the first of its parents that exists) is closed to
    /// this user, and the one safe fix: a folder shared with a group they
    /// are not in says so (never "chown", which would hand one user what the
    /// group shares); root's leftovers are given back only in a folder of
    /// the user's own or inside their home (from the password database, not
    /// $HOME).
    static func ownerHint(_ path: String) -> String? {
        let me = UInt32(geteuid())
        var gids = [gid_t](repeating: 0, count: 256)
        let n = getgroups(Int32(gids.count), &gids)
        let groups = Set((n > 0 ? Array(gids[0..<Int(n)]) : []) + [getegid()]).map { UInt32($0) }
        let home = getpwuid(geteuid()).flatMap { $0.pointee.pw_dir.map { String(cString: $0) } }
        return ownerHint(path, me: me, groups: Set(groups), home: home, login: loginName())
    }

    static func ownerHint(_ path: String, me: UInt32, groups: Set<UInt32>, home: String?, login: String) -> String? {
        var p = path
        var st = stat()
        while lstat(p, &st) != 0 {
            let up = parentDirectory(p)
            if up == p { return nil }
            p = up
        }
        guard UInt32(st.st_uid) != me else { return nil }
        let mode = UInt32(st.st_mode) & 0o777
        // Shared with a group: the group may do more than everyone else.
        if (mode >> 3) & 0o7 & ~(mode & 0o7) != 0, !groups.contains(UInt32(st.st_gid)) {
            let group = getgrgid(st.st_gid).flatMap { $0.pointee.gr_name.map { String(cString: $0) } } ?? "\(st.st_gid)"
            return " (shared with the group \(group), which you are not in: ask the administrator (usermod -aG \(group) \(login)), then log in again)"
        }
        let owner = Users.name(of: UInt32(st.st_uid)) ?? "uid \(st.st_uid)"
        // Root's leftovers in a folder of the user's own, or in their home.
        var parent = stat()
        let inOwnFolder = lstat(parentDirectory(p), &parent) == 0 && UInt32(parent.st_uid) == me
        let inHome = home.map { h in h != "/" && p.hasPrefix(h + "/") && !p.contains("/../") } ?? false
        // (Not in a sticky folder several logins share: each file there is
        // its owner's, and giving root's away would drop what root wrote.)
        if st.st_uid == 0, inOwnFolder || inHome, parent.st_mode & S_ISVTX == 0 {
            return " (owned by root: left by a sudo run? fix: sudo chown -R \(login) \(p))"
        }
        return " (owned by \(owner); ask them, or use a data directory of your own)"
    }

    /// What tells one version of a file from the next when files are
    /// replaced by rename: device, inode, size and change time (lstat);
    /// nil when there is no file.
    public struct FileIdentity: Equatable, Sendable {
        var device: UInt64, inode: UInt64, size: Int64, ctimeNanos: Int64
    }

    public static func fileIdentity(_ path: String) -> FileIdentity? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size), ctimeNanos: ctimeNanos(st))
    }

    /// A stat's ctime in nanoseconds (the kernel's; its owner cannot set it).
    public static func mtimeNanos(_ st: stat) -> Int64 {
        #if canImport(Darwin)
        Int64(st.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st.st_mtimespec.tv_nsec)
        #else
        Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        #endif
    }

    public static func ctimeNanos(_ st: stat) -> Int64 {
        #if canImport(Darwin)
        Int64(st.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(st.st_ctimespec.tv_nsec)
        #else
        Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
        #endif
    }

    public static func pathState(_ path: String) throws(ToolError) -> PathState {
        var st = stat()
        if lstat(path, &st) != 0 {
            if errno == ENOENT { return .missing }
            // A parent we may not enter, or a file where a folder should be.
            throw accessError(path)
        }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return .directory(uid: UInt32(st.st_uid), mode: UInt32(st.st_mode & 0o7777))
        case S_IFLNK:
            // A data directory given as a symlink to a folder is the user's choice; follow it once.
            var t = stat()
            if stat(path, &t) == 0 && (t.st_mode & S_IFMT) == S_IFDIR {
                return .directory(uid: UInt32(t.st_uid), mode: UInt32(t.st_mode & 0o7777))
            }
            return .other(.symlink)
        case S_IFREG: return .other(.regular)
        case S_IFIFO: return .other(.fifo)
        default: return .other(.other)
        }
    }

    /// The entries of a folder with their kind, size and owner, sorted by
    /// name; nil when the folder does not exist. One `fstatat` per entry,
    /// relative to the open folder, for the names `keep` accepts (all by
    /// default): a folder of thousands costs little when few are wanted.
    public static func scanDirectory(_ path: String, suffix: String? = nil,
                                     keep: ((String) -> Bool)? = nil) throws(ToolError) -> [DirEntry]? {
        let dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd < 0 {
            if errno == ENOENT { return nil }
            throw accessError(path)
        }
        guard let d = fdopendir(dfd) else {
            let e = errno
            close(dfd)
            throw accessError(path, e)
        }
        defer { closedir(d) }
        var out: [DirEntry] = []
        while let e = readdir(d) {
            let name = String(cString: Sys.direntName(e))
            if name == "." || name == ".." { continue }
            if let s = suffix, !name.hasSuffix(s) { continue }
            if let k = keep, !k(name) { continue }
            var st = stat()
            guard fstatat(dfd, name, &st, Int32(AT_SYMLINK_NOFOLLOW)) == 0 else { continue }
            out.append(DirEntry(name: name, stat: st))
        }
        out.sort { $0.name < $1.name }
        return out
    }

    /// One entry of a folder, as `scanDirectory` gives it; nil when it is gone.
    public static func entry(in dir: String, _ name: String) -> DirEntry? {
        var st = stat()
        guard lstat(join(dir, name), &st) == 0 else { return nil }
        return DirEntry(name: name, stat: st)
    }

    /// A small file by a name anybody may have written (a zone's path in
    /// a peer's event, TZ): symlinks followed, as the system's own zone
    /// files are linked, but nil unless it is a regular file of at most
    /// `cap` bytes; never blocks on a FIFO or reads a device without end.
    public static func readSmallRegularFile(_ path: String, cap: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) <= cap else { return nil }
        return try? readAt(fd: fd, offset: 0, count: Int(st.st_size), path: path)
    }

    /// Reads a file that may be hostile: never follows a symlink, never
    /// blocks on a FIFO, refuses anything but a regular file owned by
    /// `owner` (when given), and reads at most `cap` bytes from `offset`.
    /// Returns the bytes and the file's size when opened.
    public static func readPeerFile(_ path: String, from offset: Int, cap: Int,
                                    owner: UInt32? = nil) throws(ToolError) -> (bytes: [UInt8], size: Int)? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT || errno == ELOOP { return nil }
            throw accessError(path)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw accessError(path) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        if let o = owner, UInt32(st.st_uid) != o { return nil }
        let size = Int(st.st_size)
        let want = max(0, min(size - offset, cap))
        let bytes = try readAt(fd: fd, offset: offset, count: want, path: path)
        return (bytes, size)
    }

    /// The login name of the effective uid, from the password database; the
    /// environment (`$USER`) is never consulted.
    public static func loginName() -> String {
        Users.name(of: UInt32(geteuid())) ?? "uid\(geteuid())"
    }

    /// A name of one's own in a folder others may write in: `base + ext` when
    /// it is free or `mine`, else an earlier `base~N + ext` that is `mine`,
    /// else a new `base~N + ext` with a random N — so no squatter, however
    /// many names they take, keeps anyone out. Relative to `dir`.
    public static func claimName(in dir: String, base: String, ext: String, mine: (stat) -> Bool) -> String {
        var st = stat()
        let first = base + ext
        if lstat(join(dir, first), &st) != 0 || mine(st) { return first }
        let prefix = (base.split(separator: "/").last.map(String.init) ?? base) + "~"
        let folder = parentDirectory(join(dir, first))
        let relFolder = base.contains("/") ? String(base[..<base.lastIndex(of: "/")!]) + "/" : ""
        if let entries = try? scanDirectory(folder) {
            for e in entries where e.name.hasPrefix(prefix) && e.name.hasSuffix(ext) {
                if lstat(join(folder, e.name), &st) == 0 && mine(st) { return relFolder + e.name }
            }
        }
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let candidate = base + "~\(Int.random(in: 10...99_999_999, using: &rng))" + ext
            if lstat(join(dir, candidate), &st) != 0 { return candidate }
        }
        return first
    }

    /// Stale `NAME.tmp-PID` files in a folder whose writer process is gone
    /// (every such file when `prefix` is nil).
    public static func removeStaleTemporaries(in dir: String, prefix: String? = nil) {
        // Only names of temporaries are stat'ed (a folder may hold thousands of others).
        guard let entries = try? scanDirectory(dir, keep: { StoreOptions.bytesContain($0, ".tmp-") }) else { return }
        for e in entries where e.kind == .regular {
            // NAME.tmp-PID: split at the last ".tmp-".
            let parts = e.name.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count >= 2, let last = parts.last, last.hasPrefix("tmp-") else { continue }
            let name = parts.dropLast().joined(separator: ".")
            if let p = prefix, name != p { continue }
            guard let pid = Int32(last.dropFirst(4)), pid > 0 else { continue }
            if pid == getpid() { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(join(dir, e.name)) }
        }
    }
}

/// The password database, looked up once per name or uid per process.
public enum Users {
    /// What was looked up, both ways; nil: no such uid or name.
    struct Table {
        var byUID: [UInt32: String?] = [:]
        var byName: [String: UInt32?] = [:]
    }
    static let table = Locked(Table())

    public static func name(of uid: UInt32) -> String? {
        if let n = table.withLock({ $0.byUID[uid] }) { return n }
        var n: String? = nil
        if let pw = getpwuid(uid_t(uid)), let p = pw.pointee.pw_name { n = String(cString: p) }
        table.withLock { $0.byUID[uid] = n }
        return n
    }

    public static func uid(of name: String) -> UInt32? {
        if let u = table.withLock({ $0.byName[name] }) { return u }
        var u: UInt32? = nil
        if let pw = getpwnam(name) { u = UInt32(pw.pointee.pw_uid) }
        table.withLock { $0.byName[name] = u }
        return u
    }

    /// The logins of a group: those it lists, and those whose primary group
    /// it is (the password database read once).
    public static func members(ofGroup gid: UInt32) -> Set<String> {
        var out = Set<String>()
        if let gr = getgrgid(gid_t(gid)), var m = gr.pointee.gr_mem {
            while let p = m.pointee {
                out.insert(String(cString: p))
                m += 1
            }
        }
        setpwent()
        while let pw = getpwent() {
            if UInt32(pw.pointee.pw_gid) == gid, let p = pw.pointee.pw_name { out.insert(String(cString: p)) }
        }
        endpwent()
        return out
    }

    /// Reads the whole database once: cheaper than one lookup per member
    /// of a large pool.
    public static func preload() {
        var all = Table()
        setpwent()
        while let pw = getpwent() {
            guard let p = pw.pointee.pw_name else { continue }
            let n = String(cString: p)
            let u = UInt32(pw.pointee.pw_uid)
            if all.byName[n] == nil { all.byName[n] = u }
            if all.byUID[u] == nil { all.byUID[u] = n }
        }
        endpwent()
        table.withLock { t in
            for (n, u) in all.byName where t.byName[n] == nil { t.byName[n] = u }
            for (u, n) in all.byUID where t.byUID[u] == nil { t.byUID[u] = n }
        }
    }
}

/// A 64-bit checksum of bytes, eight at a time: detects a flipped byte or an
/// edited number in a snapshot or a journal batch. Not cryptographic.
public enum Checksum {
    public static func hash(_ raw: UnsafeRawBufferPointer, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> UInt64 {
        let n = raw.count
        guard let base = raw.baseAddress else { return mix(seed ^ UInt64(n)) }
        // Four independent lanes of 8 bytes, so the multiplies overlap.
        var a = seed ^ UInt64(n), b = seed &+ 0x6A09_E667_F3BC_C909, c = seed ^ 0xBB67_AE85_84CA_A73B, d = seed &- 0x3C6E_F372_FE94_F82B
        var i = 0
        while i + 32 <= n {
            a = (a ^ base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x9FB2_1C65_1E98_DF25
            b = (b ^ base.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)) &* 0x9FB2_1C65_1E98_DF25
            c = (c ^ base.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)) &* 0x9FB2_1C65_1E98_DF25
            d = (d ^ base.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)) &* 0x9FB2_1C65_1E98_DF25
            a ^= a >> 31; b ^= b >> 31; c ^= c >> 31; d ^= d >> 31
            i += 32
        }
        return finish(mix(a) ^ (mix(b) &* 3) ^ (mix(c) &* 5) ^ (mix(d) &* 7), base, from: i, count: n)
    }

    /// The words and bytes past the lanes, then the length: the end both
    /// checksums share (a bijection per word, so a changed word always
    /// changes the result).
    @inline(__always) static func finish(_ h0: UInt64, _ base: UnsafeRawPointer, from i0: Int, count n: Int) -> UInt64 {
        var h = h0, i = i0
        while i + 8 <= n {
            h = (h ^ base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x9FB2_1C65_1E98_DF25
            h ^= h >> 29
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < n {
            tail |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail ^ (UInt64(n) << 56)) &* 0x100_0000_01B3
        return mix(h)
    }

    public static func hash(_ a: [UInt8]) -> UInt64 { a.withUnsafeBytes { hash($0) } }

    /// The snapshot's checksum since `"hash":2` (a snapshot without it is
    /// checked with `hash`): eight lanes of 8 bytes, each word folded in by
    /// a bijection (xor, rotate, odd multiply), so that a changed word always
    /// changes its lane and every later step keeps the difference: a flipped
    /// byte is always caught. Three instructions a word instead of five, on
    /// the bytes every reader of a large snapshot checks.
    public static func wide(_ raw: UnsafeRawBufferPointer, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> UInt64 {
        let n = raw.count
        guard let base = raw.baseAddress else { return mix(seed ^ UInt64(n)) }
        let k: UInt64 = 0x9FB2_1C65_1E98_DF25
        // (Rotating before the multiply keeps it one instruction: after it,
        // the compiler folds the shift into a second multiply.)
        @inline(__always) func step(_ a: UInt64, _ w: UInt64) -> UInt64 {
            let x = a ^ w
            return ((x << 29) | (x >> 35)) &* k
        }
        var l0 = seed ^ UInt64(n), l1 = seed &+ 0x6A09_E667_F3BC_C909, l2 = seed ^ 0xBB67_AE85_84CA_A73B
        var l3 = seed &- 0x3C6E_F372_FE94_F82B, l4 = seed ^ 0xA54F_F53A_5F1D_36F1, l5 = seed &+ 0x510E_527F_ADE6_82D1
        var l6 = seed ^ 0x9B05_688C_2B3E_6C1F, l7 = seed &- 0x1F83_D9AB_FB41_BD6B
        var i = 0
        while i &+ 64 <= n {
            let p = base + i
            l0 = step(l0, p.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
            l1 = step(l1, p.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            l2 = step(l2, p.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
            l3 = step(l3, p.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
            l4 = step(l4, p.loadUnaligned(fromByteOffset: 32, as: UInt64.self))
            l5 = step(l5, p.loadUnaligned(fromByteOffset: 40, as: UInt64.self))
            l6 = step(l6, p.loadUnaligned(fromByteOffset: 48, as: UInt64.self))
            l7 = step(l7, p.loadUnaligned(fromByteOffset: 56, as: UInt64.self))
            i &+= 64
        }
        let h = mix(l0) ^ (mix(l1) &* 3) ^ (mix(l2) &* 5) ^ (mix(l3) &* 7)
        return finish(h ^ (mix(l4) &* 9) ^ (mix(l5) &* 11) ^ (mix(l6) &* 13) ^ (mix(l7) &* 15), base, from: i, count: n)
    }

    public static func wide(_ a: [UInt8], seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> UInt64 { a.withUnsafeBytes { wide($0, seed: seed) } }

    static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Sixteen lowercase hex digits.
    public static func hex(_ v: UInt64) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: 0x30, count: 16)
        var x = v
        for i in stride(from: 15, through: 0, by: -1) {
            out[i] = digits[Int(x & 0xF)]
            x >>= 4
        }
        return String(decoding: out, as: UTF8.self)
    }
}
