import XCTest

/// `--nag` and several `--warn` alerts through the executables, on a laptop
/// and a phone that share a sync folder, as cron runs `due` on each.
final class YomoNagToolTests: ToolTestCase {
    var folder: String { tmp + "/Sync/yomo" }

    @discardableResult
    func yomo(_ device: String, _ args: String..., at time: String, stdin: String? = nil) -> RunResult {
        run("yomo", args, stdin: stdin, env: ["YOMO_DATA_DIR": tmp + "/yomo-\(device)", "YOMO_SYNC_DIR": folder, "YOMO_ACTOR": device,
                                              "YOMO_NOW": "2026-11-23T\(time):00-05:00", "TZ": "America/New_York"])
    }

    func testNagsUntilDismissedOnceAnIntervalOverBothDevices() throws {
        let added = yomo("laptop", "add", "take pills at 9am", "--nag", "10m", "--warn", "1h,15m", at: "06:00")
        XCTAssertEqual(added.code, 0, added.err)
        let rec = try XCTUnwrap(added.records.first)
        let id = try XCTUnwrap(rec["id"] as? String)
        XCTAssertEqual(rec["alerts"] as? [Int], [60, 15])
        XCTAssertEqual(rec["warn_minutes"] as? Int, 60)
        XCTAssertEqual(rec["nag_minutes"] as? Int, 10)
        // Each device gives each alert, then the occurrence, for itself.
        var said: [String] = []
        func due(_ d: String, _ time: String) {
            let r = yomo(d, "due", at: time)
            XCTAssertEqual(r.code, 0, r.err)
            for n in r.records {
                let kind = n["nag"] as? Bool == true ? "nag" : n["warning"] as? Bool == true ? "alert" : "due"
                said.append("\(d) \(time) \(kind)")
            }
        }
        for (d, time) in [("laptop", "08:00"), ("phone", "08:01"), ("laptop", "08:45"), ("laptop", "08:46"), ("phone", "08:50"),
                          ("laptop", "09:00"), ("phone", "09:02"), ("phone", "09:10"), ("laptop", "09:11"), ("laptop", "09:19"),
                          ("laptop", "09:21"), ("phone", "09:22"), ("phone", "09:35")] {
            due(d, time)
        }
        XCTAssertEqual(said, ["laptop 08:00 alert", "phone 08:01 alert", "laptop 08:45 alert", "phone 08:50 alert",
                              "laptop 09:00 due", "phone 09:02 due", "phone 09:10 nag", "laptop 09:21 nag", "phone 09:35 nag"])
        let nag = yomo("laptop", "due", at: "09:40").records.first
        XCTAssertEqual(nag?["body"] as? String, "Still not done: due 2026-11-23 09:00")
        XCTAssertEqual(nag?["dismiss_command"] as? String, "yomo dismiss \(id)")
        XCTAssertEqual((nag?["actions"] as? [[String: Any]])?.compactMap { $0["id"] as? String }, ["snooze5", "snooze15", "snooze60", "complete", "dismiss"])

        // Dismissed on the phone: neither device nags again; the reminder stays to do.
        let dismissed = yomo("phone", "dismiss", String(id.prefix(6)), at: "09:41")
        XCTAssertEqual(dismissed.code, 0, dismissed.err)
        XCTAssertEqual(dismissed.records.first?["status"] as? String, "active")
        for (d, time) in [("laptop", "09:50"), ("phone", "10:30"), ("laptop", "12:00")] {
            XCTAssertEqual(yomo(d, "due", at: time).out, "", "\(d) \(time)")
        }
        XCTAssertEqual(yomo("laptop", "list", "--overdue", at: "12:00").records.compactMap { $0["id"] as? String }, [id])
        let shown = yomo("laptop", "show", id, "--format", "text", at: "12:00")
        XCTAssertTrue(shown.out.contains("alerts:    1h before, 15m before"), shown.out)
        XCTAssertTrue(shown.out.contains("nags:      every 10m until done, snoozed or dismissed"), shown.out)
        XCTAssertTrue(shown.out.contains("dismissed"), shown.out)
    }

