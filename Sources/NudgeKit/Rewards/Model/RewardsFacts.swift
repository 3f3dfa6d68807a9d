// Usage as observed, and the fold that counts it. An ingest journals what it
// saw: one `sessions` event per child and day, holding each session (app,
// start, end), the away time around them and where they came from. Whatever
// a session comes to (a duplicate, points, the daily cap, the minimum
// session and its run, held for review, reward time taking learning back)
// is computed here, from the facts, in stamp order, with the batch's stamp
// as "now", so that every copy holding the same events comes to the same
// state, whichever device ingested what and how often.
//
// Invariants: a session (child, app by its lower-cased name, start, end)
// counts once however many facts hold it; overlapping sessions count their
// union once (the engine's spans); a held session's flag id is a function
// of the session, so a parent's decision applies on every copy; a session
// a usage_day event counted (a store written before facts) is in that
// day's `sessions` and counts nothing again. Folding a fact needs the cold
// part of its day and the days either side: a state read without it loads
// them by the snapshot's index (`loadCold`), or, when it cannot, notes that
// (`needsFull`), folds nothing, and its reader reads again in full.

extension Rewards {
    /// The most sessions one `sessions` event may hold. A real day cannot
    /// come near it: 20,000 sessions of one child in one day is a new
    /// session every 4.3 seconds around the clock (a busy day of window
    /// switches is a few thousand). Ingest never writes more in one event
    /// (a day past it, from a broken or hostile export, is split across
    /// events); an event holding more was not written by ingest, and counts
    /// for nothing whole (a conflict told to the parents) rather than its
    /// first part: what it would count is made up, and folding it costs
    /// every copy (a planted day of 200,000 one-second sessions took
    /// minutes to fold).
    static let sessionsPerEvent = 20_000

    /// One child's sessions of one day as an ingest saw them: the event's
    /// sessions are [app index, start, length] triples, the start as the
    /// distance from the previous one (the first in seconds since the
    /// epoch), sorted by start; `afk` the away spans around them (SpanCodec).
    struct SessionFacts {
        var child: String
        var day: Day
        var source: String?
        var apps: [String] = []
        var sessions: [(app: Int, span: RewardsEngine.Span)] = []
        var afk: [RewardsEngine.Span] = []

        init(child: String, day: Day, source: String?) {
            self.child = child
            self.day = day
            self.source = source
        }

        /// The facts in an event, or nil for anything malformed.
        init?(_ e: JSONObject) {
            guard let c = e["child"]?.string, let d = e["day"]?.string.flatMap(Day.parse), let names = e["apps"]?.array,
                  let flat = e["s"]?.array, flat.count % 3 == 0 else { return nil }
            child = c
            day = d
            source = e["source"]?.string
            for n in names {
                guard let s = n.string else { return nil }
                apps.append(s)
            }
            sessions.reserveCapacity(flat.count / 3)
            // Every start within a day of the day named (whatever the zone
            // that named it), so that a session is looked for on that day and
            // its neighbours only; values bounded so that no sum overflows.
            let first = Int64(d.daysSinceEpoch - 1) * 86_400, last = Int64(d.daysSinceEpoch + 2) * 86_400
            var start: Int64 = 0
            var i = 0
            while i < flat.count {
                guard let a = flat[i].int, a >= 0, a < Int64(apps.count), let ds = flat[i + 1].int, let len = flat[i + 2].int,
                      len >= 0, len <= SpanCodec.bound, i == 0 || ds >= 0, (-SpanCodec.bound...SpanCodec.bound).contains(ds) else { return nil }
                start = i == 0 ? ds : start + ds
                guard start >= first, start < last else { return nil }
                sessions.append((Int(a), RewardsEngine.Span(start, start + len)))
                i += 3
            }
            afk = SpanCodec.decode(e["afk"])
        }

        func event() -> JSONObject {
            var flat: [JSON] = []
            flat.reserveCapacity(sessions.count * 3)
            var prev: Int64 = 0
            for (n, s) in sessions.enumerated() {
                flat.append(.int(Int64(s.app)))
                flat.append(.int(n == 0 ? s.span.start : s.span.start - prev))
                flat.append(.int(s.span.seconds))
                prev = s.span.start
            }
            var e: JSONObject = ["type": "sessions", "child": .string(child), "day": .string(day.description),
                                 "apps": .array(apps.map(JSON.string)), "s": .array(flat)]
            if !afk.isEmpty { e["afk"] = SpanCodec.encode(afk) }
            if let s = source { e["source"] = .string(s) }
            return e
        }
    }
}

