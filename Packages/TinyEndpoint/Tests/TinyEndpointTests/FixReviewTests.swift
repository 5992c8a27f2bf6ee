import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

@testable import TinyEndpoint

/// Review of the day's TinyEndpoint fixes (f507aa5): each test failed before its fix.
@Suite(.timeLimit(.minutes(1))) struct FixReviewTests {
    /// TinyAPIError.swift: a transport failure's `networkError` message became the underlying error's
    /// `localizedDescription`, which only a `URLError` from URLSession words for people. Any other underlying error
    /// read as Foundation's "The operation could not be completed. (… error 1.)": every failure of
    /// `AsyncHTTPClientTransport` (a SwiftNIO or AsyncHTTPClient error underneath, its message such as "the reply is
    /// not valid HTTP" dropped), and a credential provider's failure through `.authorization` ("the credential provider
    /// failed" dropped). The message says what happened now.
    struct EngineError: Error, CustomStringConvertible {  // as SwiftNIO's and AsyncHTTPClient's errors are
        var description: String { "connection reset by peer" }
    }

    struct SignedOut: Error {}

    struct FailingProvider: CredentialProvider {
        func credential() async throws -> String? { throw SignedOut() }
        func refreshCredential(rejected: String?) async throws -> String { throw SignedOut() }
    }

    @Test func aNetworkErrorMessageSaysWhatHappenedWhenTheUnderlyingErrorIsNotAURLError() async throws {
        let request = URLRequest(url: try requireURL("https://api.example.com/users"))
        let engine = HTTPTransportError(
            .other, request: request, underlyingError: EngineError(), message: "the reply is not valid HTTP")
        let provider = StubTransport(status: 200).with(.authorization(FailingProvider()))
        let signedOut = await #expect(throws: HTTPTransportError.self) { try await provider.send(request) }

        for error in [engine, signedOut].compactMap(\.self) {
            guard case .networkError(let message) = TinyAPIError(error).kind else {
                Issue.record("expected a networkError for \(error)")
                continue
            }
            #expect(!message.hasPrefix("The operation could not be completed"), "message: \(message)")
            #expect(message.contains(error.message ?? "?"), "message: \(message)")
        }
    }

    /// Packages/TinyEndpoint/README.md said a `String` result "is the body as text, in the charset the response's
    /// `Content-Type` names", with no word of the change f507aa5 made (Endpoint+JSON.swift): from a response labelled
    /// JSON it is the decoded JSON string, so `"tok_123"` is `tok_123`, and a JSON object or number read as a
    /// `String` (the raw body, as the README promised) fails to decode. The README says so now.
    @Test func theReadmeSaysWhatAStringResultIsFromAJSONResponse() async throws {
        let json = ["Content-Type": "application/json"]
        let token = try await StubTransport(body: #""tok_123""#, headers: json)
            .load(Endpoint<String>(json: .get, url: try requireURL("https://api.example.com/token")))
        #expect(token == "tok_123")
        let object = StubTransport(body: #"{"id":1}"#, headers: json)
        await #expect(throws: EndpointError.self) {
            try await object.load(Endpoint<String>(json: .get, url: try requireURL("https://api.example.com/raw")))
        }

        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
        let rule = try #require(text.range(of: "`String` as the result type of a JSON endpoint"))
        let paragraph = text[rule.lowerBound...].prefix(600)
        #expect(paragraph.contains("JSON string"), "README: \(paragraph)")
    }
}
