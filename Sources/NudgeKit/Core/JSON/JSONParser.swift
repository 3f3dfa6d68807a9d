// The strict byte-level JSON parser: UTF-8 checked, depth and size bounded,
// numbers exact (integers stay integers); errors say where and what was
// expected. A field name given twice in one object: the first value counts,
// in every reader alike (a JSONObject looks its first up, `scanObject` keeps
// its first), so a line means the same to a quick reader and to the fold.

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
            skipSpace()
            if i < end && b[i] == UInt8(ascii: "}") { i += 1; return .object(JSONObject()) }
            // One allocation each for the usual record (growing from empty
            // reallocates at 1, 2, 4 and 8 fields).
            var keys: [String] = []
            var values: [JSON] = []
            keys.reserveCapacity(8)
            values.reserveCapacity(8)
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
        // Double(String) reads 1e400 as infinity, which no JSON text can say.
        guard let d = Double(text), d.isFinite else { throw error("number out of range (a JSON number here is at most about 1.8e308)") }
        return .double(d)
    }

    /// Skips a string starting at the opening quote; true when it had no
    /// escapes and no byte past ASCII (else the caller checks it with `string()`).
    mutating func skipString() throws(JSONParseError) -> Bool {
        i += 1
        var plain = true
        while i < end {
            let c = b[i]
            if c == UInt8(ascii: "\"") { i += 1; return plain }
            if c == UInt8(ascii: "\\") { plain = false; i += 2; continue }
            if c < 0x20 { throw error("control character in a string") }
            if c >= 0x80 { plain = false }  // UTF-8 to check: the caller reads it with string()
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
            // Eight bytes at a time: any byte ≥ 0x80, below 0x20, or '\\'
            // (exact as a yes/no: a borrow starts only at a byte that matches).
            let base = b.baseAddress!
            while k + 8 <= close {
                let w = (base + k).loadUnaligned(as: UInt64.self)
                let high: UInt64 = 0x8080_8080_8080_8080
                let control = (w &- 0x2020_2020_2020_2020) & ~w & high
                let x = w ^ 0x5C5C_5C5C_5C5C_5C5C
                let backslash = (x &- 0x0101_0101_0101_0101) & ~x & high
                if control | backslash != 0 { break }
                if w & high != 0 { ascii = false }
                k += 8
            }
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

// MARK: - Reading a large document in place

/// A field name as read: its bytes when plain ASCII (no escapes), else the
/// decoded string; compared without making a String for the usual name.
struct JSONKey {
    let raw: UnsafeRawBufferPointer?
    let decoded: String?

    func `is`(_ s: StaticString) -> Bool {
        if let r = raw { return r.count == s.utf8CodeUnitCount && memcmp(r.baseAddress!, s.utf8Start, r.count) == 0 }
        return decoded == s.description
    }

    var string: String { decoded ?? String(decoding: raw!, as: UTF8.self) }
}

extension JSONByteParser {
    /// Checks a value at `depth` as `value(depth:)` would, building nothing
    /// but the strings that need decoding (escapes, non-ASCII): it accepts
    /// exactly what `value` accepts, with the same errors.
    mutating func skip(depth: Int) throws(JSONParseError) {
        guard i < end else { throw error("unexpected end of input") }
        if depth > JSONByteParser.maxDepth { throw error("nested too deeply") }
        switch b[i] {
        case UInt8(ascii: "{"):
            try fields(depth: depth) { (p: inout JSONByteParser, _: JSONKey) throws(JSONParseError) in try p.skip(depth: depth + 1) }
        case UInt8(ascii: "["):
            try elements(depth: depth) { (p: inout JSONByteParser, _: Int) throws(JSONParseError) in try p.skip(depth: depth + 1) }
        case UInt8(ascii: "\""):
            try skipCheckedString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try number()
        default:
            throw error("unexpected character '\(Unicode.Scalar(b[i]))'")
        }
    }

    /// A string as `string()` checks it; decoded only when it is not plain ASCII.
    mutating func skipCheckedString() throws(JSONParseError) {
        let start = i
        if try plainKey() != nil { return }
        i = start
        _ = try string()
    }

    static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

    /// A number's value as a Double, as `number()` reads it (`.int` or
    /// `.double`, then `JSON.double`): a decimal of at most 15 digits
    /// without an exponent is one exact division (both parts exact, so
    /// correctly rounded, as `Double(String)` is); anything else goes
    /// through `number()`.
    mutating func double() throws(JSONParseError) -> Double {
        let start = i
        var k = i
        if k < end && b[k] == UInt8(ascii: "-") { k += 1 }
        var mantissa: Int64 = 0
        var digits = 0
        var fraction = 0
        var simple = k < end && b[k] >= 0x30 && b[k] <= 0x39 && !(b[k] == 0x30 && k + 1 < end && b[k + 1] >= 0x30 && b[k + 1] <= 0x39)
        while simple && k < end && b[k] >= 0x30 && b[k] <= 0x39 { mantissa = mantissa * 10 + Int64(b[k] - 0x30); digits += 1; k += 1; if digits > 15 { simple = false } }
        if simple && k < end && b[k] == UInt8(ascii: ".") {
            k += 1
            guard k < end, b[k] >= 0x30 && b[k] <= 0x39 else { i = start; return try number().double ?? 0 }
            while simple && k < end && b[k] >= 0x30 && b[k] <= 0x39 {
                mantissa = mantissa * 10 + Int64(b[k] - 0x30); digits += 1; fraction += 1; k += 1
                if digits > 15 { simple = false }
            }
        }
        if simple && (k >= end || (b[k] != UInt8(ascii: "e") && b[k] != UInt8(ascii: "E"))) {
            i = k
            let negative = b[start] == UInt8(ascii: "-")
            // An integer is `.int` (so -0 is 0); a decimal keeps its sign.
            if fraction == 0 { return Double(negative ? -mantissa : mantissa) }
            let v = Double(mantissa) / JSONByteParser.powersOfTen[fraction]
            return negative ? -v : v
        }
        i = start
        return try number().double ?? 0
    }

    /// At a quote: the string's bytes when they are printable ASCII without
    /// escapes (then past its closing quote), else nil with the cursor
    /// moved (the caller reads it with `string()` from where it began).
    @inline(__always) mutating func plainKey() throws(JSONParseError) -> UnsafeRawBufferPointer? {
        let start = i + 1
        var k = start
        while k < end {
            let c = b[k]
            if c == UInt8(ascii: "\"") {
                i = k + 1
                return UnsafeRawBufferPointer(rebasing: b[start..<k])
            }
            if c < 0x20 || c >= 0x80 || c == UInt8(ascii: "\\") { return nil }
            k += 1
        }
        return nil
    }

    /// An object at `depth`, field by field, with the errors of
    /// `value(depth:)`: `body` is called at each field's value and must
    /// read it (with `value`, `skip`, `fields` or `elements` at depth + 1).
    mutating func fields(depth: Int, _ body: (inout JSONByteParser, JSONKey) throws(JSONParseError) -> Void) throws(JSONParseError) {
        guard i < end else { throw error("unexpected end of input") }
        if depth > JSONByteParser.maxDepth { throw error("nested too deeply") }
        guard b[i] == UInt8(ascii: "{") else { throw error("expected an object") }
        i += 1
        skipSpace()
        if i < end && b[i] == UInt8(ascii: "}") { i += 1; return }
        while true {
            skipSpace()
            guard i < end else { throw error("unexpected end of input") }
            guard b[i] == UInt8(ascii: "\"") else { throw error("expected a field name in quotes") }
            let keyAt = i
            let key: JSONKey
            if let raw = try plainKey() {
                key = JSONKey(raw: raw, decoded: nil)
            } else {
                i = keyAt
                key = JSONKey(raw: nil, decoded: try string())
            }
            skipSpace()
            guard i < end, b[i] == UInt8(ascii: ":") else { throw error("expected ':' after a field name") }
            i += 1
            skipSpace()
            guard i < end else { throw error("unexpected end of input") }
            if depth + 1 > JSONByteParser.maxDepth { throw error("nested too deeply") }
            try body(&self, key)
            skipSpace()
            guard i < end else { throw error("unterminated object") }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "}") { i += 1; return }
            throw error("expected ',' or '}' in an object")
        }
    }

    /// An array at `depth`, element by element (`body` reads each, at
    /// depth + 1, given its index), with the errors of `value(depth:)`.
    mutating func elements(depth: Int, _ body: (inout JSONByteParser, Int) throws(JSONParseError) -> Void) throws(JSONParseError) {
        guard i < end else { throw error("unexpected end of input") }
        if depth > JSONByteParser.maxDepth { throw error("nested too deeply") }
        guard b[i] == UInt8(ascii: "[") else { throw error("expected an array") }
        i += 1
        skipSpace()
        if i < end && b[i] == UInt8(ascii: "]") { i += 1; return }
        var n = 0
        while true {
            skipSpace()
            guard i < end else { throw error("unexpected end of input") }
            if depth + 1 > JSONByteParser.maxDepth { throw error("nested too deeply") }
            try body(&self, n)
            n += 1
            skipSpace()
            guard i < end else { throw error("unterminated array") }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "]") { i += 1; return }
            throw error("expected ',' or ']' in an array")
        }
    }
}
