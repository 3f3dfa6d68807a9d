// Restamping: a writer's own batches stamped ahead of the real clock (a
// change made while the clock, or a pinned --now, was ahead) given stamps at
// the real clock, so that readers who let such stamps wait see them now.
//
// Invariants: only this copy's own journals are rewritten, under the
// exclusive lock, each atomically; events and their checksums are kept, only
// the commit lines' stamps change; the writer's batches keep their order
// across its files; a new stamp is greater than every stamp not ahead that
// any journal's end shows. Readers who folded a rewritten journal fold again
// (its commit line no longer matches), as after an erasure.

extension Store {
    /// Restamps this writer's own batches stamped after `limit` (ms),
    /// from the clock `now` (ms) on, in their old order. Returns how many
    /// batches it restamped.
    public func restampAhead(of limit: Int64, now: Int64) throws(ToolError) -> Int {
        guard try checkDataDirectory() || !journalsAreLocal else { return 0 }
        try Sys.makeDirectories(dir)
        let lock = try FileLock.acquire(lockPath, timeoutMillis: options.lockTimeoutMillis,
                                        what: "the \(options.tool) data directory \(dir)")
        defer { lock.release() }
        try checkIdentity()
        var files: [(rel: String, bytes: [UInt8])] = []
        var ahead: [AheadBatch] = []
        // The newest stamp not ahead, so the new ones come after it.
        var base = Stamp(ms: now, counter: -1, actor: options.actor)
        for (i, e) in try journalEntries().enumerated() {
            if !isOwn(e.name) {
                if let s = try lastCommit(e, index: i)?.stamp, s.ms <= limit, s > base { base = s }
                continue
            }
            guard let got = try Sys.readPeerFile(Sys.join(journalDir, e.name), from: 0, cap: Int.max) else { continue }
            let f = files.count
            files.append((e.name, got.bytes))
            var start = 0, batchStart = 0
            while start < got.bytes.count, let nl = got.bytes[start...].firstIndex(of: 0x0A) {
                let line = start..<nl
                start = nl + 1
                guard got.bytes[line].count > 10, let o = try? JSON.parseObject(bytes: Array(got.bytes[line])),
                      o["type"]?.string == "commit" else { continue }
                defer { batchStart = start }
                guard let s = Store.declaredStamp(o, actor: options.actor) else { continue }
                if s.ms > limit {
                    ahead.append(AheadBatch(file: f, line: line, body: batchStart..<line.lowerBound, stamp: s, commit: o))
                } else if s > base {
                    base = s
                }
            }
        }
        if ahead.isEmpty { return 0 }
        // Across the writer's files, in the order they had.
        ahead.sort { $0.stamp < $1.stamp }
        var next = base
        var lines: [Int: [(Range<Int>, [UInt8])]] = [:]
        for a in ahead {
            next = Stamp(ms: next.ms, counter: next.counter + 1, actor: options.actor)
            var c = a.commit
            c["hlc"] = next.clockJSON
            // A signed batch is signed anew for its new stamp.
            if let sg = options.signatures, c["sig"] != nil {
                let body = Array(files[a.file].bytes[a.body])
                let events = body.split(separator: 0x0A).compactMap { try? JSON.parseObject(bytes: Array($0)) }
                let fields = try signatureFields(body: body, journal: files[a.file].rel, stamp: next, events: events, sg)
                for k in fields.keys { c[k] = fields[k] }
            }
            var out = [UInt8]()
            c.write(into: &out)
            lines[a.file, default: []].append((a.line, out))
        }
        for (f, changes) in lines.sorted(by: { $0.key < $1.key }) {
            var bytes = files[f].bytes
            for (range, line) in changes.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
                bytes.replaceSubrange(range, with: line)
            }
            try Sys.writeFileAtomically(Sys.join(journalDir, files[f].rel), bytes, mode: fileMode(for: files[f].rel))
        }
        // This copy's snapshot folded the old stamps: it is rebuilt.
        Sys.removeFile(snapshotPath)
        dropCheckpoint()
        return ahead.count
    }
}

/// One of a writer's batches stamped ahead: its file, its commit line.
struct AheadBatch {
    var file: Int
    var line: Range<Int>
    /// Its event lines.
    var body: Range<Int>
    var stamp: Stamp
    var commit: JSONObject
}
