import XCTest

/// Untrusted text never reaches the terminal raw, and implausible input is
/// refused with a message that names the real problem, in every tool.
class HostileInputCase: ToolTestCase {
    /// ESC, BEL, CR, C1 CSI and a bidi override, the raw bytes a hostile
    /// value carries.
    static let raw = ["\u{1B}", "\u{07}", "\r", "\u{9B}", "\u{202E}", "\u{2066}"]

    func assertClean(_ s: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for r in HostileInputCase.raw {
            XCTAssertFalse(s.contains(r), "\(what) holds a raw \(r.unicodeScalars.first!.value): \(s.debugDescription)", file: file, line: line)
        }
    }

    /// Every diagnostic is one line: each stderr line starts with the tool's name.
    func assertOneLineDiagnostics(_ err: String, tool: String, file: StaticString = #filePath, line: UInt = #line) {
        assertClean(err, "stderr", file: file, line: line)
        for l in err.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            XCTAssertTrue(l.hasPrefix("\(tool): "), "a diagnostic spilled onto another line: \(err.debugDescription)", file: file, line: line)
        }
    }
}

final class TenclubHostileInputTests: HostileInputCase {
    let now = "2026-11-22T21:00:00-05:00"

    func testAnEscapeSequenceInARecordIsShownEscaped() {
        // The issue's line: printf turns \u001b and \u0007 into raw bytes.
        let r = sh(#"printf '{"at":"\u001b]0;x\u0007"}\n' | tenclub ingest --now 2026-11-22T21:00:00-05:00"#)
        XCTAssertEqual(r.code, 65)
        assertOneLineDiagnostics(r.err, tool: "tenclub")
        // JSON escapes become real ESC and BEL in the value; stderr shows them escaped.
        let j = tenclub("ingest", "--now", now, stdin: #"{"at":"\u001b]0;x\u0007"}"# + "\n")
        XCTAssertEqual(j.code, 65)
        XCTAssertEqual(j.err, "tenclub: stdin:1: \"at\" must be an RFC 3339 time like 2026-11-22T08:15:00-05:00 or epoch seconds (a number), not '\\u001b]0;x\\u0007'\n")
        assertOneLineDiagnostics(j.err, tool: "tenclub")
        // Raw bytes in the line itself, not JSON escapes, are shown escaped too.
        let rawLine = tenclub("ingest", "--now", now, stdin: "{\"at\":\"\u{1B}[2J\u{202E}\r\"}\n")
        XCTAssertEqual(rawLine.code, 65)
        assertOneLineDiagnostics(rawLine.err, tool: "tenclub")
    }

    func testAFileNameWithANewlineStaysOnOneLine() {
        let r = tenclub("ingest", "--now", now, tmp + "/no\nsuch\u{1B}[31m.ndjson")
        XCTAssertEqual(r.code, 66)
        XCTAssertEqual(r.err, "tenclub: cannot open \(tmp)/no\\u000asuch\\u001b[31m.ndjson: No such file or directory\n")
        let bad = write("bad\nname.ndjson", "{}\n")
        let e = tenclub("ingest", "--now", now, bad)
        XCTAssertEqual(e.err, "tenclub: \(tmp)/bad\\u000aname.ndjson:1: missing \"at\": need an RFC 3339 time like 2026-11-22T08:15:00-05:00\n")
    }

    func testYearOneIsRefusedAndRolloverStaysSmall() {
        let r = tenclub("ingest", "--now", now, stdin: "{\"at\":\"0001-01-01T12:00:00Z\"}\n{\"at\":\"1999-12-31T23:59:59Z\"}\n{\"at\":-5}\n")
        XCTAssertEqual(r.code, 65)
        XCTAssertEqual(r.err.split(separator: "\n").map(String.init), [
            "tenclub: stdin:1: \"at\" 0001-01-01T12:00:00Z is before 2000-01-01: not a plausible time",
            "tenclub: stdin:2: \"at\" 1999-12-31T23:59:59Z is before 2000-01-01: not a plausible time",
            "tenclub: stdin:3: \"at\" 1969-12-31T23:59:55Z is before 2000-01-01: not a plausible time (read as epoch seconds)",
        ])
        XCTAssertEqual(r.out, "")
        tenclub("unlock", "-q", "--now", now)
        let roll = tenclub("rollover", "--now", "2026-11-23T00:00:30-05:00")
        XCTAssertEqual(roll.code, 0)
        XCTAssertLessThanOrEqual(roll.lines.count, 1, "only the one real day is closed")
        XCTAssertEqual(tenclub("unlock", "--at", "1999-06-01 08:00", "--now", now).err,
                       "tenclub: --at 1999-06-01T12:00:00Z is before 2000-01-01: not a plausible time\n")
    }

    func testEpochMillisecondsAndOffsetsWithoutAColon() {
        // 2026-11-22T12:00:00Z four ways: one unlock.
        let r = tenclub("ingest", "--now", now, stdin: """
        {"at":1795348800}
        {"at":1795348800000}
        {"at":"2026-11-22T12:00:00+0000"}
        {"at":"2026-11-22T07:00:00-0500"}

        """)
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.records.map { $0["added"] as? Int }, [1])
        XCTAssertEqual(r.records.map { $0["duplicates"] as? Int }, [3])
        // Microseconds are neither: the message says what to do.
        let micro = tenclub("ingest", "--now", now, stdin: "{\"at\":1795348800000000}\n")
        XCTAssertEqual(micro.err, "tenclub: stdin:1: \"at\" is after the year 9999: not a plausible time (read as epoch milliseconds; microseconds? divide by 1000)\n")
    }

    func testAByteOrderMarkBeforeTheFirstLineIsSkipped() {
        let file = write("bom.ndjson", "\u{FEFF}{\"at\":\"2026-11-22T08:00:00-05:00\"}\n{\"at\":\"2026-11-22T09:00:00-05:00\"}\n")
        let r = tenclub("ingest", "--now", now, file)
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.records.first?["added"] as? Int, 2)
    }

