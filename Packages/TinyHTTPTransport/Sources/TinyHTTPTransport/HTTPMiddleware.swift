import Foundation

/// A step around a transport: it gets each request and the rest of the chain (`next`), and may change the
/// request, send it several times, or look at the response.
///
/// Add middleware to any ``HTTPTransport`` with ``HTTPTransport/with(_:)``; the result is a transport too, so it
/// works under every consumer and over every mock. **The first one listed is the outermost**: it sees the request
/// first and the response last.
///
/// ```swift
/// let transport = URLSessionTransport.shared.with(
///     .retry(RetryPolicy(maxAttempts: 3)),      // outermost: each attempt goes through the ones below
///     .authorization(tokens),                   // adds the credential, refreshes it once on 401
///     .defaultHeaders(["User-Agent": "MyApp/1.0"]))
/// ```
///
/// Write your own with a closure:
///
/// ```swift
/// let requestID = HTTPMiddleware { request, next in
///     var request = request
///     request.setValue(UUID().uuidString, forHTTPHeaderField: "X-Request-ID")
///     return try await next.send(request)
/// }
/// ```
public struct HTTPMiddleware: Sendable {
    /// Handles one request: calls `next.send(_:)` zero or more times and returns a response or throws.
    let intercept: @Sendable (_ request: URLRequest, _ next: any HTTPTransport) async throws -> (Data, HTTPURLResponse)

    /// Creates a middleware from the function that handles each request (`next` is the rest of the chain).
    public init(
        _ intercept: @escaping @Sendable (URLRequest, _ next: any HTTPTransport) async throws -> (Data, HTTPURLResponse)
    ) {
        self.intercept = intercept
    }
}

/// A transport with one middleware around the rest of the chain: what ``HTTPTransport/with(_:)`` returns, one
/// around the next, and what each middleware gets as `next`.
struct MiddlewareTransport: HTTPTransport {
    /// The middleware this transport sends through.
    let middleware: HTTPMiddleware
    /// The rest of the chain: the next middleware, and finally the transport that sends the requests.
    let next: any HTTPTransport

    /// Sends `request` through ``middleware``, which passes it on to ``next``.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await middleware.intercept(request, next)
    }
}

extension HTTPTransport {
    /// This transport with `middleware` around it; the first one listed is the outermost.
    ///
    /// ```swift
    /// let transport = URLSessionTransport.shared.with(.retry(), .defaultHeaders(["User-Agent": "MyApp/1.0"]))
    /// ```
    public func with(_ middleware: HTTPMiddleware...) -> any HTTPTransport {
        middleware.reversed().reduce(self as any HTTPTransport) { MiddlewareTransport(middleware: $1, next: $0) }
    }
}
