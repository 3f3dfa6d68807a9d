// The reminder form: what the parser understood, overridden by explicit
// options, with the defaults (today, the next full hour), and the event that
// records it. Pure: the options, the parse, now and the zone in; a form or a
// usage error that says what is accepted out.
//
// Invariants: an option always wins over the parse; a rule the options
// build is checked (`Recurrence.problem`) before it is kept; a one-time
// reminder whose time has passed today moves to tomorrow only when no date
// was given, and says so in `assumptions`.

public struct ReminderFormOptions: Equatable, Sendable {
    public var title: String?
    public var date: String?
    public var time: String?
    public var notes: String?
    public var repeatKind: String?
    public var days: String?
    public var every: String?
    public var unit: String?
    public var between: String?
    public var on: String?
    public var afterCompletion = false
    public var until: String?
    public var times: String?
    public var warn: String?
    public var nag: String?
    /// The list it belongs to ("" for none).
    public var list: String?
    public init() {}

    public var touchesRecurrence: Bool {
        repeatKind != nil || days != nil || every != nil || unit != nil || between != nil || on != nil || afterCompletion
    }

    /// Whether the options move the reminder in time (not only its title,
    /// notes, list, alerts or nagging).
    public var touchesSchedule: Bool { touchesRecurrence || date != nil || time != nil || until != nil || times != nil }

    /// Whether any option is given.
    public var isEmpty: Bool { self == ReminderFormOptions() }
}

public struct ReminderForm: Equatable, Sendable {
    public var title: String
    public var notes: String
    public var anchor: LocalDateTime
    public var recurrence: Recurrence
    public var assumptions: [String]
    /// The exact first trigger ("in 20 minutes": elapsed time), when the
    /// wall time alone could be ambiguous.
    public var exact: Instant? = nil
    /// Also announce this many minutes before each occurrence, largest first.
    public var alerts: [Int] = []
    /// Announce again every this many minutes until done (0: once).
    public var nagMinutes: Int = 0
    /// The list it belongs to, if any.
    public var list: String? = nil
}

extension Yomo {
    static func usage(_ m: String) -> ToolError { ToolError(.usage, m) }

    /// A list's name as given: "#" before it dropped, 1 to 64 characters,
    /// no control characters; "" is none (nil).
    public static func listName(_ s: String) throws(ToolError) -> String? {
        var n = s.trimmingSpaces
        if n.isEmpty { return nil }
        if n.hasPrefix("#") { n = String(n.dropFirst()).trimmingSpaces }
        guard !n.isEmpty, n.count <= 64, !n.unicodeScalars.contains(where: { $0.value < 32 || $0.value == 127 }) else {
            throw usage("--list takes a name of 1 to 64 characters without control characters, not '\(s.prefix(70).terminalSafe)'")
        }
        return n
    }

    /// "UTC+11", "gmt-3", "UT+5:30": a zone written as an offset, which
    /// POSIX reads with the sign a person does not mean; never guessed.
    public static func isOffsetName(_ tz: String) -> Bool {
        let u = Array(tz.uppercased())
        return [Array("UTC"), Array("GMT"), Array("UT")].contains { p in u.count > p.count && Array(u.prefix(p.count)) == p && "+-".contains(u[p.count]) }
    }

    /// "2nd-tue", "last-fri", "first-monday".
    public static func parseOrdinalWeekday(_ s: String) -> (Int, Int)? {
        let parts = s.lowercased().split(separator: "-")
        guard parts.count == 2, let o = ReminderParser.ordinal(String(parts[0])), o <= 5,
              let wd = Weekdays.parse(String(parts[1])) else { return nil }
        return (o, wd)
    }

