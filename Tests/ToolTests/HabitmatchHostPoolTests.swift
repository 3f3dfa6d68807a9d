import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A pool shared by real logins on one host, attacked by one of them.
final class HabitmatchHostPoolTests: HabitmatchHostPoolCase {
    func testMembersJoinAsTheirLoginsAndNobodyActsAsAnother() {
        join("ana")
        join("bo")
        XCTAssertEqual(hm("ana", "candidates").records.first?["user"] as? String, name("bo"))
        // Not with an option, not with the environment.
        let opt = hm("eve", "--user", name("ana"), "like", name("bo"))
        XCTAssertEqual(opt.code, 77, opt.err)
        XCTAssertTrue(opt.err.contains("you are \(name("eve"))"), opt.err)
        XCTAssertEqual(hm("eve", "like", name("bo"), env: ["HABITMATCH_USER": name("ana")]).code, 77)
        // Not by planting a journal named for someone who has not joined yet.
        XCTAssertEqual(shell("eve", "printf '%s\\n' '{\"type\":\"joined\",\"name\":\"Fake Cy\",\"timezone\":\"UTC\",\"habits\":[\"exercise\"]}' '{\"type\":\"commit\",\"n\":1,\"schema\":2,\"hlc\":[1,0]}' > \(pool)/journal/\(name("cy")).ndjson").code, 0)
        let seen = hm("ana", "candidates")
        XCTAssertFalse(seen.out.contains("Fake Cy"), seen.out)
        // Said to the pool's owner, not to every member on every command.
        XCTAssertEqual(seen.err, "")
        let owner = ownerRun()
        XCTAssertTrue(owner.err.contains("owned by \(name("eve")), not by \(name("cy"))"), owner.err)
        // Cy still joins: the squatted name is left alone and cy writes beside it, which
        // the others (who may not list journal/) find once the owner's run names it.
        join("cy", email: false)
        ownerRun()
        let cy = hm("ana", "profile", name("cy"))
        XCTAssertEqual(cy.records.first?["name"] as? String, "Cy", cy.err)
        // Nor by a symlink in place of someone's journal: cy's key stays cy's.
        let key = tmp + "/home-cy/id_ed25519"
        XCTAssertEqual(shell("cy", "umask 077; echo PRIVATE > \(key)").code, 0)
        XCTAssertEqual(shell("eve", "ln -s \(key) \(pool)/self/\(name("cy")).ndjson").code, 0)
        XCTAssertEqual(hm("cy", "habit", "remind", "exercise", "20:00").code, 0)
        XCTAssertEqual(try String(contentsOfFile: key, encoding: .utf8), "PRIVATE\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: pool + "/self/\(name("cy")).corrupt"))
        // Nobody removes another's files: the folders are sticky.
        XCTAssertNotEqual(shell("eve", "rm -f \(pool)/journal/\(name("ana")).ndjson").code + (FileManager.default.fileExists(atPath: pool + "/journal/\(name("ana")).ndjson") ? 1 : 0), 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: pool + "/journal/\(name("ana")).ndjson"))
    }

