import XCTest

final class PlayaToolTests: ToolTestCase {
    let now = "2026-11-23T00:00:30-05:00"
    let phone = "+14155550132"
    let secret = "Coffee & cake at mine? 🎂"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["PLAYA_DATA_DIR"] = dataDir
        e["PLAYA_NOW"] = now
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    @discardableResult
    func playa(_ args: String..., stdin: String? = nil, env: [String: String] = [:]) -> RunResult {
        run("playa", args, stdin: stdin, env: env)
    }

    func setUpAna() {
        XCTAssertEqual(playa("recipient", "add", "Ana", "--platform", "whatsapp", "--phone", phone).code, 0)
        playa("message", "add", "Ana", secret)
        playa("message", "add", "Ana", "How was the trip?")
        playa("schedule", "Ana", "--random", "3")
    }

    func testRecipientsValidateAndTheDashboardShowsThem() {
        setUpAna()
        let cases: [([String], String)] = [
            (["recipient", "add", "Bo", "--platform", "whatsapp", "--phone", "4155550132"], "playa: --phone must be in international E.164 form like +14155550132\n"),
            (["recipient", "add", "Bo", "--platform", "instagram", "--username", "bad name!"], "playa: an Instagram username is 1 to 30 letters, digits, '_' or '.'\n"),
            (["recipient", "add", "Bo", "--platform", "sms"], "playa: SMS needs --phone with a country code, like +14155550132\n"),
            (["recipient", "add", "  ", "--platform", "sms", "--phone", phone], "playa: a name must not be empty\n"),
            (["recipient", "add", "Bo", "--platform", "fax"], "playa: --platform must be one of whatsapp, sms, instagram, telegram, signal, email, not 'fax'; see 'playa recipient add --help'\n"),
            (["recipient", "add", "Bo", "--platform", "email", "--email", "bo@localhost"], "playa: an e-mail address is like ana@example.org: letters, digits, '.', '_', '+' or '-' before the @, a domain after it\n"),
            (["recipient", "add", "Bo", "--platform", "email", "--phone", phone], "playa: e-mail takes --email, not --phone\n"),
            (["recipient", "add", "Bo", "--platform", "signal", "--username", "bo_cat"], "playa: Signal takes --phone, not --username\n"),
            (["recipient", "add", "Bo", "--platform", "telegram", "--username", "bo"], "playa: a Telegram username is 5 to 32 letters, digits or '_', starting with a letter and not ending with '_'\n"),
            (["recipient", "add", "Bo", "--platform", "telegram", "--username", "bo_cat", "--phone", phone], "playa: Telegram takes --phone or --username, not both\n"),
        ]
        for (args, err) in cases {
            let r = run("playa", args)
            XCTAssertEqual(r.code, 64, "\(args)")
            XCTAssertEqual(r.err, err)
        }
        XCTAssertEqual(playa("recipient", "add", "ana", "--platform", "sms", "--phone", phone).code, 65, "names are unique, any case")
        let d = playa("recipient")
        XCTAssertEqual(d.records.count, 1)
        XCTAssertEqual(d.records[0]["strategy"] as? String, "random 3/day")
        XCTAssertEqual(d.records[0]["templates"] as? Int, 2)
        XCTAssertEqual(playa("message", "add", "Ana", String(repeating: "x", count: 501)).err,
                       "playa: a message must be at most 500 characters (this one has 501)\n")
    }

