// The report as a picture (`rewards report --format text`, by day): a bar a
// day for learning minutes against the daily goal and one for reward minutes
// against the daily cap, side by side, with the day's points; runs of empty
// days folded into one line. Block characters, or ASCII where the locale's
// character set is not UTF-8; colour only where the caller says (a terminal
// without NO_COLOR). Pure: the width, the locale and the colour are given.
//
// Invariants: no line is wider than `width` - 1 (a line that reaches the
// last column wraps on some terminals) and none ends in a space; a day with
// minutes above zero never draws as none; the goal's and the cap's marks
// stand in the cell where the bar of exactly the goal or the cap ends (never
// the first), shown while the day's bar is short of it, covered once reached.

extension Rewards {
    /// One day of the picture, in whole minutes.
    struct ChartDay: Equatable {
        var day: Day
        var learning: Int
        var reward: Int
        var points: Int
        var isEmpty: Bool { learning <= 0 && reward <= 0 && points == 0 }
    }

    /// Consecutive empty days folded from this many on.
    static let chartFoldFrom = 3

    static func reportChart(child: String, days: [ChartDay], goal: Int, cap: Int, width: Int, unicode: Bool,
                            color: Bool) -> String {
        let width = min(max(width, 40), 160)
        func paint(_ s: String, _ code: String) -> String { color && !s.isEmpty ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
        let learnTotal = days.reduce(0) { $0 + max(0, $1.learning) }
        let rewardTotal = days.reduce(0) { $0 + max(0, $1.reward) }
        let pointTotal = days.reduce(0) { $0 + $1.points }
        // Number columns as wide as the totals they end in.
        let nL = max(3, String(learnTotal).count), nR = max(3, String(rewardTotal).count)
        let nP = max(3, String(pointTotal).count, days.map { String($0.points).count }.max() ?? 0)
        let label = 10  // "Sun 22 Nov"
        let fixed = label + 1 + 1 + nL + 2 + 1 + nR + 2 + nP
        let bar = max(4, (width - 1 - fixed) / 2)
        let learnScale = max(1, goal, days.map(\.learning).max() ?? 0)
        let rewardScale = max(1, cap, days.map(\.reward).max() ?? 0)
        let mark: Character = unicode ? "│" : "|"
        let empty: Character = unicode ? "·" : "."

        func right(_ s: String, _ w: Int) -> String { String(repeating: " ", count: max(0, w - s.count)) + s }
        func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - s.count)) }
        /// A bar of `value` in `bar` cells against `scale`, the limit's
        /// mark where the bar does not reach it; painted up to the limit
        /// in `code`, past it in `over` (the cap: red).
        func drawn(_ value: Int, scale: Int, limit: Int, code: String, over: String?) -> String {
            let eighths = max(0, value) >= scale ? bar * 8 : max(0, value) * bar * 8 / scale
            var cells: [Character]
            if value <= 0 {
                cells = [empty]
            } else if unicode {
                let parts: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]
                cells = Array(repeating: "█", count: eighths / 8)
                if eighths % 8 > 0 { cells.append(parts[eighths % 8 - 1]) }
                if cells.isEmpty { cells = ["▏"] }
            } else {
                cells = Array(repeating: "#", count: max(1, (eighths + 4) / 8))
            }
            // The limit's cell (never the first, where every bar begins):
            // a bar short of the limit ends before it and the mark shows; a
            // bar at or past it covers it.
            let at = max(min(1, bar - 1), min(bar - 1, limit * bar / scale))
            let full: Character = unicode ? "█" : "#"
            if limit > 0 && value < limit && value > 0 && cells.count > at { cells = Array(cells.prefix(at)) }
            if limit > 0 && value >= limit && cells.count <= at { cells += Array(repeating: full, count: at + 1 - cells.count) }
            let filled = cells.count
            cells += Array(repeating: " ", count: max(0, bar - cells.count))
            if limit > 0, at >= filled { cells[at] = mark }
            // The painted part: the bar, split where it passes the limit.
            let barText = String(cells[0..<filled]), rest = String(cells[filled...])
            if let over, limit > 0, value > limit {
                let split = min(filled, max(1, at))
                return paint(String(cells[0..<split]), code) + paint(String(cells[split..<filled]), over) + rest
            }
            return (value > 0 ? paint(barText, code) : barText) + rest
        }
        func dayLabel(_ d: Day) -> String {
            let wd = String(Day.weekdayNames[d.weekday].prefix(3)), mo = String(Day.monthNames[d.month - 1].prefix(3))
            return "\(wd) \(d.day < 10 ? " " : "")\(d.day) \(mo)"
        }
        func short(_ d: Day) -> String {
            "\(d.day) \(Day.monthNames[d.month - 1].prefix(3))"
        }
        func trimmed(_ s: String) -> String {
            var s = s
            while s.last == " " { s.removeLast() }
            return s
        }

        var out = ""
        let first = days.first?.day, last = days.last?.day
        /// The first of `forms` that fits the width, else the last cut to it.
        func fit(_ forms: [String]) -> String {
            forms.first { Text.columns($0) <= width - 1 } ?? Text.fitted(forms.last!, columns: width - 1)
        }
        let name = child.terminalSafe
        let span = first.map { f in last.map { "\(short(f)) \(f.year) to \(short($0)) \($0.year)" } ?? "" } ?? ""
        out += trimmed(fit(["\(name), \(span)", name])) + "\n"
        out += fit(["\(mark) learning goal \(goal) min, reward cap \(cap) min a day", "\(mark) goal \(goal) min learning, cap \(cap) reward",
                    "\(mark) goal \(goal), cap \(cap)"]) + "\n"
        let head = pad(" ", label) + " " + pad("learning", bar + 1 + nL) + "  " + pad("reward", bar + 1 + nR) + "  " + right("pts", nP)
        out += trimmed(head) + "\n"
        var i = 0
        while i < days.count {
            var j = i
            while j < days.count && days[j].isEmpty { j += 1 }
            if j - i >= chartFoldFrom {
                let n = j - i, from = short(days[i].day), to = short(days[j - 1].day)
                let forms = ["\(empty) \(n) days with nothing, \(from) to \(to)", "\(empty) \(n) empty days, \(from) to \(to)",
                             "\(empty) \(n) empty days to \(to)", "\(empty) \(n) empty days"]
                out += fit(forms.map { pad(" ", label) + " " + $0 }) + "\n"
                i = j
                continue
            }
            let d = days[i]
            let row = dayLabel(d.day) + " " + drawn(d.learning, scale: learnScale, limit: goal, code: "32", over: nil)
                + " " + right(String(max(0, d.learning)), nL) + "  "
                + drawn(d.reward, scale: rewardScale, limit: cap, code: "33", over: "31") + " " + right(String(max(0, d.reward)), nR)
                + "  " + right(String(d.points), nP)
            out += row + "\n"
            i += 1
        }
        let total = pad("total", label) + " " + String(repeating: " ", count: bar) + " " + right(String(learnTotal), nL) + "  "
            + String(repeating: " ", count: bar) + " " + right(String(rewardTotal), nR) + "  " + right(String(pointTotal), nP)
        out += total + "\n"
        return out
    }
}