    /// Applies the recurrence options to `base`.
    public static func recurrence(_ o: ReminderFormOptions, base: Recurrence) throws(ToolError) -> Recurrence {
        guard o.touchesRecurrence else { return base }
        var days: [Int]? = nil
        if let d = o.days {
            guard let list = Weekdays.parseList(d) else { throw usage("--days must be weekdays like mon,wed,fri, not '\(d)'") }
            days = list
        }
        var every: Int? = nil
        if let e = o.every {
            guard let n = Int(e), (1...1000).contains(n) else { throw usage("--every must be a whole number from 1 to 1000, not '\(e)'") }
            every = n
        }
        let unit = o.unit.flatMap(Recurrence.Unit.init(rawValue:))
        var kind: Recurrence.Kind
        if let k = o.repeatKind {
            guard let kk = Recurrence.Kind(rawValue: k), kk != .rrule else { throw usage("--repeat must be none, daily, weekly or custom, not '\(k)'") }
            kind = kk
        } else if every != nil || unit != nil || o.between != nil || o.on != nil || o.afterCompletion {
            kind = .custom
        } else if base.kind == .custom && base.unit == .hour {
            kind = .custom
        } else {
            kind = .weekly  // --days alone
        }
        if kind == .none {
            if every != nil || unit != nil || days != nil || o.between != nil || o.on != nil || o.afterCompletion {
                throw usage("--repeat none takes no other recurrence options")
            }
            return .once
        }
        let (baseN, baseUnit) = base.effective
        var r: Recurrence
        switch kind {
        case .none, .rrule: r = .once
        case .daily: r = Recurrence(kind: .daily)
        case .weekly: r = Recurrence(kind: .weekly, days: days ?? (base.unit == .week ? base.days : []))
        case .custom:
            let u = unit ?? (base.kind == .none ? .day : baseUnit)
            r = Recurrence(kind: .custom, interval: every ?? (base.kind == .custom ? baseN : 1), unit: u,
                           days: days ?? (u == baseUnit ? base.days : []))
            if u == baseUnit && u == .hour { r.rangeStart = base.rangeStart; r.rangeEnd = base.rangeEnd }
            if u == baseUnit && u == .month { r.monthOrdinal = base.monthOrdinal; r.monthWeekday = base.monthWeekday }
            r.basedOnCompletion = base.basedOnCompletion
        }
        if let b = o.between {
            let parts = b.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let s = TimeOfDay.parse(String(parts[0])), let e = TimeOfDay.parse(String(parts[1])) else {
                throw usage("--between must be HH:MM-HH:MM like 09:00-18:00 (22:00-06:00 runs overnight), not '\(b)'")
            }
            r.rangeStart = s
            r.rangeEnd = e
        }
        if let on = o.on {
            guard let (ord, wd) = parseOrdinalWeekday(on) else { throw usage("--on must be like 2nd-tue or last-fri, not '\(on)'") }
            r.monthOrdinal = ord
            r.monthWeekday = wd
        }
        if o.afterCompletion {
            if r.kind != .custom {
                r = Recurrence(kind: .custom, interval: r.effective.interval, unit: r.effective.unit, days: r.days,
                               rangeStart: r.rangeStart, rangeEnd: r.rangeEnd, monthOrdinal: r.monthOrdinal, monthWeekday: r.monthWeekday)
            }
            r.basedOnCompletion = true
        }
        r.until = base.until
        r.count = base.count
        if let p = r.problem { throw usage(p) }
        return r
    }

    /// Applies --until and --times to a rule.
    static func ends(_ o: ReminderFormOptions, _ rec: Recurrence) throws(ToolError) -> Recurrence {
        var r = rec
        if let u = o.until {
            guard let d = Day.parse(u) else { throw usage("--until must be a day like 2026-12-24, not '\(u)'") }
            r.until = d
        }
        if let n = o.times {
            guard let c = Int(n), (1...1000).contains(c) else { throw usage("--times must be a whole number from 1 to 1000, not '\(n)'") }
            r.count = c
        }
        if (o.until != nil || o.times != nil) && !r.repeats { throw usage("--until and --times need a repeating rule") }
        return r
    }

    /// "10m", "1h", "90" (minutes), "2d", "1h30m": minutes, 1 to 10080 (a week).
    public static func parseDuration(_ s: String) -> Int? { Durations.minutes(s) }

    /// The next full hour after `now` (10:07 → 11:00; 10:00 → 11:00).
    public static func nextFullHour(_ now: Instant, zone: Zone) -> LocalDateTime {
        let l = zone.local(now)
        return LocalDateTime(wallSeconds: (l.wallSeconds / 3600 + 1) * 3600)
    }

