// The one driver of a run's hand-overs (Delivery.swift's lifecycle), which
// tenclub's `sms deliver`, playa's `due` and rewards' grants all go through:
//
//     for each record the run may hand over:
//         claim it, under the store's lock, at the claim's own time   (the tool's `claim`)
//         run the user's command with it on its standard input         (`Handover.run`)
//         record how it ended, at the time it ended                    (the tool's `finish`)
//     then say what needs saying                                      (`Tally.messages`)
//
// The tools keep their records, events and words; when a claim is taken,
// how long it lives, what an ending means and what a run says are decided
// here. What is said, by one rule: a failure that will be tried again is
// news only when the run is not quiet (cron, `-q`, mails whatever is said),
// or when the tool's rule says it is (`isNews`: by default a record failing
// for about an hour, then once a day of hourly tries); a record that may have
// gone out (`unknown`) is always said.

/// One run's hand-overs to the user's command.
public struct HandoverRun {
    /// The command, as the user gave it (run by /bin/sh).
    public let command: String
    /// How messages name it: "the notify command".
    public let what: String
    public let timeoutSeconds: Int
    /// Whether the failure that makes `failures` in a row is news under -q.
    public let isNews: (Int) -> Bool
    /// What the run has handed over so far.
    public private(set) var tally = Tally()

    public init(command: String, what: String, timeoutSeconds: Int, isNews: @escaping (Int) -> Bool = Handover.failureIsNews(failures:)) {
        self.command = command
        self.what = what
        self.timeoutSeconds = timeoutSeconds
        self.isNews = isNews
    }

    /// A record a run has claimed: the tool's own value for it, what the
    /// command gets (the record on stdin, variables), and how many times in
    /// a row it had failed before.
    public struct Claimed<T> {
        public var value: T
        public var record: JSONObject
        public var env: [String: String]
        public var failuresBefore: Int

        public init(_ value: T, record: JSONObject, env: [String: String], failuresBefore: Int) {
            self.value = value
            self.record = record
            self.env = env
            self.failuresBefore = failuresBefore
        }
    }

    /// How one hand-over ended.
    public struct Ended: Equatable, Sendable {
        public var outcome: DeliveryOutcome
        public var end: Subprocess.Ending
        /// Why it was not delivered (nil when it was).
        public var why: String?
        /// When the command ended, by the clock (not a pinned --now).
        public var at: Instant
        /// When it is tried again, as `finish` recorded it (failed only).
        public var next: Instant?
    }

    /// Hands one record over. `claim` records this run's claim (its id,
    /// made at `at`, living until `until`) under the store's lock and says
    /// what to hand over, or nil when the record is not this run's to hand
    /// over (another run holds it, it went out, it was dropped); `finish`
    /// records how the command ended and returns when a failed record is
    /// tried again. Returns the claimed value and how it ended, nil when
    /// nothing was handed over. `clock` is the real clock: a claim lives
    /// from its own time, however long earlier records took.
    public mutating func handOver<T>(clock: () -> Instant,
                                     claim: (_ id: String, _ at: Instant, _ until: Instant) throws(ToolError) -> Claimed<T>?,
                                     finish: (_ value: T, _ claim: String, _ ended: Ended) throws(ToolError) -> Instant?)
        throws(ToolError) -> (value: T, ended: Ended)? {
        let t = clock()
        let id = IDs.make()
        guard let c = try claim(id, t, Handover.expiry(claimedAt: t, timeoutSeconds: timeoutSeconds)) else { return nil }
        let end = try Handover.run(command, record: c.record, env: c.env, timeoutSeconds: timeoutSeconds)
        var ended = Ended(outcome: Handover.outcome(of: end), end: end,
                          why: Handover.why(end, command: what, timeoutSeconds: timeoutSeconds), at: clock(), next: nil)
        ended.next = try finish(c.value, id, ended)
        tally.count(ended, news: ended.outcome == .failed && isNews(c.failuresBefore + 1))
        return (c.value, ended)
    }
}

/// What a run's hand-overs came to, and what it says about them.
public struct Tally: Equatable, Sendable {
    public var delivered = 0
    public var failed = 0
    public var unknown = 0
    /// Failures that are news even from cron.
    public var news = 0
    /// The last failure's exit status.
    public var lastStatus: Int32 = 0
    /// The earliest next try of a failed record.
    public var nextTry: Instant?
    /// Why the last unknown one is unknown.
    public var whyUnknown: String?

    public init() {}

    mutating func count(_ e: HandoverRun.Ended, news isNews: Bool) {
        switch e.outcome {
        case .delivered:
            delivered += 1
        case .failed:
            failed += 1
            if case .exited(let s) = e.end { lastStatus = s }
            if isNews { news += 1 }
            if let n = e.next, nextTry.map({ n < $0 }) ?? true { nextTry = n }
        case .unknown:
            unknown += 1
            whyUnknown = e.why
        }
    }

    /// A tool's words for what its runs say.
    public struct Words {
        /// Failures that will be tried again (said when not quiet).
        public var failed: (Tally) -> String
        /// Failures that are news even from cron.
        public var news: (Tally) -> String
        /// Records that may have gone out (always said).
        public var unknown: (Tally) -> String

        public init(failed: @escaping (Tally) -> String, news: @escaping (Tally) -> String, unknown: @escaping (Tally) -> String) {
            self.failed = failed
            self.news = news
            self.unknown = unknown
        }
    }

    /// What the run says at its end: failures when not `quiet`, or those
    /// that are news; and every record that may have gone out.
    public func messages(quiet: Bool, words: Words) -> [String] {
        var out: [String] = []
        if failed > 0, !quiet {
            out.append(words.failed(self))
        } else if news > 0 {
            out.append(words.news(self))
        }
        if unknown > 0 { out.append(words.unknown(self)) }
        return out
    }

    /// The run's status: temporary failure when something was not handed over.
    public var exitCode: ExitCode { failed + unknown > 0 ? .tempFail : .ok }

    /// "1 text", "2 texts".
    public static func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
}
