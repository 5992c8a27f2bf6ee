// Built only with the `Logging` trait (see TraitTests.swift).
#if Logging
    import Foundation
    import InMemoryLogging
    import Logging
    import Testing
    import TinyHTTPLogging
    @_spi(TinyKit) import TinyHTTPTransport

    /// The security hunt, on the logging middleware: secrets a hostile or careless server puts in a response header.
    @Suite(.timeLimit(.minutes(1))) struct SecurityHuntTests {
        /// The middleware promises "Secrets are always redacted, whatever the level: … in a URL a header value carries
        /// (`Location`, `Content-Location`, each `<…>` of `Link`)" (Sources/TinyHTTPLogging/
        /// HTTPMiddleware+Logging.swift:23-26). `redactingURL` (HTTPMiddleware+Logging.swift:111-117) redacts only a
        /// word with a scheme or starting with `/`, so a relative reference that starts with its path or its query
        /// (RFC 3986 §4.2: `callback?access_token=…`, `?access_token=…`, both valid `Location` values, RFC 9110
        /// §10.2.2) is printed in clear on the trace line, while the same URL written `/callback?access_token=…` is
        /// redacted. The review of the sixth session added the relative references whose token is in the fragment:
        /// OAuth's implicit flow answers `Location: callback#access_token=…`, which was logged as it came (an
        /// absolute URL loses its fragment).
        @Test(arguments: [
            "callback?access_token=t0kenSECRET", "?access_token=t0kenSECRET",
            "callback#access_token=t0kenSECRET&token_type=bearer", "#access_token=t0kenSECRET",
        ])
        func aTokenInARelativeLocationIsRedacted(location: String) async throws {
            let (logger, handler) = memoryLogger(level: .trace)
            let transport = ClosureTransport { request in try reply(request, 302, headers: ["Location": location]) }
                .with(.logging(logger))
            let url = try #require(URL(string: "https://auth.example.com/authorize"))

            _ = try await transport.send(URLRequest(url: url))

            let lines = handler.entries.map { "\($0.message) \($0.metadata)" }
            #expect(lines.count == 4)
            #expect(lines.allSatisfy { !$0.contains("t0kenSECRET") }, "\(lines)")
        }

        /// The control: the same `Location` written from the root is redacted.
        @Test func aTokenInALocationFromTheRootIsRedacted() async throws {
            let (logger, handler) = memoryLogger(level: .trace)
            let transport = ClosureTransport { request in
                try reply(request, 302, headers: ["Location": "/callback?access_token=t0kenSECRET"])
            }
            .with(.logging(logger))
            let url = try #require(URL(string: "https://auth.example.com/authorize"))

            _ = try await transport.send(URLRequest(url: url))

            #expect(handler.entries.allSatisfy { !"\($0.message) \($0.metadata)".contains("t0kenSECRET") })
        }
    }
#endif
