// One reminder as one file of a vdir (a folder of `.ics` files, one item
// each, that vdirsyncer keeps in step with a CalDAV collection and todoman
// reads and writes): writing it, and reading back what another client made
// of it. Pure: a reminder (and the file it replaces) in, bytes out; bytes
// in, what they say out.
//
// Invariants: the file is the VTODO of `export --format ics` with what a
// task client needs beside it: DUE (the same time as DTSTART: task clients
// show and move DUE; for a series, its pending occurrence, the first in
// X-YOMO-ANCHOR), SEQUENCE (one more than the last version either side
// wrote), PERCENT-COMPLETE for a completed one, and a snooze as the alarm
// moved to a fixed time (TRIGGER;VALUE=DATE-TIME) with X-YOMO-SNOOZE, and
// X-YOMO-VERSION, the fingerprint of what yomo wrote, so that a file
// another client changed tells which of yomo's versions it started from. What
// yomo does not write — properties, alarms and components another client
// added, occurrences it marked completed — is copied from the file it
// replaces, so nothing another client keeps is lost when yomo rewrites an
// item. A file that does not read whole (a truncated copy, a broken line)
// is a problem, never an empty or deleted item. A task's DUE, when it has
// one, is when yomo reminds: task clients move DUE, not DTSTART.

public enum YomoVdir {
    /// The properties yomo writes on a VTODO (or reads and replaces):
    /// anything else on it is another client's and is kept.
    static let ownProperties: Set<String> = ["UID", "DTSTAMP", "CREATED", "LAST-MODIFIED", "SUMMARY", "DESCRIPTION", "DTSTART", "DUE",
                                             "DURATION", "RRULE", "EXRULE", "RDATE", "EXDATE", "STATUS", "COMPLETED", "PERCENT-COMPLETE",
                                             "SEQUENCE", "RECURRENCE-ID", "CATEGORIES"]

    /// The UID a reminder's file carries: the one it came with, else ID@yomo.
    public static func uid(_ r: Reminder) -> String {
        if let s = r.source, s.hasPrefix("ical:") { return String(s.dropFirst(5)) }
        return r.id + "@yomo"
    }

