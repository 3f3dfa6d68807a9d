// Time zones as values: read from the system's TZif files (RFC 8536) and
// POSIX TZ rules, so that local days, DST gaps and overlaps are pure
// computations that tests can run for any zone side by side.
public struct Zone: Sendable, Equatable {
    public let name: String
    let transitions: [Int64]
    let offsets: [Int32]
    let initialOffset: Int
    let rule: PosixTZ?

    public static let utc = Zone(name: "UTC", transitions: [], offsets: [], initialOffset: 0, rule: nil)

    /// Seconds east of UTC in effect at `t`.
    public func offset(at t: Instant) -> Int {
        let s = t.seconds
        if transitions.isEmpty || s < transitions[0] {
            if transitions.isEmpty, let r = rule { return r.offset(at: s) }
            return initialOffset
        }
        if s >= transitions[transitions.count - 1], let r = rule { return r.offset(at: s) }
        var lo = 0
        var hi = transitions.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if transitions[mid] <= s { lo = mid } else { hi = mid - 1 }
        }
        return Int(offsets[lo])
    }

    public func local(_ t: Instant) -> LocalDateTime {
        LocalDateTime(wallSeconds: t.seconds + Int64(offset(at: t)))
    }

    public func day(of t: Instant) -> Day { local(t).day }

    /// RFC 3339 text with this zone's offset at that instant.
    public func format(_ t: Instant) -> String { RFC3339.format(t, offsetSeconds: offset(at: t)) }

    /// The instants whose wall time here is `l`: none in a DST gap, two in an
    /// overlap, one otherwise; earliest first.
    public func candidates(for l: LocalDateTime) -> [Instant] {
        let wall = l.wallSeconds
        var offs: [Int] = []
        for probe in [wall - 86400, wall, wall + 86400] {
            let o = offset(at: Instant(seconds: probe))
            if !offs.contains(o) { offs.append(o) }
        }
        var out: [Instant] = []
        for o in offs {
            let t = Instant(seconds: wall - Int64(o))
            if offset(at: t) == o && !out.contains(t) { out.append(t) }
        }
        return out.sorted()
    }

    /// One instant for a wall time, as RFC 5545 does it: in an overlap the
    /// first occurrence; in a gap the offset from before the gap (02:30 on a
    /// spring-forward day becomes 03:30).
    public func resolve(_ l: LocalDateTime) -> Instant {
        let c = candidates(for: l)
        if let first = c.first { return first }
        let wall = l.wallSeconds
        let before = offset(at: Instant(seconds: wall - Int64(offset(at: Instant(seconds: wall))) - 43200))
        return Instant(seconds: wall - Int64(before))
    }

    /// The first instant of a local day (midnight, or the first moment after a
    /// gap at midnight).
    public func startOfDay(_ d: Day) -> Instant {
        resolve(LocalDateTime(day: d, time: TimeOfDay(hour: 0, minute: 0)))
    }

    /// How long a local day lasts, in seconds (82800 or 90000 on DST days).
    public func lengthOfDay(_ d: Day) -> Int64 {
        (startOfDay(d.adding(days: 1)).ms - startOfDay(d).ms) / 1000
    }

    public static func == (a: Zone, b: Zone) -> Bool {
        a.name == b.name && a.transitions == b.transitions && a.offsets == b.offsets && a.rule == b.rule
    }
}

/// The local day of many instants that mostly fall on the same few days
/// (a million lines of an export, in time order): the day of the last one
/// asked is remembered with its bounds, so most lookups are two
/// comparisons instead of an offset search and a calendar conversion. A day
/// whose offset changes within it (DST) is never remembered; every answer is
/// `zone.day(of:)`'s.
public struct DayLookup: Sendable {
    public let zone: Zone
    var day: Day? = nil
    var lo: Int64 = 0, hi: Int64 = 0  // [lo, hi) in ms, all of one offset

    public init(_ zone: Zone) { self.zone = zone }

    public mutating func day(of t: Instant) -> Day {
        if let d = day, t.ms >= lo, t.ms < hi { return d }
        let d = zone.day(of: t)
        let a = zone.startOfDay(d), b = Instant(ms: zone.startOfDay(d.adding(days: 1)).ms - 1)
        if a <= t, t <= b, zone.offset(at: a) == zone.offset(at: b), zone.day(of: a) == d, zone.day(of: b) == d {
            day = d
            lo = a.ms
            hi = b.ms + 1
        } else {
            day = nil
        }
        return d
    }
}

