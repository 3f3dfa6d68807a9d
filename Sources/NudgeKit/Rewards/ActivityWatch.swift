// Reading an ActivityWatch export: window events become app sessions,
// AFK events become the spans when the child was away. Pure.

public enum ActivityWatch {
    public struct Usage: Equatable, Sendable {
        public var sessions: [(app: String, span: RewardsEngine.Span)]
        public var afk: [RewardsEngine.Span]
        public static func == (a: Usage, b: Usage) -> Bool {
            a.afk == b.afk && a.sessions.map(\.app) == b.sessions.map(\.app) && a.sessions.map(\.span) == b.sessions.map(\.span)
        }
    }

    /// An export (`{"buckets":{ID:{"type":…,"events":[…]}}}`, as aw-server's
    /// /api/0/export writes it). Window events of the same app closer than
    /// `gap` seconds are one session. Every timestamp must be plausible
    /// (`Clock.plausible`: from 2000 on, at most a day after `now`); the first
    /// event that is not, or that has a field of the wrong type, is named.
    public static func read(_ doc: JSON, now: Instant, gap: Int64 = 5) -> Result<Usage, ToolError> {
        guard let buckets = doc.object?["buckets"]?.object else {
            return .failure(.data("not an ActivityWatch export: need {\"buckets\":{…}} as /api/0/export writes it"))
        }
        var windows: [(String, RewardsEngine.Span)] = []
        var afk: [RewardsEngine.Span] = []
        let need = "need \"timestamp\" (RFC 3339) and \"duration\" (seconds)"
        for (id, b) in zip(buckets.keys, buckets.values) {
            guard let bo = b.object else { continue }
            let type = bo["type"]?.string ?? ""
            let isWindow = type == "currentwindow" || id.hasPrefix("aw-watcher-window")
            let isAFK = type == "afkstatus" || id.hasPrefix("aw-watcher-afk")
            guard isWindow || isAFK else { continue }
            if let ev = bo["events"], ev.array == nil { return .failure(.data("\(id): \"events\" must be an array, not \(ev.kindName)")) }
            for (n, e) in (bo["events"]?.array ?? []).enumerated() {
                func bad(_ m: String) -> Result<Usage, ToolError> { .failure(.data("\(id) event \(n): \(m)")) }
                guard let eo = e.object else { return bad("must be an object, not \(e.kindName)") }
                guard let tj = eo["timestamp"] else { return bad("missing \"timestamp\"; \(need)") }
                guard let ts = tj.string else { return bad("\"timestamp\" must be a string, not \(tj.kindName)") }
                guard let t = RFC3339.parse(ts)?.instant else { return bad("\"timestamp\" must be an RFC 3339 time with an offset, not '\(ts)'") }
                if let p = Clock.plausible(t, now: now, what: "\"timestamp\"") { return bad(p.message) }
                guard let dj = eo["duration"] else { return bad("missing \"duration\"; \(need)") }
                guard let dur = dj.double else { return bad("\"duration\" must be a number, not \(dj.kindName)") }
                guard dur >= 0, dur < 1e9 else { return bad("\"duration\" must be 0 to 999999999 seconds") }
                let span = RewardsEngine.Span(t.seconds, t.seconds + Int64(dur.rounded()))
                if isWindow, let app = eo["data"]?.object?["app"]?.string { windows.append((app, span)) }
                if isAFK, eo["data"]?.object?["status"]?.string == "afk" { afk.append(span) }
            }
        }
        windows.sort { ($0.1.start, $0.0) < ($1.1.start, $1.0) }
        var sessions: [(app: String, span: RewardsEngine.Span)] = []
        for (app, span) in windows where span.seconds > 0 {
            if let last = sessions.last, last.app.lowercased() == app.lowercased(), span.start - last.span.end <= gap {
                sessions[sessions.count - 1].span.end = max(last.span.end, span.end)
            } else {
                sessions.append((app, span))
            }
        }
        return .success(Usage(sessions: sessions, afk: RewardsEngine.union(afk)))
    }
}