    func testGenerateOnceAQueueInOrderAndNothingSecretOnStderr() {
        setUpAna()
        playa("recipient", "add", "Bo", "--platform", "instagram", "--username", "bo.cat")
        playa("schedule", "Bo", "--fixed", "12:00,18:30")
        let before = write("before.json", playa("export").out)
        let g = playa("generate", "--seed", "7")
        XCTAssertEqual(g.code, 0)
        XCTAssertEqual(g.err, "playa: Bo has no messages: no events generated (add one with 'playa message add')\n")
        XCTAssertFalse(g.err.contains(phone) || g.err.contains("Coffee"))
        XCTAssertEqual(g.records.count, 3)
        XCTAssertEqual(playa("generate", "--seed", "7").out, "", "the same day twice adds nothing")
        // Cron is told once, not every midnight until Bo has a message.
        let tomorrow = playa("generate", "--date", "2026-11-24")
        XCTAssertEqual(tomorrow.code, 0, tomorrow.err)
        XCTAssertEqual(tomorrow.err, "", "said once already")
        // Bo's pool fills, then empties again: told again, once.
        let added = playa("message", "add", "Bo", "hello Bo")
        XCTAssertEqual(added.code, 0, added.err)
        XCTAssertEqual(playa("generate", "--date", "2026-11-25").err, "")
        let id = playa("message", "list", "Bo").records.first?["id"] as? String ?? ""
        XCTAssertEqual(playa("message", "rm", "Bo", id).code, 0)
        XCTAssertEqual(playa("generate", "--date", "2026-11-26").err, "playa: Bo has no messages: no events generated (add one with 'playa message add')\n")
        XCTAssertEqual(playa("generate", "--date", "2026-11-27").err, "")
        // The same recipients elsewhere, the same seed: the same draw.
        let other = ["PLAYA_DATA_DIR": tmp + "/other"]
        XCTAssertEqual(run("playa", ["import", before], env: other).code, 0)
        let again = run("playa", ["generate", "--seed", "7"], env: other)
        XCTAssertEqual(again.records.map { "\($0["time"]!) \($0["message"]!) \($0["id"]!)" },
                       g.records.map { "\($0["time"]!) \($0["message"]!) \($0["id"]!)" }, "--seed makes the draw reproducible")
        let q = playa("queue")
        XCTAssertEqual(q.records.map { $0["time"] as? String }, g.records.map { $0["time"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") })
        for rec in q.records {
            XCTAssertEqual(rec["recipient"] as? String, "Ana")
            XCTAssertEqual(rec["platform"] as? String, "whatsapp")
            XCTAssertEqual(rec["status"] as? String, "pending")
            let t = rec["time"] as! String
            XCTAssertTrue(t >= "09:00" && t <= "21:00")
        }
        let late = playa("queue", "--now", "2026-11-23T20:59:00-05:00")
        XCTAssertTrue(late.records.allSatisfy { $0["soon"] as? Bool == true }, "all due by now, or within 30 minutes")
    }

    func testStatusMovesOnlyForward() {
        setUpAna()
        let id = playa("generate").records[0]["id"] as! String
        XCTAssertEqual(playa("cancel", String(id.prefix(5))).records[0]["status"] as? String, "cancelled")
        let again = playa("cancel", id)
        XCTAssertEqual(again.code, 65)
        XCTAssertEqual(again.err, "playa: event \(id) is cancelled; only pending events can become cancelled\n")
        XCTAssertEqual(playa("open", id, "--command", "true").code, 65)
        XCTAssertEqual(playa("event", "edit", id, "new text").code, 65)
    }

    func testLinksAndOpen() {
        setUpAna()
        let evs = playa("generate").records
        let id = evs[0]["id"] as! String
        let msg = evs[0]["message"] as! String
        let link = playa("link", id).records[0]["url"] as! String
        XCTAssertTrue(link.hasPrefix("whatsapp://send?phone=14155550132&text="), link)
        XCTAssertFalse(link.contains(" "))
        XCTAssertTrue(playa("link", id, "--web").records[0]["url"] as! String == "https://wa.me/14155550132?text=" + String(link.split(separator: "=", maxSplits: 2)[2]))
        // A failing opener keeps the event pending, with the error.
        let fail = playa("open", id, "--command", "exit 4")
        XCTAssertEqual(fail.code, 75)
        XCTAssertEqual(fail.err, "playa: could not open event \(id): the opener exited 4; it stays pending\n")
        XCTAssertEqual(playa("queue").records.first { $0["id"] as? String == id }?["error"] as? String, "the opener exited 4")
        // An opener that is not there is bad configuration (78), naming the fix, not "try again".
        let missing = run("playa", ["open", id], env: ["PATH": tmp + "/empty-bin"])
        XCTAssertEqual(missing.code, 78, missing.err)
        XCTAssertTrue(missing.err.contains("the opener 'xdg-open' was not found; install xdg-utils, or set open_command in"), missing.err)
        XCTAssertEqual(playa("open", id, "--command", "no-such-opener-here").code, 78)
        // The opener gets the URL as its last argument.
        let ok = playa("open", id, "--command", "sh -c 'printf %s \"$1\" > \(tmp)/opened' opener")
        XCTAssertEqual(ok.code, 0, ok.err)
        XCTAssertEqual(ok.records[0]["status"] as? String, "sent")
        XCTAssertEqual(try String(contentsOfFile: tmp + "/opened", encoding: .utf8), link)
        _ = msg
    }

    func testDueNotifiesOnceAndRecordsDelivery() throws {
        setUpAna()
        playa("schedule", "Ana", "--fixed", "09:00,10:00")
        playa("generate")
        let first = playa("due", "--now", "2026-11-23T09:00:00-05:00")
        XCTAssertEqual(first.records.count, 1)
        XCTAssertEqual(first.records[0]["type"] as? String, "notification")
        XCTAssertEqual(first.records[0]["recipient"] as? String, "Ana")
        XCTAssertTrue((first.records[0]["url"] as? String ?? "").hasPrefix("whatsapp://send?phone=14155550132&text="))
        XCTAssertEqual(playa("due", "--now", "2026-11-23T09:00:30-05:00").out, "", "once")
        let failing = playa("due", "--now", "2026-11-23T10:00:00-05:00", "--command", "exit 2")
        XCTAssertEqual(failing.code, 75)
        XCTAssertEqual(failing.records[0]["notification"] as? String, "failed")
        let retried = playa("due", "--now", "2026-11-23T10:01:00-05:00", "--command", "cat > '\(tmp)/n.json'")
        XCTAssertEqual(retried.code, 0)
        XCTAssertEqual(retried.out, "", "what the command took is not printed again (cron would mail it)")
        let handed = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: tmp + "/n.json"))) as? [String: Any]
        XCTAssertEqual(handed?["type"] as? String, "notification")
        XCTAssertEqual(playa("queue", "--now", "2026-11-23T10:01:30-05:00").records.first { $0["id"] as? String == handed?["id"] as? String }?["notification"] as? String, "delivered")
        XCTAssertEqual(playa("due", "--now", "2026-11-23T10:02:00-05:00", "--command", "true").out, "")
        let test = playa("notify", "--test", handed?["id"] as? String ?? "")
        XCTAssertEqual(test.records[0]["type"] as? String, "notification")
        XCTAssertEqual(playa("notify", "x").code, 64)
    }

