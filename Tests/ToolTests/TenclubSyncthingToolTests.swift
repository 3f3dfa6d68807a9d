import XCTest
import TestSupport

/// tenclub on three devices (laptop, phone, tablet) whose sync folders real
/// Syncthing keeps in step, each with the same crontab line `tenclub sms
/// deliver -q`, and a real sending command that appends what it is handed
/// to a file, naming the device that ran it. One device sends: the texts go
/// out once, whatever the devices saw offline.
final class TenclubSyncthingToolTests: SyncthingToolTestCase {
    override var folderID: String { "tenclub" }
    let day = "2026-11-22"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    @discardableResult
    func tenclub(_ d: Int, _ at: String, _ args: String..., stdin: String? = nil, on date: String? = nil) -> RunResult {
        run("tenclub", args, stdin: stdin, env: ["TENCLUB_DATA_DIR": tmp + "/\(names[d])-data", "TENCLUB_SYNC_DIR": folder(d),
                                                 "TENCLUB_ACTOR": names[d], "TENCLUB_NOW": "\(date ?? day)T\(at):00-05:00"])
    }

    /// What the sending command was handed: "ID KIND DEVICE" per text.
    var sent: [String] {
        ((try? String(contentsOfFile: tmp + "/sent", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The crontab line on device `d`: silent whatever it does.
    @discardableResult
    func cron(_ d: Int, _ at: String, on date: String? = nil, file: StaticString = #filePath, line: UInt = #line) -> Int32 {
        let r = tenclub(d, at, "sms", "deliver", "-q", "--command", "echo \"$TENCLUB_SMS_ID $(jq -r .kind) \(names[d])\" >> \(tmp)/sent",
                        on: date)
        XCTAssertTrue(r.code == 0 || r.code == 77, "\(names[d]) \(at): exit \(r.code) \(r.err)", file: file, line: line)
        XCTAssertEqual(r.out + r.err, "", "\(names[d]) \(at): cron would mail this", file: file, line: line)
        return r.code
    }

    func testThreeDevicesOverSyncthingTextTheBuddyOnce() throws {
        try require(.jq)
        names = ["laptop", "phone", "tablet"]
        try startSyncthing()
        XCTAssertEqual(tenclub(0, "07:00", "buddy", "set", "415-555-0132", "--name", "Sam", "-q").code, 0)
        synced("the buddy")

        // Offline, all three run their first deliver in the same minute:
        // each takes the role of sending, none sends while it settles.
        setPaused(true)
        for d in 0..<3 {
            let r = tenclub(d, "07:01", "sms", "deliver", "--command", "echo \(names[d]) >> \(tmp)/sent")
            XCTAssertEqual(r.code, 0, "\(names[d]): \(r.err)")
            XCTAssertTrue(r.err.contains("this device took the role of sending texts; it sends them from 2026-11-22T07:06:"), r.err)
        }
        XCTAssertEqual(sent, [], "nobody sends while the role settles")
        setPaused(false)
        synced("the three claims")
        var codes: [Int32] = []
        for d in 0..<3 { codes.append(cron(d, "07:07")) }
        XCTAssertEqual(codes.filter { $0 == 0 }.count, 1, "one device sends, the others exit 77: \(codes)")
        guard let senderIndex = codes.firstIndex(of: 0) else { return }
        let sender = names[senderIndex]
        XCTAssertEqual(sent.map { $0.split(separator: " ").dropFirst().joined(separator: " ") }, ["invite \(sender)"], "the invitation goes out once")
        // A refusal says who sends, when asked.
        let other = (senderIndex + 1) % 3
        let asked = tenclub(other, "07:07", "sms", "deliver", "--command", "true")
        XCTAssertEqual(asked.code, 77)
        XCTAssertTrue(asked.err.contains("texts are sent from the device '\(sender)', where 'tenclub sms deliver' ran first"), asked.err)

        // Sam says YES through the gateway on any device.
        let yes = tenclub(other, "07:10", "sms", "receive", "-q", stdin: #"{"from":"+14155550132","body":"YES"}"# + "\n")
        XCTAssertEqual(yes.code, 0, yes.err)
        synced("the YES")
        for d in 0..<3 { cron(d, "07:11") }
        XCTAssertEqual(sent.filter { $0.contains(" welcome ") }.count, 1, "\(sent)")

        // Offline: six unlocks on the laptop, six on the phone; nobody is
        // past ten alone. Every device's cron runs after each.
        setPaused(true)
        for m in 10..<16 {
            XCTAssertEqual(tenclub(0, "08:\(m)", "unlock", "-q").code, 0)
            XCTAssertEqual(tenclub(1, "09:\(m)", "unlock", "-q").code, 0)
            for d in 0..<3 { cron(d, "09:\(m)") }
        }
        XCTAssertFalse(sent.contains { $0.contains(" alert ") }, "offline, no device has seen 11")
        setPaused(false)
        synced("the twelve unlocks")
        XCTAssertEqual(tenclub(2, "09:31", "status").records.first?["unlocks"] as? Int, 12, "the tablet sees all twelve")
        for d in 0..<3 { cron(d, "09:31") }
        XCTAssertEqual(sent.filter { $0.contains(" alert ") }, ["alert-2026-11-22 alert \(sender)"], "the merge busts the day: one text")
        XCTAssertEqual(tenclub(1, "09:33", "unlock", "-q").code, 0)
        synced("the 13th")
        for d in 0..<3 { cron(d, "09:34") }
        XCTAssertEqual(sent.filter { $0.contains(" alert ") }.count, 1, "not again at the 13th")

        // The next day, offline, the laptop and the phone each pass ten on
        // their own, the device that does not send first: each queues the
        // day's alert; it goes out once, from the sender, with no second
        // text when the copies meet.
        let next = "2026-11-23"
        let notSender = (senderIndex + 1) % 3
        setPaused(true)
        for (d, hour) in [(notSender, "08"), (senderIndex, "09")] {
            for m in 10..<21 { XCTAssertEqual(tenclub(d, "\(hour):\(m)", "unlock", "-q", on: next).code, 0) }
            for k in 0..<3 { cron(k, "\(hour):21", on: next) }
        }
        setPaused(false)
        synced("both devices' eleven")
        for d in 0..<3 { cron(d, "10:00", on: next) }
        XCTAssertEqual(sent.filter { $0.contains(" alert ") }, ["alert-2026-11-22 alert \(sender)", "alert-2026-11-23 alert \(sender)"])
        XCTAssertEqual(Set(sent.map { String($0.split(separator: " ").last!) }), [sender], "every text from the one device that sends")
        // Every copy tells the same story.
        let logs = (0..<3).map { d in tenclub(d, "10:01", "sms", "log", on: next).records.map { "\($0["id"]!) \($0["outcome"]!)" } }
        XCTAssertEqual(logs[0].count, 4, "\(logs[0])")
        XCTAssertEqual(logs[1], logs[0])
        XCTAssertEqual(logs[2], logs[0])
        let conflicts = (0..<3).flatMap { d in ((try? FileManager.default.contentsOfDirectory(atPath: folder(d))) ?? []).filter { $0.contains("sync-conflict") } }
        XCTAssertEqual(conflicts, [])
    }
}
