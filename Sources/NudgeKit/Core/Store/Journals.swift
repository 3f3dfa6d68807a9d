// Which journals a store believes: the data directory checked, the journal
// folder (and its subfolders) listed, every entry judged by name, kind and
// owner under the store's trust, and one warning for what is ignored.
//
// Invariants: only regular files named ACTOR.ndjson (or ACTOR~N.ndjson) are
// journals; under `.owner` trust a file belongs to the user, the folder's
// owner or root; under `.perUser` NAME.ndjson counts only when login NAME owns
// it; conflict copies and engine temporaries never count. Listing is one
// fstatat per entry and opens no file.

extension Store {
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

    /// The journals this store believes, and one warning for those it
    /// ignores. Names are relative to `journalDir`.
    func journalEntries(known: [String: JournalMark] = [:]) throws(ToolError) -> [DirEntry] { try listJournals(known: known).entries }

    /// The journals as `journalEntries` gives them, with the folders looked
    /// in and their change times taken before each was read (for
    /// `rememberListing`). `known`: the journals folded so far (what a
    /// crowded folder read by name is looked up by, besides each actor's).
    func listJournals(known: [String: JournalMark] = [:]) throws(ToolError) -> Listing {
        var ignored: [String] = []
        var conflicts: [String] = []
        var folders: [FolderStamp] = []
        let start = Store.realNanos()
        /// A folder's entries, its stamp taken first.
        func scan(_ rel: String, keep: ((String) -> Bool)? = nil) throws(ToolError) -> [DirEntry]? {
            if options.folderStamps { folders.append(folderStamp(rel)) }
            let path = rel == "." ? journalDir : Sys.join(journalDir, rel)
            // Among strangers a folder inside is entered only as itself: one somebody replaced by a
            // symbolic link would make this reader (the pool's owner, root) list wherever it points.
            var lst = stat()
            if options.trust == .perUser, rel != ".", lstat(path, &lst) == 0, (lst.st_mode & S_IFMT) != S_IFDIR { return nil }
            guard options.trust == .perUser else { return try Sys.scanDirectory(path, keep: keep) }
            // A login writes NAME.ndjson, or one NAME~N.ndjson when somebody
            // else holds that name: every other NAME~N is passed over by
            // name, never stat'ed (a member's own flood of them included).
            let names = Locked([String: [String]]())
            guard var all = try Sys.scanDirectory(path, keep: { name in
                guard keep?(name) ?? true else { return false }
                guard name.hasSuffix(".ndjson") else { return true }
                let base = name.dropLast(7)
                let actor = Store.actorPart(base)
                if actor.count == base.count { return true }
                names.withLock { $0[String(actor), default: []].append(name) }
                return false
            }) else { return nil }
            for (actor, tilde) in names.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
                guard let uid = Users.uid(of: actor) else { continue }
                if all.contains(where: { $0.name == actor + ".ndjson" && $0.kind == .regular && $0.uid == uid }) { continue }
                for n in tilde.sorted() {
                    guard let e = Sys.entry(in: path, n) else { continue }
                    if e.kind == .regular && e.uid == uid { all.append(e); break }
                }
            }
            return all
        }
        guard let subs = options.subfolders else {
            guard let all = try scan(".") else { return Listing(entries: [], folders: folders, startNanos: start, clean: true) }
            if options.trust == .perUser && all.count > 64 { Users.preload() }
            let out = filterJournals(all, prefix: "", pair: nil, ignored: &ignored, conflicts: &conflicts)
            reportIgnored(ignored, conflicts)
            return finish(out, folders, start, ignored.isEmpty && conflicts.isEmpty)
        }
        var out: [DirEntry] = []
        for (i, sub) in subs.enumerated() {
            if let stars = Store.starsSplit(sub) {
                // Every folder inside ("P/**"), or a folder LEAF in each
                // ("P/**/LEAF", entered by name, never listed): the reader
                // may see them all.
                let (parent, leaf) = stars
                guard let dirs = (try? scan(parent)) ?? nil else { continue }
                for d in dirs where d.kind == .directory {
                    let rel = parent + "/" + d.name + leaf
                    guard let files = (try? scan(rel)) ?? nil else { continue }
                    out += filterJournals(files, prefix: rel + "/", pair: nil, ignored: &ignored, conflicts: &conflicts)
                }
            } else if sub.hasSuffix("/*") {
                // A folder per group of actors: only those naming this actor.
                let parent = String(sub.dropLast(2))
                guard let dirs = (try? scan(parent)) ?? nil else { continue }
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
                    guard let files = (try? scan(rel)) ?? nil else { continue }
                    out += filterJournals(files, prefix: rel + "/", pair: members, ignored: &ignored, conflicts: &conflicts)
                }
            } else {
                // Only the actors named for this folder, when it says so:
                // the others are passed over by name, never stat'ed.
                let only = options.actorsIn[sub]
                let keep: ((String) -> Bool)? = only.map { set in
                    { name in name.hasSuffix(".ndjson") && set.contains(String(Store.actorPart(name.dropLast(7)))) }
                }
                // The first folder is the store's own: it must be readable.
                let files: [DirEntry]?
                if let set = only, options.byNameWhenCrowded.contains(sub), let named = byName(sub, actors: set, known: known) {
                    if options.folderStamps { folders.append(folderStamp(sub)) }
                    files = named
                } else if i == 0 { files = try scan(sub, keep: keep) }
                else { files = (try? scan(sub, keep: keep)) ?? nil }
                guard let fs = files else { continue }
                if options.trust == .perUser && fs.count > 64 { Users.preload() }
                out += filterJournals(fs, prefix: sub + "/", pair: nil, ignored: &ignored, conflicts: &conflicts)
            }
        }
        reportIgnored(ignored, conflicts)
        return finish(out, folders, start, ignored.isEmpty && conflicts.isEmpty)
    }

    /// Whether a folder of `actors`' journals holds far more entries than
    /// they write (its size as the file system gives it, which counts every
    /// name in it): listing it would cost what somebody else put there.
    static func crowded(size: Int64, actors: Int) -> Bool {
        size > 64 * Int64(min(actors, 1_000_000) + 64)
    }

    /// Whether subfolder `sub` is one read by name when crowded, and is;
    /// or is one this login may enter but not list (a host pool's journal/).
    func isCrowded(_ sub: String) -> Bool {
        guard options.byNameWhenCrowded.contains(sub), let actors = options.actorsIn[sub] else { return false }
        var st = stat()
        let path = Sys.join(journalDir, sub)
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
            && (Store.crowded(size: Int64(st.st_size), actors: actors.count) || access(path, R_OK) != 0)
    }

    /// The journals of a crowded folder `sub`, found by name: each actor's
    /// NAME.ndjson, and the NAME~N ones already folded (`known`) of actors
    /// whose NAME.ndjson is not theirs. nil when the folder is not crowded
    /// (or not there): it is listed.
    func byName(_ sub: String, actors: Set<String>, known: [String: JournalMark]) -> [DirEntry]? {
        guard isCrowded(sub) else { return nil }
        let path = Sys.join(journalDir, sub)
        var out: [DirEntry] = []
        var plain = Set<String>()
        if options.trust == .perUser && actors.count > 64 { Users.preload() }
        var squatted = Set<String>()
        for a in actors.sorted() {
            guard let e = Sys.entry(in: path, a + ".ndjson") else { continue }
            out.append(e)
            guard options.trust == .perUser else { continue }
            if e.kind == .regular, let uid = Users.uid(of: a), e.uid == uid { plain.insert(a) } else { squatted.insert(a) }
        }
        let prefix = sub + "/"
        for name in known.keys.sorted() where name.hasPrefix(prefix) {
            let leaf = name.dropFirst(prefix.count)
            guard let actor = Store.tildeActor(leaf), actors.contains(actor), !plain.contains(actor),
                  let e = Sys.entry(in: path, String(leaf)) else { continue }
            if e.kind == .regular, let uid = Users.uid(of: actor), e.uid == uid { squatted.remove(actor) }
            out.append(e)
        }
        // Somebody else holds an actor's NAME.ndjson: their NAME~N as the one who lists the folder
        // named it, and this writer's own (which it found when it chose it). Another actor's not
        // named yet is not seen until it is: no squat makes a reader list what was flooded.
        var extra = options.namesWhenCrowded[sub] ?? []
        let own = ownName
        if own.hasPrefix(prefix) { extra.append(String(own.dropFirst(prefix.count))) }
        for leaf in extra where !out.contains(where: { $0.name == leaf }) {
            guard let actor = Store.tildeActor(Substring(leaf)), squatted.contains(actor), let e = Sys.entry(in: path, leaf) else { continue }
            out.append(e)
        }
        return out.sorted { $0.name < $1.name }
    }

    /// "P/**" as (P, ""), "P/**/LEAF" as (P, "/LEAF"); nil for anything else.
    static func starsSplit(_ sub: String) -> (String, String)? {
        let parts = sub.split(separator: "/", omittingEmptySubsequences: false)
        guard let i = parts.firstIndex(of: "**"), i > 0 else { return nil }
        let parent = parts[..<i].joined(separator: "/")
        let leaf = parts[(i + 1)...].map { "/" + $0 }.joined()
        return (parent, leaf)
    }

    /// A listing with quotas applied: clean when nothing in it was worth a
    /// warning (which must then be said on every run).
    func finish(_ out: [DirEntry], _ folders: [FolderStamp], _ start: Int64, _ nothingIgnored: Bool) -> Listing {
        var warned = false
        let entries = limited(out, warned: &warned)
        return Listing(entries: entries, folders: folders, startNanos: start, clean: options.quietPeers || (nothingIgnored && !warned))
    }

    /// Peers' journals as far as their folder's quota: what lies past it is
    /// never read (the size a reader sees stops there).
    func limited(_ entries: [DirEntry], warned: inout Bool) -> [DirEntry] {
        guard !options.peerFileQuota.isEmpty else { return entries }
        var cut = false
        defer { warned = cut }
        return entries.map { e in
            guard !isOwn(e.name), let q = quota(of: e.name), e.size > q else { return e }
            cut = true
            if !options.quietPeers {
                Store.warnOnce("\(Sys.join(journalDir, e.name)) is \(e.size) bytes, over the \(q) any reader takes from one writer in that folder: the rest is ignored")
            }
            var c = e
            c.size = q
            return c
        }
    }

    /// The quota of the top folder a journal is in, if any.
    func quota(of rel: String) -> Int? {
        guard let slash = rel.firstIndex(of: "/") else { return nil }
        return options.peerFileQuota[String(rel[..<slash])]
    }

    func filterJournals(_ all: [DirEntry], prefix: String, pair: [String]?,
                        ignored: inout [String], conflicts: inout [String]) -> [DirEntry] {
        var out: [DirEntry] = []
        let me = UInt32(geteuid())
        var st = stat()
        let storeOwner: UInt32 = stat(journalsAreLocal ? dir : journalDir, &st) == 0 ? UInt32(st.st_uid) : me
        for var e in all {
            let n = e.name
            // A name of letters, digits, '-', '_' and '.' ending in .ndjson
            // (a pool's thousands) needs only the checks that can match it.
            let plain = Store.isPlainJournalName(n)
            // Our own set-aside files, sync engines' temporaries: not journals.
            if !plain && (n.hasSuffix(".corrupt") || n.hasPrefix(".syncthing.") || n.hasPrefix("~") || n.hasSuffix(".tmp")
                || n.hasPrefix(".") || !n.hasSuffix(".ndjson")) { continue }
            if StoreOptions.bytesContain(n, ".tmp-") { continue }
            let rel = prefix + n
            // A plain name has no '~': its actor is the name itself.
            let actor = plain ? n.dropLast(".ndjson".count) : Store.actorPart(n.dropLast(".ndjson".count))
            if StoreOptions.bytesContain(actor, ".sync-conflict-")
                || (!plain && (StoreOptions.bytesContain(n, "conflicted copy") || StoreOptions.bytesContain(n, "(conflict"))) {
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

    /// Letters, digits, '-', '_' and '.', not starting with '.' or '~',
    /// ending in ".ndjson".
    static func isPlainJournalName(_ n: String) -> Bool {
        var n = n
        return n.withUTF8 { b in
            guard b.count > 7, b[0] != 0x2E, b[b.count - 7] == 0x2E, b[b.count - 6] == 0x6E, b[b.count - 5] == 0x64,
                  b[b.count - 4] == 0x6A, b[b.count - 3] == 0x73, b[b.count - 2] == 0x6F, b[b.count - 1] == 0x6E else { return false }
            for c in b {
                let ok = (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x5F || c == 0x2E
                if !ok { return false }
            }
            return true
        }
    }

    func reportIgnored(_ ignored: [String], _ conflicts: [String]) {
        if options.quietPeers { return }
        if !ignored.isEmpty {
            let shown = ignored.prefix(5).joined(separator: ", ")
            let more = ignored.count > 5 ? " and \(ignored.count - 5) more" : ""
            // Junk the reader may not be able to remove (a co-parent's file
            // under their name) is said once, not on every run from cron.
            sayOnce("ignoring \(ignored.count) file(s) in \(journalDir) that are not journals it can trust: \(shown)\(more); "
                    + "a file's owner (or root) can remove it (ls -l \(journalDir)); said once")
        }
        if !conflicts.isEmpty {
            Store.warnOnce("ignoring sync conflict copies in \(journalDir): \(conflicts.prefix(5).joined(separator: ", ")); two devices may be writing under one name: give each device its own \(options.tool.uppercased())_ACTOR, then merge or remove the copies")
        }
    }

    /// A warning said once to this user of this store (across runs: the
    /// digests of what was said are kept in the store's own folder, the
    /// last 64); the same junk is not said again, new junk is. Where the
    /// folder cannot be written, said once per run as before. `key`: what
    /// the warning is about, when not its text (then `unsay` can forget it,
    /// so that it is said again when it comes back).
    public func sayOnce(_ m: String, key: String? = nil) {
        let digest = saidDigest(key ?? m)
        var said = readSaid()
        if said.contains(digest) { return }
        Store.warnOnce(m)
        guard Sys.isDirectory(dir) else { return }
        said = Array((said + [digest]).suffix(64))
        writeSaid(said)
    }

    /// Forgets that warnings about `keys` were said: the next is said again.
    public func unsay(_ keys: [String]) {
        let said = readSaid()
        let gone = Set(keys.map(saidDigest))
        let kept = said.filter { !gone.contains($0) }
        if kept.count != said.count { writeSaid(kept) }
    }

    private func readSaid() -> [String] {
        guard let bytes = try? Sys.readFile(Sys.join(dir, "said")), bytes.count < 64 * 1024 else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    private func writeSaid(_ said: [String]) {
        try? Sys.writeFileAtomically(Sys.join(dir, "said"), Array(said.joined(separator: "\n").utf8) + [0x0A])
    }

    /// Every journal the store believes, with its newest stamp.
    public func journals() throws(ToolError) -> [JournalInfo] {
        guard try checkDataDirectory() || !journalsAreLocal else { return [] }
        var out: [JournalInfo] = []
        for (i, e) in try journalEntries().enumerated() {
            guard let last = try lastCommit(e, index: i) else { continue }
            out.append(JournalInfo(actor: Store.actorOf(e.name), bytes: e.size, lastStamp: last.stamp, owner: e.uid))
        }
        return out
    }

    /// What a journal's end says: the stamp on its last whole commit line
    /// (nil: none there).
    struct LastCommit { var stamp: Stamp? }

    /// Reads a journal's end only; nil when the file cannot be read.
    func lastCommit(_ e: DirEntry, index: Int) throws(ToolError) -> LastCommit? {
        let back = min(e.size, 4096)
        guard let got = try peerRead(e, from: e.size - back, cap: back) else { return nil }
        if e.size <= back {
            return LastCommit(stamp: parseJournal(got.bytes, skip: 0, base: 0, name: e.name, index: index, after: nil, size: got.size, peer: false).last)
        }
        let actor = Store.actorOf(e.name)
        // Whole lines only: the last one may still be arriving.
        let whole = got.bytes.lastIndex(of: 0x0A).map { got.bytes[..<$0] } ?? []
        for line in whole.split(separator: 0x0A).reversed() {
            if let o = try? JSON.parseObject(bytes: Array(line)), o["type"]?.string == "commit" {
                return LastCommit(stamp: Store.declaredStamp(o, actor: actor))
            }
        }
        return LastCommit(stamp: nil)
    }
}

/// How `Store.sayOnce` remembers what was said: a digest, not the words.
private func saidDigest(_ s: String) -> String { Checksum.hex(Checksum.hash(Array(s.utf8))) }
