// The family's store: an append-only NDJSON journal per actor, folded into
// the current state in causal order, with a snapshot so that start-up does
// not grow with history.
//
//   JOURNALS/ACTOR.ndjson      events; each command's batch ends with a commit line
//                              {"type":"commit","n":…,"at":…,"by":…,"schema":…,"hlc":[ms,counter],"sum":…}
//   JOURNALS/ACTOR.corrupt     bytes set aside (interrupted writes, unreadable lines), never dropped
//   DATA/snapshot.ndjson       header, hot lines, {"type":"cold"}, cold lines, {"type":"end"}
//   DATA/lock                  writers hold an exclusive flock here
//
// JOURNALS is DATA/journal, or a folder the store shares: a sync folder that
// a file-sync engine keeps in step across one person's devices, or a folder
// several logins share on one host. The snapshot and lock always stay local.
//
// Invariants:
// - A batch counts only once its commit line is on disk, so a crash at any
//   instant leaves all of a command's change or none of it. Readers take no
//   lock: they ignore an uncommitted tail; the next writer of that journal,
//   holding the lock, sets it aside.
// - Batches are folded in stamp order (see Stamp.swift), so the state depends
//   on the journals' contents only, never on file names or directory order.
//   A snapshot records the greatest stamp it folded (the frontier); a journal
//   tail holding an older batch (a peer's copy arrived late) or an erasure
//   makes the reader fold everything again.
// - A batch whose checksum fails, or a committed line that does not parse,
//   counts for nothing and is reported on every command until the journal's
//   writer sets its bytes aside in .corrupt.
// - The snapshot carries checksums and, per journal, the offset, the last
//   stamp and the number of unusable batches it folded. A snapshot that fails
//   a check is moved aside (never overwritten) and the state rebuilt from the
//   journals.
// - Once a command's commit line is fsynced, nothing after it (compaction,
//   snapshot) can fail the command: such problems are warnings.

/// A tool's state as a fold over its events.
public protocol JournalModel {
    /// The schema this version writes. Older events are upgraded by `migrate`.
    static var schemaVersion: Int { get }
    /// An empty state. `full` false means the cold parts (indexes only
    /// writers need) may be left out.
    init(full: Bool)
    /// Folds one committed event (already migrated to `schemaVersion`).
    mutating func apply(_ event: JSONObject)
    /// Folds one committed event with its batch's stamp; by default `apply(_:)`.
    /// Models with last-writer-wins fields read the stamp here.
    mutating func apply(_ event: JSONObject, stamp: Stamp)
    /// Whether the erasure `tombstone` (an event of type "erase") erases
    /// `event`, an event stamped before it. Erased events are skipped by the
    /// fold on every copy and removed from journals by their writers.
    static func erases(_ tombstone: JSONObject, _ event: JSONObject) -> Bool
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
    public mutating func apply(_ event: JSONObject, stamp: Stamp) { apply(event) }
    public static func erases(_ tombstone: JSONObject, _ event: JSONObject) -> Bool { false }
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
    /// The stamp this batch will carry: greater than everything folded.
    public let stamp: Stamp
    /// Set when the store tags events with their journal: the writer's own.
    var actor: String? = nil
    /// In a store with subfolders, the one this batch goes to (default the
    /// first); a batch goes to one file, so it stays all or nothing.
    public var folder: String? = nil {
        didSet { if let f = folder, scopeTag != nil { scopeTag = f } }
    }
    var scopeTag: String? = nil

    init(state: M, stamp: Stamp = Stamp(ms: 0, actor: "")) {
        self.state = state
        self.stamp = stamp
    }

    public mutating func record(_ event: JSONObject) {
        if actor != nil || scopeTag != nil {
            var tagged = event
            if let a = actor { tagged["actor"] = .string(a) }
            if let sc = scopeTag { tagged["scope"] = .string(sc) }
            state.apply(tagged, stamp: stamp)
        } else {
            state.apply(event, stamp: stamp)
        }
        events.append(event)
    }
}

/// Whose journals a store believes.
public enum StoreTrust: Sendable, Equatable {
    /// One uid's store (the default): every journal must belong to the user
    /// running the command; a file owned by anyone else is ignored.
    case owner
    /// A folder several logins share on one host: `NAME.ndjson` counts only
    /// when its owner is the login NAME, so nobody can write as somebody else.
    case perUser
    /// A folder kept in step across machines by a sync engine, where every
    /// file belongs to whoever runs the engine: names cannot be proven by
    /// the file system, and the transport is trusted.
    case transport
}

public struct StoreOptions: Sendable {
    public var tool: String
    /// Whose journal this process writes (a device or a person).
    public var actor: String
    /// Who is making the change, for the commit line: the login of the
    /// effective uid unless a test says otherwise.
    public var user: String
    public var lockTimeoutMillis: Int
    /// Fold at most this many events past the snapshot before writing a new one.
    public var snapshotEvery: Int
    /// Where the journals live, when not in the data directory.
    public var journalFolder: String? = nil
    /// Whether that folder is shared with other logins (readable files).
    public var sharedWithOthers = false
    /// The mode of journal files in a shared folder (default 0644).
    public var sharedFileMode: UInt32? = nil
    /// Journals in subfolders of `journalFolder` rather than in it: each
    /// entry a folder ("journal", "private"), or "NAME/*" for every folder
    /// inside NAME whose name, split at "+", includes this actor (a folder per
    /// pair of people). The first entry is where writes go by default.
    public var subfolders: [String]? = nil
    /// File modes per subfolder entry (default `sharedFileMode`).
    public var subfolderFileModes: [String: UInt32] = [:]
    /// Tell the model which subfolder each event came from, as "scope".
    public var tagScope = false
    /// Lines longer than this in a peer's journal count for nothing.
    public var maxPeerLineBytes: Int? = nil
    public var trust: StoreTrust = .owner
    /// Tell the model which journal each event came from, as "actor".
    public var tagActor = false
    /// The most bytes read from one peer's journal per run; the rest is read
    /// by later runs.
    public var peerReadCap = 16 << 20
    /// The reader's clock (ms), for refusing peer batches stamped more than a
    /// day ahead. nil: the system clock.
    public var nowMillis: Int64? = nil

    /// Whether TOOL_ACTOR chose the actor (honoured only in a private store).
    public var actorFromEnvironment = false

    public init(tool: String, actor: String? = nil, user: String? = nil, lockTimeoutMillis: Int? = nil, snapshotEvery: Int = 256) {
        self.tool = tool
        if actor == nil, let e = Sys.env(tool.uppercased() + "_ACTOR"), !e.isEmpty { actorFromEnvironment = true }
        self.actor = StoreOptions.sanitize(actor ?? Sys.env(tool.uppercased() + "_ACTOR").flatMap { $0.isEmpty ? nil : $0 } ?? Sys.hostname())
        self.user = user ?? Sys.loginName()
        self.lockTimeoutMillis = lockTimeoutMillis ?? 10_000  // TOOL_LOCK_TIMEOUT: Config.lockTimeoutMillis
        self.snapshotEvery = snapshotEvery
    }

    /// Journals in a folder several people share (each appends only to
    /// their own journal); kept for callers that set it directly.
    public var sharedJournals: String? {
        get { sharedWithOthers ? journalFolder : nil }
        set {
            journalFolder = newValue
            sharedWithOthers = newValue != nil
            if newValue != nil && trust == .owner { trust = .transport }
        }
    }

