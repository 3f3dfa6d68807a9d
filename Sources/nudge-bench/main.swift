// Release-mode benchmarks for the tools' hot paths.
//
//   swift build -c release && .build/release/nudge-bench [--runs N] [--lines N] [--keep] [--only habitmatch|habitmatch-flood|rewards-flood|scaling|signed]
//
// Each figure is the median wall time of whole process runs, reported as a
// ratio to its reference measured in the same run, with the runs interleaved
// where the reference is a program (`minimal`, a Swift program that does
// nothing, built as Swift builds a program by default; `jq`; `remind`),
// since this machine's absolute figures drift by a third within minutes.
// Beside each ratio to `minimal` stands the ratio to `minimal-static`, the
// same program built as the tools are (the Swift runtime linked in, which
// saves every start about 2 ms): what the command's own work costs. Each
// is checked against its goal (MISSED when over) and the run ends with the
// table README.md shows. Journals are seeded in the store's own format
// (`Store.encodeBatch`: stamps and checksums), or through the tools
// themselves.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import NudgeKit

var runs = 200
var lines = 1_000_000
var keep = false
var only: String? = nil
var args = Array(CommandLine.arguments.dropFirst())
while !args.isEmpty {
    let a = args.removeFirst()
    switch a {
    case "--runs": runs = Int(args.isEmpty ? "" : args.removeFirst()) ?? runs
    case "--lines": lines = Int(args.isEmpty ? "" : args.removeFirst()) ?? lines
    case "--keep": keep = true
    case "--only": only = args.isEmpty ? nil : args.removeFirst()
    case "-h", "--help":
        print("usage: nudge-bench [--runs N] [--lines N] [--keep] [--only habitmatch|habitmatch-flood|rewards-flood|scaling|signed]\nMedian wall times of every tool's goal measures, release build; --keep leaves the data for profiling; --only habitmatch measures that tool alone, --only habitmatch-flood a host pool of real logins under one member's flood (root), --only rewards-flood rewards under a spool flood, --only scaling ten years of history against one, --only signed a signed sync folder beside an unsigned one.")
        exit(0)
    default: fail("unknown option \(a); usage: nudge-bench [--runs N] [--lines N] [--keep] [--only habitmatch|habitmatch-flood|rewards-flood|scaling|signed]")
    }
}

let bin = productsDirectory()
for tool in (only == nil || only == "scaling" ? ["tenclub", "yomo", "playa", "habitmatch", "rewards", "minimal", "minimal-static"]
             : [only == "rewards-flood" || only == "signed" ? "rewards" : only == "habitmatch-flood" ? "habitmatch" : only!]) where !Sys.fileExists(Sys.join(bin, tool)) {
    fail("\(Sys.join(bin, tool)) is missing: run 'swift build -c release' first")
}
if !bin.contains("release") {
    Diagnostics.error("warning: \(bin) does not look like a release build; figures will be slow")
}

let tmp = "/tmp/nudge-bench-\(getpid())"
try? Sys.makeDirectories(tmp)
let zone = "America/New_York"
let nowText = "2026-11-22T21:00:00-05:00"
if let o = only {
    guard ["habitmatch", "habitmatch-flood", "rewards-flood", "scaling", "signed"].contains(o) else {
        fail("--only takes habitmatch, habitmatch-flood, rewards-flood, scaling or signed, not '\(o)'")
    }
    if o == "signed" { signedBench(bin: bin, tmp: tmp, zone: zone, runs: runs) }
    if o == "habitmatch-flood" { habitmatchFloodBench(bin: bin, tmp: tmp, runs: runs) }
    if o == "scaling" { try scalingBench(bin: bin, tmp: tmp, zone: zone, runs: runs) }
    if o == "habitmatch" { habitmatchBench(bin: bin, tmp: tmp, zone: zone, runs: runs) }
    if o == "rewards-flood" { rewardsFloodBench(bin: bin, tmp: tmp, zone: zone, now: nowText) }
    finish(tmp: tmp, keep: keep)
    exit(0)
}

// A year of history: about 50,000 unlocks as `tenclub unlock` writes them,
// one committed batch each, in the store's own format.
let dataDir = Sys.join(tmp, "year")
try? Sys.makeDirectories(Sys.join(dataDir, "journal"))
let ny = try Zone.named(zone)
var journal = [UInt8]()
var rng = SeededRandom(seed: 2026)
let lastDay = Day(year: 2026, month: 11, day: 21)
var total = 0
for back in (0..<365).reversed() {
    let day = lastDay.adding(days: -back)
    let count = Int.random(in: 95...179, using: &rng)
    for k in 0..<count {
        let at = ny.resolve(LocalDateTime(day: day, time: TimeOfDay(secondsOfDay: 7 * 3600 + k * 300)))
        let e: JSONObject = ["type": "unlock", "id": .string(IDs.make(using: &rng)), "at": .string(ny.format(at)),
                             "day": .string(day.description)]
        journal += Store<TenclubState>.encodeBatch([e], stamp: Stamp(ms: at.ms, actor: "bench"), by: "bench", at: at, zone: ny).bytes
        total += 1
    }
}
let journalPath = Sys.join(dataDir, "journal/bench.ndjson")
let jfd = try Sys.openForAppend(journalPath)
_ = Sys.writeAll(fd: jfd, journal)
close(jfd)
let env = ["TENCLUB_DATA_DIR": dataDir, "TZ": zone, "TENCLUB_NOW": nowText, "TENCLUB_ACTOR": "bench"]
// The first writer builds the snapshot; then leave a realistic tail of
// unsnapshotted unlocks, as between two snapshots.
_ = timeRun([Sys.join(bin, "tenclub"), "unlock"], env: env)
// Each its own instant: unlocks less than a second apart count once.
let nowEpoch = RFC3339.parse(nowText)!.instant.ms / 1000
for k in 0..<200 { _ = timeRun([Sys.join(bin, "tenclub"), "unlock", "--at", "@\(nowEpoch - 60 - Int64(k) * 30)"], env: env) }

