// The one read path: the snapshot, then what the journals hold past it,
// folded in stamp order — or, when that is not safe, everything again.
// `readHead` answers from the snapshot's first hot line and the tails when it
// can, with the same checks. A reader writes only in `upkeep`, named so.
//
// Invariants: readers take no lock and never see half a batch; the snapshot
// is read before the journals' sizes (journals only grow while it stands), and
// read again if a writer replaced it meanwhile; a tail batch not newer than
// the snapshot's frontier, or an erasure, makes the reader fold everything in
// stamp order, so the state depends on the journals' contents only.

extension Store {
    /// The current state, without taking the lock. A store that does not
    /// exist yet reads as empty; one that cannot be read is an error (77 for
    /// permission, 74 otherwise) naming the path. Reading itself writes
    /// nothing; afterwards `upkeep` may, when nobody else is writing.
    /// `refresh`: whether the state read makes the snapshot worth writing
    /// now, whatever the tail's length, even with nothing past it (a reader
    /// whose summary said "maybe", found nothing, and would write a summary
    /// that says more: the next run can answer from the new one).
    /// `focus`: for a lazy reader that reads only a part of the state (a
    /// status bar's one day): set on the state before the snapshot is
    /// restored into it, so that the rest need not be. Never applied to a
    /// full read, a write, or a state a snapshot is written from.
    public func read(full: Bool = false, lazy: Bool = false, refresh: ((M) -> Bool)? = nil,
                     focus: ((inout M) -> Void)? = nil) throws(ToolError) -> M {
        let exists = try checkDataDirectory()
        if !exists && (journalsAreLocal || !Sys.isDirectory(journalDir)) { return initialState(full: full) }
        if exists && hasLocalJournalsToAdopt() { try adoptWhenIdle() }
        let l = try load(full: full, lazy: lazy, focus: focus)
        let force = refresh?(l.state) ?? false
        if exists && !upkeep(after: l, full: full, force: force), let li = l.listing, let b = l.base {
            rememberListing(li, sum: b.sum, marks: b.marks)
        }
        return l.state
    }

    // MARK: The writes a reader does

    /// Moves journals made before a sync folder was set into it, when no
    /// other run holds the lock.
    func adoptWhenIdle() throws(ToolError) {
        guard let lock = try? FileLock.acquire(lockPath, timeoutMillis: 0, what: "the \(options.tool) data directory") else { return }
        defer { lock.release() }
        try adoptLocalJournals()
    }

    /// Migrates, repairs or compacts after a read, when no other run holds
    /// the lock: a refused snapshot moved aside, erased events removed from
    /// the journals this copy may rewrite, or a new snapshot when there is
    /// none, it was refused, or the tail past it has grown long (sooner in
    /// a signed folder, where each run looks up every tail batch's signature). A failure
    /// here never fails the reader: it has its answer. Returns whether it
    /// changed the snapshot.
    @discardableResult
    func upkeep(after loaded: Loaded, full: Bool, force: Bool = false) -> Bool {
        let compact = loaded.erased.keys.contains { mayRewrite($0) }
        guard compact || force || loaded.badSnapshot != nil || !loaded.snapshotUsable || loaded.capped
                || loaded.tailEvents > options.snapshotEvery * (options.signatures == nil ? 4 : 1) else { return false }
        guard let lock = try? FileLock.acquire(lockPath, timeoutMillis: 0, what: "the \(options.tool) data directory") else { return false }
        defer { lock.release() }
        if loaded.badSnapshot != nil { moveSnapshotAside() }
        do throws(ToolError) {
            if compact {
                try compactErased()
            } else {
                let l = full ? loaded : try load(full: true)
                let sum = try writeSnapshot(l)
                // What was listed is what this snapshot folded.
                if let li = l.listing { rememberListing(li, sum: sum, marks: l.marks) }
            }
        } catch {
            Store.warnOnce("could not write the snapshot (\(error.message)); answers come from the journals")
        }
        return true
    }

    // MARK: The read path

