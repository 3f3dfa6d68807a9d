import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What some tests need beyond the Swift toolchain, in one table.
///
/// A test that needs one calls `try require(.mandoc)` first. Where it is
/// missing the test is skipped with one line naming it and the Debian
/// package that provides it — unless `CI` is set (`.ci/run` sets it), where
/// a missing need fails the test: CI checks everything, never less. No test
/// skips any other way (a test in ToolTests scans the sources for that), so
/// this table is the whole list of what a fresh machine skips, and README.md
/// names the same list.
public enum Requirement: String, CaseIterable, Sendable {
    case mandoc, zsh, fish, shellcheck, jq
    /// make, which runs the Makefile's install.
    case make
    /// getfacl, to read back the ACLs the tools set.
    case acl
    /// inotifywait: what a login watching a shared folder sees.
    case inotifywait
    /// python3 with these modules: the iCalendar oracles.
    case icalendar, dateutil
    /// python3's recurring_ical_events: the expansion oracle for whole calendars.
    case recurringIcalEvents = "recurring_ical_events"
    /// Taskwarrior's `task`, which must accept yomo's export.
    case taskwarrior
    /// Syncthing, which keeps playa's sync folder in step between two devices.
    case syncthing
    /// remind, which nudge-bench times yomo against.
    case remind
    /// A CalDAV server, the sync engine and a task client: yomo's vdir against the real parts.
    case radicale, vdirsyncer, todoman
    /// python3, whose mailbox module writes the mbox and Maildir playa's contacted --mail reads.
    case python3
    /// khard, the address book whose vCards (3.0 and 4.0) playa's recipient import reads.
    case khard
    /// A real message bus, its monitor and senders: tenclub watch against
    /// the signals GNOME, KDE and logind send (python3's dbus owns logind's name).
    case dbusDaemon = "dbus-daemon", dbusMonitor = "dbus-monitor", gdbus
    case pythonDbus = "dbus"
    /// curl, the HTTP client of the README's Twilio line (run against a local stand-in).
    case curl
    /// gammu, whose dummy phone (a folder) stands for a GSM modem: tenclub's texts through a real SMS stack.
    case gammu
    /// gammu-smsd, the daemon that sends from its outbox and runs RunOnReceive, and gammu-smsd-inject, which fills the outbox.
    case gammuSmsd = "gammu-smsd"
    /// util-linux's script, a pseudo-terminal: the progress meter as a person at a terminal sees it.
    case script
    /// What ActivityWatch's aw-server and aw-client import (their own
    /// sources are kept in Tests/Vendor/activitywatch): rewards' ingest
    /// against the real server on loopback.
    case activityWatch = "aw-server"
    /// OpenSSH's ssh-keygen, which signs and verifies batches in a signed folder (-Y sign, -Y verify).
    case sshKeygen = "ssh-keygen"
    /// Running as root, with useradd, setpriv and mount: real logins and small file systems.
    case root

    /// The python3 modules `activityWatch` stands for.
    public static let activityWatchModules = ["flask", "flask_cors", "werkzeug", "peewee", "iso8601", "jsonschema", "tomlkit", "deprecation",
                                              "platformdirs", "aniso8601", "pytz", "requests", "click", "persistqueue", "tabulate", "typing_extensions"]

    /// What is missing, as the skip line names it.
    public var what: String {
        switch self {
        case .acl: return "getfacl"
        case .icalendar, .dateutil, .recurringIcalEvents, .pythonDbus: return "python3 module \(rawValue)"
        case .taskwarrior: return "task (Taskwarrior)"
        case .activityWatch: return "python3 modules for aw-server and aw-client (\(Requirement.activityWatchModules.joined(separator: ", ")))"
        case .root: return "root (real logins through useradd and setpriv, tmpfs mounts)"
        default: return rawValue
        }
    }

    /// The Debian package that provides it (or what to do).
    public var package: String {
        switch self {
        case .icalendar: return "python3-icalendar"
        case .dateutil: return "python3-dateutil"
        case .recurringIcalEvents: return "python3-recurring-ical-events"
        case .dbusMonitor: return "dbus-bin"
        case .gdbus: return "libglib2.0-bin"
        case .pythonDbus: return "python3-dbus"
        case .script: return "bsdutils"
        case .inotifywait: return "inotify-tools"
        case .sshKeygen: return "openssh-client"
        case .activityWatch: return packageList.joined(separator: ", ")
        case .root: return "run the suite as root, as CI does"
        default: return rawValue
        }
    }

    /// The Debian packages it takes, one by one.
    public var packageList: [String] {
        switch self {
        case .activityWatch:
            return ["python3-flask", "python3-flask-cors", "python3-peewee", "python3-iso8601", "python3-jsonschema", "python3-tomlkit",
                    "python3-deprecation", "python3-platformdirs", "python3-aniso8601", "python3-tz", "python3-requests", "python3-click",
                    "python3-persist-queue", "python3-tabulate", "python3-typing-extensions"]
        default: return [package]
        }
    }