    func testAnEnvironmentVariableIsNamedForItsBadValue() {
        let f = tenclub("status", env: ["TENCLUB_FORMAT": "yaml"])
        XCTAssertEqual(f.code, 78, "a bad value in the environment is a configuration error")
        XCTAssertEqual(f.err, "tenclub: TENCLUB_FORMAT must be json or text, not 'yaml'\n")
        XCTAssertEqual(tenclub("status", "--format", "yaml").err,
                       "tenclub: --format must be one of json, text, not 'yaml'; see 'tenclub status --help'\n")
        let n = tenclub("status", env: ["TENCLUB_NOW": "soon"])
        XCTAssertEqual(n.err, "tenclub: TENCLUB_NOW must be a time like 2026-11-22T08:15:00-05:00 or '2026-11-22 08:15', not 'soon'\n")
        XCTAssertEqual(tenclub("status", env: ["TENCLUB_NOW": "1970-01-02"]).err,
                       "tenclub: TENCLUB_NOW 1970-01-02T05:00:00Z is before 2000-01-01: not a plausible time\n")
        XCTAssertEqual(tenclub("status", "--now", "soon", env: ["TENCLUB_NOW": now]).err,
                       "tenclub: --now must be a time like 2026-11-22T08:15:00-05:00 or '2026-11-22 08:15', not 'soon'\n", "the option wins")
        XCTAssertTrue(tenclub("status", "--now", now, env: ["TZ": "Nowhere/Special"]).err.hasPrefix("tenclub: TZ: unknown time zone 'Nowhere/Special'"))
    }

    func testSMSFieldsOfTheWrongTypeAreNamed() {
        let r = tenclub("sms", "receive", "--now", now, stdin: """
        {"from":"+14155550132","body":5}
        {"from":14155550132,"body":"YES"}
        {"from":"+14155550132"}
        {"from":"+14155550132","body":"YES","at":"0001-01-01T00:00:00Z"}
        {"from":"+14155550132","body":"YES","id":7}
        {"from":"+14155550132","body":"YES","at":1795348800000}

        """)
        XCTAssertEqual(r.code, 65)
        XCTAssertEqual(r.err.split(separator: "\n").map(String.init), [
            "tenclub: stdin:1: \"body\" must be a string, not a number",
            "tenclub: stdin:2: \"from\" must be a string, not a number",
            "tenclub: stdin:3: missing \"body\": need {\"from\":\"+14155550132\",\"body\":\"YES\",\"at\":\"2026-11-22T08:15:00-05:00\"}",
            "tenclub: stdin:4: \"at\" 0001-01-01T00:00:00Z is before 2000-01-01: not a plausible time",
            "tenclub: stdin:5: \"id\" must be a string, not a number",
        ])
        XCTAssertEqual(r.records.count, 1)
        XCTAssertEqual(r.records.first?["at"] as? String, "2026-11-22T07:00:00-05:00", "epoch milliseconds")
    }

