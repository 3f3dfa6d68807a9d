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
    public static func run(_ argv: [String], stdin: [UInt8]? = nil, env: [String: String] = [:],
                           quiet: Bool = false) throws(ToolError) -> Int32 {
        try run(argv, stdin: stdin, env: env, quiet: quiet, capture: nil)
    }

    /// Runs a command line through /bin/sh -c and returns its exit status and
    /// standard output.
    public static func capture(_ command: String, stdin: [UInt8]? = nil, env: [String: String] = [:]) throws(ToolError) -> (Int32, [UInt8]) {
        var out: [UInt8] = []
        let status = try run(["/bin/sh", "-c", command], stdin: stdin, env: env, quiet: false, capture: &out)
        return (status, out)
    }

    static func run(_ argv: [String], stdin: [UInt8]?, env: [String: String], quiet: Bool,
                    capture: UnsafeMutablePointer<[UInt8]>?) throws(ToolError) -> Int32 {
        var fa = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fa)
        defer { posix_spawn_file_actions_destroy(&fa) }
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

        var envList: [String] = []
        var i = 0
        while let p = environ[i] {
            let s = String(cString: p)
            let key = s.split(separator: "=", maxSplits: 1).first.map(String.init) ?? s
            if env[key] == nil { envList.append(s) }
            i += 1
        }
        for (k, v) in env.sorted(by: { $0.key < $1.key }) { envList.append("\(k)=\(v)") }

        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = envList.map { strdup($0) } + [nil]
        defer {
            for p in cArgs { free(p) }
            for p in cEnv { free(p) }
        }
        var pid: pid_t = 0
        let rc = cArgs.withUnsafeBufferPointer { a in
            cEnv.withUnsafeBufferPointer { e in
                posix_spawnp(&pid, argv[0], &fa, nil, UnsafeMutablePointer(mutating: a.baseAddress!),
                             UnsafeMutablePointer(mutating: e.baseAddress!))
            }
        }
        if stdin != nil { close(fds[0]) }
        if capture != nil { close(outFds[1]) }
        if rc != 0 {
            if stdin != nil { close(fds[1]) }
            if capture != nil { close(outFds[0]) }
            throw ToolError(.noInput, "cannot run \(argv[0]): \(Sys.errnoString(rc))")
        }
        if let data = stdin {
            _ = Sys.writeAll(fd: fds[1], data)  // a child that stops reading gets EPIPE, not us killed
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
        return status(raw)
    }

    /// Runs a command line through /bin/sh -c.
    public static func shell(_ command: String, stdin: [UInt8]? = nil, env: [String: String] = [:],
                             quiet: Bool = false) throws(ToolError) -> Int32 {
        try run(["/bin/sh", "-c", command], stdin: stdin, env: env, quiet: quiet)
    }
}
