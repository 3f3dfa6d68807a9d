// Who is offered to whom: candidates share a habit, and are ranked by how
// many, then by how close their timezone is, then by recent activity.
//
// Invariants: yourself, those you liked, matched or made buddies with are
// never offered; those you passed come round again only when nobody new is
// left; the order is total (ties end on the user name), so two runs over
// the same pool list the same candidates in the same order.

extension Habitmatch {
    /// The most zones a host-pool command loads ahead from its `zones` file.
    public static let zonesAheadLimit = 1000

    /// The `zones` file a host-pool member keeps: every member's zone, each
    /// once, sorted, one a line. It depends on the set of zones only, not on
    /// who has which or in what order they joined.
    public static func zonesFile(_ members: [String: Member]) -> String {
        Set(members.values.map(\.timezone)).sorted().map { $0 + "\n" }.joined()
    }

    /// The zones to load before a host-pool command folds anything, from
    /// its `zones` file: what the pool's members had at the last command, so
    /// which zone files it opens follows the profiles, not the swipes,
    /// chats or done days it folds. Blank lines and repeats are dropped,
    /// and at most `zonesAheadLimit` are taken.
    public static func zonesToLoad(fromFile text: String) -> [String] {
        var seen = Set<String>()
        return text.split(separator: "\n").map(String.init).filter { !$0.isEmpty && seen.insert($0).inserted }
            .prefix(zonesAheadLimit).map { $0 }
    }

    /// Minutes between two zones' offsets at `t`, the short way round the
    /// clock: smaller is easier to meet. An unknown zone counts as UTC.
    public static func zoneDistance(_ a: String, _ b: String, at t: Instant) -> Int {
        let za = ZoneCache.named(a) ?? .utc, zb = ZoneCache.named(b) ?? .utc
        let d = abs(za.offset(at: t) - zb.offset(at: t)) / 60
        return min(d, 24 * 60 - d)
    }

    public struct Candidate: Equatable, Sendable {
        public var member: Member
        public var shared: [String]
        public var zoneMinutes: Int
        public var passedBefore: Bool
    }

    /// Other members who share a habit, best first: most shared habits, then
    /// the closest timezone, then the most recently active. Yourself and
    /// anyone you liked, matched or buddied are left out. When nobody new is
    /// left, the ones you passed come round again.
    public static func candidates(for me: Member, in pool: [Member], liked: Set<String>, passed: Set<String>,
                                  matched: Set<String>, buddies: Set<String>, now: Instant,
                                  zoneMinutes: (String, String) -> Int) -> [Candidate] {
        let mine = me.habitIDs
        var fresh: [Candidate] = []
        var again: [Candidate] = []
        for m in pool where m.habits.contains(where: { mine.contains($0.id) }) && m.user != me.user && !liked.contains(m.user)
                && !matched.contains(m.user) && !buddies.contains(m.user) {
            let shared = m.habits.lazy.map(\.id).filter { mine.contains($0) }.sorted()
            let c = Candidate(member: m, shared: shared, zoneMinutes: zoneMinutes(me.timezone, m.timezone),
                              passedBefore: passed.contains(m.user))
            if c.passedBefore { again.append(c) } else { fresh.append(c) }
        }
        func better(_ a: Candidate, _ b: Candidate) -> Bool {
            if a.shared.count != b.shared.count { return a.shared.count > b.shared.count }
            if a.zoneMinutes != b.zoneMinutes { return a.zoneMinutes < b.zoneMinutes }
            if a.member.lastActive != b.member.lastActive { return a.member.lastActive > b.member.lastActive }
            return a.member.user < b.member.user
        }
        return fresh.isEmpty ? again.sorted(by: better) : fresh.sorted(by: better)
    }

    /// The candidates `me` is shown in the pool as folded: as `candidates`,
    /// and nobody who blocked them or whom they blocked, nobody they parted
    /// with. The distance to each timezone is worked out once.
    static func visibleCandidates(for me: Member, in s: HabitmatchState, now: Instant) -> [Candidate] {
        let u = me.user
        var cache: [String: Int] = [:]
        // Those sharing a habit first (a fraction of the pool), then the rest of the checks.
        let mine = me.habitIDs
        let pool = s.members.values.filter { m in
            m.habits.contains(where: { mine.contains($0.id) }) && !s.isBlocked(u, m.user)
                && (s.parted.isEmpty || !s.parted.contains(HabitmatchState.pair(u, m.user)))
        }
        return candidates(for: me, in: Array(pool), liked: s.liked(by: u), passed: s.passed(by: u),
                          matched: s.matches(of: u), buddies: s.buddies(of: u), now: now,
                          zoneMinutes: { a, b in
                              if let v = cache[b] { return v }
                              let v = zoneDistance(a, b, at: now)
                              cache[b] = v
                              return v
                          })
    }
}
