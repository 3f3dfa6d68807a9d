import XCTest

/// playa's contact log and cadences as a user meets them: `contacted`, the
/// dashboard's last contact and overdue order, a cadence's reminder drawn
/// on the due day and cancelled by a contact, `open` counting as contact,
/// and the log through export and import.
final class PlayaContactToolTests: ToolTestCase {
    let now = "2026-11-23T10:00:00-05:00"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["PLAYA_DATA_DIR"] = dataDir
        e["PLAYA_NOW"] = now
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    @discardableResult
    func playa(_ args: String...) -> RunResult { run("playa", args) }

    func add(_ name: String, phone: String) {
        XCTAssertEqual(playa("recipient", "add", name, "--platform", "sms", "--phone", phone).code, 0)
        XCTAssertEqual(playa("message", "add", name, "Coffee soon?").code, 0)
    }

    func testContactedAndTheDashboardPutsTheMostOverdueFirst() {
        add("Ana", phone: "+14155550132")
        add("Bo", phone: "+14155550133")
        add("Cy", phone: "+14155550134")
        XCTAssertEqual(playa("schedule", "Ana", "--every", "2w", "--now", "2026-11-01T09:00:00-05:00").records.first?["due"] as? String, "2026-11-15")
        let bo = playa("schedule", "Bo", "--every", "1 week", "--now", "2026-11-20T09:00:00-05:00", "--format", "text")
        XCTAssertEqual(bo.out, "Bo: every 1 week from today; due 2026-11-27\n")
        var d = playa("recipient", "list").records
        XCTAssertEqual(d.map { $0["name"] as? String }, ["Ana", "Bo", "Cy"])
        XCTAssertEqual(d[0]["overdue_days"] as? Int, 8)
        XCTAssertEqual(d[1]["overdue_days"] as? Int, 0)
        XCTAssertTrue(d[2]["due"] is NSNull, "no cadence, no due day")

        // Refused, naming what is accepted; nothing recorded.
        let refusals: [([String], Int32, String)] = [
            (["contacted", "Ana", "--via", "pigeon"], 64, "playa: --via must be one of whatsapp, sms, instagram, telegram, signal, email, call, in-person, other, not 'pigeon'; see 'playa contacted --help'\n"),
            (["contacted", "Ana", "--at", "2026-11-24 09:00"], 64, "playa: --at 2026-11-24T09:00:00-05:00 is in the future (now is 2026-11-23T10:00:00-05:00)\n"),
            (["contacted", "Ana", "--at", "last tuesday"], 64, "playa: --at must be a time like 2026-11-22T08:15:00-05:00 or '2026-11-22 08:15', not 'last tuesday'\n"),
            (["contacted", "Ana", "--note", "   "], 64, "playa: a note must not be empty or only spaces\n"),
            (["contacted", "Ana", "--note", String(repeating: "n", count: 501)], 64, "playa: a note must be at most 500 characters (this one has 501)\n"),
            (["contacted", "Anna"], 65, "playa: no recipient named 'Anna' (did you mean 'Ana'?)\n"),
            (["schedule", "Ana", "--every", "fortnightly"], 64, "playa: --every takes a count and a unit: days (14d), weeks (2w) or months (3m), not 'fortnightly'\n"),
            (["schedule", "Ana", "--every", "30m"], 64, "playa: --every takes 1 to 24 months, not 30\n"),
        ]
        for (args, code, err) in refusals {
            let r = run("playa", args)
            XCTAssertEqual(r.code, code, "\(args)")
            XCTAssertEqual(r.err, err, "\(args)")
        }
        XCTAssertEqual((playa("recipient", "show", "Ana").records[0]["contacts"] as? [Any])?.count, 0)

        let c = playa("contacted", "ana", "--via", "call", "--note", "coffee at Luigi's", "--at", "2026-11-22 18:05")
        XCTAssertEqual(c.code, 0, c.err)
        XCTAssertEqual(c.records[0]["type"] as? String, "contact")
        XCTAssertEqual(c.records[0]["recipient"] as? String, "Ana")
        XCTAssertEqual(c.records[0]["at"] as? String, "2026-11-22T18:05:00-05:00")
        XCTAssertEqual(c.records[0]["date"] as? String, "2026-11-22")
        XCTAssertEqual(c.records[0]["next_due"] as? String, "2026-12-06")
        XCTAssertEqual(c.err, "")
        // An older contact is logged and moves nothing.
        let older = playa("contacted", "Ana", "--at", "2026-11-10", "--format", "text")
        XCTAssertEqual(older.out, "In touch with Ana on 2026-11-10; the last contact is later, on 2026-11-22; next due 2026-12-06\n")
        d = playa("recipient").records
        XCTAssertEqual(d.map { $0["name"] as? String }, ["Bo", "Ana", "Cy"], "Bo is due first now")
        XCTAssertEqual(d[1]["last_contact"] as? String, "2026-11-22T18:05:00-05:00")
        XCTAssertEqual(d[1]["last_contact_via"] as? String, "call")
        XCTAssertEqual(d[1]["days_since_contact"] as? Int, 1)
        XCTAssertEqual(d[1]["overdue_days"] as? Int, 0)
        let text = playa("recipient", "--format", "text").out
        XCTAssertTrue(text.contains("every 2 weeks  1 message · in touch 2026-11-22 (yesterday) · due 2026-12-06\n"), text)
        XCTAssertTrue(text.contains("  Bo   sms  every 1 week   1 message · due 2026-11-27\n"), text)
        let show = playa("recipient", "show", "Ana", "--format", "text").out
        XCTAssertTrue(show.contains("  contact: in touch 2026-11-22 (yesterday) · due 2026-12-06\n"), show)
        XCTAssertTrue(show.contains("  in touch:\n    2026-11-22 18:05  call  coffee at Luigi's\n    2026-11-10 00:00\n"), show)
        XCTAssertEqual((playa("recipient", "show", "Ana").records[0]["contacts"] as? [[String: Any]])?.map { $0["date"] as? String },
                       ["2026-11-22", "2026-11-10"])
    }