    /// Letters, digits, `-`, `_` and `.`; anything else becomes `_`.
    public static func sanitize(_ s: String) -> String {
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

    /// Whether `name` (without .ndjson) is a journal name this store writes.
    public static func isActorName(_ name: Substring) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 128, name.utf8.first != UInt8(ascii: ".") else { return false }
        for c in name.utf8 {
            let ok = (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x5F || c == 0x2E
            if !ok { return false }
        }
        return !bytesContain(name, ".sync-conflict-")
    }

    /// Substring search on UTF-8 bytes (a pool lists thousands of names;
    /// the standard library's generic search is slow for that).
    static func bytesContain<S: StringProtocol>(_ s: S, _ pattern: StaticString) -> Bool {
        let p = UnsafeRawBufferPointer(start: pattern.utf8Start, count: pattern.utf8CodeUnitCount)
        if let r = s.utf8.withContiguousStorageIfAvailable({ b -> Bool in
            guard b.count >= p.count, p.count > 0 else { return p.count == 0 }
            let first = p[0]
            var i = 0
            while i + p.count <= b.count {
                if b[i] == first {
                    var j = 1
                    while j < p.count && b[i + j] == p[j] { j += 1 }
                    if j == p.count { return true }
                }
                i += 1
            }
            return false
        }) { return r }
        return String(s).contains(String(decoding: p, as: UTF8.self))
    }
}

/// What a store knows of one journal: for `TOOL devices` and the like.
public struct JournalInfo: Sendable, Equatable {
    public var actor: String
    public var bytes: Int
    /// The newest batch's stamp (wall clock ms of its writer), if any.
    public var lastStamp: Stamp?
    public var owner: UInt32
}

/// A journal's place in a snapshot: folded up to `end`, where its last
/// folded commit line has the 32-bit checksum `tag`, with `bad` unusable
/// batches or lines before it.
struct JournalMark: Equatable {
    var end: Int
    var tag: UInt32
    var bad: Int
}

/// One of the writer's own journals as loaded.
struct OwnFile: Equatable {
    var committedEnd: Int
    var size: Int
    var badRanges: [Range<Int>]
    var needsSetAside: Bool { size > committedEnd || !badRanges.isEmpty }
}

/// One committed batch, ready to fold.
struct Batch {
    var stamp: Stamp
    var events: [JSONObject]
    var hasErase: Bool
    var journal: Int
}

/// What reading one journal (or its tail) found.
struct JournalRead {
    var name: String
    var batches: [Batch] = []
    var committedEnd: Int
    var size: Int
    var last: Stamp?
    /// Checksum of the last commit line read.
    var tag: UInt32 = 0
    var bad: Int = 0
    /// Whether the read stopped at the per-run cap before the file's end.
    var capped = false
    /// Absolute byte ranges of unusable committed lines, for setting aside.
    var badRanges: [Range<Int>] = []
    var deferred = 0
}

public struct Store<M: JournalModel> {
    public let dir: String
    public let options: StoreOptions

    public init(dir: String, options: StoreOptions) {
        self.dir = dir
        self.options = options
    }

    var journalDir: String { options.journalFolder ?? Sys.join(dir, "journal") }
    var journalsAreLocal: Bool { options.journalFolder == nil }
    /// A folder of one person's devices kept in step by a sync engine.
    var isSyncFolder: Bool { options.journalFolder != nil && !options.sharedWithOthers && options.subfolders == nil }
    /// Journal names are paths relative to `journalDir` ("ana.ndjson", or
    /// "pairs/ana+bo/ana.ndjson" in a store with subfolders); the actor is
    /// the file name without ".ndjson".
    static func actorOf(_ rel: String) -> String {
        let file = rel.lastIndex(of: "/").map { rel[rel.index(after: $0)...] } ?? rel[...]
        return String(actorPart(file.dropLast(".ndjson".count)))
    }

    /// "bob" of "bob" or "bob~2": a writer whose journal name is taken by a
    /// file it does not own (squatted in a shared folder) writes NAME~N.
    /// The actors a group folder ("ana+bo", or "ana+bo~2") is for.
    static func groupMembers(_ name: String) -> [String] {
        actorPart(Substring(name)).split(separator: "+").map(String.init)
    }

    static func actorPart(_ base: Substring) -> Substring {
        if let t = base.lastIndex(of: "~"), base[base.index(after: t)...].count <= 8,
           let n = Int(base[base.index(after: t)...]), n >= 2 {
            return base[..<t]
        }
        return base
    }
    /// The subfolder part of a journal name ("" at the top).
    static func scopeOf(_ rel: String) -> String {
        rel.lastIndex(of: "/").map { String(rel[..<$0]) } ?? ""
    }
    func isOwn(_ rel: String) -> Bool {
        // The file name is ACTOR.ndjson or ACTOR~N.ndjson (checked on bytes:
        // called for every journal of a large pool).
        let a = options.actor.utf8
        let r = rel.utf8
        var start = r.startIndex
        if let slash = r.lastIndex(of: UInt8(ascii: "/")) { start = r.index(after: slash) }
        let file = r[start...]
        guard file.starts(with: a) else { return false }
        let tail = file.dropFirst(a.count)
        if tail.elementsEqual(".ndjson".utf8) { return true }
        return Store.actorOf(rel) == options.actor
    }
    /// Journals this copy may rewrite: its own, and all of a local store's.
    func mayRewrite(_ name: String) -> Bool { isOwn(name) || journalsAreLocal }
    var fileMode: UInt32 { options.sharedFileMode ?? (options.sharedWithOthers ? 0o644 : 0o600) }
    func fileMode(for rel: String) -> UInt32 {
        let scope = Store.scopeOf(rel)
        for (pattern, mode) in options.subfolderFileModes {
            if pattern == scope || (pattern.hasSuffix("/*") && scope.hasPrefix(String(pattern.dropLast(1)))) { return mode }
        }
        return fileMode
    }
    var snapshotPath: String { Sys.join(dir, "snapshot.ndjson") }
    var lockPath: String { Sys.join(dir, "lock") }
    /// The journal a batch for `folder` goes to.
    func target(_ folder: String?) -> String {
        let f = folder ?? options.subfolders?.first.flatMap { $0.hasSuffix("/*") ? nil : $0 }
        let base = (f.map { $0 + "/" } ?? "") + options.actor
        guard options.sharedWithOthers else { return base + ".ndjson" }
        // In a folder others may write in, somebody may have planted a file
        // (or a symlink, or a FIFO) under this writer's name: write NAME~N.
        let me = geteuid()
        return Sys.claimName(in: journalDir, base: base, ext: ".ndjson") { st in
            (st.st_mode & S_IFMT) == S_IFREG && st.st_uid == me
        }
    }
    var ownName: String { target(nil) }
    var nowMillis: Int64 { options.nowMillis ?? Sys.nowMillis() }

    struct Loaded {
        var state: M
        var marks: [String: JournalMark]
        var frontier: Stamp?
        var tailEvents: Int
        var tailBytes: Int
        var snapshotUsable: Bool
        /// Why the snapshot on disk was refused (nil: fine, absent, or an old schema).
        var badSnapshot: String?
        /// Own journals: where the last commit ends, the file's size, and
        /// unusable committed bytes to set aside.
        var own: [String: OwnFile]
        /// Events erased by a tombstone, per journal file name.
        var erased: [String: Int]
        /// Whether a peer's journal was read only up to the per-run cap.
        var capped = false
    }

    // MARK: Reading

    /// The current state, without taking the lock. A store that does not
    /// exist yet reads as empty; one that cannot be read is an error (77 for
    /// permission, 74 otherwise) naming the path.
    public func read(full: Bool = false, lazy: Bool = false) throws(ToolError) -> M {
        let exists = try checkDataDirectory()
        if !exists && (journalsAreLocal || !Sys.isDirectory(journalDir)) { return M(full: full) }
        if exists && hasLocalJournalsToAdopt(),
           let lock = try? FileLock.acquire(lockPath, timeoutMillis: 0, what: "the \(options.tool) data directory") {
            defer { lock.release() }
            try adoptLocalJournals()
        }
        var l = try load(full: full, lazy: lazy)
        guard exists else { return l.state }
        let compact = l.erased.keys.contains { mayRewrite($0) }
        if compact || l.badSnapshot != nil || !l.snapshotUsable || l.capped || l.tailEvents > options.snapshotEvery * 4 {
            // Migrate, repair or compact on open when nobody else is writing.
            // A failure here never fails the reader: it has its answer.
            if let lock = try? FileLock.acquire(lockPath, timeoutMillis: 0, what: "the \(options.tool) data directory") {
                defer { lock.release() }
                if l.badSnapshot != nil { moveSnapshotAside() }
                do throws(ToolError) {
                    if compact {
                        try compactErased()
                    } else {
                        if !full { l = try load(full: true) }
                        try writeSnapshot(l)
                    }
                } catch {
                    Store.warnOnce("could not write the snapshot (\(error.message)); answers come from the journals")
                }
            }
        }
        return l.state
    }

    /// Whether the data directory exists; an error when it exists but
    /// cannot be used. Warns when it is open to others.
    func checkDataDirectory() throws(ToolError) -> Bool {
        switch try Sys.pathState(dir) {
        case .missing: return false
        case .other(let k):
            let what = k == .regular ? "a file" : k == .symlink ? "a dangling symbolic link" : "not a folder"
            throw ToolError(.ioError, "data directory \(dir) is \(what), not a folder; give --data-dir a folder")
        case .directory(let uid, let mode):
            let me = UInt32(geteuid())
            if mode & 0o002 != 0 && mode & 0o1000 == 0 {
                Store.warnOnce("\(dir) is writable by everyone; fix: chmod 700 \(dir)")
                if options.actorFromEnvironment {
                    throw ToolError(.noPermission, "\(options.tool.uppercased())_ACTOR names the writer only in a data directory private to you, and \(dir) is writable by everyone; fix: chmod 700 \(dir)")
                }
            } else if uid != me && me != 0 && journalsAreLocal {
                let who = Users.name(of: uid) ?? "uid \(uid)"
                Store.warnOnce("\(dir) belongs to \(who), not to you; use a data directory of your own (--data-dir)")
            }
            return true
        }
    }