    func testChatEmailAndCalendarAreReadableOnlyByThoseConcerned() {
        for u in ["ana", "bo", "eve"] { join(u) }
        match("ana", "bo")
        XCTAssertEqual(hm("ana", "chat", name("bo"), "secret plan").code, 0)
        XCTAssertEqual(hm("ana", "done", "exercise").code, 0)
        let pair = pairDir("ana", "bo")
        // The kernel says no to eve, whatever the tool.
        XCTAssertNotEqual(shell("eve", "cat \(pair)/\(name("ana")).ndjson").code, 0)
        XCTAssertNotEqual(shell("eve", "cat \(privateFile("ana"))").code, 0)
        XCTAssertEqual(shell("bo", "cat \(pair)/\(name("ana")).ndjson").code, 0, "the other of the pair reads it")
        XCTAssertEqual(hm("bo", "chat", name("ana")).records.map { $0["text"] as? String }, ["secret plan"])
        XCTAssertNotEqual(shell("bo", "cat \(privateFile("ana"))").code, 0, "not a buddy yet")
        XCTAssertFalse(shell("eve", "cat \(pool)/journal/*.ndjson").out.contains("@example.com"), "no e-mail where the pool reads")
        // Buddies read each other's days and e-mail.
        hm("ana", "buddy", "accept", name("bo"))
        XCTAssertNotEqual(shell("bo", "cat \(privateFile("ana"))").code, 0, "one side's accept grants nothing")
        XCTAssertEqual(hm("bo", "buddy", "accept", name("ana")).records.first?["buddies"] as? Bool, true)
        // Ana's next command, whatever it is, lets her buddy in.
        XCTAssertEqual(hm("ana", "dashboard").code, 0)
        XCTAssertEqual(shell("bo", "cat \(privateFile("ana"))").code, 0)
        let cal = hm("bo", "calendar", "exercise", "--of", name("ana"))
        XCTAssertEqual(cal.records.first { $0["date"] as? String == "2026-11-22" }?["done"] as? Bool, true, cal.err)
        XCTAssertEqual(hm("bo", "profile", name("ana")).records.first?["email"] as? String, "ana@example.com")
        XCTAssertNotEqual(shell("eve", "cat \(privateFile("ana"))").code, 0)
        // Parting takes the rights back on the next command of each.
        XCTAssertEqual(hm("ana", "unmatch", name("bo")).code, 0)
        XCTAssertNotEqual(shell("bo", "cat \(privateFile("ana"))").code, 0)
        // Bo's own file follows on his next command, whatever it is.
        XCTAssertEqual(hm("bo", "done", "exercise").code, 0)
        XCTAssertNotEqual(shell("ana", "cat \(privateFile("bo"))").code, 0)
    }

