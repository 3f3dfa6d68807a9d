// A family folder: one family's rewards shared by several logins on one host,
// where who is acting is the login running the command, proven by the kernel.
//
//   FAMILY/family.conf           owner = LOGIN (who made it), zone = NAME: the
//                                family's days are this zone's for every run
//                                (cron's in UTC, a parent's in New York)
//   FAMILY/journal/LOGIN.ndjson  each parent's journal (and root's, for cron):
//                                the family's whole history; a journal counts
//                                only when its owner is the login it is named after
//   FAMILY/requests/ID.json      a child's (or a would-be parent's) request, one a file;
//                                it counts as the login that owns the file
//   FAMILY/status/LOGIN.json     what one child (or would-be parent) may read
//
// Modes, set by `init` and kept by the owner's (or root's) runs:
//   FAMILY      0711 the owner's: anyone may pass through, nobody may list
//   journal/    1700 + ACL rwx for the other parents: only parents reach the
//               journals, and sticky: only a journal's owner (or the
//               folder's, or root) removes or replaces it. Each journal is
//               0644: whoever may pass journal/ reads every journal, so a
//               parent let in reads at once what a removed one wrote
//   requests/   1733 (with --group G: 1730, group G): anyone (G's members) may
//               drop a file, nobody may list or read another's, and sticky:
//               only a file's owner or the folder's removes it. ACL r-x for
//               the other parent; its default ACL makes each new file
//               readable by the parents, whoever writes it
//   status/     0711 + ACL rwx for the other parent; each LOGIN.json 0600
//               with an ACL that lets LOGIN read it, and nobody else
//
// A parent's run reads the requests, records each as a `request` event (the
// fold decides what it comes to), then rewrites the status files and the
// folders' ACLs. A child never reads a journal: their commands read their
// status file and drop requests.
//
// Invariants: who acts is the kernel's word (the login running the command,
// the owner of a request file), never a name given; a request file is read
// without following links, only if it is a regular file, and only up to
// 4096 bytes (a longer one is an invalid request).

extension Rewards {
    public struct FamilyFolder: Sendable {
        public var path: String
        public var owner: UInt32
        public var group: UInt32?
        var journal: String { Sys.join(path, "journal") }
        var requests: String { Sys.join(path, "requests") }
        var status: String { Sys.join(path, "status") }
    }

    static func familyPath(_ ctx: Context) throws(ToolError) -> String? {
        if let f = ctx.option("family"), !f.isEmpty { return trimSlash(f) }
        if let f = Sys.env("REWARDS_FAMILY"), !f.isEmpty { return trimSlash(f) }
        let c = try Config.load(directory: ctx.configDir, known: configKeys)
        if let f = c["family"], ctx.keptApart { return ctx.setAside("family", f, instead: "give --family") }
        return c["family"].map(trimSlash)
    }

    static func trimSlash(_ s: String) -> String {
        var p = s
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        return p
    }

    static let familyFolderKey = MemoKey<FamilyFolder?>("rewards.family-folder")

    /// The family folder this command works on, if any.
    static func familyFolder(_ ctx: Context) throws(ToolError) -> FamilyFolder? {
        try ctx.memoThrowing(familyFolderKey) { () throws(ToolError) -> FamilyFolder? in
            guard let path = try familyPath(ctx) else { return nil }
            var st = stat()
            guard stat(path, &st) == 0 else {
                if errno == ENOENT { throw ToolError(.dataError, "no family folder at \(path): a parent makes it with 'rewards --family \(path) init'") }
                throw Sys.accessError(path)
            }
            guard (st.st_mode & S_IFMT) == S_IFDIR else { throw ToolError(.ioError, "the family folder \(path) is not a folder") }
            var req = stat()
            let group: UInt32? = stat(Sys.join(path, "requests"), &req) == 0 && (req.st_mode & 0o007) == 0 ? UInt32(req.st_gid) : nil
            if let z = familyZone(path) { ctx.useZone(z) }
            return FamilyFolder(path: path, owner: UInt32(st.st_uid), group: group)
        }
    }

