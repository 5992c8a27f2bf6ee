// Built only with the `Logging` trait (see TraitTests.swift).
#if Logging
    import Foundation
    import InMemoryLogging
    import Logging
    import Testing
    import TinyHTTPLogging
    import TinyHTTPTransport

    // Every ```swift block of TinyHTTPLogging's DocC comments and Documentation.docc articles, compiled here (the
    // repository's other doc snippets are in Tests/TinyKitIntegrationTests/DocCommentSnippetTests.swift, which also
    // checks that each block's lines appear in one of these files, in order). Each snippet is copied verbatim into a
    // function named after its file and line, with only the context a reader supplies around it marked `// context`;
    // `…` stands for code the snippet leaves out.
    enum LoggingDocSnippets {
        /// A credential provider, the `tokens` the snippets assume.
        actor Tokens: CredentialProvider {  // context
            func credential() async throws -> String? { "Bearer secret" }  // context
            func refreshCredential(rejected: String?) async throws -> String { "Bearer secret" }  // context
        }

        // Packages/TinyHTTPLogging/Sources/TinyHTTPLogging/HTTPMiddleware+Logging.swift:12
        static func logging() -> any HTTPTransport {
            let transport = URLSessionTransport.shared.with(.retry(), .logging(Logger(label: "api")))
            // → GET https://api.example.com/todos?page=2 (0 bytes)
            // ← 200 GET https://api.example.com/todos?page=2 (1532 bytes, 84 ms)
            return transport  // context
        }

        // Packages/TinyHTTPLogging/Sources/TinyHTTPLogging/Documentation.docc/GettingStarted.md:10
        static func order(tokens: Tokens, logger: Logger) -> any HTTPTransport {
            let transport = URLSessionTransport.shared.with(
                .retry(),  // outermost: each attempt goes through the logging below
                .authorization(tokens),  // the header it adds is logged redacted, at trace level
                .logging(logger))
            return transport  // context
        }

        // Packages/TinyHTTPLogging/Sources/TinyHTTPLogging/Documentation.docc/GettingStarted.md:33
        static func redaction(logger: Logger) -> any HTTPTransport {
            let redaction = HTTPRedaction(headers: ["X-API-Key"], queryParameters: ["sig"])
            let transport = URLSessionTransport.shared.with(.logging(logger, redaction: redaction))
            return transport  // context
        }

        // Packages/TinyHTTPLogging/Sources/TinyHTTPLogging/Documentation.docc/GettingStarted.md:44
        static func inMemory(send: (Logger) async throws -> Void) async throws {
            let handler = InMemoryLogHandler()
            var logger = Logger(label: "test") { _ in handler }
            logger.logLevel = .trace
            // … send requests through .logging(logger) …
            try await send(logger)  // context: the snippet's `…`
            #expect(handler.entries.allSatisfy { !"\($0.message) \($0.metadata)".contains("secret") })
        }

        // Packages/TinyHTTPLogging/Sources/TinyHTTPLogging/Documentation.docc/TinyHTTPLogging.md:12
        static func overview() -> any HTTPTransport {
            var logger = Logger(label: "com.example.api")
            logger.logLevel = .debug
            let transport = URLSessionTransport.shared.with(.retry(), .logging(logger, level: .debug))
            return transport  // context
        }
    }

    /// Checks what the snippets' comments claim.
    @Suite(.timeLimit(.minutes(1))) struct DocCommentSnippetTests {
        struct ClosureTransport: HTTPTransport {
            let handler: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)
            func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) { try await handler(request) }
        }

        /// HTTPMiddleware+Logging.swift:12: the two lines its comment shows, for a GET answered with 1532 bytes.
        @Test func theLinesAreAsShown() async throws {
            let handler = InMemoryLogHandler()
            let logger = Logger(label: "api") { _ in handler }
            let transport = ClosureTransport { request in
                let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!
                return (Data(count: 1532), response)
            }.with(.retry(), .logging(logger))
            let url = try #require(URL(string: "https://api.example.com/todos?page=2"))
            _ = try await transport.send(URLRequest(method: .get, url: url))
            let lines = handler.entries.map { "\($0.message)" }
            #expect(lines.count == 2)
            #expect(lines.first == "→ GET https://api.example.com/todos?page=2 (0 bytes)")
            let last = try #require(lines.last)
            #expect(
                last.hasPrefix("← 200 GET https://api.example.com/todos?page=2 (1532 bytes, ") && last.hasSuffix(" ms)")
            )
        }

        /// GettingStarted.md:10 and :44: the authorization middleware's header is logged redacted at trace level, so
        /// the snippet's check that no entry holds the secret passes.
        @Test func theAuthorizationHeaderIsLoggedRedacted() async throws {
            try await LoggingDocSnippets.inMemory { logger in
                let transport = ClosureTransport { request in
                    let response = HTTPURLResponse(
                        url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!
                    return (Data(), response)
                }.with(.retry(), .authorization(LoggingDocSnippets.Tokens()), .logging(logger))
                _ = try await transport.send(URLRequest(method: .get, url: URL(string: "https://api.example.com")!))
            }
        }
    }
#endif
