// A small seeded random generator (SplitMix64): reproducible draws for
// `--seed` options and for the property tests' generators.

public struct SeededRandom: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A hash that never changes between runs, versions or machines (FNV-1a,
/// 64 bits), for what is stored or shared: a recipient's daily seed, an
/// own habit's id, a folder's key. Not for secrets. Changing it changes
/// stored data.
public enum StableHash {
    public static func fnv1a(_ s: String) -> UInt64 { fnv1a(bytes: s.utf8) }

    /// The same of bytes (a string's UTF-8: the same hash).
    @inlinable public static func fnv1a<S: Sequence>(bytes: S) -> UInt64 where S.Element == UInt8 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }
}
