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

    /// Kills every process running as `uid` (never root's) and waits, up to
    /// ten seconds, until /proc shows none, a zombie included.
    static func endProcesses(of uid: uid_t) {
        guard uid != 0 else { return }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let pids = processes(of: uid)
            if pids.isEmpty { return }
            for p in pids { kill(p, SIGKILL) }
            usleep(20_000)
        }
    }

    /// The processes whose real, effective, saved or file-system uid is `uid`
    /// (the "Uid:" line of /proc/PID/status, as userdel reads it).
    static func processes(of uid: uid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { e -> pid_t? in
            guard let pid = pid_t(e), pid > 1,
                  let status = try? String(contentsOfFile: "/proc/\(e)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Uid:") }) else { return nil }
            let ids = line.dropFirst(4).split(whereSeparator: { $0 == "\t" || $0 == " " }).compactMap { uid_t($0) }
            return ids.contains(uid) ? pid : nil
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
    /// What a login still runs is ended first: userdel refuses a login in
    /// use, and a program a test started as it, which the tool under test
    /// has just ended, may still be exiting (or not yet reaped) on a busy
    /// machine.
    public func remove() {
        for (_, login) in logins.sorted(by: { $0.key < $1.key }) {
            if let pw = getpwnam(login), pw.pointee.pw_uid != 0 { Self.endProcesses(of: pw.pointee.pw_uid) }
            check(runProgram(Self.tool("userdel"), [login]), "userdel \(login)")
        }
        if let g = group { check(runProgram(Self.tool("groupdel"), [g]), "groupdel \(g)") }
        logins = [:]
    }
}