extension RewardsState {
    /// What the last fact (or approval) folded came to, session by session
    /// in the order folded: for the command that recorded it to print.
    /// Not kept, not in the snapshot.
    public struct FoldedDay {
        /// What one session came to: what a command prints of it (the
        /// outcome's figures, not its spans: a day of a thousand sessions is
        /// copied and dropped once, not with every span it counted).
        public struct Line {
            public var reason: String
            public var learningSeconds: Int64 = 0
            public var rewardSeconds: Int64 = 0
            public var points = 0
            public var flag: String? = nil

            init(_ o: RewardsEngine.Outcome, flag: String?) {
                reason = o.reason
                learningSeconds = o.learningSeconds
                rewardSeconds = o.rewardSeconds
                points = o.points
                self.flag = flag
            }

            init(reason: String) { self.reason = reason }
        }
        public var lines: [Line] = []
        public var added = 0, duplicates = 0, held = 0
        public var learningSeconds: Int64 = 0, rewardSeconds: Int64 = 0, points = 0

        /// Adds what a later part of the same day came to.
        mutating func absorb(_ o: FoldedDay) {
            if lines.isEmpty { lines = o.lines } else { lines += o.lines }
            added += o.added
            duplicates += o.duplicates
            held += o.held
            learningSeconds += o.learningSeconds
            rewardSeconds += o.rewardSeconds
            points += o.points
        }
    }

    /// A held session's flag id: the same on every copy.
    static func flagID(child: String, key: String, _ s: RewardsEngine.Span) -> String {
        IDs.stable("flag|\(child)|\(key)|\(s.start)|\(s.end)")
    }

