// The imperative shell's contact with the operating system: files, fsync,
// locks, environment and time. Everything here is a thin, checked wrapper over
// the C library so that the rest of NudgeKit can stay free of Foundation.

/// The exit statuses every tool uses (sysexits.h numbers; each man page's
/// EXIT STATUS lists them).
public enum ExitCode: Int32, Sendable {
    case ok = 0
    case no = 1
    case usage = 64
    case dataError = 65
    case noInput = 66
    case software = 70
    case cantCreate = 73
    case ioError = 74
    case tempFail = 75
    case noPermission = 77
    case config = 78
}

/// An error that ends a command: one line for stderr and an exit status.
public struct ToolError: Error, Equatable, CustomStringConvertible {
    public var code: ExitCode
    public var message: String
    public init(_ code: ExitCode, _ message: String) {
        self.code = code
        self.message = message
    }
    public var description: String { message }
    public static func usage(_ m: String) -> ToolError { ToolError(.usage, m) }
    public static func data(_ m: String) -> ToolError { ToolError(.dataError, m) }
}

public enum Sys {
    public static func errnoString(_ e: Int32 = errno) -> String {
        String(cString: strerror(e))
    }

    public static func env(_ name: String) -> String? {
        guard let p = getenv(name) else { return nil }
        return String(cString: p)
    }

    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// The width of the terminal on `fd`, when it is one that knows it.
    public static func terminalColumns(_ fd: Int32) -> Int? {
        var ws = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 else { return nil }
        return Int(ws.ws_col)
    }

    /// Wall-clock time in milliseconds since the Unix epoch.
    public static func nowMillis() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// Monotonic nanoseconds, for benchmarks.
    public static func monotonicNanos() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    public static func sleepMillis(_ ms: Int) {
        var ts = timespec(tv_sec: ms / 1000, tv_nsec: (ms % 1000) * 1_000_000)
        var rest = timespec()
        while nanosleep(&ts, &rest) == -1 && errno == EINTR { ts = rest }
    }

    public static func hostname() -> String {
        var buf = [CChar](repeating: 0, count: 256)
        guard gethostname(&buf, 255) == 0 else { return "localhost" }
        let name = cArrayString(buf)
        return name.isEmpty ? "localhost" : name
    }

    public static func userName() -> String {
        if let u = env("USER"), !u.isEmpty { return u }
        if let u = env("LOGNAME"), !u.isEmpty { return u }
        if let pw = getpwuid(getuid()), let n = pw.pointee.pw_name { return String(cString: n) }
        return "uid\(getuid())"
    }

    public static func homeDirectory() -> String {
        if let h = env("HOME"), !h.isEmpty { return h }
        if let pw = getpwuid(getuid()), let d = pw.pointee.pw_dir { return String(cString: d) }
        return "/"
    }

