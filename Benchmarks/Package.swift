// swift-tools-version: 6.0
// TinyKit's benchmarks: a package of their own, so that no consumer of the library products ever resolves them.
// Build: swift build -c release --package-path Benchmarks --scratch-path Benchmarks/.build
// Run everything (nginx, wrk, callgrind): scripts/bench.sh; see BENCHMARKS.md.
import PackageDescription

let package = Package(
    name: "TinyKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // With `name:`: a path dependency's identity would otherwise be the folder the repository was cloned into.
        .package(name: "TinyKit", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "tinykit-bench",
            dependencies: [.product(name: "TinyKit", package: "TinyKit")],
            path: "Sources/tinykit-bench",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")])
    ]
)
