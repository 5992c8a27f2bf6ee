// swift-tools-version: 6.0
// TinyKit's libFuzzer target: a package of its own, so that no consumer of the library products ever resolves it.
// Build and run for a bounded time: scripts/fuzz.sh (see there).
import PackageDescription

let package = Package(
    name: "TinyKitFuzz",
    dependencies: [
        // With `name:`: a path dependency's identity would otherwise be the folder the repository was cloned into.
        .package(name: "TinyKit", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "tinykit-fuzz",
            dependencies: [
                .product(name: "TinyEndpoint", package: "TinyKit"), .product(name: "TinyMocks", package: "TinyKit"),
            ],
            path: "Sources/tinykit-fuzz",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")])
    ]
)
