import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

@testable import TinyEndpoint

@Suite(.timeLimit(.minutes(1))) struct TinyAPIClientTests {
    @Test func requestDecodesWithTheInjectedDecoder() async throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        struct Profile: Decodable, Equatable, Sendable { var displayName: String }
        let transport = StubTransport(body: #"{"display_name":"Ada"}"#)
        let client = TinyAPIClient(transport: transport, decoder: decoder)
        #expect(try await client.request(TestAPIEndpoint(path: "/me"), as: Profile.self) == Profile(displayName: "Ada"))
        #expect(transport.requests.first?.url?.absoluteString == "https://api.example.com/me")
    }

    @Test func aRequestBuiltOnceIsSentAgainAndAnyDifferentPartIsANewRequest() async throws {
        let transport = StubTransport(body: "[]")
        let client = TinyAPIClient(transport: transport)
        let list = TestAPIEndpoint(path: "/users")
        let variants = [
            list, TestAPIEndpoint(baseURL: "https://other.example.com"), TestAPIEndpoint(path: "/admins"),
            TestAPIEndpoint(method: .DELETE), TestAPIEndpoint(headers: ["Accept": "text/plain"]),
            TestAPIEndpoint(queryItems: [URLQueryItem(name: "page", value: "2")]),
            TestAPIEndpoint(method: .POST, body: Data(#"{"name":"Ada"}"#.utf8)),
            TestAPIEndpoint(method: .POST, body: Data(#"{"name":"Bob"}"#.utf8)),
        ]
        for endpoint in variants + [list] + variants.reversed() { _ = try await client.requestData(endpoint) }
        // Each send is exactly the request the endpoint builds, from the cache or not.
        let expected = try (variants + [list] + variants.reversed()).map { try $0.makeRequest() }
        #expect(transport.requests == expected)
        #expect(transport.requests[6].httpBody != transport.requests[7].httpBody)
        // The six without a body were built once each and kept; the two with a body were not kept.
        #expect(client.requests.withLock { $0.count } == 6)
        // Copies of a client share what it built.
        let copy = client
        #expect(copy.requests === client.requests)
    }

    @Test func aBodyThatCannotBeReadFailsEveryTime() async throws {
        struct Broken: Error {}
        struct Flaky: TinyAPIEndpoint {
            let fails: Bool
            var baseURL: String { "https://api.example.com" }
            var path: String { "/users" }
            var method: HTTPMethod { .POST }
            var body: Data? { get throws { if fails { throw Broken() } else { Data("{}".utf8) } } }
        }
        let client = TinyAPIClient(transport: StubTransport(body: "{}"))
        _ = try await client.requestData(Flaky(fails: false))
        let error = try await #require(throws: TinyAPIError.self) { try await client.requestData(Flaky(fails: true)) }
        guard case .encodingFailed(let type, _, let underlying)? = error.underlyingError as? EndpointError else {
            Issue.record("expected an encoding failure, got \(error)")
            return
        }
        #expect(type == "Flaky")
        #expect(underlying is Broken)
    }

    @Test func manyDifferentRequestsStayCorrectWhenTheCacheIsFull() async throws {
        let transport = StubTransport(body: "[]")
        let client = TinyAPIClient(transport: transport)
        for round in 0..<2 {
            for id in 0..<100 { _ = try await client.requestData(TestAPIEndpoint(path: "/users/\(id)")) }
            let paths = transport.requests.suffix(100).map { $0.url?.path }
            #expect(paths == (0..<100).map { "/users/\($0)" }, "round \(round)")
            // Full at 64, the cache starts again. The first round ends with /users/64 to 99 kept (36); the second
            // fills it up twice more (from 36, then from /users/28) and ends with /users/92 to 99 (8).
            #expect(client.requests.withLock { $0.count } == [36, 8][round], "round \(round)")
        }
    }

    @Test func anHTTPErrorKeepsStatusResponseAndBody() async throws {
        let client = TinyAPIClient(transport: StubTransport(status: 404, body: #"{"error":"no such user"}"#))
        let error = try await #require(throws: TinyAPIError.self) {
            try await client.request(TestAPIEndpoint(), as: [User].self)
        }
        #expect(error == .httpError(404))
        #expect(error.localizedDescription == "HTTP Error: 404")
        let transportError = try #require(error.underlyingError as? HTTPTransportError)
        #expect(transportError.response?.statusCode == 404)
        #expect(transportError.body?.text == #"{"error":"no such user"}"#)
    }

    @Test func anEmptyBodyIsNoDataUnlessTheTypeAllowsIt() async throws {
        let client = TinyAPIClient(transport: StubTransport(status: 204))
        await #expect(throws: TinyAPIError.noData) { try await client.request(TestAPIEndpoint(), as: [User].self) }
        #expect(try await client.request(TestAPIEndpoint(), as: [User]?.self) == nil)
        #expect(try await client.request(TestAPIEndpoint(), as: EmptyResponse.self) == EmptyResponse())
    }

    @Test func aDecodingErrorNamesTypeAndPath() async throws {
        let client = TinyAPIClient(transport: StubTransport(body: #"[{"name":1}]"#))
        let error = try await #require(throws: TinyAPIError.self) {
            try await client.request(TestAPIEndpoint(), as: [User].self)
        }
        guard case .decodingError(let message) = error.kind else {
            Issue.record("expected decodingError, got \(error)")
            return
        }
        #expect(message.hasPrefix("could not decode Array<User> at [0].name"))
        #expect(error.underlyingError is EndpointError)
    }

    @Test func transportFailuresAreNetworkErrorsAndCancellationIsItsOwn() async throws {
        let refused = HTTPTransportError(.cannotConnect, underlyingError: URLError(.cannotConnectToHost))
        let error = try await #require(throws: TinyAPIError.self) {
            try await TinyAPIClient(transport: StubTransport(failingWith: refused)).requestData(TestAPIEndpoint())
        }
        guard case .networkError = error.kind else {
            Issue.record("expected networkError, got \(error)")
            return
        }
        #expect((error.underlyingError as? HTTPTransportError)?.underlyingError is URLError)

        let cancelled = StubTransport(failingWith: HTTPTransportError(.cancelled))
        await #expect(throws: TinyAPIError(.cancelled)) {
            try await TinyAPIClient(transport: cancelled).requestData(TestAPIEndpoint())
        }
    }

    @Test func anInvalidBaseURLIsNamedAndNothingIsSent() async throws {
        let transport = StubTransport()
        let error = try await #require(throws: TinyAPIError.self) {
            try await TinyAPIClient(transport: transport).get(from: "not a url", path: "/users", as: [User].self)
        }
        #expect(error == .invalidURL)
        #expect(error.localizedDescription.contains(#""not a url""#))
        #expect(transport.requests.isEmpty)
    }

    @Test func requestDataReturnsTheBodyAsItCame() async throws {
        let client = TinyAPIClient(transport: StubTransport(body: "not json"))
        #expect(try await client.requestData(TestAPIEndpoint()).text == "not json")
        #expect(try await TinyAPIClient(transport: StubTransport(status: 204)).requestData(TestAPIEndpoint()).isEmpty)
        await #expect(throws: TinyAPIError.httpError(500)) {
            try await TinyAPIClient(transport: StubTransport(status: 500)).requestData(TestAPIEndpoint())
        }
    }

    @Test func getSendsQueryItemsAndHeaders() async throws {
        let transport = StubTransport(body: "[]")
        let users = try await TinyAPIClient(transport: transport).get(
            from: "https://api.example.com/v1", path: "/users", queryItems: [URLQueryItem(name: "page", value: "2")],
            headers: ["Authorization": "Bearer t"], as: [User].self)
        #expect(users.isEmpty)
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "GET")
        #expect(request.url?.absoluteString == "https://api.example.com/v1/users?page=2")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        #expect(request.httpBody == nil)
    }

    @Test(arguments: [HTTPMethod.post, .put, .patch])
    func bodyMethodsEncodeWithTheInjectedEncoder(method: HTTPMethod) async throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        struct NewUser: Encodable { var fullName: String }
        let transport = StubTransport(body: #"{"name":"Ada"}"#)
        let client = TinyAPIClient(transport: transport, encoder: encoder)
        let body = NewUser(fullName: "Ada L")
        let user: User
        let headers = ["Authorization": "Bearer t"]
        if method == .post {
            user = try await client.post(
                to: "https://x.dev", path: "/users", body: body, headers: headers, as: User.self)
        } else {
            user = try await client.send(
                method, to: "https://x.dev", path: "/users/1", body: body, headers: headers, as: User.self)
        }
        #expect(user == User(name: "Ada"))
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == method.rawValue)
        #expect(request.httpBody?.text == #"{"full_name":"Ada L"}"#)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer t")
    }

    @Test func deleteSendsNoBody() async throws {
        let transport = StubTransport(status: 204)
        let result = try await TinyAPIClient(transport: transport).delete(
            from: "https://x.dev", path: "/users/1", headers: ["Authorization": "Bearer t"], as: EmptyResponse.self)
        #expect(result == EmptyResponse())
        #expect(transport.requests.first?.httpMethod == "DELETE")
        #expect(transport.requests.first?.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        #expect(transport.requests.first?.httpBody == nil)
    }

    @Test func anUnencodableBodyIsAnEncodingErrorAndNothingIsSent() async throws {
        let transport = StubTransport()
        let error = try await #require(throws: TinyAPIError.self) {
            try await TinyAPIClient(transport: transport).post(
                to: "https://x.dev", path: "/r", body: ["value": Double.infinity], as: EmptyResponse.self)
        }
        guard case .encodingError(let message) = error.kind else {
            Issue.record("expected encodingError, got \(error)")
            return
        }
        #expect(message.contains("Dictionary<String, Double> at value"))
        #expect(error.underlyingError is EndpointError)
        #expect(transport.requests.isEmpty)
    }

    @Test func conveniencesWorkOnAnyAPIClientProtocol() async throws {
        /// A client that answers from memory, as a mock client would.
        struct EchoClient: APIClientProtocol {
            func request<T: Decodable & Sendable>(_ endpoint: any TinyAPIEndpoint, as type: T.Type) async throws -> T {
                let text = "\(endpoint.method) \(endpoint.path) \(try endpoint.body.map { $0.text } ?? "-")"
                return try JSONDecoder().decode(T.self, from: JSONEncoder().encode(text))
            }
            func requestData(_ endpoint: any TinyAPIEndpoint) async throws -> Data { Data() }
        }
        let client: any APIClientProtocol = EchoClient()
        #expect(try await client.get(from: "https://x.dev", path: "/a", as: String.self) == "GET /a -")
        #expect(try await client.post(to: "https://x.dev", path: "/b", body: [1], as: String.self) == "POST /b [1]")
        #expect(try await client.delete(from: "https://x.dev", path: "/c", as: String.self) == "DELETE /c -")
        // The default encoder's failure is a TinyAPIError too, as documented, keeping the EndpointError.
        let error = try await #require(throws: TinyAPIError.self) {
            try await client.post(to: "https://x.dev", path: "/d", body: ["value": Double.nan], as: String.self)
        }
        guard case .encodingError = error.kind else {
            Issue.record("expected encodingError, got \(error)")
            return
        }
        #expect(error.underlyingError is EndpointError)
    }

    @Test func theInjectedEncoderIsUsedThroughTheProtocolToo() async throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        struct Body: Encodable { var someKey = 1 }
        let transport = StubTransport(status: 204)
        let client: any APIClientProtocol = TinyAPIClient(transport: transport, encoder: encoder)
        _ = try await client.send(.put, to: "https://x.dev", path: "/p", body: Body(), as: EmptyResponse.self)
        #expect(transport.requests.first?.httpBody?.text == #"{"some_key":1}"#)
    }

    @Test func liveUsesTheSharedURLSessionTransport() {
        #expect(TinyAPIClient.live.transport is URLSessionTransport)
        #expect((TinyAPIClient.live.transport as? URLSessionTransport) === URLSessionTransport.shared)
        #expect((TinyAPIClient().transport as? URLSessionTransport) === URLSessionTransport.shared)
        #expect(TinyAPIClient.live.checksContentType)
    }
}
