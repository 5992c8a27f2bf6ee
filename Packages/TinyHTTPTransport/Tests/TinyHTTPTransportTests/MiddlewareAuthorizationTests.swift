import Foundation
import Testing
import TinyHTTPTransport

/// Hands out `Bearer <n>` credentials: `Bearer 0` first, `Bearer 1` after the first refresh, and so on.
private actor Tokens: CredentialProvider {
    private(set) var generation = 0
    private(set) var rejected: [String?] = []
    let failure: (any Error)?
    /// Runs at the start of each refresh.
    let beforeRefresh: @Sendable () async throws -> Void

    init(failing failure: (any Error)? = nil, beforeRefresh: @escaping @Sendable () async throws -> Void = {}) {
        self.failure = failure
        self.beforeRefresh = beforeRefresh
    }

    func credential() -> String? { replaced ?? "Bearer \(generation)" }

    /// A credential set elsewhere (a sign-in, another transport): ``credential()`` gives it from now on.
    private var replaced: String?
    func replace(with credential: String) { replaced = credential }

    func refreshCredential(rejected credential: String?) async throws -> String {
        rejected.append(credential)
        try await beforeRefresh()
        if let failure { throw failure }
        await Task.yield()  // let other refused requests arrive while this refresh runs
        generation += 1
        return "Bearer \(generation)"
    }
}

/// The token endpoint refused the refresh.
private struct RefreshRefused: Error {}

/// Refreshes `Bearer stale` by posting to `/token` through the transport it is given, which has the
/// authorization middleware of this very provider: the shape that must neither loop nor wait on itself.
private actor SelfRefreshingTokens: CredentialProvider {
    private var token = "Bearer stale"
    private var transport: (any HTTPTransport)?

    func use(_ transport: any HTTPTransport) { self.transport = transport }

    func credential() -> String? { token }

    func refreshCredential(rejected: String?) async throws -> String {
        guard let transport else { throw RefreshRefused() }
        // One refresh per test: letting go of the transport ends the cycle provider → transport → middleware →
        // provider, which the leak sanitizer would report.
        self.transport = nil
        let tokenURL = URL(fileURLWithPath: "/token")
        let (body, response) = try await transport.send(URLRequest(method: .post, url: tokenURL))
        guard response.statusCode == 200 else { throw RefreshRefused() }
        token = String(decoding: body, as: UTF8.self)
        return token
    }
}

