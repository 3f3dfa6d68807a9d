// Dates that matter: a birthday, an anniversary or any named day of a
// recipient, with a reminder on the day or N days before, and a message pool
// of its own. Each is kept with its recipient (`"dates":[…]`), so it syncs
// and erases with them.
//
// Invariants:
// - An occasion falls on its month and day every year; Feb 29 falls on
//   Feb 28 in a common year (the last day of February, as most calendars
//   and people keep it).
// - Its reminder is drawn on the day `before` days ahead of an occurrence,
//   at 09:00, with an id made from the recipient, the day, the label and
//   the draw seed: the same on every device, apart from the schedule's.
// - The year is optional; with it, `years` says how many years it will be.

extension Playa {
    public struct Occasion: Equatable, Sendable {
        public var label: String
        public var month: Int
        public var day: Int
        public var year: Int?
        /// Days ahead of it that the reminder comes (0: on the day).
        public var before: Int
        /// What to send: drawn at random; none means the default greeting.
        public var messages: [String]

        public static let maxBefore = 60
        public static let maxPerRecipient = 20
        public static let remindAt = TimeOfDay(hour: 9, minute: 0)

        public init(label: String, month: Int, day: Int, year: Int? = nil, before: Int = 0, messages: [String] = []) {
            self.label = label
            self.month = month
            self.day = day
            self.year = year
            self.before = before
            self.messages = messages
        }

        /// As given: `1990-03-14`, or `--03-14` without a year (vCard's form).
        public var dateText: String {
            let md = (month < 10 ? "0" : "") + "\(month)-" + (day < 10 ? "0" : "") + "\(day)"
            return year.map { String(repeating: "0", count: max(0, 4 - "\($0)".count)) + "\($0)-" + md } ?? "--" + md
        }

        /// The day it falls on in `y`: Feb 29 is Feb 28 in a common year.
        public func on(year y: Int) -> Day {
            Day(year: y, month: month, day: min(day, Day.daysInMonth(year: y, month: month)))
        }

        /// The first occurrence on or after `d` (with a year, not before it).
        public func next(onOrAfter d: Day) -> Day {
            if let y = year, d.year <= y { return on(year: y) }
            let this = on(year: d.year)
            return this < d ? on(year: d.year + 1) : this
        }

        /// The occurrence whose reminder falls on `d`, if one does.
        public func occurrence(remindedOn d: Day) -> Day? {
            let o = next(onOrAfter: d)
            return o.adding(days: -before) == d ? o : nil
        }

        /// The greeting sent when the occasion has no messages of its own.
        public var defaultMessage: String {
            switch label.lowercased() {
            case "birthday": return "Happy birthday!"
            case "anniversary": return "Happy anniversary!"
            default: return "Thinking of you today!"
            }
        }

        public var json: JSON {
            var o: JSONObject = ["label": .string(label), "month": JSON(month), "day": JSON(day), "before": JSON(before),
                                 "messages": JSON(messages)]
            if let y = year { o["year"] = JSON(y) }
            return .object(o)
        }

        /// Reads one back; nil when any field breaks the rules `date add` keeps.
        public static func from(_ j: JSON) -> Occasion? {
            guard let o = j.object, let label = o["label"]?.string, validateLabel(label) == nil,
                  let m = o["month"]?.int, (1...12).contains(m), let d = o["day"]?.int,
                  d >= 1, d <= Int64(Day.daysInMonth(year: 2000, month: Int(m))) else { return nil }
            var year: Int? = nil
            if let y = o["year"], !y.isNull {
                guard let v = y.int, (1800...9000).contains(v), Int(d) <= Day.daysInMonth(year: Int(v), month: Int(m)) else { return nil }
                year = Int(v)
            }
            var before: Int64 = 0
            if let b = o["before"], !b.isNull {
                guard let v = b.int, (0...Int64(maxBefore)).contains(v) else { return nil }
                before = v
            }
            if let m = o["messages"], !m.isNull, m.array == nil { return nil }
            var messages: [String] = []
            for t in o["messages"]?.array ?? [] {
                guard let s = t.string, validateMessage(s) == nil else { return nil }
                messages.append(s)
            }
            guard messages.count <= maxMessages else { return nil }
            return Occasion(label: label, month: Int(m), day: Int(d), year: year, before: Int(before), messages: messages)
        }

