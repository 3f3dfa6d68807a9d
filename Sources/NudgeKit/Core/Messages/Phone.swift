// One phone number type for the family: E.164 inside, friendly forms outside.

public struct PhoneNumber: Hashable, Sendable, CustomStringConvertible {
    /// `+14155550132`
    public let e164: String

    public var description: String { e164 }

    /// True for +1 numbers (the North American Numbering Plan).
    public var isNANP: Bool { e164.hasPrefix("+1") && e164.utf8.count == 12 }

    /// `415-555-0132` for North American numbers, E.164 otherwise.
    public var display: String {
        guard isNANP else { return e164 }
        let d = Array(e164.dropFirst(2))
        return String(d[0..<3]) + "-" + String(d[3..<6]) + "-" + String(d[6..<10])
    }

    public static let usFormHint = "a US number like 415-555-0132"

    /// A standard US number: `415-555-0132`, `(415) 555-0132`, `4155550132`,
    /// `+1 415 555 0132`, `1-415-555-0132`. Area code and exchange must start
    /// with 2–9 and may not be a service code (N11).
    public static func parseUS(_ raw: String, what: String = "phone number") throws(ToolError) -> PhoneNumber {
        let refuse = { (why: String) -> ToolError in
            ToolError(.dataError, "\(what) must be \(usFormHint)\(why.isEmpty ? "" : " (\(why))")")
        }
        var digits: [UInt8] = []
        var plus = false
        for (n, c) in raw.trimmingSpaces.utf8.enumerated() {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(c - 48)
            case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "("), UInt8(ascii: ")"): continue
            case UInt8(ascii: "+") where n == 0: plus = true
            default: throw refuse("'\(raw)' has characters other than digits")
            }
        }
        if plus || digits.count == 11 {
            guard digits.count == 11, digits[0] == 1 else {
                throw refuse(plus ? "only +1 numbers are accepted" : "\(digits.count) digits")
            }
            digits.removeFirst()
        }
        guard digits.count == 10 else { throw refuse("\(digits.count) digits") }
        if digits[0] < 2 { throw refuse("area codes start with 2-9") }
        if digits[3] < 2 { throw refuse("exchange codes start with 2-9") }
        if digits[1] == 1 && digits[2] == 1 { throw refuse("\(digits[0])11 is a service code, not an area code") }
        if digits[4] == 1 && digits[5] == 1 { throw refuse("\(digits[3])11 is a service code, not an exchange") }
        return PhoneNumber(e164: "+1" + digits.map { String($0) }.joined())
    }

    /// Any E.164 number: `+` and 8 to 15 digits, the country code not starting
    /// with 0. Spaces, dashes, dots and brackets are ignored, and so is a
    /// national trunk prefix written `(0)` (`+44 (0)20 7946 0958` is
    /// +442079460958); +1 numbers must also be valid North American numbers.
    public static func parseE164(_ raw: String, what: String = "phone number") throws(ToolError) -> PhoneNumber {
        let hint = "\(what) must be in international E.164 form like +14155550132"
        var digits = ""
        var u = Array(raw.trimmingSpaces.utf8)
        var i = 0
        while i + 2 < u.count {
            if u[i] == UInt8(ascii: "("), u[i + 1] == UInt8(ascii: "0"), u[i + 2] == UInt8(ascii: ")") { u.removeSubrange(i..<(i + 3)) } else { i += 1 }
        }
        let trimmed = String(decoding: u, as: UTF8.self)
        guard trimmed.hasPrefix("+") else { throw ToolError(.dataError, hint) }
        for c in trimmed.utf8.dropFirst() {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(Character(Unicode.Scalar(c)))
            case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "("), UInt8(ascii: ")"): continue
            default: throw ToolError(.dataError, hint)
            }
        }
        guard (8...15).contains(digits.count), !digits.hasPrefix("0") else { throw ToolError(.dataError, hint) }
        if digits.hasPrefix("1") { return try parseUS("+" + digits, what: what) }
        return PhoneNumber(e164: "+" + digits)
    }

    /// Reads a stored E.164 value back (no user-facing message needed).
    public init(e164: String) { self.e164 = e164 }
}
