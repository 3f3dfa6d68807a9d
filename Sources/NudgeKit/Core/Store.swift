// The family's store: an append-only NDJSON journal per actor, folded into
// the current state, with a snapshot so that start-up does not grow with
// history.
//
//   DATA/journal/ACTOR.ndjson   events; each command's batch ends with a commit line
//   DATA/journal/ACTOR.corrupt  bytes of interrupted writes, set aside, never dropped
//   DATA/snapshot.ndjson        header, hot lines, {"type":"cold"}, cold lines, {"type":"end"}
//   DATA/lock                   writers hold an exclusive flock here
//
// A batch counts only once its commit line is on disk, so a crash at any
// instant leaves all of a command's change or none of it. Readers take no
// lock: they ignore an uncommitted tail (it may be a write in progress); the
// next writer, holding the lock, knows it is debris and sets it aside.

/// A tool's state as a fold over its events.
public protocol JournalModel {
    /// The schema this version writes. Older events are upgraded by `migrate`.
    static var schemaVersion: Int { get }
    /// An empty state. `full` false means the cold parts (indexes only
    /// writers need) may be left out.
    init(full: Bool)
    /// Folds one committed event (already migrated to `schemaVersion`).
    mutating func apply(_ event: JSONObject)
    /// Lines that every reader needs.
    func hotSnapshot() -> [JSONObject]
    /// Lines that only writers need (dedupe indexes and the like).
    func coldSnapshot() -> [JSONObject]
    mutating func restoreHot(_ line: JSONObject) throws(ToolError)
    mutating func restoreCold(_ line: JSONObject) throws(ToolError)
    /// In a lazy read, offered each hot line unparsed first (a slice of the
    /// snapshot's bytes, shared, not copied); true means the model kept it as
    /// it is, to parse later or never.
    mutating func restoreHotRaw(_ line: Bytes) -> Bool
    /// In a full read, offered each cold line unparsed first, the same way:
    /// a model with a large cold part parses only what a command touches.
    mutating func restoreColdRaw(_ line: Bytes) -> Bool
    /// Appends the cold lines, each ending in a newline (by default
    /// `coldSnapshot()`, serialized; a model may copy lines it kept raw).
    func writeColdSnapshot(into out: inout [UInt8])
    /// Upgrades an event written under `schema` to `schemaVersion`.
    static func migrate(_ event: JSONObject, from schema: Int) -> JSONObject
}

extension JournalModel {
    public static func migrate(_ event: JSONObject, from schema: Int) -> JSONObject { event }
    public func coldSnapshot() -> [JSONObject] { [] }
    public mutating func restoreCold(_ line: JSONObject) throws(ToolError) {}
    public mutating func restoreHotRaw(_ line: Bytes) -> Bool { false }
    public mutating func restoreColdRaw(_ line: Bytes) -> Bool { false }
    public func writeColdSnapshot(into out: inout [UInt8]) {
        for c in coldSnapshot() { c.write(into: &out); out.append(0x0A) }
    }
}

/// The events a command appends, applied to the state as they are recorded so
/// that the rest of the command sees them.
public struct Transaction<M: JournalModel> {
    public private(set) var events: [JSONObject] = []
    public internal(set) var state: M
    /// Set when the store tags events with their journal: the writer's own.
    var actor: String? = nil

    init(state: M) { self.state = state }

    public mutating func record(_ event: JSONObject) {
        if let a = actor {
            var tagged = event
            tagged["actor"] = .string(a)
            state.apply(tagged)
        } else {
            state.apply(event)
        }
        events.append(event)
    }
}

public struct StoreOptions: Sendable {
    public var tool: String
    /// Whose journal this process writes (a device or a person).
    public var actor: String
    /// Who is making the change, for the commit line.
    public var user: String
    public var lockTimeoutMillis: Int
    /// Fold at most this many events past the snapshot before writing a new one.
    public var snapshotEvery: Int
    /// Where the journals live, when not in the data directory: a folder that
    /// several people share (each appends only to their own journal). Its
    /// files are readable by the others (0644, folders 0755).
    public var sharedJournals: String? = nil
    /// Tell the model which journal each event came from, as "actor".
    public var tagActor = false

