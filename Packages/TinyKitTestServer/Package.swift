// swift-tools-version: 6.0
// Test support, not a TinyKit product: the in-process HTTP server of the integration tests and the transport
// behaviour suite every `HTTPTransport` runs (`TransportBehaviour.cases`). Test targets depend on it by path
// (`swift build --package-path Packages/TinyKitTestServer` builds it alone); the root Package.swift declares the same
// module by path for its own test targets and never exports it as a product, so no consumer resolves FlyingFox.
import PackageDescription

// Warnings are errors for our own modules (allowed here because this manifest is only ever used by path).
let settings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny"), .unsafeFlags(["-warnings-as-errors"])]

let package = Package(
    name: "TinyKitTestServer",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9)],
    products: [.library(name: "TinyKitTestServer", targets: ["TinyKitTestServer"])],
    dependencies: [
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        .package(path: "../TinyHTTPTransport"),
    ],
    targets: [
        .target(
            name: "TinyKitTestServer",
            dependencies: [
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
                .product(name: "TinyHTTPTransport", package: "TinyHTTPTransport"),
            ],
            swiftSettings: settings),
        .testTarget(
            name: "TinyKitTestServerTests",
            dependencies: ["TinyKitTestServer", .product(name: "TinyHTTPTransport", package: "TinyHTTPTransport")],
            path: "Tests/TinyKitTestServerTests", swiftSettings: settings),
    ]
)
