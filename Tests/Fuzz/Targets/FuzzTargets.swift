// The fuzz targets: one function per parser that takes bytes from a file,
// a peer, a pipe or a person. Each takes whatever bytes libFuzzer (or a
// replayed fixture) gives it and throws only on a broken invariant checked
// here: two readers of the same bytes that must agree, a value written and
// read back, occurrences that must move forward. A parser's own error is an
// answer, not a failure; a crash is a failure wherever it happens.
//
// Run by the fuzzer package beside this one (Tests/Fuzz/Package.swift,
// `.ci/fuzz`), and replayed by FuzzCorpusTests over Tests/Fuzz/corpus, which
// holds each target's seeds and every input a fuzzer has found to fail.
import NudgeKit

/// A broken invariant, with what broke.
public struct FuzzFailure: Error, CustomStringConvertible {
    public var description: String
    init(_ what: String) { description = what }
}

public typealias FuzzTarget = @Sendable (UnsafeRawBufferPointer) throws(FuzzFailure) -> Void

public enum FuzzTargets {
    /// Every target by name, as `nudge-fuzz TARGET` and the corpus folders name them.
    public static let all: [(name: String, run: FuzzTarget)] = [
        ("json", FuzzJSON.parse),
        ("json-scan", FuzzJSON.scan),
        ("ndjson", FuzzJSON.lines),
        ("activitywatch", FuzzRewards.activityWatch),
        ("ics", FuzzYomo.ics),
        ("rrule", FuzzYomo.rrule),
        ("phrase", FuzzYomo.phrase),
        ("phone", FuzzMessages.phone),
        ("vcard", FuzzMessages.vcard),
        ("mail-headers", FuzzMessages.mailHeaders),
        ("peer-events", FuzzPeers.events),
        ("zone", FuzzTime.zone),
        ("http", FuzzNet.http),
    ]

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name }?.run }

    /// The zone the targets read in (America/New_York when the system has
    /// it: a zone with daylight-saving changes).
    static let zone: Zone = (try? Zone.named("America/New_York")) ?? .utc
    /// Saturday 2026-11-28 10:00 in New York.
    static let now = Instant(ms: 1_795_878_000_000)

    static func text(_ data: UnsafeRawBufferPointer) -> String { String(decoding: data, as: UTF8.self) }
}
