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
        // (A --now ahead of the real clock stamps with the real clock: the
        // store never stamps ahead of it, so nobody's later changes hide.)
        let p = try pool(ctx)
        if p.kind == .synced && !Sys.isDirectory(Sys.join(p.path, "journal")) { try initSyncedPool(p.path) }
        if p.kind == .host && folder == "spool" && !Sys.isDirectory(Sys.join(p.path, "spool")) {
            throw ToolError(.config, "the pool \(p.path) has no spool/ folder yet (it was made by an older habitmatch): its owner, \(Users.name(of: p.owner) ?? "uid \(p.owner)"), adds it by running any habitmatch command on it")
        }
        // A member's own spool, self, reports or private file: in the folder only they (and whom they let) enter.
        // All three are made by the first write of any kind (the join), so
        // a first like makes nothing anyone else can see.
        var into = folder
        let own = hiddenKinds.contains(folder) || folder == "private"
        if p.kind == .host && !own { try? makeHiddenFolders(p) }
        if p.kind == .host && own {
            try makeHiddenFolders(p, needed: folder)
            guard let h = ownFolder(p.path, folder, Sys.loginName(), uid: UInt32(geteuid())) else {
                throw ToolError(.tempFail, "cannot make your \(folder) folder in \(p.path): someone else took every name for it; the pool's owner's next run (pool match, from cron) moves them aside, try again after it")
            }
            into = h
        }
        let st = try store(ctx)
        var final: HabitmatchState? = nil
        let r = try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> R in
            tx.folder = into
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

    /// The folder a pair's event is written in (see `pairFolder`), or why
    /// there is none: they are not a match.
    static func pairWrite(_ ctx: Context, _ s: HabitmatchState, _ a: String, _ b: String) throws(ToolError) -> String {
        guard let f = pairFolder(try pool(ctx), s, a, b) else {
            throw ToolError(.noPermission, "\(b) is not a match of yours")
        }
        return f
    }

    /// Where likes, passes, unmatches and blocks go: the spool in a host
    /// pool (the member and the pool's owner read it); in a synced pool,
    /// where everything is readable by whoever has the folder, the
    /// member's journal, so each member is one file to read, not two.
    static func swipeFolder(_ p: Pool) -> String { p.kind == .host ? "spool" : "journal" }

    /// Records an unmatch, block or unblock: in the member's spool (the pool's
    /// owner's run and their own copy see it), and, in a host pool where
    /// the two have a pair folder, a copy there, so the other learns at once.
    static func writeEnd(_ ctx: Context, _ s: HabitmatchState, _ type: String, _ me: String, _ other: String) throws(ToolError) {
        let p = try pool(ctx)
        // An unblock goes where the block went: a folder of theirs that no longer stands.
        let folder = type == "unblock" ? s.pairFolders(of: me).first { $0.other == other }?.folder : s.pairFolder(me, other)
        // Not into a folder the owner's run has closed (their match ended).
        let copy = p.kind == .host ? folder.map { "pairs/" + $0 }.flatMap { access(Sys.join(p.path, $0), W_OK | X_OK) == 0 ? $0 : nil } : nil
        try write(ctx, folder: swipeFolder(p)) { (tx) throws(ToolError) in tx.record(["type": .string(type), "user": .string(other)]) }
        if let f = copy {
            try write(ctx, folder: f) { (tx) throws(ToolError) in tx.record(["type": .string(type), "user": .string(other)]) }
        }
    }

    // MARK: Folders nobody else sees change

    /// In a host pool, the folder of a member's own KIND file: KIND/NAME/in,
    /// where KIND/NAME (NAME the login, or NAME~1 to NAME~7 when someone
    /// else took the name first) is the member's. nil: not made yet.
    static func hiddenFolder(_ poolPath: String, _ kind: String, _ user: String, uid: UInt32) -> String? {
        for n in 0..<8 {
            let name = n == 0 ? user : "\(user)~\(n)"
            var st = stat()
            guard lstat(Sys.join(poolPath, kind + "/" + name), &st) == 0 else { continue }
            if (st.st_mode & S_IFMT) == S_IFDIR && st.st_uid == uid { return kind + "/" + name + "/in" }
        }
        return nil
    }

    /// In a host pool, the folder of a member's private file (e-mail, done
    /// days): private/NAME/ID, NAME as for `hiddenFolder`, the members of
    /// the pool may pass through private/NAME but not list it, and ID is a
    /// random name the member tells each buddy in their pair's folder
    /// (`private_at`); its ACL lets the buddies in. nil: not made yet.
    static func privateFolder(_ poolPath: String, _ user: String, uid: UInt32) -> String? {
        guard let inner = hiddenFolder(poolPath, "private", user, uid: uid) else { return nil }
        let shell = Sys.parentDirectory(inner)
        guard let entries = (try? Sys.scanDirectory(Sys.join(poolPath, shell))) ?? nil else { return nil }
        return entries.filter { $0.kind == .directory && $0.uid == uid && validID($0.name) }.map(\.name).min().map { shell + "/" + $0 }
    }

    /// This member's folder of one kind: spool, self, reports or private.
    /// Found once per process: a member's folder, once made, stays theirs
    /// (nobody else may rename it), and a command asks for it several times.
    static func ownFolder(_ poolPath: String, _ kind: String, _ user: String, uid: UInt32) -> String? {
        let key = "\(poolPath)|\(kind)|\(user)|\(uid)"
        if let f = ownFolders.withLock({ $0[key] }) { return f }
        let f = kind == "private" ? privateFolder(poolPath, user, uid: uid) : hiddenFolder(poolPath, kind, user, uid: uid)
        if let f { ownFolders.withLock { $0[key] = f } }
        return f
    }
    static let ownFolders = Locked<[String: String]>([:])

    /// Makes this member's hidden folders (`hiddenKinds` and private) that
    /// are not made yet: KIND/NAME and KIND/NAME/in, open to nobody else
    /// but, for spool and reports, the pool's owner (to read, not to
    /// write); private/NAME/ID (`privateFolder`), where a private file of
    /// a pool made before is moved. Made at the member's first command of
    /// any kind, so their first like makes nothing anyone else can see.
    static func makeHiddenFolders(_ p: Pool, needed: String? = nil) throws(ToolError) {
        guard p.kind == .host else { return }
        let me = UInt32(geteuid()), login = Sys.loginName()
        for kind in hiddenKinds + ["private"] where ownFolder(p.path, kind, login, uid: me) == nil {
            guard Sys.isDirectory(Sys.join(p.path, kind)) else { continue }
            let readers: [(UInt32, UInt16)] = kind != "self" && kind != "private" && p.owner != me ? [(p.owner, UInt16(5))] : []
            var shell = hiddenFolder(p.path, kind, login, uid: me).map { Sys.parentDirectory($0) }
            var made = false
            for n in 0..<8 where shell == nil {
                let rel = kind + "/" + (n == 0 ? login : "\(login)~\(n)")
                if mkdir(Sys.join(p.path, rel), 0o700) == 0 { (shell, made) = (rel, true) }
            }
            guard let sh = shell else {
                // Only the folder this command writes in must be had now.
                guard kind == needed else { continue }
                throw ToolError(.tempFail, "cannot make your \(kind) folder in \(p.path): someone else took every name for it (\(login) to \(login)~7); the pool's owner's next run (pool match, from cron) moves them aside, try again after it")
            }
            let dir = Sys.join(p.path, sh)
            // A file of a pool made before moves in (members can no longer list the folder it is in).
            func moveIn(_ to: String) {
                let flat = Sys.join(p.path, "\(kind)/\(login).ndjson")
                var st = stat()
                if lstat(flat, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == me { _ = rename(flat, Sys.join(to, login + ".ndjson")) }
            }
            guard kind == "private" else {
                try makePrivateFolder(dir, users: readers)
                try makePrivateFolder(Sys.join(dir, "in"), users: readers)
                moveIn(Sys.join(dir, "in"))
                continue
            }
            // The pool's members pass through to a folder whose name they were told.
            if made && chmod(dir, 0o710) != 0 { throw Sys.accessError(dir, verb: "set the mode of") }
            let inner = Sys.join(dir, IDs.make() + IDs.make())
            try makePrivateFolder(inner, users: [])
            moveIn(inner)
        }
    }

    /// This member's private folder in a host pool (nil elsewhere, or not made).
    static func hostPrivateFolder(_ ctx: Context) -> String? {
        guard let p = try? pool(ctx), p.kind == .host else { return nil }
        return ownFolder(p.path, "private", Sys.loginName(), uid: UInt32(geteuid()))
    }

    /// Tells each match this member accepted as a buddy where their private
    /// file is (`private_at` in the pair's folder), when not told yet.
    static func tellPrivateFolder(_ ctx: Context, _ p: Pool, _ s: HabitmatchState) throws(ToolError) {
        guard p.kind == .host else { return }
        let u = Sys.loginName()
        guard let f = ownFolder(p.path, "private", u, uid: UInt32(geteuid())) else { return }
        for peer in (s.accepts[u] ?? []).sorted() where s.isMatch(u, peer) && s.privateAt[u + "|" + peer] != f {
            guard let pf = pairFolder(p, s, u, peer) else { continue }
            try write(ctx, folder: pf) { (tx) throws(ToolError) in tx.record(["type": "private_at", "folder": .string(f)]) }
        }
    }

    // MARK: Who may read what

    /// In a host pool: a member's private file is readable by their buddies
    /// (both accepted), their spool and reports by the pool's owner only, a
    /// pair file by the other of the pair. Set on the member's own files by
    /// each of their commands, reads included, so a bond that ended (by
    /// either side) stops giving access on the member's next command of any
    /// kind.
    static func syncReaders(_ ctx: Context, _ st: Store<HabitmatchState>, _ s: HabitmatchState) throws(ToolError) {
        let p = try pool(ctx)
        guard p.kind == .host else { return }
        let u = me(ctx)
        func set(_ rel: String, _ uids: [UInt32]) throws(ToolError) {
            let path = Sys.join(p.path, rel)
            guard Sys.fileExists(path) else { return }
            try ACL.ensureReaders(path: path, uids)
        }
        let buddies = s.buddies(of: u).sorted().compactMap { Users.uid(of: $0) }
        try set(st.target("private"), buddies)
        if let f = ownFolder(p.path, "private", Sys.loginName(), uid: UInt32(geteuid())) {
            try makePrivateFolder(Sys.join(p.path, f), users: buddies.map { ($0, UInt16(5)) })
            try set(st.target(f), buddies)
        }
        let owner = p.owner != geteuid() ? [p.owner] : []
        // Files of pools made before the hidden folders, and the hidden ones.
        try set(st.target("reports"), owner)
        try set(st.target("spool"), owner)
        for kind in ["reports", "spool"] {
            if let h = ownFolder(p.path, kind, Sys.loginName(), uid: UInt32(geteuid())) { try set(st.target(h), owner) }
        }
        // A pair file: the other of the pair, while there is something between them.
        for (f, other) in s.pairFolders(of: u) {
            let rel = st.target("pairs/" + f)
            try set(rel, s.related(to: u).contains(other) ? Users.uid(of: other).map { [$0] } ?? [] : [])
        }
    }

    /// The pool as this member sees it. In a host pool the pool's owner's
    /// run is done first when this is the owner, the folders this member
    /// reads follow what the pool says (a new match's folder), and who may
    /// read their files is brought in step (a read may be the first time
    /// this member learns that a bond ended).
    static func view(_ ctx: Context) throws(ToolError) -> HabitmatchState {
        let p = try pool(ctx)
        if p.kind == .host {
            try ownerRun(ctx, p, quiet: true)
            // Best effort: a login outside the pool's group makes nothing.
            try? makeHiddenFolders(p)
        }
        var st = try store(ctx)
        // In a host pool the zones of every member, as this copy last knew them, are loaded first, each once:
        // which zone files a command opens (others may watch them) then follows the profiles, not what it folds.
        let zonesPath = Sys.join(st.dir, "zones")
        if p.kind == .host {
            ZoneCache.keep(ctx.zone)
            for z in Habitmatch.zonesToLoad(fromFile: String(decoding: ((try? Sys.readFile(zonesPath)) ?? nil) ?? [], as: UTF8.self)) { _ = ZoneCache.named(z) }
        }
        var s = try st.read()
        if p.kind == .host, try updateReads(ctx, p, s) {
            st = try store(ctx)
            s = try st.read()
        }
        if p.kind == .host {
            let text = Habitmatch.zonesFile(s.members)
            for z in Habitmatch.zonesToLoad(fromFile: text) { _ = ZoneCache.named(z) }
            if ((try? Sys.readFile(zonesPath)) ?? nil).map({ String(decoding: $0, as: UTF8.self) }) != text, Sys.isDirectory(st.dir) {
                try? Sys.writeFileAtomically(zonesPath, Array(text.utf8), mode: 0o600)
            }
        }
        do throws(ToolError) {
            try syncReaders(ctx, st, s)
            try tellPrivateFolder(ctx, p, s)
        } catch {
            Store<HabitmatchState>.warnOnce("who may read your files could not be set: \(error.message)")
        }
        keepUntilExit(s)
        // A member over their quota is told (their changes count for nothing
        // past it), and so is the pool's owner; nobody else. On a terminal
        // at every command; to cron (`remind` every few minutes), once, and
        // again only after they were under it.
        if let n = s.overQuota[me(ctx)] {
            let m = "you have made the others keep more than \(Habitmatch.memberQuotaBytes >> 20) MiB of chat, meetings, reports and done days: \(n) of your changes count for nothing (the pool's limit for each member)"
            if Sys.isTerminal(2) { Store<HabitmatchState>.warnOnce(m) } else { st.sayOnce(m, key: "over quota") }
        } else {
            st.unsay(["over quota"])
        }
        if p.kind == .host && p.owner == geteuid() {
            for (u, n) in s.overQuota.sorted(by: { $0.key < $1.key }) {
                Store<HabitmatchState>.warnOnce("\(u.terminalSafe) has made others keep more than \(Habitmatch.memberQuotaBytes >> 20) MiB of chat, meetings, reports and done days: \(n) more of their changes are ignored")
            }
        }
        return s
    }

    /// Keeps the pool as read alive until the process ends, right after
    /// the command: freeing thousands of members one by one is work nobody
    /// needs. Held by a process-wide list, not leaked: a leak checker (the
    /// AddressSanitizer runs) sees it reachable.
    static func keepUntilExit(_ s: HabitmatchState) { keptStates.withLock { $0.append(s) } }
    static let keptStates = Locked<[HabitmatchState]>([])

    /// The data directory holds each member's private state folder (and the
    /// default pool): anyone who may write in it may replace them. Warned
    /// once, as the store warns about its own folder.
    static func warnIfOpen(_ dataDir: String) {
        guard case .directory(_, let mode)? = try? Sys.pathState(dataDir), mode & 0o002 != 0, mode & 0o1000 == 0 else { return }
        Store<HabitmatchState>.warnOnce("\(dataDir) is writable by everyone; fix: chmod 700 \(dataDir)")
    }
}

