import XCTest

/// Which device sends tenclub's texts, tried as people get it wrong: the
/// same crontab line on a device with no sending command, a configuration
/// that names this device while another took the role over, two devices
/// each named in their own configuration, a misspelt name, a peer's clock a
/// day ahead. Devices A and B, each with its own data directory, sync
/// folder and configuration; the sync engine is a copy by hand.
final class TenclubSenderToolTests: ToolTestCase {
    func dev(_ d: String, _ args: [String], at now: String, stdin: String? = nil) -> RunResult {
        run("tenclub", args, stdin: stdin, env: ["TENCLUB_DATA_DIR": tmp + "/\(d)-data", "TENCLUB_SYNC_DIR": tmp + "/Sync-\(d)",
                                                 "TENCLUB_ACTOR": d, "TENCLUB_NOW": now, "XDG_CONFIG_HOME": tmp + "/cfg-\(d)"])
    }

    func config(_ d: String, _ text: String) {
        XCTAssertNoThrow(try FileManager.default.createDirectory(atPath: tmp + "/cfg-\(d)/tenclub", withIntermediateDirectories: true))
        _ = write("cfg-\(d)/tenclub/config", text)
    }

    /// Each device's own journal into the other's folder (temporary name, then rename).
    func exchange() {
        for (a, b) in [("A", "B"), ("B", "A")] {
            guard let bytes = FileManager.default.contents(atPath: tmp + "/Sync-\(a)/\(a).ndjson") else { continue }
            try? FileManager.default.createDirectory(atPath: tmp + "/Sync-\(b)", withIntermediateDirectories: true)
            XCTAssertTrue(FileManager.default.createFile(atPath: tmp + "/Sync-\(b)/.tmp", contents: bytes))
            XCTAssertEqual(rename(tmp + "/Sync-\(b)/.tmp", tmp + "/Sync-\(b)/\(a).ndjson"), 0)
        }
    }

    /// A real sending command: appends each record it is handed to a file.
    var sender: String {
        let path = write("send.sh", "#!/bin/sh\ncat >> '\(tmp)/sent'; echo >> '\(tmp)/sent'\n")
        chmodPath(path, 0o755)
        return path
    }

