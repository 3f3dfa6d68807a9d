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
        /// Few minutes left: tell the child (once a day).
        case warn(child: String, leftMinutes: Int)
        /// Time is up (or none was granted): end the app's processes.
        case end(child: String, app: String, pids: [Int32])
        /// A reward app running with no time granted today: tell the parents (once a day per app).
        case unauthorized(child: String, app: String)
    }

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
    public static func enforceActions(_ s: RewardsState, running: [String: [String: [RunningProcess]]], today: Day) -> [EnforceAction] {
        var out: [EnforceAction] = []
        for (cid, apps) in running.sorted(by: { $0.key < $1.key }) where !apps.isEmpty {
            let t = s.totals(cid, today)
            let left = Int64(t.grantedMinutes) * 60 - t.rewardSeconds
            if left <= 0 {
                for (app, ps) in apps.sorted(by: { $0.key < $1.key }) {
                    out.append(.end(child: cid, app: app, pids: ps.map(\.pid)))
                    if t.grantedMinutes == 0 { out.append(.unauthorized(child: cid, app: app)) }
                }
            } else if left <= 300 {
                out.append(.warn(child: cid, leftMinutes: Int((left + 59) / 60)))
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
            case .warn(let cid, let left):
                let key = "enforce-warn|\(cid)|\(today)"
                guard !s.notified.contains(key), let c = s.children[cid] else { continue }
                events.append(["type": "notified", "key": .string(key)])
                notes.append(NotificationRecord(tool: "rewards", id: "enforce-warn-\(cid)-\(today)", title: "\(left) minute\(left == 1 ? "" : "s") of reward time left",
                                                body: "Save your game, \(c.name): reward time ends in \(left) minute\(left == 1 ? "" : "s").",
                                                extra: ["to": .string(c.login ?? c.name), "role": "child"]).record)
            case .end(let cid, let app, let pids):
                guard let c = s.children[cid] else { continue }
                events.append(["type": "enforced", "child": .string(cid), "app": .string(app), "pids": .array(pids.map { JSON.int(Int64($0)) }),
                               "dry_run": .bool(dry), "day": .string(today.description)])
                let key = "enforce-over|\(cid)|\(today)|\(app.lowercased())"
                if !s.notified.contains(key) {
                    events.append(["type": "notified", "key": .string(key)])
                    notes.append(NotificationRecord(tool: "rewards", id: "enforce-over-\(cid)-\(today)-\(app.lowercased())", title: "Reward time is over",
                                                    body: "\(app) was closed: today's reward time is used up. Learning earns more points.",
                                                    extra: ["to": .string(c.login ?? c.name), "role": "child"]).record)
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
