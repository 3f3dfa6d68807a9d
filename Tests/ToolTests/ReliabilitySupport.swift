import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the reliability suite needs to know of each tool: how to set up a
/// store, one representative command that appends, and how to read back
/// what was appended. Each write carries a mark (a short word of letters)
/// so that a read can tell which writes are there; tools whose reads show
/// only a count (tenclub's unlocks, rewards' balance) are checked by count.
struct Subject: Sendable {
    var tool: String
    /// Run once, in order, before any write.
    var setup: [[String]]
    /// The command that appends one thing named `mark`.
    var write: @Sendable (_ mark: String) -> [String]
    /// The read that lists what was appended.
    var list: [String]
    /// The marks in the list's output, or nil when the list shows a count only.
    var marks: @Sendable (RunResult) -> [String]?
    /// How many things were appended, from the list's output.
    var count: @Sendable (RunResult) -> Int?
    /// The tool's everyday read (its default command), for the permission checks.
    var mainRead: [String]
    /// Where the journals are, relative to the data directory.
    var journalDir: String
    /// Where the snapshot is, relative to the data directory.
    var snapshotDir: String
    /// The most things a store of this tool may hold (a tool's own cap).
    var cap = Int.max
}

/// The clock every reliability test pins (a Sunday evening in New York).
let reliabilityNow = "2026-11-22T21:00:00-05:00"

/// Seconds since the start of the process, for the suite's own time budget.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

extension Subject {
    static let tenclub = Subject(
        tool: "tenclub", setup: [],
        // Each unlock at its own second, 2 s apart: tenclub counts unlocks
        // within a second of each other once.
        write: { ["unlock", "--at", "@\(1_795_352_400 + 2 * markNumber($0))"] },
        list: ["status"],
        marks: { _ in nil },
        count: { $0.records.first?["unlocks"] as? Int },
        mainRead: ["status"], journalDir: "journal", snapshotDir: "")

    static let yomo = Subject(
        tool: "yomo", setup: [],
        write: { ["add", $0, "--date", "2026-12-01", "--time", "09:00"] },
        list: ["list"],
        marks: { r in r.records.compactMap { $0["title"] as? String } },
        count: { $0.records.count },
        mainRead: ["list"], journalDir: "journal", snapshotDir: "")

    static let rewards = Subject(
        tool: "rewards",
        setup: [["init"], ["child", "add", "Alex"]],
        write: { ["adjust", "Alex", "+1", "--reason", $0] },
        list: ["child", "export", "Alex"],
        marks: { _ in nil },
        count: { r in r.records.first { $0["type"] as? String == "child" }?["balance"] as? Int },
        mainRead: ["dashboard"], journalDir: "journal", snapshotDir: "")

    static let playa = Subject(
        tool: "playa",
        setup: [["recipient", "add", "Ana", "--platform", "sms", "--phone", "+14155550132"]],
        write: { ["message", "add", "Ana", $0] },
        list: ["message", "list", "Ana"],
        marks: { r in r.records.compactMap { $0["text"] as? String } },
        count: { $0.records.count },
        mainRead: ["queue"], journalDir: "journal", snapshotDir: "", cap: 100)

    /// Two members of a pool inside the data directory, matched, so that
    /// ana may write to cy. Ana's journal is in the pool, her snapshot in
    /// her own state folder.
    static let habitmatch = Subject(
        tool: "habitmatch",
        setup: [["--user", "ana", "join", "--name", "Ana", "--habit", "read"],
                ["--user", "cy", "join", "--name", "Cy", "--habit", "read"],
                ["--user", "ana", "like", "cy"], ["--user", "cy", "like", "ana"]],
        write: { ["--user", "ana", "chat", "cy", $0] },
        list: ["--user", "ana", "chat", "cy"],
        marks: { r in r.records.compactMap { $0["text"] as? String } },
        count: { $0.records.count },
        mainRead: ["--user", "ana", "dashboard"], journalDir: "pool/pairs/ana+cy", snapshotDir: "state-ana-*")

    static let all: [Subject] = [.tenclub, .yomo, .rewards, .playa, .habitmatch]
}

/// The number a mark was made from.
func markNumber(_ m: String) -> Int {
    var n = 0
    var scale = 1
    for c in m.dropFirst(2).unicodeScalars {
        n += Int(c.value - 97) * scale
        scale *= 26
    }
    return n
}

/// A word of letters for a number: marks that no parser reads as a time.
func mark(_ n: Int) -> String {
    var s = ""
    var v = n
    repeat {
        s.append(Character(UnicodeScalar(UInt8(97 + v % 26))))
        v /= 26
    } while v > 0
    return "mk" + s
}