let minimal = measure([Sys.join(bin, "minimal")], env: [:], runs: runs)
let status = versusMinimal([Sys.join(bin, "tenclub"), "status"], env: env, runs: runs)
let widget = versusMinimal([Sys.join(bin, "tenclub"), "widget", "--style", "waybar"], env: env, runs: runs)
// What being one of these programs costs before any work: the same binary
// printing its version (no data read): start-up of a larger program.
let version = versusMinimal([Sys.join(bin, "tenclub"), "--version"], env: env, runs: runs)
// The pickups report reads in full (each unlock's instant is in the cold part).
let report = versusMinimal([Sys.join(bin, "tenclub"), "report", "--period", "month"], env: env, runs: runs)

print("tenclub on a year of history (\(total + 201) unlocks, \(journal.count / 1024) KiB journal), median of \(runs) runs:")
print("  minimal Swift program  \(fmt(minimal)) ms")
reportRatio("tenclub status, a year (50,640 unlocks)", status, goal: 1.3)
reportRatio("tenclub widget --style waybar, same", widget, goal: 1.3)
reportRatio("tenclub --version (start-up alone, no data read)", version, goal: nil)
// #42 set this goal against the program `minimal`, not minimal-static.
record("tenclub report --period month, same", "\(fmt(report.ms / report.minimal))× minimal (\(fmt(report.ms)) ms; minimal \(fmt(report.minimal)) ms; \(fmt(report.ms / report.sameBuild))× minimal-static, \(fmt(report.sameBuild)) ms)",
       goal: "≤ 2.0× minimal", met: report.ms <= 2 * report.minimal)

// Ingest throughput: a million lines of unlock records.
let input = Sys.join(tmp, "unlocks.ndjson")
var text = [UInt8]()
text.reserveCapacity(lines * 56)
let start = Instant(seconds: 1_735_707_600)  // 2025-01-01T00:00:00-05:00
for i in 0..<lines {
    let at = start.adding(seconds: Int64(i) * 31)
    let o: JSONObject = ["at": .string(ny.format(at)), "source": "swayidle"]
    o.write(into: &text)
    text.append(0x0A)
}
let ifd = try Sys.openForAppend(input)
_ = Sys.writeAll(fd: ifd, text)
close(ifd)
let lastAt = ny.format(start.adding(seconds: Int64(lines) * 31 + 3600))

var ingestTimes: [Double] = []
for r in 0..<3 {
    let dir = Sys.join(tmp, "ingest\(r)")
    sync()  // what the run before wrote, flushed: each run is timed with its own writing only
    ingestTimes.append(timeRun([Sys.join(bin, "tenclub"), "ingest", input],
                               env: ["TENCLUB_DATA_DIR": dir, "TZ": zone, "TENCLUB_NOW": lastAt]))
}
let ingest = median(ingestTimes)
print("tenclub ingest of \(lines) lines (\(text.count / 1_048_576) MiB), median of 3 runs into a new store:")
let jq = ["/usr/bin/jq", "/usr/local/bin/jq", "/opt/homebrew/bin/jq"].first(where: { Sys.fileExists($0) })
if let jq = jq {
    let jqTime = median((0..<3).map { _ in timeRun([jq, "-c", ".at", input], env: [:]) })
    reportAgainst("tenclub ingest, \(lines) lines into a new store", ms: ingest, reference: "jq -c .at", referenceMs: jqTime, goal: 0.5)
} else {
    record("tenclub ingest, \(lines) lines", "\(fmt(ingest, 0)) ms (jq not found to compare)")
}
// Re-feeding the same file: everything is a duplicate.
let again = timeRun([Sys.join(bin, "tenclub"), "ingest", input],
                    env: ["TENCLUB_DATA_DIR": Sys.join(tmp, "ingest0"), "TZ": zone, "TENCLUB_NOW": lastAt])
record("tenclub ingest of the same file again (all duplicates)", "\(fmt(again, 0)) ms")

