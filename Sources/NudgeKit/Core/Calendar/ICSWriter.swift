// Writing iCalendar (RFC 5545) content lines, for every tool that exports a
// calendar: TEXT values escaped, parameter values quoted, lines folded at 75
// octets, dates and offsets formatted, and a VTIMEZONE for a zone.
//
// Invariants: an escaped TEXT value holds no raw control, no line break and
// no bidi control (each is written as the text `\u001b`, `Text.terminalSafe`'s
// form), so no title, name or note can add a property to the calendar or act
// on a terminal that shows it; a folded line never splits a UTF-8 sequence.

public enum ICS {
    /// TEXT escaping: backslash, semicolon, comma, newline (a CR is dropped,
    /// so CRLF is one newline); other controls and bidi controls as `\uXXXX`.
    public static func escape(_ s: String) -> String {
        // Most values (titles, ids, times) need nothing: printable ASCII
        // without a backslash, semicolon or comma is returned as it is.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x5C && $0 != 0x3B && $0 != 0x2C }) { return s }
        // Else scalar by scalar into bytes (a JSON value kept in an X-
        // property has a comma in every one).
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 16)
        for u in s.unicodeScalars {
            switch u {
            case "\\": out += [0x5C, 0x5C]
            case ";": out += [0x5C, 0x3B]
            case ",": out += [0x5C, 0x2C]
            case "\n": out += [0x5C, 0x6E]
            case "\r": break
            case "\t": out.append(0x09)
            default:
                if Text.needsEscape(u.value) {
                    out.append(0x5C)  // the backslash itself escaped for TEXT
                    out += Text.terminalSafe(String(u)).utf8
                } else {
                    UTF8.encode(u) { out.append($0) }
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A content line folded at 75 octets (continuations start with a
    /// space), never inside a UTF-8 sequence; no line end added.
    public static func fold(_ line: String) -> String {
        if line.utf8.count <= 75 { return line }
        var out: [UInt8] = []
        appendFolded(line, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Content lines as a calendar's bytes: each folded, each ended by CRLF.
    public static func text(_ lines: [String]) -> String {
        String(decoding: bytes(lines), as: UTF8.self)
    }

    /// The same as bytes, written into one buffer (a vdir sync writes ten
    /// thousand files: no string per line).
    public static func bytes(_ lines: [String]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(lines.reduce(0) { $0 + $1.utf8.count + 4 })
        for line in lines {
            appendFolded(line, to: &out)
            out += [0x0D, 0x0A]
        }
        return out
    }

    /// The one folding rule: a line appended whole when it fits, else cut
    /// before its 76th (then, after the leading space, 75th) octet, never
    /// inside a UTF-8 sequence.
    static func appendFolded(_ line: String, to out: inout [UInt8]) {
        let u = line.utf8
        if u.count <= 75 {
            out.append(contentsOf: u)
            return
        }
        let b = Array(u)
        out.reserveCapacity(out.count + b.count + b.count / 24 + 3)
        var start = 0, limit = 75
        while start < b.count {
            var end = min(start + limit, b.count)
            // Back to the start of the sequence the cut would split.
            if end < b.count { while end > start && b[end] & 0xC0 == 0x80 { end -= 1 } }
            if start > 0 { out += [0x0D, 0x0A, 0x20] }
            out.append(contentsOf: b[start..<end])
            start = end
            limit = 74
        }
    }

    /// A property read by ICSReader as a content line again: its value as
    /// it came (still escaped), parameter values quoted where they must be.
    public static func line(_ p: ICSProperty) -> String {
        var out = p.name
        for (k, v) in p.params.sorted(by: { $0.key < $1.key }) {
            let quote = v.contains(where: { $0 == ":" || $0 == ";" || $0 == "," })
            out += ";" + k + "=" + (quote ? param(v) : v)
        }
        return out + ":" + p.value
    }

    /// A component read by ICSReader as content lines again, with its children.
    public static func lines(_ c: ICSComponent) -> [String] {
        ["BEGIN:" + c.name] + c.props.map(line) + c.children.flatMap(lines) + ["END:" + c.name]
    }

    /// A parameter value (CN=…): quoted, without the characters a quoted
    /// value may not hold (RFC 5545 3.1: no DQUOTE, no controls).
    public static func param(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars where u != "\"" && !Text.needsEscape(u.value) && u != "\n" && u != "\r" { out.unicodeScalars.append(u) }
        return "\"" + out + "\""
    }

    /// A local DATE-TIME: 20261122T083000.
    public static func local(_ l: LocalDateTime) -> String {
        let d = l.day, t = l.time
        // Digits into one small buffer (a vdir sync formats tens of
        // thousands); each field zero-padded to its width.
        var out: [UInt8] = []
        out.reserveCapacity(15)
        func p(_ v: Int, _ w: Int) {
            if v < 0 {
                let s = Array(String(v).utf8)
                out += Array(repeating: 0x30, count: max(0, w - s.count))
                out += s
                return
            }
            var n = 1, pow = 1
            while v / pow >= 10 { pow *= 10; n += 1 }
            for _ in n..<max(n, w) { out.append(0x30) }
            var rest = v
            while pow >= 1 {
                out.append(0x30 + UInt8(rest / pow))
                rest %= pow
                pow /= 10
            }
        }
        p(d.year, 4); p(d.month, 2); p(d.day, 2)
        out.append(0x54)  // T
        p(t.hour, 2); p(t.minute, 2); p(t.second, 2)
        return String(decoding: out, as: UTF8.self)
    }

    /// A DATE: 20261122.
    public static func date(_ d: Day) -> String { String(local(LocalDateTime(day: d, time: TimeOfDay(hour: 0, minute: 0))).prefix(8)) }

    /// A UTC DATE-TIME: 20261122T133000Z.
    public static func utc(_ i: Instant) -> String { local(Zone.utc.local(i)) + "Z" }

    /// A UTC offset: +0530, -0500.
    public static func offset(_ seconds: Int) -> String {
        let a = abs(seconds)
        let h = a / 3600, m = (a % 3600) / 60
        return (seconds < 0 ? "-" : "+") + (h < 10 ? "0" : "") + "\(h)" + (m < 10 ? "0" : "") + "\(m)"
    }

    static let days = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    /// A VTIMEZONE for `zone` under the id `name`, right for the years
    /// given: the compact form (a STANDARD and a DAYLIGHT part with yearly
    /// rules) when the zone's current rule holds over all of them, else one
    /// sub-component per change of offset in those years.
    public static func vtimezone(name: String, zone: Zone, years: ClosedRange<Int>) -> [String] {
        if let compact = ruleForm(name: name, zone: zone, years: years) { return compact }
        return transitionForm(name: name, zone: zone, years: years)
    }

    /// The compact form, when the zone's POSIX rule gives every offset the
    /// zone has in `years`.
    static func ruleForm(name: String, zone: Zone, years: ClosedRange<Int>) -> [String]? {
        guard let rule = zone.rule else { return nil }
        // The rule must be what the zone did in every one of those years.
        for y in years {
            var probes: [Int64] = [Day(year: y, month: 1, day: 1), Day(year: y, month: 7, day: 1)].map { Int64($0.daysSinceEpoch) * 86400 }
            if let dst = rule.dstOffset {
                let a = rule.transition(rule.start, rule.startTime, year: y, offset: rule.stdOffset)
                let b = rule.transition(rule.end, rule.endTime, year: y, offset: dst)
                probes += [a - 1, a, b - 1, b]
            }
            for s in probes where zone.offset(at: Instant(ms: s * 1000)) != rule.offset(at: s) { return nil }
        }
        var lines = ["BEGIN:VTIMEZONE", "TZID:\(name)"]
        guard let dst = rule.dstOffset else {
            return lines + ["BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:\(offset(rule.stdOffset))",
                            "TZOFFSETTO:\(offset(rule.stdOffset))", "END:STANDARD", "END:VTIMEZONE"]
        }
        func yearly(_ r: PosixTZ.DayRule, _ time: Int) -> (dtstart: String, rrule: String)? {
            guard case .monthWeek(let m, let w, let d) = r, time >= 0, time < 86400 else { return nil }
            let ordinal = w == 5 ? -1 : w
            guard let onset = Recurrence.nthWeekday(year: 1970, month: m, ordinal: ordinal, weekday: d) else { return nil }
            let wall = LocalDateTime(day: onset, time: TimeOfDay(hour: time / 3600, minute: (time / 60) % 60, second: time % 60))
            return (local(wall), "FREQ=YEARLY;BYMONTH=\(m);BYDAY=\(ordinal)\(days[d])")
        }
        guard let on = yearly(rule.start, rule.startTime), let off = yearly(rule.end, rule.endTime) else { return nil }
        lines += ["BEGIN:DAYLIGHT", "TZOFFSETFROM:\(offset(rule.stdOffset))", "TZOFFSETTO:\(offset(dst))",
                  "DTSTART:\(on.dtstart)", "RRULE:\(on.rrule)", "END:DAYLIGHT",
                  "BEGIN:STANDARD", "TZOFFSETFROM:\(offset(dst))", "TZOFFSETTO:\(offset(rule.stdOffset))",
                  "DTSTART:\(off.dtstart)", "RRULE:\(off.rrule)", "END:STANDARD"]
        return lines + ["END:VTIMEZONE"]
    }

    /// One sub-component per change of offset in `years` (found hour by
    /// hour, then to the second).
    static func transitionForm(name: String, zone: Zone, years: ClosedRange<Int>) -> [String] {
        var out = ["BEGIN:VTIMEZONE", "TZID:\(name)"]
        let start = Zone.utc.resolve(LocalDateTime(day: Day(year: max(1970, years.lowerBound), month: 1, day: 1), time: TimeOfDay(hour: 0, minute: 0)))
        let end = Zone.utc.resolve(LocalDateTime(day: Day(year: max(1971, years.upperBound), month: 12, day: 31), time: TimeOfDay(hour: 0, minute: 0)))
        var prev = zone.offset(at: start)
        out += ["BEGIN:STANDARD", "DTSTART:\(local(LocalDateTime(wallSeconds: start.seconds + Int64(prev))))",
                "TZOFFSETFROM:\(offset(prev))", "TZOFFSETTO:\(offset(prev))", "END:STANDARD"]
        var t = start.ms
        let step: Int64 = 3_600_000
        while t < end.ms {
            let next = t + step
            let o = zone.offset(at: Instant(ms: next))
            if o != prev {
                var lo = t, hi = next
                while hi - lo > 1000 {
                    let mid = (lo + hi) / 2
                    if zone.offset(at: Instant(ms: mid)) == prev { lo = mid } else { hi = mid }
                }
                let onset = LocalDateTime(wallSeconds: Instant(ms: hi).seconds + Int64(prev))
                let kind = o > prev ? "DAYLIGHT" : "STANDARD"
                out += ["BEGIN:\(kind)", "DTSTART:\(local(onset))", "TZOFFSETFROM:\(offset(prev))", "TZOFFSETTO:\(offset(o))", "END:\(kind)"]
                prev = o
            }
            t = next
        }
        out.append("END:VTIMEZONE")
        return out
    }
}