    func testScheduleChangeRegeneratesUnlessConfirmed() {
        setUpAna()
        let before = playa("generate").records.map { $0["id"] as! String }
        let change = playa("schedule", "Ana", "--fixed", "20:00")
        XCTAssertEqual(change.records[0]["regenerated"] as? [String], ["2026-11-23"])
        let q = playa("queue").records
        XCTAssertEqual(q.map { $0["time"] as? String }, ["20:00"])
        XCTAssertTrue(Set(q.map { $0["id"] as! String }).isDisjoint(with: before))
        XCTAssertEqual(playa("confirm").code, 64, "confirm needs --yes off a terminal")
        XCTAssertEqual(playa("confirm", "--yes").records[0]["confirmed"] as? Bool, true)
        let locked = playa("schedule", "Ana", "--random", "5")
        XCTAssertEqual(locked.records[0]["unchanged_confirmed"] as? [String], ["2026-11-23"])
        XCTAssertEqual(playa("queue").records.map { $0["time"] as? String }, ["20:00"])
        XCTAssertEqual(playa("queue", "--format", "text").out.split(separator: "\n").first, "Queue for 2026-11-23 (confirmed) — * within 30 min, ! overdue")
    }

    func testCloneCopiesDeeply() {
        setUpAna()
        playa("recipient", "add", "Bo", "--platform", "sms", "--phone", "+442079460958")
        XCTAssertEqual(playa("clone", "Ana", "Bo").code, 64)
        let c = playa("clone", "Ana", "Bo", "--schedule", "--messages")
        XCTAssertEqual(c.records[0]["copied"] as? [String], ["schedule", "messages"])
        XCTAssertEqual(c.records[0]["platform"] as? String, "sms")
        XCTAssertEqual(c.records[0]["phone"] as? String, "+442079460958")
        let bo = playa("message", "list", "Bo").records
        playa("message", "edit", "Bo", bo[0]["id"] as! String, "changed")
        XCTAssertEqual(playa("message", "list", "Ana").records.map { $0["text"] as? String }, [secret, "How was the trip?"])
    }

