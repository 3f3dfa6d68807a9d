// Writing: a command's events as one batch under the exclusive lock,
// appended with its commit line and fsynced before the command may print.
// Interrupted writes and unreadable lines of this copy's own journals are set
// aside in ACTOR.corrupt, never dropped.
//
// Invariants: a batch counts only once its commit line is on disk, so a crash
// at any instant leaves all of a command's change or none of it; the batch's
// stamp is greater than everything folded; once the commit line is fsynced,
// nothing after it (snapshot, compaction) can fail the command — only warn.

extension Store {
    // MARK: Writing

    /// Runs `body` under the exclusive lock with the current state, then
    /// appends the events it recorded as one committed batch, fsynced before
    /// returning. Nothing is written when `body` throws or records nothing.
    /// `lazy`: the state is read as a lazy reader reads it (hot lines the
    /// model keeps unparsed, `restoreHotRaw`), for a command that reads little
    /// of what it holds.
    public func write<R>(full: Bool = false, lazy: Bool = false, at: Instant, zone: Zone = .utc,
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
        if options.folderStamps { Sys.removeStaleTemporaries(in: dir, prefix: "listing") }
        // (Not in a folder read by name because somebody crowded it: its listing would cost what they put there.)
        if !isCrowded(Store.scopeOf(ownName)) {
            Sys.removeStaleTemporaries(in: Sys.parentDirectory(Sys.join(journalDir, ownName)), prefix: ownName.split(separator: "/").last.map(String.init))
        }
        if journalsAreLocal { Sys.removeStaleTemporaries(in: journalDir) }
        if hasLocalJournalsToAdopt() { try adoptLocalJournals() }
        if let sg = options.signatures { try signOwnHistory(target(nil), sg) }
        var l = try load(full: full, lazy: lazy)
        if l.badSnapshot != nil { moveSnapshotAside() }
        if l.marks.contains(where: { isOwn($0.key) && $0.value.bad > 0 && (l.own[$0.key]?.badRanges.isEmpty ?? true) }) {
            l = try load(full: full, lazy: lazy, forceRebuild: true)  // to find where they are
        }
        if l.own.values.contains(where: \.needsSetAside) {
            for (rel, f) in l.own.sorted(by: { $0.key < $1.key }) where f.needsSetAside {
                try setAside(rel, committedEnd: f.committedEnd, size: f.size, bad: f.badRanges)
            }
            l = try load(full: full, lazy: lazy)
        }
        // A pinned clock ahead of the real one (--now, a what-if) never
        // stamps a batch ahead of it: stamps order every copy's changes, and
        // one from the future would sort after all written until then (and
        // readers that wait for its time would hide it). Its events keep the
        // pinned times; the commit line's time is the stamp's.
        let real = Sys.nowMillis()
        let written = options.clockPinned && at.ms > real ? Instant(ms: real) : at
        let stamp = Stamp.next(after: l.frontier, now: written.ms, actor: options.actor)
        if stamp.ms > at.ms + 86_400_000 && !options.clockPinned {
            Store.warnOnce("this store's stamps run \((stamp.ms - at.ms) / 86_400_000) day(s) ahead of this clock (a clock that was ahead, here or on another device); changes are still kept in order")
        }
        var tx = Transaction<M>(state: l.state, stamp: stamp)
        if options.tagActor { tx.actor = options.actor }
        if options.tagScope { tx.scopeTag = Store.scopeOf(ownName) }
        let result = try body(&tx)
        if tx.abandoned { return result }
        var erased = l.erased.keys.contains { mayRewrite($0) }
        // The tail before this batch: one large batch (a day's draw) does not
        // make its own writer rewrite the snapshot; the next run does.
        let tailBefore = l.tailEvents
        if !tx.events.isEmpty {
            let rel = target(tx.folder)
            if let f = tx.folder, let subs = options.subfolders,
               !subs.contains(where: { Store.folder(f, isIn: $0) }) {
                throw ToolError(.software, "internal error: no journal folder '\(f)' in this store")
            }
            let folder = Sys.parentDirectory(Sys.join(journalDir, rel))
            if !Sys.isDirectory(folder) {
                // A folder made here is the writer's: others may read (by ACL), not add or remove.
                try Sys.makeDirectories(folder, mode: options.sharedWithOthers ? 0o2750 : 0o700)
            }
            let ownEnd = l.own[rel]?.committedEnd ?? 0
            var signature: JSONObject = [:]
            if let sg = options.signatures {
                signature = try signatureFields(body: Store.encodeBody(tx.events, lines: tx.lines), journal: rel,
                                                stamp: stamp, events: tx.events, sg)
            }
            let (bytes, commitLength) = Store.encodeBatch(tx.events, lines: tx.lines, stamp: stamp, by: options.user, at: written,
                                                          zone: zone, extra: signature)
            // Among strangers, a batch others could never read whole (they
            // read `peerReadCap` of a journal per run) is never written.
            if options.trust == .perUser && bytes.count > options.peerReadCap {
                throw ToolError(.dataError, "this change is \(bytes.count) bytes, more than the \(options.peerReadCap) the others read of a journal in one run; nothing was written")
            }
            try append(bytes, to: rel)
            // Durable from here on: what follows can only warn.
            l.marks[rel] = JournalMark(end: ownEnd + bytes.count,
                                       tag: Store.lineTag(bytes[(bytes.count - commitLength)..<(bytes.count - 1)]),
                                       bad: l.marks[rel]?.bad ?? 0, last: stamp)
            l.frontier = stamp
            l.tailEvents += tx.events.count
            l.tailBytes += bytes.count
            l.state = tx.state
            if tx.events.contains(where: { $0["type"]?.string == "erase" }) { erased = true }
        }
        do throws(ToolError) {
            if erased {
                try compactErased()
            } else if !l.snapshotUsable || tailBefore >= options.snapshotEvery || l.tailBytes > 1 << 20 {
                if !full { l = try load(full: true) }
                try writeSnapshot(l)
            }
        } catch {
            Store.warnOnce("the change is saved, but the snapshot could not be updated (\(error.message)); it is rebuilt next time")
        }
        return result
    }

