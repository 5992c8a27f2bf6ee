import Foundation
import Testing
import TinyHTTPTransport

// The README's quick start, verbatim, compiled here:
func loadTodo(id: Int, baseURL: URL, transport: any HTTPTransport = URLSessionTransport.shared) async throws -> Data {
    let url = baseURL.appendingRelative("todos/\(id)").appendingQueryParameters(["fields": "id,title", "q": "a+b"])
    var request = URLRequest(method: .get, url: url)
    request.httpAccept(.json)
    let (body, response) = try await transport.send(request)
    try validateStatus(response: response, body: body, request: request)
    return body
}

/// A transport that answers every request with one status and body, and records the requests.
private final class CannedTransport: HTTPTransport {
    let status: Int
    let body: Data
    let requests = Recorder<URLRequest>()

    init(status: Int, body: String) {
        self.status = status
        self.body = Data(body.utf8)
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        requests.append(request)
        guard let url = request.url,
            let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: nil, headerFields: nil)
        else { throw HTTPTransportError(.invalidRequest, request: request) }
        return (body, response)
    }
}

/// The README's quick start, run against a canned transport.
@Suite(.timeLimit(.minutes(1))) struct ReadmeTests {
    let baseURL = URL(fileURLWithPath: "/api/v1")

    @Test func quickStartBuildsTheRequestAndReturnsTheBody() async throws {
        let transport = CannedTransport(status: 200, body: #"{"id":3,"title":"Write docs"}"#)
        let body = try await loadTodo(id: 3, baseURL: baseURL, transport: transport)
        #expect(String(decoding: body, as: UTF8.self) == #"{"id":3,"title":"Write docs"}"#)
        let request = try #require(transport.requests.all.last)
        #expect(request.url?.path == "/api/v1/todos/3")
        #expect(request.url?.query == "fields=id%2Ctitle&q=a%2Bb")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
    }

    @Test func quickStartThrowsOnAnUnacceptableStatus() async throws {
        let transport = CannedTransport(status: 404, body: #"{"error":"no such todo"}"#)
        let error = try await #require(throws: HTTPTransportError.self) {
            try await loadTodo(id: 9, baseURL: baseURL, transport: transport)
        }
        #expect(error.code == .unacceptableStatus(404))
        #expect(error.description.contains("no such todo"))
    }
}

// The README's middleware section, verbatim, compiled here:
actor SessionTokens: CredentialProvider {
    private var token = "initial"
    func credential() async throws -> String? { "Bearer \(token)" }
    func refreshCredential(rejected: String?) async throws -> String {
        token = "refreshed"  // ask your auth server here
        return "Bearer \(token)"
    }
}

func makeMiddlewareTransport(tokens: SessionTokens, base: any HTTPTransport = URLSessionTransport.shared)
    -> any HTTPTransport
{
    base.with(
        .retry(RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(500))),  // each attempt goes through the ones below
        .authorization(tokens),
        .defaultHeaders(["User-Agent": "MyApp/1.0"]))
}

/// The README's middleware section, run against a closure transport that refuses the initial credential once.
@Suite(.timeLimit(.minutes(1))) struct ReadmeMiddlewareTests {
    @Test func middlewareSectionRefreshesTheCredentialAndSetsTheUserAgent() async throws {
        let seen = Recorder<String>()
        let base = ClosureTransport { request in
            let credential = request.value(forHTTPHeaderField: "Authorization") ?? "none"
            seen.append("\(credential), \(request.value(forHTTPHeaderField: "User-Agent") ?? "no agent")")
            return try reply(request, credential == "Bearer refreshed" ? 200 : 401)
        }
        let transport = makeMiddlewareTransport(tokens: SessionTokens(), base: base)

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == 200)
        #expect(seen.all == ["Bearer initial, MyApp/1.0", "Bearer refreshed, MyApp/1.0"])
    }
}
