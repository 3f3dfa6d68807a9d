// iCalendar (RFC 5545) for yomo: reminders out as VTODOs with
// DTSTART;TZID, RRULE, VALARM and the zones' VTIMEZONEs; VTODOs and VEVENTs
// in. Pure text in and out. See YomoInterchange.swift for the contract.

extension YomoInterchange {
    // MARK: Export

    /// The calendar, and what iCalendar could not say (kept in X- properties).
    public static func exportICS(_ reminders: [Reminder], fallback: Zone, now: Instant) -> (String, [String]) {
        var out: [String] = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//nudge tools//yomo//EN", "CALSCALE:GREGORIAN"]
        var warnings: [String] = []
        var zones: [String: (Zone, Int, Int)] = [:]  // name -> zone, first year, last year
        for r in reminders {
            let z = r.zone(fallback)
            guard z.name != "UTC" else { continue }
            let y = r.anchor.day.year
            let cur = zones[z.name] ?? (z, y, y)
            zones[z.name] = (z, min(cur.1, y), max(cur.2, y, z.day(of: now).year))
        }
        for (name, (z, first, last)) in zones.sorted(by: { $0.key < $1.key }) {
            out += ICS.vtimezone(name: name, zone: z, years: (first - 1)...max(first - 1, min(last + 10, 2100)))
        }
        let stamp = ICS.utc(now)
        for r in reminders {
            let z = r.zone(fallback)
            out.append("BEGIN:VTODO")
            out.append("UID:\(r.id)@yomo")
            out.append("DTSTAMP:\(stamp)")
            out.append("CREATED:\(ICS.utc(r.createdAt))")
            out.append("LAST-MODIFIED:\(ICS.utc(r.updatedAt))")
            out.append("SUMMARY:\(ICS.escape(r.title))")
            if !r.notes.isEmpty { out.append("DESCRIPTION:\(ICS.escape(r.notes))") }
            // A rule from completion has no fixed schedule: its start is the pending occurrence.
            let start = r.recurrence.basedOnCompletion ? z.local(r.triggerAt) : r.anchor
            out.append(z.name == "UTC" ? "DTSTART:\(ICS.local(start))Z" : "DTSTART;TZID=\(z.name):\(ICS.local(start))")
            if r.recurrence.repeats {
                let (rrule, lost) = rruleText(r.recurrence, anchor: start, zone: z)
                if let rr = rrule { out.append("RRULE:\(rr)") }
                if let l = lost { warnings.append("'\(r.title.terminalSafe)' (\(r.id)): iCalendar cannot say \(l); it is kept in X-YOMO-RECURRENCE") }
                out.append("X-YOMO-RECURRENCE:\(ICS.escape(r.recurrence.json.serialized))")
            }
            if r.completed {
                out.append("STATUS:COMPLETED")
                if let c = r.completedAt { out.append("COMPLETED:\(ICS.utc(c))") }
            } else {
                out.append("STATUS:NEEDS-ACTION")
            }
            out += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(ICS.escape(r.title))", "TRIGGER:PT0M", "END:VALARM"]
            if r.warnMinutes > 0 {
                out += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(ICS.escape(r.title))", "TRIGGER:-PT\(r.warnMinutes)M", "END:VALARM"]
            }
            out.append("END:VTODO")
        }
        out.append("END:VCALENDAR")
        return (ICS.text(out), warnings)
    }

