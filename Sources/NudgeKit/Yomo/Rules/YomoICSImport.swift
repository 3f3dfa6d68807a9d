// iCalendar (RFC 5545) in: each VTODO or VEVENT read into a reminder to
// create, through Core's reader (Core/Calendar/ICSReader.swift), zones
// (ICSZones.swift) and recurrence sets (ICSRecurrence.swift). Pure: text
// in, items, problems and warnings out.
//
// Invariants: each problem names its line and component (with its UID);
// one problem and the import adds nothing (the handler's part). A start
// with a TZID keeps its zone, a UTC start is kept in UTC, a floating one is
// in the reader's zone. A recurring item keeps its rule as RFC 5545 text
// (RRULE, RDATE, EXDATE, EXRULE) and means what the RFC says; yomo's own
// export carries X-YOMO-RECURRENCE, read back as yomo's rule (in the zone
// X-YOMO-ZONE names, when its start is written in UTC). A component
// with RECURRENCE-ID moves its occurrence of the series (or cancels it,
// STATUS:CANCELLED). Versions as RFC 5546 updates them: of several
// components with one UID (or one UID and RECURRENCE-ID) the highest
// SEQUENCE counts (the first of equals); an override of an occurrence the
// series excludes (EXDATE wins), or that an override older than the series
// names but the series no longer has, is gone. An all-day item is reminded at 09:00 on its day; an
// item with no date at all is left out and counted. An alarm yomo cannot
// keep is named in a warning.

extension YomoInterchange {
    /// -PT10M, -P1D, -PT1H30M, PT0S: minutes (negative: before).
    static func icsDuration(_ v: String) -> Int? { ICSValue.duration(v).map { $0 / 60 } }

    /// The time an all-day item is reminded at.
    public static let allDayTime = TimeOfDay(hour: 9, minute: 0)

    /// VTODOs and VEVENTs into reminders; each problem names its component.
    public static func fromICS(_ bytes: [UInt8], name: String, fallbackZone: Zone) -> ([Item], [Problem], warnings: [String]) {
        let (root, parseProblems) = ICSReader.parse(bytes)
        let problems = parseProblems.map { Problem(place: $0.line.map { "\(name):\($0)" } ?? name, message: $0.message) }
        guard let cal = root, cal.name == "VCALENDAR" else { return ([], problems, []) }
        let (items, more, warnings) = fromCalendar(cal, name: name, fallbackZone: fallbackZone)
        return (items, problems + more, warnings)
    }

