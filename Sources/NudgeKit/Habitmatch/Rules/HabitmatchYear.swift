// A year of a habit at a glance (`habitmatch calendar --year`): a heat map
// with weeks as columns and weekdays as rows, as Loop Habit Tracker and
// GitHub draw one; a done day shaded by the habit's strength that day,
// scored as Loop scores it. Pure: the width, the locale and the colour are
// given.
//
// Invariants: every day of the year shown stands in its week's column and
// its weekday's row; no line is wider than `width` - 1 or ends in a space;
// a done day is never drawn as a day not done; strength stays in 0...1.

extension Habitmatch {
    /// Loop Habit Tracker's habit strength of a daily habit after each day
    /// from `from` (or the first day done) to `to`: yesterday's times a
    /// multiplier, plus the rest for a day done (0.5^(1/13), so thirteen
    /// days halve what a day adds). Any frequency: `progress`.
    static func strengths(_ done: Set<Day>, from: Day, to: Day) -> [Day: Double] {
        let p = progress(done: done, every: .daily, today: to)
        var out: [Day: Double] = [:]
        for (i, x) in p.strength.enumerated() where p.first.adding(days: i) >= from { out[p.first.adding(days: i)] = x }
        return out
    }

    /// The shade of a done day by its strength: four steps.
    static func shade(_ strength: Double, unicode: Bool) -> Character {
        let levels: [Character] = unicode ? ["░", "▒", "▓", "█"] : ["-", "+", "*", "#"]
        return levels[min(3, max(0, Int(strength * 4)))]
    }

    static func yearMap(title: String, year: Int, done: Set<Day>, today: Day, width: Int, unicode: Bool, color: Bool,
                        progress given: Progress? = nil) -> String {
        let p = given ?? progress(done: done, every: .daily, today: today)
        let width = min(max(width, 20), 1000)
        let jan1 = Day(year: year, month: 1, day: 1), dec31 = Day(year: year, month: 12, day: 31)
        let start = jan1.adding(days: -((jan1.weekday + 6) % 7))  // the Monday of Jan 1's week
        let weeks = ((dec31) - start) / 7 + 1
        // The columns that fit, ending with the week of today (or the year's last).
        let fit = max(1, width - 1 - 3)
        let end = today < jan1 ? 0 : min(weeks - 1, (min(today, dec31) - start) / 7)
        let first = max(0, min(weeks - fit, end - fit + 1))
        let shown = first..<min(weeks, first + fit)
        let none: Character = unicode ? "·" : "."
        func paint(_ c: Character) -> String { color ? "\u{1B}[32m\(c)\u{1B}[0m" : String(c) }

        let name = title.terminalSafe, yearText = ", \(year)"
        // Weeks before the first shown are said (those after today hold nothing).
        let from = start.adding(days: shown.lowerBound * 7)
        let since = "\(from.day) \(Day.monthNames[from.month - 1].prefix(3))"
        let part = shown.lowerBound > 0 ? [" (from \(since); a wider terminal shows all)", " (from \(since))"] : []
        let heads = part.map { name + yearText + $0 } + [name + yearText]
        var out = (heads.first { Text.columns($0) <= width - 1 }
            ?? Text.fitted(name, columns: width - 1 - Text.columns(yearText + (part.last ?? ""))) + yearText + (part.last ?? "")) + "\n"
        // Month names over the column of the week their first day falls in.
        var months = [Character](repeating: " ", count: 3 + shown.count)
        var free = 3
        for mo in 1...12 {
            let col = (Day(year: year, month: mo, day: 1) - start) / 7
            guard shown.contains(col) else { continue }
            let at = 3 + col - shown.lowerBound
            let name = Array(Day.monthNames[mo - 1].prefix(3))
            if at >= free && at + name.count <= months.count {
                for (i, ch) in name.enumerated() { months[at + i] = ch }
                free = at + name.count + 1
            }
        }
        out += String(String(months).reversed().drop { $0 == " " }.reversed()) + "\n"
        for row in 0..<7 {
            var line = ["Mo ", "Tu ", "We ", "Th ", "Fr ", "Sa ", "Su "][row]
            for w in shown {
                let d = start.adding(days: w * 7 + row)
                if d < jan1 || d > dec31 || d > today { line += " " }
                else if p.mark(d) == .yes || p.mark(d) == .auto { line += paint(shade(p.strength(d), unicode: unicode)) }
                else if p.mark(d) == .rest { line += unicode ? "-" : "_" }
                else { line += String(none) }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        let levels = unicode ? "░▒▓█" : "-+*#"
        let pct = !p.marks.isEmpty && min(today, dec31) >= p.first ? Int((p.strength(min(today, dec31)) * 100).rounded()) : nil
        let streak = "streak \(p.current), best \(p.longest)"
        let legend = ["\(none) not done  \(levels) done, by strength" + (pct.map { "; strength \($0)%, " } ?? "; ") + streak,
                      "\(levels) by strength" + (pct.map { ", \($0)% now; " } ?? "; ") + streak,
                      (pct.map { "strength \($0)%, " } ?? "") + streak, streak]
        out += (legend.first { Text.columns($0) <= width - 1 } ?? Text.fitted(legend.last!, columns: width - 1)) + "\n"
        return out
    }
}
