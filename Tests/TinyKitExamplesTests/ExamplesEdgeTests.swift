import Foundation
import Testing
import TinyHTTPTransport
import TinyKitDemoServer
import TinyKitExampleCombinations
import TinyKitExamplesProgram
import TinyMocks

/// What a newcomer meets first in `swift run tinykit-examples`: flags written `--name=value`, a mistyped base URL,
/// the table the README shows, what each row claims it sent, and the demo server answered with curl.
@Suite(.timeLimit(.minutes(1))) struct ExamplesEdgeTests {
    // MARK: The command line

    /// `--name=value` is accepted for every option (`split`), but flags that take no value dropped it unread:
    /// `--mocks=false` ran on the mocks, `--serve=no` served, `--help=no` printed the help.
    @Test(arguments: ["--mocks=false", "--mocks=", "--serve=no", "--help=no"])
    func aFlagThatTakesNoValueRefusesOne(argument: String) {
        #expect(throws: UsageError.self) { try ExamplesOptions.parse([argument]) }
    }

    /// What the user sees: a usage error, not the mocks' table and exit 0.
    @Test func mocksFalseDoesNotRunOnTheMocks() async {
        let output = await ExamplesProgram.run(arguments: ["--mocks=false"])
        let ranOnTheMocks = output.standardOutput.hasSuffix("succeeded against the example mocks (TinyMocks).")
        #expect(output.status == ExamplesProgram.usageStatus)
        #expect(!ranOnTheMocks)
    }

    /// A base URL no client can load is a command line the program cannot run (exit 64, "--base-url needs …"), as
    /// `http://127.0.0.1:-1` is; a port above 65535 or an empty host passed the check (where Foundation parses them
    /// with a host, as on Linux) and ended as "cannot reach …: invalid request" with exit status 1, as if the server
    /// were down.
    @Test(arguments: ["http://127.0.0.1:99999", "http://:8080"])
    func aBaseURLNoClientCanLoadIsAUsageError(url: String) async {
        #expect(throws: UsageError.self) { try ExamplesOptions.parse(["--base-url", url]) }
        let output = await ExamplesProgram.run(arguments: ["--base-url", url])
        #expect(output.rows.isEmpty)
        #expect(output.status == ExamplesProgram.usageStatus)
        #expect(output.standardError.hasPrefix("error: --base-url needs an http or https URL"))
    }

    // MARK: The table

    /// Examples/README.md shows the beginning of the table "it prints": its rows, without the time column (which
    /// varies), are lines of the program's output. The `did` column was far wider than the README's once the
    /// TinyHTTP × StatefulEndpoint row named its relaunch, so no README line was printed as shown.
    @Test func theReadmesTableIsWhatTheProgramPrints() async throws {
        let readme = try String(
            contentsOf: ReadmeLinksTests.examples.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "```text\n").dropFirst().first)
        let shown = block.components(separatedBy: "\n").prefix { !$0.hasPrefix("…") }.map(Self.withoutTime)
        #expect(shown.count == 4)

        let output = await ExamplesProgram.run(arguments: [])
        #expect(output.status == 0)
        let printed = output.standardOutput.components(separatedBy: "\n").map(Self.withoutTime)
        #expect(Array(printed.prefix(shown.count)) == shown)
        // The same cells, only padded differently.
        #expect(printed.prefix(shown.count).map(Self.squeezed) == shown.map(Self.squeezed))
    }

    /// A line of the table without its last (time) cell.
    static func withoutTime(_ line: String) -> String {
        line.replacingOccurrences(of: #"\s+(time|-+|[0-9.]+ ms)$"#, with: "", options: .regularExpression)
    }

    /// Runs of spaces and dashes as one.
    static func squeezed(_ line: String) -> String {
        line.split(separator: " ").map { $0.allSatisfy { $0 == "-" } ? "-" : String($0) }.joined(separator: " ")
    }

    // MARK: What the rows claim

    /// TinyHTTP × StatefulEndpoint's row said "then GET /todos with If-None-Match → <status>". Against the demo
    /// server the relaunch sends it (its answer is 304); on the mocks, whose answers carry no ETag, the relaunch
    /// sends a plain GET, and the row still said "with If-None-Match → 200". It says "GET → 200" there now.
    @Test func theRelaunchRowNamesTheConditionalRequestOnlyWhenItWasSent() async throws {
        let server = try await DemoServer.start()
        defer { Task { await server.stop() } }
        let recorder = RecordingTransport(base: URLSessionTransport())
        let live = try await TinyHTTPStatefulEndpoint.run(ExampleContext(baseURL: server.baseURL, transport: recorder))
        let relaunch = try #require(recorder.requests.last)
        #expect(relaunch.value(forHTTPHeaderField: "If-None-Match") != nil)
        #expect(live.did.hasSuffix("then If-None-Match → 304"))

        let mock = try ExampleMocks.transport()
        let mocked = try await TinyHTTPStatefulEndpoint.run(
            ExampleContext(baseURL: ExampleMocks.baseURL, transport: mock))
        let mockedRelaunch = try #require(mock.requests.last)
        let sent = mockedRelaunch.value(forHTTPHeaderField: "If-None-Match") != nil
        #expect(mocked.result == CombinationTests.expected["TinyHTTP × StatefulEndpoint"])
        #expect(mocked.did.contains("If-None-Match") == sent)
    }

    /// The summary names the transport the program made, so every request of every example must go through
    /// `context.transport`, and keep the base URL's path (an API under a prefix, as my-json-server serves one).
    /// Here the base URL's host does not exist and only the transport knows the server: a request sent any other
    /// way, or without the prefix, fails.
    @Test func everyRequestGoesThroughTheContextsTransportAndKeepsTheBasePath() async throws {
        let server = try await DemoServer.start()
        defer { Task { await server.stop() } }
        let port = try #require(server.baseURL.port)
        let transport = PrefixedServerTransport(port: port, prefix: "/api/v1")
        let base = try #require(URL(string: "http://tinykit-examples.invalid/api/v1"))
        for example in ExampleCatalog.all {
            let name = example.combination.description
            let report = try await example.run(ExampleContext(baseURL: base, transport: transport))
            #expect(report.result == CombinationTests.expected[name], "\(name)")
        }
        #expect(transport.refused.isEmpty, "sent without the base path: \(transport.refused)")
        #expect(transport.count >= 30)
    }

    // MARK: The demo server, as curl sees it

    /// `--serve` is for pointing an app or curl at the demo API. RFC 9110 §15.5.6: a 405 MUST carry `Allow`; and
    /// §9.1: a server that answers GET answers HEAD (`curl -I`). The demo server refused `HEAD /todos` with a 405
    /// and sent no `Allow` with any 405.
    @Test func aMethodNotAllowedNamesTheAllowedOnesAndHEADIsAnswered() async throws {
        let server = try await DemoServer.start()
        defer { Task { await server.stop() } }
        let transport = URLSessionTransport()
        let todos = server.baseURL.appendingRelative("todos")

        let (_, deleteAll) = try await transport.send(URLRequest(method: .delete, url: todos))
        #expect(deleteAll.statusCode == 405)
        let (_, head) = try await transport.send(URLRequest(method: .head, url: todos))
        #expect(deleteAll.value(forHTTPHeaderField: "Allow") != nil)
        #expect(head.statusCode == 200)
    }
}

