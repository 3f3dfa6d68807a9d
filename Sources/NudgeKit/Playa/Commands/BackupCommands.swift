// playa's admin commands for all of the data: export, import and reset.
// Handlers only; the document and its checks are in Rules/PlayaBackup.swift.

extension Playa {
    static func exportCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read(full: true)
        ctx.out.rawForced(exportDocument(s, exportedAt: ctx.clock.format(ctx.now)).serialized + "\n")
        return .ok
    }

    static func importCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let path = ctx.operands[0]
        let (bytes, name) = try Sys.readInput(path)
        let doc: JSON
        // A byte order mark before the document is skipped; positions count from after it.
        let text = JSON.droppingBOM(bytes)
        do throws(JSONParseError) { doc = try JSON.parse(text) } catch {
            // FILE:LINE:COLUMN, as compilers and editors read it.
            guard let (line, column) = error.location(in: text), let reason = error.reason else {
                throw ToolError(.dataError, "\(name): \(error.message); nothing imported")
            }
            throw ToolError(.dataError, "\(name):\(line):\(column): not valid JSON: \(reason); nothing imported")
        }
        let (r, e, c) = try store(ctx).write(full: true, at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> (Int, Int, Int) in
            switch importEvents(doc, into: tx.state, now: ctx.now) {
            case .failure(let problems):
                // Each problem on its own line; the last says nothing was applied.
                let lines = problems.lines
                for l in lines.dropLast() { ctx.warn("\(name): \(l)") }
                throw ToolError(.dataError, "\(name): \(lines.last ?? "bad document"); nothing imported")
            case .success(let evs):
                for ev in evs { tx.record(ev) }
                func count(_ t: String) -> Int { evs.filter { $0["type"]?.string == t }.count }
                return (count("recipient_saved"), count("event_saved"), count("contacted"))
            }
        }
        ctx.out.emit(["type": "import", "recipients": JSON(r), "events": JSON(e), "contacts": JSON(c)],
                     text: "Imported \(r) recipients, \(e) events and \(c) contacts")
        return .ok
    }

    static func reset(_ ctx: Context) throws(ToolError) -> ExitCode {
        try ctx.confirm("Erase every recipient, message and event, on every device? (export first to keep a copy)", command: "playa reset")
        // A tombstone for everything before it: the journal is rewritten
        // without those events, here and on every synced copy.
        try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) in tx.record(["type": "erase", "all": true]) }
        ctx.out.emit(["type": "reset", "at": .string(ctx.clock.format(ctx.now))], text: "Everything is erased.")
        return .ok
    }
}
