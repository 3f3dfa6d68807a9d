// The network's readers: an HTTP response as a server sends it, and a URL
// as a person types it.
import NudgeKit

enum FuzzNet {
    /// A response is read or refused; read, its body is no longer than what
    /// came, and a Content-Length body is what follows the head. The same
    /// bytes as a URL: taken, its description is taken again as the same
    /// server, and nothing in it can break a request line or a header.
    static func http(_ data: UnsafeRawBufferPointer) throws(FuzzFailure) {
        let bytes = Array(data)
        if case .success(let r) = HTTP.response(bytes) {
            if r.body.count > bytes.count { throw FuzzFailure("a body longer than the response") }
            if r.status < 0 || r.status > 999 { throw FuzzFailure("a status of more than three digits") }
            if r.header("transfer-encoding") == nil, let n = r.header("content-length").flatMap({ Int($0) }), r.body.count != n {
                throw FuzzFailure("a body of \(r.body.count) bytes where Content-Length says \(n)")
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if case .success(let s) = HTTP.server(text) {
            let wire = s.host + s.base
            if wire.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }) { throw FuzzFailure("a URL taken with a space or control character in it") }
            guard case .success(let again) = HTTP.server(s.description), again == s else {
                throw FuzzFailure("a URL's description is not taken as the same server")
            }
        }
    }
}
