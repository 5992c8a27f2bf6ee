import Foundation
import Testing
import TinyKit
import TinyKitTestServer

/// A `401` carrying `WWW-Authenticate: Basic` arrives as a typed `401` error, within the request's timeout,
/// through every entry that sends with `URLSession`: they share one send path. On Linux, FoundationNetworking never
/// completes such a request on a session without a delegate that cancels the challenge (swift-corelibs-foundation
/// issue 5456), so each of these would hang there without it.
@Suite(.timeLimit(.minutes(1))) struct ChallengeEntryTests {
    struct Body: Decodable, Sendable {}

    /// The request's own timeout: an entry that hangs fails when it passes.
    static let timeout: TimeInterval = 10

    private static func endpoint(_ server: TestServer) -> Endpoint<[String: Bool]> {
        Endpoint(json: .get, url: server.url("/auth/basic"), timeOutInterval: timeout)
    }

    private static func expect401(_ error: any Error, sourceLocation: SourceLocation = #_sourceLocation) {
        let transportError =
            (error as? HTTPTransportError) ?? (error as? TinyAPIError)?.underlyingError
            as? HTTPTransportError
        #expect(transportError?.code == .unacceptableStatus(401), "\(error)", sourceLocation: sourceLocation)
        #expect(
            transportError?.response?.value(forHTTPHeaderField: "WWW-Authenticate") == #"Basic realm="test""#,
            sourceLocation: sourceLocation)
    }

    private func loadFailure<A: Sendable>(
        _ load: @escaping @Sendable () async throws -> A
    ) async throws -> any Error {
        let error = try await #require(throws: (any Error).self, "the 401 was a success") {
            try await bounded(seconds: Self.timeout) { try await load() }
        }
        if let timeout = error as? BoundedTimeout { throw timeout }
        return error
    }

    @Test func sharedSessionAsyncLoad() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let endpoint = Self.endpoint(server)
        Self.expect401(try await loadFailure { try await URLSession.shared.load(endpoint) })
    }

    @Test func sharedSessionCallbackLoad() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let endpoint = Self.endpoint(server)
        let error = try await loadFailure {
            try await withCheckedThrowingContinuation { continuation in
                URLSession.shared.load(endpoint) { continuation.resume(with: $0) }
            }
        }
        Self.expect401(error)
    }

    @Test func dataTaskForAnEndpoint() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let endpoint = Self.endpoint(server)
        let error = try await loadFailure {
            try await withCheckedThrowingContinuation { continuation in
                URLSession.shared.dataTask(endpoint: endpoint) { continuation.resume(with: $0) }.resume()
            }
        }
        Self.expect401(error)
    }

    /// A session the user built, without a delegate; the twin TinyKit sends through shares its configuration.
    @Test func userBuiltSession() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["X-Configured": "yes"]
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let endpoint = Self.endpoint(server)
        Self.expect401(try await loadFailure { try await session.load(endpoint) })
        Self.expect401(try await loadFailure { try await URLSessionTransport(session: session).load(endpoint) })
        #expect(server.requests.map { $0.header("X-Configured") } == ["yes", "yes"])
    }

    @Test func urlSessionTransport() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let endpoint = Self.endpoint(server)
        let transport = URLSessionTransport(configuration: .ephemeral)
        Self.expect401(try await loadFailure { try await transport.load(endpoint) })
        Self.expect401(try await loadFailure { try await URLSessionTransport.shared.load(endpoint) })
    }

    /// The `401`'s body is the same through every entry. On Linux the cancelled challenge's body reaches
    /// `URLSessionTransport` (its delegate collects it before the challenge), but `URLSession`'s own entries
    /// (`send`, `load`, `dataTask(endpoint:)`) send with a completion handler, which FoundationNetworking hands no
    /// data when the task ends cancelled: the `401` comes with an empty body there.
    @Test func the401BodyIsTheSameThroughEveryEntry() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let endpoint = Self.endpoint(server)
        let body = Data(#"{"error":"unauthorized"}"#.utf8)
        let transport = URLSessionTransport(configuration: .ephemeral)
        let viaTransport = try await loadFailure { try await transport.load(endpoint) } as? HTTPTransportError
        #expect(viaTransport?.body == body)

        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let viaSession = try await loadFailure { try await session.load(endpoint) } as? HTTPTransportError
        let viaCallback = try await loadFailure {
            try await withCheckedThrowingContinuation { continuation in
                URLSession.shared.load(endpoint) { continuation.resume(with: $0) }
            }
        }
        // Collecting every body through TinyKit's delegate fixes it, at about 1.5 % more instructions a request on
        // `URLSession.load` (callgrind: 1.012 to 1.028 of raw URLSession, over issue 15's 1.02): left, documented.
        withKnownIssue(
            "URLSession's own entries lose a cancelled challenge's 401 body on Linux",
            isIntermittent: !onFoundationNetworking
        ) {
            #expect(viaSession?.body == body)
            #expect((viaCallback as? HTTPTransportError)?.body == body)
        }
    }

    @Test func tinyAPIClient() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        struct Protected: TinyAPIEndpoint {
            var baseURL: String
            var path: String { "/auth/basic" }
            var method: HTTPMethod { .GET }
        }
        let endpoint = Protected(baseURL: server.baseURL.absoluteString)
        for client in [TinyAPIClient(), TinyAPIClient(transport: URLSession.shared)] {
            let error = try await loadFailure { try await client.request(endpoint, as: [String: Bool].self) }
            #expect((error as? TinyAPIError)?.kind == .httpError(401))
            Self.expect401(error)
        }
    }

    @Test func statefulEndpoint() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let endpoint = StatefulEndpoint(endpoint: Self.endpoint(server), transport: URLSession.shared)
        await endpoint.loadIfNeeded()
        let failure: RequestError? = try await bounded(seconds: Self.timeout) {
            for await state in await endpoint.states {
                if case .failure(let error) = state { return error }
            }
            return nil
        }
        Self.expect401(try #require(failure?.underlyingError))
    }
}
