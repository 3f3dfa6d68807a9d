import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class TenclubToolTests: ToolTestCase {
    let now = "2026-11-22T21:00:00-05:00"

    func testStatusRecordHasEveryField() {
        for t in ["08:00", "08:05", "09:00"] { XCTAssertEqual(tenclub("unlock", "--at", "2026-11-22 \(t)", "--now", now).code, 0) }
        let r = tenclub("status", "--now", now)
        XCTAssertEqual(r.code, 0)
        XCTAssertEqual(r.out, #"{"type":"status","date":"2026-11-22","unlocks":3,"limit":10,"remaining":7,"card":"3C","card_name":"Three of Clubs","busted":false,"message":"7 unlocks left today."}"# + "\n")
        XCTAssertEqual(r.err, "")
        // Plain `tenclub` runs status.
        XCTAssertEqual(tenclub("--now", now).out, r.out)
        let other = tenclub("status", "--date", "2026-11-21", "--now", now).records[0]
        XCTAssertEqual(other["card"] as? String, "BACK")
        XCTAssertEqual(other["unlocks"] as? Int, 0)
    }

    /// Another day's status speaks of that day; history starts at the first
    /// day with an unlock (so the README's average is the average of days
    /// used), and its text header has no trailing spaces.
    func testOtherDaysAndHistoryReadAsWritten() {
        for m in 10..<15 { tenclub("unlock", "--at", "2026-11-20 12:\(m)", "--now", now) }
        for m in 10..<15 { tenclub("unlock", "--at", "2026-11-21 12:\(m)", "--now", now) }
        for m in 10..<15 { tenclub("unlock", "--at", "2026-11-22 12:\(m)", "--now", now) }
        let past = tenclub("status", "--date", "2026-11-21", "--format", "text", "--now", now)
        XCTAssertFalse(past.out.contains("today"), past.out)
        XCTAssertTrue(past.out.contains("5 of 10 unlocks that day: within the limit."), past.out)
        XCTAssertEqual(tenclub("status", "--date", "2026-11-21", "--now", now).records[0]["message"] as? String,
                       "5 of 10 unlocks that day: within the limit.")
        XCTAssertEqual(tenclub("status", "--date", "2026-11-19", "--now", now).records[0]["message"] as? String, "No unlocks that day.")
        let h = tenclub("history", "-n", "30", "--now", now)
        XCTAssertEqual(h.records.map { $0["date"] as? String }, ["2026-11-20", "2026-11-21", "2026-11-22"])
        let average = sh("tenclub history -n 30 --now \(now) | jq -s 'map(.unlocks) | add / length'")
        XCTAssertEqual(average.out, "5\n", average.err)
        let text = tenclub("history", "--format", "text", "--now", now)
        for line in text.lines { XCTAssertFalse(line.hasSuffix(" "), "trailing spaces: '\(line)'") }
    }

    /// The pickups report as a person and jq read it: a week against the
    /// last, per hour and first unlock; history carries the first unlock;
    /// the chart is ASCII without a UTF-8 locale; bad options are refused.
    func testReportIsTheWeekAgainstTheLast() {
        let log = write("week.ndjson", (0..<12).map { "{\"at\":\"2026-11-16T07:\(10 + $0):00-05:00\"}\n" }.joined()
            + (0..<3).map { "{\"at\":\"2026-11-17T22:0\($0):00-05:00\"}\n" }.joined()
            + (0..<7).map { "{\"at\":\"2026-11-\($0 == 0 ? "09" : "\(9 + $0)")T12:00:00-05:00\"}\n" }.joined())
        XCTAssertEqual(tenclub("ingest", "-q", log, "--now", now).code, 0)
        let r = tenclub("report", "--date", "2026-11-17", "--now", now)
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.records.map { $0["type"] as? String }, ["report"] + Array(repeating: "report_day", count: 7))
        let head = r.records[0]
        XCTAssertEqual(head["from"] as? String, "2026-11-16")
        XCTAssertEqual(head["unlocks"] as? Int, 15)
        XCTAssertEqual(head["busiest_hour"] as? Int, 7)
        XCTAssertEqual(head["previous_daily_average"] as? Double, 1)
        XCTAssertEqual(head["busted_days"] as? Int, 1)
        XCTAssertEqual(head["longest_run"] as? Int, 6)
        XCTAssertEqual((head["hours"] as? [Int])?[22], 3)
        XCTAssertEqual(r.records[1]["first_unlock"] as? String, "07:10")
        XCTAssertTrue(r.records[3]["first_unlock"] is NSNull)
        let busiest = sh("tenclub report --date 2026-11-17 --now \(now) | jq -r 'select(.type == \"report\") | .busiest_hour'")
        XCTAssertEqual(busiest.out, "7\n", busiest.err)
        XCTAssertEqual(tenclub("history", "-n", "7", "--now", now).records.first?["first_unlock"] as? String, "07:10")

        let text = tenclub("report", "--date", "2026-11-17", "--format", "text", "--now", now, env: ["LANG": "C.UTF-8", "LC_ALL": "", "LC_CTYPE": ""])
        XCTAssertTrue(text.out.hasPrefix("Week of 2026-11-16 to 2026-11-22: 15 unlocks so far, 2.5 a day before today (up 150% from 1.0 a day the week before)\n"), text.out)
        XCTAssertTrue(text.out.contains("█"), text.out)
        XCTAssertTrue(text.out.contains("2026-11-16       12  JOKER  07:10  BUSTED!\n"), text.out)
        for line in text.lines { XCTAssertFalse(line.hasSuffix(" "), "trailing spaces: '\(line)'") }
        let ascii = tenclub("report", "--date", "2026-11-17", "--format", "text", "--now", now, env: ["LANG": "C", "LC_ALL": "", "LC_CTYPE": ""])
        XCTAssertTrue(ascii.out.unicodeScalars.allSatisfy(\.isASCII), ascii.out)
        XCTAssertTrue(ascii.out.contains("@"), ascii.out)

        let bad = tenclub("report", "--period", "year", "--now", now)
        XCTAssertEqual(bad.code, 64)
        XCTAssertTrue(bad.err.contains("day, week, month"), bad.err)
        XCTAssertEqual(tenclub("report", "--date", "soon", "--now", now).code, 64)
    }

    func testUnlockPrintsTheNewCountAndTextDrawsTheCard() {
        let r = tenclub("unlock", "--now", now)
        XCTAssertEqual(r.records.first?["unlocks"] as? Int, 1)
        XCTAssertEqual(r.records.first?["card"] as? String, "AC")
        XCTAssertEqual(r.records.first?["at"] as? String, "2026-11-22T21:00:00-05:00")
        XCTAssertNotNil(r.records.first?["id"] as? String)
        let text = tenclub("status", "--format", "text", "--now", now)
        XCTAssertTrue(text.out.contains("│A      │"), text.out)
        XCTAssertTrue(text.out.contains("1 unlock · 2026-11-22"), text.out)
        XCTAssertFalse(text.out.contains("\u{1B}["), "no colour when not on a terminal")
        XCTAssertEqual(tenclub("unlock", "--at", "2026-11-23 09:00", "--now", now).code, 64, "no unlocks from the future")
    }

    func testIngestingTheSameFileTwiceCountsOnce() {
        var lines = ""
        for m in 0..<15 { lines += "{\"at\":\"2026-11-21T10:\(String(format: "%02d", m)):00-05:00\",\"source\":\"swayidle\"}\n" }
        lines += "{\"at\":\"2026-11-22T07:00:00-05:00\"}\n"
        let file = write("log.ndjson", lines)
        let first = tenclub("ingest", file, "--now", now)
        XCTAssertEqual(first.code, 0, first.err)
        XCTAssertEqual(first.out,
                       #"{"type":"day","date":"2026-11-21","added":15,"duplicates":0,"unlocks":15,"card":"JOKER","busted":true,"alert_queued":false}"# + "\n" +
                       #"{"type":"day","date":"2026-11-22","added":1,"duplicates":0,"unlocks":1,"card":"AC","busted":false,"alert_queued":false}"# + "\n")
        let second = tenclub("ingest", file, "--now", now)
        XCTAssertEqual(second.code, 0)
        XCTAssertEqual(second.records.map { $0["added"] as? Int }, [0, 0])
        XCTAssertEqual(second.records.map { $0["duplicates"] as? Int }, [15, 1])
        XCTAssertEqual(second.records.map { $0["unlocks"] as? Int }, [15, 1])
        // Stdin, and the same instants written another way, still count once.
        let again = tenclub("ingest", "--now", now, stdin: "{\"at\":\"2026-11-22T12:00:00Z\"}\n{\"at\":1795435200}\n")
        XCTAssertEqual(again.records.map { $0["added"] as? Int }, [0])
        XCTAssertEqual(tenclub("status", "--date", "2026-11-21", "--now", now).records[0]["unlocks"] as? Int, 15)
    }

    func testBadLinesAreReportedGoodOnesAppliedExit65() {
        let file = write("mixed.ndjson", """
        {"at":"2026-11-22T08:00:00-05:00"}
        not json
        [1,2]

        {"at":"tomorrow"}
        {"when":"2026-11-22T08:00:00-05:00"}
        {"at":"2026-11-22T09:00:00-05:00"}
        {"at":"2026-11-30T09:00:00-05:00"}

        """)
        let r = tenclub("ingest", file, "--now", now)
        XCTAssertEqual(r.code, 65)
        XCTAssertEqual(r.err.split(separator: "\n").map(String.init), [
            "tenclub: \(file):2: not valid JSON: unexpected character 'n' at column 1",
            "tenclub: \(file):3: expected a JSON object, got an array",
            "tenclub: \(file):5: \"at\" must be an RFC 3339 time like 2026-11-22T08:15:00-05:00 or epoch seconds (a number), not 'tomorrow'",
            "tenclub: \(file):6: missing \"at\": need an RFC 3339 time like 2026-11-22T08:15:00-05:00",
            "tenclub: \(file):8: \"at\" 2026-11-30T09:00:00-05:00 is in the future (now is 2026-11-22T21:00:00-05:00)",
        ])
        XCTAssertEqual(r.records.first?["added"] as? Int, 2)
        XCTAssertEqual(tenclub("status", "--now", now).records[0]["unlocks"] as? Int, 2)
        let viaStdin = tenclub("ingest", "-", "--now", now, stdin: "{\"at\":\"2026-11-22T10:00:00-05:00\"}\n{}\n")
        XCTAssertEqual(viaStdin.code, 65)
        XCTAssertEqual(viaStdin.err, "tenclub: stdin:2: missing \"at\": need an RFC 3339 time like 2026-11-22T08:15:00-05:00\n")
    }

    func testStrictAppliesNothing() {
        XCTAssertEqual(tenclub("unlock", "--now", now).code, 0)
        let journal = try? FileManager.default.contentsOfDirectory(atPath: dataDir + "/journal")
        let before = journal.map { $0.map { (try? Data(contentsOf: URL(fileURLWithPath: dataDir + "/journal/" + $0))) } }
        let file = write("bad.ndjson", "{\"at\":\"2026-11-22T08:00:00-05:00\"}\n{\"at\":\"2026-11-22T08:01:00-05:00\"}\n{oops}\n")
        let r = tenclub("ingest", "--strict", file, "--now", now)
        XCTAssertEqual(r.code, 65)
        XCTAssertEqual(r.out, "")
        XCTAssertTrue(r.err.hasPrefix("tenclub: \(file):3: "), r.err)
        XCTAssertTrue(r.err.hasSuffix("(--strict: nothing applied)\n"), r.err)
        XCTAssertEqual(tenclub("status", "--now", now).records[0]["unlocks"] as? Int, 1)
        let after = journal.map { $0.map { (try? Data(contentsOf: URL(fileURLWithPath: dataDir + "/journal/" + $0))) } }
        XCTAssertEqual(before, after, "the journal is untouched")
    }

    func testMissingInputIs66AndNothingApplied() {
        let good = write("good.ndjson", "{\"at\":\"2026-11-22T08:00:00-05:00\"}\n")
        let r = tenclub("ingest", good, tmp + "/missing.ndjson", "--now", now)
        XCTAssertEqual(r.code, 66)
        XCTAssertEqual(r.err, "tenclub: cannot open \(tmp)/missing.ndjson: No such file or directory\n")
        XCTAssertEqual(tenclub("status", "--now", now).records[0]["unlocks"] as? Int, 0)
    }

    func testCheckExitsOneOnceBusted() {
        for i in 0..<10 { tenclub("unlock", "-q", "--at", "2026-11-22 08:\(10 + i)", "--now", now) }
        let ok = tenclub("check", "--now", now)
        XCTAssertEqual(ok.code, 0)
        XCTAssertEqual(ok.records[0]["card"] as? String, "10C")
        tenclub("unlock", "-q", "--now", now)
        let busted = tenclub("check", "--now", now)
        XCTAssertEqual(busted.code, 1)
        XCTAssertEqual(busted.records[0]["message"] as? String, "No tenclub today! Better luck tomorrow")
        XCTAssertEqual(tenclub("check", "-q", "--now", now).out, "")
        XCTAssertEqual(tenclub("check", "--now", "2026-11-23T08:00:00-05:00").code, 0, "a new day starts clean")
    }

    func testWidgetStyles() {
        // Before any unlock the card's name has parentheses of its own: the
        // tooltip does not wrap it in more.
        let empty = tenclub("widget", "--style", "waybar", "--now", now).records.first?["tooltip"] as? String ?? ""
        XCTAssertEqual(empty, "0 unlocks today: Face down (no unlocks yet). No unlocks yet today. Ten to spend.")
        XCTAssertFalse(empty.contains("))"))
        for i in 0..<8 { tenclub("unlock", "-q", "--at", "2026-11-22 08:1\(i)", "--now", now) }
        let waybar = tenclub("widget", "--style", "waybar", "--now", now)
        XCTAssertEqual(waybar.out, #"{"text":"♣ 8/10","tooltip":"8 unlocks today: Eight of Clubs. 2 unlocks left today.","class":"close","percentage":80,"alt":"8C"}"# + "\n")
        XCTAssertEqual(tenclub("widget", "--style", "tmux", "--now", now).out, "#[fg=yellow]♣ 8/10#[default]\n")
        XCTAssertEqual(tenclub("widget", "--now", now).out, "♣ 8/10\n")
        let bad = tenclub("widget", "--style", "polybar", "--now", now)
        XCTAssertEqual(bad.code, 64)
        XCTAssertEqual(bad.err, "tenclub: --style must be one of waybar, tmux, plain, not 'polybar'; see 'tenclub widget --help'\n")
    }

    func testHistoryOldestFirstWithStreak() {
        let log = write("h.ndjson", (0..<12).map { "{\"at\":\"2026-11-19T09:\(10 + $0):00-05:00\"}\n" }.joined()
            + "{\"at\":\"2026-11-18T09:00:00-05:00\"}\n{\"at\":\"2026-11-21T09:00:00-05:00\"}\n")
        XCTAssertEqual(tenclub("ingest", log, "--now", now).code, 0)
        let h = tenclub("history", "--days", "5", "--now", now)
        XCTAssertEqual(h.records.map { $0["date"] as? String }, ["2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21", "2026-11-22"])
        XCTAssertEqual(h.records.map { $0["unlocks"] as? Int }, [1, 12, 0, 1, 0])
        XCTAssertEqual(h.records.map { $0["busted"] as? Bool }, [false, true, false, false, false])
        XCTAssertEqual(h.records.map { $0["streak"] as? Int }, [1, 0, 1, 2, 3])
        let text = tenclub("history", "-n3", "--format", "text", "--now", now)
        XCTAssertTrue(text.out.hasSuffix("Current streak: 3 days at ten or under.\n"), text.out)
        XCTAssertEqual(tenclub("history", "--days", "0", "--now", now).code, 64)
    }

    func testDaysFollowTZAcrossDaylightSaving() {
        // Fall back on 2026-11-01 (25 hours), spring forward on 2026-03-08 (23 hours).
        let log = write("dst.ndjson", """
        {"at":"2026-11-01T03:59:59Z"}
        {"at":"2026-11-01T04:00:00Z"}
        {"at":"2026-11-02T04:59:59Z"}
        {"at":"2026-11-02T05:00:00Z"}
        {"at":"2026-03-08T04:59:59Z"}
        {"at":"2026-03-08T05:00:00Z"}
        {"at":"2026-03-09T03:59:59Z"}
        {"at":"2026-03-09T04:00:00Z"}

        """)
        let r = tenclub("ingest", log, "--now", now)
        XCTAssertEqual(r.records.map { "\($0["date"]!)=\($0["added"]!)" },
                       ["2026-03-07=1", "2026-03-08=2", "2026-03-09=1", "2026-10-31=1", "2026-11-01=2", "2026-11-02=1"])
        // The same instants in another zone land on other days.
        let tokyo = tenclub("status", "--date", "2026-11-01", "--now", now, env: ["TZ": "Asia/Tokyo"])
        XCTAssertEqual(tokyo.records[0]["unlocks"] as? Int, 2, "days were fixed when the unlocks were written")
        XCTAssertEqual(tenclub("status", "--now", now, env: ["TZ": "Nowhere/Special"]).code, 78)
    }

    func testBadOptionValuesAreUsageErrors() {
        let cases: [([String], String)] = [
            (["status", "--now", "soon"], "tenclub: --now must be a time like 2026-11-22T08:15:00-05:00 or '2026-11-22 08:15', not 'soon'\n"),
            (["status", "--date", "22/11/2026"], "tenclub: --date must be a day like 2026-11-22 (or today, yesterday), not '22/11/2026'\n"),
            (["stauts"], "tenclub: unknown command 'stauts' (did you mean 'status'?); see 'tenclub --help'\n"),
            (["status", "--fromat", "json"], "tenclub: unknown option --fromat for 'status' (did you mean '--format'?); see 'tenclub status --help'\n"),
            (["status", "--colour"], "tenclub: unknown option --colour for 'status' (did you mean '--color'?); see 'tenclub status --help'\n"),
        ]
        for (args, err) in cases {
            let r = run("tenclub", args)
            XCTAssertEqual(r.code, 64, "\(args)")
            XCTAssertEqual(r.err, err)
            XCTAssertEqual(r.out, "")
        }
    }

    func testDataDirectoryDefaultsAndPermissions() {
        let xdg = tmp + "/xdg"
        var env = baseEnvironment
        env["TENCLUB_DATA_DIR"] = ""
        env["XDG_DATA_HOME"] = xdg
        XCTAssertEqual(run("tenclub", ["unlock", "--now", now], env: env).code, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: xdg + "/tenclub/journal"))
        env["XDG_DATA_HOME"] = ""
        XCTAssertEqual(run("tenclub", ["unlock", "--now", now], env: env).code, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp + "/.local/share/tenclub/snapshot.ndjson"))
        let blocker = write("file", "x")
        let r = tenclub("unlock", "--data-dir", blocker + "/sub", "--now", now)
        XCTAssertEqual(r.code, 73)
        XCTAssertTrue(r.err.hasPrefix("tenclub: cannot create \(blocker)/sub"), r.err)
    }

    func testLockedDataDirectoryIsExit75() throws {
        tenclub("unlock", "-q", "--now", now)
        let fd = open(dataDir + "/lock", O_RDWR)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        let r = tenclub("unlock", "--now", now, env: ["TENCLUB_LOCK_TIMEOUT": "0.2"])
        flock(fd, LOCK_UN)
        close(fd)
        XCTAssertEqual(r.code, 75)
        XCTAssertEqual(r.err, "tenclub: the tenclub data directory \(dataDir) is locked by another run; try again\n")
        // Readers never wait for the lock.
        XCTAssertEqual(tenclub("status", "--now", now).records[0]["unlocks"] as? Int, 1)
    }

    func testClosedPipeEndsQuietly() {
        tenclub("unlock", "-q", "--now", now)
        let r = sh("tenclub history --days 3000 --now '\(now)' | head -1; echo \"status=${PIPESTATUS[0]}\"")
        XCTAssertEqual(r.err, "")
        XCTAssertTrue(r.out.hasSuffix("status=0\n"), r.out)
        XCTAssertTrue(r.out.hasPrefix("{\"type\":\"day\""), r.out)
    }

    /// Four processes append 500 unlocks each at the same time: exactly 2000.
    func testConcurrentWritersLoseNothing() {
        // Each unlock its own second (instants less than a second apart are one unlock).
        let end = 1_795_399_200  // 2026-11-22T21:00:00-05:00
        let r = sh("""
        for w in 1 2 3 4; do
          ( for i in $(seq 250); do tenclub unlock -q --at @$((\(end) - w * 1000 - i)) || echo "fail $?" >&2; done ) &
        done
        wait
        """, env: ["TENCLUB_NOW": now, "TENCLUB_LOCK_TIMEOUT": "60"])
        XCTAssertEqual(r.err, "")
        XCTAssertEqual(tenclub("status", "--now", now).records[0]["unlocks"] as? Int, 1000)
        let journal = try! String(contentsOfFile: dataDir + "/journal/" + (try! FileManager.default.contentsOfDirectory(atPath: dataDir + "/journal"))[0], encoding: .utf8)
        XCTAssertEqual(journal.split(separator: "\n").filter { $0.hasPrefix("{\"type\":\"commit\"") }.count, 1000)
    }

    /// kill -9 at random moments during ingest: the store always opens, and
    /// no batch that was acknowledged is ever lost; each batch is all or nothing.
    func testKillNineDuringIngestLosesNothingAcknowledged() throws {
        var rng = SystemRandomNumberGenerator()
        let batch = 20_000
        var acknowledged = 0
        var interrupted = 0
        var files: [String] = []
        for f in 0..<12 {
            var text = ""
            let base = 1_780_000_000 + f * 100_000
            for i in 0..<batch { text += "{\"at\":\(base + i)}\n" }
            files.append(write("batch\(f).ndjson", text))
        }
        for file in files {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: executable("tenclub"))
            p.arguments = ["ingest", "-q", file, "--now", now]
            p.environment = baseEnvironment
            p.standardError = FileHandle.nullDevice
            try p.run()
            usleep(UInt32.random(in: 0...250_000, using: &rng))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            if p.terminationReason == .exit && p.terminationStatus == 0 { acknowledged += batch } else { interrupted += 1 }
            let status = tenclub("history", "--days", "400", "--now", now)
            XCTAssertEqual(status.code, 0, status.err)
            let total = status.records.reduce(0) { $0 + ($1["unlocks"] as? Int ?? 0) }
            XCTAssertGreaterThanOrEqual(total, acknowledged)
            XCTAssertEqual(total % batch, 0, "a batch was applied in part")
            acknowledged = max(acknowledged, total)
        }
        XCTAssertGreaterThan(interrupted, 0, "no run was interrupted: the test proved nothing")
        // Feeding everything again completes what was interrupted.
        let all = tenclub(["ingest", "-q"] + files + ["--now", now])
        XCTAssertEqual(all.code, 0, all.err)
        let h = tenclub("history", "--days", "400", "--now", now)
        XCTAssertEqual(h.records.reduce(0) { $0 + ($1["unlocks"] as? Int ?? 0) }, batch * files.count)
    }

    /// A pinned clock earlier than the store's last write is a what-if or a
    /// backfill: no warning that the stamps run ahead of it.
    func testAPinnedEarlierClockWritesWithoutAWarning() {
        XCTAssertEqual(tenclub("unlock", "--now", "2026-11-24T10:00:00-05:00").code, 0)
        let back = tenclub("unlock", "--now", "2026-10-01T10:00:00-04:00")
        XCTAssertEqual(back.code, 0)
        XCTAssertEqual(back.err, "")
        XCTAssertEqual(tenclub("status", "--date", "2026-10-01").records.first?["unlocks"] as? Int, 1)
    }

    @discardableResult
    func tenclub(_ args: [String], stdin: String? = nil, env: [String: String] = [:]) -> RunResult {
        run("tenclub", args, stdin: stdin, env: env)
    }
}
