// Keeping in touch by the last contact: a log of times you were in touch
// with someone (`playa contacted`, or a message sent with `playa open`), and
// cadences (`playa schedule NAME --every 2w`) that make a person due a
// cadence after the last contact rather than by the clock.
//
// Invariants:
// - A cadence's due days are pure in the cadence and the last contact's
//   day: the base (the last contact's day, or the day the cadence was set
//   when there is none) plus k cadences, k ≥ 1. A month adds calendar
//   months, the day kept or the month's last day (Jan 31 → Feb 28 → Mar 31),
//   never drifting.
// - A contact only ever pushes the next due day later: the last contact is
//   the latest one recorded, whatever the order the log arrives in.
// - A reminder drawn for a day that a recorded contact makes not due is
//   cancelled on every copy that knows the contact (the fold), so it is
//   never notified there.
//
// Journal: {"type":"contacted","contact":{"id","recipient_id","at","date",
// "via"?,"note"?,"event_id"?}}. `date` is the writer's local day of `at`:
// the day the cadence counts from, the same on every device.

extension Playa {
    /// How often to be in touch: every N days, weeks or months, counted from
    /// the last contact (or, before the first, from `since`, the day it was set).
    public struct Cadence: Equatable, Sendable {
        public enum Unit: String, Sendable { case day, week, month }
        public var count: Int
        public var unit: Unit
        public var since: Day

        public static let limits: [Unit: ClosedRange<Int>] = [.day: 1...366, .week: 1...52, .month: 1...24]

        public init(count: Int, unit: Unit, since: Day) {
            self.count = count
            self.unit = unit
            self.since = since
        }

        public var summary: String { "every \(count) \(unit.rawValue)\(count == 1 ? "" : "s")" }

        /// `d` plus `k` cadences.
        public func after(_ d: Day, times k: Int) -> Day {
            switch unit {
            case .day: return d.adding(days: k * count)
            case .week: return d.adding(days: 7 * k * count)
            case .month: return Cadence.adding(months: k * count, to: d)
            }
        }

        /// Calendar months: the same day of the month, or the month's last.
        public static func adding(months n: Int, to d: Day) -> Day {
            let m0 = d.year * 12 + (d.month - 1) + n
            let y = m0 / 12, m = m0 % 12 + 1
            return Day(year: y, month: m, day: min(d.day, Day.daysInMonth(year: y, month: m)))
        }

        /// The day a person is first due after their last contact `last`
        /// (nil: never recorded, counted from `since`). May be in the past: overdue.
        public func firstDue(last: Day?) -> Day { after(last ?? since, times: 1) }

        /// The first due day on or after `from`: the base plus k cadences, k ≥ 1.
        public func nextDue(last: Day?, onOrAfter from: Day) -> Day {
            let base = last ?? since
            let first = after(base, times: 1)
            if from <= first { return first }
            var k: Int
            switch unit {
            case .day, .week:
                let step = count * (unit == .week ? 7 : 1)
                k = (from - base + step - 1) / step
            case .month:
                k = max(1, ((from.year - base.year) * 12 + from.month - base.month) / count)
            }
            var d = after(base, times: k)
            while d < from { k += 1; d = after(base, times: k) }
            return d
        }

        /// Whether `d` is a day a reminder is drawn: a due day after the last contact.
        public func isDue(_ d: Day, last: Day?) -> Bool { nextDue(last: last, onOrAfter: d) == d }

        /// Whether a contact on `contact` leaves a reminder of day `d` due:
        /// not when it falls within one cadence before `d` (or after it).
        public func contactSatisfies(_ contact: Day, reminderOn d: Day) -> Bool { after(contact, times: 1) > d }

        public var json: JSON {
            .object(["mode": "every", "count": JSON(count), "unit": .string(unit.rawValue), "since": .string(since.description)])
        }

        public static func from(_ o: JSONObject) -> Cadence? {
            guard let u = o["unit"]?.string.flatMap(Unit.init(rawValue:)), let n = o["count"]?.int, limits[u]!.contains(Int(n)),
                  let s = o["since"]?.string.flatMap(Day.parse), (2000...maxYear).contains(s.year) else { return nil }
            return Cadence(count: Int(n), unit: u, since: s)
        }