/// Holds every caller until `count` of them arrived, then lets them all go.
private actor Gate {
    let count: Int
    private var arrived = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { self.count = count }

    func arriveAndWait() async {
        arrived += 1
        if arrived >= count {
            for continuation in waiting { continuation.resume() }
            waiting = []
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct MiddlewareAuthorizationTests {
    /// Accepts only `accepted`; answers 401 to anything else, after `gate` (when given) let it go.
    private func server(accepting accepted: String, seen: Recorder<String>, gate: Gate? = nil) -> ClosureTransport {
        ClosureTransport { request in
            let credential = request.value(forHTTPHeaderField: "Authorization") ?? "none"
            seen.append(credential)
            guard credential == accepted else {
                await gate?.arriveAndWait()
                return try reply(request, 401, body: #"{"error":"refused"}"#)
            }
            return try reply(request, 200, body: "hello")
        }
    }

    @Test func addsTheCredential() async throws {
        let seen = Recorder<String>()
        let transport = server(accepting: "Bearer 0", seen: seen).with(.authorization(Tokens()))

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == 200)
        #expect(seen.all == ["Bearer 0"])
    }

    @Test func manyConcurrent401sShareOneRefreshAndAreAllReplayed() async throws {
        let count = 10
        let tokens = Tokens()
        let seen = Recorder<String>()
        let transport = server(accepting: "Bearer 1", seen: seen, gate: Gate(count: count))
            .with(.authorization(tokens))

        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask { try await transport.send(URLRequest(method: .post, url: testURL)).1.statusCode }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(statuses == Array(repeating: 200, count: count))
        #expect(await tokens.rejected == ["Bearer 0"])
        #expect(seen.all.filter { $0 == "Bearer 0" }.count == count)
        #expect(seen.all.filter { $0 == "Bearer 1" }.count == count)
    }

    @Test func aRefusedRefreshedCredentialFailsClearlyWithoutALoop() async throws {
        let tokens = Tokens()
        let seen = Recorder<String>()
        let transport = server(accepting: "Bearer 99", seen: seen).with(.authorization(tokens))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        #expect(error.code == .unacceptableStatus(401))
        #expect(error.message == "the refreshed credential was refused too")
        #expect(error.body == Data(#"{"error":"refused"}"#.utf8))
        #expect(seen.all == ["Bearer 0", "Bearer 1"])
        #expect(await tokens.rejected == ["Bearer 0"])
        #expect(!error.description.contains("Bearer"))
    }

    @Test func aFailedRefreshFailsWithItsError() async throws {
        struct SignInAgain: Error {}
        let seen = Recorder<String>()
        let transport = server(accepting: "Bearer 1", seen: seen).with(.authorization(Tokens(failing: SignInAgain())))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        #expect(error.code == .unacceptableStatus(401))
        #expect(error.underlyingError is SignInAgain)
        #expect(error.message == "refreshing the refused credential failed")
        #expect(seen.all == ["Bearer 0"])
    }

    /// A transport throws `HTTPTransportError`: a provider that cannot give a credential (signed out, a locked
    /// keychain) fails the request as such, its own error kept, and nothing is sent.
    @Test func aProviderThatCannotGiveACredentialFailsTheRequestUnsent() async throws {
        struct SignedOut: Error {}
        struct FailingProvider: CredentialProvider {
            func credential() async throws -> String? { throw SignedOut() }
            func refreshCredential(rejected: String?) async throws -> String { throw SignedOut() }
        }
        let seen = Recorder<String>()
        let transport = server(accepting: "Bearer 0", seen: seen).with(.authorization(FailingProvider()))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        #expect(error.code == .other)
        #expect(error.underlyingError is SignedOut)
        #expect(error.message == "the credential provider failed")
        #expect(error.request?.url == testURL)
        #expect(seen.all.isEmpty)
    }

    /// A provider whose `credential()` fetches a token through a transport of its own throws that transport's
    /// `HTTPTransportError`: it is the underlying error of the request's failure (`other`), or the caller would read
    /// `POST /token`'s `503` as its own request's status.
    @Test func aProvidersTransportErrorFailsTheRefusedRequestNotTheTokenRequest() async throws {
        let tokenURL = URL(fileURLWithPath: "/token")
        struct FetchingProvider: CredentialProvider {
            let tokenURL: URL
            func credential() async throws -> String? {
                throw HTTPTransportError(.unacceptableStatus(503), request: URLRequest(method: .post, url: tokenURL))
            }
            func refreshCredential(rejected: String?) async throws -> String { "Bearer 1" }
        }
        let sent = Recorder<URL?>()
        let transport = ClosureTransport { request in
            sent.append(request.url)
            return try reply(request, 200)
        }.with(.authorization(FetchingProvider(tokenURL: tokenURL)))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        #expect(sent.all.isEmpty)
        #expect(error.request?.url == testURL)
        #expect(error.code == .other)
        #expect((error.underlyingError as? HTTPTransportError)?.request?.url == tokenURL)
    }

    @Test func aCredentialReplacedElsewhereIsSentWithoutARefresh() async throws {
        let tokens = Tokens()
        let seen = Recorder<String>()
        let transport = ClosureTransport { request in
            let credential = request.value(forHTTPHeaderField: "Authorization") ?? "none"
            seen.append(credential)
            guard credential == "Bearer signed-in" else {
                await tokens.replace(with: "Bearer signed-in")  // while this request was on its way
                return try reply(request, 401)
            }
            return try reply(request, 200)
        }.with(.authorization(tokens))

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == 200)
        #expect(seen.all == ["Bearer 0", "Bearer signed-in"])
        #expect(await tokens.rejected.isEmpty)
    }

    @Test func aFailedRefreshFailsEveryRequestWaitingOnItAndSendsNoneAgain() async throws {
        struct SignInAgain: Error {}
        let count = 5
        let seen = Recorder<String>()
        let refused = Recorder<Int>()
        let tokens = Tokens(failing: SignInAgain()) {
            // Fails only once every refused request is waiting on this refresh.
            while refused.all.count < count { await Task.yield() }
            try await Task.sleep(for: .milliseconds(50))
        }
        let transport = ClosureTransport { request in
            seen.append(request.value(forHTTPHeaderField: "Authorization") ?? "none")
            defer { refused.append(401) }
            return try reply(request, 401)
        }.with(.authorization(tokens))

        let errors = await withTaskGroup(of: (any Error)?.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do {
                        _ = try await transport.send(URLRequest(method: .get, url: testURL))
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        #expect(errors.count == count)
        for error in errors {
            let error = try #require(error as? HTTPTransportError)
            #expect(error.code == .unacceptableStatus(401))
            #expect(error.underlyingError is SignInAgain)
        }
        #expect(await tokens.rejected == ["Bearer 0"])
        #expect(seen.all == Array(repeating: "Bearer 0", count: count))
    }

    @Test func aProviderRefreshingThroughTheAuthorizedTransportPassesByTheMiddleware() async throws {
        let seen = Recorder<String>()
        let server = ClosureTransport { request in
            let credential = request.value(forHTTPHeaderField: "Authorization")
            seen.append("\(request.url?.path ?? "") \(credential ?? "none")")
            if request.url?.path == "/token" {
                // The token endpoint refuses a request that carries the access token.
                return try reply(request, credential == nil ? 200 : 401, body: "Bearer fresh")
            }
            return try reply(request, credential == "Bearer fresh" ? 200 : 401)
        }
        let tokens = SelfRefreshingTokens()
        let transport = server.with(.authorization(tokens))
        await tokens.use(transport)

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == 200)
        #expect(seen.all == ["/api/items Bearer stale", "/token none", "/api/items Bearer fresh"])
    }

    @Test func aRefreshRefusedThroughTheAuthorizedTransportFailsWithoutALoop() async throws {
        let seen = Recorder<String>()
        let server = ClosureTransport { request in
            seen.append(request.url?.path ?? "")
            return try reply(request, 401)
        }
        let tokens = SelfRefreshingTokens()
        let transport = server.with(.authorization(tokens))
        await tokens.use(transport)

        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        #expect(error.message == "refreshing the refused credential failed")
        #expect(error.underlyingError is RefreshRefused)
        #expect(seen.all == ["/api/items", "/token"])
    }

    @Test func aLaterExpiryRefreshesAgain() async throws {
        let tokens = Tokens()
        let accepted = Recorder<String>()
        accepted.append("Bearer 1")
        let transport = ClosureTransport { request in
            let credential = request.value(forHTTPHeaderField: "Authorization")
            return try reply(request, credential == accepted.all.last ? 200 : 401)
        }.with(.authorization(tokens))

        #expect(try await transport.send(URLRequest(method: .get, url: testURL)).1.statusCode == 200)
        accepted.append("Bearer 2")  // the server now refuses "Bearer 1"
        #expect(try await transport.send(URLRequest(method: .get, url: testURL)).1.statusCode == 200)

        #expect(await tokens.rejected == ["Bearer 0", "Bearer 1"])
    }

    @Test func aRequestWithItsOwnCredentialIsLeftAlone() async throws {
        let tokens = Tokens()
        let seen = Recorder<String>()
        let transport = server(accepting: "Bearer 0", seen: seen).with(.authorization(tokens))
        var request = URLRequest(method: .get, url: testURL)
        request.setValue("Basic dXNlcjpwYXNz", forHTTPHeaderField: "authorization")

        let (_, response) = try await transport.send(request)

        #expect(response.statusCode == 401)
        #expect(seen.all == ["Basic dXNlcjpwYXNz"])
        #expect(await tokens.rejected.isEmpty)
    }

    @Test func usesAnotherHeaderWhenAsked() async throws {
        let seen = Recorder<String?>()
        let transport = ClosureTransport { request in
            seen.append(request.value(forHTTPHeaderField: "X-API-Key"))
            return try reply(request, 200)
        }.with(.authorization(Tokens(), header: "X-API-Key"))

        _ = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(seen.all == ["Bearer 0"])
    }
}
