// Built only with the `Logging` trait (see TraitTests.swift).
#if Logging
    import Foundation
    import InMemoryLogging
    import Logging
    import Testing
    import TinyHTTPLogging
    import TinyHTTPTransport

    // The README's quick start, verbatim, compiled here:
    func makeAPITransport(logger: Logger, base: any HTTPTransport = URLSessionTransport.shared) -> any HTTPTransport {
        let redaction = HTTPRedaction(headers: ["X-API-Key"], queryParameters: ["sig"])
        return base.with(.retry(), .logging(logger, level: .debug, redaction: redaction))
    }

    /// The README's quick start, run against a closure transport.
    @Suite(.timeLimit(.minutes(1))) struct ReadmeTests {
        /// The README's lines, verbatim; the transport they make refuses a request it cannot send before sending it.
        @Test func quickStartBuildsALoggingTransport() async throws {
            var logger = Logger(label: "com.example.api")
            logger.logLevel = .debug
            let transport = makeAPITransport(logger: logger)
            let request = URLRequest(
                method: HTTPMethod(rawValue: "BAD METHOD"), url: try #require(URL(string: "http://127.0.0.1:1")))
            let error = await #expect(throws: HTTPTransportError.self) { try await transport.send(request) }
            #expect(error?.code == .invalidRequest)
        }

        @Test func quickStartLogsRedactedLines() async throws {
            let (logger, handler) = memoryLogger(level: .debug)
            let transport = makeAPITransport(logger: logger, base: ClosureTransport { try reply($0, 200, body: "[]") })
            let url = try #require(URL(string: "https://api.example.com/todos?sig=abc"))
            var request = URLRequest(method: .get, url: url)
            request.setValue("abc", forHTTPHeaderField: "X-API-Key")

            _ = try await transport.send(request)

            let lines = handler.entries.map(\.message.description)
            #expect(lines.first == "→ GET https://api.example.com/todos?sig=*** (0 bytes)")
            #expect(lines.count == 2)
            #expect(!lines.joined().contains("abc"))
        }
    }
#endif
