// JSON values, a strict byte-level parser and a compact writer.
// Objects keep their field order so that output is stable and readable.

public enum JSON: Equatable, Sendable {
    /// Numbers compare by value: `1` and `1.0` are the same JSON number.
    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.int, .double), (.double, .int), (.double, .double): return a.double == b.double
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x == y
        default: return false
        }
    }

    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)

    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var bool: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var object: JSONObject? { if case .object(let o) = self { return o }; return nil }
    public var array: [JSON]? { if case .array(let a) = self { return a }; return nil }
    public var isNull: Bool { if case .null = self { return true }; return false }
    public var int: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e15: return Int64(d)
        default: return nil
        }
    }
    public var double: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }
    /// The name of this value's kind, for error messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral v: String) { self = .string(v) }
    public init(integerLiteral v: Int) { self = .int(Int64(v)) }
    public init(booleanLiteral v: Bool) { self = .bool(v) }
    public init(nilLiteral: ()) { self = .null }
    public init(floatLiteral v: Double) { self = .double(v) }
}

extension JSON {
    public init(_ s: String?) { self = s.map { .string($0) } ?? .null }
    public init(_ i: Int) { self = .int(Int64(i)) }
    public init(_ i: Int?) { self = i.map { .int(Int64($0)) } ?? .null }
    public init(_ b: Bool) { self = .bool(b) }
    public init(_ a: [String]) { self = .array(a.map { .string($0) }) }
}

/// A JSON object with ordered fields.
public struct JSONObject: Equatable, Sendable, ExpressibleByDictionaryLiteral {
    public private(set) var keys: [String]
    public private(set) var values: [JSON]

    public init() {
        keys = []
        values = []
    }
    public init(_ fields: [(String, JSON)]) {
        self.init()
        for (k, v) in fields { self[k] = v }
    }
    /// Literal fields are taken as written (names in a literal are unique).
    public init(dictionaryLiteral elements: (String, JSON)...) {
        keys = elements.map(\.0)
        values = elements.map(\.1)
    }

    /// Fields as parsed, in order (a repeated name keeps its first value on lookup).
    init(parsedKeys: [String], values: [JSON]) {
        keys = parsedKeys
        self.values = values
    }

    public var fields: [(key: String, value: JSON)] { Array(zip(keys, values)).map { (key: $0.0, value: $0.1) } }

    public subscript(key: String) -> JSON? {
        get {
            for i in keys.indices where keys[i] == key { return values[i] }
            return nil
        }
        set {
            if let i = keys.firstIndex(of: key) {
                if let v = newValue { values[i] = v } else { keys.remove(at: i); values.remove(at: i) }
            } else if let v = newValue {
                keys.append(key)
                values.append(v)
            }
        }
    }

    public var isEmpty: Bool { keys.isEmpty }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        guard a.keys.count == b.keys.count else { return false }
        for i in a.keys.indices where b[a.keys[i]] != a.values[i] { return false }
        return true
    }
}

// MARK: - Reading records' fields

extension JSONObject {
    /// The string in field `key`, or nil when it is absent or null. A field
    /// of another type is bad data, named with the type it must have:
    /// `"body" must be a string, not a number`.
    public func optionalString(_ key: String) throws(ToolError) -> String? {
        switch self[key] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        case let v?: throw .data("\"\(key)\" must be a string, not \(v.kindName)")
        }
    }

    /// The string in field `key`; a missing field is `missing "key"` plus
    /// `hint` (what a record looks like), a field of another type as above.
    public func requiredString(_ key: String, hint: String? = nil) throws(ToolError) -> String {
        guard let s = try optionalString(key) else {
            throw .data("missing \"\(key)\"" + (hint.map { ": " + $0 } ?? ""))
        }
        return s
    }

    /// The number in field `key`, or nil when it is absent or null; another
    /// type is bad data naming the field.
    public func optionalNumber(_ key: String) throws(ToolError) -> Double? {
        switch self[key] {
        case nil, .null?: return nil
        case .int(let i)?: return Double(i)
        case .double(let d)?: return d
        case let v?: throw .data("\"\(key)\" must be a number, not \(v.kindName)")
        }
    }
}

public struct JSONParseError: Error, Equatable, CustomStringConvertible {
    public var message: String
    /// For a syntax error: what is wrong, and the byte offset where it was seen.
    public var reason: String? = nil
    public var offset: Int? = nil
    public var description: String { message }

    public init(message: String, reason: String? = nil, offset: Int? = nil) {
        self.message = message
        self.reason = reason
        self.offset = offset
    }

