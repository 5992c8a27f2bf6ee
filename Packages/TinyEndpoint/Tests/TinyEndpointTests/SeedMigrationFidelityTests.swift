import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyEndpoint

/// What code written for TinyNetworking, TinyHTTP or tinyAPI gets after switching to TinyKit with no source change.
///
/// Each test quotes what the seed's own source does. Where TinyKit does the same, the test expects it; where TinyKit
/// differs on purpose, the test expects TinyKit's behaviour, shows the seed's beside it, and names the "Coming from …"
/// document (`Docs/ComingFrom*.md`) that tells a migrating user.
@Suite(.timeLimit(.minutes(1))) struct SeedMigrationFidelityTests {
    /// A response with the given `Content-Type`.
    private func response(contentType: String) throws -> HTTPURLResponse {
        try makeResponse(200, for: URLRequest(url: apiURL()), headers: ["Content-Type": contentType])
    }

    /// TinyNetworking's `Endpoint(json:url:)` (`decoder.decode(A.self, from: dat)`), TinyHTTP's
    /// `JSONDecoder.decodeResponse` (`self.decode(T.self, from: data)`) and tinyAPI's `request(_:as:)`
    /// (`decoder.decode(type, from: data)`) all decode a JSON string response `"tok_123"` as `tok_123`. TinyKit
    /// returned the body as text, so the value silently kept its JSON quotes.
    @Test func aJSONStringResponseDecodesWithoutItsQuotesAsInTheSeeds() async throws {
        let json = try response(contentType: "application/json")
        let body = Data(#""tok_123""#.utf8)
        let tinyNetworking = Endpoint<String>(json: .get, url: try apiURL("/token")).parse(body, json)
        let tinyHTTP = Result { try JSONDecoder().decodeResponse(body, json) as String }
        let transport = StubTransport(body: #""tok_123""#, headers: ["Content-Type": "application/json"])
        let tinyAPI = try await TinyAPIClient(transport: transport).request(
            TestAPIEndpoint(path: "/token"), as: String.self)
        #expect(tinyNetworking.value == "tok_123")
        #expect(tinyHTTP.value == "tok_123")
        #expect(tinyAPI == "tok_123")
    }

    /// No seed looks at the response's `Content-Type` before decoding: each decodes JSON that a server labels
    /// `text/plain` (a static file host, many PHP back ends). TinyKit refuses it with
    /// `EndpointError.unexpectedContentType` (for tinyAPI a `decodingError` keeping it) unless
    /// `checksContentType: false`; TinyHTTP's `decodeResponse` always checks, so a decode function of your own
    /// replaces it. Differs from TinyNetworking, TinyHTTP and tinyAPI: documented in
    /// Docs/ComingFromTinyNetworking.md, Docs/ComingFromTinyHTTP.md and Docs/ComingFromTinyAPI.md.
    @Test func jsonLabelledAsPlainTextIsRefusedUnlikeTheSeeds() async throws {
        let plain = try response(contentType: "text/plain; charset=utf-8")
        let body = Data(#"{"name":"Ada"}"#.utf8)
        #expect(try JSONDecoder().decode(User.self, from: body) == User(name: "Ada"))  // what each seed does
        let request = URLRequest(method: .get, url: try apiURL("/users/ada"))
        let tinyHTTP = Endpoint<User>(request: request, decodeResponse: JSONDecoder().decodeResponse).parse(body, plain)
        let tinyNetworking = Endpoint<User>(json: .get, url: try apiURL("/users/ada")).parse(body, plain)
        let transport = StubTransport(body: #"{"name":"Ada"}"#, headers: ["Content-Type": "text/plain"])
        let tinyAPI = await Result<User, any Error>.of {
            try await TinyAPIClient(transport: transport).request(TestAPIEndpoint(path: "/users/ada"), as: User.self)
        }
        for error in [tinyHTTP.error, tinyNetworking.error, (tinyAPI.error as? TinyAPIError)?.underlyingError] {
            guard case .unexpectedContentType(let contentType, _) = error as? EndpointError else {
                Issue.record("expected unexpectedContentType, got \(String(describing: error))")
                continue
            }
            #expect(contentType.hasPrefix("text/plain"))
        }
        let tinyAPIKind = (tinyAPI.error as? TinyAPIError)?.kind
        #expect(tinyAPIKind == .decodingError(#"expected a JSON response, got Content-Type "text/plain""#))

        // The opt-outs the documents name.
        let lenient = Endpoint<User>(json: .get, url: try apiURL("/users/ada"), checksContentType: false)
        #expect(lenient.parse(body, plain).value == User(name: "Ada"))
        let ownDecode = Endpoint<User>(
            request: request, decodeResponse: { data, _ in try JSONDecoder().decode(User.self, from: data ?? Data()) })
        #expect(ownDecode.parse(body, plain).value == User(name: "Ada"))
        let lenientClient = TinyAPIClient(transport: transport, checksContentType: false)
        let lenientUser = try await lenientClient.request(TestAPIEndpoint(path: "/users/ada"), as: User.self)
        #expect(lenientUser == User(name: "Ada"))
        let lenientEndpoint = try TestAPIEndpoint(path: "/users/ada").endpoint(as: User.self, checksContentType: false)
        #expect(lenientEndpoint.parse(body, plain).value == User(name: "Ada"))
    }

    /// TinyNetworking's `Endpoint<()>(json:url:body:)` (`try! encoder.encode(body)`, `contentType: .json`) and
    /// tinyAPI's `post(to:path:body:as:)` (`try encoder.encode(body)`) send any `Encodable` body as JSON: a `String`
    /// goes out as the JSON string `"Buy milk"` with `Content-Type: application/json`, a `Data` as a base64 JSON
    /// string. TinyKit sends a `String` as text, `Buy milk` with `text/plain; charset=utf-8`, and a `Data` as it is,
    /// with `application/octet-stream`; JSON bytes of your own with a JSON `Content-Type` send what the seeds sent.
    /// Differs from TinyNetworking and tinyAPI: documented in Docs/ComingFromTinyNetworking.md and
    /// Docs/ComingFromTinyAPI.md.
    @Test func aStringBodyIsSentAsTextUnlikeTheSeeds() async throws {
        let seedBody = try JSONEncoder().encode("Buy milk")  // what the seeds sent
        #expect(seedBody == Data(#""Buy milk""#.utf8))
        let endpoint = Endpoint<()>(json: .put, url: try apiURL("/todos/1/title"), body: "Buy milk")
        let bytes = Endpoint<()>(json: .put, url: try apiURL("/todos/1/photo"), body: Data([1, 2]))
        let transport = StubTransport(body: "{}", headers: ["Content-Type": "application/json"])
        let client = TinyAPIClient(transport: transport)
        _ = try await client.post(
            to: "https://api.example.com", path: "/notes", body: "Buy milk", as: EmptyResponse.self)
        let posted = try #require(transport.requests.first)
        #expect(endpoint.request.httpBody == Data("Buy milk".utf8))
        #expect(endpoint.request.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
        #expect(bytes.request.httpBody == Data([1, 2]))  // the seeds: the JSON string "AQI="
        #expect(bytes.request.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
        #expect(posted.httpBody == Data("Buy milk".utf8))
        #expect(posted.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")

        // A JSON string, as the documents say: the encoded bytes with a JSON `Content-Type`.
        let json = ["Content-Type": "application/json"]
        let jsonEndpoint = Endpoint<()>(json: .put, url: try apiURL("/todos/1/title"), body: seedBody, headers: json)
        _ = try await client.post(
            to: "https://api.example.com", path: "/notes", body: seedBody, headers: json, as: EmptyResponse.self)
        let jsonPosted = try #require(transport.requests.last)
        #expect(jsonEndpoint.request.httpBody == seedBody)
        #expect(jsonEndpoint.request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(jsonPosted.httpBody == seedBody)
        #expect(jsonPosted.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    /// tinyAPI's `buildRequest` sets `Content-Type: application/json` and `Accept: application/json` on every request,
    /// a `GET` or `DELETE` without a body too. TinyKit sends `Content-Type` only with a body; an endpoint's `headers`
    /// can add it back. Differs from tinyAPI: documented in Docs/ComingFromTinyAPI.md.
    @Test func aBodilessTinyAPIRequestCarriesNoContentTypeUnlikeTinyAPI() throws {
        let request = try TestAPIEndpoint(path: "/users/1", method: .DELETE).makeRequest()
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == nil)  // tinyAPI: application/json
        let withBody = try TestAPIEndpoint(path: "/users", method: .POST, body: Data("{}".utf8)).makeRequest()
        #expect(withBody.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let asTinyAPI = try TestAPIEndpoint(
            path: "/users/1", method: .DELETE, headers: ["Content-Type": "application/json"]
        ).makeRequest()
        #expect(asTinyAPI.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    /// TinyNetworking's `load(_:onComplete:)` and TinyHTTP's `dataTask(endpoint:)` hand `URLSession`'s own error to
    /// the callback: a cancelled task is `URLError(.cancelled)`, which apps test to stay quiet
    /// (`if (error as? URLError)?.code == .cancelled { return }`). TinyKit hands an `HTTPTransportError` with the code
    /// `cancelled` and the `URLError` as its `underlyingError`, so that check becomes
    /// `(error as? HTTPTransportError)?.code == .cancelled`. Differs from TinyNetworking and TinyHTTP: documented in
    /// Docs/ComingFromTinyNetworking.md and Docs/ComingFromTinyHTTP.md.
    @Test func aCancelledDataTaskFailsWithHTTPTransportErrorUnlikeTheSeeds() async throws {
        let endpoint = Endpoint<()>(.get, url: try requireURL("http://127.0.0.1:1/nothing"))
        let error = await withCheckedContinuation { continuation in
            let task = URLSession.shared.dataTask(endpoint: endpoint) { continuation.resume(returning: $0.error) }
            task.cancel()
            task.resume()
        }
        #expect((error as? HTTPTransportError)?.code == .cancelled)
        let transportError = try #require(error as? HTTPTransportError)
        #expect((transportError.underlyingError as? URLError)?.code == .cancelled)  // kept, one level down
        #expect(!(error is URLError))  // the seeds' `(error as? URLError)?.code == .cancelled` no longer matches
    }

    /// tinyAPI's `networkError` carries `error.localizedDescription`, the system's sentence for users, which its
    /// README puts on screen (`.failure(error.localizedDescription)`, `Text("Error: \(error)")`); TinyKit's carries
    /// the same sentence (the `URLError`'s), as "Coming from tinyAPI" says. TinyKit's text was the transport error's
    /// developer description (method, URL and URLError code), which `description` keeps.
    @Test func aNetworkErrorReadsAsInTinyAPI() async throws {
        let client = TinyAPIClient()  // the live transport; nothing listens on port 1 of the loopback interface
        let result = await Result<[User], any Error>.of {
            try await client.get(from: "http://127.0.0.1:1", path: "/users", as: [User].self)
        }
        let error = try #require(result.error as? TinyAPIError)
        let urlError = try #require((error.underlyingError as? HTTPTransportError)?.underlyingError)
        guard case .networkError = error.kind else {
            Issue.record("expected a networkError, got \(error.kind)")
            return
        }
        #expect(error.localizedDescription == "Network Error: \(urlError.localizedDescription)")
        #expect(error == .networkError(urlError.localizedDescription))
        #expect(error.description.contains("GET http://127.0.0.1:1/users"))
    }

    /// tinyAPI's `decodingError` carried the `DecodingError`'s `localizedDescription` ("The data couldn’t be read
    /// because it is missing."), shown on screen as above. TinyKit's message names the type and the coding path
    /// instead, without the response body, which would reach the user's screen (and whatever the app logs the
    /// message to): the body stays in `underlyingError`. Differs from tinyAPI: documented in
    /// Docs/ComingFromTinyAPI.md.
    @Test func aDecodingErrorNamesTheTypeAndCodingPathUnlikeTinyAPI() async throws {
        let transport = StubTransport(
            body: #"{"email":"ada@example.com"}"#, headers: ["Content-Type": "application/json"])
        let result = await Result<User, any Error>.of {
            try await TinyAPIClient(transport: transport).request(TestAPIEndpoint(path: "/users/1"), as: User.self)
        }
        let error = try #require(result.error as? TinyAPIError)
        let endpointError = try #require(error.underlyingError as? EndpointError)
        guard case .decodingFailed(_, _, let underlying, let body) = endpointError else {
            Issue.record("expected decodingFailed, got \(String(describing: error.underlyingError))")
            return
        }
        #expect(error.localizedDescription == "Decoding failed: could not decode User at name: key \"name\" not found")
        #expect(error.localizedDescription != "Decoding failed: \(underlying.localizedDescription)")  // tinyAPI's
        #expect(!error.localizedDescription.contains("ada@example.com"))
        #expect(body == Data(#"{"email":"ada@example.com"}"#.utf8))
    }

    /// TinyHTTP's `appendingRelative` is `URL(string: string, relativeTo: self)!`: it resolves the argument against
    /// the base, so a base without a trailing slash loses its last segment, an absolute path replaces the base's, and
    /// `?` starts a query. TinyKit's appends the argument to the base's path, percent-encoding `?` and `#`; a query
    /// goes through `appendingQueryItems`. With a trailing-slash base and a plain relative path, as in TinyHTTP's
    /// README, both give the same URL. Differs from TinyHTTP: documented in Docs/ComingFromTinyHTTP.md.
    @Test(arguments: [
        (
            "https://api.example.com/v1/", "todos?userId=1", "https://api.example.com/v1/todos%3FuserId=1",
            "https://api.example.com/v1/todos?userId=1"
        ),
        (
            "https://api.example.com/v1/todos/", "/users", "https://api.example.com/v1/todos/users",
            "https://api.example.com/users"
        ),
        ("https://api.example.com/v1/todos", "5", "https://api.example.com/v1/todos/5", "https://api.example.com/v1/5"),
        (
            "https://jsonplaceholder.typicode.com/todos/", "1", "https://jsonplaceholder.typicode.com/todos/1",
            "https://jsonplaceholder.typicode.com/todos/1"
        ),
    ])
    func appendingRelativeAppendsToTheBasePathUnlikeTinyHTTP(
        base: String, relative: String, tinyKit: String, tinyHTTP: String
    ) throws {
        let base = try requireURL(base)
        #expect(base.appendingRelative(relative).absoluteString == tinyKit)
        #expect(try #require(URL(string: relative, relativeTo: base)).absoluteString == tinyHTTP)  // TinyHTTP's
    }

    /// TinyHTTP's `appendingRelative("todos?userId=1")` is TinyKit's `appendingRelative("todos")` followed by
    /// `appendingQueryItems`, as "Coming from TinyHTTP" says.
    @Test func aQueryIsAppendedWithAppendingQueryItems() throws {
        let base = try requireURL("https://api.example.com/v1/")
        let tinyHTTP = try #require(URL(string: "todos?userId=1", relativeTo: base)).absoluteString
        let url = base.appendingRelative("todos").appendingQueryItems([URLQueryItem(name: "userId", value: "1")])
        #expect(url.absoluteString == tinyHTTP)
    }
}

extension Result where Failure == any Error {
    /// The result of an async throwing call.
    fileprivate static func of(_ body: () async throws -> Success) async -> Self {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    /// The success, `nil` on failure.
    fileprivate var value: Success? { try? get() }
}
