import Foundation
import Logging
import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPMiddleware {
    /// Logs one line per request and one per response (or failure) through swift-log's `Logger`: method, URL,
    /// status, body size, duration, and the attempt number after a retry.
    ///
    /// ```swift
    /// let transport = URLSessionTransport.shared.with(.retry(), .logging(Logger(label: "api")))
    /// // → GET https://api.example.com/todos?page=2 (0 bytes)
    /// // ← 200 GET https://api.example.com/todos?page=2 (1532 bytes, 84 ms)
    /// ```
    ///
    /// - Headers and bodies are logged only when the logger's level is `trace`: one more line per request and per
    ///   response, with `headers` and `body` (its first 1000 bytes, as text) in the metadata.
    /// - Secrets are always redacted, whatever the level: the values of `Authorization`, `Proxy-Authorization`,
    ///   `Cookie`, `Set-Cookie` and the headers and query parameters `redaction` names (see `HTTPRedaction`); the
    ///   first four even when `redaction` was built without them. Bodies are not redacted: keep trace level off
    ///   where bodies carry secrets.
    /// - Put it below the retry middleware to log every attempt, and below the authorization middleware to see
    ///   the header it adds (redacted).
    ///
    /// - Parameters:
    ///   - logger: Where the lines go.
    ///   - level: The level of the request and response lines; failures are logged at `warning` or this level,
    ///     whichever is higher.
    ///   - redaction: Which headers and query parameters hold secrets, besides the usual ones.
    ///   - clock: What durations are measured with.
    public static func logging(
        _ logger: Logger, level: Logger.Level = .info, redaction: HTTPRedaction = .default,
        clock: MiddlewareClock = .continuous
    ) -> HTTPMiddleware {
        let redaction = redaction.adding(headers: HTTPRedaction.default.headers)
        return HTTPMiddleware { request, next in
            let attempt = HTTPMiddleware.attempt
            let exchange =
                "\(request.httpMethod ?? "GET") \(request.url.map(redaction.redacted(url:)) ?? "(no URL)")"
                + (attempt > 1 ? " (attempt \(attempt))" : "")
            let requestBody = request.httpBody ?? Data()
            logger.log(level: level, "→ \(exchange) (\(requestBody.count) bytes)")
            if logger.logLevel <= .trace {
                logger.trace(
                    "→ \(exchange) headers and body",
                    metadata: details(request.allHTTPHeaderFields ?? [:], requestBody, redaction))
            }
            let start = clock.now()
            func elapsed() -> String { "\(Int(((clock.now() - start) * 1000).rounded())) ms" }
            do {
                let (body, response) = try await next.send(request)
                logger.log(level: level, "← \(response.statusCode) \(exchange) (\(body.count) bytes, \(elapsed()))")
                if logger.logLevel <= .trace {
                    let headers = response.allHeaderFields.reduce(into: [String: String]()) {
                        $0[String(describing: $1.key)] = String(describing: $1.value)
                    }
                    logger.trace(
                        "← \(response.statusCode) \(exchange) headers and body",
                        metadata: details(headers, body, redaction))
                }
                return (body, response)
            } catch {
                // Through HTTPTransportError's description, which redacts URLs and prints a URLError as its code
                // and reason (its userInfo would print the failing URL unredacted). The line has the URL already.
                var failure = HTTPTransportError(mapping: error, request: nil)
                failure.request = nil
                let reason = failure.description(redacting: redaction)
                logger.log(level: max(level, .warning), "✗ \(exchange) failed after \(elapsed()): \(reason)")
                throw error
            }
        }
    }
}

/// The trace-level metadata of a request or response: its headers, secrets redacted, and the start of its body.
private func details(_ headers: [String: String], _ body: Data, _ redaction: HTTPRedaction) -> Logger.Metadata {
    let limit = 1000
    let text = String(decoding: body.prefix(limit), as: UTF8.self)
    return [
        "headers": .dictionary(redaction.redacted(headers: headers).mapValues { .string($0) }),
        "body": .string(body.count > limit ? text + "… (\(body.count) bytes)" : text),
    ]
}
