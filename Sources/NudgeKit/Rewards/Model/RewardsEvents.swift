// rewards' events, and the fold that makes the state of them. Every event
// carries "by" and "at": the login that made the change and when, with the
// run's --note if one was given (`Rewards.Byline`); `rewards log` tells the
// history from them.
//
//   family_created {owner}  child_added {id,name,login}  child_removed {id}
//   app_set {name,category,points_per_hour,sites?}  app_removed {name}
//   setting_set {key,value,child?}  setting_set {key,child,default: true}
//       the second takes a child's own value away (the family's applies)
//   sessions {child,day,apps,s,afk?,source?}
//       what one ingest observed of one child's day: the apps by name, and
//       per session [app index, start, length] in whole seconds, the start
//       as the distance from the previous session's (the first since the
//       epoch), sorted by start; afk: the away spans around them; source:
//       ndjson, activitywatch or enforce. The fold counts them (points,
//       caps, runs, held sessions: Model/RewardsFacts.swift) with the
//       batch's stamp as "now"; a session (child, app, start, end) counts
//       once however many events hold it. At most Rewards.sessionsPerEvent
//       sessions (a bigger day is split; a bigger event counts for nothing).
//   usage_day {child,day,learning_s,reward_s,points,carry,units?,recent,learned,rewarded,sessions,apps,
//              learned_rates?,unlearned?}
//       (written before sessions; still read, as history that counts once)
//       what one ingest added to one child's day: totals, the last sessions,
//       and the cold part (time newly counted, sessions seen, per-app totals);
//       units: the day's learning units before the cap (like carry, the
//       latest value stands); learned_rates: the learning time newly counted
//       per points-per-hour rate; unlearned: learning time taken back because
//       reward-app time turned up over it (learning_s and points are then
//       negative on the reward app's line)
//   usage {child,day,app,start,end,category,reason,learning_s,reward_s,points,carry,counted,key}
//       one session (written by schema 1; still read)
//   flag {id,child,app,start,end,reason,day,afk?}  flag_decided {id,decision,count?,day?}
//       flag: a held session, as written before sessions (the fold now
//       flags held sessions itself, with an id made from the session);
//       afk: the away spans inside the held session (SpanCodec), for
//       approval; count: true when the fold counts an approved session
//       (before, a usage_day event followed the decision)
//   grant {id,child,minutes,points,app,day}  grant_applied {id}
//   grant_device {device}
//       a parent names the device that hands grants over (a sync folder);
//       how grants are paid, and stay paid once handed over, is
//       Model/RewardsGrantFold.swift
//   grant_claimed {id,claim,until}  grant_failed {id,claim,error,outcome?}
//       a run's claim on a grant (until: ms) before it runs the grant
//       command, and the command's failure; outcome "unknown" when it ran
//       past its timeout (older events have none: failed). The lifecycle is
//       Core/Messages/Delivery.swift's `Handover`: the first live claim in stamp order
//       holds the grant; a failed or unknown grant is tried again.
//   adjust {child,points,reason,day}  badge {child,badge,day}  notified {key}
//   activitywatch_taken {child,device,until,from}
//       how far one aw-server's events (its device id) were read for a
//       child by `ingest --activitywatch URL` (epoch seconds: the end of
//       the latest event, and the start of the session then open); the
//       latest stands (Rules/ActivityWatchServer.swift: where the next run
//       reads from)
//   erase {salt,digests}
//       a tombstone (`child rm --purge`): the store skips every earlier
//       event that names one of the digested values (a child's id, login,
//       flags and grants; see Rules/RewardsErasure.swift) on every copy, and
//       each copy removes them from the journals it writes. It holds digests
//       only, so nothing in it names the child.
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

extension Rewards {
    /// Who made an event and when, written into each event of one run: the
    /// same "by" and "at" for all of them, and the run's --note if any.
    struct Byline {
        let by: JSON
        let at: JSON
        /// The run's --note, for the activity log.
        var note: String? = nil
        /// In a sync folder, the login that ran it where "by" names someone
        /// else (REWARDS_USER): nothing proves who wrote it, and the log says so.
        var login: String? = nil

        func callAsFunction(_ e: JSONObject) -> JSONObject {
            var o = e
            o["by"] = by
            o["at"] = at
            if let n = note { o["note"] = .string(n) }
            if let l = login { o["os_login"] = .string(l) }
            return o
        }
    }
}

extension RewardsState {
    /// Who may make `type` events: anybody (a claim checked on its own), a
    /// parent, or the owner only.
    static let ownerOnly: Set<String> = ["invite", "parent_removed"]
    static let anybody: Set<String> = ["family_created", "parent_join", "grant", "grant_applied", "grant_claimed"]