    /// The Debian packages the full suite needs, as README.md lists them.
    public static var packages: [String] { allCases.filter { $0 != .root }.flatMap(\.packageList) }

    /// The commands a need is made of (looked up in the search folders).
    var commands: [String] {
        switch self {
        case .acl: return ["getfacl"]
        case .icalendar, .dateutil, .recurringIcalEvents, .pythonDbus, .activityWatch: return ["python3"]
        case .dbusMonitor: return ["dbus-monitor", "dbus-send"]
        case .taskwarrior: return ["task"]
        case .gammuSmsd: return ["gammu-smsd", "gammu-smsd-inject"]
        case .root: return ["useradd", "userdel", "groupadd", "groupdel", "setpriv", "mount", "umount"]
        default: return [rawValue]
        }
    }
}

/// Where a machine keeps its commands, and who runs the tests: the facts
/// `Requirements.missing` decides from.
public struct Machine: Sendable {
    /// Folders searched for commands, in order.
    public var search: [String]
    public var isRoot: Bool

    /// This machine: PATH, then the usual system folders (cron's and
    /// sudo's PATH may lack /usr/sbin, where useradd lives).
    public static var current: Machine {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        var search: [String] = []
        for d in path + ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"] where !search.contains(d) {
            search.append(d)
        }
        return Machine(search: search, isRoot: getuid() == 0)
    }

    public init(search: [String], isRoot: Bool) {
        self.search = search
        self.isRoot = isRoot
    }

    /// The first executable `name` in the search folders.
    public func find(_ name: String) -> String? {
        search.lazy.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Every executable `name` in the search folders, in order, without repeats.
    func all(_ name: String) -> [String] {
        var seen: [String] = []
        for d in search {
            let p = d + "/" + name
            guard FileManager.default.isExecutableFile(atPath: p) else { continue }
            let real = URL(fileURLWithPath: p).resolvingSymlinksInPath().path
            if !seen.contains(real) { seen.append(real) }
        }
        return seen
    }

    /// The first python3 that imports every module named.
    public func python(importing modules: [String]) -> String? {
        let script = modules.map { "import \($0)" }.joined(separator: "; ")
        return all("python3").first { runProgram($0, ["-c", script], timeout: 60).status == 0 }
    }

    /// Whether `need` is met here.
    public func has(_ need: Requirement) -> Bool {
        switch need {
        case .icalendar, .dateutil, .recurringIcalEvents, .pythonDbus: return python(importing: [need.rawValue]) != nil
        case .activityWatch: return python(importing: Requirement.activityWatchModules) != nil
        case .root: return isRoot && need.commands.allSatisfy { find($0) != nil }
        default: return need.commands.allSatisfy { find($0) != nil }
        }
    }

    /// What this machine lacks, in the table's order.
    public func missing() -> [Requirement] { Requirement.allCases.filter { !has($0) } }
}

public enum Requirements {
    /// Whether this run is CI's, where nothing may be skipped.
    public static var isCI: Bool {
        let v = (ProcessInfo.processInfo.environment["CI"] ?? "").lowercased()
        return !v.isEmpty && v != "0" && v != "false"
    }

    /// What this machine has, found once per test run.
    static let met: [Requirement: Bool] = {
        let m = Machine.current
        return Dictionary(uniqueKeysWithValues: Requirement.allCases.map { ($0, m.has($0)) })
    }()

    /// The python3 that has both iCalendar modules.
    public static let python: String? = Machine.current.python(importing: ["icalendar", "dateutil"])

    /// The one line a missing need is reported with.
    public static func message(_ missing: [Requirement], ci: Bool) -> String {
        let names = missing.map(\.what).joined(separator: ", ")
        let fix = missing.map(\.package).joined(separator: ", ")
        return ci ? "CI is set and \(names) is missing (\(fix)): .ci/run installs it, and CI skips nothing"
                  : "needs \(names), not found here (\(fix); .ci/run installs it)"
    }

    /// What a test that needs `needs` meets: nothing (it runs), a skip, or,
    /// under CI, a failure.
    public static func verdict(_ needs: [Requirement], met: (Requirement) -> Bool, ci: Bool,
                               file: StaticString = #filePath, line: UInt = #line) -> (any Error)? {
        let missing = needs.filter { !met($0) }
        guard !missing.isEmpty else { return nil }
        if ci { return MissingRequirement(description: message(missing, ci: true)) }
        return XCTSkip(message(missing, ci: false), file: file, line: line)
    }
}

/// The error that fails a test under CI where it would be skipped elsewhere.
public struct MissingRequirement: Error, CustomStringConvertible {
    public var description: String
}

/// Skips the calling test where something it needs is missing, naming it and
/// its package; fails it instead when `CI` is set.
public func require(_ needs: Requirement..., file: StaticString = #filePath, line: UInt = #line) throws {
    if let e = Requirements.verdict(needs, met: { Requirements.met[$0] == true }, ci: Requirements.isCI, file: file, line: line) {
        throw e
    }
}

/// The path of a required command (after `require`).
public func command(_ name: String) -> String {
    Machine.current.find(name) ?? name
}