// yomo with 10,000 reminders of mixed rules, as 10,000 `yomo add` runs would leave them.
let yomoDir = Sys.join(tmp, "yomo")
try? Sys.makeDirectories(Sys.join(yomoDir, "journal"))
let created = Instant(seconds: 1_795_000_000)  // 2026-11-18
var yj = [UInt8]()
var yrng = SeededRandom(seed: 7)
let rules: [Recurrence] = [
    .once, Recurrence(kind: .daily), Recurrence(kind: .weekly, days: [1, 3, 5]),
    Recurrence(kind: .custom, interval: 2, unit: .hour, rangeStart: TimeOfDay(hour: 9, minute: 0), rangeEnd: TimeOfDay(hour: 18, minute: 0)),
    Recurrence(kind: .custom, interval: 3, unit: .day), Recurrence(kind: .custom, interval: 2, unit: .week, days: [2]),
    Recurrence(kind: .custom, interval: 1, unit: .month, monthOrdinal: -1, monthWeekday: 5),
    Recurrence(kind: .custom, interval: 1, unit: .day, basedOnCompletion: true),
]
for k in 0..<10_000 {
    let rule = rules[k % rules.count]
    let anchor = LocalDateTime(day: Day(year: 2026, month: 11, day: 18).adding(days: Int.random(in: 0...60, using: &yrng)),
                               time: TimeOfDay(hour: Int.random(in: 6...22, using: &yrng), minute: 0))
    let trigger = Yomo.firstTrigger(anchor: anchor, recurrence: rule, now: created, zone: ny) ?? created
    let e: JSONObject = ["type": "created", "id": .string(IDs.make(using: &yrng)), "title": .string("reminder number \(k)"),
                         "notes": "", "anchor": .string(anchor.description), "recurrence": rule.json,
                         "trigger_at": .string(ny.format(trigger)), "at": .string(ny.format(created))]
    yj += Store<YomoState>.encodeBatch([e], stamp: Stamp(ms: created.ms, counter: Int64(k), actor: "bench"), by: "bench", at: created, zone: ny).bytes
}
let yfd = try Sys.openForAppend(Sys.join(yomoDir, "journal/bench.ndjson"))
_ = Sys.writeAll(fd: yfd, yj)
close(yfd)
let yenv = ["YOMO_DATA_DIR": yomoDir, "TZ": zone, "YOMO_NOW": "2026-11-22T10:07:00-05:00", "YOMO_ACTOR": "bench"]
// The first due announces what came due since the 18th and writes the snapshot;
// the measured runs are cron's steady state.
_ = timeRun([Sys.join(bin, "yomo"), "due"], env: yenv)
let yruns = max(20, runs / 4)
let due = versusMinimal([Sys.join(bin, "yomo"), "due"], env: yenv, runs: yruns)
let ylist = versusMinimal([Sys.join(bin, "yomo"), "list"], env: yenv, runs: yruns)
print("yomo with 10,000 reminders of mixed rules, median of \(yruns) runs:")
reportRatio("yomo due, 10,000 reminders, one device", due, goal: 1.3)
reportRatio("yomo list, same", ylist, goal: 2)

// yomo on three devices: 10,000 reminders added on a laptop, a desktop and a
// phone, their journals merged in one sync folder (by causal stamps), read
// from the laptop; next to remind(1) over 10,000 REM lines, runs interleaved.
let syncDir = Sys.join(tmp, "yomo-sync")
try? Sys.makeDirectories(syncDir)
let devicesList = ["laptop", "desk", "phone"]
var deviceJournals: [[UInt8]] = [[], [], []]
var drng = SeededRandom(seed: 12)
var remLines = [UInt8]()
let wdNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
let monNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
for k in 0..<10_000 {
    let d = k % 3
    let rule = rules[k % rules.count]
    let anchor = LocalDateTime(day: Day(year: 2026, month: 11, day: 18).adding(days: Int.random(in: 0...60, using: &drng)),
                               time: TimeOfDay(hour: Int.random(in: 6...22, using: &drng), minute: 0))
    let at = Instant(ms: created.ms + Int64(k) * 1000)
    let trigger = Yomo.firstTrigger(anchor: anchor, recurrence: rule, now: at, zone: ny) ?? at
    let e: JSONObject = ["type": "created", "id": .string(IDs.make(using: &drng)), "title": .string("reminder number \(k)"),
                         "notes": "", "anchor": .string(anchor.description), "recurrence": rule.json,
                         "trigger_at": .string(ny.format(trigger)), "zone": .string(zone), "at": .string(ny.format(at))]
    deviceJournals[d] += Store<YomoState>.encodeBatch([e], stamp: Stamp(ms: at.ms, actor: devicesList[d]), by: "bench", at: at, zone: ny).bytes
    // The same reminder for remind(1).
    let t = "AT \(anchor.time.description) MSG reminder number \(k)\n"
    switch rule.effective.unit {
    case .day where rule.kind == .daily: remLines += Array("REM \(t)".utf8)
    case .week: remLines += Array("REM \(rule.days.isEmpty ? wdNames[anchor.day.weekday] : rule.days.map { wdNames[$0] }.joined(separator: " ")) \(t)".utf8)
    default: remLines += Array("REM \(anchor.day.day) \(monNames[anchor.day.month - 1]) \(anchor.day.year) \(t)".utf8)
    }
}
for (d, name) in devicesList.enumerated() {
    let fd = try Sys.openForAppend(Sys.join(syncDir, "\(name).ndjson"))
    _ = Sys.writeAll(fd: fd, deviceJournals[d])
    close(fd)
}
let remPath = Sys.join(tmp, "reminders.rem")
let remfd = try Sys.openForAppend(remPath)
_ = Sys.writeAll(fd: remfd, remLines)
close(remfd)
let senv = ["YOMO_DATA_DIR": Sys.join(tmp, "yomo-laptop"), "YOMO_SYNC_DIR": syncDir, "TZ": zone,
            "YOMO_NOW": "2026-11-22T10:07:00-05:00", "YOMO_ACTOR": "laptop"]
