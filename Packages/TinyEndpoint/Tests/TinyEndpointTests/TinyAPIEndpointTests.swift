import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyEndpoint

/// An endpoint described by its parts, for the tests.
struct TestAPIEndpoint: TinyAPIEndpoint {
    var baseURL = "https://api.example.com"
    var path = "/users"
    var method: HTTPMethod = .GET
    var headers: [String: String]?
    var queryItems: [URLQueryItem]?
    var body: Data?
}

@Suite(.timeLimit(.minutes(1))) struct TinyAPIEndpointTests {
    /// A body that cannot be encoded stops the request with an error naming the endpoint, instead of being dropped.
    @Test func aBodyThatFailsToEncodeIsAnErrorNotAMissingBody() throws {
        enum Create: TinyAPIEndpoint {
            case point(Double)
            var baseURL: String { "https://api.example.com" }
            var path: String { "/points" }
            var method: HTTPMethod { .POST }
            var body: Data? {
                get throws {
                    switch self {
                    case .point(let value): try JSONEncoder().encode(["x": value])
                    }
                }
            }
        }
        #expect(try Create.point(1).makeRequest().httpBody == Data(#"{"x":1}"#.utf8))
        let error = #expect(throws: EndpointError.self) { try Create.point(.nan).makeRequest() }
        guard case .encodingFailed(let type, _, _) = error else {
            Issue.record("expected encodingFailed, got \(String(describing: error))")
            return
        }
        #expect(type.contains("Create"))
    }

    @Test(arguments: [
        ("https://x.dev/api/v4", "/users", "https://x.dev/api/v4/users"),
        ("https://x.dev/api/v4/", "/users", "https://x.dev/api/v4/users"),
        ("https://x.dev/api/v4", "users", "https://x.dev/api/v4/users"),
        ("https://x.dev", "/users/1", "https://x.dev/users/1"),
        ("https://x.dev/", "", "https://x.dev/"),
        ("http://127.0.0.1:8080/base", "/a b/ü", "http://127.0.0.1:8080/base/a%20b/%C3%BC"),
        // The base URL's query, fragment, user, port and percent-encoding are kept; the path goes before the query.
        ("https://x.dev/api/v4?key=k", "/users", "https://x.dev/api/v4/users?key=k"),
        ("https://x.dev/v1#top", "/users", "https://x.dev/v1/users#top"),
        ("https://ada:pw@x.dev:8443/v1/", "/a/b/", "https://ada:pw@x.dev:8443/v1/a/b/"),
        ("https://x.dev/a%20b", "c d", "https://x.dev/a%20b/c%20d"),
        ("https://x.dev///", "//users//1", "https://x.dev/users//1"),
        // The path is text: `%`, `?` and `#` in it are sent literally, never as an escape, a query or a fragment.
        ("https://x.dev/v1", "/items/a%2Fb", "https://x.dev/v1/items/a%252Fb"),
        ("https://x.dev/v1", "/find?q=1#f", "https://x.dev/v1/find%3Fq=1%23f"),
        ("https://x.dev", "/é/日本", "https://x.dev/%C3%A9/%E6%97%A5%E6%9C%AC"),
        ("http://[::1]:8080/base", "/x", "http://[::1]:8080/base/x"),
        ("https://x.dev:65535", "/x", "https://x.dev:65535/x"),  // the highest port
    ])
    func appendsThePathToTheBaseURLsPath(base: String, path: String, expected: String) throws {
        let request = try TestAPIEndpoint(baseURL: base, path: path).makeRequest()
        #expect(request.url?.absoluteString == expected)
    }

    @Test func appendsQueryItemsInOrderAfterTheBaseURLsOwn() throws {
        let endpoint = TestAPIEndpoint(
            baseURL: "https://x.dev/api?key=k", path: "/search",
            queryItems: [
                URLQueryItem(name: "q", value: "swift & c++"), URLQueryItem(name: "page", value: "2"),
                URLQueryItem(name: "flag", value: nil),
            ])
        #expect(
            try endpoint.makeRequest().url?.absoluteString
                == "https://x.dev/api/search?key=k&q=swift%20%26%20c%2B%2B&page=2&flag")
    }

    @Test(arguments: [
        ("https://x.dev/api", "", [URLQueryItem(name: "a", value: "1")], "https://x.dev/api?a=1"),
        ("https://x.dev/api?", "/s", [URLQueryItem(name: "a", value: "1")], "https://x.dev/api/s?a=1"),
        ("https://x.dev/api?k=1", "/s", [], "https://x.dev/api/s?k=1"),
        ("https://x.dev/api", "/s", [], "https://x.dev/api/s"),
        ("https://x.dev/api#f", "/s", [URLQueryItem(name: "a", value: "1")], "https://x.dev/api/s?a=1#f"),
        (
            "https://x.dev", "/s",
            [URLQueryItem(name: "a b", value: "x=y&z"), URLQueryItem(name: "p", value: "1+1/2?#")],
            "https://x.dev/s?a%20b=x%3Dy%26z&p=1%2B1%2F2%3F%23"
        ),
        (
            "https://x.dev", "/s", [URLQueryItem(name: "q", value: "é"), URLQueryItem(name: "e", value: "")],
            "https://x.dev/s?q=%C3%A9&e="
        ),
        (
            "https://x.dev/s?b=%20x", "",
            [URLQueryItem(name: "b", value: "y"), URLQueryItem(name: "b", value: "~-._")],
            "https://x.dev/s?b=%20x&b=y&b=~-._"
        ),
    ])
    func appendsQueryItemsPercentEncoded(base: String, path: String, items: [URLQueryItem], expected: String)
        throws
    {
        let request = try TestAPIEndpoint(baseURL: base, path: path, queryItems: items).makeRequest()
        #expect(request.url?.absoluteString == expected)
        // What was appended reads back as it was given.
        let read = try #require(request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) })
        #expect(Array((read.queryItems ?? []).suffix(items.count)) == items)
    }

    @Test func sendsContentTypeOnlyWithABody() throws {
        let get = try TestAPIEndpoint().makeRequest()
        #expect(get.httpMethod == "GET")
        #expect(get.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(get.value(forHTTPHeaderField: "Content-Type") == nil)
        #expect(get.httpBody == nil)

        let post = try TestAPIEndpoint(method: .POST, body: Data("{}".utf8)).makeRequest()
        #expect(post.httpMethod == "POST")
        #expect(post.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(post.httpBody == Data("{}".utf8))
    }

    @Test func headersComeLastAndWin() throws {
        let request = try TestAPIEndpoint(
            headers: ["Accept": "text/csv", "Authorization": "Bearer t"], body: Data("a,b".utf8)
        ).makeRequest()
        #expect(request.value(forHTTPHeaderField: "Accept") == "text/csv")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test(arguments: [
        "", "not a url", "/relative/path", "api.example.com", "//api.example.com", "https://", "https://x:70000",
    ])
    func anInvalidBaseURLIsAnErrorNamingIt(base: String) throws {
        let error = try #require(throws: EndpointError.self) { try TestAPIEndpoint(baseURL: base).makeRequest() }
        guard case .invalidURL(let url, _) = error else {
            Issue.record("expected invalidURL, got \(error)")
            return
        }
        #expect(url == base)
        #expect(error.description.contains("\"\(base)\""))
    }

    /// URLSession removes dot segments: `../admin` would leave the base URL's path, so it is refused.
    @Test(arguments: ["../admin", "users/..", "./users", "a/./b"])
    func aPathWithDotSegmentsIsAnErrorNamingIt(path: String) throws {
        let error = try #require(throws: EndpointError.self) {
            try TestAPIEndpoint(baseURL: "https://x/v1", path: path).makeRequest()
        }
        guard case .invalidURL(let url, let reason) = error else {
            Issue.record("expected invalidURL, got \(error)")
            return
        }
        #expect(url == path)
        #expect(reason.contains("segment"))
        // Dots inside a segment, or percent-encoded (sent literally, as %252E), are ordinary text.
        #expect(throws: Never.self) { try TestAPIEndpoint(path: "v1.2/..hidden/%2E%2E").makeRequest() }
    }

    /// Never concatenated onto the base URL: `https://x/v1/https:/other.example/x` would reach the wrong server's
    /// path or the right server's wrong one.
    @Test(arguments: ["https://other.example/x", "http://127.0.0.1:8080/admin", "HTTPS://OTHER/x", "ws+tls://h"])
    func anAbsoluteURLAsThePathIsAnErrorNamingIt(path: String) throws {
        let error = try #require(throws: EndpointError.self) {
            try TestAPIEndpoint(baseURL: "https://api.example.com/v1", path: path).makeRequest()
        }
        guard case .invalidURL(let url, let reason) = error else {
            Issue.record("expected invalidURL, got \(error)")
            return
        }
        #expect(url == path)
        #expect(reason.contains("absolute URL"))
        #expect(error.description.contains("\"\(path)\""))
    }

    /// A colon or `//` further in is ordinary path text.
    @Test(arguments: [
        ("/users:batchGet", "/v1/users:batchGet"), ("files/a://b", "/v1/files/a://b"), ("1http://x", "/v1/1http://x"),
    ])
    func colonsInsideThePathAreText(path: String, expected: String) throws {
        let request = try TestAPIEndpoint(baseURL: "https://api.example.com/v1", path: path).makeRequest()
        #expect(request.url?.path == expected)
    }

    @Test func protocolDefaultsAreNil() throws {
        struct Minimal: TinyAPIEndpoint {
            var baseURL: String { "https://x.dev" }
            var path: String { "/ping" }
            var method: HTTPMethod { .head }
        }
        #expect(Minimal().headers == nil && Minimal().queryItems == nil && Minimal().body == nil)
        #expect(try Minimal().makeRequest().httpMethod == "HEAD")
    }

    @Test func convertsToAnEndpointThatLoadsAnywhere() async throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        struct Profile: Decodable, Equatable { var displayName: String }
        let endpoint = try TestAPIEndpoint(path: "/me").endpoint(as: Profile.self, decoder: decoder)
        #expect(endpoint.request.url?.absoluteString == "https://api.example.com/me")
        let transport = StubTransport(body: #"{"display_name":"Ada"}"#)
        #expect(try await transport.load(endpoint) == Profile(displayName: "Ada"))
        await #expect(throws: HTTPTransportError.self) { try await StubTransport(status: 500).load(endpoint) }
    }
}
