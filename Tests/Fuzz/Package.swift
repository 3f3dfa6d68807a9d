// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for the parsers that take bytes from a file, a peer, a
// pipe or a person. A package of its own beside the tools' (it depends on
// them by path), so that the tools' own builds never see the fuzzer's
// flags. Built and run by `.ci/fuzz`:
//
//   swift build --package-path Tests/Fuzz -c debug \
//     -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
//   .build/debug/nudge-fuzz TARGET [libFuzzer options] [corpus folders]
//
// One executable holds every target (one link instead of ten); its first
// argument names the target, the rest go to libFuzzer as they are.
let package = Package(
    name: "nudge-fuzz",
    dependencies: [.package(name: "nudge-tools", path: "../..")],
    targets: [
        // Declares libFuzzer's driver entry point (LLVMFuzzerRunDriver).
        .target(name: "FuzzDriver"),
        .executableTarget(name: "nudge-fuzz", dependencies: [
            "FuzzDriver", .product(name: "NudgeFuzzTargets", package: "nudge-tools"),
        ]),
    ],
    swiftLanguageModes: [.v5]
)