_ = timeRun([Sys.join(bin, "yomo"), "due"], env: senv)
let remind = ["/usr/bin/remind", "/usr/local/bin/remind", "/opt/homebrew/bin/remind"].first(where: { Sys.fileExists($0) })
print("yomo with 10,000 reminders merged from three devices' journals (\(deviceJournals.map(\.count).reduce(0, +) / 1024) KiB), median of \(yruns) interleaved runs:")
if let remind = remind {
    let remArgv = [remind, "-q", remPath, "22", "Nov", "2026"]
    let duev = [Sys.join(bin, "yomo"), "due"], listv = [Sys.join(bin, "yomo"), "list"]
    for _ in 0..<5 { _ = timeRun(duev, env: senv); _ = timeRun(listv, env: senv); _ = timeRun(remArgv, env: ["TZ": zone]) }
    var td: [Double] = [], tl: [Double] = [], tr: [Double] = []
    for _ in 0..<yruns {
        td.append(timeRun(duev, env: senv))
        tr.append(timeRun(remArgv, env: ["TZ": zone]))
        tl.append(timeRun(listv, env: senv))
    }
    let (md, ml, mr) = (median(td), median(tl), median(tr))
    reportAgainst("yomo due, 10,000 reminders from three devices", ms: md, reference: "remind -q", referenceMs: mr, goal: 0.5)
    reportAgainst("yomo list, same", ms: ml, reference: "remind -q", referenceMs: mr, goal: 1)
} else {
    record("yomo due and list, three devices", "remind not found: install remind to compare", goal: "≤ 0.5× / ≤ 1× remind -q", met: false)
}

try vdirBench(bin: bin, tmp: tmp, zone: zone, senv: senv, runs: yruns, remind: remind, remPath: remPath)

