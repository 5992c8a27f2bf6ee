// Built only with the `Logging` trait (see TraitTests.swift).
#if Logging
    import Foundation
    import InMemoryLogging
    import Logging
    import Testing
    import TinyHTTPLogging
    @_spi(TinyKit) import TinyHTTPTransport

    /// The trace lines' headers: a header whose value is a URL (`Link`, `Location`, `Content-Location`) carries the
    /// query parameters of that URL, which the redaction names as secret.
    @Suite(.timeLimit(.minutes(1))) struct TraceHeaderURLRedactionTests {
        /// An API authenticated by an `access_token` query parameter echoes it in its pagination `Link` (GitHub's
        /// API did) and in a `Location`. The middleware promises "Secrets are always redacted, whatever the level:
        /// the values of the headers and query parameters of `HTTPRedaction.default`", and the request's URL is
        /// printed `access_token=***` on every line, but the response's trace line printed the header values as
        /// they came: the token in clear, next to its redacted copy.
        @Test(arguments: ["Link", "Location", "Content-Location"])
        func aSecretQueryParameterInAResponseHeaderURLIsRedacted(header: String) async throws {
            let (logger, handler) = memoryLogger(level: .trace)
            let next = "https://api.example.com/items?page=2&access_token=t0kenSECRET"
            let value = header == "Link" ? "<\(next)>; rel=\"next\"" : next
            let transport = ClosureTransport { request in try reply(request, 200, headers: [header: value]) }
                .with(.logging(logger))
            let url = try #require(URL(string: "https://api.example.com/items?access_token=t0kenSECRET"))

            _ = try await transport.send(URLRequest(url: url))

            let lines = handler.entries.map { "\($0.message) \($0.metadata)" }
            #expect(lines.count == 4)
            #expect(lines.allSatisfy { $0.contains("access_token=***") }, "the request's URL is redacted: \(lines)")
            #expect(lines.allSatisfy { !$0.contains("t0kenSECRET") }, "\(lines)")
        }
    }
#endif