/// Forwards to `base` and records each request.
final class RecordingTransport: HTTPTransport, @unchecked Sendable {  // `sent` is only touched holding `lock`.
    let base: any HTTPTransport
    private let lock = NSLock()
    private var sent: [URLRequest] = []

    init(base: any HTTPTransport) { self.base = base }

    var requests: [URLRequest] { lock.withLock { sent } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        lock.withLock { sent.append(request) }
        return try await base.send(request)
    }
}

/// The demo server on `127.0.0.1:<port>` as if it served under `prefix` on any host: each request goes to the
/// server with the prefix removed from its path; one without the prefix is answered 404 and noted in `refused`.
final class PrefixedServerTransport: HTTPTransport, @unchecked Sendable {  // State is only touched holding `lock`.
    let port: Int
    let prefix: String
    private let base = URLSessionTransport()
    private let lock = NSLock()
    private var refusedPaths: [String] = []
    private var sent = 0

    init(port: Int, prefix: String) {
        self.port = port
        self.prefix = prefix
    }

    var refused: [String] { lock.withLock { refusedPaths } }
    var count: Int { lock.withLock { sent } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw HTTPTransportError(.invalidRequest, message: "no URL")
        }
        lock.withLock { sent += 1 }
        guard components.percentEncodedPath.hasPrefix(prefix + "/") else {
            lock.withLock { refusedPaths.append(components.percentEncodedPath) }
            let response = HTTPURLResponse(url: url, statusCode: 404, httpVersion: "HTTP/1.1", headerFields: [:])
            guard let response else { throw HTTPTransportError(.invalidRequest, message: "no response") }
            return (Data(#"{"error":"not under the prefix"}"#.utf8), response)
        }
        components.percentEncodedPath = String(components.percentEncodedPath.dropFirst(prefix.count))
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = port
        var forwarded = request
        forwarded.url = components.url
        return try await base.send(forwarded)
    }
}