// MARK: - Loading

extension Zone {
    static let zoneDirectories = ["/usr/share/zoneinfo", "/usr/lib/zoneinfo", "/usr/share/lib/zoneinfo", "/var/db/timezone/zoneinfo"]

    /// The zone names the system's tzdata lists for people (zone1970.tab,
    /// or zone.tab), with UTC: what `--tz` completes to. Empty without
    /// tzdata.
    public static func installedNames() -> [String] {
        for dir in zoneDirectories {
            for table in ["zone1970.tab", "zone.tab"] {
                guard let bytes = try? Sys.readFile(Sys.join(dir, table)) else { continue }
                var names: Set<String> = ["UTC"]
                for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
                    let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                    if fields.count >= 3 { names.insert(String(fields[2])) }
                }
                return names.sorted()
            }
        }
        return []
    }
    /// The largest zone file read (tzdata's largest is under 4 KB): a name
    /// from a peer's event or TZ may point at a device or a FIFO.
    static let maxTZifBytes = 1 << 20

    /// The zone the `TZ` variable names (unset: /etc/localtime; empty: UTC).
    public static func fromEnvironment(_ tz: String? = Sys.env("TZ")) throws(ToolError) -> Zone {
        guard let tz = tz else {
            if let bytes = Sys.readSmallRegularFile("/etc/localtime", cap: maxTZifBytes), let z = try? parseTZif(bytes, name: localZoneName()) {
                return z
            }
            return .utc
        }
        if tz.isEmpty { return .utc }
        do throws(ToolError) { return try named(tz) } catch {
            // Name the variable: the user did not type this on the command line.
            throw ToolError(error.code, "TZ: \(error.message)")
        }
    }

    static func localZoneName() -> String {
        var buf = [CChar](repeating: 0, count: 1024)
        let n = readlink("/etc/localtime", &buf, 1023)
        if n > 0 {
            let target = cArrayString(buf)
            if let r = target.firstRange(of: "zoneinfo/") { return String(target[r.upperBound...]) }
        }
        if let bytes = try? Sys.readFile("/etc/timezone") {
            let s = String(decoding: bytes, as: UTF8.self).trimmingSpaces
            if !s.isEmpty { return s }
        }
        return "localtime"
    }

    /// Whether an IANA name has a zone file in the zone folders (or is UTC),
    /// found by stat without opening it.
    public static func exists(_ name: String) -> Bool {
        if name == "UTC" || name == "Etc/UTC" || name == "Z" { return true }
        guard !name.hasPrefix("/") else { return false }
        return candidatePaths(name).contains { path in
            var st = stat()
            return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG && st.st_size >= 44
        }
    }

    /// Where an IANA name's file may be, in the order looked at: $TZDIR
    /// first, then the system's folders. None for a name that climbs out.
    static func candidatePaths(_ name: String) -> [String] {
        guard !name.isEmpty, !name.contains("..") else { return [] }
        var dirs = zoneDirectories
        if let d = Sys.env("TZDIR"), !d.isEmpty { dirs.insert(d, at: 0) }
        return dirs.map { Sys.join($0, name) }
    }

    /// A zone by IANA name (`America/New_York`), file path, or POSIX TZ rule
    /// (`EST5EDT,M3.2.0,M11.1.0`).
    public static func named(_ raw: String) throws(ToolError) -> Zone {
        var name = raw
        if name.hasPrefix(":") { name.removeFirst() }
        if name == "UTC" || name == "Etc/UTC" || name == "Z" { return .utc }
        if name.hasPrefix("/") {
            if let bytes = Sys.readSmallRegularFile(name, cap: maxTZifBytes), let z = try? parseTZif(bytes, name: name) { return z }
        } else {
            for path in candidatePaths(name) {
                if let bytes = Sys.readSmallRegularFile(path, cap: maxTZifBytes), let z = try? parseTZif(bytes, name: name) {
                    return z
                }
            }
        }
        if let rule = PosixTZ.parse(name) {
            return Zone(name: name, transitions: [], offsets: [], initialOffset: rule.stdOffset, rule: rule)
        }
        throw ToolError(.config, "unknown time zone '\(raw)': use an IANA name like America/New_York")
    }

    struct TZifError: Error {}

    static func parseTZif(_ b: [UInt8], name: String) throws(TZifError) -> Zone {
        guard b.count >= 44, b[0] == 0x54, b[1] == 0x5A, b[2] == 0x69, b[3] == 0x66 else { throw TZifError() }
        func be32(_ i: Int) throws(TZifError) -> Int64 {
            guard i >= 0, i + 4 <= b.count else { throw TZifError() }
            return Int64(Int32(bitPattern: UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])))
        }
        func be64(_ i: Int) throws(TZifError) -> Int64 {
            guard i >= 0, i + 8 <= b.count else { throw TZifError() }
            var v: UInt64 = 0
            for k in 0..<8 { v = v << 8 | UInt64(b[i + k]) }
            return Int64(bitPattern: v)
        }
        func counts(_ at: Int) throws(TZifError) -> [Int] {
            var c: [Int] = []
            for k in 0..<6 { c.append(Int(try be32(at + 20 + 4 * k))) }
            return c  // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
        }
        let version = b[4]
        var at = 0
        var c = try counts(0)
        var timeSize = 4
        if version >= 0x32 {
            guard c.allSatisfy({ $0 >= 0 && $0 <= b.count }) else { throw TZifError() }
            let v1 = c[3] * 4 + c[3] + c[4] * 6 + c[5] + c[2] * 8 + c[1] + c[0]
            at = 44 + v1
            c = try counts(at)
            timeSize = 8
        }
        let (isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt) = (c[0], c[1], c[2], c[3], c[4], c[5])
        // Counts as the file says them: none negative, none past its size.
        guard typecnt > 0, c.allSatisfy({ $0 >= 0 && $0 <= b.count }) else { throw TZifError() }
        var p = at + 44
        var times: [Int64] = []
        times.reserveCapacity(timecnt)
        for k in 0..<timecnt { times.append(timeSize == 8 ? try be64(p + 8 * k) : try be32(p + 4 * k)) }
        p += timecnt * timeSize
        guard p + timecnt + typecnt * 6 <= b.count else { throw TZifError() }
        let idx = Array(b[p..<(p + timecnt)])
        p += timecnt
        var typeOffsets: [Int32] = []
        for k in 0..<typecnt {
            // An offset a time can be written with (under 24 hours; RFC 8536 allows 26).
            let o = try be32(p + 6 * k)
            guard abs(o) < 86400 else { throw TZifError() }
            typeOffsets.append(Int32(o))
        }
        p += typecnt * 6 + charcnt + leapcnt * (timeSize + 4) + isstdcnt + isutcnt
        var rule: PosixTZ? = nil
        if timeSize == 8 && p < b.count && b[p] == 0x0A {
            var e = p + 1
            while e < b.count && b[e] != 0x0A { e += 1 }
            let footer = String(decoding: b[(p + 1)..<e], as: UTF8.self)
            if !footer.isEmpty { rule = PosixTZ.parse(footer) }
        }
        var offsets: [Int32] = []
        for i in idx {
            guard Int(i) < typecnt else { throw TZifError() }
            offsets.append(typeOffsets[Int(i)])
        }
        return Zone(name: name, transitions: times, offsets: offsets, initialOffset: Int(typeOffsets[0]), rule: rule)
    }
}

