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

    /// The same names with the same values, in any order; a name given
    /// twice counts with its first value, as on lookup (so an object is
    /// always equal to itself).
    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        guard a.keys.count == b.keys.count else { return false }
        if a.keys == b.keys {
            for i in a.values.indices where a.values[i] != b.values[i] && !a.keys[..<i].contains(a.keys[i]) { return false }
            return true
        }
        for i in a.keys.indices where b[a.keys[i]] != a.values[i] && !a.keys[..<i].contains(a.keys[i]) { return false }
        for k in b.keys where a[k] == nil { return false }
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

extension JSONObject {
    /// This object's fields, then the other's that it lacks.
    public func merging(_ other: JSONObject) -> JSONObject {
        var o = self
        for f in other.fields where o[f.key] == nil { o[f.key] = f.value }
        return o
    }
}
