import XCTest
import NudgeKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reliability suite, part one: every tool's store under concurrent
/// writers and under kill -9 at random (seeded) moments. Each tool appends
/// with one representative command (Subject.swift's table); afterwards every
/// acknowledged write is there exactly once and the store opens cleanly.
final class ReliabilityTests: ReliabilityCase {

    // MARK: Concurrent writers

    /// Four processes append 25 things each at the same time: exactly 100,
    /// each once, and the store opens with nothing to say.
    func concurrentWriters(_ s: Subject, writers: Int = 4, each: Int = 25) {
        setUp(s)
        var script = ""
        for w in 0..<writers {
            script += "(\n"
            for i in 0..<each {
                let args = s.write(mark(w * 1000 + i)).map { "'" + $0 + "'" }.joined(separator: " ")
                script += "  \(s.tool) \(args) || echo \"fail \(w) \(i) $?\" >&2\n"
            }
            script += ") &\n"
        }
        script += "wait\n"
        let r = sh(script)
        XCTAssertEqual(r.err, "", "\(s.tool): a writer failed")
        XCTAssertEqual(r.lines.count, writers * each, "\(s.tool): every write acknowledged with its record")
        XCTAssertEqual(count(s), writers * each, "\(s.tool): no write lost or doubled")
        if let got = s.marks(list(s)) {
            var want: [String] = []
            for w in 0..<writers { for i in 0..<each { want.append(mark(w * 1000 + i)) } }
            XCTAssertEqual(got.sorted(), want.sorted(), "\(s.tool): each write exactly once")
        }
        let main = run(s.tool, s.mainRead)
        XCTAssertEqual(main.code, 0, main.err)
        XCTAssertEqual(main.err, "")
        // One commit line per write in the writer's journal.
        let journal = String(decoding: bytes(journalPath(s)), as: UTF8.self)
        let commits = journal.split(separator: "\n").filter { $0.hasPrefix("{\"type\":\"commit\"") }.count
        XCTAssertEqual(commits, writers * each + (s.tool == "habitmatch" ? 0 : s.setup.count), "\(s.tool): one batch per command")
    }

    func testConcurrentWritersTenclub() { concurrentWriters(.tenclub) }
    func testConcurrentWritersYomo() { concurrentWriters(.yomo) }
    func testConcurrentWritersRewards() { concurrentWriters(.rewards) }
    func testConcurrentWritersPlaya() { concurrentWriters(.playa) }

    /// Two members of a pool writing at once (two processes each): their
    /// journals and locks are separate, and each reads the other's writes.
    func testConcurrentWritersHabitmatch() {
        concurrentWriters(.habitmatch)
    }

    func testConcurrentMembersOfAPoolHabitmatch() {
        let s = Subject.habitmatch
        setUp(s)
        var script = ""
        for (w, who) in [(0, "ana"), (1, "ana"), (2, "cy"), (3, "cy")] {
            let to = who == "ana" ? "cy" : "ana"
            script += "(\n"
            for i in 0..<15 { script += "  habitmatch --user \(who) chat \(to) \(mark(w * 1000 + i)) || echo \"fail $?\" >&2\n" }
            script += ") &\n"
        }
        script += "wait\n"
        let r = sh(script)
        XCTAssertEqual(r.err, "")
        for who in ["ana", "cy"] {
            let chat = run("habitmatch", ["--user", who, "chat", who == "ana" ? "cy" : "ana"])
            XCTAssertEqual(chat.code, 0, chat.err)
            XCTAssertEqual(chat.err, "")
            XCTAssertEqual(chat.records.count, 60, "\(who) sees all 60 lines")
            XCTAssertEqual(Set(chat.records.compactMap { $0["text"] as? String }).count, 60)
        }
    }

    /// Readers take no lock: while two writers ingest batches of 40 unlocks
    /// (some rebuilding the snapshot), readers only ever see whole batches,
    /// and never fewer than they saw before.
    func testReadersNeverSeeHalfABatch() {
        let k = 40
        var files: [String] = []
        for b in 0..<16 {
            var text = ""
            for i in 0..<k { text += "{\"at\":\(1_793_000_000 + b * 10_000 + i * 60)}\n" }
            files.append(write("b\(b).ndjson", text))
        }
        var writers: [Launched] = []
        for w in 0..<2 {
            var script = ""
            for b in stride(from: w, to: files.count, by: 2) {
                script += "tenclub ingest -q '\(files[b])' || echo \"fail $?\" >&2\n"
                if b % 4 == w { script += "rm -f '\(dataDir)/snapshot.ndjson'\n" }
            }
            writers.append(launchShell(script))
        }
        var readers: [Launched] = []
        for _ in 0..<2 {
            readers.append(launchShell("""
            for i in $(seq 60); do
              tenclub history --days 60 | jq -s 'map(.unlocks) | add // 0' || echo "fail $?" >&2
            done
            """))
        }
        for w in writers { let o = w.finish(timeout: 60); XCTAssertEqual(o.err, ""); XCTAssertEqual(o.code, 0) }
        for r in readers {
            let o = r.finish(timeout: 60)
            XCTAssertEqual(o.err, "", "a read failed")
            let seen = o.result.lines.compactMap { Int($0) }
            XCTAssertEqual(seen.count, 60)
            for (a, b) in zip(seen, seen.dropFirst()) { XCTAssertLessThanOrEqual(a, b, "a reader went back in time") }
            XCTAssertEqual(seen.filter { $0 % k != 0 }, [], "a reader saw half a batch")
        }
        XCTAssertEqual(run("tenclub", ["history", "--days", "60"]).records.reduce(0) { $0 + ($1["unlocks"] as? Int ?? 0) }, k * files.count)
    }

