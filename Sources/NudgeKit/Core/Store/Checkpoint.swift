// The checkpoint: an older snapshot kept beside the current one, so that a
// peer's late batch refolds from it rather than from every journal's first
// byte. It is an optimisation only: absent, refused or unusable, the reader
// folds everything as before, and failing to keep one loses nothing.
//
//   DATA/checkpoint.ndjson     a former snapshot, in the snapshot's format
//
// When a writer replaces the snapshot and the one being replaced has a
// frontier at least `checkpointLag` of stamp time older than the new one's
// (and newer than the current checkpoint's), the old file is hard-linked in
// as the checkpoint: no copy, and the rename makes the switch atomic. The lag
// bounds how far back a late batch can reach and still be folded from the
// checkpoint (a laptop offline for a weekend), while the work done from it
// stays the batches of the last days, not the year.
//
// Invariants: the checkpoint is read with the snapshot's own checks (opened
// O_NOFOLLOW, a regular file, schema and checksums); it is used only when
// every journal it counts is still there, at least as long and with the same
// commit line at its mark, and every batch past its marks is newer than its
// frontier and erases nothing — then folding its state plus those batches in
// stamp order is the full fold, byte for byte. An erasure drops it (it holds
// the erased data), and so does anything that removes the snapshot.

extension Store {
    /// How much older than the new snapshot's frontier the one it replaces
    /// must be to become the checkpoint: two days of stamp time.
    static var checkpointLag: Int64 { 2 * 24 * 3600 * 1000 }

    var checkpointPath: String { Sys.join(dir, "checkpoint.ndjson") }

    /// The frontier a snapshot-format file declares in its header, when it
    /// opens as one (checksums are checked only when it is used).
    func declaredFrontier(_ path: String) -> Stamp?? {
        guard let fd = try? openSnapshot(path) else { return nil }
        defer { close(fd) }
        guard let line = try? readHeaderLine(fd, path: path), case .success(let h) = parseHeader(line) else { return nil }
        return .some(h.frontier)
    }

    /// Called, holding the lock, just before the snapshot is replaced by one
    /// whose frontier is `next`: keeps the old snapshot as the checkpoint
    /// when it is old enough and newer than the checkpoint there. Failures
    /// are ignored.
    func promoteToCheckpoint(before next: Stamp?) {
        guard let next, case .some(.some(let old)) = declaredFrontier(snapshotPath),
              old.ms <= next.ms - Store.checkpointLag else { return }
        // A checkpoint from the future (forged, or a clock gone wrong) is
        // replaced too, or it would block every later one.
        if case .some(.some(let current)) = declaredFrontier(checkpointPath), current >= old, current <= next { return }
        var st = stat()
        guard lstat(snapshotPath, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return }
        let tmp = checkpointPath + ".tmp-\(getpid())"
        unlink(tmp)
        guard link(snapshotPath, tmp) == 0 else { return }
        if rename(tmp, checkpointPath) != 0 { unlink(tmp) }
    }

    /// Removes the checkpoint (an erasure, or the snapshot removed).
    func dropCheckpoint() {
        Sys.removeFile(checkpointPath)
    }

    /// The fold of everything, computed from the checkpoint and the batches
    /// past its marks; nil when that is not the same thing (see the
    /// invariants above) and the caller folds everything.
    /// `folded` is what the refused snapshot had folded of each journal, so
    /// peers are read up to the same cap as a full fold would.
    func loadFromCheckpoint(_ entries: [DirEntry], folded: [String: JournalMark], full: Bool, lazy: Bool) throws(ToolError) -> Loaded? {
        var state = M(full: full)
        guard case .ok(let s) = try readSnapshot(full: full, lazy: lazy || M.restoresRawLines, path: checkpointPath,
                                                 raw: { line, cold in cold ? state.restoreColdRaw(line) : state.restoreHotRaw(line) }),
              s.schema == M.schemaVersion, let frontier = s.frontier else { return nil }
        do {
            for h in s.hot { try state.restoreHot(h) }
            for c in s.cold { try state.restoreCold(c) }
        } catch {
            return nil
        }
        var sizes: [String: Int] = [:]
        sizes.reserveCapacity(entries.count)
        for e in entries { sizes[e.name] = e.size }
        for (name, mark) in s.marks {
            guard let size = sizes[name], size >= mark.end else { return nil }
        }
        var reads: [JournalRead] = []
        for (i, e) in entries.enumerated() {
            let mark = s.marks[e.name]
            if let m = mark, m.end == e.size { continue }
            guard let r = try readJournal(e, index: i, from: mark?.end ?? 0, tag: mark?.tag, folded: folded[e.name]?.end ?? 0),
                  !r.capped, !r.batches.contains(where: { $0.hasErase || $0.stamp <= frontier }) else { return nil }
            reads.append(r)
        }
        var l = foldTails(reads, onto: s, state: state, entries: entries)
        // The snapshot on disk is behind a late batch: let upkeep replace it.
        l.snapshotUsable = false
        return l
    }
}