    /// Folds one `sessions` event: each session not counted before is
    /// evaluated against the day so far (reward-app time first, so that
    /// learning under a reward app earns nothing whatever the order of
    /// starts), held ones flagged, the rest added to the day.
    mutating func applySessions(_ e: JSONObject, stamp: Stamp) {
        lastFold = nil
        if let n = e["s"]?.array?.count, n / 3 > Rewards.sessionsPerEvent {
            let c = e["child"]?.string ?? "?"
            noteChange(stamp, RewardsState.author(e), "a sessions event for \(children[c]?.name ?? c) on \(e["day"]?.string ?? "?") holds \(n / 3) sessions, more than the \(Rewards.sessionsPerEvent) an ingest writes in one: it counts for nothing", conflict: true)
            return
        }
        guard let f = Rewards.SessionFacts(e), !f.sessions.isEmpty else { return }
        let c = f.child, d = f.day
        // The day's cold part and its neighbours' (read by offset without the whole).
        guard loadCold(c, d.adding(days: -1)), loadCold(c, d), loadCold(c, d.adding(days: 1)) else { needsFull = true; return }
        // One index per app identity (lower-cased name), whatever the event's table holds.
        let keys = f.apps.map { $0.lowercased() }
        var first: [String: Int] = [:]
        let canon = keys.indices.map { (i: Int) -> Int in
            if let j = first[keys[i]] { return j }
            first[keys[i]] = i
            return i
        }
        var list = f.sessions.map { (app: canon[$0.app], span: $0.span) }
        func before(_ a: (app: Int, span: RewardsEngine.Span), _ b: (app: Int, span: RewardsEngine.Span)) -> Bool {
            a.span.start != b.span.start ? a.span.start < b.span.start : keys[a.app] != keys[b.app] ? keys[a.app] < keys[b.app] : a.span.end < b.span.end
        }
        if zip(list, list.dropFirst()).contains(where: { before($1, $0) }) { list.sort(by: before) }
        let now = stamp.ms > 0 ? stamp.ms / 1000 : list.map { $0.span.end }.max()!
        let afk = RewardsEngine.union(f.afk)
        materialize(c, d)
        let seen = usageDay(c, d)
        // A device in another zone names the session's day one either side.
        let neighbours = [d.adding(days: -1), d.adding(days: 1)].compactMap { n in
            usage[c]?[n] != nil || rawUsage[c]?[n] != nil ? usageDay(c, n) : nil
        }
        var ledger = self.ledger(c, d)
        let set = settings(for: c)
        // Per app of the event (by index), looked up once: its category and
        // rate, the sessions its day and the neighbours hold.
        let cats = keys.map { apps[$0]?.category }
        let rates = keys.map { apps[$0]?.pointsPerHour ?? set.pointsPerHour }
        let seenOf = keys.map { seen.sessions[$0] ?? [] }
        let nearOf = keys.map { k in neighbours.compactMap { $0.sessions[k] } }
        let flagged: Set<String> = flags.isEmpty ? [] : Set(flags.values.lazy.filter { $0.child == c }.map { "\($0.app.lowercased())|\($0.span.start)|\($0.span.end)" })
        // Duplicates: counted or held before, or twice in this event (side by side).
        var outcomes = [RewardsEngine.Outcome?](repeating: nil, count: list.count)
        var fold = FoldedDay()
        var hasReward = false
        for (k, x) in list.enumerated() {
            if (k > 0 && list[k - 1].app == x.app && list[k - 1].span == x.span) || RewardsEngine.containsSorted(seenOf[x.app], x.span)
                || (!nearOf[x.app].isEmpty && nearOf[x.app].contains { RewardsEngine.containsSorted($0, x.span) })
                || (!flagged.isEmpty && flagged.contains("\(keys[x.app])|\(x.span.start)|\(x.span.end)")) {
                outcomes[k] = RewardsEngine.Outcome(session: RewardsEngine.Session(child: c, app: f.apps[x.app], span: x.span),
                                                    category: cats[x.app], reason: "duplicate", learningSeconds: 0, rewardSeconds: 0,
                                                    points: 0, counted: [])
                fold.duplicates += 1
            } else if cats[x.app] == .reward {
                hasReward = true
            }
        }
        let (runOf, runs) = Rewards.sessionRuns(list, outcomes, seen: seen, keys: keys, settings: set, now: now)
        var runActive = [Int64?](repeating: nil, count: runs.count)  // per run: the same for each of its sessions
        for pass in (hasReward ? [true, false] : [false]) {
            for k in list.indices where outcomes[k] == nil {
                let x = list[k]
                let app = cats[x.app]
                if hasReward && (app == .reward) != pass { continue }
                let run = runOf[k].map { runs[$0] }
                if let n = runOf[k], runActive[n] == nil { runActive[n] = RewardsEngine.runActiveSeconds(runs[n].all, x.span, afk: afk) }
                outcomes[k] = RewardsEngine.evaluate(RewardsEngine.Session(child: c, app: f.apps[x.app], span: x.span), category: app,
                                                     rate: rates[x.app], afk: afk, day: &ledger, settings: set,
                                                     now: now, run: run?.all ?? [], judged: run?.judged ?? [], runActive: runOf[k].flatMap { runActive[$0] })
            }
        }
        var batch = Rewards.DayBatch(child: c, day: d)
        fold.lines.reserveCapacity(list.count)
        for (k, x) in list.enumerated() {
            let o = outcomes[k].take()!  // (moved out: not copied)
            let name = f.apps[x.app]
            var flagID: String? = nil
            if o.reason == "duplicate" {
                // counted above
            } else if o.held {
                let id = RewardsState.flagID(child: c, key: keys[x.app], x.span)
                flagID = id
                fold.held += 1
                flags[id] = Flag(id: id, child: c, app: name, span: x.span, reason: o.reason, status: "pending",
                                 afk: RewardsEngine.intersectSorted(x.span, afk), day: d)
            } else {
                batch.add(app: name, key: keys[x.app], category: cats[x.app], o, reason: o.reason)
            }
            fold.lines.append(FoldedDay.Line(o, flag: flagID))
        }
        addBatch(batch, ledger)
        fold.added = batch.added
        fold.learningSeconds = batch.learningSeconds
        fold.rewardSeconds = batch.rewardSeconds
        fold.points = batch.points
        lastFold = fold
    }

