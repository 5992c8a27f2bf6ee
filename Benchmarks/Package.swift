// swift-tools-version: 6.1
// TinyKit's benchmarks: a package of their own, so that no consumer of the library products ever resolves them.
// Build: swift build -c release --package-path Benchmarks --scratch-path Benchmarks/.build
// Run everything (nginx, wrk, callgrind): scripts/bench.sh; see BENCHMARKS.md.
// Tools 6.1 for TinyKit's AsyncHTTPClient trait: the benchmark compares AsyncHTTPClientTransport with raw
// AsyncHTTPClient and raw URLSession. Building AsyncHTTPClient (SwiftNIO, swift-nio-ssl, swift-crypto…) takes minutes.
import PackageDescription

let package = Package(
    name: "TinyKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // With `name:`: a path dependency's identity would otherwise be the folder the repository was cloned into.
        .package(name: "TinyKit", path: "..", traits: ["AsyncHTTPClient"]),
        // The raw-client baseline of AsyncHTTPClientTransport (the same version TinyKit resolves).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .executableTarget(
            name: "tinykit-bench",
            dependencies: [
                .product(name: "TinyKit", package: "TinyKit"),
                .product(name: "TinyAsyncHTTPClientTransport", package: "TinyKit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            path: "Sources/tinykit-bench",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")])
    ]
)
