// The one lifecycle of a record handed to a command the user names:
// tenclub's texts (`sms deliver`), playa's notifications (`due`), rewards'
// grants (`redeem`, `enforce`). A run claims the record, runs the command
// with the record on its standard input, and records how it ended. The tools
// keep their own records, events and words for the states; what a state
// means, when a claim has expired, which timeouts are accepted and what an
// exit status says are decided here, once.
//
//     pending ─claim─▶ sending ─exit 0──────────────────▶ delivered
//                         │ ─any other exit───────────▶ failed  ─claim, after its backoff─▶ sending …
//                         │ ─ended by our timer───────▶ unknown ─claim, when asked─▶ sending …
//                         │ ─killed by a signal───────▶ unknown
//                         └─claim expired (its run died)─▶ unknown
//
// Invariants (Tests/NudgeKitTests/Core/DeliveryTests.swift checks them over
// random claims, outcomes and clock jumps):
// - A claim is recorded (on disk, under the store's lock) before the command
//   starts, and no record is handed over while another claim on it is live.
// - A claim lives from its own time (not from the start of the run that made
//   it) for the command's timeout plus `claimMarginSeconds`: by then our
//   timer has ended the command, so a claim still standing belongs to a run
//   that died, and the record is `unknown`.
// - `unknown` may have gone out: it is handed over again only when asked
//   (`--retry-unknown`), or where a tool's policy says so (rewards tries a
//   grant again, up to its limit). `delivered` is final.
// - A command killed by a signal (SIGKILL from the OOM killer, 137 as the
//   shell reports it) may have done its work before it died: `unknown`,
//   never `failed`. A command that exits 124 by itself said it failed; only
//   our own timer makes a timeout, and a command that outlives our SIGTERM
//   and exits 0 within the grace delivered (`Subprocess`).
// - A failed record waits before its next try, longer after each failure in
//   a row (`backoff`: 1, 2, 4 … minutes, at most an hour), and the run says
//   when that is: a command that always fails does not run every minute.
//
// Pure: every decision takes the instant it is made at and the values it
// needs. `Handover.run` is the one function that runs a command; a run's
// hand-overs go through one driver (HandoverDriver.swift: `HandoverRun`,
// and `Tally` for what the run says).

/// Where a record is on its way to the user's command.
public enum DeliveryState: String, Sendable, CaseIterable {
    /// Not handed over yet.
    case pending
    /// Claimed by a run: with the command, or about to be, until the claim
    /// expires (then `unknown`).
    case sending
    /// The command exited 0. Final.
    case delivered
    /// The command exited with another status: waiting for the next run.
    case failed
    /// The command was ended at its timeout, or the run holding the claim
    /// died: it may have gone out.
    case unknown

    /// Waiting for the next run without anyone asking: pending, or failed.
    public var isWaiting: Bool { self == .pending || self == .failed }
}

/// How one hand-over ended.
public enum DeliveryOutcome: String, Sendable, CaseIterable {
    case delivered, failed, unknown

    public var state: DeliveryState {
        switch self {
        case .delivered: return .delivered
        case .failed: return .failed
        case .unknown: return .unknown
        }
    }
}

/// One record's hand-over as its journal tells it: the state recorded, and
/// the claim of the run that last took it with when that claim expires.
/// (How many tries ended without delivering is the tool's to count, from
/// what `ended` returns.)
public struct Handover: Equatable, Sendable {
    /// As recorded; `state(at:)` is what it means at an instant.
    public var state: DeliveryState
    public var claim: String?
    public var claimUntil: Instant?
    /// Hand-overs in a row that ended `failed`.
    public var failures: Int
    /// A failed record is not claimed before this (its backoff).
    public var retryAt: Instant?

    public init(state: DeliveryState = .pending, claim: String? = nil, claimUntil: Instant? = nil, failures: Int = 0, retryAt: Instant? = nil) {
        self.state = state
        self.claim = claim
        self.claimUntil = claimUntil
        self.failures = failures
        self.retryAt = retryAt
    }

    // MARK: Decisions

    /// The state at `now`: a claim past its expiry is `unknown`.
    public func state(at now: Instant) -> DeliveryState {
        if state == .sending, let u = claimUntil, u < now { return .unknown }
        return state
    }

