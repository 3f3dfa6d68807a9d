// What `rewards enforce` decides from the state after the run's usage is
// counted: warn a child with five minutes or less left, end the reward apps
// of a child whose granted time is spent (or who has none), and tell the
// parents of a reward app used with no time granted; and the events and
// notifications that record and tell it.
//
// Invariants: one decision per child and app; a warning only while some
// time is left; each notification is said once (its "notified" key).

extension Rewards {
    /// What enforce does about one child, decided from the state after the
    /// run's usage is counted.
    public enum EnforceAction: Equatable, Sendable {
        /// Five minutes or one left (of the time granted, before downtime
        /// starts, or before midnight ends the day's time: `why`, and `mark`
        /// the end it is about): tell the child (once each).
        case warn(child: String, leftMinutes: Int, why: Blocked, mark: String)
        /// Time is up (or none was granted), downtime, or a parent's lock
        /// (`why`, `mark` which one): end the app's processes.
        case end(child: String, app: String, pids: [Int32], why: Blocked, mark: String)
        /// A reward app running with no time granted today: tell the parents (once a day per app).
        case unauthorized(child: String, app: String)
    }

    /// Why reward apps may not run.
    public enum Blocked: String, Sendable { case time, downtime, locked, midnight }

    /// The reward apps each child with a login is running (child id → app →
    /// processes): a process is a child's by its uid (`uid` looks a login
    /// up; two children of one login: the first by id, on every run and
    /// device), an app's when one of its process patterns names it (the
    /// first app in order of name).
    static func runningRewardApps(_ s: RewardsState, _ procs: [RunningProcess],
                                  uid: (String) -> UInt32? = Users.uid(of:)) -> [String: [String: [RunningProcess]]] {
        // A few children: a scan beats hashing, for each of hundreds of processes.
        var byUID: [(uid: UInt32, id: String)] = []
        for c in s.children.values.sorted(by: { $0.id < $1.id }) {
            if let l = c.login, let u = uid(l), !byUID.contains(where: { $0.uid == u }) { byUID.append((u, c.id)) }
        }
        let rewardApps = s.apps.values.filter { $0.category == .reward && !$0.processes.isEmpty }.sorted { $0.name < $1.name }
            .map { (name: $0.name, patterns: $0.processes.map(Processes.Pattern.init)) }
        var out: [String: [String: [RunningProcess]]] = [:]
        for p in procs {
            guard let c = byUID.first(where: { $0.uid == p.uid }) else { continue }
            for a in rewardApps where a.patterns.contains(where: { Processes.matches($0, p) }) {
                out[c.id, default: [:]][a.name, default: []].append(p)
                break
            }
        }
        return out
    }

    /// The decisions for the processes running now (child id → app → processes).
    /// In downtime or locked, the apps end whatever the balance; else when
    /// the time granted is spent. A warning comes at five minutes and at one
    /// before either end (the nearer).
    public static func enforceActions(_ s: RewardsState, running: [String: [String: [RunningProcess]]], today: Day,
                                      now: Instant, zone: Zone) -> [EnforceAction] {
        var out: [EnforceAction] = []
        for (cid, apps) in running.sorted(by: { $0.key < $1.key }) where !apps.isEmpty {
            let t = s.totals(cid, today)
            let set = s.settings(for: cid)
            let left = Int64(t.grantedMinutes) * 60 - t.rewardSeconds
            if let b = set.blocked(at: now, zone: zone) {
                // Each lock and each downtime is its own (told once each, not once a day).
                let why: Blocked = b.why == "locked" ? .locked : .downtime
                let mark = why == .locked ? "locked \(set.lockedUntil)" : "downtime \(set.downtimeAround(now, zone: zone)?.start.seconds ?? 0)"
                for (app, ps) in apps.sorted(by: { $0.key < $1.key }) { out.append(.end(child: cid, app: app, pids: ps.map(\.pid), why: why, mark: mark)) }
            } else if left <= 0 {
                for (app, ps) in apps.sorted(by: { $0.key < $1.key }) {
                    out.append(.end(child: cid, app: app, pids: ps.map(\.pid), why: .time, mark: ""))
                    if t.grantedMinutes == 0 { out.append(.unauthorized(child: cid, app: app)) }
                }
            } else {
                // The nearest end: the time granted, downtime, or midnight (the day's minutes are the day's).
                let next = set.downtimeAround(now, zone: zone)
                let toDowntime = next.map { ($0.start.ms - now.ms) / 1000 } ?? .max
                let toMidnight = (zone.startOfDay(today.adding(days: 1)).ms - now.ms) / 1000
                var (soonest, why, mark) = (left, Blocked.time, "granted \(t.grantedMinutes)")
                if toDowntime < soonest { (soonest, why, mark) = (toDowntime, .downtime, "downtime \(next?.start.seconds ?? 0)") }
                if toMidnight < soonest { (soonest, why, mark) = (toMidnight, .midnight, "midnight") }
                if soonest <= 300 { out.append(.warn(child: cid, leftMinutes: Int(max(1, (soonest + 59) / 60)), why: why, mark: mark)) }
            }
        }
        return out
    }

