// rewards' state: the family (its owner, parents, children and removed
// children), the apps and their categories, the settings (the family's and
// each child's), and per child the days, balance, badges, flags, grants and
// requests, as the family's journals leave them. The events and the fold
// are in RewardsEvents.swift, the snapshot in RewardsSnapshot.swift, what
// is kept per day in RewardsDays.swift.
//
// Invariants: only the fold (`apply`) and the snapshot's restore set the
// properties (`internal(set)` so that those can live in their own files);
// the rest of the tool reads them. The cold part (`usage`) is there in a
// full read, and a day of it stays the snapshot's line (`rawUsage`) until a
// command touches that day (`materialize`). A read without it loads, by
// the hot part's index, the days a usage fact touches (`loadCold`), or says
// that it needs the whole (`needsFull`; RewardsFacts.swift).

public struct RewardsState: JournalModel {
    public static let schemaVersion = 6

    public struct Child: Equatable, Sendable { public var id: String; public var name: String; public var login: String? }
    public struct App: Equatable, Sendable {
        public var name: String; public var category: RewardsEngine.Category; public var pointsPerHour: Int?
        /// Process-name patterns that are this app running (for `enforce`),
        /// and the names ActivityWatch reports for its window.
        public var processes: [String] = []
        /// Window-title patterns that are this app (a game in a browser, or
        /// one of several apps one process runs: `java`): for ActivityWatch.
        public var titles: [String] = []
        /// Web sites that are this app (`app set --site`): each matches its
        /// host and the hosts under it.
        public var sites: [String] = []
    }
    public struct Flag: Equatable, Sendable {
        public var id: String; public var child: String; public var app: String
        public var span: RewardsEngine.Span; public var reason: String; public var status: String
        /// The away spans inside the session, as ingest saw them: approval
        /// counts what ingest would have counted.
        public var afk: [RewardsEngine.Span] = []
        /// The day its facts were recorded under (nil: flagged before days were kept).
        public var day: Day? = nil
    }
    public struct Grant: Equatable, Sendable {
        public var id: String; public var child: String; public var minutes: Int; public var points: Int
        public var app: String?; public var day: Day
        /// Why the grant does not count (a redemption that lost a race), if so.
        public var void: String? = nil
        /// The conflict that said it was reversed, while it is void: a hand-
        /// over that makes it stand after all takes that word back.
        public var voidNote: String? = nil
        /// Points it could not take: handed over when, as merged, the
        /// balance held less (see Model/RewardsGrantFold.swift).
        public var short = 0
        /// Its place among the grants in stamp order.
        public var seq = 0
        /// Hand-overs to the grant command that failed or ran past its timeout.
        public var failures = 0
        /// Its way to the grant command: the run handing it over and until
        /// when; delivered is applied.
        public var handover = Handover()

        public var applied: Bool { handover.state == .delivered }
        /// Whether a run has claimed it for the grant command: no later
        /// batch voids it then.
        public var handedOver: Bool { handover.state != .pending }

        /// Whether a run may hand it over at `now`: not applied, not void,
        /// no other run's claim alive, and tried fewer than `Rewards.grantTries`
        /// times. A grant whose command ran past its timeout is tried again,
        /// like a failed one.
        public func mayHandOver(at now: Instant) -> Bool {
            void == nil && failures < Rewards.grantTries && handover.mayClaim(at: now, retryUnknown: true)
        }
    }
    public struct Invite: Equatable, Sendable {
        public var hash: String; public var by: String; public var expires: Int64; public var usedBy: String?
    }
    public struct Request: Equatable, Sendable {
        public var id: String; public var from: String; public var kind: String
        public var minutes: Int?; public var app: String?; public var note: String?
        public var at: Int64; public var day: Day
        /// pending, granted, refused, approved, denied, joined
        public var status: String; public var reason: String?
        /// The order requests were taken in.
        public var seq: Int = 0
        /// Its spool file's ctime (ns) when taken: a file under its name that
        /// changed since is another request (nil: taken before this was kept).
        public var fileChanged: Int64? = nil
    }
    /// A change by a parent, for the other parent's notifications.
    public struct Change: Equatable, Sendable {
        public var id: String; public var by: String; public var ms: Int64; public var text: String
    }

