import XCTest
@testable import NudgeKit

/// What `tenclub watch` reads from dbus-monitor, and what it counts.
final class LockSignalsTests: XCTestCase {
    typealias T = Tenclub

    func read(_ text: String) -> [T.LockSignal] {
        var r = T.MonitorReader()
        return text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { r.feed($0) }
    }

    /// dbus-monitor 1.14's own output (captured on a bus with GNOME's,
    /// KDE's and logind's signals sent to it), byte for byte.
    static let transcript = """
        signal time=1795883691.241995 sender=org.freedesktop.DBus -> destination=:1.0 serial=2 path=/org/freedesktop/DBus; interface=org.freedesktop.DBus; member=NameAcquired
           string ":1.0"
        signal time=1795883691.242027 sender=org.freedesktop.DBus -> destination=:1.0 serial=4 path=/org/freedesktop/DBus; interface=org.freedesktop.DBus; member=NameLost
           string ":1.0"
        signal time=1795883691.745256 sender=:1.1 -> destination=(null destination) serial=2 path=/org/gnome/ScreenSaver; interface=org.gnome.ScreenSaver; member=ActiveChanged
           boolean true
        signal time=1795883691.745256 sender=:1.1 -> destination=(null destination) serial=3 path=/org/gnome/ScreenSaver; interface=org.gnome.ScreenSaver; member=ActiveChanged
           boolean false
        signal time=1795883691.752168 sender=:1.3 -> destination=(null destination) serial=2 path=/org/freedesktop/login1/session/_32; interface=org.freedesktop.DBus.Properties; member=PropertiesChanged
           string "org.freedesktop.login1.Session"
           array [
              dict entry(
                 string "IdleHint"
                 variant             boolean true
              )
              dict entry(
                 string "LockedHint"
                 variant             boolean false
              )
           ]
           array [
           ]
        signal time=1795883691.752170 sender=:1.3 -> destination=(null destination) serial=3 path=/org/freedesktop/login1/session/_33; interface=org.freedesktop.DBus.Properties; member=PropertiesChanged
           string "org.freedesktop.login1.Session"
           array [
              dict entry(
                 string "LockedHint"
                 variant             boolean true
              )
           ]
           array [
           ]
        signal time=1795883691.752171 sender=:1.3 -> destination=(null destination) serial=4 path=/org/freedesktop/login1/session/_32; interface=org.freedesktop.DBus.Properties; member=PropertiesChanged
           string "org.freedesktop.login1.Session"
           array [
           ]
           array [
              string "LockedHint"
           ]
        signal time=1795883692.1 sender=:1.4 -> destination=(null destination) serial=9 path=/ScreenSaver; interface=org.freedesktop.ScreenSaver; member=ActiveChanged
           boolean false
        method call time=1795883692.2 sender=:1.4 -> destination=org.gnome.ScreenSaver serial=10 path=/org/gnome/ScreenSaver; interface=org.gnome.ScreenSaver; member=ActiveChanged
           boolean false
        signal time=1795883692.3 sender=:1.4 -> destination=(null destination) serial=11 path=/org/gnome/ScreenSaver; interface=org.gnome.ScreenSaver; member=WakeUpScreen
        signal time=1795883692.4 sender=:1.4 -> destination=(null destination) serial=12 path=/x; interface=org.mate.ScreenSaver; member=ActiveChanged
           string "boolean false"
        signal time=1795883692.5 sender=:1.4 -> destination=(null destination) serial=13 path=/x; interface=org.xfce.ScreenSaver; member=ActiveChanged
           boolean true
        signal time=1795883692.6 sender=:1.9 -> destination=:1.0 serial=14 path=/org/gnome/ScreenSaver; interface=org.gnome.ScreenSaver; member=ActiveChanged
           boolean false
        signal time=1795883692.7 sender=:1.4 -> destination=(null destination) serial=15 path=/x; interface=org.gnome.ScreenSaver; member=ActiveChanged
           variant       boolean false
        """

    func testReadsDbusMonitorsOwnOutput() {
        XCTAssertEqual(read(Self.transcript).map { T.LockSignal($0.source, locked: $0.locked) }, [
            T.LockSignal(.gnome, locked: true), T.LockSignal(.gnome, locked: false),
            // logind is not read from dbus-monitor (gdbus reads it).
            T.LockSignal(.freedesktop, locked: false),
            // A method call is not a signal; a string that reads like a
            // boolean is not one; a signal sent to the monitor alone is not
            // an announcement; a boolean deeper down is not the argument.
            T.LockSignal(.xfce, locked: true),
        ])
    }

