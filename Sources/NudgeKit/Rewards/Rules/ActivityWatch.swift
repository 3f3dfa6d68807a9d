// Reading an ActivityWatch export: window events become app sessions, AFK
// events become the spans when the child was away, and web-watcher events
// (aw-watcher-web: the browser's current tab) become visits to sites. Pure.
//
// A visit counts only while a window of that browser is in front (the
// web watcher reports the current tab even behind other windows), and that
// time is the site's, taken out of the browser's own sessions. An export
// with no window of that browser (only the web watcher) keeps its visits as
// they are. Which app a site belongs to is the family's rule (`app set
// --site`), decided at ingest (`Rewards.appForSite`).
//
// Invariants: every timestamp is plausible, or the export is refused with
// the first bad event named; sessions and visits come in order of start,
// those of one name closer than `gap` seconds joined.

public enum ActivityWatch {
    public struct Usage: Equatable, Sendable {
        public var sessions: [(app: String, span: RewardsEngine.Span)]
        public var afk: [RewardsEngine.Span]
        /// Time on web sites (http and https), by host, lower-case.
        public var visits: [(host: String, span: RewardsEngine.Span)] = []
        public static func == (a: Usage, b: Usage) -> Bool {
            a.afk == b.afk && a.sessions.map(\.app) == b.sessions.map(\.app) && a.sessions.map(\.span) == b.sessions.map(\.span)
                && a.visits.map(\.host) == b.visits.map(\.host) && a.visits.map(\.span) == b.visits.map(\.span)
        }
    }

    /// Words that name a browser in window app names ("Firefox",
    /// "firefox-esr", "Google-chrome", "chromium", "msedge", …), by the
    /// browser a web-watcher bucket is named for ("aw-watcher-web-chrome").
    static let browsers: [String: [String]] = [
        "chrome": ["chrome", "chromium"], "chromium": ["chromium", "chrome"], "firefox": ["firefox", "librewolf", "waterfox"],
        "edge": ["edge"], "brave": ["brave"], "opera": ["opera"], "vivaldi": ["vivaldi"], "safari": ["safari"],
    ]

    /// An export (`{"buckets":{ID:{"type":…,"events":[…]}}}`, as aw-server's
    /// /api/0/export writes it). Window events of the same app closer than
    /// `gap` seconds are one session, and so are visits to the same host.
    /// Every timestamp must be plausible (`Clock.plausible`: from 2000 on, at
    /// most a day after `now`); the first event that is not, or that has a
    /// field of the wrong type, is named.
    public static func read(_ doc: JSON, now: Instant, gap: Int64 = 5) -> Result<Usage, ToolError> {
        guard let buckets = doc.object?["buckets"]?.object else {
            return .failure(.data("not an ActivityWatch export: need {\"buckets\":{…}} as /api/0/export writes it"))
        }
        var windows: [(String, RewardsEngine.Span)] = []
        var afk: [RewardsEngine.Span] = []
        var tabs: [(host: String, span: RewardsEngine.Span, browser: [String])] = []
        let need = "need \"timestamp\" (RFC 3339) and \"duration\" (seconds)"
        for (id, b) in zip(buckets.keys, buckets.values) {
            guard let bo = b.object else { continue }
            let type = bo["type"]?.string ?? ""
            let isWindow = type == "currentwindow" || id.hasPrefix("aw-watcher-window")
            let isAFK = type == "afkstatus" || id.hasPrefix("aw-watcher-afk")
            let isWeb = type == "web.tab.current" || id.hasPrefix("aw-watcher-web")
            guard isWindow || isAFK || isWeb else { continue }
            let browser = isWeb ? browserWords(bucket: id) : []
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
                if isWeb, let url = eo["data"]?.object?["url"]?.string, let host = host(ofURL: url) { tabs.append((host, span, browser)) }
            }
        }
        // Visits: the tab's time while its browser's window was in front.
        var visits: [(String, RewardsEngine.Span)] = []
        var browserWindows: [String: [RewardsEngine.Span]] = [:]  // by the bucket's words, joined
        for t in tabs where t.span.seconds > 0 {
            let key = t.browser.joined(separator: ",")
            if browserWindows[key] == nil {
                browserWindows[key] = RewardsEngine.union(windows.filter { w in isBrowser(w.0, t.browser) }.map(\.1))
            }
            let fronts = browserWindows[key]!
            for x in fronts.isEmpty ? [t.span] : RewardsEngine.intersectSorted(t.span, fronts) { visits.append((t.host, x)) }
        }
        if !visits.isEmpty {
            // That time is the site's, not the browser's.
            let cover = RewardsEngine.union(visits.map(\.1))
            let words = Set(tabs.flatMap(\.browser))
            windows = windows.flatMap { w -> [(String, RewardsEngine.Span)] in
                isBrowser(w.0, Array(words)) ? RewardsEngine.subtractSorted(w.1, cover).map { (w.0, $0) } : [w]
            }
        }
        return .success(Usage(sessions: merged(windows, gap: gap), afk: RewardsEngine.union(afk),
                              visits: merged(visits, gap: gap).map { (host: $0.app, span: $0.span) }))
    }

    /// Spans of the same name (without regard to case) closer than `gap`
    /// seconds joined, in order of start.
    static func merged(_ items: [(String, RewardsEngine.Span)], gap: Int64) -> [(app: String, span: RewardsEngine.Span)] {
        let sorted = items.sorted { ($0.1.start, $0.0) < ($1.1.start, $1.0) }
        var out: [(app: String, span: RewardsEngine.Span)] = []
        for (app, span) in sorted where span.seconds > 0 {
            if let last = out.last, last.app.lowercased() == app.lowercased(), span.start - last.span.end <= gap {
                out[out.count - 1].span.end = max(last.span.end, span.end)
            } else {
                out.append((app, span))
            }
        }
        return out
    }

    /// The words that name the browser of a web bucket ("aw-watcher-web-firefox"
    /// → firefox and its kin); every browser's when the name says none.
    static func browserWords(bucket id: String) -> [String] {
        let rest = id.lowercased().dropFirst("aw-watcher-web".count).drop { $0 == "-" || $0 == "_" }
        for (name, words) in browsers.sorted(by: { $0.key < $1.key }) where rest.hasPrefix(name) { return words }
        return Array(Set(browsers.values.flatMap { $0 })).sorted()
    }

    static func isBrowser(_ app: String, _ words: [String]) -> Bool {
        let a = app.lowercased()
        return words.contains { a.contains($0) }
    }

    /// The host of an http or https URL, lower-case, without a port, user
    /// or trailing dot; nil for anything else (about:, file:, chrome://…).
    public static func host(ofURL url: String) -> String? {
        let lower = url.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") { rest = lower.dropFirst(8) } else if lower.hasPrefix("http://") { rest = lower.dropFirst(7) } else { return nil }
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
        } else {
            host = authority.prefix { $0 != ":" }
        }
        while host.hasSuffix(".") { host = host.dropLast() }
        return host.isEmpty ? nil : String(host)
    }
}