        /// `2w`, `14d`, `3m`, `1 month`, `2 weeks`: what --every takes.
        public static func parse(_ s: String, since: Day) throws(ToolError) -> Cadence {
            let hint = "--every takes a count and a unit: days (14d), weeks (2w) or months (3m), not '\(s)'"
            let t = s.trimmingSpaces.lowercased()
            let digits = t.prefix { $0.isASCII && $0.isNumber }
            let word = String(t.dropFirst(digits.count)).trimmingSpaces
            let unit: Unit
            switch word {
            case "d", "day", "days": unit = .day
            case "w", "wk", "wks", "week", "weeks": unit = .week
            case "m", "mo", "month", "months": unit = .month
            default: throw .usage(hint)
            }
            let range = limits[unit]!
            guard let n = Int(digits) ?? (digits.isEmpty ? nil : Int.max) else { throw .usage(hint) }
            guard range.contains(n) else {
                throw .usage("--every takes \(range.lowerBound) to \(range.upperBound) \(unit.rawValue)s, not \(n)")
            }
            return Cadence(count: n, unit: unit, since: since)
        }
    }

    /// How one was in touch, besides the platforms.
    public static let contactWays = Platform.allCases.map(\.rawValue) + ["call", "in-person", "other"]
    public static let maxContactNote = 500
    /// The last year a contact's day or a cadence's start may fall in: due
    /// days are counted from them, and stay within the calendar (to 9999).
    public static let maxYear = 9000

    /// A time you were in touch with someone.
    public struct Contact: Equatable, Sendable {
        public var id: String
        public var recipientID: String
        public var at: Instant
        /// The local day of `at` where it was recorded: what cadences count from.
        public var date: Day
        public var via: String?
        public var note: String?
        /// The event that was sent, for a contact `playa open` recorded.
        public var eventID: String?

        public init(id: String, recipientID: String, at: Instant, date: Day, via: String? = nil, note: String? = nil, eventID: String? = nil) {
            self.id = id
            self.recipientID = recipientID
            self.at = at
            self.date = date
            self.via = via
            self.note = note
            self.eventID = eventID
        }

        public var json: JSONObject {
            var o: JSONObject = ["type": "contact", "id": .string(id), "recipient_id": .string(recipientID), "at": .string(at.description),
                                 "date": .string(date.description), "via": JSON(via), "note": JSON(note)]
            if let e = eventID { o["event_id"] = .string(e) }
            return o
        }

        /// Later first: by time, then id (one order on every device).
        public func isLater(than c: Contact) -> Bool { (at, id) > (c.at, c.id) }

        /// Reads a contact back; an untrusted one (an import) has each field checked.
        public static func from(_ o: JSONObject, trusted: Bool = false) -> Result<Contact, ToolError> {
            func bad(_ m: String) -> Result<Contact, ToolError> { .failure(.data(m)) }
            if !trusted, let e = typeProblem(o, strings: ["id", "recipient_id", "at", "date", "via", "note", "event_id"]) { return bad("contact: \(e)") }
            guard let id = o["id"]?.string, !id.isEmpty, let rid = o["recipient_id"]?.string, !rid.isEmpty else {
                return bad("a contact needs \"id\" and \"recipient_id\"")
            }
            guard let at = o["at"]?.string.flatMap({ RFC3339.parse($0)?.instant }), Clock.plausible(at, now: at, what: "", lead: nil) == nil else {
                return bad("contact \(id): \"at\" must be an RFC 3339 time like 2026-11-22T08:15:00-05:00, from 2000 on")
            }
            guard let date = o["date"]?.string.flatMap(Day.parse), (2000...maxYear).contains(date.year),
                  abs(date.daysSinceEpoch - Int(at.ms / 86_400_000)) <= 1 else {
                return bad("contact \(id): \"date\" must be the day of \"at\" (YYYY-MM-DD)")
            }
            let via = o["via"]?.string
            if let v = via, !contactWays.contains(v) { return bad("contact \(id): \"via\" must be one of \(contactWays.joined(separator: ", "))") }
            let note = o["note"]?.string
            // A peer's note is checked as a typed one: every export imports.
            if let n = note, let e = validateContactNote(n) { return bad("contact \(id): \(e)") }
            return .success(Contact(id: id, recipientID: rid, at: at, date: date, via: via, note: note, eventID: o["event_id"]?.string))
        }
    }

    /// A contact's note: like a message, at most 500 characters.
    public static func validateContactNote(_ s: String) -> String? {
        if Text.isBlank(s) { return "a note must not be empty or only spaces" }
        if s.utf8.count > maxMessageBytes { return "a note must be at most \(maxMessageBytes) bytes of UTF-8 (this one has \(s.utf8.count))" }
        if s.count > maxContactNote { return "a note must be at most \(maxContactNote) characters (this one has \(s.count))" }
        return nil
    }

    static func saved(_ c: Contact) -> JSONObject { ["type": "contacted", "contact": .object(c.json)] }
}
