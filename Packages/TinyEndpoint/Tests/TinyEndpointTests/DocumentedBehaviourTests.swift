import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

@testable import TinyEndpoint

/// Claims of the README, the DocC catalog and the doc comments checked against the code, each as its reader would
/// rely on it. Each claim found false was corrected in the docs (or the code), and the test asserts what both say now.
@Suite(.timeLimit(.minutes(1))) struct DocumentedBehaviourTests {
    struct User: Codable, Sendable, Equatable {
        var id: Int
        var name: String
    }

    enum UserEndpoint: TinyAPIEndpoint {
        case list
        var baseURL: String { "https://api.example.com/v1" }
        var path: String { "/users" }
        var method: HTTPMethod { .get }
    }

    /// Endpoint+JSON.swift `decodeResponse` ("Returns: […] for an empty body `nil` when `T` is optional, or an
    /// ``EmptyResponse``") and `EndpointError.noData` ("an empty body is a success only for `()`, optional results and
    /// ``EmptyResponse``") left out `String`, whose empty body is a success too (`""`, as the README says).
    @Test func anEmptyBodyIsASuccessForVoidOptionalsEmptyResponseAndString() async throws {
        let url = try requireURL("https://api.example.com/token")
        let response = try makeResponse(200, for: URLRequest(url: url), headers: ["Content-Type": "application/json"])
        // The docs name `String` now.
        let text: String = try JSONDecoder().decodeResponse(Data(), response)
        #expect(text == "")
        #expect(try Endpoint<String>(json: .get, url: url).parse(Data(), response).get() == "")
    }

    /// TinyAPIError.swift `Kind.decodingError` said "the message names the type and the coding path". A response
    /// refused for its `Content-Type` (README.md, ComingFromTinyAPI.md) is that kind too, and its message names
    /// neither: `expected a JSON response, got Content-Type "text/html"`.
    @Test func aDecodingErrorMessageNamesTheTypeAndTheCodingPathOrTheContentType() async throws {
        let transport = StubTransport(body: "<html>Maintenance</html>", headers: ["Content-Type": "text/html"])
        let client = TinyAPIClient(transport: transport)
        let error = await #expect(throws: TinyAPIError.self) {
            try await client.request(UserEndpoint.list, as: [User].self)
        }
        guard case .decodingError(let message) = try #require(error).kind else {
            Issue.record("expected a decodingError, got \(String(describing: error))")
            return
        }
        // The doc says now: the type and the coding path, or the `Content-Type` that is not JSON.
        #expect(message.contains(#"Content-Type "text/html""#), "message: \(message)")
    }
}