    /// Whether the run holding the claim died before recording how the
    /// command ended: still `sending` as recorded, but its claim has expired
    /// by `now`. Its end is recorded as `unknown` (`diedMessage`) by the next
    /// run that meets it, so that the try is in the record's history.
    public func died(at now: Instant) -> Bool { state == .sending && state(at: now) == .unknown }

    /// Whether a run may claim it at `now`: when it is pending, failed and
    /// past its backoff, or unknown and `retryUnknown`. Never while a live
    /// claim holds it, never once delivered.
    public func mayClaim(at now: Instant, retryUnknown: Bool) -> Bool {
        switch state(at: now) {
        case .pending: return true
        case .failed: return retryAt.map { $0 <= now } ?? true
        case .unknown: return retryUnknown
        case .sending, .delivered: return false
        }
    }

    /// Whether a claim at `now` hands over again what may have gone out
    /// (it is unknown): the claim is then recorded as a retry.
    public func isRetry(at now: Instant) -> Bool { state(at: now) == .unknown }

    // MARK: The fold

    /// A recorded claim, folded: it takes the record when the record is
    /// waiting; when it is unknown or sending, only as a `retry` (the run
    /// that made it saw the earlier claim expired, or the command's end
    /// unknown), and where the claim's time `at` is known, only if the earlier
    /// claim had expired by then. Never once delivered. Returns whether it
    /// now holds the record.
    @discardableResult
    public mutating func claimed(_ c: String, until: Instant?, retry: Bool, at t: Instant? = nil) -> Bool {
        switch state {
        case .pending, .failed: break
        case .delivered: return false
        case .unknown: guard retry else { return false }
        case .sending:
            guard retry else { return false }
            if let t = t, let u = claimUntil, u >= t { return false }  // still live then
        }
        state = .sending
        claim = c
        claimUntil = until
        return true
    }

    /// A recorded outcome, folded. The outcome of the claim holding the
    /// record (or of no claim named, where a tool's events name none) is the
    /// hand-over's end: its state, the claim's expiry cleared, and for a
    /// failure the time of the next try (`retryAt`, as the run recorded it
    /// from `nextTry`); then it returns true (a try to count, unless
    /// delivered). An outcome of a claim that lost the race counts only when
    /// it delivered (it went out all the same), and returns false.
    /// `delivered` is final.
    @discardableResult
    public mutating func ended(_ o: DeliveryOutcome, claim c: String?, retryAt next: Instant? = nil) -> Bool {
        if state == .delivered { return false }
        if c == nil || (c == claim && state == .sending) {
            state = o.state
            claimUntil = nil
            failures = o == .failed ? failures + 1 : 0
            retryAt = o == .failed ? next : nil
            return true
        }
        if o == .delivered { state = .delivered }
        return false
    }

    // MARK: Claims, timeouts, exits

    /// A claim outlives its command's timeout by this much, then expires:
    /// the run that made it has died.
    public static let claimMarginSeconds = 60

    /// When a claim made at `claimedAt` expires, for a command that may run
    /// `timeoutSeconds`: the claim's own time, not the run's start, so a run
    /// that hands over many records in turn never outlives its later claims.
    public static func expiry(claimedAt: Instant, timeoutSeconds: Int) -> Instant {
        claimedAt.adding(seconds: Int64(timeoutSeconds + claimMarginSeconds))
    }

    /// What a command's end means: exit 0 delivered; ended by our timer
    /// unknown (it may have done its work); killed by a signal unknown too
    /// (`Subprocess.Ending.signal`: it may have sent before it died); any
    /// other exit failed, to be tried again — 124 too when the command
    /// exited with it by itself.
    public static func outcome(of end: Subprocess.Ending) -> DeliveryOutcome {
        switch end {
        case .exited(0): return .delivered
        case .timedOut, .signaled: return .unknown
        case .exited: return end.signal != nil ? .unknown : .failed
        }
    }

