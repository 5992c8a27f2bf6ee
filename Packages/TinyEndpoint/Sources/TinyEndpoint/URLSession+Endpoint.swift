import Foundation
import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
    /// runs there too. Errors are those of ``dataTask(endpoint:completionHandler:)``.
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
    ///     decoded. A request with CR or LF in a header value, or a method that is not an HTTP token, fails with the
    ///     code `invalidRequest`, and the returned task is already cancelled: nothing is sent.
    ///
    /// On Linux, a `401` carrying `WWW-Authenticate` never completes on a session without a delegate that cancels
    /// authentication challenges (swift-corelibs-foundation issue 5456); `URLSessionTransport` handles it, so
    /// prefer `try await transport.load(endpoint)` on a `URLSessionTransport` there.
    /// - Returns: The task, suspended.
    public func dataTask<A>(
        endpoint: Endpoint<A>, completionHandler: @escaping @Sendable (Result<A, any Error>) -> Void
    ) -> URLSessionDataTask {
        let invalidHeaders = Result {
            try endpoint.request.validateHeaders()
            try endpoint.request.validateMethod()
        }.error
        let task = dataTask(with: endpoint.request) { data, response, error in
            if let invalidHeaders {
                completionHandler(.failure(invalidHeaders))
            } else if let error {
                var error = HTTPTransportError(mapping: error, request: endpoint.request)
                error.response = error.response ?? response as? HTTPURLResponse
                completionHandler(.failure(error))
            } else if let response = response as? HTTPURLResponse {
                completionHandler(endpoint.result(data: data ?? Data(), response: response))
            } else {
                completionHandler(.failure(EndpointError.notHTTPResponse))
            }
        }
        // A request with a CR or LF in a header value, or a bad method, is never sent: the task is cancelled before
        // anyone resumes it.
        if invalidHeaders != nil { task.cancel() }
        return task
    }
}

extension Result {
    /// The failure, if this is one.
    fileprivate var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
