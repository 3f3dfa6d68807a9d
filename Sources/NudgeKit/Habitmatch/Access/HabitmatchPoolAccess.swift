// Who is acting in the pool, how the store reads it, and who may read
// each member's files: everything here touches the disk or asks the
// kernel, and is kept apart from the pure rules for that reason.
//
// Invariants: in a host pool the actor is the login running the command
// (the kernel's word, never --user or HABITMATCH_USER, which are refused
// when they name somebody else); in a synced pool, and only there, --user
// picks the member. A command's change is on disk before readers are set;
// failing to set them is a warning, never a failed command.

extension Habitmatch {
    // MARK: Who is acting

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

    // MARK: Writing

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

    // MARK: Who may read what

    /// In a host pool: a member's private file is readable by their buddies
    /// (both accepted), a pair file by the other of the pair, a report by the
    /// pool's owner. Set on the member's own files by each of their commands,
    /// reads included, so a bond that ended (by either side) stops giving
    /// access on the member's next command of any kind.
    static func syncReaders(_ ctx: Context, _ st: Store<HabitmatchState>, _ s: HabitmatchState) throws(ToolError) {
        let p = try pool(ctx)
        guard p.kind == .host else { return }
        let u = me(ctx)
        func set(_ rel: String, _ names: [String]) throws(ToolError) {
            let path = Sys.join(p.path, rel)
            guard Sys.fileExists(path) else { return }
            try ACL.ensureReaders(path: path, names.compactMap { Users.uid(of: $0) })
        }
        try set(st.target("private"), s.buddies(of: u).sorted())
        let reportPath = Sys.join(p.path, st.target("reports"))
        if Sys.fileExists(reportPath) { try ACL.ensureReaders(path: reportPath, p.owner != geteuid() ? [p.owner] : []) }
        // Pair files exist only where there is (or was) something between the two.
        for other in s.related(to: u).sorted() {
            let rel = st.target(try pairFolder(p, u, other))
            if Sys.fileExists(Sys.join(p.path, rel)) { try set(rel, [other]) }
        }
    }

    /// The pool as this member sees it; in a host pool, who may read their
    /// files is brought in step with it first (a read may be the first time
    /// this member learns that a bond ended).
    static func view(_ ctx: Context) throws(ToolError) -> HabitmatchState {
        let st = try store(ctx)
        let s = try st.read()
        do throws(ToolError) { try syncReaders(ctx, st, s) } catch {
            Store<HabitmatchState>.warnOnce("who may read your files could not be set: \(error.message)")
        }
        return s
    }

    /// The data directory holds each member's private state folder (and the
    /// default pool): anyone who may write in it may replace them. Warned
    /// once, as the store warns about its own folder.
    static func warnIfOpen(_ dataDir: String) {
        guard case .directory(_, let mode)? = try? Sys.pathState(dataDir), mode & 0o002 != 0, mode & 0o1000 == 0 else { return }
        Store<HabitmatchState>.warnOnce("\(dataDir) is writable by everyone; fix: chmod 700 \(dataDir)")
    }
}

extension Habitmatch.Pool {
    /// How the store reads and writes this pool: every member's journal
    /// folders, tagged with the actor and the folder an event came from,
    /// peer files capped. In a host pool a file counts only when its owner
    /// is the login it is named after (journals readable by the group); in
    /// a synced pool the folder's transport is trusted.
    func storeOptions(user: String, lockTimeoutMillis: Int?, nowMillis: Int64) -> StoreOptions {
        var o = StoreOptions(tool: "habitmatch", actor: user, user: user, lockTimeoutMillis: lockTimeoutMillis)
        o.nowMillis = nowMillis
        o.journalFolder = path
        o.subfolders = Habitmatch.folders
        o.tagActor = true
        o.tagScope = true
        o.peerReadCap = 2 << 20
        o.maxPeerLineBytes = 16 << 10
        if kind == .host {
            o.sharedWithOthers = true
            o.trust = .perUser
            o.sharedFileMode = 0o600
            o.subfolderFileModes = ["journal": 0o640]
        } else {
            o.trust = .transport
            o.sharedFileMode = 0o600
        }
        return o
    }

    /// Each member's private snapshot and lock, per pool.
    func stateDirectory(dataDir: String, user: String) -> String {
        let key = String(StableHash.fnv1a(path), radix: 16)
        return Sys.join(dataDir, "state-\(user)-\(key)")
    }
}
