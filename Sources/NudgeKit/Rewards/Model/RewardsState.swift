// rewards' family state as a fold over its journal. Every event carries
// "by": the login that made the change (the activity log of Epic 6 to come).
//
//   family_created {owner}  child_added {id,name,login}  child_removed {id}
//   app_set {name,category,points_per_hour,sites?}  app_removed {name}
//   setting_set {key,value,child?}
//   usage_day {child,day,learning_s,reward_s,points,carry,units?,recent,learned,rewarded,sessions,apps,
//              learned_rates?,unlearned?}
//       what one ingest added to one child's day: totals, the last sessions,
//       and the cold part (time newly counted, sessions seen, per-app totals);
//       units: the day's learning units before the cap (like carry, the
//       latest value stands); learned_rates: the learning time newly counted
//       per points-per-hour rate; unlearned: learning time taken back because
//       reward-app time turned up over it (learning_s and points are then
//       negative on the reward app's line)
//   usage {child,day,app,start,end,category,reason,learning_s,reward_s,points,carry,counted,key}
//       one session (written by schema 1; still read)
//   flag {id,child,app,start,end,reason,day,afk?}  flag_decided {id,decision}
//       afk: the away spans inside the held session (SpanCodec), for approval
//   grant {id,child,minutes,points,app,day}  grant_applied {id}
//   grant_claimed {id,claim,until}  grant_failed {id,claim,error,outcome?}
//       a run's claim on a grant (until: ms) before it runs the grant
//       command, and the command's failure; outcome "unknown" when it ran
//       past its timeout (older events have none: failed). The lifecycle is
//       Core/Delivery.swift's `Handover`: the first live claim in stamp order
//       holds the grant; a failed or unknown grant is tried again.
//   adjust {child,points,reason,day}  badge {child,badge,day}  notified {key}
//   erase {salt,digests}
//       a tombstone (`child rm --purge`): the store skips every earlier event
//       that names one of the digested values (a child's id, login, flags and
//       grants; see Erasure.swift) on every copy, and each copy removes them
//       from the journals it writes. It holds digests only, so nothing in it
//       names the child.
//
// Spans in usage_day and the snapshot are flat arrays of whole seconds:
// [start, length, distance to the next start, length, …] (see SpanCodec).
//
// Who may do what is decided here, in the fold, for every copy alike: an
// event counts only when its author may make it at that point in stamp
// order. The author is the journal's owner where the file system proves it
// (a family folder: the store tags each event with its "actor"), else the
// event's "by" (a store private to one login, or one person's sync folder).
//
//   invite {hash,expires}                   the owner's one-time code (its hash)
//   parent_join {code}                      a second parent, with the code
//   parent_removed {login}                  by the owner
//   request {id,from,kind,minutes?,app?,note?,code?,at,day}
//       a child's (or a would-be parent's) request from the family folder's
//       spool, recorded by a parent's run; `from` is the login that owns the
//       request file. kind: redeem (granted here if the balance allows at
//       this point in stamp order), more_time (waits for a parent), join.
//   request_decided {id,decision,minutes?}  a parent approves or denies more_time
//
// Merging two parents' changes: app categories and settings are last writer
// wins per field (stamp order); adjustments and redemptions add up, but a
// balance never goes below zero: a grant it cannot pay is void and a
// negative adjustment takes only what is there. Each such resolution is a
// conflict, told to the parents and kept in the log.

public struct RewardsState: JournalModel {
    public static let schemaVersion = 3

    public struct Child: Equatable, Sendable { public var id: String; public var name: String; public var login: String? }
    public struct App: Equatable, Sendable {
        public var name: String; public var category: RewardsEngine.Category; public var pointsPerHour: Int?
        /// Process-name patterns that are this app running (for `enforce`).
        public var processes: [String] = []
        /// Web sites that are this app (`app set --site`): each matches its
        /// host and the hosts under it.
        public var sites: [String] = []
    }
    public struct DayTotals: Equatable, Sendable {
        public var learningSeconds: Int64 = 0
        public var rewardSeconds: Int64 = 0
        public var points = 0
        public var carry: Int64 = 0
        public var grantedMinutes = 0
        public var adjusted = 0
        /// Learning units (seconds × points per hour) before the cap; nil
        /// for days recorded before it was kept.
        public var units: Int64? = nil
    }
    public struct Flag: Equatable, Sendable {
        public var id: String; public var child: String; public var app: String
        public var span: RewardsEngine.Span; public var reason: String; public var status: String
        /// The away spans inside the session, as ingest saw them: approval
        /// counts what ingest would have counted.
        public var afk: [RewardsEngine.Span] = []
    }
    public struct Grant: Equatable, Sendable {
        public var id: String; public var child: String; public var minutes: Int; public var points: Int
        public var app: String?; public var day: Day
        /// Why the grant does not count (a redemption that lost a race), if so.
        public var void: String? = nil
        /// Hand-overs to the grant command that failed or ran past its timeout.
        public var failures = 0
        /// Its way to the grant command: the run handing it over and until
        /// when; delivered is applied.
        public var handover = Handover()

        public var applied: Bool { handover.state == .delivered }

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
    }
    /// A change by a parent, for the other parent's notifications.
    public struct Change: Equatable, Sendable {
        public var id: String; public var by: String; public var ms: Int64; public var text: String
    }
    /// Who may make `type` events: anybody (a claim checked on its own), a
    /// parent, or the owner only.
    static let ownerOnly: Set<String> = ["invite", "parent_removed"]
    static let anybody: Set<String> = ["family_created", "parent_join", "grant", "grant_applied", "grant_claimed"]

