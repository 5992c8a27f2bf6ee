// Built only with the `Logging` trait (see TraitTests.swift).
#if Logging
    import Foundation
    import InMemoryLogging
    import Logging
    import Testing
    import TinyHTTPLogging
    @_spi(TinyKit) import TinyHTTPTransport

    /// A transport answering with a closure, per test.
    struct ClosureTransport: HTTPTransport {
        let handler: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)

        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) { try await handler(request) }
    }

    /// A response to `request` with `status`, `headers` and a text body.
    func reply(_ request: URLRequest, _ status: Int, headers: [String: String] = [:], body: String = "") throws -> (
        Data, HTTPURLResponse
    ) {
        let url = try #require(request.url)
        let response = try #require(
            HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers))
        return (Data(body.utf8), response)
    }

    /// A logger whose entries stay in memory, and the handler that holds them.
    func memoryLogger(level: Logger.Level) -> (Logger, InMemoryLogHandler) {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in handler }
        logger.logLevel = level
        return (logger, handler)
    }

    /// A test clock whose time stands still unless a test moves it (``advance(by:)``) or something sleeps on it: each
    /// sleep returns at once, moves `now` to its deadline and is recorded.
    final class RecordingClock: Clock, Sendable {
        struct Instant: InstantProtocol {
            var offset: Duration
            func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
            func duration(to other: Instant) -> Duration { other.offset - offset }
            static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        }

        private let state = Locked((now: Instant(offset: .zero), sleeps: [Duration]()))

        var now: Instant { state.withLock { $0.now } }
        var minimumResolution: Duration { .zero }
        /// The durations slept, in order.
        var sleeps: [Duration] { state.withLock { $0.sleeps } }

        /// Moves `now` on by `duration`, as if that much time had passed.
        func advance(by duration: Duration) { state.withLock { $0.now = $0.now.advanced(by: duration) } }

        func sleep(until deadline: Instant, tolerance: Duration?) async throws {
            try Task.checkCancellation()
            state.withLock { state in
                state.sleeps.append(state.now.duration(to: deadline))
                state.now = max(state.now, deadline)
            }
        }
    }

    @Suite(.timeLimit(.minutes(1))) struct LoggingMiddlewareTests {
        let secrets = ["t0ken", "c00kie", "s3ssion", "k3y", "s1g", "pr0xy", "cust0m"]

        /// A GET carrying every kind of secret, answered by a 200 that sets a cookie.
        func exchange(level: Logger.Level, redaction: HTTPRedaction = .default) async throws -> [InMemoryLogHandler
            .Entry]
        {
            let (logger, handler) = memoryLogger(level: level)
            let clock = RecordingClock()
            let transport = ClosureTransport { request in
                clock.advance(by: .milliseconds(12))
                return try reply(
                    request, 200, headers: ["Set-Cookie": "id=s3ssion", "X-Server": "fox"], body: #"{"ok":true}"#)
            }.with(.logging(logger, redaction: redaction, clock: clock))
            let url = try #require(URL(string: "https://api.example.com/items?page=2&api_key=k3y&sig=s1g"))
            var request = URLRequest(method: .get, url: url)
            request.setValue("Bearer t0ken", forHTTPHeaderField: "Authorization")
            request.setValue("a=c00kie", forHTTPHeaderField: "Cookie")
            request.setValue("Basic pr0xy", forHTTPHeaderField: "Proxy-Authorization")
            request.setValue("cust0m", forHTTPHeaderField: "X-Custom-Token")
            request.setValue("application/json", forHTTPHeaderField: "Accept")

            _ = try await transport.send(request)
            return handler.entries
        }

        @Test func logsOneLinePerRequestAndResponse() async throws {
            let entries = try await exchange(level: .info)

            #expect(entries.map(\.level) == [.info, .info])
            #expect(
                entries.map(\.message.description) == [
                    "→ GET https://api.example.com/items?page=2&api_key=***&sig=s1g (0 bytes)",
                    "← 200 GET https://api.example.com/items?page=2&api_key=***&sig=s1g (11 bytes, 12 ms)",
                ])
            #expect(entries.allSatisfy { $0.metadata.isEmpty })
        }

        @Test func headersAndBodiesOnlyAtTraceLevelAndRedacted() async throws {
            let redaction = HTTPRedaction(headers: ["x-custom-token"], queryParameters: ["SIG"])
            let entries = try await exchange(level: .trace, redaction: redaction)

            #expect(entries.map(\.level) == [.info, .trace, .info, .trace])
            let requestHeaders = try #require(entries[1].metadata["headers"])
            guard case .dictionary(let sent) = requestHeaders else {
                Issue.record("headers are not a dictionary: \(requestHeaders)")
                return
            }
            #expect(sent["Authorization"] == "***")
            #expect(sent["Cookie"] == "***")
            #expect(sent["Proxy-Authorization"] == "***")
            #expect(sent["X-Custom-Token"] == "***")
            #expect(sent["Accept"] == "application/json")
            let responseHeaders = try #require(entries[3].metadata["headers"])
            guard case .dictionary(let received) = responseHeaders else {
                Issue.record("headers are not a dictionary: \(responseHeaders)")
                return
            }
            #expect(received["Set-Cookie"] == "***")
            #expect(received["X-Server"] == "fox")
            #expect(entries[3].metadata["body"] == #"{"ok":true}"#)
            #expect(entries[0].message.description.contains("sig=***"))
        }

        @Test(arguments: [Logger.Level.trace, .debug, .info])
        func secretsNeverAppearAnywhere(level: Logger.Level) async throws {
            let redaction = HTTPRedaction(headers: ["X-Custom-Token"], queryParameters: ["sig"])
            let entries = try await exchange(level: level, redaction: redaction)

            let everything = entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
            #expect(!entries.isEmpty)
            for secret in secrets {
                #expect(!everything.contains(secret), "\(secret) was logged")
            }
        }

        @Test func theUsualSecretsAreRedactedEvenByARedactionThatNamesOthers() async throws {
            let entries = try await exchange(level: .trace, redaction: HTTPRedaction(headers: ["X-Custom-Token"]))

            let everything = entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
            for secret in ["t0ken", "c00kie", "s3ssion", "pr0xy", "cust0m", "k3y"] {
                #expect(!everything.contains(secret), "\(secret) was logged")
            }
            #expect(everything.contains("api_key=***"))
        }

        @Test func nothingBelowTheLoggersLevel() async throws {
            let entries = try await exchange(level: .notice)
            #expect(entries.isEmpty)
        }

        @Test func failuresAreLoggedAtWarningWithoutSecrets() async throws {
            let (logger, handler) = memoryLogger(level: .info)
            let clock = RecordingClock()
            let transport = ClosureTransport { request in
                clock.advance(by: .milliseconds(2500))
                throw HTTPTransportError(mapping: URLError(.timedOut), request: request)
            }.with(.logging(logger, clock: clock))
            let url = try #require(URL(string: "https://api.example.com/me?access_token=t0ken"))

            await #expect(throws: HTTPTransportError.self) {
                try await transport.send(URLRequest(method: .get, url: url))
            }

            let entries = handler.entries
            #expect(entries.map(\.level) == [.info, .warning])
            let line = try #require(entries.last).message.description
            #expect(
                line.hasPrefix(
                    "✗ GET https://api.example.com/me?access_token=*** failed after 2500 ms: HTTP request timed out"))
            #expect(line.contains("URLError -1001"))
            #expect(!line.contains("t0ken"))
        }

        @Test func eachAttemptIsLoggedBelowTheRetryMiddleware() async throws {
            let (logger, handler) = memoryLogger(level: .info)
            let sent = Locked(0)
            let transport = ClosureTransport { request in
                let number = sent.withLock { count in
                    count += 1
                    return count
                }
                return try reply(request, number == 1 ? 503 : 200)
            }.with(
                .retry(RetryPolicy(jitter: 0), clock: RecordingClock()),
                .logging(logger, clock: RecordingClock()))
            let url = try #require(URL(string: "https://api.example.com/items"))

            _ = try await transport.send(URLRequest(method: .get, url: url))

            #expect(
                handler.entries.map(\.message.description) == [
                    "→ GET https://api.example.com/items (0 bytes)",
                    "← 503 GET https://api.example.com/items (0 bytes, 0 ms)",
                    "→ GET https://api.example.com/items (0 bytes)",
                    "← 200 GET https://api.example.com/items (0 bytes, 0 ms)",
                ])
        }

        @Test func logsAtTheChosenLevel() async throws {
            let (logger, handler) = memoryLogger(level: .debug)
            let transport = ClosureTransport { request in try reply(request, 204) }
                .with(.logging(logger, level: .debug, clock: RecordingClock()))
            let url = try #require(URL(string: "https://api.example.com/items"))
            var request = URLRequest(method: .post, url: url)
            request.httpBody = Data("abc".utf8)

            _ = try await transport.send(request)

            #expect(handler.entries.map(\.level) == [.debug, .debug])
            #expect(handler.entries.first?.message.description == "→ POST https://api.example.com/items (3 bytes)")
        }

        /// `warning` is a floor for failures, not a ceiling: at a higher level they are logged at that level.
        @Test func failuresAreLoggedAtTheChosenLevelWhenItIsAboveWarning() async throws {
            let (logger, handler) = memoryLogger(level: .info)
            let transport = ClosureTransport { request in
                throw HTTPTransportError(mapping: URLError(.notConnectedToInternet), request: request)
            }.with(.logging(logger, level: .error, clock: RecordingClock()))
            let url = try #require(URL(string: "https://api.example.com/items"))

            await #expect(throws: HTTPTransportError.self) {
                try await transport.send(URLRequest(method: .get, url: url))
            }

            #expect(handler.entries.map(\.level) == [.error, .error])
        }

        /// A cancellation is the caller's choice: one line at the chosen level, without the error.
        @Test func aCancelledRequestIsLoggedAtTheChosenLevelNotAsAWarning() async throws {
            let (logger, handler) = memoryLogger(level: .info)
            let transport = ClosureTransport { _ in throw CancellationError() }
                .with(.logging(logger, clock: RecordingClock()))
            let url = try #require(URL(string: "https://api.example.com/items"))

            await #expect(throws: CancellationError.self) {
                try await transport.send(URLRequest(method: .get, url: url))
            }

            #expect(handler.entries.map(\.level) == [.info, .info])
            #expect(
                handler.entries.last?.message.description == "✗ GET https://api.example.com/items cancelled after 0 ms")
        }

        /// A request whose body is a stream says so, rather than `0 bytes`.
        @Test func aStreamedBodyIsNotCountedAsEmpty() async throws {
            let (logger, handler) = memoryLogger(level: .info)
            let transport = ClosureTransport { request in try reply(request, 204) }
                .with(.logging(logger, clock: RecordingClock()))
            var request = URLRequest(method: .post, url: try #require(URL(string: "https://api.example.com/up")))
            request.httpBodyStream = InputStream(data: Data("abc".utf8))

            _ = try await transport.send(request)

            #expect(handler.entries.first?.message.description == "→ POST https://api.example.com/up (a body stream)")
        }

        /// The trace lines name their exchange, carry the request's body too, and redact the response headers that
        /// the redaction names.
        @Test func traceLinesCarryTheRequestBodyAndRedactTheNamedResponseHeaders() async throws {
            let (logger, handler) = memoryLogger(level: .trace)
            let transport = ClosureTransport { request in
                try reply(request, 201, headers: ["X-Session": "s3ssion", "X-Server": "fox"])
            }.with(.logging(logger, redaction: HTTPRedaction(headers: ["x-session"]), clock: RecordingClock()))
            let url = try #require(URL(string: "https://api.example.com/items"))
            var request = URLRequest(method: .post, url: url)
            request.httpBody = Data("name=Ada".utf8)

            _ = try await transport.send(request)

            let traces = handler.entries.filter { $0.level == .trace }
            #expect(
                traces.map(\.message.description) == [
                    "→ POST https://api.example.com/items headers and body",
                    "← 201 POST https://api.example.com/items headers and body",
                ])
            #expect(traces.first?.metadata["body"] == "name=Ada")
            guard case .dictionary(let received) = try #require(traces.last?.metadata["headers"]) else {
                Issue.record("the response headers are not a dictionary")
                return
            }
            #expect(received["X-Session"] == "***")
            #expect(received["X-Server"] == "fox")
        }

        /// Above the retry middleware, a status that persists is one failure line, saying how many attempts it took.
        @Test func aPersistingStatusIsLoggedAboveTheRetryMiddlewareAsAFailureWithItsAttempts() async throws {
            let (logger, handler) = memoryLogger(level: .info)
            let clock = RecordingClock()
            let transport = ClosureTransport { request in
                clock.advance(by: .milliseconds(100))
                return try reply(request, 503, body: "busy")
            }.with(
                .logging(logger, clock: clock),
                .retry(RetryPolicy(maxAttempts: 3, baseDelay: .seconds(1), jitter: 0), clock: clock))
            let url = try #require(URL(string: "https://api.example.com/items"))

            let error = try await #require(throws: HTTPTransportError.self) {
                try await transport.send(URLRequest(method: .get, url: url))
            }

            #expect(error.attempts == 3)
            #expect(handler.entries.map(\.level) == [.info, .warning])
            // Three sends of 100 ms and the waits of 1 s and 2 s between them, on the logging's clock.
            let line = try #require(handler.entries.last).message.description
            #expect(
                line.hasPrefix(
                    "✗ GET https://api.example.com/items failed after 3300 ms: HTTP request unacceptable status 503, "
                        + "after 3 attempts"))
            #expect(clock.sleeps == [.seconds(1), .seconds(2)])
        }

        /// The README promises bodies at `trace` only, but a failure carrying a response (a persisting status, a refused
        /// refreshed credential) is described with its body preview on the `warning` line. Known source defect: the
        /// logging middleware should drop `failure.body` before describing it (HTTPMiddleware+Logging.swift).
        @Test func bodiesOfFailuresStayOffLinesBelowTrace() async throws {
            let (logger, handler) = memoryLogger(level: .info)
            let transport = ClosureTransport { request in
                throw HTTPTransportError(
                    .unacceptableStatus(503), request: request, response: try reply(request, 503).1,
                    body: Data(#"{"card":"4111-s3cret"}"#.utf8))
            }.with(.logging(logger, clock: RecordingClock()))
            let url = try #require(URL(string: "https://api.example.com/pay"))

            await #expect(throws: HTTPTransportError.self) {
                try await transport.send(URLRequest(method: .post, url: url))
            }

            let line = try #require(handler.entries.last).message.description
            #expect(
                line.hasPrefix(
                    "✗ POST https://api.example.com/pay failed after 0 ms: HTTP request unacceptable status 503")
            )
            #expect(!line.contains("s3cret"))
        }

        @Test func theDurationIsRoundedToWholeMilliseconds() async throws {
            let (logger, handler) = memoryLogger(level: .info)
            let clock = RecordingClock()
            let transport = ClosureTransport { request in
                clock.advance(by: .microseconds(1_499_600))
                return try reply(request, 200)
            }.with(.logging(logger, clock: clock))
            let url = try #require(URL(string: "https://api.example.com/items"))

            _ = try await transport.send(URLRequest(method: .get, url: url))

            #expect(
                handler.entries.last?.message.description
                    == "← 200 GET https://api.example.com/items (0 bytes, 1500 ms)")
        }

        /// The trace metadata's body is `HTTPRedaction.preview(of:limit:)` with a limit of 1000 bytes.
        @Test func traceBodiesAreEmptyMarkedAndCutAfterAThousandBytes() async throws {
            let (logger, handler) = memoryLogger(level: .trace)
            let long = String(repeating: "x", count: 1_000) + "yz"
            let transport = ClosureTransport { request in try reply(request, 200, body: long) }
                .with(.logging(logger, clock: RecordingClock()))
            let url = try #require(URL(string: "https://api.example.com/items"))

            _ = try await transport.send(URLRequest(method: .get, url: url))

            let entries = handler.entries
            #expect(entries.count == 4)
            #expect(entries.first { $0.level == .trace }?.metadata["body"] == "(empty)")
            #expect(entries.last?.metadata["body"] == .string(String(repeating: "x", count: 1_000) + "… (1002 bytes)"))
        }

        /// The body of the failure and of every error nested in it stays off lines below `trace` (it was dropped
        /// from the first nested error only). A provider that refreshes through a transport with an authorization middleware of its own
        /// (a client-credentials token to call the token endpoint) fails with that middleware's error, which holds the
        /// token endpoint's: its body (`"refresh_token":…`) is printed on the `warning` line, though bodies are for
        /// `trace` lines only (doc comment and README: "Headers and bodies are logged only when the logger's level is
        /// `trace`").
        @Test func aBodyNestedTwoErrorsDeepStaysOffLinesBelowTrace() async throws {
            struct FailingClientCredentials: CredentialProvider {
                func credential() async throws -> String? {
                    let tokenURL = try #require(URL(string: "https://auth.example.com/client-token"))
                    throw HTTPTransportError(
                        .unacceptableStatus(400), request: URLRequest(url: tokenURL),
                        response: try reply(URLRequest(url: tokenURL), 400).1,
                        body: Data(#"{"error":"invalid_grant","refresh_token":"r3freshSECRET"}"#.utf8))
                }
                func refreshCredential(rejected: String?) async throws -> String { "unused" }
            }
            /// Refreshes through a token endpoint reached with a client-credentials token.
            struct RefreshingThroughAuthorization: CredentialProvider {
                let tokenEndpoint = ClosureTransport { request in try reply(request, 200) }
                    .with(.authorization(FailingClientCredentials()))
                func credential() async throws -> String? { "Bearer old" }
                func refreshCredential(rejected: String?) async throws -> String {
                    let url = try #require(URL(string: "https://auth.example.com/token"))
                    _ = try await tokenEndpoint.send(URLRequest(method: .post, url: url))
                    return "Bearer new"
                }
            }
            let (logger, handler) = memoryLogger(level: .info)
            let transport = ClosureTransport { request in try reply(request, 401) }
                .with(.logging(logger, clock: RecordingClock()), .authorization(RefreshingThroughAuthorization()))
            let url = try #require(URL(string: "https://api.example.com/me"))

            await #expect(throws: HTTPTransportError.self) { try await transport.send(URLRequest(url: url)) }

            let line = try #require(handler.entries.last).message.description
            #expect(line.hasPrefix("✗ GET https://api.example.com/me failed"))
            #expect(!line.contains("r3freshSECRET"), "a body reaches a warning line: \(line)")
        }
    }
#endif
