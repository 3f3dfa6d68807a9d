// The pool on disk: its folders, its kind, and making one.
//
//   POOL/pool.conf            kind = host|synced, owner = LOGIN
//   POOL/journal/USER.ndjson  the profile without e-mail, and the habits (the pool reads it)
//   POOL/private/USER.ndjson  e-mail and done days (the member and their buddies read it)
//   POOL/self/USER.ndjson     reminder times and what was already announced (the member only)
//   POOL/spool/USER.ndjson    likes, passes, unmatches, blocks (the member and the pool's owner)
//   POOL/notices/USER/OWNER.ndjson  what the owner's run tells USER: matches, ends, blocks (USER only)
//   POOL/pairs/F/USER.ndjson  chat, meetings, accepts, a copy of an unmatch or block (the two of them;
//                             F a random name the owner's run gives a match; "A+B" in a synced pool)
//   POOL/reports/USER.ndjson  reports (the member and the pool's owner)
//
// In a host pool self, spool and reports are written one level further in,
// KIND/USER/in/USER.ndjson, and notices in notices/USER/in/ (the flat
// names above are read as pools made before kept them): KIND/USER is open
// to nobody but the member (and the owner, to pass through), so a third
// member sees a folder made once that never changes, and not the folder
// written in, its times, nor the file's size. pairs/ is open to pass
// through but not to list, and keeps spare folders the owner's run made
// ahead (`spareFolders`), so a match makes nothing anyone else can see.
//
// A host pool is one folder that several logins share on one machine: its
// folders are setgid to the pool's group and sticky (nobody removes anyone
// else's file); a member is their login, and a journal counts only when its
// owner is the login it is named after. Who may read a private, pair or
// report file is a POSIX ACL on it, set by its owner's own commands
// (HabitmatchPoolAccess.swift).
//
// A synced pool is a folder a sync engine keeps in step across machines:
// every file there belongs to whoever runs the engine, so names cannot be
// proven by the file system and nothing is private from a member who has
// the folder. `--user` picks the member there, and only there.
//
// Invariants: a folder that does not exist yet reads as a synced pool of
// this user's (made on the first write); an existing folder without
// pool.conf reads as a synced pool; a pool.conf with another kind is bad
// configuration (78). In a host pool each member writes in a pair folder
// they own.

extension Habitmatch {
    public enum PoolKind: String, Sendable { case host, synced }

    public struct Pool: Sendable {
        public var path: String
        public var kind: PoolKind
        /// The pool folder's owner: who reads reports.
        public var owner: UInt32
    }

    static let poolKeys = ["kind", "owner", "max_buddies"]
    /// The folders a synced pool's store reads, each pair's folder under pairs/.
    static let folders = ["journal", "private", "self", "spool", "pairs/*", "reports"]
    /// The folders a new pool is made with (members write in all but notices/).
    static let poolFolders = ["journal", "private", "self", "spool", "pairs", "reports"]
    /// The kinds of a member's own files that, in a host pool, are written
    /// in a folder only they (and the pool's owner) may enter (`hiddenFolder`).
    static let hiddenKinds = ["spool", "self", "reports"]
    /// How many spare pair folders the owner's run keeps made ahead.
    static let spareFolders = 16
    /// The mode of a host pool's pairs/: its owner's, the group may pass
    /// through to a folder whose name they know, nobody may list it.
    static let pairsMode: UInt32 = 0o2710
    /// A host pool's folders and their modes: the group may pass through
    /// each, list none, and add to the folders members write in (sticky:
    /// nobody removes another's); members find the profiles in journal/ by
    /// name (the group's logins, and the names the owner's run gives). What a member
    /// may not list they cannot watch either (inotify needs read permission),
    /// so nobody sees which folders another's command or the owner's run opens.
    static let hostModes: [(folder: String, mode: UInt32)] = [
        (".", 0o2710), ("journal", 0o3730), ("private", 0o3730), ("self", 0o3730), ("spool", 0o3730),
        ("reports", 0o3730), ("pairs", pairsMode), ("notices", 0o2710),
    ]

    /// --pool, HABITMATCH_POOL, `pool` in the configuration, or a private
    /// pool of one in the data directory.
    static func poolPath(_ ctx: Context) -> String {
        var configured = (try? Config.load(directory: ctx.configDir, known: configKeys))?["pool"].flatMap { $0.isEmpty ? nil : $0 }
        if let c = configured, ctx.keptApart, ctx.option("pool") == nil, (Sys.env("HABITMATCH_POOL") ?? "").isEmpty {
            configured = ctx.setAside("pool", c, instead: "give --pool")
        }
        var p = ctx.option("pool") ?? Sys.env("HABITMATCH_POOL").flatMap { $0.isEmpty ? nil : $0 } ?? configured ?? Sys.join(ctx.dataDir, "pool")
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        return p
    }

    /// The start of the commands a notification's actions run: this pool
    /// (absolute) and this member, so a notifier started elsewhere — cron,
    /// a desktop daemon without HABITMATCH_POOL — acts on the same pool.
    static func commandPrefix(_ ctx: Context) -> String {
        var p = poolPath(ctx)
        if !p.hasPrefix("/") {
            var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            if getcwd(&buf, buf.count) != nil {
                let cwd = String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                p = p == "." ? cwd : Sys.join(cwd, p.hasPrefix("./") ? String(p.dropFirst(2)) : p)
            }
        }
        return "habitmatch --pool \(ToolSpec.shQuote(p)) --user \(ToolSpec.shQuote(me(ctx)))"
    }