    func testExportImportAllOrNothingAndReset() throws {
        setUpAna()
        playa("generate")
        let export = playa("export")
        XCTAssertEqual(export.lines.count, 1)
        let doc = try JSONSerialization.jsonObject(with: Data(export.out.utf8)) as! [String: Any]
        XCTAssertEqual((doc["recipients"] as! [Any]).count, 1)
        XCTAssertEqual((doc["events"] as! [Any]).count, 3)
        let corrupt = write("corrupt.json", export.out.replacingOccurrences(of: "\"per_day\":3", with: "\"per_day\":30"))
        let other = tmp + "/other"
        let bad = run("playa", ["import", corrupt], env: ["PLAYA_DATA_DIR": other])
        XCTAssertEqual(bad.code, 65)
        XCTAssertTrue(bad.err.hasPrefix("playa: \(corrupt): recipients[0]: recipient"), bad.err)
        XCTAssertTrue(bad.err.hasSuffix("; nothing imported\n"), bad.err)
        XCTAssertEqual(run("playa", ["recipient"], env: ["PLAYA_DATA_DIR": other]).out, "", "nothing imported")
        let truncated = write("trunc.json", String(export.out.prefix(export.out.count / 2)))
        XCTAssertEqual(run("playa", ["import", truncated], env: ["PLAYA_DATA_DIR": other]).code, 65)
        XCTAssertEqual(sh("playa import - < '\(corrupt)'", env: ["PLAYA_DATA_DIR": other]).code, 65)
        XCTAssertEqual(sh("cat '\(corrupt)' | playa import -", env: ["PLAYA_DATA_DIR": other]).code, 65, "stdin may be a pipe")
        XCTAssertEqual(sh("cat '\(corrupt)' | playa import -", env: ["PLAYA_DATA_DIR": other]).err,
                       bad.err.replacingOccurrences(of: corrupt, with: "stdin"), "standard input is named stdin")
        // A syntax error is FILE:LINE:COLUMN, counted in lines and characters
        // (a pretty-printed file, with a multi-byte character before the error).
        let pretty = write("pretty.json", "{\n  \"type\": \"playa_export\",\n  \"version\": 1,\n  \"note\": \"café\",\n  \"recipients\": [}\n")
        let syntax = run("playa", ["import", pretty], env: ["PLAYA_DATA_DIR": other])
        XCTAssertEqual(syntax.code, 65)
        XCTAssertEqual(syntax.err, "playa: \(pretty):5:18: not valid JSON: unexpected character '}'; nothing imported\n")
        let piped = sh("playa import - < '\(pretty)'", env: ["PLAYA_DATA_DIR": other])
        XCTAssertEqual(piped.err, "playa: stdin:5:18: not valid JSON: unexpected character '}'; nothing imported\n")
        let good = write("good.json", export.out)
        let ok = run("playa", ["import", good], env: ["PLAYA_DATA_DIR": other])
        XCTAssertEqual(ok.records[0]["recipients"] as? Int, 1)
        XCTAssertEqual(run("playa", ["export", "--now", now], env: ["PLAYA_DATA_DIR": other]).out, export.out)
        XCTAssertEqual(playa("reset").code, 64)
        XCTAssertEqual(playa("reset", "--yes").code, 0)
        XCTAssertEqual(playa("recipient").out, "")
    }