    /// A cadence draws one reminder on the due day; a contact first cancels
    /// it and pushes the next one back; `open` of a reminder is a contact.
    func testACadenceRemindsOnTheDueDayAndAContactPushesItBack() {
        add("Ana", phone: "+14155550132")
        playa("schedule", "Ana", "--every", "1w", "--now", "2026-11-16T09:00:00-05:00")
        // Not due the day before: nothing drawn.
        XCTAssertEqual(playa("generate", "--now", "2026-11-22T00:00:10-05:00").records.count, 0)
        let g = playa("generate", "--now", "2026-11-23T00:00:10-05:00").records
        XCTAssertEqual(g.count, 1)
        let id = g[0]["id"] as! String
        let at = g[0]["at"] as! String
        // In touch before the reminder's time: it is cancelled, never notified.
        let c = playa("contacted", "Ana", "--now", "2026-11-23T08:00:00-05:00", "--format", "text")
        XCTAssertEqual(c.out, "In touch with Ana on 2026-11-23; next due 2026-11-30; cancelled the reminder of 2026-11-23\n")
        XCTAssertEqual(playa("due", "--now", at).out, "")
        XCTAssertEqual(playa("due", "--now", "2026-11-23T21:30:00-05:00").out, "")
        XCTAssertEqual(playa("queue", "--now", "2026-11-23T21:30:00-05:00").records.count, 0)
        XCTAssertEqual(playa("export").records[0]["events"].flatMap { ($0 as? [[String: Any]])?.first { $0["id"] as? String == id }?["error"] as? String },
                       "in touch on 2026-11-23")
        // A week later it is due again, notified once, and opening it is a contact.
        for day in 24...29 { XCTAssertEqual(playa("generate", "--now", "2026-11-\(day)T00:00:10-05:00").records.count, 0, "11-\(day)") }
        let g2 = playa("generate", "--now", "2026-11-30T00:00:10-05:00").records
        XCTAssertEqual(g2.count, 1)
        let at2 = g2[0]["at"] as! String
        let n = playa("due", "--now", at2)
        XCTAssertEqual(n.records.count, 1)
        XCTAssertEqual(n.records[0]["type"] as? String, "notification")
        XCTAssertEqual(playa("due", "--now", at2).out, "", "once")
        let o = playa("open", g2[0]["id"] as! String, "--command", "true", "--now", "2026-11-30T21:00:00-05:00")
        XCTAssertEqual(o.code, 0, o.err)
        let d = playa("recipient", "--now", "2026-11-30T21:01:00-05:00").records[0]
        XCTAssertEqual(d["last_contact_via"] as? String, "sms")
        XCTAssertEqual(d["due"] as? String, "2026-12-07")
        // Ignored reminders come again a cadence later, not every day.
        XCTAssertEqual(playa("generate", "--now", "2026-12-01T00:00:10-05:00").records.count, 0)
        XCTAssertEqual(playa("generate", "--now", "2026-12-07T00:00:10-05:00").records.count, 1)
        for day in 8...13 {
            XCTAssertEqual(playa("generate", "--now", "2026-12-\(String(format: "%02d", day))T00:00:10-05:00").records.filter { $0["status"] as? String == "pending" }.count, 0)
        }
        XCTAssertEqual(playa("generate", "--now", "2026-12-14T00:00:10-05:00").records.filter { $0["status"] as? String == "pending" }.count, 1)
    }