    public init(tool: String, actor: String? = nil, user: String? = nil, lockTimeoutMillis: Int? = nil, snapshotEvery: Int = 256) {
        self.tool = tool
        self.actor = StoreOptions.sanitize(actor ?? Sys.env(tool.uppercased() + "_ACTOR") ?? Sys.hostname())
        self.user = user ?? Sys.userName()
        self.lockTimeoutMillis = lockTimeoutMillis ?? 10_000  // TOOL_LOCK_TIMEOUT: Config.lockTimeoutMillis
        self.snapshotEvery = snapshotEvery
    }

    static func sanitize(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            if (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "-" || c == "_" || c == "." {
                out.unicodeScalars.append(c)
            } else {
                out += "_"
            }
        }
        if out.isEmpty || out.hasPrefix(".") { out = "actor" + out }
        return out
    }
}

public struct Store<M: JournalModel> {
    public let dir: String
    public let options: StoreOptions

    public init(dir: String, options: StoreOptions) {
        self.dir = dir
        self.options = options
    }

    var journalDir: String { options.sharedJournals ?? Sys.join(dir, "journal") }
    var fileMode: UInt32 { options.sharedJournals == nil ? 0o600 : 0o644 }
    var snapshotPath: String { Sys.join(dir, "snapshot.ndjson") }
    var lockPath: String { Sys.join(dir, "lock") }
    var ownJournal: String { Sys.join(journalDir, options.actor + ".ndjson") }

    struct Loaded {
        var state: M
        var offsets: [String: Int]
        var tailEvents: Int
        var tailBytes: Int
        var snapshotUsable: Bool
        /// Own journal: where the last commit ends, and the file's size.
        var ownCommittedEnd: Int
        var ownSize: Int
    }

    // MARK: Reading

    /// The current state, without taking the lock. A store that does not
    /// exist yet reads as empty.
    public func read(full: Bool = false, lazy: Bool = false) throws(ToolError) -> M {
        if !Sys.isDirectory(dir) { return M(full: full) }
        let l = try load(full: full, warn: false, lazy: lazy)
        if !l.snapshotUsable || l.tailEvents > options.snapshotEvery * 4 {
            // Migrate or compact on open when nobody else is writing.
            if let lock = try? FileLock.acquire(lockPath, timeoutMillis: 0, what: "the \(options.tool) data directory") {
                defer { lock.release() }
                let full2 = full ? l : try load(full: true, warn: false)
                try writeSnapshot(full2)
            }
        }
        return l.state
    }