        /// A day as people and address books write it: `1990-03-14`,
        /// `19900314` (vCard 3.0/4.0), `03-14`, `--03-14` or `--0314` (no year).
        public static func parseDate(_ s: String) -> (month: Int, day: Int, year: Int?)? {
            let t = s.trimmingSpaces
            func n(_ x: Substring) -> Int? { x.allSatisfy { $0.isASCII && $0.isNumber } ? Int(x) : nil }
            var year: Int? = nil, m: Int?, d: Int?
            if let day = Day.parse(t) {
                (year, m, d) = (day.year, day.month, day.day)
            } else if t.count == 8, let _ = n(Substring(t)) {  // 19900314
                (year, m, d) = (n(t.prefix(4)), n(t.dropFirst(4).prefix(2)), n(t.suffix(2)))
            } else {
                let md = t.hasPrefix("--") ? t.dropFirst(2) : Substring(t)
                if md.count == 5, md.dropFirst(2).first == "-" {  // 03-14, --03-14
                    (m, d) = (n(md.prefix(2)), n(md.suffix(2)))
                } else if md.count == 4, t.hasPrefix("--") {  // --0314
                    (m, d) = (n(md.prefix(2)), n(md.suffix(2)))
                }
            }
            guard let mm = m, let dd = d, (1...12).contains(mm), dd >= 1, dd <= Day.daysInMonth(year: year ?? 2000, month: mm) else { return nil }
            if let y = year, !(1800...9000).contains(y) { return nil }
            return (mm, dd, year)
        }
    }

    /// A label: a word or two people would use ("birthday", "name day").
    public static func validateLabel(_ s: String) -> String? {
        let t = s.trimmingSpaces
        guard (1...40).contains(t.count), t == s, !Text.isBlank(t),
              t.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || $0.properties.numericType == .decimal || $0.properties.generalCategory == .nonspacingMark
                  || $0.properties.generalCategory == .spacingMark || " -'_".unicodeScalars.contains($0) }) else {
            return "a date's label is 1 to 40 letters, digits, spaces, '-', '_' or \"'\", like birthday or anniversary"
        }
        return nil
    }

    /// "RECIPIENT|DAY|date:LABEL|SEED": what a date reminder's id is made from.
    static func occasionKey(_ r: Recipient, date: Day, label: String, seed: UInt64) -> String {
        r.id + "|" + date.description + "|date:" + label.lowercased() + "|" + IDs.hex(seed, digits: 16)
    }

    /// Whether `e` is the reminder of one of `r`'s dates (not the schedule's).
    static func isOccasionEvent(_ e: Event, of r: Recipient) -> Bool {
        r.dates.contains { IDs.stable(occasionKey(r, date: e.date, label: $0.label, seed: r.seed)) == e.id }
    }

    /// The reminders of `r`'s dates that fall on `date`: one each, at 09:00,
    /// with a message from the occasion's pool (or its greeting), an id made
    /// from the recipient, the day, the label and `seed`. Paused: none.
    public static func occasionEvents(_ r: Recipient, date: Day, zone: Zone, seed: UInt64? = nil) -> [Event] {
        guard !r.paused, !r.dates.isEmpty else { return [] }
        let s = seed ?? r.seed
        var out: [Event] = []
        for o in r.dates where o.occurrence(remindedOn: date) != nil {
            let key = occasionKey(r, date: date, label: o.label, seed: s)
            var rng = SeededRandom(seed: s ^ StableHash.fnv1a(key))
            let text = o.messages.isEmpty ? o.defaultMessage : o.messages[uniform(0...(o.messages.count - 1), &rng)]
            guard let (t, at) = slots([Occasion.remindAt], date: date, zone: zone).first else { continue }
            out.append(Event(id: IDs.stable(key), recipientID: r.id, date: date, time: t, at: at, messageID: nil, message: text,
                             status: .pending, notification: .pending, error: nil))
        }
        return out
    }
}
