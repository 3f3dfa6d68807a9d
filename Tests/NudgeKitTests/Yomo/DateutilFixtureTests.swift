import XCTest
@testable import NudgeKit

/// python-dateutil's own rrule test cases, each imported as an iCalendar
/// file (a VEVENT with DTSTART, RRULE, RDATE, EXDATE, EXRULE) by `yomo
/// import`'s reader, floating, in America/New_York and in UTC, and its
/// occurrences compared with what dateutil (with zoneinfo) computes. The
/// fixture and its generator are in Fixtures/dateutil/. Every case is
/// right, or refused with the reason the fixture gives (BYEASTER and
/// BYWEEKDAY are dateutil's, not RFC 5545's); none is silently wrong.
final class DateutilFixtureTests: XCTestCase {
    func testEveryDateutilCaseIsRightOrRefusedNeverSilentlyWrong() throws {
        let (head, cases) = try RRuleTests.fixture()
        var right = 0, refused = 0
        var wrong: [String] = []
        for c in cases {
            let name = "\(c["name"]!.string!) [\(c["mode"]!.string!)]"
            let (items, problems, _) = YomoInterchange.fromICS(Array(c["ics"]!.string!.utf8), name: "case.ics", fallbackZone: .utc)
            if let reason = c["refuse"]?.string {
                if items.isEmpty && !problems.isEmpty { refused += 1 } else { wrong.append("\(name): not refused (\(reason))") }
                continue
            }
            guard let item = items.first, problems.isEmpty else {
                wrong.append("\(name): refused: \(problems.map(\.message))"); continue
            }
            let zone = ZoneCache.named(item.zone) ?? .utc
            var got: [Instant] = []
            var t = Instant(ms: 0)
            while got.count < 10_000, let n = item.recurrence.next(after: t, anchor: item.anchor, zone: zone) {
                got.append(n)
                t = n
            }
            let mine: [String], exp: [String]
            if let e = c["expected_days"]?.array {
                // All day: each on its day, at the time yomo reminds all-day items.
                exp = e.compactMap(\.string).map { $0 + "T" + YomoInterchange.allDayTime.description + ":00" }
                mine = got.map { zone.local($0).description }
            } else if let e = c["expected_local"]?.array {
                exp = e.compactMap(\.string)
                mine = got.map { zone.local($0).description }
            } else {
                // One reminder per instant: two wall times that a DST gap makes one instant come once.
                var seen = Set<String>()
                exp = c["expected"]!.array!.compactMap(\.string).filter { seen.insert($0).inserted }.sorted()
                mine = got.map(\.description)
            }
            if exp == mine { right += 1 } else {
                wrong.append("\(name): want \(exp.prefix(3))… (\(exp.count)) got \(mine.prefix(3))… (\(mine.count))")
            }
        }
        let leftOut = head["left_out"]?.object?.fields.map { "\($0.key): \($0.value.int ?? 0)" } ?? []
        print("dateutil's rrule cases through yomo import: \(right) right, \(refused) refused with a reason, \(wrong.count) silently wrong, of \(cases.count) (cases x zone modes); not iCalendar and left out of the fixture: \(leftOut.joined(separator: "; "))")
        XCTAssertEqual(wrong, [])
        XCTAssertEqual(refused, cases.filter { $0["refuse"] != nil }.count)
    }
}