    public struct SessionLine: Equatable, Sendable {
        public var app: String; public var start: Int64; public var end: Int64; public var reason: String; public var points: Int
        var json: JSON { .array([.string(app), .int(start), .int(end), .string(reason), JSON(points)]) }
        init(app: String, start: Int64, end: Int64, reason: String, points: Int) {
            self.app = app; self.start = start; self.end = end; self.reason = reason; self.points = points
        }
        init?(_ x: JSON) {
            guard let a = x.array, a.count == 5, let app = a[0].string, let s = a[1].int, let e = a[2].int, let r = a[3].string, let p = a[4].int else { return nil }
            self.init(app: app, start: s, end: e, reason: r, points: Int(p))
        }
    }
    /// One app's usage on one day (per category, should the app have moved).
    /// `otherSeconds`: time in it while it earned and cost nothing
    /// (uncategorised or ignored), so that reports show what to categorise.
    public struct AppDay: Equatable, Sendable {
        public var app: String; public var category: String?; public var sessions = 0
        public var learningSeconds: Int64 = 0; public var rewardSeconds: Int64 = 0; public var points = 0
        public var otherSeconds: Int64 = 0
        var json: JSON {
            var a: [JSON] = [.string(app), JSON(category), JSON(sessions), .int(learningSeconds), .int(rewardSeconds), JSON(points)]
            if otherSeconds != 0 { a.append(.int(otherSeconds)) }
            return .array(a)
        }
        init(app: String, category: String?) { self.app = app; self.category = category }
        init?(_ x: JSON) {
            guard let a = x.array, a.count == 6 || a.count == 7, let app = a[0].string, let n = a[2].int, let l = a[3].int, let r = a[4].int,
                  let p = a[5].int else { return nil }
            self.app = app; category = a[1].string; sessions = Int(n); learningSeconds = l; rewardSeconds = r; points = Int(p)
            if a.count == 7 { otherSeconds = a[6].int ?? 0 }
        }
        mutating func add(_ o: AppDay) {
            sessions += o.sessions; learningSeconds += o.learningSeconds; rewardSeconds += o.rewardSeconds; points += o.points
            otherSeconds += o.otherSeconds
        }
    }
    /// Cold, per child and day: what ingest needs to count nothing twice,
    /// and what reports by app need.
    public struct UsageDay: Equatable, Sendable {
        /// Learning and reward time counted: sorted, merged.
        public var learned: [RewardsEngine.Span] = []
        public var rewarded: [RewardsEngine.Span] = []
        /// Per app (lower-cased): every session ingested, sorted, each once.
        public var sessions: [String: [RewardsEngine.Span]] = [:]
        public var apps: [AppDay] = []
        /// Learning time counted, per points-per-hour rate (a part of
        /// `learned`; time counted before rates were kept is in none).
        public var rated: [Int: [RewardsEngine.Span]] = [:]
        public init() {}

        /// Whether this exact session was ingested before.
        public func hasSession(app key: String, _ span: RewardsEngine.Span) -> Bool {
            RewardsEngine.containsSorted(sessions[key] ?? [], span)
        }

        /// Folds in what an event (or a snapshot line) holds.
        mutating func merge(_ e: JSONObject) {
            for x in SpanCodec.decode(e["learned"]) { RewardsEngine.insertMerged(&learned, x) }
            for x in SpanCodec.decode(e["rewarded"]) { RewardsEngine.insertMerged(&rewarded, x) }
            if let o = e["learned_rates"]?.object {
                for (k, v) in zip(o.keys, o.values) {
                    guard let rate = Int(k), rate > 0 else { continue }
                    for x in SpanCodec.decode(v) { RewardsEngine.insertMerged(&rated[rate, default: []], x) }
                }
            }
            // Learning time taken back (reward-app time turned up over it).
            for x in SpanCodec.decode(e["unlearned"]) {
                RewardsEngine.removeMerged(&learned, x)
                for r in rated.keys {
                    RewardsEngine.removeMerged(&rated[r]!, x)
                    if rated[r]!.isEmpty { rated[r] = nil }
                }
            }
            if let o = e["sessions"]?.object {
                for (k, v) in zip(o.keys, o.values) {
                    let more = SpanCodec.decode(v)
                    if sessions[k] == nil { sessions[k] = more } else { RewardsEngine.mergeSorted(&sessions[k]!, more) }
                }
            }
            for x in e["apps"]?.array ?? [] { if let a = AppDay(x) { addApp(a) } }
        }

        mutating func addApp(_ a: AppDay) {
            if let i = apps.firstIndex(where: { $0.category == a.category && $0.app == a.app })
                ?? apps.firstIndex(where: { $0.category == a.category && $0.app.lowercased() == a.app.lowercased() }) {
                apps[i].add(a)
            } else {
                apps.append(a)
            }
        }

        /// The cold fields, as in usage_day events and snapshot lines.
        func write(into o: inout JSONObject) {
            o["learned"] = SpanCodec.encode(learned)
            o["rewarded"] = SpanCodec.encode(rewarded)
            let keys = sessions.keys.sorted()
            o["sessions"] = .object(JSONObject(parsedKeys: keys, values: keys.map { SpanCodec.encode(sessions[$0]!) }))
            o["apps"] = .array(apps.map(\.json))
            if !rated.isEmpty {
                let rates = rated.keys.sorted()
                o["learned_rates"] = .object(JSONObject(parsedKeys: rates.map(String.init), values: rates.map { SpanCodec.encode(rated[$0]!) }))
            }
        }
    }

