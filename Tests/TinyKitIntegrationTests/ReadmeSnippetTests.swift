import Foundation
import Testing

/// Every ```swift block of a README must be compiled by a test: its lines appear, verbatim after trimming whitespace
/// and in the README's order (other lines may come between them, such as a stand-in the snippet assumes), in the
/// test file named here (which the build compiles and runs). A README edit that is not mirrored in its test fails
/// this check, so the snippets users copy keep compiling.
@Suite(.timeLimit(.minutes(1))) struct ReadmeSnippetTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// README → the test file that compiles its snippets.
    static let readmes: [(readme: String, tests: String)] =
        [
            "TinyHTTPTransport", "TinyHTTPLogging", "TinyEndpoint", "TinyMocks", "TinyRequestState", "TinyStore",
            "TinyStatefulEndpoint", "TinyAsyncHTTPClientTransport",
        ].map { ("Packages/\($0)/README.md", "Packages/\($0)/Tests/\($0)Tests/ReadmeTests.swift") } + [
            ("README.md", "Tests/TinyKitIntegrationTests/RootReadmeTests.swift"),
            ("Packages/TinyKitTestServer/README.md", "Tests/TinyKitIntegrationTests/TransportIntegrationTests.swift"),
        ]

    /// The lines of each ```swift fenced block in a Markdown text, except manifest snippets (the `.package` and
    /// `.product` lines a user adds to a Package.swift, which no test target can compile).
    static func swiftSnippets(_ markdown: String) -> [[String]] {
        var block: [String]?
        var blocks: [[String]] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                if let finished = block, !finished.contains(where: isManifestLine) { blocks.append(finished) }
                block = block == nil && trimmed == "```swift" ? [] : nil
            } else if !trimmed.isEmpty {
                block?.append(trimmed)
            }
        }
        return blocks
    }

    /// The lines of `snippet` not found in `source` in their order: each is looked for after the previous one found.
    static func missing(_ snippet: [String], in source: [String]) -> [String] {
        var rest = source[...]
        return snippet.filter { line in
            guard let found = rest.firstIndex(of: line) else { return true }
            rest = rest[(found + 1)...]
            return false
        }
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
        #expect(Self.swiftSnippets(markdown) == [["let a = 1", "print(a)"]])
    }

    @Test func linesMustComeInTheSnippetsOrder() {
        let source = ["let a = 1", "let stub = 0", "print(a)"]
        #expect(Self.missing(["let a = 1", "print(a)"], in: source).isEmpty)
        #expect(Self.missing(["print(a)", "let a = 1"], in: source) == ["let a = 1"])
        #expect(Self.missing(["print(a)", "print(a)"], in: source) == ["print(a)"])
    }

    @Test(arguments: readmes)
    func readmeSnippetsAreCompiledByATest(readme: String, tests: String) throws {
        let markdown = try String(contentsOf: Self.repository.appendingPathComponent(readme), encoding: .utf8)
        let snippets = Self.swiftSnippets(markdown)
        #expect(!snippets.isEmpty, "\(readme) has no ```swift quick start")
        let testSource = try String(contentsOf: Self.repository.appendingPathComponent(tests), encoding: .utf8)
        let compiled = testSource.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for snippet in snippets {
            let missing = Self.missing(snippet, in: compiled)
            #expect(
                missing.isEmpty,
                "\(readme): lines not compiled, in this order, by \(tests):\n\(missing.joined(separator: "\n"))")
        }
    }
}
