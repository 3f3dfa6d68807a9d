// yomo's export and import commands. Handlers only; the formats are in
// YomoInterchange.swift and YomoICS.swift.

extension Yomo {
    static let exchangeCommands: [CommandSpec] = [
        CommandSpec("export", summary: "Print every reminder as yomo NDJSON or iCalendar",
                    options: [OptionSpec("format", value: "FORMAT", help: "json (NDJSON, the default) or ics (iCalendar)", choices: ["json", "ics"])],
                    details: "The iCalendar form has a VTODO per reminder with DTSTART;TZID, RRULE and VALARM; what RRULE cannot say travels in X-YOMO-RECURRENCE, with a warning.",
                    records: ["reminder"], run: exportCommand),
        CommandSpec("import", summary: "Add reminders from yomo NDJSON, Taskwarrior's export or iCalendar: all, or nothing", usage: "FILE|-",
                    options: [OptionSpec("from", value: "FORMAT", help: "yomo, taskwarrior or ical (default: told by the content)",
                                         choices: ["yomo", "taskwarrior", "ical"]),
                              OptionSpec("tz", value: "ZONE", help: "The zone for times without one (default TZ)")],
                    operands: .words, min: 1, max: 1,
                    details: "Every problem is named (FILE:LINE, or the component); one problem and nothing is imported.",
                    records: ["reminder"], run: importCommand),
    ]

    static func exportCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read(full: true)
        let all = s.active + s.reminders.values.filter(\.completed).sorted { ($0.completedAt ?? $0.updatedAt, $0.id) < ($1.completedAt ?? $1.updatedAt, $1.id) }
        if ctx.option("format") == "ics" {
            let (text, warnings) = YomoInterchange.exportICS(all, fallback: ctx.zone, now: ctx.now)
            for w in warnings { ctx.warn("warning: \(w)") }
            ctx.out.rawForced(text)
            return .ok
        }
        for r in all { ctx.out.record(YomoInterchange.exportRecord(r, zone: ctx.zone)) }
        return .ok
    }

    static func importCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let path = ctx.operands[0]
        let bytes: [UInt8]
        if path == "-" {
            bytes = try Sys.readStream(fd: 0, name: "stdin")
        } else {
            guard let b = try Sys.readFile(path) else { throw ToolError(.noInput, "cannot open \(path): No such file or directory") }
            bytes = b
        }
        let name = path == "-" ? "stdin" : path
        let zone = try reminderZone(ctx)
        let source = ctx.option("from").flatMap(YomoInterchange.Source.init(rawValue:)) ?? YomoInterchange.detect(bytes)
        var items: [YomoInterchange.Item]
        var problems: [YomoInterchange.Problem]
        var notes: [String] = []
        switch source {
        case .yomo:
            (items, problems) = YomoInterchange.fromYomo(bytes, name: name, fallbackZone: zone)
        case .taskwarrior:
            let (i, p, skipped) = YomoInterchange.fromTaskwarrior(bytes, name: name, zone: zone)
            (items, problems) = (i, p)
            if skipped > 0 { notes.append("\(skipped) task\(skipped == 1 ? "" : "s") left out: deleted, recurring instances, or without a due date") }
        case .ical:
            let (i, p, w) = YomoInterchange.fromICS(bytes, name: name, fallbackZone: zone)
            (items, problems, notes) = (i, p, w)
        }
        let done = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> [Reminder] in
            var seen = Set<String>()
            var plan: [(YomoInterchange.Item, String, Zone, Instant?)] = []
            for (k, item) in items.enumerated() {
                var id = item.id ?? IDs.make()
                if item.id != nil && (tx.state.reminders[id] != nil || seen.contains(id)) {
                    if tx.state.reminders[id]?.title == item.title {
                        problems.append(YomoInterchange.Problem(place: "\(name): reminder \(k + 1)", message: "reminder \(id) is already here (imported before?)"))
                        continue
                    }
                    id = IDs.make()
                }
                seen.insert(id)
                let z = YomoInterchange.z(item.zone, zone)
                let trigger = firstTrigger(anchor: item.anchor, recurrence: item.recurrence, now: ctx.now, zone: z)
                plan.append((item, id, z, trigger))
            }
            if !problems.isEmpty {
                for p in problems.dropLast() { ctx.warn(p.text.terminalSafe) }
                throw ToolError(.dataError, "\(problems.last!.text.terminalSafe); nothing imported (\(problems.count) problem\(problems.count == 1 ? "" : "s"))")
            }
            var out: [Reminder] = []
            let at = ctx.clock.format(ctx.now)
            for (item, id, z, trigger) in plan {
                let f = ReminderForm(title: item.title, notes: item.notes, anchor: item.anchor, recurrence: item.recurrence, assumptions: [],
                                     warnMinutes: item.warnMinutes)
                // A rule whose occurrences are all past is kept, completed.
                tx.record(created(ctx, id, f, trigger ?? z.resolve(item.anchor), zone: z, type: "created"))
                if item.completed || trigger == nil {
                    tx.record(["type": "completed", "id": .string(id), "next": .null, "at": .string(at)])
                }
                out.append(tx.state.reminders[id]!)
            }
            return out
        }
        for n in notes { ctx.warn(n.terminalSafe) }
        for r in done { ctx.out.emit(r.record(zone: ctx.zone), text: "Imported " + line(r, zone: ctx.zone)) }
        return .ok
    }
}