    /// The author of an event: its journal's owner where proven, else "by".
    static func author(_ e: JSONObject) -> String { e["actor"]?.string ?? e["by"]?.string ?? "" }

    static func span(_ e: JSONObject) -> RewardsEngine.Span? {
        guard let s = e["start"]?.int, let t = e["end"]?.int else { return nil }
        return RewardsEngine.Span(s, t)
    }

    public mutating func apply(_ e: JSONObject) { apply(e, stamp: Stamp(ms: 0, actor: "")) }

    public mutating func apply(_ e: JSONObject, stamp: Stamp) {
        guard let type = e["type"]?.string else { return }
        if type == "family_folder" {
            // The host's fact (stamped zero, no journal): who owns the folder.
            if stamp.actor.isEmpty && stamp.ms == 0 { folderOwner = e["owner"]?.string }
            return
        }
        if type == "sync_folder" {
            // The host's fact: the journals are in a folder devices share.
            if stamp.actor.isEmpty && stamp.ms == 0 { syncFolder = true }
            return
        }
        let day = e["day"]?.string.flatMap(Day.parse)
        let who = RewardsState.author(e)
        let proven = e["actor"] != nil
        guard mayMake(type, who: who, proven: proven) else { return }
        if parents.contains(who) && (!proven || stamp.actor == who) { lastSeen[who] = stamp }
        if stamp.ms > granterSeen && !stamp.actor.isEmpty && stamp.actor == granter { granterSeen = stamp.ms }
        switch type {
        case "family_created", "invite", "parent_join", "parent_removed":
            applyParents(type, e, stamp: stamp, who: who, proven: proven)
        case "request":
            applyRequest(e, stamp: stamp, who: who)
        case "request_decided":
            applyDecision(e, day: day, stamp: stamp, who: who)
        case "child_added", "child_removed", "app_set", "app_removed", "setting_set":
            applyFamilyChange(type, e, stamp: stamp, who: who)
        case "sessions":
            applySessions(e, stamp: stamp)
        case "usage_day":
            if let c = e["child"]?.string, let d = day { applyUsageDay(e, child: c, day: d) }
        case "usage":
            if let c = e["child"]?.string, let d = day { applyUsage(e, child: c, day: d) }
        case "flag":
            guard let id = e["id"]?.string, let c = e["child"]?.string, let s = RewardsState.span(e) else { return }
            flags[id] = Flag(id: id, child: c, app: e["app"]?.string ?? "", span: s, reason: e["reason"]?.string ?? "", status: "pending",
                             afk: SpanCodec.decode(e["afk"]), day: day)
        case "flag_decided":
            applyFlagDecision(e, stamp: stamp, who: who)
        case "grant", "grant_applied", "grant_failed", "grant_claimed", "grant_device":
            applyGrantEvent(type, e, day: day, stamp: stamp, who: who, proven: proven)
        case "adjust":
            applyAdjust(e, day: day, stamp: stamp, who: who)
        case "badge":
            if let c = e["child"]?.string, let b = e["badge"]?.string { badges[c, default: []].insert(b) }
        case "notified":
            if let k = e["key"]?.string { notified.insert(k) }
        case "activitywatch_taken":
            if let c = e["child"]?.string, let d = e["device"]?.string, let u = e["until"]?.int, u > awTaken[c + "|" + d]?.until ?? .min {
                awTaken[c + "|" + d] = ActivityWatch.Taken(until: u, from: e["from"]?.int ?? u)
            }
        case "erase":
            applyErase(e)
        default:
            break
        }
    }

    /// Whether `who` may make a `type` event at this point in stamp order:
    /// once there is a family, anybody (`anybody`), a parent, or the owner
    /// (`ownerOnly`); root stands for the parents where journals are proven.
    /// A refusal is counted against `who`.
    mutating func mayMake(_ type: String, who: String, proven: Bool) -> Bool {
        if owner == nil && type != "family_created" {
            refuse(who, "there was no family yet")
            return false
        }
        if !RewardsState.anybody.contains(type) {
            let parent = parents.contains(who) || (proven && who == "root")
            if !parent {
                refuse(who, formerParents.contains(who) ? "\(who) was removed as a parent" : "\(who) is not a parent of this family")
                return false
            }
            if RewardsState.ownerOnly.contains(type) && who != owner && who != "root" { refuse(who, "only the owner, \(owner ?? ""), may do that"); return false }
        }
        return true
    }

