// yomo with a vdir (vdir = PATH), its figures as main.swift reports them.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import NudgeKit

@MainActor func vdirBench(bin: String, tmp: String, zone: String, senv: [String: String], runs yruns: Int, remind: String?, remPath: String) throws {
    // yomo with a vdir (vdir = PATH): the first full `vdir sync` writes 10,000
    // files, a second finds nothing to do; `due` with the vdir configured, next
    // to remind(1) as above, costs one stat and one short read more.
    let vdirConfig = Sys.join(tmp, "yomo-vdir-config")
    try? Sys.makeDirectories(Sys.join(vdirConfig, "yomo"))
    try Sys.writeFileAtomically(Sys.join(vdirConfig, "yomo/config"), Array("vdir = \(Sys.join(tmp, "yomo-vdir"))\n".utf8))
    let venv = senv.merging(["YOMO_DATA_DIR": Sys.join(tmp, "yomo-vdir-laptop"), "XDG_CONFIG_HOME": vdirConfig]) { $1 }
    let syncv = [Sys.join(bin, "yomo"), "vdir", "sync"], duev = [Sys.join(bin, "yomo"), "due"]
    // Its own snapshot first, as a laptop that has used yomo has one: a read
    // writes it only into a data directory that exists (a read creates none),
    // so the folder is made first; else the sync timed the snapshot's writing.
    try? Sys.makeDirectories(Sys.join(tmp, "yomo-vdir-laptop"), mode: 0o700)
    _ = timeRun([Sys.join(bin, "yomo"), "list"], env: venv)
    if !Sys.fileExists(Sys.join(tmp, "yomo-vdir-laptop/snapshot.ndjson")) { fail("yomo list wrote no snapshot in \(Sys.join(tmp, "yomo-vdir-laptop"))") }
    // Copies of the laptop as it was before its first sync, one a round below.
    for k in 0..<3 { _ = try? Subprocess.run(["cp", "-R", Sys.join(tmp, "yomo-vdir-laptop"), Sys.join(tmp, "yomo-vdir-laptop\(k)")], quiet: true) }
    // The sync ends with one syncfs(2) of the vdir's file system, which also
    // writes back whatever else is waiting there: the hundreds of megabytes
    // this run wrote before (1.8 to 3.3 s across runs, by what the kernel had
    // flushed yet). Flushed first, so that the figure is the sync's own writing.
    sync()
    let firstSync = timeRun(syncv, env: venv), written = Sys.listDirectory(Sys.join(tmp, "yomo-vdir")).filter { $0.hasSuffix(".ics") }.count, againSync = median((0..<5).map { _ in timeRun(syncv, env: venv) })
    // The floor for the first sync: the same files (names and bytes) written by
    // a plain program into a new folder and flushed together (each written,
    // then one syncfs), as yomo must write them: each under a temporary name,
    // renamed after the flush, so that vdirsyncer or a calendar reading the
    // folder never sees half a file (vdirsyncer's own folder storage writes so
    // too). The same without the renames is shown beside it. Creating files
    // costs what the file system's state makes it (ext4 looks past inodes
    // freed a moment ago, so a run after a large delete is slower for any
    // program): three rounds, each the plain writes and a first sync of a copy
    // of the laptop into a new vdir, one after the other; the median of each.
    // What yomo adds is its own: reading the store, making the files' text.
    let vdirFiles = Sys.listDirectory(Sys.join(tmp, "yomo-vdir")).filter { $0.hasSuffix(".ics") }.compactMap { name -> (String, [UInt8])? in
        guard let (bytes, _) = (try? Sys.readPeerFile(Sys.join(Sys.join(tmp, "yomo-vdir"), name), from: 0, cap: 1 << 20)) ?? nil else { return nil }
        return (name, bytes)
    }
    var plainWrites: [Double] = [], safeWrites: [Double] = [], firstSyncs: [Double] = []
    for k in 0..<3 {
        let config = Sys.join(tmp, "yomo-vdir-config\(k)")
        try? Sys.makeDirectories(Sys.join(config, "yomo"))
        try Sys.writeFileAtomically(Sys.join(config, "yomo/config"), Array("vdir = \(Sys.join(tmp, "yomo-vdir\(k)"))\n".utf8))
        // Each round in another order: none always comes after the others' files.
        for step in 0..<3 {
            switch (step + k) % 3 {
            case 0: plainWrites.append(writeFilesPlainly(Sys.join(tmp, "yomo-vdir-plain\(k)"), vdirFiles, safely: false))
            case 1: safeWrites.append(writeFilesPlainly(Sys.join(tmp, "yomo-vdir-safe\(k)"), vdirFiles, safely: true))
            default:
                sync()
                firstSyncs.append(timeRun(syncv, env: venv.merging(["YOMO_DATA_DIR": Sys.join(tmp, "yomo-vdir-laptop\(k)"), "XDG_CONFIG_HOME": config]) { $1 }))
            }
        }
    }
    // The ratio is each round's (the file system's state moves all three of a
    // round alike, and rounds apart by several times), the median of three.
    let (plainWrite, safeWrite, firstRound) = (median(plainWrites), median(safeWrites), median(firstSyncs))
    let vdirRatio = median((0..<3).map { firstSyncs[$0] / safeWrites[$0] })
    print("yomo with a vdir of the same 10,000 reminders:")
    record("yomo vdir sync, first: \(written) files written",
           "\(fmt(vdirRatio))× a plain program writing them safely (medians: \(fmt(firstRound, 0)) ms; safely \(fmt(safeWrite, 0)) ms; without renames \(fmt(plainWrite, 0)) ms; the first sync of the run \(fmt(firstSync, 0)) ms)",
           goal: "≤ 1.2× a plain program", met: vdirRatio <= 1.2 && written == 10_000)
    record("yomo vdir sync, nothing changed (median of 5)", "\(fmt(againSync, 0)) ms", goal: "< 2000 ms", met: againSync < 2000)
    if let remind = remind {
        let remArgv = [remind, "-q", remPath, "22", "Nov", "2026"]
        var td: [Double] = [], tp: [Double] = [], tr: [Double] = []
        for k in 0..<(yruns + 5) {  // the first five warm the page cache
            let (d, r, p) = (timeRun(duev, env: venv), timeRun(remArgv, env: ["TZ": zone]), timeRun(duev, env: senv))
            if k >= 5 { td.append(d); tr.append(r); tp.append(p) }
        }
        reportAgainst("yomo due with the vdir configured, nothing changed", ms: median(td), reference: "remind -q", referenceMs: median(tr), goal: 1.5)
        record("  the same without a vdir", "\(fmt(median(tp), 1)) ms (the vdir adds \(fmt(median(td) - median(tp), 1)) ms)")
    }
}