    public private(set) var owner: String?
    public private(set) var parents: Set<String> = []
    public private(set) var children: [String: Child] = [:]
    /// Children removed and not purged: their history is kept, and
    /// `child rm --purge` can still name them.
    public private(set) var removed: [String: Child] = [:]
    public private(set) var apps: [String: App] = [:]
    public private(set) var settings = RewardsEngine.Settings()
    public private(set) var childSettings: [String: [String: Int]] = [:]
    public private(set) var days: [String: [Day: DayTotals]] = [:]
    public private(set) var balance: [String: Int] = [:]
    public private(set) var earned: [String: Int] = [:]
    public private(set) var recent: [String: [SessionLine]] = [:]
    public private(set) var flags: [String: Flag] = [:]
    public private(set) var grants: [String: Grant] = [:]
    public private(set) var badges: [String: Set<String>] = [:]
    public private(set) var notified: Set<String> = []
    public private(set) var invites: [String: Invite] = [:]
    public private(set) var requests: [String: Request] = [:]
    var requestSeq = 0
    /// Auto-resolved conflicts and changes by parents (the last 200 each).
    public private(set) var conflicts: [Change] = []
    public private(set) var changes: [Change] = []
    /// Events that did not count, per author, with the last reason.
    public private(set) var refused: [String: (count: Int, why: String)] = [:]
    /// Cold: per child and day, parsed when first needed; until then, the
    /// snapshot's line as it is.
    public private(set) var usage: [String: [Day: UsageDay]] = [:]
    var rawUsage: [String: [Day: Bytes]] = [:]
    let full: Bool

    public init(full: Bool) { self.full = full }

    /// A child's rules: the family's, with the child's own on top. `notify`
    /// is the exception: the family's is the parents' own, so a child's is
    /// on unless set for that child.
    public func settings(for child: String) -> RewardsEngine.Settings {
        var s = settings
        s.notify = 1
        for (k, v) in childSettings[child] ?? [:] { try? s.set(k, String(v)) }
        return s
    }

    public func totals(_ child: String, _ d: Day) -> DayTotals { days[child]?[d] ?? DayTotals() }

    public func grantedThisWeek(_ child: String, _ d: Day) -> Int {
        let monday = d.adding(days: -((d.weekday + 6) % 7))
        return (0..<7).reduce(0) { $0 + totals(child, monday.adding(days: $1)).grantedMinutes }
    }

    /// A child's day's cold part (empty unless the state was read in full).
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
    public func ledger(_ child: String, _ d: Day) -> RewardsEngine.Day {
        var l = RewardsEngine.Day()
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

    /// The author of an event: its journal's owner where proven, else "by".
    static func author(_ e: JSONObject) -> String { e["actor"]?.string ?? e["by"]?.string ?? "" }

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
        guard let inv = invites[RewardsState.codeHash(code)] else {
            return "no invite has the code \(shown); check it, or ask the family's owner for a new one ('rewards parent invite')"
        }
        if let u = inv.usedBy { return "the code \(shown) was used already (by \(u)); ask the family's owner for a new one" }
        if ms > inv.expires { return "the code \(shown) expired at \(zone.format(Instant(ms: inv.expires))); ask the family's owner for a new one" }
        if parents.count >= 2 { return "this family has two parents already, the most it may have" }
        return nil
    }

    mutating func refuse(_ who: String, _ why: String) {
        let n = refused[who]?.count ?? 0
        refused[who] = (n + 1, why)
    }

    mutating func noteChange(_ stamp: Stamp, _ who: String, _ text: String, conflict: Bool = false) {
        let c = Change(id: "\(stamp.ms).\(stamp.counter)@\(stamp.actor)#\(conflict ? conflicts.count : changes.count)", by: who, ms: stamp.ms, text: text)
        if conflict {
            conflicts.append(c)
            if conflicts.count > 200 { conflicts.removeFirst(conflicts.count - 200) }
        } else {
            changes.append(c)
            if changes.count > 200 { changes.removeFirst(changes.count - 200) }
        }
    }

    /// A grant counts only if the balance can pay it at this point.
    mutating func applyGrant(_ g: Grant, stamp: Stamp, who: String) {
        let bal = balance[g.child] ?? 0
        var g = g
        if g.points > bal {
            g.void = "the balance was \(bal) when it was merged, less than its \(g.points) points"
            grants[g.id] = g
            let name = children[g.child]?.name ?? g.child
            noteChange(stamp, who, "\(g.minutes) reward minutes for \(name) (\(g.points) points, by \(who)) were reversed: \(g.void!)", conflict: true)
            return
        }
        grants[g.id] = g
        days[g.child, default: [:]][g.day, default: DayTotals()].grantedMinutes += g.minutes
        balance[g.child, default: 0] -= g.points
    }

