import XCTest
import TestSupport
@testable import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

/// Inputs that once stopped a tool with a trap (exit 132), as a user or a
/// peer supplies them: each is refused with one line and the status for its
/// kind (65 for a bad file, 64 for a bad phrase), and nothing stored before
/// is lost; a folder with one such file takes in every other file and names
/// the bad one on every run. The fuzz targets (Tests/Fuzz) found or keep
/// these; FuzzCorpusTests replays them through the library.
final class NoCrashToolTests: ToolTestCase {
    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["YOMO_DATA_DIR"] = tmp + "/ydata"
        e["XDG_CONFIG_HOME"] = tmp + "/xdg"
        return e
    }

    func yomo(_ args: String...) -> RunResult { run("yomo", ["--now", "2026-11-24T08:00:00-05:00"] + args) }

    func calendar(uid: String, rule: String, summary: String = "bad rule") -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nSUMMARY:\(summary)\r\n"
            + "DTSTART:20261201T090000\r\nRRULE:\(rule)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    }

    static let hostileRules = [
        "FREQ=MONTHLY;BYMONTHDAY=-9223372036854775808", "FREQ=YEARLY;BYYEARDAY=-9223372036854775808",
        "FREQ=YEARLY;BYWEEKNO=-9223372036854775808", "FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-9223372036854775808",
        "FREQ=MONTHLY;BYDAY=-9223372036854775808MO",
        // Counted rules are walked from their start: a billion minutes took a minute a lookup.
        "FREQ=MINUTELY;COUNT=999999999",
    ] + RRule.Freq.allCases.map { "FREQ=\($0.name);INTERVAL=9223372036854775807" }

    func testACalendarRuleNoNumberCanHoldIsRefusedAndNothingIsLost() throws {
        XCTAssertEqual(yomo("add", "water plants tomorrow at 9").code, 0)
        for (k, rule) in Self.hostileRules.enumerated() {
            let path = tmp + "/bad-\(k).ics"
            try calendar(uid: "bad-\(k)@t", rule: rule).write(toFile: path, atomically: true, encoding: .utf8)
            let r = yomo("import", path)
            XCTAssertEqual(r.code, 65, "\(rule): \(r.err)")
            XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
            XCTAssertTrue(r.err.hasPrefix("yomo: \(path):") && r.err.contains("RRULE"), r.err)
            XCTAssertEqual(r.out, "")
        }
        XCTAssertEqual(yomo("list").records.map { $0["title"] as? String }, ["water plants"])
    }

    func testARuleThatNeverMatchesIsTakenAsHavingNoOccurrence() throws {
        // A daily period has one candidate: its second never comes (it once
        // walked to the year 9999, a second an expansion). Kept, completed.
        let path = tmp + "/never.ics"
        try calendar(uid: "never@t", rule: "FREQ=DAILY;BYSETPOS=2", summary: "never").write(toFile: path, atomically: true, encoding: .utf8)
        let r = yomo("import", path)
        XCTAssertEqual(r.code, 0, r.err)
        let all = yomo("list", "--all").records
        XCTAssertEqual(all.map { $0["title"] as? String }, ["never"], yomo("list", "--all").out)
        XCTAssertEqual(all.first?["status"] as? String, "completed")
    }

    /// The largest count, every second, come due: `due` and `list` walk it
    /// once, not once for each occurrence that has passed.
    func testTheLargestCountedRuleComeDueIsWalkedOnce() throws {
        let path = tmp + "/many.ics"
        try calendar(uid: "many@t", rule: "FREQ=SECONDLY;COUNT=\(RRule.maxCount)", summary: "many")
            .replacingOccurrences(of: "DTSTART:20261201T090000", with: "DTSTART:20261124T070000")
            .write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(yomo("import", path).code, 0)
        for args in [["due"], ["list"], ["snooze", "many"]] {
            let r = runLimited("yomo", ["--now", "2026-11-24T09:00:00-05:00"] + args, timeout: 60)
            XCTAssertFalse(r.timedOut, "\(args)")
        }
    }

    func testAPhraseTooFarAheadIsRefusedWithItsWords() {
        for phrase in ["call mum in 3000000000000 hours", "call mum in 9223372036854775807 minutes",
                       "call mum in 9223372036854775807 days", "call mum in 9223372036854775807 weeks",
                       "call mum in 9223372036854775807 months", "call mum in an hour and 9223372036854775807 minutes",
                       "stretch every day for 9223372036854775807 weeks", "stretch every 9223372036854775807 days",
                       "stretch every day 9223372036854775807 times"] {
            let r = yomo("add", phrase)
            XCTAssertEqual(r.code, 64, "\(phrase): \(r.err)")
            XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
            XCTAssertTrue(r.err.contains("9223372036854775807") || r.err.contains("3000000000000"), r.err)
            let parsed = yomo("parse", phrase)
            XCTAssertEqual(parsed.code, 0, parsed.err)
            XCTAssertNotNil(parsed.records.first?["conflict"], "\(phrase): \(parsed.out)")
        }
        XCTAssertEqual(yomo("add", "renew passport in 200 years").code, 64)
        // Within a hundred years it is read.
        let r = yomo("add", "renew passport in 9 years")
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.records.first?["title"] as? String, "renew passport")
        XCTAssertEqual((r.records.first?["trigger_at"] as? String)?.prefix(10), "2035-11-24")
        XCTAssertEqual(yomo("add", "renew passport in 500 weeks").code, 0)
        XCTAssertEqual(yomo("list").records.count, 2)
    }

    func testAVdirTakesEveryGoodFileAndNamesTheBadOneEachRun() throws {
        let vdir = tmp + "/tasks"
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: tmp + "/xdg/yomo", withIntermediateDirectories: true)
        try "vdir = \(vdir)\n".write(toFile: tmp + "/xdg/yomo/config", atomically: true, encoding: .utf8)
        try calendar(uid: "good-1@t", rule: "FREQ=WEEKLY", summary: "stretch").write(toFile: vdir + "/good-1.ics", atomically: true, encoding: .utf8)
        try calendar(uid: "bad@t", rule: Self.hostileRules[0]).write(toFile: vdir + "/bad.ics", atomically: true, encoding: .utf8)
        try calendar(uid: "good-2@t", rule: "FREQ=MONTHLY", summary: "pay rent").write(toFile: vdir + "/good-2.ics", atomically: true, encoding: .utf8)
        for _ in 0..<2 {
            let r = yomo("vdir", "sync")
            XCTAssertNotEqual(r.code, 132, r.err)
            XCTAssertTrue(r.err.contains("bad.ics"), r.err)
            XCTAssertEqual(r.err.split(separator: "\n").filter { $0.contains("bad.ics") }.count, 1, r.err)
            XCTAssertEqual(Set(yomo("list").records.compactMap { $0["title"] as? String }), ["stretch", "pay rent"], r.err)
        }
    }

    /// A folder of a thousand files: every name is read where the kernel put
    /// it (under AddressSanitizer, copying each entry's whole 256-byte name
    /// field read past the last entry of a directory buffer).
    func testAVdirOfAThousandFilesIsReadWhole() throws {
        let vdir = tmp + "/tasks"
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: tmp + "/xdg/yomo", withIntermediateDirectories: true)
        try "vdir = \(vdir)\n".write(toFile: tmp + "/xdg/yomo/config", atomically: true, encoding: .utf8)
        for k in 0..<1000 {
            // Names of every length a vdir holds, so entries end at every offset.
            let name = "t\(k)-" + String(repeating: "x", count: k % 40)
            try calendar(uid: "\(name)@t", rule: "FREQ=WEEKLY", summary: "task \(k)").write(toFile: vdir + "/\(name).ics", atomically: false, encoding: .utf8)
        }
        let r = yomo("vdir", "sync")
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(yomo("list").records.count, 1000)
    }

    /// A peer's reminders whose zone names a device, a FIFO, a rule with
    /// offsets no clock has, or digits without end: every command answers
    /// (each within the limit), the reminders fall back to the reader's zone.
    func testAPeersZoneNameCannotStopOrHangACommand() throws {
        let sync = tmp + "/sync"
        try FileManager.default.createDirectory(atPath: sync, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(tmp + "/fifo", 0o600), 0)
        // A zone file planted in the synced folder, as the fuzzer wrote it
        // (counts and offsets no real file has), its path named as a zone.
        let crafted = TestSupport.packageRoot() + "/Tests/Fuzz/corpus/zone/crash-54b9eb666f984f246f46786c2367026d02fbb90d"
        let planted = try Data(contentsOf: URL(fileURLWithPath: crafted)).dropFirst()
        XCTAssertTrue(FileManager.default.createFile(atPath: sync + "/tz", contents: planted))
        XCTAssertEqual(run("yomo", ["--now", "2026-11-24T08:00:00-05:00", "--sync-dir", sync, "add", "water plants tomorrow at 9"]).code, 0)
        let zones = ["/dev/zero", "/dev/urandom", tmp + "/fifo", sync + "/tz", "Amee934446Sequek", "EST99999999999999999999",
                     "EST5EDT,M3.2.0/99999999999,M11.1.0"]
        let events: [JSONObject] = zones.enumerated().map { (k, z) in
            ["type": "created", "id": .string("zone\(k)0000000"), "title": .string("zone \(k)"), "notes": "",
             "anchor": "2026-12-01T21:00:00", "recurrence": .object(["type": "none"]),
             "trigger_at": "2026-12-01T21:00:00-05:00", "zone": .string(z), "at": "2026-11-24T07:00:00-05:00"]
        }
        let ms: Int64 = 1_795_521_600_000
        let batch = Store<YomoState>.encodeBatch(events, stamp: Stamp(ms: ms, actor: "phone"), by: "phone", at: Instant(ms: ms), zone: .utc).bytes
        XCTAssertTrue(FileManager.default.createFile(atPath: sync + "/phone.ndjson", contents: Data(batch)))
        for args in [["list"], ["due"], ["next", "zone00000000"], ["export", "--format", "ics"]] {
            let r = runLimited("yomo", ["--now", "2026-12-02T08:00:00-05:00", "--sync-dir", sync] + args, timeout: 20)
            XCTAssertFalse(r.timedOut, "\(args) hangs")
            XCTAssertEqual(r.code, 0, "\(args): \(r.err)")
        }
        XCTAssertEqual(run("yomo", ["--now", "2026-11-24T08:00:00-05:00", "--sync-dir", sync, "list"]).records.count, 1 + zones.count)
    }

    /// A peer's journal in the sync folder, checksummed as the store writes
    /// it, holds a reminder whose rule no command could have made (an
    /// interval of 0 divided by zero in every list, due and next).
    func testAPeersRuleTheCLIWouldRefuseIsNotBelieved() throws {
        let sync = tmp + "/sync"
        try FileManager.default.createDirectory(atPath: sync, withIntermediateDirectories: true)
        XCTAssertEqual(run("yomo", ["--now", "2026-11-24T08:00:00-05:00", "--sync-dir", sync, "add", "water plants tomorrow at 9"]).code, 0)
        var events: [JSONObject] = []
        for (k, interval) in [0, -3, 1_000_000_000_000_000_000].enumerated() {
            events.append(["type": "created", "id": .string("bad\(k)00000000"), "title": .string("forged \(k)"), "notes": "",
                           "anchor": "2026-12-01T21:00:00",
                           "recurrence": .object(["type": "custom", "interval": .int(Int64(interval)), "unit": "month"]),
                           "trigger_at": "2026-12-01T21:00:00-05:00", "zone": "America/New_York", "at": "2026-11-24T07:00:00-05:00"])
        }
        let ms: Int64 = 1_795_521_600_000  // 2026-11-24T07:00:00-05:00
        let batch = Store<YomoState>.encodeBatch(events, stamp: Stamp(ms: ms, actor: "phone"), by: "phone", at: Instant(ms: ms), zone: .utc).bytes
        XCTAssertTrue(FileManager.default.createFile(atPath: sync + "/phone.ndjson", contents: Data(batch)))
        for args in [["list"], ["due"], ["list", "--all"]] {
            let r = run("yomo", ["--now", "2026-12-02T08:00:00-05:00", "--sync-dir", sync] + args)
            XCTAssertTrue(r.code == 0, "\(args): \(r.code) \(r.err)")
        }
        let list = run("yomo", ["--now", "2026-11-24T08:00:00-05:00", "--sync-dir", sync, "list"]).records
        XCTAssertEqual(list.count, 4)
        for r in list where (r["title"] as? String)?.hasPrefix("forged") == true {
            XCTAssertEqual((r["recurrence"] as? [String: Any])?["type"] as? String, "none", "\(r)")
        }
    }
}
