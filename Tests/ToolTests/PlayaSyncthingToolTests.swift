import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// playa on two devices, a laptop and a phone (and, in one test, a tablet),
/// whose sync folders real Syncthing keeps in step (Debian's `syncthing`): two instances on
/// 127.0.0.1, each with its own configuration and home, discovery, relays,
/// NAT, global announce and usage reporting off, the GUI (the REST API that
/// asks for a rescan) on loopback ports, sharing playa's sync folder.
///
/// Both devices draw the day; the laptop runs `due` first and notifies, the
/// phone's `due` is refused naming it; at noon the phone takes the role over
/// (`--take-over`) and notifies the rest, the laptop's `due` now refused.
/// Every slot is notified exactly once across both devices, the two draws
/// are identical, and at the end both show every event notified. Every wait
/// for Syncthing is bounded (20 seconds; a copy usually takes one or two).
final class PlayaSyncthingToolTests: ToolTestCase {
    let day = "2026-11-23"
    var names = ["laptop", "phone"]
    var instances: [Launched] = []

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    override func tearDown() {
        for i in instances where i.process.isRunning {
            kill(i.pid, SIGTERM)
            i.process.waitUntilExit()
        }
        super.tearDown()
    }

    func folder(_ d: Int) -> String { tmp + "/\(names[d])-sync" }

    @discardableResult
    func playa(_ d: Int, _ at: String, _ args: String...) -> RunResult {
        run("playa", args, env: ["PLAYA_DATA_DIR": tmp + "/\(names[d])-data", "PLAYA_SYNC_DIR": folder(d), "PLAYA_ACTOR": names[d],
                                 "PLAYA_NOW": "\(day)T\(at):00-05:00"])
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        a.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return Int(UInt16(bigEndian: a.sin_port))
    }

