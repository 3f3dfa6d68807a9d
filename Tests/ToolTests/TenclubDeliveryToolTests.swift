import XCTest
import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

/// tenclub's texts as cron, phones and a killed run treat them: at most once,
/// never past consent or their day; and unlocks counted once from any source.
final class TenclubDeliveryToolTests: ToolTestCase {
    let now = "2026-11-22T09:00:00-05:00"
    let buddy = "+14155550132"

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

    var texts = 0
    /// One inbound text, each at its own time (the same text at the same
    /// time is a duplicate).
    @discardableResult
    func receive(_ body: String, from: String? = nil) -> RunResult {
        texts += 1
        var o: [String: String] = ["from": from ?? buddy, "body": body]
        o["at"] = "2026-11-22T08:\(texts < 10 ? "0" : "")\(texts):00-05:00"
        let line = String(data: try! JSONSerialization.data(withJSONObject: o), encoding: .utf8)!
        return tenclub("sms", "receive", stdin: line + "\n")
    }

    func accepted() {
        tenclub("buddy", "set", "415-555-0132")
        tenclub("sms", "deliver", "--command", sender)
        XCTAssertEqual(receive("YES").records.first?["effect"] as? String, "accepted")
        tenclub("sms", "deliver", "--command", sender)
    }

    /// `deliver` killed while the sender runs: "sending" was recorded first,
    /// so no later run sends it again; it shows as unknown once its claim
    /// expires, and goes again only with --retry-unknown.
    func testAKilledDeliverNeverSendsTwice() throws {
        tenclub("buddy", "set", "415-555-0132")
        let pidFile = tmp + "/sender.pid"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable("tenclub"))
        p.arguments = ["sms", "deliver", "--command", "cat >> '\(sentLog)'; echo $$ > \(pidFile); exec sleep 30"]
        p.environment = baseEnvironment
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        // The sender has sent (then written its pid) when the run is killed.
        let pid = waitForLine(pidFile).flatMap { Int32($0) }
        XCTAssertNotNil(pid, "the command never started")
        kill(p.processIdentifier, SIGKILL)
        if let pid { kill(pid, SIGKILL) }
        p.waitUntilExit()
        XCTAssertEqual(sent().count, 1, "the invitation went out once")
        let again = tenclub("sms", "deliver", "--command", sender, "--now", "2026-11-22T09:01:00-05:00")
        XCTAssertEqual(again.code, 0, again.err)
        XCTAssertEqual(again.out, "")
        XCTAssertEqual(sent().count, 1, "not sent again")
        XCTAssertEqual(tenclub("sms", "outbox", "--now", "2026-11-22T09:01:00-05:00").records.first?["delivery"] as? String, "sending")
        // The claim expires a minute after the sender's timeout (60 s).
        let later = "2026-11-22T09:03:00-05:00"
        let outbox = tenclub("sms", "outbox", "--now", later)
        XCTAssertEqual(outbox.records.first?["delivery"] as? String, "unknown")
        XCTAssertTrue(tenclub("sms", "outbox", "--now", later, "--format", "text").out.contains("unknown: may have gone out; --retry-unknown sends it again"))
        // The killed run's try is in the log: unknown, with why, at its claim's expiry.
        let died = "the run handing it to the sending command ended without recording how it went (killed, or the machine went down); it may have gone out"
        func log() -> [String] { tenclub("sms", "log", "--now", later).records.map { "\($0["kind"]!) \($0["outcome"]!) \($0["attempt"]!) \($0["reason"]!)" } }
        XCTAssertEqual(log(), ["invite unknown 1 \(died)"], "before any other run")
        XCTAssertEqual(tenclub("sms", "deliver", "--command", sender, "--now", later).out, "")
        XCTAssertEqual(sent().count, 1)
        XCTAssertEqual(log(), ["invite unknown 1 \(died)"], "recorded by the next deliver, once")
        XCTAssertEqual(tenclub("sms", "deliver", "--command", sender, "--now", later).out, "")
        let retry = tenclub("sms", "deliver", "--command", sender, "--retry-unknown", "--now", later)
        XCTAssertEqual(retry.records.first?["delivery"] as? String, "sent")
        XCTAssertEqual(sent().count, 2, "sent again only when asked")
        XCTAssertEqual(log(), ["invite unknown 1 \(died)", "invite sent 2 <null>"])
        XCTAssertTrue(tenclub("sms", "log", "--format", "text").out.contains("invite  to 415-555-0132  unknown: the run handing it"))
    }

    /// A hung sender is ended at its timeout (unknown, not repeated), and it
    /// does not hold up another run meanwhile.
    func testAHungSenderTimesOutAndHoldsNothingUp() throws {
        tenclub("buddy", "set", "415-555-0132")
        let r = sh("""
        tenclub sms deliver --command 'sleep 30' --timeout 3 > \(tmp)/hung.out 2> \(tmp)/hung.err &
        for i in $(seq 100); do tenclub sms outbox | grep -q '"delivery":"sending"' && break; sleep 0.05; done
        tenclub buddy set 212-555-0199 > /dev/null
        tenclub sms deliver --command "cat >> '\(sentLog)'" > \(tmp)/other.out
        echo "other: $?"
        wait
        """)
        XCTAssertEqual(r.out, "other: 0\n", r.err)
        XCTAssertEqual(sent().map { $0["to"] as? String }, ["+12125550199"], "the second run went ahead")
        let hung = try String(contentsOfFile: tmp + "/hung.out", encoding: .utf8)
        XCTAssertTrue(hung.contains("\"delivery\":\"unknown\""), hung)
        XCTAssertEqual(try String(contentsOfFile: tmp + "/hung.err", encoding: .utf8),
                       "tenclub: 1 message may or may not have gone out (the command ran past its timeout of 3 s, or was killed); not sent again unless 'tenclub sms deliver --retry-unknown'\n")
        let log = tenclub("sms", "log").records.map { "\($0["to"]!) \($0["outcome"]!)" }
        XCTAssertEqual(log, ["+12125550199 sent", "+14155550132 unknown"], "in the order they ended")
        try FileManager.default.createDirectory(atPath: tmp + "/config/tenclub", withIntermediateDirectories: true)
        _ = write("config/tenclub/config", "sms_command = true\nsms_timeout = 0\n")
        XCTAssertEqual(tenclub("sms", "deliver").err, "tenclub: \(tmp)/config/tenclub/config: sms_timeout must be a whole number of seconds from 1 to 86400, not '0'\n")
    }

    /// Queued texts do not outlive consent: STOP, removal and a change drop
    /// what is queued; STOP/START cycles queue one welcome; an alert is for
    /// its day only.
    func testQueuedTextsDoNotOutliveConsent() {
        tenclub("buddy", "set", "415-555-0132")
        tenclub("buddy", "remove")
        tenclub("buddy", "set", "415-555-0132")
        XCTAssertEqual(tenclub("sms", "outbox").records.map { $0["kind"] as? String }, ["invite"], "one invitation, not two")
        tenclub("sms", "deliver", "--command", sender)
        for _ in 0..<6 {
            XCTAssertEqual(receive("START").code, 0)
            XCTAssertEqual(receive("STOP").code, 0)
        }
        receive("START")
        XCTAssertEqual(tenclub("sms", "outbox").records.map { $0["kind"] as? String }, ["welcome"], "six cycles, one welcome")
        tenclub("sms", "deliver", "--command", sender)
        // An alert queued before STOP never goes, even after START.
        for i in 0..<11 { tenclub("unlock", "-q", "--at", "2026-11-22 08:\(10 + i)") }
        XCTAssertEqual(tenclub("sms", "outbox").records.map { $0["kind"] as? String }, ["alert"])
        receive("STOP")
        receive("START")
        tenclub("sms", "deliver", "--command", sender)
        XCTAssertEqual(sent().map { $0["kind"] as? String }, ["invite", "welcome", "welcome"])
        // One alert a day: today's was dropped at STOP.
        for i in 0..<11 { tenclub("unlock", "-q", "--at", "2026-11-22 09:\(10 + i)", "--now", "2026-11-22T23:00:00-05:00") }
        XCTAssertEqual(tenclub("sms", "outbox", "--now", "2026-11-22T23:00:00-05:00").records.count, 0, "one alert a day, and today's was dropped")
        // An alert not handed over on its day goes out the next day naming
        // its day, and is dropped after that.
        let other = tmp + "/other"
        let env = ["TENCLUB_DATA_DIR": other]
        run("tenclub", ["buddy", "set", "415-555-0132"], env: env)
        run("tenclub", ["sms", "deliver", "--command", "true"], env: env)
        run("tenclub", ["sms", "receive"], stdin: "{\"from\":\"\(buddy)\",\"body\":\"Yes.\"}\n", env: env)
        run("tenclub", ["sms", "deliver", "--command", "true"], env: env)
        for i in 0..<11 { run("tenclub", ["unlock", "-q", "--at", "2026-11-22 20:\(10 + i)", "--now", "2026-11-22T21:00:00-05:00"], env: env) }
        let late = "This is the Tenclub accountabilitybot - your friend exceeded their limit on Sunday, November 22 - don't be too hard on them! (Text STOP to unsubscribe)"
        let tomorrow = "2026-11-23T09:00:00-05:00"
        let queued = run("tenclub", ["sms", "outbox", "--now", tomorrow], env: env)
        XCTAssertNil(queued.records.first?["will_drop"], queued.out)
        XCTAssertEqual(queued.records.first?["body"] as? String, late, "the outbox shows the words that will go")
        // The gateway fails on the day after too: still the day's words, once sent.
        XCTAssertEqual(run("tenclub", ["sms", "deliver", "--command", "exit 7", "--now", tomorrow], env: env).code, 75)
        let d = run("tenclub", ["sms", "deliver", "--command", sender, "--now", "2026-11-23T23:59:00-05:00"], env: env)
        XCTAssertEqual(d.records.first?["delivery"] as? String, "sent", d.err)
        XCTAssertEqual(sent().last?["body"] as? String, late)
        XCTAssertEqual(run("tenclub", ["sms", "log"], env: env).records.last?["body"] as? String, late, "the log keeps the words that went")
        // A day later than that, an alert is dropped, said with why.
        for i in 0..<11 { run("tenclub", ["unlock", "-q", "--at", "2026-11-24 20:\(10 + i)", "--now", "2026-11-24T21:00:00-05:00"], env: env) }
        let dayAfter = "2026-11-26T00:00:00-05:00"
        XCTAssertEqual(run("tenclub", ["sms", "outbox", "--now", dayAfter], env: env).records.first?["will_drop"] as? String,
                       "expired: an alert goes out on its day or the day after, not later")
        let dropped = run("tenclub", ["sms", "deliver", "--command", sender, "--now", dayAfter], env: env)
        XCTAssertEqual(dropped.records.first?["delivery"] as? String, "dropped")
        XCTAssertEqual(sent().count, 4, "no alert two days late")
    }

    /// A buddy who says YES on a day already past ten hears of that day:
    /// the welcome, then the day's alert, from the next deliver.
    func testAYesOnABustedDayBringsTheWelcomeThenThatDaysAlert() {
        tenclub("buddy", "set", "415-555-0132")
        tenclub("sms", "deliver", "--command", sender)
        for i in 0..<12 { tenclub("unlock", "-q", "--at", "2026-11-22 08:\(10 + i)") }
        XCTAssertEqual(tenclub("sms", "outbox").records.count, 0, "no alert to a number that has not said YES")
        receive("YES")
        let d = tenclub("sms", "deliver", "--command", sender)
        XCTAssertEqual(d.records.map { $0["kind"] as? String }, ["welcome", "alert"], d.err)
        XCTAssertEqual(sent().last?["body"] as? String, Tenclub.alertText)
        // A YES the day after a busted day brings no alert for it.
        let other = tmp + "/other"
        let env = ["TENCLUB_DATA_DIR": other]
        run("tenclub", ["buddy", "set", "415-555-0132"], env: env)
        run("tenclub", ["sms", "deliver", "--command", "true"], env: env)
        for i in 0..<12 { run("tenclub", ["unlock", "-q", "--at", "2026-11-21 08:\(10 + i)"], env: env) }
        run("tenclub", ["sms", "receive"], stdin: "{\"from\":\"\(buddy)\",\"body\":\"YES\"}\n", env: env)
        let e = run("tenclub", ["sms", "deliver", "--command", sender], env: env)
        XCTAssertEqual(e.records.map { $0["kind"] as? String }, ["welcome"], e.err)
    }

    /// Replies as phones send them, and HELP before YES.
    func testRepliesAsPhonesSendThem() {
        tenclub("buddy", "set", "415-555-0132")
        tenclub("sms", "deliver", "--command", sender)
        let help = receive("Help?")
        XCTAssertEqual(help.records.first?["effect"] as? String, "help_queued", "an invited number gets the help text")
        tenclub("sms", "deliver", "--command", sender)
        XCTAssertEqual(sent().last?["body"] as? String,
                       "Tenclub accountability texts: one text on a day your friend goes past ten screen unlocks. Text STOP to stop, START to resume.")
        XCTAssertEqual(receive("yes!").records.first?["effect"] as? String, "accepted")
        XCTAssertEqual(receive("Stop.").records.first?["effect"] as? String, "stopped")
        XCTAssertEqual(receive("YES\u{00A0}").records.first?["effect"] as? String, "accepted")
        XCTAssertEqual(receive("HELP", from: "+12125550199").records.first?["effect"] as? String, "ignored")
    }

    /// An unlock is counted once, whichever way it arrives; a hook firing
    /// twice within a second counts once; --undo takes the last one back.
    func testUnlocksCountOnceAndUndo() {
        let first = tenclub("unlock", "--at", "2026-11-22T08:15:00-05:00")
        XCTAssertEqual(first.records.first?["counted"] as? Bool, true)
        let bounce = tenclub("unlock", "--at", "2026-11-22T08:15:00.400-05:00")
        XCTAssertEqual(bounce.records.first?["counted"] as? Bool, false)
        XCTAssertEqual(bounce.records.first?["unlocks"] as? Int, 1)
        XCTAssertTrue(tenclub("unlock", "--at", "2026-11-22T08:15:00.400-05:00", "--format", "text").out.hasPrefix("Already counted"))
        let log = write("log.ndjson", "{\"at\":\"2026-11-22T08:15:00-05:00\"}\n{\"at\":\"2026-11-22T08:15:00.9-05:00\"}\n{\"at\":\"2026-11-22T08:30:00-05:00\"}\n")
        let ingest = tenclub("ingest", log)
        XCTAssertEqual(ingest.records.first?["added"] as? Int, 1)
        XCTAssertEqual(ingest.records.first?["duplicates"] as? Int, 2)
        XCTAssertEqual(tenclub("unlock", "--at", "2026-11-22T08:30:00.5-05:00").records.first?["counted"] as? Bool, false, "ingested, then the hook")
        XCTAssertEqual(tenclub("unlock", "--at", "2026-11-22T08:31:00-05:00").records.first?["unlocks"] as? Int, 3)
        let undo = tenclub("unlock", "--undo")
        XCTAssertEqual(undo.code, 0, undo.err)
        XCTAssertEqual(undo.records.first?["undone"] as? Bool, true)
        XCTAssertEqual(undo.records.first?["at"] as? String, "2026-11-22T08:31:00-05:00")
        XCTAssertEqual(undo.records.first?["unlocks"] as? Int, 2)
        XCTAssertEqual(tenclub("status").records.first?["unlocks"] as? Int, 2)
        // The undone instant may be counted again.
        XCTAssertEqual(tenclub("unlock", "--at", "2026-11-22T08:31:00-05:00").records.first?["counted"] as? Bool, true)
        XCTAssertEqual(tenclub("unlock", "--undo", "--at", "2026-11-22T08:31:00-05:00").code, 64)
        XCTAssertEqual(tenclub("unlock", "--undo", "--now", "2026-11-25T09:00:00-05:00").err, "tenclub: no unlock counted today (2026-11-25) to undo\n")
        XCTAssertEqual(tenclub("unlock", "--undo", "--now", "2026-11-25T09:00:00-05:00").code, 65)
    }

    /// The delivery log: what was sent, when, to whom, and how it went.
    func testTheDeliveryLog() {
        accepted()
        tenclub("sms", "deliver", "--command", "exit 3")
        XCTAssertEqual(receive("HELP").code, 0)
        XCTAssertEqual(tenclub("sms", "deliver", "--command", "exit 3").code, 75)
        tenclub("sms", "deliver", "--command", sender, "--now", "2026-11-22T09:01:00-05:00")  // after the failure's minute of backoff
        let log = tenclub("sms", "log").records
        XCTAssertEqual(log.map { "\($0["kind"]!) \($0["outcome"]!)" }, ["invite sent", "welcome sent", "help failed", "help sent"])
        XCTAssertEqual(log[2]["exit_status"] as? Int, 3)
        XCTAssertEqual(log[3]["attempt"] as? Int, 2)
        XCTAssertEqual(log[3]["to"] as? String, buddy)
        XCTAssertEqual(log[3]["at"] as? String, "2026-11-22T09:01:00-05:00", "when the text ended")
        XCTAssertTrue(tenclub("sms", "log", "--format", "text").out.contains("help  to 415-555-0132  failed (exit 3)"))
    }
}