    static func warnOnce(_ m: String) { StoreWarnings.once(m) }

    /// The journals this store believes, and one warning for those it
    /// ignores. Names are relative to `journalDir`.
    func journalEntries() throws(ToolError) -> [DirEntry] {
        var ignored: [String] = []
        var conflicts: [String] = []
        guard let subs = options.subfolders else {
            guard let all = try Sys.scanDirectory(journalDir) else { return [] }
            if options.trust == .perUser && all.count > 64 { Users.preload() }
            let out = filterJournals(all, prefix: "", pair: nil, ignored: &ignored, conflicts: &conflicts)
            reportIgnored(ignored, conflicts)
            return out
        }
        var out: [DirEntry] = []
        for (i, sub) in subs.enumerated() {
            if sub.hasSuffix("/*") {
                // A folder per group of actors: only those naming this actor.
                let parent = String(sub.dropLast(2))
                let parentPath = Sys.join(journalDir, parent)
                guard let dirs = (try? Sys.scanDirectory(parentPath)) ?? nil else { continue }
                for d in dirs where d.kind == .directory {
                    let members = Store.groupMembers(d.name)
                    guard members.count >= 2, members.contains(options.actor),
                          members.allSatisfy({ StoreOptions.isActorName(Substring($0)) }) else { continue }
                    // A folder somebody else made under the group's name is theirs to
                    // empty: only one made by a member of the group is believed.
                    if options.trust == .perUser, !members.contains(where: { Users.uid(of: $0) == d.uid }) {
                        ignored.append("\(parent)/\(d.name)/ (made by \(Users.name(of: d.uid) ?? "uid \(d.uid)"), not by one of them)")
                        continue
                    }
                    let rel = parent + "/" + d.name
                    guard let files = (try? Sys.scanDirectory(Sys.join(journalDir, rel))) ?? nil else { continue }
                    out += filterJournals(files, prefix: rel + "/", pair: members, ignored: &ignored, conflicts: &conflicts)
                }
            } else {
                // The first folder is the store's own: it must be readable.
                let files: [DirEntry]?
                if i == 0 { files = try Sys.scanDirectory(Sys.join(journalDir, sub)) }
                else { files = (try? Sys.scanDirectory(Sys.join(journalDir, sub))) ?? nil }
                guard let fs = files else { continue }
                if options.trust == .perUser && fs.count > 64 { Users.preload() }
                out += filterJournals(fs, prefix: sub + "/", pair: nil, ignored: &ignored, conflicts: &conflicts)
            }
        }
        reportIgnored(ignored, conflicts)
        return out
    }

    func filterJournals(_ all: [DirEntry], prefix: String, pair: [String]?,
                        ignored: inout [String], conflicts: inout [String]) -> [DirEntry] {
        var out: [DirEntry] = []
        let me = UInt32(geteuid())
        var st = stat()
        let storeOwner: UInt32 = stat(journalsAreLocal ? dir : journalDir, &st) == 0 ? UInt32(st.st_uid) : me
        for var e in all {
            let n = e.name
            // Our own set-aside files, sync engines' temporaries: not journals.
            if n.hasSuffix(".corrupt") || n.hasPrefix(".syncthing.") || n.hasPrefix("~") || n.hasSuffix(".tmp")
                || n.hasPrefix(".") || StoreOptions.bytesContain(n, ".tmp-") { continue }
            guard n.hasSuffix(".ndjson") else { continue }
            let rel = prefix + n
            let actor = Store.actorPart(n.dropLast(".ndjson".count))
            if StoreOptions.bytesContain(actor, ".sync-conflict-") || StoreOptions.bytesContain(n, "conflicted copy")
                || StoreOptions.bytesContain(n, "(conflict") {
                conflicts.append(rel)
                continue
            }
            guard StoreOptions.isActorName(actor) else {
                ignored.append("\(rel) (not a journal name)")
                continue
            }
            guard e.kind == .regular else {
                ignored.append("\(rel) (\(e.kindName))")
                continue
            }
            if let p = pair, !p.contains(String(actor)) {
                ignored.append("\(rel) (\(actor) is not one of \(p.joined(separator: " and ")))")
                continue
            }
            switch options.trust {
            case .owner:
                // One person's store: theirs (the folder's owner's) or root's.
                if e.uid != me && me != 0 && e.uid != 0 && e.uid != storeOwner {
                    let who = Users.name(of: e.uid) ?? "uid \(e.uid)"
                    ignored.append("\(rel) (owned by \(who), not by you)")
                    continue
                }
            case .perUser:
                let owner = Users.name(of: e.uid)
                if owner != String(actor) {
                    ignored.append("\(rel) (owned by \(owner ?? "uid \(e.uid)"), not by \(actor))")
                    continue
                }
            case .transport:
                break
            }
            e.name = rel
            out.append(e)
        }
        return out
    }

    func reportIgnored(_ ignored: [String], _ conflicts: [String]) {
        if !ignored.isEmpty {
            let shown = ignored.prefix(5).joined(separator: ", ")
            let more = ignored.count > 5 ? " and \(ignored.count - 5) more" : ""
            Store.warnOnce("ignoring \(ignored.count) file(s) in \(journalDir) that are not journals it can trust: \(shown)\(more)")
        }
        if !conflicts.isEmpty {
            Store.warnOnce("ignoring sync conflict copies in \(journalDir): \(conflicts.prefix(5).joined(separator: ", ")); two devices may be writing under one name: give each device its own \(options.tool.uppercased())_ACTOR, then merge or remove the copies")
        }
    }