    func testTheContactLogGoesThroughExportAndImport() {
        add("Ana", phone: "+14155550132")
        playa("schedule", "Ana", "--every", "3m")
        playa("contacted", "Ana", "--via", "in-person", "--note", "lunch")
        let doc = playa("export").out
        XCTAssertTrue(doc.contains("\"contacts\":[{\"type\":\"contact\""), doc)
        let file = write("backup.json", doc)
        XCTAssertEqual(playa("reset", "--yes").code, 0)
        XCTAssertEqual(playa("import", file).code, 0)
        let r = playa("recipient", "show", "Ana").records[0]
        XCTAssertEqual((r["contacts"] as? [[String: Any]])?.first?["note"] as? String, "lunch")
        XCTAssertEqual(r["due"] as? String, "2027-02-23")
        // An import checks each contact and names its place.
        let bad = write("bad.json", doc.replacingOccurrences(of: "\"via\":\"in-person\"", with: "\"via\":\"telepathy\""))
        XCTAssertEqual(playa("reset", "--yes").code, 0)
        let i = playa("import", bad)
        XCTAssertEqual(i.code, 65)
        XCTAssertTrue(i.err.contains("contacts[0]: contact "), i.err)
        XCTAssertTrue(i.err.contains("\"via\" must be one of whatsapp, sms, instagram, telegram, signal, email, call, in-person, other"), i.err)
        XCTAssertEqual(playa("recipient").records.count, 0, "all or nothing")
    }

