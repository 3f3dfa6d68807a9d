// Erasing: an "erase" tombstone event that every copy's fold honours (the
// model's `erases`), after which each copy rewrites the journals it may
// rewrite without the erased events, by the one journal rewrite
// (`rewritten`).
//
// Invariants: an erased event counts on no copy once the tombstone is folded;
// a copy rewrites only its own journals (all of them in a local store), each
// replaced atomically, and drops set-aside debris and refused snapshots too.

/// The erasure rule, written once: an event counts unless a tombstone
/// stamped after it erases it (the model's `erases`; or one stamped before it
/// that the model says erases later events too, `erasesLaterEvents`); a tombstone counts
/// unless the model says a later one took it back (`counts`).
public enum Erasure {
    /// The tombstones among stamped events.
    public static func tombstones<S: Sequence>(_ events: S) -> [(Stamp, JSONObject)] where S.Element == (Stamp, JSONObject) {
        events.filter { $0.1["type"]?.string == "erase" }
    }

    /// Whether `event`, stamped `stamp`, is erased by one of `tombstones`.
    public static func erased<M: JournalModel>(_ event: JSONObject, at stamp: Stamp, by tombstones: [(Stamp, JSONObject)], in model: M.Type) -> Bool {
        !tombstones.isEmpty && event["type"]?.string != "erase" && tombstones.contains { ($0.0 > stamp || M.erasesLaterEvents($0.1)) && M.erases($0.1, event) }
    }

    /// The same, judged by `state` (the fold so far): the model may weigh
    /// the stamps and the tombstone's author, and a tombstone that does not
    /// count (`counts`) erases nothing and is itself skipped.
    public static func erased<M: JournalModel>(_ event: JSONObject, at stamp: Stamp, by tombstones: [(Stamp, JSONObject)], state: M) -> Bool {
        guard !tombstones.isEmpty else { return false }
        if event["type"]?.string == "erase" { return !state.counts(tombstone: event, stamped: stamp, among: tombstones) }
        return tombstones.contains {
            ($0.0 > stamp || M.erasesLaterEvents($0.1)) && state.erases($0.1, stamped: $0.0, event, stamped: stamp) && state.counts(tombstone: $0.1, stamped: $0.0, among: tombstones)
        }
    }
}

extension Store {
    /// Removes erased events from the journals this copy may rewrite (its
    /// own; all of them in a local store), drops their set-aside debris, and
    /// rebuilds the snapshot without them.
    func compactErased() throws(ToolError) {
        let l = try load(full: true, forceRebuild: true)
        var rewritten = false
        var tombstones: [(Stamp, JSONObject)] = []
        var reads: [JournalRead] = []
        let entries = try journalEntries()
        for (i, e) in entries.enumerated() {
            if let r = try readJournal(e, index: i, from: 0, tag: nil) { reads.append(r) }
        }
        for r in reads {
            for b in r.batches where b.hasErase { tombstones += Erasure.tombstones(b.events.map { (b.stamp, $0) }) }
        }
        // Only tombstones that count remove bytes (judged by the state folded).
        let all = tombstones
        tombstones = all.filter { l.state.counts(tombstone: $0.1, stamped: $0.0, among: all) }
        for e in entries where mayRewrite(e.name) {
            if (l.erased[e.name] ?? 0) > 0,
               let got = try Sys.readPeerFile(Sys.join(journalDir, e.name), from: 0, cap: Int.max, owner: e.uid) {
                try rewriteJournal(e.name, bytes: got.bytes, tombstones: tombstones)
                rewritten = true
            }
            // Set-aside debris may hold erased data too.
            Sys.removeFile(Sys.join(journalDir, String(e.name.dropLast(7)) + ".corrupt"))
        }
        for f in (try? Sys.scanDirectory(dir)) ?? [] where f.name.hasPrefix("snapshot.ndjson.bad-") {
            Sys.removeFile(Sys.join(dir, f.name))
        }
        let final = rewritten ? try load(full: true, forceRebuild: true) : l
        // The checkpoint folded the erased events: it goes, and the snapshot
        // replaced here (from before the erasure) does not become one.
        dropCheckpoint()
        try writeSnapshot(final, keepCheckpoint: false)
    }

