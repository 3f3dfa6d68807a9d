import XCTest
@testable import NudgeKit

/// Which app a window ActivityWatch reports is: one list of names per app
/// serves enforce (process patterns) and ActivityWatch (the names it
/// reports, and window titles where an app has no name of its own).
final class RewardsWindowNamesTests: XCTestCase {
    typealias App = RewardsState.App
    let apps: [App] = [
        App(name: "Minecraft", category: .reward, pointsPerHour: nil, processes: ["java"]),
        App(name: "Scratch", category: .learning, pointsPerHour: nil, processes: ["java"], titles: ["Scratch*"]),
        // First by name among java's apps: claims none but its own windows.
        App(name: "Blockly", category: .learning, pointsPerHour: nil, processes: ["java"], titles: ["Blockly*"]),
        App(name: "Krunker", category: .reward, pointsPerHour: nil, titles: ["*krunker.io*"]),
        App(name: "Duolingo", category: .learning, pointsPerHour: nil),
        App(name: "Roblox", category: .reward, pointsPerHour: nil, processes: ["RobloxPlayer*.exe", "roblox*"]),
    ]

    func name(_ app: String, _ title: String?) -> String { Rewards.appForWindow(app, title: title, apps: apps) }

    func testTheNameActivityWatchReportsFindsTheApp() {
        // Its own name first, in any case.
        XCTAssertEqual(name("Duolingo", "Lesson 4"), "Duolingo")
        XCTAssertEqual(name("duolingo", nil), "Duolingo")
        // A process pattern: java is Minecraft; globs and case as enforce matches them.
        XCTAssertEqual(name("java", "Minecraft 1.20.1"), "Minecraft")
        XCTAssertEqual(name("java", nil), "Minecraft")
        XCTAssertEqual(name("RobloxPlayerBeta.exe", "Roblox"), "Roblox")
        XCTAssertEqual(name("ROBLOX", nil), "Roblox")
        // An app with title patterns claims only the windows whose title
        // matches, and a process and a title together beat a process alone.
        XCTAssertEqual(name("java", "Scratch Desktop"), "Scratch")
        XCTAssertEqual(name("java", "scratch 3.0"), "Scratch", "titles match ignoring case")
        XCTAssertEqual(name("python3", "Scratch Desktop"), "python3", "a title alone does not claim a window of another process")
        // An app known by its titles alone: a game in a browser.
        XCTAssertEqual(name("Firefox", "Krunker.io - Mozilla Firefox"), "Krunker")
        XCTAssertEqual(name("Firefox", "Khan Academy - Mozilla Firefox"), "Firefox")
        // Nothing claims it: the name as reported (left to categorise).
        XCTAssertEqual(name("gnome-terminal", "bash"), "gnome-terminal")
    }

    func testTiesGoToTheFirstByName() {
        let two = [App(name: "Zoo Tycoon", category: .reward, pointsPerHour: nil, processes: ["wine*"]),
                   App(name: "Age of Empires", category: .reward, pointsPerHour: nil, processes: ["wine*"])]
        XCTAssertEqual(Rewards.appForWindow("wine64", title: nil, apps: two), "Age of Empires")
        XCTAssertEqual(Rewards.appForWindow("wine64", title: nil, apps: two.reversed()), "Age of Empires")
    }

    func testAnExportIsChargedToTheAppsItsWindowsAre() throws {
        let export = """
            {"buckets":{"aw-watcher-window_laptop":{"type":"currentwindow","events":[
             {"timestamp":"2026-11-21T15:00:00-05:00","duration":2400,"data":{"app":"java","title":"Minecraft 1.20.1"}},
             {"timestamp":"2026-11-21T15:40:02-05:00","duration":600,"data":{"app":"java","title":"Scratch Desktop"}},
             {"timestamp":"2026-11-21T17:00:00-05:00","duration":1200,"data":{"title":"Krunker.io - Mozilla Firefox","app":"Firefox"}}
            ]}}}
            """
        let now = Instant(seconds: 1_800_000_000)
        for titles in [true, false] {
            let naming: (String, String?) -> String = { Rewards.appForWindow($0, title: $1, apps: self.apps) }
            let fast = try ActivityWatch.read(bytes: Array(export.utf8), now: now, titles: titles, naming: naming).get()
            let general = try ActivityWatch.read(try JSON.parseDocument(Array(export.utf8)), now: now, titles: titles, naming: naming).get()
            XCTAssertEqual(fast, general)
            XCTAssertEqual(fast.sessions.map(\.app), titles ? ["Minecraft", "Scratch", "Krunker"] : ["Minecraft", "Firefox"],
                           "without titles read, java is Minecraft throughout and the browser is the browser")
            XCTAssertEqual(fast.sessions.map(\.span.seconds), titles ? [2400, 600, 1200] : [3002, 1200])
        }
    }
}
