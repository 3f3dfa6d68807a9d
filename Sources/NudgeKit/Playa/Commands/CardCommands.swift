// `playa recipient import`: recipients from vCard files and vdirs (khard's,
// vdirsyncer's). Reading is Core/Messages/VCard.swift; what each card does
// is Rules/CardImport.swift; here are the files and the one transaction.

extension Playa {
    /// The most a vCard file (or standard input) may hold: 64 MB, some
    /// 400,000 cards.
    static let maxCardBytes = 64 << 20

    /// The cards of each operand: a .vcf file, a folder of them (a vdir),
    /// or standard input for "-". Lines that are not vCard are warned of.
    static func readCards(_ ctx: Context, _ paths: [String]) throws(ToolError) -> [(VCard, String)] {
        var out: [(VCard, String)] = []
        func read(_ bytes: [UInt8], _ name: String) {
            let (cards, problems) = VCardReader.parse(bytes)
            for p in problems { ctx.warn("\(name.terminalSafe)\(p.line.map { ":\($0)" } ?? ""): \(p.message)") }
            out += cards.map { ($0, name) }
        }
        for path in paths {
            if path != "-", case .directory = try Sys.pathState(path) {
                let entries = try Sys.scanDirectory(path, suffix: ".vcf") ?? []
                let meter = ctx.progress("reading \(path)", total: entries.count, unit: .items("files"))
                defer { meter.finish() }
                for e in entries {
                    meter.add()
                    let file = Sys.join(path, e.name)
                    guard e.kind == .regular else { ctx.warn("\(file.terminalSafe): not a regular file (\(e.kindName)); skipped"); continue }
                    do throws(ToolError) { read(try Sys.readInput(file, cap: maxCardBytes).bytes, file) } catch { ctx.warn(error.message.terminalSafe + "; skipped") }
                }
                if entries.isEmpty { ctx.warn("\(path.terminalSafe): no .vcf files in it") }
            } else {
                let (b, name) = try Sys.readInput(path, cap: maxCardBytes)
                read(b, name)
            }
        }
        return out
    }

    static func cardRecord(_ p: CardPlan) -> JSONObject {
        var o: JSONObject = ["type": "card", "file": .string(p.source), "line": JSON(p.card.line), "name": .string(p.card.name)]
        switch p.outcome {
        case .added: o["action"] = "added"
        case .updated(let what): o["action"] = "updated"; o["changed"] = JSON(what)
        case .unchanged: o["action"] = "unchanged"
        case .skipped(let why): o["action"] = "skipped"; o["reason"] = .string(why)
        }
        if let r = p.recipient { o["recipient_id"] = .string(r.id); o["platform"] = .string(r.platform.rawValue) }
        if !p.notes.isEmpty { o["notes"] = JSON(p.notes) }
        return o
    }

    static func recipientImport(_ ctx: Context) throws(ToolError) -> ExitCode {
        // The choices are checked by the parser: no Instagram (a vCard has no username).
        let platform = ctx.option("platform").flatMap(Platform.init(rawValue:))
        if let c = ctx.option("country"), let e = validateCountry(c) { throw .usage(e) }
        let options = CardOptions(platform: platform, country: ctx.option("country"), paused: ctx.flag("paused"))
        let cards = try readCards(ctx, ctx.operands.isEmpty ? ["-"] : ctx.operands)
        if cards.isEmpty { throw ToolError(.dataError, "no vCard to import (BEGIN:VCARD … END:VCARD); nothing imported") }
        let dry = ctx.flag("dry-run")
        var seeds = SystemRandomNumberGenerator()
        func plan(_ s: PlayaState) -> [CardPlan] { planCards(cards, state: s, options: options, newID: { IDs.make() }, newSeed: { seeds.next() }) }
        let plans: [CardPlan]
        if dry {
            plans = plan(try store(ctx).read())
        } else {
            plans = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> [CardPlan] in
                let plans = plan(tx.state)
                for p in plans {
                    guard let r = p.recipient else { continue }
                    switch p.outcome {
                    case .added, .updated: break
                    case .unchanged, .skipped: continue
                    }
                    tx.record(saved(r))
                    guard let was = p.was else {
                        // Someone new whose date is today: its reminder is drawn now.
                        for o in r.dates { drawDateToday(&tx, r, o, now: ctx.now, today: ctx.today, zone: ctx.zone) }
                        continue
                    }
                    // A date the card moved: its reminder drawn for the old day goes, today's is drawn.
                    for o in r.dates where was.dates.contains(where: { $0.label.lowercased() == o.label.lowercased() && $0 != o }) {
                        dropStaleReminders(&tx, was: was, now: r, label: o.label, today: ctx.today, at: ctx.now, zone: ctx.zone, why: "the date was changed")
                    }
                    for o in r.dates where was.dates.first(where: { $0.label.lowercased() == o.label.lowercased() }) != o {
                        drawDateToday(&tx, r, o, now: ctx.now, today: ctx.today, zone: ctx.zone)
                    }
                }
                return plans
            }
        }
        var counts: [String: Int] = [:]
        var said = 0
        for p in plans {
            let rec = cardRecord(p)
            let action = rec["action"]?.string ?? ""
            counts[action, default: 0] += 1
            // File names and what a card says reach the terminal made safe.
            let at = "\(p.source.terminalSafe):\(p.card.line): "
            // The first few on stderr; the records hold them all.
            var lines = p.notes.map { at + "\(p.card.name.terminalSafe): \($0.terminalSafe)" }
            if case .skipped(let why) = p.outcome { lines.insert(at + "\(p.card.name.isEmpty ? "a card" : p.card.name.terminalSafe) skipped: \(why.terminalSafe)", at: 0) }
            for l in lines {
                said += 1
                if said <= maxProblemsShown { ctx.warn(l) }
            }
            if ctx.out.isJSON { ctx.out.emit(rec, text: nil) }
        }
        if said > maxProblemsShown { ctx.warn("and \(said - maxProblemsShown) more about the cards (--format json gives each card's reason and notes)") }
        func n(_ k: String) -> Int { counts[k] ?? 0 }
        if !ctx.out.isJSON {
            ctx.out.raw((dry ? "Would import" : "Imported") + " \(plans.count) card\(plans.count == 1 ? "" : "s"): \(n("added")) added, \(n("updated")) updated, \(n("unchanged")) unchanged, \(n("skipped")) skipped\n")
        }
        return n("skipped") > 0 && n("skipped") == plans.count ? .dataError : .ok
    }
}
