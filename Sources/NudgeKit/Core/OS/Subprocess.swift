// Running the user's commands (senders, openers, notifiers) and, for the
// benchmarks, our own executables. posix_spawn, no shell unless asked for.
public enum Subprocess {
    /// How a child ended: its exit status, or 128 + the signal that ended it.
    public static func status(_ raw: Int32) -> Int32 {
        let sig = raw & 0x7F
        return sig == 0 ? (raw >> 8) & 0xFF : 128 + sig
    }

    /// Runs `argv` (argv[0] a path, or a name looked up in PATH), feeding
    /// `stdin`, with `env` added to the environment. Standard output goes to
    /// /dev/null when `quiet`, else it is inherited. Returns the exit status.
    /// With `timeoutMillis`, a child still running then is ended with its
    /// whole process group (SIGTERM, then SIGKILL two seconds later) and the
    /// status is 124, as timeout(1) says — unless it then exits 0 within the
    /// two seconds (it ignored or handled SIGTERM and finished): 0.
    public static func run(_ argv: [String], stdin: [UInt8]? = nil, env: [String: String] = [:],
                           quiet: Bool = false, timeoutMillis: Int? = nil) throws(ToolError) -> Int32 {
        try run(argv, stdin: stdin, env: env, quiet: quiet, capture: nil, timeoutMillis: timeoutMillis).status
    }

    /// Runs a command line through /bin/sh -c and returns its exit status and
    /// standard output.
    public static func capture(_ command: String, stdin: [UInt8]? = nil, env: [String: String] = [:],
                               timeoutMillis: Int? = nil) throws(ToolError) -> (Int32, [UInt8]) {
        var out: [UInt8] = []
        let status = try run(["/bin/sh", "-c", command], stdin: stdin, env: env, quiet: false, capture: &out,
                             timeoutMillis: timeoutMillis).status
        return (status, out)
    }

    /// Runs `argv` (no shell), feeding `stdin`, and returns its exit status
    /// and standard output; its standard error goes to /dev/null (for a
    /// program whose answer is its status, as `ssh-keygen -Y verify`).
    public static func output(_ argv: [String], stdin: [UInt8]? = nil) throws(ToolError) -> (status: Int32, out: [UInt8]) {
        var out: [UInt8] = []
        let end = try run(argv, stdin: stdin, env: [:], quiet: false, capture: &out, quietErrors: true)
        if case .exited(let c) = end { return (c, out) }
        return (128, out)
    }

    /// The status of a child ended for running too long.
    public static let timedOut: Int32 = 124

    /// How a child ended: it exited by itself, or our timer ended it. A
    /// command may exit 124 by itself (its own timeout(1)): that is
    /// `.exited(124)`, not `.timedOut`.
    public enum Ending: Equatable, Sendable {
        /// Its exit status.
        case exited(Int32)
        /// Killed by a signal (a command the shell ran last may be exec'd,
        /// so the shell itself is what the signal ends).
        case signaled(Int32)
        /// Still running at the deadline: ended with its process group.
        case timedOut

        /// The status as a shell reports it: 128 + the signal for a kill,
        /// 124 for a timeout, as timeout(1) says.
        public var status: Int32 {
            switch self {
            case .exited(let s): return s
            case .signaled(let sig): return 128 + sig
            case .timedOut: return Subprocess.timedOut
            }
        }

        /// The signal that ended it: killed itself, or, as a shell reports a
        /// command it ran that a signal killed, an exit status of 128 + N
        /// (129 to 192; 137 for SIGKILL, the OOM killer's). Nil otherwise.
        public var signal: Int32? {
            switch self {
            case .signaled(let sig): return sig
            case .exited(let s) where s > 128 && s <= 192: return s - 128
            default: return nil
            }
        }
    }

    /// A common signal's name (`SIGKILL`); nil for others.
    public static func signalName(_ sig: Int32) -> String? {
        switch sig {
        case SIGHUP: return "SIGHUP"
        case SIGINT: return "SIGINT"
        case SIGQUIT: return "SIGQUIT"
        case SIGABRT: return "SIGABRT"
        case SIGKILL: return "SIGKILL"
        case SIGSEGV: return "SIGSEGV"
        case SIGPIPE: return "SIGPIPE"
        case SIGTERM: return "SIGTERM"
        case SIGBUS: return "SIGBUS"
        default: return nil
        }
    }

    /// This process's environment with `env` added (replacing a variable
    /// of the same name), as `NAME=value` strings for exec.
    static func environment(adding env: [String: String]) -> [String] {
        var list: [String] = []
        var i = 0
        while let p = environ[i] {
            let s = String(cString: p)
            let key = s.split(separator: "=", maxSplits: 1).first.map(String.init) ?? s
            if env[key] == nil { list.append(s) }
            i += 1
        }
        for (k, v) in env.sorted(by: { $0.key < $1.key }) { list.append("\(k)=\(v)") }
        return list
    }

