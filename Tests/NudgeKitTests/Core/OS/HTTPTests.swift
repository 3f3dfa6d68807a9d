import XCTest
import TestSupport
@testable import NudgeKit

/// Core's HTTP client, as values: the URLs it takes (nothing that could
/// reach the wire as more than one request line and one Host header) and
/// the responses it reads (a body exactly as Content-Length or the chunks
/// say, or a reason).
final class HTTPTests: XCTestCase {
    func testURLsTakenAndRefused() {
        let ok: [(String, HTTP.Server)] = [
            ("http://localhost:5600", .init(host: "localhost", port: 5600, base: "")),
            ("HTTP://LocalHost:5600/", .init(host: "LocalHost", port: 5600, base: "")),
            ("http://127.0.0.1:5666/aw//", .init(host: "127.0.0.1", port: 5666, base: "/aw")),
            ("http://kidpc.lan", .init(host: "kidpc.lan", port: 80, base: "")),
            ("http://[::1]:5600", .init(host: "[::1]", port: 5600, base: "")),
        ]
        for (url, want) in ok {
            guard case .success(let s) = HTTP.server(url) else { return XCTFail(url) }
            XCTAssertEqual(s, want, url)
        }
        XCTAssertEqual(try HTTP.server("http://localhost:5600/x").get().description, "http://localhost:5600/x")
        XCTAssertEqual(try HTTP.server("http://kidpc").get().description, "http://kidpc")
        let refused: [(String, String)] = [
            ("https://localhost:5600", "is https"), ("localhost:5600", "is not an http URL"), ("ftp://x", "is not an http URL"),
            ("http://mum:pw@localhost", "has a user name"), ("http://localhost/?a=1", "has a query"), ("http://localhost/#x", "has a query"),
            ("http://localhost:0", "has a port"), ("http://localhost:65536", "has a port"), ("http://localhost:", "has a port"),
            ("http://localhost:+80", "has a port"), ("http://localhost:５６００", "has a space or a character"), ("http://", "has no host"),
            ("http://local host", "has a space"), ("http://localhost\r\nX-Evil: 1", "has a space"), ("http://localhost/a b", "has a space"),
            ("http://127.0.0.1:6040?x=1", "has a query"), ("http://localhost#f", "has a query"), ("http://127.0.0.1:6040 ", "has a space"),
            ("http://localhost/a\r\nHost: evil", "has a space"), ("http://[::1", "unclosed"), ("http://[::1]x", "after the address"),
            ("http://[zz]:1", "bad IPv6"), ("http://ex%61mple", "has no host"), ("http://" + String(repeating: "a", count: 254), "has no host"),
        ]
        for (url, why) in refused {
            guard case .failure(let e) = HTTP.server(url) else { XCTFail("taken: \(url)"); continue }
            XCTAssertEqual(e.code, .usage, url)
            XCTAssertTrue(e.message.contains(why), "\(url): \(e.message)")
            XCTAssertTrue(e.message.hasSuffix("need an http:// URL such as http://localhost:5600 (host, optional :port and path; no https, user, query or fragment)"))
            XCTAssertFalse(e.message.contains("\n") || e.message.contains("\r"), e.message)
        }
        // A long URL is not echoed whole.
        guard case .failure(let long) = HTTP.server("http://" + String(repeating: "a", count: 70_000) + " ") else { return XCTFail() }
        XCTAssertLessThan(long.message.count, 400)
    }

    func testPercentEncodingLeavesOnlyUnreservedCharacters() {
        XCTAssertEqual(HTTP.percentEncode("aw-watcher-window_kid.pc~"), "aw-watcher-window_kid.pc~")
        XCTAssertEqual(HTTP.percentEncode("a/b?c&d=e#f g+ü"), "a%2Fb%3Fc%26d%3De%23f%20g%2B%C3%BC")
        XCTAssertEqual(HTTP.percentEncode("2026-11-22T14:00:00+00:00"), "2026-11-22T14%3A00%3A00%2B00%3A00")
    }

