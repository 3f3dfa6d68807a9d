// The pool's owner's run in a host pool, and the folders each member's copy
// reads. Members' likes and passes are in spool/USER.ndjson, readable by
// the member and the pool's owner only (POSIX ACLs, set by the member's own
// commands); only the owner's run sees two likes meet. It then writes a
// notice to each of the two, in notices/USER/ (a folder only the owner
// writes in and only USER may open), naming a pair folder it makes with a
// random name, open to the two of them only. A third member sees neither
// likes nor passes, nor which folders exist for whom, nor their sizes.
//
// Invariants: the run is done only by the pool folder's owner, before each
// of their commands and by `pool match` (for cron); it writes nothing when
// nothing is due. A pair's folder is closed to both (its access list
// emptied) by the run that tells them their match ended. A member's copy
// reads exactly the folders its last answer named (`Reads`), read again at
// once when that answer changes.

extension Habitmatch {
    /// The folders a member's copy reads beyond the fixed ones.
    struct Reads: Equatable {
        /// Pair folder name → the other member.
        var pairs: [String: String] = [:]
        var buddies: [String] = []
        /// A buddy → the folder of their private file, as they told.
        var privates: [String: String] = [:]
    }

    static func readsPath(_ stateDir: String) -> String { stateDir + ".reads" }

