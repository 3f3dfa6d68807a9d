import XCTest
@testable import NudgeKit

/// The recurrence engine (RRule, RRuleExpansion, RecurrenceSet) against
/// python-dateutil's own rrule test cases, read straight from the fixture
/// (Yomo/Fixtures/dateutil/rrule.ndjson, made by make_fixture.py beside it);
/// yomo's import of the same files is DateutilFixtureTests.
final class RRuleTests: XCTestCase {
    static func fixture() throws -> (JSONObject, [JSONObject]) {
        let path = String(#filePath.dropLast("Core/Calendar/RRuleTests.swift".count)) + "Yomo/Fixtures/dateutil/rrule.ndjson"
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var lines = try Array(data).split(separator: 0x0A).map { try JSON.parseObject(bytes: Array($0)) }
        let head = lines.removeFirst()
        return (head, lines)
    }

    func testEngineAgreesWithDateutilOnEveryCase() throws {
        let (_, cases) = try RRuleTests.fixture()
        var right = 0, refused = 0, wrong: [String] = []
        for c in cases {
            let name = "\(c["name"]!.string!) [\(c["mode"]!.string!)]"
            let (root, problems) = ICSReader.parse(Array(c["ics"]!.string!.utf8))
            XCTAssertEqual(problems, [], name)
            let ev = root!.children.first { $0.name == "VEVENT" }!
            switch ICSRecurrence.timing(ev, zones: ICSZones(calendar: root), floating: .utc) {
            case .failure(let e):
                if c["refuse"] != nil { refused += 1 } else { wrong.append("\(name): refused: \(e.message)") }
            case .success(let t):
                if c["refuse"] != nil { wrong.append("\(name): not refused"); continue }
                let got = t.set.all(zone: t.zone, limit: 10_000)
                let exp: [String]
                let mine: [String]
                if let e = c["expected_days"]?.array {
                    exp = e.compactMap(\.string); mine = got.map { $0.local.day.description }
                } else if let e = c["expected_local"]?.array {
                    exp = e.compactMap(\.string); mine = got.map { $0.local.description }
                } else {
                    exp = c["expected"]!.array!.compactMap(\.string); mine = got.map { $0.at.description }
                }
                if exp == mine { right += 1 } else { wrong.append("\(name): want \(exp.prefix(4)) got \(mine.prefix(4)) (\(exp.count) vs \(mine.count))") }
            }
        }
        print("dateutil fixture, engine: \(right) right, \(refused) refused, \(wrong.count) wrong of \(cases.count)")
        XCTAssertEqual(wrong, [])
    }
}
