// swift-tools-version: 6.1
// The root manifest: every module of the monorepo, declared by path, so the repository can be consumed by URL.
// Each Packages/<Name>/Package.swift declares the same module standalone for `swift test --package-path`.
// See ARCHITECTURE.md ("Two manifests, one source tree").
// Tools 6.1 for package traits: AsyncHTTPClient is a dependency only when a consumer enables the trait of that name,
// swift-log only when it enables `Logging`. A consumer that enables neither resolves no third-party package (SwiftPM
// 6.2+; scripts/check-consumer.sh proves it).
import PackageDescription

let platforms: [SupportedPlatform] = [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9)]
let settings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

#if compiler(>=6.2)
    // TinyHTTPLogging logs through swift-log, whose mirrored release needs swift-tools 6.2: the `Logging` trait and
    // swift-log are declared only for 6.2+ compilers, so that a consumer on Swift 6.1 still resolves every product
    // (SwiftPM 6.1 fetches a trait's dependencies even when the trait is off). There TinyHTTPLogging is only the
    // placeholder, and enabling `Logging` fails as an unknown trait.
    let loggingTraits: Set<Trait> = [
        .trait(
            name: "Logging",
            description: """
                Builds TinyHTTPLogging's `.logging(_:)` middleware with apple/swift-log. Off by default: without it, no \
                consumer builds or fetches swift-log, and TinyHTTPLogging holds only an unavailable placeholder that \
                names this trait. Needs Swift 6.2 or later.
                """)
    ]
    let loggingDependencies: [Package.Dependency] = [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2")
    ]
    /// swift-log's products, only with the `Logging` trait.
    func swiftLog(_ products: String...) -> [Target.Dependency] {
        products.map { .product(name: $0, package: "swift-log", condition: .when(traits: ["Logging"])) }
    }
#else
    let loggingTraits: Set<Trait> = []
    let loggingDependencies: [Package.Dependency] = []
    func swiftLog(_ products: String...) -> [Target.Dependency] { [] }
#endif

/// A library module that lives in `Packages/<package>/Sources/<name>`.
func module(_ name: String, in package: String? = nil, dependencies: [Target.Dependency] = []) -> Target {
    .target(
        name: name, dependencies: dependencies, path: "Packages/\(package ?? name)/Sources/\(name)",
        swiftSettings: settings)
}

/// A package's unit-test target, run from the root too so that one build runs every test.
func unitTests(
    _ package: String, dependencies: [Target.Dependency], resources: [Resource]? = nil
) -> Target {
    .testTarget(
        name: "\(package)Tests", dependencies: dependencies, path: "Packages/\(package)/Tests/\(package)Tests",
        resources: resources, swiftSettings: settings)
}

