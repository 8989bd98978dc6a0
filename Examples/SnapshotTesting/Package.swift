// swift-tools-version: 6.0
// A package of its own that uses Lamina the way an app's test suite would: by path, with
// `assertSnapshot` from RenderTesting in XCTest and Swift Testing tests.
import PackageDescription

let package = Package(
    name: "SnapshotTestingExample",
    dependencies: [.package(name: "Lamina", path: "../..")],
    targets: [
        // The code under test: a title card built from layers, as an app would build it.
        .target(name: "TitleCard", dependencies: [.product(name: "Lamina", package: "Lamina")]),
        .testTarget(name: "TitleCardSnapshotTests",
                    dependencies: ["TitleCard", .product(name: "RenderTesting", package: "Lamina")],
                    exclude: ["__Snapshots__"]),
    ],
    swiftLanguageModes: [.v6]
)
