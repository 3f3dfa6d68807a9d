// Reading a running aw-server (its REST API under /api/0) instead of an
// export: the buckets the watchers write (window, AFK, web), each one's
// events from where the last run left off, put together as an export is
// and read by the export's reader (in place: no value is built for an
// event). Where a run starts reading (`since`):
//
// - an hour before the end of the latest event the last run read, so that
//   an event still growing then (aw-server makes the latest event longer as
//   heartbeats come) and heartbeats a watcher sent late are read again;
// - or, earlier, the start of the session still going at the last run:
//   such a session is not counted until it has ended (`deferOpen`), and
//   then read and judged whole, as an export taken afterwards judges it
//   (the longest-session rule; time away the AFK watcher reports late);
//   the event that spans the start is asked for and read from where it
//   begins (aw-server's SQLite storage cuts events at the start asked for);
// - at most a day before the end, and on the first run the sessions'
//   age limit (`max_session_age_days`) before now: older ones earn nothing.
//
// What is read twice counts once, by ingest's own rule. How far a server was
// read is kept per child and server (its device id) in the journal
// (`activitywatch_taken`), never past the run's own time (a clock set ahead
// on the child's computer does not move it), so every copy of the family
// knows it.
//
// Pure but for `pull`, which asks the server; its answers are read by the
// export's reader, which is fuzzed.

extension ActivityWatch {
    /// What one pull read: the server's device id and host name, the
    /// export made of the events read (bytes), and how many buckets.
    public struct Pull {
        public var device: String
        public var hostname: String
        public var export: [UInt8]
        public var buckets = 0
    }

    /// Where the last run left off: the end of the latest event it read
    /// (never past its own time) and the start of the session then open.
    public struct Taken: Equatable, Sendable {
        public var until: Int64
        public var from: Int64
        public init(until: Int64, from: Int64) { (self.until, self.from) = (until, min(from, until)) }
    }

    /// How much before the last time taken a pull reads again.
    public static let reread: Int64 = 3600
    /// The most a pull reads again for a session still open.
    public static let longestReread: Int64 = 86_400
    /// Buckets read from one server: a machine has a few watchers.
    public static let maxBuckets = 64
    /// The longest a pull may take, all its requests together.
    public static let pullSeconds = 120
    /// Answers read the general way (for the error's words) when the
    /// in-place reader cannot take them: at most this big.
    public static let generalLimit = 16 << 20

    /// Where a run reads from: after `taken`, or, on the first run, the
    /// sessions' age limit before now.
    public static func since(_ taken: Taken?, now: Instant, maxAgeDays: Int) -> Int64 {
        guard let t = taken else { return now.seconds - Int64(max(1, maxAgeDays)) * 86_400 }
        return max(t.until - longestReread, min(t.until - reread, t.from))
    }

    /// How far a run read: the end of the latest session, visit or away
    /// span (never past `now`), and the start of the earliest session or
    /// visit still going within five minutes of it. Nil: nothing read.
    public static func taken(_ u: Usage, now: Instant) -> Taken? {
        let spans = u.sessions.map(\.span) + u.visits.map(\.span)
        guard let end = (spans + u.afk).map(\.end).max() else { return nil }
        let until = min(end, now.seconds)
        let open = spans.filter { $0.end >= end - 300 }.map(\.start).min() ?? until
        return Taken(until: until, from: open)
    }

    /// Sessions and visits still going at `now` (ending in its last five
    /// minutes, or later) taken out of `u`, to be read whole by a later
    /// run once they have ended: judged as an export taken afterwards
    /// judges them (the longest-session rule, time away the AFK watcher
    /// reports late). The start of the earliest, or nil for none.
    public static func deferOpen(_ u: inout Usage, now: Instant) -> Int64? {
        let cutoff = now.seconds - 300
        let open = (u.sessions.map(\.span) + u.visits.map(\.span)).filter { $0.end > cutoff }.map(\.start).min()
        u.sessions.removeAll { $0.span.end > cutoff }
        u.visits.removeAll { $0.span.end > cutoff }
        return open
    }