    public internal(set) var owner: String?
    public internal(set) var parents: Set<String> = []
    /// In a family folder, the login owning it (the host's word, folded
    /// before any journal): only they make the family.
    public internal(set) var folderOwner: String?
    /// Whether the journals are in a sync folder devices share (the host's
    /// word, folded before any journal).
    public internal(set) var syncFolder = false
    /// Parents removed (and not let in again).
    public internal(set) var formerParents: Set<String> = []
    /// Per parent, the stamp of their last batch folded: removing them cuts
    /// what they wrote after it.
    var lastSeen: [String: Stamp] = [:]
    public internal(set) var children: [String: Child] = [:]
    /// Children removed and not purged: their history is kept, and
    /// `child rm --purge` can still name them.
    public internal(set) var removed: [String: Child] = [:]
    public internal(set) var apps: [String: App] = [:]
    public internal(set) var settings = RewardsEngine.Settings()
    public internal(set) var childSettings: [String: [String: Int]] = [:]
    public internal(set) var days = DayTable()
    public internal(set) var balance: [String: Int] = [:]
    public internal(set) var earned: [String: Int] = [:]
    public internal(set) var recent: [String: [SessionLine]] = [:]
    public internal(set) var flags: [String: Flag] = [:]
    public internal(set) var grants: [String: Grant] = [:]
    var grantSeq = 0
    /// Where devices share a sync folder, the device that hands grants to
    /// the grant command: the one a parent named (`grant_device`), else
    /// the one that made the family.
    public internal(set) var grantDevice: String?
    public internal(set) var familyDevice: String?
    public var granter: String? { grantDevice ?? familyDevice }
    /// The last stamp (ms) of anything the granting device wrote, or of its
    /// naming: how long it has been silent.
    public internal(set) var granterSeen: Int64 = 0
    public internal(set) var badges: [String: Set<String>] = [:]
    public internal(set) var notified: Set<String> = []
    /// How far each aw-server's events were taken for a child, by
    /// "CHILD|DEVICE" (the latest read stands).
    public internal(set) var awTaken: [String: ActivityWatch.Taken] = [:]
    public internal(set) var invites: [String: Invite] = [:]
    public internal(set) var requests: [String: Request] = [:]
    var requestSeq = 0
    /// Auto-resolved conflicts and changes by parents (the last 200 each).
    public internal(set) var conflicts: [Change] = []
    /// Conflicts a later fold took back (a reversal whose grant stood after
    /// all): neither told nor logged.
    public internal(set) var superseded: Set<String> = []
    public internal(set) var changes: [Change] = []
    /// Events that did not count, per author, with the last reason.
    public internal(set) var refused: [String: (count: Int, why: String)] = [:]
    /// Cold: per child and day, parsed when first needed; until then, the
    /// snapshot's line as it is.
    public internal(set) var usage: [String: [Day: UsageDay]] = [:]
    var rawUsage: [String: [Day: Bytes]] = [:]
    /// Read without the cold part: the snapshot's cold lines, and the hot
    /// part's index of them, from which the days a fold touches are read
    /// and checked (`loadCold`, RewardsColdIndex.swift).
    var cold = ColdLines()
    let full: Bool
    /// What the last usage fact or approval folded came to (for the command
    /// that recorded it); not kept.
    public internal(set) var lastFold: FoldedDay? = nil
    /// Set when a read without the cold part met a usage fact it could not
    /// fold.
    var foldNeedsFull = false
    /// In a read without the cold part, what it knows of the days before
    /// the snapshot's hot window (RewardsOldDays.swift); nil in a full read.
    public internal(set) var oldDays: OldDays? = nil
    /// A read without the cold part cannot answer: a fact it could not fold
    /// (a usage fact, a change to a day before the hot window), or a goal
    /// the old days' summary was not made for. The reader must read in full
    /// (`Rewards.current`).
    public internal(set) var needsFull: Bool {
        get { foldNeedsFull || days.missedCold || oldDaysStale }
        set { foldNeedsFull = newValue }
    }

    public init(full: Bool) { self.full = full }

    /// A child's rules: the family's, with the child's own on top. `notify`
    /// is the exception: the family's is the parents' own, so a child's is
    /// on unless set for that child.
    public func settings(for child: String) -> RewardsEngine.Settings {
        var s = settings
        s.notify = 1
        let own = childSettings[child] ?? [:]
        // A child's own every-day downtime or cap stands over the family's
        // weekday ones (the child's own weekday ones over it in turn).
        if own["downtime"] != nil { s.downtimeByDay = [Int](repeating: -1, count: 7) }
        if own["daily_reward_limit_minutes"] != nil { s.rewardLimitByDay = [Int](repeating: -1, count: 7) }
        for (k, v) in own { s.put(k, v) }
        return s
    }

