import Foundation
@_spi(TinyKit) import TinyHTTPTransport

extension URLSession {
    /// Starts loading an endpoint and calls `onComplete` with the result (TinyNetworking's shape).
    ///
    /// ```swift
    /// URLSession.shared.load(endpoint) { result in
    ///     print(result)
    /// }
    /// ```
    ///
    /// `onComplete` runs on the session's delegate queue, never on the main thread of its own accord; parsing
    /// runs there too. It is ``dataTask(endpoint:completionHandler:)``, resumed: the same send path as
    /// `try await session.load(endpoint)`. Errors are those of ``dataTask(endpoint:completionHandler:)``.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint to load.
    ///   - onComplete: Called once with the parsed result or the error.
    /// - Returns: The started task; cancel it to cancel the request (`onComplete` then gets an `HTTPTransportError`
    ///   with the code `cancelled`).
    @discardableResult
    public func load<A>(
        _ endpoint: Endpoint<A>, onComplete: @escaping @Sendable (Result<A, any Error>) -> Void
    ) -> URLSessionDataTask {
        let task = dataTask(endpoint: endpoint, completionHandler: onComplete)
        task.resume()
        return task
    }

    /// Creates a data task for an endpoint, not yet resumed (TinyHTTP's shape): call `resume()` to start it.
    ///
    /// ```swift
    /// let task = URLSession.shared.dataTask(endpoint: endpoint) { result in
    ///     print(result)
    /// }
    /// task.resume()
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint to load.
    ///   - completionHandler: Called once, on the session's delegate queue, with the parsed result or the error:
    ///     an `HTTPTransportError` for transport failures (code `cancelled` when the task was cancelled) and for
    ///     unacceptable status codes (with response and body), an ``EndpointError`` when the response could not be
    ///     decoded. A request that `URLRequest.validate()` refuses, or an endpoint with a ``Endpoint/requestError``,
    ///     fails with that error, and the returned task is already cancelled: nothing is sent.
    ///
    /// It sends exactly as `URLSession`'s `send(_:)` does (the same checks, error mapping and, on Linux, the same
    /// prompt `401` for a challenge carrying `WWW-Authenticate`, on `URLSession.shared` too).
    /// - Returns: The task, suspended.
    public func dataTask<A>(
        endpoint: Endpoint<A>, completionHandler: @escaping @Sendable (Result<A, any Error>) -> Void
    ) -> URLSessionDataTask {
        #if canImport(FoundationNetworking)
            // A session without a delegate sends through its twin, whose queue is TinyKit's: back to this one's.
            let queue = delegate == nil ? delegateQueue : nil
        #else
            let queue: OperationQueue? = nil
        #endif
        return makeDataTask(for: endpoint.request, refusal: endpoint.requestError) { result in
            let finish = { @Sendable in completionHandler(result.flatMap { endpoint.result(data: $0, response: $1) }) }
            if let queue { queue.addOperation(finish) } else { finish() }
        }
    }
}
