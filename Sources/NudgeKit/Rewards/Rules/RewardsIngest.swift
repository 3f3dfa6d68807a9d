// The ingest pipeline, as rules over values: sessions as read (Raw,
// Intake), put in order, and journalled as facts: per child and day, one
// `sessions` event with the sessions this copy has not counted or held
// before. The fold evaluates them (Model/RewardsFacts.swift); what it came
// to is read back for the records ingest prints. `DayBatch` is what a fold
// adds to one child's day (and, as `event`, the usage_day event stores
// written before facts hold).
//
// Invariants: what a run comes to does not depend on the order of its
// input: sessions are put in order first, a session ingested before, held
// before or read twice counts once, and each day's reward-app time is
// evaluated before its learning time (the fold's rules).

extension Rewards {
    /// A session as read, before evaluation: child and app are indexes into
    /// the run's tables, so that a million of them stay small.
    struct Raw { var child: Int32; var app: Int32; var start: Int64; var end: Int64 }

    /// What a run read: sessions, away spans, and the names they use.
    struct Intake {
        var children: [RewardsState.Child] = []
        var childByName: [String: Int32] = [:]
        var apps: [String] = []  // as first written
        var appKeys: [String] = []  // lower-cased: the app's identity
        var appByName: [String: Int32] = [:]
        var appByKey: [String: Int32] = [:]
        var raws: [Raw] = []
        var afk: [Int32: [RewardsEngine.Span]] = [:]
        /// The first few names as written, looked through before hashing:
        /// a family has a few children and apps, and comparing a short name
        /// costs less than hashing it, once a line.
        var fewChildren: [(String, Int32)] = []
        var fewApps: [(String, Int32)] = []
        /// The same as bytes, for names compared where a line holds them.
        var fewChildBytes: [([UInt8], Int32)] = []
        var fewAppBytes: [([UInt8], Int32)] = []

        /// A name's index among the few seen before, by its bytes.
        static func few(_ u: UnsafeRawBufferPointer, _ list: [([UInt8], Int32)]) -> Int32? {
            for (n, i) in list where n.count == u.count && n.withUnsafeBytes({ memcmp($0.baseAddress!, u.baseAddress!, u.count) == 0 }) {
                return i
            }
            return nil
        }

        mutating func child(_ name: LineName, in s: RewardsState) -> Int32? {
            switch name {
            case .text(let u): return Intake.few(u, fewChildBytes) ?? child(name.string, in: s)
            case .string(let n): return child(n, in: s)
            }
        }

        mutating func app(_ name: LineName) -> Int32 {
            switch name {
            case .text(let u): return Intake.few(u, fewAppBytes) ?? app(name.string)
            case .string(let n): return app(n)
            }
        }

        mutating func child(_ name: String, in s: RewardsState) -> Int32? {
            for (n, i) in fewChildren where n == name { return i }
            if let i = childByName[name] { return i }
            guard let c = s.child(named: name) else { return nil }
            let i = children.firstIndex(of: c).map(Int32.init) ?? {
                children.append(c)
                return Int32(children.count - 1)
            }()
            childByName[name] = i
            if fewChildren.count < 8 {
                fewChildren.append((name, i))
                fewChildBytes.append((Array(name.utf8), i))
            }
            return i
        }

        mutating func app(_ name: String) -> Int32 {
            for (n, i) in fewApps where n == name { return i }
            if let i = appByName[name] { return i }
            let key = name.lowercased()
            let i = appByKey[key] ?? {
                apps.append(name)
                appKeys.append(key)
                appByKey[key] = Int32(apps.count - 1)
                return Int32(apps.count - 1)
            }()
            appByName[name] = i
            if fewApps.count < 16 {
                fewApps.append((name, i))
                fewAppBytes.append((Array(name.utf8), i))
            }
            return i
        }
    }

    /// What one run adds to one child's day: built session by session,
    /// recorded as one usage_day event.
    struct DayBatch {
        let child: String
        let day: Day
        var usage = RewardsState.UsageDay()
        var recent: [RewardsState.SessionLine] = []
        /// Learning time counted before that this batch takes back.
        var unlearned: [RewardsEngine.Span] = []
        var learningSeconds: Int64 = 0
        var rewardSeconds: Int64 = 0
        var points = 0
        var added = 0
        /// Where each app's session list is in `usage.sessions`, by its
        /// key: a day has a few apps, and comparing a short key costs less
        /// than hashing it once a session (windows switch apps all day, so
        /// remembering only the last one seldom helps). Emptied when a key
        /// is added, which may move the others.
        private var places: [(key: String, at: Dictionary<String, [RewardsEngine.Span]>.Index)] = []

        init(child: String, day: Day) {
            self.child = child
            self.day = day
        }

