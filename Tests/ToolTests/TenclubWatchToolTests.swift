import XCTest
import TestSupport
import NudgeKit

/// `tenclub watch` on real message buses: each test starts its own
/// dbus-daemon (a session bus, and a system bus for logind), runs watch on
/// them, and sends the signals as the desktops send them — GNOME Shell's
/// ActiveChanged with gdbus, KDE's on both of its object paths with
/// dbus-send, logind's PropertiesChanged from a process that owns
/// org.freedesktop.login1 (python3's dbus) — then checks what was counted.
final class TenclubWatchToolTests: ToolTestCase {
    var daemons: [Launched] = []

    override func tearDown() {
        for d in daemons {
            d.send(SIGTERM)
            _ = d.finish(timeout: 5)
        }
        daemons = []
        super.tearDown()
    }

    /// Starts a dbus-daemon of `kind` ("session" or "system") listening in
    /// the test's folder; its address.
    func startBus(_ kind: String) throws -> String {
        let socket = tmp + "/\(kind)_bus_socket"
        let config = write("\(kind)-bus.conf", """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>\(kind)</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>

            """)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: command("dbus-daemon"))
        p.arguments = ["--config-file=\(config)", "--nofork"]
        let d = start(p)
        daemons.append(d)
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) && d.process.isRunning { usleep(10_000) }
        guard FileManager.default.fileExists(atPath: socket) else {
            throw HarnessError("dbus-daemon did not start: \(d.finish(timeout: 1).err)")
        }
        return "unix:path=\(socket)"
    }

    /// Waits until watch says it is listening (its monitors' match rules are in place).
    func waitUntilWatching(_ w: Launched) throws {
        for _ in 0..<500 {
            if let e = try? String(contentsOfFile: w.errPath, encoding: .utf8), e.contains("watching for unlocks") { return }
            if !w.process.isRunning { break }
            usleep(20_000)
        }
        let o = w.finish(timeout: 1)
        throw HarnessError("watch never started listening: exit \(o.code), \(o.err)")
    }

    /// Sends one signal with gdbus emit (as GNOME Shell's).
    func gdbusEmit(_ bus: String, _ address: String, path: String, signal: String, _ args: [String]) {
        let r = runProgram(command("gdbus"), ["emit", "--address", address, "--object-path", path, "--signal", signal] + args, timeout: 20)
        XCTAssertEqual(r.status, 0, r.err)
    }

    /// Sends one signal with dbus-send (as a script or KDE's tools would).
    func dbusSend(_ address: String, path: String, signal: String, _ args: [String]) {
        let r = runProgram(command("dbus-send"), ["--bus=\(address)", "--type=signal", path, signal] + args, timeout: 20)
        XCTAssertEqual(r.status, 0, r.err)
    }

    func records(_ w: Launched) -> [[String: Any]] {
        w.outSoFar.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func waitForRecords(_ w: Launched, _ n: Int) {
        for _ in 0..<250 where records(w).count < n { usleep(20_000) }
    }

    /// Real time passes between counted unlocks: ones less than a second apart are one.
    func pause() { usleep(1_150_000) }

    func testGnomeAndKdeUnlocksOnARealSessionBusCountOnceEach() throws {
        try require(.dbusDaemon, .dbusMonitor, .gdbus)
        let bus = try startBus("session")
        let w = launch("tenclub", ["watch"], env: ["DBUS_SESSION_BUS_ADDRESS": bus, "XDG_SESSION_ID": ""])
        try waitUntilWatching(w)
        // GNOME Shell: the shield up, then down — one unlock; a second
        // "down" with no lock between is the same unlock.
        gdbusEmit("session", bus, path: "/org/gnome/ScreenSaver", signal: "org.gnome.ScreenSaver.ActiveChanged", ["true"])
        gdbusEmit("session", bus, path: "/org/gnome/ScreenSaver", signal: "org.gnome.ScreenSaver.ActiveChanged", ["false"])
        gdbusEmit("session", bus, path: "/org/gnome/ScreenSaver", signal: "org.gnome.ScreenSaver.ActiveChanged", ["false"])
        waitForRecords(w, 1)
        pause()
        // Still unlocked more than a second later: no lock between, no new unlock.
        gdbusEmit("session", bus, path: "/org/gnome/ScreenSaver", signal: "org.gnome.ScreenSaver.ActiveChanged", ["false"])
        // KDE's ksmserver announces on both of its object paths.
        for path in ["/ScreenSaver", "/org/freedesktop/ScreenSaver"] {
            dbusSend(bus, path: path, signal: "org.freedesktop.ScreenSaver.ActiveChanged", ["boolean:true"])
        }
        for path in ["/ScreenSaver", "/org/freedesktop/ScreenSaver"] {
            dbusSend(bus, path: path, signal: "org.freedesktop.ScreenSaver.ActiveChanged", ["boolean:false"])
        }
        // Other signals, and a look-alike on another interface, count nothing.
        gdbusEmit("session", bus, path: "/org/gnome/ScreenSaver", signal: "org.gnome.ScreenSaver.WakeUpScreen", [])
        dbusSend(bus, path: "/org/gnome/ScreenSaver", signal: "org.example.ScreenSaver.ActiveChanged", ["boolean:false"])
        // A marker: one more real unlock, more than a second later. watch
        // reads the bus in order, so once its record is in, anything the
        // signals above had counted would be in before it (no sleep guesses).
        pause()
        gdbusEmit("session", bus, path: "/org/gnome/ScreenSaver", signal: "org.gnome.ScreenSaver.ActiveChanged", ["true"])
        gdbusEmit("session", bus, path: "/org/gnome/ScreenSaver", signal: "org.gnome.ScreenSaver.ActiveChanged", ["false"])
        waitForRecords(w, 3)
        let rs = records(w)
        XCTAssertEqual(rs.map { $0["source"] as? String }, ["gnome", "freedesktop", "gnome"], w.outSoFar)
        XCTAssertEqual(rs.map { $0["unlocks"] as? Int }, [1, 2, 3])
        XCTAssertEqual(rs.map { $0["counted"] as? Bool }, [true, true, true])
        XCTAssertEqual(tenclub("status").records.first?["unlocks"] as? Int, 3)

        // The bus goes away: watch says so and exits 75 for systemd to restart it.
        for d in daemons { d.send(SIGTERM) }
        let o = w.finish(timeout: 10)
        XCTAssertFalse(o.timedOut)
        XCTAssertEqual(o.code, 75)
        XCTAssertEqual(o.errLines.last, "tenclub: the session bus went away (dbus-monitor exited 0); watch again once it is back (systemd's Restart=on-failure does)")
    }

    func testLogindsLockedHintCountsForThisSessionFromLogindAlone() throws {
        try require(.dbusDaemon, .dbusMonitor, .gdbus, .pythonDbus)
        let session = try startBus("session"), system = try startBus("system")
        // logind, as far as a bus can tell: the owner of org.freedesktop.login1,
        // for the whole test (as logind is for a session: gdbus learns the
        // owner once), sending each step the test appends to a file (no pipe
        // to a child: one that died would take the runner with it) and
        // counting what it sent in another.
        let steps = write("logind.steps", ""), done = write("logind.done", "")
        let script = write("logind.py", """
            import sys, time, dbus, dbus.lowlevel
            bus = dbus.bus.BusConnection(sys.argv[1])
            bus.request_name('org.freedesktop.login1')
            open(sys.argv[3], 'a').write('ready\\n')
            seen = 0
            deadline = time.time() + 60
            while time.time() < deadline:
                lines = open(sys.argv[2]).read().split('\\n')[:-1]
                for step in lines[seen:]:
                    if step == 'quit':
                        sys.exit(0)
                    path, value = step.split('=')
                    m = dbus.lowlevel.SignalMessage(path, 'org.freedesktop.DBus.Properties', 'PropertiesChanged')
                    m.append('org.freedesktop.login1.Session', dbus.Dictionary({'IdleHint': dbus.Boolean(False), 'LockedHint': dbus.Boolean(value == 'true')}, signature='sv'),
                             dbus.Array([], signature='s'), signature='sa{sv}as')
                    bus.send_message(m)
                    bus.flush()
                    open(sys.argv[3], 'a').write('sent\\n')
                seen = len(lines)
                time.sleep(0.02)

            """)
        let logind = Process()
        logind.executableURL = URL(fileURLWithPath: Machine.current.python(importing: ["dbus"]) ?? "/usr/bin/python3")
        logind.arguments = [script, system, steps, done]
        let standIn = start(logind)
        defer {
            standIn.send(SIGTERM)
            _ = standIn.finish(timeout: 5)
        }
        var acknowledged = 0
        func waitForDone(_ n: Int) {
            for _ in 0..<500 {
                let lines = ((try? String(contentsOfFile: done, encoding: .utf8)) ?? "").split(separator: "\n").count
                if lines >= n { return }
                usleep(10_000)
            }
            XCTFail("logind's stand-in did not answer: \(standIn.finish(timeout: 1).err)")
        }
        waitForDone(1)  // ready
        acknowledged = 1
        func asLogind(_ steps: String...) {
            for step in steps {
                let h = FileHandle(forUpdatingAtPath: self.tmp + "/logind.steps")!
                h.seekToEndOfFile()
                h.write(Data((step + "\n").utf8))
                try? h.close()
                acknowledged += 1
                waitForDone(acknowledged)
                usleep(200_000)
            }
        }
        let w = launch("tenclub", ["watch"], env: ["DBUS_SESSION_BUS_ADDRESS": session, "DBUS_SYSTEM_BUS_ADDRESS": system,
                                                   "XDG_SESSION_ID": "2"])
        try waitUntilWatching(w)
        let mine = "/org/freedesktop/login1/session/_32", other = "/org/freedesktop/login1/session/_33"
        asLogind("\(mine)=true")
        // Another login's session unlocking is not ours; a signal that only
        // looks like logind's (sent by someone not owning its name) is dropped by the bus.
        asLogind("\(other)=true", "\(other)=false")
        gdbusEmit("system", system, path: mine, signal: "org.freedesktop.DBus.Properties.PropertiesChanged",
                  ["'org.freedesktop.login1.Session'", "{'LockedHint': <false>}", "@as []"])
        // Nor one sent straight to each connection on the bus, watch's monitor among them.
        let names = runProgram(command("gdbus"), ["call", "--address", system, "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                                  "--method", "org.freedesktop.DBus.ListNames"], timeout: 20).out
        let unique = names.split(separator: "'").filter { $0.hasPrefix(":1.") }.map(String.init)
        XCTAssertFalse(unique.isEmpty, names)
        for n in unique {
            _ = runProgram(command("gdbus"), ["emit", "--address", system, "--dest", n, "--object-path", mine, "--signal",
                                              "org.freedesktop.DBus.Properties.PropertiesChanged",
                                              "'org.freedesktop.login1.Session'", "{'LockedHint': <false>}", "@as []"], timeout: 20)
        }
        // No sleep and look: a lock again, ordered after them on the same
        // bus. Had any of them counted as our unlock, this lock would be a
        // new one and the unlock below a second logind record, which the
        // check of all records at the end (three, one logind) would see.
        asLogind("\(mine)=true")
        pause()
        asLogind("\(mine)=false")
        waitForRecords(w, 1)
        pause()
        // GNOME on logind: the shield and the hint both speak of one unlock.
        gdbusEmit("session", session, path: "/org/gnome/ScreenSaver", signal: "org.gnome.ScreenSaver.ActiveChanged", ["true"])
        asLogind("\(mine)=true")
        gdbusEmit("session", session, path: "/org/gnome/ScreenSaver", signal: "org.gnome.ScreenSaver.ActiveChanged", ["false"])
        pause()  // however late the second word comes
        asLogind("\(mine)=false")
        // A marker unlock (GNOME's, more than a second later): once its
        // record is in, a third from the late hint would be in before it.
        pause()
        gdbusEmit("session", session, path: "/org/gnome/ScreenSaver", signal: "org.gnome.ScreenSaver.ActiveChanged", ["true"])
        gdbusEmit("session", session, path: "/org/gnome/ScreenSaver", signal: "org.gnome.ScreenSaver.ActiveChanged", ["false"])
        waitForRecords(w, 3)
        let rs = records(w)
        XCTAssertEqual(rs.map { $0["source"] as? String }, ["logind", "gnome", "gnome"], w.outSoFar)
        XCTAssertEqual(rs.map { $0["counted"] as? Bool }, [true, true, true])
        XCTAssertEqual(tenclub("status").records.first?["unlocks"] as? Int, 3)
        w.send(SIGTERM)
        _ = w.finish(timeout: 10)
    }

    /// Another run holding the data folder's lock past its timeout: the
    /// unlock waits for it, and keeps the time it was heard.
    func testAnUnlockWaitsOutALockedDataFolderAndKeepsItsTime() throws {
        try require(.dbusDaemon, .dbusMonitor, .gdbus)
        let bus = try startBus("session")
        // Real time from before watch starts (its clock ticks on from --now) to the unlock's signal.
        let launched = Sys.nowMillis()
        let w = launch("tenclub", ["watch", "--now", "2026-11-22T09:00:00-05:00"],
                       env: ["DBUS_SESSION_BUS_ADDRESS": bus, "XDG_SESSION_ID": "", "TENCLUB_LOCK_TIMEOUT": "1"])
        try waitUntilWatching(w)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dataDir + "/lock"), "the folder is made and checked before listening")
        let holder = launchShell("exec flock '\(dataDir)/lock' sleep 3")
        // Until the holder has the lock (a try that fails says so), not a guess at how long that takes.
        for _ in 0..<250 where runProgram(command("flock"), ["-n", dataDir + "/lock", "true"], timeout: 5).status == 0 { usleep(20_000) }
        gdbusEmit("session", bus, path: "/org/gnome/ScreenSaver", signal: "org.gnome.ScreenSaver.ActiveChanged", ["true"])
        gdbusEmit("session", bus, path: "/org/gnome/ScreenSaver", signal: "org.gnome.ScreenSaver.ActiveChanged", ["false"])
        let emitted = Sys.nowMillis() - launched
        _ = holder.finish(timeout: 10)
        for _ in 0..<500 where records(w).isEmpty { usleep(20_000) }
        let r = records(w).first
        let err = (try? String(contentsOfFile: w.errPath, encoding: .utf8)) ?? ""
        XCTAssertEqual(r?["counted"] as? Bool, true, w.outSoFar + err)
        // Heard by the time the signal was sent (from watch's start, on its clock from --now); the lock was let go
        // about 3 s after that (the holder had it before the signal), and the record written then.
        let at = (r?["at"] as? String).flatMap { RFC3339.parse($0)?.instant.ms } ?? 0
        let start = RFC3339.parse("2026-11-22T09:00:00-05:00")!.instant.ms
        XCTAssertLessThan(at - start, emitted + 500, "stamped when it was heard, not when the lock was let go: \(r ?? [:])")
        w.send(SIGTERM)
        _ = w.finish(timeout: 10)
    }

    func testStoppingWatchStopsItsMonitors() throws {
        try require(.dbusDaemon, .dbusMonitor)
        let bus = try startBus("session")
        let w = launch("tenclub", ["watch", "-q"], env: ["DBUS_SESSION_BUS_ADDRESS": bus, "XDG_SESSION_ID": ""])
        // -q: no word when listening; its monitor's arrival on the bus is the sign.
        var children: [Int32] = []
        for _ in 0..<250 where children.isEmpty {
            children = childPids(of: w.pid)
            usleep(20_000)
        }
        XCTAssertEqual(children.count, 1, "one dbus-monitor for the session bus")
        w.send(SIGTERM)
        // Gone, or dead and waiting to be reaped by whoever inherited it.
        let ended = { (p: Int32) in ["gone", "Z"].contains(self.state(of: p)) }
        for _ in 0..<250 where !(children + [w.pid]).allSatisfy(ended) { usleep(20_000) }
        for c in children where !ended(c) {
            XCTFail("dbus-monitor \(c) outlived watch: \(state(of: c))")
            kill(c, SIGKILL)
        }
        let o = w.finish(timeout: 10)
        XCTAssertEqual(o.signal, SIGTERM)
        XCTAssertEqual(o.out, "")
    }

    func testWithoutItsMonitorOrWithABadSessionWatchSaysWhatItNeeds() throws {
        let none = tenclub("watch", env: ["PATH": tmp + "/empty", "XDG_SESSION_ID": ""])
        XCTAssertEqual(none.code, 78)
        XCTAssertTrue(none.err.hasPrefix("tenclub: cannot run dbus-monitor: "), none.err)
        XCTAssertTrue(none.err.hasSuffix("tenclub watch needs it (Debian and Ubuntu: dbus-bin; Fedora: dbus-tools)\n"), none.err)
        let bad = tenclub("watch", "--logind-session", "../2")
        XCTAssertEqual(bad.code, 64)
        XCTAssertEqual(bad.err, "tenclub: --logind-session must be a login session id as loginctl lists it (letters, digits, '_' and '-'), or none; got '../2'\n")
        let env = tenclub("watch", env: ["XDG_SESSION_ID": "a b"])
        XCTAssertEqual(env.code, 78)
        XCTAssertEqual(env.err, "tenclub: XDG_SESSION_ID must be a login session id as loginctl lists it (letters, digits, '_' and '-'); got 'a b'\n")
        XCTAssertEqual(tenclub("watch", "--logind-session", "self").code, 64)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dataDir + "/journal"), "nothing written")
    }

    /// A process's state letter from /proc (R, S, Z…), or "gone".
    func state(of pid: Int32) -> String {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return "gone" }
        return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init) ?? "gone"
    }

    /// The processes whose parent is `pid` (from /proc).
    func childPids(of pid: Int32) -> [Int32] {
        let procs = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return procs.compactMap(Int32.init).filter { p in
            guard let stat = try? String(contentsOfFile: "/proc/\(p)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == pid
        }
    }
}

/// `tenclub watch` run by a login that cannot write its data folder: said at
/// once, before listening, not at the first unlock (which would be lost).
final class TenclubWatchLoginTests: RealLoginsCase {
    override class var loginNames: [String] { ["ana"] }
    override class var groupPrefix: String { "ntw" }
    override class var tool: String { "tenclub" }

    func testAFolderThisLoginCannotWriteIsSaidBeforeListening() throws {
        let data = tmp + "/roots-data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let r = runAs(logins!, "ana", [bin + "/tenclub", "watch"],
                      env: ["TENCLUB_DATA_DIR": data, "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(tmp)/no-bus", "XDG_SESSION_ID": ""])
        XCTAssertEqual(r.code, 77, r.err)
        XCTAssertEqual(r.err, "tenclub: cannot write \(data) (Permission denied): watch would count nothing\n")
        XCTAssertEqual(r.out, "")
    }
}
