// Built only with the `Logging` trait (see TraitTests.swift).
#if Logging
    import Foundation
    import InMemoryLogging
    import Logging
    import Testing
    import TinyHTTPLogging
    @_spi(TinyKit) import TinyHTTPTransport

    /// The failure line's text (HTTPMiddleware+Logging.swift, `withoutBodies` and `description(redacting:)`) and the
    /// trace lines' header values (`details`): second hunt of TinyHTTPLogging.
    @Suite(.timeLimit(.minutes(1))) struct FailureLineAndTraceHeaderEdgeTests {
        /// A provider whose refresh fails with `error`.
        struct FailingRefresh: CredentialProvider {
            let error: any Error
            func credential() async throws -> String? { "Bearer old" }
            func refreshCredential(rejected: String?) async throws -> String { throw error }
        }

        /// A provider's own error, wrapping the failure of its token endpoint (a TinyKit transport's).
        enum TokenError: Error { case refreshFailed(HTTPTransportError) }

        /// An error shaped as TinyEndpoint's `TinyAPIError` (what `TinyAPIClient` throws): its message and, in
        /// brackets, `HTTPTransportError.summary(of:)` of the error behind it, an `HTTPTransportError` with its body.
        struct APIClientError: Error, CustomStringConvertible {
            let underlyingError: any Error
            var description: String { "HTTP Error: 400 [\(HTTPTransportError.summary(of: underlyingError))]" }
        }

        /// An error shaped as TinyEndpoint's `EndpointError.decodingFailed`: a body that did not decode, previewed.
        struct DecodingFailed: Error, CustomStringConvertible {
            let body: Data
            var description: String { "could not decode Token; body: \(HTTPRedaction.preview(of: body))" }
        }

        /// The token endpoint's answer: a `400` whose body holds a secret, for a URL with the logger's `sig`.
        static func tokenEndpointFailure() throws -> HTTPTransportError {
            let url = try #require(URL(string: "https://auth.example.com/token?sig=s1gSECRET"))
            return HTTPTransportError(
                .unacceptableStatus(400), request: URLRequest(url: url),
                response: try reply(URLRequest(url: url), 400).1,
                body: Data(#"{"error":"invalid_grant","refresh_token":"r3freshSECRET"}"#.utf8))
        }

        /// The lines of a `GET` refused with `401` whose refresh fails with `error`, logged with `sig` named secret.
        func linesOfARefreshFailing(with error: any Error) async throws -> [InMemoryLogHandler.Entry] {
            let (logger, handler) = memoryLogger(level: .info)
            let transport = ClosureTransport { request in try reply(request, 401) }
                .with(
                    .logging(logger, redaction: HTTPRedaction(queryParameters: ["sig"]), clock: RecordingClock()),
                    .authorization(FailingRefresh(error: error)))
            let url = try #require(URL(string: "https://api.example.com/me"))

            await #expect(throws: HTTPTransportError.self) { try await transport.send(URLRequest(url: url)) }
            return handler.entries
        }

        /// `withoutBodies` drops the body of the failure and of each `HTTPTransportError` nested in it, but an error
        /// of another type in between (a provider's own enum, TinyEndpoint's `TinyAPIError` from a `TinyAPIClient`
        /// refresh, an `EndpointError.decodingFailed` of a token answer that did not decode) was printed with
        /// `String(describing:)`, body preview and all: the token endpoint's body (`refresh_token`) reached the
        /// `warning` line, though bodies are promised to `trace` lines only.
        @Test(arguments: 0..<3)
        func aBodyInsideAnErrorOfAnotherTypeStaysOffTheWarningLine(wrapper: Int) async throws {
            let tokenFailure = try Self.tokenEndpointFailure()
            let error: any Error =
                switch wrapper {
                case 0: TokenError.refreshFailed(tokenFailure)
                case 1: APIClientError(underlyingError: tokenFailure)
                default: DecodingFailed(body: try #require(tokenFailure.body))
                }

            let entries = try await linesOfARefreshFailing(with: error)

            #expect(entries.map(\.level) == [.info, .warning])
            let line = try #require(entries.last).message.description
            #expect(line.hasPrefix("✗ GET https://api.example.com/me failed after 0 ms: HTTP request unacceptable"))
            #expect(!line.contains("r3freshSECRET"), "\(line)")
        }

        /// The same wrapped failure was described with `HTTPRedaction.default`, not the logger's redaction: the
        /// query parameter the logger names secret (`sig`) was printed in clear on the `warning` line. An error of
        /// another type is now told by its type (or its `errorDescription`).
        @Test func aNamedQueryParameterOfAWrappedTransportErrorIsRedacted() async throws {
            let entries = try await linesOfARefreshFailing(with: TokenError.refreshFailed(Self.tokenEndpointFailure()))

            let line = try #require(entries.last).message.description
            #expect(line.hasSuffix("underlying error: TokenError"), "\(line)")
            #expect(!line.contains("s1gSECRET"), "\(line)")
        }

        /// A provider decoding its token answer itself: an unknown `token_type` is a `DecodingError` whose text
        /// quotes the server's value, line breaks and all. The failure line printed it raw, so the server wrote
        /// a line of its own into the log (the body preview escaped `\n` so that "a body cannot break or forge a log
        /// line"; the error text around it was not escaped).
        @Test func aFailureLineStaysOneLineWhenTheUnderlyingErrorQuotesTheServer() async throws {
            enum TokenType: String, Decodable { case bearer }
            struct Token: Decodable { let tokenType: TokenType }
            let answer = Data(#"{"tokenType":"mac\n✗ GET https://api.example.com/admin failed: forged"}"#.utf8)
            let decodingError = try #require(throws: DecodingError.self) {
                try JSONDecoder().decode(Token.self, from: answer)
            }

            let entries = try await linesOfARefreshFailing(with: decodingError)

            #expect(entries.map(\.level) == [.info, .warning])
            let line = try #require(entries.last).message.description
            #expect(line.hasPrefix("✗ GET https://api.example.com/me failed after 0 ms"))
            #expect(!line.contains("\n"), "\(line)")
        }

        /// Above the retry middleware, a status that persisted comes back as a failure carrying the last response
        /// and body. At `trace` level the request got its trace line but that response got none: its headers and
        /// body were on no line at all (the failure line drops the body, "Bodies stay on trace lines"), though the
        /// docs promise "one more line per request and per response" at `trace`.
        @Test func aFailureCarryingAResponseHasItsHeadersAndBodyOnATraceLine() async throws {
            let (logger, handler) = memoryLogger(level: .trace)
            let clock = RecordingClock()
            let transport = ClosureTransport { request in
                try reply(request, 503, headers: ["X-Server": "fox"], body: #"{"error":"busy"}"#)
            }.with(
                .logging(logger, clock: clock),
                .retry(RetryPolicy(maxAttempts: 2, baseDelay: .seconds(1), jitter: 0), clock: clock))
            let url = try #require(URL(string: "https://api.example.com/items"))

            let error = try await #require(throws: HTTPTransportError.self) {
                try await transport.send(URLRequest(url: url))
            }

            #expect(error.code == .unacceptableStatus(503))
            #expect(error.body == Data(#"{"error":"busy"}"#.utf8))
            let entries = handler.entries
            #expect(entries.map(\.level).filter { $0 != .trace } == [.info, .warning])
            #expect(
                entries.contains { $0.message.description == "→ GET https://api.example.com/items headers and body" })
            #expect(entries.contains { $0.level == .trace && $0.metadata["body"] == #"{"error":"busy"}"# })
        }

        /// `Refresh`'s URL was redacted only when `url=` started a space-separated word (`0; url=…`). Written
        /// without the space (`0;url=…`, as PHP's `header("Refresh: 0;url=…")` and many servers send it), after a
        /// comma, or quoted (the HTML refresh syntax allows `'…'` and `"…"`), its token was printed.
        @Test(arguments: [
            "0;url=https://api.example.com/items?page=2&access_token=t0kenSECRET",
            "0;URL=https://api.example.com/items?access_token=t0kenSECRET",
            "0,url=https://api.example.com/items?access_token=t0kenSECRET",
            "0; url='https://api.example.com/items?access_token=t0kenSECRET'",
            "0; url=\"https://api.example.com/items?access_token=t0kenSECRET\"",
        ])
        func aRefreshURLWithoutASpaceOrInQuotesIsRedacted(value: String) async throws {
            let (logger, handler) = memoryLogger(level: .trace)
            let transport = ClosureTransport { request in try reply(request, 200, headers: ["Refresh": value]) }
                .with(.logging(logger, clock: RecordingClock()))
            let url = try #require(URL(string: "https://api.example.com/login"))

            _ = try await transport.send(URLRequest(url: url))

            let lines = handler.entries.map { "\($0.message) \($0.metadata)" }
            #expect(lines.count == 4)
            #expect(lines.allSatisfy { !$0.contains("t0kenSECRET") }, "\(lines)")
        }

        /// A header value without a secret is logged as it came: `details` rewrote each word that parsed as a URL
        /// with a query or fragment (a `#` or `?` in it) through `redacted(url:)`, which percent-encodes it and drops
        /// the fragment: `#fff` was logged empty, `"v1#2"` as `%22v1`, `Stale?"` as `Stale?%22`.
        @Test func headerValuesWithoutSecretsAreLoggedAsTheyCame() async throws {
            let headers = [
                "X-Color": "#fff", "ETag": #""v1#2""#, "Warning": #"110 - "Response is Stale?""#,
                "Content-Disposition": #"attachment; filename="Q&A?.pdf""#,
            ]
            let (logger, handler) = memoryLogger(level: .trace)
            let transport = ClosureTransport { request in try reply(request, 200, headers: headers) }
                .with(.logging(logger, clock: RecordingClock()))
            let url = try #require(URL(string: "https://api.example.com/items"))

            _ = try await transport.send(URLRequest(url: url))

            guard case .dictionary(let logged) = try #require(handler.entries.last?.metadata["headers"]) else {
                Issue.record("the response headers are not a dictionary")
                return
            }
            #expect(logged.count == headers.count)
            for (name, value) in headers {
                let key = logged.keys.first { $0.lowercased() == name.lowercased() }  // ETag comes as Etag
                #expect(key.flatMap { logged[$0] } == .string(value), "\(name)")
            }
        }

        /// Pinned: secret names are matched whatever their case or percent-encoding, in the request's headers and
        /// URL, in the response's headers, and for the names a redaction adds.
        @Test func secretsUnderOddCasingOrPercentEncodedNamesAreRedacted() async throws {
            let (logger, handler) = memoryLogger(level: .trace)
            let transport = ClosureTransport { request in
                try reply(request, 200, headers: ["set-cookie": "id=s3ssion", "x-api-KEY": "k3y", "X-Server": "fox"])
            }.with(
                .logging(
                    logger, redaction: HTTPRedaction(headers: ["X-Api-Key"], queryParameters: ["SIG"]),
                    clock: RecordingClock()))
            let url = try #require(
                URL(string: "https://api.example.com/a?ACCESS_TOKEN=t0ken&Api%5Fkey=k3y&%73ig=s1g&page=%41"))
            var request = URLRequest(url: url)
            request.setValue("Basic pr0xy", forHTTPHeaderField: "proxy-AUTHORIZATION")
            request.setValue("a=c00kie", forHTTPHeaderField: "COOKIE")
            request.setValue("k3y", forHTTPHeaderField: "X-API-KEY")

            _ = try await transport.send(request)

            let lines = handler.entries.map { "\($0.message) \($0.metadata)" }
            #expect(lines.count == 4)
            #expect(
                handler.entries.first?.message.description
                    == "→ GET https://api.example.com/a?ACCESS_TOKEN=***&Api%5Fkey=***&%73ig=***&page=%41 (0 bytes)")
            for secret in ["t0ken", "k3y", "s1g", "pr0xy", "c00kie", "s3ssion"] {
                #expect(lines.allSatisfy { !$0.contains(secret) }, "\(secret) was logged")
            }
            #expect(lines.last?.contains("fox") == true)
        }

        /// Pinned: a body with line breaks and an escape sequence stays one value on its trace line, escaped.
        @Test func aMultiLineBodyIsEscapedOnItsTraceLine() async throws {
            let (logger, handler) = memoryLogger(level: .trace)
            let answer = "one\r\ntwo\u{1B}[31m\u{2028}"
            let transport = ClosureTransport { request in try reply(request, 200, body: answer) }
                .with(.logging(logger, clock: RecordingClock()))
            var request = URLRequest(method: .post, url: try #require(URL(string: "https://api.example.com/items")))
            request.httpBody = Data("a=1\nb=2".utf8)

            _ = try await transport.send(request)

            let bodies = handler.entries.filter { $0.level == .trace }.map { $0.metadata["body"] }
            #expect(bodies == [#"a=1\nb=2"#, #"one\r\ntwo\u{1B}[31m\u{2028}"#])
        }
    }
#endif
