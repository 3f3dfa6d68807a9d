import XCTest
import TestSupport
import NudgeKit

/// The crontab entries README.md and the man pages document, run as cron
/// runs them (`crond`: cron's environment only, `/bin/sh -c`, in the home
/// folder) when there is work to do: a message due and clicked, a reminder
/// due and acted on, files written to a vdir and synced by the real
/// vdirsyncer, texts that cannot go out, a host pool's owner run. Cron mails
/// whatever an entry prints on stdout or stderr, so an entry must print
/// nothing when all is well, and say only what needs a person when it is
/// not (a command that has failed for an hour, a text given up on).
extension ExampleTests {
    /// Every documented crontab entry whose command contains `part`, from
    /// README.md and the tool's man page, with the documents' files
    /// (`example: file ~/bin/...`) each needs.
    func documentedEntries(_ part: String, tool: String) throws -> [(source: String, env: [(String, String)], command: String, files: [Example])] {
        let readme = Example.fromMarkdown(try String(contentsOfFile: ToolTestCase.packageRoot + "/README.md", encoding: .utf8), source: "README.md")
        let man = try manExamples(tool)
        var out: [(String, [(String, String)], String, [Example])] = []
        for doc in [readme, man] {
            let files = doc.filter { $0.file?.hasPrefix("~/bin/") == true }
            for e in doc {
                guard let cron = Example.crontab(e.text) else { continue }
                for entry in cron.entries where entry.command.contains(part) {
                    out.append((e.name, entry.env, entry.command, files))
                }
            }
        }
        return out
    }

