import Foundation

/// What the metrics middleware (``HTTPMiddleware/metrics(clock:started:finished:)``) reports about one finished
/// exchange: one request sent once, whether a response came or not.
public struct HTTPExchangeMetrics: Sendable {
    /// The request as it was passed on (its body's size is `request.httpBody?.count`).
    public var request: URLRequest
    /// The time from sending the request to the response or the failure.
    public var duration: Duration
    /// The response and its body, or the failure when no response came.
    public var result: Result<(body: Data, response: HTTPURLResponse), any Error>
}

extension HTTPMiddleware {
    /// Reports each request when it starts and when it finishes, with its duration and its response or failure,
    /// to your closures (feed them to your metrics system).
    ///
    /// ```swift
    /// let transport = URLSessionTransport.shared.with(
    ///     .retry(),
    ///     .metrics { metrics in print((try? metrics.result.get())?.response.statusCode ?? 0, metrics.duration) })
    /// ```
    ///
    /// Put it below ``retry(_:clock:)`` to hear about every attempt, above it to hear about each request once (a
    /// failure after retries then carries ``HTTPTransportError/attempts``).
    ///
    /// - Parameters:
    ///   - clock: What durations are measured with.
    ///   - started: Called with the request before it is passed on.
    ///   - finished: Called once the response or the failure came back.
    public static func metrics(
        clock: some Clock<Duration> = ContinuousClock(),
        started: @escaping @Sendable (_ request: URLRequest) -> Void = { _ in },
        finished: @escaping @Sendable (HTTPExchangeMetrics) -> Void
    ) -> HTTPMiddleware {
        HTTPMiddleware { request, next in
            started(request)
            let start = clock.now
            let result = await Result { try await next.send(request) }
            let duration = start.duration(to: clock.now)
            finished(HTTPExchangeMetrics(request: request, duration: duration, result: result.map { ($0, $1) }))
            return try result.get()
        }
    }
}