    /// Whether the journals a snapshot counted are all still there, each at
    /// least as long as what it folded.
    enum MarksCheck: Equatable {
        /// They are; `inFlight` names peer journals that are shorter now but
        /// hold nothing newer than what was folded of them: a copy still
        /// arriving (a sync engine writing in place). What was folded of them
        /// is kept, never undone; they are read again once they have grown.
        case hold(inFlight: Set<String>)
        /// A peer's journal was rewritten by its writer (an erasure: shorter,
        /// with a newer batch) or removed (a device forgotten), or a sync
        /// folder changed in a way that cannot be a copy in flight: fold
        /// again, quietly.
        case peerChanged
        /// One of this copy's own journals changed under the snapshot: not
        /// expected; the snapshot is refused, with this reason.
        case refused(String)
    }

    func checkMarks(_ marks: [String: JournalMark], against entries: [DirEntry]) throws(ToolError) -> MarksCheck {
        var found: [String: (DirEntry, Int)] = [:]
        found.reserveCapacity(entries.count)
        for (i, e) in entries.enumerated() { found[e.name] = (e, i) }
        var inFlight = Set<String>()
        var peerChanged = false
        // Only the few that changed are looked at in name order.
        var changed: [(String, JournalMark)] = []
        for (name, mark) in marks {
            if let (e, _) = found[name], e.size >= mark.end { continue }
            changed.append((name, mark))
        }
        for (name, mark) in changed.sorted(by: { $0.0 < $1.0 }) {
            // (A sync folder is outside this store: it may have been
            // changed, emptied or replaced by the user.)
            if !mayRewrite(name) || isSyncFolder {
                if let (e, i) = found[name], let folded = mark.last, let now = try lastCommit(e, index: i),
                   now.stamp.map({ $0 <= folded }) ?? true {
                    // A copy arriving in place is a prefix of what was
                    // folded: its last whole batch is an earlier one. The
                    // batch folded last, now at a shorter length, is a
                    // journal its writer rewrote (an erasure it carried
                    // out): expected, folded again quietly.
                    if now.stamp == folded { peerChanged = true } else { inFlight.insert(name) }
                } else {
                    peerChanged = true
                }
                continue
            }
            return .refused(found[name].map { "journal \(name) is \($0.0.size) bytes, shorter than the \(mark.end) it says were folded" }
                            ?? "it counts journal \(name), which is gone or no longer trusted")
        }
        if peerChanged { return .peerChanged }
        for name in inFlight.sorted() where !options.quietPeers {
            Store.warnOnce("\(Sys.join(journalDir, name)) is shorter than what was folded of it (a copy still arriving?); what was folded is kept")
        }
        return .hold(inFlight: inFlight)
    }

    /// What the journals hold past a snapshot's marks.
    enum Tails {
        /// Batches that may be folded on top of the snapshot.
        case fold([JournalRead])
        /// Everything must be folded again in stamp order: a journal changed
        /// before the point folded (with the reason when it is one of this
        /// copy's own).
        case refold(refused: String?)
        /// The same, because a tail holds an erasure or a batch not newer
        /// than the frontier (a peer's late copy); `events` past the marks,
        /// and the tails as read when none holds an erasure.
        case late(events: Int, reads: [JournalRead]?)
    }

    /// Reads each journal past its mark; one unchanged since the snapshot is
    /// not even opened (a pool may hold thousands).
    func readTails(_ entries: [DirEntry], marks: [String: JournalMark], frontier: Stamp?,
                   inFlight: Set<String> = [], fields: [[UInt8]]? = nil) throws(ToolError) -> Tails {
        var reads: [JournalRead] = []
        var late = false, erasing = false
        for (i, e) in entries.enumerated() {
            let mark = marks[e.name]
            if let m = mark, m.end == e.size || inFlight.contains(e.name) { continue }
            guard let r = try readJournal(e, index: i, from: mark?.end ?? 0, tag: mark?.tag, fields: fields) else {
                guard mark != nil else { continue }
                return .refold(refused: mayRewrite(e.name) && !isSyncFolder ? "journal \(e.name) changed before the point it folded" : nil)
            }
            if r.batches.contains(where: \.hasErase) { late = true; erasing = true }
            if !late, let f = frontier, r.batches.contains(where: { $0.stamp <= f }) { late = true }
            reads.append(r)
        }
        return late ? .late(events: reads.reduce(0) { $0 + $1.batches.reduce(0) { $0 + $1.events.count } }, reads: erasing ? nil : reads) : .fold(reads)
    }

