import XCTest
@testable import NudgeKit

/// The one hand-over lifecycle (Core/Delivery.swift): its states and the
/// fold's rules, claim expiry from the claim's own time, what an exit means,
/// the timeout every tool accepts, the command run with the record on its
/// standard input; and, over random claims, outcomes, killed runs and clock
/// jumps, that nothing is handed over while another claim on it is live.
final class DeliveryTests: XCTestCase {
    let t0 = Instant(seconds: 1_795_000_000)

    func sending(_ claim: String, until: Instant) -> Handover { Handover(state: .sending, claim: claim, claimUntil: until) }

    // MARK: States and the fold

    func testTheStateAtAnInstant() {
        let h = sending("c", until: t0)
        XCTAssertEqual(h.state(at: t0), .sending, "live up to its expiry")
        XCTAssertEqual(h.state(at: Instant(ms: t0.ms + 1)), .unknown, "then its run has died")
        for s in DeliveryState.allCases where s != .sending {
            XCTAssertEqual(Handover(state: s, claimUntil: t0).state(at: Instant(ms: t0.ms + 1)), s, "only a claim expires")
        }
        XCTAssertEqual(DeliveryState.allCases.filter(\.isWaiting), [.pending, .failed])
    }

    /// Who may claim, for every state, asked to retry unknown or not.
    func testWhoMayClaim() {
        let live = sending("c", until: t0.adding(seconds: 60))
        let expired = sending("c", until: Instant(ms: t0.ms - 1))
        let rows: [(Handover, Bool, Bool, Bool)] = [  // handover, may claim, with retry, is a retry
            (Handover(), true, true, false),
            (Handover(state: .failed), true, true, false),
            (live, false, false, false),
            (expired, false, true, true),
            (Handover(state: .unknown), false, true, true),
            (Handover(state: .delivered), false, false, false),
        ]
        for (h, plain, retry, isRetry) in rows {
            XCTAssertEqual(h.mayClaim(at: t0, retryUnknown: false), plain, "\(h)")
            XCTAssertEqual(h.mayClaim(at: t0, retryUnknown: true), retry, "\(h) with retry")
            XCTAssertEqual(h.isRetry(at: t0), isRetry, "\(h)")
        }
    }

    /// A recorded claim takes a waiting record; a sending or unknown one
    /// only as a retry, and where the claim's time is known, only once the
    /// earlier claim had expired; a delivered one never.
    func testClaimsFolded() {
        let until = t0.adding(seconds: 120)
        func fold(_ h: Handover, retry: Bool, at t: Instant? = nil) -> (Bool, Handover) {
            var h = h
            let took = h.claimed("new", until: until, retry: retry, at: t)
            return (took, h)
        }
        for s in [DeliveryState.pending, .failed] {
            let (took, h) = fold(Handover(state: s, claim: "old"), retry: false)
            XCTAssertTrue(took)
            XCTAssertEqual(h, sending("new", until: until))
        }
        let old = sending("old", until: t0)
        XCTAssertEqual(fold(old, retry: false).0, false)
        XCTAssertEqual(fold(old, retry: false).1, old, "a refused claim changes nothing")
        XCTAssertEqual(fold(old, retry: true).0, true, "a retry where the fold knows no time")
        XCTAssertEqual(fold(old, retry: true, at: t0).0, false, "live at the claim's time")
        XCTAssertEqual(fold(old, retry: true, at: Instant(ms: t0.ms + 1)).1, sending("new", until: until), "expired at the claim's time")
        XCTAssertEqual(fold(Handover(state: .unknown), retry: false).0, false)
        XCTAssertEqual(fold(Handover(state: .unknown), retry: true).0, true)
        XCTAssertEqual(fold(Handover(state: .delivered), retry: true, at: t0).0, false)
    }

