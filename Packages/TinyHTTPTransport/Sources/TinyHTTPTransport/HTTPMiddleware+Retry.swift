import Foundation

extension HTTPMiddleware {
    /// Sends a request again after a retryable failure or status, waiting with exponential backoff and jitter or
    /// as `Retry-After` asks (see ``RetryPolicy``).
    ///
    /// ```swift
    /// let transport = URLSessionTransport.shared.with(.retry(RetryPolicy(maxAttempts: 4)))
    /// ```
    ///
    /// - A response that is not retryable, or that came on the first and only attempt, is returned as it is.
    /// - When a retryable status persists after the last attempt (or asks, with `Retry-After`, to wait longer than
    ///   ``RetryPolicy/maxRetryAfter``, after a retry), it throws ``HTTPTransportError`` with code
    ///   ``HTTPTransportError/Code/unacceptableStatus(_:)``, the last response and body, and
    ///   ``HTTPTransportError/attempts``. When a retryable failure persists, the last ``HTTPTransportError`` is
    ///   thrown with ``HTTPTransportError/attempts`` set (a retryable `URLError` becomes one). Errors that are
    ///   neither pass through unchanged, unretried. The count travels in the error, never on the side.
    /// - Cancelling the awaiting task during a wait ends it at once with ``HTTPTransportError/Code/cancelled``.
    /// - A request with an `httpBodyStream` is sent once: the first send reads the stream, so another would send an
    ///   empty body.
    ///
    /// - Parameters:
    ///   - policy: How many attempts, which requests and failures, how long to wait.
    ///   - clock: What the waits are waited on; a test clock makes them instant.
    public static func retry(_ policy: RetryPolicy = RetryPolicy(), clock: any Clock<Duration> = ContinuousClock())
        -> HTTPMiddleware
    {
        HTTPMiddleware { request, next in
            // A body stream is read by the first send: another would send it empty.
            let retries = policy.retryableMethods.contains(request.method) && request.httpBodyStream == nil
            let maxAttempts = retries ? max(policy.maxAttempts, 1) : 1
            var attempt = 1
            var sends = 0  // the request's sends so far: a failure of an inner retry says how many it made
            do {
                while true {
                    var retryAfter: Duration?  // the wait a retryable status asks for (none: the backoff)
                    switch await Result(catching: { try await next.send(request) }) {
                    case .success((let body, let response)):
                        sends += 1
                        guard policy.retryableStatuses.contains(response.statusCode) else { return (body, response) }
                        retryAfter = RetryPolicy.retryAfter(of: response)
                        guard attempt < maxAttempts, retryAfter.map({ $0 <= policy.maxRetryAfter }) ?? true else {
                            guard attempt > 1 else { return (body, response) }  // never retried: as it came
                            throw HTTPTransportError(
                                .unacceptableStatus(response.statusCode), request: request, response: response,
                                body: body)
                        }
                    case .failure(let error):
                        // A `URLError` from a transport that does not map its errors is classified like one that does.
                        let failure = HTTPTransportError(mapping: error, request: request)
                        sends += failure.attempts
                        let isRetryable = policy.isRetryable(failure)
                        guard attempt < maxAttempts, isRetryable, !Task.isCancelled else {
                            throw error is HTTPTransportError || isRetryable ? failure : error
                        }
                    }
                    do {
                        try await clock.sleep(for: retryAfter ?? policy.backoff(afterAttempt: attempt))
                        try Task.checkCancellation()
                    } catch {
                        throw HTTPTransportError(.cancelled, request: request, underlyingError: error)
                    }
                    attempt += 1
                }
            } catch var error as HTTPTransportError {
                error.attempts = sends  // every HTTPTransportError thrown above carries the count
                throw error
            }
        }
    }
}
