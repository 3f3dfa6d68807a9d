// rewards' family state as a fold over its journal. Every event carries
// "by": the login that made the change (the activity log of Epic 6 to come).
//
//   family_created {owner}  child_added {id,name,login}  child_removed {id}
//   app_set {name,category,points_per_hour}  app_removed {name}
//   setting_set {key,value,child?}
//   usage {child,day,app,start,end,category,reason,learning_s,reward_s,points,carry,counted,key}
//   flag {id,child,app,start,end,reason}  flag_decided {id,decision}
//   grant {id,child,minutes,points,app,day}  grant_applied {id}
//   adjust {child,points,reason,day}  badge {child,badge,day}  notified {key}

public struct RewardsState: JournalModel {
    public static let schemaVersion = 1

    public struct Child: Equatable, Sendable { public var id: String; public var name: String; public var login: String? }
    public struct App: Equatable, Sendable { public var name: String; public var category: RewardsEngine.Category; public var pointsPerHour: Int? }
    public struct DayTotals: Equatable, Sendable {
        public var learningSeconds: Int64 = 0
        public var rewardSeconds: Int64 = 0
        public var points = 0
        public var carry: Int64 = 0
        public var grantedMinutes = 0
        public var adjusted = 0
    }
    public struct Flag: Equatable, Sendable {
        public var id: String; public var child: String; public var app: String
        public var span: RewardsEngine.Span; public var reason: String; public var status: String
    }
    public struct Grant: Equatable, Sendable {
        public var id: String; public var child: String; public var minutes: Int; public var points: Int
        public var app: String?; public var day: Day; public var applied: Bool
    }
    public struct SessionLine: Equatable, Sendable {
        public var app: String; public var start: Int64; public var end: Int64; public var reason: String; public var points: Int
    }

    public private(set) var owner: String?
    public private(set) var parents: Set<String> = []
    public private(set) var children: [String: Child] = [:]
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
    /// Cold: spans already counted per child and day, and sessions seen.
    public private(set) var counted: [String: [Day: [RewardsEngine.Span]]] = [:]
    public private(set) var seen: Set<String> = []
    let full: Bool

    public init(full: Bool) { self.full = full }

    public func settings(for child: String) -> RewardsEngine.Settings {
        var s = settings
        for (k, v) in childSettings[child] ?? [:] { try? s.set(k, String(v)) }
        return s
    }

    public func totals(_ child: String, _ d: Day) -> DayTotals { days[child]?[d] ?? DayTotals() }

    public func grantedThisWeek(_ child: String, _ d: Day) -> Int {
        let monday = d.adding(days: -((d.weekday + 6) % 7))
        return (0..<7).reduce(0) { $0 + totals(child, monday.adding(days: $1)).grantedMinutes }
    }

    /// The engine's view of a child's day, to evaluate more sessions.
    public func ledger(_ child: String, _ d: Day) -> RewardsEngine.Day {
        var l = RewardsEngine.Day()
        let t = totals(child, d)
        l.counted = counted[child]?[d] ?? []
        l.units = t.carry
        l.points = t.points
        l.learningSeconds = t.learningSeconds
        l.rewardSeconds = t.rewardSeconds
        return l
    }

