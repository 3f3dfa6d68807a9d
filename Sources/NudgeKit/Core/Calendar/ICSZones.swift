// The zone a TZID names in one calendar file: an IANA name (any case), a
// Windows name as Outlook and Exchange write it (CLDR's mapping,
// WindowsZones.swift), a Mozilla-style `/mozilla.org/20050126_1/Europe/London`
// path ending in an IANA name, or else the file's own VTIMEZONE, read by its
// STANDARD and DAYLIGHT rules. Pure but for reading the system's zone files.
//
// Invariants: a TZID is never read as a POSIX TZ string (`UTC+11`, `GMT-3`
// would take POSIX's inverted sign): one that is neither a known name nor
// defined by the file is refused with a message. A zone made from a
// VTIMEZONE is named by the POSIX rule that says its current offsets
// (`<+1100>-11`, `<-0500>5<-0400>,M3.2.0/2,M11.1.0/2`), so a reminder can
// keep it by name; one whose changes no such rule can say is refused.
//
// The calendar's own zone, X-WR-TIMEZONE (not RFC 5545: Google Calendar and
// Apple write it), is what its floating times and its UTC starts mean, as
// those calendars show them: a weekly event at 16:00Z in a calendar of
// Europe/Berlin is at 17:00 there in winter and in summer. A name that is
// no zone is named in `problem` and changes nothing.

public struct ICSZones {
    let definitions: [String: ICSComponent]
    /// The zone X-WR-TIMEZONE names, if it names one.
    public let calendarZone: Zone?
    /// Why X-WR-TIMEZONE is not used, when the file has one that names no zone.
    public let problem: String?

    public init(calendar: ICSComponent?) {
        var d: [String: ICSComponent] = [:]
        for c in calendar?.children ?? [] where c.name == "VTIMEZONE" {
            if let id = c.first("TZID")?.value.trimmingSpaces { d[ICSZones.unescaped(id)] = c }
        }
        definitions = d
        var zone: Zone? = nil
        var problem: String? = nil
        if let x = calendar?.first("X-WR-TIMEZONE")?.value.trimmingSpaces, !x.isEmpty {
            zone = ICSZones.known(x)
            if zone == nil {
                problem = "X-WR-TIMEZONE '\(x.prefix(60).terminalSafe)' is not a zone name (America/New_York); floating times are read in the importing zone"
            }
        }
        calendarZone = zone
        self.problem = problem
    }

    /// The zone `tzid` names, or why it names none.
    public func zone(_ tzid: String) -> Result<Zone, RRule.ParseError> {
        let id = tzid.trimmingSpaces
        if let z = ICSZones.known(id) { return .success(z) }
        if let def = definitions[ICSZones.unescaped(id)] {
            switch ICSZones.fromDefinition(def) {
            case .success(let rule): if let z = try? Zone.named(rule) { return .success(z) }
            case .failure(let e): return .failure(e)
            }
        }
        return .failure(RRule.ParseError("TZID '\(id)' is not an IANA zone (America/New_York), a Windows zone name (Eastern Standard Time), nor defined by a VTIMEZONE in the file"))
    }

    /// A TZID as its zone is named: a VTIMEZONE's TZID is a text value, so
    /// Outlook's custom zones escape their commas ("Amsterdam\\, Berlin")
    /// where the DTSTART's TZID parameter, quoted, does not.
    static func unescaped(_ id: String) -> String {
        guard id.contains("\\") else { return id }
        var out = ""
        var escaped = false
        for c in id {
            if escaped { out.append(c == "n" || c == "N" ? " " : c); escaped = false } else if c == "\\" { escaped = true } else { out.append(c) }
        }
        return out
    }

    /// An IANA name in any case, a Windows name, or a path ending in an IANA name.
    public static func known(_ id: String) -> Zone? {
        if ["utc", "etc/utc", "gmt", "etc/gmt", "z", "zulu", "universal", "coordinated universal time"].contains(id.lowercased()) { return .utc }
        if let n = ianaName(id) { return ZoneCache.named(n) }
        if let w = WindowsZones.byName[id.lowercased()], let z = ZoneCache.named(w) { return z }
        if id.hasPrefix("/") {
            let parts = id.split(separator: "/")
            for k in [3, 2, 1] where parts.count >= k {
                if let n = ianaName(parts.suffix(k).joined(separator: "/")) { return ZoneCache.named(n) }
            }
        }
        return nil
    }

    /// The IANA name `s` spells, in the case the system's files have it.
    static func ianaName(_ s: String) -> String? {
        guard !s.isEmpty, !s.contains(".."), !s.hasPrefix("/"),
              s.utf8.allSatisfy({ $0 == 47 || $0 == 95 || $0 == 45 || $0 == 43 || ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }) else { return nil }
        return ianaIndex.withLock { index -> String? in
            if index.isEmpty {
                var dirs = Zone.zoneDirectories
                if let d = Sys.env("TZDIR"), !d.isEmpty { dirs.insert(d, at: 0) }
                for dir in dirs where Sys.isDirectory(dir) {
                    walk(dir, prefix: "", into: &index)
                    break
                }
            }
            return index[s.lowercased()]
        }
    }

    static let ianaIndex = Locked([String: String]())

    static func walk(_ dir: String, prefix: String, into index: inout [String: String]) {
        for name in Sys.listDirectory(dir) where !name.hasPrefix(".") && name != "posix" && name != "right" {
            let path = Sys.join(dir, name)
            let full = prefix.isEmpty ? name : prefix + "/" + name
            if Sys.isDirectory(path) {
                walk(path, prefix: full, into: &index)
            } else if name.first?.isUppercase == true || prefix.isEmpty == false || ["UTC", "GMT"].contains(name) {
                if index[full.lowercased()] == nil { index[full.lowercased()] = full }
            }
        }
    }