// yomo, a year on three devices: each added reminders all year and marked
// one-time ones done; the laptop has folded everything (its snapshot is
// fresh). Then the phone's copy arrives with a batch the phone made a week
// ago, older than what the laptop last folded. The laptop's next `due` must
// fold it in its place; measured against a `due` with nothing new.
let yearSync = Sys.join(tmp, "yomo-year-sync")
let yearData = Sys.join(tmp, "yomo-year-laptop")
try? Sys.makeDirectories(yearSync)
let yearNow = Instant(ms: RFC3339.parse("2026-11-22T10:07:00-05:00")!.instant.ms)
let yearStartMs = yearNow.ms - 365 * 86_400_000
var yearJournals: [[UInt8]] = [[], [], []]
var lateBatch = [UInt8]()
var yyrng = SeededRandom(seed: 365)
var yearEvents = 0
var onceIDs: [String?] = []
// Where each journal stood ten days ago: the laptop ran then too, so its
// data directory holds a snapshot of then (kept as its checkpoint).
let earlierMs = yearNow.ms - 10 * 86_400_000
var earlierEnds: [Int]? = nil
for k in 0..<9_000 {
    // The phone is offline for the last part of the year: only the laptop and the desk write then.
    let offline = k > 8_000
    let d = offline ? k % 2 : k % 3
    let at = Instant(ms: yearStartMs + Int64(k) * (365 * 86_400_000 / 9_000))
    if earlierEnds == nil && at.ms > earlierMs { earlierEnds = yearJournals.map(\.count) }
    let local = ny.local(at)
    let anchor = LocalDateTime(day: local.day.adding(days: Int.random(in: 0...10, using: &yyrng)), time: TimeOfDay(hour: 9, minute: 0))
    let rule = k % 4 == 0 ? rules[(k / 4) % rules.count] : Recurrence.once
    let id = IDs.make(using: &yyrng)
    let trigger = Yomo.firstTrigger(anchor: anchor, recurrence: rule, now: at, zone: ny) ?? at
    let made: JSONObject = ["type": "created", "id": .string(id), "title": .string("reminder \(k) of the year"), "notes": "",
                            "anchor": .string(anchor.description), "recurrence": rule.json, "trigger_at": .string(ny.format(trigger)),
                            "zone": .string(zone), "at": .string(ny.format(at))]
    yearJournals[d] += Store<YomoState>.encodeBatch([made], stamp: Stamp(ms: at.ms, actor: devicesList[d]), by: "bench", at: at, zone: ny).bytes
    yearEvents += 1
    // Two weeks on, another device marks the one-time reminder of then done.
    onceIDs.append(rule == .once ? id : nil)
    if k >= 400, let doneID = onceIDs[k - 400] {
        let other = (d + 1) % (offline ? 2 : 3)
        let done: JSONObject = ["type": "completed", "id": .string(doneID), "next": .null, "at": .string(ny.format(at))]
        yearJournals[other] += Store<YomoState>.encodeBatch([done], stamp: Stamp(ms: at.ms, counter: 1, actor: devicesList[other]),
                                                            by: "bench", at: at, zone: ny).bytes
        yearEvents += 1
    }
    if k == 8_000 {
        // What the phone made a week ago, and the laptop has not seen yet.
        let lateAt = Instant(ms: yearNow.ms - 7 * 86_400_000)
        let late: JSONObject = ["type": "created", "id": .string(IDs.make(using: &yyrng)), "title": "made on the phone offline", "notes": "",
                                "anchor": .string(LocalDateTime(day: ny.day(of: yearNow).adding(days: 1), time: TimeOfDay(hour: 9, minute: 0)).description),
                                "recurrence": Recurrence.once.json, "trigger_at": .string(ny.format(Instant(ms: yearNow.ms + 86_400_000))),
                                "zone": .string(zone), "at": .string(ny.format(lateAt))]
        lateBatch = Store<YomoState>.encodeBatch([late], stamp: Stamp(ms: lateAt.ms, actor: "phone"), by: "bench", at: lateAt, zone: ny).bytes
    }
}
let yearEnv = ["YOMO_DATA_DIR": yearData, "YOMO_SYNC_DIR": yearSync, "TZ": zone, "YOMO_NOW": "2026-11-22T10:07:00-05:00", "YOMO_ACTOR": "laptop"]
// The journals' batches must be in stamp order within each file. First as
// they were ten days ago (folded then), then the rest.
let cut = earlierEnds ?? yearJournals.map(\.count)
for (d, name) in devicesList.enumerated() {
    let fd = try Sys.openForAppend(Sys.join(yearSync, "\(name).ndjson"))
    _ = Sys.writeAll(fd: fd, Array(yearJournals[d][0..<cut[d]]))
    close(fd)
}
try? Sys.makeDirectories(yearData)
// Its cron ran `due` then, as every minute: the snapshot of then knows the laptop announces.
var earlierEnv = yearEnv
earlierEnv["YOMO_NOW"] = ny.format(Instant(ms: earlierMs))
_ = timeRun([Sys.join(bin, "yomo"), "due"], env: earlierEnv)
_ = timeRun([Sys.join(bin, "yomo"), "list"], env: earlierEnv)
for (d, name) in devicesList.enumerated() {
    let fd = try Sys.openForAppend(Sys.join(yearSync, "\(name).ndjson"))
    _ = Sys.writeAll(fd: fd, Array(yearJournals[d][cut[d]...]))
    close(fd)
}
_ = timeRun([Sys.join(bin, "yomo"), "due"], env: yearEnv)
_ = timeRun([Sys.join(bin, "yomo"), "list"], env: yearEnv)  // a fresh snapshot
let steadyYear = versusMinimal([Sys.join(bin, "yomo"), "due"], env: yearEnv, runs: max(11, runs / 4))
var lateTimes: [Double] = []
let phoneJournal = Sys.join(yearSync, "phone.ndjson")
let phoneBefore = (try? Sys.readPeerFile(phoneJournal, from: 0, cap: Int.max))??.bytes ?? []
for k in 0..<max(5, runs / 8) {
    // Each run from the state before the late copy: the laptop's data and the phone's journal.
    let copy = Sys.join(tmp, "yomo-year-run\(k)")
    _ = try? Subprocess.run(["cp", "-R", yearData, copy], quiet: true)
    try Sys.writeFileAtomically(phoneJournal, phoneBefore + lateBatch)
    var env = yearEnv
    env["YOMO_DATA_DIR"] = copy
    sync()  // (as for playa generate: the copy flushed first)
    lateTimes.append(timeRun([Sys.join(bin, "yomo"), "due"], env: env))
    try Sys.writeFileAtomically(phoneJournal, phoneBefore)
}
let lateYear = median(lateTimes)
if keep { try Sys.writeFileAtomically(Sys.join(tmp, "yomo-year-late.batch"), lateBatch) }  // for profiling: append it to phone.ndjson
print("yomo, a year on three devices (\(yearEvents) batches), a peer's late batch:")
record("yomo due with nothing new, a year from three devices", "\(fmt(steadyYear.ms / steadyYear.minimal))× minimal (\(fmt(steadyYear.ms)) ms)")
record("yomo due folding a peer's late batch, same", "\(fmt(lateYear / steadyYear.ms))× the run with nothing new (\(fmt(lateYear)) ms)",
       goal: "≤ 2× (not a refold of the year)", met: lateYear <= 2 * steadyYear.ms)

// yomo import of a 10,000-task Taskwarrior export.
var tasks: [JSON] = []
var trng = SeededRandom(seed: 99)
let recurs = ["daily", "weekly", "2d", "monthly", "yearly"]
for k in 0..<10_000 {
    let due = Instant(ms: created.ms + Int64.random(in: 0...(90 * 86_400), using: &trng) * 1000)
    let l = Zone.utc.local(due)
    func p(_ v: Int, _ w: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, w - s.count)) + s }
    let stamp = "\(p(l.day.year, 4))\(p(l.day.month, 2))\(p(l.day.day, 2))T\(p(l.time.hour, 2))\(p(l.time.minute, 2))00Z"
    var t: JSONObject = ["id": JSON(k + 1), "description": .string("task number \(k) with a longer description"), "due": .string(stamp),
                         "entry": "20261101T100000Z", "modified": "20261101T100000Z", "status": k % 10 == 0 ? "completed" : "pending",
                         "uuid": .string("\(IDs.make(using: &trng))-4b1e-8c2d-\(IDs.make(using: &trng))"), "urgency": 4.5,
                         "tags": JSON(["home", "bench"]), "project": "bench"]
    if k % 7 == 0 { t["recur"] = .string(recurs[k % recurs.count]); t["status"] = "recurring" }
    tasks.append(.object(t))
}
let taskPath = Sys.join(tmp, "tasks.json")
let tfd = try Sys.openForAppend(taskPath)
_ = Sys.writeAll(fd: tfd, Array(JSON.array(tasks).serialized.utf8))
close(tfd)
var importTimes: [Double] = []
for r in 0..<5 {
    importTimes.append(timeRun([Sys.join(bin, "yomo"), "import", taskPath],
                               env: ["YOMO_DATA_DIR": Sys.join(tmp, "yomo-import\(r)"), "TZ": zone, "YOMO_NOW": "2026-11-22T10:07:00-05:00"]))
}
let imp = median(importTimes)
print("yomo import of a 10,000-task Taskwarrior export, median of 5 runs into a new store:")
record("yomo import of a 10,000-task Taskwarrior export", "\(fmt(imp, 0)) ms", goal: "< 1000 ms", met: imp < 1000)