    func load(full: Bool, lazy: Bool = false, forceRebuild: Bool = false, attempt: Int = 0) throws(ToolError) -> Loaded {
        // The snapshot first, then the journals' sizes: journals only grow
        // while a snapshot stands, so sizes read after it are never shorter
        // than what it folded — unless a writer replaced the snapshot
        // meanwhile (an erasure shrinks journals), which is checked below.
        let before = Sys.fileIdentity(snapshotPath)
        var badSnapshot: String? = nil
        var snap: Snapshot? = nil
        var stateFromSnapshot: M? = nil
        if !forceRebuild {
            var state = M(full: full)
            switch try readSnapshot(full: full, lazy: lazy ? { state.restoreHotRaw($0) } : nil,
                                    coldRaw: full ? { state.restoreColdRaw($0) } : nil) {
            case .absent, .otherSchema: break
            case .bad(let why): badSnapshot = why
            case .ok(let s):
                do {
                    for h in s.hot { try state.restoreHot(h) }
                    for c in s.cold { try state.restoreCold(c) }
                    snap = s
                    stateFromSnapshot = state
                } catch {
                    badSnapshot = "a line the model cannot read (\(error.message))"
                }
            }
        }
        let entries = try journalEntries()
        var bySize: [String: DirEntry] = [:]
        for e in entries { bySize[e.name] = e }
        // A peer's journal may be rewritten by its writer (an erasure) or
        // removed (a device forgotten): fold again, quietly. One of this
        // copy's own journals changing under the snapshot is not expected:
        // refuse the snapshot, say so, keep it as evidence.
        var quietRebuild = false
        if let s = snap {
            for (name, mark) in s.marks {
                let e = bySize[name]
                if let e = e, e.size >= mark.end { continue }
                // (A sync folder is outside this store: it may have been
                // changed, emptied or replaced by the user.)
                if !mayRewrite(name) || isSyncFolder { quietRebuild = true; continue }
                // Another run wrote a new snapshot while this one read: read again.
                if attempt < 3 && Sys.fileIdentity(snapshotPath) != before {
                    return try load(full: full, lazy: lazy, forceRebuild: forceRebuild, attempt: attempt + 1)
                }
                badSnapshot = e == nil ? "it counts journal \(name), which is gone or no longer trusted"
                    : "journal \(name) is \(e!.size) bytes, shorter than the \(mark.end) it says were folded"
                break
            }
        }
        if let why = badSnapshot {
            Store.warnOnce("\(snapshotPath) was refused: \(why); the state is rebuilt from the journals")
        }
        if badSnapshot != nil || quietRebuild {
            snap = nil
            stateFromSnapshot = nil
        }

        var foldedBefore: [String: Int] = [:]
        // Tails past the snapshot.
        if let s = snap, var state = stateFromSnapshot {
            for (n, m) in s.marks { foldedBefore[n] = m.end }
            var reads: [JournalRead] = []
            var mustRebuild = false
            for (i, e) in entries.enumerated() {
                let mark = s.marks[e.name]
                // Unchanged since the snapshot: not even opened (a pool may hold thousands).
                if let m = mark, m.end == e.size { continue }
                guard let r = try readJournal(e, index: i, from: mark?.end ?? 0, tag: mark?.tag) else {
                    if mark != nil {
                        if mayRewrite(e.name) && !isSyncFolder {
                            badSnapshot = "journal \(e.name) changed before the point it folded"
                            Store.warnOnce("\(snapshotPath) was refused: \(badSnapshot!); the state is rebuilt from the journals")
                        }
                        mustRebuild = true
                        break
                    }
                    continue
                }
                if r.batches.contains(where: { b in b.hasErase || (s.frontier.map { f in b.stamp <= f } ?? false) }) {
                    mustRebuild = true  // an erasure, or a batch older than what is folded: fold again in order
                }
                reads.append(r)
            }
            if !mustRebuild {
                var marks = s.marks
                var frontier = s.frontier
                var events = 0
                var bytes = 0
                var own: [String: OwnFile] = [:]
                for e in entries where isOwn(e.name) {
                    own[e.name] = OwnFile(committedEnd: s.marks[e.name]?.end ?? 0, size: e.size, badRanges: [])
                }
                var batches: [Batch] = []
                for r in reads {
                    let before = marks[r.name]
                    if r.committedEnd > (before?.end ?? 0) || before == nil {
                        marks[r.name] = JournalMark(end: r.committedEnd, tag: r.committedEnd > (before?.end ?? 0) ? r.tag : (before?.tag ?? 0),
                                                    bad: (before?.bad ?? 0) + r.bad)
                    }
                    bytes += r.committedEnd - (before?.end ?? 0)
                    batches += r.batches
                    if isOwn(r.name) { own[r.name] = OwnFile(committedEnd: r.committedEnd, size: r.size, badRanges: r.badRanges) }
                    if r.deferred > 0 { warnDeferred(r) }
                }
                if reads.count > 1 { batches.sort { $0.stamp < $1.stamp } }
                for b in batches {
                    for e in b.events { state.apply(e, stamp: b.stamp) }
                    events += b.events.count
                    if frontier.map({ b.stamp > $0 }) ?? true { frontier = b.stamp }
                }
                reportBad(marks)
                return Loaded(state: state, marks: marks, frontier: frontier, tailEvents: events, tailBytes: bytes,
                              snapshotUsable: true, badSnapshot: nil, own: own, erased: [:],
                              capped: reads.contains { $0.capped })
            }
        }
        // Everything, in stamp order.
        var reads: [JournalRead] = []
        for (i, e) in entries.enumerated() {
            if let r = try readJournal(e, index: i, from: 0, tag: nil, folded: foldedBefore[e.name] ?? 0) { reads.append(r) }
        }
        var l = fold(reads, full: full)
        l.badSnapshot = badSnapshot
        return l
    }

    /// Folds whole journals in stamp order, skipping erased events.
    func fold(_ reads: [JournalRead], full: Bool) -> Loaded {
        var state = M(full: full)
        var batches: [Batch] = []
        var marks: [String: JournalMark] = [:]
        var own: [String: OwnFile] = [:]
        var bytes = 0
        for r in reads {
            batches += r.batches
            marks[r.name] = JournalMark(end: r.committedEnd, tag: r.tag, bad: r.bad)
            bytes += r.committedEnd
            if isOwn(r.name) { own[r.name] = OwnFile(committedEnd: r.committedEnd, size: r.size, badRanges: r.badRanges) }
            if r.deferred > 0 { warnDeferred(r) }
        }
        if reads.count > 1 { batches.sort { $0.stamp < $1.stamp } }
        var tombstones: [(Stamp, JSONObject)] = []
        for b in batches where b.hasErase {
            for e in b.events where e["type"]?.string == "erase" { tombstones.append((b.stamp, e)) }
        }
        var erased: [String: Int] = [:]
        var events = 0
        var frontier: Stamp? = nil
        for b in batches {
            for e in b.events {
                if !tombstones.isEmpty, e["type"]?.string != "erase",
                   tombstones.contains(where: { $0.0 > b.stamp && M.erases($0.1, e) }) {
                    erased[reads[b.journal].name, default: 0] += 1
                    continue
                }
                state.apply(e, stamp: b.stamp)
                events += 1
            }
            frontier = b.stamp
        }
        reportBad(marks)
        return Loaded(state: state, marks: marks, frontier: frontier, tailEvents: events, tailBytes: bytes,
                      snapshotUsable: false, badSnapshot: nil, own: own, erased: erased,
                      capped: reads.contains { $0.capped })
    }

    func warnDeferred(_ r: JournalRead) {
        Store.warnOnce("\(r.name): \(r.deferred == 1 ? "a change is" : "changes are") stamped more than a day ahead of this clock (is that device's clock right?); they count once that time comes")
    }

    func reportBad(_ marks: [String: JournalMark]) {
        for (name, m) in marks.sorted(by: { $0.key < $1.key }) where m.bad > 0 {
            let who = isOwn(name)
                ? "the next change made here sets them aside in \(name.dropLast(7)).corrupt"
                : "only the device or person writing it can set them aside"
            Store.warnOnce("\(Sys.join(journalDir, name)): \(m.bad) committed batch(es) or line(s) cannot be read and count for nothing; \(who)")
        }
    }

    /// Reads a journal from `from` and cuts it into committed batches. nil
    /// when the file is not a regular file any more, or when the line ending
    /// at `from` is not the commit line (checksum `tag`) the snapshot folded.
    /// A tail is parsed without the journal's earlier stamps: a batch not
    /// newer than the snapshot's frontier makes the caller fold everything.
    func readJournal(_ e: DirEntry, index: Int, from: Int, tag: UInt32?, folded: Int = 0) throws(ToolError) -> JournalRead? {
        let path = Sys.join(journalDir, e.name)
        let own = isOwn(e.name)
        // Look back over the commit line before `from` to check it is the one folded.
        let back = from > 0 ? min(from, 4096) : 0
        // A peer is read at most a cap past what was folded before (`folded`,
        // when folding everything again), so a huge journal costs little per run.
        let cap = own || journalsAreLocal ? Int.max : options.peerReadCap + back + max(0, folded - from)
        let read: (bytes: [UInt8], size: Int)?
        do throws(ToolError) {
            read = try Sys.readPeerFile(path, from: from - back, cap: cap, owner: e.uid)
        } catch {
            // Somebody else's file we may not read never stops this command;
            // in the store's own folder it is worth a word.
            guard !own, !journalsAreLocal, error.code == .noPermission else { throw error }
            if options.subfolders == nil || Store.scopeOf(e.name) == options.subfolders?.first {
                Store.warnOnce("ignoring \(path): \(error.message)")
            }
            return nil
        }
        guard let got = read else { return nil }
        let bytes = got.bytes
        var lastTag: UInt32 = 0
        if back > 0 {
            guard bytes.count >= back, bytes[back - 1] == 0x0A else { return nil }
            var start = back - 1
            while start > 0 && bytes[start - 1] != 0x0A { start -= 1 }
            if start == 0 && from - back > 0 { return nil }  // a commit line longer than 4 KB: not ours
            lastTag = Store.lineTag(bytes[start..<(back - 1)])
            if let t = tag, t != lastTag { return nil }
        }
        var r = parseJournal(bytes, skip: back, base: from - back, name: e.name, index: index, after: nil,
                             size: got.size, peer: !own)
        r.capped = from - back + bytes.count < got.size
        if r.committedEnd == from { r.tag = lastTag }
        return r
    }

    static func lineTag(_ line: ArraySlice<UInt8>) -> UInt32 {
        UInt32(truncatingIfNeeded: line.withUnsafeBytes { Checksum.hash($0) })
    }

    /// The stamp a commit line declares: its `hlc`, or (written before
    /// stamps existed) its `at`.
    static func declaredStamp(_ o: JSONObject, actor: String) -> Stamp? {
        Stamp.clock(o["hlc"], actor: actor)
            ?? o["at"]?.string.flatMap { RFC3339.parse($0) }.map { Stamp(ms: $0.instant.ms, actor: actor) }
    }

    /// The declared stamp, bumped past `previous` when it is not greater:
    /// a journal's stamps only ever increase.
    static func effectiveStamp(_ declared: Stamp?, previous: Stamp?, actor: String) -> Stamp {
        var eff = declared ?? Stamp(ms: previous?.ms ?? 0, counter: (previous?.counter ?? -1) + 1, actor: actor)
        eff.actor = actor
        if let p = previous, !(eff.ms > p.ms || (eff.ms == p.ms && eff.counter > p.counter)) {
            eff = Stamp(ms: p.ms, counter: p.counter + 1, actor: actor)
        }
        return eff
    }