    /// TOOL_LOCK_TIMEOUT (documented in the man pages) is how long a writer
    /// waits for another run's lock: it was read by no tool, and a bad value
    /// went unnoticed. A writer facing a held lock now gives up after it
    /// with 75; a bad value is 78 naming the variable.
    func lockTimeout(_ s: Subject) {
        setUp(s)
        writes(s, 0..<1)
        let variable = s.tool.uppercased() + "_LOCK_TIMEOUT"
        // This process holds the lock, as another run would.
        let fd = open(snapshotFolder(s) + "/lock", O_RDWR)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(flock(fd, LOCK_EX | LOCK_NB), 0)
        var held = true
        defer { if held { close(fd) } }
        let start = monotonicSeconds()
        let o = runLimited(s.tool, s.write(mark(1)), env: [variable: "0.2"])
        let took = monotonicSeconds() - start
        XCTAssertEqual(o.code, 75, "\(s.tool): \(o.err)")
        XCTAssertTrue(o.err.contains("locked by another run; try again"), o.err)
        XCTAssertLessThan(took, 4, "\(s.tool): waited \(took) s, not 0.2")
        let bad = runLimited(s.tool, s.write(mark(1)), env: [variable: "soon"])
        XCTAssertEqual(bad.code, 78, bad.err)
        XCTAssertTrue(bad.err.contains(variable), bad.err)
        close(fd)
        held = false
        XCTAssertEqual(runLimited(s.tool, s.write(mark(1)), env: [variable: "0.2"]).code, 0)
    }

    func testLockTimeoutTenclub() { lockTimeout(.tenclub) }
    func testLockTimeoutYomo() { lockTimeout(.yomo) }
    func testLockTimeoutRewards() { lockTimeout(.rewards) }
    func testLockTimeoutPlaya() { lockTimeout(.playa) }
    func testLockTimeoutHabitmatch() { lockTimeout(.habitmatch) }

    // MARK: kill -9 at random moments