    /// The name of a new file for a reminder: its id, or a hash of a UID
    /// that is not safe as a file name (as vdirsyncer names them).
    public static func fileName(_ r: Reminder) -> String {
        let u = uid(r)
        let safe = u.utf8.count <= 120 && u.utf8.allSatisfy { c in
            (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 45 || c == 95 || c == 46 || c == 43
        }
        if u.hasSuffix("@yomo") { return r.id + ".ics" }
        return (safe && !u.hasPrefix(".") ? u : Checksum.hex(Checksum.hash(Array(u.utf8)))) + ".ics"
    }

    /// A reminder's lines as yomo writes them: the VTODO's, its alarms, its
    /// moved and cancelled occurrences (`core`).
    public typealias Core = (master: [String], alarms: [String], overrides: [String])

    /// What yomo writes of a reminder, without the stamp and the version:
    /// the VTODO's lines, its alarms, its moved and cancelled occurrences.
    /// Two reminders with the same lines are the same item to a client.
    /// The occurrence an active series' file starts and is due at, when it
    /// is not the series' first: its pending one, while that is one of the
    /// rule's (a pending occurrence moved off the rule stays a RECURRENCE-ID
    /// component); never for a rule with a number of times (COUNT counts
    /// from the start) or one from completion (whose start is its pending
    /// occurrence already).
    public static func due(_ r: Reminder, zone z: Zone) -> Instant? {
        let rec = r.recurrence
        guard rec.repeats, !r.completed, rec.count == nil, !rec.basedOnCompletion, rec.kind != .rrule,
              let first = rec.ruleNext(after: Instant(ms: z.resolve(r.anchor).ms - 1), anchor: r.anchor, zone: z), r.triggerAt > first,
              rec.ruleNext(after: Instant(ms: r.triggerAt.ms - 1), anchor: r.anchor, zone: z) == r.triggerAt else { return nil }
        return r.triggerAt
    }

    /// `reanchored`: as written, the series starting at its pending
    /// occurrence (`due`); else at its first, as its version is counted (a
    /// pending occurrence moved on by announcing or completing is no change
    /// of what the reminder promises, so no conflict).
    static func core(_ r: Reminder, zone z: Zone, reanchored: Bool = true) -> Core {
        var ignored: [String] = []
        var (master, alarms, overrides) = YomoInterchange.vtodoParts(r, zone: z, stamp: "", warnings: &ignored)
        let uidLine = "UID:\(r.id)@yomo"
        let own = "UID:" + ICS.escape(uid(r))
        if own != uidLine {
            master = master.map { $0 == uidLine ? own : $0 }
            overrides = overrides.map { $0 == uidLine ? own : $0 }
        }
        if let start = master.firstIndex(where: { $0.hasPrefix("DTSTART") }) {
            // An active series starts and is due at its pending occurrence, as
            // task clients show it and count the next one from it (Tasks.org and
            // Apple's Reminders move both on; todoman copies the task due at the
            // next one); its first occurrence, where yomo counts from, travels
            // in X-YOMO-ANCHOR. A rule with a number of times stays at the start
            // its COUNT counts from, and a pending occurrence moved off the rule
            // at the rule's first (the move is its RECURRENCE-ID component).
            if reanchored, let d = due(r, zone: z) {
                let first = master[start]
                master[start] = first.hasSuffix("Z") ? YomoInterchange.dateLine("DTSTART", .utc(d), zone: z)
                                                     : YomoInterchange.dateLine("DTSTART", .local(z.local(d)), zone: z)
                master.insert("X-YOMO-ANCHOR" + first.dropFirst("DTSTART".count), at: start + 1)
            }
            master.insert("DUE" + master[start].dropFirst("DTSTART".count), at: start + 1)
        }
        if r.completed { master.append("PERCENT-COMPLETE:100") }
        if let s = r.snoozedUntil {
            master.append("X-YOMO-SNOOZE:\(ICS.utc(s))")
            // The alarm at the due time moves to the snooze.
            if let k = alarms.firstIndex(of: "TRIGGER:PT0M") { alarms[k] = "TRIGGER;VALUE=DATE-TIME:\(ICS.utc(s))" }
        }
        return (master, alarms, overrides)
    }

    /// A hash of what yomo writes of `r`: it changes exactly when the file
    /// needs rewriting.
    public static func fingerprint(_ r: Reminder, zone: Zone) -> String { fingerprint(core(r, zone: zone, reanchored: false)) }

    static func fingerprint(_ c: Core) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1024)
        for list in [c.master, c.alarms, c.overrides] { for l in list { bytes += l.utf8; bytes.append(10) } }
        return Checksum.hex(Checksum.hash(bytes))
    }

    /// The file for `r`: version `sequence`, stamped `now`, keeping what
    /// `old` (the file it replaces, read) holds that yomo does not write.
    /// `vtimezone` gives the VTIMEZONE lines of a zone (cached by the caller).
    /// `core`, when the caller has it already (`core(r, zone: z)`), is not
    /// made again.
    public static func render(_ r: Reminder, zone z: Zone, now: Instant, sequence: Int, old: ICSComponent?,
                              core known: Core? = nil, vtimezone: (Zone, Int) -> [String]) -> [UInt8] {
        let c = known ?? core(r, zone: z)
        let stamp = ICS.utc(now)
        var out = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//nudge tools//yomo//EN", "CALSCALE:GREGORIAN"]
        let uid = self.uid(r)
        var keptMaster: [String] = []
        var keptChildren: [String] = []
        var keptComponents: [String] = []
        var keptCategories: [String]? = nil
        if let cal = old {
            for p in cal.props where !["VERSION", "PRODID", "CALSCALE"].contains(p.name) { out.append(ICS.line(p)) }
            let ours = Set(c.overrides.filter { $0.hasPrefix("RECURRENCE-ID") })
            for comp in cal.children where comp.name != "VTIMEZONE" {
                let same = comp.name == "VTODO" && ICSValue.text(comp.first("UID")?.value ?? "") == uid
                if !same { keptComponents += ICS.lines(comp); continue }
                if let rid = comp.first("RECURRENCE-ID") {
                    // An occurrence another client completed (yomo writes moved and cancelled ones).
                    if !ours.contains(ICS.line(rid)) && isCompleted(comp) { keptComponents += ICS.lines(comp) }
                    continue
                }
                for p in comp.props where !ownProperties.contains(p.name) && !p.name.hasPrefix("X-YOMO-") { keptMaster.append(ICS.line(p)) }
                // Another client's categories, whose first is still the list: kept whole (its other tags too).
                if let first = comp.first("CATEGORIES"), YomoInterchange.firstCategory(first.value) == r.list {
                    keptCategories = comp.all("CATEGORIES").map(ICS.line)
                }
                for child in comp.children where !(child.name == "VALARM" && yomoReads(child)) { keptChildren += ICS.lines(child) }
            }
        }
        if z.name != "UTC" { out += vtimezone(z, r.anchor.day.year) }
        for l in c.master {
            if l == "DTSTAMP:" { out.append("DTSTAMP:" + stamp); out.append("SEQUENCE:\(sequence)"); continue }
            if l.hasPrefix("CATEGORIES:"), let kept = keptCategories { out += kept; continue }
            out.append(l)
        }
        out.append("X-YOMO-VERSION:" + (due(r, zone: z) == nil ? fingerprint(c) : fingerprint(r, zone: z)))
        // The pending occurrence of a rule (its start stays the series'): not
        // part of the fingerprint, since announcing moves it too.
        if r.recurrence.repeats && !r.completed { out.append("X-YOMO-TRIGGER:" + ICS.utc(r.triggerAt)) }
        out += keptMaster + c.alarms + keptChildren + ["END:VTODO"]
        out += c.overrides.map { $0 == "DTSTAMP:" ? "DTSTAMP:" + stamp : $0 }
        out += keptComponents
        out.append("END:VCALENDAR")
        return ICS.bytes(out)
    }

    static func isCompleted(_ c: ICSComponent) -> Bool {
        c.first("STATUS")?.value.trimmingSpaces.uppercased() == "COMPLETED" || c.first("COMPLETED") != nil
    }

    /// Whether yomo reads this alarm (and so writes its own in its place):
    /// one at or up to a week before the due time, or one at a fixed time (a snooze).
    static func yomoReads(_ a: ICSComponent) -> Bool {
        guard let t = a.first("TRIGGER") else { return false }
        if t.param("VALUE")?.uppercased() == "DATE-TIME" { return true }
        if t.param("RELATED")?.uppercased() == "END" { return false }
        guard let s = ICSValue.duration(t.value) else { return false }
        return s <= 0 && -s <= 10080 * 60
    }

    /// One file as read: its item, what a client did to it, and its tree.
    public struct FileRead {
        public var uid: String
        /// nil: the task has no date (yomo cannot remind it) or is cancelled.
        public var item: YomoInterchange.Item?
        public var cancelled: Bool
        /// Occurrences another client marked completed (RECURRENCE-ID with STATUS:COMPLETED).
        public var completedOccurrences: [Instant]
        /// A snooze: X-YOMO-SNOOZE, or an alarm at a fixed time.
        public var snooze: Instant?
        public var lastModified: Instant?
        public var sequence: Int
        /// X-YOMO-VERSION: the fingerprint of the version of yomo's this
        /// file was made from (clients keep X- properties they do not know).
        public var version: String?
        /// X-YOMO-TRIGGER: the pending occurrence of a rule as the writer had it.
        public var pending: Instant?
        /// The occurrence a series is due at, when it starts at one after its
        /// first (X-YOMO-ANCHOR): the item is anchored at its first.
        public var due: Instant? = nil
        public var warnings: [String]
        public var calendar: ICSComponent
    }

    /// Reads one file; a failure is the one-line reason it is left alone.
    public static func read(_ bytes: [UInt8], name: String, fallback: Zone) -> Result<FileRead, YomoInterchange.Problem> {
        func bad(_ m: String) -> Result<FileRead, YomoInterchange.Problem> { .failure(YomoInterchange.Problem(place: name, message: m)) }
        let (root, problems) = ICSReader.parse(bytes)
        if let p = problems.first { return bad((p.line.map { "line \($0): " } ?? "") + p.message + " (a copy still being written?)") }
        guard let cal = root, cal.name == "VCALENDAR" else { return bad("not an iCalendar file") }
        let todos = cal.children.filter { $0.name == "VTODO" }
        guard let master = todos.first(where: { $0.first("RECURRENCE-ID") == nil }) ?? todos.first,
              let uidProp = master.first("UID") else { return bad("no VTODO with a UID") }
        let uid = ICSValue.text(uidProp.value).trimmingSpaces
        if todos.contains(where: { ICSValue.text($0.first("UID")?.value ?? "").trimmingSpaces != uid }) {
            return bad("more than one task (UID) in one file")
        }
        // A task client moves DUE: when there is one, it is the time to remind.
        if let due = master.first("DUE") {
            var start = due
            start.name = "DTSTART"
            master.props = master.props.filter { $0.name != "DTSTART" && $0.name != "DUE" && $0.name != "DURATION" } + [start]
        }
        let zones = ICSZones(calendar: cal)
        // Occurrences marked completed are read below, not as moved ones.
        let all = cal.children
        cal.children = all.filter { !($0.name == "VTODO" && $0.first("RECURRENCE-ID") != nil && isCompleted($0)) }
        let (items, itemProblems, warnings) = YomoInterchange.fromCalendar(cal, name: name, fallbackZone: fallback)
        cal.children = all
        if let p = itemProblems.first { return bad(p.message) }
        let status = master.first("STATUS")?.value.trimmingSpaces.uppercased()
        var item = items.first
        // A client that writes times in UTC (todoman does) means the instant, not the zone.
        if var i = item, i.zone == "UTC", fallback.name != "UTC" {
            i.anchor = fallback.local(Zone.utc.resolve(i.anchor))
            i.zone = fallback.name
            item = i
        }
        var due: Instant? = nil
        // A series yomo wrote due at its pending occurrence: anchored at its first again.
        if var i = item, i.recurrence.repeats, !i.recurrence.basedOnCompletion, let x = master.first("X-YOMO-ANCHOR"),
           let v = ICSValue.dateOrDateTime(x.value.trimmingSpaces), let iz = ZoneCache.named(i.zone) {
            var first: LocalDateTime? = nil
            switch v {
            case .local(let l): first = l
            case .utc(let u): first = iz.local(u)
            case .date: break
            }
            let d = iz.resolve(i.anchor)
            if let a = first, a < i.anchor, i.recurrence.next(after: Instant(ms: d.ms - 1), anchor: a, zone: iz) == d {
                i.anchor = a
                item = i
                due = d
            }
        }
        var done: [Instant] = []
        let zone = item.flatMap { ZoneCache.named($0.zone) } ?? fallback
        for c in todos where isCompleted(c) {
            guard let rid = c.first("RECURRENCE-ID"), let v = ICSValue.dateOrDateTime(rid.value.trimmingSpaces) else { continue }
            switch v {
            case .utc(let i): done.append(i)
            case .date(let d): done.append(zone.resolve(LocalDateTime(day: d, time: item?.anchor.time ?? YomoInterchange.allDayTime)))
            case .local(let l):
                if let t = rid.param("TZID"), case .success(let z) = zones.zone(t) { done.append(z.resolve(l)) } else { done.append(zone.resolve(l)) }
            }
        }
        var snooze: Instant? = nil
        if let x = master.first("X-YOMO-SNOOZE"), case .utc(let i)? = ICSValue.dateOrDateTime(x.value.trimmingSpaces) { snooze = i }
        for a in master.children where a.name == "VALARM" && snooze == nil {
            if let t = a.first("TRIGGER"), t.param("VALUE")?.uppercased() == "DATE-TIME", case .utc(let i)? = ICSValue.dateOrDateTime(t.value.trimmingSpaces) {
                snooze = i
            }
        }
        var pending: Instant? = nil
        if let x = master.first("X-YOMO-TRIGGER"), case .utc(let i)? = ICSValue.dateOrDateTime(x.value.trimmingSpaces) { pending = i }
        var modified: Instant? = nil
        if let m = master.first("LAST-MODIFIED"), case .utc(let i)? = ICSValue.dateOrDateTime(m.value.trimmingSpaces) { modified = i }
        let own = warnings.filter { !$0.contains("an alarm at a fixed time") }
        return .success(FileRead(uid: uid, item: item, cancelled: status == "CANCELLED", completedOccurrences: done.sorted(),
                                 snooze: snooze, lastModified: modified, sequence: YomoInterchange.sequence(master),
                                 version: master.first("X-YOMO-VERSION").map { $0.value.trimmingSpaces }, pending: pending,
                                 due: due, warnings: own, calendar: cal))
    }
}
