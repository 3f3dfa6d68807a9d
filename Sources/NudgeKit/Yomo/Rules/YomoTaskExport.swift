// yomo's reminders as Taskwarrior's `task import` reads them (task 2.6): a
// JSON array of tasks with the statuses Taskwarrior has (pending,
// completed), due dates in its UTC form, notes as an annotation. Pure:
// reminders in, text and warnings out.
//
// Invariants: a reminder imported from Taskwarrior goes back under its own
// UUID; any other gets a UUID made from its id, the same on every export, so
// importing the export again updates instead of doubling. A recurring
// reminder goes as its next occurrence: Taskwarrior's recurrence is not
// written, and a warning says so.

extension YomoInterchange {
    /// Taskwarrior's date form: 20261125T170000Z.
    static func taskDate(_ t: Instant) -> String { ICS.utc(t) }

    /// A stable version-4-shaped UUID for a reminder id.
    static func taskUUID(_ r: Reminder) -> String {
        if let s = r.source, s.hasPrefix("taskwarrior:") { return String(s.dropFirst(12)) }
        func hex(_ v: UInt64) -> String { let s = String(v, radix: 16); return String(repeating: "0", count: 16 - s.count) + s }
        var h = Array(hex(StableHash.fnv1a("yomo:" + r.id)) + hex(StableHash.fnv1a("yomo/" + r.id)))
        h[12] = "4"
        h[16] = ["8", "9", "a", "b"][Int(String(h[16]), radix: 16)! % 4]
        let s = String(h)
        func part(_ a: Int, _ b: Int) -> Substring { s.dropFirst(a).prefix(b - a) }
        return "\(part(0, 8))-\(part(8, 12))-\(part(12, 16))-\(part(16, 20))-\(part(20, 32))"
    }

    public static func exportTaskwarrior(_ reminders: [Reminder]) -> (String, [String]) {
        var tasks: [JSON] = []
        var warnings: [String] = []
        for r in reminders {
            var t: JSONObject = ["uuid": .string(taskUUID(r)), "description": .string(r.title),
                                 "status": .string(r.completed ? "completed" : "pending"),
                                 "entry": .string(taskDate(r.createdAt)), "modified": .string(taskDate(r.updatedAt))]
            t["due"] = .string(taskDate(r.effectiveTrigger))
            if r.completed { t["end"] = .string(taskDate(r.completedAt ?? r.updatedAt)) }
            if let l = r.list { t["project"] = .string(l) }
            if !r.notes.isEmpty { t["annotations"] = .array([.object(["entry": .string(taskDate(r.createdAt)), "description": .string(r.notes)])]) }
            if r.recurrence.repeats && !r.completed {
                warnings.append("'\(r.title.terminalSafe)' (\(r.id)): Taskwarrior gets its next occurrence; its rule (\(r.recurrence.summary)) is not kept")
            }
            tasks.append(.object(t))
        }
        return (JSON.array(tasks).serialized + "\n", warnings)
    }
}
