import XCTest

/// A pool of several members in a temporary folder, driven through the
/// executable: join, like, match, chat, accept, meet, export .ics.
final class HabitmatchToolTests: HabitmatchPoolCase {
    /// `calendar --year`: a record a day of the year with Loop's strength
    /// from the first day done, the heat map in the width asked for, and
    /// clear refusals.
    func testAYearAtAGlance() {
        XCTAssertEqual(hm("ana", "join", "--name", "Ana", "--habit", "read").code, 0)
        for d in ["2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21"] { XCTAssertEqual(hm("ana", "done", "read", "--date", d).code, 0) }
        let year = hm("ana", "calendar", "--year", "this")
        XCTAssertEqual(year.code, 0, year.err)
        XCTAssertEqual(year.records.count, 365)
        let byDate = Dictionary(uniqueKeysWithValues: year.records.map { ($0["date"] as! String, $0) })
        XCTAssertNil(byDate["2026-11-17"]?["strength"], "no strength before the first day done")
        XCTAssertEqual((byDate["2026-11-18"]?["strength"] as? Double) ?? -1, 0.052, accuracy: 0.0005)
        XCTAssertEqual(byDate["2026-11-23"]?["future"] as? Bool, true)
        XCTAssertNil(byDate["2026-11-23"]?["strength"])

        let map = hm("ana", "calendar", "--year", "2026", "--format", "text", env: ["COLUMNS": "40", "LANG": "C"])
        XCTAssertEqual(map.code, 0, map.err)
        let lines = map.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "Read every day — Ana, 2026", "no room to say how many weeks")
        XCTAssertEqual(lines.count, 10)
        XCTAssertTrue(lines.allSatisfy { $0.count <= 39 }, map.out)
        // Wednesday to Saturday of the last week column, done and shaded; Sunday the 22nd today, not done.
        XCTAssertEqual(lines[2..<9].map { String($0.suffix(1)) }, [".", ".", "-", "-", "-", "-", "."], map.out)