    /// An unlock is stamped when the monitor heard it (its header's time),
    /// on this run's clock, and never outside the run.
    func testTheMonitorsTimeIsTheUnlocksTime() {
        let got = read(Self.transcript)
        XCTAssertEqual(got.first?.atMs, 1_795_883_691_745)
        XCTAssertEqual(got.last?.atMs, 1_795_883_692_500)
        XCTAssertEqual(T.MonitorReader.milliseconds("1795883692.1"), 1_795_883_692_100)
        XCTAssertEqual(T.MonitorReader.milliseconds("1795883692"), 1_795_883_692_000)
        for bad in ["", ".5", "1.2.3", "-1", "12x", "99999999999999", "1e9", "１２"] { XCTAssertNil(T.MonitorReader.milliseconds(Substring(bad)), bad) }
        let start: Int64 = 1_795_883_690_000, pinned = Instant(ms: 1_000_000_000_000), fallback = Instant(ms: 7)
        func at(_ ms: Int64?) -> Int64 {
            T.unlockInstant(T.LockSignal(.gnome, locked: false, atMs: ms), startMs: start, startInstant: pinned,
                            realNowMs: start + 10_000, fallback: fallback).ms
        }
        XCTAssertEqual(at(start + 2_500), pinned.ms + 2_500, "read on the run's clock")
        XCTAssertEqual(at(start - 500), pinned.ms, "just before the start: at the start")
        XCTAssertEqual(at(start - 5_000), 7, "before the run: the time it was read")
        XCTAssertEqual(at(start + 60_000), 7, "in the future: the time it was read")
        XCTAssertEqual(at(nil), 7)
    }

