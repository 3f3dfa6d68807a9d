// The reminder form: what the parser understood, overridden by explicit
// options, with the seed's defaults (today, the next full hour). Pure.

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
    public init() {}

    public var touchesRecurrence: Bool {
        repeatKind != nil || days != nil || every != nil || unit != nil || between != nil || on != nil || afterCompletion
    }
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
    /// Announce this many minutes before each occurrence too (0: not).
    public var warnMinutes: Int = 0
}

extension Yomo {
    static func usage(_ m: String) -> ToolError { ToolError(.usage, m) }

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
            guard let kk = Recurrence.Kind(rawValue: k) else { throw usage("--repeat must be none, daily, weekly or custom, not '\(k)'") }
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
        case .none: r = .once
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
    public static func parseDuration(_ s: String) -> Int? {
        var total = 0
        var num = 0
        var digits = 0
        for c in s.lowercased() {
            if let d = c.wholeNumberValue, c.isASCII { num = num * 10 + d; digits += 1; if digits > 6 { return nil }; continue }
            guard digits > 0 else { return nil }
            switch c {
            case "m": total += num
            case "h": total += num * 60
            case "d": total += num * 1440
            default: return nil
            }
            num = 0
            digits = 0
        }
        total += num
        return (1...10080).contains(total) ? total : nil
    }

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
        var warnMinutes = 0
        if let w = o.warn, w != "0" {
            guard let m = parseDuration(w) else { throw usage("--warn must be a duration like 10m, 1h or 2d (up to 7d), or 0, not '\(w)'") }
            warnMinutes = m
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
        if !dateExplicit && !rec.repeats && zone.resolve(anchor) < now {
            anchor.day = anchor.day.adding(days: 1)
            assumptions.append("\(anchor.time) has passed today: set for tomorrow")
        }
        if rec.repeats && rec.unit == .hour && rec.rangeStart != nil && time == nil, let s = rec.rangeStart {
            anchor.time = s  // an hourly range starts at its start
            if date == nil { anchor.day = zone.day(of: now) }
        }
        var exact: Instant? = nil
        if let x = parsed.exact, !rec.repeats, o.date == nil, o.time == nil { exact = x }
        return ReminderForm(title: title, notes: o.notes ?? "", anchor: anchor, recurrence: rec, assumptions: assumptions, exact: exact,
                            warnMinutes: warnMinutes)
    }

    /// Builds the form for `edit` from an existing reminder.
    public static func editForm(_ r: Reminder, options o: ReminderFormOptions, now: Instant, zone: Zone) throws(ToolError) -> ReminderForm {
        var base = ParsedReminder(title: o.title ?? r.title, date: r.anchor.day, time: r.anchor.time, recurrence: r.recurrence, assumptions: [])
        if o.title != nil { base.title = o.title! }
        var opts = o
        opts.notes = o.notes ?? r.notes
        if opts.warn == nil && r.warnMinutes > 0 { opts.warn = "\(r.warnMinutes)" }
        return try form(parsed: base, options: opts, now: now, zone: zone)
    }

    /// Validates a model's JSON against the parse schema; the reason if not.
    public static func validateParse(_ j: JSON) -> Result<ParsedReminder, JSONParseError> {
        func bad(_ m: String) -> Result<ParsedReminder, JSONParseError> { .failure(JSONParseError(message: m)) }
        guard let o = j.object else { return bad("not a JSON object") }
        guard let title = o["title"]?.string, !title.trimmingSpaces.isEmpty else { return bad("\"title\" must be a non-empty string") }
        var date: Day? = nil
        if let d = o["date"], !d.isNull {
            guard let s = d.string, let dd = Day.parse(s) else { return bad("\"date\" must be YYYY-MM-DD or null") }
            if let e = Clock.plausible(day: dd, what: "\"date\"") { return bad(e.message) }
            date = dd
        }
        var time: TimeOfDay? = nil
        if let t = o["time"], !t.isNull {
            guard let s = t.string, let tt = TimeOfDay.parse(s) else { return bad("\"time\" must be HH:mm or null") }
            time = tt
        }
        if let t = o["recurrence_type"], !t.isNull, t.string == nil { return bad("\"recurrence_type\" must be a string, not \(t.kindName)") }
        let type = o["recurrence_type"]?.string ?? "none"
        guard Recurrence.Kind(rawValue: type) != nil else { return bad("\"recurrence_type\" must be none, daily, weekly or custom") }
        let ruleJSON = o["recurrence_rule"]
        if let rj = ruleJSON, !rj.isNull, rj.object == nil { return bad("\"recurrence_rule\" must be an object or null, not \(rj.kindName)") }
        if let rule = ruleJSON?.object {
            if let i = rule["interval"], !i.isNull, i.int == nil { return bad("\"interval\" must be a whole number, not \(i.kindName)") }
            if let u = rule["unit"], !u.isNull, u.string.flatMap(Recurrence.Unit.init(rawValue:)) == nil { return bad("\"unit\" must be hour, day, week, month or year") }
            if let b = rule["based_on_completion"], !b.isNull, b.bool == nil { return bad("\"based_on_completion\" must be a boolean, not \(b.kindName)") }
            if let d = rule["days_of_week"], !d.isNull, d.array == nil { return bad("\"days_of_week\" must be an array like [\"mon\",\"wed\"] or null, not \(d.kindName)") }
            for k in ["time_range_start", "time_range_end"] {
                if let t = rule[k], !t.isNull, t.string.flatMap(TimeOfDay.parse) == nil { return bad("\"\(k)\" must be HH:mm or null") }
            }
        }
        guard var rec = Recurrence.from(type: type, rule: ruleJSON?.object) else { return bad("\"recurrence_rule\" does not fit the schema") }
        if type == "custom" && ruleJSON?.object == nil { return bad("a custom recurrence needs a recurrence_rule") }
        if rec.kind == .weekly && rec.days.isEmpty, let d = date { rec.days = [d.weekday] }
        if let p = rec.problem { return bad(p) }
        return .success(ParsedReminder(title: title.trimmingSpaces, date: date, time: time, recurrence: rec, assumptions: []))
    }
}