/// A POSIX TZ rule such as `EST5EDT,M3.2.0,M11.1.0` (the TZif footer).
struct PosixTZ: Sendable, Equatable {
    enum DayRule: Sendable, Equatable {
        case julianNoLeap(Int)  // Jn, 1...365, February 29 never counted
        case zeroBased(Int)  // n, 0...365
        case monthWeek(month: Int, week: Int, weekday: Int)  // Mm.w.d
    }
    var stdOffset: Int  // seconds east
    var dstOffset: Int?
    var start: DayRule = .monthWeek(month: 3, week: 2, weekday: 0)
    var startTime = 7200
    var end: DayRule = .monthWeek(month: 11, week: 1, weekday: 0)
    var endTime = 7200

    func offset(at s: Int64) -> Int {
        guard let dst = dstOffset else { return stdOffset }
        let year = LocalDateTime(wallSeconds: s + Int64(stdOffset)).day.year
        let a = transition(start, startTime, year: year, offset: stdOffset)
        let b = transition(end, endTime, year: year, offset: dst)
        if a < b { return (s >= a && s < b) ? dst : stdOffset }
        return (s >= b && s < a) ? stdOffset : dst
    }

    func transition(_ r: DayRule, _ time: Int, year: Int, offset: Int) -> Int64 {
        let jan1 = Day(year: year, month: 1, day: 1).daysSinceEpoch
        var day: Int
        switch r {
        case .julianNoLeap(let n):
            day = jan1 + n - 1 + (Day.isLeapYear(year) && n >= 60 ? 1 : 0)
        case .zeroBased(let n):
            day = jan1 + n
        case .monthWeek(let m, let w, let wd):
            let first = Day(year: year, month: m, day: 1)
            var d = 1 + (wd - first.weekday + 7) % 7 + (w - 1) * 7
            let dim = Day.daysInMonth(year: year, month: m)
            while d > dim { d -= 7 }
            day = first.daysSinceEpoch + d - 1
        }
        return Int64(day) * 86400 + Int64(time) - Int64(offset)
    }

