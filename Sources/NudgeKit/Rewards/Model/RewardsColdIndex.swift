// The snapshot's cold lines read by offset. The hot part (checked by the
// store on every read) ends with an index of the cold part: per child, each
// day's line, where it is and its checksum, then a line saying the cold part
// is indexed and how long it is:
//
//   {"k":"cold_index","child":ID,"v":[DAY,GAP,LENGTH,"SUM",…]}
//       DAY: days since 1970-01-01 for the first line, then the distance
//       from the previous one; GAP: the line's offset in the cold lines for
//       the first, then its distance from the end of the previous one (with
//       its newline), 0 when they follow each other; SUM: Checksum.wide of
//       the line's bytes (without the newline), 16 hex digits
//   {"k":"cold_indexed","bytes":N}
//       the cold lines (what `writeColdSnapshot` wrote) are N bytes
//
// A read without the cold part is handed the cold lines unread
// (`restoreColdSource`); folding a usage fact then reads the days it
// touches (`loadCold`): a line is believed only once its bytes match the
// checksum the index holds for it, and a day the index does not list has
// no cold line. The index is parsed per child, when first needed.
//
// Invariants: the state after `loadCold` for the days a fold touches is,
// for that fold, the state a full read gives (same lines, same bytes). When
// anything does not hold (no index, a line that fails its checksum, an
// index that cannot be read, a usage event of an older schema folded
// without the cold part), `loadCold` says no and the reader reads in full,
// where the store checks the whole cold part: a flipped byte is never
// served as fact.

extension RewardsState {
    /// What a read without the cold part knows of it.
    struct ColdLines {
        /// The cold lines as the store handed them (unchecked), then {"type":"end"}.
        var source: Bytes? = nil
        /// The length of the cold lines, from the hot part: the part is indexed.
        var indexedBytes: Int? = nil
        /// Per child, the index line as the snapshot holds it (parsed when needed).
        var raw: [String: Bytes] = [:]
        /// Per child, parsed: each day's line, in order of day.
        var parsed: [String: [ColdEntry]] = [:]
        /// Set when the index cannot be believed for a day, or at all (a line
        /// of it that cannot be read; an older usage event folded without the
        /// cold part): every `loadCold` says no.
        var unusable = false
    }

    /// Where a day's cold line is: days since 1970-01-01, its offset and
    /// length in the cold lines, and its checksum.
    struct ColdEntry { var day: Int; var offset: Int; var length: Int; var sum: UInt64 }

    static let coldEnd = Array("{\"type\":\"end\"}\n".utf8)

    /// The hot lines, and the index of `cold` (the cold lines as
    /// `writeColdSnapshot` wrote them). A cold line not in the usage layout
    /// leaves the part unindexed: readers then read in full.
    public func hotSnapshot(cold: UnsafeRawBufferPointer) -> [JSONObject] {
        hotSnapshot() + RewardsState.coldIndex(cold)
    }

    static func coldIndex(_ cold: UnsafeRawBufferPointer) -> [JSONObject] {
        var children: [String] = []
        var lists: [(values: [JSON], day: Int, end: Int)] = []
        var which: [String: Int] = [:]
        var at = 0
        var inDays = false
        while at < cold.count {
            guard let base = cold.baseAddress, let nl = memchr(base + at, 0x0A, cold.count - at) else { return [] }
            let end = base.distance(to: UnsafeRawPointer(nl))
            let line = UnsafeRawBufferPointer(rebasing: cold[at..<end])
            // The days before the hot window follow the usage lines: only a
            // full read reads them.
            if inDays || dayLine(line) != nil {
                guard dayLine(line) != nil else { return [] }
                inDays = true
                at = end + 1
                continue
            }
            guard let (child, day) = usageKey(line) else { return [] }
            let sum = Checksum.wide(line)
            let d = day.daysSinceEpoch
            let k = which[child] ?? {
                children.append(child)
                lists.append(([], 0, 0))
                which[child] = lists.count - 1
                return lists.count - 1
            }()
            let first = lists[k].values.isEmpty
            lists[k].values += [.int(Int64(first ? d : d - lists[k].day)), .int(Int64(first ? at : at - lists[k].end)), .int(Int64(end - at)),
                                .string(Checksum.hex(sum))]
            lists[k].day = d
            lists[k].end = end + 1
            at = end + 1
        }
        var out: [JSONObject] = []
        for (c, l) in zip(children, lists) { out.append(["k": "cold_index", "child": .string(c), "v": .array(l.values)]) }
        out.append(["k": "cold_indexed", "bytes": .int(Int64(cold.count))])
        return out
    }

