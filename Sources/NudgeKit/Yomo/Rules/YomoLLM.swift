// What yomo asks a model command (`--llm-command`, config `llm_command`)
// and how it checks the answer. Pure: the sentence, now and the zone in, the
// prompt out; the command's output in, a parse or the reason it does not fit
// out. Running the command, and falling back to the built-in parser, is the
// handler's part.
//
// Invariants: the answer has the schema `yomo parse` prints (title, date,
// time, recurrence_type, recurrence_rule); anything else in it, or around it
// (prose, code fences), is ignored; a field of the wrong type, a date outside
// the plausible window or a rule yomo cannot keep is a reason, never a guess.

extension Yomo {
    /// The prompt: the schema to answer in, today and the time now, and the text.
    static func llmPrompt(_ text: String, now: Instant, zone: Zone) -> String {
        let today = zone.day(of: now)
        return "Extract reminder details from the user input. Today is \(today) (\(Weekdays.names[today.weekday])), now \(zone.local(now).time). Return JSON only: {\"title\": string, \"date\": \"YYYY-MM-DD\" or null, \"time\": \"HH:mm\" or null, \"recurrence_type\": \"none\"|\"daily\"|\"weekly\"|\"custom\", \"recurrence_rule\": {\"interval\": number, \"unit\": \"hour\"|\"day\"|\"week\"|\"month\"|\"year\", \"days_of_week\": [\"mon\",...] or null, \"time_range_start\": \"HH:mm\" or null, \"time_range_end\": \"HH:mm\" or null, \"based_on_completion\": boolean} or null}\nInput: \"\(text)\"\n"
    }

    /// The model's answer as a parse: the outermost JSON object in its
    /// output, checked against the schema.
    static func llmAnswer(_ out: [UInt8]) -> Result<ParsedReminder, JSONParseError> {
        // Models like to wrap JSON in prose or code fences: take the outermost object.
        var bytes = out
        if let a = bytes.firstIndex(of: UInt8(ascii: "{")), let b = bytes.lastIndex(of: UInt8(ascii: "}")), a < b {
            bytes = Array(bytes[a...b])
        }
        return Result(catching: { () throws(JSONParseError) in try JSON.parse(bytes) }).flatMap(validateParse)
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
