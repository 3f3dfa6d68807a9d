// One pass between yomo's store and its vdir, under the vdir index's lock:
// first what other clients changed (files new, changed or gone since the
// index saw them) becomes events in one batch of the store, then the
// reminders yomo changed are written to their files (or their files
// removed), then the index is saved with the folder's new stamp.
//
// Invariants: a file is read only when its stat (size, mtime ns, inode)
// differs from the index's, and imported only when its bytes differ from
// what yomo last wrote or read; a file that does not read whole is left as
// it is and reported on every pass until it does, never taken for a
// deletion; a reminder's file is written only when its fingerprint changed.
// Inbound comes first, so yomo never writes over a change it has not read.

struct VdirPass {
    let store: Store<YomoState>
    let dataDir: String
    let path: String
    let zone: Zone
    let now: Instant
    /// This device (whose notifications a dismissal closes).
    let device: String
    /// The progress meters of long steps (`vdir sync`'s), by label and total.
    var meter: ((String, Int) -> ProgressMeter)? = nil

    /// "vdir:NAME": who the events from the vdir are by.
    var by: String { "vdir:" + (path.split(separator: "/").last.map(String.init) ?? "vdir") }

    struct Report {
        /// One record per change, in (from the vdir) and out (to it).
        var changes: [JSONObject] = []
        var dismissals: [JSONObject] = []
        var conflicts: [(message: String, record: JSONObject)] = []
        var warnings: [String] = []
    }

    /// Whether the folder is as the index last saw it: `due` and `watch`
    /// look no further.
    static func unchanged(dataDir: String, path: String) -> Bool {
        guard let now = VdirFolder.folderStamp(path) else { return false }
        return VdirFolder.savedStamp(dataDir, path: path) == now
    }

    /// Reads what changed (every file when `scan`, else only when the
    /// folder's stamp moved), then writes `ids` (nil: every reminder).
    func run(scan: Bool, ids: Set<String>?) throws(ToolError) -> Report {
        try Sys.makeDirectories(dataDir)
        if !Sys.isDirectory(path) { try Sys.makeDirectories(path) }
        let lock = try FileLock.acquire(Sys.join(dataDir, "vdir.lock"), timeoutMillis: store.options.lockTimeoutMillis,
                                        what: "yomo's vdir index in \(dataDir)")
        defer { lock.release() }
        var seen = try VdirFolder.load(dataDir, path: path)
        let before = seen
        let savedStamp = VdirFolder.savedStamp(dataDir, path: path)
        var report = Report()
        var rewrite = Set<String>()
        var state: YomoState
        // The folder is listed only when it changed: a command that writes
        // one reminder's file looks at that file alone.
        var entries: [VdirFolder.Entry]? = nil
        if scan || savedStamp != VdirFolder.folderStamp(path) {
            VdirFolder.removeTemporaries(path)
            let listed = try VdirFolder.list(path)
            entries = listed
            state = try inbound(listed, seen: &seen, report: &report, rewrite: &rewrite)
        } else {
            state = try store.read()
        }
        try outbound(state, entries: entries, ids: ids.map { $0.union(rewrite) }, seen: &seen, report: &report)
        // Nothing changed: the index stays as it is (no write, no fsync).
        let stamp = VdirFolder.folderStamp(path)
        if seen != before || stamp != savedStamp { try VdirFolder.save(dataDir, path: path, stamp: stamp, seen: seen) }
        return report
    }

