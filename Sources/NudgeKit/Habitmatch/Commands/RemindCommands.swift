// `remind`, for cron: the notifications due now (habits not done by their
// reminder time, meetings soon, streak milestones, new matches). What is
// due is decided by Rules/HabitmatchReminders; this handler records and
// prints it.
//
// Invariants: each notification is printed once, ever: its key is recorded
// in the member's own folder in the same batch that decides it, so a second
// run prints nothing new. Nothing due writes nothing.

extension Habitmatch {
    static func remind(_ ctx: Context) throws(ToolError) -> ExitCode {
        let u = me(ctx)
        let pre = commandPrefix(ctx)
        guard try !reminders(view(ctx), user: u, now: ctx.now).isEmpty else { return .ok }
        // A --now ahead of the real clock is a preview (what cron will print
        // then): printed, not recorded, so cron still tells it when it comes.
        if ctx.pinned && ctx.now.ms > Sys.nowMillis() + clockSkewMillis {
            let s = try view(ctx)
            _ = try member(s, ctx)
            for r in reminders(s, user: u, now: ctx.now, commandPrefix: pre) {
                ctx.out.emit(r.notification, text: "\((r.notification["title"]?.string ?? "").terminalSafe): \((r.notification["body"]?.string ?? "").terminalSafe)")
            }
            ctx.note("a preview: --now is ahead of this computer's clock, so nothing is recorded as told")
            return .ok
        }
        let list = try write(ctx, folder: "self") { (tx) throws(ToolError) -> [JSONObject] in
            _ = try member(tx.state, ctx)
            let rs = reminders(tx.state, user: u, now: ctx.now, commandPrefix: pre)
            for r in rs { tx.record(["type": "reminded", "key": .string(r.key)]) }
            return rs.map(\.notification)
        }
        for n in list { ctx.out.emit(n, text: "\((n["title"]?.string ?? "").terminalSafe): \((n["body"]?.string ?? "").terminalSafe)") }
        return .ok
    }
}