    /// posix_spawnp of `argv` (argv[0] looked up in PATH) with this
    /// process's environment plus `env`: 0, or the error number.
    static func spawn(_ pid: inout pid_t, _ argv: [String], env: [String: String],
                      _ fa: inout posix_spawn_file_actions_t, _ attr: inout posix_spawnattr_t) -> Int32 {
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = environment(adding: env).map { strdup($0) } + [nil]
        defer {
            for p in cArgs { free(p) }
            for p in cEnv { free(p) }
        }
        return cArgs.withUnsafeBufferPointer { a in
            cEnv.withUnsafeBufferPointer { e in
                posix_spawnp(&pid, argv[0], &fa, &attr, UnsafeMutablePointer(mutating: a.baseAddress!),
                             UnsafeMutablePointer(mutating: e.baseAddress!))
            }
        }
    }

    /// How a child's raw wait status ended it.
    static func ending(_ raw: Int32) -> Ending {
        let sig = raw & 0x7F
        return sig == 0 ? .exited((raw >> 8) & 0xFF) : .signaled(sig)
    }

    static func run(_ argv: [String], stdin: [UInt8]?, env: [String: String], quiet: Bool,
                    capture: UnsafeMutablePointer<[UInt8]>?, timeoutMillis: Int? = nil, quietErrors: Bool = false) throws(ToolError) -> Ending {
        var fa = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fa)
        defer { posix_spawn_file_actions_destroy(&fa) }
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        // The tool ignores SIGPIPE (a closed stdout must not kill it), and an
        // ignored signal stays ignored across exec: the child gets it back at
        // its default, so `yes | head -1` in a user's notifier ends quietly.
        var flags = Int16(POSIX_SPAWN_SETSIGDEF)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        if timeoutMillis != nil {
            // Its own process group, so a timeout ends everything it started.
            flags |= Int16(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attr, 0)
        }
        posix_spawnattr_setflags(&attr, flags)
        var fds: [Int32] = [-1, -1]
        if stdin != nil {
            guard pipe(&fds) == 0 else { throw ToolError(.ioError, "cannot make a pipe: \(Sys.errnoString())") }
            posix_spawn_file_actions_adddup2(&fa, fds[0], 0)
            posix_spawn_file_actions_addclose(&fa, fds[1])
            posix_spawn_file_actions_addclose(&fa, fds[0])
        } else {
            posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0)
        }
        var outFds: [Int32] = [-1, -1]
        if capture != nil {
            guard pipe(&outFds) == 0 else { throw ToolError(.ioError, "cannot make a pipe: \(Sys.errnoString())") }
            posix_spawn_file_actions_adddup2(&fa, outFds[1], 1)
            posix_spawn_file_actions_addclose(&fa, outFds[0])
            posix_spawn_file_actions_addclose(&fa, outFds[1])
        } else if quiet {
            posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0)
        }
        if quietErrors { posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0) }

        var pid: pid_t = 0
        let rc = spawn(&pid, argv, env: env, &fa, &attr)
        if stdin != nil { close(fds[0]) }
        if capture != nil { close(outFds[1]) }
        if rc != 0 {
            if stdin != nil { close(fds[1]) }
            if capture != nil { close(outFds[0]) }
            throw ToolError(.noInput, "cannot run \(argv[0]): \(Sys.errnoString(rc))")
        }
        guard let limit = timeoutMillis else {
            if let data = stdin {
                _ = withoutSIGPIPE { Sys.writeAll(fd: fds[1], data) }  // a child that stops reading: EPIPE, not us killed
                close(fds[1])
            }
            if let sink = capture {
                var chunk = [UInt8](repeating: 0, count: 65536)
                while true {
                    let n = chunk.withUnsafeMutableBytes { read(outFds[0], $0.baseAddress, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { break }
                    sink.pointee.append(contentsOf: chunk[0..<n])
                }
                close(outFds[0])
            }
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 {
                if errno != EINTR { throw ToolError(.ioError, "cannot wait for \(argv[0]): \(Sys.errnoString())") }
            }
            return ending(raw)
        }
        // With a deadline: feed and drain without blocking, and poll for the end.
        let deadline = Sys.monotonicNanos() + UInt64(max(0, limit)) * 1_000_000
        var inFd: Int32 = stdin != nil ? fds[1] : -1
        var outFd: Int32 = capture != nil ? outFds[0] : -1
        if inFd >= 0 { _ = fcntl(inFd, F_SETFL, fcntl(inFd, F_GETFL) | O_NONBLOCK) }
        var sent = 0
        let data = stdin ?? []
        var raw: Int32 = 0
        var exited = false
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !exited {
            if inFd >= 0 && sent >= data.count { close(inFd); inFd = -1 }
            let now = Sys.monotonicNanos()
            if now >= deadline { break }
            var pfds: [pollfd] = []
            if inFd >= 0 { pfds.append(pollfd(fd: inFd, events: Int16(POLLOUT), revents: 0)) }
            if outFd >= 0 { pfds.append(pollfd(fd: outFd, events: Int16(POLLIN), revents: 0)) }
            let wait = Int32(min(50, max(1, (deadline - now) / 1_000_000)))
            _ = poll(&pfds, nfds_t(pfds.count), wait)
            for p in pfds where p.revents != 0 {
                if p.fd == inFd {
                    let n = withoutSIGPIPE { data.withUnsafeBytes { write(inFd, $0.baseAddress! + sent, $0.count - sent) } }
                    if n > 0 { sent += n } else if n < 0 && errno != EAGAIN && errno != EINTR { sent = data.count }
                } else if p.fd == outFd {
                    let n = chunk.withUnsafeMutableBytes { read(outFd, $0.baseAddress, $0.count) }
                    if n > 0 { capture?.pointee.append(contentsOf: chunk[0..<n]) }
                    else if n == 0 || (errno != EINTR && errno != EAGAIN) { close(outFd); outFd = -1 }
                }
            }
            let w = waitpid(pid, &raw, WNOHANG)
            if w == pid { exited = true }
        }
        if inFd >= 0 { close(inFd) }
        if exited {
            // Whatever is left in the pipe.
            while outFd >= 0 {
                let n = chunk.withUnsafeMutableBytes { read(outFd, $0.baseAddress, $0.count) }
                if n > 0 { capture?.pointee.append(contentsOf: chunk[0..<n]) } else { close(outFd); outFd = -1 }
            }
            return ending(raw)
        }
        if outFd >= 0 { close(outFd) }
        _ = kill(-pid, SIGTERM)
        let grace = Sys.monotonicNanos() + 2_000_000_000
        while waitpid(pid, &raw, WNOHANG) == 0 {
            if Sys.monotonicNanos() >= grace { _ = kill(-pid, SIGKILL); _ = waitpid(pid, &raw, 0); break }
            Sys.sleepMillis(10)
        }
        _ = kill(-pid, SIGKILL)  // anything of its group still running
        // A command that finished within the grace and exited 0 (SIGTERM
        // ignored or handled) did its work and says so: not a timeout, or a
        // grant it handed over would be handed over again.
        if case .exited(0) = ending(raw) { return .exited(0) }
        return .timedOut
    }

    /// Runs `body`, whose writes to a child's pipe may find the child gone,
    /// so that they fail with EPIPE instead of raising SIGPIPE — whatever the
    /// calling process does with that signal (the tools ignore it; a test
    /// process or another program using the library may not). On Linux the
    /// signal is blocked for this thread and one it raised is taken back.
    static func withoutSIGPIPE<T>(_ body: () -> T) -> T {
        #if os(Linux)
        var pipeSet = sigset_t(), old = sigset_t(), pending = sigset_t()
        sigemptyset(&pipeSet)
        sigaddset(&pipeSet, SIGPIPE)
        sigpending(&pending)
        let alreadyPending = sigismember(&pending, SIGPIPE) == 1
        pthread_sigmask(SIG_BLOCK, &pipeSet, &old)
        let result = body()
        sigpending(&pending)
        if !alreadyPending && sigismember(&pending, SIGPIPE) == 1 {
            var zero = timespec(tv_sec: 0, tv_nsec: 0)
            _ = sigtimedwait(&pipeSet, nil, &zero)
        }
        pthread_sigmask(SIG_SETMASK, &old, nil)
        return result
        #else
        let saved = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, saved) }
        return body()
        #endif
    }

    /// Runs a command line through /bin/sh -c.
    public static func shell(_ command: String, stdin: [UInt8]? = nil, env: [String: String] = [:],
                             quiet: Bool = false, timeoutMillis: Int? = nil) throws(ToolError) -> Int32 {
        try shellEnding(command, stdin: stdin, env: env, quiet: quiet, timeoutMillis: timeoutMillis).status
    }

    /// Runs a command line through /bin/sh -c, and says how it ended:
    /// exited (with its status), or ended by the timeout.
    public static func shellEnding(_ command: String, stdin: [UInt8]? = nil, env: [String: String] = [:],
                                   quiet: Bool = false, timeoutMillis: Int? = nil) throws(ToolError) -> Ending {
        try run(["/bin/sh", "-c", command], stdin: stdin, env: env, quiet: quiet, capture: nil, timeoutMillis: timeoutMillis)
    }
}