    func load(full: Bool, warn: Bool, lazy: Bool = false) throws(ToolError) -> Loaded {
        var state = M(full: full)
        var offsets: [String: Int] = [:]
        var usable = false
        let listing = Sys.listDirectorySizes(journalDir, suffix: ".ndjson")
        var sizes: [String: Int] = [:]
        sizes.reserveCapacity(listing.count)
        for (n, sz) in listing { sizes[n] = sz }
        if let snap = try readSnapshot(full: full, lazy: lazy ? { state.restoreHotRaw($0) } : nil,
                                       coldRaw: full ? { state.restoreColdRaw($0) } : nil) {
            var ok = snap.schema == M.schemaVersion
            // A journal shorter than the snapshot says means it was replaced: rebuild.
            for (name, off) in snap.offsets where (sizes[name] ?? -1) < off { ok = false }
            if !ok { state = M(full: full) }  // lines handed over lazily are void too
            if ok {
                do {
                    for h in snap.hot { try state.restoreHot(h) }
                    for c in snap.cold { try state.restoreCold(c) }
                    offsets = snap.offsets
                    usable = true
                } catch {
                    if warn { Diagnostics.error("snapshot unreadable (\(error.message)); rebuilding from the journal") }
                    state = M(full: full)
                }
            }
        }
        var tailEvents = 0
        var tailBytes = 0
        var ownEnd = 0
        var ownSize = 0
        let own = options.actor + ".ndjson"
        for (name, size) in listing {
            let from = offsets[name] ?? 0
            // Unchanged since the snapshot: not even opened (a pool may hold thousands).
            if from > 0 && name != own && size == from { continue }
            let path = Sys.join(journalDir, name)
            let r = try foldJournal(path: path, from: from, into: &state, warn: warn,
                                    actor: options.tagActor ? String(name.dropLast(".ndjson".count)) : nil)
            offsets[name] = r.committedEnd
            tailEvents += r.events
            tailBytes += r.committedEnd - from
            if path == ownJournal {
                ownEnd = r.committedEnd
                ownSize = r.size
            }
        }
        return Loaded(state: state, offsets: offsets, tailEvents: tailEvents, tailBytes: tailBytes,
                      snapshotUsable: usable, ownCommittedEnd: ownEnd, ownSize: ownSize)
    }

    /// The first `count` hot lines of the snapshot and the committed events
    /// written since it, without reading the rest: for readers that can often
    /// answer from a summary line. nil when there is no usable snapshot.
    public func readHead(count: Int) throws(ToolError) -> (hot: [JSONObject], tail: [JSONObject])? {
        guard let head = try readSnapshotHead(count: count), head.schema == M.schemaVersion else { return nil }
        var tail: [JSONObject] = []
        for name in Sys.listDirectory(journalDir) where name.hasSuffix(".ndjson") {
            let path = Sys.join(journalDir, name)
            let from = head.offsets[name] ?? 0
            guard (Sys.fileSize(path) ?? 0) >= from else { return nil }
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd < 0 { throw ToolError(.ioError, "cannot read \(path): \(Sys.errnoString())") }
            let bytes = try Sys.readAll(fd: fd, from: from, path: path)
            close(fd)
            var pending: [JSONObject] = []
            try withBytes(bytes) { (raw) throws(ToolError) in
                try NDJSON.forEachLine(in: raw) { (_, line, next) throws(ToolError) -> Bool in
                    if next < 0 { return false }
                    guard let o = try? JSON.parseObject(line) else { return true }
                    if o["type"]?.string == "commit" {
                        let schema = Int(o["schema"]?.int ?? 1)
                        for e in pending { tail.append(schema == M.schemaVersion ? e : M.migrate(e, from: schema)) }
                        pending.removeAll()
                    } else {
                        pending.append(o)
                    }
                    return true
                }
            }
        }
        return (head.hot, tail)
    }

