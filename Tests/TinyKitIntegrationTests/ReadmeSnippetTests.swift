import Foundation
import Testing

/// Every ```swift block of a README must be compiled by a test: each of its lines appears, verbatim after trimming
/// whitespace, in the test file named here (which the build compiles and runs). A README edit that is not mirrored
/// in its test fails this check, so the snippets users copy keep compiling.
@Suite(.timeLimit(.minutes(1))) struct ReadmeSnippetTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// README → the test file that compiles its snippets.
    static let readmes: [(readme: String, tests: String)] =
        [
            "TinyHTTPTransport", "TinyHTTPLogging", "TinyEndpoint", "TinyMocks", "TinyRequestState", "TinyStore",
            "TinyStatefulEndpoint", "TinyAsyncHTTPClientTransport",
        ].map { ("Packages/\($0)/README.md", "Packages/\($0)/Tests/\($0)Tests/ReadmeTests.swift") } + [
            ("README.md", "Tests/TinyKitIntegrationTests/RootReadmeTests.swift")
        ]

    /// The lines of every ```swift fenced block in a Markdown text, except manifest snippets (the `.package` and
    /// `.product` lines a user adds to a Package.swift, which no test target can compile).
    static func swiftSnippetLines(_ markdown: String) -> [String] {
        var block: [String]?
        var lines: [String] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                if let finished = block, !finished.contains(where: isManifestLine) { lines += finished }
                block = block == nil && trimmed == "```swift" ? [] : nil
            } else if !trimmed.isEmpty {
                block?.append(trimmed)
            }
        }
        return lines
    }

    static func isManifestLine(_ line: String) -> Bool {
        [".package(", ".product(", "dependencies:", "// swift-tools-version"].contains { line.hasPrefix($0) }
    }

    @Test func extractsOnlySwiftBlocks() {
        let markdown = """
            # T
            ```swift
            let a = 1

              print(a)
            ```
            ```sh
            swift test
            ```
            ```swift
            .package(url: "https://example.com/x", from: "1.0.0")
            ```
            """
        #expect(Self.swiftSnippetLines(markdown) == ["let a = 1", "print(a)"])
    }

    @Test(arguments: readmes)
    func readmeSnippetsAreCompiledByATest(readme: String, tests: String) throws {
        let markdown = try String(contentsOf: Self.repository.appendingPathComponent(readme), encoding: .utf8)
        let snippet = Self.swiftSnippetLines(markdown)
        #expect(!snippet.isEmpty, "\(readme) has no ```swift quick start")
        let testSource = try String(contentsOf: Self.repository.appendingPathComponent(tests), encoding: .utf8)
        let compiled = Set(testSource.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let missing = snippet.filter { !compiled.contains($0) }
        #expect(missing.isEmpty, "\(readme): lines not compiled by \(tests):\n\(missing.joined(separator: "\n"))")
    }
}
