// tenclub's state as a fold over its journal.
//
// Events:
//   {"type":"unlock","id":"…","at":"…","day":"YYYY-MM-DD"}       one unlock (tenclub unlock)
//   {"type":"ingest","day":"YYYY-MM-DD","at":["…","…"]}          new unlocks of one day from ingest
//   {"type":"buddy_set","number":"+1…","name":…}  {"type":"buddy_removed"}
//   {"type":"consent","number":"+1…","state":"accepted|stopped","keyword":"YES"}
//   {"type":"sms_queued","id","to","body","kind","day"?}  sms_sent / sms_failed / sms_dropped {"id"}
//   {"type":"inbound","key":"…"}                                  an inbound text already handled
//   {"type":"day_closed","day":"…","unlocks":N}                   rollover
//
// The day is decided when the event is written, by the TZ in force then, so
// history does not move when the machine travels.

public struct TenclubState: JournalModel {
    public static let schemaVersion = 1

    /// Unlocks per local day.
    public private(set) var days: [Day: Int] = [:]
    /// Instants (ms) already ingested, per day: the dedupe index. Cold: only
    /// loaded for writers that ingest.
    public private(set) var seen: [Day: Set<Int64>] = [:]
    public let full: Bool

    // V3: the buddy and the outbox (hot), handled inbound texts (cold).
    public private(set) var buddy: Tenclub.Buddy?
    /// Numbers that texted STOP (E.164): nothing is ever sent to them.
    public private(set) var suppressed: Set<String> = []
    /// Queued messages, oldest first.
    public private(set) var outbox: [Tenclub.OutMessage] = []
    public private(set) var alertedDays: Set<Day> = []
    public private(set) var closedThrough: Day?
    public private(set) var inboundSeen: Set<String> = []

    public init(full: Bool) { self.full = full }

    public func unlocks(on d: Day) -> Int { days[d] ?? 0 }
    /// The first tracked day. A day before 2000 (written before times were
    /// checked) is not one: rollover never walks from the year 1.
    public var firstDay: Day? { days.keys.filter { $0.year >= 2000 }.min() }

    public mutating func apply(_ e: JSONObject) {
        guard let type = e["type"]?.string else { return }
        switch type {
        case "unlock":
            guard let day = e["day"]?.string.flatMap(Day.parse) else { return }
            days[day, default: 0] += 1
        case "ingest":
            guard let day = e["day"]?.string.flatMap(Day.parse) else { return }
            let ats = e["at"]?.array ?? []
            days[day, default: 0] += ats.count
            if full {
                var set = seen[day] ?? []
                for a in ats { if let s = a.string, let p = RFC3339.parse(s) { set.insert(p.instant.ms) } }
                seen[day] = set
            }
        default:
            applyBuddyEvent(type, e)
        }
    }

    mutating func applyBuddyEvent(_ type: String, _ e: JSONObject) {
        let at = e["at"]?.string ?? ""
        switch type {
        case "buddy_set":
            guard let n = e["number"]?.string else { return }
            let number = PhoneNumber(e164: n)
            if e["keep"]?.bool == true, var b = buddy, b.number == number {
                b.name = e["name"]?.string
                buddy = b
            } else {
                buddy = Tenclub.Buddy(number: number, name: e["name"]?.string,
                                      consent: suppressed.contains(n) ? .stopped : .invited, since: at)
            }
        case "buddy_removed":
            buddy = nil
        case "consent":
            guard let n = e["number"]?.string, let c = e["state"]?.string.flatMap(Tenclub.Consent.init(rawValue:)) else { return }
            if c == .stopped { suppressed.insert(n) } else { suppressed.remove(n) }
            if var b = buddy, b.number.e164 == n {
                b.consent = c
                b.since = at
                buddy = b
            }
        case "sms_queued":
            guard let id = e["id"]?.string, let to = e["to"]?.string, let body = e["body"]?.string else { return }
            let day = e["day"]?.string.flatMap(Day.parse)
            let kind = e["kind"]?.string ?? "text"
            outbox.append(Tenclub.OutMessage(id: id, to: PhoneNumber(e164: to), body: body, kind: kind, day: day,
                                             queuedAt: at, attempts: Int(e["attempts"]?.int ?? 0)))
            if kind == "alert", let d = day { alertedDays.insert(d) }
        case "sms_sent", "sms_dropped":
            if let id = e["id"]?.string { outbox.removeAll { $0.id == id } }
        case "sms_failed":
            if let id = e["id"]?.string, let i = outbox.firstIndex(where: { $0.id == id }) { outbox[i].attempts += 1 }
        case "inbound":
            if full, let k = e["key"]?.string { inboundSeen.insert(k) }
        case "day_closed":
            if let d = e["day"]?.string.flatMap(Day.parse), closedThrough.map({ d > $0 }) ?? true { closedThrough = d }
        default:
            break
        }
    }