    func testRemoveNeedsYesAndCancelsPending() {
        setUpAna()
        playa("generate")
        let refused = playa("recipient", "rm", "Ana")
        XCTAssertEqual(refused.code, 64)
        XCTAssertEqual(refused.err, "playa: 'playa recipient rm' cannot be undone: run it with --yes (on a terminal it asks)\n")
        XCTAssertEqual(playa("recipient", "rm", "Ana", "--yes").records[0]["removed"] as? Bool, true)
        XCTAssertEqual(playa("queue").out, "")
        XCTAssertEqual(playa("recipient", "show", "Anna").err, "playa: no recipient named 'Anna'; add one with 'playa recipient add'\n")
    }

    /// Telegram (by username or by number), Signal and e-mail: each gets
    /// its platform's documented link, the message in it where the platform
    /// takes one, and an edit to another platform asks for what that needs.
    func testTelegramSignalAndEmailLinks() {
        XCTAssertEqual(playa("recipient", "add", "Tia", "--platform", "telegram", "--username", "@tia_b").code, 0)
        XCTAssertEqual(playa("recipient", "add", "Tom", "--platform", "telegram", "--phone", "+447700900123").code, 0)
        XCTAssertEqual(playa("recipient", "add", "Sam", "--platform", "signal", "--phone", phone).code, 0)
        let em = playa("recipient", "add", "Eve", "--platform", "email", "--email", "eve+news@example.org")
        XCTAssertEqual(em.records.first?["email"] as? String, "eve+news@example.org")
        for n in ["Tia", "Tom", "Sam", "Eve"] {
            playa("message", "add", n, "See you at 5 & bring cake?")
            playa("schedule", n, "--fixed", "18:00")
        }
        let events = playa("generate").records
        func url(_ who: String, web: Bool = false) -> String? {
            let id = events.first { $0["recipient"] as? String == who }?["id"] as? String ?? ""
            return (web ? playa("link", id, "--web") : playa("link", id)).records.first?["url"] as? String
        }
        let text = "See%20you%20at%205%20%26%20bring%20cake%3F"
        XCTAssertEqual(url("Tia"), "tg://resolve?domain=tia_b&text=\(text)")
        XCTAssertEqual(url("Tia", web: true), "https://t.me/tia_b?text=\(text)")
        XCTAssertEqual(url("Tom"), "tg://resolve?phone=447700900123&text=\(text)")
        XCTAssertEqual(url("Tom", web: true), "https://t.me/+447700900123?text=\(text)")
        XCTAssertEqual(url("Sam"), "sgnl://signal.me/#p/+14155550132")
        XCTAssertEqual(url("Sam", web: true), "https://signal.me/#p/+14155550132")
        XCTAssertEqual(url("Eve"), "mailto:eve+news@example.org?body=\(text)")
        // Signal's link cannot carry the message: open puts it on the clipboard.
        try? FileManager.default.createDirectory(atPath: tmp + "/config/playa", withIntermediateDirectories: true)
        _ = write("config/playa/config", "clipboard_command = cat > '\(tmp)/clip'\n")
        let sam = events.first { $0["recipient"] as? String == "Sam" }?["id"] as? String ?? ""
        let opened = playa("open", sam, "--command", "true")
        XCTAssertEqual(opened.records.first?["copied_to_clipboard"] as? Bool, true, opened.err)
        XCTAssertEqual(try? String(contentsOfFile: tmp + "/clip", encoding: .utf8), "See you at 5 & bring cake?")
        // An edit to e-mail needs an address; to Telegram, a phone already there is kept.
        XCTAssertEqual(playa("recipient", "edit", "Sam", "--platform", "email").err, "playa: e-mail needs --email ADDRESS, like ana@example.org\n")
        let tg = playa("recipient", "edit", "Sam", "--platform", "telegram")
        XCTAssertEqual(tg.records.first?["phone"] as? String, phone, tg.err)
        XCTAssertEqual(playa("recipient", "show", "Eve", "--format", "text").out.contains("platform: email eve+news@example.org"), true)
        // A blank --command would run the link itself as a program: refused.
        let tia = events.first { $0["recipient"] as? String == "Tia" }?["id"] as? String ?? ""
        XCTAssertEqual(playa("open", tia, "--command", " ").err, "playa: --command must not be empty: give a command, or leave it out to use open_command\n")
        XCTAssertEqual(playa("due", "--command", "").code, 64)
        // An import with another platform's address field is refused whole.
        let doc = playa("export").out.replacingOccurrences(of: "\"email\":\"eve+news@example.org\"",
                                                           with: "\"email\":\"eve+news@example.org\",\"phone\":\"\(phone)\"")
            .replacingOccurrences(of: "\"phone\":null,\"username\":null,\"paused\":false,\"schedule\":{\"mode\":\"fixed\",\"times\":[\"18:00\"]},\"messages\":[{\"id\"", with: "\"paused\":false,\"schedule\":{\"mode\":\"fixed\",\"times\":[\"18:00\"]},\"messages\":[{\"id\"")
        let imp = playa("import", write("doc.json", doc))
        XCTAssertEqual(imp.code, 65, imp.err)
        XCTAssertTrue(imp.err.contains("e-mail takes no \"phone\""), imp.err)
    }

