// Reading iCalendar (RFC 5545) content: folded lines rejoined as bytes (so a
// UTF-8 sequence split by a fold comes back whole), each line split into a
// name, parameters and a value, components built into a tree; TEXT values
// unescaped; DATE, DATE-TIME and DURATION values read. The writer is
// ICSWriter.swift. Pure: bytes in, a tree and problems out.
//
// Invariants: property, parameter and component names are upper-cased
// (they are case-insensitive); parameter values keep their case, quoted
// ones lose their quotes; a file that does not start a VCALENDAR is named
// once as not iCalendar, not once per line.

public struct ICSProperty: Equatable, Sendable {
    public var name: String
    public var params: [String: String]
    public var value: String
    /// The line the property starts on (1-based).
    public var line: Int
    public func param(_ n: String) -> String? { params[n] }
}

public final class ICSComponent: @unchecked Sendable {
    public let name: String
    public internal(set) var props: [ICSProperty] = []
    public internal(set) var children: [ICSComponent] = []
    public let line: Int
    init(name: String, line: Int) { self.name = name; self.line = line }
    public func first(_ n: String) -> ICSProperty? { props.first { $0.name == n } }
    public func all(_ n: String) -> [ICSProperty] { props.filter { $0.name == n } }
}

public struct ICSProblem: Equatable, Sendable {
    public var line: Int?
    public var message: String
}

/// A DATE or DATE-TIME value.
public enum ICSDateValue: Equatable, Hashable, Sendable {
    case date(Day)
    case local(LocalDateTime)
    case utc(Instant)
}

public enum ICSValue {
    /// 20261124, 20261124T150000, 20261124T150000Z.
    public static func dateOrDateTime(_ v: String) -> ICSDateValue? {
        let u = Array(v.utf8)
        func num(_ a: Int, _ b: Int) -> Int? {
            guard b <= u.count, u[a..<b].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            return Int(String(decoding: u[a..<b], as: UTF8.self))
        }
        guard u.count >= 8, let y = num(0, 4), let m = num(4, 6), let d = num(6, 8) else { return nil }
        let day = Day(year: y, month: m, day: d)
        guard day.isValid else { return nil }
        if u.count == 8 { return .date(day) }
        guard u.count == 15 || (u.count == 16 && (u[15] == UInt8(ascii: "Z") || u[15] == UInt8(ascii: "z"))),
              u[8] == UInt8(ascii: "T") || u[8] == UInt8(ascii: "t"),
              let h = num(9, 11), let mi = num(11, 13), let se = num(13, 15), h < 24, mi < 60, se < 61 else { return nil }
        let l = LocalDateTime(day: day, time: TimeOfDay(hour: h, minute: mi, second: min(se, 59)))
        return u.count == 16 ? .utc(Zone.utc.resolve(l)) : .local(l)
    }

    /// -PT10M, -P1D, P1DT2H, PT0S: seconds (negative: before).
    public static func duration(_ v: String) -> Int? {
        var s = Substring(v.uppercased())
        var sign = 1
        if s.hasPrefix("-") { sign = -1; s = s.dropFirst() } else if s.hasPrefix("+") { s = s.dropFirst() }
        guard s.hasPrefix("P"), s.count > 1 else { return nil }
        s = s.dropFirst()
        var total = 0, num = 0, digits = 0
        for c in s {
            if let d = c.wholeNumberValue, c.isASCII { num = num * 10 + d; digits += 1; if digits > 9 { return nil }; continue }
            switch c {
            case "T": guard digits == 0 else { return nil }; continue
            case "W": total += num * 7 * 86400
            case "D": total += num * 86400
            case "H": total += num * 3600
            case "M": total += num * 60
            case "S": total += num
            default: return nil
            }
            num = 0
            digits = 0
        }
        guard digits == 0 else { return nil }
        return sign * total
    }

    /// A TEXT value unescaped: \n \N \\ \; \, (a stray backslash is kept off).
    public static func text(_ s: String) -> String {
        var out = ""
        var esc = false
        for c in s {
            if esc {
                switch c {
                case "n", "N": out.append("\n")
                default: out.append(c)
                }
                esc = false
            } else if c == "\\" {
                esc = true
            } else {
                out.append(c)
            }
        }
        return out
    }
}

