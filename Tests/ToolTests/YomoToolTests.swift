import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class YomoToolTests: ToolTestCase {
    let now = "2026-11-22T10:07:00-05:00"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["YOMO_DATA_DIR"] = dataDir
        e["YOMO_NOW"] = now
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    @discardableResult
    func yomo(_ args: String..., stdin: String? = nil, env: [String: String] = [:]) -> RunResult {
        run("yomo", args, stdin: stdin, env: env)
    }

    /// The configuration file is checked by every command, piped and from
    /// cron too (a typo is 78 naming the line), and -q silences the notes
    /// on what was assumed.
    func testConfigIsCheckedAlwaysAndQuietSilencesAssumptions() throws {
        let loud = yomo("add", "call mom tomorrow at 9")
        XCTAssertEqual(loud.err, "yomo: assumed: '9' read as 09:00\n")
        let quiet = yomo("add", "call dad tomorrow at 9", "-q")
        XCTAssertEqual(quiet.code, 0)
        XCTAssertEqual(quiet.err, "", "-q silences 'assumed:'")
        try FileManager.default.createDirectory(atPath: tmp + "/config/yomo", withIntermediateDirectories: true)
        let config = write("config/yomo/config", "them = dark\n")
        for args in [["list"], ["due"], ["list", "--format", "json"]] {
            let r = run("yomo", args)
            XCTAssertEqual(r.code, 78, "yomo \(args) ignored a bad configuration")
            XCTAssertEqual(r.err, "yomo: \(config):1: unknown setting 'them' (known: llm_command, llm_timeout, theme, vdir, sync_dir, signing_key)\n")
        }
        _ = write("config/yomo/config", "theme = nosuch\n")
        XCTAssertEqual(yomo("due").code, 78, "a bad value too")
        _ = write("config/yomo/config", "theme = default\n")
        XCTAssertEqual(yomo("due").code, 0)
    }

    /// `due`'s summary is made in the zone of the run that wrote it. After
    /// TZ changes the next run reads everything once and, with nothing new
    /// past the snapshot, still writes a summary for the new zone, so that
    /// the runs after it answer from the summary again.
    func testAfterTZChangesTheSummaryIsMadeAgainForTheNewZone() throws {
        XCTAssertEqual(yomo("add", "stretch", "--date", "2026-11-22", "--time", "10:00", "-q").code, 0)
        XCTAssertEqual(yomo("due").records.count, 1)
        XCTAssertEqual(yomo("due").out, "")
        func summaryZone() throws -> String? {
            let text = try String(contentsOfFile: dataDir + "/snapshot.ndjson", encoding: .utf8)
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("{\"k\":\"summary\"") }),
                  let r = line.range(of: "\"zone\":\"") else { return nil }
            return String(line[r.upperBound...].prefix { $0 != "\"" })
        }
        let before = try summaryZone()
        XCTAssertNotNil(before)
        let other = before == "Asia/Tokyo" ? "Europe/Berlin" : "Asia/Tokyo"
        XCTAssertEqual(yomo("due", env: ["TZ": other]).out, "", "nothing new is due")
        XCTAssertEqual(try summaryZone(), other, "a summary for the new zone, with nothing past the snapshot")
    }

    func testEmptyListSaysHowToStart() {
        XCTAssertEqual(yomo("list").out, "")
        XCTAssertEqual(yomo("--format", "text").out, "No reminders yet.\nAdd one: yomo add water plants every tuesday at 3pm\n")
    }

    func testParsePrintsItsRecordWithoutSaving() {
        let r = yomo("parse", "water", "plants", "every", "Tuesday", "at", "3pm")
        XCTAssertEqual(r.code, 0)
        XCTAssertEqual(r.out, #"{"title":"water plants","date":null,"time":"15:00","recurrence_type":"weekly","recurrence_rule":{"interval":1,"unit":"week","days_of_week":["tue"],"time_range_start":null,"time_range_end":null,"based_on_completion":false},"assumptions":[],"parser":"builtin"}"# + "\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dataDir))
    }

    func testAddListAndTheRecordSchema() {
        let a = yomo("add", "water plants every Tuesday at 3pm", "--notes", "the ficus too")
        XCTAssertEqual(a.code, 0, a.err)
        let rec = a.records[0]
        for key in ["id", "title", "notes", "trigger_at", "recurrence", "status", "snoozed_until", "created_at", "updated_at", "completed_at"] {
            XCTAssertTrue(rec.keys.contains(key), "missing \(key)")
        }
        XCTAssertEqual(rec["trigger_at"] as? String, "2026-11-24T15:00:00-05:00")
        XCTAssertEqual(rec["notes"] as? String, "the ficus too")
        XCTAssertEqual((rec["recurrence"] as? [String: Any])?["type"] as? String, "weekly")
        yomo("add", "call mom tomorrow at 9")
        yomo("add", "--literal", "buy milk at 3pm", "--time", "12:00")
        let list = yomo("list")
        XCTAssertEqual(list.records.map { $0["title"] as? String }, ["buy milk at 3pm", "call mom", "water plants"])
        let text = yomo("list", "--format", "text").out
        XCTAssertTrue(text.contains("↻  water plants  (every Tue)"), text)
        XCTAssertEqual(yomo("add", "call mom tomorrow at 9").err, "yomo: assumed: '9' read as 09:00\n")
    }

    /// On a terminal a reading with a guess in it is shown and asked about,
    /// as Todoist's quick add shows its reading: "n" stores nothing and
    /// exits 1, Enter keeps it; -y and a pipe never ask, nor does a reading
    /// with no guess in it.
    func testAGuessIsAskedAboutOnATerminal() {
        func onTerminal(_ answer: String, _ args: String) -> RunResult {
            sh("printf '\(answer)\\n' | script -qec '\(executable("yomo")) \(args)' /dev/null", env: baseEnvironment)
        }
        let no = onTerminal("n", "add call mom at 4")
        XCTAssertEqual(no.code, 1, no.out)
        XCTAssertTrue(no.out.contains("'call mom' Sun 2026-11-22 16:00 (assumed: '4' read as 16:00). Add it? [Y/n]"), no.out)
        XCTAssertTrue(no.out.contains("yomo: nothing changed"), no.out)
        XCTAssertEqual(yomo("list").out, "", "a no stores nothing")
        let enter = onTerminal("", "add call mom at 4")
        XCTAssertEqual(enter.code, 0, enter.out)
        XCTAssertFalse(enter.out.contains("yomo: assumed:"), "asked about, not said again: \(enter.out)")
        XCTAssertEqual(yomo("list").records.map { $0["title"] as? String }, ["call mom"])
        let sure = onTerminal("n", "add call dad at 16:00")
        XCTAssertEqual(sure.code, 0, sure.out)
        XCTAssertFalse(sure.out.contains("[Y/n]"), "no guess, no question: \(sure.out)")
        XCTAssertEqual(onTerminal("n", "add -y call ana at 4").code, 0, "-y does not ask")
        let piped = yomo("add", "call bo at 4", stdin: "n\n")
        XCTAssertEqual(piped.code, 0, piped.err)
        XCTAssertEqual(piped.err, "yomo: assumed: '4' read as 16:00\n", "a pipe never asks")
        XCTAssertEqual(yomo("list").records.count, 4)
    }

    /// A time phrase the parser could not read is refused naming its words,
    /// nothing stored; --date/--time or --literal say what to do instead.
    func testUnreadTimeWordsAreRefusedNotLeftInTheTitle() {
        let r = yomo("add", "meet Sam at quarter of 8")
        XCTAssertEqual(r.code, 64)
        XCTAssertEqual(r.err, "yomo: could not read 'at quarter of 8' as a date or time; say it another way ('at 8:30', 'on dec 15'), give --date and --time, or add --literal to keep the text as the title\n")
        XCTAssertEqual(r.out, "")
        XCTAssertEqual(yomo("list").out, "", "nothing stored")
        let p = yomo("parse", "meet Sam at quarter of 8")
        XCTAssertEqual(p.code, 0)
        XCTAssertEqual(p.records.first?["warnings"] as? [String], ["could not read 'at quarter of 8' as a date or time"])
        let timed = yomo("add", "meet Sam at quarter of 8", "--time", "08:30")
        XCTAssertEqual(timed.code, 0, timed.err)
        XCTAssertEqual(timed.records.first?["trigger_at"] as? String, "2026-11-23T08:30:00-05:00")
        XCTAssertEqual(yomo("add", "--literal", "meet Sam at quarter of 8").code, 0)
        let read = yomo("add", "meet Sam half past 8 tomorrow")
        XCTAssertEqual(read.code, 0, read.err)
        XCTAssertEqual(read.err, "yomo: assumed: 'half past 8' read as 08:30\n")
        XCTAssertEqual(read.records.first?["title"] as? String, "meet Sam")
        XCTAssertEqual(read.records.first?["trigger_at"] as? String, "2026-11-23T08:30:00-05:00")
    }

    /// `edit` with nothing to change is refused with a hint; a new title
    /// alone keeps a due, snoozed reminder's time and its snooze.
    func testEditWithoutAChangeIsRefusedAndATitleKeepsTheSnooze() {
        let id = yomo("add", "stand up", "--date", "today", "--time", "10:00").records[0]["id"] as! String
        let snoozed = yomo("snooze", id, "30")
        XCTAssertEqual(snoozed.code, 0, snoozed.err)
        let before = yomo("list").records[0]
        let none = yomo("edit", id)
        XCTAssertEqual(none.code, 64)
        XCTAssertEqual(none.err, "yomo: nothing to change: give --title, --notes, --list, --date, --time, a rule (--repeat, --every, --days...) or --tz; see 'yomo edit --help'\n")
        XCTAssertEqual(yomo("list").records[0]["snoozed_until"] as? String, before["snoozed_until"] as? String)
        let renamed = yomo("edit", id, "--title", "stand up and stretch")
        XCTAssertEqual(renamed.code, 0, renamed.err)
        let after = renamed.records[0]
        XCTAssertEqual(after["title"] as? String, "stand up and stretch")
        XCTAssertEqual(after["trigger_at"] as? String, before["trigger_at"] as? String, "the due occurrence stays due")
        XCTAssertEqual(after["snoozed_until"] as? String, "2026-11-22T10:37:00-05:00")
        let listed = yomo("edit", id, "--list", "home")
        XCTAssertEqual(listed.records.first?["snoozed_until"] as? String, "2026-11-22T10:37:00-05:00", "a list is not a new time")
        XCTAssertEqual(listed.err, "", "nothing about the time is said: it did not change")
        let same = yomo("edit", id, "--title", "stand up and stretch")
        XCTAssertEqual(same.code, 0)
        XCTAssertEqual(same.err, "yomo: reminder \(id) already says that: nothing changed\n")
        // A new time is a new schedule: the snooze of the old one ends.
        let moved = yomo("edit", id, "--time", "11:00")
        XCTAssertEqual(moved.records[0]["snoozed_until"] as? NSNull, NSNull())
        XCTAssertEqual(moved.records[0]["trigger_at"] as? String, "2026-11-22T11:00:00-05:00")
    }

    /// A nagging reminder is dismissed once it has come due; before, nothing changes.
    func testDismissStopsANagOnlyOnceItHasComeDue() throws {
        let id = try XCTUnwrap(yomo("add", "stretch", "--date", "2026-11-22", "--time", "10:30", "--nag", "5m").records.first?["id"] as? String)
        let early = yomo("dismiss", id)
        XCTAssertEqual(early.code, 65)
        XCTAssertEqual(early.err, "yomo: reminder \(id) is not due until 2026-11-22T10:30:00-05:00; dismiss acts on a reminder that has come due, nothing changed\n")
        XCTAssertEqual(yomo("due", "--now", "2026-11-22T10:30:00-05:00").records.count, 1)
        XCTAssertEqual(yomo("due", "--now", "2026-11-22T10:35:00-05:00").records.first?["nag"] as? Bool, true)
        let d = yomo("dismiss", id, "--now", "2026-11-22T10:36:00-05:00", "--format", "text")
        XCTAssertEqual(d.code, 0, d.err)
        XCTAssertEqual(d.out, "Dismissed: stretch (still to do; 'yomo done \(id.prefix(8))' when it is)\n")
        XCTAssertEqual(yomo("due", "--now", "2026-11-22T11:30:00-05:00").out, "")
    }

    /// The views: today (overdue too), overdue, upcoming (seven days), done
    /// today; and `show`, one reminder whole with its history.
    func testViewsAndShow() {
        let water = yomo("add", "water plants every day at 9am").records[0]["id"] as! String
        yomo("add", "pay bill", "--date", "today", "--time", "08:00")
        yomo("add", "call mom at 8pm")
        yomo("add", "dentist", "--date", "2026-11-27", "--time", "10:00")
        yomo("add", "renew passport", "--date", "2026-12-20", "--time", "10:00")
        let later = "2026-11-23T09:30:00-05:00"
        XCTAssertEqual(yomo("done", water, "--now", later).code, 0)
        func titles(_ args: String...) -> [String] { run("yomo", ["list"] + args + ["--now", later]).records.compactMap { $0["title"] as? String } }
        XCTAssertEqual(titles("--overdue"), ["pay bill", "call mom"])
        XCTAssertEqual(titles("--today"), ["pay bill", "call mom"])
        XCTAssertEqual(titles("--upcoming"), ["water plants", "dentist"])
        XCTAssertEqual(titles("--done-today"), ["water plants"])
        XCTAssertEqual(run("yomo", ["list", "--done-today", "--format", "text", "--now", later]).out.hasPrefix("done 09:30  "), true)
        XCTAssertEqual(run("yomo", ["list", "--done-today", "--format", "text", "--now", "2026-11-24T09:00:00-05:00"]).out, "Nothing done today yet.\n")
        let both = yomo("list", "--today", "--overdue")
        XCTAssertEqual(both.code, 64)
        XCTAssertEqual(both.err, "yomo: --today, --overdue, --upcoming, --done-today and --all are views of their own: give one\n")
        yomo("edit", water, "--title", "water the plants", "--now", "2026-11-23T09:40:00-05:00")
        let show = run("yomo", ["show", water, "-n", "2", "--now", "2026-11-23T10:00:00-05:00"])
        XCTAssertEqual(show.code, 0, show.err)
        let d = show.records[0]
        XCTAssertEqual(d["type"] as? String, "reminder_detail")
        XCTAssertEqual(d["title"] as? String, "water the plants")
        XCTAssertEqual(d["next"] as? [String], ["2026-11-24T09:00:00-05:00", "2026-11-25T09:00:00-05:00"])
        XCTAssertEqual(d["last_done_at"] as? String, later)
        let history = (d["history"] as? [[String: Any]]) ?? []
        XCTAssertEqual(history.map { $0["type"] as? String }, ["created", "completed", "edited"])
        XCTAssertEqual(history[1]["occurrence"] as? String, "2026-11-23T09:00:00-05:00", "which occurrence was done")
        let text = run("yomo", ["show", water, "--format", "text", "--now", "2026-11-23T10:00:00-05:00"]).out
        XCTAssertTrue(text.contains("  last done: Mon 2026-11-23 09:30\n"), text)
        XCTAssertTrue(text.contains("Mon 2026-11-23 09:30  done (Mon 2026-11-23 09:00)  by "), text)
        XCTAssertEqual(yomo("show", "nosuch").code, 65)
    }

    /// Lists: "#groceries" in the sentence or --list; `list --list` (any
    /// case); iCalendar's CATEGORIES and Taskwarrior's project carry them.
    func testListsFromTheSentenceOrTheOptionAndThroughExports() {
        let eggs = yomo("add", "buy eggs #groceries tomorrow at 9am")
        XCTAssertEqual(eggs.records.first?["title"] as? String, "buy eggs")
        XCTAssertEqual(eggs.records.first?["list"] as? String, "groceries")
        let boss = yomo("add", "call boss", "--list", "#Work").records[0]["id"] as! String
        yomo("add", "water plants")
        XCTAssertEqual(yomo("list", "--list", "work").records.map { $0["title"] as? String }, ["call boss"])
        XCTAssertEqual(yomo("list", "--list", "groceries", "--format", "text").out.hasSuffix("buy eggs  #groceries\n"), true)
        XCTAssertEqual(yomo("list", "--list", "nosuch", "--format", "text").out, "No reminders in that list.\n")
        let ics = yomo("export", "--format", "ics").out
        XCTAssertTrue(ics.contains("CATEGORIES:groceries\r\n"), ics)
        let tw = yomo("export", "--format", "taskwarrior").out
        XCTAssertTrue(tw.contains(#""project":"Work""#), tw)
        // Back in through another copy: the lists are kept.
        let file = write("r.ics", ics)
        let other = tmp + "/other"
        XCTAssertEqual(run("yomo", ["--data-dir", other, "import", file]).code, 0)
        XCTAssertEqual(Set(run("yomo", ["--data-dir", other, "list"]).records.compactMap { $0["list"] as? String }), ["groceries", "Work"])
        // Off a list, and a name that is not one.
        XCTAssertNil(yomo("edit", boss, "--list", "").records.first?["list"] as? String)
        XCTAssertEqual(yomo("list", "--list", "work").records.count, 0)
        let bad = yomo("add", "x", "--list", String(repeating: "a", count: 65))
        XCTAssertEqual(bad.code, 64)
        XCTAssertTrue(bad.err.hasPrefix("yomo: --list takes a name of 1 to 64 characters"), bad.err)
    }

    /// At the calendar's edge and with a zone written as an offset, a clear
    /// refusal: never a trap, never a sign guessed.
    func testTheYear9999AndOffsetZonesAreRefusedNotTrapped() {
        for (now, text) in [("9999-12-31T23:59:59Z", "x tomorrow"), ("9999-06-30T10:00:00Z", "x in 1 year"), ("9999-12-30T10:00:00Z", "x next week")] {
            let r = yomo("add", text, "--now", now)
            XCTAssertEqual(r.code, 64, "\(text) at \(now): \(r.err)")
            XCTAssertTrue(r.err.contains("not a plausible"), r.err)
        }
        XCTAssertEqual(yomo("list").out, "")
        for tz in ["UTC+11", "GMT-3", "utc+5:30"] {
            let r = yomo("add", "x at 9pm", "--tz", tz)
            XCTAssertEqual(r.code, 64, tz)
            XCTAssertTrue(r.err.contains("opposite signs"), r.err)
        }
        XCTAssertEqual(yomo("add", "x at 9pm", "--tz", "Etc/GMT-11").records.first?["trigger_at"] as? String, "2026-11-23T21:00:00+11:00")
    }

    func testBadOptionsSayWhatIsAccepted() {
        let cases: [([String], Int32, String)] = [
            (["add", "x", "--time", "25:00"], 64, "yomo: --time must be HH:MM on a 24-hour clock like 15:30, not '25:00'\n"),
            (["add", "x", "--date", "someday"], 64, "yomo: --date must be a day like 2026-11-22 (or today, tomorrow), not 'someday'\n"),
            (["add", "x", "--repeat", "yearly"], 64, "yomo: --repeat must be one of none, daily, weekly, custom, not 'yearly'; see 'yomo add --help'\n"),
            (["add", "x", "--days", "mon,funday"], 64, "yomo: --days must be weekdays like mon,wed,fri, not 'mon,funday'\n"),
            (["add", "x", "--every", "0"], 64, "yomo: --every must be a whole number from 1 to 1000, not '0'\n"),
            (["add", "x", "--unit", "day", "--on", "2nd-tue"], 64, "yomo: --on works with --unit month or year only\n"),
            (["add", "x", "--unit", "hour", "--between", "18:00-"], 64, "yomo: --between must be HH:MM-HH:MM like 09:00-18:00 (22:00-06:00 runs overnight), not '18:00-'\n"),
            (["add", "tomorrow at 9"], 64, "yomo: a reminder needs a title: the text held only a date, time or rule\n"),
            (["add"], 64, "yomo: 'add' needs TEXT...; see 'yomo add --help'\n"),
            (["done", "nope"], 65, "yomo: no reminder with id 'nope'; 'yomo list --all' shows them\n"),
        ]
        for (args, code, err) in cases {
            let r = run("yomo", args)
            XCTAssertEqual(r.code, code, "\(args)")
            XCTAssertEqual(r.err, err, "\(args)")
        }
        let journal = (try? FileManager.default.contentsOfDirectory(atPath: dataDir + "/journal")) ?? []
        XCTAssertEqual(journal, [], "nothing was written")
    }

    func testDoneSnoozeRmAndPrefixes() {
        let id = yomo("add", "stretch every day at 9pm").records[0]["id"] as! String
        let once = yomo("add", "dentist on dec 24 at 10am").records[0]["id"] as! String
        let done = yomo("done", String(id.prefix(4)))
        XCTAssertEqual(done.records[0]["trigger_at"] as? String, "2026-11-23T21:00:00-05:00")
        XCTAssertEqual(done.records[0]["status"] as? String, "active")
        let finished = yomo("done", once)
        XCTAssertEqual(finished.records[0]["status"] as? String, "completed")
        XCTAssertEqual(yomo("list").records.count, 1)
        XCTAssertEqual(yomo("list", "--all").records.count, 2)
        XCTAssertEqual(yomo("done", once).code, 65)
        // Snooze acts on an occurrence that has come due; before that it changes nothing.
        let early = yomo("snooze", id)
        XCTAssertEqual(early.code, 65)
        XCTAssertEqual(early.err, "yomo: reminder \(id) is not due until 2026-11-23T21:00:00-05:00; snooze acts on a reminder that has come due, nothing changed ('yomo edit' moves it)\n")
        XCTAssertEqual(early.out, "")
        let now = yomo("add", "stand up", "--date", "today", "--time", "10:00").records[0]["id"] as! String
        let snoozed = yomo("snooze", now)
        XCTAssertEqual(snoozed.records[0]["snoozed_until"] as? String, "2026-11-22T10:22:00-05:00")
        XCTAssertEqual(yomo("snooze", now, "45").records[0]["snoozed_until"] as? String, "2026-11-22T10:52:00-05:00")
        yomo("rm", now)
        for bad in ["0", "61", "ten"] {
            let r = yomo("snooze", id, bad)
            XCTAssertEqual(r.code, 64)
            XCTAssertEqual(r.err, "yomo: snooze takes 1 to 60 minutes, not '\(bad)'\n")
        }
        XCTAssertEqual(yomo("rm", id).records[0]["status"] as? String, "deleted")
        XCTAssertEqual(yomo("list").out, "")
    }

    func testNextShowsTheRule() {
        let id = yomo("add", "book club on the 2nd tuesday of every month", "--time", "19:00").records[0]["id"] as! String
        let n = yomo("next", id, "--count", "3")
        XCTAssertEqual(n.records.map { $0["at"] as? String },
                       ["2026-12-08T19:00:00-05:00", "2027-01-12T19:00:00-05:00", "2027-02-09T19:00:00-05:00"])
        let dst = yomo("add", "night check", "--date", "2027-03-13", "--time", "02:30", "--repeat", "daily").records[0]["id"] as! String
        XCTAssertEqual(yomo("next", dst, "-n", "3").records.map { $0["at"] as? String },
                       ["2027-03-13T02:30:00-05:00", "2027-03-14T03:30:00-04:00", "2027-03-15T02:30:00-04:00"])
    }

    func testEditOneOccurrenceMovesOrCancelsItAndExportSaysSo() {
        let id = yomo("add", "book club on the 2nd tuesday of every month", "--time", "19:00").records[0]["id"] as! String
        let moved = yomo("edit", id, "--occurrence", "2026-12-08", "--date", "2026-12-10", "--time", "18:00")
        XCTAssertEqual(moved.code, 0, moved.err)
        XCTAssertEqual(yomo("edit", id, "--occurrence", "2027-01-12T19:00", "--cancel").code, 0)
        XCTAssertEqual(yomo("next", id, "--count", "3").records.map { $0["at"] as? String },
                       ["2026-12-10T18:00:00-05:00", "2027-02-09T19:00:00-05:00", "2027-03-09T19:00:00-05:00"])
        let ics = yomo("export", "--format", "ics").out
        XCTAssertTrue(ics.contains("RECURRENCE-ID;TZID=America/New_York:20261208T190000\r\nSUMMARY:book club\r\nDTSTART;TZID=America/New_York:20261210T180000"), ics)
        XCTAssertTrue(ics.contains("RECURRENCE-ID;TZID=America/New_York:20270112T190000"), ics)
        let bad = yomo("edit", id, "--occurrence", "2026-12-09", "--cancel")
        XCTAssertEqual(bad.code, 64)
        XCTAssertTrue(bad.err.contains("has no occurrence at 2026-12-09"), bad.err)
        XCTAssertEqual(yomo("edit", id, "--occurrence", "2027-02-09", "--title", "x").code, 64)
    }

    func testDueAnnouncesEachOccurrenceOnceAndCatchesUp() {
        let water = yomo("add", "drink water every 2 hours from 9 to 6").records[0]["id"] as! String
        yomo("add", "call mom at 11:00")
        XCTAssertEqual(yomo("due").out, "", "nothing is due yet")
        let first = yomo("due", "--now", "2026-11-22T11:00:00-05:00")
        XCTAssertEqual(first.records.map { $0["title"] as! String }.sorted(), ["call mom", "drink water"])
        XCTAssertEqual(first.records[0]["type"] as? String, "notification")
        let actions = first.records.first { $0["title"] as? String == "drink water" }!["actions"] as! [[String: Any]]
        XCTAssertEqual(actions.map { $0["command"] as? String },
                       ["yomo snooze \(water) 5", "yomo snooze \(water) 15", "yomo snooze \(water) 60", "yomo done \(water)"])
        XCTAssertEqual(yomo("due", "--now", "2026-11-22T11:00:30-05:00").out, "", "run twice, nothing twice")
        // Late: the machine slept through two occurrences.
        let late = yomo("due", "--now", "2026-11-22T15:10:00-05:00")
        XCTAssertEqual(late.records.count, 1)
        XCTAssertEqual(late.records[0]["occurrence"] as? String, "2026-11-22T15:00:00-05:00")
        XCTAssertEqual(late.records[0]["missed"] as? Int, 1)
        // Snooze fires once more, then the schedule goes on.
        yomo("snooze", water, "10", "--now", "2026-11-22T15:11:00-05:00")
        XCTAssertEqual(yomo("due", "--now", "2026-11-22T15:20:00-05:00").out, "")
        let s = yomo("due", "--now", "2026-11-22T15:21:00-05:00")
        XCTAssertEqual(s.records.first?["snooze"] as? Bool, true)
        XCTAssertEqual(yomo("due", "--now", "2026-11-22T15:22:00-05:00").out, "")
        XCTAssertEqual(yomo("due", "--now", "2026-11-22T17:00:00-05:00").records.first?["occurrence"] as? String, "2026-11-22T17:00:00-05:00")
    }

    func testDataDirectoryGoesIntoTheActionCommands() {
        let other = tmp + "/other dir"
        let id = run("yomo", ["--data-dir", other, "add", "ping at 11:00"]).records[0]["id"] as! String
        let n = run("yomo", ["--data-dir", other, "due", "--now", "2026-11-22T11:00:00-05:00"]).records[0]
        let cmd = (n["actions"] as! [[String: Any]]).last!["command"] as! String
        XCTAssertEqual(cmd, "yomo --data-dir '\(other)' done \(id)")
        // The command works as printed.
        XCTAssertEqual(sh(cmd).code, 0)
        XCTAssertEqual(run("yomo", ["--data-dir", other, "list"]).out, "")
    }

    func testModelCommandIsUsedOnlyWhenItsAnswerFits() throws {
        let good = write("good-llm.sh", "#!/bin/sh\ncat >/dev/null\necho 'Sure! {\"title\":\"Water the plants\",\"date\":\"2026-11-25\",\"time\":\"08:15\",\"recurrence_type\":\"none\",\"recurrence_rule\":null}'\n")
        let bad = write("bad-llm.sh", "#!/bin/sh\ncat >/dev/null\necho '{\"title\":\"x\",\"time\":\"8ish\"}'\n")
        chmod(good, 0o755)
        chmod(bad, 0o755)
        let g = yomo("parse", "water plants at 3pm", "--llm-command", good)
        XCTAssertEqual(g.records[0]["parser"] as? String, "llm")
        XCTAssertEqual(g.records[0]["time"] as? String, "08:15")
        let b = yomo("parse", "water plants at 3pm", "--llm-command", bad)
        XCTAssertEqual(b.records[0]["parser"] as? String, "builtin")
        XCTAssertEqual(b.records[0]["time"] as? String, "15:00")
        XCTAssertEqual(b.err, "yomo: the model's answer does not fit the schema (\"time\" must be HH:mm or null); using the built-in parser\n")
        let failing = yomo("parse", "water plants", "--llm-command", "exit 3")
        XCTAssertEqual(failing.records[0]["parser"] as? String, "builtin")
        XCTAssertEqual(failing.err, "yomo: the model command exited 3; using the built-in parser\n")
        // A model that hangs is stopped (with what it started) after llm_timeout seconds.
        try FileManager.default.createDirectory(atPath: tmp + "/config/yomo", withIntermediateDirectories: true)
        _ = write("config/yomo/config", "llm_timeout = 0.5\n")
        let started = Date()
        let slow = yomo("parse", "water plants at 3pm", "--llm-command", "sleep 30 & sleep 30; echo '{\"title\":\"late\"}'")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        XCTAssertEqual(slow.records[0]["parser"] as? String, "builtin")
        XCTAssertEqual(slow.err, "yomo: the model command took longer than 0 s and was stopped; using the built-in parser\n")
    }

    /// The parser is never silently wrong: `add` refuses a rule it could not
    /// place, or two rules in one sentence, and says what to do instead.
    func testAddRefusesWhatItCannotPlace() {
        let blue = yomo("add", "water plants every blue moon")
        XCTAssertEqual(blue.code, 64)
        XCTAssertEqual(blue.err, "yomo: could not place 'every blue moon' as a rule; say the rule with options (--repeat, --every, --unit, --days), or add --literal to keep the text as the title\n")
        XCTAssertEqual(yomo("add", "--literal", "water plants every blue moon").records[0]["title"] as? String, "water plants every blue moon")
        let settled = yomo("add", "stretch every 90 minutes", "--every", "2", "--unit", "hour")
        XCTAssertEqual(settled.code, 0, settled.err)
        XCTAssertEqual((settled.records[0]["recurrence"] as? [String: Any])?["interval"] as? Int, 2)
        let two = yomo("add", "yoga every Tuesday at 3pm and Thursday at 5pm")
        XCTAssertEqual(two.code, 64)
        XCTAssertEqual(two.err, "yomo: two times in one sentence ('at 3pm' and 'at 5pm'): one reminder holds one rule; add them one at a time\n")
        let parse = yomo("parse", "water plants every blue moon")
        XCTAssertEqual(parse.code, 0)
        XCTAssertEqual(parse.records[0]["warnings"] as? [String], ["could not place 'every blue moon' as a rule"])
        XCTAssertEqual(parse.err, "yomo: warning: could not place 'every blue moon' as a rule\n")
        XCTAssertEqual(yomo("list").records.count, 2)
    }

    func testWatchPrintsAsThingsComeDue() throws {
        yomo("add", "tea", "--time", "10:08")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable("yomo"))
        p.arguments = ["watch", "--now", "2026-11-22T10:07:58-05:00"]
        p.environment = baseEnvironment
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let deadline = Date().addingTimeInterval(10)
        var got = Data()
        while Date() < deadline && !got.contains(0x0A) {
            got.append(pipe.fileHandleForReading.availableData)
        }
        p.terminate()
        p.waitUntilExit()
        let line = String(decoding: got, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        XCTAssertTrue(line.contains("\"title\":\"tea\""), line)
        XCTAssertTrue(line.contains("\"type\":\"notification\""), line)
    }

    /// `list` prints stored records of untouched reminders without parsing
    /// them: byte for byte what the full path renders, in any zone.
    func testFastListMatchesTheFullRendering() {
        for text in ["water plants every Tuesday at 3pm", "call mom tomorrow at 9", "stretch every 2 hours", "dentist on dec 24"] {
            yomo("add", text)
        }
        let id = yomo("list").records[1]["id"] as! String
        yomo("snooze", id, "30")
        yomo("done", yomo("list").records.first { $0["title"] as? String == "stretch" }!["id"] as! String)
        let fast = yomo("list")
        let full = yomo("list", "--all")
        XCTAssertEqual(fast.out, full.out, "no completed ones yet, so --all (the full path) prints the same")
        XCTAssertEqual(fast.records.count, 4)
        let tokyo = yomo("list", env: ["TZ": "Asia/Tokyo"])
        XCTAssertEqual(tokyo.out, yomo("list", "--all", env: ["TZ": "Asia/Tokyo"]).out)
        XCTAssertTrue(tokyo.out.contains("-05:00") && !tokyo.out.contains("+09:00"), "each reminder keeps the zone it was made in: \(tokyo.out)")
    }

    /// `edit` changes the title and the rule in place: same id, a new
    /// trigger, the old creation time; a bad value or id changes nothing.
    func testEditChangesTitleAndRuleInPlace() {
        let id = yomo("add", "water plants every Tuesday at 3pm").records[0]["id"] as! String
        let e = yomo("edit", id, "--title", "water the ficus", "--time", "16:00")
        XCTAssertEqual(e.code, 0, e.err)
        XCTAssertEqual(e.err, "")
        let rec = e.records[0]
        XCTAssertEqual(rec["id"] as? String, id)
        XCTAssertEqual(rec["title"] as? String, "water the ficus")
        XCTAssertEqual(rec["trigger_at"] as? String, "2026-11-24T16:00:00-05:00")
        XCTAssertEqual((rec["recurrence"] as? [String: Any])?["days_of_week"] as? [String], ["tue"], "the rule is kept")
        XCTAssertEqual(rec["created_at"] as? String, now)
        let daily = yomo("edit", String(id.prefix(4)), "--repeat", "daily", "--format", "text")
        XCTAssertEqual(daily.out, "Changed \(id.prefix(6))  Sun 2026-11-22 16:00  ↻  water the ficus  (daily)\n")
        let bad = yomo("edit", id, "--time", "25:00")
        XCTAssertEqual(bad.code, 64)
        XCTAssertEqual(bad.err, "yomo: --time must be HH:MM on a 24-hour clock like 15:30, not '25:00'\n")
        XCTAssertEqual(bad.out, "")
        let missing = yomo("edit", "nope", "--title", "x")
        XCTAssertEqual(missing.code, 65)
        XCTAssertEqual(missing.err, "yomo: no reminder with id 'nope'; 'yomo list --all' shows them\n")
        XCTAssertEqual(yomo("list").records.map { $0["title"] as? String }, ["water the ficus"])
        XCTAssertEqual(yomo("list").records[0]["trigger_at"] as? String, "2026-11-22T16:00:00-05:00")
    }
}
