// swift-tools-version: 6.0
// Standalone manifest: `swift test --package-path Packages/TinyHTTPTransport` builds and tests this package alone.
// The root Package.swift declares the same module by path (see ARCHITECTURE.md, "Two manifests, one source tree").
import PackageDescription

// Warnings are errors for our own modules (allowed here because this manifest is only ever used by path).
let settings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny"), .unsafeFlags(["-warnings-as-errors"])]

let package = Package(
    name: "TinyHTTPTransport",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9)],
    products: [.library(name: "TinyHTTPTransport", targets: ["TinyHTTPTransport"])],
    targets: [
        .target(name: "TinyHTTPTransport", swiftSettings: settings),
        .testTarget(name: "TinyHTTPTransportTests", dependencies: ["TinyHTTPTransport"], swiftSettings: settings),
    ]
)
