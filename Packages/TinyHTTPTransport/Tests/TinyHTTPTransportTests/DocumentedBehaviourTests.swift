import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

/// Claims of the README, the DocC catalog and the doc comments checked against the code, each as its reader would
/// rely on it. Each claim found false was corrected in the docs (or the code), and the test asserts what both say now.
@Suite(.timeLimit(.minutes(1))) struct DocumentedBehaviourTests {
    /// An error whose text spans lines, as a credential provider's may (an auth server's message quoted in it).
    struct SignInRequired: Error, CustomStringConvertible {
        var description: String { "sign-in required\nX-Forged: 1" }
    }

    struct SignedOutProvider: CredentialProvider {
        func credential() async throws -> String? { throw SignInRequired() }
        func refreshCredential(rejected: String?) async throws -> String { throw SignInRequired() }
    }

    /// HTTPTransportError.swift `description`: "One line saying what happened […] and the underlying error". The
    /// body preview and the request summary were escaped onto one line since 329ba7b, but the underlying error was
    /// printed as it was (`summary(of:redacting:)`): a provider's error whose text held a line break broke the line a
    /// log gets. Its text is escaped onto the line now.
    @Test func theDescriptionIsOneLineWhateverTheUnderlyingError() async throws {
        let request = URLRequest(url: try #require(URL(string: "https://api.example.com/me")))
        let transport = ClosureTransport { try reply($0, 200) }.with(.authorization(SignedOutProvider()))
        let error = try #require(await #expect(throws: HTTPTransportError.self) { try await transport.send(request) })
        #expect(error.code == .other)
        #expect(!error.description.contains("\n"), "\(error.description.debugDescription)")
        #expect(error.description.contains(#"sign-in required\nX-Forged: 1"#))
    }

    /// HTTPTransportError.swift `description` said "the category, the request's method and URL, the status, the
    /// attempts, the detail, a preview of the body and the underlying error"; `description(redacting:)` prints the
    /// attempts before the status, and the doc lists them in that order now.
    @Test func theDescriptionNamesTheAttemptsThenTheStatusAsDocumented() throws {
        let request = URLRequest(url: try #require(URL(string: "https://api.example.com/me")))
        let (_, response) = try reply(request, 503)
        var error = HTTPTransportError(.cannotConnect, request: request, response: response, message: "closed early")
        error.attempts = 3
        let text = error.description
        let status = try #require(text.range(of: "status 503"))
        let attempts = try #require(text.range(of: "after 3 attempts"))
        // The doc lists them in the order printed now.
        #expect(attempts.lowerBound < status.lowerBound, "\(text)")
    }
}
