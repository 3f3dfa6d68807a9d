import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// yomo's vdir as a folder, without a server: what a half-written file,
/// another client's properties and an unchanged folder do, and the
/// configuration's mistakes.
final class YomoVdirFolderToolTests: ToolTestCase {
    var vdir: String { tmp + "/tasks" }

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["XDG_CONFIG_HOME"] = tmp + "/xdg"
        e["YOMO_DATA_DIR"] = tmp + "/ydata"
        return e
    }

    override func setUp() {
        super.setUp()
        try? FileManager.default.createDirectory(atPath: tmp + "/xdg/yomo", withIntermediateDirectories: true)
        try? "vdir = \(vdir)\n".write(toFile: tmp + "/xdg/yomo/config", atomically: true, encoding: .utf8)
    }

    func yomo(_ at: String, _ args: String...) -> RunResult { run("yomo", ["--now", "2026-11-24T\(at)-05:00"] + args) }

    func file(_ id: String) -> String { vdir + "/" + id + ".ics" }

    /// Replaces a file by rename, as vdirsyncer writes.
    func replace(_ path: String, _ text: String) {
        XCTAssertNoThrow(try text.write(toFile: path + ".part", atomically: false, encoding: .utf8))
        XCTAssertEqual(rename(path + ".part", path), 0)
    }

    func testAHalfWrittenFileIsLeftAloneNotTakenForADeletion() throws {
        let id = yomo("08:00:00", "add", "water plants", "--date", "2026-11-25", "--time", "15:00").records.first?["id"] as? String ?? ""
        let whole = try String(contentsOfFile: file(id), encoding: .utf8)
        let cut = String(whole.prefix(whole.count / 2)).replacingOccurrences(of: "water plants", with: "water the plants")
        replace(file(id), cut)
        let r = yomo("08:01:00", "vdir", "sync")
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertTrue(r.err.contains("\(id).ics") && r.err.contains("left alone"), r.err)
        XCTAssertEqual(r.out, "")
        let list = yomo("08:01:00", "list").records
        XCTAssertEqual(list.map { $0["title"] as? String }, ["water plants"])
        // yomo does not write over it either, and says so.
        XCTAssertEqual(yomo("08:02:00", "edit", id, "--notes", "the ferns").code, 0)
        XCTAssertEqual(try String(contentsOfFile: file(id), encoding: .utf8), cut)
        // Once it reads whole it counts.
        replace(file(id), whole.replacingOccurrences(of: "SUMMARY:water plants", with: "SUMMARY:water the plants")
            .replacingOccurrences(of: "LAST-MODIFIED:20261124T130000Z", with: "LAST-MODIFIED:20261124T130500Z"))
        let again = yomo("08:06:00", "vdir", "sync")
        XCTAssertEqual(again.code, 0, again.err)
        XCTAssertEqual(yomo("08:06:00", "list").records.first?["title"] as? String, "water the plants", again.err)
    }

    func testWhatAnotherClientAddedSurvivesYomosRewrite() throws {
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        let ics = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Example Corp//Phone//EN\r
            X-WR-CALNAME:Tasks\r
            BEGIN:VTODO\r
            UID:7f3c-phone-task\r
            DTSTAMP:20261124T120000Z\r
            LAST-MODIFIED:20261124T120000Z\r
            SUMMARY:renew passport\r
            DUE;TZID=America/New_York:20261130T100000\r
            CATEGORIES:errands,papers\r
            X-APPLE-SORT-ORDER:42\r
            PRIORITY:1\r
            BEGIN:VALARM\r
            ACTION:AUDIO\r
            TRIGGER;RELATED=END:PT1H\r
            X-PHONE-SOUND:chime\r
            END:VALARM\r
            END:VTODO\r
            BEGIN:X-PHONE-NOTE\r
            TEXT:kept as it is\r
            END:X-PHONE-NOTE\r
            END:VCALENDAR\r

            """
        replace(vdir + "/passport.ics", ics)
        let r = yomo("08:00:00", "vdir", "sync")
        XCTAssertEqual(r.code, 0, r.err)
        let id = r.records.first { $0["change"] as? String == "created" }?["id"] as? String ?? ""
        XCTAssertEqual(yomo("08:00:00", "list").records.first?["trigger_at"] as? String, "2026-11-30T10:00:00-05:00")
        let snoozed = yomo("08:01:00", "edit", id, "--time", "11:00")
        XCTAssertEqual(snoozed.code, 0, snoozed.err)
        let text = try String(contentsOfFile: vdir + "/passport.ics", encoding: .utf8).replacingOccurrences(of: "\r\n ", with: "")
        for kept in ["UID:7f3c-phone-task", "CATEGORIES:errands,papers", "X-APPLE-SORT-ORDER:42", "PRIORITY:1", "TRIGGER;RELATED=END:PT1H",
                     "X-PHONE-SOUND:chime", "BEGIN:X-PHONE-NOTE", "TEXT:kept as it is", "X-WR-CALNAME:Tasks",
                     "DUE;TZID=America/New_York:20261130T110000", "SEQUENCE:1"] {
            XCTAssertTrue(text.contains(kept), "\(kept) lost:\n\(text)")
        }
        XCTAssertFalse(text.contains("PRODID:-//Example Corp"), "two PRODIDs:\n\(text)")
    }

    /// `due` with the vdir configured looks at the folder's own stamp only:
    /// a file changed without the folder changing is not even read (the
    /// broken one here would be reported), the index is not touched, and a
    /// change to the folder is read.
    func testDueReadsNothingWhileTheFolderIsUnchanged() throws {
        XCTAssertEqual(yomo("08:00:00", "add", "stretch", "--date", "2026-11-24", "--time", "09:00").code, 0)
        let index = try String(contentsOfFile: tmp + "/ydata/vdir.ndjson", encoding: .utf8)
        let head = try JSONSerialization.jsonObject(with: Data(index.split(separator: "\n")[0].utf8)) as? [String: Any]
        let stamp = (head?["dir"] as? [NSNumber])?.first?.int64Value ?? 0
        // A broken file written in place (the folder's stamp is put back as it was).
        let name = try FileManager.default.contentsOfDirectory(atPath: vdir).first { $0.hasSuffix(".ics") } ?? ""
        XCTAssertNoThrow(try "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\n".write(toFile: vdir + "/" + name, atomically: false, encoding: .utf8))
        var times = [timespec(tv_sec: Int(stamp / 1_000_000_000), tv_nsec: Int(stamp % 1_000_000_000)),
                     timespec(tv_sec: Int(stamp / 1_000_000_000), tv_nsec: Int(stamp % 1_000_000_000))]
        XCTAssertEqual(utimensat(AT_FDCWD, vdir, &times, 0), 0)
        let indexBefore = try FileManager.default.attributesOfItem(atPath: tmp + "/ydata/vdir.ndjson")[.modificationDate] as? Date
        let quiet = yomo("09:00:30", "due")
        XCTAssertEqual(quiet.err, "", "due read the vdir although its folder did not change")
        let indexAfter = try FileManager.default.attributesOfItem(atPath: tmp + "/ydata/vdir.ndjson")[.modificationDate] as? Date
        XCTAssertEqual(indexBefore, indexAfter, "due wrote the vdir's index although nothing changed")
        XCTAssertEqual(quiet.records.count, 1)
        // The folder changes (a file added by rename): now it is read.
        replace(vdir + "/other.ics", "BEGIN:VCALENDAR\r\n")
        let loud = yomo("09:01:00", "due")
        XCTAssertTrue(loud.err.contains(name) && loud.err.contains("left alone"), loud.err)
    }

    func testWithoutAVdirSyncSaysWhatToDo() {
        try? FileManager.default.removeItem(atPath: tmp + "/xdg/yomo/config")
        let r = yomo("08:00:00", "vdir", "sync")
        XCTAssertEqual(r.code, 78, "a setting missing is the configuration's, as tenclub's sms_command")
        XCTAssertTrue(r.err.contains("vdir = PATH"), r.err)
        try? "vdir = tasks\n".write(toFile: tmp + "/xdg/yomo/config", atomically: true, encoding: .utf8)
        // A bad value is 78 for every command, as any mistake in the file is.
        for args in [["list"], ["due"], ["vdir", "sync"]] {
            let bad = run("yomo", ["--now", "2026-11-24T08:00:00-05:00"] + args)
            XCTAssertEqual(bad.code, 78, "\(args): \(bad.err)")
            XCTAssertEqual(bad.err.split(separator: "\n").count, 1, bad.err)
            XCTAssertTrue(bad.err.contains("vdir must be an absolute path"), bad.err)
        }
        // A vdir given as an operand needs no configuration.
        try? FileManager.default.removeItem(atPath: tmp + "/xdg/yomo/config")
        let given = run("yomo", ["--now", "2026-11-24T08:00:00-05:00", "vdir", "sync", tmp + "/elsewhere"])
        XCTAssertEqual(given.code, 0, given.err)
    }
}
