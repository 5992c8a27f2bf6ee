import Foundation
import Testing
import TinyKitExampleCombinations

/// Examples/README.md links every example, and every file it links exists.
@Suite(.timeLimit(.minutes(1))) struct ReadmeLinksTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples")

    static func readme() throws -> String {
        try String(contentsOf: examples.appendingPathComponent("README.md"), encoding: .utf8)
    }

    /// The relative targets of the Markdown links `[text](target)`.
    static func links(in markdown: String) -> [String] {
        markdown.components(separatedBy: "](").dropFirst().compactMap { rest in
            rest.split(separator: ")", maxSplits: 1).first.map(String.init)
        }
        .filter { !$0.hasPrefix("http") }
    }

    @Test func everyLinkedFileExists() throws {
        let links = Self.links(in: try Self.readme())
        #expect(links.count >= 20)
        for link in links {
            let path = Self.examples.appendingPathComponent(link).path
            #expect(FileManager.default.fileExists(atPath: path), "README links a missing file: \(link)")
        }
    }

    @Test func everyExampleIsLinked() throws {
        let links = Set(Self.links(in: try Self.readme()).map { "Examples/" + $0 })
        for example in ExampleCatalog.all {
            #expect(links.contains(example.combination.file), "README does not link \(example.combination.file)")
        }
    }
}
