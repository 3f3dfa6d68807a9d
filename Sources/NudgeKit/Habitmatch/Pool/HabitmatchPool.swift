// The pool on disk, who is acting in it, and who may read what.
//
//   POOL/pool.conf            kind = host|synced, owner = LOGIN
//   POOL/journal/USER.ndjson  the profile without e-mail, habits, swipes, accepts, unmatches (the pool reads it)
//   POOL/private/USER.ndjson  e-mail and done days (the member and their buddies read it)
//   POOL/self/USER.ndjson     reminder times and what was already announced (the member only)
//   POOL/pairs/A+B/USER.ndjson  chat, meetings, a block (the two of them)
//   POOL/reports/USER.ndjson  reports (the member and the pool's owner)
//
// A host pool is one folder that several logins share on one machine: its
// folders are setgid to the pool's group and sticky (nobody removes anyone
// else's file); a member is their login, and a journal counts only when its
// owner is the login it is named after. Who may read a private, pair or
// report file is a POSIX ACL on it, set by its owner's own commands.
//
// A synced pool is a folder a sync engine keeps in step across machines:
// every file there belongs to whoever runs the engine, so names cannot be
// proven by the file system and nothing is private from a member who has
// the folder. `--user` picks the member there, and only there.

extension Habitmatch {
    public enum PoolKind: String, Sendable { case host, synced }

    public struct Pool: Sendable {
        public var path: String
        public var kind: PoolKind
        /// The pool folder's owner: who reads reports.
        public var owner: UInt32
        /// A folder made before pool.conf existed (habitmatch 0.1).
        public var legacy: Bool
    }

    static let poolKeys = ["kind", "owner", "max_buddies"]
    static let folders = ["journal", "private", "self", "pairs/*", "reports"]

    static func poolPath(_ ctx: Context) -> String {
        var p = ctx.option("pool") ?? Sys.env("HABITMATCH_POOL").flatMap { $0.isEmpty ? nil : $0 } ?? Sys.join(ctx.dataDir, "pool")
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        return p
    }

    static func poolDir(_ ctx: Context) -> String { poolPath(ctx) }

    /// The pool as its folder says; a folder that does not exist yet reads
    /// as a synced pool of this user's (made on the first join).
    static func pool(_ ctx: Context) throws(ToolError) -> Pool {
        try loadPool(poolPath(ctx))
    }

    static func loadPool(_ path: String) throws(ToolError) -> Pool {
        var st = stat()
        guard stat(path, &st) == 0 else {
            if errno == ENOENT { return Pool(path: path, kind: .synced, owner: UInt32(geteuid()), legacy: false) }
            throw Sys.accessError(path)
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { throw ToolError(.ioError, "the pool \(path) is not a folder") }
        guard let bytes = try Sys.readFile(Sys.join(path, "pool.conf")) else {
            return Pool(path: path, kind: .synced, owner: UInt32(st.st_uid), legacy: true)
        }
        let c = try Config.parse(String(decoding: bytes, as: UTF8.self), path: Sys.join(path, "pool.conf"), known: poolKeys)
        guard let kind = PoolKind(rawValue: c["kind"] ?? "") else {
            throw ToolError(.config, "\(c.path): kind must be host or synced")
        }
        return Pool(path: path, kind: kind, owner: UInt32(st.st_uid), legacy: false)
    }

    /// Who is acting: in a host pool, the login (proven by the kernel);
    /// elsewhere --user, HABITMATCH_USER or the login.
    static func me(_ ctx: Context) -> String {
        let asked = ctx.option("user") ?? Sys.env("HABITMATCH_USER").flatMap { $0.isEmpty ? nil : $0 }
        if let p = try? pool(ctx), p.kind == .host { return Sys.loginName() }
        return StoreOptions.sanitize(asked ?? Sys.loginName())
    }

    /// Refuses --user or HABITMATCH_USER naming somebody else in a host pool.
    static func checkIdentity(_ ctx: Context, _ p: Pool) throws(ToolError) {
        guard p.kind == .host else { return }
        let login = Sys.loginName()
        if let asked = ctx.option("user") ?? Sys.env("HABITMATCH_USER").flatMap({ $0.isEmpty ? nil : $0 }), asked != login {
            let via = ctx.option("user") != nil ? "--user" : "HABITMATCH_USER"
            throw ToolError(.noPermission, "in the host pool \(p.path) you are \(login), the login running this command; \(via) cannot make you \(asked)")
        }
    }

    static func store(_ ctx: Context) throws(ToolError) -> Store<HabitmatchState> {
        warnIfOpen(ctx.dataDir)
        let p = try pool(ctx)
        try checkIdentity(ctx, p)
        // A pool this user may not look into is an error naming it (77),
        // not an empty pool.
        _ = try Sys.pathState(Sys.join(p.path, "journal"))
        let user = me(ctx)
        var o = StoreOptions(tool: "habitmatch", actor: user, user: user, lockTimeoutMillis: ctx.lockTimeoutMillis)
        o.nowMillis = ctx.now.ms
        o.journalFolder = p.path
        o.subfolders = folders
        o.tagActor = true
        o.tagScope = true
        o.peerReadCap = 2 << 20
        o.maxPeerLineBytes = 16 << 10
        if p.kind == .host {
            o.sharedWithOthers = true
            o.trust = .perUser
            o.sharedFileMode = 0o600
            o.subfolderFileModes = ["journal": 0o640]
        } else {
            o.trust = .transport
            o.sharedFileMode = 0o600
        }
        // Each member's private snapshot and lock, per pool.
        let key = String(Playa.stableHash(p.path), radix: 16)
        return Store(dir: Sys.join(ctx.dataDir, "state-\(user)-\(key)"), options: o)
    }

    /// The folder of a pair's files: both names, sorted, joined by "+".
    static func pairFolder(_ a: String, _ b: String) -> String { "pairs/" + (a < b ? a + "+" + b : b + "+" + a) }

    /// The pair's folder to write in: "pairs/A+B", or "pairs/A+B~N" when a
    /// folder of that name was made by somebody who is neither of them (in a
    /// host pool anyone may make folders in pairs/; only theirs are used).
    static func pairFolder(_ ctx: Context, _ a: String, _ b: String) throws(ToolError) -> String {
        let base = pairFolder(a, b)
        let p = try pool(ctx)
        guard p.kind == .host else { return base }
        // Each member writes in a pair folder of their own: the owner of a
        // folder may remove anything in it, so it must be the writer.
        let me = geteuid()
        return Sys.claimName(in: p.path, base: base, ext: "") { st in
            (st.st_mode & S_IFMT) == S_IFDIR && st.st_uid == me
        }
    }

    /// Records one batch in one folder of the pool (the journal by default),
    /// then keeps who may read this member's files in step.
    static func write<R>(_ ctx: Context, folder: String = "journal",
                         _ body: (inout Transaction<HabitmatchState>) throws(ToolError) -> R) throws(ToolError) -> R {
        let p = try pool(ctx)
        if p.kind == .synced && !Sys.isDirectory(Sys.join(p.path, "journal")) { try initSyncedPool(p.path) }
        let st = try store(ctx)
        var final: HabitmatchState? = nil
        let r = try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> R in
            tx.folder = folder
            let r = try body(&tx)
            final = tx.state
            return r
        }
        // The change is saved: a problem sharing it is a warning, never a failure.
        if let s = final {
            do throws(ToolError) { try syncReaders(ctx, st, s) } catch {
                Store<HabitmatchState>.warnOnce("saved, but who may read it could not be set: \(error.message)")
            }
        }
        return r
    }