        /// Sessions must come in order of start (then app, then end).
        mutating func add(app: String, key: String, category: RewardsEngine.Category?, _ o: RewardsEngine.Outcome, reason: String) {
            added += 1
            let span = o.session.span
            if let p = places.first(where: { $0.key == key }) {
                usage.sessions.values[p.at].append(span)
            } else {
                if usage.sessions[key] == nil {
                    usage.sessions[key] = []
                    places.removeAll()
                }
                let at = usage.sessions.index(forKey: key)!
                usage.sessions.values[at].append(span)
                if places.count < 16 { places.append((key, at)) }
            }
            if category == .reward {
                for f in o.counted { RewardsEngine.insertMerged(&usage.rewarded, f) }
                for f in o.uncounted {
                    RewardsEngine.insertMerged(&unlearned, f)
                    RewardsEngine.removeMerged(&usage.learned, f)
                    for r in usage.rated.keys {
                        RewardsEngine.removeMerged(&usage.rated[r]!, f)
                        if usage.rated[r]!.isEmpty { usage.rated[r] = nil }
                    }
                }
            } else {
                for f in o.counted {
                    RewardsEngine.insertMerged(&usage.learned, f)
                    RewardsEngine.insertMerged(&usage.rated[o.rate, default: []], f)
                }
            }
            learningSeconds += o.learningSeconds
            rewardSeconds += o.rewardSeconds
            points += o.points
            var a = RewardsState.AppDay(app: app, category: category?.rawValue)
            a.sessions = 1
            a.learningSeconds = o.learningSeconds
            a.rewardSeconds = o.rewardSeconds
            a.points = o.points
            a.otherSeconds = o.otherSeconds
            usage.addApp(a)
            // The last five are what count (`lastFive`); trimmed now and then, not per session.
            if recent.count >= 64 { recent.removeFirst(recent.count - 5) }
            recent.append(RewardsState.SessionLine(app: app, start: span.start, end: span.end, reason: reason, points: o.points))
        }

        /// The batch's last five sessions, in the order added.
        var lastFive: [RewardsState.SessionLine] { Array(recent.suffix(5)) }

        /// The event, with the day's carry and units after this batch.
        func event(_ ledger: RewardsEngine.DayLedger) -> JSONObject {
            var e: JSONObject = ["type": "usage_day", "child": .string(child), "day": .string(day.description),
                                 "learning_s": .int(learningSeconds), "reward_s": .int(rewardSeconds), "points": JSON(points),
                                 "carry": .int(ledger.units), "recent": .array(lastFive.map(\.json))]
            if let u = ledger.total { e["units"] = .int(u) }
            usage.write(into: &e)
            if !unlearned.isEmpty { e["unlearned"] = SpanCodec.encode(unlearned) }
            return e
        }
    }

    /// Journals what a run read, one `sessions` event per child and day,
    /// and returns the records to print: per day, and with `each` per
    /// session, as the fold came to them. `source` says where the sessions
    /// were read (ndjson, activitywatch, enforce).
    static func evaluate(_ intake: Intake, tx: inout Transaction<RewardsState>, zone: Zone, source: String, byline: Byline,
                         each: Bool) -> [JSONObject] {
        let raws = inOrder(intake)
        var days = LocalDays(zone: zone)
        var out: [JSONObject] = []
        var i = 0
        while i < raws.count {
            let ci = raws[i].child
            let day = days.day(of: raws[i].start)
            var j = i + 1
            while j < raws.count && raws[j].child == ci && days.day(of: raws[j].start) == day { j += 1 }
            out += recordDay(raws[i..<j], child: intake.children[Int(ci)], day: day, afk: intake.afk[ci] ?? [], intake: intake,
                             source: source, tx: &tx, zone: zone, byline: byline, each: each)
            i = j
        }
        return out
    }

    /// The sessions in order of child, start, app (by name), end: each
    /// child's days are runs, and the same session twice is side by side.
    static func inOrder(_ intake: Intake) -> [Raw] {
        let rank = intake.appKeys.indices.sorted { intake.appKeys[$0] < intake.appKeys[$1] }
        var rankOf = [Int32](repeating: 0, count: intake.appKeys.count)
        for (r, i) in rank.enumerated() { rankOf[i] = Int32(r) }
        func before(_ a: Raw, _ b: Raw) -> Bool {
            (a.child, a.start, rankOf[Int(a.app)], a.end) < (b.child, b.start, rankOf[Int(b.app)], b.end)
        }
        var byChild = [[Raw]](repeating: [], count: intake.children.count)
        for r in intake.raws { byChild[Int(r.child)].append(r) }
        for c in byChild.indices where zip(byChild[c], byChild[c].dropFirst()).contains(where: { before($1, $0) }) {
            byChild[c].sort(by: before)
        }
        return byChild.flatMap { $0 }
    }

