// Reading only the named fields of a line's JSON object: every byte is
// checked as the parser checks it, only the fields asked for are built
// (`[JSON?]`), or, for a reader of millions of lines, a plain ASCII string
// is given as where it lies in the line (`[ScannedField]`). The first of a
// field named twice counts, as in a JSONObject.
#if canImport(Glibc)
import Glibc
#endif

extension JSON {
    /// Validates a line holding one JSON object and returns only the named
    /// top-level fields (nil where absent); other values are checked but never
    /// built. The fast path for ingesting large streams.
    public static func scanObject(_ bytes: UnsafeRawBufferPointer, fields wanted: [[UInt8]]) throws(JSONParseError) -> [JSON?] {
        var out = [JSON?](repeating: nil, count: wanted.count)
        try scanObject(bytes, fields: wanted, into: &out)
        return out
    }

    /// The same into `out` (as many slots as `wanted`, all set): a reader of
    /// millions of lines keeps one array rather than making one per line.
    public static func scanObject(_ bytes: UnsafeRawBufferPointer, fields wanted: [[UInt8]], into out: inout [JSON?]) throws(JSONParseError) {
        precondition(out.count == wanted.count)
        for k in out.indices { out[k] = nil }
        try scan(bytes, fields: wanted) { (p, slot) throws(JSONParseError) in
            if out[slot] == nil { out[slot] = try p.value(depth: 1) } else { try p.skipValue(depth: 1) }
        }
    }

    /// The same, a string field of printable ASCII without escapes (what
    /// names and times nearly always are) given as where its text lies in
    /// `bytes` rather than made into a String: a reader of millions of
    /// lines compares and parses those bytes in place. Any other value is
    /// built as `scanObject` builds it.
    public static func scanObject(_ bytes: UnsafeRawBufferPointer, fields wanted: [[UInt8]], into out: inout [ScannedField]) throws(JSONParseError) {
        precondition(out.count == wanted.count)
        for k in out.indices { out[k] = .absent }
        try scan(bytes, fields: wanted) { (p, slot) throws(JSONParseError) in
            guard case .absent = out[slot] else { try p.skipValue(depth: 1); return }
            if let r = p.plainASCII() { out[slot] = .text(r) } else { out[slot] = .value(try p.value(depth: 1)) }
        }
    }

    /// Walks one line's object, checking all of it, and hands each wanted
    /// field's value to `take` (the parser at its first byte, the slot).
    @inline(__always)
    private static func scan(_ bytes: UnsafeRawBufferPointer, fields wanted: [[UInt8]],
                             _ take: (inout JSONByteParser, Int) throws(JSONParseError) -> Void) throws(JSONParseError) {
        var p = JSONByteParser(bytes)
        p.skipSpace()
        guard p.i < p.end else { throw p.error("empty line") }
        guard p.b[p.i] == UInt8(ascii: "{") else {
            let v = try p.value(depth: 0)
            throw JSONParseError(message: "expected a JSON object, got \(v.kindName)")
        }
        p.i += 1
        p.skipSpace()
        if p.i < p.end && p.b[p.i] == UInt8(ascii: "}") {
            p.i += 1
        } else {
            while true {
                p.skipSpace()
                guard p.i < p.end, p.b[p.i] == UInt8(ascii: "\"") else { throw p.error("expected a field name in quotes") }
                let keyStart = p.i + 1
                let plain = try p.skipString()
                let keyEnd = p.i - 1
                var slot = -1
                if plain {
                    for (n, w) in wanted.enumerated() where w.count == keyEnd - keyStart {
                        var same = true
                        for j in 0..<w.count where p.b[keyStart + j] != w[j] { same = false; break }
                        if same { slot = n; break }
                    }
                } else {
                    p.i = keyStart - 1
                    let k = try p.string()
                    let kb = Array(k.utf8)
                    slot = wanted.firstIndex(of: kb) ?? -1
                }
                p.skipSpace()
                guard p.i < p.end, p.b[p.i] == UInt8(ascii: ":") else { throw p.error("expected ':' after a field name") }
                p.i += 1
                p.skipSpace()
                if slot >= 0 { try take(&p, slot) } else { try p.skipValue(depth: 1) }
                p.skipSpace()
                guard p.i < p.end else { throw p.error("unterminated object") }
                if p.b[p.i] == UInt8(ascii: ",") { p.i += 1; continue }
                if p.b[p.i] == UInt8(ascii: "}") { p.i += 1; break }
                throw p.error("expected ',' or '}' in an object")
            }
        }
        p.skipSpace()
        if p.i < p.end { throw p.error("unexpected text after the JSON object") }
    }
}

extension JSONByteParser {
    /// At a string's opening quote: where its text lies when every byte of
    /// it is printable ASCII and none is an escape (then past its closing
    /// quote); else nil, the parser where it was.
    mutating func plainASCII() -> Range<Int>? {
        guard i < end, b[i] == UInt8(ascii: "\""), let q = memchr(b.baseAddress! + i + 1, 0x22, end - i - 1) else { return nil }
        let close = b.baseAddress!.distance(to: UnsafeRawPointer(q))
        var k = i + 1
        while k < close {
            let c = b[k]
            if c < 0x20 || c > 0x7E || c == UInt8(ascii: "\\") { return nil }
            k += 1
        }
        defer { i = close + 1 }
        return (i + 1)..<close
    }
}

/// A field as `JSON.scanObject(_:fields:into:)` found it in a line: not
/// there, a plain ASCII string's text (where it lies in the line), or any
/// other value.
public enum ScannedField: Sendable {
    case absent
    case text(Range<Int>)
    case value(JSON)

    /// The field as a value (a text made into its string), nil when absent.
    public func json(in bytes: UnsafeRawBufferPointer) -> JSON? {
        switch self {
        case .absent: return nil
        case .text(let r): return .string(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[r]), as: UTF8.self))
        case .value(let v): return v
        }
    }
}
