// Spans of time and the arithmetic the points engine and the fold do with
// them: union, difference and intersection, and keeping lists sorted and
// merged while spans go in and out.
//
// Invariants: a span is [start, end) in whole seconds; a "merged" list is
// sorted with no two spans overlapping or touching, and the functions that
// take one keep it so.

extension RewardsEngine {
    /// A span of time, [start, end) in seconds since the epoch.
    public struct Span: Equatable, Hashable, Sendable, Comparable {
        public var start: Int64
        public var end: Int64
        public init(_ start: Int64, _ end: Int64) {
            self.start = start
            self.end = end
        }
        public var seconds: Int64 { max(0, end - start) }
        public static func < (a: Span, b: Span) -> Bool { (a.start, a.end) < (b.start, b.end) }
    }

    /// Sorted, non-overlapping spans: the union of the input.
    public static func union(_ spans: [Span]) -> [Span] {
        var out: [Span] = []
        for s in spans.filter({ $0.seconds > 0 }).sorted() {
            if let last = out.last, s.start <= last.end {
                out[out.count - 1].end = max(last.end, s.end)
            } else {
                out.append(s)
            }
        }
        return out
    }

    /// `a` minus sorted, merged spans (binary search: cheap for long days).
    public static func subtractSorted(_ a: Span, _ b: [Span]) -> [Span] {
        var lo = 0, hi = b.count
        while lo < hi { let mid = (lo + hi) / 2; if b[mid].end <= a.start { lo = mid + 1 } else { hi = mid } }
        var out: [Span] = []
        var cur = a.start
        var i = lo
        while i < b.count && b[i].start < a.end {
            if b[i].start > cur { out.append(Span(cur, b[i].start)) }
            cur = max(cur, b[i].end)
            i += 1
        }
        if cur < a.end { out.append(Span(cur, a.end)) }
        return out
    }

    /// The parts of `a` inside sorted, merged spans `b` (binary search).
    public static func intersectSorted(_ a: Span, _ b: [Span]) -> [Span] {
        var lo = 0, hi = b.count
        while lo < hi { let mid = (lo + hi) / 2; if b[mid].end <= a.start { lo = mid + 1 } else { hi = mid } }
        var out: [Span] = []
        var i = lo
        while i < b.count && b[i].start < a.end {
            let x = Span(max(a.start, b[i].start), min(a.end, b[i].end))
            if x.seconds > 0 { out.append(x) }
            i += 1
        }
        return out
    }

    /// Inserts a span into sorted, merged spans, keeping them so. Appending
    /// at the end (sessions arrive in order) moves nothing.
    public static func insertMerged(_ spans: inout [Span], _ x: Span) {
        guard x.seconds > 0 else { return }
        if let last = spans.last, last.end < x.start { spans.append(x); return }
        if spans.isEmpty { spans.append(x); return }
        var lo = 0, hi = spans.count
        while lo < hi { let mid = (lo + hi) / 2; if spans[mid].end < x.start { lo = mid + 1 } else { hi = mid } }
        var merged = x
        var j = lo
        while j < spans.count && spans[j].start <= merged.end {
            merged = Span(min(merged.start, spans[j].start), max(merged.end, spans[j].end))
            j += 1
        }
        if j == lo + 1 { spans[lo] = merged; return }
        if j == lo { spans.insert(merged, at: lo); return }
        spans[lo] = merged
        spans.removeSubrange((lo + 1)..<j)
    }

    /// Takes a span out of sorted, merged spans, keeping them so.
    public static func removeMerged(_ spans: inout [Span], _ x: Span) {
        guard x.seconds > 0 else { return }
        var lo = 0, hi = spans.count
        while lo < hi { let mid = (lo + hi) / 2; if spans[mid].end <= x.start { lo = mid + 1 } else { hi = mid } }
        var j = lo
        var keep: [Span] = []
        while j < spans.count && spans[j].start < x.end {
            if spans[j].start < x.start { keep.append(Span(spans[j].start, x.start)) }
            if spans[j].end > x.end { keep.append(Span(x.end, spans[j].end)) }
            j += 1
        }
        if j > lo || !keep.isEmpty { spans.replaceSubrange(lo..<j, with: keep) }
    }

    /// Merges `more` (sorted by start) into `spans` (sorted by start), keeping
    /// both orders' duplicates: the list of sessions a day has seen.
    public static func mergeSorted(_ spans: inout [Span], _ more: [Span]) {
        if more.isEmpty { return }
        if spans.last.map({ $0 <= more[0] }) ?? true { spans += more; return }
        var out: [Span] = []
        out.reserveCapacity(spans.count + more.count)
        var i = 0, j = 0
        while i < spans.count && j < more.count {
            if more[j] < spans[i] { out.append(more[j]); j += 1 } else { out.append(spans[i]); i += 1 }
        }
        out += spans[i...]
        out += more[j...]
        spans = out
    }

    /// Whether sorted `spans` hold exactly `x` (binary search).
    public static func containsSorted(_ spans: [Span], _ x: Span) -> Bool {
        var lo = 0, hi = spans.count
        while lo < hi { let mid = (lo + hi) / 2; if spans[mid] < x { lo = mid + 1 } else { hi = mid } }
        return lo < spans.count && spans[lo] == x
    }

    /// `a` minus every span in `b` (both may be unsorted).
    public static func subtract(_ a: Span, _ b: [Span]) -> [Span] {
        var parts = [a]
        for cut in union(b) {
            var next: [Span] = []
            for p in parts {
                if cut.end <= p.start || cut.start >= p.end { next.append(p); continue }
                if cut.start > p.start { next.append(Span(p.start, cut.start)) }
                if cut.end < p.end { next.append(Span(cut.end, p.end)) }
            }
            parts = next
        }
        return parts.filter { $0.seconds > 0 }
    }
}
