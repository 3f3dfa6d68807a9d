// yomo's reminders in and out: its own NDJSON and Taskwarrior's `task
// export` JSON here, iCalendar (RFC 5545: VTODO and VEVENT, DTSTART;TZID,
// RRULE, VALARM) in YomoICSImport.swift, YomoICSExport.swift and
// YomoRRULE.swift, and the ids and events of what an import adds. Pure: text
// in, reminders or problems out; reminders in, text out.
//
// Import is all or nothing: every problem is named (line or component), and
// one problem means nothing is imported. Export to iCalendar keeps every
// rule: what RRULE can say it says, and the whole rule also travels in
// X-YOMO-RECURRENCE so that yomo -> ics -> yomo loses nothing; what
// iCalendar cannot say (repeat from completion, an overnight range on some
// weekdays) is named in `warnings`.

public enum YomoInterchange {
    /// A reminder to create: its form, zone, first trigger and status.
    public struct Item: Equatable, Sendable {
        public var id: String?
        public var title: String
        public var notes: String
        public var anchor: LocalDateTime
        public var recurrence: Recurrence
        public var zone: String
        /// Advance alerts' leads in minutes, largest first.
        public var alerts: [Int]
        public var completed: Bool
        /// Where it came from, to know it again: "ical:UID", "taskwarrior:UUID".
        public var source: String? = nil
        /// iCalendar's SEQUENCE: a higher one is a newer version of the same item.
        public var sequence: Int = 0
        /// The list it belongs to (iCalendar's first CATEGORIES, Taskwarrior's project).
        public var list: String? = nil
        /// Announce again every this many minutes until done (0: once).
        public var nagMinutes: Int = 0
    }

    public struct Problem: Error, Equatable, Sendable {
        public var place: String
        public var message: String
        public var text: String { "\(place): \(message)" }
    }

    public enum Source: String, Sendable { case yomo, taskwarrior, ical }

    /// Which format `bytes` is in, from how it starts.
    public static func detect(_ bytes: [UInt8]) -> Source {
        var i = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        if i < bytes.count && bytes[i] == UInt8(ascii: "[") { return .taskwarrior }
        if bytes[i...].starts(with: Array("BEGIN:VCALENDAR".utf8)) || bytes[i...].starts(with: Array("begin:vcalendar".utf8)) { return .ical }
        // NDJSON: Taskwarrior's older one-task-a-line export has "uuid" and "description".
        if let nl = bytes[i...].firstIndex(of: 0x0A) ?? Optional(bytes.count),
           let o = try? JSON.parseObject(bytes: Array(bytes[i..<nl])), o["uuid"] != nil, o["description"] != nil {
            return .taskwarrior
        }
        return .yomo
    }

    // MARK: yomo NDJSON

    /// The record `export` prints: the reminder record, plus what re-creates
    /// it exactly (its anchor).
    public static func exportRecord(_ r: Reminder, zone: Zone) -> JSONObject {
        var o = r.record(zone: zone)
        o["anchor"] = .string(r.anchor.description)
        return o
    }

    public static func fromYomo(_ bytes: [UInt8], name: String, fallbackZone: Zone) -> ([Item], [Problem]) {
        var items: [Item] = []
        var problems: [Problem] = []
        var lineNo = 0
        for raw in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNo += 1
            var line = Array(raw)
            if line.last == 0x0D { line.removeLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            let place = "\(name):\(lineNo)"
            guard let o = try? JSON.parseObject(bytes: line) else { problems.append(Problem(place: place, message: "not a JSON object")); continue }
            if let t = o["type"]?.string, t != "reminder" { continue }  // other records pass by
            guard let title = o["title"]?.string, !title.trimmingSpaces.isEmpty else {
                problems.append(Problem(place: place, message: "\"title\" must be a non-empty string")); continue
            }
            var zoneName = fallbackZone.name
            if let z = o["tz"]?.string {
                guard ZoneCache.named(z) != nil || z == fallbackZone.name else { problems.append(Problem(place: place, message: "unknown time zone '\(z)'")); continue }
                zoneName = z
            }
            let zone = z(zoneName, fallbackZone)
            var anchor: LocalDateTime
            if let a = YomoState.anchor(o["anchor"]) {
                anchor = a
            } else if let t = YomoState.instant(o["trigger_at"]) {
                anchor = zone.local(t)
            } else {
                problems.append(Problem(place: place, message: "needs \"anchor\" (YYYY-MM-DDTHH:MM:SS) or \"trigger_at\" (RFC 3339)")); continue
            }
            anchor.time = TimeOfDay(hour: anchor.time.hour, minute: anchor.time.minute, second: anchor.time.second)
            let recJSON = o["recurrence"]?.object
            guard let rec = Recurrence.from(type: recJSON?["type"]?.string ?? "none", rule: recJSON) else {
                problems.append(Problem(place: place, message: "\"recurrence\" does not fit yomo's rules")); continue
            }
            if let p = rec.problem { problems.append(Problem(place: place, message: p)); continue }
            if let e = Clock.plausible(day: anchor.day, what: "the date") { problems.append(Problem(place: place, message: e.message)); continue }
            var id = o["id"]?.string
            if let i = id, !isID(i) { id = nil }
            items.append(Item(id: id, title: title, notes: o["notes"]?.string ?? "", anchor: anchor, recurrence: rec, zone: zoneName,
                              alerts: Reminder.alerts(o), completed: o["status"]?.string == "completed",
                              list: o["list"]?.string.flatMap { try? Yomo.listName($0) }, nagMinutes: Reminder.nag(o)))
        }
        return (items, problems)
    }

