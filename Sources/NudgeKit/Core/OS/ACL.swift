// POSIX access control lists, for files that exactly some people may read:
// a chat between two members of a pool is readable by its writer and the
// other member, and by nobody else on the host, enforced by the kernel.
//
// The list is written as the `system.posix_acl_access` extended attribute
// (Linux's binary format, little-endian): a version word, then entries of
// (tag, permissions, id) in the order the kernel requires: the owner, named
// users by uid, the owning group, the mask, others.

public enum ACL {
    #if os(Linux)
    // <sys/xattr.h> is not part of the Glibc module: look the calls up once.
    typealias SetX = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32
    typealias GetX = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
    static let fsetxattr: SetX? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fsetxattr").map { unsafeBitCast($0, to: SetX.self) }
    static let fgetxattr: GetX? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fgetxattr").map { unsafeBitCast($0, to: GetX.self) }
    #endif

    static let userObj: UInt16 = 0x01, user: UInt16 = 0x02, groupObj: UInt16 = 0x04
    static let mask: UInt16 = 0x10, other: UInt16 = 0x20
    static let undefined: UInt32 = 0xFFFF_FFFF

    /// The attribute bytes for: the owner reads and writes, `readers` read,
    /// the group and everyone else nothing.
    public static func readersBlob(_ readers: [UInt32]) -> [UInt8] {
        var out: [UInt8] = [2, 0, 0, 0]
        func entry(_ tag: UInt16, _ perm: UInt16, _ id: UInt32) {
            out += [UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8(perm & 0xFF), UInt8(perm >> 8),
                    UInt8(id & 0xFF), UInt8((id >> 8) & 0xFF), UInt8((id >> 16) & 0xFF), UInt8(id >> 24)]
        }
        entry(userObj, 6, undefined)
        let uids = Array(Set(readers)).sorted()
        for u in uids { entry(user, 4, u) }
        entry(groupObj, 0, undefined)
        if !uids.isEmpty { entry(mask, 4, undefined) }
        entry(other, 0, undefined)
        return out
    }

    /// The uids named in an ACL attribute (the readers), nil when unreadable.
    public static func namedUsers(_ blob: [UInt8]) -> [UInt32]? {
        guard blob.count >= 4, blob[0] == 2, (blob.count - 4) % 8 == 0 else { return nil }
        var uids: [UInt32] = []
        var i = 4
        while i < blob.count {
            let tag = UInt16(blob[i]) | UInt16(blob[i + 1]) << 8
            let id = UInt32(blob[i + 4]) | UInt32(blob[i + 5]) << 8 | UInt32(blob[i + 6]) << 16 | UInt32(blob[i + 7]) << 24
            if tag == user { uids.append(id) }
            i += 8
        }
        return uids
    }

    /// Makes an open file readable by its owner and `readers` only.
    public static func setReaders(fd: Int32, path: String, _ readers: [UInt32]) throws(ToolError) {
        #if os(Linux)
        let blob = readersBlob(readers)
        guard let set = fsetxattr else { throw ToolError(.ioError, "cannot share \(path) with one person: the C library has no fsetxattr") }
        let r = blob.withUnsafeBytes { set(fd, "system.posix_acl_access", $0.baseAddress, $0.count, 0) }
        if r != 0 {
            let e = errno
            if e == EOPNOTSUPP {
                throw ToolError(.ioError, "cannot share \(path) with one person: this file system has no POSIX ACLs (mount it with acl, or keep the pool on ext4, xfs, btrfs or tmpfs)")
            }
            throw Sys.accessError(path, e, verb: "set who may read")
        }
        #else
        throw ToolError(.ioError, "cannot share \(path) with one person: POSIX ACLs are supported on Linux only")
        #endif
    }

    /// The uids an open file's ACL lets read it ([] without an ACL).
    public static func readers(fd: Int32) -> [UInt32] {
        #if os(Linux)
        guard let get = fgetxattr else { return [] }
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = buf.withUnsafeMutableBytes { get(fd, "system.posix_acl_access", $0.baseAddress, $0.count) }
        guard n > 0 else { return [] }
        return namedUsers(Array(buf[0..<n])) ?? []
        #else
        return []
        #endif
    }