public enum ICSReader {
    /// The content lines of `bytes`, unfolded: (text, first line number).
    static func lines(_ bytes: [UInt8]) -> [(String, Int)] {
        var out: [([UInt8], Int)] = []
        var lineNo = 0
        for raw in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNo += 1
            var l = raw[...]
            if l.last == 0x0D { l = l.dropLast() }
            if lineNo == 1 && l.starts(with: [0xEF, 0xBB, 0xBF]) { l = l.dropFirst(3) }
            if let f = l.first, f == 0x20 || f == 0x09, !out.isEmpty {
                out[out.count - 1].0 += l.dropFirst()
                continue
            }
            if l.isEmpty { continue }
            out.append((Array(l), lineNo))
        }
        return out.map { (String(decoding: $0.0, as: UTF8.self), $0.1) }
    }

    /// NAME;PARAM=VALUE;PARAM="quoted":value, names upper-cased.
    public static func property(_ s: String, line: Int = 0) -> ICSProperty? {
        var name = ""
        var params: [String: String] = [:]
        var i = s.startIndex
        while i < s.endIndex, s[i] != ";" && s[i] != ":" { name.append(s[i]); i = s.index(after: i) }
        name = name.trimmingSpaces
        guard !name.isEmpty, i < s.endIndex else { return nil }
        while i < s.endIndex && s[i] == ";" {
            i = s.index(after: i)
            var key = ""
            while i < s.endIndex, s[i] != "=" && s[i] != ":" && s[i] != ";" { key.append(s[i]); i = s.index(after: i) }
            var value = ""
            if i < s.endIndex && s[i] == "=" {
                i = s.index(after: i)
                while i < s.endIndex, s[i] != ";" && s[i] != ":" {
                    if s[i] == "\"" {
                        i = s.index(after: i)
                        while i < s.endIndex && s[i] != "\"" { value.append(s[i]); i = s.index(after: i) }
                        if i < s.endIndex { i = s.index(after: i) }
                    } else {
                        value.append(s[i])
                        i = s.index(after: i)
                    }
                }
            }
            params[key.trimmingSpaces.uppercased()] = value
        }
        guard i < s.endIndex, s[i] == ":" else { return nil }
        return ICSProperty(name: name.uppercased(), params: params, value: String(s[s.index(after: i)...]), line: line)
    }

    /// The component tree of a calendar file, and what does not fit. A file
    /// whose first content line is not BEGIN:VCALENDAR gives no tree and one
    /// problem saying it is not iCalendar.
    public static func parse(_ bytes: [UInt8]) -> (ICSComponent?, [ICSProblem]) {
        let ls = lines(bytes)
        guard let first = ls.first, let p = property(first.0), p.name == "BEGIN", p.value.trimmingSpaces.uppercased() == "VCALENDAR" else {
            return (nil, [ICSProblem(line: nil, message: "not an iCalendar file (it does not start with BEGIN:VCALENDAR)")])
        }
        var stack: [ICSComponent] = []
        var root: ICSComponent? = nil
        var problems: [ICSProblem] = []
        for (text, no) in ls {
            guard let p = property(text, line: no) else {
                problems.append(ICSProblem(line: no, message: "not an iCalendar content line (NAME:value)"))
                continue
            }
            if p.name == "BEGIN" {
                let c = ICSComponent(name: p.value.trimmingSpaces.uppercased(), line: no)
                if let top = stack.last { top.children.append(c) } else if root == nil { root = c } else {
                    problems.append(ICSProblem(line: no, message: "BEGIN:\(c.name) after the calendar ended")); continue
                }
                stack.append(c)
            } else if p.name == "END" {
                let n = p.value.trimmingSpaces.uppercased()
                guard let top = stack.last, top.name == n else {
                    problems.append(ICSProblem(line: no, message: "END:\(p.value) does not close \(stack.last.map { "BEGIN:" + $0.name } ?? "anything")"))
                    continue
                }
                stack.removeLast()
            } else if let top = stack.last {
                top.props.append(p)
            }
        }
        if let open = stack.last { problems.append(ICSProblem(line: open.line, message: "BEGIN:\(open.name) is never closed")) }
        return (root, problems)
    }
}