    public static func fileExists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0
    }

    /// The path of an executable named `name` in $PATH, if there is one.
    public static func findExecutable(_ name: String) -> String? {
        for dir in (env("PATH") ?? "/usr/bin:/bin").split(separator: ":") where !dir.isEmpty {
            let p = join(String(dir), name)
            if access(p, X_OK) == 0 && !isDirectory(p) { return p }
        }
        return nil
    }

    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    public static func fileSize(_ path: String) -> Int? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int(st.st_size)
    }

    /// Creates `path` and its parents as private folders (0700, whatever the
    /// umask), or with `mode` for shared ones.
    public static func makeDirectories(_ path: String, mode: UInt32 = 0o700) throws(ToolError) {
        if isDirectory(path) { return }
        var parts: [String] = []
        var p = path
        while !p.isEmpty && p != "/" && !isDirectory(p) {
            parts.append(p)
            p = parentDirectory(p)
        }
        for dir in parts.reversed() {
            if mkdir(dir, .init(mode)) != 0 {
                if errno != EEXIST {
                    throw ToolError(errno == EACCES || errno == EPERM ? .noPermission : .cantCreate, "cannot create \(dir): \(errnoString())")
                }
                guard isDirectory(dir) else { throw ToolError(.cantCreate, "cannot create \(path): \(dir) is not a folder") }
                continue  // made by a concurrent run: leave its mode alone
            }
            _ = chmod(dir, .init(mode))
            if geteuid() == 0 {
                let fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if fd >= 0 { giveToFolderOwner(fd: fd, folder: parentDirectory(dir)); close(fd) }
            }
        }
    }

    public static func parentDirectory(_ path: String) -> String {
        var p = path
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        guard let slash = p.lastIndex(of: "/") else { return "." }
        if slash == p.startIndex { return "/" }
        return String(p[..<slash])
    }

    public static func join(_ a: String, _ b: String) -> String {
        a.hasSuffix("/") ? a + b : a + "/" + b
    }

    /// A directory entry's name, read where it lies: a `dirent` is only
    /// `d_reclen` bytes long, so copying the struct (its 256-byte `d_name`
    /// with it) reads past the entry, at a page's end past the buffer.
    @inline(__always)
    public static func direntName(_ e: UnsafeMutablePointer<dirent>) -> UnsafePointer<CChar> {
        (UnsafeRawPointer(e) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!).assumingMemoryBound(to: CChar.self)
    }

    /// Lists the names in a folder (no `.` or `..`), sorted.
    public static func listDirectory(_ path: String) -> [String] {
        guard let d = opendir(path) else { return [] }
        defer { closedir(d) }
        var names: [String] = []
        while let e = readdir(d) {
            let name = String(cString: direntName(e))
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The names in a folder with their sizes, sorted by name; each file is
    /// looked at relative to the open folder (cheap for thousands of files).
    public static func listDirectorySizes(_ path: String, suffix: String) -> [(name: String, size: Int)] {
        guard let d = opendir(path) else { return [] }
        defer { closedir(d) }
        let fd = dirfd(d)
        var out: [(String, Int)] = []
        while let e = readdir(d) {
            let name = String(cString: direntName(e))
            guard name.hasSuffix(suffix) else { continue }
            var st = stat()
            if fstatat(fd, name, &st, 0) == 0 { out.append((name, Int(st.st_size))) }
        }
        return out.sorted { $0.0 < $1.0 }
    }

    /// Reads a whole file. Returns nil when it does not exist.
    public static func readFile(_ path: String) throws(ToolError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw accessError(path)
        }
        defer { close(fd) }
        return try readAll(fd: fd, from: 0, path: path)
    }

    /// A command's input operand read whole: a file, or standard input for
    /// "-"; with the name messages use for it ("stdin" for "-").
    public static func readInput(_ path: String) throws(ToolError) -> (bytes: [UInt8], name: String) {
        if path == "-" { return (try readStream(fd: 0, name: "stdin"), "stdin") }
        guard let b = try readFile(path) else { throw ToolError(.noInput, "cannot open \(path): No such file or directory") }
        return (b, path)
    }

    /// Reads from `offset` to the end of an open file.
    public static func readAll(fd: Int32, from offset: Int, path: String) throws(ToolError) -> [UInt8] {
        var st = stat()
        let hint = fstat(fd, &st) == 0 ? max(0, Int(st.st_size) - offset) : 0
        // Straight into the result, sized by fstat; then whatever the file grew by.
        var out = try readAt(fd: fd, offset: offset, count: hint, path: path)
        var pos = offset + out.count
        while true {
            let more = try readAt(fd: fd, offset: pos, count: 65536, path: path)
            if more.isEmpty { return out }
            out += more
            pos += more.count
        }
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file), read
    /// into a buffer whose pages are made in one call rather than one fault
    /// each: a large snapshot costs a fault per 4 KB page otherwise.
    public static func readAt(fd: Int32, offset: Int, count: Int, path: String) throws(ToolError) -> [UInt8] {
        var failed: Int32 = 0
        let out = [UInt8](unsafeUninitializedCapacity: count) { buf, initialized in
            initialized = 0
            guard let base = buf.baseAddress, count > 0 else { return }
            prefault(UnsafeMutableRawPointer(base), count)
            while initialized < count {
                let n = pread(fd, base + initialized, count - initialized, off_t(offset + initialized))
                if n < 0 {
                    if errno == EINTR { continue }
                    failed = errno
                    return
                }
                if n == 0 { return }
                initialized += n
            }
        }
        if failed != 0 { throw ToolError(.ioError, "cannot read \(path): \(String(cString: strerror(failed)))") }
        return out
    }

    /// Populates the pages of a large fresh buffer ahead of writing to it
    /// (Linux's MADV_POPULATE_WRITE; elsewhere, or on older kernels, a no-op).
    static func prefault(_ p: UnsafeMutableRawPointer, _ count: Int) {
        #if os(Linux)
        let page = 4096
        guard count >= 64 * page else { return }
        let start = (Int(bitPattern: p) + page - 1) / page * page
        let end = (Int(bitPattern: p) + count) / page * page
        if end > start { _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, 23 /* MADV_POPULATE_WRITE */) }
        #endif
    }

    /// Reads a stream (a pipe, a terminal) to its end.
    public static func readStream(fd: Int32, name: String, cap: Int = Int.max) throws(ToolError) -> [UInt8] {
        var out = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ToolError(.ioError, "cannot read \(name): \(errnoString())")
            }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
            if out.count > cap { throw ToolError(.dataError, "\(name): larger than \(cap >> 20) MB, more than is read; split it") }
        }
    }

    /// An input operand read whole as `readInput` does, but only a regular
    /// file (or standard input) of at most `cap` bytes: a FIFO, a device
    /// or a file too large is refused before it is read.
    public static func readInput(_ path: String, cap: Int) throws(ToolError) -> (bytes: [UInt8], name: String) {
        if path == "-" { return (try readStream(fd: 0, name: "stdin", cap: cap), "stdin") }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            if errno == ENOENT { throw ToolError(.noInput, "cannot open \(path): No such file or directory") }
            throw accessError(path)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw accessError(path) }
        if (st.st_mode & S_IFMT) != S_IFREG { throw ToolError(.dataError, "\(path): not a regular file") }
        if Int(st.st_size) > cap { throw ToolError(.dataError, "\(path): larger than \(cap >> 20) MB, more than is read; split it") }
        let b = try readAll(fd: fd, from: 0, path: path)
        if b.count > cap { throw ToolError(.dataError, "\(path): larger than \(cap >> 20) MB, more than is read; split it") }
        return (b, path)
    }

    /// Writes all bytes to an fd, retrying short writes.
    public static func writeAll(fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw -> Bool in
            var off = 0
            while off < raw.count {
                let n = write(fd, raw.baseAddress! + off, raw.count - off)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                off += n
            }
            return true
        }
    }

    /// Writes a file atomically: a private temporary file, fsync, rename, fsync
    /// of the folder. Readers see the old file or the new one, never half.
    public static func writeFileAtomically(_ path: String, _ bytes: [UInt8], mode: UInt32 = 0o600) throws(ToolError) {
        let tmp = path + ".tmp-\(getpid())"
        unlink(tmp)
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd < 0 { throw ToolError(errno == EACCES || errno == EPERM ? .noPermission : .cantCreate, "cannot create \(tmp): \(errnoString())") }
        _ = fchmod(fd, .init(mode))
        giveToFolderOwner(fd: fd, folder: parentDirectory(path))
        let ok = writeAll(fd: fd, bytes) && fsync(fd) == 0
        let err = errno
        close(fd)
        if !ok {
            unlink(tmp)
            throw ToolError(.ioError, "cannot write \(tmp): \(errnoString(err))")
        }
        if rename(tmp, path) != 0 {
            let e = errno
            unlink(tmp)
            throw ToolError(.ioError, "cannot replace \(path): \(errnoString(e))")
        }
        syncDirectory(parentDirectory(path))
    }

    public static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            _ = fsync(fd)
            close(fd)
        }
    }

    /// Opens (creating 0600, or `mode`, if needed) a file for appending.
    /// Never follows a symlink and never opens anything but a regular file
    /// of the user's own: a file planted in its place is refused, not written.
    /// With `giveAway` false, a file root creates stays root's (a folder
    /// where each file must belong to the login it is named after).
    public static func openForAppend(_ path: String, mode: UInt32 = 0o600, giveAway: Bool = true) throws(ToolError) -> Int32 {
        let existed = fileExists(path)
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, .init(mode))
        if fd < 0 {
            if errno == ELOOP { throw ToolError(.noPermission, "refusing to write \(path): it is a symbolic link; remove it") }
            if errno == EACCES || errno == EPERM { throw accessError(path, verb: "write") }
            throw ToolError(.cantCreate, "cannot open \(path) for writing: \(errnoString())")
        }
        var st = stat()
        if fstat(fd, &st) != 0 || (st.st_mode & S_IFMT) != S_IFREG || (st.st_uid != geteuid() && geteuid() != 0) {
            close(fd)
            throw ToolError(.noPermission, "refusing to write \(path): it is not a regular file of your own; remove it")
        }
        if !existed {
            _ = fchmod(fd, .init(mode))
            if giveAway { giveToFolderOwner(fd: fd, folder: parentDirectory(path)) }
            syncDirectory(parentDirectory(path))
        }
        return fd
    }

    /// When root writes in somebody else's folder (a `sudo` run with their
    /// HOME), the file it creates goes to the folder's owner, so that the
    /// owner's next run is not locked out of it.
    static func giveToFolderOwner(fd: Int32, folder: String) {
        guard geteuid() == 0 else { return }
        var st = stat()
        guard stat(folder, &st) == 0, st.st_uid != 0 else { return }
        _ = fchown(fd, st.st_uid, (st.st_mode & S_ISGID) != 0 ? st.st_gid : gid_t(UInt32.max))
    }

    public static func truncateFile(_ path: String, to size: Int) throws(ToolError) {
        if truncate(path, off_t(size)) != 0 {
            throw ToolError(.ioError, "cannot truncate \(path): \(errnoString())")
        }
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        if fd >= 0 { _ = fsync(fd); close(fd) }
    }

    public static func removeFile(_ path: String) { unlink(path) }
}

