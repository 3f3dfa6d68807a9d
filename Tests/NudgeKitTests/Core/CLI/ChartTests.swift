import XCTest
@testable import NudgeKit

final class ChartTests: XCTestCase {
    func testTheLocaleDecidesBlocksOrASCIIInTheOrderCReadsIt() {
        func unicode(_ env: [String: String]) -> Bool { Chart.unicode(env: { env[$0] }) }
        XCTAssertFalse(unicode([:]))  // the C locale
        XCTAssertTrue(unicode(["LANG": "en_US.UTF-8"]))
        XCTAssertTrue(unicode(["LANG": "C.utf8"]))
        XCTAssertFalse(unicode(["LANG": "de_DE.ISO-8859-1"]))
        XCTAssertFalse(unicode(["LANG": "en_US.UTF-8", "LC_ALL": "C"]))
        XCTAssertTrue(unicode(["LANG": "C", "LC_CTYPE": "en_US.UTF-8"]))
        XCTAssertTrue(unicode(["LANG": "en_US.UTF-8", "LC_ALL": ""]))  // an empty variable is not set
    }

    func testAPicturesWidthIsColumnsElseTheTerminalsElseEighty() {
        XCTAssertEqual(Chart.width(columns: "64", terminal: 120), 64)
        XCTAssertEqual(Chart.width(columns: " 100 ", terminal: nil), 100)
        for bad in ["0", "-5", "wide", "", "99999999999999999999"] { XCTAssertEqual(Chart.width(columns: bad, terminal: 120), 120, bad) }
        XCTAssertEqual(Chart.width(columns: nil, terminal: nil), 80)
    }

    func testColumnsNeverDrawACountAsNothingNorEndInABlank() {
        var rng = SeededRandom(seed: 24)
        for _ in 0..<1000 {
            let xs = (0..<24).map { _ in Int.random(in: 0...3, using: &rng) == 0 ? 0 : Int.random(in: 1...5000, using: &rng) }
            for unicode in [true, false] {
                let c = Array(Chart.columns(xs, unicode: unicode))
                XCTAssertEqual(c.count, 24)
                for (x, ch) in zip(xs, c) { XCTAssertEqual(x == 0, ch == (unicode ? "·" : "."), "\(x) drew '\(ch)'") }
                XCTAssertFalse(c.contains(" "))
                if let top = xs.max(), top > 0 { XCTAssertEqual(c[xs.firstIndex(of: top)!], unicode ? "█" : "@") }
                if !unicode { XCTAssertTrue(String(c).unicodeScalars.allSatisfy(\.isASCII)) }
            }
        }
    }
}
