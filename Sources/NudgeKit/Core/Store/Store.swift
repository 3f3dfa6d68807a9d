// The tools' store: an append-only NDJSON journal per actor, folded into
// the current state in causal order, with a snapshot so that start-up does
// not grow with history.
//
//   JOURNALS/ACTOR.ndjson      events; each command's batch ends with a commit line
//                              {"type":"commit","n":…,"at":…,"by":…,"schema":…,"hlc":[ms,counter],"sum":…}
//   JOURNALS/ACTOR.corrupt     bytes set aside (interrupted writes, unreadable lines), never dropped
//   DATA/snapshot.ndjson       header, hot lines, {"type":"cold"}, cold lines, {"type":"end"}
//   DATA/checkpoint.ndjson     an older snapshot, for late batches (Checkpoint.swift)
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
//   makes the reader fold everything again (from the checkpoint, when that
//   gives the same fold).
// - A batch whose checksum fails, or a committed line that does not parse,
//   counts for nothing and is reported on every command until the journal's
//   writer sets its bytes aside in .corrupt.
// - The snapshot carries checksums and, per journal, the offset, the last
//   stamp and the number of unusable batches it folded. A snapshot that fails
//   a check is moved aside (never overwritten) and the state rebuilt from the
//   journals.
// - Once a command's commit line is fsynced, nothing after it (compaction,
//   snapshot) can fail the command: such problems are warnings.
//
// The store's parts, each in its own file here: JournalModel (what a tool
// gives, the transaction), StoreOptions (how it is opened, trust), Stamp
// (the order of batches), Journals (which files are believed),
// JournalReading (one journal cut into batches), ReadPath (the snapshot and
// the one fold), Snapshot (its format and checks), Commit (the lock, the
// append, setting damage aside), Erasing (tombstones, the one journal
// rewrite), Checkpoint (the older snapshot a late batch folds from),
// Restamping (batches stamped ahead of the clock), Listing (a folder's
// listing kept between runs), Devices (`TOOL devices`).

/// What a store knows of one journal: for `TOOL devices` and the like.
public struct JournalInfo: Sendable, Equatable {
    public var actor: String
    public var bytes: Int
    /// The newest batch's stamp (wall clock ms of its writer), if any.
    public var lastStamp: Stamp?
    public var owner: UInt32
}

/// A journal's place in a snapshot: folded up to `end`, where its last
/// folded commit line has the 32-bit checksum `tag` and the stamp `last`
/// (unknown in snapshots written before it was kept), with `bad` unusable
/// batches or lines before it.
struct JournalMark: Equatable {
    var end: Int
    var tag: UInt32
    var bad: Int
    var last: Stamp? = nil
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

    /// `actorOf` on a name's bytes, for names in the plain form DIR/ACTOR.ndjson
    /// (no "~N"); nil otherwise (the caller asks `actorOf`).
    static func actorOf(bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.count > 7, bytes.suffix(7).elementsEqual(".ndjson".utf8) else { return nil }
        var start = bytes.endIndex - 7
        while start > bytes.startIndex && bytes[start - 1] != 0x2F {
            start -= 1
            if bytes[start] == 0x7E { return nil }
        }
        return String(decoding: bytes[start..<(bytes.endIndex - 7)], as: UTF8.self)
    }

    /// The actor of a NAME~N.ndjson journal name; nil for any other name.
    static func tildeActor(_ leaf: Substring) -> String? {
        guard leaf.hasSuffix(".ndjson"), !leaf.contains("/") else { return nil }
        let base = leaf.dropLast(7), actor = actorPart(base)
        return actor.count < base.count ? String(actor) : nil
    }
    static func actorPart(_ base: Substring) -> Substring {
        if let t = base.lastIndex(of: "~"), base[base.index(after: t)...].count <= 8,
           let n = Int(base[base.index(after: t)...]), n >= 2 {
            return base[..<t]
        }
        return base
    }
    /// The subfolder part of a journal name ("" at the top).
    /// Whether a folder one writes in is the subfolder entry `sub`: the
    /// folder itself, or one folder inside NAME for "NAME/*" and "NAME/**".
    static func folder(_ f: String, isIn sub: String) -> Bool {
        if f == sub { return true }
        // "P/**/LEAF": P/ONE/LEAF.
        if let (p, leaf) = starsSplit(sub), !leaf.isEmpty {
            guard f.hasPrefix(p + "/"), f.hasSuffix(leaf) else { return false }
            let mid = f.dropFirst(p.count + 1).dropLast(leaf.count)
            return !mid.isEmpty && !mid.contains("/")
        }
        let parent: Substring
        if sub.hasSuffix("/**") { parent = sub.dropLast(2) } else if sub.hasSuffix("/*") { parent = sub.dropLast(1) } else { return false }
        return f.hasPrefix(parent) && f.count > parent.count && !f.dropFirst(parent.count).contains("/")
    }