/// An exclusive advisory lock on a file (flock), released when dropped.
public final class FileLock {
    private var fd: Int32
    private init(fd: Int32) { self.fd = fd }

    /// Takes the lock, polling until `timeoutMillis` has passed; then exit 75.
    public static func acquire(_ path: String, timeoutMillis: Int, what: String) throws(ToolError) -> FileLock {
        let existed = Sys.fileExists(path)
        var fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        // flock works on a read-only descriptor too (a lock file left by root, readable).
        if fd < 0 && (errno == EACCES || errno == EPERM) { fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        if fd < 0 {
            if errno == EACCES || errno == EPERM { throw Sys.accessError(path, verb: "open the lock") }
            throw ToolError(.cantCreate, "cannot open lock \(path): \(Sys.errnoString())")
        }
        if !existed {
            _ = fchmod(fd, 0o600)
            Sys.giveToFolderOwner(fd: fd, folder: Sys.parentDirectory(path))
        }
        let start = Sys.monotonicNanos()
        var wait = 2
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let e = errno
            if e != EWOULDBLOCK && e != EINTR && e != EAGAIN {
                close(fd)
                throw ToolError(.ioError, "cannot lock \(path): \(Sys.errnoString(e))")
            }
            if Int((Sys.monotonicNanos() - start) / 1_000_000) >= timeoutMillis {
                close(fd)
                throw ToolError(.tempFail, "\(what) is locked by another run; try again")
            }
            Sys.sleepMillis(wait)
            wait = min(wait * 2, 40)
        }
        return FileLock(fd: fd)
    }