    /// Waits until `done`, polling, at most `seconds`; whether it came.
    func wait(_ seconds: Double, _ done: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if done() { return true }
            usleep(100_000)
        }
        return done()
    }

    /// The journals in a sync folder (Syncthing's own files and temporaries start with a dot).
    func journals(_ d: Int) -> [String: Data] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder(d))) ?? []
        var out: [String: Data] = [:]
        for n in names where !n.hasPrefix(".") { out[n] = FileManager.default.contents(atPath: folder(d) + "/" + n) }
        return out
    }

    var gui: [(port: Int, key: String)] = []

    /// Asks both instances to rescan the folder now, then waits until both
    /// folders hold the same journals.
    func synced(_ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for g in gui {
            guard let curl = Machine.current.find("curl") else { break }
            _ = runProgram(curl, ["-fsS", "-X", "POST", "-H", "X-API-Key: \(g.key)", "http://127.0.0.1:\(g.port)/rest/db/scan?folder=playa"],
                           timeout: 5)
        }
        let ok = wait(20) { let a = journals(0); return !a.isEmpty && (1..<names.count).allSatisfy { journals($0) == a } }
        XCTAssertTrue(ok, "Syncthing did not bring the folders in step within 20 s (\(what)): \((0..<names.count).map { journals($0).mapValues(\.count) })",
                      file: file, line: line)
    }

    /// Starts one Syncthing instance per device, all sharing the folder
    /// "playa" on loopback.
    func startSyncthing() throws {
        try require(.syncthing)
        let syncthing = command("syncthing")
        let fm = FileManager.default
        // Keys and device ids.
        var ids: [String] = []
        for n in names {
            let home = tmp + "/st-\(n)"
            let g = runProgram(syncthing, ["generate", "--home=\(home)", "--no-default-folder"], env: ["HOME": tmp + "/home-\(n)"], timeout: 60)
            XCTAssertEqual(g.status, 0, g.err)
            let idLine = (g.out + g.err).split(separator: "\n").first { $0.contains("Device ID: ") }
            guard let l = idLine, let r = l.range(of: "Device ID: ") else { return XCTFail("no device id from syncthing generate: \(g.out) \(g.err)") }
            ids.append(String(l[r.upperBound...]).trimmingCharacters(in: .whitespaces))
        }
        let listen = names.map { _ in freePort() }
        gui = names.map { (freePort(), "nudge-test-key-\($0)") }
        for d in 0..<names.count {
            try fm.createDirectory(atPath: folder(d) + "/.stfolder", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // Only the first of two dials the other: when both dial at once,
            // Syncthing 1.19 may reset both connections and wait before
            // trying again.
            let devices = (0..<names.count).map { k in
                let address = k < d ? "dynamic" : "tcp://127.0.0.1:\(listen[k])"
                return "<device id=\"\(ids[k])\" name=\"\(names[k])\"><address>\(address)</address></device>"
            }.joined(separator: "\n")
            let config = """
                <configuration version="36">
                <folder id="playa" label="playa" path="\(folder(d))" type="sendreceive" rescanIntervalS="2" fsWatcherEnabled="true" fsWatcherDelayS="1">
                \(ids.map { "<device id=\"\($0)\"></device>" }.joined())
                </folder>
                \(devices)
                <gui enabled="true" tls="false"><address>127.0.0.1:\(gui[d].port)</address><apikey>\(gui[d].key)</apikey></gui>
                <options>
                <listenAddress>tcp://127.0.0.1:\(listen[d])</listenAddress>
                <globalAnnounceEnabled>false</globalAnnounceEnabled>
                <localAnnounceEnabled>false</localAnnounceEnabled>
                <relaysEnabled>false</relaysEnabled>
                <natEnabled>false</natEnabled>
                <urAccepted>-1</urAccepted>
                <crashReportingEnabled>false</crashReportingEnabled>
                <startBrowser>false</startBrowser>
                <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
                <reconnectionIntervalS>1</reconnectionIntervalS>
                </options>
                </configuration>
                """
            try config.write(toFile: tmp + "/st-\(names[d])/config.xml", atomically: true, encoding: .utf8)
        }
        for (d, n) in names.enumerated() {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: syncthing)
            p.arguments = ["serve", "--home=\(tmp)/st-\(n)", "--no-browser", "--no-restart", "--no-upgrade", "--logfile=\(tmp)/st-\(n).log"]
            p.environment = ["HOME": tmp + "/home-\(n)", "PATH": "/usr/bin:/bin", "STNOUPGRADE": "1", "STNODEFAULTFOLDER": "1"]
            let out = tmp + "/st-\(n).out"
            _ = fm.createFile(atPath: out, contents: nil)
            p.standardOutput = FileHandle(forWritingAtPath: out)
            p.standardError = FileHandle(forWritingAtPath: out)
            try p.run()
            instances.append(Launched(process: p, outPath: out, errPath: out))
            _ = d
        }
    }

    /// Pauses or resumes every device in every instance (devices offline),
    /// waiting for each instance's API to answer.
    func setPaused(_ paused: Bool) {
        guard let curl = Machine.current.find("curl") else { return XCTFail("no curl") }
        for g in gui {
            let ok = wait(20) {
                runProgram(curl, ["-fsS", "-X", "POST", "-H", "X-API-Key: \(g.key)", "http://127.0.0.1:\(g.port)/rest/system/\(paused ? "pause" : "resume")"],
                           timeout: 5).status == 0
            }
            XCTAssertTrue(ok, "Syncthing on port \(g.port) did not \(paused ? "pause" : "resume")")
        }
    }

    /// Three devices over real Syncthing, offline from each other when each
    /// runs its first `due` in the same minute: each takes the role, none
    /// notifies while it settles, and once the copies meet only the first
    /// (by stamp) notifies: the 09:03 message goes out once, not three times.
    func testThreeDevicesOverSyncthingNotifyTheFirstMessageOnce() throws {
        names = ["laptop", "phone", "tablet"]
        try startSyncthing()
        let log = tmp + "/notified.log"
        let notify = { (d: Int) in "echo \"$PLAYA_ID \(self.names[d])\" >> \(log)" }
        XCTAssertEqual(playa(0, "08:00", "recipient", "add", "Ana", "--platform", "whatsapp", "--phone", "+14155550132").code, 0)
        playa(0, "08:00", "message", "add", "Ana", "Coffee this week?")
        playa(0, "08:00", "schedule", "Ana", "--fixed", "09:03")
        synced("the laptop's setup")
        setPaused(true)
        for d in 0..<3 {
            let r = playa(d, "09:00", "due", "--command", notify(d))
            XCTAssertEqual(r.code, 0, "\(names[d]): \(r.err)")
        }
        for d in 0..<3 {
            let r = playa(d, "09:03", "due", "--command", notify(d))
            XCTAssertEqual(r.code, 0, "\(names[d]): \(r.err)")
            XCTAssertTrue(r.err.contains("it notifies from"), "\(names[d]) settles: \(r.err)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: log), "nobody notified while the role settled")
        setPaused(false)
        synced("the three devices' roles")
        var refused = 0
        for d in 0..<3 {
            let r = playa(d, "09:06", "due", "--command", notify(d))
            if r.code == 77 { refused += 1 } else { XCTAssertEqual(r.code, 0, "\(names[d]): \(r.err)") }
        }
        XCTAssertEqual(refused, 2, "two devices know they are not the notifier")
        synced("after the notification")
        let lines = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n") ?? []
        XCTAssertEqual(lines.count, 1, "the 09:03 message went out once: \(lines)")
        XCTAssertEqual(lines.first?.split(separator: " ").last, "laptop", "the first by stamp")
        for d in 0..<3 {
            let q = playa(d, "09:07", "queue", "--format", "json")
            XCTAssertTrue(q.records.allSatisfy { $0["notification"] as? String == "delivered" }, "\(names[d]): \(q.out)")
        }
    }

    func testTwoDevicesOverSyncthingNotifyEverySlotOnce() throws {
        try startSyncthing()
        let log = tmp + "/notified.log"
        let notify = { (d: Int) in "echo \"$PLAYA_ID \(self.names[d])\" >> \(log)" }

        // The laptop sets playa up; the phone gets it through Syncthing.
        for (name, phone, times) in [("Ana", "+14155550132", "09:00,11:00,14:00,18:00"), ("Bo", "+442079460958", "10:00,16:30")] {
            XCTAssertEqual(playa(0, "00:00", "recipient", "add", name, "--platform", "whatsapp", "--phone", phone).code, 0)
            playa(0, "00:00", "message", "add", name, "hello \(name)")
            playa(0, "00:00", "schedule", name, "--fixed", times)
        }
        XCTAssertEqual(playa(0, "00:00", "recipient", "add", "Cy", "--platform", "whatsapp", "--phone", "+33612345678").code, 0)
        playa(0, "00:00", "message", "add", "Cy", "hi Cy")
        playa(0, "00:00", "schedule", "Cy", "--random", "3")
        synced("the laptop's setup")

        // Both draw the day on their own, the same events.
        let gPhone = playa(1, "00:01", "generate"), gLaptop = playa(0, "00:01", "generate")
        XCTAssertEqual(gPhone.code, 0, gPhone.err)
        XCTAssertEqual(gLaptop.code, 0, gLaptop.err)
        XCTAssertEqual(gPhone.records.count, 9)
        func draw(_ r: RunResult) -> [String] { r.records.map { "\($0["id"]!) \($0["time"]!) \($0["message"]!)" }.sorted() }
        XCTAssertEqual(draw(gPhone), draw(gLaptop), "the two devices draw the same events")
        // The laptop runs due first and so notifies.
        XCTAssertEqual(playa(0, "00:02", "due", "--command", notify(0)).code, 0)
        synced("the draws and the laptop's role")
        let refused = playa(1, "00:03", "due", "--command", notify(1))
        XCTAssertEqual(refused.code, 77)
        XCTAssertTrue(refused.err.contains("laptop"), refused.err)
        XCTAssertEqual(draw(playa(0, "00:03", "queue")), draw(playa(1, "00:03", "queue")))

        // The day: cron's due on both devices; at noon the phone takes over.
        let times = Set(gLaptop.records.compactMap { $0["time"] as? String }).sorted()
        var tookOver = false
        for t in times {
            let h = Int(t.prefix(2))!, m = Int(t.suffix(2))!
            let at = String(format: "%02d:%02d", (h * 60 + m + 1) / 60, (m + 1) % 60)
            if !tookOver && h >= 12 {
                synced("before the phone takes over")
                let take = playa(1, at, "due", "--take-over", "--command", notify(1))
                XCTAssertEqual(take.code, 0, take.err)
                tookOver = true
                synced("the phone's role")
            }
            let n = tookOver ? 1 : 0
            let r = playa(n, at, "due", "--command", notify(n))
            XCTAssertEqual(r.code, 0, "\(names[n]) at \(at): \(r.err)")
            XCTAssertEqual(playa(1 - n, at, "due", "--command", notify(1 - n)).code, 77, "\(names[1 - n]) at \(at) does not notify")
            synced("after \(at)")
        }
        XCTAssertTrue(tookOver)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let notified = lines.map { $0[0] }
        XCTAssertEqual(notified.sorted(), gLaptop.records.compactMap { $0["id"] as? String }.sorted(), "every slot notified exactly once across both devices")
        XCTAssertEqual(Set(lines.map { $0[1] }), ["laptop", "phone"], "both devices notified in turn")
        for d in 0..<2 {
            let q = playa(d, "23:00", "queue")
            XCTAssertEqual(q.records.count, 9, q.err)
            XCTAssertTrue(q.records.allSatisfy { $0["notification"] as? String == "delivered" }, "\(names[d]): \(q.out)")
        }
    }
}
