import XCTest
@testable import NudgeKit

/// The role of the one device that hands records over (Core/DeviceRole.swift):
/// the fold keeps the first claim by stamp and a move; who may act and why
/// not; the settling time; and, over random devices taking the role at
/// random instants with copies arriving after random delays shorter than
/// the settling time, that exactly one device ever acts.
final class DeviceRoleTests: XCTestCase {
    let words = DeviceRole.Words(key: "thing_device", things: "things", command: "tool send")
    let t0: Int64 = 1_795_000_000_000

    func role(_ claims: [(String, Bool, Int64)]) -> DeviceRole {
        var r = DeviceRole()
        for (d, moved, ms) in claims.sorted(by: { $0.2 < $1.2 }) {
            r.apply(["type": "thing_device", "device": .string(d), "moved": .bool(moved)], stampMs: ms)
        }
        return r
    }

    func testTheFirstClaimStandsAndAMoveTakesIt() {
        XCTAssertEqual(role([("b", false, t0 + 1), ("a", false, t0)]), DeviceRole(device: "a", since: t0), "first by stamp")
        XCTAssertEqual(role([("a", false, t0), ("b", true, t0 + 5)]), DeviceRole(device: "b", since: t0 + 5, moved: true, previous: "a"), "moved")
        XCTAssertEqual(role([("a", false, t0), ("b", true, t0 + 5), ("c", false, t0 + 9)]).device, "b", "a later first claim counts for nothing")
        var r = DeviceRole()
        r.apply(["type": "thing_device"], stampMs: t0)
        XCTAssertNil(r.device, "a claim naming no device is nothing")
    }

    func testWhoMayActAndWhyNot() {
        let now = Instant(ms: t0 + 1000)
        func decide(_ r: DeviceRole, _ me: String, configured: String? = nil, takeOver: Bool = false) -> DeviceRole.Verdict {
            r.decide(device: me, configured: configured, takeOver: takeOver, words: words, configPath: "cfg", now: now)
        }
        XCTAssertEqual(decide(DeviceRole(), "a").record, ["type": "thing_device", "device": "a", "claimed_ms": .int(now.ms)])
        let held = DeviceRole(device: "a", since: t0)
        XCTAssertEqual(decide(held, "a"), DeviceRole.Verdict(record: nil, refusal: nil, news: false))
        let other = decide(held, "b")
        XCTAssertNil(other.record)
        XCTAssertFalse(other.news, "another device's role is the normal answer")
        XCTAssertEqual(other.refusal, "things are sent from the device 'a', where 'tool send' ran first; this device is 'b': run 'tool send --take-over' here to send them from this one instead (it starts 5 minutes later, once the others have seen it)")
        XCTAssertEqual(decide(DeviceRole(device: "a", since: t0, moved: true), "b").refusal?.contains("'a', which took the role over;"), true)
        XCTAssertEqual(decide(held, "b", takeOver: true).record, ["type": "thing_device", "device": "b", "moved": true, "claimed_ms": .int(now.ms)])
        let named = decide(held, "a", configured: "b")
        XCTAssertNil(named.record)
        XCTAssertEqual(named.refusal, "things are sent from the device 'b' (thing_device in cfg); this device is 'a': change thing_device there to send them from here")
        XCTAssertEqual(decide(held, "b", configured: "b").record, ["type": "thing_device", "device": "b", "moved": true, "claimed_ms": .int(now.ms)],
                       "the configuration moves it")
        XCTAssertNil(decide(held, "a", configured: "").refusal, "an empty key names nobody")
        // Named in this device's configuration, but taken over from it since:
        // not taken back (two devices each named in their own configuration
        // would take it in turns); said as news.
        var r = DeviceRole()
        r.claimed(by: "a", moved: false, stampMs: t0)
        r.claimed(by: "b", moved: true, stampMs: t0 + 10)
        XCTAssertEqual(r.previous, "a")
        let conflict = decide(r, "a", configured: "a")
        XCTAssertNil(conflict.record)
        XCTAssertTrue(conflict.news)
        XCTAssertEqual(conflict.refusal, "things are sent from the device 'b', which took the role over from this one, though thing_device in cfg names this device 'a': remove thing_device there (or name 'b'), or run 'tool send --take-over' here to send them from this one again")
        XCTAssertNotNil(decide(r, "a", configured: "a", takeOver: true).record, "--take-over still takes it")
        XCTAssertNotNil(decide(r, "c", configured: "c").record, "a device named that never held it takes it")
    }

    /// A configured name that no journal here belongs to, while records
    /// wait, is a configuration error naming the devices; the journals are
    /// listed only then.
    func testAMisnamedDeviceIsAConfigurationError() throws {
        var listed = 0
        let known = { () throws(ToolError) -> [String] in listed += 1; return ["b", "a"] }
        let e = try DeviceRole.misnamed("\"b\"", device: "a", waiting: true, words: words, configPath: "cfg", known: known)
        XCTAssertEqual(e?.message, "thing_device = \"b\" in cfg names no device sharing this folder (devices: a, b): things wait for it")
        XCTAssertNil(try DeviceRole.misnamed("b", device: "a", waiting: true, words: words, configPath: "cfg", known: known))
        XCTAssertEqual(listed, 2)
        for (c, waiting) in [("zz", false), ("a", true), ("", true)] {
            XCTAssertNil(try DeviceRole.misnamed(c, device: "a", waiting: waiting, words: words, configPath: "cfg", known: known))
        }
        XCTAssertEqual(listed, 2, "nothing listed when nothing could be wrong")
    }

