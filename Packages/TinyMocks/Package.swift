// swift-tools-version: 6.0
// Standalone manifest: `swift test --package-path Packages/TinyMocks` builds and tests this package alone.
// The root Package.swift declares the same module by path (see ARCHITECTURE.md, "Two manifests, one source tree").
import PackageDescription

// Warnings are errors for our own modules (allowed here because this manifest is only ever used by path).
let settings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny"), .unsafeFlags(["-warnings-as-errors"])]

let package = Package(
    name: "TinyMocks",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9)],
    products: [.library(name: "TinyMocks", targets: ["TinyMocks"])],
    dependencies: [.package(path: "../TinyHTTPTransport"), .package(path: "../TinyEndpoint")],
    targets: [
        .target(
            name: "TinyMocks",
            dependencies: [
                .product(name: "TinyHTTPTransport", package: "TinyHTTPTransport"),
                .product(name: "TinyEndpoint", package: "TinyEndpoint"),
            ],
            swiftSettings: settings),
        .testTarget(
            name: "TinyMocksTests", dependencies: ["TinyMocks"], resources: [.copy("Fixtures")],
            swiftSettings: settings),
    ]
)