    func testSMSBodiesAndBuddyNamesAreShownEscaped() {
        let name = "Sam\u{1B}]0;pwned\u{07}\u{202E}moc.evil"
        let set = tenclub("buddy", "set", "415-555-0132", "--name", name, "--format", "text", "--now", now)
        XCTAssertEqual(set.code, 0, set.err)
        assertClean(set.out, "buddy set")
        XCTAssertTrue(set.out.contains("Sam\\u001b]0;pwned\\u0007\\u202emoc.evil 415-555-0132"), set.out)
        assertClean(tenclub("buddy", "--format", "text", "--now", now).out, "buddy")
        // JSON keeps the exact name.
        XCTAssertEqual(tenclub("buddy", "--now", now).records.first?["name"] as? String, name)
        let body = "YES\u{1B}[2J\r\u{9B}31m\u{2066}"
        let json = String(data: try! JSONSerialization.data(withJSONObject: ["from": "+14155550132", "body": body]), encoding: .utf8)!
        let r = tenclub("sms", "receive", "--format", "text", "--now", now, stdin: json + "\n")
        XCTAssertEqual(r.code, 0, r.err)
        assertClean(r.out, "sms receive")
        XCTAssertTrue(r.out.contains("YES\\u001b[2J\\u000d\\u009b31m\\u2066"), r.out)
        XCTAssertEqual(r.err, "", "no body on stderr")
        let outbox = tenclub("sms", "outbox", "--format", "text", "--now", now)
        assertClean(outbox.out, "outbox")
    }
}

final class YomoHostileInputTests: HostileInputCase {
    let now = "2026-11-22T10:07:00-05:00"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["YOMO_DATA_DIR"] = dataDir
        e["YOMO_NOW"] = now
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    func yomo(_ args: String..., stdin: String? = nil, env: [String: String] = [:]) -> RunResult { run("yomo", args, stdin: stdin, env: env) }

    func testAReminderTitleIsShownEscapedInText() {
        let title = "pay \u{1B}]0;owned\u{07}rent\r\u{202E}txt.exe"
        let add = yomo("add", "--literal", "--date", "2026-11-23", "--time", "09:00", "--format", "text", "--", title)
        XCTAssertEqual(add.code, 0, add.err)
        assertClean(add.out, "add")
        XCTAssertTrue(add.out.contains("pay \\u001b]0;owned\\u0007rent\\u000d\\u202etxt.exe"), add.out)
        let id = (yomo("list").records.first?["id"] as? String) ?? ""
        XCTAssertEqual(yomo("list").records.first?["title"] as? String, title, "JSON keeps the exact title")
        for args in [["list"], ["list", "--all"], ["snooze", id, "5", "--now", "2026-11-23T09:01:00-05:00"], ["done", id]] {
            let r = run("yomo", args + ["--format", "text"])
            XCTAssertEqual(r.code, 0, "\(args): \(r.err)")
            assertClean(r.out, "\(args)")
            assertClean(r.err, "\(args)")
        }
        let due = yomo("due", "--format", "text", "--now", "2026-11-23T09:00:00-05:00")
        assertClean(due.out, "due")
        let parse = yomo("parse", "--format", "text", "call \u{1B}[2Jmom tomorrow at 9")
        XCTAssertEqual(parse.code, 0, parse.err)
        assertClean(parse.out, "parse")
        assertOneLineDiagnostics(parse.err, tool: "yomo")
    }

    func testDatesBefore2000AreRefused() {
        let r = yomo("add", "x", "--date", "1999-12-31", "--time", "09:00")
        XCTAssertEqual(r.code, 64)
        XCTAssertEqual(r.err, "yomo: --date 1999-12-31 is before 2000-01-01: not a plausible day\n")
        XCTAssertEqual(yomo("add", "party on 1999-12-31 at 23:00").err, "yomo: the date 1999-12-31 is before 2000-01-01: not a plausible day\n")
        XCTAssertEqual(yomo("list", env: ["YOMO_FORMAT": "xml"]).err, "yomo: YOMO_FORMAT must be json or text (or ics, taskwarrior for the commands that have them), not 'xml'\n")
    }

