// Days and their counts: the history rows with their streaks, the current
// streak, which ingested instants are new, and the status-bar text. Pure:
// each takes the counts (and today) it needs.
//
// Invariants: days before the first recorded unlock are untracked and end
// no streak; an instant already counted, or within the debounce window of
// one, is not counted again.

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

    /// Instants less than this apart are one unlock: a hook that fires
    /// twice, or the same unlock from `unlock` and from a log fed to `ingest`.
    public static let debounceMs: Int64 = 1000

    /// What an ingest batch adds: in time order, each instant that is not
    /// within `debounceMs` of one already counted (`alreadySeen`) or of one
    /// taken earlier in the batch; the rest are duplicates.
    public static func planIngest(_ batch: [Day: [Int64]], alreadySeen: (Int64, Day) -> Bool) -> IngestPlan {
        var plan = IngestPlan()
        var all: [(ms: Int64, day: Day)] = []
        all.reserveCapacity(batch.values.reduce(0) { $0 + $1.count })
        for (day, instants) in batch { for ms in instants { all.append((ms, day)) } }
        all.sort { $0.ms < $1.ms }
        var last: Int64? = nil
        for (ms, day) in all {
            if let l = last, ms - l < debounceMs {
                plan.duplicates[day, default: 0] += 1
            } else if alreadySeen(ms, day) {
                plan.duplicates[day, default: 0] += 1
            } else {
                plan.added[day, default: []].append(ms)
                last = ms
            }
        }
        return plan
    }

    /// The first index of a sorted list whose value is not below `v`.
    static func lowerBound(_ v: Int64, in list: [Int64]) -> Int {
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid] < v { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    static func index(of v: Int64, in list: [Int64]) -> Int? {
        let i = lowerBound(v, in: list)
        return i < list.count && list[i] == v ? i : nil
    }

    /// Waybar custom-module JSON, a tmux status string, or a plain line.
    public static func widget(_ s: Status, style: String) -> String {
        let n = s.unlocks
        let cls = widgetClass(n)
        let face = s.busted ? "🃏" : "♣"
        let short = "\(face) \(n)/\(limit)"
        switch style {
        case "waybar":
            let tooltip = "\(n) unlock\(n == 1 ? "" : "s") today: \(s.card.name). \(s.message)"
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