    /// The ACL attribute of the file or folder at `path` (not followed if a
    /// link); nil when it has none beyond its mode.
    public static func access(path: String) -> [UInt8]? {
        #if os(Linux)
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0, let get = fgetxattr else { return nil }
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = buf.withUnsafeMutableBytes { get(fd, "system.posix_acl_access", $0.baseAddress, $0.count) }
        return n > 0 ? Array(buf[0..<n]) : nil
        #else
        return nil
        #endif
    }

    /// Sets the readers of the file at `path` when they differ from `readers`.
    public static func ensureReaders(path: String, _ readers: [UInt32]) throws(ToolError) {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 { throw Sys.accessError(path) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == geteuid() else {
            throw ToolError(.noPermission, "refusing to change who may read \(path): it is not a regular file of your own")
        }
        if Set(ACL.readers(fd: fd)) == Set(readers) && (st.st_mode & 0o077) == (readers.isEmpty ? 0 : 0o040) { return }
        try setReaders(fd: fd, path: path, readers)
    }

    /// An ACL attribute: the owner `ownerPerm`, each named uid its
    /// permission, the owning group `groupPerm`, others `otherPerm`
    /// (permissions as rwx bits, 0 to 7).
    public static func blob(owner ownerPerm: UInt16, users: [(UInt32, UInt16)], group groupPerm: UInt16, other otherPerm: UInt16) -> [UInt8] {
        var out: [UInt8] = [2, 0, 0, 0]
        func entry(_ tag: UInt16, _ perm: UInt16, _ id: UInt32) {
            out += [UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8(perm & 0xFF), UInt8(perm >> 8),
                    UInt8(id & 0xFF), UInt8((id >> 8) & 0xFF), UInt8((id >> 16) & 0xFF), UInt8(id >> 24)]
        }
        entry(userObj, ownerPerm, undefined)
        var seen = Set<UInt32>()
        var mask = groupPerm
        for (u, p) in users.sorted(by: { $0.0 < $1.0 }) where seen.insert(u).inserted {
            entry(user, p, u)
            mask |= p
        }
        entry(groupObj, groupPerm, undefined)
        if !seen.isEmpty { entry(ACL.mask, mask, undefined) }
        entry(other, otherPerm, undefined)
        return out
    }

    /// Sets a folder's ACL (and, with `inherit`, the default ACL that files
    /// made in it start with), when it differs. Only the folder's owner (or
    /// root) may; the caller checks.
    public static func setDirectory(path: String, access: [UInt8], inherit: [UInt8]?) throws(ToolError) {
        #if os(Linux)
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 { throw Sys.accessError(path) }
        defer { close(fd) }
        guard let set = fsetxattr, let get = fgetxattr else { throw ToolError(.ioError, "cannot share \(path): the C library has no fsetxattr") }
        for (name, want) in [("system.posix_acl_access", access), ("system.posix_acl_default", inherit)] {
            guard let want = want else { continue }
            var buf = [UInt8](repeating: 0, count: 4096)
            let n = buf.withUnsafeMutableBytes { get(fd, name, $0.baseAddress, $0.count) }
            if n == want.count && Array(buf[0..<n]) == want { continue }
            let r = want.withUnsafeBytes { set(fd, name, $0.baseAddress, $0.count, 0) }
            if r != 0 {
                let e = errno
                if e == EOPNOTSUPP { throw ToolError(.ioError, "cannot share \(path): this file system has no POSIX ACLs (mount it with acl, or use ext4, xfs, btrfs or tmpfs)") }
                throw Sys.accessError(path, e, verb: "set who may use")
            }
        }
        #else
        throw ToolError(.ioError, "cannot share \(path): POSIX ACLs are supported on Linux only")
        #endif
    }
}
