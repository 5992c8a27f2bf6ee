import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport
import TinyKit
import TinyKitTestServer

/// Refreshes `Bearer expired` to `Bearer fresh`, counting its refreshes.
private actor ExpiringTokens: CredentialProvider {
    private var token = "expired"
    private(set) var refreshes = 0
    /// Runs at the start of each refresh; a refresh fails with what it throws.
    private let beforeRefresh: @Sendable () async throws -> Void

    init(beforeRefresh: @escaping @Sendable () async throws -> Void = {}) { self.beforeRefresh = beforeRefresh }

    func credential() -> String? { "Bearer \(token)" }

    /// Replaces the token, as a sign-in elsewhere in the app would.
    func signIn(as token: String) { self.token = token }

    func refreshCredential(rejected: String?) async throws -> String {
        refreshes += 1
        try await beforeRefresh()
        token = "fresh"
        return "Bearer \(token)"
    }
}

/// Refreshes by posting to the server's `/token` through the transport it is given: the authorized transport
/// itself, the shape that must neither loop nor wait on its own refresh.
private actor SelfRefreshingTokens: CredentialProvider {
    struct Refused: Error {}

    private var token = "Bearer expired"
    private var transport: (any HTTPTransport)?
    private let tokenURL: URL

    init(tokenURL: URL) { self.tokenURL = tokenURL }

    func use(_ transport: any HTTPTransport) { self.transport = transport }

    func credential() -> String? { token }

    func refreshCredential(rejected: String?) async throws -> String {
        guard let transport else { throw Refused() }
        // One refresh per test: letting go of the transport ends the cycle provider → transport → middleware →
        // provider, which the leak sanitizer would report.
        self.transport = nil
        let (body, response) = try await transport.send(URLRequest(method: .post, url: tokenURL))
        guard response.statusCode == 200 else { throw Refused() }
        token = String(decoding: body, as: UTF8.self)
        return token
    }
}

/// The refresh of a test failed.
private struct SignInAgain: Error {}

/// The transport middleware over `URLSessionTransport` and a real HTTP server on 127.0.0.1.
@Suite(.timeLimit(.minutes(1))) struct MiddlewareIntegrationTests {
    let transport = URLSessionTransport(configuration: .ephemeral)
    /// Skips every wait (still noticing cancellation).
    let instant = TestClock()

    @Test func retriesARealServiceUnavailableThenSucceeds() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let received = Locked(0)
        await server.route("GET /flaky") { _ in
            let number = received.withLock { count in
                count += 1
                return count
            }
            return number == 1 ? .json(503, #"{"error":"busy"}"#, headers: ["Retry-After": "1"]) : .json(200, "[]")
        }
        let retrying = transport.with(.retry(RetryPolicy(maxAttempts: 3), clock: instant))

        let (body, response) = try await bounded { try await retrying.send(URLRequest(url: server.url("/flaky"))) }

        #expect(response.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == "[]")
        #expect(server.requests.map(\.path) == ["/flaky", "/flaky"])
    }

    /// A connection closed before any response (URLError `badServerResponse` on Linux, `networkConnectionLost` on
    /// Apple platforms): retried by default, not when the policy's codes leave it out.
    @Test(arguments: [(nil, 3), ([URLError.Code.timedOut], 1)] as [([URLError.Code]?, Int)])
    func retriesAConnectionClosedBeforeAnyResponseUnlessItsCodeIsLeftOut(codes: [URLError.Code]?, sends: Int)
        async throws
    {
        let server = try RawSocketServer.start([])
        defer { server.stop() }
        var policy = RetryPolicy(maxAttempts: 3)
        if let codes { policy.retryableErrorCodes = Set(codes) }
        let retrying = transport.with(.retry(policy, clock: instant))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await bounded { try await retrying.send(URLRequest(url: server.url("/closed"))) }
        }

        #expect(error.attempts == sends)
        #expect(server.requests == sends)
    }

    @Test func refreshesTheCredentialAfterARealUnauthorized() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /me") { request in
            request.header("Authorization") == "Bearer fresh" ? .json(200, #"{"name":"Ada"}"#) : .unauthorized()
        }
        let tokens = ExpiringTokens()
        let authorized = transport.with(.retry(clock: instant), .authorization(tokens))

        let (body, response) = try await bounded { try await authorized.send(URLRequest(url: server.url("/me"))) }

        #expect(response.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == #"{"name":"Ada"}"#)
        #expect(server.requests.map { $0.header("Authorization") } == ["Bearer expired", "Bearer fresh"])
        #expect(await tokens.refreshes == 1)
    }
}