    /// A fresh state to restore a snapshot into: focused only for a lazy,
    /// partial read (`read`'s `focus`).
    func freshState(full: Bool, lazy: Bool, focus: ((inout M) -> Void)?) -> M {
        var state = M(full: full)
        if lazy && !full, let f = focus { f(&state) }
        return state
    }

    func load(full: Bool, lazy: Bool = false, forceRebuild: Bool = false, attempt: Int = 0,
              focus: ((inout M) -> Void)? = nil) throws(ToolError) -> Loaded {
        // The snapshot first, then the journals' sizes: journals only grow
        // while a snapshot stands, so sizes read after it are never shorter
        // than what it folded — unless a writer replaced the snapshot
        // meanwhile (an erasure shrinks journals), which is checked below.
        // A signed folder's list first: one newly accepted drops the snapshot.
        if let sg = options.signatures { _ = acceptedSigners(sg) }
        let identity = Sys.fileIdentity(snapshotPath)
        var refused: String? = nil
        var snap: (snapshot: Snapshot, state: M)? = nil
        if !forceRebuild {
            var state = freshState(full: full, lazy: lazy, focus: focus)
            switch try readSnapshot(full: full, lazy: lazy || M.restoresRawLines,
                                    raw: { line, cold in cold ? state.restoreColdRaw(line) : state.restoreHotRaw(line) }) {
            case .absent, .otherSchema: break
            case .bad(let why): refused = why
            case .ok(let s):
                do {
                    for h in s.hot { try state.restoreHot(h) }
                    for c in s.cold { try state.restoreCold(c) }
                    if let c = s.coldLines { state.restoreColdSource(c) }
                    state.finishRestore()
                    snap = (s, state)
                } catch {
                    refused = "a line the model cannot read (\(error.message))"
                }
            }
        }
        // The journals as last listed while no folder has changed since;
        // otherwise listed now, and remembered for the next run.
        var listing: Listing? = nil
        var entries: [DirEntry]
        let remembered = snap.flatMap { rememberedEntries(sum: $0.snapshot.sum, marks: $0.snapshot.marks) }
        if let r = remembered {
            entries = r
        } else {
            listing = try listJournals(known: snap?.snapshot.marks ?? [:])
            entries = listing!.entries
        }
        var inFlight = Set<String>()
        var refolding = false
        if let (s, _) = snap, remembered == nil {
            switch try checkMarks(s.marks, against: entries) {
            case .hold(let f): inFlight = f
            case .peerChanged: snap = nil; refolding = true
            case .refused(let why):
                // Another run wrote a new snapshot while this one read: read again.
                if attempt < 3 && Sys.fileIdentity(snapshotPath) != identity {
                    return try load(full: full, lazy: lazy, forceRebuild: forceRebuild, attempt: attempt + 1, focus: focus)
                }
                refused = why
                snap = nil
            }
        }
        if let why = refused {
            Store.warnOnce("\(snapshotPath) was refused: \(why); the state is rebuilt from the journals")
        }
        var pastSnapshot: Int? = nil
        if let (s, state) = snap {
            switch try readTails(entries, marks: s.marks, frontier: s.frontier, inFlight: inFlight) {
            case .fold(let reads):
                var l = foldTails(reads, onto: s, state: state, entries: entries)
                l.listing = listing
                l.base = (s.sum, s.marks)
                return l
            case .refold(let why):
                refolding = true
                if let why {
                    refused = why
                    Store.warnOnce("\(snapshotPath) was refused: \(why); the state is rebuilt from the journals")
                }
            case .late(let events, _):
                pastSnapshot = events
            }
        }
        // Everything, in stamp order; peers are read up to the cap past what
        // the snapshot had folded of them.
        if remembered != nil {
            listing = try listJournals(known: snap?.snapshot.marks ?? [:])
            entries = listing!.entries
        }
        // A late batch only: from the checkpoint, when it gives the same fold.
        if let past = pastSnapshot, let s = snap?.snapshot,
           var l = try loadFromCheckpoint(entries, folded: s.marks, pastSnapshot: past, full: full, lazy: lazy, focus: focus) {
            l.listing = listing
            return l
        }
        var reads: [JournalRead] = []
        for e in entries {
            let folded = snap?.snapshot.marks[e.name]?.end ?? 0
            // A batch names its journal by its place among the reads (a
            // journal refused on the way, a FIFO planted by a peer, has none).
            if let r = try readJournal(e, index: reads.count, from: 0, tag: nil, folded: folded) { reads.append(r) }
        }
        var l = fold(reads, full: full)
        l.badSnapshot = refused
        l.listing = listing
        l.refolded = refolding || refused != nil
        return l
    }

