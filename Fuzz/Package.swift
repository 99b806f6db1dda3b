// swift-tools-version: 6.1
// libFuzzer targets for Parallax's parsers (issue 13). A separate package so that the fuzzer and
// sanitizer flags never touch the main build: scripts/fuzz.sh builds it with
//   swift build -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
// Each executable is one target: its `<Module>_main` (the entry point SwiftPM links) hands the
// arguments to libFuzzer's driver with the target's `LLVMFuzzerTestOneInput`.
// Seed corpora live in Corpus/<target>/ (see README.md).
import PackageDescription

let parallax: [Target.Dependency] = [
    .product(name: "ParallaxMath", package: "Parallax"),
    .product(name: "ParallaxImaging", package: "Parallax"),
    .product(name: "ParallaxDatasets", package: "Parallax"),
    .product(name: "ParallaxSceneGraph", package: "Parallax"),
    .product(name: "ParallaxMapping", package: "Parallax"),
    .product(name: "ParallaxRecordings", package: "Parallax"),
]

/// One fuzz executable per parser, each with the shared helpers.
func fuzzTarget(_ name: String) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzSupport", "CFuzzDriver"] + parallax)
}

let package = Package(
    name: "ParallaxFuzz",
    dependencies: [.package(name: "Parallax", path: "..")],
    targets: [
        .target(name: "FuzzSupport"),
        .target(name: "CFuzzDriver"),
        fuzzTarget("FuzzCSV"),
        fuzzTarget("FuzzYAML"),
        fuzzTarget("FuzzPNG"),
        fuzzTarget("FuzzScene"),
        fuzzTarget("FuzzGLTF"),
        fuzzTarget("FuzzOBJ"),
        fuzzTarget("FuzzTrajectory"),
        fuzzTarget("FuzzMap"),
        fuzzTarget("FuzzRecording"),
        fuzzTarget("FuzzVocabulary"),
    ]
)
