// What a member may say: limits, and the checks on names, bios, e-mail
// addresses, zones, ids and habits. The commands check what a user types
// with these, and the fold checks every peer's event with the same ones,
// because a peer can write anything in their own journal.
//
// Invariants: a zone is an IANA name from a safe set of characters, never
// a path; sizes are bounded in characters and in bytes; a check returns
// the accepted value (or true) and nil (or false) for anything else.

extension Habitmatch {
    /// Habits a member keeps at once.
    public static let maxHabits = 3
    /// Buddies and accepts still waiting, unless `max_buddies` says otherwise.
    public static let defaultMaxBuddies = 3
    /// The most `max_buddies` may say: what the fold allows any member (each
    /// member's own cap is in their configuration, which others cannot read).
    public static let maxBuddiesLimit = 20
    /// The longest check-in.
    public static let maxMeetingMinutes = 30
    /// The most bytes of one member's file in each folder that any other
    /// member reads (and so keeps): years of honest use, never a flood.
    public static let fileQuota = ["journal": 1 << 20, "private": 4 << 20, "spool": 2 << 20, "pairs": 4 << 20, "reports": 1 << 20]
    /// How far ahead of the reader's clock another member's batch may be
    /// stamped before it waits for its time.
    public static let clockSkewMillis: Int64 = 10 * 60_000
    /// The most bytes of state one member's events may make every reader
    /// keep (chat, meetings, reports, done days), counted by the fold: past
    /// it their further events of those kinds are ignored, and the pool's
    /// owner is told.
    public static let memberQuotaBytes = 2 << 20

    /// The offset of the zone furthest ahead of UTC (UTC+14, the Line Islands).
    public static let furthestAheadMillis: Int64 = 14 * 3_600_000

    /// The last day a done mark in a batch stamped `at` may name: the day
    /// after `at`'s day in the zone furthest ahead, whatever the member's
    /// own zone. So the fold needs no zone, and opens no zone file: in a
    /// host pool which zone files a command opens, and when, can be watched.
    public static func lastMarkDay(stampedAt at: Instant) -> Day {
        let ahead = at.ms > Int64.max - furthestAheadMillis ? Int64.max : at.ms + furthestAheadMillis
        return Zone.utc.day(of: Instant(ms: ahead)).adding(days: 1)
    }

    /// What an event of a kind that accumulates costs its author's quota
    /// (nil: a kind bounded by construction, like a profile or a swipe).
    static func keptCost(_ type: String, _ e: JSONObject) -> Int? {
        switch type {
        case "chat": return 32 + (e["text"]?.string?.utf8.count ?? 0)
        case "meeting": return 64 + (e["description"]?.string?.utf8.count ?? 0)
        case "meeting_move", "meeting_cancel": return 32
        case "report": return 32 + (e["reason"]?.string?.utf8.count ?? 0)
        case "done", "undone": return e["amount"] == nil ? 16 : 24
        case "habit_set": return 32
        default: return nil
        }
    }

    /// Characters in a chat message.
    public static let maxChat = 1000
    /// Characters in a meeting's description.
    public static let maxDescription = 2000

