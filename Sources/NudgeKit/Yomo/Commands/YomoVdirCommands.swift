// yomo's vdir: `vdir sync [PATH]` (a full two-way pass, for cron before
// and after `vdirsyncer sync`), the step every writing command takes to
// keep the vdir of `vdir = PATH` current, and the look `due` and `watch`
// take at it. Handlers only: the pass is Access/YomoVdirPass.swift, what a
// file means Rules/YomoVdirFile.swift and Rules/YomoVdirChanges.swift.
//
// `due` and `watch` read the vdir only when the folder's own stamp moved
// (vdirsyncer and todoman replace files by rename, which changes it): a
// cron run that finds it unchanged costs one stat and one short read.

extension Yomo {
    static let vdirKey = MemoKey<String?>("yomo.vdir")

    /// The vdir of the configuration (`vdir = PATH`), nil for none.
    static func configuredVdir(_ ctx: Context) throws(ToolError) -> String? {
        try ctx.memoThrowing(vdirKey) { () throws(ToolError) -> String? in
            let config = try Config.load(directory: ctx.configDir, known: configKeys)
            guard var d = config["vdir"], !d.isEmpty else { return nil }
            if ctx.keptApart { return ctx.setAside("vdir", d, instead: "name it: yomo vdir sync PATH") }
            if d.hasPrefix("~/") { d = Sys.join(Sys.homeDirectory(), String(d.dropFirst(2))) }
            guard d.hasPrefix("/") else { throw ToolError(.config, "\(config.path): vdir must be an absolute path (or start with ~/), not '\(d)'") }
            return d
        }
    }

    /// A path made absolute against the working folder (the index names the vdir by it).
    static func absolute(_ p: String) -> String {
        if p.hasPrefix("/") { return p }
        var buf = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buf, buf.count) != nil else { return p }
        return Sys.join(String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), p)
    }

    static func vdirPass(_ ctx: Context, _ st: Store<YomoState>, path: String, now: Instant) -> VdirPass {
        VdirPass(store: st, dataDir: ctx.dataDir, path: path, zone: ctx.zone, now: now, device: st.options.actor)
    }

    static func vdirSync(_ ctx: Context) throws(ToolError) -> ExitCode {
        var path = ctx.operands.first.map(absolute)
        if path == nil { path = try configuredVdir(ctx) }
        guard let path else {
            throw ToolError(.config, "no vdir: name one (yomo vdir sync PATH) or set 'vdir = PATH' in \(Sys.join(ctx.configDir, "config"))")
        }
        let st = try store(ctx)
        var pass = vdirPass(ctx, st, path: path, now: ctx.now)
        pass.meter = { (label, total) in ctx.progress(label, total: total, unit: .items("files")) }
        let report = try pass.run(scan: true, ids: nil)
        show(report, ctx: ctx, changes: true)
        return .ok
    }

    /// Prints what a pass found: warnings and conflicts on stderr, the
    /// conflict and dismiss records (and with `changes`, one per change) on stdout.
    static func show(_ report: VdirPass.Report, ctx: Context, changes: Bool) {
        for w in report.warnings { ctx.warn(w) }
        for c in report.conflicts {
            ctx.warn(c.message)
            ctx.out.emit(c.record, text: "conflict \(c.record["id"]?.string?.prefix(6) ?? "") kept \(c.record["kept"]?.string ?? "")")
        }
        for d in report.dismissals {
            ctx.out.emit(d, text: "dismiss \(d["id"]?.string?.prefix(6) ?? "") (\(d["reason"]?.string ?? ""))")
        }
        guard changes else { return }
        for c in report.changes {
            let dir = c["direction"]?.string == "in" ? "from the vdir" : "to the vdir"
            ctx.out.emit(c, text: "\(c["change"]?.string ?? "")  \(c["id"]?.string?.prefix(6) ?? "")  \(dir)")
        }
    }

    /// After a command changed `ids` (nil: possibly any): their files in the
    /// vdir are written or removed. The change is already saved, so a
    /// failure here is a warning; the next `vdir sync` catches up.
    static func keepVdir(_ ctx: Context, ids: Set<String>?) {
        do throws(ToolError) {
            guard let path = try configuredVdir(ctx) else { return }
            var pass = vdirPass(ctx, try store(ctx), path: path, now: ctx.now)
            // An import of thousands writes thousands of files.
            pass.meter = { (label, total) in ctx.progress(label, total: total, unit: .items("files")) }
            let report = try pass.run(scan: false, ids: ids)
            show(report, ctx: ctx, changes: false)
        } catch {
            ctx.warn("vdir: \(error.message); the change is saved, and the next 'yomo vdir sync' writes it there")
        }
    }

    /// For `due` and `watch`: reads the vdir when its folder changed. A bad
    /// configuration is the command's error (78); trouble with the vdir
    /// itself is a warning, and `due` goes on.
    static func refreshVdir(_ ctx: Context, now: Instant) throws(ToolError) {
        guard let path = try configuredVdir(ctx), !VdirPass.unchanged(dataDir: ctx.dataDir, path: path) else { return }
        do throws(ToolError) {
            let report = try vdirPass(ctx, try store(ctx), path: path, now: now).run(scan: false, ids: [])
            show(report, ctx: ctx, changes: false)
        } catch {
            ctx.warn("vdir: \(error.message)")
        }
    }
}
