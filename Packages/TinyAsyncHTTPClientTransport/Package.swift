// swift-tools-version: 6.0
// Standalone manifest: `swift test --package-path Packages/TinyAsyncHTTPClientTransport` builds and tests this package
// alone. The root Package.swift declares the same module by path, behind its `AsyncHTTPClient` trait, so that only
// apps that enable the trait resolve AsyncHTTPClient and SwiftNIO (see README.md, "Install").
// A package of its own because it depends on AsyncHTTPClient, which TinyHTTPTransport (Foundation only) must not.
import PackageDescription

// Warnings are errors for our own modules (allowed here because this manifest is only ever used by path).
// `AsyncHTTPClient` is the condition the root's trait of that name sets: here the dependency is always there.
let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"), .define("AsyncHTTPClient"), .unsafeFlags(["-warnings-as-errors"]),
]

let package = Package(
    name: "TinyAsyncHTTPClientTransport",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9)],
    products: [.library(name: "TinyAsyncHTTPClientTransport", targets: ["TinyAsyncHTTPClientTransport"])],
    dependencies: [
        .package(path: "../TinyHTTPTransport"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // Test-only: the in-process server and the transport behaviour suite that URLSessionTransport passes too, and
        // the shared endpoint a server keeps over this transport (EndpointCache).
        .package(path: "../TinyKitTestServer"),
        .package(path: "../TinyEndpoint"),
        .package(path: "../TinyStatefulEndpoint"),
    ],
    targets: [
        .target(
            name: "TinyAsyncHTTPClientTransport",
            dependencies: [
                .product(name: "TinyHTTPTransport", package: "TinyHTTPTransport"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ],
            swiftSettings: settings),
        .testTarget(
            name: "TinyAsyncHTTPClientTransportTests",
            dependencies: [
                "TinyAsyncHTTPClientTransport",
                .product(name: "TinyHTTPTransport", package: "TinyHTTPTransport"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "TinyKitTestServer", package: "TinyKitTestServer"),
                .product(name: "TinyEndpoint", package: "TinyEndpoint"),
                .product(name: "TinyStatefulEndpoint", package: "TinyStatefulEndpoint"),
            ],
            swiftSettings: settings),
    ]
)
