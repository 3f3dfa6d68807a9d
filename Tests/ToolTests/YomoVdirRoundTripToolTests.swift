import XCTest
import TestSupport
import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

/// A thousand reminders from a seeded generator, through real vdirsyncer
/// between two vdirs (a filesystem pair: the same engine, without a server,
/// so a thousand items take seconds), into a second yomo and back: after
/// each way both yomos hold the same reminders, none lost, none twice.
/// Titles and notes carry what iCalendar escapes (commas, semicolons,
/// backslashes, line breaks) and text beyond ASCII; rules are one-time,
/// daily, weekly on chosen days and every N hours in a range.
final class YomoVdirRoundTripToolTests: ToolTestCase {
    let day = "2026-11-24"

    func yomo(_ side: String, _ args: String...) -> RunResult {
        run("yomo", ["--now", "\(day)T08:00:00-05:00"] + args,
            env: ["YOMO_DATA_DIR": tmp + "/\(side)-data", "YOMO_ACTOR": side, "XDG_CONFIG_HOME": tmp + "/\(side)-config"])
    }

    func vdirsyncer(_ args: String...) -> ProgramResult {
        runProgram(command("vdirsyncer"), ["-c", tmp + "/vdirsyncer.conf"] + args,
                   env: ["HOME": tmp, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], timeout: 120)
    }

    /// What both sides must agree on, one line per reminder, sorted: not the
    /// anchor, which iCalendar writes as the first occurrence (the same
    /// occurrences from another start).
    func view(_ side: String) -> [String] {
        let r = yomo(side, "export")
        XCTAssertEqual(r.code, 0, r.err)
        return r.records.map { o in
            let rec = (o["recurrence"] as? [String: Any]).flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }
                .map { String(decoding: $0, as: UTF8.self) } ?? ""
            let fields: [Any?] = [o["title"], o["notes"], o["trigger_at"], o["status"], o["tz"], o["warn_minutes"]]
            return fields.map { $0.map { "\($0)" } ?? "-" }.joined(separator: " | ") + " | " + rec
        }.sorted()
    }

    /// The two views agree; else the first differences, each side's.
    func same(_ a: [String], _ b: [String], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let onlyA = Set(a).subtracting(b).sorted().prefix(3), onlyB = Set(b).subtracting(a).sorted().prefix(3)
        XCTAssertTrue(a == b, "\(what): \(a.count) vs \(b.count); only in A: \(onlyA); only in B: \(onlyB)", file: file, line: line)
    }

    func testAThousandRemindersRoundTripWithNothingLostOrTwice() throws {
        try require(.vdirsyncer)
        var g = SeededRandom(seed: 22)
        let words = ["water", "plants", "call, mom", "pay; rent", "back\\slash", "Grüße", "日本", "meds\nwith food", "gym", "taxes"]
        var lines: [String] = []
        for i in 0..<1000 {
            let title = "\(words[Int(g.next() % 10)]) \(words[Int(g.next() % 10)]) #\(i)"
            let d = 25 + Int(g.next() % 5)
            let t = String(format: "%02d:%02d", 6 + Int(g.next() % 14), Int(g.next() % 4) * 15)
            var o: [String: Any] = ["title": title, "anchor": "2026-11-\(d)T\(t):00", "tz": ["America/New_York", "Europe/Berlin", "Asia/Tokyo"][Int(g.next() % 3)]]
            if g.next() % 3 == 0 { o["notes"] = words[Int(g.next() % 10)] }
            switch g.next() % 4 {
            case 0: o["recurrence"] = ["type": "daily"]
            case 1: o["recurrence"] = ["type": "weekly", "days_of_week": ["mon", "thu"]]
            case 2: o["recurrence"] = ["type": "custom", "interval": 2, "unit": "hour", "time_range_start": "09:00", "time_range_end": "17:00"]
            default: break
            }
            if g.next() % 5 == 0 { o["warn_minutes"] = 10 }
            lines.append(String(decoding: try JSONSerialization.data(withJSONObject: o, options: [.sortedKeys]), as: UTF8.self))
        }
        let fm = FileManager.default
        for d in ["a-vdir", "b-vdir", "status", "a-config/yomo"] { try fm.createDirectory(atPath: tmp + "/" + d, withIntermediateDirectories: true) }
        try "vdir = \(tmp)/a-vdir\n".write(toFile: tmp + "/a-config/yomo/config", atomically: true, encoding: .utf8)
        try """
            [general]
            status_path = "\(tmp)/status/"
            [pair ab]
            a = "a"
            b = "b"
            collections = null
            conflict_resolution = "b wins"
            [storage a]
            type = "filesystem"
            path = "\(tmp)/a-vdir/"
            fileext = ".ics"
            [storage b]
            type = "filesystem"
            path = "\(tmp)/b-vdir/"
            fileext = ".ics"
            """.write(toFile: tmp + "/vdirsyncer.conf", atomically: true, encoding: .utf8)
        // yomo A imports them: the import writes A's vdir (vdir = PATH).
        let imported = yomo("a", "import", write("all.ndjson", lines.joined(separator: "\n") + "\n"))
        XCTAssertEqual(imported.code, 0, imported.err)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: tmp + "/a-vdir").filter { $0.hasSuffix(".ics") }.count, 1000)
        XCTAssertEqual(runProgram("/bin/sh", ["-c", "yes | vdirsyncer -c \(tmp)/vdirsyncer.conf discover"],
                                  env: ["HOME": tmp, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], timeout: 60).status, 0)
        XCTAssertEqual(vdirsyncer("sync").status, 0)
        let b = yomo("b", "vdir", "sync", tmp + "/b-vdir")
        XCTAssertEqual(b.code, 0, b.err)
        XCTAssertEqual(b.records.filter { $0["change"] as? String == "created" }.count, 1000)
        let a = view("a")
        XCTAssertEqual(a.count, 1000)
        XCTAssertEqual(Set(a).count, 1000, "a reminder twice")
        same(a, view("b"), "after A to B")
        // Another client on B's side completes, deletes and renames some (by rename, as clients write).
        let names = try fm.contentsOfDirectory(atPath: tmp + "/b-vdir").filter { $0.hasSuffix(".ics") }.sorted()
        var changed = 0
        for (k, n) in names.enumerated() where k % 7 == 0 {
            let path = tmp + "/b-vdir/" + n
            if k % 3 == 0 { unlink(path); changed += 1; continue }
            var text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\r\n ", with: "")
            text = k % 3 == 1 ? text.replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED\r\nCOMPLETED:20261124T140000Z")
                              : text.replacingOccurrences(of: "\r\nSUMMARY:", with: "\r\nSUMMARY:renamed ")
            try text.write(toFile: path + ".new", atomically: false, encoding: .utf8)
            XCTAssertEqual(rename(path + ".new", path), 0)
            changed += 1
        }
        let b2 = yomo("b", "vdir", "sync", tmp + "/b-vdir")
        XCTAssertEqual(b2.code, 0, b2.err)
        XCTAssertEqual(b2.records.filter { $0["direction"] as? String == "in" }.count, changed, b2.err)
        XCTAssertEqual(vdirsyncer("sync").status, 0)
        let a2 = yomo("a", "vdir", "sync")
        XCTAssertEqual(a2.code, 0, a2.err)
        XCTAssertEqual(a2.records.filter { $0["type"] as? String == "conflict" }.count, 0, a2.out)
        let after = view("b")
        XCTAssertEqual(after.count, 1000 - names.enumerated().filter { $0.offset % 21 == 0 }.count)
        same(view("a"), after, "after B to A")
    }
}