    /// One committed batch as a journal holds it: the events, one a line,
    /// then the commit line with its count, time, author, schema, stamp and
    /// the checksum of the event lines. Returns the bytes and the commit
    /// line's length (with its newline). (Also what a benchmark seeds with,
    /// so its journals are the format the store writes.) `lines`: events
    /// already written, by index (`Transaction.record(_:line:)`).
    /// `extra`: more fields for the commit line (a signature's).
    public static func encodeBatch(_ events: [JSONObject], lines: [[UInt8]?] = [], stamp: Stamp, by user: String, at: Instant,
                                   zone: Zone, extra: JSONObject = [:]) -> (bytes: [UInt8], commitLength: Int) {
        var bytes = encodeBody(events, lines: lines)
        var commit: JSONObject = ["type": "commit", "n": .int(Int64(events.count)),
                                  "at": .string(zone.format(at)), "by": .string(user),
                                  "schema": .int(Int64(M.schemaVersion)), "hlc": stamp.clockJSON,
                                  "sum": .string(Checksum.hex(Checksum.hash(bytes)))]
        for k in extra.keys { commit[k] = extra[k] }
        let before = bytes.count
        commit.write(into: &bytes)
        bytes.append(0x0A)
        return (bytes, bytes.count - before)
    }

    /// A batch's event lines, each with its newline: what its checksum and signature cover.
    static func encodeBody(_ events: [JSONObject], lines: [[UInt8]?] = []) -> [UInt8] {
        var bytes = [UInt8]()
        for (i, e) in events.enumerated() {
            if i < lines.count, let l = lines[i] { bytes += l } else { e.write(into: &bytes) }
            bytes.append(0x0A)
        }
        return bytes
    }

    func append(_ bytes: [UInt8], to rel: String) throws(ToolError) {
        let path = Sys.join(journalDir, rel)
        let fd = try Sys.openForAppend(path, mode: fileMode(for: rel), giveAway: options.trust != .perUser)
        defer { close(fd) }
        guard Sys.writeAll(fd: fd, bytes) else {
            throw ToolError(.ioError, "cannot write \(path): \(Sys.errnoString())")
        }
        guard fsync(fd) == 0 else { throw ToolError(.ioError, "cannot sync \(path): \(Sys.errnoString())") }
        markFolderChanged(rel)
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
        defer { markFolderChanged(rel) }
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
        dropCheckpoint()
    }

    /// On a shared folder, the journal written is the login's own.
    func checkIdentity() throws(ToolError) {
        guard options.trust == .perUser else { return }
        let me = Sys.loginName()
        if options.actor != me {
            throw ToolError(.noPermission, "you are \(me) on this host; you cannot write as \(options.actor)")
        }
    }
}