    static func scopeOf(_ rel: String) -> String {
        rel.lastIndex(of: "/").map { String(rel[..<$0]) } ?? ""
    }
    func isOwn(_ rel: String) -> Bool {
        // The file name is ACTOR.ndjson or ACTOR~N.ndjson (checked on bytes:
        // called for every journal of a large pool).
        var actor = options.actor
        var r = rel
        let verdict: Bool? = actor.withUTF8 { a in
            r.withUTF8 { (b) -> Bool? in
                var start = b.count
                while start > 0 && b[start - 1] != 0x2F { start -= 1 }
                let n = b.count - start
                guard n >= a.count, memcmp(b.baseAddress! + start, a.baseAddress!, a.count) == 0 else { return false }
                if n == a.count + 7 && memcmp(b.baseAddress! + start + a.count, ".ndjson", 7) == 0 { return true }
                return nil
            }
        }
        if let v = verdict { return v }
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
        let mine = { (st: stat) in (st.st_mode & S_IFMT) == S_IFREG && st.st_uid == me }
        // NAME~N as the one who lists a crowded folder named it: found without a listing.
        if let sub = f, let named = options.namesWhenCrowded[sub] {
            var st = stat()
            if lstat(Sys.join(journalDir, base + ".ndjson"), &st) != 0 || !mine(st) {
                for n in named where Store.tildeActor(Substring(n)) == options.actor {
                    if lstat(Sys.join(journalDir, sub + "/" + n), &st) == 0 && mine(st) { return sub + "/" + n }
                }
            }
        }
        // NAME~N this writer chose before, in a folder it may not list: remembered in its own folder.
        let remembered = Sys.join(dir, "own-name")
        if let sub = f {
            // The copy read once a process first; before choosing anew, the file again (another command of this
            // writer may have chosen since), so one writer never ends up with two journals.
            // (Only when this writer's plain name is taken by someone else: otherwise `claimName` keeps it, and the
            // memo spares the file's open on every batch.)
            for fresh in [false, true] {
                if fresh {
                    var st = stat()
                    if lstat(Sys.join(journalDir, base + ".ndjson"), &st) != 0 || mine(st) { break }
                    OwnNames.forget(remembered)
                }
                for line in OwnNames.read(remembered) where line.hasPrefix(sub + "/") && !line.contains("..") {
                    var st = stat()
                    if lstat(Sys.join(journalDir, line), &st) != 0 || mine(st) { return line }
                }
            }
        }
        let name = Sys.claimName(in: journalDir, base: base, ext: ".ndjson", mine: mine)
        if name != base + ".ndjson", let sub = f, access(Sys.join(journalDir, sub), R_OK) != 0, Sys.isDirectory(dir) {
            OwnNames.write(remembered, [name])
        }
        return name
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
        /// Folded again from the journals while a snapshot stood (a peer
        /// rewrote its journal, an erasing batch arrived, the snapshot was
        /// refused): the snapshot it replaces may hold what an erasure took
        /// out, so it becomes no checkpoint.
        var refolded = false
        /// A full listing made by this load, and the snapshot it read
        /// (checksum, marks): what a later run may remember it against.
        var listing: Listing? = nil
        var base: (sum: UInt64, marks: [String: JournalMark])? = nil
    }
    static func warnOnce(_ m: String) { StoreWarnings.once(m) }
}

extension Checksum {
    /// The hash of `bytes` continuing from a hash of `seedBytes`.
    static func hash(_ bytes: [UInt8], seedBytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { hash($0, seed: hash(seedBytes)) }
    }
}

/// Store warnings, each printed once per process (a command may load twice).
enum StoreWarnings {
    static let warned = Locked(Set<String>())
    static func once(_ m: String) {
        if warned.withLock({ $0.insert(m).inserted }) { Diagnostics.error(m) }
    }
    /// Forgets what was said (tests that count warnings).
    static func reset() { warned.withLock { $0 = [] } }
}

extension JSON {
    /// An object from bytes in an array.
    static func parseObject(bytes: [UInt8]) throws(JSONParseError) -> JSONObject {
        try withBytes(bytes) { (raw) throws(JSONParseError) in try JSON.parseObject(raw) }
    }
}

/// The `own-name` file of a store's folder (NAME~N a writer chose in a folder
/// it may not list), read once a process: `target` asks for it on every
/// batch.
enum OwnNames {
    static let memo = Locked<[String: [String]]>([:])

    static func read(_ path: String) -> [String] {
        if let known = memo.withLock({ $0[path] }) { return known }
        let text = ((try? Sys.readFile(path)) ?? nil).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let lines = text.split(separator: "\n").map(String.init)
        memo.withLock { $0[path] = lines }
        return lines
    }

    static func write(_ path: String, _ lines: [String]) {
        try? Sys.writeFileAtomically(path, Array(lines.map { $0 + "\n" }.joined().utf8), mode: 0o600)
        forget(path)
    }

    static func forget(_ path: String) { memo.withLock { $0[path] = nil } }
}