    /// In a host pool: a member's private file is readable by those they
    /// accepted as buddies, a pair file by the other of the pair, a report
    /// by the pool's owner. Set on the member's own files by their commands.
    static func syncReaders(_ ctx: Context, _ st: Store<HabitmatchState>, _ s: HabitmatchState) throws(ToolError) {
        let p = try pool(ctx)
        guard p.kind == .host else { return }
        let u = me(ctx)
        func set(_ rel: String, _ names: [String]) throws(ToolError) {
            let path = Sys.join(p.path, rel)
            guard Sys.fileExists(path) else { return }
            try ACL.ensureReaders(path: path, names.compactMap { Users.uid(of: $0) })
        }
        let accepted = (s.accepts[u] ?? []).filter { s.isMatch(u, $0) }
        try set(st.target("private"), accepted.sorted())
        try set(st.target("reports"), [])
        let reportPath = Sys.join(p.path, st.target("reports"))
        if Sys.fileExists(reportPath), p.owner != geteuid() { try ACL.ensureReaders(path: reportPath, [p.owner]) }
        for other in s.members.keys where other != u {
            let rel = st.target(try pairFolder(ctx, u, other))
            if Sys.fileExists(Sys.join(p.path, rel)) { try set(rel, [other]) }
        }
    }

    /// A pool for one login's devices: private folders, names not checked.
    static func initSyncedPool(_ path: String) throws(ToolError) {
        var p = path
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        try Sys.makeDirectories(p)
        for f in ["journal", "private", "self", "pairs", "reports"] { try Sys.makeDirectories(Sys.join(p, f)) }
        let conf = Sys.join(p, "pool.conf")
        if !Sys.fileExists(conf) {
            try Sys.writeFileAtomically(conf, Array("# habitmatch pool\nkind = synced\nowner = \(Sys.loginName())\n".utf8), mode: 0o600)
        }
    }