// playa: 50 recipients with 100 messages each.
let playaDir = Sys.join(tmp, "playa")
var doc: [JSON] = []
var prng = SeededRandom(seed: 50)
for k in 0..<50 {
    let sched: JSON = k % 2 == 0 ? .object(["mode": "random", "per_day": JSON(1 + k % 10)]) : .object(["mode": "fixed", "times": JSON(["08:30", "12:00", "19:45"])])
    let msgs: [JSON] = (0..<100).map { m in .object(["id": .string(IDs.make(using: &prng)), "text": .string("Message \(m) for friend \(k): how are things going this week? Coffee soon?")]) }
    doc.append(.object(["id": .string(IDs.make(using: &prng)), "name": .string("Friend \(k)"), "platform": k % 3 == 0 ? "sms" : "whatsapp",
                        "phone": .string("+1415555\(1000 + k)"), "paused": false, "schedule": sched, "messages": .array(msgs)]))
}
let exportDoc: JSONObject = ["type": "playa_export", "version": 1, "recipients": .array(doc), "events": .array([])]
let exportPath = Sys.join(tmp, "playa.json")
let pfd = try Sys.openForAppend(exportPath)
_ = Sys.writeAll(fd: pfd, Array(exportDoc.serialized.utf8))
close(pfd)
let penv = ["PLAYA_DATA_DIR": playaDir, "TZ": zone, "PLAYA_NOW": "2026-11-23T00:00:30-05:00", "PLAYA_ACTOR": "bench"]
_ = timeRun([Sys.join(bin, "playa"), "import", exportPath], env: penv)
// Each generate run starts from a fresh copy of the store holding just the
// recipients, as cron at 00:00 finds it.
var genTimes: [Double] = []
let pruns = max(20, runs / 4)
for k in 0..<pruns {
    let copy = Sys.join(tmp, "playa-run\(k)")
    _ = try? Subprocess.run(["cp", "-R", playaDir, copy], quiet: true)
    var env = penv
    env["PLAYA_DATA_DIR"] = copy
    sync()  // the copy flushed: generate's fsync writes its own day only
    genTimes.append(timeRun([Sys.join(bin, "playa"), "generate", "--seed", "\(k)"], env: env))
}
_ = timeRun([Sys.join(bin, "playa"), "generate"], env: penv)
let pqueue = measure([Sys.join(bin, "playa"), "queue"], env: penv, runs: pruns)
let pgen = median(genTimes)
print("playa with 50 recipients x 100 messages, median of \(pruns) runs:")
record("playa generate, 50 recipients × 100 messages", "\(fmt(pgen)) ms", goal: "≤ 10 ms", met: pgen <= 10)
record("playa queue, same", "\(fmt(pqueue)) ms", goal: "≤ 10 ms", met: pqueue <= 10)

// playa due, cron's every minute, with 10,000 past events in the store: 200
// days of 50, most left pending (nobody acted), the rest sent or cancelled.
let historyDir = Sys.join(tmp, "playa-history")
var pastEvents: [JSON] = []
let firstPast = Day(year: 2026, month: 11, day: 23).adding(days: -200)
for k in 0..<10_000 {
    let r = doc[k % 50].object!
    let day = firstPast.adding(days: k / 50)
    let t = TimeOfDay(hour: 9 + (k % 12), minute: (k * 7) % 60)
    let at = ny.resolve(LocalDateTime(day: day, time: t))
    let status = k % 5 == 0 ? "sent" : k % 7 == 0 ? "cancelled" : "pending"
    let m = r["messages"]!.array![k % 100].object!
    pastEvents.append(.object(["id": .string(IDs.make(using: &prng)), "recipient_id": r["id"]!, "date": .string(day.description),
                               "time": .string(t.description), "at": .string(ny.format(at)), "message_id": m["id"]!,
                               "message": m["text"]!, "status": .string(status), "notification": "delivered"]))
}
let historyPath = Sys.join(tmp, "playa-history.json")
let hfd = try Sys.openForAppend(historyPath)
_ = Sys.writeAll(fd: hfd, Array((["type": "playa_export", "version": 1, "recipients": .array(doc), "events": .array(pastEvents)] as JSONObject).serialized.utf8))
close(hfd)
var historyEnv = penv
historyEnv["PLAYA_DATA_DIR"] = historyDir
historyEnv["PLAYA_NOW"] = "2026-11-23T08:00:00-05:00"
_ = timeRun([Sys.join(bin, "playa"), "import", historyPath], env: historyEnv)
// Before the first generate (all still pending, in the part every run reads),
// then after it (missed, history).
let dueBefore = measure([Sys.join(bin, "playa"), "due"], env: historyEnv, runs: pruns)
var historyGenEnv = historyEnv
historyGenEnv["PLAYA_NOW"] = "2026-11-23T00:00:30-05:00"
_ = timeRun([Sys.join(bin, "playa"), "generate", "-q"], env: historyGenEnv)
let pdue = versusMinimal([Sys.join(bin, "playa"), "due"], env: historyEnv, runs: pruns)
print("playa due with 10,000 past events (200 days x 50), nothing due yet, median of \(pruns) runs:")
record("playa due before the first generate (every past event pending)", "\(fmt(dueBefore)) ms")
reportRatio("playa due, 10,000 past events", pdue, goal: 1.3)

