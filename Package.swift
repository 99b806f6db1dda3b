// swift-tools-version: 6.1
// Parallax: ARKit and SceneKit's model for headless Linux.
//
// Modules depend one way only; A ← B means B uses A (the full graph and who does what: docs/architecture.md):
//   estimation: ParallaxMath ← ParallaxImaging ← ParallaxDatasets ← ParallaxVision ← ParallaxTracking ← ParallaxAR
//   rendering:  ParallaxMath ← ParallaxSceneGraph ← ParallaxRendering (+ ParallaxShaders) ← ParallaxSimulation
//   AR view:    ParallaxAR, ParallaxRendering ← ParallaxARView
//   scoring:    every module above ← ParallaxEvaluation (ATE/RPE, front-end, plane and light scores,
//               benchmarks); no product module depends on it. ParallaxCLI sits on top of all.
// `import Parallax` (the umbrella target) re-exports the everyday modules; every target declares
// each module it imports.
// C libraries enter only through the small system-library targets CPNG (behind the CPNGSupport
// wrapper), CEGL, COpenGL and CGLFW, and for recordings (ParallaxRecordings: ParallaxDatasets ←
// ParallaxRecordings) CBZip2, CLZ4, CZstd, CZlib and CTurboJPEG.
import PackageDescription

let package = Package(
    name: "Parallax",
    products: [
        .executable(name: "parallax", targets: ["ParallaxCLI"]),
        .library(name: "ParallaxMath", targets: ["ParallaxMath"]),
        .library(name: "ParallaxImaging", targets: ["ParallaxImaging"]),
        .library(name: "ParallaxDatasets", targets: ["ParallaxDatasets"]),
        .library(name: "ParallaxSceneGraph", targets: ["ParallaxSceneGraph"]),
        .library(name: "ParallaxRendering", targets: ["ParallaxRendering"]),
        .library(name: "ParallaxEvaluation", targets: ["ParallaxEvaluation"]),
        // The everyday API in one import (`import Parallax`): session, configurations, anchors,
        // sensor sources, tracking, scene graph and renderer. The modules stay importable one by one.
        .library(name: "Parallax", targets: ["Parallax"]),
        .library(name: "ParallaxVision", targets: ["ParallaxVision"]),
        .library(name: "ParallaxTracking", targets: ["ParallaxTracking"]),
        .library(name: "ParallaxAR", targets: ["ParallaxAR"]),
        .library(name: "ParallaxARView", targets: ["ParallaxARView"]),
        .library(name: "ParallaxSimulation", targets: ["ParallaxSimulation"]),
        .library(name: "ParallaxMapping", targets: ["ParallaxMapping"]),
        .library(name: "ParallaxRecordings", targets: ["ParallaxRecordings"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
    ],
    targets: [
        // MARK: System libraries (the only places that see C headers)
        .systemLibrary(
            name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CEGL", path: "Sources/CEGL", pkgConfig: "egl",
            providers: [.apt(["libegl-dev", "libegl-mesa0"])]),
        .systemLibrary(
            name: "COpenGL", path: "Sources/COpenGL", pkgConfig: "opengl",
            providers: [.apt(["libgl-dev", "libgl1-mesa-dri"])]),
        .systemLibrary(
            name: "CGLFW", path: "Sources/CGLFW", pkgConfig: "glfw3",
            providers: [.apt(["libglfw3-dev"])]),
        // Recorded formats (ROS 1 bags, MCAP): chunk decompression, checksums and JPEG images.
        .systemLibrary(name: "CBZip2", path: "Sources/CBZip2", providers: [.apt(["libbz2-dev"])]),
        .systemLibrary(
            name: "CLZ4", path: "Sources/CLZ4", pkgConfig: "liblz4", providers: [.apt(["liblz4-dev"])]),
        .systemLibrary(
            name: "CZstd", path: "Sources/CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),

        // MARK: Estimation stack
        .target(name: "ParallaxMath"),
        // CPNGSupport: setjmp wall around libpng so decode errors never longjmp through Swift,
        // plus a direct zlib decoding path for common layouts.
        .target(
            name: "CPNGSupport", dependencies: ["CPNG"],
            // zlib: the direct decoding path inflates IDAT data itself.
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]),
        .target(name: "ParallaxImaging", dependencies: ["ParallaxMath", "CPNG", "CPNGSupport"]),
        .target(
            name: "ParallaxDatasets",
            dependencies: ["ParallaxMath", "ParallaxImaging", .product(name: "Yams", package: "Yams")]),

        // ROS 1 bags and MCAP files: reading, writing, message definitions, sensor message decoding.
        .target(
            name: "ParallaxRecordings",
            dependencies: [
                "ParallaxMath", "ParallaxImaging", "ParallaxDatasets", "CBZip2", "CLZ4", "CZstd", "CZlib", "CTurboJPEG",
            ]),

        .target(name: "ParallaxVision", dependencies: ["ParallaxMath", "ParallaxImaging", "ParallaxDatasets"]),
        .target(name: "ParallaxTracking", dependencies: ["ParallaxMath", "ParallaxImaging", "ParallaxDatasets", "ParallaxVision"]),

        // World maps: keyframes, binary descriptors, relocalization (docs/world-maps.md).
        .target(
            name: "ParallaxMapping",
            dependencies: ["ParallaxMath", "ParallaxImaging", "ParallaxDatasets", "ParallaxVision", "ParallaxTracking"],
            // The shipped place-recognition vocabulary (Vocabulary.standard; remade by scripts/make-vocabulary.sh).
            resources: [.copy("Resources/default.voc")]),
        .target(
            name: "ParallaxAR",
            dependencies: [
                "ParallaxMath", "ParallaxImaging", "ParallaxDatasets", "ParallaxVision", "ParallaxTracking", "ParallaxMapping",
            ]),

        // MARK: Rendering stack
        .target(name: "ParallaxSceneGraph", dependencies: ["ParallaxMath", "ParallaxImaging"]),
        .target(name: "ParallaxShaders", path: "Shaders", exclude: ["README.md"], resources: [.copy("glsl")]),
        .target(
            name: "ParallaxRendering",
            dependencies: ["ParallaxMath", "ParallaxSceneGraph", "ParallaxImaging", "ParallaxShaders", "CEGL", "COpenGL", "CGLFW"]),

        .target(
            name: "ParallaxSimulation",
            dependencies: ["ParallaxMath", "ParallaxImaging", "ParallaxDatasets", "ParallaxSceneGraph", "ParallaxRendering"]),

        .target(
            name: "ParallaxARView",
            dependencies: [
                "ParallaxMath", "ParallaxImaging", "ParallaxDatasets", "ParallaxVision", "ParallaxAR",
                "ParallaxSceneGraph", "ParallaxRendering",
            ]),

        // MARK: Umbrella (re-exports only; see Sources/Parallax/Parallax.swift)
        .target(
            name: "Parallax",
            dependencies: [
                "ParallaxMath", "ParallaxImaging", "ParallaxDatasets", "ParallaxTracking", "ParallaxAR",
                "ParallaxSceneGraph", "ParallaxRendering", "ParallaxARView",
            ]),

        // MARK: Scoring and benchmarks (kept out of the product modules, like OpenVINS's ov_eval)
        .target(
            name: "ParallaxEvaluation",
            dependencies: [
                "ParallaxMath", "ParallaxImaging", "ParallaxDatasets", "ParallaxVision", "ParallaxTracking",
                "ParallaxAR", "ParallaxARView", "ParallaxSceneGraph", "ParallaxRendering", "ParallaxSimulation", "ParallaxMapping",
            ]),

        // MARK: Command line
        .executableTarget(
            name: "ParallaxCLI",
            dependencies: [
                "ParallaxMath", "ParallaxImaging", "ParallaxDatasets", "ParallaxVision", "ParallaxTracking",
                "ParallaxSceneGraph", "ParallaxRendering", "ParallaxSimulation",
                "ParallaxAR", "ParallaxARView", "ParallaxEvaluation", "ParallaxMapping", "ParallaxRecordings",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // MARK: Tests
        .testTarget(name: "ParallaxMathTests", dependencies: ["ParallaxMath"]),
        .testTarget(name: "ParallaxImagingTests", dependencies: ["ParallaxImaging", "ParallaxMath"]),
        .testTarget(name: "ParallaxDatasetsTests", dependencies: ["ParallaxDatasets", "ParallaxImaging", "ParallaxMath"]),
        .testTarget(name: "ParallaxVisionTests", dependencies: ["ParallaxVision", "ParallaxDatasets", "ParallaxMath"]),
        .testTarget(
            name: "ParallaxTrackingTests",
            dependencies: [
                "ParallaxTracking", "ParallaxDatasets", "ParallaxSimulation", "ParallaxSceneGraph", "ParallaxEvaluation",
                "ParallaxMath", "ParallaxImaging", "ParallaxVision",
            ]),
        // AR tests score plane detection with the evaluation module's truth reader and evaluator.
        .testTarget(
            name: "ParallaxARTests",
            dependencies: [
                "ParallaxAR", "ParallaxEvaluation", "ParallaxDatasets", "ParallaxImaging", "ParallaxMath", "ParallaxTracking",
            ]),
        .testTarget(
            name: "ParallaxARViewTests",
            dependencies: [
                "ParallaxARView", "ParallaxEvaluation", "ParallaxAR", "ParallaxImaging", "ParallaxMath", "ParallaxRendering",
                "ParallaxSceneGraph", "ParallaxVision",
            ]),
        .testTarget(
            name: "ParallaxMappingTests",
            dependencies: [
                "ParallaxMapping", "ParallaxAR", "ParallaxTracking", "ParallaxVision", "ParallaxDatasets", "ParallaxSimulation",
                "ParallaxEvaluation",
                "ParallaxSceneGraph", "ParallaxImaging", "ParallaxMath",
            ]),
        .testTarget(name: "ParallaxSceneGraphTests", dependencies: ["ParallaxSceneGraph", "ParallaxMath"]),
        .testTarget(
            name: "ParallaxRenderingTests",
            dependencies: ["ParallaxRendering", "ParallaxImaging", "ParallaxMath", "ParallaxSceneGraph"], exclude: ["Golden"]),
        .testTarget(
            name: "ParallaxSimulationTests",
            dependencies: [
                "ParallaxSimulation", "ParallaxDatasets", "ParallaxImaging", "ParallaxMath", "ParallaxRendering",
                "ParallaxSceneGraph",
            ]),
        .testTarget(
            name: "ParallaxEvaluationTests",
            dependencies: [
                "ParallaxEvaluation", "ParallaxAR", "ParallaxDatasets", "ParallaxImaging", "ParallaxMath",
                "ParallaxSceneGraph", "ParallaxSimulation",
            ],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "ParallaxCLITests",
            dependencies: [
                "ParallaxCLI", "ParallaxImaging", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(
            name: "ParallaxRecordingsTests", dependencies: ["ParallaxRecordings", "ParallaxDatasets", "ParallaxImaging"],
            resources: [.copy("Fixtures")]),
    ]
)