/// Every tool's store in the test's data directory (habitmatch's pool too).
class ReliabilityCase: ToolTestCase {
    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        for t in ["TENCLUB", "YOMO", "REWARDS", "PLAYA", "HABITMATCH"] {
            e[t + "_DATA_DIR"] = dataDir
            e[t + "_NOW"] = reliabilityNow
        }
        e["REWARDS_USER"] = "mum"
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    /// Runs a subject's setup, failing the test when a step fails.
    func setUp(_ s: Subject, file: StaticString = #filePath, line: UInt = #line) {
        for args in s.setup {
            let r = run(s.tool, args)
            XCTAssertEqual(r.code, 0, "\(s.tool) \(args): \(r.err)", file: file, line: line)
        }
    }

    /// The subject's list, which must succeed.
    func list(_ s: Subject, expectErr: String? = "", file: StaticString = #filePath, line: UInt = #line) -> RunResult {
        let r = run(s.tool, s.list)
        XCTAssertEqual(r.code, 0, "\(s.tool) \(s.list): \(r.err)", file: file, line: line)
        if let e = expectErr { XCTAssertEqual(r.err, e, "\(s.tool) \(s.list)", file: file, line: line) }
        return r
    }

    func count(_ s: Subject, expectErr: String? = "", file: StaticString = #filePath, line: UInt = #line) -> Int {
        let r = list(s, expectErr: expectErr, file: file, line: line)
        guard let n = s.count(r) else {
            XCTFail("\(s.tool) \(s.list) printed no count: \(r.out)", file: file, line: line)
            return -1
        }
        return n
    }

    /// What a list shows: the marks, sorted, or (for a count) ["count N"].
    func shown(_ s: Subject, _ r: RunResult) -> [String] {
        if let m = s.marks(r) { return m.sorted() }
        return ["count \(s.count(r) ?? -1)"]
    }

    /// What a list of these writes must show, in `shown`'s form.
    func expected(_ s: Subject, _ marks: [String]) -> [String] {
        s.marks(RunResult(out: "", err: "", code: 0)) == nil ? ["count \(marks.count)"] : marks.sorted()
    }

    /// The folder holding the subject's snapshot.
    func snapshotFolder(_ s: Subject) -> String {
        guard s.snapshotDir.hasSuffix("*") else { return s.snapshotDir.isEmpty ? dataDir : dataDir + "/" + s.snapshotDir }
        let prefix = String(s.snapshotDir.dropLast())
        let found = names(in: dataDir).first { $0.hasPrefix(prefix) }
        return dataDir + "/" + (found ?? s.snapshotDir)
    }

    func snapshotPath(_ s: Subject) -> String { snapshotFolder(s) + "/snapshot.ndjson" }

    /// The journal the subject's writes go to (the only one in a fresh store,
    /// or ana's in habitmatch's pool).
    func journalPath(_ s: Subject, file: StaticString = #filePath, line: UInt = #line) -> String {
        let dir = dataDir + "/" + s.journalDir
        let all = names(in: dir).filter { $0.hasSuffix(".ndjson") }
        let own = s.tool == "habitmatch" ? all.filter { $0 == "ana.ndjson" } : all
        XCTAssertEqual(own.count, 1, "journals in \(dir): \(all)", file: file, line: line)
        return dir + "/" + (own.first ?? "none.ndjson")
    }

    /// Writes that must succeed; returns their marks.
    @discardableResult
    func writes(_ s: Subject, _ range: Range<Int>, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        var out: [String] = []
        for i in range {
            let m = mark(i)
            let r = run(s.tool, s.write(m))
            XCTAssertEqual(r.code, 0, "\(s.tool) \(s.write(m)): \(r.err)", file: file, line: line)
            out.append(m)
        }
        return out
    }

    /// Removes the snapshot so that the next run folds the journals and writes a new one.
    func dropSnapshot(_ s: Subject) { unlink(snapshotPath(s)) }

    /// Makes the store write a snapshot of everything now (a read rebuilds a missing one).
    func freshSnapshot(_ s: Subject, file: StaticString = #filePath, line: UInt = #line) {
        dropSnapshot(s)
        _ = list(s, file: file, line: line)
        XCTAssertTrue(FileManager.default.fileExists(atPath: snapshotPath(s)), "\(s.tool): no snapshot written", file: file, line: line)
    }

    /// The lines of stderr, each of which must be one `TOOL: message` line.
    func assertDiagnostics(_ err: String, tool: String, file: StaticString = #filePath, line: UInt = #line) {
        for l in Array(err.utf8).split(separator: 0x0A) {
            let s = String(decoding: l, as: UTF8.self)
            XCTAssertTrue(s.hasPrefix(tool + ": "), "not a diagnostic line: \(s.debugDescription)", file: file, line: line)
        }
        if !err.isEmpty { XCTAssertTrue(err.hasSuffix("\n"), "stderr ends mid-line", file: file, line: line) }
    }
}
