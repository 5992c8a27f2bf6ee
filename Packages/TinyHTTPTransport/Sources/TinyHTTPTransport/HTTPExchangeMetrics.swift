import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the metrics middleware (``HTTPMiddleware/metrics(clock:started:finished:)``) reports about one finished
/// exchange: one request sent once, whether a response came or not.
public struct HTTPExchangeMetrics: Sendable {
    /// The request as it was passed on.
    public var request: URLRequest
    /// The attempt number, `1` for the first (see ``HTTPMiddleware/attempt``).
    public var attempt: Int
    /// Seconds from sending the request to the response or the failure.
    public var duration: Double
    /// The size of the request body in bytes (`0` without one).
    public var requestBytes: Int
    /// The response, when one came.
    public var response: HTTPURLResponse?
    /// The size of the response body in bytes (`0` without a response).
    public var responseBytes: Int
    /// The failure, when no response came.
    public var error: (any Error)?

    /// Creates metrics.
    public init(
        request: URLRequest, attempt: Int, duration: Double, requestBytes: Int, response: HTTPURLResponse?,
        responseBytes: Int, error: (any Error)?
    ) {
        self.request = request
        self.attempt = attempt
        self.duration = duration
        self.requestBytes = requestBytes
        self.response = response
        self.responseBytes = responseBytes
        self.error = error
    }

    /// The response's status code, when a response came.
    public var statusCode: Int? { response?.statusCode }
}

extension HTTPMiddleware {
    /// Reports each request when it starts and when it finishes, with its duration, sizes, status and attempt
    /// number, to your closures (feed them to your metrics system).
    ///
    /// ```swift
    /// let transport = URLSessionTransport.shared.with(
    ///     .retry(),
    ///     .metrics { metrics in print(metrics.attempt, metrics.statusCode ?? 0, metrics.duration) })
    /// ```
    ///
    /// Put it below ``retry(_:clock:)`` to hear about every attempt, above it to hear about each request once.
    ///
    /// - Parameters:
    ///   - clock: What durations are measured with.
    ///   - started: Called with the request and the attempt number before the request is passed on.
    ///   - finished: Called once the response or the failure came back.
    public static func metrics(
        clock: MiddlewareClock = .continuous,
        started: @escaping @Sendable (_ request: URLRequest, _ attempt: Int) -> Void = { _, _ in },
        finished: @escaping @Sendable (HTTPExchangeMetrics) -> Void
    ) -> HTTPMiddleware {
        HTTPMiddleware { request, next in
            let attempt = HTTPMiddleware.attempt
            started(request, attempt)
            let start = clock.now()
            func report(_ response: HTTPURLResponse?, _ body: Data, _ error: (any Error)?) {
                finished(
                    HTTPExchangeMetrics(
                        request: request, attempt: attempt, duration: clock.now() - start,
                        requestBytes: request.httpBody?.count ?? 0, response: response, responseBytes: body.count,
                        error: error))
            }
            do {
                let (body, response) = try await next.send(request)
                report(response, body, nil)
                return (body, response)
            } catch {
                report(nil, Data(), error)
                throw error
            }
        }
    }
}
