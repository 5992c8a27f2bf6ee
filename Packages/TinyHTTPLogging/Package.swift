// swift-tools-version: 6.0
// Standalone manifest: `swift test --package-path Packages/TinyHTTPLogging` builds and tests this package alone.
// The root Package.swift declares the same module by path, behind its `Logging` trait, so that only apps that enable
// the trait resolve swift-log (see README.md, "Install"; ARCHITECTURE.md, "Two manifests, one source tree").
// A package of its own because it depends on swift-log, which TinyHTTPTransport (Foundation only) must not.
import PackageDescription

// Warnings are errors for our own modules (allowed here because this manifest is only ever used by path).
// `Logging` is the condition the root's trait of that name sets: here swift-log is always there.
let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"), .define("Logging"), .unsafeFlags(["-warnings-as-errors"]),
]

let package = Package(
    name: "TinyHTTPLogging",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9)],
    products: [.library(name: "TinyHTTPLogging", targets: ["TinyHTTPLogging"])],
    dependencies: [
        .package(path: "../TinyHTTPTransport"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "TinyHTTPLogging",
            dependencies: [
                .product(name: "TinyHTTPTransport", package: "TinyHTTPTransport"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: settings),
        .testTarget(
            name: "TinyHTTPLoggingTests",
            dependencies: [
                "TinyHTTPLogging",
                .product(name: "TinyHTTPTransport", package: "TinyHTTPTransport"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: settings),
    ]
)