    public func hotSnapshot() -> [JSONObject] {
        var lines: [JSONObject] = days.keys.sorted().map { ["day": .string($0.description), "unlocks": JSON(days[$0]!)] }
        if let b = buddy {
            lines.append(["k": "buddy", "number": .string(b.number.e164), "name": JSON(b.name),
                          "consent": .string(b.consent.rawValue), "since": .string(b.since)])
        }
        if !suppressed.isEmpty { lines.append(["k": "suppressed", "numbers": JSON(suppressed.sorted())]) }
        for m in outbox {
            var o: JSONObject = ["k": "outbox", "id": .string(m.id), "to": .string(m.to.e164), "body": .string(m.body),
                                 "kind": .string(m.kind), "queued_at": .string(m.queuedAt), "attempts": JSON(m.attempts)]
            if let d = m.day { o["day"] = .string(d.description) }
            lines.append(o)
        }
        if !alertedDays.isEmpty { lines.append(["k": "alerted", "days": JSON(alertedDays.sorted().map(\.description))]) }
        if let c = closedThrough { lines.append(["k": "closed_through", "day": .string(c.description)]) }
        return lines
    }

    public func coldSnapshot() -> [JSONObject] {
        var lines: [JSONObject] = seen.keys.sorted().map { d in ["seen": .string(d.description), "ms": .array(seen[d]!.sorted().map { .int($0) })] }
        if !inboundSeen.isEmpty { lines.append(["inbound": JSON(inboundSeen.sorted())]) }
        return lines
    }

    public mutating func restoreHot(_ line: JSONObject) throws(ToolError) {
        if let k = line["k"]?.string {
            switch k {
            case "buddy":
                guard let n = line["number"]?.string, let c = line["consent"]?.string.flatMap(Tenclub.Consent.init(rawValue:)) else {
                    throw ToolError(.dataError, "bad snapshot line")
                }
                buddy = Tenclub.Buddy(number: PhoneNumber(e164: n), name: line["name"]?.string, consent: c,
                                      since: line["since"]?.string ?? "")
            case "suppressed":
                suppressed = Set((line["numbers"]?.array ?? []).compactMap(\.string))
            case "outbox":
                guard let id = line["id"]?.string, let to = line["to"]?.string, let body = line["body"]?.string else {
                    throw ToolError(.dataError, "bad snapshot line")
                }
                outbox.append(Tenclub.OutMessage(id: id, to: PhoneNumber(e164: to), body: body, kind: line["kind"]?.string ?? "text",
                                                 day: line["day"]?.string.flatMap(Day.parse), queuedAt: line["queued_at"]?.string ?? "",
                                                 attempts: Int(line["attempts"]?.int ?? 0)))
            case "alerted":
                alertedDays = Set((line["days"]?.array ?? []).compactMap { $0.string.flatMap(Day.parse) })
            case "closed_through":
                closedThrough = line["day"]?.string.flatMap(Day.parse)
            default:
                break  // a newer kind of line: ignored by this version
            }
            return
        }
        guard let d = line["day"]?.string.flatMap(Day.parse), let n = line["unlocks"]?.int else {
            throw ToolError(.dataError, "bad snapshot line")
        }
        days[d] = Int(n)
    }

