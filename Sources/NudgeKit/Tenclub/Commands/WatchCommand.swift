// `tenclub watch`: counts unlocks as the desktop announces them on D-Bus,
// for GNOME, KDE and the others where no lock-screen hook applies. No D-Bus
// library: dbus-monitor runs as a child (one on the session bus, one on the
// system bus for logind) and its lines are read as they come
// (Core/OS/Follow.swift); the rules of what counts are in
// Rules/LockSignals.swift.

extension Tenclub {
    /// The status watch ends with when a bus or its monitor goes away: a
    /// temporary failure, for systemd (Restart=on-failure) or a loop to
    /// start it again.
    static let busGone = ExitCode.tempFail

    static func watch(_ ctx: Context) throws(ToolError) -> ExitCode {
        let raw = ctx.option("logind-session") ?? Sys.env("XDG_SESSION_ID").flatMap { $0.isEmpty ? nil : $0 } ?? "none"
        var sessionPath: String? = nil
        if raw != "none" {
            guard isSessionID(raw) else {
                throw .usage("--logind-session must be a login session id as loginctl lists it (letters, digits, '_' and '-'), or none; got '\(raw)'")
            }
            sessionPath = logindSessionPath(raw)
        }
        let monitor = "dbus-monitor"
        // The clock keeps ticking from --now when pinned.
        let start = Sys.monotonicNanos()
        func now() -> Instant { ctx.pinned ? Instant(ms: ctx.now.ms + Int64((Sys.monotonicNanos() - start) / 1_000_000)) : ctx.current }

        var argvs = [[monitor, "--session"] + sessionBusRules]
        var buses = ["session"]
        if let p = sessionPath {
            argvs.append([monitor, "--system", systemBusRule(sessionPath: p)])
            buses.append("system")
        }
        var children: [Followed] = []
        for a in argvs {
            do {
                children.append(try Followed(a))
            } catch {
                for c in children { _ = c.stop() }
                throw ToolError(.config, "cannot run \(monitor) (\(error.message)): tenclub watch needs it (Debian and Ubuntu: dbus-bin; Fedora: dbus-tools)")
            }
        }
        var readers = children.indices.map { _ in MonitorReader(sessionPath: sessionPath) }
        var heardFrom = Set<Int>()
        var tracker = LockTracker()
        let end = try Follow.lines(children) { (i, line) throws(ToolError) in
            // dbus-monitor's first line comes once its match rules are in
            // place: from then on nothing is missed.
            if heardFrom.insert(i).inserted, heardFrom.count == children.count {
                let logind = raw == "none" ? "" : " and logind's session \(raw)"
                ctx.note("watching for unlocks: the session bus (GNOME, KDE, Cinnamon, MATE, Xfce)\(logind)")
            }
            guard let signal = readers[i].feed(line), tracker.heard(signal) else { return }
            let t = now()
            let (r, text) = try recordUnlock(ctx, at: t, now: t)
            var record = r
            record["source"] = .string(signal.source.rawValue)
            ctx.out.emit(record, text: text)
            ctx.out.flush()
        }
        let bus = buses[children.firstIndex { $0 === end.child } ?? 0]
        let said = end.child.lastSaid.map { ": \($0)" } ?? ""
        throw ToolError(busGone, "the \(bus) bus went away (\(monitor) \(describe(end.ending))\(said)); watch again once it is back (systemd's Restart=on-failure does)")
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