    /// A request from the spool, as a parent's run recorded it.
    mutating func applyRequest(_ e: JSONObject, stamp: Stamp, who: String) {
        guard let id = e["id"]?.string, requests[id] == nil, let from = e["from"]?.string, let kind = e["kind"]?.string,
              let day = e["day"]?.string.flatMap(Day.parse) else { return }
        var r = Request(id: id, from: from, kind: kind, minutes: e["minutes"]?.int.map(Int.init), app: e["app"]?.string,
                        note: e["note"]?.string, at: e["at"]?.int ?? stamp.ms, day: day, status: "pending", reason: nil,
                        seq: requestSeq + 1)
        requestSeq += 1
        let child = children.values.first { $0.login == from }
        switch kind {
        case "join":
            if let why = joinProblem(code: e["code"]?.string ?? "", who: from, ms: r.at, zone: .utc) {
                r.status = "refused"
                r.reason = why
            } else {
                invites[RewardsState.codeHash(e["code"]?.string ?? "")]?.usedBy = from
                parents.insert(from)
                r.status = "joined"
                noteChange(stamp, from, "\(from) joined as a parent")
            }
        case "redeem", "more_time":
            guard let c = child else {
                r.status = "refused"
                r.reason = "\(from) is not a child of this family"
                break
            }
            guard let m = r.minutes, (1...1440).contains(m) else { r.status = "refused"; r.reason = "minutes must be 1 to 1440"; break }
            if kind == "more_time" { break }
            let set = settings(for: c.id)
            switch RewardsEngine.redeem(minutes: m, balance: balance[c.id] ?? 0, grantedToday: totals(c.id, day).grantedMinutes,
                                        grantedThisWeek: grantedThisWeek(c.id, day), settings: set) {
            case .failure(let err):
                r.status = "refused"
                r.reason = err.message
            case .success(let red):
                r.status = "granted"
                applyGrant(Grant(id: id, child: c.id, minutes: red.minutes, points: red.points, app: r.app, day: day),
                           stamp: stamp, who: from)
            }
        default:
            r.status = "refused"
            r.reason = e["reason"]?.string ?? "a request must be redeem, more_time or join, not '\(kind)'"
        }
        requests[id] = r
    }

    static func span(_ e: JSONObject) -> RewardsEngine.Span? {
        guard let s = e["start"]?.int, let t = e["end"]?.int else { return nil }
        return RewardsEngine.Span(s, t)
    }

    public mutating func apply(_ e: JSONObject) { apply(e, stamp: Stamp(ms: 0, actor: "")) }

