// swift-tools-version: 6.0
// Standalone manifest: `swift test --package-path Packages/TinyEndpoint` builds and tests this package alone.
// The root Package.swift declares the same module by path (see ARCHITECTURE.md, "Two manifests, one source tree").
import PackageDescription

// Warnings are errors for our own modules (allowed here because this manifest is only ever used by path).
let settings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny"), .unsafeFlags(["-warnings-as-errors"])]

let package = Package(
    name: "TinyEndpoint",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9)],
    products: [.library(name: "TinyEndpoint", targets: ["TinyEndpoint"])],
    dependencies: [.package(path: "../TinyHTTPTransport")],
    targets: [
        .target(
            name: "TinyEndpoint", dependencies: [.product(name: "TinyHTTPTransport", package: "TinyHTTPTransport")],
            swiftSettings: settings),
        .testTarget(name: "TinyEndpointTests", dependencies: ["TinyEndpoint"], swiftSettings: settings),
    ]
)
