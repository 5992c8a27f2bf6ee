// Built only with the `Logging` trait (see TraitTests.swift).
#if Logging
    import Foundation
    import InMemoryLogging
    import Logging
    import Testing
    import TinyHTTPLogging
    @_spi(TinyKit) import TinyHTTPTransport

    /// Mistakes found in the review of the sixth session's fixes.
    @Suite(.timeLimit(.minutes(1))) struct SixthSessionReviewTests {
        /// The security hunt made `redactingURL` redact a relative `Location` with a query (`callback?access_token=…`),
        /// but not the one next to it, whose token is in the fragment: OAuth's implicit flow answers
        /// `Location: callback#access_token=…`, and a relative reference without a query, scheme or leading `/` was
        /// logged as it came (an absolute one loses its fragment, "OAuth's implicit flow puts tokens there").
        @Test(arguments: ["callback#access_token=t0kenSECRET&token_type=bearer", "#access_token=t0kenSECRET"])
        func aTokenInTheFragmentOfARelativeLocationIsRedacted(location: String) async throws {
            let (logger, handler) = memoryLogger(level: .trace)
            let transport = ClosureTransport { request in try reply(request, 302, headers: ["Location": location]) }
                .with(.logging(logger))
            let url = try #require(URL(string: "https://auth.example.com/authorize"))

            _ = try await transport.send(URLRequest(url: url))

            let lines = handler.entries.map { "\($0.message) \($0.metadata)" }
            #expect(lines.count == 4)
            #expect(lines.allSatisfy { !$0.contains("t0kenSECRET") }, "\(lines)")
        }
    }
#endif
