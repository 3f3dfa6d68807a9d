// The values the fold builds a pool of: members with their habits, and the
// reports members make about each other.
//
// Invariants: a member's `user` is the name of the journal they write
// (never a field an event claims); `lastActive` comes from batch stamps.

extension Habitmatch {
    /// A member's report about another, for the pool's owner.
    public struct Report: Equatable, Sendable {
        public var reporter: String
        public var user: String
        public var reason: String
        public var at: Instant
    }

    public struct Habit: Equatable, Sendable {
        public var id: String
        public var name: String
        public var remindAt: TimeOfDay?
        /// How often (HabitmatchFrequency.swift); daily unless set.
        public var every: Frequency = .daily
        /// A measurable habit's target per period of `every`, and its unit.
        public var target: Double? = nil
        public var unit: String? = nil
    }

    public struct Member: Equatable, Sendable {
        public var user: String
        public var name: String
        public var email: String?
        public var timezone: String
        public var bio: String
        public var habits: [Habit]
        public var joinedAt: Instant
        public var lastActive: Instant

        public var habitIDs: Set<String> { Set(habits.map(\.id)) }
    }
}

extension Habitmatch.Habit {
    /// The habit with every, target and unit as an event or a snapshot line
    /// says them (target and unit may be null: not measurable); nil when
    /// any of them is not valid, or they do not go together (a unit with no
    /// target, a target with N times a period), as the commands refuse them:
    /// such an event counts for nothing.
    func measured(by o: JSONObject) -> Habitmatch.Habit? {
        var h = self
        if let e = o["every"] {
            guard let f = e.string.flatMap(Habitmatch.Frequency.parse) else { return nil }
            h.every = f
        }
        if let t = o["target"] {
            if t.isNull { h.target = nil; h.unit = nil } else {
                guard let x = t.double, Habitmatch.validAmount(x) else { return nil }
                h.target = x
            }
        }
        if let u = o["unit"], !u.isNull {
            guard let x = u.string, Habitmatch.validUnit(x) else { return nil }
            h.unit = x
        } else if o["unit"]?.isNull == true {
            h.unit = nil
        }
        if h.unit != nil && h.target == nil { return nil }
        if h.target != nil && !Habitmatch.measurable(h.every) { return nil }
        return h
    }

    var measureJSON: JSONObject {
        var o: JSONObject = [:]
        if !every.isDaily { o["every"] = .string(every.stored) }
        if let t = target { o["target"] = .double(t); o["unit"] = JSON(unit) }
        return o
    }
}

extension HabitmatchState {
    // MARK: Habits as JSON

    static let catalogNames: [String: String] = Dictionary(uniqueKeysWithValues: Habitmatch.catalog.map { ($0.id, $0.name) })

    /// Habits as objects, or (in snapshots) a catalog habit with no reminder
    /// as its bare id. Invalid ones are dropped; at most three are kept.
    static func habits(_ j: JSON?) -> [Habitmatch.Habit] {
        var out: [Habitmatch.Habit] = []
        for h in j?.array ?? [] where out.count < Habitmatch.maxHabits {
            if let id = h.string, let name = catalogNames[id] {
                out.append(Habitmatch.Habit(id: id, name: name, remindAt: nil))
                continue
            }
            guard let o = h.object, let id = o["id"]?.string, let name = o["name"]?.string,
                  Habitmatch.validHabit(id: id, name: name), !out.contains(where: { $0.id == id }) else { continue }
            guard let habit = Habitmatch.Habit(id: id, name: name, remindAt: o["remind_at"]?.string.flatMap(TimeOfDay.parse)).measured(by: o) else { continue }
            out.append(habit)
        }
        return out
    }

    static func compactHabits(_ hs: [Habitmatch.Habit]) -> JSON {
        .array(hs.map { h in
            if h.remindAt == nil, catalogNames[h.id] == h.name, h.every.isDaily, h.target == nil { return .string(h.id) }
            var o: JSONObject = ["id": .string(h.id), "name": .string(h.name), "remind_at": JSON(h.remindAt?.description)]
            for (k, v) in h.measureJSON.fields { o[k] = v }
            return .object(o)
        })
    }

    static func habitsJSON(_ hs: [Habitmatch.Habit]) -> JSON {
        .array(hs.map { .object(["id": .string($0.id), "name": .string($0.name)]) })
    }

}
