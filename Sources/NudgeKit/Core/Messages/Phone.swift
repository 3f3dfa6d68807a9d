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

    /// The shape of E.164 alone, without the costly metadata check: "+" and
    /// 4 to 15 digits, the first not 0. Enough to keep anything else out of a link.
    public static func plausibleE164(_ s: String) -> Bool {
        let d = s.utf8.dropFirst()
        return s.utf8.first == UInt8(ascii: "+") && (4...15).contains(d.count) && d.first != UInt8(ascii: "0")
            && d.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// What a North American area code is, by the table of PhoneTables.swift
    /// (libphonenumber's metadata): a region's (the US, one of its
    /// territories, Canada, a Caribbean country), toll-free, premium-rate,
    /// personal (non-geographic), or not in use.
    public enum NANPArea: Equatable, Sendable {
        case region(String)
        case tollFree, premium, personal, unassigned

        /// Where a text to it is domestic for a US sender: the US and its territories.
        public var isUS: Bool {
            if case .region(let r) = self { return PhoneNumber.usRegions.contains(r) }
            return false
        }
    }

    /// The US and its territories (Puerto Rico, the US Virgin Islands, Guam,
    /// American Samoa, the Northern Mariana Islands).
    static let usRegions: Set<String> = ["US", "PR", "VI", "GU", "AS", "MP"]

    static let nanpAreas: [Int: NANPArea] = {
        var out: [Int: NANPArea] = [:]
        for entry in nanpAreaText.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = entry.split(separator: ":")
            guard parts.count == 2, let npa = Int(parts[0]) else { continue }
            switch parts[1] {
            case "toll-free": out[npa] = .tollFree
            case "premium": out[npa] = .premium
            case "personal": out[npa] = .personal
            default: out[npa] = .region(String(parts[1]))
            }
        }
        return out
    }()

    /// The area code `npa`'s kind.
    public static func nanpArea(_ npa: Int) -> NANPArea { nanpAreas[npa] ?? .unassigned }

    /// The area code of a +1 number, and what it is.
    public var nanpArea: NANPArea? {
        guard isNANP, let npa = Int(e164.dropFirst(2).prefix(3)) else { return nil }
        return PhoneNumber.nanpArea(npa)
    }

    /// Why a number of area code `npa` is not a US number, in words; nil
    /// when it is one.
    public static func notUSReason(_ npa: Int) -> String? {
        switch nanpArea(npa) {
        case .region(let r) where usRegions.contains(r): return nil
        case .region(let r): return "\(npa) is an area code of \(regionNames[r] ?? r), not the US"
        case .tollFree: return "\(npa) is a toll-free code"
        case .premium: return "\(npa) is a premium-rate code"
        case .personal: return "\(npa) is a non-geographic code for personal communication services"
        case .unassigned: return "\(npa) is not an area code in use"
        }
    }

    /// The ten digits of a North American number as written: `415-555-0132`,
    /// `(415) 555-0132`, `4155550132`, `+1 415 555 0132`, `1-415-555-0132`.
    /// Area code and exchange must start with 2–9, may not be a service code
    /// (N11), and the area code must be in use.
    public static func parseNANP(_ raw: String, what: String = "phone number", hint: String = usFormHint) throws(ToolError) -> PhoneNumber {
        let refuse = { (why: String) -> ToolError in
            ToolError(.dataError, "\(what) must be \(hint)\(why.isEmpty ? "" : " (\(why))")")
        }
        var digits: [UInt8] = []
        var plus = false
        for (n, c) in withoutTelScheme(raw).trimmingSpaces.utf8.enumerated() {
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
        let npa = Int(digits[0]) * 100 + Int(digits[1]) * 10 + Int(digits[2])
        if nanpArea(npa) == .unassigned { throw refuse("\(npa) is not an area code in use") }
        return PhoneNumber(e164: "+1" + digits.map { String($0) }.joined())
    }

    /// A standard US number (`parseNANP`) whose area code is the US's or
    /// one of its territories'; another country's, a toll-free, premium or
    /// personal code is refused with a message that names it.
    public static func parseUS(_ raw: String, what: String = "phone number") throws(ToolError) -> PhoneNumber {
        let p = try parseNANP(raw, what: what)
        if let npa = Int(p.e164.dropFirst(2).prefix(3)), let why = notUSReason(npa) {
            throw ToolError(.dataError, "\(what) must be \(usFormHint) (\(why))")
        }
        return p
    }

    /// A `tel:` URI (RFC 3966) as gateways write a sender: the scheme and
    /// any `;parameters` dropped, so `tel:+1-415-555-0132;ext=1` reads as
    /// `+1-415-555-0132`. Anything else is returned as it is.
    public static func withoutTelScheme(_ raw: String) -> String {
        let t = raw.trimmingSpaces
        guard t.utf8.count > 4, t.lowercased().hasPrefix("tel:") else { return raw }
        let rest = t.dropFirst(4)
        return String(rest.prefix { $0 != ";" })
    }

    /// A country calling code's national trunk prefixes and the possible
    /// lengths of its national numbers (PhoneTables.swift).
    struct Country: Sendable {
        var prefixes: [String]
        var lengths: Set<Int>
    }

    static let countries: [String: Country] = {
        var out: [String: Country] = [:]
        for entry in countryText.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            out[String(parts[0])] = Country(prefixes: parts[1] == "-" ? [] : parts[1].split(separator: ",").map(String.init),
                                            lengths: Set(parts[2].split(separator: ",").compactMap { Int($0) }))
        }
        return out
    }()

    /// Any international number: `+`, a country calling code in use, and a
    /// national number of a length that country has (libphonenumber's
    /// possible lengths: Niue's, Tokelau's and Tristan da Cunha's short ones
    /// too). Spaces, dashes, dots and brackets are ignored, and so is a
    /// national trunk prefix written after the country code, as people copy
    /// it from a national form: `+44 07400 123456` and `+44 (0)7400 123456`
    /// are +447400123456, `+7 (8) 912 …` and `+36 (06) 30 …` lose the 8 and
    /// the 06. +1 numbers must be North American numbers of an area code in
    /// use (`parseNANP`). A `tel:` URI is read too.
    public static func parseE164(_ raw: String, what: String = "phone number") throws(ToolError) -> PhoneNumber {
        let hint = "\(what) must be in international E.164 form like +14155550132"
        var digits = ""
        let trimmed = withoutTelScheme(raw).trimmingSpaces
        guard trimmed.hasPrefix("+") else { throw ToolError(.dataError, hint) }
        for c in trimmed.utf8.dropFirst() {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(Character(Unicode.Scalar(c)))
            case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "("), UInt8(ascii: ")"): continue
            default: throw ToolError(.dataError, hint)
            }
        }
        if digits.hasPrefix("1") { return try parseNANP("+" + digits, what: what, hint: "a North American number like +14155550132") }
        var code: String? = nil
        for n in 1...3 where code == nil && digits.count > n {
            let c = String(digits.prefix(n))
            if countries[c] != nil { code = c }
        }
        guard let cc = code, let country = countries[cc] else {
            throw ToolError(.dataError, hint + (digits.isEmpty ? "" : " (no country has the calling code +\(digits.prefix(3)))"))
        }
        var national = String(digits.dropFirst(cc.count))
        // A trunk prefix copied from the national form (longest first): no
        // national number begins with one after the country code.
        // One, once: a number that would lose a prefix again (`+92 00 45…`)
        // could be either, and a stored number must read back as itself.
        func trunk(_ n: String) -> String? { country.prefixes.first { n.hasPrefix($0) && country.lengths.contains(n.count - $0.count) } }
        if let p = trunk(national) {
            national = String(national.dropFirst(p.count))
            if let q = trunk(national) {
                throw ToolError(.dataError, hint + " (after +\(cc) the trunk prefix \(p) is written, then \(q) again: write +\(cc) and the national number without them)")
            }
        }
        guard country.lengths.contains(national.count) else {
            let ls = country.lengths.sorted().map(String.init)
            let list = ls.count == 1 ? ls[0] : ls.dropLast().joined(separator: ", ") + " or " + ls.last!
            throw ToolError(.dataError, hint + " (+\(cc) numbers have \(list) digits after the country code)")
        }
        return PhoneNumber(e164: "+" + cc + national)
    }

    /// Reads a stored E.164 value back (no user-facing message needed).
    public init(e164: String) { self.e164 = e164 }
}
