#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A private copy of the journals in folders other logins may watch
// (StoreOptions.mirroredFolders: a host pool's profiles), so that how often
// this copy opens a peer's file follows only that file's changes, never
// what this copy folds or why: a file is opened once after each change of
// it (its inode, size, change and modification times as lstat gives them,
// which nobody can watch), read whole, and kept in DATA/mirror; every read
// after that, in this command or a later one, reads the copy.
//
//   DATA/mirror/SCOPE+NAME   nudge-mirror v1 DEV INO SIZE MTIME_NS CTIME_NS UID LENGTH\n, then the
//                            file's first LENGTH bytes (as far as a peer's folder quota)
//
// Invariants: a copy is believed only while lstat of the file gives the
// key it was written with (the kernel moves the change time on every write,
// rename in place or chmod, so no writer can keep a key while changing the
// bytes); a peer's file is kept only as far as its folder's quota (past it
// nothing is read), and a copy's own journal past `mirrorMaxBytes` is read
// in place as before.

extension Store {
    /// The largest file kept in the mirror (a profile's quota is 1 MiB).
    static var mirrorMaxBytes: Int { 4 << 20 }

    var mirrorDir: String { Sys.join(dir, "mirror") }

    /// Whether `rel` is a journal read through the mirror: a peer's, and
    /// this copy's own too (a copy that folds everything again must not
    /// open its own profile more often for it).
    func mirrored(_ rel: String) -> Bool {
        !options.mirroredFolders.isEmpty && options.mirroredFolders.contains(Store.scopeOf(rel))
    }

    static func mirrorKey(_ st: stat) -> String {
        "\(st.st_dev) \(st.st_ino) \(st.st_size) \(Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)) "
            + "\(Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)) \(st.st_uid)"
    }

    /// Journal `e` from `from`, at most `cap` bytes, and its size: as
    /// `Sys.readPeerFile` gives it, through the mirror for a mirrored one.
    /// The mirror keeps a peer's file only as far as its folder's quota
    /// (what is never read is never kept).
    func peerRead(_ e: DirEntry, from: Int, cap: Int) throws(ToolError) -> (bytes: [UInt8], size: Int)? {
        let path = Sys.join(journalDir, e.name)
        guard mirrored(e.name) else { return try Sys.readPeerFile(path, from: from, cap: cap, owner: e.uid) }
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        guard (st.st_mode & S_IFMT) == S_IFREG, UInt32(st.st_uid) == e.uid else { return nil }
        let keep = isOwn(e.name) ? Store.mirrorMaxBytes : min(quota(of: e.name) ?? Store.mirrorMaxBytes, Store.mirrorMaxBytes)
        if isOwn(e.name) && Int(st.st_size) > keep { return try Sys.readPeerFile(path, from: from, cap: cap, owner: e.uid) }
        let copy = Sys.join(mirrorDir, e.name.replacingAll("/", "+"))
        if let held = Store.readMirror(copy), held.key == Store.mirrorKey(st) {
            return (Store.slice(held.body, from: from, cap: cap), Int(st.st_size))
        }
        // Opened once for this version: read as far as is kept, and kept.
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT || errno == ELOOP { return nil }
            return try Sys.readPeerFile(path, from: from, cap: cap, owner: e.uid)  // (says why, as before)
        }
        defer { close(fd) }
        var now = stat()
        guard fstat(fd, &now) == 0, (now.st_mode & S_IFMT) == S_IFREG, UInt32(now.st_uid) == e.uid else { return nil }
        let size = Int(now.st_size)
        let want = min(size, keep)
        let body = try Sys.readAt(fd: fd, offset: 0, count: want, path: path)
        if body.count == want { Store.writeMirror(copy, key: Store.mirrorKey(now), body, in: mirrorDir) }
        return (Store.slice(body, from: from, cap: cap), size)
    }

    /// A mirror file, replaced whole by rename (a cache: no fsync; one cut
    /// short by a crash fails its length check and is read again).
    static func writeMirror(_ path: String, key: String, _ body: [UInt8], in folder: String) {
        if !Sys.isDirectory(folder) { try? Sys.makeDirectories(folder, mode: 0o700) }
        let tmp = path + ".tmp-\(getpid())"
        unlink(tmp)
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let ok = Sys.writeAll(fd: fd, Array("nudge-mirror v1 \(key) \(body.count)\n".utf8) + body)
        close(fd)
        if !ok || rename(tmp, path) != 0 { unlink(tmp) }
    }

    static func slice<C: Collection>(_ body: C, from: Int, cap: Int) -> [UInt8] where C.Element == UInt8 {
        guard from >= 0, cap > 0 else { return [] }
        return Array(body.dropFirst(from).prefix(cap))
    }

    /// A mirror file's key and the bytes it holds; nil if it is not one, or
    /// not whole.
    static func readMirror(_ path: String) -> (key: String, body: ArraySlice<UInt8>)? {
        guard let bytes = (try? Sys.readFile(path)) ?? nil, let nl = bytes.firstIndex(of: 0x0A), nl < 200 else { return nil }
        let head = String(decoding: bytes[..<nl], as: UTF8.self)
        let prefix = "nudge-mirror v1 "
        guard head.hasPrefix(prefix), let space = head.lastIndex(of: " "), let length = Int(head[head.index(after: space)...]),
              length == bytes.count - nl - 1 else { return nil }
        return (String(head[head.index(head.startIndex, offsetBy: prefix.count)..<space]), bytes[(nl + 1)...])
    }
}