    /// Installs a document's files in the run's home (`~/bin/...`).
    func install(_ files: [Example], _ run: Run) throws {
        for f in files {
            guard let target = f.file else { continue }
            let path = run.home + target.dropFirst(1)
            try FileManager.default.createDirectory(atPath: Sys.parentDirectory(path), withIntermediateDirectories: true)
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(f.text.utf8), attributes: [.posixPermissions: 0o755]))
        }
    }

    /// A stand-in for `notify-send --wait` on which the user clicks the
    /// first action: prints its id, as the real one does, and logs the
    /// notification. It reads nothing from stdin (nor does the real one).
    func clickingNotifier(_ run: Run, log: String) {
        let script = """
            #!/bin/sh
            printf '%s\\n' "$*" >> '\(log)'
            for a in "$@"; do
              case $a in --action=*) a=${a#--action=}; printf '%s\\n' "${a%%=*}"; exit 0 ;; esac
            done
            exit 0

            """
        _ = FileManager.default.createFile(atPath: run.root + "/bin/notify-send", contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
    }

    /// A run of its own for each document's entry: the test's folder emptied first.
    func freshRun() throws -> Run {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? [] {
            try? FileManager.default.removeItem(atPath: tmp + "/" + name)
        }
        return try prepare()
    }

    func assertSilent(_ r: RunResult, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(r.code == 0 && r.out.isEmpty && r.err.isEmpty,
                      "\(what) would mail: it exited \(r.code)\n--- stderr:\n\(r.err)--- stdout:\n\(r.out)", file: file, line: line)
    }

    /// playa: the day generated at midnight, the 09:00 message due, the
    /// notifier clicked (Open): the event is opened on the phone and marked
    /// sent, and neither entry prints anything.
    func testPlayaCronEntriesAreSilentWhenAMessageIsNotifiedAndOpened() throws {
        let dues = try documentedEntries("playa due", tool: "playa")
        XCTAssertEqual(dues.count, 2, "README.md and playa(1) each show the crontab")
        for entry in dues {
            var run = try freshRun()
            try install(entry.files, run)
            let log = run.root + "/notified"
            clickingNotifier(run, log: log)
            let setup = shell("""
                export PLAYA_NOW=2026-11-22T08:00:00-05:00
                playa recipient add Ana --platform whatsapp --phone +14155550132 -q
                playa message add Ana 'Coffee this week?' -q
                playa schedule Ana --fixed 09:00 -q
                """, &run)
            XCTAssertEqual(setup.code, 0, setup.err)
            for g in try documentedEntries("playa generate", tool: "playa") where g.source.hasPrefix(entry.source.prefix(9)) {
                assertSilent(crond(g.command, run, env: g.env + [("PLAYA_NOW", "2026-11-23T00:00:00-05:00")]), "\(g.source): \(g.command)")
            }
            assertSilent(crond(entry.command, run, env: entry.env + [("PLAYA_NOW", "2026-11-23T09:00:20-05:00")]), "\(entry.source): \(entry.command)")
            XCTAssertTrue((try? String(contentsOfFile: log, encoding: .utf8))?.contains("Ana") == true, "\(entry.source): the notifier was called")
            let q = shell("PLAYA_NOW=2026-11-23T09:05:00-05:00 playa queue --format json", run)
            XCTAssertEqual(q.code, 0, q.err)
            XCTAssertFalse(q.out.contains("\"status\":\"pending\""), "\(entry.source): the click opened it and marked it sent: \(q.out)")
            assertSilent(crond(entry.command, run, env: entry.env + [("PLAYA_NOW", "2026-11-23T09:01:00-05:00")]), "\(entry.source): the next minute")
        }
    }

    /// The same crontab on a second device (one sync folder): the other
    /// device notifies, and this one's cron run is silent every minute
    /// (status 77 says why to a script; the message only without -q).
    func testPlayaCronEntryIsSilentOnADeviceThatDoesNotNotify() throws {
        for entry in try documentedEntries("playa due", tool: "playa") {
            var run = try freshRun()
            try install(entry.files, run)
            let sync = run.root + "/Sync"
            let setup = shell("""
                export PLAYA_NOW=2026-11-23T08:00:00-05:00 PLAYA_SYNC_DIR=\(sync) PLAYA_ACTOR=laptop
                playa recipient add Ana --platform whatsapp --phone +14155550132 -q
                playa message add Ana 'Coffee this week?' -q
                playa schedule Ana --fixed 09:00 -q
                playa due -q --command true
                """, &run)
            XCTAssertEqual(setup.code, 0, setup.err)
            let phone = [("PLAYA_SYNC_DIR", sync), ("PLAYA_ACTOR", "phone"), ("PLAYA_DATA_DIR", run.root + "/phone-data")]
            let r = crond(entry.command, run, env: entry.env + phone + [("PLAYA_NOW", "2026-11-23T09:10:00-05:00")])
            XCTAssertEqual(r.code, 77, "\(entry.source): \(r.err)")
            XCTAssertEqual(r.out + r.err, "", "\(entry.source): the phone's cron mails nothing")
            let asked = crond("playa due", run, env: phone + [("PLAYA_NOW", "2026-11-23T09:10:00-05:00"), ("PATH", "/usr/local/bin:/usr/bin:/bin")])
            XCTAssertTrue(asked.err.contains("notifications are sent from the device 'laptop'"), "without -q it says why: \(asked.err)")
        }
    }

    /// playa due -q with a notifier that fails: the retries it schedules
    /// are not news; the failure after about an hour of them is, once.
    func testPlayaDueQuietSaysAFailureOnlyWhenItIsNews() throws {
        var run = try freshRun()
        XCTAssertEqual(shell("""
            export PLAYA_NOW=2026-11-23T08:00:00-05:00
            playa recipient add Ana --platform sms --phone +14155550132 -q
            playa message add Ana 'Coffee this week?' -q
            playa schedule Ana --fixed 09:00 -q
            playa generate -q
            """, &run).code, 0)
        var said: [String] = []
        var t = RFC3339.parse("2026-11-23T09:00:30-05:00")!.instant
        for tries in 1...9 {
            let now = Zone.utc.format(t)
            let r = crond("playa due -q --command 'exit 3'", run, env: [("PLAYA_NOW", now), ("PATH", "/usr/local/bin:/usr/bin:/bin")])
            XCTAssertEqual(r.out, "", now)
            XCTAssertEqual(r.code, 75, "\(now): the run failed, and its status says so: \(r.err)")
            if !r.err.isEmpty { said.append(r.err) }
            t = t.adding(seconds: Int64(Handover.backoffMinutes(failures: tries) * 60 + 1))
        }
        XCTAssertEqual(said, ["playa: 1 notification not shown for about an hour or more (the notify command keeps failing); tried again every hour while the day lasts\n"],
                       "said once, after an hour of failures")
    }

    /// tenclub sms deliver -q with the gateway down: silent while retries
    /// are scheduled, one line after an hour of failures, one line when a
    /// text that failed is given up.
    func testTenclubDeliverQuietSaysOnlyWhatNeedsAPerson() throws {
        let entries = try documentedEntries("tenclub sms deliver", tool: "tenclub")
        XCTAssertEqual(entries.count, 2, "README.md and tenclub(1) each show the crontab")
        for entry in entries {
            var run = try freshRun()
            try FileManager.default.createDirectory(atPath: run.home + "/.config/tenclub", withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: run.home + "/.config/tenclub/config", contents: Data("sms_command = exit 7\n".utf8))
            let setup = shell("""
                export TENCLUB_NOW=2026-11-23T08:30:00-05:00
                tenclub buddy set 415-555-0132 -q
                echo '{"from":"+14155550132","body":"YES","at":"2026-11-23T08:05:00-05:00"}' | tenclub sms receive -q
                for m in $(seq 10 20); do tenclub unlock -q --at 2026-11-23T08:$m:00-05:00; done
                """, &run)
            XCTAssertEqual(setup.code, 0, setup.err)
            var said: [String] = []
            var t = RFC3339.parse("2026-11-23T09:00:30-05:00")!.instant
            for tries in 1...9 {
                let now = Zone.utc.format(t)
                let r = crond(entry.command, run, env: entry.env + [("TENCLUB_NOW", now)])
                XCTAssertEqual(r.out, "", "\(entry.source) at \(now)")
                XCTAssertEqual(r.code, 75, "\(entry.source) at \(now): \(r.err)")
                if !r.err.isEmpty { said.append(r.err) }
                t = t.adding(seconds: Int64(Handover.backoffMinutes(failures: tries) * 60 + 1))
            }
            XCTAssertEqual(said.count, 1, "\(entry.source): said once, after an hour: \(said)")
            XCTAssertTrue(said.first?.hasSuffix("not delivered for about an hour or more (the command exited 7); still queued, tried again every hour\n") == true, "\(said)")
            // Given up: the day's alert could not go out on its day or the day after.
            let r = crond(entry.command, run, env: entry.env + [("TENCLUB_NOW", "2026-11-25T00:05:00-05:00")])
            XCTAssertEqual(r.out, "")
            XCTAssertTrue(r.err.hasPrefix("tenclub: gave up on alert ") && r.err.hasSuffix("after 9 failed tries: expired: an alert goes out on its day or the day after, not later\n"), r.err)
        }
    }

    /// yomo: a reminder due, the notifier's first action clicked: the action
    /// runs (the reminder is acted on) and cron has nothing to mail.
    func testYomoNotifierEntryIsSilentWhenAnActionIsClicked() throws {
        try require(.jq)
        let entries = try documentedEntries("yomo due", tool: "yomo")
        XCTAssertEqual(entries.count, 3, "README.md (twice) and yomo(1) show the notifier's crontab")
        for entry in entries {
            var run = try freshRun()
            try install(entry.files, run)
            let log = run.root + "/notified"
            clickingNotifier(run, log: log)
            XCTAssertEqual(shell("YOMO_NOW=2026-11-23T08:00:00-05:00 yomo add 'call mum' --date 2026-11-23 --time 09:00 -q", &run).code, 0)
            let before = shell("YOMO_NOW=2026-11-23T08:00:00-05:00 yomo list --format json", run).out
            assertSilent(crond(entry.command, run, env: entry.env + [("YOMO_NOW", "2026-11-23T09:00:20-05:00")]), "\(entry.source): \(entry.command)")
            XCTAssertTrue((try? String(contentsOfFile: log, encoding: .utf8))?.contains("call mum") == true, "\(entry.source): notified")
            let after = shell("YOMO_NOW=2026-11-23T09:00:40-05:00 yomo list --format json", run).out
            XCTAssertNotEqual(before, after, "\(entry.source): the clicked action changed the reminder")
        }
    }

    /// yomo's vdir entry with the real vdirsyncer (two local folders stand
    /// for yomo's vdir and the phone's): files written both ways, nothing
    /// mailed.
    func testYomoVdirEntryIsSilentWithRealVdirsyncer() throws {
        try require(.vdirsyncer)
        let entries = try documentedEntries("yomo vdir sync", tool: "yomo")
        XCTAssertEqual(entries.count, 2, "README.md and yomo(1) each show the vdir crontab")
        for entry in entries {
            var run = try freshRun()
            let mine = run.root + "/vdir-yomo", phone = run.root + "/vdir-phone"
            for d in [mine, phone, run.home + "/.config/yomo", run.home + "/.config/vdirsyncer", run.root + "/vds-status"] {
                try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
            }
            _ = FileManager.default.createFile(atPath: run.home + "/.config/yomo/config", contents: Data("vdir = \(mine)\n".utf8))
            _ = FileManager.default.createFile(atPath: run.home + "/.config/vdirsyncer/config", contents: Data("""
                [general]
                status_path = "\(run.root)/vds-status"
                [pair reminders]
                a = "yomo"
                b = "phone"
                collections = null
                [storage yomo]
                type = "filesystem"
                path = "\(mine)"
                fileext = ".ics"
                [storage phone]
                type = "filesystem"
                path = "\(phone)"
                fileext = ".ics"

                """.utf8))
            XCTAssertEqual(shell("vdirsyncer discover >/dev/null 2>&1", &run).code, 0)
            XCTAssertEqual(shell("yomo add 'water plants' --date 2026-11-24 --time 18:00 -q && yomo add 'pay rent' --date 2026-12-01 --time 09:00 -q", &run).code, 0)
            assertSilent(crond(entry.command, run, env: entry.env), "\(entry.source): \(entry.command)")
            let onPhone = Sys.listDirectory(phone).filter { $0.hasSuffix(".ics") }
            XCTAssertEqual(onPhone.count, 2, "\(entry.source): the reminders reached the phone's folder")
            // A task made on the phone comes back to yomo, still silently.
            let ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//phone//EN\r\nBEGIN:VTODO\r\nUID:phone-1@example.com\r\nDTSTAMP:20261122T120000Z\r\nSUMMARY:buy milk\r\nDUE:20261125T170000Z\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            _ = FileManager.default.createFile(atPath: phone + "/phone-1.ics", contents: Data(ics.utf8))
            assertSilent(crond(entry.command, run, env: entry.env), "\(entry.source): a change from the phone")
            XCTAssertTrue(shell("yomo list --format json", run).out.contains("buy milk"), "\(entry.source): the phone's task reached yomo")
            assertSilent(crond(entry.command, run, env: entry.env), "\(entry.source): nothing changed")
        }
    }

    /// The host pool owner's entry, in root's crontab with cron's PATH:
    /// it finds the installed tool, and a run that tells nobody anything
    /// prints nothing.
    func testHabitmatchPoolMatchEntryRunsFromRootsCrontab() throws {
        try require(.root)
        let entries = try documentedEntries("pool match", tool: "habitmatch")
        XCTAssertEqual(entries.count, 2, "README.md and habitmatch(1) each show root's crontab")
        for entry in entries {
            let run = try freshRun()
            let pool = run.root + "/paths/srv/habitmatch"
            try FileManager.default.createDirectory(atPath: Sys.parentDirectory(pool), withIntermediateDirectories: true)
            let made = shell("habitmatch pool init \(pool) --group root -q", run)
            XCTAssertEqual(made.code, 0, made.err)
            let command = entry.command.replacingOccurrences(of: "/srv/habitmatch", with: pool)
            assertSilent(crond(command, run, env: entry.env), "\(entry.source): \(command)")
        }
    }
}
