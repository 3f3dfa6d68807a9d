// Newline-delimited JSON in and out: a streaming reader that yields each
// non-blank line with its line number (CRLF tolerated, a UTF-8 byte order
// mark before the first line skipped), and helpers that name
// inputs the way diagnostics quote them (`FILE:LINE`, `stdin`).
/// An opened input: a file operand or standard input.
public struct InputSource: Sendable {
    public let name: String
    public let fd: Int32
    public let owned: Bool

    public static let stdin = InputSource(name: "stdin", fd: 0, owned: false)

    /// The size of a regular file (stdin redirected from one too); nil for
    /// a pipe or a terminal, whose length is not known ahead.
    public var size: Int? {
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return max(0, Int(st.st_size) - Int(lseek(fd, 0, SEEK_CUR)))
    }

    /// What all of `sources` hold, when every one's size is known.
    public static func totalSize(_ sources: [InputSource]) -> Int? {
        var sum = 0
        for s in sources {
            guard let n = s.size else { return nil }
            sum += n
        }
        return sum
    }

    /// Opens every operand up front (`-` is stdin; none means stdin), so that a
    /// missing file is reported (exit 66) before anything is applied.
    public static func openAll(_ operands: [String]) throws(ToolError) -> [InputSource] {
        if operands.isEmpty { return [.stdin] }
        var out: [InputSource] = []
        for op in operands {
            if op == "-" { out.append(.stdin); continue }
            let fd = open(op, O_RDONLY | O_CLOEXEC)
            if fd < 0 {
                let e = errno
                for s in out { s.closeIfOwned() }
                throw ToolError(.noInput, "cannot open \(op): \(Sys.errnoString(e))")
            }
            var st = stat()
            if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
                close(fd)
                for s in out { s.closeIfOwned() }
                throw ToolError(.noInput, "cannot read \(op): it is a directory")
            }
            out.append(InputSource(name: op, fd: fd, owned: true))
        }
        return out
    }

    public func closeIfOwned() { if owned { _ = closeFD(fd) } }
}

@inline(__always) private func closeFD(_ fd: Int32) -> Int32 { close(fd) }

public enum NDJSON {
    /// Calls `body` with each non-blank line (without its `\n` or `\r\n`) and
    /// its 1-based line number. Streams in fixed-size chunks: memory does not
    /// grow with the input, only with the longest line.
    public static func forEachLine(
        _ source: InputSource,
        progress: ProgressMeter? = nil,
        _ body: (Int, UnsafeRawBufferPointer) throws(ToolError) -> Void
    ) throws(ToolError) {
        let chunkSize = 1 << 20
        var buf = [UInt8](repeating: 0, count: chunkSize)
        var filled = 0
        var lineNo = 0
        var eof = false
        while !eof {
            if filled == buf.count { buf.append(contentsOf: [UInt8](repeating: 0, count: buf.count)) }
            let n = buf.withUnsafeMutableBytes { read(source.fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ToolError(.ioError, "cannot read \(source.name): \(Sys.errnoString())")
            }
            if n == 0 { eof = true } else { filled += n; progress?.add(n) }
            var consumed = 0
            try withBytes(buf) { (raw) throws(ToolError) in
                let base = raw.baseAddress!
                while consumed < filled {
                    let rest = filled - consumed
                    let nl = memchr(base + consumed, 0x0A, rest)
                    var lineEnd: Int
                    var next: Int
                    if let nl = nl {
                        lineEnd = base.distance(to: UnsafeRawPointer(nl))
                        next = lineEnd + 1
                    } else if eof {
                        lineEnd = filled
                        next = filled
                    } else {
                        break
                    }
                    lineNo += 1
                    if lineEnd > consumed && raw[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                    var lineStart = consumed
                    if lineNo == 1 && hasBOM(raw, from: consumed, to: lineEnd) { lineStart += 3 }
                    let line = UnsafeRawBufferPointer(rebasing: raw[lineStart..<lineEnd])
                    consumed = next
                    if !isBlank(line) { try body(lineNo, line) }
                }
            }
            if consumed > 0 {
                if consumed < filled {
                    buf.withUnsafeMutableBytes { raw in
                        _ = memmove(raw.baseAddress!, raw.baseAddress! + consumed, filled - consumed)
                    }
                }
                filled -= consumed
            }
        }
    }

    /// Lines of a byte buffer already in memory (journal tails, snapshots).
    public static func forEachLine(
        in bytes: UnsafeRawBufferPointer,
        _ body: (Int, UnsafeRawBufferPointer, Int) throws(ToolError) -> Bool
    ) throws(ToolError) {
        var start = 0
        var lineNo = 0
        let base = bytes.baseAddress
        while start < bytes.count, let base = base {
            let nl = memchr(base + start, 0x0A, bytes.count - start)
            let end = nl.map { base.distance(to: UnsafeRawPointer($0)) } ?? bytes.count
            lineNo += 1
            var lineEnd = end
            if lineEnd > start && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let line = UnsafeRawBufferPointer(rebasing: bytes[start..<lineEnd])
            let next = nl == nil ? bytes.count : end + 1
            if !isBlank(line) {
                // The third argument is the offset just past this line's newline,
                // or -1 when the line has no newline yet (possibly torn).
                if !(try body(lineNo, line, nl == nil ? -1 : next)) { return }
            }
            start = next
        }
    }

    /// Whether the bytes start with a UTF-8 byte order mark (EF BB BF), which
    /// some editors and exporters put before the first line.
    @inline(__always) static func hasBOM(_ b: UnsafeRawBufferPointer, from: Int, to: Int) -> Bool {
        to - from >= 3 && b[from] == 0xEF && b[from + 1] == 0xBB && b[from + 2] == 0xBF
    }

    @inline(__always) static func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
        for c in line where !(c == 0x20 || c == 0x09 || c == 0x0D) { return false }
        return true
    }

    /// Every record of the given sources, parsed as JSON objects, with bad
    /// lines handed to `bad`.
    public static func forEachRecord(
        _ sources: [InputSource],
        _ body: (String, Int, JSONObject) throws(ToolError) -> Void,
        bad: (String, Int, String) throws(ToolError) -> Void
    ) throws(ToolError) {
        for s in sources {
            try forEachLine(s) { (n, line) throws(ToolError) in
                switch Result(catching: { () throws(JSONParseError) in try JSON.parseObject(line) }) {
                case .success(let o): try body(s.name, n, o)
                case .failure(let e): try bad(s.name, n, e.message)
                }
            }
        }
    }
}