    /// Cuts bytes (from absolute offset `base + skip`) into committed batches
    /// with effective stamps: a journal's stamps only ever increase, so a
    /// stamp not greater than the previous one is bumped past it.
    func parseJournal(_ bytes: [UInt8], skip: Int, base: Int, name: String, index: Int, after: Stamp?,
                      size: Int, peer: Bool) -> JournalRead {
        let actor = Store.actorOf(name)
        let from = base + skip
        var r = JournalRead(name: name, committedEnd: from, size: size, last: after)
        var pending: [JSONObject] = []
        var pendingBad: [Range<Int>] = []
        var batchStart = from
        var stop = false
        let horizon = nowMillis + 86_400_000
        let tag = options.tagActor ? actor : nil
        bytes.withUnsafeBytes { all in
            let raw = UnsafeRawBufferPointer(rebasing: all[skip...])
            try? NDJSON.forEachLine(in: raw) { (_, line, next) throws(ToolError) -> Bool in
                if next < 0 || stop { return false }  // no newline: torn, or a copy still arriving
                let lineStart = from + raw.baseAddress!.distance(to: line.baseAddress!)
                let lineEnd = from + next
                if peer, let cap = options.maxPeerLineBytes, line.count > cap {
                    pendingBad.append(lineStart..<lineEnd)
                    return true
                }
                guard let o = try? JSON.parseObject(line) else {
                    pendingBad.append(lineStart..<lineEnd)
                    return true
                }
                guard o["type"]?.string == "commit" else {
                    pending.append(o)
                    return true
                }
                var ok = true
                if let sum = o["sum"]?.string {
                    let lo = batchStart - from
                    let hi = lineStart - from
                    let h = Checksum.hex(Checksum.hash(UnsafeRawBufferPointer(rebasing: raw[lo..<hi])))
                    ok = h == sum
                }
                let declared = Store.declaredStamp(o, actor: actor)
                // Among strangers (a shared folder), a peer stamped far ahead
                // waits for its time, so it cannot push everyone's clock. One
                // person's devices follow the stamps as they are: a clock that
                // was ahead only delays its device's own later stamps.
                if peer, options.trust == .perUser, let d = declared, d.ms > horizon {
                    r.deferred += 1
                    stop = true
                    return false
                }
                let eff = Store.effectiveStamp(declared, previous: r.last, actor: actor)
                if ok {
                    let schema = Int(o["schema"]?.int ?? 1)
                    var evs: [JSONObject] = []
                    evs.reserveCapacity(pending.count)
                    var erase = false
                    for var ev in pending {
                        if schema != M.schemaVersion { ev = M.migrate(ev, from: schema) }
                        if let a = tag { ev["actor"] = .string(a) }
                        if ev["type"]?.string == "erase" { erase = true }
                        evs.append(ev)
                    }
                    r.bad += pendingBad.count
                    r.badRanges += pendingBad
                    if !evs.isEmpty { r.batches.append(Batch(stamp: eff, events: evs, hasErase: erase, journal: index)) }
                } else {
                    r.bad += 1
                    r.badRanges.append(batchStart..<lineEnd)
                }
                r.last = eff
                r.tag = Store.lineTag(ArraySlice(UnsafeRawBufferPointer(rebasing: raw[(lineStart - from)..<(lineEnd - from - 1)])))
                pending.removeAll(keepingCapacity: true)
                pendingBad.removeAll()
                r.committedEnd = lineEnd
                batchStart = lineEnd
                return true
            }
        }
        return r
    }

    /// The first hot line of the snapshot and the committed events written
    /// since it, without reading the rest: for readers that can often answer
    /// from a summary line. nil when that is not safe (no usable snapshot, a
    /// late or erasing batch, a failed check): the caller reads everything.
    public func readHead() throws(ToolError) -> (hot: [JSONObject], tail: [JSONObject])? {
        guard try checkDataDirectory() else { return nil }
        guard let head = try readSnapshotHead(), head.schema == M.schemaVersion else { return nil }
        let entries = try journalEntries()
        var names = Set<String>()
        var batches: [Batch] = []
        for (i, e) in entries.enumerated() {
            names.insert(e.name)
            let mark = head.marks[e.name]
            if let m = mark {
                if e.size < m.end { return nil }
                if e.size == m.end { continue }
            }
            guard let r = try readJournal(e, index: i, from: mark?.end ?? 0, tag: mark?.tag) else { return nil }
            if r.bad > 0 || r.deferred > 0 { return nil }
            for b in r.batches {
                if b.hasErase { return nil }
                if let f = head.frontier, b.stamp <= f { return nil }
            }
            batches += r.batches
        }
        for (name, m) in head.marks where !names.contains(name) || m.bad > 0 { return nil }
        batches.sort { $0.stamp < $1.stamp }
        return (head.hot, batches.flatMap(\.events))
    }

    // MARK: The snapshot

    struct Snapshot {
        var schema: Int
        var marks: [String: JournalMark]
        var frontier: Stamp?
        var hot: [JSONObject]
        var cold: [JSONObject]
    }

    enum SnapshotRead {
        case absent
        case otherSchema
        case bad(String)
        case ok(Snapshot)
    }

    /// Where the digits of head_sum, cold_sum and sum are in a header line,
    /// which ends `"head_sum":"…","cold_sum":"…","sum":"…"}`; the checksums
    /// are computed with those digits all '0'.
    static func sumRanges(_ line: [UInt8]) -> [Range<Int>]? {
        let n = line.count
        let z = n - 18, y = z - 9 - 16, x = y - 14 - 16
        guard x >= 12 else { return nil }
        func at(_ i: Int, _ s: String) -> Bool { Array(s.utf8) == Array(line[i..<(i + s.utf8.count)]) }
        guard at(n - 2, "\"}"), at(z - 9, "\",\"sum\":\""), at(y - 14, "\",\"cold_sum\":\""), at(x - 12, "\"head_sum\":\"") else { return nil }
        return [x..<(x + 16), y..<(y + 16), z..<(z + 16)]
    }

    /// Header line parsed, and the three sums it declares.
    struct Header {
        var schema: Int
        var hotBytes: Int
        var marks: [String: JournalMark]
        var frontier: Stamp?
        var headSum: UInt64
        var coldSum: UInt64
        var sum: UInt64
        /// The header line (without newline) with the sums' digits set to '0'.
        var zeroed: [UInt8]
    }

    /// The header's "journals" object, scanned without the general parser (a
    /// pool's header lists thousands): the byte range of the object, and the
    /// marks, or nil when it is not in the form this store writes.
    static func scanJournals(_ line: [UInt8]) -> (range: Range<Int>, marks: [String: JournalMark])? {
        let key = Array("\"journals\":{".utf8)
        guard line.count > key.count else { return nil }
        var start = -1
        for i in 0...(line.count - key.count) where line[i] == 0x22 && Array(line[i..<(i + key.count)]) == key { start = i; break }
        guard start >= 0 else { return nil }
        var i = start + key.count
        var marks: [String: JournalMark] = [:]
        func int() -> Int? {
            var v = 0
            var digits = 0
            while i < line.count, line[i] >= 0x30, line[i] <= 0x39, digits < 19 { v = v * 10 + Int(line[i] - 0x30); i += 1; digits += 1 }
            return digits > 0 ? v : nil
        }
        func expect(_ c: UInt8) -> Bool { guard i < line.count, line[i] == c else { return false }; i += 1; return true }
        if i < line.count && line[i] == 0x7D { return (start..<(i + 1), marks) }
        while true {
            guard expect(0x22) else { return nil }
            let n0 = i
            while i < line.count, line[i] != 0x22, line[i] != 0x5C { i += 1 }
            guard i < line.count, line[i] == 0x22 else { return nil }
            let name = String(decoding: line[n0..<i], as: UTF8.self)
            i += 1
            guard expect(0x3A), expect(0x5B), let end = int(), expect(0x2C), let tag = int(), expect(0x2C), let bad = int(), expect(0x5D),
                  tag <= Int(UInt32.max) else { return nil }
            marks[name] = JournalMark(end: end, tag: UInt32(tag), bad: bad)
            if expect(0x7D) { return (start..<i, marks) }
            guard expect(0x2C) else { return nil }
        }
    }