habitmatchBench(bin: bin, tmp: tmp, zone: zone, runs: runs)
habitmatchFloodBench(bin: bin, tmp: tmp, runs: runs)

// rewards: a year of usage for three children, about a million sessions.
let rdir = Sys.join(tmp, "rewards")
let renv = ["REWARDS_DATA_DIR": rdir, "TZ": zone, "REWARDS_NOW": "2026-11-22T21:00:00-05:00", "REWARDS_USER": "parent"]
for args in [["init"], ["child", "add", "Alex"], ["child", "add", "Bo"], ["child", "add", "Cy"], ["app", "set", "Duolingo", "--learning"],
             ["app", "set", "Khan Academy", "--learning"], ["app", "set", "Minecraft", "--reward"], ["app", "set", "Firefox", "--ignore"],
             ["settings", "set", "min_session_minutes", "0"], ["settings", "set", "max_session_age_days", "3650"]] {
    _ = timeRun([Sys.join(bin, "rewards")] + args, env: renv)
}
let rlines = lines
var rtext = [UInt8]()
rtext.reserveCapacity(rlines * 110)
let apps = ["Duolingo", "Khan Academy", "Minecraft", "Firefox"]
let kids = ["Alex", "Bo", "Cy"]
let spacing = Int64(365 * 86_400 * 3) / Int64(max(3, rlines))  // a year, evenly
let yearStart = Int64(1_795_399_200 - 366 * 86_400)  // the year before the pinned now (2026-11-22T21:00:00-05:00)
for i in 0..<rlines {
    let kid = kids[i % 3]
    let t = yearStart + Int64(i / 3) * spacing
    let o: JSONObject = ["child": .string(kid), "app": .string(apps[(i / 3) % 4]), "start": .string(ny.format(Instant(seconds: t))), "duration_s": 30]
    o.write(into: &rtext)
    rtext.append(0x0A)
}
let rinput = Sys.join(tmp, "sessions.ndjson")
let rfd = try Sys.openForAppend(rinput)
_ = Sys.writeAll(fd: rfd, rtext)
close(rfd)
// The median of three, as for tenclub: two into copies of the new store, the third into it.
var rIngestTimes: [Double] = []
for k in 0..<2 {
    let copy = Sys.join(tmp, "rewards-ingest\(k)")
    _ = try? Subprocess.run(["cp", "-R", rdir, copy], quiet: true)
    sync()  // (as for tenclub ingest)
    rIngestTimes.append(timeRun([Sys.join(bin, "rewards"), "ingest", rinput], env: renv.merging(["REWARDS_DATA_DIR": copy]) { $1 }))
}
sync()
rIngestTimes.append(timeRun([Sys.join(bin, "rewards"), "ingest", rinput], env: renv))
let rIngest = median(rIngestTimes)
print("rewards with \(rlines) sessions for three children over a year (\(rtext.count / 1_048_576) MiB):")
if let jq = jq {
    let jqTime = median((0..<3).map { _ in timeRun([jq, "-c", ".", rinput], env: [:]) })
    reportAgainst("rewards ingest, \(rlines) sessions into a new store", ms: rIngest, reference: "jq -c .", referenceMs: jqTime, goal: 0.5)
} else {
    record("rewards ingest, \(rlines) sessions", "\(fmt(rIngest, 0)) ms (jq not found to compare)")
}
let rAgain = timeRun([Sys.join(bin, "rewards"), "ingest", rinput], env: renv)
record("rewards ingest of the same file again (all duplicates)", "\(fmt(rAgain, 0)) ms")
// Cron's steady state after the year: one new session a run, each a real write.
var oneTimes: [Double] = []
for k in 0..<max(20, runs / 4) {
    let one = Sys.join(tmp, "one-\(k).ndjson")
    let ofd = try Sys.openForAppend(one)
    let start = ny.format(Instant(seconds: 1_795_300_000 + Int64(k) * 700))
    _ = Sys.writeAll(fd: ofd, Array("{\"child\":\"Alex\",\"app\":\"Duolingo\",\"start\":\"\(start)\",\"duration_s\":600}\n".utf8))
    close(ofd)
    oneTimes.append(timeRun([Sys.join(bin, "rewards"), "ingest", one], env: renv))
}
record("rewards ingest of one new session after that year", "\(fmt(median(oneTimes))) ms")
reportRatio("rewards dashboard, same store", versusMinimal([Sys.join(bin, "rewards"), "dashboard"], env: renv, runs: max(20, runs / 4)), goal: 1.5)
reportRatio("rewards widget --style waybar, same store", versusMinimal([Sys.join(bin, "rewards"), "widget", "Alex", "--style", "waybar"], env: renv,
                                                                      runs: max(20, runs / 4)), goal: 1.3)

