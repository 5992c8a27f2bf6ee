// The middleware needs swift-log, which TinyKit resolves only with its `Logging` trait (the root Package.swift sets
// the `Logging` condition then; the standalone Packages/TinyHTTPLogging/Package.swift always does).
#if Logging
    import Foundation
    import Logging
    @_spi(TinyKit) import TinyHTTPTransport

    extension HTTPMiddleware {
        /// Logs one line per request and one per response (or failure) through swift-log's `Logger`: method, URL,
        /// status, body size (or `a body stream`) and duration.
        ///
        /// ```swift
        /// let transport = URLSessionTransport.shared.with(.retry(), .logging(Logger(label: "api")))
        /// // → GET https://api.example.com/todos?page=2 (0 bytes)
        /// // ← 200 GET https://api.example.com/todos?page=2 (1532 bytes, 84 ms)
        /// ```
        ///
        /// - Headers and bodies are logged only when the logger's level is `trace`: one more line per request and per
        ///   response (a failure's too, when it carries one), with `headers` and `body` (its first 1000 bytes, as text,
        ///   on one line) in the metadata. A failure's line names an underlying error of a type other than
        ///   `HTTPTransportError` and `URLError` by its `errorDescription`, else its type: its description may hold a
        ///   body.
        /// - Secrets are always redacted, whatever the level: the values of the headers and query parameters of
        ///   `HTTPRedaction.default` (`Authorization`, `Cookie`, `access_token`, …), secret in every redaction, and
        ///   those `redaction` names, in the request's URL and in a URL a header value carries (`Location`,
        ///   `Content-Location`, each `<…>` of `Link`). Bodies are not redacted: keep trace level off where bodies
        ///   carry secrets.
        /// - Put it below the retry middleware to log every attempt, and below the authorization middleware to see
        ///   the header it adds (redacted: `Authorization`, an API's own such as `Private-Token`, whose name reads as a
        ///   credential, or another that `redaction` names: `HTTPRedaction(headers: ["X-Honeycomb-Team"])`).
        ///
        /// - Parameters:
        ///   - logger: Where the lines go.
        ///   - level: The level of the request and response lines; failures are logged at `warning` or this level,
        ///     whichever is higher; a cancellation, the caller's choice, at this level.
        ///   - redaction: Which headers and query parameters hold secrets, besides the usual ones.
        ///   - clock: What durations are measured with (any `Clock<Duration>`).
        public static func logging(
            _ logger: Logger, level: Logger.Level = .info, redaction: HTTPRedaction = .default,
            clock: any Clock<Duration> = ContinuousClock()
        ) -> HTTPMiddleware {
            // The metrics middleware times each exchange; each line makes its own redacted summary (a URL parse).
            .metrics(clock: clock) { request in
                let exchange = redaction.summary(of: request)
                let body = request.httpBodyStream == nil ? request.httpBody ?? Data() : nil  // `nil`: a body stream
                logger.log(level: level, "→ \(exchange) (\(body.map { "\($0.count) bytes" } ?? "a body stream"))")
                // `trace` evaluates its metadata only when the logger's level is `trace`.
                logger.trace(
                    "→ \(exchange) headers and body",
                    metadata: details(request.allHTTPHeaderFields ?? [:], body, redaction))
            } finished: { metrics in
                let exchange = redaction.summary(of: metrics.request)
                let elapsed = "\(Int((metrics.duration / .milliseconds(1)).rounded())) ms"
                switch metrics.result {
                case .success((let body, let response)):
                    logger.log(level: level, "← \(response.statusCode) \(exchange) (\(body.count) bytes, \(elapsed))")
                    logger.trace(
                        "← \(response.statusCode) \(exchange) headers and body",
                        metadata: details(response.allHeaderFields, body, redaction))
                case .failure(let error):
                    // Through HTTPTransportError's description, which redacts URLs and prints a URLError as its code
                    // and reason (its userInfo would print the failing URL unredacted). The line has the URL already.
                    // Bodies stay on trace lines: the failure of a status the retry middleware gave up on carries one.
                    let mapped = HTTPTransportError(mapping: error, request: nil)
                    if let response = mapped.response {
                        logger.trace(
                            "← \(response.statusCode) \(exchange) headers and body",
                            metadata: details(response.allHeaderFields, mapped.body ?? Data(), redaction))
                    }
                    var failure = withoutBodies(mapped)
                    failure.request = nil
                    // A cancellation is the caller's choice (a screen left, say), not a failure to warn about.
                    if failure.code == .cancelled {
                        logger.log(level: level, "✗ \(exchange) cancelled after \(elapsed)")
                        return
                    }
                    let reason = failure.description(redacting: redaction)
                    logger.log(level: max(level, .warning), "✗ \(exchange) failed after \(elapsed): \(reason)")
                }
            }
        }
    }

    /// `error` without its body, nor that of any `HTTPTransportError` nested in it (a token endpoint's, say). Another
    /// error under it (not a `URLError`) is told by its `errorDescription` or its type only: its own description may
    /// hold a body, or a URL redacted with another redaction.
    private func withoutBodies(_ error: HTTPTransportError) -> HTTPTransportError {
        var error = error
        error.body = nil
        switch error.underlyingError {
        case let nested as HTTPTransportError: error.underlyingError = withoutBodies(nested)
        case let other? where !(other is URLError) && (other as NSError).domain != NSURLErrorDomain:
            error.underlyingError = Told(
                description: (other as? any LocalizedError)?.errorDescription ?? "\(type(of: other))")
        default: break
        }
        return error
    }

    /// An error told by a text, in place of one whose description must not be logged.
    private struct Told: Error, CustomStringConvertible {
        var description: String
    }

    /// The trace lines' metadata: the headers (a request's or a response's) with their secrets redacted, and the body's
    /// first 1000 bytes (`nil`: a body stream).
    private func details(_ headers: [AnyHashable: Any], _ body: Data?, _ redaction: HTTPRedaction) -> Logger.Metadata {
        // `redacted(headers:)` also redacts a URL a value carries (`Location`, each `<…>` of `Link`, `Refresh`'s `url=…`).
        let fields = Dictionary(headers.map { ("\($0.key)", "\($0.value)") }, uniquingKeysWith: { $1 })
        return [
            "headers": .dictionary(redaction.redacted(headers: fields).mapValues { .string($0) }),
            "body": .string(body.map { HTTPRedaction.preview(of: $0, limit: 1000) } ?? "(a body stream)"),
        ]
    }
#else
    import TinyHTTPTransport

    extension HTTPMiddleware {
        /// Not built: the `Logging` trait of TinyKit is off, so swift-log was not resolved.
        ///
        /// Enable it where you depend on TinyKit (Swift 6.2 or later):
        /// `.package(url: "https://github.com/OWNER/tinykit", from: "1.0.0", traits: ["Logging"])`.
        @available(
            *, unavailable,
            message: "enable TinyKit's Logging trait: .package(url: ..., from: ..., traits: [\"Logging\"])"
        )
        public static func logging(
            _ logger: Any, level: Any? = nil, redaction: HTTPRedaction = .default, clock: Any? = nil
        ) -> HTTPMiddleware {
            // Never called (unavailable); a pass-through rather than a crash all the same.
            HTTPMiddleware { request, next in try await next.send(request) }
        }
    }
#endif
