// Reading habitmatch's snapshot lines fast: a pool of thousands of members
// is restored on every command, so the two lines there are one of per
// member ("member" and "swipes") are read by a scanner of the exact layout
// `hotSnapshot` writes, not by the general JSON parser; a member's swipes are
// kept as their line and parsed only when that member's swipes are needed.
//
// Invariants: a line the scanner does not recognise in every byte (an
// escaped character, an own habit, a key out of place) is handed back to
// the general parser, so the state is the same either way; a member's raw
// swipes line is dropped as soon as their swipes are parsed or changed.

extension HabitmatchState {
    public static var restoresRawLines: Bool { true }

    /// Every member's swipes (parsing those still kept raw).
    public var swipes: [String: [String: Bool]] {
        var all = swipeTable
        for (u, raw) in rawSwipes where all[u] == nil { all[u] = HabitmatchState.parseSwipes(raw) }
        return all
    }

    /// One member's swipes: to → liked (true) or passed (false).
    func swipes(of u: String) -> [String: Bool] {
        if let s = swipeTable[u] { return s }
        return rawSwipes[u].map(HabitmatchState.parseSwipes) ?? [:]
    }

    /// Parses a member's raw swipes before they change.
    mutating func materializeSwipes(_ u: String) {
        if let raw = rawSwipes.removeValue(forKey: u), swipeTable[u] == nil { swipeTable[u] = HabitmatchState.parseSwipes(raw) }
    }

    public mutating func restoreHotRaw(_ line: Bytes) -> Bool {
        line.withUnsafeBytes { b in
            var sc = LineScanner(b: b)
            if sc.lit("{\"k\":\"swipes\",\"user\":") {
                guard let u = sc.string() else { return false }
                swipeTable[u] = nil
                rawSwipes[u] = line
                return true
            }
            guard sc.lit("{\"k\":\"member\",\"user\":"), let u = sc.string(), sc.lit(",\"name\":"), let name = sc.string(),
                  sc.lit(",\"timezone\":") else { return false }
            // Zones and sets of habits repeat across a pool: each is made once.
            let tzStart = sc.i
            guard sc.skipString() else { return false }
            let tz: String
            let tzKey = sc.hash(tzStart..<sc.i)
            if let z = restoreCache.zones[tzKey], sc.equals(tzStart..<sc.i, z.bytes) { tz = z.value } else {
                var zs = LineScanner(b: b, i: tzStart)
                guard let z = zs.string() else { return false }
                tz = z
                if restoreCache.zones.count < 256 { restoreCache.zones[tzKey] = (Array(UnsafeRawBufferPointer(rebasing: b[tzStart..<sc.i])), z) }
            }
            guard sc.lit(",\"habits\":") else { return false }
            let hStart = sc.i
            guard sc.skipStrings() else { return false }
            var habits: [Habitmatch.Habit]
            let hKey = sc.hash(hStart..<sc.i)
            if let h = restoreCache.habits[hKey], sc.equals(hStart..<sc.i, h.bytes) { habits = h.value } else {
                var hs = LineScanner(b: b, i: hStart)
                guard let ids = hs.strings() else { return false }
                habits = []
                for id in ids.prefix(Habitmatch.maxHabits) {
                    guard let n = HabitmatchState.catalogNames[id] else { return false }
                    habits.append(Habitmatch.Habit(id: id, name: n, remindAt: nil))
                }
                if restoreCache.habits.count < 1024 { restoreCache.habits[hKey] = (Array(UnsafeRawBufferPointer(rebasing: b[hStart..<sc.i])), habits) }
            }
            guard sc.lit(",\"joined\":"), let joined = sc.int(), sc.lit(",\"active\":"), let active = sc.int() else { return false }
            var email: String? = nil
            var bio = ""
            if sc.lit(",\"email\":") { guard let e = sc.string() else { return false }; email = e }
            if sc.lit(",\"bio\":") { guard let x = sc.string() else { return false }; bio = x }
            guard sc.lit("}"), sc.atEnd else { return false }
            members[u] = Habitmatch.Member(user: u, name: name, email: email, timezone: tz, bio: bio, habits: habits,
                                           joinedAt: Instant(ms: joined), lastActive: Instant(ms: active))
            return true
        }
    }