    /// Folds the tails' batches, in stamp order, on top of a snapshot's state.
    func foldTails(_ reads: [JournalRead], onto s: Snapshot, state start: M, entries: [DirEntry]) -> Loaded {
        var state = start
        var marks = s.marks
        let frontier = s.frontier
        var bytes = 0
        var own: [String: OwnFile] = [:]
        for e in entries where isOwn(e.name) {
            own[e.name] = OwnFile(committedEnd: s.marks[e.name]?.end ?? 0, size: e.size, badRanges: [])
        }
        for r in reads {
            let before = marks[r.name]
            if r.committedEnd > (before?.end ?? 0) || before == nil {
                let grew = r.committedEnd > (before?.end ?? 0)
                marks[r.name] = JournalMark(end: r.committedEnd, tag: grew ? r.tag : (before?.tag ?? 0),
                                            bad: (before?.bad ?? 0) + r.bad, last: grew ? r.last : before?.last)
            }
            bytes += r.committedEnd - (before?.end ?? 0)
            if isOwn(r.name) { own[r.name] = OwnFile(committedEnd: r.committedEnd, size: r.size, badRanges: r.badRanges) }
            if r.deferred > 0 { warnDeferred(r) }
        }
        // A tail holds no erasure (an erasing batch makes the reader refold).
        let folded = Store.fold(Store.inStampOrder(reads), onto: &state, tombstones: [], journals: reads, frontier: frontier)
        reportBad(marks)
        return Loaded(state: state, marks: marks, frontier: folded.frontier, tailEvents: folded.events, tailBytes: bytes,
                      snapshotUsable: true, badSnapshot: nil, own: own, erased: [:],
                      capped: reads.contains { $0.capped })
    }

    /// The state before any journal: empty, with the host's facts folded
    /// (`StoreOptions.hostFacts`).
    func initialState(full: Bool) -> M {
        var state = M(full: full)
        for f in options.hostFacts { state.apply(f, stamp: Stamp(ms: 0, actor: "")) }
        return state
    }

    /// Folds whole journals in stamp order, skipping erased events.
    func fold(_ reads: [JournalRead], full: Bool) -> Loaded {
        var state = initialState(full: full)
        var marks: [String: JournalMark] = [:]
        var own: [String: OwnFile] = [:]
        var bytes = 0
        for r in reads {
            marks[r.name] = JournalMark(end: r.committedEnd, tag: r.tag, bad: r.bad, last: r.last)
            bytes += r.committedEnd
            if isOwn(r.name) { own[r.name] = OwnFile(committedEnd: r.committedEnd, size: r.size, badRanges: r.badRanges) }
            if r.deferred > 0 { warnDeferred(r) }
        }
        let batches = Store.inStampOrder(reads)
        var tombstones: [(Stamp, JSONObject)] = []
        for b in batches where b.hasErase { tombstones += Erasure.tombstones(b.events.map { (b.stamp, $0) }) }
        let folded = Store.fold(batches, onto: &state, tombstones: tombstones, journals: reads, frontier: nil)
        reportBad(marks)
        return Loaded(state: state, marks: marks, frontier: folded.frontier, tailEvents: folded.events, tailBytes: bytes,
                      snapshotUsable: false, badSnapshot: nil, own: own, erased: folded.erased,
                      capped: reads.contains { $0.capped })
    }