    /// Where a syntax error is in a whole document, as a person counts:
    /// line and column from 1, the column in characters (UTF-8 sequences).
    public func location(in bytes: [UInt8]) -> (line: Int, column: Int)? {
        guard let offset = offset else { return nil }
        var line = 1, column = 1
        for b in bytes.prefix(offset) {
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}

// MARK: - Parsing

extension JSON {
    /// Parses one complete JSON text.
    public static func parse(_ text: String) throws(JSONParseError) -> JSON {
        try withUTF8Bytes(text) { (b) throws(JSONParseError) -> JSON in try parse(b) }
    }

    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSON {
        try withBytes(bytes) { (b) throws(JSONParseError) -> JSON in try parse(b) }
    }

    /// Parses a whole document read from a file (an export, an import): as
    /// `parse`, but a leading UTF-8 byte order mark is skipped.
    public static func parseDocument(_ bytes: [UInt8]) throws(JSONParseError) -> JSON {
        try parse(droppingBOM(bytes))
    }

    /// The bytes without a leading UTF-8 byte order mark (EF BB BF).
    public static func droppingBOM(_ bytes: [UInt8]) -> [UInt8] {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? Array(bytes.dropFirst(3)) : bytes
    }

    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSON {
        var p = JSONByteParser(bytes)
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        if p.i < p.end { throw p.error("unexpected text after the JSON value") }
        return v
    }

    /// Parses a line that must hold one JSON object; the error says what it got instead.
    public static func parseObject(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONObject {
        var p = JSONByteParser(bytes)
        p.skipSpace()
        if p.i < p.end && p.b[p.i] != UInt8(ascii: "{") {
            let v = try p.value(depth: 0)
            throw JSONParseError(message: "expected a JSON object, got \(v.kindName)")
        }
        guard case .object(let o) = try p.value(depth: 0) else {
            throw JSONParseError(message: "expected a JSON object")
        }
        p.skipSpace()
        if p.i < p.end { throw p.error("unexpected text after the JSON object") }
        return o
    }

    /// Validates a line holding one JSON object and returns only the named
    /// top-level fields (nil where absent); other values are checked but never
    /// built. The fast path for ingesting large streams.
    public static func scanObject(_ bytes: UnsafeRawBufferPointer, fields wanted: [[UInt8]]) throws(JSONParseError) -> [JSON?] {
        var p = JSONByteParser(bytes)
        var out = [JSON?](repeating: nil, count: wanted.count)
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
                if slot >= 0 { out[slot] = try p.value(depth: 1) } else { try p.skipValue(depth: 1) }
                p.skipSpace()
                guard p.i < p.end else { throw p.error("unterminated object") }
                if p.b[p.i] == UInt8(ascii: ",") { p.i += 1; continue }
                if p.b[p.i] == UInt8(ascii: "}") { p.i += 1; break }
                throw p.error("expected ',' or '}' in an object")
            }
        }
        p.skipSpace()
        if p.i < p.end { throw p.error("unexpected text after the JSON object") }
        return out
    }
}

struct JSONByteParser {
    let b: UnsafeRawBufferPointer
    var i: Int
    let end: Int
    static let maxDepth = 256

    init(_ b: UnsafeRawBufferPointer) {
        self.b = b
        i = 0
        end = b.count
    }

    func error(_ m: String) -> JSONParseError {
        JSONParseError(message: "not valid JSON: \(m) at column \(i + 1)", reason: m, offset: i)
    }

