// Colour for yomo's terminal layout: which state a reminder is in (due,
// overdue, snoozed) and the SGR codes a theme gives each. Pure. Colour
// itself is only ever used on a terminal, never with NO_COLOR (Output.style).

public struct YomoTheme: Equatable, Sendable {
    public enum State: String, Sendable, CaseIterable { case due, overdue, snoozed }

    /// SGR parameters per state ("1;31"); nil: plain.
    public var codes: [State: String]

    public static let named: [String: YomoTheme] = [
        "default": YomoTheme(codes: [.due: "1;33", .overdue: "1;31", .snoozed: "36"]),
        "dark": YomoTheme(codes: [.due: "1;93", .overdue: "1;91", .snoozed: "96"]),
        "light": YomoTheme(codes: [.due: "1;34", .overdue: "1;31", .snoozed: "35"]),
        "mono": YomoTheme(codes: [.due: "1", .overdue: "1;4", .snoozed: "2"]),
        "none": YomoTheme(codes: [:]),
    ]

    /// A theme by name, or spelled out: "due=1;33,overdue=31,snoozed=2".
    public static func parse(_ s: String) -> YomoTheme? {
        let v = s.trimmingSpaces
        if let t = named[v.lowercased()] { return t }
        var codes: [State: String] = [:]
        for part in v.split(separator: ",") {
            let kv = part.split(separator: "=", maxSplits: 1)
            guard kv.count == 2, let st = State(rawValue: String(kv[0]).trimmingSpaces.lowercased()) else { return nil }
            let code = String(kv[1]).trimmingSpaces
            guard !code.isEmpty, code.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 59 }) else { return nil }
            codes[st] = code
        }
        return codes.isEmpty ? nil : YomoTheme(codes: codes)
    }

    public static let hint = "theme must be default, dark, light, mono or none, or like due=1;33,overdue=1;31,snoozed=36"

    /// How long after its time a reminder is due before it is overdue.
    public static let graceMillis: Int64 = 3_600_000

    /// The state a reminder is shown in at `now`, if any: snoozed while a
    /// snooze waits; due once its time has come; overdue an hour after that.
    public static func state(_ r: Reminder, now: Instant) -> State? {
        if r.completed { return nil }
        if let u = r.snoozedUntil, u > now { return .snoozed }
        let t = r.effectiveTrigger
        if t > now { return nil }
        return now.ms - t.ms >= graceMillis ? .overdue : .due
    }
}