    /// What a peer's journal may say, checked by the fold as by the commands.
    public static func validName(_ s: String) -> String? {
        let t = s.trimmingSpaces
        return (1...60).contains(t.count) && t.utf8.count <= 240 && !hasControl(t) ? t : nil
    }
    /// Control characters (escape sequences, carriage returns, bidi
    /// overrides) that would reach a terminal through `jq -r`.
    /// Line breaks and tabs are allowed where text has lines (`lines`):
    /// chat, a meeting's description.
    static func hasControl(_ s: String, lines: Bool = false) -> Bool {
        s.unicodeScalars.contains { u in
            if lines && (u == "\n" || u == "\t") { return false }
            return u.value < 0x20 || (0x7F...0x9F).contains(u.value) || (0x202A...0x202E).contains(u.value) || (0x2066...0x2069).contains(u.value)
        }
    }
    /// A chat message: 1 to `maxChat` characters and at most four bytes
    /// each, with no control characters but line breaks and tabs.
    public static func validChat(_ s: String) -> Bool {
        !s.isEmpty && s.count <= maxChat && s.utf8.count <= 4 * maxChat && !hasControl(s, lines: true)
    }
    /// When a chat line was written: the writer's clock (`at_ms`), which the
    /// batch's stamp may have run ahead of (stamps order every copy's
    /// changes, and follow a peer's clock that is ahead, by as much as the
    /// pool lets a clock be: `clockSkewMillis`), so that a line is shown at
    /// its own time, not dragged after another's. Never after its stamp,
    /// nor more than that skew before it (so nobody dates a reply long
    /// before the message it answers); the stamp's time without it.
    public static func chatTime(_ own: Int64?, stamp: Int64) -> Instant {
        guard let o = own else { return Instant(ms: stamp) }
        return Instant(ms: max(stamp - clockSkewMillis, min(o, stamp)))
    }
    /// A meeting's description: at most `maxDescription` characters, with no
    /// control characters but line breaks and tabs.
    public static func validDescription(_ s: String) -> Bool {
        s.count <= maxDescription && s.utf8.count <= 4 * maxDescription && !hasControl(s, lines: true)
    }
    /// A measurable habit's target or a day's amount: from 0.001 to a million.
    public static func validAmount(_ x: Double) -> Bool { x.isFinite && x >= 0.001 && x <= 1_000_000 }
    /// An amount as a person types it: decimal digits with at most one
    /// point ("12", "2.5", ".5"); no sign, exponent or hexadecimal.
    public static func amount(_ s: String) -> Double? {
        guard !s.isEmpty, s.utf8.count <= 20, s.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 46 }),
              s.utf8.filter({ $0 == 46 }).count <= 1, s != "." else { return nil }
        return Double(s).flatMap { validAmount($0) ? $0 : nil }
    }
    /// A target goes with once a period (a day, a week, N days) or chosen
    /// days: it is what the period should hold.
    public static func measurable(_ f: Frequency) -> Bool { f.weekdays != nil || f.times == 1 }
    /// A measurable habit's unit ("pages", "km"): 1 to 16 characters, no control characters.
    public static func validUnit(_ s: String) -> Bool { (1...16).contains(s.count) && s.utf8.count <= 64 && !hasControl(s) && s.trimmingSpaces == s }
    public static func validBio(_ s: String) -> String? { s.count <= 280 && s.utf8.count <= 1120 && !hasControl(s) ? s : nil }
    public static func validEmail(_ s: String) -> String? {
        guard s.utf8.count <= 254, let at = s.firstIndex(of: "@"), at != s.startIndex, s.index(after: at) != s.endIndex else { return nil }
        for u in s.unicodeScalars where u.value <= 0x20 || u == "<" || u == ">" || u == "\"" || u == ":" || u == ";" || u == "," || u.value == 0x7F { return nil }
        return s
    }
    /// An IANA zone name (letters, digits, `/_+-`), never a path.
    public static func validZone(_ s: String) -> Bool {
        guard !s.isEmpty, s.utf8.count <= 64, !s.hasPrefix("/"), !s.contains(".."), !s.hasPrefix("-") else { return false }
        for u in s.unicodeScalars {
            let ok = (u >= "a" && u <= "z") || (u >= "A" && u <= "Z") || (u >= "0" && u <= "9") || u == "/" || u == "_" || u == "+" || u == "-"
            if !ok { return false }
        }
        // (A file of the zone's name, found by stat, not opened: a fold opens no zone file, whatever it folds.)
        return Zone.exists(s)
    }
    public static func validID(_ s: String) -> Bool {
        guard (1...40).contains(s.utf8.count) else { return false }
        return s.unicodeScalars.allSatisfy { ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "-" }
    }
    /// A host pool member's private folder as they may name it to a buddy:
    /// private/WHO/ID or private/WHO~N/ID (N 1 to 7), nothing else.
    public static func validPrivateFolder(_ f: String, of who: String) -> Bool {
        let parts = f.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "private", validID(String(parts[2])) else { return false }
        let shell = parts[1]
        if shell == who { return true }
        guard shell.count == who.count + 2, shell.hasPrefix(who + "~"), let n = shell.last?.wholeNumberValue else { return false }
        return (1...7).contains(n)
    }

    public static func validHabit(id: String, name: String) -> Bool {
        if let n = HabitmatchState.catalogNames[id] { return n == name || validName(name) != nil }
        guard id.hasPrefix("other:"), validName(name) != nil else { return false }
        let slug = id.dropFirst(6)
        return (1...60).contains(slug.utf8.count) && slug.unicodeScalars.allSatisfy { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "-" }
    }
}