    func testAHolderSettlesOnlyWhereDevicesShareAFolder() {
        let held = DeviceRole(device: "a", since: t0)
        let now = Instant(ms: t0 + 60_000)
        XCTAssertEqual(held.settling(device: "a", shared: true, now: now), Instant(ms: t0 + DeviceRole.settleMillis))
        XCTAssertNil(held.settling(device: "a", shared: false, now: now), "no sync folder: nobody to wait for")
        XCTAssertNil(held.settling(device: "b", shared: true, now: now), "not the holder")
        XCTAssertNotNil(held.settling(device: "a", shared: true, now: Instant(ms: t0 + DeviceRole.settleMillis - 1)))
        XCTAssertNil(held.settling(device: "a", shared: true, now: Instant(ms: t0 + DeviceRole.settleMillis)), "then it acts")
        XCTAssertTrue(DeviceRole.settlingNote(words, from: "09:05").contains("sends them from 09:05"))
    }

    /// The settling time runs on the claimer's own clock: a claim stamped a
    /// day ahead (a peer's clock ahead, carried by the stamps) settles 5
    /// minutes after it was made here, not a day later; a claimed time is
    /// never past its stamp, nor before 0, however it was written.
    func testTheSettlingTimeRunsOnTheClaimersClock() {
        let day: Int64 = 86_400_000
        var r = DeviceRole()
        r.apply(["type": "thing_device", "device": "a", "claimed_ms": .int(t0)], stampMs: t0 + day)
        XCTAssertEqual(r.since, t0)
        XCTAssertNil(r.settling(device: "a", shared: true, now: Instant(ms: t0 + DeviceRole.settleMillis)))
        for forged in [Int64.max, Int64.min, -1, t0 + 2 * day] {
            var f = DeviceRole()
            f.apply(["type": "thing_device", "device": "a", "claimed_ms": .int(forged)], stampMs: t0)
            XCTAssertTrue((0...t0).contains(f.since ?? -1), "\(forged)")
            _ = f.settling(device: "a", shared: true, now: Instant(ms: t0))
        }
    }

    /// Devices that each run the command every minute, some starting in the
    /// same minute, each seeing another's claim only after that copy's
    /// random delay (under the settling time): exactly one device ever acts,
    /// the first by stamp, and it does act once settled. A take-over by a
    /// device later moves it, and the old holder stops before the new one
    /// starts.
    func testOverRandomDevicesAndDelaysOneDeviceActs() {
        for seed in 0..<300 {
            var rng = SeededRandom(seed: UInt64(seed))
            let n = Int.random(in: 2...4, using: &rng)
            let devices = (0..<n).map { "d\($0)" }
            let start = devices.map { _ in Int64.random(in: 0..<3, using: &rng) * 60_000 + Int64.random(in: 0..<60_000, using: &rng) }
            // delay[i][j]: how long device i's writes take to reach device j.
            let delay = devices.map { _ in devices.map { _ in Int64.random(in: 0..<(DeviceRole.settleMillis - 1), using: &rng) } }
            let takeOverBy = Int.random(in: 0..<n, using: &rng)
            let takeOverAt = Int64.random(in: 20...30, using: &rng) * 60_000
            var written: [[(String, Bool, Int64)]] = devices.map { _ in [] }  // each device's own claims
            var acted: [(Int, Int64)] = []
            for minute in 0..<60 {
                for i in 0..<n {
                    let now = t0 + Int64(minute) * 60_000 + Int64(i)
                    guard now - t0 >= start[i] else { continue }
                    // What device i has seen by now: its own, and others' that arrived.
                    var seen: [(String, Bool, Int64)] = written[i]
                    for j in 0..<n where j != i { seen += written[j].filter { $0.2 - t0 + delay[j][i] <= now - t0 } }
                    let r = role(seen)
                    let takeOver = i == takeOverBy && now - t0 >= takeOverAt && !written[i].contains { $0.1 }
                    let v = r.decide(device: devices[i], configured: nil, takeOver: takeOver, words: words, configPath: "", now: Instant(ms: now))
                    if v.refusal != nil { continue }
                    var mine = r
                    if let e = v.record {
                        written[i].append((devices[i], e["moved"]?.bool == true, now))
                        mine = role(seen + [written[i].last!])
                    }
                    if mine.settling(device: devices[i], shared: true, now: Instant(ms: now)) == nil {
                        acted.append((i, now))
                    }
                }
            }
            // Everything written, as every copy folds it in the end.
            let final = role(written.flatMap { $0 })
            XCTAssertEqual(final.device, devices[takeOverBy], "seed \(seed): the take-over stands")
            XCTAssertFalse(acted.isEmpty, "seed \(seed): somebody acts")
            let firstClaim = written.flatMap { $0 }.filter { !$0.1 }.min { $0.2 < $1.2 }!
            let before = acted.filter { $0.1 < takeOverAt + t0 }
            XCTAssertTrue(before.allSatisfy { devices[$0.0] == firstClaim.0 }, "seed \(seed): before the take-over only the first by stamp acts: \(before.map { devices[$0.0] })")
            if let moved = written[takeOverBy].first(where: { $0.1 })?.2 {
                XCTAssertNotEqual(devices[takeOverBy], firstClaim.0, "seed \(seed): the holder does not move it to itself")
                let lastOld = acted.filter { devices[$0.0] == firstClaim.0 }.map(\.1).max() ?? 0
                let firstNew = acted.filter { $0.0 == takeOverBy && $0.1 >= moved }.map(\.1).min() ?? .max
                XCTAssertLessThan(lastOld, firstNew, "seed \(seed): the old holder stops before the new one starts")
            }
            // No two devices act in the same minute.
            let byMinute = Dictionary(grouping: acted) { ($0.1 - t0) / 60_000 }
            XCTAssertTrue(byMinute.values.allSatisfy { Set($0.map(\.0)).count == 1 }, "seed \(seed)")
        }
    }
}
