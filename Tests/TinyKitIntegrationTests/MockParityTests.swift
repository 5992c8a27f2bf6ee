import Foundation
import Testing
import TinyKit
import TinyKitTestServer

/// One set of endpoint tests, run against the in-process HTTP server (over `URLSessionTransport`) and against
/// `MockTransport` serving the same routes: TinyAPIClient and Endpoint users see the same results from both.
@Suite(.timeLimit(.minutes(1))) struct MockParityTests {
    enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case server
        case mock
        var testDescription: String { rawValue }
    }

    /// A route both backends serve.
    struct Route: Sendable {
        var method: HTTPMethod
        var path: String
        var status: Int
        var headers: [String: String] = [:]
        var body: String = ""
        /// Seconds before the answer: the server waits before its headers, the mock waits on its clock.
        var delay: Double = 0
    }

    /// A transport serving `routes`, and what it received.
    struct Fixture {
        let transport: any HTTPTransport
        let baseURL: String
        let server: TestServer?
        let mock: MockTransport?
        /// One element each time the mock starts waiting out a delay.
        let mockDelays: AsyncStream<Void>?

        /// The method, path and body of each request received, in order.
        var received: [(method: String, path: String, body: Data)] {
            if let server { return server.requests.map { ($0.method, $0.path, $0.body) } }
            return (mock?.requests ?? []).map { ($0.method.rawValue, $0.url?.path ?? "", $0.httpBody ?? Data()) }
        }

        var client: TinyAPIClient { TinyAPIClient(transport: transport) }

        func url(_ path: String) throws -> URL { try #require(URL(string: baseURL + path)) }

        /// Returns once the server has received a request, or the mock is waiting out a delay.
        func waitUntilInFlight() async {
            if let server { #expect(await server.waitForRequests(count: 1).count >= 1) }
            var delays = mockDelays?.makeAsyncIterator()
            _ = await delays?.next()
        }
    }

    static let routes = [
        Route(method: .get, path: "/users", status: 200, headers: ["X-Total-Count": "2"], body: usersJSON),
        Route(method: .post, path: "/users", status: 201, body: #"{"id":3,"name":"Grace"}"#),
        Route(method: .delete, path: "/users/1", status: 204),
        Route(method: .get, path: "/users/404", status: 404, body: #"{"error":"not found"}"#),
        Route(method: .get, path: "/broken", status: 500, headers: ["Content-Type": "text/plain"], body: "boom"),
        Route(method: .get, path: "/garbled", status: 200, body: #"{"id":"#),
        Route(method: .get, path: "/empty", status: 200),
        Route(method: .get, path: "/slow", status: 200, body: "[]", delay: 600),
    ]
    static let usersJSON = #"[{"id":1,"name":"Ada"},{"id":2,"name":"Grace"}]"#

    struct Person: Codable, Equatable, Sendable {
        let id: Int
        let name: String
    }

    struct People: TinyAPIEndpoint {
        var baseURL: String
        var path = "/users"
        var method: HTTPMethod = .get
        var body: Data?
        var queryItems: [URLQueryItem]?
    }

    static func fixture(_ backend: Backend) async throws -> Fixture {
        switch backend {
        case .server:
            let server = try await TestServer.start()
            for route in routes {
                let response = TestResponse(status: route.status, headers: route.headers, body: Data(route.body.utf8))
                await server.route("\(route.method) \(route.path)", response: response.delayed(by: route.delay))
            }
            return Fixture(
                transport: URLSessionTransport(configuration: .ephemeral), baseURL: server.baseURL.absoluteString,
                server: server, mock: nil, mockDelays: nil)
        case .mock:
            let (delays, continuation) = AsyncStream.makeStream(of: Void.self)
            let clock = TestClock(waits: true) { _ in continuation.yield() }
            let mock = MockTransport(clock: clock)
            for route in routes {
                let response = MockResponse.status(route.status, headers: route.headers, body: Data(route.body.utf8))
                mock.register(route.method, route.path, delay: .seconds(route.delay), response)
            }
            return Fixture(
                transport: mock, baseURL: "https://api.example.com", server: nil, mock: mock, mockDelays: delays)
        }
    }

    @Test(arguments: Backend.allCases)
    func decodesAJSONArrayAndKeepsHeaders(backend: Backend) async throws {
        let fixture = try await Self.fixture(backend)
        defer { fixture.server?.stop() }
        let people = try await fixture.client.request(
            People(baseURL: fixture.baseURL, queryItems: [URLQueryItem(name: "page", value: "1")]), as: [Person].self)
        #expect(people == [Person(id: 1, name: "Ada"), Person(id: 2, name: "Grace")])
        let (_, response) = try await fixture.transport.send(URLRequest(url: fixture.url("/users")))
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "x-total-count") == "2")
    }

    @Test(arguments: Backend.allCases)
    func postsABodyAndRecordsIt(backend: Backend) async throws {
        let fixture = try await Self.fixture(backend)
        defer { fixture.server?.stop() }
        let created = try await fixture.client.post(
            to: fixture.baseURL, path: "/users", body: Person(id: 0, name: "Grace"), as: Person.self)
        #expect(created == Person(id: 3, name: "Grace"))
        let received = try #require(fixture.received.first)
        #expect(received.method == "POST")
        #expect(received.path == "/users")
        #expect(try JSONDecoder().decode(Person.self, from: received.body) == Person(id: 0, name: "Grace"))
    }

    @Test(arguments: Backend.allCases)
    func emptyBodies(backend: Backend) async throws {
        let fixture = try await Self.fixture(backend)
        defer { fixture.server?.stop() }
        let deleted = People(baseURL: fixture.baseURL, path: "/users/1", method: .delete)
        #expect(try await fixture.client.requestData(deleted).isEmpty)
        #expect(try await fixture.client.request(deleted, as: EmptyResponse.self) == EmptyResponse())
        #expect(try await fixture.client.request(deleted, as: Person?.self) == nil)
        await #expect(throws: TinyAPIError.noData) {
            try await fixture.client.request(People(baseURL: fixture.baseURL, path: "/empty"), as: Person.self)
        }
    }

    @Test(arguments: Backend.allCases)
    func unacceptableStatusesKeepTheResponseAndBody(backend: Backend) async throws {
        let fixture = try await Self.fixture(backend)
        defer { fixture.server?.stop() }
        for (path, status, body) in [("/users/404", 404, #"{"error":"not found"}"#), ("/broken", 500, "boom")] {
            let error = try await #require(throws: TinyAPIError.self, "\(path) decoded") {
                try await fixture.client.request(People(baseURL: fixture.baseURL, path: path), as: Person.self)
            }
            #expect(error.kind == .httpError(status))
            let transportError = try #require(error.underlyingError as? HTTPTransportError)
            #expect(transportError.response?.statusCode == status)
            #expect(transportError.body == Data(body.utf8))
        }
    }

    @Test(arguments: Backend.allCases)
    func garbledJSONIsADecodingError(backend: Backend) async throws {
        let fixture = try await Self.fixture(backend)
        defer { fixture.server?.stop() }
        let error = try await #require(throws: TinyAPIError.self, "garbled JSON decoded") {
            try await fixture.client.request(People(baseURL: fixture.baseURL, path: "/garbled"), as: Person.self)
        }
        guard case .decodingError(let message) = error.kind else {
            Issue.record("expected a decoding error, got \(error)")
            return
        }
        #expect(message.contains("Person"))
    }

    @Test(arguments: Backend.allCases)
    func endpointsValidateStatusesTheSameWay(backend: Backend) async throws {
        let fixture = try await Self.fixture(backend)
        defer { fixture.server?.stop() }
        let accept404 = Endpoint<Int>(
            request: URLRequest(url: try fixture.url("/users/404")),
            expectedStatusCode: {
                $0 == 404
            }
        ) { _, response in .success((response as? HTTPURLResponse)?.statusCode ?? 0) }
        #expect(try await fixture.transport.load(accept404) == 404)
        let strict = Endpoint<Int>(request: URLRequest(url: try fixture.url("/broken"))) { _, _ in .success(0) }
        await #expect(throws: HTTPTransportError.self) { try await fixture.transport.load(strict) }
    }

    @Test(arguments: Backend.allCases)
    func anUnreachableServerIsANetworkError(backend: Backend) async throws {
        // Nothing listens on port 1 of the loopback; the mock says the same with a URLError.
        let transport: any HTTPTransport
        switch backend {
        case .server:
            transport = URLSessionTransport(configuration: .ephemeral)
        case .mock:
            let mock = MockTransport()
            mock.register(.get, "/users", .failure(URLError(.cannotConnectToHost)))
            transport = mock
        }
        let client = TinyAPIClient(transport: transport)
        let error = try await #require(throws: TinyAPIError.self, "an unreachable server answered") {
            try await client.request(People(baseURL: "http://127.0.0.1:1"), as: [Person].self)
        }
        guard case .networkError = error.kind else {
            Issue.record("expected a network error, got \(error)")
            return
        }
        #expect((error.underlyingError as? HTTPTransportError)?.code == .cannotConnect)
    }

    @Test(arguments: Backend.allCases)
    func aCancelledTaskIsCancelled(backend: Backend) async throws {
        let fixture = try await Self.fixture(backend)
        defer { fixture.server?.stop() }
        let client = fixture.client
        let endpoint = People(baseURL: fixture.baseURL)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.request(endpoint, as: [Person].self)
        }
        await #expect(throws: TinyAPIError(.cancelled)) { try await task.value }
    }

    @Test(arguments: Backend.allCases)
    func cancellingARequestInFlightIsCancelled(backend: Backend) async throws {
        let fixture = try await Self.fixture(backend)
        defer { fixture.server?.stop() }
        let client = fixture.client
        let endpoint = People(baseURL: fixture.baseURL, path: "/slow")
        let task = Task { try await client.request(endpoint, as: [Person].self) }
        await fixture.waitUntilInFlight()
        task.cancel()
        await #expect(throws: TinyAPIError(.cancelled)) { try await task.value }
    }
}
