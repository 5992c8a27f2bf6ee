import Foundation
import Testing
import TinyKit
import TinyKitTestServer

/// `URLSessionTransport` against a real HTTP server on 127.0.0.1: the transport behaviour suite every transport
/// passes (`TransportBehaviour`, in TinyKitTestServer), then what only URLSession and TinyKit's loading add.
@Suite(.timeLimit(.minutes(1))) struct TransportIntegrationTests {
    let transport = URLSessionTransport(configuration: .ephemeral)

    /// Sends with `transport`, failing instead of hanging should no answer come within 60 s.
    private func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await bounded { [transport] in try await transport.send(request) }
    }

    /// The quick start of TinyKitTestServer's README, as written there.
    @Test func loadsAUser() async throws {
        let server = try await TestServer.start()  // 127.0.0.1, a free port: one server per test
        defer { server.stop() }
        await server.route("GET /users/:id") { _ in .json(200, #"{"id":1,"name":"Ada"}"#) }

        let (_, response) = try await transport.send(URLRequest(url: server.url("/users/1")))

        #expect(response.statusCode == 200)
        #expect(server.requests.first?.path == "/users/1")  // method, path, query, headers, body as received
    }

    @Test(arguments: TransportBehaviour.cases)
    func behaviour(_ check: TransportBehaviourCase) async throws {
        try await check.run(transport)
    }

    /// The names identify the cases in test output and in the suite's arguments.
    @Test func behaviourCasesHaveDistinctNames() {
        let names = TransportBehaviour.cases.map(\.name)
        #expect(!names.isEmpty)
        #expect(Set(names).count == names.count)
    }

    @Test func loadingAnEndpointTurnsThe401IntoAnUnacceptableStatusError() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let endpoint = Endpoint<[String: Bool]>(json: .get, url: server.url("/auth/basic"))
        let transport = self.transport

        let error = try await #require(throws: HTTPTransportError.self) {
            try await bounded { try await transport.load(endpoint) }
        }

        #expect(error.code == .unacceptableStatus(401))
        #expect(error.response?.value(forHTTPHeaderField: "WWW-Authenticate") == #"Basic realm="test""#)
        #expect(error.description.contains("unacceptable status 401: GET \(server.url("/auth/basic").absoluteString)"))
    }

    /// The method check of `URLSessionTransport.send(_:)` (in the suite) guards `dataTask(endpoint:)` too.
    @Test func dataTaskForAnEndpointRefusesAMethodThatIsNotAToken() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let request = URLRequest(method: HTTPMethod(rawValue: "GET\r\nX-Injected: 1\r\nX:"), url: server.url("/echo"))
        let endpoint = Endpoint<()>(request: request) { _, _ in .success(()) }

        let refusal = await withCheckedContinuation { continuation in
            URLSession.shared.dataTask(endpoint: endpoint) { continuation.resume(returning: $0) }.resume()
        }

        let error = try #require(throws: HTTPTransportError.self) { try refusal.get() }
        #expect(error.code == .invalidRequest)
        let afterwards = try await send(URLRequest(method: .get, url: server.url("/echo")))
        #expect(afterwards.1.statusCode == 200)
        #expect(server.requests.map(\.method) == ["GET"])
    }

    /// Not in the behaviour suite: URLSession on Linux follows a 307 after a POST with a POST whose body it drops
    /// (`Content-Length: 0`), where RFC 9110 keeps the body. Pinned, so that a fixed FoundationNetworking shows.
    @Test func temporaryRedirectAfterPOSTKeepsTheMethod() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("POST /form", response: .redirect(to: "/echo/after", status: 307))
        var request = URLRequest(method: .post, url: server.url("/form"))
        request.httpBody = Data("name=Ada".utf8)

        let (_, response) = try await send(request)

        #expect(response.statusCode == 200)
        #expect(server.requests.map { "\($0.method) \($0.path)" } == ["POST /form", "POST /echo/after"])
        #if canImport(FoundationNetworking)
            #expect(server.requests.last?.body.isEmpty == true)
        #endif
    }

    @Test func urlSessionIsATransportToo() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let session: any HTTPTransport = URLSession(configuration: .ephemeral)

        let (body, response) = try await bounded { try await session.send(URLRequest(url: server.url("/status/404"))) }

        #expect(response.statusCode == 404)
        #expect(String(decoding: body, as: UTF8.self) == #"{"status":404}"#)
    }

    @Test func givenSessionWhoseDelegateCancelsChallengesGetsThe401() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral, delegate: CancelChallenges(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let transport = URLSessionTransport(session: session)

        let (_, response) = try await bounded { try await transport.send(URLRequest(url: server.url("/auth/basic"))) }

        #expect(response.statusCode == 401)
        #expect(response.value(forHTTPHeaderField: "WWW-Authenticate") == #"Basic realm="test""#)
    }

    /// The timeout given to `URLRequest(url:cachePolicy:timeoutInterval:)` bounds the request, as one set with
    /// `timeoutInterval = …` does. FoundationNetworking uses a request's timeout only when its setter was called
    /// (the initialiser does not mark it set) and otherwise the configuration's, 60 s; the send path assigns it only
    /// when it has a fraction to round up, so 1.5 s times out and 1 s waits the 60 s.
    @Test func theTimeoutGivenToTheRequestsInitialiserBoundsTheRequest() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let url = server.url("/slow?seconds=8")

        let fractional = await Self.failure { [transport] in
            try await transport.send(URLRequest(url: url, timeoutInterval: 1.5))
        }
        #expect(fractional?.code == .timedOut)

        let whole = await Self.failure { [transport] in
            try await transport.send(URLRequest(url: url, timeoutInterval: 1))
        }
        // Setting every request's timeout again fixes it, but copies the request (about 0.5 % of a request's
        // instructions on `Endpoint`, over issue 15's 1.02): left, documented on URLSessionTransport.
        withKnownIssue(
            "a whole-second timeout given to URLRequest's initialiser is ignored on Linux",
            isIntermittent: !onFoundationNetworking
        ) {
            #expect(whole?.code == .timedOut)
        }
    }

    /// A configuration's `timeoutIntervalForRequest` with a fraction of a second is rounded up like a request's:
    /// libcurl counts whole seconds, and FoundationNetworking truncates 0.5 to 0, which timed every request out at
    /// once (the send path rounded only the request's `timeoutInterval`). The sessions TinyKit makes (this
    /// transport's, a twin) get the rounded value; the caller's configuration is left as it is. (Checked on the
    /// session, not by a request: a 1 s timeout on a local request is a race under sanitizers.)
    @Test func aFractionalConfigurationTimeoutIsRoundedUpToo() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 0.5
        let transport = URLSessionTransport(configuration: configuration)
        #if canImport(FoundationNetworking)
            #expect(transport.session.configuration.timeoutIntervalForRequest == 1)
        #endif
        #expect(configuration.timeoutIntervalForRequest == 0.5)
    }

    /// A `timeoutInterval` of `.infinity` (no deadline, as `AsyncHTTPClientTransport` reads it), NaN or 1e300
    /// stopped the process on Linux: FoundationNetworking converts it with `Int(…)`, which traps (SIGILL). It is
    /// 2^31 s now. (In process: a regression stops the test run, loudly.)
    @Test(arguments: [TimeInterval.infinity, .nan, 1e300])
    func aTimeoutWithoutBoundsIsNoDeadline(seconds: TimeInterval) async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        var request = URLRequest(url: server.url("/status/200"))
        request.timeoutInterval = seconds
        let (_, response) = try await send(request)
        #expect(response.statusCode == 200)
    }

    /// URL schemes are case-insensitive (RFC 3986, 3.1): `HTTP://` is sent as `http://` is (Apple platforms and
    /// AsyncHTTPClient do). FoundationNetworking's HTTP protocol compares the scheme with `"http"` as written and
    /// reported `unsupportedURL`, which the error mapping called `.other`, "the reply is not HTTP", though nothing
    /// was sent. The send path lower-cases the scheme now.
    @Test func anUpperCaseSchemeIsSent() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let url = try #require(URL(string: "HTTP://127.0.0.1:\(server.port)/echo"))

        let (_, response) = try await send(URLRequest(url: url))
        #expect(response.statusCode == 200)

        #expect(server.requests.count == 1)
    }

    /// The `HTTPTransportError` `operation` fails with, `nil` when it succeeds (or, after 30 s, does not end).
    private static func failure(
        _ operation: @escaping @Sendable () async throws -> (Data, HTTPURLResponse)
    ) async -> HTTPTransportError? {
        do {
            _ = try await bounded(seconds: 30, operation)
            return nil
        } catch {
            return error as? HTTPTransportError
        }
    }

    @Test func sharedTransportWorks() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }

        let (_, response) = try await bounded {
            try await URLSessionTransport.shared.send(URLRequest(url: server.url("/echo")))
        }

        #expect(response.statusCode == 200)
    }
}

/// A session delegate of an app that cancels every authentication challenge.
private final class CancelChallenges: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
}
