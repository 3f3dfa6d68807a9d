import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Real logins for one test, made and removed by it: the one way tests act
/// as other users (family members, pool members, a stranger). Root only:
/// call `try require(.root)` first.
///
/// With a group, every login is made in it (`groupadd`, `useradd -M -N -g`);
/// without one, in the system's default group. Each login gets a home and a
/// data folder of its own under `base` (0700, owned by it). Commands run as a
/// login through `setpriv` with its uid and the group (no other groups), as
/// a login shell would give them. `remove()` deletes the logins and the group.
public final class RealLogins {
    public let group: String?
    public let base: String
    /// Short name → login name ("mum" → "mum1a2b3c").
    public private(set) var logins: [String: String] = [:]
    public private(set) var problems: [String] = []

    /// Makes `names` (short names) as logins ending in a random suffix.
    public init(_ names: [String], base: String, groupPrefix: String? = nil) {
        let suffix = String(UUID().uuidString.prefix(6)).lowercased()
        self.base = base
        group = groupPrefix.map { $0 + suffix }
        if let g = group { check(runProgram(Self.tool("groupadd"), [g]), "groupadd \(g)") }
        for n in names {
            let login = n + suffix
            var args = ["-M", "-N", "-s", "/usr/sbin/nologin"]
            if let g = group { args += ["-g", g] }
            check(runProgram(Self.tool("useradd"), args + [login]), "useradd \(login)")
            logins[n] = login
            for d in [home(n), data(n)] {
                try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
                _ = chown(d, uid(n), gid(n))
                _ = chmod(d, 0o700)
            }
        }
    }

    static func tool(_ name: String) -> String {
        Machine.current.find(name) ?? "/usr/sbin/" + name
    }

    func check(_ r: ProgramResult, _ what: String) {
        if r.status != 0 { problems.append("\(what) \(r.summary): \(r.err)") }
    }

    public func login(_ n: String) -> String { logins[n]! }
    public func home(_ n: String) -> String { base + "/home-\(n)" }
    public func data(_ n: String) -> String { base + "/data-\(n)" }
    public func uid(_ n: String) -> uid_t { getpwnam(login(n)).map { $0.pointee.pw_uid } ?? 0 }
    public func gid(_ n: String) -> gid_t { getpwnam(login(n)).map { $0.pointee.pw_gid } ?? 0 }

    /// The argv prefix that runs what follows as `n`.
    public func asLogin(_ n: String) -> [String] {
        [Self.tool("setpriv"), "--reuid=\(uid(n))", "--regid=\(gid(n))", "--clear-groups", "--"]
    }

    /// Removes the logins (files they made stay with the test's folder) and the group.
    public func remove() {
        for (_, login) in logins.sorted(by: { $0.key < $1.key }) { check(runProgram(Self.tool("userdel"), [login]), "userdel \(login)") }
        if let g = group { check(runProgram(Self.tool("groupdel"), [g]), "groupdel \(g)") }
        logins = [:]
    }
}
