import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Devices whose sync folders real Syncthing keeps in step (Debian's
/// `syncthing`): one instance per device on 127.0.0.1, each with its own
/// configuration and home, discovery, relays, NAT, global announce and usage
/// reporting off, the GUI (the REST API that asks for a rescan and pauses
/// devices) on loopback ports, all sharing one folder. Every wait for
/// Syncthing is bounded (20 seconds; a copy usually takes one or two).
/// Subclasses name the devices (`names`) and where each one's folder is.
class SyncthingToolTestCase: ToolTestCase {
    var names = ["laptop", "phone"]
    /// The shared folder's id in Syncthing.
    var folderID: String { "nudge" }

    /// Device `d`'s copy of the sync folder.
    func folder(_ d: Int) -> String { tmp + "/\(names[d])-sync" }

    var instances: [Launched] = []

    override func tearDown() {
        for i in instances where i.process.isRunning {
            kill(i.pid, SIGTERM)
            i.process.waitUntilExit()
        }
        super.tearDown()
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
            _ = runProgram(curl, ["-fsS", "-X", "POST", "-H", "X-API-Key: \(g.key)", "http://127.0.0.1:\(g.port)/rest/db/scan?folder=\(folderID)"],
                           timeout: 5)
        }
        let ok = wait(60) { let a = journals(0); return !a.isEmpty && (1..<names.count).allSatisfy { journals($0) == a } }
        XCTAssertTrue(ok, "Syncthing did not bring the folders in step within 60 s (\(what)): \((0..<names.count).map { journals($0).mapValues(\.count) })",
                      file: file, line: line)
    }

    /// Starts one Syncthing instance per device, all sharing the folder
    /// on loopback.
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
                <folder id="\(folderID)" label="\(folderID)" path="\(folder(d))" type="sendreceive" rescanIntervalS="2" fsWatcherEnabled="true" fsWatcherDelayS="1">
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

}