    /// The child and day of a cold line in the usage layout
    /// ({"k":"usage","child":ID,"day":"YYYY-MM-DD",…}), read in place.
    static func usageKey(_ line: UnsafeRawBufferPointer) -> (child: String, day: Day)? {
        var l = FixedLine(line)
        guard l.expect("{\"k\":\"usage\",\"child\":\""), let id = l.plainString(), l.expect(",\"day\":\""), let d = l.day(), l.expect("\"") else {
            return nil
        }
        return (String(decoding: UnsafeRawBufferPointer(rebasing: line[id]), as: UTF8.self), d)
    }

    /// The index's lines, kept as they are (true), or nil when `line` is
    /// not one of them.
    mutating func restoreColdIndexRaw(_ line: Bytes) -> Bool? {
        line.withUnsafeBytes { (b: UnsafeRawBufferPointer) -> Bool? in
            var l = FixedLine(b)
            guard l.expect("{\"k\":\"cold_index") else { return nil }
            if l.expect("\",\"child\":\"") {
                guard let id = l.plainString() else { return false }
                if !full { cold.raw[String(decoding: UnsafeRawBufferPointer(rebasing: b[id]), as: UTF8.self)] = line }
                return true
            }
            guard l.expect("ed\",\"bytes\":"), let n = l.int(), n >= 0, l.expect("}"), l.atEnd else { return false }
            cold.indexedBytes = Int(n)
            return true
        }
    }

    /// The index's lines read as JSON (a line the raw reader did not take):
    /// not believed, so the cold part is read in full when needed.
    mutating func restoreColdIndex(_ l: JSONObject) {
        cold.unusable = true
    }

    public mutating func restoreColdSource(_ lines: Bytes) {
        guard !full else { return }
        cold.source = lines
    }

    /// Makes the cold part of a child's day known to a state read without
    /// it: its line, read by the index and checked against its checksum (no
    /// line: the day has none). True when the state knows it (always in a
    /// full read); false when it cannot (then the reader reads in full).
    public mutating func loadCold(_ c: String, _ d: Day) -> Bool {
        if full { return true }
        if cold.unusable { return false }
        if usage[c]?[d] != nil || rawUsage[c]?[d] != nil { return true }
        guard let lines = cold.source, let n = cold.indexedBytes, lines.count == n + RewardsState.coldEnd.count else { return false }
        if cold.parsed[c] == nil {
            guard let raw = cold.raw[c] else { return true }  // no line for this child
            guard let p = raw.withUnsafeBytes({ RewardsState.parseColdIndex($0, limit: n) }) else {
                cold.unusable = true
                return false
            }
            cold.parsed[c] = p
        }
        // The entries are in order of day.
        let list = cold.parsed[c]!
        let want = d.daysSinceEpoch
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid].day < want { lo = mid + 1 } else { hi = mid }
        }
        guard lo < list.count, list[lo].day == want else { return true }  // the day has no line
        let e = list[lo]
        let line = lines[(lines.startIndex + e.offset)..<(lines.startIndex + e.offset + e.length)]
        let ok = line.withUnsafeBytes { b in Checksum.wide(b) == e.sum && RewardsState.usageKey(b).map { $0.child == c && $0.day == d } ?? false }
        guard ok else {
            cold.unusable = true
            return false
        }
        rawUsage[c, default: [:]][d] = line
        return true
    }

    /// One child's index line: each day's line, in order of day, within
    /// `limit` bytes; nil for anything malformed.
    static func parseColdIndex(_ b: UnsafeRawBufferPointer, limit: Int) -> [ColdEntry]? {
        var l = FixedLine(b)
        guard l.expect("{\"k\":\"cold_index\",\"child\":\""), l.plainString() != nil, l.expect(",\"v\":[") else { return nil }
        var out: [ColdEntry] = []
        var day = 0, end = 0
        if !l.expect("]") {
            while true {
                guard let dd = l.int(), l.expect(","), let gap = l.int(), l.expect(","), let len = l.int(), l.expect(","), let sum = l.hex64(),
                      out.isEmpty || dd > 0, dd < 1_000_000, dd > -1_000_000, gap >= 0, len > 0, gap <= limit, len <= limit else { return nil }
                day = out.isEmpty ? Int(dd) : day + Int(dd)
                let offset = end + Int(gap)
                guard offset + Int(len) <= limit else { return nil }
                out.append(ColdEntry(day: day, offset: offset, length: Int(len), sum: sum))
                end = offset + Int(len) + 1
                if l.expect("]") { break }
                guard l.expect(",") else { return nil }
            }
        }
        guard l.expect("}"), l.atEnd else { return nil }
        return out
    }

    /// Folding a usage event of an older schema without the cold part
    /// leaves the cold lines behind what the fold knows: none is believed
    /// after it.
    mutating func coldLeftBehind() {
        if !full { cold.unusable = true }
    }
}