    /// The reminders of a calendar already read (ICSReader.parse).
    public static func fromCalendar(_ cal: ICSComponent, name: String, fallbackZone: Zone) -> ([Item], [Problem], warnings: [String]) {
        var problems: [Problem] = []
        var warnings: [String] = []
        let zones = ICSZones(calendar: cal)
        if let p = zones.problem { warnings.append("\(name): \(p)") }
        var items: [Item] = []
        var counts: [String: Int] = [:]
        var places: [ObjectIdentifier: String] = [:]
        var masters: [ICSComponent] = []
        var moved: [String: [ICSComponent]] = [:]
        for c in cal.children where c.name == "VTODO" || c.name == "VEVENT" {
            counts[c.name, default: 0] += 1
            let uid = c.first("UID")?.value
            places[ObjectIdentifier(c)] = "\(name):\(c.line): \(c.name) \(counts[c.name]!)" + (uid.map { " (UID \($0.prefix(40).terminalSafe))" } ?? "")
            if c.first("RECURRENCE-ID") != nil, let u = uid { moved[c.name + "\n" + u, default: []].append(c) } else { masters.append(c) }
        }
        var undated = 0, allDay = 0
        masters = newest(masters)
        let masterKeys = Set(masters.compactMap { c in c.first("UID").map { c.name + "\n" + $0.value } })
        // A moved instance whose series is not in the file stands alone.
        for (k, list) in moved where !masterKeys.contains(k) { masters += newest(list) }
        masters.sort { $0.line < $1.line }
        for c in masters {
            let place = places[ObjectIdentifier(c)]!
            func bad(_ m: String) { problems.append(Problem(place: place, message: m)) }
            let status = c.first("STATUS")?.value.uppercased()
            if status == "CANCELLED" { continue }
            guard c.first("DTSTART") != nil || c.first("DUE") != nil else { undated += 1; continue }
            let title = ICSValue.text(c.first("SUMMARY")?.value ?? "").trimmingSpaces
            guard !title.isEmpty else { bad("SUMMARY is missing or empty"); continue }
            let timing: ICSTiming
            switch ICSRecurrence.timing(c, zones: zones, floating: fallbackZone) {
            case .success(let t): timing = t
            case .failure(let e): bad(e.message); continue
            }
            // yomo's export writes a plain hourly rule's start in UTC and its zone in X-YOMO-ZONE.
            var zone = timing.zone, start = timing.start
            if c.first("X-YOMO-RECURRENCE") != nil, !timing.allDay, let x = c.first("X-YOMO-ZONE"), let z = ICSZones.known(x.value.trimmingSpaces) {
                start = z.local(zone.resolve(start))
                zone = z
            }
            var anchor = start
            if timing.allDay { anchor.time = allDayTime; allDay += 1 }
            var rec = Recurrence.once
            if let x = c.first("X-YOMO-RECURRENCE") {
                let text = ICSValue.text(x.value)
                guard let o = try? JSON.parseObject(bytes: Array(text.utf8)),
                      let r = Recurrence.from(type: o["type"]?.string, rule: o), r.problem == nil else {
                    bad("X-YOMO-RECURRENCE does not hold a yomo rule"); continue
                }
                rec = r
            } else if timing.repeats && c.first("RECURRENCE-ID") == nil {
                rec = Recurrence.rfc(timing.set)
            }
            if !rec.repeats, let e = Clock.plausible(day: anchor.day, what: timing.property) { bad(e.message); continue }
            if rec.repeats, let u = c.first("UID")?.value, let list = moved[c.name + "\n" + u] {
                switch overrides(list, of: rec, sequence: sequence(c), title: title, anchor: start, first: anchor, allDay: timing.allDay,
                                 zone: zone, zones: zones, places: places, fallback: fallbackZone) {
                case .success(let (r, w)): rec = r; warnings += w
                case .failure(let p): problems.append(p); continue
                }
            }
            let (warn, nag) = alarms(c, place: place, problems: &problems, warnings: &warnings)
            if problems.last?.place == place { continue }
            var id: String? = nil
            var source: String? = nil
            if let u = c.first("UID")?.value {
                if u.hasSuffix("@yomo") { id = String(u.dropLast(5)); if !isID(id!) { id = nil } } else { source = "ical:" + u }
            }
            let completed = status == "COMPLETED" || c.first("COMPLETED") != nil
            items.append(Item(id: id, title: title, notes: ICSValue.text(c.first("DESCRIPTION")?.value ?? ""), anchor: anchor, recurrence: rec,
                              zone: zone.name, alerts: warn, completed: completed, source: source,
                              sequence: sequence(c), list: c.first("CATEGORIES").flatMap { firstCategory($0.value) }, nagMinutes: nag))
        }
        if allDay > 0 {
            warnings.append("\(name): \(allDay) all-day item\(allDay == 1 ? " is" : "s are") reminded at \(allDayTime) on \(allDay == 1 ? "its day" : "their days")")
        }
        if undated > 0 { warnings.append("\(name): \(undated) item\(undated == 1 ? "" : "s") without a date left out") }
        return (items, problems, warnings)
    }

    /// A component's SEQUENCE (0 when it has none).
    static func sequence(_ c: ICSComponent) -> Int { c.first("SEQUENCE").flatMap { Int($0.value.trimmingSpaces) } ?? 0 }

    /// One version of each component: of those with the same name, UID and
    /// RECURRENCE-ID the highest SEQUENCE, the first of equals; one without
    /// a UID is its own. In file order.
    static func newest(_ list: [ICSComponent]) -> [ICSComponent] {
        var best: [String: ICSComponent] = [:]
        var out: [ICSComponent] = []
        for c in list {
            guard let u = c.first("UID")?.value else { out.append(c); continue }
            let key = c.name + "\n" + u + "\n" + (c.first("RECURRENCE-ID").map { $0.value.trimmingSpaces + ";" + ($0.param("TZID") ?? "") } ?? "")
            if let b = best[key], sequence(b) >= sequence(c) { continue }
            best[key] = c
        }
        out += best.values
        return out.sorted { $0.line < $1.line }
    }