    /// The family and its parents: created, an invite, a second parent
    /// joining with its code, a parent removed.
    mutating func applyParents(_ type: String, _ e: JSONObject, stamp: Stamp, who: String, proven: Bool) {
        switch type {
        case "family_created":
            // The first family counts; where journals are proven, its owner is its author.
            if let f = folderOwner, who != f {
                refuse(who, "only \(f), who owns the family folder, makes the family")
                return
            }
            guard owner == nil, let o = e["owner"]?.string, !proven || o == who else { refuse(who, "the family exists already"); return }
            owner = o
            parents.insert(o)
            if !stamp.actor.isEmpty { familyDevice = stamp.actor; granterSeen = max(granterSeen, stamp.ms) }
        case "invite":
            guard let h = e["hash"]?.string, let x = e["expires"]?.int else { return }
            invites[h] = Invite(hash: h, by: who, expires: x, usedBy: nil)
        case "parent_join":
            guard let code = e["code"]?.string else { return }
            if let why = joinProblem(code: code, who: who, ms: stamp.ms, zone: .utc) { refuse(who, why); return }
            invites[RewardsState.codeHash(code)]?.usedBy = who
            parents.insert(who)
            formerParents.remove(who)
            noteChange(stamp, who, "\(who) joined as a parent")
        case "parent_removed":
            guard let l = e["login"]?.string, l != owner else { return }
            parents.remove(l)
            formerParents.insert(l)
            lastSeen[l] = nil
            noteChange(stamp, who, "\(who) removed \(l) as a parent")
        default:
            break
        }
    }

    /// A parent's answer to a request for more time: approved, it is a
    /// grant that costs no points.
    mutating func applyDecision(_ e: JSONObject, day: Day?, stamp: Stamp, who: String) {
        guard let id = e["id"]?.string, var r = requests[id], let d = e["decision"]?.string else { return }
        // The first decision in stamp order stands (as for held sessions).
        guard r.status == "pending" else {
            let now = d == "approved" ? "approved" : "denied"
            if (r.status == "approved" || r.status == "denied") && r.status != now {
                noteChange(stamp, who, "\(who)'s answer to \(r.from)'s request for \(r.minutes ?? 0) more minutes does not count: it was \(r.status) first, and the first answer stands", conflict: true)
            }
            return
        }
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
    }

