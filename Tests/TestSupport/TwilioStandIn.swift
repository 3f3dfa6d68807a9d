import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A local stand-in for the part of Twilio's REST API that tenclub's
/// documentation uses, on 127.0.0.1 at a port of the system's choosing:
/// `POST /2010-04-01/Accounts/{AccountSid}/Messages.json` (send a message)
/// and `GET` of the same (list messages, filtered by `To`/`From`).
///
/// It checks a request as Twilio's API reference describes it and answers
/// as Twilio does: HTTP Basic authentication with the account SID and auth
/// token (401, error 20003, otherwise); the account's own path (404, 20404);
/// a form (`application/x-www-form-urlencoded`) with `To` in E.164 (21604
/// missing, 21211 invalid), `From` the account's number (21603, 21606) and
/// a `Body` of 1 to 1,600 characters (21602, 21617), each a 400; a message
/// accepted is a 201 with the message resource (`sid` SM…, `status`
/// "queued"). Every request is recorded, with the status it got.
///
/// One thread serves one connection at a time; every wait on a socket is
/// bounded (accept by polling for `stop()`, reads and writes by 5-second
/// socket timeouts), so a client that stalls costs seconds, never a hung
/// test. `stop()` ends it; call it in tearDown.
public final class TwilioStandIn: @unchecked Sendable {
    public struct Request: Sendable {
        public var method: String
        /// The path without the query.
        public var path: String
        /// Header names in lower case.
        public var headers: [String: String]
        /// The query's fields (GET) or the form's (POST), decoded.
        public var fields: [String: String]
        /// The status it was answered with.
        public var status: Int
    }

    public let sid: String
    public let token: String
    /// The account's phone number: the only `From` it accepts.
    public let from: String
    public private(set) var port: UInt16 = 0
    /// `http://127.0.0.1:PORT`: what stands for `https://api.twilio.com`.
    public var base: String { "http://127.0.0.1:\(port)" }

    private let lock = NSLock()
    private var recorded: [Request] = []
    private var inbound: [[String: String]] = []
    private var stopping = false
    private var listener: Int32 = -1
    private let finished = DispatchSemaphore(value: 0)

    public init(sid: String, token: String, from: String) throws {
        self.sid = sid
        self.token = token
        self.from = from
        listener = try Self.openListener()
        port = try Self.port(of: listener)
        let thread = Thread { [self] in
            serve()
            finished.signal()
        }
        thread.start()
    }

    /// What was asked so far, in order.
    public var requests: [Request] { lock.withLock { recorded } }

    /// A message to the account's number, for the list (`GET`) to return.
    public func receive(from sender: String, body: String, sid messageSid: String) {
        lock.withLock { inbound.append(["sid": messageSid, "from": sender, "to": from, "body": body]) }
    }

    /// Stops serving and closes the socket; waits for the thread (at most
    /// a few seconds: its reads are bounded).
    public func stop() {
        let first: Bool = lock.withLock {
            defer { stopping = true }
            return !stopping
        }
        guard first else { return }
        _ = finished.wait(timeout: .now() + 15)
        close(listener)
    }

    // MARK: The socket

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A closed peer is an error from send(2), not SIGPIPE for the test runner.
    #if canImport(Glibc)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    private static let noSignal: Int32 = 0
    #endif

