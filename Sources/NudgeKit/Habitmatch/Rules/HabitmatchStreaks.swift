// Progress over done days: the current and longest streak, the month as
// calendar rows, and the streak lengths worth a notification.
//
// Invariants: a streak counts consecutive calendar days (months, years and
// leap days included); the current streak ends today, or yesterday while
// today is not marked yet; days after today do not count.

extension Habitmatch {
    /// Current and longest streak of consecutive done days. The current one
    /// ends today, or yesterday while today is not marked yet.
    public static func streaks(_ done: Set<Day>, today: Day) -> (current: Int, longest: Int) {
        var longest = 0
        var run = 0
        var prev: Day? = nil
        for d in done.sorted() where d <= today {
            run = (prev.map { d - $0 == 1 } ?? false) ? run + 1 : 1
            longest = max(longest, run)
            prev = d
        }
        var current = 0
        var d = done.contains(today) ? today : today.adding(days: -1)
        while done.contains(d) { current += 1; d = d.adding(days: -1) }
        return (current, longest)
    }

    /// The month's days as calendar rows (weeks starting Monday); nil pads.
    public static func monthGrid(year: Int, month: Int) -> [[Day?]] {
        let first = Day(year: year, month: month, day: 1)
        var rows: [[Day?]] = []
        var row = [Day?](repeating: nil, count: (first.weekday + 6) % 7)
        for n in 1...Day.daysInMonth(year: year, month: month) {
            row.append(Day(year: year, month: month, day: n))
            if row.count == 7 { rows.append(row); row = [] }
        }
        if !row.isEmpty { rows.append(row + [Day?](repeating: nil, count: 7 - row.count)) }
        return rows
    }

    public static let milestones = [7, 30, 100]
}