    static func loadReads(_ stateDir: String) -> Reads {
        var r = Reads()
        guard let bytes = (try? Sys.readFile(readsPath(stateDir))) ?? nil else { return r }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let f = line.split(separator: " ").map(String.init)
            if f.count == 3, f[0] == "pair", validID(f[1]), StoreOptions.isActorName(Substring(f[2])) { r.pairs[f[1]] = f[2] }
            if f.count == 2, f[0] == "buddy", StoreOptions.isActorName(Substring(f[1])) { r.buddies.append(f[1]) }
            if f.count == 3, f[0] == "private", StoreOptions.isActorName(Substring(f[1])), validPrivateFolder(f[2], of: f[1]) { r.privates[f[1]] = f[2] }
        }
        r.buddies.sort()
        return r
    }

    /// Saves what this member's copy should read, from the pool as folded;
    /// true when it changed (the caller reads again).
    static func updateReads(_ ctx: Context, _ p: Pool, _ s: HabitmatchState) throws(ToolError) -> Bool {
        let u = me(ctx)
        let dir = p.stateDirectory(dataDir: ctx.dataDir, user: u)
        var want = Reads()
        for (f, other) in s.pairFolders(of: u) { want.pairs[f] = other }
        want.buddies = s.buddies(of: u).sorted()
        for b in want.buddies { want.privates[b] = s.privateAt[b + "|" + u] }
        guard want != loadReads(dir) else { return false }
        let text = want.pairs.sorted { $0.key < $1.key }.map { "pair \($0.key) \($0.value)\n" }.joined()
            + want.buddies.map { "buddy \($0)\n" }.joined()
            + want.privates.sorted { $0.key < $1.key }.map { "private \($0.key) \($0.value)\n" }.joined()
        try Sys.makeDirectories(ctx.dataDir)
        try Sys.writeFileAtomically(readsPath(dir), Array(text.utf8), mode: 0o600)
        return true
    }

    /// In a host pool, as its owner: the notices due (matches, ends,
    /// blocks), each in the member's own notices folder. Returns them.
    @discardableResult
    static func ownerRun(_ ctx: Context, _ p: Pool, quiet: Bool) throws(ToolError) -> [(to: String, event: JSONObject)] {
        guard p.kind == .host, p.owner == UInt32(geteuid()) else { return [] }
        var pst = stat()
        guard stat(p.path, &pst) == 0 else { throw Sys.accessError(p.path) }
        // A pool made before spool/ and notices/ existed gets them now, and
        // folders an older habitmatch let members list are closed to it.
        for (f, mode) in hostModes {
            var fs = stat()
            let dir = f == "." ? p.path : Sys.join(p.path, f)
            if lstat(dir, &fs) == 0 && (fs.st_mode & S_IFMT) == S_IFDIR && UInt32(fs.st_mode) & 0o7777 == mode { continue }
            try makeGroupFolder(dir, mode, gid: pst.st_gid)
        }
        if !quiet { try freeSquattedNames(p, gid: UInt32(pst.st_gid)) }
        nameSquattedProfiles(p, gid: UInt32(pst.st_gid))
        // Every member's notices folder, made before anything is told there.
        for u in Users.members(ofGroup: UInt32(pst.st_gid)).sorted() {
            guard let uid = Users.uid(of: u), !Sys.isDirectory(Sys.join(p.path, "notices/\(u)/in")) else { continue }
            try makePrivateFolder(Sys.join(p.path, "notices/" + u), users: [(uid, 5)])
            try makePrivateFolder(Sys.join(p.path, "notices/\(u)/in"), users: [(uid, 5)])
        }
        let st = try store(ctx)
        let s = try st.read()
        var spares = try spareFolders(p, s)
        let due = ownerNotices(s) { spares.popLast() ?? IDs.make() + IDs.make() }
        try keepSpareFolders(p, s, spares.count)
        if due.isEmpty { return [] }
        var byMember: [String: [JSONObject]] = [:]
        for n in due { byMember[n.to, default: []].append(n.event) }
        for (u, events) in byMember.sorted(by: { $0.key < $1.key }) {
            guard let uid = Users.uid(of: u) else { continue }
            let folder = "notices/\(u)/in"
            try makePrivateFolder(Sys.join(p.path, "notices/" + u), users: [(uid, 5)])
            try makePrivateFolder(Sys.join(p.path, folder), users: [(uid, 5)])
            try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) in
                tx.folder = folder
                for e in events { tx.record(e) }
            }
            let file = Sys.join(p.path, st.target(folder))
            if p.owner != uid { try ACL.ensureReaders(path: file, [uid]) }
        }
        // Then each pair's folder opened or closed, stamped after the notices.
        var done = Set<String>()
        for n in due {
            guard let other = n.event["user"]?.string else { continue }
            let users = [n.to, other].sorted()
            switch n.event["type"]?.string {
            case "matched"?:
                guard let f = n.event["pair"]?.string, done.insert(f).inserted else { continue }
                try makePairFolder(p, f, users)
                try writePairFolder(ctx, p, f, ["type": "opened", "users": JSON(users)])
            case "ended"?:
                guard let f = s.announced[HabitmatchState.pair(n.to, other)], done.insert(f).inserted else { continue }
                try writePairFolder(ctx, p, f, ["type": "closed", "users": JSON(users)])
                // Then the kernel stops them: neither may enter the folder again.
                try closePairFolder(p, f)
            default:
                break
            }
        }
        return due
    }

    /// One batch by the owner in a pair's folder, through a store of that
    /// folder alone (the owner's own copy never reads pairs' folders).
    static func writePairFolder(_ ctx: Context, _ p: Pool, _ f: String, _ event: JSONObject) throws(ToolError) {
        var o = p.storeOptions(user: Sys.loginName(), lockTimeoutMillis: ctx.lockTimeoutMillis, nowMillis: ctx.now.ms)
        o.clockPinned = ctx.pinned
        // The two's notices are read too, so this batch's stamp follows them.
        let users = (event["users"]?.array ?? []).compactMap(\.string)
        o.subfolders = ["pairs/" + f] + users.flatMap { ["notices/" + $0, "notices/\($0)/in"] }
        o.actorsIn = ["pairs/" + f: [Sys.loginName()]]
        let dir = Sys.join(p.stateDirectory(dataDir: ctx.dataDir, user: Sys.loginName()) + "-pairs", f)
        try Sys.makeDirectories(Sys.parentDirectory(dir))
        let st = Store<HabitmatchState>(dir: dir, options: o)
        try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) in
            tx.folder = "pairs/" + f
            tx.record(event)
        }
        try ACL.ensureReaders(path: Sys.join(p.path, st.target("pairs/" + f)), users.compactMap { Users.uid(of: $0) }.filter { $0 != p.owner })
    }

    /// The profiles members wrote as LOGIN~N.ndjson because somebody else
    /// took LOGIN.ndjson first, named in journal.names (members read it, so
    /// that they need not list a crowded journal/ to find them); rewritten
    /// only when it changes.
    static func nameSquattedProfiles(_ p: Pool, gid: UInt32) {
        var squatted: [String: UInt32] = [:]
        for u in Users.members(ofGroup: gid) {
            guard let uid = Users.uid(of: u), let e = Sys.entry(in: Sys.join(p.path, "journal"), u + ".ndjson"),
                  e.kind != .regular || e.uid != uid else { continue }
            squatted[u] = uid
        }
        var names: [String] = []
        typealias S = Store<HabitmatchState>
        if !squatted.isEmpty, let all = try? Sys.scanDirectory(Sys.join(p.path, "journal"), keep: { n in
            S.tildeActor(Substring(n)).map { squatted[$0] != nil } ?? false
        }) {
            names = all.filter { e in e.kind == .regular && S.tildeActor(Substring(e.name)).map { squatted[$0] == e.uid } == true }.map(\.name).sorted()
        }
        let text = names.map { $0 + "\n" }.joined()
        let had = (try? Sys.readFile(p.journalNamesPath)).map { String(decoding: $0, as: UTF8.self) } ?? nil
        guard had != text, !(had == nil && names.isEmpty) else { return }
        try? Sys.writeFileAtomically(p.journalNamesPath, Array(text.utf8), mode: 0o640)
        _ = chown(p.journalNamesPath, p.owner, gid)
    }

    /// Names of members' folders (KIND/LOGIN, KIND/LOGIN~1 to ~7) that
    /// someone else made first are moved aside (the folder's owner may
    /// rename anything in it), so nobody keeps a new member from making
    /// theirs for longer than until this run; said to the owner.
    static func freeSquattedNames(_ p: Pool, gid: UInt32) throws(ToolError) {
        for u in Users.members(ofGroup: gid).sorted() {
            guard let uid = Users.uid(of: u) else { continue }
            for kind in hiddenKinds + ["private"] {
                // Up to the member's own (or a free name): those after it do not matter.
                for n in 0..<8 {
                    let rel = kind + "/" + (n == 0 ? u : "\(u)~\(n)")
                    var st = stat()
                    guard lstat(Sys.join(p.path, rel), &st) == 0, UInt32(st.st_uid) != uid else { break }
                    let aside = kind + "/squatted-" + IDs.make()
                    guard rename(Sys.join(p.path, rel), Sys.join(p.path, aside)) == 0 else { continue }
                    Store<HabitmatchState>.warnOnce("\(rel) was made by \(Users.name(of: UInt32(st.st_uid)) ?? "uid \(st.st_uid)"), not by \(u): moved to \(aside)")
                }
            }
        }
    }

    /// The pair folders the owner's run made ahead and has not given to a
    /// match yet: folders in pairs/ of the owner's, open to nobody else, no
    /// match's. The pool's owner lists pairs/ on every run, so what the
    /// listing does to its times is the same whatever happened.
    static func spareFolders(_ p: Pool, _ s: HabitmatchState) throws(ToolError) -> [String] {
        let me = UInt32(geteuid())
        guard let all = try Sys.scanDirectory(Sys.join(p.path, "pairs")) else { return [] }
        return all.filter { e in
            e.kind == .directory && e.uid == me && e.mode & 0o1077 == 0 && validID(e.name) && s.pairFolders[e.name] == nil && s.opened[e.name] == nil
        }.map(\.name).sorted()
    }

    /// Makes spare pair folders up to `spareFolders`: when none is left, or
    /// when pairs/ has not changed for a day. A third member sees pairs/
    /// change only then: that some matches were made in the whole pool
    /// since, never whose or when.
    static func keepSpareFolders(_ p: Pool, _ s: HabitmatchState, _ left: Int) throws(ToolError) {
        guard left < spareFolders else { return }
        var st = stat()
        let dir = Sys.join(p.path, "pairs")
        guard lstat(dir, &st) == 0 else { return }
        guard left == 0 || Int64(st.st_mtim.tv_sec) < Int64(time(nil)) - 86_400 else { return }
        for _ in left..<spareFolders {
            try makePrivateFolder(Sys.join(dir, IDs.make() + IDs.make()), users: [])
        }
    }

    /// A pair's folder, made by the owner's run: open to the two only
    /// (read, write, enter), sticky so neither removes the other's file.
    static func makePairFolder(_ p: Pool, _ name: String, _ members: [String]) throws(ToolError) {
        let uids = members.compactMap { Users.uid(of: $0) }
        guard uids.count == 2 else { return }
        try makePrivateFolder(Sys.join(p.path, "pairs/" + name), users: uids.map { ($0, 7) }, sticky: true)
    }

    /// A pair's folder once their match ended: open to the pool's owner
    /// only, so neither of the two reads (or writes) anything there again,
    /// their own files included; their notices say it ended.
    static func closePairFolder(_ p: Pool, _ name: String) throws(ToolError) {
        let dir = Sys.join(p.path, "pairs/" + name)
        guard Sys.isDirectory(dir) else { return }
        try makePrivateFolder(dir, users: [], sticky: true)
    }

    /// A folder only its owner and `users` (with their permissions) may use.
    static func makePrivateFolder(_ dir: String, users: [(UInt32, UInt16)], sticky: Bool = false) throws(ToolError) {
        if mkdir(dir, 0o700) != 0 && errno != EEXIST { throw Sys.accessError(dir, verb: "create") }
        var st = stat()
        guard lstat(dir, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, st.st_uid == geteuid() else {
            throw ToolError(.cantCreate, "cannot create \(dir): something else is in the way")
        }
        // Only when it differs: a change of mode or ACL moves the folder's
        // change time, which others may see.
        let blob = ACL.blob(owner: 7, users: users, group: 0, other: 0)
        let stickyBit: UInt32 = sticky ? 0o1000 : 0
        let mode = UInt32(st.st_mode) & 0o7777
        if users.isEmpty ? mode == 0o700 | stickyBit : mode & 0o1000 == stickyBit && ACL.access(path: dir) == blob { return }
        if chmod(dir, mode_t(sticky ? 0o1770 : 0o770)) != 0 { throw Sys.accessError(dir, verb: "set the mode of") }
        try ACL.setDirectory(path: dir, access: blob, inherit: nil)
    }
}