    /// A VTIMEZONE as the POSIX rule of its current offsets.
    static func fromDefinition(_ def: ICSComponent) -> Result<String, RRule.ParseError> {
        let id = def.first("TZID")?.value ?? "?"
        struct Part { var daylight: Bool; var onset: LocalDateTime; var from: Int; var to: Int; var rule: RRule?; var rdates: [LocalDateTime] }
        var parts: [Part] = []
        for c in def.children where c.name == "STANDARD" || c.name == "DAYLIGHT" {
            guard let s = c.first("DTSTART").flatMap({ ICSValue.dateOrDateTime($0.value) }), case .local(let onset) = s,
                  let from = c.first("TZOFFSETFROM").flatMap({ offsetSeconds($0.value) }),
                  let to = c.first("TZOFFSETTO").flatMap({ offsetSeconds($0.value) }) else {
                return .failure(RRule.ParseError("VTIMEZONE \(id): each STANDARD and DAYLIGHT needs DTSTART, TZOFFSETFROM and TZOFFSETTO"))
            }
            var rule: RRule? = nil
            if let rr = c.first("RRULE") {
                do throws(RRule.ParseError) { rule = try RRule.parse(rr.value) } catch {
                    return .failure(RRule.ParseError("VTIMEZONE \(id): \(error.message)"))
                }
            }
            var rdates: [LocalDateTime] = []
            for r in c.all("RDATE") {
                for v in r.value.split(separator: ",") { if case .local(let l)? = ICSValue.dateOrDateTime(String(v)) { rdates.append(l) } }
            }
            parts.append(Part(daylight: c.name == "DAYLIGHT", onset: onset, from: from, to: to, rule: rule, rdates: rdates))
        }
        guard !parts.isEmpty else { return .failure(RRule.ParseError("VTIMEZONE \(id) has no STANDARD or DAYLIGHT")) }
        // The rules still running: yearly, without an end.
        let open = parts.filter { $0.rule != nil && $0.rule!.until == nil && $0.rule!.count == nil }
        func name(_ off: Int) -> String { "<" + ICS.offset(off) + ">" }
        func hms(_ s: Int) -> String {
            let a = abs(s)
            var t = (s < 0 ? "-" : "") + "\(a / 3600)"
            if a % 3600 != 0 { t += ":" + String(format2((a / 60) % 60)) }
            if a % 60 != 0 { t += ":" + String(format2(a % 60)) }
            return t
        }
        if let dst = open.first(where: { $0.daylight }), let std = open.first(where: { !$0.daylight }), open.count == 2,
           let a = monthWeek(dst.rule!, dst.onset), let b = monthWeek(std.rule!, std.onset) {
            let rule = "\(name(std.to))\(hms(-std.to))\(name(dst.to))\(hms(-dst.to)),\(a)/\(hms(dst.onset.time.secondsOfDay)),\(b)/\(hms(std.onset.time.secondsOfDay))"
            return .success(rule)
        }
        if open.isEmpty {
            // No rule still running: the latest offset holds from then on.
            var latest: (LocalDateTime, Int)? = nil
            for p in parts {
                var onsets = [p.onset] + p.rdates
                if let r = p.rule {
                    var e = RRuleExpansion(rule: r, start: p.onset, zone: .utc)
                    var n = 0
                    while n < 500, let l = e.nextLocal() { onsets.append(l); n += 1 }
                }
                for o in onsets where latest == nil || o > latest!.0 { latest = (o, p.to) }
            }
            if let (_, off) = latest { return .success("\(name(off))\(hms(-off))") }
        }
        return .failure(RRule.ParseError("VTIMEZONE \(id): its changes of offset are not yearly rules yomo can keep; name an IANA zone instead"))
    }

    static func format2(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    /// FREQ=YEARLY;BYMONTH=3;BYDAY=2SU as POSIX's M3.2.0 (also BYDAY=SU with
    /// BYMONTHDAY=8,...,14, the older way of saying it).
    static func monthWeek(_ r: RRule, _ onset: LocalDateTime) -> String? {
        guard r.freq == .yearly, r.interval == 1, r.byDay.count == 1 else { return nil }
        let month = r.byMonth.count == 1 ? r.byMonth[0] : (r.byMonth.isEmpty ? onset.day.month : 0)
        guard month >= 1 else { return nil }
        let d = r.byDay[0]
        if let n = d.n, r.byMonthDay.isEmpty {
            guard (1...4).contains(n) || n == -1 else { return nil }
            return "M\(month).\(n == -1 ? 5 : n).\(d.weekday)"
        }
        if d.n == nil, r.byMonthDay.count == 7, let lo = r.byMonthDay.min(), r.byMonthDay.max() == lo + 6, lo > 0 {
            if lo + 6 >= 31 || (month == 2 && lo >= 22) { return "M\(month).5.\(d.weekday)" }
            guard (lo - 1) % 7 == 0 else { return nil }
            return "M\(month).\((lo - 1) / 7 + 1).\(d.weekday)"
        }
        return nil
    }

    /// +0530, -0500, +053000: seconds east.
    static func offsetSeconds(_ v: String) -> Int? {
        let u = Array(v.trimmingSpaces.utf8)
        guard u.count == 5 || u.count == 7, u[0] == 43 || u[0] == 45, u.dropFirst().allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        let d = u.dropFirst().map { Int($0 - 48) }
        let s = (d[0] * 10 + d[1]) * 3600 + (d[2] * 10 + d[3]) * 60 + (u.count == 7 ? d[4] * 10 + d[5] : 0)
        return u[0] == 45 ? -s : s
    }
}
