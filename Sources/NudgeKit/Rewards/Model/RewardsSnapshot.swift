// rewards' snapshot, so that start-up does not grow with history. Hot lines
// (every reader): the family, children, apps, settings, each child's days,
// balance and badges, flags, grants, requests, invites, what was notified,
// the conflicts and changes kept for the parents, and who was refused. Cold
// lines (writers and reports): one per child and day with its `UsageDay`.
//
// Invariants: restoring the lines `hotSnapshot` and `writeColdSnapshot`
// write gives the state that folding the events gives. A cold line is
// written in a fixed layout ({"k":"usage","child":ID,"day":"YYYY-MM-DD",…})
// so that a full read can keep it unparsed (`restoreColdRaw`) until a
// command touches that day; a line kept raw is written back byte for byte.

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
            if let d = f.day { o["day"] = .string(d.description) }
            l.append(o)
        }
        for g in grants.values.sorted(by: { $0.id < $1.id }) {
            l.append(["k": "grant", "id": .string(g.id), "child": .string(g.child), "minutes": JSON(g.minutes), "points": JSON(g.points),
                      "app": JSON(g.app), "day": .string(g.day.description), "applied": .bool(g.applied), "void": JSON(g.void),
                      "failures": JSON(g.failures), "claim": JSON(g.handover.claim), "claim_until": g.handover.claimUntil.map { JSON.int($0.ms) } ?? .null,
                      "delivery": .string(g.handover.state.rawValue), "short": JSON(g.short), "seq": JSON(g.seq)])
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
                             status: l["status"]?.string ?? "pending", afk: SpanCodec.decode(l["afk"]), day: l["day"]?.string.flatMap(Day.parse))
        case "grant":
            guard let id = l["id"]?.string, let c = l["child"]?.string, let d = l["day"]?.string.flatMap(Day.parse) else { throw .data("bad snapshot line") }
            let until = l["claim_until"]?.int.map { Instant(ms: $0) }
            // Snapshots before "delivery" say applied, or claimed, or failed.
            let state = l["delivery"]?.string.flatMap(DeliveryState.init(rawValue:))
                ?? (l["applied"]?.bool == true ? .delivered : until != nil ? .sending : ints("failures") > 0 ? .failed : .pending)
            grants[id] = Grant(id: id, child: c, minutes: ints("minutes"), points: ints("points"), app: l["app"]?.string, day: d,
                               void: l["void"]?.string, short: ints("short"), seq: ints("seq"), failures: ints("failures"),
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
