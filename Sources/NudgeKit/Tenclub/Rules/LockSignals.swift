// Unlocks heard on D-Bus, as `tenclub watch` follows them: the screen
// lockers' own signals, read from dbus-monitor's text output, and the rule
// that turns a stream of "locked" / "unlocked" into counted unlocks. Pure:
// lines in, signals and decisions out; the command runs the monitors.
//
// What is followed, and why these:
// - `ActiveChanged(boolean)` of the screen savers' interfaces: GNOME Shell's
//   org.gnome.ScreenSaver, KDE's (and others') org.freedesktop.ScreenSaver,
//   and the same signal of Cinnamon, MATE and Xfce. false is the shield
//   going down.
// - systemd-logind's `LockedHint` property of this login session, which
//   desktops set as they lock and unlock: a PropertiesChanged signal on the
//   system bus, followed with `gdbus monitor --dest org.freedesktop.login1`.
//   gdbus (GLib 2.74.6 and later: CVE-2024-34397) passes on only what the
//   name's owner sent — another login sending a look-alike, even straight to
//   the monitor, is dropped — and prints strings escaped, one signal a line,
//   so no argument can pass for another. (dbus-monitor, on the system bus,
//   would do neither: it prints strings raw, newlines and all, and a plain
//   user's monitor is an ordinary connection anyone may send to.)
//   logind's `Unlock` signal is not followed: it asks the locker to unlock,
//   and the locker's own signals say when it did.

extension Tenclub {
    /// Who said the screen was locked or unlocked.
    public enum LockSource: String, Sendable, CaseIterable {
        case gnome, freedesktop, cinnamon, mate, xfce, logind

        /// The D-Bus interface whose ActiveChanged signal it sends (nil for logind).
        public var interface: String? {
            switch self {
            case .gnome: return "org.gnome.ScreenSaver"
            case .freedesktop: return "org.freedesktop.ScreenSaver"
            case .cinnamon: return "org.cinnamon.ScreenSaver"
            case .mate: return "org.mate.ScreenSaver"
            case .xfce: return "org.xfce.ScreenSaver"
            case .logind: return nil
            }
        }
    }

    /// One lock or unlock heard.
    public struct LockSignal: Equatable, Sendable {
        public var source: LockSource
        public var locked: Bool
        /// When the monitor received it, in milliseconds since 1970 (its
        /// header's `time=`), where the monitor says.
        public var atMs: Int64?
        public init(_ source: LockSource, locked: Bool, atMs: Int64? = nil) {
            self.source = source
            self.locked = locked
            self.atMs = atMs
        }
    }

    /// When an unlock happened: the monitor's time of it, read on the clock
    /// of this run (which ticks on from --now when pinned: `startMs` is the
    /// real time that `startInstant` stands for), or `fallback` (the time
    /// it was read) when the monitor gave none or one outside the run — a
    /// time= field never moves an unlock before the run or into the future.
    public static func unlockInstant(_ signal: LockSignal, startMs: Int64, startInstant: Instant, realNowMs: Int64, fallback: Instant) -> Instant {
        guard let at = signal.atMs, at >= startMs - 1000, at <= realNowMs else { return fallback }
        return Instant(ms: startInstant.ms + max(0, at - startMs))
    }

    /// The match rules for dbus-monitor on the session bus: every screen
    /// saver's ActiveChanged.
    public static var sessionBusRules: [String] {
        LockSource.allCases.compactMap(\.interface).map { "type='signal',interface='\($0)',member='ActiveChanged'" }
    }

    /// gdbus's arguments on the system bus: what logind sends about one session object.
    public static func systemBusArguments(sessionPath: String) -> [String] {
        ["monitor", "--system", "--dest", "org.freedesktop.login1", "--object-path", sessionPath]
    }

    /// LockedHint's new value in one line of `gdbus monitor`, if the line is
    /// logind's PropertiesChanged of the session at `sessionPath` and names
    /// it among the changed properties (at the top of the dictionary: a
    /// string or a nested value that spells it out does not count).
    public static func lockedHint(gdbusLine line: Substring, sessionPath: String) -> Bool? {
        let prefix = sessionPath + ": org.freedesktop.DBus.Properties.PropertiesChanged ('org.freedesktop.login1.Session', {"
        guard line.hasPrefix(prefix) else { return nil }
        let c = Array(line.utf8.dropFirst(prefix.utf8.count))
        var depth = 0
        var i = 0
        while i < c.count {
            let b = c[i]
            if b == UInt8(ascii: "'") || b == UInt8(ascii: "\"") {
                // A string, to its closing quote (a backslash escapes the next byte).
                let start = i + 1
                i += 1
                while i < c.count && c[i] != b { i += c[i] == UInt8(ascii: "\\") ? 2 : 1 }
                guard i < c.count else { return nil }
                let text = c[start..<i]
                i += 1
                if depth == 0, text.elementsEqual("LockedHint".utf8) {
                    let rest = c[i...]
                    if rest.starts(with: ": <true>".utf8) { return true }
                    if rest.starts(with: ": <false>".utf8) { return false }
                }
                continue
            }
            switch b {
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("), UInt8(ascii: "<"): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"), UInt8(ascii: ">"):
                if depth == 0 { return nil }  // the end of the changed properties
                depth -= 1
            default: break
            }
            i += 1
        }
        return nil
    }

