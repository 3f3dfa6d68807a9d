// Reading one journal: its bytes (a peer's capped per run), cut into
// committed batches with effective stamps, checksums checked, damage counted.
//
// Invariants: a batch counts only when its commit line is whole and its
// checksum matches; a line without a newline is a write in progress and is
// never read; a journal's stamps only ever increase (a stamp not greater than
// the previous one is bumped past it); among strangers a batch stamped more
// than a day ahead waits for its time.

extension Store {
    /// Reads a journal from `from` and cuts it into committed batches. nil
    /// when the file is not a regular file any more, or when the line ending
    /// at `from` is not the commit line (checksum `tag`) the snapshot folded.
    /// A tail is parsed without the journal's earlier stamps: a batch not
    /// newer than the snapshot's frontier makes the caller fold everything.
    /// `fields`: only these fields of each event (besides the commit lines,
    /// read whole), for a reader that needs a few: see `parseJournal`.
    func readJournal(_ e: DirEntry, index: Int, from: Int, tag: UInt32?, folded: Int = 0,
                     fields: [[UInt8]]? = nil) throws(ToolError) -> JournalRead? {
        let path = Sys.join(journalDir, e.name)
        let own = isOwn(e.name)
        // Look back over the commit line before `from` to check it is the one folded.
        let back = from > 0 ? min(from, 4096) : 0
        // A peer is read at most a cap past what was folded before (`folded`,
        // when folding everything again), so a huge journal costs little per run.
        var cap = own || journalsAreLocal ? Int.max : options.peerReadCap + back + max(0, folded - from)
        // Past a peer's quota nothing is read (the listing's size stops there).
        let quota = own ? nil : quota(of: e.name)
        if quota != nil { cap = min(cap, max(0, e.size - (from - back))) }
        let read: (bytes: [UInt8], size: Int)?
        do throws(ToolError) {
            read = try peerRead(e, from: from - back, cap: cap)
        } catch {
            // Somebody else's file we may not read never stops this command;
            // in the store's own folder it is worth a word.
            guard !own, !journalsAreLocal, error.code == .noPermission else { throw error }
            if !options.quietPeers, options.subfolders == nil || Store.scopeOf(e.name) == options.subfolders?.first {
                Store.warnOnce("ignoring \(path): \(error.message)")
            }
            return nil
        }
        guard var got = read else { return nil }
        if quota != nil { got.size = min(got.size, e.size) }
        let bytes = got.bytes
        var lastTag: UInt32 = 0
        if back > 0 {
            guard bytes.count >= back, bytes[back - 1] == 0x0A else { return nil }
            var start = back - 1
            while start > 0 && bytes[start - 1] != 0x0A { start -= 1 }
            if start == 0 && from - back > 0 { return nil }  // a commit line longer than 4 KB: not ours
            lastTag = Store.lineTag(bytes[start..<(back - 1)])
            if let t = tag, t != lastTag { return nil }
        }
        var r = parseJournal(bytes, skip: back, base: from - back, name: e.name, index: index, after: nil,
                             size: got.size, peer: !own, fields: fields)
        r.capped = from - back + bytes.count < got.size
        if r.committedEnd == from { r.tag = lastTag }
        return r
    }

    static func lineTag(_ line: ArraySlice<UInt8>) -> UInt32 {
        UInt32(truncatingIfNeeded: line.withUnsafeBytes { Checksum.hash($0) })
    }

    /// The stamp a commit line declares: its `hlc`, or (written before
    /// stamps existed) its `at`.
    static func declaredStamp(_ o: JSONObject, actor: String) -> Stamp? {
        Stamp.clock(o["hlc"], actor: actor)
            ?? o["at"]?.string.flatMap { RFC3339.parse($0) }.map { Stamp(ms: $0.instant.ms, actor: actor) }
    }

    /// The declared stamp, bumped past `previous` when it is not greater:
    /// a journal's stamps only ever increase.
    static func effectiveStamp(_ declared: Stamp?, previous: Stamp?, actor: String) -> Stamp {
        var eff = declared ?? Stamp(ms: previous?.ms ?? 0, counter: (previous?.counter ?? -1) + 1, actor: actor)
        eff.actor = actor
        if let p = previous, !(eff.ms > p.ms || (eff.ms == p.ms && eff.counter > p.counter)) {
            eff = Stamp(ms: p.ms, counter: p.counter + 1, actor: actor)
        }
        return eff
    }