    /// A peer's journal (a synced folder anyone may write to) cannot put an
    /// address into a link that `recipient add` would refuse: the record is
    /// not read, and the links stay as they were.
    func testAForgedAddressFromAPeerNeverReachesALink() throws {
        let sync = tmp + "/sync"
        try FileManager.default.createDirectory(atPath: sync, withIntermediateDirectories: true)
        XCTAssertEqual(playa("--sync-dir", sync, "recipient", "add", "Eve", "--platform", "email", "--email", "eve@example.org").code, 0)
        let id = playa("--sync-dir", sync, "recipient", "show", "Eve").records.first?["id"] as? String ?? ""
        let forged = "{\"type\":\"recipient_saved\",\"recipient\":{\"type\":\"recipient\",\"id\":\"\(id)\",\"name\":\"Eve\",\"platform\":\"email\",\"phone\":null,\"username\":null,\"paused\":false,\"schedule\":{\"mode\":\"fixed\",\"times\":[\"18:00\"]},\"messages\":[{\"id\":\"m1\",\"text\":\"hi\"}],\"email\":\"a@b.com?cc=evil@x.com&bcc=y@z.com\"}}\n{\"type\":\"commit\",\"n\":1,\"at\":\"2026-11-23T05:00:00Z\",\"by\":\"mallory\",\"schema\":1,\"hlc\":[1795410000001,0]}\n"
        _ = write("sync/mallory.ndjson", forged)
        playa("--sync-dir", sync, "message", "add", "Eve", "hello")
        playa("--sync-dir", sync, "schedule", "Eve", "--fixed", "18:00")
        let events = playa("--sync-dir", sync, "generate").records
        for e in events {
            let url = playa("--sync-dir", sync, "link", e["id"] as? String ?? "").records.first?["url"] as? String ?? ""
            XCTAssertFalse(url.contains("evil") || url.contains("cc="), url)
        }
        XCTAssertEqual(playa("--sync-dir", sync, "recipient", "show", "Eve").records.first?["email"] as? String, "eve@example.org")
    }