    /// Starts a writer, kills it (SIGKILL) after a random short delay, and
    /// checks the store after every round: it opens (exit 0), everything
    /// acknowledged (the record printed before the kill) is there once, and
    /// nothing is there that was never attempted. Half of the rounds start
    /// without a snapshot, so that some kills land while one is written.
    func killLoop(_ s: Subject, seed: UInt64, rounds: Int = 20) {
        var rng = SeededRandom(seed: seed)
        setUp(s)
        // Three writes that finish, timed the way the killed ones are run:
        // a kill comes at a random moment within such a run's life.
        var base: [String] = []
        var spans: [Double] = []
        for i in 0..<3 {
            let m = mark(i)
            let start = monotonicSeconds()
            let o = launch(s.tool, s.write(m)).finish()
            spans.append(monotonicSeconds() - start)
            XCTAssertEqual(o.code, 0, o.err)
            base.append(m)
        }
        let maxDelayMicros = UInt32(min(0.2, spans.sorted()[1]) * 1e6)
        var acked = Set(base)
        var attempted = Set(base)
        var killed = 0
        for round in 0..<rounds {
            if Bool.random(using: &rng) { dropSnapshot(s) }
            let m = mark(100 + round)
            attempted.insert(m)
            let writer = launch(s.tool, s.write(m))
            usleep(UInt32.random(in: 0...maxDelayMicros, using: &rng))
            writer.send(SIGKILL)
            let o = writer.finish()
            if o.signal == SIGKILL { killed += 1 }
            if o.signal == nil { XCTAssertEqual(o.code, 0, "\(s.tool) round \(round): \(o.err)") }
            // Acknowledged: its record reached stdout.
            if o.out.hasSuffix("\n") && !o.result.records.isEmpty { acked.insert(m) }
            let r = run(s.tool, s.list)
            XCTAssertEqual(r.code, 0, "\(s.tool) round \(round) (seed \(seed)): the store must open: \(r.err)")
            assertDiagnostics(r.err, tool: s.tool)
            if let got = s.marks(r) {
                XCTAssertEqual(got.count, Set(got).count, "\(s.tool) round \(round): a write counted twice")
                XCTAssertTrue(acked.isSubset(of: Set(got)), "\(s.tool) round \(round) (seed \(seed)): lost \(acked.subtracting(got))")
                XCTAssertTrue(Set(got).isSubset(of: attempted), "\(s.tool) round \(round): \(Set(got).subtracting(attempted)) never written")
            } else if let n = s.count(r) {
                XCTAssertGreaterThanOrEqual(n, acked.count, "\(s.tool) round \(round) (seed \(seed)): an acknowledged write is lost")
                XCTAssertLessThanOrEqual(n, attempted.count, "\(s.tool) round \(round): more than was written")
            }
        }
        XCTAssertGreaterThan(killed, 0, "\(s.tool): no writer was killed: the test proved nothing")
        // The next writer starts cleanly (it may set aside a torn tail, once).
        let next = run(s.tool, s.write(mark(999)))
        XCTAssertEqual(next.code, 0, next.err)
        assertDiagnostics(next.err, tool: s.tool)
        for line in next.err.split(separator: "\n") {
            XCTAssertTrue(line.contains("set aside") || line.contains("refused") || line.contains("kept the refused"),
                          "\(s.tool): unexpected after kill -9: \(line)")
        }
        acked.insert(mark(999))
        attempted.insert(mark(999))
        let after = list(s)  // nothing left to report
        if let got = s.marks(after) {
            XCTAssertTrue(acked.isSubset(of: Set(got)))
            XCTAssertEqual(got.count, Set(got).count)
        } else if let n = s.count(after) {
            XCTAssertGreaterThanOrEqual(n, acked.count)
            XCTAssertLessThanOrEqual(n, attempted.count)
        }
        XCTAssertEqual(run(s.tool, s.mainRead).err, "")
        // The journal ends with a whole commit line; stale temporaries are gone.
        let journal = bytes(journalPath(s))
        XCTAssertEqual(journal.last, 0x0A)
        let lastLine = journal.dropLast().split(separator: 0x0A).last.map { String(decoding: $0, as: UTF8.self) } ?? ""
        XCTAssertTrue(lastLine.hasPrefix("{\"type\":\"commit\""), lastLine)
        XCTAssertEqual(names(in: snapshotFolder(s)).filter { $0.contains(".tmp-") }, [], "\(s.tool): stale temporary files left")
    }

    func testKillNineTenclub() { killLoop(.tenclub, seed: 0x7E9C_1B01) }
    func testKillNineYomo() { killLoop(.yomo, seed: 0x7E9C_1B02) }
    func testKillNineRewards() { killLoop(.rewards, seed: 0x7E9C_1B03) }
    func testKillNinePlaya() { killLoop(.playa, seed: 0x7E9C_1B04) }
    func testKillNineHabitmatch() { killLoop(.habitmatch, seed: 0x7E9C_1B05) }

    /// A batch of many events (tenclub ingest, 40 unlocks) killed at random:
    /// the count only ever moves by whole batches.
    func testKillNineNeverLeavesAPartialBatch() {
        var rng = SeededRandom(seed: 0xBA7C_4001)
        let k = 40
        var acked = 0
        var attempted = 0
        var killed = 0
        for round in 0..<12 {
            var text = ""
            for i in 0..<k { text += "{\"at\":\"2026-11-\(10 + round)T\(String(format: "%02d", 8 + i / 10)):\(String(format: "%02d", i % 10 * 5)):00-05:00\"}\n" }
            let file = write("batch\(round).ndjson", text)
            if Bool.random(using: &rng) { unlink(dataDir + "/snapshot.ndjson") }
            attempted += k
            let writer = launch("tenclub", ["ingest", file])
            usleep(UInt32.random(in: 0...30_000, using: &rng))
            writer.send(SIGKILL)
            let o = writer.finish()
            if o.signal == SIGKILL { killed += 1 }
            if !o.result.records.isEmpty && o.out.hasSuffix("\n") { acked += k }
            let h = run("tenclub", ["history", "--days", "30"])
            XCTAssertEqual(h.code, 0, h.err)
            let total = h.records.reduce(0) { $0 + ($1["unlocks"] as? Int ?? 0) }
            XCTAssertEqual(total % k, 0, "round \(round): a batch was applied in part (\(total))")
            XCTAssertGreaterThanOrEqual(total, acked, "round \(round): an acknowledged batch is lost")
            XCTAssertLessThanOrEqual(total, attempted)
        }
        XCTAssertGreaterThan(killed, 0, "no writer was killed: the test proved nothing")
    }
}