    /// A parent's decision on a held session; an approval recorded as
    /// counting ("count": true; before facts, a usage_day event followed
    /// it) counts the session as if plausible: limits, overlap and the away
    /// time ingest saw still apply. The first decision in stamp order
    /// stands, on every copy: two parents (or devices) deciding apart, one
    /// approving and one rejecting, meet as a conflict told to the parents,
    /// and the later one counts for nothing. The first is the one either
    /// copy could have acted on (an approval's points spent, a rejection
    /// told to the child); it is the rule for requests too, and it needs no
    /// undoing of points already counted.
    mutating func applyFlagDecision(_ e: JSONObject, stamp: Stamp, who: String) {
        lastFold = nil
        guard let id = e["id"]?.string, let decision = e["decision"]?.string, let f = flags[id] else { return }
        guard f.status == "pending" else {
            if f.status != decision {
                noteChange(stamp, who, "\(who)'s decision that a held \(f.app) session of \(children[f.child]?.name ?? f.child) is \(decision) does not count: it was \(f.status) first, and the first decision stands", conflict: true)
            }
            return
        }
        let counts = decision == "approved" && e["count"]?.bool == true
        flags[id]!.status = decision
        guard counts else { return }
        let day = e["day"]?.string.flatMap(Day.parse) ?? Zone.utc.day(of: Instant(seconds: f.span.start))
        guard loadCold(f.child, day) else { needsFull = true; return }
        var set = settings(for: f.child)
        try? set.set("max_session_minutes", "1440")
        try? set.set("max_session_age_days", "3650")  // held when fresh; a parent's decision stands
        let app = apps[f.app.lowercased()]
        materialize(f.child, day)
        var ledger = self.ledger(f.child, day)
        let now = max(stamp.ms / 1000, f.span.end)
        let o = RewardsEngine.evaluate(RewardsEngine.Session(child: f.child, app: f.app, span: f.span), category: app?.category,
                                       rate: app?.pointsPerHour ?? set.pointsPerHour, afk: f.afk, day: &ledger, settings: set, now: now)
        var batch = Rewards.DayBatch(child: f.child, day: day)
        batch.add(app: f.app, key: f.app.lowercased(), category: app?.category, o, reason: o.held ? "approved" : o.reason)
        addBatch(batch, ledger)
        var fold = FoldedDay()
        fold.lines = [FoldedDay.Line(o, flag: id)]
        fold.added = 1
        fold.points = batch.points
        lastFold = fold
    }

    /// Adds what a fold counted to the child's day: its totals and the
    /// day's ledger after it, the balance, the last sessions, the cold part.
    mutating func addBatch(_ b: Rewards.DayBatch, _ ledger: RewardsEngine.DayLedger) {
        guard b.added > 0 else { return }
        let c = b.child, d = b.day
        var t = totals(c, d)
        t.learningSeconds += b.learningSeconds
        t.rewardSeconds += b.rewardSeconds
        t.points += b.points
        t.carry = ledger.units
        if let u = ledger.total { t.units = u }
        days.set(c, d, t)
        balance[c, default: 0] += b.points
        earned[c, default: 0] += b.points
        addRecent(c, b.lastFive)
        // Changed where it lies (a copy would copy the day's every session).
        func add(_ u: inout UsageDay) {
            u.learned = ledger.counted
            u.rewarded = ledger.rewarded
            u.rated = ledger.rated
            for (k, more) in b.usage.sessions.sorted(by: { $0.key < $1.key }) {
                if u.sessions[k] == nil { u.sessions[k] = more } else { RewardsEngine.mergeSorted(&u.sessions[k]!, more) }
            }
            for a in b.usage.apps { u.addApp(a) }
        }
        add(&usage[c, default: [:]][d, default: UsageDay()])
    }
}

extension Rewards {
    /// Runs of one app's sessions (merge_gap_seconds apart, these and those
    /// counted before) for the minimum-session rule: for each session still
    /// to evaluate (by index) the run it is in, if any. `list` is sorted by
    /// start, its apps indexes into `keys` (one per identity).
    static func sessionRuns(_ list: [(app: Int, span: RewardsEngine.Span)], _ outcomes: [RewardsEngine.Outcome?], seen: RewardsState.UsageDay,
                            keys: [String], settings set: RewardsEngine.Settings, now: Int64)
        -> (runOf: [Int: Int], runs: [(all: [RewardsEngine.Span], judged: [RewardsEngine.Span])]) {
        var runOf: [Int: Int] = [:]
        var runs: [(all: [RewardsEngine.Span], judged: [RewardsEngine.Span])] = []
        guard set.mergeGapSeconds > 0 && set.minSessionMinutes > 0 else { return (runOf, runs) }
        var byApp: [Int: [Int]] = [:]
        for k in list.indices where outcomes[k] == nil && RewardsEngine.eligible(list[k].span, settings: set, now: now) {
            byApp[list[k].app, default: []].append(k)
        }
        for app in byApp.keys.sorted() {
            let ks = byApp[app]!
            let judged = (seen.sessions[keys[app]] ?? []).filter { RewardsEngine.eligible($0, settings: set, now: now) }
            if ks.count + judged.count < 2 { continue }
            let before = Set(judged)
            var at: [RewardsEngine.Span: Int] = [:]
            for r in RewardsEngine.runs(ks.map { list[$0].span } + judged, gap: Int64(set.mergeGapSeconds)) where r.count > 1 {
                for x in r { at[x] = runs.count }
                runs.append((r, r.filter(before.contains)))
            }
            for k in ks { if let n = at[list[k].span] { runOf[k] = n } }
        }
        return (runOf, runs)
    }
}
