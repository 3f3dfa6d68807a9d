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
    /// An allowance record as it stands at `now`: one written earlier (a
    /// child's status file, by the last parent's or root's run) counts
    /// nothing granted on a later day, and its lock and downtime are read
    /// again from the end and the spans it carries.
    public static func allowance(_ a: JSONObject, at now: Instant, zone: Zone) -> JSONObject {
        var o = a
        let today = zone.day(of: now)
        if let d = a["date"]?.string.flatMap(Day.parse), d != today {
            o["date"] = .string(today.description)
            for k in ["granted_minutes", "used_minutes", "left_minutes"] { o[k] = 0 }
        }
        let time = { (k: String, x: JSONObject) in x[k]?.string.flatMap { RFC3339.parse($0) }?.instant }
        let lockEnd = time("locked_until", a)
        let forever = a["locked"]?.bool == true && lockEnd == nil
        let locked = forever || (lockEnd.map { $0 > now } ?? false)
        o["locked"] = .bool(locked)
        let spans = (a["downtimes"]?.array ?? []).compactMap(\.object).compactMap { x -> (Instant, Instant)? in
            guard let s = time("start", x), let e = time("end", x), s < e else { return nil }
            return (s, e)
        }
        o["downtime_start"] = nil
        o["downtime_end"] = nil
        let current = spans.first { $0.1 > now }
        if let (s, e) = current {
            o["downtime_start"] = .string(zone.format(s))
            o["downtime_end"] = .string(zone.format(e))
        }
        o["blocked"] = locked ? "locked" : current.map { $0.0 <= now } == true ? "downtime" : nil
        if o["blocked"] == .null { o["blocked"] = nil }
        return o
    }

    /// What the widget shows, read from an allowance record at `now` (`allowance(_:at:zone:)`).
    public struct Widget: Equatable, Sendable {
        public var left: Int
        public var balance: Int
        public var state: String  // ok, low, out, downtime, locked
        public var until: Instant?  // the end of a lock or of downtime
        public var nextDowntime: Instant?  // its start, if one comes within a day

        public init(_ record: JSONObject, now: Instant, zone: Zone) {
            let a = Rewards.allowance(record, at: now, zone: zone)
            let time = { (k: String) in a[k]?.string.flatMap { RFC3339.parse($0) }?.instant }
            left = Int(max(0, min(1440, a["left_minutes"]?.int ?? 0)))
            balance = Int(max(-1_000_000_000, min(1_000_000_000, a["balance"]?.int ?? 0)))
            let start = time("downtime_start"), end = time("downtime_end")
            switch a["blocked"]?.string {
            case "locked": state = "locked"; until = time("locked_until")
            case "downtime": state = "downtime"; until = end
            default: state = left == 0 ? "out" : left <= 5 ? "low" : "ok"; until = nil
            }
            if let s = start, s > now, s.seconds - now.seconds <= 86_400 { nextDowntime = s } else { nextDowntime = nil }
        }
    }

    /// One line for a status bar: plain text, waybar's JSON or tmux's colours.
    public static func widget(_ w: Widget, style: String, zone: Zone, now: Instant) -> String {
        // "20:30" today, "Sun 20:00" within a week, "5 Dec" later.
        func hm(_ t: Instant) -> String {
            let l = zone.local(t)
            let clock = TimeOfDay(hour: l.time.hour, minute: l.time.minute).description
            let days = l.day.daysSinceEpoch - zone.day(of: now).daysSinceEpoch
            if days == 0 { return clock }
            if days > 0 && days < 7 { return String(Day.weekdayNames[l.day.weekday].prefix(3)) + " " + clock }
            return "\(l.day.day) \(String(Day.monthNames[l.day.month - 1].prefix(3)))"
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