extension Habitmatch.Pool {
    /// The file the owner's run names squatted members' profiles in.
    var journalNamesPath: String { Sys.join(path, "journal.names") }

    /// The profiles written as LOGIN~N.ndjson because somebody else holds
    /// LOGIN.ndjson, as the owner's run found them: what a member looks up
    /// by name in a crowded journal/. Believed only from the owner's hand.
    func journalNames() -> [String] {
        let fd = open(journalNamesPath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == owner, st.st_mode & 0o022 == 0, st.st_size <= 1 << 20,
              let bytes = try? Sys.readAt(fd: fd, offset: 0, count: Int(st.st_size), path: journalNamesPath) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            .filter { $0.hasSuffix(".ndjson") && !$0.contains("/") && $0.count <= 300 }
    }

    /// How the store reads and writes this pool, for `user`: tagged with the
    /// actor and the folder an event came from, peer files capped. In a host
    /// pool a file counts only when its owner is the login it is named
    /// after, and a member's copy looks only at what it may read: everyone's
    /// profile, their own spool, self and reports, their buddies' private
    /// files, the notices to them and their pairs' folders (`reads`); the
    /// pool's owner also reads every spool and every notice. In a synced
    /// pool the folder's transport is trusted and everything is read.
    func storeOptions(user: String, lockTimeoutMillis: Int?, nowMillis: Int64, reads: Habitmatch.Reads = .init(), isOwner: Bool = false) -> StoreOptions {
        var o = StoreOptions(tool: "habitmatch", actor: user, user: user, lockTimeoutMillis: lockTimeoutMillis)
        o.nowMillis = nowMillis
        o.journalFolder = path
        o.tagActor = true
        o.tagScope = true
        o.peerReadCap = 2 << 20
        // Thousands of journals: each folder's change time says whether any changed.
        o.folderStamps = true
        o.maxPeerLineBytes = 16 << 10
        if kind == .host {
            // The flat folders (as pools made before the hidden ones keep
            // them), then the member's hidden ones; the owner reads every
            // spool, report and notice.
            let me = UInt32(geteuid())
            let hidden = (Habitmatch.hiddenKinds + ["private"]).compactMap { Habitmatch.ownFolder(path, $0, user, uid: me) }
            o.subfolders = ["journal", "private", "self", "spool", isOwner ? "notices/**" : "notices/" + user, "reports"]
                + (isOwner ? ["notices/**/in", "spool/**/in", "reports/**/in"] : ["notices/\(user)/in"])
                + hidden.filter { !isOwner || $0.hasPrefix("self/") || $0.hasPrefix("private/") }
                + reads.privates.values.sorted()
                + reads.pairs.keys.sorted().map { "pairs/" + $0 }
            o.actorsIn = ["private": Set(reads.buddies + [user]), "self": [user]]
            for h in hidden { o.actorsIn[h] = [user] }
            for (b, f) in reads.privates { o.actorsIn[f] = [b] }
            // Profiles of the group's logins only: other names in journal/
            // (a flood of junk files) are passed over without a look.
            var st = stat()
            if stat(path, &st) == 0 { o.actorsIn["journal"] = Users.members(ofGroup: UInt32(st.st_gid)).union([user]) }
            // The owner reads every spool and report, and hears of others' junk.
            if !isOwner {
                o.actorsIn["spool"] = [user]
                o.actorsIn["reports"] = [user]
                // A member's flood of junk names in journal/, in a buddy's private folder or in a
                // pair's costs the others nothing: once crowded, they look the journals up by name
                // (the owner's run lists them all).
                o.byNameWhenCrowded = Set(["journal"] + reads.privates.values + reads.pairs.keys.map { "pairs/" + $0 })
                o.namesWhenCrowded = ["journal": journalNames()]
            }
            let owner = Users.name(of: self.owner) ?? ""
            for (f, other) in reads.pairs { o.actorsIn["pairs/" + f] = [user, other, owner] }
            o.quietPeers = !isOwner
            // What one member can make every other read and keep, per file.
            o.peerFileQuota = Habitmatch.fileQuota
            // Another member's clock moves nobody's by more than a small skew.
            o.peerHorizonMillis = Habitmatch.clockSkewMillis
            o.sharedWithOthers = true
            o.trust = .perUser
            o.sharedFileMode = 0o600
            o.subfolderFileModes = ["journal": 0o640]
            // The profiles, which every member may read and so watch: each copy opens one only after it changed.
            o.mirroredFolders = ["journal"]
        } else {
            o.subfolders = Habitmatch.folders
            // Here too, a member's clock (or a forged stamp) moves nobody
            // else's by more than the skew: a batch further ahead waits.
            o.peerHorizonMillis = Habitmatch.clockSkewMillis
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