    /// Files new, changed or gone since the index: their events, in one batch.
    func inbound(_ entries: [VdirFolder.Entry], seen: inout [String: YomoVdir.Seen], report: inout Report,
                 rewrite: inout Set<String>) throws(ToolError) -> YomoState {
        var changed: [(VdirFolder.Entry, [UInt8], YomoVdir.FileRead)] = []
        var present = Set<String>()
        let reading = meter?("reading \(path)", entries.count) ?? .none
        defer { reading.finish() }
        for e in entries {
            reading.add()
            present.insert(e.name)
            if let s = seen[e.name], s.size == e.size, s.mtime == e.mtime, s.inode == e.inode { continue }
            guard let bytes = try VdirFolder.read(path, e.name) else {
                report.warnings.append("vdir: \(e.name): over \(VdirFolder.fileCap >> 20) MiB or not a regular file; left alone")
                continue
            }
            let hash = Checksum.hex(Checksum.hash(bytes))
            if var s = seen[e.name], s.hash == hash {
                (s.size, s.mtime, s.inode) = (e.size, e.mtime, e.inode)
                seen[e.name] = s
                continue
            }
            switch YomoVdir.read(bytes, name: e.name, fallback: zone) {
            case .failure(let p): report.warnings.append("vdir: \(p.text); left alone until it reads whole")
            case .success(let f): changed.append((e, bytes, f))
            }
        }
        reading.finish()
        let gone = seen.values.filter { !present.contains($0.file) }.sorted { $0.file < $1.file }
        if changed.isEmpty && gone.isEmpty { return try store.read() }
        let by = self.by
        return try store.write(at: now, zone: zone) { (tx) throws(ToolError) -> YomoState in
            var byUID: [String: String] = [:]
            for r in tx.state.reminders.values { byUID[YomoVdir.uid(r)] = r.id }
            // Each reminder's file as the index knows it, and whether it is still there.
            var fileOf: [String: String] = [:]
            for s in seen.values where !s.id.isEmpty && !s.retired { fileOf[s.id] = s.file }
            var fresh: [(VdirFolder.Entry, [UInt8], YomoVdir.FileRead)] = []
            var taken = Set<String>()
            // Series one of whose occurrences a client completed in this pass, with their files.
            var doneHere: [(id: String, file: String)] = []
            for (e, bytes, f) in changed {
                guard taken.insert(f.uid).inserted else {
                    report.warnings.append("vdir: \(e.name): UID \(f.uid) is in another file too; left alone")
                    continue
                }
                let last = seen[e.name].flatMap { $0.uid == f.uid ? $0 : nil }
                if let l = last, l.retired, byUID[f.uid] == nil {
                    // A completed occurrence the client keeps as a task of its own: left alone.
                    var l = l
                    (l.size, l.mtime, l.inode, l.hash) = (e.size, e.mtime, e.inode, Checksum.hex(Checksum.hash(bytes)))
                    seen[e.name] = l
                    continue
                }
                // A second file with a reminder's UID while its own file is still there (a sync
                // engine's conflict copy, a forged file): left alone, never the reminder's.
                if let id = byUID[f.uid], let own = fileOf[id], own != e.name, present.contains(own) {
                    report.warnings.append("vdir: \(e.name): UID \(f.uid) is \(own)'s; left alone")
                    continue
                }
                guard let id = byUID[f.uid], let r = tx.state.reminders[id] else {
                    if let l = last, !l.id.isEmpty {
                        // Deleted here, changed there: the deletion stands, and says what it dropped.
                        report.conflicts.append(("vdir: '\(f.item?.title ?? f.uid)' was deleted here and changed in \(e.name); the deletion stands",
                                                 ["type": "conflict", "tool": "yomo", "id": .string(l.id), "file": .string(e.name), "kept": "yomo",
                                                  "lost": YomoVdir.summary(title: f.item?.title ?? "", due: "", status: "deleted here")]))
                        seen[e.name] = YomoVdir.Seen(file: e.name, uid: f.uid, id: l.id, size: e.size, mtime: e.mtime, inode: e.inode,
                                                     hash: Checksum.hex(Checksum.hash(bytes)), fingerprint: "", sequence: f.sequence)
                        continue
                    }
                    fresh.append((e, bytes, f))
                    continue
                }
                var f = f
                if r.zone(zone).name != zone.name, case .success(let again) = YomoVdir.read(bytes, name: e.name, fallback: r.zone(zone)) { f = again }
                let d = YomoVdir.inbound(r, read: f, file: e.name, seenFingerprint: YomoVdir.base(f, seen: last), fileTime: Instant(ms: e.mtime / 1_000_000),
                                         now: now, zone: zone, by: by)
                apply(d, r, file: e.name, tx: &tx, report: &report)
                if d.rewrite { rewrite.insert(r.id) }
                let after = tx.state.reminders[r.id]
                // (Its completion may count for nothing here: done already, as here, where the copy stays the series' too.)
                if r.scheduled, after.map({ !$0.completed }) ?? false, f.item?.completed == true || d.events.contains(where: { $0["type"] == "completed" }) {
                    doneHere.append((r.id, e.name))
                }
                seen[e.name] = YomoVdir.Seen(file: e.name, uid: f.uid, id: r.id, size: e.size, mtime: e.mtime, inode: e.inode,
                                             hash: Checksum.hex(Checksum.hash(bytes)),
                                             fingerprint: d.rewrite ? "" : after.map { YomoVdir.fingerprint($0, zone: $0.zone(zone)) } ?? "",
                                             sequence: max(last?.sequence ?? 0, f.sequence), version: f.version ?? "", due: f.due)
            }
            // todoman completes an occurrence of a series by completing its task and
            // making a copy, with a new UID, for the next: that copy is the series'
            // file from now on, and the completed task the client's to keep.
            // Done several times before this pass: the copies it completed on the way are the
            // client's to keep, as the first task is; the open one says how far the series went.
            fresh = fresh.filter { (e, bytes, f) in
                guard let item = f.item, item.completed, doneHere.contains(where: { d in
                    tx.state.reminders[d.id].map { YomoVdir.completedCopy($0, item: item, zone: zone) } ?? false
                }) else { return true }
                var s = YomoVdir.Seen(file: e.name, uid: f.uid, id: "", size: e.size, mtime: e.mtime, inode: e.inode,
                                      hash: Checksum.hex(Checksum.hash(bytes)), fingerprint: "", sequence: f.sequence)
                s.retired = true
                seen[e.name] = s
                return false
            }
            fresh = fresh.filter { (e, bytes, f) in
                guard let item = f.item, let k = doneHere.firstIndex(where: { d in
                    tx.state.reminders[d.id].map { YomoVdir.continues($0, item: item, zone: zone) } ?? false
                }), let r = tx.state.reminders[doneHere[k].id] else { return true }
                let original = doneHere.remove(at: k).file
                tx.record(YomoVdir.adoptEvent(r, uid: f.uid, sequence: f.sequence, zone: zone, at: zone.format(now), by: by))
                // Due later than the next occurrence: the ones before it were done too.
                if let cur = tx.state.reminders[r.id], let o = YomoVdir.seriesDue(cur, item: item, zone: zone), o > cur.triggerAt {
                    var done = Yomo.completedEvent(cur, next: o, zone: cur.zone(zone), at: zone.format(now))
                    done["by"] = .string(by)
                    tx.record(done)
                }
                if var o = seen[original] { o.id = ""; o.retired = true; o.fingerprint = ""; seen[original] = o }
                seen[e.name] = YomoVdir.Seen(file: e.name, uid: f.uid, id: r.id, size: e.size, mtime: e.mtime, inode: e.inode,
                                             hash: Checksum.hex(Checksum.hash(bytes)), fingerprint: "", sequence: f.sequence, version: f.version ?? "")
                rewrite.insert(r.id)
                report.changes.append(["type": "vdir", "direction": "in", "change": "continued", "id": .string(r.id), "file": .string(e.name),
                                       "by": .string(by)])
                return false
            }
            // New items: planned together (ids, triggers), as an import plans them.
            let items = fresh.compactMap { $0.2.item }
            let (plan, _, _) = YomoInterchange.plan(items, existing: tx.state.reminders, name: "vdir", zone: zone, now: now)
            var planned: [String: String] = [:]  // UID -> id
            for p in plan {
                for var ev in YomoInterchange.events(for: p, at: zone.format(now)) {
                    ev["by"] = .string(by)
                    tx.record(ev)
                }
                let uid = p.item.source.map { String($0.dropFirst("ical:".count)) } ?? ((p.item.id ?? "") + "@yomo")
                planned[uid] = p.id
                report.changes.append(["type": "vdir", "direction": "in", "change": "created", "id": .string(p.id), "by": .string(by)])
            }
            for (e, bytes, f) in fresh {
                if f.item == nil { report.warnings.append("vdir: \(e.name): a task without a date (DUE or DTSTART) or cancelled; yomo leaves it out") }
                for w in f.warnings { report.warnings.append("vdir: \(w)") }
                let id = planned[f.uid] ?? ""
                let fp = tx.state.reminders[id].map { YomoVdir.fingerprint($0, zone: $0.zone(zone)) } ?? ""
                seen[e.name] = YomoVdir.Seen(file: e.name, uid: f.uid, id: id, size: e.size, mtime: e.mtime, inode: e.inode,
                                             hash: Checksum.hex(Checksum.hash(bytes)), fingerprint: fp, sequence: f.sequence, version: f.version ?? "",
                                             due: f.due)
            }
            for s in gone {
                seen[s.file] = nil
                // Renamed: its UID is in another file now, which stands for it.
                if taken.contains(s.uid) { continue }
                guard !s.id.isEmpty, let r = tx.state.reminders[s.id] else { continue }
                let d = YomoVdir.removed(r, file: s.file, seenFingerprint: s.fingerprint, now: now, zone: zone, by: by)
                apply(d, r, file: s.file, tx: &tx, report: &report)
                if d.rewrite { rewrite.insert(r.id) }
            }
            return tx.state
        }
    }