    static let icsDays = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    /// The RRULE for a rule, and what it cannot say (nil: nothing lost).
    static func rruleText(_ r: Recurrence, anchor: LocalDateTime, zone: Zone) -> (String?, String?) {
        let (n, unit) = r.effective
        var parts: [String] = []
        var lost: String? = nil
        let byday = r.days.map { icsDays[$0] }.joined(separator: ",")
        switch unit {
        case .hour:
            if let s = r.rangeStart, let e = r.rangeEnd {
                var hours: [Int] = []
                let end = e.secondsOfDay + (r.overnight ? 86_400 : 0)
                var sec = s.secondsOfDay
                while sec <= end { hours.append((sec / 3600) % 24); sec += n * 3600 }
                if r.overnight && !r.days.isEmpty {
                    lost = "an overnight range on chosen weekdays"
                }
                parts = ["FREQ=DAILY", "BYHOUR=\(hours.sorted().map(String.init).joined(separator: ","))", "BYMINUTE=\(s.minute)"]
                if !r.days.isEmpty { parts.append("BYDAY=\(byday)") }
            } else {
                parts = ["FREQ=HOURLY", "INTERVAL=\(n)"]
                if !r.days.isEmpty { parts.append("BYDAY=\(byday)") }
            }
        case .day:
            parts = ["FREQ=DAILY", "INTERVAL=\(n)"]
        case .week:
            parts = ["FREQ=WEEKLY", "INTERVAL=\(n)", "WKST=MO"]
            parts.append("BYDAY=\(r.days.isEmpty ? icsDays[anchor.day.weekday] : byday)")
        case .month:
            parts = ["FREQ=MONTHLY", "INTERVAL=\(n)"]
            if let o = r.monthOrdinal, let wd = r.monthWeekday {
                parts.append("BYDAY=\(o)\(icsDays[wd])")
            } else {
                parts += byMonthDay(anchor.day.day)
            }
        case .year:
            parts = ["FREQ=YEARLY", "INTERVAL=\(n)", "BYMONTH=\(anchor.day.month)"]
            if let o = r.monthOrdinal, let wd = r.monthWeekday {
                parts.append("BYDAY=\(o)\(icsDays[wd])")
            } else {
                parts += byMonthDay(anchor.day.day)
            }
        }
        if let u = r.until {
            // The end of that local day, in UTC as RFC 5545 asks with a TZID start.
            let endOfDay = zone.resolve(LocalDateTime(day: u.adding(days: 1), time: TimeOfDay(hour: 0, minute: 0)))
            parts.append("UNTIL=\(ICS.utc(Instant(ms: endOfDay.ms - 1000)))")
        }
        if let c = r.count { parts.append("COUNT=\(c)") }
        if r.basedOnCompletion { lost = "repeating from completion" }
        return (parts.joined(separator: ";"), lost)
    }

    /// A day of the month that moves back to the last day of shorter months.
    static func byMonthDay(_ d: Int) -> [String] {
        if d <= 28 { return ["BYMONTHDAY=\(d)"] }
        return ["BYMONTHDAY=\((28...d).map(String.init).joined(separator: ","))", "BYSETPOS=-1"]
    }

    // MARK: Import

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

