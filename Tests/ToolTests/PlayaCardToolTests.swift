import XCTest
import TestSupport

/// `playa recipient import` against the real address book: khard writes
/// the vdir (vCard 4.0 and 3.0, one file a card, as vdirsyncer keeps a
/// CardDAV address book), khard edits a card, playa imports again; and
/// Google's export through stdin, the refusals and exit statuses.
final class PlayaCardToolTests: ToolTestCase {
    let now = "2026-11-23T10:00:00-05:00"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["PLAYA_DATA_DIR"] = dataDir
        e["PLAYA_NOW"] = now
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    @discardableResult
    func playa(_ args: String..., stdin: String? = nil) -> RunResult { run("playa", args, stdin: stdin) }

    /// Writes a khard config for a book at `book` and runs khard there.
    func khard(_ book: String, version: String, _ line: String) -> RunResult {
        let cfg = tmp + "/khard-\(version)"
        try? FileManager.default.createDirectory(atPath: cfg + "/khard", withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: book, withIntermediateDirectories: true)
        _ = write("khard-\(version)/khard/khard.conf", """
            [addressbooks]
            [[book]]
            path = \(book)
            [general]
            editor = /bin/false
            merge_editor = /bin/false
            [vcard]
            preferred_version = \(version)

            """)
        return sh(line, env: ["XDG_CONFIG_HOME": cfg, "HOME": tmp])
    }

