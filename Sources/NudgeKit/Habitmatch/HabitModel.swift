// habitmatch's pool as a fold over its members' journals. The store tags
// each event with the journal it came from ("actor"): that, not anything in
// the event, is who did it, so nobody can write as someone else.

public struct HabitState: JournalModel {
    public static let schemaVersion = 1
    public private(set) var members: [String: Habitmatch.Member] = [:]
    /// from → to → liked (true) or passed (false); the latest swipe counts.
    public private(set) var swipes: [String: [String: Bool]] = [:]
    public private(set) var accepts: [String: Set<String>] = [:]
    public private(set) var chats: [String: [(from: String, text: String, at: Instant)]] = [:]
    public private(set) var done: [String: [String: Set<Day>]] = [:]
    public private(set) var meetings: [String: Habitmatch.Meeting] = [:]
    public private(set) var reminded: [String: Set<String>] = [:]

    public init(full: Bool) {}

    static func pair(_ a: String, _ b: String) -> String { a < b ? a + "|" + b : b + "|" + a }

    public func liked(by u: String) -> Set<String> { Set((swipes[u] ?? [:]).filter { $0.value }.keys) }
    public func passed(by u: String) -> Set<String> { Set((swipes[u] ?? [:]).filter { !$0.value }.keys) }
    public func isMatch(_ a: String, _ b: String) -> Bool { swipes[a]?[b] == true && swipes[b]?[a] == true }
    public func matches(of u: String) -> Set<String> { liked(by: u).filter { isMatch(u, $0) } }
    public func isBuddy(_ a: String, _ b: String) -> Bool {
        isMatch(a, b) && accepts[a]?.contains(b) == true && accepts[b]?.contains(a) == true
    }
    public func buddies(of u: String) -> Set<String> { matches(of: u).filter { isBuddy(u, $0) } }
    public func chat(_ a: String, _ b: String) -> [(from: String, text: String, at: Instant)] { chats[HabitState.pair(a, b)] ?? [] }
    public func doneDays(_ u: String, _ habit: String) -> Set<Day> { done[u]?[habit] ?? [] }

    static let catalogNames: [String: String] = Dictionary(uniqueKeysWithValues: Habitmatch.catalog.map { ($0.id, $0.name) })

    /// Habits as objects, or (in snapshots) a catalog habit with no reminder
    /// as its bare id.
    static func habits(_ j: JSON?) -> [Habitmatch.Habit] {
        (j?.array ?? []).compactMap { h in
            if let id = h.string, let name = catalogNames[id] { return Habitmatch.Habit(id: id, name: name, remindAt: nil) }
            guard let o = h.object, let id = o["id"]?.string, let name = o["name"]?.string else { return nil }
            return Habitmatch.Habit(id: id, name: name, remindAt: o["remind_at"]?.string.flatMap(TimeOfDay.parse))
        }
    }

    static func compactHabits(_ hs: [Habitmatch.Habit]) -> JSON {
        .array(hs.map { h in
            if h.remindAt == nil, catalogNames[h.id] == h.name { return .string(h.id) }
            return .object(["id": .string(h.id), "name": .string(h.name), "remind_at": JSON(h.remindAt?.description)])
        })
    }

    static func habitsJSON(_ hs: [Habitmatch.Habit]) -> JSON {
        .array(hs.map { .object(["id": .string($0.id), "name": .string($0.name), "remind_at": JSON($0.remindAt?.description)]) })
    }

    public mutating func apply(_ e: JSONObject) {
        guard let who = e["actor"]?.string, let type = e["type"]?.string else { return }
        let at = e["at"]?.string.flatMap { RFC3339.parse($0)?.instant } ?? Instant(ms: 0)
        if var m = members[who], at > m.lastActive { m.lastActive = at; members[who] = m }
        switch type {
        case "joined":
            members[who] = Habitmatch.Member(user: who, name: e["name"]?.string ?? who, email: e["email"]?.string,
                                             timezone: e["timezone"]?.string ?? "UTC", bio: e["bio"]?.string ?? "",
                                             habits: HabitState.habits(e["habits"]), joinedAt: at, lastActive: at)
        case "profile":
            guard var m = members[who] else { return }
            if let n = e["name"]?.string { m.name = n }
            if let v = e["email"] { m.email = v.string }
            if let t = e["timezone"]?.string { m.timezone = t }
            if let b = e["bio"]?.string { m.bio = b }
            members[who] = m
        case "habit_added":
            guard var m = members[who], let id = e["id"]?.string, let name = e["name"]?.string, !m.habitIDs.contains(id) else { return }
            m.habits.append(Habitmatch.Habit(id: id, name: name, remindAt: nil))
            members[who] = m
        case "habit_removed":
            guard var m = members[who], let id = e["id"]?.string else { return }
            m.habits.removeAll { $0.id == id }
            members[who] = m
        case "habit_remind":
            guard var m = members[who], let id = e["id"]?.string, let i = m.habits.firstIndex(where: { $0.id == id }) else { return }
            m.habits[i].remindAt = e["time"]?.string.flatMap(TimeOfDay.parse)
            members[who] = m
        case "swiped":
            if let t = e["target"]?.string, let right = e["right"]?.bool, t != who { swipes[who, default: [:]][t] = right }
        case "chat":
            if let t = e["to"]?.string, let text = e["text"]?.string { chats[HabitState.pair(who, t), default: []].append((who, text, at)) }
        case "buddy_accept":
            if let t = e["user"]?.string, t != who { accepts[who, default: []].insert(t) }
        case "done", "undone":
            // A peer's day before 2000 is not believed (the CLI refuses one too).
            guard let h = e["habit"]?.string, let d = e["date"]?.string.flatMap(Day.parse), d.year >= 2000 else { return }
            if type == "done" { done[who, default: [:]][h, default: []].insert(d) } else { done[who]?[h]?.remove(d) }
        case "meeting":
            guard let id = e["id"]?.string, let with = e["with"]?.string, let tz = e["timezone"]?.string,
                  let start = e["start"]?.string.flatMap({ RFC3339.parse($0, allowLocal: true)?.local }),
                  let minutes = e["minutes"]?.int else { return }
            meetings[id] = Habitmatch.Meeting(id: id, organizer: who, attendee: with, start: start, timezone: tz, minutes: Int(minutes),
                                              weekly: e["weekly"]?.bool ?? false, description: e["description"]?.string ?? "", createdAt: at)
        case "reminded":
            if let k = e["key"]?.string { reminded[who, default: []].insert(k) }
        default:
            break
        }
    }

