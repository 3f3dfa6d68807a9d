// A small HTTP/1.1 client for a server on this machine or its network
// (aw-server's REST API): GET only, plain http (no TLS), one request per
// connection ("Connection: close"), bounded in time and in size. The URL
// reader and the response reader are pure, and the response reader is
// fuzzed (Tests/Fuzz, "http-response"); only `get` touches the network.
//
// Invariants: a URL is taken only when every part of it can go into a
// request line and a Host header as it is (no space, control character or
// CR/LF can reach the wire); a response's body is exactly what its
// Content-Length or its chunks say, or the response is refused with the
// reason; nothing is read past `maxBytes`, nothing waits past `timeout`.

public enum HTTP {
    /// Where a server is: host (a name, an IPv4 address or a bracketed
    /// IPv6 one), port, and the path its API sits under ("" or "/x").
    public struct Server: Equatable, Sendable, CustomStringConvertible {
        public var host: String
        public var port: Int
        public var base: String
        /// As a person writes it: http://host:port/base.
        public var description: String { "http://\(host)\(port == 80 ? "" : ":\(port)")\(base)" }
    }

    /// A response: status, headers (names lower-cased, in order) and body.
    public struct Response: Equatable, Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]
        public func header(_ name: String) -> String? { headers.first { $0.0 == name.lowercased() }?.1 }
        public static func == (a: Response, b: Response) -> Bool {
            a.status == b.status && a.body == b.body && a.headers.map(\.0) == b.headers.map(\.0) && a.headers.map(\.1) == b.headers.map(\.1)
        }
    }

    /// Why a response was not taken.
    public struct Bad: Error, Equatable, Sendable {
        public var reason: String
        init(_ r: String) { reason = r }
    }

    static let accepted = "an http:// URL such as http://localhost:5600 (host, optional :port and path; no https, user, query or fragment)"

    /// `http://host[:port][/path]`, the scheme in any case; nil-free: a
    /// refusal says what is accepted.
    public static func server(_ url: String) -> Result<Server, ToolError> {
        let shown = url.count > 100 ? String(url.prefix(100)) + "…" : url
        func no(_ why: String) -> Result<Server, ToolError> { .failure(.usage("'\(shown.terminalSafe)' \(why); need \(accepted)")) }
        let lower = url.lowercased()
        if lower.hasPrefix("https://") { return no("is https, which rewards does not speak (aw-server listens on plain http)") }
        guard lower.hasPrefix("http://") else { return no("is not an http URL") }
        let rest = url.dropFirst(7)
        guard !rest.contains("?"), !rest.contains("#") else { return no("has a query or a fragment") }
        guard rest.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return no("has a space or a character a URL cannot hold") }
        let authority = rest.prefix { $0 != "/" }
        var path = String(rest.dropFirst(authority.count))
        guard !authority.contains("@") else { return no("has a user name") }
        while path.hasSuffix("/") { path.removeLast() }
        var host: Substring
        var portText: Substring = ""
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return no("has an unclosed '['") }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return no("has something after the address") }
                portText = after.dropFirst()
            }
            guard host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }), host.count > 2 else { return no("has a bad IPv6 address") }
        } else {
            host = authority.prefix { $0 != ":" }
            if host.count < authority.count { portText = authority.dropFirst(host.count + 1) }
            guard !host.isEmpty, host.count <= 253, host.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x2E })
            else { return no("has no host, or a host that is not a name or an address") }
        }
        var port = 80
        if authority.last == ":" || !portText.isEmpty {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0 >= "0" && $0 <= "9" }), let p = Int(portText), (1...65535).contains(p) else {
                return no("has a port that is not 1 to 65535")
            }
            port = p
        }
        return .success(Server(host: String(host), port: port, base: path))
    }

    /// Everything but RFC 3986's unreserved characters percent-encoded,
    /// as UTF-8 with upper-case hex: spaces become %20, and `&`, `=`, `#`,
    /// `?`, `+`, `/` can never add or change a path segment or a query
    /// parameter (bucket names and times in a query; playa's deep links).
    public static func percentEncode(_ s: String) -> String {
        var out = [UInt8]()
        let hex = Array("0123456789ABCDEF".utf8)
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(b)
            default:
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A whole response as read up to the server's close: status line,
    /// headers, and a body by Content-Length, by chunks, or to the end.
    /// A failure is the reason, for "… answered badly: REASON".
    public static func response(_ bytes: [UInt8]) -> Result<Response, Bad> {
        // The head ends at the first empty line (CRLF CRLF; a bare LF is taken too).
        var i = 0, lineStart = 0
        var lines: [ArraySlice<UInt8>] = []
        var bodyStart: Int? = nil
        while i < bytes.count {
            if bytes[i] == 0x0A {
                var end = i
                if end > lineStart && bytes[end - 1] == 0x0D { end -= 1 }
                if end == lineStart { bodyStart = i + 1; break }
                lines.append(bytes[lineStart..<end])
                guard lines.count <= 200 else { return .failure(Bad("more than 200 header lines")) }
                lineStart = i + 1
            }
            i += 1
        }
        guard let start = bodyStart, let statusLine = lines.first else { return .failure(Bad("no complete status line and headers")) }
        let parts = statusLine.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].starts(with: Array("HTTP/1.".utf8)), parts[0].count == 8, parts[1].count == 3,
              parts[1].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let status = Int(String(decoding: parts[1], as: UTF8.self))
        else { return .failure(Bad("not an HTTP/1 status line")) }
        var headers: [(String, String)] = []
        for l in lines.dropFirst() {
            guard let colon = l.firstIndex(of: 0x3A), colon > l.startIndex else { return .failure(Bad("a header line without a name")) }
            let name = String(decoding: l[l.startIndex..<colon], as: UTF8.self).lowercased()
            let value = Text.trimmingBlanks(String(decoding: l[(colon + 1)...], as: UTF8.self))
            headers.append((name, value))
        }
        let head = Response(status: status, headers: headers, body: [])
        let rest = bytes[start...]
        if let te = head.header("transfer-encoding") {
            guard te.lowercased() == "chunked", headers.filter({ $0.0 == "transfer-encoding" }).count == 1 else {
                return .failure(Bad("a transfer encoding other than chunked ('\(te.terminalSafe)')"))
            }
            return chunked(rest).map { Response(status: status, headers: headers, body: $0) }
        }
        guard Set(headers.filter { $0.0 == "content-length" }.map(\.1)).count <= 1 else { return .failure(Bad("two Content-Length headers that differ")) }
        if let cl = head.header("content-length") {
            guard !cl.isEmpty, cl.count <= 15, cl.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(cl) else { return .failure(Bad("a Content-Length that is not a number")) }
            guard n <= rest.count else { return .failure(Bad("the body ended after \(rest.count) of its \(n) bytes")) }
            return .success(Response(status: status, headers: headers, body: Array(rest.prefix(n))))
        }
        return .success(Response(status: status, headers: headers, body: Array(rest)))
    }

    /// A chunked body, decoded: hex sizes (extensions after ';' ignored),
    /// each chunk followed by CRLF, to the chunk of size 0.
    static func chunked(_ b: ArraySlice<UInt8>) -> Result<[UInt8], Bad> {
        var out: [UInt8] = []
        var i = b.startIndex
        while true {
            guard let nl = b[i...].firstIndex(of: 0x0A) else { return .failure(Bad("a chunk without its size line")) }
            var line = b[i..<nl]
            if line.last == 0x0D { line = line.dropLast() }
            if let semi = line.firstIndex(of: 0x3B) { line = line[..<semi] }
            let hex = Text.trimmingBlanks(String(decoding: line, as: UTF8.self))
            guard !hex.isEmpty, hex.count <= 15, let n = Int(hex, radix: 16), n >= 0 else { return .failure(Bad("a chunk size that is not hexadecimal")) }
            i = nl + 1
            if n == 0 { return .success(out) }
            guard b.endIndex - i >= n else { return .failure(Bad("a chunk ended after \(b.endIndex - i) of its \(n) bytes")) }
            out.append(contentsOf: b[i..<(i + n)])
            i += n
            if i < b.endIndex && b[i] == 0x0D { i += 1 }
            guard i < b.endIndex, b[i] == 0x0A else { return .failure(Bad("a chunk not followed by a line end")) }
            i += 1
        }
    }

    /// GET `path` (under the server's base) and the whole response; at
    /// most `maxBytes` read and `timeout` seconds spent, connecting
    /// included. Errors say what could not be done: 75 (temporary) when
    /// the server cannot be reached or is slow, 65 when it answers badly.
    public static func get(_ server: Server, _ path: String, timeout: Int = 10, maxBytes: Int = 256 << 20) throws(ToolError) -> Response {
        let deadline = Sys.monotonicNanos() + UInt64(max(1, timeout)) * 1_000_000_000
        let fd = try dial(server, timeout: timeout)
        defer { close(fd) }
        let target = server.base + path
        let hostHeader = server.port == 80 ? server.host : "\(server.host):\(server.port)"
        let request = Array("GET \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\nAccept: application/json\r\nUser-Agent: nudge-tools\r\nConnection: close\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            let n = request.withUnsafeBytes { send(fd, $0.baseAddress! + sent, request.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw ToolError(.tempFail, "cannot send to \(server): \(Sys.errnoString())") }
            sent += n
        }
        var got: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            guard Sys.monotonicNanos() < deadline else { throw ToolError(.tempFail, "\(server) did not answer within \(timeout) s") }
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { throw ToolError(.tempFail, "\(server) did not answer within \(timeout) s") }
            guard n >= 0 else { throw ToolError(.tempFail, "cannot read from \(server): \(Sys.errnoString())") }
            if n == 0 {
                guard !got.isEmpty else { throw ToolError(.tempFail, "\(server) closed the connection without answering \(target.terminalSafe)") }
                break
            }
            got.append(contentsOf: buf[0..<n])
            guard got.count <= maxBytes else { throw ToolError(.dataError, "\(server) sent more than \(maxBytes >> 20) MB for \(target.terminalSafe)") }
        }
        switch response(got) {
        case .success(let r): return r
        case .failure(let why): throw ToolError(.dataError, "\(server) answered \(target.terminalSafe) badly: \(why.reason)")
        }
    }

    /// A connected TCP socket to the server, trying each address its
    /// name has; sends and receives time out after `timeout` seconds.
    static func dial(_ server: Server, timeout: Int) throws(ToolError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>? = nil
        let name = server.host.hasPrefix("[") ? String(server.host.dropFirst().dropLast()) : server.host
        let rc = getaddrinfo(name, String(server.port), &hints, &list)
        guard rc == 0, let first = list else {
            throw ToolError(.tempFail, "cannot find \(server.host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(first) }
        var why = "no address"
        var p: UnsafeMutablePointer<addrinfo>? = first
        while let a = p {
            p = a.pointee.ai_next
            let fd = socket(a.pointee.ai_family, a.pointee.ai_socktype, a.pointee.ai_protocol)
            guard fd >= 0 else { why = Sys.errnoString(); continue }
            var tv = timeval(tv_sec: max(1, timeout), tv_usec: 0)
            _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            var r: Int32
            repeat { r = connect(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) } while r != 0 && errno == EINTR
            if r == 0 { return fd }
            why = errno == EINPROGRESS || errno == EAGAIN ? "no answer within \(timeout) s" : Sys.errnoString()
            close(fd)
        }
        throw ToolError(.tempFail, "cannot connect to \(server): \(why)")
    }
}
