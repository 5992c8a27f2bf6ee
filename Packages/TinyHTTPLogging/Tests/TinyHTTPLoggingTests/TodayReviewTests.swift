// Built only with the `Logging` trait (see TraitTests.swift).
#if Logging
    import Foundation
    import InMemoryLogging
    import Logging
    import Testing
    import TinyHTTPLogging
    @_spi(TinyKit) import TinyHTTPTransport

    /// Review of e0a04be and 620cbc7: behaviour those commits left wrong, a regression test now.
    @Suite(.timeLimit(.minutes(1))) struct TodayReviewTests {
        /// `HTTPMiddleware+Logging.swift`: the request line now says `a body stream`, but the trace line's `body`
        /// metadata still reads `httpBody ?? Data()` and says `(empty)` for a streamed body: the bug fixed on one
        /// line, left on the other.
        @Test func theTraceLineOfAStreamedBodyDoesNotSayEmpty() async throws {
            let (logger, handler) = memoryLogger(level: .trace)
            let transport = ClosureTransport { request in try reply(request, 204) }
                .with(.logging(logger, clock: RecordingClock()))
            var request = URLRequest(method: .post, url: try #require(URL(string: "https://api.example.com/up")))
            request.httpBodyStream = InputStream(data: Data("abc".utf8))

            _ = try await transport.send(request)

            let trace = try #require(handler.entries.first { $0.level == .trace })
            #expect(trace.metadata["body"] != "(empty)")
        }
    }
#endif
