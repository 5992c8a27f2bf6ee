import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

/// Concurrency audit: interleavings the compiler cannot see (a known issue while the library has the bug).
@Suite(.timeLimit(.minutes(1))) struct ConcurrencyAuditTests {
    /// Refreshes `Bearer 0` to `Bearer 1` and, as an app may on a new session, starts a background sync with
    /// `Task { }` that sends `GET /profile` through the authorized transport once `gate` yields (after the refresh).
    private actor SyncingTokens: CredentialProvider {
        private var token = "Bearer 0"
        private var transport: (any HTTPTransport)?
        private let gate: AsyncStream<Void>
        /// The background sync: the status of its `/profile` response.
        private(set) var sync: Task<Int, any Error>?

        init(gate: AsyncStream<Void>) { self.gate = gate }

        func use(_ transport: any HTTPTransport) { self.transport = transport }

        func credential() -> String? { token }

        func refreshCredential(rejected: String?) async throws -> String {
            token = "Bearer 1"
            // Let go of the transport: the cycle provider → transport → middleware → provider ends here.
            guard let transport else { return token }
            self.transport = nil
            sync = Task { [gate] in
                for await _ in gate { break }
                let profile = URLRequest(method: .get, url: URL(fileURLWithPath: "/profile"))
                return try await transport.send(profile).1.statusCode
            }
            return token
        }
    }

    /// `HTTPMiddleware+Authorization.swift` `SingleFlightRefresher` (`@TaskLocal refreshing`, `isRefreshingHere`):
    /// the task-local that lets the refresh's own requests pass is inherited by every unstructured task started
    /// from the refresh, and stays set after the refresh ended. A request such a task sends later, long after the
    /// refresh, goes out without a credential and its `401` comes back untouched.
    @Test func aTaskStartedByTheRefreshSendsWithACredentialAfterTheRefreshEnded() async throws {
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let provider = SyncingTokens(gate: gate)
        let seen = Recorder<(path: String, authorization: String?)>()
        let server = ClosureTransport { request in
            let authorization = request.value(forHTTPHeaderField: "Authorization")
            seen.append((request.url?.path ?? "", authorization))
            return try reply(request, authorization == "Bearer 1" ? 200 : 401)
        }
        let transport = server.with(.authorization(provider))
        await provider.use(transport)

        let (_, response) = try await transport.send(URLRequest(url: URL(fileURLWithPath: "/data")))
        #expect(response.statusCode == 200)  // refused with `Bearer 0`, refreshed, sent again with `Bearer 1`
        open.yield()  // the refresh has ended: the sync sends now
        let sync = try #require(await provider.sync)
        let status = try await sync.value

        let profile = seen.all.first { $0.path == "/profile" }
        #expect(profile?.authorization == "Bearer 1")
        #expect(status == 200)
    }
}
