// rewards' snapshot, so that start-up does not grow with history. Hot lines
// (every reader): the family, children, apps, settings, each child's days,
// balance and badges, flags, grants, requests, invites, what was notified,
// the conflicts and changes kept for the parents, who was refused, and the
// index of the cold part (RewardsColdIndex.swift). Cold lines (writers and
// reports): one per child and day with its `UsageDay`.
//
// Invariants: restoring the lines `hotSnapshot` and `writeColdSnapshot`
// write gives the state that folding the events gives. A cold line is
// written in a fixed layout ({"k":"usage","child":ID,"day":"YYYY-MM-DD",…})
// so that a full read can keep it unparsed (`restoreColdRaw`) until a
// command touches that day, and a read without the cold part can find it by
// the index; a line kept raw is written back byte for byte. A day's hot line
// in the layout `hotSnapshot` writes is read without the general parser
// (`dayLine`), to the same totals.

extension RewardsState {
    // The snapshot: everything small is hot; counted spans and seen keys cold.
    public func hotSnapshot() -> [JSONObject] {
        var family: JSONObject = ["k": "family", "owner": JSON(owner), "parents": JSON(parents.sorted()), "request_seq": JSON(requestSeq)]
        if let f = folderOwner { family["folder_owner"] = .string(f) }
        if syncFolder { family["sync_folder"] = true }
        if grantSeq > 0 { family["grant_seq"] = JSON(grantSeq) }
        if let d = grantDevice { family["grant_device"] = .string(d) }
        if let d = familyDevice { family["family_device"] = .string(d) }
        if granterSeen != 0 { family["granter_seen"] = .int(granterSeen) }
        if !formerParents.isEmpty { family["former_parents"] = JSON(formerParents.sorted()) }
        if !lastSeen.isEmpty {
            var seen = JSONObject()
            for (p, s) in lastSeen.sorted(by: { $0.key < $1.key }) { seen[p] = .array([.int(s.ms), .int(s.counter), .string(s.actor)]) }
            family["last_seen"] = .object(seen)
        }
        var l: [JSONObject] = [family]
        for c in children.values.sorted(by: { $0.id < $1.id }) { l.append(["k": "child", "id": .string(c.id), "name": .string(c.name), "login": JSON(c.login)]) }
        for c in removed.values.sorted(by: { $0.id < $1.id }) {
            l.append(["k": "removed_child", "id": .string(c.id), "name": .string(c.name), "login": JSON(c.login)])
        }
        for a in apps.values.sorted(by: { $0.name < $1.name }) {
            var o: JSONObject = ["k": "app", "name": .string(a.name), "category": .string(a.category.rawValue), "points_per_hour": JSON(a.pointsPerHour)]
            if !a.processes.isEmpty { o["processes"] = JSON(a.processes) }
            if !a.titles.isEmpty { o["titles"] = JSON(a.titles) }
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
        // The days of the hot window; those before it are cold, summed up
        // here. (A state read without them has only the summary it read;
        // the store writes snapshots of full states only.)
        let from = oldDays?.before ?? days.hotFrom(window: RewardsState.hotWindow)
        if let o = oldDays { l.append(o.line) } else if let f = from { l.append(oldDaysLine(before: f)) }
        for c in days.children.sorted() {
            for e in days.entries(c) where from.map({ e.day >= $0 }) ?? true { l.append(RewardsState.dayObject(c, e.day, e.totals)) }
        }
        for (c, b) in balance.sorted(by: { $0.key < $1.key }) {
            l.append(["k": "balance", "child": .string(c), "balance": JSON(b), "earned": JSON(earned[c] ?? 0),
                      "badges": JSON((badges[c] ?? []).sorted()), "recent": .array((recent[c] ?? []).map(\.json))])
        }
        for f in flags.values.sorted(by: { $0.id < $1.id }) {
            var o: JSONObject = ["k": "flag", "id": .string(f.id), "child": .string(f.child), "app": .string(f.app), "start": .int(f.span.start),
                                 "end": .int(f.span.end), "reason": .string(f.reason), "status": .string(f.status)]
            if !f.afk.isEmpty { o["afk"] = SpanCodec.encode(f.afk) }
            if let d = f.day { o["day"] = .string(d.description) }
            l.append(o)
        }
        for g in grants.values.sorted(by: { $0.id < $1.id }) {
            l.append(["k": "grant", "id": .string(g.id), "child": .string(g.child), "minutes": JSON(g.minutes), "points": JSON(g.points),
                      "app": JSON(g.app), "day": .string(g.day.description), "applied": .bool(g.applied), "void": JSON(g.void),
                      "failures": JSON(g.failures), "claim": JSON(g.handover.claim), "claim_until": g.handover.claimUntil.map { JSON.int($0.ms) } ?? .null,
                      "delivery": .string(g.handover.state.rawValue), "short": JSON(g.short), "seq": JSON(g.seq), "void_note": JSON(g.voidNote)])
        }
        l.append(["k": "notified", "v": JSON(notified.sorted())])
        if !awTaken.isEmpty {
            var o = JSONObject()
            for (k, v) in awTaken.sorted(by: { $0.key < $1.key }) { o[k] = .array([.int(v.until), .int(v.from)]) }
            l.append(["k": "aw_taken", "v": .object(o)])
        }
        for i in invites.values.sorted(by: { $0.hash < $1.hash }) {
            l.append(["k": "invite", "hash": .string(i.hash), "by": .string(i.by), "expires": .int(i.expires), "used_by": JSON(i.usedBy)])
        }
        for r in requests.values.sorted(by: { $0.id < $1.id }) {
            l.append(["k": "request", "id": .string(r.id), "from": .string(r.from), "kind": .string(r.kind), "minutes": JSON(r.minutes),
                      "app": JSON(r.app), "note": JSON(r.note), "at": .int(r.at), "day": .string(r.day.description),
                      "status": .string(r.status), "reason": JSON(r.reason), "seq": JSON(r.seq), "file_changed": r.fileChanged.map { JSON.int($0) } ?? .null])
        }
        for (k, list) in [("conflict", conflicts), ("change", changes)] {
            for c in list {
                var o: JSONObject = ["k": .string(k), "id": .string(c.id), "by": .string(c.by), "ms": .int(c.ms), "text": .string(c.text)]
                if superseded.contains(c.id) { o["taken_back"] = true }
                l.append(o)
            }
        }
        for (who, r) in refused.sorted(by: { $0.key < $1.key }) {
            l.append(["k": "refused", "who": .string(who), "count": JSON(r.count), "why": .string(r.why)])
        }
        return l
    }

    /// A day's totals as a snapshot line ({"k":"day",…}, the layout
    /// `dayLine` reads).
    static func dayObject(_ c: String, _ d: Day, _ t: DayTotals) -> JSONObject {
        var o: JSONObject = ["k": "day", "child": .string(c), "day": .string(d.description), "learning_s": .int(t.learningSeconds),
                             "reward_s": .int(t.rewardSeconds), "points": JSON(t.points), "carry": .int(t.carry),
                             "granted": JSON(t.grantedMinutes), "adjusted": JSON(t.adjusted)]
        if let u = t.units { o["units"] = .int(u) }
        return o
    }

    /// A day's totals from a snapshot line read as JSON.
    static func dayTotals(_ l: JSONObject) throws(ToolError) -> (String, Day, DayTotals) {
        guard let c = l["child"]?.string, let d = l["day"]?.string.flatMap(Day.parse) else { throw .data("bad snapshot line") }
        func ints(_ k: String) -> Int { Int(l[k]?.int ?? 0) }
        return (c, d, DayTotals(learningSeconds: l["learning_s"]?.int ?? 0, rewardSeconds: l["reward_s"]?.int ?? 0,
                                points: ints("points"), carry: l["carry"]?.int ?? 0, grantedMinutes: ints("granted"),
                                adjusted: ints("adjusted"), units: l["units"]?.int))
    }

    /// One line per child and day, in a fixed layout so that a full read can
    /// keep it unparsed: {"k":"usage","child":ID,"day":"YYYY-MM-DD",…}; then
    /// the days before the hot window ({"k":"day",…}, RewardsOldDays.swift).
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
        if let from = days.hotFrom(window: RewardsState.hotWindow) {
            for c in days.children.sorted() {
                for e in days.entries(c) where e.day < from {
                    RewardsState.dayObject(c, e.day, e.totals).write(into: &out)
                    out.append(0x0A)
                }
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

    public static var restoresRawLines: Bool { true }
    public static var readsColdByOffset: Bool { true }

    /// Hot lines read without building JSON values: a day's totals (one line
    /// per child and day of history, which every reader restores) and the
    /// cold part's index (kept as it is until a fold needs it). Any other
    /// line, or one not in the layout `hotSnapshot` writes, goes the
    /// general way.
    public mutating func restoreHotRaw(_ line: Bytes) -> Bool {
        if let kept = restoreColdIndexRaw(line) { return kept }
        guard let (c, d, t) = line.withUnsafeBytes({ RewardsState.dayLine($0) }) else { return false }
        days.restore(c, d, t)
        return true
    }

    /// {"k":"day","child":ID,"day":"YYYY-MM-DD","learning_s":N,"reward_s":N,
    /// "points":N,"carry":N,"granted":N,"adjusted":N[,"units":N]} as
    /// `hotSnapshot` writes it (integers of at most 18 digits, an ID of
    /// printable ASCII without escapes); nil for anything else.
    static func dayLine(_ b: UnsafeRawBufferPointer) -> (String, Day, DayTotals)? {
        var l = FixedLine(b)
        guard l.expect("{\"k\":\"day\",\"child\":\""), let id = l.plainString(), l.expect(",\"day\":\""), let d = l.day(), l.expect("\""),
              l.expect(",\"learning_s\":"), let learning = l.int(), l.expect(",\"reward_s\":"), let reward = l.int(),
              l.expect(",\"points\":"), let points = l.int(), l.expect(",\"carry\":"), let carry = l.int(),
              l.expect(",\"granted\":"), let granted = l.int(), l.expect(",\"adjusted\":"), let adjusted = l.int() else { return nil }
        var units: Int64? = nil
        if l.expect(",\"units\":") {
            guard let u = l.int() else { return nil }
            units = u
        }
        guard l.expect("}"), l.atEnd else { return nil }
        let t = DayTotals(learningSeconds: learning, rewardSeconds: reward, points: Int(points), carry: carry, grantedMinutes: Int(granted),
                          adjusted: Int(adjusted), units: units)
        return (String(decoding: UnsafeRawBufferPointer(rebasing: b[id]), as: UTF8.self), d, t)
    }

    /// A usage line, kept as it is (a slice of the mapped snapshot) until
    /// a command touches its day.
    public mutating func restoreColdRaw(_ line: Bytes) -> Bool {
        guard full else { return false }
        if let (c, d) = line.withUnsafeBytes({ RewardsState.usageKey($0) }) {
            rawUsage[c, default: [:]][d] = line
            return true
        }
        guard let (c, d, t) = line.withUnsafeBytes({ RewardsState.dayLine($0) }) else { return false }
        days.restoreOlder(c, d, t)
        return true
    }

    public mutating func restoreHot(_ l: JSONObject) throws(ToolError) {
        func ints(_ k: String) -> Int { Int(l[k]?.int ?? 0) }
        switch l["k"]?.string {
        case "family":
            owner = l["owner"]?.string
            parents = Set((l["parents"]?.array ?? []).compactMap(\.string))
            requestSeq = ints("request_seq")
            grantSeq = ints("grant_seq")
            grantDevice = l["grant_device"]?.string
            familyDevice = l["family_device"]?.string
            granterSeen = l["granter_seen"]?.int ?? 0
            folderOwner = l["folder_owner"]?.string
            syncFolder = l["sync_folder"]?.bool ?? false
            formerParents = Set((l["former_parents"]?.array ?? []).compactMap(\.string))
            for (p, v) in (l["last_seen"]?.object ?? JSONObject()).fields {
                if let a = v.array, a.count == 3, let ms = a[0].int, let c = a[1].int, let act = a[2].string { lastSeen[p] = Stamp(ms: ms, counter: c, actor: act) }
            }
        case "child":
            if let id = l["id"]?.string, let n = l["name"]?.string { children[id] = Child(id: id, name: n, login: l["login"]?.string) }
        case "removed_child":
            if let id = l["id"]?.string, let n = l["name"]?.string { removed[id] = Child(id: id, name: n, login: l["login"]?.string) }
        case "app":
            if let n = l["name"]?.string, let c = l["category"]?.string.flatMap(RewardsEngine.Category.init(rawValue:)) {
                apps[n.lowercased()] = App(name: n, category: c, pointsPerHour: l["points_per_hour"]?.int.map(Int.init),
                                           processes: (l["processes"]?.array ?? []).compactMap(\.string),
                                           titles: Rewards.checkedTitles((l["titles"]?.array ?? []).compactMap(\.string)),
                                           sites: (l["sites"]?.array ?? []).compactMap(\.string))
            }
        case "settings":
            for r in RewardsEngine.Settings.ranges { if let v = l[r.key]?.int { settings.put(r.key, Int(v)) } }
        case "child_settings":
            if let c = l["child"]?.string {
                for r in RewardsEngine.Settings.ranges { if let v = l[r.key]?.int { childSettings[c, default: [:]][r.key] = Int(v) } }
            }
        case "day":
            let (c, d, t) = try RewardsState.dayTotals(l)
            days.set(c, d, t)
        case "old_days":
            try restoreOldDays(l)
        case "balance":
            guard let c = l["child"]?.string else { throw .data("bad snapshot line") }
            balance[c] = ints("balance")
            earned[c] = ints("earned")
            badges[c] = Set((l["badges"]?.array ?? []).compactMap(\.string))
            recent[c] = (l["recent"]?.array ?? []).compactMap(SessionLine.init)
        case "flag":
            guard let id = l["id"]?.string, let c = l["child"]?.string, let s = l["start"]?.int, let e = l["end"]?.int else { throw .data("bad snapshot line") }
            flags[id] = Flag(id: id, child: c, app: l["app"]?.string ?? "", span: RewardsEngine.Span(s, e), reason: l["reason"]?.string ?? "",
                             status: l["status"]?.string ?? "pending", afk: SpanCodec.decode(l["afk"]), day: l["day"]?.string.flatMap(Day.parse))
        case "grant":
            guard let id = l["id"]?.string, let c = l["child"]?.string, let d = l["day"]?.string.flatMap(Day.parse) else { throw .data("bad snapshot line") }
            let until = l["claim_until"]?.int.map { Instant(ms: $0) }
            // Snapshots before "delivery" say applied, or claimed, or failed.
            let state = l["delivery"]?.string.flatMap(DeliveryState.init(rawValue:))
                ?? (l["applied"]?.bool == true ? .delivered : until != nil ? .sending : ints("failures") > 0 ? .failed : .pending)
            grants[id] = Grant(id: id, child: c, minutes: ints("minutes"), points: ints("points"), app: l["app"]?.string, day: d,
                               void: l["void"]?.string, voidNote: l["void_note"]?.string, short: ints("short"), seq: ints("seq"), failures: ints("failures"),
                               handover: Handover(state: state, claim: l["claim"]?.string, claimUntil: until))
        case "notified":
            notified = Set((l["v"]?.array ?? []).compactMap(\.string))
        case "aw_taken":
            for f in l["v"]?.object?.fields ?? [] {
                if let a = f.value.array, a.count == 2, let u = a[0].int, let from = a[1].int { awTaken[f.key] = ActivityWatch.Taken(until: u, from: from) }
            }
        case "invite":
            guard let h = l["hash"]?.string, let x = l["expires"]?.int else { throw .data("bad snapshot line") }
            invites[h] = Invite(hash: h, by: l["by"]?.string ?? "", expires: x, usedBy: l["used_by"]?.string)
        case "request":
            guard let id = l["id"]?.string, let f = l["from"]?.string, let k = l["kind"]?.string, let d = l["day"]?.string.flatMap(Day.parse) else {
                throw .data("bad snapshot line")
            }
            requests[id] = Request(id: id, from: f, kind: k, minutes: l["minutes"]?.int.map(Int.init), app: l["app"]?.string, note: l["note"]?.string,
                                   at: l["at"]?.int ?? 0, day: d, status: l["status"]?.string ?? "pending", reason: l["reason"]?.string,
                                   seq: ints("seq"), fileChanged: l["file_changed"]?.int)
        case "conflict", "change":
            guard let id = l["id"]?.string, let t = l["text"]?.string else { throw .data("bad snapshot line") }
            let c = Change(id: id, by: l["by"]?.string ?? "", ms: l["ms"]?.int ?? 0, text: t)
            if l["k"]?.string == "conflict" { conflicts.append(c) } else { changes.append(c) }
            if l["taken_back"]?.bool == true { superseded.insert(id) }
        case "refused":
            if let w = l["who"]?.string { refused[w] = (ints("count"), l["why"]?.string ?? "") }
        case "cold_index", "cold_indexed":
            restoreColdIndex(l)
        default:
            break
        }
    }

    public mutating func restoreCold(_ l: JSONObject) throws(ToolError) {
        guard full else { return }
        if l["k"]?.string == "day" {
            let (c, d, t) = try RewardsState.dayTotals(l)
            days.restoreOlder(c, d, t)
            return
        }
        guard l["k"]?.string == "usage" else { return }
        guard let c = l["child"]?.string, let d = l["day"]?.string.flatMap(Day.parse) else { throw .data("bad snapshot line") }
        var u = UsageDay()
        u.merge(l)
        usage[c, default: [:]][d] = u
    }
}