    static func isID(_ s: String) -> Bool {
        s.utf8.count >= 4 && s.utf8.count <= 64 && s.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 122) || $0 == 45 }
    }

    static func z(_ name: String, _ fallback: Zone) -> Zone { name == fallback.name ? fallback : (ZoneCache.named(name) ?? fallback) }

    // MARK: Taskwarrior

    /// `task export`: a JSON array of tasks (or one task a line). Pending
    /// and completed tasks with a due (or scheduled) date become reminders,
    /// a recurring template a recurring reminder (its instances are left to
    /// it); deleted tasks and tasks without a date are left out, counted in
    /// `skipped`.
    public static func fromTaskwarrior(_ bytes: [UInt8], name: String, zone: Zone) -> ([Item], [Problem], skipped: Int) {
        var tasks: [(JSONObject, String)] = []
        var problems: [Problem] = []
        if let doc = try? JSON.parseDocument(bytes), let arr = doc.array {
            for (k, t) in arr.enumerated() {
                guard let o = t.object else { problems.append(Problem(place: "\(name): task \(k + 1)", message: "not a JSON object")); continue }
                tasks.append((o, "\(name): task \(k + 1)"))
            }
        } else {
            var lineNo = 0
            for raw in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
                lineNo += 1
                var line = Array(raw)
                while let l = line.last, l == 0x0D || l == UInt8(ascii: ",") || l == 0x20 { line.removeLast() }
                if line.isEmpty || line == [UInt8(ascii: "[")] || line == [UInt8(ascii: "]")] { continue }
                guard let o = try? JSON.parseObject(bytes: line) else {
                    problems.append(Problem(place: "\(name):\(lineNo)", message: "not a Taskwarrior task (JSON object)")); continue
                }
                tasks.append((o, "\(name):\(lineNo)"))
            }
        }
        let templates = Set(tasks.compactMap { $0.0["status"]?.string == "recurring" ? $0.0["uuid"]?.string : nil })
        var items: [Item] = []
        var skipped = 0
        for (t, place0) in tasks {
            let place = place0 + (t["uuid"]?.string.map { " (\($0.prefix(8)))" } ?? "")
            let status = t["status"]?.string ?? "pending"
            if status == "deleted" { skipped += 1; continue }
            if let p = t["parent"]?.string, templates.contains(p) { skipped += 1; continue }
            guard let desc = t["description"]?.string, !desc.trimmingSpaces.isEmpty else {
                problems.append(Problem(place: place, message: "\"description\" must be a non-empty string")); continue
            }
            var when: Instant? = nil
            for key in ["due", "scheduled"] {
                guard let v = t[key] else { continue }
                guard let s = v.string, let i = taskTime(s) else {
                    problems.append(Problem(place: place, message: "\"\(key)\" must be a Taskwarrior date like 20261125T170000Z")); when = nil; break
                }
                when = i
                break
            }
            if problems.last?.place == place { continue }
            guard let at = when else { skipped += 1; continue }
            var rec = Recurrence.once
            if let r = t["recur"] {
                guard let s = r.string, let rr = taskRecur(s) else {
                    problems.append(Problem(place: place, message: "\"recur\" '\(r.string ?? r.kindName)' is not a period yomo knows (daily, weekly, 2d, 3wk, monthly, quarterly, yearly...)")); continue
                }
                rec = rr
                if let u = t["until"] {
                    guard let us = u.string, let ui = taskTime(us) else {
                        problems.append(Problem(place: place, message: "\"until\" must be a Taskwarrior date like 20261125T170000Z")); continue
                    }
                    rec.until = zone.day(of: ui)
                }
            }
            let anchor = zone.local(at)
            if rec.kind == .weekly && rec.days.isEmpty { rec.days = [anchor.day.weekday] }
            if let e = Clock.plausible(day: anchor.day, what: "the due date") { problems.append(Problem(place: place, message: e.message)); continue }
            var notes: [String] = []
            for a in t["annotations"]?.array ?? [] { if let d = a.object?["description"]?.string { notes.append(d) } }
            if let tags = t["tags"]?.array?.compactMap(\.string), !tags.isEmpty { notes.append(tags.map { "+" + $0 }.joined(separator: " ")) }
            let project = t["project"]?.string.flatMap { try? Yomo.listName($0) }
            // Known again by its UUID; a later "modified" is a newer version.
            let modified = t["modified"]?.string.flatMap(taskTime).map { Int($0.seconds) } ?? 0
            items.append(Item(id: nil, title: desc, notes: notes.joined(separator: "\n"), anchor: anchor, recurrence: rec, zone: zone.name,
                              alerts: [], completed: status == "completed", source: t["uuid"]?.string.map { "taskwarrior:" + $0 },
                              sequence: modified, list: project))
        }
        return (items, problems, skipped)
    }

    /// 20261125T170000Z (Taskwarrior's export form), or RFC 3339.
    static func taskTime(_ s: String) -> Instant? {
        let u = Array(s.utf8)
        if u.count == 16, u[8] == UInt8(ascii: "T"), u[15] == UInt8(ascii: "Z") {
            let d = String(decoding: u[0..<8], as: UTF8.self), t = String(decoding: u[9..<15], as: UTF8.self)
            guard let y = Int(d.prefix(4)), let m = Int(d.dropFirst(4).prefix(2)), let dd = Int(d.suffix(2)),
                  let h = Int(t.prefix(2)), let mi = Int(t.dropFirst(2).prefix(2)), let se = Int(t.suffix(2)) else { return nil }
            let day = Day(year: y, month: m, day: dd)
            guard day.isValid, h < 24, mi < 60, se < 60 else { return nil }
            return Zone.utc.resolve(LocalDateTime(day: day, time: TimeOfDay(hour: h, minute: mi, second: se)))
        }
        return RFC3339.parse(s)?.instant
    }

    /// Taskwarrior's recurrence periods.
    static func taskRecur(_ s0: String) -> Recurrence? {
        let s = s0.lowercased()
        let named: [String: Recurrence] = [
            "daily": Recurrence(kind: .daily), "day": Recurrence(kind: .daily),
            "weekdays": Recurrence(kind: .weekly, days: [1, 2, 3, 4, 5]),
            "weekly": Recurrence(kind: .weekly), "week": Recurrence(kind: .weekly), "sennight": Recurrence(kind: .weekly),
            "biweekly": Recurrence(kind: .custom, interval: 2, unit: .week), "fortnight": Recurrence(kind: .custom, interval: 2, unit: .week),
            "monthly": Recurrence(kind: .custom, interval: 1, unit: .month), "month": Recurrence(kind: .custom, interval: 1, unit: .month),
            "bimonthly": Recurrence(kind: .custom, interval: 2, unit: .month),
            "quarterly": Recurrence(kind: .custom, interval: 3, unit: .month),
            "semiannual": Recurrence(kind: .custom, interval: 6, unit: .month),
            "yearly": Recurrence(kind: .custom, interval: 1, unit: .year), "annual": Recurrence(kind: .custom, interval: 1, unit: .year),
            "year": Recurrence(kind: .custom, interval: 1, unit: .year), "biannual": Recurrence(kind: .custom, interval: 2, unit: .year),
        ]
        if let r = named[s] { return r }
        // ISO 8601 periods: P1D, P2W, P1M, P1Y, PT4H
        if s.hasPrefix("p") {
            let body = s.dropFirst()
            if body.hasPrefix("t"), body.hasSuffix("h"), let n = Int(body.dropFirst().dropLast()), n >= 1 {
                return Recurrence(kind: .custom, interval: n, unit: .hour)
            }
            guard let last = body.last, let n = Int(body.dropLast()), n >= 1 else { return nil }
            switch last {
            case "d": return Recurrence(kind: .custom, interval: n, unit: .day)
            case "w": return Recurrence(kind: .custom, interval: n, unit: .week)
            case "m": return Recurrence(kind: .custom, interval: n, unit: .month)
            case "y": return Recurrence(kind: .custom, interval: n, unit: .year)
            default: return nil
            }
        }
        let digits = s.prefix { $0.isNumber }
        guard let n = Int(digits), (1...1000).contains(n) else { return nil }
        let unit = String(s.dropFirst(digits.count)).trimmingSpaces
        switch unit {
        case "h", "hr", "hrs", "hour", "hours": return Recurrence(kind: .custom, interval: n, unit: .hour)
        case "d", "day", "days": return Recurrence(kind: .custom, interval: n, unit: .day)
        case "w", "wk", "wks", "week", "weeks": return Recurrence(kind: .custom, interval: n, unit: .week)
        case "mo", "mos", "mth", "mths", "month", "months": return Recurrence(kind: .custom, interval: n, unit: .month)
        case "q", "qtr", "qtrs", "quarter", "quarters": return Recurrence(kind: .custom, interval: 3 * n, unit: .month)
        case "y", "yr", "yrs", "year", "years": return Recurrence(kind: .custom, interval: n, unit: .year)
        default: return nil
        }
    }
}


