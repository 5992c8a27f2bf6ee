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

    /// Loads an endpoint (TinyNetworking's async shape): the same as `HTTPTransport.load(_:)` on this session.
    ///
    /// ```swift
    /// let user = try await URLSession.shared.load(endpoint)
    /// ```
    ///
    /// Cancelling the awaiting task cancels the request. Parsing never runs on the caller's actor.
    ///
    /// - Parameter endpoint: The endpoint to load.
    /// - Returns: The parsed result.
    /// - Throws: As ``dataTask(endpoint:completionHandler:)`` reports.
    public func load<A>(_ endpoint: Endpoint<A>) async throws -> sending A {
        try await SessionTransport(session: self).load(endpoint)
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
    ///     unacceptable status codes (with response and body), an ``EndpointError`` when the request could not be
    ///     built (the task is then already cancelled and sends nothing) or the response could not be decoded.
    /// - Returns: The task, suspended.
    public func dataTask<A>(
        endpoint: Endpoint<A>, completionHandler: @escaping @Sendable (Result<A, any Error>) -> Void
    ) -> URLSessionDataTask {
        let task = dataTask(with: endpoint.request) { data, response, error in
            if let requestError = endpoint.requestError {
                completionHandler(.failure(requestError))
            } else if let error {
                completionHandler(.failure(transportError(error, request: endpoint.request, response: response)))
            } else if let response = response as? HTTPURLResponse {
                completionHandler(endpoint.result(data: data ?? Data(), response: response))
            } else {
                completionHandler(.failure(EndpointError.notHTTPResponse))
            }
        }
        if endpoint.requestError != nil { task.cancel() }
        return task
    }
}

/// A transport over a given session, for `URLSession.load(_:)`.
private struct SessionTransport: HTTPTransport {
    let session: URLSession

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw transportError(error, request: request, response: nil)
        }
        guard let response = response as? HTTPURLResponse else { throw EndpointError.notHTTPResponse }
        return (data, response)
    }
}

/// An error of `URLSession` as an `HTTPTransportError` in the category a caller can act on, keeping the original.
func transportError(_ error: any Error, request: URLRequest, response: URLResponse?) -> HTTPTransportError {
    if let error = error as? HTTPTransportError { return error }
    let code: HTTPTransportError.Code
    switch (error as? URLError)?.code {
    case .cancelled?: code = .cancelled
    case .timedOut?: code = .timedOut
    case .cannotConnectToHost?, .cannotFindHost?, .dnsLookupFailed?, .networkConnectionLost?,
        .notConnectedToInternet?:
        code = .cannotConnect
    case .badURL?, .unsupportedURL?: code = .invalidRequest
    default: code = error is CancellationError ? .cancelled : .other
    }
    return HTTPTransportError(
        code, request: request, response: response as? HTTPURLResponse, underlyingError: error,
        message: (error as? URLError)?.localizedDescription)
}