    /// A parent's change to the family: a child added or removed, an app
    /// categorised or forgotten, a setting changed (each noted for the
    /// other parent, but an app forgotten).
    mutating func applyFamilyChange(_ type: String, _ e: JSONObject, stamp: Stamp, who: String) {
        switch type {
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
                                       titles: Rewards.checkedTitles((e["titles"]?.array ?? []).compactMap(\.string)),
                                       sites: (e["sites"]?.array ?? []).compactMap(\.string))
            noteChange(stamp, who, "\(who) categorized '\(n)' as \(c.rawValue)\(e["points_per_hour"]?.int.map { " (\($0) pts/hr)" } ?? "")")
        case "app_removed":
            if let n = e["name"]?.string { apps[n.lowercased()] = nil }
        case "setting_set":
            // A child's own value taken away: the family's applies again.
            if e["default"]?.bool == true, let k = e["key"]?.string, let c = e["child"]?.string, RewardsEngine.Settings.ranges.contains(where: { $0.key == k }) {
                guard let before = childSettings[c]?[k] else { return }
                childSettings[c]?[k] = nil
                noteChange(stamp, who, RewardsEngine.Settings.describeDefault(who: who, key: k, child: children[c]?.name ?? c, before: before,
                                                                              after: settings(for: c).value(k) ?? 0))
                return
            }
            // A setting the CLI has, in its range: a peer's other keys count for nothing.
            guard let k = e["key"]?.string, let v = e["value"]?.int,
                  let known = RewardsEngine.Settings.ranges.first(where: { $0.key == k }), known.range.contains(Int(v)) else { return }
            let c = e["child"]?.string
            var probe = RewardsEngine.Settings()
            guard probe.put(k, Int(v)) else { return }
            let before = c.flatMap { childSettings[$0]?[k] } ?? settings.value(k)
            if let c = c { childSettings[c, default: [:]][k] = Int(v) } else { settings.put(k, Int(v)) }
            noteChange(stamp, who, RewardsEngine.Settings.describe(who: who, key: k, child: c.map { children[$0]?.name ?? $0 }, before: before, after: Int(v),
                                                                          local: e["until"]?.string))
        default:
            break
        }
    }

    /// A bonus or a correction; a negative one takes only what the balance
    /// holds (a conflict, when two parents' changes met).
    mutating func applyAdjust(_ e: JSONObject, day: Day?, stamp: Stamp, who: String) {
        guard let c = e["child"]?.string, var p = e["points"]?.int.map(Int.init) else { return }
        let bal = balance[c] ?? 0
        if bal + p < 0 {
            noteChange(stamp, who, "\(who)'s \(p) points for \(children[c]?.name ?? c) took only \(bal): a balance never goes below zero", conflict: true)
            p = -bal
        }
        balance[c, default: 0] += p
        if let d = day { days.update(c, d) { $0.adjusted += p } }
        noteChange(stamp, who, "\(who) \(p >= 0 ? "added \(p) bonus points to" : "took \(-p) points from") \(children[c]?.name ?? c)")
    }

    /// An erasure: everything held about each child it names, and the
    /// requests it names, go.
    mutating func applyErase(_ e: JSONObject) {
        guard let salt = e["salt"]?.string, let ds = e["digests"]?.array, !ds.isEmpty else { return }
        var ids = Set(children.keys).union(removed.keys).union(days.children).union(balance.keys).union(childSettings.keys)
        ids.formUnion(usage.keys)
        ids.formUnion(rawUsage.keys)
        ids.formUnion(cold.raw.keys)
        for f in flags.values { ids.insert(f.child) }
        for g in grants.values { ids.insert(g.child) }
        for id in ids where Rewards.erasureHit(ds, salt: salt, id) { forget(id) }
        requests = requests.filter { !Rewards.erasureHit(ds, salt: salt, $0.value.from) && !Rewards.erasureHit(ds, salt: salt, $0.key) }
    }

    /// A request from the spool, as a parent's run recorded it.
    mutating func applyRequest(_ e: JSONObject, stamp: Stamp, who: String) {
        guard let id = e["id"]?.string, requests[id] == nil, let from = e["from"]?.string, let kind = e["kind"]?.string,
              let day = e["day"]?.string.flatMap(Day.parse) else { return }
        var r = Request(id: id, from: from, kind: kind, minutes: e["minutes"]?.int.map(Int.init), app: e["app"]?.string,
                        note: e["note"]?.string, at: e["at"]?.int ?? stamp.ms, day: day, status: "pending", reason: nil,
                        seq: requestSeq + 1, fileChanged: e["file_changed"]?.int)
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
                formerParents.remove(from)
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
            let set = settings(for: c.id).on(day)
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

    /// Drops everything held about one child (an erasure).
    mutating func forget(_ id: String) {
        children[id] = nil
        removed[id] = nil
        childSettings[id] = nil
        days.remove(id)
        balance[id] = nil
        earned[id] = nil
        recent[id] = nil
        badges[id] = nil
        usage[id] = nil
        awTaken = awTaken.filter { !$0.key.hasPrefix(id + "|") }
        rawUsage[id] = nil
        cold.raw[id] = nil
        cold.parsed[id] = []  // no line to read any more
        let refs = Set([id]).union(flags.values.filter { $0.child == id }.map(\.id)).union(grants.values.filter { $0.child == id }.map(\.id))
        flags = flags.filter { $0.value.child != id }
        grants = grants.filter { $0.value.child != id }
        notified = notified.filter { !Rewards.keyParts($0).contains(where: refs.contains) }
    }

    /// A purge counts unless a removal's cut takes it back: its author
    /// was cut, and it is stamped after the last batch of theirs the
    /// remover had folded (a removed parent's purge stamped "before" the
    /// removal). A cut is judged by `erases` (the owner's or root's only).
    public func counts(tombstone t: JSONObject, stamped ts: Stamp, among all: [(Stamp, JSONObject)]) -> Bool {
        guard t["cut"] == nil else { return true }
        let author = RewardsState.author(t)
        return !all.contains { c in c.0 > ts && c.1["cut"]?.string == author && erases(c.1, stamped: c.0, t, stamped: ts) }
    }

    /// Whether the erasure `t` erases `e` (see Rules/RewardsErasure.swift).
    public static func erases(_ t: JSONObject, _ e: JSONObject) -> Bool { Rewards.erases(t, e) }

    /// The same, with the stamps: a removal's cut ({"type":"erase","cut":LOGIN,
    /// "after":[ms,counter]}, by the owner or root) erases what LOGIN wrote
    /// after the last batch of theirs the remover had folded, whatever its
    /// stamp says, so nothing they append later counts on any copy.
    public func erases(_ t: JSONObject, stamped ts: Stamp, _ e: JSONObject, stamped s: Stamp) -> Bool {
        guard let target = t["cut"]?.string else { return RewardsState.erases(t, e) }
        let by = RewardsState.author(t)
        guard by == owner || (t["actor"] != nil && by == "root"), target != owner, RewardsState.author(e) == target else { return false }
        guard let after = Stamp.clock(t["after"], actor: s.actor) else { return true }
        return s > after
    }
}