    /// What an adversary found: each stays fixed.
    func testWhatAnAdversaryFound() throws {
        add("Ana", phone: "+14155550132")
        playa("schedule", "Ana", "--every", "1w", "--now", "2026-11-09T09:00:00-05:00")
        // A contact after the reminder was notified leaves it to be opened.
        let g = playa("generate", "--now", "2026-11-16T00:00:10-05:00").records
        XCTAssertEqual(g.count, 1)
        let id = g[0]["id"] as! String
        XCTAssertEqual(playa("due", "--now", g[0]["at"] as! String).records.count, 1)
        let c = playa("contacted", "Ana", "--now", "2026-11-16T21:00:00-05:00")
        XCTAssertEqual(c.records[0]["cancelled"] as? [String], [])
        XCTAssertEqual(playa("open", id, "--command", "true", "--now", "2026-11-16T21:01:00-05:00").code, 0)
        // Pausing and resuming on the day does not draw a second reminder.
        let g2 = playa("generate", "--now", "2026-11-23T00:00:10-05:00").records
        XCTAssertEqual(g2.count, 1)
        XCTAssertEqual(playa("due", "--now", g2[0]["at"] as! String).records.count, 1)
        playa("recipient", "pause", "Ana", "--now", "2026-11-23T20:00:00-05:00")
        playa("recipient", "resume", "Ana", "--now", "2026-11-23T20:00:00-05:00")
        XCTAssertEqual(playa("due", "--now", "2026-11-23T21:00:00-05:00").out, "")
        // A backdated contact that makes a day already drawn due draws its reminder.
        XCTAssertEqual(playa("generate", "--now", "2026-11-25T00:00:10-05:00").records.filter { $0["status"] as? String == "pending" }.count, 0)
        let back = playa("contacted", "Ana", "--at", "2026-11-18 10:00", "--now", "2026-11-25T08:00:00-05:00")
        XCTAssertEqual(back.records[0]["next_due"] as? String, "2026-11-25")
        XCTAssertEqual(playa("queue", "--now", "2026-11-25T08:01:00-05:00").records.count, 1, "today's reminder drawn")
        // Implausible times are refused, not stored and lost.
        let old = playa("contacted", "Ana", "--at", "1999-12-31T23:00:00-05:00")
        XCTAssertEqual(old.code, 64)
        XCTAssertEqual(old.err, "playa: --at 1999-12-31T23:00:00-05:00 is before 2000-01-01 here: not a plausible time\n")
        XCTAssertEqual(playa("contacted", "Ana", "--note", String(repeating: "👨‍👩‍👧‍👦", count: 161)).err,
                       "playa: a note must be at most 4000 bytes of UTF-8 (this one has 4025)\n")
        // clone --schedule: the copy's cadence counts from today.
        add("Bo", phone: "+14155550133")
        let cl = playa("clone", "Ana", "Bo", "--schedule", "--now", "2026-11-25T09:00:00-05:00")
        XCTAssertEqual(cl.code, 0, cl.err)
        XCTAssertEqual(playa("recipient", "show", "Bo", "--now", "2026-11-25T09:00:00-05:00").records[0]["due"] as? String, "2026-12-02")
        // An import's contacts may not lie ahead.
        let doc = playa("export").out.replacingOccurrences(of: "\"contacts\":[", with: "\"contacts\":[{\"type\":\"contact\",\"id\":\"future000001\",\"recipient_id\":\"\(g[0]["recipient_id"] as! String)\",\"at\":\"2099-01-01T00:00:00Z\",\"date\":\"2098-12-31\",\"via\":null,\"note\":null},")
        let i = playa("import", write("future.json", doc))
        XCTAssertEqual(i.code, 65)
        XCTAssertTrue(i.err.contains("contacts[0]: contact future000001: \"at\" 2099-01-01T00:00:00Z is in the future"), i.err)
    }