    public mutating func restoreCold(_ line: JSONObject) throws(ToolError) {
        guard full else { return }
        if let keys = line["inbound"]?.array {
            for k in keys { if let s = k.string { inboundSeen.insert(s) } }
            return
        }
        guard let d = line["seen"]?.string.flatMap(Day.parse), let ms = line["ms"]?.array else {
            throw ToolError(.dataError, "bad snapshot line")
        }
        var set = Set<Int64>(minimumCapacity: ms.count)
        for m in ms { if let v = m.int { set.insert(v) } }
        seen[d] = set
    }

    /// Whether an instant was already ingested (needs a full load).
    public func hasSeen(_ ms: Int64, on d: Day) -> Bool { seen[d]?.contains(ms) ?? false }
}

extension Tenclub {
    /// One history row: a day with its count, and the streak of days at ten or
    /// under that ends on it.
    public struct HistoryDay: Equatable, Sendable {
        public var date: Day
        public var unlocks: Int
        public var streak: Int
        public var record: JSONObject {
            let c = Tenclub.card(for: unlocks)
            return ["type": "day", "date": .string(date.description), "unlocks": JSON(unlocks), "card": .string(c.code),
                    "busted": .bool(Tenclub.isBusted(unlocks)), "streak": JSON(streak)]
        }
    }

    /// The last `count` days up to `today`, oldest first. Days before the first
    /// recorded unlock count as untracked and end no streak.
    public static func history(_ days: [Day: Int], today: Day, count: Int) -> [HistoryDay] {
        let first = days.keys.min()
        let from = today.adding(days: -(count - 1))
        var streak = 0
        // Start the running streak early enough to be right on the first shown day.
        var d = first.map { min($0, from) } ?? from
        var out: [HistoryDay] = []
        while d <= today {
            let n = days[d] ?? 0
            if let f = first, d >= f {
                streak = n > limit ? 0 : streak + 1
            } else {
                streak = 0
            }
            if d >= from { out.append(HistoryDay(date: d, unlocks: n, streak: streak)) }
            d = d.adding(days: 1)
        }
        return out
    }

    public static func currentStreak(_ days: [Day: Int], today: Day) -> Int {
        history(days, today: today, count: 1).last?.streak ?? 0
    }

    /// What an ingest batch adds: per day, the instants not yet seen (sorted,
    /// each once) and how many were duplicates.
    public struct IngestPlan: Equatable, Sendable {
        public var added: [Day: [Int64]] = [:]
        public var duplicates: [Day: Int] = [:]
        public var days: [Day] { Set(added.keys).union(duplicates.keys).sorted() }
    }

    public static func planIngest(_ batch: [Day: [Int64]], alreadySeen: (Int64, Day) -> Bool) -> IngestPlan {
        var plan = IngestPlan()
        for (day, instants) in batch {
            var fresh = Set<Int64>()
            var dups = 0
            for ms in instants {
                if alreadySeen(ms, day) || !fresh.insert(ms).inserted { dups += 1 }
            }
            if !fresh.isEmpty { plan.added[day] = fresh.sorted() }
            if dups > 0 { plan.duplicates[day] = dups }
        }
        return plan
    }

    /// Waybar custom-module JSON, a tmux status string, or a plain line.
    public static func widget(_ s: Status, style: String) -> String {
        let n = s.unlocks
        let cls = widgetClass(n)
        let face = s.busted ? "🃏" : "♣"
        let short = "\(face) \(n)/\(limit)"
        switch style {
        case "waybar":
            let tooltip = "\(n) unlock\(n == 1 ? "" : "s") today (\(s.card.name)). \(s.message)"
            let o: JSONObject = ["text": .string(short), "tooltip": .string(tooltip), "class": .string(cls),
                                 "percentage": JSON(min(100, n * 100 / limit)), "alt": .string(s.card.code)]
            return o.serialized + "\n"
        case "tmux":
            let colour = cls == "busted" ? "red" : cls == "close" ? "yellow" : "green"
            return "#[fg=\(colour)]\(short)\(s.busted ? " BUSTED!" : "")#[default]\n"
        default:
            return short + (s.busted ? " BUSTED!" : "") + "\n"
        }
    }
}