    /// A pool made before the hidden folders (its files flat: spool/LOGIN.ndjson,
    /// private/LOGIN.ndjson, notices/LOGIN/root.ndjson, pairs/ listable)
    /// keeps everything: an old like still matches, an old private file
    /// moves to its folder and a buddy reads its days, pairs/ is closed.
    func testAPoolMadeBeforeTheHiddenFoldersKeepsEverything() {
        for u in ["ana", "bo", "eve"] { join(u) }
        XCTAssertEqual(hm("ana", "like", name("bo")).code, 0)
        XCTAssertEqual(hm("ana", "done", "exercise").code, 0)
        ownerRun()
        // As the older habitmatch left it.
        for u in ["ana", "bo"] {
            let l = name(u)
            let priv = privateFile(u)
            let flat = shell(u, """
                cd \(pool) || exit 1
                for k in spool self reports; do d=$k/\(l); if [ -f $d/in/\(l).ndjson ]; then mv $d/in/\(l).ndjson $k/\(l).ndjson; fi; rm -rf $d; done
                mv \(priv) private/\(l).ndjson && rm -rf private/\(l)
                """)
            XCTAssertEqual(flat.code, 0, flat.err)
        }
        XCTAssertEqual(root(["/bin/sh", "-c", "cd \(pool) && for u in \(name("ana")) \(name("bo")); do mv notices/$u/in/root.ndjson notices/$u/ 2>/dev/null; rmdir notices/$u/in; done; chmod 3770 pairs journal private self spool reports; chmod 2750 . notices"]).code, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(pool)/spool/\(name("ana")).ndjson"))
        // Bo likes back: ana's like from before counts.
        XCTAssertEqual(hm("bo", "like", name("ana")).code, 0)
        ownerRun()
        XCTAssertEqual(hm("ana", "remind").records.map { $0["title"] as? String }, ["It's a match: Bo"])
        XCTAssertEqual(hm("ana", "chat", name("bo"), "hi").code, 0)
        XCTAssertEqual(hm("bo", "chat", name("ana")).records.map { $0["text"] as? String }, ["hi"])
        for f in ["", "pairs", "private", "self", "spool", "reports", "notices"] {
            XCTAssertNotEqual(shell("eve", "ls \(pool)/\(f)").code, 0, "\(f) closed to listing")
        }
        // Ana's files from before moved into her folders at her next command.
        XCTAssertTrue(hiddenFile("spool", "ana").hasSuffix("/in/\(name("ana")).ndjson"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(pool)/spool/\(name("ana")).ndjson"))
        // Buddies: bo reads ana's days from before, moved to her private folder.
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(pool)/private/\(name("ana")).ndjson"))
        XCTAssertEqual(hm("ana", "buddy", "accept", name("bo")).code, 0)
        XCTAssertEqual(hm("bo", "buddy", "accept", name("ana")).code, 0)
        XCTAssertEqual(hm("ana", "dashboard").code, 0)
        let cal = hm("bo", "calendar", "exercise", "--of", name("ana"))
        XCTAssertEqual(cal.records.first { $0["date"] as? String == "2026-11-22" }?["done"] as? Bool, true, cal.err)
        XCTAssertEqual(hm("bo", "profile", name("ana")).records.first?["email"] as? String, "ana@example.com")
        XCTAssertNotEqual(shell("eve", "cat \(privateFile("ana"))").code, 0)
    }

    /// Found by an adversary: folders made under all eight of a new member's
    /// spool names kept them from liking for good. Now until the owner's
    /// next run: it moves them aside and says so.
    func testSquattedFolderNamesHoldOnlyUntilTheOwnersRun() {
        join("ana")
        join("eve")
        let c = name("cy")
        XCTAssertEqual(shell("eve", "cd \(pool)/spool && mkdir \(c) && for i in 1 2 3 4 5 6 7; do mkdir \(c)~$i; done").code, 0)
        join("cy")
        let refused = hm("cy", "like", name("ana"))
        XCTAssertEqual(refused.code, 75, refused.err)
        XCTAssertTrue(refused.err.contains("pool match"), refused.err)
        let owner = ownerRun()
        XCTAssertTrue(owner.err.contains("spool/\(c) was made by \(name("eve")), not by \(c)"), owner.err)
        XCTAssertEqual(hm("cy", "like", name("ana")).code, 0)
        XCTAssertTrue(hiddenFile("spool", "cy").hasSuffix("spool/\(c)/in/\(c).ndjson"), hiddenFile("spool", "cy"))
        XCTAssertEqual(ownerRun().err, "", "said once")
    }

    /// The stamp `[ms, counter]` of the last batch in a journal.
    func lastStamp(_ path: String) -> (Int64, Int64)? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n").reversed() where line.contains("\"commit\"") {
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let h = o["hlc"] as? [NSNumber], h.count == 2 else { continue }
            return (h[0].int64Value, h[1].int64Value)
        }
        return nil
    }

    /// In a host pool a meeting is set in a zone some member has (or UTC),
    /// which every command loads ahead: one in a zone nobody has would be
    /// opened by the pair's commands alone, for a third to watch. The refusal
    /// names the zones accepted and stores nothing; a move keeps the rule.
    func testAMeetingsZoneIsOneAMemberHas() {
        join("ana", timezone: "Europe/Paris")
        join("bo", timezone: "Asia/Kolkata")
        join("eve", timezone: "America/Sao_Paulo")
        match("ana", "bo")
        let far = hm("ana", "meet", name("bo"), "--at", "2026-11-25 18:00", "--tz", "Asia/Kathmandu")
        XCTAssertEqual(far.code, 64, far.err)
        XCTAssertEqual(far.err, "habitmatch: --tz in a host pool must be a zone a member has (yours Europe/Paris, \(name("bo"))'s Asia/Kolkata, another member's, or UTC), not 'Asia/Kathmandu': "
                       + "a zone no member has is opened by the pair's commands alone, which shows others that a meeting was set\n")
        XCTAssertEqual(hm("ana", "meetings").records.count, 0, "a refused meeting stored nothing")
        var ids: [String] = []
        for z in ["Asia/Kolkata", "America/Sao_Paulo", "UTC"] {
            let r = hm("ana", "meet", name("bo"), "--at", "2026-11-25 18:00", "--tz", z)
            XCTAssertEqual(r.code, 0, "\(z): \(r.err)")
            XCTAssertEqual(r.records.first?["timezone"] as? String, z)
            ids.append(r.records.first?["id"] as? String ?? "")
        }
        let move = hm("bo", "meetings", "move", ids[0], "--at", "2026-11-26 18:00", "--tz", "Asia/Kathmandu")
        XCTAssertEqual(move.code, 64, move.err)
        XCTAssertTrue(move.err.contains("(yours Asia/Kolkata, \(name("ana"))'s Europe/Paris, another member's, or UTC)"), move.err)
        let kept = hm("bo", "meetings").records.first { $0["id"] as? String == ids[0] }
        XCTAssertEqual(kept?["start"] as? String, "2026-11-25T18:00:00", "\(String(describing: kept))")
        XCTAssertEqual(hm("bo", "meetings", "move", ids[0], "--at", "2026-11-26 18:00", "--tz", "Europe/Paris").code, 0)
    }

    /// Block and unmatch end contact: every meeting between the two is gone
    /// from the list, the dashboard, the .ics and remind; the other can no
    /// longer move it, nor plant a new one with a backdated batch in a
    /// folder of their own; both profiles are hidden until an unblock.
    func testBlockAndUnmatchEndEveryMeetingAndNothingNewGetsThrough() throws {
        for u in ["ana", "bo", "eve"] { join(u) }
        match("ana", "eve")
        match("ana", "bo")
        let m = hm("eve", "meet", name("ana"), "--at", "2026-11-22 10:10", "--weekly", "--description", "see you")
        XCTAssertEqual(m.code, 0, m.err)
        let id = m.records.first?["id"] as? String ?? ""
        XCTAssertEqual(hm("bo", "meet", name("ana"), "--at", "2026-11-25 18:00").code, 0)
        XCTAssertEqual(hm("ana", "meetings").records.count, 2)
        XCTAssertTrue(hm("ana", "meetings", "--ics").out.contains("see you"))

        let block = hm("ana", "block", name("eve"))
        XCTAssertEqual(block.code, 0, block.err)
        let remindAt = ["--now", "2026-11-22T10:00:00-05:00"]
        for args in [["meetings"], ["dashboard"], ["remind"] + remindAt] {
            let r = hm("ana", args)
            XCTAssertFalse(r.out.contains(id) || r.out.contains(name("eve")), "\(args): \(r.out)")
        }
        XCTAssertFalse(hm("ana", "meetings", "--ics").out.contains("see you"))
        // A calendar that imported it learns it is cancelled, on both sides.
        for u in ["ana", "eve"] {
            let ics = hm(u, "meetings", "--ics").out
            XCTAssertTrue(ics.contains("UID:\(id)@habitmatch\r\n") && ics.contains("STATUS:CANCELLED\r\n"), "\(u): \(ics)")
        }
        // Eve cannot move it to 03:00, with the tool or by hand.
        XCTAssertNotEqual(hm("eve", "meetings", "move", id, "--at", "2026-11-25 03:00").code, 0)
        // Nor plant a new weekly meeting: a batch stamped just before the
        // block, and one just after, in a fresh folder of hers.
        let anaFile = "\(pairDir("ana", "eve"))/\(name("ana")).ndjson"
        let (ms, counter) = try XCTUnwrap(lastStamp(anaFile))
        // In the pair's folder (she may write there); pairs/ takes no folder of hers.
        let fresh = "\(pool)/pairs/\([name("ana"), name("eve")].sorted().joined(separator: "+"))~7"
        XCTAssertNotEqual(shell("eve", "mkdir -m 755 \(fresh)").code, 0, "a member made a folder in pairs/")
        let planted = shell("eve", """
            printf '%s\\n' '{"type":"meeting","id":"planted1","with":"\(name("ana"))","start":"2026-11-22T15:12:00","timezone":"UTC","minutes":30,"weekly":true,"description":"I know where you live"}' '{"type":"commit","n":1,"schema":2,"hlc":[\(ms),\(max(0, counter - 1))]}' '{"type":"meeting","id":"planted2","with":"\(name("ana"))","start":"2026-11-27T03:00:00","timezone":"UTC","minutes":30}' '{"type":"chat","to":"\(name("ana"))","text":"hello again"}' '{"type":"commit","n":2,"schema":2,"hlc":[\(ms + 1),0]}' > \(pairDir("ana", "eve"))/\(name("eve"))~2.ndjson
            """)
        XCTAssertEqual(planted.code, 0, planted.err)
        let after = hm("ana", "meetings")
        XCTAssertEqual(after.code, 0, after.err)
        XCTAssertEqual(after.records.compactMap { $0["with"] as? String }.filter { $0 != name("bo") && $0 != name("ana") }, [], after.out)
        XCTAssertFalse(after.out.contains("planted"), after.out)
        XCTAssertFalse(hm("ana", "meetings", "--ics").out.contains("I know where you live"))
        XCTAssertFalse(hm("ana", "remind", "--now", "2026-11-22T10:02:00-05:00").out.contains("planted"))
        XCTAssertEqual(hm("ana", "chat", name("eve")).code, 77)
        // Both profiles are hidden; blocking twice writes nothing; unblock shows them again.
        XCTAssertNotEqual(hm("eve", "profile", name("ana")).code, 0)
        XCTAssertNotEqual(hm("ana", "profile", name("eve")).code, 0)
        let size = (try? FileManager.default.attributesOfItem(atPath: hiddenFile("spool", "ana"))[.size] as? Int) ?? nil
        let twice = hm("ana", "block", name("eve"))
        XCTAssertEqual(twice.code, 0, twice.err)
        XCTAssertEqual(twice.records.first?["already"] as? Bool, true)
        XCTAssertEqual((try? FileManager.default.attributesOfItem(atPath: hiddenFile("spool", "ana"))[.size] as? Int) ?? nil, size)
        XCTAssertEqual(hm("ana", "unblock", name("eve")).code, 0)
        ownerRun()
        let seen = hm("eve", "profile", name("ana"))
        XCTAssertEqual(seen.code, 0, seen.err)
        XCTAssertTrue(hm("ana", "meetings").records.allSatisfy { $0["with"] as? String != name("eve") && $0["organizer"] as? String != name("eve") })

        // Unmatch ends bo's meeting for both, and bo's later moves count for nothing.
        let bos = hm("bo", "meetings").records.first?["id"] as? String ?? ""
        XCTAssertEqual(hm("ana", "unmatch", name("bo")).code, 0)
        XCTAssertTrue(hm("ana", "meetings").records.isEmpty)
        XCTAssertTrue(hm("bo", "meetings").records.isEmpty)
        for u in ["ana", "bo"] {
            let ics = hm(u, "meetings", "--ics").out
            XCTAssertTrue(ics.contains("UID:\(bos)@habitmatch\r\n") && ics.contains("STATUS:CANCELLED\r\n"), "\(u) after the unmatch: \(ics)")
        }
        XCTAssertNotEqual(hm("bo", "meetings", "move", bos, "--at", "2026-11-25 03:00").code, 0)
        XCTAssertTrue(hm("ana", "meetings").records.isEmpty)
    }

    func testAHostilePeerNeverStopsAnHonestMember() {
        join("ana")
        join("bo")
        join("eve")
        match("ana", "bo")
        let pair = "\(pool)/pairs/\([name("ana"), name("bo")].sorted().joined(separator: "+"))"
        // Garbage, a FIFO, /dev/zero, a folder, a huge file; a pair folder
        // of her own making is refused.
        let e = name("eve")
        XCTAssertEqual(shell("eve", """
            head -c 300000 /dev/urandom >> \(pool)/journal/\(e).ndjson
            mkfifo \(pool)/journal/fifo.ndjson
            ln -s /dev/zero \(pool)/journal/zero.ndjson
            mkdir \(pool)/journal/dir.ndjson
            """).err, "")
        XCTAssertNotEqual(shell("eve", "mkdir -m 755 \(pair)").code, 0)
        let start = Date()
        let r = hm("ana", "chat", name("bo"), "still works")
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertLessThan(Date().timeIntervalSince(start), 10, "no hang")
        XCTAssertEqual(hm("bo", "chat", name("ana")).records.map { $0["text"] as? String }, ["still works"])
        XCTAssertTrue(hm("bo", "meetings").records.isEmpty, "no meeting from eve's hand")
        let dash = hm("ana", "dashboard")
        XCTAssertEqual(dash.code, 0, dash.err)
        // Another member's junk is not every member's warning; names that
        // are no login of the pool's group are not even looked at; nothing
        // of eve's bytes reaches a terminal raw.
        XCTAssertEqual(dash.err, "")
        let owner = ownerRun()
        XCTAssertFalse(owner.err.contains("fifo.ndjson") || owner.err.contains("zero.ndjson"), owner.err)
        XCTAssertFalse(owner.err.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, owner.err)
    }

    func testReportsReachTheOwnerOnly() {
        join("ana")
        join("eve")
        XCTAssertEqual(hm("ana", "report", name("eve"), "sent me spam").code, 0)
        XCTAssertEqual(hm("eve", "pool", "reports").code, 77)
        XCTAssertNotEqual(shell("eve", "cat \(hiddenFile("reports", "ana")); ls \(pool)/reports/\(name("ana"))").code, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: hiddenFile("reports", "ana")))
        let owner = root([bin + "/habitmatch", "pool", "reports"], env: ["HABITMATCH_POOL": pool, "HABITMATCH_DATA_DIR": tmp + "/data-root"])
        XCTAssertEqual(owner.code, 0, owner.err)
        XCTAssertEqual(owner.records.map { $0["reason"] as? String }, ["sent me spam"])
    }