    func testEditPauseAndResume() {
        setUpAna()
        let e = playa("recipient", "edit", "ana", "--name", "Ana B", "--platform", "instagram", "--username", "ana.b")
        XCTAssertEqual(e.code, 0, e.err)
        XCTAssertEqual(e.records[0]["name"] as? String, "Ana B")
        XCTAssertEqual(e.records[0]["platform"] as? String, "instagram")
        XCTAssertTrue(e.records[0]["phone"] is NSNull)
        XCTAssertEqual(playa("recipient", "edit", "Ana B", "--platform", "sms").err,
                       "playa: SMS needs --phone with a country code, like +14155550132\n")
        XCTAssertEqual(playa("recipient", "pause", "Ana B").records[0]["paused"] as? Bool, true)
        XCTAssertEqual(playa("generate").out, "", "paused: no events")
        XCTAssertEqual(playa("recipient", "resume", "Ana B").records[0]["paused"] as? Bool, false)
        XCTAssertEqual(playa("generate", "--date", "2026-11-24").records.count, 3)
        XCTAssertEqual(playa("link", playa("queue", "--date", "2026-11-24").records[0]["id"] as! String).records[0]["url"] as? String,
                       "instagram://user?username=ana.b")
    }

    /// `recipient list` is the dashboard, as `recipient` alone is.
    func testRecipientListIsTheDashboard() {
        XCTAssertEqual(playa("recipient", "list").out, "")
        XCTAssertEqual(playa("recipient", "list", "--format", "text").out,
                       "Playa\nNo recipients yet. Add one:\n  playa recipient add Ana --platform whatsapp --phone +14155550132\n")
        setUpAna()
        XCTAssertEqual(playa("recipient", "add", "Jo", "--platform", "instagram", "--username", "jo.draws").code, 0)
        playa("schedule", "Ana", "--fixed", "09:30,18:00")
        let list = playa("recipient", "list")
        XCTAssertEqual(list.code, 0, list.err)
        XCTAssertEqual(list.err, "")
        XCTAssertEqual(list.out, playa("recipient").out)
        XCTAssertEqual(list.records.map { $0["name"] as? String }, ["Ana", "Jo"])
        XCTAssertEqual(list.records.map { $0["strategy"] as? String }, ["fixed 09:30,18:00", "random 1/day"])
        XCTAssertEqual(list.records.map { $0["templates"] as? Int }, [2, 0])
        XCTAssertEqual(list.records[1]["username"] as? String, "jo.draws")
        XCTAssertEqual(playa("recipient", "list", "--format", "text").out,
                       "Playa — 2 recipients\n  Ana  whatsapp   fixed 09:30,18:00  2 messages\n  Jo   instagram  random 1/day       0 messages\n",
                       "columns line up")
    }

    /// `message rm` takes an id prefix; the pool shrinks, nothing else.
    func testMessageRemoveTakesItFromThePool() {
        setUpAna()
        let pool = playa("message", "list", "Ana").records
        XCTAssertEqual(pool.count, 2)
        let id = pool[0]["id"] as! String
        let r = playa("message", "rm", "Ana", String(id.prefix(4)))
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.records[0]["id"] as? String, id)
        XCTAssertEqual(r.records[0]["removed"] as? Bool, true)
        XCTAssertEqual(r.err, "", "nothing on stderr names a message")
        XCTAssertEqual(playa("message", "list", "Ana").records.map { $0["id"] as? String }, [pool[1]["id"] as? String])
        let again = playa("message", "rm", "Ana", id)
        XCTAssertEqual(again.code, 65)
        XCTAssertEqual(again.err, "playa: Ana has no message '\(id)'; 'playa message list Ana' shows them\n")
        XCTAssertEqual(playa("message", "rm", "Nobody", id).err, "playa: no recipient named 'Nobody'; 'playa recipient list' shows them\n")
        XCTAssertEqual(playa("message", "rm", "Ana").code, 64)
        XCTAssertEqual(playa("recipient").records[0]["templates"] as? Int, 1)
    }
}
