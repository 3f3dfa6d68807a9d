import Foundation
import TestSupport
import XCTest
@testable import NudgeKit

/// recurring-ical-events' own test calendars (Fixtures/recurring-ical-events/,
/// where its README says where they come from), each read by `yomo
/// import`'s reader and expanded by yomo, compared with what the library
/// `recurring_ical_events` expands from the same file, run here through
/// expand.py — or, where the version here (Debian's) and the version the
/// calendars come from disagree, with what the calendar's own test expects
/// (own-tests.ndjson, made by make_own_tests.py).
///
/// Each calendar is read twice, with floating times in two zones (one with
/// the summer in July, one with it in January). It is right when, in both,
/// every UID starts at the same instants in the window (an all-day item: at
/// 09:00 on the same days; a UID's repeated start once, as yomo reminds
/// once), refused when the import names a problem, and silently wrong
/// otherwise: there must be none of those.
final class RecurringIcalEventsTests: XCTestCase {
    static let folder = String(#filePath.dropLast("RecurringIcalEventsTests.swift".count)) + "Fixtures/recurring-ical-events/"
    static let zones = ["Europe/Berlin", "Pacific/Auckland"]

    /// What one calendar is, in one zone.
    enum Verdict: Equatable {
        case right, refused(String), wrong(String)
    }

    func testEveryCalendarIsRightOrRefusedNeverSilentlyWrong() throws {
        try require(.recurringIcalEvents)
        let python = try XCTUnwrap(Machine.current.python(importing: ["recurring_ical_events", "icalendar"]))
        let dir = Self.folder + "calendars/"
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".ics") }.sorted()
        XCTAssertGreaterThan(files.count, 80)
        var own: [String: JSONObject] = [:]
        for line in try String(contentsOfFile: Self.folder + "own-tests.ndjson", encoding: .utf8).split(separator: "\n") {
            let o = try JSON.parseObject(bytes: Array(line.utf8))
            own[o["file"]!.string!] = o
        }
        var verdicts: [String: [Verdict]] = [:]
        var versions = Set<String>()
        var ownUsed = Set<String>()
        for zoneName in Self.zones {
            let zone = try Zone.named(zoneName)
            let r = runProgram(python, [Self.folder + "expand.py", zoneName] + files.map { dir + $0 }, timeout: 300)
            XCTAssertEqual(r.status, 0, r.err)
            let lines = r.out.split(separator: "\n")
            XCTAssertEqual(lines.count, files.count, r.err)
            for line in lines {
                var oracle = try JSON.parseObject(bytes: Array(line.utf8))
                let file = oracle["file"]!.string!
                versions.insert(oracle["version"]?.string ?? "?")
                var byDay = false
                if let o = own[file] {
                    ownUsed.insert(file)
                    byDay = o["compare"]?.string == "days"
                    if !byDay { oracle = o }
                }
                let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: dir + file)))
                let v = Self.verdict(bytes, file: file, oracle: oracle, zone: zone, byDay: byDay)
                verdicts[file, default: []].append(v)
            }
        }
        var right: [String] = [], refused: [String] = [], wrong: [String] = []
        for (file, vs) in verdicts.sorted(by: { $0.key < $1.key }) {
            if let w = vs.compactMap({ if case .wrong(let m) = $0 { return m } else { return nil } }).first {
                wrong.append(w)
            } else if case .refused(let why)? = vs.first(where: { $0 != .right }) {
                refused.append("\(file): \(why)")
            } else {
                right.append(file)
            }
        }
        let byOwnTest = ownUsed.sorted().filter { own[$0]?["compare"] == nil && right.contains($0) }
        let byDays = ownUsed.sorted().filter { own[$0]?["compare"] != nil }
        print("""
            recurring-ical-events' calendars through yomo import, floating times in \(Self.zones.joined(separator: " and ")), \
            against recurring_ical_events \(versions.sorted().joined(separator: ", ")): \(right.count) right, \
            \(refused.count) refused with a reason, \(wrong.count) silently wrong, of \(verdicts.count)
            right by what the calendar's own test expects (its version here differs, own-tests.ndjson): \(byOwnTest.joined(separator: ", "))
            right by day (yomo's reading stated there): \(byDays.joined(separator: ", "))
            refused:
            """ + refused.map { "  " + $0 }.joined(separator: "\n"))
        XCTAssertEqual(wrong, [])
        XCTAssertEqual(right.count + refused.count, files.count)
    }

    /// One calendar read with floating times in `zone`, against the oracle's line.
    static func verdict(_ bytes: [UInt8], file: String, oracle: JSONObject, zone: Zone, byDay: Bool) -> Verdict {
        let (items, problems, _) = YomoInterchange.fromICS(bytes, name: file, fallbackZone: zone)
        if let p = problems.first { return .refused(p.text) }
        if let e = oracle["error"]?.string { return .wrong("\(file): yomo imports \(items.count) items where the oracle stops (\(e)) and no test of its own says what they are") }
        guard let w = oracle["window"]?.array?.compactMap(\.string), w.count == 2,
              case .date(let loDay)? = ICSValue.dateOrDateTime(w[0]), case .date(let hiDay)? = ICSValue.dateOrDateTime(w[1]) else {
            return items.isEmpty ? .right : .wrong("\(file): \(items.count) items in a file without dates")
        }
        let from = Zone.utc.startOfDay(loDay), to = Zone.utc.startOfDay(hiDay)
        // yomo's starts in the window, per UID (no UID: all of them together, each its own).
        var got: [String: [Instant]] = [:]
        var zoneOf: [String: Zone] = [:]
        for item in items {
            let uid = item.source.map { String($0.dropFirst("ical:".count)) } ?? item.id.map { $0 + "@yomo" } ?? ""
            let z = ZoneCache.named(item.zone) ?? zone
            zoneOf[uid] = z
            var t = Instant(ms: from.ms - 1)
            var n = 0
            while n < 20_000, let x = item.recurrence.next(after: t, anchor: item.anchor, zone: z), x < to {
                got[uid, default: []].append(x)
                t = x
                n += 1
            }
        }
        var want: [String: [Instant]] = [:]
        for e in oracle["events"]?.array ?? [] {
            guard let p = e.array?.compactMap(\.string), p.count == 2 else { return .wrong("\(file): oracle line \(e)") }
            let z = zoneOf[p[0]] ?? zone
            switch ICSValue.dateOrDateTime(p[1]) {
            case .date(let d)?: want[p[0], default: []].append(z.resolve(LocalDateTime(day: d, time: YomoInterchange.allDayTime)))
            case .utc(let i)?: want[p[0], default: []].append(i)
            default: return .wrong("\(file): oracle start \(p[1])")
            }
        }
        func canonical(_ m: [String: [Instant]], day: (String, Instant) -> String) -> [String: [String]] {
            var out: [String: [String]] = [:]
            for (uid, list) in m {
                var l = list.filter { $0 >= from && $0 < to }.map { day(uid, $0) }
                if !uid.isEmpty { l = Array(Set(l)) }
                if !l.isEmpty { out[uid] = l.sorted() }
            }
            return out
        }
        let mine = canonical(got) { uid, i in byDay ? (zoneOf[uid] ?? zone).day(of: i).description : i.description }
        let theirs = canonical(want) { _, i in byDay ? Zone.utc.day(of: i).description : i.description }
        if mine == theirs { return .right }
        var diff: [String] = []
        for uid in Set(mine.keys).union(theirs.keys).sorted() where mine[uid] != theirs[uid] {
            let a = theirs[uid] ?? [], b = mine[uid] ?? []
            diff.append("UID '\(uid.prefix(30))': \(a.count) expected, yomo \(b.count); expected only \(a.filter { !b.contains($0) }.prefix(3)), yomo only \(b.filter { !a.contains($0) }.prefix(3))")
        }
        return .wrong("\(file) [\(zone.name)]: " + diff.joined(separator: "; "))
    }
}
