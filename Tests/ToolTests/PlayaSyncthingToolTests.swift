import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// playa on two devices, a laptop and a phone (and, in one test, a tablet),
/// whose sync folders real Syncthing keeps in step (Debian's `syncthing`): two instances on
/// 127.0.0.1, each with its own configuration and home, discovery, relays,
/// NAT, global announce and usage reporting off, the GUI (the REST API that
/// asks for a rescan) on loopback ports, sharing playa's sync folder.
///
/// Both devices draw the day; the laptop runs `due` first and notifies, the
/// phone's `due` is refused naming it; at noon the phone takes the role over
/// (`--take-over`) and notifies the rest, the laptop's `due` now refused.
/// Every slot is notified exactly once across both devices, the two draws
/// are identical, and at the end both show every event notified. Every wait
/// for Syncthing is bounded (20 seconds; a copy usually takes one or two).
final class PlayaSyncthingToolTests: SyncthingToolTestCase {
    let day = "2026-11-23"
    override var folderID: String { "playa" }
    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    @discardableResult
    func playa(_ d: Int, _ at: String, _ args: String...) -> RunResult {
        run("playa", args, env: ["PLAYA_DATA_DIR": tmp + "/\(names[d])-data", "PLAYA_SYNC_DIR": folder(d), "PLAYA_ACTOR": names[d],
                                 "PLAYA_NOW": "\(day)T\(at):00-05:00"])
    }

