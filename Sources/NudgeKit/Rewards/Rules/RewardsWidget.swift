// The countdown a child sees in a status bar (waybar, polybar, tmux):
// minutes of reward time left, when downtime comes, the balance; or that
// reward time is locked or it is downtime, and until when. Built from the
// allowance record (a child in a family folder reads it from their status
// file), at the time it is drawn: a downtime or a lock that began since
// the record was written shows.
//
// Invariants: pure; the class is one of ok, low (five minutes or less),
// out, downtime, locked.

extension Rewards {
    /// What the widget shows, read from an allowance record at `now`.
    public struct Widget: Equatable, Sendable {
        public var left: Int
        public var balance: Int
        public var state: String  // ok, low, out, downtime, locked
        public var until: Instant?  // the end of a lock or of downtime
        public var nextDowntime: Instant?  // its start, if one comes within a day

        public init(_ a: JSONObject, now: Instant) {
            let asOf = a["as_of"]?.string.flatMap { RFC3339.parse($0) }?.instant
            // A record from an earlier day: nothing granted yet today.
            let stale = asOf.map { now.seconds - $0.seconds > 86_400 } ?? false
            left = stale ? 0 : Int(max(0, min(1440, a["left_minutes"]?.int ?? 0)))
            balance = Int(max(-1_000_000_000, min(1_000_000_000, a["balance"]?.int ?? 0)))
            let lockEnd = a["locked_until"]?.string.flatMap { RFC3339.parse($0) }?.instant
            let forever = a["locked"]?.bool == true && lockEnd == nil
            let start = a["downtime_start"]?.string.flatMap { RFC3339.parse($0) }?.instant
            let end = a["downtime_end"]?.string.flatMap { RFC3339.parse($0) }?.instant
            if forever || (lockEnd.map { $0 > now } ?? false) {
                state = "locked"; until = lockEnd
            } else if let s = start, let e = end, s <= now, now < e {
                state = "downtime"; until = e
            } else {
                state = left == 0 ? "out" : left <= 5 ? "low" : "ok"; until = nil
            }
            if let s = start, s > now, s.seconds - now.seconds <= 86_400 { nextDowntime = s } else { nextDowntime = nil }
        }
    }

    /// One line for a status bar: plain text, waybar's JSON or tmux's colours.
    public static func widget(_ w: Widget, style: String, zone: Zone) -> String {
        func hm(_ t: Instant) -> String {
            let l = zone.local(t).time
            return "\(l.hour < 10 ? "0" : "")\(l.hour):\(l.minute < 10 ? "0" : "")\(l.minute)"
        }
        let short: String
        let tip: String
        switch w.state {
        case "locked":
            short = "🔒 locked" + (w.until.map { " till \(hm($0))" } ?? "")
            tip = "A parent paused reward time" + (w.until.map { " until \(hm($0))" } ?? " until they lift it") + "."
        case "downtime":
            short = "🌙 downtime" + (w.until.map { " till \(hm($0))" } ?? "")
            tip = "Downtime: reward apps do not run" + (w.until.map { " until \(hm($0))" } ?? "") + "."
        default:
            short = "🎮 \(w.left)m" + (w.nextDowntime.map { " · 🌙 \(hm($0))" } ?? "") + " · \(w.balance) pts"
            tip = "\(w.left) minute\(w.left == 1 ? "" : "s") of reward time left today"
                + (w.nextDowntime.map { "; downtime at \(hm($0))" } ?? "") + "; \(w.balance) points to redeem."
        }
        switch style {
        case "waybar":
            let o: JSONObject = ["text": .string(short), "tooltip": .string(tip), "class": .string(w.state), "alt": .string(w.state),
                                 "percentage": JSON(w.state == "ok" || w.state == "low" ? min(100, w.left * 100 / 60) : 0)]
            return o.serialized + "\n"
        case "tmux":
            let colour = w.state == "ok" ? "green" : w.state == "low" ? "yellow" : w.state == "out" ? "red" : "blue"
            return "#[fg=\(colour)]\(short)#[default]\n"
        default:
            return short + "\n"
        }
    }
}
