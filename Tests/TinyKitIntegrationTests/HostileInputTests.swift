import Foundation
import Testing
import TinyKit
import TinyKitTestServer

/// Hostile input from the caller: bad base URLs and paths, header values that would inject lines, query text that
/// needs every kind of escaping, bodies that cannot be encoded, mock paths that try to leave their directory. Each
/// gives a clear error or arrives intact; none crashes.
@Suite(.timeLimit(.minutes(1))) struct HostileInputTests {
    private struct APIEndpoint: TinyAPIEndpoint {
        var baseURL: String
        var path: String
        var method: HTTPMethod = .get
        var headers: [String: String]? = nil
        var queryItems: [URLQueryItem]? = nil
    }

    @Test(arguments: [
        "", " ", "not a url", "api.example.com/v1", "//api.example.com", "http://", "http:///path",
        "file:///etc/passwd",
        "http://exa mple.com", "ht tp://example.com", "http://[::1", "http://example.com:99999999999",
        "http://example.com\r\nX: y", "mailto:someone@example.com",
    ])
    func invalidBaseURLsAreRefusedBeforeSending(baseURL: String) async throws {
        let endpoint = APIEndpoint(baseURL: baseURL, path: "/users")
        #expect {
            _ = try endpoint.makeRequest()
        } throws: { error in
            guard case EndpointError.invalidURL(let url, let reason) = error else { return false }
            return url == baseURL && !reason.isEmpty
        }
        let transport = MockTransport()
        let client = TinyAPIClient(transport: transport)
        await #expect(throws: TinyAPIError.invalidURL) { try await client.request(endpoint, as: [String].self) }
        #expect(transport.requests.isEmpty)
    }

    /// Paths with spaces, unicode, reserved characters and escapes arrive at the server as one literal path.
    @Test(arguments: [
        ("users/a b", "/v1/users/a b"),
        ("users/ü/😀", "/v1/users/ü/😀"),
        ("/users/?id=1#frag", "/v1/users/?id=1#frag"),
        ("users/%zz%2F", "/v1/users/%zz%2F"),
        ("users/a;b,c=d&e", "/v1/users/a;b,c=d&e"),
        ("%2E%2E/admin", "/v1/%2E%2E/admin"),
        ("", "/v1"),
    ])
    func pathsNeedingEscapingArriveLiterally(path: String, received: String) async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /*") { _ in .json(200, "[]") }
        let client = TinyAPIClient(transport: URLSessionTransport(configuration: .ephemeral))
        let endpoint = APIEndpoint(baseURL: server.baseURL.absoluteString + "/v1", path: path)

        _ = try await bounded { try await client.request(endpoint, as: [Int].self) }

        #expect(server.requests.map(\.path) == [received])
        #expect(server.requests.first?.rawQuery == "")
    }

    /// A `.` or `..` segment would take the request out of the base URL's path (URLSession removes dot segments), so
    /// it is refused before anything is sent.
    @Test(arguments: ["../admin", "users/../../admin", "./users", "users/..", "/..", "a/./b"])
    func dotSegmentsInAPathAreRefused(path: String) async throws {
        let endpoint = APIEndpoint(baseURL: "https://api.example.com/v1", path: path)
        #expect {
            _ = try endpoint.makeRequest()
        } throws: { error in
            guard case EndpointError.invalidURL(let url, let reason) = error else { return false }
            return url == path && (reason.contains("\"..\"") || reason.contains("\".\""))
        }
    }

    @Test(arguments: [
        ["X-Evil": "a\r\nInjected: 1"], ["X-Evil": "a\nb"], ["X-Evil": "a\rb"], ["X-Evil": "a\0b"],
        ["X-Evil\r\nInjected": "1"],
    ])
    func headerValuesWithLineBreaksAreRefusedNamingTheHeader(headers: [String: String]) async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let transport = URLSessionTransport(configuration: .ephemeral)
        let name = try #require(headers.keys.first)

        let endpoint = Endpoint<EmptyResponse>(json: .get, url: server.url("/echo"), headers: headers)
        let error = await #expect(throws: HTTPTransportError.self) { try await transport.load(endpoint) }
        #expect(error?.code == .invalidRequest)
        let named = name.contains("Injected") ? name.debugDescription : "\"\(name)\""
        #expect(error?.message?.contains(named) == true, "\(String(describing: error?.message))")

        let client = TinyAPIClient(transport: transport)
        let api = APIEndpoint(baseURL: server.baseURL.absoluteString, path: "/echo", headers: headers)
        let apiError = await #expect(throws: TinyAPIError.self) {
            try await client.request(api, as: EmptyResponse.self)
        }
        #expect((apiError?.underlyingError as? HTTPTransportError)?.code == .invalidRequest)
        // The error never prints the refused value.
        #expect(error.map { "\($0)".contains("Injected: 1") } == false)
        #expect(server.requests.isEmpty)
    }

    /// A URL that `URL` accepts but no socket can reach fails with an error, not a crash.
    @Test(arguments: ["http://127.0.0.1:99999999999/x", "http://127.0.0.1:65536/x", "gopher://127.0.0.1/x"])
    func unreachableURLsFailCleanly(text: String) async throws {
        let url = try #require(URL(string: text))
        let transport = URLSessionTransport(configuration: .ephemeral)
        await #expect(throws: HTTPTransportError.self) {
            try await bounded { try await transport.load(Endpoint<EmptyResponse>(json: .get, url: url)) }
        }
    }

    /// A string that is not even a URL cannot become a request at all: `URL(string:)` refuses it.
    @Test func anUnbalancedIPv6HostIsNotAURL() {
        #expect(URL(string: "http://[::1/x") == nil)
    }

    static let awkwardText = [
        " ", "+", "&", "=", "?", "#", "/", "%", "%20", "ü", "😀", "\"", "'", "<>", ";", ",", "a+b c", "\\", "`", "[]",
        "{}", "|", "^", "~", "*", "e\u{301}", "tab\there", "line\nbreak",
    ]

    /// Every awkward text as a query name and value, through `TinyAPIEndpoint.queryItems` and `Endpoint`'s `query`
    /// dictionary: the real server decodes exactly what was given.
    @Test func queryTextNeedingEveryKindOfEscapingRoundTrips() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /*") { _ in .json(200, "{}") }
        let transport = URLSessionTransport(configuration: .ephemeral)
        let items =
            Self.awkwardText.enumerated().flatMap { index, text in
                [URLQueryItem(name: "v\(index)", value: text), URLQueryItem(name: text, value: "n\(index)")]
            } + [URLQueryItem(name: "empty", value: ""), URLQueryItem(name: "novalue", value: nil)]

        let api = APIEndpoint(baseURL: server.baseURL.absoluteString, path: "/q", queryItems: items)
        _ = try await bounded { try await TinyAPIClient(transport: transport).request(api, as: EmptyResponse.self) }
        let query = Dictionary(Self.awkwardText.enumerated().map { ("k\($0)", $1) }) { first, _ in first }
        _ = try await bounded {
            try await transport.load(Endpoint<EmptyResponse>(json: .get, url: server.url("/d"), query: query))
        }

        let seen = server.requests
        try #require(seen.count == 2)
        #expect(seen[0].query == items.map { RecordedRequest.QueryItem(name: $0.name, value: $0.value ?? "") })
        let expectedDictionary = query.sorted { $0.key < $1.key }.map { RecordedRequest.QueryItem(name: $0, value: $1) }
        #expect(seen[1].query == expectedDictionary)
    }

    private struct Refusing: Encodable {
        struct Refusal: Error {}
        func encode(to encoder: any Encoder) throws { throw Refusal() }
    }

    private struct Measurement: Encodable {
        var name = "probe"
        var values: [Double]
    }

    /// The endpoint is made (TinyNetworking's initialisers do not throw); loading it throws the encoding error
    /// before anything is sent: the server on port 1 is never contacted, so the error is not `cannotConnect`.
    @Test func bodiesThatFailToEncodeGiveAnEncodingError() async throws {
        let url = try #require(URL(string: "http://127.0.0.1:1/items"))
        let refusing = Endpoint<EmptyResponse>(json: .post, url: url, body: Refusing())
        await #expect {
            try await URLSessionTransport.shared.load(refusing)
        } throws: { error in
            guard case EndpointError.encodingFailed(let type, _, let underlying) = error else { return false }
            return type.hasSuffix("Refusing") && underlying is Refusing.Refusal
        }
        for value in [Double.nan, .infinity, -.infinity] {
            let endpoint = Endpoint<Void>(json: .post, url: url, body: Measurement(values: [1, value]))
            #expect(endpoint.request.httpBody == nil)
            await #expect {
                try await URLSession.shared.load(endpoint)
            } throws: { error in
                guard case EndpointError.encodingFailed(_, let codingPath, _) = error else { return false }
                return codingPath == "values[1]"
            }
        }
        #expect(throws: TinyAPIError.self) { try TinyAPIClient().encode(body: Measurement(values: [.nan])) }
        let kind = try? TinyAPIClient().encode(body: Refusing())
        #expect(kind == nil)
    }

    /// Paths that try to leave the mock directory never read the file outside it.
    @Test(arguments: [
        "/../secret", "/%2E%2E/secret", "/a/%2F..%2Fsecret", "/a/..%2F..%2Fsecret", "/..%5Csecret", "/%00secret",
    ])
    func mockPathsCannotLeaveTheMockDirectory(path: String) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        let mocks = root.appendingPathComponent("mocks")
        try FileManager.default.createDirectory(at: mocks, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for name in ["mock_get_secret.json", "secret", "mock_get_.._secret.json"] {
            try Data(#"{"secret":true}"#.utf8).write(to: root.appendingPathComponent(name))
        }
        let transport = MockTransport(files: MockFiles(directory: mocks))
        let url = try #require(URL(string: "https://api.example.com" + path))

        let error = await #expect(throws: HTTPTransportError.self) { try await transport.send(URLRequest(url: url)) }

        #expect(error?.underlyingError is MockError, "\(path): \(String(describing: error))")
    }
}