    func testOptionsAreCheckedAndAnEditKeepsOrClearsThem() throws {
        let bad: [([String], String)] = [
            (["--nag", "0s"], "yomo: --nag must be a duration from 1m to 1d like 5m or 1h, or 0 for none, not '0s'\n"),
            (["--nag", "2d"], "yomo: --nag must be a duration from 1m to 1d like 5m or 1h, or 0 for none, not '2d'\n"),
            (["--warn", "8d"], "yomo: --warn takes durations from 1m to 7d like 10m, 1h or 1d,15m (at most five), or 0 for none, not '8d'\n"),
            (["--warn", "1h,,5m"], "yomo: --warn takes durations from 1m to 7d like 10m, 1h or 1d,15m (at most five), or 0 for none, not '1h,,5m'\n"),
            (["--warn", "1m,2m,3m,4m,5m,6m"], "yomo: --warn takes at most five durations, not 6\n"),
        ]
        for (args, err) in bad {
            let r = run("yomo", ["add", "x", "tomorrow at 9"] + args, env: ["YOMO_DATA_DIR": dataDir, "YOMO_NOW": "2026-11-23T06:00:00-05:00"])
            XCTAssertEqual(r.code, 64, "\(args)")
            XCTAssertEqual(r.err, err)
        }
        XCTAssertEqual(run("yomo", ["list"], env: ["YOMO_DATA_DIR": dataDir]).out, "", "nothing was stored")

        let id = try XCTUnwrap(yomo("laptop", "add", "stretch at 9am", "--nag", "5m", "--warn", "15m,1d,15m", at: "06:00").records.first?["id"] as? String)
        let renamed = yomo("laptop", "edit", id, "--title", "stretch well", at: "06:01")
        XCTAssertEqual(renamed.records.first?["alerts"] as? [Int], [1440, 15], "duplicates dropped, largest first, kept by a new title")
        XCTAssertEqual(renamed.records.first?["nag_minutes"] as? Int, 5)
        let quiet = yomo("laptop", "edit", id, "--nag", "0", "--warn", "0", at: "06:02")
        XCTAssertNil(quiet.records.first?["nag_minutes"])
        XCTAssertNil(quiet.records.first?["alerts"])
        XCTAssertEqual(yomo("laptop", "due", at: "09:00").records.count, 1)
        XCTAssertEqual(yomo("laptop", "due", at: "09:30").out, "", "no nag once it is off")

        // Turning nagging off after it was announced announces nothing again.
        let nagging = try XCTUnwrap(yomo("laptop", "add", "pills at 9pm", "--nag", "10m", "--warn", "15m", at: "20:00").records.first?["id"] as? String)
        XCTAssertEqual(yomo("laptop", "due", at: "21:00").records.count, 1)
        let off = yomo("laptop", "edit", nagging, "--nag", "0", at: "21:02")
        XCTAssertEqual(off.code, 0, off.err)
        XCTAssertEqual(off.err, "")
        XCTAssertEqual(yomo("laptop", "due", at: "21:03").out, "", "not announced again")
        XCTAssertEqual(yomo("laptop", "due", at: "21:20").out, "", "and no nag")
        XCTAssertEqual(yomo("laptop", "dismiss", nagging, at: "21:21").code, 0)
        let again = yomo("laptop", "dismiss", nagging, at: "21:22")
        XCTAssertEqual(again.code, 65)
        XCTAssertEqual(again.err, "yomo: reminder \(nagging) is dismissed already (it stays to be done): nothing changed\n")

        let early = yomo("laptop", "dismiss", id, at: "06:03")
        XCTAssertEqual(early.code, 65)
        XCTAssertEqual(early.err, "yomo: reminder \(id) is not due until 2026-11-23T09:00:00-05:00; dismiss acts on a reminder that has come due, nothing changed\n")
    }

    /// iCalendar both ways: one VALARM per alert, the nag as the start's
    /// alarm repeating; read back by yomo as they were.
    func testAlertsAndNagTravelThroughICalendar() throws {
        XCTAssertEqual(yomo("laptop", "add", "stretch every day at 9am", "--nag", "20m", "--warn", "1d,15m", at: "06:00").code, 0)
        let ics = yomo("laptop", "export", "--format", "ics", at: "06:01").out
        XCTAssertTrue(ics.contains("TRIGGER:PT0M\r\nREPEAT:72\r\nDURATION:PT20M\r\nEND:VALARM"), ics)
        XCTAssertTrue(ics.contains("TRIGGER:-PT1440M\r\n"), ics)
        XCTAssertTrue(ics.contains("TRIGGER:-PT15M\r\n"), ics)
        let back = yomo("desk", "import", "--from", "ical", "-", at: "06:02", stdin: ics)
        XCTAssertEqual(back.code, 0, back.err)
        // An Apple-shaped file: two alarms before the start, none repeating.
        let apple = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Apple Inc.//iOS 17.0//EN\r\nBEGIN:VTODO\r\nUID:A1B2\r\nSUMMARY:dentist\r\n\
            DTSTART;TZID=America/New_York:20261130T140000\r\nDUE;TZID=America/New_York:20261130T140000\r\n\
            BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Reminder\r\nTRIGGER:-P1D\r\nEND:VALARM\r\n\
            BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Reminder\r\nTRIGGER:-PT30M\r\nEND:VALARM\r\nEND:VTODO\r\nEND:VCALENDAR\r\n
            """
        let imported = yomo("desk", "import", "--from", "ical", "-", at: "06:03", stdin: apple)
        XCTAssertEqual(imported.code, 0, imported.err)
        let list = yomo("desk", "list", at: "06:04").records
        XCTAssertEqual(list.first { $0["title"] as? String == "dentist" }?["alerts"] as? [Int], [1440, 30])
        let stretch = list.filter { $0["title"] as? String == "stretch" }
        XCTAssertEqual(stretch.count, 1, "the laptop's own reminder, imported once (its file came from the sync folder too)")
        XCTAssertEqual(stretch.first?["alerts"] as? [Int], [1440, 15])
        XCTAssertEqual(stretch.first?["nag_minutes"] as? Int, 20)
    }
}