    private static func openListener() throws -> Int32 {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        #if canImport(Darwin)
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            let e = errno
            close(fd)
            throw Failure(description: "bind/listen on 127.0.0.1: errno \(e)")
        }
        return fd
    }

    private static func port(of fd: Int32) throws -> UInt16 {
        var addr = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let r = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        guard r == 0 else { throw Failure(description: "getsockname: errno \(errno)") }
        return UInt16(bigEndian: addr.sin_port)
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    private func serve() {
        while !isStopping {
            var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) > 0 else { continue }
            let c = accept(listener, nil, nil)
            guard c >= 0 else { continue }
            _ = fcntl(c, F_SETFD, FD_CLOEXEC)
            var limit = timeval(tv_sec: 5, tv_usec: 0)
            _ = setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            _ = setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            handle(c)
            close(c)
        }
    }

    /// Reads one request (head, then a body of Content-Length bytes, at
    /// most 64 KiB in all) and answers it.
    private func handle(_ c: Int32) {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        func more() -> Bool {
            let n = buffer.withUnsafeMutableBytes { recv(c, $0.baseAddress, $0.count, 0) }
            guard n > 0, data.count + n <= 65_536 else { return false }
            data.append(contentsOf: buffer[0..<n])
            return true
        }
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            guard more() else { return }
            headEnd = Self.find(separator, in: data)
        }
        let head = String(decoding: data[0..<headEnd!], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ").map(String.init)
        guard requestLine.count == 3 else { return answer(c, 400, ["message": "bad request line"]) }
        var headers: [String: String] = [:]
        for l in lines {
            guard let colon = l.firstIndex(of: ":") else { continue }
            headers[l[..<colon].lowercased()] = l[l.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? -1
        guard (0...60_000).contains(length) else { return answer(c, 400, ["message": "bad Content-Length"]) }
        if headers["expect"]?.lowercased() == "100-continue" { writeAll(c, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) }
        let bodyStart = headEnd! + separator.count
        while data.count - bodyStart < length { guard more() else { return } }
        let body = String(decoding: data[bodyStart..<(bodyStart + length)], as: UTF8.self)
        let target = requestLine[1]
        let path = String(target.prefix { $0 != "?" })
        let query = target.contains("?") ? String(target.drop { $0 != "?" }.dropFirst()) : ""
        var request = Request(method: requestLine[0], path: path, headers: headers, fields: [:], status: 0)
        let (status, json) = respond(&request, query: query, body: body)
        request.status = status
        lock.withLock { recorded.append(request) }
        answer(c, status, json)
    }

    private func respond(_ r: inout Request, query: String, body: String) -> (Int, Any) {
        func error(_ status: Int, _ code: Int, _ message: String) -> (Int, Any) {
            (status, ["code": code, "message": message, "more_info": "https://www.twilio.com/docs/errors/\(code)", "status": status])
        }
        let basic = "Basic " + Data("\(sid):\(token)".utf8).base64EncodedString()
        guard r.headers["authorization"] == basic else {
            return error(401, 20003, "Authenticate")
        }
        guard r.path == "/2010-04-01/Accounts/\(sid)/Messages.json" else {
            return error(404, 20404, "The requested resource \(r.path) was not found")
        }
        switch r.method {
        case "GET":
            guard let q = Self.form(query) else { return error(400, 20001, "Invalid query") }
            r.fields = q
            let list = lock.withLock { inbound }.filter { m in
                (q["To"].map { $0 == m["to"] } ?? true) && (q["From"].map { $0 == m["from"] } ?? true)
            }
            let messages: [[String: Any]] = list.map { m in
                m.merging(["account_sid": sid, "direction": "inbound", "status": "received", "num_segments": "1",
                           "api_version": "2010-04-01"]) { a, _ in a }
            }
            return (200, ["messages": messages, "page": 0, "page_size": 50, "start": 0, "end": max(0, messages.count - 1),
                          "first_page_uri": r.path + "?" + query + "&Page=0&PageSize=50", "next_page_uri": NSNull(),
                          "previous_page_uri": NSNull(), "uri": r.path + "?" + query])
        case "POST":
            guard (r.headers["content-type"] ?? "").lowercased().hasPrefix("application/x-www-form-urlencoded"),
                  let f = Self.form(body) else {
                return error(400, 20001, "The request body must be application/x-www-form-urlencoded")
            }
            r.fields = f
            guard let to = f["To"], !to.isEmpty else { return error(400, 21604, "A 'To' phone number is required.") }
            guard to.range(of: #"^\+[1-9][0-9]{1,14}$"#, options: .regularExpression) != nil else {
                return error(400, 21211, "Invalid 'To' Phone Number: \(to)")
            }
            guard let sender = f["From"], !sender.isEmpty else {
                return error(400, 21603, "A 'From' or 'MessagingServiceSid' parameter is required to send a message")
            }
            guard sender == from else {
                return error(400, 21606, "The From phone number \(sender) is not a valid, SMS-capable inbound phone number or short code for your account.")
            }
            guard let text = f["Body"], !text.isEmpty else { return error(400, 21602, "Message body is required.") }
            guard text.count <= 1600 else { return error(400, 21617, "The concatenated message body exceeds the 1600 character limit.") }
            let messageSid = "SM" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            return (201, ["sid": messageSid, "account_sid": sid, "from": sender, "to": to, "body": text,
                          "status": "queued", "direction": "outbound-api", "num_segments": "\((text.utf16.count + 152) / 153)",
                          "api_version": "2010-04-01", "price": NSNull(), "error_code": NSNull(), "error_message": NSNull(),
                          "uri": "/2010-04-01/Accounts/\(sid)/Messages/\(messageSid).json"])
        default:
            return error(405, 20004, "Method not allowed")
        }
    }

    /// `a=1&b=x+y%21` as Twilio reads a form or a query: `+` is a space,
    /// `%XX` a byte of UTF-8; nil if a percent escape is malformed.
    public static func form(_ s: String) -> [String: String]? {
        var fields: [String: String] = [:]
        for pair in s.split(separator: "&", omittingEmptySubsequences: true) {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ x: Substring) -> String? { x.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let k = decode(kv[0]), let v = decode(kv.count > 1 ? kv[1] : "") else { return nil }
            fields[k] = v
        }
        return fields
    }

    private func answer(_ c: Int32, _ status: Int, _ json: Any) {
        let reasons = [200: "OK", 201: "Created", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 405: "Method Not Allowed"]
        let body = (try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])) ?? Data("{}".utf8)
        let head = "HTTP/1.1 \(status) \(reasons[status] ?? "Error")\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        writeAll(c, Array(head.utf8) + Array(body))
    }

    private func writeAll(_ c: Int32, _ bytes: [UInt8]) {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { send(c, $0.baseAddress, $0.count, Self.noSignal) }
            guard n > 0 else { return }
            off += n
        }
    }

    private static func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        for i in 0...(hay.count - needle.count) where hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
        return nil
    }
}