    public func child(named n: String) -> Child? {
        children[n] ?? children.values.first { $0.name.lowercased() == n.trimmingSpaces.lowercased() }
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
            if let id = e["id"]?.string { children[id] = nil }
        case "app_set":
            guard let n = e["name"]?.string, let c = e["category"]?.string.flatMap(RewardsEngine.Category.init(rawValue:)) else { return }
            apps[n.lowercased()] = App(name: n, category: c, pointsPerHour: e["points_per_hour"]?.int.map(Int.init))
        case "app_removed":
            if let n = e["name"]?.string { apps[n.lowercased()] = nil }
        case "setting_set":
            guard let k = e["key"]?.string, let v = e["value"]?.int else { return }
            if let c = e["child"]?.string { childSettings[c, default: [:]][k] = Int(v) } else { try? settings.set(k, String(v)) }
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
            if let s = RewardsState.span(e) {
                var r = recent[c] ?? []
                r.append(SessionLine(app: e["app"]?.string ?? "", start: s.start, end: s.end, reason: e["reason"]?.string ?? "", points: p))
                recent[c] = Array(r.suffix(5))
            }
            if full {
                let spans = (e["counted"]?.array ?? []).compactMap { x -> RewardsEngine.Span? in
                    guard let a = x.array, a.count == 2, let s = a[0].int, let t2 = a[1].int else { return nil }
                    return RewardsEngine.Span(s, t2)
                }
                for x in spans { RewardsEngine.insertMerged(&counted[c, default: [:]][d, default: []], x) }
                if let k = e["key"]?.string { seen.insert(k) }
            }
        case "flag":
            guard let id = e["id"]?.string, let c = e["child"]?.string, let s = RewardsState.span(e) else { return }
            flags[id] = Flag(id: id, child: c, app: e["app"]?.string ?? "", span: s, reason: e["reason"]?.string ?? "", status: "pending")
            if full, let k = e["key"]?.string { seen.insert(k) }
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
        default:
            break
        }
    }

    // The snapshot: everything small is hot; counted spans and seen keys cold.
    public func hotSnapshot() -> [JSONObject] {
        var l: [JSONObject] = [["k": "family", "owner": JSON(owner), "parents": JSON(parents.sorted())]]
        for c in children.values.sorted(by: { $0.id < $1.id }) { l.append(["k": "child", "id": .string(c.id), "name": .string(c.name), "login": JSON(c.login)]) }
        for a in apps.values.sorted(by: { $0.name < $1.name }) {
            l.append(["k": "app", "name": .string(a.name), "category": .string(a.category.rawValue), "points_per_hour": JSON(a.pointsPerHour)])
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
                l.append(["k": "day", "child": .string(c), "day": .string(d.description), "learning_s": .int(t.learningSeconds),
                          "reward_s": .int(t.rewardSeconds), "points": JSON(t.points), "carry": .int(t.carry),
                          "granted": JSON(t.grantedMinutes), "adjusted": JSON(t.adjusted)])
            }
        }
        for (c, b) in balance.sorted(by: { $0.key < $1.key }) {
            l.append(["k": "balance", "child": .string(c), "balance": JSON(b), "earned": JSON(earned[c] ?? 0),
                      "badges": JSON((badges[c] ?? []).sorted()),
                      "recent": .array((recent[c] ?? []).map { .array([.string($0.app), .int($0.start), .int($0.end), .string($0.reason), JSON($0.points)]) })])
        }
        for f in flags.values.sorted(by: { $0.id < $1.id }) {
            l.append(["k": "flag", "id": .string(f.id), "child": .string(f.child), "app": .string(f.app), "start": .int(f.span.start),
                      "end": .int(f.span.end), "reason": .string(f.reason), "status": .string(f.status)])
        }
        for g in grants.values.sorted(by: { $0.id < $1.id }) {
            l.append(["k": "grant", "id": .string(g.id), "child": .string(g.child), "minutes": JSON(g.minutes), "points": JSON(g.points),
                      "app": JSON(g.app), "day": .string(g.day.description), "applied": .bool(g.applied)])
        }
        l.append(["k": "notified", "v": JSON(notified.sorted())])
        return l
    }

    public func coldSnapshot() -> [JSONObject] {
        var l: [JSONObject] = []
        for (c, ds) in counted.sorted(by: { $0.key < $1.key }) {
            for (d, spans) in ds.sorted(by: { $0.key < $1.key }) {
                l.append(["k": "counted", "child": .string(c), "day": .string(d.description), "v": .array(spans.map { .array([.int($0.start), .int($0.end)]) })])
            }
        }
        l.append(["k": "seen", "v": JSON(seen.sorted())])
        return l
    }

    public mutating func restoreHot(_ l: JSONObject) throws(ToolError) {
        func ints(_ k: String) -> Int { Int(l[k]?.int ?? 0) }
        switch l["k"]?.string {
        case "family":
            owner = l["owner"]?.string
            parents = Set((l["parents"]?.array ?? []).compactMap(\.string))
        case "child":
            if let id = l["id"]?.string, let n = l["name"]?.string { children[id] = Child(id: id, name: n, login: l["login"]?.string) }
        case "app":
            if let n = l["name"]?.string, let c = l["category"]?.string.flatMap(RewardsEngine.Category.init(rawValue:)) {
                apps[n.lowercased()] = App(name: n, category: c, pointsPerHour: l["points_per_hour"]?.int.map(Int.init))
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
                                                 adjusted: ints("adjusted"))
        case "balance":
            guard let c = l["child"]?.string else { throw .data("bad snapshot line") }
            balance[c] = ints("balance")
            earned[c] = ints("earned")
            badges[c] = Set((l["badges"]?.array ?? []).compactMap(\.string))
            recent[c] = (l["recent"]?.array ?? []).compactMap { x in
                guard let a = x.array, a.count == 5, let app = a[0].string, let s = a[1].int, let e = a[2].int, let r = a[3].string, let p = a[4].int else { return nil }
                return SessionLine(app: app, start: s, end: e, reason: r, points: Int(p))
            }
        case "flag":
            guard let id = l["id"]?.string, let c = l["child"]?.string, let s = l["start"]?.int, let e = l["end"]?.int else { throw .data("bad snapshot line") }
            flags[id] = Flag(id: id, child: c, app: l["app"]?.string ?? "", span: RewardsEngine.Span(s, e), reason: l["reason"]?.string ?? "",
                             status: l["status"]?.string ?? "pending")
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
        guard full else { return }
        switch l["k"]?.string {
        case "counted":
            guard let c = l["child"]?.string, let d = l["day"]?.string.flatMap(Day.parse) else { return }
            counted[c, default: [:]][d] = (l["v"]?.array ?? []).compactMap { x in
                guard let a = x.array, a.count == 2, let s = a[0].int, let e = a[1].int else { return nil }
                return RewardsEngine.Span(s, e)
            }
        case "seen":
            seen = Set((l["v"]?.array ?? []).compactMap(\.string))
        default:
            break
        }
    }
}