extension YomoInterchange {
    // MARK: Adding what was read

    /// An item ready to record: the id it gets, its zone, and its first
    /// trigger (nil: every occurrence is past).
    public struct Planned: Equatable, Sendable {
        public var item: Item
        public var id: String
        public var zone: Zone
        public var trigger: Instant?
        /// An update of a reminder imported before (a higher SEQUENCE).
        public var update = false
    }

    /// The ids, zones and first triggers of `items`, added beside
    /// `existing`, and how many were already here. An item that was
    /// imported before (the same UID or Taskwarrior UUID, or yomo's own id
    /// with the same title) is left as it is, or updated when its SEQUENCE
    /// is higher; an item without an id gets a new one, and so does one whose
    /// id is taken by another reminder.
    public static func plan(_ items: [Item], existing: [String: Reminder], name: String, zone: Zone, now: Instant,
                            makeID: () -> String = { IDs.make() }) -> ([Planned], [Problem], unchanged: Int) {
        var seen = Set<String>()
        var plan: [Planned] = []
        var unchanged = 0
        var bySource: [String: Reminder] = [:]
        for r in existing.values {
            if let s = r.source { bySource[s] = r } else { bySource["taskwarrior:" + taskUUID(r)] = r }  // as exportTaskwarrior wrote it
        }
        for item in items {
            let itemZone = z(item.zone, zone)
            if let src = item.source, let old = bySource[src] {
                let version = old.source == nil ? Int(old.updatedAt.seconds) : old.sequence
                guard item.sequence > version, !seen.contains(old.id) else { unchanged += 1; continue }
                seen.insert(old.id)
                let trigger = Yomo.firstTrigger(anchor: item.anchor, recurrence: item.recurrence, now: now, zone: itemZone)
                plan.append(Planned(item: item, id: old.id, zone: itemZone, trigger: trigger, update: true))
                continue
            }
            var id = item.id ?? makeID()
            if item.id != nil && (existing[id] != nil || seen.contains(id)) {
                if existing[id]?.title == item.title { unchanged += 1; continue }
                id = makeID()
            }
            seen.insert(id)
            let trigger = Yomo.firstTrigger(anchor: item.anchor, recurrence: item.recurrence, now: now, zone: itemZone)
            plan.append(Planned(item: item, id: id, zone: itemZone, trigger: trigger))
        }
        return (plan, [], unchanged)
    }

    /// The events that add a planned reminder: "created" (or "edited" for an
    /// update), then "completed" when it was completed where it came from, or
    /// when every occurrence of its rule is past (it is kept, completed).
    public static func events(for p: Planned, at: String) -> [JSONObject] {
        let item = p.item
        let f = ReminderForm(title: item.title, notes: item.notes, anchor: item.anchor, recurrence: item.recurrence, assumptions: [],
                             alerts: item.alerts, nagMinutes: item.nagMinutes, list: item.list)
        var e = Yomo.createdEvent(p.id, f, trigger: p.trigger ?? p.zone.resolve(item.anchor), zone: p.zone,
                                  type: p.update ? "edited" : "created", at: at)
        if let s = item.source { e["source"] = .string(s); e["sequence"] = JSON(item.sequence) }
        if p.update { e["reopen"] = .bool(!item.completed) }
        var out = [e]
        if item.completed || p.trigger == nil {
            out.append(["type": "completed", "id": .string(p.id), "next": .null, "at": .string(at)])
        }
        return out
    }
}
