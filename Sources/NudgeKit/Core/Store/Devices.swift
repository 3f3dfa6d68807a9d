// `TOOL devices`: the actors whose journals a store folds — this device and
// the others that share its sync folder — with when each last wrote. A
// device silent for 30 days is marked, so a forgotten laptop is noticed.

public enum Devices {
    public static let quietDays = 30

    /// One record per journal, newest first.
    public static func records<M: JournalModel>(_ store: Store<M>, now: Instant, zone: Zone) throws(ToolError) -> [JSONObject] {
        let own = store.options.actor
        return try store.journals().sorted { ($0.lastStamp?.ms ?? 0, $0.actor) > ($1.lastStamp?.ms ?? 0, $1.actor) }.map { j in
            let last = j.lastStamp.map { Instant(ms: $0.ms) }
            let days = last.map { Int((now.ms - $0.ms) / 86_400_000) }
            return ["type": "device", "actor": .string(j.actor), "this_device": .bool(j.actor == own),
                    "last_seen": JSON(last.map(zone.format)), "days_silent": JSON(days.map { max(0, $0) }),
                    "quiet": .bool((days ?? 0) >= quietDays), "bytes": JSON(j.bytes)]
        }
    }

    /// The handler every syncing tool shares.
    public static func command<M: JournalModel>(_ ctx: Context, _ store: Store<M>) throws(ToolError) -> ExitCode {
        for r in try records(store, now: ctx.now, zone: ctx.zone) {
            let actor = (r["actor"]?.string ?? "").terminalSafe
            let seen = r["last_seen"]?.string ?? "never"
            let mark = r["this_device"]?.bool == true ? " (this device)" : (r["quiet"]?.bool == true ? " (silent \(quietDays)+ days)" : "")
            ctx.out.emit(r, text: "\(actor)  \(seen)\(mark)")
        }
        return .ok
    }
}