    func parseHeader(_ line: [UInt8]) -> Result<Header, SnapshotError> {
        // The journals object is scanned on its own; the rest is small.
        let scanned = Store.scanJournals(line)
        var rest = line
        if let sc = scanned { rest.replaceSubrange(sc.range, with: Array("\"journals\":{}".utf8)) }
        guard let o = try? JSON.parseObject(bytes: rest), o["type"]?.string == "snapshot" else { return .failure(.bad("its header cannot be read")) }
        let schema = Int(o["schema"]?.int ?? 0)
        if schema != M.schemaVersion { return .failure(.otherSchema) }
        // Written by a version without checksums: rebuilt quietly, like a migration.
        if o["sum"] == nil && o["head_sum"] == nil { return .failure(.otherSchema) }
        guard let hot = o["hot_bytes"]?.int, hot > 0,
              let hs = o["head_sum"]?.string.flatMap({ UInt64($0, radix: 16) }),
              let cs = o["cold_sum"]?.string.flatMap({ UInt64($0, radix: 16) }),
              let s = o["sum"]?.string.flatMap({ UInt64($0, radix: 16) }) else {
            return .failure(.bad("its header is incomplete"))
        }
        // Zero the digits of the three sums, which end the line in a fixed layout.
        guard let ranges = Store.sumRanges(line) else { return .failure(.bad("its header is incomplete")) }
        var zeroed = line
        for r in ranges { for i in r { zeroed[i] = 0x30 } }
        guard let marks = scanned?.marks else { return .failure(.bad("its list of journals cannot be read")) }
        var frontier: Stamp? = nil
        if let a = o["frontier"]?.array, a.count == 3, let ms = a[0].int, let c = a[1].int, let who = a[2].string {
            frontier = Stamp(ms: ms, counter: c, actor: who)
        }
        return .success(Header(schema: schema, hotBytes: Int(hot), marks: marks, frontier: frontier,
                               headSum: hs, coldSum: cs, sum: s, zeroed: zeroed))
    }

    enum SnapshotError: Error { case otherSchema, bad(String) }