    func testKhardsVdirImportsAndReimportsWithoutDuplicates() throws {
        try require(.khard)
        let book = tmp + "/contacts/family"
        _ = write("chloe.yaml", "First name : Chloé\nLast name  : Martin\nBirthday : --05-21\nAnniversary : 2010-06-12\nPhone :\n    cell : +33 6 12 34 56 78\n    home : 01 23 45 67 89\nEmail :\n    home : chloe@example.fr\n")
        _ = write("ben.yaml", "First name : Ben\nLast name  : Okafor\nBirthday : 1988-07-02\nPhone :\n    cell : 07400 123456\nEmail :\n    work : ben@example.com\n")
        _ = write("rita.yaml", "First name : Rita\nLast name  : Silva\nEmail :\n    home : rita@example.org\n")
        XCTAssertEqual(khard(book, version: "4.0", "khard new -a book -i \(tmp)/chloe.yaml").code, 0)
        XCTAssertEqual(khard(book, version: "3.0", "khard new -a book -i \(tmp)/ben.yaml && khard new -a book -i \(tmp)/rita.yaml").code, 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: book).filter { $0.hasSuffix(".vcf") }
        XCTAssertEqual(files.count, 3)

        // Ben's number has no country code: skipped, naming --country; the rest come in.
        var r = playa("recipient", "import", book)
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.records.map { $0["action"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") }, ["added", "added", "skipped"])
        XCTAssertTrue(r.err.contains("Ben Okafor skipped: '07400 123456' has no country code (+44…); --country CODE reads such numbers"), r.err)
        r = playa("recipient", "import", book, "--country", "44", "--format", "text")
        XCTAssertEqual(r.out, "Imported 3 cards: 1 added, 0 updated, 2 unchanged, 0 skipped\n")
        let list = playa("recipient", "list").records
        XCTAssertEqual(list.map { $0["name"] as? String }, ["Ben Okafor", "Chloé Martin", "Rita Silva"])
        XCTAssertEqual(list.map { $0["platform"] as? String }, ["whatsapp", "whatsapp", "email"])
        XCTAssertEqual(list[0]["phone"] as? String, "+447400123456")
        XCTAssertEqual(list[1]["phone"] as? String, "+33612345678")
        XCTAssertEqual(list[2]["email"] as? String, "rita@example.org")
        let dates = playa("date", "list").records.map { "\($0["recipient"] as? String ?? "") \($0["label"] as? String ?? "") \($0["date"] as? String ?? "")" }
        XCTAssertEqual(dates, ["Chloé Martin birthday --05-21", "Chloé Martin anniversary 2010-06-12", "Ben Okafor birthday 1988-07-02"])

        // A pool and a cadence of playa's own, then khard changes Ben's number: updated in place.
        XCTAssertEqual(playa("message", "add", "Ben Okafor", "Pint on Friday?").code, 0)
        XCTAssertEqual(playa("schedule", "Ben Okafor", "--every", "2w").code, 0)
        _ = write("ben2.yaml", "First name : Ben\nLast name  : Okafor\nBirthday : 1988-07-03\nPhone :\n    cell : 07400 654321\nEmail :\n    work : ben@example.com\n")
        XCTAssertEqual(khard(book, version: "3.0", "yes y | khard edit -i \(tmp)/ben2.yaml Okafor").code, 0)
        r = playa("recipient", "import", book, "--country", "44")
        let ben = r.records.first { $0["name"] as? String == "Ben Okafor" }
        XCTAssertEqual(ben?["action"] as? String, "updated")
        XCTAssertEqual(ben?["changed"] as? [String], ["phone", "birthday"])
        let show = playa("recipient", "show", "Ben Okafor").records.first
        XCTAssertEqual(show?["phone"] as? String, "+447400654321")
        XCTAssertEqual(show?["strategy"] as? String, "every 2 weeks")
        XCTAssertEqual(show?["templates"] as? Int, 1)
        XCTAssertEqual(playa("recipient", "list").records.count, 3, "never a duplicate")
        XCTAssertEqual(playa("recipient", "import", book, "--country", "44", "--format", "text").out,
                       "Imported 3 cards: 0 added, 0 updated, 3 unchanged, 0 skipped\n")
    }

    func testGoogleExportOnStdinDryRunAndRefusals() {
        let google = [
            "BEGIN:VCARD", "VERSION:3.0", "FN:Ana Lima", "N:Lima;Ana;;;", "EMAIL;TYPE=INTERNET;TYPE=HOME:ana.lima@example.org",
            "TEL;TYPE=HOME:(415) 555-0199", "TEL;TYPE=CELL:+1 415-555-0132", "BDAY:--03-14", "CATEGORIES:myContacts", "END:VCARD",
        ].joined(separator: "\r\n") + "\r\n"
        var r = playa("recipient", "import", "--dry-run", "--format", "text", stdin: google)
        XCTAssertEqual(r.out, "Would import 1 card: 1 added, 0 updated, 0 unchanged, 0 skipped\n")
        XCTAssertEqual(playa("recipient", "list").records.count, 0, "a dry run changes nothing")
        r = playa("recipient", "import", "-", "--platform", "sms", stdin: google)
        XCTAssertEqual(r.records.first?["platform"] as? String, "sms")
        XCTAssertEqual(playa("recipient", "show", "Ana Lima").records.first?["phone"] as? String, "+14155550132")

        let refusals: [([String], String?, Int32, String)] = [
            (["recipient", "import", "--platform", "instagram"], google, 64,
             "playa: --platform must be one of whatsapp, sms, telegram, signal, email, not 'instagram'; see 'playa recipient import --help'\n"),
            (["recipient", "import", "--country", "999"], google, 64, "playa: --country takes a country calling code like 44 or +1, not '999'\n"),
            (["recipient", "import"], "not a card\n", 65, "playa: stdin: no vCard in it (BEGIN:VCARD … END:VCARD)\nplaya: no vCard to import (BEGIN:VCARD … END:VCARD); nothing imported\n"),
            (["recipient", "import", tmp + "/missing.vcf"], nil, 66, "playa: cannot open \(tmp)/missing.vcf: No such file or directory\n"),
            (["recipient", "import", "/dev/zero"], nil, 65, "playa: /dev/zero: not a regular file\n"),
            (["recipient", "import"], "BEGIN:VCARD\nFN:Nobody\nEND:VCARD\n", 65, "playa: stdin:1: Nobody skipped: the card has no phone number or e-mail address\n"),
        ]
        for (args, input, code, err) in refusals {
            let r = run("playa", args, stdin: input)
            XCTAssertEqual(r.code, code, args.joined(separator: " "))
            XCTAssertEqual(r.err, err, args.joined(separator: " "))
        }
        XCTAssertEqual(playa("recipient", "list").records.map { $0["name"] as? String }, ["Ana Lima"], "what was stored stays")
    }

    /// Someone imported after the day's `generate` whose birthday is today:
    /// the reminder is drawn at once, for 09:00, and notified then.
    func testABirthdayTodayImportedAfterGenerateIsDrawn() {
        XCTAssertEqual(playa("recipient", "add", "Zed", "--platform", "sms", "--phone", "+14155550140").code, 0)
        XCTAssertEqual(run("playa", ["generate"], env: ["PLAYA_NOW": "2026-11-23T00:05:00-05:00"]).code, 0)
        let card = "BEGIN:VCARD\nVERSION:3.0\nFN:Ana Lima\nTEL;TYPE=CELL:+14155550132\nBDAY:1990-11-23\nEND:VCARD\n"
        XCTAssertEqual(run("playa", ["recipient", "import"], stdin: card, env: ["PLAYA_NOW": "2026-11-23T08:00:00-05:00"]).code, 0)
        let q = run("playa", ["queue"], env: ["PLAYA_NOW": "2026-11-23T08:00:00-05:00"]).records
        XCTAssertEqual(q.map { "\($0["recipient"] as? String ?? "") \($0["time"] as? String ?? "") \($0["status"] as? String ?? "")" }, ["Ana Lima 09:00 pending"])
        XCTAssertEqual(q.first?["message"] as? String, "Happy birthday!")
    }

    /// Past contact from mail as Python's mailbox module writes it (an mbox
    /// with `>From ` escaping, a Maildir of cur/ and new/): the last mail
    /// from or to each recipient's addresses is logged by e-mail and moves
    /// their cadence; reading the same mail again logs nothing.
    func testContactsFromAnMboxAndAMaildir() throws {
        try require(.python3)
        let cards = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ana Lima\r\nTEL;TYPE=CELL:+14155550132\r\nEMAIL;TYPE=HOME:ana.lima@example.org\r\nEMAIL;TYPE=WORK:ana@work.example\r\nEND:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Chloé Martin\r\nEMAIL:chloe@example.fr\r\nEND:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bo\r\nTEL;TYPE=CELL:+14155550133\r\nEND:VCARD\r\n"
        XCTAssertEqual(playa("recipient", "import", stdin: cards).code, 0)
        XCTAssertEqual(playa("schedule", "Ana Lima", "--every", "1w", "--now", "2026-11-01T09:00:00-05:00").code, 0)
        _ = write("mail.py", """
            import mailbox, email.message, email.utils, datetime, sys
            tz = datetime.timezone(datetime.timedelta(hours=-5))
            def msg(frm, to, when, subject):
                m = email.message.EmailMessage()
                m['From'], m['To'], m['Subject'] = frm, to, subject
                m['Date'] = email.utils.format_datetime(when)
                m.set_content("Hi!\\n\\nFrom the train, more soon.\\n")
                return m
            box = mailbox.mbox(sys.argv[1] + '/Sent')
            box.add(msg('Me <me@example.net>', '"Lima, Ana" <Ana.Lima@example.org>', datetime.datetime(2026, 11, 10, 9, 0, tzinfo=tz), 'Lunch'))
            box.add(msg('Chloé Martin <chloe@example.fr>', 'me@example.net', datetime.datetime(2026, 11, 20, 18, 5, tzinfo=tz), 'Re: Lunch'))
            box.add(msg('Me <me@example.net>', 'ana@work.example, someone@else.org', datetime.datetime(2026, 11, 21, 8, 0, tzinfo=tz), 'Later'))
            box.add(msg('Me <me@example.net>', 'ana@work.example', datetime.datetime(2027, 1, 1, 8, 0, tzinfo=tz), 'From a clock ahead'))
            box.flush()
            md = mailbox.Maildir(sys.argv[1] + '/Maildir', create=True)
            md.add(msg('Ana <ana.lima@example.org>', 'me@example.net', datetime.datetime(2026, 11, 22, 7, 30, tzinfo=tz), 'Morning'))
            """)
        XCTAssertEqual(sh("python3 \(tmp)/mail.py \(tmp)").code, 0)

        var r = playa("contacted", "--mail", tmp + "/Sent", "--format", "text")
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.out, "In touch with Chloé Martin on 2026-11-20 (email)\nIn touch with Ana Lima on 2026-11-21 (email); next due 2026-11-28\nRead 4 messages; 2 contacts recorded\n")
        XCTAssertEqual(r.err, "playa: \(tmp)/Sent: 1 message without a plausible Date (missing, unreadable, more than 5 minutes ahead or before 2000) left out\n")
        r = playa("contacted", "--mail", tmp + "/Sent", "--format", "text")
        XCTAssertEqual(r.out, "Read 4 messages; 0 contacts recorded (none later than the log)\n", "the same mail again logs nothing")
        // From cron (-q): nothing new, nothing said, not even the old mail's bad Date.
        r = playa("contacted", "--mail", tmp + "/Sent", "-q")
        XCTAssertEqual([r.out, r.err, "\(r.code)"], ["", "", "0"])
        // One person only, from a Maildir.
        r = playa("contacted", "--mail", tmp + "/Maildir", "Chloé Martin")
        XCTAssertEqual(r.records.count, 0, "Ana's mail is not Chloé's")
        r = playa("contacted", "--mail", tmp + "/Maildir")
        XCTAssertEqual(r.records.first?["recipient"] as? String, "Ana Lima")
        XCTAssertEqual(r.records.first?["at"] as? String, "2026-11-22T07:30:00-05:00")
        let ana = playa("recipient", "show", "Ana Lima").records.first
        XCTAssertEqual(ana?["last_contact_via"] as? String, "email")
        XCTAssertEqual(ana?["due"] as? String, "2026-11-29")
        XCTAssertEqual((ana?["contacts"] as? [Any])?.count, 2)

        // A shared address credits everyone who has it.
        XCTAssertEqual(playa("recipient", "add", "Family", "--platform", "email", "--email", "Chloe@Example.fr").code, 0)
        r = playa("contacted", "--mail", tmp + "/Sent")
        XCTAssertEqual(r.records.map { $0["recipient"] as? String }, ["Family"])

        let refusals: [([String], Int32, String)] = [
            (["contacted", "--mail", tmp + "/Sent", "--via", "call"], 64, "playa: --mail takes the time from each message: not --via\n"),
            (["contacted", "--mail", tmp + "/mail.py"], 65, "playa: \(tmp)/mail.py: not an mbox file (no message starts with a 'From ' line) nor a Maildir folder\n"),
            (["contacted", "--mail", tmp], 65, "playa: \(tmp): not a Maildir (it has no cur/ or new/ folder) nor an mbox file\n"),
            (["contacted", "--mail", tmp + "/Sent", "Bo"], 65, "playa: Bo has no e-mail address; 'playa recipient import' brings them from your address book\n"),
            (["contacted"], 64, "playa: contacted needs NAME (or --mail MAILBOX)\n"),
        ]
        for (args, code, err) in refusals {
            let r = run("playa", args)
            XCTAssertEqual(r.code, code, args.joined(separator: " "))
            XCTAssertEqual(r.err, err, args.joined(separator: " "))
        }
    }
}
