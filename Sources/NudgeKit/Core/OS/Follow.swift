// Programs followed line by line, for as long as they run: `tenclub watch`
// reads what dbus-monitor prints. Each child's standard output and error
// come back through pipes; its lines are handed over as they arrive, and the
// first child to end ends the following (the others are stopped), with how
// it ended and the last thing it said on stderr. A signal that ends this
// process (SIGTERM from systemd, SIGINT, SIGHUP and the others a handler can
// catch), or exit() from anywhere, ends the children too; after SIGKILL a
// child ends at its next write.

public final class Followed {
    /// What the child is called in messages (its program's name).
    public let name: String
    public let pid: pid_t
    let out: Int32
    let err: Int32
    var pending: [UInt8] = []
    /// The end of what it wrote on stderr (at most 4 KiB).
    var said: [UInt8] = []
    var outOpen = true
    var errOpen = true

    /// Starts `argv` (a name looked up in PATH) with `env` added, stdin
    /// from /dev/null and SIGPIPE at its default.
    public init(_ argv: [String], env: [String: String] = [:]) throws(ToolError) {
        name = argv.first ?? ""
        var outFds: [Int32] = [-1, -1], errFds: [Int32] = [-1, -1]
        guard pipe(&outFds) == 0 else { throw ToolError(.ioError, "cannot make a pipe: \(Sys.errnoString())") }
        guard pipe(&errFds) == 0 else {
            close(outFds[0]); close(outFds[1])
            throw ToolError(.ioError, "cannot make a pipe: \(Sys.errnoString())")
        }
        var fa = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fa)
        defer { posix_spawn_file_actions_destroy(&fa) }
        posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&fa, outFds[1], 1)
        posix_spawn_file_actions_adddup2(&fa, errFds[1], 2)
        for fd in outFds + errFds { posix_spawn_file_actions_addclose(&fa, fd) }
        // Nothing else of ours goes with it: a monitor left running must not
        // hold a pipe or file that tells another process we still live.
        Follow.closeFrom3(&fa)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE] + Follow.endingSignals { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attr, &none)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        // The signals that end us wait until the child is in the table
        // their handler reads: none of them leaves it running unseen.
        Follow.installHandlers()
        var ending = sigset_t(), before = sigset_t()
        sigemptyset(&ending)
        for s in Follow.endingSignals { sigaddset(&ending, s) }
        pthread_sigmask(SIG_BLOCK, &ending, &before)
        defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
        var child: pid_t = 0
        let rc = Subprocess.spawn(&child, argv, env: env, &fa, &attr)
        close(outFds[1])
        close(errFds[1])
        if rc != 0 {
            close(outFds[0]); close(errFds[0])
            throw ToolError(.noInput, "cannot run \(name): \(Sys.errnoString(rc))")
        }
        pid = child
        out = outFds[0]
        err = errFds[0]
        Follow.remember(child)
    }

    /// The last line it wrote on stderr, if any.
    public var lastSaid: String? {
        let lines = said.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self).trimmingSpaces }
        return lines.last { !$0.isEmpty }
    }

    /// Ends it (SIGTERM) and waits for it.
    func stop() -> Subprocess.Ending {
        _ = kill(pid, SIGTERM)
        return reap()
    }

    func reap() -> Subprocess.Ending {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        if outOpen { close(out); outOpen = false }
        if errOpen { close(err); errOpen = false }
        Follow.forget(pid)
        return Subprocess.ending(raw)
    }
}

public enum Follow {
    /// How following ended: which child ended first, and how.
    public struct End {
        public var child: Followed
        public var ending: Subprocess.Ending
    }

