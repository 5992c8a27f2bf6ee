import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the metrics middleware (``HTTPMiddleware/metrics(clock:started:finished:)``) reports about one finished
/// exchange: one request sent once, whether a response came or not.
public struct HTTPExchangeMetrics: Sendable {
    /// The request as it was passed on.
    public var request: URLRequest
    /// The time from sending the request to the response or the failure.
    public var duration: Duration
    /// The size of the request body in bytes (`0` without one).
    public var requestBytes: Int
    /// The response, when one came.
    public var response: HTTPURLResponse?
    /// The size of the response body in bytes (`0` without a response).
    public var responseBytes: Int
    /// The failure, when no response came.
    public var error: (any Error)?

    init(
        request: URLRequest, duration: Duration, requestBytes: Int, response: HTTPURLResponse?,
        responseBytes: Int, error: (any Error)?
    ) {
        self.request = request
        self.duration = duration
        self.requestBytes = requestBytes
        self.response = response
        self.responseBytes = responseBytes
        self.error = error
    }

}

extension HTTPMiddleware {
    /// Reports each request when it starts and when it finishes, with its duration, sizes and status, to your
    /// closures (feed them to your metrics system).
    ///
    /// ```swift
    /// let transport = URLSessionTransport.shared.with(
    ///     .retry(),
    ///     .metrics { metrics in print(metrics.statusCode ?? 0, metrics.duration) })
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
        clock: any Clock<Duration> = ContinuousClock(),
        started: @escaping @Sendable (_ request: URLRequest) -> Void = { _ in },
        finished: @escaping @Sendable (HTTPExchangeMetrics) -> Void
    ) -> HTTPMiddleware {
        HTTPMiddleware { request, next in
            started(request)
            let (result, duration) = await measure(on: clock) { try await next.send(request) }
            var metrics = HTTPExchangeMetrics(
                request: request, duration: duration, requestBytes: request.httpBody?.count ?? 0, response: nil,
                responseBytes: 0, error: nil)
            switch result {
            case .success((let body, let response)): (metrics.response, metrics.responseBytes) = (response, body.count)
            case .failure(let error): metrics.error = error
            }
            finished(metrics)
            return try result.get()
        }
    }
}

/// Runs `body` and returns what it returned or threw, with the time it took on `clock`.
@_spi(TinyKit) public func measure<T>(
    on clock: some Clock<Duration>, _ body: () async throws -> T
) async -> (result: Result<T, any Error>, duration: Duration) {
    let start = clock.now
    let result = await Result(catching: body)
    return (result, start.duration(to: clock.now))
}
