// swift-tools-version:6.0
import PackageDescription

// One domain library (NudgeKit) shared by five small executables.
// No package dependencies: the Swift toolchain and the C library only.
// Start-up is a measured goal (a status bar runs these every few seconds):
// concrete generic types are reached through their metadata accessors, not
// by a mangled name the runtime demangles and checks against every
// conformance record on first use (callgrind, `tenclub status`: 6.39 M
// instructions -> 5.65 M; the minimal program below is built the same way).
let fast: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])]

// The tools as built for use (release) carry the Swift runtime in them:
// no dynamic loading and binding of libswiftCore and its companions at
// every start (a Swift program that does nothing: 3.9 ms -> 1.6 ms on the
// development machine), and nothing to find in the toolchain's folder at
// run time. Debug builds, which the tests link the tools into, keep the
// shared runtime (XCTest has no static one).
// On Linux the C++ runtime under it is linked in too: `-lstdc++` finds
// Sources/link/libstdc++.so first, a linker script naming the static
// archive: the tools then load only the C library, and the dynamic
// loader's relocating and binding of libstdc++.so is gone (callgrind,
// `rewards enforce` on 500 processes: 5.31 M -> 3.66 M instructions, 377 ->
// 344 page faults).
// The driver links a program with the runtime in it with -export-dynamic
// (so a crash report can name the runtime's functions), which put every
// public symbol of NudgeKit, about 5,000, into the dynamic symbol table;
// the runtime's start-up looks its own path up with dladdr, which walks
// that table: 180,000 instructions of every run (callgrind, `tenclub
// status`: 1.55 M -> 1.36 M). Nothing loads the tools as a library.
// Position-independent they stay: a fixed address would save the loader's
// relocating (0.2 ms a run here) but give up address randomization for
// programs that read what peers write.
let here = String(#filePath.dropLast("Package.swift".count))
let staticStdlib: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib", "-Xlinker", "--no-export-dynamic"], .when(configuration: .release)),
    .unsafeFlags(["-L", here + "Sources/link"], .when(platforms: [.linux], configuration: .release)),
]

// Debug builds (the tests, and each mutant .ci/mutate builds) link with
// the toolchain's lld: a mutant's build 9.4 s -> 6.6 s here, most of it
// the seven 20-50 MB debug binaries' links. Release keeps the default.
let debugLinker: [LinkerSetting] = [.unsafeFlags(["-use-ld=lld"], .when(platforms: [.linux], configuration: .debug))]

let package = Package(
    name: "nudge-tools",
    products: [
        .library(name: "NudgeKit", targets: ["NudgeKit"]),
        .executable(name: "tenclub", targets: ["tenclub"]),
        .executable(name: "yomo", targets: ["yomo"]),
        .executable(name: "rewards", targets: ["rewards"]),
        .executable(name: "playa", targets: ["playa"]),
        .executable(name: "habitmatch", targets: ["habitmatch"]),
        .executable(name: "nudge-bench", targets: ["nudge-bench"]),
        // For the fuzzer package (Tests/Fuzz), which builds it with libFuzzer.
        .library(name: "NudgeFuzzTargets", targets: ["NudgeFuzzTargets"]),
    ],
    targets: [
        .target(name: "NudgeKit", swiftSettings: fast, linkerSettings: debugLinker),
        .executableTarget(name: "tenclub", dependencies: ["NudgeKit"], swiftSettings: fast, linkerSettings: staticStdlib),
        .executableTarget(name: "yomo", dependencies: ["NudgeKit"], swiftSettings: fast, linkerSettings: staticStdlib),
        .executableTarget(name: "rewards", dependencies: ["NudgeKit"], swiftSettings: fast, linkerSettings: staticStdlib),
        .executableTarget(name: "playa", dependencies: ["NudgeKit"], swiftSettings: fast, linkerSettings: staticStdlib),
        .executableTarget(name: "habitmatch", dependencies: ["NudgeKit"], swiftSettings: fast, linkerSettings: staticStdlib),
        // The yardstick for start-up time: a Swift program that does nothing.
        .executableTarget(name: "minimal", swiftSettings: fast),
        // The same, built as the tools are (the runtime linked in): what a
        // tool's own work costs above start-up, shown beside each ratio.
        .executableTarget(name: "minimal-static", swiftSettings: fast, linkerSettings: staticStdlib),
        // Release-mode benchmarks: `swift build -c release && .build/release/nudge-bench`.
        .executableTarget(name: "nudge-bench", dependencies: ["NudgeKit"]),
        // What tests need beyond the toolchain (skip or, under CI, fail), and
        // running other programs from a test without pipes.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // The fuzz targets: run by libFuzzer in the package beside this one
        // (Tests/Fuzz, `.ci/fuzz`), replayed over their corpus by the tests.
        .target(name: "NudgeFuzzTargets", dependencies: ["NudgeKit"], path: "Tests/Fuzz/Targets"),
        .testTarget(name: "NudgeKitTests", dependencies: ["NudgeKit", "TestSupport", "NudgeFuzzTargets"], exclude: ["Rewards/Fixtures", "Yomo/Fixtures", "Tenclub/Fixtures", "Core/Messages/Fixtures"]),
        .testTarget(
            name: "ToolTests",
            dependencies: ["NudgeKit", "TestSupport", "tenclub", "yomo", "rewards", "playa", "habitmatch"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