    /// Sessions and visits (a visit named as `siteApp` names its host) that
    /// lie inside a session already held for review (`held`: its app and
    /// span) taken out of `u`: a part of it read again is not judged on
    /// its own (the whole waits for the parents).
    public static func dropHeldParts(_ u: inout Usage, held: [(app: String, span: RewardsEngine.Span)], siteApp: (String) -> String) {
        guard !held.isEmpty else { return }
        let keyed = held.map { (app: $0.app.lowercased(), span: $0.span) }
        func inside(_ app: String, _ x: RewardsEngine.Span) -> Bool {
            let a = app.lowercased()
            return keyed.contains { $0.app == a && $0.span.start <= x.start && x.end <= $0.span.end }
        }
        u.sessions.removeAll { inside($0.app, $0.span) }
        u.visits.removeAll { inside(siteApp($0.host), $0.span) }
    }

    /// /api/0/info's device id and host name.
    static func info(_ doc: JSON) -> Result<(device: String, hostname: String), ToolError> {
        guard let o = doc.object, let id = o["device_id"] else {
            return .failure(.data("/api/0/info has no \"device_id\" (is this aw-server 0.12 or later?)"))
        }
        guard let d = id.string, !d.isEmpty, d.utf8.count <= 200 else {
            return .failure(.data("/api/0/info's \"device_id\" must be a string of 1 to 200 bytes"))
        }
        return .success((d, o["hostname"]?.string ?? ""))
    }

    /// The buckets of /api/0/buckets/ that ingest reads (window, AFK and
    /// web watchers, by type or id), in order of id.
    static func buckets(_ doc: JSON) -> Result<[(id: String, type: String)], ToolError> {
        guard let o = doc.object else { return .failure(.data("/api/0/buckets/ is not an object of buckets")) }
        var out: [(id: String, type: String)] = []
        for f in o.fields {
            let type = f.value.object?["type"]?.string ?? ""
            let k = Kind(bucket: f.key, type: type)
            if (k.isWindow || k.isAFK || k.isWeb) && f.key.utf8.count <= 1000 && type.utf8.count <= 200 { out.append((f.key, type)) }
        }
        return .success(out.sorted { $0.id < $1.id })
    }

    /// The query for a bucket's events from `since` (epoch seconds), all
    /// of them (or the last `limit` that begin by `end`).
    static func eventsPath(bucket: String, since: Int64?, end: Int64? = nil, limit: Int = -1) -> String {
        func time(_ s: Int64) -> String { HTTP.percentEncode(RFC3339.format(Instant(seconds: s), offsetSeconds: 0)) }
        var p = "/api/0/buckets/\(HTTP.percentEncode(bucket))/events?limit=\(limit)"
        if let s = since { p += "&start=" + time(s) }
        if let e = end { p += "&end=" + time(e) }
        return p
    }

    /// Where the event that spans `at` begins, from the answer to "the
    /// last event that begins by `at`" (cut there or not): nil when there
    /// is none or it ended before `at`.
    static func straddling(_ answer: JSON, at: Int64) -> Int64? {
        guard let e = answer.array?.first?.object, let t = e["timestamp"]?.string.flatMap({ RFC3339.parse($0)?.instant.seconds }),
              let d = e["duration"]?.double, d >= 0, d < 1e9, t < at, t + Int64(d.rounded()) >= at - 1 else { return nil }
        return t
    }

    /// Whether `body` is one JSON array and nothing else (checked without
    /// building it), so that it can stand in an export as it is.
    static func isArray(_ body: [UInt8]) -> Bool {
        body.withUnsafeBytes { raw -> Bool in
            var p = JSONByteParser(raw)
            p.skipSpace()
            guard p.i < p.end, p.b[p.i] == UInt8(ascii: "[") else { return false }
            do throws(JSONParseError) { try p.skip(depth: 1) } catch { return false }
            p.skipSpace()
            return p.i == p.end
        }
    }

