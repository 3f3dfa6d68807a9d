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
//   desktops set as they lock and unlock (a PropertiesChanged signal on the
//   system bus, sent by org.freedesktop.login1 only: the match rule names
//   that sender, so the bus itself drops a forgery by another login).
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
        public init(_ source: LockSource, locked: Bool) {
            self.source = source
            self.locked = locked
        }
    }

    /// The match rules for dbus-monitor on the session bus: every screen
    /// saver's ActiveChanged.
    public static var sessionBusRules: [String] {
        LockSource.allCases.compactMap(\.interface).map { "type='signal',interface='\($0)',member='ActiveChanged'" }
    }

    /// The match rule for dbus-monitor on the system bus: logind's property
    /// changes of one session object, from logind alone.
    public static func systemBusRule(sessionPath: String) -> String {
        "type='signal',sender='org.freedesktop.login1',path='\(sessionPath)',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',arg0='org.freedesktop.login1.Session'"
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

    /// Reads dbus-monitor's default output one line at a time. A message is
    /// a header line (`signal time=… sender=… -> destination=… serial=…
    /// path=…; interface=…; member=…`) and its arguments on the lines under
    /// it, indented. Anything else — other messages, other signals, a
    /// signal's arguments in another shape — is passed over.
    public struct MonitorReader: Sendable {
        /// logind's object path of the session followed (nil: none).
        public var sessionPath: String?

        enum Expect: Sendable {
            case nothing
            /// ActiveChanged's one boolean.
            case active(LockSource)
            /// PropertiesChanged: the interface name first.
            case interfaceName
            /// Then the changed properties, until LockedHint's name.
            case lockedHintName
            /// And its value on the next line.
            case lockedHintValue
        }
        var expect = Expect.nothing

        public init(sessionPath: String? = nil) {
            self.sessionPath = sessionPath
        }

        /// The signal `line` completes, if any.
        public mutating func feed(_ line: Substring) -> LockSignal? {
            if line.first != " " && line.first != "\t" {
                expect = Self.header(line, sessionPath: sessionPath)
                return nil
            }
            let arg = line.drop { $0 == " " || $0 == "\t" }
            switch expect {
            case .nothing:
                return nil
            case .active(let source):
                expect = .nothing
                return Self.boolean(arg).map { LockSignal(source, locked: $0) }
            case .interfaceName:
                expect = arg == "string \"org.freedesktop.login1.Session\"" ? .lockedHintName : .nothing
                return nil
            case .lockedHintName:
                // The changed properties are a dict of name and variant; the
                // invalidated list (names only) ends the dict with "]".
                if arg == "string \"LockedHint\"" { expect = .lockedHintValue }
                else if arg == "]" { expect = .nothing }
                return nil
            case .lockedHintValue:
                expect = .lockedHintName
                guard arg.hasPrefix("variant") else { return nil }
                let value = arg.dropFirst("variant".count).drop { $0 == " " || $0 == "\t" }
                return Self.boolean(value).map { LockSignal(.logind, locked: $0) }
            }
        }

        /// `boolean true` / `boolean false`.
        static func boolean(_ s: Substring) -> Bool? {
            switch s {
            case "boolean true": return true
            case "boolean false": return false
            default: return nil
            }
        }

        /// What a header line leads to expect.
        static func header(_ line: Substring, sessionPath: String?) -> Expect {
            guard line.hasPrefix("signal ") else { return .nothing }
            // The header's fields are "name=value", split at spaces and
            // ';' (values in it have neither: paths, names, members).
            let words = line.split { $0 == " " || $0 == ";" }
            func field(_ name: String) -> Substring? {
                let key = name + "="
                return words.first { $0.hasPrefix(key) }.map { $0.dropFirst(key.count) }
            }
            guard let interface = field("interface"), let member = field("member") else { return .nothing }
            if member == "ActiveChanged" {
                return LockSource.allCases.first { $0.interface.map { $0[...] == interface } ?? false }.map { .active($0) } ?? .nothing
            }
            if member == "PropertiesChanged", interface == "org.freedesktop.DBus.Properties", let want = sessionPath,
               let path = field("path"), path == want[...] {
                return .interfaceName
            }
            return .nothing
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