    /// The zone family.conf names, if it names one that can be read.
    static func familyZone(_ path: String) -> Zone? {
        guard let got = (try? Sys.readPeerFile(Sys.join(path, "family.conf"), from: 0, cap: 4096)) ?? nil else { return nil }
        for line in String(decoding: got.bytes, as: UTF8.self).split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces }
            if kv.count == 2, kv[0] == "zone", let z = try? Zone.named(kv[1]) { return z }
        }
        return nil
    }

    /// Adds the caller's zone to a family.conf that names none (written
    /// before the family's zone was kept there), as its owner.
    static func keepZone(_ h: FamilyFolder, _ zone: Zone) {
        let conf = Sys.join(h.path, "family.conf")
        guard UInt32(geteuid()) == h.owner, familyZone(h.path) == nil, let old = try? Sys.readFile(conf), (try? Zone.named(zone.name)) != nil else { return }
        var text = String(decoding: old, as: UTF8.self)
        if !text.hasSuffix("\n") { text += "\n" }
        try? Sys.writeFileAtomically(conf, Array((text + "zone = \(zone.name)\n").utf8), mode: 0o644)
    }

    /// Whether the caller may read the family's journals: a parent (or root).
    static func isParentHere(_ h: FamilyFolder) -> Bool {
        let fd = open(h.journal, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 { return false }
        close(fd)
        return true
    }

    /// Refuses REWARDS_USER naming somebody else in a family folder.
    static func checkIdentity(_ ctx: Context) throws(ToolError) {
        guard try familyFolder(ctx) != nil else { return }
        let login = Sys.loginName()
        if let asked = Sys.env("REWARDS_USER"), !asked.isEmpty, asked != login {
            throw ToolError(.noPermission, "in a family folder you are \(login), the login running this command; REWARDS_USER cannot make you \(asked)")
        }
    }

    // MARK: The family folder's files

    static func familyInit(_ ctx: Context, _ path: String) throws(ToolError) -> FamilyFolder {
        if Sys.fileExists(Sys.join(path, "family.conf")) {
            throw ToolError(.cantCreate, "\(path) is already a family folder (\(Sys.join(path, "family.conf")))")
        }
        var gid: UInt32? = nil
        if let g = ctx.option("group") {
            guard let gr = getgrnam(g) else { throw .usage("--group: no group '\(g)' on this host (make one with groupadd, and add the children)") }
            gid = UInt32(gr.pointee.gr_gid)
        }
        func make(_ dir: String, _ mode: UInt32, group: UInt32? = nil) throws(ToolError) {
            if mkdir(dir, 0o700) != 0 && errno != EEXIST { throw Sys.accessError(dir, verb: "create") }
            var st = stat()
            guard lstat(dir, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, st.st_uid == geteuid() else {
                throw ToolError(.cantCreate, "cannot create \(dir): something else is in the way")
            }
            if let g = group, chown(dir, uid_t(UInt32.max), gid_t(g)) != 0 {
                throw ToolError(.noPermission, "cannot give \(dir) to the group: \(Sys.errnoString()) (you must be in the group, or root)")
            }
            if chmod(dir, mode_t(mode)) != 0 { throw Sys.accessError(dir, verb: "set the mode of") }
        }
        try Sys.makeDirectories(Sys.parentDirectory(path), mode: 0o755)
        try make(path, 0o711)
        try make(Sys.join(path, "journal"), 0o1700)
        try make(Sys.join(path, "requests"), gid == nil ? 0o1733 : 0o1730, group: gid)
        // (A child in the owner's group is judged by the group bits: they match the others'.)
        try make(Sys.join(path, "status"), 0o711)
        try Sys.writeFileAtomically(Sys.join(path, "family.conf"),
                                    Array("# rewards family folder: parents read journal/, children ask through requests/\nowner = \(Sys.loginName())\nzone = \(ctx.zone.name)\n".utf8),
                                    mode: 0o644)
        return FamilyFolder(path: path, owner: UInt32(geteuid()), group: gid)
    }

    /// The store of a family folder: each parent's journal in journal/, the
    /// snapshot and lock in the caller's own data directory.
    static func familyStore(_ ctx: Context, _ h: FamilyFolder) -> Store<RewardsState> {
        let login = Sys.loginName()
        var o = StoreOptions(tool: "rewards", actor: login, user: login, lockTimeoutMillis: ctx.lockTimeoutMillis)
        o.nowMillis = ctx.now.ms
        o.clockPinned = ctx.pinned
        o.journalFolder = h.path
        o.subfolders = ["journal"]
        o.sharedWithOthers = true
        o.trust = .perUser
        o.sharedFileMode = 0o644
        // Only the folder's owner makes the family; a batch counts only with its checksum.
        o.hostFacts = [["type": "family_folder", "owner": .string(Users.name(of: h.owner) ?? "uid\(h.owner)")]]
        o.requireChecksums = true
        o.tagActor = true
        o.maxPeerLineBytes = 1 << 20
        let key = String(StableHash.fnv1a(h.path), radix: 16)
        return Store(dir: Sys.join(ctx.dataDir, "family-\(key)"), options: o)
    }

    // MARK: Requests (the spool)

    /// A request file; `changed` is its ctime, which only the kernel sets
    /// (its owner sets its mtime at will).
    struct SpoolFile { var id: String; var from: String; var object: JSONObject?; var problem: String?; var changed: Int64 }

    /// Requests one login may have taken per run, and all logins together:
    /// what one run records stays far below what a peer reads of a journal
    /// per run (each request is at most 4096 bytes), however many wait.
    static let spoolPerLogin = 20
    static let spoolPerRun = 400
    /// Requests one login may have waiting; the owner's (or root's) run
    /// removes the newest past it, unread.
    static let spoolWaitingPerLogin = 200

    /// A spool entry's id, if its name is one (12 hex digits and .json).
    static func spoolID(_ name: String) -> String? {
        guard name.hasSuffix(".json") else { return nil }
        let id = String(name.dropLast(5))
        guard id.utf8.count == 12, id.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else { return nil }
        return id
    }

    /// The spool's entries not yet recorded, as the run takes them: per
    /// login the first `spoolPerLogin` in the order the kernel saw them made
    /// (ctime), then all of those in that order, the first `spoolPerRun`.
    /// `over`: per login, the entries past `spoolWaitingPerLogin`.
    static func spoolTurn(_ entries: [DirEntry], recorded: (String) -> Bool) -> (take: [DirEntry], over: [UInt32: [DirEntry]]) {
        var byLogin: [UInt32: [DirEntry]] = [:]
        for e in entries {
            guard let id = spoolID(e.name), !recorded(id) else { continue }
            byLogin[e.uid, default: []].append(e)
        }
        var take: [DirEntry] = []
        var over: [UInt32: [DirEntry]] = [:]
        for (uid, es) in byLogin {
            let sorted = es.sorted { ($0.changed, $0.name) < ($1.changed, $1.name) }
            take += sorted.prefix(spoolPerLogin)
            if sorted.count > spoolWaitingPerLogin { over[uid] = Array(sorted.dropFirst(spoolWaitingPerLogin)) }
        }
        take.sort { ($0.changed, $0.name) < ($1.changed, $1.name) }
        return (Array(take.prefix(spoolPerRun)), over)
    }

    /// Reads one request file, without following links, as the login that
    /// owns it. nil when it is gone or not a regular file (with a warning).
    static func readRequest(_ h: FamilyFolder, _ e: DirEntry) -> SpoolFile? {
        guard let id = spoolID(e.name) else { return nil }
        let path = Sys.join(h.requests, e.name)
        // Anything but a regular file (a FIFO, a link, a folder) is a request
        // that counts for nothing, recorded as its maker's: the folder's
        // owner's next run removes it, so it is not said again every run.
        func junk(_ what: String) -> SpoolFile {
            SpoolFile(id: id, from: Users.name(of: e.uid) ?? "uid\(e.uid)", object: nil,
                      problem: "a request is a regular file; this one is \(what), so it counts for nothing", changed: e.changed)
        }
        if e.kind == .symlink { return junk("a symbolic link") }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            if errno == ELOOP { return junk("a symbolic link") }
            if errno != ENOENT { Store<RewardsState>.warnOnce("a request \(path) cannot be read (\(Sys.errnoString())); it is skipped") }
            return nil
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFIFO: return junk("a FIFO")
        case S_IFDIR: return junk("a folder")
        case S_IFSOCK: return junk("a socket")
        default: return junk("a device")
        }
        let from = Users.name(of: UInt32(st.st_uid)) ?? "uid\(st.st_uid)"
        let changed = Sys.ctimeNanos(st)
        // A file with a second name is not its owner's request: another
        // login may have linked a file of theirs (left writable) in here.
        guard st.st_nlink == 1 else {
            return SpoolFile(id: id, from: from, object: nil,
                             problem: "a request file has one name; this one has \(st.st_nlink) (a hard link to another file), so it counts for nothing",
                             changed: changed)
        }
        guard st.st_size <= 4096 else {
            return SpoolFile(id: id, from: from, object: nil, problem: "a request is at most 4096 bytes", changed: changed)
        }
        var buf = [UInt8](repeating: 0, count: 4097)
        let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4097) }
        guard n >= 0 else { return nil }
        var bytes = Array(buf[0..<n])
        while bytes.last == 0x0A || bytes.last == 0x0D { bytes.removeLast() }
        if let o = try? JSON.parseObject(bytes: bytes) {
            return SpoolFile(id: id, from: from, object: o, problem: nil, changed: changed)
        }
        return SpoolFile(id: id, from: from, object: nil, problem: "a request is one JSON object", changed: changed)
    }

    /// Records this run's turn of the requests not yet recorded (in the
    /// caller's batch), each stamped with this run: first made, first
    /// served. The rest wait for the next run.
    static func takeRequests(_ ctx: Context, _ h: FamilyFolder, _ tx: inout Transaction<RewardsState>) throws(ToolError) {
        guard let entries = try Sys.scanDirectory(h.requests, suffix: ".json") else { return }
        let state = tx.state
        for e in spoolTurn(entries, recorded: { state.requests[$0] != nil }).take {
            if let f = readRequest(h, e) { tx.record(by(ctx, requestEvent(f, now: ctx.now, today: ctx.today))) }
        }
        // A file under the name of a request already taken, made or changed
        // since (or another login's): a new request, refused where its
        // maker sees it, once (its id is the file's and its time's). As many
        // a run as requests (`spoolPerLogin` a login): the rest wait.
        var reusedBy: [UInt32: Int] = [:]
        for e in entries {
            guard let id = spoolID(e.name), let old = state.requests[id] else { continue }
            let from = Users.name(of: e.uid) ?? "uid\(e.uid)"
            guard from != old.from || (old.fileChanged.map { e.changed != $0 } ?? false) else { continue }
            let again = Rewards.digest(["reused", id, String(e.uid), String(e.changed)])
            guard tx.state.requests[again] == nil, tx.state.requests.count < 1_000_000, reusedBy[e.uid, default: 0] < spoolPerLogin else { continue }
            reusedBy[e.uid, default: 0] += 1
            tx.record(by(ctx, ["type": "request", "id": .string(again), "from": .string(from), "day": .string(ctx.today.description),
                               "at": .int(ctx.now.ms), "kind": "invalid",
                               "reason": .string("its file's name reused the id of an earlier request (\(id)), so it counts for nothing; ask again with 'rewards ask' or 'rewards redeem'")]))
        }
    }

    /// Drops a request in the spool, as the caller; returns its id.
    static func dropRequest(_ ctx: Context, _ h: FamilyFolder, _ fields: JSONObject) throws(ToolError) -> String {
        var o = fields
        o["at"] = .string(ctx.clock.format(ctx.now))
        var bytes = [UInt8]()
        o.write(into: &bytes)
        bytes.append(0x0A)
        for _ in 0..<8 {
            let id = IDs.make()
            let path = Sys.join(h.requests, id + ".json")
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o640)
            if fd < 0 {
                if errno == EEXIST { continue }
                throw ToolError(errno == EACCES || errno == EPERM ? .noPermission : .cantCreate,
                                "cannot ask in \(h.requests): \(Sys.errnoString()) (is this login a member of the family?)")
            }
            let ok = Sys.writeAll(fd: fd, bytes) && fsync(fd) == 0
            close(fd)
            guard ok else {
                unlink(path)
                throw ToolError(.ioError, "cannot write \(path): \(Sys.errnoString())")
            }
            return id
        }
        throw ToolError(.cantCreate, "cannot find a free name in \(h.requests)")
    }

    // MARK: After a parent's change: status files, ACLs, the spool

    /// Brings the family folder in step with the state: status files for the
    /// children and would-be parents, who may use the folders, this
    /// parent's journal readable by the other parent, and used requests gone.
    static func settle(_ ctx: Context, _ h: FamilyFolder, _ s: RewardsState, store: Store<RewardsState>) {
        let me = UInt32(geteuid())
        let parentUIDs = s.parents.compactMap { Users.uid(of: $0) }
        let others = parentUIDs.filter { $0 != h.owner }
        do throws(ToolError) {
            if me == h.owner || me == 0 {
                let rwx = others.map { ($0, UInt16(7)) }
                try ACL.setDirectory(path: h.journal, access: ACL.blob(owner: 7, users: rwx, group: 0, other: 0), inherit: nil)
                // (The group bits match the others': a child in the owner's
                // group is judged by them, not by the others' bits.)
                try ACL.setDirectory(path: h.status, access: ACL.blob(owner: 7, users: rwx, group: 1, other: 1), inherit: nil)
                let open: UInt16 = h.group == nil ? 3 : 0
                try ACL.setDirectory(path: h.requests,
                                     access: ACL.blob(owner: 7, users: others.map { ($0, UInt16(5)) }, group: 3, other: open),
                                     inherit: ACL.blob(owner: 6, users: parentUIDs.map { ($0, UInt16(4)) }, group: 0, other: 0))
            }
            if me == h.owner || me == 0 { keepJournalsShared(h, root: me == 0) }
            keepZone(h, ctx.zone)
            // This parent's own journal: readable by whoever may pass journal/.
            readableToParents(Sys.join(h.journal, Sys.loginName() + ".ndjson"), owner: me)
        } catch {
            Store<RewardsState>.warnOnce("saved, but who may use the family folder could not be set: \(error.message)")
        }
        // Status files: every child with a login, everyone who asked.
        var logins = Set(s.children.values.compactMap(\.login))
        for r in s.requests.values where !s.parents.contains(r.from) || r.kind == "join" { logins.insert(r.from) }
        for login in logins.sorted() {
            guard let uid = Users.uid(of: login), StoreOptions.isActorName(Substring(login)) else { continue }
            var bytes = [UInt8]()
            statusRecord(s, login: login, now: ctx.now, today: ctx.today, zone: ctx.zone).write(into: &bytes)
            bytes.append(0x0A)
            do throws(ToolError) { try writeStatus(Sys.join(h.status, login + ".json"), bytes, reader: uid) } catch {
                Store<RewardsState>.warnOnce("saved, but \(login)'s status could not be written: \(error.message)")
            }
        }
        // Status of someone no longer in the family (removed, purged): gone.
        for name in Sys.listDirectory(h.status) where name.hasSuffix(".json") && !logins.contains(String(name.dropLast(5))) {
            let path = Sys.join(h.status, name)
            if me == h.owner || me == 0 || ownedByMe(path) { unlink(path) }
        }
        // Requests already recorded, and a login's past its quota: the
        // folder's owner (or root) removes them.
        if me == h.owner || me == 0, let entries = (try? Sys.scanDirectory(h.requests, suffix: ".json")) ?? nil {
            for e in entries where spoolID(e.name).map({ s.requests[$0] != nil }) ?? false { unlink(Sys.join(h.requests, e.name)) }
            for (uid, es) in spoolTurn(entries, recorded: { s.requests[$0] != nil }).over {
                for e in es { unlink(Sys.join(h.requests, e.name)) }
                Store<RewardsState>.warnOnce("\(Users.name(of: uid) ?? "uid \(uid)") had more than \(spoolWaitingPerLogin) requests waiting; the \(es.count) newest were removed unread")
            }
        }
    }

    /// The journal folder sticky (only a journal's owner removes or replaces
    /// it); as root, every parent's journal readable by whoever may pass
    /// journal/ (a removed parent's too, so one let in later reads it).
    static func keepJournalsShared(_ h: FamilyFolder, root: Bool) {
        var st = stat()
        if stat(h.journal, &st) == 0, st.st_mode & S_ISVTX == 0 { _ = chmod(h.journal, (st.st_mode & 0o7777) | S_ISVTX) }
        guard root, let entries = try? Sys.scanDirectory(h.journal, suffix: ".ndjson") else { return }
        for e in entries where e.kind == .regular && e.uid != 0 && Users.name(of: e.uid) == String(e.name.dropLast(7)) {
            readableToParents(Sys.join(h.journal, e.name), owner: e.uid)
        }
    }

    /// The locks a writer in the family folder holds for its change. Every
    /// writer takes the family's lock (`familyLock`), waiting at most
    /// `timeoutMillis`. The owner's and root's runs first take their own
    /// (journal/.lock-owner, 0600, which no co-parent can open), so that
    /// they go one at a time among themselves; when somebody else holds the
    /// family's lock past the wait they go on without it, told who holds
    /// it: a co-parent holding it forever never stops root's cron nor the
    /// owner. Anybody else is told who holds it, and exits 75.
    static func familyLocks(_ h: FamilyFolder, timeoutMillis: Int, warn: (String) -> Void) throws(ToolError) -> [FileLock] {
        let me = UInt32(geteuid())
        var held: [FileLock] = []
        if me == h.owner || me == 0, let own = try ownerLock(h, timeoutMillis: timeoutMillis) { held.append(own) }
        let path = Sys.join(h.journal, ".lock")
        do {
            if let f = try familyLock(h, timeoutMillis: timeoutMillis) { held.append(f) }
        } catch let e where e.code == .tempFail {
            let who = lockHolder(path)
            guard held.isEmpty else {
                warn("the family's lock has been held by \(who) for more than \(timeoutMillis / 1000) s; this run goes on without it (the owner's and root's runs still go one at a time)")
                return held
            }
            throw ToolError(.tempFail, "the family folder \(h.path) is locked by \(who) (waited \(timeoutMillis / 1000) s); try again")
        }
        return held
    }

    /// Who holds a lock, for people: "dad's process 4242", or "another run"
    /// where the system does not say.
    static func lockHolder(_ path: String) -> String {
        let hs = FileLock.holders(of: path)
        guard !hs.isEmpty else { return "another run" }
        return hs.map { "\(Text.terminalSafe(Users.name(of: $0.uid) ?? "uid \($0.uid)"))'s process \($0.pid)" }.joined(separator: ", ")
    }

    /// The owner's and root's lock (journal/.lock-owner, the folder owner's,
    /// 0600): replaced when it is anybody else's or not a plain file. nil
    /// where it cannot be made (the family's lock alone then).
    static func ownerLock(_ h: FamilyFolder, timeoutMillis: Int) throws(ToolError) -> FileLock? {
        let path = Sys.join(h.journal, ".lock-owner")
        var st = stat()
        if lstat(path, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG || st.st_uid != h.owner || st.st_mode & 0o7777 != 0o600 {
            unlink(path)
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd >= 0 {
            _ = fchmod(fd, 0o600)
            if geteuid() == 0 { _ = fchown(fd, h.owner, gid_t(UInt32.max)) }
            close(fd)
        }
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == h.owner else { return nil }
        return try FileLock.acquire(path, timeoutMillis: timeoutMillis, what: "the family folder \(h.path)")
    }

    /// The family's lock (journal/.lock, the owner's or root's, 0644: every
    /// parent may flock it, none may replace it in the sticky folder), held
    /// by every writer for its whole change. nil where no such file is there
    /// yet (the owner's or root's next run makes it).
    static func familyLock(_ h: FamilyFolder, timeoutMillis: Int) throws(ToolError) -> FileLock? {
        let path = Sys.join(h.journal, ".lock")
        let me = UInt32(geteuid())
        var st = stat()
        if me == h.owner || me == 0 {
            if lstat(path, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG || (st.st_uid != h.owner && st.st_uid != 0) || st.st_mode & 0o7777 != 0o644 {
                unlink(path)  // somebody else's, or not the lock: the folder's owner replaces it
            }
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 { _ = fchmod(fd, 0o644); close(fd) }
        }
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == h.owner || st.st_uid == 0 else { return nil }
        return try FileLock.acquire(path, timeoutMillis: timeoutMillis, what: "the family folder \(h.path)")
    }

    /// Makes a journal 0644 when it is a regular file of `owner`'s with one
    /// link (never following a link, never a file linked from elsewhere).
    static func readableToParents(_ path: String, owner: UInt32) {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == owner, st.st_nlink == 1, st.st_mode & 0o044 != 0o044 else { return }
        _ = fchmod(fd, (st.st_mode & 0o7777) | 0o044)
    }

    /// Replaces a status file: readable by its owner and `reader` only.
    static func writeStatus(_ path: String, _ bytes: [UInt8], reader: UInt32) throws(ToolError) {
        if let old = try? Sys.readFile(path), old == bytes, ownedByMe(path) { return }
        let tmp = path + ".tmp-\(getpid())"
        unlink(tmp)
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd < 0 { throw Sys.accessError(tmp, verb: "create") }
        do throws(ToolError) {
            try ACL.setReaders(fd: fd, path: tmp, [reader])
        } catch {
            close(fd)
            unlink(tmp)
            throw error
        }
        let ok = Sys.writeAll(fd: fd, bytes) && fsync(fd) == 0
        close(fd)
        guard ok, rename(tmp, path) == 0 else {
            unlink(tmp)
            throw ToolError(.ioError, "cannot write \(path): \(Sys.errnoString())")
        }
    }

    static func ownedByMe(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0 && st.st_uid == geteuid()
    }

    /// A child's (or would-be parent's) status, as the parents' last run wrote it.
    static func readStatus(_ h: FamilyFolder) throws(ToolError) -> JSONObject {
        let login = Sys.loginName()
        let path = Sys.join(h.status, login + ".json")
        guard let got = try Sys.readPeerFile(path, from: 0, cap: 1 << 20) else {
            throw ToolError(.noPermission, "\(login) is not a parent of the family in \(h.path), and no parent's run has written a status for \(login) yet (a parent adds a child with 'rewards child add NAME --user \(login)')")
        }
        guard let o = try? JSON.parseObject(bytes: got.bytes.filter { $0 != 0x0A }) else { throw ToolError(.dataError, "\(path) is not a status record") }
        return o
    }
}
