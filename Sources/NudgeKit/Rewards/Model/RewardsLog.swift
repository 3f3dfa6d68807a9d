// The activity log's model: every change with who, when, before and after,
// in stamp order, as the family's journals tell it. It wraps the family's
// state and, folding each event, writes down what that event changed
// (`logEntries`), so the log needs no index of its own.
//
// Invariants: folded from the same journals, every copy tells the same
// story; the log keeps no snapshot (it is folded again for each
// `rewards log`), and an erasure erases here what it erases in the state.
// It is linear in the events: what an event changed is read off the small
// parts of the state kept from before it (`LogBefore`), never a copy of
// the whole state (which would copy the requests and grants per event).

/// The family's state plus what each event did to it.
struct RewardsLogModel: JournalModel {
    static let schemaVersion = RewardsState.schemaVersion
    var state = RewardsState(full: true)  // usage facts are folded in full
    var entries: [Rewards.LogEntry] = []

    init(full: Bool) {}

    mutating func apply(_ e: JSONObject) { apply(e, stamp: Stamp(ms: 0, actor: "")) }

    mutating func apply(_ e: JSONObject, stamp: Stamp) {
        let before = Rewards.LogBefore(state)
        state.apply(e, stamp: stamp)
        entries += Rewards.logEntries(e, stamp: stamp, before: before, after: state)
    }

    static func erases(_ tombstone: JSONObject, _ event: JSONObject) -> Bool { RewardsState.erases(tombstone, event) }
    func erases(_ t: JSONObject, stamped ts: Stamp, _ e: JSONObject, stamped s: Stamp) -> Bool { state.erases(t, stamped: ts, e, stamped: s) }
    func hotSnapshot() -> [JSONObject] { [] }
    mutating func restoreHot(_ line: JSONObject) throws(ToolError) {}
}

extension Rewards {
    /// The parts of the state an event's log entry compares with: all of
    /// them small (per child, per app, per author), so keeping them costs
    /// nothing when the event changes something else.
    struct LogBefore {
        let children: [String: RewardsState.Child]
        let refused: [String: (count: Int, why: String)]
        let apps: [String: RewardsState.App]
        let childSettings: [String: [String: Int]]
        let settings: RewardsEngine.Settings
        let balance: [String: Int]
        let badges: [String: Set<String>]
        let lastConflict: String?

        init(_ s: RewardsState) {
            children = s.children; refused = s.refused; apps = s.apps; childSettings = s.childSettings
            settings = s.settings; balance = s.balance; badges = s.badges; lastConflict = s.conflicts.last?.id
        }
    }

    public struct LogEntry: Sendable {
        public var ms: Int64
        public var by: String
        public var action: String
        public var child: String?
        public var text: String
        public var before: JSON
        public var after: JSON
        public var note: String?
        /// A conflict's id (a later fold may take it back).
        var ref: String? = nil
        /// In a sync folder, the login that wrote it as someone else: unverified.
        public var login: String? = nil
        /// In a signed sync folder, who signed it (the same as `by`: a batch
        /// signed by anyone else counts for nothing).
        public var signer: String? = nil
    }