    func testResponsesByLengthByChunksAndToTheEnd() throws {
        func r(_ s: String) -> Result<HTTP.Response, HTTP.Bad> { HTTP.response(Array(s.utf8)) }
        let byLength = try r("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]junk").get()
        XCTAssertEqual(byLength.status, 200)
        XCTAssertEqual(byLength.body, Array("[]".utf8))
        XCTAssertEqual(byLength.header("content-type"), "application/json")
        XCTAssertEqual(byLength.header("Content-Length"), "2")
        let chunks = try r("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\n[1,2\r\n1\r\n]\r\n0\r\n\r\n").get()
        XCTAssertEqual(String(decoding: chunks.body, as: UTF8.self), "[1,2]")
        let toEnd = try r("HTTP/1.0 404 NOT FOUND\nServer: x\n\nnot here").get()
        XCTAssertEqual(toEnd.status, 404)
        XCTAssertEqual(String(decoding: toEnd.body, as: UTF8.self), "not here")
        let bad: [(String, String)] = [
            ("", "no complete status line"), ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n", "no complete status line"),
            ("SSH-2.0-OpenSSH\r\n\r\n", "not an HTTP/1 status line"), ("HTTP/2 200\r\n\r\n", "not an HTTP/1 status line"),
            ("HTTP/1.1 2x0 OK\r\n\r\n", "not an HTTP/1 status line"), ("HTTP/1.1 200 OK\r\n: x\r\n\r\n", "without a name"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n[]", "after 2 of its 10 bytes"),
            ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n[]", "not a number"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n", "not a number"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "not hexadecimal"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc", "after 3 of its 16 bytes"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX", "not followed by a line end"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n", "without its size line"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n", "not hexadecimal"),
            ("HTTP/1.1 200 OK\r\n" + String(repeating: "X: y\r\n", count: 201) + "\r\n", "more than 200 header lines"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", "other than chunked"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 1\r\n\r\n[]", "two Content-Length headers"),
        ]
        for (text, why) in bad {
            guard case .failure(let e) = r(text) else { XCTFail("taken: \(text.debugDescription)"); continue }
            XCTAssertTrue(e.reason.contains(why), "\(text.debugDescription): \(e.reason)")
        }
    }

    /// Any body, sent whole, by length or in random chunks, reads back as itself.
    func testAnyBodyInAnyFramingReadsBack() throws {
        var rng = SeededRandom(seed: 80)
        for round in 0..<2000 {
            let body = (0..<Int.random(in: 0...300, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var head = "HTTP/1.1 200 OK\r\nServer: Werkzeug/2.2.2\r\n"
            var payload: [UInt8] = []
            switch round % 3 {
            case 0:
                head += "Content-Length: \(body.count)\r\n"
                payload = body
            case 1:
                head += "Transfer-Encoding: chunked\r\n"
                var i = 0
                while i < body.count {
                    let n = min(body.count - i, Int.random(in: 1...40, using: &rng))
                    payload += Array((String(n, radix: 16, uppercase: Bool.random(using: &rng)) + "\r\n").utf8) + body[i..<(i + n)] + Array("\r\n".utf8)
                    i += n
                }
                payload += Array("0\r\n\r\n".utf8)
            default:
                payload = body  // to the close
            }
            let r = try HTTP.response(Array((head + "\r\n").utf8) + payload).get()
            XCTAssertEqual(r.body, body, "round \(round)")
            XCTAssertEqual(r.status, 200)
        }
    }

    /// The client against a real listener on loopback: a server that says
    /// nothing is a timeout, not a hang; one that sends too much is refused.
    func testASilentServerTimesOutAndAFloodIsCut() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var a = Loopback.address(0)
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        XCTAssertEqual(withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }, 0)
        XCTAssertEqual(listen(fd, 4), 0)
        _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        let server = HTTP.Server(host: "127.0.0.1", port: Int(UInt16(bigEndian: a.sin_port)), base: "")
        // Accepted by the kernel's backlog, never answered.
        let start = Sys.monotonicNanos()
        XCTAssertThrowsError(try HTTP.get(server, "/api/0/info", timeout: 1)) { e in
            XCTAssertEqual((e as? ToolError)?.code, .tempFail)
            XCTAssertEqual((e as? ToolError)?.message, "http://127.0.0.1:\(server.port) did not answer within 1 s")
        }
        XCTAssertLessThan(Sys.monotonicNanos() - start, 5_000_000_000)
        // A server that sends more than the bound.
        // (The silent connection, closed by now, is accepted first.)
        let writer = Thread {
            for _ in 0..<2 {
                let c = accept(fd, nil, nil)
                guard c >= 0 else { return }
                // The request read first, so that closing sends no reset.
                var request = [UInt8](repeating: 0, count: 4096)
                if recv(c, &request, request.count, 0) <= 0 { close(c); continue }
                let chunk = [UInt8](repeating: 0x61, count: 65536)
                var sent = 0
                while sent < 3 << 20 {
                    let n = chunk.withUnsafeBytes { send(c, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
                    if n <= 0 { break }
                    sent += n
                }
                close(c)
            }
        }
        writer.start()
        XCTAssertThrowsError(try HTTP.get(server, "/x", timeout: 10, maxBytes: 1 << 20)) { e in
            XCTAssertEqual((e as? ToolError)?.code, .dataError)
            XCTAssertTrue((e as? ToolError)?.message.contains("sent more than 1 MB") ?? false, "\(e)")
        }
    }
}
