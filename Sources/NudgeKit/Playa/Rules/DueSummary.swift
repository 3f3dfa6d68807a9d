// `playa due` runs from cron every minute and nearly always finds nothing to
// hand over. The snapshot's first line sums up what it takes to know that,
// so such a run reads that line and the journal tail, not every recipient's
// message pool:
//   {"k":"summary","notify_device":D,"active":N,"drawn":{"DAY":[device…]},
//    "wake":[[ms,"id","DAY"],…]}
// `wake` lists the earliest instants at which pending events of recipients
// not paused could be handed over (the first `summarySize`, soonest first);
// `drawn` the devices that hold the draw of a recent day for every active
// recipient with messages (`needsDraws` is false for them). Anything the
// summary cannot vouch for — another device, a new day, --retry-unknown,
// --take-over, a tail event other than a claim, an outcome or the notifying
// device — means "read everything", never "nothing due".

extension Playa {
    static let summarySize = 16

    /// The earliest instant a run without --retry-unknown could hand over
    /// event `e`'s notification, nil when none ever will: it is not pending,
    /// its notification went out, may have gone out, or is in flight (an
    /// expired claim becomes unknown, which only --retry-unknown repeats).
    static func earliestDue(_ e: Event) -> Instant? {
        guard e.status == .pending else { return nil }
        switch e.handover.state {
        case .pending: return e.at
        case .failed: return max(e.at, e.handover.retryAt ?? e.at)
        case .sending, .unknown, .delivered: return nil
        }
    }

    /// The summary line `mayBeDue` answers from (first among the hot lines).
    static func dueSummary(_ s: PlayaState) -> JSONObject {
        let active = s.recipients.values.filter { !$0.paused && $0.draws }
        var wake: [(Instant, String, Day)] = []
        for e in s.events.values {
            guard let r = s.recipients[e.recipientID], !r.paused, let t = earliestDue(e) else { continue }
            wake.append((t, e.id, e.date))
        }
        wake.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        var drawn = JSONObject()
        // The days the snapshot keeps draws of (the week before the newest
        // event's day): the summary read back says what it said when written.
        let oldest = s.newestDay?.adding(days: -7)
        let days = Set(s.drawnBy.keys.compactMap { $0.split(separator: "|").last.flatMap { Day.parse(String($0)) } })
            .filter { d in oldest.map { d >= $0 } ?? true }.sorted().suffix(3)
        for d in days {
            var all: Set<String>? = nil
            for r in active {
                let by = s.drawnBy[PlayaState.generatedKey(r.id, d)] ?? []
                all = all.map { $0.intersection(by) } ?? by
            }
            drawn[d.description] = JSON((all ?? []).sorted())
        }
        var o: JSONObject = ["k": "summary", "active": JSON(active.count), "drawn": .object(drawn),
                             "wake": .array(wake.prefix(summarySize).map { .array([.int($0.0.ms), .string($0.1), .string($0.2.description)]) })]
        if let d = s.notifyDevice { o["notify_device"] = .string(d) }
        if wake.count > summarySize { o["more"] = true }
        return o
    }

    /// Whether `due` on `device` may find something to hand over at `now`,
    /// from the snapshot's summary and the events written since. False means
    /// surely nothing, and nothing to record either: this device already
    /// notifies and holds today's draw.
    public static func mayBeDue(summary: JSONObject?, tail: [JSONObject], now: Instant, today: Day, device: String) -> Bool {
        guard let s = summary, s["k"]?.string == "summary", let active = s["active"]?.int, let list = s["wake"]?.array else { return true }
        var notifier = s["notify_device"]?.string
        if active > 0 {
            guard let drawn = s["drawn"]?.object?[today.description]?.array, drawn.contains(.string(device)) else { return true }
        }
        // What the tail did to single events: a claim holds one (it is in
        // flight, then unknown), an outcome ends it (a failure tries again).
        var touched: [String: Instant?] = [:]
        for e in tail {
            switch e["type"]?.string {
            case "day_confirmed":
                continue
            case "notify_device":
                // As the fold takes it: the first, until one moved.
                guard let d = e["device"]?.string else { return true }
                if notifier == nil || e["moved"]?.bool == true { notifier = d }
            case "notify_claimed", "slot_missed":
                guard let id = e["id"]?.string else { return true }
                touched[id] = .some(nil)
            case "notified":
                guard let id = e["id"]?.string, let outcome = e["outcome"]?.string.flatMap(DeliveryOutcome.init(rawValue:)) else { return true }
                switch outcome {
                case .delivered, .unknown: touched[id] = .some(nil)
                case .failed:
                    guard let r = e["retry_at"]?.string.flatMap({ RFC3339.parse($0)?.instant }) else { return true }
                    touched[id] = .some(r)
                }
            default:
                return true
            }
        }
        guard notifier == device else { return true }
        for v in touched.values { if let w = v, w <= now { return true } }
        for entry in list {
            guard let t = entry.array, t.count == 3, let ms = t[0].int, let id = t[1].string,
                  let day = t[2].string.flatMap(Day.parse) else { return true }
            // A past day's events are missed, never due; one the tail touched is counted above.
            if day < today || touched[id] != nil { continue }
            return ms <= now.ms  // the earliest untouched one bounds all the others
        }
        // Every listed event is past or touched: the bound is gone if there were more.
        return s["more"]?.bool == true
    }
}
