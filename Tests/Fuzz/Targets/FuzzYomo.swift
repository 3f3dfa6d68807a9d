// yomo: an iCalendar file from any CalDAV client, an RRULE, a phrase a
// person types, each read and then used as yomo uses it (occurrences
// expanded, the reminder made, exported again).
import NudgeKit

enum FuzzYomo {
    /// An .ics file: imported as `yomo import` and `vdir sync` import it,
    /// the reminders made, their next occurrences listed, exported again.
    static func ics(_ data: UnsafeRawBufferPointer) throws(FuzzFailure) {
        let (items, _, _) = YomoInterchange.fromICS(Array(data), name: "fuzz.ics", fallbackZone: FuzzTargets.zone)
        var n = 0
        let (plan, _, _) = YomoInterchange.plan(items, existing: [:], name: "fuzz.ics", zone: FuzzTargets.zone, now: FuzzTargets.now, makeID: { n += 1; return "id\(n)" })
        var state = YomoState(full: true)
        for p in plan {
            for e in YomoInterchange.events(for: p, at: FuzzTargets.zone.format(FuzzTargets.now)) {
                state.apply(e, stamp: Stamp(ms: FuzzTargets.now.ms, actor: "fuzz"))
            }
        }
        let reminders = state.reminders.values.sorted { $0.id < $1.id }
        for r in reminders {
            let list = Yomo.occurrences(r, count: 5, zone: FuzzTargets.zone)
            for (a, b) in zip(list, list.dropFirst()) where b <= a {
                throw FuzzFailure("occurrences of an imported reminder do not move forward: \(a.ms) then \(b.ms)")
            }
        }
        // yomo's own export of them reads back whole.
        let (out, _) = YomoInterchange.exportICS(reminders, fallback: FuzzTargets.zone, now: FuzzTargets.now)
        let (again, problems, _) = YomoInterchange.fromICS(Array(out.utf8), name: "export.ics", fallbackZone: FuzzTargets.zone)
        if let p = problems.first { throw FuzzFailure("yomo's export of an import does not read back: \(p.text)\n\(out)") }
        if again.count != reminders.count { throw FuzzFailure("yomo's export of \(reminders.count) reminders reads back as \(again.count)\n\(out)") }
    }

    /// A rule: read, written, read back to itself; its occurrences from two
    /// starts (one in a spring-forward gap) strictly increasing, and those
    /// from a start near a later instant the same as the walk from the start.
    static func rrule(_ data: UnsafeRawBufferPointer) throws(FuzzFailure) {
        guard let r = try? RRule.parse(FuzzTargets.text(data)) else { return }
        guard let again = try? RRule.parse(r.text), again == r else { throw FuzzFailure("the rule \(r.text) does not read back") }
        for start in [LocalDateTime(day: Day(year: 2026, month: 11, day: 28), time: TimeOfDay(hour: 10, minute: 0)),
                      LocalDateTime(day: Day(year: 2027, month: 3, day: 14), time: TimeOfDay(hour: 2, minute: 30))] {
            var e = RRuleExpansion(rule: r, start: start, zone: FuzzTargets.zone)
            var last: LocalDateTime? = nil
            var walked: [LocalDateTime] = []
            for _ in 0..<60 {
                guard let l = e.nextLocal() else { break }
                if let p = last, l <= p { throw FuzzFailure("\(r.text): \(l) after \(p)") }
                last = l
                walked.append(l)
            }
            guard r.count == nil, walked.count > 10 else { continue }
            let near = walked[5]
            var s = RRuleExpansion.starting(rule: r, start: start, zone: FuzzTargets.zone, near: near)
            var from: [LocalDateTime] = []
            while from.count < 5, let l = s.nextLocal() { if l >= near { from.append(l) } }
            if from != Array(walked[5..<min(10, walked.count)]) { throw FuzzFailure("\(r.text): starting near \(near) gives \(from), the walk \(walked[5...])") }
        }
    }

    /// A phrase as `yomo add` reads it: parsed, made into a form, its first
    /// trigger and next occurrences computed.
    static func phrase(_ data: UnsafeRawBufferPointer) throws(FuzzFailure) {
        let s = FuzzTargets.text(data)
        let parsed = ReminderParser.parse(s, now: FuzzTargets.now, zone: FuzzTargets.zone)
        _ = parsed.record
        guard let f = try? Yomo.form(parsed: parsed, options: ReminderFormOptions(), now: FuzzTargets.now, zone: FuzzTargets.zone) else { return }
        guard let first = f.exact ?? Yomo.firstTrigger(anchor: f.anchor, recurrence: f.recurrence, now: FuzzTargets.now, zone: FuzzTargets.zone) else { return }
        var t = first
        for _ in 0..<5 {
            guard f.recurrence.repeats, let n = f.recurrence.next(after: t, anchor: f.anchor, zone: FuzzTargets.zone) else { break }
            if n <= t { throw FuzzFailure("'\(s)': the occurrence after \(t.ms) is \(n.ms)") }
            t = n
        }
    }
}
