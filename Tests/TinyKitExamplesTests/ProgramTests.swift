import Foundation
import Testing
import TinyKitDemoServer
import TinyKitExampleCombinations
import TinyKitExamplesProgram

/// The `tinykit-examples` program: its table, and how it treats bad input.
@Suite struct ProgramTests {
    static let combinations = ExampleCatalog.all.map { $0.combination.description }

    func expectTable(_ output: ExamplesProgram.Output, target: String) {
        #expect(output.status == 0)
        #expect(output.standardError.isEmpty)
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("combination") == true)
        for name in Self.combinations {
            let row = lines.first { $0.hasPrefix(name + " ") }
            #expect(row != nil, "no row for \(name)")
            if let row, let expected = CombinationTests.expected[name] {
                #expect(row.contains(expected), "\(row)")
                #expect(row.hasSuffix(" ms"))
                #expect(!row.contains("FAILED"))
            }
        }
        #expect(output.rows.count == Self.combinations.count)
        #expect(output.rows.allSatisfy { $0.succeeded })
        #expect(lines.last == "14 of 14 combinations succeeded against \(target).")
    }

    @Test func runsEveryCombinationAgainstTheEmbeddedServer() async {
        let output = await ExamplesProgram.run(arguments: [])
        let target = output.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        #expect(target.contains("the demo server at http://127.0.0.1:"))
        let address = target.components(separatedBy: "at ").last?.dropLast() ?? ""
        expectTable(output, target: "the demo server at \(address)")
    }

    @Test func runsEveryCombinationWithMocks() async {
        expectTable(await ExamplesProgram.run(arguments: ["--mocks"]), target: "the example mocks (TinyMocks)")
    }

    @Test func runsAgainstAGivenBaseURL() async throws {
        let server = try await DemoServer.start()
        defer { Task { await server.stop() } }
        let url = server.baseURL.absoluteString
        expectTable(await ExamplesProgram.run(arguments: ["--base-url", url]), target: url)
        expectTable(await ExamplesProgram.run(arguments: ["--base-url=\(url)"]), target: url)
        expectTable(await ExamplesProgram.run(arguments: ["--base-url", url + "/"]), target: url + "/")
    }

    @Test func runsOnlyMatchingCombinations() async {
        let output = await ExamplesProgram.run(arguments: ["--mocks", "--only", "tinyapi"])
        #expect(output.status == 0)
        #expect(output.rows.map(\.combination) == Self.combinations.filter { $0.hasPrefix("tinyAPI") })
        #expect(output.rows.count == 4)
    }

    @Test(arguments: ["--help", "-h"])
    func printsUsage(argument: String) async {
        let output = await ExamplesProgram.run(arguments: [argument])
        #expect(output.status == 0)
        #expect(output.standardOutput.hasPrefix("USAGE: tinykit-examples"))
        #expect(output.standardOutput.contains("--base-url"))
        #expect(output.standardOutput.contains("--mocks"))
        #expect(output.rows.isEmpty)
    }

    @Test(arguments: [
        (["--bogus"], "error: unknown option '--bogus' (see --help)"),
        (["extra"], "error: unexpected argument 'extra' (see --help)"),
        (["--base-url"], "error: --base-url needs a value (see --help)"),
        (["--base-url", "--mocks"], "error: --base-url needs a value (see --help)"),
        (
            ["--base-url", "ftp://example.com"],
            "error: --base-url needs an http or https URL, got 'ftp://example.com' (see --help)"
        ),
        (["--base-url", "not a url"], "error: --base-url needs an http or https URL, got 'not a url' (see --help)"),
        (
            ["--mocks", "--base-url", "http://127.0.0.1:9"],
            "error: use either --mocks or --base-url, not both (see --help)"
        ),
        (["--only", "nothing-matches"], "error: no combination matches --only 'nothing-matches'"),
        (["--port", "8080"], "error: --port is only used with --serve (see --help)"),
        (["--serve", "--port", "http"], "error: --port needs a number from 0 to 65535, got 'http' (see --help)"),
        (["--serve", "--port", "70000"], "error: --port needs a number from 0 to 65535, got '70000' (see --help)"),
        (
            ["--serve", "--mocks"],
            "error: --serve runs no examples: it cannot be combined with --mocks, --base-url or --only (see --help)"
        ),
    ])
    func rejectsBadInputWithOneLine(arguments: [String], message: String) async {
        let output = await ExamplesProgram.run(arguments: arguments)
        #expect(output.status == ExamplesProgram.usageStatus)
        #expect(output.standardOutput.isEmpty)
        #expect(output.standardError == message)
    }

    @Test func reportsAnUnreachableBaseURLInOneLine() async {
        let output = await ExamplesProgram.run(arguments: ["--base-url", "http://127.0.0.1:1"])
        #expect(output.status == 1)
        #expect(output.standardOutput.isEmpty)
        #expect(output.standardError == "error: cannot reach http://127.0.0.1:1: could not connect")
    }

    @Test func reportsAServerThatIsNotTheAPIInOneLine() async throws {
        let server = try await DemoServer.start()
        defer { Task { await server.stop() } }
        let url = server.baseURL.appendingPathComponent("nothing").absoluteString
        let output = await ExamplesProgram.run(arguments: ["--base-url", url])
        #expect(output.status == 1)
        #expect(output.standardError == "error: \(url) answered GET /users with status 404")
        #expect(!output.standardError.contains("\n"))
    }
}

@Suite struct ExamplesOptionsTests {
    @Test func parsesEveryOption() throws {
        #expect(try ExamplesOptions.parse([]) == ExamplesOptions(target: .demoServer))
        #expect(try ExamplesOptions.parse(["--mocks"]) == ExamplesOptions(target: .mocks))
        let url = try #require(URL(string: "https://jsonplaceholder.typicode.com"))
        #expect(
            try ExamplesOptions.parse(["--base-url", url.absoluteString]) == ExamplesOptions(target: .baseURL(url)))
        #expect(try ExamplesOptions.parse(["--only", "Store"]) == ExamplesOptions(only: "Store"))
        #expect(
            try ExamplesOptions.parse(["--only=Store", "--help"]) == ExamplesOptions(only: "Store", showHelp: true))
    }
}
