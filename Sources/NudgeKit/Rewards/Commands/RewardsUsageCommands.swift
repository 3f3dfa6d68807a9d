// rewards' usage commands: ingest (sessions as NDJSON, or an ActivityWatch
// export), flags (sessions held for review) and flag approve|reject. The
// pipeline (reading, journalling facts) is Rules/RewardsIngest.swift; the
// fold that counts them Model/RewardsFacts.swift.
//
// Invariants: a bad line is reported with its place and changes nothing,
// the other lines apply and the status is 65 (with --strict nothing
// applies); a session ingested twice counts once.

extension Rewards {
    static func ingest(_ ctx: Context) throws(ToolError) -> ExitCode {
        var intake = Intake()
        var bad = 0
        let pre = try store(ctx).read()
        try requireParent(pre, ctx)
        var taken: JSONObject? = nil
        if let source = ctx.option("activitywatch") {
            guard let name = ctx.option("child") else { throw .usage("--activitywatch needs --child NAME") }
            guard ctx.operands.isEmpty else {
                throw .usage("--activitywatch reads one export or server, not files too ('\(ctx.operands[0].terminalSafe)'); ingest those in a run of their own")
            }
            let id = try childID(pre, name).id
            guard let ci = intake.child(name, in: pre) else { throw ToolError(.dataError, "no child named '\(name)'") }
            // Windows by the names the family knows them (java: Minecraft).
            let apps = pre.apps.values.sorted { $0.name < $1.name }
            let titles = apps.contains { !$0.titles.isEmpty }
            let naming = { (app: String, title: String?) in appForWindow(app, title: title, apps: apps) }
            let read: Result<ActivityWatch.Usage, ToolError>
            let from: String
            if source.lowercased().hasPrefix("http://") || source.lowercased().hasPrefix("https://") {
                // A running aw-server: what is new since the last run, and the hour before.
                let server: HTTP.Server
                switch HTTP.server(source) {
                case .success(let s): server = s
                case .failure(let e): throw e
                }
                let age = pre.settings(for: id).maxSessionAgeDays
                let pull = try ActivityWatch.pull(server, since: { ActivityWatch.since(pre.awTaken[id + "|" + $0], now: ctx.now, maxAgeDays: age) })
                var got = ActivityWatch.read(bytes: pull.export, now: ctx.now, titles: titles, generalLimit: ActivityWatch.generalLimit, naming: naming)
                from = server.description
                if case .success(var u) = got, let t = ActivityWatch.taken(u, now: ctx.now) {
                    // What is still going counts once it has ended, read whole then.
                    let open = ActivityWatch.deferOpen(&u, now: ctx.now)
                    got = .success(u)
                    taken = ["type": "activitywatch_taken", "child": .string(id), "device": .string(pull.device), "until": .int(t.until),
                             "from": .int(min(t.from, open ?? t.from))]
                }
                read = got
            } else {
                guard let bytes = try Sys.readFile(source) else {
                    // "localhost:5600" is a server meant without its scheme: say so.
                    let hostPort = source.split(separator: ":").count == 2 && source.split(separator: ":")[1].allSatisfy(\.isNumber) && !source.contains("/")
                    throw ToolError(.noInput, "cannot open \(source.terminalSafe): No such file or directory"
                                    + (hostPort ? "; a running aw-server is given as a URL: http://\(source.terminalSafe)" : "; need an export file or an http:// URL"))
                }
                read = ActivityWatch.read(bytes: bytes, now: ctx.now, titles: titles, naming: naming)
                from = source
            }
            switch read {
            case .failure(let e): throw ToolError(.dataError, "\(from): \(e.message)")
            case .success(let u):
                // Events at impossible times (a clock at 1970, or days
                // ahead) are named and left out; the rest counts (65).
                for m in u.skipped { ctx.warn("\(from): \(m)") }
                if !u.skipped.isEmpty { bad += 1 }
                // From a server, the hour read again holds pieces of sessions
                // judged before: one held for review is not judged again
                // piece by piece (it waits for the parents as a whole).
                var u = u
                let siteApp = { (host: String) in appForSite(host, apps: pre.apps) ?? siteName(host) }
                if taken != nil {
                    ActivityWatch.dropHeldParts(&u, held: pre.flags.values.filter { $0.child == id }.map { ($0.app, $0.span) }, siteApp: siteApp)
                }
                for s in u.sessions { intake.raws.append(Raw(child: ci, app: intake.app(s.app), start: s.span.start, end: s.span.end)) }
                for v in u.visits {
                    intake.raws.append(Raw(child: ci, app: intake.app(siteApp(v.host)), start: v.span.start, end: v.span.end))
                }
                intake.afk[ci] = u.afk
            }
        } else {
            let strict = ctx.flag("strict")
            let sources = try InputSource.openAll(ctx.operands)
            defer { for s in sources { s.closeIfOwned() } }
            let hint = "need {\"child\",\"app\",\"start\",\"end\"} (or \"duration_s\" for \"end\"), times in RFC 3339 or epoch seconds"
            let zone = ctx.zone
            let now = ctx.now
            var f = [ScannedField](repeating: .absent, count: sessionFields.count)  // one for every line
            let meter = ctx.progress(sources.count == 1 ? "reading \(sources[0].name)" : "reading", total: InputSource.totalSize(sources))
            defer { meter.finish() }
            for src in sources {
                try NDJSON.forEachLine(src, progress: meter) { (n, line) throws(ToolError) in
                    do throws(ToolError) {
                        do throws(JSONParseError) { try JSON.scanObject(line, fields: sessionFields, into: &f) } catch { throw .data(error.message) }
                        intake.raws.append(try readSession(f, line: line, intake: &intake, in: pre, hint: hint, zone: zone, now: now))
                    } catch {
                        bad += 1
                        if strict { throw ToolError(.dataError, "\(src.name):\(n): \(error.message) (--strict: nothing applied)") }
                        ctx.warn("\(src.name):\(n): \(error.message)")
                    }
                }
            }
            meter.finish()
        }
        let each = ctx.flag("sessions")
        let source = ctx.option("activitywatch") == nil ? "ndjson" : "activitywatch"
        let results = try write(ctx, full: true) { (tx) throws(ToolError) -> [JSONObject] in
            var out = evaluate(intake, tx: &tx, zone: ctx.zone, source: source, byline: byline(ctx), each: each)
            // How far the server was read, once what was read is recorded.
            if let t = taken, let c = t["child"]?.string, let d = t["device"]?.string, let u = t["until"]?.int, u > tx.state.awTaken[c + "|" + d]?.until ?? .min {
                tx.record(by(ctx, t))
            }
            for c in tx.state.children.values.sorted(by: { $0.name < $1.name }) { out += awardBadges(&tx, c, today: ctx.today, byline: byline(ctx)) }
            return out
        }
        for r in results { ctx.out.emit(r, text: ingestText(r)) }
        return bad > 0 ? .dataError : .ok
    }