    /// The pool as its folder says; a folder that does not exist yet reads
    /// as a synced pool of this user's (made on the first join).
    /// (Read once per process: how often another login sees pool.conf
    /// opened is then one per command, whatever the command.)
    static func pool(_ ctx: Context) throws(ToolError) -> Pool {
        let path = poolPath(ctx)
        if let p = loadedPools.withLock({ $0[path] }) { return p }
        let p = try loadPool(path)
        if Sys.isDirectory(path) { loadedPools.withLock { $0[path] = p } }
        return p
    }
    static let loadedPools = Locked<[String: Pool]>([:])
    /// Forgets the pools read: after one is made or changed in this process.
    static func forgetPools() { loadedPools.withLock { $0 = [:] } }

    static func loadPool(_ path: String) throws(ToolError) -> Pool {
        var st = stat()
        guard stat(path, &st) == 0 else {
            if errno == ENOENT { return Pool(path: path, kind: .synced, owner: UInt32(geteuid())) }
            throw Sys.accessError(path)
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { throw ToolError(.ioError, "the pool \(path) is not a folder") }
        guard let bytes = try Sys.readFile(Sys.join(path, "pool.conf")) else {
            return Pool(path: path, kind: .synced, owner: UInt32(st.st_uid))
        }
        let c = try Config.parse(String(decoding: bytes, as: UTF8.self), path: Sys.join(path, "pool.conf"), known: poolKeys)
        guard let kind = PoolKind(rawValue: c["kind"] ?? "") else {
            throw ToolError(.config, "\(c.path): kind must be host or synced")
        }
        return Pool(path: path, kind: kind, owner: UInt32(st.st_uid))
    }

    /// The folder of a pair's files in a synced pool: both names, sorted,
    /// joined by "+".
    static func pairFolder(_ a: String, _ b: String) -> String { "pairs/" + (a < b ? a + "+" + b : b + "+" + a) }

    /// The pair's folder to write in: in a host pool the one the pool's
    /// owner's run made for their match (a random name nobody else knows);
    /// in a synced pool "pairs/A+B". nil: a host pool pair with no match.
    static func pairFolder(_ p: Pool, _ s: HabitmatchState, _ a: String, _ b: String) -> String? {
        guard p.kind == .host else { return pairFolder(a, b) }
        return s.pairFolder(a, b).map { "pairs/" + $0 }
    }

    /// A pool for one login's devices: private folders, names not checked.
    static func initSyncedPool(_ path: String) throws(ToolError) {
        defer { forgetPools() }
        var p = path
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        try Sys.makeDirectories(p)
        for f in poolFolders { try Sys.makeDirectories(Sys.join(p, f)) }
        let conf = Sys.join(p, "pool.conf")
        if !Sys.fileExists(conf) {
            try Sys.writeFileAtomically(conf, Array("# habitmatch pool\nkind = synced\nowner = \(Sys.loginName())\n".utf8), mode: 0o600)
        }
    }

    /// A pool several logins share on this host: the folder and its
    /// subfolders given to the group `gid`, setgid, the subfolders sticky
    /// and group-writable, and a pool.conf the group reads. The name of the
    /// group is returned.
    static func makeHostPool(_ path: String, gid: gid_t) throws(ToolError) -> String {
        defer { forgetPools() }
        let groupName = getgrgid(gid).flatMap { $0.pointee.gr_name.map { String(cString: $0) } } ?? "\(gid)"
        try Sys.makeDirectories(Sys.parentDirectory(path), mode: 0o755)
        // (Only the owner's run makes pair folders and writes notices.)
        for (f, mode) in hostModes { try makeGroupFolder(f == "." ? path : Sys.join(path, f), mode, gid: gid) }
        let conf = Sys.join(path, "pool.conf")
        try Sys.writeFileAtomically(conf, Array("# habitmatch pool: members are the logins of group \(groupName)\nkind = host\nowner = \(Sys.loginName())\n".utf8), mode: 0o640)
        _ = chown(conf, uid_t(UInt32.max), gid)
        return groupName
    }

    /// A folder of the pool given to its group `gid`, with `mode`.
    static func makeGroupFolder(_ dir: String, _ mode: UInt32, gid: gid_t) throws(ToolError) {
        if mkdir(dir, 0o700) != 0 && errno != EEXIST { throw Sys.accessError(dir, verb: "create") }
        var st = stat()
        guard lstat(dir, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { throw ToolError(.cantCreate, "cannot create \(dir): something else is in the way") }
        if chown(dir, uid_t(UInt32.max), gid) != 0 {
            let groupName = getgrgid(gid).flatMap { $0.pointee.gr_name.map { String(cString: $0) } } ?? "\(gid)"
            throw ToolError(.noPermission, "cannot give \(dir) to the group \(groupName): \(Sys.errnoString()) (you must be in the group, or root)")
        }
        if chmod(dir, mode_t(mode)) != 0 { throw Sys.accessError(dir, verb: "set the mode of") }
    }
}