    /// `gdbus monitor --dest org.freedesktop.login1` as GLib 2.74 prints it.
    func testLogindsHintAsGdbusPrintsIt() {
        let mine = T.logindSessionPath("3")
        func hint(_ line: String, _ path: String = T.logindSessionPath("3")) -> Bool? { T.lockedHint(gdbusLine: Substring(line), sessionPath: path) }
        XCTAssertEqual(hint("\(mine): org.freedesktop.DBus.Properties.PropertiesChanged ('org.freedesktop.login1.Session', {'LockedHint': <false>}, @as [])"), false)
        XCTAssertEqual(hint("\(mine): org.freedesktop.DBus.Properties.PropertiesChanged ('org.freedesktop.login1.Session', {'IdleHint': <true>, 'LockedHint': <true>}, @as [])"), true)
        // Captured: a string property that spells out the hint, then the hint itself.
        XCTAssertEqual(hint(#"/org/freedesktop/login1/session/_33: org.freedesktop.DBus.Properties.PropertiesChanged ('org.freedesktop.login1.Session', {'IdleHint': <true>, 'Name': <"x', 'LockedHint': <false>\n/x">, 'LockedHint': <true>}, @as [])"#), true)
        XCTAssertNil(hint(#"/org/freedesktop/login1/session/_33: org.freedesktop.DBus.Properties.PropertiesChanged ('org.freedesktop.login1.Session', {'Name': <"x', 'LockedHint': <false>">}, @as [])"#))
        XCTAssertNil(hint(#"/org/freedesktop/login1/session/_33: org.freedesktop.DBus.Properties.PropertiesChanged ('org.freedesktop.login1.Session', {'Name': <'x\', \'LockedHint\': <false>'>}, @as [])"#))
        // Deeper down, only invalidated, another session, another interface, gdbus's own words: nothing.
        XCTAssertNil(hint("\(mine): org.freedesktop.DBus.Properties.PropertiesChanged ('org.freedesktop.login1.Session', {'X': <{'LockedHint': <false>}>}, @as [])"))
        XCTAssertNil(hint("\(mine): org.freedesktop.DBus.Properties.PropertiesChanged ('org.freedesktop.login1.Session', {}, ['LockedHint'])"))
        XCTAssertNil(hint("\(mine): org.freedesktop.DBus.Properties.PropertiesChanged ('org.freedesktop.login1.Session', {'LockedHint': <false>}, @as [])", T.logindSessionPath("2")))
        XCTAssertNil(hint("\(mine): org.freedesktop.DBus.Properties.PropertiesChanged ('org.freedesktop.login1.User', {'LockedHint': <false>}, @as [])"))
        XCTAssertNil(hint("The name org.freedesktop.login1 is owned by :1.1"))
        XCTAssertNil(hint("\(mine): org.freedesktop.DBus.Properties.PropertiesChanged ('org.freedesktop.login1.Session', {'LockedHint': <'false'>}, @as [])"))
        XCTAssertNil(hint("\(mine): org.freedesktop.DBus.Properties.PropertiesChanged ('org.freedesktop.login1.Session', {'Name': <'unterminated"))
        // Any bytes: no failure.
        var rng = SeededRandom(seed: 5)
        let alphabet = Array("'\"\\{}[]()<>: ,LockedHint<true><false>x".utf8)
        let prefix = "\(mine): org.freedesktop.DBus.Properties.PropertiesChanged ('org.freedesktop.login1.Session', {"
        for _ in 0..<3000 {
            let tail = (0..<Int.random(in: 0...60, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            _ = hint(prefix + String(decoding: tail, as: UTF8.self))
        }
    }

    func testLogindsPathsAsSdBusEscapesThem() {
        XCTAssertEqual(T.logindSessionPath("2"), "/org/freedesktop/login1/session/_32")
        XCTAssertEqual(T.logindSessionPath("12"), "/org/freedesktop/login1/session/_312")
        XCTAssertEqual(T.logindSessionPath("c1"), "/org/freedesktop/login1/session/c1")
        XCTAssertEqual(T.logindSessionPath("a-b_c"), "/org/freedesktop/login1/session/a_2db_5fc")
        for ok in ["2", "c1", "12", "a-b_c"] { XCTAssertTrue(T.isSessionID(ok), ok) }
        for bad in ["", "../2", "2 3", "a'b", "é", String(repeating: "1", count: 65)] { XCTAssertFalse(T.isSessionID(bad), bad) }
        // gdbus follows logind's own name: nobody else's signal is passed on.
        XCTAssertEqual(T.systemBusArguments(sessionPath: T.logindSessionPath("2")),
                       ["monitor", "--system", "--dest", "org.freedesktop.login1", "--object-path", "/org/freedesktop/login1/session/_32"])
        XCTAssertEqual(T.sessionBusRules.count, 5)
    }

    /// Over random streams from several sources: the unlocks counted are the
    /// stretches of "unlocked" in the stream — one per return from locked,
    /// plus one when the stream starts unlocked — however many sources
    /// repeat them.
    func testEachReturnFromLockedIsCountedOnce() {
        var rng = SeededRandom(seed: 7)
        for _ in 0..<2000 {
            let n = Int.random(in: 0...30, using: &rng)
            let stream = (0..<n).map { _ in
                T.LockSignal(T.LockSource.allCases.randomElement(using: &rng)!, locked: Bool.random(using: &rng))
            }
            var tracker = T.LockTracker()
            let counted = stream.filter { tracker.heard($0) }.count
            // The stream as runs of one state: locked, unlocked, locked…
            var runs: [Bool] = []
            for s in stream where runs.last != s.locked { runs.append(s.locked) }
            XCTAssertEqual(counted, runs.filter { !$0 }.count, "\(stream.map { $0.locked ? "L" : "u" }.joined())")
            XCTAssertLessThanOrEqual(counted, stream.filter(\.locked).count + 1)
        }
    }

    /// Lines of every shape, cut anywhere: the reader never fails, and a
    /// signal comes only from a screen saver's or logind's own header.
    func testAnyLinesAreReadWithoutHarm() {
        var rng = SeededRandom(seed: 11)
        let pieces = Self.transcript.split(separator: "\n").map(String.init) + ["", " ", "signal", "signal member=ActiveChanged", "   boolean", "\u{0}\u{FF}"]
        for _ in 0..<500 {
            var r = T.MonitorReader()
            var header = ""
            for _ in 0..<40 {
                var line = pieces.randomElement(using: &rng)!
                if Bool.random(using: &rng), !line.isEmpty { line = String(line.prefix(Int.random(in: 0...line.count, using: &rng))) }
                if line.first != " " { header = line }
                if let s = r.feed(Substring(line)) {
                    XCTAssertTrue(header.hasPrefix("signal ") && header.contains("destination=(null destination)"), header)
                    XCTAssertTrue(header.contains("member=ActiveChanged") && s.source != .logind, header)
                }
            }
        }
    }
}