        // With the clock pinned years ahead, a day that has not come by the
        // real clock is refused, not silently left out.
        let ahead = hm("ana", "done", "read", env: ["HABITMATCH_NOW": "2031-03-01T10:00:00-05:00"])
        XCTAssertEqual(ahead.code, 64)
        XCTAssertTrue(ahead.err.hasPrefix("habitmatch: 2031-03-01 has not come yet by this machine's clock (today is "), ahead.err)
        XCTAssertEqual(hm("ana", "calendar", "--year", "1999").err,
                       "habitmatch: --year must be a year from 2000 to 2100 (or this), not '1999'\n")
        XCTAssertEqual(hm("ana", "calendar", "--year", "2026", "--month", "2026-11").code, 64)
        XCTAssertEqual(hm("ana", "calendar", "--year", "20x6").code, 64)
    }

    func testAPoolFromJoinToCalendarInvite() throws {
        XCTAssertEqual(hm("ana", "candidates", "--format", "text").err, "habitmatch: ana has not joined the pool \(tmp)/pool yet: habitmatch join --name NAME --habit exercise\n")
        XCTAssertEqual(hm("ana", "join", "--name", "Ana", "--email", "ana@example.com", "--habit", "exercise", "--habit", "read").code, 0)
        XCTAssertEqual(hm("ana", "candidates", "--format", "text").out, "No user for now. Come back later\n")
        hm("bo", "join", "--name", "Bo", "--timezone", "Europe/London", "--habit", "read")
        hm("cy", "join", "--name", "Cy", "--email", "cy@example.com", "--timezone", "America/Chicago", "--habit", "read", "--habit", "exercise")
        hm("dee", "join", "--name", "Dee", "--habit", "meditate")
        XCTAssertEqual(hm("ana", "candidates").records.map { $0["user"] as? String }, ["cy", "bo"])
        // Like each other (in either order) to match; the match is announced.
        XCTAssertEqual(hm("ana", "like", "cy").records.count, 1)
        let back = hm("cy", "swipe", "ana", "right")
        XCTAssertEqual(back.records.map { $0["type"] as? String }, ["swipe", "notification"])
        XCTAssertEqual(back.records[1]["title"] as? String, "It's a match: Ana")
        let announced = hm("ana", "remind")
        XCTAssertEqual(announced.records.map { $0["title"] as? String }, ["It's a match: Cy"], "announced to both")
        XCTAssertEqual(hm("ana", "remind").out, "", "once")
        XCTAssertEqual(hm("ana", "candidates").records.map { $0["user"] as? String }, ["bo"])
        // Chat and meetings only with a match; calendars only between buddies.
        XCTAssertEqual(hm("bo", "chat", "ana", "hello").code, 77)
        XCTAssertEqual(hm("ana", "chat", "cy", "Run on Saturday?").code, 0)
        XCTAssertEqual(hm("cy", "chat", "ana").records.map { $0["text"] as? String }, ["Run on Saturday?"])
        hm("ana", "done", "exercise")
        XCTAssertEqual(hm("cy", "calendar", "exercise", "--of", "ana").code, 77)
        hm("ana", "buddy", "accept", "cy")
        XCTAssertEqual(hm("cy", "buddy", "accept", "ana").records[0]["buddies"] as? Bool, true)
        let cal = hm("cy", "calendar", "exercise", "--of", "ana")
        XCTAssertEqual(cal.records.count, 30)
        XCTAssertEqual(cal.records.first { $0["date"] as? String == "2026-11-22" }?["done"] as? Bool, true)
        XCTAssertEqual(hm("bo", "calendar", "exercise", "--of", "ana").err, "habitmatch: only buddies may see each other's calendar; ana is not your buddy\n")
        // Meet, and export the invitation.
        XCTAssertEqual(hm("ana", "meet", "cy", "--at", "2026-11-22 18:00", "--minutes", "45").code, 64)
        let meet = hm("ana", "meet", "cy", "--at", "2026-11-22 18:00", "--weekly")
        XCTAssertEqual(meet.code, 0, meet.err)
        XCTAssertEqual(hm("cy", "meetings").records.map { $0["next"] as? String }, ["2026-11-22T18:00:00-05:00"], "both see it")
        let ics = hm("cy", "meetings", "--format", "ics").out
        XCTAssertTrue(ics.hasPrefix("BEGIN:VCALENDAR\r\n"))
        XCTAssertEqual(hm("cy", "meetings", "--ics").out.count, ics.count, "the old spelling still works")
        XCTAssertTrue(ics.contains("DTSTART;TZID=America/New_York:20261122T180000\r\n"))
        XCTAssertTrue(ics.contains("ATTENDEE;CN=\"Cy\";RSVP=TRUE:mailto:cy@example.com\r\n"))
        XCTAssertTrue(ics.contains("RRULE:FREQ=WEEKLY\r\n"))
        XCTAssertTrue(ics.contains("DESCRIPTION:Check-in (30 minutes at most):\\n1. What did you get done"))
        // A change is never stamped ahead of the real clock, whatever --now
        // says (the store's one rule): a bio written "in 2099" is stamped
        // now, so it hides none of Cy's later changes from the others.
        let before = Int64(Date().timeIntervalSince1970 * 1000)
        let ahead = hm("cy", "profile", "set", "--bio", "from 2099", "--now", "2099-11-24T17:46:00-05:00")
        XCTAssertEqual(ahead.code, 0, ahead.err)
        let after = Int64(Date().timeIntervalSince1970 * 1000)
        let commit = try String(contentsOfFile: tmp + "/pool/journal/cy.ndjson", encoding: .utf8).split(separator: "\n").last.map(String.init) ?? ""
        let hlc = (try JSONSerialization.jsonObject(with: Data(commit.utf8)) as? [String: Any])?["hlc"] as? [Any]
        let stamp = (hlc?.first as? NSNumber)?.int64Value ?? 0
        XCTAssertTrue(stamp >= before - 60_000 && stamp <= after, "stamped \(stamp), the clock was \(before)...\(after): \(commit)")
        XCTAssertEqual(hm("cy", "profile", "set", "--bio", "later", env: ["HABITMATCH_NOW": ""]).code, 0)
        XCTAssertEqual(hm("ana", "profile", "cy", env: ["HABITMATCH_NOW": ""]).records.first?["bio"] as? String, "later", "nothing hidden")
        XCTAssertEqual(hm("cy", "meetings", "--now", "2099-11-24T17:46:00-05:00").code, 0, "reading is fine")
        // remind --now ahead of the clock previews what cron will print then,
        // and records nothing: the same again, and cron still tells it.
        let preview = hm("cy", "remind", "--now", "2027-11-21T17:50:00-05:00")
        XCTAssertEqual(preview.records.map { $0["title"] as? String }, ["Check-in with Ana at 17:00"], preview.err)
        XCTAssertEqual(preview.err, "habitmatch: a preview: --now is ahead of this computer's clock, so nothing is recorded as told\n")
        XCTAssertEqual(hm("cy", "remind", "--now", "2027-11-21T17:50:00-05:00").out, preview.out)
        let reminded = hm("cy", "remind", "--now", "2026-11-22T17:46:00-05:00")
        XCTAssertEqual(reminded.records.map { $0["title"] as? String }, ["Check-in with Ana at 17:00"], "Cy's own zone")
        // The check-in says how each buddy is doing this week, by their frequency.
        let body = reminded.records.first?["body"] as? String ?? ""
        XCTAssertTrue(body.hasPrefix("Check-in (30 minutes at most):\n"), body)
        XCTAssertTrue(body.contains("\n\nThis week:\nCy: Read every day, 0 this week (every day), strength 0%, streak 0\n"), body)
        XCTAssertTrue(body.hasSuffix("\nAna: Exercise, 1/1 this week (every day), strength 5%, streak 1\nAna: Read every day, 0 this week (every day), strength 0%, streak 0"), body)
        XCTAssertEqual((reminded.records.first?["progress"] as? [[String: Any]])?.map { $0["user"] as? String }, ["cy", "cy", "ana", "ana"])
        // Each member wrote only their own files: the profile in journal/, the
        // e-mail and days in private/, the chat and meeting in the pair's folder.
        let journals = try FileManager.default.contentsOfDirectory(atPath: tmp + "/pool/journal").sorted()
        XCTAssertEqual(journals, ["ana.ndjson", "bo.ndjson", "cy.ndjson", "dee.ndjson"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp + "/pool/pairs/ana+cy").sorted(), ["ana.ndjson", "cy.ndjson"])
        // (A synced pool hides nothing from whoever has the folder: likes are
        // in the member's journal, one file to read; a host pool keeps them
        // in a spool only the pool's owner reads.)
        XCTAssertTrue(try String(contentsOfFile: tmp + "/pool/journal/cy.ndjson", encoding: .utf8).contains("swiped"))
        let profile = try String(contentsOfFile: tmp + "/pool/journal/ana.ndjson", encoding: .utf8)
        XCTAssertFalse(profile.contains("@example.com"), "no e-mail in the journal every member reads")
        XCTAssertFalse(profile.contains("Run on Saturday"), "no chat there either")
        XCTAssertTrue(try String(contentsOfFile: tmp + "/pool/private/ana.ndjson", encoding: .utf8).contains("ana@example.com"))
    }

    func testCapsAreRefusedWithWhy() throws {
        XCTAssertEqual(hm("ana", "join", "--name", "Ana", "--habit", "read", "--habit", "code", "--habit", "walk", "--habit", "water").err,
                       "habitmatch: at most 3 habits: fewer habits, kept, beat many dropped\n")
        hm("ana", "join", "--name", "Ana", "--habit", "read", "--habit", "code", "--habit", "walk")
        let fourth = hm("ana", "habit", "add", "water")
        XCTAssertEqual(fourth.code, 65)
        XCTAssertTrue(fourth.err.contains("at most 3 habits at once"), fourth.err)
        XCTAssertEqual(hm("ana", "habit", "add", "wtaer").err,
                       "habitmatch: unknown habit 'wtaer' (did you mean 'water'?): see 'habitmatch catalog', or use other:TEXT\n")
        try FileManager.default.createDirectory(atPath: tmp + "/config/habitmatch", withIntermediateDirectories: true)
        _ = write("config/habitmatch/config", "max_buddies = 1\n")
        for u in ["bo", "cy"] {
            hm(u, "join", "--name", u, "--habit", "read")
            hm(u, "like", "ana")
            hm("ana", "like", u)
            hm(u, "buddy", "accept", "ana")
        }
        XCTAssertEqual(hm("ana", "buddy", "accept", "bo").records[0]["buddies"] as? Bool, true)
        let over = hm("ana", "buddy", "accept", "cy")
        XCTAssertEqual(over.code, 77)
        XCTAssertEqual(over.err, "habitmatch: you already have 1 buddies or accepts waiting, the most allowed (1); a few real commitments work better than many\n")
    }

    /// Names that would reach a terminal raw are refused at input; the pool
    /// may come from the configuration and every message names it; another
    /// member's streaks are not made up; meeting ids are shown.
    func testEverydayUse() throws {
        let esc = hm("ana", "join", "--name", "Ana\u{1B}[2J", "--habit", "read")
        XCTAssertEqual(esc.code, 64)
        XCTAssertEqual(esc.err, "habitmatch: --name must be 1 to 60 characters, without control characters\n")
        XCTAssertEqual(hm("ana", "join", "--name", "Ana", "--bio", "hi\u{202E}", "--habit", "read").code, 64)
        try FileManager.default.createDirectory(atPath: tmp + "/config/habitmatch", withIntermediateDirectories: true)
        _ = write("config/habitmatch/config", "pool = \(tmp)/shared\n")
        let joined = hm("ana", "join", "--name", "Ana", "--habit", "read", env: ["HABITMATCH_POOL": ""])
        XCTAssertEqual(joined.code, 0, joined.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp + "/shared/journal/ana.ndjson"))
        XCTAssertTrue(hm("bo", "dashboard", "--format", "text", env: ["HABITMATCH_POOL": ""]).out.hasPrefix("Welcome"))
        XCTAssertTrue(hm("bo", "candidates", env: ["HABITMATCH_POOL": ""]).err.contains("the pool \(tmp)/shared yet"))
        hm("bo", "join", "--name", "Bo", "--habit", "read", env: ["HABITMATCH_POOL": ""])
        hm("ana", "done", "read", env: ["HABITMATCH_POOL": ""])
        let seen = hm("bo", "profile", "ana", env: ["HABITMATCH_POOL": ""]).records.first?["habits"] as? [[String: Any]]
        XCTAssertNil(seen?.first?["current_streak"], "not a buddy: no streak to show")
        XCTAssertEqual(hm("ana", "profile", env: ["HABITMATCH_POOL": ""]).records.first.flatMap { ($0["habits"] as? [[String: Any]])?.first?["current_streak"] as? Int }, 1)
        hm("ana", "like", "bo", env: ["HABITMATCH_POOL": ""])
        hm("bo", "like", "ana", env: ["HABITMATCH_POOL": ""])
        // A time the clocks skip is refused, not moved an hour.
        let gap = hm("ana", "meet", "bo", "--at", "2027-03-14 02:30", "--tz", "America/New_York", env: ["HABITMATCH_POOL": ""])
        XCTAssertEqual(gap.code, 64)
        XCTAssertEqual(gap.err, "habitmatch: --at 2027-03-14 02:30 does not exist in America/New_York (the clocks skip that hour that day): pick another time\n")
        let id = hm("ana", "meet", "bo", "--at", "2026-11-23 18:00", env: ["HABITMATCH_POOL": ""]).records.first?["id"] as? String ?? ""
        XCTAssertTrue(hm("bo", "meetings", "--format", "text", env: ["HABITMATCH_POOL": "", "TZ": "Asia/Tokyo"]).out.hasPrefix(id + "  2026-11-23 18:00 "))
    }

    /// Chat times are shown in the reader's own zone (the one they joined
    /// with), named, whatever TZ the process runs under.
    func testChatTimesInTheMembersZoneLabelled() throws {
        let env = ["HABITMATCH_POOL": ""]
        hm("ana", "join", "--name", "Ana", "--timezone", "Europe/Berlin", "--habit", "read", env: env)
        hm("bo", "join", "--name", "Bo", "--habit", "read", env: env)
        hm("ana", "like", "bo", env: env)
        hm("bo", "like", "ana", env: env)
        XCTAssertEqual(hm("bo", "chat", "ana", "hello", env: env).code, 0)
        var tokyo = env
        tokyo["TZ"] = "Asia/Tokyo"
        XCTAssertEqual(hm("ana", "chat", "bo", "--format", "text", env: tokyo).out, "2026-11-22 16:00 Europe/Berlin  bo: hello\n")
        XCTAssertEqual(hm("bo", "chat", "ana", "--format", "text", env: tokyo).out, "2026-11-22 10:00 America/New_York  bo: hello\n")
        let rec = hm("ana", "chat", "bo", env: tokyo).records.first
        XCTAssertEqual(rec?["at"] as? String, "2026-11-22T16:00:00+01:00")
        XCTAssertEqual(rec?["timezone"] as? String, "Europe/Berlin")
    }

    /// In a synced pool every member sees two likes meet: there is no
    /// owner's run to do, and pool match says so.
    func testPoolMatchIsForAHostPool() {
        hm("ana", "join", "--name", "Ana", "--habit", "read")
        let r = hm("ana", "pool", "match")
        XCTAssertEqual(r.code, 64)
        XCTAssertEqual(r.err, "habitmatch: pool match is for a host pool; in a synced pool every member sees two likes meet\n")
    }

    func testDoneUndoStreakAndDashboard() {
        hm("ana", "join", "--name", "Ana", "--habit", "read")
        for d in ["2026-11-19", "2026-11-20", "2026-11-21"] { hm("ana", "done", "--date", d) }
        XCTAssertEqual(hm("ana", "done").records[0]["current_streak"] as? Int, 4)
        XCTAssertEqual(hm("ana", "undo", "--date", "2026-11-20").records[0]["current_streak"] as? Int, 2)
        XCTAssertEqual(hm("ana", "done", "--date", "2026-11-23").code, 64, "not in the future")
        let dash = hm("ana", "--format", "text").out
        XCTAssertTrue(dash.contains("            Mo Tu We Th Fr Sa Su  streak, strength\nread        ·  ·  ·  ■  ·  ■  ■   2 (best 2) 15%\n"), dash)
        XCTAssertTrue(dash.contains("Buddies: none yet"), dash)
        let cal = hm("ana", "calendar", "--format", "text").out
        XCTAssertTrue(cal.hasPrefix("Read every day — Ana, November 2026\n Mo Tu We Th Fr Sa Su\n"), cal)
        // Today in brackets, days to come by their number, no trailing spaces.
        XCTAssertTrue(cal.contains("\n ·  ·  ·  ■  ·  ■ [■]\n 23 24 25 26 27 28 29\n 30\n■ done"), cal)
        XCTAssertFalse(cal.contains(" \n"), cal)
    }

    /// A new machine, a wiped cache, the pool spelled with a trailing slash:
    /// the journals in the pool are the truth, not the member's local cache.
    func testAFreshDataDirectoryReadsThePool() throws {
        hm("ana", "join", "--name", "Ana", "--habit", "read")
        hm("bo", "join", "--name", "Bo", "--habit", "read")
        try FileManager.default.removeItem(atPath: dataDir)
        let fresh = hm("ana", "candidates")
        XCTAssertEqual(fresh.code, 0, fresh.err)
        XCTAssertEqual(fresh.records.map { $0["user"] as? String }, ["bo"])
        let slash = hm("bo", "profile", env: ["HABITMATCH_POOL": tmp + "/pool/"])
        XCTAssertEqual(slash.records.first?["name"] as? String, "Bo", slash.err)
        // Profile times in the reader's zone, not UTC.
        XCTAssertEqual(slash.records.first?["joined"] as? String, "2026-11-22T10:00:00-05:00")
    }

    /// "today" is the member's day, with or without --date, whatever TZ says.
    func testTodayIsTheMembersDay() {
        hm("ana", "join", "--name", "Ana", "--habit", "read", "--timezone", "Asia/Tokyo")
        // 10:00 in New York is already tomorrow, 00:00, in Tokyo.
        let a = hm("ana", "done", "read")
        let b = hm("ana", "done", "read", "--date", "today")
        XCTAssertEqual(a.records.first?["date"] as? String, "2026-11-23")
        XCTAssertEqual(b.records.first?["date"] as? String, "2026-11-23")
    }

    func testAMatchIsLeftOnlyByUnmatchingAndNotRestoredByALike() {
        for u in ["ana", "bo"] { hm(u, "join", "--name", u, "--habit", "read") }
        hm("ana", "like", "bo")
        hm("bo", "like", "ana")
        let id = hm("bo", "meet", "ana", "--at", "2026-11-24 18:00", "--weekly").records.first?["id"] as? String ?? ""
        hm("ana", "buddy", "accept", "bo")
        hm("bo", "buddy", "accept", "ana")
        let pass = hm("ana", "pass", "bo")
        XCTAssertEqual(pass.code, 64)
        XCTAssertTrue(pass.err.contains("habitmatch unmatch bo"), pass.err)
        XCTAssertEqual(hm("ana", "buddy").records.count, 1)
        XCTAssertEqual(hm("ana", "meetings").records.count, 1)
        XCTAssertEqual(hm("ana", "unmatch", "bo").code, 0)
        XCTAssertEqual(hm("bo", "buddy").records.count, 0)
        // Unmatch ends every meeting between the two; bo cannot move it back.
        XCTAssertTrue(hm("ana", "meetings").records.isEmpty)
        XCTAssertTrue(hm("bo", "meetings").records.isEmpty)
        XCTAssertEqual(hm("bo", "meetings", "move", id, "--at", "2026-11-25 03:00").code, 65)
        XCTAssertEqual(hm("ana", "remind", "--now", "2026-11-24T17:50:00-05:00").out, "")
        XCTAssertEqual(hm("bo", "chat", "ana", "hello?").code, 77)
        hm("bo", "like", "ana")
        XCTAssertTrue(hm("ana", "candidates").records.isEmpty, "parted members are not offered again")
        XCTAssertEqual(hm("bo", "buddy").records.count, 0, "a like does not restore the bond")
    }

    func testMeetingsCanBeMovedAndCancelledByEitherAndBlockEndsEverything() {
        for u in ["ana", "bo"] { hm(u, "join", "--name", u, "--habit", "read") }
        hm("ana", "like", "bo")
        hm("bo", "like", "ana")
        let m = hm("ana", "meet", "bo", "--at", "2026-11-24 18:00")
        let id = m.records.first?["id"] as? String ?? ""
        let moved = hm("bo", "meetings", "move", String(id.prefix(6)), "--at", "2026-11-25 09:30")
        XCTAssertEqual(moved.code, 0, moved.err)
        XCTAssertEqual(hm("ana", "meetings").records.first?["start"] as? String, "2026-11-25T09:30:00")
        // A calendar learns of a move (SEQUENCE) and of a cancel (STATUS).
        let moved1 = hm("ana", "meetings", "--ics").out
        XCTAssertTrue(moved1.contains("UID:\(id)@habitmatch\r\n") && moved1.contains("SEQUENCE:1\r\nSTATUS:CONFIRMED\r\n"), moved1)
        XCTAssertEqual(hm("ana", "meetings", "cancel", id).code, 0)
        XCTAssertTrue(hm("bo", "meetings").records.isEmpty)
        let gone = hm("bo", "meetings", "--ics").out
        XCTAssertTrue(gone.contains("UID:\(id)@habitmatch\r\n") && gone.contains("SEQUENCE:2\r\nSTATUS:CANCELLED\r\nSUMMARY:Cancelled check-in\r\n"), gone)
        let kept = hm("ana", "meet", "bo", "--at", "2026-11-26 18:00", "--weekly").records.first?["id"] as? String ?? ""
        XCTAssertEqual(hm("bo", "meetings").records.count, 1)
        XCTAssertEqual(hm("bo", "block", "ana").code, 0)
        // The block ends every meeting between the two, for both, and the
        // blocked one can no longer move it.
        for u in ["ana", "bo"] {
            XCTAssertTrue(hm(u, "meetings").records.isEmpty, u)
            let ics = hm(u, "meetings", "--ics").out
            XCTAssertFalse(ics.contains("STATUS:CONFIRMED") || ics.contains("DESCRIPTION"), u)
            XCTAssertTrue(ics.contains("UID:\(kept)@habitmatch\r\n") && ics.contains("STATUS:CANCELLED"), "a calendar drops it: \(u)")
            XCTAssertFalse(hm(u, "dashboard").out.contains("next_meeting"), u)
        }
        XCTAssertEqual(hm("ana", "meetings", "move", kept, "--at", "2026-11-27 03:00").code, 65)
        XCTAssertEqual(hm("bo", "profile", "ana").code, 65, "both profiles are hidden")
        XCTAssertEqual(hm("ana", "profile", "bo").code, 65)
        XCTAssertEqual(hm("bo", "block", "ana").records.first?["already"] as? Bool, true)
        XCTAssertEqual(hm("ana", "chat", "bo", "hi").code, 77)
        XCTAssertTrue(hm("ana", "candidates").records.isEmpty)
        XCTAssertEqual(hm("ana", "report", "bo", "blocked me").code, 0)
    }

    func joinAnaAndCy() {
        XCTAssertEqual(hm("ana", "join", "--name", "Ana", "--email", "ana@example.com", "--habit", "exercise", "--habit", "read").code, 0)
        XCTAssertEqual(hm("cy", "join", "--name", "Cy", "--timezone", "America/Chicago", "--habit", "exercise").code, 0)
    }

    /// The dashboard as records: habits with the week, then likes, matches,
    /// buddies and the next meeting as they come.
    func testDashboardRecordsFollowTheFriendship() {
        joinAnaAndCy()
        hm("ana", "done", "exercise")
        let first = hm("ana", "dashboard")
        XCTAssertEqual(first.code, 0, first.err)
        XCTAssertEqual(first.records.map { $0["type"] as? String }, ["habit", "habit"])
        let week = first.records[0]["week"] as? [[String: Any]] ?? []
        XCTAssertEqual(week.map { $0["date"] as? String }.first, "2026-11-16", "the week from Monday")
        XCTAssertEqual(week.last?["done"] as? Bool, true)
        XCTAssertEqual(first.records[0]["current_streak"] as? Int, 1)
        XCTAssertEqual(first.out, hm("ana").out, "the default command")
        hm("cy", "like", "ana")
        // A like is known only to the one who gave it, until it is mutual.
        XCTAssertFalse(hm("ana", "dashboard").out.contains("\"cy\""))
        XCTAssertFalse(hm("ana", "candidates").out.contains("likes_you"))
        hm("ana", "like", "cy")
        XCTAssertEqual(hm("ana", "dashboard").lines.last, #"{"type":"match","user":"cy","name":"Cy"}"#)
        XCTAssertTrue(hm("ana", "dashboard", "--format", "text").out.hasSuffix("Matches: Cy (cy) (habitmatch chat USER, buddy accept USER)\n"),
                      "by name, with the name commands take, as buddies are")
        hm("ana", "buddy", "accept", "cy")
        hm("cy", "buddy", "accept", "ana")
        hm("ana", "meet", "cy", "--at", "2026-11-24 18:00")
        let later = hm("ana", "dashboard").records.filter { $0["type"] as? String != "habit" }
        XCTAssertEqual(later.map { $0["type"] as? String }, ["buddy", "next_meeting"])
        XCTAssertEqual(later[1]["at"] as? String, "2026-11-24T18:00:00-05:00")
        let text = hm("ana", "dashboard", "--format", "text").out
        XCTAssertTrue(text.hasPrefix("Ana — week of 2026-11-16\n"), text)
        XCTAssertTrue(text.contains("exercise    ·  ·  ·  ·  ·  ·  ■   1 (best 1) 5%\n"), text)
        XCTAssertTrue(text.hasSuffix("Buddies: Cy (cy)\nNext meeting: 2026-11-24 18:00 America/New_York with Cy\n"), text)
        // In the member's zone, whatever the process's TZ says.
        XCTAssertTrue(hm("cy", "dashboard", "--format", "text", env: ["TZ": "Asia/Tokyo"]).out.hasSuffix("Next meeting: 2026-11-24 17:00 America/Chicago with Ana\n"))
    }

    func testCatalogListsTheHabitsToChooseFrom() {
        let c = run("habitmatch", ["catalog"])
        XCTAssertEqual(c.code, 0, c.err)
        XCTAssertEqual(c.records.count, 16)
        XCTAssertEqual(c.lines.first, #"{"type":"habit","id":"exercise","name":"Exercise"}"#)
        XCTAssertTrue(c.records.contains { $0["id"] as? String == "read" && $0["name"] as? String == "Read every day" })
        XCTAssertTrue(run("habitmatch", ["catalog", "--format", "text"]).out.hasPrefix("exercise      Exercise\nmeditate      Meditate\n"))
    }

    /// habit (or habit list), habit rm and habit remind act on your own habits.
    func testHabitListRemoveAndRemind() {
        joinAnaAndCy()
        let list = hm("ana", "habit", "list")
        XCTAssertEqual(list.code, 0, list.err)
        XCTAssertEqual(list.out, hm("ana", "habit").out)
        XCTAssertEqual(list.records.map { $0["id"] as? String }, ["exercise", "read"])
        XCTAssertEqual(list.records[0]["remind_at"] as? NSNull, NSNull())
        XCTAssertEqual(hm("ana", "habit", "list", "--format", "text").out,
                       "exercise  Exercise  streak 0 (best 0) · strength 0%\nread  Read every day  streak 0 (best 0) · strength 0%\n")
        let remind = hm("ana", "habit", "remind", "exercise", "20:00")
        XCTAssertEqual(remind.out, #"{"type":"habit","id":"exercise","name":"Exercise","remind_at":"20:00"}"# + "\n")
        XCTAssertEqual(hm("ana", "habit", "remind", "read", "07:30", "--format", "text").out, "Read every day: reminder at 07:30 on days it is not done\n")
        XCTAssertEqual(hm("ana", "habit", "remind", "exercise", "25:00").err, "habitmatch: the reminder time must be HH:MM like 20:00, or off\n")
        XCTAssertEqual(hm("ana", "habit", "remind", "meditate", "08:00").err, "habitmatch: you have no habit 'meditate'; yours: exercise, read\n")
        let due = hm("ana", "remind", "--now", "2026-11-22T20:05:00-05:00")
        XCTAssertEqual(due.records.map { $0["title"] as? String }, ["Exercise: not done yet today", "Read every day: not done yet today"])
        // The action names the pool and the member, so a notifier without
        // this shell's environment acts on the same pool.
        let action = (due.records[0]["actions"] as? [[String: String]])?.first?["command"] ?? ""
        XCTAssertEqual(action, "habitmatch --pool '\(tmp)/pool' --user 'ana' done 'exercise'")
        XCTAssertEqual(hm("ana", "remind", "--now", "2026-11-22T20:06:00-05:00").out, "", "once a day")
        let ran = sh(action, env: ["HABITMATCH_DATA_DIR": tmp + "/elsewhere", "HABITMATCH_POOL": tmp + "/nowhere"])
        XCTAssertEqual(ran.code, 0, ran.err)
        let after = hm("ana", "habit", "list", "--format", "text").out
        XCTAssertTrue(after.hasPrefix("exercise  Exercise  streak 1 (best 1)"), after + ran.out + ran.err)
        XCTAssertEqual(hm("ana", "habit", "remind", "exercise", "off").records[0]["remind_at"] as? NSNull, NSNull())
        let rm = hm("ana", "habit", "rm", "read")
        XCTAssertEqual(rm.out, #"{"type":"habit","id":"read","name":"Read every day","removed":true}"# + "\n")
        let again = hm("ana", "habit", "rm", "read")
        XCTAssertEqual(again.code, 64)
        XCTAssertEqual(again.err, "habitmatch: you have no habit 'read'; yours: exercise\n")
        XCTAssertEqual(hm("ana", "habit").records.map { $0["id"] as? String }, ["exercise"])
    }

    /// A profile shows the e-mail only to yourself and your buddies.
    func testProfileAndProfileSet() {
        joinAnaAndCy()
        let mine = hm("ana", "profile")
        XCTAssertEqual(mine.code, 0, mine.err)
        XCTAssertEqual(mine.records[0]["email"] as? String, "ana@example.com")
        XCTAssertEqual(mine.records[0]["timezone"] as? String, "America/New_York")
        XCTAssertFalse(hm("cy", "profile", "ana").records[0].keys.contains("email"), "not a buddy")
        XCTAssertEqual(hm("ana", "profile", "zed").err, "habitmatch: no member 'zed' in this pool\n")
        // No bio: no line of spaces in its place (profile, candidates).
        let plain = hm("ana", "profile", "--format", "text").out
        XCTAssertTrue(plain.contains(")\n  habits: ") || plain.contains("\n  habits: "), plain)
        XCTAssertFalse(plain.contains("\n  \n"), plain)
        XCTAssertFalse(hm("cy", "candidates", "--format", "text").out.contains("\n  \n"))
        let set = hm("ana", "profile", "set", "--bio", "Morning runner", "--timezone", "Europe/Lisbon")
        XCTAssertEqual(set.code, 0, set.err)
        XCTAssertEqual(set.records[0]["bio"] as? String, "Morning runner")
        XCTAssertEqual(set.records[0]["timezone"] as? String, "Europe/Lisbon")
        XCTAssertEqual(hm("ana", "profile", "--format", "text").out, "Ana (ana) · Europe/Lisbon\n  Morning runner\n  habits: Exercise, Read every day\n")
        let zone = hm("ana", "profile", "set", "--timezone", "Mars/Base")
        XCTAssertEqual(zone.code, 64)
        XCTAssertEqual(zone.err, "habitmatch: --timezone must be an IANA time zone like America/New_York, not 'Mars/Base'\n")
        XCTAssertEqual(hm("ana", "profile", "set").err, "habitmatch: profile set needs --name, --email, --tz or --bio\n")
        XCTAssertEqual(hm("ana", "profile", "set", "--name", "").code, 64)
        XCTAssertEqual(hm("zed", "profile", "set", "--bio", "x").code, 65, "not joined")
        XCTAssertEqual(hm("bo", "join", "--name", "Bo", "--habit", "read", "--timezone", "Nowhere").code, 64)
    }

    /// A pass takes someone out of your candidates until nobody new is left.
    func testPassAndTheBuddyList() {
        joinAnaAndCy()
        hm("bo", "join", "--name", "Bo", "--habit", "read")
        XCTAssertEqual(hm("ana", "candidates").records.map { $0["user"] as? String }, ["bo", "cy"], "one shared habit each; Bo's zone is nearer")
        let pass = hm("ana", "pass", "bo")
        XCTAssertEqual(pass.code, 0, pass.err)
        XCTAssertEqual(pass.out, #"{"type":"swipe","user":"bo","direction":"left","match":false}"# + "\n")
        XCTAssertEqual(hm("ana", "candidates").records.map { $0["user"] as? String }, ["cy"])
        hm("ana", "pass", "cy")
        let round = hm("ana", "candidates").records
        XCTAssertEqual(round.map { $0["seen_before"] as? Bool }, [true, true], "everyone comes round again")
        XCTAssertEqual(hm("ana", "pass", "ana").err, "habitmatch: you cannot swipe on yourself\n")
        XCTAssertEqual(hm("ana", "pass", "zed").code, 65)
        XCTAssertEqual(hm("ana", "buddy").out, "")
        hm("ana", "like", "cy")
        hm("cy", "like", "ana")
        hm("ana", "buddy", "accept", "cy")
        XCTAssertEqual(hm("ana", "buddy").out, "", "one acceptance is not enough")
        hm("cy", "buddy", "accept", "ana")
        XCTAssertEqual(hm("ana", "buddy").out, #"{"type":"buddy","user":"cy","name":"Cy","email":null,"timezone":"America/Chicago"}"# + "\n")
        XCTAssertEqual(hm("ana", "buddy", "--format", "text").out, "cy  Cy · America/Chicago\n")
    }

    /// A synced pool for a sync engine: made once, joined by name, refused twice.
    func testPoolInitSynced() throws {
        let dir = tmp + "/synced"
        let made = run("habitmatch", ["pool", "init", dir, "--synced"])
        XCTAssertEqual(made.code, 0, made.err)
        XCTAssertEqual(made.records.first?["kind"] as? String, "synced")
        XCTAssertTrue(try String(contentsOfFile: dir + "/pool.conf", encoding: .utf8).contains("kind = synced"))
        XCTAssertEqual(run("habitmatch", ["pool", "init", dir, "--synced"]).code, 73, "already a pool")
        XCTAssertEqual(run("habitmatch", ["pool", "init", dir + "2", "--synced", "--group", "x"]).code, 64)
        XCTAssertEqual(run("habitmatch", ["--pool", dir, "--user", "ana", "join", "--name", "Ana", "--habit", "read"]).code, 0)
        XCTAssertEqual(run("habitmatch", ["--pool", dir, "--user", "ana", "profile"]).records.first?["name"] as? String, "Ana")
    }
}
