// tenclub's state as a fold over its journal.
//
// Events:
//   {"type":"unlock","id":"…","at":"…","day":"YYYY-MM-DD"}       one unlock (tenclub unlock)
//   {"type":"ingest","day":"YYYY-MM-DD","at":["…","…"]}          new unlocks of one day from ingest
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

    public init(full: Bool) { self.full = full }

    public func unlocks(on d: Day) -> Int { days[d] ?? 0 }
    public var firstDay: Day? { days.keys.min() }

    public mutating func apply(_ e: JSONObject) {
        guard let type = e["type"]?.string, let dayText = e["day"]?.string, let day = Day.parse(dayText) else { return }
        switch type {
        case "unlock":
            days[day, default: 0] += 1
        case "ingest":
            let ats = e["at"]?.array ?? []
            days[day, default: 0] += ats.count
            if full {
                var set = seen[day] ?? []
                for a in ats { if let s = a.string, let p = RFC3339.parse(s) { set.insert(p.instant.ms) } }
                seen[day] = set
            }
        default:
            break
        }
    }

    public func hotSnapshot() -> [JSONObject] {
        days.keys.sorted().map { ["day": .string($0.description), "unlocks": JSON(days[$0]!)] }
    }

    public func coldSnapshot() -> [JSONObject] {
        seen.keys.sorted().map { d in ["seen": .string(d.description), "ms": .array(seen[d]!.sorted().map { .int($0) })] }
    }

    public mutating func restoreHot(_ line: JSONObject) throws(ToolError) {
        guard let d = line["day"]?.string.flatMap(Day.parse), let n = line["unlocks"]?.int else {
            throw ToolError(.dataError, "bad snapshot line")
        }
        days[d] = Int(n)
    }

    public mutating func restoreCold(_ line: JSONObject) throws(ToolError) {
        guard full else { return }
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
