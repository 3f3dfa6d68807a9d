// `pool init`, `pool reports`, `pool match` and `pool restamp`: making a
// pool folder, the pool's owner reading what members reported, the owner's
// run that tells members of a host pool their matches, and a member
// repairing their own files' stamps. Handlers only: the folders, their
// owners and modes are made in Access/HabitmatchPool.swift.
//
// Invariants: a folder that already has a pool.conf is never made over;
// reports are shown only to the pool folder's owner (or root).

extension Habitmatch {
    static func poolInit(_ ctx: Context) throws(ToolError) -> ExitCode {
        var path = ctx.operands[0]
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        if Sys.fileExists(Sys.join(path, "pool.conf")) {
            throw ToolError(.cantCreate, "\(path) is already a pool (\(Sys.join(path, "pool.conf")))")
        }
        if ctx.flag("synced") {
            if ctx.option("group") != nil { throw .usage("--group is for a host pool; a synced pool belongs to the login running the sync engine") }
            try initSyncedPool(path)
            // Who wrote what is proven by SSH keys from the start when the maker has one.
            try ctx.startSignedFolder(path, principal: me(ctx))
            ctx.out.emit(["type": "pool", "path": .string(path), "kind": "synced", "owner": .string(Sys.loginName())],
                         text: "Made the synced pool \(path): share it with a sync engine; anyone who has the folder can read all of it")
            return .ok
        }
        // A host pool: the group whose logins are the members.
        var gid = getegid()
        if let g = ctx.option("group") {
            guard let gr = getgrnam(g) else { throw .usage("--group: no group '\(g)' on this host (make one with groupadd, and add the members)") }
            gid = gr.pointee.gr_gid
        }
        let groupName = try makeHostPool(path, gid: gid)
        // Command lines (whom a member likes, what they chat) are in /proc for every login to read unless it hides them.
        if !procHidesOthers((try? Sys.readFile("/proc/self/mountinfo")).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) } ?? "") {
            Store<HabitmatchState>.warnOnce("/proc shows every login's command lines, so the other members can see whom one likes or what one chats as it runs; mount it with hidepid=invisible (mount -o remount,hidepid=invisible /proc, and in /etc/fstab)")
        }
        ctx.out.emit(["type": "pool", "path": .string(path), "kind": "host", "group": .string(groupName), "owner": .string(Sys.loginName())],
                     text: "Made the pool \(path) for the members of group \(groupName); each joins with: habitmatch --pool \(path) join --name NAME --habit HABIT")
        return .ok
    }

    /// Whether /proc, as `mountinfo` (the text of /proc/self/mountinfo)
    /// gives it, hides other logins' processes (hidepid=1, 2, noaccess or
    /// invisible).
    static func procHidesOthers(_ mountinfo: String) -> Bool {
        for line in mountinfo.split(separator: "\n") {
            let f = line.split(separator: " ")
            guard f.count > 4, f[4] == "/proc", line.contains(" - proc ") else { continue }
            return line.contains("hidepid=1") || line.contains("hidepid=2") || line.contains("hidepid=noaccess") || line.contains("hidepid=invisible")
        }
        return false
    }

    static func poolReports(_ ctx: Context) throws(ToolError) -> ExitCode {
        let p = try pool(ctx)
        guard p.owner == geteuid() || geteuid() == 0 else {
            throw ToolError(.noPermission, "only the pool's owner (\(Users.name(of: p.owner) ?? "uid \(p.owner)")) reads reports")
        }
        let s = try view(ctx)
        for r in s.reports.sorted(by: { ($0.at, $0.reporter) < ($1.at, $1.reporter) }) {
            ctx.out.emit(["type": "report", "reporter": .string(r.reporter), "user": .string(r.user), "reason": .string(r.reason),
                          "at": .string(ctx.clock.format(r.at))],
                         text: "\(ctx.clock.format(r.at))  \(Text.terminalSafe(r.reporter)) about \(Text.terminalSafe(r.user)): \(Text.terminalSafe(r.reason))")
        }
        return .ok
    }

    static func poolMatch(_ ctx: Context) throws(ToolError) -> ExitCode {
        let p = try pool(ctx)
        guard p.kind == .host else { throw .usage("pool match is for a host pool; in a synced pool every member sees two likes meet") }
        guard p.owner == geteuid() else {
            throw ToolError(.noPermission, "only the pool's owner (\(Users.name(of: p.owner) ?? "uid \(p.owner)")) runs pool match")
        }
        let due = try ownerRun(ctx, p, quiet: false)
        var counts: [String: Int] = [:]
        for n in due { counts[n.event["type"]?.string ?? "", default: 0] += 1 }
        // From cron every minute: a run that told nobody anything says nothing.
        if counts.values.allSatisfy({ $0 == 0 }) { return .ok }
        let r: JSONObject = ["type": "pool_match", "matched": JSON(counts["matched", default: 0] / 2), "ended": JSON(counts["ended", default: 0] / 2),
                             "hidden": JSON(counts["hidden", default: 0]), "shown": JSON(counts["shown", default: 0])]
        ctx.out.emit(r, text: "\(counts["matched", default: 0] / 2) new matches, \(counts["ended", default: 0] / 2) ended, \(counts["hidden", default: 0]) blocks and \(counts["shown", default: 0]) unblocks told")
        return .ok
    }

    /// A member's own changes stamped ahead of the real clock (written with
    /// a --now ahead, before such writes were refused) wait in every other
    /// member's copy until that time, and drag this member's later stamps
    /// with them: each gets a stamp of now, in the same order.
    static func poolRestamp(_ ctx: Context) throws(ToolError) -> ExitCode {
        let st = try store(ctx)
        let real = Sys.nowMillis()
        let n = try st.restampAhead(of: real + clockSkewMillis, now: real)
        // Rewritten files are new files: who may read them is set again.
        if n > 0 {
            let s = try st.read()
            do throws(ToolError) { try syncReaders(ctx, st, s) } catch {
                Store<HabitmatchState>.warnOnce("restamped, but who may read your files could not be set: \(error.message)")
            }
        }
        ctx.out.emit(["type": "restamp", "batches": JSON(n)],
                     text: n == 0 ? "Nothing of yours is stamped ahead of this computer's clock"
                         : "Restamped \(n) change(s) of yours that were stamped ahead of this computer's clock: the others see them now")
        return .ok
    }
}