    /// The events that record `actions` and the notifications they send, in
    /// the order of the actions. Each notification is said once, by its
    /// "notified" key: a child warned once a day, told once a day per app
    /// that it was closed; the parents told once a day per child and app of
    /// a reward app used with no time granted.
    static func enforceRecords(_ s: RewardsState, _ actions: [EnforceAction], today: Day,
                               dryRun dry: Bool) -> (events: [JSONObject], notifications: [JSONObject]) {
        var events: [JSONObject] = []
        var notes: [JSONObject] = []
        for a in actions {
            switch a {
            case .warn(let cid, let left, let why, let end):
                // Once at five minutes and once at one, for each end: the
                // time granted so far today (more granted, a new end), the
                // downtime of that start, or midnight.
                let mark = left <= 1 ? 1 : 5
                let key = "enforce-warn|\(cid)|\(today)|\(end)|\(mark)"
                guard !s.notified.contains(key), let c = s.children[cid] else { continue }
                events.append(["type": "notified", "key": .string(key)])
                let mins = "\(left) minute\(left == 1 ? "" : "s")"
                let (title, body): (String, String)
                switch why {
                case .downtime: (title, body) = ("Downtime in \(mins)", "Save your game, \(c.name): downtime starts in \(mins), and reward apps close.")
                case .midnight: (title, body) = ("Reward time ends at midnight", "Save your game, \(c.name): today's reward time ends at midnight, in \(mins).")
                default: (title, body) = ("\(mins) of reward time left", "Save your game, \(c.name): reward time ends in \(mins).")
                }
                notes.append(NotificationRecord(tool: "rewards", id: "enforce-warn-\(cid)-\(today)-\(why.rawValue)-\(mark)-\(digest([key]))",
                                                title: title, body: body,
                                                extra: ["to": .string(c.login ?? c.name), "role": "child", "minutes_left": JSON(left),
                                                        "reason": .string(why.rawValue)]).record)
            case .end(let cid, let app, let pids, let why, let mark):
                guard let c = s.children[cid] else { continue }
                events.append(["type": "enforced", "child": .string(cid), "app": .string(app), "pids": .array(pids.map { JSON.int(Int64($0)) }),
                               "dry_run": .bool(dry), "day": .string(today.description), "reason": .string(why.rawValue)])
                let tag = why == .time ? "" : "-\(why.rawValue)-\(digest([mark]))"
                let key = "enforce-over|\(cid)|\(today)|\(app.lowercased())" + (why == .time ? "" : "|\(mark)")
                if !s.notified.contains(key) {
                    events.append(["type": "notified", "key": .string(key)])
                    let (title, body): (String, String)
                    switch why {
                    case .time: (title, body) = ("Reward time is over", "\(app) was closed: today's reward time is used up. Learning earns more points.")
                    case .downtime: (title, body) = ("Downtime", "\(app) was closed: it is downtime, when reward apps do not run.")
                    case .locked, .midnight: (title, body) = ("Reward time is paused", "\(app) was closed: a parent paused reward time.")
                    }
                    notes.append(NotificationRecord(tool: "rewards", id: "enforce-over-\(cid)-\(today)-\(app.lowercased())\(tag)", title: title, body: body,
                                                    extra: ["to": .string(c.login ?? c.name), "role": "child", "reason": .string(why.rawValue)]).record)
                }
            case .unauthorized(let cid, let app):
                let key = "enforce-unauth|\(cid)|\(today)|\(app.lowercased())"
                guard !s.notified.contains(key), let c = s.children[cid] else { continue }
                events.append(["type": "notified", "key": .string(key)])
                for p in s.parents.sorted() {
                    notes.append(NotificationRecord(tool: "rewards", id: "enforce-unauth-\(cid)-\(today)-\(app.lowercased())-\(p)",
                                                    title: "rewards: \(c.name) used \(app) with no reward time",
                                                    body: "\(c.name) ran \(app) today without any reward time granted; it was closed.",
                                                    extra: ["to": .string(p), "role": "parent"]).record)
                }
            }
        }
        return (events, notes)
    }
}
