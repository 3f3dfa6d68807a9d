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
        /// Events left out for a time outside the plausible window (a
        /// clock at 1970, or days ahead), each named: the rest still counts.
        public var skipped: [String] = []
        public static func == (a: Usage, b: Usage) -> Bool {
            a.afk == b.afk && a.sessions.map(\.app) == b.sessions.map(\.app) && a.sessions.map(\.span) == b.sessions.map(\.span)
                && a.visits.map(\.host) == b.visits.map(\.host) && a.visits.map(\.span) == b.visits.map(\.span) && a.skipped == b.skipped
        }
    }

    /// Words that name a browser in window app names ("Firefox",
    /// "firefox-esr", "Google-chrome", "chromium", "msedge", …), by the
    /// browser a web-watcher bucket is named for ("aw-watcher-web-chrome").
    static let browsers: [String: [String]] = [
        "chrome": ["chrome", "chromium"], "chromium": ["chromium", "chrome"], "firefox": ["firefox", "librewolf", "waterfox", "navigator"],
        "edge": ["edge"], "brave": ["brave"], "opera": ["opera"], "vivaldi": ["vivaldi"], "safari": ["safari"],
    ]

    /// An export (`{"buckets":{ID:{"type":…,"events":[…]}}}`, as aw-server's
    /// /api/0/export writes it). Window events of the same app closer than
    /// `gap` seconds are one session, and so are visits to the same host.
    /// Every timestamp must be plausible (`Clock.plausible`: from 2000 on, at
    /// most a day after `now`); the first event that is not, or that has a
    /// field of the wrong type, is named.
    ///
    /// `naming` gives a window's app (and, with `titles`, its title) the
    /// name the family knows it by (`Rewards.appForWindow`: `java` with
    /// "Minecraft 1.20" is Minecraft); by default the name as reported.
    public static func read(_ doc: JSON, now: Instant, gap: Int64 = 5, titles: Bool = false,
                            naming: @escaping (String, String?) -> String = { a, _ in a }) -> Result<Usage, ToolError> {
        guard let buckets = doc.object?["buckets"]?.object else {
            return .failure(.data("not an ActivityWatch export: need {\"buckets\":{…}} as /api/0/export writes it"))
        }
        var seen = Observed(titles: titles, naming: naming)
        let need = "need \"timestamp\" (RFC 3339) and \"duration\" (seconds)"
        for (id, b) in zip(buckets.keys, buckets.values) {
            guard let bo = b.object else { continue }
            let kind = Kind(bucket: id, type: bo["type"]?.string ?? "")
            guard kind.isWindow || kind.isAFK || kind.isWeb else { continue }
            if let ev = bo["events"], ev.array == nil { return .failure(.data("\(id): \"events\" must be an array, not \(ev.kindName)")) }
            if kind.isWindow && bo["events"] != nil { seen.windowWatcher = true }
            for (n, e) in (bo["events"]?.array ?? []).enumerated() {
                func bad(_ m: String) -> Result<Usage, ToolError> { .failure(.data("\(id) event \(n): \(m)")) }
                guard let eo = e.object else { return bad("must be an object, not \(e.kindName)") }
                guard let tj = eo["timestamp"] else { return bad("missing \"timestamp\"; \(need)") }
                guard let ts = tj.string else { return bad("\"timestamp\" must be a string, not \(tj.kindName)") }
                guard let t = RFC3339.parse(ts)?.instant else { return bad("\"timestamp\" must be an RFC 3339 time with an offset, not '\(ts)'") }
                guard let dj = eo["duration"] else { return bad("missing \"duration\"; \(need)") }
                guard let dur = dj.double else { return bad("\"duration\" must be a number, not \(dj.kindName)") }
                guard dur >= 0, dur < 1e9 else { return bad("\"duration\" must be 0 to 999999999 seconds") }
                if let p = Clock.plausible(t, now: now, what: "\"timestamp\"") {
                    if seen.skipped.count < maxSkipped { seen.skipped.append("\(id) event \(n): \(p.message)") } else { seen.moreSkipped += 1 }
                    continue
                }
                let span = RewardsEngine.Span(t.seconds, t.seconds + Int64(dur.rounded()))
                if kind.isWindow, let data = eo["data"]?.object, let app = data["app"]?.string {
                    seen.window(app, titles ? data["title"]?.string : nil, span)
                }
                if kind.isAFK, eo["data"]?.object?["status"]?.string == "afk" { seen.afk.append(span) }
                if kind.isWeb, let url = eo["data"]?.object?["url"]?.string, let host = host(ofURL: url) { seen.tabs.append((host, span, kind.browser)) }
            }
        }
        return .success(seen.usage(gap: gap))
    }

    /// Skipped events named one by one; the rest are counted.
    static let maxSkipped = 20

    /// What the events of an export say, before sessions and visits are made of them.
    struct Observed {
        /// Whether the export has a window watcher's events (even none):
        /// then a tab counts only while its browser's window is in front.
        var windowWatcher = false
        var skipped: [String] = []
        var moreSkipped = 0
        /// Whether window titles are read (some app is known by its titles).
        var titles = false
        var naming: (String, String?) -> String = { a, _ in a }
        var windows: [(String, RewardsEngine.Span)] = []
        /// The names given, by app and title: a few apps and titles, many events.
        var named: [String: [String: String]] = [:]

        /// The last window named: runs of events of one window are common.
        var last: (app: String, title: String?, name: String)? = nil

        mutating func window(_ app: String, _ title: String?, _ span: RewardsEngine.Span) {
            if let l = last, l.app == app, l.title == title { windows.append((l.name, span)); return }
            let t = title ?? ""
            let n = named[app]?[t] ?? naming(app, title)
            if named.count < 4096 { named[app, default: [:]][t] = n }
            last = (app, title, n)
            windows.append((n, span))
        }
        var afk: [RewardsEngine.Span] = []
        var tabs: [(host: String, span: RewardsEngine.Span, browser: [String])] = []

        /// Sessions, away time and visits; a visit is the tab's time while
        /// its browser's window was in front.
        func usage(gap: Int64) -> Usage {
            var windows = self.windows
            var visits: [(String, RewardsEngine.Span)] = []
            var browserWindows: [String: [RewardsEngine.Span]] = [:]  // by the bucket's words, joined
            for t in tabs where t.span.seconds > 0 {
                let key = t.browser.joined(separator: ",")
                if browserWindows[key] == nil {
                    browserWindows[key] = RewardsEngine.union(windows.filter { w in isBrowser(w.0, t.browser) }.map(\.1))
                }
                let fronts = browserWindows[key]!
                for x in fronts.isEmpty && !windowWatcher ? [t.span] : RewardsEngine.intersectSorted(t.span, fronts) { visits.append((t.host, x)) }
            }
            if !visits.isEmpty {
                // That time is the site's, not the browser's.
                let cover = RewardsEngine.union(visits.map(\.1))
                let words = Set(tabs.flatMap(\.browser))
                windows = windows.flatMap { w -> [(String, RewardsEngine.Span)] in
                    isBrowser(w.0, Array(words)) ? RewardsEngine.subtractSorted(w.1, cover).map { (w.0, $0) } : [w]
                }
            }
            return Usage(sessions: merged(windows, gap: gap), afk: RewardsEngine.union(afk),
                         visits: merged(visits, gap: gap).map { (host: $0.app, span: $0.span) },
                         skipped: skipped + (moreSkipped > 0 ? ["and \(moreSkipped) more event\(moreSkipped == 1 ? "" : "s") at such times"] : []))
        }
    }

    /// What a bucket's events are: windows, away time, browser tabs (with
    /// the words that name its browser), by its type or its id.
    struct Kind {
        var isWindow: Bool, isAFK: Bool, isWeb: Bool
        var browser: [String]
        init(bucket id: String, type: String) {
            isWindow = type == "currentwindow" || id.hasPrefix("aw-watcher-window")
            isAFK = type == "afkstatus" || id.hasPrefix("aw-watcher-afk")
            isWeb = type == "web.tab.current" || id.hasPrefix("aw-watcher-web")
            browser = isWeb ? browserWords(bucket: id) : []
        }
    }

    /// The same as `read(_:now:gap:)` of the parsed document, from the
    /// export's bytes (a UTF-8 byte order mark skipped), read in place: no
    /// JSON value is built for an event, only the fields a session needs.
    /// On anything the in-place reader does not take as it comes (bad
    /// JSON, a field of the wrong type, a bad time), the document is parsed
    /// and read the general way, for the same error.
    /// Past `generalLimit` bytes an export the in-place reader cannot take
    /// is refused as it stands, not parsed (a server's answer of millions of
    /// values would take gigabytes).
    public static func read(bytes: [UInt8], now: Instant, gap: Int64 = 5, titles: Bool = false, generalLimit: Int = Int.max,
                            naming: @escaping (String, String?) -> String = { a, _ in a }) -> Result<Usage, ToolError> {
        let skip = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        let fast = bytes.withUnsafeBytes { (raw) -> Observed? in
            try? scan(UnsafeRawBufferPointer(rebasing: raw[skip...]), now: now, into: Observed(titles: titles, naming: naming))
        }
        if let seen = fast { return .success(seen.usage(gap: gap)) }
        guard bytes.count <= generalLimit else {
            return .failure(.data("not an export of ActivityWatch events as aw-server writes them (each event an object with \"timestamp\", \"duration\" and \"data\")"))
        }
        let doc: JSON
        do throws(JSONParseError) { doc = try JSON.parseDocument(bytes) } catch { return .failure(.data(error.message)) }
        return read(doc, now: now, gap: gap, titles: titles, naming: naming)
    }

    /// The export's events, read in place; throws on anything but what
    /// `read(_:now:gap:)` reads without an error. Field names count by
    /// their first occurrence, as a parsed object's lookup does.
    static func scan(_ raw: UnsafeRawBufferPointer, now: Instant, into start: Observed = Observed()) throws(JSONParseError) -> Observed {
        let no = JSONParseError(message: "not read in place")
        var seen = start
        var p = JSONByteParser(raw)
        p.skipSpace()
        guard p.i < p.end, p.b[p.i] == UInt8(ascii: "{") else { throw no }
        var sawBuckets = false
        try p.fields(depth: 0) { (p: inout JSONByteParser, key: JSONKey) throws(JSONParseError) in
            guard key.is("buckets"), !sawBuckets else { return try p.skip(depth: 1) }
            sawBuckets = true
            guard p.b[p.i] == UInt8(ascii: "{") else { throw no }
            try p.fields(depth: 1) { (p: inout JSONByteParser, id: JSONKey) throws(JSONParseError) in
                guard p.b[p.i] == UInt8(ascii: "{") else { return try p.skip(depth: 2) }
                try bucket(&p, id: id.string, into: &seen, now: now)
            }
        }
        p.skipSpace()
        guard sawBuckets, p.i == p.end else { throw no }
        return seen
    }

    /// One bucket's object: its events read once its type is known (the
    /// first "type" field; events met before it are read after the rest).
    static func bucket(_ p: inout JSONByteParser, id: String, into seen: inout Observed, now: Instant) throws(JSONParseError) {
        var type: String? = nil
        var sawEvents = false
        var later: Int? = nil
        try p.fields(depth: 2) { (p: inout JSONByteParser, key: JSONKey) throws(JSONParseError) in
            if type == nil && key.is("type") {
                if p.b[p.i] == UInt8(ascii: "\"") { type = try p.string() } else { type = ""; try p.skip(depth: 3) }
            } else if !sawEvents && key.is("events") {
                sawEvents = true
                if let t = type { try events(&p, Kind(bucket: id, type: t), id: id, into: &seen, now: now) } else { later = p.i; try p.skip(depth: 3) }
            } else {
                try p.skip(depth: 3)
            }
        }
        if let at = later {
            var q = p
            q.i = at
            try events(&q, Kind(bucket: id, type: type ?? ""), id: id, into: &seen, now: now)
        }
    }

    /// A bucket's "events" value: each event's timestamp, duration and the
    /// data field its kind reads.
    static func events(_ p: inout JSONByteParser, _ kind: Kind, id: String, into seen: inout Observed, now: Instant) throws(JSONParseError) {
        let no = JSONParseError(message: "not read in place")
        guard kind.isWindow || kind.isAFK || kind.isWeb else { return try p.skip(depth: 3) }
        guard p.b[p.i] == UInt8(ascii: "[") else { throw no }
        if kind.isWindow { seen.windowWatcher = true }
        try p.elements(depth: 3) { (p: inout JSONByteParser, n: Int) throws(JSONParseError) in
            guard p.b[p.i] == UInt8(ascii: "{") else { throw no }
            var at: Instant? = nil, sawTime = false
            var duration: Double? = nil, sawDuration = false
            var sawData = false
            var app: String? = nil, afk = false, url: String? = nil, title: String? = nil
            try p.fields(depth: 4) { (p: inout JSONByteParser, key: JSONKey) throws(JSONParseError) in
                if !sawTime && key.is("timestamp") {
                    sawTime = true
                    guard p.b[p.i] == UInt8(ascii: "\"") else { throw no }
                    let start = p.i
                    if let raw = try p.plainKey() {
                        at = RFC3339.parse(raw)?.instant
                    } else {
                        p.i = start
                        at = RFC3339.parse(try p.string())?.instant
                    }
                } else if !sawDuration && key.is("duration") {
                    sawDuration = true
                    let c = p.b[p.i]
                    guard c == UInt8(ascii: "-") || (c >= 0x30 && c <= 0x39) else { throw no }
                    duration = try p.double()
                } else if !sawData && key.is("data") {
                    sawData = true
                    guard p.b[p.i] == UInt8(ascii: "{") else { return try p.skip(depth: 5) }
                    var sawApp = false, sawStatus = false, sawURL = false, sawTitle = false
                    try p.fields(depth: 5) { (p: inout JSONByteParser, key: JSONKey) throws(JSONParseError) in
                        let isString = p.b[p.i] == UInt8(ascii: "\"")
                        if kind.isWindow && !sawApp && key.is("app") {
                            sawApp = true
                            if isString { app = try p.string() } else { try p.skip(depth: 6) }
                        } else if kind.isWindow && seen.titles && !sawTitle && key.is("title") {
                            sawTitle = true
                            if isString { title = try p.string() } else { try p.skip(depth: 6) }
                        } else if kind.isAFK && !sawStatus && key.is("status") {
                            sawStatus = true
                            if isString { afk = try p.string() == "afk" } else { try p.skip(depth: 6) }
                        } else if kind.isWeb && !sawURL && key.is("url") {
                            sawURL = true
                            if isString { url = try p.string() } else { try p.skip(depth: 6) }
                        } else {
                            try p.skip(depth: 6)
                        }
                    }
                } else {
                    try p.skip(depth: 5)
                }
            }
            guard let t = at, let dur = duration, dur >= 0, dur < 1e9 else { throw no }
            if let p = Clock.plausible(t, now: now, what: "\"timestamp\"") {
                if seen.skipped.count < maxSkipped { seen.skipped.append("\(id) event \(n): \(p.message)") } else { seen.moreSkipped += 1 }
                return
            }
            let span = RewardsEngine.Span(t.seconds, t.seconds + Int64(dur.rounded()))
            if let a = app { seen.window(a, title, span) }
            if afk { seen.afk.append(span) }
            if let u = url, let host = host(ofURL: u) { seen.tabs.append((host, span, kind.browser)) }
        }
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
