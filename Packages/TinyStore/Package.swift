// swift-tools-version: 6.0
// Standalone manifest: `swift test --package-path Packages/TinyStore` builds and tests this package alone.
// The root Package.swift declares the same module by path (see ARCHITECTURE.md, "Two manifests, one source tree").
import PackageDescription

// Warnings are errors for our own modules (allowed here because this manifest is only ever used by path).
let settings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny"), .unsafeFlags(["-warnings-as-errors"])]

let package = Package(
    name: "TinyStore",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "TinyStore", targets: ["TinyStore"]),
        .library(name: "TinyStoreTesting", targets: ["TinyStoreTesting"]),
    ],
    // Test-only: the tests run tinyAPI's UserListFeature, whose state holds a RequestState.
    dependencies: [.package(path: "../TinyRequestState")],
    targets: [
        .target(name: "TinyStore", swiftSettings: settings),
        .target(name: "TinyStoreTesting", dependencies: ["TinyStore"], swiftSettings: settings),
        .testTarget(
            name: "TinyStoreTests",
            dependencies: [
                "TinyStore", "TinyStoreTesting", .product(name: "TinyRequestState", package: "TinyRequestState"),
            ],
            swiftSettings: settings),
    ]
)
