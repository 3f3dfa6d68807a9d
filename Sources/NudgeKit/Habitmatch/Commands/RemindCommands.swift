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
