// `tenclub watch`: counts unlocks as the desktop announces them on D-Bus,
// for GNOME, KDE and the others where no lock-screen hook applies. No D-Bus
// library: dbus-monitor runs as a child on the session bus, and gdbus
// monitor on the system bus for logind, and their lines are read as they come
// (Core/OS/Follow.swift); the rules of what counts are in
// Rules/LockSignals.swift.

extension Tenclub {
    /// The status watch ends with when a bus or its monitor goes away: a
    /// temporary failure, for systemd (Restart=on-failure) or a loop to
    /// start it again.
    static let busGone = ExitCode.tempFail

    static func watch(_ ctx: Context) throws(ToolError) -> ExitCode {
        var raw = "none"
        if let o = ctx.option("logind-session") {
            raw = o
            if raw != "none", !isSessionID(raw) {
                throw .usage("--logind-session must be a login session id as loginctl lists it (letters, digits, '_' and '-'), or none; got '\(raw)'")
            }
        } else if let e = Sys.env("XDG_SESSION_ID"), !e.isEmpty {
            guard isSessionID(e), e != "self", e != "auto" else {
                throw ToolError(.config, "XDG_SESSION_ID must be a login session id as loginctl lists it (letters, digits, '_' and '-'); got '\(e)'")
            }
            raw = e
        }
        // logind's names for "the caller's session" have no object of their
        // own that signals: it would never hear a thing.
        if raw == "self" || raw == "auto" {
            throw .usage("'\(raw)' is logind's name for the caller's session, which sends no signals: give its id as loginctl lists it")
        }
        let sessionPath = raw == "none" ? nil : logindSessionPath(raw)
        let monitor = "dbus-monitor"
        // The clock keeps ticking from --now when pinned.
        let start = Sys.monotonicNanos(), startMs = Sys.nowMillis()
        let startInstant = ctx.pinned ? ctx.now : Instant(ms: startMs)
        func now() -> Instant { ctx.pinned ? Instant(ms: ctx.now.ms + Int64((Sys.monotonicNanos() - start) / 1_000_000)) : ctx.current }

        var argvs = [[monitor, "--session"] + sessionBusRules]
        var buses = ["session"]
        if let p = sessionPath {
            argvs.append(["gdbus"] + systemBusArguments(sessionPath: p))
            buses.append("system")
        }
        var children: [Followed] = []
        for a in argvs {
            do {
                children.append(try Followed(a))
            } catch {
                for c in children { _ = c.stop() }
                let package = a[0] == monitor ? "Debian and Ubuntu: dbus-bin; Fedora: dbus-tools" : "Debian and Ubuntu: libglib2.0-bin; Fedora: glib2"
                throw ToolError(.config, "\(error.message): tenclub watch needs it (\(package))")
            }
        }
        // A data folder this login cannot write would count nothing: said
        // now, not at the first unlock. (A write that records nothing: the
        // folder and its lock are made and opened as for an unlock.)
        do throws(ToolError) {
            if Sys.isDirectory(ctx.dataDir), access(ctx.dataDir, W_OK) != 0 {
                throw ToolError(.noPermission, "cannot write \(ctx.dataDir) (\(Sys.errnoString())): watch would count nothing")
            }
            try store(ctx).write(at: ctx.now, zone: ctx.zone) { (_) throws(ToolError) in }
        } catch {
            for c in children { _ = c.stop() }
            throw error
        }
        var readers = children.indices.map { _ in MonitorReader() }
        var heardFrom = Set<Int>()
        var tracker = LockTracker()
        let end = try Follow.lines(children) { (i, line) throws(ToolError) in
            // dbus-monitor's first line comes once its match rules are in
            // place: from then on nothing is missed.
            if heardFrom.insert(i).inserted, heardFrom.count == children.count {
                let logind = raw == "none" ? "" : " and logind's session \(raw)"
                ctx.note("watching for unlocks: the session bus (GNOME, KDE, Cinnamon, MATE, Xfce)\(logind)")
            }
            let heard = i == 0 ? readers[i].feed(line)
                : lockedHint(gdbusLine: line, sessionPath: sessionPath ?? "").map { LockSignal(.logind, locked: $0) }
            guard let signal = heard, tracker.heard(signal) else { return }
            // When the monitor heard it, not when this run got to it (a
            // locked data folder or a backlog delays the reading, not the unlock).
            let t = unlockInstant(signal, startMs: startMs, startInstant: startInstant, realNowMs: Sys.nowMillis(), fallback: now())
            // A data folder locked by another run past the lock's timeout:
            // the unlock waits (its time kept), up to five minutes.
            var waited = 0
            var recorded: (JSONObject, String)? = nil
            while recorded == nil {
                do throws(ToolError) {
                    recorded = try recordUnlock(ctx, at: t, now: t)
                } catch {
                    guard error.code == .tempFail && waited < 300 else { throw error }
                    Sys.sleepMillis(1000)
                    waited += 1
                }
            }
            guard let (r, text) = recorded else { return }
            var record = r
            record["source"] = .string(signal.source.rawValue)
            ctx.out.emit(record, text: text)
            ctx.out.flush()
        }
        let bus = buses[children.firstIndex { $0 === end.child } ?? 0]
        let said = end.child.lastSaid.map { ": \($0)" } ?? ""
        throw ToolError(busGone, "the \(bus) bus went away (\(end.child.name) \(describe(end.ending))\(said)); watch again once it is back (systemd's Restart=on-failure does)")
    }

    /// "exited 1", "was killed by SIGKILL".
    static func describe(_ e: Subprocess.Ending) -> String {
        switch e {
        case .exited(let s): return "exited \(s)"
        case .signaled(let s): return "was killed by \(Subprocess.signalName(s) ?? "signal \(s)")"
        case .timedOut: return "timed out"
        }
    }
}