    /// What a login session id may be (logind's ids: "2", "c1", "12").
    public static func isSessionID(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 64 && s.utf8.allSatisfy { $0.isASCIIAlnum || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    /// logind's object path for session `id`, escaped as sd-bus does
    /// (sd_bus_path_encode): every byte but a-z, A-Z and 0-9 — and a digit
    /// in first place — becomes `_` and two lower-case hex digits, so
    /// session "2" is `/org/freedesktop/login1/session/_32`.
    public static func logindSessionPath(_ id: String) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var label: [UInt8] = []
        for (i, b) in id.utf8.enumerated() {
            let isDigit = b >= 0x30 && b <= 0x39
            if b.isASCIIAlnum && !(i == 0 && isDigit) {
                label.append(b)
            } else {
                label += [UInt8(ascii: "_"), hex[Int(b >> 4)], hex[Int(b & 0xF)]]
            }
        }
        if label.isEmpty { label = [UInt8(ascii: "_")] }
        return "/org/freedesktop/login1/session/" + String(decoding: label, as: UTF8.self)
    }

    /// Reads dbus-monitor's default output on the session bus one line at a
    /// time. A message is a header line (`signal time=… sender=… ->
    /// destination=… serial=… path=…; interface=…; member=…`) and its
    /// arguments on the lines under it, indented. Anything else — other
    /// messages, other signals, a signal's arguments in another shape — is
    /// passed over. (Strings are printed raw, so a string can spell out a
    /// header: on the session bus only this login can send, who could as
    /// well run `tenclub unlock`.)
    public struct MonitorReader: Sendable {
        /// The screen saver whose ActiveChanged header came last, until its
        /// argument, and the header's time.
        var expect: LockSource? = nil
        var atMs: Int64? = nil

        public init() {}

        /// The signal `line` completes, if any.
        public mutating func feed(_ line: Substring) -> LockSignal? {
            if line.first != " " && line.first != "\t" {
                (expect, atMs) = Self.header(line)
                return nil
            }
            guard let source = expect else { return nil }
            expect = nil
            // dbus-monitor indents three spaces a level: a signal's own
            // arguments are at three.
            let arg = line.drop { $0 == " " || $0 == "\t" }
            guard line.count - arg.count == 3 else { return nil }
            switch arg {
            case "boolean true": return LockSignal(source, locked: true, atMs: atMs)
            case "boolean false": return LockSignal(source, locked: false, atMs: atMs)
            default: return nil
            }
        }

        /// The screen saver a header line announces ActiveChanged for, and
        /// the header's time (`time=1795883691.745256`, seconds).
        static func header(_ line: Substring) -> (LockSource?, Int64?) {
            // A signal to everyone: one sent to the monitor alone is nobody's announcement.
            guard line.hasPrefix("signal "), line.contains(" -> destination=(null destination) ") else { return (nil, nil) }
            // The header's fields are "name=value", split at spaces and
            // ';' (values in it have neither: paths, names, members).
            let words = line.split { $0 == " " || $0 == ";" }
            func field(_ name: String) -> Substring? {
                let key = name + "="
                return words.first { $0.hasPrefix(key) }.map { $0.dropFirst(key.count) }
            }
            guard let interface = field("interface"), field("member") == "ActiveChanged" else { return (nil, nil) }
            let source = LockSource.allCases.first { $0.interface.map { $0[...] == interface } ?? false }
            return (source, field("time").flatMap(milliseconds))
        }

        /// "1795883691.745256" as milliseconds; nil for anything else or
        /// past the year 9999.
        static func milliseconds(_ s: Substring) -> Int64? {
            let parts = s.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, whole.count <= 12,
                  whole.allSatisfy({ $0.isASCII && $0.isNumber }), let seconds = Int64(whole) else { return nil }
            var ms = seconds * 1000
            if parts.count == 2 {
                let frac = parts[1]
                guard frac.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
                var f: Int64 = 0
                for (i, ch) in frac.prefix(3).enumerated() { f += Int64(ch.wholeNumberValue ?? 0) * [100, 10, 1][i] }
                ms += f
            }
            return ms <= 253_402_300_799_999 ? ms : nil
        }
    }

    /// The rule that counts: an unlock is counted when the screen goes from
    /// locked (or not yet known) to unlocked. Several sources speak of the
    /// same unlock — GNOME's shield and logind's hint, KDE on two object
    /// paths — so once unlocked, more "unlocked" is the same unlock until a
    /// lock is heard again.
    public struct LockTracker: Equatable, Sendable {
        /// nil until the first signal: watch may start with the screen locked.
        public var locked: Bool?
        public init() {}

        /// Whether `signal` is an unlock to count.
        public mutating func heard(_ signal: LockSignal) -> Bool {
            defer { locked = signal.locked }
            return !signal.locked && locked != false
        }
    }
}

extension UInt8 {
    var isASCIIAlnum: Bool {
        (self >= 0x30 && self <= 0x39) || (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A)
    }
}