    /// Builds the form for `add`: the parse result (or the literal text), the
    /// options on top, then the defaults.
    public static func form(parsed: ParsedReminder, options o: ReminderFormOptions, now: Instant, zone: Zone) throws(ToolError) -> ReminderForm {
        var assumptions = parsed.assumptions
        let title = (o.title ?? parsed.title).trimmingSpaces
        guard !title.isEmpty else {
            throw usage("a reminder needs a title: the text held only a date, time or rule")
        }
        let rec = try ends(o, try recurrence(o, base: parsed.recurrence))
        // What is stored must read back (`Recurrence.stored`).
        if let p = rec.problem { throw usage(p) }
        let alerts = try Yomo.alerts(o.warn)
        var nagMinutes = 0
        if let n = o.nag, n != "0" {
            guard let m = parseDuration(n), (1...1440).contains(m) else {
                throw usage("--nag must be a duration from 1m to 1d like 5m or 1h, or 0 for none, not '\(n.prefix(40).terminalSafe)'")
            }
            nagMinutes = m
        }
        var date = parsed.date
        var dateExplicit = date != nil
        if let d = o.date {
            let today = zone.day(of: now)
            if d == "today" { date = today } else if d == "tomorrow" { date = today.adding(days: 1) } else {
                guard let dd = Day.parse(d) else { throw usage("--date must be a day like 2026-11-22 (or today, tomorrow), not '\(d)'") }
                date = dd
            }
            dateExplicit = true
        }
        var time = parsed.time
        if let t = o.time {
            guard let tt = TimeOfDay.parse(t) else { throw usage("--time must be HH:MM on a 24-hour clock like 15:30, not '\(t)'") }
            time = tt
        }
        if let d = date, let e = Clock.plausible(day: d, what: o.date != nil ? "--date" : "the date") { throw usage(e.message) }
        let defaultAt = nextFullHour(now, zone: zone)
        var anchor = LocalDateTime(day: date ?? zone.day(of: now), time: time ?? defaultAt.time)
        if date == nil && time == nil { anchor = defaultAt }
        // Whether where a rule's first falls is said below (its time has passed today).
        var firstSaid = false
        if !dateExplicit && !rec.repeats && zone.resolve(anchor) < now {
            anchor.day = anchor.day.adding(days: 1)
            assumptions.append("\(anchor.time) has passed today: set for tomorrow")
        }
        // "every 3 days at 9am" once 09:00 has passed: the nearest first occurrence is tomorrow's, and the
        // phase follows; "every 2 weeks at 9am" on a Saturday: next Saturday's.
        if rec.repeats && !rec.basedOnCompletion && rec.kind == .custom && rec.interval > 1 && !dateExplicit && time != nil
            && zone.resolve(anchor) < now && (rec.unit == .day || (rec.unit == .week && rec.days.isEmpty)) {
            let week = rec.unit == .week
            anchor.day = anchor.day.adding(days: week ? 7 : 1)
            firstSaid = true
            assumptions.append("\(anchor.time) has passed today: every \(rec.interval) \(week ? "weeks" : "days") from \(week ? "\(Weekdays.display(anchor.day.weekday)) \(anchor.day)" : "tomorrow")")
        }
        // "every 3 months at 9am", "every year at 9am", "every week at 9am" once 09:00 has passed: today's date
        // (or weekday) is kept, so the first is a whole interval on; said.
        if rec.repeats && !rec.basedOnCompletion && !dateExplicit && time != nil && zone.resolve(anchor) < now
            && ((rec.kind == .custom && (rec.unit == .month || rec.unit == .year)) || rec.kind == .weekly)
            && rec.days.isEmpty && rec.monthOrdinal == nil && rec.set == nil,
           let first = Yomo.firstTrigger(anchor: anchor, recurrence: rec, now: now, zone: zone) {
            let d = zone.day(of: first)
            firstSaid = true
            assumptions.append("\(anchor.time) has passed today: \(rec.summary) from \(Weekdays.display(d.weekday)) \(d)")
        }
        // The parser's "counted from today" goes when a day was given (--date) or where the first falls was said just above.
        if dateExplicit || firstSaid, let said = parsed.countedFromToday {
            assumptions.removeAll { $0 == said }
        }
        // "every 2 hours" said at 10:00 or 10:20: first at 12:00, that many hours from the last full hour (as
        // table writers, asked, all expected); "hourly", at the next full hour.
        // "every 2 hours tomorrow": on another day, from 09:00 (as "every hour until 5" on another day is).
        // Where the first falls is said as it is: "every 2 hours on weekdays" said on a Saturday is Monday's midnight.
        if rec.repeats && rec.kind == .custom && rec.unit == .hour && rec.rangeStart == nil && time == nil {
            var said: String? = nil
            let today = date == nil || date == zone.day(of: now)
            if today && rec.interval > 1 && rec.interval <= 24 {
                anchor = LocalDateTime(wallSeconds: anchor.wallSeconds + Int64(rec.interval - 1) * 3600)
                said = "\(rec.interval) hours from the last full hour"
            } else if today {
                said = "the next full hour"
            } else if let d = date, d > zone.day(of: now), o.time == nil {
                anchor.time = TimeOfDay(hour: 9, minute: 0)
                said = "on \(Weekdays.display(d.weekday)) \(d)"
            }
            if let said, let first = Yomo.firstTrigger(anchor: anchor, recurrence: rec, now: now, zone: zone) {
                let l = zone.local(first)
                assumptions.append(l.day == anchor.day && l.time == anchor.time ? "'\(rec.summary)' starts at \(anchor.time), \(said)"
                                   : "'\(rec.summary)' starts at \(Weekdays.display(l.day.weekday)) \(l.day) \(l.time), the first on its days")
            }
        }
        if rec.repeats && rec.unit == .hour && rec.rangeStart != nil && time == nil, let s = rec.rangeStart {
            anchor.time = s  // an hourly range starts at its start
            if date == nil { anchor.day = zone.day(of: now) }
        }
        if anchor.day.year > 9998 {
            throw usage("\(anchor.day) is after the year 9998: not a plausible day")
        }
        let rule = try skipping(parsed.skips, rec, anchor: anchor, zone: zone)
        var exact: Instant? = nil
        if let x = parsed.exact, !rec.repeats, o.date == nil, o.time == nil { exact = x }
        var list = parsed.list
        if let l = o.list { list = try Yomo.listName(l) }
        return ReminderForm(title: title, notes: o.notes ?? "", anchor: anchor, recurrence: rule, assumptions: assumptions, exact: exact,
                            alerts: alerts, nagMinutes: nagMinutes, list: list)
    }

