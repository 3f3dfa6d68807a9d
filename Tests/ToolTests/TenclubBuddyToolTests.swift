import XCTest

final class TenclubBuddyToolTests: ToolTestCase {
    let now = "2026-11-22T09:00:00-05:00"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["TENCLUB_NOW"] = now
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    var sentLog: String { tmp + "/sent.ndjson" }
    var sender: String { "cat >> '\(sentLog)'" }
    func sent() -> [[String: Any]] {
        ((try? String(contentsOfFile: sentLog, encoding: .utf8)) ?? "").split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func testNoBuddyShowsHowToEnterOne() {
        XCTAssertEqual(tenclub("buddy", "--format", "text").out,
                       "Enter phone number of accountability buddy:\n  tenclub buddy set 415-555-0132 [--name NAME]\n")
        XCTAssertEqual(tenclub("buddy").out, #"{"type":"buddy","number":null,"name":null,"state":"none"}"# + "\n")
    }

    func testBuddySetAcceptsUSNumbersOnly() {
        let bad = tenclub("buddy", "set", "+44 20 7946 0958")
        XCTAssertEqual(bad.code, 65)
        XCTAssertEqual(bad.err, "tenclub: buddy number must be a US number like 415-555-0132 (only +1 numbers are accepted)\n")
        let r = tenclub("buddy", "set", "(415) 555-0132", "--name", "Sam")
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.records[0]["number"] as? String, "+14155550132")
        XCTAssertEqual(r.records[0]["state"] as? String, "invited")
        XCTAssertEqual(r.records[0]["invitation_queued"] as? Bool, true)
        let text = tenclub("buddy", "--format", "text").out
        XCTAssertTrue(text.contains("Sam 415-555-0132"), text)
        XCTAssertTrue(text.contains("waiting for them to text YES"), text)
        let outbox = tenclub("sms", "outbox").records
        XCTAssertEqual(outbox.count, 1)
        XCTAssertEqual(outbox[0]["type"] as? String, "sms")
        XCTAssertEqual(outbox[0]["to"] as? String, "+14155550132")
        XCTAssertTrue((outbox[0]["body"] as? String ?? "").hasPrefix("Hi there, your friend has requested"))
        // The same number again sends no second invitation.
        let again = tenclub("buddy", "set", "415-555-0132")
        XCTAssertEqual(again.records[0]["invitation_queued"] as? Bool, false)
        XCTAssertTrue(again.err.contains("already your buddy"), again.err)
        XCTAssertEqual(tenclub("sms", "outbox").records.count, 1)
    }

    func testDeliverFailureKeepsTheMessageSuccessMarksItSentAndNothingTwice() {
        tenclub("buddy", "set", "415-555-0132")
        let failing = tenclub("sms", "deliver", "--command", "exit 7")
        XCTAssertEqual(failing.code, 75)
        XCTAssertEqual(failing.records[0]["delivery"] as? String, "failed")
        XCTAssertEqual(failing.records[0]["exit_status"] as? Int, 7)
        XCTAssertEqual(failing.err, "tenclub: 1 message not delivered (the command exited 7); queued for the next run\n")
        XCTAssertEqual(tenclub("sms", "outbox").records.count, 1)
        let early = tenclub("sms", "deliver", "--command", sender, "--now", "2026-11-22T09:00:30-05:00")
        XCTAssertEqual(early.code, 0, "a failure waits a minute before its next try: \(early.err)")
        XCTAssertEqual(early.out, "")
        XCTAssertEqual(tenclub("sms", "outbox").records.first?["retry_at"] as? String, "2026-11-22T09:01:00-05:00")
        let ok = tenclub("sms", "deliver", "--now", "2026-11-22T09:01:00-05:00", "--command",
                         "\(sender); printf '%s|%s|%s\\n' \"$TENCLUB_SMS_TO\" \"$TENCLUB_SMS_ID\" \"${TENCLUB_SMS_BODY%% *}\" >> '\(tmp)/env.txt'")
        XCTAssertEqual(ok.code, 0, ok.err)
        XCTAssertEqual(ok.records[0]["delivery"] as? String, "sent")
        XCTAssertEqual(ok.records[0]["attempts"] as? Int, 2)
        XCTAssertEqual(sent().count, 1)
        XCTAssertEqual(sent()[0]["kind"] as? String, "invite")
        let id = sent()[0]["id"] as! String
        XCTAssertEqual(try String(contentsOfFile: tmp + "/env.txt", encoding: .utf8), "+14155550132|\(id)|Hi\n")
        let second = tenclub("sms", "deliver", "--command", sender)
        XCTAssertEqual(second.code, 0)
        XCTAssertEqual(second.out, "")
        XCTAssertEqual(sent().count, 1)
        XCTAssertEqual(tenclub("sms", "outbox").out, "")
    }

    func testSendingCommandFromTheConfigFile() throws {
        tenclub("buddy", "set", "415-555-0132")
        let missing = tenclub("sms", "deliver")
        XCTAssertEqual(missing.code, 78)
        XCTAssertEqual(missing.err, "tenclub: no sending command: use --command CMD or set sms_command in \(tmp)/config/tenclub/config\n")
        try FileManager.default.createDirectory(atPath: tmp + "/config/tenclub", withIntermediateDirectories: true)
        _ = write("config/tenclub/config", "# senders\nsms_comand = true\n")
        let typo = tenclub("sms", "deliver")
        XCTAssertEqual(typo.code, 78)
        XCTAssertEqual(typo.err, "tenclub: \(tmp)/config/tenclub/config:2: unknown setting 'sms_comand' (known: sms_command, sms_timeout, sms_device, sync_dir, signing_key)\n")
        _ = write("config/tenclub/config", "# senders\nsms_command = \(sender)\n")
        XCTAssertEqual(tenclub("sms", "deliver").code, 0)
        XCTAssertEqual(sent().count, 1)
    }

    func testConsentByTextAndOneAlertPerDay() {
        tenclub("buddy", "set", "415-555-0132")
        // Before YES: busting sends nothing but the invitation.
        for i in 0..<11 { tenclub("unlock", "-q", "--at", "2026-11-21 08:\(10 + i)") }
        tenclub("sms", "deliver", "--command", sender)
        XCTAssertEqual(sent().map { $0["kind"] as? String }, ["invite"])
        let yes = tenclub("sms", "receive", stdin: #"{"from":"+14155550132","body":" Yes ","at":"2026-11-22T08:00:00-05:00"}"# + "\n")
        XCTAssertEqual(yes.records[0]["effect"] as? String, "accepted")
        XCTAssertEqual(yes.records[0]["buddy_state"] as? String, "accepted")
        var alerts = 0
        for i in 0..<14 {
            let r = tenclub("unlock", "--at", "2026-11-22 08:\(10 + i)")
            if r.records[0]["alert_queued"] as? Bool == true { alerts += 1; XCTAssertEqual(r.records[0]["unlocks"] as? Int, 11) }
        }
        XCTAssertEqual(alerts, 1)
        // Re-running and late unlocks for a finished day change nothing.
        let late = write("late.ndjson", (0..<12).map { "{\"at\":\"2026-11-20T09:\(10 + $0):00-05:00\"}\n" }.joined())
        XCTAssertEqual(tenclub("ingest", late).records.first?["alert_queued"] as? Bool, false)
        tenclub("rollover")
        tenclub("sms", "deliver", "--command", sender)
        tenclub("sms", "deliver", "--command", sender)
        XCTAssertEqual(sent().map { $0["kind"] as? String }, ["invite", "welcome", "alert"])
        XCTAssertEqual(sent()[2]["body"] as? String,
                       "This is the Tenclub accountabilitybot - your friend has exceeded their limit for today - don't be too hard on them! (Text STOP to unsubscribe)")
        XCTAssertEqual(sent()[2]["date"] as? String, "2026-11-22")
    }

    /// One alert a day, even when the count crosses ten twice: bust, undo
    /// the last unlock, unlock again.
    func testBustUndoAndBustAgainIsStillOneAlert() {
        tenclub("buddy", "set", "415-555-0132")
        tenclub("sms", "receive", stdin: #"{"from":"+14155550132","body":"YES","at":"2026-11-22T08:00:00-05:00"}"# + "\n")
        for i in 0..<11 { tenclub("unlock", "-q", "--at", "2026-11-22 08:\(10 + i)") }
        XCTAssertEqual(tenclub("sms", "outbox").records.filter { $0["kind"] as? String == "alert" }.count, 1)
        let undo = tenclub("unlock", "--undo")
        XCTAssertEqual(undo.code, 0, undo.err)
        XCTAssertEqual(undo.records.first?["unlocks"] as? Int, 10)
        let again = tenclub("unlock", "--at", "2026-11-22 08:30")
        XCTAssertEqual(again.records.first?["unlocks"] as? Int, 11)
        XCTAssertEqual(again.records.first?["alert_queued"] as? Bool, false)
        XCTAssertEqual(tenclub("sms", "outbox").records.filter { $0["kind"] as? String == "alert" }.count, 1, "already alerted today")
    }

    func testStopDropsQueuedMessagesAndOtherNumbersAreReported() {
        tenclub("buddy", "set", "415-555-0132")
        tenclub("sms", "deliver", "--command", sender)
        let input = write("in.ndjson", """
        {"from":"+14155550132","body":"YES","at":"2026-11-22T08:00:00-05:00"}
        {"from":"+12125550199","body":"YES","at":"2026-11-22T08:01:00-05:00"}
        {"from":"not a number","body":"YES"}
        {"from":"+14155550132","body":"HELP","at":"2026-11-22T08:02:00-05:00"}
        {"from":"+14155550132","body":"stopall","at":"2026-11-22T08:03:00-05:00"}

        """)
        let r = tenclub("sms", "receive", input)
        XCTAssertEqual(r.code, 65)
        XCTAssertEqual(r.err, "tenclub: \(input):3: \"from\" must be a phone number like +14155550132, not 'not a number'\n")
        XCTAssertEqual(r.records.map { $0["effect"] as? String }, ["accepted", "ignored", "help_queued", "stopped"])
        XCTAssertEqual(r.records[1]["reason"] as? String, "not your buddy")
        // STOP dropped the welcome and the help reply queued before it.
        XCTAssertEqual(tenclub("sms", "outbox").out, "")
        XCTAssertEqual(tenclub("sms", "deliver", "--command", sender).out, "")
        XCTAssertEqual(sent().count, 1, "only the invitation ever went out")
        let log = tenclub("sms", "log").records
        XCTAssertEqual(log.map { "\($0["kind"]!) \($0["outcome"]!)" }, ["invite sent", "welcome dropped", "help dropped"])
        XCTAssertEqual(log[2]["reason"] as? String, "the number texted STOP")
        // Feeding the same texts again is recognised, and queues nothing.
        let again = tenclub("sms", "receive", input)
        XCTAssertEqual(again.records.map { $0["effect"] as? String }, ["duplicate", "duplicate", "duplicate", "duplicate"])
        XCTAssertEqual(tenclub("sms", "outbox").out, "")
        // START resumes.
        let start = tenclub("sms", "receive", stdin: #"{"from":"+14155550132","body":"START"}"# + "\n")
        XCTAssertEqual(start.records[0]["effect"] as? String, "accepted")
    }

    func testReplacingTheBuddyLeavesTheOldOneAlone() {
        tenclub("buddy", "set", "415-555-0132")
        tenclub("buddy", "set", "212-555-0199")
        // The change dropped the first invitation at once.
        XCTAssertEqual(tenclub("sms", "outbox").records.map { $0["to"] as? String }, ["+12125550199"])
        let d = tenclub("sms", "deliver", "--command", sender)
        XCTAssertEqual(d.records.map { $0["delivery"] as? String }, ["sent"])
        XCTAssertEqual(sent().map { $0["to"] as? String }, ["+12125550199"])
        XCTAssertEqual(tenclub("sms", "log").records.map { "\($0["to"]!) \($0["outcome"]!)" }, ["+14155550132 dropped", "+12125550199 sent"])
        let removed = tenclub("buddy", "remove")
        XCTAssertEqual(removed.records[0]["state"] as? String, "removed")
        XCTAssertEqual(tenclub("buddy", "remove").out, "", "nothing to remove prints nothing")
        XCTAssertEqual(tenclub("buddy").records[0]["state"] as? String, "none")
    }

    func testRolloverClosesEachFinishedDayOnceAndCatchesUp() {
        let log = write("u.ndjson", "{\"at\":\"2026-11-19T09:00:00-05:00\"}\n{\"at\":\"2026-11-21T09:00:00-05:00\"}\n")
        tenclub("ingest", "-q", log)
        let first = tenclub("rollover", "--now", "2026-11-21T00:00:30-05:00")
        XCTAssertEqual(first.records.map { $0["date"] as? String }, ["2026-11-19", "2026-11-20"])
        XCTAssertEqual(tenclub("rollover", "--now", "2026-11-21T00:01:00-05:00").out, "")
        // Missed two nights: one run catches up, then nothing is left.
        let late = tenclub("rollover", "--now", "2026-11-24T07:00:00-05:00")
        XCTAssertEqual(late.records.map { $0["date"] as? String }, ["2026-11-21", "2026-11-22", "2026-11-23"])
        XCTAssertEqual(late.records[0]["unlocks"] as? Int, 1)
        XCTAssertEqual(late.records[0]["card"] as? String, "AC")
        XCTAssertEqual(tenclub("rollover", "--now", "2026-11-24T08:00:00-05:00").out, "")
    }
}
