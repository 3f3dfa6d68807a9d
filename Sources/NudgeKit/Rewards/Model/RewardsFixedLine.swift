// A cursor over a snapshot line written in a fixed layout, for the lines
// every read restores (a day's totals, the cold part's index): read in
// place, without building JSON values.
//
// Invariants: it accepts only what the general parser reads to the same
// values: plain ASCII strings without escapes or control characters, and
// integers of at most 18 digits without leading zeros; anything else is
// nil, and the caller reads the line the general way.

struct FixedLine {
    let b: UnsafeRawBufferPointer
    var i = 0

    init(_ b: UnsafeRawBufferPointer) { self.b = b }

    var atEnd: Bool { i == b.count }

    /// Whether the bytes at the cursor are `s`; if so, moves past them.
    /// (Eight bytes at a time: a line's field names are most of its bytes.)
    @inline(__always) mutating func expect(_ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard b.count - i >= n else { return false }
        let p = b.baseAddress! + i, q = UnsafeRawPointer(s.utf8Start)
        var k = 0
        while k + 8 <= n {
            guard p.loadUnaligned(fromByteOffset: k, as: UInt64.self) == q.loadUnaligned(fromByteOffset: k, as: UInt64.self) else { return false }
            k += 8
        }
        while k < n {
            guard p.load(fromByteOffset: k, as: UInt8.self) == q.load(fromByteOffset: k, as: UInt8.self) else { return false }
            k += 1
        }
        i += n
        return true
    }

    /// The bytes up to the next quote (then past it): printable ASCII, no
    /// backslash; nil for anything else or nothing.
    mutating func plainString() -> Range<Int>? {
        let start = i
        while i < b.count {
            let c = b[i]
            if c == 0x22 {
                guard i > start else { return nil }
                i += 1
                return start..<(i - 1)
            }
            guard c >= 0x20, c < 0x7F, c != 0x5C else { return nil }
            i += 1
        }
        return nil
    }

    /// An integer: an optional minus, then 1 to 18 digits without a leading zero.
    mutating func int() -> Int64? {
        let negative = i < b.count && b[i] == 0x2D
        if negative { i += 1 }
        let start = i
        var v: Int64 = 0
        while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
            guard i - start < 18 else { return nil }
            v = v &* 10 &+ Int64(b[i] &- 0x30)
            i += 1
        }
        guard i > start, b[start] != 0x30 || i - start == 1 else { return nil }
        return negative ? -v : v
    }

    /// `YYYY-MM-DD`, a real calendar day (as `Day.parse` reads it).
    mutating func day() -> Day? {
        guard b.count - i >= 10, b[i + 4] == 0x2D, b[i + 7] == 0x2D else { return nil }
        @inline(__always) func digit(_ k: Int) -> Int? {
            let c = b[i + k]
            return c >= 0x30 && c <= 0x39 ? Int(c &- 0x30) : nil
        }
        guard let y0 = digit(0), let y1 = digit(1), let y2 = digit(2), let y3 = digit(3), let m0 = digit(5), let m1 = digit(6),
              let d0 = digit(8), let d1 = digit(9) else { return nil }
        let d = Day(year: y0 * 1000 + y1 * 100 + y2 * 10 + y3, month: m0 * 10 + m1, day: d0 * 10 + d1)
        guard d.isValid else { return nil }
        i += 10
        return d
    }

    /// 16 lower-case hex digits in quotes.
    mutating func hex64() -> UInt64? {
        guard b.count - i >= 18, b[i] == 0x22, b[i + 17] == 0x22 else { return nil }
        var v: UInt64 = 0
        for k in (i + 1)...(i + 16) {
            let c = b[k]
            let d: UInt8
            if c >= 0x30 && c <= 0x39 { d = c - 0x30 } else if c >= 0x61 && c <= 0x66 { d = c - 0x61 + 10 } else { return nil }
            v = v << 4 | UInt64(d)
        }
        i += 18
        return v
    }
}