    static func poolInit(_ ctx: Context) throws(ToolError) -> ExitCode {
        var path = ctx.operands[0]
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        if Sys.fileExists(Sys.join(path, "pool.conf")) {
            throw ToolError(.cantCreate, "\(path) is already a pool (\(Sys.join(path, "pool.conf")))")
        }
        if ctx.flag("synced") {
            if ctx.option("group") != nil { throw .usage("--group is for a host pool; a synced pool belongs to the login running the sync engine") }
            try initSyncedPool(path)
            ctx.out.emit(["type": "pool", "path": .string(path), "kind": "synced", "owner": .string(Sys.loginName())],
                         text: "Made the synced pool \(path): share it with a sync engine; anyone who has the folder can read all of it")
            return .ok
        }
        // A host pool: group-shared, setgid, sticky.
        var gid = getegid()
        if let g = ctx.option("group") {
            guard let gr = getgrnam(g) else { throw .usage("--group: no group '\(g)' on this host (make one with groupadd, and add the members)") }
            gid = gr.pointee.gr_gid
        }
        let groupName = getgrgid(gid).flatMap { $0.pointee.gr_name.map { String(cString: $0) } } ?? "\(gid)"
        func make(_ dir: String, _ mode: UInt32) throws(ToolError) {
            if mkdir(dir, 0o700) != 0 && errno != EEXIST { throw Sys.accessError(dir, verb: "create") }
            var st = stat()
            guard lstat(dir, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { throw ToolError(.cantCreate, "cannot create \(dir): something else is in the way") }
            if chown(dir, uid_t(UInt32.max), gid) != 0 { throw ToolError(.noPermission, "cannot give \(dir) to the group \(groupName): \(Sys.errnoString()) (you must be in the group, or root)") }
            if chmod(dir, mode_t(mode)) != 0 { throw Sys.accessError(dir, verb: "set the mode of") }
        }
        try Sys.makeDirectories(Sys.parentDirectory(path), mode: 0o755)
        try make(path, 0o2750)
        for f in ["journal", "private", "self", "pairs", "reports"] { try make(Sys.join(path, f), 0o3770) }
        let conf = Sys.join(path, "pool.conf")
        try Sys.writeFileAtomically(conf, Array("# habitmatch pool: members are the logins of group \(groupName)\nkind = host\nowner = \(Sys.loginName())\n".utf8), mode: 0o640)
        _ = chown(conf, uid_t(UInt32.max), gid)
        ctx.out.emit(["type": "pool", "path": .string(path), "kind": "host", "group": .string(groupName), "owner": .string(Sys.loginName())],
                     text: "Made the pool \(path) for the members of group \(groupName); each joins with: habitmatch --pool \(path) join --name NAME --habit HABIT")
        return .ok
    }

    static func poolReports(_ ctx: Context) throws(ToolError) -> ExitCode {
        let p = try pool(ctx)
        guard p.owner == geteuid() || geteuid() == 0 else {
            throw ToolError(.noPermission, "only the pool's owner (\(Users.name(of: p.owner) ?? "uid \(p.owner)")) reads reports")
        }
        let s = try store(ctx).read()
        for r in s.reports.sorted(by: { ($0.at, $0.reporter) < ($1.at, $1.reporter) }) {
            ctx.out.emit(["type": "report", "reporter": .string(r.reporter), "user": .string(r.user), "reason": .string(r.reason),
                          "at": .string(ctx.clock.format(r.at))],
                         text: "\(ctx.clock.format(r.at))  \(Text.terminalSafe(r.reporter)) about \(Text.terminalSafe(r.user)): \(Text.terminalSafe(r.reason))")
        }
        return .ok
    }

    static func unmatch(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        let m = try member(s, ctx)
        let o = try other(s, ctx.operands[0])
        guard s.isMatch(m.user, o.user) else { throw ToolError(.dataError, "\(o.user) is not a match of yours") }
        try write(ctx) { (tx) throws(ToolError) in tx.record(["type": "unmatch", "user": .string(o.user)]) }
        ctx.out.emit(["type": "unmatch", "user": .string(o.user)],
                     text: "Unmatched \(Text.terminalSafe(o.name)): no chat, no meetings, and they will not come round again")
        return .ok
    }

    static func block(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        let m = try member(s, ctx)
        let o = try other(s, ctx.operands[0])
        guard o.user != m.user else { throw .usage("you cannot block yourself") }
        try write(ctx, folder: try pairFolder(ctx, m.user, o.user)) { (tx) throws(ToolError) in tx.record(["type": "block", "user": .string(o.user)]) }
        ctx.out.emit(["type": "block", "user": .string(o.user)],
                     text: "Blocked \(Text.terminalSafe(o.name)): you will not see each other again, and what they write about you is ignored")
        return .ok
    }

    static func report(_ ctx: Context) throws(ToolError) -> ExitCode {
        let reason = ctx.operands.dropFirst().joined(separator: " ").trimmingSpaces
        guard !reason.isEmpty, reason.count <= 500 else { throw .usage("report needs a reason of 1 to 500 characters: habitmatch report USER WHAT HAPPENED") }
        let s = try store(ctx).read()
        _ = try member(s, ctx)
        let o = try other(s, ctx.operands[0])
        try write(ctx, folder: "reports") { (tx) throws(ToolError) in
            tx.record(["type": "report", "user": .string(o.user), "reason": .string(reason)])
        }
        ctx.out.emit(["type": "report", "user": .string(o.user), "reason": .string(reason)],
                     text: "Reported \(Text.terminalSafe(o.user)) to the pool's owner")
        return .ok
    }
}