    /// The holder's outcome (or one naming no claim) ends the hand-over; a
    /// loser's counts only when it delivered; delivered is final.
    func testOutcomesFolded() {
        let held = sending("c", until: t0)
        for o in DeliveryOutcome.allCases {
            var h = held
            XCTAssertTrue(h.ended(o, claim: "c"))
            XCTAssertEqual(h, Handover(state: o.state, claim: "c", claimUntil: nil, failures: o == .failed ? 1 : 0),
                           "\(o): the claim's id stays, its expiry goes; a failure is counted")
            var n = held
            XCTAssertTrue(n.ended(o, claim: nil), "no claim named")
            XCTAssertEqual(n.state, o.state)
        }
        var lost = held
        XCTAssertFalse(lost.ended(.failed, claim: "other"))
        XCTAssertFalse(lost.ended(.unknown, claim: "other"))
        XCTAssertEqual(lost, held, "a loser's failure leaves the holder's claim alone")
        XCTAssertFalse(lost.ended(.delivered, claim: "other"))
        XCTAssertEqual(lost.state, .delivered, "it went out all the same")
        var done = Handover(state: .delivered)
        for o in DeliveryOutcome.allCases { XCTAssertFalse(done.ended(o, claim: nil)) }
        XCTAssertEqual(done.state, .delivered)
        var stale = Handover(state: .failed, claim: "c")
        XCTAssertFalse(stale.ended(.failed, claim: "c"), "an outcome for a claim already ended")
    }

    // MARK: Expiry, exits, timeouts

    /// A claim expires its command's timeout plus the margin after the
    /// claim's own time: a claim made late in a long run lives as long.
    func testAClaimExpiresFromItsOwnTime() {
        XCTAssertEqual(Handover.claimMarginSeconds, 60)
        XCTAssertEqual(Handover.expiry(claimedAt: t0, timeoutSeconds: 60), t0.adding(seconds: 120))
        let late = t0.adding(minutes: 10)
        let until = Handover.expiry(claimedAt: late, timeoutSeconds: 600)
        XCTAssertEqual(until, late.adding(seconds: 660))
        let h = sending("c", until: until)
        XCTAssertEqual(h.state(at: late.adding(seconds: 600)), .sending, "while its command may run, and the margin after")
        XCTAssertEqual(h.state(at: until.adding(seconds: 1)), .unknown)
    }

    func testWhatAnExitMeans() {
        XCTAssertEqual(Handover.outcome(of: .exited(0)), .delivered)
        for s: Int32 in [1, 2, 75, 127, 128, 193, 255] { XCTAssertEqual(Handover.outcome(of: .exited(s)), .failed, "\(s)") }
        XCTAssertEqual(Handover.outcome(of: .exited(124)), .failed, "124 of the command's own is a failure, to be tried again")
        XCTAssertEqual(Handover.why(.exited(124), command: "it", timeoutSeconds: 5), "it exited 124", "not 'ran past its timeout'")
        XCTAssertEqual(Handover.outcome(of: .timedOut), .unknown, "ended by our timer: it may have gone out")
        for s: Int32 in [129, 137, 143, 192] { XCTAssertEqual(Handover.outcome(of: .exited(s)), .unknown, "\(s): the shell's word for a kill") }
        XCTAssertEqual(Handover.outcome(of: .signaled(SIGKILL)), .unknown, "killed (the OOM killer): it may have sent")
        XCTAssertEqual(Handover.why(.exited(137), command: "it", timeoutSeconds: 5), "it was killed by signal 9 (SIGKILL)")
        XCTAssertEqual(Subprocess.Ending.timedOut.status, 124)
        XCTAssertEqual(Subprocess.Ending.exited(3).status, 3)
        XCTAssertEqual(Subprocess.Ending.signaled(9).status, 137)
    }

    /// A command killed by a signal, for real: through the shell (137) and
    /// itself killed (the shell exec'd it); either way it may have sent.
    func testACommandKilledByASignalIsUnknown() throws {
        for cmd in ["kill -9 $$", "sh -c 'kill -9 $$'; exit $?", "cat >/dev/null; kill -KILL $$"] {
            let end = try Handover.run(cmd, record: ["id": "x"], env: [:], timeoutSeconds: 5)
            XCTAssertEqual(end.signal, SIGKILL, "\(cmd): \(end)")
            XCTAssertEqual(Handover.outcome(of: end), .unknown, cmd)
        }
    }