    /// Three devices over real Syncthing, offline from each other when each
    /// runs its first `due` in the same minute: each takes the role, none
    /// notifies while it settles, and once the copies meet only the first
    /// (by stamp) notifies: the 09:03 message goes out once, not three times.
    func testThreeDevicesOverSyncthingNotifyTheFirstMessageOnce() throws {
        names = ["laptop", "phone", "tablet"]
        try startSyncthing()
        let log = tmp + "/notified.log"
        let notify = { (d: Int) in "echo \"$PLAYA_ID \(self.names[d])\" >> \(log)" }
        XCTAssertEqual(playa(0, "08:00", "recipient", "add", "Ana", "--platform", "whatsapp", "--phone", "+14155550132").code, 0)
        playa(0, "08:00", "message", "add", "Ana", "Coffee this week?")
        playa(0, "08:00", "schedule", "Ana", "--fixed", "09:03")
        synced("the laptop's setup")
        setPaused(true)
        for d in 0..<3 {
            let r = playa(d, "09:00", "due", "--command", notify(d))
            XCTAssertEqual(r.code, 0, "\(names[d]): \(r.err)")
        }
        for d in 0..<3 {
            let r = playa(d, "09:03", "due", "--command", notify(d))
            XCTAssertEqual(r.code, 0, "\(names[d]): \(r.err)")
            XCTAssertTrue(r.err.contains("it sends them from"), "\(names[d]) settles: \(r.err)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: log), "nobody notified while the role settled")
        setPaused(false)
        synced("the three devices' roles")
        var refused = 0
        for d in 0..<3 {
            let r = playa(d, "09:06", "due", "--command", notify(d))
            if r.code == 77 { refused += 1 } else { XCTAssertEqual(r.code, 0, "\(names[d]): \(r.err)") }
        }
        XCTAssertEqual(refused, 2, "two devices know they are not the notifier")
        synced("after the notification")
        let lines = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n") ?? []
        XCTAssertEqual(lines.count, 1, "the 09:03 message went out once: \(lines)")
        XCTAssertEqual(lines.first?.split(separator: " ").last, "laptop", "the first by stamp")
        for d in 0..<3 {
            let q = playa(d, "09:07", "queue", "--format", "json")
            XCTAssertTrue(q.records.allSatisfy { $0["notification"] as? String == "delivered" }, "\(names[d]): \(q.out)")
        }
    }

    func testTwoDevicesOverSyncthingNotifyEverySlotOnce() throws {
        try startSyncthing()
        let log = tmp + "/notified.log"
        let notify = { (d: Int) in "echo \"$PLAYA_ID \(self.names[d])\" >> \(log)" }

        // The laptop sets playa up; the phone gets it through Syncthing.
        for (name, phone, times) in [("Ana", "+14155550132", "09:00,11:00,14:00,18:00"), ("Bo", "+442079460958", "10:00,16:30")] {
            XCTAssertEqual(playa(0, "00:00", "recipient", "add", name, "--platform", "whatsapp", "--phone", phone).code, 0)
            playa(0, "00:00", "message", "add", name, "hello \(name)")
            playa(0, "00:00", "schedule", name, "--fixed", times)
        }
        XCTAssertEqual(playa(0, "00:00", "recipient", "add", "Cy", "--platform", "whatsapp", "--phone", "+33612345678").code, 0)
        playa(0, "00:00", "message", "add", "Cy", "hi Cy")
        playa(0, "00:00", "schedule", "Cy", "--random", "3")
        synced("the laptop's setup")

        // Both draw the day on their own, the same events.
        let gPhone = playa(1, "00:01", "generate"), gLaptop = playa(0, "00:01", "generate")
        XCTAssertEqual(gPhone.code, 0, gPhone.err)
        XCTAssertEqual(gLaptop.code, 0, gLaptop.err)
        XCTAssertEqual(gPhone.records.count, 9)
        func draw(_ r: RunResult) -> [String] { r.records.map { "\($0["id"]!) \($0["time"]!) \($0["message"]!)" }.sorted() }
        XCTAssertEqual(draw(gPhone), draw(gLaptop), "the two devices draw the same events")
        // The laptop runs due first and so notifies.
        XCTAssertEqual(playa(0, "00:02", "due", "--command", notify(0)).code, 0)
        synced("the draws and the laptop's role")
        let refused = playa(1, "00:03", "due", "--command", notify(1))
        XCTAssertEqual(refused.code, 77)
        XCTAssertTrue(refused.err.contains("laptop"), refused.err)
        XCTAssertEqual(draw(playa(0, "00:03", "queue")), draw(playa(1, "00:03", "queue")))

        // The day: cron's due on both devices; at noon the phone takes over.
        let times = Set(gLaptop.records.compactMap { $0["time"] as? String }).sorted()
        var tookOver = false
        for t in times {
            let h = Int(t.prefix(2))!, m = Int(t.suffix(2))!
            let at = String(format: "%02d:%02d", (h * 60 + m + 1) / 60, (m + 1) % 60)
            if !tookOver && h >= 12 {
                synced("before the phone takes over")
                let take = playa(1, at, "due", "--take-over", "--command", notify(1))
                XCTAssertEqual(take.code, 0, take.err)
                tookOver = true
                synced("the phone's role")
            }
            let n = tookOver ? 1 : 0
            let r = playa(n, at, "due", "--command", notify(n))
            XCTAssertEqual(r.code, 0, "\(names[n]) at \(at): \(r.err)")
            XCTAssertEqual(playa(1 - n, at, "due", "--command", notify(1 - n)).code, 77, "\(names[1 - n]) at \(at) does not notify")
            synced("after \(at)")
        }
        XCTAssertTrue(tookOver)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let notified = lines.map { $0[0] }
        XCTAssertEqual(notified.sorted(), gLaptop.records.compactMap { $0["id"] as? String }.sorted(), "every slot notified exactly once across both devices")
        XCTAssertEqual(Set(lines.map { $0[1] }), ["laptop", "phone"], "both devices notified in turn")
        for d in 0..<2 {
            let q = playa(d, "23:00", "queue")
            XCTAssertEqual(q.records.count, 9, q.err)
            XCTAssertTrue(q.records.allSatisfy { $0["notification"] as? String == "delivered" }, "\(names[d]): \(q.out)")
        }
    }

    /// An erasure reaches three devices over Syncthing without a word: the
    /// laptop erases Ben (its journal rewritten without him); the phone and
    /// the tablet, which had folded the longer journal, fold the rewritten
    /// one on every run while Syncthing copies it, and none says anything
    /// (cron would mail it every minute). Then no copy holds Ben's number
    /// or message.
    func testAnErasureReachesEveryDeviceWithoutAWord() throws {
        names = ["laptop", "phone", "tablet"]
        try startSyncthing()
        XCTAssertEqual(playa(0, "08:00", "recipient", "add", "Ben", "--platform", "sms", "--phone", "+14155550133").code, 0)
        playa(0, "08:00", "message", "add", "Ben", "Lunch on Friday?")
        playa(0, "08:00", "recipient", "add", "Ana", "--platform", "sms", "--phone", "+14155550132")
        synced("the laptop's setup")
        XCTAssertEqual(playa(1, "08:01", "recipient", "add", "Cy", "--platform", "sms", "--phone", "+14155550134").code, 0)
        XCTAssertEqual(playa(2, "08:01", "message", "add", "Ana", "Coffee?").code, 0)
        synced("the phone's and the tablet's writes")
        for d in 0..<3 { XCTAssertEqual(playa(d, "08:02", "recipient", "list").records.count, 3, names[d]) }
        let rm = playa(0, "08:05", "recipient", "rm", "Ben", "--yes")
        XCTAssertEqual(rm.code, 0, rm.err)
        // Every device's cron and its person, while Syncthing copies.
        func round(_ at: String) {
            for d in 0..<3 {
                let list = playa(d, at, "recipient", "list")
                XCTAssertEqual(list.code, 0, "\(names[d]) \(at): \(list.err)")
                XCTAssertEqual(list.err, "", "\(names[d]) \(at): an erasure's rewrite is no news")
                let due = playa(d, at, "due", "-q")
                XCTAssertTrue(due.code == 0 || due.code == 77, "\(names[d]) \(at): \(due.err)")
                XCTAssertEqual(due.out + due.err, "", "\(names[d]) \(at): cron would mail this")
            }
        }
        let end = Date().addingTimeInterval(8)
        var k = 0
        while Date() < end {
            round(String(format: "08:%02d", 6 + k / 6))
            k += 1
        }
        synced("the erasure")
        round("08:30")
        round("08:31")
        for d in 0..<3 {
            XCTAssertEqual(playa(d, "08:32", "recipient", "list").records.compactMap { $0["name"] as? String }.sorted(), ["Ana", "Cy"], names[d])
        }
        // No trace of Ben in any copy: data directories and sync folders.
        let fm = FileManager.default
        for d in 0..<3 {
            for dir in [tmp + "/\(names[d])-data", folder(d)] {
                for f in (fm.enumerator(atPath: dir)?.allObjects as? [String]) ?? [] where !f.hasPrefix(".st") {
                    guard let bytes = fm.contents(atPath: dir + "/" + f), let text = String(data: bytes, encoding: .utf8) else { continue }
                    XCTAssertFalse(text.contains("14155550133") || text.contains("Lunch on Friday"), "\(dir)/\(f) still holds Ben")
                }
            }
        }
    }
}