    public mutating func apply(_ e: JSONObject, stamp: Stamp) {
        guard let type = e["type"]?.string else { return }
        let day = e["day"]?.string.flatMap(Day.parse)
        let who = RewardsState.author(e)
        let proven = e["actor"] != nil
        if owner == nil && type != "family_created" {
            refuse(who, "there was no family yet")
            return
        }
        if !RewardsState.anybody.contains(type) {
            let parent = parents.contains(who) || (proven && who == "root")
            if !parent { refuse(who, "\(who) is not a parent of this family"); return }
            if RewardsState.ownerOnly.contains(type) && who != owner && who != "root" { refuse(who, "only the owner, \(owner ?? ""), may do that"); return }
        }
        switch type {
        case "family_created":
            // The first family counts; where journals are proven, its owner is its author.
            guard owner == nil, let o = e["owner"]?.string, !proven || o == who else { refuse(who, "the family exists already"); return }
            owner = o
            parents.insert(o)
        case "invite":
            guard let h = e["hash"]?.string, let x = e["expires"]?.int else { return }
            invites[h] = Invite(hash: h, by: who, expires: x, usedBy: nil)
        case "parent_join":
            guard let code = e["code"]?.string else { return }
            if let why = joinProblem(code: code, who: who, ms: stamp.ms, zone: .utc) { refuse(who, why); return }
            invites[RewardsState.codeHash(code)]?.usedBy = who
            parents.insert(who)
            noteChange(stamp, who, "\(who) joined as a parent")
        case "parent_removed":
            guard let l = e["login"]?.string, l != owner else { return }
            parents.remove(l)
            noteChange(stamp, who, "\(who) removed \(l) as a parent")
        case "request":
            applyRequest(e, stamp: stamp, who: who)
        case "request_decided":
            guard let id = e["id"]?.string, var r = requests[id], r.status == "pending", let d = e["decision"]?.string else { return }
            if d == "approved", let c = children.values.first(where: { $0.login == r.from }) {
                let m = Int(e["minutes"]?.int ?? Int64(r.minutes ?? 0))
                r.status = "approved"
                r.minutes = m
                applyGrant(Grant(id: id, child: c.id, minutes: m, points: 0, app: r.app, day: day ?? r.day), stamp: stamp, who: who)
                noteChange(stamp, who, "\(who) gave \(c.name) \(m) more reward minutes")
            } else {
                r.status = "denied"
                r.reason = e["reason"]?.string
                noteChange(stamp, who, "\(who) said no to \(r.from)'s request for \(r.minutes ?? 0) more minutes")
            }
            requests[id] = r
        case "child_added":
            if let id = e["id"]?.string, let n = e["name"]?.string {
                children[id] = Child(id: id, name: n, login: e["login"]?.string)
                noteChange(stamp, who, "\(who) added \(n) as a child")
            }
        case "child_removed":
            if let id = e["id"]?.string {
                if let c = children[id] { removed[id] = c; noteChange(stamp, who, "\(who) removed \(c.name)") }
                children[id] = nil
            }
        case "app_set":
            guard let n = e["name"]?.string, let c = e["category"]?.string.flatMap(RewardsEngine.Category.init(rawValue:)) else { return }
            apps[n.lowercased()] = App(name: n, category: c, pointsPerHour: e["points_per_hour"]?.int.map(Int.init),
                                       processes: (e["processes"]?.array ?? []).compactMap(\.string),
                                       sites: (e["sites"]?.array ?? []).compactMap(\.string))
            noteChange(stamp, who, "\(who) categorized '\(n)' as \(c.rawValue)\(e["points_per_hour"]?.int.map { " (\($0) pts/hr)" } ?? "")")
        case "app_removed":
            if let n = e["name"]?.string { apps[n.lowercased()] = nil }
        case "setting_set":
            guard let k = e["key"]?.string, let v = e["value"]?.int else { return }
            let c = e["child"]?.string
            let before = c.flatMap { childSettings[$0]?[k] } ?? settings.value(k)
            if let c = c { childSettings[c, default: [:]][k] = Int(v) } else { try? settings.set(k, String(v)) }
            noteChange(stamp, who, "\(who) updated \(k)\(c.map { " for " + (children[$0]?.name ?? $0) } ?? "") from \(before.map(String.init) ?? "unset") to \(v)")
        case "usage_day":
            guard let c = e["child"]?.string, let d = day else { return }
            var t = totals(c, d)
            t.learningSeconds += e["learning_s"]?.int ?? 0
            t.rewardSeconds += e["reward_s"]?.int ?? 0
            let p = Int(e["points"]?.int ?? 0)
            t.points += p
            if let carry = e["carry"]?.int { t.carry = carry }
            if let units = e["units"]?.int { t.units = units }
            days[c, default: [:]][d] = t
            balance[c, default: 0] += p
            earned[c, default: 0] += p
            let more = (e["recent"]?.array ?? []).compactMap(SessionLine.init)
            if !more.isEmpty {
                // The last five sessions by start, wherever in time this batch fell.
                let all = (recent[c] ?? []) + more
                recent[c] = Array(all.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.suffix(5).map(\.element))
            }
            if full {
                materialize(c, d)
                usage[c, default: [:]][d, default: UsageDay()].merge(e)
            }
        case "usage":
            guard let c = e["child"]?.string, let d = day else { return }
            var t = totals(c, d)
            t.learningSeconds += e["learning_s"]?.int ?? 0
            t.rewardSeconds += e["reward_s"]?.int ?? 0
            let p = Int(e["points"]?.int ?? 0)
            t.points += p
            if let carry = e["carry"]?.int { t.carry = carry }
            days[c, default: [:]][d] = t
            balance[c, default: 0] += p
            earned[c, default: 0] += p
            let app = e["app"]?.string ?? ""
            if let s = RewardsState.span(e) {
                var r = recent[c] ?? []
                r.append(SessionLine(app: app, start: s.start, end: s.end, reason: e["reason"]?.string ?? "", points: p))
                recent[c] = Array(r.suffix(5))
            }
            if full {
                materialize(c, d)
                var u = usage[c]?[d] ?? UsageDay()
                for x in e["counted"]?.array ?? [] {
                    guard let a = x.array, a.count == 2, let s = a[0].int, let t2 = a[1].int else { continue }
                    RewardsEngine.insertMerged(&u.learned, RewardsEngine.Span(s, t2))
                }
                if let s = RewardsState.span(e) {
                    RewardsEngine.mergeSorted(&u.sessions[app.lowercased(), default: []], [s])
                    if (e["reward_s"]?.int ?? 0) > 0 { RewardsEngine.insertMerged(&u.rewarded, s) }
                }
                var a = AppDay(app: app, category: e["category"]?.string)
                a.sessions = 1
                a.learningSeconds = e["learning_s"]?.int ?? 0
                a.rewardSeconds = e["reward_s"]?.int ?? 0
                a.points = p
                u.addApp(a)
                usage[c, default: [:]][d] = u
            }
        case "flag":
            guard let id = e["id"]?.string, let c = e["child"]?.string, let s = RewardsState.span(e) else { return }
            flags[id] = Flag(id: id, child: c, app: e["app"]?.string ?? "", span: s, reason: e["reason"]?.string ?? "", status: "pending",
                             afk: SpanCodec.decode(e["afk"]))
        case "flag_decided":
            if let id = e["id"]?.string, let d = e["decision"]?.string { flags[id]?.status = d }
        case "grant":
            guard let id = e["id"]?.string, grants[id] == nil, let c = e["child"]?.string, let d = day, let m = e["minutes"]?.int, let p = e["points"]?.int else { return }
            // A parent, or (where names are not proven by the file system) the child themself.
            guard parents.contains(who) || (proven && who == "root") || (!proven && children[c]?.login == who) else {
                refuse(who, "\(who) may not redeem for \(children[c]?.name ?? c)")
                return
            }
            applyGrant(Grant(id: id, child: c, minutes: Int(m), points: Int(p), app: e["app"]?.string, day: d), stamp: stamp, who: who)
        case "grant_applied":
            guard let id = e["id"]?.string, let g = grants[id] else { return }
            guard parents.contains(who) || (proven && who == "root") || (!proven && children[g.child]?.login == who) else {
                refuse(who, "\(who) may not mark grants applied")
                return
            }
            grants[id]?.handover.ended(.delivered, claim: nil)
        case "grant_failed":
            // The holder's failure (or one naming no claim); one of a claim
            // that lost the race leaves the holder's claim alone.
            guard let id = e["id"]?.string, grants[id] != nil else { return }
            let outcome: DeliveryOutcome = e["outcome"]?.string == "unknown" ? .unknown : .failed
            if grants[id]!.handover.ended(outcome, claim: e["claim"]?.string) { grants[id]!.failures += 1 }
        case "grant_claimed":
            // The first live claim in stamp order holds the grant; a grant
            // failed or unknown is claimed again (rewards retries it).
            guard let id = e["id"]?.string, let g = grants[id], let c = e["claim"]?.string, let u = e["until"]?.int else { return }
            guard parents.contains(who) || (proven && who == "root") || (!proven && children[g.child]?.login == who) else { return }
            guard g.void == nil else { return }
            grants[id]?.handover.claimed(c, until: Instant(ms: u), retry: true, at: Instant(ms: stamp.ms))
        case "adjust":
            guard let c = e["child"]?.string, var p = e["points"]?.int.map(Int.init) else { return }
            let bal = balance[c] ?? 0
            if bal + p < 0 {
                noteChange(stamp, who, "\(who)'s \(p) points for \(children[c]?.name ?? c) took only \(bal): a balance never goes below zero", conflict: true)
                p = -bal
            }
            balance[c, default: 0] += p
            if let d = day { days[c, default: [:]][d, default: DayTotals()].adjusted += p }
            noteChange(stamp, who, "\(who) \(p >= 0 ? "added \(p) bonus points to" : "took \(-p) points from") \(children[c]?.name ?? c)")
        case "badge":
            if let c = e["child"]?.string, let b = e["badge"]?.string { badges[c, default: []].insert(b) }
        case "notified":
            if let k = e["key"]?.string { notified.insert(k) }
        case "erase":
            guard let salt = e["salt"]?.string, let ds = e["digests"]?.array, !ds.isEmpty else { return }
            var ids = Set(children.keys).union(removed.keys).union(days.keys).union(balance.keys).union(childSettings.keys)
            ids.formUnion(usage.keys)
            ids.formUnion(rawUsage.keys)
            for f in flags.values { ids.insert(f.child) }
            for g in grants.values { ids.insert(g.child) }
            for id in ids where Rewards.erasureHit(ds, salt: salt, id) { forget(id) }
            requests = requests.filter { !Rewards.erasureHit(ds, salt: salt, $0.value.from) && !Rewards.erasureHit(ds, salt: salt, $0.key) }
        default:
            break
        }
    }