    /// A failure waits 1, 2, 4 … minutes, at most an hour, before its next
    /// try; a delivery or an unknown end clears the count.
    func testFailuresBackOff() {
        XCTAssertEqual((1...9).map { Handover.backoffMinutes(failures: $0) }, [1, 2, 4, 8, 16, 32, 60, 60, 60])
        XCTAssertEqual(Handover.backoffMinutes(failures: 1000), 60)
        var h = Handover()
        var now = t0
        var tries = 0
        // A command that always fails, cron every minute for a day.
        for _ in 0..<(24 * 60) {
            now = now.adding(minutes: 1)
            guard h.mayClaim(at: now, retryUnknown: false) else { continue }
            tries += 1
            XCTAssertTrue(h.claimed("c\(tries)", until: Handover.expiry(claimedAt: now, timeoutSeconds: 10), retry: false))
            h.ended(.failed, claim: "c\(tries)", retryAt: Handover.nextTry(failures: h.failures + 1, at: now))
            XCTAssertEqual(h.retryAt, now.adding(minutes: Int64(Handover.backoffMinutes(failures: h.failures))))
        }
        XCTAssertLessThan(tries, 35, "not every minute: \(tries) tries in a day")
        XCTAssertGreaterThan(tries, 20, "an hour at most between tries")
        h.claimed("last", until: nil, retry: false)
        h.ended(.delivered, claim: "last")
        XCTAssertEqual(h.failures, 0)
        XCTAssertNil(h.retryAt)
    }

    /// One range and one message for `--timeout` and the config keys.
    func testTheTimeoutEveryToolAccepts() throws {
        for (raw, n) in [("1", 1), ("60", 60), ("600", 600), ("86400", 86_400)] { XCTAssertEqual(Handover.parseTimeout(raw), n) }
        for raw in ["0", "-5", "86401", "1.5", " 60", "60s", "1e3", "soon", ""] { XCTAssertNil(Handover.parseTimeout(raw), raw) }
        XCTAssertEqual(Handover.timeoutMessage("--timeout", "0"), "--timeout must be a whole number of seconds from 1 to 86400, not '0'")

        let config = try Config.parse("grant_timeout = 90\nnotify_timeout = soon\n", path: "/c/config",
                                      known: ["grant_timeout", "notify_timeout", "sms_timeout"])
        func timeout(_ option: String?, _ key: String) -> Result<Int, ToolError> {
            do throws(ToolError) { return .success(try Handover.timeout(option: option, config: config, key: key, default: 60)) }
            catch { return .failure(error) }
        }
        XCTAssertEqual(timeout(nil, "sms_timeout"), .success(60), "the default")
        XCTAssertEqual(timeout(nil, "grant_timeout"), .success(90), "the config file")
        XCTAssertEqual(timeout("5", "grant_timeout"), .success(5), "the option first")
        XCTAssertEqual(timeout("5", "notify_timeout"), .success(5), "a bad setting the option overrides is not read")
        XCTAssertEqual(timeout(nil, "notify_timeout"),
                       .failure(ToolError(.config, "/c/config: notify_timeout must be a whole number of seconds from 1 to 86400, not 'soon'")))
        XCTAssertEqual(timeout("0", "sms_timeout"),
                       .failure(ToolError(.usage, "--timeout must be a whole number of seconds from 1 to 86400, not '0'")))
    }

    // MARK: Running the command