    /// A peer's journal with a forged commit clock (a counter at the top of
    /// Int64): the other device keeps writing.
    func testAForgedPeerClockDoesNotStopWrites() throws {
        let sync = tmp + "/sync"
        try FileManager.default.createDirectory(atPath: sync, withIntermediateDirectories: true)
        func on(_ device: String, _ args: String...) -> RunResult {
            run("playa", args, env: ["PLAYA_SYNC_DIR": sync, "PLAYA_ACTOR": device, "PLAYA_DATA_DIR": tmp + "/" + device])
        }
        XCTAssertEqual(on("laptop", "recipient", "add", "Ana", "--platform", "sms", "--phone", "+14155550132").code, 0)
        let rid = on("phone", "recipient").records.first?["id"] as? String ?? ""
        XCTAssertFalse(rid.isEmpty)
        let forged = [
            "{\"type\":\"contacted\",\"contact\":{\"type\":\"contact\",\"id\":\"forged000001\",\"recipient_id\":\"\(rid)\",\"at\":\"2026-11-09T13:00:00Z\",\"date\":\"2026-11-09\",\"via\":\"call\",\"note\":null}}",
            "{\"type\":\"commit\",\"n\":1,\"at\":\"2026-11-09T08:00:00-05:00\",\"by\":\"root\",\"schema\":1,\"hlc\":[1894142900000,9223372036854775807]}",
        ].joined(separator: "\n") + "\n"
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: sync + "/laptop.ndjson"))
        h.seekToEndOfFile()
        h.write(forged.data(using: .utf8)!)
        h.closeFile()
        let c = on("phone", "contacted", "Ana", "--via", "call")
        XCTAssertEqual(c.code, 0, c.err)
        XCTAssertEqual(on("phone", "generate").code, 0)
        let d = on("phone", "recipient").records[0]
        XCTAssertEqual(d["last_contact"] as? String, now)
        XCTAssertEqual(on("laptop", "contacted", "Ana").code, 0)
    }

    /// Dates that matter: added, listed, reminded on their day (or days
    /// before) with their own message, Feb 29 on Feb 28, removed, erased.
    func testBirthdaysAndOtherDates() throws {
        XCTAssertEqual(playa("recipient", "add", "Ana", "--platform", "sms", "--phone", "+14155550132").code, 0)
        let a = playa("date", "add", "Ana", "birthday", "1990-03-14", "--before", "2", "--message", "Happy birthday, Ana! 🎂")
        XCTAssertEqual(a.code, 0, a.err)
        XCTAssertEqual(a.records[0]["next"] as? String, "2027-03-14")
        XCTAssertEqual(a.records[0]["days_until"] as? Int, 111)
        XCTAssertEqual(a.records[0]["years"] as? Int, 37)
        XCTAssertEqual(a.records[0]["remind_on"] as? String, "2027-03-12")
        XCTAssertEqual(playa("date", "add", "Ana", "leap day", "02-29", "--format", "text").out, "Added 2027-02-28  Ana's leap day, in 97 days\n")
        let refusals: [([String], Int32, String)] = [
            (["date", "add", "Ana", "birthday", "1990-02-30"], 64, "playa: a date is like 1990-03-14, or 03-14 without the year, not '1990-02-30'\n"),
            (["date", "add", "Ana", "bday!", "03-14"], 64, "playa: a date's label is 1 to 40 letters, digits, spaces, '-', '_' or \"'\", like birthday or anniversary\n"),
            (["date", "add", "Ana", "birthday", "03-14", "--before", "61"], 64, "playa: --before takes 0 to 60 days, not '61'\n"),
            (["date", "add", "Bo", "birthday", "03-14"], 65, "playa: no recipient named 'Bo'; 'playa recipient list' shows them\n"),
            (["date", "rm", "Ana", "wedding"], 65, "playa: Ana has no date 'wedding'; 'playa date list Ana' shows them\n"),
        ]
        for (args, code, err) in refusals {
            let r = run("playa", args)
            XCTAssertEqual(r.code, code, "\(args)")
            XCTAssertEqual(r.err, err, "\(args)")
        }
        XCTAssertEqual(playa("date", "list").records.map { $0["label"] as? String }, ["leap day", "birthday"])
        // The reminder: two days ahead, at 09:00, with the occasion's message; no schedule or pool needed.
        XCTAssertEqual(playa("generate", "--now", "2027-03-11T00:00:10-05:00").records.count, 0)
        let g = playa("generate", "--now", "2027-03-12T00:00:10-05:00")
        XCTAssertEqual(g.records.map { $0["message"] as? String }, ["Happy birthday, Ana! 🎂"])
        XCTAssertEqual(g.records.first?["at"] as? String, "2027-03-12T09:00:00-05:00")
        XCTAssertEqual(g.err, "", "no warning of an empty pool when the day holds a date")
        let n = playa("due", "--now", "2027-03-12T09:00:00-05:00")
        XCTAssertEqual(n.records.first?["body"] as? String, "Happy birthday, Ana! 🎂")
        // Feb 29 in a common year, with the default greeting.
        XCTAssertEqual(playa("generate", "--now", "2027-02-28T00:00:10-05:00").records.map { $0["message"] as? String }, ["Thinking of you today!"])
        XCTAssertEqual(playa("date", "rm", "Ana", "Leap Day").code, 0)
        XCTAssertEqual(playa("date", "list", "Ana").records.count, 1)
        // Erased with their recipient.
        XCTAssertEqual(playa("recipient", "rm", "Ana", "--yes").code, 0)
        let grep = Process()
        grep.executableURL = URL(fileURLWithPath: "/bin/sh")
        grep.arguments = ["-c", "grep -rl 'Happy birthday, Ana' '\(dataDir)'"]
        try grep.run()
        grep.waitUntilExit()
        XCTAssertEqual(grep.terminationStatus, 1, "no trace of the birthday message")
    }

    /// What a second adversary found in dates: each stays fixed.
    func testDatesAfterAnAdversary() throws {
        add("Bo", phone: "+14155550133")
        playa("schedule", "Bo", "--fixed", "12:00")
        playa("generate", "--now", "2026-11-23T00:00:10-05:00")
        let early = "2026-11-23T08:00:00-05:00"
        // Moving a date on its reminder day cancels the reminder already drawn: one reminder, on the new day.
        XCTAssertNotNil(playa("date", "add", "Bo", "birthday", "11-23", "--now", early).records.first?["drawn"] as? String)
        XCTAssertEqual(playa("date", "add", "Bo", "birthday", "11-24", "--now", early).code, 0)
        XCTAssertEqual(playa("due", "--now", "2026-11-23T09:00:00-05:00").records.count, 0)
        XCTAssertEqual(playa("generate", "--now", "2026-11-24T00:00:10-05:00").records.filter { $0["time"] as? String == "09:00" }.count, 1)
        // Removing it on its day does too.
        XCTAssertEqual(playa("date", "add", "Bo", "name day", "11-24", "--now", "2026-11-24T08:00:00-05:00").code, 0)
        XCTAssertEqual(playa("date", "rm", "Bo", "name day", "--now", "2026-11-24T08:00:01-05:00").code, 0)
        XCTAssertEqual(playa("due", "--now", "2026-11-24T09:00:00-05:00").records.map { $0["body"] as? String }, ["Happy birthday!"])
        // Pause and resume before 09:00 keep the date's reminder.
        XCTAssertEqual(playa("date", "add", "Bo", "anniversary", "11-25", "--now", "2026-11-24T10:00:00-05:00").code, 0)
        playa("generate", "--now", "2026-11-25T00:00:10-05:00")
        playa("recipient", "pause", "Bo", "--now", "2026-11-25T08:00:00-05:00")
        playa("recipient", "resume", "Bo", "--now", "2026-11-25T08:00:01-05:00")
        XCTAssertEqual(playa("due", "--now", "2026-11-25T09:00:00-05:00").records.map { $0["body"] as? String }, ["Happy anniversary!"])
        // A contact cancels a cadence's reminder, never a birthday's.
        playa("schedule", "Bo", "--every", "1w", "--now", "2026-11-25T10:00:00-05:00")
        XCTAssertEqual(playa("date", "add", "Bo", "saint's day", "11-27", "--now", "2026-11-25T10:00:00-05:00").code, 0)
        playa("generate", "--now", "2026-11-27T00:00:10-05:00")
        XCTAssertEqual(playa("contacted", "Bo", "--now", "2026-11-27T08:00:00-05:00").records.first?["cancelled"] as? [String], [])
        XCTAssertEqual(playa("due", "--now", "2026-11-27T09:00:00-05:00").records.map { $0["body"] as? String }, ["Thinking of you today!"])
        // A date with a year ahead: its first occurrence is that day, never a negative age.
        let f = playa("date", "add", "Bo", "wedding", "2028-06-10", "--now", "2026-11-27T10:00:00-05:00").records[0]
        XCTAssertEqual(f["next"] as? String, "2028-06-10")
        XCTAssertEqual(f["years"] as? Int, 0)
        // An import with a wrongly typed "before" or "messages" is refused, not read as a default.
        let doc = playa("export").out
        for (from, to) in [("\"before\":0", "\"before\":\"7\""), ("\"messages\":[]", "\"messages\":\"HELLO\"")] {
            let i = playa("import", write("typed.json", doc.replacingOccurrences(of: from, with: to)))
            XCTAssertEqual(i.code, 65, "\(to)")
            XCTAssertTrue(i.err.contains("dates[0] must be"), i.err)
        }
        XCTAssertEqual(playa("date", "add", "Bo", "नमस्ते", "01-01").code, 0, "labels with combining marks")
    }
}
