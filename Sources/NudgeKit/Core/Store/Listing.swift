// A listing remembered (StoreOptions.folderStamps): the journals as the last
// full listing found them, believed again while no folder it looked in has
// changed, so that a pool of thousands of journals is not stat'ed file by
// file on every run.
//
//   DATA/listing   v1 KEY SUM LISTED_MS FOLDERS EXCEPTIONS
//                  d INO CTIME_S CTIME_NS PATH     each folder looked in ("." the journal folder)
//                  e SIZE UID MODE NAME            each journal whose size is not what the snapshot
//                                                  folded, and this copy's own
//
// Invariants: with folderStamps every writer moves the change time of the
// folder it appended in after each append (a file growing does not change
// its folder), so a folder whose change time and inode are as recorded has
// had no journal created, removed, renamed or appended to by the tool since.
// A change time is recorded only when it was older than the listing's start
// by more than the file system clock's tick (a change in the same tick would
// leave it equal). A listing is tied to one snapshot (its checksum) and to
// the options that decide what is listed; it is a cache, written atomically
// by readers without the lock, at most `listingMaxAgeMillis` old, and
// anything unexpected in it means a full listing.

/// A folder as a listing saw it: its inode and change time.
struct FolderStamp: Equatable {
    var path: String
    var ino: UInt64
    var sec: Int64
    var nsec: Int64
}

/// A full listing, its start time (ns of the real clock) and the folders
/// it looked in; `clean` when nothing in it was ignored or cut by a quota
/// with a warning (which must be said again on every run).
struct Listing {
    var entries: [DirEntry]
    var folders: [FolderStamp]
    var startNanos: Int64
    var clean: Bool
}

extension Store {
    /// How old a remembered listing may be before a full one is made again:
    /// a file written in place by something other than this tool (no
    /// folder change) is seen at most this late.
    static var listingMaxAgeMillis: Int64 { 600_000 }
    /// More than a tick of the clock file times come from.
    static var folderStampMarginNanos: Int64 { 50_000_000 }

    var listingPath: String { Sys.join(dir, "listing") }

    /// What decides which files are listed and believed, as a key.
    var listingKey: String {
        var s = "\(journalDir)|\(options.subfolders ?? [])|\(options.trust)|\(options.actor)|\(options.quietPeers)|\(options.byNameWhenCrowded.sorted())|\(geteuid())"
        for (k, v) in options.actorsIn.sorted(by: { $0.key < $1.key }) { s += "|\(k)=\(v.sorted())" }
        for (k, v) in options.peerFileQuota.sorted(by: { $0.key < $1.key }) { s += "|\(k)=\(v)" }
        return String(StableHash.fnv1a(s), radix: 16)
    }

    static func realNanos() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// A folder's stamp now (inode 0: it does not exist).
    func folderStamp(_ rel: String) -> FolderStamp {
        var st = stat()
        guard stat(rel == "." ? journalDir : Sys.join(journalDir, rel), &st) == 0 else { return FolderStamp(path: rel, ino: 0, sec: 0, nsec: 0) }
        return FolderStamp(path: rel, ino: UInt64(st.st_ino), sec: Int64(st.st_ctim.tv_sec), nsec: Int64(st.st_ctim.tv_nsec))
    }

    /// Moves the change time of the folder a journal is in, after appending
    /// to it: what tells readers with a remembered listing to look again.
    func markFolderChanged(_ rel: String) {
        guard options.folderStamps else { return }
        let folder = Sys.parentDirectory(Sys.join(journalDir, rel))
        if utimensat(AT_FDCWD, folder, nil, 0) != 0 {
            Store.warnOnce("cannot mark \(folder) as changed (\(Sys.errnoString())): others may see this change only when that folder next changes")
        }
    }

