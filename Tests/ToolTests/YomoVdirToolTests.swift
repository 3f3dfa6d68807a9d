import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// yomo's vdir against the real parts (Debian's radicale, vdirsyncer and
/// todoman): one Radicale on 127.0.0.1 for the class (authentication none,
/// storage in a temporary folder), a fresh calendar collection per test,
/// yomo's vdir and a second one standing for the phone, each paired with
/// the collection by vdirsyncer (`conflict_resolution = "b wins"`: the
/// server's copy comes down, and yomo decides and reports). The phone side
/// is edited with todoman, or by writing .ics files by rename as DAVx5
/// would. Every wait for the server is bounded.
final class YomoVdirToolTests: ToolTestCase {
    /// The class's Radicale: its folder, port and process.
    final class Server: @unchecked Sendable {
        let dir: String
        let port: Int
        let process: Process
        init(dir: String, port: Int, process: Process) { (self.dir, self.port, self.process) = (dir, port, process) }
    }
    nonisolated(unsafe) static var server: Server?
    nonisolated(unsafe) static var startProblem: String?

    /// The class's server did not come up: every test that needs it fails saying why.
    struct NoServer: Error, CustomStringConvertible { var description: String }

    override class func setUp() {
        super.setUp()
        guard let radicale = Machine.current.find("radicale") else { return }
        let dir = NSTemporaryDirectory() + "radicale-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir + "/storage/collection-root/u", withIntermediateDirectories: true)
        let port = freePort()
        let config = """
            [server]
            hosts = 127.0.0.1:\(port)
            [auth]
            type = none
            [storage]
            filesystem_folder = \(dir)/storage
            [logging]
            level = warning
            mask_passwords = True
            """
        try? config.write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: radicale)
        p.arguments = ["--config", dir + "/config"]
        p.environment = ["PATH": "/usr/bin:/bin", "HOME": dir]
        p.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        p.standardError = FileHandle(forWritingAtPath: "/dev/null")
        do { try p.run() } catch { startProblem = "radicale did not start: \(error)"; return }
        // Bounded: the server answers within 20 s or the tests fail saying so.
        let end = Date().addingTimeInterval(20)
        while Date() < end && !listening(port) { usleep(100_000) }
        if !listening(port) { startProblem = "radicale did not listen on 127.0.0.1:\(port) within 20 s" }
        server = Server(dir: dir, port: port, process: p)
    }

    override class func tearDown() {
        if let s = server {
            if s.process.isRunning { s.process.terminate(); s.process.waitUntilExit() }
            try? FileManager.default.removeItem(atPath: s.dir)
        }
        server = nil
        super.tearDown()
    }

    static func listening(_ port: Int) -> Bool { Loopback.listening(port) }
    static func freePort() -> Int { Loopback.freePort() }

    var yomoVdir: String { tmp + "/yomo/tasks" }
    var phoneVdir: String { tmp + "/phone/tasks" }
    /// Tomorrow's date here: todoman stamps the real time, so the pinned clock stays near it.
    lazy var day: String = {
        let f = DateFormatter()
        f.dateFormat = "yyyy-MM-dd"
        f.timeZone = TimeZone(identifier: "America/New_York")
        return f.string(from: Date().addingTimeInterval(86_400))
    }()

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["XDG_CONFIG_HOME"] = tmp + "/xdg"
        e["YOMO_DATA_DIR"] = tmp + "/ydata"
        e["YOMO_ACTOR"] = "laptop"
        return e
    }

    /// A fresh collection on the class's server, both vdirs paired with it.
    func pair(file: StaticString = #filePath, line: UInt = #line) throws {
        try require(.radicale, .vdirsyncer, .todoman)
        if let p = YomoVdirToolTests.startProblem { throw NoServer(description: p) }
        guard let s = YomoVdirToolTests.server else { throw NoServer(description: "radicale was not started") }
        let name = "c" + UUID().uuidString.prefix(8).lowercased()
        let coll = s.dir + "/storage/collection-root/u/" + name
        let fm = FileManager.default
        try fm.createDirectory(atPath: coll, withIntermediateDirectories: true)
        try #"{"tag": "VCALENDAR", "C:supported-calendar-component-set": "VTODO"}"#.write(toFile: coll + "/.Radicale.props", atomically: true, encoding: .utf8)
        for d in [yomoVdir, phoneVdir, tmp + "/status", tmp + "/xdg/yomo", tmp + "/xdg/todoman", tmp + "/xdg-yomo-side/todoman"] {
            try fm.createDirectory(atPath: d, withIntermediateDirectories: true)
        }
        let url = "http://127.0.0.1:\(s.port)/u/\(name)/"
        let config = """
            [general]
            status_path = "\(tmp)/status/"
            [pair yomo]
            a = "yomo_vdir"
            b = "yomo_server"
            collections = null
            conflict_resolution = "b wins"
            [storage yomo_vdir]
            type = "filesystem"
            path = "\(yomoVdir)/"
            fileext = ".ics"
            [storage yomo_server]
            type = "caldav"
            url = "\(url)"
            [pair phone]
            a = "phone_vdir"
            b = "phone_server"
            collections = null
            conflict_resolution = "b wins"
            [storage phone_vdir]
            type = "filesystem"
            path = "\(phoneVdir)/"
            fileext = ".ics"
            [storage phone_server]
            type = "caldav"
            url = "\(url)"
            """
        try config.write(toFile: tmp + "/vdirsyncer.conf", atomically: true, encoding: .utf8)
        try "vdir = \(yomoVdir)\n".write(toFile: tmp + "/xdg/yomo/config", atomically: true, encoding: .utf8)
        for (dir, vdir) in [("xdg", phoneVdir), ("xdg-yomo-side", yomoVdir)] {
            let parent = (vdir as NSString).deletingLastPathComponent
            try "path = \"\(parent)/*\"\ndate_format = \"%Y-%m-%d\"\ntime_format = \"%H:%M\"\ndefault_list = \"tasks\"\n"
                .write(toFile: tmp + "/\(dir)/todoman/config.py", atomically: true, encoding: .utf8)
        }
        let d = sh("yes | vdirsyncer -c \(tmp)/vdirsyncer.conf discover")
        XCTAssertEqual(d.code, 0, d.err, file: file, line: line)
    }

    /// vdirsyncer for one pair, bounded.
    func vdirsyncer(_ pair: String, file: StaticString = #filePath, line: UInt = #line) {
        let r = runProgram(command("vdirsyncer"), ["-c", tmp + "/vdirsyncer.conf", "sync", pair],
                           env: ["HOME": tmp, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], timeout: 60)
        XCTAssertEqual(r.status, 0, "vdirsyncer sync \(pair): \(r.err)", file: file, line: line)
    }

    /// yomo's changes to the phone: yomo's pair, then the phone's.
    func toPhone() { vdirsyncer("yomo"); vdirsyncer("phone") }
    /// The phone's changes to yomo's vdir.
    func fromPhone() { vdirsyncer("phone"); vdirsyncer("yomo") }

    @discardableResult
    func yomo(_ at: String?, _ args: String...) -> RunResult {
        run("yomo", (at.map { ["--now", "\(day)T\($0)"] } ?? []) + args)
    }

    /// todoman on the phone's vdir (or, `yomoSide`, on yomo's).
    @discardableResult
    func todo(_ args: String..., yomoSide: Bool = false) -> RunResult {
        let r = runProgram(command("todoman"), args, env: ["HOME": tmp, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "America/New_York",
                                                            "XDG_CONFIG_HOME": tmp + (yomoSide ? "/xdg-yomo-side" : "/xdg")], timeout: 60)
        return RunResult(out: r.out, err: r.err, code: r.status)
    }

    /// todoman's id of the task titled `title` on the phone.
    func phoneID(_ title: String) -> String? {
        let r = todo("--porcelain", "list", "--status", "ANY")
        let list = (try? JSONSerialization.jsonObject(with: Data(r.out.utf8))) as? [[String: Any]] ?? []
        return list.first { ($0["summary"] as? String) == title }.flatMap { $0["id"] }.map { "\($0)" }
    }

    /// The phone's file holding `title` (as DAVx5 would see it).
    func phoneFile(_ title: String) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: phoneVdir)) ?? []
        return names.map { phoneVdir + "/" + $0 }.first { lines($0).contains("SUMMARY:" + title) }
    }

    /// A file's unfolded lines, without CR (Swift takes CR LF as one character).
    func lines(_ path: String) -> [String] {
        let t = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").replacingOccurrences(of: "\r", with: "")
        return t.replacingOccurrences(of: "\n ", with: "").split(separator: "\n").map(String.init)
    }

    var phoneListing: String {
        ((try? FileManager.default.contentsOfDirectory(atPath: phoneVdir)) ?? []).map { n in
            n + ": " + ((try? String(contentsOfFile: phoneVdir + "/" + n, encoding: .utf8)) ?? "?").prefix(2000)
        }.joined(separator: "\n")
    }

    /// Replaces a phone file by rename, as a sync adapter writes.
    func replace(_ path: String, _ text: String) throws {
        try text.write(toFile: path + ".new", atomically: false, encoding: .utf8)
        XCTAssertEqual(rename(path + ".new", path), 0)
    }

    func id(_ r: RunResult) -> String { r.records.first?["id"] as? String ?? "" }

    func testTasksGoBothWaysBetweenYomoAndTodoman() throws {
        try pair()
        let added = yomo("08:00:00", "add", "water plants", "--date", day, "--time", "15:00")
        XCTAssertEqual(added.code, 0, added.err)
        // todoman reads yomo's own vdir as it is.
        let mine = todo("list", yomoSide: true)
        XCTAssertEqual(mine.code, 0, mine.err)
        XCTAssertTrue(mine.out.contains("water plants"), mine.out)
        toPhone()
        let phone = todo("list")
        XCTAssertEqual(phone.code, 0, phone.err)
        XCTAssertTrue(phone.out.contains("\(day) 15:00") && phone.out.contains("water plants"), phone.out)
        // A task made on the phone becomes a reminder, by the vdir.
        let made = todo("new", "--due", "\(day) 10:00", "-l", "tasks", "call mom")
        XCTAssertEqual(made.code, 0, made.err)
        fromPhone()
        let sync = yomo("08:05:00", "vdir", "sync")
        XCTAssertEqual(sync.code, 0, sync.err)
        XCTAssertTrue(sync.records.contains { $0["change"] as? String == "created" && $0["by"] as? String == "vdir:tasks" }, sync.out)
        let list = yomo("08:05:00", "list").records
        let mom = list.first { $0["title"] as? String == "call mom" }
        XCTAssertEqual(mom?["trigger_at"] as? String, "\(day)T10:00:00-05:00", "\(list)")
        XCTAssertEqual(mom?["tz"] as? String, "America/New_York")
        XCTAssertEqual(list.count, 2)
        // Nothing changed: a second pass reads and writes nothing.
        XCTAssertEqual(yomo("08:06:00", "vdir", "sync").out, "")
    }

    func testCompletedOnThePhoneStaysSilentAndIsDismissed() throws {
        try pair()
        let rid = id(yomo("08:00:00", "add", "take pills", "--date", day, "--time", "09:00"))
        toPhone()
        let due = yomo("09:00:30", "due")
        XCTAssertEqual(due.records.first?["type"] as? String, "notification", due.out + due.err)
        guard let n = phoneID("take pills") else { return XCTFail("todoman does not list it: \(todo("list").out)") }
        let done = todo("done", n)
        XCTAssertEqual(done.code, 0, done.err)
        fromPhone()
        let after = yomo("09:05:00", "due")
        XCTAssertEqual(after.code, 0, after.err)
        XCTAssertEqual(after.records.count, 1, after.out)
        XCTAssertEqual(after.records.first?["type"] as? String, "dismiss", after.out)
        XCTAssertEqual(after.records.first?["reason"] as? String, "completed")
        XCTAssertEqual(after.records.first?["by"] as? String, "vdir:tasks")
        XCTAssertEqual(after.records.first?["id"] as? String, rid)
        XCTAssertEqual(yomo("09:10:00", "due").out, "")
        let all = yomo("09:10:00", "list", "--all").records
        XCTAssertEqual(all.first { $0["id"] as? String == rid }?["status"] as? String, "completed", "\(all)")
    }

    func testSnoozeInYomoMovesThePhonesAlarm() throws {
        try pair()
        let rid = id(yomo("08:00:00", "add", "stretch", "--date", day, "--time", "09:00"))
        toPhone()
        XCTAssertEqual(yomo("09:00:30", "due").records.count, 1)
        let s = yomo("09:01:00", "snooze", rid, "20")
        XCTAssertEqual(s.code, 0, s.err)
        toPhone()
        guard let f = phoneFile("stretch"), let text = try? String(contentsOfFile: f, encoding: .utf8) else { return XCTFail("no phone file: \(phoneListing)") }
        // 09:21 in New York is 14:21 UTC (November: -05:00).
        let compact = day.replacingOccurrences(of: "-", with: "")
        XCTAssertTrue(text.contains("TRIGGER;VALUE=DATE-TIME:\(compact)T142100Z"), text)
        XCTAssertTrue(text.contains("X-YOMO-SNOOZE:\(compact)T142100Z"), text)
        XCTAssertTrue(text.contains("SEQUENCE:2"), text)
        XCTAssertEqual(todo("list").code, 0)
    }

    func testOneOccurrenceCompletedOnThePhone() throws {
        try pair()
        let rid = id(yomo("08:00:00", "add", "standup", "--date", day, "--time", "09:00", "--repeat", "daily"))
        toPhone()
        guard let f = phoneFile("standup"), let text = try? String(contentsOfFile: f, encoding: .utf8) else { return XCTFail("no phone file: \(phoneListing)") }
        let compact = day.replacingOccurrences(of: "-", with: "")
        let done = "BEGIN:VTODO\r\nUID:\(rid)@yomo\r\nDTSTAMP:\(compact)T130000Z\r\nRECURRENCE-ID;TZID=America/New_York:\(compact)T090000\r\n"
            + "DTSTART;TZID=America/New_York:\(compact)T090000\r\nSUMMARY:standup\r\nSTATUS:COMPLETED\r\nCOMPLETED:\(compact)T130500Z\r\nEND:VTODO\r\n"
        try replace(f, text.replacingOccurrences(of: "END:VCALENDAR", with: done + "END:VCALENDAR"))
        fromPhone()
        // The occurrence done on the phone never fires; the next one is the next day's.
        XCTAssertEqual(yomo("09:01:00", "due").out, "")
        let next = yomo("09:01:00", "next", rid, "-n", "1").records.first?["at"] as? String ?? ""
        XCTAssertTrue(next.hasSuffix("T09:00:00-05:00") && !next.hasPrefix(day), next)
        // yomo's file keeps the phone's completed occurrence when it writes again.
        XCTAssertEqual(yomo("09:02:00", "edit", rid, "--notes", "in the small room").code, 0)
        let mine = try String(contentsOfFile: yomoVdir + "/" + (FileManager.default.contentsOfDirectory(atPath: yomoVdir).first { $0.hasSuffix(".ics") } ?? ""),
                              encoding: .utf8)
        XCTAssertTrue(mine.contains("RECURRENCE-ID;TZID=America/New_York:\(compact)T090000") && mine.contains("STATUS:COMPLETED"), mine)
        XCTAssertTrue(mine.contains("DESCRIPTION:in the small room"), mine)
    }

    /// `day` moved by `n` days, as YYYY-MM-DD (`compact`: YYYYMMDD).
    func day(_ n: Int, compact: Bool = false) -> String {
        let f = DateFormatter()
        f.dateFormat = compact ? "yyyyMMdd" : "yyyy-MM-dd"
        f.timeZone = TimeZone(identifier: "America/New_York")
        let d = DateFormatter()
        d.dateFormat = "yyyy-MM-dd HH:mm"
        d.timeZone = f.timeZone
        return f.string(from: d.date(from: day + " 12:00")!.addingTimeInterval(Double(n) * 86_400))
    }

    /// Every task todoman lists, done or not, on the phone or in yomo's vdir.
    func phoneTasksIn(yomoSide: Bool) -> [[String: Any]] {
        let r = todo("--porcelain", "list", "--status", "ANY", yomoSide: yomoSide)
        return (try? JSONSerialization.jsonObject(with: Data(r.out.utf8))) as? [[String: Any]] ?? []
    }

    /// The phone's tasks titled `title` (todoman's JSON: id, due, completed).
    func phoneTasks(_ title: String) -> [[String: Any]] {
        let r = todo("--porcelain", "list", "--status", "ANY")
        let list = (try? JSONSerialization.jsonObject(with: Data(r.out.utf8))) as? [[String: Any]] ?? []
        return list.filter { ($0["summary"] as? String) == title }
    }

    /// The Unix time of a wall time in New York.
    func epoch(_ date: String, _ time: String) -> Int {
        let d = DateFormatter()
        d.dateFormat = "yyyy-MM-dd HH:mm"
        d.timeZone = TimeZone(identifier: "America/New_York")
        return Int(d.date(from: date + " " + time)!.timeIntervalSince1970)
    }

    /// todoman's `done` on a recurring task completes that task and makes a
    /// copy, with a new UID, due at the next occurrence: yomo takes both as
    /// one completion, the copy as the series' file from then on, and the
    /// phone shows the next time (the series is written due at its pending
    /// occurrence, not its first).
    func testTodomansDoneOnARecurringTaskIsOneCompletion() throws {
        try pair()
        // Made the day before: its pending occurrence is not its first.
        let rid = id(yomo("08:00:00", "add", "standup", "--date", day(-1), "--time", "09:00", "--repeat", "daily"))
        toPhone()
        XCTAssertEqual(phoneTasks("standup").map { $0["due"] as? Int }, [epoch(day, "09:00")], "the phone shows the pending occurrence")
        XCTAssertEqual(yomo("09:00:30", "due").records.count, 1)
        guard let n = phoneID("standup") else { return XCTFail("todoman does not list it: \(todo("list").out)") }
        let done = todo("done", n)
        XCTAssertEqual(done.code, 0, done.err)
        fromPhone()
        let sync = yomo("09:05:00", "vdir", "sync")
        XCTAssertEqual(sync.code, 0, sync.err)
        XCTAssertEqual(sync.records.filter { $0["direction"] as? String == "in" }.compactMap { $0["change"] as? String }, ["completed", "continued"], sync.out)
        var list = yomo("09:05:00", "list").records
        XCTAssertEqual(list.count, 1, "one reminder, not two: \(list)")
        XCTAssertEqual(list.first?["id"] as? String, rid)
        XCTAssertEqual(list.first?["trigger_at"] as? String, "\(day(1))T09:00:00-05:00")
        XCTAssertEqual(yomo("09:06:00", "due").out, "", "the day's occurrence is done")
        toPhone()
        var phone = phoneTasks("standup")
        XCTAssertEqual(phone.filter { $0["completed"] as? Bool == true }.count, 1, "\(phone)")
        XCTAssertEqual(phone.filter { $0["completed"] as? Bool == false }.map { $0["due"] as? Int }, [epoch(day(1), "09:00")], "\(phone)")
        // Done again on the phone (its copy this time), then changed in yomo: still one series, written to the phone's newest copy.
        guard let n2 = phone.first(where: { $0["completed"] as? Bool == false }).flatMap({ $0["id"] }) else { return XCTFail("\(phone)") }
        XCTAssertEqual(todo("done", "\(n2)").code, 0)
        fromPhone()
        XCTAssertEqual(yomo("09:10:00", "vdir", "sync").code, 0)
        XCTAssertEqual(yomo("09:11:00", "edit", rid, "--notes", "room 4").code, 0)
        list = yomo("09:12:00", "list").records
        XCTAssertEqual(list.count, 1, "\(list)")
        XCTAssertEqual(list.first?["trigger_at"] as? String, "\(day(2))T09:00:00-05:00")
        let history = (yomo("09:12:00", "show", rid).records.first?["history"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
        XCTAssertEqual(history.filter { $0 == "completed" }.count, 2, "\(history)")
        toPhone()
        phone = phoneTasks("standup")
        XCTAssertEqual(phone.count, 3, "two done, one to do: \(phone)")
        let open = phone.filter { $0["completed"] as? Bool == false }
        XCTAssertEqual(open.map { $0["due"] as? Int }, [epoch(day(2), "09:00")])
        XCTAssertEqual(open.first?["description"] as? String, "room 4")
        XCTAssertEqual(yomo("09:13:00", "vdir", "sync").out, "", "nothing more to do")
    }

    /// todoman's open task titled `title` in yomo's own vdir.
    func openTask(_ title: String) -> String? {
        let r = todo("--porcelain", "list", yomoSide: true)
        let list = (try? JSONSerialization.jsonObject(with: Data(r.out.utf8))) as? [[String: Any]] ?? []
        return list.first { ($0["summary"] as? String) == title }.flatMap { $0["id"] }.map { "\($0)" }
    }

    /// Found by an adversary: several `todoman done` before yomo's next pass
    /// (each on the copy the last one made) are as many completions, and
    /// the copies completed on the way stay the client's; done in yomo and
    /// in todoman alike, the same occurrence counts once.
    func testSeveralDonesBetweenPassesAndADoneOnBothSides() throws {
        try pair()
        let rid = id(yomo("08:00:00", "add", "standup", "--date", day(-1), "--time", "09:00", "--repeat", "daily"))
        for _ in 0..<3 {
            guard let n = openTask("standup") else { return XCTFail("no open task: \(todo("list", yomoSide: true).out)") }
            XCTAssertEqual(todo("done", n, yomoSide: true).code, 0)
        }
        let sync = yomo("09:05:00", "vdir", "sync")
        XCTAssertEqual(sync.code, 0, sync.err)
        var list = yomo("09:05:00", "list", "--all").records
        XCTAssertEqual(list.map { $0["id"] as? String }, [rid], "no reminder made of the completed copies: \(list)")
        XCTAssertEqual(list.first?["trigger_at"] as? String, "\(day(3))T09:00:00-05:00", "three done")
        var mine = phoneTasksIn(yomoSide: true)
        XCTAssertEqual(mine.filter { $0["completed"] as? Bool == false }.map { $0["due"] as? Int }, [epoch(day(3), "09:00")], "\(mine)")
        XCTAssertEqual(mine.filter { $0["completed"] as? Bool == true }.count, 3)
        // Done in todoman, and in yomo before its pass: one completion.
        guard let n = openTask("standup") else { return XCTFail("no open task") }
        XCTAssertEqual(todo("done", n, yomoSide: true).code, 0)
        XCTAssertEqual(yomo("09:10:00", "done", rid).code, 0)
        list = yomo("09:11:00", "list", "--all").records
        XCTAssertEqual(list.map { $0["trigger_at"] as? String }, ["\(day(4))T09:00:00-05:00"], "\(list)")
        mine = phoneTasksIn(yomoSide: true)
        XCTAssertEqual(mine.filter { $0["completed"] as? Bool == false }.map { $0["due"] as? Int }, [epoch(day(4), "09:00")], "\(mine)")
    }

    /// A file renamed in the vdir is the same reminder; a second file with a
    /// reminder's UID (a conflict copy, a forged one) is left alone, and
    /// removing it removes nothing of the reminder's.
    func testARenamedFileAndASecondFileWithTheSameUID() throws {
        try pair()
        let rid = id(yomo("08:00:00", "add", "dentist", "--date", day, "--time", "15:00"))
        let fm = FileManager.default
        XCTAssertEqual(rename(yomoVdir + "/\(rid).ics", yomoVdir + "/moved.ics"), 0)
        XCTAssertEqual(yomo("08:01:00", "vdir", "sync").out, "")
        XCTAssertEqual(yomo("08:01:00", "list").records.map { $0["id"] as? String }, [rid])
        XCTAssertTrue(fm.fileExists(atPath: yomoVdir + "/moved.ics"))
        let text = try String(contentsOfFile: yomoVdir + "/moved.ics", encoding: .utf8)
        try text.replacingOccurrences(of: "SUMMARY:dentist", with: "SUMMARY:EVIL").write(toFile: yomoVdir + "/evil.ics", atomically: true, encoding: .utf8)
        let dupe = yomo("08:02:00", "vdir", "sync")
        XCTAssertEqual(dupe.err, "yomo: vdir: evil.ics: UID \(rid)@yomo is moved.ics's; left alone\n")
        XCTAssertEqual(yomo("08:02:00", "list").records.first?["title"] as? String, "dentist")
        try fm.removeItem(atPath: yomoVdir + "/evil.ics")
        XCTAssertEqual(yomo("08:03:00", "vdir", "sync").out, "")
        XCTAssertEqual(yomo("08:03:00", "list").records.map { $0["id"] as? String }, [rid])
        XCTAssertTrue(fm.fileExists(atPath: yomoVdir + "/moved.ics"))
    }

    /// Tasks.org and Apple's Reminders complete an occurrence by moving the
    /// task on in place (DTSTART and DUE at the next occurrence; Apple drops
    /// properties it does not know): a completion, not an edit.
    func testAPhoneThatMovesASeriesOnInPlaceCompletedAnOccurrence() throws {
        try pair()
        let rid = id(yomo("08:00:00", "add", "stretch", "--date", day(-1), "--time", "09:00", "--repeat", "daily"))
        toPhone()
        for (k, keepOurs) in [(0, true), (1, false)] {
            guard let f = phoneFile("stretch") else { return XCTFail("no phone file: \(phoneListing)") }
            let from = day(k, compact: true) + "T090000", to = day(k + 1, compact: true) + "T090000"
            let moved = lines(f).compactMap { l -> String? in
                if !keepOurs && l.hasPrefix("X-YOMO-") { return nil }
                if l.hasPrefix("DTSTART;TZID=America/New_York:") || l.hasPrefix("DUE;") { return l.replacingOccurrences(of: from, with: to) }
                return l.hasPrefix("SEQUENCE:") ? "SEQUENCE:\(5 + k)" : l
            }
            XCTAssertTrue(moved.contains("DUE;TZID=America/New_York:\(to)"), moved.joined(separator: "\n"))
            try replace(f, moved.joined(separator: "\r\n") + "\r\n")
            fromPhone()
            let sync = yomo("08:30:00", "vdir", "sync")
            XCTAssertEqual(sync.records.filter { $0["direction"] as? String == "in" }.compactMap { $0["change"] as? String }, ["completed"],
                           (keepOurs ? "Tasks.org: " : "Apple: ") + sync.out + sync.err)
            let list = yomo("08:30:00", "list").records
            XCTAssertEqual(list.map { $0["id"] as? String }, [rid])
            XCTAssertEqual(list.first?["trigger_at"] as? String, "\(day(k + 1))T09:00:00-05:00")
            toPhone()
        }
        XCTAssertEqual(yomo("09:00:30", "due").out, "", "today's was done on the phone")
    }

    /// A reminder's list is the first of its CATEGORIES: a phone's other
    /// categories (Tasks.org's tags) stay when yomo writes the file again,
    /// and a list changed on the phone is changed in yomo.
    func testListsTravelAsCategoriesAndThePhonesOtherCategoriesStay() throws {
        try pair()
        let rid = id(yomo("08:00:00", "add", "buy eggs #groceries", "--date", day, "--time", "17:00"))
        toPhone()
        guard let f = phoneFile("buy eggs"), let text = try? String(contentsOfFile: f, encoding: .utf8) else { return XCTFail("no phone file: \(phoneListing)") }
        XCTAssertTrue(lines(f).contains("CATEGORIES:groceries"), text)
        try replace(f, text.replacingOccurrences(of: "CATEGORIES:groceries", with: "CATEGORIES:groceries,urgent"))
        fromPhone()
        XCTAssertEqual(yomo("08:10:00", "vdir", "sync").code, 0)
        XCTAssertEqual(yomo("08:10:00", "list").records.first?["list"] as? String, "groceries")
        XCTAssertEqual(yomo("08:11:00", "edit", rid, "--notes", "a dozen").code, 0)
        toPhone()
        guard let again = phoneFile("buy eggs") else { return XCTFail("no phone file: \(phoneListing)") }
        let phone = lines(again)
        XCTAssertEqual(phone.filter { $0.hasPrefix("CATEGORIES") }, ["CATEGORIES:groceries,urgent"], phone.joined(separator: "\n"))
        XCTAssertTrue(phone.contains("DESCRIPTION:a dozen"))
        let shown = todo("list")
        XCTAssertEqual(shown.code, 0, shown.err)
        XCTAssertTrue(shown.out.contains("buy eggs"), shown.out)
        // Moved to another list on the phone.
        let moved = try String(contentsOfFile: again, encoding: .utf8).replacingOccurrences(of: "CATEGORIES:groceries,urgent", with: "CATEGORIES:home")
        try replace(again, moved)
        fromPhone()
        XCTAssertEqual(yomo("08:20:00", "vdir", "sync").code, 0)
        XCTAssertEqual(yomo("08:20:00", "list").records.first?["list"] as? String, "home")
    }

    func testDeletedOnEitherSideIsGoneOnBoth() throws {
        try pair()
        _ = yomo("08:00:00", "add", "alpha", "--date", day, "--time", "11:00")
        let beta = id(yomo("08:00:00", "add", "beta", "--date", day, "--time", "12:00"))
        _ = yomo("08:00:00", "add", "gamma", "--date", day, "--time", "13:00")  // vdirsyncer refuses to empty a side
        toPhone()
        guard let a = phoneID("alpha") else { return XCTFail("no alpha on the phone") }
        XCTAssertEqual(todo("delete", "--yes", a).code, 0)
        XCTAssertEqual(yomo("08:10:00", "rm", beta).code, 0)
        fromPhone()
        let sync = yomo("08:11:00", "vdir", "sync")
        XCTAssertTrue(sync.records.contains { $0["change"] as? String == "deleted" && $0["direction"] as? String == "in" }, sync.out)
        vdirsyncer("yomo"); vdirsyncer("phone")
        XCTAssertEqual(yomo("08:12:00", "list").records.map { $0["title"] as? String }, ["gamma"])
        let left = todo("list").out
        XCTAssertFalse(left.contains("alpha") || left.contains("beta"), left)
        XCTAssertTrue(left.contains("gamma"), left)
    }

    func testConcurrentEditsAreReportedAndTheNewerStands() throws {
        try pair()
        let rid = id(yomo(nil, "add", "report", "--date", day, "--time", "16:00"))
        toPhone()
        // Both sides change the title before the next sync; the phone's is newer.
        XCTAssertEqual(yomo(nil, "edit", rid, "--title", "report (laptop)").code, 0)
        guard let f = phoneFile("report"), let text = try? String(contentsOfFile: f, encoding: .utf8) else { return XCTFail("no phone file: \(phoneListing)") }
        let later = ISO8601DateFormatter.string(from: Date().addingTimeInterval(60), timeZone: TimeZone(identifier: "UTC")!,
                                                formatOptions: [.withYear, .withMonth, .withDay, .withTime])
        _ = text
        let edited = lines(f).map { l in
            l == "SUMMARY:report" ? "SUMMARY:report (phone)" : l.hasPrefix("LAST-MODIFIED:") ? "LAST-MODIFIED:\(later)Z" : l
        }.joined(separator: "\r\n") + "\r\n"
        try replace(f, edited)
        vdirsyncer("phone")
        vdirsyncer("yomo")  // both changed: the server's copy comes down ("b wins")
        let sync = yomo(nil, "vdir", "sync")
        XCTAssertEqual(sync.code, 0, sync.err)
        let conflict = sync.records.first { $0["type"] as? String == "conflict" }
        XCTAssertEqual(conflict?["kept"] as? String, "vdir", sync.out)
        XCTAssertEqual((conflict?["lost"] as? [String: Any])?["title"] as? String, "report (laptop)")
        XCTAssertTrue(sync.err.contains("was changed here and in"), sync.err)
        XCTAssertEqual(yomo(nil, "list").records.first?["title"] as? String, "report (phone)")
        // Then both sides agree, and nothing more is reported.
        toPhone()
        XCTAssertEqual(yomo(nil, "vdir", "sync").records.filter { $0["type"] as? String == "conflict" }.count, 0)
        XCTAssertNotNil(phoneFile("report (phone)"))
    }
}
