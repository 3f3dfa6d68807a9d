// Timing whole process runs and reporting them against their goals: the
// medians, the interleaving with a reference program, the rows of the table
// README.md shows.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import NudgeKit

func fail(_ m: String) -> Never {
    Diagnostics.error(m)
    exit(1)
}

/// The folder holding this executable and its siblings.
func productsDirectory() -> String {
    var buf = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buf, 4095)
    let me = n > 0 ? cArrayString(buf) : CommandLine.arguments[0]
    return Sys.parentDirectory(me)
}

func timeRun(_ argv: [String], env: [String: String]) -> Double {
    let start = Sys.monotonicNanos()
    let code = (try? Subprocess.run(argv, env: env, quiet: true)) ?? -1
    let elapsed = Double(Sys.monotonicNanos() - start) / 1e6
    if code != 0 { fail("\(argv.joined(separator: " ")) exited \(code)") }
    return elapsed
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func measure(_ argv: [String], env: [String: String], runs: Int) -> Double {
    sync()  // (as versusMinimal)
    for _ in 0..<5 { _ = timeRun(argv, env: env) }  // warm the page cache
    return median((0..<runs).map { _ in timeRun(argv, env: env) })
}

/// A command's median wall time next to the minimal program's, their runs
/// interleaved so that the machine's load moves both alike (this VM's
/// figures drift by a third within minutes; the ratio far less); and next
/// to the same program built as the tools are (the Swift runtime linked in),
/// which shows what the command's own work costs above start-up.
/// What the steps before wrote is flushed first (sync): the kernel writing
/// back hundreds of megabytes on this VM's two cores would otherwise be
/// timed with whatever command comes next (a walk of /proc files or an
/// fsync waits on it far more than a program that does nothing).
func versusMinimal(_ argv: [String], env: [String: String], runs: Int) -> (ms: Double, minimal: Double, sameBuild: Double) {
    sync()
    let minimalArgv = [Sys.join(productsDirectory(), "minimal")], sameArgv = [Sys.join(productsDirectory(), "minimal-static")]
    for _ in 0..<5 { _ = timeRun(argv, env: env); _ = timeRun(minimalArgv, env: [:]); _ = timeRun(sameArgv, env: [:]) }  // warm the page cache
    var a: [Double] = [], m: [Double] = [], s: [Double] = []
    for _ in 0..<runs {
        a.append(timeRun(argv, env: env))
        m.append(timeRun(minimalArgv, env: [:]))
        s.append(timeRun(sameArgv, env: [:]))
    }
    return (median(a), median(m), median(s))
}

/// One measure as README's table shows it.
struct Row {
    var measure: String
    var result: String
    var goal: String
    var met: Bool?
}
@MainActor var rows: [Row] = []

/// Prints and keeps one measure; `met` nil when it has no goal.
@MainActor func record(_ measure: String, _ result: String, goal: String = "", met: Bool? = nil) {
    rows.append(Row(measure: measure, result: result, goal: goal, met: met))
    let verdict = met.map { $0 ? "ok" : "MISSED" } ?? ""
    print("  \(measure): \(result)\(goal.isEmpty ? "" : "  (goal \(goal))")  \(verdict)")
}

/// A command's time as a ratio to the minimal program's, runs interleaved.
@MainActor func reportRatio(_ label: String, _ r: (ms: Double, minimal: Double, sameBuild: Double), goal: Double?) {
    // The goal is against the empty program built as the tools are: the
    // floor a tool's own work stands on. The dynamic one is shown beside it.
    let x = r.ms / r.sameBuild
    record(label, "\(fmt(x))× minimal-static (\(fmt(r.ms)) ms; minimal-static \(fmt(r.sameBuild)) ms; \(fmt(r.ms / r.minimal))× minimal, \(fmt(r.minimal)) ms)",
           goal: goal.map { "≤ \(fmt($0, 1))× minimal-static" } ?? "", met: goal.map { x <= $0 })
}

/// A throughput next to a reference program's time on the same input.
@MainActor func reportAgainst(_ label: String, ms: Double, reference: String, referenceMs: Double, goal: Double) {
    let x = ms / referenceMs
    record(label, "\(fmt(x))× \(reference) (\(fmt(ms, 0)) ms; \(reference) \(fmt(referenceMs, 0)) ms)", goal: "≤ \(fmt(goal, 1))× \(reference)", met: x <= goal)
}

func fmt(_ v: Double, _ digits: Int = 2) -> String {
    var p = 1.0
    for _ in 0..<digits { p *= 10 }
    let r = (v * p).rounded() / p
    var s = "\(r)"
    let parts = s.split(separator: ".")
    if parts.count == 2 && parts[1].count < digits { s += String(repeating: "0", count: digits - parts[1].count) }
    return s
}


/// Prints the table README.md shows, from this run, and removes the data
/// unless asked to keep it.
@MainActor func finish(tmp: String, keep: Bool) {
    let missed = rows.filter { $0.met == false }.count
    print("\n| measure | result | goal |\n|---|---|---|")
    for r in rows { print("| \(r.measure) | \(r.result) | \(r.goal)\(r.met == false ? " **MISSED**" : "") |") }
    print("\n\(rows.filter { $0.met == true }.count) goals met, \(missed) MISSED")
    if keep {
        print("data kept in \(tmp)")
    } else {
        _ = try? Subprocess.run(["rm", "-rf", tmp], quiet: true)
    }
}

#if canImport(Glibc)
/// syncfs(2): Glibc declares it only under _GNU_SOURCE.
@_silgen_name("syncfs") private func benchSyncfs(_ fd: Int32) -> Int32
#endif

/// Writes the files into a new folder as a plain program would (each
/// created and written, then one flush of the file system for them all;
/// `safely`: each under a temporary name first, renamed after the flush, so
/// that no reader sees half a file); milliseconds, after flushing what was
/// written before.
func writeFilesPlainly(_ dir: String, _ files: [(String, [UInt8])], safely: Bool) -> Double {
    try? Sys.makeDirectories(dir)
    sync()
    let start = Sys.monotonicNanos()
    for (name, bytes) in files {
        let path = Sys.join(dir, safely ? "." + name + ".tmp" : name)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        if fd < 0 { fail("cannot create \(path)") }
        _ = Sys.writeAll(fd: fd, bytes)
        close(fd)
    }
    let dfd = open(dir, O_RDONLY | O_CLOEXEC)
    #if canImport(Glibc)
    _ = benchSyncfs(dfd)
    #else
    _ = fsync(dfd)
    #endif
    close(dfd)
    if safely {
        for (name, _) in files where rename(Sys.join(dir, "." + name + ".tmp"), Sys.join(dir, name)) != 0 { fail("cannot rename into \(dir)") }
    }
    return Double(Sys.monotonicNanos() - start) / 1e6
}
