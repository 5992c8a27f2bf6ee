import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPMiddleware {
    /// Sends a request again after a retryable failure or status, waiting with exponential backoff and jitter or
    /// as `Retry-After` asks (see ``RetryPolicy``).
    ///
    /// ```swift
    /// let transport = URLSessionTransport.shared.with(.retry(RetryPolicy(maxAttempts: 4)))
    /// ```
    ///
    /// - When a retryable status persists, the **last response is returned as it is** (a transport returns every
    ///   response; validate its status as usual); ``HTTPTransport/sendCountingAttempts(_:)`` tells how many attempts
    ///   were made, and `Endpoint` loading puts that count in its unacceptable-status error. When a failure persists, the last ``HTTPTransportError`` is
    ///   thrown with ``HTTPTransportError/attempts`` set to the number of attempts made (a retryable `URLError`
    ///   becomes one). Errors that are neither pass through unchanged, unretried.
    /// - Cancelling the awaiting task during a wait ends it at once with ``HTTPTransportError/Code/cancelled``.
    /// - Middleware below this one can read the attempt number from ``attempt``.
    ///
    /// - Parameters:
    ///   - policy: How many attempts, which requests and failures, how long to wait.
    ///   - clock: What the waits are waited on; a test clock makes them instant.
    public static func retry(_ policy: RetryPolicy = RetryPolicy(), clock: MiddlewareClock = .continuous)
        -> HTTPMiddleware
    {
        HTTPMiddleware { request, next in
            let method = request.method
            let maxAttempts = policy.retryableMethods.contains(method) ? max(policy.maxAttempts, 1) : 1
            var attempt = 1
            while true {
                let delay: Double
                do {
                    AttemptCounter.current?.record(attempt)
                    let (body, response) = try await HTTPMiddleware.$attempt.withValue(attempt) {
                        try await next.send(request)
                    }
                    guard attempt < maxAttempts, policy.retryableStatuses.contains(response.statusCode) else {
                        return (body, response)
                    }
                    if let retryAfter = RetryPolicy.retryAfter(of: response) {
                        guard retryAfter <= policy.maxRetryAfter else { return (body, response) }
                        delay = retryAfter
                    } else {
                        delay = policy.backoff(afterAttempt: attempt)
                    }
                } catch {
                    // A `URLError` from a transport that does not map its errors is classified like one that does.
                    var failure = HTTPTransportError(mapping: error, request: request)
                    failure.attempts = attempt
                    let isRetryable = policy.isRetryable(failure)
                    guard attempt < maxAttempts, isRetryable, !Task.isCancelled else {
                        throw error is HTTPTransportError || isRetryable ? failure : error
                    }
                    delay = policy.backoff(afterAttempt: attempt)
                }
                do {
                    try await clock.sleep(delay)
                    try Task.checkCancellation()
                } catch {
                    var cancelled = HTTPTransportError(.cancelled, request: request, underlyingError: error)
                    cancelled.attempts = attempt
                    throw cancelled
                }
                attempt += 1
            }
        }
    }
}