    public func totals(_ child: String, _ d: Day) -> DayTotals { days.totals(child, d) ?? DayTotals() }

    public func grantedThisWeek(_ child: String, _ d: Day) -> Int {
        let monday = d.adding(days: -((d.weekday + 6) % 7))
        return (0..<7).reduce(0) { $0 + totals(child, monday.adding(days: $1)).grantedMinutes }
    }

    /// A child's day's cold part (empty unless the state was read in full
    /// or the day was loaded: `loadCold`).
    public func usageDay(_ child: String, _ d: Day) -> UsageDay {
        if let u = usage[child]?[d] { return u }
        if let raw = rawUsage[child]?[d] { return RewardsState.parseUsageLine(raw) ?? UsageDay() }
        return UsageDay()
    }

    /// Every day with a cold part, for one child.
    public func usageDays(_ child: String) -> [Day] {
        Set((usage[child] ?? [:]).keys).union((rawUsage[child] ?? [:]).keys).sorted()
    }

    /// Parses a day kept raw, so that it can be changed.
    mutating func materialize(_ child: String, _ d: Day) {
        guard let raw = rawUsage[child]?[d] else { return }
        rawUsage[child]![d] = nil
        usage[child, default: [:]][d] = RewardsState.parseUsageLine(raw) ?? UsageDay()
    }

    static func parseUsageLine(_ raw: Bytes) -> UsageDay? {
        guard let o = try? raw.withUnsafeBytes({ (b) throws(JSONParseError) in try JSON.parseObject(b) }) else { return nil }
        var u = UsageDay()
        u.merge(o)
        return u
    }

    /// The engine's view of a child's day, to evaluate more sessions.
    public func ledger(_ child: String, _ d: Day) -> RewardsEngine.DayLedger {
        var l = RewardsEngine.DayLedger()
        let t = totals(child, d)
        let u = usageDay(child, d)
        l.counted = u.learned
        l.rewarded = u.rewarded
        l.units = t.carry
        l.points = t.points
        l.learningSeconds = t.learningSeconds
        l.rewardSeconds = t.rewardSeconds
        l.rated = u.rated
        l.total = t.units
        return l
    }

    public func child(named n: String) -> Child? {
        children[n] ?? children.values.first { $0.name.lowercased() == n.trimmingSpaces.lowercased() }
    }

    /// A removed (not purged) child, by id or name.
    public func removedChild(named n: String) -> Child? {
        removed[n] ?? removed.values.sorted { $0.id < $1.id }.first { $0.name.lowercased() == n.trimmingSpaces.lowercased() }
    }

    /// Who the caller is: a parent, one child, or nobody in this family.
    public enum Role: Equatable, Sendable { case parent, child(String), stranger }
    public func role(of login: String) -> Role {
        if parents.contains(login) { return .parent }
        if let c = children.values.first(where: { $0.login == login }) { return .child(c.id) }
        return .stranger
    }

    /// Whether `login` is a parent here.
    public func isParent(_ login: String) -> Bool { parents.contains(login) }

    /// Normalises an invite code as typed: letters upper-cased, dashes and
    /// spaces dropped.
    public static func normalizeCode(_ code: String) -> String {
        String(code.uppercased().unicodeScalars.filter { $0 != "-" && $0 != " " }.map(Character.init))
    }

    public static func codeHash(_ code: String) -> String {
        let n = Array(("rewards-invite|" + normalizeCode(code)).utf8)
        return Checksum.hex(Checksum.hash(n))
    }

    /// Whether `who` may join as a parent with `code` at `ms`, and why not.
    public func joinProblem(code: String, who: String, ms: Int64, zone: Zone) -> String? {
        let shown = RewardsState.normalizeCode(code)
        if parents.contains(who) { return "\(who) is a parent of this family already" }
        if children.values.contains(where: { $0.login == who }) || removed.values.contains(where: { $0.login == who }) {
            return "\(who) is a child's login, and a child cannot join as a parent"
        }
        guard let inv = invites[RewardsState.codeHash(code)] else {
            return "no invite has the code \(shown); check it, or ask the family's owner for a new one ('rewards parent invite')"
        }
        if let u = inv.usedBy { return "the code \(shown) was used already (by \(u)); ask the family's owner for a new one" }
        if ms > inv.expires { return "the code \(shown) expired at \(zone.format(Instant(ms: inv.expires))); ask the family's owner for a new one" }
        if parents.count >= 2 { return "this family has two parents already, the most it may have" }
        return nil
    }
}