    /// What was handed over: one kind per text.
    var sent: [String] {
        ((try? String(contentsOfFile: tmp + "/sent", encoding: .utf8)) ?? "").split(separator: "\n")
            .compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }.compactMap { $0["id"] as? String }
    }

    /// A with the buddy (who said YES) and B with a copy.
    func buddy() {
        XCTAssertEqual(dev("A", ["buddy", "set", "415-555-0132", "-q"], at: "2026-11-22T07:00:00-05:00").code, 0)
        XCTAssertEqual(dev("A", ["sms", "receive", "-q"], at: "2026-11-22T07:01:00-05:00",
                           stdin: #"{"from":"+14155550132","body":"YES"}"# + "\n").code, 0)
        exchange()
    }

    func bust(_ d: String, on day: String, hour: String = "08") {
        for m in 10..<21 { XCTAssertEqual(dev(d, ["unlock", "-q"], at: "\(day)T\(hour):\(m):00-05:00").code, 0) }
    }

    /// The same crontab line on a device that does not send and has no
    /// sending command: 77 without a word, not "no sending command" mailed
    /// every minute; it does not take the role either.
    func testADeviceWithoutASendingCommandStaysQuietAndDoesNotTakeTheRole() {
        let cmd = sender
        config("A", "sms_command = \(cmd)\n")
        buddy()
        let b = dev("B", ["sms", "deliver", "-q"], at: "2026-11-22T07:02:00-05:00")
        XCTAssertEqual(b.code, 78, "texts wait and this device has no command: that needs a person")
        XCTAssertTrue(b.err.contains("no sending command"), b.err)
        XCTAssertFalse((try? String(contentsOfFile: tmp + "/Sync-B/B.ndjson", encoding: .utf8))?.contains("sms_device") ?? false,
                       "a device that cannot send does not take the role")
        XCTAssertEqual(dev("A", ["sms", "deliver", "-q"], at: "2026-11-22T07:03:00-05:00").code, 0)
        exchange()
        let later = dev("B", ["sms", "deliver", "-q"], at: "2026-11-22T07:10:00-05:00")
        XCTAssertEqual(later.code, 77)
        XCTAssertEqual(later.out + later.err, "", "the device that does not send needs no command")
        XCTAssertEqual(dev("A", ["sms", "deliver", "-q"], at: "2026-11-22T07:10:00-05:00").code, 0)
        XCTAssertEqual(sent.count, 1, "the welcome, from A (the invitation was answered before it went out)")
    }

    /// A's configuration names A; B takes the role over: A does not take it
    /// back (both would send), and says so even from cron; the day's alert
    /// goes out once, from B.
    func testAConfigurationDoesNotFightATakeOver() {
        let cmd = sender
        config("A", "sms_command = \(cmd)\nsms_device = A\n")
        config("B", "sms_command = \(cmd)\n")
        buddy()
        XCTAssertEqual(dev("A", ["sms", "deliver", "-q"], at: "2026-11-22T07:05:00-05:00").code, 0)
        XCTAssertEqual(dev("A", ["sms", "deliver", "-q"], at: "2026-11-22T07:11:00-05:00").code, 0)
        exchange()
        let take = dev("B", ["sms", "deliver", "--take-over"], at: "2026-11-22T10:00:00-05:00")
        XCTAssertEqual(take.code, 0, take.err)
        exchange()
        bust("A", on: "2026-11-23")
        exchange()
        let a = dev("A", ["sms", "deliver", "-q"], at: "2026-11-23T09:01:00-05:00")
        XCTAssertEqual(a.code, 77)
        XCTAssertEqual(a.err, "tenclub: texts are sent from the device 'B', which took the role over from this one, though sms_device in \(tmp)/cfg-A/tenclub/config names this device 'A': remove sms_device there (or name 'B'), or run 'tenclub sms deliver --take-over' here to send them from this one again\n",
                       "news even from cron: the configuration and the journal disagree")
        XCTAssertEqual(dev("B", ["sms", "deliver", "-q"], at: "2026-11-23T09:01:00-05:00").code, 0)
        exchange()
        XCTAssertEqual(dev("A", ["sms", "deliver", "-q"], at: "2026-11-23T09:02:00-05:00").code, 77)
        XCTAssertEqual(sent.filter { $0 == "alert-2026-11-23" }.count, 1, "\(sent)")
    }

    /// Each device named in its own configuration: one sends; the other
    /// says the two disagree.
    func testTwoDevicesEachNamedInTheirOwnConfigurationSendOnce() {
        let cmd = sender
        config("A", "sms_command = \(cmd)\nsms_device = A\n")
        config("B", "sms_command = \(cmd)\nsms_device = B\n")
        buddy()
        bust("A", on: "2026-11-22", hour: "09")
        exchange()
        for minute in 20..<40 {
            for d in ["A", "B"] { _ = dev(d, ["sms", "deliver", "-q"], at: "2026-11-22T09:\(minute):00-05:00") }
            exchange()
        }
        XCTAssertEqual(sent.filter { $0 == "alert-2026-11-22" }.count, 1, "\(sent)")
        let said = ["A", "B"].map { dev($0, ["sms", "deliver", "-q"], at: "2026-11-22T09:41:00-05:00") }
        XCTAssertEqual(said.filter { $0.err.contains("which took the role over from this one") }.count, 1, said.map(\.err).joined())
    }

    /// A misspelt sms_device: the texts would wait for ever, silently; it
    /// is a configuration error, said even from cron, naming the devices.
    func testAMisspeltSendingDeviceIsAConfigurationError() {
        let cmd = sender
        config("A", "sms_command = \(cmd)\nsms_device = \"B\"\n")
        buddy()
        let r = dev("A", ["sms", "deliver", "-q"], at: "2026-11-22T07:05:00-05:00")
        XCTAssertEqual(r.code, 78)
        XCTAssertEqual(r.err, "tenclub: sms_device = \"B\" in \(tmp)/cfg-A/tenclub/config names no device sharing this folder (devices: A): texts wait for it\n")
    }

    /// B's clock is a day ahead: A, taking the role once B's journal has
    /// reached it, waits 5 minutes by its own clock, not a day.
    func testAPeersClockAheadDoesNotHoldTheRoleUp() {
        let cmd = sender
        config("A", "sms_command = \(cmd)\n")
        config("B", "sms_command = \(cmd)\n")
        buddy()
        XCTAssertEqual(dev("B", ["status"], at: "2026-11-23T07:00:00-05:00").code, 0)
        XCTAssertEqual(dev("B", ["unlock", "-q"], at: "2026-11-23T07:00:00-05:00").code, 0)
        exchange()
        let first = dev("A", ["sms", "deliver"], at: "2026-11-22T07:05:00-05:00")
        XCTAssertEqual(first.code, 0, first.err)
        XCTAssertTrue(first.err.contains("it sends them from 2026-11-22T07:10:00-05:00"), first.err)
        XCTAssertEqual(dev("A", ["sms", "deliver", "-q"], at: "2026-11-22T07:10:00-05:00").code, 0)
        XCTAssertEqual(sent.count, 1, "the welcome goes out 5 minutes later by A's clock")
    }
}