/// The authorization middleware's refresh rules over `URLSessionTransport` and a real HTTP server.
@Suite(.timeLimit(.minutes(1))) struct AuthorizationRefreshIntegrationTests {
    let transport = URLSessionTransport(configuration: .ephemeral)

    @Test func aCredentialReplacedElsewhereIsSentAgainWithoutARefresh() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let tokens = ExpiringTokens()
        await server.route("GET /me") { request in
            if request.header("Authorization") == "Bearer signed-in" { return .json(200, #"{"name":"Ada"}"#) }
            await tokens.signIn(as: "signed-in")  // while the refused request was on its way
            return .unauthorized()
        }
        let authorized = transport.with(.authorization(tokens))

        let (_, response) = try await bounded { try await authorized.send(URLRequest(url: server.url("/me"))) }

        #expect(response.statusCode == 200)
        #expect(server.requests.map { $0.header("Authorization") } == ["Bearer expired", "Bearer signed-in"])
        #expect(await tokens.refreshes == 0)
    }

    @Test func aFailedRefreshFailsEveryRequestWaitingOnItAndNoneIsSentAgain() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /me") { _ in .unauthorized() }
        let count = 4
        // Counts the 401s the authorization middleware has been handed: once all are, each request is on its way
        // into the refresh (no suspension point in between), so the short sleep lets them join it. Counting
        // server receipts instead raced with URLSession's delivery under ThreadSanitizer.
        let refused = Locked(0)
        let countsRefusals = HTTPMiddleware { request, next in
            let (body, response) = try await next.send(request)
            if response.statusCode == 401 { refused.withLock { $0 += 1 } }
            return (body, response)
        }
        let tokens = ExpiringTokens {
            // Fails once every refused request is waiting on this one refresh.
            while refused.withLock({ $0 }) < count { try await Task.sleep(for: .milliseconds(5)) }
            try await Task.sleep(for: .milliseconds(100))
            throw SignInAgain()
        }
        let authorized = transport.with(.authorization(tokens), countsRefusals)

        let errors = try await bounded {
            await withTaskGroup(of: (any Error)?.self) { group in
                for _ in 0..<count {
                    group.addTask {
                        await Result(catching: { try await authorized.send(URLRequest(url: server.url("/me"))) })
                            .error
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }

        #expect(errors.count == count)
        for error in errors {
            let error = try #require(error as? HTTPTransportError)
            #expect(error.code == .unacceptableStatus(401))
            #expect(error.underlyingError is SignInAgain)
        }
        #expect(await tokens.refreshes == 1)
        #expect(server.requests.count == count)
    }

    @Test func aProviderRefreshingThroughTheAuthorizedTransportPassesByTheMiddleware() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /me") { request in
            request.header("Authorization") == "Bearer fresh" ? .json(200, #"{"name":"Ada"}"#) : .unauthorized()
        }
        // The token endpoint refuses a request that carries the expired access token.
        await server.route("POST /token") { request in
            request.header("Authorization") == nil ? .text(200, "Bearer fresh") : .json(401, #"{"error":"no"}"#)
        }
        let tokens = SelfRefreshingTokens(tokenURL: server.url("/token"))
        let authorized = transport.with(.authorization(tokens))
        await tokens.use(authorized)

        let (_, response) = try await bounded { try await authorized.send(URLRequest(url: server.url("/me"))) }

        #expect(response.statusCode == 200)
        #expect(
            server.requests.map { "\($0.path) \($0.header("Authorization") ?? "none")" } == [
                "/me Bearer expired", "/token none", "/me Bearer fresh",
            ])
    }

    @Test func aRefreshRefusedThroughTheAuthorizedTransportFailsWithoutALoop() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /me") { _ in .unauthorized() }
        await server.route("POST /token") { _ in .json(401, #"{"error":"refresh token expired"}"#) }
        let tokens = SelfRefreshingTokens(tokenURL: server.url("/token"))
        let authorized = transport.with(.authorization(tokens))
        await tokens.use(authorized)

        let error = try await #require(throws: HTTPTransportError.self) {
            try await bounded { try await authorized.send(URLRequest(url: server.url("/me"))) }
        }

        #expect(error.message == "refreshing the refused credential failed")
        #expect(error.underlyingError is SelfRefreshingTokens.Refused)
        #expect(server.requests.map(\.path) == ["/me", "/token"])
    }
}