    /// The processes holding a flock on `path` (pid and uid), as the kernel
    /// lists them in /proc/locks (Linux; elsewhere none are known): to say
    /// who holds a lock that was waited for in vain.
    public static func holders(of path: String) -> [(pid: Int32, uid: UInt32)] {
        var st = stat()
        guard stat(path, &st) == 0, let text = try? Sys.readFile("/proc/locks") else { return [] }
        let dev = UInt64(st.st_dev)
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~UInt64(0xfff))
        let minor = (dev & 0xff) | ((dev >> 12) & ~UInt64(0xff))
        func hex2(_ v: UInt64) -> String { let h = String(v, radix: 16); return h.count < 2 ? "0" + h : h }
        let want = hex2(major) + ":" + hex2(minor) + ":\(st.st_ino)"
        var out: [(pid: Int32, uid: UInt32)] = []
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            // "1: FLOCK  ADVISORY  WRITE 1234 fe:00:16221222 0 EOF" ("->" marks a waiter).
            guard f.count >= 6, f.contains("FLOCK"), let i = f.firstIndex(where: { $0.contains(":") && $0.split(separator: ":").count == 3 }),
                  f[i] == want, i >= 1, let pid = Int32(f[i - 1]) else { continue }
            if f.contains("->") { continue }
            var ps = stat()
            guard stat("/proc/\(pid)", &ps) == 0 else { continue }
            out.append((pid, UInt32(ps.st_uid)))
        }
        return out
    }

    public func release() {
        if fd >= 0 {
            _ = flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }

    deinit { release() }
}

/// `withUnsafeBytes` that keeps a typed error (the standard one rethrows `any Error`).
@inline(__always)
public func withBytes<R, E: Error>(_ a: [UInt8], _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
    let r: Result<R, E> = a.withUnsafeBytes { b in Result { () throws(E) -> R in try body(b) } }
    return try r.get()
}

@inline(__always)
public func withUTF8Bytes<R, E: Error>(_ s: String, _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
    var s = s
    let r: Result<R, E> = s.withUTF8 { b in Result { () throws(E) -> R in try body(UnsafeRawBufferPointer(b)) } }
    return try r.get()
}

/// A NUL-terminated C character array as a String.
public func cArrayString(_ buf: [CChar]) -> String {
    String(decoding: buf.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