    /// Reads the header line of an open snapshot.
    func readHeaderLine(_ fd: Int32) throws(ToolError) -> [UInt8]? {
        var head = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(head.count)) }
            if n < 0 { throw Sys.accessError(snapshotPath) }
            if n == 0 { return nil }
            let before = head.count
            head.append(contentsOf: chunk[0..<n])
            if let nl = head[before...].firstIndex(of: 0x0A) { return Array(head[0..<nl]) }
            if head.count > 64 << 20 { return nil }
        }
    }

    func openSnapshot() throws(ToolError) -> Int32? {
        let fd = open(snapshotPath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            if errno == EACCES || errno == EPERM || errno == ELOOP {
                // Left by a sudo run, or planted: the journals still hold the truth.
                Store.warnOnce("cannot read \(snapshotPath)\(Sys.ownerHint(snapshotPath) ?? ""); answers come from the journals")
                return nil
            }
            throw Sys.accessError(snapshotPath)
        }
        var st = stat()
        if fstat(fd, &st) != 0 || (st.st_mode & S_IFMT) != S_IFREG {
            close(fd)
            return nil
        }
        return fd
    }

    func readSnapshot(full: Bool, lazy: ((Bytes) -> Bool)? = nil,
                      coldRaw: ((Bytes) -> Bool)? = nil) throws(ToolError) -> SnapshotRead {
        guard let fd = try openSnapshot() else { return .absent }
        defer { close(fd) }
        guard let headerLine = try readHeaderLine(fd) else { return .bad("it is cut short") }
        let header: Header
        switch parseHeader(headerLine) {
        case .success(let h): header = h
        case .failure(.otherSchema): return .otherSchema
        case .failure(.bad(let why)): return .bad(why)
        }
        var size = stat()
        guard fstat(fd, &size) == 0 else { throw Sys.accessError(snapshotPath) }
        let nl = headerLine.count
        let fileBody = max(0, Int(size.st_size) - nl - 1)
        let hotBody = header.hotBytes - nl - 1
        if hotBody < 0 || hotBody > fileBody { return .bad("it is cut short") }
        let want = full ? fileBody : hotBody
        // Mapped, not copied: lines kept raw are slices of it.
        let body = want > 0 ? try FileBytes.read(fd: fd, offset: nl + 1, count: want, path: snapshotPath) : FileBytes(copying: [UInt8]())
        if body.count < want { return .bad("it is cut short") }
        var zeroedLine = header.zeroed
        zeroedLine.append(0x0A)
        let hotRaw = UnsafeRawBufferPointer(start: body.base, count: hotBody)
        let sum = Checksum.hash(hotRaw, seed: Checksum.hash(zeroedLine))
        if sum != header.sum { return .bad("its checksum does not match its contents") }
        if full {
            let coldRaw = UnsafeRawBufferPointer(start: body.base + hotBody, count: want - hotBody)
            if Checksum.hash(coldRaw) != header.coldSum { return .bad("its checksum does not match its contents") }
        }
        var hot: [JSONObject] = []
        var cold: [JSONObject] = []
        var inCold = false
        var complete = !full
        var bad = false
        body.all.withUnsafeBytes { raw in
            let limit = full ? raw.count : hotBody
            try? NDJSON.forEachLine(in: UnsafeRawBufferPointer(rebasing: raw[0..<limit])) { (_, line, _) throws(ToolError) -> Bool in
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
        if bad || !complete { return .bad("a line cannot be read") }
        return .ok(Snapshot(schema: header.schema, marks: header.marks, frontier: header.frontier, hot: hot, cold: cold))
    }

    /// The header and first hot line, checked against the head checksum.
    func readSnapshotHead() throws(ToolError) -> (schema: Int, marks: [String: JournalMark], frontier: Stamp?, hot: [JSONObject])? {
        guard let fd = try openSnapshot() else { return nil }
        defer { close(fd) }
        guard let headerLine = try readHeaderLine(fd), case .success(let h) = parseHeader(headerLine) else { return nil }
        let start = headerLine.count + 1
        let hotLen = h.hotBytes - start
        guard hotLen >= 0 else { return nil }
        // The first hot line: up to its newline, within the hot part.
        var line = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 16384)
        var nlAt: Int? = nil
        while nlAt == nil && line.count < hotLen {
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, min($0.count, hotLen - line.count), off_t(start + line.count)) }
            if n <= 0 { return nil }
            let before = line.count
            line.append(contentsOf: chunk[0..<n])
            nlAt = line[before...].firstIndex(of: 0x0A)
        }
        var zeroedLine = h.zeroed
        zeroedLine.append(0x0A)
        let first: [UInt8] = nlAt.map { Array(line[0...$0]) } ?? []
        guard Checksum.hash(first, seedBytes: zeroedLine) == h.headSum else { return nil }
        var hot: [JSONObject] = []
        if !first.isEmpty {
            guard let o = try? JSON.parseObject(bytes: Array(first.dropLast())) else { return nil }
            if o["type"]?.string != "cold" { hot.append(o) }
        }
        return (h.schema, h.marks, h.frontier, hot)
    }

    func writeSnapshot(_ l: Loaded) throws(ToolError) {
        var hot = [UInt8]()
        for h in l.state.hotSnapshot() { h.write(into: &hot); hot.append(0x0A) }
        var cold = Array("{\"type\":\"cold\"}\n".utf8)
        l.state.writeColdSnapshot(into: &cold)
        cold += Array("{\"type\":\"end\"}\n".utf8)
        let sorted = l.marks.sorted(by: { $0.key < $1.key })
        let journals = JSONObject(parsedKeys: sorted.map(\.key), values: sorted.map { (_, m) in
            .array([.int(Int64(m.end)), .int(Int64(m.tag)), .int(Int64(m.bad))])
        })
        let frontier: JSON = l.frontier.map { .array([.int($0.ms), .int($0.counter), .string($0.actor)]) } ?? .null
        let zeros = String(repeating: "0", count: 16)
        // The header holds its own length; iterate until the digits settle.
        var hotBytes = 0
        var headerBytes = [UInt8]()
        for _ in 0..<4 {
            let header: JSONObject = ["type": "snapshot", "schema": .int(Int64(M.schemaVersion)),
                                      "tool": .string(options.tool), "hot_bytes": .int(Int64(hotBytes)),
                                      "frontier": frontier, "journals": .object(journals),
                                      "head_sum": .string(zeros), "cold_sum": .string(zeros), "sum": .string(zeros)]
            headerBytes = []
            header.write(into: &headerBytes)
            headerBytes.append(0x0A)
            let total = headerBytes.count + hot.count
            if total == hotBytes { break }
            hotBytes = total
        }
        let firstLen = hot.firstIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let headSum = Checksum.hash(Array(hot[0..<firstLen]), seedBytes: headerBytes)
        let sum = hot.withUnsafeBytes { Checksum.hash($0, seed: Checksum.hash(headerBytes)) }
        let coldSum = Checksum.hash(cold)
        // Fill in the digits.
        let digits = Array((Checksum.hex(headSum) + Checksum.hex(coldSum) + Checksum.hex(sum)).utf8)
        if let ranges = Store.sumRanges(Array(headerBytes.dropLast())) {
            var k = 0
            for r in ranges { for i in r { headerBytes[i] = digits[k]; k += 1 } }
        }
        try Sys.writeFileAtomically(snapshotPath, headerBytes + hot + cold)
    }

    /// Keeps a snapshot that failed a check as evidence, under a new name.
    func moveSnapshotAside() {
        var n = 1
        var target = snapshotPath + ".bad-1"
        while Sys.fileExists(target) && n < 1000 { n += 1; target = snapshotPath + ".bad-\(n)" }
        if rename(snapshotPath, target) == 0 {
            Store.warnOnce("kept the refused snapshot as \(target)")
        }
    }

    // MARK: Writing

    /// Runs `body` under the exclusive lock with the current state, then
    /// appends the events it recorded as one committed batch, fsynced before
    /// returning. Nothing is written when `body` throws or records nothing.
    public func write<R>(full: Bool = false, at: Instant, zone: Zone = .utc,
                         _ body: (inout Transaction<M>) throws(ToolError) -> R) throws(ToolError) -> R {
        try Sys.makeDirectories(dir)
        _ = try checkDataDirectory()
        if journalsAreLocal { try Sys.makeDirectories(journalDir) }
        else if !Sys.isDirectory(journalDir) {
            try Sys.makeDirectories(journalDir, mode: options.sharedWithOthers ? 0o2770 : 0o700)
        }
        let lock = try FileLock.acquire(lockPath, timeoutMillis: options.lockTimeoutMillis,
                                        what: "the \(options.tool) data directory \(dir)")
        defer { lock.release() }
        try checkIdentity()
        Sys.removeStaleTemporaries(in: dir, prefix: "snapshot.ndjson")
        Sys.removeStaleTemporaries(in: Sys.parentDirectory(Sys.join(journalDir, ownName)), prefix: ownName.split(separator: "/").last.map(String.init))
        if journalsAreLocal { Sys.removeStaleTemporaries(in: journalDir) }
        if hasLocalJournalsToAdopt() { try adoptLocalJournals() }
        var l = try load(full: full)
        if l.badSnapshot != nil { moveSnapshotAside() }
        if l.marks.contains(where: { isOwn($0.key) && $0.value.bad > 0 && (l.own[$0.key]?.badRanges.isEmpty ?? true) }) {
            l = try load(full: full, forceRebuild: true)  // to find where they are
        }
        if l.own.values.contains(where: \.needsSetAside) {
            for (rel, f) in l.own.sorted(by: { $0.key < $1.key }) where f.needsSetAside {
                try setAside(rel, committedEnd: f.committedEnd, size: f.size, bad: f.badRanges)
            }
            l = try load(full: full)
        }
        let stamp = Stamp.next(after: l.frontier, now: at.ms, actor: options.actor)
        if stamp.ms > at.ms + 86_400_000 {
            Store.warnOnce("this store's stamps run \((stamp.ms - at.ms) / 86_400_000) day(s) ahead of this clock (a clock that was ahead, here or on another device); changes are still kept in order")
        }
        var tx = Transaction<M>(state: l.state, stamp: stamp)
        if options.tagActor { tx.actor = options.actor }
        if options.tagScope { tx.scopeTag = Store.scopeOf(ownName) }
        let result = try body(&tx)
        var erased = l.erased.keys.contains { mayRewrite($0) }
        if !tx.events.isEmpty {
            let rel = target(tx.folder)
            if let f = tx.folder, let subs = options.subfolders,
               !subs.contains(where: { $0 == f || ($0.hasSuffix("/*") && f.hasPrefix(String($0.dropLast(1))) && !f.dropFirst($0.count - 1).contains("/")) }) {
                throw ToolError(.software, "internal error: no journal folder '\(f)' in this store")
            }
            let folder = Sys.parentDirectory(Sys.join(journalDir, rel))
            if !Sys.isDirectory(folder) {
                // A folder made here is the writer's: others may read (by ACL), not add or remove.
                try Sys.makeDirectories(folder, mode: options.sharedWithOthers ? 0o2750 : 0o700)
            }
            let ownEnd = l.own[rel]?.committedEnd ?? 0
            var bytes = [UInt8]()
            for e in tx.events { e.write(into: &bytes); bytes.append(0x0A) }
            let commit: JSONObject = ["type": "commit", "n": .int(Int64(tx.events.count)),
                                      "at": .string(zone.format(at)), "by": .string(options.user),
                                      "schema": .int(Int64(M.schemaVersion)), "hlc": stamp.clockJSON,
                                      "sum": .string(Checksum.hex(Checksum.hash(bytes)))]
            let before = bytes.count
            commit.write(into: &bytes)
            bytes.append(0x0A)
            let commitLength = bytes.count - before
            try append(bytes, to: rel)
            // Durable from here on: what follows can only warn.
            l.marks[rel] = JournalMark(end: ownEnd + bytes.count,
                                       tag: Store.lineTag(bytes[(bytes.count - commitLength)..<(bytes.count - 1)]),
                                       bad: l.marks[rel]?.bad ?? 0)
            l.frontier = stamp
            l.tailEvents += tx.events.count
            l.tailBytes += bytes.count
            l.state = tx.state
            if tx.events.contains(where: { $0["type"]?.string == "erase" }) { erased = true }
        }
        do throws(ToolError) {
            if erased {
                try compactErased()
            } else if !l.snapshotUsable || l.tailEvents > options.snapshotEvery || l.tailBytes > 1 << 20 {
                if !full { l = try load(full: true) }
                try writeSnapshot(l)
            }
        } catch {
            Store.warnOnce("the change is saved, but the snapshot could not be updated (\(error.message)); it is rebuilt next time")
        }
        return result
    }

    /// Whether journals written before a sync folder was set are still in
    /// the data directory.
    func hasLocalJournalsToAdopt() -> Bool {
        guard !journalsAreLocal, !options.sharedWithOthers else { return false }
        let local = Sys.join(dir, "journal")
        return ((try? Sys.scanDirectory(local, suffix: ".ndjson")) ?? nil)?.contains { $0.kind == .regular } ?? false
    }

    /// Moves those journals into the sync folder (a copy made durable, then
    /// the local one removed), so history made before syncing is shared too.
    func adoptLocalJournals() throws(ToolError) {
        let local = Sys.join(dir, "journal")
        try Sys.makeDirectories(journalDir)
        for e in try Sys.scanDirectory(local, suffix: ".ndjson") ?? [] where e.kind == .regular && e.uid == UInt32(geteuid()) {
            let from = Sys.join(local, e.name)
            let to = Sys.join(journalDir, e.name)
            if Sys.fileExists(to) {
                Store.warnOnce("\(from) and \(to) both exist; the sync folder's copy is used; merge or remove the other")
                continue
            }
            guard let got = try Sys.readPeerFile(from, from: 0, cap: Int.max, owner: e.uid) else { continue }
            try Sys.writeFileAtomically(to, got.bytes, mode: fileMode)
            Sys.removeFile(from)
            Store.warnOnce("moved \(from) into the sync folder \(journalDir)")
        }
        Sys.removeFile(snapshotPath)
    }

    /// On a shared folder, the journal written is the login's own.
    func checkIdentity() throws(ToolError) {
        guard options.trust == .perUser else { return }
        let me = Sys.loginName()
        if options.actor != me {
            throw ToolError(.noPermission, "you are \(me) on this host; you cannot write as \(options.actor)")
        }
    }

    /// Removes erased events from the journals this copy may rewrite (its
    /// own; all of them in a local store), drops their set-aside debris, and
    /// rebuilds the snapshot without them.
    func compactErased() throws(ToolError) {
        let l = try load(full: true, forceRebuild: true)
        var rewritten = false
        var tombstones: [(Stamp, JSONObject)] = []
        var reads: [JournalRead] = []
        let entries = try journalEntries()
        for (i, e) in entries.enumerated() {
            if let r = try readJournal(e, index: i, from: 0, tag: nil) { reads.append(r) }
        }
        for r in reads {
            for b in r.batches where b.hasErase {
                for e in b.events where e["type"]?.string == "erase" { tombstones.append((b.stamp, e)) }
            }
        }
        for e in entries where mayRewrite(e.name) {
            if (l.erased[e.name] ?? 0) > 0,
               let got = try Sys.readPeerFile(Sys.join(journalDir, e.name), from: 0, cap: Int.max, owner: e.uid) {
                try rewriteJournal(e.name, bytes: got.bytes, tombstones: tombstones)
                rewritten = true
            }
            // Set-aside debris may hold erased data too.
            Sys.removeFile(Sys.join(journalDir, String(e.name.dropLast(7)) + ".corrupt"))
        }
        for f in (try? Sys.scanDirectory(dir)) ?? [] where f.name.hasPrefix("snapshot.ndjson.bad-") {
            Sys.removeFile(Sys.join(dir, f.name))
        }
        let final = rewritten ? try load(full: true, forceRebuild: true) : l
        try writeSnapshot(final)
    }

    /// Rewrites one journal without the events erased by `tombstones`
    /// (batches left empty go too; commit lines keep their stamps).
    func rewriteJournal(_ name: String, bytes: [UInt8], tombstones: [(Stamp, JSONObject)]) throws(ToolError) {
        let actor = Store.actorOf(name)
        var out = [UInt8]()
        var batch: [[UInt8]] = []
        var last: Stamp? = nil
        try withBytes(bytes) { (raw) throws(ToolError) in
            try NDJSON.forEachLine(in: raw) { (_, line, next) throws(ToolError) -> Bool in
                guard next >= 0, let o = try? JSON.parseObject(line) else { return true }
                if o["type"]?.string == "commit" {
                    let eff = Store.effectiveStamp(Store.declaredStamp(o, actor: actor), previous: last, actor: actor)
                    last = eff
                    let schema = Int(o["schema"]?.int ?? 1)
                    var kept: [[UInt8]] = []
                    for b in batch {
                        guard let ev0 = try? JSON.parseObject(bytes: b) else { continue }
                        let ev = schema == M.schemaVersion ? ev0 : M.migrate(ev0, from: schema)
                        if ev["type"]?.string != "erase", tombstones.contains(where: { $0.0 > eff && M.erases($0.1, ev) }) { continue }
                        kept.append(b)
                    }
                    if !kept.isEmpty {
                        var body = [UInt8]()
                        for b in kept { body += b; body.append(0x0A) }
                        var c = o
                        c["n"] = .int(Int64(kept.count))
                        c["hlc"] = eff.clockJSON
                        c["sum"] = .string(Checksum.hex(Checksum.hash(body)))
                        out += body
                        c.write(into: &out)
                        out.append(0x0A)
                    }
                    batch.removeAll()
                } else {
                    batch.append(Array(line))
                }
                return true
            }
        }
        try Sys.writeFileAtomically(Sys.join(journalDir, name), out, mode: fileMode(for: name))
    }

    /// Rewrites every journal this copy may rewrite without the events `drop`
    /// selects (and batches left empty), removes the snapshot and set-aside
    /// debris, and rebuilds. For erasing on request in a store that does not
    /// sync; a synced store erases with a tombstone event ("erase") instead.
    /// Each file is replaced atomically; returns how many events went.
    @discardableResult
    public func purge(at: Instant, _ drop: (JSONObject) -> Bool) throws(ToolError) -> Int {
        try Sys.makeDirectories(dir)
        let lock = try FileLock.acquire(lockPath, timeoutMillis: options.lockTimeoutMillis,
                                        what: "the \(options.tool) data directory \(dir)")
        defer { lock.release() }
        var removed = 0
        for e in try journalEntries() where mayRewrite(e.name) {
            let path = Sys.join(journalDir, e.name)
            guard let got = try Sys.readPeerFile(path, from: 0, cap: Int.max, owner: e.uid) else { continue }
            Sys.removeFile(Sys.join(journalDir, String(e.name.dropLast(7)) + ".corrupt"))
            var out = [UInt8]()
            var batch: [[UInt8]] = []
            try withBytes(got.bytes) { (raw) throws(ToolError) in
                try NDJSON.forEachLine(in: raw) { (_, line, next) throws(ToolError) -> Bool in
                    guard next >= 0, let o = try? JSON.parseObject(line) else { return true }
                    if o["type"]?.string == "commit" {
                        if !batch.isEmpty {
                            var body = [UInt8]()
                            for b in batch { body += b; body.append(0x0A) }
                            var c = o
                            c["n"] = .int(Int64(batch.count))
                            if c["sum"] != nil { c["sum"] = .string(Checksum.hex(Checksum.hash(body))) }
                            out += body
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
            try Sys.writeFileAtomically(path, out, mode: fileMode(for: e.name))
        }
        Sys.removeFile(snapshotPath)
        return removed
    }

    /// Every journal the store believes, with its newest stamp.
    public func journals() throws(ToolError) -> [JournalInfo] {
        guard try checkDataDirectory() || !journalsAreLocal else { return [] }
        var out: [JournalInfo] = []
        for (i, e) in try journalEntries().enumerated() {
            // The newest stamp is on the last commit line: read the end only.
            let back = min(e.size, 4096)
            guard let got = try Sys.readPeerFile(Sys.join(journalDir, e.name), from: e.size - back, cap: back, owner: e.uid) else { continue }
            var last: Stamp? = nil
            if e.size <= back {
                last = parseJournal(got.bytes, skip: 0, base: 0, name: e.name, index: i, after: nil, size: got.size, peer: false).last
            } else {
                let actor = Store.actorOf(e.name)
                for line in got.bytes.split(separator: 0x0A).reversed() {
                    if let o = try? JSON.parseObject(bytes: Array(line)), o["type"]?.string == "commit" {
                        last = Store.declaredStamp(o, actor: actor)
                        break
                    }
                }
            }
            out.append(JournalInfo(actor: Store.actorOf(e.name), bytes: e.size, lastStamp: last, owner: e.uid))
        }
        return out
    }

    func append(_ bytes: [UInt8], to rel: String) throws(ToolError) {
        let path = Sys.join(journalDir, rel)
        let fd = try Sys.openForAppend(path, mode: fileMode(for: rel), giveAway: options.trust != .perUser)
        defer { close(fd) }
        guard Sys.writeAll(fd: fd, bytes) else {
            throw ToolError(.ioError, "cannot write \(path): \(Sys.errnoString())")
        }
        guard fsync(fd) == 0 else { throw ToolError(.ioError, "cannot sync \(path): \(Sys.errnoString())") }
    }

    /// Moves an interrupted write's bytes, and committed lines that cannot be
    /// read, to the .corrupt file, and leaves the journal with the rest.
    func setAside(_ rel: String, committedEnd: Int, size: Int, bad: [Range<Int>]) throws(ToolError) {
        let path = Sys.join(journalDir, rel)
        guard let got = try Sys.readPeerFile(path, from: 0, cap: Int.max) else { return }
        let bytes = got.bytes
        var debris = [UInt8]()
        for r in bad where r.upperBound <= bytes.count { debris += bytes[r] }
        if bytes.count > committedEnd { debris += bytes[committedEnd...] }
        if debris.isEmpty { return }
        if debris.last != 0x0A { debris.append(0x0A) }
        let corrupt = String(path.dropLast(".ndjson".count)) + ".corrupt"
        let cfd = try Sys.openForAppend(corrupt, mode: 0o600)
        let ok = Sys.writeAll(fd: cfd, debris) && fsync(cfd) == 0
        close(cfd)
        guard ok else { throw ToolError(.ioError, "cannot write \(corrupt): \(Sys.errnoString())") }
        if bad.isEmpty {
            try Sys.truncateFile(path, to: committedEnd)
            Diagnostics.error("an earlier run was interrupted: set aside \(debris.count) bytes of its unfinished write in \(corrupt)")
        } else {
            var kept = [UInt8]()
            var pos = 0
            for r in bad.sorted(by: { $0.lowerBound < $1.lowerBound }) where r.lowerBound >= pos {
                kept += bytes[pos..<r.lowerBound]
                pos = r.upperBound
            }
            kept += bytes[pos..<min(committedEnd, bytes.count)]
            try Sys.writeFileAtomically(path, kept, mode: fileMode(for: rel))
            Diagnostics.error("set aside \(debris.count) bytes of \(path) that cannot be read in \(corrupt)")
        }
    }
}

extension Checksum {
    /// The hash of `bytes` continuing from a hash of `seedBytes`.
    static func hash(_ bytes: [UInt8], seedBytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { hash($0, seed: hash(seedBytes)) }
    }
}

/// Store warnings, each printed once per process (a command may load twice).
enum StoreWarnings {
    nonisolated(unsafe) static var warned: Set<String> = []
    static func once(_ m: String) {
        if warned.insert(m).inserted { Diagnostics.error(m) }
    }
}

extension JSON {
    /// An object from bytes in an array.
    static func parseObject(bytes: [UInt8]) throws(JSONParseError) -> JSONObject {
        try withBytes(bytes) { (raw) throws(JSONParseError) in try JSON.parseObject(raw) }
    }
}
