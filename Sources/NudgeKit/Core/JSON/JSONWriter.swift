// The compact JSON writer: fields in their order, no spaces, the escapes
// RFC 8259 requires and no others (so output is stable byte for byte).

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
            // Eight bytes at a time while they are plain ASCII: none below
            // 0x20, none 0x7F or above, no '"' or '\\' (each test exact as a
            // yes or no); the bytes from the first word that is not are
            // looked at one by one.
            var k = 0
            if let base = buf.baseAddress {
                let raw = UnsafeRawPointer(base)
                let high: UInt64 = 0x8080_8080_8080_8080
                let ones: UInt64 = 0x0101_0101_0101_0101
                while k + 8 <= buf.count {
                    let w = (raw + k).loadUnaligned(as: UInt64.self)
                    let quote = w ^ 0x2222_2222_2222_2222
                    let backslash = w ^ 0x5C5C_5C5C_5C5C_5C5C
                    let special = (w & high) | ((w &+ ones) & high) | ((w &- 0x2020_2020_2020_2020) & ~w & high)
                        | ((quote &- ones) & ~quote & high) | ((backslash &- ones) & ~backslash & high)
                    if special != 0 { break }
                    k += 8
                }
            }
            for c in buf[k...] where c < 0x20 || c == 0x22 || c == 0x5C || (c >= 0x7F && (c == 0x7F || c == 0xC2 || c == 0xD8 || c == 0xE2)) {
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