    /// Hands each line (without its newline) of each child's stdout to
    /// `line`, with the child's index, until one child's output ends; then
    /// stops the others and returns how the first one ended. A line longer
    /// than `maxLine` bytes is handed over in pieces of that size.
    public static func lines(_ children: [Followed], maxLine: Int = 65536,
                             _ line: (Int, Substring) throws(ToolError) -> Void) throws(ToolError) -> End {
        var chunk = [UInt8](repeating: 0, count: 65536)
        defer { for c in children where c.outOpen || c.errOpen { _ = c.stop() } }
        while true {
            var fds: [pollfd] = []
            var owners: [(Int, Bool)] = []
            for (i, c) in children.enumerated() {
                if c.outOpen { fds.append(pollfd(fd: c.out, events: Int16(POLLIN), revents: 0)); owners.append((i, true)) }
                if c.errOpen { fds.append(pollfd(fd: c.err, events: Int16(POLLIN), revents: 0)); owners.append((i, false)) }
            }
            let n = poll(&fds, nfds_t(fds.count), -1)
            if n < 0 {
                if errno == EINTR { continue }
                throw ToolError(.ioError, "cannot wait for \(children.first?.name ?? "a child"): \(Sys.errnoString())")
            }
            for (k, p) in fds.enumerated() where p.revents != 0 {
                let (i, isOut) = owners[k]
                let c = children[i]
                let got = chunk.withUnsafeMutableBytes { read(p.fd, $0.baseAddress, $0.count) }
                if got < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                if !isOut {
                    if got <= 0 { close(c.err); c.errOpen = false; continue }
                    c.said.append(contentsOf: chunk[0..<got])
                    if c.said.count > 4096 { c.said.removeFirst(c.said.count - 4096) }
                    continue
                }
                if got <= 0 {
                    close(c.out)
                    c.outOpen = false
                    // Its last words on stderr, then how it ended.
                    if c.errOpen {
                        while true {
                            let m = chunk.withUnsafeMutableBytes { read(c.err, $0.baseAddress, $0.count) }
                            if m < 0 && errno == EINTR { continue }
                            if m <= 0 { break }
                            c.said.append(contentsOf: chunk[0..<m])
                            if c.said.count > 4096 { c.said.removeFirst(c.said.count - 4096) }
                        }
                    }
                    let ending = c.reap()
                    return End(child: c, ending: ending)
                }
                c.pending.append(contentsOf: chunk[0..<got])
                var start = 0
                while let nl = c.pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    try line(i, Substring(String(decoding: c.pending[start..<nl], as: UTF8.self)))
                    start = nl + 1
                }
                c.pending.removeFirst(start)
                while c.pending.count > maxLine {
                    try line(i, Substring(String(decoding: c.pending[0..<maxLine], as: UTF8.self)))
                    c.pending.removeFirst(maxLine)
                }
            }
        }
    }

    /// The children a signal must end with us: a fixed table of whole
    /// words the handler reads without allocating or locking (a handler
    /// may not take a lock, so `Locked` cannot hold it). Entries are
    /// written while the ending signals are blocked (`Followed.init`) or
    /// cleared after the child is reaped.
    final class PidTable: @unchecked Sendable {
        let slots: UnsafeMutablePointer<pid_t>
        init(_ n: Int) {
            slots = .allocate(capacity: n)
            slots.initialize(repeating: 0, count: n)
        }
        subscript(i: Int) -> pid_t {
            get { slots[i] }
            set { slots[i] = newValue }
        }
    }
    static let tableSize = 8
    static let table = PidTable(tableSize)

    static func remember(_ pid: pid_t) {
        for i in 0..<tableSize where table[i] == 0 {
            table[i] = pid
            return
        }
    }

    static func forget(_ pid: pid_t) {
        for i in 0..<tableSize where table[i] == pid { table[i] = 0 }
    }

    /// The signals whose default ends a process, that a handler can catch.
    static let endingSignals = [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
                                SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGPWR, SIGIO, SIGSYS, SIGSTKFLT]

    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34 and later),
    /// looked up at run time: Swift's Glibc module does not declare it.
    static let closeFrom: CloseFrom? = {
        guard let sym = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(sym, to: CloseFrom.self)
    }()

    /// Every descriptor from 3 on is closed in the child, where the C
    /// library can say so (elsewhere the child keeps what was not close-on-exec).
    static func closeFrom3(_ fa: inout posix_spawn_file_actions_t) {
        if let f = closeFrom { _ = f(&fa, 3) }
    }

    /// Once: the handlers that end the children with us, on a signal and
    /// on exit() (the output's reader gone, a write failed).
    static let installed: Bool = {
        atexit { Follow.endChildren() }
        for s in endingSignals {
            _ = signal(s) { sig in
                Follow.endChildren()
                _ = signal(sig, SIG_DFL)
                _ = raise(sig)
            }
        }
        return true
    }()

    static func installHandlers() { _ = installed }

    /// SIGTERM to every child still in the table (safe in a signal handler).
    static func endChildren() {
        for i in 0..<tableSize where table[i] > 0 { _ = kill(table[i], SIGTERM) }
    }
}