    public func hotSnapshot() -> [JSONObject] {
        var lines: [JSONObject] = []
        for m in members.values.sorted(by: { $0.user < $1.user }) {
            var o: JSONObject = ["k": "member", "user": .string(m.user), "name": .string(m.name), "timezone": .string(m.timezone),
                                 "habits": HabitState.compactHabits(m.habits), "joined": .int(m.joinedAt.ms), "active": .int(m.lastActive.ms)]
            if let e = m.email { o["email"] = .string(e) }
            if !m.bio.isEmpty { o["bio"] = .string(m.bio) }
            lines.append(o)
        }
        for (u, s) in swipes.sorted(by: { $0.key < $1.key }) {
            lines.append(["k": "swipes", "user": .string(u), "liked": JSON(s.filter { $0.value }.keys.sorted()),
                          "passed": JSON(s.filter { !$0.value }.keys.sorted())])
        }
        for (u, a) in accepts.sorted(by: { $0.key < $1.key }) { lines.append(["k": "accepts", "user": .string(u), "v": JSON(a.sorted())]) }
        for (p, c) in chats.sorted(by: { $0.key < $1.key }) {
            lines.append(["k": "chat", "pair": .string(p), "v": .array(c.map { .array([.string($0.from), .string($0.text), .int($0.at.ms)]) })])
        }
        for (u, hs) in done.sorted(by: { $0.key < $1.key }) {
            for (h, ds) in hs.sorted(by: { $0.key < $1.key }) {
                lines.append(["k": "done", "user": .string(u), "habit": .string(h), "v": JSON(ds.sorted().map(\.description))])
            }
        }
        for m in meetings.values.sorted(by: { $0.id < $1.id }) {
            lines.append(["k": "meeting", "id": .string(m.id), "organizer": .string(m.organizer), "with": .string(m.attendee),
                          "start": .string(m.start.description), "timezone": .string(m.timezone), "minutes": JSON(m.minutes),
                          "weekly": .bool(m.weekly), "description": .string(m.description), "at": .int(m.createdAt.ms)])
        }
        for (u, r) in reminded.sorted(by: { $0.key < $1.key }) { lines.append(["k": "reminded", "user": .string(u), "v": JSON(r.sorted())]) }
        return lines
    }

    public mutating func restoreHot(_ l: JSONObject) throws(ToolError) {
        func strings(_ j: JSON?) -> [String] { (j?.array ?? []).compactMap(\.string) }
        guard let k = l["k"]?.string else { throw .data("bad snapshot line") }
        switch k {
        case "member":
            guard let u = l["user"]?.string else { throw .data("bad snapshot line") }
            members[u] = Habitmatch.Member(user: u, name: l["name"]?.string ?? u, email: l["email"]?.string,
                                           timezone: l["timezone"]?.string ?? "UTC", bio: l["bio"]?.string ?? "",
                                           habits: HabitState.habits(l["habits"]), joinedAt: Instant(ms: l["joined"]?.int ?? 0),
                                           lastActive: Instant(ms: l["active"]?.int ?? 0))
        case "swipes":
            guard let u = l["user"]?.string else { throw .data("bad snapshot line") }
            var s: [String: Bool] = [:]
            for t in strings(l["liked"]) { s[t] = true }
            for t in strings(l["passed"]) { s[t] = false }
            swipes[u] = s
        case "accepts":
            if let u = l["user"]?.string { accepts[u] = Set(strings(l["v"])) }
        case "chat":
            guard let p = l["pair"]?.string else { throw .data("bad snapshot line") }
            chats[p] = (l["v"]?.array ?? []).compactMap { x in
                guard let a = x.array, a.count == 3, let f = a[0].string, let t = a[1].string, let ms = a[2].int else { return nil }
                return (f, t, Instant(ms: ms))
            }
        case "done":
            if let u = l["user"]?.string, let h = l["habit"]?.string { done[u, default: [:]][h] = Set(strings(l["v"]).compactMap(Day.parse)) }
        case "meeting":
            guard let id = l["id"]?.string, let o = l["organizer"]?.string, let w = l["with"]?.string, let tz = l["timezone"]?.string,
                  let start = l["start"]?.string.flatMap({ RFC3339.parse($0, allowLocal: true)?.local }) else { throw .data("bad snapshot line") }
            meetings[id] = Habitmatch.Meeting(id: id, organizer: o, attendee: w, start: start, timezone: tz, minutes: Int(l["minutes"]?.int ?? 30),
                                              weekly: l["weekly"]?.bool ?? false, description: l["description"]?.string ?? "",
                                              createdAt: Instant(ms: l["at"]?.int ?? 0))
        case "reminded":
            if let u = l["user"]?.string { reminded[u] = Set(strings(l["v"])) }
        default:
            break
        }
    }
}
