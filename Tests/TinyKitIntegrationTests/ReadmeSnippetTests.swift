import Foundation
import Testing

/// Every ```swift block of a README must be compiled by a test: each of its lines appears, verbatim after trimming
/// whitespace, in the test file named here (which the build compiles and runs). A README edit that is not mirrored
/// in its test fails this check, so the snippets users copy keep compiling.
@Suite struct ReadmeSnippetTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// README → the test file that compiles its snippets.
    static let readmes: [(readme: String, tests: String)] = [
        "TinyHTTPTransport", "TinyEndpoint", "TinyMocks", "TinyRequestState", "TinyStore", "TinyStatefulEndpoint",
    ].map { ("Packages/\($0)/README.md", "Packages/\($0)/Tests/\($0)Tests/ReadmeTests.swift") }

    /// The lines of every ```swift fenced block in a Markdown text.
    static func swiftSnippetLines(_ markdown: String) -> [String] {
        var inside = false
        var lines: [String] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                inside = !inside && trimmed == "```swift"
            } else if inside, !trimmed.isEmpty {
                lines.append(trimmed)
            }
        }
        return lines
    }

    @Test func extractsOnlySwiftBlocks() {
        let markdown = "# T\n```swift\nlet a = 1\n\n  print(a)\n```\n```sh\nswift test\n```\n"
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