let package = Package(
    name: "TinyKit",
    platforms: platforms,
    products: [
        .library(name: "TinyKit", targets: ["TinyKit"]),
        .library(name: "TinyHTTPTransport", targets: ["TinyHTTPTransport"]),
        .library(name: "TinyEndpoint", targets: ["TinyEndpoint"]),
        .library(name: "TinyMocks", targets: ["TinyMocks"]),
        .library(name: "TinyRequestState", targets: ["TinyRequestState"]),
        .library(name: "TinyStore", targets: ["TinyStore"]),
        .library(name: "TinyStoreTesting", targets: ["TinyStoreTesting"]),
        .library(name: "TinyStatefulEndpoint", targets: ["TinyStatefulEndpoint"]),
        .library(name: "TinyAsyncHTTPClientTransport", targets: ["TinyAsyncHTTPClientTransport"]),
        .library(name: "TinyHTTPLogging", targets: ["TinyHTTPLogging"]),
    ],
    traits: loggingTraits.union([
        .trait(
            name: "AsyncHTTPClient",
            description: """
                Builds TinyAsyncHTTPClientTransport with swift-server's AsyncHTTPClient (and re-exports it from the \
                TinyKit umbrella). Off by default: without it, no consumer builds (with SwiftPM 6.2+, fetches) \
                AsyncHTTPClient or SwiftNIO.
                """)
    ]),
    dependencies: [
        // Test-only: the in-process HTTP server of the integration tests. No library product uses it.
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        // Only with the AsyncHTTPClient trait: every use below is guarded by it, so nobody else builds them, and
        // SwiftPM 6.2+ does not even fetch them (6.1 still does).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    ] + loggingDependencies,
    targets: [
        module("TinyHTTPTransport"),
        module("TinyEndpoint", dependencies: ["TinyHTTPTransport"]),
        module("TinyMocks", dependencies: ["TinyEndpoint", "TinyHTTPTransport"]),
        module("TinyRequestState"),
        module("TinyStore"),
        // Reports failures through Swift Testing or XCTest itself: no third-party dependency, because every
        // dependency of a library product is resolved by every consumer of this repository, used or not.
        module("TinyStoreTesting", in: "TinyStore", dependencies: ["TinyStore"]),
        module("TinyStatefulEndpoint", dependencies: ["TinyEndpoint", "TinyRequestState", "TinyHTTPTransport"]),
        // Without the trait it declares only an unavailable placeholder that names the trait to enable.
        module(
            "TinyAsyncHTTPClientTransport",
            dependencies: ["TinyHTTPTransport"]
                + [
                    ("AsyncHTTPClient", "async-http-client"), ("NIOCore", "swift-nio"),
                    ("NIOFoundationCompat", "swift-nio"), ("NIOHTTP1", "swift-nio"), ("NIOPosix", "swift-nio"),
                    ("NIOHTTPCompression", "swift-nio-extras"),
                ].map { .product(name: $0, package: $1, condition: .when(traits: ["AsyncHTTPClient"])) }),
        // Without the `Logging` trait (and on Swift 6.1) it declares only an unavailable placeholder naming the trait.
        // Not in the umbrella.
        module("TinyHTTPLogging", dependencies: ["TinyHTTPTransport"] + swiftLog("Logging")),
        .target(
            name: "TinyKit",
            dependencies: [
                "TinyHTTPTransport", "TinyEndpoint", "TinyMocks", "TinyRequestState", "TinyStore",
                "TinyStatefulEndpoint",
                .target(name: "TinyAsyncHTTPClientTransport", condition: .when(traits: ["AsyncHTTPClient"])),
            ],
            swiftSettings: settings),

        unitTests("TinyHTTPTransport", dependencies: ["TinyHTTPTransport"]),
        unitTests("TinyEndpoint", dependencies: ["TinyEndpoint"]),
        unitTests("TinyMocks", dependencies: ["TinyMocks"], resources: [.copy("Fixtures")]),
        unitTests("TinyRequestState", dependencies: ["TinyRequestState"]),
        unitTests("TinyStore", dependencies: ["TinyStore", "TinyStoreTesting", "TinyRequestState"]),
        unitTests("TinyStatefulEndpoint", dependencies: ["TinyStatefulEndpoint", "TinyMocks"]),
        // Its tests need the trait (`swift test --traits Logging`, as scripts/test-all.sh runs them): without it they
        // compile to one disabled test that says so.
        unitTests(
            "TinyHTTPLogging",
            dependencies: ["TinyHTTPLogging", "TinyHTTPTransport"] + swiftLog("Logging", "InMemoryLogging")),

        // Test support (Packages/TinyKitTestServer): the in-process HTTP server of the integration tests and the
        // transport behaviour suite. No product exports it.
        .target(
            name: "TinyKitTestServer",
            dependencies: [.product(name: "FlyingFox", package: "FlyingFox"), "TinyHTTPTransport"],
            path: "Packages/TinyKitTestServer/Sources/TinyKitTestServer",
            swiftSettings: settings),
        unitTests("TinyKitTestServer", dependencies: ["TinyKitTestServer", "TinyHTTPTransport"]),
        .testTarget(
            name: "TinyKitIntegrationTests",
            dependencies: ["TinyKit", "TinyKitTestServer"],
            path: "Tests/TinyKitIntegrationTests",
            swiftSettings: settings),

        // Examples: `swift run tinykit-examples` (see Examples/README.md). No library product depends on these.
        .target(
            name: "TinyKitDemoServer",
            dependencies: [.product(name: "FlyingFox", package: "FlyingFox")],
            path: "Examples/DemoServer",
            swiftSettings: settings),
        .target(
            name: "TinyKitExampleCombinations",
            dependencies: [
                "TinyHTTPTransport", "TinyEndpoint", "TinyMocks", "TinyRequestState", "TinyStore",
                "TinyStatefulEndpoint",
            ],
            path: "Examples/Combinations",
            resources: [.copy("Mocks")],
            swiftSettings: settings),
        // `--transport asynchttpclient` only with the AsyncHTTPClient trait. No product uses this target, so its
        // dependencies never reach a consumer; the condition keeps the root's own builds without the trait light.
        .target(
            name: "TinyKitExamplesProgram",
            dependencies: [
                "TinyKitExampleCombinations", "TinyKitDemoServer", "TinyHTTPTransport",
                .target(name: "TinyAsyncHTTPClientTransport", condition: .when(traits: ["AsyncHTTPClient"])),
            ],
            path: "Examples/Program",
            swiftSettings: settings),
        // `swift run tinykit-examples`. Deliberately no `.executable` product: a product's dependencies are resolved
        // by every consumer of the package (FlyingFox would be), an executable target's are not.
        .executableTarget(
            name: "tinykit-examples",
            dependencies: ["TinyKitExamplesProgram"],
            path: "Examples/CLI",
            swiftSettings: settings),
        .testTarget(
            name: "TinyKitExamplesTests",
            dependencies: [
                "TinyKitExamplesProgram", "TinyKitExampleCombinations", "TinyKitDemoServer", "TinyHTTPTransport",
            ],
            path: "Tests/TinyKitExamplesTests",
            swiftSettings: settings),
    ]
)