    /// What one event did, for people (none for bookkeeping events).
    static func logEntries(_ e: JSONObject, stamp: Stamp, before b: LogBefore, after a: RewardsState) -> [LogEntry] {
        guard let type = e["type"]?.string else { return [] }
        let who = RewardsState.author(e)
        let ms = e["at"]?.string.flatMap { RFC3339.parse($0)?.instant.ms } ?? stamp.ms
        let note = e["note"]?.string
        func entry(_ text: String, child: String? = nil, before: JSON = .null, after: JSON = .null, action: String = type) -> LogEntry {
            LogEntry(ms: ms, by: who, action: action, child: child, text: text, before: before, after: after, note: note,
                     login: e["os_login"]?.string.flatMap { $0 == who ? nil : $0 }, signer: e["signer"]?.string)
        }
        func name(_ id: String?) -> String { id.flatMap { a.children[$0]?.name ?? b.children[$0]?.name } ?? id ?? "?" }
        var out: [LogEntry] = []
        var reversedChild: [String: String] = [:]
        if (a.refused[who]?.count ?? 0) > (b.refused[who]?.count ?? 0) {
            return [entry("\(who)'s \(type) did not count: \(a.refused[who]!.why)", action: "refused")]
        }
        let cid = e["child"]?.string
        let new = b.lastConflict.flatMap { id in a.conflicts.lastIndex { $0.id == id }.map { a.conflicts.index(after: $0) } } ?? (b.lastConflict == nil ? 0 : a.conflicts.count)
        // A mark or a decision that met a conflict did not count: the conflict says so.
        let lost = ["grant_applied", "grant_failed", "grant_claimed", "flag_decided", "request_decided"].contains(type)
            && a.conflicts[new...].contains { $0.text.contains(" does not count: ") }
        switch lost ? "" : type {
        case "family_created":
            out.append(entry("\(who) created the family"))
        case "child_added":
            let n = e["name"]?.string ?? "?"
            out.append(entry("\(who) added \(n) as a child\(e["login"]?.string.map { " (login \($0))" } ?? "")", child: n))
        case "child_removed":
            out.append(entry("\(who) removed \(name(e["id"]?.string))", child: name(e["id"]?.string)))
        case "app_set":
            let n = e["name"]?.string ?? "?"
            let old = b.apps[n.lowercased()]
            let new = a.apps[n.lowercased()]
            let rate = new?.pointsPerHour.map { " (\($0) pts/hr)" } ?? ""
            out.append(entry("\(who) categorized '\(n)' as \(new.map { $0.category.rawValue.prefix(1).uppercased() + $0.category.rawValue.dropFirst() } ?? "?")\(rate)",
                             before: old.map { .string($0.category.rawValue) } ?? .null, after: new.map { .string($0.category.rawValue) } ?? .null))
        case "app_removed":
            out.append(entry("\(who) forgot the app '\(e["name"]?.string ?? "?")'"))
        case "setting_set" where e["default"]?.bool == true:
            // A child's own value taken away.
            guard let c = cid, let k = e["key"]?.string, let old = b.childSettings[c]?[k], a.childSettings[c]?[k] == nil else { break }
            let now = a.settings(for: c).value(k) ?? 0
            out.append(entry(RewardsEngine.Settings.describeDefault(who: who, key: k, child: name(c), before: old, after: now),
                             child: name(c), before: JSON(old), after: JSON(now)))
        case "setting_set":
            let k = e["key"]?.string ?? "?"
            let old = cid.flatMap { b.childSettings[$0]?[k] } ?? b.settings.value(k)
            out.append(entry(RewardsEngine.Settings.describe(who: who, key: k, child: cid.map(name), before: old, after: Int(e["value"]?.int ?? 0),
                                                                  local: e["until"]?.string),
                             child: cid.map(name), before: JSON(old), after: e["value"] ?? .null))
        case "adjust":
            guard let c = cid else { break }
            let d = (a.balance[c] ?? 0) - (b.balance[c] ?? 0)
            let reason = e["reason"]?.string.map { " (\($0))" } ?? ""
            out.append(entry(d >= 0 ? "\(who) added \(d) bonus points to \(name(c))\(reason)" : "\(who) took \(-d) points from \(name(c))\(reason)",
                             child: name(c), before: JSON(b.balance[c] ?? 0), after: JSON(a.balance[c] ?? 0)))
        case "grant":
            guard let c = cid, let id = e["id"]?.string, let g = a.grants[id] else { break }
            // Reversed as it was merged: the conflict below says it, once, for the child.
            if g.void != nil, let note = g.voidNote, a.conflicts[new...].contains(where: { $0.id == note }) {
                reversedChild[note] = name(c)
                break
            }
            let text = g.void != nil ? "\(name(c))'s \(g.minutes) reward minutes (by \(who)) were reversed: \(g.void!)"
                                     : g.points == 0 ? "\(who) gave \(name(c)) \(g.minutes) bonus reward minutes\(e["reason"]?.string.map { " (\($0))" } ?? "")"
                                     : who == a.children[c]?.login ? "\(name(c)) redeemed \(g.minutes) reward minutes (\(g.points) points)"
                                     : "\(who) redeemed \(g.minutes) reward minutes for \(name(c)) (\(g.points) points)"
            out.append(entry(text, child: name(c), before: JSON(b.balance[c] ?? 0), after: JSON(a.balance[c] ?? 0)))
        case "grant_applied":
            if let id = e["id"]?.string, let g = a.grants[id] { out.append(entry("the grant command gave \(name(g.child)) \(g.minutes) minutes", child: name(g.child))) }
        case "grant_failed":
            if let id = e["id"]?.string, let g = a.grants[id] {
                let last = g.failures >= Rewards.grantTries ? "; it failed \(g.failures) times and no run tries it again" : ""
                out.append(entry("the grant command failed for \(name(g.child))'s \(g.minutes) minutes\(e["error"]?.string.map { ": " + $0 } ?? "")\(last)", child: name(g.child)))
            }
        case "flag_decided":
            if let id = e["id"]?.string, let f = a.flags[id] {
                out.append(entry("\(who) \(e["decision"]?.string ?? "decided") a held \(f.app) session of \(name(f.child))", child: name(f.child),
                                 before: JSON(b.balance[f.child] ?? 0), after: JSON(a.balance[f.child] ?? 0)))
            }
        case "sessions":
            guard let c = cid, let f = a.lastFold else { break }
            out.append(entry("usage for \(name(c)) on \(e["day"]?.string ?? "?"): \(f.added) new session\(f.added == 1 ? "" : "s"), \(f.points >= 0 ? "+" : "")\(f.points) points, \(f.learningSeconds / 60) min learning, \(f.rewardSeconds / 60) min reward",
                             child: name(c), before: JSON(b.balance[c] ?? 0), after: JSON(a.balance[c] ?? 0)))
        case "usage_day", "usage":
            guard let c = cid else { break }
            let p = e["points"]?.int ?? 0
            out.append(entry("usage for \(name(c)) on \(e["day"]?.string ?? "?"): \(p >= 0 ? "+" : "")\(p) points, \((e["learning_s"]?.int ?? 0) / 60) min learning, \((e["reward_s"]?.int ?? 0) / 60) min reward",
                             child: name(c), before: JSON(b.balance[c] ?? 0), after: JSON(a.balance[c] ?? 0)))
        case "badge":
            if let c = cid, !(b.badges[c] ?? []).contains(e["badge"]?.string ?? "") {
                let id = e["badge"]?.string ?? "?"
                out.append(entry("\(name(c)) earned the badge \(badgeNames.first { $0.id == id }?.name ?? id)", child: name(c)))
            }
        case "invite":
            out.append(entry("\(who) invited a co-parent (the code works until \(Zone.utc.format(Instant(ms: e["expires"]?.int ?? 0))))"))
        case "parent_join":
            out.append(entry("\(who) joined as a parent"))
        case "parent_removed":
            out.append(entry("\(who) removed \(e["login"]?.string ?? "?") as a parent"))
        case "request":
            guard let id = e["id"]?.string, let r = a.requests[id] else { break }
            let what = r.kind == "join" ? "to join as a parent" : r.kind == "redeem" ? "to redeem \(r.minutes ?? 0) minutes" : r.kind == "more_time" ? "for \(r.minutes ?? 0) more minutes" : "something unreadable"
            let child = a.children.values.first { $0.login == r.from }
            out.append(entry("\(r.from) asked \(what)\(r.note.map { ": “\($0)”" } ?? ""): \(r.status)\(r.reason.map { " (\($0))" } ?? "")",
                             child: child?.name, before: child.map { JSON(b.balance[$0.id] ?? 0) } ?? .null, after: child.map { JSON(a.balance[$0.id] ?? 0) } ?? .null,
                             action: "request"))
        case "request_decided":
            if let id = e["id"]?.string, let r = a.requests[id] {
                out.append(entry(r.status == "approved" ? "\(who) gave \(r.from) \(r.minutes ?? 0) more reward minutes" : "\(who) said no to \(r.from)'s request for more time"))
            }
        case "enforced":
            if let c = cid {
                let why = e["reason"]?.string == "downtime" ? "it was downtime" : e["reason"]?.string == "locked" ? "a parent paused reward time" : "reward time was up"
                out.append(entry(e["dry_run"]?.bool == true ? "\(e["app"]?.string ?? "?") would have been ended for \(name(c)): \(why)"
                                                           : "\(e["app"]?.string ?? "?") was ended for \(name(c)): \(why)", child: name(c)))
            }
        case "erase":
            if e["cut"] != nil { break }
            out.append(entry(e["all"]?.bool == true ? "\(who) erased everything" : "\(who) erased a child's data"))
        default:
            break
        }
        for c in a.conflicts[new...] {
            out.append(LogEntry(ms: ms, by: c.by, action: "conflict", child: reversedChild[c.id], text: c.text, before: .null, after: .null, note: nil, ref: c.id))
        }
        return out
    }
}