    /// The moved and cancelled instances (RECURRENCE-ID) of a series, as
    /// overrides of its rule; warnings for what an override cannot keep.
    /// `sequence` is the series' SEQUENCE, `first` its first occurrence as
    /// yomo reminds it (an all-day one at its time of day).
    static func overrides(_ list: [ICSComponent], of rec: Recurrence, sequence seriesSequence: Int, title: String, anchor: LocalDateTime,
                          first: LocalDateTime, allDay: Bool, zone: Zone, zones: ICSZones,
                          places: [ObjectIdentifier: String], fallback: Zone) -> Result<(Recurrence, [String]), Problem> {
        var r = rec
        var warnings: [String] = []
        // Whether the series itself has this occurrence, and whether it excludes it.
        func has(_ l: LocalDateTime, in x: Recurrence) -> Bool {
            let at = zone.resolve(l)
            return x.ruleNext(after: Instant(ms: at.ms - 1), anchor: first, zone: zone) == at
        }
        var unexcluded = rec
        if var s = rec.set { s.exdates = []; s.exrules = []; unexcluded.set = s }
        for o in newest(list) {
            let place = places[ObjectIdentifier(o)]!
            let rid = o.first("RECURRENCE-ID")!
            if rid.param("RANGE")?.uppercased() == "THISANDFUTURE" {
                return .failure(Problem(place: place, message: "RECURRENCE-ID;RANGE=THISANDFUTURE (this and every later occurrence) is not kept by yomo; split the series in the calendar first"))
            }
            guard let v = ICSValue.dateOrDateTime(rid.value.trimmingSpaces) else {
                return .failure(Problem(place: place, message: "RECURRENCE-ID '\(rid.value)' is not a date or date-time"))
            }
            func wall(_ v: ICSDateValue, tzid: String?) -> Result<LocalDateTime, Problem> {
                switch v {
                case .date(let d): return .success(LocalDateTime(day: d, time: anchor.time))
                case .utc(let i): return .success(zone.local(i))
                case .local(let l):
                    guard let t = tzid else { return .success(l) }
                    switch zones.zone(t) {
                    case .success(let z): return .success(z.name == zone.name ? l : zone.local(z.resolve(l)))
                    case .failure(let e): return .failure(Problem(place: place, message: e.message))
                    }
                }
            }
            var occurrence: LocalDateTime
            switch wall(v, tzid: rid.param("TZID")) {
            case .success(let l): occurrence = l
            case .failure(let p): return .failure(p)
            }
            if allDay { occurrence.time = allDayTime }
            if !has(occurrence, in: rec) && (has(occurrence, in: unexcluded) || sequence(o) < seriesSequence) { continue }
            if o.first("STATUS")?.value.uppercased() == "CANCELLED" {
                r = r.overriding(occurrence, to: nil)
                continue
            }
            guard let sp = o.first("DTSTART") ?? o.first("DUE"), let sv = ICSValue.dateOrDateTime(sp.value.trimmingSpaces) else {
                r = r.overriding(occurrence, to: occurrence)
                continue
            }
            var to: LocalDateTime
            switch wall(sv, tzid: sp.param("TZID")) {
            case .success(let l): to = l
            case .failure(let p): return .failure(p)
            }
            if case .date = sv { to.time = allDayTime }
            if to != occurrence { r = r.overriding(occurrence, to: to) }
            let own = ICSValue.text(o.first("SUMMARY")?.value ?? "").trimmingSpaces
            if !own.isEmpty && own != title {
                warnings.append("\(place): the moved occurrence keeps the series' title, not its own ('\(own.prefix(40).terminalSafe)')")
            }
        }
        return .success((r, warnings))
    }

    /// The warning before each occurrence that the item's alarms ask for, in minutes.
    /// The advance alerts (leads in minutes, largest first, at most five)
    /// and the nag interval: an alarm at the start that REPEATs every
    /// DURATION (1 minute to a day), as yomo writes its nag.
    static func alarms(_ c: ICSComponent, place: String, problems: inout [Problem], warnings: inout [String]) -> ([Int], Int) {
        var warn: [Int] = []
        var nag = 0
        for a in c.children where a.name == "VALARM" {
            guard let t = a.first("TRIGGER") else { continue }
            let repeats = a.first("REPEAT").flatMap { Int($0.value.trimmingSpaces) }.map { $0 > 0 } ?? false
            let every = a.first("DURATION").flatMap { icsDuration($0.value) }
            if t.param("VALUE")?.uppercased() == "DATE-TIME" {
                // yomo's alarm at the due time, moved to a snooze's end: its nag goes with it.
                if repeats, let d = every, (1...1440).contains(d) { nag = d }
                warnings.append("\(place): an alarm at a fixed time is not kept")
                continue
            }
            if t.param("RELATED")?.uppercased() == "END" { warnings.append("\(place): an alarm related to the end is not kept"); continue }
            guard let m = icsDuration(t.value) else {
                problems.append(Problem(place: place, message: "VALARM TRIGGER '\(t.value)' is not a duration like -PT10M")); continue
            }
            if m == 0, repeats, let d = every, (1...1440).contains(d) { nag = d }
            if m < 0 && -m <= 10080 { if !warn.contains(-m) { warn.append(-m) } } else if m != 0 {
                warnings.append("\(place): an alarm \(m > 0 ? "after" : "more than a week before") the start is not kept")
            }
        }
        if warn.count > 5 { warnings.append("\(place): \(warn.count) alarms before the start: the five earliest are kept") }
        return (Array(warn.sorted(by: >).prefix(5)), nag)
    }
}

extension YomoInterchange {
    /// The first of a CATEGORIES list ("Groceries,Home"; a comma escaped as
    /// "\\," is part of a name): the reminder's list, 64 characters at most.
    static func firstCategory(_ v: String) -> String? {
        var out = ""
        var escaped = false
        for c in v {
            if escaped { out.append(c); escaped = false; continue }
            if c == "\\" { escaped = true; out.append(c); continue }
            if c == "," { break }
            out.append(c)
        }
        let name = ICSValue.text(out).trimmingSpaces
        guard !name.isEmpty, !name.unicodeScalars.contains(where: { $0.value < 32 || $0.value == 127 }) else { return nil }
        return String(name.prefix(64))
    }
}