    /// Drops everything held about one child (an erasure).
    mutating func forget(_ id: String) {
        children[id] = nil
        removed[id] = nil
        childSettings[id] = nil
        days[id] = nil
        balance[id] = nil
        earned[id] = nil
        recent[id] = nil
        badges[id] = nil
        usage[id] = nil
        rawUsage[id] = nil
        let refs = Set([id]).union(flags.values.filter { $0.child == id }.map(\.id)).union(grants.values.filter { $0.child == id }.map(\.id))
        flags = flags.filter { $0.value.child != id }
        grants = grants.filter { $0.value.child != id }
        notified = notified.filter { !Rewards.keyParts($0).contains(where: refs.contains) }
    }

    /// Whether the erasure `t` erases `e` (see Erasure.swift).
    public static func erases(_ t: JSONObject, _ e: JSONObject) -> Bool { Rewards.erases(t, e) }

    // The snapshot: everything small is hot; counted spans and seen keys cold.
    public func hotSnapshot() -> [JSONObject] {
        var l: [JSONObject] = [["k": "family", "owner": JSON(owner), "parents": JSON(parents.sorted()), "request_seq": JSON(requestSeq)]]
        for c in children.values.sorted(by: { $0.id < $1.id }) { l.append(["k": "child", "id": .string(c.id), "name": .string(c.name), "login": JSON(c.login)]) }
        for c in removed.values.sorted(by: { $0.id < $1.id }) {
            l.append(["k": "removed_child", "id": .string(c.id), "name": .string(c.name), "login": JSON(c.login)])
        }
        for a in apps.values.sorted(by: { $0.name < $1.name }) {
            var o: JSONObject = ["k": "app", "name": .string(a.name), "category": .string(a.category.rawValue), "points_per_hour": JSON(a.pointsPerHour)]
            if !a.processes.isEmpty { o["processes"] = JSON(a.processes) }
            if !a.sites.isEmpty { o["sites"] = JSON(a.sites) }
            l.append(o)
        }
        var fam = JSONObject(); fam["k"] = "settings"
        for r in RewardsEngine.Settings.ranges { fam[r.key] = JSON(settings.value(r.key)) }
        l.append(fam)
        for (c, kv) in childSettings.sorted(by: { $0.key < $1.key }) {
            var o: JSONObject = ["k": "child_settings", "child": .string(c)]
            for (k, v) in kv.sorted(by: { $0.key < $1.key }) { o[k] = JSON(v) }
            l.append(o)
        }
        for (c, ds) in days.sorted(by: { $0.key < $1.key }) {
            for (d, t) in ds.sorted(by: { $0.key < $1.key }) {
                var o: JSONObject = ["k": "day", "child": .string(c), "day": .string(d.description), "learning_s": .int(t.learningSeconds),
                                     "reward_s": .int(t.rewardSeconds), "points": JSON(t.points), "carry": .int(t.carry),
                                     "granted": JSON(t.grantedMinutes), "adjusted": JSON(t.adjusted)]
                if let u = t.units { o["units"] = .int(u) }
                l.append(o)
            }
        }
        for (c, b) in balance.sorted(by: { $0.key < $1.key }) {
            l.append(["k": "balance", "child": .string(c), "balance": JSON(b), "earned": JSON(earned[c] ?? 0),
                      "badges": JSON((badges[c] ?? []).sorted()), "recent": .array((recent[c] ?? []).map(\.json))])
        }
        for f in flags.values.sorted(by: { $0.id < $1.id }) {
            var o: JSONObject = ["k": "flag", "id": .string(f.id), "child": .string(f.child), "app": .string(f.app), "start": .int(f.span.start),
                                 "end": .int(f.span.end), "reason": .string(f.reason), "status": .string(f.status)]
            if !f.afk.isEmpty { o["afk"] = SpanCodec.encode(f.afk) }
            l.append(o)
        }
        for g in grants.values.sorted(by: { $0.id < $1.id }) {
            l.append(["k": "grant", "id": .string(g.id), "child": .string(g.child), "minutes": JSON(g.minutes), "points": JSON(g.points),
                      "app": JSON(g.app), "day": .string(g.day.description), "applied": .bool(g.applied), "void": JSON(g.void),
                      "failures": JSON(g.failures), "claim": JSON(g.handover.claim), "claim_until": g.handover.claimUntil.map { JSON.int($0.ms) } ?? .null,
                      "delivery": .string(g.handover.state.rawValue)])
        }
        l.append(["k": "notified", "v": JSON(notified.sorted())])
        for i in invites.values.sorted(by: { $0.hash < $1.hash }) {
            l.append(["k": "invite", "hash": .string(i.hash), "by": .string(i.by), "expires": .int(i.expires), "used_by": JSON(i.usedBy)])
        }
        for r in requests.values.sorted(by: { $0.id < $1.id }) {
            l.append(["k": "request", "id": .string(r.id), "from": .string(r.from), "kind": .string(r.kind), "minutes": JSON(r.minutes),
                      "app": JSON(r.app), "note": JSON(r.note), "at": .int(r.at), "day": .string(r.day.description),
                      "status": .string(r.status), "reason": JSON(r.reason), "seq": JSON(r.seq)])
        }
        for (k, list) in [("conflict", conflicts), ("change", changes)] {
            for c in list { l.append(["k": .string(k), "id": .string(c.id), "by": .string(c.by), "ms": .int(c.ms), "text": .string(c.text)]) }
        }
        for (who, r) in refused.sorted(by: { $0.key < $1.key }) {
            l.append(["k": "refused", "who": .string(who), "count": JSON(r.count), "why": .string(r.why)])
        }
        return l
    }

