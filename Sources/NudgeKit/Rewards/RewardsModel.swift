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

public struct RewardsState: JournalModel {
    public static let schemaVersion = 2

    public struct Child: Equatable, Sendable { public var id: String; public var name: String; public var login: String? }
    public struct App: Equatable, Sendable {
        public var name: String; public var category: RewardsEngine.Category; public var pointsPerHour: Int?
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
        public var app: String?; public var day: Day; public var applied: Bool
    }
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

    static func span(_ e: JSONObject) -> RewardsEngine.Span? {
        guard let s = e["start"]?.int, let t = e["end"]?.int else { return nil }
        return RewardsEngine.Span(s, t)
    }

    public mutating func apply(_ e: JSONObject) {
        guard let type = e["type"]?.string else { return }
        let day = e["day"]?.string.flatMap(Day.parse)
        switch type {
        case "family_created":
            if let o = e["owner"]?.string { owner = o; parents.insert(o) }
        case "child_added":
            if let id = e["id"]?.string, let n = e["name"]?.string { children[id] = Child(id: id, name: n, login: e["login"]?.string) }
        case "child_removed":
            if let id = e["id"]?.string {
                if let c = children[id] { removed[id] = c }
                children[id] = nil
            }
        case "app_set":
            guard let n = e["name"]?.string, let c = e["category"]?.string.flatMap(RewardsEngine.Category.init(rawValue:)) else { return }
            apps[n.lowercased()] = App(name: n, category: c, pointsPerHour: e["points_per_hour"]?.int.map(Int.init),
                                       sites: (e["sites"]?.array ?? []).compactMap(\.string))
        case "app_removed":
            if let n = e["name"]?.string { apps[n.lowercased()] = nil }
        case "setting_set":
            guard let k = e["key"]?.string, let v = e["value"]?.int else { return }
            if let c = e["child"]?.string { childSettings[c, default: [:]][k] = Int(v) } else { try? settings.set(k, String(v)) }
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
            guard let id = e["id"]?.string, let c = e["child"]?.string, let d = day, let m = e["minutes"]?.int, let p = e["points"]?.int else { return }
            grants[id] = Grant(id: id, child: c, minutes: Int(m), points: Int(p), app: e["app"]?.string, day: d, applied: false)
            days[c, default: [:]][d, default: DayTotals()].grantedMinutes += Int(m)
            balance[c, default: 0] -= Int(p)
        case "grant_applied":
            if let id = e["id"]?.string { grants[id]?.applied = true }
        case "adjust":
            guard let c = e["child"]?.string, let p = e["points"]?.int else { return }
            balance[c, default: 0] += Int(p)
            if let d = day { days[c, default: [:]][d, default: DayTotals()].adjusted += Int(p) }
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
        var l: [JSONObject] = [["k": "family", "owner": JSON(owner), "parents": JSON(parents.sorted())]]
        for c in children.values.sorted(by: { $0.id < $1.id }) { l.append(["k": "child", "id": .string(c.id), "name": .string(c.name), "login": JSON(c.login)]) }
        for c in removed.values.sorted(by: { $0.id < $1.id }) {
            l.append(["k": "removed_child", "id": .string(c.id), "name": .string(c.name), "login": JSON(c.login)])
        }
        for a in apps.values.sorted(by: { $0.name < $1.name }) {
            var o: JSONObject = ["k": "app", "name": .string(a.name), "category": .string(a.category.rawValue), "points_per_hour": JSON(a.pointsPerHour)]
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
                      "app": JSON(g.app), "day": .string(g.day.description), "applied": .bool(g.applied)])
        }
        l.append(["k": "notified", "v": JSON(notified.sorted())])
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
        case "child":
            if let id = l["id"]?.string, let n = l["name"]?.string { children[id] = Child(id: id, name: n, login: l["login"]?.string) }
        case "removed_child":
            if let id = l["id"]?.string, let n = l["name"]?.string { removed[id] = Child(id: id, name: n, login: l["login"]?.string) }
        case "app":
            if let n = l["name"]?.string, let c = l["category"]?.string.flatMap(RewardsEngine.Category.init(rawValue:)) {
                apps[n.lowercased()] = App(name: n, category: c, pointsPerHour: l["points_per_hour"]?.int.map(Int.init),
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
            grants[id] = Grant(id: id, child: c, minutes: ints("minutes"), points: ints("points"), app: l["app"]?.string, day: d,
                               applied: l["applied"]?.bool ?? false)
        case "notified":
            notified = Set((l["v"]?.array ?? []).compactMap(\.string))
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