    /// Every journal's batches in stamp order: the order every copy folds
    /// them in, whichever journal each came from and whenever it arrived.
    static func inStampOrder(_ reads: [JournalRead]) -> [Batch] {
        var batches = reads.flatMap(\.batches)
        if reads.count > 1 { batches.sort { $0.stamp < $1.stamp } }
        return batches
    }

    /// The one fold: `batches` (in stamp order) applied to `state`, each
    /// event unless one of `tombstones` erases it (counted per journal of
    /// `journals` in `erased`). Returns how many events counted and the
    /// newest stamp folded, from `frontier` on.
    static func fold(_ batches: [Batch], onto state: inout M, tombstones: [(Stamp, JSONObject)], journals: [JournalRead],
                     frontier start: Stamp?) -> (events: Int, frontier: Stamp?, erased: [String: Int]) {
        var erased: [String: Int] = [:]
        var events = 0
        var frontier = start
        for b in batches {
            for e in b.events {
                if !tombstones.isEmpty, Erasure.erased(e, at: b.stamp, by: tombstones, state: state) {
                    erased[journals[b.journal].name, default: 0] += 1
                    continue
                }
                state.apply(e, stamp: b.stamp)
                events += 1
            }
            if frontier.map({ b.stamp > $0 }) ?? true { frontier = b.stamp }
        }
        return (events, frontier, erased)
    }

    /// The first hot line of the snapshot and the committed events written
    /// since it, without reading the rest: for readers that can often answer
    /// from a summary line. nil when that is not safe (no usable snapshot, an
    /// erasing batch, damage, a batch that waits, a failed check): the caller
    /// reads everything. The checks are `load`'s own.
    /// `writers`: the device that wrote each tail event (its journal's actor);
    /// `late`: whether it is older than what the snapshot folded.
    ///
    /// `lateTail`: a peer's late batch answers too, with every event past the
    /// snapshot's marks in stamp order, each marked late or not — for readers
    /// that can tell which late events the snapshot's fold could not have
    /// been touched by (yomo: a reminder made while nothing in the snapshot
    /// named it), so that an old batch costs what arrived, not a refold.
    ///
    /// `fields`: only these fields of each tail event ("type" first).
    public func readHead(lateTail: Bool = false, fields: [String]? = nil) throws(ToolError) -> (hot: [JSONObject], tail: [JSONObject], writers: [String], late: [Bool])? {
        let wanted = fields.map { $0.map { Array($0.utf8) } }
        guard try checkDataDirectory() else { return nil }
        guard let head = try readSnapshotHead() else { return nil }
        let entries = try journalEntries(known: head.marks)
        guard head.schema == M.schemaVersion, !head.marks.values.contains(where: { $0.bad > 0 }),
              try checkMarks(head.marks, against: entries) == .hold(inFlight: []) else { return nil }
        let reads: [JournalRead]
        switch try readTails(entries, marks: head.marks, frontier: head.frontier, fields: wanted) {
        case .fold(let r): reads = r
        case .refold: return nil
        case .late(_, let r):
            guard lateTail, let r else { return nil }
            reads = r
        }
        guard !reads.contains(where: { $0.bad > 0 || $0.deferred > 0 || $0.capped }) else { return nil }
        let batches = Store.inStampOrder(reads)
        let isLate = { (b: Batch) in head.frontier.map { b.stamp <= $0 } ?? false }
        return (head.hot, batches.flatMap(\.events), batches.flatMap { b in b.events.map { _ in b.stamp.actor } },
                batches.flatMap { b in b.events.map { _ in isLate(b) } })
    }
}