    /// One line per child and day, in a fixed layout so that a full read can
    /// keep it unparsed: {"k":"usage","child":ID,"day":"YYYY-MM-DD",…}.
    public func writeColdSnapshot(into out: inout [UInt8]) {
        for c in Set(usage.keys).union(rawUsage.keys).sorted() {
            for d in usageDays(c) {
                if let raw = rawUsage[c]?[d] {
                    raw.withUnsafeBytes { out.append(contentsOf: $0) }
                } else if let u = usage[c]?[d] {
                    var o: JSONObject = ["k": "usage", "child": .string(c), "day": .string(d.description)]
                    u.write(into: &o)
                    o.write(into: &out)
                }
                out.append(0x0A)
            }
        }
    }

    public func coldSnapshot() -> [JSONObject] {
        var out = [UInt8]()
        writeColdSnapshot(into: &out)
        var l: [JSONObject] = []
        out.withUnsafeBytes { b in
            try? NDJSON.forEachLine(in: b) { (_, line, _) throws(ToolError) -> Bool in
                if let o = try? JSON.parseObject(line) { l.append(o) }
                return true
            }
        }
        return l
    }

    static let usagePrefix = Array("{\"k\":\"usage\",\"child\":\"".utf8)
    static let dayInfix = Array("\",\"day\":\"".utf8)

    public mutating func restoreColdRaw(_ line: Bytes) -> Bool {
        guard full, line.starts(with: RewardsState.usagePrefix) else { return false }
        var i = line.startIndex + RewardsState.usagePrefix.count
        let idStart = i
        while i < line.endIndex && line[i] != UInt8(ascii: "\"") {
            if line[i] == UInt8(ascii: "\\") { return false }
            i += 1
        }
        let idEnd = i
        guard line[i...].starts(with: RewardsState.dayInfix) else { return false }
        i += RewardsState.dayInfix.count
        guard i + 10 < line.endIndex, line[i + 10] == UInt8(ascii: "\""),
              let d = Day.parse(String(decoding: line[i..<(i + 10)], as: UTF8.self)) else { return false }
        rawUsage[String(decoding: line[idStart..<idEnd], as: UTF8.self), default: [:]][d] = line
        return true
    }