    /// Records one file's events, the records that say so, a conflict, and
    /// the dismissal of a notification this device showed for it.
    func apply(_ d: YomoVdir.Inbound, _ r: Reminder, file: String, tx: inout Transaction<YomoState>, report: inout Report) {
        for e in d.events {
            tx.record(e)
            report.changes.append(["type": "vdir", "direction": "in", "change": e["type"] ?? .null, "id": .string(r.id),
                                   "file": .string(file), "by": .string(by)])
        }
        if let c = d.conflict { report.conflicts.append(c) }
        if let why = d.dismiss, let shown = r.announcedBy[device], shown >= r.triggerAt || r.snoozeAnnouncedBy[device] != nil {
            let n = Yomo.Shown(id: r.id, occurrence: shown, snooze: false, revision: r.revision)
            report.dismissals.append(Yomo.dismissRecord(n, reason: why, by: by, zone: r.zone(zone)))
        }
    }

    /// Writes the files of the reminders in `ids` (nil: all) whose
    /// fingerprint changed, and removes the files of those that are gone.
    func outbound(_ state: YomoState, entries: [VdirFolder.Entry]?, ids: Set<String>?, seen: inout [String: YomoVdir.Seen],
                  report: inout Report) throws(ToolError) {
        var fileOf: [String: String] = [:]
        for s in seen.values where !s.id.isEmpty { fileOf[s.id] = s.file }
        let listed = entries.map { Set($0.map(\.name)) }
        func isOnDisk(_ name: String) -> Bool { listed?.contains(name) ?? VdirFolder.isFile(Sys.join(path, name)) }
        var zones: [String: [String]] = [:]
        func vtimezone(_ z: Zone, _ year: Int) -> [String] {
            let key = "\(z.name) \(year)"
            if let v = zones[key] { return v }
            let v = ICS.vtimezone(name: z.name, zone: z, years: (year - 1)...max(year - 1, min(z.day(of: now).year + 10, 2100)))
            zones[key] = v
            return v
        }
        var writes: [(name: String, bytes: [UInt8])] = []
        var pending: [String: YomoVdir.Seen] = [:]
        let targets: [Reminder] = ids.map { $0.compactMap { state.reminders[$0] } } ?? Array(state.reminders.values)
        for r in targets.sorted(by: { $0.id < $1.id }) {
            let z = r.zone(zone)
            let fp = YomoVdir.fingerprint(r, zone: z)
            let due = YomoVdir.due(r, zone: z)
            let file = fileOf[r.id] ?? YomoVdir.fileName(r)
            let last = seen[file]
            if let l = last, l.fingerprint == fp, l.due == due?.ms, isOnDisk(file) { continue }
            let core = due == nil ? nil : YomoVdir.core(r, zone: z)
            var old: ICSComponent? = nil
            var sequence = last?.sequence ?? 0
            if isOnDisk(file), let bytes = try VdirFolder.read(path, file) {
                if last.map({ $0.hash != Checksum.hex(Checksum.hash(bytes)) }) ?? true,
                   case .failure(let p) = YomoVdir.read(bytes, name: file, fallback: z) {
                    report.warnings.append("vdir: \(p.text); not written over")
                    continue
                }
                if case .success(let f) = YomoVdir.read(bytes, name: file, fallback: z) {
                    old = f.calendar
                    sequence = max(sequence, f.sequence)
                }
            }
            let bytes = YomoVdir.render(r, zone: z, now: now, sequence: sequence + 1, old: old, core: core, vtimezone: vtimezone)
            writes.append((file, bytes))
            var s = YomoVdir.Seen(file: file, uid: YomoVdir.uid(r), id: r.id, size: 0, mtime: 0, inode: 0,
                                  hash: Checksum.hex(Checksum.hash(bytes)), fingerprint: fp, sequence: sequence + 1, version: fp)
            s.due = due?.ms
            pending[file] = s
            report.changes.append(["type": "vdir", "direction": "out", "change": last == nil ? "written" : "updated", "id": .string(r.id), "file": .string(file)])
        }
        let written = try VdirFolder.write(path, writes, meter: meter)
        for (name, var s) in pending {
            if let e = written[name] { (s.size, s.mtime, s.inode) = (e.size, e.mtime, e.inode) }
            seen[name] = s
        }
        var removals: [String] = []
        for s in seen.values.sorted(by: { $0.file < $1.file }) where !s.id.isEmpty && state.reminders[s.id] == nil {
            if let ids = ids, !ids.contains(s.id) { continue }
            if isOnDisk(s.file) { removals.append(s.file) }
            seen[s.file] = nil
            report.changes.append(["type": "vdir", "direction": "out", "change": "removed", "id": .string(s.id), "file": .string(s.file)])
        }
        VdirFolder.remove(path, removals)
    }
}
