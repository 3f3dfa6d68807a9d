// The checkpoint: an older snapshot kept beside the current one, so that a
// peer's late batch refolds from it rather than from every journal's first
// byte. It is an optimisation only: absent, refused or unusable, the reader
// folds everything as before, and failing to keep one loses nothing.
//
//   DATA/checkpoint.ndjson        a former snapshot, in the snapshot's format
//   DATA/checkpoint-next.ndjson   the next one, waiting to be old enough
//
// A snapshot is replaced often (every few dozen events), so the one being
// replaced is rarely much older than its successor. Each replacement
// therefore hard-links the old file in as the next checkpoint when there is
// none waiting (no copy; the link is made or not), and the waiting one
// becomes the checkpoint (a rename: atomic) once the new snapshot's frontier
// is `checkpointLag` of stamp time past it. So the checkpoint stays between
// one and about two lags behind: a batch up to a lag late (a laptop offline
// over a weekend) always folds from it, and what is folded from it is the
// batches of those days, not the year.
//
// Invariants: the checkpoint is read with the snapshot's own checks (opened
// O_NOFOLLOW, a regular file, schema and checksums); it is used only when
// every journal it counts is still there, at least as long and with the same
// commit line at its mark, and every batch past its marks is newer than its
// frontier and erases nothing — then folding its state plus those batches in
// stamp order is the full fold, byte for byte. An erasure drops both files
// (they hold the erased data), and so does anything that removes the
// snapshot.

extension Store {
    /// How much stamp time the next checkpoint waits before it becomes the
    /// checkpoint: three days (a weekend offline, and then some).
    static var checkpointLag: Int64 { 3 * 24 * 3600 * 1000 }

    var checkpointPath: String { Sys.join(dir, "checkpoint.ndjson") }
    var nextCheckpointPath: String { Sys.join(dir, "checkpoint-next.ndjson") }

    /// The frontier a snapshot-format file declares in its header, when it
    /// opens as one (checksums are checked only when it is used).
    func declaredFrontier(_ path: String) -> Stamp?? {
        guard let fd = try? openSnapshot(path) else { return nil }
        defer { close(fd) }
        guard let line = try? readHeaderLine(fd, path: path), case .success(let h) = parseHeader(line) else { return nil }
        return .some(h.frontier)
    }

    /// Called, holding the lock, just before the snapshot is replaced by one
    /// whose frontier is `next`: keeps the old snapshot as the next
    /// checkpoint when none waits, and makes the waiting one the checkpoint
    /// once it is old enough. Failures are ignored.
    func promoteToCheckpoint(before next: Stamp?) {
        guard let next else { return }
        // One from the future (forged, or a clock gone wrong) would wait for
        // ever, and so would something that is not a snapshot (a FIFO, a
        // link, a damaged file): it is dropped.
        var st = stat()
        switch declaredFrontier(nextCheckpointPath) {
        case .some(.some(let waiting)) where waiting > next: Sys.removeFile(nextCheckpointPath)
        case .none where lstat(nextCheckpointPath, &st) == 0:
            if (st.st_mode & S_IFMT) == S_IFDIR { rmdir(nextCheckpointPath) } else { Sys.removeFile(nextCheckpointPath) }
        default: break
        }
        if lstat(nextCheckpointPath, &st) != 0 && errno == ENOENT,
           lstat(snapshotPath, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG {
            _ = link(snapshotPath, nextCheckpointPath)
        }
        guard case .some(.some(let waiting)) = declaredFrontier(nextCheckpointPath),
              waiting.ms <= next.ms - Store.checkpointLag else { return }
        if rename(nextCheckpointPath, checkpointPath) != 0 { Sys.removeFile(nextCheckpointPath) }
    }

    /// Removes the checkpoints (an erasure, or the snapshot removed).
    func dropCheckpoint() {
        Sys.removeFile(checkpointPath)
        Sys.removeFile(nextCheckpointPath)
    }

    /// The fold of everything, computed from the checkpoint and the batches
    /// past its marks; nil when that is not the same thing (see the
    /// invariants above) and the caller folds everything.
    /// `folded` is what the snapshot had folded of each journal, so peers are
    /// read up to the same cap as a full fold would; `pastSnapshot` how many
    /// events the journals hold past it. For a lazy reader the snapshot on
    /// disk stays, and runs fold from the checkpoint until as much is past it
    /// as would make any reader write a new one, or the fold from the
    /// checkpoint passes 64 KiB of journal: writing a snapshot costs what the
    /// year's state costs to render, which a lazy read never pays.
    func loadFromCheckpoint(_ entries: [DirEntry], folded: [String: JournalMark], pastSnapshot: Int = 0,
                            full: Bool, lazy: Bool, focus: ((inout M) -> Void)? = nil) throws(ToolError) -> Loaded? {
        var state = freshState(full: full, lazy: lazy, focus: focus)
        guard case .ok(let s) = try readSnapshot(full: full, lazy: lazy || M.restoresRawLines, path: checkpointPath,
                                                 raw: { line, cold in cold ? state.restoreColdRaw(line) : state.restoreHotRaw(line) }),
              s.schema == M.schemaVersion, let frontier = s.frontier else { return nil }
        do {
            for h in s.hot { try state.restoreHot(h) }
            for c in s.cold { try state.restoreCold(c) }
            if let c = s.coldLines { state.restoreColdSource(c) }
            state.finishRestore()
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
        // A fold that needed the cold part (writers' indexes) costs what
        // writing the snapshot costs: it is written now, once. So is one of
        // more than 64 KiB of journal (a few days of a busy store), which
        // would cost every later run more than a steady read.
        l.snapshotUsable = !full && l.tailBytes <= 1 << 16
        l.tailEvents = pastSnapshot
        return l
    }
}