    /// An RRULE as one of yomo's rules, or why it cannot be one.
    static func recurrence(fromRRULE text: String, anchor: LocalDateTime, zone: Zone) -> Result<Recurrence, Problem> {
        func bad(_ m: String) -> Result<Recurrence, Problem> { .failure(Problem(place: "", message: "RRULE \(m)")) }
        var parts: [String: String] = [:]
        for p in text.split(separator: ";") {
            let kv = p.split(separator: "=", maxSplits: 1)
            guard kv.count == 2 else { return bad("part '\(p)' is not NAME=VALUE") }
            parts[kv[0].uppercased()] = String(kv[1]).uppercased()
        }
        let known: Set<String> = ["FREQ", "INTERVAL", "BYDAY", "BYMONTHDAY", "BYMONTH", "BYHOUR", "BYMINUTE", "BYSETPOS", "UNTIL", "COUNT", "WKST"]
        if let other = parts.keys.sorted().first(where: { !known.contains($0) }) {
            return bad("\(other)=\(parts[other]!) cannot be said in yomo's rules")
        }
        if let w = parts["WKST"], w != "MO" { return bad("WKST=\(w): yomo's weeks start on Monday") }
        let n = Int(parts["INTERVAL"] ?? "1") ?? 0
        guard (1...1000).contains(n) else { return bad("INTERVAL must be 1 to 1000") }
        var plainDays: [Int] = []
        var ordinal: (Int, Int)? = nil
        if let bd = parts["BYDAY"] {
            for d in bd.split(separator: ",") {
                let code = String(d.suffix(2))
                guard let wd = icsDays.firstIndex(of: code) else { return bad("BYDAY=\(bd) is not a list of weekdays") }
                let ord = d.dropLast(2)
                if ord.isEmpty { plainDays.append(wd) } else {
                    guard let o = Int(ord), (1...5).contains(o) || o == -1, ordinal == nil else { return bad("BYDAY=\(bd) cannot be said in yomo's rules") }
                    ordinal = (o, wd)
                }
            }
            if ordinal != nil && !plainDays.isEmpty { return bad("BYDAY=\(bd) mixes weekdays and ordinals") }
        }
        func monthDay() -> Result<Int?, Problem> {
            guard let md = parts["BYMONTHDAY"] else { return .success(nil) }
            let days = md.split(separator: ",").compactMap { Int($0) }
            if days.count == 1, parts["BYSETPOS"] == nil { return .success(days[0]) }
            // BYMONTHDAY=28,29,30;BYSETPOS=-1: the 30th or the month's last day.
            if parts["BYSETPOS"] == "-1", let first = days.first, first == 28, days == Array(28...(days.last ?? 28)) { return .success(days.last) }
            return .failure(Problem(place: "", message: "RRULE BYMONTHDAY=\(md) cannot be said in yomo's rules"))
        }
        var r: Recurrence
        switch parts["FREQ"] ?? "" {
        case "HOURLY":
            if parts["BYHOUR"] != nil || parts["BYMONTHDAY"] != nil || ordinal != nil { return bad("FREQ=HOURLY takes only INTERVAL and BYDAY here") }
            r = Recurrence(kind: .custom, interval: n, unit: .hour, days: plainDays)
        case "DAILY":
            if let bh = parts["BYHOUR"] {
                let hours = bh.split(separator: ",").compactMap { Int($0) }.sorted()
                guard n == 1, !hours.isEmpty, hours.allSatisfy({ (0...23).contains($0) }) else { return bad("BYHOUR=\(bh) cannot be said in yomo's rules") }
                let minute = Int(parts["BYMINUTE"] ?? "\(anchor.time.minute)") ?? -1
                guard (0...59).contains(minute) else { return bad("BYMINUTE must be one minute") }
                // Evenly spaced hours, maybe wrapping past midnight.
                var best: (Int, Int, Int)? = nil  // start, step, count
                for startIdx in hours.indices {
                    let seq = hours[startIdx...] + hours[..<startIdx]
                    let step = seq.count > 1 ? (seq[seq.index(after: seq.startIndex)] - seq.first! + 24) % 24 : 1
                    var ok = step > 0
                    var prev = seq.first!
                    for h in seq.dropFirst() { if (h - prev + 24) % 24 != step { ok = false }; prev = h }
                    let span = step * (seq.count - 1)
                    if ok && span < 24 { best = (seq.first!, step, seq.count); break }
                }
                guard let (s, step, count) = best else { return bad("BYHOUR=\(bh) is not evenly spaced hours") }
                let endHour = (s + step * (count - 1)) % 24
                r = Recurrence(kind: .custom, interval: step, unit: .hour, days: plainDays,
                               rangeStart: TimeOfDay(hour: s, minute: minute), rangeEnd: TimeOfDay(hour: endHour, minute: minute))
            } else if !plainDays.isEmpty {
                guard n == 1 else { return bad("FREQ=DAILY with INTERVAL and BYDAY cannot be said in yomo's rules") }
                r = Recurrence(kind: .weekly, days: plainDays)
            } else {
                r = n == 1 ? Recurrence(kind: .daily) : Recurrence(kind: .custom, interval: n, unit: .day)
            }
        case "WEEKLY":
            if ordinal != nil { return bad("FREQ=WEEKLY with an ordinal BYDAY cannot be said in yomo's rules") }
            r = n == 1 ? Recurrence(kind: .weekly, days: plainDays.isEmpty ? [anchor.day.weekday] : plainDays)
                       : Recurrence(kind: .custom, interval: n, unit: .week, days: plainDays)
        case "MONTHLY", "YEARLY":
            let unit: Recurrence.Unit = parts["FREQ"] == "MONTHLY" ? .month : .year
            r = Recurrence(kind: .custom, interval: n, unit: unit)
            if !plainDays.isEmpty { return bad("FREQ=\(parts["FREQ"]!) with plain BYDAY cannot be said in yomo's rules") }
            if let (o, wd) = ordinal { r.monthOrdinal = o; r.monthWeekday = wd }
            if let bm = parts["BYMONTH"] {
                guard unit == .year, Int(bm) == anchor.day.month else { return bad("BYMONTH=\(bm) must be the start's month") }
            }
            switch monthDay() {
            case .failure(let p): return .failure(p)
            case .success(let d):
                if let d = d {
                    guard ordinal == nil, d == anchor.day.day || (d > 28 && anchor.day.day >= 28) else {
                        return bad("BYMONTHDAY=\(d) must be the start's day of the month")
                    }
                }
            }
            if parts["BYSETPOS"] != nil && parts["BYMONTHDAY"] == nil { return bad("BYSETPOS cannot be said in yomo's rules") }
        default:
            return bad("FREQ=\(parts["FREQ"] ?? "") cannot be said in yomo's rules (HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY)")
        }
        if parts["BYSETPOS"] != nil && parts["BYMONTHDAY"] == nil { return bad("BYSETPOS cannot be said in yomo's rules") }
        if parts["BYMINUTE"] != nil && parts["BYHOUR"] == nil { return bad("BYMINUTE without BYHOUR cannot be said in yomo's rules") }
        if parts["BYMONTH"] != nil && r.unit != .year { return bad("BYMONTH cannot be said in yomo's rules here") }
        if let u = parts["UNTIL"] {
            guard let (l, utc, _) = icsDateTime(u) else { return bad("UNTIL=\(u) is not a date") }
            r.until = utc ? zone.day(of: Zone.utc.resolve(l)) : l.day
        }
        if let c = parts["COUNT"] {
            guard let k = Int(c), (1...1000).contains(k) else { return bad("COUNT must be 1 to 1000") }
            r.count = k
        }
        return .success(r)
    }
}
