import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The noninterference test of a host pool's metadata (#40): a third
/// member (eve) takes in everything the OS lets her see of the pool —
/// names, types, sizes, modes, link counts, owners, the three times and the
/// ACL of every path she can reach, listed or guessed — before and after
/// another member (ana) acts, with the owner's run (cron) after each act.
/// What changed must be the same whichever act it was: a like, a pass, a
/// match, a chat, a meeting, an unmatch or a block changes for eve exactly
/// what a plain read of ana's changes; and watching (inotify) every folder
/// and every profile she may read, she sees what she sees during a read. (Bo accepts ana as a buddy before:
/// her accept makes them buddies.)
final class HabitmatchNoninterferenceTests: HabitmatchHostPoolCase {
    override class var loginNames: [String] { ["ana", "bo", "cy", "dee", "fay", "eve"] }
    /// The zone folder every command of the pool reads (`TZDIR`): a whole
    /// copy of the system's, so that what eve sees opened there is what the
    /// pool's commands opened, not what any other program on the host did
    /// (a `date` run beside the test opens the system's Etc/UTC).
    var zoneinfo = ""

    /// Copies the system's zone folder (links followed) to `zoneinfo`, and
    /// has every command read it: `TZDIR` for the zones by name, and `TZ`
    /// a zone none of the members has, so that the local zone is opened
    /// there too rather than through /etc/localtime.
    func useOwnZoneFolder() {
        zoneinfo = tmp + "/zoneinfo"
        let r = root(["/bin/sh", "-c", "cp -rL /usr/share/zoneinfo \(zoneinfo) && chmod -R a+rX \(zoneinfo)"])
        XCTAssertEqual(r.code, 0, r.err)
        poolEnv = ["TZDIR": zoneinfo, "TZ": "America/Chicago"]
    }

