// yomo's device commands: `devices`, `devices forget NAME` and
// `purge --yes`. Handlers only: who is listed, and as silent, is decided by
// YomoDevices.list; forgetting and erasing are events the fold applies on
// every device.

extension Yomo {
    static func devicesList(_ ctx: Context) throws(ToolError) -> ExitCode {
        let st = try store(ctx)
        let s = try st.read()
        let list = YomoDevices.list(try st.journals(), state: s, me: st.options.actor, now: ctx.now)
        for d in list {
            let seen = d.lastSeen.map { ctx.zone.format($0) } ?? "never"
            var text = "\(d.name.terminalSafe)  \(seen)"
            if d.thisDevice { text += "  (this device)" }
            if d.silent { text += "  [silent \(YomoDevices.silentDays)+ days]" }
            ctx.out.emit(d.record(zone: ctx.zone), text: text)
        }
        return .ok
    }

    static func devicesForget(_ ctx: Context) throws(ToolError) -> ExitCode {
        let name = ctx.operands[0]
        let st = try store(ctx)
        if name == st.options.actor {
            throw ToolError(.usage, "'\(name)' is this device; forget it from another one")
        }
        let known = try st.journals().map(\.actor)
        guard known.contains(name) else {
            throw ToolError(.dataError, "no device named '\(name)'; 'yomo devices' lists them")
        }
        let at = ctx.clock.format(ctx.now)
        try st.write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) in
            tx.record(["type": "forget", "device": .string(name), "at": .string(at)])
        }
        ctx.out.emit(["type": "device", "name": .string(name), "forgotten": true], text: "Forgot \(name.terminalSafe); its history stays")
        return .ok
    }

    static func purge(_ ctx: Context) throws(ToolError) -> ExitCode {
        try ctx.confirm("Erase every reminder and its history, on every device?", command: "yomo purge")
        let at = ctx.clock.format(ctx.now)
        let n = try store(ctx).write(at: ctx.now, zone: ctx.zone) { (tx) throws(ToolError) -> Int in
            let n = tx.state.reminders.count + tx.state.raw.count { $0 != nil }
            tx.record(["type": "erase", "all": true, "at": .string(at)])
            return n
        }
        keepVdir(ctx, ids: nil)
        ctx.out.emit(["type": "purged", "reminders": JSON(n)], text: "Erased \(n) reminder\(n == 1 ? "" : "s"); every device drops them when it syncs")
        return .ok
    }
}