// rewards enforce, root's cron every minute: 500 running processes to look
// through (a /proc of files, so that nothing real is signalled; --dry-run).
let edir = Sys.join(tmp, "rewards-enforce")
let eproc = Sys.join(tmp, "proc")
let eenv = ["REWARDS_DATA_DIR": edir, "TZ": zone, "REWARDS_NOW": "2026-11-22T21:00:00-05:00", "REWARDS_USER": "parent", "REWARDS_PROC": eproc]
for args in [["init"], ["child", "add", "Alex", "--user", Sys.loginName()], ["app", "set", "Minecraft", "--reward", "--process", "mcgame"],
             ["adjust", "Alex", "+600", "--reason", "bench"], ["redeem", "Alex", "30"]] {
    _ = timeRun([Sys.join(bin, "rewards")] + args, env: eenv)
}
for k in 0..<500 {
    let d = Sys.join(eproc, "\(200_000 + k)")
    try Sys.makeDirectories(d)
    let name = k % 170 == 3 ? "mcgame" : ["bash", "sshd", "firefox", "kworker/0:1", "systemd"][k % 5]
    try Sys.writeFileAtomically(Sys.join(d, "comm"), Array((name + "\n").utf8))
    try Sys.writeFileAtomically(Sys.join(d, "cmdline"), Array(("/usr/bin/" + name).utf8) + [0, 0x2D, 0x2D, 0x78, 0])
}
reportRatio("rewards enforce, 500 processes", versusMinimal([Sys.join(bin, "rewards"), "enforce", "--dry-run", "-q"], env: eenv, runs: max(20, runs / 4)), goal: 3)

rewardsFloodBench(bin: bin, tmp: tmp, zone: zone, now: nowText)
signedBench(bin: bin, tmp: tmp, zone: zone, runs: runs)

// The ActivityWatch path: one child's year as an export, a window event about
// every 95 seconds and an AFK minute every ten events, into a new store.
let awEvents = max(3, lines / 3)
var aw = Array("{\"buckets\":{\"aw-watcher-window_bench\":{\"id\":\"aw-watcher-window_bench\",\"type\":\"currentwindow\",\"events\":[".utf8)
let awSpacing = Int64(365 * 86_400) / Int64(awEvents)
var afkEvents = [UInt8]()
for i in 0..<awEvents {
    let t = yearStart + Int64(i) * awSpacing
    let ts = Zone.utc.format(Instant(seconds: t))
    if i > 0 { aw.append(UInt8(ascii: ",")) }
    let e: JSONObject = ["id": .int(Int64(i)), "timestamp": .string(ts), "duration": .double(25.0 + Double(i % 7)),
                         "data": .object(["app": .string(apps[(i / 3) % 4]), "title": .string("Window \(i % 50)")])]
    e.write(into: &aw)
    if i % 10 == 0 {
        if !afkEvents.isEmpty { afkEvents.append(UInt8(ascii: ",")) }
        let a: JSONObject = ["id": .int(Int64(awEvents + i)), "timestamp": .string(Zone.utc.format(Instant(seconds: t + awSpacing * 10 - 60))),
                             "duration": 60.0, "data": .object(["status": "afk"])]
        a.write(into: &afkEvents)
    }
}
aw += Array("]},\"aw-watcher-afk_bench\":{\"id\":\"aw-watcher-afk_bench\",\"type\":\"afkstatus\",\"events\":[".utf8) + afkEvents + Array("]}}}\n".utf8)
let awPath = Sys.join(tmp, "aw.json")
let afd = try Sys.openForAppend(awPath)
_ = Sys.writeAll(fd: afd, aw)
close(afd)
let aenv = renv.merging(["REWARDS_DATA_DIR": Sys.join(tmp, "rewards-aw")]) { $1 }
for args in [["init"], ["child", "add", "Alex"], ["app", "set", "Duolingo", "--learning"], ["app", "set", "Khan Academy", "--learning"],
             ["app", "set", "Minecraft", "--reward"], ["app", "set", "Firefox", "--ignore"]] {
    _ = timeRun([Sys.join(bin, "rewards")] + args, env: aenv)
}
let awIngest = timeRun([Sys.join(bin, "rewards"), "ingest", "--activitywatch", awPath, "--child", "Alex"], env: aenv)
print("rewards ingest --activitywatch, one child's year (\(awEvents) window events, \(aw.count / 1_048_576) MiB):")
if let jq = jq {
    let jqTime = median((0..<3).map { _ in timeRun([jq, "-c", ".", awPath], env: [:]) })
    reportAgainst("rewards ingest --activitywatch, \(awEvents) window events", ms: awIngest, reference: "jq -c .", referenceMs: jqTime, goal: 0.3)
} else {
    record("rewards ingest --activitywatch", "\(fmt(awIngest, 0)) ms (jq not found to compare)")
}

try scalingBench(bin: bin, tmp: tmp, zone: zone, runs: runs)

finish(tmp: tmp, keep: keep)
