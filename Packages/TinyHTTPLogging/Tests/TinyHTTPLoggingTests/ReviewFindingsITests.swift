// Built only with the `Logging` trait (see TraitTests.swift).
#if Logging
    import Foundation
    import InMemoryLogging
    import Logging
    import Testing
    import TinyHTTPLogging
    @_spi(TinyKit) import TinyHTTPTransport

    @Suite(.timeLimit(.minutes(1))) struct ReviewFindingsITests {
        /// A provider whose refresh fails with the token endpoint's own HTTPTransportError (as a provider refreshing
        /// through a TinyKit transport does).
        struct FailingRefreshProvider: CredentialProvider {
            let refreshError: HTTPTransportError
            func credential() async throws -> String? { "old" }
            func refreshCredential(rejected: String?) async throws -> String { throw refreshError }
        }

        @Test func aNestedTransportErrorIsRedactedWithTheLoggersRedactionAndKeepsItsBodyOffTheLine() async throws {
            let (logger, handler) = memoryLogger(level: .info)
            let tokenURL = try #require(URL(string: "https://auth.example.com/token?sig=s1gSECRET"))
            let tokenResponse = try #require(
                HTTPURLResponse(url: tokenURL, statusCode: 400, httpVersion: "HTTP/1.1", headerFields: [:]))
            let refreshError = HTTPTransportError(
                .unacceptableStatus(400), request: URLRequest(url: tokenURL), response: tokenResponse,
                body: Data(#"{"error":"invalid_grant","refresh_token":"r3freshSECRET"}"#.utf8))
            let transport = ClosureTransport { request in try reply(request, 401) }
                .with(
                    .logging(logger, redaction: HTTPRedaction(queryParameters: ["sig"])),
                    .authorization(FailingRefreshProvider(refreshError: refreshError)))
            let url = try #require(URL(string: "https://api.example.com/me"))

            await #expect(throws: HTTPTransportError.self) { try await transport.send(URLRequest(url: url)) }

            let line = try #require(handler.entries.last).message.description
            #expect(line.hasPrefix("✗ GET https://api.example.com/me failed"))
            // Both leaked: the nested error was described with `.default` redaction and its body.
            #expect(!line.contains("s1gSECRET"), "the logger's named query parameter leaks: \(line)")
            #expect(!line.contains("r3freshSECRET"), "a body reaches a non-trace line: \(line)")
        }
    }
#endif
