// The values the fold builds a pool of: members with their habits, and the
// reports members make about each other.
//
// Invariants: a member's `user` is the name of the journal they write
// (never a field an event claims); `lastActive` comes from batch stamps.

extension Habitmatch {
    /// A member's report about another, for the pool's owner.
    public struct Report: Equatable, Sendable {
        public var reporter: String
        public var user: String
        public var reason: String
        public var at: Instant
    }

    public struct Habit: Equatable, Sendable {
        public var id: String
        public var name: String
        public var remindAt: TimeOfDay?
    }

    public struct Member: Equatable, Sendable {
        public var user: String
        public var name: String
        public var email: String?
        public var timezone: String
        public var bio: String
        public var habits: [Habit]
        public var joinedAt: Instant
        public var lastActive: Instant

        public var habitIDs: Set<String> { Set(habits.map(\.id)) }
    }
}