    static func parse(_ s: String) -> PosixTZ? {
        var u = Array(s.utf8)[...]
        func name() -> Bool {
            if u.first == UInt8(ascii: "<") {
                guard let close = u.firstIndex(of: UInt8(ascii: ">")) else { return false }
                u = u[(close + 1)...]
                return true
            }
            var n = 0
            while let c = u.first, (c >= 65 && c <= 90) || (c >= 97 && c <= 122) { u = u.dropFirst(); n += 1 }
            return n >= 3
        }
        // At most three digits: no field is larger (a longer run of digits
        // would overflow, and is no rule).
        func number() -> Int? {
            var v = 0
            var n = 0
            while let c = u.first, c >= 48 && c <= 57 {
                guard n < 3 else { return nil }
                v = v * 10 + Int(c - 48); u = u.dropFirst(); n += 1
            }
            return n > 0 ? v : nil
        }
        // hh[:mm[:ss]], hours up to `maxHours` (24 for an offset, 167 for a
        // transition's time, as tzfile(5) allows), minutes and seconds to 59.
        func hms(signed: Bool, maxHours: Int) -> Int? {
            var sign = 1
            if let c = u.first, c == 43 || c == 45 {
                guard signed else { return nil }
                sign = c == 45 ? -1 : 1
                u = u.dropFirst()
            }
            guard let h = number(), h <= maxHours else { return nil }
            var total = h * 3600
            if u.first == 58 { u = u.dropFirst(); guard let m = number(), m <= 59 else { return nil }; total += m * 60 }
            if u.first == 58 { u = u.dropFirst(); guard let sec = number(), sec <= 59 else { return nil }; total += sec }
            return sign * total
        }
        // An offset a time can be written with (RFC 3339: under 24 hours).
        func offset() -> Int? {
            guard let o = hms(signed: true, maxHours: 24), abs(o) < 86400 else { return nil }
            return o
        }
        func dayRule() -> DayRule? {
            if u.first == UInt8(ascii: "J") {
                u = u.dropFirst()
                guard let n = number(), (1...365).contains(n) else { return nil }
                return .julianNoLeap(n)
            }
            if u.first == UInt8(ascii: "M") {
                u = u.dropFirst()
                guard let m = number(), u.first == 46 else { return nil }
                u = u.dropFirst()
                guard let w = number(), u.first == 46 else { return nil }
                u = u.dropFirst()
                guard let d = number(), (1...12).contains(m), (1...5).contains(w), (0...6).contains(d) else { return nil }
                return .monthWeek(month: m, week: w, weekday: d)
            }
            guard let n = number(), (0...365).contains(n) else { return nil }
            return .zeroBased(n)
        }
        guard name(), let std = offset() else { return nil }
        var r = PosixTZ(stdOffset: -std, dstOffset: nil)
        if u.isEmpty { return r }
        guard name() else { return nil }
        if let c = u.first, c != 44 {
            guard let d = offset() else { return nil }
            r.dstOffset = -d
        } else {
            guard abs(-std + 3600) < 86400 else { return nil }
            r.dstOffset = -std + 3600
        }
        if u.isEmpty { return r }
        guard u.first == 44 else { return nil }
        u = u.dropFirst()
        guard let s1 = dayRule() else { return nil }
        r.start = s1
        if u.first == 47 { u = u.dropFirst(); guard let t = hms(signed: true, maxHours: 167) else { return nil }; r.startTime = t }
        guard u.first == 44 else { return nil }
        u = u.dropFirst()
        guard let e1 = dayRule() else { return nil }
        r.end = e1
        if u.first == 47 { u = u.dropFirst(); guard let t = hms(signed: true, maxHours: 167) else { return nil }; r.endTime = t }
        return u.isEmpty ? r : nil
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    public var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\n" || c == "\r" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\n" || c == "\r" { s.removeLast() }
        return String(s)
    }
}
