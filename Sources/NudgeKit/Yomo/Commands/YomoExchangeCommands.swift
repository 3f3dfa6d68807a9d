// yomo's `export` and `import`. Handlers only: the formats are read and
// written by the rules in YomoInterchange.swift, YomoICSExport.swift and
// YomoICSImport.swift, which also plan the ids an import gets. An import is
// all or nothing: one problem and the transaction records nothing.

extension Yomo {
    static func exportCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read(full: true)
        let all = s.active + s.reminders.values.filter(\.completed).sorted { ($0.completedAt ?? $0.updatedAt, $0.id) < ($1.completedAt ?? $1.updatedAt, $1.id) }
        if ctx.option("format") == "taskwarrior" {
            let (text, warnings) = YomoInterchange.exportTaskwarrior(all)
            for w in warnings { ctx.warn("warning: \(w)") }
            ctx.out.rawForced(text)
            return .ok
        }
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
        let (bytes, name) = try Sys.readInput(path)
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
            let (plan, taken, unchanged) = YomoInterchange.plan(items, existing: tx.state.reminders, name: name, zone: zone, now: ctx.now)
            problems += taken
            if unchanged > 0 { notes.append("\(unchanged) already here from an earlier import, unchanged") }
            if !problems.isEmpty {
                for p in problems.dropLast() { ctx.warn(p.text.terminalSafe) }
                throw ToolError(.dataError, "\(problems.last!.text.terminalSafe); nothing imported (\(problems.count) problem\(problems.count == 1 ? "" : "s"))")
            }
            var out: [Reminder] = []
            let at = ctx.clock.format(ctx.now)
            for p in plan {
                for e in YomoInterchange.events(for: p, at: at) { tx.record(e) }
                out.append(try stored(tx.state, p.id))
            }
            return out
        }
        for n in notes { ctx.warn(n.terminalSafe) }
        keepVdir(ctx, ids: Set(done.map(\.id)))
        for r in done { ctx.out.emit(r.record(zone: ctx.zone), text: "Imported " + line(r, zone: ctx.zone)) }
        return .ok
    }
}
