// playa's backups: the export document and the checks an import makes.
//
// Invariants:
// - Every export imports, into an empty store and over the store it came
//   from: it holds no event or day of a recipient that is gone, and every
//   value in it passes the checks below.
// - An import is all or nothing: every part of the document is checked
//   first, each problem is named by its place in the document (never by a
//   number or a message's text), and one problem applies nothing.

extension Playa {
    public static let exportVersion = 1
    /// How many problems an import names before it says how many more.
    static let maxProblemsShown = 20

    /// Everything, as one JSON document. Events and drawn days of a recipient
    /// that is gone (left by versions before erasure) are not exported.
    public static func exportDocument(_ s: PlayaState, exportedAt: String) -> JSONObject {
        let events = s.events.values.filter { s.recipients[$0.recipientID] != nil }
        let generated = s.generated.filter { key in s.recipients[String(key.prefix { $0 != "|" })] != nil }
        return ["type": "playa_export", "version": .int(Int64(exportVersion)), "exported_at": .string(exportedAt),
                "recipients": .array(s.recipients.values.sorted { $0.id < $1.id }.map { .object($0.json) }),
                "events": .array(events.sorted { ($0.at, $0.id) < ($1.at, $1.id) }.map { .object($0.json) }),
                "confirmed": JSON(s.confirmed.sorted().map(\.description)),
                "generated": JSON(generated.sorted()),
                "contacts": .array(s.contacts.values.filter { s.recipients[$0.recipientID] != nil }
                    .sorted { ($0.at, $0.id) < ($1.at, $1.id) }.map { .object($0.json) })]
    }

    /// Checks a whole export document against the current state: the events
    /// to record, or every problem found (each one line, naming its place).
    public static func importEvents(_ doc: JSON, into s: PlayaState, now: Instant? = nil) -> Result<[JSONObject], ImportProblems> {
        var problems: [String] = []
        func problem(_ m: String) { problems.append(m) }
        guard let o = doc.object, o["type"]?.string == "playa_export" else {
            return .failure(ImportProblems(["not a playa export: need {\"type\":\"playa_export\",\"version\":1,\"recipients\":[…],\"events\":[…]}"]))
        }
        switch o["version"] {
        case nil, .some(.null): problem("\"version\" is missing: an export says \"version\":\(exportVersion)")
        case .some(let v):
            if let n = v.int {
                if n != Int64(exportVersion) { problem("\"version\" \(n) is not one this playa reads (\(exportVersion)); export it again with the same version of playa") }
            } else {
                problem("\"version\" must be a number, not \(v.kindName)")
            }
        }
        for k in ["recipients", "events", "confirmed", "generated", "contacts"] {
            if let v = o[k], v.array == nil { problem("\"\(k)\" must be an array, not \(v.kindName)") }
        }
        var out: [JSONObject] = []
        var recipients = s.recipients
        var seenRecipients = Set<String>()
        for (n, j) in (o["recipients"]?.array ?? []).enumerated() {
            guard let ro = j.object else { problem("recipients[\(n)]: must be an object, not \(j.kindName)"); continue }
            switch Recipient.from(ro) {
            case .failure(let e): problem("recipients[\(n)]: \(e.message)")
            case .success(let r):
                guard seenRecipients.insert(r.id).inserted else {
                    problem("recipients[\(n)]: the id \(r.id) is used twice")
                    continue
                }
                recipients[r.id] = r
                out.append(saved(r))
            }
        }
        var names: [String: String] = [:]
        for r in recipients.values.sorted(by: { $0.id < $1.id }) {
            let key = r.name.lowercased()
            if names[key] != nil { problem("two recipients would be named '\(r.name)' (\(names[key]!) and \(r.id))") } else { names[key] = r.id }
        }
        let active = recipients.values.filter { !$0.paused }.count
        if active > maxRecipients { problem("\(active) active recipients; at most \(maxRecipients)") }
        var seenEvents = Set<String>()
        for (n, j) in (o["events"]?.array ?? []).enumerated() {
            guard let eo = j.object else { problem("events[\(n)]: must be an object, not \(j.kindName)"); continue }
            switch Event.from(eo) {
            case .failure(let e): problem("events[\(n)]: \(e.message)")
            case .success(let ev):
                if !seenEvents.insert(ev.id).inserted { problem("events[\(n)]: the id \(ev.id) is used twice"); continue }
                guard recipients[ev.recipientID] != nil else {
                    problem("events[\(n)]: event \(ev.id): no recipient \(ev.recipientID) in the document or here")
                    continue
                }
                if let old = s.events[ev.id], old.status != ev.status, !canMove(old.status, to: ev.status) {
                    problem("events[\(n)]: event \(ev.id) is \(old.status.rawValue) here and cannot become \(ev.status.rawValue)")
                    continue
                }
                out.append(saved(ev))
            }
        }
        for (n, d) in (o["confirmed"]?.array ?? []).enumerated() {
            guard let day = d.string.flatMap(Day.parse) else { problem("confirmed[\(n)]: must be a day like 2026-11-22"); continue }
            if let e = Clock.plausible(day: day, what: "confirmed[\(n)]") { problem(e.message); continue }
            out.append(["type": "day_confirmed", "date": .string(day.description)])
        }
        for (n, g) in (o["generated"]?.array ?? []).enumerated() {
            guard let parts = g.string?.split(separator: "|", omittingEmptySubsequences: false), parts.count == 2, !parts[0].isEmpty,
                  let d = Day.parse(String(parts[1])) else {
                problem("generated[\(n)]: entries are \"RECIPIENT|YYYY-MM-DD\"")
                continue
            }
            if let e = Clock.plausible(day: d, what: "generated[\(n)]") { problem(e.message); continue }
            out.append(["type": "generated", "recipient_id": .string(String(parts[0])), "date": .string(d.description)])
        }
        var seenContacts = Set<String>()
        for (n, j) in (o["contacts"]?.array ?? []).enumerated() {
            guard let co = j.object else { problem("contacts[\(n)]: must be an object, not \(j.kindName)"); continue }
            switch Contact.from(co) {
            case .failure(let e): problem("contacts[\(n)]: \(e.message)")
            case .success(let c):
                if !seenContacts.insert(c.id).inserted { problem("contacts[\(n)]: the id \(c.id) is used twice"); continue }
                if let t = now, c.at.ms > t.ms + contactLeadMillis {
                    problem("contacts[\(n)]: contact \(c.id): \"at\" \(c.at) is in the future (now is \(t))")
                    continue
                }
                guard recipients[c.recipientID] != nil else {
                    problem("contacts[\(n)]: contact \(c.id): no recipient \(c.recipientID) in the document or here")
                    continue
                }
                if s.contacts[c.id] == nil { out.append(saved(c)) }
            }
        }
        return problems.isEmpty ? .success(out) : .failure(ImportProblems(problems))
    }

    /// Everything wrong with a document, in document order.
    public struct ImportProblems: Error, Sendable, Equatable {
        public var all: [String]
        public init(_ all: [String]) { self.all = all }
        /// At most `maxProblemsShown` lines, the last saying how many more.
        public var lines: [String] {
            guard all.count > maxProblemsShown else { return all }
            return Array(all.prefix(maxProblemsShown)) + ["and \(all.count - maxProblemsShown) more problems"]
        }
    }
}