    public mutating func restoreHot(_ l: JSONObject) throws(ToolError) {
        func ints(_ k: String) -> Int { Int(l[k]?.int ?? 0) }
        switch l["k"]?.string {
        case "family":
            owner = l["owner"]?.string
            parents = Set((l["parents"]?.array ?? []).compactMap(\.string))
            requestSeq = ints("request_seq")
        case "child":
            if let id = l["id"]?.string, let n = l["name"]?.string { children[id] = Child(id: id, name: n, login: l["login"]?.string) }
        case "removed_child":
            if let id = l["id"]?.string, let n = l["name"]?.string { removed[id] = Child(id: id, name: n, login: l["login"]?.string) }
        case "app":
            if let n = l["name"]?.string, let c = l["category"]?.string.flatMap(RewardsEngine.Category.init(rawValue:)) {
                apps[n.lowercased()] = App(name: n, category: c, pointsPerHour: l["points_per_hour"]?.int.map(Int.init),
                                           processes: (l["processes"]?.array ?? []).compactMap(\.string),
                                           sites: (l["sites"]?.array ?? []).compactMap(\.string))
            }
        case "settings":
            for r in RewardsEngine.Settings.ranges { if let v = l[r.key]?.int { try? settings.set(r.key, String(v)) } }
        case "child_settings":
            if let c = l["child"]?.string {
                for r in RewardsEngine.Settings.ranges { if let v = l[r.key]?.int { childSettings[c, default: [:]][r.key] = Int(v) } }
            }
        case "day":
            guard let c = l["child"]?.string, let d = l["day"]?.string.flatMap(Day.parse) else { throw .data("bad snapshot line") }
            days[c, default: [:]][d] = DayTotals(learningSeconds: l["learning_s"]?.int ?? 0, rewardSeconds: l["reward_s"]?.int ?? 0,
                                                 points: ints("points"), carry: l["carry"]?.int ?? 0, grantedMinutes: ints("granted"),
                                                 adjusted: ints("adjusted"), units: l["units"]?.int)
        case "balance":
            guard let c = l["child"]?.string else { throw .data("bad snapshot line") }
            balance[c] = ints("balance")
            earned[c] = ints("earned")
            badges[c] = Set((l["badges"]?.array ?? []).compactMap(\.string))
            recent[c] = (l["recent"]?.array ?? []).compactMap(SessionLine.init)
        case "flag":
            guard let id = l["id"]?.string, let c = l["child"]?.string, let s = l["start"]?.int, let e = l["end"]?.int else { throw .data("bad snapshot line") }
            flags[id] = Flag(id: id, child: c, app: l["app"]?.string ?? "", span: RewardsEngine.Span(s, e), reason: l["reason"]?.string ?? "",
                             status: l["status"]?.string ?? "pending", afk: SpanCodec.decode(l["afk"]))
        case "grant":
            guard let id = l["id"]?.string, let c = l["child"]?.string, let d = l["day"]?.string.flatMap(Day.parse) else { throw .data("bad snapshot line") }
            let until = l["claim_until"]?.int.map { Instant(ms: $0) }
            // Snapshots before "delivery" say applied, or claimed, or failed.
            let state = l["delivery"]?.string.flatMap(DeliveryState.init(rawValue:))
                ?? (l["applied"]?.bool == true ? .delivered : until != nil ? .sending : ints("failures") > 0 ? .failed : .pending)
            grants[id] = Grant(id: id, child: c, minutes: ints("minutes"), points: ints("points"), app: l["app"]?.string, day: d,
                               void: l["void"]?.string, failures: ints("failures"),
                               handover: Handover(state: state, claim: l["claim"]?.string, claimUntil: until))
        case "notified":
            notified = Set((l["v"]?.array ?? []).compactMap(\.string))
        case "invite":
            guard let h = l["hash"]?.string, let x = l["expires"]?.int else { throw .data("bad snapshot line") }
            invites[h] = Invite(hash: h, by: l["by"]?.string ?? "", expires: x, usedBy: l["used_by"]?.string)
        case "request":
            guard let id = l["id"]?.string, let f = l["from"]?.string, let k = l["kind"]?.string, let d = l["day"]?.string.flatMap(Day.parse) else {
                throw .data("bad snapshot line")
            }
            requests[id] = Request(id: id, from: f, kind: k, minutes: l["minutes"]?.int.map(Int.init), app: l["app"]?.string, note: l["note"]?.string,
                                   at: l["at"]?.int ?? 0, day: d, status: l["status"]?.string ?? "pending", reason: l["reason"]?.string,
                                   seq: ints("seq"))
        case "conflict", "change":
            guard let id = l["id"]?.string, let t = l["text"]?.string else { throw .data("bad snapshot line") }
            let c = Change(id: id, by: l["by"]?.string ?? "", ms: l["ms"]?.int ?? 0, text: t)
            if l["k"]?.string == "conflict" { conflicts.append(c) } else { changes.append(c) }
        case "refused":
            if let w = l["who"]?.string { refused[w] = (ints("count"), l["why"]?.string ?? "") }
        default:
            break
        }
    }

    public mutating func restoreCold(_ l: JSONObject) throws(ToolError) {
        guard full, l["k"]?.string == "usage" else { return }
        guard let c = l["child"]?.string, let d = l["day"]?.string.flatMap(Day.parse) else { throw .data("bad snapshot line") }
        var u = UsageDay()
        u.merge(l)
        usage[c, default: [:]][d] = u
    }
}

/// Spans sorted by start as one flat array of whole seconds: the first start,
/// then each span's length and the distance from its start to the next one's:
/// [s0, len0, s1 - s0, len1, …]. A day of sessions stays a short line.
public enum SpanCodec {
    public static func encode(_ spans: [RewardsEngine.Span]) -> JSON {
        var a: [JSON] = []
        a.reserveCapacity(spans.count * 2)
        var prev: Int64 = 0
        for (n, s) in spans.enumerated() {
            a.append(.int(n == 0 ? s.start : s.start - prev))
            a.append(.int(s.end - s.start))
            prev = s.start
        }
        return .array(a)
    }

    /// The spans, or none for anything malformed (odd length, negative parts).
    public static func decode(_ j: JSON?) -> [RewardsEngine.Span] {
        guard let a = j?.array, a.count % 2 == 0 else { return [] }
        var out: [RewardsEngine.Span] = []
        out.reserveCapacity(a.count / 2)
        var start: Int64 = 0
        var i = 0
        while i < a.count {
            guard let d = a[i].int, let len = a[i + 1].int, len >= 0, i == 0 || d >= 0 else { return [] }
            start = i == 0 ? d : start + d
            out.append(RewardsEngine.Span(start, start + len))
            i += 2
        }
        return out
    }
}
