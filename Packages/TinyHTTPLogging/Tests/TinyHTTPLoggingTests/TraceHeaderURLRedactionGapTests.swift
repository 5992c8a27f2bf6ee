// Built only with the `Logging` trait (see TraitTests.swift).
#if Logging
    import Foundation
    import InMemoryLogging
    import Logging
    import Testing
    import TinyHTTPLogging
    @_spi(TinyKit) import TinyHTTPTransport

    /// The trace lines' header values that hold URLs (HTTPMiddleware+Logging.swift `details`): each space-separated
    /// word and each `<…>` that parses as a URL with a query or a user is redacted, as the request's URL is.
    @Suite(.timeLimit(.minutes(1))) struct TraceHeaderURLRedactionGapTests {
        /// `redactingURL` skips a URL without a query and a user, yet `HTTPRedaction.redacted(url:)` drops a URL's
        /// fragment because "OAuth's implicit flow puts tokens there": an authorization server's implicit-flow answer
        /// (`302`, `Location: https://app/callback#access_token=…`) prints the token in clear on the response's trace
        /// line, while the same token in the request URL's fragment is never printed. And a `Refresh` header
        /// (`0; url=https://…?access_token=…`, as servers send for a meta refresh) holds its URL after `url=`, in a
        /// word that is no URL of its own: its query was printed as it came. Both are redacted now.
        @Test(arguments: [
            ("Location", "https://app.example.com/callback#access_token=t0kenSECRET&token_type=bearer"),
            ("Link", "<https://app.example.com/callback#access_token=t0kenSECRET>; rel=\"next\""),
            ("Refresh", "0; url=https://api.example.com/items?page=2&access_token=t0kenSECRET"),
        ])
        func aTokenInAResponseHeaderURLIsRedacted(header: String, value: String) async throws {
            let (logger, handler) = memoryLogger(level: .trace)
            let transport = ClosureTransport { request in try reply(request, 302, headers: [header: value]) }
                .with(.logging(logger))
            let url = try #require(URL(string: "https://auth.example.com/authorize#access_token=t0kenSECRET"))

            _ = try await transport.send(URLRequest(url: url))

            let lines = handler.entries.map { "\($0.message) \($0.metadata)" }
            #expect(lines.count == 4)
            // The request's URL: its fragment is dropped on every line.
            #expect(lines.filter { $0.hasPrefix("→") }.allSatisfy { !$0.contains("t0kenSECRET") }, "\(lines)")
            #expect(lines.allSatisfy { !$0.contains("t0kenSECRET") }, "\(lines)")
        }
    }
#endif