    /// One line per path eve can reach: `path|attributes`, and its ACL.
    func eveSees() -> [String: String] {
        let logins = (["ana", "bo", "cy", "dee", "fay", "eve"].map { name($0) } + ["root"]).joined(separator: " ")
        let fmt = "%n|%F|%s|%a|%h|%u|%g|%y|%z|%x"
        // What eve can list (find goes wherever she may), then every name
        // she could guess: a login's name in each folder, as a file, a
        // folder, or a file inside one.
        let script = """
        cd \(pool) || exit 1
        find . -mindepth 0 -print 2>/dev/null | while IFS= read -r p; do stat -c '\(fmt)' "$p" 2>/dev/null; getfacl -c -p -n "$p" 2>/dev/null | tr '\\n' ' '; echo; done
        for p in . ./journal ./private ./self ./spool ./reports ./notices ./pairs ./pool.conf; do
          stat -c '\(fmt)' "$p" 2>/dev/null && { getfacl -c -p -n "$p" 2>/dev/null | tr '\\n' ' '; echo; }
        done
        for d in journal private self spool reports notices pairs; do
          for u in \(logins); do
            for p in "./$d/$u" "./$d/$u.ndjson" "./$d/$u/$u.ndjson" "./$d/$u/root.ndjson"; do
              stat -c '\(fmt)' "$p" 2>/dev/null && { getfacl -c -p -n "$p" 2>/dev/null | tr '\\n' ' '; echo; }
              # A guessed folder of someone else's she may list: everything in it too.
              [ -d "$p" ] && [ -r "$p" ] && ! [ -O "$p" ] && find "$p" -mindepth 1 -print 2>/dev/null | while IFS= read -r q; do stat -c '\(fmt)' "$q" 2>/dev/null; getfacl -c -p -n "$q" 2>/dev/null | tr '\\n' ' '; echo; done
            done
          done
        done
        exit 0
        """
        let r = shell("eve", script)
        XCTAssertEqual(r.code, 0, r.err)
        var seen: [String: String] = [:]
        var last: String? = nil
        for line in r.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.contains("|") && line.hasPrefix(".") {
                let f = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                var path = f[0]
                if path.hasPrefix("./") { path.removeFirst(2) }
                last = path
                // name|type|size|mode|links|uid|gid|mtime|ctime|atime
                seen[path] = f.dropFirst().joined(separator: "|")
            } else if let p = last {
                seen[p, default: ""] += "|acl " + line
                last = nil
            }
        }
        return seen
    }

    /// What changed between two views: "path attribute" for each attribute
    /// of each path that differs (a path new or gone is "path exists").
    static func changes(_ a: [String: String], _ b: [String: String]) -> Set<String> {
        let names = ["type", "size", "mode", "links", "uid", "gid", "mtime", "ctime", "atime", "acl"]
        var out = Set<String>()
        for p in Set(a.keys).union(b.keys) {
            guard let x = a[p], let y = b[p] else { out.insert("\(p) exists"); continue }
            let xs = x.split(separator: "|", omittingEmptySubsequences: false)
            let ys = y.split(separator: "|", omittingEmptySubsequences: false)
            for i in 0..<max(xs.count, ys.count) where (i < xs.count ? xs[i] : "") != (i < ys.count ? ys[i] : "") {
                out.insert("\(p) \(i < names.count ? names[i] : "acl")")
            }
        }
        return out
    }

    /// Starts eve's watch (inotifywait) on every folder of the pool she may
    /// read; `stopWatching` ends it and gives each "path event" seen, with
    /// how many times.
    func startWatching() {
        let w = tmp + "/home-eve/watch"
        let logins = ["ana", "bo", "cy", "dee", "fay", "eve"].map { name($0) }.joined(separator: " ")
        let r = shell("eve", """
            rm -f \(w).events \(w).err
            dirs=$(find \(pool) -type d -readable 2>/dev/null)
            for p in \(pool) \(pool)/journal \(pool)/private \(pool)/self \(pool)/spool \(pool)/reports \(pool)/notices \(pool)/pairs; do [ -r "$p" ] && dirs="$dirs $p"; done
            # Every profile she may read, watched as a file (journal/ itself she may not list, so not watch);
            # pool.conf; and the zone files every command may open.
            for u in \(logins); do p=\(pool)/journal/$u.ndjson; [ -r "$p" ] && dirs="$dirs $p"; done
            dirs="$dirs \(pool)/pool.conf $(find \(zoneinfo) -type d 2>/dev/null | tr '\\n' ' ')"
            # (Without the descriptors it inherits: the test runner waits until every copy of one closes.)
            bash -c 'eval "exec $(seq -f "%g>&-" 3 255 | tr "\\n" " ")"; echo $$ > \(w).pid; exec inotifywait -m -e open,access,modify,attrib,close_write,close_nowrite,create,delete,moved_from,moved_to --format "%w%f|%e" "$@"' watch $dirs > \(w).events 2> \(w).err < /dev/null &
            """)
        XCTAssertEqual(r.code, 0, r.err)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !((try? String(contentsOfFile: w + ".err", encoding: .utf8)) ?? "").contains("Watches established") { usleep(20_000) }
    }

    func stopWatching() -> [String: Int] {
        let w = tmp + "/home-eve/watch"
        usleep(200_000)
        if let pid = (try? String(contentsOfFile: w + ".pid", encoding: .utf8)).flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
            kill(pid, SIGTERM)
            usleep(100_000)
        }
        var seen: [String: Int] = [:]
        for line in ((try? String(contentsOfFile: w + ".events", encoding: .utf8)) ?? "").split(separator: "\n") {
            // The profiles too: each copy opens one only after it changed.
            seen[line.replacingOccurrences(of: pool, with: ""), default: 0] += 1
        }
        return seen
    }

    func testWhatAMemberDoesLooksTheSameToAThirdWhateverItWas() throws {
        try require(.inotifywait)
        guard logins != nil else { return }
        // Each in a zone of their own: which zone files a command opens must not tell either.
        let zones = ["ana": "Europe/Paris", "bo": "Asia/Kolkata", "cy": "America/Sao_Paulo", "dee": "Australia/Sydney", "fay": "Pacific/Auckland",
                     "eve": "America/New_York"]
        useOwnZoneFolder()
        for u in ["ana", "bo", "cy", "dee", "fay", "eve"] { join(u, timezone: zones[u]!) }
        XCTAssertEqual(hm("bo", "like", name("ana")).code, 0)
        XCTAssertEqual(hm("cy", "like", name("ana")).code, 0)
        ownerRun()
        for u in ["ana", "bo", "cy", "dee"] { hm(u, "remind") }
        hm("ana", "candidates")
        ownerRun()
        let acts: [(String, [String])] = [
            ("read", ["candidates"]),
            ("like", ["like", name("dee")]),
            ("pass", ["pass", name("fay")]),
            ("match", ["like", name("bo")]),
            ("chat", ["chat", name("bo"), "hello"]),
            ("meet", ["meet", name("bo"), "--at", "tomorrow 18:00"]),
            // In the other's zone: every command has it loaded ahead (a zone nobody has is refused).
            ("meet in bo's zone", ["meet", name("bo"), "--at", "tomorrow 19:00", "--tz", "Asia/Kolkata"]),
            ("buddy", ["buddy", "accept", name("bo")]),
            ("report", ["report", name("dee"), "spam"]),
            ("unmatch", ["unmatch", "-y", name("bo")]),
            ("match again", ["like", name("cy")]),
            ("block", ["block", name("cy")]),
            ("read again", ["candidates"]),
        ]
        var seenBy: [(String, Set<String>)] = []
        var watchedBy: [(String, [String: Int])] = []
        for (what, args) in acts {
            // Bo has accepted ana as a buddy (outside what is measured).
            if what == "buddy" { XCTAssertEqual(hm("bo", "buddy", "accept", name("ana")).code, 0) }
            // (Times are in nanoseconds: any that moves shows.)
            let before = eveSees()
            startWatching()
            let r = hm("ana", args)
            XCTAssertEqual(r.code, 0, "\(what): \(r.err)")
            // Then cron: the owner's run, and each member's reminders.
            ownerRun()
            for u in ["ana", "bo", "cy", "dee"] { hm(u, "remind") }
            watchedBy.append((what, stopWatching()))
            seenBy.append((what, Self.changes(before, eveSees())))
        }
        // The zones are read from the copy (so what is watched there is what the commands do):
        // the local zone and each member's, by every command of a plain read.
        for z in ["America/Chicago"] + zones.values.sorted() {
            XCTAssertGreaterThan(watchedBy[0].1["\(zoneinfo)/\(z)|OPEN"] ?? 0, 0, "a read opens \(z) in \(zoneinfo): \(watchedBy[0].1.keys.sorted())")
        }
        let reference = seenBy[0].1
        var report: [String] = []
        for (what, c) in seenBy.dropFirst() where c != reference {
            report.append("\(what): +\(c.subtracting(reference).sorted()) -\(reference.subtracting(c).sorted())")
        }
        XCTAssertEqual(report, [], "eve tells these acts apart from a read (reference: \(reference.sorted())):\n" + report.joined(separator: "\n"))
        // What she sees happen, watching every folder she may read.
        let watched = watchedBy[0].1
        var told: [String] = []
        for (what, w) in watchedBy.dropFirst() where w != watched {
            let keys = Set(w.keys).union(watched.keys).sorted().filter { w[$0] != watched[$0] }
            told.append("\(what): " + keys.map { "\($0) \(watched[$0] ?? 0)→\(w[$0] ?? 0)" }.joined(separator: ", "))
        }
        XCTAssertEqual(told, [], "watching, eve tells these acts apart from a read (\(watched.count) kinds of event in a read):\n" + told.joined(separator: "\n"))
    }
}