    /// The local day of a time, remembered per hour where the zone's
    /// offset is whole hours (such zones change day on the hour).
    struct LocalDays {
        let zone: Zone
        var dayOfHour: [Int64: Day] = [:]

        init(zone: Zone) { self.zone = zone }

        mutating func day(of t: Int64) -> Day {
            let hour = t >= 0 ? t / 3600 : (t - 3599) / 3600
            if let d = dayOfHour[hour] { return d }
            let d = zone.day(of: Instant(seconds: t))
            if zone.offset(at: Instant(seconds: t)) % 3600 == 0 && zone.offset(at: Instant(seconds: hour * 3600 + 3599)) % 3600 == 0 {
                dayOfHour[hour] = d
            }
            return d
        }
    }

    /// One child's sessions of one day, in order: those this copy counted
    /// or held before are duplicates and journal nothing; the others are
    /// recorded as one `sessions` event (with the away time around them),
    /// which the fold evaluates. Returns the day's record, after each
    /// session's with `each`, and a record per session held for review.
    static func recordDay(_ raws: ArraySlice<Raw>, child: RewardsState.Child, day: Day, afk: [RewardsEngine.Span], intake: Intake,
                          source: String, tx: inout Transaction<RewardsState>, zone: Zone, byline: Byline, each: Bool) -> [JSONObject] {
        _ = tx.state.loadCold(child.id, day)  // (if it cannot, the fold says so: the change begins again in full)
        tx.state.materialize(child.id, day)
        let seen = tx.state.usageDay(child.id, day)
        let flagged: Set<String> = tx.state.flags.isEmpty ? [] : Set(tx.state.flags.values.lazy.filter { $0.child == child.id }
            .map { "\($0.app.lowercased())|\($0.span.start)|\($0.span.end)" })
        var facts = SessionFacts(child: child.id, day: day, source: source)
        var known = [Bool](repeating: false, count: raws.count)
        var index: [Int32: Int] = [:]
        var extent = RewardsEngine.Span(Int64.max, Int64.min)
        // The day's sessions per app of the run (by index), looked up once.
        let seenOf = intake.appKeys.map { seen.sessions[$0] ?? [] }
        for (k, r) in raws.enumerated() {
            let span = RewardsEngine.Span(r.start, r.end)
            if RewardsEngine.containsSorted(seenOf[Int(r.app)], span)
                || (!flagged.isEmpty && flagged.contains("\(intake.appKeys[Int(r.app)])|\(r.start)|\(r.end)")) {
                known[k] = true
                continue
            }
            let a = index[r.app] ?? {
                facts.apps.append(intake.apps[Int(r.app)])
                index[r.app] = facts.apps.count - 1
                return facts.apps.count - 1
            }()
            facts.sessions.append((a, span))
            extent = RewardsEngine.Span(min(extent.start, r.start), max(extent.end, r.end))
        }
        var fold = RewardsState.FoldedDay()
        if !facts.sessions.isEmpty {
            facts.afk = RewardsEngine.intersectSorted(extent, afk)
            // Never more than `sessionsPerEvent` in one event: a day past it is split.
            let all = facts.sessions
            var from = 0
            while from < all.count {
                let to = min(from + sessionsPerEvent, all.count)
                facts.sessions = Array(all[from..<to])
                tx.record(byline(facts.event()))
                if let f = tx.state.lastFold {
                    tx.state.lastFold = nil  // (so that its lines are moved, not copied)
                    fold.absorb(f)
                }
                from = to
            }
        }
        var out: [JSONObject] = []
        var reasons: [(String, Int)] = []  // few, so a list beats hashing each session's
        var next = 0  // the fold's next line
        let duplicate = RewardsState.FoldedDay.Line(reason: "duplicate")
        for (k, r) in raws.enumerated() {
            // What the fold came to, or (journalled before) a duplicate.
            let fresh = !known[k] && next < fold.lines.count
            if fresh { next += 1 }
            let o = fresh ? fold.lines[next - 1] : duplicate
            if let n = reasons.firstIndex(where: { $0.0 == o.reason }) { reasons[n].1 += 1 } else { reasons.append((o.reason, 1)) }
            guard o.flag != nil || each else { continue }
            let name = intake.apps[Int(r.app)]
            if let id = o.flag {
                out.append(["type": "flag", "id": .string(id), "child": .string(child.name), "child_id": .string(child.id),
                            "app": .string(name), "start": .string(zone.format(Instant(seconds: r.start))),
                            "end": .string(zone.format(Instant(seconds: r.end))), "reason": .string(o.reason)])
            }
            if each {
                var rec: JSONObject = ["type": "session", "child": .string(child.name), "child_id": .string(child.id), "app": .string(name),
                                       "date": .string(day.description), "start": .string(zone.format(Instant(seconds: r.start))),
                                       "end": .string(zone.format(Instant(seconds: r.end))), "reason": .string(o.reason),
                                       "learning_s": .int(o.learningSeconds), "reward_s": .int(o.rewardSeconds), "points": JSON(o.points)]
                if let f = o.flag { rec["held"] = true; rec["flag"] = .string(f) }
                out.append(rec)
            }
        }
        reasons.sort { $0.0 < $1.0 }
        out.append(["type": "day", "child": .string(child.name), "child_id": .string(child.id), "date": .string(day.description),
                    "sessions": JSON(raws.count), "added": JSON(fold.added), "duplicates": JSON(known.filter { $0 }.count + fold.duplicates),
                    "held": JSON(fold.held), "reasons": .object(JSONObject(parsedKeys: reasons.map(\.0), values: reasons.map { JSON($0.1) })),
                    "learning_s": .int(fold.learningSeconds), "reward_s": .int(fold.rewardSeconds), "points": JSON(fold.points),
                    "points_today": JSON(tx.state.totals(child.id, day).points)])
        return out
    }