    /// Rewrites one journal without the events erased by `tombstones`
    /// (batches left empty go too; commit lines keep their stamps).
    func rewriteJournal(_ name: String, bytes: [UInt8], tombstones: [(Stamp, JSONObject)]) throws(ToolError) {
        let actor = Store.actorOf(name)
        var sign: ((_ body: [UInt8], _ stamp: Stamp, _ events: [JSONObject]) throws(ToolError) -> JSONObject?)? = nil
        if let sg = options.signatures {
            sign = { (body, stamp, events) throws(ToolError) -> JSONObject? in
                try signatureFields(body: body, journal: name, stamp: stamp, events: events, sg)
            }
        }
        let (out, _) = try Store.rewritten(bytes, actor: actor, sign: sign) { !Erasure.erased($0, at: $1, by: tombstones, in: M.self) }
        try Sys.writeFileAtomically(Sys.join(journalDir, name), out, mode: fileMode(for: name))
    }

    /// The one journal rewrite: `bytes`, a journal of `actor`, with only the
    /// committed events `keep` keeps (each as this version reads it, with its
    /// batch's stamp as the fold takes it); a batch left empty goes, and each
    /// commit line keeps its stamp (`hlc`, as taken) with its count and
    /// checksum made anew. What no commit line closes (a batch cut short)
    /// goes, and so do lines that are not JSON. Returns the bytes and how
    /// many events went.
    /// `sign`: in a signed folder, the signature fields of a batch whose
    /// bytes or stamp changed (a rewritten journal is signed anew by its
    /// writer), or of every batch not signed yet with `signUnsigned`; nil
    /// leaves a batch as it is.
    static func rewritten(_ bytes: [UInt8], actor: String,
                          sign: ((_ body: [UInt8], _ stamp: Stamp, _ events: [JSONObject]) throws(ToolError) -> JSONObject?)? = nil,
                          signUnsigned: Bool = false,
                          keep: (_ event: JSONObject, _ stamp: Stamp) -> Bool) throws(ToolError) -> (bytes: [UInt8], removed: Int) {
        var out = [UInt8]()
        var batch: [[UInt8]] = []
        var last: Stamp? = nil
        var removed = 0
        try withBytes(bytes) { (raw) throws(ToolError) in
            try NDJSON.forEachLine(in: raw) { (_, line, next) throws(ToolError) -> Bool in
                guard next >= 0, let o = try? JSON.parseObject(line) else { return true }
                guard o["type"]?.string == "commit" else {
                    batch.append(Array(line))
                    return true
                }
                let declared = Store.declaredStamp(o, actor: actor)
                let eff = Store.effectiveStamp(declared, previous: last, actor: actor)
                last = eff
                let schema = Int(o["schema"]?.int ?? 1)
                var body = [UInt8]()
                var kept = 0
                var events: [JSONObject] = []
                for b in batch {
                    guard let ev0 = try? JSON.parseObject(bytes: b) else { continue }
                    let ev = schema == M.schemaVersion ? ev0 : M.migrate(ev0, from: schema)
                    guard keep(ev, eff) else {
                        removed += 1
                        continue
                    }
                    body += b
                    body.append(0x0A)
                    kept += 1
                    events.append(ev0)
                }
                let whole = kept == batch.count
                batch.removeAll()
                guard kept > 0 else { return true }
                var c = o
                c["n"] = .int(Int64(kept))
                c["hlc"] = eff.clockJSON
                c["sum"] = .string(Checksum.hex(Checksum.hash(body)))
                if let sign, o["sig"] != nil ? !whole || declared != eff : signUnsigned,
                   let fields = try sign(body, eff, events) {
                    for k in fields.keys { c[k] = fields[k] }
                }
                out += body
                c.write(into: &out)
                out.append(0x0A)
                return true
            }
        }
        return (out, removed)
    }
}