    /// Found by an adversary: a pair folder made by the other member let
    /// them delete a block; nine squatted names locked a member out.
    func testABlockCannotBeUndoneAndSquattedNamesKeepNobodyOut() {
        join("eve")
        let named = "\(pool)/pairs/\([name("ana"), name("eve")].sorted().joined(separator: "+"))"
        // Eve cannot make a folder named for the pair; she squats ana's
        // report and spool names before ana's first command (files, folders, links).
        XCTAssertNotEqual(shell("eve", "mkdir -m 777 \(named)").code, 0)
        let a = name("ana")
        XCTAssertEqual(shell("eve", "for n in '' '~2' '~3' '~4' '~5' '~6' '~7' '~8' '~9'; do touch \(pool)/reports/\(a)$n.ndjson; done; for n in '' '~1' '~2' '~3' '~4' '~5'; do mkdir -m 777 \(pool)/reports/\(a)$n; done; ln -s /tmp \(pool)/spool/\(a); mkdir -m 777 \(pool)/spool/\(a)~1").err, "")
        join("ana")
        XCTAssertTrue(hiddenFile("spool", "ana").contains("/\(a)~2/in/"), hiddenFile("spool", "ana"))
        match("eve", "ana")
        let pair = pairDir("ana", "eve")
        let block = hm("ana", "block", name("eve"))
        XCTAssertEqual(block.code, 0, block.err)
        // Ana's block is in her spool and in the pair's folder the owner made: eve removes neither.
        for f in [hiddenFile("spool", "ana"), "\(pair)/\(name("ana")).ndjson"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: f), f)
            shell("eve", "rm -f \(f); rm -rf \(pool)/spool/\(a)~2")
            XCTAssertTrue(FileManager.default.fileExists(atPath: f), f)
        }
        XCTAssertEqual(hm("eve", "chat", name("ana"), "back again").code, 77)
        XCTAssertTrue(hm("ana", "candidates").records.isEmpty)
        // Squatted names cost nothing: ana reports, and her commands succeed.
        let report = hm("ana", "report", name("eve"), "would not stop")
        XCTAssertEqual(report.code, 0, report.err)
        XCTAssertEqual(hm("ana", "done", "exercise").code, 0)
        XCTAssertTrue(hiddenFile("reports", "ana").contains("/\(a)~6/in/"), hiddenFile("reports", "ana"))
        XCTAssertEqual(root([bin + "/habitmatch", "pool", "reports"], env: ["HABITMATCH_POOL": pool, "HABITMATCH_DATA_DIR": tmp + "/data-root"]).records.map { $0["reason"] as? String }, ["would not stop"])
    }
}

enum Users {
    static func uidOf(_ name: String) -> UInt32? {
        guard let pw = getpwnam(name) else { return nil }
        return UInt32(pw.pointee.pw_uid)
    }
}