    static let sessionFields: [[UInt8]] = ["child", "app", "start", "end", "duration_s"].map { Array($0.utf8) }

    /// One session record's fields (child, app, start, end, duration_s, as
    /// `sessionFields` reads them from `line`), each checked: a missing
    /// field, a field of the wrong type, an implausible time
    /// (`Clock.instant`) and a child the family does not have are named.
    /// Names and times written as plain ASCII are compared and parsed
    /// where they lie in the line (a String made only for a name not seen
    /// before): what a million sessions cost is mostly this.
    static func readSession(_ f: [ScannedField], line: UnsafeRawBufferPointer, intake: inout Intake, in state: RewardsState,
                            hint: String, zone: Zone, now: Instant) throws(ToolError) -> Raw {
        /// A name field: its text (not blank), or the string it holds.
        func name(_ v: ScannedField, _ key: String) throws(ToolError) -> LineName {
            switch v {
            case .text(let r):
                // Printable ASCII: blank only when all spaces.
                guard r.contains(where: { line[$0] != 0x20 }) else { throw .data("\"\(key)\" must not be empty") }
                return .text(UnsafeRawBufferPointer(rebasing: line[r]))
            case .absent: throw .data("missing \"\(key)\"; \(hint)")
            case .value(let v):
                guard !v.isNull else { throw .data("missing \"\(key)\"; \(hint)") }
                guard let s = v.string else { throw .data("\"\(key)\" must be a string, not \(v.kindName)") }
                // Not blank: at once when it starts with anything but a space (most names).
                let first = s.utf8.first ?? 0x20
                guard (first != 0x20 && first != 0x09 && first != 0x0A && first != 0x0D) || !s.trimmingSpaces.isEmpty else {
                    throw .data("\"\(key)\" must not be empty")
                }
                return .string(s)
            }
        }
        func time(_ v: ScannedField, _ field: String) throws(ToolError) -> Instant? {
            switch v {
            case .absent: return nil
            case .text(let r): return try Clock.instant(text: UnsafeRawBufferPointer(rebasing: line[r]), field: field, zone: zone, now: now).get()
            case .value(let j): return j.isNull ? nil : try Clock.instant(j, field: field, zone: zone, now: now).get()
            }
        }
        let child = try name(f[0], "child")
        let app = try name(f[1], "app")
        guard let start = try time(f[2], "\"start\"") else { throw .data("missing \"start\"; \(hint)") }
        let end: Instant
        if let e = try time(f[3], "\"end\"") {
            end = e
        } else if let dj = f[4].json(in: line), !dj.isNull {
            guard let d = dj.double else { throw .data("\"duration_s\" must be a number, not \(dj.kindName)") }
            guard d >= 0, d < 1e9 else { throw .data("\"duration_s\" must be 0 to 999999999 seconds") }
            end = Instant(ms: start.ms + Int64(d * 1000))
            if let e = Clock.plausible(end, now: now, what: "\"end\" (\"start\" + \"duration_s\")", zone: zone) { throw e }
        } else {
            throw .data("missing \"end\" (or \"duration_s\"); \(hint)")
        }
        guard end >= start else { throw .data("\"end\" must not be before \"start\"") }
        guard let ci = intake.child(child, in: state) else {
            throw .data("no child named '\(child.string)'; 'rewards child list' shows them")
        }
        return Raw(child: ci, app: intake.app(app), start: start.seconds, end: end.seconds)
    }

    /// A name as a line holds it: its bytes, or (escaped, not ASCII) the string.
    enum LineName {
        case text(UnsafeRawBufferPointer)
        case string(String)

        var string: String {
            switch self {
            case .text(let u): return String(decoding: u, as: UTF8.self)
            case .string(let s): return s
            }
        }
    }
}
