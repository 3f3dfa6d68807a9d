// The vdir on disk: listing its `.ics` files with what tells one version of
// a file from the next (size, modification time in ns, inode), reading one
// as a peer file, writing many by temporary file and rename in the same
// folder, and the small index yomo keeps of what it saw there
// (DATA/vdir.ndjson, local to this device).
//
// Invariants: a file in the vdir is read with O_NOFOLLOW | O_NONBLOCK, only
// if regular, up to a cap; yomo replaces a file only by rename (a client or
// vdirsyncer reading it sees the old version or the new one, never half),
// and its temporary names start with a dot and do not end in `.ics`, so no
// reader of the vdir takes one for an item. The index's first line holds
// the folder's own stat, so `due` can tell "nothing changed" from one stat
// and one short read.

#if canImport(Glibc)
/// syncfs(2): Glibc declares it only under _GNU_SOURCE.
@_silgen_name("syncfs") private func linuxSyncfs(_ fd: Int32) -> Int32
#endif

enum VdirFolder {
    struct Entry: Equatable {
        var name: String
        var size: Int
        var mtime: Int64
        var inode: UInt64
    }

    /// The most bytes yomo reads of one item.
    static let fileCap = 1 << 20

    static func nanos(_ st: stat) -> Int64 { Sys.mtimeNanos(st) }

    /// The folder's own version: modification time (ns) and inode; nil when it is not a folder.
    static func folderStamp(_ path: String) -> [Int64]? {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return [nanos(st), Int64(bitPattern: UInt64(st.st_ino))]
    }

    /// The regular `.ics` files of the folder (not hidden ones), by name.
    static func list(_ path: String) throws(ToolError) -> [Entry] {
        guard let all = try Sys.scanDirectory(path, suffix: ".ics", keep: { !$0.hasPrefix(".") }) else { throw Sys.accessError(path, ENOENT) }
        return all.filter { $0.kind == .regular }.map { Entry(name: $0.name, size: $0.size, mtime: $0.modified, inode: $0.inode) }
    }

    /// Whether `path` is a regular file (not followed if a symlink).
    static func isFile(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }

    /// One item's bytes (nil: gone, not a regular file, or over the cap).
    static func read(_ dir: String, _ name: String) throws(ToolError) -> [UInt8]? {
        guard let (bytes, size) = try Sys.readPeerFile(Sys.join(dir, name), from: 0, cap: fileCap + 1), size <= fileCap else { return nil }
        return bytes
    }

    /// Writes each file as a temporary one, makes them durable together,
    /// then renames each over its name; returns their new entries.
    static func write(_ dir: String, _ files: [(name: String, bytes: [UInt8])],
                      meter: ((String, Int) -> ProgressMeter)? = nil) throws(ToolError) -> [String: Entry] {
        guard !files.isEmpty else { return [:] }
        var temps: [(String, String)] = []
        defer { for (t, _) in temps { unlink(t) } }
        // Two steps a person may wait on (the first sync writes thousands):
        // writing the files, then flushing and putting them in place.
        let writing = meter?("writing \(dir)", files.count) ?? .none
        defer { writing.finish() }
        for f in files {
            writing.add()
            let tmp = Sys.join(dir, ".\(f.name).yomo-tmp-\(getpid())")
            let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd < 0 { throw Sys.accessError(tmp, verb: "create") }
            let ok = Sys.writeAll(fd: fd, f.bytes)
            let e = errno
            #if canImport(Darwin)
            _ = fsync(fd)
            #endif
            close(fd)
            temps.append((tmp, f.name))
            if !ok { throw ToolError(.ioError, "cannot write \(tmp): \(Sys.errnoString(e))") }
        }
        writing.finish()
        let saving = meter?("saving \(dir)", files.count) ?? .none
        defer { saving.finish() }
        // One flush for the lot: ten thousand fsyncs would take longer than the sync itself.
        #if canImport(Glibc)
        let dfd = open(dir, O_RDONLY | O_CLOEXEC)
        if dfd >= 0 { _ = linuxSyncfs(dfd); close(dfd) }
        #endif
        var out: [String: Entry] = [:]
        for (tmp, name) in temps {
            saving.add()
            let path = Sys.join(dir, name)
            if rename(tmp, path) != 0 { throw ToolError(.ioError, "cannot replace \(path): \(Sys.errnoString())") }
            var st = stat()
            if lstat(path, &st) == 0 { out[name] = Entry(name: name, size: Int(st.st_size), mtime: nanos(st), inode: UInt64(st.st_ino)) }
        }
        temps = []
        Sys.syncDirectory(dir)
        return out
    }

    static func remove(_ dir: String, _ names: [String]) {
        for n in names { unlink(Sys.join(dir, n)) }
        if !names.isEmpty { Sys.syncDirectory(dir) }
    }

    /// Temporary files a killed run left.
    static func removeTemporaries(_ dir: String) {
        for n in Sys.listDirectory(dir) where n.hasPrefix(".") && n.contains(".yomo-tmp-") { unlink(Sys.join(dir, n)) }
    }

    // MARK: The index

    static func indexPath(_ dataDir: String) -> String { Sys.join(dataDir, "vdir.ndjson") }

    /// The index's first line: the vdir it is for and the folder's stamp.
    static func header(_ dataDir: String) -> JSONObject? {
        guard let (bytes, _) = try? Sys.readPeerFile(indexPath(dataDir), from: 0, cap: 4096) else { return nil }
        let line = bytes.prefix { $0 != 10 }
        return try? JSON.parseObject(bytes: Array(line))
    }

    /// The folder's stamp when the index was written, if it is for `path`.
    static func savedStamp(_ dataDir: String, path: String) -> [Int64]? {
        guard let h = header(dataDir), h["path"]?.string == path, let a = h["dir"]?.array else { return nil }
        let v = a.compactMap(\.int)
        return v.count == 2 ? v : nil
    }

    /// What the index says was seen in `path` (empty for another vdir).
    static func load(_ dataDir: String, path: String) throws(ToolError) -> [String: YomoVdir.Seen] {
        guard let bytes = try Sys.readFile(indexPath(dataDir)) else { return [:] }
        var out: [String: YomoVdir.Seen] = [:]
        var first = true
        for line in bytes.split(separator: 10) {
            guard let o = try? JSON.parseObject(bytes: Array(line)) else { continue }
            if first {
                first = false
                if o["path"]?.string != path { return [:] }
                continue
            }
            if let s = YomoVdir.Seen(o) { out[s.file] = s }
        }
        return out
    }

    static func save(_ dataDir: String, path: String, stamp: [Int64]?, seen: [String: YomoVdir.Seen]) throws(ToolError) {
        var out: [UInt8] = []
        let head: JSONObject = ["type": "vdir", "path": .string(path), "dir": stamp.map { .array($0.map { .int($0) }) } ?? .null]
        head.write(into: &out)
        out.append(10)
        for k in seen.keys.sorted() {
            seen[k]!.record.write(into: &out)
            out.append(10)
        }
        try Sys.writeFileAtomically(indexPath(dataDir), out)
    }
}
