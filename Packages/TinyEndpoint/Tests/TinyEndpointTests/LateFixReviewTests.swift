import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

@testable import TinyEndpoint

/// Review of the late fixes (e00e6b6) in TinyEndpoint: each test failed before its fix.
@Suite(.timeLimit(.minutes(1))) struct LateFixReviewTests {
    /// A credential provider that refreshes through a transport of its own and rethrows what it throws: a token
    /// endpoint's `400`, with the body that says why.
    struct TokenEndpointProvider: CredentialProvider {
        let failure: HTTPTransportError
        func credential() async throws -> String? { throw failure }
        func refreshCredential(rejected: String?) async throws -> String { throw failure }
    }

    /// TinyAPIError.swift: the message of a `networkError` was the `errorDescription` of any `LocalizedError`
    /// underneath. An `HTTPTransportError` is one, and its `errorDescription` is its developer `description`: the
    /// method, URL, status and a preview of the response body. A credential provider that refreshes through its own
    /// transport (the common case) throws one; `.authorization` keeps it as the underlying error, so the token
    /// endpoint's body (here a refresh token echoed back) reached `localizedDescription`, which the app puts on screen,
    /// where Docs/ComingFromTinyAPI.md says "The response body is never in it". A nested `HTTPTransportError`'s
    /// description is never the message now.
    @Test func aNetworkErrorMessageNeverCarriesANestedTransportErrorsBody() async throws {
        let token = URLRequest(url: try requireURL("https://auth.example.com/oauth/token"))
        let failure = HTTPTransportError(
            .unacceptableStatus(400), request: token, response: try makeResponse(400, for: token),
            body: Data(#"{"error":"invalid_grant","refresh_token":"rt_5ecret"}"#.utf8))
        let transport = StubTransport(status: 200).with(.authorization(TokenEndpointProvider(failure: failure)))
        let request = URLRequest(url: try requireURL("https://api.example.com/users"))
        let thrown = await #expect(throws: HTTPTransportError.self) { try await transport.send(request) }
        let error = TinyAPIError(try #require(thrown))

        guard case .networkError(let message) = error.kind else {
            Issue.record("expected a networkError, got \(error.kind)")
            return
        }
        #expect(!message.contains("rt_5ecret"), "message: \(message)")
        #expect(!error.localizedDescription.contains("body:"), "\(error.localizedDescription)")
    }

    /// TinyAPIError.swift: the system's sentence was read only from a `URLError`. An `NSError` of
    /// `NSURLErrorDomain` (the form `HTTPTransportError.urlErrorCode(of:)` and `summary(of:)` accept as a
    /// `URLError`, "the form FoundationNetworking reports on Linux") does not cast to `URLError` on Linux, so its
    /// "The request timed out." was dropped for "the request timed out", though the `description` beside it quotes
    /// the sentence. It is the message now, as Docs/ComingFromTinyAPI.md says.
    @Test func aNetworkErrorFromAnNSErrorOfTheURLDomainIsTheSystemsSentence() throws {
        let request = URLRequest(url: try requireURL("https://api.example.com/users"))
        let sentence = "The request timed out."
        let underlying = NSError(
            domain: NSURLErrorDomain, code: URLError.timedOut.rawValue,
            userInfo: [NSLocalizedDescriptionKey: sentence])
        let error = TinyAPIError(HTTPTransportError(mapping: underlying, request: request))
        #expect(error.description.contains("URLError -1001 (\(sentence))"))
        #expect(error.kind == .networkError(sentence))
    }

    /// Endpoint+JSON.swift: a `String` result asked `response?.mimeType` of any `URLResponse`, where it had read
    /// the `Content-Type` of an `HTTPURLResponse` only. A response that is not HTTP (a `file:` URL's, or the
    /// `URLResponse` a test hands `endpoint.parse`, as TinyNetworking's tests do) has no `Content-Type` but may carry
    /// a JSON `mimeType` (Apple platforms infer it from a `.json` file's extension): its body was no longer the text,
    /// and `{"a":1}` read as a `String` failed. Only an `HTTPURLResponse`'s `mimeType` counts now.
    @Test func aStringFromAResponseThatIsNotHTTPIsTheBodyAsText() throws {
        let url = URL(fileURLWithPath: "/fixtures/object.json")
        let endpoint = Endpoint<String>(json: .get, url: url)
        let response = URLResponse(
            url: url, mimeType: "application/json", expectedContentLength: 7, textEncodingName: nil)
        let result = endpoint.parse(Data(#"{"a":1}"#.utf8), response)
        #expect((try? result.get()) == #"{"a":1}"#, "\(result)")
    }
}
