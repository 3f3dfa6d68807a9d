import XCTest
import NudgeFuzzTargets
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Every input in Tests/Fuzz/corpus replayed through its fuzz target: the
/// seeds, and every input a fuzzer found to crash, hang or break an
/// invariant (`crash-*`, `timeout-*`), which must now pass.
///
/// The inputs run in a child: this test binary started again for this one
/// test, with NUDGE_FUZZ_REPLAY naming the target. A child that traps or
/// hangs on an input is reported with that input's name and the next child
/// goes on after it; the test runner itself never runs a known crasher.
final class FuzzCorpusTests: XCTestCase {
    static let corpus = packageRoot() + "/Tests/Fuzz/corpus"

    static func inputs(_ target: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpus + "/" + target)) ?? []).sorted()
    }

    func testEveryCorpusInputPassesItsTarget() throws {
        if let target = ProcessInfo.processInfo.environment["NUDGE_FUZZ_REPLAY"] {
            replay(target, from: Int(ProcessInfo.processInfo.environment["NUDGE_FUZZ_FROM"] ?? "0") ?? 0)
            return
        }
        let dirs = ((try? FileManager.default.contentsOfDirectory(atPath: Self.corpus)) ?? []).sorted()
        XCTAssertEqual(Set(dirs), Set(FuzzTargets.all.map(\.name)), "one corpus folder for each target, none for a target that is gone")
        var replayed = 0
        for t in FuzzTargets.all.map(\.name) {
            let files = Self.inputs(t)
            XCTAssertFalse(files.isEmpty, "no seeds for \(t)")
            var from = 0
            while from < files.count {
                var env = ProcessInfo.processInfo.environment
                env["NUDGE_FUZZ_REPLAY"] = t
                env["NUDGE_FUZZ_FROM"] = String(from)
                env["SWIFT_BACKTRACE"] = "enable=no"
                let r = runProgram(CommandLine.arguments[0], ["NudgeKitTests.FuzzCorpusTests/testEveryCorpusInputPassesItsTarget"],
                                   env: env, timeout: 300)
                var last = from - 1
                for line in r.out.split(separator: "\n") {
                    let parts = line.split(separator: "\t", maxSplits: 2).map(String.init)
                    guard parts.count >= 2, let k = Int(parts[1]), k < files.count else { continue }
                    switch parts[0] {
                    case "start": last = k
                    case "ok": replayed += 1
                    case "fail": XCTFail("\(t)/\(files[k]): \(parts.count > 2 ? parts[2] : "")"); replayed += 1
                    default: break
                    }
                }
                if r.status == 0 && !r.timedOut { break }
                guard last >= from else {
                    XCTFail("the replay of \(t) did not start: \(r.summary)\n\(r.err.suffix(2000))")
                    break
                }
                XCTFail("\(t)/\(files[last]) \(r.timedOut ? "hangs" : "crashes") the target (\(r.summary)): \(r.err.suffix(1500))")
                from = last + 1
            }
        }
        XCTAssertGreaterThan(replayed, 500)
    }

    /// In the child: each input from `from` on, a line before and after each.
    func replay(_ target: String, from: Int) {
        guard let run = FuzzTargets.named(target) else { print("fail\t0\tno target \(target)"); return }
        let files = Self.inputs(target)
        for k in from..<files.count {
            print("start\t\(k)")
            fflush(nil)
            guard let data = FileManager.default.contents(atPath: Self.corpus + "/" + target + "/" + files[k]) else {
                print("fail\t\(k)\tcannot read it")
                continue
            }
            var failure: FuzzFailure? = nil
            Array(data).withUnsafeBytes { b in
                do throws(FuzzFailure) { try run(b) } catch { failure = error }
            }
            if let f = failure {
                print("fail\t\(k)\t\(f.description.prefix(4000).replacingOccurrences(of: "\n", with: " "))")
            } else {
                print("ok\t\(k)")
            }
            fflush(nil)
        }
    }
}
