// Causal order across actors, and the merge rules built on it.
//
// Every committed batch carries a hybrid logical clock stamp: wall-clock
// milliseconds, a counter, and the actor (the journal's name). A writer's
// stamp is greater than every stamp it has folded, so "happened after, as far
// as this writer knew" is always "greater"; concurrent batches are ordered by
// wall time, then counter, then actor name — arbitrary but the same on every
// copy. The store folds batches in stamp order, never in file or directory
// order, so any two copies holding the same journals reach the same state.
//
// The merge pieces below are the conflict policies a model declares instead
// of hand-writing them. Each is order-independent by itself (its result
// depends on stamps, not on the order of calls) and idempotent (applying the
// same event twice changes nothing), so they stay right even where a model
// folds a subset or replays a batch.

/// A hybrid logical clock stamp. Ordered by (ms, counter, actor).
public struct Stamp: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var ms: Int64
    public var counter: Int64
    public var actor: String

    public init(ms: Int64, counter: Int64 = 0, actor: String) {
        self.ms = ms
        self.counter = counter
        self.actor = actor
    }

    public static func < (a: Stamp, b: Stamp) -> Bool {
        if a.ms != b.ms { return a.ms < b.ms }
        if a.counter != b.counter { return a.counter < b.counter }
        return a.actor < b.actor
    }

    /// `[ms, counter]`, as commit lines carry it.
    public var clockJSON: JSON { .array([.int(ms), .int(counter)]) }

    public var description: String { "\(ms).\(counter)@\(actor)" }

    /// The stamp for a new batch by `actor` at wall time `now`, greater than
    /// `seen` (the greatest stamp the writer has folded).
    public static func next(after seen: Stamp?, now: Int64, actor: String) -> Stamp {
        guard let s = seen, s.ms >= now else { return Stamp(ms: now, counter: 0, actor: actor) }
        // Same clock as the greatest seen: the counter breaks the tie, and
        // must also beat `seen` when the actor name sorts lower.
        return Stamp(ms: s.ms, counter: s.counter + 1, actor: actor)
    }

    /// The largest counter a commit line may declare: far above what any
    /// writer reaches (one a batch within one millisecond of clock), far
    /// below where adding to it could overflow.
    public static let maxCounter: Int64 = 1 << 40

    /// Parses `[ms, counter]` from a commit line; nil for a clock before
    /// 1970 or from the year 10000 on, or a counter past `maxCounter` (a
    /// forged line: the line reads as one with no clock).
    public static func clock(_ j: JSON?, actor: String) -> Stamp? {
        guard let a = j?.array, a.count == 2, let ms = a[0].int, let c = a[1].int, c >= 0, c <= maxCounter,
              ms >= 0, ms < Clock.latest.ms else { return nil }
        return Stamp(ms: ms, counter: c, actor: actor)
    }
}

/// Last-writer-wins register: the value of the greatest stamp. Within one
/// batch (equal stamps) the later call wins, as the fold applies in order.
public struct LWW<Value: Sendable>: Sendable {
    public private(set) var value: Value?
    public private(set) var stamp: Stamp?
    public init() {}
    public init(_ value: Value, at stamp: Stamp) {
        self.value = value
        self.stamp = stamp
    }
    /// Sets `v` if `s` is not older than the current stamp; returns whether it did.
    @discardableResult
    public mutating func set(_ v: Value?, at s: Stamp) -> Bool {
        if let cur = stamp, s < cur { return false }
        value = v
        stamp = s
        return true
    }
}

/// A record merged field by field: each field is its own LWW register, so
/// two actors editing different fields both keep their edit.
public struct FieldLWW: Sendable {
    public private(set) var fields: [String: (value: JSON, stamp: Stamp)] = [:]
    public init() {}
    public mutating func set(_ key: String, _ value: JSON, at s: Stamp) {
        if let cur = fields[key], s < cur.stamp { return }
        fields[key] = (value, s)
    }
    /// Sets every field present in `patch`.
    public mutating func merge(_ patch: JSONObject, at s: Stamp) {
        for f in patch.fields { set(f.key, f.value, at: s) }
    }
    public subscript(key: String) -> JSON? { fields[key]?.value }
}

/// Add-wins set with tombstones: an element is present when its latest add
/// is not older than its latest remove. A remove only removes what its actor
/// had seen; a concurrent add survives.
public struct AddWinsSet<Element: Hashable & Sendable>: Sendable {
    public private(set) var adds: [Element: Stamp] = [:]
    public private(set) var removes: [Element: Stamp] = [:]
    public init() {}
    public mutating func add(_ e: Element, at s: Stamp) {
        if let cur = adds[e], cur > s { return }
        adds[e] = s
    }
    public mutating func remove(_ e: Element, at s: Stamp) {
        if let cur = removes[e], cur > s { return }
        removes[e] = s
    }
    public func contains(_ e: Element) -> Bool {
        guard let a = adds[e] else { return false }
        guard let r = removes[e] else { return true }
        return a >= r
    }
    public var elements: [Element] { adds.keys.filter { contains($0) } }
}

/// Adjustments summed once each, keyed by the event's id: applying the same
/// event twice (an import fed again, a batch seen through two copies) counts
/// it once. A grow-only counter is the special case of non-negative deltas.
public struct SummedAdjustments: Sendable {
    public private(set) var total: Int64 = 0
    public private(set) var seen: Set<String> = []
    public init() {}
    @discardableResult
    public mutating func add(_ delta: Int64, id: String) -> Bool {
        guard seen.insert(id).inserted else { return false }
        total += delta
        return true
    }
}

/// "First valid claim wins": of all claims on a key (a one-time code, a
/// notification to send), the one with the smallest stamp holds it, whatever
/// order the claims are seen in.
public struct FirstClaim<Key: Hashable & Sendable, Claimant: Sendable>: Sendable {
    public private(set) var holders: [Key: (claimant: Claimant, stamp: Stamp)] = [:]
    public init() {}
    /// Records a claim; returns whether it now holds the key.
    @discardableResult
    public mutating func claim(_ key: Key, by c: Claimant, at s: Stamp) -> Bool {
        if let cur = holders[key], cur.stamp <= s { return false }
        holders[key] = (c, s)
        return true
    }
    public func holder(of key: Key) -> Claimant? { holders[key]?.claimant }
}
