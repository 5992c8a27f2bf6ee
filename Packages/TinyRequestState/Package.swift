// swift-tools-version: 6.0
// Standalone manifest: `swift test --package-path Packages/TinyRequestState` builds and tests this package alone.
// The root Package.swift declares the same module by path (see ARCHITECTURE.md, "Two manifests, one source tree").
import PackageDescription

// Warnings are errors for our own modules (allowed here because this manifest is only ever used by path).
let settings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny"), .unsafeFlags(["-warnings-as-errors"])]

let package = Package(
    name: "TinyRequestState",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9)],
    products: [.library(name: "TinyRequestState", targets: ["TinyRequestState"])],
    targets: [
        .target(name: "TinyRequestState", swiftSettings: settings),
        .testTarget(name: "TinyRequestStateTests", dependencies: ["TinyRequestState"], swiftSettings: settings),
    ]
)
