// How a store is opened: which tool, which actor writes, where the journals
// live and whose journals it believes (trust), and the caps on peers.
//
// Invariants: an actor name is letters, digits, '-', '_' and '.', never
// starting with '.', at most 128 bytes, never a sync engine's conflict copy
// name; TOOL_ACTOR picks the actor only where the store is private to one uid
// (checked in Journals.swift).

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
    /// effective uid unless a test says otherwise. Looked up when a commit
    /// asks (a reader never does: the password database is not read).
    public var user: String {
        get { givenUser ?? Sys.loginName() }
        set { givenUser = newValue }
    }
    private var givenUser: String?
    public var lockTimeoutMillis: Int
    /// Fold at most this many events past the snapshot before writing a new
    /// one (a reader, four times as many). Every run reads and checks the
    /// tail past the snapshot again, so readers that run every few seconds
    /// (status bars, cron) pay for it each time; a writer rewrites the
    /// snapshot once per this many changes.
    public var snapshotEvery: Int
    /// Where the journals live, when not in the data directory.
    public var journalFolder: String? = nil
    /// Whether that folder is shared with other logins (readable files).
    public var sharedWithOthers = false
    /// The mode of journal files in a shared folder (default 0644).
    public var sharedFileMode: UInt32? = nil
    /// Journals in subfolders of `journalFolder` rather than in it: each
    /// entry a folder ("journal", "private", "pairs/x1"), "NAME/*" for every
    /// folder inside NAME whose name, split at "+", includes this actor (a
    /// folder per pair of people), "NAME/**" for every folder inside NAME,
    /// or "NAME/**/LEAF" for the folder LEAF in each of them (entered by
    /// name: the folders inside NAME need not be listable).
    /// The first entry is where writes go by default.
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
    /// The clock was pinned (--now): a what-if or a backfill, where stamps
    /// ahead of it are expected and not worth a warning.
    public var clockPinned = false
    /// Peer batches stamped more than this ahead of the reader's clock wait
    /// for their time, whatever the trust. nil: a day, and only among
    /// strangers (`.perUser`).
    public var peerHorizonMillis: Int64? = nil
    /// Per subfolder entry, the only actors whose files are looked at there:
    /// any other name is passed over before it is even stat'ed (a folder of
    /// thousands where a reader needs one or two files).
    public var actorsIn: [String: Set<String>] = [:]
    /// Subfolder entries of `actorsIn` looked up by name, not listed, once
    /// they hold far more entries than actors (`Store.crowded`): each
    /// actor's NAME.ndjson and the journals this copy has folded there. One
    /// writer's flood of junk names then costs the other readers nothing;
    /// a NAME~N journal they have never folded (made while somebody held
    /// NAME.ndjson) is seen once `namesWhenCrowded` names it.
    public var byNameWhenCrowded: Set<String> = []
    /// Per such folder, more names to look up there: NAME~N journals of
    /// actors whose NAME.ndjson somebody else holds, as one trusted to list
    /// the folder found them (habitmatch: the pool owner's run).
    public var namesWhenCrowded: [String: [String]] = [:]
    /// Per top folder of a journal's path ("journal", "pairs"), the most
    /// bytes of a peer's journal ever read: what lies past it counts for
    /// nothing, so no peer can make every reader fold more.
    public var peerFileQuota: [String: Int] = [:]
    /// Top folders whose peers' journals are read through this copy's
    /// private mirror (`Store.peerRead`): one another login may watch, where
    /// how often a file is opened must follow only its own changes.
    public var mirroredFolders: Set<String> = []
    /// Problems with other actors' files (ignored names, unreadable batches,
    /// stamps far ahead) are not reported: somebody else reports them.
    public var quietPeers = false

    /// Facts the host proves rather than any journal (who owns a shared
    /// folder, as the file system says), folded before every journal's
    /// first batch, stamped zero with no actor. A snapshot holds them as it
    /// holds the rest of the state.
    public var hostFacts: [JSONObject] = []
    /// Commit lines without a checksum count for nothing (a folder shared
    /// with strangers, where a writer's own hands could append one).
    public var requireChecksums = false

    /// Batches are signed and verified with SSH keys (Signing.swift): nil
    /// for a folder without an allowed_signers list.
    public var signatures: StoreSignatures? = nil

    /// Writers move the change time of the folder they append in, and a
    /// reader believes its last full listing again while every folder it
    /// looked in is unchanged (Listing.swift): a folder of thousands of
    /// journals is then not stat'ed file by file on each run. For folders
    /// only this tool (or a sync engine that renames what it writes) changes.
    public var folderStamps = false

    /// Whether TOOL_ACTOR chose the actor (honoured only in a private store).
    public var actorFromEnvironment = false

    public init(tool: String, actor: String? = nil, user: String? = nil, lockTimeoutMillis: Int? = nil, snapshotEvery: Int = 32) {
        self.tool = tool
        if actor == nil, let e = Sys.env(tool.uppercased() + "_ACTOR"), !e.isEmpty { actorFromEnvironment = true }
        self.actor = StoreOptions.sanitize(actor ?? Sys.env(tool.uppercased() + "_ACTOR").flatMap { $0.isEmpty ? nil : $0 } ?? Sys.hostname())
        self.givenUser = user
        self.lockTimeoutMillis = lockTimeoutMillis ?? 10_000  // TOOL_LOCK_TIMEOUT: Config.lockTimeoutMillis
        self.snapshotEvery = snapshotEvery
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
