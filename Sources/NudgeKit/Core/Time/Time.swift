// Instants, calendar days, wall-clock times and RFC 3339 — pure values and
// arithmetic, no clock and no disk. Time zones are in Zone.swift.

/// A point in time: milliseconds since 1970-01-01T00:00:00Z.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var ms: Int64
    public init(ms: Int64) { self.ms = ms }
    public init(seconds: Int64) { self.ms = seconds * 1000 }
    /// Whole seconds, rounded down (without overflow at Int64.min).
    public var seconds: Int64 { ms >= 0 ? ms / 1000 : -((-(ms + 1)) / 1000) - 1 }
    public static func < (a: Instant, b: Instant) -> Bool { a.ms < b.ms }
    public func adding(seconds s: Int64) -> Instant { Instant(ms: ms + s * 1000) }
    public func adding(minutes m: Int64) -> Instant { Instant(ms: ms + m * 60_000) }
    public var description: String { RFC3339.format(self, offsetSeconds: 0) }
}

/// A calendar day, `YYYY-MM-DD`.
public struct Day: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01 (may be negative).
    public init(daysSinceEpoch z0: Int) {
        // Howard Hinnant's civil_from_days.
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: m <= 2 ? y + 1 : y, month: m, day: d)
    }

    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// 0 = Sunday … 6 = Saturday.
    public var weekday: Int {
        let d = daysSinceEpoch
        return ((d % 7) + 7 + 4) % 7
    }

    public func adding(days n: Int) -> Day { Day(daysSinceEpoch: daysSinceEpoch + n) }
    public static func - (a: Day, b: Day) -> Int { a.daysSinceEpoch - b.daysSinceEpoch }

    public static func < (a: Day, b: Day) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    public static func isLeapYear(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public var isValid: Bool {
        (1...9999).contains(year) && (1...12).contains(month) && day >= 1
            && day <= Day.daysInMonth(year: year, month: month)
    }

    public var description: String {
        var out = [UInt8]()
        append(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `description`'s bytes.
    public func append(into out: inout [UInt8]) {
        Day.append4(year, &out); out.append(UInt8(ascii: "-"))
        Day.append2(month, &out); out.append(UInt8(ascii: "-"))
        Day.append2(day, &out)
    }

    static func append2(_ v: Int, _ out: inout [UInt8]) {
        out.append(UInt8(48 + (v / 10) % 10)); out.append(UInt8(48 + v % 10))
    }
    static func append4(_ v: Int, _ out: inout [UInt8]) {
        out.append(UInt8(48 + (v / 1000) % 10)); out.append(UInt8(48 + (v / 100) % 10))
        out.append(UInt8(48 + (v / 10) % 10)); out.append(UInt8(48 + v % 10))
    }

    /// Parses `YYYY-MM-DD`; nil unless it is a real calendar day.
    public static func parse(_ s: String) -> Day? {
        var s = s
        return s.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// `YYYY-MM-DD` from bytes (a snapshot line read in place).
    public static func parse(_ u: UnsafeRawBufferPointer) -> Day? {
        guard u.count == 10, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"),
              let y = digits(u, 0, 4), let m = digits(u, 5, 2), let d = digits(u, 8, 2) else { return nil }
        let day = Day(year: y, month: m, day: d)
        return day.isValid ? day : nil
    }

    static func digits<C: Collection>(_ u: C, _ at: Int, _ n: Int) -> Int? where C.Element == UInt8, C.Index == Int {
        var v = 0
        for k in at..<(at + n) {
            let c = u[k]
            guard c >= 48 && c <= 57 else { return nil }
            v = v * 10 + Int(c - 48)
        }
        return v
    }
}

/// A wall-clock time of day.
public struct TimeOfDay: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var hour: Int
    public var minute: Int
    public var second: Int
    public init(hour: Int, minute: Int, second: Int = 0) {
        self.hour = hour
        self.minute = minute
        self.second = second
    }
    public var secondsOfDay: Int { hour * 3600 + minute * 60 + second }
    public init(secondsOfDay s: Int) { self.init(hour: s / 3600, minute: (s / 60) % 60, second: s % 60) }
    public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { a.secondsOfDay < b.secondsOfDay }
    /// `HH:MM`, or `HH:MM:SS` when seconds are set.
    public var description: String {
        var out = [UInt8]()
        append(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `description`'s bytes.
    public func append(into out: inout [UInt8]) {
        Day.append2(hour, &out); out.append(UInt8(ascii: ":")); Day.append2(minute, &out)
        if second != 0 { out.append(UInt8(ascii: ":")); Day.append2(second, &out) }
    }

    /// Parses `HH:MM` or `HH:MM:SS` (24-hour).
    public static func parse(_ s: String) -> TimeOfDay? {
        var s = s
        return s.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// The same from bytes (a snapshot line read in place).
    public static func parse(_ u: UnsafeRawBufferPointer) -> TimeOfDay? {
        guard u.count == 5 || u.count == 8 || u.count == 4 else { return nil }
        // The first three parts and how many there are.
        var parts = (0, 0, 0)
        var n = 0
        var cur = -1
        var width = 0
        func keep(_ v: Int) {
            switch n {
            case 0: parts.0 = v
            case 1: parts.1 = v
            case 2: parts.2 = v
            default: break
            }
            n += 1
        }
        for c in u {
            if c == UInt8(ascii: ":") {
                guard cur >= 0 else { return nil }
                keep(cur); cur = -1; width = 0
            } else if c >= 48 && c <= 57 {
                cur = (cur < 0 ? 0 : cur) * 10 + Int(c - 48)
                width += 1
                if width > 2 { return nil }
            } else { return nil }
        }
        guard cur >= 0, width == 2 else { return nil }
        keep(cur)
        guard n >= 2, parts.0 < 24, parts.1 < 60 else { return nil }
        let sec = n == 3 ? parts.2 : 0
        guard sec < 60 else { return nil }
        return TimeOfDay(hour: parts.0, minute: parts.1, second: sec)
    }
}

/// A local date and time with no zone attached.
public struct LocalDateTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var day: Day
    public var time: TimeOfDay
    public init(day: Day, time: TimeOfDay) {
        self.day = day
        self.time = time
    }
    /// Seconds since the epoch if this wall time were UTC.
    public var wallSeconds: Int64 { Int64(day.daysSinceEpoch) * 86400 + Int64(time.secondsOfDay) }
    public init(wallSeconds s: Int64) {
        let d = Int(s >= 0 ? s / 86400 : (s - 86399) / 86400)
        self.init(day: Day(daysSinceEpoch: d), time: TimeOfDay(secondsOfDay: Int(s - Int64(d) * 86400)))
    }
    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool { a.wallSeconds < b.wallSeconds }
    public var description: String { "\(day)T\(time.hour < 10 ? "0" : "")\(time.hour):\(time.minute < 10 ? "0" : "")\(time.minute):\(time.second < 10 ? "0" : "")\(time.second)" }
}

/// RFC 3339 timestamps: `2026-11-22T08:15:00-05:00`, `…Z`, fractional seconds;
/// on input also an offset without its colon (`+0000`, `-0500`).
public enum RFC3339 {
    public struct Parsed: Equatable, Sendable {
        public var instant: Instant
        /// The offset written in the text (seconds east of UTC), or nil when the
        /// text had none and is a local time.
        public var offsetSeconds: Int?
        public var local: LocalDateTime
    }

    /// Parses RFC 3339 (also a space instead of `T`, and, when `allowLocal`,
    /// no offset at all: then `instant` is computed as UTC and the caller
    /// resolves `local` in its zone).
    public static func parse(_ s: String, allowLocal: Bool = false) -> Parsed? {
        var s = s
        return s.withUTF8 { parse(UnsafeRawBufferPointer($0), allowLocal: allowLocal) }
    }

    public static func parse(_ u: UnsafeRawBufferPointer, allowLocal: Bool = false) -> Parsed? {
        let n = u.count
        guard n >= 16 else { return nil }
        @inline(__always) func dig(_ i: Int) -> Int? {
            let c = u[i]
            return c >= 48 && c <= 57 ? Int(c - 48) : nil
        }
        @inline(__always) func num(_ i: Int, _ w: Int) -> Int? {
            var v = 0
            for k in i..<(i + w) { guard let d = dig(k) else { return nil }; v = v * 10 + d }
            return v
        }
        guard let y = num(0, 4), u[4] == 45, let mo = num(5, 2), u[7] == 45, let d = num(8, 2),
              u[10] == UInt8(ascii: "T") || u[10] == UInt8(ascii: "t") || u[10] == 32,
              let h = num(11, 2), u[13] == 58, let mi = num(14, 2) else { return nil }
        var i = 16
        var sec = 0
        if i < n && u[i] == 58 {
            guard i + 3 <= n, let s2 = num(i + 1, 2) else { return nil }
            sec = s2
            i += 3
        }
        var frac: Int64 = 0
        if i < n && (u[i] == UInt8(ascii: ".") || u[i] == UInt8(ascii: ",")) {
            i += 1
            var digits = 0
            while i < n, let dd = dig(i) {
                if digits < 3 { frac = frac * 10 + Int64(dd) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            var k = digits
            while k < 3 { frac *= 10; k += 1 }
        }
        let day = Day(year: y, month: mo, day: d)
        guard day.isValid, h < 24, mi < 60, sec <= 60 else { return nil }
        let local = LocalDateTime(day: day, time: TimeOfDay(hour: h, minute: mi, second: min(sec, 59)))
        var offset: Int? = nil
        if i < n {
            let c = u[i]
            if c == UInt8(ascii: "Z") || c == UInt8(ascii: "z") {
                offset = 0
                i += 1
            } else if c == 43 || c == 45 {
                // `+hh:mm`, or `+hhmm` as many exports write it.
                let colon = i + 3 < n && u[i + 3] == 58
                let w = colon ? 6 : 5
                guard i + w <= n, let oh = num(i + 1, 2), let om = num(i + w - 2, 2),
                      oh < 24, om < 60 else { return nil }
                offset = (c == 45 ? -1 : 1) * (oh * 3600 + om * 60)
                i += w
            } else {
                return nil
            }
        }
        guard i == n else { return nil }
        if offset == nil && !allowLocal { return nil }
        let wall = local.wallSeconds + (sec == 60 ? 1 : 0)
        let inst = Instant(ms: (wall - Int64(offset ?? 0)) * 1000 + frac)
        return Parsed(instant: inst, offsetSeconds: offset, local: local)
    }

    /// Formats with the given offset; milliseconds only when non-zero.
    public static func format(_ t: Instant, offsetSeconds off: Int) -> String {
        var out = [UInt8]()
        out.reserveCapacity(29)
        append(t, offsetSeconds: off, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The first and last instants RFC 3339 can write (years 0000 to 9999, in UTC).
    static let writable = Instant(ms: -62_167_219_200_000)...Instant(ms: 253_402_300_799_999)

    public static func append(_ instant: Instant, offsetSeconds offset: Int, into out: inout [UInt8]) {
        // RFC 3339 offsets are whole minutes: a zone's local mean time before
        // standard time (New York's -04:56:02) is written with its minutes,
        // and the wall time with it, so the text reads back as this instant.
        var off = offset / 60 * 60
        // Four digits of year: a local time past 9999 (the last second of
        // 9999 in a zone east of UTC) is written in UTC, and an instant
        // outside years 0000-9999 as the nearest one inside, never as a year
        // cut to its last four digits.
        let t = min(max(instant, writable.lowerBound), writable.upperBound)
        if !writable.contains(Instant(ms: t.ms + Int64(off) * 1000)) { off = 0 }
        let secs = t.seconds
        let ms = Int(t.ms - secs * 1000)
        let local = LocalDateTime(wallSeconds: secs + Int64(off))
        Day.append4(local.day.year, &out); out.append(45)
        Day.append2(local.day.month, &out); out.append(45)
        Day.append2(local.day.day, &out); out.append(UInt8(ascii: "T"))
        Day.append2(local.time.hour, &out); out.append(58)
        Day.append2(local.time.minute, &out); out.append(58)
        Day.append2(local.time.second, &out)
        if ms != 0 {
            out.append(UInt8(ascii: "."))
            out.append(UInt8(48 + ms / 100)); out.append(UInt8(48 + (ms / 10) % 10)); out.append(UInt8(48 + ms % 10))
        }
        if off == 0 {
            out.append(UInt8(ascii: "Z"))
        } else {
            out.append(off < 0 ? 45 : 43)
            let a = abs(off)
            Day.append2(a / 3600, &out); out.append(58); Day.append2((a / 60) % 60, &out)
        }
    }
}

extension Day {
    /// English month names, January first, for text layouts.
    public static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                                    "September", "October", "November", "December"]
    /// English weekday names, Sunday first (as `weekday` counts).
    public static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// "Sunday, November 22": the day as a text message names it.
    public var spelledOut: String { "\(Day.weekdayNames[weekday]), \(Day.monthNames[month - 1]) \(day)" }
}