    /// An export's bytes, `{"buckets":{ID:{"type":T,"events":BODY},…}}`,
    /// from each bucket's answer (each one JSON array, checked).
    static func export(_ parts: [(id: String, type: String, events: [UInt8])]) -> [UInt8] {
        var out = Array(#"{"buckets":{"#.utf8)
        for (n, b) in parts.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            JSON.string(b.id).write(into: &out)
            out += Array(#":{"type":"#.utf8)
            JSON.string(b.type).write(into: &out)
            out += Array(#","events":"#.utf8)
            out += b.events
            out.append(UInt8(ascii: "}"))
        }
        out += Array("}}".utf8)
        return out
    }

    /// The server's window, AFK and web events since `since(device)`, as
    /// an export's bytes. Throws 75 when the server cannot be reached, does
    /// not answer, fails (5xx) or takes longer than `pullSeconds` in all;
    /// 65 when it answers with something else.
    public static func pull(_ server: HTTP.Server, since: (String) -> Int64, timeout: Int = 30) throws(ToolError) -> Pull {
        let deadline = Sys.monotonicNanos() + UInt64(pullSeconds) * 1_000_000_000
        func get(_ path: String) throws(ToolError) -> [UInt8] {
            guard Sys.monotonicNanos() < deadline else { throw ToolError(.tempFail, "\(server) took longer than \(pullSeconds) s in all; nothing was read") }
            let r = try HTTP.get(server, path, timeout: timeout)
            guard r.status == 200 else {
                throw ToolError(r.status >= 500 ? .tempFail : .dataError,
                                "\(server) answered \(path.terminalSafe) with status \(r.status)" + (r.status >= 500 ? "" : "; is it aw-server (http://localhost:5600)?"))
            }
            return r.body
        }
        func json(_ path: String) throws(ToolError) -> JSON {
            let body = try get(path)
            // (Parsed as values: a server's info and bucket list are small.)
            guard body.count <= generalLimit else { throw ToolError(.dataError, "\(server) answered \(path.terminalSafe) with more than \(generalLimit >> 20) MB") }
            do throws(JSONParseError) { return try JSON.parseDocument(body) } catch {
                throw ToolError(.dataError, "\(server) answered \(path.terminalSafe) with bad JSON: \(error.message)")
            }
        }
        let who: (device: String, hostname: String)
        let first: JSON
        do throws(ToolError) { first = try json("/api/0/info") } catch {
            guard error.code == .tempFail else { throw error }
            throw ToolError(.tempFail, error.message + "; is aw-server running there? (ActivityWatch's is at http://localhost:5600)")
        }
        switch info(first) {
        case .success(let i): who = i
        case .failure(let why): throw ToolError(.dataError, "\(server): \(why.message)")
        }
        var list: [(id: String, type: String)]
        switch buckets(try json("/api/0/buckets/")) {
        case .success(let b): list = b
        case .failure(let why): throw ToolError(.dataError, "\(server): \(why.message)")
        }
        guard list.count <= maxBuckets else {
            throw ToolError(.dataError, "\(server) has \(list.count) window, AFK and web buckets; rewards reads at most \(maxBuckets) from one server")
        }
        // aw-server's SQLite storage cuts an event at the start asked for:
        // a piece of a session that began the evening before would be
        // judged on the next day, as a session of its own. So the window
        // and tab events that span the start are asked for, and every
        // bucket is read from where the earliest of them begins (one start
        // for all, so that the time away is known wherever a window or tab
        // is read; an away span cut short only takes less away), again
        // until nothing spans it (at most four times, a day further back).
        let floor = since(who.device) - longestReread
        var start = since(who.device)
        for _ in 0..<4 {
            var earliest = start
            for b in list where !Kind(bucket: b.id, type: b.type).isAFK {
                let one = eventsPath(bucket: b.id, since: nil, end: start, limit: 1)
                let answer = try get(one)
                guard answer.count <= 1 << 20 else { throw ToolError(.dataError, "\(server) answered \(one.terminalSafe) with more than one event") }
                let spanning: JSON
                do throws(JSONParseError) { spanning = try JSON.parseDocument(answer) } catch {
                    throw ToolError(.dataError, "\(server) answered \(one.terminalSafe) with bad JSON: \(error.message)")
                }
                if let t = straddling(spanning, at: start) { earliest = min(earliest, max(t, floor)) }
            }
            if earliest == start { break }
            start = earliest
        }
        var parts: [(id: String, type: String, events: [UInt8])] = []
        var total = 0
        for b in list {
            let path = eventsPath(bucket: b.id, since: start)
            let body = try get(path)
            total += body.count
            guard total <= 256 << 20 else { throw ToolError(.dataError, "\(server) sent more than 256 MB of events; nothing was read") }
            guard isArray(body) else { throw ToolError(.dataError, "\(server) answered \(path.terminalSafe) with something other than a JSON list of events") }
            parts.append((b.id, b.type, body))
        }
        list = []
        return Pull(device: who.device, hostname: who.hostname, export: export(parts), buckets: parts.count)
    }
}