    func readSnapshotHead(count: Int) throws(ToolError) -> (schema: Int, offsets: [String: Int], hot: [JSONObject])? {
        let fd = open(snapshotPath, O_RDONLY | O_CLOEXEC)
        if fd < 0 { return nil }
        defer { close(fd) }
        var buf = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 16384)
        var lines: [[UInt8]] = []
        var start = 0
        while lines.count < count + 1 {
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(buf.count)) }
            if n <= 0 { break }
            buf.append(contentsOf: chunk[0..<n])
            while lines.count < count + 1, let nl = buf[start...].firstIndex(of: 0x0A) {
                lines.append(Array(buf[start..<nl]))
                start = nl + 1
            }
        }
        guard let first = lines.first, let header = try? JSON.parse(first).object, header["type"]?.string == "snapshot" else { return nil }
        var offsets: [String: Int] = [:]
        for f in header["journals"]?.object?.fields ?? [] { offsets[f.key] = Int(f.value.int ?? 0) }
        var hot: [JSONObject] = []
        for l in lines.dropFirst() {
            guard let o = try? JSON.parse(l).object else { return nil }
            if o["type"]?.string == "cold" || o["type"]?.string == "end" { break }
            hot.append(o)
        }
        return (Int(header["schema"]?.int ?? 0), offsets, hot)
    }

    struct FoldResult { var committedEnd: Int; var size: Int; var events: Int }

    func foldJournal(path: String, from: Int, into state: inout M, warn: Bool, actor: String? = nil) throws(ToolError) -> FoldResult {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw ToolError(.ioError, "cannot read \(path): \(Sys.errnoString())") }
        defer { close(fd) }
        let bytes = try Sys.readAll(fd: fd, from: from, path: path)
        var committedEnd = from
        var events = 0
        var pending: [(Int, JSONObject)] = []
        var badLines: [Int] = []
        try withBytes(bytes) { (raw) throws(ToolError) in
            try NDJSON.forEachLine(in: raw) { (_, line, next) throws(ToolError) -> Bool in
                if next < 0 { return false }  // no newline: torn or still being written
                guard let o = try? JSON.parseObject(line) else {
                    badLines.append(from + next)
                    return true
                }
                if o["type"]?.string == "commit" {
                    let schema = Int(o["schema"]?.int ?? 1)
                    for (_, e) in pending {
                        var ev = schema == M.schemaVersion ? e : M.migrate(e, from: schema)
                        if let a = actor { ev["actor"] = .string(a) }
                        state.apply(ev)
                        events += 1
                    }
                    pending.removeAll()
                    committedEnd = from + next
                } else {
                    pending.append((from + next, o))
                }
                return true
            }
        }
        if warn && !badLines.isEmpty {
            let committedBad = badLines.filter { $0 <= committedEnd }.count
            if committedBad > 0 {
                Diagnostics.error("\(path): skipped \(committedBad) unreadable journal line(s)")
            }
        }
        return FoldResult(committedEnd: committedEnd, size: from + bytes.count, events: events)
    }

    struct Snapshot { var schema: Int; var offsets: [String: Int]; var hot: [JSONObject]; var cold: [JSONObject] }

    func readSnapshot(full: Bool, lazy: ((Bytes) -> Bool)? = nil,
                      coldRaw: ((Bytes) -> Bool)? = nil) throws(ToolError) -> Snapshot? {
        let fd = open(snapshotPath, O_RDONLY | O_CLOEXEC)
        if fd < 0 { return nil }
        defer { close(fd) }
        // The header says how long the hot part is, so readers stop there. It
        // lists every journal, so with a large pool it can be long.
        var head = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 16384)
        var nlAt: Int? = nil
        while nlAt == nil {
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(head.count)) }
            if n <= 0 { break }
            let before = head.count
            head.append(contentsOf: chunk[0..<n])
            nlAt = head[before...].firstIndex(of: 0x0A)
        }
        guard let nl = nlAt,
              let header = try? head.withUnsafeBytes({ (b) throws(JSONParseError) in try JSON.parseObject(UnsafeRawBufferPointer(rebasing: b[0..<nl])) }),
              header["type"]?.string == "snapshot",
              let hotBytes = header["hot_bytes"]?.int else { return nil }
        var offsets: [String: Int] = [:]
        for f in header["journals"]?.object?.fields ?? [] { offsets[f.key] = Int(f.value.int ?? 0) }
        let schema = Int(header["schema"]?.int ?? 0)
        // Mapped, not copied: lines kept raw are slices of it.
        var size = stat()
        guard fstat(fd, &size) == 0 else { throw ToolError(.ioError, "cannot read \(snapshotPath): \(Sys.errnoString())") }
        let want = full ? max(0, Int(size.st_size) - nl - 1) : max(0, Int(hotBytes) - nl - 1)
        if want > max(0, Int(size.st_size) - nl - 1) { return nil }
        let body = try FileBytes.read(fd: fd, offset: nl + 1, count: want, path: snapshotPath)
        if body.count < want { return nil }
        var hot: [JSONObject] = []
        var cold: [JSONObject] = []
        var inCold = false
        var complete = !full
        var bad = false
        body.all.withUnsafeBytes { raw in
            try? NDJSON.forEachLine(in: raw) { (_, line, _) throws(ToolError) -> Bool in
                // Model lines are offered unparsed first; the store's own
                // lines ({"type":…}) never are.
                if let keep = inCold ? coldRaw : lazy, line.count > 8,
                   line[2] != UInt8(ascii: "t") || line[3] != UInt8(ascii: "y") {
                    let start = raw.baseAddress!.distance(to: line.baseAddress!)
                    if keep(Bytes(body, start..<(start + line.count))) { return true }
                }
                guard let o = try? JSON.parseObject(line) else { bad = true; return false }
                switch o["type"]?.string {
                case "cold": inCold = true; if !full { return false }
                case "end": complete = true; return false
                default: if inCold { cold.append(o) } else { hot.append(o) }
                }
                return true
            }
        }
        if bad || !complete { return nil }
        return Snapshot(schema: schema, offsets: offsets, hot: hot, cold: cold)
    }

    func writeSnapshot(_ l: Loaded) throws(ToolError) {
        var hot = [UInt8]()
        for h in l.state.hotSnapshot() { h.write(into: &hot); hot.append(0x0A) }
        let sorted = l.offsets.sorted(by: { $0.key < $1.key })
        let journals = JSONObject(parsedKeys: sorted.map(\.key), values: sorted.map { .int(Int64($0.value)) })
        // The header holds its own length; iterate until the digits settle.
        var hotBytes = 0
        var headerBytes = [UInt8]()
        for _ in 0..<4 {
            let header: JSONObject = ["type": "snapshot", "schema": .int(Int64(M.schemaVersion)),
                                      "tool": .string(options.tool), "hot_bytes": .int(Int64(hotBytes)),
                                      "journals": .object(journals)]
            headerBytes = []
            header.write(into: &headerBytes)
            headerBytes.append(0x0A)
            let total = headerBytes.count + hot.count
            if total == hotBytes { break }
            hotBytes = total
        }
        var out = headerBytes + hot
        out += Array("{\"type\":\"cold\"}\n".utf8)
        l.state.writeColdSnapshot(into: &out)
        out += Array("{\"type\":\"end\"}\n".utf8)
        try Sys.writeFileAtomically(snapshotPath, out)
    }

    // MARK: Writing

    /// Runs `body` under the exclusive lock with the current state, then
    /// appends the events it recorded as one committed batch, fsynced before
    /// returning. Nothing is written when `body` throws or records nothing.
    public func write<R>(full: Bool = false, at: Instant, zone: Zone = .utc,
                         _ body: (inout Transaction<M>) throws(ToolError) -> R) throws(ToolError) -> R {
        try Sys.makeDirectories(dir)
        try Sys.makeDirectories(journalDir, mode: options.sharedJournals == nil ? 0o700 : 0o755)
        let lock = try FileLock.acquire(lockPath, timeoutMillis: options.lockTimeoutMillis,
                                        what: "the \(options.tool) data directory \(dir)")
        defer { lock.release() }
        var l = try load(full: full, warn: true)
        if l.ownSize > l.ownCommittedEnd { try setAside(from: l.ownCommittedEnd, size: l.ownSize) }
        var tx = Transaction<M>(state: l.state)
        if options.tagActor { tx.actor = options.actor }
        let result = try body(&tx)
        if !tx.events.isEmpty {
            var bytes = [UInt8]()
            for e in tx.events { e.write(into: &bytes); bytes.append(0x0A) }
            let commit: JSONObject = ["type": "commit", "n": .int(Int64(tx.events.count)),
                                      "at": .string(zone.format(at)), "by": .string(options.user),
                                      "schema": .int(Int64(M.schemaVersion))]
            commit.write(into: &bytes)
            bytes.append(0x0A)
            try append(bytes)
            l.offsets[options.actor + ".ndjson"] = l.ownCommittedEnd + bytes.count
            l.tailEvents += tx.events.count
            l.tailBytes += bytes.count
            l.state = tx.state
        }
        if !l.snapshotUsable || l.tailEvents > options.snapshotEvery || l.tailBytes > 1 << 20 {
            if !full { l = try load(full: true, warn: false) }
            try writeSnapshot(l)
        }
        return result
    }

    /// Rewrites every journal without the events `drop` selects (and batches
    /// left empty), removes the snapshot and set-aside debris, and rebuilds.
    /// The one exception to append-only: for erasing a person's data on
    /// request. Each file is replaced atomically; returns how many events went.
    @discardableResult
    public func purge(at: Instant, _ drop: (JSONObject) -> Bool) throws(ToolError) -> Int {
        try Sys.makeDirectories(dir)
        let lock = try FileLock.acquire(lockPath, timeoutMillis: options.lockTimeoutMillis,
                                        what: "the \(options.tool) data directory \(dir)")
        defer { lock.release() }
        var removed = 0
        for name in Sys.listDirectory(journalDir) {
            let path = Sys.join(journalDir, name)
            if name.hasSuffix(".corrupt") { Sys.removeFile(path); continue }
            guard name.hasSuffix(".ndjson"), let bytes = try Sys.readFile(path) else { continue }
            var out = [UInt8]()
            var batch: [[UInt8]] = []
            try withBytes(bytes) { (raw) throws(ToolError) in
                try NDJSON.forEachLine(in: raw) { (_, line, next) throws(ToolError) -> Bool in
                    guard next >= 0, let o = try? JSON.parseObject(line) else { return true }
                    if o["type"]?.string == "commit" {
                        if !batch.isEmpty {
                            var c = o
                            c["n"] = .int(Int64(batch.count))
                            for b in batch { out += b; out.append(0x0A) }
                            c.write(into: &out)
                            out.append(0x0A)
                        }
                        batch.removeAll()
                    } else if drop(o) {
                        removed += 1
                    } else {
                        batch.append(Array(line))
                    }
                    return true
                }
            }
            try Sys.writeFileAtomically(path, out)
        }
        Sys.removeFile(snapshotPath)
        return removed
    }

    func append(_ bytes: [UInt8]) throws(ToolError) {
        let fd = try Sys.openForAppend(ownJournal, mode: fileMode)
        defer { close(fd) }
        guard Sys.writeAll(fd: fd, bytes) else {
            throw ToolError(.ioError, "cannot write \(ownJournal): \(Sys.errnoString())")
        }
        guard fsync(fd) == 0 else { throw ToolError(.ioError, "cannot sync \(ownJournal): \(Sys.errnoString())") }
    }

    /// Moves an interrupted write's bytes to the .corrupt file and truncates.
    func setAside(from: Int, size: Int) throws(ToolError) {
        let fd = open(ownJournal, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw ToolError(.ioError, "cannot read \(ownJournal): \(Sys.errnoString())") }
        let debris = try Sys.readAll(fd: fd, from: from, path: ownJournal)
        close(fd)
        let corrupt = String(ownJournal.dropLast(".ndjson".count)) + ".corrupt"
        let cfd = try Sys.openForAppend(corrupt)
        let ok = Sys.writeAll(fd: cfd, debris + (debris.last == 0x0A ? [] : [0x0A])) && fsync(cfd) == 0
        close(cfd)
        guard ok else { throw ToolError(.ioError, "cannot write \(corrupt): \(Sys.errnoString())") }
        try Sys.truncateFile(ownJournal, to: from)
        Diagnostics.error("an earlier run was interrupted: set aside \(debris.count) bytes of its unfinished write in \(corrupt)")
    }
}
