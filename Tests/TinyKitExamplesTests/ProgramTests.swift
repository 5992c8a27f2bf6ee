import Foundation
import Testing
import TinyKitDemoServer
import TinyKitExampleCombinations
import TinyKitExamplesProgram

/// The `tinykit-examples` program: its table, and how it treats bad input.
@Suite(.timeLimit(.minutes(1))) struct ProgramTests {
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
        #expect(lines.last == "14 of 14 combinations succeeded \(target).")
    }

    /// Runs every combination against the embedded server and checks the table, whose summary names `transport`.
    func expectTableFromTheEmbeddedServer(_ arguments: [String], transport: String) async {
        let output = await ExamplesProgram.run(arguments: arguments)
        let summary = output.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        #expect(summary.contains("on \(transport) against the demo server at http://127.0.0.1:"), "\(summary)")
        let address = summary.components(separatedBy: "at ").last?.dropLast() ?? ""
        expectTable(output, target: "on \(transport) against the demo server at \(address)")
    }

    @Test func runsEveryCombinationAgainstTheEmbeddedServer() async {
        await expectTableFromTheEmbeddedServer([], transport: "URLSessionTransport")
        await expectTableFromTheEmbeddedServer(["--transport", "urlsession"], transport: "URLSessionTransport")
    }

    @Test func runsEveryCombinationWithMocks() async {
        expectTable(await ExamplesProgram.run(arguments: ["--mocks"]), target: "against the example mocks (TinyMocks)")
    }

    @Test func runsAgainstAGivenBaseURL() async throws {
        let server = try await DemoServer.start()
        defer { Task { await server.stop() } }
        let url = server.baseURL.absoluteString
        let target = "on URLSessionTransport against \(url)"
        expectTable(await ExamplesProgram.run(arguments: ["--base-url", url]), target: target)
        expectTable(await ExamplesProgram.run(arguments: ["--base-url=\(url)"]), target: target)
        expectTable(await ExamplesProgram.run(arguments: ["--base-url", url + "/"]), target: target + "/")
    }

    #if AsyncHTTPClient
        // Built with TinyKit's AsyncHTTPClient trait (`swift test --traits AsyncHTTPClient`): every combination
        // sends through AsyncHTTPClientTransport.
        @Test func runsEveryCombinationOnAsyncHTTPClient() async throws {
            await expectTableFromTheEmbeddedServer(
                ["--transport", "asynchttpclient"], transport: "AsyncHTTPClientTransport")

            let server = try await DemoServer.start()
            defer { Task { await server.stop() } }
            let url = server.baseURL.absoluteString
            expectTable(
                await ExamplesProgram.run(arguments: ["--transport=asynchttpclient", "--base-url", url]),
                target: "on AsyncHTTPClientTransport against \(url)")
        }

        @Test func reportsAnUnreachableBaseURLOnAsyncHTTPClientInOneLine() async {
            let output = await ExamplesProgram.run(
                arguments: ["--transport", "asynchttpclient", "--base-url", "http://127.0.0.1:1"])
            #expect(output.status == 1)
            #expect(output.standardOutput.isEmpty)
            #expect(output.standardError == "error: cannot reach http://127.0.0.1:1: could not connect")
        }
    #else
        // Built without the trait (a plain `swift test`, as CI's root step runs it): the flag is refused in one line
        // that names the trait and the command that builds with it.
        @Test(arguments: [
            ["--transport", "asynchttpclient"], ["--transport=AsyncHTTPClient", "--only", "tinyAPI"],
            ["--transport", "asynchttpclient", "--base-url", "http://127.0.0.1:1"],
        ])
        func refusesAsyncHTTPClientWithoutTheTrait(arguments: [String]) async {
            let output = await ExamplesProgram.run(arguments: arguments)
            #expect(output.status == ExamplesProgram.usageStatus)
            #expect(output.standardOutput.isEmpty)
            #expect(
                output.standardError
                    == "error: --transport asynchttpclient needs TinyKit's AsyncHTTPClient trait: "
                    + "swift run --traits AsyncHTTPClient tinykit-examples --transport asynchttpclient")
            #expect(!output.standardError.contains("\n"))
            #expect(output.rows.isEmpty)
        }
    #endif

    @Test func transportsSayWhetherTheyAreBuilt() {
        #expect(ExamplesOptions.Transport.urlsession.isBuilt)
        #if AsyncHTTPClient
            #expect(ExamplesOptions.Transport.asynchttpclient.isBuilt)
        #else
            #expect(!ExamplesOptions.Transport.asynchttpclient.isBuilt)
        #endif
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
        #expect(output.standardOutput.contains("--transport <client>"))
        #expect(output.standardOutput.contains("swift run --traits AsyncHTTPClient tinykit-examples"))
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
            "error: --serve runs no examples: it cannot be combined with --mocks, --base-url, --transport or --only "
                + "(see --help)"
        ),
        (
            ["--serve", "--transport", "urlsession"],
            "error: --serve runs no examples: it cannot be combined with --mocks, --base-url, --transport or --only "
                + "(see --help)"
        ),
        (["--transport"], "error: --transport needs a value (see --help)"),
        (["--transport", "--mocks"], "error: --transport needs a value (see --help)"),
        (
            ["--transport", "curl"],
            "error: --transport needs urlsession or asynchttpclient, got 'curl' (see --help)"
        ),
        (
            ["--mocks", "--transport", "asynchttpclient"],
            "error: --mocks sends nothing: it cannot be combined with --transport (see --help)"
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

@Suite(.timeLimit(.minutes(1))) struct ExamplesOptionsTests {
    @Test func parsesEveryOption() throws {
        #expect(try ExamplesOptions.parse([]) == ExamplesOptions(target: .demoServer))
        #expect(try ExamplesOptions.parse(["--mocks"]) == ExamplesOptions(target: .mocks))
        let url = try #require(URL(string: "https://jsonplaceholder.typicode.com"))
        #expect(
            try ExamplesOptions.parse(["--base-url", url.absoluteString]) == ExamplesOptions(target: .baseURL(url)))
        #expect(try ExamplesOptions.parse(["--only", "Store"]) == ExamplesOptions(only: "Store"))
        #expect(
            try ExamplesOptions.parse(["--only=Store", "--help"]) == ExamplesOptions(only: "Store", showHelp: true))
        #expect(try ExamplesOptions.parse(["--transport", "urlsession"]) == ExamplesOptions(transport: .urlsession))
        #expect(
            try ExamplesOptions.parse(["--transport=asynchttpclient"]) == ExamplesOptions(transport: .asynchttpclient))
        #expect(
            try ExamplesOptions.parse(["--transport", "AsyncHTTPClient", "--base-url", url.absoluteString])
                == ExamplesOptions(target: .baseURL(url), transport: .asynchttpclient))
    }

    /// Parsing does not depend on the build: `--transport asynchttpclient` parses with or without the trait; running
    /// is what needs it.
    @Test func namesEachTransportByItsType() {
        #expect(
            ExamplesOptions.Transport.allCases.map(\.typeName) == ["URLSessionTransport", "AsyncHTTPClientTransport"])
    }
}