    @inline(__always) mutating func skipSpace() {
        while i < end {
            let c = b[i]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { break }
        }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSON {
        guard i < end else { throw error("unexpected end of input") }
        if depth > JSONByteParser.maxDepth { throw error("nested too deeply") }
        switch b[i] {
        case UInt8(ascii: "{"):
            i += 1
            var keys: [String] = []
            var values: [JSON] = []
            skipSpace()
            if i < end && b[i] == UInt8(ascii: "}") { i += 1; return .object(JSONObject()) }
            while true {
                skipSpace()
                guard i < end else { throw error("unexpected end of input") }
                guard b[i] == UInt8(ascii: "\"") else { throw error("expected a field name in quotes") }
                let k = try string()
                skipSpace()
                guard i < end, b[i] == UInt8(ascii: ":") else { throw error("expected ':' after a field name") }
                i += 1
                skipSpace()
                let v = try value(depth: depth + 1)
                keys.append(k)
                values.append(v)
                skipSpace()
                guard i < end else { throw error("unterminated object") }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                if b[i] == UInt8(ascii: "}") { i += 1; return .object(JSONObject(parsedKeys: keys, values: values)) }
                throw error("expected ',' or '}' in an object")
            }
        case UInt8(ascii: "["):
            i += 1
            var a: [JSON] = []
            skipSpace()
            if i < end && b[i] == UInt8(ascii: "]") { i += 1; return .array(a) }
            while true {
                skipSpace()
                a.append(try value(depth: depth + 1))
                skipSpace()
                guard i < end else { throw error("unterminated array") }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                if b[i] == UInt8(ascii: "]") { i += 1; return .array(a) }
                throw error("expected ',' or ']' in an array")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true"); return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false"); return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try number()
        default:
            throw error("unexpected character '\(Unicode.Scalar(b[i]))'")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let n = word.utf8CodeUnitCount
        guard end - i >= n else { throw error("unexpected end of input") }
        let p = word.utf8Start
        for j in 0..<n where b[i + j] != p[j] { throw error("unexpected character '\(Unicode.Scalar(b[i]))'") }
        i += n
    }

    mutating func number() throws(JSONParseError) -> JSON {
        let start = i
        var negative = false
        if b[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        guard i < end, b[i] >= 0x30 && b[i] <= 0x39 else { throw error("a number needs digits") }
        var intValue: Int64 = 0
        var overflow = false
        if b[i] == 0x30 {
            i += 1
            if i < end && b[i] >= 0x30 && b[i] <= 0x39 { throw error("numbers may not have leading zeros") }
        } else {
            while i < end && b[i] >= 0x30 && b[i] <= 0x39 {
                let (m, o1) = intValue.multipliedReportingOverflow(by: 10)
                let (s, o2) = m.addingReportingOverflow(Int64(b[i] - 0x30))
                overflow = overflow || o1 || o2
                intValue = s
                i += 1
            }
        }
        var isInt = true
        if i < end && b[i] == UInt8(ascii: ".") {
            isInt = false
            i += 1
            guard i < end, b[i] >= 0x30 && b[i] <= 0x39 else { throw error("a decimal point needs digits after it") }
            while i < end && b[i] >= 0x30 && b[i] <= 0x39 { i += 1 }
        }
        if i < end && (b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E")) {
            isInt = false
            i += 1
            if i < end && (b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")) { i += 1 }
            guard i < end, b[i] >= 0x30 && b[i] <= 0x39 else { throw error("an exponent needs digits") }
            while i < end && b[i] >= 0x30 && b[i] <= 0x39 { i += 1 }
        }
        if isInt && !overflow { return .int(negative ? -intValue : intValue) }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
        guard let d = Double(text) else { throw error("number out of range") }
        return .double(d)
    }

    /// Skips a string starting at the opening quote; true when it had no escapes.
    mutating func skipString() throws(JSONParseError) -> Bool {
        i += 1
        var plain = true
        while i < end {
            let c = b[i]
            if c == UInt8(ascii: "\"") { i += 1; return plain }
            if c == UInt8(ascii: "\\") { plain = false; i += 2; continue }
            if c < 0x20 { throw error("control character in a string") }
            i += 1
        }
        throw error("unterminated string")
    }

    mutating func string() throws(JSONParseError) -> String {
        i += 1
        let start = i
        // Fast path: find the closing quote, then make sure nothing between
        // needs attention (an escape, a control character, non-ASCII).
        if let q = memchr(b.baseAddress! + i, 0x22, end - i) {
            let close = b.baseAddress!.distance(to: UnsafeRawPointer(q))
            var plain = true
            var ascii = true
            var k = i
            while k < close {
                let c = b[k]
                if c == 0x5C || c < 0x20 { plain = false; break }
                if c >= 0x80 { ascii = false }
                k += 1
            }
            if plain {
                let s = UnsafeRawBufferPointer(rebasing: b[start..<close])
                i = close + 1
                if ascii { return String(decoding: s, as: UTF8.self) }
                guard let str = String(validating: s, as: UTF8.self) else { throw error("string is not valid UTF-8") }
                return str
            }
        }
        while i < end {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                let s = UnsafeRawBufferPointer(rebasing: b[start..<i])
                i += 1
                guard let str = JSONByteParser.utf8String(s) else { throw error("string is not valid UTF-8") }
                return str
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw error("control character in a string") }
            i += 1
        }
        var bytes = [UInt8](UnsafeRawBufferPointer(rebasing: b[start..<i]))
        while i < end {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                guard let str = String(validating: bytes, as: UTF8.self) else { throw error("string is not valid UTF-8") }
                return str
            }
            if c < 0x20 { throw error("control character in a string") }
            if c != UInt8(ascii: "\\") { bytes.append(c); i += 1; continue }
            i += 1
            guard i < end else { break }
            let e = b[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): bytes.append(0x22)
            case UInt8(ascii: "\\"): bytes.append(0x5C)
            case UInt8(ascii: "/"): bytes.append(0x2F)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard end - i >= 6, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    i += 2
                    let low = try hex4()
                    guard low >= 0xDC00 && low < 0xE000 else { throw error("unpaired surrogate in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw error("unpaired surrogate in \\u escape")
                }
                guard let u = Unicode.Scalar(scalar) else { throw error("bad \\u escape") }
                bytes.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                throw error("unknown escape '\\\(Unicode.Scalar(e))'")
            }
        }
        throw error("unterminated string")
    }

    /// A String from UTF-8 bytes, nil if they are not valid UTF-8. ASCII (the
    /// common case) skips the generic validator, which is slow per call.
    @inline(__always) static func utf8String(_ s: UnsafeRawBufferPointer) -> String? {
        var ascii = true
        for c in s where c >= 0x80 { ascii = false; break }
        if ascii { return String(decoding: s, as: UTF8.self) }
        return String(validating: s, as: UTF8.self)
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard end - i >= 4 else { throw error("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = b[i]
            var d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw error("bad hex digit in \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    /// Checks a value's syntax without building it.
    mutating func skipValue(depth: Int) throws(JSONParseError) {
        guard i < end else { throw error("unexpected end of input") }
        if depth > JSONByteParser.maxDepth { throw error("nested too deeply") }
        switch b[i] {
        case UInt8(ascii: "\""):
            let start = i
            if !(try skipString()) {
                i = start
                _ = try string()  // escapes: check them properly
            }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            _ = try value(depth: depth)
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try number()
        }
    }
}

// MARK: - Writing

extension JSON {
    /// Compact serialisation, one line, fields in order.
    public var serialized: String {
        var out = [UInt8]()
        write(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    public func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(let v): out.append(contentsOf: v ? Array("true".utf8) : Array("false".utf8))
        case .int(let v): JSON.appendInt(v, into: &out)
        case .double(let d):
            if !d.isFinite {
                out.append(contentsOf: Array("null".utf8))
            } else if d.rounded() == d && abs(d) < 1e15 {
                JSON.appendInt(Int64(d), into: &out)
            } else {
                out.append(contentsOf: Array(d.description.utf8))
            }
        case .string(let s): JSON.appendString(s, into: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (n, v) in a.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                v.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o): o.write(into: &out)
        }
    }

    public static func appendInt(_ v: Int64, into out: inout [UInt8]) {
        if v == 0 { out.append(0x30); return }
        var n = v.magnitude
        var tmp: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                  UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var len = 0
        withUnsafeMutableBytes(of: &tmp) { buf in
            while n > 0 {
                buf[len] = UInt8(n % 10) + 0x30
                n /= 10
                len += 1
            }
            if v < 0 { out.append(UInt8(ascii: "-")) }
            var k = len - 1
            while k >= 0 { out.append(buf[k]); k -= 1 }
        }
    }

    /// A JSON string. Besides what JSON requires (quote, backslash, C0), DEL,
    /// C1 controls, bidi controls and U+2028/U+2029 are written as `\uXXXX`
    /// (`Text.needsEscape`): the data stays exact, and a record shown on a
    /// terminal cannot act on it.
    public static func appendString(_ s: String, into out: inout [UInt8]) {
        out.append(0x22)
        // Native strings are contiguous UTF-8: scan and copy them in bulk. Only
        // the lead bytes 0xC2, 0xD8 and 0xE2 can start a scalar to escape.
        let done: Bool? = s.utf8.withContiguousStorageIfAvailable { buf in
            for c in buf where c < 0x20 || c == 0x22 || c == 0x5C || (c >= 0x7F && (c == 0x7F || c == 0xC2 || c == 0xD8 || c == 0xE2)) {
                return false
            }
            out.append(contentsOf: buf)
            out.append(0x22)
            return true
        }
        if done == true { return }
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        for u in s.unicodeScalars {
            let v = u.value
            switch v {
            case 0x22: out.append(0x5C); out.append(0x22)
            case 0x5C: out.append(0x5C); out.append(0x5C)
            case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
            default:
                if Text.needsEscape(v) {
                    out.append(contentsOf: [0x5C, UInt8(ascii: "u"), hex[Int(v >> 12 & 15)], hex[Int(v >> 8 & 15)],
                                            hex[Int(v >> 4 & 15)], hex[Int(v & 15)]])
                } else if v < 0x80 {
                    out.append(UInt8(v))
                } else {
                    UTF8.encode(u) { out.append($0) }
                }
            }
        }
        out.append(0x22)
    }
}

extension JSONObject {
    public func write(into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        for n in keys.indices {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            JSON.appendString(keys[n], into: &out)
            out.append(UInt8(ascii: ":"))
            values[n].write(into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// One NDJSON line, with its newline.
    public var line: String {
        var out = [UInt8]()
        write(into: &out)
        out.append(0x0A)
        return String(decoding: out, as: UTF8.self)
    }

    public var serialized: String { JSON.object(self).serialized }
}
