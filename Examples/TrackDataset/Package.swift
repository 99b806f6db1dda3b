// swift-tools-version: 6.1
// An example that depends on Parallax by path (see ../README.md).
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, which depends on where Parallax is checked out.
let parallaxFolder = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "TrackDataset",
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(name: "TrackDataset", dependencies: [.product(name: "Parallax", package: parallaxFolder)]),
    ]
)