    /// Cuts bytes (from absolute offset `base + skip`) into committed batches
    /// with effective stamps: a journal's stamps only ever increase, so a
    /// stamp not greater than the previous one is bumped past it.
    /// `fields` (the first must be "type"): each event holds only these,
    /// scanned past the rest; the checksums still cover every byte.
    func parseJournal(_ bytes: [UInt8], skip: Int, base: Int, name: String, index: Int, after: Stamp?,
                      size: Int, peer: Bool, fields: [[UInt8]]? = nil) -> JournalRead {
        let names = fields?.map { String(decoding: $0, as: UTF8.self) } ?? []
        var slots = [JSON?](repeating: nil, count: names.count)
        let actor = Store.actorOf(name)
        let from = base + skip
        var r = JournalRead(name: name, committedEnd: from, size: size, last: after)
        var pending: [JSONObject] = []
        var pendingBad: [Range<Int>] = []
        var batchStart = from
        var stop = false
        // Batches a signed folder does not believe: they count for nothing,
        // and are never set aside (a list that changes could believe them).
        var unsigned = 0, forged = 0, notBelieved = 0, later = false
        let horizon = nowMillis + (options.peerHorizonMillis ?? 86_400_000)
        let waits = peer && (options.peerHorizonMillis != nil || options.trust == .perUser)
        let tag = options.tagActor ? actor : nil
        // The folder a peer's event came from, as the writer's own are tagged.
        let scopeTag = options.tagScope ? Store.scopeOf(name) : nil
        bytes.withUnsafeBytes { all in
            let raw = UnsafeRawBufferPointer(rebasing: all[skip...])
            try? NDJSON.forEachLine(in: raw) { (_, line, next) throws(ToolError) -> Bool in
                if next < 0 || stop { return false }  // no newline: torn, or a copy still arriving
                let lineStart = from + raw.baseAddress!.distance(to: line.baseAddress!)
                let lineEnd = from + next
                if peer, let cap = options.maxPeerLineBytes, line.count > cap {
                    pendingBad.append(lineStart..<lineEnd)
                    return true
                }
                let o: JSONObject
                if let f = fields, (try? JSON.scanObject(line, fields: f, into: &slots)) != nil, slots[0]?.string != "commit" {
                    var keys: [String] = []
                    var values: [JSON] = []
                    for (k, v) in zip(names, slots) where v != nil { keys.append(k); values.append(v!) }
                    o = JSONObject(parsedKeys: keys, values: values)
                } else if let whole = try? JSON.parseObject(line) {
                    o = whole
                } else {
                    pendingBad.append(lineStart..<lineEnd)
                    return true
                }
                guard o["type"]?.string == "commit" else {
                    pending.append(o)
                    return true
                }
                var ok = !options.requireChecksums
                let body = UnsafeRawBufferPointer(rebasing: raw[(batchStart - from)..<(lineStart - from)])
                if let sum = o["sum"]?.string {
                    ok = Checksum.hex(Checksum.hash(body)) == sum
                }
                let declared = Store.declaredStamp(o, actor: actor)
                // Among strangers (a shared folder), a peer stamped far ahead
                // waits for its time, so it cannot push everyone's clock. One
                // person's devices follow the stamps as they are: a clock that
                // was ahead only delays its device's own later stamps.
                if waits, let d = declared, d.ms > horizon {
                    r.deferred += 1
                    stop = true
                    return false
                }
                if options.signatures == nil, o["sig"] != nil, !journalsAreLocal {
                    Store.warnOnce("\(Sys.join(journalDir, name)): its changes are signed, but the folder has no allowed_signers (removed?) and this copy accepted none, so nothing here is verified; put the list back to verify them")
                }
                if ok, !pending.isEmpty, let sg = options.signatures {
                    switch signedBatchHolds(o, body: body, journal: name, declared: declared, previous: r.last, events: pending, own: !peer, sg) {
                    case .holds: break
                    case .fails:
                        ok = false
                        if o["sig"] == nil { unsigned += 1 } else { forged += 1 }
                    case .later:
                        later = true
                        stop = true
                        return false
                    }
                }
                let eff = Store.effectiveStamp(declared, previous: r.last, actor: actor)
                if ok {
                    let schema = Int(o["schema"]?.int ?? 1)
                    var evs: [JSONObject] = []
                    evs.reserveCapacity(pending.count)
                    var erase = false
                    for var ev in pending {
                        if schema != M.schemaVersion { ev = M.migrate(ev, from: schema) }
                        if let a = tag { ev["actor"] = .string(a) }
                        if let sc = scopeTag { ev["scope"] = .string(sc) }
                        // Proven by its signature: the model may say so.
                        if options.signatures != nil { ev["signer"] = o["signer"] }
                        if ev["type"]?.string == "erase" { erase = true }
                        evs.append(ev)
                    }
                    r.bad += pendingBad.count
                    r.badRanges += pendingBad
                    if !evs.isEmpty { r.batches.append(Batch(stamp: eff, events: evs, hasErase: erase, journal: index)) }
                } else if unsigned + forged == notBelieved {
                    r.bad += 1
                    r.badRanges.append(batchStart..<lineEnd)
                }
                // A batch a signed folder does not believe orders nothing: a forged stamp far ahead
                // must not make its journal's later batches look like copies of earlier ones.
                if unsigned + forged == notBelieved { r.last = eff }
                notBelieved = unsigned + forged
                r.tag = Store.lineTag(ArraySlice(UnsafeRawBufferPointer(rebasing: raw[(lineStart - from)..<(lineEnd - from - 1)])))
                pending.removeAll(keepingCapacity: true)
                pendingBad.removeAll()
                r.committedEnd = lineEnd
                batchStart = lineEnd
                return true
            }
        }
        if forged > 0 && !(options.quietPeers && peer) {
            Store.warnOnce("\(Sys.join(journalDir, name)): \(forged) batch(es) are not signed by a key \(options.signatures?.allowedSigners ?? "allowed_signers") allows for their signer (or were moved or copied) and count for nothing")
        }
        if later && !(options.quietPeers && peer) {
            Store.warnOnce("some batches in \(journalDir) wait to be verified (each run checks at most \(StoreSignatures.failuresPerJournal) that fail per journal, \(StoreSignatures.failuresInNewJournals) in journals that never held a good one, and \(StoreSignatures.verificationsPerRun) in all); the next run goes on from them")
        }
        if unsigned > 0 && !(options.quietPeers && peer) {
            let signedHere = ((try? Sys.readPeerFile(Sys.join(dir, "signatures.history"), from: 0, cap: 1 << 20)) ?? nil)?.bytes
                .split(separator: 0x0A).contains { $0.elementsEqual(name.utf8) } ?? false
            if peer || !signedHere {
                let whose = peer ? "once that device makes a change (it signs the ones it wrote then)" : "once a change is made here (it signs the ones it wrote)"
                Store.warnOnce("\(Sys.join(journalDir, name)): \(unsigned) batch(es) without a signature; those written before this folder asked for signatures count \(whose)")
            } else {
                Store.warnOnce("\(Sys.join(journalDir, name)): \(unsigned) batch(es) without a signature, not written here, count for nothing")
            }
        }
        return r
    }

    func warnDeferred(_ r: JournalRead) {
        if options.quietPeers && !isOwn(r.name) { return }
        Store.warnOnce("\(r.name): \(r.deferred == 1 ? "a change is" : "changes are") stamped more than a day ahead of this clock (is that device's clock right?); they count once that time comes")
    }

    func reportBad(_ marks: [String: JournalMark]) {
        let bad = marks.filter { $0.value.bad > 0 && !(options.quietPeers && !isOwn($0.key)) }
        for (name, m) in bad.sorted(by: { $0.key < $1.key }) {
            let who = isOwn(name)
                ? "the next change made here sets them aside in \(name.dropLast(7)).corrupt"
                : "only the device or person writing it can set them aside"
            Store.warnOnce("\(Sys.join(journalDir, name)): \(m.bad) committed batch(es) or line(s) cannot be read and count for nothing; \(who)")
        }
    }
}