    /// A raw "swipes" line's swipes.
    static func parseSwipes(_ line: Bytes) -> [String: Bool] {
        let fast: [String: Bool]? = line.withUnsafeBytes { b in
            var sc = LineScanner(b: b)
            guard sc.lit("{\"k\":\"swipes\",\"user\":"), sc.string() != nil, sc.lit(",\"liked\":"), let liked = sc.strings(),
                  sc.lit(",\"passed\":"), let passed = sc.strings(), sc.lit("}"), sc.atEnd else { return nil }
            var s: [String: Bool] = [:]
            s.reserveCapacity(liked.count + passed.count)
            for t in liked { s[t] = true }
            for t in passed { s[t] = false }
            return s
        }
        if let f = fast { return f }
        var one = HabitmatchState(full: false)
        if let o = try? line.withUnsafeBytes({ (b) throws(JSONParseError) in try JSON.parseObject(b) }) { try? one.restoreHot(o) }
        return one.swipeTable.first?.value ?? [:]
    }
}

/// What a restore has made once and shares between lines: zones and sets
/// of habits, by their bytes in the line.
struct RestoreCache {
    var zones: [UInt64: (bytes: [UInt8], value: String)] = [:]
    var habits: [UInt64: (bytes: [UInt8], value: [Habitmatch.Habit])] = [:]
}

/// Reads one snapshot line of a known layout; every method returns nil or
/// false, moving nowhere useful, on anything else.
struct LineScanner {
    let b: UnsafeRawBufferPointer
    var i = 0

    var atEnd: Bool { i == b.count }

    /// Whether the bytes at `r` are `other`.
    func equals(_ r: Range<Int>, _ other: [UInt8]) -> Bool {
        r.count == other.count && other.withUnsafeBytes { memcmp(b.baseAddress! + r.lowerBound, $0.baseAddress!, r.count) == 0 }
    }

    /// FNV-1a of the bytes at `r`: a key to find them again by.
    func hash(_ r: Range<Int>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for k in r { h = (h ^ UInt64(b[k])) &* 0x100_0000_01b3 }
        return h
    }

    /// Past a string without escapes, making nothing.
    mutating func skipString() -> Bool {
        guard i < b.count, b[i] == 0x22 else { return false }
        var j = i + 1
        while j < b.count, b[j] != 0x22 {
            if b[j] == 0x5C || b[j] < 0x20 { return false }
            j += 1
        }
        guard j < b.count else { return false }
        i = j + 1
        return true
    }

    /// Past an array of strings without escapes.
    mutating func skipStrings() -> Bool {
        guard lit("[") else { return false }
        if lit("]") { return true }
        while true {
            guard skipString() else { return false }
            if lit("]") { return true }
            guard lit(",") else { return false }
        }
    }

    mutating func lit(_ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard i + n <= b.count, memcmp(b.baseAddress! + i, s.utf8Start, n) == 0 else { return false }
        i += n
        return true
    }

    /// A string without escapes.
    mutating func string() -> String? {
        guard i < b.count, b[i] == 0x22 else { return nil }
        var j = i + 1
        while j < b.count, b[j] != 0x22 {
            if b[j] == 0x5C || b[j] < 0x20 { return nil }
            j += 1
        }
        guard j < b.count else { return nil }
        let s = String(decoding: UnsafeRawBufferPointer(rebasing: b[(i + 1)..<j]), as: UTF8.self)
        i = j + 1
        return s
    }

    /// An array of strings without escapes.
    mutating func strings() -> [String]? {
        guard lit("[") else { return nil }
        var out: [String] = []
        if lit("]") { return out }
        while true {
            guard let s = string() else { return nil }
            out.append(s)
            if lit("]") { return out }
            guard lit(",") else { return nil }
        }
    }

    /// A non-negative integer of at most 18 digits.
    mutating func int() -> Int64? {
        var v: Int64 = 0
        var digits = 0
        while i < b.count, b[i] >= 0x30, b[i] <= 0x39, digits < 18 {
            v = v * 10 + Int64(b[i] - 0x30)
            i += 1
            digits += 1
        }
        return digits > 0 ? v : nil
    }
}