    /// The journals as remembered for the snapshot with checksum `sum` and
    /// `marks`: every marked journal at the size folded, except those the
    /// listing names. nil when it cannot be believed.
    func rememberedEntries(sum: UInt64, marks: [String: JournalMark]) -> [DirEntry]? {
        guard options.folderStamps, let bytes = (try? Sys.readFile(listingPath)) ?? nil else { return nil }
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard let head = lines.first else { return nil }
        let h = head.split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
        guard h.count == 6, h[0] == "v1", h[1] == listingKey, h[2] == Checksum.hex(sum),
              let listed = Int64(h[3]), let nf = Int(h[4]), let ne = Int(h[5]),
              lines.count >= 1 + nf + ne else { return nil }
        let now = Sys.nowMillis()
        guard listed <= now + 1000, now - listed < Store.listingMaxAgeMillis else { return nil }
        for line in lines[1..<(1 + nf)] {
            let f = line.split(separator: 0x20, maxSplits: 4).map { String(decoding: $0, as: UTF8.self) }
            guard f.count == 5, f[0] == "d", let ino = UInt64(f[1]), let sec = Int64(f[2]), let nsec = Int64(f[3]) else { return nil }
            guard folderStamp(f[4]) == FolderStamp(path: f[4], ino: ino, sec: sec, nsec: nsec) else { return nil }
        }
        // The rest are as folded, and not needed by name.
        var out: [DirEntry] = []
        for line in lines[(1 + nf)..<(1 + nf + ne)] {
            let f = line.split(separator: 0x20, maxSplits: 4).map { String(decoding: $0, as: UTF8.self) }
            guard f.count == 5, f[0] == "e", let size = Int(f[1]), let uid = UInt32(f[2]), let mode = UInt32(f[3]) else { return nil }
            // This copy's own are looked at as they are now: one cut short
            // under the snapshot must be refused, whatever its folder says.
            if isOwn(f[4]) {
                guard let now = Sys.entry(in: journalDir, f[4]), now.kind == .regular,
                      now.size >= (marks[f[4]]?.end ?? 0) else { return nil }
                out.append(DirEntry(name: f[4], size: now.size, uid: now.uid, mode: now.mode, kind: .regular))
                continue
            }
            out.append(DirEntry(name: f[4], size: size, uid: uid, mode: mode, kind: .regular))
        }
        return out
    }

    /// Remembers a clean full listing for the snapshot with checksum `sum`
    /// and `marks`, when every marked journal is in it and every folder's
    /// change time was older than the listing by more than a tick.
    func rememberListing(_ l: Listing, sum: UInt64, marks: [String: JournalMark]) {
        guard options.folderStamps, l.clean,
              l.folders.allSatisfy({ $0.sec * 1_000_000_000 + $0.nsec < l.startNanos - Store.folderStampMarginNanos }) else {
            Sys.removeFile(listingPath)
            return
        }
        // Every marked journal must be there, none shorter than folded.
        var exceptions: [DirEntry] = []
        var covered = 0
        for e in l.entries {
            if let m = marks[e.name] {
                guard e.size >= m.end else { Sys.removeFile(listingPath); return }
                covered += 1
                // This copy's own are always named (a reader needs them by name).
                if m.end == e.size && !isOwn(e.name) { continue }
            }
            exceptions.append(e)
        }
        guard covered == marks.count, !l.folders.contains(where: { $0.path.contains("\n") }),
              !exceptions.contains(where: { $0.name.contains("\n") }) else {
            Sys.removeFile(listingPath)
            return
        }
        Sys.removeStaleTemporaries(in: dir, prefix: "listing")
        var text = "v1 \(listingKey) \(Checksum.hex(sum)) \(l.startNanos / 1_000_000) \(l.folders.count) \(exceptions.count)\n"
        for f in l.folders { text += "d \(f.ino) \(f.sec) \(f.nsec) \(f.path)\n" }
        for e in exceptions { text += "e \(e.size) \(e.uid) \(e.mode) \(e.name)\n" }
        try? Sys.writeFileAtomically(listingPath, Array(text.utf8), mode: 0o600)
    }
}
