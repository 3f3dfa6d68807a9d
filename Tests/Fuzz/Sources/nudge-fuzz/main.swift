// libFuzzer's entry points for the fuzz targets (Tests/Fuzz/Targets):
//
//   nudge-fuzz TARGET [libFuzzer options] [corpus folders]
//   nudge-fuzz list                     the targets, one a line
//
// A target's broken invariant aborts with its message, so libFuzzer saves
// the input as a crash, as it does for a trap in the code under test.
import NudgeFuzzTargets
import FuzzDriver
#if canImport(Glibc)
import Glibc
#endif

nonisolated(unsafe) var selected: FuzzTarget = { _ in }

/// What libFuzzer calls with each input (its own main names it too).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    do throws(FuzzFailure) {
        try selected(UnsafeRawBufferPointer(start: data, count: size))
    } catch {
        fputs("nudge-fuzz: \(error.description)\n", stderr)
        abort()
    }
    return 0
}

@_cdecl("nudge_fuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    let name = argc > 1 ? String(cString: argv[1]!) : ""
    if name == "list" {
        for t in FuzzTargets.all { print(t.name) }
        return 0
    }
    guard let run = FuzzTargets.named(name) else {
        fputs("usage: nudge-fuzz TARGET [libFuzzer options] [corpus folders]; targets: \(FuzzTargets.all.map(\.name).joined(separator: ", "))\n", stderr)
        return 64
    }
    selected = run
    // libFuzzer sees the program's name and the arguments after the target's.
    var args: [UnsafeMutablePointer<CChar>?] = [argv[0]]
    for k in 2..<Int(max(argc, 2)) { args.append(argv[k]) }
    args.append(nil)
    var n = Int32(args.count - 1)
    return args.withUnsafeMutableBufferPointer { buf in
        var p: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buf.baseAddress
        return LLVMFuzzerRunDriver(&n, &p) { data, size in testOneInput(data, size) }
    }
}