    func testAModelAnswerWithAHostileTitleIsStoredExactlyAndShownEscaped() {
        let answer = write("answer.json", #"{"title":"x\u001b[31mred\u202e","date":"2026-11-23","time":"09:00","recurrence_type":"none","recurrence_rule":null}"#)
        let r = yomo("add", "anything", "--llm-command", "cat '\(answer)'", "--format", "text")
        XCTAssertEqual(r.code, 0, r.err)
        assertClean(r.out, "add")
        XCTAssertTrue(r.out.contains("x\\u001b[31mred\\u202e"), r.out)
        let old = write("old.json", #"{"title":"x","date":"1999-01-01","time":"09:00","recurrence_type":"none"}"#)
        let o = yomo("add", "anything else", "--llm-command", "cat '\(old)'")
        XCTAssertEqual(o.code, 0)
        XCTAssertEqual(o.err.split(separator: "\n").first.map(String.init),
                       "yomo: the model's answer does not fit the schema (\"date\" 1999-01-01 is before 2000-01-01: not a plausible day); using the built-in parser")
    }
}

final class PlayaHostileInputTests: HostileInputCase {
    let now = "2026-11-23T00:00:30-05:00"
    let phone = "+14155550132"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["PLAYA_DATA_DIR"] = dataDir
        e["PLAYA_NOW"] = now
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    @discardableResult
    func playa(_ args: String..., stdin: String? = nil, env: [String: String] = [:]) -> RunResult { run("playa", args, stdin: stdin, env: env) }

    func testRecipientNamesAndMessagesAreShownEscapedInText() {
        let name = "Ana\u{1B}]0;x\u{07}\u{202E}lla"
        let secret = "hi\u{1B}[2J\u{9B}\u{2066} there"
        XCTAssertEqual(playa("recipient", "add", name, "--platform", "whatsapp", "--phone", phone, "--format", "text").code, 0)
        XCTAssertEqual(playa("message", "add", name, secret, "--format", "text").code, 0)
        playa("schedule", name, "--fixed", "09:30")
        let texts = [["recipient"], ["recipient", "show", name], ["message", "list", name], ["generate"], ["queue"],
                     ["due", "--now", "2026-11-23T09:31:00-05:00"], ["recipient", "pause", name], ["recipient", "resume", name]]
        for args in texts {
            let r = run("playa", args + ["--format", "text"])
            XCTAssertEqual(r.code, 0, "\(args): \(r.err)")
            assertClean(r.out, "\(args)")
            assertOneLineDiagnostics(r.err, tool: "playa")
        }
        XCTAssertTrue(playa("recipient", "--format", "text").out.contains("Ana\\u001b]0;x\\u0007\\u202ella"))
        XCTAssertTrue(playa("message", "list", name, "--format", "text").out.contains("hi\\u001b[2J\\u009b\\u2066 there"))
        // JSON keeps both exact.
        XCTAssertEqual(playa("message", "list", name).records.first?["text"] as? String, secret)
        XCTAssertEqual(playa("recipient").records.first?["name"] as? String, name)
        // A name in a diagnostic is escaped too.
        let dup = playa("recipient", "add", name, "--platform", "sms", "--phone", phone)
        XCTAssertEqual(dup.code, 65)
        XCTAssertEqual(dup.err, "playa: there is already a recipient named 'Ana\\u001b]0;x\\u0007\\u202ella'\n")
    }

    func exportDoc(events: String, recipients: String? = nil) -> String {
        let r = recipients ?? #"[{"id":"r1","name":"Ana","platform":"sms","phone":"+14155550132","schedule":{"mode":"random","per_day":1},"messages":[{"id":"m1","text":"secret words"}]}]"#
        return #"{"type":"playa_export","version":1,"recipients":\#(r),"events":\#(events)}"#
    }

    func testImportNamesTheFieldAndRefusesImplausibleTimes() {
        let event = #"{"id":"e1","recipient_id":"r1","date":"2026-11-23","time":"09:00","at":"2026-11-23T14:00:00Z","message":"secret words","status":"pending"}"#
        let cases: [(String, String)] = [
            (exportDoc(events: "[" + event.replacingOccurrences(of: #""message":"secret words""#, with: #""message":5"#) + "]"),
             "events[0]: event e1: \"message\" must be a string, not a number"),
            (exportDoc(events: "[" + event.replacingOccurrences(of: #","status":"pending""#, with: "") + "]"),
             "events[0]: event e1: missing \"status\""),
            (exportDoc(events: "[" + event.replacingOccurrences(of: "2026-11-23T14:00:00Z", with: "0001-01-01T00:00:00Z") + "]"),
             "events[0]: event e1: \"at\" 0001-01-01T00:00:00Z is before 2000-01-01: not a plausible time"),
            (exportDoc(events: "[" + event.replacingOccurrences(of: #""date":"2026-11-23""#, with: #""date":"1999-11-23""#) + "]"),
             "events[0]: event e1: \"date\" 1999-11-23 is before 2000-01-01: not a plausible day"),
            (exportDoc(events: "{}"), "\"events\" must be an array, not an object"),
            (exportDoc(events: "[]", recipients: #"[{"id":7}]"#), "recipients[0]: recipient: \"id\" must be a string, not a number"),
            (exportDoc(events: "[]", recipients: #"[{"id":"r1","name":"Ana","platform":"sms","phone":"+14155550132","schedule":{"mode":"random","per_day":1},"messages":[{"id":"m1","text":["secret words"]}]}]"#),
             "recipients[0]: recipient r1: messages[0]: \"text\" must be a string, not an array"),
            (exportDoc(events: "[]", recipients: #"[{"id":"r1","name":"Ana","platform":"sms","phone":"+14155550132","paused":"no","schedule":{"mode":"random","per_day":1}}]"#),
             "recipients[0]: recipient: \"paused\" must be a boolean, not a string"),
        ]
        for (doc, reason) in cases {
            let f = write("doc.json", doc)
            let r = playa("import", f)
            XCTAssertEqual(r.code, 65, reason)
            XCTAssertEqual(r.err, "playa: \(f): \(reason); nothing imported\n")
            XCTAssertFalse(r.err.contains("secret") || r.err.contains(phone), "no message or number on stderr")
        }
        XCTAssertEqual(playa("recipient").out, "", "nothing imported")
        // A byte order mark before the document is fine.
        let bom = write("bom.json", "\u{FEFF}" + exportDoc(events: "[" + event + "]"))
        let ok = playa("import", bom)
        XCTAssertEqual(ok.code, 0, ok.err)
        XCTAssertEqual(ok.records.first?["events"] as? Int, 1)
        // Positions count from after the mark, as an editor shows them.
        let broken = write("broken.json", "\u{FEFF}{\"type\":}")
        XCTAssertEqual(playa("import", broken).err, "playa: \(broken):1:9: not valid JSON: unexpected character '}'; nothing imported\n")
    }

    func testDaysBefore2000AndEnvironmentValuesAreNamed() {
        XCTAssertEqual(playa("queue", "--date", "1999-12-31").err, "playa: --date 1999-12-31 is before 2000-01-01: not a plausible day\n")
        XCTAssertEqual(playa("queue", env: ["PLAYA_NOW": "later"]).err,
                       "playa: PLAYA_NOW must be a time like 2026-11-22T08:15:00-05:00 or '2026-11-22 08:15', not 'later'\n")
    }
}

final class HabitmatchHostileInputTests: HostileInputCase {
    let now = "2026-11-22T10:00:00-05:00"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["HABITMATCH_DATA_DIR"] = dataDir
        e["HABITMATCH_POOL"] = tmp + "/pool"
        e["HABITMATCH_NOW"] = now
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    @discardableResult
    func hm(_ user: String, _ args: String..., env: [String: String] = [:]) -> RunResult {
        run("habitmatch", ["--user", user] + args, env: env)
    }

    func testAPeersNameBioAndChatAreShownEscaped() {
        let evil = "Eve\u{1B}]0;pwned\u{07}\u{202E}gnp.exe"
        // Names, bios, chat and descriptions with controls are refused at
        // input (and in a peer's journal); what a match writes is still
        // shown escaped, and a line break in a description stays one.
        XCTAssertEqual(hm("eve", "join", "--name", evil, "--habit", "read").code, 64)
        XCTAssertEqual(hm("eve", "join", "--name", "Eve", "--bio", "hi\r\u{1B}[2Jthere\u{9B}", "--habit", "read").code, 64)
        XCTAssertEqual(hm("eve", "join", "--name", "Eve", "--habit", "read", "--habit", "other:draw\u{1B}[5m\u{2066}").code, 64)
        XCTAssertEqual(hm("eve", "join", "--name", "Eve", "--bio", "hi there", "--habit", "read").code, 0)
        XCTAssertEqual(hm("ana", "join", "--name", "Ana", "--habit", "read").code, 0)
        hm("ana", "like", "eve")
        hm("eve", "like", "ana")
        XCTAssertEqual(hm("eve", "chat", "ana", "psst\u{1B}[8m\u{202E}").code, 64)
        XCTAssertEqual(hm("eve", "chat", "ana", "psst \u{202E}?").code, 64, "a bidi override")
        XCTAssertEqual(hm("eve", "chat", "ana", "psst\nlook").code, 0)
        hm("eve", "buddy", "accept", "ana")
        hm("ana", "buddy", "accept", "eve")
        XCTAssertEqual(hm("eve", "meet", "ana", "--at", "2026-11-22 18:00", "--description", "agenda\r\nATTENDEE:mailto:x@evil.example\u{1B}[1m").code, 64)
        XCTAssertEqual(hm("eve", "meet", "ana", "--at", "2026-11-22 18:00", "--description", "agenda\nATTENDEE:mailto:x@evil.example").code, 0)
        hm("eve", "done")
        let views: [[String]] = [["profile", "eve"], ["candidates"], ["dashboard"], ["chat", "eve"], ["buddy"], ["meetings"],
                                 ["calendar", "--of", "eve", "read"], ["remind", "--now", "2026-11-22T17:50:00-05:00"]]
        for args in views {
            let r = run("habitmatch", ["--user", "ana"] + args + ["--format", "text"])
            XCTAssertEqual(r.code, 0, "\(args): \(r.err)")
            assertClean(r.out, "\(args)")
            assertOneLineDiagnostics(r.err, tool: "habitmatch")
        }
        for args in [["profile"], ["habit", "list"], ["calendar", "read"], ["dashboard"]] {
            let r = run("habitmatch", ["--user", "eve"] + args + ["--format", "text"])
            XCTAssertEqual(r.code, 0, "\(args): \(r.err)")
            assertClean(r.out, "eve \(args)")
        }
        XCTAssertTrue(hm("ana", "chat", "eve", "--format", "text").out.hasSuffix("eve: psst\n    look\n"), "a line break is a line, indented")
        // JSON keeps the data exact.
        XCTAssertEqual(hm("ana", "chat", "eve").records.first?["text"] as? String, "psst\nlook")
        // The calendar file holds no control and no injected property.
        let ics = hm("ana", "meetings", "--ics").out
        assertClean(ics.replacingOccurrences(of: "\r\n", with: "\n"), "ics")
        XCTAssertFalse(ics.contains("\r\nATTENDEE:mailto:x@evil"), ics)
        XCTAssertTrue(ics.contains("agenda\\nATTENDEE:mailto:x@evil.example"), ics)
    }

    func testDaysBefore2000AreRefused() {
        hm("ana", "join", "--name", "Ana", "--habit", "read")
        let r = hm("ana", "done", "--date", "1999-12-31")
        XCTAssertEqual(r.code, 64)
        XCTAssertEqual(r.err, "habitmatch: --date 1999-12-31 is before 2000-01-01: not a plausible day\n")
        XCTAssertEqual(hm("ana", "dashboard", env: ["HABITMATCH_FORMAT": "html"]).err, "habitmatch: HABITMATCH_FORMAT must be json or text (or csv, ics for the commands that have them), not 'html'\n")
    }
}

final class RewardsHostileInputTests: HostileInputCase {
    let now = "2026-11-21T20:00:00-05:00"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["REWARDS_DATA_DIR"] = dataDir
        e["REWARDS_NOW"] = now
        e["REWARDS_USER"] = "mum"
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    @discardableResult
    func rw(_ args: String..., stdin: String? = nil, env: [String: String] = [:]) -> RunResult { run("rewards", args, stdin: stdin, env: env) }

    let kid = "Zoë 日本"
    let hostileKid = "Al\u{1B}]0;x\u{07}ex\u{202E}"
    let app = "Duo\u{1B}[5mlingo\u{2067}\u{9B}"

    func setUpFamily() {
        XCTAssertEqual(rw("init").code, 0)
        XCTAssertEqual(rw("child", "add", hostileKid, "--user", "alex").code, 64, "a name with controls is refused")
        XCTAssertEqual(rw("child", "add", kid, "--user", "alex").code, 0)
        XCTAssertEqual(rw("app", "set", app, "--learning").code, 0)
    }

    func session(_ start: String, _ extra: String = #","duration_s":1800"#) -> String {
        let k = String(data: try! JSONSerialization.data(withJSONObject: [kid]), encoding: .utf8)!.dropFirst().dropLast()
        let a = String(data: try! JSONSerialization.data(withJSONObject: [app]), encoding: .utf8)!.dropFirst().dropLast()
        return #"{"child":\#(k),"app":\#(a),"start":\#(start)\#(extra)}"#
    }

    func testYearOneEarnsNothing() {
        setUpFamily()
        let r = rw("ingest", stdin: session(#""0001-01-01T16:00:00Z""#) + "\n" + session("-62135596800") + "\n")
        XCTAssertEqual(r.code, 65)
        XCTAssertEqual(r.err.split(separator: "\n").map(String.init), [
            "rewards: stdin:1: \"start\" 0001-01-01T16:00:00Z is before 2000-01-01: not a plausible time",
            "rewards: stdin:2: \"start\" 0001-01-01T00:00:00Z is before 2000-01-01: not a plausible time (read as epoch seconds)",
        ])
        XCTAssertEqual(r.out, "")
        XCTAssertEqual(rw("child", "list").records.first?["balance"] as? Int, 0, "no points for year 1")
        let future = rw("ingest", stdin: session(#""2026-11-23T16:00:00-05:00""#) + "\n")
        XCTAssertEqual(future.err, "rewards: stdin:1: \"start\" 2026-11-23T16:00:00-05:00 is more than a day after now (now is 2026-11-21T20:00:00-05:00)\n")
    }

    /// An epoch number past any time (either sign, any size) is told with
    /// the range accepted, one line per line, exit 65.
    func testAnEpochOutOfRangeSaysTheRangeAccepted() {
        setUpFamily()
        let r = rw("ingest", stdin: session("-9223372036854775808") + "\n" + session("1e300") + "\n"
                   + session("1795348800", #","end":9223372036854775807"#) + "\n")
        XCTAssertEqual(r.code, 65)
        let range = "accepted are epoch seconds from 946684800 to 1795395600 or epoch milliseconds from 946684800000 to 1795395600000 (2000-01-01T00:00:00Z to 2026-11-22T20:00:00-05:00)"
        XCTAssertEqual(r.err.split(separator: "\n").map(String.init), [
            "rewards: stdin:1: \"start\" -9.223372036854776e+18 is out of range: \(range)",
            "rewards: stdin:2: \"start\" 1e+300 is out of range: \(range)",
            "rewards: stdin:3: \"end\" 9223372036854775807 is out of range: \(range)",
        ])
        XCTAssertEqual(r.out, "")
    }

    func testEpochMillisecondsOffsetsAndFieldTypes() {
        setUpFamily()
        // 2026-11-21T16:00:00-05:00 in epoch milliseconds, and an end with a +hhmm offset.
        let ok = rw("ingest", stdin: session("1795294800000", #","end":"2026-11-21T21:30:00+0000""#) + "\n")
        XCTAssertEqual(ok.code, 0, ok.err)
        XCTAssertEqual(ok.records.first?["points"] as? Int, 30)
        let bad = rw("ingest", stdin: [
            session(#""2026-11-21T10:00:00-05:00""#, #","duration_s":"1800""#),
            session("true"),
            #"{"child":5,"app":"x","start":"2026-11-21T10:00:00-05:00","duration_s":60}"#,
            #"{"child":"x","app":["x"],"start":"2026-11-21T10:00:00-05:00","duration_s":60}"#,
            session(#""2026-11-21T10:00:00-05:00""#, ""),
        ].joined(separator: "\n") + "\n")
        XCTAssertEqual(bad.code, 65)
        XCTAssertEqual(bad.err.split(separator: "\n").map(String.init), [
            "rewards: stdin:1: \"duration_s\" must be a number, not a string",
            "rewards: stdin:2: \"start\" must be an RFC 3339 time or epoch seconds, not a boolean",
            "rewards: stdin:3: \"child\" must be a string, not a number",
            "rewards: stdin:4: \"app\" must be a string, not an array",
            "rewards: stdin:5: missing \"end\" (or \"duration_s\"); need {\"child\",\"app\",\"start\",\"end\"} (or \"duration_s\" for \"end\"), times in RFC 3339 or epoch seconds",
        ])
        let aw = write("aw.json", "\u{FEFF}" + #"{"buckets":{"aw-watcher-window_x":{"type":"currentwindow","events":[{"timestamp":"0001-01-01T00:00:00Z","duration":60,"data":{"app":"Duolingo"}}]}}}"#)
        let a = run("rewards", ["ingest", "--activitywatch", aw, "--child", kid])
        XCTAssertEqual(a.code, 65)
        XCTAssertEqual(a.err, "rewards: \(aw): aw-watcher-window_x event 0: \"timestamp\" 0001-01-01T00:00:00Z is before 2000-01-01: not a plausible time\n")
    }

    func testAppImportNamesTheField() {
        setUpFamily()
        let r = rw("app", "import", stdin: """
        \u{FEFF}{"app":"Scratch","category":"learning","points_per_hour":120}
        {"app":5,"category":"reward"}
        {"app":"YouTube"}
        {"app":"YouTube","category":"fun"}
        {"app":"Khan","category":"learning","points_per_hour":"90"}
        {"app":"Khan","category":"learning","points_per_hour":0}

        """)
        XCTAssertEqual(r.code, 65)
        XCTAssertEqual(r.err.split(separator: "\n").map(String.init), [
            "rewards: stdin:2: \"app\" must be a string, not a number",
            "rewards: stdin:3: missing \"category\": need {\"app\":NAME,\"category\":\"learning\"|\"reward\"|\"ignore\"}",
            "rewards: stdin:4: \"category\" must be learning, reward or ignore, not 'fun'",
            "rewards: stdin:5: \"points_per_hour\" must be a number, not a string",
            "rewards: stdin:6: \"points_per_hour\" must be a whole number from 1 to 10000",
        ])
        XCTAssertEqual(r.records.map { $0["name"] as? String }, ["Scratch"], "the BOM before the first line is skipped")
    }

    func testNamesAppsAndReasonsAreShownEscapedInText() {
        setUpFamily()
        XCTAssertEqual(rw("ingest", stdin: session(#""2026-11-21T16:00:00-05:00""#) + "\n" + session(#""2026-11-21T08:00:00-05:00""#, #","duration_s":40000"#) + "\n").code, 0)
        rw("adjust", kid, "+5", "--reason", "chores\u{1B}[2J\u{202E}")
        let views: [[String]] = [["dashboard"], ["child", "list"], ["app", "list"], ["flags"], ["allowance", kid], ["report"],
                                 ["rollover"], ["notify"], ["ingest", "--sessions"], ["adjust", kid, "-1", "--reason", "x\u{1B}[1m"],
                                 ["redeem", kid, "1"], ["app", "set", app, "--reward"]]
        for args in views {
            let r = run("rewards", args + ["--format", "text"], stdin: session(#""2026-11-21T17:00:00-05:00""#) + "\n")
            // (allowance exits 1 when no reward time is left.)
            XCTAssertTrue(r.code == 0 || r.code == 65 || (args[0] == "allowance" && r.code == 1), "\(args): \(r.code) \(r.err)")
            assertClean(r.out, "\(args)")
            assertOneLineDiagnostics(r.err, tool: "rewards")
        }
        XCTAssertTrue(rw("app", "list", "--format", "text").out.contains("Duo\\u001b[5mlingo\\u2067\\u009b"))
        XCTAssertEqual(rw("app", "list").records.first?["name"] as? String, app, "JSON keeps the exact name")
        XCTAssertEqual(rw("child", "list").records.first?["name"] as? String, kid)
        // A default from the environment applies where it is valid: the
        // dashboard has no CSV, so REWARDS_FORMAT=csv is left alone there.
        let dashboard = rw("dashboard", env: ["REWARDS_FORMAT": "csv"])
        XCTAssertEqual(dashboard.code, 0, dashboard.err)
        XCTAssertEqual(dashboard.out, rw("dashboard").out)
        XCTAssertEqual(rw("dashboard", "--format", "csv").code, 64, "an explicit --format still fails")
        let yaml = rw("dashboard", env: ["REWARDS_FORMAT": "yaml"])
        XCTAssertEqual(yaml.code, 78)
        XCTAssertEqual(yaml.err, "rewards: REWARDS_FORMAT must be json or text (or csv for the commands that have it), not 'yaml'\n")
        XCTAssertEqual(rw("report", "--from", "1999-12-01").err, "rewards: --from 1999-12-01 is before 2000-01-01: not a plausible day\n")
    }
}
