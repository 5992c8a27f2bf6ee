import AsyncHTTPClient
import Foundation
import Testing
import TinyAsyncHTTPClientTransport
import TinyHTTPTransport
import TinyKitTestServer

/// The transports the behaviour suite compares: the same checks, the same in-process server, both must pass.
enum TransportUnderTest: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession = "URLSessionTransport"
    case asyncHTTPClient = "AsyncHTTPClientTransport"

    var testDescription: String { rawValue }

    /// Runs `body` with a new transport of this kind, and shuts down what it started.
    func with(_ body: (any HTTPTransport) async throws -> Void) async throws {
        switch self {
        case .urlSession:
            try await body(URLSessionTransport(configuration: .ephemeral))
        case .asyncHTTPClient:
            try await withClient { try await body(AsyncHTTPClientTransport(client: $0)) }
        }
    }
}

/// Runs `body` with a new `HTTPClient` (`.tinyKit` unless told otherwise) and shuts it down afterwards, also when
/// `body` throws.
func withClient(
    _ configuration: HTTPClient.Configuration = .tinyKit, _ body: (HTTPClient) async throws -> Void
) async throws {
    let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    do {
        try await body(client)
    } catch {
        try await client.shutdown()
        throw error
    }
    try await client.shutdown()
}

/// TinyKitTestServer's transport behaviour suite, run against both transports.
@Suite(.timeLimit(.minutes(2))) struct TransportBehaviourTests {
    @Test(arguments: TransportUnderTest.allCases, TransportBehaviour.cases)
    func behaviour(_ transport: TransportUnderTest, _ check: TransportBehaviourCase) async throws {
        try await transport.with { try await check.run($0) }
    }
}