    func testTheCommandGetsTheRecordOnItsStandardInput() throws {
        let dir = NSTemporaryDirectory() + "delivery-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let record: JSONObject = ["type": "sms", "id": "m1", "body": "Hi \"there\" 🎂"]
        let end = try Handover.run("cat > \(dir)/in; printf %s \"$X_ID\" > \(dir)/env", record: record, env: ["X_ID": "m1"], timeoutSeconds: 10)
        XCTAssertEqual(end, .exited(0))
        XCTAssertEqual(try String(contentsOfFile: dir + "/in", encoding: .utf8), record.serialized + "\n", "one JSON line")
        XCTAssertEqual(try String(contentsOfFile: dir + "/env", encoding: .utf8), "m1")
        XCTAssertEqual(try Handover.run("echo to stdout; exit 3", record: record, env: [:], timeoutSeconds: 10), .exited(3))
        XCTAssertEqual(try Handover.run("exit 124", record: record, env: [:], timeoutSeconds: 10), .exited(124), "its own 124 is not our timer")
        let start = Date()
        XCTAssertEqual(try Handover.run("sleep 30", record: record, env: [:], timeoutSeconds: 1), .timedOut)
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
    }

    // MARK: Property

    /// One hand-over the model saw: who made it, when, until when its claim
    /// lives, and how it went.
    struct Handed {
        var item: Int
        var claim: String
        var at: Int64
        var until: Int64
        /// When our timer ends the command (monotonic: a clock jump moves it).
        var deadline: Int64
        var outcome: DeliveryOutcome?
        /// The run died: its command may run on with no timer.
        var dead = false
        /// A clock jump (suspend, resume) happened while the command ran.
        var jumped = false
        var retried: Bool
    }

    /// Over random sequences of claims (by runs that walk several records in
    /// turn), outcomes, commands ended by our timer, killed runs and clock
    /// jumps, in each tool's way of folding (tenclub and playa: a retry flag;
    /// rewards: the claim's stamp time, unknown always retried, the writer
    /// checking it holds the claim):
    /// - nothing is handed over while another claim on it is live, nor while
    ///   a live run's command on it may still run (a claim lives from its own
    ///   time: one from the run's start would expire under it);
    /// - nothing delivered is handed over again, and nothing whose hand-over
    ///   may have gone out (unknown) unless asked;
    /// - the fold's state is the one the model expects.
    func testNothingIsHandedOverWhileAClaimIsLive() {
        var totals: [String: Int] = [:]
        for seed in 0..<300 {
            var rng = SeededRandom(seed: UInt64(seed))
            let rewardsWay = seed % 2 == 1
            let timeout = [1, 60, 600][Int.random(in: 0..<3, using: &rng)]
            let timeoutMs = Int64(timeout) * 1000
            var items = [Handover](repeating: Handover(), count: 4)
            var handed: [Handed] = []
            var now = t0.ms
            var claims = 0
            // A run: when it started, whether it retries unknown, and the
            // hand-over its command is on.
            struct Run { var start: Int64; var retry: Bool; var current: Int? }
            var runs: [Run] = []

            func record(_ i: Int, _ end: Subprocess.Ending) {
                let h = handed[i]
                let o = Handover.outcome(of: end)
                items[h.item].ended(o, claim: h.claim)
                handed[i].outcome = o
                totals["outcome \(o)", default: 0] += 1
            }
            /// Our timer: a live run's command still running at its deadline is ended then.
            func timers(upTo t: Int64) {
                for r in runs.indices {
                    guard let i = runs[r].current, handed[i].deadline <= t else { continue }
                    record(i, .timedOut)
                    runs[r].current = nil
                }
            }

            for _ in 0..<250 {
                switch Int.random(in: 0..<100, using: &rng) {
                case 0..<25:
                    // Time passes; now and then the machine sleeps (the clock
                    // jumps; the monotonic timers of running commands do not).
                    if Int.random(in: 0..<12, using: &rng) == 0 {
                        let jump = Int64.random(in: 1...3 * 86_400, using: &rng) * 1000
                        now += jump
                        for r in runs.indices { if let i = runs[r].current { handed[i].deadline += jump; handed[i].jumped = true } }
                        totals["jump", default: 0] += 1
                    } else {
                        let next = now + Int64.random(in: 1...Int64(max(2, timeout / 2)), using: &rng) * 1000
                        timers(upTo: next)
                        now = next
                    }
                case 25..<35:
                    runs.append(Run(start: now, retry: rewardsWay || Int.random(in: 0..<4, using: &rng) == 0, current: nil))
                case 35..<65:
                    // A run without a command running claims a record, under the lock.
                    let idle = runs.indices.filter { runs[$0].current == nil }
                    guard let r = idle.randomElement(using: &rng) else { continue }
                    let item = Int.random(in: 0..<items.count, using: &rng)
                    let t = Instant(ms: now)
                    guard items[item].mayClaim(at: t, retryUnknown: runs[r].retry) else { totals["not claimable", default: 0] += 1; continue }
                    claims += 1
                    let claim = "r\(r)c\(claims)"
                    let until = Handover.expiry(claimedAt: t, timeoutSeconds: timeout)
                    let isRetry = items[item].isRetry(at: t)
                    if rewardsWay {
                        // The fold sees the batch's stamp: the run's start.
                        items[item].claimed(claim, until: until, retry: true, at: Instant(ms: runs[r].start))
                        guard items[item].claim == claim, items[item].state == .sending else { totals["claim refused", default: 0] += 1; continue }
                    } else {
                        XCTAssertTrue(items[item].claimed(claim, until: until, retry: isRetry), "seed \(seed): the writer's own claim")
                    }
                    // Handed over at t: check it against every earlier hand-over.
                    for h in handed where h.item == item {
                        XCTAssertFalse(h.outcome == nil && h.until >= now, "seed \(seed): item \(item) handed over while claim \(h.claim) is live")
                        XCTAssertFalse(h.outcome == nil && !h.dead && !h.jumped && h.deadline > now,
                                       "seed \(seed): item \(item) handed over while \(h.claim)'s command may run")
                        XCTAssertNotEqual(h.outcome, .delivered, "seed \(seed): item \(item) delivered, then handed over again")
                    }
                    if let last = handed.last(where: { $0.item == item }), last.outcome == nil || last.outcome == .unknown {
                        XCTAssertTrue(runs[r].retry, "seed \(seed): item \(item) may have gone out, and was handed over unasked")
                        totals["retried unknown", default: 0] += 1
                    }
                    if handed.contains(where: { $0.item == item && $0.outcome == .failed }) { totals["tried again after failing", default: 0] += 1 }
                    handed.append(Handed(item: item, claim: claim, at: now, until: until.ms, deadline: now + timeoutMs, retried: isRetry))
                    runs[r].current = handed.count - 1
                    totals["handed over", default: 0] += 1
                case 65..<88:
                    // A command ends by itself: 0, or a failure (its own 124 too).
                    let busy = runs.indices.filter { runs[$0].current != nil }
                    guard let r = busy.randomElement(using: &rng), let i = runs[r].current else { continue }
                    let ends: [Subprocess.Ending] = [.exited(0), .exited(0), .exited(1), .exited(124)]
                    record(i, ends.randomElement(using: &rng)!)
                    runs[r].current = nil
                case 88..<95:
                    // kill -9: the run and its timer are gone; its command may run on.
                    guard let r = runs.indices.randomElement(using: &rng) else { continue }
                    if let i = runs[r].current { handed[i].dead = true; totals["killed", default: 0] += 1 }
                    runs.remove(at: r)
                default:
                    // A run with nothing running ends.
                    if let r = runs.indices.filter({ runs[$0].current == nil }).randomElement(using: &rng) { runs.remove(at: r) }
                }
                // The fold agrees with the model.
                for item in items.indices {
                    let expected: DeliveryState
                    if let last = handed.last(where: { $0.item == item }) {
                        expected = last.outcome?.state ?? (last.until >= now ? .sending : .unknown)
                    } else {
                        expected = .pending
                    }
                    let delivered = handed.contains { $0.item == item && $0.outcome == .delivered }
                    XCTAssertEqual(items[item].state(at: Instant(ms: now)), delivered ? .delivered : expected, "seed \(seed): item \(item)")
                }
            }
            totals["expired claims", default: 0] += handed.filter { $0.outcome == nil }.count
        }
        // The generator must reach every case, or the property proves little.
        for k in ["handed over", "outcome delivered", "outcome failed", "outcome unknown", "tried again after failing", "retried unknown",
                  "not claimable", "claim refused", "killed", "jump", "expired claims"] {
            XCTAssertGreaterThan(totals[k] ?? 0, 20, "\(k): \(totals)")
        }
    }
}
