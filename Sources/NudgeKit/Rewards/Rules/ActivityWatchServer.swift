// Reading a running aw-server (its REST API under /api/0) instead of an
// export: the buckets the watchers write (window, AFK, web), each one's
// events from an hour before the last time taken, put together as an
// export is and read by the export's reader. The hour read again covers
// an event that was still growing when it was last read (aw-server joins
// heartbeats into the latest event) and heartbeats a client queued and sent
// late; what is read twice counts once, by ingest's own rule. How far a
// server was taken is kept per child and server (its device id) in the
// journal (`activitywatch_taken`), so every copy of the family knows it.
//
// Pure but for `pull`, which asks the server; the answers' readers are
// fuzzed with the export's reader.

extension ActivityWatch {
    /// What one pull read: the server's device id and host name, the
    /// export made of the events read, and the end of the latest of them.
    public struct Pull {
        public var device: String
        public var hostname: String
        public var export: JSON
        public var events = 0
        /// The end (epoch seconds) of the latest event read; nil for none.
        public var newest: Int64?
    }

    /// How much before the last time taken a pull reads again.
    public static let reread: Int64 = 3600

    /// /api/0/info's device id and host name.
    static func info(_ doc: JSON) -> Result<(device: String, hostname: String), ToolError> {
        guard let o = doc.object, let d = o["device_id"]?.string, !d.isEmpty, d.utf8.count <= 200 else {
            return .failure(.data("/api/0/info has no \"device_id\" (is this aw-server 0.12 or later?)"))
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
            if (k.isWindow || k.isAFK || k.isWeb) && f.key.utf8.count <= 1000 { out.append((f.key, type)) }
        }
        return .success(out.sorted { $0.id < $1.id })
    }

    /// The query for a bucket's events from `since` (epoch seconds), all of them.
    static func eventsPath(bucket: String, since: Int64?) -> String {
        var p = "/api/0/buckets/\(HTTP.percentEncode(bucket))/events?limit=-1"
        if let s = since { p += "&start=" + HTTP.percentEncode(RFC3339.format(Instant(seconds: s), offsetSeconds: 0)) }
        return p
    }

    /// The latest end among an export's events (window, AFK or web).
    static func newest(_ export: JSON) -> Int64? {
        var best: Int64? = nil
        for b in export.object?["buckets"]?.object?.fields ?? [] {
            for e in b.value.object?["events"]?.array ?? [] {
                guard let t = e.object?["timestamp"]?.string.flatMap({ RFC3339.parse($0)?.instant }),
                      let d = e.object?["duration"]?.double, d >= 0, d < 1e9 else { continue }
                let end = t.seconds + Int64(d.rounded())
                best = max(best ?? end, end)
            }
        }
        return best
    }

    /// The server's events since an hour before what was taken from it
    /// (`taken`, by its device id; all of them when nothing was), as an
    /// export. Throws 75 when the server cannot be reached, 65 when it
    /// answers with something else.
    public static func pull(_ server: HTTP.Server, taken: (String) -> Int64?, timeout: Int = 30) throws(ToolError) -> Pull {
        func json(_ path: String) throws(ToolError) -> JSON {
            let r = try HTTP.get(server, path, timeout: timeout)
            guard r.status == 200 else {
                throw ToolError(.dataError, "\(server) answered \(path.terminalSafe) with status \(r.status); is it aw-server (http://localhost:5600)?")
            }
            do throws(JSONParseError) { return try JSON.parseDocument(r.body) } catch {
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
        let list: [(id: String, type: String)]
        switch buckets(try json("/api/0/buckets/")) {
        case .success(let b): list = b
        case .failure(let why): throw ToolError(.dataError, "\(server): \(why.message)")
        }
        let since = taken(who.device).map { $0 - reread }
        var out = JSONObject()
        var count = 0
        for b in list {
            let path = eventsPath(bucket: b.id, since: since)
            let events = try json(path)
            guard let a = events.array else { throw ToolError(.dataError, "\(server) answered \(path.terminalSafe) with \(events.kindName), not a list of events") }
            count += a.count
            out[b.id] = .object(["type": .string(b.type), "events": events])
        }
        let export = JSON.object(["buckets": .object(out)])
        return Pull(device: who.device, hostname: who.hostname, export: export, events: count, newest: newest(export))
    }
}
