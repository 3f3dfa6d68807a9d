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
    /// `gap` seconds are one session.
    public static func read(_ doc: JSON, gap: Int64 = 5) -> Result<Usage, ToolError> {
        guard let buckets = doc.object?["buckets"]?.object else {
            return .failure(.data("not an ActivityWatch export: need {\"buckets\":{…}} as /api/0/export writes it"))
        }
        var windows: [(String, RewardsEngine.Span)] = []
        var afk: [RewardsEngine.Span] = []
        for (id, b) in zip(buckets.keys, buckets.values) {
            guard let bo = b.object else { continue }
            let type = bo["type"]?.string ?? ""
            let isWindow = type == "currentwindow" || id.hasPrefix("aw-watcher-window")
            let isAFK = type == "afkstatus" || id.hasPrefix("aw-watcher-afk")
            guard isWindow || isAFK else { continue }
            for (n, e) in (bo["events"]?.array ?? []).enumerated() {
                guard let eo = e.object, let ts = eo["timestamp"]?.string, let t = RFC3339.parse(ts)?.instant,
                      let dur = eo["duration"]?.double, dur >= 0, dur < 1e9 else {
                    // (A duration past 1e9 s, about 31 years, is not a window event; it would overflow.)
                    return .failure(.data("\(id) event \(n): need \"timestamp\" (RFC 3339) and \"duration\" (seconds, under 1e9)"))
                }
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
