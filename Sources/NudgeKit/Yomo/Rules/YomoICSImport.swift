// iCalendar (RFC 5545) in: content lines unfolded and split, components
// built, and each VTODO or VEVENT read into a reminder to create. Pure:
// text in, items, problems and warnings out.
//
// Invariants: each problem names its line and component (with its UID);
// one problem and the import adds nothing (the handler's part). A start
// with a TZID keeps its zone, a UTC start is kept in UTC; an all-day item is
// reminded at 09:00, an alarm yomo cannot keep is named in a warning. What
// yomo's rules cannot say (RDATE, EXDATE, two RRULEs, an RRULE part it has
// no word for) is a problem, never an approximation.

extension YomoInterchange {
    struct Prop {
        var name: String
        var params: [String: String]
        var value: String
    }

    final class Component {
        var name: String
        var props: [Prop] = []
        var children: [Component] = []
        var line: Int
        init(name: String, line: Int) { self.name = name; self.line = line }
        func first(_ n: String) -> Prop? { props.first { $0.name == n } }
    }

    /// Unfolds and splits content lines, builds the component tree.
    static func parseICS(_ bytes: [UInt8], name: String) -> (Component?, [Problem]) {
        var lines: [(String, Int)] = []
        var lineNo = 0
        for raw in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNo += 1
            var l = Array(raw)
            if l.last == 0x0D { l.removeLast() }
            if lineNo == 1 && l.starts(with: [0xEF, 0xBB, 0xBF]) { l.removeFirst(3) }
            if let f = l.first, f == 0x20 || f == 0x09, !lines.isEmpty {
                lines[lines.count - 1].0 += String(decoding: l.dropFirst(), as: UTF8.self)
                continue
            }
            if l.isEmpty { continue }
            lines.append((String(decoding: l, as: UTF8.self), lineNo))
        }
        var stack: [Component] = []
        var root: Component? = nil
        var problems: [Problem] = []
        for (text, no) in lines {
            guard let p = parseLine(text) else {
                problems.append(Problem(place: "\(name):\(no)", message: "not an iCalendar content line"))
                continue
            }
            if p.name == "BEGIN" {
                let c = Component(name: p.value.uppercased(), line: no)
                if let top = stack.last { top.children.append(c) } else if root == nil { root = c }
                stack.append(c)
            } else if p.name == "END" {
                guard let top = stack.last, top.name == p.value.uppercased() else {
                    problems.append(Problem(place: "\(name):\(no)", message: "END:\(p.value) does not close \(stack.last.map { "BEGIN:" + $0.name } ?? "anything")"))
                    continue
                }
                stack.removeLast()
            } else if let top = stack.last {
                top.props.append(p)
            }
        }
        if let open = stack.last { problems.append(Problem(place: "\(name):\(open.line)", message: "BEGIN:\(open.name) is never closed")) }
        return (root, problems)
    }

    /// NAME;PARAM=VALUE;PARAM="quoted":value
    static func parseLine(_ s: String) -> Prop? {
        var name = ""
        var params: [String: String] = [:]
        var i = s.startIndex
        while i < s.endIndex, s[i] != ";" && s[i] != ":" { name.append(s[i]); i = s.index(after: i) }
        guard !name.isEmpty, i < s.endIndex else { return nil }
        while i < s.endIndex && s[i] == ";" {
            i = s.index(after: i)
            var key = ""
            while i < s.endIndex, s[i] != "=" && s[i] != ":" && s[i] != ";" { key.append(s[i]); i = s.index(after: i) }
            var value = ""
            if i < s.endIndex && s[i] == "=" {
                i = s.index(after: i)
                if i < s.endIndex && s[i] == "\"" {
                    i = s.index(after: i)
                    while i < s.endIndex && s[i] != "\"" { value.append(s[i]); i = s.index(after: i) }
                    if i < s.endIndex { i = s.index(after: i) }
                }
                while i < s.endIndex, s[i] != ";" && s[i] != ":" { value.append(s[i]); i = s.index(after: i) }
            }
            params[key.uppercased()] = value
        }
        guard i < s.endIndex, s[i] == ":" else { return nil }
        return Prop(name: name.uppercased(), params: params, value: String(s[s.index(after: i)...]))
    }

    static func unescape(_ s: String) -> String {
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

    /// 20261124T150000 / 20261124T150000Z / 20261124
    static func icsDateTime(_ v: String) -> (LocalDateTime, utc: Bool, dateOnly: Bool)? {
        let u = Array(v.utf8)
        func num(_ a: Int, _ b: Int) -> Int? {
            guard b <= u.count, u[a..<b].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            return Int(String(decoding: u[a..<b], as: UTF8.self))
        }
        guard u.count >= 8, let y = num(0, 4), let m = num(4, 6), let d = num(6, 8) else { return nil }
        let day = Day(year: y, month: m, day: d)
        guard day.isValid else { return nil }
        if u.count == 8 { return (LocalDateTime(day: day, time: TimeOfDay(hour: 0, minute: 0)), false, true) }
        guard u.count == 15 || (u.count == 16 && u[15] == UInt8(ascii: "Z")), u[8] == UInt8(ascii: "T"),
              let h = num(9, 11), let mi = num(11, 13), let se = num(13, 15), h < 24, mi < 60, se < 61 else { return nil }
        return (LocalDateTime(day: day, time: TimeOfDay(hour: h, minute: mi, second: min(se, 59))), u.count == 16, false)
    }

    /// -PT10M, -P1D, -PT1H30M, PT0S: minutes (negative: before).
    static func icsDuration(_ v: String) -> Int? {
        var s = Substring(v)
        var sign = 1
        if s.hasPrefix("-") { sign = -1; s = s.dropFirst() } else if s.hasPrefix("+") { s = s.dropFirst() }
        guard s.hasPrefix("P") else { return nil }
        s = s.dropFirst()
        var total = 0, num = 0, digits = 0
        for c in s {
            if let d = c.wholeNumberValue, c.isASCII { num = num * 10 + d; digits += 1; continue }
            switch c {
            case "T": continue
            case "W": total += num * 7 * 1440
            case "D": total += num * 1440
            case "H": total += num * 60
            case "M": total += num
            case "S": total += num / 60
            default: return nil
            }
            num = 0
            digits = 0
        }
        guard digits == 0 else { return nil }
        return sign * total
    }

    /// VTODOs and VEVENTs into reminders; each problem names its component.
    public static func fromICS(_ bytes: [UInt8], name: String, fallbackZone: Zone) -> ([Item], [Problem], warnings: [String]) {
        let (root, parseProblems) = parseICS(bytes, name: name)
        var problems = parseProblems
        var warnings: [String] = []
        guard let cal = root, cal.name == "VCALENDAR" else {
            problems.append(Problem(place: name, message: "not an iCalendar file (no BEGIN:VCALENDAR)"))
            return ([], problems, [])
        }
        var items: [Item] = []
        var counts: [String: Int] = [:]
        for c in cal.children where c.name == "VTODO" || c.name == "VEVENT" {
            counts[c.name, default: 0] += 1
            let uid = c.first("UID")?.value
            let place = "\(name):\(c.line): \(c.name) \(counts[c.name]!)" + (uid.map { " (UID \($0.prefix(40)))" } ?? "")
            func bad(_ m: String) { problems.append(Problem(place: place, message: m)) }
            let status = c.first("STATUS")?.value.uppercased()
            if status == "CANCELLED" { continue }
            let title = unescape(c.first("SUMMARY")?.value ?? "").trimmingSpaces
            guard !title.isEmpty else { bad("SUMMARY is missing or empty"); continue }
            guard let startProp = c.first("DTSTART") ?? c.first("DUE") else { bad("needs DTSTART or DUE"); continue }
            guard let (local, utc, dateOnly) = icsDateTime(startProp.value) else {
                bad("\(startProp.name) '\(startProp.value)' is not a date or date-time like 20261124T150000"); continue
            }
            var zone = fallbackZone
            var anchor = local
            if let tzid = startProp.params["TZID"] {
                guard let z = ZoneCache.named(tzid.hasPrefix("/") ? String(tzid.dropFirst()) : tzid) else {
                    bad("TZID '\(tzid)' is not a time zone yomo knows (an IANA name like America/New_York)"); continue
                }
                zone = z
            } else if utc {
                zone = .utc  // a fixed instant, and a rule that RFC 5545 keeps in UTC
            }
            if dateOnly {
                anchor.time = TimeOfDay(hour: 9, minute: 0)
                warnings.append("\(place): an all-day \(c.name) is reminded at 09:00")
            }
            if let e = Clock.plausible(day: anchor.day, what: startProp.name) { bad(e.message); continue }
            var rec = Recurrence.once
            if let x = c.first("X-YOMO-RECURRENCE") {
                let text = unescape(x.value)
                guard let o = try? JSON.parseObject(bytes: Array(text.utf8)),
                      let r = Recurrence.from(type: o["type"]?.string, rule: o), r.problem == nil else {
                    bad("X-YOMO-RECURRENCE does not hold a yomo rule"); continue
                }
                rec = r
            } else if let rr = c.first("RRULE") {
                switch recurrence(fromRRULE: rr.value, anchor: anchor, zone: zone) {
                case .success(let r): rec = r
                case .failure(let p): bad(p.message); continue
                }
            }
            if c.first("RDATE") != nil || c.first("EXDATE") != nil {
                bad("RDATE and EXDATE cannot be said in yomo's rules"); continue
            }
            if c.props.filter({ $0.name == "RRULE" }).count > 1 { bad("more than one RRULE cannot be said in one yomo rule"); continue }
            var warn = 0
            for a in c.children where a.name == "VALARM" {
                guard let t = a.first("TRIGGER") else { continue }
                if t.params["VALUE"]?.uppercased() == "DATE-TIME" {
                    warnings.append("\(place): an alarm at a fixed time is not kept")
                    continue
                }
                if t.params["RELATED"]?.uppercased() == "END" { warnings.append("\(place): an alarm related to the end is not kept"); continue }
                guard let m = icsDuration(t.value) else { bad("VALARM TRIGGER '\(t.value)' is not a duration like -PT10M"); continue }
                if m < 0 && -m <= 10080 { warn = max(warn, -m) } else if m != 0 { warnings.append("\(place): an alarm \(m > 0 ? "after" : "more than a week before") the start is not kept") }
            }
            if problems.last?.place == place { continue }
            if let p = rec.problem { bad(p); continue }
            var id: String? = nil
            if let u = uid, u.hasSuffix("@yomo") { id = String(u.dropLast(5)); if !isID(id!) { id = nil } }
            let completed = status == "COMPLETED" || c.first("COMPLETED") != nil
            items.append(Item(id: id, title: title, notes: unescape(c.first("DESCRIPTION")?.value ?? ""), anchor: anchor, recurrence: rec,
                              zone: zone.name, warnMinutes: warn, completed: completed))
        }
        return (items, problems, warnings)
    }
}