    /// Why a hand-over did not deliver, in words for the record's `error`
    /// and the run's warning: `command` names it ("the notify command").
    public static func why(_ end: Subprocess.Ending, command: String, timeoutSeconds: Int) -> String? {
        switch end {
        case .exited(0): return nil
        case .timedOut: return "\(command) ran past its timeout of \(timeoutSeconds) s and was ended"
        default:
            if let sig = end.signal {
                return "\(command) was killed by signal \(sig)\(Subprocess.signalName(sig).map { " (\($0))" } ?? "")"
            }
            return "\(command) exited \(end.status)"
        }
    }

    /// Why a record whose claim expired is `unknown`: the run holding it
    /// ended without recording how `command` ended.
    public static func diedMessage(_ command: String) -> String {
        "the run handing it to \(command) ended without recording how it went (killed, or the machine went down); it may have gone out"
    }

    /// The longest wait between two tries of a failed record, in minutes.
    public static let backoffCapMinutes = 60

    /// Minutes to wait after the `failures`-th failure in a row: 1, 2, 4 …,
    /// at most `backoffCapMinutes`.
    public static func backoffMinutes(failures n: Int) -> Int {
        n <= 1 ? 1 : min(backoffCapMinutes, 1 << min(n - 1, 20))
    }

    /// The failure in a row after which tries wait `backoffCapMinutes`:
    /// about an hour of tries have failed by then.
    public static let firstHourlyFailure: Int = (1...64).first { backoffMinutes(failures: $0) == backoffCapMinutes } ?? 1

    /// Whether the `failures`-th failure in a row is news for a person when
    /// the run is quiet (`-q`, as from cron, which mails whatever is said):
    /// a retry that is scheduled is not; the failure after which the command
    /// has failed for about an hour is, and then once a day of hourly tries.
    public static func failureIsNews(failures n: Int) -> Bool {
        n >= firstHourlyFailure && (n - firstHourlyFailure) % 24 == 0
    }

    /// When a record that has now failed `failures` times in a row (this
    /// failure counted) may be tried again, from the failure's time `at`.
    public static func nextTry(failures n: Int, at: Instant) -> Instant {
        at.adding(seconds: Int64(backoffMinutes(failures: n) * 60))
    }

    /// The seconds a command may run, in every tool (`--timeout` and the
    /// config keys `sms_timeout`, `notify_timeout`, `grant_timeout`).
    public static let timeoutRange = 1...86_400

    /// A timeout as given: whole seconds within `timeoutRange`; nil otherwise.
    public static func parseTimeout(_ raw: String) -> Int? {
        guard let n = Int(raw), timeoutRange.contains(n) else { return nil }
        return n
    }

    /// The message for a bad timeout `raw` given as `what` (an option or a
    /// config key).
    public static func timeoutMessage(_ what: String, _ raw: String) -> String {
        "\(what) must be a whole number of seconds from \(timeoutRange.lowerBound) to \(timeoutRange.upperBound), not '\(raw)'"
    }

    /// A command's timeout for a run: the `--timeout` value `option` (a bad
    /// one is a usage error), else `key` in `config` (a bad one is a
    /// configuration error naming the file), else `defaultSeconds`.
    public static func timeout(option: String?, config: Config, key: String, default defaultSeconds: Int) throws(ToolError) -> Int {
        if let raw = option {
            guard let n = parseTimeout(raw) else { throw ToolError(.usage, timeoutMessage("--timeout", raw)) }
            return n
        }
        guard let raw = config[key] else { return defaultSeconds }
        guard let n = parseTimeout(raw) else { throw ToolError(.config, "\(config.path): " + timeoutMessage(key, raw)) }
        return n
    }

    /// Hands `record` to `command` (through /bin/sh), as one JSON line on its
    /// standard input, with `env` added to its environment and its standard
    /// output discarded; at `timeoutSeconds` it is ended with everything it
    /// started. How it ended; `outcome(of:)` says what that means.
    public static func run(_ command: String, record: JSONObject, env: [String: String],
                           timeoutSeconds: Int) throws(ToolError) -> Subprocess.Ending {
        var input = [UInt8]()
        record.write(into: &input)
        input.append(0x0A)
        return try Subprocess.shellEnding(command, stdin: input, env: env, quiet: true, timeoutMillis: timeoutSeconds * 1000)
    }
}