    static func flagsList(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try current(store(ctx), today: ctx.today)
        try requireParent(s, ctx)
        for f in s.flags.values.filter({ $0.status == "pending" }).sorted(by: { $0.span < $1.span }) {
            ctx.out.emit(["type": "flag", "id": .string(f.id), "child": .string(s.children[f.child]?.name ?? f.child), "app": .string(f.app),
                          "start": .string(ctx.zone.format(Instant(seconds: f.span.start))), "end": .string(ctx.zone.format(Instant(seconds: f.span.end))),
                          "reason": .string(f.reason)],
                         text: "\(f.id.prefix(6).terminalSafe)  \((s.children[f.child]?.name ?? "?").terminalSafe)  \(f.app.terminalSafe)  \(f.span.seconds / 60) min  \(f.reason == "future" ? "in the future" : "longer than the maximum")")
        }
        return .ok
    }

    /// `flag approve` and `flag reject`: a held session counted (as ingest
    /// would have) or dropped.
    static func decideFlag(_ ctx: Context, approve: Bool) throws(ToolError) -> ExitCode {
        let out = try write(ctx, full: true) { (tx) throws(ToolError) -> [JSONObject] in
            try requireParent(tx.state, ctx)
            let matches = tx.state.flags.values.filter { $0.id.hasPrefix(ctx.operands[0]) }
            guard matches.count == 1, let f = matches.first else { throw ToolError(.dataError, "no single held session '\(ctx.operands[0])'; 'rewards flags' lists them") }
            guard f.status == "pending" else { throw ToolError(.dataError, "session \(f.id) was already \(f.status)") }
            var e: JSONObject = ["type": "flag_decided", "id": .string(f.id), "decision": .string(approve ? "approved" : "rejected")]
            if approve {
                // The fold counts it, on the day its facts were recorded under.
                e["count"] = true
                e["day"] = .string((f.day ?? ctx.zone.day(of: Instant(seconds: f.span.start))).description)
            }
            tx.record(by(ctx, e))
            guard approve else { return [["type": "flag", "id": .string(f.id), "decision": "rejected"]] }
            return [["type": "flag", "id": .string(f.id), "decision": "approved", "points": JSON(tx.state.lastFold?.points ?? 0)]]
        }
        for r in out { ctx.out.emit(r, text: "\(r["decision"]!.string!)\(r["points"].map { ": +\($0.int ?? 0) points" } ?? "")") }
        return .ok
    }

    static func ingestText(_ r: JSONObject) -> String {
        func s(_ k: String) -> String { (r[k]?.string ?? "").terminalSafe }
        func n(_ k: String) -> Int64 { r[k]?.int ?? 0 }
        switch s("type") {
        case "badge": return "Badge for \(s("child")): \(s("badge"))"
        case "flag": return "Held for review (\(s("reason"))): \(s("child"))  \(s("app"))  \(s("start"))  rewards flag approve \(s("id").prefix(6))"
        case "session": return "  \(s("start"))  \(s("app"))  \(s("reason"))  +\(n("points"))"
        default:
            let dups = n("duplicates") > 0 ? ", \(n("duplicates")) already ingested" : ""
            let held = n("held") > 0 ? ", \(n("held")) held for review" : ""
            return "\(s("child"))  \(s("date"))  \(n("added")) new session\(n("added") == 1 ? "" : "s")\(dups)\(held)  "
                + "\(n("learning_s") / 60) min learning, \(n("reward_s") / 60) min reward  +\(n("points")) points (\(n("points_today")) today)"
        }
    }
}