    /// The rule with every occurrence on each skipped day cancelled ("every
    /// wed 7pm, not on dec 23"); a day the rule does not fall on is refused,
    /// never dropped without a word.
    static func skipping(_ days: [Day], _ rec: Recurrence, anchor: LocalDateTime, zone: Zone) throws(ToolError) -> Recurrence {
        var r = rec
        for d in days {
            guard rec.repeats else { throw usage("'skip \(d)' needs a repeating rule") }
            var hits: [LocalDateTime] = []
            let start = zone.resolve(LocalDateTime(day: d, time: TimeOfDay(hour: 0, minute: 0)))
            let end = zone.resolve(LocalDateTime(day: d.adding(days: 1), time: TimeOfDay(hour: 0, minute: 0)))
            rec.walk(after: start.adding(seconds: -1), through: end.adding(seconds: -1), anchor: anchor, zone: zone) { hits.append(zone.local($0)) }
            guard !hits.isEmpty else {
                throw usage("the rule (\(rec.summary)) has no occurrence on \(Weekdays.display(d.weekday)) \(d) to skip: say a day it falls on")
            }
            for h in hits { r = r.overriding(h, to: nil) }
        }
        return r
    }

    /// `--warn`'s leads: durations separated by commas ("1d,15m"), each from
    /// 1 minute to 7 days, at most five; "0" (or nothing) for none.
    public static func alerts(_ w: String?) throws(ToolError) -> [Int] {
        guard let w = w, w != "0", !w.isEmpty else { return [] }
        var leads: [Int] = []
        for part in w.split(separator: ",", omittingEmptySubsequences: false) {
            guard let m = parseDuration(String(part).trimmingSpaces), (1...10080).contains(m) else {
                throw usage("--warn takes durations from 1m to 7d like 10m, 1h or 1d,15m (at most five), or 0 for none, not '\(w.prefix(40).terminalSafe)'")
            }
            if !leads.contains(m) { leads.append(m) }
        }
        guard leads.count <= 5 else { throw usage("--warn takes at most five durations, not \(leads.count)") }
        return leads.sorted(by: >)
    }

    /// `--warn` as a person writes it: "1d,15m" for [1440, 15].
    public static func durationText(_ minutes: [Int]) -> String {
        minutes.map { m in m % 1440 == 0 ? "\(m / 1440)d" : m % 60 == 0 ? "\(m / 60)h" : "\(m)m" }.joined(separator: ",")
    }

    /// Builds the form for `edit` from an existing reminder.
    public static func editForm(_ r: Reminder, options o: ReminderFormOptions, now: Instant, zone: Zone) throws(ToolError) -> ReminderForm {
        var base = ParsedReminder(title: o.title ?? r.title, date: r.anchor.day, time: r.anchor.time, recurrence: r.recurrence, assumptions: [])
        if o.title != nil { base.title = o.title! }
        var opts = o
        opts.notes = o.notes ?? r.notes
        if opts.warn == nil && !r.alerts.isEmpty { opts.warn = durationText(r.alerts) }
        if opts.nag == nil && r.nagMinutes > 0 { opts.nag = durationText([r.nagMinutes]) }
        if opts.list == nil { opts.list = r.list ?? "" }
        return try form(parsed: base, options: opts, now: now, zone: zone)
    }

    /// The event that records a form: "created" for a new reminder, "edited"
    /// for a changed one, with its first trigger in its zone.
    static func createdEvent(_ id: String, _ f: ReminderForm, trigger: Instant, zone z: Zone, type: String, at: String) -> JSONObject {
        var e: JSONObject = ["type": .string(type), "id": .string(id), "title": .string(f.title), "notes": .string(f.notes),
                             "anchor": .string(f.anchor.description), "recurrence": f.recurrence.json,
                             "trigger_at": .string(z.format(trigger)), "zone": .string(z.name), "at": .string(at)]
        if let w = f.alerts.first {
            e["warn_minutes"] = JSON(w)  // what a yomo from before several alerts reads
            if f.alerts.count > 1 { e["alerts"] = .array(f.alerts.map { .int(Int64($0)) }) }
        }
        if f.nagMinutes > 0 { e["nag_minutes"] = JSON(f.nagMinutes) }
        if let l = f.list { e["list"] = .string(l) }
        return e
    }
}
