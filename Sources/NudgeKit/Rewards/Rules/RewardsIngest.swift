// The ingest pipeline, as rules over values: sessions as read (Raw,
// Intake), evaluated against the family's days, recorded as one usage_day
// event per child and day (DayBatch) and one flag per held session.
//
// Invariants: what a run comes to does not depend on the order of its
// input: sessions are put in order first, a session ingested before, held
// before or read twice counts once, and each day's reward-app time is
// evaluated before its learning time.

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

        mutating func child(_ name: String, in s: RewardsState) -> Int32? {
            if let i = childByName[name] { return i }
            guard let c = s.child(named: name) else { return nil }
            let i = children.firstIndex(of: c).map(Int32.init) ?? {
                children.append(c)
                return Int32(children.count - 1)
            }()
            childByName[name] = i
            return i
        }

        mutating func app(_ name: String) -> Int32 {
            if let i = appByName[name] { return i }
            let key = name.lowercased()
            let i = appByKey[key] ?? {
                apps.append(name)
                appKeys.append(key)
                appByKey[key] = Int32(apps.count - 1)
                return Int32(apps.count - 1)
            }()
            appByName[name] = i
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

        init(child: String, day: Day) {
            self.child = child
            self.day = day
        }

        /// Sessions must come in order of start (then app, then end).
        mutating func add(app: String, key: String, category: RewardsEngine.Category?, _ o: RewardsEngine.Outcome, reason: String) {
            added += 1
            let span = o.session.span
            usage.sessions[key, default: []].append(span)
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
            recent.append(RewardsState.SessionLine(app: app, start: span.start, end: span.end, reason: reason, points: o.points))
            if recent.count > 5 { recent.removeFirst() }
        }

        /// The event, with the day's carry and units after this batch.
        func event(_ ledger: RewardsEngine.DayLedger) -> JSONObject {
            var e: JSONObject = ["type": "usage_day", "child": .string(child), "day": .string(day.description),
                                 "learning_s": .int(learningSeconds), "reward_s": .int(rewardSeconds), "points": JSON(points),
                                 "carry": .int(ledger.units), "recent": .array(recent.map(\.json))]
            if let u = ledger.total { e["units"] = .int(u) }
            usage.write(into: &e)
            if !unlearned.isEmpty { e["unlearned"] = SpanCodec.encode(unlearned) }
            return e
        }
    }

    /// Evaluates what a run read against the family's days, recording one
    /// usage_day event per child and day and one flag per held session.
    /// Returns the records to print: per day, and with `each` per session.
    static func evaluate(_ intake: Intake, tx: inout Transaction<RewardsState>, zone: Zone, now: Instant, byline: Byline,
                         each: Bool) -> [JSONObject] {
        let raws = inOrder(intake)
        let flagKeys = Set(tx.state.flags.values.map { "\($0.child)|\($0.app.lowercased())|\($0.span.start)|\($0.span.end)" })
        let apps = intake.appKeys.map { tx.state.apps[$0] }
        var days = LocalDays(zone: zone)
        var out: [JSONObject] = []
        var i = 0
        while i < raws.count {
            let ci = raws[i].child
            let day = days.day(of: raws[i].start)
            var j = i + 1
            while j < raws.count && raws[j].child == ci && days.day(of: raws[j].start) == day { j += 1 }
            out += evaluateDay(Array(raws[i..<j]), child: intake.children[Int(ci)], day: day, afk: intake.afk[ci] ?? [], intake: intake,
                               apps: apps, flagKeys: flagKeys, tx: &tx, zone: zone, now: now, byline: byline, each: each)
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

    /// One child's sessions of one day, in order: duplicates set aside,
    /// reward-app time evaluated before learning time (so that learning
    /// under a reward app earns nothing whatever the order of starts), held
    /// sessions flagged, the rest recorded as one usage_day event. Returns
    /// the day's record, after each session's with `each`.
    static func evaluateDay(_ raws: [Raw], child: RewardsState.Child, day: Day, afk: [RewardsEngine.Span], intake: Intake,
                            apps: [RewardsState.App?], flagKeys: Set<String>, tx: inout Transaction<RewardsState>, zone: Zone,
                            now: Instant, byline: Byline, each: Bool) -> [JSONObject] {
        tx.state.materialize(child.id, day)
        let seen = tx.state.usageDay(child.id, day)
        var ledger = tx.state.ledger(child.id, day)
        let set = tx.state.settings(for: child.id)
        let dups = duplicates(raws, child: child.id, seen: seen, intake: intake, apps: apps, flagKeys: flagKeys)
        let hasReward = dups.hasReward
        var outcomes = dups.outcomes
        let (runOf, runs) = sessionRuns(raws, outcomes, seen: seen, intake: intake, settings: set, now: now.seconds)
        for pass in (hasReward ? [true, false] : [false]) {
            for k in raws.indices where outcomes[k] == nil {
                let r = raws[k]
                let app = apps[Int(r.app)]
                if hasReward && (app?.category == .reward) != pass { continue }
                let session = RewardsEngine.Session(child: child.id, app: intake.apps[Int(r.app)], span: RewardsEngine.Span(r.start, r.end))
                let run = runOf[k].map { runs[$0] }
                outcomes[k] = RewardsEngine.evaluate(session, category: app?.category, rate: app?.pointsPerHour ?? set.pointsPerHour,
                                                     afk: afk, day: &ledger, settings: set, now: now.seconds,
                                                     run: run?.all ?? [], judged: run?.judged ?? [])
            }
        }
        var out: [JSONObject] = []
        var batch = DayBatch(child: child.id, day: day)
        var reasons: [(String, Int)] = []  // few, so a list beats hashing each session's
        var held = 0
        for (r, o) in zip(raws, outcomes.map { $0! }) {
            let span = RewardsEngine.Span(r.start, r.end)
            let name = intake.apps[Int(r.app)]
            var flagID: String? = nil
            if o.reason == "duplicate" {
                // counted above
            } else if o.held {
                let id = IDs.make()
                flagID = id
                held += 1
                var flag: JSONObject = ["type": "flag", "id": .string(id), "child": .string(child.id), "app": .string(name),
                                        "start": .int(r.start), "end": .int(r.end), "reason": .string(o.reason), "day": .string(day.description)]
                let away = RewardsEngine.intersectSorted(span, afk)
                if !away.isEmpty { flag["afk"] = SpanCodec.encode(away) }
                tx.record(byline(flag))
                out.append(["type": "flag", "id": .string(id), "child": .string(child.name), "child_id": .string(child.id),
                            "app": .string(name), "start": .string(zone.format(Instant(seconds: r.start))),
                            "end": .string(zone.format(Instant(seconds: r.end))), "reason": .string(o.reason)])
            } else {
                batch.add(app: name, key: intake.appKeys[Int(r.app)], category: apps[Int(r.app)]?.category, o, reason: o.reason)
            }
            if let n = reasons.firstIndex(where: { $0.0 == o.reason }) { reasons[n].1 += 1 } else { reasons.append((o.reason, 1)) }
            if each {
                var rec: JSONObject = ["type": "session", "child": .string(child.name), "child_id": .string(child.id), "app": .string(name),
                                       "date": .string(day.description), "start": .string(zone.format(Instant(seconds: r.start))),
                                       "end": .string(zone.format(Instant(seconds: r.end))), "reason": .string(o.reason),
                                       "learning_s": .int(o.learningSeconds), "reward_s": .int(o.rewardSeconds), "points": JSON(o.points)]
                if let f = flagID { rec["held"] = true; rec["flag"] = .string(f) }
                out.append(rec)
            }
        }
        if batch.added > 0 { tx.record(byline(batch.event(ledger))) }
        reasons.sort { $0.0 < $1.0 }
        out.append(["type": "day", "child": .string(child.name), "child_id": .string(child.id), "date": .string(day.description),
                    "sessions": JSON(raws.count), "added": JSON(batch.added), "duplicates": JSON(dups.count), "held": JSON(held),
                    "reasons": .object(JSONObject(parsedKeys: reasons.map(\.0), values: reasons.map { JSON($0.1) })),
                    "learning_s": .int(batch.learningSeconds), "reward_s": .int(batch.rewardSeconds), "points": JSON(batch.points),
                    "points_today": JSON(tx.state.totals(child.id, day).points)])
        return out
    }

    /// The sessions of one child's day that count nothing: ingested before,
    /// held before, or twice in this run (side by side, as `inOrder` puts
    /// them); the outcome of each (nil: still to evaluate), how many, and
    /// whether a reward app's session is among the others.
    static func duplicates(_ raws: [Raw], child: String, seen: RewardsState.UsageDay, intake: Intake, apps: [RewardsState.App?],
                           flagKeys: Set<String>) -> (outcomes: [RewardsEngine.Outcome?], count: Int, hasReward: Bool) {
        var outcomes = [RewardsEngine.Outcome?](repeating: nil, count: raws.count)
        var dups = 0
        var hasReward = false
        for (k, r) in raws.enumerated() {
            let span = RewardsEngine.Span(r.start, r.end)
            let session = RewardsEngine.Session(child: child, app: intake.apps[Int(r.app)], span: span)
            if (k > 0 && raws[k - 1].app == r.app && raws[k - 1].start == r.start && raws[k - 1].end == r.end)
                || seen.hasSession(app: intake.appKeys[Int(r.app)], span) || (!flagKeys.isEmpty && flagKeys.contains(session.key)) {
                outcomes[k] = RewardsEngine.Outcome(session: session, category: apps[Int(r.app)]?.category, reason: "duplicate",
                                                    learningSeconds: 0, rewardSeconds: 0, points: 0, counted: [])
                dups += 1
            } else if apps[Int(r.app)]?.category == .reward {
                hasReward = true
            }
        }
        return (outcomes, dups, hasReward)
    }

    /// Runs of one app's sessions (merge_gap_seconds apart, this run's and
    /// those ingested before) for the minimum-session rule: for each session
    /// still to evaluate (by index) the run it is in, if any.
    static func sessionRuns(_ raws: [Raw], _ outcomes: [RewardsEngine.Outcome?], seen: RewardsState.UsageDay, intake: Intake,
                            settings set: RewardsEngine.Settings, now: Int64)
        -> (runOf: [Int: Int], runs: [(all: [RewardsEngine.Span], judged: [RewardsEngine.Span])]) {
        var runOf: [Int: Int] = [:]
        var runs: [(all: [RewardsEngine.Span], judged: [RewardsEngine.Span])] = []
        guard set.mergeGapSeconds > 0 && set.minSessionMinutes > 0 else { return (runOf, runs) }
        var byApp: [Int32: [Int]] = [:]
        for k in raws.indices where outcomes[k] == nil
            && RewardsEngine.eligible(RewardsEngine.Span(raws[k].start, raws[k].end), settings: set, now: now) {
            byApp[raws[k].app, default: []].append(k)
        }
        for (app, ks) in byApp {
            let judged = (seen.sessions[intake.appKeys[Int(app)]] ?? []).filter { RewardsEngine.eligible($0, settings: set, now: now) }
            if ks.count + judged.count < 2 { continue }
            let before = Set(judged)
            var at: [RewardsEngine.Span: Int] = [:]
            for r in RewardsEngine.runs(ks.map { RewardsEngine.Span(raws[$0].start, raws[$0].end) } + judged, gap: Int64(set.mergeGapSeconds))
            where r.count > 1 {
                for x in r { at[x] = runs.count }
                runs.append((r, r.filter(before.contains)))
            }
            for k in ks { if let n = at[RewardsEngine.Span(raws[k].start, raws[k].end)] { runOf[k] = n } }
        }
        return (runOf, runs)
    }

    static let sessionFields: [[UInt8]] = ["child", "app", "start", "end", "duration_s"].map { Array($0.utf8) }

    /// One session record's fields (child, app, start, end, duration_s, as
    /// `sessionFields` reads them), each checked: a missing field, a field of
    /// the wrong type and an implausible time (`Clock.instant`) are named.
    static func readSession(_ f: [JSON?], hint: String, zone: Zone, now: Instant) throws(ToolError)
        -> (child: String, app: String, start: Instant, end: Instant) {
        func string(_ v: JSON?, _ key: String) throws(ToolError) -> String {
            guard let v = v, !v.isNull else { throw .data("missing \"\(key)\"; \(hint)") }
            guard let s = v.string else { throw .data("\"\(key)\" must be a string, not \(v.kindName)") }
            guard !s.trimmingSpaces.isEmpty else { throw .data("\"\(key)\" must not be empty") }
            return s
        }
        let child = try string(f[0], "child")
        let app = try string(f[1], "app")
        guard let sj = f[2], !sj.isNull else { throw .data("missing \"start\"; \(hint)") }
        let start = try Clock.instant(sj, field: "\"start\"", zone: zone, now: now).get()
        let end: Instant
        if let ej = f[3], !ej.isNull {
            end = try Clock.instant(ej, field: "\"end\"", zone: zone, now: now).get()
        } else if let dj = f[4], !dj.isNull {
            guard let d = dj.double else { throw .data("\"duration_s\" must be a number, not \(dj.kindName)") }
            guard d >= 0, d < 1e9 else { throw .data("\"duration_s\" must be 0 to 999999999 seconds") }
            end = Instant(ms: start.ms + Int64(d * 1000))
            if let e = Clock.plausible(end, now: now, what: "\"end\" (\"start\" + \"duration_s\")", zone: zone) { throw e }
        } else {
            throw .data("missing \"end\" (or \"duration_s\"); \(hint)")
        }
        guard end >= start else { throw .data("\"end\" must not be before \"start\"") }
        return (child, app, start, end)
    }

    /// Counts an approved held session as if plausible (limits, overlap and
    /// the away time ingest saw still apply), recording its day; returns the
    /// points it earned.
    static func countApproved(_ f: RewardsState.Flag, tx: inout Transaction<RewardsState>, zone: Zone, now: Instant, byline: Byline) -> Int {
        let day = zone.day(of: Instant(seconds: f.span.start))
        var set = tx.state.settings(for: f.child)
        try? set.set("max_session_minutes", "1440")
        try? set.set("max_session_age_days", "3650")  // held when fresh; a parent's decision stands
        let app = tx.state.apps[f.app.lowercased()]
        let s = RewardsEngine.Session(child: f.child, app: f.app, span: f.span)
        tx.state.materialize(f.child, day)
        var ledger = tx.state.ledger(f.child, day)
        let o = RewardsEngine.evaluate(s, category: app?.category, rate: app?.pointsPerHour ?? set.pointsPerHour, afk: f.afk,
                                       day: &ledger, settings: set, now: max(now.seconds, f.span.end))
        var batch = DayBatch(child: f.child, day: day)
        batch.add(app: f.app, key: f.app.lowercased(), category: app?.category, o, reason: o.held ? "approved" : o.reason)
        tx.record(byline(batch.event(ledger)))
        return o.points
    }
}
